"""The cuda target's kernels on the emulated grid (tests/tooling/gpu_emu): the NVPTX-flavoured
IR that becomes the PTX, compiled for the host, launched with the threads of each block as OS
threads. A fixed sample here; `make test-gpu` runs the whole conformance corpus."""
import ctypes
import os

import numpy as np
import pytest

from tooling.gpu_emu import blas_double_library, build_emulated
from tooling.gpu_emu.corpus_run import run_case

SAMPLE = ["model_mlp", "model_softmax", "model_layernorm", "cumsum_axis1", "sort_2d_last_axis_i32",
          "reduce_argmax_variadic", "model_classifier_argmax_topk",
          "gather_take_rows", "scatter_add_duplicates", "fori_loop_dynamic_trip", "top_k_rows",
          "max_pool_3x3_stride2_same", "conv2d_nhwc_same", "jnp_unique_fixed_size",
          "bf16_reduce_sum", "cond_inside_loop", "cho_solve_spd", "triangular_solve_right_batched_f64"]
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


BLAS_SAMPLE = ["model_mlp", "dot_general_batched_transposed", "f16_matmul", "model_attention_single_head"]


@pytest.mark.parametrize("name", SAMPLE)
def test_conformance_case_matches_jax(name, tmp_path):
    status, detail = run_case(name, str(tmp_path))
    assert status == "passed", detail


@pytest.mark.parametrize("name", BLAS_SAMPLE)
def test_conformance_case_with_cublas_matches_jax(name, tmp_path):
    gemms = ctypes.CDLL(blas_double_library()).aot_cublas_double_gemms
    before = gemms()
    status, detail = run_case(name, str(tmp_path), blas=True)
    assert status == "passed", detail
    assert gemms() > before  # its matmuls ran on the cuBLAS double


DYNAMIC = """func.func @main(%x: tensor<?x?xf32>, %y: tensor<?xf32>) -> (tensor<?x?xf32>, tensor<?xf32>) {
  %0 = stablehlo.tanh %x : tensor<?x?xf32>
  %c0 = stablehlo.constant dense<0.0> : tensor<f32>
  %1 = stablehlo.reduce(%0 init: %c0) applies stablehlo.add across dimensions = [1] : (tensor<?x?xf32>, tensor<f32>) -> tensor<?xf32>
  %2 = stablehlo.add %1, %y : tensor<?xf32>
  return %0, %2 : tensor<?x?xf32>, tensor<?xf32>
}"""  # noqa: E501


def test_one_build_runs_every_shape(tmp_path):
    """Grid-stride loops cover any extent: rows from 0 to more than a block's threads times the
    emulator's blocks, so some threads take several rows and some none."""
    lib = build_emulated(DYNAMIC, "dyn", str(tmp_path))
    rng = np.random.default_rng(1)
    for rows, cols in [(0, 5), (1, 1), (3, 7), (257, 3), (2500, 4)]:
        x = rng.standard_normal((rows, cols)).astype(np.float32)
        y = rng.standard_normal(rows).astype(np.float32)
        t, s = lib.main(x, y)
        np.testing.assert_allclose(t, np.tanh(x), rtol=2e-6, atol=1e-6)
        np.testing.assert_allclose(s, np.tanh(x.astype(np.float64)).sum(1) + y, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("form", ["hlo", "ldhlo"])
def test_the_rfc_program_every_size(form, tmp_path):
    with open(os.path.join(ROOT, "tests", "data", "rfc", f"rfc_dynamic_slice.{form}.mlir")) as f:
        lib = build_emulated(f.read(), f"rfc_{form}", str(tmp_path))
    rng = np.random.default_rng(0)
    arg0 = rng.random((4, 8), np.float32)
    for a in (1, 2):
        for b in (1, 2, 3, 4):
            arg2 = rng.random((2 * a, 2 * b), np.float32)
            arg3 = rng.random((2 * b, 5), np.float32)
            got = lib.main(arg0, np.array([a, b], np.int64), arg2, arg3)
            want = (arg0[:2 * a, :2 * b].astype(np.float64) + arg2) @ arg3
            np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)



ROW_REDUCTIONS = """func.func @main(%x: tensor<?x?xf32>, %k: tensor<?x?xi32>) -> (tensor<?xf32>, tensor<?xi32>, tensor<?xf32>) {
  %zf = stablehlo.constant dense<0.0> : tensor<f32>
  %zi = stablehlo.constant dense<0> : tensor<i32>
  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %e = stablehlo.exponential %x : tensor<?x?xf32>
  %s = stablehlo.reduce(%e init: %zf) applies stablehlo.add across dimensions = [1] : (tensor<?x?xf32>, tensor<f32>) -> tensor<?xf32>
  %t = stablehlo.reduce(%k init: %zi) applies stablehlo.add across dimensions = [1] : (tensor<?x?xi32>, tensor<i32>) -> tensor<?xi32>
  %m = stablehlo.reduce(%x init: %ninf) applies stablehlo.maximum across dimensions = [1] : (tensor<?x?xf32>, tensor<f32>) -> tensor<?xf32>
  return %s, %t, %m : tensor<?xf32>, tensor<?xi32>, tensor<?xf32>
}"""  # noqa: E501


def test_row_reductions_go_one_warp_per_row(tmp_path):
    """Each row's elements folded by a warp's 32 lanes, then combined by butterfly shuffles:
    rows shorter and longer than a warp, none, and more rows than the emulated grid's warps."""
    from aot.driver import Compilation, Options
    c = Compilation(ROW_REDUCTIONS, "r.mlir", Options(name="r", emit="ptx", target="cuda"))
    tm, _, optimized, kernels = c.llvm()
    assert "shfl.sync.bfly" in tm.emit_assembly(optimized)
    assert {k.launch.lanes for k in kernels} == {32}
    lib = build_emulated(ROW_REDUCTIONS, "rows", str(tmp_path))
    rng = np.random.default_rng(3)
    for rows, cols in [(0, 4), (1, 1), (3, 31), (2, 33), (70, 100), (40, 1000)]:
        x = rng.standard_normal((rows, cols)).astype(np.float32)
        k = rng.integers(-1000, 1000, (rows, cols)).astype(np.int32)
        s, t, m = lib.main(x, k)
        np.testing.assert_allclose(s, np.exp(x.astype(np.float64)).sum(1), rtol=2e-6)
        np.testing.assert_array_equal(t, k.sum(1, dtype=np.int32))  # integers: bit-exact
        np.testing.assert_array_equal(m, x.max(1) if cols else m)


CONCAT_OF_BUFFERS = """func.func @main(%a: tensor<?x8x4x16xf32>, %b: tensor<?x3x4x16xf32>, %c: tensor<?x5x4x16xf32>) -> tensor<?x16x4x16xf32> {
  %0 = stablehlo.concatenate %a, %b, %c, dim = 1 : (tensor<?x8x4x16xf32>, tensor<?x3x4x16xf32>, tensor<?x5x4x16xf32>) -> tensor<?x16x4x16xf32>
  %1 = stablehlo.exponential %0 : tensor<?x16x4x16xf32>
  return %1 : tensor<?x16x4x16xf32>
}"""  # noqa: E501


def test_a_concatenation_reads_the_selected_buffer(tmp_path):
    """Buffers concatenated along an outer dim are read once, from the buffer a select picks
    (pointer and dims): the device code and its vector accesses take that buffer too."""
    lib = build_emulated(CONCAT_OF_BUFFERS, "concat_buffers", str(tmp_path))
    rng = np.random.default_rng(3)
    for batch in (1, 3):
        xs = [rng.standard_normal((batch, c, 4, 16)).astype(np.float32) for c in (8, 3, 5)]
        np.testing.assert_allclose(lib.main(*xs), np.exp(np.concatenate(xs, 1)), rtol=2e-6)
