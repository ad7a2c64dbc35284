"""Device sin, cos and tan (lowering/codegen/cuda/trig.py), measured on the device path
itself: each program is compiled for --target cuda and run on the emulated grid
(tests/tooling/gpu_emu), the kernels being the NVPTX IR that becomes the PTX.

Errors are in ulps of the exact result, |got - ref| / ulp(ref), against float64 (f32) or x86
long double (f64) references; inputs: a dense grid over [-2pi, 2pi], uniform values up to
1e4 and over the whole domain, magnitudes from 1e-30 up, the floats next to multiples of
pi/2 (the reduction's cancellations, the f32 worst case among them), tiny and subnormal
values. Within trig.DOMAIN every function must stay within trig.MAX_ULP; beyond it results
must be finite (sin and cos in [-1, 1]); specials are exact. f16 and bf16 (computed in f32,
rounded once) are checked over all 2^16 inputs.
"""
from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest

from lowering.codegen.cuda import trig
from tooling.gpu_emu import builds_per_type
from ulp import ulp_errors_of

OPS = ["sine", "cosine", "tan"]
NP = {"f16": np.float16, "bf16": ml_dtypes.bfloat16, "f32": np.float32, "f64": np.float64}
REF = {"sine": np.sin, "cosine": np.cos, "tan": np.tan}
LD = np.longdouble
EXACT_REF = np.finfo(LD).nmant >= 63  # x86 long double: a reference for f64
F32_WORST = 252.89820861816406  # the f32 input closest to a multiple of pi/2 below 2^17


def program(dt):
    t = f"tensor<?x{dt}>"
    body = "".join(f"  %{i} = stablehlo.{op} %x : {t}\n" for i, op in enumerate(OPS))
    return (f"func.func @main(%x: {t}) -> ({t}, {t}, {t}) {{\n{body}"
            f"  return %0, %1, %2 : {t}, {t}, {t}\n}}\n")


@pytest.fixture(scope="module")
def lib(tmp_path_factory):
    return builds_per_type(tmp_path_factory, program, "trig")


def run(lib, dt, x):
    return dict(zip(OPS, lib(dt).main(x)))


def neighbours(values, ft, k=3):
    it = {np.float32: np.int32, np.float64: np.int64}[ft]
    bits = np.asarray(values, dtype=ft).view(it)
    return np.concatenate([(bits + d).view(ft) for d in range(-k, k + 1)])


def inputs(dt, n):
    ft = NP[dt]
    dom = trig.DOMAIN[dt]
    rng = np.random.default_rng(np.dtype(ft).itemsize)
    kmax = int(dom * 2 / np.pi)
    ks = np.concatenate([np.arange(-64, 65), rng.integers(-kmax, kmax, n // 40)])
    # the float nearest to k*pi/2 (long double product) and its neighbours
    near = neighbours((ks.astype(LD) * (LD(np.pi) / 2 + LD(6.123233995736766e-17))).astype(ft), ft)
    mag = 10.0 ** rng.uniform(-30, np.log10(dom), n // 4) * rng.choice([-1.0, 1.0], n // 4)
    parts = [np.linspace(-2 * np.pi, 2 * np.pi, n // 4), rng.uniform(-1e4, 1e4, n // 4),
             rng.uniform(-dom, dom, n // 8), mag, near,
             neighbours([F32_WORST, -F32_WORST, 1e-38, 1e-30, 1e-8, 0.7853982, 0.8, 1.0], ft)]
    x = np.concatenate([p.astype(ft) for p in parts])
    return x[np.abs(x) < dom]




@pytest.mark.parametrize("dt", ["f32", "f64"])
def test_ulp_error_in_the_domain(lib, dt):
    if dt == "f64" and not EXACT_REF:
        pytest.skip("no long double wider than f64 here for an f64 reference")
    x = inputs(dt, 200_000 if dt == "f32" else 80_000)
    out = run(lib, dt, x)
    for op in OPS:
        assert out[op].dtype == NP[dt]
        err, ref = ulp_errors_of(out[op], x, REF[op], dt)
        bound = trig.MAX_ULP[dt][op]
        worst = np.argsort(err)[-5:][::-1]
        assert err.max() <= bound, f"{op} {dt} over {bound} ulp: " + "; ".join(
            f"x={x[i]!r} got={out[op][i]!r} ref={ref[i]!r} ({err[i]:.3g} ulp)" for i in worst)


@pytest.mark.parametrize("dt", ["f32", "f64"])
def test_specials_exact(lib, dt):
    ft = NP[dt]
    tiny = np.finfo(ft).smallest_subnormal
    x = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, -np.nan, tiny, -tiny, 1e-30, -1e-30], ft)
    nan = np.nan
    want = {"sine": [0.0, -0.0, nan, nan, nan, nan, tiny, -tiny, 1e-30, -1e-30],
            "cosine": [1.0, 1.0, nan, nan, nan, nan, 1.0, 1.0, 1.0, 1.0],
            "tan": [0.0, -0.0, nan, nan, nan, nan, tiny, -tiny, 1e-30, -1e-30]}
    out = run(lib, dt, x)
    for op in OPS:
        g, w = out[op], np.array(want[op], ft)
        ok = ((g == w) & (np.signbit(g) == np.signbit(w))) | (np.isnan(g) & np.isnan(w))
        assert ok.all(), f"{op} {dt}: x={x[~ok]} got={g[~ok]} want={w[~ok]}"


@pytest.mark.parametrize("dt", ["f32", "f64"])
def test_finite_beyond_the_domain(lib, dt):
    """Past trig.DOMAIN the error grows, but every finite input gives a finite result."""
    ft = NP[dt]
    it = {np.float32: np.uint32, np.float64: np.uint64}[ft]
    rng = np.random.default_rng(7)
    bits = rng.integers(0, np.iinfo(it).max, 100_000, dtype=it, endpoint=True)
    x = bits.view(ft)
    fmax = np.finfo(ft).max
    x = np.concatenate([x[np.isfinite(x)], [fmax, -fmax], neighbours([2.0 ** 22, 2.0 ** 51], ft)])
    x = x[np.abs(x) >= trig.DOMAIN[dt]]
    out = run(lib, dt, x)
    for op in OPS:
        assert np.isfinite(out[op]).all(), f"{op} {dt}: x={x[~np.isfinite(out[op])][:5]}"
    assert (np.abs(out["sine"]) <= 1).all() and (np.abs(out["cosine"]) <= 1).all()
    # just past the domain's end the error has only begun to grow (f32: a few ulps)
    if dt == "f32":
        y = np.linspace(trig.DOMAIN[dt], 2 * trig.DOMAIN[dt], 20_000).astype(ft)
        got = run(lib, dt, y)["sine"].astype(np.float64)
        assert np.abs(got - np.sin(y.astype(np.float64))).max() < 1e-5


@pytest.mark.parametrize("dt", ["f16", "bf16"])
def test_half_every_input(lib, dt):
    """Every f16/bf16 input in the domain: within one ulp of the correctly rounded result
    (the f32 result rounded once more); past it (bf16 only) finite; specials as in f32."""
    ft = NP[dt]
    x = np.arange(1 << 16, dtype=np.uint16).view(ft)
    out = run(lib, dt, x)
    with np.errstate(all="ignore"):
        xd = x.astype(np.float64)
    fi = ml_dtypes.finfo(ft)
    inside = np.abs(xd) < trig.DOMAIN["f32"]
    for op in OPS:
        g = out[op].astype(np.float64)
        with np.errstate(all="ignore"):
            ref = REF[op](xd)
            _, e = np.frexp(ref)
            ulp = np.ldexp(1.0, np.maximum(e - 1, int(fi.minexp)) - int(fi.nmant))
            ok = (g == ref.astype(ft).astype(np.float64)) | (np.abs(g - ref) <= ulp)
        ok |= np.isnan(g) & ~np.isfinite(xd)
        ok = np.where(inside | ~np.isfinite(xd), ok, np.isfinite(g))
        assert ok.all(), f"{op} {dt}: x={x[~ok][:6]} got={out[op][~ok][:6]} ref={ref[~ok][:6]}"
        zero = xd == 0
        assert (np.signbit(g[zero]) == (np.signbit(xd[zero]) & (op != "cosine"))).all()
