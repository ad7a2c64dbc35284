"""Errors in ulps, for the tests of the inline math (CPU fastmath, device trig and arc/hyp)."""
import ml_dtypes
import numpy as np

NP = {"f16": np.float16, "bf16": ml_dtypes.bfloat16, "f32": np.float32, "f64": np.float64}


def ulp_errors(got, ref, ft):
    """|got - ref| / ulp(ref) in ulps of the result type `ft`, ref computed in a wider type:
    0 where got is exactly the rounded reference (NaN for NaN, signed zeros), inf where it
    must be exact (ref rounds to inf or NaN, or is 0) and is not, or where got is not finite."""
    with np.errstate(all="ignore"):
        rounded = ref.astype(ft)
    fi = np.finfo(ft)
    _, e = np.frexp(ref)
    ulp = np.ldexp(np.ones_like(ref), (np.maximum(e - 1, fi.minexp) - fi.nmant).astype(np.int32))
    with np.errstate(all="ignore"):
        err = (np.abs(got.astype(ref.dtype) - ref) / ulp).astype(np.float64)
    same = (got == rounded) & (np.signbit(got) == np.signbit(rounded))
    same |= np.isnan(got) & np.isnan(rounded)
    special = ~np.isfinite(rounded) | (ref == 0) | ~np.isfinite(got)
    return np.where(same, 0.0, np.where(special, np.inf, err))


def ulp_errors_of(got, x, reference, dt):
    """(errors in ulps of `dt`, the reference): `reference` evaluated on x in a wider type
    (float64 for f32, long double for f64)."""
    wide = np.longdouble if dt == "f64" else np.float64
    with np.errstate(all="ignore"):
        ref = reference(x.astype(wide))
    return ulp_errors(got, ref, NP[dt]), ref
