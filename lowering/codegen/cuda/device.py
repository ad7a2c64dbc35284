"""GPU kernels: the loop stage's kernels as NVPTX LLVM IR, then PTX.

Each kernel's body is emitted by the same generator as on the CPU (codegen/llvm/gen.py,
the same scalar and memory emitters), into a module for `nvptx64-nvidia-cuda`; around it,
one `ptx_kernel` entry per kernel spreads the body over the grid:

- a kernel whose outermost loop the loop pass marked parallel (its iterations write
  disjoint parts of the output: elementwise fusions, row reductions, dots) runs that loop
  as a grid-stride loop, one iteration per thread at a time;
- any other kernel (a column reduction, a sort, a scatter...) runs on the grid's first
  thread alone: correct, not fast, until it gets a schedule of its own.

Entry parameters are flat: each buffer is a pointer and one i64 per dim, each run-time dim
an i64, never a descriptor to copy. `DeviceKernel.launch(extent)` is the launch rule
(`--report` prints it). Math the device has no instruction for and the inline library does
not cover is a compile-time error naming the op, never a silent CPU fallback.
"""
from __future__ import annotations

from dataclasses import dataclass

from llvmlite import ir

from lowering.codegen.cuda.math import INLINE, inline_device_math
from lowering.codegen.llvm.emitters import EMITTERS
from lowering.codegen.llvm.gen import LLVMGen
from lowering.codegen.llvm.types import I32, I64, PTR, VOID, MemRef, storage_type
from lowering.ir.core import CompileError, MemRefType, Module, Operation

THREADS_PER_BLOCK = 256
MAX_BLOCKS = 8192  # a grid-stride loop covers the rest; enough to fill any current GPU
# Loop-stage math ops NVPTX has instructions for; the rest (libm's cbrt, the chlo
# special functions...) need device versions first.
DEVICE_MATH = {"math.sqrt", "math.floor", "math.ceil", "math.round", "math.roundeven",
               "math.absf", "math.copysign", "math.ctpop", "math.ctlz", "math.absi"}
SREG = "llvm.nvvm.read.ptx.sreg."
WARP = 32


@dataclass
class DeviceKernel:
    """One PTX entry: its name, parameter types ("ptr" or "i64"), and for a grid-stride
    kernel the parameter holding its extent's dim and the rows each iteration covers."""
    name: str
    params: list
    extent_param: int | None  # None: the kernel runs on one thread
    rows_per_iteration: int = 1
    lanes: int = 1  # threads per iteration: a warp's or a block's, for the shared schedules
    tiles: tuple | None = None  # an output tile per iteration: its size along each leading dim

    def describe(self) -> str:
        """The launch rule in words, as `--report` prints it."""
        if self.extent_param is None:
            return "1 block of 1 thread (no parallel loop)"
        if self.tiles == ():  # a rank-0 output: its one tile is the only iteration
            return f"1 block of {THREADS_PER_BLOCK} threads sharing the one iteration (a rank-0 output)"
        rows = self.rows_per_iteration
        per_block = THREADS_PER_BLOCK * rows // self.lanes
        what = ("a block per iteration" if self.lanes == THREADS_PER_BLOCK else
                f"{self.lanes} threads (a warp) per iteration" if self.lanes > 1 else
                f"in steps of {rows} rows" if rows > 1 else "one iteration per thread")
        over = f"the extent in parameter #{self.extent_param}"
        if self.tiles is not None:
            over = (f"the {' x '.join(map(str, self.tiles))} tiles of the buffer whose dims start "
                    f"at parameter #{self.extent_param}")
        return (f"grid-stride over {over} ({what}): {THREADS_PER_BLOCK} threads per block, "
                f"ceil(iterations / {per_block}) blocks, at most {MAX_BLOCKS}")

    def launch(self, extent: int | None = None) -> tuple:
        """(blocks, threads per block) for a run whose parallel output has `extent` rows in dim 0
        (for a tiled kernel: `extent` tiles), as the host code computes it at run time."""
        if self.extent_param is None:
            return 1, 1
        per_block = THREADS_PER_BLOCK * self.rows_per_iteration // self.lanes
        blocks = -(-max(extent or 0, 1) // per_block)
        return min(blocks, MAX_BLOCKS), THREADS_PER_BLOCK


def launch_report(kernels: list, resources: dict | None) -> str:
    """One line per PTX entry: its launch rule and, when ptxas was there to ask, its registers
    and shared memory."""
    lines = []
    for k in kernels:
        use = ""
        if resources is not None and k.name in resources:
            regs, smem = resources[k.name]
            use = f"; {regs} registers, {smem} bytes shared memory (ptxas)"
        lines.append(f"{k.name}: {k.describe()}{use}")
    if resources is None:
        lines.append("(ptxas not found: registers and shared memory not shown)")
    return "\n".join(lines) + "\n"


def check_device_ops(module: Module, target) -> None:
    """Refuse, with the kernel's location, any op the device cannot compute yet."""
    for func in module.functions():
        if "aot.kernel" not in func.attrs:
            continue
        for op in func.walk():
            if op.name.startswith("math.") and op.name not in DEVICE_MATH:
                inline = ", ".join(sorted(name[len("math."):] for name in INLINE))
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
    return _sreg(g, b, "tid.x")


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


def emit_entry(g: LLVMGen, func: Operation, body: ir.Function, call_attrs) -> DeviceKernel:
    """The `ptx_kernel` around `body`: a grid-stride loop over its parallel loop, or one
    thread."""
    parallel = call_attrs is not None and func.attrs.get("aot.parallel")
    params = body.function_type.args[:-2] if parallel else body.function_type.args
    entry = ir.Function(g.mod, ir.FunctionType(VOID, params), name=f"{g.name}_{func.attrs['sym_name']}")
    entry.calling_convention = "ptx_kernel"
    b = ir.IRBuilder(entry.append_basic_block("entry"))
    gid = b.add(b.mul(_sreg(g, b, "ctaid.x"), _sreg(g, b, "ntid.x")), _sreg(g, b, "tid.x"))
    args = list(entry.args)
    kinds = ["ptr" if isinstance(t, ir.PointerType) else "i64" for t in params]
    if not parallel:
        first = entry.append_basic_block("first_thread")
        done = entry.append_basic_block("done")
        b.cbranch(b.icmp_unsigned("==", gid, ir.Constant(I64, 0)), first, done)
        b.position_at_end(first)
        b.call(body, args)
        b.branch(done)
        b.position_at_end(done)
        b.ret_void()
        return DeviceKernel(entry.name, kinds, None)
    # the parallel output's dim 0 (in blocks of rows) is the loop's extent
    offsets, k = [], 0
    for t in func.attrs["function_type"].inputs:
        offsets.append(k)
        k += 1 + t.rank if isinstance(t, MemRefType) else 1
    extent_param = offsets[call_attrs["aot.parallel"]] + 1
    rows = call_attrs.get("aot.parallel_block", 1)
    lanes = call_attrs.get("aot.parallel_lanes", 1)
    tiles = call_attrs.get("aot.parallel_tiles")
    extent = iteration_count(b, args[extent_param:], call_attrs)
    stride = b.mul(_sreg(g, b, "nctaid.x"), _sreg(g, b, "ntid.x"))
    if lanes > 1:  # the lanes of a warp take the same iteration
        gid = b.udiv(gid, ir.Constant(I64, lanes))
        stride = b.udiv(stride, ir.Constant(I64, lanes))
    head, loop, done = (entry.append_basic_block(n) for n in ("head", "loop", "done"))
    start = b.block
    b.branch(head)
    b.position_at_end(head)
    i = b.phi(I64, name="i")
    i.add_incoming(gid, start)
    b.cbranch(b.icmp_unsigned("<", i, extent), loop, done)
    b.position_at_end(loop)
    b.call(body, args + [i, b.add(i, ir.Constant(I64, 1))])
    i.add_incoming(b.add(i, stride), loop)
    b.branch(head)
    b.position_at_end(done)
    b.ret_void()
    return DeviceKernel(entry.name, kinds, extent_param, rows, lanes, tiles)


def iteration_count(b: ir.IRBuilder, dims: list, call_attrs: dict):
    """The parallel loop's iterations from the parallel output's dims (i64 values): dim 0 in
    blocks of rows, or with `aot.parallel_tiles` the product of its tiles per dim. The host's
    grid and the device's grid-stride loop both follow it."""
    tiles = call_attrs.get("aot.parallel_tiles")
    if tiles is None:
        return ceil_div(b, dims[0], call_attrs.get("aot.parallel_block", 1))
    extent = ir.Constant(I64, 1)
    for d, size in zip(dims, tiles):
        extent = b.mul(extent, ceil_div(b, d, size))
    return extent


def ceil_div(b: ir.IRBuilder, n, size: int):
    """ceil(n / size) of an i64, the iterations covering n in steps of size."""
    if size == 1:
        return n
    return b.udiv(b.add(n, ir.Constant(I64, size - 1)), ir.Constant(I64, size))


def generate_device(module: Module, name: str, target) -> tuple[str, list]:
    """NVPTX LLVM IR text of every kernel of a loop-stage module, and their DeviceKernels."""
    inline_device_math(module, target)
    check_device_ops(module, target)
    g = LLVMGen(module, name, target, emitters=DEVICE_EMITTERS)
    g.mod.triple = target.triple
    calls = _parallel_calls(module)
    kernels = [f for f in module.functions() if "aot.kernel" in f.attrs]
    bodies = [g.declare_kernel(f) for f in kernels]
    for f in kernels:
        g.emit_kernel(f)
    for f in kernels:  # lane and block code is right only where lanes share each iteration
        lanes = (calls.get(f.attrs["sym_name"]) or {}).get("aot.parallel_lanes", 1)
        used = {op.name for op in f.walk()}
        if used & set(BLOCK_OPS) and lanes != THREADS_PER_BLOCK or "gpu.lane_id" in used and lanes % WARP:
            raise CompileError(f"internal: the kernel of '{f.attrs['aot.kernel']}' shares iterations "
                               f"between threads but is launched with {lanes} per iteration", f.loc)
    out = [emit_entry(g, f, body, calls.get(f.attrs["sym_name"])) for f, body in zip(kernels, bodies)]
    return str(g.mod), out
