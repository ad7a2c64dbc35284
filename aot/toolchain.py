"""Object code to artifacts: the runtime built with the system C compiler, then
objects linked into a shared library, archived into a static one, or merged into
one relocatable object. Runtime objects are cached per compiler and flags."""
from __future__ import annotations

import glob
import hashlib
import os
import shutil
import subprocess

import abi
import runtime_c

RUNTIME_DIR = os.path.dirname(runtime_c.__file__)
CFLAGS = ["-O2", "-fPIC", "-std=c11", "-pthread", "-fvisibility=default"]
LINK_LIBS = ["-lm", "-lpthread", "-ldl"]


class ToolchainError(RuntimeError):
    pass


def c_compiler() -> str:
    cc = os.environ.get("CC") or shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
    if not cc:
        raise ToolchainError("no C compiler found: install gcc or clang, or set CC")
    return cc


def run(cmd: list) -> None:
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        raise ToolchainError(f"command failed: {' '.join(cmd)}\n{proc.stderr.strip()}")


DEVICE_SOURCES = {"cpu": [], "cuda": ["device/cuda.c"]}  # a target's part of the runtime


def runtime_sources(device: str = "cpu") -> list[str]:
    return [str(p) for p in abi.runtime_sources()] + [os.path.join(RUNTIME_DIR, s)
                                                       for s in DEVICE_SOURCES[device]]


def runtime_objects(cache_dir: str, device: str = "cpu") -> list[str]:
    """Compile runtime_c/*.c (and the target's device part) once per source content,
    compiler and flags."""
    cc = c_compiler()
    sources = runtime_sources(device)
    h = hashlib.sha256(" ".join([cc] + CFLAGS).encode())
    for path in sources + sorted(glob.glob(os.path.join(RUNTIME_DIR, "*.h"))):
        with open(path, "rb") as f:
            h.update(path.encode() + f.read())
    out_dir = os.path.join(cache_dir, "runtime-" + h.hexdigest()[:16])
    objs = [os.path.join(out_dir, os.path.basename(s)[:-2] + ".o") for s in sources]
    if all(os.path.exists(o) for o in objs):
        return objs
    tmp = out_dir + f".tmp{os.getpid()}"
    os.makedirs(tmp, exist_ok=True)
    for src in sources:
        run([cc, *CFLAGS, "-I", RUNTIME_DIR, "-c", src, "-o",
             os.path.join(tmp, os.path.basename(src)[:-2] + ".o")])
    try:
        os.replace(tmp, out_dir)
    except OSError:  # another process won the race; its objects are the same
        shutil.rmtree(tmp, ignore_errors=True)
    return objs


def link_shared(objects: list[str], out: str) -> None:
    # -Bsymbolic-functions: the model always calls its own copy of the runtime, even when
    # another artifact loaded with RTLD_GLOBAL exports the same names
    run([c_compiler(), "-shared", "-Wl,-Bsymbolic-functions", "-o", out, *objects, *LINK_LIBS])


def archive(objects: list[str], out: str) -> None:
    if os.path.exists(out):
        os.remove(out)
    ar = os.environ.get("AR") or shutil.which("ar") or "ar"
    run([ar, "rcs", out, *objects])


def merge_objects(objects: list[str], out: str) -> None:
    """One relocatable object holding the model and the runtime."""
    ld = shutil.which("ld") or "ld"
    run([ld, "-r", "-o", out, *objects])
