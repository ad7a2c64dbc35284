"""A kLoop fusion whose reshape splits the output's dims finer walks the finer dims
(loops.refined_loops), and a reshape whose operand's dims are runs of the output's (or of
the loops' parts) reads them without dividing (data_movement._reshape_parts). MViT's relative
positions, [b, t, h, w, kt, kh, kw] summed from three broadcasts and reshaped to the
[b, t h w, kt kh kw] scores they are added to, divided each index into six parts per element
(20 ns an element). Checked on the loop-stage IR and against numpy on 1, 2 and 7 threads."""
import numpy as np
import pytest

import aot
from codegen.test_row_split import run_threads
from lowering.codegen.llvm.collapse import collapsed_loops
from lowering.target import WHOLE_ROWS, host_target
from passes.test_tiny_transpose import loop_module, nest, only_kernel, t

REL_POS = """func.func @main(%a: {scores}, %h: {h}, %w: {w}, %t: {tt}) -> {scores} {{
  %bh = stablehlo.broadcast_in_dim %h, dims = [0, 1, 2, 3, 5] : ({h}) -> {big}
  %bw = stablehlo.broadcast_in_dim %w, dims = [0, 1, 2, 3, 6] : ({w}) -> {big}
  %bt = stablehlo.broadcast_in_dim %t, dims = [0, 1, 2, 3, 4] : ({tt}) -> {big}
  %s = stablehlo.add %bh, %bw : {big}
  %s2 = stablehlo.add %s, %bt : {big}
  %r = stablehlo.reshape %s2 : ({big}) -> {scores}
  %o = stablehlo.add %a, %r : {scores}
  return %o : {scores}
}}"""


def rel_pos(b, q, k) -> tuple:
    """The program for batch b, query grid q = (T, H, W) and key grid k, and its shapes."""
    big = (b,) + q + k
    shapes = dict(scores=(b, int(np.prod(q)), int(np.prod(k))), h=(b,) + q + (k[1],),
                  w=(b,) + q + (k[2],), tt=(b,) + q + (k[0],))
    return REL_POS.format(big=t(big), **{n: t(s) for n, s in shapes.items()}), shapes


def divisions(kernel) -> int:
    return sum(o.name in ("arith.divui", "arith.remui") for o in kernel.walk())


def test_the_loops_walk_the_reshapes_parts():
    """The keys' dim splits into its parts; the queries' (not trailing) is divided once a
    row (2 divisions and 2 remainders, not 6 of each), and the host still splits the nest
    over the threads as [2, 144] (collapse.py), each task walking the parts whole."""
    text, _ = rel_pos(2, (4, 6, 6), (4, 3, 3))
    kernel = only_kernel(loop_module(text))
    assert nest(kernel) == [2, 144, 4, 3, 3]
    assert divisions(kernel) == 4
    assert len(collapsed_loops(kernel, host_target())) == 2


def test_dim_0_and_long_rows_keep_their_loops():
    """Dim 0 is what the host splits when nothing collapses, and trailing dims of more than
    WHOLE_ROWS elements would be split by the host too: neither is refined."""
    text, _ = rel_pos(2, (1, 2, 2), (8, 16, 16))
    assert 8 * 16 * 16 > WHOLE_ROWS
    assert nest(only_kernel(loop_module(text))) == [2, 4, 2048]
    text = """func.func @main(%x: tensor<2x3xf32>, %y: tensor<6xf32>) -> tensor<6xf32> {
  %r = stablehlo.reshape %x : (tensor<2x3xf32>) -> tensor<6xf32>
  %o = stablehlo.add %r, %y : tensor<6xf32>
  return %o : tensor<6xf32>
}"""
    assert nest(only_kernel(loop_module(text))) == [6]


def test_a_coarser_operand_is_read_without_dividing():
    """[97, 16] -> rows 1: -> [16, 96] -> [16, 4, 4, 6] (MViT's tokens to a pool's clip):
    the output is already the finer shape; the operand's index is a sum of products."""
    text = """func.func @main(%x: tensor<97x16xf32>) -> tensor<16x4x4x6xf32> {
  %s = stablehlo.slice %x [1:97, 0:16] : (tensor<97x16xf32>) -> tensor<96x16xf32>
  %n = stablehlo.negate %s : tensor<96x16xf32>
  %p = stablehlo.transpose %n, dims = [1, 0] : (tensor<96x16xf32>) -> tensor<16x96xf32>
  %r = stablehlo.reshape %p : (tensor<16x96xf32>) -> tensor<16x4x4x6xf32>
  return %r : tensor<16x4x4x6xf32>
}"""
    kernel = only_kernel(loop_module(text))
    assert nest(kernel) == [16, 4, 4, 6] and divisions(kernel) == 0
    x = np.random.default_rng(1).standard_normal((97, 16)).astype(np.float32)
    lib = aot.compile(text, name="coarser_reshape")
    np.testing.assert_array_equal(run_threads(lib, x), -x[1:].T.reshape(16, 4, 4, 6))


def test_splits_that_do_not_nest_keep_the_output_loops():
    """[6, 4] read as [4, 6]: the cuts 4 and 6 do not nest, so the loops stay the output's
    and the reshape divides, as before."""
    text = """func.func @main(%x: tensor<4x6xf32>, %y: tensor<6x4xf32>) -> tensor<6x4xf32> {
  %r = stablehlo.reshape %x : (tensor<4x6xf32>) -> tensor<6x4xf32>
  %o = stablehlo.add %r, %y : tensor<6x4xf32>
  return %o : tensor<6x4xf32>
}"""
    kernel = only_kernel(loop_module(text))
    assert nest(kernel) == [6, 4] and divisions(kernel) > 0
    rng = np.random.default_rng(2)
    x, y = (rng.standard_normal(s).astype(np.float32) for s in ((4, 6), (6, 4)))
    lib = aot.compile(text, name="unnested_reshape")
    np.testing.assert_array_equal(run_threads(lib, x, y), x.reshape(6, 4) + y)


@pytest.mark.parametrize("b, q, k", [
    (2, (4, 6, 6), (4, 3, 3)), (1, (2, 7, 5), (2, 7, 5)), (3, (1, 4, 4), (1, 2, 2)),
    (2, (1, 2, 2), (8, 16, 16)),
])
def test_relative_positions_match_numpy(b, q, k):
    text, shapes = rel_pos(b, q, k)
    rng = np.random.default_rng(4)
    a, h, w, tt = (rng.standard_normal(shapes[n]).astype(np.float32)
                   for n in ("scores", "h", "w", "tt"))
    big = (h[..., None, :, None] + w[..., None, None, :]) + tt[..., :, None, None]
    want = a + big.reshape(shapes["scores"])
    lib = aot.compile(text, name="rel_pos")
    np.testing.assert_array_equal(run_threads(lib, a, h, w, tt), want)
