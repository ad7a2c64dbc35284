"""Run-time shapes: host code that computes every buffer's dims before its kernel runs.

A dim is an `int` when known at compile time, otherwise an `index` Value
computed on the host. Per-op shape rules (SHAPE_RULES) map operand dims, and
the values of shape operands (read from their buffers), to result dims; a
fusion's shape function is its ops' rules composed. Dims that are the same
Value are equal by construction; dims that must agree but are not provably
equal get a run-time check whose failure is the call's error, naming the op
and the dims.
"""
from __future__ import annotations

from lowering.ir.core import INDEX, Operation, ScalarType, Value

I1 = ScalarType("i1")

# Operands read on the host as shapes (sizes, offsets), never fused into a consumer.
SHAPE_OPERANDS = {
    "dynamic_broadcast_in_dim": (1,), "dynamic_reshape": (1,), "real_dynamic_slice": (1, 2, 3),
    "dynamic_iota": (0,), "dynamic_pad": (2, 3, 4), "dhlo.slice": (1, 2),
}


class HostShapes:
    """Emits index arithmetic and checks into the host function, folding constants."""

    def __init__(self, emit, entry: str):
        self.emit = emit  # emit(name, operands, result_types, attrs) -> Operation
        self.entry = entry
        self.consts: dict = {}

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


def _op_text(op: Operation) -> str:
    return f"'{op.name}' at {op.loc}"


def static_or(t_shape, dims):
    """Prefer what the declared type says where it is static."""
    return [t if t is not None else d for t, d in zip(t_shape, dims)]


# ----------------------------------------------------------------------------- rules
# rule(hs, op, shapes, bufs) -> list of result shapes; shapes[i] is operand i's dims,
# bufs[i] its buffer on the host (only guaranteed for SHAPE_OPERANDS).


def _same_as_operands(hs, op, shapes, bufs):
    ranked = [s for s in shapes if len(s) == op.results[0].type.rank]
    out = list(ranked[0])
    for s in ranked[1:]:
        for d, (a, b) in enumerate(zip(out, s)):
            out[d] = hs.require_equal(a, b, op, f"operand dim {d} differs")
    return [static_or(op.results[0].type.shape, out)] * len(op.results)


def _check_broadcast(hs, op, src_shape, out):
    """Each operand dim is 1 (expanded) or equal to the result dim it maps to."""
    for i, d in enumerate(op.attrs["broadcast_dimensions"]):
        src = src_shape[i]
        if src == 1 or src is out[d]:
            continue
        if isinstance(src, int) and isinstance(out[d], int):
            if src != out[d]:
                raise op.error(f"operand dim {i} ({src}) cannot broadcast to {out[d]}")
            continue
        ok = hs.emit("arith.ori", [hs.cmp("eq", src, out[d]), hs.cmp("eq", src, 1)], [I1], {}).result
        hs.check(ok, f"{_op_text(op)}: operand dim {i} is %lld, cannot broadcast to %lld",
                 src, out[d])


def _broadcast_in_dim(hs, op, shapes, bufs):
    out = list(op.results[0].type.shape)
    for i, d in enumerate(op.attrs["broadcast_dimensions"]):
        if out[d] is None:
            out[d] = shapes[0][i]
    if any(d is None for d in out):
        raise op.error("result dims that no operand dim determines need dynamic_broadcast_in_dim")
    _check_broadcast(hs, op, shapes[0], out)
    return [out]


def _dynamic_broadcast_in_dim(hs, op, shapes, bufs):
    rank = op.results[0].type.rank
    out = static_or(op.results[0].type.shape, [hs.load_index(bufs[1], i) for i in range(rank)])
    _check_broadcast(hs, op, shapes[0], out)
    return [out]


def _reshape_count_check(hs, op, src, out):
    n_in, n_out = 1, 1
    for d in src:
        n_in = hs.mul(n_in, d)
    for d in out:
        n_out = hs.mul(n_out, d)
    hs.require_equal(n_in, n_out, op, "reshape changes the element count")


def _reshape(hs, op, shapes, bufs):
    out = list(op.results[0].type.shape)
    if any(d is None for d in out):
        raise op.error("reshape to a dynamic shape needs dynamic_reshape")
    _reshape_count_check(hs, op, shapes[0], out)
    return [out]


def _dynamic_reshape(hs, op, shapes, bufs):
    rank = op.results[0].type.rank
    out = static_or(op.results[0].type.shape, [hs.load_index(bufs[1], i) for i in range(rank)])
    _reshape_count_check(hs, op, shapes[0], out)
    return [out]


def _transpose(hs, op, shapes, bufs):
    return [[shapes[0][p] for p in op.attrs["permutation"]]]


def _slice(hs, op, shapes, bufs):
    out = []
    for d, (s, l, st) in enumerate(zip(op.attrs["start_indices"], op.attrs["limit_indices"],
                                       op.attrs["strides"])):
        hs.require("sle", l, shapes[0][d], op, f"slice limit of dim {d} exceeds the operand")
        out.append((l - s + st - 1) // st)
    return [out]


def _real_dynamic_slice(hs, op, shapes, bufs):
    out = []
    for d, n in enumerate(shapes[0]):
        s, l, st = (hs.load_index(bufs[k], d) for k in (1, 2, 3))
        hs.require("sge", s, 0, op, f"start of dim {d} is negative")
        hs.require("sle", s, l, op, f"start of dim {d} is past its limit")
        hs.require("sle", l, n, op, f"limit of dim {d} exceeds the operand")
        hs.require("sgt", st, 0, op, f"stride of dim {d} must be positive")
        out.append(hs.div(hs.add(hs.sub(l, s), hs.sub(st, 1)), st))
    return [static_or(op.results[0].type.shape, out)]


def _dhlo_slice(hs, op, shapes, bufs):
    """The RFC's slice: start and size given as tensors."""
    out = []
    for d, n in enumerate(shapes[0]):
        s, size = hs.load_index(bufs[1], d), hs.load_index(bufs[2], d)
        hs.require("sge", s, 0, op, f"start of dim {d} is negative")
        hs.require("sge", size, 0, op, f"size of dim {d} is negative")
        hs.require("sle", hs.add(s, size), n, op, f"start + size of dim {d} exceeds the operand")
        out.append(size)
    return [static_or(op.results[0].type.shape, out)]


def _pad(hs, op, shapes, bufs):
    lo, hi, inner = (op.attrs[k] for k in ("edge_padding_low", "edge_padding_high",
                                           "interior_padding"))
    out = []
    for d, n in enumerate(shapes[0]):
        gaps = hs.mul(hs.max(hs.sub(n, 1), 0), inner[d]) if inner[d] else 0
        size = hs.add(hs.add(hs.add(n, lo[d] + hi[d]), gaps), 0)
        hs.require("sge", size, 0, op, f"padding makes dim {d} negative")
        out.append(size)
    return [static_or(op.results[0].type.shape, out)]


def _dynamic_pad(hs, op, shapes, bufs):
    out = []
    for d, n in enumerate(shapes[0]):
        lo, hi, inner = (hs.load_index(bufs[k], d) for k in (2, 3, 4))
        hs.require("sge", inner, 0, op, f"interior padding of dim {d} is negative")
        gaps = hs.mul(hs.max(hs.sub(n, 1), 0), inner)
        size = hs.add(hs.add(hs.add(n, lo), hi), gaps)
        hs.require("sge", size, 0, op, f"padding makes dim {d} negative")
        out.append(size)
    return [static_or(op.results[0].type.shape, out)]


def _concatenate(hs, op, shapes, bufs):
    dim = op.attrs["dimension"]
    out = list(shapes[0])
    total = 0
    for s in shapes:
        for d in range(len(out)):
            if d != dim:
                out[d] = hs.require_equal(out[d], s[d], op, f"operands differ in dim {d}")
        total = hs.add(total, s[dim])
    out[dim] = total
    return [static_or(op.results[0].type.shape, out)]


def _iota(hs, op, shapes, bufs):
    out = list(op.results[0].type.shape)
    if any(d is None for d in out):
        raise op.error("iota of a dynamic shape needs dynamic_iota")
    return [out]


def _dynamic_iota(hs, op, shapes, bufs):
    rank = op.results[0].type.rank
    return [static_or(op.results[0].type.shape, [hs.load_index(bufs[0], i) for i in range(rank)])]


def _reduce(hs, op, shapes, bufs):
    n = len(op.operands) // 2
    dims = op.attrs["dimensions"]
    base = shapes[0]
    for s in shapes[1:n]:
        for d in range(len(base)):
            hs.require_equal(base[d], s[d], op, f"reduce inputs differ in dim {d}")
    kept = [x for i, x in enumerate(base) if i not in dims]
    return [static_or(r.type.shape, kept) for r in op.results]


def _dot_general(hs, op, shapes, bufs):
    from lowering.ops.hlo_ops import dot_general_dims
    lb, rb, lc, rc = dot_general_dims(op)
    ls, rs = shapes
    for a, b in zip(lb, rb):
        hs.require_equal(ls[a], rs[b], op, f"batch dims lhs {a} and rhs {b} differ")
    for a, b in zip(lc, rc):
        hs.require_equal(ls[a], rs[b], op, f"contracting dims lhs {a} and rhs {b} differ")
    out = [ls[d] for d in lb]
    out += [x for i, x in enumerate(ls) if i not in lb and i not in lc]
    out += [x for i, x in enumerate(rs) if i not in rb and i not in rc]
    return [static_or(op.results[0].type.shape, out)]


def _static_result(hs, op, shapes, bufs):
    t = op.results[0].type
    if not t.is_static:
        raise op.error(f"result {t} must be static")
    return [list(t.shape)]


def _dynamic_update_slice(hs, op, shapes, bufs):
    for d, (a, u) in enumerate(zip(shapes[0], shapes[1])):
        hs.require("sle", u, a, op, f"update dim {d} is larger than the operand")
    return [static_or(op.results[0].type.shape, shapes[0])]


def _constant(hs, op, shapes, bufs):
    return [list(op.results[0].type.shape)]


SHAPE_RULES = {
    "broadcast_in_dim": _broadcast_in_dim, "dynamic_broadcast_in_dim": _dynamic_broadcast_in_dim,
    "reshape": _reshape, "dynamic_reshape": _dynamic_reshape, "transpose": _transpose,
    "reverse": lambda hs, op, shapes, bufs: [list(shapes[0])], "slice": _slice,
    "real_dynamic_slice": _real_dynamic_slice, "dhlo.slice": _dhlo_slice, "pad": _pad,
    "concatenate": _concatenate, "iota": _iota, "dynamic_pad": _dynamic_pad, "dynamic_iota": _dynamic_iota,
    "reduce": _reduce, "dot_general": _dot_general, "dot": _dot_general, "constant": _constant,
    "dynamic_slice": _static_result, "dynamic_update_slice": _dynamic_update_slice,
}


def shape_rule(op: Operation):
    from lowering.ops.hlo_ops import ELEMENTWISE
    key = op.key
    if key in SHAPE_RULES:
        return SHAPE_RULES[key]
    if key in ELEMENTWISE:
        return _same_as_operands
    return None

# gather, dynamic_gather, scatter: lowering/gather.py
from lowering.ops.gather import SHAPE_OPERANDS as _gs_operands, SHAPE_RULES as _gs_rules  # noqa: E402
SHAPE_RULES.update(_gs_rules)
SHAPE_OPERANDS.update(_gs_operands)

# sort, top_k (their rules also add the kernels' scratch buffers): lowering/sort.py
from lowering.ops.sort import SHAPE_RULES as _sort_rules  # noqa: E402
SHAPE_RULES.update(_sort_rules)

# reduce_window, convolution, select_and_scatter: lowering/windows.py
from lowering.ops.windows import SHAPE_RULES as _win_rules  # noqa: E402
SHAPE_RULES.update(_win_rules)
