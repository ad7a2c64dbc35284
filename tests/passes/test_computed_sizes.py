"""Sizes read where the shape code has them: transformers' GPT-2 with a `?` batch and
sequence reads the sizes of an embedding lookup's gather, of a dynamic reshape flattening
[b, s, 8] to [b * s, 8] and of a dynamic iota, each a `get_dimension_size` that made its
producer a kernel of its own (82 kernels, 58 now). cse.py reads a gather's batch dims from
its indices (its `same_size` rule), a dynamic iota's from its shape operand, and replaces the
size of a reshape's computed element (b * s) by that computation. Checked on the fused
stage's text (one float kernel; no size read from the gather, reshape or iota), and against
numpy."""
import numpy as np

import aot
from lowering.frontend.parser import parse_module
from lowering.frontend.printer import print_module
from lowering.passes.pipeline import run_pipeline

PROGRAM = """
func.func public @main(%ids: tensor<?x?xi32>, %table: tensor<10x8xf32>, %bias: tensor<8xf32>)
    -> tensor<?x8xf32> {
  %e = "stablehlo.gather"(%table, %ids) {dimension_numbers = #stablehlo.gather<offset_dims = [2],
      collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 2>,
      slice_sizes = array<i64: 1, 8>} : (tensor<10x8xf32>, tensor<?x?xi32>) -> tensor<?x?x8xf32>
  %b = stablehlo.get_dimension_size %e, dim = 0 : (tensor<?x?x8xf32>) -> tensor<i32>
  %s = stablehlo.get_dimension_size %e, dim = 1 : (tensor<?x?x8xf32>) -> tensor<i32>
  %bs = stablehlo.multiply %b, %s : tensor<i32>
  %bs1 = stablehlo.reshape %bs : (tensor<i32>) -> tensor<1xi32>
  %c8 = stablehlo.constant dense<8> : tensor<1xi32>
  %shape = stablehlo.concatenate %bs1, %c8, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
  %r = stablehlo.dynamic_reshape %e, %shape : (tensor<?x?x8xf32>, tensor<2xi32>) -> tensor<?x8xf32>
  %n = stablehlo.get_dimension_size %r, dim = 0 : (tensor<?x8xf32>) -> tensor<i32>
  %n1 = stablehlo.reshape %n : (tensor<i32>) -> tensor<1xi32>
  %bshape = stablehlo.concatenate %n1, %c8, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
  %bb = stablehlo.dynamic_broadcast_in_dim %bias, %bshape, dims = [1]
      : (tensor<8xf32>, tensor<2xi32>) -> tensor<?x8xf32>
  %i = "stablehlo.dynamic_iota"(%bshape) {iota_dimension = 0 : i64} : (tensor<2xi32>) -> tensor<?x8xi32>
  %m = stablehlo.get_dimension_size %i, dim = 0 : (tensor<?x8xi32>) -> tensor<i32>
  %m1 = stablehlo.reshape %m : (tensor<i32>) -> tensor<1xi32>
  %ishape = stablehlo.concatenate %m1, %c8, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
  %ib = stablehlo.dynamic_broadcast_in_dim %bias, %ishape, dims = [1]
      : (tensor<8xf32>, tensor<2xi32>) -> tensor<?x8xf32>
  %if = stablehlo.convert %i : (tensor<?x8xi32>) -> tensor<?x8xf32>
  %x = stablehlo.add %r, %bb : tensor<?x8xf32>
  %y = stablehlo.multiply %x, %if : tensor<?x8xf32>
  %out = stablehlo.add %y, %ib : tensor<?x8xf32>
  return %out : tensor<?x8xf32>
}"""


def test_sizes_read_from_indices_and_shape_code():
    fused = print_module(run_pipeline(parse_module(PROGRAM, "sizes.mlir"), "fused"))
    sizes = [line for line in fused.splitlines() if "get_dimension_size" in line]
    assert len(sizes) == 2 and all("(%arg0)" in line for line in sizes), fused  # was 5
    floats = [line for line in fused.splitlines()
              if "fusion_kind" in line and "xf32>" in line.rsplit("->", 1)[-1]]
    assert len(floats) == 1, fused  # the gather, reshape, broadcasts and iota in one kernel


def test_numbers_match_numpy(tmp_path):
    lib = aot.compile(PROGRAM, name="computedsizes", output_dir=str(tmp_path))
    rng = np.random.default_rng(5)
    table, bias = rng.standard_normal((10, 8)).astype(np.float32), \
        rng.standard_normal(8).astype(np.float32)
    for b, s in ((2, 3), (1, 1), (3, 0)):
        ids = rng.integers(0, 10, (b, s)).astype(np.int32)
        r = table[ids].reshape(b * s, 8)
        iota = np.arange(b * s, dtype=np.float32)[:, None]
        np.testing.assert_allclose(lib.main(ids, table, bias), (r + bias) * iota + bias,
                                   rtol=1e-6)
