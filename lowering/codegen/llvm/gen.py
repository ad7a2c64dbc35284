"""LLVM stage: loop-form IR to LLVM IR (llvmlite), then optimised machine code.

Each loop-stage op maps to an LLVM instruction or intrinsic through one table
(`EMITTERS`). A buffer is a data pointer plus one i64 per dim (dense,
row-major). Host functions become the artifact's entry points with the ABI of
runtime_c/aot_runtime.h: `int NAME_F(const aot_tensor *args, aot_tensor *results)`,
checking every argument through the runtime before touching it.
"""
from __future__ import annotations

import numpy as np
from llvmlite import binding as llvm
from llvmlite import ir
from llvmlite.ir import types as _ir_types

# LLVM 17+ reads only opaque pointers (`ptr`); llvmlite's IR layer still prints
# globals as typed pointers (`i8*`) unless this switch is off.
_ir_types.ir_layer_typed_pointers_enabled = False

from abi.dtypes import dtype as abi_dtype
from lowering.codegen.cpu.gemm import EPILOGUE_T, SLOTS as GEMM_SLOTS, gemm_function
from lowering.ir.core import CompileError, DenseAttr, MemRefType, Module, Operation, ScalarType, numpy_dtype

I1, I8, I16, I32, I64 = (ir.IntType(n) for n in (1, 8, 16, 32, 64))
PTR = ir.PointerType()
VOID = ir.VoidType()
F32 = ir.FloatType()

TENSOR_T = ir.LiteralStructType([PTR, PTR, I32, I32])  # aot_tensor
VALUE_INFO_T = ir.LiteralStructType([PTR, I32, I32, PTR])  # aot_value_info
ENTRY_INFO_T = ir.LiteralStructType([PTR, PTR, PTR, I32, I32, PTR, PTR, PTR])  # aot_entry_info
LIBRARY_INFO_T = ir.LiteralStructType([I32, I32, PTR, PTR])  # aot_library_info
ABI_VERSION = 1


def llvm_type(elem: str) -> ir.Type:
    """Register type of an element; bf16 lives in an i16 (llvmlite has no bfloat)."""
    if elem == "f16":
        return ir.HalfType()
    if elem == "f32":
        return F32
    if elem == "f64":
        return ir.DoubleType()
    if elem == "bf16":
        return I16
    if elem == "index":
        return I64
    return ir.IntType(int(elem.lstrip("uis")))


def storage_type(elem: str) -> ir.Type:
    """In memory, i1 takes a byte (numpy bool)."""
    return I8 if elem == "i1" else llvm_type(elem)


def _mangle(t: ir.Type) -> str:
    if isinstance(t, ir.HalfType):
        return "f16"
    if isinstance(t, ir.FloatType):
        return "f32"
    if isinstance(t, ir.DoubleType):
        return "f64"
    return f"i{t.width}"


class MemRef:
    """A buffer in LLVM: its data pointer and its dims as i64 values."""

    def __init__(self, ptr, dims, elem):
        self.ptr, self.dims, self.elem = ptr, dims, elem
        self.on_stack = False


def _elem_of(v) -> str:
    t = v.type
    return t.name if isinstance(t, ScalarType) else t.elem


# ----------------------------------------------------------------------------- op emitters


def _binop(method):
    def emit(g, b, op, args):
        if "fastmath" in op.attrs:  # e.g. reassoc, on a reduction's accumulation
            return getattr(b, method)(args[0], args[1], flags=(op.attrs["fastmath"],))
        return getattr(b, method)(args[0], args[1])
    return emit


def _intrinsic_call(base, nargs=None, extra=()):
    def emit(g, b, op, args):
        t = args[0].type
        fn = g.intrinsic(f"llvm.{base}.{_mangle(t)}", t, [t] * len(args) + [e.type for e in extra])
        return b.call(fn, list(args) + list(extra))
    return emit


LIBM = {"tanh": "tanh", "expm1": "expm1", "log1p": "log1p", "cbrt": "cbrt", "tan": "tan",
        "atan2": "atan2"}


def _libm(name):
    def emit(g, b, op, args):
        t = args[0].type
        symbol = name + ("f" if isinstance(t, ir.FloatType) else "")
        fn = g.declare(symbol, t, [t] * len(args))
        return b.call(fn, args)
    return emit


def _cmpf(g, b, op, args):
    pred = op.attrs["predicate"]
    table = {"oeq": "==", "one": "!=", "olt": "<", "ole": "<=", "ogt": ">", "oge": ">=",
             "ueq": "==", "une": "!=", "ult": "<", "ule": "<=", "ugt": ">", "uge": ">="}
    if pred.startswith("o"):
        return b.fcmp_ordered(table[pred], args[0], args[1])
    return b.fcmp_unordered(table[pred], args[0], args[1])


def _cmpi(g, b, op, args):
    pred = op.attrs["predicate"]
    table = {"eq": "==", "ne": "!=", "slt": "<", "sle": "<=", "sgt": ">", "sge": ">=",
             "ult": "<", "ule": "<=", "ugt": ">", "uge": ">="}
    if pred.startswith("u"):
        return b.icmp_unsigned(table[pred], args[0], args[1])
    return b.icmp_signed(table[pred], args[0], args[1])


def _minmax_int(pred, signed):
    def emit(g, b, op, args):
        cmp = (b.icmp_signed if signed else b.icmp_unsigned)(pred, args[0], args[1])
        return b.select(cmp, args[0], args[1])
    return emit


def _constant(g, b, op, args):
    elem = op.results[0].type.name
    value = op.attrs["value"]
    return g.const(value, elem)


def _extf(g, b, op, args):
    src, dst = _elem_of(op.operands[0]), op.results[0].type.name
    x = args[0]
    if src == "bf16":
        x = g.bf16_to_f32(b, x)
        src = "f32"
    return x if src == dst else b.fpext(x, llvm_type(dst))


def _truncf(g, b, op, args):
    src, dst = _elem_of(op.operands[0]), op.results[0].type.name
    x = args[0]
    if dst == "bf16":
        if src != "f32":
            x = b.fptrunc(x, F32) if src == "f64" else b.fpext(x, F32)
        return g.f32_to_bf16(b, x)
    return b.fptrunc(x, llvm_type(dst))


def _to_float(method):
    def emit(g, b, op, args):
        dst = op.results[0].type.name
        if dst == "bf16":
            return g.f32_to_bf16(b, getattr(b, method)(args[0], F32))
        return getattr(b, method)(args[0], llvm_type(dst))
    return emit


def _fp_to_int(signed):
    def emit(g, b, op, args):
        src, dst = _elem_of(op.operands[0]), op.results[0].type.name
        x = args[0]
        if src == "bf16":
            x = g.bf16_to_f32(b, x)
        rt = llvm_type(dst)
        kind = "fptosi" if signed else "fptoui"
        fn = g.intrinsic(f"llvm.{kind}.sat.{_mangle(rt)}.{_mangle(x.type)}", rt, [x.type])
        return b.call(fn, [x])
    return emit


def _int_cast(method):
    def emit(g, b, op, args):
        return getattr(b, method)(args[0], llvm_type(op.results[0].type.name))
    return emit


def _bitcast(g, b, op, args):
    t = llvm_type(op.results[0].type.name)
    return args[0] if args[0].type == t else b.bitcast(args[0], t)


def _index_cast(g, b, op, args):
    t = llvm_type(op.results[0].type.name)
    x = args[0]
    if x.type.width == t.width:
        return x
    return b.sext(x, t) if t.width > x.type.width else b.trunc(x, t)


def _ctlz(g, b, op, args):
    t = args[0].type
    fn = g.intrinsic(f"llvm.ctlz.{_mangle(t)}", t, [t, I1])
    return b.call(fn, [args[0], ir.Constant(I1, 0)])


def _absi(g, b, op, args):
    t = args[0].type
    fn = g.intrinsic(f"llvm.abs.{_mangle(t)}", t, [t, I1])
    return b.call(fn, [args[0], ir.Constant(I1, 0)])


def _load(g, b, op, args):
    mem, idx = args[0], args[1:]
    p = g.element_ptr(b, mem, idx)
    v = b.load(p, typ=storage_type(mem.elem))
    return b.trunc(v, I1) if mem.elem == "i1" else v


def _store(g, b, op, args):
    value, mem, idx = args[0], args[1], args[2:]
    p = g.element_ptr(b, mem, idx)
    b.store(b.zext(value, I8) if mem.elem == "i1" else value, p)


def _dim(g, b, op, args):
    mem, d = args
    return mem.dims[d.constant]


def _dims_run(b, mem, lo: int, hi: int):
    """(size, element stride) of the consecutive dims [lo, hi) of a row-major buffer taken as
    one index; an empty run is a single index with stride 0."""
    if lo == hi:
        return ir.Constant(I64, 1), ir.Constant(I64, 0)
    size, stride = ir.Constant(I64, 1), ir.Constant(I64, 1)
    for d in mem.dims[lo:hi]:
        size = b.mul(size, d)
    for d in mem.dims[hi:]:
        stride = b.mul(stride, d)
    return size, stride


def _gemm(g, b, op, args):
    """out = lhs @ rhs by the packed matmul of lowering/gemm.py, its operands given by sizes
    and strides (see loops.gemm_groups)."""
    lhs, rhs, out = args[:3]
    lr, rr = op.attrs["lhs_runs"], op.attrs["rhs_runs"]
    batch, a_batch = _dims_run(b, lhs, lr[0], lr[1])
    m, a_row = _dims_run(b, lhs, lr[2], lr[3])
    k, a_col = _dims_run(b, lhs, lr[4], lr[5])
    rhs_batch, b_batch = _dims_run(b, rhs, rr[0], rr[1])
    if lr[0] == lr[1]:  # a matrix shared by every batch index (a convolution's kernel)
        batch = rhs_batch
    _, b_row = _dims_run(b, rhs, rr[2], rr[3])
    n, b_col = _dims_run(b, rhs, rr[4], rr[5])
    with b.goto_entry_block():
        b.position_at_start(b.function.entry_basic_block)
        ctx = b.alloca(ir.ArrayType(I64, len(GEMM_SLOTS)))
    values = {"batch": batch, "m": m, "n": n, "k": k, "a": lhs.ptr, "a_batch": a_batch,
              "a_row": a_row, "a_col": a_col, "b": rhs.ptr, "b_batch": b_batch, "b_row": b_row,
              "b_col": b_col, "c": out.ptr}
    if op.regions:  # fused consumers, run on each finished tile
        values["epi"], values["epi_ctx"] = g.emit_epilogue(b, op, args[3:])
    for i, name in enumerate(GEMM_SLOTS):
        v = values.get(name, ir.Constant(I64, 0))
        slot = b.gep(ctx, [ir.Constant(I64, 0), ir.Constant(I32, i)], inbounds=True)
        b.store(b.ptrtoint(v, I64) if isinstance(v.type, ir.PointerType) else v, slot)
    run = gemm_function(g.mod, out.elem, llvm_type(out.elem),
                        g.declare("aot_parallel_for", VOID, [I64, PTR, PTR]))
    b.call(run, [ctx])


EMITTERS = {
    "aot.gemm": _gemm,
    "arith.constant": _constant,
    "arith.addf": _binop("fadd"), "arith.subf": _binop("fsub"), "arith.mulf": _binop("fmul"),
    "arith.divf": _binop("fdiv"), "arith.remf": _binop("frem"),
    "arith.addi": _binop("add"), "arith.subi": _binop("sub"), "arith.muli": _binop("mul"),
    "arith.divsi": _binop("sdiv"), "arith.divui": _binop("udiv"), "arith.remsi": _binop("srem"),
    "arith.remui": _binop("urem"), "arith.andi": _binop("and_"), "arith.ori": _binop("or_"),
    "arith.xori": _binop("xor"), "arith.shli": _binop("shl"), "arith.shrsi": _binop("ashr"),
    "arith.shrui": _binop("lshr"),
    "arith.maximumf": _intrinsic_call("maximum"), "arith.minimumf": _intrinsic_call("minimum"),
    "arith.maxsi": _minmax_int(">", True), "arith.minsi": _minmax_int("<", True),
    "arith.maxui": _minmax_int(">", False), "arith.minui": _minmax_int("<", False),
    "arith.negf": lambda g, b, op, a: b.fneg(a[0]),
    "arith.cmpf": _cmpf, "arith.cmpi": _cmpi,
    "arith.select": lambda g, b, op, a: b.select(a[0], a[1], a[2]),
    "arith.extf": _extf, "arith.truncf": _truncf,
    "arith.extsi": _int_cast("sext"), "arith.extui": _int_cast("zext"),
    "arith.trunci": _int_cast("trunc"),
    "arith.sitofp": _to_float("sitofp"), "arith.uitofp": _to_float("uitofp"),
    "arith.fptosi": _fp_to_int(True), "arith.fptoui": _fp_to_int(False),
    "arith.bitcast": _bitcast, "arith.index_cast": _index_cast,
    "math.exp": _intrinsic_call("exp"), "math.log": _intrinsic_call("log"),
    "math.sin": _intrinsic_call("sin"), "math.cos": _intrinsic_call("cos"),
    "math.sqrt": _intrinsic_call("sqrt"), "math.floor": _intrinsic_call("floor"),
    "math.ceil": _intrinsic_call("ceil"), "math.round": _intrinsic_call("round"),
    "math.roundeven": _intrinsic_call("roundeven"), "math.absf": _intrinsic_call("fabs"),
    "math.powf": _intrinsic_call("pow"), "math.copysign": _intrinsic_call("copysign"),
    "math.ctpop": _intrinsic_call("ctpop"), "math.ctlz": _ctlz, "math.absi": _absi,
    **{f"math.{k}": _libm(v) for k, v in LIBM.items()},
    "memref.load": _load, "memref.store": _store, "memref.dim": _dim,
}


# ----------------------------------------------------------------------------- generator


class LLVMGen:
    def __init__(self, module: Module, name: str):
        self.module = module
        self.name = name
        self.mod = ir.Module(name=name)
        self.globals = {}
        self.functions = {}
        self.tasks = {}  # parallel kernel -> its aot_parallel_for task
        self.parallel_range = None  # (begin, end) while emitting a parallel kernel
        self.strings = {}

    # helpers ---------------------------------------------------------------------------
    def declare(self, name, ret, args):
        if name in self.mod.globals:
            return self.mod.globals[name]
        return ir.Function(self.mod, ir.FunctionType(ret, args), name=name)

    def declare_vararg(self, name, ret, args):
        if name in self.mod.globals:
            return self.mod.globals[name]
        return ir.Function(self.mod, ir.FunctionType(ret, args, var_arg=True), name=name)

    def intrinsic(self, name, ret, args):
        return self.declare(name, ret, args)

    def const(self, value, elem):
        t = llvm_type(elem)
        if elem == "bf16":
            import ml_dtypes
            bits = np.array(value, dtype=ml_dtypes.bfloat16).view(np.uint16)
            return ir.Constant(I16, int(bits))
        if elem in ("f16", "f32", "f64"):
            return ir.Constant(t, float(np.array(value, dtype=numpy_dtype(elem))))
        if elem == "i1":
            return ir.Constant(I1, int(bool(value)))
        return ir.Constant(t, int(value) & ((1 << t.width) - 1))

    def bf16_to_f32(self, b, x):
        return b.bitcast(b.shl(b.zext(x, I32), ir.Constant(I32, 16)), F32)

    def f32_to_bf16(self, b, x):
        """Round to nearest even; NaN stays a quiet NaN."""
        bits = b.bitcast(x, I32)
        lsb = b.and_(b.lshr(bits, ir.Constant(I32, 16)), ir.Constant(I32, 1))
        rounded = b.add(b.add(bits, ir.Constant(I32, 0x7FFF)), lsb)
        is_nan = b.fcmp_unordered("uno", x, x)
        nan = ir.Constant(I32, 0x7FC00000)
        return b.trunc(b.lshr(b.select(is_nan, nan, rounded), ir.Constant(I32, 16)), I16)

    def string(self, text: str):
        if text not in self.strings:
            data = bytearray(text.encode() + b"\0")
            t = ir.ArrayType(I8, len(data))
            g = ir.GlobalVariable(self.mod, t, name=f".str.{len(self.strings)}")
            g.global_constant = True
            g.linkage = "private"
            g.initializer = ir.Constant(t, data)
            self.strings[text] = g
        return self.strings[text]

    def const_array(self, values, name, elem_t=I64):
        t = ir.ArrayType(elem_t, len(values))
        g = ir.GlobalVariable(self.mod, t, name=name)
        g.global_constant = True
        g.linkage = "private"
        g.initializer = ir.Constant(t, [ir.Constant(elem_t, v) for v in values])
        return g

    def element_ptr(self, b, mem: MemRef, idx):
        linear = None
        for d, i in enumerate(idx):
            linear = i if linear is None else b.add(b.mul(linear, mem.dims[d], flags=["nsw", "nuw"]), i,
                                                    flags=["nsw", "nuw"])
        if linear is None:
            return mem.ptr
        return b.gep(mem.ptr, [linear], inbounds=True, source_etype=storage_type(mem.elem))

    # module ----------------------------------------------------------------------------
    def run(self):
        for op in self.module.ops:
            if op.name == "memref.global":
                self.emit_global(op)
        kernels = [f for f in self.module.functions() if "aot.kernel" in f.attrs]
        hosts = [f for f in self.module.functions() if "aot.kernel" not in f.attrs
                 and "aot.shape_query" not in f.attrs]
        queries = {f.attrs["aot.shape_query"]: f for f in self.module.functions()
                   if "aot.shape_query" in f.attrs}
        for f in kernels:
            self.declare_kernel(f)
        for f in kernels:
            self.emit_kernel(f)
        entries = [self.emit_entry(f) for f in hosts]
        self.query_fns = {name: self.emit_query(f, entries) for name, f in queries.items()}
        self.emit_metadata(entries)
        return self.mod

    def emit_global(self, op: Operation):
        value: DenseAttr = op.attrs["initial_value"]
        arr = np.ascontiguousarray(value.array).astype(numpy_dtype(value.type.elem))
        if value.type.elem == "i1":
            arr = arr.astype(np.uint8)
        raw = bytearray(arr.tobytes())
        t = ir.ArrayType(I8, len(raw))
        g = ir.GlobalVariable(self.mod, t, name=f"{self.name}.{op.attrs['sym_name']}")
        g.global_constant = True
        g.linkage = "private"
        g.align = 64
        g.initializer = ir.Constant(t, raw)
        self.globals[op.attrs["sym_name"]] = g

    def declare_kernel(self, func: Operation):
        params = []
        for t in func.attrs["function_type"].inputs:
            params += [PTR] + [I64] * t.rank if isinstance(t, MemRefType) else [llvm_type(t.name)]
        if func.attrs.get("aot.parallel"):
            params += [I64, I64]  # the [begin, end) of its outermost loop
        fn = ir.Function(self.mod, ir.FunctionType(VOID, params),
                         name=f"{self.name}.{func.attrs['sym_name']}")
        fn.linkage = "internal"
        fn.attributes.add("nounwind")
        self.functions[func.attrs["sym_name"]] = fn
        if func.attrs.get("aot.parallel"):
            self.tasks[func.attrs["sym_name"]] = self.emit_task(fn)

    def emit_task(self, kernel):
        """`void task(void *ctx, i64 begin, i64 end)` for aot_parallel_for: the kernel's
        arguments come from an array of 64-bit slots at ctx."""
        task = ir.Function(self.mod, ir.FunctionType(VOID, [PTR, I64, I64]), name=kernel.name + ".task")
        task.linkage = "internal"
        ctx, begin, end = task.args
        b = ir.IRBuilder(task.append_basic_block("entry"))
        args = []
        for i, param in enumerate(kernel.args[:-2]):
            slot = b.load(b.gep(ctx, [ir.Constant(I64, i)], inbounds=True, source_etype=I64), typ=I64)
            args.append(b.inttoptr(slot, PTR) if isinstance(param.type, ir.PointerType) else slot)
        b.call(kernel, args + [begin, end])
        b.ret_void()
        return task

    def emit_kernel(self, func: Operation):
        fn = self.functions[func.attrs["sym_name"]]
        block = func.regions[0].blocks[0]
        values = {}
        i = 0
        for arg in block.args:
            if not isinstance(arg.type, MemRefType):  # a run-time dim
                values[arg] = fn.args[i]
                i += 1
                continue
            ptr = fn.args[i]
            if not func.attrs.get("aot.aliased"):  # distinct buffers, unless written in place
                ptr.add_attribute("noalias")
            dims = list(fn.args[i + 1:i + 1 + arg.type.rank])
            values[arg] = MemRef(ptr, dims, arg.type.elem)
            i += 1 + arg.type.rank
        b = ir.IRBuilder(fn.append_basic_block("entry"))
        self.parallel_range = (fn.args[-2], fn.args[-1]) if func.attrs.get("aot.parallel") else None
        self.emit_ops(b, block.ops, values, None)
        b.ret_void()
        self.parallel_range = None

    def emit_epilogue(self, b, op, captured):
        """An `aot.gemm` region as `void epilogue(ctx, batch, i0, i1, j0, j1)`; the kernel
        values it uses (buffers, dims) travel as i64 slots at ctx."""
        slots = []
        for v in captured:
            parts = [v.ptr] + list(v.dims) if isinstance(v, MemRef) else [v]
            for x in parts:
                if x.type not in (PTR, I64) and not isinstance(x.type, ir.PointerType):
                    raise CompileError(f"a matmul epilogue cannot capture a {x.type}", op.loc)
                slots.append(x)
        with b.goto_entry_block():
            b.position_at_start(b.function.entry_basic_block)
            ctx = b.alloca(I64, size=ir.Constant(I64, max(1, len(slots))))
        for i, x in enumerate(slots):
            slot = b.gep(ctx, [ir.Constant(I64, i)], inbounds=True, source_etype=I64)
            b.store(b.ptrtoint(x, I64) if isinstance(x.type, ir.PointerType) else x, slot)
        fn = ir.Function(self.mod, EPILOGUE_T, name=f"{b.function.name}.epilogue{len(self.mod.globals)}")
        fn.linkage = "internal"
        fn.attributes.add("nounwind")
        eb = ir.IRBuilder(fn.append_basic_block("entry"))
        it = iter(range(len(slots)))

        def load():
            return eb.load(eb.gep(fn.args[0], [ir.Constant(I64, next(it))], inbounds=True,
                                  source_etype=I64), typ=I64)
        tile = op.regions[0].blocks[0]
        values = dict(zip(tile.args, fn.args[1:]))
        for v, x in zip(op.operands[3:], captured):
            if isinstance(x, MemRef):
                values[v] = MemRef(eb.inttoptr(load(), PTR), [load() for _ in x.dims], x.elem)
            else:
                values[v] = load()
        self.emit_ops(eb, tile.ops, values, None)
        eb.ret_void()
        return b.ptrtoint(fn, I64), b.ptrtoint(ctx, I64)

    # bodies ----------------------------------------------------------------------------
    def emit_ops(self, b, ops, values, host):
        for op in ops:
            name = op.name
            if name == "scf.for":
                self.emit_for(b, op, values, host)
                continue
            if name == "scf.while":
                self.emit_while(b, op, values, host)
                continue
            if name == "aot.switch":
                self.emit_switch(b, op, values, host)
                continue
            if name in ("scf.yield", "func.return", "scf.condition"):
                return [values[v] for v in op.operands]
            if host is not None and name in HOST_EMITTERS:
                results = HOST_EMITTERS[name](self, b, op, values, host)
            else:
                emit = EMITTERS.get(name)
                if emit is None:
                    raise CompileError(f"'{name}': no LLVM lowering", op.loc)
                results = emit(self, b, op, [values[v] for v in op.operands])
            if op.results:
                values[op.results[0]] = results
        return []

    def emit_for(self, b, op, values, host):
        lb, ub, step = (values[v] for v in op.operands[:3])
        if op.attrs.get("aot.parallel") and self.parallel_range is not None:
            lb, ub = self.parallel_range  # this thread's share of the outermost loop
        inits = [values[v] for v in op.operands[3:]]
        pre = b.block
        fn = b.function
        header = fn.append_basic_block("for.cond")
        body = fn.append_basic_block("for.body")
        exit_ = fn.append_basic_block("for.end")
        b.branch(header)
        b.position_at_end(header)
        iv = b.phi(I64, name="iv")
        iv.add_incoming(lb, pre)
        phis = []
        for v in inits:
            p = b.phi(v.type)
            p.add_incoming(v, pre)
            phis.append(p)
        b.cbranch(b.icmp_signed("<", iv, ub), body, exit_)
        b.position_at_end(body)
        block = op.regions[0].blocks[0]
        values[block.args[0]] = iv
        for a, p in zip(block.args[1:], phis):
            values[a] = p
        yielded = self.emit_ops(b, block.ops, values, host)
        nxt = b.add(iv, step, flags=["nsw", "nuw"])
        latch = b.block
        iv.add_incoming(nxt, latch)
        for p, y in zip(phis, yielded):
            p.add_incoming(y, latch)
        b.branch(header)
        b.position_at_end(exit_)
        for r, p in zip(op.results, phis):
            values[r] = p

    def phi_values(self, b, types, incoming):
        """Phis for values flowing into a join: a buffer is its pointer and its dynamic dims."""
        out = []
        for k, t in enumerate(types):
            if isinstance(t, MemRefType):
                ptr = b.phi(PTR)
                dims = []
                for d, n in enumerate(t.shape):
                    if n is not None:
                        dims.append(ir.Constant(I64, n))
                    else:
                        dims.append(b.phi(I64))
                for vals, block in incoming:
                    m = vals[k]
                    ptr.add_incoming(m.ptr, block)
                    for dv, src in zip(dims, m.dims):
                        if isinstance(dv, ir.PhiInstr):
                            dv.add_incoming(src, block)
                out.append(MemRef(ptr, dims, t.elem))
            else:
                p = b.phi(llvm_type(t.name))
                for vals, block in incoming:
                    p.add_incoming(vals[k], block)
                out.append(p)
        return out

    def add_incoming(self, phis, vals, block):
        for p, v in zip(phis, vals):
            if isinstance(p, MemRef):
                p.ptr.add_incoming(v.ptr, block)
                for dv, src in zip(p.dims, v.dims):
                    if isinstance(dv, ir.PhiInstr):
                        dv.add_incoming(src, block)
            else:
                p.add_incoming(v, block)

    def emit_while(self, b, op, values, host):
        """scf.while: the before region decides, the after region computes the next values."""
        types = [v.type for v in op.operands]
        fn = b.function
        header = fn.append_basic_block("while.cond")
        body = fn.append_basic_block("while.body")
        exit_ = fn.append_basic_block("while.end")
        inits = [values[v] for v in op.operands]
        pre = b.block
        b.branch(header)
        b.position_at_end(header)
        carried = self.phi_values(b, types, [(inits, pre)])
        before, after = (r.blocks[0] for r in op.regions)
        for a, v in zip(before.args, carried):
            values[a] = v
        cond = self.emit_ops(b, before.ops, values, host)
        pred, forwarded = cond[0], cond[1:]
        b.cbranch(pred, body, exit_)
        b.position_at_end(body)
        for a, v in zip(after.args, forwarded):
            values[a] = v
        nxt = self.emit_ops(b, after.ops, values, host)
        self.add_incoming(carried, nxt, b.block)
        b.branch(header)
        b.position_at_end(exit_)
        for r, v in zip(op.results, forwarded):
            values[r] = v

    def emit_switch(self, b, op, values, host):
        """aot.switch: one block per region, chosen by the index (the last one by default)."""
        fn = b.function
        index = values[op.operands[0]]
        blocks = [fn.append_basic_block(f"case.{i}") for i in range(len(op.regions))]
        exit_ = fn.append_basic_block("case.end")
        sw = b.switch(index, blocks[-1])
        for i, blk in enumerate(blocks[:-1]):
            sw.add_case(ir.Constant(I64, i), blk)
        incoming = []
        for region, blk in zip(op.regions, blocks):
            b.position_at_end(blk)
            out = self.emit_ops(b, region.blocks[0].ops, values, host)
            incoming.append((out, b.block))
            b.branch(exit_)
        b.position_at_end(exit_)
        for r, v in zip(op.results, self.phi_values(b, [r.type for r in op.results], incoming)):
            values[r] = v

    # entry points ------------------------------------------------------------------------
    def emit_entry(self, func: Operation):
        from abi.signature import EntrySig, ValueSig
        fname = func.attrs["sym_name"]
        symbol = f"{self.name}_{fname}"
        fn_type = func.attrs["function_type"]
        n_in = func.attrs["aot.num_inputs"]
        block = func.regions[0].blocks[0]
        in_types = fn_type.inputs[:n_in]
        out_params = fn_type.inputs[n_in:]
        ret_types = fn_type.results
        result_types = list(out_params) + list(ret_types)
        arg_names = [a.hint if a.hint and not a.hint.startswith("arg") else f"arg{i}"
                     for i, a in enumerate(block.args[:n_in])]
        sig = EntrySig(fname, symbol,
                       [ValueSig(n, t.elem, tuple(t.shape)) for n, t in zip(arg_names, in_types)],
                       [ValueSig(f"result{i}", t.elem, tuple(t.shape))
                        for i, t in enumerate(result_types)])
        infos_in = [self.value_info(v, f"{symbol}.arg{i}") for i, v in enumerate(sig.args)]
        infos_out = [self.value_info(v, f"{symbol}.res{i}") for i, v in enumerate(sig.results)]
        fn = ir.Function(self.mod, ir.FunctionType(I32, [PTR, PTR]), name=symbol)
        fn.attributes.add("nounwind")
        args_p, results_p = fn.args
        b = ir.IRBuilder(fn.append_basic_block("entry"))
        entry_name = self.string(fname)
        host = HostState(self, fn, results_p, entry_name)
        host.entry_builder = ir.IRBuilder(fn.entry_basic_block)
        check = self.declare("aot_check_arg", I32, [PTR, I32, PTR, PTR])
        # ownership flags live in the entry block so the failure exit may read them all
        for j in range(len(out_params)):
            owned = b.alloca(I32, name=f"owned{j}")
            b.store(ir.Constant(I32, 0), owned)
            host.owned.append((j, owned))
        values = {}
        for i, (arg, info) in enumerate(zip(block.args[:n_in], infos_in)):
            rc = b.call(check, [args_p, ir.Constant(I32, i), info, entry_name])
            host.fail_if_nonzero(b, rc)
            values[arg] = self.tensor_memref(b, args_p, i, arg.type)
        prepare = self.declare("aot_prepare_result", I32, [PTR, I32, PTR, PTR, PTR, PTR])
        for j, (arg, info) in enumerate(zip(block.args[n_in:], infos_out)):
            dims = self.const_array([d for d in arg.type.shape] or [0], f"{symbol}.outdims{j}")
            owned = host.owned[j][1]
            rc = b.call(prepare, [results_p, ir.Constant(I32, j), info, entry_name, dims, owned])
            host.fail_if_nonzero(b, rc)
            values[arg] = self.tensor_memref(b, results_p, j, arg.type)
        returned = self.emit_ops(b, block.ops, values, host)
        adopt = self.declare("aot_adopt_result", I32, [PTR, I32, PTR, PTR, PTR, PTR])
        for k, mem in enumerate(returned):
            j = len(out_params) + k
            dims = b.alloca(I64, size=max(len(mem.dims), 1))
            for d, dv in enumerate(mem.dims):
                b.store(dv, b.gep(dims, [ir.Constant(I64, d)], inbounds=True, source_etype=I64))
            if id(mem) in host.slots:  # the result (or adopt, on failure) owns it from here
                b.store(ir.Constant(PTR, None), host.slot(mem))
            rc = b.call(adopt, [results_p, ir.Constant(I32, j), infos_out[j], entry_name, mem.ptr, dims])
            host.fail_if_nonzero(b, rc)
        b.ret(ir.Constant(I32, 0))
        host.finish()
        return sig, fn, infos_in, infos_out

    def emit_query(self, func: Operation, entries):
        """`int NAME_F_output_shapes(const aot_tensor *args, int64_t *dims, int64_t *peak)`."""
        name = func.attrs["aot.shape_query"]
        sig, _, infos_in, _ = next(e for e in entries if e[0].name == name)
        fn = ir.Function(self.mod, ir.FunctionType(I32, [PTR, PTR, PTR]),
                         name=f"{sig.symbol}_output_shapes")
        fn.attributes.add("nounwind")
        args_p, dims_p, peak_p = fn.args
        b = ir.IRBuilder(fn.append_basic_block("entry"))
        entry_name = self.string(name)
        host = HostState(self, fn, None, entry_name)
        host.entry_builder = ir.IRBuilder(fn.entry_basic_block)
        check = self.declare("aot_check_arg", I32, [PTR, I32, PTR, PTR])
        block = func.regions[0].blocks[0]
        values = {}
        for i, (arg, info) in enumerate(zip(block.args, infos_in)):
            rc = b.call(check, [args_p, ir.Constant(I32, i), info, entry_name])
            host.fail_if_nonzero(b, rc)
            values[arg] = self.tensor_memref(b, args_p, i, arg.type)
        outs = self.emit_ops(b, block.ops, values, host)
        for i, v in enumerate(outs[:-1]):
            b.store(v, b.gep(dims_p, [ir.Constant(I64, i)], inbounds=True, source_etype=I64))
        b.store(outs[-1], peak_p)
        b.ret(ir.Constant(I32, 0))
        host.finish()
        return fn

    def tensor_memref(self, b, tensors, i, t: MemRefType) -> MemRef:
        slot = b.gep(tensors, [ir.Constant(I64, i)], inbounds=True, source_etype=TENSOR_T)
        data = b.load(b.gep(slot, [ir.Constant(I32, 0), ir.Constant(I32, 0)], inbounds=True,
                            source_etype=TENSOR_T), typ=PTR)
        dims_p = b.load(b.gep(slot, [ir.Constant(I32, 0), ir.Constant(I32, 1)], inbounds=True,
                              source_etype=TENSOR_T), typ=PTR)
        dims = []
        for d, n in enumerate(t.shape):
            if n is not None:
                dims.append(ir.Constant(I64, n))
            else:
                dims.append(b.load(b.gep(dims_p, [ir.Constant(I64, d)], inbounds=True,
                                         source_etype=I64), typ=I64))
        return MemRef(data, dims, t.elem)

    def value_info(self, v, name):
        dims = self.const_array([-1 if d is None else d for d in v.dims] or [0], name + ".dims")
        g = ir.GlobalVariable(self.mod, VALUE_INFO_T, name=name)
        g.global_constant = True
        g.linkage = "private"
        g.initializer = ir.Constant(VALUE_INFO_T, [self.string(v.name), ir.Constant(I32, abi_dtype(v.dtype).code),
                                                   ir.Constant(I32, len(v.dims)), dims])
        return g

    def emit_metadata(self, entries):
        def array(items, t, name):
            at = ir.ArrayType(t, max(len(items), 1))
            g = ir.GlobalVariable(self.mod, at, name=name)
            g.global_constant = True
            g.linkage = "private"
            g.initializer = ir.Constant(at, [i.initializer for i in items] if items else None)
            return g
        infos = []
        for sig, fn, ins, outs in entries:
            a = array(ins, VALUE_INFO_T, f"{sig.symbol}.args")
            r = array(outs, VALUE_INFO_T, f"{sig.symbol}.results")
            query = self.query_fns.get(sig.name)
            infos.append(ir.Constant(ENTRY_INFO_T, [self.string(sig.name), self.string(sig.symbol), fn,
                                                    ir.Constant(I32, len(ins)), ir.Constant(I32, len(outs)),
                                                    a, r, query if query is not None
                                                    else ir.Constant(PTR, None)]))
        at = ir.ArrayType(ENTRY_INFO_T, len(infos))
        table = ir.GlobalVariable(self.mod, at, name=f"{self.name}.entries")
        table.global_constant = True
        table.linkage = "private"
        table.initializer = ir.Constant(at, infos)
        lib = ir.GlobalVariable(self.mod, LIBRARY_INFO_T, name=f"{self.name}.library")
        lib.global_constant = True
        lib.linkage = "private"
        lib.initializer = ir.Constant(LIBRARY_INFO_T, [ir.Constant(I32, ABI_VERSION),
                                                       ir.Constant(I32, len(infos)),
                                                       self.string(self.name), table])
        for sym, linkage in ((f"{self.name}_aot_metadata", None), ("aot_library_metadata", "weak")):
            fn = ir.Function(self.mod, ir.FunctionType(PTR, []), name=sym)
            if linkage:
                fn.linkage = linkage
            ir.IRBuilder(fn.append_basic_block("entry")).ret(lib)
        self.entries = [e[0] for e in entries]


class HostState:
    """Per-entry bookkeeping: the shared failure exit that releases results made so far."""

    def __init__(self, gen: LLVMGen, fn, results_p, entry_name):
        self.gen, self.fn, self.results_p, self.entry_name = gen, fn, results_p, entry_name
        self.owned = []
        self.slots = {}  # temporary buffer -> its entry-block slot, freed on failure
        self.entry_builder = None
        self.fail_block = fn.append_basic_block("fail")
        self.fail_builder = ir.IRBuilder(self.fail_block)
        self.code = self.fail_builder.phi(I32, name="code")

    def fail_if_nonzero(self, b, rc):
        ok = self.fn.append_basic_block("ok")
        self.code.add_incoming(rc, b.block)
        b.cbranch(b.icmp_signed("!=", rc, ir.Constant(I32, 0)), self.fail_block, ok)
        b.position_at_end(ok)

    def slot(self, mem: "MemRef"):
        key = id(mem)
        if key not in self.slots:
            eb = self.entry_builder
            with eb.goto_entry_block():
                eb.position_at_start(self.fn.entry_basic_block)
                s = eb.alloca(PTR)
                eb.store(ir.Constant(PTR, None), s)
            self.slots[key] = (mem, s)
        return self.slots[key][1]

    def finish(self):
        fb = self.fail_builder
        free = self.gen.declare("aot_free", VOID, [PTR])
        for mem, s in self.slots.values():
            fb.call(free, [fb.load(s, typ=PTR)])
        unprepare = self.gen.declare("aot_unprepare_result", VOID, [PTR, I32, I32])
        for j, owned in self.owned:
            fb.call(unprepare, [self.results_p, ir.Constant(I32, j), fb.load(owned, typ=I32)])
        fb.ret(self.code)


def _host_alloc(g, b, op, values, host):
    t = op.results[0].type
    if op.attrs.get("aot.stack"):  # small, static, never escapes: an entry-block slot
        size = abi_dtype(t.elem).size
        for n in t.shape:
            size *= n
        eb = host.entry_builder
        with eb.goto_entry_block():
            eb.position_at_start(host.fn.entry_basic_block)
            slot = eb.alloca(ir.ArrayType(I8, max(size, 1)))
            slot.align = 64
            # an untyped pointer, as every buffer is (IRBuilder.bitcast would return the
            # slot itself: llvmlite deems all pointer types equal)
            ptr = ir.instructions.CastInstr(eb.block, "bitcast", slot, PTR)
            eb._insert(ptr)
        mem = MemRef(ptr, [ir.Constant(I64, n) for n in t.shape], t.elem)
        mem.on_stack = True
        return mem
    dims = [values[v] for v in op.operands]
    it = iter(dims)
    shape = [ir.Constant(I64, n) if n is not None else next(it) for n in t.shape]
    size = ir.Constant(I64, abi_dtype(t.elem).size)
    for d in shape:
        size = b.mul(size, d)
    ptr = b.call(g.declare("aot_alloc", PTR, [I64]), [size])
    is_null = b.icmp_unsigned("==", b.ptrtoint(ptr, I64), ir.Constant(I64, 0))
    rc = b.select(is_null, ir.Constant(I32, 2), ir.Constant(I32, 0))
    host.fail_if_nonzero(b, rc)
    mem = MemRef(ptr, shape, t.elem)
    b.store(ptr, host.slot(mem))
    return mem


def _host_dealloc(g, b, op, values, host):
    mem = values[op.operands[0]]
    if getattr(mem, "on_stack", False):
        return
    b.call(g.declare("aot_free", VOID, [PTR]), [mem.ptr])
    b.store(ir.Constant(PTR, None), host.slot(mem))


def _host_check(g, b, op, values, host):
    """`aot.check %ok, %args... {message}`: fail the call with the message unless %ok."""
    cond, *args = (values[v] for v in op.operands)
    fail = host.fn.append_basic_block("check.fail")
    ok = host.fn.append_basic_block("check.ok")
    b.cbranch(cond, ok, fail)
    b.position_at_end(fail)
    set_error = g.declare_vararg("aot_set_error", I32, [I32, PTR])
    rc = b.call(set_error, [ir.Constant(I32, 3), g.string(op.attrs["message"])] + list(args))
    host.code.add_incoming(rc, b.block)
    b.branch(host.fail_block)
    b.position_at_end(ok)


def _host_get_global(g, b, op, values, host):
    t = op.results[0].type
    return MemRef(g.globals[op.attrs["name"].name], [ir.Constant(I64, n) for n in t.shape], t.elem)


def _host_copy(g, b, op, values, host):
    """Copies the destination's size: a prefix when the source is an upper-bound buffer."""
    src, dst = (values[v] for v in op.operands)
    size = ir.Constant(I64, abi_dtype(src.elem).size)
    for d in dst.dims:
        size = b.mul(size, d)
    memcpy = g.intrinsic("llvm.memcpy.p0.p0.i64", VOID, [PTR, PTR, I64, I1])
    b.call(memcpy, [dst.ptr, src.ptr, size, ir.Constant(I1, 0)])


PARALLEL_MIN_ELEMENTS = 1 << 15  # largest buffer of a kernel below which threads cost more than they save


def _host_call(g, b, op, values, host):
    name = op.attrs["callee"].name
    fn = g.functions[name]
    args = []
    for v in op.operands:
        m = values[v]
        args += [m.ptr] + list(m.dims) if isinstance(m, MemRef) else [m]
    if name not in g.tasks:
        b.call(fn, args)
        return
    out = values[op.operands[op.attrs["aot.parallel"]]]
    block = op.attrs.get("aot.parallel_block", 1)
    extent = out.dims[0]
    if block > 1:  # the loop counts blocks of dim 0
        extent = b.udiv(b.add(extent, ir.Constant(I64, block - 1)), ir.Constant(I64, block))
    # the work is the largest buffer the kernel touches (a reduction's input, not its output)
    total = ir.Constant(I64, 0)
    for v in op.operands:
        m = values[v]
        if isinstance(m, MemRef):
            size = ir.Constant(I64, 1)
            for d in m.dims:
                size = b.mul(size, d)
            total = b.select(b.icmp_signed(">", size, total), size, total)
    big = b.icmp_signed(">=", total, ir.Constant(I64, PARALLEL_MIN_ELEMENTS))
    with b.if_else(big) as (threaded, serial):
        with threaded:
            eb = host.entry_builder
            with eb.goto_entry_block():
                eb.position_at_start(host.fn.entry_basic_block)
                ctx = eb.alloca(I64, size=len(args))
            for i, a in enumerate(args):
                slot = b.gep(ctx, [ir.Constant(I64, i)], inbounds=True, source_etype=I64)
                b.store(b.ptrtoint(a, I64) if isinstance(a.type, ir.PointerType) else a, slot)
            run = g.declare("aot_parallel_for", VOID, [I64, PTR, PTR])
            b.call(run, [extent, g.tasks[name], ctx])
        with serial:
            b.call(fn, args + [ir.Constant(I64, 0), extent])


HOST_EMITTERS = {
    "memref.alloc": _host_alloc, "memref.dealloc": _host_dealloc,
    "memref.get_global": _host_get_global, "memref.copy": _host_copy, "func.call": _host_call,
    "aot.check": _host_check,
}


# ----------------------------------------------------------------------------- machine code


def _init_llvm():
    """Register every target LLVM was built with (x86, AArch64, NVPTX...) once."""
    if not getattr(_init_llvm, "done", False):
        llvm.initialize_all_targets()
        llvm.initialize_all_asmprinters()
        _init_llvm.done = True


def target_machine(triple: str | None = None, cpu: str | None = None, features: str | None = None):
    _init_llvm()
    host = triple is None
    triple = triple or llvm.get_process_triple()
    target = llvm.Target.from_triple(triple)
    if cpu is None:
        cpu = llvm.get_host_cpu_name() if host else ""
    if features is None:
        features = llvm.get_host_cpu_features().flatten() if host else ""
    return target.create_target_machine(cpu=cpu, features=features, opt=3, reloc="pic",
                                        codemodel="default")


def optimize(ir_text: str, tm) -> llvm.ModuleRef:
    mod = llvm.parse_assembly(ir_text)
    mod.verify()
    pto = llvm.create_pipeline_tuning_options(speed_level=3)
    pto.loop_vectorization = True
    pto.slp_vectorization = True
    pb = llvm.create_pass_builder(tm, pto)
    pm = pb.getModulePassManager()
    pm.run(mod, pb)
    return mod


def generate(module: Module, name: str, tm) -> tuple[str, list]:
    """LLVM IR text of a loop-stage module, and the entry signatures."""
    gen = LLVMGen(module, name)
    mod = gen.run()
    mod.triple = tm.triple
    mod.data_layout = str(tm.target_data)
    return str(mod), gen.entries

# libm functions of the chlo elementwise ops: lowering/chlo.py
from lowering.ops.chlo import LIBM_FUNCTIONS as _chlo_libm  # noqa: E402
LIBM.update(_chlo_libm)
EMITTERS.update({f"math.{_k}": _libm(_v) for _k, _v in _chlo_libm.items()})
