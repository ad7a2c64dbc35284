"""ATen's elementwise math, comparisons, activations, normalizations and reductions, each
lowered to the mhlo ops that compute it. Arithmetic runs in the element type PyTorch
recorded for the result (its type promotion already applied: `int / int` is a float)."""
from __future__ import annotations

import math

import numpy as np

from lowering.ir.core import Region, TensorType, Value, is_complex
from lowering.tf.emitter import FLOATS
from lowering.torch.emitter import TorchEmitter, promote
from lowering.torch.table import aten

# ---------------------------------------------------------------- elementwise

UNARY = {
    "abs": "abs", "neg": "negate", "exp": "exponential", "log": "log", "log1p": "log_plus_one",
    "expm1": "exponential_minus_one", "sqrt": "sqrt", "rsqrt": "rsqrt", "tanh": "tanh",
    "sigmoid": "logistic", "sin": "sine", "cos": "cosine", "tan": "tan", "floor": "floor",
    "ceil": "ceil", "round": "round_nearest_even", "sign": "sign", "erf": "erf",
    "asin": "asin", "acos": "acos", "atan": "atan", "sinh": "sinh", "cosh": "cosh",
    "asinh": "asinh", "acosh": "acosh", "atanh": "atanh", "lgamma": "lgamma",
    "digamma": "digamma", "erfinv": "erf_inv", "erfc": "erfc", "special_erfc": "erfc",
    "trunc": None, "reciprocal": None,
}
BINARY = {"add": "add", "sub": "subtract", "mul": "multiply", "div": "divide",
          "maximum": "maximum", "minimum": "minimum", "atan2": "atan2",
          "fmod": "remainder", "bitwise_and": "and", "bitwise_or": "or", "bitwise_xor": "xor",
          # Python's `mask_a & mask_b` on tensors, as export records it (GPT-2's masks)
          "__and__": "and", "__or__": "or", "__xor__": "xor"}
COMPARE = {"eq": "EQ", "ne": "NE", "lt": "LT", "le": "LE", "gt": "GT", "ge": "GE"}
LOGICAL = {"logical_and": "and", "logical_or": "or", "logical_xor": "xor"}
G = "elementwise math"


def _unary(hlo):
    def rule(e: TorchEmitter, n):
        x = n.arg("self")
        if hlo == "abs" and isinstance(x, Value) and is_complex(x.type.elem):
            return e.v("abs", [x])  # |z|, a real result: z is not converted to it first
        x = e.scalar(x, n.out_elem())
        if hlo is not None:
            return e.v(hlo, [x])
        if e.target.startswith("aten.trunc"):
            return e.v("select", [_ge0(e, x), e.v("floor", [x]), e.v("ceil", [x])])
        return e.binary("divide", e.const(1, x.type.elem, ()), x)  # reciprocal
    return rule


def _ge0(e, x):
    return e.compare(x, e.scalar(0, x.type.elem), "GE")


for _name, _hlo in UNARY.items():
    aten(f"{_name}.default", group=G)(_unary(_hlo))


def _binary(hlo):
    def rule(e: TorchEmitter, n):
        """self (op) other, with `alpha` scaling other for add/sub; Python scalars become
        0-d tensors of the result's type."""
        elem = n.out_elem()
        a = e.scalar(n.arg("self"), elem)
        b = e.scalar(n.arg("other", None) if "other" in n.inputs else n.arg("exponent"), elem)
        alpha = n.arg("alpha", 1)
        if alpha != 1:
            b = e.binary("multiply", b, e.scalar(alpha, elem))
        mode = n.arg("rounding_mode", None)
        if hlo == "divide" and elem not in FLOATS and mode is None:
            raise e.error("true division of integers into an integer result")
        out = e.binary(hlo, a, b)
        if mode == "floor" and elem in FLOATS:
            out = e.v("floor", [out])
        elif mode == "trunc" and elem in FLOATS:
            out = e.v("select", [_ge0(e, out), e.v("floor", [out]), e.v("ceil", [out])])
        elif mode == "floor":  # integer floor division: round toward -inf
            rem = e.binary("remainder", a, b)
            b_sign = e.v("sign", [e.broadcast_pair(b, rem)[0]])
            wrong = e.v("and", [e.compare(rem, e.scalar(0, elem), "NE"),
                                e.compare(e.v("sign", [rem]), b_sign, "NE")])
            out = e.v("select", [wrong, e.binary("subtract", out, e.scalar(1, elem)), out])
        return out
    return rule


for _name, _hlo in BINARY.items():
    aten(f"{_name}.Tensor", f"{_name}.Scalar", group=G)(_binary(_hlo))
aten("maximum.default", group=G)(_binary("maximum"))  # torch.maximum(x, y), torch.max(x, y)
aten("minimum.default", group=G)(_binary("minimum"))
aten("div.Tensor_mode", "div.Scalar_mode", group=G)(_binary("divide"))
aten("pow.Tensor_Tensor", group=G)(_binary("power"))
_POWER = _binary("power")


@aten("pow.Tensor_Scalar", group=G)
def pow_tensor_scalar(e, n):
    """x ** 2, 3 or 4 as products (GPT-2's GELU takes x ** 3.0: a general power was 35% of
    its time at batch 32); other exponents mhlo.power."""
    p, elem = n.arg("exponent"), n.out_elem()
    if isinstance(p, (int, float)) and not isinstance(p, bool) and p in (2, 3, 4) \
            and elem in FLOATS:
        x = e.scalar(n.arg("self"), elem)
        x2 = e.v("multiply", [x, x])
        return {2: x2, 3: e.v("multiply", [x2, x]), 4: e.v("multiply", [x2, x2])}[int(p)]
    return _POWER(e, n)


@aten("exp2.default", "log2.default", group=G)
def exp2_log2(e, n):
    """2 ** x as exp(x ln 2), log2(x) as log(x) / ln 2."""
    x = e.scalar(n.arg("self"), n.out_elem())
    ln2 = e.scalar(math.log(2.0), x.type.elem)
    if e.target.startswith("aten.exp2"):
        return e.v("exponential", [e.binary("multiply", x, ln2)])
    return e.binary("divide", e.v("log", [x]), ln2)


@aten("remainder.Tensor", "remainder.Scalar", group=G)
def remainder(e, n):
    """Python's modulo: the sign of the divisor (mhlo's remainder has the dividend's)."""
    elem = n.out_elem()
    a, b = e.broadcast_pair(e.scalar(n.arg("self"), elem), e.scalar(n.arg("other"), elem))
    r = e.v("remainder", [a, b])
    zero = e.scalar(0, elem)
    off = e.v("and", [e.compare(r, zero, "NE"),
                      e.compare(e.compare(r, zero, "LT"), e.compare(b, zero, "LT"), "NE")])
    return e.v("select", [off, e.v("add", [r, b]), r])


@aten("pow.Scalar", group=G)
def pow_scalar(e, n):
    elem = n.out_elem()
    return e.binary("power", e.scalar(n.arg("self"), elem), e.scalar(n.arg("exponent"), elem))


@aten("rsub.Scalar", "rsub.Tensor", group=G)
def rsub(e, n):
    elem = n.out_elem()
    b = e.scalar(n.arg("self"), elem)
    alpha = n.arg("alpha", 1)
    if alpha != 1:
        b = e.binary("multiply", b, e.scalar(alpha, elem))
    return e.binary("subtract", e.scalar(n.arg("other"), elem), b)


@aten("clamp.default", "clamp.Tensor", "clamp_min.default", "clamp_max.default",
      "clamp_min.Tensor", "clamp_max.Tensor", "hardtanh.default", group=G)
def clamp(e, n):
    elem = n.out_elem()
    x = e.scalar(n.arg("self"), elem)
    tanh = "hardtanh" in e.target
    lo = n.arg("min", None) if "min" in n.inputs else n.arg("min_val", -1.0 if tanh else None)
    hi = n.arg("max", None) if "max" in n.inputs else n.arg("max_val", 1.0 if tanh else None)
    if e.target.startswith("aten.clamp_max"):
        lo, hi = None, n.arg("max")
    if lo is not None:
        x = e.binary("maximum", x, e.scalar(lo, elem))
    if hi is not None:
        x = e.binary("minimum", x, e.scalar(hi, elem))
    return x


def _compare(direction):
    def rule(e: TorchEmitter, n):
        """Compared in the tensors' promoted type (a Python float against an integer tensor
        makes it f32, as PyTorch's scalar rules do)."""
        a, b = n.arg("self"), n.arg("other")
        elem = promote(*(v.type.elem for v in (a, b) if isinstance(v, Value)))
        if elem not in FLOATS and any(isinstance(v, float) for v in (a, b)):
            elem = "f32"
        return e.compare(e.scalar(a, elem), e.scalar(b, elem), direction)
    return rule


for _name, _dir in COMPARE.items():
    aten(f"{_name}.Tensor", f"{_name}.Scalar", group="comparison and logic")(_compare(_dir))


def _logical(hlo):
    def rule(e, n):
        a, b = (e.scalar(n.arg(k), "i1") if n.arg(k).type.elem == "i1" else
                e.compare(n.arg(k), e.scalar(0, n.arg(k).type.elem), "NE") for k in ("self", "other"))
        return e.binary(hlo, a, b)
    return rule


for _name, _hlo in LOGICAL.items():
    aten(f"{_name}.default", group="comparison and logic")(_logical(_hlo))


@aten("logical_not.default", "bitwise_not.default", group="comparison and logic")
def logical_not(e, n):
    x = n.arg("self")
    if e.target.startswith("aten.logical_not") and x.type.elem != "i1":
        return e.compare(x, e.scalar(0, x.type.elem), "EQ")
    return e.v("not", [x])


@aten("isnan.default", group="comparison and logic")
def isnan(e, n):
    x = n.arg("self")
    return e.compare(x, x, "NE")


@aten("masked_fill.Scalar", "masked_fill.Tensor", group="comparison and logic")
def masked_fill(e, n):
    """value where mask, else self (an attention mask's -inf); the mask broadcasts to self."""
    elem = n.out_elem()
    x, value = e.scalar(n.arg("self"), elem), e.scalar(n.arg("value"), elem)
    mask = n.arg("mask")
    if mask.type.elem != "i1":
        mask = e.compare(mask, e.scalar(0, mask.type.elem), "NE")
    mask, value, x = e.broadcast_all([mask, value, x])
    return e.v("select", [mask, value, x])


@aten("where.self", "where.ScalarSelf", "where.ScalarOther", "where.Scalar", group="comparison and logic")
def where(e, n):
    elem = n.out_elem()
    c, a, b = n.arg("condition"), n.arg("self"), n.arg("other")
    a = e.scalar(a, elem)
    b = e.scalar(b, elem)
    if c.type.elem != "i1":
        c = e.compare(c, e.scalar(0, c.type.elem), "NE")
    c, a, b = e.broadcast_all([c, a, b])
    return e.v("select", [c, a, b])


# ---------------------------------------------------------------- activations

A = "activations"


@aten("relu.default", group=A)
def relu(e, n):
    x = n.arg("self")
    return e.binary("maximum", x, e.scalar(0, x.type.elem))


@aten("relu6.default", group=A)
def relu6(e, n):
    x = e.scalar(n.arg("self"), n.out_elem())
    return e.binary("minimum", e.binary("maximum", x, e.scalar(0, x.type.elem)),
                    e.scalar(6, x.type.elem))


@aten("softplus.default", group=A)
def softplus(e, n):
    """log(1 + exp(beta x)) / beta, and x itself where beta x is above `threshold`."""
    x = e.scalar(n.arg("self"), n.out_elem())
    beta, threshold = n.arg("beta", 1), n.arg("threshold", 20)
    bx = x if beta == 1 else e.binary("multiply", x, e.scalar(beta, x.type.elem))
    soft = e.v("log_plus_one", [e.v("exponential", [bx])])
    if beta != 1:
        soft = e.binary("divide", soft, e.scalar(beta, x.type.elem))
    over = e.compare(bx, e.scalar(threshold, x.type.elem), "GT")
    return e.v("select", [over, x, soft])


@aten("gelu.default", group=A)
def gelu(e, n):
    """0.5 x (1 + erf(x / sqrt 2)), or with approximate='tanh' 0.5 x (1 + tanh(sqrt(2/pi)
    (x + 0.044715 x^3)))."""
    x = n.arg("self")
    el = x.type.elem

    def c(v):
        return e.scalar(v, el)
    if n.arg("approximate", "none") == "tanh":
        inner = e.binary("multiply", e.binary("add", x, e.binary(
            "multiply", c(0.044715), e.binary("multiply", x, e.binary("multiply", x, x)))),
            c(math.sqrt(2 / math.pi)))
        t = e.v("tanh", [inner])
    else:
        t = e.v("erf", [e.binary("multiply", x, c(1 / math.sqrt(2)))])
    return e.binary("multiply", e.binary("multiply", x, c(0.5)), e.binary("add", t, c(1.0)))


@aten("silu.default", group=A)
def silu(e, n):
    x = n.arg("self")
    return e.v("multiply", [x, e.v("logistic", [x])])


@aten("leaky_relu.default", group=A)
def leaky_relu(e, n):
    x = n.arg("self")
    slope = e.scalar(n.arg("negative_slope", 0.01), x.type.elem)
    return e.v("select", [_ge0(e, x), x, e.binary("multiply", x, slope)])


@aten("elu.default", group=A)
def elu(e, n):
    x = n.arg("self")
    el = x.type.elem
    alpha, scale, in_scale = (n.arg(k, 1.0) for k in ("alpha", "scale", "input_scale"))
    scaled = e.binary("multiply", x, e.scalar(in_scale, el))
    neg = e.binary("multiply", e.v("exponential_minus_one", [scaled]), e.scalar(alpha, el))
    return e.binary("multiply", e.v("select", [_ge0(e, x), x, neg]), e.scalar(scale, el))


@aten("hardsigmoid.default", "hardswish.default", group=A)
def hard(e, n):
    """relu6(x + 3) / 6, times x for hardswish."""
    x = n.arg("self")
    el = x.type.elem
    h = e.binary("minimum", e.binary("maximum", e.binary("add", x, e.scalar(3, el)), e.scalar(0, el)),
                 e.scalar(6, el))
    h = e.binary("divide", h, e.scalar(6, el))
    return e.v("multiply", [x, h]) if "hardswish" in e.target else h


def softmax_of(e: TorchEmitter, x, axis: int, log: bool):
    m = e.spread(e.reduce(x, [axis], "maximum", -np.inf), x, [axis])
    s = e.v("subtract", [x, m])
    z = e.v("exponential", [s])
    total = e.spread(e.reduce(z, [axis], "add", 0), x, [axis])
    if log:
        return e.v("subtract", [s, e.v("log", [total])])
    return e.v("divide", [z, total])


@aten("_softmax.default", "_log_softmax.default", group=A)
def softmax(e, n):
    """exp(x - max) / sum along `dim` (log: x - max - log sum)."""
    x = e.convert(n.arg("self"), n.out_elem())
    return softmax_of(e, x, e.axis(n.arg("dim"), x.type.rank), "log" in e.target)


# ---------------------------------------------------------------- normalization

N = "normalization"


@aten("native_layer_norm.default", group=N)
def layer_norm(e, n):
    """(x - mean) * rsqrt(var + eps) * weight + bias over the trailing normalized dims;
    also the mean and rstd (kept dims), as ATen returns them."""
    x = n.arg("input")
    k = len(n.arg("normalized_shape"))
    axes = list(range(x.type.rank - k, x.type.rank))
    mean, rstd, y = _normalize(e, x, axes, n.arg("eps"))
    w, b = n.arg("weight", None), n.arg("bias", None)
    if w is not None:
        y = e.binary("multiply", y, w)
    if b is not None:
        y = e.binary("add", y, b)
    return [y, e.keep_dims(mean, x, axes), e.keep_dims(rstd, x, axes)]


def _normalize(e, x, axes, eps):
    el = x.type.elem
    dims = e.dims(x)
    count = e.product([dims[a] for a in axes])
    cnt = e.scalar(count, el)
    mean = e.binary("divide", e.reduce(x, axes, "add", 0), cnt)
    centered = e.v("subtract", [x, e.spread(mean, x, axes)])
    var = e.binary("divide", e.reduce(e.v("multiply", [centered, centered]), axes, "add", 0), cnt)
    rstd = e.v("rsqrt", [e.binary("add", var, e.scalar(eps, el))])
    return mean, rstd, e.v("multiply", [centered, e.spread(rstd, x, axes)])


@aten("_native_batch_norm_legit_no_training.default", group=N)
def batch_norm(e, n):
    """Eval-mode batch norm with the running statistics: x * scale + shift per channel
    (dim 1), scale = weight * rsqrt(var + eps), shift = bias - mean * scale."""
    x = n.arg("input")
    el = x.type.elem
    mean, var = n.arg("running_mean"), n.arg("running_var")
    scale = e.v("rsqrt", [e.binary("add", var, e.scalar(n.arg("eps"), el))])
    w, b = n.arg("weight", None), n.arg("bias", None)
    if w is not None:
        scale = e.v("multiply", [scale, w])
    shift = e.v("negate", [e.v("multiply", [mean, scale])])
    if b is not None:
        shift = e.v("add", [shift, b])
    dims = e.dims(x)
    y = e.v("multiply", [x, e.broadcast_to(scale, dims, x.type.shape, mapping=(1,))])
    y = e.v("add", [y, e.broadcast_to(shift, dims, x.type.shape, mapping=(1,))])
    empty = e.const(np.zeros(0), el, (0,))
    return [y, empty, empty]


@aten("native_group_norm.default", group=N)
def group_norm(e, n):
    """x [N, C, *] as [N, G, C/G * rest], normalized over the last, then weight and bias
    per channel."""
    x = n.arg("input")
    g = n.arg("group")
    dims = e.dims(x)
    c = dims[1]
    if not isinstance(c, int):
        raise e.error("the channel dim must be static")
    rest = e.product(dims[2:])
    grouped = e.reshape(x, [dims[0], g, e.product([c // g, rest]) if not isinstance(rest, int)
                            else c // g * rest])
    mean, rstd, y = _normalize(e, grouped, [2], n.arg("eps"))
    y = e.reshape(y, dims)
    w, b = n.arg("weight", None), n.arg("bias", None)
    if w is not None:
        y = e.v("multiply", [y, e.broadcast_to(w, dims, x.type.shape, mapping=(1,))])
    if b is not None:
        y = e.v("add", [y, e.broadcast_to(b, dims, x.type.shape, mapping=(1,))])
    return [y, mean, rstd]


# ---------------------------------------------------------------- reductions

R = "reductions"


def _reduce_rule(body, init, mean=False):
    def rule(e: TorchEmitter, n):
        x = n.arg("self")
        elem = n.out_elem()
        if body == "add":
            x = e.convert(x, elem)
        axes = e.axes(n.arg("dim", None), x.type.rank)
        start = init if not callable(init) else init(e, x.type.elem)
        out = e.reduce(x, axes, body, start)
        if mean:
            dims = e.dims(x)
            out = e.binary("divide", out, e.scalar(e.product([dims[a] for a in axes]), elem))
        return e.keep_dims(out, x, axes) if n.arg("keepdim", False) else out
    return rule


aten("sum.dim_IntList", "sum.default", group=R)(_reduce_rule("add", 0))
aten("mean.dim", "mean.default", group=R)(_reduce_rule("add", 0, mean=True))
aten("amax.default", "max.default", group=R)(_reduce_rule("maximum", lambda e, el: e.init("max", el)))
aten("amin.default", "min.default", group=R)(_reduce_rule("minimum", lambda e, el: e.init("min", el)))
aten("prod.dim_int", "prod.default", group=R)(_reduce_rule("multiply", 1))


@aten("any.dim", "any.dims", "any.default", "all.dim", "all.dims", "all.default", group=R)
def any_all(e, n):
    x = n.arg("self")
    if x.type.elem != "i1":
        x = e.compare(x, e.scalar(0, x.type.elem), "NE")
    is_any = e.target.startswith("aten.any")
    axes = e.axes(n.arg("dim", None), x.type.rank)
    out = e.reduce(x, axes, "or" if is_any else "and", not is_any)
    return e.keep_dims(out, x, axes) if n.arg("keepdim", False) else out


@aten("var.correction", "var_mean.correction", "var.dim", "std.correction", "std.dim",
      "std_mean.correction", "std_mean.dim", "var_mean.dim", group=R)
def var(e, n):
    """The sum of squared deviations over (count - correction) (var.dim and std.dim: 1 if
    `unbiased`, else 0); std takes its square root; the _mean forms add the mean."""
    x = n.arg("self")
    axes = e.axes(n.arg("dim", None), x.type.rank)
    el = x.type.elem
    dims = e.dims(x)
    count = e.product([dims[a] for a in axes])
    mean = e.binary("divide", e.reduce(x, axes, "add", 0), e.scalar(count, el))
    c = e.v("subtract", [x, e.spread(mean, x, axes)])
    if "unbiased" in n.inputs or e.target.endswith(".dim"):
        corr = 1 if n.arg("unbiased", True) else 0
    else:
        corr = n.arg("correction", 1)
        corr = 1 if corr is None else corr
    denom = e.binary("subtract", e.scalar(count, el), e.scalar(corr, el))
    v = e.binary("divide", e.reduce(e.v("multiply", [c, c]), axes, "add", 0), denom)
    if e.target.startswith("aten.std"):
        v = e.v("sqrt", [v])
    keep = n.arg("keepdim", False)
    out = [e.keep_dims(v, x, axes) if keep else v]
    if "_mean" in e.target:
        out.append(e.keep_dims(mean, x, axes) if keep else mean)
    return out


def arg_reduce(e: TorchEmitter, x, axis: int, kind: str):
    """(values, i64 indices) of a reduce of (value, iota) pairs keeping the extreme value's
    first index; NaN wins, as in PyTorch."""
    from lowering.ir.core import Block, Operation, Region
    from lowering.tf.emitter import Emitter
    el, idx = x.type.elem, "i64"
    t, ti = TensorType((), el), TensorType((), idx)
    block = Block([t, ti, t, ti])
    a, ia, b, ib = block.args
    inner = Emitter(block, e.loc)
    better = inner.compare(a, b, "GT" if kind == "max" else "LT")
    if el in FLOATS:
        better = inner.v("or", [better, inner.compare(a, a, "NE")])
    tie = inner.v("and", [inner.compare(a, b, "EQ"), inner.compare(ia, ib, "LT")])
    block.append(Operation("mhlo.return", [inner.v("select", [better, a, b]),
                                           inner.v("select", [inner.v("or", [better, tie]), ia, ib])],
                           (), {}, (), e.loc))
    iota = e.iota(e.dims(x), axis, idx)
    init = [e.const(e.init(kind, el), el, ()), e.const(0, idx, ())]
    red = e.op("reduce", [x, iota] + init, {"dimensions": (axis,)}, regions=[Region([block])], n=2)
    return red.results[0], red.results[1]


@aten("max.dim", "min.dim", group=R)
def max_dim(e, n):
    x = n.arg("self")
    axis = e.axis(n.arg("dim"), x.type.rank)
    vals, idx = arg_reduce(e, x, axis, "max" if e.target.startswith("aten.max") else "min")
    if n.arg("keepdim", False):
        return [e.keep_dims(vals, x, [axis]), e.keep_dims(idx, x, [axis])]
    return [vals, idx]


@aten("argmax.default", "argmin.default", group=R)
def argmax(e, n):
    x = n.arg("self")
    dim = n.arg("dim", None)
    keep = n.arg("keepdim", False)
    src = x
    if dim is None:
        src = e.reshape(x, [e.product(e.dims(x))])
        axis = 0
    else:
        axis = e.axis(dim, x.type.rank)
    _, idx = arg_reduce(e, src, axis, "max" if "argmax" in e.target else "min")
    if keep and dim is not None:
        return e.keep_dims(idx, x, [axis])
    if keep:
        return e.reshape(idx, [1] * x.type.rank)
    return idx


@aten("cumsum.default", "cumprod.default", group=R)
def cumsum(e, n):
    """The running sum (product for cumprod) along `dim`, in the result's element type."""
    x = e.convert(n.arg("self"), n.out_elem())
    product = e.target.startswith("aten.cumprod")
    return cumulative(e, x, e.axis(n.arg("dim"), x.type.rank), "multiply" if product else "add",
                      1 if product else 0)


def cumulative(e: TorchEmitter, x: Value, axis: int, body: str, init) -> Value:
    """The running `body` (add, multiply, maximum, ..., or a region) of x along `axis`: a reduce_window
    over the whole axis, padded in front by its size - 1 (a dynamic_reduce_window, its
    window read at run time, along a dynamic dim)."""
    r = x.type.rank
    size = e.dims(x)[axis]
    region = [body if isinstance(body, Region) else e.scalar_region(x.type.elem, body)]
    init = e.const(init, x.type.elem, ())
    if isinstance(size, int):
        window = tuple(size if i == axis else 1 for i in range(r))
        pad = [[size - 1, 0] if i == axis else [0, 0] for i in range(r)]
        return e.op("reduce_window", [x, init],
                    {"window_dimensions": window, "window_strides": (1,) * r, "padding": pad},
                    regions=region).result
    before = e.v("subtract", [size, e.scalar(1, "i32")])
    window = e.shape_tensor([size if i == axis else 1 for i in range(r)])
    pad = e.reshape(e.shape_tensor([v for i in range(r) for v in ((before, 0) if i == axis
                                                                   else (0, 0))]), [r, 2])
    ones = e.shape_tensor([1] * r)
    return e.op("dynamic_reduce_window", [x, init, window, ones, ones, ones, pad],
                result_types=[x.type], regions=region).result


# ---------------------------------------------------------------- more elementwise math

@aten("log10.default", group=G)
def log10(e, n):
    x = e.scalar(n.arg("self"), n.out_elem())
    return e.binary("divide", e.v("log", [x]), e.scalar(math.log(10.0), x.type.elem))


@aten("hypot.default", group=G)
def hypot(e, n):
    """sqrt(a^2 + b^2)."""
    elem = n.out_elem()
    a, b = e.broadcast_pair(e.scalar(n.arg("self"), elem), e.scalar(n.arg("other"), elem))
    return e.v("sqrt", [e.v("add", [e.v("multiply", [a, a]), e.v("multiply", [b, b])])])


def _negative(e, x):
    """x's sign bit: x < 0, or -0.0 (1 / x is -inf) for floats."""
    zero = e.scalar(0, x.type.elem)
    below = e.compare(x, e.broadcast_pair(zero, x)[0], "LT")
    if x.type.elem not in FLOATS:
        return below
    inv = e.binary("divide", e.scalar(1, x.type.elem), x)
    return e.v("or", [below, e.compare(inv, e.broadcast_pair(zero, inv)[0], "LT")])


@aten("signbit.default", group=G)
def signbit(e, n):
    return _negative(e, n.arg("self"))


@aten("copysign.Tensor", "copysign.Scalar", group=G)
def copysign(e, n):
    """|self| with other's sign (-0.0 counting as negative)."""
    elem = n.out_elem()
    a, b = e.broadcast_pair(e.scalar(n.arg("self"), elem), e.scalar(n.arg("other"), elem))
    mag = e.v("abs", [a])
    return e.v("select", [_negative(e, b), e.v("negate", [mag]), mag])


@aten("isinf.default", "isposinf.default", "isneginf.default", "isfinite.default",
      group="comparison and logic")
def isinf(e, n):
    """|x| == inf (isposinf: x == inf, isneginf: x == -inf); isfinite: neither inf nor NaN;
    integers are always finite."""
    x = n.arg("self")
    finite = e.target.startswith("aten.isfinite")
    if x.type.elem not in FLOATS:
        return e.broadcast_to(e.scalar(finite, "i1"), e.dims(x), x.type.shape)
    if finite:
        return e.v("is_finite", [x])
    inf = e.broadcast_pair(e.scalar(np.inf, x.type.elem), x)[0]
    if e.target.startswith("aten.isposinf"):
        return e.compare(x, inf, "EQ")
    if e.target.startswith("aten.isneginf"):
        return e.compare(x, e.v("negate", [inf]), "EQ")
    return e.compare(e.v("abs", [x]), inf, "EQ")


def _shift(hlo):
    def rule(e, n):
        """Integer shifts (`x << k`, `x >> k`; right shifts keep the sign, as PyTorch)."""
        elem = n.out_elem()
        return e.binary(hlo, e.scalar(n.arg("self"), elem), e.scalar(n.arg("other"), elem))
    return rule


aten("__lshift__.Scalar", "__lshift__.Tensor", "bitwise_left_shift.Tensor",
     "bitwise_left_shift.Tensor_Scalar", group=G)(_shift("shift_left"))
aten("__rshift__.Scalar", "__rshift__.Tensor", "bitwise_right_shift.Tensor",
     "bitwise_right_shift.Tensor_Scalar", group=G)(_shift("shift_right_arithmetic"))


# ---------------------------------------------------------------- norms and distances

def _p_norm(e, x, axes, p):
    """(sum |x|^p)^(1/p) over axes; p inf/-inf: the max/min of |x|; p 0: the count of
    non-zeros; p 1 and 2 without powers."""
    a = e.v("abs", [x])
    el = x.type.elem
    if p in (math.inf, -math.inf):
        kind = "max" if p > 0 else "min"
        return e.reduce(a, axes, "maximum" if p > 0 else "minimum", e.init(kind, el))
    if p == 0:
        nz = e.convert(e.compare(a, e.broadcast_pair(e.scalar(0, el), a)[0], "NE"), el)
        return e.reduce(nz, axes, "add", 0)
    if p == 1:
        return e.reduce(a, axes, "add", 0)
    if p == 2:
        return e.v("sqrt", [e.reduce(e.v("multiply", [a, a]), axes, "add", 0)])
    powered = e.binary("power", a, e.scalar(p, el))
    return e.binary("power", e.reduce(powered, axes, "add", 0), e.scalar(1.0 / p, el))


@aten("linalg_vector_norm.default", "norm.ScalarOpt_dim", "norm.Scalar", group=R)
def vector_norm(e, n):
    """The p-norm (`ord`, default 2) over `dim` (every dim without one)."""
    x = e.convert(n.arg("self"), n.out_elem())
    p = n.arg("ord", None) if "ord" in n.inputs else n.arg("p", None)
    p = 2 if p is None else p
    axes = e.axes(n.arg("dim", None), x.type.rank)
    out = _p_norm(e, x, axes, float(p))
    return e.keep_dims(out, x, axes) if n.arg("keepdim", False) else out


@aten("dist.default", group=R)
def dist(e, n):
    """The p-norm of self - other over every element."""
    elem = n.out_elem()
    d = e.binary("subtract", e.scalar(n.arg("self"), elem), e.scalar(n.arg("other"), elem))
    return _p_norm(e, d, list(range(d.type.rank)), float(n.arg("p", 2)))


@aten("_cdist_forward.default", "cdist.default", group=R)
def cdist(e, n):
    """[..., P, M] and [..., R, M] -> [..., P, R] p-norm distances, each pair's difference
    formed in full (exact, where PyTorch's p=2 form for more than 25 rows goes through a
    product)."""
    a, b = n.arg("x1"), n.arg("x2")
    r = a.type.rank
    da, db = e.dims(a), e.dims(b)
    both = da[:-1] + [db[-2], da[-1]]
    lead = tuple(range(r - 2))
    wa = e.broadcast_to(a, both, mapping=lead + (r - 2, r))
    wb = e.broadcast_to(b, both, mapping=lead + (r - 1, r))
    return _p_norm(e, e.v("subtract", [wa, wb]), [r], float(n.arg("p", 2)))


@aten("logsumexp.default", group=R)
def logsumexp(e, n):
    """log(sum(exp(x - max))) + max over `dim` (an all -inf line gives -inf)."""
    x = e.convert(n.arg("self"), n.out_elem())
    axes = e.axes(n.arg("dim", None), x.type.rank)
    m = e.reduce(x, axes, "maximum", -np.inf)
    finite = e.v("is_finite", [m])
    m = e.v("select", [finite, m, e.broadcast_pair(e.scalar(0, x.type.elem), m)[0]])
    s = e.reduce(e.v("exponential", [e.v("subtract", [x, e.spread(m, x, axes)])]), axes, "add", 0)
    out = e.v("add", [e.v("log", [s]), m])
    return e.keep_dims(out, x, axes) if n.arg("keepdim", False) else out


@aten("_native_batch_norm_legit.no_stats", "instance_norm.default", group=N)
def instance_norm(e, n):
    """Normalized by the input's own statistics per channel: over every dim but 1
    (_native_batch_norm_legit.no_stats, what instance_norm decomposes to after a reshape),
    or over the spatial dims of each sample and channel (instance_norm), then weight and
    bias per channel. instance_norm with use_input_stats=False is eval batch norm."""
    x = n.arg("input")
    dims = e.dims(x)
    inst = e.target.startswith("aten.instance_norm")
    if inst and not n.arg("use_input_stats", True):
        raise e.error("instance_norm with running statistics (use_input_stats=False) is "
                      "not supported yet")
    axes = list(range(2, x.type.rank)) if inst else [0] + list(range(2, x.type.rank))
    mean, rstd, y = _normalize(e, x, axes, n.arg("eps"))
    w, b = n.arg("weight", None), n.arg("bias", None)
    if w is not None:
        y = e.v("multiply", [y, e.broadcast_to(w, dims, x.type.shape, mapping=(1,))])
    if b is not None:
        y = e.v("add", [y, e.broadcast_to(b, dims, x.type.shape, mapping=(1,))])
    return y if inst else [y, mean, rstd]


@aten("logcumsumexp.default", group=R)
def logcumsumexp(e, n):
    """The running log(sum(exp(x))) along `dim`: a running logaddexp, max(a, b) +
    log1p(exp(-|a - b|)) (a + log 2 when a == b, -inf with -inf among them)."""
    from lowering.ir.core import Block, Operation
    x = e.convert(n.arg("self"), n.out_elem())
    el = x.type.elem
    t = TensorType((), el)
    block = Block([t, t])
    a, b = block.args
    inner = type(e)(block, e.loc, e.target, e.code)
    hi = inner.v("maximum", [a, b])
    gap = inner.v("negate", [inner.v("abs", [inner.v("subtract", [a, b])])])
    gap = inner.v("select", [inner.compare(a, b, "EQ"), inner.const(0, el, ()), gap])
    block.append(Operation("mhlo.return", [inner.v("add", [hi, inner.v(
        "log_plus_one", [inner.v("exponential", [gap])])])], (), {}, (), e.loc))
    return cumulative(e, x, e.axis(n.arg("dim"), x.type.rank), Region([block]), -np.inf)


@aten("histc.default", group=R)
def histc(e, n):
    """Counts of the elements in `bins` equal bins over [min, max] (the data's own extremes
    when both are 0), the top edge in the last bin, elements outside ignored: a [count,
    bins] table of bin == j summed."""
    x = n.arg("self")
    el = x.type.elem
    flat = e.reshape(x, [e.product(e.dims(x))])
    bins, lo, hi = int(n.arg("bins", 100)), float(n.arg("min", 0)), float(n.arg("max", 0))
    if lo == hi == 0:
        lo_v, hi_v = e.reduce(flat, [0], "minimum", np.inf), e.reduce(flat, [0], "maximum", -np.inf)
    else:
        lo_v, hi_v = e.scalar(lo, el), e.scalar(hi, el)
    same = e.compare(lo_v, hi_v, "EQ")  # PyTorch widens an empty range by 1 each side
    lo_v = e.v("select", [same, e.v("subtract", [lo_v, e.scalar(1, el)]), lo_v])
    hi_v = e.v("select", [same, e.v("add", [hi_v, e.scalar(1, el)]), hi_v])
    scaled = e.binary("divide", e.binary("multiply", e.binary("subtract", flat, lo_v),
                                         e.scalar(bins, el)), e.binary("subtract", hi_v, lo_v))
    idx = e.convert(e.v("floor", [scaled]), "i64")
    top = e.compare(flat, e.broadcast_pair(hi_v, flat)[0], "EQ")
    idx = e.v("select", [top, e.broadcast_pair(e.scalar(bins - 1, "i64"), idx)[0], idx])
    inside = e.v("and", [e.compare(flat, e.broadcast_pair(lo_v, flat)[0], "GE"),
                         e.compare(flat, e.broadcast_pair(hi_v, flat)[0], "LE")])
    idx = e.v("select", [inside, idx, e.broadcast_pair(e.scalar(-1, "i64"), idx)[0]])
    dims = e.dims(flat) + [bins]
    table = e.compare(e.broadcast_to(idx, dims, mapping=(0,)), e.iota(dims, 1, "i64"), "EQ")
    return e.reduce(e.convert(table, el), [0], "add", 0)
