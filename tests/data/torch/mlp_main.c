/* Calls the library compiled from tests/data/torch/mlp.pt2 from C, with no Python:
 * mlp_main BATCH IN.bin OUT.bin reads BATCH x 16 f32, writes BATCH x 10 f32 (the result
 * allocated by the runtime: its batch is the input's), then shows a batch of 0 refused. */
#include <stdio.h>
#include <stdlib.h>

#include "mlp.h"

int main(int argc, char **argv) {
    if (argc != 4) return 2;
    int64_t batch = atoll(argv[1]);
    float *x = malloc(sizeof(float) * batch * mlp_main_arg_x_DIM1);
    FILE *in = fopen(argv[2], "rb");
    if (!x || !in || fread(x, sizeof(float) * mlp_main_arg_x_DIM1, batch, in) != (size_t)batch) return 1;
    fclose(in);
    int64_t dims[2] = {batch, mlp_main_arg_x_DIM1};
    aot_tensor args[mlp_main_NUM_ARGS];
    args[mlp_main_arg_x_INDEX] = (aot_tensor){x, dims, 2, mlp_main_arg_x_DTYPE};
    aot_tensor results[1] = {{NULL, NULL, 0, 0}};
    if (mlp_main(args, results) != AOT_OK) {
        fprintf(stderr, "mlp_main failed: %s\n", aot_last_error());
        return 1;
    }
    FILE *out = fopen(argv[3], "wb");
    fwrite(results[0].data, sizeof(float) * results[0].dims[1], results[0].dims[0], out);
    fclose(out);
    aot_tensor_free(&results[0]);
    dims[0] = 0;
    if (mlp_main(args, results) != AOT_OK) printf("refused: %s\n", aot_last_error());
    free(x);
    return 0;
}
