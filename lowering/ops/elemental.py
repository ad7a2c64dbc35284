"""The elemental emitter: a fused tensor value's scalar at an index, computed by pulling each
producer's value at the index it needs (the ops' `elemental` rules in the registry), so
intermediate values never touch memory, as XLA's elemental IR emitter does."""
from __future__ import annotations

from lowering.ir.builder import Ix, LoopBuilder
from lowering.ir.core import (
    INDEX,
    Block,
    Operation,
    Region,
    ScalarType,
    Value,
    bit_width,
    is_complex,
    is_float,
    is_unsigned,
)
from lowering.ops import registry

BROADCASTS = ("broadcast_in_dim", "dynamic_broadcast_in_dim")


def reads_at_own_index(x: Value, inputs: dict, per_dims=(), stop=None,
                       broadcasts=BROADCASTS) -> bool:
    """Whether every element of x is computed, through elementwise ops, from the elements at
    its own index of buffers of x's shape, or from broadcasts (of `broadcasts`' kinds) whose
    operand varies only along `per_dims` (none: scalars); `stop` is not looked into. Then a
    kernel may walk x's index in any order of the same row-major address (a reduction's run
    of dims as one loop, a depthwise plane as one row)."""
    shape = tuple(x.type.shape)
    frontier, seen = [x], set()
    while frontier:
        v = frontier.pop()
        if v is stop or v in seen or v.type.rank == 0:
            continue
        seen.add(v)
        if v in inputs:
            if tuple(inputs[v].type.shape) != shape:
                return False
            continue
        op = v.owner
        if not isinstance(op, Operation) or tuple(v.type.shape) != shape:
            return False
        if op.key in broadcasts and set(op.attrs["broadcast_dimensions"]) <= set(per_dims):
            continue  # its operand is read at the kept dims only
        if not registry.is_kind(op.key, "elementwise"):
            return False
        frontier.extend(op.operands)
    return True


class Elemental:
    """Computes a fused tensor value's scalar at an index, recursively through producers."""

    def __init__(self, b: LoopBuilder, inputs: dict, scalars: dict | None = None,
                 dims: dict | None = None):
        self.b = b
        self.inputs = inputs  # region block arg -> kernel buffer argument
        self.scalars = scalars or {}  # value -> scalar already computed (reduce bodies)
        self.dim_env = dims or {}  # region value -> [int | index Value], its run-time dims
        self.cache: dict = {}
        self.ix = Ix(b)  # index arithmetic, folding ints
        # index value -> [(value, size)...], outermost first: the value is their row-major
        # linearisation (a loop of the output split into several: loops.refined_loops), so a
        # reshape that splits it again reads the parts instead of dividing (reshape_parts)
        self.splits: dict = {}

    def linear(self, parts: list):
        """The row-major linearisation of [(index, size)...], outermost first, its parts
        remembered for reshapes (splits)."""
        value = parts[0][0] if parts else 0
        for v, n in parts[1:]:
            value = self.ix.add(self.ix.mul(value, n), v)
        if len(parts) > 1 and not isinstance(value, int):
            self.splits[value] = list(parts)
        return self.ix.val(value)

    def dims(self, v: Value) -> list:
        """v's dims: static ints, or index values the kernel received or read."""
        if v in self.dim_env:
            return self.dim_env[v]
        if v in self.inputs:
            buf = self.inputs[v]
            return [n if n is not None else self.b.v("memref.dim", [buf, self.b.index(d)], INDEX)
                    for d, n in enumerate(buf.type.shape)]
        return list(v.type.shape)

    def scalar_index(self, v: Value, idx: list) -> Value:
        """An integer tensor element (a start index) as an index value."""
        x = self.at(v, idx)
        return self.b.v("arith.index_cast", [x], INDEX)

    def clamp(self, x, lo, hi) -> Value:
        b = self.b
        x = b.v("arith.maxsi", [x, self.ix.val(lo)], INDEX)
        return b.v("arith.minsi", [x, self.ix.val(hi)], INDEX)

    def at(self, v: Value, idx: list) -> Value:
        if v in self.scalars:
            return self.scalars[v]
        key = (v, tuple(map(id, idx)))
        if key not in self.cache:
            self.cache[key] = self._compute(v, idx)
        return self.cache[key]

    def _compute(self, v: Value, idx: list) -> Value:
        b = self.b
        if v in self.inputs:
            buf = self.inputs[v]
            return b.v("memref.load", [buf] + list(idx), ScalarType(buf.type.elem))
        op = v.owner
        rule = registry.rule(op, "elemental", b.target)
        if rule is None:
            raise op.error("cannot be computed inside a fused kernel")
        return rule(self, op, idx)


def _extreme(elem: str, highest: bool):
    """The largest (or smallest) value of a float or integer type: min's (max's) identity."""
    if is_float(elem):
        return float("inf") if highest else float("-inf")
    if elem == "i1":
        return highest
    bits = bit_width(elem)
    if is_unsigned(elem):
        return (1 << bits) - 1 if highest else 0
    return (1 << (bits - 1)) - 1 if highest else -(1 << (bits - 1))


IDENTITIES = {  # a single-op body's identity for an element type (None: not a combiner of it)
    "add": lambda e: (-0.0 if is_float(e) else False if e == "i1" else 0),  # -0.0 + -0.0 stays -0.0
    "multiply": lambda e: True if e == "i1" else 1,
    "maximum": lambda e: None if is_complex(e) else _extreme(e, False),
    "minimum": lambda e: None if is_complex(e) else _extreme(e, True),
    "or": lambda e: None if is_float(e) or is_complex(e) else False if e == "i1" else 0,
    "xor": lambda e: None if is_float(e) or is_complex(e) else False if e == "i1" else 0,
    "and": lambda e: (None if is_float(e) or is_complex(e) else True if e == "i1"
                      else _extreme(e, True) if is_unsigned(e) else -1),
}


def body_identity(root: Operation):
    """The identity of a one-result reduce's body when it is one op of IDENTITIES on its two
    arguments, else None."""
    block = root.regions[0].blocks[0]
    if len(block.args) != 2 or len(block.ops) != 2:
        return None
    op, ret = block.ops
    if op.key not in IDENTITIES or set(op.operands) != set(block.args) \
            or list(ret.operands) != list(op.results):
        return None
    return IDENTITIES[op.key](root.operands[1].type.elem)


class Partial:
    """A thread's partial result of a reduce, without the init: a state of values carried
    through loops, shuffles and shared memory. With the body's identity known, the state is
    the accumulators, started from the identity; else it is the accumulators and an i1 flag
    (does it hold an element yet?), started from placeholders (the init values) and false,
    the first element taking the placeholder's place. `finish` joins the init once."""

    def __init__(self, root: Operation, inits: list):
        self.region, self.inits = root.regions[0], inits
        self.identity = body_identity(root)

    def seed(self, b: LoopBuilder) -> list:
        if self.identity is not None:
            return [b.const(self.identity, self.inits[0].type.name)]
        return list(self.inits) + [b.const(False, "i1")]

    def _split(self, state):
        return (state, None) if self.identity is not None else (state[:-1], state[-1])

    def fold(self, b: LoopBuilder, state: list, xs: list) -> list:
        """The state with elements xs folded in."""
        accs, flag = self._split(state)
        both = apply_region(b, self.region, list(accs) + xs)
        if flag is None:
            return both
        return [b.v("arith.select", [flag, v, x], x.type) for v, x in zip(both, xs)] + [b.const(True, "i1")]

    def join(self, b: LoopBuilder, one: list, other: list) -> list:
        """Two states combined (one's elements first)."""
        a, fa = self._split(one)
        c, fc = self._split(other)
        both = apply_region(b, self.region, list(a) + list(c))
        if fa is None:
            return both
        i1 = ScalarType("i1")
        full = b.v("arith.andi", [fa, fc], i1)
        either = [b.v("arith.select", [fa, x, y], x.type) for x, y in zip(a, c)]
        return ([b.v("arith.select", [full, v, e], v.type) for v, e in zip(both, either)]
                + [b.v("arith.ori", [fa, fc], i1)])

    def finish(self, b: LoopBuilder, state: list) -> list:
        """The results: the init joined once with the partial (the init alone if empty)."""
        accs, flag = self._split(state)
        out = apply_region(b, self.region, list(self.inits) + list(accs))
        if flag is None:
            return out
        return [b.v("arith.select", [flag, v, i], v.type) for v, i in zip(out, self.inits)]

    def across_lanes(self, b: LoopBuilder, state: list, lanes: int) -> list:
        """A warp's states combined by butterfly shuffles (offsets lanes/2 ... 1): every lane
        ends with the combination of all."""
        offset = lanes // 2
        while offset:
            others = [b.v("gpu.shuffle_xor", [v], v.type, offset=offset) for v in state]
            state = self.join(b, state, others)
            offset //= 2
        return state


def apply_region(b: LoopBuilder, region: Region, args: list) -> list:
    """Inline a scalar region (a reduce body) on scalar `args`; returns its results."""
    block = region.blocks[0]
    e = Elemental(b, {}, dict(zip(block.args, args)))
    ret = block.ops[-1]
    return [e.at(v, []) for v in ret.operands]


def fusion_dims(b: LoopBuilder, region_block: Block, inputs: dict, dim_args: list) -> dict:
    """Run-time dims of every value in a fusion: inputs read once from their buffers,
    internal values from the kernel's index arguments (computed by the host)."""
    env = {}
    for arg, buf in inputs.items():
        env[arg] = [n if n is not None else b.v("memref.dim", [buf, b.index(d)], INDEX)
                    for d, n in enumerate(buf.type.shape)]
    it = iter(dim_args)
    for op in region_block.ops[:-1]:
        for r in op.results:
            env[r] = [n if n is not None else next(it) for n in r.type.shape]
    return env
