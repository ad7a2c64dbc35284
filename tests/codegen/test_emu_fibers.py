"""The emulated grid's fiber mode (AOT_EMU_FIBERS=1, tests/tooling/gpu_emu/emu.c): a block's
threads as fibers on one OS thread, giving way only at barriers and warp-shuffle waits, the
mode `make gpu-kit-check` runs the kit's large matmuls in. A tiled shared-memory matmul (two
barriers per slab) and full and row reductions (warp shuffles, then a barrier) against numpy,
and bit for bit against the default mode (OS threads): the kernels add in a fixed order, so
the two modes must agree exactly; so must the counts for the time model."""
import os

import numpy as np
import pytest

from tooling.gpu_emu import build_counting, build_emulated

MATMUL = """func.func @main(%a: tensor<?x?xf32>, %b: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}"""  # noqa: E501

SUMS = """func.func @main(%x: tensor<?x?xf32>) -> (tensor<f32>, tensor<?xf32>) {
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %s = stablehlo.reduce(%x init: %z) applies stablehlo.add across dimensions = [0, 1] : (tensor<?x?xf32>, tensor<f32>) -> tensor<f32>
  %r = stablehlo.reduce(%x init: %z) applies stablehlo.add across dimensions = [1] : (tensor<?x?xf32>, tensor<f32>) -> tensor<?xf32>
  return %s, %r : tensor<f32>, tensor<?xf32>
}"""  # noqa: E501


def both_modes(monkeypatch, fn):
    """fn() in fiber mode, then in OS-thread mode."""
    monkeypatch.setenv("AOT_EMU_FIBERS", "1")
    fibers = fn()
    monkeypatch.setenv("AOT_EMU_FIBERS", "0")
    return fibers, fn()


def test_tiled_matmul_in_fibers(monkeypatch, tmp_path):
    lib = build_emulated(MATMUL, "fm", str(tmp_path))
    rng = np.random.default_rng(0)
    a = rng.standard_normal((130, 70)).astype(np.float32)  # ragged tiles and slabs
    b = rng.standard_normal((70, 67)).astype(np.float32)
    fibers, threads = both_modes(monkeypatch, lambda: np.asarray(lib.main(a, b)))
    np.testing.assert_allclose(fibers, a.astype(np.float64) @ b, rtol=1e-5, atol=1e-5)
    np.testing.assert_array_equal(fibers, threads)


@pytest.fixture(scope="module")
def sums(tmp_path_factory):
    return build_emulated(SUMS, "fs", str(tmp_path_factory.mktemp("fs")))


@pytest.mark.parametrize("shape", [(1, 33), (3, 1000), (40, 257)])
def test_shuffle_reductions_in_fibers(shape, sums, monkeypatch):
    lib = sums
    x = np.random.default_rng(1).standard_normal(shape).astype(np.float32)
    fibers, threads = both_modes(monkeypatch, lambda: [np.asarray(r) for r in lib.main(x)])
    np.testing.assert_allclose(fibers[0], x.astype(np.float64).sum(), rtol=1e-5, atol=1e-4)
    np.testing.assert_allclose(fibers[1], x.astype(np.float64).sum(axis=1), rtol=1e-5, atol=1e-5)
    for f, t in zip(fibers, threads):
        np.testing.assert_array_equal(f, t)


def test_counts_in_fibers(monkeypatch, tmp_path):
    """The counting pointer is per thread in either mode: the same launch lines (but the
    buffers' device addresses)."""
    a = np.ones((70, 40), np.float32)
    monkeypatch.setenv("AOT_CUDA_DOUBLE_KERNELS", os.environ.get("AOT_CUDA_DOUBLE_KERNELS", ""))
    lib, _ = build_counting(MATMUL, "fc", str(tmp_path))
    lines = {}
    for mode in ("1", "0"):
        monkeypatch.setenv("AOT_EMU_FIBERS", mode)
        monkeypatch.setenv("AOT_EMU_COUNT", str(tmp_path / f"counts{mode}"))
        lib.main(a, a.T.copy())
        lines[mode] = [line.split()[:13] for line in (tmp_path / f"counts{mode}").read_text().splitlines()]
    assert lines["1"] and lines["1"] == lines["0"]
    assert int(lines["1"][0][11]) > 0  # flops counted
