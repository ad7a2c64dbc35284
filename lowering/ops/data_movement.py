"""Data movement and its dynamic-shape forms: broadcast, reshape, transpose, reverse, slice,
pad, concatenate, iota, constant, the `dynamic_*` ops and the RFC's `dhlo.slice`, and
get_dimension_size. Each is computed element by element (fused into kLoop kernels); its
run-time dims come from the shape rules here, with checks where dims must agree."""
from __future__ import annotations

import math

import numpy as np

from lowering.ir.core import INDEX, DenseAttr, MemRefType, ScalarType, TensorType
from lowering.ops import registry
from lowering.ops.elementwise import Scalars
from lowering.ops.registry import ShapeError, static_or
from lowering.ops.registry import op_text as _op_text

# Operands read on the host as shapes (sizes, offsets), never fused into a consumer.
SHAPE_OPERANDS = {
    "dynamic_broadcast_in_dim": (1,), "dynamic_reshape": (1,), "real_dynamic_slice": (1, 2, 3),
    "dynamic_iota": (0,), "dynamic_pad": (2, 3, 4), "dhlo.slice": (1, 2),
}

I1 = ScalarType("i1")






def infer_broadcast_in_dim(op):
    src = op.operands[0].type
    dims = op.attrs.get("broadcast_dimensions")
    out = op.results[0].type
    if dims is None or len(dims) != src.rank:
        raise ShapeError(f"broadcast_dimensions {dims} must list one result dim per operand dim "
                         f"({src.rank})")
    for i, d in enumerate(dims):
        if not 0 <= d < out.rank:
            raise ShapeError(f"broadcast dimension {d} out of range for {out}")
        s, o = src.shape[i], out.shape[d]
        if s is not None and o is not None and s != 1 and s != o:
            raise ShapeError(f"operand dim {i} of size {s} cannot broadcast to result dim {d} of size {o}")
    if len(set(dims)) != len(dims):
        raise ShapeError(f"broadcast_dimensions {dims} name a result dim twice")
    return [TensorType(out.shape, src.elem)]  # the declared shape; the element type carries over


def infer_reshape(op):
    src, out = op.operands[0].type, op.results[0].type
    if src.is_static and out.is_static:
        if math.prod(src.shape) != math.prod(out.shape):
            raise ShapeError(f"reshape changes the element count: {src} to {out}")
    return [TensorType(out.shape, src.elem)]  # the declared shape, one result, the same elements


def infer_transpose(op):
    src = op.operands[0].type
    perm = op.attrs["permutation"]
    if sorted(perm) != list(range(src.rank)):
        raise ShapeError(f"permutation {perm} is not a permutation of {src.rank} dims")
    return [TensorType(tuple(src.shape[p] for p in perm), src.elem)]


def infer_reverse(op):
    src = op.operands[0].type
    dims = op.attrs["dimensions"]
    if any(not 0 <= d < src.rank for d in dims) or len(set(dims)) != len(dims):
        raise ShapeError(f"dimensions {dims} must be distinct dims of {src}")
    return [src]


def infer_slice(op):
    src = op.operands[0].type
    starts, limits, strides = (op.attrs[k] for k in ("start_indices", "limit_indices", "strides"))
    shape = []
    for d, (s, lim, st) in enumerate(zip(starts, limits, strides)):
        n = src.shape[d]
        if st <= 0 or s < 0 or lim < s or (n is not None and lim > n):
            raise ShapeError(f"slice [{s}:{lim}:{st}] out of range for dim {d} of {src}")
        shape.append((lim - s + st - 1) // st)
    if len(starts) != src.rank:
        raise ShapeError(f"slice needs {src.rank} start indices, got {len(starts)}")
    return [TensorType(tuple(shape), src.elem)]


def infer_pad(op):
    src, pv = op.operands[0].type, op.operands[1].type
    lo, hi, inner = (op.attrs[k] for k in ("edge_padding_low", "edge_padding_high", "interior_padding"))
    if pv.shape != () or pv.elem != src.elem:
        raise ShapeError(f"padding value must be a scalar {src.elem}, got {pv}")
    shape = []
    for d in range(src.rank):
        n = src.shape[d]
        if inner[d] < 0:
            raise ShapeError("interior padding must be non-negative")
        shape.append(None if n is None else lo[d] + hi[d] + n + max(n - 1, 0) * inner[d])
        if shape[-1] is not None and shape[-1] < 0:
            raise ShapeError(f"padding makes dim {d} negative")
    return [TensorType(tuple(shape), src.elem)]


def infer_concatenate(op):
    ts = [v.type for v in op.operands]
    dim = op.attrs["dimension"]
    r = ts[0].rank
    if not 0 <= dim < r:
        raise ShapeError(f"dimension {dim} out of range for rank {r}")
    shape = list(ts[0].shape)
    for t in ts[1:]:
        if t.rank != r or t.elem != ts[0].elem:
            raise ShapeError(f"operands differ: {ts[0]} vs {t}")
        for d in range(r):
            if d != dim and None not in (t.shape[d], shape[d]) and t.shape[d] != shape[d]:
                raise ShapeError(f"operands differ in dim {d}: {ts[0]} vs {t}")
    sizes = [t.shape[dim] for t in ts]
    shape[dim] = None if None in sizes else sum(sizes)
    return [TensorType(tuple(shape), ts[0].elem)]


def infer_iota(op):
    out = op.results[0].type
    if not 0 <= op.attrs.get("iota_dimension", -1) < max(out.rank, 1):
        raise ShapeError(f"iota_dimension out of range for {out}")
    return None


def infer_constant(op):
    v = op.attrs.get("value")
    if isinstance(v, DenseAttr):
        return [v.type]
    raise ShapeError("constant needs a dense value")


def infer_dynamic(op):
    """Dynamic ops: the element type carries over; dims are checked at run time."""
    src, out = op.operands[0].type if op.operands else None, op.results[0].type
    if src is not None and op.key != "dynamic_iota" and src.elem != out.elem:
        raise ShapeError(f"element type changes from {src.elem} to {out.elem}")
    if op.key == "dynamic_iota" and not 0 <= op.attrs["iota_dimension"] < max(out.rank, 1):
        raise ShapeError(f"iota_dimension out of range for {out}")
    for i in registry.shape_operands(op.key):
        t = op.operands[i].type
        if t.rank != 1 or t.elem not in ("i32", "i64", "ui32", "ui64", "index"):
            raise ShapeError(f"shape operand #{i} must be a 1-D integer tensor, got {t}")
    if op.key == "dynamic_pad":
        pv = op.operands[1].type
        if pv.shape != () or pv.elem != src.elem or len(op.operands) != 5:
            raise ShapeError(f"dynamic_pad takes the operand, a scalar {src.elem} padding value "
                             "and low, high, interior tensors")
        for t in (op.operands[k].type for k in (2, 3, 4)):
            if t.shape not in ((src.rank,), (None,)):
                raise ShapeError(f"padding amounts must have {src.rank} elements, got {t}")
    if op.key == "dynamic_broadcast_in_dim":
        dims = op.attrs["broadcast_dimensions"]
        if len(dims) != src.rank or any(not 0 <= d < out.rank for d in dims):
            raise ShapeError(f"broadcast_dimensions {dims} do not fit {src} -> {out}")
    if op.key in ("dynamic_slice",):
        sizes = op.attrs["slice_sizes"]
        if len(sizes) != src.rank or len(op.operands) != 1 + src.rank:
            raise ShapeError(f"dynamic_slice of {src} needs {src.rank} start indices and sizes")
        return [TensorType(tuple(sizes), src.elem)]
    if op.key == "dynamic_update_slice":
        upd = op.operands[1].type
        if upd.rank != src.rank or upd.elem != src.elem or len(op.operands) != 2 + src.rank:
            raise ShapeError(f"dynamic_update_slice of {src} needs an update of the same rank and "
                             f"{src.rank} start indices")
        return [src]
    if op.key in ("real_dynamic_slice", "dhlo.slice", "dynamic_reshape") and out.rank != src.rank \
            and op.key != "dynamic_reshape":
        raise ShapeError(f"slice changes the rank: {src} -> {out}")
    return None


def infer_get_dimension_size(op):
    src = op.operands[0].type
    d = op.attrs.get("dimension")
    if d is None or not 0 <= d < src.rank:
        raise ShapeError(f"dimension {d} out of range for {src}")
    return [TensorType((), "i32")]


# ----------------------------------------------------------------------------- run-time dims



def _check_broadcast(hs, op, src_shape, out):
    """Each operand dim is 1 (expanded) or equal to the result dim it maps to."""
    for i, d in enumerate(op.attrs["broadcast_dimensions"]):
        src = src_shape[i]
        if src == 1 or src is out[d]:
            continue
        if isinstance(src, int) and isinstance(out[d], int):
            if src != out[d]:
                raise op.error(f"operand dim {i} ({src}) cannot broadcast to {out[d]}")
            continue
        ok = hs.emit("arith.ori", [hs.cmp("eq", src, out[d]), hs.cmp("eq", src, 1)], [I1], {}).result
        hs.check(ok, f"{_op_text(op)}: operand dim {i} is %lld, cannot broadcast to %lld",
                 src, out[d])


def _broadcast_in_dim_dims(hs, op, shapes, bufs):
    out = list(op.results[0].type.shape)
    for i, d in enumerate(op.attrs["broadcast_dimensions"]):
        if out[d] is None:
            out[d] = shapes[0][i]
    if any(d is None for d in out):
        raise op.error("result dims that no operand dim determines need dynamic_broadcast_in_dim")
    _check_broadcast(hs, op, shapes[0], out)
    return [out]


def shape_operand(hs, op, buf) -> list:
    """The result's dims read from a shape operand (static ones from the result's type)."""
    t = op.results[0].type
    return static_or(t.shape, [hs.load_index(buf, i) for i in range(t.rank)])


def _dynamic_broadcast_in_dim_dims(hs, op, shapes, bufs):
    out = shape_operand(hs, op, bufs[1])
    _check_broadcast(hs, op, shapes[0], out)
    return [out]


def _reshape_count_check(hs, op, src, out):
    n_in, n_out = 1, 1
    for d in src:
        n_in = hs.mul(n_in, d)
    for d in out:
        n_out = hs.mul(n_out, d)
    hs.require_equal(n_in, n_out, op, "reshape changes the element count")


def _reshape_dims(hs, op, shapes, bufs):
    out = list(op.results[0].type.shape)
    if any(d is None for d in out):
        raise op.error("reshape to a dynamic shape needs dynamic_reshape")
    _reshape_count_check(hs, op, shapes[0], out)
    return [out]


def _dynamic_reshape_dims(hs, op, shapes, bufs):
    out = shape_operand(hs, op, bufs[1])
    _reshape_count_check(hs, op, shapes[0], out)
    return [out]


def _transpose_dims(hs, op, shapes, bufs):
    return [[shapes[0][p] for p in op.attrs["permutation"]]]


def _slice_dims(hs, op, shapes, bufs):
    out = []
    for d, (s, lim, st) in enumerate(zip(op.attrs["start_indices"], op.attrs["limit_indices"],
                                       op.attrs["strides"])):
        hs.require("sle", lim, shapes[0][d], op, f"slice limit of dim {d} exceeds the operand")
        out.append((lim - s + st - 1) // st)
    return [out]


def _real_dynamic_slice_dims(hs, op, shapes, bufs):
    out = []
    for d, n in enumerate(shapes[0]):
        s, lim, st = (hs.load_index(bufs[k], d) for k in (1, 2, 3))
        hs.require("sge", s, 0, op, f"start of dim {d} is negative")
        hs.require("sle", s, lim, op, f"start of dim {d} is past its limit")
        hs.require("sle", lim, n, op, f"limit of dim {d} exceeds the operand")
        hs.require("sgt", st, 0, op, f"stride of dim {d} must be positive")
        out.append(hs.div(hs.add(hs.sub(lim, s), hs.sub(st, 1)), st))
    return [static_or(op.results[0].type.shape, out)]


def _dhlo_slice_dims(hs, op, shapes, bufs):
    """The RFC's slice: start and size given as tensors."""
    out = []
    for d, n in enumerate(shapes[0]):
        s, size = hs.load_index(bufs[1], d), hs.load_index(bufs[2], d)
        hs.require("sge", s, 0, op, f"start of dim {d} is negative")
        hs.require("sge", size, 0, op, f"size of dim {d} is negative")
        hs.require("sle", hs.add(s, size), n, op, f"start + size of dim {d} exceeds the operand")
        out.append(size)
    return [static_or(op.results[0].type.shape, out)]


def _pad_dims(hs, op, shapes, bufs):
    lo, hi, inner = (op.attrs[k] for k in ("edge_padding_low", "edge_padding_high",
                                           "interior_padding"))
    out = []
    for d, n in enumerate(shapes[0]):
        gaps = hs.mul(hs.max(hs.sub(n, 1), 0), inner[d]) if inner[d] else 0
        size = hs.add(hs.add(hs.add(n, lo[d] + hi[d]), gaps), 0)
        hs.require("sge", size, 0, op, f"padding makes dim {d} negative")
        out.append(size)
    return [static_or(op.results[0].type.shape, out)]


def _dynamic_pad_dims(hs, op, shapes, bufs):
    out = []
    for d, n in enumerate(shapes[0]):
        lo, hi, inner = (hs.load_index(bufs[k], d) for k in (2, 3, 4))
        hs.require("sge", inner, 0, op, f"interior padding of dim {d} is negative")
        gaps = hs.mul(hs.max(hs.sub(n, 1), 0), inner)
        size = hs.add(hs.add(hs.add(n, lo), hi), gaps)
        hs.require("sge", size, 0, op, f"padding makes dim {d} negative")
        out.append(size)
    return [static_or(op.results[0].type.shape, out)]


def _concatenate_dims(hs, op, shapes, bufs):
    dim = op.attrs["dimension"]
    out = list(shapes[0])
    total = 0
    for s in shapes:
        for d in range(len(out)):
            if d != dim:
                out[d] = hs.require_equal(out[d], s[d], op, f"operands differ in dim {d}")
        total = hs.add(total, s[dim])
    out[dim] = total
    return [static_or(op.results[0].type.shape, out)]


def _iota_dims(hs, op, shapes, bufs):
    out = list(op.results[0].type.shape)
    if any(d is None for d in out):
        raise op.error("iota of a dynamic shape needs dynamic_iota")
    return [out]


def _dynamic_iota_dims(hs, op, shapes, bufs):
    return [shape_operand(hs, op, bufs[0])]


def _static_result_dims(hs, op, shapes, bufs):
    t = op.results[0].type
    if not t.is_static:
        raise op.error(f"result {t} must be static")
    return [list(t.shape)]


def _dynamic_update_slice_dims(hs, op, shapes, bufs):
    for d, (a, u) in enumerate(zip(shapes[0], shapes[1])):
        hs.require("sle", u, a, op, f"update dim {d} is larger than the operand")
    return [static_or(op.results[0].type.shape, shapes[0])]


def _constant_dims(hs, op, shapes, bufs):
    return [list(op.results[0].type.shape)]


# ----------------------------------------------------------------------------- elemental

def _broadcast_in_dim_at(e, op, idx):
    """A size-1 operand dim expands: known statically, or selected at run time."""
    src = op.operands[0]
    src_dims, out_dims = e.dims(src), e.dims(op.results[0])
    src_idx = []
    for i, d in enumerate(op.attrs["broadcast_dimensions"]):
        n, m = src_dims[i], out_dims[d]
        if n == 1 and m != 1:
            src_idx.append(e.b.index(0))
        elif isinstance(n, int) or n is m:
            src_idx.append(idx[d])
        else:
            one = e.b.v("arith.cmpi", [n, e.b.index(1)], ScalarType("i1"), predicate="eq")
            src_idx.append(e.b.v("arith.select", [one, e.b.index(0), idx[d]], INDEX))
    return e.at(src, src_idx)


def _same_dim(a, b) -> bool:
    """Dims known equal at compile time: equal numbers, or the same run-time value."""
    return a == b if isinstance(a, int) and isinstance(b, int) else a is b


def _reshape_at(e, op, idx):
    src = op.operands[0]
    in_dims, out_dims = e.dims(src), e.dims(op.results[0])
    squeezed_in = [(i, n) for i, n in enumerate(in_dims) if n != 1]
    squeezed_out = [(i, n) for i, n in enumerate(out_dims) if n != 1]
    if len(squeezed_in) == len(squeezed_out) and all(
            _same_dim(a, b) for (_, a), (_, b) in zip(squeezed_in, squeezed_out)):
        # only unit dims added or removed: indices map one to one
        zero = e.b.index(0)
        src_idx = [zero] * len(in_dims)
        for (i, _), (o, _) in zip(squeezed_in, squeezed_out):
            src_idx[i] = idx[o]
        return e.at(src, src_idx)
    # leading and trailing dims the two shapes share map straight through (row-major order
    # keeps them); only the dims between are linearised and split again, so a dynamic
    # [b, s, 128] -> [b, s, 4, 32] divides by nothing at run time
    lead = 0
    while lead < min(len(in_dims), len(out_dims)) and _same_dim(in_dims[lead], out_dims[lead]):
        lead += 1
    trail = 0
    while (trail < min(len(in_dims), len(out_dims)) - lead
           and _same_dim(in_dims[-1 - trail], out_dims[-1 - trail])):
        trail += 1
    src_idx = idx[:lead] + [None] * (len(in_dims) - lead - trail) + idx[len(idx) - trail:]
    middle = _reshape_parts(e, in_dims[lead:len(in_dims) - trail], out_dims[lead:len(out_dims) - trail],
                            idx[lead:len(idx) - trail])
    if middle is not None:
        src_idx[lead:len(in_dims) - trail] = middle
        return e.at(src, src_idx)
    linear = e.b.index(0)
    for d in range(lead, len(out_dims) - trail):
        linear = e.ix.add(e.ix.mul(linear, out_dims[d]), idx[d]) if d > lead else idx[d]
    for d in reversed(range(lead, len(in_dims) - trail)):
        n = in_dims[d]
        if d == lead:
            src_idx[d] = linear
            break
        # never a division by 0: an empty operand is still read where a consumer reads
        # speculatively (pad, concatenate), a SIGFPE for a dynamic dim that is 0 at run time
        n = max(n, 1) if isinstance(n, int) else e.ix.max(n, 1)
        src_idx[d] = e.b.v("arith.remui", [linear, e.ix.val(n)], INDEX)
        linear = e.b.v("arith.divui", [linear, e.ix.val(n)], INDEX)
    return e.at(src, src_idx)


def _reshape_parts(e, in_dims: list, out_dims: list, idx: list) -> list | None:
    """The operand's indices of static dims that are products of whole runs of the output's
    dims (or of the parts a split loop walks, Elemental.splits), as sums of products: no
    division ([96, 3136] read at [96, 4, 28, 28]; [8, 56, 56, 8, 7, 7] read at [25088, 392]
    where the loops walk [25088, 8, 7, 7]); a part that spans several operand dims is divided
    alone (the 25088, once a row). None when a dim's run does not line up."""
    if not all(isinstance(n, int) for n in in_dims + out_dims):
        return None
    parts = []
    for i, n in zip(idx, out_dims):
        parts += e.splits.get(i, [(i, n)])
    parts = [(i, n) for i, n in parts if n != 1]
    src = []
    for n in reversed(in_dims):
        run, size = [], 1
        while size < n and parts:
            i, m = parts.pop()
            if size * m > n and m % (n // size) == 0 and n % size == 0:  # split it: i = q k + r
                k = n // size
                parts.append((e.b.v("arith.divui", [i, e.ix.val(k)], INDEX), m // k))
                i, m = e.b.v("arith.remui", [i, e.ix.val(k)], INDEX), k
            run.insert(0, (i, m))
            size *= m
        if size != n:
            return None
        src.insert(0, e.linear(run))
    return None if parts else src


def _transpose_at(e, op, idx):
    perm = op.attrs["permutation"]
    src_idx = [None] * len(perm)
    for i, p in enumerate(perm):
        src_idx[p] = idx[i]
    return e.at(op.operands[0], src_idx)


def _reverse_at(e, op, idx):
    dims = e.dims(op.results[0])
    src_idx = list(idx)
    for d in op.attrs["dimensions"]:
        last = dims[d] - 1 if isinstance(dims[d], int) else e.ix.sub(dims[d], 1)
        src_idx[d] = e.ix.sub(last, idx[d])
    return e.at(op.operands[0], src_idx)


def _slice_at(e, op, idx):
    starts, strides = op.attrs["start_indices"], op.attrs["strides"]
    src_idx = [e.ix.add(e.ix.mul(i, st), s) for i, s, st in zip(idx, starts, strides)]
    return e.at(op.operands[0], src_idx)


def _pad_at(e, op, idx):
    return _padded(e, op, idx, op.attrs["edge_padding_low"], op.attrs["interior_padding"])


def _dynamic_pad_at(e, op, idx):
    """Pad amounts from tensors (checked on the host: interior >= 0, sizes >= 0)."""
    lo = [e.scalar_index(op.operands[2], [e.b.index(d)]) for d in range(len(idx))]
    inner = [e.scalar_index(op.operands[4], [e.b.index(d)]) for d in range(len(idx))]
    return _padded(e, op, idx, lo, inner)


def _padded(e, op, idx, lo, inner):
    """In-bounds positions read the operand (at a clamped, always valid index); others the pad
    value. `lo` and `inner` hold ints, or index values when they come from tensors."""
    b = e.b
    src, pad_value = op.operands[:2]
    valid = None
    src_idx = []
    src_dims = e.dims(src)
    for d, i in enumerate(idx):
        n = src_dims[d]
        j = e.ix.sub(i, lo[d])
        conds = [b.v("arith.cmpi", [j, b.index(0)], ScalarType("i1"), predicate="sge")]
        if inner[d] != 0:
            step = b.index(inner[d] + 1) if isinstance(inner[d], int) else e.ix.add(inner[d], 1)
            q = b.v("arith.divsi", [j, step], INDEX)
            r = b.v("arith.remsi", [j, step], INDEX)
            conds.append(b.v("arith.cmpi", [r, b.index(0)], ScalarType("i1"), predicate="eq"))
        else:
            q = j
        conds.append(b.v("arith.cmpi", [q, e.ix.val(n)], ScalarType("i1"), predicate="slt"))
        for c in conds:
            valid = c if valid is None else b.v("arith.andi", [valid, c], ScalarType("i1"))
        src_idx.append(q)
    if valid is None:
        return e.at(src, [])
    zero = b.index(0)
    safe = [b.v("arith.select", [valid, q, zero], INDEX) for q in src_idx]
    inside = e.at(src, safe)
    outside = e.at(pad_value, [])
    return b.v("arith.select", [valid, inside, outside], ScalarType(src.type.elem))


def _concatenate_at(e, op, idx):
    """A select chain over the operands, each read at a clamped index; or, where every operand
    is a buffer and the concatenated dim is not the innermost, one load from the buffer the
    chain selects (_one_buffer_read)."""
    b = e.b
    dim = op.attrs["dimension"]
    elem = ScalarType(op.results[0].type.elem)
    pieces, offset = [], 0
    for v in op.operands:
        n = e.dims(v)[dim]
        pieces.append((v, offset, n))
        offset = offset + n if isinstance(offset, int) and isinstance(n, int) else \
            b.v("arith.addi", [e.ix.val(offset), e.ix.val(n)], INDEX)
    live = [p for p in pieces if p[2] != 0]
    if len(live) > 1 and all(v in e.inputs for v, _, _ in live) \
            and _rows_at_least(op.results[0].type.shape[dim + 1:], ONE_BUFFER_MIN_ROW):
        return _one_buffer_read(e, dim, idx, live, elem)
    result = None
    for v, start, n in reversed(pieces):
        if n == 0:
            continue
        # every operand is read at every index (the selects pick one): clamp into its range,
        # [0, 0] for a dynamic operand that is empty at run time (n - 1 = -1 would read
        # before its buffer: found by the differential fuzzer)
        last = n - 1 if isinstance(n, int) else \
            b.v("arith.maxsi", [e.ix.sub(n, 1), b.index(0)], INDEX)
        local = e.clamp(e.ix.sub(idx[dim], start), 0, last)
        value = e.at(v, idx[:dim] + [local] + idx[dim + 1:])
        if result is None:
            result = value
            continue
        end = start + n if isinstance(start, int) and isinstance(n, int) else \
            b.v("arith.addi", [e.ix.val(start), e.ix.val(n)], INDEX)
        in_range = b.v("arith.cmpi", [idx[dim], e.ix.val(end)], ScalarType("i1"), predicate="slt")
        result = b.v("arith.select", [in_range, value, result], elem)
    if result is None:  # every operand is statically empty, so is the result: never stored
        return b.const(0, op.results[0].type.elem)
    return result


# A concatenation inside a kernel reads every operand at every index and keeps one value: K
# loads per element for K operands. DenseNet concatenates all earlier layers' features (up to
# 25 operands at 64x64 in torchvision's DenseNet-121, whose concat + batch norm + relu kernels
# took 21% of its time so). Where the operands are the kernel's buffers, the chain selects
# the buffer (its pointer and dims) and its offset instead, and one load reads it. Along an
# outer dim those selects are the same for a whole row, which LLVM hoists out of the inner
# loops and whose loads it vectorises; along the innermost dim they would change from one
# element to the next, and the chain of vector loads stays.
ONE_BUFFER_MIN_ROW = 8  # elements after the concatenated dim: at least one vector of f32


def _rows_at_least(trailing: tuple, n: int) -> bool:
    """Whether the dims after the concatenated one hold at least n elements (or a dim known
    only at run time, taken as long)."""
    return None in trailing or math.prod(trailing) >= n


def _one_buffer_read(e, dim: int, idx: list, pieces: list, elem: ScalarType):
    """One load from the piece's buffer that holds idx[dim] (see ONE_BUFFER_MIN_ROW)."""
    b = e.b
    buf, start, size = e.inputs[pieces[-1][0]], pieces[-1][1], pieces[-1][2]
    for v, s, n in reversed(pieces[:-1]):
        end = s + n if isinstance(s, int) and isinstance(n, int) else \
            b.v("arith.addi", [e.ix.val(s), e.ix.val(n)], INDEX)
        here = b.v("arith.cmpi", [idx[dim], e.ix.val(end)], ScalarType("i1"), predicate="slt")
        other = e.inputs[v]
        joined = MemRefType(tuple(x if x == y else None for x, y in
                                  zip(other.type.shape, buf.type.shape)), other.type.elem)
        buf = b.v("arith.select", [here, other, buf], joined)
        start = b.v("arith.select", [here, e.ix.val(s), e.ix.val(start)], INDEX)
        size = b.v("arith.select", [here, e.ix.val(n), e.ix.val(size)], INDEX)
    # idx[dim] is within the result, so within the chosen piece; clamped all the same (a
    # dynamic piece empty at run time is never chosen, as in the chain)
    last = b.v("arith.maxsi", [e.ix.sub(size, 1), b.index(0)], INDEX)
    local = e.clamp(e.ix.sub(idx[dim], start), 0, last)
    return b.v("memref.load", [buf] + idx[:dim] + [local] + idx[dim + 1:], elem)


def _real_dynamic_slice_at(e, op, idx):
    src, start, _, strides = op.operands
    src_idx = []
    for d, i in enumerate(idx):
        c = e.b.index(d)
        s0, st = e.scalar_index(start, [c]), e.scalar_index(strides, [c])
        src_idx.append(e.b.v("arith.addi", [e.b.v("arith.muli", [i, st], INDEX), s0], INDEX))
    return e.at(src, src_idx)


def _dhlo_slice_at(e, op, idx):
    src, start = op.operands[0], op.operands[1]
    return e.at(src, [e.b.v("arith.addi", [i, e.scalar_index(start, [e.b.index(d)])], INDEX)
                      for d, i in enumerate(idx)])


def _clamped_starts(e, starts, src_dims, sizes):
    """XLA clamps dynamic_slice starts so the window stays inside the operand."""
    out = []
    for s_val, n, size in zip(starts, src_dims, sizes):
        s0 = e.scalar_index(s_val, [])
        hi = n - size if isinstance(n, int) and isinstance(size, int) else e.ix.sub(e.ix.val(n), size)
        out.append(e.clamp(s0, 0, hi))
    return out


def _dynamic_slice_at(e, op, idx):
    src = op.operands[0]
    starts = _clamped_starts(e, op.operands[1:], e.dims(src), op.attrs["slice_sizes"])
    return e.at(src, [e.b.v("arith.addi", [i, s0], INDEX) for i, s0 in zip(idx, starts)])


def _dynamic_update_slice_at(e, op, idx):
    b = e.b
    src, upd = op.operands[0], op.operands[1]
    upd_dims = e.dims(upd)
    starts = _clamped_starts(e, op.operands[2:], e.dims(src), upd_dims)
    inside, local = None, []
    for i, s0, n in zip(idx, starts, upd_dims):
        j = b.v("arith.subi", [i, s0], INDEX)
        ok = b.v("arith.andi", [b.v("arith.cmpi", [j, b.index(0)], ScalarType("i1"), predicate="sge"),
                                b.v("arith.cmpi", [j, e.ix.val(n)], ScalarType("i1"), predicate="slt")],
                 ScalarType("i1"))
        inside = ok if inside is None else b.v("arith.andi", [inside, ok], ScalarType("i1"))
        local.append(j)
    if inside is None:
        return e.at(upd, [])
    safe = [b.v("arith.select", [inside, j, b.index(0)], INDEX) for j in local]
    new, old = e.at(upd, safe), e.at(src, idx)
    return b.v("arith.select", [inside, new, old], ScalarType(src.type.elem))


def _iota_at(e, op, idx):
    elem = op.results[0].type.elem
    i = idx[op.attrs["iota_dimension"]] if idx else e.b.index(0)
    as_int = e.b.v("arith.index_cast", [i], ScalarType("i64"))
    return Scalars(e.b).convert(as_int, "i64", elem)


def _constant_at(e, op, idx):
    arr = np.asarray(op.attrs["value"].array).reshape(-1)
    elem = op.results[0].type.elem
    x = arr[0] if arr.size else 0  # a fused constant is a splat; a zero-size one has no element
    if arr.dtype.kind == "c":
        return e.b.const(complex(x), elem)
    return e.b.const(bool(x) if elem == "i1" else (float(x) if arr.dtype.kind == "f" or elem == "bf16"
                                                   else int(x)), elem)


def _reverse_dims(hs, op, shapes, bufs):
    return [list(shapes[0])]


# name: (attributes, arity, result types, run-time dims, value at an index)
STATIC = {
    "broadcast_in_dim": (("broadcast_dimensions",), 1, infer_broadcast_in_dim,
                         _broadcast_in_dim_dims, _broadcast_in_dim_at),
    "reshape": ((), 1, infer_reshape, _reshape_dims, _reshape_at),
    "transpose": (("permutation",), 1, infer_transpose, _transpose_dims, _transpose_at),
    "reverse": (("dimensions",), 1, infer_reverse, _reverse_dims, _reverse_at),
    "slice": (("start_indices", "limit_indices", "strides"), 1, infer_slice, _slice_dims,
              _slice_at),
    "pad": (("edge_padding_low", "edge_padding_high", "interior_padding"), 2, infer_pad,
            _pad_dims, _pad_at),
    "concatenate": (("dimension",), None, infer_concatenate, _concatenate_dims, _concatenate_at),
    "iota": (("iota_dimension",), 0, infer_iota, _iota_dims, _iota_at),
    "constant": (("value",), 0, infer_constant, _constant_dims, _constant_at),
}
DYNAMIC = {
    "dynamic_broadcast_in_dim": (("broadcast_dimensions",), _dynamic_broadcast_in_dim_dims,
                                 _broadcast_in_dim_at),
    "dynamic_reshape": ((), _dynamic_reshape_dims, _reshape_at),
    "real_dynamic_slice": ((), _real_dynamic_slice_dims, _real_dynamic_slice_at),
    "dhlo.slice": ((), _dhlo_slice_dims, _dhlo_slice_at),
    "dynamic_iota": (("iota_dimension",), _dynamic_iota_dims, _iota_at),
    "dynamic_slice": (("slice_sizes",), _static_result_dims, _dynamic_slice_at),
    "dynamic_update_slice": ((), _dynamic_update_slice_dims, _dynamic_update_slice_at),
    "dynamic_pad": ((), _dynamic_pad_dims, _dynamic_pad_at),
}
# (op, result dim) -> (operand, its dim) of always the same size, or ("element", operand, k
# [, {operand: value}]): element k of a shape operand, when the others' elements k are those
# values (cse.py reads sizes there)
SAME_SIZE = {
    "transpose": lambda op, dim: (0, op.attrs["permutation"][dim]),
    "concatenate": lambda op, dim: None if dim == op.attrs["dimension"] else (0, dim),
    "dynamic_broadcast_in_dim": lambda op, dim: ("element", 1, dim),
    "dynamic_reshape": lambda op, dim: ("element", 1, dim),
    "dynamic_iota": lambda op, dim: ("element", 0, dim),
    "real_dynamic_slice": lambda op, dim: ("element", 2, dim, {1: 0, 3: 1}),  # from 0 by 1
}
for _name, (_attrs, _arity, _infer, _dims, _at) in STATIC.items():
    registry.define(_name, "elemental", "shape and data movement", attrs=_attrs, arity=_arity,
                    infer=_infer, shape_rule=_dims, elemental=_at, same_size=SAME_SIZE.get(_name))
for _name, (_attrs, _dims, _at) in DYNAMIC.items():
    registry.define(_name, "elemental", "dynamic shapes", attrs=_attrs, infer=infer_dynamic,
                    shape_rule=_dims, shape_operands=SHAPE_OPERANDS.get(_name, ()), elemental=_at,
                    same_size=SAME_SIZE.get(_name))
registry.define("get_dimension_size", "host", "dynamic shapes", attrs=("dimension",),
                infer=infer_get_dimension_size)
