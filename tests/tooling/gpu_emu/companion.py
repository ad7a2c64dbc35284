"""Build what the CUDA driver double needs to run a cuda artifact on a machine without a GPU:
the host build of its kernels, named by the hash of its PTX (`make cuda-double` builds the
double itself).

    python tests/tooling/gpu_emu/companion.py model.mlir --name model [--gpu-arch sm_80]

The options must be the ones the artifact was compiled with (they decide the PTX). It prints
the environment to run the artifact with: AOT_CUDA_LIBRARY (the double) and
AOT_CUDA_DOUBLE_KERNELS (where the companion went: that variable if set, else build/).
"""
import argparse
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
sys.path[:0] = [ROOT, os.path.join(ROOT, "tests")]

from aot.driver import Compilation, Options  # noqa: E402
from lowering.ir.core import CompileError  # noqa: E402
from tooling.gpu_emu import build_companion  # noqa: E402


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("input")
    p.add_argument("--name", required=True)
    p.add_argument("--gpu-arch", default="sm_80")
    args = p.parse_args()
    os.environ.setdefault("AOT_CUDA_DOUBLE_KERNELS", os.path.join(ROOT, "build", "cuda-double-kernels"))
    with open(args.input) as f:
        c = Compilation(f.read(), args.input, Options(name=args.name, target="cuda", gpu_arch=args.gpu_arch))
    try:
        path = build_companion(c)
    except CompileError as e:
        print(e, file=sys.stderr)
        return 1
    print(f"wrote {path}\nrun the artifact with:\n"
          f"  export AOT_CUDA_LIBRARY={os.path.join(ROOT, 'build', 'libcuda_double.so')}\n"
          f"  export AOT_CUDA_DOUBLE_KERNELS={os.path.dirname(path)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
