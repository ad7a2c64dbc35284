"""The elementwise ops: their result types, run-time dims, and scalar semantics as
arith/math ops of the loop stage.

One scalar rule per HLO op; the `math.*` ops they make are the math table's (codegen/mathlib.py:
computed natively or expanded per target, and where the target's math library is "inline",
exp, log, tanh, logistic... replaced at the op level by inline polynomials).
XLA's edge cases are spelled out here, not left to LLVM's undefined behaviour: integer
division by zero gives -1 (and x % 0 = x), INT_MIN / -1 = INT_MIN, shifts past the bit
width give 0 (or the sign), float to int conversion saturates with NaN to 0, and f16/bf16
math is computed in f32 and rounded once per op, as XLA's CPU backend does.
"""
from __future__ import annotations

from lowering.ir.core import (
    Operation,
    ScalarType,
    TensorType,
    bit_width,
    component,
    is_complex,
    is_float,
    is_unsigned,
)
from lowering.ops import registry
from lowering.ops.registry import ShapeError, static_or

HALF = ("f16", "bf16")


class Scalars:
    """Builds scalar arith/math ops through a loop-stage builder `b`."""

    def __init__(self, b):
        self.b = b

    def v(self, name, args, elem, **attrs):
        return self.b.v(name, args, ScalarType(elem), **attrs)

    def const(self, value, elem):
        return self.b.const(value, elem)

    # conversions -------------------------------------------------------------------------
    def convert(self, x, src: str, dst: str):
        if src == dst:
            return x
        if is_complex(src) or is_complex(dst):
            return self.convert_complex(x, src, dst)
        if dst == "i1":
            if src in HALF:  # bf16 lives in an i16 register: compare it as f32
                x = self.v("arith.extf", [x], "f32")
                src = "f32"
            zero = self.const(0.0 if is_float(src) else 0, src)
            pred = "une" if is_float(src) else "ne"
            return self.v("arith.cmpf" if is_float(src) else "arith.cmpi", [x, zero], "i1",
                          predicate=pred)
        if is_float(src) and is_float(dst):
            wide = bit_width(dst) > bit_width(src) or (src == "bf16" and dst == "f16")
            if {src, dst} == {"f16", "bf16"}:
                x = self.v("arith.extf", [x], "f32")
                return self.v("arith.truncf", [x], dst)
            return self.v("arith.extf" if wide else "arith.truncf", [x], dst)
        if is_float(src):
            return self.v("arith.fptoui" if is_unsigned(dst) else "arith.fptosi", [x], dst)
        if is_float(dst):
            unsigned = is_unsigned(src) or src == "i1"
            return self.v("arith.uitofp" if unsigned else "arith.sitofp", [x], dst)
        sw, dw = bit_width(src), bit_width(dst)
        if dw > sw:
            unsigned = is_unsigned(src) or src == "i1"
            return self.v("arith.extui" if unsigned else "arith.extsi", [x], dst)
        if dw < sw:
            return self.v("arith.trunci", [x], dst)
        return self.v("arith.bitcast", [x], dst)  # same width, signedness changes

    def convert_complex(self, x, src: str, dst: str):
        """To complex: the value, converted to the parts' type, with imaginary part 0.
        From complex: each part converted, or to a real or integer type its real part (the
        spec's rule; i1 is whether the real part is nonzero)."""
        if is_complex(src):
            re = self.v("complex.re", [x], component(src))
            if not is_complex(dst):
                return self.convert(re, component(src), dst)
            im = self.v("complex.im", [x], component(src))
            return self.v("complex.create", [self.convert(re, component(src), component(dst)),
                                             self.convert(im, component(src), component(dst))], dst)
        part = self.convert(x, src, component(dst))
        return self.v("complex.create", [part, self.const(0.0, component(dst))], dst)

    # comparisons -------------------------------------------------------------------------
    FLOAT_PRED = {"EQ": "oeq", "NE": "une", "LT": "olt", "LE": "ole", "GT": "ogt", "GE": "oge"}
    SIGNED_PRED = {"EQ": "eq", "NE": "ne", "LT": "slt", "LE": "sle", "GT": "sgt", "GE": "sge"}
    UNSIGNED_PRED = {"EQ": "eq", "NE": "ne", "LT": "ult", "LE": "ule", "GT": "ugt", "GE": "uge"}

    def compare(self, a, b, elem, direction, compare_type=None):
        if is_float(elem) and compare_type == "TOTALORDER":
            width = bit_width(elem)
            ielem = f"i{width}"
            keys = []
            for x in (a, b):
                bits = self.v("arith.bitcast", [x], ielem)
                sign = self.v("arith.shrsi", [bits, self.const(width - 1, ielem)], ielem)
                mask = self.v("arith.shrui", [sign, self.const(1, ielem)], ielem)
                keys.append(self.v("arith.xori", [bits, mask], ielem))
            return self.v("arith.cmpi", keys, "i1", predicate=self.SIGNED_PRED[direction])
        if is_float(elem):
            if elem in HALF:
                a, b = self.v("arith.extf", [a], "f32"), self.v("arith.extf", [b], "f32")
            return self.v("arith.cmpf", [a, b], "i1", predicate=self.FLOAT_PRED[direction])
        table = self.UNSIGNED_PRED if (is_unsigned(elem) or elem == "i1") else self.SIGNED_PRED
        return self.v("arith.cmpi", [a, b], "i1", predicate=table[direction])

    def select(self, p, a, b, elem):
        return self.v("arith.select", [p, a, b], elem)


def _float_op(name):
    """An op computed in the operand's float type (f16/bf16 promoted to f32)."""
    def rule(s: Scalars, elem, args, op):
        return _promoted(s, elem, args, lambda e, xs: s.v(name, xs, e))
    return rule


def _promoted(s: Scalars, elem, args, body):
    if elem in HALF:
        wide = [s.v("arith.extf", [x], "f32") for x in args]
        return s.v("arith.truncf", [body("f32", wide)], elem)
    return body(elem, args)


def _int_or_float(float_name, signed_name, unsigned_name=None):
    def rule(s: Scalars, elem, args, op):
        if is_float(elem):
            return _promoted(s, elem, args, lambda e, xs: s.v(float_name, xs, e))
        name = unsigned_name if (unsigned_name and (is_unsigned(elem) or elem == "i1")) else signed_name
        return s.v(name, args, elem)
    return rule


def _divide(s: Scalars, elem, args, op):
    if is_float(elem):
        return _promoted(s, elem, args, lambda e, xs: s.v("arith.divf", xs, e))
    return _int_div_rem(s, elem, args, remainder=False)


def _remainder(s: Scalars, elem, args, op):
    if is_float(elem):
        return _promoted(s, elem, args, lambda e, xs: s.v("arith.remf", xs, e))
    return _int_div_rem(s, elem, args, remainder=True)


def _int_div_rem(s: Scalars, elem, args, remainder: bool):
    """x / 0 = -1 and x % 0 = x; INT_MIN / -1 = INT_MIN and INT_MIN % -1 = 0 (XLA)."""
    a, b = args
    unsigned = is_unsigned(elem) or elem == "i1"
    zero, one = s.const(0, elem), s.const(1, elem)
    is_zero = s.v("arith.cmpi", [b, zero], "i1", predicate="eq")
    bad = is_zero
    if not unsigned:
        minus_one = s.const(-1, elem)
        int_min = s.const(-(1 << (bit_width(elem) - 1)), elem)
        overflow = s.v("arith.andi", [s.v("arith.cmpi", [a, int_min], "i1", predicate="eq"),
                                      s.v("arith.cmpi", [b, minus_one], "i1", predicate="eq")], "i1")
        bad = s.v("arith.ori", [is_zero, overflow], "i1")
    safe_b = s.select(bad, one, b, elem)
    if remainder:
        r = s.v("arith.remui" if unsigned else "arith.remsi", [a, safe_b], elem)
        if unsigned:
            return s.select(is_zero, a, r, elem)
        return s.select(is_zero, a, s.select(bad, zero, r, elem), elem)
    q = s.v("arith.divui" if unsigned else "arith.divsi", [a, safe_b], elem)
    all_ones = s.const(-1 if not unsigned else (1 << bit_width(elem)) - 1, elem)
    if unsigned:
        return s.select(is_zero, all_ones, q, elem)
    return s.select(is_zero, all_ones, s.select(bad, a, q, elem), elem)


def _shift(kind):
    def rule(s: Scalars, elem, args, op):
        a, b = args
        width = bit_width(elem)
        too_big = s.v("arith.cmpi", [b, s.const(width, elem)], "i1", predicate="uge")
        if kind == "shrsi":
            amount = s.select(too_big, s.const(width - 1, elem), b, elem)
            return s.v("arith.shrsi", [a, amount], elem)
        safe = s.select(too_big, s.const(0, elem), b, elem)
        shifted = s.v(f"arith.{kind}", [a, safe], elem)
        return s.select(too_big, s.const(0, elem), shifted, elem)
    return rule


def _negate(s: Scalars, elem, args, op):
    if is_float(elem):
        return _promoted(s, elem, args, lambda e, xs: s.v("arith.negf", xs, e))
    return s.v("arith.subi", [s.const(0, elem), args[0]], elem)


def _abs(s: Scalars, elem, args, op):
    if is_float(elem):
        return _promoted(s, elem, args, lambda e, xs: s.v("math.absf", xs, e))
    if is_unsigned(elem):
        return args[0]
    return s.v("math.absi", args, elem)


def _sign(s: Scalars, elem, args, op):
    x = args[0]
    if is_float(elem):
        def body(e, xs):
            x = xs[0]
            zero, one = s.const(0.0, e), s.const(1.0, e)
            copy = s.v("math.copysign", [one, x], e)
            is_zero_or_nan = s.v("arith.cmpf", [x, zero], "i1", predicate="ueq")
            return s.select(is_zero_or_nan, x, copy, e)
        return _promoted(s, elem, args, body)
    zero = s.const(0, elem)
    if is_unsigned(elem):
        nz = s.v("arith.cmpi", [x, zero], "i1", predicate="ne")
        return s.v("arith.extui", [nz], elem)
    pos = s.v("arith.extui", [s.v("arith.cmpi", [x, zero], "i1", predicate="sgt")], elem)
    neg = s.v("arith.extui", [s.v("arith.cmpi", [x, zero], "i1", predicate="slt")], elem)
    return s.v("arith.subi", [pos, neg], elem)


def _logistic(s: Scalars, elem, args, op):
    def body(e, xs):
        one = s.const(1.0, e)
        ex = s.v("math.exp", [s.v("arith.negf", xs, e)], e)
        return s.v("arith.divf", [one, s.v("arith.addf", [one, ex], e)], e)
    return _promoted(s, elem, args, body)


def _rsqrt(s: Scalars, elem, args, op):
    return _promoted(s, elem, args, lambda e, xs: s.v(
        "arith.divf", [s.const(1.0, e), s.v("math.sqrt", xs, e)], e))


def _is_finite(s: Scalars, elem, args, op):
    x = args[0]
    if elem in HALF:
        x = s.v("arith.extf", [x], "f32")
        elem = "f32"
    ax = s.v("math.absf", [x], elem)
    return s.v("arith.cmpf", [ax, s.const(float("inf"), elem)], "i1", predicate="olt")


def _not(s: Scalars, elem, args, op):
    return s.v("arith.xori", [args[0], s.const(1 if elem == "i1" else -1, elem)], elem)


def _power(s: Scalars, elem, args, op):
    if is_float(elem):
        return _promoted(s, elem, args, lambda e, xs: s.v("math.powf", xs, e))
    return _int_power(s, elem, *args)


def _int_power(s: Scalars, elem, x, n):
    """Square-and-multiply over every exponent bit, branch-free. A negative exponent gives
    0, except for bases 1 and -1 (XLA)."""
    width = bit_width(elem)
    one, zero = s.const(1, elem), s.const(0, elem)
    result, base = one, x
    for k in range(width):
        bit = s.v("arith.andi", [s.v("arith.shrui", [n, s.const(k, elem)], elem), one], elem)
        odd = s.v("arith.cmpi", [bit, zero], "i1", predicate="ne")
        result = s.select(odd, s.v("arith.muli", [result, base], elem), result, elem)
        base = s.v("arith.muli", [base, base], elem)
    if is_unsigned(elem) or elem == "i1":
        return result
    negative = s.v("arith.cmpi", [n, zero], "i1", predicate="slt")
    minus_one = s.const(-1, elem)
    is_one = s.v("arith.cmpi", [x, one], "i1", predicate="eq")
    is_minus_one = s.v("arith.cmpi", [x, minus_one], "i1", predicate="eq")
    n_odd = s.v("arith.cmpi", [s.v("arith.andi", [n, one], elem), zero], "i1", predicate="ne")
    sign = s.select(n_odd, minus_one, one, elem)
    small = s.select(is_one, one, s.select(is_minus_one, sign, zero, elem), elem)
    return s.select(negative, small, result, elem)


def _compare(s: Scalars, elem, args, op):
    ct = op.attrs.get("compare_type")
    return s.compare(args[0], args[1], elem, op.attrs["comparison_direction"].value,
                     ct.value if ct else None)


def _select(s: Scalars, elem, args, op):
    return s.select(args[0], args[1], args[2], op.results[0].type.elem)


def _clamp(s: Scalars, elem, args, op):
    lo, x, hi = args
    e = op.results[0].type.elem
    maxi = _BINARY_RULES["maximum"](s, e, [lo, x], op)
    return _BINARY_RULES["minimum"](s, e, [maxi, hi], op)


def _convert(s: Scalars, elem, args, op):
    return s.convert(args[0], elem, op.results[0].type.elem)


def _bitcast_convert(s: Scalars, elem, args, op):
    return s.v("arith.bitcast", args, op.results[0].type.elem)


def _as_bits(s: Scalars, x, elem: str):
    """A value as the signless integer of its width (its bits, unchanged)."""
    ints = f"i{bit_width(elem)}"
    return x if elem == ints else s.v("arith.bitcast", [x], ints)


def _from_bits(s: Scalars, x, elem: str):
    return x if elem == f"i{bit_width(elem)}" else s.v("arith.bitcast", [x], elem)


def infer_bitcast_convert(op):
    """Same width: elementwise. Otherwise the narrower side has one more dim, of size
    wide/narrow, holding the pieces of each wide element (the spec's rule)."""
    src, dst = op.operands[0].type, op.results[0].type.elem
    a, b = bit_width(src.elem), bit_width(dst)
    if a == b:
        return [TensorType(src.shape, dst)]
    if "i1" in (src.elem, dst):
        raise ShapeError(f"cannot bitcast between i1 and {dst if src.elem == 'i1' else src.elem}")
    if a < b:
        if src.rank == 0 or src.shape[-1] != b // a:
            raise ShapeError(f"bitcast_convert {src} to {dst}: the operand's last dim must be "
                             f"{b // a}, one {dst} from {b // a} {src.elem}")
        return [TensorType(src.shape[:-1], dst)]
    return [TensorType(src.shape + (a // b,), dst)]


def _bitcast_convert_dims(hs, op, shapes, bufs):
    a, b = bit_width(op.operands[0].type.elem), bit_width(op.results[0].type.elem)
    out = list(shapes[0]) if a == b else list(shapes[0][:-1]) if a < b else list(shapes[0]) + [a // b]
    return [static_or(op.results[0].type.shape, out)]


def _bitcast_convert_at(e, op, idx):
    """Little-endian, as XLA's CPU and GPU backends: piece 0 holds the lowest bits."""
    src, dst = op.operands[0].type.elem, op.results[0].type.elem
    a, b = bit_width(src), bit_width(dst)
    if a == b:
        return at_elementwise(e, op, idx)
    s, wide, narrow = Scalars(e.b), f"i{max(a, b)}", f"i{min(a, b)}"
    if a < b:  # gather b // a pieces
        word = None
        for j in range(b // a):
            piece = _as_bits(s, e.at(op.operands[0], list(idx) + [e.b.index(j)]), src)
            piece = s.v("arith.extui", [piece], wide)
            if j:
                piece = s.v("arith.shli", [piece, s.const(a * j, wide)], wide)
            word = piece if word is None else s.v("arith.ori", [word, piece], wide)
        return _from_bits(s, word, dst)
    word = _as_bits(s, e.at(op.operands[0], list(idx[:-1])), src)
    j = e.b.v("arith.index_cast", [idx[-1]], ScalarType(wide))
    shift = s.v("arith.muli", [j, s.const(b, wide)], wide)
    piece = s.v("arith.trunci", [s.v("arith.shrui", [word, shift], wide)], narrow)
    return _from_bits(s, piece, dst)


def _bitwise(name):
    def rule(s: Scalars, elem, args, op):
        return s.v(name, args, elem)
    return rule


_BINARY_RULES = {
    "add": _int_or_float("arith.addf", "arith.addi"),
    "subtract": _int_or_float("arith.subf", "arith.subi"),
    "multiply": _int_or_float("arith.mulf", "arith.muli"),
    "divide": _divide,
    "remainder": _remainder,
    "maximum": _int_or_float("arith.maximumf", "arith.maxsi", "arith.maxui"),
    "minimum": _int_or_float("arith.minimumf", "arith.minsi", "arith.minui"),
    "power": _power,
    "atan2": _float_op("math.atan2"),
    "and": _bitwise("arith.andi"),
    "or": _bitwise("arith.ori"),
    "xor": _bitwise("arith.xori"),
    "shift_left": _shift("shli"),
    "shift_right_arithmetic": _shift("shrsi"),
    "shift_right_logical": _shift("shrui"),
    "compare": _compare,
}

RULES = {
    **_BINARY_RULES,
    "negate": _negate, "abs": _abs, "sign": _sign, "logistic": _logistic, "rsqrt": _rsqrt,
    "is_finite": _is_finite, "not": _not, "select": _select, "clamp": _clamp,
    "convert": _convert, "bitcast_convert": _bitcast_convert,
    "exponential": _float_op("math.exp"), "exponential_minus_one": _float_op("math.expm1"),
    "log": _float_op("math.log"), "log_plus_one": _float_op("math.log1p"),
    "tanh": _float_op("math.tanh"), "sqrt": _float_op("math.sqrt"), "cbrt": _float_op("math.cbrt"),
    "sine": _float_op("math.sin"), "cosine": _float_op("math.cos"), "tan": _float_op("math.tan"),
    "floor": _float_op("math.floor"), "ceil": _float_op("math.ceil"),
    "round_nearest_afz": _float_op("math.round"), "round_nearest_even": _float_op("math.roundeven"),
    "popcnt": _bitwise("math.ctpop"), "count_leading_zeros": _bitwise("math.ctlz"),
}


def lower_scalar(b, op, args):
    """The scalar value of elementwise HLO `op` applied to scalar `args`."""
    elem = op.operands[0].type.elem if op.short_name not in ("select", "clamp") else \
        op.operands[1].type.elem
    on_complex = any(is_complex(v.type.elem) for v in op.operands)
    rule = registry.rule(op, "complex_scalar" if on_complex else "scalar", b.target)
    if rule is None:
        raise op.error("no scalar lowering for this op" + (" on complex numbers" if on_complex else ""))
    return rule(Scalars(b), elem, args, op)

# ----------------------------------------------------------------------------- the ops

UNARY = {
    "abs", "negate", "sign", "exponential", "exponential_minus_one", "log", "log_plus_one",
    "logistic", "tanh", "sqrt", "rsqrt", "cbrt", "sine", "cosine", "tan", "floor", "ceil",
    "round_nearest_afz", "round_nearest_even", "not", "popcnt", "count_leading_zeros", "is_finite",
    "convert", "bitcast_convert",
}


BINARY = {
    "add", "subtract", "multiply", "divide", "remainder", "power", "maximum", "minimum", "atan2",
    "and", "or", "xor", "shift_left", "shift_right_arithmetic", "shift_right_logical", "compare",
}


FLOAT_ONLY = {"exponential", "exponential_minus_one", "log", "log_plus_one", "logistic", "tanh",
              "sqrt", "rsqrt", "cbrt", "sine", "cosine", "tan", "floor", "ceil",
              "round_nearest_afz", "round_nearest_even", "is_finite", "atan2"}


INT_ONLY = {"popcnt", "count_leading_zeros", "shift_left", "shift_right_arithmetic",
            "shift_right_logical"}


INT_OR_BOOL = {"and", "or", "xor", "not"}


def _same_shape(types, what="operands"):
    shapes = {t.shape for t in types}
    if len(shapes) > 1:
        raise ShapeError(f"{what} must have the same shape, got " + ", ".join(map(str, types)))


def infer_elementwise(op: Operation):
    ts = [v.type for v in op.operands]
    name = op.short_name
    if name == "select":
        pred, a, b = ts
        if a.shape != b.shape or a.elem != b.elem:
            raise ShapeError(f"select branches differ: {a} vs {b}")
        if pred.elem != "i1" or (pred.shape != () and pred.shape != a.shape):
            raise ShapeError(f"select predicate must be i1 of shape {a.shape} or a scalar, got {pred}")
        return [a]
    if name == "clamp":
        lo, x, hi = ts
        for b in (lo, hi):
            if b.shape not in ((), x.shape) or b.elem != x.elem:
                raise ShapeError(f"clamp bound {b} does not match operand {x}")
        return [x]
    _same_shape(ts)
    elems = {t.elem for t in ts}
    if len(elems) > 1:
        raise ShapeError("operands must have the same element type, got " + ", ".join(map(str, ts)))
    elem = ts[0].elem
    types = registry.lookup(name).operand_types
    if types == "float" and elem not in ("f16", "bf16", "f32", "f64") and not is_complex(elem):
        raise ShapeError(f"needs floating-point operands, got {ts[0]}")
    if types == "int" and elem in ("f16", "bf16", "f32", "f64", "i1"):
        raise ShapeError(f"needs integer operands, got {ts[0]}")
    if types == "int_or_bool" and elem in ("f16", "bf16", "f32", "f64"):
        raise ShapeError(f"needs integer or boolean operands, got {ts[0]}")
    if name == "compare":
        direction = op.attrs["comparison_direction"].value
        if direction not in ("EQ", "NE", "LT", "LE", "GT", "GE"):
            raise ShapeError(f"unknown comparison direction '{direction}'")
        ct = op.attrs.get("compare_type")
        if ct is not None and ct.value not in ("FLOAT", "TOTALORDER", "SIGNED", "UNSIGNED", "NOTYPE"):
            raise ShapeError(f"unknown comparison type '{ct.value}'")
    if name in ("compare", "is_finite"):
        return [TensorType(ts[0].shape, "i1")]
    if name == "abs" and is_complex(elem):  # |z| is real
        return [TensorType(ts[0].shape, component(elem))]
    if name in ("convert", "bitcast_convert"):  # the result's element type is the declared one
        return [TensorType(ts[0].shape, op.results[0].type.elem)] if op.results else None
    return [ts[0]]


def same_as_operands(hs, op, shapes, bufs):
    ranked = [s for s in shapes if len(s) == op.results[0].type.rank]
    out = list(ranked[0])
    for s in ranked[1:]:
        for d, (a, b) in enumerate(zip(out, s)):
            out[d] = hs.require_equal(a, b, op, f"operand dim {d} differs")
    return [static_or(op.results[0].type.shape, out)] * len(op.results)


def at_elementwise(e, op: Operation, idx):
    args = []
    for v in op.operands:
        args.append(e.at(v, idx if v.type.rank else []))
    return lower_scalar(e.b, op, args)


def operand_types(name: str) -> str | None:
    return ("float" if name in FLOAT_ONLY else "int" if name in INT_ONLY
            else "int_or_bool" if name in INT_OR_BOOL else None)


def define_elementwise(name: str, arity: int, scalar, infer=None, types=None, **rules) -> None:
    """An elementwise op: same-shape operands, fused into kLoop kernels, its value at an
    index its scalar rule applied to its operands' values there."""
    rules = {"shape_rule": same_as_operands, "elemental": at_elementwise, **rules}
    registry.define(name, "elementwise", "elementwise", arity=arity,
                    operand_types=types or operand_types(name), infer=infer or infer_elementwise,
                    scalar=scalar, **rules)


# bitcast_convert between widths adds or drops a last dim: its own result and shape rules
WIDTH_RULES = {"bitcast_convert": dict(infer=infer_bitcast_convert, shape_rule=_bitcast_convert_dims,
                                       elemental=_bitcast_convert_at)}
for _name in sorted(UNARY | BINARY | {"select", "clamp"}):
    define_elementwise(_name, 1 if _name in UNARY else 2 if _name in BINARY else 3, RULES[_name],
                       attrs=("comparison_direction",) if _name == "compare" else (),
                       **WIDTH_RULES.get(_name, {}))
