"""IR to MLIR text that the parser reads back.

Ops print in the generic form (every MLIR tool reads it); `module`, `func.func`
and `func.return` print in their pretty forms. Values are renumbered per
function: `%argN` for block arguments, `%N` for results.
"""
from __future__ import annotations

import numpy as np

from lowering.ir.attrs import escape_string
from lowering.ir.core import (
    UNIT,
    DenseAttr,
    EnumAttr,
    Module,
    OpaqueAttr,
    Operation,
    SymbolRef,
    Type,
    component,
    is_complex,
    numpy_dtype,
)

HEX_THRESHOLD = 16  # constants with more elements print as hex blobs


def format_float(x: float, elem: str) -> str:
    if np.isfinite(x):
        text = repr(float(np.float32(x))) if elem == "f32" else repr(float(x))
        if "e" not in text and "." not in text:
            text += ".0"
        return text
    return None


def format_dense(attr: DenseAttr) -> str:
    arr = np.asarray(attr.array)
    elem = attr.type.elem
    flat = arr.reshape(-1)
    if flat.size and flat.strides[0] == 0 or (flat.size > 1 and np.all(flat.view(np.uint8).reshape(
            flat.size, -1) == flat[:1].view(np.uint8))):
        return f"dense<{_scalar_text(flat[0], elem)}>"
    if flat.size == 0:
        return "dense<[]>" if arr.ndim == 1 else "dense<" + _nested_empty(arr.shape) + ">"
    if flat.size > HEX_THRESHOLD or (elem != "i1" and arr.dtype.kind == "f"
                                     and not np.all(np.isfinite(flat.astype(np.float64)))):
        if elem == "i1":
            raw = flat.astype(np.uint8).tobytes()
        else:
            raw = np.ascontiguousarray(flat).astype(numpy_dtype(elem)).tobytes()
        return 'dense<"0x' + raw.hex().upper() + '">'
    return "dense<" + _nested(arr, elem) + ">"


def _nested_empty(shape) -> str:
    return "[" * len(shape) + "]" * len(shape)


def _nested(arr, elem) -> str:
    if arr.ndim == 0:
        return _scalar_text(arr[()], elem)
    return "[" + ", ".join(_nested(a, elem) for a in arr) + "]"


def _scalar_text(x, elem: str) -> str:
    if is_complex(elem):  # (re,im), as MLIR prints a complex element
        x = complex(x)
        return f"({_scalar_text(x.real, component(elem))},{_scalar_text(x.imag, component(elem))})"
    if elem == "i1":
        return "true" if bool(x) else "false"
    if elem in ("f16", "bf16", "f32", "f64"):
        text = format_float(float(x), elem)
        if text is None:  # non-finite: its bit pattern, as MLIR prints it
            bits = np.asarray(x, dtype=numpy_dtype(elem)).view(f"u{np.dtype(numpy_dtype(elem)).itemsize}")
            return "0x%X" % int(bits)
        return text
    return str(int(x))


def format_attr(value) -> str:
    if value is UNIT:
        return "unit"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return f"{value} : i64"
    if isinstance(value, float):
        if np.isfinite(value):
            return f"{value!r} : f64"
        return "0x%X : f64" % int(np.array(value, np.float64).view(np.uint64))
    if isinstance(value, complex):  # a complex scalar constant in loop IR
        re, im = (format_attr(p).rsplit(" : ", 1)[0] for p in (value.real, value.imag))
        return f"({re},{im}) : complex<f64>"
    if isinstance(value, str):
        return escape_string(value)
    if isinstance(value, DenseAttr):
        return f"{format_dense(value)} : {value.type}"
    if isinstance(value, tuple):
        if all(isinstance(v, bool) for v in value) and value:
            return "array<i1: " + ", ".join("true" if v else "false" for v in value) + ">"
        if all(isinstance(v, int) for v in value):
            return "array<i64" + (": " + ", ".join(map(str, value)) if value else "") + ">"
        return "[" + ", ".join(format_attr(v) for v in value) + "]"
    if isinstance(value, list):
        return "[" + ", ".join(format_attr(v) for v in value) + "]"
    if isinstance(value, dict):
        return format_attr_dict(value)
    if isinstance(value, EnumAttr):
        if not value.kind:
            return value.value
        return f"#mhlo<{value.kind} {value.value}>"
    if isinstance(value, SymbolRef):
        return "@" + value.name
    if isinstance(value, OpaqueAttr):
        return value.text
    if isinstance(value, Type):
        return str(value)
    raise TypeError(f"cannot print attribute {value!r}")


def format_attr_dict(attrs: dict) -> str:
    items = []
    for k, v in attrs.items():
        key = k if _is_bare(k) else escape_string(k)
        items.append(key if v is UNIT else f"{key} = {format_attr(v)}")
    return "{" + ", ".join(items) + "}"


def _is_bare(key: str) -> bool:
    return key.replace("_", "a").replace(".", "a").replace("$", "a").isalnum() and not key[0].isdigit()


class Printer:
    def __init__(self, locations: bool = False):
        self.locations = locations  # print each op's known location as MLIR does: loc("f":l:c)
        self.names: dict = {}
        self.next_value = 0
        self.next_arg = 0
        self.lines: list[str] = []

    def name(self, v) -> str:
        if v not in self.names:
            return "%<<undefined>>"
        return self.names[v]

    def define_results(self, op: Operation) -> str:
        if not op.results:
            return ""
        base = f"%{self.next_value}"
        self.next_value += 1
        if len(op.results) == 1:
            self.names[op.results[0]] = base
            return base + " = "
        for i, r in enumerate(op.results):
            self.names[r] = f"{base}#{i}"
        return f"{base}:{len(op.results)} = "

    def where(self, op: Operation) -> str:
        """` loc("file":line:col)` after an op whose location is known, when asked: the
        parser keeps it as the op's location (a PyTorch program's model file:line, which
        AOT_PROFILE and --report then name instead of a line of this text)."""
        loc = op.loc
        if not self.locations or loc.line <= 0:
            return ""
        return f" loc({escape_string(loc.file)}:{loc.line}:{loc.col})"

    def define_arg(self, v) -> str:
        name = f"%arg{self.next_arg}"
        self.next_arg += 1
        self.names[v] = name
        return name

    def module(self, module: Module) -> str:
        head = "module"
        if module.name:
            head += f" @{module.name}"
        if module.attrs:
            head += " attributes " + format_attr_dict(module.attrs)
        self.lines.append(head + " {")
        for op in module.ops:
            self.op(op, 1)
        self.lines.append("}")
        return "\n".join(self.lines) + "\n"

    def op(self, op: Operation, indent: int) -> None:
        pad = "  " * indent
        if op.name == "func.func":
            return self.func(op, indent)
        if op.name == "func.return":
            vals = ", ".join(self.name(v) for v in op.operands)
            types = ", ".join(str(v.type) for v in op.operands)
            self.lines.append(pad + ("func.return" + (f" {vals} : {types}" if vals else "")))
            return
        operands = ", ".join(self.name(v) for v in op.operands)
        head = f'"{op.name}"({operands})'
        types = f"({', '.join(str(v.type) for v in op.operands)}) -> "
        rtypes = [str(r.type) for r in op.results]
        types += rtypes[0] if len(rtypes) == 1 else "(" + ", ".join(rtypes) + ")"
        attrs = (" " + format_attr_dict(op.attrs)) if op.attrs else ""
        prefix = pad + self.define_results(op) if not op.regions else None
        if not op.regions:
            self.lines.append(f"{prefix}{head}{attrs} : {types}{self.where(op)}")
            return
        # results are defined after the regions print, but named first so the text reads in order
        result_text = self.define_results(op)
        self.lines.append(f"{pad}{result_text}{head} ({{")
        for i, region in enumerate(op.regions):
            if i:
                self.lines.append(pad + "}, {")
            self.region(region, indent + 1)
        self.lines.append(f"{pad}}}){attrs} : {types}{self.where(op)}")

    def region(self, region, indent: int, entry_named: bool = False) -> None:
        pad = "  " * indent
        for bi, block in enumerate(region.blocks):
            if (block.args and not (bi == 0 and entry_named)) or bi:
                args = ", ".join(f"{self.define_arg(a)}: {a.type}" for a in block.args)
                self.lines.append(pad[:-2] + f"^bb{bi}({args}):")
            for op in block.ops:
                self.op(op, indent)

    def func(self, op: Operation, indent: int) -> None:
        pad = "  " * indent
        self.next_value = 0
        self.next_arg = 0
        fn = op.attrs["function_type"]
        vis = op.attrs.get("sym_visibility")
        head = "func.func " + (f"{vis} " if vis else "") + "@" + op.attrs["sym_name"]
        arg_attrs = op.attrs.get("arg_attrs") or [{}] * len(fn.inputs)
        res_attrs = op.attrs.get("res_attrs") or [{}] * len(fn.results)
        extra = {k: v for k, v in op.attrs.items()
                 if k not in ("function_type", "sym_name", "sym_visibility", "arg_attrs", "res_attrs")}
        if op.regions:
            block = op.regions[0].blocks[0]
            args = []
            for a, attrs in zip(block.args, arg_attrs):
                text = f"{self.define_arg(a)}: {a.type}"
                if attrs:
                    text += " " + format_attr_dict(attrs)
                args.append(text)
        else:
            args = [str(t) + (" " + format_attr_dict(a) if a else "") for t, a in zip(fn.inputs, arg_attrs)]
        results = [str(t) + (" " + format_attr_dict(a) if a else "") for t, a in zip(fn.results, res_attrs)]
        head += "(" + ", ".join(args) + ")"
        if results:
            head += " -> " + (results[0] if len(results) == 1 and not res_attrs[0] else
                              "(" + ", ".join(results) + ")")
        if extra:
            head += " attributes " + format_attr_dict(extra)
        if not op.regions:
            self.lines.append(pad + head)
            return
        self.lines.append(pad + head + " {")
        self.region(op.regions[0], indent + 1, entry_named=True)
        self.lines.append(pad + "}")


def print_module(module: Module, locations: bool = False) -> str:
    return Printer(locations).module(module)


def print_module_source(module: Module):
    """The module as text for the driver, its big constants not printed: each is `"0x@N"`,
    its array handed over as blob N (a SourceText, as read_source makes of a big file). A
    module built in memory (a PyTorch program's frozen weights: 344 MB for ViT-B/16) reaches
    the parser without its weights ever being hex digits, and `digest` (of the text and the
    blobs' bytes) keys its build."""
    import hashlib

    from lowering.frontend.source import LONG_HEX_DIGITS, ArrayBlob, SourceText
    blobs, saved = [], []
    for outer in module.ops:
        for op in outer.walk():
            for key, value in op.attrs.items():
                if isinstance(value, DenseAttr) and value.array.nbytes * 2 >= LONG_HEX_DIGITS:
                    saved.append((op, key, value))
                    op.attrs[key] = OpaqueAttr(f'dense<"0x@{len(blobs)}"> : {value.type}')
                    blobs.append(ArrayBlob(value))
    try:
        text = SourceText(print_module(module, locations=True))
    finally:
        for op, key, value in saved:
            op.attrs[key] = value
    digest = hashlib.sha256(text.encode())
    for blob in blobs:
        digest.update(blob.raw())
    text.hex_blobs, text.shifts, text.digest = blobs, [], digest.hexdigest()
    return text


def print_op(op: Operation) -> str:
    p = Printer()
    p.op(op, 0)
    return "\n".join(p.lines)
