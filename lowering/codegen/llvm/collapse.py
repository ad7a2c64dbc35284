"""A parallel kernel's loop nest split over threads across its whole iteration space.

The loop stage marks a kernel's outermost loop (dim 0 of its output) as the one the thread
pool may split; alone, a [1, N] or [2, N] output then leaves threads idle (tanh -> exp on
[1, 4M] f32: 2.3 ms on two threads, 1.45 ms as [4M]). When that loop heads a perfect nest
(each loop's body only the next loop, and constants) whose iterations write disjoint
elements, the host's `[begin, end)` counts the nest's collapsed iterations instead, row-major,
and each task walks its share as the same nest with partial first and last rows: level l
runs from begin's digit l while the outer ivs are begin's digits (else 0), to end - 1's digit
l + 1 while they are end - 1's (else the whole extent). The innermost loop keeps its stride-1
body, so it vectorises as before, and a task pays a few divisions to find its digits.

A nest collapses only where that is safe and cheap to prove on the loop-stage IR:

- every loop starts at 0 with step 1 and carries no values; each extent is a constant, a
  dim of a kernel argument or a run-time dim argument, so the host computes the same count
  from the call's operands (`extents`);
- every memref.store in the nest, and every memref.load of a buffer the nest stores to,
  indexes with the collapsed ivs at the same positions of that buffer (usually first, in
  order): iterations write disjoint elements and read none another writes;
- its ops are only loads, stores, dims, scf loops and branches, and arith/math: no calls,
  library ops or copies; and the kernel's buffers are distinct (not in place).

Trailing loops of constant extent, at most `WHOLE_ROWS` iterations between them, stay out
of the collapse: each task runs them whole, between constant bounds LLVM unrolls and
vectorises. Split with the rest, their bounds were run-time selects, so a [?, 1152, 2, 2]
batch norm + SiLU ran its 2-long rows scalar, 14.9 ns an element, and an 8-long row missed
the vector loop's 32-element minimum (3.5 ns); whole, 3.2 and 1.3 ns (one core), and
EfficientNet-B0 at batch 32 took 0.81 of its time. A task's share is then whole trailing
blocks (a [1, 4M] output, whose row is long, still splits inside it; a parallel kernel has
at least 32K elements, so 32 blocks or more).

A loop of constant extent 1 needs no index (its iv is always 0). A loop the loop stage marks
`aot.chunks` (a concatenation's pieces of a row, passes/loops.py) ends the nest: its
iterations write disjoint elements by its emitter's construction, so the stores need only
be indexed by the ivs outside it.

Only a target whose thread pool splits ranges this way (`Target.collapse_nests`, the CPU's)
collapses: a GPU maps its parallel loop's iterations onto its grid by its own rule
(cuda/device.py), so it keeps dim 0.
"""
from __future__ import annotations

from llvmlite import ir

from lowering.ir.core import MemRefType
from lowering.target import WHOLE_ROWS

I64 = ir.IntType(64)
PURE_PREFIXES = ("arith.", "math.")
ALLOWED = {"memref.load", "memref.store", "memref.dim", "scf.for", "scf.yield", "scf.if",
           "scf.while", "scf.condition"}


def _constant(v):
    """The integer value of an arith.constant result, else None."""
    op = v.owner
    if getattr(op, "name", None) == "arith.constant" and isinstance(op.attrs.get("value"), int):
        return op.attrs["value"]
    return None


def _extent_source(v, func):
    """How the host finds a loop's extent: ("const", n), ("dim", argument, d) or ("arg",
    argument), arguments numbered as the kernel's (the call's operands); None otherwise."""
    args = func.regions[0].blocks[0].args
    if _constant(v) is not None:
        return ("const", _constant(v))
    if v in args:
        return ("arg", args.index(v))
    op = v.owner
    if getattr(op, "name", None) == "memref.dim" and op.operands[0] in args:
        d = _constant(op.operands[1])
        if d is not None:
            return ("dim", args.index(op.operands[0]), d)
    return None


def _perfect_chain(loop) -> list:
    """The loops of the perfect nest headed by `loop`: each body holds only constants, the
    next loop and its yield."""
    chain = [loop]
    while True:
        body = chain[-1].regions[0].blocks[0].ops
        inner = [o for o in body if o.name == "scf.for"]
        rest = [o for o in body if o.name not in ("scf.for", "scf.yield", "arith.constant")]
        if len(inner) != 1 or rest:
            return chain
        chain.append(inner[0])


def _without_short_rows(chain: list) -> list:
    """`chain` without its trailing loops of constant extent, at most WHOLE_ROWS iterations
    together (a chunks loop stays: its pieces are what splits a [1, N] concatenation)."""
    whole = 1
    while len(chain) > 1 and not chain[-1].attrs.get("aot.chunks"):
        n = _constant(chain[-1].operands[1])
        if n is None or whole * n > WHOLE_ROWS:
            break
        whole *= n
        chain = chain[:-1]
    return chain


def _iv_positions(op, ivs, first: int):
    """Where a load or store's indices (from operand `first` on) hold each of `ivs` (None, a
    loop of one iteration, is not looked for), or None if one is missing. Stores, and loads
    of what is stored, that hold the collapsed ivs at the same positions of a buffer touch
    disjoint elements per iteration: usually the leading ones in order, but a loop nest
    walked in another order (loops.element_order) holds them elsewhere."""
    idx = op.operands[first:]
    positions = []
    for iv in ivs:
        if iv is not None:
            at = next((k for k, a in enumerate(idx) if a is iv), None)
            if at is None:
                return None
            positions.append(at)
    return tuple(positions)


def _in_place(func) -> bool:
    """Whether a buffer argument is the same buffer as an earlier one (`aot.aliased`; the
    run-time dims passed twice do not count)."""
    same_as = func.attrs.get("aot.aliased") or ()
    args = func.regions[0].blocks[0].args
    return any(j != k and isinstance(args[k].type, MemRefType) for k, j in enumerate(same_as))


def collapsed_loops(func, target) -> list:
    """The loops of `func`'s parallel nest that the thread pool splits together, outermost
    first: just the parallel loop when the nest cannot collapse (see the module's doc)."""
    body = func.regions[0].blocks[0]
    loops = [o for o in body.ops if o.name == "scf.for" and o.attrs.get("aot.parallel")]
    if len(loops) != 1:
        return loops
    head = loops[0]
    if target is None or not target.collapse_nests or _in_place(func) \
            or head.attrs.get("aot.rows_per_iteration", 1) != 1:
        return [head]
    ops = list(head.walk())[1:]
    if any(o.name not in ALLOWED and not o.name.startswith(PURE_PREFIXES) for o in ops):
        return [head]
    chain = []
    for loop in _perfect_chain(head):
        lb, ub, step = loop.operands[:3]
        if len(loop.operands) > 3 or _constant(lb) != 0 or _constant(step) != 1 \
                or _extent_source(ub, func) is None:
            break
        chain.append(loop)
        if loop.attrs.get("aot.chunks"):
            break
    chain = _without_short_rows(chain)
    if len(chain) < 2:
        return [head]
    keyed = chain[:-1] if chain[-1].attrs.get("aot.chunks") else chain
    ivs = [None if _constant(loop.operands[1]) == 1 else loop.regions[0].blocks[0].args[0]
           for loop in keyed]
    at: dict = {}  # written buffer -> where its accesses hold the ivs
    for o in ops:
        if o.name == "memref.store":
            at.setdefault(id(o.operands[1]), set()).add(_iv_positions(o, ivs, 2))
    for o in ops:
        if o.name == "memref.load" and id(o.operands[0]) in at:
            at[id(o.operands[0])].add(_iv_positions(o, ivs, 1))
    if any(len(where) != 1 or None in where for where in at.values()):
        return [head]
    return chain


def extents(func, target, operand_value) -> list:
    """The collapsed loops' extents, from `operand_value(i)`: the i-th operand as the caller
    sees it (a buffer with `.dims`, or an i64 value). Empty when the nest does not collapse."""
    loops = collapsed_loops(func, target) if func is not None else []
    out = []
    for loop in (loops if len(loops) > 1 else []):
        source = _extent_source(loop.operands[1], func)
        if source[0] == "const":
            out.append(ir.Constant(I64, source[1]))
        elif source[0] == "arg":
            out.append(operand_value(source[1]))
        else:
            out.append(operand_value(source[1]).dims[source[2]])
    return out


class CollapsedRange:
    """One task's share [begin, end) of a collapsed nest, as bounds per loop."""

    def __init__(self, b: ir.IRBuilder, loops: list, sizes: list, begin, end):
        self.loops = loops
        self.level = {id(loop): i for i, loop in enumerate(loops)}
        self.sizes = sizes
        self.empty = b.icmp_signed(">=", begin, end)
        self.first = self._digits(b, begin)
        self.last = self._digits(b, b.sub(end, ir.Constant(I64, 1)))

    def _digits(self, b, flat) -> list:
        """flat's index per level (row-major over `sizes`; a zero extent divides as 1)."""
        digits = []
        for n in reversed(self.sizes[1:]):
            n1 = b.select(b.icmp_signed(">", n, ir.Constant(I64, 0)), n, ir.Constant(I64, 1))
            digits.append(b.srem(flat, n1))
            flat = b.sdiv(flat, n1)
        return [flat] + digits[::-1]

    def _row(self, b, digits: list):
        """The row-major number of the row whose outer digits are `digits`."""
        row = ir.Constant(I64, 0)
        for n, d in zip(self.sizes, digits):
            row = b.add(b.mul(row, n), d)
        return row

    def bounds(self, b, loop, ivs: list):
        """[lo, hi) of `loop` given the ivs of the loops outside it: a partial range on the
        task's first and last rows, the whole extent between them. A row is the first (last)
        when its number is the first's, one comparison: compared digit by digit, each
        outer loop held a comparison of its own iv that the inner loops' bounds test, and
        LLVM unswitched them on it, copying the innermost (vectorised) loop four times for
        nothing a call runs faster (BLOOM's `?` mask kernel: 100 -> 45 ms of LLVM)."""
        level = self.level[id(loop)]
        on_first = on_last = ir.Constant(ir.IntType(1), 1)
        if ivs:
            row = self._row(b, ivs)
            on_first = b.icmp_signed("==", row, self._row(b, self.first[:len(ivs)]))
            on_last = b.icmp_signed("==", row, self._row(b, self.last[:len(ivs)]))
        zero = ir.Constant(I64, 0)
        lo = b.select(on_first, self.first[level], zero)
        hi = b.select(on_last, b.add(self.last[level], ir.Constant(I64, 1)), self.sizes[level])
        if level == 0:
            hi = b.select(self.empty, lo, hi)
        return lo, hi


def loop_bounds(g, b, op, values: dict, lb, ub):
    """emit_for's bounds for `op`: a task's share of a collapsed nest for its loops (the
    parallel loop on entry, with `g.parallel_range`), else (lb, ub) as they are."""
    active = getattr(g, "collapsed_range", None)
    if op.attrs.get("aot.parallel") and g.parallel_range is not None:
        func = op.parent.parent.parent
        loops = collapsed_loops(func, g.target)
        g.collapsed_range = active = None
        if len(loops) < 2:
            return lb, ub
        args = func.regions[0].blocks[0].args
        sizes = extents(func, g.target, lambda i: values[args[i]])
        g.collapsed_range = active = CollapsedRange(b, loops, sizes, *g.parallel_range)
    if active is None or id(op) not in active.level:
        return lb, ub
    outer = active.loops[:active.level[id(op)]]
    return active.bounds(b, op, [values[loop.regions[0].blocks[0].args[0]] for loop in outer])
