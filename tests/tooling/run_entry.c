/* run_entry.c: runs the entry "main" of an artifact on tensors read from a file and writes its
 * results to another, with no Python: a cross-built artifact runs under qemu-user this way
 * (tests/tooling/cross.py).
 *
 * Build: CC -DMETADATA=NAME_aot_metadata -I DIR run_entry.c ARTIFACT -lm -lpthread -ldl
 * Usage: run_entry IN OUT
 * Both files (little-endian): int32 count, then per tensor int32 dtype (aot_dtype), int32 rank,
 * int64 dims[rank], the elements (dense, row-major). Results are allocated by the runtime. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aot_runtime.h"

const aot_library_info *METADATA(void);

static void *read_exactly(FILE *f, size_t bytes) {
    void *p = malloc(bytes ? bytes : 1);
    if (!p || (bytes && fread(p, bytes, 1, f) != 1)) {
        fprintf(stderr, "run_entry: short input\n");
        exit(2);
    }
    return p;
}

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: %s IN OUT\n", argv[0]);
        return 2;
    }
    const aot_library_info *lib = METADATA();
    const aot_entry_info *entry = NULL;
    for (int i = 0; i < lib->num_entries; i++)
        if (strcmp(lib->entries[i].name, "main") == 0) entry = &lib->entries[i];
    if (!entry) {
        fprintf(stderr, "run_entry: no entry 'main' in '%s'\n", lib->name);
        return 2;
    }
    FILE *in = fopen(argv[1], "rb");
    if (!in) {
        fprintf(stderr, "run_entry: cannot open %s\n", argv[1]);
        return 2;
    }
    int32_t *count = read_exactly(in, sizeof(int32_t));
    if (*count != entry->num_args) {
        fprintf(stderr, "run_entry: %d arguments given, main takes %d\n", *count, entry->num_args);
        return 2;
    }
    aot_tensor *args = calloc(entry->num_args + 1, sizeof(aot_tensor));
    for (int i = 0; i < entry->num_args; i++) {
        int32_t *head = read_exactly(in, 2 * sizeof(int32_t));
        args[i].dtype = head[0];
        args[i].rank = head[1];
        args[i].dims = read_exactly(in, (size_t)head[1] * sizeof(int64_t));
        size_t n = aot_dtype_size(head[0]);
        for (int d = 0; d < head[1]; d++) n *= (size_t)args[i].dims[d];
        args[i].data = read_exactly(in, n);
        free(head);
    }
    fclose(in);
    aot_tensor *results = calloc(entry->num_results + 1, sizeof(aot_tensor));  /* all NULL */
    if (entry->fn(args, results) != AOT_OK) {
        fprintf(stderr, "run_entry: %s\n", aot_last_error());
        return 1;
    }
    FILE *out = fopen(argv[2], "wb");
    int32_t num_results = entry->num_results;
    fwrite(&num_results, sizeof num_results, 1, out);
    for (int i = 0; i < entry->num_results; i++) {
        aot_tensor *t = &results[i];
        size_t n = aot_dtype_size(t->dtype);
        for (int d = 0; d < t->rank; d++) n *= (size_t)t->dims[d];
        fwrite(&t->dtype, sizeof(int32_t), 1, out);
        fwrite(&t->rank, sizeof(int32_t), 1, out);
        if (t->rank) fwrite(t->dims, sizeof(int64_t), (size_t)t->rank, out);
        if (n) fwrite(t->data, n, 1, out);
        aot_tensor_free(t);
    }
    if (fclose(out) != 0) {
        fprintf(stderr, "run_entry: cannot write %s\n", argv[2]);
        return 2;
    }
    return 0;
}
