"""The elemental emitter: a fused tensor value's scalar at an index, computed by pulling each
producer's value at the index it needs (the ops' `elemental` rules in the registry), so
intermediate values never touch memory, as XLA's elemental IR emitter does."""
from __future__ import annotations

from lowering.ir.builder import Ix, LoopBuilder
from lowering.ir.core import INDEX, Block, Region, ScalarType, Value
from lowering.ops import registry


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


def combine_lanes(b: LoopBuilder, region: Region, accs: list, lanes: int) -> list:
    """A warp's partial results combined with a reduction's body by butterfly shuffles
    (offsets lanes/2 ... 1): every lane ends with the combination of all."""
    offset = lanes // 2
    while offset:
        others = [b.v("gpu.shuffle_xor", [a], a.type, offset=offset) for a in accs]
        accs = apply_region(b, region, list(accs) + others)
        offset //= 2
    return accs


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
