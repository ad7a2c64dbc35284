"""Reductions and contractions: reduce (the root of a kInput fusion, emitted with it by the
loop pass) and dot / dot_general (a kernel of its own: the loop form here, replaced on the
CPU by the packed matmul where it applies, lowering/codegen/cpu/matmul.py)."""
from __future__ import annotations

from lowering.ir.builder import LoopBuilder, dims_of, loop_nest
from lowering.ir.core import INDEX, ScalarType, TensorType, is_complex, is_float
from lowering.ops import registry
from lowering.ops.complex import cadd, cmul
from lowering.ops.elementwise import Scalars
from lowering.ops.registry import ShapeError, static_or
from lowering.ops.verify import verify_scalar_ops


def infer_reduce(op):
    n = len(op.operands) // 2
    ins, inits = op.operands[:n], op.operands[n:]
    dims = op.attrs["dimensions"]
    shape = ins[0].type.shape
    out = []
    for v, init in zip(ins, inits):
        if v.type.shape != shape:
            raise ShapeError("reduce inputs must have the same shape")
        if init.type.shape != () or init.type.elem != v.type.elem:
            raise ShapeError(f"init value must be a scalar {v.type.elem}, got {init.type}")
        if any(not 0 <= d < len(shape) for d in dims) or len(set(dims)) != len(dims):
            raise ShapeError(f"bad reduce dimensions {dims} for rank {len(shape)}")
        out.append(TensorType(tuple(s for i, s in enumerate(shape) if i not in dims), v.type.elem))
    return out


def dot_general_dims(op):
    """(lhs_batch, rhs_batch, lhs_contract, rhs_contract) for dot and dot_general alike."""
    if op.short_name == "dot":
        lr, rr = op.operands[0].type.rank, op.operands[1].type.rank
        return (), (), (lr - 1,), (0,) if rr >= 1 else ()
    d = op.attrs["dot_dimension_numbers"]
    return (d["lhs_batching_dimensions"], d["rhs_batching_dimensions"],
            d["lhs_contracting_dimensions"], d["rhs_contracting_dimensions"])


def infer_dot_general(op):
    lhs, rhs = op.operands[0].type, op.operands[1].type
    lb, rb, lc, rc = dot_general_dims(op)
    if len(lb) != len(rb) or len(lc) != len(rc):
        raise ShapeError("batching and contracting dims must pair up")
    for a, b in list(zip(lb, rb)) + list(zip(lc, rc)):
        x, y = lhs.shape[a], rhs.shape[b]
        if None not in (x, y) and x != y:
            raise ShapeError(f"lhs dim {a} ({x}) does not match rhs dim {b} ({y})")
    batch = [lhs.shape[d] for d in lb]
    lfree = [s for i, s in enumerate(lhs.shape) if i not in lb and i not in lc]
    rfree = [s for i, s in enumerate(rhs.shape) if i not in rb and i not in rc]
    out_elem = op.results[0].type.elem
    return [TensorType(tuple(batch + lfree + rfree), out_elem)]


def _reduce_dims(hs, op, shapes, bufs):
    n = len(op.operands) // 2
    dims = op.attrs["dimensions"]
    base = shapes[0]
    for s in shapes[1:n]:
        for d in range(len(base)):
            hs.require_equal(base[d], s[d], op, f"reduce inputs differ in dim {d}")
    kept = [x for i, x in enumerate(base) if i not in dims]
    return [static_or(r.type.shape, kept) for r in op.results]


def _dot_general_dims(hs, op, shapes, bufs):
    lb, rb, lc, rc = dot_general_dims(op)
    ls, rs = shapes
    for a, b in zip(lb, rb):
        hs.require_equal(ls[a], rs[b], op, f"batch dims lhs {a} and rhs {b} differ")
    for a, b in zip(lc, rc):
        hs.require_equal(ls[a], rs[b], op, f"contracting dims lhs {a} and rhs {b} differ")
    out = [ls[d] for d in lb]
    out += [x for i, x in enumerate(ls) if i not in lb and i not in lc]
    out += [x for i, x in enumerate(rs) if i not in rb and i not in rc]
    return [static_or(op.results[0].type.shape, out)]


def emit_dot(k, op, b: LoopBuilder, args: list):
    """out[batch, lfree, rfree] = sum over contracting dims of lhs * rhs, accumulated in the
    result type."""
    lhs, rhs, out = args
    lhs_t, rhs_t = op.operands[0].type, op.operands[1].type
    lb_, rb_, lc, rc = dot_general_dims(op)
    out_elem = out.type.elem
    if out_elem == "i1":
        raise op.error("dot of booleans is not supported")
    lfree = [d for d in range(lhs_t.rank) if d not in lb_ and d not in lc]
    rfree = [d for d in range(rhs_t.rank) if d not in rb_ and d not in rc]
    acc_elem = "f32" if out_elem in ("f16", "bf16") else out_elem
    if (rfree and rfree[-1] == rhs_t.rank - 1 and acc_elem == out_elem
            and lhs_t.elem == rhs_t.elem == out_elem and not is_complex(out_elem)):
        return emit_dot_rows(b, lhs, rhs, out, (lb_, rb_, lc, rc), lfree, rfree)
    with loop_nest(b, dims_of(b, out)) as (outer, ivs):
        nb = len(lb_)
        acc_elem = "f32" if out_elem in ("f16", "bf16") else out_elem
        s = Scalars(outer)
        zero = outer.const(0, acc_elem)
        body, cur, loops, civs = outer, [zero], [], []
        lhs_dims = dims_of(outer, lhs)
        for d in lc:
            loop, body, iv, iters = body.for_(body.index(0), lhs_dims[d], cur)
            loops.append((loop, body))
            civs.append(iv)
            cur = list(iters)
        lidx, ridx = [None] * lhs_t.rank, [None] * rhs_t.rank
        for i, (ld, r) in enumerate(zip(lb_, rb_)):
            lidx[ld] = ivs[i]
            ridx[r] = ivs[i]
        for i, d in enumerate(lfree):
            lidx[d] = ivs[nb + i]
        for i, d in enumerate(rfree):
            ridx[d] = ivs[nb + len(lfree) + i]
        for ld, r, iv in zip(lc, rc, civs):
            lidx[ld] = iv
            ridx[r] = iv
        bs = Scalars(body)
        x = bs.convert(body.v("memref.load", [lhs] + lidx, ScalarType(lhs_t.elem)), lhs_t.elem, acc_elem)
        y = bs.convert(body.v("memref.load", [rhs] + ridx, ScalarType(rhs_t.elem)), rhs_t.elem, acc_elem)
        if is_complex(acc_elem):  # a complex product-sum, in order (the packed matmul is real)
            total = cadd(bs, acc_elem, cur[0], cmul(bs, acc_elem, x, y))
        else:
            mul, add = ("arith.mulf", "arith.addf") if is_float(acc_elem) else ("arith.muli", "arith.addi")
            prod = body.v(mul, [x, y], ScalarType(acc_elem))
            total = body.v(add, [cur[0], prod], ScalarType(acc_elem))
            if add == "arith.addf":  # a dot product may be reordered: LLVM keeps vector accumulators
                total.owner.attrs["fastmath"] = "reassoc"
        if not loops:  # no contracting dims: an outer product
            result = total
        else:
            body.yield_([total])
            for (loop, _), (_, ob) in zip(reversed(loops[1:]), reversed(loops[:-1])):
                ob.yield_(loop.results)
            result = loops[0][0].results[0]
        outer.op("memref.store", [s.convert(result, acc_elem, out_elem), out] + ivs)


ROW_BLOCK = 4  # output rows computed together: each rhs row loaded feeds this many FMAs


def emit_dot_rows(b: LoopBuilder, lhs, rhs, out, dims, lfree, rfree):
    """The i-k-j order: output rows accumulate lhs[i, k] * rhs[k, :], so the innermost loop
    runs along the contiguous last dim of rhs and out, and vectorises. Rows go ROW_BLOCK at
    a time (then one by one for the rest), so each rhs element loaded serves several rows."""
    lb_, rb_, lc, rc = dims
    out_dims = dims_of(b, out)
    nb, nl = len(lb_), len(lfree)
    if nl == 0:  # no row dim to block: one row per batch index
        with loop_nest(b, out_dims[:nb]) as (outer, prefix):
            _dot_row_block(outer, lhs, rhs, out, dims, lfree, rfree, prefix, [])
        return
    with loop_nest(b, out_dims[:nb + nl - 1]) as (outer, prefix):
        m = out_dims[nb + nl - 1]
        # one loop over blocks of rows (the parallel one when nothing is outside it); a block
        # that would run past the last row does its rows one by one instead. Loops of 0 or 1
        # trips stand for the two cases.
        blocks = outer.v("arith.divui", [outer.v("arith.addi", [m, outer.index(ROW_BLOCK - 1)], INDEX),
                                         outer.index(ROW_BLOCK)], INDEX)
        block_loop, body, ib, _ = outer.for_(outer.index(0), blocks)
        block_loop.attrs["aot.rows_per_iteration"] = ROW_BLOCK
        base = body.v("arith.muli", [ib, body.index(ROW_BLOCK)], INDEX)
        end = body.v("arith.addi", [base, body.index(ROW_BLOCK)], INDEX)
        full = body.v("arith.cmpi", [end, m], ScalarType("i1"), predicate="ule")
        one, zero = body.index(1), body.index(0)
        _, fast, _, _ = body.for_(zero, body.v("arith.select", [full, one, zero], INDEX))
        rows = [base] + [fast.v("arith.addi", [base, fast.index(r)], INDEX) for r in range(1, ROW_BLOCK)]
        _dot_row_block(fast, lhs, rhs, out, dims, lfree, rfree, prefix, rows)
        fast.yield_()
        tail_start = body.v("arith.select", [full, m, base], INDEX)
        _, rest, i, _ = body.for_(tail_start, m)
        _dot_row_block(rest, lhs, rhs, out, dims, lfree, rfree, prefix, [i])
        rest.yield_()
        body.yield_()


def _dot_row_block(b: LoopBuilder, lhs, rhs, out, dims, lfree, rfree, prefix, rows):
    """out[prefix, row, :] = sum over k of lhs[prefix, row, k] * rhs[k, :], for each row."""
    lb_, rb_, lc, rc = dims
    elem = out.type.elem
    nb = len(lb_)
    out_dims, lhs_dims = dims_of(b, out), dims_of(b, lhs)
    row_sets = [prefix + [r] for r in rows] if rows else [list(prefix)]
    zero = b.const(0, elem)
    with loop_nest(b, out_dims[len(row_sets[0]):]) as (clear, j0):
        for row_ivs in row_sets:
            clear.op("memref.store", [zero, out] + row_ivs + j0)
    with loop_nest(b, [lhs_dims[d] for d in lc]) as (kb, kivs):

        def lhs_index(row_ivs):
            idx = [None] * lhs.type.rank
            for i, ld in enumerate(lb_):
                idx[ld] = row_ivs[i]
            for i, d in enumerate(lfree):
                idx[d] = row_ivs[nb + i]
            for ld, iv in zip(lc, kivs):
                idx[ld] = iv
            return idx
        a = [kb.v("memref.load", [lhs] + lhs_index(r), ScalarType(elem)) for r in row_sets]
        with loop_nest(kb, out_dims[len(row_sets[0]):]) as (inner, jivs):
            ridx = [None] * rhs.type.rank
            for i, r in enumerate(rb_):
                ridx[r] = row_sets[0][i]
            for r, iv in zip(rc, kivs):
                ridx[r] = iv
            for d, iv in zip(rfree, jivs):
                ridx[d] = iv
            x = inner.v("memref.load", [rhs] + ridx, ScalarType(elem))
            mul, add = ("arith.mulf", "arith.addf") if is_float(elem) else ("arith.muli", "arith.addi")
            for a_r, row_ivs in zip(a, row_sets):
                acc = inner.v("memref.load", [out] + row_ivs + jivs, ScalarType(elem))
                total = inner.v(add, [acc, inner.v(mul, [a_r, x], ScalarType(elem))], ScalarType(elem))
                inner.op("memref.store", [total, out] + row_ivs + jivs)


def verify_reduce_body(op) -> None:
    if len(op.regions) != 1:
        raise op.error("reduce needs one body region")
    block = op.regions[0].blocks[0]
    n = len(op.operands) // 2
    if len(block.args) != 2 * n:
        raise op.error(f"reduce body must take {2 * n} arguments")
    verify_scalar_ops(block.ops, "reduce body")
    ret = block.ops[-1] if block.ops else None
    if ret is None or not ret.name.endswith("return"):
        raise op.error("reduce body must end with a return")
    want = [TensorType((), v.type.elem) for v in op.operands[:n]]
    if [v.type for v in ret.operands] != want:
        raise ret.error("reduce body must return " + ", ".join(map(str, want)))


def _reduce_same_size(op, dim: int):
    """A kept dim is its input's (cse.py reads the size there)."""
    kept = [d for d in range(op.operands[0].type.rank) if d not in op.attrs["dimensions"]]
    return (0, kept[dim]) if dim < len(kept) else None


def _dot_general_same_size(op, dim: int):
    """A result dim is a batch or free dim of one operand, in the order infer_dot_general
    lays them out (cse.py reads the size there: a dense layer's batch from its input)."""
    lb, rb, lc, rc = dot_general_dims(op)
    lfree = [d for d in range(op.operands[0].type.rank) if d not in lb and d not in lc]
    rfree = [d for d in range(op.operands[1].type.rank) if d not in rb and d not in rc]
    order = [(0, d) for d in list(lb) + lfree] + [(1, d) for d in rfree]
    return order[dim] if dim < len(order) else None


_FAMILY = "reductions and contractions"
registry.define("reduce", "reduction", _FAMILY, attrs=("dimensions",), infer=infer_reduce,
                check=verify_reduce_body, shape_rule=_reduce_dims, same_size=_reduce_same_size)
registry.define("dot_general", "kernel", _FAMILY, arity=2, attrs=("dot_dimension_numbers",),
                infer=infer_dot_general, shape_rule=_dot_general_dims, kernel=emit_dot,
                same_size=_dot_general_same_size, parallel=True)
registry.define("dot", "kernel", _FAMILY, arity=2, infer=infer_dot_general,
                shape_rule=_dot_general_dims, kernel=emit_dot, same_size=_dot_general_same_size,
                parallel=True)
