"""Machine code: the LLVM target machine and the optimisation pipeline.

Kept apart from IR generation so that generating IR never needs a target's code generator.
"""
from __future__ import annotations

import os
import re
import sys
import threading

from llvmlite import binding as llvm

from lowering.ir.core import CompileError

# LLVM's loop vectoriser copies a loop behind a run-time check that a symbolic stride is 1
# (enable-mem-access-versioning). A generated kernel's strides are products of its buffers'
# dims, run-time values even where static (see gen.py); a stride along a buffer's last dim is
# the constant 1, and a symbolic one is 1 at run time only where every dim after it is 1: a
# static dim of 1 is the constant in the address arithmetic (LLVMGen.emit_kernel), so only
# `?` dims that are 1 in a call lose a vector loop. The copies were dead code LLVM optimised
# and compiled: falcon_alibi's `?` layer norm sum of squares (a [?, ?, 64] row sum, its middle
# loop vectorised behind `dim 2 == 1`, 64 at run time) took 147 ms of LLVM, 29 without; 0.05-0.2
# s of each `?` zoo model. The helpers (cpu/helpers.py's families) take a matrix's strides,
# often 1 (the matmul packs its operands through them): a module that defines one keeps the
# checks.
HELPER_FAMILIES = ("gemm", "conv", "winograd", "attention")
_DEFINES_HELPER = re.compile(r'^define [^@\n]*@"?aot\.(?:' + "|".join(HELPER_FAMILIES) + r")\.", re.M)


def _init_llvm():
    """Register every target LLVM was built with (x86, AArch64, NVPTX...) once."""
    if not getattr(_init_llvm, "done", False):
        llvm.initialize_all_targets()
        llvm.initialize_all_asmprinters()
        _init_llvm.done = True


def _stride_checks(on: bool) -> None:
    """LLVM's stride-1 loop copies on or off for the modules optimised next in this process."""
    if getattr(_stride_checks, "on", None) is not on:
        llvm.set_option("aotc", f"-enable-mem-access-versioning={'true' if on else 'false'}")
        _stride_checks.on = on


def target_machine(target, opt: int = 3):
    """LLVM's target machine for a lowering.target.Target (triple, CPU and features
    resolved); `opt` 0 for host code's quick code generator."""
    _init_llvm()
    return llvm.Target.from_triple(target.triple).create_target_machine(
        cpu=target.cpu, features=target.features, opt=opt, reloc="pic", codemodel="default")


def optimize(ir_text: str, tm) -> llvm.ModuleRef:
    _stride_checks(_DEFINES_HELPER.search(ir_text) is not None)
    mod = llvm.parse_assembly(ir_text)
    mod.verify()
    pto = llvm.create_pipeline_tuning_options(speed_level=3)
    pto.loop_vectorization = True
    pto.slp_vectorization = True
    pb = llvm.create_pass_builder(tm, pto)
    pm = pb.getModulePassManager()
    pm.run(mod, pb)
    return mod



def compile_objects(texts: list, tm, paths: list, first=None, host_tm=None) -> None:
    """Optimise and compile partition i's IR into the object file paths[i]: the first in
    this process (`first(module)` may add to it before its code is made), the others at
    the same time in forked children, one per core. With `host_tm`, the first partition is
    host code alone (partition.split's host_alone: optnone functions), made by that machine
    (-O0) without LLVM's passes. A child that fails is an error saying what it printed."""
    children = []
    for text, path in zip(texts[1:], paths[1:]):
        read, write = os.pipe()
        pid = os.fork()
        if pid == 0:  # the child: its object or its error, then out without Python's exit
            os.close(read)
            status = 0
            try:
                obj = tm.emit_object(optimize(text, tm))
                with open(path, "wb") as f:
                    f.write(obj)
            except BaseException as e:  # noqa: BLE001  (reported by the parent)
                os.write(write, f"{type(e).__name__}: {e}".encode()[:8192])
                status = 1
            os._exit(status)
        os.close(write)
        children.append((pid, read))
    try:
        if host_tm is not None:
            module = llvm.parse_assembly(texts[0])
            module.verify()
        else:
            module = optimize(texts[0], tm)
        if first is not None:
            first(module)
        with open(paths[0], "wb") as f:
            f.write((host_tm or tm).emit_object(module))
    finally:
        errors = []
        for pid, read in children:
            with os.fdopen(read, "rb") as pipe:
                said = pipe.read().decode(errors="replace")
            _, status = os.waitpid(pid, 0)
            if status:
                errors.append(said or f"the compiling process ended with status {status}")
    if errors:
        raise CompileError("internal: LLVM failed on a partition of the module: "
                           + "; ".join(errors), None)


def parallel_jobs() -> int:
    """How many processes compile one module: $AOTC_JOBS, else the cores this process may
    use (at most 4). 1 when other Python threads run here: a fork copies only the calling
    thread, and one of them could hold llvmlite's lock. Native threads (a BLAS pool) never
    touch llvmlite's LLVM; JAX's and TensorFlow's runtimes are left alone all the same (JAX
    warns at every fork)."""
    env = os.environ.get("AOTC_JOBS", "").strip()
    if env:
        if not env.isdigit() or int(env) < 1:
            raise CompileError(f"AOTC_JOBS={env!r}: expected a positive number of processes", None)
        jobs = int(env)
    else:
        jobs = min(len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity")
                   else os.cpu_count() or 1, 4)
    alone = threading.active_count() == 1 and not {"jax", "tensorflow"} & set(sys.modules)
    return jobs if alone and hasattr(os, "fork") else 1
