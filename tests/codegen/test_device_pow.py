"""Device pow (lowering/codegen/cuda/pow.py), measured on the device path itself: stablehlo.power
compiled for --target cuda and run on the emulated grid (tests/tooling/gpu_emu), whose kernels
are the NVPTX IR that becomes the PTX.

Errors are in ulps of the exact result (tests/ulp.py), against float64 (f32) or x86 long double
(f64) references; a reference that rounds to 0, +-inf or NaN must be matched exactly. Inputs:
random bit patterns, plain ranges, results spread over the whole exponent range (overflow and
underflow edges, subnormal results), bases near 1 with huge exponents, subnormal bases, negative
bases with integer exponents, tiny exponents. The C99 special cases are checked bit for bit
against numpy.power (libm's pow) on a grid of special bases and exponents.
"""
from __future__ import annotations

import os

import ml_dtypes
import numpy as np
import pytest

from aot.driver import Compilation, Options
from lowering.codegen.cuda import pow as device_pow
from tooling.gpu_emu import build_emulated, builds_per_type
from tooling.gpu_emu.corpus_run import run_case
from tooling.ptxas import ptxas
from ulp import ulp_errors

NP = {"f16": np.float16, "bf16": ml_dtypes.bfloat16, "f32": np.float32, "f64": np.float64}
EXACT_REF = np.finfo(np.longdouble).nmant >= 63  # x86 long double: a reference for f64


def program(dt, shape="?"):
    t = f"tensor<{shape}x{dt}>"
    return (f"func.func @main(%x: {t}, %y: {t}) -> {t} {{\n"
            f"  %0 = stablehlo.power %x, %y : {t}\n  return %0 : {t}\n}}\n")


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    return builds_per_type(tmp_path_factory, program, "pow")


def run(built, dt, x, y):
    out = built(dt).main(x, y)
    assert out.dtype == NP[dt] and out.shape == x.shape
    return out


def reference(x, y, dt):
    wide = np.longdouble if dt == "f64" else np.float64
    with np.errstate(all="ignore"):
        return np.power(x.astype(wide), y.astype(wide))


# ----------------------------------------------------------------------------- inputs


def inputs(dt, n, seed=0):
    """(x, y): n pairs of each kind."""
    ft = NP[dt]
    ut = {np.float32: np.uint32, np.float64: np.uint64}[ft]
    fi = np.finfo(ft)
    rng = np.random.default_rng(seed)
    sign = rng.choice([-1.0, 1.0], n)
    xs, ys = [], []

    def add(x, y):
        with np.errstate(all="ignore"):
            xs.append(np.asarray(x).astype(np.float64).astype(ft))
            ys.append(np.asarray(y).astype(np.float64).astype(ft))

    bits = lambda: rng.integers(0, np.iinfo(ut).max, n, dtype=ut, endpoint=True).view(ft)  # noqa: E731
    add(bits(), bits())
    add(rng.uniform(0, 10, n), rng.uniform(-40, 40, n))
    # results over the whole range: y = e / log2(x), e from below the subnormals to past overflow
    lx = rng.uniform(-0.9, 0.9, n) * fi.maxexp
    x = np.exp2(lx).astype(ft)
    e = rng.uniform(fi.minexp - fi.nmant - 2, fi.maxexp + 1, n)
    with np.errstate(all="ignore"):
        add(x, e / np.log2(x.astype(np.float64)))
    # bases near 1, huge exponents
    near = 1 + sign * 10.0 ** rng.uniform(np.log10(float(fi.eps)), -1, n)
    add(near, rng.choice([-1.0, 1.0], n) * 10.0 ** rng.uniform(0, 18 if dt == "f64" else 9, n))
    # subnormal bases
    add(rng.integers(1, 1 << fi.nmant, n).astype(ut).view(ft), rng.uniform(-1.2, 1.2, n))
    # negative bases, integer exponents; tiny exponents
    add(-rng.uniform(0.05, 20, n), rng.integers(-300 if dt == "f64" else -40, 300 if dt == "f64" else 40, n))
    add(10.0 ** rng.uniform(-30, 30, n), sign * 10.0 ** rng.uniform(-20, -1, n))
    return np.concatenate(xs), np.concatenate(ys)


def errors(built, dt, x, y):
    got = run(built, dt, x, y)
    ref = reference(x, y, dt)
    return ulp_errors(got, ref, NP[dt]), got, ref


@pytest.mark.parametrize("dt", ["f32", "f64"])
def test_ulp_error(dt, built):
    if dt == "f64" and not EXACT_REF:
        pytest.skip("no long double wider than f64 here for an f64 reference")
    x, y = inputs(dt, 30000 if dt == "f32" else 12000)
    err, got, ref = errors(built, dt, x, y)
    bound = device_pow.MAX_ULP[dt]
    worst = np.argsort(err)[-4:][::-1]
    assert err.max() <= bound, "; ".join(
        f"pow({x[i]!r}, {y[i]!r}) = {got[i]!r}, ref {ref[i]!r} ({err[i]:.3g} ulp)" for i in worst)


SPECIAL_X = [0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 2.0, -2.0, 3.0, -3.0, -1.5, 1e-40, -1e-40,
             np.inf, -np.inf, np.nan, 1e30, -1e30, 0.999, 1.001]
SPECIAL_Y = [0.0, -0.0, 1.0, -1.0, 2.0, -2.0, 3.0, -3.0, 0.5, -0.5, 1.5, -1.5, np.inf, -np.inf,
             np.nan, 7.0, -7.0, 2.0 ** 23 + 1, -(2.0 ** 23 + 1), 2.0 ** 24, 2.0 ** 53 + 2, 1e30, -1e30,
             1e-40]


@pytest.mark.parametrize("dt", ["f32", "f64", "f16", "bf16"])
def test_specials_exact(dt, built):
    """Every pair of special bases and exponents whose result is a special value or exactly
    representable (0, +-inf, NaN, 1, 8, 2^-60...): the same bits as libm's pow (NaN as NaN).
    The rest (3^0.5...) are rounded results, which test_ulp_error bounds."""
    ft = NP[dt]
    with np.errstate(over="ignore"):
        x, y = (np.array(v, np.float64).astype(ft) for v in np.meshgrid(SPECIAL_X, SPECIAL_Y))
    x, y = x.ravel(), y.ravel()
    got = run(built, dt, x, y)
    with np.errstate(all="ignore"):
        want = np.power(x, y) if dt in ("f32", "f64") else np.power(
            x.astype(np.float64), y.astype(np.float64)).astype(ft)
    ref = reference(x.astype(np.float64), y.astype(np.float64), "f64")
    w = want.astype(np.float64)
    exact = np.isnan(w) | np.isinf(w) | (w == 0) | (w.astype(ref.dtype) == ref)
    assert exact.sum() > len(SPECIAL_X) * len(SPECIAL_Y) // 2
    same = (got == want) & (np.signbit(got) == np.signbit(want))
    same |= np.isnan(got.astype(np.float64)) & np.isnan(w)
    bad = exact & ~same
    assert not bad.any(), "; ".join(f"pow({a!r}, {b!r}) = {g!r}, want {v!r}" for a, b, g, v in
                                    zip(x[bad], y[bad], got[bad], want[bad]))


@pytest.mark.parametrize("dt", ["f16", "bf16"])
def test_half_types(dt, built):
    """f16/bf16 (f32 pow, rounded once more): within one ulp of the exact result, exact where
    that rounds to 0, inf or NaN; every base against a spread of exponents."""
    ft = NP[dt]
    base = np.arange(1 << 16, dtype=np.uint16).view(ft)
    x = np.tile(base, 4)
    rng = np.random.default_rng(1)
    y = rng.uniform(-12, 12, x.size).astype(ft)
    got = run(built, dt, x, y).astype(np.float64)
    ref = reference(x, y, "f32")
    with np.errstate(all="ignore"):
        rounded = ref.astype(ft).astype(np.float64)
    fi = ml_dtypes.finfo(ft) if dt == "bf16" else np.finfo(ft)
    _, e = np.frexp(ref)
    ulp = np.ldexp(1.0, np.maximum(e - 1, int(fi.minexp)) - int(fi.nmant))
    with np.errstate(all="ignore"):
        close = np.isfinite(got) & np.isfinite(rounded) & (rounded != 0) & (np.abs(got - ref) <= ulp)
    ok = (got == rounded) | (np.isnan(got) & np.isnan(rounded)) | close
    assert ok.all(), f"{(~ok).sum()} off, e.g. x={x[~ok][:4]} y={y[~ok][:4]} got={got[~ok][:4]}"


def test_dynamic_program_matches_numpy(tmp_path):
    """power among other ops, on a dynamic 2-d shape, run at two sizes."""
    t = "tensor<?x5xf32>"
    text = (f"func.func @main(%x: {t}, %y: {t}) -> {t} {{\n"
            f"  %0 = stablehlo.abs %x : {t}\n  %1 = stablehlo.power %0, %y : {t}\n"
            f"  %2 = stablehlo.power %x, %y : {t}\n  %3 = stablehlo.multiply %1, %2 : {t}\n"
            f"  return %3 : {t}\n}}\n")
    lib = build_emulated(text, "pow_dyn", str(tmp_path))
    rng = np.random.default_rng(2)
    for rows in (3, 1000):
        x = rng.uniform(-4, 4, (rows, 5)).astype(np.float32)
        y = rng.integers(-5, 6, (rows, 5)).astype(np.float32)
        y[::3] += 0.5  # non-integer exponents: NaN for the negative bases
        got = lib.main(x, y)
        with np.errstate(invalid="ignore"):
            xd, yd = x.astype(np.float64), y.astype(np.float64)
            want = np.power(np.abs(xd), yd) * np.power(xd, yd)
        np.testing.assert_allclose(got, want, rtol=2.5e-7, equal_nan=True)  # three roundings
        assert np.isnan(got).any() and np.isfinite(got).any()


@pytest.mark.parametrize("dt", ["f32", "f64", "f16", "bf16"])
def test_ptxas_accepts(dt, tmp_path):
    out = str(tmp_path / "pow.ptx")
    Compilation(program(dt), "pow.mlir", Options(name="m", emit="ptx", target="cuda",
                                                  gpu_arch="sm_80")).build(out)
    assert "math.powf" not in open(out).read() and os.path.getsize(out) > 0
    r = ptxas(out, "sm_80")
    assert r.returncode == 0, r.stderr


def test_conformance_case_matches_jax(tmp_path):
    """The conformance case that the missing device pow refused now matches JAX."""
    status, detail = run_case("elementwise_float_mix", str(tmp_path))
    assert status == "passed", detail
