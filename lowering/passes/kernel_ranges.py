"""Index arithmetic a kernel's loop bounds decide, folded at the loop stage.

A gather's start index is clamped into its operand (`min(max(i, 0), n - 1)`) and PyTorch's
indexing wraps a negative index first (`i < 0 ? i + n : i`). Where the index is a loop's
iv (an iota: a `?` program's arange, which its static form folds into a constant table), its
range is the loop's, `[0, n - 1]`, and neither can change it. LLVM cannot see that: a task
starts its loops at run-time digits (llvm/collapse.py), and the clamp's bound is another
argument than the loop's unless loops.dims_as_arguments made them one. BLOOM's `?` mask
kernel (mask[b, j] at the wrapped and clamped (b, j)) was vectorised as eight scalar loads
per vector behind the selects, four times over.

Ranges are pairs of bounds `(base, offset)`: `base + offset` for a Value base, the constant
`offset` for base None. A loop's iv lies in [its start, its end - 1]; a sum with a constant,
a cast to index or i64 keeps its operand's range; any other value is its own bound.
Comparisons two ranges decide become constants, selects on constants their chosen operand,
and min/max whose operands' ranges are ordered their smaller/larger operand.
"""
from __future__ import annotations

from lowering.ir.core import Operation, Value

CASTS = ("arith.index_cast", "arith.extsi")
WIDE = ("index", "i64")  # cast results that hold every index value
# predicate -> (holds when, fails when): for ranges x in [xl, xh], y in [yl, yh]
DECIDE = {
    "slt": (lambda xl, xh, yl, yh: _le(xh, yl, 1), lambda xl, xh, yl, yh: _le(yh, xl)),
    "sle": (lambda xl, xh, yl, yh: _le(xh, yl), lambda xl, xh, yl, yh: _le(yh, xl, 1)),
    "sgt": (lambda xl, xh, yl, yh: _le(yh, xl, 1), lambda xl, xh, yl, yh: _le(xh, yl)),
    "sge": (lambda xl, xh, yl, yh: _le(yh, xl), lambda xl, xh, yl, yh: _le(xh, yl, 1)),
}


def _le(a, b, gap: int = 0) -> bool:
    """Bound a + gap <= bound b, decided when they share a base."""
    return a is not None and b is not None and a[0] is b[0] and a[1] + gap <= b[1]


def _shift(bound, k: int):
    return None if bound is None else (bound[0], bound[1] + k)


def _constant(v: Value):
    op = v.owner
    if isinstance(op, Operation) and op.name == "arith.constant" and \
            isinstance(op.attrs.get("value"), int) and not isinstance(op.attrs["value"], bool):
        return op.attrs["value"]
    return None


def simplify(fn: Operation) -> None:
    """Fold, in kernel `fn`, what its loops' ranges decide (the module docstring)."""
    ranges: dict = {}

    def rng(v: Value):
        if v in ranges:
            return ranges[v]
        c = _constant(v)
        return ((None, c), (None, c)) if c is not None else ((v, 0), (v, 0))

    for op in fn.walk():
        name = op.name
        if name == "scf.for":
            lb, ub, step = op.operands[:3]
            if _constant(step) is not None and _constant(step) > 0:
                ranges[op.regions[0].blocks[0].args[0]] = (rng(lb)[0], _shift(rng(ub)[1], -1))
            continue
        if len(op.results) != 1:
            continue
        r = op.results[0]
        if name in CASTS and str(r.type) in WIDE:  # (a cast to i32 may wrap)
            ranges[r] = rng(op.operands[0])
        elif name in ("arith.addi", "arith.subi"):
            x, y = op.operands
            k = _constant(y)
            if k is None and name == "arith.addi" and _constant(x) is not None:
                x, k = y, _constant(x)
            if k is not None:
                lo, hi = rng(x)
                k = k if name == "arith.addi" else -k
                ranges[r] = (_shift(lo, k), _shift(hi, k))
        elif name == "arith.cmpi" and op.attrs.get("predicate") in DECIDE:
            bounds = rng(op.operands[0]) + rng(op.operands[1])
            holds, fails = DECIDE[op.attrs["predicate"]]
            if holds(*bounds) or fails(*bounds):
                op.operands, op.name = [], "arith.constant"
                op.attrs = {"value": bool(holds(*bounds))}
        elif name == "arith.select":
            c = op.operands[0].owner
            if isinstance(c, Operation) and c.name == "arith.constant" and \
                    isinstance(c.attrs.get("value"), bool) and r.type == op.operands[1].type:
                r.replace_all_uses_with(op.operands[1 if c.attrs["value"] else 2])
        elif name in ("arith.minsi", "arith.maxsi"):
            x, y = op.operands
            (xl, xh), (yl, yh) = rng(x), rng(y)
            if name == "arith.minsi":
                keep = x if _le(xh, yl) else y if _le(yh, xl) else None
            else:
                keep = x if _le(yh, xl) else y if _le(xh, yl) else None
            if keep is not None:
                r.replace_all_uses_with(keep)
                ranges[r] = rng(keep)
