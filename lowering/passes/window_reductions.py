"""Pools whose windows cover whole dims rewritten as reductions.

PyTorch's adaptive average pool to 1x1 (every squeeze-and-excitation block of EfficientNet and
MobileNetV3, ResNet's last pool) is a reduce_window whose window is the whole of H and W: one
window per image and channel. As a reduce_window it is a direct loop kernel (windows.py)
that folds its window in a fully unrolled 8x8 nest with a bounds check per element; with a
`?` batch LLVM spent 1.6-2.1 s optimising one such kernel (LoopLoadElimination on the
unrolled nest inside a loop of run-time trip count), 4.8 s of EfficientNet-B0's dynamic
compile for its eleven pools. As the reduce over those dims (and a reshape putting the unit
dims back) it is a row reduction like any other: the fusion pass and the target's reduction
kernels take it, and it compiles as fast with a `?` batch as without.

Taken when every dim is either kept (window 1, stride 1) or folded whole (window = the
dim's static size), with no padding and no dilation: then each output element is the fold of
exactly the reduce's elements, in the same order.
"""
from __future__ import annotations

import numpy as np

from lowering.ir.core import Block, DenseAttr, Module, Operation, TensorType, blocks


def rewrite_window_reductions(module: Module) -> Module:
    for block in blocks(module.functions()):  # each block alone: nested ones come after
        _rewrite_block(block)
    return module


def _ints(value, n: int, default: int) -> list:
    """An attribute's integers (a tuple or a dense array), flattened; `default` where absent."""
    if value is None:
        return [default] * n
    if isinstance(value, DenseAttr):
        return [int(v) for v in np.asarray(value.array).reshape(-1)]
    return [int(v) for v in np.asarray(value).reshape(-1)]


def whole_dims(op: Operation) -> list | None:
    """The dims a reduce_window folds whole, or None when it is not such a reduction."""
    x = op.operands[0].type
    rank = x.rank
    a = op.attrs
    size = _ints(a.get("window_dimensions"), rank, 1)
    stride = _ints(a.get("window_strides"), rank, 1)
    if (len(size) != rank or len(stride) != rank
            or any(v != 0 for v in _ints(a.get("padding"), 2 * rank, 0))
            or any(v != 1 for k in ("base_dilations", "window_dilations")
                   for v in _ints(a.get(k), rank, 1))):
        return None
    whole = []
    for d in range(rank):
        if size[d] == 1 and stride[d] == 1:
            continue
        if x.shape[d] is None or size[d] != x.shape[d]:
            return None
        whole.append(d)
    return whole or None


def _rewrite_block(block: Block) -> None:
    new_ops, changed = [], False
    for op in block.ops:
        dims = whole_dims(op) if op.key == "reduce_window" else None
        if dims is None:
            new_ops.append(op)
            continue
        new_ops.extend(_as_reduce(op, dims))
        changed = True
    if changed:
        for op in new_ops:
            op.parent = block
        block.ops = new_ops


def _as_reduce(op: Operation, dims: list) -> list:
    """The ops replacing reduce_window `op`: the reduce, its results' shape, their reshapes."""
    n = len(op.operands) // 2
    x = op.operands[0]
    reduced = [TensorType(tuple(s for d, s in enumerate(r.type.shape) if d not in dims),
                          r.type.elem) for r in op.results]
    reduce = Operation("mhlo.reduce", list(op.operands), reduced, {"dimensions": tuple(dims)},
                       regions=op.regions, loc=op.loc)
    op.regions = []
    ops = [reduce]
    out_shape = op.results[0].type.shape
    shape = None
    if any(s is None for s in out_shape):  # a kept `?` dim: the shape as jax.export builds it
        ops.extend(_shape_of(x, out_shape, op.loc))
        shape = ops[-1].result
    for i in range(n):
        old = op.results[i]
        if shape is None:
            new = Operation("mhlo.reshape", [reduce.results[i]], [old.type], loc=op.loc)
        else:
            new = Operation("mhlo.dynamic_reshape", [reduce.results[i], shape], [old.type],
                            loc=op.loc)
        ops.append(new)
        old.replace_all_uses_with(new.result)
    op.drop_uses()
    return ops


def _shape_of(x, out_shape: tuple, loc) -> list:
    """Ops computing `out_shape` as a tensor<rank x i32>, its `?` dims read from x (a kept dim
    has x's size): static runs as constants, each `?` a get_dimension_size."""
    i32, one = TensorType((), "i32"), TensorType((1,), "i32")
    ops, pieces, run = [], [], []

    def flush():
        if run:
            t = TensorType((len(run),), "i32")
            ops.append(Operation("mhlo.constant", [], [t],
                                 {"value": DenseAttr(np.array(run, dtype=np.int32), t)}, loc=loc))
            pieces.append(ops[-1].result)
            run.clear()
    for d, s in enumerate(out_shape):
        if s is not None:
            run.append(s)
            continue
        flush()
        size = Operation("mhlo.get_dimension_size", [x], [i32], {"dimension": d}, loc=loc)
        ops += [size, Operation("mhlo.reshape", [size.result], [one], loc=loc)]
        pieces.append(ops[-1].result)
    flush()
    if len(pieces) > 1:
        ops.append(Operation("mhlo.concatenate", pieces, [TensorType((len(out_shape),), "i32")],
                             {"dimension": 0}, loc=loc))
    return ops
