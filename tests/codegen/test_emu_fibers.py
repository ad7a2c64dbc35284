"""The emulated grid's fiber mode (AOT_EMU_FIBERS=1, tests/tooling/gpu_emu/emu.c): a block's
threads as fibers on one OS thread, giving way only at barriers and warp-shuffle waits, the
mode `make gpu-kit-check` runs the kit's large matmuls in. A tiled shared-memory matmul (two
barriers per slab) and full and row reductions (warp shuffles, then a barrier) against numpy,
and bit for bit against the default mode (OS threads): the kernels add in a fixed order, so
the two modes must agree exactly; so must the counts for the time model."""
import os
import subprocess

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


WAITS = r"""
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
uint32_t aot_emu_tid_x(void);
void aot_emu_barrier(int32_t);
int32_t aot_emu_shfl_bfly_i32(int32_t, int32_t, int32_t, int32_t);
int aot_emu_launch(const char *, int64_t *, const uint32_t *, uint32_t);
static int32_t before[64], after[64], partner[64];
/* Thread 0 leaves early; the others' barrier opens without it, as the finished are not waited for. */
static void early_exit(int64_t *p) {
    (void)p;
    uint32_t t = aot_emu_tid_x();
    if (t == 0) return;
    before[t] = 1;
    aot_emu_barrier(0);
    after[t] = before[64 - t];
    partner[t] = aot_emu_shfl_bfly_i32(-1, (int32_t)t, 1, 31);
}
/* Thread 0 waits at the barrier, its warp's others at a shuffle: stuck on a GPU too. */
static void split(int64_t *p) {
    (void)p;
    if (aot_emu_tid_x() == 0) aot_emu_barrier(0);
    else aot_emu_shfl_bfly_i32(-1, 1, 1, 31);
}
typedef struct { const char *name; void (*entry)(int64_t *); int32_t params; uint32_t block[3]; } kernel;
const kernel aot_emu_kernels[] = {{"early_exit", early_exit, 0, {64, 1, 1}}, {"split", split, 0, {64, 1, 1}}};
const int32_t aot_emu_kernel_count = 2;
int main(void) {
    uint32_t dims[6] = {1, 1, 1, 64, 1, 1};
    int early = aot_emu_launch("early_exit", NULL, dims, 0);
    int afters = 0, partners = 0;
    for (int t = 1; t < 64; t++) afters += after[t], partners += t > 1 ? partner[t] : 0;
    printf("%d %d %d %d\n", early, afters, partners, aot_emu_launch("split", NULL, dims, 0));
    return 0;
}
"""


def test_fibers_wait_for_unfinished_threads_only(tmp_path):
    """A barrier opens when every thread still running has reached it (a thread that returned
    is not waited for), and threads waiting at different places fail the launch (4) rather
    than hang. Kernels written in C against emu.c's entry points."""
    from aot import toolchain
    from tooling.gpu_emu import HERE
    src, exe = tmp_path / "waits.c", tmp_path / "waits"
    src.write_text(WAITS)
    subprocess.run([toolchain.c_compiler(), "-O1", "-pthread", str(src), os.path.join(HERE, "emu.c"),
                    "-o", str(exe)], check=True)
    run = subprocess.run([str(exe)], capture_output=True, text=True, timeout=60,
                         env={**os.environ, "AOT_EMU_FIBERS": "1"})
    early, afters, partners, split = map(int, run.stdout.split())
    # every lane but 0 saw its mirror's write from before the barrier, and its partner's tid
    # (lane 1's partner, 0, has gone: its value is not checked)
    assert (early, afters, partners, split) == (0, 63, sum(t ^ 1 for t in range(2, 64)), 4)
    assert "wait at different places" in run.stderr
