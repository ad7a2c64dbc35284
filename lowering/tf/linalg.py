"""Linear algebra as both front ends build it from the kernels of lowering/ops/linalg.py
(cholesky, triangular_solve, lu with its row permutation, geqrf and householder_product,
eigh, svd), and TensorFlow's linalg ops on them (tf.linalg.cholesky, triangular_solve,
solve, inv, det, slogdet, qr, eigh, svd). The PyTorch door's torch.linalg rules
(lowering/torch/linalg_ops.py) call the same compositions."""
from __future__ import annotations

from lowering.ir.core import TensorType, Value
from lowering.tf.emitter import Emitter
from lowering.tf.table import tf_op

L = "linear algebra"


def matrices(e, x: Value, what: str) -> Value:
    if x.type.elem not in ("f32", "f64") or x.type.rank < 2:
        raise e.error(f"{what} must be f32 or f64 matrices (rank 2 or more), got {x.type}")
    return x


def same_batch(e, a: Value, b: Value) -> tuple:
    """a and b with the same batch dims: the one without any broadcast to the other's (as
    TF and torch broadcast them); other mismatches are an error naming both."""
    ab, bb = a.type.shape[:-2], b.type.shape[:-2]
    if len(ab) == len(bb) and all(x is None or y is None or x == y for x, y in zip(ab, bb)):
        return a, b
    if not bb or not ab:
        small, big = (b, a) if not bb else (a, b)
        lead = e.dims(big)[:-2]
        out = e.broadcast_to(small, lead + e.dims(small), mapping=tuple(range(len(lead), len(lead) + 2)))
        return (a, out) if small is b else (out, b)
    raise e.error(f"batch dims of {a.type} and {b.type} differ; broadcasting them is not supported")


def triangular_solve(e, a: Value, b: Value, lower: bool, transpose: bool = False,
                     unit: bool = False, left: bool = True) -> Value:
    return e.v("triangular_solve", [a, b], {
        "left_side": left, "lower": lower, "unit_diagonal": unit,
        "transpose_a": "TRANSPOSE" if transpose else "NO_TRANSPOSE"})


def swap_last(e, x: Value) -> Value:
    r = x.type.rank
    return e.v("transpose", [x], {"permutation": tuple(range(r - 2)) + (r - 1, r - 2)})


def lu(e, a: Value) -> list:
    """(lu, pivots, info, permutation) of square matrices."""
    m, k = a.type.shape[-2:]
    if m is not None and k is not None and m != k:
        raise e.error(f"the input must be square matrices, got {a.type}")
    s = a.type.shape
    types = [a.type, TensorType(s[:-1], "i32"), TensorType(s[:-2], "i32"), TensorType(s[:-1], "i32")]
    return list(e.op("lu", [a], result_types=types).results)


def rows_in_order(e, b: Value, perm: Value) -> Value:
    """b[..., perm[..., i], :]: each matrix's rows in its own order (one gather)."""
    r = b.type.rank
    nb = r - 2
    rows = e.dims(perm)
    coords = [e.reshape(e.iota(rows, d, "i32"), rows + [1]) for d in range(nb)]
    coords.append(e.reshape(e.convert(perm, "i32"), rows + [1]))
    start = coords[0] if len(coords) == 1 else e.v("concatenate", coords, {"dimension": nb + 1})
    dn = {"offset_dims": (nb + 1,), "collapsed_slice_dims": tuple(range(nb + 1)),
          "start_index_map": tuple(range(nb + 1)), "index_vector_dim": nb + 1}
    sizes = [1] * (nb + 1) + [e.dims(b)[-1]]
    t = TensorType(perm.type.shape + b.type.shape[-1:], b.type.elem)
    if isinstance(sizes[-1], int):
        return e.v("gather", [b, start], {"dimension_numbers": dn, "slice_sizes": tuple(sizes)}, t)
    return e.v("dynamic_gather", [b, start, e.shape_tensor(sizes)], {"dimension_numbers": dn}, t)


def lu_solve(e, lu_: Value, perm: Value, b: Value) -> Value:
    """x with a x = b from a's lu: b's rows in the permutation's order, then L and U."""
    y = triangular_solve(e, lu_, rows_in_order(e, b, perm), lower=True, unit=True)
    return triangular_solve(e, lu_, y, lower=False)


def solve(e, a: Value, b: Value, adjoint: bool = False) -> Value:
    """x with a x = b (a^T x = b when `adjoint`: lu takes real matrices only, so the
    adjoint is the transpose), by partial-pivoting LU."""
    lu_, _, _, perm = lu(e, swap_last(e, a) if adjoint else a)
    return lu_solve(e, lu_, perm, b)


def inverse(e, a: Value) -> list:
    """(inverse, info): the LU solve of the identity (its rows in the permutation's order)."""
    lu_, _, info, perm = lu(e, a)
    dims = e.dims(a)
    rows = e.broadcast_to(perm, dims, mapping=tuple(range(len(dims) - 1)))
    eye_rows = e.convert(e.compare(rows, e.iota(dims, len(dims) - 1, "i32"), "EQ"), a.type.elem)
    return [triangular_solve(e, lu_, triangular_solve(e, lu_, eye_rows, lower=True, unit=True),
                             lower=False), info]


def _diagonal_and_parity(e, lu_: Value, piv: Value):
    """(mask of lu's diagonal, the sign (+1 or -1) of the pivots' row swaps)."""
    dims = e.dims(lu_)
    r = len(dims)
    diag = e.compare(e.iota(dims, r - 2, "i32"), e.iota(dims, r - 1, "i32"), "EQ")
    kdims = e.dims(piv)
    moved = e.compare(piv, e.v("add", [e.iota(kdims, len(kdims) - 1, "i32"),
                                       e.broadcast_to(e.const(1, "i32", ()), kdims)]), "NE")
    swaps = e.reduce(e.convert(moved, "i32"), [len(kdims) - 1], "add", 0)
    one = e.broadcast_to(e.const(1, "i32", ()), e.dims(swaps))
    odd = e.compare(e.v("and", [swaps, one]), one, "EQ")
    elem = lu_.type.elem
    sign = e.select(odd, e.broadcast_to(e.const(-1, elem, ()), e.dims(swaps)),
                    e.broadcast_to(e.const(1, elem, ()), e.dims(swaps)))
    return diag, sign


def determinant(e, a: Value) -> list:
    """(det, lu, pivots): the product of U's diagonal, negated for an odd number of swaps."""
    lu_, piv, _, _ = lu(e, a)
    diag, sign = _diagonal_and_parity(e, lu_, piv)
    r = lu_.type.rank
    on = e.select(diag, lu_, e.broadcast_to(e.const(1, lu_.type.elem, ()), e.dims(lu_)))
    return [e.v("multiply", [sign, e.reduce(on, [r - 2, r - 1], "multiply", 1)]), lu_, piv]


def log_determinant(e, a: Value) -> list:
    """(sign, log|det|, lu, pivots): sign 0 and -inf for a singular matrix."""
    lu_, piv, _, _ = lu(e, a)
    diag, sign = _diagonal_and_parity(e, lu_, piv)
    r, el = lu_.type.rank, lu_.type.elem
    ones, zeros = (e.broadcast_to(e.const(v, el, ()), e.dims(lu_)) for v in (1, 0))
    signs = e.reduce(e.select(diag, e.v("sign", [lu_]), ones), [r - 2, r - 1], "multiply", 1)
    logs = e.reduce(e.select(diag, e.v("log", [e.v("abs", [lu_])]), zeros), [r - 2, r - 1], "add", 0)
    return [e.v("multiply", [sign, signs]), logs, lu_, piv]


def qr(e, a: Value, mode: str) -> list:
    """(q, r) by Householder reflections (LAPACK's geqrf and orgqr), mode reduced, complete
    or r (q None); the matrices' two dims must be static (the smaller decides the shapes)."""
    m, k = a.type.shape[-2:]
    if m is None or k is None:
        raise e.error(f"QR needs static matrix dims, got {a.type}")
    qr_, tau = e.op("geqrf", [a], n=2).results
    q_cols = m if (mode == "complete" or m <= k) else k
    r = _upper(e, block(e, qr_, m if mode == "complete" else min(m, k), k))
    if mode == "r":
        return [None, r]
    if q_cols <= k:
        basis = block(e, qr_, m, q_cols)
    else:  # complete, tall: columns k..m-1 start as the identity's
        pad = [(0, 0)] * (a.type.rank - 1) + [(0, q_cols - k)]
        basis = e.v("pad", [qr_, e.const(0, a.type.elem, ())], {
            "edge_padding_low": tuple(p[0] for p in pad), "edge_padding_high": tuple(p[1] for p in pad),
            "interior_padding": (0,) * len(pad)})
    return [e.v("householder_product", [basis, tau]), r]


def eigh(e, a: Value, lower: bool) -> list:
    """(values ascending, vectors) of symmetric matrices read from one triangle (Jacobi)."""
    s = a.type.shape
    types = [a.type, TensorType(s[:-1], a.type.elem), TensorType(s[:-2], "i32"), a.type]
    vectors, values, _, _ = e.op("eigh", [a], {"lower": lower}, result_types=types).results
    return [values, vectors]


def svd(e, a: Value, full: bool) -> list:
    """(u, s, vt) by the svd kernel (one-sided Jacobi); the matrix dims static."""
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


def block(e, x: Value, rows: int, cols: int) -> Value:
    """x[..., :rows, :cols]."""
    if x.type.shape[-2:] == (rows, cols):
        return x
    return e.slice(x, [0] * x.type.rank, e.dims(x)[:-2] + [rows, cols])


def _upper(e, x: Value) -> Value:
    dims = e.dims(x)
    r = len(dims)
    keep = e.compare(e.iota(dims, r - 2, "i32"), e.iota(dims, r - 1, "i32"), "LE")
    return e.select(keep, x, e.broadcast_to(e.const(0, x.type.elem, ()), dims))


# ----------------------------------------------------------------------------- TF's ops


def _flag(op, name: str, default: bool) -> bool:
    return bool(op.attrs.get(name, default))


@tf_op("Cholesky", group=L)
def tf_cholesky(e: Emitter, op, args):
    """The lower factor (zeros above); a matrix that is not positive-definite gives NaN from
    the failing row on (TF raises instead; XLA gives NaN too)."""
    return [e.v("cholesky", [matrices(e, args[0], "the input")], {"lower": True})]


@tf_op("MatrixTriangularSolve", group=L)
def tf_triangular_solve(e: Emitter, op, args):
    a, b = same_batch(e, matrices(e, args[0], "matrix"), matrices(e, args[1], "rhs"))
    return [triangular_solve(e, a, b, lower=_flag(op, "lower", True), transpose=_flag(op, "adjoint", False))]


@tf_op("MatrixSolve", group=L)
def tf_solve(e: Emitter, op, args):
    a, b = same_batch(e, matrices(e, args[0], "matrix"), matrices(e, args[1], "rhs"))
    return [solve(e, a, b, adjoint=_flag(op, "adjoint", False))]


@tf_op("MatrixInverse", group=L)
def tf_inverse(e: Emitter, op, args):
    inv = inverse(e, matrices(e, args[0], "the input"))[0]
    return [swap_last(e, inv) if _flag(op, "adjoint", False) else inv]


@tf_op("MatrixDeterminant", group=L)
def tf_determinant(e: Emitter, op, args):
    return [determinant(e, matrices(e, args[0], "the input"))[0]]


@tf_op("LogMatrixDeterminant", group=L)
def tf_log_determinant(e: Emitter, op, args):
    return log_determinant(e, matrices(e, args[0], "the input"))[:2]


@tf_op("Qr", group=L)
def tf_qr(e: Emitter, op, args):
    return qr(e, matrices(e, args[0], "the input"),
              "complete" if _flag(op, "full_matrices", False) else "reduced")


@tf_op("SelfAdjointEigV2", group=L)
def tf_eigh(e: Emitter, op, args):
    """(values ascending, vectors) from the lower triangle, as TF's (Eigen's) solver reads it;
    without compute_v the vectors are an empty tensor."""
    a = matrices(e, args[0], "the input")
    values, vectors = eigh(e, a, lower=True)
    return [values, vectors if _flag(op, "compute_v", True) else e.const(0, a.type.elem, (0,))]


@tf_op("Svd", group=L)
def tf_svd(e: Emitter, op, args):
    """(s, u, v): TF returns v, not its transpose; without compute_uv u and v are empty."""
    a = matrices(e, args[0], "the input")
    u, s, vt = svd(e, a, _flag(op, "full_matrices", False))
    if not _flag(op, "compute_uv", True):
        empty = e.const(0, a.type.elem, (0,))
        return [s, empty, empty]
    return [s, u, swap_last(e, vt)]
