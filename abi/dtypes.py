"""Element types of the ABI, keyed by their MLIR spelling.

One table gives everything each side needs for a dtype: the code stored in
aot_tensor.dtype (must equal the aot_dtype enum in runtime_c/aot_runtime.h; a
test checks), the byte size, the numpy dtype a loader hands back, and the C
type named in generated header comments.
"""
from __future__ import annotations

from dataclasses import dataclass

import ml_dtypes
import numpy as np


@dataclass(frozen=True)
class DType:
    """One element type as the ABI sees it."""

    name: str  # MLIR spelling: "f32", "ui8", "i1"
    code: int  # aot_dtype enum value
    size: int  # bytes per element (i1 is stored as one byte 0/1)
    numpy: np.dtype
    ctype: str  # C type of one element, for comments
    enum: str  # name of the aot_dtype enumerator

    def __str__(self) -> str:
        return self.name


def _row(name, code, size, numpy, ctype, enum):
    return name, DType(name, code, size, np.dtype(numpy), ctype, enum)


DTYPES: dict[str, DType] = dict([
    _row("f16", 0, 2, np.float16, "uint16_t (f16 bits)", "AOT_F16"),
    _row("bf16", 1, 2, ml_dtypes.bfloat16, "uint16_t (bf16 bits)", "AOT_BF16"),
    _row("f32", 2, 4, np.float32, "float", "AOT_F32"),
    _row("f64", 3, 8, np.float64, "double", "AOT_F64"),
    _row("i1", 4, 1, np.bool_, "uint8_t (0 or 1)", "AOT_I1"),
    _row("i8", 5, 1, np.int8, "int8_t", "AOT_I8"),
    _row("i16", 6, 2, np.int16, "int16_t", "AOT_I16"),
    _row("i32", 7, 4, np.int32, "int32_t", "AOT_I32"),
    _row("i64", 8, 8, np.int64, "int64_t", "AOT_I64"),
    _row("ui8", 9, 1, np.uint8, "uint8_t", "AOT_U8"),
    _row("ui16", 10, 2, np.uint16, "uint16_t", "AOT_U16"),
    _row("ui32", 11, 4, np.uint32, "uint32_t", "AOT_U32"),
    _row("ui64", 12, 8, np.uint64, "uint64_t", "AOT_U64"),
    _row("complex<f32>", 13, 8, np.complex64, "float _Complex (re, im)", "AOT_C64"),
    _row("complex<f64>", 14, 16, np.complex128, "double _Complex (re, im)", "AOT_C128"),
    # sub-byte integers: a byte each, as ml_dtypes stores them (read from the low bits)
    _row("i2", 15, 1, ml_dtypes.int2, "int8_t (an i2, sign-extended)", "AOT_I2"),
    _row("i4", 16, 1, ml_dtypes.int4, "int8_t (an i4, sign-extended)", "AOT_I4"),
    _row("ui2", 17, 1, ml_dtypes.uint2, "uint8_t (a ui2)", "AOT_U2"),
    _row("ui4", 18, 1, ml_dtypes.uint4, "uint8_t (a ui4)", "AOT_U4"),
])

_BY_CODE = {d.code: d for d in DTYPES.values()}
_BY_NUMPY = {d.numpy: d for d in DTYPES.values()}


def dtype(name: str) -> DType:
    """The DType of an MLIR element type name; KeyError names the known ones."""
    try:
        return DTYPES[name]
    except KeyError:
        raise KeyError(f"unsupported element type {name!r}; "
                       f"known: {', '.join(DTYPES)}") from None


def from_code(code: int) -> DType:
    """The DType of an aot_dtype code read from library metadata."""
    try:
        return _BY_CODE[code]
    except KeyError:
        raise ValueError(f"unknown aot_dtype code {code}") from None


def from_numpy(dt) -> DType | None:
    """The DType of a numpy dtype, or None when the ABI has no such type."""
    return _BY_NUMPY.get(np.dtype(dt))
