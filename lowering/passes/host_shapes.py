"""Run-time shapes: host code that computes every buffer's dims before its kernel runs.

A dim is an `int` when known at compile time, otherwise an `index` Value
computed on the host. Per-op shape rules (the registry's `shape_rule`) map operand dims, and
the values of shape operands (read from their buffers), to result dims; a
fusion's shape function is its ops' rules composed. Dims that are the same
Value are equal by construction; dims that must agree but are not provably
equal get a run-time check whose failure is the call's error, naming the op
and the dims.
"""
from __future__ import annotations

import math

from lowering.ir.core import INDEX, Operation, ScalarType, Value
from lowering.ops.registry import op_text as _op_text

I1 = ScalarType("i1")


MAX_BUFFER_BYTES = 2 ** 62  # a buffer past this is refused before its size could wrap int64


def element_bytes(elem: str) -> int:
    digits = "".join(c for c in elem if c.isdigit())
    return max(1, int(digits) // 8) if digits else 8


class HostShapes:
    """Emits index arithmetic and checks into the host function, folding constants."""

    def __init__(self, emit, entry: str):
        self.emit = emit  # emit(name, operands, result_types, attrs) -> Operation
        self.entry = entry
        self.consts: dict = {}
        self.data_derived: dict = {}  # Value -> whether data (a loaded element) decides it

    def from_data(self, v) -> bool:
        """Whether dim `v` comes from a value read out of a buffer (a shape operand's
        elements), not only from the dims of buffers that exist."""
        if isinstance(v, int) or not isinstance(v.owner, Operation):
            return False
        if v not in self.data_derived:
            op = v.owner
            self.data_derived[v] = op.name == "memref.load" or (
                op.name != "memref.dim" and any(self.from_data(o) for o in op.operands))
        return self.data_derived[v]

    def require_buffer(self, op: Operation, elem: str, shape: list, always: bool = False) -> None:
        """A result whose dims data decides must be a buffer that can exist: no dim
        negative, at most MAX_BUFFER_BYTES (a byte size that wraps int64 would allocate a
        small block, then be written past its end). Checked at run time, naming the op;
        `always` checks dims that come from the arguments too (the shape query's peak)."""
        if not always and not any(self.from_data(d) for d in shape):
            return
        if all(isinstance(d, int) for d in shape):
            return
        f64 = ScalarType("f64")
        ok, size = None, None
        for d in shape:
            if isinstance(d, int):
                continue
            nonneg = self.cmp("sge", d, 0)
            ok = nonneg if ok is None else self.emit("arith.andi", [ok, nonneg], [I1], {}).result
            as_float = self.emit("arith.sitofp", [d], [f64], {}).result
            size = as_float if size is None else self.emit("arith.mulf", [size, as_float], [f64], {}).result
        static = math.prod(d for d in shape if isinstance(d, int))
        limit = self.emit("arith.constant", [], [f64],
                          {"value": float(MAX_BUFFER_BYTES // (element_bytes(elem) * max(static, 1)))}).result
        fits = self.emit("arith.cmpf", [size, limit], [I1], {"predicate": "ole"}).result
        ok = self.emit("arith.andi", [ok, fits], [I1], {}).result
        dims = ", ".join("%lld" if not isinstance(d, int) else str(d) for d in shape)
        self.check(ok, f"{_op_text(op)}: result {elem}[{dims}] has a negative dim or needs more "
                       f"than 2^62 bytes", *[d for d in shape if not isinstance(d, int)])

    def index(self, n: int) -> Value:
        if n not in self.consts:
            self.consts[n] = self.emit("arith.constant", [], [INDEX], {"value": n}).result
        return self.consts[n]

    def value(self, d) -> Value:
        return self.index(d) if isinstance(d, int) else d

    def _arith(self, name, a, b, fold):
        if isinstance(a, int) and isinstance(b, int):
            return fold(a, b)
        return self.emit(name, [self.value(a), self.value(b)], [INDEX], {}).result

    def add(self, a, b):
        if b == 0:
            return a
        if a == 0:
            return b
        return self._arith("arith.addi", a, b, lambda x, y: x + y)

    def sub(self, a, b):
        return a if b == 0 else self._arith("arith.subi", a, b, lambda x, y: x - y)

    def mul(self, a, b):
        if a == 1:
            return b
        if b == 1:
            return a
        return self._arith("arith.muli", a, b, lambda x, y: x * y)

    def div(self, a, b):
        return a if b == 1 else self._arith("arith.divsi", a, b, lambda x, y: x // y)

    def max(self, a, b):
        if a is b:
            return a
        return self._arith("arith.maxsi", a, b, max)

    def min(self, a, b):
        if a is b:
            return a
        return self._arith("arith.minsi", a, b, min)

    def dim(self, buf: Value, d: int):
        n = buf.type.shape[d]
        if n is not None:
            return n
        return self.emit("memref.dim", [buf, self.index(d)], [INDEX], {}).result

    def load_index(self, buf: Value, i: int):
        """Element i of a 1-D (or scalar, i = None) integer buffer, as an index."""
        idx = [] if i is None else [self.index(i)]
        v = self.emit("memref.load", [buf] + idx, [ScalarType(buf.type.elem)], {}).result
        return self.emit("arith.index_cast", [v], [INDEX], {}).result

    def check(self, cond: Value, message: str, *args) -> None:
        """Fail the call with `message` (printf-style, %lld per arg) unless `cond` holds."""
        self.emit("aot.check", [cond] + [self.value(a) for a in args], [],
                  {"message": f"{self.entry}: " + message.replace("%", "%%").replace("%%lld", "%lld")})

    def cmp(self, pred: str, a, b) -> Value:
        return self.emit("arith.cmpi", [self.value(a), self.value(b)], [I1],
                         {"predicate": pred}).result

    def require_equal(self, a, b, op: Operation, what: str):
        """a and b must be equal: proven now, or checked at run time. Returns the known one."""
        if a is b or (isinstance(a, int) and isinstance(b, int) and a == b):
            return a
        if isinstance(a, int) and isinstance(b, int):
            raise op.error(f"{what}: {a} != {b}")
        self.check(self.cmp("eq", a, b), f"{_op_text(op)}: {what}: %lld != %lld", a, b)
        return a if isinstance(a, int) else b

    def require(self, pred: str, a, b, op: Operation, what: str):
        if isinstance(a, int) and isinstance(b, int):
            ok = {"sle": a <= b, "slt": a < b, "sge": a >= b, "sgt": a > b}[pred]
            if not ok:
                raise op.error(f"{what} ({a} vs {b})")
            return
        self.check(self.cmp(pred, a, b), f"{_op_text(op)}: {what} (%lld vs %lld)", a, b)
