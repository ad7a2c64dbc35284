"""Device cbrt (lowering/codegen/cuda/pow.py's `cbrt`), measured on the device path itself:
stablehlo.cbrt compiled for --target cuda (a compile error before issue 31: "'math.cbrt' ...
has no device version yet") and run on the emulated grid, whose kernels are the NVPTX IR that
becomes the PTX. Errors in ulps of the exact result (tests/ulp.py) against float64 (f32) or
x86 long double (f64) references, over random bit patterns (subnormals, huge and tiny
values), plain ranges and perfect cubes; 0, inf and NaN keep their sign and value."""
from __future__ import annotations

import numpy as np
import pytest

from lowering.codegen.cuda.pow import CBRT_MAX_ULP
from tooling.gpu_emu import builds_per_type
from ulp import ulp_errors

NP = {"f16": np.float16, "f32": np.float32, "f64": np.float64}
EXACT_REF = np.finfo(np.longdouble).nmant >= 63  # x86 long double: a reference for f64


def program(dt):
    t = f"tensor<?x{dt}>"
    return f"func.func @main(%x: {t}) -> {t} {{\n  %0 = stablehlo.cbrt %x : {t}\n  return %0 : {t}\n}}\n"


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    return builds_per_type(tmp_path_factory, program, "cbrt")


def inputs(dt, n=20000, seed=0):
    ft = NP[dt]
    ut = {np.float32: np.uint32, np.float64: np.uint64}[ft]
    rng = np.random.default_rng(seed)
    bits = rng.integers(0, np.iinfo(ut).max, n, dtype=ut, endpoint=True).view(ft)
    bits = bits[np.isfinite(bits)]
    plain = rng.uniform(-100, 100, n).astype(ft)
    cubes = (rng.integers(-1000, 1000, n).astype(np.float64) ** 3).astype(ft)
    tiny = (rng.integers(1, 1 << 20, n).astype(ut)).view(ft)  # subnormals
    return np.concatenate([bits, plain, cubes, tiny, -tiny])


@pytest.mark.parametrize("dt", ["f32", "f64"])
def test_within_its_ulp_bound(built, dt):
    if dt == "f64" and not EXACT_REF:
        pytest.skip("no long double wider than f64 here for an f64 reference")
    x = inputs(dt)
    got = built(dt).main(x)
    wide = np.longdouble if dt == "f64" else np.float64
    ref = np.cbrt(x.astype(wide))
    err = ulp_errors(got, ref, NP[dt])
    assert err.max() <= CBRT_MAX_ULP[dt], (dt, err.max(), x[np.argmax(err)])


@pytest.mark.parametrize("dt", ["f16", "f32", "f64"])
def test_specials(built, dt):
    """Signed zeros, infinities and NaN as they are; perfect cubes exact (libm's f64 cbrt
    gives -3.0000000000000004 for -27); the extremes within the bound."""
    ft = NP[dt]
    fi = np.finfo(ft)
    x = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, -1.0, 8.0, -27.0, 0.125,
                  fi.max, -fi.tiny, fi.smallest_subnormal], ft)
    got = built(dt).main(x)
    np.testing.assert_array_equal(got[:10], [0.0, -0.0, np.inf, -np.inf, np.nan, 1, -1, 2, -3, 0.5])
    assert list(np.signbit(got[:4])) == [False, True, False, True]
    wide = np.longdouble if dt == "f64" else np.float64
    err = ulp_errors(got[10:], np.cbrt(x[10:].astype(wide)), ft)
    assert err.max() <= CBRT_MAX_ULP.get(dt, 0.5), err
