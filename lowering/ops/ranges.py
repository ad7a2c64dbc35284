"""Bounds of the values an HLO value can take, from the ops that compute it.

The inline math (codegen/llvm/fastmath.py) guards every input: exp clamps its argument and
scales by 2^n in two steps so that results near the underflow round once, logistic picks a
formula by the argument's sign. In a fused chain the argument often cannot need the guards:
exp(tanh(x)) takes values in [-1, 1], logistic(exp(y)) positive ones. `value_range(v)` gives
(lo, hi) such that every non-NaN value of `v` is in [lo, hi] (NaN is always possible, and
the rules that use a range keep NaN propagating), by interval arithmetic over the ops in
RANGES, looking back through at most DEPTH ops; anything else is (-inf, inf).
"""
from __future__ import annotations

import math

import numpy as np

from lowering.ir.core import Operation, is_float

INF = math.inf
FULL = (-INF, INF)
DEPTH = 8  # ops looked back through: a fused chain's length, not a whole graph
SMALL_CONSTANT = 4096  # elements of a constant whose min and max are worth computing


def _monotone(fn):
    """An increasing function of one argument, applied to the ends."""
    def rule(op, ranges):
        lo, hi = ranges[0]
        return (_safe(fn, lo, -INF), _safe(fn, hi, INF))
    return rule


def _safe(fn, x, overflow):
    try:
        return fn(x)
    except OverflowError:
        return overflow


def _logistic(x):
    return 1 / (1 + math.exp(-x)) if x > -700 else 0.0


def _interval(fn):
    """A binary op whose extremes are at the ends of its operands' intervals."""
    def rule(op, ranges):
        (a, b), (c, d) = ranges[:2]
        ends = [fn(x, y) for x in (a, b) for y in (c, d)]
        return FULL if any(math.isnan(e) for e in ends) else (min(ends), max(ends))
    return rule


def _constant(op, ranges):
    arr = op.attrs["value"].array
    if arr.size == 0 or not np.issubdtype(arr.dtype, np.floating):
        return FULL
    if arr.size > SMALL_CONSTANT and not all(s == 0 for s in arr.strides):
        return FULL
    finite = arr[~np.isnan(arr)] if arr.size <= SMALL_CONSTANT else arr.flat[:1]
    return (float(finite.min()), float(finite.max())) if finite.size else FULL


def _abs(op, ranges):
    lo, hi = ranges[0]
    if lo >= 0:
        return (lo, hi)
    if hi <= 0:
        return (-hi, -lo)
    return (0.0, max(-lo, hi))


def _clamp(op, ranges):  # clamp(min, x, max) = min(max(x, min), max)
    (mn_lo, mn_hi), (x_lo, x_hi), (mx_lo, mx_hi) = ranges
    return (min(max(x_lo, mn_lo), mx_hi), min(max(x_hi, mn_hi), mx_hi))


def _first(op, ranges):
    return ranges[0]


def _subtract(op, ranges):
    """x - y by intervals, and x - max(x) <= 0 where y is x's maximum over some dims
    broadcast back to x's shape (softmax's argument to exp): each element is at most the
    maximum of its own row, so their difference rounds to at most 0."""
    lo, hi = _interval(lambda x, y: x - y)(op, ranges)
    if _is_own_row_max(op.operands[1], op.operands[0]):
        hi = min(hi, 0.0)
    return lo, hi


def _is_own_row_max(m, x) -> bool:
    """m[i] = max of x over the reduced dims at i's other coordinates, through static
    broadcast_in_dim and size-1 reshapes after a maximum reduce of x. Follows which of x's
    dims each dim of the value reached indexes (None: a size-1 dim, index 0)."""
    if m.type.shape != x.type.shape or not all(d is not None for d in x.type.shape):
        return False
    dims = list(range(len(x.type.shape)))  # the x dim each dim of v stands for
    v = m
    for _ in range(DEPTH):
        op = v.owner
        if not isinstance(op, Operation) or not all(d is not None for d in v.type.shape):
            return False
        if op.key == "reduce":
            return _is_max_reduce_of(op, x, dims)
        src = op.operands[0] if op.operands else None
        if src is None or not all(d is not None for d in src.type.shape):
            return False
        if op.key == "broadcast_in_dim":
            bd = list(op.attrs["broadcast_dimensions"])
            dims = [dims[j] if src.type.shape[k] == v.type.shape[j] else None
                    for k, j in enumerate(bd)]
            if any(d is None and src.type.shape[k] != 1 for k, d in enumerate(dims)):
                return False
        elif op.key == "reshape":
            kept = [dims[j] for j, n in enumerate(v.type.shape) if n != 1]
            if [n for n in v.type.shape if n != 1] != [n for n in src.type.shape if n != 1]:
                return False
            it = iter(kept)
            dims = [None if n == 1 else next(it) for n in src.type.shape]
        else:
            return False
        v = src
    return False


def _is_max_reduce_of(red, x, dims) -> bool:
    """`red` reduces x alone by maximum, and its result dim j (dims[j]: the x dim it stands
    for) is x's j-th kept dim."""
    if len(red.operands) != 2 or red.operands[0] is not x or len(red.regions) != 1:
        return False
    block = red.regions[0].blocks[0]
    if len(block.ops) != 2 or block.ops[0].key != "maximum" \
            or set(block.ops[0].operands) != set(block.args) or len(block.args) != 2 \
            or block.ops[1].operands[0] is not block.ops[0].results[0]:
        return False
    reduced = set(red.attrs["dimensions"])
    kept = [d for d in range(len(x.type.shape)) if d not in reduced]
    return len(kept) == len(dims) and all(
        d == k or (d is None and x.type.shape[k] == 1) for d, k in zip(dims, kept))


RANGES = {
    "constant": _constant,
    "tanh": _monotone(math.tanh), "logistic": _monotone(_logistic),
    "exponential": _monotone(math.exp), "abs": _abs,
    "negate": lambda op, r: (-r[0][1], -r[0][0]),
    "add": _interval(lambda x, y: x + y), "subtract": _subtract,
    "multiply": _interval(lambda x, y: x * y),
    "maximum": _interval(max), "minimum": _interval(min), "clamp": _clamp,
    # the same values in another shape
    "broadcast_in_dim": _first, "broadcast": _first, "reshape": _first, "transpose": _first,
    "slice": _first, "dynamic_broadcast_in_dim": _first, "dynamic_reshape": _first,
}


def value_range(v, depth: int = DEPTH) -> tuple:
    """(lo, hi) bounding every non-NaN value of float HLO value `v`."""
    op = v.owner
    if depth == 0 or not isinstance(op, Operation) or not is_float(v.type.elem):
        return FULL
    rule = RANGES.get(op.key)
    if rule is None:
        return FULL
    ranges = [value_range(x, depth - 1) for x in op.operands]
    lo, hi = rule(op, ranges)
    return (lo, hi) if lo <= hi else FULL
