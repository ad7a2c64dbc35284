"""Launch records (lowering/codegen/cuda/launch.py): elementwise kernels cover their whole
output with a thread per element, the printed loop IR and `--report` show the launch, the
host launches what the record says (the driver double sees the grid and block), kernel
handles are looked up once per module load, and 2-D/3-D grids run right on the emulated
grid."""
import ctypes

import numpy as np
import pytest

from aot.driver import Compilation, Options
from lowering.frontend.printer import print_module
from tooling.gpu_emu import build_emulated, double_library

ELEMENTWISE = """func.func @main(%x: tensor<SHAPExf32>, %y: tensor<SHAPExf32>) -> tensor<SHAPExf32> {
  %0 = stablehlo.exponential %x : tensor<SHAPExf32>
  %1 = stablehlo.multiply %0, %y : tensor<SHAPExf32>
  return %1 : tensor<SHAPExf32>
}"""

# [B, M, K] x [B, K, N]: the tiled matmul, a block per tile, a 3-D grid
BATCHED_DOT = """func.func @main(%a: tensor<3x130x8xf32>, %b: tensor<3x8x70xf32>) -> tensor<3x130x70xf32> {
  %0 = stablehlo.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<3x130x8xf32>, tensor<3x8x70xf32>) -> tensor<3x130x70xf32>
  return %0 : tensor<3x130x70xf32>
}"""  # noqa: E501


def program(shape):
    return ELEMENTWISE.replace("SHAPE", "x".join(map(str, shape)))


def kernels(text):
    c = Compilation(text, "t.mlir", Options(name="t", emit="ptx", target="cuda"))
    return c, c.llvm()[3]


@pytest.mark.parametrize("shape,grid,threads", [((4, 1024), "16x1x1", 4096),
                                                ((8, 8, 256, 64), "1024x1x1", 262144)])
def test_elementwise_kernels_take_every_element(shape, grid, threads):
    """A [4, 1024] elementwise kernel launched 4 threads (one per row of dim 0): now one per
    element, consecutive threads on consecutive elements; [8, 8, 256, 64], a thread per 4
    consecutive elements (vector loads: test_cuda_vector.py), 262144 threads still fill the
    devices."""
    _, (k,) = kernels(program(shape))
    assert k.launch.elementwise and k.launch.tiles == (1,) * len(shape)
    each = ("a thread per output element (flattened, consecutive threads on consecutive elements)"
            if threads == 4096 else "a thread per 4 consecutive output elements (flattened; vector "
            "loads and stores when the buffers are 16-byte aligned, else one element at a time)")
    assert k.describe() == f"grid {grid}, block 256x1x1: {each}; {threads} threads launched"
    opts = Options(name="t", emit="loops", target="cuda")
    loops = print_module(Compilation(program(shape), "t.mlir", opts).run_stages("loops"))
    ones = ", ".join(["1"] * len(shape))
    assert f"aot.parallel_tiles = array<i64: {ones}>" in loops  # the schedule's mark on the call


def test_dynamic_dims_give_the_rule_not_a_count():
    _, (k,) = kernels(program(("?", 64)))
    assert k.dims is None and k.describe().startswith(
        "grid ceil(iterations / 1024) blocks from 540672 iterations on, else ceil(iterations / 256) "
        "(at most 8192), grid-stride beyond")  # from 540672 elements on, 4 a thread (vector.py)
    assert "at most 2097152 threads launched (the largest grid)" in k.describe()
    _, (k,) = kernels(program(("?", 63)))  # rows of 63: one element a thread
    assert k.describe().startswith("grid ceil(iterations / 256) blocks (at most 8192), grid-stride beyond")


def test_the_batched_matmul_gets_a_3d_grid():
    """[3, 130, 70]: 18 tiles of 64 x 64 or 45 of 32 x 32 would be fewer than two per SM, so
    16 x 16 ones (matmul.tile_side): x 5 column tiles, y 9 row tiles, z the batch of 3."""
    _, ks = kernels(BATCHED_DOT)
    (k,) = [k for k in ks if k.launch.multi_grid]
    assert k.launch.tiles == (1, 16, 16) and k.launch.lanes == 256
    assert k.describe().startswith("grid 5x9x3, block 256x1x1: a block per tile of 1 x 16 x 16 of the output")


def double():
    lib = ctypes.CDLL(double_library())
    lib.aot_cuda_double_function_lookups.restype = ctypes.c_long
    return lib


def last_launch():
    out = (ctypes.c_uint * 7)()
    double().aot_cuda_double_last_launch(out)
    return tuple(out)


@pytest.mark.parametrize("shape", [(4, 1024), (8, 8, 256, 64), (0, 5)])
def test_elementwise_results_on_the_emulated_grid(shape, tmp_path):
    lib = build_emulated(program(shape), "ew", str(tmp_path))
    rng = np.random.default_rng(0)
    x, y = (rng.standard_normal(shape).astype(np.float32) for _ in range(2))
    lookups = double().aot_cuda_double_function_lookups()
    for _ in range(3):
        np.testing.assert_allclose(lib.main(x, y), np.exp(x.astype(np.float64)) * y, rtol=2e-6, atol=1e-30)
    n = int(np.prod(shape))
    if n:  # the driver saw the record's launch: ceil(n / 256) blocks (at most 8192) of 256,
        # of 4 elements a thread for [8, 8, 256, 64] (vector.py)
        per_thread = 4 if n == 8 * 8 * 256 * 64 else 1
        assert last_launch() == (min(-(-n // 256 // per_thread), 8192), 1, 1, 256, 1, 1, 0)
        # the kernel's handle: looked up on its first launch, kept for the module's life
        assert double().aot_cuda_double_function_lookups() - lookups == 1


def test_a_3d_grid_on_the_emulated_grid(tmp_path, monkeypatch):
    monkeypatch.setenv("AOT_EMU_MAX_BLOCKS", "256")  # run the whole 5 x 9 x 3 grid as launched
    lib = build_emulated(BATCHED_DOT, "bdot", str(tmp_path))
    rng = np.random.default_rng(1)
    a = rng.standard_normal((3, 130, 8)).astype(np.float32)
    b = rng.standard_normal((3, 8, 70)).astype(np.float32)
    np.testing.assert_allclose(lib.main(a, b), np.einsum("bmk,bkn->bmn", a.astype(np.float64), b),
                               rtol=1e-5, atol=1e-5)
    assert last_launch() == (5, 9, 3, 256, 1, 1, 0)


SHAPE_FROM_A_KERNEL = """func.func @main(%x: tensor<?x?xf32>, %s: tensor<2xi32>) -> tensor<?x?xf32> {
  %s2 = stablehlo.add %s, %s : tensor<2xi32>
  %y = stablehlo.dynamic_broadcast_in_dim %x, %s2, dims = [0, 1] : (tensor<?x?xf32>, tensor<2xi32>) -> tensor<?x?xf32>
  return %y : tensor<?x?xf32>
}"""  # noqa: E501


def test_the_shape_a_kernel_computes_comes_back_in_one_copy(tmp_path):
    """The host reads both values of the shape the first kernel computes: one copy of the
    buffer (it was one per value), then the result's copy back."""
    lib = build_emulated(SHAPE_FROM_A_KERNEL, "dynshape", str(tmp_path))
    d = double()
    d.aot_cuda_double_copies_to_host.restype = ctypes.c_long
    x = np.arange(6, dtype=np.float32).reshape(1, 6)
    before = d.aot_cuda_double_copies_to_host()
    np.testing.assert_array_equal(lib.main(x, np.array([2, 3], np.int32)), np.broadcast_to(x, (4, 6)))
    assert d.aot_cuda_double_copies_to_host() - before == 2


TWO_SHAPES = """func.func @main(%x: tensor<?x?xf32>, %s: tensor<2xi32>) -> (tensor<?x?xf32>, tensor<?x?xf32>) {
  %a = stablehlo.add %s, %s : tensor<2xi32>
  %m = stablehlo.multiply %s, %s : tensor<2xi32>
  %y = stablehlo.dynamic_broadcast_in_dim %x, %a, dims = [0, 1] : (tensor<?x?xf32>, tensor<2xi32>) -> tensor<?x?xf32>
  %z = stablehlo.dynamic_broadcast_in_dim %x, %m, dims = [0, 1] : (tensor<?x?xf32>, tensor<2xi32>) -> tensor<?x?xf32>
  return %y, %z : tensor<?x?xf32>, tensor<?x?xf32>
}"""  # noqa: E501


def test_every_small_buffer_the_host_reads_comes_back_in_one_copy(tmp_path, monkeypatch):
    """Two kernels compute two shapes into two buffers; the host reads the first, launches
    the first broadcast (which writes neither), then reads the second. Both buffers are in
    one device block (host.Arena), copied once: 3 copies to the host in all with the two
    results (it was 4: one per buffer), on every call. The block goes back after each call,
    and after a failed launch."""
    lib = build_emulated(TWO_SHAPES, "twoshapes", str(tmp_path))
    d = double()
    d.aot_cuda_double_copies_to_host.restype = ctypes.c_long
    x = np.array([[1.5]], np.float32)
    for s in ([2, 3], [3, 1]):
        before = d.aot_cuda_double_copies_to_host()
        y, z = lib.main(x, np.array(s, np.int32))
        assert d.aot_cuda_double_copies_to_host() - before == 3
        np.testing.assert_array_equal(y, np.full((2 * s[0], 2 * s[1]), 1.5, np.float32))
        np.testing.assert_array_equal(z, np.full((s[0] ** 2, s[1] ** 2), 1.5, np.float32))
        assert lib.alloc_stats(device=True)["bytes_in_use"] == 0
    monkeypatch.setenv("AOT_CUDA_DOUBLE_FAIL", "launch")
    with pytest.raises(Exception, match="CUDA kernel launch failed"):
        lib.main(x, np.array([2, 3], np.int32))
    assert lib.alloc_stats(device=True)["bytes_in_use"] == 0
    c, _ = kernels(TWO_SHAPES)
    from lowering.codegen.cuda.host import plan_arenas
    arenas = {id(a): a for a in plan_arenas(c.loops()).values()}
    assert sorted(a.size for a in arenas.values()) == [32, 32]  # main and its shape query: 2 x 16
