/* main.c: runs the MLP of examples/mlp.mlir, compiled by aotc through CMake (CMakeLists.txt),
 * on a fixed input, sizing everything with the named constants of the generated mlp.h. It
 * prints the 8x10 result, one row a line. */
#include <stdio.h>

#include "mlp.h"

#define X_ROWS mlp_main_arg0_DIM0
#define X_COLS mlp_main_arg0_DIM1
#define Y_ROWS mlp_main_result0_DIM0
#define Y_COLS mlp_main_result0_DIM1

int main(void) {
    static float x[X_ROWS * X_COLS], y[Y_ROWS * Y_COLS];
    for (int i = 0; i < X_ROWS * X_COLS; i++) x[i] = (float)(i % 13) / 13.0f - 0.5f;

    int64_t x_dims[] = mlp_main_arg0_DIMS, y_dims[] = mlp_main_result0_DIMS;
    aot_tensor args[mlp_main_NUM_ARGS], results[mlp_main_NUM_RESULTS];
    args[mlp_main_arg0_INDEX] = (aot_tensor){x, x_dims, mlp_main_arg0_RANK, mlp_main_arg0_DTYPE};
    results[mlp_main_result0_INDEX] =
        (aot_tensor){y, y_dims, mlp_main_result0_RANK, mlp_main_result0_DTYPE};
    if (mlp_main(args, results) != AOT_OK) {
        fprintf(stderr, "mlp_main failed: %s\n", aot_last_error());
        return 1;
    }
    for (int i = 0; i < Y_ROWS; i++) {
        for (int j = 0; j < Y_COLS; j++) printf("%s%.7g", j ? " " : "", y[i * Y_COLS + j]);
        printf("\n");
    }
    return 0;
}
