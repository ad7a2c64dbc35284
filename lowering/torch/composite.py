"""ATen's composite ops, as `torch.export.export` leaves them before `run_decompositions()`
(linear, conv2d, batch_norm, layer_norm, dropout, flatten, scaled_dot_product_attention),
lowered to the same mhlo as their decompositions: a program whose ops all have rules is
lowered as exported (aot/import_torch.py), because `run_decompositions` retraces the whole
program (55 s of ViT-B/16's compile at load here, with an empty decomposition table too).
In-place variants (`relu_`, `add_`) take their functional rule where that is safe
(lower.py, `inplace_rule`)."""
from __future__ import annotations

import math

import numpy as np

from lowering.torch import math_ops, nn_ops
from lowering.torch.emitter import TorchEmitter
from lowering.torch.table import aten

_MISSING = object()


class WithDefaults:
    """A node read with its schema's defaults for the arguments the program left out (the
    serialized graph omits arguments left at their defaults)."""

    def __init__(self, n, **defaults):
        self.n, self.defaults = n, defaults

    def arg(self, name: str, default=_MISSING):
        if name not in self.n.inputs and name in self.defaults:
            return self.defaults[name]
        return self.n.arg(name) if default is _MISSING else self.n.arg(name, default)

    def __getattr__(self, name):
        return getattr(self.n, name)


class With(WithDefaults):
    """A node read with some arguments replaced."""

    def arg(self, name: str, default=_MISSING):
        if name in self.defaults:
            return self.defaults[name]
        return self.n.arg(name) if default is _MISSING else self.n.arg(name, default)


@aten("conv1d.default", "conv2d.default", "conv3d.default", "conv1d.padding", "conv2d.padding",
      "conv3d.padding", group=nn_ops.W)
def conv(e, n):
    """convolution.default with conv2d's defaults (not transposed). A padding of "valid" is
    none; "same" keeps the input's size: each dim's dilated kernel extent - 1, the odd one
    after, as PyTorch pads (ConvMixer)."""
    pad = n.arg("padding", 0)
    if isinstance(pad, str):
        w = n.arg("weight")
        dil = nn_ops._pairs(n.arg("dilation", 1), w.type.rank - 2)
        if pad not in ("same", "valid"):
            raise e.error(f"padding '{pad}' is neither 'same' nor 'valid'")
        extents = [d * (k - 1) if pad == "same" else 0 for d, k in zip(dil, w.type.shape[2:])]
        n = With(n, padding=[(x // 2, x - x // 2) for x in extents])
    return nn_ops.convolution(e, WithDefaults(n, stride=1, padding=0, dilation=1, groups=1,
                                              transposed=False, output_padding=0))


@aten("linear.default", group=nn_ops.W)
def linear(e, n):
    """x @ weight^T + bias, as its decomposition computes it: the leading dims flattened to
    rows of one matrix product (addmm), then restored."""
    x, w, bias = n.arg("input"), n.arg("weight"), n.arg("bias", None)
    dims = e.dims(x)
    rows = x if x.type.rank == 2 else e.reshape(x, [e.product(dims[:-1]), dims[-1]])
    y = nn_ops.dot(e, rows, e.v("transpose", [w], {"permutation": (1, 0)}), 0)
    if bias is not None:
        y = e.binary("add", y, bias)
    return y if x.type.rank == 2 else e.reshape(y, dims[:-1] + [e.dims(y)[-1]])


@aten("batch_norm.default", group=math_ops.N)
def batch_norm(e, n):
    """With the running statistics (eval mode); or, in training mode without any (nothing
    to update: NFNet's weight standardisation), with the input's own statistics over every
    dim but the channels (dim 1)."""
    if not n.arg("training", False):
        return math_ops.batch_norm(e, n)[0]
    if n.arg("running_mean", None) is not None or n.arg("running_var", None) is not None:
        raise e.error("batch norm in training mode is not supported: export the model in eval "
                      "mode (model.eval())")
    x = n.arg("input")
    _, _, y = math_ops._normalize(e, x, [a for a in range(x.type.rank) if a != 1], n.arg("eps"))
    w, b = n.arg("weight", None), n.arg("bias", None)
    dims = e.dims(x)
    if w is not None:
        y = e.v("multiply", [y, e.broadcast_to(w, dims, x.type.shape, mapping=(1,))])
    if b is not None:
        y = e.v("add", [y, e.broadcast_to(b, dims, x.type.shape, mapping=(1,))])
    return y


@aten("layer_norm.default", group=math_ops.N)
def layer_norm(e, n):
    return math_ops.layer_norm(e, WithDefaults(n, eps=1e-5))[0]


@aten("dropout.default", "dropout_.default", "feature_dropout.default",
      "alpha_dropout.default", group=math_ops.A)
def dropout(e, n):
    """The identity in eval mode (train=False, which export records): `dropout_` changes
    nothing then, so it needs no in-place check."""
    if n.arg("train", False) and n.arg("p", 0.0):
        raise e.error("dropout in training mode is not supported: export the model in eval "
                      "mode (model.eval())")
    return n.arg("input") if "input" in n.inputs else n.arg("self")


@aten("softmax.int", "log_softmax.int", group=math_ops.A)
def softmax(e, n):
    """_softmax's, in `dtype` if given."""
    x = e.convert(n.arg("self"), n.out_elem())
    return math_ops.softmax_of(e, x, e.axis(n.arg("dim"), x.type.rank), "log" in e.target)


@aten("flatten.using_ints", group="shapes and data movement")
def flatten(e, n):
    x = n.arg("self")
    r = x.type.rank
    if r == 0:
        return e.reshape(x, [1])
    lo, hi = e.axis(n.arg("start_dim", 0), r), e.axis(n.arg("end_dim", -1), r)
    dims = e.dims(x)
    return e.reshape(x, dims[:lo] + [e.product(dims[lo:hi + 1])] + dims[hi + 1:])


@aten("unflatten.int", group="shapes and data movement")
def unflatten(e, n):
    x = n.arg("self")
    d = e.axis(n.arg("dim"), x.type.rank)
    dims = e.dims(x)
    sizes = list(n.arg("sizes"))
    if sizes.count(-1):
        known = e.product([s for s in sizes if not (isinstance(s, int) and s == -1)])
        whole = dims[d]
        hole = whole // known if isinstance(whole, int) and isinstance(known, int) else \
            e.v("divide", [e.scalar(whole, "i32"), e.scalar(known, "i32")])
        sizes = [hole if isinstance(s, int) and s == -1 else s for s in sizes]
    return e.reshape(x, dims[:d] + sizes + dims[d + 1:])


@aten("scaled_dot_product_attention.default", group=nn_ops.W)
def attention(e: TorchEmitter, n):
    """softmax(q k^T * scale + mask) v over [..., L, E] x [..., S, E] x [..., S, Ev], as
    its math decomposition, the leading dims the products' batch dims, broadcast as PyTorch's
    math attention does (multi-query attention: one key/value head for all; enable_gqa: each
    key/value head repeated for its group of query heads): a [b, 1, 1, S] mask
    stays a broadcast, which the fused attention kernel reads in place (flattened to one batch
    dim, the mask was written out at [b * h, L, S]). A boolean mask (or is_causal) keeps the
    positions where it is true, and a row with no position kept gives zeros, as PyTorch's
    safe softmax does."""
    q, k, v = n.arg("query"), n.arg("key"), n.arg("value")
    mask = n.arg("attn_mask", None)
    if n.arg("dropout_p", 0.0):
        raise e.error("attention dropout (dropout_p > 0) is not supported: export in eval mode")
    if n.arg("enable_gqa", False) and q.type.shape[-3] != k.type.shape[-3]:
        k, v = (_repeat_heads(e, t, q.type.shape[-3]) for t in (k, v))
    batch = nn_ops._batch_dims(e, q, k, v)  # math attention broadcasts them: multi-query
    q, k, v = (e.broadcast_to(t, batch + e.dims(t)[-2:]) for t in (q, k, v))
    el = q.type.elem
    qd, kd = e.dims(q), e.dims(k)
    size = q.type.shape[-1]
    if size is None:
        raise e.error("attention needs a static head size")
    scale = n.arg("scale", None)
    scale = 1 / math.sqrt(size) if scale is None else scale
    lead, rank = qd[:-2], q.type.rank
    swap = tuple(range(rank - 2)) + (rank - 1, rank - 2)
    kt = e.v("transpose", [k], {"permutation": swap})
    s = nn_ops.dot(e, e.binary("multiply", q, e.scalar(scale, el)), kt, rank - 2)  # [..., L, S]
    keep = None
    if n.arg("is_causal", False):
        rows = e.iota(e.dims(s), rank - 2, "i32")
        cols = e.iota(e.dims(s), rank - 1, "i32")
        keep = e.compare(rows, cols, "GE")
    if mask is not None:
        mask = e.broadcast_to(mask, lead + [qd[-2], kd[-2]])
        if mask.type.elem == "i1":
            keep = mask if keep is None else e.v("and", [keep, mask])
        else:
            s = e.v("add", [s, e.convert(mask, el)])
    if keep is not None:
        s = e.select(keep, s, e.scalar(-np.inf, el))
    p = math_ops.softmax_of(e, s, rank - 1, log=False)
    if keep is not None:  # rows with no position kept: zeros, not NaN
        m = e.spread(e.reduce(s, [rank - 1], "maximum", -np.inf), s, [rank - 1])
        p = e.select(e.compare(m, e.scalar(-np.inf, el), "EQ"), e.scalar(0, el), p)
    return nn_ops.dot(e, p, v, rank - 2)


def _repeat_heads(e, t, heads):
    """t's head dim (-3) repeated to `heads`, each head `heads / t's` times in a row, as
    enable_gqa's repeat_interleave does."""
    have = t.type.shape[-3]
    if not isinstance(heads, int) or not isinstance(have, int) or heads % have:
        raise e.error(f"enable_gqa with {have} key/value heads for {heads} query heads: the "
                      "query heads must be a static multiple of them")
    d = e.dims(t)
    grouped = e.broadcast_to(e.reshape(t, d[:-2] + [1] + d[-2:]),
                             d[:-2] + [heads // have] + d[-2:])
    return e.reshape(grouped, d[:-3] + [heads] + d[-2:])


# ---------------------------------------------------------------- more composite ops
# What export leaves of common model code (each would otherwise make aot.compile retrace the
# whole program through run_decompositions), as their decompositions compute them.

E, A, S = "elementwise math", "activations", "shapes and data movement"


def _x(e, n, name="self"):
    return e.scalar(n.arg(name), n.out_elem())


def _c(e, x, value):
    """A constant of x's element type, broadcast to x."""
    return e.broadcast_pair(e.scalar(value, x.type.elem), x)[0]


@aten("square.default", group=E)
def square(e, n):
    x = _x(e, n)
    return e.v("multiply", [x, x])


@aten("sgn.default", group=E)
def sgn(e, n):
    return e.v("sign", [_x(e, n)])


@aten("frac.default", group=E)
def frac(e, n):
    """x - trunc(x)."""
    x = _x(e, n)
    ge0 = e.compare(x, _c(e, x, 0), "GE")
    return e.v("subtract", [x, e.v("select", [ge0, e.v("floor", [x]), e.v("ceil", [x])])])


@aten("max.other", "min.other", group=E)
def max_other(e, n):
    elem = n.out_elem()
    hlo = "maximum" if e.target.startswith("aten.max") else "minimum"
    return e.binary(hlo, e.scalar(n.arg("self"), elem), e.scalar(n.arg("other"), elem))


@aten("lerp.Scalar", "lerp.Tensor", group=E)
def lerp(e, n):
    """self + weight * (end - self)."""
    elem = n.out_elem()
    a, b = e.scalar(n.arg("self"), elem), e.scalar(n.arg("end"), elem)
    return e.binary("add", a, e.binary("multiply", e.scalar(n.arg("weight"), elem),
                                       e.binary("subtract", b, a)))


@aten("addcmul.default", "addcdiv.default", group=E)
def addcmul(e, n):
    """self + value * tensor1 * tensor2 (addcdiv: tensor1 / tensor2)."""
    elem = n.out_elem()
    t1, t2 = e.scalar(n.arg("tensor1"), elem), e.scalar(n.arg("tensor2"), elem)
    prod = e.binary("multiply" if "addcmul" in e.target else "divide", t1, t2)
    value = n.arg("value", 1)
    if value != 1:
        prod = e.binary("multiply", prod, e.scalar(value, elem))
    return e.binary("add", e.scalar(n.arg("self"), elem), prod)


@aten("nan_to_num.default", group=E)
def nan_to_num(e, n):
    """NaN to `nan` (0), +inf to `posinf`, -inf to `neginf` (the type's largest and lowest
    finite values by default)."""
    x = _x(e, n)
    if x.type.elem not in ("f16", "bf16", "f32", "f64"):
        return x
    info = np.finfo({"f16": np.float16, "f32": np.float32, "f64": np.float64}.get(x.type.elem,
                                                                                  np.float32))
    nan, pos, neg = n.arg("nan", None), n.arg("posinf", None), n.arg("neginf", None)
    x = e.v("select", [e.compare(x, x, "NE"), _c(e, x, 0.0 if nan is None else nan), x])
    x = e.v("select", [e.compare(x, _c(e, x, math.inf), "EQ"),
                       _c(e, x, float(info.max) if pos is None else pos), x])
    return e.v("select", [e.compare(x, _c(e, x, -math.inf), "EQ"),
                          _c(e, x, float(info.min) if neg is None else neg), x])


@aten("logit.default", group=E)
def logit(e, n):
    """log(x / (1 - x)), x clamped to [eps, 1 - eps] when eps is given."""
    x = _x(e, n)
    eps = n.arg("eps", None)
    if eps is not None:
        x = e.v("clamp", [e.scalar(eps, x.type.elem), x, e.scalar(1 - eps, x.type.elem)])
    return e.v("log", [e.v("divide", [x, e.v("subtract", [_c(e, x, 1.0), x])])])


@aten("mish.default", group=A)
def mish(e, n):
    """x * tanh(softplus(x)) (softplus's threshold 20, as PyTorch)."""
    x = _x(e, n)
    soft = e.v("select", [e.compare(x, _c(e, x, 20.0), "GT"), x,
                          e.v("log_plus_one", [e.v("exponential", [x])])])
    return e.v("multiply", [x, e.v("tanh", [soft])])


@aten("log_sigmoid.default", "log_sigmoid_forward.default", group=A)
def log_sigmoid(e, n):
    """min(x, 0) - log1p(exp(-|x|)) (log_sigmoid_forward also gives a buffer, unused)."""
    x = _x(e, n)
    out = e.v("subtract", [e.v("minimum", [x, _c(e, x, 0.0)]),
                           e.v("log_plus_one", [e.v("exponential", [e.v("negate", [e.v("abs", [x])])])])])
    return [out, e.const(np.zeros(0), x.type.elem, (0,))] if "forward" in e.target else out


@aten("celu.default", "selu.default", group=A)
def celu(e, n):
    """max(0, x) + min(0, alpha (exp(x / alpha) - 1)); selu: that with SELU's alpha, scaled."""
    x = _x(e, n)
    selu = e.target.startswith("aten.selu")
    alpha = 1.6732632423543772 if selu else float(n.arg("alpha", 1.0))
    neg = e.v("multiply", [e.v("exponential_minus_one", [e.v("divide", [x, _c(e, x, alpha)])]),
                           _c(e, x, alpha)]) if not selu else \
        e.v("multiply", [e.v("exponential_minus_one", [x]), _c(e, x, alpha)])
    out = e.v("add", [e.v("maximum", [x, _c(e, x, 0.0)]), e.v("minimum", [neg, _c(e, x, 0.0)])])
    return e.v("multiply", [out, _c(e, x, 1.0507009873554805)]) if selu else out


@aten("hardshrink.default", "softshrink.default", group=A)
def shrink(e, n):
    """hardshrink: x where |x| > lambd, else 0; softshrink: x - lambd sign(x) there."""
    x = _x(e, n)
    lam = _c(e, x, n.arg("lambd", 0.5))
    keep = e.compare(e.v("abs", [x]), lam, "GT")
    val = x if e.target.startswith("aten.hardshrink") else \
        e.v("subtract", [x, e.v("multiply", [e.v("sign", [x]), lam])])
    return e.v("select", [keep, val, _c(e, x, 0.0)])


@aten("prelu.default", "_prelu_kernel.default", group=A)
def prelu(e, n):
    """x where x > 0, else weight * x; a weight of several entries is per channel (dim 1)."""
    x, w = n.arg("self"), n.arg("weight")
    dims = e.dims(x)
    if w.type.rank == 1 and w.type.shape != (1,) and x.type.rank >= 2:
        w = e.broadcast_to(w, dims, x.type.shape, mapping=(1,))
    else:
        w = e.broadcast_to(e.reshape(w, []) if w.type.rank else w, dims, x.type.shape)
    return e.v("select", [e.compare(x, _c(e, x, 0.0), "GT"), x, e.v("multiply", [w, x])])


@aten("glu.default", group=A)
def glu(e, n):
    """a * sigmoid(b), the two halves of `dim`."""
    from lowering.torch.shapes import slice_dim
    x = n.arg("self")
    axis = e.axis(n.arg("dim", -1), x.type.rank)
    half = e.dims(x)[axis]
    if not isinstance(half, int):
        raise e.error("glu along a dynamic dim is not supported yet")
    a, b = slice_dim(e, x, axis, 0, half // 2, 1), slice_dim(e, x, axis, half // 2, half, 1)
    return e.v("multiply", [a, e.v("logistic", [b])])


@aten("rms_norm.default", group=math_ops.N)
def rms_norm(e, n):
    """x * rsqrt(mean(x^2) + eps) over the trailing normalized dims, times weight (eps by
    default the element type's machine epsilon, as PyTorch)."""
    x = n.arg("input")
    k = len(n.arg("normalized_shape"))
    axes = list(range(x.type.rank - k, x.type.rank))
    eps = n.arg("eps", None)
    eps = float(np.finfo(np.float64 if x.type.elem == "f64" else np.float32).eps) if eps is None else eps
    dims = e.dims(x)
    ms = e.binary("divide", e.reduce(e.v("multiply", [x, x]), axes, "add", 0),
                  e.scalar(e.product([dims[a] for a in axes]), x.type.elem))
    r = e.v("rsqrt", [e.binary("add", ms, e.scalar(eps, x.type.elem))])
    y = e.v("multiply", [x, e.spread(r, x, axes)])
    w = n.arg("weight", None)
    return y if w is None else e.binary("multiply", y, w)


@aten("narrow.default", group=S)
def narrow(e, n):
    """self[start:start + length] along `dim`."""
    from lowering.torch.shapes import slice_dim
    x = n.arg("self")
    axis = e.axis(n.arg("dim"), x.type.rank)
    start, length = n.arg("start"), n.arg("length")
    if isinstance(start, int) and start < 0:
        d = e.dims(x)[axis]
        start = d + start if isinstance(d, int) else e.v("add", [d, e.scalar(start, "i32")])
    end = start + length if isinstance(start, int) and isinstance(length, int) else \
        e.v("add", [e.scalar(start, "i32"), e.scalar(length, "i32")])
    return slice_dim(e, x, axis, start, end, 1)


@aten("movedim.int", "movedim.intlist", "moveaxis.int", group=S)
def movedim(e, n):
    """A permutation putting `source` dims at `destination`, the others in order."""
    x = n.arg("self")
    r = x.type.rank
    src, dst = n.arg("source"), n.arg("destination")
    src = [e.axis(d, r) for d in (src if isinstance(src, list) else [src])]
    dst = [e.axis(d, r) for d in (dst if isinstance(dst, list) else [dst])]
    perm = [None] * r
    for s, d in zip(src, dst):
        perm[d] = s
    rest = iter(i for i in range(r) if i not in src)
    perm = tuple(p if p is not None else next(rest) for p in perm)
    return x if perm == tuple(range(r)) else e.v("transpose", [x], {"permutation": perm})


@aten("tile.default", group=S)
def tile(e, n):
    """repeat, with ones in front of `dims` to x's rank."""
    from lowering.torch.shapes import repeat
    x = n.arg("self")
    reps = list(n.arg("dims"))
    reps = [1] * (x.type.rank - len(reps)) + reps
    return repeat(e, _Renamed(n, {"repeats": reps}))


class _Renamed:
    """A node whose given arguments are replaced by `values`."""

    def __init__(self, n, values):
        self.n, self.values = n, values
        self.inputs = {**n.inputs, **{k: None for k in values}}

    def arg(self, name, default=_MISSING):
        if name in self.values:
            return self.values[name]
        return self.n.arg(name) if default is _MISSING else self.n.arg(name, default)

    def __getattr__(self, name):
        return getattr(self.n, name)


@aten("pixel_shuffle.default", "pixel_unshuffle.default", group=S)
def pixel_shuffle(e, n):
    """[N, C r^2, H, W] <-> [N, C, H r, W r]: a reshape, a transpose, a reshape."""
    x = n.arg("self")
    shuffle = e.target.startswith("aten.pixel_shuffle")
    r = n.arg("upscale_factor" if shuffle else "downscale_factor")
    *lead, c, h, w = e.dims(x)
    k = len(lead)
    if not all(isinstance(v, int) for v in (c, h, w)):
        raise e.error("pixel_shuffle needs static channel and spatial dims")
    if shuffle:
        y = e.reshape(x, lead + [c // (r * r), r, r, h, w])
        perm = tuple(range(k)) + tuple(k + i for i in (0, 3, 1, 4, 2))
        return e.reshape(e.v("transpose", [y], {"permutation": perm}),
                         lead + [c // (r * r), h * r, w * r])
    y = e.reshape(x, lead + [c, h // r, r, w // r, r])
    perm = tuple(range(k)) + tuple(k + i for i in (0, 2, 4, 1, 3))
    return e.reshape(e.v("transpose", [y], {"permutation": perm}), lead + [c * r * r, h // r, w // r])


@aten("channel_shuffle.default", "native_channel_shuffle.default", group=S)
def channel_shuffle(e, n):
    """[N, C, ...] as [N, g, C/g, ...], the two group dims swapped (ShuffleNet)."""
    x = n.arg("self")
    g = n.arg("groups")
    dims = e.dims(x)
    c = dims[1]
    if not isinstance(c, int):
        raise e.error("channel_shuffle needs a static channel dim")
    y = e.reshape(x, [dims[0], g, c // g] + dims[2:])
    perm = (0, 2, 1) + tuple(range(3, y.type.rank))
    return e.reshape(e.v("transpose", [y], {"permutation": perm}), dims)


@aten("outer.default", "ger.default", group=E)
def outer(e, n):
    """a[:, None] * b[None, :]."""
    a, b = n.arg("self"), n.arg("vec2")
    elem = n.out_elem()
    a, b = e.convert(a, elem), e.convert(b, elem)
    dims = e.dims(a) + e.dims(b)
    return e.v("multiply", [e.broadcast_to(a, dims, mapping=(0,)), e.broadcast_to(b, dims, mapping=(1,))])


@aten("one_hot.default", group="indexing")
def one_hot(e, n):
    """An i64 [..., num_classes] table of index == class."""
    x = n.arg("self")
    k = n.arg("num_classes", -1)
    if not isinstance(k, int) or k < 0:
        raise e.error("one_hot needs num_classes (it is read from the data otherwise)")
    dims = e.dims(x) + [k]
    r = x.type.rank
    hit = e.compare(e.broadcast_to(e.convert(x, "i64"), dims, mapping=tuple(range(r))),
                    e.iota(dims, r, "i64"), "EQ")
    return e.convert(hit, n.out_elem())


@aten("count_nonzero.default", "count_nonzero.dim_IntList", group=math_ops.R)
def count_nonzero(e, n):
    x = n.arg("self")
    nz = e.convert(e.compare(x, _c(e, x, 0), "NE"), "i64")
    return e.reduce(nz, e.axes(n.arg("dim", None), x.type.rank), "add", 0)


@aten("aminmax.default", group=math_ops.R)
def aminmax(e, n):
    """(min, max) over `dim` (every element without one)."""
    x = n.arg("self")
    axes = e.axes(n.arg("dim", None), x.type.rank)
    outs = [e.reduce(x, axes, "minimum", e.init("min", x.type.elem)),
            e.reduce(x, axes, "maximum", e.init("max", x.type.elem))]
    return [e.keep_dims(o, x, axes) for o in outs] if n.arg("keepdim", False) else outs


@aten("take_along_dim.default", group="indexing")
def take_along_dim(e, n):
    """gather along `dim` with indices broadcast to self's other dims (without dim: of the
    flattened input)."""
    from lowering.torch.shapes import _wrap
    from lowering.torch.shapes import gather as gather_rule
    x, idx, dim = n.arg("self"), n.arg("indices"), n.arg("dim", None)
    if dim is None:
        x, idx = e.reshape(x, [e.product(e.dims(x))]), e.reshape(idx, [e.product(e.dims(idx))])
    axis = 0 if dim is None else e.axis(dim, x.type.rank)
    r = x.type.rank
    if any(i != axis and s != x.type.shape[i] for i, s in enumerate(idx.type.shape)):
        want = [d if i == axis else xd for i, (d, xd) in enumerate(zip(e.dims(idx), e.dims(x)))]
        idx = e.broadcast_to(idx, want, mapping=tuple(range(r)))
    idx = _wrap(e, e.convert(idx, "i64"), e.dims(x)[axis])
    return gather_rule(e, _Renamed(n, {"self": x, "index": idx, "dim": axis}))


@aten("pad.default", group=S)
def pad(e, n):
    """F.pad: constant (constant_pad_nd), or reflect, replicate, circular over static dims
    (each padded dim gathered at a constant table of source positions)."""
    from lowering.torch.shapes import constant_pad, gather_axis
    mode = n.arg("mode", "constant")
    if mode == "constant":
        value = n.arg("value", None)
        return constant_pad(e, _Renamed(n, {"value": 0 if value is None else value}))
    x = n.arg("self")
    pads = n.arg("pad")
    r = x.type.rank
    for k in range(len(pads) // 2):
        axis, lo, hi = r - 1 - k, pads[2 * k], pads[2 * k + 1]
        size = x.type.shape[axis]
        if size is None:
            raise e.error(f"{mode} padding along a dynamic dim is not supported yet")
        i = np.arange(-lo, size + hi)
        if mode == "reflect":
            period = 2 * (size - 1)
            i = np.abs(i) % period if period else np.zeros_like(i)
            i = np.where(i >= size, period - i, i)
        elif mode == "replicate":
            i = np.clip(i, 0, size - 1)
        elif mode == "circular":
            i = i % size
        else:
            raise e.error(f"padding mode {mode!r} is not supported")
        x = gather_axis(e, x, e.const(i.astype(np.int64), "i64", i.shape), axis)
    return x


@aten("linspace.default", group="creation")
def linspace(e, n):
    """`steps` evenly spaced values from start to end: a constant."""
    start, end, steps = n.arg("start"), n.arg("end"), n.arg("steps")
    if not all(isinstance(v, (int, float)) for v in (start, end, steps)):
        raise e.error("linspace needs constant bounds and steps")
    arr = np.linspace(start, end, steps)
    return e.const(arr, n.out_elem(), arr.shape)


@aten("eye.default", "eye.m", group="creation")
def eye(e, n):
    rows = n.arg("n")
    cols = n.arg("m", rows)
    if not all(isinstance(v, int) for v in (rows, cols)):
        raise e.error("eye needs constant sizes")
    arr = np.eye(rows, cols)
    return e.const(arr, n.out_elem(), arr.shape)


@aten("argwhere.default", group="data-dependent sizes")
def argwhere(e, n):
    """nonzero's [count, rank] indices."""
    from lowering.ir.core import TensorType
    x = n.arg("self")
    return e.v("dhlo.where", [x], result_type=TensorType((None, x.type.rank), "i64"))


@aten("broadcast_tensors.default", group=S)
def broadcast_tensors(e, n):
    return e.broadcast_all(list(n.arg("tensors")))


@aten("group_norm.default", group=math_ops.N)
def group_norm(e, n):
    """native_group_norm's rule under group_norm's names and defaults (wav2vec2's feature
    encoder)."""
    return math_ops.group_norm(e, WithDefaults(n, group=n.arg("num_groups"), eps=1e-5))[0]


@aten("_weight_norm.default", group=math_ops.N)
def weight_norm(e, n):
    """v * g / ||v||, the norm over every dim but `dim` (every dim when dim is -1), as
    nn.utils.weight_norm's parametrization computes it (wav2vec2's positional conv)."""
    v, g = n.arg("v"), n.arg("g")
    dim, r = n.arg("dim", 0), v.type.rank
    axes = list(range(r)) if dim == -1 else [a for a in range(r) if a != e.axis(dim, r)]
    norm = e.v("sqrt", [e.reduce(e.v("multiply", [v, v]), axes, "add", 0)])
    return e.binary("multiply", v, e.binary("divide", g, e.keep_dims(norm, v, axes)))


@aten("meshgrid.default", "meshgrid.indexing", group=S)
def meshgrid(e, n):
    """Each 1-d (or 0-d) tensor broadcast along its own dim of the grid; `xy` indexing
    swaps the first two (BEiT's relative position index)."""
    ts = [e.reshape(t, [1]) if t.type.rank == 0 else t for t in n.arg("tensors")]
    pos = list(range(len(ts)))
    if n.arg("indexing", "ij") == "xy" and len(ts) > 1:
        pos[0], pos[1] = 1, 0
    dims = [None] * len(ts)
    for t, p in zip(ts, pos):
        dims[p] = e.dims(t)[0]
    return [e.broadcast_to(t, dims, mapping=(p,)) for t, p in zip(ts, pos)]
