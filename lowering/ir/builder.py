"""Building loop-stage IR: a builder that appends ops to a block (and knows the target it
builds for), loop nests, and index arithmetic that folds Python ints."""
from __future__ import annotations

from contextlib import contextmanager

from lowering.ir.core import INDEX, Block, Operation, Region, ScalarType, Value

I1 = ScalarType("i1")


class LoopBuilder:
    """Appends ops to a block; `for_` opens nested `scf.for` loops."""

    def __init__(self, block: Block, loc, target=None):
        self.block = block
        self.loc = loc
        self.target = target  # the lowering.target.Target the code is for

    def op(self, name, operands, result_types=(), attrs=None, regions=()):
        return self.block.append(Operation(name, operands, result_types, attrs or {}, regions,
                                           self.loc))

    def v(self, name, operands, type, **attrs) -> Value:
        return self.op(name, operands, [type], attrs).result

    def const(self, value, elem: str) -> Value:
        if elem.startswith("complex<"):
            value = complex(value)
        elif elem in ("f16", "bf16", "f32", "f64"):
            value = float(value)
        elif elem == "i1":
            value = bool(value)
        else:
            value = int(value)
        return self.v("arith.constant", [], ScalarType(elem), value=value)

    def index(self, n: int) -> Value:
        return self.const(n, "index")

    def for_(self, lb: Value, ub: Value, inits=(), step: int = 1):
        """An `scf.for` from lb to ub; returns (op, body builder, iv, iter args)."""
        body = Block([INDEX] + [v.type for v in inits])
        op = self.op("scf.for", [lb, ub, self.index(step)] + list(inits), [v.type for v in inits],
                     {}, [Region([body])])
        return op, LoopBuilder(body, self.loc, self.target), body.args[0], body.args[1:]

    def yield_(self, values=()):
        self.op("scf.yield", list(values))


def dims_of(b: LoopBuilder, buf: Value) -> list:
    """Index values for each dim of a buffer: constants where static."""
    out = []
    for d, n in enumerate(buf.type.shape):
        out.append(b.index(n) if n is not None else b.v("memref.dim", [buf, b.index(d)], INDEX))
    return out


def open_nest(b: LoopBuilder, bounds: list):
    """Nested loops over `bounds`, left open; returns (innermost builder, induction variables).
    `loop_nest` closes them by itself; this is for nests closed somewhere else."""
    ivs = []
    for ub in bounds:
        _, b, iv, _ = b.for_(b.index(0), ub)
        ivs.append(iv)
    return b, ivs


@contextmanager
def loop_nest(b: LoopBuilder, bounds: list):
    """`with loop_nest(b, bounds) as (inner, ivs):` nested `scf.for` loops over `bounds`
    (outermost first); the body is built with `inner`, and the loops are closed when the
    block ends (by a return in it too)."""
    inner, ivs = open_nest(b, bounds)
    yield inner, ivs
    close_nest(inner, len(ivs))


def close_nest(b: LoopBuilder, depth: int):
    """Terminate `depth` nested loop bodies, innermost first."""
    block = b.block
    for _ in range(depth):
        block.append(Operation("scf.yield", [], [], {}, loc=b.loc))
        region = block.parent
        block = region.parent.parent if region.parent is not None else None
        if block is None:
            break


class Ix:
    """Index arithmetic in a loop-stage builder, folding Python ints."""

    def __init__(self, b):
        self.b = b

    def val(self, x):
        return self.b.index(x) if isinstance(x, int) else x

    def _op(self, name, a, c, fold):
        if isinstance(a, int) and isinstance(c, int):
            return fold(a, c)
        return self.b.v(name, [self.val(a), self.val(c)], INDEX)

    def add(self, a, c):
        if isinstance(c, int) and c == 0:
            return a
        if isinstance(a, int) and a == 0:
            return c
        return self._op("arith.addi", a, c, lambda x, y: x + y)

    def sub(self, a, c):
        if isinstance(c, int) and c == 0:
            return a
        return self._op("arith.subi", a, c, lambda x, y: x - y)

    def mul(self, a, c):
        if isinstance(c, int) and c == 1:
            return a
        if isinstance(a, int) and a == 1:
            return c
        return self._op("arith.muli", a, c, lambda x, y: x * y)

    def div(self, a, c):  # a >= 0, c > 0
        if isinstance(c, int) and c == 1:
            return a
        return self._op("arith.divsi", a, c, lambda x, y: x // y)

    def rem(self, a, c):
        return self._op("arith.remsi", a, c, lambda x, y: x % y)

    def min(self, a, c):
        return self._op("arith.minsi", a, c, min)

    def max(self, a, c):
        return self._op("arith.maxsi", a, c, max)

    def shl(self, a, c):
        return self._op("arith.shli", a, c, lambda x, y: x << y)

    def cmp(self, pred, a, c) -> "Value":
        return self.b.v("arith.cmpi", [self.val(a), self.val(c)], I1, predicate=pred)

    def and_(self, a, c):
        if a is None:
            return c
        return self.b.v("arith.andi", [a, c], I1)

    def or_(self, a, c):
        return self.b.v("arith.ori", [a, c], I1)

    def not_(self, a):
        return self.b.v("arith.xori", [a, self.b.const(True, "i1")], I1)

    def select(self, p, a, c, type=INDEX):
        return self.b.v("arith.select", [p, self.val(a), self.val(c)], type)


def buffer_dims(b, buf) -> list:
    """A buffer's dims: ints where static, index values read from it otherwise."""
    return [n if n is not None else b.v("memref.dim", [buf, b.index(d)], INDEX)
            for d, n in enumerate(buf.type.shape)]


@contextmanager
def element_nest(b: LoopBuilder, dims: list):
    """`with element_nest(b, dims) as (body, idx):` element_loop, closed when the block ends:
    a device kernel's rows as one flat parallel loop (all leading dims, not dim 0 alone)."""
    body, idx = element_loop(b, dims)
    yield body, idx
    body.yield_()


def element_loop(b: LoopBuilder, dims: list):
    """A device kernel's parallel loop: one iteration per element of `dims` (row-major,
    `aot.tiles` of ones: a thread per element). Returns its body and the element's index;
    the caller ends the body."""
    ix = Ix(b)
    total = 1
    for n in dims:
        total = ix.mul(total, n)
    loop, body, t, _ = b.for_(b.index(0), ix.val(total))
    loop.attrs["aot.tiles"] = (1,) * len(dims)
    bx = Ix(body)
    idx = [None] * len(dims)
    for d in reversed(range(len(dims))):
        idx[d] = bx.rem(t, dims[d]) if d else t
        t = bx.div(t, dims[d]) if d else t
    return body, idx
