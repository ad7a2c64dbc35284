"""Cross-compiled artifacts run under qemu-user: which CPUs this machine can build for and
run, and a program (run_entry.c) that calls an artifact's `main` on tensors read from a file,
linked statically with the cross compiler, so a case's numbers come back to Python.

`make cross-tools` installs what these need (Debian/Ubuntu): gcc-aarch64-linux-gnu,
gcc-riscv64-linux-gnu and qemu-user."""
from __future__ import annotations

import os
import shutil
import subprocess
from dataclasses import dataclass

import numpy as np

from aot import toolchain

HERE = os.path.dirname(os.path.abspath(__file__))
RUN_ENTRY = os.path.join(HERE, "run_entry.c")


@dataclass(frozen=True)
class Cross:
    arch: str
    triple: str  # LLVM's

    @property
    def gnu(self) -> str:
        """The GNU cross tools' prefix (aarch64-linux-gnu), as the toolchain finds them."""
        return toolchain.gnu_triple(self.triple)

    @property
    def qemu(self) -> str:
        return f"qemu-{self.arch}"

    @property
    def cc(self) -> str:
        return f"{self.gnu}-gcc"

    @property
    def sysroot(self) -> str:
        return f"/usr/{self.gnu}"

    def missing(self) -> str | None:
        """Why this CPU's programs cannot be built and run here, or None."""
        absent = [t for t in (self.cc, self.qemu) if shutil.which(t) is None]
        if not absent:
            return None
        return (f"needs {' and '.join(absent)}: `make cross-tools` installs them "
                f"(apt-get install {toolchain.cross_package(self.triple)} qemu-user)")

    def run(self, argv: list, timeout: float = 120, **kw) -> subprocess.CompletedProcess:
        """A program for this CPU under qemu-user (dynamically linked ones find their
        libraries in the cross sysroot)."""
        return subprocess.run([self.qemu, "-L", self.sysroot, *argv], capture_output=True,
                              text=True, timeout=timeout, **kw)


CROSS = {
    "aarch64": Cross("aarch64", "aarch64-unknown-linux-gnu"),
    "riscv64": Cross("riscv64", "riscv64-unknown-linux-gnu"),
}


def require(arch: str) -> Cross:
    """The Cross for `arch`, or skip the test naming what to install (a failure instead when
    AOTC_REQUIRE_CROSS is set, as CI sets it: there the tools are installed)."""
    import pytest
    cross = CROSS[arch]
    reason = cross.missing()
    if reason:
        if os.environ.get("AOTC_REQUIRE_CROSS"):
            pytest.fail(f"{arch}: {reason} (AOTC_REQUIRE_CROSS is set)", pytrace=False)
        pytest.skip(f"{arch}: {reason}")
    return cross


# ------------------------------------------------------------------ tensors through files

def write_tensors(path: str, arrays) -> None:
    from abi.dtypes import from_numpy
    with open(path, "wb") as f:
        f.write(np.int32(len(arrays)).tobytes())
        for a in arrays:
            a = np.asarray(a)  # (np.ascontiguousarray would make a scalar one-dimensional)
            f.write(np.array([from_numpy(a.dtype).code, a.ndim], np.int32).tobytes())
            f.write(np.array(a.shape, np.int64).tobytes())
            f.write(a.tobytes(order="C"))


def read_tensors(path: str) -> list:
    from abi.dtypes import from_code
    with open(path, "rb") as f:
        data = f.read()
    pos = 4
    out = []
    for _ in range(int(np.frombuffer(data, np.int32, 1)[0])):
        code, rank = np.frombuffer(data, np.int32, 2, pos)
        pos += 8
        dims = tuple(int(d) for d in np.frombuffer(data, np.int64, rank, pos))
        pos += 8 * rank
        dt = from_code(int(code)).numpy
        n = int(np.prod(dims, dtype=np.int64))
        out.append(np.frombuffer(data, dt, n, pos).reshape(dims).copy())
        pos += n * dt.itemsize
    return out


# ------------------------------------------------------------------ build and run

def build(text: str, filename: str, name: str, cross: Cross, out_dir: str) -> str:
    """Compile MLIR text for `cross` into a static archive and link run_entry against it with
    the cross compiler, statically; returns the program's path."""
    from aot.driver import Compilation, Options
    os.makedirs(out_dir, exist_ok=True)
    archive = os.path.join(out_dir, f"lib{name}.a")
    Compilation(text, filename, Options(name=name, emit="static",
                                        target_triple=cross.triple)).build(archive)
    exe = os.path.join(out_dir, f"{name}.run")
    subprocess.run([cross.cc, "-O1", "-Wall", "-Werror", "-static", f"-DMETADATA={name}_aot_metadata",
                    "-I", out_dir, "-o", exe, RUN_ENTRY, archive, "-lm", "-lpthread", "-ldl"],
                   check=True, capture_output=True, text=True)
    return exe


def call(cross: Cross, exe: str, args, work_dir: str, threads: int | None = None,
         timeout: float = 120) -> list:
    """`main(*args)` of a program from `build`, run under qemu-user; its results."""
    src, dst = os.path.join(work_dir, "in.bin"), os.path.join(work_dir, "out.bin")
    write_tensors(src, args)
    env = dict(os.environ)
    if threads is not None:
        env["AOT_NUM_THREADS"] = str(threads)
    proc = cross.run([exe, src, dst], timeout=timeout, env=env)
    if proc.returncode != 0:
        raise RuntimeError(f"{os.path.basename(exe)} under {cross.qemu}: exit {proc.returncode}\n"
                           f"{proc.stderr}")
    return read_tensors(dst)
