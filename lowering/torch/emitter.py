"""What every ATen rule builds with: the TF front end's Emitter (mhlo ops appended to a block,
result types from the op registry's rules, numpy broadcasting, run-time dims as scalar
values), its errors naming the ATen op and the model's source line, plus PyTorch's habits:
negative axes, scalars as 0-d tensors, reductions that keep their dims."""
from __future__ import annotations

import weakref

import numpy as np

from lowering.ir.core import (
    Block,
    CompileError,
    DenseAttr,
    Location,
    Operation,
    Value,
    is_complex,
    numpy_dtype,
)
from lowering.tf.emitter import FLOATS, Emitter

INTS = ("i8", "i16", "i32", "i64", "ui8", "ui16", "ui32", "ui64")
# Shape code the rules build again and again (a dim read, a size's arithmetic, a shape tensor):
# built once per block, so each distinct shape is one tensor (GPT-2's text was 3.3x its static
# form's, parsed 4x slower). Keyed by block: a value is reused only where it dominates.
SHAPE_OPS = frozenset({"get_dimension_size", "constant", "convert", "reshape", "concatenate",
                       "multiply", "divide", "add", "subtract", "maximum", "minimum"})
_SHAPE_CODE: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


class TorchLoweringError(CompileError):
    """An ATen node the front end cannot lower; located at the model's source line."""


class TorchEmitter(Emitter):
    """Builds mhlo ops for the ATen node `target` recorded at `loc` (model file:line)."""

    def __init__(self, block: Block, loc: Location, target: str, code: str = ""):
        super().__init__(block, loc)
        self.target, self.code = target, code

    def error(self, message: str) -> CompileError:
        return TorchLoweringError(f"{self.target}: {message}", self.loc, self.code)

    def v(self, name: str, operands, attrs=None, result_type=None, regions=()) -> Value:
        key = _shape_key(name, operands, attrs, result_type, regions)
        if key is None:
            return super().v(name, operands, attrs, result_type, regions)
        built = _SHAPE_CODE.setdefault(self.block, {})
        if key not in built:
            built[key] = super().v(name, operands, attrs, result_type, regions)
        return built[key]

    def assert_that(self, pred: Value, values: list, message: str) -> None:
        """A check on every call (`@shape_assertion`): `message`, its {0}, {1} ... the
        run-time `values`, is the error when `pred` is false."""
        self.block.append(Operation("mhlo.custom_call", [pred] + values, (), {
            "call_target_name": "shape_assertion", "error_message": message,
            "has_side_effect": True, "api_version": 2}, (), self.loc))

    def know_size(self, v: Value, d: int, size: Value) -> None:
        """v's dim d is `size` (its torch.export symbol's value): reading it reuses `size`."""
        key = _shape_key("get_dimension_size", [v], {"dimension": d}, None, ())
        _SHAPE_CODE.setdefault(self.block, {}).setdefault(key, size)

    def scalar(self, value, elem: str) -> Value:
        """A Python number as a 0-d `elem` tensor; a tensor (a symbolic size's scalar value,
        or any operand) converted to `elem`."""
        if isinstance(value, Value):
            return self.convert(value, elem)
        if elem == "i1":
            value = bool(value)
        elif is_complex(elem):
            value = complex(value)
        elif elem not in FLOATS:
            value = int(value)
        return self.const(value, elem, ())

    def axis(self, a: int, rank: int) -> int:
        if not -max(rank, 1) <= a < max(rank, 1):
            raise self.error(f"dim {a} is out of range for rank {rank}")
        return a % rank if rank else 0

    def axes(self, dims, rank: int) -> list:
        """A dim list (None or [] meaning every dim) as sorted non-negative axes."""
        if dims is None or (isinstance(dims, list) and not dims):
            return list(range(rank))
        dims = dims if isinstance(dims, list) else [dims]
        return sorted({self.axis(int(d), rank) for d in dims})

    def broadcast_all(self, values: list) -> list:
        """Tensors broadcast numpy style to one shape (a static size other than 1 wins, else a
        run-time size; `?` against `?` is taken to be equal, as the elementwise ops check)."""
        r = max(v.type.rank for v in values)
        dims = []
        for i in range(r):
            static = [v.type.shape[i - r + v.type.rank] for v in values if i - r + v.type.rank >= 0]
            sizes = [s for s in static if s is not None and s != 1]
            if sizes:
                dims.append(sizes[0])
            elif None in static:
                v = next(v for v in values if i - r + v.type.rank >= 0
                         and v.type.shape[i - r + v.type.rank] is None)
                dims.append(self.v("get_dimension_size", [v], {"dimension": i - r + v.type.rank}))
            else:
                dims.append(1)
        return [self.fit(v, dims) if v.type.rank == r else self.broadcast_to(v, dims)
                for v in values]

    def keep_dims(self, reduced: Value, x: Value, axes: list) -> Value:
        """A reduction's result given back its reduced axes as 1s (keepdim=True)."""
        dims = self.dims(x)
        return self.reshape(reduced, [1 if i in axes else d for i, d in enumerate(dims)])

    def spread(self, reduced: Value, x: Value, axes: list) -> Value:
        """A reduction's result broadcast back over x's shape along the reduced axes."""
        keep = tuple(i for i in range(x.type.rank) if i not in axes)
        return self.broadcast_to(reduced, self.dims(x), x.type.shape, mapping=keep)

    def init(self, kind: str, elem: str):
        """The identity of a max/min reduction for elem."""
        if elem in FLOATS:
            return -np.inf if kind == "max" else np.inf
        if elem == "i1":
            return kind != "max"
        info = np.iinfo(numpy_dtype(elem))
        return info.min if kind == "max" else info.max


def _shape_key(name: str, operands, attrs, result_type, regions):
    """The key of a shape-code op (integer scalars and short vectors in and out), else None."""
    if regions or name not in SHAPE_OPS:
        return None
    if name == "constant":
        t = result_type
        if t is None or t.elem not in INTS or t.rank > 1 or (t.shape and t.shape[0] > 16):
            return None
    elif name != "get_dimension_size" and not all(
            o.type.elem in INTS and o.type.rank <= 1 for o in operands):
        return None
    attrs = {k: (a.type, np.ascontiguousarray(a.array).tobytes()) if isinstance(a, DenseAttr) else a
             for k, a in (attrs or {}).items()}
    key = (name, tuple(operands), tuple(sorted(attrs.items())), result_type)
    try:
        hash(key)
    except TypeError:
        return None
    return key


def promote(*elems: str) -> str:
    """The element type of an arithmetic op on tensors of these types (a complex or a float
    wins; else the widest)."""
    floats = [x for x in elems if x in FLOATS or is_complex(x)]
    pool = floats or [x for x in elems if x != "i1"] or ["i1"]
    order = ["i1", "ui8", "i8", "i16", "ui16", "i32", "ui32", "i64", "ui64", "f16", "bf16",
             "f32", "f64", "complex<f32>", "complex<f64>"]
    return max(pool, key=order.index)
