"""Convolutions on the cuda target's implicit GEMM (lowering/codegen/cuda/conv.py), larger and
more varied than tests/codegen/test_cuda_conv.py's, on the emulated grid through the CUDA driver
double against numpy in float64 (`make test-gpu`): fixed shapes a few tiles wide (ResNet-like
3x3 and 1x1, a strided 1-D signal, a 3-D volume, groups straddling tiles; the 1x1 in i32,
f16 and bf16 too), then random
convolutions (tests/conv_reference.py's random_conv: random dimension numbers, spatial sizes,
kernels, strides, lhs and rhs dilation, padding, negative too, reversal, feature groups) in 1-D
to 3-D. Prints a line per case (its kernel: tiled or per element) and exits 1 on any mismatch.

    python tests/tooling/gpu_emu/conv_campaign.py [--random N] [--seed S]
"""
import argparse
import os
import sys
import tempfile
import time

import ml_dtypes
import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
sys.path[:0] = [ROOT, os.path.join(ROOT, "tests")]

from aot.driver import Compilation, Options  # noqa: E402
from conv_reference import conv_text, np_conv, random_conv, random_dimension_numbers  # noqa: E402
from tooling.gpu_emu import build_emulated  # noqa: E402

NHWC = ((0, 3, [1, 2]), (2, 3, [0, 1]), (0, 3, [1, 2]))
NCHW = ((0, 1, [2, 3]), (1, 0, [2, 3]), (0, 1, [2, 3]))
NWC = ((0, 2, [1]), (1, 2, [0]), (0, 2, [1]))
NCDHW = ((0, 1, [2, 3, 4]), (1, 0, [2, 3, 4]), (0, 1, [2, 3, 4]))

# name: dn, lhs shape, rhs shape, (strides, pads, lhs dilation, rhs dilation, reversal, groups, 1)
FIXED = {
    "resnet_3x3": (NHWC, [2, 17, 15, 24], [3, 3, 24, 80],
                   ([1, 1], [(1, 1), (1, 1)], [1, 1], [1, 1], [False, False], 1, 1)),
    "resnet_1x1_stride2": (NCHW, [3, 40, 13, 11], [70, 40, 1, 1],
                           ([2, 2], [(0, 0), (0, 0)], [1, 1], [1, 1], [False, False], 1, 1)),
    "signal_stride5_kernel10": (NWC, [3, 301, 6], [10, 6, 33],
                                ([5], [(4, 5)], [1], [1], [False], 1, 1)),
    "volume_3x3x3": (NCDHW, [1, 5, 6, 7, 9], [20, 5, 3, 3, 3],
                     ([1, 2, 1], [(1, 1), (1, 1), (0, 2)], [1, 1, 1], [1, 2, 1], [False] * 3, 1, 1)),
    "grouped_96_per_group": (NHWC, [1, 9, 10, 12], [3, 3, 4, 288],
                             ([1, 1], [(1, 1), (1, 1)], [1, 1], [1, 1], [False, False], 3, 1)),
    "transposed_conv": (NHWC, [2, 7, 6, 9], [4, 4, 9, 17],
                        ([1, 1], [(2, 2), (2, 2)], [2, 2], [1, 1], [True, True], 1, 1)),
    "permuted_layout": (((2, 0, [3, 1]), (3, 1, [2, 0]), (1, 3, [0, 2])), [3, 6, 2, 5], [3, 35, 2, 3],
                        ([1, 2], [(1, 0), (0, 2)], [1, 1], [1, 1], [False, False], 1, 1)),
    "grouped_nchw_16_per_group": (NCHW, [1, 8, 5, 6], [64, 2, 3, 3],
                                  ([1, 1], [(1, 1), (1, 1)], [1, 1], [1, 1], [False, False], 4, 1)),
    "depthwise_3x3": (NHWC, [2, 11, 12, 96], [3, 3, 1, 96],
                      ([1, 1], [(1, 1), (1, 1)], [1, 1], [1, 1], [False, False], 96, 1)),
}


TYPES = {"i32": (np.int32, 0.0), "f16": (np.float16, 4e-3), "bf16": (ml_dtypes.bfloat16, 3e-2)}


def kernel_kind(text: str) -> str:
    kernels = Compilation(text, "c.mlir", Options(name="c", emit="ptx", target="cuda")).llvm()[3]
    return ",".join("tiled" if k.launch.lanes == 256 else "per element" for k in kernels)


def run(name: str, text: str, x, w, want, out_dir: str, tol: float = 1e-4) -> bool:
    start = time.time()
    lib = build_emulated(text, "conv", os.path.join(out_dir, name))
    got = lib.main(x, w).astype(np.float64)
    err = float(np.max(np.abs(got - want))) if want.size else 0.0
    ok = got.shape == want.shape and np.allclose(got, want, rtol=tol, atol=tol)
    print(f"{'ok  ' if ok else 'FAIL'} {name:28s} {str(list(want.shape)):22s} {kernel_kind(text):12s} "
          f"max err {err:.1e} ({time.time() - start:.1f} s)", flush=True)
    return ok


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--random", type=int, default=24)
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args()
    rng = np.random.default_rng(args.seed)
    failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        for name, (dn, lhs, rhs, conv) in FIXED.items():
            x, w = rng.uniform(-1, 1, lhs).astype(np.float32), rng.uniform(-1, 1, rhs).astype(np.float32)
            want = np_conv(x, w, dn, *conv)
            failed += not run(name, conv_text(lhs, rhs, want.shape, dn, *conv), x, w, want, tmp)
        for elem, (dtype, tol) in TYPES.items():  # integers exact; halves accumulate in f32
            dn, lhs, rhs, conv = FIXED["resnet_1x1_stride2"]
            if elem == "i32":
                x, w = (rng.integers(-9, 9, s).astype(dtype) for s in (lhs, rhs))
            else:
                x, w = (rng.uniform(-1, 1, s).astype(dtype) for s in (lhs, rhs))
            want = np_conv(x, w, dn, *conv)
            text = conv_text(lhs, rhs, want.shape, dn, *conv).replace("xf32>", f"x{elem}>")
            failed += not run(f"resnet_1x1_{elem}", text, x, w, want, tmp, tol)
        done = 0
        while done < args.random:
            n = int(rng.integers(1, 4))
            groups = int(rng.choice([1, 1, 2, 3]))
            case = random_conv(rng, random_dimension_numbers(rng, n), int(rng.integers(1, 4)),
                               groups * int(rng.integers(1, 6)), groups * int(rng.integers(1, 30)),
                               groups, 1, spatial_hi=12 if n < 3 else 6)
            if case is None:
                continue
            text, x, w, want = case
            failed += not run(f"random_{done}_{n}d_g{groups}", text, x, w, want, tmp)
            done += 1
    total = len(FIXED) + len(TYPES) + args.random
    print(f"implicit-GEMM convolutions: {total - failed} of {total} match numpy on the emulated grid")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
