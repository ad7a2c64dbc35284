"""ATen's rearranging reads that take more than one gather or slice: embedding_bag,
masked_select, repeat_interleave, roll, unfold, diagonal, and the constant index tables
(triu_indices, tril_indices), lowered to mhlo. Sizes along a dynamic dim are computed at
run time where PyTorch allows one (a `?` count of rows: masked_select, repeat_interleave
with a tensor of repeats)."""
from __future__ import annotations

import numpy as np

from lowering.ir.core import TensorType, Value
from lowering.torch.emitter import TorchEmitter
from lowering.torch.math_ops import cumulative
from lowering.torch.scatter import scatter_into
from lowering.torch.shapes import gather_axis, slice_dim
from lowering.torch.table import aten

X = "indexing"
S = "shapes and data movement"


@aten("embedding_bag.padding_idx", "embedding_bag.default", "_embedding_bag.default",
      "_embedding_bag_forward_only.default", group=X)
def embedding_bag(e, n):
    """Each bag's rows of weight (indices[offsets[b]:offsets[b+1]]) summed, averaged or
    maxed (mode 0, 1, 2, or 'sum', 'mean', 'max'): the rows gathered, then one scatter into
    [bags, D] by each index's bag (the count of offsets at or before it, less one). A row
    at padding_idx, and an index before offsets[0], is skipped; an empty bag is zeros.
    per_sample_weights scale the rows (sum mode). The other results (offset2bag, bag_size,
    max_indices) are not computed."""
    weight, idx, offsets = n.arg("weight"), n.arg("indices"), n.arg("offsets")
    mode = n.arg("mode", 0)
    mode = {"sum": 0, "mean": 1, "max": 2}.get(mode, mode)
    if idx.type.rank != 1:
        raise e.error(f"indices must be 1-D with offsets, got {idx.type}")
    psw = n.arg("per_sample_weights", None)
    last = bool(n.arg("include_last_offset", False))
    pad = n.arg("padding_idx", None)
    pad = -1 if pad is None else pad
    idx, offsets = e.convert(idx, "i64"), e.convert(offsets, "i64")
    count, nbags = e.dims(idx)[0], e.dims(offsets)[0]
    if last:
        nbags = nbags - 1 if isinstance(nbags, int) else e.v("subtract", [nbags, e.scalar(1, "i32")])
    table = e.compare(e.broadcast_to(offsets, [count, e.dims(offsets)[0]], mapping=(1,)),
                      e.broadcast_to(e.iota([count], 0, "i64"), [count, e.dims(offsets)[0]],
                                     mapping=(0,)), "LE")
    bag = e.v("subtract", [e.reduce(e.convert(table, "i64"), [1], "add", 0),
                           e.broadcast_to(e.scalar(1, "i64"), [count])])
    if pad >= 0:  # a padding row goes to bag `nbags`, past the end: the scatter skips it
        at_pad = e.compare(idx, e.broadcast_to(e.scalar(pad, "i64"), [count]), "EQ")
        bag = e.v("select", [at_pad, e.broadcast_to(e.scalar(nbags, "i64"), [count]), bag])
    rows = gather_axis(e, weight, idx, 0)  # [count, D]
    d = e.dims(weight)[1]
    if psw is not None:
        rows = e.v("multiply", [rows, e.broadcast_to(e.convert(psw, rows.type.elem),
                                                      e.dims(rows), rows.type.shape, mapping=(0,))])
    dn = {"update_window_dims": (1,), "inserted_window_dims": (0,),
          "scatter_dims_to_operand_dims": (0,), "index_vector_dim": 1}
    coords = e.reshape(bag, [count, 1])
    elem = weight.type.elem
    zeros = e.broadcast_to(e.scalar(0, elem), [nbags, d])
    if mode == 0:
        return scatter_into(e, zeros, coords, rows, dn, "add")
    if mode == 1:
        return scatter_into(e, zeros, coords, rows, dn, "mean", include_self=False)
    if mode == 2:
        low = e.broadcast_to(e.scalar(e.init("max", elem), elem), [nbags, d])
        out = scatter_into(e, low, coords, rows, dn, "maximum")
        empty = e.compare(out, low, "EQ")
        return e.v("select", [empty, zeros, out])
    raise e.error(f"embedding_bag mode {mode!r} is not supported (sum, mean, max)")


@aten("masked_select.default", group=X)
def masked_select(e, n):
    """The elements of self where mask (broadcast together) is true, row-major, as a 1-D
    tensor whose length is counted at run time."""
    x, mask = e.broadcast_all([n.arg("self"), n.arg("mask")])
    flat = e.reshape(x, [e.product(e.dims(x))])
    coords = e.v("dhlo.where", [e.reshape(mask, e.dims(flat))],
                 result_type=TensorType((None, 1), "i64"))
    dn = {"offset_dims": (), "collapsed_slice_dims": (0,), "start_index_map": (0,),
          "index_vector_dim": 1}
    return e.v("gather", [flat, coords], {"dimension_numbers": dn, "slice_sizes": (1,)},
               TensorType((None,), x.type.elem))


def _repeat_indices(e: TorchEmitter, repeats: Value) -> Value:
    """repeat_interleave of a 1-D tensor of counts: index i repeated repeats[i] times (the
    count of running sums at or below each output position), its length read at run time."""
    repeats = e.convert(repeats, "i64")
    ends = cumulative(e, repeats, 0, "add", 0)
    total = e.convert(e.reduce(repeats, [0], "add", 0), "i32")
    k = e.dims(repeats)[0]
    table = e.compare(e.broadcast_to(ends, [total, k], mapping=(1,)),
                      e.broadcast_to(e.iota([total], 0, "i64"), [total, k], mapping=(0,)), "LE")
    return e.reduce(e.convert(table, "i64"), [1], "add", 0)


@aten("repeat_interleave.Tensor", "repeat_interleave.self_Tensor", "repeat_interleave.self_int",
      group=S)
def repeat_interleave(e, n):
    """Each element (each slice along `dim`; of the flattened input without one) repeated:
    an int `repeats` times by a broadcast, a tensor of counts through the indices it makes
    (repeat_interleave.Tensor is those indices themselves)."""
    if e.target == "aten.repeat_interleave.Tensor":
        return _repeat_indices(e, n.arg("repeats"))
    x, reps, dim = n.arg("self"), n.arg("repeats"), n.arg("dim", None)
    if dim is None:
        x, axis = e.reshape(x, [e.product(e.dims(x))]), 0
    else:
        axis = e.axis(dim, x.type.rank)
    if isinstance(reps, Value) and reps.type.rank == 1 and reps.type.shape != (1,):
        return gather_axis(e, x, _repeat_indices(e, reps), axis)
    if isinstance(reps, Value):
        reps = e.convert(e.reshape(reps, []), "i32")
    dims = e.dims(x)
    wide = dims[:axis + 1] + [reps] + dims[axis + 1:]
    b = e.broadcast_to(x, wide, mapping=tuple(i if i <= axis else i + 1 for i in range(len(dims))))
    return e.reshape(b, dims[:axis] + [e.product([dims[axis], reps])] + dims[axis + 1:])


@aten("roll.default", group=S)
def roll(e, n):
    """Elements shifted along each dim (of the flattened input without dims), those pushed
    off the end coming back at the front: two slices concatenated, the cut at size - shift
    mod size (at run time along a dynamic dim)."""
    x = n.arg("self")
    shifts, dims = list(n.arg("shifts")), list(n.arg("dims", []) or [])
    flat = not dims
    if flat:
        shape, x, dims = e.dims(x), e.reshape(x, [e.product(e.dims(x))]), [0]
    if len(shifts) != len(dims):
        raise e.error(f"shifts {shifts} and dims {dims} differ in length")
    for s, d in zip(shifts, dims):
        axis = e.axis(d, x.type.rank)
        size = e.dims(x)[axis]
        if isinstance(size, int) and isinstance(s, int):
            if size == 0 or s % size == 0:
                continue
            cut = size - s % size
        else:
            sv, dv = e.scalar(s, "i32"), e.scalar(size, "i32")
            m = e.v("remainder", [e.v("add", [e.v("remainder", [sv, dv]), dv]), dv])
            cut = e.v("subtract", [dv, m])
        x = e.v("concatenate", [slice_dim(e, x, axis, cut, None, 1),
                                slice_dim(e, x, axis, 0, cut, 1)], {"dimension": axis})
    return e.reshape(x, shape) if flat else x


@aten("im2col.default", group=S)
def im2col(e, n):
    """F.unfold: [N, C, H, W] -> [N, C * kh * kw, L], the column of each of the L sliding
    windows (padded, strided, dilated): one gather of the rows each window reads, one of the
    columns, then the window's dims moved before the positions (TNT's pixel embedding)."""
    x = n.arg("self")
    kernel, dil, pad, stride = (list(n.arg(a)) for a in ("kernel_size", "dilation", "padding",
                                                          "stride"))
    batched = x.type.rank == 4
    if not batched:
        x = e.reshape(x, [1] + e.dims(x))
    if any(d is None for d in x.type.shape[2:]):
        raise e.error("F.unfold over dynamic spatial dims is not supported yet")
    if any(pad):
        x = e.v("pad", [x, e.scalar(0, x.type.elem)], {
            "edge_padding_low": (0, 0, *pad), "edge_padding_high": (0, 0, *pad),
            "interior_padding": (0, 0, 0, 0)})
    outs = []
    for axis, (k, d, s) in enumerate(zip(kernel, dil, stride)):
        count = (x.type.shape[2 + 2 * axis] - d * (k - 1) - 1) // s + 1
        outs.append(count)
        table = np.arange(count)[:, None] * s + np.arange(k)[None, :] * d
        x = gather_axis(e, x, e.const(table, "i64"), 2 + 2 * axis)  # that dim -> [count, k]
    dims = e.dims(x)  # [N, C, oh, kh, ow, kw]
    cols = e.v("transpose", [x], {"permutation": (0, 1, 3, 5, 2, 4)})
    out = e.reshape(cols, [dims[0], dims[1] * kernel[0] * kernel[1], outs[0] * outs[1]])
    return out if batched else e.reshape(out, e.dims(out)[1:])


@aten("unfold.default", group=S)
def unfold(e, n):
    """Windows of `size` every `step` along `dimension`, the window's elements as a new last
    dim: one gather at the [count, size] table start + j, then that dim moved last."""
    x = n.arg("self")
    axis = e.axis(n.arg("dimension"), max(x.type.rank, 1))
    size, step = n.arg("size"), n.arg("step")
    if x.type.rank == 0:
        return e.reshape(x, [1])
    d = e.dims(x)[axis]
    if isinstance(d, int):
        count = (d - size) // step + 1
    else:
        count = e.v("add", [e.v("divide", [e.v("subtract", [d, e.scalar(size, "i32")]),
                                           e.scalar(step, "i32")]), e.scalar(1, "i32")])
    starts = e.binary("multiply", e.iota([count, size], 0, "i64"), e.scalar(step, "i64"))
    table = e.v("add", [starts, e.iota([count, size], 1, "i64")])
    g = gather_axis(e, x, table, axis)  # [..., count, size, ...]
    r = g.type.rank
    perm = tuple(i for i in range(r) if i != axis + 1) + (axis + 1,)
    return e.v("transpose", [g], {"permutation": perm})


@aten("diagonal.default", "diagonal_copy.default", group=S)
def diagonal(e, n):
    """The elements (i, i + offset) of dims dim1 and dim2 (static), as a last dim: those two
    dims moved last, then one gather at the constant pairs."""
    x = n.arg("self")
    r = x.type.rank
    a, b = e.axis(n.arg("dim1", 0), r), e.axis(n.arg("dim2", 1), r)
    offset = n.arg("offset", 0)
    rows, cols = x.type.shape[a], x.type.shape[b]
    if rows is None or cols is None:
        raise e.error("diagonal over a dynamic dim is not supported yet")
    rest = [i for i in range(r) if i not in (a, b)]
    x = e.v("transpose", [x], {"permutation": tuple(rest) + (a, b)})
    length = max(min(rows + min(offset, 0), cols - max(offset, 0)), 0)
    i = np.arange(length)
    pairs = np.stack([i - min(offset, 0), i + max(offset, 0)], 1)
    lead = e.dims(x)[:r - 2]
    if length == 0:
        return e.broadcast_to(e.scalar(0, x.type.elem), lead + [0])
    coords = e.const(pairs, "i64", pairs.shape)
    dn = {"offset_dims": tuple(range(r - 2)), "collapsed_slice_dims": (r - 2, r - 1),
          "start_index_map": (r - 2, r - 1), "index_vector_dim": 1}
    t = TensorType(tuple(x.type.shape[:r - 2]) + (length,), x.type.elem)
    sizes = lead + [1, 1]
    if all(isinstance(s, int) for s in sizes):
        return e.v("gather", [x, coords], {"dimension_numbers": dn, "slice_sizes": tuple(sizes)}, t)
    return e.v("dynamic_gather", [x, coords, e.shape_tensor(sizes)], {"dimension_numbers": dn}, t)


@aten("triu_indices.default", "tril_indices.default", group="creation")
def triu_indices(e, n):
    """The [2, count] row and column indices of a row x col matrix's upper (lower) triangle
    from `offset`: a constant."""
    row, col, offset = n.arg("row"), n.arg("col"), n.arg("offset", 0)
    if not all(isinstance(v, int) for v in (row, col, offset)):
        raise e.error("triu_indices/tril_indices need constant sizes")
    pick = np.triu_indices if e.target.startswith("aten.triu") else np.tril_indices
    arr = np.stack(pick(row, offset, col)).astype(np.int64)
    return e.const(arr, n.out_elem(), arr.shape)


# F.grid_sample's modes and paddings, as ATen numbers them.
GRID_MODES = {0: "bilinear", 1: "nearest", 2: "bicubic"}
GRID_PADDINGS = {0: "zeros", 1: "border", 2: "reflection"}
CUBIC_A = -0.75  # PyTorch's cubic convolution constant (bicubic sampling and upsampling)


@aten("grid_sampler_2d.default", "grid_sampler.default", group=X)
def grid_sampler(e, n):
    """F.grid_sample: input [N, C, H, W] read at grid [N, Ho, Wo, 2]'s (x, y) in [-1, 1]
    (align_corners: -1 and 1 are the corner pixels' centres, else their outer edges),
    bilinear (mode 0, 2x2 pixels), nearest (1) or bicubic (2, 4x4 pixels, PyTorch's cubic
    convolution with A = -0.75), with zeros (0), border (1) or reflection (2) padding:
    each pixel read is one gather of [N, Ho, Wo, C] (zero outside the image), weighted,
    summed, moved to [N, C, Ho, Wo]. As PyTorch does, bilinear and nearest pad the point's
    coordinate, bicubic each of its 16 pixels' coordinates."""
    x, grid = n.arg("input"), n.arg("grid")
    mode, padding = n.arg("interpolation_mode", 0), n.arg("padding_mode", 0)
    align = bool(n.arg("align_corners", False))
    if x.type.rank != 4 or mode not in GRID_MODES or padding not in GRID_PADDINGS:
        raise e.error(f"grid_sample of a {x.type.rank}-D input, mode {mode}, padding {padding}: "
                      "only a 2-D image, bilinear, nearest or bicubic, zeros, border or "
                      "reflection padding is supported")
    el, c = x.type.elem, x.type.shape[1]
    h, w = x.type.shape[2], x.type.shape[3]
    if h is None or w is None or c is None:
        raise e.error("grid_sample needs static channel and spatial dims")
    gdims = e.dims(grid)[:3]
    over_grid, over_pixels = Broadcasts(e, gdims), Broadcasts(e, gdims + [c])

    def const(value):
        return over_grid.const(value, el)

    def unnormalize(k, size):
        g = e.convert(e.reshape(slice_dim(e, grid, 3, k, k + 1, 1), gdims), el)
        if align:
            return e.v("multiply", [e.v("add", [g, const(1)]), const((size - 1) / 2)])
        return e.v("divide", [e.v("subtract", [e.v("multiply", [e.v("add", [g, const(1)]),
                                                                const(size)]), const(1)]), const(2)])

    def pad(v, size):
        """The coordinate as the padding mode moves it into the image (zeros: unmoved)."""
        if padding == 2:  # reflect about the edges (align_corners: the corner pixels' centres)
            low, span = (0.0, size - 1) if align else (-0.5, size)
            if span == 0:
                return const(0)
            v = e.v("abs", [e.v("subtract", [v, const(low)])])
            extra = e.v("remainder", [v, const(span)])
            flips = e.v("floor", [e.v("divide", [v, const(span)])])
            even = e.compare(e.v("remainder", [flips, const(2)]), const(0), "EQ")
            v = e.v("select", [even, e.v("add", [extra, const(low)]),
                               e.v("subtract", [const(span + low), extra])])
        if padding in (1, 2):
            v = e.v("clamp", [e.scalar(0, el), v, e.scalar(size - 1, el)])
        return v

    def index(v, size):
        """An integer coordinate (a float tensor) as ([N, Ho, Wo, 1] i64, inside the image)."""
        if mode == 2:
            v = pad(v, size)
        inside = e.v("and", [e.compare(v, const(0), "GE"), e.compare(v, const(size - 1), "LE")])
        return e.reshape(e.convert(v, "i64"), gdims + [1]), inside

    batch = e.reshape(e.iota(gdims, 0, "i64"), gdims + [1])
    zeros = over_pixels.const(0, el)
    dn = {"offset_dims": (3,), "collapsed_slice_dims": (0, 2, 3),
          "start_index_map": (0, 2, 3), "index_vector_dim": 3}

    def pixel(at_x, at_y):
        """input at two coordinates from `index`, zero outside: [N, Ho, Wo, C]."""
        (xi, x_in), (yi, y_in) = at_x, at_y
        coords = e.v("concatenate", [batch, yi, xi], {"dimension": 3})
        picked = e.v("gather", [x, coords], {"dimension_numbers": dn, "slice_sizes": (1, c, 1, 1)},
                     TensorType(over_pixels.shape, el))
        return e.v("select", [over_pixels(e.v("and", [x_in, y_in]), (0, 1, 2)), picked, zeros])

    def weighted(pixels, weights):
        """sum_i pixels[i] * weights[i], the [N, Ho, Wo] weights spread over C."""
        out = None
        for v, wt in zip(pixels, weights):
            p = e.v("multiply", [v, over_pixels(wt, (0, 1, 2))])
            out = p if out is None else e.v("add", [out, p])
        return out

    ix, iy = unnormalize(0, w), unnormalize(1, h)
    if mode != 2:
        ix, iy = pad(ix, w), pad(iy, h)
    if mode == 1:  # nearest: round half to even, as PyTorch's nearbyint
        out = pixel(index(e.v("round_nearest_even", [ix]), w), index(e.v("round_nearest_even", [iy]), h))
    else:  # bilinear: 2x2 pixels; bicubic: each of 4 rows interpolated along x, then along y
        taps = 2 if mode == 0 else 4
        x0, y0 = e.v("floor", [ix]), e.v("floor", [iy])
        tx, ty = e.v("subtract", [ix, x0]), e.v("subtract", [iy, y0])
        if mode == 0:
            wx, wy = [e.v("subtract", [const(1), tx]), tx], [e.v("subtract", [const(1), ty]), ty]
        else:
            wx, wy = cubic_weights(e, tx, const), cubic_weights(e, ty, const)
        first = 0 if mode == 0 else -1
        xs = [index(e.v("add", [x0, const(first + k)]), w) for k in range(taps)]
        ys = [index(e.v("add", [y0, const(first + k)]), h) for k in range(taps)]
        out = weighted([weighted([pixel(at_x, at_y) for at_x in xs], wx) for at_y in ys], wy)
    return e.v("transpose", [out], {"permutation": (0, 3, 1, 2)})


class Broadcasts:
    """Broadcasts to one shape sharing its shape tensor, and its constants: a dynamic
    shape's tensor is built once, not per broadcast (grid_sample's bicubic mode makes
    hundreds)."""

    def __init__(self, e: TorchEmitter, dims: list):
        self.e, self.shape = e, e.static_dims(dims)
        self.size = None if all(isinstance(d, int) for d in dims) else e.shape_tensor(dims)
        self.consts: dict = {}

    def __call__(self, v: Value, mapping: tuple = ()) -> Value:
        t = TensorType(self.shape, v.type.elem)
        if self.size is None:
            return self.e.v("broadcast_in_dim", [v], {"broadcast_dimensions": mapping}, t)
        return self.e.v("dynamic_broadcast_in_dim", [v, self.size],
                        {"broadcast_dimensions": mapping}, t)

    def const(self, value, elem: str) -> Value:
        if (value, elem) not in self.consts:
            self.consts[value, elem] = self(self.e.scalar(value, elem))
        return self.consts[value, elem]


def cubic_weights(e, t, const) -> list:
    """The 4 weights of the pixels at -1, 0, 1, 2 from a point t in [0, 1) past pixel 0:
    Keys' cubic convolution with PyTorch's A (|d| <= 1: ((A+2)d - (A+3))d^2 + 1, else
    ((Ad - 5A)d + 8A)d - 4A, of the distance d)."""
    a = CUBIC_A

    def near(d):
        return e.v("add", [e.v("multiply", [e.v("multiply", [e.v("subtract", [
            e.v("multiply", [const(a + 2), d]), const(a + 3)]), d]), d]), const(1)])

    def far(d):
        inner = e.v("add", [e.v("multiply", [e.v("subtract", [e.v("multiply", [const(a), d]),
                                                              const(5 * a)]), d]), const(8 * a)])
        return e.v("subtract", [e.v("multiply", [inner, d]), const(4 * a)])

    s = e.v("subtract", [const(1), t])
    return [far(e.v("add", [t, const(1)])), near(t), near(s), far(e.v("add", [s, const(1)]))]
