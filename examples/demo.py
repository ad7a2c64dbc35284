"""The main job on the shipped example, end to end (run by `make demo`):

1. compile examples/mlp.mlir (StableHLO exported from JAX) with `aotc` into a
   shared library, a static archive and a C header;
2. build examples/demo.c against each, run it (no Python inside); the same with a
   `--target cuda,cpu` library, which runs its PTX kernels when the machine has an NVIDIA
   GPU and driver, else its CPU kernels (AOT_DEVICE=cpu|cuda forces one); and
   examples/demo.cpp, through the C++ class `--cpp-class demo::Mlp` writes (mlp.hpp);
3. load the same library from Python and call it with numpy arrays;
4. print the results and their max error against a numpy forward pass.
"""
from __future__ import annotations

import os
import subprocess
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
OUT = os.path.join(ROOT, "build", "demo")
sys.path.insert(0, ROOT)  # also runs from a plain checkout, not only the installed venv


def sh(*cmd):
    print("$", " ".join(cmd), flush=True)
    subprocess.run(cmd, check=True)


def numpy_mlp(p, x):
    h = np.maximum(x @ p["W1"] + p["b1"], 0.0)
    h = np.tanh(h @ p["W2"] + p["b2"])
    z = h @ p["W3"] + p["b3"]
    e = np.exp(z - z.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def main() -> int:
    os.makedirs(OUT, exist_ok=True)
    mlir = os.path.join(HERE, "mlp.mlir")
    aotc = [sys.executable, "-m", "aot.cli", "compile", mlir, "--name", "mlp"]
    os.environ["PYTHONPATH"] = ROOT + os.pathsep + os.environ.get("PYTHONPATH", "")
    sh(*aotc, "--emit", "shared", "--cpp-class", "demo::Mlp", "-o", os.path.join(OUT, "libmlp.so"))
    sh(*aotc, "--emit", "static", "-o", os.path.join(OUT, "libmlp.a"))
    sh(sys.executable, "-m", "aot.cli", "inspect", os.path.join(OUT, "libmlp.so"))  # its manifest
    gpu_out = os.path.join(OUT, "cuda_cpu")  # kernels as PTX and for the CPU, in one library
    sh(*aotc, "--target", "cuda,cpu", "--emit", "shared", "-o", os.path.join(gpu_out, "libmlp.so"))

    params = dict(np.load(os.path.join(HERE, "mlp.npz")))
    x = params["x"].astype(np.float32)
    want = numpy_mlp({k: v.astype(np.float64) for k, v in params.items()}, x.astype(np.float64))
    x_bin = os.path.join(OUT, "x.bin")
    x.tofile(x_bin)

    cc = os.environ.get("CC", "cc")
    src = os.path.join(HERE, "demo.c")
    errors = {}
    import aot
    device = aot.load(os.path.join(gpu_out, "libmlp.so")).device
    for kind, where, link in (("shared", OUT, ["-L", OUT, "-lmlp", f"-Wl,-rpath,{OUT}"]),
                              ("static", OUT, [os.path.join(OUT, "libmlp.a")]),
                              (f"cuda,cpu shared (ran on the {device})", gpu_out,
                               ["-L", gpu_out, "-lmlp", f"-Wl,-rpath,{gpu_out}"])):
        exe = os.path.join(where, f"demo_{kind.split()[0].replace(',', '_')}")
        sh(cc, "-O2", "-o", exe, src, "-I", where, *link, "-lm", "-lpthread", "-ldl")
        y_bin = exe + ".y.bin"
        sh(exe, x_bin, y_bin)
        y = np.fromfile(y_bin, dtype=np.float32).reshape(8, 10)
        errors[f"C program, {kind} library"] = float(np.abs(y - want).max())

    exe = os.path.join(OUT, "demo_cpp")  # the C++ class over the same shared library
    sh(os.environ.get("CXX", "c++"), "-O2", "-std=c++11", "-o", exe, os.path.join(HERE, "demo.cpp"),
       "-I", OUT, "-L", OUT, "-lmlp", f"-Wl,-rpath,{OUT}", "-lm", "-lpthread", "-ldl")
    sh(exe, x_bin, exe + ".y.bin")
    y = np.fromfile(exe + ".y.bin", dtype=np.float32).reshape(8, 10)
    errors["C++ class (--cpp-class), shared library"] = float(np.abs(y - want).max())

    lib = aot.load(os.path.join(OUT, "libmlp.so"))
    print(f"\nPython: {lib.main.signature}")
    y = lib.main(x)
    print("row 0:", np.array2string(y[0], precision=4))
    errors["Python (cffi), shared library"] = float(np.abs(y - want).max())
    errors["JAX's own output (saved)"] = float(np.abs(params["y"] - want).max())

    print("\nmax |error| against numpy (float64 forward pass):")
    for k, v in errors.items():
        print(f"  {k:52s} {v:.2e}")
    ok = all(v < 1e-5 for v in errors.values())
    print("\ndemo", "OK" if ok else "FAILED: error above 1e-5")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
