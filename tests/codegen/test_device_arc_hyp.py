"""Device atan, asin, acos, sinh, cosh, asinh, acosh, atanh (lowering/codegen/cuda/arc_hyp.py),
measured on the device path itself: chlo ops compiled for `--target cuda` and run on the
emulated grid (tests/tooling/gpu_emu), whose kernels are the NVPTX IR that becomes the PTX.

Errors are in ulps of the exact result, |got - ref| / ulp(ref), with references computed wider
(numpy in float64 for f32, in x86 long double for f64); a reference that rounds to +-inf, NaN
or an exact zero must be matched exactly, and each function must stay within
arc_hyp.MAX_ULP. Inputs: random bit patterns (every exponent, subnormals, NaNs, infinities),
uniform samples over each function's interesting range, values near 0 and near 1, and edges
with their neighbouring floats (domain ends, each algorithm's interval ends, the overflow
thresholds). Special values (signed zeros, +-inf, NaN, domain ends) are exact. f16/bf16
(computed in f32, rounded once) are checked over all 2^16 inputs to within one ulp of the
correctly rounded result. The conformance cases these functions blocked match JAX.
"""
from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest

from lowering.codegen.cuda import arc_hyp
from tooling.gpu_emu import builds_per_type
from tooling.gpu_emu.corpus_run import run_case
from ulp import ulp_errors_of

NAMES = ["atan", "asin", "acos", "sinh", "cosh", "asinh", "acosh", "atanh"]
NP = {"f16": np.float16, "bf16": ml_dtypes.bfloat16, "f32": np.float32, "f64": np.float64}
LD = np.longdouble
EXACT_REF = np.finfo(LD).nmant >= 63  # x86 long double: a reference for f64
REF = {"atan": np.arctan, "asin": np.arcsin, "acos": np.arccos, "sinh": np.sinh, "cosh": np.cosh,
       "asinh": np.arcsinh, "acosh": np.arccosh, "atanh": np.arctanh}
CORPUS = ["acos_f32", "acosh_f32", "asin_f32", "asinh_f32", "atan_edge_values", "atan_f32",
          "atanh_f32", "cosh_f32", "sinh_bf16", "sinh_f32"]


def program(dt):
    """All eight functions of one dynamic tensor<?xdt>, one result each."""
    t = f"tensor<?x{dt}>"
    body = "".join(f"  %{i} = chlo.{n} %x : {t} -> {t}\n" for i, n in enumerate(NAMES))
    types = ", ".join([t] * len(NAMES))
    results = ", ".join(f"%{i}" for i in range(len(NAMES)))
    return f"func.func @main(%x: {t}) -> ({types}) {{\n{body}  return {results} : {types}\n}}\n"


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    return builds_per_type(tmp_path_factory, program, "arc_hyp")


def run_all(built, dt, x):
    """{name: result} for every function on x, on the emulated grid."""
    outs = built(dt).main(x)
    for o in outs:
        assert o.dtype == NP[dt]
    return dict(zip(NAMES, outs))


# ----------------------------------------------------------------------------- inputs


def neighbours(values, dt, k=3):
    """Each value and the k floats of dt on either side of it."""
    ft = NP[dt]
    it = {np.float32: np.int32, np.float64: np.int64}[ft]
    bits = np.asarray(values, dtype=ft).view(it)
    return np.concatenate([(bits + d).view(ft) for d in range(-k, k + 1)])


EDGES = [0.0, 1.0, 0.5, 2.0, 1e-7, 1e-4, 0.1, 10.0, 100.0, 1e10, 1e30,
         0.4375, 0.6875, 1.1875, 2.4375, 2.0 ** 26, 2.0 ** 66,  # atan's intervals
         0.975, 0.25,  # asin/acos
         0.34657359027997264, 88.72283, 89.41599, 90.0, 22.0, 40.0,  # sinh/cosh
         2.0 ** 12, 2.0 ** -12, 2.0 ** 28, 2.0 ** -28, 1.0 + 2.0 ** -20]  # asinh/acosh/atanh
EDGES_F = {"f32": [1.4e-45, 1.1754944e-38, 3.4028235e38],
           "f64": [5e-324, 2.2250738585072014e-308, 1.7976931348623157e308, 709.78, 710.4758600739439,
                   711.0, 1e300, 1e-300, 2.0 ** 1000]}
RANGE = {"f32": {"atan": 10.0, "asin": 1.0, "acos": 1.0, "sinh": 90.0, "cosh": 90.0, "asinh": 10.0,
                 "acosh": 10.0, "atanh": 1.0},
         "f64": {"atan": 10.0, "asin": 1.0, "acos": 1.0, "sinh": 712.0, "cosh": 712.0,
                 "asinh": 10.0, "acosh": 10.0, "atanh": 1.0}}


def inputs(dt, n):
    """n samples of each kind, shared by all functions, and each function's uniform range."""
    ft = NP[dt]
    ut = {np.float32: np.uint32, np.float64: np.uint64}[ft]
    rng = np.random.default_rng(np.dtype(ft).itemsize)
    sign = rng.choice([-1.0, 1.0], n)
    edges = EDGES + EDGES_F[dt]
    parts = [
        rng.integers(0, np.iinfo(ut).max, n, dtype=ut, endpoint=True).view(ft),
        (sign * 10.0 ** rng.uniform(-12, 1, n)).astype(ft),  # near 0
        (1 + sign * 10.0 ** rng.uniform(-12 if dt == "f64" else -7, 0, n)).astype(ft),  # near 1
        (-1 - sign * 10.0 ** rng.uniform(-12 if dt == "f64" else -7, 0, n)).astype(ft),
        neighbours(edges + [-v for v in edges], dt),
        np.array([np.inf, -np.inf, np.nan, -np.nan], ft),
    ]
    for name in NAMES:
        r = RANGE[dt][name]
        parts.append(rng.uniform(1.0 if name == "acosh" else -r, r, n).astype(ft))
    return np.concatenate(parts)



@pytest.mark.parametrize("dt", ["f32", "f64"])
def test_ulp_error(dt, built):
    if dt == "f64" and not EXACT_REF:
        pytest.skip("no long double wider than f64 here for an f64 reference")
    x = inputs(dt, 12000 if dt == "f32" else 4000)
    outs = run_all(built, dt, x)
    over = []
    for name in NAMES:
        err, ref = ulp_errors_of(outs[name], x, REF[name], dt)
        bound = arc_hyp.MAX_ULP[dt][name]
        if err.max() > bound:
            worst = np.argsort(err)[-4:][::-1]
            over.append(f"{name} over {bound} ulp: " + "; ".join(
                f"x={x[i]!r} got={outs[name][i]!r} ref={ref[i]!r} ({err[i]:.3g} ulp)" for i in worst))
    assert not over, "\n".join(over)


PI = np.pi
SPECIALS = {  # (x, exact result), signed zeros included
    "atan": [(0.0, 0.0), (-0.0, -0.0), (np.inf, PI / 2), (-np.inf, -PI / 2), (1e30, PI / 2),
             (1.0, PI / 4), (-1.0, -PI / 4), (1e-40, 1e-40), (-1e-40, -1e-40)],
    "asin": [(0.0, 0.0), (-0.0, -0.0), (1.0, PI / 2), (-1.0, -PI / 2), (1.5, np.nan),
             (-1.5, np.nan), (np.inf, np.nan), (-np.inf, np.nan), (1e-40, 1e-40)],
    "acos": [(1.0, 0.0), (-1.0, PI), (0.0, PI / 2), (-0.0, PI / 2), (1.5, np.nan),
             (-1.5, np.nan), (np.inf, np.nan), (-np.inf, np.nan)],
    "sinh": [(0.0, 0.0), (-0.0, -0.0), (np.inf, np.inf), (-np.inf, -np.inf), (1e4, np.inf),
             (-1e4, -np.inf), (1e-40, 1e-40), (-1e-40, -1e-40)],
    "cosh": [(0.0, 1.0), (-0.0, 1.0), (np.inf, np.inf), (-np.inf, np.inf), (1e4, np.inf),
             (-1e4, np.inf), (1e-40, 1.0)],
    "asinh": [(0.0, 0.0), (-0.0, -0.0), (np.inf, np.inf), (-np.inf, -np.inf), (1e-40, 1e-40),
              (-1e-40, -1e-40)],
    "acosh": [(1.0, 0.0), (np.inf, np.inf), (0.5, np.nan), (0.0, np.nan), (-1.0, np.nan),
              (-np.inf, np.nan)],
    "atanh": [(0.0, 0.0), (-0.0, -0.0), (1.0, np.inf), (-1.0, -np.inf), (1.5, np.nan),
              (-1.5, np.nan), (np.inf, np.nan), (-np.inf, np.nan), (1e-40, 1e-40)],
}


@pytest.mark.parametrize("dt", ["f32", "f64", "f16", "bf16"])
def test_specials_exact(dt, built):
    cases = [(name, x, y) for name in NAMES for x, y in SPECIALS[name] + [(np.nan, np.nan)]
             if dt in ("f32", "f64") or abs(x) != 1e-40]
    with np.errstate(over="ignore"):  # 1e30 is inf in f16
        x = np.array([c[1] for c in cases], np.float64).astype(NP[dt])
    outs = run_all(built, dt, x)
    bad = []
    for i, (name, xv, want) in enumerate(cases):
        g = float(outs[name][i])
        w = float(np.float64(want).astype(NP[dt]))
        if not ((g == w and np.signbit(g) == np.signbit(w)) or (np.isnan(g) and np.isnan(w))):
            bad.append(f"{name}({xv!r}) = {g!r}, want {w!r}")
    assert not bad, f"{dt}: " + "; ".join(bad)


@pytest.mark.parametrize("dt", ["f16", "bf16"])
def test_half_exhaustive(dt, built):
    """Every f16/bf16 input: within one ulp of the correctly rounded result (the f32 result,
    about an f32 ulp off, is rounded once more), specials exact."""
    ft = NP[dt]
    x = np.arange(1 << 16, dtype=np.uint16).view(ft)
    outs = run_all(built, dt, x)
    fi = ml_dtypes.finfo(ft) if dt == "bf16" else np.finfo(ft)
    problems = []
    for name in NAMES:
        g = outs[name].astype(np.float64)
        with np.errstate(all="ignore"):
            ref = REF[name](x.astype(np.float64))
            rounded = ref.astype(ft).astype(np.float64)
        exact = (g == rounded) | (np.isnan(g) & np.isnan(rounded))
        _, e = np.frexp(ref)
        ulp = np.ldexp(1.0, np.maximum(e - 1, int(fi.minexp)) - int(fi.nmant))
        with np.errstate(all="ignore"):
            close = np.isfinite(g) & np.isfinite(rounded) & (np.abs(g - ref) <= ulp)
        bad = ~(exact | close)
        if bad.any():
            problems.append(f"{name}: {bad.sum()} inputs off, e.g. x={x[bad][:4]} "
                            f"got={outs[name][bad][:4]} ref={ref[bad][:4]}")
    assert not problems, f"{dt}: " + "; ".join(problems)


@pytest.mark.parametrize("name", CORPUS)
def test_conformance_case_matches_jax(name, tmp_path):
    """The conformance cases that the missing device versions refused now match JAX."""
    status, detail = run_case(name, str(tmp_path))
    assert status == "passed", detail
