"""Quantized types (`!quant.uniform<...>` element types) by the StableHLO spec's reference
semantics: an op on quantized tensors dequantizes its quantized operands, computes in the
expressed (float) type and quantizes its quantized results (`dequantize_op_quantize`).

`lower_quantized` runs at the HLO stage, before verification: every quantized value becomes
a tensor of its storage type (i8, ...), the compiler's own values from there on; its scales
and zero points go onto the two ops that cross between the worlds, which the rest of the
compiler treats like any other elemental op:

    uniform_dequantize  q -> (q - zero_point) * scale            (storage to expressed)
    uniform_quantize    x -> round_nearest_even(clamp(x / scale + zero_point, min, max))

per tensor (scale and zero point attributes), or per axis (the scale and zero point of the
element's index along `quantization_dimension`, read from two constant tensors that are the
op's second and third operands). Every other op with a quantized
operand or result is rewritten around them, regions included (a reduce of quantized values
folds dequantized ones). Quantized arguments and results cross the C ABI and Python as their
storage integers. The spec computes `q - zero_point` in the storage type; here it is
computed in i32, which is the same wherever the spec's does not overflow.

Integer contractions. A dot_general / convolution of 8-bit operands (lhs per tensor, rhs per
tensor or per axis along a dim the contraction does not sum over) computes, in exact
arithmetic, sum((ql - zl) * (qr - zr)) * sl * sr[f]: the spec's result is that value
quantized. So it runs on integers (`_integer_plan`, `_Rewrite.integer_contraction`):

    ql, qr -> uniform_dequantize to i16 (q - zero_point, no scale: fits in 9 bits)
           -> dot_general / convolution i16 x i16 -> i32 (exact: the plan checks that
              K * max|ql - zl| * max|qr - zr| fits i32)
           -> uniform_dequantize of the i32 accumulator as !quant.uniform<i32:f32, sl*sr>
              (per axis along the result's feature dim for a per-axis rhs)
           -> uniform_quantize to the result type (or nothing for a float result).

It differs from the float reference only by f32 rounding (the reference rounds each
dequantized operand and every partial sum; here the i32 sum is exact and the conversion and
the scale multiply round once each), so at most one step where the scaled value sits on a
rounding boundary. Anything else (16-bit storage, per-axis lhs, an unknown K, f16 expressed
types) keeps the reference path."""
from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from lowering.ir.core import (
    DenseAttr,
    FunctionType,
    Module,
    OpaqueType,
    Operation,
    TensorType,
    numpy_dtype,
    replace_all_uses,
)
from lowering.ops import registry
from lowering.ops.contraction import dot_general_dims
from lowering.ops.elementwise import Scalars
from lowering.ops.registry import ShapeError
from lowering.ops.windows import Conv

STORAGE = {"i8": (-128, 127), "i16": (-32768, 32767), "i32": (-2**31, 2**31 - 1),
           "ui8": (0, 255), "ui16": (0, 65535)}
EXPRESSED = ("f16", "bf16", "f32", "f64")
CENTRED = "i16"  # an integer contraction's operands: q - zero_point of 8-bit storage
NARROW = ("i8", "ui8")  # storage the integer contractions take
INTEGER_EXPRESSED = ("f32", "f64")  # i32 accumulators convert to these with one rounding
# uniform_quantize's rounding of values under 2^16 (see _quantize_at): bias, its bits' type
ROUNDING_BIAS = {"f32": (1.5 * 2.0**23, "i32"), "f64": (1.5 * 2.0**52, "i64")}
_TENSOR = re.compile(r"tensor<((?:(?:\d+|\?)x)*)!quant\.uniform<(.*)>>")
_HEAD = re.compile(r"(\w+)(?:<\s*(-?\d+)\s*:\s*(-?\d+)\s*>)?\s*:\s*(\w+)(?:\s*:\s*(\d+))?")
_PARAM = re.compile(r"\s*([-+]?[\d.]+(?:[eE][-+]?\d+)?)\s*(?::\s*([-+]?\d+))?\s*")


@dataclass(frozen=True)
class Quant:
    """A uniform quantized element type: storage = round(expressed / scale) + zero_point."""
    storage: str
    expressed: str
    scales: tuple
    zero_points: tuple
    axis: int | None  # per-axis quantization's dimension; None: per tensor
    storage_min: int
    storage_max: int


def parse_quant(t) -> tuple | None:
    """(shape, Quant) of a quantized tensor type, None for any other type; a malformed one
    is a ValueError saying what is wrong."""
    if not isinstance(t, OpaqueType) or "!quant.uniform" not in t.text:
        return None
    m = _TENSOR.fullmatch(t.text.strip())
    if not m:
        raise ValueError(f"cannot read quantized type {t.text}")
    shape = tuple(None if d == "?" else int(d) for d in m.group(1).split("x")[:-1])
    head, _, params = m.group(2).partition(",")
    h = _HEAD.fullmatch(head.strip())
    if not h:
        raise ValueError(f"cannot read '{head.strip()}' in {t.text} (expected storage:expressed)")
    storage, lo, hi, expressed, axis = h.groups()
    if storage not in STORAGE:
        raise ValueError(f"quantized storage type {storage} is not supported (known: "
                         f"{', '.join(STORAGE)})")
    if expressed not in EXPRESSED:
        raise ValueError(f"quantized expressed type {expressed} is not a float type")
    params = params.strip()
    per_axis = params.startswith("{")
    if per_axis != (axis is not None):
        raise ValueError(f"{t.text}: a quantization dimension goes with {{scale:zero_point, ...}}")
    pairs = params.strip("{}").split(",") if per_axis else [params]
    scales, zero_points = [], []
    for p in pairs:
        pm = _PARAM.fullmatch(p)
        if not pm:
            raise ValueError(f"cannot read the scale:zero_point '{p.strip()}' in {t.text}")
        scales.append(float(pm.group(1)))
        zero_points.append(int(pm.group(2) or 0))
    smin, smax = STORAGE[storage]
    smin, smax = (int(lo), int(hi)) if lo is not None else (smin, smax)
    if not STORAGE[storage][0] <= smin <= smax <= STORAGE[storage][1]:
        raise ValueError(f"{t.text}: storage range <{smin}:{smax}> does not fit {storage}")
    if any(s <= 0 or not np.isfinite(s) for s in scales):
        raise ValueError(f"{t.text}: scales must be positive and finite")
    if axis is not None and (int(axis) >= len(shape) or
                             shape[int(axis)] not in (None, len(scales))):
        raise ValueError(f"{t.text}: {len(scales)} scales for dim {axis} of size "
                         f"{shape[int(axis)] if int(axis) < len(shape) else 'none'}")
    return shape, Quant(storage, expressed, tuple(scales), tuple(zero_points),
                        None if axis is None else int(axis), smin, smax)


# ----------------------------------------------------------------------------- the two ops


def _params_attrs(q: Quant) -> dict:
    attrs = {"storage_min": q.storage_min, "storage_max": q.storage_max,
             "quantization_dimension": -1 if q.axis is None else q.axis}
    if q.axis is None:
        attrs |= {"scales": q.scales, "zero_points": q.zero_points}
    return attrs


def _params_operands(block, at: int, q: Quant, loc) -> list:
    """Per axis: constants of the scales and zero points, inserted into `block` at `at`."""
    if q.axis is None:
        return []
    made = []
    for values, elem, dtype in ((q.scales, q.expressed, numpy_dtype(q.expressed)),
                                (q.zero_points, "i32", np.int32)):
        t = TensorType((len(values),), elem)
        c = Operation("mhlo.constant", [], [t], {"value": DenseAttr(np.array(values, dtype), t)},
                      loc=loc)
        c.parent = block
        block.ops.insert(at + len(made), c)
        made.append(c.result)
    return made


def infer_uniform_quantize(op):
    x, out = op.operands[0].type, op.results[0].type
    if x.elem not in EXPRESSED or out.elem not in STORAGE:
        raise ShapeError(f"uniform_quantize takes floats to storage integers, got {x} -> {out}")
    _check_params(op, x)
    return [TensorType(x.shape, out.elem)]


def infer_uniform_dequantize(op):
    """Storage integers to floats; to i16 it is the integer contraction's centred operand,
    q - zero_point with no scale."""
    q, out = op.operands[0].type, op.results[0].type
    if q.elem not in STORAGE or out.elem not in EXPRESSED + (CENTRED,):
        raise ShapeError(f"uniform_dequantize takes storage integers to floats, got {q} -> {out}")
    _check_params(op, q)
    return [TensorType(q.shape, out.elem)]


def _check_params(op, t):
    axis = op.attrs.get("quantization_dimension", -1)
    if axis == -1:
        scales, zps = op.attrs.get("scales"), op.attrs.get("zero_points")
        if len(op.operands) != 1 or not scales or not zps or len(scales) != 1 or len(zps) != 1:
            raise ShapeError("needs its quantized type's scale and zero point (quantized "
                             "operands are lowered before this op is verified)")
    elif len(op.operands) != 3 or not 0 <= axis < t.rank or any(
            v.type.rank != 1 for v in op.operands[1:]):
        raise ShapeError(f"per-axis quantization along dim {axis} of {t} takes the scales and "
                         "zero points as 1-D tensors after the operand")


def _same_dims(hs, op, shapes, bufs):
    return [list(shapes[0])]


def _param(e, op, idx, name, elem):
    """The element's scale or zero point: a constant per tensor; per axis, the table's entry
    at the element's index along the quantization dimension."""
    if len(op.operands) == 1:
        return e.b.const(op.attrs[name][0], elem)
    table = op.operands[1 if name == "scales" else 2]
    return e.at(table, [idx[op.attrs["quantization_dimension"]]])


def _dequantize_at(e, op, idx):
    q = e.at(op.operands[0], idx)
    s = Scalars(e.b)
    storage, expressed = op.operands[0].type.elem, op.results[0].type.elem
    wide = s.convert(q, storage, "i32")
    centred = s.v("arith.subi", [wide, _param(e, op, idx, "zero_points", "i32")], "i32")
    if expressed == CENTRED:
        return s.convert(centred, "i32", CENTRED)
    x = s.convert(centred, "i32", expressed)
    return s.v("arith.mulf", [x, _param(e, op, idx, "scales", expressed)], expressed)


def _quantize_at(e, op, idx):
    x = e.at(op.operands[0], idx)
    s = Scalars(e.b)
    expressed, storage = op.operands[0].type.elem, op.results[0].type.elem
    scaled = s.v("arith.divf", [x, _param(e, op, idx, "scales", expressed)], expressed)
    zp = s.convert(_param(e, op, idx, "zero_points", "i32"), "i32", expressed)
    shifted = s.v("arith.addf", [scaled, zp], expressed)
    lo, hi = (e.b.const(float(op.attrs[k]), expressed) for k in ("storage_min", "storage_max"))
    clamped = s.v("arith.minimumf", [s.v("arith.maximumf", [shifted, lo], expressed), hi], expressed)
    if expressed in ROUNDING_BIAS and storage != "i32":
        # |clamped| < 2^16: adding 1.5 * 2^(mantissa bits) rounds it to an integer, nearest
        # even, in the low bits of the sum (a vector add and subtract, where roundeven and
        # the saturating float-to-int conversion are scalarised)
        bias, bits = ROUNDING_BIAS[expressed]
        bias_bits = int(np.array(bias, numpy_dtype(expressed)).view(numpy_dtype(bits)))
        biased = s.v("arith.addf", [clamped, e.b.const(bias, expressed)], expressed)
        n = s.v("arith.subi", [s.v("arith.bitcast", [biased], bits), e.b.const(bias_bits, bits)],
                bits)
        return s.convert(n, bits, storage)
    rounded = s.v("math.roundeven", [clamped], expressed)
    return s.convert(rounded, expressed, storage)


_ATTRS = ("storage_min", "storage_max", "quantization_dimension")
registry.define("uniform_quantize", "elemental", "quantized types", attrs=_ATTRS,
                infer=infer_uniform_quantize, shape_rule=_same_dims, elemental=_quantize_at)
registry.define("uniform_dequantize", "elemental", "quantized types", attrs=_ATTRS,
                infer=infer_uniform_dequantize, shape_rule=_same_dims, elemental=_dequantize_at)


# ----------------------------------------------------------------------------- integer contractions


@dataclass(frozen=True)
class IntegerPlan:
    """How a quantized dot/conv runs on integers: its i32 accumulator's quantized type (scale
    lhs_scale * rhs_scale, per axis along `axis` of the result for a per-axis rhs)."""
    accumulator: Quant


def _widest_centred(q: Quant) -> int:
    return max(max(abs(q.storage_min - z), abs(q.storage_max - z)) for z in q.zero_points)


def _integer_plan(op, quant: dict, out_q: Quant | None) -> IntegerPlan | None:
    """The integer path's plan for a dot_general / dot / convolution, or None where the spec's
    result is not the integer formula's (or the i32 sum could overflow): then the reference
    path computes it."""
    if op.short_name not in ("dot_general", "dot", "convolution") or len(op.operands) != 2:
        return None
    lhs, rhs = op.operands
    ql, qr = quant.get(lhs), quant.get(rhs)
    if ql is None or qr is None or ql.storage not in NARROW or qr.storage not in NARROW:
        return None
    expressed = out_q.expressed if out_q else op.results[0].type.elem
    if ql.axis is not None or not ql.expressed == qr.expressed == expressed \
            or expressed not in INTEGER_EXPRESSED:
        return None
    if any(not q.storage_min <= z <= q.storage_max for q in (ql, qr) for z in q.zero_points):
        return None  # q - zero_point might not fit i16
    try:
        if op.short_name == "convolution":  # per axis: along the kernel's output features
            c = Conv(op)
            summed, out_axis = [c.ki] + c.ksp, {c.ko: c.of}
        else:  # per axis: along a batch or free dim of rhs
            lb, rb, lc, rc = dot_general_dims(op)
            lfree = [d for d in range(lhs.type.rank) if d not in lb and d not in lc]
            rfree = [d for d in range(rhs.type.rank) if d not in rb and d not in rc]
            summed = list(rc)
            out_axis = {d: i for i, d in enumerate(rb)}
            out_axis |= {d: len(lb) + len(lfree) + i for i, d in enumerate(rfree)}
    except ShapeError:
        return None  # malformed: verification reports it on the reference path
    if qr.axis is not None and qr.axis not in out_axis:
        return None
    k = 1
    for d in summed:
        if rhs.type.shape[d] is None:
            return None
        k *= rhs.type.shape[d]
    if k * _widest_centred(ql) * _widest_centred(qr) > 2**31 - 1:
        return None
    dtype = numpy_dtype(expressed)
    scales = tuple(float(dtype.type(ql.scales[0] * s)) for s in qr.scales)
    per_axis = qr.axis is not None
    return IntegerPlan(Quant("i32", expressed, scales, (0,) * len(scales),
                             out_axis[qr.axis] if per_axis else None, -2**31, 2**31 - 1))


# ----------------------------------------------------------------------------- the rewrite


@registry.module_rewrite("lower_quantized")
def lower_quantized(module: Module) -> None:
    """Quantized values become their storage integers, each op on them wrapped in
    dequantize/quantize ops (the spec's dequantize_op_quantize)."""
    for func in module.functions():
        fn = func.attrs.get("function_type")
        if not isinstance(fn, FunctionType) or not func.regions:
            continue
        try:
            if not _any_quantized(func):
                continue
        except ValueError as e:
            raise func.error(str(e)) from None
        _Rewrite(func).run()
        func.attrs["function_type"] = FunctionType(tuple(map(_storage_type, fn.inputs)),
                                                   tuple(map(_storage_type, fn.results)))


def _any_quantized(func) -> bool:
    fn = func.attrs["function_type"]
    if any(parse_quant(t) for t in list(fn.inputs) + list(fn.results)):
        return True
    return any(parse_quant(v.type) for op in func.walk() for v in op.results)


def _storage_type(t):
    pq = parse_quant(t)
    return TensorType(pq[0], pq[1].storage) if pq else t


class _Rewrite:
    def __init__(self, func):
        self.func = func
        self.quant: dict = {}  # value (now of storage type) -> its Quant

    def run(self):
        self.block(self.func.regions[0].blocks[0])

    def retype(self, v, where):
        try:
            pq = parse_quant(v.type)
        except ValueError as e:
            raise where.error(str(e)) from None
        if pq:
            self.quant[v] = pq[1]
            v.type = TensorType(pq[0], pq[1].storage)

    def block(self, block):
        for a in block.args:
            self.retype(a, block.parent.parent if block.parent is not None else self.func)
        for op in list(block.ops):
            self.op(block, op)

    def op(self, block, op):
        for r in op.results:
            self.retype(r, op)
        quant_out = [(None, self.quant[r]) if r in self.quant else None for r in op.results]
        name = op.name
        if name in ("func.return", "mhlo.return"):  # values leave as their storage ints
            return
        if name == "mhlo.uniform_quantize":
            src = op.operands[0]
            if src in self.quant:  # requantize: from one quantized type to another
                src = self.dequantize(block, op, src)
            q = quant_out[0][1]
            op.attrs = _params_attrs(q)
            op.operands = [src] + _params_operands(block, block.ops.index(op), q, op.loc)
            return
        if name == "mhlo.constant" and quant_out[0]:  # its dense value: the storage integers
            return
        if name == "mhlo.uniform_dequantize":
            q = self.quant_of(op, op.operands[0])
            if op.results[0].type.elem not in EXPRESSED:  # i16 is only the rewrite's own form
                raise op.error(f"uniform_dequantize's result must be a float tensor, got "
                               f"{op.results[0].type}")
            op.attrs = _params_attrs(q)
            op.operands = op.operands[:1] + _params_operands(block, block.ops.index(op), q, op.loc)
            return
        plan = _integer_plan(op, self.quant, quant_out[0][1] if quant_out and quant_out[0] else None)
        if plan:
            self.integer_contraction(block, op, plan, quant_out[0][1] if quant_out[0] else None)
            return
        quantized_in = [v for v in op.operands if v in self.quant]
        if not quantized_in and not any(quant_out):
            for region in op.regions:
                for inner in region.blocks:
                    self.block(inner)
            return
        op.operands = [self.dequantize(block, op, v) if v in self.quant else v
                       for v in op.operands]
        for region in op.regions:  # regions compute on dequantized values
            for inner in region.blocks:
                self.expressed_region(inner)
        for r, pq in zip(op.results, quant_out):
            if pq:
                self.quantize_result(block, op, r, pq[1])

    def integer_contraction(self, block, op, plan: IntegerPlan, out_q: Quant | None):
        """op on the centred i16 operands with an i32 result, then the accumulator's
        dequantize (and the result's quantize): see the module docstring."""
        op.operands = [self.dequantize(block, op, v, CENTRED) for v in op.operands]
        r = op.results[0]
        final_type = r.type  # the result's storage type, or its float type
        deq = Operation("mhlo.uniform_dequantize", [], [final_type],
                        _params_attrs(plan.accumulator), loc=op.loc)
        replace_all_uses(r, deq.results[0])
        r.type = TensorType(r.type.shape, "i32")
        at = block.ops.index(op) + 1
        params = _params_operands(block, at, plan.accumulator, op.loc)
        deq.operands = [r] + params
        deq.parent = block
        block.ops.insert(at + len(params), deq)
        self.quant.pop(r, None)
        if out_q:
            self.quant[deq.results[0]] = out_q
            self.quantize_result(block, deq, deq.results[0], out_q)

    def quant_of(self, op, v) -> Quant:
        if v not in self.quant:
            raise op.error(f"{v.type} is not a quantized tensor")
        return self.quant[v]

    def expressed_region(self, block):
        """A region of quantized scalars (a reduce's body) computes on expressed values: its
        quantized types become their expressed types, with nothing quantized in between."""
        def expressed(v, where):
            try:
                pq = parse_quant(v.type)
            except ValueError as e:
                raise where.error(str(e)) from None
            if pq:
                v.type = TensorType(pq[0], pq[1].expressed)
        for a in block.args:
            expressed(a, block.parent.parent)
        for top in block.ops:
            for inner in top.walk():
                for r in inner.results:
                    expressed(r, inner)
                for region in inner.regions:
                    for b in region.blocks:
                        for a in b.args:
                            expressed(a, inner)

    def dequantize(self, block, op, v, elem: str | None = None):
        """A uniform_dequantize of v before op, to v's expressed type (or to `elem`). The
        centred form of a constant (quantized weights) is folded into an i16 constant."""
        q = self.quant[v]
        const = v.owner if isinstance(v.owner, Operation) and v.owner.name == "mhlo.constant" else None
        if elem == CENTRED and const is not None and isinstance(const.attrs.get("value"), DenseAttr):
            zp = np.array(q.zero_points, np.int32)
            if q.axis is not None:
                zp = zp.reshape([-1 if d == q.axis else 1 for d in range(v.type.rank)])
            t = TensorType(v.type.shape, CENTRED)
            centred = (const.attrs["value"].array.astype(np.int32) - zp).astype(np.int16)
            c = Operation("mhlo.constant", [], [t], {"value": DenseAttr(centred, t)}, loc=op.loc)
            c.parent = block
            block.ops.insert(block.ops.index(op), c)
            return c.result
        params = _params_operands(block, block.ops.index(op), q, op.loc)
        d = Operation("mhlo.uniform_dequantize", [v] + params,
                      [TensorType(v.type.shape, elem or q.expressed)], _params_attrs(q), loc=op.loc)
        d.parent = block
        block.ops.insert(block.ops.index(op), d)
        return d.result

    def quantize_result(self, block, op, r, q):
        """op now makes the expressed value; a uniform_quantize after it makes r's."""
        float_type = TensorType(r.type.shape, q.expressed)
        stored = r.type
        qop = Operation("mhlo.uniform_quantize", [], [stored], _params_attrs(q), loc=op.loc)
        new = qop.results[0]
        self.quant[new] = q
        self.quant.pop(r, None)
        replace_all_uses(r, new)
        r.type = float_type
        params = _params_operands(block, block.ops.index(op) + 1, q, op.loc)
        qop.operands = [r] + params
        qop.parent = block
        block.ops.insert(block.ops.index(op) + 1 + len(params), qop)

