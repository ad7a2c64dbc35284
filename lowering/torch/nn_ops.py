"""ATen's contractions and windows: matrix products as dot_general, convolution with
PyTorch's NCHW / OIHW layouts, max and average pools as reduce_window."""
from __future__ import annotations

import numpy as np

from lowering.tf.emitter import gather_axis
from lowering.torch.emitter import TorchEmitter
from lowering.torch.table import aten

W = "contractions and windows"


def dot(e: TorchEmitter, a, b, batch: int):
    """a @ b over `batch` leading batch dims (contracting a's last with b's second last)."""
    dn = {"lhs_batching_dimensions": tuple(range(batch)),
          "rhs_batching_dimensions": tuple(range(batch)),
          "lhs_contracting_dimensions": (a.type.rank - 1,),
          "rhs_contracting_dimensions": (b.type.rank - 2,)}
    return e.v("dot_general", [a, b], {"dot_dimension_numbers": dn})


@aten("mm.default", group=W)
def mm(e, n):
    return dot(e, n.arg("self"), n.arg("mat2"), 0)


@aten("bmm.default", group=W)
def bmm(e, n):
    return dot(e, n.arg("self"), n.arg("mat2"), 1)


@aten("addmm.default", "baddbmm.default", group=W)
def addmm(e, n):
    """beta * self + alpha * (mat1 @ mat2), or of batch1 @ batch2 (baddbmm: Bloom's ALiBi
    scores)."""
    batched = "batch1" in n.inputs
    p = dot(e, n.arg("batch1"), n.arg("batch2"), 1) if batched else \
        dot(e, n.arg("mat1"), n.arg("mat2"), 0)
    el = p.type.elem
    alpha, beta = n.arg("alpha", 1), n.arg("beta", 1)
    if alpha != 1:
        p = e.binary("multiply", p, e.scalar(alpha, el))
    c = n.arg("self")
    if beta == 0:
        return p
    if beta != 1:
        c = e.binary("multiply", c, e.scalar(beta, el))
    return e.binary("add", p, c)


@aten("einsum.default", group=W)
def einsum(e, n):
    """torch.einsum of one or two operands as one dot_general (a label both share is a batch
    dim where the result keeps it, else contracted), a label of one operand alone that the
    result drops summed first, the result transposed to the equation's order; `...` stands
    for the leading dims, and a static size 1 against another size broadcasts. MViT's
    relative positions and attention code call it (it fell back to run_decompositions, a
    retrace). A repeated label in one operand (a diagonal) or three operands: an error."""
    ops = list(n.arg("tensors"))
    eq = n.arg("equation").replace(" ", "")
    lhs, out = eq.split("->") if "->" in eq else (eq, None)
    terms = lhs.split(",")
    if len(terms) != len(ops) or not 1 <= len(ops) <= 2:
        raise e.error(f"einsum {eq!r} of {len(ops)} operands: one or two are supported")
    free = iter(sorted(set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ") - set(eq)))
    ell = "".join(next(free) for _ in range(max(
        [x.type.rank - len(t) + 3 for t, x in zip(terms, ops) if "..." in t], default=0)))
    terms = [t.replace("...", ell[len(ell) - (x.type.rank - len(t) + 3):])
             for t, x in zip(terms, ops)]
    labels = "".join(terms)
    out = out.replace("...", ell) if out is not None else \
        ell + "".join(sorted(c for c in set(labels) if labels.count(c) == 1 and c not in ell))
    if any(len(set(t)) != len(t) for t in terms):
        raise e.error(f"einsum {eq!r}: a label repeated in one operand (a diagonal) is not "
                      "supported")
    return e.contract_labels(list(zip(ops, terms)), out)


@aten("matmul.default", group=W)
def matmul(e, n):
    """torch.matmul: a vector operand is a matrix of one row (first) or column (second),
    dropped from the result; a matrix second operand is contracted with the first's last
    dim without batch dims (x @ W.T: the weight is not broadcast); else the batch dims
    broadcast as numpy's do (an `?` against an `?` taken to be equal)."""
    a, b = n.arg("self"), n.arg("other")
    vec_a, vec_b = a.type.rank == 1, b.type.rank == 1
    if vec_a:
        a = e.reshape(a, [1] + e.dims(a))
    if vec_b:
        b = e.reshape(b, e.dims(b) + [1])
    if b.type.rank == 2:
        out = dot(e, a, b, 0)
    else:
        batch = _batch_dims(e, a, b)
        a, b = (e.broadcast_to(v, batch + e.dims(v)[-2:]) for v in (a, b))
        out = dot(e, a, b, len(batch))
    if vec_a or vec_b:
        dims = e.dims(out)
        out = e.reshape(out, dims[:-2] + dims[-2:][vec_a:2 - vec_b])
    return out


def _batch_dims(e, *values) -> list:
    """The numpy broadcast of the values' dims before their last two (ints, or run-time
    sizes): a static size other than 1 wins, else a run-time one, else 1."""
    r = max(x.type.rank for x in values) - 2
    out = []
    for i in range(r):
        have = [(v, k) for v in values if (k := i - r + v.type.rank - 2) >= 0]
        sizes = [v.type.shape[k] for v, k in have]
        static = [s for s in sizes if s is not None and s != 1]
        if static:
            out.append(static[0])
        elif None in sizes:
            v, k = next((v, k) for v, k in have if v.type.shape[k] is None)
            out.append(e.dims(v)[k])
        else:
            out.append(1)
    return out


def _pairs(v, k: int) -> list:
    v = list(v) if isinstance(v, (list, tuple)) else [v]
    return v * k if len(v) == 1 else v


@aten("convolution.default", group=W)
def convolution(e, n):
    """N-d convolution [b, f, spatial...] x [o, i, spatial...]; grouped by `groups`; the
    bias added per output channel. A transposed convolution is the convolution of the input
    spread out by the stride (lhs_dilation) with the flipped kernel, its in and out features
    swapped per group, padded so that output pixel j sees the inputs that fed it."""
    x, w, bias = n.arg("input"), n.arg("weight"), n.arg("bias", None)
    k = x.type.rank - 2
    stride, pad, dil = (_pairs(n.arg(a), k) for a in ("stride", "padding", "dilation"))
    groups = int(n.arg("groups", 1))
    w = e.convert(w, x.type.elem)
    attrs = {"window_strides": tuple(stride),
             "padding": [list(p) if isinstance(p, tuple) else [p, p] for p in pad],
             "lhs_dilation": (1,) * k}
    if n.arg("transposed", False):
        w, attrs = _transposed(e, w, groups, stride, pad, dil,
                               _pairs(n.arg("output_padding", 0), k))
    sp = ", ".join(str(i) for i in range(k))
    out = e.v("convolution", [x, w], dict(
        attrs, dimension_numbers=f"[b, f, {sp}]x[o, i, {sp}]->[b, f, {sp}]",
        rhs_dilation=tuple(dil), feature_group_count=groups, batch_group_count=1))
    if bias is not None:
        out = e.v("add", [out, e.broadcast_to(bias, e.dims(out), out.type.shape, mapping=(1,))])
    return out


def _transposed(e, w, groups, stride, pad, dil, output_padding):
    """The kernel [in, out/groups, spatial...] of a transposed convolution as a forward
    kernel [out, in/groups, spatial...] flipped in space, and the forward convolution's
    attributes: the input dilated by the stride, each side padded by the kernel's dilated
    extent - 1 - padding (the high side also by output_padding)."""
    cin, per_group, *ks = w.type.shape
    if None in ks or cin is None or per_group is None:
        raise e.error("a transposed convolution needs a static kernel")
    k = len(ks)
    w = e.v("reverse", [w], {"dimensions": tuple(range(2, 2 + k))})
    w = e.reshape(w, [groups, cin // groups, per_group] + ks)
    w = e.v("transpose", [w], {"permutation": (0, 2, 1) + tuple(range(3, 3 + k))})
    w = e.reshape(w, [groups * per_group, cin // groups] + ks)
    padding = []
    for size, p, d, extra in zip(ks, pad, dil, output_padding):
        lo = d * (size - 1) - p
        if lo < 0:
            raise e.error(f"a transposed convolution whose padding {p} exceeds its dilated "
                          f"kernel extent {d * (size - 1)} is not supported")
        padding.append([lo, lo + extra])
    return w, {"window_strides": (1,) * k, "padding": padding, "lhs_dilation": tuple(stride)}


def _spatial_rank(e) -> int:
    """1, 2 or 3: the dims a pool named `..._pool2d...` slides over."""
    return next(k for k in (1, 2, 3) if f"{k}d" in e.target)


def _window(e, x, kernel, stride, pad, ceil_mode, dil=None, trims=None):
    """reduce_window attributes over x's trailing len(kernel) dims; ceil_mode pads the high
    side so a last partial window is kept (it must start inside the input or left padding).
    Along a dynamic dim the high side gets stride - 1 more and `trims` (a list the caller
    gives, for max pooling: padding never wins) receives (axis, run-time length) for the
    window that would start past the input, which the caller cuts off."""
    k = len(kernel)
    r = x.type.rank
    stride = _pairs(stride, k) if stride else list(kernel)
    pad = _pairs(pad, k)
    dil = _pairs(dil or 1, k)
    lo = list(pad)
    hi = list(pad)
    if ceil_mode:
        for i in range(k):
            size = x.type.shape[r - k + i]
            if size is None:
                if trims is None:
                    raise e.error("ceil_mode along a dynamic dim needs the caller to cut the "
                                  "result (trims)")
                hi[i] = pad[i] + stride[i] - 1
                trims.append((r - k + i, _ceil_length(e, x, r - k + i, kernel[i], stride[i], pad[i],
                                                      dil[i])))
                continue
            span = size + 2 * pad[i] - dil[i] * (kernel[i] - 1) - 1
            out = -(-span // stride[i]) + 1
            if (out - 1) * stride[i] >= size + pad[i]:
                out -= 1
            hi[i] = max(pad[i], (out - 1) * stride[i] + dil[i] * (kernel[i] - 1) + 1 - size - pad[i])
    lead = r - k
    return {"window_dimensions": (1,) * lead + tuple(kernel),
            "window_strides": (1,) * lead + tuple(stride),
            "window_dilations": (1,) * lead + tuple(dil),
            "padding": [[0, 0]] * lead + [[a, b] for a, b in zip(lo, hi)]}


def _ceil_length(e, x, axis: int, kernel: int, stride: int, pad: int, dil: int):
    """PyTorch's ceil_mode output length of a dynamic dim: ceil(span / stride) + 1, one
    less when that last window would start past the input and its left padding."""
    size = e.v("get_dimension_size", [x], {"dimension": axis})

    def i32(v):
        return e.scalar(v, "i32")
    span = e.binary("add", size, i32(2 * pad - dil * (kernel - 1) - 1 + stride - 1))
    out = e.binary("add", e.binary("divide", span, i32(stride)), i32(1))
    late = e.compare(e.binary("multiply", e.binary("subtract", out, i32(1)), i32(stride)),
                     e.binary("add", size, i32(pad)), "GE")
    return e.select(late, e.binary("subtract", out, i32(1)), out)


@aten("max_pool2d_with_indices.default", "max_pool1d_with_indices.default",
      "max_pool3d_with_indices.default", "max_pool2d.default", "max_pool3d.default", group=W)
def max_pool(e, n):
    """The window maxima (padding never wins); the indices output is not computed."""
    x = n.arg("self")
    trims = []
    attrs = _window(e, x, _pairs(n.arg("kernel_size"), _spatial_rank(e)), n.arg("stride", []),
                    n.arg("padding", 0), n.arg("ceil_mode", False), n.arg("dilation", 1), trims)
    out = e.op("reduce_window", [x, e.const(e.init("max", x.type.elem), x.type.elem, ())], attrs,
               regions=[e.scalar_region(x.type.elem, "maximum")]).result
    return [_trimmed(e, out, trims), None]


@aten("avg_pool2d.default", "avg_pool1d.default", "avg_pool3d.default", group=W)
def avg_pool(e, n):
    """Window sums over the window size (count_include_pad, the default), or over the count
    of input elements each window covers; `divisor_override` if given. ceil_mode along a
    dynamic dim pads as for max pooling and cuts the quotient to PyTorch's length."""
    x = n.arg("self")
    kernel = _pairs(n.arg("kernel_size"), _spatial_rank(e))
    trims = []
    attrs = _window(e, x, kernel, n.arg("stride", []), n.arg("padding", 0),
                    n.arg("ceil_mode", False), trims=trims)
    return _trimmed(e, _average(e, n, x, kernel, attrs), trims)


def _trimmed(e, out, trims):
    """out cut to the run-time lengths of `trims` (axis, length), from _window."""
    for axis, length in trims:
        limits = e.dims(out)
        limits[axis] = length
        out = e.slice(out, [0] * out.type.rank, limits)
    return out


def _average(e, n, x, kernel, attrs):
    el = x.type.elem
    s = e.op("reduce_window", [x, e.const(0, el, ())], attrs,
             regions=[e.scalar_region(el, "add")]).result
    div = n.arg("divisor_override", None)
    if div is not None:
        return e.binary("divide", s, e.scalar(div, el))
    if n.arg("count_include_pad", True) and not n.arg("ceil_mode", False):
        return e.binary("divide", s, e.scalar(int(np.prod(kernel)), el))
    k = len(kernel)
    dims = [1] * (x.type.rank - k) + e.dims(x)[-k:]
    ones = e.const(1, el, dims) if all(isinstance(d, int) for d in dims) else \
        e.broadcast_to(e.const(1, el, ()), dims)
    if n.arg("count_include_pad", True):  # ceil_mode: padding counts, the overhang does not
        lo = [p[0] for p in attrs["padding"]]
        ones = e.v("pad", [ones, e.const(1, el, ())], {
            "edge_padding_low": tuple(lo), "edge_padding_high": tuple(lo),
            "interior_padding": (0,) * x.type.rank})
        attrs = dict(attrs, padding=[[0, p[1] - p[0]] for p in attrs["padding"]])
    counts = e.op("reduce_window", [ones, e.const(0, el, ())],
                  dict(attrs, window_dimensions=tuple(attrs["window_dimensions"])),
                  regions=[e.scalar_region(el, "add")]).result
    return e.binary("divide", s, counts)


@aten("_adaptive_avg_pool2d.default", "adaptive_avg_pool2d.default",
      "_adaptive_avg_pool1d.default", "adaptive_avg_pool1d.default", "adaptive_max_pool2d.default",
      "adaptive_max_pool1d.default", "_adaptive_avg_pool3d.default", "adaptive_avg_pool3d.default",
      "adaptive_max_pool3d.default", group=W)
def adaptive_pool(e, n):
    """An average (max) pool whose window and stride are input // output where the output
    size divides the (static) input size; otherwise PyTorch's windows [floor(i in / out),
    ceil((i + 1) in / out)) along each spatial dim in turn (a rectangle's mean or max is
    that of its rows' means or maxes), their bounds computed at run time over a `?` dim
    (torchvision's classifiers pool to 1x1 or 7x7 from any image size; its video models to
    1x1x1 over time too). adaptive_max_pool's indices are not computed."""
    x = n.arg("self")
    out = _pairs(n.arg("output_size"), 1)
    k = len(out)
    sizes = list(x.type.shape[-k:])
    is_max = "max" in e.target
    if any(not isinstance(o, int) for o in out):
        raise e.error(f"adaptive pooling to a run-time output size {out} is not supported")
    el = x.type.elem
    body, init = ("maximum", e.init("max", el)) if is_max else ("add", 0)
    if all(s is not None and s % o == 0 for s, o in zip(sizes, out)):
        kernel = [s // o for s, o in zip(sizes, out)]
        attrs = _window(e, x, kernel, kernel, 0, False)
        y = e.op("reduce_window", [x, e.const(init, el, ())], attrs,
                 regions=[e.scalar_region(el, body)]).result
        y = y if is_max else e.binary("divide", y, e.scalar(int(np.prod(kernel)), el))
        return [y, None] if is_max else y
    for j, o in enumerate(out):
        axis = x.type.rank - k + j
        size = e.dims(x)[axis]
        cells = []
        for i in range(o):
            lo, hi = _cell_bounds(e, size, i, o)
            piece = x if o == 1 else e.slice(x, [lo if a == axis else 0 for a in range(x.type.rank)],
                                             [hi if a == axis else d for a, d in enumerate(e.dims(x))])
            piece = e.keep_dims(e.reduce(piece, [axis], body, init), x, [axis])
            count = hi - lo if isinstance(size, int) else e.v("subtract", [hi, e.scalar(lo, "i32")])
            cells.append(piece if is_max else e.binary("divide", piece, e.scalar(count, el)))
        x = cells[0] if o == 1 else e.v("concatenate", cells, {"dimension": axis})
    return [x, None] if is_max else x


def _cell_bounds(e, size, i: int, out: int):
    """[floor(i size / out), ceil((i + 1) size / out)): adaptive pooling's cell i of `out`
    along a dim of `size` (an int, or a run-time i32 scalar)."""
    if isinstance(size, int):
        return (i * size) // out, -(-((i + 1) * size) // out)

    def times_over(m: int, extra: int):
        num = e.v("add", [e.v("multiply", [size, e.scalar(m, "i32")]), e.scalar(extra, "i32")])
        return e.v("divide", [num, e.scalar(out, "i32")])
    lo = 0 if i == 0 else times_over(i, 0)
    return lo, times_over(i + 1, out - 1)


def _source_scale(size: int, out: int, factor, align: bool):
    """Source positions per output position, in f32 as PyTorch's CPU kernels compute it:
    (size - 1) / (out - 1) with align_corners, else 1 / scale_factor when one is given,
    else size / out."""
    if align:
        return np.float32((size - 1) / (out - 1)) if out > 1 else np.float32(0)
    return np.float32(1.0 / factor) if factor else np.float32(size / out)


def _source_indices(size: int, out: int, factor, align: bool, bilinear: bool):
    """The source index each of `out` outputs reads along an axis of `size`, as PyTorch's
    CPU kernels compute it in f32 (its scale is 1 / scale_factor when one is given, else
    size / out); for bilinear, also the next index and the weight of that next one."""
    dst = np.arange(out, dtype=np.float32)
    scale = _source_scale(size, out, factor, bilinear and align)
    if not bilinear:
        return np.minimum(np.floor(dst * scale).astype(np.int64), size - 1), None, None
    src = scale * dst if align else np.maximum(scale * (dst + np.float32(0.5)) - np.float32(0.5), 0)
    lo = np.minimum(np.floor(src).astype(np.int64), size - 1)
    weight = np.clip(src - lo.astype(np.float32), 0, 1).astype(np.float32)
    return lo, np.minimum(lo + 1, size - 1), weight


@aten("upsample_nearest2d.vec", "upsample_bilinear2d.vec", "upsample_nearest2d.default",
      "upsample_bilinear2d.default", group=W)
def upsample(e, n):
    """F.interpolate's nearest and bilinear modes over the last two dims, one axis at a time:
    a gather of the rows (then columns) each output reads, blended by their weights for
    bilinear. Static sizes read constant tables; a dynamic one computes them when called."""
    x = n.arg("input")
    out_shape, elem = n.meta()
    r = x.type.rank
    factors = n.arg("scale_factors", None) if "scale_factors" in n.inputs else \
        [n.arg("scales_h", None), n.arg("scales_w", None)]
    bilinear = "bilinear" in e.target
    align = bool(n.arg("align_corners", False)) if bilinear else False
    sizes = n.arg("output_size", None)
    for k, axis in enumerate((r - 2, r - 1)):
        size, out = x.type.shape[axis], out_shape[axis]
        factor = (factors or [None, None])[k]
        if size is None or out is None:
            x = _resample_dynamic(e, x, axis, _output_size(e, x, axis, sizes, k, factor, out),
                                  factor, align, bilinear)
            continue
        lo, hi, weight = _source_indices(size, out, factor, align, bilinear)
        if size == out and np.array_equal(lo, np.arange(out)) and (weight is None or not weight.any()):
            continue
        if weight is None:
            x = gather_axis(e, x, e.const(lo, "i64"), axis)
            continue
        x = _blend(e, x, axis, e.const(lo, "i64"), e.const(hi, "i64"), e.const(weight, elem),
                   e.const(1 - weight, elem))
    return x


def _cubic_taps(size: int, out: int, factor, align: bool):
    """The four source indices (clamped into the axis) and weights of each of `out` outputs
    of bicubic interpolation along an axis of `size`, as PyTorch's CPU kernel computes them
    in f32: cubic convolution with A = -0.75 around floor(src), src not clamped at 0."""
    f = np.float32
    dst = np.arange(out, dtype=f)
    scale = _source_scale(size, out, factor, align)
    src = scale * dst if align else scale * (dst + f(0.5)) - f(0.5)
    base = np.floor(src)
    t = (src - base).astype(f)
    a = f(-0.75)

    def near(x):  # |x| <= 1
        return ((a + 2) * x - (a + 3)) * x * x + 1

    def far(x):  # 1 < |x| < 2
        return ((a * x - 5 * a) * x + 8 * a) * x - 4 * a
    weights = [far(t + 1), near(t), near(1 - t), far(2 - t)]
    indices = [np.clip(base.astype(np.int64) - 1 + k, 0, size - 1) for k in range(4)]
    return indices, [w.astype(f) for w in weights]


@aten("upsample_bicubic2d.vec", "upsample_bicubic2d.default", group=W)
def upsample_bicubic(e, n):
    """F.interpolate's bicubic mode over the last two dims of static sizes, one axis at a
    time: four gathers of the rows (then columns) each output reads, weighted and summed
    (CrossViT resizes its positional embeddings so)."""
    x = n.arg("input")
    out_shape, elem = n.meta()
    r = x.type.rank
    factors = n.arg("scale_factors", None) if "scale_factors" in n.inputs else \
        [n.arg("scales_h", None), n.arg("scales_w", None)]
    align = bool(n.arg("align_corners", False))
    for k, axis in enumerate((r - 2, r - 1)):
        size, out = x.type.shape[axis], out_shape[axis]
        if size is None or out is None:
            raise e.error("bicubic interpolation over a dynamic dim is not supported yet")
        indices, weights = _cubic_taps(size, out, (factors or [None, None])[k], align)
        parts = []
        for idx, w in zip(indices, weights):
            picked = gather_axis(e, x, e.const(idx, "i64"), axis)
            w = e.broadcast_to(e.const(w, elem), e.dims(picked), mapping=(axis,))
            parts.append(e.v("multiply", [picked, w]))
        x = e.v("add", [e.v("add", [parts[0], parts[1]]), e.v("add", [parts[2], parts[3]])])
    return x


def _blend(e, x, axis: int, lo, hi, w1, w0):
    """x's elements at `lo` times w0 plus those at `hi` times w1, along `axis` (bilinear)."""
    picked, after = gather_axis(e, x, lo, axis), gather_axis(e, x, hi, axis)
    dims = e.dims(picked)
    w1, w0 = (e.broadcast_to(w, dims, mapping=(axis,)) for w in (w1, w0))
    return e.v("add", [e.v("multiply", [picked, w0]), e.v("multiply", [after, w1])])


def _output_size(e, x, axis: int, sizes, k: int, factor, static_out):
    """The output length along `axis`: given (`output_size`), recorded static, or PyTorch's
    floor(size * scale_factor) of the run-time size."""
    if static_out is not None:
        return static_out
    if sizes is not None:
        return sizes[k]
    if not factor:
        raise e.error("interpolation over a dynamic dim needs output_size or scale_factor")
    size = e.convert(e.v("get_dimension_size", [x], {"dimension": axis}), "f64")
    return e.convert(e.v("floor", [e.binary("multiply", size, e.scalar(float(factor), "f64"))]), "i32")


def _resample_dynamic(e, x, axis: int, out, factor, align: bool, bilinear: bool):
    """_source_indices' tables computed at run time (f32 arithmetic, as PyTorch's CPU
    kernels do theirs), then the same gathers and blend."""
    f32 = "f32"
    size = e.v("get_dimension_size", [x], {"dimension": axis})
    out_v = e.scalar_dim(out)
    dst = e.convert(e.iota([out], 0, "i32"), f32)
    size_f, out_f = e.convert(size, f32), e.convert(out_v, f32)
    one = e.scalar(1, f32)
    if bilinear and align:  # (size - 1) / (out - 1), 0 for one output
        num, den = e.binary("subtract", size_f, one), e.binary("subtract", out_f, one)
        scale = e.select(e.compare(out_f, one, "GT"), e.binary("divide", num, e.v("maximum", [den, one])),
                         e.scalar(0, f32))
    elif factor:
        scale = e.scalar(float(np.float32(1.0 / factor)), f32)
    else:
        scale = e.binary("divide", size_f, out_f)
    last = e.binary("subtract", e.convert(size, "i64"), e.scalar(1, "i64"))
    if bilinear:
        src = e.binary("multiply", dst, scale) if align else e.v("maximum", [
            e.binary("subtract", e.binary("multiply", e.binary("add", dst, e.scalar(0.5, f32)), scale),
                     e.scalar(0.5, f32)), e.broadcast_to(e.scalar(0, f32), [out])])
    else:
        src = e.binary("multiply", dst, scale)
    floor = e.v("floor", [src])
    lo = e.v("minimum", [e.convert(floor, "i64"), e.broadcast_to(last, [out])])
    if not bilinear:
        return gather_axis(e, x, lo, axis)
    hi = e.v("minimum", [e.binary("add", lo, e.scalar(1, "i64")), e.broadcast_to(last, [out])])
    weight = e.v("clamp", [e.scalar(0, f32), e.binary("subtract", src, e.convert(lo, f32)), one])
    elem = x.type.elem
    return _blend(e, x, axis, lo, hi, e.convert(weight, elem),
                  e.convert(e.binary("subtract", one, weight), elem))
