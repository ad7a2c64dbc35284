"""Decoding of type and attribute text: `tensor<4x?xf32>`, `dense<...>`, `array<i64: ...>`.

Large constants arrive as `dense<"0x...">` hex blobs of hundreds of megabytes;
they are decoded in one numpy call, never element by element.
"""
from __future__ import annotations

import contextvars
import math
import re

import numpy as np

from lowering.ir.core import (
    ELEMENT_TYPES,
    DenseAttr,
    FunctionType,
    MemRefType,
    OpaqueType,
    ScalarType,
    TensorType,
    TupleType,
    Type,
    component,
    is_complex,
    numpy_dtype,
)


class AttrError(ValueError):
    """Malformed type or attribute text; the parser adds the location."""


def split_top_level(text: str, sep: str = ",") -> list[str]:
    """Split on `sep` where not nested in <>, (), [] or {}."""
    parts, depth, start, i = [], 0, 0, 0
    while i < len(text):
        c = text[i]
        if c == "-" and text[i + 1:i + 2] == ">":
            i += 2
            continue
        if c in "<([{":
            depth += 1
        elif c in ">)]}":
            depth -= 1
        elif c == sep and depth == 0:
            parts.append(text[start:i].strip())
            start = i + 1
        i += 1
    tail = text[start:].strip()
    if tail or parts:
        parts.append(tail)
    return parts


_DIMS = re.compile(r"^((?:(?:\?|\d+)x)*)(.*)$", re.S)


def _shape_and_rest(body: str):
    m = _DIMS.match(body.strip())
    dims = tuple(None if d == "?" else int(d) for d in m.group(1).split("x")[:-1])
    return dims, m.group(2).strip()


def parse_type(text: str) -> Type:
    """Parse one type's text."""
    text = text.strip()
    if text in ELEMENT_TYPES:
        return ScalarType(text)
    for prefix, cls in (("tensor<", TensorType), ("memref<", MemRefType)):
        if text.startswith(prefix) and text.endswith(">"):
            dims, rest = _shape_and_rest(text[len(prefix):-1])
            parts = split_top_level(rest)
            if not parts:
                raise AttrError(f"malformed type '{text}'")
            elem = parts[0]
            if elem not in ELEMENT_TYPES:
                return OpaqueType(text)
            if cls is TensorType:
                return TensorType(dims, elem, ", ".join(parts[1:]))
            if len(parts) > 1 and not _is_identity_layout(parts[1]):
                raise AttrError(f"memref layout '{parts[1]}' is not supported: buffers are dense row-major")
            return MemRefType(dims, elem)
    if text.startswith("tuple<") and text.endswith(">"):
        return TupleType(tuple(parse_type(t) for t in split_top_level(text[6:-1])))
    if text.startswith("("):
        close = _matching_paren(text, 0)
        ins = [parse_type(t) for t in split_top_level(text[1:close])]
        rest = text[close + 1:].strip()
        if not rest.startswith("->"):
            raise AttrError(f"expected '->' in function type '{text}'")
        rest = rest[2:].strip()
        if rest.startswith("("):
            outs = [parse_type(t) for t in split_top_level(rest[1:-1])]
        else:
            outs = [parse_type(rest)]
        return FunctionType(tuple(ins), tuple(outs))
    return OpaqueType(text)


def _is_identity_layout(text: str) -> bool:
    """`affine_map<(d0, d1) -> (d0, d1)>` is the only layout a dense row-major buffer has."""
    m = re.fullmatch(r"affine_map<\((.*)\)->\((.*)\)>", text.replace(" ", ""))
    return bool(m) and m.group(1) == m.group(2)


def _matching_paren(text: str, start: int) -> int:
    depth = 0
    for i in range(start, len(text)):
        if text[i] == "(":
            depth += 1
        elif text[i] == ")":
            depth -= 1
            if depth == 0:
                return i
    raise AttrError(f"unbalanced parentheses in '{text}'")


# ----------------------------------------------------------------------------- dense


def _scalar_tokens_to_array(tokens: list[str], elem: str) -> np.ndarray:
    """Literal elements to an array; a malformed number is an AttrError."""
    try:
        return _tokens_to_array(tokens, elem)
    except (ValueError, OverflowError) as e:
        if isinstance(e, AttrError):
            raise
        raise AttrError(f"malformed {elem} literal in dense attribute ({e})") from None


def _check_in_range(tokens: list[str], wide: np.ndarray, narrow: np.ndarray, elem: str) -> None:
    """A finite literal that rounds to infinity in `elem` is an error, not a silent inf
    (infinities are written as `0x7F800000`, or as `inf` / 1e999 on purpose in f64)."""
    lost = np.isinf(narrow.astype(np.float64)) & np.isfinite(wide)
    if lost.any():
        raise AttrError(f"{tokens[int(np.argmax(lost))]} is out of range for {elem}")


def _tokens_to_array(tokens: list[str], elem: str) -> np.ndarray:
    dtype = numpy_dtype(elem)
    if elem == "i1":
        out = []
        for t in tokens:
            if t in ("true", "false"):
                out.append(t == "true")
            else:
                out.append(int(t, 0) != 0)
        return np.array(out, dtype=np.bool_)
    if dtype.kind == "f" or elem == "bf16":
        # MLIR writes special floats as their bit pattern (0x7FC00000), others as decimals
        if not any(t.startswith("0x") for t in tokens):
            wide = np.array(tokens, dtype=np.float64)
            with np.errstate(over="ignore"):
                out = wide.astype(dtype)
            _check_in_range(tokens, wide, out, elem)
            return out
        itemsize = dtype.itemsize
        out = np.empty(len(tokens), dtype=dtype)
        for i, t in enumerate(tokens):
            if t.startswith("0x"):
                out[i] = np.array(int(t, 16), dtype=np.uint64).astype(f"u{itemsize}").view(dtype)
            else:
                with np.errstate(over="ignore"):
                    out[i] = float(t)
                _check_in_range([t], np.array([float(t)]), out[i:i + 1], elem)
        return out
    values = [int(t, 0) for t in tokens]
    sub_byte = elem in ("i2", "i4", "ui2", "ui4")  # ml_dtypes' types: a byte each, kind 'V'
    bits = int(elem.lstrip("ui")) if sub_byte else dtype.itemsize * 8
    signed = not elem.startswith("ui") if sub_byte else dtype.kind == "i"
    lo = -(1 << (bits - 1)) if signed else 0
    hi = (1 << bits) - 1  # signless types also take their unsigned spelling (255 : i8)
    for v in values:
        if not lo <= v <= hi:
            raise AttrError(f"integer {v} out of range for {elem}")
    return np.array([v - (1 << bits) if v >= (1 << (bits - 1)) and signed else v
                     for v in values], dtype=np.int64 if signed else np.uint64).astype(dtype)


_PAIR = re.compile(r"\(([^()]*)\)")


def _complex_literals(body: str, elem: str) -> np.ndarray:
    """`(re,im)` pairs, alone or in nested lists, each part a literal of the component type
    (decimal, or a bit pattern such as 0x7FC00000 for NaN, as MLIR prints special floats)."""
    pairs = [p.split(",") for p in _PAIR.findall(body)]
    if any(len(p) != 2 for p in pairs) or _PAIR.sub("", body).strip("[], \n\t"):
        raise AttrError(f"malformed {elem} literal in dense attribute: expected (re, im) pairs")
    comp = component(elem)
    if not pairs:
        return np.zeros(0, numpy_dtype(elem))
    parts = _scalar_tokens_to_array([t.strip() for p in pairs for t in p], comp)
    out = np.empty(len(pairs), numpy_dtype(elem))
    out.real, out.imag = parts[0::2], parts[1::2]
    return out


# Long hex blobs are set aside before lexing (frontend/parser.py, `set_aside_hex`): in the text
# the lexer sees, `"0x@N"` stands for blob N of the module being parsed.
HEX_BLOBS: contextvars.ContextVar = contextvars.ContextVar("hex_blobs", default=())


def decode_dense(body: str, type: Type) -> DenseAttr:
    """Decode the inside of `dense<...>` against its tensor type."""
    if not isinstance(type, TensorType):
        raise AttrError(f"dense attribute needs a tensor type, got '{type}'")
    if not type.is_static:
        raise AttrError(f"dense attribute needs a static shape, got '{type}'")
    dtype = numpy_dtype(type.elem)
    count = math.prod(type.shape)  # in Python ints: np.prod wraps around past 2**63
    if max((count, *type.shape)) * dtype.itemsize > np.iinfo(np.intp).max:  # numpy's strides too
        raise AttrError(f"dense attribute of type '{type}' is too large to hold")
    body = body.strip()
    if body.startswith('"0x') or body.startswith('"0X'):
        digits = body[3:-1]
        try:
            raw = HEX_BLOBS.get()[int(digits[1:])].raw() if digits.startswith("@") \
                else bytes.fromhex(digits)
        except ValueError as e:
            raise AttrError(f"malformed hex data in dense attribute ({e})") from None
        if len(raw) % dtype.itemsize:
            raise AttrError(f"dense hex data has {len(raw)} bytes, not a whole number of "
                            f"{type.elem} elements")
        flat = np.frombuffer(raw, dtype=np.uint8 if type.elem == "i1" else dtype)
        if type.elem == "i1":
            flat = flat != 0
        if flat.size == 1 and count != 1:
            return DenseAttr(np.broadcast_to(flat.reshape(()), type.shape), type)
        if flat.size != count:
            raise AttrError(f"dense hex data has {flat.size} elements, type '{type}' needs {count}")
        return DenseAttr(flat.reshape(type.shape), type)
    if is_complex(type.elem):
        flat = _complex_literals(body, type.elem)
        if flat.size == 1 and count != 1 and "[" not in body:
            return DenseAttr(np.broadcast_to(flat.reshape(()), type.shape), type)
        if flat.size != count:
            raise AttrError(f"dense literal has {flat.size} elements, type '{type}' needs {count}")
        return DenseAttr(flat.reshape(type.shape), type)
    if body.startswith("("):
        raise AttrError(f"a complex literal {body[:40]} for a {type.elem} constant")
    tokens = [t.strip() for t in body.replace("[", " ").replace("]", " ").split(",")]
    tokens = [t for t in tokens if t]
    flat = _scalar_tokens_to_array(tokens, type.elem)
    if flat.size == 1 and count != 1 and "[" not in body:
        return DenseAttr(np.broadcast_to(flat.reshape(()), type.shape), type)
    if flat.size != count:
        raise AttrError(f"dense literal has {flat.size} elements, type '{type}' needs {count}")
    return DenseAttr(flat.reshape(type.shape), type)


def decode_angle(text: str, type: Type | None):
    """An `xxx<...>` attribute token: dense (needs `type`), array<i64: ...>, or kept opaque."""
    head, body = text.split("<", 1)
    body = body[:-1]
    if head == "dense":
        if type is None:
            return ("untyped-dense", body)
        return decode_dense(body, type)
    if head == "array":
        elem, _, values = body.partition(":")
        elem = elem.strip()
        vals = [v.strip() for v in values.split(",") if v.strip()]
        if elem == "i1":
            return tuple(v == "true" for v in vals)
        try:
            if elem.startswith("f"):
                return tuple(float(v) for v in vals)
            return tuple(int(v, 0) for v in vals)
        except ValueError as e:
            raise AttrError(f"malformed {elem} element in {text[:60]} ({e})") from None
    if head == "dense_resource":
        raise AttrError("dense_resource constants (elided weights) are not supported: "
                        "print the module with its large constants kept")
    from lowering.ir.core import OpaqueAttr
    return OpaqueAttr(text)


MAX_INT_LIST = 1 << 16  # dims, permutations, paddings: one entry per dim, never this many


def dense_to_ints(value) -> tuple:
    """Integer list attributes come as array<i64>, dense<...>, or [..]; normalise to a tuple."""
    if isinstance(value, DenseAttr):
        if value.array.size > MAX_INT_LIST:  # a splat of a huge type: a loop of hours
            raise AttrError(f"an integer list of {value.array.size} elements (at most {MAX_INT_LIST})")
        return tuple(int(v) for v in np.asarray(value.array).reshape(-1))
    if isinstance(value, (list, tuple)):
        try:
            return tuple(int(v) for v in value)
        except (TypeError, ValueError):
            raise AttrError(f"expected a list of integers, got {value!r}") from None
    if isinstance(value, (int, np.integer)):
        return (int(value),)
    raise AttrError(f"expected a list of integers, got {value!r}")


def unescape_string(token: str) -> str:
    """MLIR string literal (with \\n, \\", \\HH escapes) to Python str."""
    body = token[1:-1]
    if "\\" not in body:
        return body
    out, i = bytearray(), 0
    while i < len(body):
        c = body[i]
        if c == "\\" and i + 1 < len(body):
            n = body[i + 1]
            if n in '"\\':
                out += n.encode()
                i += 2
                continue
            if n == "n":
                out += b"\n"
                i += 2
                continue
            if n == "t":
                out += b"\t"
                i += 2
                continue
            if re.match(r"[0-9A-Fa-f]{2}", body[i + 1:i + 3]):
                out.append(int(body[i + 1:i + 3], 16))
                i += 3
                continue
        out += c.encode()
        i += 1
    return out.decode("utf-8", errors="replace")


def escape_string(s: str) -> str:
    out = []
    for ch in s:
        if ch in '"\\':
            out.append("\\" + ch)
        elif ch == "\n":
            out.append("\\n")
        elif ord(ch) < 32:
            out.append("\\%02X" % ord(ch))
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'
