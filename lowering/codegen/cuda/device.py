"""GPU kernels: the loop stage's kernels as NVPTX LLVM IR, then PTX.

Each kernel's body is emitted by the same generator as on the CPU (codegen/llvm/gen.py,
the same scalar and memory emitters), into a module for `nvptx64-nvidia-cuda`; around it,
one `ptx_kernel` entry per kernel spreads the body over the grid:

- a kernel whose outermost loop the loop pass marked parallel (its iterations write
  disjoint parts of the output: elementwise fusions, a thread per element; row reductions,
  a warp per row; dots, a block per tile) runs that loop as a grid-stride loop, as its
  launch record (launch.py) maps iterations onto threads;
- any other kernel (a column reduction, a sort, a scatter...) runs on the grid's first
  thread alone: correct, not fast, until it gets a schedule of its own.

Entry parameters are flat: each buffer is a pointer and one i64 per dim, each run-time dim
an i64, never a descriptor to copy. Each entry's block is fixed by `.reqntid` (a launch with
another block fails, on the GPU as on the emulated grid). Math the device has no
instruction for and the inline library does not cover is a compile-time error naming the
op, never a silent CPU fallback.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from llvmlite import ir

from abi.dtypes import dtype as abi_dtype
from lowering.codegen.cuda.launch import Launch, launch_of, static_dims
from lowering.codegen.cuda.vector import vector_kernel
from lowering.codegen.llvm.emitters import EMITTERS
from lowering.codegen.llvm.gen import LLVMGen
from lowering.codegen.llvm.types import I32, I64, PTR, VOID, MemRef, storage_type
from lowering.codegen.mathlib import MATH, native
from lowering.ir.core import CompileError, MemRefType, Module, Operation

SREG = "llvm.nvvm.read.ptx.sreg."
WARP = 32


@dataclass
class DeviceKernel:
    """One PTX entry: its name, parameter types ("ptr" or "i64"), its launch record, and the
    parallel output's dims when the compile knows them (for the report's grid)."""
    name: str
    params: list
    launch: Launch
    dims: tuple | None = None

    @property
    def extent_param(self) -> int | None:
        return self.launch.extent_param

    def describe(self) -> str:
        """The launch in words, as `--report` prints it."""
        return self.launch.describe(self.dims)


def launch_report(kernels: list, resources: dict | None, timing: dict | None = None) -> str:
    """One line per PTX entry: its launch and, when ptxas was there to ask, its registers
    and shared memory; with `timing` (entry -> text), the time model's estimate."""
    lines = []
    for k in kernels:
        use = ""
        if resources is not None and k.name in resources:
            regs, smem = resources[k.name]
            use = f"; {regs} registers, {smem} bytes shared memory (ptxas)"
        lines.append(f"{k.name}: {k.describe()}{use}")
        if timing and k.name in timing:
            lines.append(f"  {timing[k.name]}")
    if resources is None:
        lines.append("(ptxas not found: registers and shared memory not shown)")
    return "\n".join(lines) + "\n"


def check_device_ops(module: Module, target) -> None:
    """Refuse, with the kernel's location, any op the device cannot compute yet."""
    for func in module.functions():
        if "aot.kernel" not in func.attrs:
            continue
        for op in func.walk():
            if op.name.startswith("math.") and op.name not in native(target):
                inline = ", ".join(sorted(name[len("math."):] for name in MATH))
                raise CompileError(
                    f"'{op.name}' in the kernel of '{func.attrs['aot.kernel']}' has no device "
                    f"version yet: the {target.name} target has no libm; the device has inline "
                    f"versions of {inline} (and logistic)", op.loc)
            if op.name in ("aot.gemm", "aot.conv"):
                raise CompileError(f"'{op.name}' (the CPU's packed matmul) in a {target.name} "
                                   "kernel", op.loc)


def _parallel_calls(module: Module) -> dict:
    """Kernel name -> the attributes of the host call that marks it parallel."""
    calls = {}
    for func in module.functions():
        if "aot.kernel" in func.attrs:
            continue
        for op in func.walk():
            if op.name == "func.call" and "aot.parallel" in op.attrs:
                calls[op.attrs["callee"].name] = op.attrs
    return calls


def _sreg(g, b, name):
    return b.zext(b.call(g.declare(SREG + name, I32, []), []), I64)


def _lane_id(g, b, op, args):
    return b.and_(_sreg(g, b, "tid.x"), ir.Constant(I64, WARP - 1))


def _shuffle_xor(g, b, op, args):
    """`shfl.sync.bfly` on 32-bit pieces: narrower values widened, wider ones split (a
    complex number part by part)."""
    (x,) = args
    t = x.type
    if isinstance(t, ir.LiteralStructType):
        for i in range(len(t.elements)):
            x = b.insert_value(x, _shuffle_xor(g, b, op, [b.extract_value(args[0], i)]), i)
        return x
    bits = t.width if isinstance(t, ir.IntType) else {"half": 16, "float": 32, "double": 64}[str(t)]
    as_int = x if isinstance(t, ir.IntType) else b.bitcast(x, ir.IntType(bits))
    shfl = g.declare("llvm.nvvm.shfl.sync.bfly.i32", I32, [I32, I32, I32, I32])
    full, lanes = ir.Constant(I32, -1), ir.Constant(I32, WARP - 1)
    offset = ir.Constant(I32, op.attrs["offset"])
    pieces = []
    for k in range(max(bits // 32, 1)):
        piece = b.lshr(as_int, ir.Constant(as_int.type, 32 * k)) if k else as_int
        piece = b.trunc(piece, I32) if bits > 32 else b.zext(piece, I32) if bits < 32 else piece
        pieces.append(b.call(shfl, [full, piece, offset, lanes]))
    if bits <= 32:
        out = b.trunc(pieces[0], as_int.type) if bits < 32 else pieces[0]
    else:
        out = b.or_(b.zext(pieces[0], as_int.type),
                    b.shl(b.zext(pieces[1], as_int.type), ir.Constant(as_int.type, 32)))
    return out if isinstance(t, ir.IntType) else b.bitcast(out, t)


def _thread_id(g, b, op, args):
    """The thread's place in its block: tid.x, or x fastest over a 2-D/3-D block."""
    return _linear(g, b, "tid", getattr(g, "block_shape", (1, 1, 1)))


def _linear(g, b, reg: str, shape: tuple):
    """`reg`.x + n`reg`.x * (`reg`.y + n`reg`.y * `reg`.z), the dims of size 1 in `shape`
    left out (their index is 0)."""
    x = _sreg(g, b, f"{reg}.x")
    if shape[1] == 1 and shape[2] == 1:
        return x
    yz = _sreg(g, b, f"{reg}.y")
    if shape[2] != 1:
        yz = b.add(yz, b.mul(_sreg(g, b, f"n{reg}.y"), _sreg(g, b, f"{reg}.z")))
    return b.add(x, b.mul(_sreg(g, b, f"n{reg}.x"), yz))


def _barrier(g, b, op, args):
    """`bar.sync 0`: every thread of the block waits here (all must reach it alike)."""
    b.call(g.declare("llvm.nvvm.barrier.cta.sync.aligned.all", VOID, [I32]), [ir.Constant(I32, 0)])


def _shared(g, b, op, args):
    """A static buffer in the block's shared memory (addrspace 3), used through a generic
    pointer (NVPTX's address-space inference turns its loads back into `ld.shared`)."""
    t = op.results[0].type
    n = 1
    for d in t.shape:
        n *= d
    array = ir.ArrayType(storage_type(t.elem), n)
    gv = ir.GlobalVariable(g.mod, array, name=g.mod.get_unique_name("shared"), addrspace=3)
    gv.linkage, gv.align = "internal", 16
    gv.initializer = ir.Constant(array, ir.Undefined)
    return MemRef(b.addrspacecast(gv, PTR), [ir.Constant(I64, d) for d in t.shape], t.elem)


def _atomic_rmw(g, b, op, args):
    """`atom.<kind>` on one element (monotonic: the kernel's end orders it for later launches)."""
    value, mem, idx = args[0], args[1], args[2:]
    return b.atomic_rmw(op.attrs["kind"], g.element_ptr(b, mem, idx), value, "monotonic")


def _atomic_cas(g, b, op, args):
    """`atom.cas` on one element, floats compared and swapped as their bits."""
    expected, desired, mem, idx = args[0], args[1], args[2], args[3:]
    t = expected.type
    bits = t if isinstance(t, ir.IntType) else ir.IntType({"float": 32, "double": 64}[str(t)])
    e, d = (v if v.type == bits else b.bitcast(v, bits) for v in (expected, desired))
    old = b.extract_value(b.cmpxchg(g.element_ptr(b, mem, idx), e, d, "monotonic", "monotonic"), 0)
    return old if bits == t else b.bitcast(old, t)


DEVICE_EMITTERS = {**EMITTERS, "gpu.lane_id": _lane_id, "gpu.shuffle_xor": _shuffle_xor,
                   "gpu.thread_id": _thread_id, "gpu.barrier": _barrier, "gpu.shared": _shared,
                   "gpu.atomic_rmw": _atomic_rmw, "gpu.atomic_cas": _atomic_cas}
BLOCK_OPS = ("gpu.thread_id", "gpu.barrier", "gpu.shared")  # need a whole block per iteration


# ---- counting: the emulated grid's build for the time model (timing.py) -------------------

FLOPS = {"arith.addf": 1, "arith.subf": 1, "arith.mulf": 1, "arith.divf": 1, "arith.remf": 1,
         "arith.negf": 1, "arith.maximumf": 1, "arith.minimumf": 1, "math.fma": 2, "math.sqrt": 1,
         "math.absf": 1}


def _in_shared(mem) -> bool:
    return getattr(mem.ptr, "opname", "") == "addrspacecast"


def _counted_access(emit, store: bool):
    """`emit`, after reporting the element's address and size to the emulated grid
    (`aot_emu_access(site, address, bytes, store)`): global memory only, each access site of
    the module numbered."""
    def counted(g, b, op, args):
        mem, idx = (args[1], args[2:]) if store else (args[0], args[1:])
        vector = op.attrs.get("aot.vector", 1)  # vector.py: one access of that many elements
        if not _in_shared(mem) and vector:
            g.access_sites = getattr(g, "access_sites", 0) + 1
            report = g.declare("aot_emu_access", VOID, [I32, PTR, I32, I32])
            size = max(abi_dtype(mem.elem).size, 1) * vector
            b.call(report, [ir.Constant(I32, g.access_sites - 1), g.element_ptr(b, mem, idx),
                            ir.Constant(I32, size), ir.Constant(I32, int(store))])
        return emit(g, b, op, args)
    return counted


def _counted_flops(emit, n: int):
    def counted(g, b, op, args):
        b.call(g.declare("aot_emu_flops", VOID, [I32]), [ir.Constant(I32, n)])
        return emit(g, b, op, args)
    return counted


COUNTING_EMITTERS = {**DEVICE_EMITTERS, "memref.load": _counted_access(DEVICE_EMITTERS["memref.load"], False),
                     "memref.store": _counted_access(DEVICE_EMITTERS["memref.store"], True),
                     **{name: _counted_flops(DEVICE_EMITTERS[name], n) for name, n in FLOPS.items()
                        if name in DEVICE_EMITTERS}}


def emit_entry(g: LLVMGen, func: Operation, body: ir.Function, launch: Launch,
               counting: bool = False, vector_body: ir.Function | None = None) -> DeviceKernel:
    """The `ptx_kernel` around `body`: a grid-stride loop over its parallel loop's iterations
    as `launch` maps them onto the grid, or one thread. Its block is fixed (`.reqntid`), so
    the threads per block are a constant here. With `vector_body` (vector.vector_kernel's,
    `launch.vector` elements per iteration): that loop over groups when every buffer is
    16-byte aligned, else `body`'s over elements with the same threads."""
    parallel = launch.space != "thread"
    params = body.function_type.args[:-2] if parallel else body.function_type.args
    entry = ir.Function(g.mod, ir.FunctionType(VOID, params), name=launch.name)
    entry.calling_convention = "ptx_kernel"
    for axis, n in zip("xyz", launch.block):  # the launch must use this block (ptxas may rely on it)
        g.mod.add_named_metadata("nvvm.annotations", [entry, f"reqntid{axis}", ir.Constant(I32, n)])
    if launch.min_blocks:  # `.minnctapersm`: ptxas keeps the registers low enough for them
        g.mod.add_named_metadata("nvvm.annotations", [entry, "minctasm", ir.Constant(I32, launch.min_blocks)])
    b = ir.IRBuilder(entry.append_basic_block("entry"))
    threads = ir.Constant(I64, launch.threads_per_block)
    grid = (2, 2, 2) if launch.multi_grid else (2, 1, 1)  # which grid dims may exceed 1
    block_id, tid = _linear(g, b, "ctaid", grid), _linear(g, b, "tid", launch.block)
    gid = b.add(b.mul(block_id, threads), tid)
    args = list(entry.args)
    kinds = ["ptr" if isinstance(t, ir.PointerType) else "i64" for t in params]
    kernel = DeviceKernel(entry.name, kinds, launch)
    if not parallel:
        first = entry.append_basic_block("first_thread")
        done = entry.append_basic_block("done")
        b.cbranch(b.icmp_unsigned("==", gid, ir.Constant(I64, 0)), first, done)
        b.position_at_end(first)
        b.call(body, args)
        b.branch(done)
        b.position_at_end(done)
        b.ret_void()
        return kernel
    extent = iteration_count(b, args[launch.extent_param:], launch)
    blocks = _sreg(g, b, "nctaid.x")
    if launch.multi_grid:
        blocks = b.mul(blocks, b.mul(_sreg(g, b, "nctaid.y"), _sreg(g, b, "nctaid.z")))
    stride = b.mul(blocks, threads)
    if launch.lanes > 1:  # the lanes of a warp (or block) take the same iteration
        gid = b.udiv(gid, ir.Constant(I64, launch.lanes))
        stride = b.udiv(stride, ir.Constant(I64, launch.lanes))
    done = entry.append_basic_block("done")
    if vector_body is not None:
        pointers = [a for a in args if isinstance(a.type, ir.PointerType)]
        misaligned = ir.Constant(I64, 0)
        for p in pointers:
            misaligned = b.or_(misaligned, b.ptrtoint(p, I64))
        aligned = b.icmp_unsigned("==", b.and_(misaligned, ir.Constant(I64, 15)), ir.Constant(I64, 0))
        if launch.vector_from:  # the host's grid has a thread per group from there on
            aligned = b.and_(aligned, b.icmp_unsigned(">=", extent, ir.Constant(I64, launch.vector_from)))
        groups, scalar = entry.append_basic_block("groups"), entry.append_basic_block("elements")
        b.cbranch(aligned, groups, scalar)
        b.position_at_end(groups)
        aligned16 = g.declare(ASSUME_ALIGNED, VOID, [PTR])  # llvm.assume's "align" (ASSUME_TEXT)
        for p in pointers:
            b.call(aligned16, [p])
        n = b.udiv(extent, ir.Constant(I64, launch.vector))
        _grid_stride(g, b, vector_body, static_dims_of(func, args), gid, stride, n, done, counting)
        b.position_at_end(scalar)
    _grid_stride(g, b, body, args, gid, stride, extent, done, counting)
    b.position_at_end(done)
    b.ret_void()
    return kernel


def static_dims_of(func: Operation, args: list) -> list:
    """The kernel's parameters with each static dim of its buffers a constant: LLVM then
    knows the index math's strides (a row offset a multiple of 4 elements, for vector.py)."""
    out, i = [], 0
    for t in func.attrs["function_type"].inputs:
        if isinstance(t, MemRefType):
            out.append(args[i])
            out += [args[i + 1 + d] if n is None else ir.Constant(I64, n) for d, n in enumerate(t.shape)]
            i += 1 + t.rank
        else:
            out.append(args[i])
            i += 1
    return out + args[i:]


# "this pointer is 16-byte aligned" for LLVM: an `llvm.assume` with an "align" operand bundle,
# which llvmlite cannot build, so a call to this placeholder becomes one in the module's text
# (`llvm.ptrmask`, which says as much, crashes NVPTX's code generation in LLVM 22)
ASSUME_ALIGNED = "aot.assume_aligned16"
ASSUME_TEXT = (re.compile(r'call void @"aot\.assume_aligned16"\(ptr ([^)]+)\)'),
               r'call void @llvm.assume(i1 true) [ "align"(ptr \1, i64 16) ]')


def _grid_stride(g, b, body, args, first, stride, extent, done, counting: bool):
    """Iterations first, first + stride, ... below `extent`, each `body(args, i, i + 1)`;
    then on to `done`."""
    fn = b.function
    head, loop = fn.append_basic_block("head"), fn.append_basic_block("loop")
    start = b.block
    b.branch(head)
    b.position_at_end(head)
    i = b.phi(I64, name="i")
    i.add_incoming(first, start)
    more = b.icmp_unsigned("<", i, extent)
    if counting:  # the emulated grid may stop each thread early, and scales what it counted
        # (given i: a thread past the extent, an idle warp of a block per row, counts nothing)
        take = b.call(g.declare("aot_emu_iteration", I32, [I64, I64]), [extent, i])
        more = b.and_(more, b.icmp_unsigned("!=", take, ir.Constant(I32, 0)))
    b.cbranch(more, loop, done)
    b.position_at_end(loop)
    b.call(body, args + [i, b.add(i, ir.Constant(I64, 1))])
    i.add_incoming(b.add(i, stride), loop)
    b.branch(head)


def iteration_count(b: ir.IRBuilder, dims: list, launch: Launch):
    """The parallel loop's iterations from the parallel output's dims (i64 values), by
    `launch.counts`'s rule. The host's grid and the device's grid-stride loop both follow it."""
    counts = iteration_counts(b, dims, launch)
    extent = counts[0] if counts else ir.Constant(I64, 1)  # a rank-0 output's one tile
    for n in counts[1:]:
        extent = b.mul(extent, n)
    return extent


def iteration_counts(b: ir.IRBuilder, dims: list, launch: Launch) -> list:
    """Iterations along each dim of the space (Launch.counts) as i64 values."""
    if launch.space == "rows":
        return [ceil_div(b, dims[0], launch.rows)]
    return [ceil_div(b, d, size) for d, size in zip(dims, launch.tiles)]


def ceil_div(b: ir.IRBuilder, n, size: int):
    """ceil(n / size) of an i64, the iterations covering n in steps of size."""
    if size == 1:
        return n
    return b.udiv(b.add(n, ir.Constant(I64, size - 1)), ir.Constant(I64, size))


def launches(module: Module, name: str, target) -> dict:
    """Kernel symbol -> (its launch record, the parallel output's static dims or None)."""
    calls = _parallel_calls(module)
    out = {}
    for f in module.functions():
        if "aot.kernel" in f.attrs:
            sym = f.attrs["sym_name"]
            out[sym] = (launch_of(f"{name}_{sym}", f, calls.get(sym), target.gpu),
                        static_dims(f, calls.get(sym)))
    return out


def generate_device(module: Module, name: str, target, counting: bool = False) -> tuple[str, list]:
    """NVPTX LLVM IR text of every kernel of a loop-stage module, and their DeviceKernels. With
    `counting`, the build the emulated grid runs for the time model: every global access and
    floating-point op reported to it (never PTX: the calls are the emulator's)."""
    check_device_ops(module, target)  # the loops stage expanded the math it lacks (mathlib)
    g = LLVMGen(module, name, target, emitters=COUNTING_EMITTERS if counting else DEVICE_EMITTERS)
    g.mod.triple = target.triple
    records = launches(module, name, target)
    kernels = [f for f in module.functions() if "aot.kernel" in f.attrs]
    bodies = [g.declare_kernel(f) for f in kernels]
    vectors = {id(f): vector_kernel(f) for f in kernels if records[f.attrs["sym_name"]][0].vector > 1}
    vector_bodies = {k: g.declare_kernel(v) for k, v in vectors.items()}
    for f in kernels:
        launch = records[f.attrs["sym_name"]][0]
        g.block_shape = launch.block  # gpu.thread_id's linearization
        g.emit_kernel(f)
        if id(f) in vectors:
            g.emit_kernel(vectors[id(f)])
        used = {op.name for op in f.walk()}  # lane and block code: right only where lanes share iterations
        if used & set(BLOCK_OPS) and launch.lanes != launch.threads_per_block or \
                "gpu.lane_id" in used and launch.lanes % WARP:
            raise CompileError(f"internal: the kernel of '{f.attrs['aot.kernel']}' shares iterations "
                               f"between threads but is launched with {launch.lanes} per iteration", f.loc)
    out = []
    for f, body in zip(kernels, bodies):
        launch, dims = records[f.attrs["sym_name"]]
        kernel = emit_entry(g, f, body, launch, counting, vector_bodies.get(id(f)))
        kernel.dims = dims
        out.append(kernel)
    text = str(g.mod)
    if ASSUME_ALIGNED in text:
        text = ASSUME_TEXT[0].sub(ASSUME_TEXT[1], text)
        text = re.sub(r'declare void @"aot\.assume_aligned16"\(ptr [^)]*\)\s*\n',
                      "declare void @llvm.assume(i1 noundef)\n", text)
    return text, out
