/* demo.c: calls the compiled MLP from C, with no Python anywhere.
 *
 * Build (what `make demo` does):
 *   cc demo.c -I build/demo -L build/demo -lmlp -Wl,-rpath,build/demo -lm -lpthread -ldl
 *   cc demo.c -I build/demo build/demo/libmlp.a -lm -lpthread -ldl        (static)
 * Usage: demo INPUT.bin OUTPUT.bin   (raw little-endian f32, 8x64 in, 8x10 out)
 */
#include <stdio.h>
#include <stdlib.h>

#include "mlp.h"

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: %s INPUT.bin OUTPUT.bin\n", argv[0]);
        return 2;
    }
    static float x[8 * 64], y[8 * 10];
    FILE *in = fopen(argv[1], "rb");
    if (!in || fread(x, sizeof x, 1, in) != 1) {
        fprintf(stderr, "cannot read %s\n", argv[1]);
        return 1;
    }
    fclose(in);

    /* The entry's signature is in the generated header and in the metadata. */
    const aot_library_info *info = mlp_aot_metadata();
    printf("library '%s': %d entry point(s), first: %s\n", info->name, info->num_entries,
           info->entries[0].symbol);

    int64_t x_dims[2] = {8, 64}, y_dims[2] = {8, 10};
    aot_tensor args[1] = {{x, x_dims, 2, AOT_F32}};
    aot_tensor results[1] = {{y, y_dims, 2, AOT_F32}}; /* caller-owned: written in place */
    if (mlp_main(args, results) != AOT_OK) {
        fprintf(stderr, "mlp_main failed: %s\n", aot_last_error());
        return 1;
    }
    printf("row 0: ");
    for (int j = 0; j < 10; j++) printf("%.4f ", y[j]);
    printf("\n");

    /* A wrong shape is an error with a message, never a crash. */
    int64_t bad_dims[2] = {8, 63};
    aot_tensor bad[1] = {{x, bad_dims, 2, AOT_F32}};
    if (mlp_main(bad, results) != AOT_OK) printf("bad input rejected: %s\n", aot_last_error());

    /* A result with data == NULL is allocated by the runtime; the caller frees it. */
    aot_tensor owned[1] = {{NULL, NULL, 0, 0}};
    if (mlp_main(args, owned) == AOT_OK) {
        printf("runtime-allocated result: rank %d, dims %lld x %lld\n", owned[0].rank,
               (long long)owned[0].dims[0], (long long)owned[0].dims[1]);
        aot_tensor_free(&owned[0]);
    }

    FILE *out = fopen(argv[2], "wb");
    if (!out || fwrite(y, sizeof y, 1, out) != 1) {
        fprintf(stderr, "cannot write %s\n", argv[2]);
        return 1;
    }
    fclose(out);
    return 0;
}
