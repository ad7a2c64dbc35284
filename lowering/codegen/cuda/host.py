"""Host code of a cuda build: the CPU's host code (allocation, shape arithmetic, checks,
control flow), with each kernel call a launch of its PTX entry.

A launch is `int aot_gpu_launch(const char *entry, int64_t *params, int32_t n, int64_t blocks,
int32_t threads)`: the entry's flat parameters as 64-bit slots (pointers as integers), and the
grid from `device.DeviceKernel.launch`'s rule, computed here at run time from the parallel
output's dim 0. The GPU runtime implements it with the CUDA driver (not built yet); the
tests' emulated grid (tests/tooling/gpu_emu) implements it on the host.
"""
from __future__ import annotations

from llvmlite import ir

from lowering.codegen.cpu.host import HOST_EMITTERS
from lowering.codegen.cuda.device import MAX_BLOCKS, THREADS_PER_BLOCK, ceil_div
from lowering.codegen.llvm.gen import LLVMGen
from lowering.codegen.llvm.types import I32, I64, PTR, MemRef
from lowering.ir.core import Module


def _launch(g, b, op, values, host):
    name = op.attrs["callee"].name
    args = []
    for v in op.operands:
        m = values[v]
        args += [m.ptr] + list(m.dims) if isinstance(m, MemRef) else [m]
    eb = host.entry_builder
    with eb.goto_entry_block():
        eb.position_at_start(host.fn.entry_basic_block)
        slots = eb.alloca(I64, size=max(len(args), 1))
    for i, a in enumerate(args):
        slot = b.gep(slots, [ir.Constant(I64, i)], inbounds=True, source_etype=I64)
        b.store(b.ptrtoint(a, I64) if isinstance(a.type, ir.PointerType) else a, slot)
    if "aot.parallel" in op.attrs:
        dims = values[op.operands[op.attrs["aot.parallel"]]].dims
        rows = op.attrs.get("aot.parallel_block", 1)
        extent = dims[0]
        if "aot.parallel_tiles" in op.attrs:  # iterations: the output's tiles
            rows, extent = 1, ir.Constant(I64, 1)
            for d, size in zip(dims, op.attrs["aot.parallel_tiles"]):
                extent = b.mul(extent, ceil_div(b, d, size))
        per_block = THREADS_PER_BLOCK * rows // op.attrs.get("aot.parallel_lanes", 1)
        blocks = ceil_div(b, extent, per_block)
        blocks = b.select(b.icmp_unsigned("<", blocks, ir.Constant(I64, 1)), ir.Constant(I64, 1), blocks)
        blocks = b.select(b.icmp_unsigned(">", blocks, ir.Constant(I64, MAX_BLOCKS)),
                          ir.Constant(I64, MAX_BLOCKS), blocks)
        threads = ir.Constant(I32, THREADS_PER_BLOCK)
    else:
        blocks, threads = ir.Constant(I64, 1), ir.Constant(I32, 1)
    launch = g.declare("aot_gpu_launch", I32, [PTR, PTR, I32, I64, I32])
    entry = g.string(f"{g.name}_{name}")
    rc = b.call(launch, [entry, slots, ir.Constant(I32, len(args)), blocks, threads])
    host.fail_if_nonzero(b, rc)


HOST_EMITTERS_CUDA = {**HOST_EMITTERS, "func.call": _launch}


def generate_host(module: Module, name: str, host_tm, target) -> tuple[str, list]:
    """LLVM IR of the host code for the machine `host_tm` describes, kernels launched on
    `target`'s device; and the entry signatures."""
    gen = LLVMGen(module, name, target, host_emitters=HOST_EMITTERS_CUDA)
    mod = gen.run(emit_kernels=False)
    mod.triple = host_tm.triple
    mod.data_layout = str(host_tm.target_data)
    return str(mod), gen.entries
