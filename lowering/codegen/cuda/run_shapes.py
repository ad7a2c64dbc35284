"""Shapes for `--report`'s estimate of kernels whose dims are known only at run time.

The time model needs every buffer's dims. For a program with `?` dims, `--report` takes the
entry arguments' shapes from `--shape-hint` (one value for every `?`, or one shape per
argument), else from the largest shape the program allows: the upper bounds its host code
checks on each `?` (bounded dynamism, `#stablehlo.bounds`). With no bound and no hint there is
no estimate. From those argument shapes, `kernel_shapes` follows the host code's shape
arithmetic (dims, index math, allocations, small shape buffers it stores and loads) to each
kernel call, so every kernel gets its buffers' dims as the host would compute them; a kernel
whose dims depend on data a kernel computed (a data-dependent count) gets none.
"""
from __future__ import annotations

import operator

from lowering.ir.core import MemRefType

INDEX_ARITH = {"arith.addi": lambda a, b: a + b, "arith.subi": lambda a, b: a - b,
               "arith.muli": lambda a, b: a * b, "arith.divui": lambda a, b: a // b if b else None,
               "arith.divsi": lambda a, b: a // b if b else None,
               "arith.ceildivui": lambda a, b: -(-a // b) if b else None,
               "arith.remui": lambda a, b: a % b if b else None, "arith.minui": min, "arith.maxui": max,
               "arith.minsi": min, "arith.maxsi": max}

COMPARE = {"eq": operator.eq, "ne": operator.ne, "slt": operator.lt, "sle": operator.le,
           "sgt": operator.gt, "sge": operator.ge, "ult": operator.lt, "ule": operator.le,
           "ugt": operator.gt, "uge": operator.ge}
PASS_THROUGH = ("arith.index_cast", "arith.extsi", "arith.extui", "arith.trunci")
LOGIC = {"arith.andi": operator.and_, "arith.ori": operator.or_}


def entries(module) -> list:
    """The module's entry functions (not kernels, not shape queries)."""
    return [f for f in module.functions() if "aot.kernel" not in f.attrs
            and "aot.shape_query" not in f.attrs and "aot.num_inputs" in f.attrs]


def parse_hint(text: str):
    """`--shape-hint`: an int N (every `?` dim is N) or per-argument shapes, comma-separated,
    dims joined by 'x' (an empty one for a rank-0 argument). ValueError when malformed."""
    text = text.strip()
    if text.isdigit():
        return int(text)
    try:
        return [tuple(int(d) for d in s.strip().split("x")) if s.strip() else () for s in text.split(",")]
    except ValueError:
        raise ValueError(f"--shape-hint '{text}': want an integer (every run-time dim) or one "
                         "shape per argument, e.g. 2048x1024,2048x1024") from None


def argument_shapes(func, hint) -> tuple[list | None, str]:
    """The entry's argument shapes for the estimate, and how they were chosen (the label the
    report prints); (None, why not) when there are none."""
    inputs = [t for t in func.attrs["function_type"].inputs]
    shapes = [tuple(t.shape) if isinstance(t, MemRefType) else () for t in inputs]
    if not any(None in s for s in shapes):
        return shapes, ""
    bounds = checked_bounds(func)
    if hint is not None:
        if isinstance(hint, int):
            hinted, label = [tuple(hint if d is None else d for d in s) for s in shapes], \
                f"at every run-time dim = {hint} (--shape-hint)"
        else:
            hinted, label = list(hint), "at the shapes of --shape-hint"
        def fits(h, s):
            return len(h) == len(s) and all(d is None or d == e for d, e in zip(s, h))
        if len(hinted) != len(shapes) or not all(map(fits, hinted, shapes)):
            want = ",".join("x".join("?" if d is None else str(d) for d in s) for s in shapes)
            return None, f"no estimate: --shape-hint does not match the arguments {want}"
        over = [f"argument #{i} dim {k}: {hinted[i][k]} > {b}" for (i, k), b in sorted(bounds.items())
                if hinted[i][k] > b]
        if over:
            return None, f"no estimate: --shape-hint passes the arguments' bounds ({'; '.join(over)})"
        return hinted, label
    out = []
    for i, s in enumerate(shapes):
        if any(d is None and (i, k) not in bounds for k, d in enumerate(s)):
            return None, ("no estimate: its shapes are known only at run time (give them with "
                          "--shape-hint)")
        out.append(tuple(bounds[(i, k)] if d is None else d for k, d in enumerate(s)))
    return out, "at the largest shapes the arguments' bounds allow"


def checked_bounds(func) -> dict:
    """(argument, dim) -> the largest size the entry's checks allow (`aot.check` of dim <= N or
    dim < N against a constant)."""
    args = {id(a): i for i, a in enumerate(func.regions[0].blocks[0].args)}
    consts, dims, out = {}, {}, {}
    for op in func.regions[0].blocks[0].ops:
        if op.name == "arith.constant" and isinstance(op.attrs.get("value"), int):
            consts[id(op.results[0])] = op.attrs["value"]
        elif op.name == "memref.dim" and id(op.operands[0]) in args and id(op.operands[1]) in consts:
            dims[id(op.results[0])] = (args[id(op.operands[0])], consts[id(op.operands[1])])
        elif op.name == "aot.check":
            cmp = op.operands[0].owner
            if getattr(cmp, "name", "") != "arith.cmpi" or cmp.attrs["predicate"] not in ("sle", "slt"):
                continue
            lhs, rhs = (id(v) for v in cmp.operands)
            if lhs in dims and rhs in consts:
                bound = consts[rhs] - (cmp.attrs["predicate"] == "slt")
                out[dims[lhs]] = min(bound, out.get(dims[lhs], bound))
    return out


def kernel_shapes(func, shapes: list) -> dict:
    """Kernel symbol -> (each call operand's dims (a tuple for a buffer) or value (an int, or
    None when unknown), the call's attributes), at its first call in `func` whose buffers'
    dims all follow from the argument `shapes`."""
    known: dict = {}  # id(value) -> int, or a tuple of dims for a buffer
    stored: dict = {}  # id(buffer) -> {index tuple: int}: a shape buffer the host fills
    for a, s in zip(func.regions[0].blocks[0].args, shapes):
        known[id(a)] = tuple(s)
    out = {}

    def value(v):
        return known.get(id(v))

    for op in func.walk():
        vals = [value(v) for v in op.operands]
        res = op.results[0] if op.results else None
        if op.name == "arith.constant" and isinstance(op.attrs.get("value"), int):
            known[id(res)] = op.attrs["value"]
        elif op.name == "memref.dim" and isinstance(vals[0], tuple) and isinstance(vals[1], int):
            known[id(res)] = vals[0][vals[1]]
        elif op.name in INDEX_ARITH and len(vals) == 2 and None not in vals:
            known[id(res)] = INDEX_ARITH[op.name](*vals)
        elif op.name in PASS_THROUGH and vals[0] is not None:
            known[id(res)] = vals[0]
        elif op.name == "arith.cmpi" and None not in vals:
            known[id(res)] = int(COMPARE[op.attrs["predicate"]](*vals))
        elif op.name in LOGIC and None not in vals:
            known[id(res)] = LOGIC[op.name](*vals)
        elif op.name == "arith.select" and vals[0] is not None:
            known[id(res)] = vals[1] if vals[0] else vals[2]
        elif op.name in ("memref.alloc", "memref.alloca", "memref.get_global") and res is not None:
            sizes = iter(vals)
            dims = tuple(next(sizes, None) if d is None else d for d in res.type.shape)
            if None not in dims:
                known[id(res)] = dims
        elif op.name == "memref.store" and id(op.operands[1]) in known:
            stored.setdefault(id(op.operands[1]), {})[tuple(vals[2:])] = vals[0]
        elif op.name == "memref.load" and res is not None:
            known[id(res)] = stored.get(id(op.operands[0]), {}).get(tuple(vals[1:]))
            if known[id(res)] is None:
                del known[id(res)]
        elif op.name == "func.call":
            for i in op.attrs.get("aot.writes", ()):  # a kernel's writes are data
                stored.pop(id(op.operands[i]), None)
            buffers = [v for v, o in zip(vals, op.operands) if isinstance(o.type, MemRefType)]
            if all(isinstance(b, tuple) for b in buffers):
                out.setdefault(op.attrs["callee"].name, (vals, op.attrs))
    return out
