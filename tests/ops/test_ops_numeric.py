"""Numeric tests of every tensor-level op against numpy, from MLIR text built here.

Each test builds a small module (most in the generic MHLO form, some in pretty
StableHLO and a few in the RFC's old `xla_hlo.` spellings), compiles it with
`aot.compile` and compares every result with a numpy reference that follows
XLA's semantics:

* f16/bf16 ops are computed in f32 and rounded once per op (XLA's CPU backend);
  f32 references are computed in f64 and rounded once.
* integer x / 0 = -1 (all ones), x % 0 = x, INT_MIN / -1 = INT_MIN, INT_MIN % -1 = 0;
  shifts by >= the bit width (amounts read as unsigned) give 0, or the sign for
  shift_right_arithmetic.
* float -> int conversion truncates and saturates, NaN -> 0; -> i1 is `x != 0`;
  f64/int -> bf16 goes through f32 (as XLA's emitter does).

To keep compiles few, most tests put many ops into one module with one result
each; a failure message names the op. Sums and dots use dyadic inputs (small
multiples of 1/8) so every summation order gives the exact result.
"""
from __future__ import annotations

import itertools
import math
import re

import ml_dtypes
import numpy as np
import pytest

import aot
from corpus import TOLERANCE, assert_close
from lowering.ir.core import CompileError, numpy_dtype

BF16 = ml_dtypes.bfloat16
NP = {"f16": np.dtype(np.float16), "bf16": np.dtype(BF16), "f32": np.dtype(np.float32),
      "f64": np.dtype(np.float64), "i1": np.dtype(np.bool_), "i8": np.dtype(np.int8),
      "i16": np.dtype(np.int16), "i32": np.dtype(np.int32), "i64": np.dtype(np.int64),
      "ui8": np.dtype(np.uint8), "ui16": np.dtype(np.uint16), "ui32": np.dtype(np.uint32),
      "ui64": np.dtype(np.uint64)}
FLOATS = ("f32", "f64", "f16", "bf16")
SINTS = ("i8", "i32", "i64")
UINTS = ("ui8", "ui32")
INTS = SINTS + UINTS
ALL = FLOATS + INTS + ("i1",)
SHAPES = [(), (7,), (3, 5), (2, 3, 4), (64, 129)]

# numpy warns on the overflow / NaN the references produce on purpose
pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")


def bits(dt):
    return 1 if dt == "i1" else int(re.sub(r"\D", "", dt))


def is_float(dt):
    return dt in FLOATS


def is_unsigned(dt):
    return dt.startswith("ui")


# ----------------------------------------------------------------------------- MLIR text


def T(shape, dt):
    """`tensor<3x5xf32>`; `tensor<f32>` for a scalar."""
    return "tensor<" + "".join(f"{n}x" for n in shape) + dt + ">"


def I64S(values):
    """An i64 dense list attribute."""
    values = list(values)
    return f"dense<[{', '.join(map(str, values))}]> : tensor<{len(values)}xi64>" if values else \
        "dense<> : tensor<0xi64>"


def op(res, name, operands, in_types, out_type, attrs=None, region=None):
    """One generic-form line: `%r = "mhlo.add"(%a, %b) {..} : (ta, tb) -> tr`."""
    a = " {" + ", ".join(f"{k} = {v}" for k, v in attrs.items()) + "}" if attrs else ""
    r = f" ({region})" if region else ""
    return (f'{res} = "{name}"({", ".join(operands)}){r}{a} : ({", ".join(in_types)}) -> '
            f"{out_type}")


def func(arg_types, lines, results, name="main"):
    """A `func.func` with arguments %a0.. of `arg_types` and `results` [(value, type)]."""
    args = ", ".join(f"%a{i}: {t}" for i, t in enumerate(arg_types))
    res = results[0][1] if len(results) == 1 else "(" + ", ".join(t for _, t in results) + ")"
    body = "".join(f"    {line}\n" for line in lines)
    ret = f"    return {', '.join(v for v, _ in results)} : {', '.join(t for _, t in results)}\n"
    return f"func.func @{name}({args}) -> {res} {{\n{body}{ret}}}\n"


def run(text, *args, tag="case"):
    """Compile (cached by text) and call main; always a tuple of results."""
    name = re.sub(r"\W", "_", tag)
    lib = aot.compile(text, name=name)
    out = lib.main(*args)
    return out if isinstance(out, tuple) else (out,)


def check(got, want, what, zero_signs=False):
    assert_close(got, want, what)
    if zero_signs and np.asarray(want).dtype.kind == "f":
        g = np.asarray(got).astype(np.float64)
        w = np.asarray(want).astype(np.float64)
        both0 = (g == 0) & (w == 0)
        np.testing.assert_array_equal(np.signbit(g[both0]), np.signbit(w[both0]),
                                      err_msg=f"{what}: sign of zero")


# ----------------------------------------------------------------------------- data


def rng_for(*key):
    import zlib
    return np.random.default_rng(zlib.crc32(repr(key).encode()))


def uniform(rng, dt, shape, lo, hi):
    return np.asarray(rng.uniform(lo, hi, size=shape)).astype(NP[dt])


def log_uniform(rng, dt, shape, lo, hi):
    return np.asarray(np.exp(rng.uniform(np.log(lo), np.log(hi), size=shape))).astype(NP[dt])


def halves(rng, dt, shape, lo, hi):
    """Multiples of 0.5 (ties for rounding) mixed with arbitrary values."""
    x = rng.uniform(lo, hi, size=shape)
    h = np.round(x * 2) / 2
    return np.asarray(np.where(rng.random(size=shape) < 0.5, h, x)).astype(NP[dt])


def dyadic(rng, dt, shape, lo=-2, hi=2):
    """Multiples of 1/8 in [lo, hi] (exact in every float type here)."""
    return np.asarray(rng.integers(lo * 8, hi * 8 + 1, size=shape) / 8).astype(NP[dt])


def ints(rng, dt, shape, lo=None, hi=None):
    """Integers over the whole range of dt (or [lo, hi]), with the edge values mixed in."""
    if dt == "i1":
        return np.asarray(rng.random(size=shape) < 0.5)
    info = np.iinfo(NP[dt])
    lo = info.min if lo is None else lo
    hi = info.max if hi is None else hi
    x = np.asarray(rng.integers(lo, hi, size=shape, endpoint=True, dtype=np.int64 if lo < 0 else
                                np.uint64)).astype(NP[dt])
    if x.size >= 8 and lo == info.min and hi == info.max:
        flat = x.reshape(-1)
        edges = np.array([info.min, info.max, 0, 1, info.max - 1, info.min + 1], dtype=NP[dt])
        if not is_unsigned(dt):
            edges = np.concatenate([edges, np.array([-1], dtype=NP[dt])])
        pos = rng.choice(flat.size, size=min(len(edges), flat.size), replace=False)
        flat[pos] = edges[:len(pos)]
    return x


def specials(dt):
    """Float special values (NaN, infinities, signed zeros, extremes, ties) of dt."""
    fi = np.finfo(NP[dt]) if dt != "bf16" else ml_dtypes.finfo(BF16)
    v = [np.nan, np.inf, -np.inf, 0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 1.5, 2.5, -2.5, 3.0, -7.25,
         float(fi.max), -float(fi.max), float(fi.tiny), -float(fi.tiny), 100.0, 1e-3]
    return np.array(v, dtype=np.float64).astype(NP[dt])


# ----------------------------------------------------------------------------- references


def wide(dt):
    """The type XLA computes dt's float ops in (the references do the same, via f64)."""
    return np.float64 if dt in ("f32", "f64") else np.float32


def fref(fn, dt, *xs):
    """fn over float inputs of dt: computed wide, rounded once to dt (bool results kept)."""
    with np.errstate(all="ignore"):
        r = np.asarray(fn(*[np.asarray(x).astype(wide(dt)) for x in xs]))
    return r if r.dtype == np.bool_ else r.astype(NP[dt])


def to_py(x):
    return [int(v) for v in np.asarray(x).reshape(-1)]


def wrap(values, dt, shape):
    """Python ints to dt with two's complement wrap-around."""
    if dt == "i1":
        return np.array([bool(v & 1) for v in values], dtype=np.bool_).reshape(shape)
    w = bits(dt)
    u = np.array([v & ((1 << w) - 1) for v in values], dtype=np.uint64)
    return u.astype(f"uint{w}").view(NP[dt]).reshape(shape)


def iref(fn, dt, *xs):
    """fn over Python ints elementwise, wrapped to dt."""
    shape = np.asarray(xs[0]).shape
    return wrap([fn(*vs) for vs in zip(*map(to_py, xs))], dt, shape)


def signed_bits(v, w):
    v &= (1 << w) - 1
    return v - (1 << w) if v >> (w - 1) else v


def xla_div(a, b):
    if b == 0:
        return -1
    q = abs(a) // abs(b)
    return -q if (a < 0) != (b < 0) else q


def xla_rem(a, b):
    return a if b == 0 else a - b * xla_div(a, b)


def shift_ref(kind, w):
    def f(a, b):
        amount = b & ((1 << w) - 1)  # read as unsigned
        if kind == "shift_left":
            return 0 if amount >= w else a << amount
        if kind == "shift_right_logical":
            return 0 if amount >= w else (a & ((1 << w) - 1)) >> amount
        return signed_bits(a, w) >> min(amount, w - 1)
    return f


def round_afz(x):
    t = np.trunc(x)
    return t + np.sign(x) * (np.abs(x - t) >= 0.5)


def clz(x, w):
    u = int(x) & ((1 << w) - 1)
    return w - u.bit_length()


def popcnt(x, w):
    return bin(int(x) & ((1 << w) - 1)).count("1")


# ----------------------------------------------------------------------------- unary ops

# op -> (reference over wide floats, input generator(rng, dt, shape))
UNARY_FLOAT = {
    "abs": (np.abs, lambda r, d, s: uniform(r, d, s, -10, 10)),
    "negate": (np.negative, lambda r, d, s: uniform(r, d, s, -10, 10)),
    "sign": (lambda x: np.where(x == 0, x, np.sign(x)),  # XLA: sign(-0.0) = -0.0
             lambda r, d, s: halves(r, d, s, -2, 2)),
    "exponential": (np.exp, lambda r, d, s: uniform(r, d, s, -10, 10)),
    "exponential_minus_one": (np.expm1, lambda r, d, s: uniform(r, d, s, -5, 5)),
    "log": (np.log, lambda r, d, s: log_uniform(r, d, s, 1e-2, 1e2)),
    "log_plus_one": (np.log1p, lambda r, d, s: uniform(r, d, s, -0.9, 10)),
    "logistic": (lambda x: 1 / (1 + np.exp(-x)), lambda r, d, s: uniform(r, d, s, -10, 10)),
    "tanh": (np.tanh, lambda r, d, s: uniform(r, d, s, -5, 5)),
    "sqrt": (np.sqrt, lambda r, d, s: log_uniform(r, d, s, 1e-2, 1e2)),
    "rsqrt": (lambda x: 1 / np.sqrt(x), lambda r, d, s: log_uniform(r, d, s, 1e-2, 1e2)),
    "cbrt": (np.cbrt, lambda r, d, s: uniform(r, d, s, -100, 100)),
    "sine": (np.sin, lambda r, d, s: uniform(r, d, s, -10, 10)),
    "cosine": (np.cos, lambda r, d, s: uniform(r, d, s, -10, 10)),
    "tan": (np.tan, lambda r, d, s: uniform(r, d, s, -1.4, 1.4)),
    "floor": (np.floor, lambda r, d, s: halves(r, d, s, -10, 10)),
    "ceil": (np.ceil, lambda r, d, s: halves(r, d, s, -10, 10)),
    "round_nearest_afz": (round_afz, lambda r, d, s: halves(r, d, s, -10, 10)),
    "round_nearest_even": (np.round, lambda r, d, s: halves(r, d, s, -10, 10)),
    "is_finite": (np.isfinite, lambda r, d, s: uniform(r, d, s, -10, 10)),
}

UNARY_INT = {
    "abs": lambda w, s: (lambda a: a if not s else abs(signed_bits(a, w))),
    "negate": lambda w, s: (lambda a: -a),
    "sign": lambda w, s: (lambda a: (a > 0) - (a < 0) if s else int(a != 0)),
    "not": lambda w, s: (lambda a: ~a),
    "popcnt": lambda w, s: (lambda a: popcnt(a, w)),
    "count_leading_zeros": lambda w, s: (lambda a: clz(a, w)),
}


def unary_module(dt, shape, names, dialect="mhlo"):
    lines, results, ins = [], [], []
    for i, name in enumerate(names):
        out_dt = "i1" if name == "is_finite" else dt
        lines.append(op(f"%r{i}", f"{dialect}.{name}", [f"%a{i}"], [T(shape, dt)],
                        T(shape, out_dt)))
        ins.append(T(shape, dt))
        results.append((f"%r{i}", T(shape, out_dt)))
    return func(ins, lines, results)


def dtype_shapes(dtypes, main):
    """Every shape for the main dtype, a 3-D and a large one (odd inner dim: vector loops
    with a remainder) for the others: the element types share all shape logic, so this
    keeps the compiles few."""
    return [(dt, s) for dt in dtypes for s in SHAPES
            if dt == main or s in ((2, 3, 4), (64, 129))]


@pytest.mark.parametrize("dt,shape", dtype_shapes(FLOATS, "f32"), ids=str)
def test_unary_float(dt, shape):
    names = list(UNARY_FLOAT)
    rng = rng_for("unary", dt, shape)
    xs = [UNARY_FLOAT[n][1](rng, dt, shape) for n in names]
    outs = run(unary_module(dt, shape, names), *xs, tag=f"unary_{dt}")
    for n, x, got in zip(names, xs, outs):
        check(got, fref(UNARY_FLOAT[n][0], dt, x), f"{n} {dt}{list(shape)}")


@pytest.mark.parametrize("dt,shape", dtype_shapes(INTS, "i32"), ids=str)
def test_unary_int(dt, shape):
    names = list(UNARY_INT)
    rng = rng_for("unary", dt, shape)
    xs = [ints(rng, dt, shape) for _ in names]
    outs = run(unary_module(dt, shape, names), *xs, tag=f"unary_{dt}")
    w, s = bits(dt), not is_unsigned(dt)
    for n, x, got in zip(names, xs, outs):
        check(got, iref(UNARY_INT[n](w, s), dt, x), f"{n} {dt}{list(shape)}")


def test_unary_bool():
    shape = (3, 67)
    text = func([T(shape, "i1")], [op("%r", "mhlo.not", ["%a0"], [T(shape, "i1")], T(shape, "i1"))],
                [("%r", T(shape, "i1"))])
    x = ints(rng_for("not"), "i1", shape)
    (got,) = run(text, x, tag="not_i1")
    check(got, ~x, "not i1")


# ops whose numpy result has a well-defined sign of zero (checked on special inputs)
ZERO_SIGN_OPS = {"abs", "negate", "sign", "floor", "ceil", "round_nearest_even", "sqrt", "cbrt",
                 "sine", "tan", "tanh", "exponential_minus_one", "log_plus_one"}


@pytest.mark.parametrize("dt", FLOATS)
def test_unary_float_specials(dt):
    """NaN, infinities, signed zeros, extremes through every unary op."""
    names = list(UNARY_FLOAT)
    x = specials(dt)
    outs = run(unary_module(dt, x.shape, names), *[x] * len(names), tag=f"unary_sp_{dt}")
    for n, got in zip(names, outs):
        ref = UNARY_FLOAT[n][0]
        check(got, fref(ref, dt, x), f"{n} {dt} specials {x}", zero_signs=n in ZERO_SIGN_OPS)


# ----------------------------------------------------------------------------- binary ops


def _nonzero(rng, dt, shape, lo, hi):
    y = uniform(rng, dt, shape, lo, hi)
    return np.where(np.abs(y.astype(np.float64)) < 0.1, np.asarray(0.5, NP[dt]), y)


BINARY_FLOAT = {
    "add": (np.add, lambda r, d, s: (uniform(r, d, s, -10, 10), uniform(r, d, s, -10, 10))),
    "subtract": (np.subtract, lambda r, d, s: (uniform(r, d, s, -10, 10),
                                               uniform(r, d, s, -10, 10))),
    "multiply": (np.multiply, lambda r, d, s: (uniform(r, d, s, -10, 10),
                                               uniform(r, d, s, -10, 10))),
    "divide": (np.divide, lambda r, d, s: (uniform(r, d, s, -10, 10), _nonzero(r, d, s, -5, 5))),
    "remainder": (np.fmod, lambda r, d, s: (uniform(r, d, s, -20, 20), _nonzero(r, d, s, -5, 5))),
    "power": (np.power, lambda r, d, s: (log_uniform(r, d, s, 0.1, 5), uniform(r, d, s, -3, 3))),
    "maximum": (np.maximum, lambda r, d, s: (halves(r, d, s, -3, 3), halves(r, d, s, -3, 3))),
    "minimum": (np.minimum, lambda r, d, s: (halves(r, d, s, -3, 3), halves(r, d, s, -3, 3))),
    "atan2": (np.arctan2, lambda r, d, s: (uniform(r, d, s, -5, 5), uniform(r, d, s, -5, 5))),
}


def _shift_amounts(rng, dt, shape):
    """Mostly in range, some >= the width, some negative (huge as unsigned)."""
    w = bits(dt)
    x = rng.integers(0, w, size=shape)
    x = np.where(rng.random(size=shape) < 0.3, rng.integers(w, w + 4, size=shape), x)
    if not is_unsigned(dt):
        x = np.where(rng.random(size=shape) < 0.15, rng.integers(-3, 0, size=shape), x)
    else:
        x = np.where(rng.random(size=shape) < 0.15, np.iinfo(NP[dt]).max, x)
    return np.asarray(x).astype(NP[dt])


def _divisors(rng, dt, shape):
    """Small divisors incl. 0 and -1, mixed with arbitrary ones."""
    lo = 0 if is_unsigned(dt) else -3
    y = ints(rng, dt, shape)
    small = np.asarray(rng.integers(lo, 4, size=shape)).astype(NP[dt])
    return np.where(rng.random(size=shape) < 0.5, small, y)


BINARY_INT = {
    "add": lambda w: lambda a, b: a + b,
    "subtract": lambda w: lambda a, b: a - b,
    "multiply": lambda w: lambda a, b: a * b,
    "divide": lambda w: xla_div,
    "remainder": lambda w: xla_rem,
    "maximum": lambda w: max,
    "minimum": lambda w: min,
    "and": lambda w: lambda a, b: a & b,
    "or": lambda w: lambda a, b: a | b,
    "xor": lambda w: lambda a, b: a ^ b,
    "shift_left": lambda w: shift_ref("shift_left", w),
    "shift_right_arithmetic": lambda w: shift_ref("shift_right_arithmetic", w),
    "shift_right_logical": lambda w: shift_ref("shift_right_logical", w),
}


def binary_module(dt, shape, names, dialect="mhlo"):
    lines, results, ins = [], [], []
    t = T(shape, dt)
    for i, name in enumerate(names):
        lines.append(op(f"%r{i}", f"{dialect}.{name}", [f"%a{2 * i}", f"%a{2 * i + 1}"], [t, t], t))
        ins += [t, t]
        results.append((f"%r{i}", t))
    return func(ins, lines, results)


@pytest.mark.parametrize("dt,shape", dtype_shapes(FLOATS, "f32"), ids=str)
def test_binary_float(dt, shape):
    names = list(BINARY_FLOAT)
    rng = rng_for("binary", dt, shape)
    pairs = [BINARY_FLOAT[n][1](rng, dt, shape) for n in names]
    outs = run(binary_module(dt, shape, names), *itertools.chain(*pairs), tag=f"binary_{dt}")
    for n, (a, b), got in zip(names, pairs, outs):
        check(got, fref(BINARY_FLOAT[n][0], dt, a, b), f"{n} {dt}{list(shape)}")


@pytest.mark.parametrize("dt,shape", dtype_shapes(INTS, "i32"), ids=str)
def test_binary_int(dt, shape):
    names = list(BINARY_INT)
    rng = rng_for("binary", dt, shape)
    pairs = []
    for n in names:
        a = ints(rng, dt, shape)
        if n.startswith("shift"):
            b = _shift_amounts(rng, dt, shape)
        elif n in ("divide", "remainder"):
            b = _divisors(rng, dt, shape)
        else:
            b = ints(rng, dt, shape)
        pairs.append((a, b))
    outs = run(binary_module(dt, shape, names), *itertools.chain(*pairs), tag=f"binary_{dt}")
    for n, (a, b), got in zip(names, pairs, outs):
        want = iref(BINARY_INT[n](bits(dt)), dt, a, b)
        check(got, want, f"{n} {dt}{list(shape)} a={a} b={b}" if a.size < 30 else f"{n} {dt}")


def _grid(xs, ys, dt):
    a, b = np.meshgrid(np.array(xs, dtype=object), np.array(ys, dtype=object), indexing="ij")
    return wrap(list(a.reshape(-1)), dt, (a.size,)), wrap(list(b.reshape(-1)), dt, (b.size,))


@pytest.mark.parametrize("dt", INTS + ("i16", "ui16", "ui64"))
def test_int_edge_cases(dt):
    """XLA's integer edge cases on every pair of edge values: x / 0 = -1 (all ones),
    x % 0 = x, INT_MIN / -1 = INT_MIN, INT_MIN % -1 = 0; shifts by >= the width or by a
    negative amount (huge as unsigned) give 0, or the sign fill for the arithmetic shift."""
    w = bits(dt)
    info = np.iinfo(NP[dt])
    edges = [int(info.min), int(info.min) + 1, -7, -1, 0, 1, 7, int(info.max) - 1, int(info.max)]
    divisors = [0, -1, 1, -3, 3, int(info.min), int(info.max)]
    amounts = [0, 1, w - 1, w, w + 1, 2 * w, 255, -1, -w, int(info.min), int(info.max)]
    da, db = _grid(edges, divisors, dt)
    sa, sb = _grid(edges, amounts, dt)
    names = ["divide", "remainder", "shift_left", "shift_right_arithmetic", "shift_right_logical"]
    args = [da, db, da, db] + [sa, sb] * 3
    lines, results, ins = [], [], []
    for i, n in enumerate(names):
        t = T(args[2 * i].shape, dt)
        lines.append(op(f"%r{i}", f"mhlo.{n}", [f"%a{2 * i}", f"%a{2 * i + 1}"], [t, t], t))
        ins += [t, t]
        results.append((f"%r{i}", t))
    outs = run(func(ins, lines, results), *args, tag=f"int_edges_{dt}")
    for i, (n, got) in enumerate(zip(names, outs)):
        a, b = args[2 * i], args[2 * i + 1]
        want = iref(BINARY_INT[n](w), dt, a, b)
        bad = np.asarray(got) != want
        check(got, want, f"{n} {dt}: (a, b, got, want) = "
              f"{list(zip(a[bad], b[bad], np.asarray(got)[bad], want[bad]))[:6]}")


def test_binary_bool():
    shape = (3, 67)
    names = ["and", "or", "xor", "maximum", "minimum"]
    rng = rng_for("binary", "i1")
    pairs = [(ints(rng, "i1", shape), ints(rng, "i1", shape)) for _ in names]
    outs = run(binary_module("i1", shape, names), *itertools.chain(*pairs), tag="binary_i1")
    refs = [np.logical_and, np.logical_or, np.logical_xor, np.logical_or, np.logical_and]
    for n, (a, b), ref, got in zip(names, pairs, refs, outs):
        check(got, ref(a, b), f"{n} i1")


@pytest.mark.parametrize("dt", FLOATS)
def test_binary_float_specials(dt):
    """Every pair of special values through every binary op (NaN propagation, inf - inf,
    0 * inf, x / 0, fmod(inf, y), pow(0, -1), atan2 of signed zeros...)."""
    names = list(BINARY_FLOAT)
    s = specials(dt)
    a, b = (np.ascontiguousarray(v.reshape(-1)) for v in np.meshgrid(s, s, indexing="ij"))
    outs = run(binary_module(dt, a.shape, names), *[a, b] * len(names), tag=f"binary_sp_{dt}")
    for n, got in zip(names, outs):
        bad = ~np.isclose(np.asarray(got, np.float64), fref(BINARY_FLOAT[n][0], dt, a, b).astype(
            np.float64), rtol=TOLERANCE[NP[dt].name][0], atol=TOLERANCE[NP[dt].name][1],
            equal_nan=True)
        check(got, fref(BINARY_FLOAT[n][0], dt, a, b),
              f"{n} {dt}: mismatches at (a, b) = {list(zip(a[bad], b[bad]))[:8]}",
              zero_signs=n in ("add", "subtract", "multiply", "divide", "atan2", "remainder"))


# ----------------------------------------------------------------------------- compare, select, cla

DIRECTIONS = {"EQ": np.equal, "NE": np.not_equal, "LT": np.less, "LE": np.less_equal,
              "GT": np.greater, "GE": np.greater_equal}


def _compare_pool(dt, rng, shape):
    """Two operands drawn from a small pool, so ties are frequent."""
    if is_float(dt):
        pool = np.concatenate([specials(dt), np.array([-np.nan], NP[dt])])
    elif dt == "i1":
        pool = np.array([False, True])
    else:
        info = np.iinfo(NP[dt])
        pool = np.array([info.min, info.max, 0, 1, 2, info.max // 2 + 1] +
                        ([-1, -2] if not is_unsigned(dt) else []), dtype=NP[dt])
    return tuple(pool[rng.integers(0, len(pool), size=shape)] for _ in range(2))


def total_order_key(x):
    """XLA TOTALORDER: -NaN < -inf < ... < -0.0 < +0.0 < ... < inf < +NaN."""
    s = np.ascontiguousarray(x).view(f"int{x.dtype.itemsize * 8}").astype(np.int64)
    return np.where(s < 0, s ^ ((1 << (x.dtype.itemsize * 8 - 1)) - 1), s)


@pytest.mark.parametrize("dt", ALL)
def test_compare(dt):
    """All six directions; floats also TOTALORDER. Floats in the generic MHLO form,
    integers in the pretty StableHLO form (compare type given or left implied)."""
    shape = (3, 67)
    t, tb = T(shape, dt), T(shape, "i1")
    kind = "FLOAT" if is_float(dt) else "UNSIGNED" if is_unsigned(dt) or dt == "i1" else "SIGNED"
    kinds = [kind, "TOTALORDER"] if is_float(dt) else [kind]
    lines, results, wants = [], [], []
    a, b = _compare_pool(dt, rng_for("compare", dt), shape)
    for ct in kinds:
        for i, (d, fn) in enumerate(DIRECTIONS.items()):
            r = f"%{ct.lower()}{d}"
            if is_float(dt):
                attrs = {"comparison_direction": f"#mhlo<comparison_direction {d}>"}
                if ct == "TOTALORDER" or i % 2:  # FLOAT is the default for floats
                    attrs["compare_type"] = f"#mhlo<comparison_type {ct}>"
                lines.append(op(r, "mhlo.compare", ["%a0", "%a1"], [t, t], tb, attrs))
            else:
                suffix = f", {ct}" if i % 2 else ""
                lines.append(f"{r} = stablehlo.compare {d}, %a0, %a1{suffix} : ({t}, {t}) -> {tb}")
            results.append((r, tb))
            if ct == "TOTALORDER":
                wants.append((f"{d} TOTALORDER", fn(total_order_key(a), total_order_key(b))))
            else:
                wants.append((f"{d} {ct}", fn(a.astype(np.float64) if dt == "bf16" else a,
                                              b.astype(np.float64) if dt == "bf16" else b)))
    outs = run(func([t, t], lines, results), a, b, tag=f"compare_{dt}")
    for (what, want), got in zip(wants, outs):
        bad = np.asarray(got) != want
        check(got, want, f"compare {what} {dt}: (a, b) at mismatches "
              f"{list(zip(a[bad], b[bad]))[:6]}")


@pytest.mark.parametrize("dt", ALL)
def test_select(dt):
    """Array predicate and scalar predicate (both values of it)."""
    shape = (64, 129) if dt == "f32" else (2, 3, 4)
    t, tb, ts = T(shape, dt), T(shape, "i1"), T((), "i1")
    rng = rng_for("select", dt)
    p = ints(rng, "i1", shape)
    x, y = (uniform(rng, dt, shape, -5, 5) if is_float(dt) else ints(rng, dt, shape)
            for _ in range(2))
    lines = [op("%r0", "mhlo.select", ["%a0", "%a2", "%a3"], [tb, t, t], t),
             f"%r1 = stablehlo.select %a1, %a2, %a3 : {ts}, {t}"]
    text = func([tb, ts, t, t], lines, [("%r0", t), ("%r1", t)])
    for scalar in (True, False):
        got0, got1 = run(text, p, np.array(scalar), x, y, tag=f"select_{dt}")
        check(got0, np.where(p, x, y), f"select array pred {dt}")
        check(got1, x if scalar else y, f"select scalar pred={scalar} {dt}")


@pytest.mark.parametrize("dt", FLOATS + INTS)
def test_clamp(dt):
    """Scalar bounds, array bounds, and mixed; floats with NaN and infinities; some
    lo > hi (then the result is hi: clamp is min(max(x, lo), hi))."""
    shape = (64, 129) if dt == "f32" else (3, 7)
    t, ts = T(shape, dt), T((), dt)
    rng = rng_for("clamp", dt)
    if is_float(dt):
        x = halves(rng, dt, shape, -6, 6)
        x.reshape(-1)[:4] = np.array([np.nan, np.inf, -np.inf, -0.0], NP[dt])
        lo, hi = uniform(rng, dt, shape, -4, 1), uniform(rng, dt, shape, -1, 4)
        slo, shi = np.array(-2.5, NP[dt]), np.array(3.0, NP[dt])
    else:
        x, lo, hi = ints(rng, dt, shape), ints(rng, dt, shape), ints(rng, dt, shape)
        slo, shi = (np.array(3, NP[dt]), np.array(100, NP[dt]))
    lines = [op("%r0", "mhlo.clamp", ["%a1", "%a0", "%a2"], [ts, t, ts], t),
             op("%r1", "mhlo.clamp", ["%a3", "%a0", "%a4"], [t, t, t], t),
             f"%r2 = stablehlo.clamp %a1, %a0, %a4 : ({ts}, {t}, {t}) -> {t}"]
    text = func([t, ts, ts, t, t], lines, [(f"%r{i}", t) for i in range(3)])
    outs = run(text, x, slo, shi, lo, hi, tag=f"clamp_{dt}")
    for what, low, high, got in zip(["scalar", "array", "mixed"], [slo, lo, slo], [shi, hi, hi], outs):
        check(got, np.minimum(np.maximum(x, low), high), f"clamp {what} bounds {dt}")


# ----------------------------------------------------------------------------- convert, bitcast

CONVERT_TYPES = ("f16", "bf16", "f32", "f64", "i1", "i8", "i32", "i64", "ui8", "ui32")


def convert_ref(x, src, dst):
    """XLA's convert: float -> int truncates and saturates (NaN -> 0); -> i1 is x != 0;
    -> bf16 from anything but f32/f16/bf16 goes through f32; ints wrap."""
    if dst == "i1":
        return np.asarray(x != 0) if src != "bf16" else np.asarray(x.astype(np.float32) != 0)
    if is_float(dst):
        if dst == "bf16" and src not in ("f32", "f16", "bf16"):
            return x.astype(np.float32).astype(BF16)
        return x.astype(np.float64).astype(NP[dst]) if src == "bf16" else x.astype(NP[dst])
    if is_float(src):
        info = np.iinfo(NP[dst])
        out = []
        for v in np.asarray(x, np.float64).reshape(-1):
            if math.isnan(v):
                out.append(0)
            elif math.isinf(v):
                out.append(int(info.max) if v > 0 else int(info.min))
            else:
                out.append(min(max(math.trunc(v), int(info.min)), int(info.max)))
        return np.array(out, dtype=object).astype(NP[dst]).reshape(x.shape)
    return wrap(to_py(x), dst, x.shape)


def _convert_input(src, rng):
    shape = (3, 67)
    if src == "i1":
        return ints(rng, "i1", shape)
    if not is_float(src):
        x = ints(rng, src, shape)
        # small values too (exactly representable everywhere)
        x.reshape(-1)[::3] = np.asarray(rng.integers(-20 if not is_unsigned(src) else 0, 20,
                                                     size=x.size)[::3]).astype(NP[src])
        return x
    vals = [np.nan, -np.nan, np.inf, -np.inf, 0.0, -0.0, 0.5, -0.5, 0.99, -0.99, 1.5, -2.5, 2.7,
            -2.7, 127.5, 128.0, -128.0, -129.0, 255.9, 256.0, 300.0, -300.0, 65504.0, 70000.0,
            2.0 ** 31, -2.0 ** 31, 2.0 ** 31 + 2 ** 20, -2.0 ** 32, 4.3e9, 2.0 ** 63, -2.0 ** 63,
            1e19, -1e19, 1e30, 3.4e38, 1e300, -1e300, 1e-30, 1e-8, 3.14159265358979,
            1.0 + 2.0 ** -20, 0.1]
    with np.errstate(all="ignore"):
        special = np.array(vals).astype(NP[src])
        rest = rng.uniform(-300, 300, size=math.prod(shape) - len(vals)).astype(NP[src])
    return np.concatenate([special, rest]).reshape(shape)


@pytest.mark.parametrize("src", CONVERT_TYPES)
def test_convert(src):
    """One module per source type converting to every type of CONVERT_TYPES (itself too)."""
    rng = rng_for("convert", src)
    x = _convert_input(src, rng)
    t = T(x.shape, src)
    lines, results = [], []
    for i, dst in enumerate(CONVERT_TYPES):
        td = T(x.shape, dst)
        if i % 3 == 2:
            lines.append(f"%r{i} = stablehlo.convert %a0 : ({t}) -> {td}")
        else:
            lines.append(op(f"%r{i}", "mhlo.convert", ["%a0"], [t], td))
        results.append((f"%r{i}", td))
    outs = run(func([t], lines, results), x, tag=f"convert_{src}")
    for dst, got in zip(CONVERT_TYPES, outs):
        with np.errstate(all="ignore"):
            want = convert_ref(x, src, dst)
        flat_x, g, w = x.reshape(-1), np.asarray(got).reshape(-1), want.reshape(-1)
        bad = ~((g == w) | ((g != g) & (w != w))) if is_float(dst) else g != w
        check(got, want, f"convert {src} -> {dst}: (x, got, want) = "
              f"{list(zip(flat_x[bad], g[bad], w[bad]))[:6]}", zero_signs=True)


BITCAST_PAIRS = [("f32", "i32"), ("i32", "f32"), ("f64", "i64"), ("i64", "f64"), ("f16", "i16"),
                 ("i16", "f16"), ("bf16", "i16"), ("ui32", "f32"), ("f32", "ui32")]


def test_bitcast_convert():
    """Bits preserved exactly, NaN payloads and signed zeros included."""
    rng = rng_for("bitcast")
    lines, results, ins, args, wants = [], [], [], [], []
    for i, (src, dst) in enumerate(BITCAST_PAIRS):
        w = bits(src)
        raw = rng.integers(0, 1 << w, size=(5, 7), dtype=np.uint64).astype(f"uint{w}")
        # +-0, +-inf, quiet/signalling NaNs with payloads, max/min ints
        edges = {16: [0, 0x8000, 0x7C00, 0xFC00, 0x7E01, 0x7D23, 0x7FFF, 0xFFFF],
                 32: [0, 0x80000000, 0x7F800000, 0xFF800000, 0x7FC00001, 0x7FA12345,
                      0x7FFFFFFF, 0xFFFFFFFF],
                 64: [0, 1 << 63, 0x7FF0 << 48, 0xFFF0 << 48, (0x7FF8 << 48) | 5,
                      (0x7FF4 << 48) | 77, (1 << 63) - 1, (1 << 64) - 1]}[w]
        raw.reshape(-1)[:len(edges)] = np.array(edges, dtype=np.uint64).astype(raw.dtype)
        x = raw.view(NP[src])
        ts, td = T(x.shape, src), T(x.shape, dst)
        if i % 2:
            lines.append(f"%r{i} = stablehlo.bitcast_convert %a{i} : ({ts}) -> {td}")
        else:
            lines.append(op(f"%r{i}", "mhlo.bitcast_convert", [f"%a{i}"], [ts], td))
        ins.append(ts)
        args.append(x)
        results.append((f"%r{i}", td))
        wants.append(raw)
    outs = run(func(ins, lines, results), *args, tag="bitcast")
    for (src, dst), raw, got in zip(BITCAST_PAIRS, wants, outs):
        assert np.asarray(got).dtype == NP[dst], f"bitcast {src} -> {dst}: dtype {got.dtype}"
        np.testing.assert_array_equal(np.asarray(got).view(raw.dtype), raw,
                                      err_msg=f"bitcast_convert {src} -> {dst}: bits differ")


def test_bitcast_convert_between_widths():
    """A wide element is its narrow pieces, lowest bits first (XLA's CPU layout), as numpy's
    view shows; the narrow side's last dim holds the pieces; dynamic dims too."""
    text = """
    func.func @main(%x: tensor<3x2xui32>, %y: tensor<3xf64>, %z: tensor<?x4xi8>) -> (tensor<3xui64>, tensor<3x2xf32>, tensor<?xf32>, tensor<3x4xi16>) {
      %a = stablehlo.bitcast_convert %x : (tensor<3x2xui32>) -> tensor<3xui64>
      %b = stablehlo.bitcast_convert %y : (tensor<3xf64>) -> tensor<3x2xf32>
      %c = stablehlo.bitcast_convert %z : (tensor<?x4xi8>) -> tensor<?xf32>
      %d = stablehlo.bitcast_convert %y : (tensor<3xf64>) -> tensor<3x4xi16>
      return %a, %b, %c, %d : tensor<3xui64>, tensor<3x2xf32>, tensor<?xf32>, tensor<3x4xi16>
    }"""  # noqa: E501
    lib = aot.compile(text, name="bitcast_widths")
    rng = rng_for("bitcast_widths")
    x = rng.integers(0, 2**32, (3, 2), dtype=np.uint32)
    y = rng.standard_normal(3)
    for n in (5, 0, 1):
        z = rng.integers(-128, 128, (n, 4), dtype=np.int8)
        a, b, c, d = lib.main(x, y, z)
        np.testing.assert_array_equal(a, x.view(np.uint64).reshape(3))
        np.testing.assert_array_equal(b, y.view(np.float32).reshape(3, 2))
        np.testing.assert_array_equal(np.asarray(c).view(np.uint32), z.view(np.uint32).reshape(n))
        np.testing.assert_array_equal(d, y.view(np.int16).reshape(3, 4))


@pytest.mark.parametrize("operand, result, message", [
    ("tensor<3x3xui32>", "tensor<3xui64>", "the operand's last dim must be 2"),
    ("tensor<ui32>", "tensor<ui64>", "the operand's last dim must be 2"),
    ("tensor<3xi1>", "tensor<3x8xi8>", "cannot bitcast between i1 and i8"),
])
def test_bitcast_convert_width_errors(operand, result, message):
    text = (f"func.func @main(%x: {operand}) -> {result} {{\n"
            f"  %r = stablehlo.bitcast_convert %x : ({operand}) -> {result}\n"
            f"  return %r : {result}\n}}\n")
    with pytest.raises(CompileError, match=message):
        aot.compile(text, name="bitcast_bad")


# ----------------------------------------------------------------------------- shape ops

LAYOUT_TYPES = ("f32", "bf16", "i1", "i64")  # data movement: 4, 2, 1 (bool) and 8 bytes


def values(dt, shape, rng):
    """Distinct-ish values of dt, so that a wrong index shows."""
    if dt == "i1":
        return ints(rng, "i1", shape)
    if is_float(dt):
        return uniform(rng, dt, shape, -100, 100)
    return ints(rng, dt, shape)


def shape_op_test(dt, cases, tag):
    """cases: [(what, in_shapes, out_shape, make_lines(ins, out) -> lines, numpy ref)]: one module
    computing every case from its own arguments; each result compared."""
    rng = rng_for(tag, dt)
    lines, results, ins, args, wants = [], [], [], [], []
    for i, (what, in_shapes, out_shape, make, ref) in enumerate(cases):
        names = [f"%a{len(ins) + j}" for j in range(len(in_shapes))]
        xs = [values(dt, s, rng) for s in in_shapes]
        ins += [T(s, dt) for s in in_shapes]
        args += xs
        body = make(names, f"%r{i}", [T(s, dt) for s in in_shapes], T(out_shape, dt))
        lines += body if isinstance(body, list) else [body]
        results.append((f"%r{i}", T(out_shape, dt)))
        wants.append((what, ref(*xs)))
    outs = run(func(ins, lines, results), *args, tag=f"{tag}_{dt}")
    for (what, want), got in zip(wants, outs):
        check(got, np.asarray(want), f"{tag} {what} {dt}")


def _bcast_ref(dims, out_shape):
    def ref(x):
        order = np.argsort(dims)
        x = np.transpose(x, order) if len(dims) > 1 else x
        shape = [1] * len(out_shape)
        for d, n in zip(sorted(dims), x.shape):
            shape[d] = n
        return np.broadcast_to(x.reshape(shape), out_shape)
    return ref


BROADCAST_CASES = [
    ((), (3, 5), []), ((), (7,), []), ((5,), (3, 5), [1]), ((3,), (3, 5), [0]),
    ((2,), (2, 3, 4), [0]), ((3,), (2, 3, 4), [1]), ((4,), (2, 3, 4), [2]),
    ((1, 5), (3, 5), [0, 1]), ((3, 1), (3, 5), [0, 1]), ((1, 3, 1), (2, 3, 4), [0, 1, 2]),
    ((3, 4), (2, 3, 4), [1, 2]), ((2, 4), (2, 3, 4), [0, 2]), ((1,), (7,), [0]),
    ((3, 5), (3, 5), [0, 1]), ((129,), (64, 129), [1]), ((64,), (64, 129), [0]),
    ((4, 3), (3, 2, 4), [2, 0]),  # dims not increasing: a transposing broadcast
]


@pytest.mark.parametrize("dt", LAYOUT_TYPES)
def test_broadcast_in_dim(dt):
    cases = []
    for i, (src, out, dims) in enumerate(BROADCAST_CASES):
        def make(a, r, ti, to, dims=dims, i=i):
            if i % 4 == 3:
                return f"{r} = stablehlo.broadcast_in_dim {a[0]}, dims = {dims} : ({ti[0]}) -> {to}"
            return op(r, "mhlo.broadcast_in_dim", a, ti, to, {"broadcast_dimensions": I64S(dims)})
        cases.append((f"{src}->{out} dims={dims}", [src], out, make, _bcast_ref(dims, out)))
    shape_op_test(dt, cases, "broadcast")


RESHAPE_CASES = [((3, 5), (15,)), ((15,), (3, 5)), ((2, 3, 4), (4, 6)), ((2, 3, 4), (24,)),
                 ((2, 3, 4), (6, 4)), ((2, 3, 4), (2, 12)), ((2, 3, 4), (4, 3, 2)), ((1,), ()),
                 ((), (1, 1)), ((), ()), ((3, 5), (5, 3)), ((2, 1, 3), (3, 2)), ((7,), (7, 1)),
                 ((1, 7), (7,)), ((2, 3, 4), (1, 2, 1, 12, 1)), ((64, 129), (129, 64)),
                 ((64, 129), (8256,))]


@pytest.mark.parametrize("dt", LAYOUT_TYPES)
def test_reshape(dt):
    cases = []
    for i, (src, out) in enumerate(RESHAPE_CASES):
        def make(a, r, ti, to, i=i):
            if i % 4 == 3:
                return f"{r} = stablehlo.reshape {a[0]} : ({ti[0]}) -> {to}"
            return op(r, "mhlo.reshape", a, ti, to)
        cases.append((f"{src}->{out}", [src], out, make, lambda x, out=out: x.reshape(out)))

    # a reshape of a transpose (fused: the reshape's linear index goes through the permutation)
    def make_tr(a, r, ti, to):
        tt = T((4, 2, 3), dt)
        return [op(f"{r}t", "mhlo.transpose", a, ti, tt, {"permutation": I64S([2, 0, 1])}),
                op(r, "mhlo.reshape", [f"{r}t"], [tt], to)]
    cases.append(("transpose+reshape", [(2, 3, 4)], (8, 3), make_tr,
                  lambda x: np.transpose(x, (2, 0, 1)).reshape(8, 3)))
    shape_op_test(dt, cases, "reshape")


@pytest.mark.parametrize("dt", LAYOUT_TYPES)
def test_transpose(dt):
    cases = []
    perms = [((3, 5), (1, 0)), ((64, 129), (1, 0)), ((7,), (0,))] + \
        [((2, 3, 4), p) for p in itertools.permutations(range(3))] + [((2, 3, 4, 5), (3, 1, 0, 2))]
    for i, (src, perm) in enumerate(perms):
        out = tuple(src[p] for p in perm)

        def make(a, r, ti, to, perm=perm, i=i):
            if i % 3 == 1:
                return f"{r} = stablehlo.transpose {a[0]}, dims = {list(perm)} : ({ti[0]}) -> {to}"
            return op(r, "mhlo.transpose", a, ti, to, {"permutation": I64S(perm)})
        cases.append((f"{src} perm={perm}", [src], out, make,
                      lambda x, perm=perm: np.transpose(x, perm)))
    shape_op_test(dt, cases, "transpose")


@pytest.mark.parametrize("dt", LAYOUT_TYPES)
def test_reverse(dt):
    cases = []
    for i, (src, dims) in enumerate([((7,), [0]), ((3, 5), [0]), ((3, 5), [1]), ((3, 5), [0, 1]),
                                     ((2, 3, 4), [1]), ((2, 3, 4), [0, 2]), ((2, 3, 4), []),
                                     ((64, 129), [1])]):
        def make(a, r, ti, to, dims=dims, i=i):
            if i % 3 == 1:
                return f"{r} = stablehlo.reverse {a[0]}, dims = {dims} : {ti[0]}"
            return op(r, "mhlo.reverse", a, ti, to, {"dimensions": I64S(dims)})
        cases.append((f"{src} dims={dims}", [src], src, make,
                      lambda x, dims=dims: np.flip(x, dims) if dims else x))
    shape_op_test(dt, cases, "reverse")


SLICE_CASES = [((3, 5), (1, 0), (3, 5), (1, 2)), ((2, 3, 4), (0, 1, 1), (2, 3, 4), (2, 1, 2)),
               ((7,), (1,), (7,), (3,)), ((7,), (0,), (7,), (1,)), ((7,), (6,), (7,), (5,)),
               ((64, 129), (3, 0), (60, 129), (5, 7)), ((2, 3, 4), (1, 2, 3), (2, 3, 4), (1, 1, 1)),
               ((3, 5), (0, 1), (3, 4), (2, 1))]


@pytest.mark.parametrize("dt", LAYOUT_TYPES)
def test_slice(dt):
    cases = []
    for i, (src, start, limit, strides) in enumerate(SLICE_CASES):
        out = tuple((e - s + st - 1) // st for s, e, st in zip(start, limit, strides))
        sl = tuple(slice(s, e, st) for s, e, st in zip(start, limit, strides))

        def make(a, r, ti, to, start=start, limit=limit, strides=strides, i=i):
            if i % 3 == 1:
                spec = ", ".join(f"{s}:{e}:{st}" for s, e, st in zip(start, limit, strides))
                return f"{r} = stablehlo.slice {a[0]} [{spec}] : ({ti[0]}) -> {to}"
            return op(r, "mhlo.slice", a, ti, to, {"start_indices": I64S(start),
                                                     "limit_indices": I64S(limit),
                                                     "strides": I64S(strides)})
        cases.append((f"{src}[{sl}]", [src], out, make, lambda x, sl=sl: x[sl]))
    shape_op_test(dt, cases, "slice")


CONCAT_CASES = [([(3, 5), (2, 5)], 0), ([(3, 5), (3, 2)], 1),
                ([(1, 3, 4), (2, 3, 4), (3, 3, 4)], 0),
                ([(2, 1, 4), (2, 3, 4), (2, 2, 4)], 1), ([(2, 3, 1), (2, 3, 4), (2, 3, 2)], 2),
                ([(7,), (1,)], 0), ([(64, 129), (64, 3)], 1), ([(2, 3), (2, 3), (2, 3)], 0)]


@pytest.mark.parametrize("dt", LAYOUT_TYPES)
def test_concatenate(dt):
    cases = []
    for i, (shapes, dim) in enumerate(CONCAT_CASES):
        out = list(shapes[0])
        out[dim] = sum(s[dim] for s in shapes)

        def make(a, r, ti, to, dim=dim, i=i):
            if i % 3 == 1:
                return (f"{r} = stablehlo.concatenate {', '.join(a)}, dim = {dim} : "
                        f"({', '.join(ti)}) -> {to}")
            return op(r, "mhlo.concatenate", a, ti, to, {"dimension": f"{dim} : i64"})
        cases.append((f"{shapes} dim={dim}", shapes, tuple(out), make,
                      lambda *xs, dim=dim: np.concatenate(xs, axis=dim)))
    shape_op_test(dt, cases, "concatenate")


def pad_ref(x, pv, lo, hi, inner):
    for d in range(x.ndim):
        n = x.shape[d]
        size = n + max(n - 1, 0) * inner[d]
        shape = list(x.shape)
        shape[d] = size
        y = np.full(shape, pv, dtype=x.dtype)
        idx = [slice(None)] * x.ndim
        idx[d] = slice(0, size, inner[d] + 1)
        y[tuple(idx)] = x
        # edges: positive pads, negative crops
        before = [(0, 0)] * x.ndim
        before[d] = (max(lo[d], 0), max(hi[d], 0))
        y = np.pad(y, before, constant_values=pv)
        idx = [slice(None)] * x.ndim
        idx[d] = slice(max(-lo[d], 0), y.shape[d] - max(-hi[d], 0))
        x = y[tuple(idx)]
    return x


PAD_CASES = [((3, 5), [1, 2], [0, 1], [0, 0]), ((3, 5), [0, 0], [0, 0], [1, 2]),
             ((3, 5), [-1, 0], [0, -2], [0, 0]), ((3, 5), [-2, 1], [-1, -3], [1, 1]),
             ((7,), [2], [3], [2]), ((2, 3, 4), [0, 1, -1], [1, 0, 2], [1, 0, 1]),
             ((64, 129), [1, -3], [2, 5], [0, 1]), ((1,), [2], [2], [3]), ((3,), [-2], [-1], [0])]


@pytest.mark.parametrize("dt", LAYOUT_TYPES)
def test_pad(dt):
    """Low/high/interior padding, negative low/high (cropping), with the pad value an argument."""
    cases = []
    for i, (src, lo, hi, inner) in enumerate(PAD_CASES):
        out = tuple(a + b + n + max(n - 1, 0) * k for n, a, b, k in zip(src, lo, hi, inner))

        def make(a, r, ti, to, lo=lo, hi=hi, inner=inner, i=i):
            if i % 3 == 1:
                return (f"{r} = stablehlo.pad {a[0]}, {a[1]}, low = {lo}, high = {hi}, "
                        f"interior = {inner} : ({ti[0]}, {ti[1]}) -> {to}")
            return op(r, "mhlo.pad", a, ti, to, {"edge_padding_low": I64S(lo),
                                                   "edge_padding_high": I64S(hi),
                                                   "interior_padding": I64S(inner)})
        cases.append((f"{src} lo={lo} hi={hi} interior={inner}", [src, ()], out, make,
                      lambda x, pv, lo=lo, hi=hi, inner=inner: pad_ref(x, pv, lo, hi, inner)))
    shape_op_test(dt, cases, "pad")


IOTA_CASES = [("i32", (2, 3, 4), 0), ("i32", (2, 3, 4), 1), ("i32", (2, 3, 4), 2),
              ("f32", (2, 3, 4), 0), ("f32", (2, 3, 4), 1), ("f32", (2, 3, 4), 2),
              ("i64", (7,), 0), ("ui8", (7,), 0), ("bf16", (3, 5), 1), ("f16", (3, 5), 0),
              ("f64", (7,), 0), ("f32", (64, 129), 1), ("i32", (64, 129), 0), ("i8", (3, 5), 1)]


def test_iota():
    lines, results, wants = [], [], []
    for i, (dt, shape, dim) in enumerate(IOTA_CASES):
        t = T(shape, dt)
        if i % 3 == 1:
            lines.append(f"%r{i} = stablehlo.iota dim = {dim} : {t}")
        else:
            lines.append(op(f"%r{i}", "mhlo.iota", [], [], t, {"iota_dimension": f"{dim} : i64"}))
        results.append((f"%r{i}", t))
        shp = [1] * len(shape)
        shp[dim] = shape[dim]
        wants.append(np.broadcast_to(np.arange(shape[dim]).reshape(shp), shape).astype(NP[dt]))
    outs = run(func([], lines, results), tag="iota")
    for (dt, shape, dim), want, got in zip(IOTA_CASES, wants, outs):
        check(got, want, f"iota {dt}{list(shape)} dim={dim}")


# ----------------------------------------------------------------------------- reduce


def const_line(res, value, dt):
    """A scalar constant; infinities and NaN as hex bit patterns, as MLIR prints them."""
    t = T((), dt)
    if is_float(dt) and not math.isfinite(value):
        w = bits(dt)
        raw = np.array(value, np.float64).astype(NP[dt]).view(f"uint{w}")
        lit = f"0x{int(raw):0{w // 4}X}"
    elif is_float(dt):
        lit = repr(float(value))
    elif dt == "i1":
        lit = "true" if value else "false"
    else:
        lit = str(int(value))
    return op(res, "mhlo.constant", [], [], t, {"value": f"dense<{lit}> : {t}"})


def reducer(body_op, dt, generic=True):
    ts = T((), dt)
    return ("{\n    ^bb0(%x: " + ts + ", %y: " + ts + "):\n      "
            + op("%s", f"mhlo.{body_op}", ["%x", "%y"], [ts, ts], ts)
            + f'\n      "mhlo.return"(%s) : ({ts}) -> ()\n    }}')


REDUCE_KINDS = {  # name -> (body op, init, numpy reduction)
    "sum": ("add", 0, np.sum), "prod": ("multiply", 1, np.prod),
    "max": ("maximum", -math.inf, np.max), "min": ("minimum", math.inf, np.min),
    "and": ("and", True, np.all), "or": ("or", False, np.any),
}


def reduce_line(res, arg, shape, dims, dt, kind, init_res, pretty=False):
    body, _, _ = REDUCE_KINDS[kind]
    out = T(tuple(n for d, n in enumerate(shape) if d not in dims), dt)
    ins = [T(shape, dt), T((), dt)]
    if pretty:
        return (f"{res} = stablehlo.reduce({arg} init: {init_res}) applies stablehlo.{body} "
                f"across dimensions = {list(dims)} : ({ins[0]}, {ins[1]}) -> {out}"), out
    return op(res, "mhlo.reduce", [arg, init_res], ins, out, {"dimensions": I64S(dims)},
              region=reducer(body, dt)), out


def _reduce_input(kind, dt, shape, rng):
    if dt == "i1":
        # mostly true for `and`, mostly false for `or`, so both outcomes occur
        p = 0.85 if kind == "and" else 0.15
        return np.asarray(rng.random(size=shape) < p)
    if kind == "prod":  # powers of two: every product exact
        return np.asarray(rng.choice([-2.0, -1.0, -0.5, 0.5, 1.0, 2.0], size=shape)).astype(NP[dt])
    if is_float(dt):
        return dyadic(rng, dt, shape, -4, 4)
    return ints(rng, dt, shape)


REDUCE_SHAPE = (3, 5, 7)
# Every subset of dims, the empty one too (a reduce that reduces nothing: body(init, x)).
SUBSETS = [s for k in range(0, 4) for s in itertools.combinations(range(3), k)]


@pytest.mark.parametrize("dims", SUBSETS, ids=str)
def test_reduce_subsets(dims):
    """Every non-empty subset of the dims of a 3-D input with sum/prod/max/min on
    f32, sum on i32, and/or on i1; one dims list given out of order."""
    shape = REDUCE_SHAPE
    if dims == (0, 2):
        dims = (2, 0)
    rng = rng_for("reduce", dims)
    jobs = [("sum", "f32"), ("prod", "f32"), ("max", "f32"), ("min", "f32"), ("sum", "i32"),
            ("max", "i32"), ("and", "i1"), ("or", "i1")]
    lines, results, ins, args, wants = [], [], [], [], []
    for i, (kind, dt) in enumerate(jobs):
        x = _reduce_input(kind, dt, shape, rng)
        init = REDUCE_KINDS[kind][1]
        if dt == "i32" and kind == "max":
            init = int(np.iinfo(np.int32).min)
        lines.append(const_line(f"%c{i}", init, dt))
        line, out = reduce_line(f"%r{i}", f"%a{i}", shape, dims, dt, kind, f"%c{i}",
                                pretty=i % 3 == 1)
        lines.append(line)
        ins.append(T(shape, dt))
        args.append(x)
        results.append((f"%r{i}", out))
        with np.errstate(all="ignore"):
            want = REDUCE_KINDS[kind][2](x, axis=tuple(dims)) if dims else x
        wants.append((f"{kind} {dt}", np.asarray(want).astype(NP[dt])))
    outs = run(func(ins, lines, results), *args, tag="reduce")
    for (what, want), got in zip(wants, outs):
        check(got, want, f"reduce {what} over dims {dims} of {shape}")


REDUCE_DTYPE_CASES = [(dt, kind) for dt in ("f64", "f16", "bf16", "i8", "i64", "ui8", "ui32")
                      for kind in ("sum", "max", "min")]


def test_reduce_dtypes():
    """sum/max/min for the other element types (over dims [0, 2] of a 3-D input and dim 1 of
    a 2-D one); f16/bf16 sums accumulate in their own type, exact here (small integers);
    a large f32 input across both dims; max/min propagate NaN."""
    rng = rng_for("reduce_dtypes")
    lines, results, ins, args, wants = [], [], [], [], []

    def add(kind, dt, x, dims, init=None):
        i = len(ins)
        if init is None:
            init = REDUCE_KINDS[kind][1]
            if not is_float(dt) and kind in ("max", "min"):
                info = np.iinfo(NP[dt])
                init = int(info.min if kind == "max" else info.max)
        lines.append(const_line(f"%c{i}", init, dt))
        line, out = reduce_line(f"%r{i}", f"%a{i}", x.shape, dims, dt, kind, f"%c{i}",
                                pretty=i % 2 == 1)
        lines.append(line)
        ins.append(T(x.shape, dt))
        args.append(x)
        results.append((f"%r{i}", out))
        want = REDUCE_KINDS[kind][2](x.astype(np.float64) if is_float(dt) else x, axis=dims)
        wants.append((f"{kind} {dt} {x.shape} dims={dims}", np.asarray(want).astype(NP[dt])))

    for dt, kind in REDUCE_DTYPE_CASES:
        if is_float(dt):
            x = np.asarray(rng.integers(-4, 5, size=REDUCE_SHAPE)).astype(NP[dt])
        else:
            x = ints(rng, dt, REDUCE_SHAPE, *((-3, 3) if not is_unsigned(dt) else (0, 5))) \
                if kind == "sum" and dt in ("i8", "ui8") else ints(rng, dt, REDUCE_SHAPE)
        add(kind, dt, x, (0, 2))
        add(kind, dt, np.ascontiguousarray(x[0]), (1,))
    big = dyadic(rng, "f32", (64, 129))
    add("sum", "f32", big, (0,))
    add("sum", "f32", big, (1,))
    add("max", "f32", big, (0, 1))
    nan = uniform(rng, "f32", (4, 9), -5, 5)
    nan[1, 3] = nan[2, 0] = np.nan
    add("max", "f32", nan, (1,))
    add("min", "f32", nan, (0,))
    outs = run(func(ins, lines, results), *args, tag="reduce_dtypes")
    for (what, want), got in zip(wants, outs):
        check(got, want, f"reduce {what}")


def _argmax_module(shape, dim, pretty):
    t, ti = T(shape, "f32"), T(shape, "i32")
    out = tuple(n for d, n in enumerate(shape) if d != dim)
    to, toi = T(out, "f32"), T(out, "i32")
    s, si, b = T((), "f32"), T((), "i32"), T((), "i1")
    lines = [op("%iota", "mhlo.iota", [], [], ti, {"iota_dimension": f"{dim} : i64"}),
             const_line("%cv", -math.inf, "f32"), const_line("%ci", 0, "i32")]
    cmp = lambda r, d, x, y, ty, k: op(r, "mhlo.compare", [x, y], [ty, ty], b, {  # noqa: E731
        "comparison_direction": f"#mhlo<comparison_direction {d}>",
        "compare_type": f"#mhlo<comparison_type {k}>"})
    body = [cmp("%gt", "GT", "%x", "%y", s, "FLOAT"), cmp("%nan", "NE", "%x", "%x", s, "FLOAT"),
            op("%take", "mhlo.or", ["%gt", "%nan"], [b, b], b),
            cmp("%eq", "EQ", "%x", "%y", s, "FLOAT"), cmp("%lt", "LT", "%xi", "%yi", si, "SIGNED"),
            op("%tie", "mhlo.and", ["%eq", "%lt"], [b, b], b),
            op("%takei", "mhlo.or", ["%take", "%tie"], [b, b], b),
            op("%v", "mhlo.select", ["%take", "%x", "%y"], [b, s, s], s),
            op("%vi", "mhlo.select", ["%takei", "%xi", "%yi"], [b, si, si], si)]
    if pretty:
        region_body = "".join(f"      {line}\n" for line in body)
        lines.append(f"%r:2 = stablehlo.reduce(%a0 init: %cv), (%iota init: %ci) across "
                     f"dimensions = [{dim}] : ({t}, {ti}, {s}, {si}) -> ({to}, {toi})\n"
                     f"     reducer(%x: {s}, %y: {s}) (%xi: {si}, %yi: {si}) {{\n{region_body}"
                     f"      stablehlo.return %v, %vi : {s}, {si}\n    }}")
    else:
        region = ("{\n    ^bb0(%x: " + s + ", %xi: " + si + ", %y: " + s + ", %yi: " + si + "):\n"
                  + "".join(f"      {line}\n" for line in body)
                  + f'      "mhlo.return"(%v, %vi) : ({s}, {si}) -> ()\n    }}')
        lines.append(op("%r:2", "mhlo.reduce", ["%a0", "%iota", "%cv", "%ci"], [t, ti, s, si],
                        f"({to}, {toi})", {"dimensions": I64S([dim])}, region=region))
    return func([t], lines, [("%r#0", to), ("%r#1", toi)])


@pytest.mark.parametrize("shape,dim,pretty", [((3, 67), 1, False), ((3, 67), 0, True),
                                              ((2, 3, 4), 1, False)], ids=str)
def test_reduce_argmax(shape, dim, pretty):
    """A 2-operand (value, index) reduce as JAX emits argmax: ties pick the lower index,
    NaN wins."""
    rng = rng_for("argmax", shape, dim)
    x = np.asarray(rng.integers(-3, 4, size=shape)).astype(np.float32)  # many ties
    x.reshape(-1)[5] = np.nan
    mx, idx = run(_argmax_module(shape, dim, pretty), x, tag="argmax")
    want_idx = np.argmax(x, axis=dim).astype(np.int32)
    check(idx, want_idx, f"argmax index {shape} dim={dim}")
    check(mx, np.max(x, axis=dim), f"argmax value {shape} dim={dim}")


# ----------------------------------------------------------------------------- dot


DOT_CASES = [  # (what, lhs shape, rhs shape, lhs batch, rhs batch, lhs contract, rhs contract)
    ("matmul", (3, 5), (5, 4), [], [], [1], [0]),
    ("batched", (2, 3, 5), (2, 5, 4), [0], [0], [2], [1]),
    ("contract lhs dim 0, rhs dim 1", (5, 3), (4, 5), [], [], [0], [1]),
    ("batch dims not leading", (3, 2, 5), (5, 2, 4), [1], [1], [2], [0]),
    ("two contracting dims", (2, 3, 4), (3, 4, 5), [], [], [1, 2], [0, 1]),
    ("contracting pairs out of order", (2, 3, 4), (4, 3, 5), [], [], [2, 1], [0, 1]),
    ("two batch dims", (2, 3, 4, 5), (3, 2, 5, 2), [0, 1], [1, 0], [3], [2]),
    ("vector . vector", (5,), (5,), [], [], [0], [0]),
    ("matrix . vector", (3, 5), (5,), [], [], [1], [0]),
    ("vector . matrix", (5,), (5, 4), [], [], [0], [0]),
    ("outer product", (3,), (4,), [], [], [], []),
    ("batched vector", (2, 5), (2, 5), [0], [0], [1], [1]),
    ("large", (64, 129), (129, 33), [], [], [1], [0]),
]


def dot_ref(x, y, lb, rb, lc, rc):
    letters = iter("abcdefghijklmnop")
    ls = [None] * x.ndim
    rs = [None] * y.ndim
    batch = []
    for d, r in zip(lb, rb):
        ls[d] = rs[r] = next(letters)
        batch.append(ls[d])
    for d, r in zip(lc, rc):
        ls[d] = rs[r] = next(letters)
    lfree = [ls.__setitem__(i, next(letters)) or ls[i] for i in range(x.ndim) if ls[i] is None]
    rfree = [rs.__setitem__(i, next(letters)) or rs[i] for i in range(y.ndim) if rs[i] is None]
    spec = f"{''.join(ls)},{''.join(rs)}->{''.join(batch + lfree + rfree)}"
    return np.einsum(spec, x, y)


def _dot_out_shape(ls, rs, lb, rb, lc, rc):
    return tuple([ls[d] for d in lb] + [n for d, n in enumerate(ls) if d not in lb + lc]
                 + [n for d, n in enumerate(rs) if d not in rb + rc])


@pytest.mark.parametrize("in_dt,out_dt", [("f32", "f32"), ("f64", "f64"), ("f16", "f16"),
                                          ("bf16", "bf16"), ("i32", "i32"), ("bf16", "f32"),
                                          ("i8", "i32")], ids=str)
def test_dot_general(in_dt, out_dt):
    """Dot dimension numbers of every kind; f16/bf16 accumulate in f32 and round once; a
    wider result type (bf16 x bf16 -> f32, i8 x i8 -> i32); i32 wraps."""
    rng = rng_for("dot", in_dt, out_dt)
    lines, results, ins, args, wants = [], [], [], [], []
    for i, (what, ls, rs, lb, rb, lc, rc) in enumerate(DOT_CASES):
        if in_dt != "f32" and what == "large":
            ls, rs = (8, 129), (129, 9)
        out = _dot_out_shape(ls, rs, lb, rb, lc, rc)
        if is_float(in_dt):
            x, y = dyadic(rng, in_dt, ls), dyadic(rng, in_dt, rs)
        else:  # the whole range: i32 products and sums wrap
            x, y = ints(rng, in_dt, ls), ints(rng, in_dt, rs)
        tl, tr, to = T(ls, in_dt), T(rs, in_dt), T(out, out_dt)
        a, b = f"%a{2 * i}", f"%a{2 * i + 1}"
        if i % 3 == 1:
            dims = (f", batching_dims = {lb} x {rb}" if lb else "") + \
                (f", contracting_dims = {lc} x {rc}" if lc else "")
            lines.append(f"%r{i} = stablehlo.dot_general {a}, {b}{dims} : ({tl}, {tr}) -> {to}")
        else:
            dn = (f"#mhlo.dot<lhs_batching_dimensions = {lb}, rhs_batching_dimensions = {rb}, "
                  f"lhs_contracting_dimensions = {lc}, rhs_contracting_dimensions = {rc}>")
            lines.append(op(f"%r{i}", "mhlo.dot_general", [a, b], [tl, tr], to,
                            {"dot_dimension_numbers": dn}))
        ins += [tl, tr]
        args += [x, y]
        results.append((f"%r{i}", to))
        if is_float(in_dt):
            want = dot_ref(x.astype(np.float64), y.astype(np.float64), lb, rb, lc, rc)
            want = want.astype(np.float32).astype(NP[out_dt])  # exact in f32: one rounding
        else:
            want = dot_ref(x.astype(np.int64), y.astype(np.int64), lb, rb, lc, rc)
            want = want.astype(NP[out_dt])  # wraps like the compiled i32 accumulation
        wants.append((what, np.asarray(want)))
    outs = run(func(ins, lines, results), *args, tag=f"dot_general_{in_dt}_{out_dt}")
    for (what, want), got in zip(wants, outs):
        check(got, want, f"dot_general {what} {in_dt}->{out_dt}")


@pytest.mark.parametrize("dt", ["f32", "i32", "bf16"])
def test_dot(dt):
    """mhlo.dot: matrix-matrix, matrix-vector, vector-matrix, vector-vector."""
    rng = rng_for("dot_plain", dt)
    cases = [((3, 5), (5, 4)), ((3, 5), (5,)), ((5,), (5, 4)), ((5,), (5,)), ((64, 129), (129, 7))]
    lines, results, ins, args, wants = [], [], [], [], []
    for i, (ls, rs) in enumerate(cases):
        x, y = (dyadic(rng, dt, s) if is_float(dt) else ints(rng, dt, s, -100, 100)
                for s in (ls, rs))
        out = ls[:-1] + rs[1:]
        tl, tr, to = T(ls, dt), T(rs, dt), T(out, dt)
        if i % 3 == 1:
            lines.append(f"%r{i} = stablehlo.dot %a{2 * i}, %a{2 * i + 1} : ({tl}, {tr}) -> {to}")
        else:
            lines.append(op(f"%r{i}", "mhlo.dot", [f"%a{2 * i}", f"%a{2 * i + 1}"], [tl, tr], to))
        ins += [tl, tr]
        args += [x, y]
        results.append((f"%r{i}", to))
        wide_t = np.float64 if is_float(dt) else np.int64
        wants.append((f"{ls} . {rs}", np.asarray(np.dot(x.astype(wide_t), y.astype(wide_t))
                                                 ).astype(np.float32 if is_float(dt) else wide_t)
                      .astype(NP[dt])))
    outs = run(func(ins, lines, results), *args, tag=f"dot_{dt}")
    for (what, want), got in zip(wants, outs):
        check(got, want, f"dot {what} {dt}")


# ----------------------------------------------------------------------------- spellings, constants


def pretty_elementwise(dt, shape, unary, binary):
    t = T(shape, dt)
    lines, results, ins = [], [], []
    for n in unary:
        i = len(ins)
        out = T(shape, "i1") if n == "is_finite" else t
        sig = f"({t}) -> {out}" if n == "is_finite" else t
        lines.append(f"%r{i} = stablehlo.{n} %a{i} : {sig}")
        ins.append(t)
        results.append((f"%r{i}", out))
    for n in binary:
        i = len(ins)
        lines.append(f"%r{i} = stablehlo.{n} %a{i}, %a{i + 1} : {t}")
        ins += [t, t]
        results.append((f"%r{i}", t))
    fn = func(ins, lines, results).replace("func.func @main", "func.func public @main")
    return "module @pretty {\n" + fn + "}\n"


@pytest.mark.parametrize("dt", ["f32", "bf16", "i32", "ui8"])
def test_pretty_stablehlo_elementwise(dt):
    """Every unary and binary op in the pretty StableHLO form, inside a module."""
    shape = (3, 5)
    rng = rng_for("pretty", dt)
    if is_float(dt):
        unary, binary = list(UNARY_FLOAT), list(BINARY_FLOAT)
        xs = [UNARY_FLOAT[n][1](rng, dt, shape) for n in unary]
        pairs = [BINARY_FLOAT[n][1](rng, dt, shape) for n in binary]
        wants = [fref(UNARY_FLOAT[n][0], dt, x) for n, x in zip(unary, xs)] + \
            [fref(BINARY_FLOAT[n][0], dt, a, b) for n, (a, b) in zip(binary, pairs)]
    else:
        unary, binary = list(UNARY_INT), list(BINARY_INT)
        xs = [ints(rng, dt, shape) for _ in unary]
        pairs = [(ints(rng, dt, shape), _shift_amounts(rng, dt, shape) if n.startswith("shift")
                  else _divisors(rng, dt, shape)) for n in binary]
        w, sg = bits(dt), not is_unsigned(dt)
        wants = [iref(UNARY_INT[n](w, sg), dt, x) for n, x in zip(unary, xs)] + \
            [iref(BINARY_INT[n](w), dt, a, b) for n, (a, b) in zip(binary, pairs)]
    outs = run(pretty_elementwise(dt, shape, unary, binary), *xs, *itertools.chain(*pairs),
               tag=f"pretty_{dt}")
    for n, want, got in zip(unary + binary, wants, outs):
        check(got, want, f"stablehlo.{n} {dt}")


def test_xla_hlo_spellings():
    """The RFC's old `xla_hlo.` names (const, sub, mul, max, div, min, exp, neg, rem, pow),
    a string comparison_direction, old-style dense attributes; one generic `"stablehlo.add"`."""
    s, t, tb = T((), "f32"), T((3, 5), "f32"), T((3, 5), "i1")
    lines = [
        op("%c", "xla_hlo.const", [], [], s, {"value": f"dense<1.5> : {s}"}),
        op("%cb", "xla_hlo.broadcast_in_dim", ["%c"], [s], t, {"broadcast_dimensions": I64S([])}),
        op("%0", "xla_hlo.sub", ["%a0", "%a1"], [t, t], t),
        op("%1", "xla_hlo.mul", ["%0", "%cb"], [t, t], t),
        op("%2", "xla_hlo.max", ["%1", "%a1"], [t, t], t),
        op("%3", "xla_hlo.min", ["%2", "%a0"], [t, t], t),
        op("%4", "xla_hlo.div", ["%a0", "%cb"], [t, t], t),
        op("%5", "xla_hlo.exp", ["%4"], [t], t),
        op("%6", "xla_hlo.neg", ["%5"], [t], t),
        op("%7", "xla_hlo.rem", ["%a0", "%cb"], [t, t], t),
        op("%8", "xla_hlo.pow", ["%cb", "%4"], [t, t], t),
        op("%9", "xla_hlo.compare", ["%a0", "%a1"], [t, t], tb, {"comparison_direction": '"LT"'}),
        op("%10", "xla_hlo.add", ["%a0", "%a1"], [t, t], t),
        op("%11", "xla_hlo.select", ["%9", "%a0", "%10"], [tb, t, t], t),
    ]
    # generic form with stablehlo. names
    lines = [line.replace('"xla_hlo.add"', '"stablehlo.add"') for line in lines]
    res = ["%1", "%2", "%3", "%6", "%7", "%8", "%9", "%11"]
    text = func([t, t], lines, [(r, tb if r == "%9" else t) for r in res])
    rng = rng_for("xla_hlo")
    a, b = uniform(rng, "f32", (3, 5), -3, 3), uniform(rng, "f32", (3, 5), -3, 3)
    outs = run(text, a, b, tag="xla_hlo")
    f = lambda fn, *xs: fref(fn, "f32", *xs)  # noqa: E731
    d1 = f(lambda x, y: (x - y) * 1.5, a, b)
    d2 = np.maximum(d1, b)
    d4 = f(lambda x: x / 1.5, a)
    wants = [d1, d2, np.minimum(d2, a), f(lambda x: -np.exp(x), d4),
             f(lambda x: np.fmod(x, 1.5), a),
             f(lambda x: 1.5 ** x, d4), a < b, np.where(a < b, a, f(np.add, a, b))]
    for r, want, got in zip(res, wants, outs):
        check(got, want, f"xla_hlo result {r}")


CONSTANT_CASES = [
    ("f32", "dense<[[1.0, -2.5, 3.25], [0.0, -0.0, 1.0e+10]]>", (2, 3),
     [[1.0, -2.5, 3.25], [0.0, -0.0, 1e10]]),
    ("f32", "dense<0x7FC00000>", (2,), [np.nan, np.nan]),
    ("f64", "dense<[0.1, 1.0e+300, -3.0]>", (3,), [0.1, 1e300, -3.0]),
    ("f16", "dense<[65504.0, 0.5, 0xFC00]>", (3,), [65504.0, 0.5, -np.inf]),
    ("bf16", "dense<[1.0, 0x7F80, -3.5]>", (3,), [1.0, np.inf, -3.5]),
    ("i1", "dense<[true, false, true]>", (3,), [True, False, True]),
    ("i8", "dense<[-128, 127, 0]>", (3,), [-128, 127, 0]),
    ("ui8", "dense<255>", (2, 2), [[255, 255], [255, 255]]),
    ("i64", "dense<[-9223372036854775808, 9223372036854775807]>", (2,),
     [-(1 << 63), (1 << 63) - 1]),
    ("ui32", "dense<[4294967295, 1]>", (2,), [4294967295, 1]),
    ("i32", "dense<7>", (), 7),
]


def test_constants():
    """Splat and non-splat constants of every type (hex for special floats), returned and
    also used in an add with an argument (so they are read inside a fused kernel)."""
    lines, results, ins, args, wants = [], [], [], [], []
    for i, (dt, lit, shape, value) in enumerate(CONSTANT_CASES):
        t = T(shape, dt)
        if i % 3 == 1:
            lines.append(f"%c{i} = stablehlo.constant {lit} : {t}")
        else:
            lines.append(op(f"%c{i}", "mhlo.constant", [], [], t, {"value": f"{lit} : {t}"}))
        want = np.array(value, dtype=np.float64 if is_float(dt) else object).astype(NP[dt])
        results.append((f"%c{i}", t))
        wants.append((f"constant {dt} {lit}", want))
        if dt != "i1":
            lines.append(op(f"%s{i}", "mhlo.add", [f"%c{i}", f"%a{len(ins)}"], [t, t], t))
            x = np.ones(shape, NP[dt])
            results.append((f"%s{i}", t))
            with np.errstate(all="ignore"):
                wants.append((f"constant {dt} {lit} + 1",
                              fref(np.add, dt, want, x) if is_float(dt) else
                              iref(lambda p, q: p + q, dt, want, x)))
            ins.append(t)
            args.append(x)
    outs = run(func(ins, lines, results), *args, tag="constants")
    for (what, want), got in zip(wants, outs):
        check(got, want, what, zero_signs=True)


# ----------------------------------------------------------------------------- fused chains


def test_fused_softmax():
    """reduce max -> broadcast -> subtract -> exp -> reduce sum -> broadcast -> divide, with
    reduces consuming and feeding fused elementwise code."""
    t, tr = T((3, 67), "f32"), T((3,), "f32")
    lines = [const_line("%ninf", -math.inf, "f32"), const_line("%zero", 0.0, "f32")]
    line, _ = reduce_line("%m", "%a0", (3, 67), (1,), "f32", "max", "%ninf")
    lines.append(line)
    bdims = {"broadcast_dimensions": I64S([0])}
    lines += [op("%mb", "mhlo.broadcast_in_dim", ["%m"], [tr], t, bdims),
              op("%d", "mhlo.subtract", ["%a0", "%mb"], [t, t], t),
              op("%e", "mhlo.exponential", ["%d"], [t], t)]
    line, _ = reduce_line("%z", "%e", (3, 67), (1,), "f32", "sum", "%zero", pretty=True)
    lines.append(line)
    lines += [op("%zb", "mhlo.broadcast_in_dim", ["%z"], [tr], t, bdims),
              op("%r", "mhlo.divide", ["%e", "%zb"], [t, t], t)]
    x = uniform(rng_for("softmax"), "f32", (3, 67), -5, 5)
    (got,) = run(func([t], lines, [("%r", t)]), x, tag="softmax")
    e = np.exp(x.astype(np.float64) - x.max(axis=1, keepdims=True))
    check(got, (e / e.sum(axis=1, keepdims=True)).astype(np.float32), "softmax")


def test_fused_layout_chain():
    """transpose -> reshape -> slice -> pad -> reverse -> concatenate (with a broadcast) ->
    add of itself transposed, all in one fusion; plus the argument returned as is and one
    value returned twice."""
    dt = "f32"
    x = values(dt, (2, 3, 4), rng_for("layout_chain"))
    y = values(dt, (5,), rng_for("layout_chain_y"))
    pv = np.array(-1.0, np.float32)
    lines = [
        op("%t", "mhlo.transpose", ["%a0"], [T((2, 3, 4), dt)], T((4, 2, 3), dt),
           {"permutation": I64S([2, 0, 1])}),
        op("%rs", "mhlo.reshape", ["%t"], [T((4, 2, 3), dt)], T((8, 3), dt)),
        op("%sl", "mhlo.slice", ["%rs"], [T((8, 3), dt)], T((4, 2), dt),
           {"start_indices": I64S([1, 0]), "limit_indices": I64S([8, 3]), "strides": I64S([2, 2])}),
        op("%p", "mhlo.pad", ["%sl", "%a2"], [T((4, 2), dt), T((), dt)], T((5, 4), dt),
           {"edge_padding_low": I64S([1, 0]), "edge_padding_high": I64S([0, 1]),
            "interior_padding": I64S([0, 1])}),
        op("%rv", "mhlo.reverse", ["%p"], [T((5, 4), dt)], T((5, 4), dt),
           {"dimensions": I64S([0])}),
        op("%yb", "mhlo.broadcast_in_dim", ["%a1"], [T((5,), dt)], T((5, 1), dt),
           {"broadcast_dimensions": I64S([0])}),
        op("%c", "mhlo.concatenate", ["%rv", "%yb"], [T((5, 4), dt), T((5, 1), dt)], T((5, 5), dt),
           {"dimension": "1 : i64"}),
        op("%ct", "mhlo.transpose", ["%c"], [T((5, 5), dt)], T((5, 5), dt),
           {"permutation": I64S([1, 0])}),
        op("%r", "mhlo.add", ["%c", "%ct"], [T((5, 5), dt)] * 2, T((5, 5), dt)),
    ]
    text = func([T((2, 3, 4), dt), T((5,), dt), T((), dt)], lines,
                [("%r", T((5, 5), dt)), ("%a0", T((2, 3, 4), dt)), ("%c", T((5, 5), dt)),
                 ("%c", T((5, 5), dt))])
    r, same, c1, c2 = run(text, x, y, pv, tag="layout_chain")
    sl = np.transpose(x, (2, 0, 1)).reshape(8, 3)[1:8:2, 0:3:2]
    c = np.concatenate([np.flip(pad_ref(sl, pv, [1, 0], [0, 1], [0, 1]), 0), y.reshape(5, 1)], 1)
    check(r, c + c.T, "layout chain")
    check(same, x, "argument returned as is")
    check(c1, c, "value returned twice (1)")
    check(c2, c, "value returned twice (2)")


def test_fused_reduce_and_dot_inputs():
    """A reduce of a fused expression (a * b + broadcast(c)), and a dot whose operands are
    fused expressions (transpose(x), y + 1)."""
    rng = rng_for("fused_inputs")
    a, b = dyadic(rng, "f32", (4, 33)), dyadic(rng, "f32", (4, 33))
    c = dyadic(rng, "f32", (33,))
    x, y = dyadic(rng, "f32", (5, 3)), dyadic(rng, "f32", (5, 4))
    t = T((4, 33), "f32")
    lines = [op("%ab", "mhlo.multiply", ["%a0", "%a1"], [t, t], t),
             op("%cb", "mhlo.broadcast_in_dim", ["%a2"], [T((33,), "f32")], t,
                {"broadcast_dimensions": I64S([1])}),
             op("%s", "mhlo.add", ["%ab", "%cb"], [t, t], t),
             const_line("%zero", 0.0, "f32")]
    line, _ = reduce_line("%r", "%s", (4, 33), (1,), "f32", "sum", "%zero")
    lines.append(line)
    lines += [op("%xt", "mhlo.transpose", ["%a3"], [T((5, 3), "f32")], T((3, 5), "f32"),
                 {"permutation": I64S([1, 0])}),
              const_line("%one", 1.0, "f32"),
              op("%ones", "mhlo.broadcast_in_dim", ["%one"], [T((), "f32")], T((5, 4), "f32"),
                 {"broadcast_dimensions": I64S([])}),
              op("%y1", "mhlo.add", ["%a4", "%ones"], [T((5, 4), "f32")] * 2, T((5, 4), "f32")),
              op("%d", "mhlo.dot", ["%xt", "%y1"], [T((3, 5), "f32"), T((5, 4), "f32")],
                 T((3, 4), "f32"))]
    text = func([t, t, T((33,), "f32"), T((5, 3), "f32"), T((5, 4), "f32")], lines,
                [("%r", T((4,), "f32")), ("%d", T((3, 4), "f32"))])
    r, d = run(text, a, b, c, x, y, tag="fused_inputs")
    check(r, (a.astype(np.float64) * b + c).sum(axis=1).astype(np.float32), "reduce of a*b+c")
    check(d, (x.T.astype(np.float64) @ (y + 1.0)).astype(np.float32), "dot(transpose(x), y+1)")


@pytest.mark.parametrize("dt", ["i8", "i32", "i64", "ui8", "ui32"])
def test_integer_power(dt):
    """XLA: square-and-multiply, wrapping; a negative exponent gives 0 except for bases 1, -1."""
    npdt = numpy_dtype(dt)
    signed = not dt.startswith("ui")
    bases = [0, 1, 2, 3, 7, 255] + ([-1, -2, -3, -128] if signed else [])
    exps = [0, 1, 2, 3, 5, 7, 31, 64] + ([-1, -2, -3] if signed else [])
    base, exp = (np.array(v) for v in zip(*[(b, e) for b in bases for e in exps]))
    base = base.astype(np.int64).astype(npdt) if signed else base.astype(npdt)
    exp = exp.astype(np.int64).astype(npdt) if signed else exp.astype(npdt)
    n = base.size
    lib = aot.compile(f"""
    func.func @main(%a: tensor<{n}x{dt}>, %b: tensor<{n}x{dt}>) -> tensor<{n}x{dt}> {{
      %0 = "mhlo.power"(%a, %b) : (tensor<{n}x{dt}>, tensor<{n}x{dt}>) -> tensor<{n}x{dt}>
      return %0 : tensor<{n}x{dt}>
    }}""", name=f"ipow_{dt}")
    bits = npdt.itemsize * 8
    want = []
    for b, e in zip(base.tolist(), exp.tolist()):
        if e < 0:
            want.append(1 if b == 1 else (-1 if e % 2 else 1) if b == -1 else 0)
        else:
            want.append(pow(int(b), int(e), 1 << bits))
    want = np.array([w % (1 << 64) for w in want], dtype=np.uint64).astype(npdt)  # wraps
    np.testing.assert_array_equal(lib.main(base, exp), want)
