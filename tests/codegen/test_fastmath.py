"""The inline vector math of lowering/fastmath.py: exp, log, tanh, logistic, expm1, log1p,
erf and erfc (chlo.erf, chlo.erfc).

Each op is compiled alone over a dynamic `tensor<?xT>` and run on inputs across the
whole domain: random bit patterns (every exponent, subnormals, NaNs, infinities),
uniform samples where the function is not flat, and edges with their neighbouring
floats (+-0, +-inf, NaN, subnormals, the overflow and underflow thresholds, values
next to 1 for log, next to 0 for tanh/expm1/log1p, the approximations' own interval
ends). Errors are measured in ulps of the exact result, |got - ref| / ulp(ref), with
references computed wider (float64 for f32, long double for f64, 45-digit decimals for
erf/erfc in f64, since numpy has no erf); the ulp of a
subnormal is the smallest subnormal, and a reference that rounds to +-inf or to an
exact zero must be matched exactly. Every op must stay within fastmath.MAX_ULP, and
special values (signed zeros included) must be exact. f16 and bf16 (computed in f32,
rounded once) are checked exhaustively over all 2^16 inputs, to within one ulp of the
correctly rounded result.

The last tests check that the point is kept: a fused loop with these ops is
vectorised (`<N x float>` in the optimised IR) and calls no libm function.
"""
from __future__ import annotations

import math
import os
import re
from decimal import Decimal, localcontext

import ml_dtypes
import numpy as np
import pytest

import aot
from lowering.codegen import mathlib
from lowering.codegen.llvm import fastmath
from ulp import ulp_errors_of

OPS = ["exponential", "log", "tanh", "logistic", "exponential_minus_one", "log_plus_one",
       "erf", "erfc"]
CHLO = ("erf", "erfc")  # spelled chlo.X
NP = {"f16": np.float16, "bf16": ml_dtypes.bfloat16, "f32": np.float32, "f64": np.float64}
LD = np.longdouble
EXACT_REF = np.finfo(LD).nmant >= 63  # x86 long double: a reference for f64


_SQRT_PI = Decimal("1.7724538509055160272981674833411451827975494561223871")


def erf_decimal(x: float, complement: bool) -> Decimal:
    """erf(x) or erfc(x) to about 45 digits: for |x| < 2 erf = 2/sqrt(pi) e^(-x^2) *
    sum 2^n x^(2n+1) / (2n+1)!! (positive terms), beyond that erfc by its continued
    fraction e^(-x^2)/sqrt(pi) / (x + (1/2)/(x + 1/(x + (3/2)/(x + ...))))."""
    if math.isnan(x) or math.isinf(x):
        return Decimal(math.nan if math.isnan(x) else
                       (0.0 if x > 0 else 2.0) if complement else math.copysign(1.0, x))
    with localcontext() as ctx:
        ctx.prec = 50
        a = abs(Decimal(x))
        if a < 2:
            x2, term, n = a * a, a, 0
            total = term
            while term > total * Decimal(10) ** -48:
                n += 1
                term = term * 2 * x2 / (2 * n + 1)
                total += term
            erf_a = 2 / _SQRT_PI * (-x2).exp() * total
            erfc_a = 1 - erf_a
        elif a > 30:  # erfc(30) < 10^-392
            erf_a, erfc_a = Decimal(1), Decimal(0)
        else:
            f = a
            for k in range(int(30 + 800 / float(a) ** 2), 0, -1):
                f = a + Decimal(k) / 2 / f
            erfc_a = (-a * a).exp() / (_SQRT_PI * f)
            erf_a = 1 - erfc_a
        if complement:
            return erfc_a if x >= 0 else 2 - erfc_a
        return erf_a.copy_sign(Decimal(x))


def _erf_ref(complement):
    def ref(x):
        if x.dtype == LD:
            return np.array([LD(str(erf_decimal(float(v), complement))) for v in x], LD)
        fn = math.erfc if complement else math.erf
        return np.frompyfunc(fn, 1, 1)(x).astype(np.float64)
    return ref


def ref_fn(op):
    return {"erf": _erf_ref(False), "erfc": _erf_ref(True),
            "exponential": np.exp, "log": np.log, "tanh": np.tanh,
            "logistic": lambda x: 1 / (1 + np.exp(-x)), "exponential_minus_one": np.expm1,
            "log_plus_one": np.log1p}[op]


def program(op, dt):
    t = f"tensor<?x{dt}>"
    dialect = "chlo" if op in CHLO else "stablehlo"
    return (f"func.func @main(%x: {t}) -> {t} {{\n"
            f"  %0 = {dialect}.{op} %x : {t}\n"
            f"  return %0 : {t}\n}}\n")


_LIBS = {}


def compiled(op, dt):
    if (op, dt) not in _LIBS:
        _LIBS[op, dt] = aot.compile(program(op, dt), name=f"fastmath_{op}_{dt}")
    return _LIBS[op, dt]


# ----------------------------------------------------------------------------- inputs


def neighbours(values, dt, k=3):
    """Each value and the k floats of dt on either side of it."""
    ft = NP[dt]
    it = {np.float32: np.int32, np.float64: np.int64}[ft]
    bits = np.asarray(values, dtype=ft).view(it)
    return np.concatenate([(bits + d).view(ft) for d in range(-k, k + 1)])


EDGES = {
    "f32": {
        "all": [0.0, -0.0, np.inf, -np.inf, np.nan, -np.nan, 1.0, -1.0, 2.0, 0.5,
                1.4e-45, -1.4e-45, 1.1754942e-38, 1.1754944e-38, -1.1754944e-38,
                3.4028235e38, -3.4028235e38, 1e-30, -1e-30, 1e-7, -1e-7, 1e-4, -1e-4,
                0.34657359, -0.34657359, 0.69314718, -0.69314718],
        "exponential": [88.72283, 88.722839, -87.33654, -103.278929, -103.972084, -104.0,
                        -88.0, 89.0, 1e4, -1e4, 16.6355, 17.3287],
        "exponential_minus_one": [88.72283, 88.722839, -17.328680, -16.635532, 16.635532,
                                  17.328680, -1e4, 1e4, 1e-10, -1e-10],
        "log": [0.70710677, 0.70710683, 1.4142135, 1.4142137, 1 + 1e-7, 1 - 1e-7, 3.0,
                1e38, 1e-38, 1e-40, 1e-44],
        "log_plus_one": [-1.0, -0.99999994, -0.5, -0.29289323, 0.41421357, 1.8284271,
                         3.8284271, 2.0 ** 24, 2.0 ** 25, 1e-10, -1e-10, 1e30],
        "tanh": [0.625, -0.625, 9.0, 9.01, -9.01, 44.4, 1e-20, -1e-20, 0.55, 1e2],
        "logistic": [-87.3, -88.73, -103.28, -103.98, -104.0, 16.6, 17.4, 88.8, 1e4, -1e4],
        "erf": [0.8125, -0.8125, 0.25, -0.25, 2.0, -2.0, 3.9, 4.0, -4.0, 10.0, 1e-38, 1e-40],
        "erfc": [0.8125, -0.8125, 0.25, -0.25, 2.0, -2.0, 9.2, 10.0, 10.0546, 10.25, -4.0,
                 1e-38, 1e-40],
    },
    "f64": {
        "all": [0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, -1.0, 5e-324, -5e-324,
                2.2250738585072014e-308, 2.225073858507201e-308, 1.7976931348623157e308,
                -1.7976931348623157e308, 1e-300, 1e-15, -1e-15, 0.34657359027997264],
        "exponential": [709.782712893384, 709.7827128933841, -708.3964185322641,
                        -744.4400719213812, -745.1332191019411, -746.0, 1e4, -1e4],
        "exponential_minus_one": [709.782712893384, -37.42994775023705, 36.7368005696771,
                                  1e-300],
        "log": [0.7071067811865476, 1.4142135623730951, 1 + 2e-16, 1 - 1e-16, 1e-310],
        "log_plus_one": [-1.0, -0.9999999999999999, -0.2928932188134524, 0.41421356237309515,
                         2.0 ** 53, 2.0 ** 54, 1e-300],
        "tanh": [0.625, -0.625, 19.06, -19.06, 1e-300],
        "logistic": [-708.4, -745.0, -745.2, 37.5, 1e4],
        "erf": [0.8125, -0.8125, 0.25, 2.0, 3.5, -3.5, 5.9, 6.0, -6.0, 1e-310],
        "erfc": [0.8125, -0.8125, 0.25, -0.25, 2.0, 3.5, -3.5, 26.5, 27.2, 27.3, 28.0, -6.0,
                 1e-310],
    },
}

UNIFORM = {  # (lo, hi): where the function is not flat
    "exponential": (-110.0, 90.0), "exponential_minus_one": (-20.0, 20.0),
    "log": (0.0, 4.0), "log_plus_one": (-1.0, 4.0), "tanh": (-10.0, 10.0),
    "logistic": (-110.0, 40.0), "erf": (-5.0, 5.0), "erfc": (-5.0, 11.0),
}
F64_RANGE = {"exponential": (-750.0, 712.0), "exponential_minus_one": (-40.0, 40.0),
             "logistic": (-750.0, 40.0), "tanh": (-20.0, 20.0), "erf": (-7.0, 7.0),
             "erfc": (-7.0, 29.0)}


def inputs(op, dt, n):
    ft = NP[dt]
    it = {np.float32: np.uint32, np.float64: np.uint64}[ft]
    rng = np.random.default_rng([OPS.index(op), np.dtype(ft).itemsize])
    lo, hi = (F64_RANGE if dt == "f64" else {}).get(op, UNIFORM[op])
    small = rng.uniform(-1, 1, n // 4) * 10.0 ** rng.uniform(-12, 0, n // 4)  # near 0
    parts = [
        rng.integers(0, np.iinfo(it).max, n, dtype=it, endpoint=True).view(ft),
        rng.uniform(lo, hi, n).astype(ft),
        small.astype(ft),
        (1 + small).astype(ft),  # near 1 (log)
        neighbours(EDGES[dt]["all"] + EDGES[dt][op], dt),
    ]
    return np.concatenate(parts)



def report(err, x, got, ref, k=8):
    worst = np.argsort(err)[-k:][::-1]
    return "; ".join(f"x={x[i]!r} got={got[i]!r} ref={ref[i]!r} ({err[i]:.3g} ulp)"
                     for i in worst)


@pytest.mark.parametrize("dt", ["f32", "f64"])
@pytest.mark.parametrize("op", OPS)
def test_ulp_error(op, dt):
    if dt == "f64" and not EXACT_REF:
        pytest.skip("no long double wider than f64 here for an f64 reference")
    # erf/erfc's f64 references are decimal, one value at a time: fewer of them
    x = inputs(op, dt, 1 << 18 if dt == "f32" else 1 << 11 if op in CHLO else 1 << 15)
    got = compiled(op, dt).main(x)
    assert got.dtype == NP[dt]
    err, ref = ulp_errors_of(got, x, ref_fn(op), dt)
    bound = fastmath.MAX_ULP[dt][op]
    assert err.max() <= bound, f"{op} {dt}: over {bound} ulp: {report(err, x, got, ref)}"


EXHAUSTIVE = ("exponential", "log", "tanh", "logistic", "exponential_minus_one", "log_plus_one")


@pytest.mark.skipif(not os.environ.get("AOTC_EXHAUSTIVE"),
                    reason="minutes per op: make test-exhaustive (after changing fastmath.py)")
@pytest.mark.parametrize("op", EXHAUSTIVE)
def test_f32_exhaustive(op):
    """Every one of the 2^32 f32 inputs (NaNs included) within MAX_ULP, in slices of 2^24;
    the bounds of the ops with a numpy reference were measured this way."""
    lib, bound = compiled(op, "f32"), fastmath.MAX_ULP["f32"][op]
    step = 1 << 24
    worst = (0.0, "")
    for start in range(0, 1 << 32, step):
        x = (np.arange(step, dtype=np.uint32) + np.uint32(start)).view(np.float32)
        got = lib.main(x)
        err, ref = ulp_errors_of(got, x, ref_fn(op), "f32")
        i = int(np.argmax(err))
        if err[i] > worst[0]:
            worst = (float(err[i]), report(err, x, got, ref, 4))
    assert worst[0] <= bound, f"{op} f32: over {bound} ulp: {worst[1]}"


SPECIALS = {  # (x, exact result) with signs of zero
    "exponential": [(0.0, 1.0), (-0.0, 1.0), (np.inf, np.inf), (-np.inf, 0.0), (1e4, np.inf),
                    (-1e4, 0.0)],
    "log": [(0.0, -np.inf), (-0.0, -np.inf), (1.0, 0.0), (np.inf, np.inf), (-1.0, np.nan),
            (-np.inf, np.nan), (-1e-40, np.nan)],
    "tanh": [(0.0, 0.0), (-0.0, -0.0), (np.inf, 1.0), (-np.inf, -1.0), (20.0, 1.0),
             (-20.0, -1.0), (1e-40, 1e-40), (-1e-40, -1e-40)],
    "logistic": [(0.0, 0.5), (-0.0, 0.5), (np.inf, 1.0), (-np.inf, 0.0), (50.0, 1.0),
                 (-1e4, 0.0)],
    "exponential_minus_one": [(0.0, 0.0), (-0.0, -0.0), (np.inf, np.inf), (-np.inf, -1.0),
                              (-200.0, -1.0), (1e4, np.inf), (1e-40, 1e-40),
                              (-1e-40, -1e-40)],
    "log_plus_one": [(0.0, 0.0), (-0.0, -0.0), (-1.0, -np.inf), (np.inf, np.inf),
                     (-2.0, np.nan), (-np.inf, np.nan), (1e-40, 1e-40), (-1e-40, -1e-40)],
    "erf": [(0.0, 0.0), (-0.0, -0.0), (np.inf, 1.0), (-np.inf, -1.0), (6.0, 1.0), (-6.0, -1.0),
            (30.0, 1.0), (-1e4, -1.0)],
    "erfc": [(0.0, 1.0), (-0.0, 1.0), (np.inf, 0.0), (-np.inf, 2.0), (30.0, 0.0), (-30.0, 2.0),
             (1e4, 0.0), (-7.0, 2.0), (1e-40, 1.0), (-1e-40, 1.0)],
}


@pytest.mark.parametrize("dt", ["f32", "f64", "f16", "bf16"])
@pytest.mark.parametrize("op", OPS)
def test_specials_exact(op, dt):
    cases = [(x, y) for x, y in SPECIALS[op] if dt in ("f32", "f64") or abs(x) != 1e-40]
    x = np.array([c[0] for c in cases] + [np.nan, -np.nan], dtype=np.float64).astype(NP[dt])
    want = np.array([c[1] for c in cases] + [np.nan, np.nan], dtype=np.float64).astype(NP[dt])
    got = compiled(op, dt).main(x)
    g, w = got.astype(np.float64), want.astype(np.float64)
    ok = ((g == w) & (np.signbit(g) == np.signbit(w))) | (np.isnan(g) & np.isnan(w))
    assert ok.all(), f"{op} {dt}: x={x[~ok]} got={got[~ok]} want={want[~ok]}"


@pytest.mark.parametrize("dt", ["f16", "bf16"])
@pytest.mark.parametrize("op", OPS)
def test_half_exhaustive(op, dt):
    """Every f16/bf16 input: within one ulp of the correctly rounded result (the f32
    result, a few f32 ulps off, is rounded once more), exact specials."""
    ft = NP[dt]
    x = np.arange(1 << 16, dtype=np.uint16).view(ft)
    got = compiled(op, dt).main(x)
    with np.errstate(all="ignore"):
        ref = ref_fn(op)(x.astype(np.float64))
        rounded = ref.astype(ft).astype(np.float64)
    g = got.astype(np.float64)
    exact = (g == rounded) | (np.isnan(g) & np.isnan(rounded))
    fi = ml_dtypes.finfo(ft) if dt == "bf16" else np.finfo(ft)
    _, e = np.frexp(ref)
    ulp = np.ldexp(1.0, np.maximum(e - 1, int(fi.minexp)) - int(fi.nmant))
    with np.errstate(all="ignore"):
        close = np.isfinite(g) & np.isfinite(rounded) & (np.abs(g - ref) <= ulp)
    bad = ~(exact | close)
    assert not bad.any(), (f"{op} {dt}: {bad.sum()} inputs off, e.g. x={x[bad][:6]} "
                           f"got={got[bad][:6]} ref={ref[bad][:6]}")


def test_other_types_keep_their_rule():
    seen = []
    rule = mathlib.inline_rule(fastmath.tanh,
                               lambda s, elem, args, op_: seen.append(elem) or "old")
    assert rule(None, "f128", ["x"], None) == "old" and seen == ["f128"]


# ----------------------------------------------------------------------------- vectorised


CHAIN = """func.func @main(%x: tensor<?x{t}>) -> tensor<?x{t}> {{
  %a = stablehlo.exponential %x : tensor<?x{t}>
  %b = stablehlo.tanh %x : tensor<?x{t}>
  %c = stablehlo.log %a : tensor<?x{t}>
  %d = stablehlo.logistic %x : tensor<?x{t}>
  %e = stablehlo.exponential_minus_one %b : tensor<?x{t}>
  %f = stablehlo.log_plus_one %d : tensor<?x{t}>
  %0 = stablehlo.add %a, %b : tensor<?x{t}>
  %1 = stablehlo.multiply %0, %c : tensor<?x{t}>
  %2 = stablehlo.subtract %1, %e : tensor<?x{t}>
  %3 = stablehlo.add %2, %f : tensor<?x{t}>
  return %3 : tensor<?x{t}>
}}
"""


def compile_vectorised(text, name, dt, tmp_path, libm_calls):
    """Compiles text, asserting that its optimised LLVM IR has vector float arithmetic and
    no call matching libm_calls (a regex of function names)."""
    lib = aot.compile(text, name=name, dump_after=["llvm-opt"], dump_dir=str(tmp_path / "dump"),
                      output_dir=str(tmp_path / "build"))
    dumps = [p for p in os.listdir(tmp_path / "dump") if p.endswith("llvm-opt.ll")]
    assert dumps, os.listdir(tmp_path / "dump")
    ir_text = (tmp_path / "dump" / dumps[0]).read_text()
    scalar = "float" if dt == "f32" else "double"
    lanes = "4|8|16" if dt == "f32" else "2|4|8"
    assert re.search(rf"= f(add|mul|sub|div) <({lanes}) x {scalar}>", ir_text), \
        "no vector float arithmetic in the optimised IR"
    calls = set(re.findall(r"call [^@\n]*@([\w.]+)\(", ir_text))
    libm = {c for c in calls if re.fullmatch(libm_calls, c)}
    assert not libm, f"math calls left in the loop: {sorted(libm)}"
    return lib


@pytest.mark.parametrize("dt", ["f32", "f64"])
def test_fused_loop_is_vectorised(dt, tmp_path):
    lib = compile_vectorised(CHAIN.format(t=dt), f"fastmath_chain_{dt}", dt, tmp_path,
                             r"(llvm\.)?(exp|expm1|log|log1p|tanh)f?(\..*)?")
    x = np.linspace(-3, 3, 1001).astype(NP[dt])  # and it computes the chain
    with np.errstate(all="ignore"):
        a, b = np.exp(x.astype(np.float64)), np.tanh(x.astype(np.float64))
        want = (a + b) * np.log(a) - np.expm1(b) + np.log1p(1 / (1 + np.exp(-x.astype(np.float64))))
    np.testing.assert_allclose(lib.main(x), want, rtol=1e-5 if dt == "f32" else 1e-13,
                               atol=1e-5 if dt == "f32" else 1e-13)


ERF_CHAIN = """func.func @main(%x: tensor<?x{t}>) -> tensor<?x{t}> {{
  %a = chlo.erf %x : tensor<?x{t}>
  %b = chlo.erfc %x : tensor<?x{t}>
  %c = stablehlo.multiply %x, %b : tensor<?x{t}>
  %0 = stablehlo.add %a, %c : tensor<?x{t}>
  return %0 : tensor<?x{t}>
}}
"""


@pytest.mark.parametrize("dt", ["f32", "f64"])
def test_erf_loop_is_vectorised(dt, tmp_path):
    """chlo.erf and chlo.erfc (GELU's) no longer call libm's erf/erfc, so their loop widens."""
    lib = compile_vectorised(ERF_CHAIN.format(t=dt), f"fastmath_erf_chain_{dt}", dt, tmp_path,
                             r"(llvm\.)?(erfc?|exp)f?(\..*)?")
    x = np.linspace(-6, 12, 1001).astype(NP[dt])
    want = [math.erf(v) + v * math.erfc(v) for v in x.astype(np.float64)]
    np.testing.assert_allclose(lib.main(x), want, rtol=1e-6 if dt == "f32" else 1e-15,
                               atol=1e-6 if dt == "f32" else 1e-15)
