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


@aten("grid_sampler_2d.default", "grid_sampler.default", group=X)
def grid_sampler(e, n):
    """F.grid_sample: input [N, C, H, W] read at grid [N, Ho, Wo, 2]'s (x, y) in [-1, 1]
    (align_corners: -1 and 1 are the corner pixels' centres, else their outer edges),
    bilinear (mode 0) or nearest (1), with zeros (0) or border (1) padding: each corner
    pixel one gather of [N, Ho, Wo, C], weighted, summed, moved to [N, C, Ho, Wo]."""
    x, grid = n.arg("input"), n.arg("grid")
    mode, padding = n.arg("interpolation_mode", 0), n.arg("padding_mode", 0)
    align = bool(n.arg("align_corners", False))
    if x.type.rank != 4 or mode not in (0, 1) or padding not in (0, 1):
        raise e.error(f"grid_sample of a {x.type.rank}-D input, mode {mode}, padding {padding}: "
                      "only 2-D bilinear or nearest with zeros or border padding is supported")
    el = x.type.elem
    h, w = x.type.shape[2], x.type.shape[3]
    if h is None or w is None or x.type.shape[1] is None:
        raise e.error("grid_sample needs static channel and spatial dims")
    gdims = e.dims(grid)[:3]

    def coord(k, size):
        g = e.reshape(slice_dim(e, grid, 3, k, k + 1, 1), gdims)
        g = e.convert(g, el)
        one = e.broadcast_to(e.scalar(1, el), gdims)
        if align:
            c = e.binary("multiply", e.v("add", [g, one]), e.scalar((size - 1) / 2, el))
        else:
            c = e.binary("divide", e.binary("subtract", e.binary(
                "multiply", e.v("add", [g, one]), e.scalar(size, el)), e.scalar(1, el)), e.scalar(2, el))
        if padding == 1:
            c = e.v("clamp", [e.scalar(0, el), c, e.scalar(size - 1, el)])
        return c

    ix, iy = coord(0, w), coord(1, h)
    batch = e.iota(gdims, 0, "i64")

    def corner(cx, cy):
        """input at integer (cx, cy) (float tensors), zero outside: [N, Ho, Wo, C]."""
        xi, yi = e.convert(cx, "i64"), e.convert(cy, "i64")
        inside = e.v("and", [
            e.v("and", [e.compare(cx, e.broadcast_to(e.scalar(0, el), gdims), "GE"),
                        e.compare(cx, e.broadcast_to(e.scalar(w - 1, el), gdims), "LE")]),
            e.v("and", [e.compare(cy, e.broadcast_to(e.scalar(0, el), gdims), "GE"),
                        e.compare(cy, e.broadcast_to(e.scalar(h - 1, el), gdims), "LE")])])
        coords = e.v("concatenate", [e.reshape(v, gdims + [1]) for v in (batch, yi, xi)],
                     {"dimension": 3})
        dn = {"offset_dims": (3,), "collapsed_slice_dims": (0, 2, 3),
              "start_index_map": (0, 2, 3), "index_vector_dim": 3}
        t = TensorType(tuple(grid.type.shape[:3]) + (x.type.shape[1],), el)
        picked = e.v("gather", [x, coords], {"dimension_numbers": dn,
                                             "slice_sizes": (1, x.type.shape[1], 1, 1)}, t)
        mask = e.broadcast_to(inside, e.dims(picked), picked.type.shape, mapping=(0, 1, 2))
        return e.v("select", [mask, picked, e.broadcast_to(e.scalar(0, el), e.dims(picked),
                                                            picked.type.shape)])

    def spread(wt, v):
        return e.v("multiply", [v, e.broadcast_to(wt, e.dims(v), v.type.shape, mapping=(0, 1, 2))])

    if mode == 1:  # nearest: round half to even, as PyTorch's nearbyint
        out = corner(e.v("round_nearest_even", [ix]), e.v("round_nearest_even", [iy]))
    else:
        x0, y0 = e.v("floor", [ix]), e.v("floor", [iy])
        one = e.broadcast_to(e.scalar(1, el), gdims)
        x1, y1 = e.v("add", [x0, one]), e.v("add", [y0, one])
        fx, fy = e.v("subtract", [ix, x0]), e.v("subtract", [iy, y0])
        gx, gy = e.v("subtract", [one, fx]), e.v("subtract", [one, fy])
        parts = [spread(e.v("multiply", [wx, wy]), corner(cx, cy))
                 for cx, wx in ((x0, gx), (x1, fx)) for cy, wy in ((y0, gy), (y1, fy))]
        out = parts[0]
        for p in parts[1:]:
            out = e.v("add", [out, p])
    return e.v("transpose", [out], {"permutation": (0, 3, 1, 2)})
