/* A C99 program calling a model on float complex data: AOT_C64 tensors are arrays of
 * `float complex`, (re, im) pairs. Prints the first result and its dtype code. */
#include <complex.h>
#include <stdio.h>

#include "square.h"

int main(void) {
    float complex in[6] = {1 + 2 * I, 3, I, -1, 0.5f - 0.5f * I, 2 * I};
    int64_t dims[2] = {2, 3};
    aot_tensor x = {in, dims, 2, AOT_C64};
    aot_tensor y = {0};
    if (square_main(&x, &y) != AOT_OK) {
        printf("error: %s\n", aot_last_error());
        return 1;
    }
    float complex *out = y.data;
    printf("%g %g %g %g dtype %d %s\n", crealf(out[0]), cimagf(out[0]), crealf(out[5]),
           cimagf(out[5]), (int)y.dtype, aot_dtype_name(y.dtype));
    aot_tensor_free(&y);
    return 0;
}
