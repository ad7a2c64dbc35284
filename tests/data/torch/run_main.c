/* Calls entry 0 of any library from C, with no Python: linked with the library, it finds the
 * entry through aot_library_metadata() (its arguments' dtypes and count) and runs as
 * run_main DIR; reads DIR/argK.dims (the rank, then the dims, as text) and DIR/argK.bin (the
 * raw elements) for each argument K, lets the runtime allocate every result, and writes
 * DIR/resultK.dims (the dtype's name, the rank, the dims) and DIR/resultK.bin. A failing call
 * prints "failed: MESSAGE" and exits with 1. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aot_runtime.h"

static FILE *open_in(const char *dir, const char *name, int k, const char *ext, const char *mode) {
    char path[4096];
    snprintf(path, sizeof path, "%s/%s%d.%s", dir, name, k, ext);
    return fopen(path, mode);
}

static size_t elements(const aot_tensor *t) {
    size_t n = 1;
    for (int d = 0; d < t->rank; d++) n *= (size_t)t->dims[d];
    return n;
}

static int read_arg(const char *dir, int k, const aot_value_info *info, aot_tensor *t) {
    FILE *f = open_in(dir, "arg", k, "dims", "r");
    if (!f || fscanf(f, "%d", &t->rank) != 1) return 0;
    t->dims = calloc((size_t)t->rank + 1, sizeof(int64_t));
    for (int d = 0; d < t->rank; d++)
        if (fscanf(f, "%lld", (long long *)&t->dims[d]) != 1) return 0;
    fclose(f);
    t->dtype = info->dtype;
    size_t bytes = elements(t) * aot_dtype_size(t->dtype);
    t->data = malloc(bytes + 1);
    f = open_in(dir, "arg", k, "bin", "rb");
    if (!f || !t->data || fread(t->data, 1, bytes, f) != bytes) return 0;
    fclose(f);
    return 1;
}

static int write_result(const char *dir, int k, const aot_tensor *t) {
    FILE *f = open_in(dir, "result", k, "dims", "w");
    if (!f) return 0;
    fprintf(f, "%s %d", aot_dtype_name(t->dtype), t->rank);
    for (int d = 0; d < t->rank; d++) fprintf(f, " %lld", (long long)t->dims[d]);
    fclose(f);
    f = open_in(dir, "result", k, "bin", "wb");
    size_t bytes = elements(t) * aot_dtype_size(t->dtype);
    if (!f || (bytes && fwrite(t->data, 1, bytes, f) != bytes)) return 0;
    fclose(f);
    return 1;
}

int main(int argc, char **argv) {
    if (argc != 2) return 2;
    const aot_entry_info *entry = &aot_library_metadata()->entries[0];
    aot_tensor *args = calloc((size_t)entry->num_args + 1, sizeof(aot_tensor));
    aot_tensor *results = calloc((size_t)entry->num_results + 1, sizeof(aot_tensor));
    for (int k = 0; k < entry->num_args; k++)
        if (!read_arg(argv[1], k, &entry->args[k], &args[k])) {
            fprintf(stderr, "cannot read argument %d\n", k);
            return 2;
        }
    for (int k = 0; k < entry->num_results; k++) {
        results[k].rank = entry->results[k].rank;
        results[k].dtype = entry->results[k].dtype;
    }
    if (entry->fn(args, results) != AOT_OK) {
        printf("failed: %s\n", aot_last_error());
        return 1;
    }
    for (int k = 0; k < entry->num_results; k++) {
        if (!write_result(argv[1], k, &results[k])) return 2;
        aot_tensor_free(&results[k]);
    }
    for (int k = 0; k < entry->num_args; k++) {
        free(args[k].data);
        free(args[k].dims);
    }
    free(args);
    free(results);
    return 0;
}
