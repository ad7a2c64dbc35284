"""Host code of a cuda build: the CPU's host code (shape arithmetic, checks, control flow),
with every buffer in device memory and each kernel call a launch of its PTX entry.

The runtime calls (runtime_c/device/cuda_*.c):
- `aot_gpu_launch(&module, kernel, entry, int64_t *params, n, int64_t *shape)`: the entry's
  flat parameters as 64-bit slots (pointers as integers); `shape` the grid (x, y, z), block
  (x, y, z) and dynamic shared bytes of the kernel's launch record (launch.py), the grid
  computed here at run time by the record's rule; `module` is this artifact's {PTX text,
  loaded module, a handle slot per kernel (`kernel` its index), resolved once per load}.
- `aot_gpu_alloc` / `aot_gpu_free` for the buffers the host code allocates right before
  the kernel that needs them and frees right after; `aot_gpu_constant` for a device copy of
  a constant; `aot_gpu_copy` between buffers.
- `aot_gpu_gemm_takes` / `aot_gpu_gemm` for gpu.blas_gemm_takes / gpu.blas_gemm: whether
  the runtime's cuBLAS runs a dot (matmul.blas_call), and the GEMM.
- An element the host code itself writes is one small copy to the device. One it reads (a
  shape tensor's value, a loop's predicate, a data-dependent count) comes from a host copy
  of its whole buffer (up to MIRROR_BYTES) made by one copy on the first read after the
  last device write (launch, GEMM, copy or store). The small buffers an entry allocates
  once, at its top level, and reads are one device block (`Arena`), copied back whole on the
  first read after a device write to any of them (a launch writing only other buffers
  keeps the copy): the values the host needs after kernels come back in one copy, however
  many buffers and kernels computed them.

`DeviceTransfers` makes the entry points take host pointers, as a drop-in for the CPU build:
arguments are copied to the device after their checks, results back before returning.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from llvmlite import ir

from abi.dtypes import dtype as abi_dtype
from lowering.codegen.cuda.device import ceil_div, iteration_count, iteration_counts, launches
from lowering.codegen.host.buffers import HOST_EMITTERS, buffer_text, checked_byte_size
from lowering.codegen.llvm.gen import LLVMGen
from lowering.codegen.llvm.types import I32, I64, PTR, VOID, MemRef, storage_type
from lowering.ir.core import uses

MODULE_T = ir.LiteralStructType([PTR, PTR, PTR])  # aot_gpu_module: PTX, module, handle slots


def byte_size(b, mem: MemRef):
    size = ir.Constant(I64, abi_dtype(mem.elem).size)
    for d in mem.dims:
        size = b.mul(size, d)
    return size


def _copy_checked(g, host, b, name, args):
    """A runtime copy `int name(void *dst, const void *src, int64_t bytes)`; a failure takes
    the entry's failure exit."""
    host.fail_if_nonzero(b, b.call(g.declare(name, I32, [PTR, PTR, I64]), args))


def device_alloc(g, b, host, shape, elem, what: str | None = None) -> MemRef:
    """A device buffer, freed by the failure exit unless released first. `what` (a buffer the
    program allocates, of dims computed at run time) has its byte size checked for overflow."""
    mem = MemRef(None, shape, elem)
    size = checked_byte_size(g, b, host, elem, shape, what) if what else byte_size(b, mem)
    ptr = b.call(g.declare("aot_gpu_alloc", PTR, [I64]), [size])
    is_null = b.icmp_unsigned("==", b.ptrtoint(ptr, I64), ir.Constant(I64, 0))
    host.fail_if_nonzero(b, b.select(is_null, ir.Constant(I32, 2), ir.Constant(I32, 0)))
    mem.ptr = ptr
    b.store(ptr, host.slot(mem, free="aot_gpu_free"))
    return mem


def device_free(g, b, host, mem: MemRef):
    b.call(g.declare("aot_gpu_free", VOID, [PTR]), [mem.ptr])
    b.store(ir.Constant(PTR, None), host.slot(mem, free="aot_gpu_free"))


MIRROR_BYTES = 1024  # device buffers the host reads this small come back whole, once
ARENA_BYTES = 4096  # at most this many bytes of them share one block (Arena)
ARENA_ALIGN = 16  # each at a multiple of this (a vector access's alignment)
ARENA_USERS = {"memref.load", "memref.store", "memref.dim", "memref.copy", "func.call", "memref.dealloc"}


@dataclass
class Arena:
    """The small buffers one host function reads and allocates once (at its top level, freed
    there, never handed to a loop, branch or result), at offsets of one device block: a
    copy of the block brings all of them back at once. The block is allocated at the first
    one's alloc and freed at the last one's dealloc."""
    size: int
    offsets: dict  # id(the alloc's result) -> its byte offset
    first: int  # id of the alloc op that allocates the block
    last: int  # id of the dealloc op that frees it


def plan_arenas(module) -> dict:
    """id(alloc result, alloc op or dealloc op of a member) -> its function's Arena, for the
    host functions with two or more such buffers."""
    plan = {}
    for func in module.functions():
        if "aot.kernel" in func.attrs:
            continue
        top = func.regions[0].blocks[0].ops
        users_of = uses(top)  # this function's live users (a value's own list may hold dead ops)
        offsets, order, size = {}, [], 0
        for op in top:
            t = op.results[0].type if op.name == "memref.alloc" and op.results else None
            if t is None or None in t.shape:
                continue
            n = max(abi_dtype(t.elem).size, 1) * int(np.prod(t.shape, dtype=np.int64))
            users = list(dict.fromkeys(users_of.get(op.results[0], [])))
            frees = [u for u in users if u.name == "memref.dealloc"]
            read = any(u.name == "memref.load" for u in users)
            if n > MIRROR_BYTES or size + n > ARENA_BYTES or not read or len(frees) != 1 \
                    or frees[0] not in top or any(u.name not in ARENA_USERS for u in users):
                continue
            offsets[id(op.results[0])] = size
            order.append((op, frees[0]))
            size += -(-n // ARENA_ALIGN) * ARENA_ALIGN
        if len(order) < 2:
            continue
        last = max((f for _, f in order), key=top.index)
        arena = Arena(size, offsets, id(order[0][0]), id(last))
        for op, free in order:
            plan[id(op.results[0])] = plan[id(op)] = plan[id(free)] = arena
    return plan


def _arena_block(host, arena):
    """This emission's state of `arena`: {"mem": its device block, "copy": the host copy,
    "fresh": whether that copy holds the block's values (0 until the first copy)}."""
    blocks = getattr(host, "arenas", None)
    if blocks is None:
        blocks = host.arenas = {}
    if id(arena) not in blocks:
        eb = host.entry_builder
        with eb.goto_entry_block():
            eb.position_at_start(host.fn.entry_basic_block)
            fresh = eb.alloca(I64)
            eb.store(ir.Constant(I64, 0), fresh)
        blocks[id(arena)] = {"mem": None, "copy": host.entry_alloca(ir.IntType(8), size=arena.size),
                             "fresh": fresh}
    return blocks[id(arena)]


def _arena_writes(g, b, host, written: list):
    """The device writes `written` (loop-stage values) of a launch, GEMM, copy or store: the
    host copy of an arena they touch is stale from here."""
    for v in written:
        arena = g.arenas.get(id(v))
        if arena is not None:
            b.store(ir.Constant(I64, 0), _arena_block(host, arena)["fresh"])


def _alloc(g, b, op, values, host):
    t = op.results[0].type
    arena = g.arenas.get(id(op))
    if arena is not None:  # a member: its place in the function's block
        state = _arena_block(host, arena)
        if id(op) == arena.first:
            state["mem"] = device_alloc(g, b, host, [ir.Constant(I64, arena.size)], "i8")
        offset = ir.Constant(I64, arena.offsets[id(op.results[0])])
        ptr = b.gep(state["mem"].ptr, [offset], source_etype=ir.IntType(8))
        return MemRef(ptr, [ir.Constant(I64, n) for n in t.shape], t.elem)
    it = iter(values[v] for v in op.operands)
    return device_alloc(g, b, host, [ir.Constant(I64, n) if n is not None else next(it) for n in t.shape],
                        t.elem, buffer_text(op, t.elem, t.shape))


def _dealloc(g, b, op, values, host):
    arena = g.arenas.get(id(op))
    if arena is None:
        device_free(g, b, host, values[op.operands[0]])
    elif id(op) == arena.last:
        device_free(g, b, host, _arena_block(host, arena)["mem"])


def _get_global(g, b, op, values, host):
    """The constant's device copy: made by the runtime on the first call, then kept in a slot
    of this artifact's own, so later calls need no lookup."""
    t = op.results[0].type
    name = op.attrs["name"].name
    mem = MemRef(g.globals[name], [ir.Constant(I64, n) for n in t.shape], t.elem)
    slot = g.mod.globals.get(f"{g.name}.{name}.device")
    if slot is None:
        slot = ir.GlobalVariable(g.mod, PTR, name=f"{g.name}.{name}.device")
        slot.linkage, slot.initializer = "internal", ir.Constant(PTR, None)
    cached = b.load(slot, typ=PTR)
    first = b.icmp_unsigned("==", b.ptrtoint(cached, I64), ir.Constant(I64, 0))
    before = b.block
    with b.if_then(first, likely=False):
        made = b.call(g.declare("aot_gpu_constant", PTR, [PTR, I64]), [mem.ptr, byte_size(b, mem)])
        b.store(made, slot)  # racing threads store the same pointer (an aligned word)
        made_in = b.block
    ptr = b.phi(PTR)
    ptr.add_incoming(cached, before)
    ptr.add_incoming(made, made_in)
    is_null = b.icmp_unsigned("==", b.ptrtoint(ptr, I64), ir.Constant(I64, 0))
    host.fail_if_nonzero(b, b.select(is_null, ir.Constant(I32, 3), ir.Constant(I32, 0)))
    return MemRef(ptr, mem.dims, mem.elem)


def _copy(g, b, op, values, host):
    """Copies the destination's size: a prefix when the source is an upper-bound buffer."""
    src, dst = (values[v] for v in op.operands)
    _copy_checked(g, host, b, "aot_gpu_copy", [dst.ptr, src.ptr, byte_size(b, dst)])
    _device_writes(host, b)
    _arena_writes(g, b, host, op.operands[1:])


def _element(g, b, mem, idx):
    return g.element_ptr(b, mem, idx), storage_type(mem.elem)


def _device_writes(host, b=None):
    """This call's count of device writes so far (an entry-block slot, 0 at entry); with `b`,
    one more: a launch, a GEMM, a copy or a store may have changed any device buffer."""
    if getattr(host, "device_writes", None) is None:
        eb = host.entry_builder
        with eb.goto_entry_block():
            eb.position_at_start(host.fn.entry_basic_block)
            host.device_writes = eb.alloca(I64)
            eb.store(ir.Constant(I64, 0), host.device_writes)
    if b is not None:
        b.store(b.add(b.load(host.device_writes, typ=I64), ir.Constant(I64, 1)), host.device_writes)
    return host.device_writes


def _mirror(g, b, host, op, mem, n: int):
    """A host copy of the small static device buffer `mem`, made by one copy the first time
    the host reads it after the last device write, then read from the host: a kernel's
    shape values, predicates and counts are one copy, not one per element."""
    t = storage_type(mem.elem)
    copies = getattr(host, "mirrors", None)
    if copies is None:
        copies = host.mirrors = {}
    key = id(op.operands[0])
    if key not in copies:  # (its host copy, the device buffer and write count it holds)
        eb = host.entry_builder
        with eb.goto_entry_block():
            eb.position_at_start(host.fn.entry_basic_block)
            of = eb.alloca(PTR)
            eb.store(ir.Constant(PTR, None), of)
            at = eb.alloca(I64)
        copies[key] = (host.entry_alloca(t, size=max(n, 1)), of, at)
    data, of, at = copies[key]
    writes = b.load(_device_writes(host), typ=I64)
    stale = b.or_(b.icmp_unsigned("!=", b.load(of, typ=PTR), mem.ptr),
                  b.icmp_unsigned("!=", b.load(at, typ=I64), writes))
    with b.if_then(stale, likely=False):
        size = ir.Constant(I64, max(abi_dtype(mem.elem).size, 1) * n)
        _copy_checked(g, host, b, "aot_gpu_copy_to_host", [data, mem.ptr, size])
        b.store(mem.ptr, of)
        b.store(writes, at)
    return MemRef(data, mem.dims, mem.elem)


def _arena_mirror(g, b, host, arena, value, mem):
    """`mem` (a member of `arena`) read from the host copy of the whole block, made by one
    copy on the first read after a device write to any member."""
    state = _arena_block(host, arena)
    with b.if_then(b.icmp_unsigned("==", b.load(state["fresh"], typ=I64), ir.Constant(I64, 0)), likely=False):
        _copy_checked(g, host, b, "aot_gpu_copy_to_host",
                      [state["copy"], state["mem"].ptr, ir.Constant(I64, arena.size)])
        b.store(ir.Constant(I64, 1), state["fresh"])
    ptr = b.gep(state["copy"], [ir.Constant(I64, arena.offsets[id(value)])], source_etype=ir.IntType(8))
    return MemRef(ptr, mem.dims, mem.elem)


def _load(g, b, op, values, host):
    mem = values[op.operands[0]]
    shape = op.operands[0].type.shape
    idx = [values[v] for v in op.operands[1:]]
    n = None if None in shape else int(np.prod(shape, dtype=np.int64))
    arena = g.arenas.get(id(op.operands[0]))
    if arena is not None:
        ptr, t = _element(g, b, _arena_mirror(g, b, host, arena, op.operands[0], mem), idx)
        v = b.load(ptr, typ=t)
    elif n is not None and n * max(abi_dtype(mem.elem).size, 1) <= MIRROR_BYTES:
        ptr, t = _element(g, b, _mirror(g, b, host, op, mem, n), idx)
        v = b.load(ptr, typ=t)
    else:  # a big or dynamic buffer: the one element
        ptr, t = _element(g, b, mem, idx)
        tmp = host.entry_alloca(t)
        size = ir.Constant(I64, max(abi_dtype(mem.elem).size, 1))
        _copy_checked(g, host, b, "aot_gpu_copy_to_host", [tmp, ptr, size])
        v = b.load(tmp, typ=t)
    return b.trunc(v, ir.IntType(1)) if mem.elem == "i1" else v


def _store(g, b, op, values, host):
    value, mem = values[op.operands[0]], values[op.operands[1]]
    ptr, t = _element(g, b, mem, [values[v] for v in op.operands[2:]])
    tmp = host.entry_alloca(t)
    b.store(b.zext(value, t) if mem.elem == "i1" else value, tmp)
    size = ir.Constant(I64, max(abi_dtype(mem.elem).size, 1))
    _copy_checked(g, host, b, "aot_gpu_copy_to_device", [ptr, tmp, size])
    _device_writes(host, b)
    _arena_writes(g, b, host, op.operands[1:2])


def _gemm_sizes(b, op, values):
    """(dtype code, batch, m, n, k) of a gpu.blas_gemm(_takes) on its buffers."""
    lhs, _, out = (values[v] for v in op.operands)
    nb = len(out.dims) - 2
    batch = ir.Constant(I64, 1)
    for d in out.dims[:nb]:
        batch = b.mul(batch, d)
    k = lhs.dims[nb if op.attrs["aot.transposed"][0] else nb + 1]
    return [ir.Constant(I32, abi_dtype(out.elem).code), batch, out.dims[nb], out.dims[nb + 1], k]


def _blas_gemm_takes(g, b, op, values, host):
    takes = g.declare("aot_gpu_gemm_takes", I32, [I32, I64, I64, I64, I64])
    return b.zext(b.call(takes, _gemm_sizes(b, op, values)), I64)


def _blas_gemm(g, b, op, values, host):
    lhs, rhs, out = (values[v] for v in op.operands)
    code, *sizes = _gemm_sizes(b, op, values)
    lhs_t, rhs_t = op.attrs["aot.transposed"]
    gemm = g.declare("aot_gpu_gemm", I32, [I32, I32, I32, I64, I64, I64, I64, PTR, PTR, PTR])
    host.fail_if_nonzero(b, b.call(gemm, [code, ir.Constant(I32, lhs_t), ir.Constant(I32, rhs_t), *sizes,
                                          lhs.ptr, rhs.ptr, out.ptr]))
    _device_writes(host, b)
    _arena_writes(g, b, host, op.operands[2:])


def _grid(b, launch, dims):
    """(x, y, z) blocks as i64 values: Launch.grid's rule on the run's dims."""
    one = ir.Constant(I64, 1)

    def clamp(n, low, high):
        n = b.select(b.icmp_unsigned("<", n, ir.Constant(I64, low)), ir.Constant(I64, low), n)
        return b.select(b.icmp_unsigned(">", n, ir.Constant(I64, high)), ir.Constant(I64, high), n)
    count = iteration_count(b, dims, launch)
    blocks = ceil_div(b, count, launch.iterations_per_block)
    if launch.vector > 1:  # a thread per `vector` iterations (from `vector_from` on)
        grouped = ceil_div(b, count, launch.iterations_per_block * launch.vector)
        many = b.icmp_unsigned(">=", count, ir.Constant(I64, launch.vector_from))
        blocks = b.select(many, grouped, blocks) if launch.vector_from else grouped
    blocks = clamp(blocks, 1, launch.max_blocks)
    if not launch.multi_grid:
        return blocks, one, one
    counts = iteration_counts(b, dims, launch)
    x, y = counts[-1], counts[-2]
    z = one
    for c in counts[:-2]:
        z = b.mul(z, c)
    total = b.mul(b.mul(x, y), z)
    fits = b.and_(b.and_(b.icmp_unsigned(">", total, ir.Constant(I64, 0)),
                         b.icmp_unsigned("<=", total, ir.Constant(I64, launch.max_blocks))),
                  b.and_(b.icmp_unsigned("<=", y, ir.Constant(I64, launch.max_grid[1])),
                         b.icmp_unsigned("<=", z, ir.Constant(I64, launch.max_grid[2]))))
    return b.select(fits, x, blocks), b.select(fits, y, one), b.select(fits, z, one)


def _launch(g, b, op, values, host):
    name = op.attrs["callee"].name
    args = []
    for v in op.operands:
        m = values[v]
        args += [m.ptr] + list(m.dims) if isinstance(m, MemRef) else [m]
    slots = host.int64_slots(b, args)
    launch = g.launches[name][0]
    if launch.space == "thread":
        grid = [ir.Constant(I64, 1)] * 3
    else:
        grid = list(_grid(b, launch, values[op.operands[op.attrs["aot.parallel"]]].dims))
    shape = host.int64_slots(b, grid + [ir.Constant(I64, n) for n in (*launch.block, launch.shared_bytes)])
    fn = g.declare("aot_gpu_launch", I32, [PTR, I32, PTR, PTR, I32, PTR])
    kernel = ir.Constant(I32, list(g.launches).index(name))
    rc = b.call(fn, [g.gpu_module, kernel, g.string(launch.name), slots, ir.Constant(I32, len(args)), shape])
    host.fail_if_nonzero(b, rc)
    _device_writes(host, b)
    writes = op.attrs.get("aot.writes")
    _arena_writes(g, b, host, op.operands if writes is None else [op.operands[i] for i in writes])


HOST_EMITTERS_CUDA = {**HOST_EMITTERS, "func.call": _launch, "memref.alloc": _alloc,
                      "memref.dealloc": _dealloc, "memref.get_global": _get_global,
                      "memref.copy": _copy, "memref.load": _load, "memref.store": _store,
                      "gpu.blas_gemm_takes": _blas_gemm_takes, "gpu.blas_gemm": _blas_gemm}


class DeviceTransfers:
    """Entry points of a cuda build take and return host memory: each argument is copied to
    a device buffer after its check, each result is computed in device memory and copied
    into the host result before the entry returns. The device copies live only for the
    call (the failure exit frees them too)."""

    def __init__(self, g):
        self.g = g
        self.temporaries = []  # device copies of arguments and preallocated results
        self.copies_back = []  # (host result, its device buffer)

    def argument(self, b, host, mem: MemRef) -> MemRef:
        dev = device_alloc(self.g, b, host, mem.dims, mem.elem)
        _copy_checked(self.g, host, b, "aot_gpu_copy_to_device", [dev.ptr, mem.ptr, byte_size(b, mem)])
        self.temporaries.append(dev)
        return dev

    def result(self, b, host, mem: MemRef) -> MemRef:
        dev = device_alloc(self.g, b, host, mem.dims, mem.elem)
        self.temporaries.append(dev)
        self.copies_back.append((mem, dev))
        return dev

    def returned(self, b, host, mem: MemRef) -> MemRef:
        """A host block (the runtime's allocator, for aot_adopt_result) holding a result the
        body left in device memory."""
        g = self.g
        size = byte_size(b, mem)
        ptr = b.call(g.declare("aot_alloc", PTR, [I64]), [size])
        is_null = b.icmp_unsigned("==", b.ptrtoint(ptr, I64), ir.Constant(I64, 0))
        host.fail_if_nonzero(b, b.select(is_null, ir.Constant(I32, 2), ir.Constant(I32, 0)))
        out = MemRef(ptr, mem.dims, mem.elem)
        b.store(ptr, host.slot(out))
        _copy_checked(g, host, b, "aot_gpu_copy_to_host", [ptr, mem.ptr, size])
        if id(mem) in host.slots and mem not in self.temporaries:  # a temporary of the body
            device_free(g, b, host, mem)
        return out

    def finish(self, b, host):
        """Results copied back, then every device copy of this call freed."""
        for mem, dev in self.copies_back:
            _copy_checked(self.g, host, b, "aot_gpu_copy_to_host", [mem.ptr, dev.ptr, byte_size(b, mem)])
        for dev in self.temporaries:
            device_free(self.g, b, host, dev)
        self.temporaries, self.copies_back = [], []


class DeviceEntry:
    """`NAME_F_device`'s body: arguments and results already in device memory; results the
    runtime allocates are device buffers too (runtime_c/device/cuda_results.c)."""
    RESULT_FUNCTIONS = {"prepare": "aot_prepare_device_result",
                        "unprepare": "aot_unprepare_device_result", "adopt": "aot_adopt_device_result"}

    def argument(self, b, host, mem):
        return mem

    def result(self, b, host, mem):
        return mem

    def returned(self, b, host, mem):
        return mem

    def finish(self, b, host):
        pass


def emit_device_entry(g, func):
    """`int NAME_F_device(const aot_tensor *args, aot_tensor *results, void *stream)`: the
    entry on device pointers, run on the caller's CUDA stream (NULL: the calling thread's)."""
    from lowering.codegen.host import entry_abi
    sig, body, _, _ = entry_abi.emit_entry(g, func, DeviceEntry(), symbol_suffix="_device.body")
    fn = ir.Function(g.mod, ir.FunctionType(I32, [PTR, PTR, PTR]), name=f"{sig.symbol}_device")
    b = ir.IRBuilder(fn.append_basic_block("entry"))
    swap = g.declare("aot_gpu_swap_stream", PTR, [PTR])
    previous = b.call(swap, [fn.args[2]])
    rc = b.call(body, [fn.args[0], fn.args[1]])
    b.call(swap, [previous])
    b.ret(rc)


def generate_host(module, name: str, host_tm, target, ptx: str, entry_suffix: str = "") -> tuple[str, list]:
    """LLVM IR of the host code for the machine `host_tm` describes, kernels launched on
    `target`'s device from `ptx` (embedded); and the entry signatures. With `entry_suffix`
    (an artifact for two targets), entries are NAME_F<suffix> and the CPU build's code
    carries the metadata and the public NAME_F."""
    gen = LLVMGen(module, name, target, host_emitters=HOST_EMITTERS_CUDA)
    gen.entry_suffix, gen.metadata = entry_suffix, not entry_suffix
    data = bytearray(ptx.encode() + b"\0")
    text = ir.GlobalVariable(gen.mod, ir.ArrayType(ir.IntType(8), len(data)), name=f"{name}.ptx")
    text.global_constant, text.linkage = True, "private"
    text.initializer = ir.Constant(text.value_type, data)
    gen.launches = launches(module, name, target)
    gen.arenas = plan_arenas(module)
    handles_t = ir.ArrayType(PTR, max(len(gen.launches), 1))
    handles = ir.GlobalVariable(gen.mod, handles_t, name=f"{name}.gpu_functions")
    handles.linkage, handles.initializer = "internal", ir.Constant(handles_t, None)
    gen.gpu_module = ir.GlobalVariable(gen.mod, MODULE_T, name=f"{name}.gpu_module")
    gen.gpu_module.linkage = "internal"
    gen.gpu_module.initializer = ir.Constant(MODULE_T, [text, ir.Constant(PTR, None), handles])
    gen.transfers_factory = DeviceTransfers
    mod = gen.run(emit_kernels=False)
    for func in module.functions():
        if "aot.kernel" not in func.attrs and "aot.shape_query" not in func.attrs:
            emit_device_entry(gen, func)
    mod.triple = host_tm.triple
    mod.data_layout = str(host_tm.target_data)
    return str(mod), gen.entries
