"""Loop-stage ops to LLVM: one emitter per scalar or memory op, all in one table.

The table (`EMITTERS`) is where the generator looks ops up and what the loop-stage
verifier checks against, so an op's lowering is one entry here. An emitter takes
(generator, builder, op, its operands as LLVM values) and returns the result's value.
`aot.gemm` calls the packed matmul of lowering/codegen/cpu/gemm.py, its fused consumers
as a callback.
"""
from __future__ import annotations

import math

from llvmlite import ir

from lowering.codegen.cpu import attention, conv_direct
from lowering.codegen.cpu.gemm import EPILOGUE_T
from lowering.codegen.cpu.gemm import SLOTS as GEMM_SLOTS
from lowering.codegen.cpu.transpose import emit_transpose
from lowering.codegen.llvm.types import (
    F32,
    I1,
    I8,
    I32,
    I64,
    PTR,
    SUB_BYTE,
    MemRef,
    llvm_type,
    mangle,
    storage_type,
)
from lowering.codegen.mathlib import MATH
from lowering.ir.core import CompileError, ScalarType, numpy_dtype


def _elem_of(v) -> str:
    t = v.type
    return t.name if isinstance(t, ScalarType) else t.elem


def _binop(method):
    def emit(g, b, op, args):
        if "fastmath" in op.attrs:  # e.g. reassoc, on a reduction's accumulation
            return getattr(b, method)(args[0], args[1], flags=(op.attrs["fastmath"],))
        return getattr(b, method)(args[0], args[1])
    return emit


def _divf(g, b, op, args):
    """A float division; by a loop-invariant divisor with `arcp` (gen.invariant_divisions)."""
    flags = tuple(op.attrs["fastmath"].split(",")) if "fastmath" in op.attrs else ()
    if op in g.reciprocal_divisions:
        flags += ("arcp",)
    return b.fdiv(args[0], args[1], flags=flags)


def _intrinsic_call(base, nargs=None, extra=()):
    def emit(g, b, op, args):
        t = args[0].type
        fn = g.intrinsic(f"llvm.{base}.{mangle(t)}", t, [t] * len(args) + [e.type for e in extra])
        return b.call(fn, list(args) + list(extra))
    return emit


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
             "ueq": "==", "une": "!=", "ult": "<", "ule": "<=", "ugt": ">", "uge": ">=",
             "ord": "ord", "uno": "uno"}
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
        fn = g.intrinsic(f"llvm.{kind}.sat.{mangle(rt)}.{mangle(x.type)}", rt, [x.type])
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
    fn = g.intrinsic(f"llvm.ctlz.{mangle(t)}", t, [t, I1])
    return b.call(fn, [args[0], ir.Constant(I1, 0)])


def _absi(g, b, op, args):
    t = args[0].type
    fn = g.intrinsic(f"llvm.abs.{mangle(t)}", t, [t, I1])
    return b.call(fn, [args[0], ir.Constant(I1, 0)])


def _load(g, b, op, args):
    mem, idx = args[0], args[1:]
    p = g.element_ptr(b, mem, idx)
    v = b.load(p, typ=storage_type(mem.elem))
    return b.trunc(v, llvm_type(mem.elem)) if mem.elem in SUB_BYTE else v


def _store(g, b, op, args):
    value, mem, idx = args[0], args[1], args[2:]
    p = g.element_ptr(b, mem, idx)
    if mem.elem in SUB_BYTE:
        value = b.sext(value, I8) if mem.elem in ("i2", "i4") else b.zext(value, I8)
    b.store(value, p)


def _select(g, b, op, args):
    """A value, or a buffer (a concatenation's operand: data_movement._one_buffer_read),
    whose pointer and dims are selected alike."""
    flag, x, y = args
    if isinstance(x, MemRef):
        return MemRef(b.select(flag, x.ptr, y.ptr),
                      [b.select(flag, p, q) for p, q in zip(x.dims, y.dims)], x.elem)
    return b.select(flag, x, y)


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


def _epilogue(g, b, op, captured):
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
    fn = ir.Function(g.mod, EPILOGUE_T, name=f"{b.function.name}.epilogue{len(g.mod.globals)}")
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
    g.emit_ops(eb, tile.ops, values, None)
    eb.ret_void()
    return b.ptrtoint(fn, I64), b.ptrtoint(ctx, I64)


def _slots(b, names, values: dict):
    """An i64 array on the stack (allocated in the entry block) holding values[name] for
    each of `names` in order (pointers as integers, 0 where absent)."""
    with b.goto_entry_block():
        b.position_at_start(b.function.entry_basic_block)
        ctx = b.alloca(ir.ArrayType(I64, len(names)))
    for i, name in enumerate(names):
        v = values.get(name, ir.Constant(I64, 0))
        slot = b.gep(ctx, [ir.Constant(I64, 0), ir.Constant(I32, i)], inbounds=True)
        b.store(b.ptrtoint(v, I64) if isinstance(v.type, ir.PointerType) else v, slot)
    return ctx


def _gemm(g, b, op, args):
    """out = lhs @ rhs by the packed matmul of lowering/codegen/cpu/gemm.py, its operands given by sizes
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
    values = {"batch": batch, "m": m, "n": n, "k": k, "a": lhs.ptr, "a_batch": a_batch,
              "a_row": a_row, "a_col": a_col, "b": rhs.ptr, "b_batch": b_batch, "b_row": b_row,
              "b_col": b_col, "c": out.ptr}
    if op.attrs.get("aot.packed_b"):  # B is a constant stored as its panels
        values["b_packed"] = ir.Constant(I64, 1)
    if op.regions:  # fused consumers, run on each finished tile
        values["epi"], values["epi_ctx"] = _epilogue(g, b, op, args[3:])
    ctx = _slots(b, GEMM_SLOTS, values)
    b.call(g.cpu_helper("gemm", out.elem), [ctx])


def _conv(g, b, op, args):
    """out = conv(input, kernel) by conv_direct.py: (batch, h, w, c) input, (kh, kw, c, f)
    kernel, (batch, oh, ow, f) result (1-D: h, kh, oh 1); the window's stride, dilation and
    low padding from the op's attributes; its region, if any, the epilogue of each output row."""
    inp, ker, out = args[:3]
    values = {"input": inp.ptr, "kernel": ker.ptr, "out": out.ptr}
    if op.regions:  # fused consumers, run on each finished output row
        values["epi"], values["epi_ctx"] = _epilogue(g, b, op, args[3:])
    if op.attrs.get("channels_first"):  # (input, kernel, out) scratch for args 3 and 4
        values["nchw_in"], values["nchw_out"] = args[3].ptr, args[4].ptr
    one = [ir.Constant(I64, 1)] * (4 - len(inp.dims))  # a 1-D convolution: height 1
    for name, v in zip(("batch", "h", "w", "c"), [inp.dims[0]] + one + list(inp.dims[1:])):
        values[name] = v
    values["oh"], values["ow"], values["f"] = (one + list(out.dims[1:]))[:3]
    values["kh"], values["kw"] = (one + list(ker.dims[:-2]))[:2]
    values["groups"] = ir.Constant(I64, op.attrs.get("groups", 1))  # feature groups
    for attr, names in (("stride", ("sh", "sw")), ("dilation", ("dh", "dw")), ("pad", ("ph", "pw"))):
        for name, v in zip(names, op.attrs[attr]):
            values[name] = ir.Constant(I64, v)
    if op.attrs.get("aot.packed_kernel") and op.attrs.get("winograd"):  # kernel, then its U
        size = numpy_dtype(op.operands[1].type.elem).itemsize * math.prod(op.operands[1].type.shape)
        values["transformed"] = b.add(b.ptrtoint(ker.ptr, I64), ir.Constant(I64, size))
    elif op.attrs.get("aot.packed_kernel"):  # a constant stored as its panels (passes/prepack.py)
        values["prepacked"] = ir.Constant(I64, 1)
    ctx = _slots(b, conv_direct.SLOTS, values)
    b.call(g.cpu_helper("winograd" if op.attrs.get("winograd") else "conv", out.elem), [ctx])


def _attention(g, b, op, args):
    """out = softmax(q k^T * scale + bias) v by cpu/attention.py: q [batch..., sq, d], k
    [batch..., sk, d], v [batch..., sk, dv], out [batch..., sq, dv], the batch dims taken as
    one; with `causal` = c, query i reads keys j <= i + c only (c = sk: every key); `safe`: a
    row of -inf scores gives zeros; a fifth operand is the bias, its dim i broadcast along the
    scores' dim `bias_dims`[i] (at most two batch dims), or with `fill` a boolean mask: the
    scores where it is `keep_if`, else fill."""
    q, k, v, out = args[:4]
    batch, _ = _dims_run(b, q, 0, len(q.dims) - 2)
    causal = op.attrs.get("causal")
    values = {"batch": batch, "sq": q.dims[-2], "d": q.dims[-1], "sk": k.dims[-2],
              "dv": v.dims[-1], "q": q.ptr, "k": k.ptr, "v": v.ptr, "out": out.ptr,
              "scale": b.bitcast(ir.Constant(ir.DoubleType(), op.attrs["scale"]), I64),
              "causal": k.dims[-2] if causal is None else ir.Constant(I64, causal),
              "safe": ir.Constant(I64, op.attrs.get("safe", 0))}
    if len(args) > 4:
        values.update(_bias_slots(b, args[4], op.attrs["bias_dims"], q))
    if "fill" in op.attrs:  # the fifth operand is a boolean mask
        values["mask"] = ir.Constant(I64, 1 + op.attrs["keep_if"])
        values["fill"] = b.bitcast(ir.Constant(ir.DoubleType(), op.attrs["fill"]), I64)
    ctx = _slots(b, attention.SLOTS, values)
    b.call(g.cpu_helper("attention", out.elem), [ctx])


def _bias_slots(b, bias, bias_dims, q) -> dict:
    """The attention kernel's bias slots: the element stride along each scores dim (0 where
    the bias is broadcast: a dim it lacks, or one of size 1 at run time)."""
    zero, rank = ir.Constant(I64, 0), len(q.dims)
    strides = [zero] * rank
    for i, dim in enumerate(bias_dims):
        _, stride = _dims_run(b, bias, i, i + 1)
        strides[dim] = b.select(b.icmp_signed("==", bias.dims[i], ir.Constant(I64, 1)), zero, stride)
    batch = strides[:rank - 2]
    return {"bias": bias.ptr, "bias_heads": q.dims[1] if len(batch) == 2 else ir.Constant(I64, 1),
            "bias_sb": batch[0] if batch else zero, "bias_sh": batch[1] if len(batch) == 2 else zero,
            "bias_sq": strides[-2], "bias_sk": strides[-1]}


EMITTERS = {
    "aot.attention": _attention,
    "aot.conv": _conv,
    "aot.gemm": _gemm,
    "aot.transpose": emit_transpose,
    "arith.constant": _constant,
    "arith.addf": _binop("fadd"), "arith.subf": _binop("fsub"), "arith.mulf": _binop("fmul"),
    "arith.divf": _divf, "arith.remf": _binop("frem"),
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
    "arith.select": _select,
    "arith.extf": _extf, "arith.truncf": _truncf,
    "arith.extsi": _int_cast("sext"), "arith.extui": _int_cast("zext"),
    "arith.trunci": _int_cast("trunc"),
    "arith.sitofp": _to_float("sitofp"), "arith.uitofp": _to_float("uitofp"),
    "arith.fptosi": _fp_to_int(True), "arith.fptoui": _fp_to_int(False),
    "arith.bitcast": _bitcast, "arith.index_cast": _index_cast,
    "math.sqrt": _intrinsic_call("sqrt"), "math.floor": _intrinsic_call("floor"),
    "math.ceil": _intrinsic_call("ceil"), "math.round": _intrinsic_call("round"),
    "math.roundeven": _intrinsic_call("roundeven"), "math.absf": _intrinsic_call("fabs"),
    "math.copysign": _intrinsic_call("copysign"),
    "math.ctpop": _intrinsic_call("ctpop"), "math.ctlz": _ctlz, "math.absi": _absi,
    # the math table's functions: an LLVM intrinsic or a C library call each (codegen/mathlib.py)
    **{op: _intrinsic_call(fn.llvm) if fn.llvm else _libm(fn.libm) for op, fn in MATH.items()
       if fn.llvm or fn.libm},
    "memref.load": _load, "memref.store": _store, "memref.dim": _dim,
    # a complex scalar is an LLVM {re, im}: made from and taken apart into its floats
    "complex.create": lambda g, b, op, a: b.insert_value(b.insert_value(
        ir.Constant(llvm_type(op.results[0].type.name), ir.Undefined), a[0], 0), a[1], 1),
    "complex.re": lambda g, b, op, a: b.extract_value(a[0], 0),
    "complex.im": lambda g, b, op, a: b.extract_value(a[0], 1),
}
