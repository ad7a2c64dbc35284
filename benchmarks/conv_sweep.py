"""Convolutions in every form against XLA compiled for each exact shape, in one run.

    /work/jaxenv/bin/python benchmarks/conv_sweep.py [--threads 2] [--reps 15] [--quick]
                                                     [--programs patch_embed,conv1d_k10s5]
                                                     [--clock cpu]

Each program is one convolution (and its bias, which fuses into it) with frozen weights, of a
kind real models are made of: a ViT patch embedding (stride = kernel), wav2vec2's 1-D feature
convolutions (kernel 10 stride 5 from the raw samples, kernel 3 stride 2) and its grouped 1-D
positional convolution (groups of 8 features, and of 16 as in a wider model), DenseNet's
1x1 and 3x3 convolutions on thin channel counts, and
ResNet 3x3 convolutions at batch 1, ResNet-18's four 3x3 convolutions at batch 32 (what
torchvision's ResNet-18 spends its time in), and the depthwise convolutions of MobileNetV3 and
EfficientNet-B0 (`dw*`, NCHW and NHWC). Every program is exported with `jax.export` twice: for
each exact shape (one library per size) and once with symbolic dims (`?` batch, and `?`
length for the 1-D ones: one library for every size), and timed against `jax.jit` compiled
for that exact shape. Prints a row per program and size, ours / XLA for both forms, and the
worst ratio. `--clock cpu` times the process's CPU time instead of the wall clock: on one
thread a shared machine's other jobs then cost neither side anything. A benchmark, not a
test: it asserts nothing about time; every result is checked against XLA's.
"""
from __future__ import annotations

import sys

from threads import configure_threads, threads_arg

THREADS = threads_arg(sys.argv) if any(a.startswith("--threads") for a in sys.argv) else 2
PINNED = configure_threads(THREADS)

import bench_env  # noqa: E402  thread counts fixed above; before numpy and jax

# isort: split

import argparse  # noqa: E402
import time  # noqa: E402

import numpy as np  # noqa: E402

import aot  # noqa: E402

NHWC = ("NHWC", "HWIO", "NHWC")
NWC = ("NWC", "WIO", "NWC")
NCHW = ("NCHW", "OIHW", "NCHW")


def _program(x_shape, w_shape, stride, padding, dims, groups=1):
    """(weights, bias): fixed random weights (seeded), scaled so outputs stay O(1)."""
    rng = np.random.default_rng(sum(w_shape))
    w = (rng.standard_normal(w_shape) / np.sqrt(np.prod(w_shape[:-1]))).astype(np.float32)
    bias = rng.standard_normal(w_shape[-1]).astype(np.float32) * 0.1
    if dims == NCHW:  # as PyTorch exports them: the kernel OIHW, the bias over axis 1
        w, bias = w.transpose(3, 2, 0, 1).copy(), bias[:, None, None]
    return dict(w=w, bias=bias, stride=stride, padding=padding, dims=dims, groups=groups)


# name: (conv parameters, the input's shape per size, the symbolic shape of the dynamic form)
PROGRAMS = {
    "patch_embed": (_program(None, (4, 4, 3, 128), (4, 4), "VALID", NHWC),
                    [(1, 32, 32, 3), (3, 32, 32, 3), (8, 32, 32, 3), (32, 32, 32, 3)],
                    "b, 32, 32, 3"),
    "conv1d_k10s5": (_program(None, (10, 1, 128), (5,), "VALID", NWC),
                     [(1, 1200, 1), (3, 2000, 1), (2, 4000, 1), (8, 16000, 1)], "b, l, 1"),
    "conv1d_k3s2": (_program(None, (3, 128, 128), (2,), "VALID", NWC),
                    [(1, 239, 128), (3, 399, 128), (2, 799, 128), (8, 3199, 128)], "b, l, 128"),
    "grouped1d": (_program(None, (32, 8, 128), (1,), [(16, 15)], NWC, groups=16),
                  [(1, 59, 128), (3, 99, 128), (2, 199, 128), (8, 399, 128)], "b, l, 128"),
    "grouped1d_wide": (_program(None, (32, 16, 256), (1,), [(16, 15)], NWC, groups=16),
                       [(1, 59, 256), (3, 99, 256), (8, 399, 256)], "b, l, 256"),
    "dense_1x1": (_program(None, (1, 1, 96, 128), (1, 1), "VALID", NHWC),
                  [(1, 16, 16, 96), (3, 16, 16, 96), (8, 16, 16, 96), (32, 16, 16, 96)],
                  "b, 16, 16, 96"),
    "dense_3x3_thin": (_program(None, (3, 3, 128, 32), (1, 1), "SAME", NHWC),
                       [(1, 16, 16, 128), (3, 16, 16, 128), (8, 16, 16, 128)], "b, 16, 16, 128"),
    "resnet_3x3": (_program(None, (3, 3, 64, 64), (1, 1), "SAME", NHWC),
                   [(1, 56, 56, 64), (3, 56, 56, 64)], "b, 56, 56, 64"),
    "resnet_3x3_deep": (_program(None, (3, 3, 256, 256), (1, 1), "SAME", NHWC),
                        [(1, 14, 14, 256), (3, 14, 14, 256)], "b, 14, 14, 256"),
    # ResNet-18's 3x3 convolutions, one per stage, at batch 32 (and 1)
    "r18_56x64": (_program(None, (3, 3, 64, 64), (1, 1), "SAME", NHWC),
                  [(1, 56, 56, 64), (32, 56, 56, 64)], "b, 56, 56, 64"),
    "r18_28x128": (_program(None, (3, 3, 128, 128), (1, 1), "SAME", NHWC),
                   [(1, 28, 28, 128), (32, 28, 28, 128)], "b, 28, 28, 128"),
    "r18_14x256": (_program(None, (3, 3, 256, 256), (1, 1), "SAME", NHWC),
                   [(1, 14, 14, 256), (32, 14, 14, 256)], "b, 14, 14, 256"),
    "r18_7x512": (_program(None, (3, 3, 512, 512), (1, 1), "SAME", NHWC),
                  [(1, 7, 7, 512), (32, 7, 7, 512)], "b, 7, 7, 512"),
    # torchvision's ResNet-18 at 64x64: layer4 at 2x2 positions, mostly padding; as PyTorch
    # exports it (NCHW) and as JAX would (NHWC)
    "r18_2x512": (_program(None, (3, 3, 512, 512), (1, 1), "SAME", NHWC),
                  [(1, 2, 2, 512), (32, 2, 2, 512)], "b, 2, 2, 512"),
    "r18_2x512_nchw": (_program(None, (3, 3, 512, 512), (1, 1), [(1, 1), (1, 1)], NCHW),
                       [(1, 512, 2, 2), (32, 512, 2, 2)], "b, 512, 2, 2"),
    "r18_4x256_nchw": (_program(None, (3, 3, 256, 256), (1, 1), [(1, 1), (1, 1)], NCHW),
                       [(1, 256, 4, 4), (32, 256, 4, 4)], "b, 256, 4, 4"),
    "r18_8x128_nchw": (_program(None, (3, 3, 128, 128), (1, 1), [(1, 1), (1, 1)], NCHW),
                       [(1, 128, 8, 8), (32, 128, 8, 8)], "b, 128, 8, 8"),
    # MobileNetV3-Small's depthwise convolutions at 64x64, NCHW: block 3's 3x3 over 88
    # channels at 8x8, blocks 5-6's 5x5 over 240 at 4x4
    "mbv3_dw3x3_nchw": (_program(None, (3, 3, 1, 88), (1, 1), [(1, 1), (1, 1)], NCHW, groups=88),
                        [(1, 88, 8, 8), (32, 88, 8, 8)], "b, 88, 8, 8"),
    "mbv3_dw5x5_nchw": (_program(None, (5, 5, 1, 240), (1, 1), [(2, 2), (2, 2)], NCHW,
                                 groups=240),
                        [(1, 240, 4, 4), (32, 240, 4, 4)], "b, 240, 4, 4"),
    # depthwise convolutions of MobileNetV3 and EfficientNet-B0 at 224x224, as PyTorch exports
    # them (NCHW, explicit padding) and as JAX/Keras would (NHWC, SAME): a 3x3 stride 2 over
    # 16 channels, 5x5 over 96 and 240 at 14x14, 5x5 over 576 at 7x7
    **{f"dw{k}_{c}x{hw}{'_s2' if s == 2 else ''}_{layout}": (
        _program(None, (k, k, 1, c), (s, s),
                 [(k // 2, k // 2)] * 2 if layout == "nchw" else "SAME",
                 NCHW if layout == "nchw" else NHWC, groups=c),
        [(b, c, hw, hw) if layout == "nchw" else (b, hw, hw, c) for b in batches],
        f"b, {c}, {hw}, {hw}" if layout == "nchw" else f"b, {hw}, {hw}, {c}")
       for k, c, hw, s, batches in ((3, 16, 56, 2, (1, 8, 32)), (5, 96, 14, 1, (1, 8, 32)),
                                    (5, 240, 14, 1, (1, 8)), (5, 576, 7, 1, (1, 32)))
       for layout in ("nchw", "nhwc")},
}


def _forward(jax, p):
    w, bias = jax.numpy.asarray(p["w"]), jax.numpy.asarray(p["bias"])

    def f(x):
        y = jax.lax.conv_general_dilated(x, w, p["stride"], p["padding"],
                                         dimension_numbers=p["dims"],
                                         feature_group_count=p["groups"])
        return y + bias
    return f


def _flops(p, out) -> int:
    """Multiplies and adds of a program's convolution: 2 x outputs x a window's products (the
    kernel's elements over its output features: HWIO's last dim, OIHW's first)."""
    w = p["w"]
    outs = w.shape[0] if p["dims"] == NCHW else w.shape[-1]
    return 2 * out.size * (w.size // outs)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--threads", type=int, default=2, help="threads of both run times (and "
                    "CPUs the process may use)")
    ap.add_argument("--reps", type=int, default=15)
    ap.add_argument("--programs", default=",".join(PROGRAMS))
    ap.add_argument("--quick", action="store_true", help="the smallest and largest size of each "
                    "program (what `make bench` runs)")
    ap.add_argument("--clock", choices=("wall", "cpu"), default="wall",
                    help="wall time, or the process's CPU time (meaningful on one thread)")
    args = ap.parse_args()
    clock = time.process_time if args.clock == "cpu" else time.perf_counter

    def median(fn, reps):
        return bench_env.median_ms(fn, reps, clock)
    import jax
    from jax import export
    jax.config.update("jax_include_debug_info_in_dumps", False)
    print(f"# conv sweep, {THREADS} thread(s), {PINNED}, {bench_env.cpu_name()}, load "
          f"{bench_env.loadavg()}; {args.clock} time; jax {jax.__version__}")
    print("\n| program | input | XLA ms | static ms | static / XLA | dynamic ms | dynamic / XLA |"
          " static GFLOP/s |\n|---|---|---|---|---|---|---|---|")
    worst = []
    for name in args.programs.split(","):
        p, shapes, symbolic = PROGRAMS[name]
        if args.quick:
            shapes = [shapes[0], shapes[-1]]
        f = _forward(jax, p)
        spec = jax.ShapeDtypeStruct(export.symbolic_shape(symbolic), np.float32)
        t = time.perf_counter()
        dynamic = aot.compile(export.export(jax.jit(f))(spec), f"{name}_dyn")
        dyn_compile = time.perf_counter() - t
        for shape in shapes:
            x = np.random.default_rng(1).standard_normal(shape).astype(np.float32)
            xla = jax.jit(f).lower(x).compile()
            want = np.asarray(xla(x))
            static = aot.compile(export.export(jax.jit(f))(x), name)
            for lib in (static, dynamic):
                np.testing.assert_allclose(lib.main(x), want, rtol=1e-3, atol=1e-3,
                                           err_msg=f"{name} {shape}")
            xs = jax.numpy.asarray(x)
            times = {}
            for _ in range(3):  # interleaved rounds: the machine's load shifts under all three
                for key, fn in (("xla", lambda: xla(xs).block_until_ready()),
                                ("static", lambda: static.main(x)),
                                ("dynamic", lambda: dynamic.main(x))):
                    times.setdefault(key, []).append(median(fn, args.reps))
            t_x, t_s, t_d = (min(times[k]) for k in ("xla", "static", "dynamic"))
            worst.append((max(t_s, t_d) / t_x, name, shape))
            print(f"| {name} | {'x'.join(map(str, shape))} | {t_x:.3f} | {t_s:.3f} | "
                  f"{t_s / t_x:.2f} | {t_d:.3f} | {t_d / t_x:.2f} | "
                  f"{_flops(p, want) / t_s / 1e6:.1f} |", flush=True)
        print(f"|   ({name}: dynamic form compiled in {dyn_compile:.1f} s) | | | | | | | |")
    ratio, name, shape = max(worst)
    print(f"\nworst ratio to XLA: {ratio:.2f} ({name}, {'x'.join(map(str, shape))})")


if __name__ == "__main__":
    main()
