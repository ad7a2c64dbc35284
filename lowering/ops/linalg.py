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

from lowering.ir.builder import Ix, buffer_dims, loop_nest
from lowering.ir.core import EnumAttr, Operation, ScalarType, TensorType
from lowering.ops import registry
from lowering.ops.elementwise import Scalars
from lowering.ops.registry import ShapeError, static_or

I1 = ScalarType("i1")

FLOATS = ("f16", "bf16", "f32", "f64")
TRANSPOSES = ("NO_TRANSPOSE", "TRANSPOSE", "ADJOINT")
FAMILY = "linear algebra"


# ----------------------------------------------------------------------------- attributes


def flag(op: Operation, name: str, default=None) -> bool:
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


def square_matrices(t: TensorType, what: str) -> None:
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


def merge_dims(x, y, what: str):
    if x is not None and y is not None and x != y:
        raise ShapeError(f"{what}: {x} != {y}")
    return x if x is not None else y


# ----------------------------------------------------------------------------- triangular_solve


def infer_triangular_solve(op: Operation):
    if len(op.operands) != 2:
        raise ShapeError("triangular_solve takes two operands (a, b)")
    a, b = op.operands[0].type, op.operands[1].type
    left = flag(op, "left_side")
    flag(op, "lower")
    flag(op, "unit_diagonal")
    transpose_a(op)
    square_matrices(a, "a")
    if b.elem != a.elem:
        raise ShapeError(f"a and b must have the same element type, got {a} and {b}")
    if b.rank != a.rank:
        raise ShapeError(f"a and b must have the same rank, got {a} and {b}")
    shape = list(b.shape)
    for d in range(a.rank - 2):
        shape[d] = merge_dims(a.shape[d], b.shape[d], f"batch dim {d} of a and b differ")
    m = merge_dims(a.shape[-2], a.shape[-1], "a is not square")
    side = -2 if left else -1
    shape[side] = merge_dims(m, b.shape[side],
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
    flag(op, "lower", False)
    a = op.operands[0].type
    square_matrices(a, "a")
    shape = list(a.shape)
    shape[-2] = shape[-1] = merge_dims(a.shape[-2], a.shape[-1], "a is not square")
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


def real_matrices(t: TensorType, what: str) -> None:
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
    real_matrices(a, "a")
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
    real_matrices(a, "qr")
    if tau.elem != a.elem or tau.rank != a.rank - 1:
        raise ShapeError(f"tau must be {a.elem} with one dim fewer than qr, got {tau} for {a}")
    for d, (x, y) in enumerate(zip(a.shape[:-2], tau.shape[:-1])):
        merge_dims(x, y, f"batch dim {d} of qr and tau differ")
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


def batched(target, op) -> bool:
    return op.operands[0].type.rank > 2


registry.define("triangular_solve", "kernel", FAMILY, arity=2,
                attrs=("left_side", "lower", "unit_diagonal", "transpose_a"),
                operand_types="float", infer=infer_triangular_solve,
                shape_rule=_triangular_solve_rule, kernel=emit_triangular_solve)
registry.define("cholesky", "kernel", FAMILY, arity=1, operand_types="float",
                infer=infer_cholesky, shape_rule=_cholesky_rule, kernel=emit_cholesky,
                writes=lambda op: registry.last_operands(op, len(op.operands) - 1))
# The outermost loop runs over dim 0 of the result, whose iterations are independent: for a
# batch, or for the rows of x in x op(a) = b (right side) of one matrix.
registry.override("triangular_solve", "parallel", True,
                  when=lambda target, op: batched(target, op) or not op.attrs["left_side"])
registry.override("cholesky", "parallel", True, when=batched)
registry.define("lu", "kernel", FAMILY, arity=1, infer=infer_lu, shape_rule=_lu_rule,
                kernel=emit_lu, writes=lambda op: registry.last_operands(op, len(op.operands) - 1))
registry.override("lu", "parallel", True, when=batched)
registry.define("geqrf", "kernel", FAMILY, arity=1, infer=infer_geqrf, shape_rule=_geqrf_rule,
                kernel=emit_geqrf, writes=lambda op: registry.last_operands(op, 2))
registry.override("geqrf", "parallel", True, when=batched)
registry.define("householder_product", "kernel", FAMILY, arity=2, infer=infer_householder_product,
                shape_rule=_householder_product_rule, kernel=emit_householder_product,
                writes=lambda op: registry.last_operands(op, 1))
registry.override("householder_product", "parallel", True, when=batched)
