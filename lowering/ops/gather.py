"""gather, dynamic_gather and scatter, with StableHLO semantics and every dimension number
(offset/collapsed/batching dims, any index_vector_dim, start_index_map in any order).

Gather is elemental: the value at an output index reads the start index vector from
the indices tensor (itself computed in the same fused kernel when it can be), clamps
each start into [0, operand_dim - slice_size] as XLA does, and reads one operand
element. dynamic_gather is the same op with its slice sizes in a tensor: the host
reads them to size the result, and the kernel takes them from the result's dims.

Scatter is a kernel of its own: the operands are copied to the results, then every
update element is applied in row-major order of the updates with the update region
(`current = region(current, update)`), so results are deterministic even with
duplicate indices. An update whose window does not fit inside the operand at its
start index is skipped as a whole, as XLA does (no clamping).

The ops register themselves in the op registry at the end of this module.
"""
from __future__ import annotations

import math
import operator
import re

import numpy as np

from lowering.ir.attrs import dense_to_ints, split_top_level
from lowering.ir.builder import Ix, close_nest, loop_nest, open_nest
from lowering.ir.core import INDEX, DenseAttr, OpaqueAttr, Operation, ScalarType, TensorType
from lowering.ops import registry
from lowering.ops.elemental import apply_region
from lowering.ops.elementwise import Scalars
from lowering.ops.registry import ShapeError
from lowering.ops.verify import verify_scalar_ops

GATHER_KEYS = ("offset_dims", "collapsed_slice_dims", "operand_batching_dims",
               "start_indices_batching_dims", "start_index_map", "index_vector_dim")
SCATTER_KEYS = ("update_window_dims", "inserted_window_dims", "input_batching_dims",
                "scatter_indices_batching_dims", "scatter_dims_to_operand_dims",
                "index_vector_dim")
INDEX_ELEMS = ("i8", "i16", "i32", "i64", "ui8", "ui16", "ui32", "ui64")
I1 = ScalarType("i1")


# ----------------------------------------------------------------------------- attributes


def decode_dimension_numbers(value, keys, kind: str) -> dict:
    """`#stablehlo.gather<offset_dims = [1], ...>` (or `#mhlo.`, or the old dict form of
    xla_hlo) to {key: tuple of ints, index_vector_dim: int}; absent keys are empty / 0."""
    out = {k: () for k in keys}
    out["index_vector_dim"] = 0
    if isinstance(value, OpaqueAttr):
        text = value.text.strip()
        m = re.fullmatch(r"#(?:stablehlo|mhlo)\.(\w+)\s*<(.*)>", text, re.S)
        if not m or m.group(1) != kind:
            raise ValueError(f"expected #stablehlo.{kind}<...>, got {text}")
        for part in split_top_level(m.group(2)):
            if not part:
                continue
            key, eq, val = (s.strip() for s in part.partition("="))
            if not eq or key not in keys:
                raise ValueError(f"unknown {kind} dimension number '{key}'")
            if key == "index_vector_dim":
                out[key] = int(val.split(":")[0])
            elif val.startswith("[") and val.endswith("]"):
                out[key] = tuple(int(x) for x in val[1:-1].split(",") if x.strip())
            else:
                raise ValueError(f"{key} must be a list of integers, got {val}")
        return out
    if isinstance(value, dict):
        for key, val in value.items():
            if key not in keys:
                raise ValueError(f"unknown {kind} dimension number '{key}'")
            if key == "index_vector_dim":
                out[key] = int(val) if isinstance(val, int) else int(dense_to_ints(val)[0])
            else:
                out[key] = dense_to_ints(val)
        return out
    raise ValueError(f"bad {kind} dimension numbers {value!r}")


def gather_dims(op: Operation) -> dict:
    return decode_dimension_numbers(op.attrs["dimension_numbers"], GATHER_KEYS, "gather")


def scatter_dims(op: Operation) -> dict:
    return decode_dimension_numbers(op.attrs["scatter_dimension_numbers"], SCATTER_KEYS,
                                    "scatter")


def _const_ints(v):
    """The values of a constant 1-D tensor, else None."""
    owner = v.owner
    if isinstance(owner, Operation) and owner.short_name == "constant" and "value" in owner.attrs:
        try:
            return dense_to_ints(owner.attrs["value"])
        except ValueError:
            return None
    return None


# ----------------------------------------------------------------------------- static shapes


def _shape_error(message):
    return ShapeError(message)


def _dims_ok(dims, bound, what):
    for d in dims:
        if not 0 <= d < bound:
            raise _shape_error(f"{what} {d} out of range for rank {bound}")


def _unique(dims, what):
    if len(set(dims)) != len(dims):
        raise _shape_error(f"{what} {list(dims)} must be unique")


def _sorted_unique(dims, what):
    if list(dims) != sorted(set(dims)):
        raise _shape_error(f"{what} {list(dims)} must be sorted and unique")


def _check_index_vector(ivd, indices_shape, n_map, what):
    ir = len(indices_shape)
    if not 0 <= ivd <= ir:
        raise _shape_error(f"index_vector_dim {ivd} out of range for indices of rank {ir}")
    n = indices_shape[ivd] if ivd < ir else 1
    if n is not None and n != n_map:
        raise _shape_error(f"{what} has {n_map} entries, the index vectors have {n}")


def _check_batching(operand_dims, indices_dims, operand_shape, indices_shape, ivd, names):
    a, b = names
    if len(operand_dims) != len(indices_dims):
        raise _shape_error(f"{a} and {b} must have the same length")
    _unique(indices_dims, b)
    _dims_ok(indices_dims, len(indices_shape), b)
    if ivd in indices_dims:
        raise _shape_error(f"index_vector_dim {ivd} cannot be one of {b}")
    for x, y in zip(operand_dims, indices_dims):
        n, m = operand_shape[x], indices_shape[y]
        if n is not None and m is not None and n != m:
            raise _shape_error(f"batching dims differ: operand dim {x} is {n}, indices dim {y} "
                               f"is {m}")


def gather_result_shape(dn: dict, operand_shape, indices_shape, sizes) -> tuple:
    """Verify gather's dimension numbers (the StableHLO spec's constraints) and return the
    result shape; None where a dim is not known statically."""
    r = len(operand_shape)
    off, col, obd, sbd, sim, ivd = (dn[k] for k in GATHER_KEYS)
    if len(sizes) != r:
        raise _shape_error(f"slice_sizes has {len(sizes)} entries, the operand has rank {r}")
    _check_index_vector(ivd, indices_shape, len(sim), "start_index_map")
    _sorted_unique(off, "offset_dims")
    _sorted_unique(col, "collapsed_slice_dims")
    _sorted_unique(obd, "operand_batching_dims")
    _unique(tuple(col) + tuple(obd), "collapsed_slice_dims and operand_batching_dims")
    _dims_ok(tuple(col) + tuple(obd) + tuple(sim), r, "operand dim")
    _unique(tuple(sim) + tuple(obd), "start_index_map and operand_batching_dims")
    if len(off) + len(col) + len(obd) != r:
        raise _shape_error(f"offset_dims ({len(off)}), collapsed_slice_dims ({len(col)}) and "
                           f"operand_batching_dims ({len(obd)}) must add up to the operand's "
                           f"rank {r}")
    _check_batching(obd, sbd, operand_shape, indices_shape, ivd,
                    ("operand_batching_dims", "start_indices_batching_dims"))
    for d, s in enumerate(sizes):
        n = operand_shape[d]
        if s is not None and (s < 0 or (n is not None and s > n)):
            raise _shape_error(f"slice size {s} of dim {d} does not fit the operand dim "
                               f"{'?' if n is None else n}")
    for d in tuple(col) + tuple(obd):
        if sizes[d] is not None and sizes[d] != 1:
            raise _shape_error(f"slice size of collapsed or batching dim {d} must be 1, got "
                               f"{sizes[d]}")
    batch = [n for i, n in enumerate(indices_shape) if i != ivd]
    window = [sizes[d] for d in range(r) if d not in col and d not in obd]
    out_rank = len(batch) + len(off)
    _dims_ok(off, out_rank, "offset dim")
    bi, wi = iter(batch), iter(window)
    return tuple(next(wi) if d in off else next(bi) for d in range(out_rank))


def infer_gather(op: Operation):
    dynamic = op.key == "dynamic_gather"
    n_operands = 3 if dynamic else 2
    if len(op.operands) != n_operands:
        raise _shape_error(f"expects {n_operands} operands, got {len(op.operands)}")
    operand, indices = op.operands[0].type, op.operands[1].type
    try:
        dn = gather_dims(op)
    except ValueError as e:
        raise _shape_error(str(e))
    if indices.elem not in INDEX_ELEMS:
        raise _shape_error(f"indices must be integers, got {indices}")
    if dynamic:
        st = op.operands[2].type
        if st.rank != 1 or st.elem not in INDEX_ELEMS or st.shape[0] not in (None, operand.rank):
            raise _shape_error(f"slice_sizes must be a 1-D integer tensor of {operand.rank} "
                               f"elements, got {st}")
        sizes = _const_ints(op.operands[2]) or (None,) * operand.rank
    else:
        sizes = op.attrs["slice_sizes"]
    shape = gather_result_shape(dn, operand.shape, indices.shape, sizes)
    if len(op.results) != 1:
        raise _shape_error(f"expects 1 result, got {len(op.results)}")
    return [TensorType(shape, operand.elem)]


def infer_scatter(op: Operation):
    n = (len(op.operands) - 1) // 2
    if n < 1 or len(op.operands) != 2 * n + 1:
        raise _shape_error("expects N inputs, the indices and N updates")
    if len(op.results) != n:
        raise _shape_error(f"expects {n} results, got {len(op.results)}")
    inputs = [v.type for v in op.operands[:n]]
    indices = op.operands[n].type
    updates = [v.type for v in op.operands[n + 1:]]
    try:
        dn = scatter_dims(op)
    except ValueError as e:
        raise _shape_error(str(e))
    if indices.elem not in INDEX_ELEMS:
        raise _shape_error(f"indices must be integers, got {indices}")
    base = inputs[0]
    for group in (inputs, updates):
        for t in group[1:]:
            if t.rank != group[0].rank or any(
                    a is not None and b is not None and a != b
                    for a, b in zip(t.shape, group[0].shape)):
                raise _shape_error(f"inputs (and updates) must have the same shape: "
                                   f"{group[0]} vs {t}")
    for i, u in zip(inputs, updates):
        if i.elem != u.elem:
            raise _shape_error(f"update {u} does not match its input {i}")
    r = base.rank
    uwd, iwd, ibd, sbd, sdod, ivd = (dn[k] for k in SCATTER_KEYS)
    _check_index_vector(ivd, indices.shape, len(sdod), "scatter_dims_to_operand_dims")
    _sorted_unique(uwd, "update_window_dims")
    _sorted_unique(iwd, "inserted_window_dims")
    _sorted_unique(ibd, "input_batching_dims")
    _unique(tuple(iwd) + tuple(ibd), "inserted_window_dims and input_batching_dims")
    _dims_ok(tuple(iwd) + tuple(ibd) + tuple(sdod), r, "operand dim")
    _unique(tuple(sdod) + tuple(ibd), "scatter_dims_to_operand_dims and input_batching_dims")
    if len(uwd) + len(iwd) + len(ibd) != r:
        raise _shape_error(f"update_window_dims ({len(uwd)}), inserted_window_dims "
                           f"({len(iwd)}) and input_batching_dims ({len(ibd)}) must add up to "
                           f"the operand's rank {r}")
    _check_batching(ibd, sbd, base.shape, indices.shape, ivd,
                    ("input_batching_dims", "scatter_indices_batching_dims"))
    scatter_sizes = [m for i, m in enumerate(indices.shape) if i != ivd]
    upd = updates[0]
    if upd.rank != len(scatter_sizes) + len(uwd):
        raise _shape_error(f"updates {upd} must have rank {len(scatter_sizes) + len(uwd)}")
    _dims_ok(uwd, upd.rank, "update window dim")
    window_dims = [d for d in range(r) if d not in iwd and d not in ibd]
    si = iter(scatter_sizes)
    for d in range(upd.rank):
        u = upd.shape[d]
        if d in uwd:
            od = window_dims[uwd.index(d)]
            n_op = base.shape[od]
            if u is not None and n_op is not None and u > n_op:
                raise _shape_error(f"update window dim {d} ({u}) is larger than operand dim "
                                   f"{od} ({n_op})")
        else:
            m = next(si)
            if u is not None and m is not None and u != m:
                raise _shape_error(f"update scatter dim {d} ({u}) differs from the indices' "
                                   f"dim ({m})")
    verify_update_region(op, [t.elem for t in inputs])
    return list(inputs)


def verify_update_region(op: Operation, elems: list) -> None:
    """One block of scalar elementwise ops: (current..., update...) -> new values."""
    if len(op.regions) != 1 or len(op.regions[0].blocks) != 1:
        raise _shape_error("needs one update region")
    block = op.regions[0].blocks[0]
    want = [TensorType((), e) for e in elems] * 2
    if [a.type for a in block.args] != want:
        raise _shape_error("update region must take " + ", ".join(map(str, want)))
    if not block.ops or not block.ops[-1].name.endswith("return"):
        raise _shape_error("update region must end with a return")
    verify_scalar_ops(block.ops, "scatter region")
    if [v.type for v in block.ops[-1].operands] != want[:len(elems)]:
        raise block.ops[-1].error("update region must return "
                                  + ", ".join(map(str, want[:len(elems)])))


# ----------------------------------------------------------------------------- run-time shapes


def _fix_declared(hs, op, declared, dims, what):
    """Dims the declared type fixes are checked against the computed ones."""
    out = []
    for d, (t, x) in enumerate(zip(declared, dims)):
        out.append(x if t is None else hs.require_equal(t, x, op, f"{what} dim {d}"))
    return out


def _gather_shape(hs, op, shapes, bufs):
    dn = gather_dims(op)
    src, ind = shapes[0], shapes[1]
    r = len(src)
    off, col, obd, sbd, sim, ivd = (dn[k] for k in GATHER_KEYS)
    if op.key == "dynamic_gather":
        sizes = [hs.load_index(bufs[2], d) for d in range(r)]
        for d in range(r):
            hs.require("sge", sizes[d], 0, op, f"slice size of dim {d} is negative")
            if d in col or d in obd:
                sizes[d] = hs.require_equal(1, sizes[d], op,
                                            f"slice size of collapsed dim {d} must be 1")
    else:
        sizes = list(op.attrs["slice_sizes"])
    for d in range(r):
        hs.require("sle", sizes[d], src[d], op, f"slice size of dim {d} exceeds the operand")
    if ivd < len(ind):
        hs.require_equal(ind[ivd], len(sim), op, "index vector length")
    for a, b in zip(obd, sbd):
        hs.require_equal(src[a], ind[b], op, f"operand batching dim {a} and indices dim {b} differ")
    batch = [n for i, n in enumerate(ind) if i != ivd]
    window = [sizes[d] for d in range(r) if d not in col and d not in obd]
    bi, wi = iter(batch), iter(window)
    out = [next(wi) if d in off else next(bi) for d in range(len(batch) + len(off))]
    return [_fix_declared(hs, op, op.results[0].type.shape, out, "result")]


def _scatter_shape(hs, op, shapes, bufs):
    n = len(op.results)
    base = list(shapes[0])
    for s in shapes[1:n]:
        for d in range(len(base)):
            base[d] = hs.require_equal(base[d], s[d], op, f"inputs differ in dim {d}")
    ind, upd = shapes[n], shapes[n + 1]
    for s in shapes[n + 2:]:
        for d in range(len(upd)):
            hs.require_equal(upd[d], s[d], op, f"updates differ in dim {d}")
    dn = scatter_dims(op)
    uwd, iwd, ibd, sbd, sdod, ivd = (dn[k] for k in SCATTER_KEYS)
    if ivd < len(ind):
        hs.require_equal(ind[ivd], len(sdod), op, "index vector length")
    for a, b in zip(ibd, sbd):
        hs.require_equal(base[a], ind[b], op, f"input batching dim {a} and indices dim {b} differ")
    window_dims = [d for d in range(len(base)) if d not in iwd and d not in ibd]
    scatter_sizes = iter([m for i, m in enumerate(ind) if i != ivd])
    for d, u in enumerate(upd):
        if d in uwd:
            od = window_dims[uwd.index(d)]
            hs.require("sle", u, base[od], op, f"update window dim {d} exceeds operand dim {od}")
        else:
            hs.require_equal(u, next(scatter_sizes), op, f"update dim {d} and the indices differ")
    return [_fix_declared(hs, op, r.type.shape, base, "result") for r in op.results]


# ----------------------------------------------------------------------------- kernels


def _to_index(b, x, elem):
    """An integer start index as an index value: unsigned values zero-extended, a ui64
    past the signed range saturated (it is out of range either way)."""
    if elem != "i64":
        x = Scalars(b).convert(x, elem, "i64")
    if elem == "ui64":
        neg = b.v("arith.cmpi", [x, b.const(0, "i64")], I1, predicate="slt")
        x = b.v("arith.select", [neg, b.const(2 ** 63 - 1, "i64"), x], ScalarType("i64"))
    return b.v("arith.index_cast", [x], INDEX)


def _gather_elemental(e, op, idx):
    """operand[start (clamped) + batch position + window offset] for one result index."""
    b = e.b
    dn = gather_dims(op)
    off, col, obd, sbd, sim, ivd = (dn[k] for k in GATHER_KEYS)
    operand, indices, result = op.operands[0], op.operands[1], op.results[0]
    r, ir = operand.type.rank, indices.type.rank
    batch_index = [i for d, i in enumerate(idx) if d not in off]
    window_dims = [d for d in range(r) if d not in col and d not in obd]
    if op.key == "gather":
        sizes = list(op.attrs["slice_sizes"])
    else:  # the host checked the slice sizes; the result's dims are the window's
        out_dims = e.dims(result)
        sizes = [1] * r
        for j, d in enumerate(window_dims):
            sizes[d] = out_dims[off[j]]
    src_dims = e.dims(operand)
    pos = [None] * r
    for j, d in enumerate(window_dims):
        pos[d] = idx[off[j]]
    for od, sd in zip(obd, sbd):
        pos[od] = batch_index[sd if sd < ivd else sd - 1]
    for k, od in enumerate(sim):
        iidx = batch_index[:ivd] + [b.index(k)] + batch_index[ivd:] if ivd < ir else batch_index
        start = _to_index(b, e.at(indices, iidx), indices.type.elem)
        start = e.clamp(start, 0, e.ix.sub(src_dims[od], sizes[od]))
        pos[od] = start if pos[od] is None else b.v("arith.addi", [pos[od], start], INDEX)
    return e.at(operand, [b.index(0) if p is None else p for p in pos])


def scatter_position(body, op, indices, out_dims: list, upd_dims: list, uivs: list) -> tuple:
    """(fits, operand index) of update element `uivs`: fits is None when always true, else
    whether its window fits in the operand; the index is 0 where it does not. Shared with the
    GPU's one-thread-per-update kernel."""
    uwd, iwd, ibd, sbd, sdod, ivd = (scatter_dims(op)[key] for key in SCATTER_KEYS)
    r, ir = len(out_dims), indices.type.rank
    scatter_index = [i for d, i in enumerate(uivs) if d not in uwd]
    window_dims = [d for d in range(r) if d not in iwd and d not in ibd]
    window_size = {d: upd_dims[uwd[j]] for j, d in enumerate(window_dims)}
    pos = [None] * r
    for j, d in enumerate(window_dims):
        pos[d] = uivs[uwd[j]]
    for od, sd in zip(ibd, sbd):
        pos[od] = scatter_index[sd if sd < ivd else sd - 1]
    ok = None
    for kk, od in enumerate(sdod):
        iidx = scatter_index[:ivd] + [body.index(kk)] + scatter_index[ivd:] if ivd < ir \
            else scatter_index
        raw = body.v("memref.load", [indices] + iidx, ScalarType(indices.type.elem))
        start = _to_index(body, raw, indices.type.elem)
        last = Ix(body).sub(out_dims[od], window_size.get(od, 1))
        fits = body.v("arith.andi", [
            body.v("arith.cmpi", [start, body.index(0)], I1, predicate="sge"),
            body.v("arith.cmpi", [start, Ix(body).val(last)], I1, predicate="sle")], I1)
        ok = fits if ok is None else body.v("arith.andi", [ok, fits], I1)
        pos[od] = start if pos[od] is None else body.v("arith.addi", [pos[od], start], INDEX)
    pos = [body.index(0) if p is None else p for p in pos]
    if ok is not None:  # a skipped update rewrites element 0 with its own value
        pos = [body.v("arith.select", [ok, p, body.index(0)], INDEX) for p in pos]
    return ok, pos


# ----------------------------------------------------------------------------- row scatters

MAX_ROW_INDICES = 1 << 16  # indices evaluated when the model is compiled, at most
COMPARE = {"EQ": operator.eq, "NE": operator.ne, "LT": operator.lt, "LE": operator.le,
           "GT": operator.gt, "GE": operator.ge}
INDEX_EVAL = {  # op key -> numpy evaluation (the op, its operands' arrays)
    "add": lambda op, a, b: a + b,
    "subtract": lambda op, a, b: a - b,
    "multiply": lambda op, a, b: a * b,
    "negate": lambda op, a: -a,
    "convert": lambda op, a: a,
    "select": lambda op, c, a, b: np.where(c, a, b),
    "compare": lambda op, a, b: COMPARE[op.attrs["comparison_direction"].value](a, b),
    "reshape": lambda op, a: a.reshape(op.results[0].type.shape),
    "broadcast_in_dim": lambda op, a: np.broadcast_to(
        a.reshape([a.shape[list(op.attrs["broadcast_dimensions"]).index(d)]
                   if d in op.attrs["broadcast_dimensions"] else 1
                   for d in range(op.results[0].type.rank)]), op.results[0].type.shape),
}


def _index_value(v, depth: int = 16):
    """v's elements when they follow from constants and iotas by INDEX_EVAL's ops, else None."""
    op, t = v.owner, v.type
    if not isinstance(op, Operation) or not isinstance(t, TensorType) or not t.is_static \
            or math.prod(t.shape) > MAX_ROW_INDICES or depth == 0:
        return None
    if op.key == "constant" and isinstance(op.attrs.get("value"), DenseAttr):
        a = np.asarray(op.attrs["value"].array)
        return np.broadcast_to(a.reshape(()), t.shape) if a.size == 1 else a.reshape(t.shape)
    if op.key == "iota":
        d = op.attrs["iota_dimension"]
        return np.broadcast_to(np.arange(t.shape[d]).reshape(
            [t.shape[d] if k == d else 1 for k in range(t.rank)]), t.shape)
    if op.key not in INDEX_EVAL or len(op.results) != 1:
        return None
    args = [_index_value(u, depth - 1) for u in op.operands]
    return None if any(a is None for a in args) else np.asarray(INDEX_EVAL[op.key](op, *args))


def scatter_rows(op: Operation):
    """(operand dim d, first row, updates' dim of the rows) when the scatter overwrites the
    rows start .. start + n - 1 along d, whole (PyTorch's slice_scatter: `iota + start`
    indices, evaluated here), else None; its kernel then copies (emit_scatter)."""
    if len(op.operands) != 3 or not all(v.type.is_static for v in op.operands):
        return None
    body = op.regions[0].blocks[0]
    if not (len(body.args) == 2 and len(body.ops) == 1 and len(body.ops[0].operands) == 1
            and body.ops[0].operands[0] is body.args[1]):
        return None  # not an overwrite
    x, indices, updates = (v.type for v in op.operands)
    dn = scatter_dims(op)
    if (dn["input_batching_dims"] or len(dn["inserted_window_dims"]) != 1
            or dn["scatter_dims_to_operand_dims"] != dn["inserted_window_dims"]
            or indices.rank != 2 or indices.shape[1] != 1 or dn["index_vector_dim"] != 1
            or updates.rank != x.rank or len(dn["update_window_dims"]) != x.rank - 1):
        return None
    (d,) = dn["inserted_window_dims"]
    (u,) = [k for k in range(updates.rank) if k not in dn["update_window_dims"]]
    window = [k for k in range(x.rank) if k != d]
    if any(updates.shape[w] != x.shape[k] for w, k in zip(dn["update_window_dims"], window)):
        return None
    rows, n = _index_value(op.operands[1]), indices.shape[0]
    if rows is None or n == 0:
        return None
    start = int(rows.reshape(-1)[0])
    if not np.array_equal(rows.reshape(-1), np.arange(start, start + n)) or start < 0 \
            or start + n > x.shape[d]:
        return None
    return (d, start, u)


def _emit_row_scatter(b, op, x, upd, out) -> None:
    """out = x with rows start .. start + n - 1 along d taken from the updates: the output in
    three runs along d (before, the rows, after), each element copied once."""
    d, start, u = op.attrs["aot.rows"]
    shape, n = out.type.shape, upd.type.shape[u]
    window = iter(k for k in range(len(shape)) if k != u)
    at = {k: (u if k == d else next(window)) for k in range(len(shape))}  # out dim -> upd dim
    for lo, hi, src in ((0, start, x), (start, start + n, upd), (start + n, shape[d], x)):
        if hi <= lo:
            continue
        bounds = [b.index(hi - lo if k == d else m) for k, m in enumerate(shape)]
        with loop_nest(b, bounds) as (inner, ivs):
            pos = [Ix(inner).add(iv, lo) if k == d else iv for k, iv in enumerate(ivs)]
            if src is upd:
                idx = [None] * len(shape)
                for k, iv in enumerate(ivs):
                    idx[at[k]] = iv
            else:
                idx = pos
            value = inner.v("memref.load", [src] + idx, ScalarType(src.type.elem))
            inner.op("memref.store", [value, out] + pos)


def emit_scatter(k, op, b, args):
    """Copy the inputs to the results, then apply each update in order (skipping windows
    that do not fit); rows known at compile time (`aot.rows`, scatter_rows) are copies."""
    n = (len(args) - 1) // 3
    inputs, indices = args[:n], args[n]
    updates, outs = args[n + 1:2 * n + 1], args[2 * n + 1:]
    if op.attrs.get("aot.rows") is not None and n == 1:
        return _emit_row_scatter(b, op, inputs[0], updates[0], outs[0])

    def dims(builder, buf):
        return [m if m is not None else builder.v("memref.dim", [buf, builder.index(d)], INDEX)
                for d, m in enumerate(buf.type.shape)]

    out_dims = dims(b, outs[0])
    with loop_nest(b, [Ix(b).val(d) for d in out_dims]) as (inner, ivs):
        for src, dst in zip(inputs, outs):
            x = inner.v("memref.load", [src] + ivs, ScalarType(src.type.elem))
            inner.op("memref.store", [x, dst] + ivs)

    # An empty operand takes no update: run the update loops zero times.
    if any(d == 0 for d in out_dims):
        return
    dynamic = [d for d in out_dims if not isinstance(d, int)]
    gb, depth = b, 0
    if dynamic:
        nonempty = None
        for d in dynamic:
            c = b.v("arith.cmpi", [d, b.index(0)], I1, predicate="sgt")
            nonempty = c if nonempty is None else b.v("arith.andi", [nonempty, c], I1)
        trips = b.v("arith.select", [nonempty, b.index(1), b.index(0)], INDEX)
        _, gb, _, _ = b.for_(b.index(0), trips)
        depth = 1

    upd_dims = dims(gb, updates[0])
    body, uivs = open_nest(gb, [Ix(gb).val(d) for d in upd_dims])  # closed with gb's loop
    depth += len(uivs)
    ok, pos = scatter_position(body, op, indices, out_dims, upd_dims, uivs)
    current = [body.v("memref.load", [out] + pos, ScalarType(out.type.elem)) for out in outs]
    new = [body.v("memref.load", [u] + uivs, ScalarType(u.type.elem)) for u in updates]
    values = apply_region(body, op.regions[0], current + new)
    for out, old, value in zip(outs, current, values):
        if ok is not None:
            value = body.v("arith.select", [ok, value, old], ScalarType(out.type.elem))
        body.op("memref.store", [value, out] + pos)
    close_nest(body, depth)


def _gather_same_size(op: Operation, dim: int):
    """A result dim that is not an offset dim is an indices dim, in order, skipping
    index_vector_dim (cse.py reads the size there: an embedding lookup's [b, s] from its ids)."""
    dn = gather_dims(op)
    if dim in dn["offset_dims"]:
        return None
    batch = [i for i in range(op.operands[1].type.rank) if i != dn["index_vector_dim"]]
    k = sum(1 for d in range(dim) if d not in dn["offset_dims"])
    return (1, batch[k]) if k < len(batch) else None


registry.define("gather", "elemental", "shape and data movement",
                attrs=("dimension_numbers", "slice_sizes"), infer=infer_gather,
                shape_rule=_gather_shape, elemental=_gather_elemental,
                same_size=_gather_same_size)
def _gather_row_pick(op: Operation):
    """(operand, start indices) when the gather picks one slice along dim 0 with every other
    dim whole in order (x[i] of a dynamic_gather): a row, if its sizes are the operand's."""
    dn = gather_dims(op)
    rank = op.operands[0].type.rank
    one = op.operands[1].type.shape in ((1,), ()) and op.results[0].type.rank == rank - 1
    if (one and dn["collapsed_slice_dims"] == (0,) and dn["start_index_map"] == (0,)
            and dn["offset_dims"] == tuple(range(rank - 1)) and not dn["operand_batching_dims"]):
        return 0, 1
    return None


registry.define("dynamic_gather", "elemental", "shape and data movement",
                attrs=("dimension_numbers",), infer=infer_gather, shape_rule=_gather_shape,
                shape_operands=(2,), elemental=_gather_elemental, row_pick=_gather_row_pick)
registry.define("scatter", "kernel", "reductions and contractions",
                attrs=("scatter_dimension_numbers",), infer=infer_scatter,
                shape_rule=_scatter_shape, kernel=emit_scatter, rows=scatter_rows,
                writes=lambda op: registry.last_operands(op, (len(op.operands) - 1) // 3))
