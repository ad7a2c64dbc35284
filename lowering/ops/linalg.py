"""Linear algebra: triangular_solve, cholesky, lu and Householder QR (geqrf,
householder_product), kernels of their own built from plain loops (substitution,
Cholesky row by row, LAPACK's unblocked LU and QR), one matrix (batch index) after another, in the loop
order whose innermost loop runs along rows of memory (vectorised by LLVM).

triangular_solve(a, b) solves op(a) x = b (`left_side`) or x op(a) = b for x, where op(a) is
a, its transpose (`TRANSPOSE`) or its adjoint (`ADJOINT`, the transpose for real types), a
is square in its last two dims, and only its `lower` (else upper) triangle is read; with
`unit_diagonal` its diagonal is not read either and taken as ones. Leading dims are batch
dims, shared by a, b and the result (b's shape).

Both sides reduce to one recurrence. Write the unknowns of one independent system as
x_0..x_{m-1} (a column of x for `left_side`, a row of x otherwise) and equation i as
sum_k C[i, k] x_k = b_i: C is a, or a's transpose when exactly one of "op transposes" and
"x is on the left" holds (x a = b is a^T x^T = b^T). C is lower triangular when `lower`
differs from that transposition; then the equations are solved first to last (forward
substitution), else last to first, each x_i = (b_i - sum over the solved k of C[i, k] x_k)
/ C[i, i], in the element type (f32 for f16 and bf16); `_Solve` has the loop forms.

cholesky(a) (`lower`, default false as in StableHLO) computes l with a = l l^T reading only
a's lower triangle (u with a = u^T u reading the upper one when `lower` is false), row by
row: l[i, j] = (a[i, j] - sum_{k<j} l[i, k] l[j, k]) / l[j, j], l[i, i] = sqrt(a[i, i] -
sum_{k<i} l[i, k]^2) (`emit_cholesky` has the loop forms). The other triangle of the result
is written as zeros. For an a that is not positive definite StableHLO leaves the result to
the implementation: here the square root of a negative number is NaN and propagates through
the rest of the matrix (as XLA's does), never a trap.

Independent systems go to threads (and to the cuda target's grid) where the kernel's
outermost loop runs over dim 0 of the result: the batch, or the rows of x when x is on the
left of a single matrix. Otherwise the kernel runs as one loop nest.
"""
from __future__ import annotations

import numpy as np

from lowering.ir.builder import Ix, buffer_dims, loop_nest
from lowering.ir.core import EnumAttr, Operation, ScalarType, TensorType, numpy_dtype
from lowering.ops import registry
from lowering.ops.elementwise import Scalars
from lowering.ops.registry import ShapeError, static_or

I1 = ScalarType("i1")

FLOATS = ("f16", "bf16", "f32", "f64")
TRANSPOSES = ("NO_TRANSPOSE", "TRANSPOSE", "ADJOINT")
_FAMILY = "linear algebra"


# ----------------------------------------------------------------------------- attributes


def _flag(op: Operation, name: str, default=None) -> bool:
    v = op.attrs.get(name, default)
    if not isinstance(v, bool):
        raise ShapeError(f"'{name}' must be true or false, got {v!r}")
    return v


def transpose_a(op: Operation) -> str:
    v = op.attrs.get("transpose_a")
    word = v.value if isinstance(v, EnumAttr) else v
    if word not in TRANSPOSES:
        raise ShapeError(f"transpose_a must be one of {', '.join(TRANSPOSES)}, got {word!r}")
    return word


def _square_matrices(t: TensorType, what: str) -> None:
    if t.elem not in FLOATS:
        raise ShapeError(f"{what} must have a float element type, got {t}")
    if t.rank < 2:
        raise ShapeError(f"{what} must have rank 2 or more (matrices in its last two dims), got {t}")
    r, c = t.shape[-2:]
    if None not in (r, c) and r != c:
        raise ShapeError(f"{what} must be square in its last two dims, got {t}")


def _min_dim(m, n):
    """min(m, n) of two static-or-None dims: None unless both are known (or one is 0)."""
    return min(m, n) if None not in (m, n) else (0 if 0 in (m, n) else None)


def _merge(x, y, what: str):
    if x is not None and y is not None and x != y:
        raise ShapeError(f"{what}: {x} != {y}")
    return x if x is not None else y


# ----------------------------------------------------------------------------- triangular_solve


def infer_triangular_solve(op: Operation):
    if len(op.operands) != 2:
        raise ShapeError("triangular_solve takes two operands (a, b)")
    a, b = op.operands[0].type, op.operands[1].type
    left = _flag(op, "left_side")
    _flag(op, "lower")
    _flag(op, "unit_diagonal")
    transpose_a(op)
    _square_matrices(a, "a")
    if b.elem != a.elem:
        raise ShapeError(f"a and b must have the same element type, got {a} and {b}")
    if b.rank != a.rank:
        raise ShapeError(f"a and b must have the same rank, got {a} and {b}")
    shape = list(b.shape)
    for d in range(a.rank - 2):
        shape[d] = _merge(a.shape[d], b.shape[d], f"batch dim {d} of a and b differ")
    m = _merge(a.shape[-2], a.shape[-1], "a is not square")
    side = -2 if left else -1
    shape[side] = _merge(m, b.shape[side],
                         f"b's dim {b.rank + side} must be a's order ({'left' if left else 'right'} side)")
    return [TensorType(tuple(shape), b.elem)]


def _triangular_solve_rule(hs, op, shapes, bufs):
    a, b = list(shapes[0]), list(shapes[1])
    left = op.attrs["left_side"]
    m = hs.require_equal(a[-2], a[-1], op, "a is not square in its last two dims")
    out = list(b)
    for d in range(len(a) - 2):
        out[d] = hs.require_equal(a[d], b[d], op, f"batch dim {d} of a and b differ")
    side = len(b) - 2 if left else len(b) - 1
    out[side] = hs.require_equal(m, b[side], op, f"b's dim {side} must be a's order")
    return [static_or(op.results[0].type.shape, out)]


def _acc(elem: str) -> str:
    return "f32" if elem in ("f16", "bf16") else elem


def emit_triangular_solve(k, op: Operation, b, args: list):
    a, rhs, out = args
    elem = out.type.elem
    left = op.attrs["left_side"]
    transposed = (transpose_a(op) != "NO_TRANSPOSE") != (not left)  # C = a^T
    s = _Solve(b, a, rhs, out, left, transposed, op.attrs["lower"] != transposed,
               op.attrs["unit_diagonal"], _acc(elem))
    if s.acc != elem:  # 16-bit types: each x_i summed in f32 before it is stored
        s.dots()
    elif left:
        s.left_rows()
    elif transposed:
        s.right_updates()
    else:
        s.dots()


class _Solve:
    """The loop forms of one triangular_solve (see the module's docstring for C, forward
    and the systems). Their innermost loops run along a row of memory where they can:

    - dots: for each system, x_i = (b_i - sum_k C[i, k] x_k) / C[i, i], a dot product per
      unknown; the form for right-side x with C = a (C's rows contiguous) and for 16-bit
      types (the sum kept in f32);
    - left_rows: x on the right of op(a), its columns the systems: row i of x is b's row i,
      minus C[i, k] times each solved row k, then divided by C[i, i], all along the row;
    - right_updates: right-side x with C = a^T: once x_j is known, it is taken out of every
      equation still to solve, x_l -= C[l, j] x_j = a[j, l] x_j along row j of a.

    left_rows subtracts in increasing k; dots sums in any order (LLVM keeps vector partial
    sums, as in a dot), right_updates in solving order."""

    def __init__(self, b, a, rhs, out, left, transposed, forward, unit, acc):
        self.b, self.a, self.rhs, self.out, self.left = b, a, rhs, out, left
        self.transposed, self.forward, self.unit, self.acc = transposed, forward, unit, acc
        self.elem = out.type.elem
        self.dims = buffer_dims(b, out)
        self.m = buffer_dims(b, a)[-1]
        self.nb = len(self.dims) - 2

    def load(self, bb, buf, idx):
        v = bb.v("memref.load", [buf] + idx, ScalarType(self.elem))
        return Scalars(bb).convert(v, self.elem, self.acc)

    def store(self, bb, v, idx):
        bb.op("memref.store", [Scalars(bb).convert(v, self.acc, self.elem), self.out] + idx)

    def coeff(self, bb, batch, i, j):  # C[i, j]
        return self.load(bb, self.a, batch + ([j, i] if self.transposed else [i, j]))

    def arith(self, bb, name, x, y):
        return bb.v(name, [x, y], ScalarType(self.acc))

    def steps(self, bb):
        """The loop over the unknowns in solving order: (its body, the unknown i, and the
        bounds of the ones solved before it)."""
        _, sb, s, _ = bb.for_(bb.index(0), Ix(bb).val(self.m))
        sx = Ix(sb)
        if self.forward:
            return sb, s, (sb.index(0), s), (sx.add(s, 1), sx.val(self.m))
        i = sx.sub(sx.sub(self.m, 1), s)
        return sb, i, (sx.add(i, 1), sx.val(self.m)), (sb.index(0), i)

    def outer(self, systems):
        """The batch loops, then (unless None) a loop over the systems of one matrix."""
        bounds = [Ix(self.b).val(d) for d in self.dims[:self.nb]]
        return loop_nest(self.b, bounds + ([Ix(self.b).val(systems)] if systems is not None else []))

    def dots(self):
        n = self.dims[-1] if self.left else self.dims[-2]
        with self.outer(n) as (body, ivs):
            batch, r = ivs[:self.nb], ivs[self.nb]

            def at(i):  # x_i (and b_i) of system r
                return batch + ([i, r] if self.left else [r, i])

            sb, i, (lo, hi), _ = self.steps(body)
            loop, kb, kk, (total,) = sb.for_(lo, hi, [self.load(sb, self.rhs, at(i))])
            prod = self.arith(kb, "arith.mulf", self.coeff(kb, batch, i, kk), self.load(kb, self.out, at(kk)))
            total = self.arith(kb, "arith.subf", total, prod)
            total.owner.attrs["fastmath"] = "reassoc"  # a dot product: LLVM keeps vector partial sums
            kb.yield_([total])
            x_i = loop.results[0]
            if not self.unit:
                x_i = self.arith(sb, "arith.divf", x_i, self.coeff(sb, batch, i, i))
            self.store(sb, x_i, at(i))
            sb.yield_()

    def left_rows(self):
        n = self.dims[-1]
        with self.outer(None) as (body, batch):
            sb, i, (lo, hi), _ = self.steps(body)
            with loop_nest(sb, [Ix(sb).val(n)]) as (cb, (r,)):
                cb.op("memref.store", [cb.v("memref.load", [self.rhs] + batch + [i, r],
                                            ScalarType(self.elem)), self.out] + batch + [i, r])
            _, kb, kk, _ = sb.for_(lo, hi)
            c = self.coeff(kb, batch, i, kk)
            with loop_nest(kb, [Ix(kb).val(n)]) as (rb, (r,)):
                x = self.arith(rb, "arith.mulf", c, self.load(rb, self.out, batch + [kk, r]))
                y = self.load(rb, self.out, batch + [i, r])
                self.store(rb, self.arith(rb, "arith.subf", y, x), batch + [i, r])
            kb.yield_()
            if not self.unit:
                d = self.coeff(sb, batch, i, i)
                with loop_nest(sb, [Ix(sb).val(n)]) as (db, (r,)):
                    y = self.load(db, self.out, batch + [i, r])
                    self.store(db, self.arith(db, "arith.divf", y, d), batch + [i, r])
            sb.yield_()

    def right_updates(self):
        with self.outer(self.dims[-2]) as (body, ivs):
            row = ivs  # batch dims, then the row of x
            with loop_nest(body, [Ix(body).val(self.m)]) as (cb, (j,)):
                cb.op("memref.store", [cb.v("memref.load", [self.rhs] + row + [j],
                                            ScalarType(self.elem)), self.out] + row + [j])
            sb, j, _, (lo, hi) = self.steps(body)
            x_j = self.load(sb, self.out, row + [j])
            if not self.unit:
                x_j = self.arith(sb, "arith.divf", x_j, self.coeff(sb, ivs[:self.nb], j, j))
                self.store(sb, x_j, row + [j])
            _, lb, ll, _ = sb.for_(lo, hi)
            c = self.coeff(lb, ivs[:self.nb], ll, j)
            y = self.load(lb, self.out, row + [ll])
            self.store(lb, self.arith(lb, "arith.subf", y, self.arith(lb, "arith.mulf", c, x_j)),
                       row + [ll])
            lb.yield_()
            sb.yield_()


# ----------------------------------------------------------------------------- cholesky


def infer_cholesky(op: Operation):
    """cholesky(a) -> factor; with a second result (LAPACK's potrf, as JAX's CPU lowering
    writes it) also info: i32 per matrix, 0, or the 1-based row of the first pivot that is
    not positive (the factor is NaN from there on)."""
    if len(op.operands) != 1:
        raise ShapeError("cholesky takes one operand")
    _flag(op, "lower", False)
    a = op.operands[0].type
    _square_matrices(a, "a")
    shape = list(a.shape)
    shape[-2] = shape[-1] = _merge(a.shape[-2], a.shape[-1], "a is not square")
    info = [TensorType(a.shape[:-2], "i32")] if len(op.results) == 2 else []
    return [TensorType(tuple(shape), a.elem)] + info


def _cholesky_rule(hs, op, shapes, bufs):
    a = list(shapes[0])
    a[-1] = a[-2] = hs.require_equal(a[-2], a[-1], op, "a is not square in its last two dims")
    info = [static_or(op.results[1].type.shape, a[:-2])] if len(op.results) == 2 else []
    return [static_or(op.results[0].type.shape, a)] + info


def _record_info(body, info, batch, i, pivot) -> None:
    """info[batch] = i + 1 at the first row whose pivot (before its square root) is not
    positive (NaN included); 0 while every pivot so far is."""
    s = Scalars(body)
    bad = s.v("arith.xori", [body.v("arith.cmpf", [pivot, body.const(0, pivot.type.name)], I1,
                                    predicate="ogt"), body.const(True, "i1")], "i1")
    first_row = body.v("arith.cmpi", [i, body.index(0)], I1, predicate="eq")
    prev = s.v("arith.select", [first_row, body.const(0, "i32"),
                                body.v("memref.load", [info] + batch, ScalarType("i32"))], "i32")
    row = body.v("arith.index_cast", [Ix(body).add(i, 1)], ScalarType("i32"))
    first_bad = s.v("arith.andi", [bad, s.v("arith.cmpi", [prev, body.const(0, "i32")], "i1",
                                            predicate="eq")], "i1")
    body.op("memref.store", [s.v("arith.select", [first_bad, row, prev], "i32"), info] + batch)


def emit_cholesky(k, op: Operation, b, args: list):
    """Row i of the factor per iteration. Lower: l[i, j] for j < i as dot products of rows i
    and j of l (contiguous), then the diagonal, then zeros. Upper (f32, f64): u's row i is
    a's, minus u[k, i] times each row k above it, all along rows, then the square root of
    its diagonal element and the rest divided by it; 16-bit types take the dot form of
    either triangle, which keeps each sum in f32."""
    a, out, *info = args
    elem = out.type.elem
    acc = _acc(elem)
    lower = op.attrs.get("lower", False)
    dims = buffer_dims(b, out)
    nb = len(dims) - 2
    ix = Ix(b)
    with loop_nest(b, [ix.val(d) for d in dims[:nb]] + [ix.val(dims[-1])]) as (body, ivs):
        if lower or acc != elem:
            pivot = _cholesky_dots(body, a, out, ivs[:nb], ivs[nb], dims[-1], lower, acc)
        else:
            pivot = _cholesky_upper_rows(body, a, out, ivs[:nb], ivs[nb], dims[-1])
        if info:
            _record_info(body, info[0], ivs[:nb], ivs[nb], pivot)


def _cholesky_dots(body, a, out, batch, i, n, lower, acc):
    """Row i of the factor; returns the pivot of row i before its square root."""
    elem = out.type.elem

    def at(r, c):  # l[r, c] (r >= c) is out[r, c], or out[c, r] for the upper form
        return batch + ([r, c] if lower else [c, r])

    def load(bb, buf, r, c):
        v = bb.v("memref.load", [buf] + at(r, c), ScalarType(elem))
        return Scalars(bb).convert(v, elem, acc)

    def dot_minus(bb, r, c, upto):  # a[r, c] - sum_{k < upto} l[r, k] l[c, k]
        loop, kb, kk, (total,) = bb.for_(bb.index(0), upto, [load(bb, a, r, c)])
        prod = kb.v("arith.mulf", [load(kb, out, r, kk), load(kb, out, c, kk)], ScalarType(acc))
        total = kb.v("arith.subf", [total, prod], ScalarType(acc))
        total.owner.attrs["fastmath"] = "reassoc"  # a dot product: vector partial sums
        kb.yield_([total])
        return loop.results[0]

    _, jb, j, _ = body.for_(body.index(0), i)  # below the diagonal
    s = dot_minus(jb, i, j, j)
    v = jb.v("arith.divf", [s, load(jb, out, j, j)], ScalarType(acc))
    jb.op("memref.store", [Scalars(jb).convert(v, acc, elem), out] + at(i, j))
    jb.yield_()
    pivot = dot_minus(body, i, i, i)
    d = body.v("math.sqrt", [pivot], ScalarType(acc))
    body.op("memref.store", [Scalars(body).convert(d, acc, elem), out] + at(i, i))
    bx = Ix(body)
    _, zb, z, _ = body.for_(bx.add(i, 1), bx.val(n))  # above it
    zb.op("memref.store", [zb.const(0, elem), out] + batch + ([i, z] if lower else [z, i]))
    zb.yield_()
    return pivot


def _cholesky_upper_rows(body, a, out, batch, i, n):
    t = ScalarType(out.type.elem)
    bx = Ix(body)

    def row(bb, lo, hi):
        _, rb, col, _ = bb.for_(lo, hi)
        return rb, col

    rb, col = row(body, i, bx.val(n))  # row i of a, from the diagonal on
    rb.op("memref.store", [rb.v("memref.load", [a] + batch + [i, col], t), out] + batch + [i, col])
    rb.yield_()
    _, kb, kk, _ = body.for_(body.index(0), i)  # minus u[k, i] times row k, for each k < i
    c = kb.v("memref.load", [out] + batch + [kk, i], t)
    rb, col = row(kb, i, Ix(kb).val(n))
    x = rb.v("memref.load", [out] + batch + [i, col], t)
    y = rb.v("arith.mulf", [c, rb.v("memref.load", [out] + batch + [kk, col], t)], t)
    rb.op("memref.store", [rb.v("arith.subf", [x, y], t), out] + batch + [i, col])
    rb.yield_()
    kb.yield_()
    pivot = body.v("memref.load", [out] + batch + [i, i], t)
    d = body.v("math.sqrt", [pivot], t)
    body.op("memref.store", [d, out] + batch + [i, i])
    rb, col = row(body, bx.add(i, 1), bx.val(n))
    x = rb.v("memref.load", [out] + batch + [i, col], t)
    rb.op("memref.store", [rb.v("arith.divf", [x, d], t), out] + batch + [i, col])
    rb.yield_()
    rb, col = row(body, body.index(0), i)  # below the diagonal
    rb.op("memref.store", [rb.const(0, out.type.elem), out] + batch + [i, col])
    rb.yield_()
    return pivot


# ----------------------------------------------------------------------------- lu


def infer_lu(op: Operation):
    """lu(a) -> (lu, pivots, info), LAPACK's getrf (JAX's CPU lowering of lax.linalg.lu, as
    `@lapack_{s,d}getrf_ffi`): a = P L U with partial pivoting over its last two dims [m, n];
    L (unit diagonal, not stored) below the diagonal of `lu`, U on and above it; pivots[j]
    is the 1-based row swapped with row j, for j < min(m, n); info is 0, or the 1-based
    column of the first zero pivot (U is then singular; the factorisation still completes).
    A fourth result, when asked for, is the permutation those swaps make: i32 [m], row i of
    L U is row perm[i] of a (what a solve gathers b by; the PyTorch door asks for it)."""
    if len(op.operands) != 1 or len(op.results) not in (3, 4):
        raise ShapeError("lu takes one operand and has three results (lu, pivots, info), "
                         "and optionally a fourth (the permutation)")
    a = op.operands[0].type
    if a.elem not in FLOATS:
        raise ShapeError(f"a must have a float element type, got {a}")
    if a.rank < 2:
        raise ShapeError(f"a must have rank 2 or more (matrices in its last two dims), got {a}")
    k = _min_dim(*a.shape[-2:])
    for r in op.results[1:]:
        if r.type.elem != "i32":
            raise ShapeError(f"lu's pivots, info and permutation are i32, got {r.type}")
    perm = [TensorType(a.shape[:-1], "i32")] if len(op.results) == 4 else []
    return [a, TensorType(a.shape[:-2] + (k,), "i32"), TensorType(a.shape[:-2], "i32")] + perm


def _lu_rule(hs, op, shapes, bufs):
    a = list(shapes[0])
    k = hs.min(a[-2], a[-1])
    return [static_or(r.type.shape, s) for r, s in
            zip(op.results, (a, a[:-2] + [k], a[:-2], a[:-1]))]


def emit_lu(k, op: Operation, b, args: list):
    """Right-looking, column by column, one matrix after another: the pivot is the first
    row of largest magnitude at or below the diagonal; rows j and p are swapped along the
    whole row, the column below is scaled by the pivot's reciprocal (as LAPACK's getf2;
    not when the pivot is zero) and the trailing rows are updated along rows of memory."""
    a, lu, piv, info, *perm = args
    t = ScalarType(lu.type.elem)
    dims = buffer_dims(b, lu)
    nb = len(dims) - 2
    m, n = dims[-2], dims[-1]
    ix = Ix(b)
    with loop_nest(b, [ix.val(d) for d in dims[:nb]]) as (body, batch):
        bx = Ix(body)
        with loop_nest(body, [bx.val(m), bx.val(n)]) as (cb, (r, c)):  # lu = a
            cb.op("memref.store", [cb.v("memref.load", [a] + batch + [r, c], t), lu] + batch + [r, c])
        body.op("memref.store", [body.const(0, "i32"), info] + batch)
        if perm:  # the identity, then each column's swap
            _, pb, r, _ = body.for_(body.index(0), bx.val(m))
            pb.op("memref.store", [pb.v("arith.index_cast", [r], ScalarType("i32")), perm[0]] + batch + [r])
            pb.yield_()
        _, jb, j, _ = body.for_(body.index(0), bx.val(bx.min(m, n)))
        _lu_column(jb, lu, piv, info, batch, j, m, n, t, perm[0] if perm else None)
        jb.yield_()


def _lu_column(jb, lu, piv, info, batch, j, m, n, t, perm=None):
    s = Scalars(jb)
    jx = Ix(jb)

    def at(row, col):
        return [lu] + batch + [row, col]

    def load(bb, row, col):
        return bb.v("memref.load", at(row, col), t)

    first = jb.v("math.absf", [load(jb, j, j)], t)  # the pivot: argmax of |lu[i, j]|, i >= j
    loop, ib, i, (p, best) = jb.for_(jx.add(j, 1), jx.val(m), [j, first])
    v = ib.v("math.absf", [load(ib, i, j)], t)
    bigger = ib.v("arith.cmpf", [v, best], I1, predicate="ogt")
    ib.yield_([ib.v("arith.select", [bigger, i, p], p.type), ib.v("arith.select", [bigger, v, best], t)])
    p = loop.results[0]
    jb.op("memref.store", [jb.v("arith.index_cast", [jx.add(p, 1)], ScalarType("i32")), piv] + batch + [j])
    _, sb, c, _ = jb.for_(jb.index(0), jx.val(n))  # swap rows j and p
    x, y = load(sb, j, c), load(sb, p, c)
    sb.op("memref.store", [y] + at(j, c))
    sb.op("memref.store", [x] + at(p, c))
    sb.yield_()
    if perm is not None:
        i32 = ScalarType("i32")
        x, y = (jb.v("memref.load", [perm] + batch + [r], i32) for r in (j, p))
        jb.op("memref.store", [y, perm] + batch + [j])
        jb.op("memref.store", [x, perm] + batch + [p])
    pivot = load(jb, j, j)
    zero = jb.v("arith.cmpf", [pivot, jb.const(0, t.name)], I1, predicate="oeq")
    prev = jb.v("memref.load", [info] + batch, ScalarType("i32"))
    col = jb.v("arith.index_cast", [jx.add(j, 1)], ScalarType("i32"))
    first_zero = s.v("arith.andi", [zero, s.v("arith.cmpi", [prev, jb.const(0, "i32")], "i1",
                                              predicate="eq")], "i1")
    jb.op("memref.store", [s.v("arith.select", [first_zero, col, prev], "i32"), info] + batch)
    scale = s.v("arith.select", [zero, jb.const(1, t.name),
                                 jb.v("arith.divf", [jb.const(1, t.name), pivot], t)], t.name)
    _, rb, i, _ = jb.for_(jx.add(j, 1), jx.val(m))  # row i: its multiplier, then its update
    rx = Ix(rb)
    mult = rb.v("arith.mulf", [load(rb, i, j), scale], t)
    rb.op("memref.store", [mult] + at(i, j))
    _, ub, c, _ = rb.for_(rx.add(j, 1), rx.val(n))
    upd = ub.v("arith.subf", [load(ub, i, c), ub.v("arith.mulf", [mult, load(ub, j, c)], t)], t)
    ub.op("memref.store", [upd] + at(i, c))
    ub.yield_()
    rb.yield_()


# ----------------------------------------------------------------------------- QR


def _real_matrices(t: TensorType, what: str) -> None:
    if t.elem not in ("f32", "f64"):
        raise ShapeError(f"{what} must be f32 or f64 (LAPACK's s and d forms), got {t}")
    if t.rank < 2:
        raise ShapeError(f"{what} must have rank 2 or more (matrices in its last two dims), got {t}")


def infer_geqrf(op: Operation):
    """geqrf(a) -> (qr, tau), LAPACK's Householder QR (JAX's CPU lowering of jnp.linalg.qr,
    `@lapack_{s,d}geqrf_ffi`): R on and above the diagonal of qr [m, n], below it the
    Householder vectors v_j (v_j[j] = 1, not stored), and tau [min(m, n)] their scales, so
    that a = H_0 ... H_{k-1} R with H_j = I - tau_j v_j v_j^T."""
    if len(op.operands) != 1 or len(op.results) != 2:
        raise ShapeError("geqrf takes one operand and has two results (qr, tau)")
    a = op.operands[0].type
    _real_matrices(a, "a")
    return [a, TensorType(a.shape[:-2] + (_min_dim(*a.shape[-2:]),), a.elem)]


def _geqrf_rule(hs, op, shapes, bufs):
    a = list(shapes[0])
    return [static_or(op.results[0].type.shape, a),
            static_or(op.results[1].type.shape, a[:-2] + [hs.min(a[-2], a[-1])])]


def infer_householder_product(op: Operation):
    """householder_product(qr, tau) -> q, LAPACK's orgqr (`@lapack_{s,d}orgqr_ffi`): the
    first n columns of H_0 ... H_{k-1} from geqrf's vectors, for k <= n <= m."""
    if len(op.operands) != 2 or len(op.results) != 1:
        raise ShapeError("householder_product takes (qr, tau) and has one result")
    a, tau = (v.type for v in op.operands)
    _real_matrices(a, "qr")
    if tau.elem != a.elem or tau.rank != a.rank - 1:
        raise ShapeError(f"tau must be {a.elem} with one dim fewer than qr, got {tau} for {a}")
    for d, (x, y) in enumerate(zip(a.shape[:-2], tau.shape[:-1])):
        _merge(x, y, f"batch dim {d} of qr and tau differ")
    m, n = a.shape[-2:]
    k = tau.shape[-1]
    if (k is not None and n is not None and k > n) or (n is not None and m is not None and n > m):
        raise ShapeError(f"householder_product needs k <= n <= m, got tau {tau} for qr {a}")
    return [a]


def _householder_product_rule(hs, op, shapes, bufs):
    a, tau = (list(s) for s in shapes)
    hs.require("sle", tau[-1], a[-1], op, "tau's length must be at most qr's columns")
    hs.require("sle", a[-1], a[-2], op, "qr must have at most as many columns as rows")
    return [static_or(op.results[0].type.shape, a)]


def _reflect_columns(body, out, batch, j, c0, n, m, tau, t):
    """Columns c0..n-1 of out, rows j..m-1, times H = I - tau v v^T from the left, where
    v = [1, out[j+1:m, j]]: w = tau (v . column), then column -= w v."""
    _, cb, c, _ = body.for_(c0, n)
    cx = Ix(cb)

    def at(r, col):
        return [out] + batch + [r, col]

    top = cb.v("memref.load", at(j, c), t)
    loop, rb, r, (dot,) = cb.for_(cx.add(j, 1), m, [top])
    prod = rb.v("arith.mulf", [rb.v("memref.load", at(r, j), t), rb.v("memref.load", at(r, c), t)], t)
    rb.yield_([rb.v("arith.addf", [dot, prod], t)])
    w = cb.v("arith.mulf", [tau, loop.results[0]], t)
    cb.op("memref.store", [cb.v("arith.subf", [top, w], t)] + at(j, c))
    _, ub, r, _ = cb.for_(cx.add(j, 1), m)
    upd = ub.v("arith.subf", [ub.v("memref.load", at(r, c), t),
                              ub.v("arith.mulf", [ub.v("memref.load", at(r, j), t), w], t)], t)
    ub.op("memref.store", [upd] + at(r, c))
    ub.yield_()
    cb.yield_()


def emit_geqrf(k, op: Operation, b, args: list):
    """Unblocked, as LAPACK's geqr2, one matrix after another: per column j, the reflector
    that zeroes out[j+1:, j] (slarfg: beta = -sign(alpha) |(alpha, x)|, tau = (beta - alpha)
    / beta, v = x / (alpha - beta); tau = 0 when x is already zero), then the trailing
    columns reflected. The norm is taken of the column divided by its largest magnitude, so
    that squares neither overflow nor underflow (LAPACK's snrm2 scales for the same reason)."""
    a, out, taus = args
    t = ScalarType(out.type.elem)
    dims = buffer_dims(b, out)
    nb = len(dims) - 2
    ix = Ix(b)
    with loop_nest(b, [ix.val(d) for d in dims[:nb]]) as (body, batch):
        bx = Ix(body)
        m, n = bx.val(dims[-2]), bx.val(dims[-1])
        with loop_nest(body, [m, n]) as (cb, (r, c)):  # out = a
            cb.op("memref.store", [cb.v("memref.load", [a] + batch + [r, c], t), out] + batch + [r, c])
        _, jb, j, _ = body.for_(body.index(0), bx.val(bx.min(dims[-2], dims[-1])))
        jx = Ix(jb)
        s = Scalars(jb)
        zero = jb.const(0, t.name)
        alpha = jb.v("memref.load", [out] + batch + [j, j], t)
        loop, rb, r, (big,) = jb.for_(j, m, [zero])  # the column's largest magnitude
        x = rb.v("math.absf", [rb.v("memref.load", [out] + batch + [r, j], t)], t)
        rb.yield_([rb.v("arith.maximumf", [big, x], t)])
        big = loop.results[0]
        inv = s.v("arith.select", [jb.v("arith.cmpf", [big, zero], I1, predicate="oeq"),
                                   jb.const(1, t.name), jb.v("arith.divf", [jb.const(1, t.name), big], t)],
                  t.name)
        loop, rb, r, (ss,) = jb.for_(jx.add(j, 1), m, [zero])  # |x / big|^2: no overflow
        x = rb.v("arith.mulf", [rb.v("memref.load", [out] + batch + [r, j], t), inv], t)
        rb.yield_([rb.v("arith.addf", [ss, rb.v("arith.mulf", [x, x], t)], t)])
        ss = loop.results[0]
        a_s = jb.v("arith.mulf", [alpha, inv], t)
        norm = jb.v("arith.mulf", [big, jb.v("math.sqrt", [jb.v("arith.addf", [
            jb.v("arith.mulf", [a_s, a_s], t), ss], t)], t)], t)
        beta = jb.v("arith.negf", [jb.v("math.copysign", [norm, alpha], t)], t)
        keep = jb.v("arith.cmpf", [ss, zero], I1, predicate="oeq")  # H = I
        tau = s.v("arith.select", [keep, zero, jb.v("arith.divf", [jb.v("arith.subf", [beta, alpha], t),
                                                                     beta], t)], t.name)
        scale = s.v("arith.select", [keep, jb.const(1, t.name),
                                     jb.v("arith.divf", [jb.const(1, t.name),
                                                         jb.v("arith.subf", [alpha, beta], t)], t)], t.name)
        _, vb, r, _ = jb.for_(jx.add(j, 1), m)
        x = vb.v("memref.load", [out] + batch + [r, j], t)
        vb.op("memref.store", [vb.v("arith.mulf", [x, scale], t), out] + batch + [r, j])
        vb.yield_()
        jb.op("memref.store", [s.v("arith.select", [keep, alpha, beta], t.name), out] + batch + [j, j])
        jb.op("memref.store", [tau, taus] + batch + [j])
        _reflect_columns(jb, out, batch, j, jx.add(j, 1), n, m, tau, t)
        jb.yield_()


def emit_householder_product(k, op: Operation, b, args: list):
    """As LAPACK's org2r: columns k..n-1 start as the identity's, then H_{k-1} down to H_0
    are applied, each to the columns right of its own, and column i becomes H_i's first
    column (1 - tau_i on the diagonal, -tau_i v below it, zeros above)."""
    a, taus, out = args
    t = ScalarType(out.type.elem)
    dims = buffer_dims(b, out)
    nb = len(dims) - 2
    ix = Ix(b)
    kk = buffer_dims(b, taus)[-1]
    with loop_nest(b, [ix.val(d) for d in dims[:nb]]) as (body, batch):
        bx = Ix(body)
        m, n, k_ = bx.val(dims[-2]), bx.val(dims[-1]), bx.val(kk)
        with loop_nest(body, [m, n]) as (cb, (r, c)):  # out = a, identity columns from k on
            cx = Ix(cb)
            ident = cb.v("arith.select", [cb.v("arith.cmpi", [r, c], I1, predicate="eq"),
                                          cb.const(1, t.name), cb.const(0, t.name)], t)
            right = cb.v("arith.cmpi", [c, cx.val(k_)], I1, predicate="sge")
            x = cb.v("memref.load", [a] + batch + [r, c], t)
            cb.op("memref.store", [cb.v("arith.select", [right, ident, x], t), out] + batch + [r, c])
        _, ib, step, _ = body.for_(body.index(0), k_)
        ibx = Ix(ib)
        i = ibx.sub(ibx.sub(k_, 1), step)
        tau = ib.v("memref.load", [taus] + batch + [i], t)
        _reflect_columns(ib, out, batch, i, ibx.add(i, 1), n, m, tau, t)
        neg = ib.v("arith.negf", [tau], t)
        _, vb, r, _ = ib.for_(ibx.add(i, 1), m)
        x = vb.v("memref.load", [out] + batch + [r, i], t)
        vb.op("memref.store", [vb.v("arith.mulf", [x, neg], t), out] + batch + [r, i])
        vb.yield_()
        ib.op("memref.store", [ib.v("arith.subf", [ib.const(1, t.name), tau], t), out] + batch + [i, i])
        _, zb, r, _ = ib.for_(ib.index(0), i)
        zb.op("memref.store", [zb.const(0, t.name), out] + batch + [r, i])
        zb.yield_()
        ib.yield_()


# ----------------------------------------------------------------------------- Jacobi rotations
# (eigh and svd)

JACOBI_SWEEPS = 30  # Jacobi converges quadratically: 6-10 sweeps in practice; then it stops


def _epsilon(elem: str) -> float:
    return float(np.finfo(numpy_dtype(elem)).eps)


class _View:
    """A matrix of a buffer, or of its transpose: element (i, j) is buf[.., j, i] then."""

    def __init__(self, buf, batch, t, transposed: bool):
        self.buf, self.batch, self.t, self.transposed = buf, batch, t, transposed

    def at(self, i, j):
        return [self.buf] + self.batch + ([j, i] if self.transposed else [i, j])

    def get(self, b, i, j):
        return b.v("memref.load", self.at(i, j), self.t)

    def put(self, b, value, i, j):
        b.op("memref.store", [value] + self.at(i, j))


def _plane_rotation(b, diff, g, skip, t):
    """(c, s) of the rotation that zeroes g: zeta = diff / 2 g, t = sign(zeta) / (|zeta| +
    sqrt(zeta^2 + 1)), c = 1 / sqrt(t^2 + 1), s = t c; c 1 and s 0 where `skip`."""
    zero, one = b.const(0, t.name), b.const(1, t.name)
    safe = b.v("arith.select", [skip, one, g], t)
    zeta = b.v("arith.divf", [diff, b.v("arith.mulf", [b.const(2, t.name), safe], t)], t)
    root = b.v("math.sqrt", [b.v("arith.addf", [b.v("arith.mulf", [zeta, zeta], t), one], t)], t)
    tt = b.v("arith.divf", [b.v("math.copysign", [one, zeta], t),
                            b.v("arith.addf", [b.v("math.absf", [zeta], t), root], t)], t)
    tt = b.v("arith.select", [skip, zero, tt], t)
    c = b.v("arith.divf", [one, b.v("math.sqrt", [b.v("arith.addf", [b.v("arith.mulf", [tt, tt], t),
                                                                      one], t)], t)], t)
    return c, b.v("arith.mulf", [tt, c], t)


def _rotate_columns(b, mats, p, q, c, s, t) -> None:
    """Columns p and q of each (view, length) in `mats` times [[c, s], [-s, c]]."""
    for mat, length in mats:
        _, kb, i, _ = b.for_(b.index(0), length)
        x, y = mat.get(kb, i, p), mat.get(kb, i, q)
        mat.put(kb, kb.v("arith.subf", [kb.v("arith.mulf", [c, x], t), kb.v("arith.mulf", [s, y], t)], t),
                i, p)
        mat.put(kb, kb.v("arith.addf", [kb.v("arith.mulf", [s, x], t), kb.v("arith.mulf", [c, y], t)], t),
                i, q)
        kb.yield_()


# ----------------------------------------------------------------------------- eigh

def infer_eigh(op: Operation):
    """eigh(a) {lower} -> (vectors, values, info[, work]), LAPACK's syevd (JAX's CPU lowering
    of jnp.linalg.eigh, `@lapack_{s,d}syevd_ffi`): a symmetric matrix read from its lower
    (else upper) triangle; values ascending, vectors [.., n, n] their unit columns, info 0,
    or 1 when the iteration did not converge. A fourth result is the kernel's working
    matrix (the custom call's rewrite adds it: kernels have no scratch of their own)."""
    if len(op.operands) != 1 or len(op.results) not in (3, 4):
        raise ShapeError("eigh takes one operand and has results (vectors, values, info)")
    _flag(op, "lower", True)
    a = op.operands[0].type
    _real_matrices(a, "a")
    _square_matrices(a, "a")
    n = _merge(a.shape[-2], a.shape[-1], "a is not square")
    sq = TensorType(a.shape[:-2] + (n, n), a.elem)
    work = [sq] if len(op.results) == 4 else []
    return [sq, TensorType(a.shape[:-2] + (n,), a.elem), TensorType(a.shape[:-2], "i32")] + work


def _eigh_rule(hs, op, shapes, bufs):
    a = list(shapes[0])
    a[-1] = a[-2] = hs.require_equal(a[-2], a[-1], op, "a is not square in its last two dims")
    want = (a, a[:-1], a[:-2], a)
    return [static_or(r.type.shape, w) for r, w in zip(op.results, want)]


def emit_eigh(k, op: Operation, b, args: list):
    """Cyclic Jacobi, one matrix after another: w = a / max|a| made symmetric from the read
    triangle, v = I; each sweep rotates every (p, q) pair so that w[p, q] becomes 0 (w = J^T
    w J, v = v J), until the off-diagonal squares are below (n eps)^2 of the whole (later
    sweeps then rotate nothing). Jacobi's values are as accurate as LAPACK's; vectors of a
    repeated value are a basis of its space, and each vector's sign is the iteration's (as
    LAPACK's is its own). Values are sorted ascending with their vectors."""
    a, vecs, vals, info, work = args
    t = ScalarType(vecs.type.elem)
    lower = op.attrs.get("lower", True)
    dims = buffer_dims(b, vecs)
    nb = len(dims) - 2
    ix = Ix(b)
    with loop_nest(b, [ix.val(d) for d in dims[:nb]]) as (body, batch):
        bx = Ix(body)
        n = bx.val(dims[-1])

        def at(buf, r, c):
            return [buf] + batch + [r, c]

        zero, one = body.const(0, t.name), body.const(1, t.name)
        loop, rb, r, (big,) = body.for_(body.index(0), n, [zero])  # max |a| over the triangle
        inner, cb, c, (big_c,) = rb.for_(rb.index(0), n, [big])
        x = cb.v("math.absf", [_triangle_load(cb, a, batch, r, c, lower, t)], t)
        cb.yield_([cb.v("arith.maximumf", [big_c, x], t)])
        rb.yield_([inner.results[0]])
        big = loop.results[0]
        s = Scalars(body)
        inv = s.v("arith.select", [body.v("arith.cmpf", [big, zero], I1, predicate="oeq"), one,
                                   body.v("arith.divf", [one, big], t)], t.name)
        with loop_nest(body, [n, n]) as (cb, (r, c)):  # w = symmetric a / big, v = I
            x = cb.v("arith.mulf", [_triangle_load(cb, a, batch, r, c, lower, t), inv], t)
            cb.op("memref.store", [x] + at(work, r, c))
            diag = cb.v("arith.cmpi", [r, c], I1, predicate="eq")
            cb.op("memref.store", [cb.v("arith.select", [diag, one, zero], t)] + at(vecs, r, c))
        nf = body.v("arith.uitofp", [body.v("arith.index_cast", [n], ScalarType("i64"))], t)
        tol = body.v("arith.mulf", [nf, body.const(_epsilon(t.name), t.name)], t)
        total = _squares(body, work, batch, n, t, off_diagonal=False)
        tol2 = body.v("arith.mulf", [body.v("arith.mulf", [tol, tol], t), total], t)
        _, sb, _, _ = body.for_(body.index(0), body.index(JACOBI_SWEEPS))
        done = sb.v("arith.cmpf", [_squares(sb, work, batch, n, t, off_diagonal=True), tol2], I1,
                    predicate="ole")
        _, pb, p, _ = sb.for_(sb.index(0), n)
        q_end = pb.v("arith.select", [done, Ix(pb).add(p, 1), n], n.type)
        _, qb, q, _ = pb.for_(Ix(pb).add(p, 1), q_end)
        _jacobi_rotation(qb, work, vecs, batch, p, q, n, t)
        qb.yield_()
        pb.yield_()
        sb.yield_()
        converged = body.v("arith.cmpf", [_squares(body, work, batch, n, t, off_diagonal=True), tol2],
                           I1, predicate="ole")
        i32 = ScalarType("i32")
        flag = body.v("arith.select", [converged, body.const(0, "i32"), body.const(1, "i32")], i32)
        body.op("memref.store", [flag, info] + batch)
        _sort_eigenpairs(body, work, vecs, vals, batch, n, big, t)


def _triangle_load(b, a, batch, r, c, lower: bool, t):
    """a[r, c] read from the given triangle: a[max, min] (lower) or a[min, max]."""
    hi, lo = Ix(b).max(r, c), Ix(b).min(r, c)
    return b.v("memref.load", [a] + batch + ([hi, lo] if lower else [lo, hi]), t)


def _squares(b, w, batch, n, t, off_diagonal: bool):
    """The sum of w's squares, of its off-diagonal elements only, or of all."""
    zero = b.const(0, t.name)
    loop, rb, r, (acc,) = b.for_(b.index(0), n, [zero])
    inner, cb, c, (acc_c,) = rb.for_(rb.index(0), n, [acc])
    x = cb.v("memref.load", [w] + batch + [r, c], t)
    sq = cb.v("arith.mulf", [x, x], t)
    if off_diagonal:
        sq = cb.v("arith.select", [cb.v("arith.cmpi", [r, c], I1, predicate="eq"), zero, sq], t)
    cb.yield_([cb.v("arith.addf", [acc_c, sq], t)])
    rb.yield_([inner.results[0]])
    return loop.results[0]


def _jacobi_rotation(b, w, v, batch, p, q, n, t):
    """w = J^T w J and v = v J for the rotation J in the (p, q) plane that zeroes w[p, q]
    (_plane_rotation of w_qq - w_pp and w_pq; none when w_pq is 0): w's columns, then its
    rows (its transpose's columns), then v's."""
    wv = _View(w, batch, t, False)
    wpq = wv.get(b, p, q)
    skip = b.v("arith.cmpf", [wpq, b.const(0, t.name)], I1, predicate="oeq")
    c, s = _plane_rotation(b, b.v("arith.subf", [wv.get(b, q, q), wv.get(b, p, p)], t), wpq, skip, t)
    _rotate_columns(b, [(wv, n), (_View(w, batch, t, True), n), (_View(v, batch, t, False), n)],
                    p, q, c, s, t)


def _sort_eigenpairs(b, w, v, vals, batch, n, scale, t):
    """values[i] = the i-th smallest of w's diagonal (times `scale`, undoing a's scaling),
    v's columns moved with them (selection sort: the first of equal values stays first)."""
    _, ib, i, _ = b.for_(b.index(0), n)
    first = ib.v("memref.load", [w] + batch + [i, i], t)
    loop, jb, j, (best, at) = ib.for_(Ix(ib).add(i, 1), n, [first, i])
    x = jb.v("memref.load", [w] + batch + [j, j], t)
    less = jb.v("arith.cmpf", [x, best], I1, predicate="olt")
    jb.yield_([jb.v("arith.select", [less, x, best], t), jb.v("arith.select", [less, j, at], at.type)])
    best, at = loop.results
    ib.op("memref.store", [first, w] + batch + [at, at])
    ib.op("memref.store", [ib.v("arith.mulf", [best, scale], t), vals] + batch + [i])
    _, kb, k, _ = ib.for_(ib.index(0), n)  # swap columns i and at of v
    x = kb.v("memref.load", [v] + batch + [k, i], t)
    y = kb.v("memref.load", [v] + batch + [k, at], t)
    kb.op("memref.store", [y, v] + batch + [k, i])
    kb.op("memref.store", [x, v] + batch + [k, at])
    kb.yield_()
    ib.yield_()


# ----------------------------------------------------------------------------- svd

def infer_svd(op: Operation):
    """svd(a) {full} -> (work, s, u, vt, info), LAPACK's gesdd as JAX's CPU lowering of
    jnp.linalg.svd calls it (`@lapack_{s,d}gesdd_ffi`): s [k] descending (k = min(m, n)),
    u [m, m] and vt [n, n] (`full`), else u [m, k] and vt [k, n]; work is a's overwritten
    copy (LAPACK's too), info 0, or 1 when the iteration did not converge. The matrix dims
    must be static (which of m and n is larger decides the layout)."""
    if len(op.operands) != 1 or len(op.results) != 5:
        raise ShapeError("svd takes one operand and has five results (a, s, u, vt, info)")
    a = op.operands[0].type
    _real_matrices(a, "a")
    m, n = a.shape[-2:]
    if m is None or n is None:
        raise ShapeError(f"svd needs static matrix dims, got {a}")
    k = min(m, n)
    full = _flag(op, "full", True)
    lead = a.shape[:-2]
    u, vt = ((m, m), (n, n)) if full else ((m, k), (k, n))
    return [a, TensorType(lead + (k,), a.elem), TensorType(lead + u, a.elem),
            TensorType(lead + vt, a.elem), TensorType(lead, "i32")]


def _svd_rule(hs, op, shapes, bufs):
    lead = list(shapes[0])[:-2]
    return [static_or(r.type.shape, lead + list(r.type.shape[len(lead):])) for r in op.results]


def emit_svd(k, op: Operation, b, args: list):
    """One-sided Jacobi (Hestenes), one matrix after another, on W, a divided by max|a| and
    taken as its transpose when a is wide (so W is M x N, M >= N): each sweep rotates every
    pair of W's columns until they are orthogonal (gamma^2 <= (M eps)^2 alpha beta), the
    rotations gathered in V. Then s_j = |W_j|, sorted descending with their columns;
    u_j = W_j / s_j, and the columns a zero s_j or `full` leaves undefined are the unit
    vectors least in the span of those before, orthogonalised twice (so u is orthogonal
    whatever a's rank). For a wide a, u and vt swap roles (a^T = W's factors)."""
    a, work, sv, u, vt, info = args
    t = ScalarType(work.type.elem)
    m, n = work.type.shape[-2:]
    tall = m >= n
    dims = buffer_dims(b, work)
    nb = len(dims) - 2
    ix = Ix(b)
    with loop_nest(b, [ix.val(d) for d in dims[:nb]]) as (body, batch):
        big_m, small_n = body.index(max(m, n)), body.index(min(m, n))
        w = _View(work, batch, t, not tall)
        v = _View(vt if tall else u, batch, t, tall)
        uu = _View(u if tall else vt, batch, t, not tall)
        ucols = body.index(u.type.shape[-1] if tall else vt.type.shape[-2])
        zero, one = body.const(0, t.name), body.const(1, t.name)
        loop, rb, r, (big,) = body.for_(body.index(0), body.index(m), [zero])  # max |a|
        inner, cb, c, (big_c,) = rb.for_(rb.index(0), rb.index(n), [big])
        x = cb.v("math.absf", [cb.v("memref.load", [a] + batch + [r, c], t)], t)
        cb.yield_([cb.v("arith.maximumf", [big_c, x], t)])
        rb.yield_([inner.results[0]])
        big = loop.results[0]
        inv = Scalars(body).v("arith.select", [body.v("arith.cmpf", [big, zero], I1, predicate="oeq"),
                                               one, body.v("arith.divf", [one, big], t)], t.name)
        with loop_nest(body, [body.index(m), body.index(n)]) as (cb, (r, c)):  # W = a / big
            x = cb.v("memref.load", [a] + batch + [r, c], t)
            cb.op("memref.store", [cb.v("arith.mulf", [x, inv], t), work] + batch + [r, c])
        with loop_nest(body, [small_n, small_n]) as (cb, (r, c)):  # V = I
            diag = cb.v("arith.cmpi", [r, c], I1, predicate="eq")
            v.put(cb, cb.v("arith.select", [diag, one, zero], t), r, c)
        tol = body.const((max(m, n) * _epsilon(t.name)) ** 2, t.name)
        _, sb, _, _ = body.for_(body.index(0), body.index(JACOBI_SWEEPS))
        done = _columns_orthogonal(sb, w, big_m, small_n, tol, t)
        _, pb, p, _ = sb.for_(sb.index(0), small_n)
        q_end = pb.v("arith.select", [done, Ix(pb).add(p, 1), small_n], small_n.type)
        _, qb, q, _ = pb.for_(Ix(pb).add(p, 1), q_end)
        _column_rotation(qb, w, v, p, q, big_m, small_n, tol, t)
        qb.yield_()
        pb.yield_()
        sb.yield_()
        ok = _columns_orthogonal(body, w, big_m, small_n, tol, t)
        flag = body.v("arith.select", [ok, body.const(0, "i32"), body.const(1, "i32")], ScalarType("i32"))
        body.op("memref.store", [flag, info] + batch)
        _sort_columns(body, w, v, sv, batch, big_m, small_n, t)
        _left_vectors(body, w, uu, sv, batch, big_m, small_n, ucols, t)
        _, kb, j, _ = body.for_(body.index(0), small_n)  # s in a's scale
        x = kb.v("memref.load", [sv] + batch + [j], t)
        kb.op("memref.store", [kb.v("arith.mulf", [x, big], t), sv] + batch + [j])
        kb.yield_()


def _dot_columns(b, x: _View, p, y: _View, q, rows, t):
    zero = b.const(0, t.name)
    loop, rb, i, (acc,) = b.for_(b.index(0), rows, [zero])
    rb.yield_([rb.v("arith.addf", [acc, rb.v("arith.mulf", [x.get(rb, i, p), y.get(rb, i, q)], t)], t)])
    return loop.results[0]


def _columns_orthogonal(b, w: _View, rows, cols, tol, t):
    """Whether every pair of W's columns has gamma^2 <= tol alpha beta."""
    loop, pb, p, (ok,) = b.for_(b.index(0), cols, [b.const(True, "i1")])
    inner, qb, q, (ok_q,) = pb.for_(Ix(pb).add(p, 1), cols, [ok])
    gamma = _dot_columns(qb, w, p, w, q, rows, t)
    alpha, beta = _dot_columns(qb, w, p, w, p, rows, t), _dot_columns(qb, w, q, w, q, rows, t)
    small = qb.v("arith.cmpf", [qb.v("arith.mulf", [gamma, gamma], t),
                                qb.v("arith.mulf", [tol, qb.v("arith.mulf", [alpha, beta], t)], t)],
                 I1, predicate="ole")
    qb.yield_([qb.v("arith.andi", [ok_q, small], I1)])
    pb.yield_([inner.results[0]])
    return loop.results[0]


def _column_rotation(b, w: _View, v: _View, p, q, rows, cols, tol, t):
    """Columns p and q of W (and of V) rotated to be orthogonal: _plane_rotation of
    beta - alpha and gamma; none for a pair already orthogonal to tolerance."""
    zero = b.const(0, t.name)
    loop, rb, i, (al, be, ga) = b.for_(b.index(0), rows, [zero, zero, zero])
    x, y = w.get(rb, i, p), w.get(rb, i, q)
    rb.yield_([rb.v("arith.addf", [al, rb.v("arith.mulf", [x, x], t)], t),
               rb.v("arith.addf", [be, rb.v("arith.mulf", [y, y], t)], t),
               rb.v("arith.addf", [ga, rb.v("arith.mulf", [x, y], t)], t)])
    alpha, beta, gamma = loop.results
    skip = b.v("arith.cmpf", [b.v("arith.mulf", [gamma, gamma], t),
                              b.v("arith.mulf", [tol, b.v("arith.mulf", [alpha, beta], t)], t)],
               I1, predicate="ole")
    c, s = _plane_rotation(b, b.v("arith.subf", [beta, alpha], t), gamma, skip, t)
    _rotate_columns(b, [(w, rows), (v, cols)], p, q, c, s, t)


def _sort_columns(b, w: _View, v: _View, sv, batch, rows, cols, t):
    """sv[j] = |W_j|, sorted descending, W's and V's columns moved with them."""
    _, nb, j, _ = b.for_(b.index(0), cols)
    norm = nb.v("math.sqrt", [_dot_columns(nb, w, j, w, j, rows, t)], t)
    nb.op("memref.store", [norm, sv] + batch + [j])
    nb.yield_()
    _, ib, i, _ = b.for_(b.index(0), cols)
    first = ib.v("memref.load", [sv] + batch + [i], t)
    loop, jb, j, (best, at) = ib.for_(Ix(ib).add(i, 1), cols, [first, i])
    x = jb.v("memref.load", [sv] + batch + [j], t)
    more = jb.v("arith.cmpf", [x, best], I1, predicate="ogt")
    jb.yield_([jb.v("arith.select", [more, x, best], t), jb.v("arith.select", [more, j, at], at.type)])
    best, at = loop.results
    ib.op("memref.store", [first, sv] + batch + [at])
    ib.op("memref.store", [best, sv] + batch + [i])
    for mat, length in ((w, rows), (v, cols)):
        _, kb, k, _ = ib.for_(ib.index(0), length)
        x, y = mat.get(kb, k, i), mat.get(kb, k, at)
        mat.put(kb, y, k, i)
        mat.put(kb, x, k, at)
        kb.yield_()
    ib.yield_()


def _left_vectors(b, w: _View, uu: _View, sv, batch, rows, cols, ucols, t):
    """u_j = W_j / s_j where s_j > 0; every other column of u (a zero s_j, or past N in the
    full form) is the unit vector e least in the span of u's columns before it, minus its
    projections on them (twice), normalised. s is sorted, so the columns before j are the
    defined ones."""
    zero, one = b.const(0, t.name), b.const(1, t.name)
    _, jb, j, _ = b.for_(b.index(0), ucols)
    jx = Ix(jb)
    inside = jb.v("arith.cmpi", [j, cols], I1, predicate="slt")
    s_j = jb.v("memref.load", [sv] + batch + [jx.min(j, jx.sub(cols, 1))], t)
    defined = jb.v("arith.andi", [inside, jb.v("arith.cmpf", [s_j, zero], I1, predicate="ogt")], I1)
    copy_end = jb.v("arith.select", [defined, rows, jb.index(0)], rows.type)
    _, cb, i, _ = jb.for_(jb.index(0), copy_end)
    uu.put(cb, cb.v("arith.divf", [w.get(cb, i, j), s_j], t), i, j)
    cb.yield_()
    fill_end = jb.v("arith.select", [defined, jb.index(0), rows], rows.type)
    loop, eb, e, (best, at) = jb.for_(jb.index(0), fill_end, [jb.const(float("inf"), t.name), jb.index(0)])
    inner, lb, col, (acc,) = eb.for_(eb.index(0), j, [zero])  # e's weight in the span
    x = uu.get(lb, e, col)
    lb.yield_([lb.v("arith.addf", [acc, lb.v("arith.mulf", [x, x], t)], t)])
    less = eb.v("arith.cmpf", [inner.results[0], best], I1, predicate="olt")
    eb.yield_([eb.v("arith.select", [less, inner.results[0], best], t),
               eb.v("arith.select", [less, e, at], at.type)])
    pick = loop.results[1]
    _, fb, i, _ = jb.for_(jb.index(0), fill_end)
    hit = fb.v("arith.cmpi", [i, pick], I1, predicate="eq")
    uu.put(fb, fb.v("arith.select", [hit, one, zero], t), i, j)
    fb.yield_()
    proj_end = jb.v("arith.select", [defined, jb.index(0), j], j.type)
    for _ in range(2):
        _, lb, col, _ = jb.for_(jb.index(0), proj_end)
        d = _dot_columns(lb, uu, col, uu, j, rows, t)
        _, kb, i, _ = lb.for_(lb.index(0), rows)
        kb_x = kb.v("arith.subf", [uu.get(kb, i, j), kb.v("arith.mulf", [d, uu.get(kb, i, col)], t)], t)
        uu.put(kb, kb_x, i, j)
        kb.yield_()
        lb.yield_()
    norm = jb.v("math.sqrt", [_dot_columns(jb, uu, j, uu, j, Ix(jb).min(rows, fill_end), t)], t)
    scale = Scalars(jb).v("arith.select", [defined, one, jb.v("arith.divf", [one, norm], t)], t.name)
    _, kb, i, _ = jb.for_(jb.index(0), fill_end)
    uu.put(kb, kb.v("arith.mulf", [uu.get(kb, i, j), scale], t), i, j)
    kb.yield_()
    jb.yield_()


def _batched(target, op) -> bool:
    return op.operands[0].type.rank > 2


registry.define("triangular_solve", "kernel", _FAMILY, arity=2,
                attrs=("left_side", "lower", "unit_diagonal", "transpose_a"),
                operand_types="float", infer=infer_triangular_solve,
                shape_rule=_triangular_solve_rule, kernel=emit_triangular_solve)
registry.define("cholesky", "kernel", _FAMILY, arity=1, operand_types="float",
                infer=infer_cholesky, shape_rule=_cholesky_rule, kernel=emit_cholesky,
                writes=lambda op: registry.last_operands(op, len(op.operands) - 1))
# The outermost loop runs over dim 0 of the result, whose iterations are independent: for a
# batch, or for the rows of x in x op(a) = b (right side) of one matrix.
registry.override("triangular_solve", "parallel", True,
                  when=lambda target, op: _batched(target, op) or not op.attrs["left_side"])
registry.override("cholesky", "parallel", True, when=_batched)
registry.define("lu", "kernel", _FAMILY, arity=1, infer=infer_lu, shape_rule=_lu_rule,
                kernel=emit_lu, writes=lambda op: registry.last_operands(op, len(op.operands) - 1))
registry.override("lu", "parallel", True, when=_batched)
registry.define("geqrf", "kernel", _FAMILY, arity=1, infer=infer_geqrf, shape_rule=_geqrf_rule,
                kernel=emit_geqrf, writes=lambda op: registry.last_operands(op, 2))
registry.override("geqrf", "parallel", True, when=_batched)
registry.define("householder_product", "kernel", _FAMILY, arity=2, infer=infer_householder_product,
                shape_rule=_householder_product_rule, kernel=emit_householder_product,
                writes=lambda op: registry.last_operands(op, 1))
registry.override("householder_product", "parallel", True, when=_batched)
registry.define("eigh", "kernel", _FAMILY, arity=1, infer=infer_eigh, shape_rule=_eigh_rule,
                kernel=emit_eigh, writes=lambda op: registry.last_operands(op, 4))
registry.override("eigh", "parallel", True, when=_batched)
registry.define("svd", "kernel", _FAMILY, arity=1, infer=infer_svd, shape_rule=_svd_rule,
                kernel=emit_svd, writes=lambda op: registry.last_operands(op, 5))
registry.override("svd", "parallel", True, when=_batched)
