"""ATen's sorts and what is built on them (sort, argsort, topk, kthvalue, median), the
running extremes (cummax, cummin) and the bucket searches (bucketize, searchsorted), lowered
to mhlo. Every sort is one stable mhlo.sort of (values, i64 positions) along the dim, NaN
ordered above every number as PyTorch orders it, so equal values keep their input order and
the indices are those of a stable sort."""
from __future__ import annotations

from lowering.ir.core import Block, Operation, Region, TensorType, Value
from lowering.tf.emitter import FLOATS
from lowering.torch.emitter import TorchEmitter
from lowering.torch.math_ops import cumulative
from lowering.torch.shapes import slice_dim
from lowering.torch.table import aten

S = "sorting"


def _comparator(e: TorchEmitter, elem: str, descending: bool) -> Region:
    """(a, b, ia, ib) -> whether a goes before b: a < b ascending (a > b descending), a
    NaN counting as the largest value."""
    t, ti = TensorType((), elem), TensorType((), "i64")
    block = Block([t, t, ti, ti])
    a, b = block.args[0], block.args[1]
    inner = type(e)(block, e.loc, e.target, e.code)
    first = inner.compare(a, b, "GT" if descending else "LT")
    if elem in FLOATS:  # descending: a NaN a before a number b; ascending: a number a before a NaN b
        nan, num = (a, b) if descending else (b, a)
        first = inner.v("or", [first, inner.v("and", [inner.compare(nan, nan, "NE"),
                                                      inner.compare(num, num, "EQ")])])
    block.append(Operation("mhlo.return", [first], (), {}, (), e.loc))
    return Region([block])


def sort_along(e: TorchEmitter, x: Value, axis: int, descending: bool) -> tuple[Value, Value]:
    """(sorted values, their i64 positions in x) along `axis`, stable."""
    if x.type.rank == 0:
        return x, e.const(0, "i64", ())
    if x.type.elem == "i1":  # sorted as 0/1 bytes, PyTorch's order for booleans
        values, idx = sort_along(e, e.convert(x, "ui8"), axis, descending)
        return e.convert(values, "i1"), idx
    iota = e.iota(e.dims(x), axis, "i64")
    r = e.op("sort", [x, iota], {"dimension": axis, "is_stable": True}, [x.type, iota.type],
             [_comparator(e, x.type.elem, descending)], n=2)
    return r.results[0], r.results[1]


@aten("sort.default", "sort.stable", "argsort.default", "argsort.stable", group=S)
def sort(e, n):
    """Values and indices (argsort: indices) along `dim`, ascending unless `descending`;
    stable whatever `stable` says (an unstable sort may order ties either way)."""
    x = n.arg("self")
    axis = e.axis(n.arg("dim", -1), x.type.rank)
    values, idx = sort_along(e, x, axis, bool(n.arg("descending", False)))
    return idx if e.target.startswith("aten.argsort") else [values, idx]


@aten("topk.default", group=S)
def topk(e, n):
    """The k largest (smallest with largest=False) along `dim` and their indices, in sorted
    order: the first k of a stable sort."""
    x, k = n.arg("self"), n.arg("k")
    axis = e.axis(n.arg("dim", -1), x.type.rank)
    values, idx = sort_along(e, x, axis, bool(n.arg("largest", True)))
    return [slice_dim(e, values, axis, 0, k, 1), slice_dim(e, idx, axis, 0, k, 1)]


def _pick(e, values, idx, axis, i, keepdim):
    """The i-th (an int or a scalar value) of the sorted values and indices along `axis`."""
    one = i + 1 if isinstance(i, int) else e.v("add", [i, e.scalar(1, "i32")])
    out = []
    for v in (values, idx):
        piece = slice_dim(e, v, axis, i, one, 1)
        dims = e.dims(piece)
        out.append(piece if keepdim else e.reshape(piece, dims[:axis] + dims[axis + 1:]))
    return out


@aten("kthvalue.default", group=S)
def kthvalue(e, n):
    """The k-th smallest (k from 1) along `dim` and its index."""
    x = n.arg("self")
    axis = e.axis(n.arg("dim", -1), x.type.rank)
    values, idx = sort_along(e, x, axis, False)
    k = n.arg("k")
    i = k - 1 if isinstance(k, int) else e.v("subtract", [e.scalar(k, "i32"), e.scalar(1, "i32")])
    return _pick(e, values, idx, axis, i, n.arg("keepdim", False))


@aten("median.dim", "median.default", group=S)
def median(e, n):
    """The lower median, element (count - 1) // 2 of the sorted values, and its index
    (median.dim; median.default takes every element); a line holding a NaN gives the NaN
    (sorted last) and its index, as PyTorch."""
    x = n.arg("self")
    whole = "dim" not in n.inputs
    if whole:
        x = e.reshape(x, [e.product(e.dims(x))])
    axis = 0 if whole else e.axis(n.arg("dim"), x.type.rank)
    keep = False if whole else n.arg("keepdim", False)
    values, idx = sort_along(e, x, axis, False)
    size = e.dims(x)[axis]
    last = size - 1 if isinstance(size, int) else e.v("subtract", [size, e.scalar(1, "i32")])
    mid = last // 2 if isinstance(last, int) else e.v("divide", [last, e.scalar(2, "i32")])
    out = _pick(e, values, idx, axis, mid, keep)
    if x.type.elem in FLOATS:
        top = _pick(e, values, idx, axis, last, keep)
        nan = e.compare(top[0], top[0], "NE")
        out = [e.v("select", [nan, t, o]) for t, o in zip(top, out)]
    return out[0] if whole else out


@aten("cummax.default", "cummin.default", group=S)
def cummax(e, n):
    """The running maximum (minimum) along `dim` and the index where it was last reached:
    the running maximum of the positions whose value is the running extreme so far (the
    last such position up to i holds the extreme at i)."""
    x = n.arg("self")
    axis = e.axis(n.arg("dim"), x.type.rank)
    kind = "maximum" if e.target.startswith("aten.cummax") else "minimum"
    values = cumulative(e, x, axis, kind, e.init("max" if kind == "maximum" else "min", x.type.elem))
    iota = e.iota(e.dims(x), axis, "i64")
    reached = e.compare(x, values, "EQ")
    if x.type.elem in FLOATS:  # a NaN is the extreme from where it appears
        reached = e.v("or", [reached, e.compare(x, x, "NE")])
    marks = e.v("select", [reached, iota, e.broadcast_to(e.scalar(0, "i64"), e.dims(x), x.type.shape)])
    return [values, cumulative(e, marks, axis, "maximum", 0)]


@aten("bucketize.Tensor", "searchsorted.Tensor", "searchsorted.Scalar", group=S)
def bucketize(e, n):
    """For each value, how many boundaries are below it (`right`: at or below): the index
    of its bucket, a sum over the sorted boundaries (searchsorted: the sorted sequence,
    `side` 'right' for right; 1-D for every value, or batched: [..., M] searched by the
    values [..., K] with the same leading dims, row by row)."""
    if e.target.startswith("aten.bucketize"):
        x, bounds = n.arg("self"), n.arg("boundaries")
        right = bool(n.arg("right", False))
    else:
        bounds, x = n.arg("sorted_sequence"), n.arg("self")
        right = bool(n.arg("right", False)) or n.arg("side", None) == "right"
        if n.arg("sorter", None) is not None:
            raise e.error("searchsorted with a sorter is not supported yet")
    out = n.out_elem()
    x = e.scalar(x, bounds.type.elem) if not isinstance(x, Value) else x
    r = x.type.rank
    if bounds.type.rank == 1:
        mapping = (r,)
    elif bounds.type.rank == r and all(
            a is None or b is None or a == b for a, b in zip(bounds.type.shape[:-1], x.type.shape[:-1])):
        mapping = tuple(range(r - 1)) + (r,)
    else:
        raise e.error(f"the boundaries {bounds.type} must be 1-D, or have the values' "
                      f"({x.type}) leading dims")
    elem = x.type.elem if x.type.elem in FLOATS else bounds.type.elem
    x, bounds = e.convert(x, elem), e.convert(bounds, elem)
    dims = e.dims(x) + e.dims(bounds)[-1:]
    table = e.compare(e.broadcast_to(bounds, dims, mapping=mapping),
                      e.broadcast_to(x, dims, mapping=tuple(range(r))),
                      "LE" if right else "LT")
    return e.reduce(e.convert(table, out), [r], "add", 0)
