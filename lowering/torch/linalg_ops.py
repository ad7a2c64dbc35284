"""torch.linalg on the compositions of lowering/tf/linalg.py (shared with the TF door) and
the kernels of lowering/ops/linalg.py: Cholesky and its solve, triangular solves, LU-based
solve, inverse and determinants, QR, symmetric eigenvalues, singular values and the
pseudo-inverse; and `_linalg_check_errors`, which torch.linalg.cholesky, solve and inv run
(behind `with_effects`, an effect token threaded through the graph) to raise on a matrix
that is not positive-definite or is singular: a check on every call whose error names the
function and the model's line."""
from __future__ import annotations

import numpy as np

from lowering.ir.core import Value, numpy_dtype
from lowering.tf import linalg as la
from lowering.torch.nn_ops import dot
from lowering.torch.table import aten

L = "linear algebra"
_matrices, _same_batch, _solve = la.matrices, la.same_batch, la.triangular_solve


@aten("linalg_cholesky_ex.default", group=L)
def cholesky_ex(e, n):
    """(L, info): info is LAPACK's (0, or the order of the first leading minor that is not
    positive-definite); L is NaN from that row on."""
    a = _matrices(e, n.arg("self"), "the input")
    return list(e.op("cholesky", [a], {"lower": not n.arg("upper", False)}, n=2).results)


@aten("linalg_solve_triangular.default", group=L)
def solve_triangular(e, n):
    a, b = _same_batch(e, _matrices(e, n.arg("self"), "A"), _matrices(e, n.arg("B"), "B"))
    return _solve(e, a, b, lower=not n.arg("upper"), unit=n.arg("unitriangular", False),
                  left=n.arg("left", True))


@aten("cholesky_solve.default", group=L)
def cholesky_solve(e, n):
    """x with (L L^T) x = B (U^T U with `upper`): two triangular solves."""
    b, f = _same_batch(e, _matrices(e, n.arg("self"), "B"), _matrices(e, n.arg("input2"), "the factor"))
    upper = n.arg("upper", False)
    return _solve(e, f, _solve(e, f, b, lower=not upper, transpose=upper), lower=not upper,
                  transpose=not upper)


@aten("_linalg_solve_ex.default", group=L)
def solve_ex(e, n):
    """(x, LU, pivots, info) with A x = B, by partial-pivoting LU; B a vector when it has
    A's shape less its last dim (as torch reads it). With left=False, x A = B: the solve of
    A^T x^T = B^T (LU and pivots are A's own either way)."""
    a = _matrices(e, n.arg("A"), "A")
    b = n.arg("B")
    if not n.arg("left", True):
        a, b = _same_batch(e, a, _matrices(e, b, "B"))
        lu, piv, info, _ = la.lu(e, a)
        return [la.swap_last(e, la.solve(e, a, la.swap_last(e, b), adjoint=True)), lu, piv, info]
    vector = b.type.rank == a.type.rank - 1 or b.type.rank == 1
    if vector:
        b = e.reshape(b, e.dims(b) + [1])
    a, b = _same_batch(e, a, _matrices(e, b, "B"))
    lu, piv, info, perm = la.lu(e, a)
    x = la.lu_solve(e, lu, perm, b)
    if vector:
        x = e.reshape(x, e.dims(x)[:-1])
    return [x, lu, piv, info]


@aten("linalg_inv_ex.default", group=L)
def inv_ex(e, n):
    """(inverse, info): the LU solve of the identity."""
    return la.inverse(e, _matrices(e, n.arg("A"), "A"))


@aten("_linalg_det.default", group=L)
def det(e, n):
    """(det, LU, pivots): the product of U's diagonal, negated for an odd number of swaps."""
    return la.determinant(e, _matrices(e, n.arg("A"), "A"))


@aten("_linalg_slogdet.default", group=L)
def slogdet(e, n):
    """(sign, log|det|, LU, pivots): sign 0 and -inf for a singular matrix."""
    return la.log_determinant(e, _matrices(e, n.arg("A"), "A"))


@aten("linalg_qr.default", group=L)
def qr(e, n):
    """(Q, R) by Householder reflections, modes reduced, complete and r (Q empty); the
    matrices' two dims must be static."""
    a = _matrices(e, n.arg("A"), "A")
    mode = n.arg("mode", "reduced")
    if mode not in ("reduced", "complete", "r"):
        raise e.error(f"mode {mode!r} is not one of 'reduced', 'complete', 'r'")
    q, r = la.qr(e, a, mode)
    return [e.const(0, a.type.elem, (0,)) if q is None else q, r]


@aten("_linalg_eigh.default", group=L)
def eigh(e, n):
    """(values ascending, vectors) of a symmetric matrix read from its `UPLO` triangle, by
    Jacobi rotations; with compute_v false the vectors are empty, as torch's are."""
    a = _matrices(e, n.arg("A"), "A")
    uplo = n.arg("UPLO", "L")
    if uplo not in ("L", "U"):
        raise e.error(f"UPLO must be 'L' or 'U', got {uplo!r}")
    values, vectors = la.eigh(e, a, uplo == "L")
    if not n.arg("compute_v", True):
        vectors = e.const(0, a.type.elem, (0,))
    return [values, vectors]


@aten("_linalg_svd.default", group=L)
def svd(e, n):
    """(U, S, Vh): S descending; with compute_uv false U and Vh are empty, as torch's are."""
    a = _matrices(e, n.arg("A"), "A")
    u, s, vt = la.svd(e, a, bool(n.arg("full_matrices", False)))
    if not n.arg("compute_uv", True):
        empty = e.const(0, a.type.elem, (0,))
        return [empty, s, empty]
    return [u, s, vt]


@aten("linalg_pinv.atol_rtol_tensor", "linalg_pinv.atol_rtol_float", group=L)
def pinv(e, n):
    """V diag(1 / s) U^T over the singular values above max(atol, rtol s_max) (rtol
    eps max(m, n) when neither is given, as torch's default); `hermitian` gives the same
    matrix by the same route."""
    a = _matrices(e, n.arg("self"), "the input")
    u, s, vt = la.svd(e, a, False)
    el = a.type.elem
    atol, rtol = n.arg("atol", None), n.arg("rtol", None)
    if rtol is None:
        rtol = 0.0 if atol is not None else float(np.finfo(numpy_dtype(el)).eps) * max(a.type.shape[-2:])
    r = s.type.rank
    top = e.reduce(s, [r - 1], "maximum", e.init("max", el))
    limit = e.binary("multiply", e.scalar(rtol, el), top)
    if atol is not None:
        limit = e.v("maximum", [limit, e.broadcast_to(e.scalar(atol, el), e.dims(limit))])
    keep = e.compare(s, e.spread(limit, s, [r - 1]), "GT")
    inv = e.select(keep, e.binary("divide", e.scalar(1, el), s), e.broadcast_to(e.scalar(0, el), e.dims(s)))
    v = la.swap_last(e, vt)  # [..., n, k]: its columns scaled by 1 / s
    scaled = e.v("multiply", [v, e.broadcast_to(inv, e.dims(v), mapping=tuple(range(r - 1)) + (r,))])
    return dot(e, scaled, la.swap_last(e, u), r - 1)


# ----------------------------------------------------------------------------- error checks

# What a nonzero info means: a Cholesky's the order of a leading minor, an LU's a pivot.
_NOT_POSITIVE = "the input is not positive-definite (the leading minor of order {0} is not positive-definite)"
_SINGULAR = "the input is singular (U's diagonal element {0} is zero)"


@aten("higher_order.with_effects", group=L)
def with_effects(e, n):
    """An effectful op threaded by a token: only `_linalg_check_errors` is lowered (to a
    check that every info is 0); the token passes through."""
    token = n.positional(0)
    op = n.raw["inputs"][1]["arg"].get("as_operator", "?")
    if op != "torch.ops.aten._linalg_check_errors.default":
        raise e.error(f"the effectful op {op} is not supported")
    info, api = n.positional(2), n.positional(3)
    if not isinstance(info, Value) or info.type.elem not in ("i32", "i64"):
        raise e.error("_linalg_check_errors takes an integer info tensor")
    flat = e.reshape(info, [e.product(e.dims(info))])
    worst = e.reduce(flat, [0], "maximum", e.init("max", info.type.elem))
    ok = e.compare(worst, e.scalar(0, info.type.elem), "LE")
    what = _NOT_POSITIVE if "cholesky" in api else _SINGULAR
    n.lowerer.check(ok, [e.convert(worst, "i32")],
                    f"{api}: {what} ({e.loc.file}:{e.loc.line})")
    return [token, None]

