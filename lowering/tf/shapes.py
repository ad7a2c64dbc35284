"""TF shape and data-movement ops, dynamic dims kept: shapes computed at run time become the
dynamic ops (a `tf.Reshape` of a computed shape is `dynamic_reshape`, `tf.Shape` is
get_dimension_size and concatenate, slices of `?` dims are `real_dynamic_slice`), and the
data-dependent ops (`tf.Where`, `tf.Unique`) the DHLO ops that size their results exactly."""
from __future__ import annotations

import math
import re

import numpy as np

from lowering.ir.core import DenseAttr, TensorType
from lowering.tf.emitter import MAX_INT_LIST, Emitter, gather_axis, result_elem
from lowering.tf.table import tf_op

G = "shapes and data movement"
MAX_PADDED_OUTPUT = 1 << 24  # NonMaxSuppression's pad_to_max_output_size: a constant this long


def _out_elem(op, i=0, default="i32"):
    return result_elem(op, i, default)


@tf_op("Const", group=G)
def const(e: Emitter, op, args):
    value = op.attrs.get("value")
    if not isinstance(value, DenseAttr):
        raise e.error(f"constant of type {op.results[0].type} is not supported (tensors of "
                      "int, float and bool elements are)")
    return [e.v("constant", [], {"value": value}, value.type)]


@tf_op("Shape", group=G)
def shape(e, op, args):
    """The dims as a 1-D tensor: constants where static, get_dimension_size where not."""
    return [e.shape_tensor(e.dims(args[0]), _out_elem(op))]


@tf_op("ShapeN", group=G)
def shape_n(e, op, args):
    return [e.shape_tensor(e.dims(x), _out_elem(op, i)) for i, x in enumerate(args)]


@tf_op("Size", group=G)
def size(e, op, args):
    return [e.scalar_dim(e.product(e.dims(args[0])), _out_elem(op))]


@tf_op("Rank", group=G)
def rank(e, op, args):
    return [e.const(args[0].type.rank, "i32", ())]


def _shape_entries(e, v, n):
    """The entries of a 1-D shape operand: ints where known (a constant, or a concatenate of
    pieces that are), else scalar values read from it."""
    arr = e.constant_of(v)
    if arr is not None:
        if arr.size > MAX_INT_LIST:
            raise e.error(f"a shape of {arr.size} entries (at most {MAX_INT_LIST})")
        return [int(x) for x in arr.reshape(-1)]
    owner = v.owner
    if getattr(owner, "name", "") == "mhlo.concatenate":
        out = []
        for piece in owner.operands:
            if piece.type.rank != 1 or piece.type.shape[0] is None:
                break
            out += _shape_entries(e, piece, piece.type.shape[0])
        else:
            return out
    if getattr(owner, "name", "") == "mhlo.reshape" and owner.operands[0].type.shape == ():
        a = e.constant_of(owner.operands[0])
        return [int(a)] if a is not None else [owner.operands[0]]
    out = []
    for i in range(n):
        s = e.v("slice", [v], {"start_indices": (i,), "limit_indices": (i + 1,), "strides": (1,)})
        out.append(e.v("reshape", [s], result_type=TensorType((), v.type.elem)))
    return out


@tf_op("Reshape", group=G)
def reshape(e, op, args):
    """reshape for a constant shape of a static operand, else dynamic_reshape; a -1 entry
    is the element count divided by the product of the others, at run time if need be."""
    x, shape_v = args
    n = shape_v.type.shape[0] if shape_v.type.rank == 1 else None
    if n is None:
        raise e.error(f"the shape operand must be a 1-D tensor of static length, got {shape_v.type}")
    entries = _shape_entries(e, shape_v, n)
    if sum(1 for d in entries if isinstance(d, int) and d == -1) > 1:
        raise e.error("more than one -1 in the shape")
    if any(isinstance(d, int) and d == -1 for d in entries):
        total = e.product(e.dims(x))
        known = e.product([d for d in entries if not (isinstance(d, int) and d == -1)])
        if isinstance(total, int) and isinstance(known, int):
            missing = total // known if known else 0
        else:
            t = e.scalar_dim(total)
            k = e.scalar_dim(known)
            missing = e.v("divide", [t, e.v("maximum", [k, e.const(1, "i32", ())])])
        entries = [missing if isinstance(d, int) and d == -1 else d for d in entries]
    declared = op.results[0].type
    out = e.reshape(x, entries)
    if isinstance(declared, TensorType) and declared.rank == out.type.rank and \
            not out.type.is_static and declared.is_static and x.type.is_static:
        out = e.reshape(x, list(declared.shape))
    return [out]


def _axis(e, v, rank):
    (a,) = e.int_list(v, "the axis")
    return _axis_in(e, a, rank)


def _axis_in(e, a: int, rank: int) -> int:
    """An axis attribute or constant in [-rank, rank), as TensorFlow requires, made
    non-negative; any other is a located error (never wrapped around)."""
    if not -rank <= a < max(rank, 1):
        raise e.error(f"axis {a} out of range for rank {rank}")
    return a % rank if rank else 0


@tf_op("ExpandDims", group=G)
def expand_dims(e, op, args):
    x, axis_v = args
    (a,) = e.int_list(axis_v, "the axis")
    r = x.type.rank + 1
    if not -r <= a < r:
        raise e.error(f"axis {a} out of range for rank {x.type.rank}")
    dims = e.dims(x)
    dims.insert(a % r, 1)
    return [e.reshape(x, dims)]


@tf_op("Squeeze", group=G)
def squeeze(e, op, args):
    """The listed dims (all static 1s when none are) removed."""
    x = args[0]
    r = x.type.rank
    axes = [_axis_in(e, int(a), r) for a in op.attrs.get("squeeze_dims", [])]
    if not axes:
        axes = [i for i, d in enumerate(x.type.shape) if d == 1]
    for a in axes:
        if x.type.shape[a] not in (1, None):
            raise e.error(f"cannot squeeze dim {a} of size {x.type.shape[a]}")
    return [e.reshape(x, [d for i, d in enumerate(e.dims(x)) if i not in axes])]


@tf_op("Transpose", group=G)
def transpose(e, op, args):
    x, perm_v = args
    return [e.v("transpose", [x], {"permutation": tuple(e.int_list(perm_v, "the permutation"))})]


@tf_op("ConcatV2", group=G)
def concat_v2(e, op, args):
    *xs, axis_v = args
    a = _axis(e, axis_v, xs[0].type.rank)
    if len(xs) == 1:
        return [xs[0]]
    consts = [e.constant_of(x) for x in xs]
    if all(c is not None for c in consts):  # folded, as Pack
        arr = np.concatenate(consts, axis=a)
        return [e.const(arr, xs[0].type.elem, arr.shape)]
    return [e.v("concatenate", xs, {"dimension": a})]


@tf_op("Concat", group=G)
def concat(e, op, args):
    axis_v, *xs = args
    return concat_v2(e, op, xs + [axis_v])


@tf_op("Pack", group=G)
def pack(e, op, args):
    """Each operand given a dim of 1 at `axis`, then concatenated along it (constants
    folded: the raw import leaves Pack(Const) nodes where rules need constants)."""
    r = args[0].type.rank + 1
    a = _axis_in(e, int(op.attrs.get("axis", 0)), r)
    consts = [e.constant_of(x) for x in args]
    if all(c is not None for c in consts):
        arr = np.stack(consts, axis=a)
        return [e.const(arr, args[0].type.elem, arr.shape)]
    parts = []
    for x in args:
        dims = e.dims(x)
        dims.insert(a, 1)
        parts.append(e.reshape(x, dims))
    return [parts[0] if len(parts) == 1 else e.v("concatenate", parts, {"dimension": a})]


@tf_op("Unpack", group=G)
def unpack(e, op, args):
    x = args[0]
    r = x.type.rank
    a = _axis_in(e, int(op.attrs.get("axis", 0)), r)
    n = x.type.shape[a]
    if n is None:
        raise e.error("unpacking a dynamic dim is not supported")
    out = []
    for i in range(n):
        starts = [0] * r
        starts[a] = i
        piece = e.slice(x, starts, [d if k != a else i + 1 for k, d in enumerate(e.dims(x))],
                       [1] * r)
        out.append(e.reshape(piece, [d for k, d in enumerate(e.dims(piece)) if k != a]))
    return out


def _add(e, a, b):
    if isinstance(a, int) and isinstance(b, int):
        return a + b
    return e.v("add", [e.scalar_dim(a), e.scalar_dim(b)])


@tf_op("Slice", group=G)
def slice_(e, op, args):
    """begin and size (a size of -1 runs to the end), constant or computed."""
    x, begin_v, size_v = args
    r = x.type.rank
    begin = _shape_entries(e, begin_v, r)
    sizes = _shape_entries(e, size_v, r)
    dims = e.dims(x)
    limits = [dims[i] if isinstance(s, int) and s == -1 else _add(e, b, s)
              for i, (b, s) in enumerate(zip(begin, sizes))]
    return [e.slice(x, begin, limits, [1] * r)]


@tf_op("StridedSlice", group=G)
def strided_slice(e, op, args):
    """Constant begin/end/strides with every mask (begin, end, ellipsis, new_axis,
    shrink_axis); positive strides; negative indices count from the end, at run time for
    `?` dims; bounds clamped as TF does."""
    x, b_v, e_v, s_v = args
    strides = e.int_list(s_v, "StridedSlice's strides")
    begin = _shape_entries(e, b_v, len(strides))  # constants, or values read at run time
    end = _shape_entries(e, e_v, len(strides))
    bits = {k: int(op.attrs.get(k, 0)) for k in ("begin_mask", "end_mask", "ellipsis_mask",
                                                  "new_axis_mask", "shrink_axis_mask")}
    specs = []  # per input dim: (begin, end, stride, begin masked, end masked, shrink)
    new_axes = []  # positions in the output (before shrinking) of new dims
    real = sum(1 for i in range(len(begin)) if not (bits["new_axis_mask"] >> i) & 1
               and not (bits["ellipsis_mask"] >> i) & 1)
    for i in range(len(begin)):
        if (bits["ellipsis_mask"] >> i) & 1:
            for _ in range(x.type.rank - real):
                specs.append((0, 0, 1, True, True, False))
        elif (bits["new_axis_mask"] >> i) & 1:
            new_axes.append(len(specs) + len(new_axes))
        else:
            specs.append((begin[i], end[i], strides[i], (bits["begin_mask"] >> i) & 1,
                          (bits["end_mask"] >> i) & 1, (bits["shrink_axis_mask"] >> i) & 1))
    while len(specs) < x.type.rank:
        specs.append((0, 0, 1, True, True, False))
    dims = e.dims(x)
    starts, limits, steps, out_dims = [], [], [], []
    for d, (b, en, s, bm, em, shrink) in zip(dims, specs):
        if s <= 0:
            raise e.error("negative or zero strides are not supported")
        if shrink:
            b0 = _norm(e, b, d, clamp=False)
            starts.append(b0)
            limits.append(_add(e, b0, 1))
            steps.append(1)
            continue
        b0 = 0 if bm else _norm(e, b, d)
        e0 = d if em else _norm(e, en, d)
        if not (isinstance(b0, int) and isinstance(e0, int)):
            e0 = e.v("maximum", [e.scalar_dim(e0), e.scalar_dim(b0)])
        elif e0 < b0:
            e0 = b0
        starts.append(b0)
        limits.append(e0)
        steps.append(s)
    out = e.slice(x, starts, limits, steps)
    keep = [i for i, spec in enumerate(specs) if not spec[5]]
    odims = e.dims(out)
    final = [odims[i] for i in keep]
    for p in new_axes:
        final.insert(min(p, len(final)), 1)
    out_dims = final
    return [e.reshape(out, out_dims)]


def _norm(e, i, d, clamp=True):
    """Index i of a dim of size d (each an int or a value): negative counts from the end;
    clamped to [0, d] when `clamp`. A computed index is tested for its sign at run time."""
    if isinstance(i, int) and isinstance(d, int):
        v = i + d if i < 0 else i
        return min(max(v, 0), d) if clamp else v
    if isinstance(i, int) and i >= 0 and not clamp:
        return i
    if isinstance(i, int):
        v = e.v("add", [e.scalar_dim(d), e.const(i, "i32", ())]) if i < 0 else e.const(i, "i32", ())
    else:
        iv = e.convert(i, "i32")
        v = e.select(e.compare(iv, e.const(0, "i32", ()), "LT"),
                     e.v("add", [iv, e.scalar_dim(d)]), iv)
    if clamp:
        v = e.v("minimum", [e.v("maximum", [v, e.const(0, "i32", ())]), e.scalar_dim(d)])
    return v


def _non_negative(e, values: list, what: str) -> list:
    """values, after checking that the constant ones are 0 or more, as TensorFlow checks them
    (a negative one would be a negative dim at run time, or stablehlo's cropping pad)."""
    if any(isinstance(v, int) and v < 0 for v in values):
        raise e.error(f"{what} must be 0 or more, got {[v if isinstance(v, int) else '?' for v in values]}")
    return values


def _fill_dims(e, shape_v):
    n = shape_v.type.shape[0] if shape_v.type.rank == 1 else None
    if n is None:
        raise e.error(f"the shape operand must be a 1-D tensor of static length, got {shape_v.type}")
    return _non_negative(e, _shape_entries(e, shape_v, n), "the dims")


@tf_op("Fill", group=G)
def fill(e, op, args):
    dims_v, value = args
    return [e.broadcast_to(value, _fill_dims(e, dims_v))]


@tf_op("BroadcastTo", group=G)
def broadcast_to(e, op, args):
    x, shape_v = args
    dims = _fill_dims(e, shape_v)
    return [e.broadcast_to(x, [d if not (isinstance(d, int) and d == 1 and i >= len(dims) - x.type.rank
                                         and x.type.shape[i - len(dims) + x.type.rank] is None)
                               else d for i, d in enumerate(dims)])]


@tf_op("ZerosLike", "OnesLike", group=G)
def zeros_like(e, op, args):
    x = args[0]
    value = 0 if op.name == "tf.ZerosLike" else 1
    return [e.broadcast_to(e.const(value, x.type.elem, ()), e.dims(x), x.type.shape)]


@tf_op("Tile", group=G)
def tile(e, op, args):
    """x broadcast to [m0, d0, m1, d1, ...], then reshaped to [m0*d0, m1*d1, ...]."""
    x, mult_v = args
    mult = _non_negative(e, e.int_list(mult_v, "Tile's multiples"), "Tile's multiples")
    if len(mult) != x.type.rank:
        raise e.error(f"Tile's multiples {mult} must have one entry per dim of {x.type}")
    dims = e.dims(x)
    wide = []
    for m, d in zip(mult, dims):
        wide += [m, d]
    b = e.broadcast_to(x, wide, mapping=tuple(range(1, 2 * len(dims), 2)))
    return [e.reshape(b, [e.product([m, d]) for m, d in zip(mult, dims)])]


@tf_op("Pad", "PadV2", group=G)
def pad(e, op, args):
    x, pads_v = args[:2]
    flat = _non_negative(e, e.int_list(pads_v, "the paddings"), "the paddings")
    value = args[2] if len(args) > 2 else e.const(0, x.type.elem, ())
    r = x.type.rank
    return [e.v("pad", [x, value], {"edge_padding_low": tuple(flat[0::2][:r]),
                                    "edge_padding_high": tuple(flat[1::2][:r]),
                                    "interior_padding": (0,) * r})]


# A constant Range longer than this is computed at run time instead: an int32 limit of 2^31
# would otherwise be 16 GiB of compile-time constant (a fuzzer's), in the artifact too.
CONSTANT_RANGE_MAX = 1 << 20


@tf_op("Range", group=G)
def range_(e, op, args):
    """A constant when start, limit and delta are (up to CONSTANT_RANGE_MAX elements); else
    start + iota * delta over ceil((limit - start) / delta) elements, computed at run time."""
    start, limit, delta = args
    vals = [e.constant_of(v) for v in args]
    elem = start.type.elem
    if all(v is not None for v in vals) and vals[2].item() != 0:
        lo, hi, step = (v.item() for v in vals)
        if math.ceil((hi - lo) / step) <= CONSTANT_RANGE_MAX:
            arr = np.arange(lo, hi, step)
            return [e.const(arr, elem, arr.shape)]
    span = e.v("subtract", [limit, start])
    if elem in ("f16", "bf16", "f32", "f64"):
        n = e.convert(e.v("ceil", [e.v("divide", [span, delta])]), "i32")
    else:
        n = e.v("divide", [e.v("add", [span, e.v("subtract", [delta, e.v("sign", [delta])])]),
                           delta])
        n = e.convert(n, "i32")
    n = e.v("maximum", [n, e.const(0, "i32", ())])
    iota = e.v("dynamic_iota", [e.shape_tensor([n])], {"iota_dimension": 0},
               TensorType((None,), elem))
    return [e.binary("add", e.binary("multiply", iota, delta), start)]


@tf_op("OneHot", group=G)
def one_hot(e, op, args):
    """indices == iota along the new axis, selecting on_value or off_value."""
    idx, depth_v, on, off = args
    (depth,) = e.int_list(depth_v, "OneHot's depth")
    if depth < 0:  # TensorFlow refuses it too; it would be a negative dim at run time
        raise e.error(f"OneHot's depth must be 0 or more, got {depth}")
    r = idx.type.rank + 1
    axis = _axis_in(e, int(op.attrs.get("axis", -1)), r)
    dims = e.dims(idx)
    dims.insert(axis, depth)
    shape = e.static_dims(dims)
    it = TensorType(shape, idx.type.elem)
    iota = (e.v("iota", [], {"iota_dimension": axis}, it) if all(d is not None for d in shape)
            else e.v("dynamic_iota", [e.shape_tensor(dims)], {"iota_dimension": axis}, it))
    mapping = tuple(i for i in range(r) if i != axis)
    hit = e.compare(e.broadcast_to(idx, dims, shape, mapping=mapping), iota, "EQ")
    return [e.select(hit, e.broadcast_to(on, dims, shape, mapping=()),
                     e.broadcast_to(off, dims, shape, mapping=()))]


# ---------------------------------------------------------------- data-dependent sizes

@tf_op("Where", group="data-dependent sizes")
def where(e, op, args):
    """dhlo.where: the [count, rank] i64 indices of the non-zero elements."""
    x = args[0]
    return [e.v("dhlo.where", [x], result_type=TensorType((None, x.type.rank), "i64"))]


@tf_op("Unique", group="data-dependent sizes")
def unique(e, op, args):
    """dhlo.unique: values in first-occurrence order, and each element's index into them."""
    x = args[0]
    idx = _out_elem(op, 1, "i32")
    u = e.op("dhlo.unique", [x], result_types=[TensorType((None,), x.type.elem),
                                                TensorType(x.type.shape, idx)])
    return list(u.results)


# ---------------------------------------------------------------- gathers and splits

@tf_op("GatherV2", "Gather", group=G)
def gather_v2(e, op, args):
    """params[..., indices, ...] along `axis` (batch_dims 0): a gather whose slices are
    params with the axis collapsed; dynamic_gather when a slice dim is `?`."""
    params, idx = args[:2]
    axis = _axis(e, args[2], params.type.rank) if len(args) > 2 else 0
    if int(op.attrs.get("batch_dims", 0)) != 0:
        raise e.error("batch_dims other than 0 is not supported yet")
    return [gather_axis(e, params, idx, axis)]


def _split(e, x, axis, sizes):
    dims = e.dims(x)
    out, start = [], 0
    for s in sizes:
        starts = [0] * x.type.rank
        starts[axis] = start
        limits = list(dims)
        limits[axis] = _add(e, start, s)
        out.append(e.slice(x, starts, limits, [1] * x.type.rank))
        start = limits[axis]
    return out


@tf_op("Split", group=G)
def split(e, op, args):
    """num_split equal pieces along the axis (a ? dim: its size / n at run time)."""
    axis_v, x = args
    axis = _axis(e, axis_v, x.type.rank)
    n = len(op.results)
    d = e.dims(x)[axis]
    if isinstance(d, int) and d % n:
        raise e.error(f"dim {axis} of size {d} does not split into {n} pieces")
    piece = d // n if isinstance(d, int) else e.v("divide", [d, e.const(n, "i32", ())])
    return _split(e, x, axis, [piece] * n)


@tf_op("SplitV", group=G)
def split_v(e, op, args):
    """Pieces of the given sizes (one -1: the rest) along the axis."""
    x, sizes_v, axis_v = args
    axis = _axis(e, axis_v, x.type.rank)
    sizes = e.int_list(sizes_v, "SplitV's sizes")
    if sizes.count(-1) > 1 or any(s < -1 for s in sizes):
        raise e.error(f"SplitV's sizes must be 0 or more, with at most one -1, got {sizes}")
    known = sum(s for s in sizes if s != -1)
    d = x.type.shape[axis]
    if d is not None and (known > d if -1 in sizes else known != d):
        raise e.error(f"SplitV's sizes {sizes} do not split dim {axis} of size {d}")
    if -1 in sizes:  # the rest (at run time along a ? dim)
        d = e.dims(x)[axis]
        sizes[sizes.index(-1)] = d - known if isinstance(d, int) else \
            e.v("subtract", [d, e.const(known, "i32", ())])
    return _split(e, x, axis, sizes)


@tf_op("GatherNd", group=G)
def gather_nd(e, op, args):
    """params[indices[..., :K]]: a gather of the first K dims, indices' last dim the index
    vector; the slices keep params' dims after K."""
    params, idx = args
    k = idx.type.shape[-1]
    if k is None:
        raise e.error("the index depth (indices' last dim) must be static")
    ir, pr = idx.type.rank, params.type.rank
    batch = ir - 1
    dn = {"offset_dims": tuple(range(batch, batch + pr - k)),
          "collapsed_slice_dims": tuple(range(k)), "start_index_map": tuple(range(k)),
          "index_vector_dim": ir - 1}
    dims = e.dims(params)
    sizes = [1] * k + dims[k:]
    t = TensorType(tuple(idx.type.shape[:-1]) + tuple(params.type.shape[k:]), params.type.elem)
    if all(isinstance(s, int) for s in sizes):
        return [e.v("gather", [params, idx], {"dimension_numbers": dn,
                                              "slice_sizes": tuple(sizes)}, t)]
    return [e.v("dynamic_gather", [params, idx, e.shape_tensor(sizes)],
                {"dimension_numbers": dn}, t)]


@tf_op("ScatterNd", group=G)
def scatter_nd(e, op, args):
    """Zeros of `shape` with the updates added at indices[..., :K] (repeated indices sum,
    as TF)."""
    idx, upd, shape_v = args
    k = idx.type.shape[-1]
    if k is None:
        raise e.error("the index depth (indices' last dim) must be static")
    dims = _fill_dims(e, shape_v)
    zeros = e.broadcast_to(e.const(0, upd.type.elem, ()), dims)
    ir, ur = idx.type.rank, upd.type.rank
    dn = {"update_window_dims": tuple(range(ir - 1, ur)), "inserted_window_dims": tuple(range(k)),
          "scatter_dims_to_operand_dims": tuple(range(k)), "index_vector_dim": ir - 1}
    r = e.op("scatter", [zeros, idx, upd], {"scatter_dimension_numbers": dn},
             [zeros.type], [e.scalar_region(upd.type.elem, "add")])
    return [r.result]


@tf_op("MirrorPad", group=G)
def mirror_pad(e, op, args):
    """Each dim padded with its own edge rows reversed (REFLECT leaves the edge out,
    SYMMETRIC repeats it), dim by dim: slices, reverse, concatenate."""
    x, pads_v = args
    flat = _non_negative(e, e.int_list(pads_v, "the paddings"), "the paddings")
    mode = op.attrs.get("mode", "REFLECT")
    if mode not in ("REFLECT", "SYMMETRIC"):
        raise e.error(f"mode {mode!r} is not supported")
    skip = 1 if mode == "REFLECT" else 0
    for d in range(x.type.rank):
        lo, hi = flat[2 * d], flat[2 * d + 1]
        n = x.type.shape[d]
        if not lo and not hi:
            continue
        if n is None:
            raise e.error("mirror padding a dynamic dim is not supported yet")
        parts = []
        dims = e.dims(x)
        if lo:
            starts = [0] * x.type.rank
            starts[d] = skip
            lim = list(dims)
            lim[d] = skip + lo
            parts.append(e.v("reverse", [e.slice(x, starts, lim, [1] * x.type.rank)],
                             {"dimensions": (d,)}))
        parts.append(x)
        if hi:
            starts = [0] * x.type.rank
            starts[d] = n - skip - hi
            lim = list(dims)
            lim[d] = n - skip
            parts.append(e.v("reverse", [e.slice(x, starts, lim, [1] * x.type.rank)],
                             {"dimensions": (d,)}))
        x = e.v("concatenate", parts, {"dimension": d})
    return [x]


# ---------------------------------------------------------------- images

# Resizing builds its source-pixel tables at compile time, an entry per output pixel along
# each axis: beyond this many a wrong size (a fuzzed 2^31) would take gigabytes to refuse.
RESIZE_MAX = 1 << 24

def _resize_axes(e, op, x, size_v):
    if x.type.rank != 4:
        raise e.error(f"images must be 4-D (NHWC), got {x.type}")
    out = e.int_list(size_v, "the output size")
    if len(out) != 2 or any(o < 1 for o in out):
        raise e.error(f"the output size must be 2 positive numbers (height, width), got {out}")
    if max(out) > RESIZE_MAX:
        raise e.error(f"the output size {out} is past {RESIZE_MAX} pixels along an axis, the "
                      "most the compile-time source-pixel tables are built for")
    ins = list(x.type.shape[1:3])
    if any(d is None for d in ins):
        raise e.error("resizing needs static image height and width")
    align = bool(op.attrs.get("align_corners", False))
    half = bool(op.attrs.get("half_pixel_centers", False))
    scales = [(i - 1) / (o - 1) if align and o > 1 else i / o for i, o in zip(ins, out)]
    return ins, out, scales, align, half


@tf_op("ResizeNearestNeighbor", group=G)
def resize_nearest(e, op, args):
    """TF's source pixel per output pixel (align_corners rounds, half_pixel_centers samples
    at centres), computed at compile time from the static sizes: two gathers."""
    x, size_v = args
    ins, out, scales, align, half = _resize_axes(e, op, x, size_v)
    for axis, (n_in, n_out, s) in enumerate(zip(ins, out, scales), start=1):
        pos = (np.arange(n_out) + (0.5 if half else 0.0)) * np.float32(s)
        idx = np.round(pos) if align else np.floor(pos)
        idx = np.minimum(idx, n_in - 1).astype(np.int32)
        x = gather_axis(e, x, e.const(idx, "i32", (n_out,)), axis)
    return [x]


@tf_op("ResizeBilinear", group=G)
def resize_bilinear(e, op, args):
    """Per axis, the two source rows around each output position and their weights (TF's
    half-pixel or legacy scaler), computed at compile time: gathers and a lerp, in f32."""
    x, size_v = args
    ins, out, scales, align, half = _resize_axes(e, op, x, size_v)
    x = e.convert(x, "f32")
    for axis, (n_in, n_out, s) in enumerate(zip(ins, out, scales), start=1):
        pos = np.arange(n_out, dtype=np.float32)
        pos = (pos + 0.5) * np.float32(s) - 0.5 if half else pos * np.float32(s)
        lo = np.maximum(np.floor(pos), 0).astype(np.int32)
        hi = np.minimum(np.ceil(pos), n_in - 1).astype(np.int32)
        w = (pos - np.floor(pos)).astype(np.float32)
        a = gather_axis(e, x, e.const(lo, "i32", (n_out,)), axis)
        b = gather_axis(e, x, e.const(hi, "i32", (n_out,)), axis)
        dims = e.dims(a)
        wt = e.broadcast_to(e.const(w, "f32", (n_out,)), dims, a.type.shape, mapping=(axis,))
        x = e.v("add", [a, e.v("multiply", [e.v("subtract", [b, a]), wt])])
    return [x]


# ---------------------------------------------------------------- TensorLists

def _element_dims(e, op, shape_v, i=0):
    """A TensorList's element dims: the constant element_shape (-1: unknown, None), else
    the element type TF printed (`!tf_type.variant<tensor<?x4xf32>>`)."""
    arr = e.constant_of(shape_v) if shape_v is not None else None
    if arr is not None and arr.ndim == 1:
        return [int(d) if d >= 0 else None for d in arr]
    m = re.search(r"variant<tensor<((?:[\d?]+x)*)\w+>>", str(op.results[i].type))
    if m:
        return [None if d == "?" else int(d) for d in m.group(1).split("x")[:-1]]
    raise e.error("a TensorList of unknown rank is not supported (give its element_shape)")


@tf_op("TensorListReserve", "EmptyTensorList", group=G)
def tensor_list_reserve(e, op, args):
    """The list as one tensor [num_elements, element dims...] of zeros; an unknown element
    dim is 0 until the first SetItem gives the list its items' shape."""
    shape_v, n_v = args
    m = re.search(r"variant<tensor<(?:[\d?*]+x)*(\w+)>>", str(op.results[0].type))
    elem = m.group(1) if m else getattr(op.attrs.get("element_dtype"), "value", None)
    if elem not in ("f16", "bf16", "f32", "f64", "i1", "i8", "i16", "i32", "i64"):
        raise e.error("the list's element type is unknown")
    dims = _element_dims(e, op, shape_v)
    n = e.constant_of(n_v)
    count = int(n) if n is not None else e.convert(n_v, "i32")
    shape = [count if isinstance(count, int) else None] + dims
    return [e.broadcast_to(e.const(0, elem, ()), [count] + [0 if d is None else d for d in dims],
                           shape)]


@tf_op("TensorListFromTensor", "TensorListStack", group=G)
def tensor_list_identity(e, op, args):
    """A list held as a tensor is that tensor (its first dim the elements)."""
    return [args[0]]


@tf_op("TensorListLength", group=G)
def tensor_list_length(e, op, args):
    return [e.scalar_dim(e.dims(args[0])[0])]


@tf_op("TensorListGetItem", group=G)
def tensor_list_get_item(e, op, args):
    """Element `index`: a slice of one along the first dim, the dim dropped."""
    lst, index = args[:2]
    dims = e.dims(lst)
    i = e.convert(index, "i32")
    starts = [i] + [0] * (lst.type.rank - 1)
    limits = [e.v("add", [i, e.const(1, "i32", ())])] + dims[1:]
    s = e.slice(lst, starts, limits, [1] * lst.type.rank)
    s = e.v("reshape", [s], result_type=TensorType((1,) + lst.type.shape[1:], lst.type.elem)) \
        if s.type.shape[0] is None and lst.type.is_static else s
    return [e.reshape(s, dims[1:])]


def _shaped_like(e, lst, item):
    """lst if its element dims are item's, else zeros of [len(lst)] + item's dims (an if on
    the dims, at run time)."""
    from lowering.ir.core import Block, Operation, Region
    ld, idims = e.dims(lst), e.dims(item)
    same = None
    for a, b in zip(ld[1:], idims):
        eq = e.compare(e.scalar_dim(a), e.scalar_dim(b), "EQ")
        same = eq if same is None else e.v("and", [same, eq])
    if same is None:
        return lst
    t = TensorType((lst.type.shape[0],) + tuple(
        x if x == y else None for x, y in zip(lst.type.shape[1:], item.type.shape)), lst.type.elem)
    keep, fresh = Block(), Block()
    ke, fe = Emitter(keep, e.loc, e.tf_op), Emitter(fresh, e.loc, e.tf_op)
    k = lst if lst.type == t else ke.v("dynamic_reshape", [lst, ke.shape_tensor(ke.dims(lst))],
                                       result_type=t)
    keep.append(Operation("mhlo.return", [k], (), {}, (), e.loc))
    z = fe.broadcast_to(fe.const(0, lst.type.elem, ()), [ld[0]] + idims, t.shape)
    fresh.append(Operation("mhlo.return", [z], (), {}, (), e.loc))
    return e.op("if", [same], {}, [t], [Region([keep]), Region([fresh])]).result


@tf_op("TensorListSetItem", group=G)
def tensor_list_set_item(e, op, args):
    """The list with element `index` replaced: a dynamic_update_slice. A list whose
    element shape was unknown at its reservation (a ? batch) is first given its items'
    shape: a fresh zero buffer when its element dims differ from the item's."""
    lst, index, item = args[:3]
    item = e.convert(item, lst.type.elem)
    if not (lst.type.is_static and item.type.is_static):
        lst = _shaped_like(e, lst, item)
    upd = e.reshape(item, [1] + e.dims(item))
    starts = [e.convert(index, "i32")] + [e.const(0, "i32", ()) for _ in range(lst.type.rank - 1)]
    return [e.v("dynamic_update_slice", [lst, upd] + starts, result_type=lst.type)]


# ---------------------------------------------------------------- non-max suppression

def _column(e, boxes, c):
    n = boxes.type.shape[0]
    s = e.v("slice", [boxes], {"start_indices": (0, c), "limit_indices": (n, c + 1),
                               "strides": (1, 1)})
    return e.reshape(s, [n])


def _at(e, v, i):
    """v[i] for a 1-D v and a scalar i32 index."""
    s = e.v("dynamic_slice", [v, i], {"slice_sizes": (1,)})
    return e.reshape(s, [])


@tf_op("NonMaxSuppressionV3", "NonMaxSuppressionV4", "NonMaxSuppressionV5",
       group="data-dependent sizes")
def non_max_suppression(e, op, args):
    """TF's greedy selection: boxes taken in descending score order (ties: lower index
    first, top_k's order), each kept when its score passes score_threshold and its IoU with
    every box kept before is at most iou_threshold, until max_output_size are kept; a while
    loop over the candidates carrying the kept mask, then dhlo.where for the kept positions,
    so the result has its exact size (V4 pads it to max_output_size when asked)."""
    from lowering.ir.core import Block, Operation, Region
    boxes, scores, max_v, iou_v = args[:4]
    score_v = args[4] if len(args) > 4 else None
    if op.name == "tf.NonMaxSuppressionV5":
        sigma = e.constant_of(args[5])
        if sigma is None or float(sigma) != 0.0:
            raise e.error("soft NMS (soft_nms_sigma != 0) is not supported")
    n = boxes.type.shape[0]
    if n is None or scores.type.shape != (n,):
        raise e.error("needs a static number of boxes")
    f = boxes.type.elem
    top = e.op("top_k", [scores], {"k": n}, [TensorType((n,), f), TensorType((n,), "i32")])
    sorted_scores, order = top.results
    sb = gather_axis(e, boxes, order, 0)
    y1, x1, y2, x2 = (_column(e, sb, c) for c in range(4))
    ymin, ymax = e.v("minimum", [y1, y2]), e.v("maximum", [y1, y2])
    xmin, xmax = e.v("minimum", [x1, x2]), e.v("maximum", [x1, x2])
    area = e.v("multiply", [e.v("subtract", [ymax, ymin]), e.v("subtract", [xmax, xmin])])
    max_out = e.convert(max_v, "i32")
    iou_t = e.convert(iou_v, f)
    score_t = e.convert(score_v, f) if score_v is not None else e.const(-np.inf, f, ())
    i32 = TensorType((), "i32")
    vec, mask = TensorType((n,), f), TensorType((n,), "i1")
    carried = [e.const(0, "i32", ()), e.const(0, "i32", ()),
               e.const(np.zeros(n, bool), "i1", (n,)), ymin, xmin, ymax, xmax, area,
               sorted_scores, max_out, iou_t, score_t]
    types = [i32, i32, mask, vec, vec, vec, vec, vec, vec, i32, TensorType((), f),
             TensorType((), f)]
    cond, body = Block(types), Block(types)
    c = Emitter(cond, e.loc, e.tf_op)
    i, count, *_rest = cond.args
    more = c.v("and", [c.compare(i, c.const(n, "i32", ()), "LT"),
                       c.compare(count, cond.args[9], "LT")])
    cond.append(Operation("mhlo.return", [more], (), {}, (), e.loc))
    b = Emitter(body, e.loc, e.tf_op)
    i, count, kept, bymin, bxmin, bymax, bxmax, barea, bscores, bmax, biou, bscore = body.args
    cy0, cx0, cy1, cx1, ca = (_at(b, v, i) for v in (bymin, bxmin, bymax, bxmax, barea))
    zero = b.const(0, f, ())
    ih = b.binary("maximum", b.binary("subtract", b.binary("minimum", bymax, cy1),
                                      b.binary("maximum", bymin, cy0)), zero)
    iw = b.binary("maximum", b.binary("subtract", b.binary("minimum", bxmax, cx1),
                                      b.binary("maximum", bxmin, cx0)), zero)
    inter = b.v("multiply", [ih, iw])
    union = b.binary("subtract", b.binary("add", barea, ca), inter)
    valid_area = b.binary("and", b.compare(barea, zero, "GT"), b.compare(ca, zero, "GT"))
    iou = b.select(valid_area, b.v("divide", [inter, union]), b.broadcast_to(zero, [n], (n,)))
    clash = b.v("and", [kept, b.compare(iou, biou, "GT")])
    suppressed = b.reduce(clash, [0], "or", False)
    take = b.v("and", [b.compare(_at(b, bscores, i), bscore, "GT"), b.v("not", [suppressed])])
    kept2 = b.v("dynamic_update_slice", [kept, b.reshape(take, [1]), i], result_type=mask)
    one = b.const(1, "i32", ())
    body.append(Operation("mhlo.return", [b.v("add", [i, one]),
                                          b.v("add", [count, b.convert(take, "i32")]),
                                          kept2] + list(body.args[3:]), (), {}, (), e.loc))
    loop = e.op("while", carried, {}, types, [Region([cond]), Region([body])])
    count, kept = loop.results[1], loop.results[2]
    pos = e.v("dhlo.where", [kept], result_type=TensorType((None, 1), "i64"))
    pos = e.reshape(pos, [e.dims(pos)[0]])
    picked = gather_axis(e, order, pos, 0)
    if op.name == "tf.NonMaxSuppressionV4":
        if op.attrs.get("pad_to_max_output_size", False):
            m = e.constant_of(max_v)
            if m is None:
                raise e.error("padding to a computed max_output_size is not supported")
            m = int(m)
            if not 0 <= m <= MAX_PADDED_OUTPUT:
                raise e.error(f"max_output_size {m} to pad to is out of range "
                              f"(0 to {MAX_PADDED_OUTPUT})")
            padded = e.v("concatenate", [picked, e.const(np.zeros(m, np.int32), "i32", (m,))],
                         {"dimension": 0})
            picked = e.slice(padded, [0], [m], [1])
            picked = e.v("reshape", [picked], result_type=TensorType((m,), "i32")) \
                if picked.type.shape != (m,) else picked
        return [picked, count]
    if op.name == "tf.NonMaxSuppressionV5":
        return [picked, gather_axis(e, sorted_scores, pos, 0), count]
    return [picked]
