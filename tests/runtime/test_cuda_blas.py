"""Matmuls of a `--target cuda` artifact through cuBLAS (runtime_c/device/cuda_blas.c,
aot_gpu_gemm), on the cuBLAS test double (tests/tooling/cuda_double/cublas_double.c) over the
driver double: which dots go to cuBLAS (the double counts its GEMMs), the row-major to
column-major mapping of every transposed and batched form and element type, the fallback to
the generated tiled kernel when there is no cuBLAS, and cuBLAS's failures as errors."""
import ctypes
import os

import ml_dtypes
import numpy as np
import pytest

from tooling.gpu_emu import blas_double_library, build_emulated

FORMS = """func.func @main(%a: tensor<?x?xT>, %b: tensor<?x?xT>, %at: tensor<?x?xT>, %bt: tensor<?x?xT>,
                 %ba: tensor<?x?x?xT>, %bb: tensor<?x?x?xT>)
    -> (tensor<?x?xT>, tensor<?x?xT>, tensor<?x?xT>, tensor<?x?x?xT>) {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<?x?xT>, tensor<?x?xT>) -> tensor<?x?xT>
  %1 = stablehlo.dot_general %at, %b, contracting_dims = [0] x [0] : (tensor<?x?xT>, tensor<?x?xT>) -> tensor<?x?xT>
  %2 = stablehlo.dot_general %a, %bt, contracting_dims = [1] x [1] : (tensor<?x?xT>, tensor<?x?xT>) -> tensor<?x?xT>
  %3 = stablehlo.dot_general %ba, %bb, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<?x?x?xT>, tensor<?x?x?xT>) -> tensor<?x?x?xT>
  return %0, %1, %2, %3 : tensor<?x?xT>, tensor<?x?xT>, tensor<?x?xT>, tensor<?x?x?xT>
}"""  # noqa: E501

NUMPY = {"f32": np.float32, "f64": np.float64, "f16": np.float16, "bf16": ml_dtypes.bfloat16}
TOLERANCE = {"f32": 1e-5, "f64": 1e-12, "f16": 2e-3, "bf16": 1e-2}


def blas():
    return ctypes.CDLL(blas_double_library())  # the instance the artifacts opened


def gemms() -> int:
    return blas().aot_cublas_double_gemms()


def form_inputs(dt, m=37, k=19, n=70, batch=3, seed=0):
    rng = np.random.default_rng(seed)

    def r(*shape):
        return rng.uniform(-1, 1, shape).astype(NUMPY[dt])
    return r(m, k), r(k, n), r(k, m), r(n, k), r(batch, m, k), r(batch, k, n)


def form_expected(a, b, at, bt, ba, bb):
    f = [x.astype(np.float64) for x in (a, b, at, bt, ba, bb)]
    return f[0] @ f[1], f[2].T @ f[1], f[0] @ f[3].T, f[4] @ f[5]


@pytest.mark.parametrize("dt", ["f32", "f64", "f16", "bf16"])
def test_every_form_and_type_through_cublas_then_without(tmp_path, monkeypatch, dt):
    program = FORMS.replace("xT>", f"x{dt}>")
    lib = build_emulated(program, f"gemm_{dt}", str(tmp_path / "blas"), blas=True)
    args = form_inputs(dt)
    before = gemms()
    got = lib.main(*args)
    assert gemms() - before == 4  # each dot one strided-batched GEMM
    assert lib.blas_library == blas_double_library()
    for g, want in zip(got, form_expected(*args)):
        np.testing.assert_allclose(g.astype(np.float64), want, rtol=TOLERANCE[dt], atol=TOLERANCE[dt] * 4)
    # the same artifact text with no cuBLAS: the generated tiled kernel, same numbers
    own = build_emulated(program, f"gemm_{dt}_own", str(tmp_path / "own"))
    assert own.blas_library is None
    before = gemms()
    for g, want in zip(own.main(*args), got):
        np.testing.assert_allclose(g.astype(np.float64), want.astype(np.float64),
                                   rtol=TOLERANCE[dt], atol=TOLERANCE[dt] * 4)
    assert gemms() == before


EPILOGUE = """func.func @main(%x: tensor<?x?xf32>, %w: tensor<?x?xf32>, %xi: tensor<?x?xi32>, %wi: tensor<?x?xi32>)
    -> (tensor<?x?xf32>, tensor<?x?xf32>, tensor<?x?xi32>) {
  %0 = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
  %1 = stablehlo.tanh %0 : tensor<?x?xf32>
  %2 = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
  %3 = stablehlo.dot_general %xi, %wi, contracting_dims = [1] x [0] : (tensor<?x?xi32>, tensor<?x?xi32>) -> tensor<?x?xi32>
  return %1, %2, %3 : tensor<?x?xf32>, tensor<?x?xf32>, tensor<?x?xi32>
}"""  # noqa: E501


@pytest.fixture(scope="module")
def mixed(tmp_path_factory):
    return build_emulated(EPILOGUE, "gemm_mixed", str(tmp_path_factory.mktemp("mixed")), blas=True)


def mixed_inputs(rows=70, inner=20, cols=9):
    rng = np.random.default_rng(1)
    x = rng.standard_normal((rows, inner)).astype(np.float32)
    w = rng.standard_normal((inner, cols)).astype(np.float32)
    return x, w, rng.integers(-9, 9, x.shape, dtype=np.int32), rng.integers(-9, 9, w.shape, dtype=np.int32)


def test_float_dots_go_to_cublas_their_epilogues_to_a_kernel_after(mixed):
    """A dot with a fused epilogue: cuBLAS's product in a temporary, then the epilogue as a
    kernel of its own; cuBLAS takes no integers. Of three dots, two GEMMs."""
    x, w, xi, wi = mixed_inputs()
    before = gemms()
    mixed.reset_alloc_stats(device=True)
    t, p, q = mixed.main(x, w, xi, wi)
    assert gemms() - before == 2
    np.testing.assert_allclose(t, np.tanh(x.astype(np.float64) @ w), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(p, x.astype(np.float64) @ w, rtol=1e-5, atol=1e-5)
    np.testing.assert_array_equal(q, xi @ wi)
    assert mixed.alloc_stats(device=True)["bytes_in_use"] == 0  # the product's temporary too


def test_empty_dims(mixed):
    """No rows: nothing to compute; no contraction: zeros, from the tiled kernel."""
    for rows, inner in [(0, 20), (5, 0)]:
        x, w, xi, wi = mixed_inputs(rows, inner)
        before = gemms()
        _, p, _ = mixed.main(x, w, xi, wi)
        assert gemms() == before
        np.testing.assert_array_equal(p, np.zeros((rows, 9), np.float32))


def test_a_failing_gemm_is_an_error_and_leaves_nothing_behind(mixed, monkeypatch):
    args = mixed_inputs()
    mixed.main(*args)
    monkeypatch.setenv("AOT_CUBLAS_DOUBLE_FAIL", "gemm")
    with pytest.raises(Exception, match=r"cuBLAS gemm failed \(status 13\) for 1x\[70,20\]x\[20,9\]"):
        mixed.main(*args)
    monkeypatch.delenv("AOT_CUBLAS_DOUBLE_FAIL")
    assert mixed.alloc_stats(device=True)["bytes_in_use"] == 0
    _, p, _ = mixed.main(*args)
    np.testing.assert_allclose(p, args[0].astype(np.float64) @ args[1], rtol=1e-5, atol=1e-5)


def test_no_handle_falls_back_to_the_tiled_kernel(tmp_path, monkeypatch):
    lib = build_emulated(EPILOGUE, "gemm_nohandle", str(tmp_path), blas=True)
    monkeypatch.setenv("AOT_CUBLAS_DOUBLE_FAIL", "create")
    args = mixed_inputs()
    before = gemms()
    _, p, _ = lib.main(*args)
    assert gemms() == before
    np.testing.assert_allclose(p, args[0].astype(np.float64) @ args[1], rtol=1e-5, atol=1e-5)


def test_a_named_cublas_that_cannot_load_is_an_error(tmp_path, monkeypatch):
    lib = build_emulated(EPILOGUE, "gemm_missing", str(tmp_path), blas=True)
    monkeypatch.setenv("AOT_CUBLAS_LIBRARY", str(tmp_path / "libcublas_missing.so"))
    with pytest.raises(Exception, match=r"cuBLAS not loaded: .*libcublas_missing\.so"):
        lib.main(*mixed_inputs())
    assert lib.blas_library is None
    assert os.path.exists(blas_double_library())
