"""A differential fuzzer: random valid StableHLO programs, compiled and run, against a numpy
evaluation of the same ops that the generator does as it builds them.

    python tests/tooling/fuzz/differential.py -n 500 --seed 1 -j 2   (make fuzz-diff N=500 SEED=1)
    python tests/tooling/fuzz/differential.py --seed 1 --index 42 --show   (one program)
    python tests/tooling/fuzz/differential.py --replay build/fuzz-diff/mismatch-1-42.mlir

Program INDEX of seed SEED is a pure function of (SEED, INDEX): a few random ops (the table
OPS: elementwise math, compare/select/clamp, convert, broadcast_in_dim, transpose, reshape,
slice, concatenate, reverse, pad, gather, reduce, argmax/argmin, sort, reduce_window,
dot_general, convolution, iota, constants, while, if, get_dimension_size and the dynamic_*
ops) over f16, bf16, f32, f64, i32, i64 and i1 values of small shapes (one program in twelve
has dims in the hundreds); the values no op consumed are the results. Signature dims may be
`?`: every program is compiled once and called twice, with two assignments of its dynamic dims
(and fresh inputs).

The reference follows the compiler's documented semantics (tests/ops/test_ops_numeric.py):
f16 and bf16 ops computed in f32 and f32 ops in f64, each rounded once; integers wrap; x / 0 = -1,
x % 0 = x, INT_MIN / -1 = INT_MIN; shifts by >= the width give 0 (or the sign); float -> int
truncates and saturates; dynamic_slice starts are clamped. Each float value carries an
absolute error bound, propagated op by op (perturbing the inputs by their bounds, plus the
op's own rounding: 1 ulp, 5 for transcendentals, n eps sum|x| for sums in any order), and
the generator rejects an op whose result would not be a well-conditioned function of its
inputs: a compare, floor, sign or float -> int conversion whose answer the error bound could
flip, a log near 0, a value beyond a modest magnitude. So every float result must be within
its bound, and integer and bool results exact.

Each program runs in a worker process (tooling.fuzz.campaign.pool) with a time limit:
  mismatch  a result differs from the reference (or has the wrong shape or dtype)
  error     a CompileError or a run-time error on a valid program
  internal  any other exception
  crash     the worker process died;  hang  no answer within --timeout seconds
Each failure goes to --out as KIND-SEED-INDEX.mlir with an .npz beside it (inputs of both
calls, callN_argK; expected callN_expK; got callN_gotK where there was a result) and a .txt
with the details. Exit status 1 on any failure.
"""
from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
import time
import traceback
from collections import Counter
from dataclasses import dataclass, field

import ml_dtypes
import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
if ROOT not in sys.path:
    sys.path[:0] = [ROOT, os.path.join(ROOT, "tests")]

from tooling.fuzz.campaign import pool  # noqa: E402

BF16 = ml_dtypes.bfloat16
NP = {"f16": np.float16, "bf16": BF16, "f32": np.float32, "f64": np.float64, "i1": np.bool_,
      "i32": np.int32, "i64": np.int64}
FLOATS = ("f32", "f64", "f16", "bf16")
INTS = ("i32", "i64")
DTYPES = FLOATS + INTS + ("i1",)
DTYPE_WEIGHTS = (4, 2, 1.5, 1, 2.5, 1.5, 1)
# what one op computes in (f16 and bf16 in f32, as XLA's CPU backend), then rounds once
WIDE = {"f16": np.float32, "bf16": np.float32, "f32": np.float64, "f64": np.float64}
BIG = {"f16": 2e3, "bf16": 1e5, "f32": 1e6, "f64": 1e9}  # no float value beyond this magnitude
# no value whose bound is more than this * (1 + |x|)
NOISY = {"f16": 3e-2, "bf16": 0.25, "f32": 1e-3, "f64": 1e-9}
TRANSCENDENTAL_ULPS = 4
MAX_ELEMENTS = 1 << 18  # per value and call
KINDS = ("ok", "mismatch", "error", "internal", "crash", "hang")
FAILURES = KINDS[1:]


class Reject(Exception):
    """The op chosen cannot go here (no operand fits, or its result would be ill-conditioned)."""


# ----------------------------------------------------------------------------- values


@dataclass
class Value:
    name: str
    dt: str
    shape: tuple  # each dim an int or a symbol name (a `?` in the program)
    data: list  # the reference for call 0 and call 1
    err: list | None = None  # float values: absolute error bounds (float64), per call

    @property
    def rank(self):
        return len(self.shape)

    @property
    def static(self):
        return all(isinstance(d, int) for d in self.shape)


def ttype(shape, dt) -> str:
    return "tensor<" + "".join(f"{d if isinstance(d, int) else '?'}x" for d in shape) + dt + ">"


def i64s(values) -> str:
    values = list(values)
    return f"array<i64: {', '.join(map(str, values))}>" if values else "array<i64>"


def literal(x, dt) -> str:
    if dt == "i1":
        return "true" if x else "false"
    if dt in FLOATS:
        if not np.isfinite(x):  # MLIR spells infinities by their bits
            bits = np.asarray(x, NP[dt]).view(f"uint{np.dtype(NP[dt]).itemsize * 8}")
            return f"0x{int(bits):0{np.dtype(NP[dt]).itemsize * 2}X}"
        return f"{float(x):.17e}"
    return str(int(x))


def dense(a: np.ndarray, dt: str) -> str:
    if a.ndim == 0:
        return literal(a.item(), dt)
    return "[" + ", ".join(dense(x, dt) for x in a) + "]"


def _contiguous(a) -> np.ndarray:
    """A C-contiguous copy (np.ascontiguousarray makes a 0-d array 1-d)."""
    return np.array(a, order="C", copy=True)


def finfo(dt):
    return ml_dtypes.finfo(BF16) if dt == "bf16" else np.finfo(NP[dt])


def ulp(x: np.ndarray, dt: str) -> np.ndarray:
    """ulp(|x|) in dt (as float64), at least the smallest normal's (a flushed denormal)."""
    with np.errstate(all="ignore"):
        u = np.spacing(np.abs(np.asarray(x).astype(NP[dt]))).astype(np.float64)
    return np.where(np.isfinite(u), np.maximum(u, float(finfo(dt).tiny)), 0.0)


def rounded(fn, dt, *xs):
    """fn on float inputs of dt, computed one type wider (f64 for f64) and rounded once."""
    with np.errstate(all="ignore"):
        r = np.asarray(fn(*[np.asarray(x).astype(WIDE[dt]) for x in xs]))
    return r if r.dtype == np.bool_ else r.astype(NP[dt])


def corners(fn, xs, es):
    """max |fn(x + s e) - fn(x)| over every sign pattern s of the operands' error bounds,
    computed in float64: the first-order bound of an elementwise fn's inherited error."""
    with np.errstate(all="ignore"):
        x64 = [np.asarray(x, np.float64) for x in xs]
        mid = np.asarray(fn(*x64), np.float64)
        worst = np.zeros(np.broadcast(*x64).shape)
        for signs in np.ndindex(*(2,) * len(xs)):
            pert = [x + (1 if s else -1) * e for x, e, s in zip(x64, es, signs)]
            worst = np.maximum(worst, np.abs(np.asarray(fn(*pert), np.float64) - mid))
    return worst


def constant_everywhere(fn, xs, es) -> bool:
    """fn (piecewise constant) takes the same value at every corner of the error boxes."""
    with np.errstate(all="ignore"):
        x64 = [np.asarray(x, np.float64) for x in xs]
        mid = np.asarray(fn(*x64))
        for signs in np.ndindex(*(2,) * len(xs)):
            pert = [x + (1 if s else -1) * e for x, e, s in zip(x64, es, signs)]
            if not np.array_equal(np.asarray(fn(*pert)), mid, equal_nan=True):
                return False
    return True


# ----------------------------------------------------------------------------- integer semantics


def bits(dt):
    return {"i32": 32, "i64": 64}[dt]


def int_div(a, b):
    """XLA's: truncation toward zero, x / 0 = -1, INT_MIN / -1 = INT_MIN."""
    info = np.iinfo(a.dtype)
    zero = b == 0
    overflow = (a == info.min) & (b == -1)
    safe = np.where(zero | overflow, 1, b).astype(a.dtype)
    q = a // safe
    q = np.where((q * safe != a) & ((a < 0) != (safe < 0)), q + 1, q).astype(a.dtype)
    return np.where(zero, -1, q).astype(a.dtype)


def int_rem(a, b):
    """x % 0 = x, INT_MIN % -1 = 0, else a - b * trunc(a / b) (the dividend's sign)."""
    info = np.iinfo(a.dtype)
    with np.errstate(all="ignore"):
        r = (a - b * int_div(a, b)).astype(a.dtype)
    r = np.where((a == info.min) & (b == -1), 0, r)
    return np.where(b == 0, a, r).astype(a.dtype)


def _unsigned(a):
    return a.view(f"uint{a.dtype.itemsize * 8}").astype(np.uint64)


def shift(kind):
    def f(a, b):
        w = a.dtype.itemsize * 8
        amount = _unsigned(np.asarray(b))
        small = np.minimum(amount, w - 1)
        if kind == "shift_right_arithmetic":
            return (a >> small.astype(a.dtype)).astype(a.dtype)
        ua = _unsigned(np.asarray(a))
        mask = np.uint64((1 << w) - 1) if w < 64 else np.uint64(0xFFFFFFFFFFFFFFFF)
        r = (ua << small) & mask if kind == "shift_left" else ua >> small
        r = np.where(amount >= w, np.uint64(0), r)
        return r.astype(f"uint{w}").view(a.dtype)
    return f


def clz(a):
    w = a.dtype.itemsize * 8
    u = _unsigned(a)
    n = np.zeros(a.shape, np.int64)
    for k in range(w):
        n += (u < (np.uint64(1) << np.uint64(w - 1 - k))) & (n == k)
    return n.astype(a.dtype)


def round_afz(x):
    t = np.trunc(x)
    return t + np.sign(x) * (np.abs(x - t) >= 0.5)


def float_to_int(x, dt):
    """Truncate, saturate, NaN -> 0."""
    info = np.iinfo(NP[dt])
    t = np.trunc(np.nan_to_num(np.asarray(x, np.float64), nan=0.0))
    hi, lo = t >= 2.0 ** (bits(dt) - 1), t < -2.0 ** (bits(dt) - 1)
    inside = np.where(hi | lo, 0, t).astype(NP[dt])
    return np.where(hi, info.max, np.where(lo, info.min, inside)).astype(NP[dt])


# ----------------------------------------------------------------------------- op tables

# float unary: name -> (numpy fn, own error in ulps, domain over the input (None: all), step)
# `step`: piecewise constant (floor, sign...): the error bound must not reach a jump.
UNARY_FLOAT = {
    "abs": (np.abs, 0, None, False),
    "negate": (np.negative, 0, None, False),
    "exponential": (np.exp, TRANSCENDENTAL_ULPS, lambda x: x < 6, False),
    "exponential_minus_one": (np.expm1, TRANSCENDENTAL_ULPS, lambda x: x < 6, False),
    "log": (np.log, TRANSCENDENTAL_ULPS, lambda x: x > 1e-2, False),
    "log_plus_one": (np.log1p, TRANSCENDENTAL_ULPS, lambda x: x > -0.9, False),
    "logistic": (lambda x: 1 / (1 + np.exp(-x)), TRANSCENDENTAL_ULPS, None, False),
    "tanh": (np.tanh, TRANSCENDENTAL_ULPS, None, False),
    "sqrt": (np.sqrt, 1, lambda x: x > 1e-3, False),
    "rsqrt": (lambda x: 1 / np.sqrt(x), TRANSCENDENTAL_ULPS, lambda x: x > 1e-2, False),
    "cbrt": (np.cbrt, TRANSCENDENTAL_ULPS, lambda x: np.abs(x) > 1e-3, False),
    "sine": (np.sin, TRANSCENDENTAL_ULPS, lambda x: np.abs(x) < 100, False),
    "cosine": (np.cos, TRANSCENDENTAL_ULPS, lambda x: np.abs(x) < 100, False),
    "tan": (np.tan, TRANSCENDENTAL_ULPS, lambda x: np.abs(np.cos(x)) > 0.2, False),
    "floor": (np.floor, 0, None, True),
    "ceil": (np.ceil, 0, None, True),
    "round_nearest_even": (np.rint, 0, None, True),
    "round_nearest_afz": (round_afz, 0, None, True),
    "sign": (np.sign, 0, None, True),
}

# float binary: name -> (numpy fn, own ulps, domain over (a, b), step function or None)
BINARY_FLOAT = {
    "add": (np.add, 1, None, None),
    "subtract": (np.subtract, 1, None, None),
    "multiply": (np.multiply, 1, None, None),
    "divide": (np.divide, 1, lambda a, b: np.abs(b) > 5e-2, None),
    "maximum": (np.maximum, 0, None, None),
    "minimum": (np.minimum, 0, None, None),
    "remainder": (np.fmod, 1, lambda a, b: np.abs(b) > 0.25, lambda a, b: np.trunc(a / b)),
    "power": (np.power, TRANSCENDENTAL_ULPS, lambda a, b: (a > 0.1) & (np.abs(b) < 4), None),
    "atan2": (np.arctan2, TRANSCENDENTAL_ULPS, lambda a, b: (b > 1e-2) | (np.abs(a) > 1e-2),
              lambda a, b: np.where(b < 0, np.sign(a), 0)),
}

UNARY_INT = {
    "abs": np.abs,
    "negate": np.negative,
    "not": np.invert,
    "sign": np.sign,
    "popcnt": lambda a: np.bitwise_count(_unsigned(a)).astype(a.dtype),
    "count_leading_zeros": clz,
}

BINARY_INT = {
    "add": np.add, "subtract": np.subtract, "multiply": np.multiply,
    "divide": int_div, "remainder": int_rem, "maximum": np.maximum, "minimum": np.minimum,
    "and": np.bitwise_and, "or": np.bitwise_or, "xor": np.bitwise_xor,
    "shift_left": shift("shift_left"), "shift_right_arithmetic": shift("shift_right_arithmetic"),
    "shift_right_logical": shift("shift_right_logical"),
}

BINARY_BOOL = {"and": np.logical_and, "or": np.logical_or, "xor": np.logical_xor,
               "maximum": np.logical_or, "minimum": np.logical_and}

COMPARE = {"EQ": np.equal, "NE": np.not_equal, "LT": np.less, "LE": np.less_equal,
           "GT": np.greater, "GE": np.greater_equal}


# ----------------------------------------------------------------------------- the program


class Prog:
    """A program under construction: its arguments, lines and values, with both calls'
    reference data for each value."""

    def __init__(self, rng):
        self.rng = rng
        self.big = rng.random() < 0.08  # dims in the hundreds: vector loops, tiles, threads
        self.syms = {}  # symbol -> (size in call 0, size in call 1)
        self.args, self.lines, self.values = [], [], []
        self.used = set()
        self.n = 0
        self.ops = Counter()

    # ---- helpers

    def choice(self, seq, p=None):
        if p is not None:
            p = np.asarray(p, np.float64)
            p = p / p.sum()
        return seq[int(self.rng.choice(len(seq), p=p))]

    def fresh(self, prefix="%v"):
        self.n += 1
        return f"{prefix}{self.n}"

    def concrete(self, shape, call):
        return tuple(d if isinstance(d, int) else self.syms[d][call] for d in shape)

    def dim_min(self, d):
        return d if isinstance(d, int) else min(self.syms[d])

    def derived(self, sizes):
        """A dim whose sizes in the two calls are `sizes`: static if equal and no symbol is
        involved, else a new symbol."""
        name = f"s{len(self.syms)}"
        self.syms[name] = tuple(int(s) for s in sizes)
        return name

    def random_shape(self, max_rank=3, allow_sym=True):
        rank = int(self.choice([0, 1, 2, 3][:max_rank + 1], [1, 3, 4, 2][:max_rank + 1]))
        syms = [s for s in self.syms if s.startswith("d")]
        return tuple(self.choice(syms) if allow_sym and syms and self.rng.random() < 0.35
                     else self.size() for _ in range(rank))

    def size(self) -> int:
        """Mostly tiny; sometimes past a vector's width or a matmul tile's edge."""
        r = self.rng.random()
        if self.big and r < 0.4:
            return int(self.rng.integers(64, 400))
        return int(self.rng.integers(1, 6) if r < 0.85 else self.rng.integers(6, 21) if r < 0.97
                   else self.rng.integers(21, 70))

    def random_data(self, dt, shape, call, kind="any"):
        rng, shape = self.rng, self.concrete(shape, call)
        if dt == "i1":
            return rng.random(shape) < 0.5
        if dt in INTS:
            mode = rng.choice(3, p=[0.6, 0.25, 0.15]) if kind == "any" else 0
            if kind == "index":
                return rng.integers(-2, 8, shape).astype(NP[dt])
            if mode == 0:
                return rng.integers(-10, 11, shape).astype(NP[dt])
            if mode == 1:
                return rng.integers(-1000, 1001, shape).astype(NP[dt])
            info = np.iinfo(NP[dt])
            x = rng.integers(info.min, info.max, shape, endpoint=True, dtype=np.int64).astype(NP[dt])
            if x.size:
                x.reshape(-1)[rng.integers(0, x.size)] = rng.choice([info.min, info.max, -1, 0])
            return x
        if kind == "huge":  # past every int type's range, with the specials
            x = rng.choice([-1, 1], shape) * np.exp2(rng.uniform(0, 70, shape))
            if x.size:
                flat = x.reshape(-1)
                flat[rng.integers(0, x.size, min(3, x.size))] = rng.choice(
                    [np.inf, -np.inf, np.nan, 2.0 ** 31, -2.0 ** 31, 2.0 ** 63, -2.0 ** 63], min(3, x.size))
            return x.astype(NP[dt])
        if kind == "pos":
            x = rng.uniform(0.1, 4, shape)
        else:
            mode = rng.choice(3)
            if mode == 0:
                x = rng.uniform(-3, 3, shape)
            elif mode == 1:
                x = rng.integers(-32, 33, shape) / 8  # dyadic: exact sums
            else:
                x = rng.integers(-5, 6, shape).astype(np.float64)
        return np.asarray(x).astype(NP[dt])

    # ---- emitting

    def fits(self, shape):
        """Reject a result shape too large to compute (checked before computing it)."""
        for c in (0, 1):
            if np.prod(self.concrete(shape, c), dtype=np.float64) > MAX_ELEMENTS:
                raise Reject("too large a value")

    def add(self, dt, shape, data, err, line, op=None) -> Value:
        if max(d.size for d in data) > MAX_ELEMENTS:
            raise Reject("too large a value")
        v = Value(self.fresh(), dt, tuple(shape), data, err)
        self.lines.append(line.replace("%RES", v.name))
        self.values.append(v)
        if op:
            self.ops[op] += 1
        return v

    def add_multi(self, results, line, op) -> list:
        """An op with several results [(dt, shape, data, err)]: `%RES:N = ...`, used as %RES#k."""
        if max(d.size for _, _, data, _ in results for d in data) > MAX_ELEMENTS:
            raise Reject("too large a value")
        name = self.fresh()
        self.lines.append(line.replace("%RES", name))
        vals = [Value(f"{name}#{k}", dt, tuple(shape), data, err)
                for k, (dt, shape, data, err) in enumerate(results)]
        self.values.extend(vals)
        self.ops[op] += 1
        return vals

    def arg(self, dt, shape, kind="any") -> Value:
        if max(np.prod(self.concrete(shape, c), dtype=np.int64) for c in (0, 1)) > MAX_ELEMENTS:
            raise Reject("too large an input")
        v = Value(f"%a{len(self.args)}", dt, tuple(shape),
                  [self.random_data(dt, shape, c, kind) for c in (0, 1)],
                  [np.zeros(self.concrete(shape, c)) for c in (0, 1)] if dt in FLOATS else None)
        self.args.append(v)
        self.values.append(v)
        return v

    def const(self, dt, shape, kind="any", data=None) -> Value:
        assert all(isinstance(d, int) for d in shape)
        self.fits(shape)
        a = self.random_data(dt, shape, 0, kind) if data is None else np.asarray(data, NP[dt])
        splat = a.size > 1 and np.all(a == a.reshape(-1)[0])
        text = f"dense<{literal(a.reshape(-1)[0], dt) if splat else dense(a, dt)}>"
        zero = [np.zeros(a.shape) for _ in (0, 1)] if dt in FLOATS else None
        return self.add(dt, shape, [a, a.copy()], zero,
                        f"%RES = stablehlo.constant {text} : {ttype(shape, dt)}")

    def leaf(self, dt, shape, kind="any") -> Value:
        """A new input: an argument, or a constant when the shape is static."""
        if all(isinstance(d, int) for d in shape) and 0 not in shape and self.rng.random() < 0.3:
            return self.const(dt, shape, kind)
        return self.arg(dt, shape, kind)

    def pick(self, ok=lambda v: True) -> Value:
        cands = [v for v in self.values if ok(v)]
        if not cands:
            raise Reject("no operand")
        w = [(3.0 if v.name not in self.used else 1.0) * (1 + i) for i, v in enumerate(cands)]
        return self.choice(cands, w)

    def partner(self, v: Value, dt=None, kind="any") -> Value:
        dt = dt or v.dt
        cands = [u for u in self.values if u.dt == dt and u.shape == v.shape and u is not v]
        if cands and self.rng.random() < 0.6:
            return self.choice(cands)
        if cands or dt != v.dt or self.rng.random() < 0.8:
            return self.leaf(dt, v.shape, kind)
        return v

    def use(self, *vals):
        for v in vals:
            self.used.add(v.name)

    # ---- checks on a new float value

    def checked(self, dt, data, err, allow_inf=False):
        """Reject values that are not finite, too large, or too uncertain to compare."""
        if dt not in FLOATS:
            return data, None
        for x, e in zip(data, err):
            x64 = x.astype(np.float64)
            finite = np.isfinite(x64)
            if not allow_inf and not finite.all():
                raise Reject("not finite")
            if not np.all(np.isfinite(e)) or np.any(np.abs(x64[finite]) > BIG[dt]):
                raise Reject("too large")
            if np.any(e[finite] > NOISY[dt] * (1 + np.abs(x64[finite]))):
                raise Reject("too uncertain")
            if allow_inf and np.any(e[~finite] != 0):
                raise Reject("uncertain infinity")
        return data, err


# ----------------------------------------------------------------------------- ops


def elementwise_line(p, name, operands, in_types, out_type, attrs=""):
    ops = ", ".join(v.name for v in operands)
    if not attrs and len(set(in_types)) == 1 and in_types[0] == out_type and p.rng.random() < 0.5:
        return f"%RES = stablehlo.{name} {ops} : {out_type}"
    return f'%RES = "stablehlo.{name}"({ops}){attrs} : ({", ".join(in_types)}) -> {out_type}'


def op_unary(p: Prog):
    dt = p.choice(DTYPES, DTYPE_WEIGHTS)
    if dt == "i1":
        x = p.pick(lambda v: v.dt == "i1") if p.rng.random() < 0.8 else p.leaf("i1", p.random_shape())
        p.use(x)
        return p.add("i1", x.shape, [np.logical_not(d) for d in x.data], None,
                     elementwise_line(p, "not", [x], [ttype(x.shape, "i1")], ttype(x.shape, "i1")),
                     "not")
    if dt in INTS:
        name = p.choice(list(UNARY_INT))
        x = p.pick(lambda v: v.dt == dt) if p.rng.random() < 0.8 else p.leaf(dt, p.random_shape())
        p.use(x)
        fn = UNARY_INT[name]
        with np.errstate(all="ignore"):
            data = [fn(d).astype(NP[dt]) for d in x.data]
        t = ttype(x.shape, dt)
        return p.add(dt, x.shape, data, None, elementwise_line(p, name, [x], [t], t), name)
    name = p.choice(list(UNARY_FLOAT))
    fn, ulps, domain, step = UNARY_FLOAT[name]

    def fits(v):
        if v.dt != dt:
            return False
        if domain is None:
            return True
        with np.errstate(all="ignore"):
            return all(np.all(domain(d.astype(np.float64) - e)) and np.all(domain(d.astype(np.float64) + e))
                       for d, e in zip(v.data, v.err))
    try:
        x = p.pick(fits) if p.rng.random() < 0.85 else None
    except Reject:
        x = None
    if x is None:
        x = p.leaf(dt, p.random_shape(), "pos" if domain is not None else "any")
        if not fits(x):
            raise Reject("domain")
    data, err = [], []
    for d, e in zip(x.data, x.err):
        r = rounded(fn, dt, d)
        if step:
            if not constant_everywhere(fn, [d], [e]):
                raise Reject("near a step")
            err.append(np.zeros(r.shape))
        else:
            err.append(corners(fn, [d], [e]) + (ulps + (1 if ulps else 0)) * ulp(r, dt))
        data.append(r)
    p.checked(dt, data, err)
    p.use(x)
    t = ttype(x.shape, dt)
    return p.add(dt, x.shape, data, err, elementwise_line(p, name, [x], [t], t), name)


def op_binary(p: Prog):
    dt = p.choice(DTYPES, DTYPE_WEIGHTS)
    table = BINARY_FLOAT if dt in FLOATS else BINARY_INT if dt in INTS else BINARY_BOOL
    name = p.choice(list(table))
    a = p.pick(lambda v: v.dt == dt) if p.rng.random() < 0.85 else p.leaf(dt, p.random_shape())
    pos = dt in FLOATS and name in ("divide", "remainder", "power", "atan2")
    b = p.partner(a, kind="pos" if pos else "any")
    data, err = [], [] if dt in FLOATS else None
    for c in (0, 1):
        r, e = binary_step(dt, name, a.data[c], b.data[c], a.err and a.err[c], b.err and b.err[c])
        data.append(r)
        if dt in FLOATS:
            err.append(e)
    p.checked(dt, data, err)
    p.use(a, b)
    t = ttype(a.shape, dt)
    return p.add(dt, a.shape, data, err, elementwise_line(p, name, [a, b], [t, t], t), name)


def binary_step(dt, name, x, y, ex=None, ey=None):
    """One call's (result, error bound) of a binary elementwise op (Reject if ill-conditioned)."""
    if dt not in FLOATS:
        fn = (BINARY_INT if dt in INTS else BINARY_BOOL)[name]
        with np.errstate(all="ignore"):
            return np.asarray(fn(x, y)).astype(NP[dt]), None
    fn, ulps, domain, step = BINARY_FLOAT[name]
    xs, es = [x, y], [ex, ey]
    if domain is not None:
        lo = [v.astype(np.float64) - e for v, e in zip(xs, es)]
        hi = [v.astype(np.float64) + e for v, e in zip(xs, es)]
        if not (np.all(domain(*lo)) and np.all(domain(*hi)) and np.all(domain(lo[0], hi[1]))
                and np.all(domain(hi[0], lo[1]))):
            raise Reject("domain")
    if step is not None and not constant_everywhere(step, xs, es):
        raise Reject("near a step")
    r = rounded(fn, dt, *xs)
    return r, corners(fn, xs, es) + (ulps + (1 if ulps else 0)) * ulp(r, dt)


def op_while(p: Prog):
    """A counted while loop: k times v = op(v, y), y captured from outside the loop (and the
    trip count a captured constant or a loop-carried bound)."""
    dt = p.choice(DTYPES, DTYPE_WEIGHTS)
    names = [n for n in (BINARY_FLOAT if dt in FLOATS else BINARY_INT if dt in INTS else BINARY_BOOL)
             if n not in ("power", "remainder", "atan2")]
    name = p.choice(names)
    x = p.pick(lambda v: v.dt == dt)
    y = p.partner(x)
    trips = int(p.rng.integers(0, 5))
    data, err = [], [] if dt in FLOATS else None
    for c in (0, 1):
        v, e = x.data[c], x.err[c] if x.err else None
        for _ in range(trips):
            v, e = binary_step(dt, name, v, y.data[c], e, y.err and y.err[c])
        data.append(v)
        if dt in FLOATS:
            err.append(e)
    p.checked(dt, data, err)
    p.use(x, y)
    t, it = ttype(x.shape, dt), "tensor<i32>"
    n = p.fresh("%d")
    p.lines.append(f"{n} = stablehlo.constant dense<{trips}> : {it}")
    zero = p.fresh("%d")
    p.lines.append(f"{zero} = stablehlo.constant dense<0> : {it}")
    line = (f'%RES:2 = "stablehlo.while"({zero}, {x.name}) ({{\n'
            f"    ^bb0(%i: {it}, %v: {t}):\n"
            f"      {_cmp('%go', '%i', n, 'LT', 'i32')}\n"
            f'      "stablehlo.return"(%go) : (tensor<i1>) -> ()\n'
            f"    }}, {{\n"
            f"    ^bb0(%i: {it}, %v: {t}):\n"
            f"      %one = stablehlo.constant dense<1> : {it}\n"
            f"      %next = stablehlo.add %i, %one : {it}\n"
            f'      %w = "stablehlo.{name}"(%v, {y.name}) : ({t}, {t}) -> {t}\n'
            f'      "stablehlo.return"(%next, %w) : ({it}, {t}) -> ()\n'
            f"    }}) : ({it}, {t}) -> ({it}, {t})")
    counter, value = p.add_multi([("i32", (), [np.asarray(trips, np.int32)] * 2, None),
                                  (dt, x.shape, data, err)], line, "while")
    p.used.add(counter.name)
    return value


def op_compare(p: Prog):
    a = p.pick()
    b = p.partner(a)
    direction = p.choice(list(COMPARE))
    fn = COMPARE[direction]
    if a.dt in FLOATS:
        for c in (0, 1):
            if not constant_everywhere(fn, [a.data[c], b.data[c]], [a.err[c], b.err[c]]):
                raise Reject("near equal")
    ctype = "FLOAT" if a.dt in FLOATS else "UNSIGNED" if a.dt == "i1" else "SIGNED"
    t = ttype(a.shape, a.dt)
    p.use(a, b)
    if p.rng.random() < 0.5:
        line = (f"%RES = stablehlo.compare {direction}, {a.name}, {b.name}, {ctype} : "
                f"({t}, {t}) -> {ttype(a.shape, 'i1')}")
    else:
        line = (f'%RES = "stablehlo.compare"({a.name}, {b.name}) {{comparison_direction = '
                f"#stablehlo<comparison_direction {direction}>, compare_type = "
                f"#stablehlo<comparison_type {ctype}>}} : ({t}, {t}) -> {ttype(a.shape, 'i1')}")
    return p.add("i1", a.shape, [fn(a.data[c], b.data[c]) for c in (0, 1)], None, line,
                 "compare")


def op_select(p: Prog):
    a = p.pick()
    b = p.partner(a)
    if p.rng.random() < 0.2:
        pred = p.pick(lambda v: v.dt == "i1" and v.rank == 0) if p.rng.random() < 0.5 \
            else p.leaf("i1", ())
    else:
        pred = p.partner(a, dt="i1")
    data = [np.where(pred.data[c], a.data[c], b.data[c]).astype(NP[a.dt]) for c in (0, 1)]
    err = None if a.err is None else [np.where(pred.data[c], a.err[c], b.err[c]) for c in (0, 1)]
    p.use(a, b, pred)
    t = ttype(a.shape, a.dt)
    return p.add(a.dt, a.shape, data, err,
                 f'%RES = "stablehlo.select"({pred.name}, {a.name}, {b.name}) : '
                 f"({ttype(pred.shape, 'i1')}, {t}, {t}) -> {t}", "select")


def op_clamp(p: Prog):
    x = p.pick(lambda v: v.dt != "i1")
    bounds = []
    for _ in range(2):
        bounds.append(p.partner(x) if p.rng.random() < 0.5 else p.leaf(x.dt, ()))
    lo, hi = bounds
    data, err = [], None
    for c in (0, 1):
        data.append(np.minimum(np.maximum(x.data[c], lo.data[c]), hi.data[c]).astype(NP[x.dt]))
    if x.err is not None:
        err = [np.maximum(np.maximum(x.err[c], lo.err[c]), hi.err[c]) * np.ones(data[c].shape)
               for c in (0, 1)]
    p.use(x, lo, hi)
    return p.add(x.dt, x.shape, data, err,
                 f'%RES = "stablehlo.clamp"({lo.name}, {x.name}, {hi.name}) : '
                 f"({ttype(lo.shape, x.dt)}, {ttype(x.shape, x.dt)}, {ttype(hi.shape, x.dt)}) -> "
                 f"{ttype(x.shape, x.dt)}", "clamp")


def op_convert(p: Prog):
    if p.rng.random() < 0.15:  # float -> int out of range: saturation, infinities, NaN -> 0
        dt = p.choice(INTS)
        x = p.arg(p.choice(FLOATS), p.random_shape(), "huge")
    else:
        x = p.pick()
        dt = p.choice([d for d in DTYPES if d != x.dt])
    data, err = [], None
    for c in (0, 1):
        d = x.data[c]
        if x.dt in FLOATS and dt in INTS:
            if not constant_everywhere(np.trunc, [d], [x.err[c]]):
                raise Reject("near an integer")
            data.append(float_to_int(d, dt))
        elif x.dt in FLOATS and dt == "i1":
            if not constant_everywhere(lambda v: v != 0, [d], [x.err[c]]):
                raise Reject("near zero")
            data.append(d != 0)
        elif dt == "i1":
            data.append(d != 0)
        else:
            with np.errstate(all="ignore"):  # to bf16 through f32, as XLA's emitter converts
                wide = np.asarray(d).astype(np.float32) if dt == "bf16" else np.asarray(d)
                data.append(wide.astype(NP[dt]))
    if dt in FLOATS:
        if x.dt in FLOATS:
            err = [corners(lambda v: v, [x.data[c]], [x.err[c]]) + ulp(data[c], dt) for c in (0, 1)]
        else:
            err = [ulp(data[c], dt) for c in (0, 1)]
        p.checked(dt, data, err)
    p.use(x)
    return p.add(dt, x.shape, data, err,
                 elementwise_line(p, "convert", [x], [ttype(x.shape, x.dt)], ttype(x.shape, dt)),
                 "convert")


def _movement(p, x, fn, shape, line, op):
    """A data movement op: the same function moves each call's data and error bounds."""
    p.fits(shape)
    data = [_contiguous(fn(x.data[c], c)) for c in (0, 1)]
    err = None if x.err is None else [_contiguous(fn(x.err[c], c)) for c in (0, 1)]
    p.use(x)
    return p.add(x.dt, shape, data, err, line, op)


def op_broadcast(p: Prog):
    x = p.pick(lambda v: v.rank <= 3)
    rank = x.rank + int(p.rng.integers(0 if x.rank else 1, 3))
    rank = min(rank, 4)
    positions = sorted(p.rng.choice(rank, x.rank, replace=False).tolist())
    if x.rank > 1 and p.rng.random() < 0.15:
        p.rng.shuffle(positions)  # broadcast_dimensions need not increase
    shape = [int(p.rng.integers(1, 5)) for _ in range(rank)]
    for i, pos in enumerate(positions):
        d = x.shape[i]
        shape[pos] = d if d != 1 or p.rng.random() < 0.5 else int(p.rng.integers(2, 5))
    shape = tuple(shape)

    def fn(a, c):
        order = np.argsort(positions)
        a = np.transpose(a, order) if a.ndim else a
        inter = [1] * rank
        for i, pos in enumerate(sorted(positions)):
            inter[pos] = a.shape[i]
        return np.broadcast_to(a.reshape(inter), p.concrete(shape, c))
    line = (f'%RES = "stablehlo.broadcast_in_dim"({x.name}) {{broadcast_dimensions = '
            f"{i64s(positions)}}} : ({ttype(x.shape, x.dt)}) -> {ttype(shape, x.dt)}")
    return _movement(p, x, fn, shape, line, "broadcast_in_dim")


def op_transpose(p: Prog):
    x = p.pick(lambda v: v.rank >= 2)
    perm = p.rng.permutation(x.rank).tolist()
    shape = tuple(x.shape[i] for i in perm)
    line = (f'%RES = "stablehlo.transpose"({x.name}) {{permutation = {i64s(perm)}}} : '
            f"({ttype(x.shape, x.dt)}) -> {ttype(shape, x.dt)}")
    return _movement(p, x, lambda a, c: np.transpose(a, perm), shape, line, "transpose")


def op_reverse(p: Prog):
    x = p.pick(lambda v: v.rank >= 1)
    dims = sorted(p.rng.choice(x.rank, int(p.rng.integers(1, x.rank + 1)), replace=False).tolist())
    line = (f'%RES = "stablehlo.reverse"({x.name}) {{dimensions = {i64s(dims)}}} : '
            f"({ttype(x.shape, x.dt)}) -> {ttype(x.shape, x.dt)}")
    return _movement(p, x, lambda a, c: np.flip(a, dims), x.shape, line, "reverse")


def op_reshape(p: Prog):
    x = p.pick(lambda v: v.static)
    n = int(np.prod(x.shape, dtype=np.int64))
    shape = []
    rest = n
    for _ in range(int(p.rng.integers(0, 4)) if n else 0):
        divisors = [d for d in range(1, rest + 1) if rest % d == 0]
        d = int(p.choice(divisors))
        shape.append(d)
        rest //= d
    if rest != 1 or (not shape and n != 1):
        shape.append(rest)
    if n == 0 and p.rng.random() < 0.5:
        shape.insert(int(p.rng.integers(0, 2)), int(p.rng.integers(1, 4)))
    shape = tuple(p.rng.permutation(shape).tolist()) if shape else ()
    shape = tuple(int(d) for d in shape)
    line = (f'%RES = "stablehlo.reshape"({x.name}) : ({ttype(x.shape, x.dt)}) -> '
            f"{ttype(shape, x.dt)}")
    return _movement(p, x, lambda a, c: a.reshape(shape), shape, line, "reshape")


def op_slice(p: Prog):
    x = p.pick(lambda v: v.rank >= 1)
    starts, limits, strides = [], [], []
    for d in x.shape:
        size = p.dim_min(d)
        lo = int(p.rng.integers(0, size + 1))
        hi = int(p.rng.integers(lo, size + 1))
        starts.append(lo)
        limits.append(hi)
        strides.append(int(p.rng.integers(1, 3)))
    shape = tuple(-(-(h - s) // st) for s, h, st in zip(starts, limits, strides))
    index = tuple(slice(s, h, st) for s, h, st in zip(starts, limits, strides))
    line = (f'%RES = "stablehlo.slice"({x.name}) {{start_indices = {i64s(starts)}, '
            f"limit_indices = {i64s(limits)}, strides = {i64s(strides)}}} : "
            f"({ttype(x.shape, x.dt)}) -> {ttype(shape, x.dt)}")
    return _movement(p, x, lambda a, c: a[index], shape, line, "slice")


def op_concatenate(p: Prog):
    x = p.pick(lambda v: v.rank >= 1)
    dim = int(p.rng.integers(0, x.rank))
    parts = [x]
    for _ in range(int(p.rng.integers(1, 3))):
        cands = [v for v in p.values if v.dt == x.dt and v.rank == x.rank
                 and all(a == b for i, (a, b) in enumerate(zip(v.shape, x.shape)) if i != dim)]
        if cands and p.rng.random() < 0.5:
            parts.append(p.choice(cands))
        else:
            shape = list(x.shape)
            shape[dim] = int(p.rng.integers(0 if p.rng.random() < 0.1 else 1, 4))
            parts.append(p.leaf(x.dt, tuple(shape)))
    sizes = [sum(p.concrete(v.shape, c)[dim] for v in parts) for c in (0, 1)]
    shape = list(x.shape)
    shape[dim] = sizes[0] if all(isinstance(v.shape[dim], int) for v in parts) else p.derived(sizes)
    shape = tuple(shape)
    data = [np.concatenate([v.data[c] for v in parts], axis=dim) for c in (0, 1)]
    err = None if x.err is None else [np.concatenate([v.err[c] for v in parts], axis=dim)
                                      for c in (0, 1)]
    p.use(*parts)
    types = ", ".join(ttype(v.shape, v.dt) for v in parts)
    return p.add(x.dt, shape, data, err,
                 f'%RES = "stablehlo.concatenate"({", ".join(v.name for v in parts)}) '
                 f"{{dimension = {dim} : i64}} : ({types}) -> {ttype(shape, x.dt)}", "concatenate")


def _pad(a, value, low, high, interior):
    for axis, (lo, hi, it) in enumerate(zip(low, high, interior)):
        n = a.shape[axis]
        size = max(lo, 0) + (n - 1) * (it + 1) + 1 + max(hi, 0) if n else max(lo, 0) + max(hi, 0)
        shape = list(a.shape)
        shape[axis] = size
        out = np.full(shape, value, a.dtype)
        idx = [slice(None)] * a.ndim
        idx[axis] = slice(max(lo, 0), max(lo, 0) + (n - 1) * (it + 1) + 1, it + 1) if n else \
            slice(0, 0)
        out[tuple(idx)] = a
        idx[axis] = slice(max(-lo, 0), size - max(-hi, 0))
        a = out[tuple(idx)]
    return a


def op_pad(p: Prog):
    x = p.pick(lambda v: v.rank >= 1)
    value = p.pick(lambda v: v.dt == x.dt and v.rank == 0) if p.rng.random() < 0.3 \
        else p.const(x.dt, ())
    low, high, interior = [], [], []
    for d in x.shape:
        m = p.dim_min(d)
        it = int(p.rng.integers(0, 3)) if p.rng.random() < 0.4 else 0
        full = m + max(m - 1, 0) * it
        lo = int(p.rng.integers(-min(full, 2), 3))
        hi = int(p.rng.integers(-min(full - max(-lo, 0), 2), 3))
        low.append(lo)
        high.append(hi)
        interior.append(it)
    data = [_pad(x.data[c], value.data[c], low, high, interior) for c in (0, 1)]
    err = None if x.err is None else [_pad(x.err[c], value.err[c], low, high, interior)
                                      for c in (0, 1)]
    shape = tuple(d if isinstance(d, int) and lo == hi == it == 0 else
                  data[0].shape[i] if isinstance(d, int) else p.derived([data[c].shape[i] for c in (0, 1)])
                  for i, (d, lo, hi, it) in enumerate(zip(x.shape, low, high, interior)))
    if any(s < 0 for c in (0, 1) for s in data[c].shape):
        raise Reject("negative size")
    p.use(x, value)
    return p.add(x.dt, shape, data, err,
                 f'%RES = "stablehlo.pad"({x.name}, {value.name}) {{edge_padding_low = {i64s(low)}, '
                 f"edge_padding_high = {i64s(high)}, interior_padding = {i64s(interior)}}} : "
                 f"({ttype(x.shape, x.dt)}, {ttype((), x.dt)}) -> {ttype(shape, x.dt)}", "pad")


REDUCERS = {  # kind -> (body op, numpy reduction, identity for float / int / bool)
    "sum": ("add", np.sum, (0.0, 0, False)),
    "product": ("multiply", np.prod, (1.0, 1, True)),
    "max": ("maximum", np.max, (-np.inf, "min", False)),
    "min": ("minimum", np.min, (np.inf, "max", True)),
}


def op_reduce(p: Prog):
    x = p.pick(lambda v: v.rank >= 1)
    kind = p.choice(["sum", "product", "max", "min"], [4, 1, 2, 2])
    body, npfn, ids = REDUCERS[kind]
    if x.dt == "i1":
        body = {"sum": "or", "max": "or", "product": "and", "min": "and"}[kind]
        npfn = np.any if body == "or" else np.all
    dims = sorted(p.rng.choice(x.rank, int(p.rng.integers(1, x.rank + 1)), replace=False).tolist())
    keep = tuple(d for i, d in enumerate(x.shape) if i not in dims)
    if x.dt in FLOATS:
        init = ids[0]
    elif x.dt in INTS:
        init = ids[1] if isinstance(ids[1], int) else getattr(np.iinfo(NP[x.dt]), ids[1])
    else:
        init = body == "and"
    data, err = [], None
    axes = tuple(dims)
    for c in (0, 1):
        d = x.data[c]
        with np.errstate(all="ignore"):
            if x.dt in FLOATS:
                if d.size == 0 or any(d.shape[a] == 0 for a in axes):
                    r = np.full([n for i, n in enumerate(d.shape) if i not in axes], init)
                else:
                    r = npfn(d.astype(WIDE[x.dt]), axis=axes)
                r = np.asarray(r).astype(NP[x.dt])
            elif x.dt in INTS:
                r = np.asarray(npfn(d, axis=axes, initial=init) if kind in ("max", "min")
                               else npfn(d, axis=axes, dtype=NP[x.dt])).astype(NP[x.dt])
            else:
                r = np.asarray(npfn(d, axis=axes))
        data.append(r)
    if x.dt in FLOATS:
        err = []
        eps = float(finfo(x.dt).eps)
        for c in (0, 1):
            d, e = x.data[c].astype(np.float64), x.err[c]
            n = int(np.prod([d.shape[a] for a in axes]))
            with np.errstate(all="ignore"):
                if kind == "sum":
                    if np.any(np.abs(d).sum(axis=axes) > BIG[x.dt]):
                        raise Reject("a partial sum could overflow")
                    bound = e.sum(axis=axes) + n * eps * np.abs(d).sum(axis=axes)
                elif kind == "product":  # no partial product may overflow (inf * 0 is NaN)
                    if np.any(np.prod(np.maximum(np.abs(d) + e, 1), axis=axes) > BIG[x.dt]):
                        raise Reject("a partial product could overflow")
                    big = np.prod(np.abs(d) + e, axis=axes)
                    bound = big - np.prod(np.abs(d), axis=axes) + n * eps * big
                else:
                    bound = e.max(axis=axes, initial=0.0)
            err.append(np.asarray(bound) + ulp(data[c], x.dt))
        p.checked(x.dt, data, err, allow_inf=kind in ("max", "min"))
    et = ttype((), x.dt)
    p.use(x)
    init_v = p.const(x.dt, (), data=init)
    line = (f'%RES = "stablehlo.reduce"({x.name}, {init_v.name}) ({{\n'
            f"    ^bb0(%x: {et}, %y: {et}):\n"
            f'      %s = "stablehlo.{body}"(%x, %y) : ({et}, {et}) -> {et}\n'
            f'      "stablehlo.return"(%s) : ({et}) -> ()\n'
            f"    }}) {{dimensions = {i64s(dims)}}} : ({ttype(x.shape, x.dt)}, {et}) -> "
            f"{ttype(keep, x.dt)}")
    p.used.add(init_v.name)
    return p.add(x.dt, keep, data, err, line, f"reduce_{kind}")


def _windows(a, init, fn, window, strides, pad, base, wdil):
    """reduce_window's reference: the operand padded with `init` (base dilation as interior
    padding), then every window offset combined into the output with fn."""
    padded = _pad(a, np.asarray(init, a.dtype), [lo for lo, _ in pad], [hi for _, hi in pad],
                  [b - 1 for b in base])
    out_shape = []
    for n, w, st, wd in zip(padded.shape, window, strides, wdil):
        extent = (w - 1) * wd + 1
        out_shape.append((n - extent) // st + 1 if n >= extent else 0)
    acc = np.full(out_shape, init, a.dtype)
    for offset in np.ndindex(*window):
        idx = tuple(slice(k * wd, k * wd + (o - 1) * st + 1, st) if o else slice(0, 0)
                    for k, wd, st, o in zip(offset, wdil, strides, out_shape))
        acc = fn(acc, padded[idx])
    return acc


def op_reduce_window(p: Prog):
    x = p.pick(lambda v: 1 <= v.rank <= 3 and v.dt != "i1")
    kind = p.choice(["sum", "max", "min"], [3, 3, 1])
    body, _, ids = REDUCERS[kind]
    window, strides, pad, base, wdil = [], [], [], [], []
    for d in x.shape:
        m = p.dim_min(d)
        window.append(int(p.rng.integers(1, min(3, max(m, 1)) + 1)))
        strides.append(int(p.rng.integers(1, 3)))
        pad.append((int(p.rng.integers(0, 2)), int(p.rng.integers(0, 2))) if p.rng.random() < 0.4
                   else (0, 0))
        base.append(2 if p.rng.random() < 0.1 else 1)
        wdil.append(2 if p.rng.random() < 0.1 else 1)
    if x.dt in FLOATS:
        init = ids[0]
    else:
        init = ids[1] if isinstance(ids[1], int) else getattr(np.iinfo(NP[x.dt]), ids[1])
    fn = {"sum": np.add, "max": np.maximum, "min": np.minimum}[kind]
    data, err = [], None
    for c in (0, 1):
        d = x.data[c].astype(WIDE[x.dt]) if x.dt in FLOATS else x.data[c]
        with np.errstate(all="ignore"):
            data.append(_windows(d, init, fn, window, strides, pad, base, wdil).astype(NP[x.dt]))
    if x.dt in FLOATS:
        err, n = [], int(np.prod(window))
        eps = float(finfo(x.dt).eps)
        for c in (0, 1):
            d = x.data[c].astype(np.float64)
            if kind == "sum":
                mag = _windows(np.abs(d), 0.0, np.add, window, strides, pad, base, wdil)
                if np.any(mag > BIG[x.dt]):
                    raise Reject("a partial sum could overflow")
                e = _windows(x.err[c], 0.0, np.add, window, strides, pad, base, wdil) + n * eps * mag
            else:
                e = _windows(x.err[c], 0.0, np.maximum, window, strides, pad, base, wdil)
            err.append(e + ulp(data[c], x.dt))
        p.checked(x.dt, data, err, allow_inf=kind != "sum")
    shape = tuple(data[0].shape[i] if isinstance(d, int) else
                  p.derived([data[c].shape[i] for c in (0, 1)]) for i, d in enumerate(x.shape))
    et = ttype((), x.dt)
    init_v = p.const(x.dt, (), data=init)
    p.use(x, init_v)
    pads = "[" + ", ".join(f"[{lo}, {hi}]" for lo, hi in pad) + "]"
    line = (f'%RES = "stablehlo.reduce_window"({x.name}, {init_v.name}) ({{\n'
            f"    ^bb0(%x: {et}, %y: {et}):\n"
            f'      %s = "stablehlo.{body}"(%x, %y) : ({et}, {et}) -> {et}\n'
            f'      "stablehlo.return"(%s) : ({et}) -> ()\n'
            f"    }}) {{window_dimensions = {i64s(window)}, window_strides = {i64s(strides)}, "
            f"base_dilations = {i64s(base)}, window_dilations = {i64s(wdil)}, "
            f"padding = dense<{pads}> : tensor<{x.rank}x2xi64>}} : ({ttype(x.shape, x.dt)}, {et}) -> "
            f"{ttype(shape, x.dt)}")
    return p.add(x.dt, shape, data, err, line, f"reduce_window_{kind}")


def _ctype(dt):
    return "FLOAT" if dt in FLOATS else "UNSIGNED" if dt == "i1" else "SIGNED"


def _cmp(res, a, b, direction, dt):
    return (f'{res} = "stablehlo.compare"({a}, {b}) {{comparison_direction = '
            f"#stablehlo<comparison_direction {direction}>, compare_type = "
            f"#stablehlo<comparison_type {_ctype(dt)}>}} : ({ttype((), dt)}, {ttype((), dt)}) -> "
            f"tensor<i1>")


def _separated(vals, errs) -> bool:
    """Sorted along the last axis, neighbours are either exactly equal and exact, or further
    apart than their error bounds: an order the bounds cannot change."""
    order = np.argsort(vals.astype(np.float64), axis=-1, kind="stable")
    v = np.take_along_axis(vals.astype(np.float64), order, -1)
    e = np.take_along_axis(errs, order, -1)
    gap, slack = np.diff(v, axis=-1), e[..., 1:] + e[..., :-1]
    exact = (gap == 0) & (slack == 0)
    return bool(np.all(exact | (gap > slack)))


def op_argmax(p: Prog):
    """A two-operand reduce (value, index) to the max or min and its first position, as JAX
    writes argmax/argmin."""
    x = p.pick(lambda v: v.rank >= 1 and v.dt != "i1"
               and all(p.concrete(v.shape, c)[-1] > 0 for c in (0, 1)))
    dim = int(p.rng.integers(0, x.rank))
    if any(p.concrete(x.shape, c)[dim] == 0 for c in (0, 1)):
        raise Reject("empty")
    is_max = bool(p.rng.random() < 0.6)
    keep = tuple(d for i, d in enumerate(x.shape) if i != dim)
    vals, idxs, errs = [], [], []
    for c in (0, 1):
        d = x.data[c]
        if x.dt in FLOATS and not _separated(np.moveaxis(d, dim, -1), np.moveaxis(x.err[c], dim, -1)):
            raise Reject("near tie")
        d64 = d.astype(np.float64) if x.dt in FLOATS else d  # exact; numpy sorts bf16 poorly
        i = np.argmax(d64, axis=dim) if is_max else np.argmin(d64, axis=dim)
        vals.append(np.take_along_axis(d, np.expand_dims(i, dim), dim).squeeze(dim))
        idxs.append(np.asarray(i, np.int32))
        if x.dt in FLOATS:
            errs.append(np.take_along_axis(x.err[c], np.expand_dims(i, dim), dim).squeeze(dim))
    if x.dt in FLOATS:
        init = -np.inf if is_max else np.inf
    else:
        info = np.iinfo(NP[x.dt])
        init = info.min if is_max else info.max
    positions = [_iota_data(p.concrete(x.shape, c), dim, "i32") for c in (0, 1)]
    if x.static:
        line = (f'%RES = "stablehlo.iota"() {{iota_dimension = {dim} : i64}} : () -> '
                f"{ttype(x.shape, 'i32')}")
    else:  # shaped like x at run time
        shape_op = _shape_operand(p, [(x, i) if not isinstance(d, int) else d
                                      for i, d in enumerate(x.shape)])
        line = (f'%RES = "stablehlo.dynamic_iota"({shape_op}) {{iota_dimension = {dim} : i64}} '
                f": (tensor<{x.rank}xi32>) -> {ttype(x.shape, 'i32')}")
    iota = p.add("i32", x.shape, positions, None, line)
    v0 = p.const(x.dt, (), data=init)
    i0 = p.const("i32", (), data=0)
    p.use(x, iota, v0, i0)
    et, it = ttype((), x.dt), ttype((), "i32")
    direction = "GT" if is_max else "LT"
    body = "\n".join([
        f"    ^bb0(%a: {et}, %ai: {it}, %b: {et}, %bi: {it}):",
        "      " + _cmp("%better", "%a", "%b", direction, x.dt),
        "      " + _cmp("%same", "%a", "%b", "EQ", x.dt),
        "      " + _cmp("%first", "%ai", "%bi", "LT", "i32"),
        '      %tie = "stablehlo.and"(%same, %first) : (tensor<i1>, tensor<i1>) -> tensor<i1>',
        '      %take = "stablehlo.or"(%better, %tie) : (tensor<i1>, tensor<i1>) -> tensor<i1>',
        f'      %v = "stablehlo.select"(%take, %a, %b) : (tensor<i1>, {et}, {et}) -> {et}',
        f'      %i = "stablehlo.select"(%take, %ai, %bi) : (tensor<i1>, {it}, {it}) -> {it}',
        f'      "stablehlo.return"(%v, %i) : ({et}, {it}) -> ()'])
    line = (f'%RES:2 = "stablehlo.reduce"({x.name}, {iota.name}, {v0.name}, {i0.name}) ({{\n{body}\n'
            f"    }}) {{dimensions = {i64s([dim])}}} : ({ttype(x.shape, x.dt)}, "
            f"{ttype(x.shape, 'i32')}, {et}, {it}) -> ({ttype(keep, x.dt)}, {ttype(keep, 'i32')})")
    return p.add_multi([(x.dt, keep, vals, errs or None), ("i32", keep, idxs, None)], line,
                       "argmax" if is_max else "argmin")


def op_sort(p: Prog):
    """sort along a dim, ascending or descending, of one operand or of a key and its
    positions (an argsort, stable)."""
    x = p.pick(lambda v: v.rank >= 1)
    dim = int(p.rng.integers(0, x.rank))
    descending = bool(p.rng.random() < 0.5)
    with_index = bool(p.rng.random() < 0.5)
    keys, perms = [], []
    for c in (0, 1):
        d = np.moveaxis(x.data[c], dim, -1)
        if x.dt in FLOATS and not _separated(d, np.moveaxis(x.err[c], dim, -1)):
            raise Reject("near tie")
        if descending:
            flipped = -d.astype(np.float64) if x.dt in FLOATS else ~d
            perm = np.argsort(flipped, axis=-1, kind="stable")
        else:
            perm = np.argsort(d.astype(np.float64) if x.dt in FLOATS else d, axis=-1, kind="stable")
        perms.append(perm)
        keys.append(np.moveaxis(np.take_along_axis(d, perm, -1), -1, dim))
    results = [(x.dt, x.shape, keys, None if x.err is None else
                [np.moveaxis(np.take_along_axis(np.moveaxis(x.err[c], dim, -1), perms[c], -1), -1, dim)
                 for c in (0, 1)])]
    operands, types = [x.name], [ttype(x.shape, x.dt)]
    et = ttype((), x.dt)
    args = [f"%a: {et}", f"%b: {et}"]
    if with_index:
        if not x.static:
            raise Reject("an iota of a dynamic shape: argmax does those")
        iota = p.add("i32", x.shape, [_iota_data(x.shape, dim, "i32")] * 2, None,
                     f'%RES = "stablehlo.iota"() {{iota_dimension = {dim} : i64}} : () -> '
                     f"{ttype(x.shape, 'i32')}")
        p.use(iota)
        operands.append(iota.name)
        types.append(ttype(x.shape, "i32"))
        args += ["%c: tensor<i32>", "%d: tensor<i32>"]
        results.append(("i32", x.shape, [np.moveaxis(perms[c].astype(np.int32), -1, dim)
                                         for c in (0, 1)], None))
    p.use(x)
    direction = "GT" if descending else "LT"
    body = (f"    ^bb0({', '.join(args)}):\n      " + _cmp("%p", "%a", "%b", direction, x.dt)
            + '\n      "stablehlo.return"(%p) : (tensor<i1>) -> ()')
    line = (f'%RES:{len(operands)} = "stablehlo.sort"({", ".join(operands)}) ({{\n{body}\n    }}) '
            f"{{dimension = {dim} : i64, is_stable = true}} : ({', '.join(types)}) -> "
            f"({', '.join(types)})")
    return p.add_multi(results, line, "sort")


def op_dot_general(p: Prog):
    lhs = p.pick(lambda v: v.dt in FLOATS + INTS and 1 <= v.rank <= 3)
    dims = list(range(lhs.rank))
    p.rng.shuffle(dims)
    nb = int(p.rng.integers(0, lhs.rank))  # batch dims
    nc = int(p.rng.integers(0 if lhs.rank > nb else 0, lhs.rank - nb + 1))
    lb, lc = sorted(dims[:nb]), dims[nb:nb + nc]
    lfree = [d for d in range(lhs.rank) if d not in lb and d not in lc]
    rfree_shape = [int(p.rng.integers(1, 5)) for _ in range(int(p.rng.integers(0, 3)))]
    # rhs dims: batch, contracting, free, in a random order
    parts = [("b", i) for i in range(nb)] + [("c", i) for i in range(nc)] + \
        [("f", i) for i in range(len(rfree_shape))]
    order = p.rng.permutation(len(parts)).tolist()
    rparts = [parts[i] for i in order]
    rshape = tuple(lhs.shape[lb[i]] if k == "b" else lhs.shape[lc[i]] if k == "c" else rfree_shape[i]
                   for k, i in rparts)
    rb = [rparts.index(("b", i)) for i in range(nb)]
    rc = [rparts.index(("c", i)) for i in range(nc)]
    cands = [v for v in p.values if v.dt == lhs.dt and v.shape == rshape]
    rhs = p.choice(cands) if cands and p.rng.random() < 0.5 else p.leaf(lhs.dt, rshape)
    letters = "abcdefghijkmn"  # batch a-d, contracting e-h, lhs free i-k, rhs free m-n
    lsub = [""] * lhs.rank
    rsub = [""] * len(rshape)
    out = []
    for i, (x, y) in enumerate(zip(lb, rb)):
        lsub[x] = rsub[y] = letters[i]
        out.append(letters[i])
    for i, (x, y) in enumerate(zip(lc, rc)):
        lsub[x] = rsub[y] = letters[4 + i]
    for i, x in enumerate(lfree):
        lsub[x] = letters[8 + i]
        out.append(lsub[x])
    free_r = [i for i in range(len(rshape)) if i not in rb and i not in rc]
    for i, y in enumerate(free_r):
        rsub[y] = letters[11 + i]
        out.append(rsub[y])
    spec = f"{''.join(lsub)},{''.join(rsub)}->{''.join(out)}"
    shape = tuple([lhs.shape[d] for d in lb] + [lhs.shape[d] for d in lfree] +
                  [rshape[d] for d in free_r])
    p.fits(shape)
    data, err = [], None
    for c in (0, 1):
        a, b = lhs.data[c], rhs.data[c]
        if lhs.dt in INTS:
            r = np.einsum(spec, a.astype(np.int64), b.astype(np.int64)).astype(NP[lhs.dt])
        else:
            r = np.einsum(spec, a.astype(WIDE[lhs.dt]), b.astype(WIDE[lhs.dt])).astype(NP[lhs.dt])
        data.append(np.asarray(r))
    if lhs.dt in FLOATS:
        eps = float(finfo(lhs.dt).eps)
        err = []
        for c in (0, 1):
            a, b = np.abs(lhs.data[c].astype(np.float64)), np.abs(rhs.data[c].astype(np.float64))
            ea, eb = lhs.err[c], rhs.err[c]
            n = int(np.prod([lhs.data[c].shape[d] for d in lc]))
            if np.any(np.einsum(spec, a, b) > BIG[lhs.dt]):
                raise Reject("a partial sum could overflow")
            e = (np.einsum(spec, a, eb) + np.einsum(spec, ea, b) + np.einsum(spec, ea, eb)
                 + (n + 1) * eps * np.einsum(spec, a, b))
            err.append(np.asarray(e) + ulp(data[c], lhs.dt))
        p.checked(lhs.dt, data, err)
    p.use(lhs, rhs)
    dn = (f"#stablehlo.dot<lhs_batching_dimensions = {lb}, rhs_batching_dimensions = {rb}, "
          f"lhs_contracting_dimensions = {lc}, rhs_contracting_dimensions = {rc}>")
    return p.add(lhs.dt, shape, data, err,
                 f'%RES = "stablehlo.dot_general"({lhs.name}, {rhs.name}) {{dot_dimension_numbers = '
                 f"{dn}}} : ({ttype(lhs.shape, lhs.dt)}, {ttype(rshape, lhs.dt)}) -> "
                 f"{ttype(shape, lhs.dt)}", "dot_general")


def _iota_data(shape, dim, dt):
    if not shape:
        return np.zeros((), NP[dt])
    idx = np.arange(shape[dim]).reshape([-1 if i == dim else 1 for i in range(len(shape))])
    return np.broadcast_to(idx, shape).astype(NP[dt])


def op_iota(p: Prog):
    shape = p.random_shape(allow_sym=False)
    if not shape:
        shape = (int(p.rng.integers(1, 6)),)
    p.fits(shape)
    dt = p.choice(FLOATS + INTS)
    dim = int(p.rng.integers(0, len(shape)))
    data = [_iota_data(shape, dim, dt) for _ in (0, 1)]
    err = [np.zeros(shape) for _ in (0, 1)] if dt in FLOATS else None
    return p.add(dt, shape, data, err,
                 f'%RES = "stablehlo.iota"() {{iota_dimension = {dim} : i64}} : () -> '
                 f"{ttype(shape, dt)}", "iota")


def _dim_size(p: Prog, x: Value, dim: int) -> str:
    name = p.fresh("%d")
    p.lines.append(f'{name} = "stablehlo.get_dimension_size"({x.name}) {{dimension = {dim} : i64}} '
                   f": ({ttype(x.shape, x.dt)}) -> tensor<i32>")
    return name


def op_get_dimension_size(p: Prog):
    x = p.pick(lambda v: v.rank >= 1 and not v.static) if p.rng.random() < 0.8 else \
        p.pick(lambda v: v.rank >= 1)
    dim = int(p.rng.integers(0, x.rank))
    data = [np.asarray(x.data[c].shape[dim], np.int32) for c in (0, 1)]
    return p.add("i32", (), data, None,
                 f'%RES = "stablehlo.get_dimension_size"({x.name}) {{dimension = {dim} : i64}} : '
                 f"({ttype(x.shape, x.dt)}) -> tensor<i32>", "get_dimension_size")


def _shape_operand(p: Prog, sizes) -> str:
    """A tensor<Nxi32> of sizes, each an int (a constant) or a scalar i32 value's name, or
    (value, dim) for that value's get_dimension_size."""
    pieces = []
    for size in sizes:
        piece = p.fresh("%d")
        if isinstance(size, int):
            p.lines.append(f"{piece} = stablehlo.constant dense<[{size}]> : tensor<1xi32>")
        else:
            scalar = _dim_size(p, *size) if isinstance(size, tuple) else size
            p.lines.append(f'{piece} = "stablehlo.reshape"({scalar}) : (tensor<i32>) -> tensor<1xi32>')
        pieces.append(piece)
    if len(pieces) == 1:
        return pieces[0]
    out = p.fresh("%d")
    p.lines.append(f'{out} = "stablehlo.concatenate"({", ".join(pieces)}) '
                   f"{{dimension = 0 : i64}} : ({', '.join(['tensor<1xi32>'] * len(pieces))}) "
                   f"-> tensor<{len(pieces)}xi32>")
    return out


def _size_of(p: Prog, d):
    """An int for a static dim; (value, dim) of a value that has symbol d, for its size."""
    if isinstance(d, int):
        return d
    for v in p.values:
        if d in v.shape:
            return v, v.shape.index(d)
    raise Reject("no value has that dim")


def op_dynamic_iota(p: Prog):
    """An iota shaped like a dynamic value, its shape operand made of get_dimension_size."""
    x = p.pick(lambda v: v.rank >= 1 and not v.static)
    shape_op = _shape_operand(p, [(x, i) if not isinstance(d, int) else d
                                  for i, d in enumerate(x.shape)])
    dt = p.choice(FLOATS + INTS)
    dim = int(p.rng.integers(0, x.rank))
    data = [_iota_data(p.concrete(x.shape, c), dim, dt) for c in (0, 1)]
    err = [np.zeros(d.shape) for d in data] if dt in FLOATS else None
    p.used.add(x.name)
    return p.add(dt, x.shape, data, err,
                 f'%RES = "stablehlo.dynamic_iota"({shape_op}) {{iota_dimension = {dim} : i64}} : '
                 f"(tensor<{x.rank}xi32>) -> {ttype(x.shape, dt)}", "dynamic_iota")


def op_dynamic_broadcast_in_dim(p: Prog):
    """broadcast_in_dim to a shape given at run time: size-1 dims expanded to a dynamic dim of
    another value, new dims static or dynamic."""
    x = p.pick(lambda v: v.rank <= 3)
    rank = min(x.rank + int(p.rng.integers(0 if x.rank else 1, 3)), 4)
    positions = sorted(p.rng.choice(rank, x.rank, replace=False).tolist())
    syms = [d for v in p.values for d in v.shape if not isinstance(d, int)]
    if not syms:
        raise Reject("no dynamic dim")

    def any_dim():
        return p.choice(syms) if p.rng.random() < 0.6 else p.size()
    shape = [any_dim() for _ in range(rank)]
    for i, pos in enumerate(positions):
        d = x.shape[i]
        shape[pos] = any_dim() if d == 1 and p.rng.random() < 0.7 else d
    shape = tuple(shape)
    shape_op = _shape_operand(p, [_size_of(p, d) for d in shape])

    def fn(a, c):
        inter = [1] * rank
        for i, pos in enumerate(positions):
            inter[pos] = a.shape[i]
        return np.broadcast_to(a.reshape(inter), p.concrete(shape, c))
    line = (f'%RES = "stablehlo.dynamic_broadcast_in_dim"({x.name}, {shape_op}) '
            f"{{broadcast_dimensions = {i64s(positions)}}} : ({ttype(x.shape, x.dt)}, "
            f"tensor<{rank}xi32>) -> {ttype(shape, x.dt)}")
    return _movement(p, x, fn, shape, line, "dynamic_broadcast_in_dim")


def op_dynamic_reshape(p: Prog):
    """Collapse the trailing dims of a value into one, the sizes from get_dimension_size."""
    x = p.pick(lambda v: v.rank >= 1)
    k = int(p.rng.integers(0, x.rank))
    sizes = [_size_of(p, d) if isinstance(d, int) else (x, i) for i, d in enumerate(x.shape[:k])]
    prod = None
    for i, d in enumerate(x.shape[k:], start=k):
        size = p.fresh("%d")
        if isinstance(d, int):
            p.lines.append(f"{size} = stablehlo.constant dense<{d}> : tensor<i32>")
        else:
            size = _dim_size(p, x, i)
        if prod is not None:
            nxt = p.fresh("%d")
            p.lines.append(f"{nxt} = stablehlo.multiply {prod}, {size} : tensor<i32>")
            size = nxt
        prod = size
    shape_op = _shape_operand(p, sizes + [prod])
    tail = [int(np.prod(x.data[c].shape[k:], dtype=np.int64)) for c in (0, 1)]
    last = tail[0] if all(isinstance(d, int) for d in x.shape[k:]) else p.derived(tail)
    shape = tuple(x.shape[:k]) + (last,)
    line = (f'%RES = "stablehlo.dynamic_reshape"({x.name}, {shape_op}) : '
            f"({ttype(x.shape, x.dt)}, tensor<{k + 1}xi32>) -> {ttype(shape, x.dt)}")
    return _movement(p, x, lambda a, c: a.reshape(a.shape[:k] + (-1,) if a.size else
                                                  a.shape[:k] + (tail[c],)), shape, line,
                     "dynamic_reshape")


def op_if(p: Prog):
    """stablehlo.if on a scalar i1: each branch a different elementwise op of the same value
    (captured), the other branch's reference computed too so both stay well-conditioned."""
    dt = p.choice(DTYPES, DTYPE_WEIGHTS)
    x = p.pick(lambda v: v.dt == dt)
    y = p.partner(x)
    pred = p.pick(lambda v: v.dt == "i1" and v.rank == 0) if p.rng.random() < 0.5 \
        else p.leaf("i1", ())
    table = BINARY_FLOAT if dt in FLOATS else BINARY_INT if dt in INTS else BINARY_BOOL
    names = [p.choice(list(table)) for _ in range(2)]
    data, err = [], [] if dt in FLOATS else None
    for c in (0, 1):
        outs = [binary_step(dt, n, x.data[c], y.data[c], x.err and x.err[c], y.err and y.err[c])
                for n in names]
        r, e = outs[0] if pred.data[c] else outs[1]
        data.append(r)
        if dt in FLOATS:
            err.append(e)
    p.checked(dt, data, err)
    p.use(x, y, pred)
    t = ttype(x.shape, dt)
    branches = [f"    ^bb0:\n      %r = \"stablehlo.{n}\"({x.name}, {y.name}) : ({t}, {t}) -> {t}\n"
                f'      "stablehlo.return"(%r) : ({t}) -> ()\n' for n in names]
    line = (f'%RES = "stablehlo.if"({pred.name}) ({{\n{branches[0]}    }}, {{\n{branches[1]}    }}) : '
            f"(tensor<i1>) -> {t}")
    return p.add(dt, x.shape, data, err, line, "if")


def op_real_dynamic_slice(p: Prog):
    """real_dynamic_slice with start, limit and strides operands (constants, or built from
    get_dimension_size for a limit at a dynamic dim's end)."""
    x = p.pick(lambda v: v.rank >= 1)
    starts, limits, strides, limit_ops = [], [], [], []
    for i, d in enumerate(x.shape):
        m = p.dim_min(d)
        lo = int(p.rng.integers(0, m + 1))
        st = int(p.rng.integers(1, 3))
        if not isinstance(d, int) and p.rng.random() < 0.5:
            limits.append(None)  # to the end, in each call
            limit_ops.append((x, i))
        else:
            hi = int(p.rng.integers(lo, m + 1))
            limits.append(hi)
            limit_ops.append(hi)
        starts.append(lo)
        strides.append(st)

    def fn(a, c):
        return a[tuple(slice(s, a.shape[i] if h is None else h, st)
                       for i, (s, h, st) in enumerate(zip(starts, limits, strides)))]
    sizes = [fn(x.data[c], c).shape for c in (0, 1)]
    shape = tuple(sizes[0][i] if h is not None else p.derived([sizes[c][i] for c in (0, 1)])
                  for i, h in enumerate(limits))
    ops = [_shape_operand(p, v) for v in (starts, limit_ops, strides)]
    vt = f"tensor<{x.rank}xi32>"
    line = (f'%RES = "stablehlo.real_dynamic_slice"({x.name}, {", ".join(ops)}) : '
            f"({ttype(x.shape, x.dt)}, {vt}, {vt}, {vt}) -> {ttype(shape, x.dt)}")
    return _movement(p, x, fn, shape, line, "real_dynamic_slice")


def op_gather(p: Prog):
    """gather as jnp.take along one axis: rows picked by an index vector (clamped into range),
    every other dim whole (static, as slice_sizes are)."""
    x = p.pick(lambda v: v.rank >= 1 and sum(not isinstance(d, int) for d in v.shape) <= 1)
    dyn = [i for i, d in enumerate(x.shape) if not isinstance(d, int)]
    axis = dyn[0] if dyn else int(p.rng.integers(0, x.rank))
    if any(p.concrete(x.shape, c)[axis] == 0 for c in (0, 1)):
        raise Reject("nothing to take")
    dt = p.choice(INTS)
    k = p.size() if p.rng.random() < 0.8 else p.choice([d for d in p.syms if d.startswith("d")] or [3])
    idx = p.leaf(dt, (k, 1), "index")
    shape = x.shape[:axis] + (k,) + x.shape[axis + 1:]
    offset = [i for i in range(x.rank) if i != axis]
    sizes = [1 if i == axis else d for i, d in enumerate(x.shape)]

    def fn(a, c):
        return np.take(a, np.clip(idx.data[c][:, 0].astype(np.int64), 0, a.shape[axis] - 1), axis=axis)
    p.use(idx)
    dn = (f"#stablehlo.gather<offset_dims = {offset}, collapsed_slice_dims = [{axis}], "
          f"start_index_map = [{axis}], index_vector_dim = 1>")
    line = (f'%RES = "stablehlo.gather"({x.name}, {idx.name}) {{dimension_numbers = {dn}, '
            f"indices_are_sorted = false, slice_sizes = {i64s(sizes)}}} : ({ttype(x.shape, x.dt)}, "
            f"{ttype(idx.shape, dt)}) -> {ttype(shape, x.dt)}")
    return _movement(p, x, fn, shape, line, "gather")


def _conv(x, w, stride, pad, lhs_dil, rhs_dil, groups):
    """Convolution in canonical layouts, x (B, C, *S), w (O, C/groups, *K) -> (B, O, *S'),
    accumulated in the arrays' dtype."""
    spatial = x.ndim - 2
    xp = _pad(x, np.zeros((), x.dtype), [0, 0] + [lo for lo, _ in pad], [0, 0] + [hi for _, hi in pad],
              [0, 0] + [d - 1 for d in lhs_dil])
    kernel = w.shape[2:]
    out_sp = []
    for n, k, st, rd in zip(xp.shape[2:], kernel, stride, rhs_dil):
        extent = (k - 1) * rd + 1
        out_sp.append((n - extent) // st + 1 if n >= extent else 0)
    b, o = x.shape[0], w.shape[0]
    cg = w.shape[1]
    out = np.zeros((b, groups, o // groups) + tuple(out_sp), x.dtype)
    letters = "stuv"[:spatial]
    for offset in np.ndindex(*kernel):
        idx = (slice(None), slice(None)) + tuple(
            slice(k * rd, k * rd + (n - 1) * st + 1, st) if n else slice(0, 0)
            for k, rd, st, n in zip(offset, rhs_dil, stride, out_sp))
        xs = xp[idx].reshape((b, groups, cg) + tuple(out_sp))
        ws = w[(slice(None), slice(None)) + offset].reshape(groups, o // groups, cg)
        out = out + np.einsum(f"bgc{letters},goc->bgo{letters}", xs, ws)
    return out.reshape((b, o) + tuple(out_sp))


def op_convolution(p: Prog):
    """convolution with 1 or 2 spatial dims, random layouts of the input, kernel and output,
    strides, padding, dilations and feature groups."""
    dt = p.choice(("f32", "f64", "f16", "bf16", "i32"), (4, 1, 1, 1, 1))
    spatial = int(p.rng.integers(1, 3))
    groups = int(p.choice([1, 1, 2]))
    cg, og = int(p.rng.integers(1, 4)), int(p.rng.integers(1, 4))
    kernel = [int(p.rng.integers(1, 4)) for _ in range(spatial)]
    batch = p.choice([d for d in p.syms if d.startswith("d")] + [1, 2, 3])
    sizes = [int(p.rng.integers(1, 8)) for _ in range(spatial)]
    lhs_roles = p.rng.permutation(["b", "f"] + [str(i) for i in range(spatial)]).tolist()
    rhs_roles = p.rng.permutation(["o", "i"] + [str(i) for i in range(spatial)]).tolist()
    out_roles = p.rng.permutation(["b", "f"] + [str(i) for i in range(spatial)]).tolist()
    role_size = {"b": batch, "f": groups * cg, **{str(i): n for i, n in enumerate(sizes)}}
    x = p.leaf(dt, tuple(role_size[r] for r in lhs_roles))
    w = p.leaf(dt, tuple({"o": groups * og, "i": cg, **{str(i): k for i, k in enumerate(kernel)}}[r]
                         for r in rhs_roles))
    stride = [int(p.rng.integers(1, 3)) for _ in range(spatial)]
    pad = [(int(p.rng.integers(0, 3)), int(p.rng.integers(0, 3))) for _ in range(spatial)]
    lhs_dil = [2 if p.rng.random() < 0.15 else 1 for _ in range(spatial)]
    rhs_dil = [2 if p.rng.random() < 0.2 else 1 for _ in range(spatial)]
    to_canon_x = [lhs_roles.index(r) for r in ["b", "f"] + [str(i) for i in range(spatial)]]
    to_canon_w = [rhs_roles.index(r) for r in ["o", "i"] + [str(i) for i in range(spatial)]]
    canon_out = ["b", "f"] + [str(i) for i in range(spatial)]
    from_canon = [canon_out.index(r) for r in out_roles]
    data, err = [], [] if dt in FLOATS else None
    for c in (0, 1):
        xc, wc = np.transpose(x.data[c], to_canon_x), np.transpose(w.data[c], to_canon_w)
        with np.errstate(all="ignore"):
            if dt in FLOATS:
                r = _conv(xc.astype(WIDE[dt]), wc.astype(WIDE[dt]), stride, pad, lhs_dil, rhs_dil, groups)
            else:
                r = _conv(xc.astype(np.int64), wc.astype(np.int64), stride, pad, lhs_dil, rhs_dil, groups)
        data.append(np.transpose(r, from_canon).astype(NP[dt]))
        if dt in FLOATS:
            ax, aw = np.abs(xc.astype(np.float64)), np.abs(wc.astype(np.float64))
            ex, ew = np.transpose(x.err[c], to_canon_x), np.transpose(w.err[c], to_canon_w)
            args = (stride, pad, lhs_dil, rhs_dil, groups)
            mag = _conv(ax, aw, *args)
            if np.any(mag > BIG[dt]):
                raise Reject("a partial sum could overflow")
            n = cg * int(np.prod(kernel))
            e = _conv(ax, ew, *args) + _conv(ex, aw, *args) + _conv(ex, ew, *args) + \
                (n + 1) * float(finfo(dt).eps) * mag
            err.append(np.transpose(e, from_canon) + ulp(data[c], dt))
    p.checked(dt, data, err)
    shape = tuple(batch if r == "b" else groups * og if r == "f" else data[0].shape[i]
                  for i, r in enumerate(out_roles))
    p.use(x, w)

    def spell(roles):
        return "[" + ", ".join(roles) + "]"
    window = (f"stride = {stride}, pad = [{', '.join(f'[{lo}, {hi}]' for lo, hi in pad)}], "
              f"lhs_dilate = {lhs_dil}, rhs_dilate = {rhs_dil}")
    line = (f"%RES = stablehlo.convolution({x.name}, {w.name}) dim_numbers = "
            f"{spell(lhs_roles)}x{spell(rhs_roles)}->{spell(out_roles)}, "
            f"window = {{{window}}} {{batch_group_count = 1 : i64, feature_group_count = {groups} : i64}}"
            f" : ({ttype(x.shape, dt)}, {ttype(w.shape, dt)}) -> {ttype(shape, dt)}")
    return p.add(dt, shape, data, err, line, "convolution")


def _starts(p: Prog, rank: int):
    """Start index operands: scalars of one int type, from the program or new."""
    dt = p.choice(INTS)
    starts = []
    for _ in range(rank):
        cands = [v for v in p.values if v.dt == dt and v.rank == 0]
        if cands and p.rng.random() < 0.4:
            starts.append(p.choice(cands))
        elif p.rng.random() < 0.5:
            starts.append(p.const(dt, (), data=int(p.rng.integers(-2, 6))))
        else:
            starts.append(p.arg(dt, (), "index"))
    return dt, starts


def op_dynamic_slice(p: Prog):
    x = p.pick(lambda v: v.rank >= 1)
    sizes = [int(p.rng.integers(0 if p.rng.random() < 0.1 else min(1, p.dim_min(d)),
                                p.dim_min(d) + 1)) for d in x.shape]
    dt, starts = _starts(p, x.rank)

    def fn(a, c):
        idx = []
        for i, s in enumerate(starts):
            st = int(np.clip(int(s.data[c]), 0, a.shape[i] - sizes[i]))
            idx.append(slice(st, st + sizes[i]))
        return a[tuple(idx)]
    p.use(*starts)
    line = (f'%RES = "stablehlo.dynamic_slice"({x.name}, {", ".join(s.name for s in starts)}) '
            f"{{slice_sizes = {i64s(sizes)}}} : ({ttype(x.shape, x.dt)}, "
            f"{', '.join([ttype((), dt)] * x.rank)}) -> {ttype(sizes, x.dt)}")
    return _movement(p, x, fn, tuple(sizes), line, "dynamic_slice")


def op_dynamic_update_slice(p: Prog):
    x = p.pick(lambda v: v.rank >= 1)
    cands = [v for v in p.values if v.dt == x.dt and v.rank == x.rank and v.static and v is not x
             and all(n <= p.dim_min(d) for n, d in zip(v.shape, x.shape))]
    if cands and p.rng.random() < 0.5:
        upd = p.choice(cands)
    else:
        upd = p.leaf(x.dt, tuple(int(p.rng.integers(0 if p.dim_min(d) == 0 else 1, p.dim_min(d) + 1))
                                 for d in x.shape))
    dt, starts = _starts(p, x.rank)

    def fn(a, u, c):
        out = np.array(a, copy=True)
        idx = []
        for i, s in enumerate(starts):
            st = int(np.clip(int(s.data[c]), 0, a.shape[i] - u.shape[i]))
            idx.append(slice(st, st + u.shape[i]))
        out[tuple(idx)] = u
        return out
    data = [fn(x.data[c], upd.data[c], c) for c in (0, 1)]
    err = None if x.err is None else [fn(x.err[c], upd.err[c], c) for c in (0, 1)]
    p.use(x, upd, *starts)
    return p.add(x.dt, x.shape, data, err,
                 f'%RES = "stablehlo.dynamic_update_slice"({x.name}, {upd.name}, '
                 f"{', '.join(s.name for s in starts)}) : ({ttype(x.shape, x.dt)}, "
                 f"{ttype(upd.shape, x.dt)}, {', '.join([ttype((), dt)] * x.rank)}) -> "
                 f"{ttype(x.shape, x.dt)}", "dynamic_update_slice")


def op_constant(p: Prog):
    return p.const(p.choice(DTYPES, DTYPE_WEIGHTS), p.random_shape(allow_sym=False))


OPS = {  # name -> (weight, builder); a builder raises Reject when its op does not fit
    "unary": (4, op_unary), "binary": (5, op_binary), "compare": (1.5, op_compare),
    "select": (1.5, op_select), "clamp": (0.8, op_clamp), "convert": (2, op_convert),
    "broadcast_in_dim": (2, op_broadcast), "transpose": (1.2, op_transpose),
    "reverse": (0.8, op_reverse), "reshape": (1.2, op_reshape), "slice": (1.5, op_slice),
    "concatenate": (1.2, op_concatenate), "pad": (1, op_pad), "reduce": (2.5, op_reduce),
    "dot_general": (2, op_dot_general), "iota": (0.6, op_iota),
    "argmax": (1, op_argmax), "sort": (0.8, op_sort), "reduce_window": (1, op_reduce_window),
    "while": (0.7, op_while), "if": (0.6, op_if),
    "real_dynamic_slice": (0.6, op_real_dynamic_slice), "gather": (0.8, op_gather),
    "convolution": (1, op_convolution),
    "get_dimension_size": (0.6, op_get_dimension_size), "dynamic_iota": (0.6, op_dynamic_iota),
    "dynamic_broadcast_in_dim": (0.8, op_dynamic_broadcast_in_dim),
    "dynamic_reshape": (0.8, op_dynamic_reshape), "dynamic_slice": (1.2, op_dynamic_slice),
    "dynamic_update_slice": (1, op_dynamic_update_slice), "constant": (0.3, op_constant),
}


# ----------------------------------------------------------------------------- cases


@dataclass
class Case:
    seed: int
    index: int
    text: str
    inputs: list  # [call 0 inputs, call 1 inputs]
    expected: list  # [call 0 results, call 1 results]
    errs: list  # per call, per result: bound array or None (exact)
    ops: Counter = field(default_factory=Counter)

    @property
    def name(self):
        return f"{self.seed}-{self.index}"


def generate(seed: int, index: int, max_ops: int = 10) -> Case:
    """Program `index` of `seed`: deterministic, numpy only (safe in the parent process)."""
    rng = np.random.default_rng([seed, index])
    p = Prog(rng)
    for k in range(int(p.choice([0, 1, 2], [0.3, 0.45, 0.25]))):
        a = b = 0 if rng.random() < 0.1 else p.size()
        while b == a:
            b = 0 if rng.random() < 0.1 else p.size()
        p.syms[f"d{k}"] = (a, b)
    for _ in range(int(rng.integers(1, 3))):
        try:
            p.arg(p.choice(DTYPES, DTYPE_WEIGHTS), p.random_shape())
        except Reject:  # too large: the ops make their own inputs
            pass
    n_ops = int(rng.integers(3, max_ops + 1))
    with np.errstate(all="ignore"):  # the references' own overflow, in rejected attempts too
        _add_ops(p, n_ops)
    return _finish(p, seed, index)


def _add_ops(p: Prog, n_ops: int):
    names = list(OPS)
    weights = [OPS[n][0] for n in names]
    done = 0
    for _ in range(400):
        if done >= n_ops:
            break
        lines, values, args, used = len(p.lines), len(p.values), len(p.args), set(p.used)
        syms, n, ops = dict(p.syms), p.n, Counter(p.ops)
        try:
            OPS[p.choice(names, weights)][1](p)
            done += 1
        except (Reject, MemoryError):  # undo what the attempt added
            del p.lines[lines:], p.values[values:], p.args[args:]
            p.used, p.syms, p.n, p.ops = used, syms, n, ops


def _finish(p: Prog, seed: int, index: int) -> Case:
    results = [v for v in p.values if v.name not in p.used and not v.name.startswith("%a")]
    if not results:
        results = [p.values[-1]]
    results = results[-6:]
    if p.rng.random() < 0.1:  # a result twice, or an argument returned as it came
        results.append(p.choice(results + p.args))
    args = ", ".join(f"{a.name}: {ttype(a.shape, a.dt)}" for a in p.args)
    rtypes = ", ".join(ttype(v.shape, v.dt) for v in results)
    body = "".join(f"    {line}\n" for line in p.lines)
    text = (f"// differential fuzzer: seed {seed}, index {index}; dims "
            + (", ".join(f"{s}={a}|{b}" for s, (a, b) in p.syms.items()) or "static") + "\n"
            f"func.func @main({args}) -> ({rtypes}) {{\n{body}"
            f"    return {', '.join(v.name for v in results)} : {rtypes}\n}}\n")
    return Case(seed, index, text,
                [[_contiguous(a.data[c]) for a in p.args] for c in (0, 1)],
                [[_contiguous(v.data[c]) for v in results] for c in (0, 1)],
                [[None if v.err is None else v.err[c] for v in results] for c in (0, 1)],
                p.ops)


def compare(got, want, err) -> str | None:
    """Why `got` is not `want` within the bound `err` (None: exact), or None when it is."""
    got = np.asarray(got)
    if got.shape != want.shape or got.dtype != want.dtype:
        return f"got {got.dtype}{list(got.shape)}, want {want.dtype}{list(want.shape)}"
    if err is None:
        bad = got != want
    else:
        g, w = got.astype(np.float64), want.astype(np.float64)
        with np.errstate(all="ignore"):
            bad = ~((g == w) | (np.isnan(g) & np.isnan(w)) | (np.abs(g - w) <= err * 1.0000001 + 1e-300))
    if not bad.any():
        return None
    where = np.argwhere(bad)[:4]
    items = [f"{tuple(int(i) for i in ix)}: got {got[tuple(ix)]!r} want {want[tuple(ix)]!r}"
             + ("" if err is None else f" (bound {err[tuple(ix)]:.3g})") for ix in where]
    return f"{int(bad.sum())} of {bad.size} elements differ: " + "; ".join(items)


def check(case: Case, lib) -> tuple[list, list]:
    """Call the library on both calls' inputs: (problems, results got per call)."""
    problems, gots = [], []
    for c in (0, 1):
        out = lib.main(*case.inputs[c])
        out = list(out) if isinstance(out, (tuple, list)) else [out]
        gots.append(out)
        if len(out) != len(case.expected[c]):
            problems.append(f"call {c}: {len(out)} results, want {len(case.expected[c])}")
            continue
        for k, (g, w, e) in enumerate(zip(out, case.expected[c], case.errs[c])):
            why = compare(g, w, e)
            if why:
                problems.append(f"call {c} result {k}: {why}")
    return problems, gots


def run_case(seed: int, index: int, save_to: str | None = None) -> tuple:
    """(kind, detail) of one program, built and called in this process."""
    import aot
    from lowering.ir.core import CompileError
    try:
        case = generate(seed, index)
    except Exception as e:  # noqa: BLE001  (the fuzzer's own bug, not the compiler's)
        return "internal", "in the generator: " + "".join(traceback.format_exception(e))
    tmp = tempfile.mkdtemp(prefix="aotc-diff-")
    gots = None
    try:
        try:
            lib = aot.compile(case.text, name="diff", output_dir=tmp)
        except CompileError as e:
            return "error", "compile: " + e.render()
        try:
            problems, gots = check(case, lib)
        except Exception as e:  # noqa: BLE001  (a run-time error on valid input)
            return ("error" if type(e).__name__.startswith("Aot") else "internal",
                    f"call: {type(e).__name__}: {e}")
        if problems:
            if save_to:
                save(case, save_to, "mismatch", "\n".join(problems), gots)
            return "mismatch", "\n".join(problems)
        return "ok", ""
    except Exception as e:  # noqa: BLE001
        return "internal", "".join(traceback.format_exception(e))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def save(case: Case, out_dir: str, kind: str, detail: str, gots=None) -> str:
    os.makedirs(out_dir, exist_ok=True)
    base = os.path.join(out_dir, f"{kind}-{case.name}")
    with open(base + ".mlir", "w") as f:
        f.write(case.text)
    arrays = {}
    for c in (0, 1):
        arrays.update({f"call{c}_arg{k}": a for k, a in enumerate(case.inputs[c])})
        arrays.update({f"call{c}_exp{k}": a for k, a in enumerate(case.expected[c])})
        arrays.update({f"call{c}_bound{k}": e for k, e in enumerate(case.errs[c]) if e is not None})
        if gots:
            arrays.update({f"call{c}_got{k}": np.asarray(a) for k, a in enumerate(gots[c])})
    np.savez(base + ".npz", **{k + "__bf16" if a.dtype == BF16 else k:  # npz has no bfloat16
                               a.view(np.uint16) if a.dtype == BF16 else a
                               for k, a in arrays.items()})
    with open(base + ".txt", "w") as f:
        f.write(f"seed {case.seed} index {case.index}\nops: {dict(case.ops)}\n"
                f"replay: python tests/tooling/fuzz/differential.py --seed {case.seed} "
                f"--index {case.index}\n\n{kind}: {detail}\n")
    return base


def load_saved(path: str) -> Case:
    """A saved failure (KIND-SEED-INDEX.mlir and the .npz beside it) as a Case."""
    with open(path) as f:
        text = f.read()
    z = {k.removesuffix("__bf16"): v.view(BF16) if k.endswith("__bf16") else v
         for k, v in np.load(path[:-5] + ".npz").items()}

    def arrays(c, what):
        return [z[f"call{c}_{what}{k}"] for k in range(len(z)) if f"call{c}_{what}{k}" in z]
    return Case(0, 0, text, [arrays(c, "arg") for c in (0, 1)], [arrays(c, "exp") for c in (0, 1)],
                [[z[f"call{c}_bound{k}"] if f"call{c}_bound{k}" in z else None
                  for k in range(len(arrays(c, "exp")))] for c in (0, 1)])


def run_saved(path: str) -> tuple:
    import aot
    case = load_saved(path)
    with tempfile.TemporaryDirectory(prefix="aotc-diff-") as tmp:
        problems, _ = check(case, aot.compile(case.text, name="diff", output_dir=tmp))
    return ("mismatch", "\n".join(problems)) if problems else ("ok", "")


def _work(seed: int, index: int, out_dir: str | None):
    return run_case(seed, index, out_dir)


@dataclass
class Result:
    counts: Counter = field(default_factory=Counter)
    failures: list = field(default_factory=list)  # (index, kind, detail)
    ops: Counter = field(default_factory=Counter)
    seconds: float = 0.0

    @property
    def failed(self) -> int:
        return sum(self.counts[k] for k in FAILURES)

    def line(self) -> str:
        c = self.counts
        return (f"{sum(c.values())} programs: {c['ok']} ok, {c['mismatch']} mismatches, "
                f"{c['error']} errors, {c['internal']} internal errors, {c['crash']} crashes, "
                f"{c['hang']} hangs ({self.seconds:.0f} s)")


def run(seed: int, indices, jobs: int = 2, timeout: float = 60.0, out_dir: str | None = None,
        progress: bool = False) -> Result:
    import aot  # noqa: F401  (imported once, before the workers fork)
    import aot.driver  # noqa: F401
    res = Result()
    t0 = last = time.monotonic()
    items = ((i, (seed, i, out_dir)) for i in indices)
    for index, kind, detail in pool(jobs, timeout, _work, items, recycle=100):
        res.counts[kind] += 1
        if kind != "ok":
            res.failures.append((index, kind, detail))
            if out_dir and kind != "mismatch":  # a mismatch the worker saved, with its results
                try:
                    save(generate(seed, index), out_dir, kind, detail)
                except Exception as e:  # noqa: BLE001  (a generator bug: the campaign goes on)
                    detail += f"\n(not saved: the generator failed: {type(e).__name__}: {e})"
            if progress:
                print(f"  {kind} at {seed}-{index}: {detail.splitlines()[0] if detail else ''}",
                      flush=True)
        if progress and time.monotonic() - last > 30:
            last = time.monotonic()
            res.seconds = last - t0
            print(f"  ... {res.line()}", flush=True)
    res.seconds = time.monotonic() - t0
    return res


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("-n", type=int, default=200, help="programs (default 200)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--start", type=int, default=0, help="first program index (default 0)")
    ap.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--timeout", type=float, default=60.0, help="seconds per program (default 60)")
    ap.add_argument("--out", default=os.path.join(ROOT, "build", "fuzz-diff"),
                    help="directory for failing programs (default build/fuzz-diff)")
    ap.add_argument("--index", type=int, nargs="+", help="run these programs only, in this process")
    ap.add_argument("--show", action="store_true", help="with --index: print the programs")
    ap.add_argument("--replay", nargs="+", metavar="FILE.mlir",
                    help="run saved failures again (each .mlir with its .npz), in this process")
    args = ap.parse_args(argv)
    if args.replay:
        bad = 0
        for path in args.replay:
            kind, detail = run_saved(path)
            bad += kind != "ok"
            print(f"{path}: {kind}" + (f"\n{detail}" if detail else ""), flush=True)
        return 1 if bad else 0
    if args.index:
        bad = 0
        for i in args.index:
            if args.show:
                print(generate(args.seed, i).text)
            kind, detail = run_case(args.seed, i)
            bad += kind != "ok"
            print(f"{args.seed}-{i}: {kind}" + (f"\n{detail}" if detail else ""))
        return 1 if bad else 0
    print(f"fuzz-diff: seed {args.seed}, programs {args.start}..{args.start + args.n - 1}, "
          f"{args.jobs} workers, {args.timeout:g} s per program", flush=True)
    res = run(args.seed, range(args.start, args.start + args.n), args.jobs, args.timeout,
              args.out, progress=True)
    print(f"fuzz-diff: {res.line()}")
    if res.failed:
        print(f"fuzz-diff: failing programs in {args.out}")
    return 1 if res.failed else 0


if __name__ == "__main__":
    sys.exit(main())
