"""TF math ops: elementwise (with TF's implicit numpy broadcasting), comparisons, casts,
activations, contractions (MatMul, BatchMatMulV2, BiasAdd, Conv2D, pools), softmax,
reductions and ArgMax/ArgMin, each lowered to the mhlo ops that compute it."""
from __future__ import annotations

import numpy as np

from lowering.ir.core import Block, Operation, Region, TensorType
from lowering.tf.emitter import FLOATS, Emitter, result_elem
from lowering.tf.table import tf_op

# ---------------------------------------------------------------- elementwise

UNARY = {
    "Abs": "abs", "Neg": "negate", "Exp": "exponential", "Log": "log", "Log1p": "log_plus_one",
    "Expm1": "exponential_minus_one", "Sqrt": "sqrt", "Rsqrt": "rsqrt", "Tanh": "tanh",
    "Sigmoid": "logistic", "Sin": "sine", "Cos": "cosine", "Tan": "tan", "Floor": "floor",
    "Ceil": "ceil", "Round": "round_nearest_even", "Rint": "round_nearest_even",
    "Sign": "sign", "Erf": "erf", "Erfc": "erfc", "LogicalNot": "not", "Invert": "not",
    "IsFinite": "is_finite", "Asin": "asin", "Acos": "acos", "Atan": "atan", "Sinh": "sinh",
    "Cosh": "cosh", "Asinh": "asinh", "Acosh": "acosh", "Atanh": "atanh", "Lgamma": "lgamma",
    "Digamma": "digamma",
}
BINARY = {
    "AddV2": "add", "Add": "add", "Sub": "subtract", "Mul": "multiply", "RealDiv": "divide",
    "Div": "divide", "TruncateDiv": "divide", "Maximum": "maximum", "Minimum": "minimum",
    "Pow": "power", "Atan2": "atan2", "BitwiseAnd": "and", "BitwiseOr": "or",
    "BitwiseXor": "xor", "LogicalAnd": "and", "LogicalOr": "or", "LeftShift": "shift_left",
    "TruncateMod": "remainder", "Mod": "remainder",
}
COMPARE = {"Greater": "GT", "GreaterEqual": "GE", "Less": "LT", "LessEqual": "LE",
           "Equal": "EQ", "NotEqual": "NE"}


def _unary(name):
    def rule(e: Emitter, op, args):
        """A one-to-one elementwise op."""
        return [e.v(name, [args[0]])]
    return rule


def _binary(name):
    def rule(e: Emitter, op, args):
        """A two-operand elementwise op after numpy broadcasting."""
        return [e.binary(name, args[0], args[1])]
    return rule


def _compare(direction):
    def rule(e: Emitter, op, args):
        return [e.compare(args[0], args[1], direction)]
    return rule


for _tf, _hlo in UNARY.items():
    tf_op(_tf, group="elementwise math")(_unary(_hlo))
for _tf, _hlo in BINARY.items():
    group = "comparison and logic" if _tf.startswith(("Logical", "Bitwise")) else "elementwise math"
    tf_op(_tf, group=group)(_binary(_hlo))
for _tf, _dir in COMPARE.items():
    tf_op(_tf, group="comparison and logic")(_compare(_dir))


@tf_op("RightShift", group="elementwise math")
def right_shift(e, op, args):
    """Arithmetic for signed integers, logical for unsigned (C++'s >>, as TF)."""
    a = args[0]
    name = "shift_right_logical" if a.type.elem.startswith("ui") else "shift_right_arithmetic"
    return [e.binary(name, a, args[1])]


@tf_op("Square", group="elementwise math")
def square(e, op, args):
    return [e.v("multiply", [args[0], args[0]])]


@tf_op("Reciprocal", "Inv", group="elementwise math")
def reciprocal(e, op, args):
    x = args[0]
    return [e.binary("divide", e.const(1, x.type.elem, ()), x)]


@tf_op("SquaredDifference", group="elementwise math")
def squared_difference(e, op, args):
    d = e.binary("subtract", args[0], args[1])
    return [e.v("multiply", [d, d])]


@tf_op("FloorDiv", group="elementwise math")
def floor_div(e, op, args):
    """floor(x / y): for floats the floor of the quotient; for integers the truncated
    quotient minus one where the remainder is non-zero and the signs differ."""
    x, y = e.broadcast_pair(args[0], args[1])
    if x.type.elem in FLOATS:
        return [e.v("floor", [e.v("divide", [x, y])])]
    q = e.v("divide", [x, y])
    r = e.v("remainder", [x, y])
    zero = e.const(0, x.type.elem, ())
    fix = e.v("and", [e.compare(r, zero, "NE"),
                      e.compare(e.compare(x, zero, "LT"), e.compare(y, zero, "LT"), "NE")])
    return [e.select(fix, e.binary("subtract", q, e.const(1, x.type.elem, ())), q)]


@tf_op("FloorMod", group="elementwise math")
def floor_mod(e, op, args):
    """The remainder with the divisor's sign (Python's %): r + y where r is non-zero and
    r and y differ in sign."""
    x, y = e.broadcast_pair(args[0], args[1])
    r = e.v("remainder", [x, y])
    zero = e.const(0, x.type.elem, ())
    fix = e.v("and", [e.compare(r, zero, "NE"),
                      e.compare(e.compare(r, zero, "LT"), e.compare(y, zero, "LT"), "NE")])
    return [e.select(fix, e.v("add", [r, y]), r)]


@tf_op("DivNoNan", group="elementwise math")
def div_no_nan(e, op, args):
    x, y = e.broadcast_pair(args[0], args[1])
    zero = e.const(0, x.type.elem, ())
    return [e.select(e.compare(y, zero, "EQ"), e.const(0, x.type.elem, x.type.shape)
                     if x.type.is_static else e.broadcast_to(zero, e.dims(x)), e.v("divide", [x, y]))]


@tf_op("Cast", group="elementwise math")
def cast(e, op, args):
    """convert to the declared element type (bool results: x != 0, as mhlo's convert)."""
    elem = result_elem(op)
    if elem is None:
        raise e.error(f"cannot cast to {op.results[0].type}")
    return [e.convert(args[0], elem)]


@tf_op("Select", "SelectV2", group="comparison and logic")
def select(e, op, args):
    """select(pred, a, b), all three broadcast to one shape (Select's vector predicate that
    picks rows of a matrix is broadcast along dim 0)."""
    p, a, b = args
    a, b = e.broadcast_pair(a, b)
    if op.name == "tf.Select" and p.type.rank == 1 and a.type.rank > 1:
        p = e.broadcast_to(p, e.dims(a), a.type.shape, mapping=(0,))
    if p.type.shape != a.type.shape:
        dims = e.broadcast_dims(p, a)
        p, a, b = e.fit(p, dims), e.fit(a, dims), e.fit(b, dims)
    return [e.v("select", [p, a, b])]


@tf_op("ClipByValue", group="elementwise math")
def clip_by_value(e, op, args):
    x, lo, hi = args
    return [e.binary("minimum", e.binary("maximum", x, lo), hi)]


# ---------------------------------------------------------------- activations

def _zero(e, x):
    return e.const(0, x.type.elem, ())


@tf_op("Relu", group="activations")
def relu(e, op, args):
    return [e.binary("maximum", args[0], _zero(e, args[0]))]


@tf_op("Relu6", group="activations")
def relu6(e, op, args):
    x = args[0]
    return [e.binary("minimum", e.binary("maximum", x, _zero(e, x)), e.const(6, x.type.elem, ()))]


@tf_op("Elu", group="activations")
def elu(e, op, args):
    x = args[0]
    return [e.select(e.compare(x, _zero(e, x), "GT"), x, e.v("exponential_minus_one", [x]))]


@tf_op("Selu", group="activations")
def selu(e, op, args):
    x = args[0]
    alpha, scale = 1.6732632423543772, 1.0507009873554805
    neg = e.binary("multiply", e.v("exponential_minus_one", [x]), e.const(alpha, x.type.elem, ()))
    return [e.binary("multiply", e.select(e.compare(x, _zero(e, x), "GT"), x, neg),
                     e.const(scale, x.type.elem, ()))]


@tf_op("LeakyRelu", group="activations")
def leaky_relu(e, op, args):
    x = args[0]
    alpha = float(op.attrs.get("alpha", 0.2))
    return [e.select(e.compare(x, _zero(e, x), "GT"), x,
                     e.binary("multiply", x, e.const(alpha, x.type.elem, ())))]


@tf_op("Softplus", group="activations")
def softplus(e, op, args):
    """log(1 + exp(x)) computed as max(x, 0) + log1p(exp(-|x|)), which never overflows."""
    x = args[0]
    t = e.v("log_plus_one", [e.v("exponential", [e.v("negate", [e.v("abs", [x])])])])
    return [e.v("add", [e.binary("maximum", x, _zero(e, x)), t])]


@tf_op("Softsign", group="activations")
def softsign(e, op, args):
    x = args[0]
    return [e.v("divide", [x, e.binary("add", e.v("abs", [x]), e.const(1, x.type.elem, ()))])]


def _last_axis_reduce(e, x, body, init):
    axis = x.type.rank - 1
    r = e.reduce(x, [axis], body, init)
    return e.broadcast_to(r, e.dims(x), x.type.shape, mapping=tuple(range(axis)))


@tf_op("Softmax", group="activations")
def softmax(e, op, args):
    """exp(x - max) / sum, along the last dim."""
    x = args[0]
    z = e.v("exponential", [e.v("subtract", [x, _last_axis_reduce(e, x, "maximum", -np.inf)])])
    return [e.v("divide", [z, _last_axis_reduce(e, z, "add", 0)])]


@tf_op("LogSoftmax", group="activations")
def log_softmax(e, op, args):
    x = args[0]
    s = e.v("subtract", [x, _last_axis_reduce(e, x, "maximum", -np.inf)])
    lse = e.v("log", [_last_axis_reduce(e, e.v("exponential", [s]), "add", 0)])
    return [e.v("subtract", [s, lse])]


# ---------------------------------------------------------------- contractions


def _dot(e, a, b, batch, ca, cb):
    dn = {"lhs_batching_dimensions": tuple(batch), "rhs_batching_dimensions": tuple(batch),
          "lhs_contracting_dimensions": (ca,), "rhs_contracting_dimensions": (cb,)}
    return e.v("dot_general", [a, b], {"dot_dimension_numbers": dn})


@tf_op("MatMul", group="contractions and windows")
def matmul(e, op, args):
    a, b = args
    ta, tb = bool(op.attrs.get("transpose_a", False)), bool(op.attrs.get("transpose_b", False))
    return [_dot(e, a, b, (), 0 if ta else 1, 1 if tb else 0)]


@tf_op("BatchMatMul", "BatchMatMulV2", "BatchMatMulV3", group="contractions and windows")
def batch_matmul(e, op, args):
    """Batch dims broadcast (numpy style) to one shape, then one dot_general."""
    a, b = args
    adj_x, adj_y = bool(op.attrs.get("adj_x", False)), bool(op.attrs.get("adj_y", False))
    if b.type.rank == 2 and not adj_x:  # a shared matrix: contract a's last dim with it
        return [_dot(e, a, b, (), a.type.rank - 1, 1 if adj_y else 0)]
    r = max(a.type.rank, b.type.rank)
    da, db = e.dims(a), e.dims(b)
    batch = _broadcast_batch(e, a, b)
    want = e.static_dims(batch)
    if a.type.rank != r or e.static_dims(da[:-2]) != want:
        a = e.broadcast_to(a, batch + da[-2:])
    if b.type.rank != r or e.static_dims(db[:-2]) != want:
        b = e.broadcast_to(b, batch + db[-2:])
    nb = r - 2
    return [_dot(e, a, b, range(nb), nb if adj_x else nb + 1, nb + 1 if adj_y else nb)]


def _broadcast_batch(e, a, b):
    sa = TensorType(a.type.shape[:-2], a.type.elem)
    sb = TensorType(b.type.shape[:-2], b.type.elem)
    out = []
    ra, rb = len(sa.shape), len(sb.shape)
    r = max(ra, rb)
    for i in range(r):
        x = sa.shape[i - (r - ra)] if i >= r - ra else 1
        y = sb.shape[i - (r - rb)] if i >= r - rb else 1
        if x == y or y == 1:
            out.append(x if x is not None else e.v("get_dimension_size", [a], {"dimension": i - (r - ra)}))
        elif x == 1:
            out.append(y if y is not None else e.v("get_dimension_size", [b], {"dimension": i - (r - rb)}))
        else:
            out.append(x if x is not None else y)
    return out


def _channel_dim(e, op, rank):
    fmt = op.attrs.get("data_format", "NHWC")
    if fmt in ("NHWC", "NWC", "NDHWC", "N...C"):
        return rank - 1
    if fmt in ("NCHW", "NCW", "NCDHW", "NC..."):
        return 1
    raise e.error(f"data_format {fmt!r} is not supported")


@tf_op("BiasAdd", "BiasAddV1", group="contractions and windows")
def bias_add(e, op, args):
    x, bias = args
    c = _channel_dim(e, op, x.type.rank) if op.name == "tf.BiasAdd" else x.type.rank - 1
    return [e.v("add", [x, e.broadcast_to(bias, e.dims(x), x.type.shape, mapping=(c,))])]


def _spatial(e, op, rank):
    """(channel-last?, spatial dims of the input) from data_format."""
    c = _channel_dim(e, op, rank)
    return c == rank - 1, [d for d in range(1, rank) if d != c]


def _same_padding(e, size, k, s, d, what):
    if size is None:
        raise e.error(f"padding SAME needs static spatial dims ({what} is dynamic)")
    out = -(-size // s)
    total = max((out - 1) * s + (k - 1) * d + 1 - size, 0)
    return (total // 2, total - total // 2)


def _padding(e, op, x, spatial, ksizes, strides, dilations):
    """(low, high) per spatial dim. A window larger than the padded input along a static
    dim is an error, as in TensorFlow ("output size would be negative"); stablehlo would
    give an empty result."""
    kind = op.attrs.get("padding", "VALID")
    if kind == "VALID":
        pads = [(0, 0)] * len(spatial)
    elif kind == "SAME":
        pads = [_same_padding(e, x.type.shape[d], k, s, dl, f"dim {d}")
                for d, k, s, dl in zip(spatial, ksizes, strides, dilations)]
    elif kind == "EXPLICIT":
        flat = [int(v) for v in op.attrs.get("explicit_paddings", [])]
        if len(flat) != 2 * x.type.rank or any(v < 0 for v in flat):
            raise e.error(f"explicit_paddings must be 2 numbers, 0 or more, per dim of "
                          f"{x.type}, got {flat}")
        pads = [(flat[2 * d], flat[2 * d + 1]) for d in spatial]
    else:
        raise e.error(f"padding {kind!r} is not supported")
    for d, k, dl, (lo, hi) in zip(spatial, ksizes, dilations, pads):
        size = x.type.shape[d]
        if size is not None and size + lo + hi < (k - 1) * dl + 1:
            raise e.error(f"the window spans {(k - 1) * dl + 1} elements along dim {d} (its "
                          f"dilation included), more than the padded input's {size + lo + hi}")
    return pads


def _ints(op, key, default):
    v = op.attrs.get(key)
    return [int(x) for x in v] if v is not None else default


def _conv(e, op, x, k, groups):
    rank = x.type.rank
    last, spatial = _spatial(e, op, rank)
    strides = _ints(op, "strides", [1] * rank)
    dil = _ints(op, "dilations", [1] * rank)
    n = len(spatial)
    ks = [k.type.shape[i] for i in range(n)]
    if any(s is None for s in ks):
        raise e.error("the filter must have a static shape")
    st, dl = [strides[d] for d in spatial], [dil[d] for d in spatial]
    pad = _padding(e, op, x, spatial, ks, st, dl)
    sp = ", ".join(str(i) for i in range(n))
    io = f"[{sp}, i, o]"
    act = f"[b, {sp}, f]" if last else f"[b, f, {sp}]"
    return e.v("convolution", [x, k], {
        "dimension_numbers": f"{act}x{io}->{act}", "window_strides": tuple(st),
        "padding": [list(p) for p in pad], "rhs_dilation": tuple(dl),
        "lhs_dilation": (1,) * n, "feature_group_count": groups, "batch_group_count": 1})


@tf_op("Conv2D", "Conv3D", group="contractions and windows")
def conv(e, op, args):
    """convolution with the filter's HWIO layout; SAME padding from the static spatial dims
    (the batch may be dynamic); grouped when the filter has fewer input channels."""
    x, k = args
    c = x.type.shape[_channel_dim(e, op, x.type.rank)]
    ci = k.type.shape[-2]
    groups = c // ci if c is not None and ci else 1
    return [_conv(e, op, x, k, groups)]


@tf_op("DepthwiseConv2dNative", group="contractions and windows")
def depthwise_conv(e, op, args):
    """The [H, W, C, M] filter as [H, W, 1, C*M] with C feature groups."""
    x, k = args
    h, w, c, m = k.type.shape
    k2 = e.reshape(k, [h, w, 1, c * m])
    return [_conv(e, op, x, k2, c)]


def _pool(e, op, x, body, init):
    rank = x.type.rank
    ksize = _ints(op, "ksize", [1] * rank)
    strides = _ints(op, "strides", [1] * rank)
    _, spatial = _spatial(e, op, rank)
    pad = [(0, 0)] * rank
    for d, p in zip(spatial, _padding(e, op, x, spatial, [ksize[d] for d in spatial],
                                      [strides[d] for d in spatial], [1] * len(spatial))):
        pad[d] = p
    init_v = e.const(init, x.type.elem, ())
    attrs = {"window_dimensions": tuple(ksize), "window_strides": tuple(strides),
             "padding": [list(p) for p in pad]}
    return e.op("reduce_window", [x, init_v], attrs,
                regions=[e.scalar_region(x.type.elem, body)]).result, attrs


@tf_op("MaxPool", "MaxPool3D", group="contractions and windows")
def max_pool(e, op, args):
    return [_pool(e, op, args[0], "maximum", -np.inf)[0]]


@tf_op("AvgPool", "AvgPool3D", group="contractions and windows")
def avg_pool(e, op, args):
    """The window sums divided by the count of input elements each window covers (padding
    excluded, as TF): a reduce_window over ones of the input's spatial shape."""
    x = args[0]
    s, attrs = _pool(e, op, x, "add", 0)
    if op.attrs.get("padding", "VALID") == "VALID":
        count = int(np.prod(attrs["window_dimensions"]))
        return [e.binary("divide", s, e.const(count, x.type.elem, ()))]
    shape = [1 if d not in _spatial(e, op, x.type.rank)[1] else x.type.shape[d]
             for d in range(x.type.rank)]
    ones = e.const(1, x.type.elem, shape)
    counts = e.op("reduce_window", [ones, e.const(0, x.type.elem, ())], attrs,
                  regions=[e.scalar_region(x.type.elem, "add")]).result
    return [e.binary("divide", s, counts)]


# ---------------------------------------------------------------- reductions

def _axes(e, op, x, v):
    axes = e.int_list(v, "the reduction axes")
    r = x.type.rank
    for a in axes:
        if not -r <= a < max(r, 1):
            raise e.error(f"axis {a} out of range for rank {r}")
    return sorted({a % r for a in axes}) if r else []


def _keep(e, op, x, r, axes):
    if not op.attrs.get("keep_dims", False):
        return r
    dims = [1 if i in axes else d for i, d in enumerate(e.dims(x))]
    return e.reshape(r, dims)


def _init(elem, kind):
    if kind == "max":
        return -np.inf if elem in FLOATS else np.iinfo(np.dtype(_np(elem))).min
    if kind == "min":
        return np.inf if elem in FLOATS else np.iinfo(np.dtype(_np(elem))).max
    raise ValueError(kind)


def _np(elem):
    from lowering.ir.core import numpy_dtype
    return numpy_dtype(elem)


REDUCE = {"Sum": ("add", lambda elem: 0), "Prod": ("multiply", lambda elem: 1),
          "Max": ("maximum", lambda elem: _init(elem, "max")),
          "Min": ("minimum", lambda elem: _init(elem, "min")),
          "All": ("and", lambda elem: True), "Any": ("or", lambda elem: False)}


def _reduce_rule(body, init):
    def rule(e: Emitter, op, args):
        """A reduce over constant axes (keep_dims: reshaped back with 1s)."""
        x, axes_v = args
        axes = _axes(e, op, x, axes_v)
        return [_keep(e, op, x, e.reduce(x, axes, body, init(x.type.elem)), axes)]
    return rule


for _tf, (_body, _initf) in REDUCE.items():
    tf_op(_tf, group="reductions")(_reduce_rule(_body, _initf))


@tf_op("Mean", group="reductions")
def mean(e, op, args):
    """The sum divided by the count of reduced elements (a run-time product where the
    reduced dims are dynamic; integer division for integers, as TF)."""
    x, axes_v = args
    axes = _axes(e, op, x, axes_v)
    s = e.reduce(x, axes, "add", 0)
    dims = e.dims(x)
    count = e.product([dims[a] for a in axes])
    c = e.const(count, x.type.elem, ()) if isinstance(count, int) else e.convert(count, x.type.elem)
    return [_keep(e, op, x, e.binary("divide", s, c), axes)]


def _arg_region(e, elem, idx_elem, direction):
    """(a, ia, b, ib) -> the better of the two, the first index on ties; NaN wins."""
    t, ti = TensorType((), elem), TensorType((), idx_elem)
    block = Block([t, ti, t, ti])
    a, ia, b, ib = block.args
    inner = Emitter(block, e.loc, e.tf_op)
    better = inner.compare(a, b, direction)
    if elem in FLOATS:
        better = inner.v("or", [better, inner.compare(a, a, "NE")])
    tie = inner.v("and", [inner.compare(a, b, "EQ"), inner.compare(ia, ib, "LT")])
    take = inner.v("or", [better, tie])
    v = inner.v("select", [better, a, b])
    i = inner.v("select", [take, ia, ib])
    block.append(Operation("mhlo.return", [v, i], (), {}, (), e.loc))
    return Region([block])


def _arg_reduce(direction, kind):
    def rule(e: Emitter, op, args):
        """A reduce of (values, iota) pairs keeping the extreme value's first index."""
        x, axis_v = args
        axes = _axes(e, op, x, axis_v)
        if len(axes) != 1:
            raise e.error("needs one axis")
        axis = axes[0]
        if x.type.shape[axis] == 0:  # no element to pick: TensorFlow refuses it too
            raise e.error(f"the reduction axis {axis} of {x.type} is empty")
        idx = result_elem(op, 0, "i64")
        dims = e.dims(x)
        it = TensorType(x.type.shape, idx)
        if x.type.is_static:
            iota = e.v("iota", [], {"iota_dimension": axis}, it)
        else:
            iota = e.v("dynamic_iota", [e.shape_tensor(dims)], {"iota_dimension": axis}, it)
        init = [e.const(_init(x.type.elem, kind), x.type.elem, ()), e.const(0, idx, ())]
        red = e.op("reduce", [x, iota] + init, {"dimensions": (axis,)},
                   regions=[_arg_region(e, x.type.elem, idx, direction)], n=2)
        return [red.results[1]]
    return rule


tf_op("ArgMax", group="reductions")(_arg_reduce("GT", "max"))
tf_op("ArgMin", group="reductions")(_arg_reduce("LT", "min"))


@tf_op("Cumsum", "Cumprod", group="reductions")
def cumulative(e, op, args):
    """A reduce_window over the whole (static) axis padded in front, so each element sees
    those before it; `reverse` reverses around it, `exclusive` shifts by one (padding n in
    front, the last element's window dropped)."""
    x, axis_v = args
    (axis,) = _axes(e, op, x, axis_v)
    n = x.type.shape[axis]
    if n is None:
        raise e.error("a cumulative sum along a dynamic dim is not supported yet")
    body, init = ("add", 0) if op.name == "tf.Cumsum" else ("multiply", 1)
    reverse, exclusive = bool(op.attrs.get("reverse", False)), bool(op.attrs.get("exclusive", False))
    if reverse:
        x = e.v("reverse", [x], {"dimensions": (axis,)})
    pad = [[0, 0] for _ in range(x.type.rank)]
    pad[axis] = [n, 0] if exclusive else [n - 1, 0]
    window = [1] * x.type.rank
    window[axis] = n
    r = e.op("reduce_window", [x, e.const(init, x.type.elem, ())],
             {"window_dimensions": tuple(window), "window_strides": (1,) * x.type.rank,
              "padding": pad}, regions=[e.scalar_region(x.type.elem, body)]).result
    if exclusive:  # n + 1 windows: the last one covers the whole axis
        limits = list(r.type.shape)
        limits[axis] = n
        dims = e.dims(r)
        r = e.v("slice", [r], {"start_indices": (0,) * r.type.rank,
                               "limit_indices": tuple(limits), "strides": (1,) * r.type.rank}) \
            if r.type.is_static else e.reshape(r, dims)
    if reverse:
        r = e.v("reverse", [r], {"dimensions": (axis,)})
    return [r]


@tf_op("FusedBatchNorm", "FusedBatchNormV2", "FusedBatchNormV3", group="activations")
def fused_batch_norm(e, op, args):
    """Inference: (x - mean) * rsqrt(variance + epsilon) * scale + offset along the channel
    dim; the statistics results are the given mean and variance (training is refused)."""
    x, scale, offset, mean, var = args[:5]
    if op.attrs.get("is_training", False):
        raise e.error("training mode (is_training = true) is not supported: export for inference")
    eps = float(op.attrs.get("epsilon", 1e-3))
    c = _channel_dim(e, op, x.type.rank)
    inv = e.v("rsqrt", [e.binary("add", var, e.const(eps, var.type.elem, ()))])
    k = e.v("multiply", [scale, inv])
    shift = e.v("subtract", [offset, e.v("multiply", [mean, k])])
    dims = e.dims(x)
    y = e.v("add", [e.v("multiply", [x, e.broadcast_to(k, dims, x.type.shape, mapping=(c,))]),
                    e.broadcast_to(shift, dims, x.type.shape, mapping=(c,))])
    return [y, mean, var, mean, var, mean][:len(op.results)]


@tf_op("TopKV2", group="reductions")
def top_k(e, op, args):
    """The k largest along the last dim, sorted, with their i32 indices (ties: lower index
    first, as TF)."""
    x, k_v = args
    (k,) = e.int_list(k_v, "TopKV2's k")
    shape = list(x.type.shape)
    shape[-1] = k
    r = e.op("top_k", [x], {"k": k}, [TensorType(tuple(shape), x.type.elem),
                                      TensorType(tuple(shape), "i32")])
    return list(r.results)


@tf_op("Einsum", group="contractions and windows")
def einsum(e, op, args):
    """A two-operand equation without ellipsis or repeated labels: labels in both inputs
    and the output are batch dims, in both inputs only contracted, then one dot_general and
    a transpose to the output's order (labels of one input absent from the output are
    summed first). One operand: a transpose and sums."""
    eq = str(op.attrs.get("equation", "")).replace(" ", "")
    if "..." in eq or "->" not in eq:
        raise e.error(f"equation {eq!r} is not supported (no ellipsis, an explicit output)")
    ins, out = eq.split("->")
    specs = ins.split(",")
    if len(specs) != len(args) or any(len(set(s)) != len(s) for s in specs + [out]):
        raise e.error(f"equation {eq!r} is not supported (repeated labels)")
    return [e.contract_labels(list(zip(args, specs)), out)]


@tf_op("Conv2DBackpropInput", group="contractions and windows")
def conv_backprop_input(e, op, args):
    """The transposed convolution (tf.nn.conv2d_transpose): out_backprop convolved with the
    spatially reversed filter, its in/out features swapped, the input dilated by the
    strides, padded as TF's conv_grad_shape_utils computes from the forward padding."""
    sizes_v, k, dy = args
    rank = dy.type.rank
    last, spatial = _spatial(e, op, rank)
    from lowering.tf.shapes import _shape_entries
    sizes = _shape_entries(e, sizes_v, rank)
    strides = _ints(op, "strides", [1] * rank)
    dil = _ints(op, "dilations", [1] * rank)
    if op.attrs.get("padding") == "EXPLICIT":
        raise e.error("EXPLICIT padding is not supported yet")
    n = len(spatial)
    pads = []
    for i, d in enumerate(spatial):
        size, out, kk = sizes[d], dy.type.shape[d], k.type.shape[i]
        if not isinstance(size, int) or out is None or kk is None:
            raise e.error("the spatial sizes must be static")
        s, dl = strides[d], dil[d]
        eff = (kk - 1) * dl + 1
        fwd = _same_padding(e, size, kk, s, dl, f"dim {d}")[0] \
            if op.attrs.get("padding") == "SAME" else 0
        lo = eff - 1 - fwd
        hi = size + eff - 1 - ((out - 1) * s + 1) - lo
        pads.append([lo, hi])
    kr = e.v("reverse", [k], {"dimensions": tuple(range(n))})
    sp = ", ".join(str(i) for i in range(n))
    act = f"[b, {sp}, f]" if last else f"[b, f, {sp}]"
    return [e.v("convolution", [dy, kr], {
        "dimension_numbers": f"{act}x[{sp}, o, i]->{act}", "window_strides": (1,) * n,
        "padding": pads, "lhs_dilation": tuple(strides[d] for d in spatial),
        "rhs_dilation": tuple(dil[d] for d in spatial), "feature_group_count": 1,
        "batch_group_count": 1})]
