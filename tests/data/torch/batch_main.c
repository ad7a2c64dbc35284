/* Calls a one-input model's library (x: f32[?, ...], every dim static but the batch; one
 * result [batch, ...]) from C, with no Python: built with -DHEADER='"NAME.h"'
 * -DENTRY=NAME_main, run as batch_main BATCH IN.bin OUT.bin; reads BATCH items of x's shape
 * (f32), writes the result (allocated by the runtime: its batch is the input's), then shows
 * a batch of 0 refused. */
#include <stdio.h>
#include <stdlib.h>

#include HEADER

#define PASTE(a, b) a##b
#define NAMED(entry, suffix) PASTE(entry, suffix)
#define ARG_X(suffix) NAMED(ENTRY, PASTE(_arg_x_, suffix))

int main(int argc, char **argv) {
    if (argc != 4) return 2;
    int64_t batch = atoll(argv[1]);
    int64_t dims[ARG_X(RANK)] = ARG_X(DIMS);
    size_t item = 1;
    for (int i = 1; i < ARG_X(RANK); i++) item *= (size_t)dims[i];
    float *x = malloc(sizeof(float) * item * batch);
    FILE *in = fopen(argv[2], "rb");
    if (!x || !in || fread(x, sizeof(float) * item, batch, in) != (size_t)batch) return 1;
    fclose(in);
    dims[0] = batch;
    aot_tensor args[NAMED(ENTRY, _NUM_ARGS)];
    args[ARG_X(INDEX)] = (aot_tensor){x, dims, ARG_X(RANK), ARG_X(DTYPE)};
    aot_tensor results[1] = {{NULL, NULL, 0, 0}};
    if (ENTRY(args, results) != AOT_OK) {
        fprintf(stderr, "%s failed: %s\n", argv[0], aot_last_error());
        return 1;
    }
    size_t out_item = 1;
    for (int i = 1; i < results[0].rank; i++) out_item *= (size_t)results[0].dims[i];
    FILE *out = fopen(argv[3], "wb");
    fwrite(results[0].data, sizeof(float) * out_item, results[0].dims[0], out);
    fclose(out);
    aot_tensor_free(&results[0]);
    dims[0] = 0;
    if (ENTRY(args, results) != AOT_OK) printf("refused: %s\n", aot_last_error());
    free(x);
    return 0;
}
