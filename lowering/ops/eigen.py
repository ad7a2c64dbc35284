"""Symmetric eigendecomposition (eigh) and singular value decomposition (svd) by Jacobi
rotations, kernels of their own built from plain loops, one matrix (batch index) after
another. Both take LAPACK's result layout as JAX's CPU lowering calls it (syevd, gesdd)
and converge within JACOBI_SWEEPS sweeps, else report info 1. Apart from the other matrix
factorisations (linalg.py), whose attribute and shape checks they share, because they are
iterations to convergence, not a fixed sequence of eliminations."""
from __future__ import annotations

import numpy as np

from lowering.ir.builder import Ix, buffer_dims, loop_nest
from lowering.ir.core import Operation, ScalarType, TensorType, numpy_dtype
from lowering.ops import registry
from lowering.ops.elementwise import Scalars
from lowering.ops.linalg import (
    FAMILY,
    I1,
    batched,
    flag,
    merge_dims,
    real_matrices,
    square_matrices,
)
from lowering.ops.registry import ShapeError, static_or

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
    flag(op, "lower", True)
    a = op.operands[0].type
    real_matrices(a, "a")
    square_matrices(a, "a")
    n = merge_dims(a.shape[-2], a.shape[-1], "a is not square")
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
    real_matrices(a, "a")
    m, n = a.shape[-2:]
    if m is None or n is None:
        raise ShapeError(f"svd needs static matrix dims, got {a}")
    k = min(m, n)
    full = flag(op, "full", True)
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


registry.define("eigh", "kernel", FAMILY, arity=1, infer=infer_eigh, shape_rule=_eigh_rule,
                kernel=emit_eigh, writes=lambda op: registry.last_operands(op, 4))
registry.override("eigh", "parallel", True, when=batched)
registry.define("svd", "kernel", FAMILY, arity=1, infer=infer_svd, shape_rule=_svd_rule,
                kernel=emit_svd, writes=lambda op: registry.last_operands(op, 5))
registry.override("svd", "parallel", True, when=batched)
