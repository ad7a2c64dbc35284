"""ATen's writes at indices (scatter, scatter_add, scatter_reduce, index_put, index_add,
index_copy, index_fill, index_reduce, masked_scatter) and whole-tensor writes (copy, fill),
lowered to mhlo: each indexed write is one mhlo.scatter of its updates at full coordinates
(or at rows along one dim), applied in order, so with repeated indices the last write wins
as in PyTorch's CPU kernels, and reductions combine every update."""
from __future__ import annotations

from lowering.ir.core import Block, Operation, Region, TensorType, Value
from lowering.tf.emitter import FLOATS
from lowering.torch.emitter import TorchEmitter
from lowering.torch.math_ops import cumulative
from lowering.torch.shapes import _wrap, element_coords, gather_axis, slice_dim
from lowering.torch.table import aten

G = "scatter and index writes"

# PyTorch's reduce names (scatter_reduce, index_reduce, scatter's `reduce`) -> mhlo body.
REDUCE = {"sum": "add", "add": "add", "prod": "multiply", "multiply": "multiply",
          "amax": "maximum", "amin": "minimum", "mean": "mean"}


def _replace_region(e: TorchEmitter, elem: str) -> Region:
    """(old, new) -> new."""
    t = TensorType((), elem)
    block = Block([t, t])
    block.append(Operation("mhlo.return", [block.args[1]], (), {}, (), e.loc))
    return Region([block])


def _identity(e, how: str, elem: str):
    return {"add": 0, "mean": 0, "multiply": 1, "maximum": e.init("max", elem),
            "minimum": e.init("min", elem)}[how]


def scatter_into(e: TorchEmitter, x: Value, coords: Value, updates: Value, dn: dict,
                 how: str = "replace", include_self: bool = True) -> Value:
    """x with `updates` written at `coords` (an mhlo.scatter with dimension numbers `dn`):
    replaced, or combined by `how` (add, multiply, maximum, minimum, mean). Without
    `include_self`, a position some update reaches starts from the reduction's identity
    instead of x's value; mean divides by the count of values combined."""
    elem = x.type.elem
    updates = e.convert(updates, elem)
    attrs = {"scatter_dimension_numbers": dn}

    def scatter(base, upd, body):
        region = _replace_region(e, base.type.elem) if body == "replace" else \
            e.scalar_region(base.type.elem, body)
        return e.op("scatter", [base, coords, upd], attrs, [base.type], [region]).result

    if how == "replace":
        return scatter(x, updates, "replace")
    dims = e.dims(x)
    counts = None
    if how == "mean" or not include_self:
        zeros = e.broadcast_to(e.scalar(0, "i32"), dims, x.type.shape)
        ones = e.broadcast_to(e.scalar(1, "i32"), e.dims(updates), updates.type.shape)
        counts = scatter(zeros, ones, "add")
    base = x
    if not include_self:
        hit = e.compare(counts, e.scalar(0, "i32"), "GT")
        fresh = e.broadcast_to(e.scalar(_identity(e, how, elem), elem), dims, x.type.shape)
        base = e.v("select", [hit, fresh, x])
    out = scatter(base, updates, "add" if how == "mean" else how)
    if how != "mean":
        return out
    total = counts if not include_self else e.v("add", [counts, e.broadcast_to(
        e.scalar(1, "i32"), dims, x.type.shape)])
    total = e.v("maximum", [total, e.broadcast_to(e.scalar(1, "i32"), dims, x.type.shape)])
    if elem in FLOATS:
        return e.v("divide", [out, e.convert(total, elem)])
    return _floor_divide(e, out, e.convert(total, elem))


def _floor_divide(e, a, b):
    """Integer a // b rounded toward -inf (b > 0), as PyTorch's integer means round."""
    q = e.v("divide", [a, b])
    r = e.v("remainder", [a, b])
    low = e.compare(r, e.broadcast_to(e.scalar(0, a.type.elem), e.dims(r), r.type.shape), "LT")
    return e.v("select", [low, e.v("subtract", [q, e.broadcast_to(
        e.scalar(1, a.type.elem), e.dims(q), q.type.shape)]), q])


def _how(e, name, what: str) -> str:
    if name not in REDUCE:
        raise e.error(f"{what} reduce={name!r} is not supported (sum, prod, mean, amax, amin)")
    return REDUCE[name]


# ---------------------------------------------------------------- scatter along a dim

def _element_coords(e: TorchEmitter, idx: Value, axis: int, rank: int):
    """Coordinates [*idx.shape, rank]: idx's own position on every dim but `axis`, where
    its value (negative counting from the end of `size`)."""
    coords = element_coords(e, idx, axis, rank)
    dn = {"update_window_dims": (), "inserted_window_dims": tuple(range(rank)),
          "scatter_dims_to_operand_dims": tuple(range(rank)), "index_vector_dim": rank}
    return coords, dn


def _fit_source(e: TorchEmitter, src, idx: Value, elem: str) -> Value:
    """The updates for each index position: src's leading corner of index's shape (src may
    be larger), or a scalar broadcast to it."""
    if not isinstance(src, Value) or src.type.rank == 0:
        return e.broadcast_to(e.scalar(src, elem), e.dims(idx), idx.type.shape)
    for axis, (have, want) in enumerate(zip(e.dims(src), e.dims(idx))):
        if have is not want and have != want:
            src = slice_dim(e, src, axis, 0, want, 1)
    return src


@aten("scatter.src", "scatter.value", "scatter.reduce", "scatter.value_reduce",
      "scatter_add.default", "scatter_reduce.two", group=G)
def scatter(e, n):
    """self with src (or a value) written at index along `dim`: out[i][index[i][j]] = src[i][j]
    for dim 1; scatter_add and the reduce forms combine instead (scatter's reduce='add' or
    'multiply'; scatter_reduce's sum, prod, mean, amax, amin, with or without self)."""
    x = n.arg("self")
    axis = e.axis(n.arg("dim"), x.type.rank)
    idx = n.arg("index")
    src = n.arg("src") if "src" in n.inputs else n.arg("value")
    if e.target.startswith("aten.scatter_add"):
        how, include_self = "add", True
    elif e.target.startswith("aten.scatter_reduce"):
        how, include_self = _how(e, n.arg("reduce"), "scatter_reduce"), n.arg("include_self", True)
    elif "reduce" in n.inputs:
        how, include_self = _how(e, n.arg("reduce"), "scatter"), True
    else:
        how, include_self = "replace", True
    if x.type.rank == 0:  # a 0-d self: its one element, as a [1]
        x, idx = e.reshape(x, [1]), e.reshape(idx, [1])
        src = e.reshape(src, [1]) if isinstance(src, Value) and src.type.rank == 0 else src
        return e.reshape(_scatter_elements(e, x, 0, idx, src, how, include_self), [])
    return _scatter_elements(e, x, axis, idx, src, how, include_self)


def _scatter_elements(e, x, axis, idx, src, how, include_self):
    """scatter's write of src's elements at their own positions but along `axis`, where
    index says."""
    wrapped = _wrap(e, e.convert(idx, "i64"), e.dims(x)[axis])
    coords, dn = _element_coords(e, wrapped, axis, x.type.rank)
    return scatter_into(e, x, coords, _fit_source(e, src, idx, x.type.elem), dn, how,
                        bool(include_self))


# ---------------------------------------------------------------- rows along a dim

def _row_scatter(e: TorchEmitter, x: Value, axis: int, index: Value, source: Value,
                 how: str, include_self: bool = True) -> Value:
    """x with source's slices along `axis` written at the rows `index` names (index_add,
    index_copy, index_fill, index_reduce): source is x's shape with `axis` as long as index."""
    if index.type.rank == 0:
        index = e.reshape(index, [1])
    if x.type.rank == 0:  # a 0-d self: its one element, as a [1]
        out = _row_scatter(e, e.reshape(x, [1]), 0, index, e.reshape(source, [1]), how,
                           include_self)
        return e.reshape(out, [])
    coords, dn = _rows(e, x, axis, index)
    return scatter_into(e, x, coords, source, dn, how, include_self)


def _rows(e, x, axis, index):
    """(coords [L, 1], dimension numbers) writing whole slices of x at rows index[j]."""
    wrapped = _wrap(e, e.convert(index, "i64"), e.dims(x)[axis])
    coords = e.reshape(wrapped, e.dims(wrapped) + [1])
    r = x.type.rank
    dn = {"update_window_dims": tuple(d for d in range(r) if d != axis),
          "inserted_window_dims": (axis,), "scatter_dims_to_operand_dims": (axis,),
          "index_vector_dim": 1}
    return coords, dn


@aten("index_add.default", "index_copy.default", "index_reduce.default", group=G)
def index_add(e, n):
    """self with source's slices along `dim` added at (index_copy: copied to; index_reduce:
    combined by `reduce` at) the rows index names; index_add scales them by alpha."""
    x = n.arg("self")
    axis = e.axis(n.arg("dim"), x.type.rank)
    source = e.convert(n.arg("source"), x.type.elem)
    alpha = n.arg("alpha", 1)
    if alpha != 1:
        source = e.binary("multiply", source, e.scalar(alpha, x.type.elem))
    if e.target.startswith("aten.index_copy"):
        how, include_self = "replace", True
    elif e.target.startswith("aten.index_reduce"):
        how, include_self = _how(e, n.arg("reduce"), "index_reduce"), n.arg("include_self", True)
    else:
        how, include_self = "add", True
    return _row_scatter(e, x, axis, n.arg("index"), source, how, bool(include_self))


@aten("index_fill.int_Scalar", "index_fill.int_Tensor", group=G)
def index_fill(e, n):
    """self with the rows index names along `dim` set to value."""
    x = n.arg("self")
    axis = e.axis(n.arg("dim"), x.type.rank)
    index = n.arg("index")
    index = e.reshape(index, [1]) if index.type.rank == 0 else index
    dims = e.dims(x)
    rows = dims[:axis] + e.dims(index) + dims[axis + 1:] if x.type.rank else e.dims(index)
    value = e.broadcast_to(e.scalar(n.arg("value"), x.type.elem), rows)
    return _row_scatter(e, x, axis if x.type.rank else 0, index, value, "replace")


@aten("slice_scatter.default", "select_scatter.default", group=G)
def slice_scatter(e, n):
    """self with src written over self[start:end:step] along `dim` (select_scatter: over
    self.select(dim, index)), what `y[:, 2:4] = ...` decomposes to."""
    x, src = n.arg("self"), n.arg("src")
    axis = e.axis(n.arg("dim", 0), x.type.rank)
    if e.target.startswith("aten.select_scatter"):
        src = e.reshape(src, e.dims(src)[:axis] + [1] + e.dims(src)[axis:])
        return write_rows(e, x, src, axis, n.arg("index"), 1, clamp=False)
    start = n.arg("start", None)
    return write_rows(e, x, src, axis, 0 if start is None else start, n.arg("step", 1))


def write_rows(e, x, src, axis: int, start, step: int, clamp: bool = True):
    """x with src's rows written over x's rows start + step * j along `axis` (start counted
    from the end when negative; clamped to the dim when `clamp`, as a slice's bound is):
    slice_scatter, and an in-place write through a slice or select view (views.py)."""
    from lowering.torch.shapes import _norm_index
    src = e.convert(src, x.type.elem)
    start = _norm_index(e, start, e.dims(x)[axis], clamp)
    rows = e.iota([e.dims(src)[axis]], 0, "i64")
    if step != 1:
        rows = e.binary("multiply", rows, e.scalar(step, "i64"))
    rows = e.binary("add", rows, e.scalar(start, "i64"))
    return _row_scatter(e, x, axis, rows, src, "replace")


# ---------------------------------------------------------------- index_put

@aten("index_put.default", group=G)
def index_put(e, n):
    """self[indices] = values (`accumulate`: +=): index tensors on consecutive dims,
    broadcast together, negative indices wrapping, values broadcast to what self[indices]
    would be; a boolean mask (x[mask] = v) selects where it is true (values one per true
    element, in order, or one value for all)."""
    x, values = n.arg("self"), n.arg("values")
    indices = n.arg("indices")
    accumulate = bool(n.arg("accumulate", False))
    elem = x.type.elem
    values = e.convert(values, elem)
    given = [i for i, t in enumerate(indices) if t is not None]
    if not given:
        values = e.broadcast_to(values, e.dims(x), x.type.shape)
        return e.v("add", [x, values]) if accumulate else values
    if given != list(range(given[0], given[-1] + 1)):
        raise e.error("index tensors on dims that are not consecutive are not supported yet")
    if any(indices[i].type.elem == "i1" for i in given):
        if len(given) != 1:
            raise e.error("a boolean mask beside other index tensors is not supported yet")
        return _masked_put(e, n, x, given[0], indices[given[0]], values, accumulate)
    dims = e.dims(x)
    idx = e.broadcast_all([e.convert(indices[i], "i64") for i in given])
    idx = [_wrap(e, v, dims[i]) for v, i in zip(idx, given)]
    s, sdims = idx[0].type.rank, e.dims(idx[0])
    coords = e.v("concatenate", [e.reshape(v, sdims + [1]) for v in idx], {"dimension": s})
    k, m = given[0], len(given)
    rest = x.type.rank - k - m
    upd_dims = dims[:k] + sdims + dims[k + m:]
    upd_shape = tuple(x.type.shape[:k]) + idx[0].type.shape + tuple(x.type.shape[k + m:])
    updates = e.broadcast_to(values, upd_dims, upd_shape) if values.type.rank < len(upd_dims) \
        or values.type.shape != upd_shape else values
    dn = {"update_window_dims": tuple(range(k)) + tuple(range(k + s, k + s + rest)),
          "inserted_window_dims": tuple(given), "scatter_dims_to_operand_dims": tuple(given),
          "index_vector_dim": s}
    return scatter_into(e, x, coords, updates, dn, "add" if accumulate else "replace")


def _masked_put(e, n, x, k, mask, values, accumulate):
    """x[..., mask] = values for a boolean mask over dims k..k+rank(mask)-1: values is one
    value for every true element (broadcast over the dims after the mask's), or one per
    true element (x[mask] = v[mask] * 2: a [count, ...] tensor, its i-th row to the i-th
    true element in row-major order, a gather at the running count of true elements; the
    count is checked on every call, as PyTorch checks it, a `?` count of 1 broadcast)."""
    dims = e.dims(x)
    m = mask.type.rank
    rest = x.type.rank - k - m
    full_mask = e.broadcast_to(mask, dims, x.type.shape, mapping=tuple(range(k, k + m)))
    if values.type.rank > rest and any(d != 1 for d in values.type.shape[:values.type.rank - rest]):
        picked = _per_true_element(e, n, x, k, mask, values, rest)
    else:
        if values.type.rank > rest:
            values = e.reshape(values, e.dims(values)[values.type.rank - rest:])
        picked = e.broadcast_to(values, dims, x.type.shape)
    new = e.v("add", [x, picked]) if accumulate else picked
    return e.v("select", [full_mask, new, x])


def _per_true_element(e, n, x, k, mask, values, rest):
    """values [..., count, *rest] spread over x's shape: the row of each true element of
    the mask at its place (row 0 where the mask is false, unused)."""
    axis = values.type.rank - rest - 1
    if axis > k:
        raise e.error(f"x[mask] = values: values {values.type} has more dims than "
                      f"x[mask] {x.type} would")
    mdims = e.dims(mask)
    flat = e.reshape(e.convert(mask, "i64"), [e.product(mdims)])
    count = e.reduce(e.convert(flat, "i32"), [0], "add", 0)
    rows = e.v("get_dimension_size", [values], {"dimension": axis})
    one = e.scalar(1, "i32")
    n.lowerer.check(e.v("or", [e.compare(rows, count, "EQ"), e.compare(rows, one, "EQ")]),
                    [rows, count], f"{e.target}: x[mask] = values: values has {{0}} rows, the "
                    f"mask {{1}} true elements ({e.loc.file}:{e.loc.line})")
    pos = e.v("subtract", [cumulative(e, flat, 0, "add", 0),
                           e.broadcast_to(e.scalar(1, "i64"), e.dims(flat))])
    last = e.convert(e.v("subtract", [rows, one]), "i64")  # one row: broadcast, as PyTorch does
    pos = e.reshape(e.v("clamp", [e.scalar(0, "i64"), pos, e.v("maximum", [last, e.scalar(0, "i64")])]),
                    mdims)
    vdims = e.dims(values)  # a zero row after the rest: a mask with no true element reads it
    spare = e.broadcast_to(e.scalar(0, values.type.elem), vdims[:axis] + [1] + vdims[axis + 1:])
    values = e.v("concatenate", [values, spare], {"dimension": axis})
    rows_at = gather_axis(e, values, pos, axis)  # [lead..., *mask dims, *rest]
    lead = tuple(range(k - axis, k + mask.type.rank + rest))
    return e.broadcast_to(rows_at, e.dims(x), x.type.shape, mapping=lead)


@aten("masked_scatter.default", group=G)
def masked_scatter(e, n):
    """self where mask is false; where true, source's elements in order (row-major), the
    i-th true element taking source's i-th element."""
    x, mask, source = n.arg("self"), n.arg("mask"), n.arg("source")
    dims = e.dims(x)
    mask = e.broadcast_all([mask, x])[0]
    flat = e.reshape(mask, [e.product(dims)])
    pos = e.v("subtract", [cumulative(e, e.convert(flat, "i64"), 0, "add", 0),
                           e.broadcast_to(e.scalar(1, "i64"), e.dims(flat))])
    pos = e.v("maximum", [pos, e.broadcast_to(e.scalar(0, "i64"), e.dims(flat))])
    src = e.reshape(e.convert(source, x.type.elem), [e.product(e.dims(source))])
    picked = e.reshape(gather_axis(e, src, pos, 0), dims)
    return e.v("select", [mask, picked, x])


# ---------------------------------------------------------------- whole tensors

@aten("copy.default", group=G)
def copy(e, n):
    """self overwritten by src (broadcast to self's shape, in self's element type): what
    `x[:, 0] = y` decomposes to."""
    x = n.arg("self")
    src = e.convert(n.arg("src"), x.type.elem)
    return src if src.type.shape == x.type.shape and x.type.is_static else \
        e.broadcast_to(src, e.dims(x), x.type.shape)


@aten("fill.Scalar", "fill.Tensor", "zero.default", group=G)
def fill(e, n):
    """self's shape, every element `value` (zero: 0, what `x.zero_()` computes: Swin V2)."""
    x = n.arg("self")
    value = n.arg("value", 0)  # zero has none
    return e.broadcast_to(e.scalar(value, x.type.elem), e.dims(x), x.type.shape)

