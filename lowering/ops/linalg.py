"""Linear algebra: triangular_solve and cholesky, kernels of their own built from plain loops
(substitution and the Cholesky-Banachiewicz order), one matrix (batch index) after another.

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
/ C[i, i], summed in increasing k, in the element type (f32 for f16 and bf16).

cholesky(a) (`lower`, default false as in StableHLO) computes l with a = l l^T reading only
a's lower triangle (u with a = u^T u reading the upper one when `lower` is false), row by
row: l[i, j] = (a[i, j] - sum_{k<j} l[i, k] l[j, k]) / l[j, j], l[i, i] = sqrt(a[i, i] -
sum_{k<i} l[i, k]^2). The other triangle of the result is written as zeros. For an a that is
not positive definite StableHLO leaves the result to the implementation: here the square root
of a negative number is NaN and propagates through the rest of the matrix (as XLA's does),
never a trap.

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
    acc = _acc(elem)
    left, lower, unit = op.attrs["left_side"], op.attrs["lower"], op.attrs["unit_diagonal"]
    transposed = (transpose_a(op) != "NO_TRANSPOSE") != (not left)  # C = a^T
    forward = lower != transposed  # C lower triangular
    dims = buffer_dims(b, out)
    m = buffer_dims(b, a)[-1]
    nb = len(dims) - 2
    ix = Ix(b)
    n = dims[-1] if left else dims[-2]  # independent systems per matrix
    with loop_nest(b, [ix.val(d) for d in dims[:nb]] + [ix.val(n)]) as (body, ivs):
        batch, r = ivs[:nb], ivs[nb]

        def at(i):  # x_i (and b_i) of system r
            return batch + ([i, r] if left else [r, i])

        def coeff(bb, i, j):  # C[i, j]
            v = bb.v("memref.load", [a] + batch + ([j, i] if transposed else [i, j]), ScalarType(elem))
            return Scalars(bb).convert(v, elem, acc)

        _, sb, s, _ = body.for_(body.index(0), Ix(body).val(m))
        sx = Ix(sb)
        i = s if forward else sx.sub(sx.sub(m, 1), s)
        lo, hi = (0, i) if forward else (sx.add(i, 1), m)
        ss = Scalars(sb)
        b_i = ss.convert(sb.v("memref.load", [rhs] + at(i), ScalarType(elem)), elem, acc)
        loop, kb, kk, (total,) = sb.for_(sx.val(lo), sx.val(hi), [b_i])
        x_k = Scalars(kb).convert(kb.v("memref.load", [out] + at(kk), ScalarType(elem)), elem, acc)
        prod = kb.v("arith.mulf", [coeff(kb, i, kk), x_k], ScalarType(acc))
        kb.yield_([kb.v("arith.subf", [total, prod], ScalarType(acc))])
        x_i = loop.results[0]
        if not unit:
            x_i = sb.v("arith.divf", [x_i, coeff(sb, i, i)], ScalarType(acc))
        sb.op("memref.store", [ss.convert(x_i, acc, elem), out] + at(i))
        sb.yield_()


# ----------------------------------------------------------------------------- cholesky


def infer_cholesky(op: Operation):
    if len(op.operands) != 1:
        raise ShapeError("cholesky takes one operand")
    _flag(op, "lower", False)
    a = op.operands[0].type
    _square_matrices(a, "a")
    shape = list(a.shape)
    shape[-2] = shape[-1] = _merge(a.shape[-2], a.shape[-1], "a is not square")
    return [TensorType(tuple(shape), a.elem)]


def _cholesky_rule(hs, op, shapes, bufs):
    a = list(shapes[0])
    a[-1] = a[-2] = hs.require_equal(a[-2], a[-1], op, "a is not square in its last two dims")
    return [static_or(op.results[0].type.shape, a)]


def emit_cholesky(k, op: Operation, b, args: list):
    a, out = args
    elem = out.type.elem
    acc = _acc(elem)
    lower = op.attrs.get("lower", False)
    dims = buffer_dims(b, out)
    nb = len(dims) - 2
    n = dims[-1]
    ix = Ix(b)
    with loop_nest(b, [ix.val(d) for d in dims[:nb]] + [ix.val(n)]) as (body, ivs):
        batch, i = ivs[:nb], ivs[nb]

        def at(r, c):  # l[r, c] (r >= c) is out[r, c], or out[c, r] for the upper form
            return batch + ([r, c] if lower else [c, r])

        def load(bb, buf, r, c):
            v = bb.v("memref.load", [buf] + at(r, c), ScalarType(elem))
            return Scalars(bb).convert(v, elem, acc)

        def dot_minus(bb, r, c, upto):  # a[r, c] - sum_{k < upto} l[r, k] l[c, k]
            loop, kb, kk, (total,) = bb.for_(bb.index(0), upto, [load(bb, a, r, c)])
            prod = kb.v("arith.mulf", [load(kb, out, r, kk), load(kb, out, c, kk)], ScalarType(acc))
            kb.yield_([kb.v("arith.subf", [total, prod], ScalarType(acc))])
            return loop.results[0]

        _, jb, j, _ = body.for_(body.index(0), i)  # below the diagonal
        s = dot_minus(jb, i, j, j)
        v = jb.v("arith.divf", [s, load(jb, out, j, j)], ScalarType(acc))
        jb.op("memref.store", [Scalars(jb).convert(v, acc, elem), out] + at(i, j))
        jb.yield_()
        d = body.v("math.sqrt", [dot_minus(body, i, i, i)], ScalarType(acc))
        body.op("memref.store", [Scalars(body).convert(d, acc, elem), out] + at(i, i))
        bx = Ix(body)
        _, zb, z, _ = body.for_(bx.add(i, 1), bx.val(n))  # above it
        zb.op("memref.store", [zb.const(0, elem), out] + batch + ([i, z] if lower else [z, i]))
        zb.yield_()


def _batched(target, op) -> bool:
    return op.operands[0].type.rank > 2


registry.define("triangular_solve", "kernel", _FAMILY, arity=2,
                attrs=("left_side", "lower", "unit_diagonal", "transpose_a"),
                operand_types="float", infer=infer_triangular_solve,
                shape_rule=_triangular_solve_rule, kernel=emit_triangular_solve)
registry.define("cholesky", "kernel", _FAMILY, arity=1, operand_types="float",
                infer=infer_cholesky, shape_rule=_cholesky_rule, kernel=emit_cholesky)
# The outermost loop runs over dim 0 of the result, whose iterations are independent: for a
# batch, or for the rows of x in x op(a) = b (right side) of one matrix.
registry.override("triangular_solve", "parallel", True,
                  when=lambda target, op: _batched(target, op) or not op.attrs["left_side"])
registry.override("cholesky", "parallel", True, when=_batched)
