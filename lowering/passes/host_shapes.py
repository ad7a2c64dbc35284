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
COMMUTATIVE = ("arith.addi", "arith.muli", "arith.maxsi", "arith.minsi")


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
        self.known: dict = {}  # buffer -> its elements as dims (a shape tensor folded here)
        self.exprs: dict = {}  # (op name, operands) -> the Value computed once for them
        self.scaled: dict = {}  # Value -> (Value, k): it is that Value times the constant k
        self.sized: set = set()  # (dims, byte limit) whose buffers are known to be possible
        self.equal: dict = {}  # dim -> a dim a shape assertion checked it equal to
        self.nonneg: set = set()  # Values known >= 0: buffers' dims, sums and products of them

    def assume_equal(self, a, b) -> None:
        """Dims a and b are equal (a shape assertion checked it): same() says so."""
        ra, rb = self.root(a), self.root(b)
        if isinstance(ra, int) and isinstance(rb, int):  # equal, or the check always fails
            return
        if ra is not rb:
            self.equal[rb] = ra

    def root(self, a):
        while a in self.equal:
            a = self.equal[a]
        return a

    def same(self, a, b) -> bool:
        """Dims a and b are the same: one Value, equal constants, or asserted equal."""
        return a is b or a == b or self.root(a) is self.root(b)

    def save(self) -> tuple:
        """What the tables know, to restore after emitting into a region: the Values made
        inside it do not exist outside."""
        return (dict(self.consts), dict(self.known), dict(self.exprs), dict(self.scaled),
                set(self.sized), dict(self.equal))

    def restore(self, saved: tuple) -> None:
        """(An assertion inside a branch holds only where the branch ran: its equalities
        are dropped with the region's Values.)"""
        self.consts, self.known, self.exprs, self.scaled, self.sized, self.equal = saved

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
        static = math.prod(d for d in shape if isinstance(d, int))
        bound = MAX_BUFFER_BYTES // (element_bytes(elem) * max(static, 1))
        key = (tuple(d for d in shape if not isinstance(d, int)), bound)
        if key in self.sized:  # checked already, for an earlier buffer of these dims
            return
        self.sized.add(key)
        f64 = ScalarType("f64")
        ok, size = None, None
        for d in shape:
            if isinstance(d, int):
                continue
            nonneg = self.cmp("sge", d, 0)
            ok = nonneg if ok is None else self.emit("arith.andi", [ok, nonneg], [I1], {}).result
            as_float = self.emit("arith.sitofp", [d], [f64], {}).result
            size = as_float if size is None else self.emit("arith.mulf", [size, as_float], [f64], {}).result
        limit = self.emit("arith.constant", [], [f64], {"value": float(bound)}).result
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

    def _arith(self, name, a, b, fold, nonneg: bool = False):
        """`a name b`, folded when both are known, else emitted once per distinct operands
        (commutative ones in one order), so equal expressions are the same Value; `nonneg`:
        the result is known >= 0."""
        if isinstance(a, int) and isinstance(b, int):
            return fold(a, b)
        if name in COMMUTATIVE and isinstance(a, int):
            a, b = b, a
        key = (name, a, b)
        if key not in self.exprs:
            self.exprs[key] = self.emit(name, [self.value(a), self.value(b)], [INDEX], {}).result
        if nonneg:
            self.nonneg.add(self.exprs[key])
        return self.exprs[key]

    def is_nonneg(self, a) -> bool:
        return a >= 0 if isinstance(a, int) else a in self.nonneg

    def add(self, a, b):
        if b == 0:
            return a
        if a == 0:
            return b
        return self._arith("arith.addi", a, b, lambda x, y: x + y,
                           self.is_nonneg(a) and self.is_nonneg(b))

    def sub(self, a, b):
        return a if b == 0 else self._arith("arith.subi", a, b, lambda x, y: x - y)

    def mul(self, a, b):
        """a * b, with a dim times constants kept as that dim times their product (so
        b * 2 * 64 and b * 128 are one Value, and a reshape's count check folds away)."""
        if isinstance(a, int) and not isinstance(b, int):
            a, b = b, a
        if b == 1:
            return a
        if a == 1:
            return b
        if isinstance(b, int) and not isinstance(a, int):
            base, k = self.scaled.get(a, (a, 1))
            product = self._arith("arith.muli", base, k * b, None, self.is_nonneg(a) and b >= 0)
            self.scaled.setdefault(product, (base, k * b))
            return product
        return self._arith("arith.muli", a, b, lambda x, y: x * y,
                           self.is_nonneg(a) and self.is_nonneg(b))

    def div(self, a, b):
        return a if b == 1 else self._arith("arith.divsi", a, b, lambda x, y: x // y,
                                            self.is_nonneg(a) and self.is_nonneg(b))

    def max(self, a, b):
        """max(a, b); a size against 0 (torch's arange length, max(n, 0)) is the size."""
        if a is b:
            return a
        if isinstance(b, int) and b <= 0 and self.is_nonneg(a):
            return a
        if isinstance(a, int) and a <= 0 and self.is_nonneg(b):
            return b
        return self._arith("arith.maxsi", a, b, max, self.is_nonneg(a) or self.is_nonneg(b))

    def min(self, a, b):
        if a is b:
            return a
        return self._arith("arith.minsi", a, b, min, self.is_nonneg(a) and self.is_nonneg(b))

    def dim(self, buf: Value, d: int):
        n = buf.type.shape[d]
        if n is not None:
            return n
        v = self.emit("memref.dim", [buf, self.index(d)], [INDEX], {}).result
        self.nonneg.add(v)
        return v

    def load_index(self, buf: Value, i: int):
        """Element i of a 1-D (or scalar, i = None) integer buffer, as an index: the dim it
        was folded from when the buffer is a known shape tensor (so equal dims stay the same
        Value and need no check), else a load."""
        known = self.known.get(buf)
        if known is not None:
            return known[0 if i is None else i]
        idx = [] if i is None else [self.index(i)]
        v = self.emit("memref.load", [buf] + idx, [ScalarType(buf.type.elem)], {}).result
        return self.emit("arith.index_cast", [v], [INDEX], {}).result

    def know_constant(self, buf: Value, value) -> None:
        """A small integer constant's elements (a [2, 0] a shape is offset by), for
        fold_shape_tensor and load_index to read without a load."""
        array = value.array
        if value.type.elem in SHAPE_ELEMS and array.size <= MAX_SHAPE_ELEMENTS:
            self.known[buf] = [int(x) for x in array.reshape(-1)]

    def fold_shape_tensor(self, block, operand_bufs: list):
        """The elements of a small integer kernel's result as dims, when its ops are shape
        arithmetic (`SHAPE_FOLDS`) on constants and known shape tensors; else None. The
        kernel still writes the buffer; the host reads these instead."""
        env = {arg: self.known[b] for arg, b in zip(block.args, operand_bufs) if b in self.known}
        for op in block.ops[:-1]:
            fold = SHAPE_FOLDS.get(op.key)
            args = [env.get(v) for v in op.operands]
            t = op.results[0].type if len(op.results) == 1 else None
            if (fold is None or t is None or None in args
                    or t.elem not in FOLD_ELEMS.get(op.key, SHAPE_ELEMS)
                    or None in t.shape or math.prod(t.shape) > MAX_SHAPE_ELEMENTS):
                return None
            folded = fold(self, op, args)
            if folded is None:
                return None
            env[op.result] = folded
        returned = block.ops[-1].operands
        return env.get(returned[0]) if len(returned) == 1 else None

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


# ----------------------------------------------------------------------------- shape tensors
# A shape tensor (the [b, 64] a dynamic broadcast reads) is folded into the dims it holds when
# these ops compute it: per op, (HostShapes, op, operand element lists) -> element list.

SHAPE_ELEMS = ("i32", "i64", "ui32", "ui64", "index")
MAX_SHAPE_ELEMENTS = 16


def _fold_constant(hs, op, args):
    array = op.attrs["value"].array
    return [int(x) for x in array.reshape(-1)] if array.dtype.kind in "iu" else None


def _elementwise(combine):
    def fold(hs, op, args):
        a, b = args
        return [combine(hs, x, y) for x, y in zip(a, b)] if len(a) == len(b) else None
    return fold


def _divide(hs, x, y):
    """HLO's integer division truncates toward zero (arith.divsi)."""
    if isinstance(x, int) and isinstance(y, int):
        q = abs(x) // abs(y) if y else None
        return None if q is None else (q if (x < 0) == (y < 0) else -q)
    return hs.div(x, y)


def _fold_divide(hs, op, args):
    out = _elementwise(_divide)(hs, op, args)
    return None if out is None or None in out else out


def _fold_slice(hs, op, args):
    start, limit, stride = (op.attrs[k] for k in ("start_indices", "limit_indices", "strides"))
    return args[0][start[0]:limit[0]:stride[0]] if len(start) == 1 else None


def _fold_broadcast(hs, op, args):
    return args[0] * math.prod(op.results[0].type.shape) if len(args[0]) == 1 else None


COMPARISONS = {"EQ": "eq", "NE": "ne", "LT": "slt", "LE": "sle", "GT": "sgt", "GE": "sge"}
ORDERS = {"EQ": lambda x, y: x == y, "NE": lambda x, y: x != y, "LT": lambda x, y: x < y,
          "LE": lambda x, y: x <= y, "GT": lambda x, y: x > y, "GE": lambda x, y: x >= y}


def _fold_compare(hs, op, args):
    """A signed comparison of sizes (torch.export's Dim range checks) as 1 or 0; booleans
    (already 1 or 0) compare alike signed or not."""
    ct, elem = op.attrs.get("compare_type"), op.operands[0].type.elem
    if elem not in ("i1", "i32", "i64", "index") or \
            (elem != "i1" and getattr(ct, "value", ct) not in (None, "SIGNED")):
        return None
    a, b = args
    if len(a) != len(b):
        return None
    direction = op.attrs["comparison_direction"].value
    out = []
    for x, y in zip(a, b):
        if isinstance(x, int) and isinstance(y, int):
            out.append(int(ORDERS[direction](x, y)))
            continue
        holds = hs.cmp(COMPARISONS[direction], x, y)
        out.append(hs.emit("arith.select", [holds, hs.index(1), hs.index(0)], [INDEX], {}).result)
    return out


def _fold_select(hs, op, args):
    """jax.export's floor division spells its rounding with selects on comparisons."""
    pred, a, b = args
    if not len(pred) == len(a) == len(b):
        return None
    out = []
    for p, x, y in zip(pred, a, b):
        if isinstance(p, int):
            out.append(x if p else y)
        else:
            holds = hs.cmp("ne", p, 0)
            out.append(hs.emit("arith.select", [holds, hs.value(x), hs.value(y)], [INDEX],
                               {}).result)
    return out


def _fold_remainder(hs, op, args):
    """x % k for a non-zero constant k (truncated, as HLO's remainder); a divisor known only
    at run time is left to the kernel (x % 0 is x in HLO, undefined on the host)."""
    a, b = args
    if len(a) != len(b) or not all(isinstance(y, int) and y for y in b):
        return None
    return [(abs(x) % abs(y)) * (1 if x >= 0 else -1) if isinstance(x, int) else
            hs._arith("arith.remsi", x, y, None) for x, y in zip(a, b)]


def _sign(hs, x):
    if isinstance(x, int):
        return (x > 0) - (x < 0)
    positive = hs.emit("arith.select", [hs.cmp("sgt", x, 0), hs.index(1), hs.index(0)], [INDEX], {})
    negative = hs.cmp("slt", x, 0)
    return hs.emit("arith.select", [negative, hs.index(-1), positive.result], [INDEX], {}).result


def _fold_logical(name, combine):
    """and / or of booleans (1 or 0): bitwise on the host, as on the kernel's i1."""
    def fold(hs, op, args):
        a, b = args
        if len(a) != len(b):
            return None
        return [combine(x, y) if isinstance(x, int) and isinstance(y, int) else
                hs._arith(name, x, y, None) for x, y in zip(a, b)]
    return fold


def _fold_clamp(hs, op, args):
    """clamp(lo, x, hi), lo and hi scalars or per element: torch's slice bounds, negative
    ones counted from the end, kept within the size."""
    lo, x, hi = args
    if len(lo) not in (1, len(x)) or len(hi) not in (1, len(x)):
        return None
    return [hs.min(hs.max(v, lo[i % len(lo)]), hi[i % len(hi)]) for i, v in enumerate(x)]


def _fold_iota(hs, op, args):
    shape, d = op.results[0].type.shape, op.attrs["iota_dimension"]
    inner = math.prod(shape[d + 1:])
    return [flat // inner % shape[d] for flat in range(math.prod(shape))]


SHAPE_FOLDS = {
    "constant": _fold_constant,
    "reshape": lambda hs, op, args: args[0],  # row-major order is kept
    "convert": lambda hs, op, args: args[0],  # between the integer types of SHAPE_ELEMS
    "concatenate": lambda hs, op, args: sum(args, []) if op.attrs["dimension"] == 0 else None,
    "broadcast_in_dim": _fold_broadcast,
    "slice": _fold_slice,
    "add": _elementwise(lambda hs, x, y: hs.add(x, y)),
    "subtract": _elementwise(lambda hs, x, y: hs.sub(x, y)),
    "multiply": _elementwise(lambda hs, x, y: hs.mul(x, y)),
    "maximum": _elementwise(lambda hs, x, y: hs.max(x, y)),
    "minimum": _elementwise(lambda hs, x, y: hs.min(x, y)),
    "divide": _fold_divide,
    "compare": _fold_compare,
    "select": _fold_select,
    "remainder": _fold_remainder,
    "sign": lambda hs, op, args: [_sign(hs, x) for x in args[0]],
    "clamp": _fold_clamp,
    "iota": _fold_iota,
    "and": _fold_logical("arith.andi", lambda x, y: x & y),
    "or": _fold_logical("arith.ori", lambda x, y: x | y),
}
# Results of another element type than SHAPE_ELEMS: booleans as 1 or 0
FOLD_ELEMS = {"compare": ("i1",), "and": ("i1",), "or": ("i1",)}
