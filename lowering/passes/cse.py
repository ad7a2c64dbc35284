"""Common subexpressions of the shape code, computed once.

`jax.export` writes a symbolic shape at every use: each dynamic broadcast or reshape gets
its own `reshape %b`, constant and `concatenate` building its shape tensor. Left alone,
every copy becomes a kernel of its own (a shape tensor is materialised for the host to read)
and every use a set of host loads and checks. Before fusion, an op that repeats an earlier
op of its block (same name, operands, attributes and result types) is replaced by it, for
the ops that are pure and cheap to share: constants, the host's `get_dimension_size`, and the
elementwise and elemental ops on integer tensors (the shape code; float compute is left to
fusion, which duplicates cheap producers into each kernel that reads them).

One pass over each block, a hash table per block: linear in the program's size.

A `get_dimension_size` is first moved to the earliest value with the same size (through
elementwise ops, a dynamic broadcast's or reshape's shape tensor, a real_dynamic_slice's
limit from 0 by 1, an op's `same_size` rule: a reduce_window's dims of window 1, a
convolution's batch, a reduce's kept dims, a dot_general's batch and free dims, a
transpose's, a concatenation's other dims): torch.export's programs read
each dynamic broadcast's sizes from the tensor beside it, so every op had a
`get_dimension_size` user outside its kernel and fusion cut after it (MobileNetV3-Small,
dynamic batch: 403 kernels, 65 static). Read from the earliest tensor, the sizes and the
shape code building on them are shared like jax.export's.
"""
from __future__ import annotations

import math

import numpy as np

from lowering.ir.core import DenseAttr, Module, Operation, TensorType, is_float, replace_all_uses
from lowering.ops import registry
from lowering.passes.host_shapes import MAX_SHAPE_ELEMENTS, SHAPE_ELEMS, SHAPE_FOLDS

PURE_KINDS = ("elementwise", "elemental")


def shareable(op: Operation) -> bool:
    if op.regions or len(op.results) != 1:
        return False
    if op.key in ("constant", "get_dimension_size"):
        return True
    t = op.results[0].type
    return (isinstance(t, TensorType) and not is_float(t.elem) and "complex" not in t.elem
            and any(registry.is_kind(op.key, k) for k in PURE_KINDS))


def frozen(value):
    """A hashable stand-in for an attribute value, equal only for equal values (a float by
    its repr, so -0.0 and 0.0 differ; an array by its bytes)."""
    if isinstance(value, bool):
        return ("bool", value)
    if isinstance(value, float):
        return ("float", repr(value))
    if isinstance(value, DenseAttr):
        return ("dense", value.type, value.array.dtype.str, value.array.shape,
                value.array.tobytes())
    if isinstance(value, np.ndarray):
        return ("array", value.dtype.str, value.shape, value.tobytes())
    if isinstance(value, (list, tuple)):
        return (type(value).__name__,) + tuple(frozen(v) for v in value)
    if isinstance(value, dict):
        return ("dict",) + tuple(sorted((k, frozen(v)) for k, v in value.items()))
    hash(value)  # anything else must be hashable as it is (raises TypeError if not)
    return value


def op_key(op: Operation):
    """What makes two ops the same computation, or None when it cannot be hashed."""
    try:
        attrs = frozen(op.attrs)
    except TypeError:
        return None
    return (op.name, tuple(op.operands), tuple(r.type for r in op.results), attrs)


class ComputedSize:
    """An element of a shape tensor that the shape code computes as a rank-0 value (a
    flattened b * s, a view's -1 as numel / the other dims): `value` holds it."""

    def __init__(self, value):
        self.value = value


def same_size_source(value, dim: int):
    """(an earlier value, its dim) whose size is always `value`'s size `dim`, or None: an
    elementwise op's operand of its shape, else the op's `same_size` rule: an operand's dim,
    or ("element", operand, k[, {operand: value}]), element k of a shape operand (when the
    other operands' elements k have those values) read as a size."""
    op = value.owner
    if not isinstance(op, Operation) or not op.results or value.type.rank <= dim:
        return None
    if registry.is_kind(op.key, "elementwise"):
        return next(((o, dim) for o in op.operands if isinstance(o.type, TensorType)
                     and o.type.shape == value.type.shape), None)
    rule = registry.rule(op, "same_size")
    found = rule(op, dim) if rule is not None else None
    if found is None or found[0] != "element":
        return None if found is None else (op.operands[found[0]], found[1])
    _, i, k, *given = found
    if any(shape_element(op.operands[j], k) != v for j, v in (given[0] if given else {}).items()):
        return None
    return size_in_shape(op.operands[i], k)


def size_in_shape(shape, dim: int):
    """(value, its dim) whose size element `dim` of a shape tensor is, when that element is a
    `get_dimension_size`; else None."""
    found = shape_element(shape, dim)
    return found if isinstance(found, tuple) else None


def shape_element(shape, dim: int):
    """Element `dim` of a 1-D shape tensor: an int when it is a constant, (value, its dim)
    when a `get_dimension_size`; else None."""
    elements = shape_elements(shape)
    return elements[dim] if elements is not None and dim < len(elements) else None


# host_shapes' folds of the ops that only move a shape tensor's elements (they compute
# nothing, so need no host code to emit into)
MOVES_ELEMENTS = ("constant", "reshape", "convert", "concatenate", "broadcast_in_dim", "slice")


def shape_elements(value):
    """The elements of a small integer tensor built from constants and sizes, as the host
    folds them (host_shapes.SHAPE_FOLDS): ints, and (value, its dim) for each
    `get_dimension_size`; None if an op computes them."""
    op, t = value.owner, value.type
    if not isinstance(op, Operation) or not isinstance(t, TensorType) or not t.is_static \
            or t.elem not in SHAPE_ELEMS or math.prod(t.shape) > MAX_SHAPE_ELEMENTS:
        return None
    if op.key == "get_dimension_size":
        return [(op.operands[0], op.attrs["dimension"])]
    if op.key not in MOVES_ELEMENTS:
        return [ComputedSize(value)] if t.shape == () else None
    args = [shape_elements(o) for o in op.operands]
    return None if None in args else SHAPE_FOLDS[op.key](None, op, args)


def earliest_size(value, dim: int):
    """The earliest (value, dim) known to have `value`'s size `dim` (same_size_source,
    followed to its end): two sizes with the same earliest source are always equal."""
    found = (value, dim)
    while (earlier := same_size_source(*found)) is not None:
        found = earlier
    return found


def read_size_early(op: Operation) -> bool:
    """Point a `get_dimension_size` at the earliest value known to have the same size, or,
    when that size is an element the shape code computes, replace it by that computation;
    says whether it was replaced (and is to be dropped). Read from a dynamic reshape's
    result, the size made its producer a kernel of its own, its result materialised (GPT-2
    with a `?` batch and sequence: 24 such reads, of flattened and inferred dims)."""
    value, dim = earliest_size(op.operands[0], op.attrs["dimension"])
    computed = computed_size(value, dim)
    if computed is not None and computed.type == op.result.type:
        replace_all_uses(op.result, computed)
        return True
    if value is not op.operands[0]:
        op.operands = [value]
        op.attrs["dimension"] = dim
    return False


def computed_size(value, dim: int):
    """The rank-0 value the shape code computes `value`'s size `dim` as, through its op's
    `same_size` rule ("element" of a shape operand), or None."""
    op = value.owner
    if not isinstance(op, Operation) or not op.results or value.type.rank <= dim:
        return None
    rule = registry.rule(op, "same_size")
    found = rule(op, dim) if rule is not None else None
    if found is None or found[0] != "element":
        return None
    _, i, k, *given = found
    if any(shape_element(op.operands[j], k) != v for j, v in (given[0] if given else {}).items()):
        return None
    element = shape_element(op.operands[i], k)
    return element.value if isinstance(element, ComputedSize) else None


def eliminate_in_block(block, read_sizes: bool = True) -> int:
    """Replace each repeated shareable op of `block` (and, separately, of each nested block)
    by its first occurrence; returns how many were removed. `read_sizes`: move each
    `get_dimension_size` to the earliest value of its size first (verified ops only)."""
    first: dict = {}
    kept, removed = [], 0
    for op in block.ops:
        for region in op.regions:
            for inner in region.blocks:
                removed += eliminate_in_block(inner, read_sizes)
        if read_sizes and op.key == "get_dimension_size" and read_size_early(op):
            op.drop_uses()
            removed += 1
            continue
        key = op_key(op) if shareable(op) else None
        if key is None:
            kept.append(op)
            continue
        earlier = first.setdefault(key, op)
        if earlier is op:
            kept.append(op)
            continue
        replace_all_uses(op.result, earlier.result)
        op.drop_uses()
        removed += 1
    if removed:
        block.ops = kept
    return removed


def eliminate_common_subexpressions(module: Module, read_sizes: bool = True) -> Module:
    """Every function's repeated shape code shared. The HLO stage runs it before inlining
    with `read_sizes` off (its ops are not verified yet), so that a function called many
    times is copied without its repeats and the stages before fusion see each shape once;
    the fused stage runs it again in full."""
    for func in module.functions():
        for region in func.regions:
            for block in region.blocks:
                eliminate_in_block(block, read_sizes)
    return module

