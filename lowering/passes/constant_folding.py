"""Small float computations on constants evaluated when the model is compiled.

A frozen model's batch norm computes its per-channel scale and shift from constants
(rsqrt(var + eps) * weight, bias - mean * scale). Left alone, fusion copies that arithmetic
into the kernel that applies it, and the kernel recomputes it for every element it writes:
EfficientNet-B0's batch-norm + SiLU over [32, 1152, 2, 2] took an rsqrt every 4 elements.
Here each op of `FOLDS` whose operands are all constants is evaluated with numpy, and the
values the rest of the program reads become constants of their own; the ops that only fed
other folded ops disappear.

Only f32/f64 tensors of static shape up to `MAX_FOLDED_ELEMENTS` (the integer shape code is
the host's, host_shapes.SHAPE_FOLDS). A broadcast or reshape read by unfolded ops is kept,
reading its folded operand: a broadcast scale stays a [C] constant rather than one as large
as the activation.
"""
from __future__ import annotations

import math

import numpy as np

from lowering.ir.core import Block, DenseAttr, Module, Operation, TensorType, blocks, numpy_dtype, uses

MAX_FOLDED_ELEMENTS = 1 << 16
FOLDED_ELEMS = ("f32", "f64")


def _broadcast(op, x):
    shape = list(op.results[0].type.shape)
    expanded = [1] * len(shape)
    for src, dst in enumerate(op.attrs["broadcast_dimensions"]):
        expanded[dst] = x.shape[src]
    return np.broadcast_to(x.reshape(expanded), shape)


# op key -> numpy evaluation (the op, its operands' arrays); the result is cast to its type
FOLDS = {
    "add": lambda op, a, b: a + b,
    "subtract": lambda op, a, b: a - b,
    "multiply": lambda op, a, b: a * b,
    "divide": lambda op, a, b: a / b,
    "negate": lambda op, a: -a,
    "sqrt": lambda op, a: np.sqrt(a),
    "rsqrt": lambda op, a: 1 / np.sqrt(a),
    "convert": lambda op, a: a,
    "reshape": lambda op, a: a.reshape(op.results[0].type.shape),
    "broadcast_in_dim": _broadcast,
}
MOVES_ONLY = ("reshape", "broadcast_in_dim")  # kept where unfolded ops read them


def _foldable_type(t) -> bool:
    return (isinstance(t, TensorType) and t.is_static and t.elem in FOLDED_ELEMS
            and math.prod(t.shape) <= MAX_FOLDED_ELEMENTS)


def _as_shape(array: np.ndarray, shape: tuple):
    """A constant's array in its type's shape: the front ends hold a rank-0 value as [1] and
    a splat as one element; None when neither fits (the constant is then left alone)."""
    if array.size == math.prod(shape):
        return array.reshape(shape)
    if array.size == 1:
        return np.broadcast_to(array.reshape(()), shape)
    return None


def fold_constants(module: Module) -> Module:
    for block in blocks(module.functions()):  # each block alone: nested ones come after
        _fold_block(block)
    return module


def _fold_block(block: Block) -> None:
    known: dict = {}  # value -> its array, for constants and folded ops of this block
    folded: list = []
    for op in block.ops:
        if len(op.results) != 1 or not _foldable_type(op.result.type):
            continue
        t = op.result.type
        if op.key == "constant" and isinstance(op.attrs.get("value"), DenseAttr):
            array = _as_shape(np.asarray(op.attrs["value"].array), tuple(t.shape))
            if array is not None:
                known[op.result] = array
        elif op.key in FOLDS and op.operands and all(v in known for v in op.operands):
            args = [known[v] for v in op.operands]
            with np.errstate(all="ignore"):  # inf/nan as the kernel would compute them
                known[op.result] = np.asarray(FOLDS[op.key](op, *args)).astype(
                    numpy_dtype(t.elem))
            folded.append(op)
    if not folded:
        return
    users = uses(block.ops)
    is_folded = set(folded)
    outside = {op for op in folded
               if any(u not in is_folded for u in users.get(op.result, []))}
    kept, materialized = set(), set()
    for op in reversed(folded):  # a kept move reads its operand as a constant
        if op in outside or op in kept:
            if op.key in MOVES_ONLY:
                kept.add(op)
                source = op.operands[0].owner
                if source in is_folded:
                    (kept if source.key in MOVES_ONLY else materialized).add(source)
            else:
                materialized.add(op)
    new_ops, dropped = [], []
    for op in block.ops:
        if op not in is_folded or op in kept:
            new_ops.append(op)
        elif op in materialized:
            t = op.result.type
            const = Operation("mhlo.constant", [], [t],
                              {"value": DenseAttr(np.ascontiguousarray(known[op.result]), t)},
                              loc=op.loc)
            const.parent = block
            op.result.replace_all_uses_with(const.result)
            new_ops.append(const)
            dropped.append(op)
        else:
            dropped.append(op)
    inputs = {v.owner for op in dropped for v in op.operands}
    for op in dropped:
        op.drop_uses()
    users = uses(new_ops)
    block.ops = [op for op in new_ops
                 if not (op in inputs and op.key == "constant" and not users.get(op.result))]
