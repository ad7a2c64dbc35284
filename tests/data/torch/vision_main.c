/* Calls an image model's library (one input x: f32[?, C, H, W], one result [batch, classes])
 * from C, with no Python: built with -DHEADER='"NAME.h"' -DENTRY=NAME_main, run as
 * vision_main BATCH IN.bin OUT.bin; reads BATCH x C x H x W f32, writes the result (allocated
 * by the runtime: its batch is the input's), then shows a batch of 0 refused. */
#include <stdio.h>
#include <stdlib.h>

#include HEADER

#define PASTE(a, b) a##b
#define NAMED(entry, suffix) PASTE(entry, suffix)
#define DIM(i) NAMED(ENTRY, _arg_x_DIM##i)

int main(int argc, char **argv) {
    if (argc != 4) return 2;
    int64_t batch = atoll(argv[1]);
    size_t image = (size_t)DIM(1) * DIM(2) * DIM(3);
    float *x = malloc(sizeof(float) * image * batch);
    FILE *in = fopen(argv[2], "rb");
    if (!x || !in || fread(x, sizeof(float) * image, batch, in) != (size_t)batch) return 1;
    fclose(in);
    int64_t dims[4] = {batch, DIM(1), DIM(2), DIM(3)};
    aot_tensor args[NAMED(ENTRY, _NUM_ARGS)];
    args[NAMED(ENTRY, _arg_x_INDEX)] = (aot_tensor){x, dims, 4, NAMED(ENTRY, _arg_x_DTYPE)};
    aot_tensor results[1] = {{NULL, NULL, 0, 0}};
    if (ENTRY(args, results) != AOT_OK) {
        fprintf(stderr, "%s failed: %s\n", argv[0], aot_last_error());
        return 1;
    }
    FILE *out = fopen(argv[3], "wb");
    fwrite(results[0].data, sizeof(float) * results[0].dims[1], results[0].dims[0], out);
    fclose(out);
    aot_tensor_free(&results[0]);
    dims[0] = 0;
    if (ENTRY(args, results) != AOT_OK) printf("refused: %s\n", aot_last_error());
    free(x);
    return 0;
}
