"""The raw parse tree the grammar's transformer builds, before SSA names are resolved:
shared by the parser and the pretty-form decoders."""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Optional

from lark import Token

from lowering.ir.attrs import AttrError, decode_angle
from lowering.ir.core import FunctionType, TensorType


@dataclass
class RawRegion:
    blocks: list  # [(label, [(name, type, tok)], [RawOp])]


@dataclass
class RawOp:
    kind: str  # generic | custom | func | module
    name: str
    tok: Token
    results: list = field(default_factory=list)  # [(name, count)]
    operands: list = field(default_factory=list)  # generic: [Token]
    items: list = field(default_factory=list)  # custom: item tuples
    sig: list = field(default_factory=list)  # custom: types after ':'
    tails: list = field(default_factory=list)  # custom: (keyword, [[args]], RawRegion)
    regions: list = field(default_factory=list)
    attrs: dict = field(default_factory=dict)
    fn_type: Optional[FunctionType] = None
    extra: dict = field(default_factory=dict)


class _Angle:
    """An `xxx<...>` attribute whose decoding waits for a `: type`."""

    def __init__(self, tok: Token):
        self.tok = tok


_QUANTIZED = re.compile(r"tensor<((?:\d+x)*)!quant\.uniform<\s*(u?i\d+)")


def dense_type(type):
    """The type a dense value is read as: a quantized tensor's values are its storage
    integers (tensor<2x!quant.uniform<i8:f32, 0.5>> reads as tensor<2xi8>), as
    lowering/ops/quantized.py then retypes the constant."""
    m = _QUANTIZED.match(getattr(type, "text", ""))
    return TensorType(tuple(int(d) for d in m.group(1).split("x")[:-1]), m.group(2)) if m else type


def _attr_of(value, type=None):
    if isinstance(value, _Angle):
        try:
            out = decode_angle(str(value.tok), dense_type(type))
        except AttrError as e:
            raise _TokError(str(e), value.tok)
        if isinstance(out, tuple) and out and out[0] == "untyped-dense":
            raise _TokError("dense attribute needs a ': tensor<...>' type", value.tok)
        return out
    return value


class _TokError(Exception):
    def __init__(self, message, tok):
        self.message, self.tok = message, tok
