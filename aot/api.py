"""The Python API: `aot.compile(text_or_path)` builds (cached) and loads; `aot.load(path)` loads."""
from __future__ import annotations

import hashlib
import os
import sys

from lowering.frontend.source import read_source

from .driver import Compilation, Options, cache_dir, sanitize_name
from .version import COMPILER_VERSION, compiler_fingerprint  # noqa: F401  (aot.api's names)


def _read_source(text_or_path: str) -> tuple[str, str]:
    if "\n" not in text_or_path and len(text_or_path) < 4096 and os.path.exists(text_or_path):
        return read_source(text_or_path), text_or_path  # not UTF-8: a located CompileError
    return text_or_path, "<string>"


def compile(text_or_path: str, name: str | None = None, *, output_dir: str | None = None,
            target: str = "cpu", target_cpu: str | None = None, dump_after=(),
            dump_dir: str | None = None):
    """Compile MLIR text (or a file path) into a shared library and load it.

    The build lands in a cache keyed by the source text, the options and the
    compiler version, so a second call with the same program is only a load.
    `target="cuda"` builds kernels as PTX and host code that launches them through the
    CUDA driver (runtime_c/device); calls need a driver and a GPU (or AOT_CUDA_LIBRARY
    naming the tests' driver double).
    """
    text, filename = _read_source(text_or_path)
    if name is None:
        name = os.path.basename(filename).split(".")[0] if filename != "<string>" else "model"
    name = sanitize_name(name)
    key = hashlib.sha256("\0".join([compiler_fingerprint(), name, target, str(target_cpu),
                                    text]).encode())
    out_dir = output_dir or os.path.join(cache_dir(), "build", key.hexdigest()[:24])
    so_path = os.path.join(out_dir, f"lib{name}.so")
    if output_dir is not None or not os.path.exists(so_path) or dump_after:
        opts = Options(name=name, emit="shared", target=target, target_cpu=target_cpu,
                       dump_after=list(dump_after), dump_dir=dump_dir)
        tmp_so = so_path + f".tmp{os.getpid()}"
        Compilation(text, filename, opts).build(tmp_so)
        os.replace(tmp_so, so_path)
    return load(so_path)


def load(path: str):
    """Load a shared library built by `aotc compile --emit shared`. One built for another CPU
    (`--target-triple`) is an OSError saying so: it runs only there (or under qemu-user)."""
    from abi.loader import Library

    from .toolchain import elf_machine, host_triple, machine_name
    if os.path.isfile(path) and os.path.isfile(sys.executable):
        ours, theirs = elf_machine(sys.executable), elf_machine(path)
        if ours is not None and theirs is not None and theirs != ours:
            raise OSError(f"{path} is built for {machine_name(theirs)}, not for this machine "
                          f"({host_triple()}): it loads only where {machine_name(theirs)} code "
                          "runs (here, a C program linked against it can run under qemu-user)")
    return Library(path)
