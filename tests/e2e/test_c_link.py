"""A C program, with no Python inside, linked against each artifact kind of the
MLP example: shared library, static archive, single object file, and the object alone with
the runtime's C sources (--no-runtime). Also cross-compiled for aarch64 and riscv64
(--target-triple), linked by the cross compiler and run under qemu-user."""
import glob
import os
import subprocess
import sys

import numpy as np
import pytest

from examples.demo import numpy_mlp  # the example's own float64 reference
from tooling import sanitize
from tooling.cross import require

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
EXAMPLES = os.path.join(ROOT, "examples")


@pytest.fixture(scope="module")
def data():
    p = {k: v.astype(np.float64) for k, v in np.load(os.path.join(EXAMPLES, "mlp.npz")).items()}
    return p["x"].astype(np.float32), numpy_mlp(p, p["x"])


KINDS = {  # emit: (aotc options, artifact, link arguments for the artifact in folder d)
    "shared": (["--emit", "shared"], "libmlp.so", lambda d: ["-L", d, "-lmlp", f"-Wl,-rpath,{d}"]),
    "static": (["--emit", "static"], "libmlp.a", lambda d: [os.path.join(d, "libmlp.a")]),
    "obj": (["--emit", "obj"], "mlp.o", lambda d: [os.path.join(d, "mlp.o")]),
    # the model alone, the runtime built from the sources written beside it
    "obj-no-runtime": (["--emit", "obj", "--no-runtime"], "mlp.o",
                       lambda d: [os.path.join(d, "mlp.o"), "-std=c11", "-pthread",
                                  *sorted(glob.glob(os.path.join(d, "aot_runtime", "*.c")))]),
}


@pytest.mark.parametrize("kind, arch", [(k, "host") for k in KINDS] + [(k, "aarch64") for k in KINDS]
                         + [("static", "riscv64")])
def test_c_program(tmp_path, data, kind, arch):
    options, artifact, link = KINDS[kind]
    if arch != "host" and sanitize.active():
        pytest.skip("AOTC_SANITIZE: the sanitizers are for this machine's programs, not qemu's")
    cross = require(arch) if arch != "host" else None
    x, want = data
    out = str(tmp_path)
    env = dict(os.environ, PYTHONPATH=ROOT)
    triple = ["--target-triple", cross.triple] if cross else []
    subprocess.run([sys.executable, "-m", "aot.cli", "compile", os.path.join(EXAMPLES, "mlp.mlir"),
                    "--name", "mlp", *options, *triple, "-o", os.path.join(out, artifact)],
                   check=True, env=env, capture_output=True)
    exe = os.path.join(out, "demo")
    cc, static = (cross.cc, ["-static"] if kind != "shared" else []) if cross else ("cc", [])
    subprocess.run([cc, "-O1", "-Wall", "-Werror", *static, *sanitize.cflags(), "-o", exe,
                    os.path.join(EXAMPLES, "demo.c"), "-I", out, *link(out), "-lm", "-lpthread",
                    "-ldl"], check=True, capture_output=True)
    x.tofile(os.path.join(out, "x.bin"))
    argv = [exe, os.path.join(out, "x.bin"), os.path.join(out, "y.bin")]
    run = cross.run(argv) if cross else subprocess.run(argv, capture_output=True, text=True,
                                                       env=sanitize.run_env())
    assert not sanitize.findings(run.stderr), run.stderr
    assert run.returncode == 0, run.stderr
    assert "library 'mlp': 1 entry point(s), first: mlp_main" in run.stdout
    assert "bad input rejected: main: argument 'arg0' (#0) expects f32[8,64], got f32[8,63]" in run.stdout
    assert "runtime-allocated result: rank 2, dims 8 x 10" in run.stdout
    y = np.fromfile(os.path.join(out, "y.bin"), dtype=np.float32).reshape(8, 10)
    np.testing.assert_allclose(y, want, rtol=1e-5, atol=1e-6)


def test_python_loads_the_same_library(tmp_path, data):
    import aot
    x, want = data
    so = str(tmp_path / "libmlp.so")
    subprocess.run([sys.executable, "-m", "aot.cli", "compile", os.path.join(EXAMPLES, "mlp.mlir"),
                    "--name", "mlp", "-o", so], check=True, env=dict(os.environ, PYTHONPATH=ROOT),
                   capture_output=True)
    lib = aot.load(so)
    assert str(lib.main.signature) == "main(arg0: f32[8,64]) -> (f32[8,10])"
    np.testing.assert_allclose(lib.main(x), want, rtol=1e-5, atol=1e-6)
    with pytest.raises(TypeError, match="arg0"):
        lib.main(x.astype(np.float64))
    with pytest.raises(ValueError, match=r"expects f32\[8,64\], got f32\[4,64\]"):
        lib.main(x[:4])
