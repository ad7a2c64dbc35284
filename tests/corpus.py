"""Shared helpers for running saved (.mlir + .npz) cases: inputs, expected outputs,
and the per-dtype tolerances every numeric test states."""
from __future__ import annotations

import numpy as np

# Tolerances per result dtype: (rtol, atol). Integers and booleans must match exactly.
TOLERANCE = {
    "float64": (1e-12, 1e-12),
    "float32": (2e-5, 1e-6),
    "float16": (2e-3, 1e-3),
    "bfloat16": (1e-2, 1e-2),
}


def load_case(npz_path: str):
    """(inputs, outputs) from an npz: argN / outN keys, bf16 stored as uint16 bits under NAME__bf16."""
    import ml_dtypes
    data = np.load(npz_path)
    arrays = {}
    for key in data.files:
        if key.endswith("__bf16"):
            arrays[key[:-6]] = data[key].view(ml_dtypes.bfloat16)
        else:
            arrays[key] = data[key]
    args = [arrays[f"arg{i}"] for i in range(len(arrays)) if f"arg{i}" in arrays]
    outs = [arrays[f"out{i}"] for i in range(len(arrays)) if f"out{i}" in arrays]
    return args, outs


def assert_close(got, want, what="", looser=None):
    """got == want within the dtype's TOLERANCE (exactly for integers); `looser` (rtol,
    atol) widens a float or complex comparison where a case's approximation justifies it."""
    got, want = np.asarray(got), np.asarray(want)
    assert got.shape == want.shape, f"{what}: shape {got.shape} != {want.shape}"
    assert got.dtype == want.dtype, f"{what}: dtype {got.dtype} != {want.dtype}"
    name = want.dtype.name

    def tolerance(name):
        rtol, atol = TOLERANCE[name]
        return (max(rtol, looser[0]), max(atol, looser[1])) if looser else (rtol, atol)
    if want.dtype.kind == "c":  # each part with its float type's tolerance, NaNs per part
        rtol, atol = tolerance(np.dtype(f"f{want.dtype.itemsize // 2}").name)
        for f, which in ((np.real, "real"), (np.imag, "imag")):
            np.testing.assert_allclose(f(got).astype(np.float64), f(want).astype(np.float64), rtol=rtol,
                                       atol=atol, equal_nan=True, err_msg=f"{what} ({which} part)")
    elif name in TOLERANCE:
        rtol, atol = tolerance(name)
        np.testing.assert_allclose(got.astype(np.float64), want.astype(np.float64), rtol=rtol,
                                   atol=atol, equal_nan=True, err_msg=what)
    else:
        np.testing.assert_array_equal(got, want, err_msg=what)
