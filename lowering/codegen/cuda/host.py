"""Host code of a cuda build: the CPU's host code (shape arithmetic, checks, control flow),
with every buffer in device memory and each kernel call a launch of its PTX entry.

The runtime calls (runtime_c/device/cuda.c):
- `aot_gpu_launch(&module, entry, int64_t *params, n, blocks, threads)`: the entry's flat
  parameters as 64-bit slots (pointers as integers), the grid from `device.DeviceKernel`'s
  rule, computed here at run time; `module` is this artifact's {PTX text, loaded module}.
- `aot_gpu_alloc` / `aot_gpu_free` for the buffers the host code allocates right before
  the kernel that needs them and frees right after; `aot_gpu_constant` for a device copy of
  a constant; `aot_gpu_copy` between buffers.
- `aot_gpu_gemm_takes` / `aot_gpu_gemm` for gpu.blas_gemm_takes / gpu.blas_gemm: whether
  the runtime's cuBLAS runs a dot (matmul.blas_call), and the GEMM.
- An element the host code itself reads or writes (a shape tensor's value, a loop's
  predicate, a data-dependent count) is one small copy to or from the device.

`DeviceTransfers` makes the entry points take host pointers, as a drop-in for the CPU build:
arguments are copied to the device after their checks, results back before returning.
"""
from __future__ import annotations

from llvmlite import ir

from abi.dtypes import dtype as abi_dtype
from lowering.codegen.cpu.host import HOST_EMITTERS, buffer_text, checked_byte_size
from lowering.codegen.cuda.device import MAX_BLOCKS, THREADS_PER_BLOCK, ceil_div, iteration_count
from lowering.codegen.llvm.gen import LLVMGen
from lowering.codegen.llvm.types import I32, I64, PTR, VOID, MemRef, storage_type

MODULE_T = ir.LiteralStructType([PTR, PTR])  # aot_gpu_module: the PTX, the loaded module


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


def _alloc(g, b, op, values, host):
    t = op.results[0].type
    it = iter(values[v] for v in op.operands)
    return device_alloc(g, b, host, [ir.Constant(I64, n) if n is not None else next(it) for n in t.shape],
                        t.elem, buffer_text(op, t.elem, t.shape))


def _dealloc(g, b, op, values, host):
    device_free(g, b, host, values[op.operands[0]])


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


def _element(g, b, mem, idx):
    return g.element_ptr(b, mem, idx), storage_type(mem.elem)


def _load(g, b, op, values, host):
    mem = values[op.operands[0]]
    ptr, t = _element(g, b, mem, [values[v] for v in op.operands[1:]])
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


def _launch(g, b, op, values, host):
    name = op.attrs["callee"].name
    args = []
    for v in op.operands:
        m = values[v]
        args += [m.ptr] + list(m.dims) if isinstance(m, MemRef) else [m]
    slots = host.int64_slots(b, args)
    if "aot.parallel" in op.attrs:
        iterations = iteration_count(b, values[op.operands[op.attrs["aot.parallel"]]].dims, op.attrs)
        blocks = ceil_div(b, iterations, THREADS_PER_BLOCK // op.attrs.get("aot.parallel_lanes", 1))
        blocks = b.select(b.icmp_unsigned("<", blocks, ir.Constant(I64, 1)), ir.Constant(I64, 1), blocks)
        blocks = b.select(b.icmp_unsigned(">", blocks, ir.Constant(I64, MAX_BLOCKS)),
                          ir.Constant(I64, MAX_BLOCKS), blocks)
        threads = ir.Constant(I32, THREADS_PER_BLOCK)
    else:
        blocks, threads = ir.Constant(I64, 1), ir.Constant(I32, 1)
    launch = g.declare("aot_gpu_launch", I32, [PTR, PTR, PTR, I32, I64, I32])
    entry = g.string(f"{g.name}_{name}")
    rc = b.call(launch, [g.gpu_module, entry, slots, ir.Constant(I32, len(args)), blocks, threads])
    host.fail_if_nonzero(b, rc)


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
    runtime allocates are device buffers too (runtime_c/device/cuda.c's result functions)."""
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
    from lowering.codegen.cpu import entry_abi
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
    gen.gpu_module = ir.GlobalVariable(gen.mod, MODULE_T, name=f"{name}.gpu_module")
    gen.gpu_module.linkage = "internal"
    gen.gpu_module.initializer = ir.Constant(MODULE_T, [text, ir.Constant(PTR, None)])
    gen.transfers_factory = DeviceTransfers
    mod = gen.run(emit_kernels=False)
    for func in module.functions():
        if "aot.kernel" not in func.attrs and "aot.shape_query" not in func.attrs:
            emit_device_entry(gen, func)
    mod.triple = host_tm.triple
    mod.data_layout = str(host_tm.target_data)
    return str(mod), gen.entries
