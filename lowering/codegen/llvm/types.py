"""LLVM types of the loop stage's element types, and the buffer value every emitter passes.

Shared by the kernel emitters, the host code and the entry ABI, so it sits below them all.
"""
from __future__ import annotations

from llvmlite import ir
from llvmlite.ir import types as _ir_types

# LLVM 17+ reads only opaque pointers (`ptr`); llvmlite's IR layer still prints
# globals as typed pointers (`i8*`) unless this switch is off.
_ir_types.ir_layer_typed_pointers_enabled = False

I1, I8, I16, I32, I64 = (ir.IntType(n) for n in (1, 8, 16, 32, 64))
PTR = ir.PointerType()
VOID = ir.VoidType()
F32 = ir.FloatType()


def loop_hint(module: ir.Module, name: str, *values) -> ir.MDValue:
    """A loop ID (self-referential, as LLVM wants) carrying one hint, e.g.
    ("llvm.loop.interleave.count", i32 4) or ("llvm.loop.unroll.disable",)."""
    inner = module.add_metadata([ir.MetaDataString(module, name), *values])
    loop = module.add_metadata([inner, inner])
    loop.operands = (loop, inner)
    return loop


def llvm_type(elem: str) -> ir.Type:
    """Register type of an element; bf16 lives in an i16 (llvmlite has no bfloat); a complex
    number is a {re, im} struct, so in memory it is the interleaved pair numpy and C99 use
    (aligned as its component) and loads, stores, selects and phis move it whole."""
    if elem.startswith("complex<"):
        return ir.LiteralStructType([llvm_type(elem[len("complex<"):-1])] * 2)
    if elem == "f16":
        return ir.HalfType()
    if elem == "f32":
        return F32
    if elem == "f64":
        return ir.DoubleType()
    if elem == "bf16":
        return I16
    if elem == "index":
        return I64
    return ir.IntType(int(elem.lstrip("uis")))


SUB_BYTE = ("i1", "i2", "i4", "ui2", "ui4")


def storage_type(elem: str) -> ir.Type:
    """In memory, i1 takes a byte (numpy bool), and so do the sub-byte integers (ml_dtypes'
    int2/int4/uint2/uint4 layout: a value per byte, read from its low bits; written
    sign-extended (signed) or zero-extended, so an int8 view of the buffer shows the value)."""
    return I8 if elem in SUB_BYTE else llvm_type(elem)


def mangle(t: ir.Type) -> str:
    """The type suffix of an overloaded intrinsic, as in `llvm.exp.f32`."""
    if isinstance(t, ir.HalfType):
        return "f16"
    if isinstance(t, ir.FloatType):
        return "f32"
    if isinstance(t, ir.DoubleType):
        return "f64"
    return f"i{t.width}"


class MemRef:
    """A buffer in LLVM: its data pointer and its dims as i64 values."""

    def __init__(self, ptr, dims, elem):
        self.ptr, self.dims, self.elem = ptr, dims, elem
        self.on_stack = False
