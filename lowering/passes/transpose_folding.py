"""Transposes folded into the dots that read them.

dot_general(a, transpose(x)) is dot_general(a, x) with the transpose's permutation applied to
the operand's batch and contracting dims, as long as its free dims keep their order (they
give the result's). The packed matmul addresses each operand by strides and packs it anyway,
so it then reads x in place, where the transpose was a kernel of its own copying x across
strides first: an attention's K^T, the GPT benchmark's 4 x 64 x 128 per layer, is a gather
at a stride of 768 floats (47 us a layer on one core, 1.6 % of the model). XLA's
TransposeFolding pass does the same.

Only where the folded dot goes to the packed matmul (the target has its blocking for the
type, and its override takes the dot): the generic loop-form dot walks its operands in index
order, where a strided one is slower than a transposed copy read once, and a GPU's tiled
matmul has not been measured with it. A transpose that has no other reader goes away.
"""
from __future__ import annotations

from lowering.ir.core import Block, Module, Operation, uses
from lowering.ops import registry


def fold_transposes(module: Module, target) -> Module:
    for func in module.functions():
        if func.regions:
            _fold_block(func.regions[0].blocks[0], target)
    return module


def _fold_block(block: Block, target) -> None:
    for op in block.ops:
        for region in op.regions:  # loop bodies and branches
            for inner in region.blocks:
                _fold_block(inner, target)
    folded = False
    for op in block.ops:
        if op.key != "dot_general" or target.blocking(op.results[0].type.elem) is None:
            continue  # no packed matmul for it here
        for side in (0, 1):
            t = op.operands[side].owner
            if isinstance(t, Operation) and t.key == "transpose" and t.parent is block:
                folded |= _fold(op, side, t, target)
    if folded:
        users = uses(block.ops)
        block.ops = [op for op in block.ops
                     if op.key != "transpose" or any(users.get(r) for r in op.results)]


def _fold(dot: Operation, side: int, transpose: Operation, target) -> bool:
    """Make `dot` read `transpose`'s operand in its place, if that keeps the result's order
    and leaves the dot to a target kernel; says whether it did."""
    perm = list(transpose.attrs["permutation"])
    prefix = ("lhs", "rhs")[side]
    old_dims, old_operand = dot.attrs["dot_dimension_numbers"], dot.operands[side]
    batch = old_dims[f"{prefix}_batching_dimensions"]
    contract = old_dims[f"{prefix}_contracting_dimensions"]
    free = [d for d in range(len(perm)) if d not in batch and d not in contract]
    if [perm[d] for d in free] != sorted(perm[d] for d in free):
        return False
    dot.attrs["dot_dimension_numbers"] = {
        **old_dims, f"{prefix}_batching_dimensions": tuple(perm[d] for d in batch),
        f"{prefix}_contracting_dimensions": tuple(perm[d] for d in contract)}
    dot.operands[side] = transpose.operands[0]
    if registry.rule(dot, "kernel", target) is not registry.lookup(dot.key).kernel:
        return True  # the packed matmul's override takes it (on a target with its blocking)
    dot.attrs["dot_dimension_numbers"], dot.operands[side] = old_dims, old_operand
    return False
