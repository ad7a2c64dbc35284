"""torch.linalg on the kernels of lowering/ops/linalg.py: Cholesky and its solve, triangular
solves, LU-based solve, inverse and determinants, QR, symmetric eigenvalues, singular values
and the pseudo-inverse; and `_linalg_check_errors`, which
torch.linalg.cholesky, solve and inv run (behind `with_effects`, an effect token threaded
through the graph) to raise on a matrix that is not positive-definite or is singular: a
check on every call whose error names the function and the model's line."""
from __future__ import annotations

from lowering.ir.core import TensorType, Value
from lowering.torch.nn_ops import dot
from lowering.torch.table import aten

L = "linear algebra"


def _matrices(e, x: Value, what: str) -> Value:
    if x.type.elem not in ("f32", "f64") or x.type.rank < 2:
        raise e.error(f"{what} must be f32 or f64 matrices (rank 2 or more), got {x.type}")
    return x


def _same_batch(e, a: Value, b: Value) -> tuple:
    """a and b with the same batch dims: the one without any broadcast to the other's (as
    torch broadcasts them); other mismatches are an error naming both."""
    ab, bb = a.type.shape[:-2], b.type.shape[:-2]
    if len(ab) == len(bb) and all(x is None or y is None or x == y for x, y in zip(ab, bb)):
        return a, b
    if not bb or not ab:
        small, big = (b, a) if not bb else (a, b)
        lead = e.dims(big)[:-2]
        out = e.broadcast_to(small, lead + e.dims(small), mapping=tuple(range(len(lead), len(lead) + 2)))
        return (a, out) if small is b else (out, b)
    raise e.error(f"batch dims of {a.type} and {b.type} differ; broadcasting them is not supported")


def _solve(e, a: Value, b: Value, lower: bool, transpose: bool = False, unit: bool = False,
           left: bool = True) -> Value:
    return e.v("triangular_solve", [a, b], {
        "left_side": left, "lower": lower, "unit_diagonal": unit,
        "transpose_a": "TRANSPOSE" if transpose else "NO_TRANSPOSE"})


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


def _lu(e, a: Value) -> list:
    """(lu, pivots, info, permutation) of square matrices."""
    m, k = a.type.shape[-2:]
    if m is not None and k is not None and m != k:
        raise e.error(f"the input must be square matrices, got {a.type}")
    s = a.type.shape
    types = [a.type, TensorType(s[:-1], "i32"), TensorType(s[:-2], "i32"), TensorType(s[:-1], "i32")]
    return list(e.op("lu", [a], result_types=types).results)


def _lu_solve(e, n, lu: Value, perm: Value, b: Value) -> Value:
    """x with a x = b from a's lu: b's rows in the permutation's order, then L and U."""
    from lowering.torch.composite import _Renamed
    from lowering.torch.shapes import gather
    idx = e.broadcast_to(e.convert(perm, "i64"), e.dims(b), mapping=tuple(range(perm.type.rank)))
    rows = gather(e, _Renamed(n, {"self": b, "index": idx, "dim": b.type.rank - 2}))
    return _solve(e, lu, _solve(e, lu, rows, lower=True, unit=True), lower=False)


@aten("_linalg_solve_ex.default", group=L)
def solve_ex(e, n):
    """(x, LU, pivots, info) with A x = B, by partial-pivoting LU; B a vector when it has
    A's shape less its last dim (as torch reads it)."""
    a = _matrices(e, n.arg("A"), "A")
    b = n.arg("B")
    if not n.arg("left", True):
        raise e.error("torch.linalg.solve(left=False) is not supported; solve A^T x^T = B^T")
    vector = b.type.rank == a.type.rank - 1 or b.type.rank == 1
    if vector:
        b = e.reshape(b, e.dims(b) + [1])
    a, b = _same_batch(e, a, _matrices(e, b, "B"))
    lu, piv, info, perm = _lu(e, a)
    x = _lu_solve(e, n, lu, perm, b)
    if vector:
        x = e.reshape(x, e.dims(x)[:-1])
    return [x, lu, piv, info]


@aten("linalg_inv_ex.default", group=L)
def inv_ex(e, n):
    """(inverse, info): the LU solve of the identity."""
    a = _matrices(e, n.arg("A"), "A")
    lu, _, info, perm = _lu(e, a)
    dims = e.dims(a)
    rows = e.broadcast_to(perm, dims, mapping=tuple(range(len(dims) - 1)))
    cols = e.iota(dims, len(dims) - 1, "i32")
    eye_rows = e.convert(e.compare(rows, cols, "EQ"), a.type.elem)  # rows of I in perm's order
    return [_solve(e, lu, _solve(e, lu, eye_rows, lower=True, unit=True), lower=False), info]


def _diagonal_and_parity(e, lu: Value, piv: Value):
    """(mask of lu's diagonal, the sign (+1 or -1) of the pivots' row swaps)."""
    dims = e.dims(lu)
    r = len(dims)
    diag = e.compare(e.iota(dims, r - 2, "i32"), e.iota(dims, r - 1, "i32"), "EQ")
    kdims = e.dims(piv)
    moved = e.compare(piv, e.v("add", [e.iota(kdims, len(kdims) - 1, "i32"),
                                       e.broadcast_to(e.scalar(1, "i32"), kdims)]), "NE")
    swaps = e.reduce(e.convert(moved, "i32"), [len(kdims) - 1], "add", 0)
    odd = e.compare(e.v("and", [swaps, e.broadcast_to(e.scalar(1, "i32"), e.dims(swaps))]),
                    e.broadcast_to(e.scalar(1, "i32"), e.dims(swaps)), "EQ")
    elem = lu.type.elem
    sign = e.select(odd, e.broadcast_to(e.scalar(-1, elem), e.dims(swaps)),
                    e.broadcast_to(e.scalar(1, elem), e.dims(swaps)))
    return diag, sign


@aten("_linalg_det.default", group=L)
def det(e, n):
    """(det, LU, pivots): the product of U's diagonal, negated for an odd number of swaps."""
    a = _matrices(e, n.arg("A"), "A")
    lu, piv, _, _ = _lu(e, a)
    diag, sign = _diagonal_and_parity(e, lu, piv)
    r = lu.type.rank
    on = e.select(diag, lu, e.broadcast_to(e.scalar(1, lu.type.elem), e.dims(lu)))
    return [e.v("multiply", [sign, e.reduce(on, [r - 2, r - 1], "multiply", 1)]), lu, piv]


@aten("_linalg_slogdet.default", group=L)
def slogdet(e, n):
    """(sign, log|det|, LU, pivots): sign 0 and -inf for a singular matrix."""
    a = _matrices(e, n.arg("A"), "A")
    lu, piv, _, _ = _lu(e, a)
    diag, sign = _diagonal_and_parity(e, lu, piv)
    r, el = lu.type.rank, lu.type.elem
    ones, zeros = (e.broadcast_to(e.scalar(v, el), e.dims(lu)) for v in (1, 0))
    signs = e.reduce(e.select(diag, e.v("sign", [lu]), ones), [r - 2, r - 1], "multiply", 1)
    logs = e.reduce(e.select(diag, e.v("log", [e.v("abs", [lu])]), zeros), [r - 2, r - 1], "add", 0)
    return [e.v("multiply", [sign, signs]), logs, lu, piv]


@aten("linalg_qr.default", group=L)
def qr(e, n):
    """(Q, R) by Householder reflections (LAPACK's geqrf and orgqr), modes reduced, complete
    and r (Q empty); the matrices' two dims must be static (which is the smaller decides
    the shapes)."""
    a = _matrices(e, n.arg("A"), "A")
    mode = n.arg("mode", "reduced")
    m, k = a.type.shape[-2:]
    if m is None or k is None:
        raise e.error(f"torch.linalg.qr needs static matrix dims, got {a.type}")
    if mode not in ("reduced", "complete", "r"):
        raise e.error(f"mode {mode!r} is not one of 'reduced', 'complete', 'r'")
    qr_, tau = e.op("geqrf", [a], n=2).results
    lead = e.dims(a)[:-2]
    q_cols = m if (mode == "complete" or m <= k) else k
    r_rows = m if mode == "complete" else min(m, k)
    r = _upper(e, _block(e, qr_, r_rows, k))
    if mode == "r":
        return [e.const(0, a.type.elem, (0,)), r]
    if q_cols <= k:
        basis = _block(e, qr_, m, q_cols)
    else:  # complete, tall: columns k..m-1 start as the identity's
        zero = e.scalar(0, a.type.elem)
        pad = [(0, 0)] * len(lead) + [(0, 0), (0, q_cols - k)]
        basis = e.v("pad", [qr_, zero], {"edge_padding_low": tuple(p[0] for p in pad),
                                          "edge_padding_high": tuple(p[1] for p in pad),
                                          "interior_padding": (0,) * len(pad)})
    return [e.v("householder_product", [basis, tau]), r]


@aten("_linalg_eigh.default", group=L)
def eigh(e, n):
    """(values ascending, vectors) of a symmetric matrix read from its `UPLO` triangle, by
    Jacobi rotations; with compute_v false the vectors are empty, as torch's are."""
    a = _matrices(e, n.arg("A"), "A")
    uplo = n.arg("UPLO", "L")
    if uplo not in ("L", "U"):
        raise e.error(f"UPLO must be 'L' or 'U', got {uplo!r}")
    s = a.type.shape
    types = [a.type, TensorType(s[:-1], a.type.elem), TensorType(s[:-2], "i32"), a.type]
    vectors, values, _, _ = e.op("eigh", [a], {"lower": uplo == "L"}, result_types=types).results
    if not n.arg("compute_v", True):
        vectors = e.const(0, a.type.elem, (0,))
    return [values, vectors]


def _svd(e, a: Value, full: bool) -> list:
    """(u, s, vt) of `a` by the svd kernel (one-sided Jacobi); the matrix dims static."""
    shape = a.type.shape
    m, k = shape[-2:]
    if m is None or k is None:
        raise e.error(f"the singular value decomposition needs static matrix dims, got {a.type}")
    lead, r = shape[:-2], min(m, k)
    u, vt = ((m, m), (k, k)) if full else ((m, r), (r, k))
    types = [a.type, TensorType(lead + (r,), a.type.elem), TensorType(lead + u, a.type.elem),
             TensorType(lead + vt, a.type.elem), TensorType(lead, "i32")]
    _, s, uu, vv, _ = e.op("svd", [a], {"full": full}, result_types=types).results
    return [uu, s, vv]


@aten("_linalg_svd.default", group=L)
def svd(e, n):
    """(U, S, Vh): S descending; with compute_uv false U and Vh are empty, as torch's are."""
    a = _matrices(e, n.arg("A"), "A")
    u, s, vt = _svd(e, a, bool(n.arg("full_matrices", False)))
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
    u, s, vt = _svd(e, a, False)
    el = a.type.elem
    atol, rtol = n.arg("atol", None), n.arg("rtol", None)
    if rtol is None:
        eps = {"f32": 2.0 ** -23, "f64": 2.0 ** -52}[el]
        rtol = 0.0 if atol is not None else eps * max(a.type.shape[-2:])
    r = s.type.rank
    top = e.reduce(s, [r - 1], "maximum", e.init("max", el))
    limit = e.binary("multiply", e.scalar(rtol, el), top)
    if atol is not None:
        limit = e.v("maximum", [limit, e.broadcast_to(e.scalar(atol, el), e.dims(limit))])
    keep = e.compare(s, e.spread(limit, s, [r - 1]), "GT")
    inv = e.select(keep, e.binary("divide", e.scalar(1, el), s), e.broadcast_to(e.scalar(0, el), e.dims(s)))
    v = _swap_last(e, vt)  # [..., n, k]: its columns scaled by 1 / s
    scaled = e.v("multiply", [v, e.broadcast_to(inv, e.dims(v), mapping=tuple(range(r - 1)) + (r,))])
    return dot(e, scaled, _swap_last(e, u), r - 1)


def _swap_last(e, x: Value) -> Value:
    r = x.type.rank
    return e.v("transpose", [x], {"permutation": tuple(range(r - 2)) + (r - 1, r - 2)})


def _block(e, x: Value, rows: int, cols: int) -> Value:
    """x[..., :rows, :cols]."""
    r = x.type.rank
    if x.type.shape[-2:] == (rows, cols):
        return x
    if any(d is None for d in x.type.shape):
        dims = e.dims(x)
        limits = e.shape_tensor(dims[:-2] + [rows, cols], "i64")
        zeros = e.const([0] * r, "i64", (r,))
        ones = e.const([1] * r, "i64", (r,))
        t = TensorType(x.type.shape[:-2] + (rows, cols), x.type.elem)
        return e.v("real_dynamic_slice", [x, zeros, limits, ones], result_type=t)
    return e.v("slice", [x], {"start_indices": (0,) * r,
                              "limit_indices": x.type.shape[:-2] + (rows, cols),
                              "strides": (1,) * r})


def _upper(e, x: Value) -> Value:
    dims = e.dims(x)
    r = len(dims)
    keep = e.compare(e.iota(dims, r - 2, "i32"), e.iota(dims, r - 1, "i32"), "LE")
    return e.select(keep, x, e.broadcast_to(e.scalar(0, x.type.elem), dims))


# ----------------------------------------------------------------------------- error checks

_CHECKS = {  # torch's api name -> what its info means
    "linalg.cholesky": "the input is not positive-definite (the leading minor of order {0} "
                       "is not positive-definite)",
    "torch.linalg.cholesky_ex": "the input is not positive-definite (the leading minor of "
                                "order {0} is not positive-definite)",
}
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
    what = _CHECKS.get(api, _SINGULAR)
    n.lowerer.check(ok, [e.convert(worst, "i32")],
                    f"{api}: {what} ({e.loc.file}:{e.loc.line})")
    return [token, None]

