/* demo.cpp: the compiled MLP from C++, through the class `aotc --cpp-class` writes.
 *
 * Build (what `make demo` does):
 *   aotc compile mlp.mlir --name mlp --cpp-class demo::Mlp -o build/demo/libmlp.so
 *   c++ demo.cpp -I build/demo -L build/demo -lmlp -Wl,-rpath,build/demo -lm -lpthread -ldl
 * Usage: demo_cpp INPUT.bin OUTPUT.bin   (raw little-endian f32, 8x64 in, 8x10 out)
 */
#include <cstdio>

#include "mlp.hpp"

int main(int argc, char **argv) {
    if (argc != 3) {
        std::fprintf(stderr, "usage: %s INPUT.bin OUTPUT.bin\n", argv[0]);
        return 2;
    }
    demo::Mlp model;  // owns its argument and result buffers, as a tfcompile class does

    /* The argument's buffer is the object's own: read the input straight into it. */
    std::FILE *in = std::fopen(argv[1], "rb");
    if (!in || std::fread(model.arg0_data(), model.arg0_size(), 1, in) != 1) {
        std::fprintf(stderr, "cannot read %s\n", argv[1]);
        return 1;
    }
    std::fclose(in);

    if (!model.Run()) {
        std::fprintf(stderr, "Run failed: %s\n", model.error_msg());
        return 1;
    }
    std::printf("C++ class: %s -> %lld x %lld result, row 0: ", demo::Mlp::ArgName(0),
                (long long)model.result0_shape()[0], (long long)model.result0_shape()[1]);
    for (int j = 0; j < 10; j++) std::printf("%.4f ", model.result0(0, j));
    std::printf("\n");

    /* Pointing the argument at the caller's memory instead: no copy. */
    static float zeros[8 * 64];
    model.set_arg0_data(zeros);
    if (model.Run()) std::printf("on zeros, row 0 sums to %.4f\n", [&] {
        float s = 0;
        for (int j = 0; j < 10; j++) s += model.result0(0, j);
        return s;
    }());
    model.set_arg0_data(nullptr);  // back to the object's own buffer (the input read above)
    if (!model.Run()) return 1;

    std::FILE *out = std::fopen(argv[2], "wb");
    if (!out || std::fwrite(model.result0_data(), model.result0_size(), 1, out) != 1) {
        std::fprintf(stderr, "cannot write %s\n", argv[2]);
        return 1;
    }
    std::fclose(out);
    return 0;
}
