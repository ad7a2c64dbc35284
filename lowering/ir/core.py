"""The IR core: types, attributes, values, operations, blocks, regions.

Every stage of the compiler (HLO, fused HLO, LHLO, loops) is held in these
same few classes; stages differ only in which op names they contain. Types and
attributes are immutable values; operations are mutable so passes can rewrite
them in place.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Optional

import numpy as np

# ----------------------------------------------------------------------------- locations


@dataclass(frozen=True)
class Location:
    """Where an op came from in the source text, for error messages."""
    file: str
    line: int
    col: int

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.col}"


UNKNOWN_LOC = Location("<unknown>", 0, 0)


class CompileError(Exception):
    """A user-facing compile error: `file:line:col: error: message` plus the source line."""

    def __init__(self, message: str, loc: Optional[Location] = None, source_line: str = ""):
        self.message = message
        self.loc = loc or UNKNOWN_LOC
        self.source_line = source_line
        super().__init__(self.render())

    def render(self) -> str:
        text = f"{self.loc}: error: {self.message}"
        if self.source_line:
            text += "\n" + self.source_line.rstrip("\n")
            if self.loc.col > 0:
                text += "\n" + " " * (self.loc.col - 1) + "^"
        return text

    def with_source(self, text: str, filename: str) -> "CompileError":
        """Add the line of `text` the location points at: errors raised after parsing (by
        the verifier, the passes, code generation) know only their location."""
        if not self.source_line and self.loc.file == filename and self.loc.line > 0:
            lines = text.split("\n", self.loc.line)
            if self.loc.line <= len(lines):
                self.source_line = lines[self.loc.line - 1]
                self.args = (self.render(),)
        return self


# ----------------------------------------------------------------------------- types

INT_TYPES = ("i1", "i8", "i16", "i32", "i64", "ui8", "ui16", "ui32", "ui64", "si8", "si16", "si32", "si64",
             "i2", "i4", "ui2", "ui4")  # sub-byte ones: a byte each in memory (ml_dtypes' int4...)
FLOAT_TYPES = ("f16", "bf16", "f32", "f64")
# A complex element is a pair of its component floats, stored interleaved (re, im) as in
# numpy and C99; in the loop stage a scalar of this type is one value (an LLVM {re, im}).
COMPLEX_TYPES = ("complex<f32>", "complex<f64>")
ELEMENT_TYPES = INT_TYPES + FLOAT_TYPES + COMPLEX_TYPES + ("index",)

NUMPY_DTYPES = {
    "i1": np.bool_, "i8": np.int8, "i16": np.int16, "i32": np.int32, "i64": np.int64,
    "si8": np.int8, "si16": np.int16, "si32": np.int32, "si64": np.int64,
    "ui8": np.uint8, "ui16": np.uint16, "ui32": np.uint32, "ui64": np.uint64,
    "f16": np.float16, "f32": np.float32, "f64": np.float64, "index": np.int64,
    "complex<f32>": np.complex64, "complex<f64>": np.complex128,
}


def numpy_dtype(elem: str) -> np.dtype:
    if elem in ("bf16", "i2", "i4", "ui2", "ui4"):
        import ml_dtypes
        return np.dtype({"bf16": ml_dtypes.bfloat16, "i2": ml_dtypes.int2, "i4": ml_dtypes.int4,
                         "ui2": ml_dtypes.uint2, "ui4": ml_dtypes.uint4}[elem])
    if elem not in NUMPY_DTYPES:
        raise KeyError(elem)
    return np.dtype(NUMPY_DTYPES[elem])


def is_float(elem: str) -> bool:
    return elem in FLOAT_TYPES


def is_unsigned(elem: str) -> bool:
    return elem.startswith("ui")


def is_complex(elem: str) -> bool:
    return elem in COMPLEX_TYPES


def component(elem: str) -> str:
    """The float type of a complex element's real and imaginary parts."""
    return elem[len("complex<"):-1]


def bit_width(elem: str) -> int:
    if elem == "index":
        return 64
    if is_complex(elem):
        return 2 * bit_width(component(elem))
    if elem == "bf16":
        return 16
    return int(elem.lstrip("uisbf"))


class Type:
    """Base of all types; every type prints as MLIR text."""


@dataclass(frozen=True)
class ScalarType(Type):
    name: str  # an element type name: f32, i64, index, ...

    def __str__(self) -> str:
        return self.name


def _dims_text(shape) -> str:
    return "".join(("?" if d is None else str(d)) + "x" for d in shape)


class ShapedType(Type):
    """What tensors and buffers share: a shape (`None` for a `?` dim) and an element type."""
    shape: tuple

    @property
    def rank(self) -> int:
        return len(self.shape)

    @property
    def is_static(self) -> bool:
        return all(d is not None for d in self.shape)


@dataclass(frozen=True)
class TensorType(ShapedType):
    """A value-semantics array; `None` in shape is a dynamic (`?`) dim."""
    shape: tuple
    elem: str
    encoding: str = ""

    def __str__(self) -> str:
        enc = f", {self.encoding}" if self.encoding else ""
        return f"tensor<{_dims_text(self.shape)}{self.elem}{enc}>"


_BOUNDS = (re.compile(r"#stablehlo\.bounds<(.*)>"),
           re.compile(r"#mhlo\.type_extensions<\s*bounds\s*=\s*\[(.*)\]\s*>"))


def bounds_of(t) -> tuple | None:
    """The per-dim bounds of a tensor type's encoding (None for an unbounded dim), or None
    when the type has no bounds encoding (StableHLO's and MHLO's spellings of bounded
    dynamism; lowering/ops/bounded.py drops them, keeping the entries' argument bounds)."""
    if not isinstance(t, TensorType) or not t.encoding:
        return None
    for pattern in _BOUNDS:
        m = pattern.fullmatch(t.encoding.strip())
        if m:
            words = [w.strip() for w in m.group(1).split(",")] if m.group(1).strip() else []
            if len(words) != t.rank or not all(w == "?" or w.isdigit() for w in words):
                raise ValueError(f"bounds {t.encoding} do not give one bound or ? per dim of "
                                 f"{TensorType(t.shape, t.elem)}")
            return tuple(None if w == "?" else int(w) for w in words)
    return None


@dataclass(frozen=True)
class MemRefType(ShapedType):
    """A buffer: dense, row-major, contiguous. `None` dims are known at run time."""
    shape: tuple
    elem: str

    def __str__(self) -> str:
        return f"memref<{_dims_text(self.shape)}{self.elem}>"


@dataclass(frozen=True)
class TupleType(Type):
    types: tuple

    def __str__(self) -> str:
        return "tuple<" + ", ".join(map(str, self.types)) + ">"


@dataclass(frozen=True)
class FunctionType(Type):
    inputs: tuple
    results: tuple

    def __str__(self) -> str:
        ins = ", ".join(map(str, self.inputs))
        if len(self.results) == 1 and not isinstance(self.results[0], FunctionType):
            return f"({ins}) -> {self.results[0]}"
        return f"({ins}) -> (" + ", ".join(map(str, self.results)) + ")"


@dataclass(frozen=True)
class OpaqueType(Type):
    """A type the compiler does not model (`!stablehlo.token`, complex, quantized)."""
    text: str

    def __str__(self) -> str:
        return self.text


INDEX = ScalarType("index")

# ----------------------------------------------------------------------------- attributes


@dataclass(frozen=True)
class DenseAttr:
    """`dense<...> : tensor<...>`: an array constant, held as one numpy array."""
    array: np.ndarray
    type: TensorType

    def __eq__(self, other):
        return (isinstance(other, DenseAttr) and self.type == other.type
                and self.array.shape == other.array.shape and bool(np.all(
                    self.array.view(np.uint8) == other.array.view(np.uint8))))

    def __hash__(self):
        return hash(self.type)


@dataclass(frozen=True)
class EnumAttr:
    """`#mhlo<comparison_direction GE>`: a named enum value."""
    kind: str
    value: str


@dataclass(frozen=True)
class SymbolRef:
    name: str


@dataclass(frozen=True)
class OpaqueAttr:
    """Attribute text kept as written (`#stablehlo.dot<...>`), decoded by the op that owns it."""
    text: str


class _Unit:
    def __repr__(self):
        return "UNIT"


UNIT = _Unit()  # a present-without-value attribute (`{has_side_effect}`)

# Attribute values are plain Python where possible: int, float, bool, str,
# list (array attribute), tuple of ints (dense i64 array), dict, Type,
# DenseAttr, EnumAttr, SymbolRef, OpaqueAttr, UNIT.

# ----------------------------------------------------------------------------- values & ops


class Value:
    """An SSA value: an op result or a block argument. It knows its uses, as (op, operand
    index) pairs, so replacing it touches only its users (MLIR's and xDSL's use-def chains):
    an op's operand list registers each slot with the value it holds."""
    __slots__ = ("type", "owner", "index", "hint", "_uses")

    def __init__(self, type: Type, owner: Any = None, index: int = 0, hint: str = ""):
        self.type = type
        self.owner = owner  # Operation (result) or Block (argument)
        self.index = index
        self.hint = hint
        self._uses: dict = {}  # (op, operand index) -> None, in the order they were made

    @property
    def uses(self) -> list:
        """The (op, operand index) pairs that read this value. An op dropped from its block
        without `erase()` still counts until it is erased or its operands change."""
        return list(self._uses)

    @property
    def users(self) -> list:
        """The ops that read this value, each once, in the order their uses were made."""
        return list(dict.fromkeys(op for op, _ in self._uses))

    def replace_all_uses_with(self, new: "Value") -> None:
        """Point every use of this value at `new`: work in the number of uses only."""
        if new is self:
            return
        for op, i in list(self._uses):
            op.operands[i] = new

    def __repr__(self):
        return f"<Value {self.hint or '?'}: {self.type}>"


def _reslotting(method):
    """Wrap a list method that moves operands between slots: unregister every slot, run it,
    register them again."""
    def wrapped(self, *args, **kwargs):
        self._unregister(0)
        try:
            return method(self, *args, **kwargs)
        finally:
            self._register(0)
    wrapped.__name__ = method.__name__
    return wrapped


class Operands(list):
    """An op's operand list: a list whose every change keeps the values' use lists right.
    Reads are plain list reads; a write re-registers the slots it moved."""
    __slots__ = ("op",)

    def __init__(self, op: "Operation", values=()):
        super().__init__(values)
        self.op = op
        self._register(0)

    def _register(self, start: int) -> None:
        op = self.op
        for i in range(start, len(self)):
            v = list.__getitem__(self, i)
            if isinstance(v, Value):
                v._uses[(op, i)] = None

    def _unregister(self, start: int) -> None:
        op = self.op
        for i in range(start, len(self)):
            v = list.__getitem__(self, i)
            if isinstance(v, Value):
                v._uses.pop((op, i), None)

    def __setitem__(self, key, value):
        if isinstance(key, int):
            i = key + len(self) if key < 0 else key
            old = list.__getitem__(self, i)
            if isinstance(old, Value):
                old._uses.pop((self.op, i), None)
            list.__setitem__(self, i, value)
            if isinstance(value, Value):
                value._uses[(self.op, i)] = None
            return
        self._unregister(0)
        list.__setitem__(self, key, value)
        self._register(0)

    __delitem__ = _reslotting(list.__delitem__)
    __iadd__ = _reslotting(list.__iadd__)
    insert = _reslotting(list.insert)
    pop = _reslotting(list.pop)
    remove = _reslotting(list.remove)
    clear = _reslotting(list.clear)
    reverse = _reslotting(list.reverse)
    sort = _reslotting(list.sort)

    def append(self, value) -> None:
        list.append(self, value)
        if isinstance(value, Value):
            value._uses[(self.op, len(self) - 1)] = None

    def extend(self, values) -> None:
        start = len(self)
        list.extend(self, values)
        self._register(start)

    def __imul__(self, n):
        raise TypeError("an op's operands cannot be repeated in place")


_NAME_PARTS: dict = {}  # op name -> (dialect, short name, key), computed once per name


def _name_parts(name: str) -> tuple:
    """(dialect, short name, key) of an op name: every pass asks for its ops' keys, and
    splitting the name on each question was a tenth of the fusion stage."""
    parts = _NAME_PARTS.get(name)
    if parts is None:
        dialect, short = name.split(".", 1) if "." in name else ("", name)
        key = short if dialect in ("mhlo", "lmhlo") else \
            "dhlo." + short if dialect in ("dhlo", "ldhlo") else name
        parts = _NAME_PARTS[name] = (dialect, short, key)
    return parts


class Operation:
    """An op: name, operands, results, attributes, regions, source location."""

    def __init__(self, name: str, operands=(), result_types=(), attrs=None, regions=(),
                 loc: Location = UNKNOWN_LOC):
        self.name = name
        self._operands = Operands(self, operands)
        self.results: list[Value] = [Value(t, self, i) for i, t in enumerate(result_types)]
        self.attrs: dict = dict(attrs or {})
        self.regions: list[Region] = list(regions)
        self.loc = loc
        self.parent: Optional[Block] = None
        for r in self.regions:
            r.parent = self

    @property
    def operands(self) -> Operands:
        return self._operands

    @operands.setter
    def operands(self, values) -> None:
        """Assigning a new operand list drops the old slots' uses and registers the new."""
        self._operands._unregister(0)
        self._operands = Operands(self, values)

    def drop_uses(self) -> None:
        """Unregister the uses this op and the ops in its regions make (before it is
        discarded), so its operands' use lists count live users only."""
        for op in self.walk():
            op._operands._unregister(0)
            op._operands = Operands(op)

    def erase(self) -> None:
        """Drop this op's uses and take it out of its block (its results should be unused)."""
        self.drop_uses()
        if self.parent is not None and self in self.parent.ops:
            self.parent.ops.remove(self)
        self.parent = None

    @property
    def result(self) -> Value:
        assert len(self.results) == 1, self.name
        return self.results[0]

    @property
    def dialect(self) -> str:
        return _name_parts(self.name)[0]

    @property
    def short_name(self) -> str:
        return _name_parts(self.name)[1]

    @property
    def key(self) -> str:
        """The name per-op tables use: the short name for (l)mhlo ops, `dhlo.x` for the
        project's own dynamic ops at either level."""
        return _name_parts(self.name)[2]

    def error(self, message: str) -> CompileError:
        return CompileError(f"'{self.name}': {message}", self.loc)

    def walk(self):
        """This op and every op nested in its regions, outermost first (each block's ops as
        they are when the walk reaches it). A stack, not nested generators: a kernel's ops
        sit five or six loops deep, and each level re-yielded every op below it."""
        stack = [self]
        while stack:
            op = stack.pop()
            yield op
            for region in reversed(op.regions):
                for block in reversed(region.blocks):
                    stack.extend(reversed(block.ops))

    def __repr__(self):
        return f"<Operation {self.name} at {self.loc}>"


class Block:
    def __init__(self, arg_types=(), ops=()):
        self.args: list[Value] = [Value(t, self, i) for i, t in enumerate(arg_types)]
        self.ops: list[Operation] = []
        self.parent: Optional[Region] = None
        for op in ops:
            self.append(op)

    def append(self, op: Operation) -> Operation:
        op.parent = self
        self.ops.append(op)
        return op

    def add_arg(self, type: Type) -> Value:
        v = Value(type, self, len(self.args))
        self.args.append(v)
        return v


class Region:
    def __init__(self, blocks=()):
        self.blocks: list[Block] = []
        self.parent: Optional[Operation] = None
        for b in blocks:
            self.add_block(b)

    def add_block(self, block: Block) -> Block:
        block.parent = self
        self.blocks.append(block)
        return block

    @property
    def block(self) -> Block:
        return self.blocks[0]


@dataclass
class Module:
    """A top-level `module`: its functions and other top-level ops, and attributes."""
    ops: list = field(default_factory=list)
    attrs: dict = field(default_factory=dict)
    name: str = ""
    filename: str = "<input>"
    report: list = field(default_factory=list)  # fusion decisions, for `aotc --report`

    def functions(self):
        return [op for op in self.ops if op.name == "func.func"]

    def function(self, name: str) -> Optional[Operation]:
        for op in self.functions():
            if op.attrs.get("sym_name") == name:
                return op
        return None


def func_type(func: Operation) -> FunctionType:
    return func.attrs["function_type"]


def replace_all_uses(old: Value, new: Value) -> None:
    """Point every use of `old` at `new`, through its use list."""
    old.replace_all_uses_with(new)


def uses(root_ops) -> dict:
    """Map each value to the ops that use it, over `root_ops` and their regions."""
    table: dict = {}
    for top in root_ops:
        for op in top.walk():
            for v in op.operands:
                table.setdefault(v, []).append(op)
    return table


def clone_op(op: Operation, mapping: dict, regions: list | None = None) -> Operation:
    """Deep-copy `op`, remapping operands through `mapping`; new results are added to it.
    `regions`, when given, are the copy's regions, made by the caller."""
    if regions is not None:
        return _copy_with(op, mapping, regions)
    regions = []
    for region in op.regions:
        new_region = Region()
        for block in region.blocks:
            new_block = Block([a.type for a in block.args])
            for a, b in zip(block.args, new_block.args):
                mapping[a] = b
            for inner in block.ops:
                new_block.append(clone_op(inner, mapping))
            new_region.add_block(new_block)
        regions.append(new_region)
    return _copy_with(op, mapping, regions)


def _copy_with(op: Operation, mapping: dict, regions: list) -> Operation:
    new = Operation(op.name, [mapping.get(v, v) for v in op.operands],
                    [r.type for r in op.results], dict(op.attrs), regions, op.loc)
    for a, b in zip(op.results, new.results):
        mapping[a] = b
        b.hint = a.hint
    return new


def blocks(root_ops):
    """Every block of `root_ops` (a module's or a block's ops) and of the ops nested in them,
    outermost first: the one walk a pass over all blocks needs (module / region / block,
    spelled out in each pass before)."""
    stack = [list(root_ops)]
    while stack:
        for op in stack.pop():
            for region in op.regions:
                for block in region.blocks:
                    yield block
                    stack.append(block.ops)

