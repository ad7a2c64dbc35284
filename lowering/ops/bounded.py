"""Bounded dynamism, as TensorFlow's XLA bridge prints it: `?` dims with an upper bound in
the tensor type's encoding (`tensor<?x4xf32, #stablehlo.bounds<8, ?>>`, or MHLO's
`#mhlo.type_extensions<bounds = [8, ?]>`), and `set_dimension_size`, which gives a dim its
run-time size.

Here every `?` dim already has its exact size at run time (buffers are allocated for it),
so a bound adds nothing to the computation: `drop_bounds` takes the encodings off the types
and keeps the bounds of the entry functions' arguments, which the host checks on every call
(lowering/passes/bufferize.py), so an argument larger than its bound is an error naming it,
as XLA's padded buffers would make it. set_dimension_size(x, n, dim) is the first n
elements of x along dim (XLA keeps the rest as padding no op may read): an elemental op
reading x at the same index, its size read on the host and checked against x's dim."""
from __future__ import annotations

from lowering.ir.core import FunctionType, Module, TensorType, bounds_of
from lowering.ops import registry
from lowering.ops.registry import ShapeError, static_or


def _plain(t):
    return TensorType(t.shape, t.elem) if bounds_of(t) is not None else t


@registry.module_rewrite("drop_bounds")
def drop_bounds(module: Module) -> None:
    """Types lose their bounds encodings; an entry's argument bounds go to `aot.arg_bounds`
    ((argument, dim, bound) triples: plain integers, so every stage prints and reads them
    back) for the host's check. A malformed bound is a located error."""
    for func in module.functions():
        fn = func.attrs.get("function_type")
        if not isinstance(fn, FunctionType):
            continue
        try:
            arg_bounds = [(i, d, bound) for i, bounds in enumerate(map(bounds_of, fn.inputs))
                          for d, bound in enumerate(bounds or ()) if bound is not None]
            for op in func.walk():
                for v in op.results:
                    bounds_of(v.type)
                    v.type = _plain(v.type)
                for region in op.regions:
                    for block in region.blocks:
                        for a in block.args:
                            bounds_of(a.type)
                            a.type = _plain(a.type)
        except ValueError as e:
            raise func.error(str(e)) from None
        if arg_bounds:
            func.attrs["aot.arg_bounds"] = arg_bounds
        func.attrs["function_type"] = FunctionType(tuple(map(_plain, fn.inputs)),
                                                   tuple(map(_plain, fn.results)))


def infer_set_dimension_size(op):
    src, size = op.operands[0].type, op.operands[1].type
    dim = op.attrs["dimension"]
    if not isinstance(dim, int) or not 0 <= dim < src.rank:
        raise ShapeError(f"dimension {dim!r} out of range for {src}")
    if size.shape != () or size.elem not in ("i32", "i64", "ui32", "ui64"):
        raise ShapeError(f"the size must be a 0-d integer tensor, got {size}")
    shape = list(src.shape)
    shape[dim] = op.results[0].type.shape[dim] if op.results else None
    if shape[dim] is not None and src.shape[dim] is not None and shape[dim] > src.shape[dim]:
        raise ShapeError(f"the result's dim {dim} ({shape[dim]}) exceeds the operand's")
    return [TensorType(tuple(shape), src.elem)]


def _set_dimension_size_dims(hs, op, shapes, bufs):
    dim = op.attrs["dimension"]
    size = hs.load_index(bufs[1], None)
    hs.require("sge", size, 0, op, f"the size of dim {dim} is negative")
    hs.require("sle", size, shapes[0][dim], op, f"the size of dim {dim} exceeds the operand's")
    out = list(shapes[0])
    out[dim] = size
    return [static_or(op.results[0].type.shape, out)]


def _set_dimension_size_at(e, op, idx):
    return e.at(op.operands[0], idx)  # a prefix of the operand along dim


registry.define("set_dimension_size", "elemental", "dynamic shapes", attrs=("dimension",),
                arity=2, infer=infer_set_dimension_size, shape_rule=_set_dimension_size_dims,
                shape_operands=(1,), elemental=_set_dimension_size_at)


def infer_tensor_cast(op):
    """tensor.cast between types that differ only in which dims are static (and, before
    drop_bounds, in their bounds): same rank and element type, static dims agreeing."""
    src, dst = op.operands[0].type, op.results[0].type
    if src.rank != dst.rank or src.elem != dst.elem:
        raise ShapeError(f"tensor.cast changes more than static dims and bounds: {src} to {dst}")
    for d, (a, b) in enumerate(zip(src.shape, dst.shape)):
        if a is not None and b is not None and a != b:
            raise ShapeError(f"tensor.cast of dim {d}: {a} is never {b}")
    return [dst]


def _tensor_cast_dims(hs, op, shapes, bufs):
    """Where the cast narrows, the host checks: a dim made static has that size, a dim given
    a bound (attribute `bounds`) is within it."""
    out = [hs.require_equal(d, n, op, f"dim {i} must be {n}") if n is not None else d
           for i, (d, n) in enumerate(zip(shapes[0], op.results[0].type.shape))]
    for i, bound in enumerate(op.attrs.get("bounds") or ()):
        if bound is not None:
            hs.require("sle", out[i], bound, op, f"dim {i} exceeds its bound {bound}")
    return [out]


registry.define("dhlo.cast", "elemental", "dynamic shapes", arity=1, infer=infer_tensor_cast,
                shape_rule=_tensor_cast_dims, elemental=lambda e, op, idx: e.at(op.operands[0], idx))
