"""Dims a fusion kernel knows are equal: a dynamic dim the host passes twice, or passes and also
allocated an input with, is one value in the kernel (loops.shared_dims), so a reshape maps the
dims both shapes share straight through (data_movement._reshape_at) instead of dividing by a
run-time dim per element. Checked on the loop stage's text and against numpy at several
sizes."""
import re

import numpy as np
import pytest

import aot
from lowering.frontend.parser import parse_module
from lowering.frontend.printer import print_module
from lowering.passes.pipeline import run_pipeline

# attention's head split as jax.export writes it: [b, s, 128] -> [b, s, 4, 32] -> [b, 4, s, 32]
HEADS = """
func.func public @main(%x: tensor<?x?x128xf32>) -> tensor<?x4x?x32xf32> {
  %b = stablehlo.get_dimension_size %x, dim = 0 : (tensor<?x?x128xf32>) -> tensor<i32>
  %s = stablehlo.get_dimension_size %x, dim = 1 : (tensor<?x?x128xf32>) -> tensor<i32>
  %c4 = stablehlo.constant dense<4> : tensor<1xi32>
  %c32 = stablehlo.constant dense<32> : tensor<1xi32>
  %one = stablehlo.constant dense<1.0> : tensor<f32>
  %b1 = stablehlo.reshape %b : (tensor<i32>) -> tensor<1xi32>
  %s1 = stablehlo.reshape %s : (tensor<i32>) -> tensor<1xi32>
  %shape = stablehlo.concatenate %b1, %s1, %c4, %c32, dim = 0
      : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
  %r = stablehlo.dynamic_reshape %x, %shape : (tensor<?x?x128xf32>, tensor<4xi32>) -> tensor<?x?x4x32xf32>
  %t = stablehlo.transpose %r, dims = [0, 2, 1, 3] : (tensor<?x?x4x32xf32>) -> tensor<?x4x?x32xf32>
  %shape_t = stablehlo.concatenate %b1, %c4, %s1, %c32, dim = 0
      : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
  %ones = stablehlo.dynamic_broadcast_in_dim %one, %shape_t, dims = []
      : (tensor<f32>, tensor<4xi32>) -> tensor<?x4x?x32xf32>
  %out = stablehlo.add %t, %ones : tensor<?x4x?x32xf32>
  return %out : tensor<?x4x?x32xf32>
}
"""


def kernels(text: str) -> list:
    """The loop stage's kernel functions, as text."""
    loops = print_module(run_pipeline(parse_module(text, "heads.mlir"), "loops"))
    return [k for k in loops.split("func.func ")[1:] if "aot.kernel =" in k.splitlines()[0]]


def test_head_split_of_a_dynamic_batch_and_sequence_divides_by_nothing():
    (kernel,) = [k for k in kernels(HEADS) if "memref<?x4x?x32xf32>" in k]
    assert not re.search(r'"arith\.(div|rem)ui"', kernel)
    # the 1.0 broadcast over dims equal to the output's needs no test of a dim against 1
    assert '"arith.cmpi"' not in kernel


@pytest.mark.parametrize("b, s", [(1, 1), (3, 24), (2, 7), (1, 0)])
def test_head_split_against_numpy(b, s):
    lib = aot.compile(HEADS, name="heads")
    x = np.random.default_rng(s).standard_normal((b, s, 128)).astype(np.float32)
    want = x.reshape(b, s, 4, 32).transpose(0, 2, 1, 3) + 1.0
    np.testing.assert_allclose(lib.main(x), want, rtol=1e-6)


# shared leading and trailing dims around a middle that is regrouped: [6, 4, 2, 5] -> [6, 8, 5]
# (static) and [?, 6, 5] -> [?, 2, 3, 5] (dynamic batch): only the middle is linearised
REGROUP = """
func.func public @main(%x: tensor<6x4x2x5xf32>, %y: tensor<?x6x5xf32>)
    -> (tensor<6x8x5xf32>, tensor<?x2x3x5xf32>) {
  %r = stablehlo.reshape %x : (tensor<6x4x2x5xf32>) -> tensor<6x8x5xf32>
  %b = stablehlo.get_dimension_size %y, dim = 0 : (tensor<?x6x5xf32>) -> tensor<i32>
  %b1 = stablehlo.reshape %b : (tensor<i32>) -> tensor<1xi32>
  %c = stablehlo.constant dense<[2, 3, 5]> : tensor<3xi32>
  %shape = stablehlo.concatenate %b1, %c, dim = 0 : (tensor<1xi32>, tensor<3xi32>) -> tensor<4xi32>
  %yn = stablehlo.negate %y : tensor<?x6x5xf32>
  %q = stablehlo.dynamic_reshape %yn, %shape : (tensor<?x6x5xf32>, tensor<4xi32>) -> tensor<?x2x3x5xf32>
  %e = stablehlo.exponential %q : tensor<?x2x3x5xf32>
  return %r, %e : tensor<6x8x5xf32>, tensor<?x2x3x5xf32>
}
"""


def test_regrouped_middle_dims_against_numpy():
    lib = aot.compile(REGROUP, name="regroup")
    rng = np.random.default_rng(1)
    x = rng.standard_normal((6, 4, 2, 5)).astype(np.float32)
    for b in (1, 3):
        y = rng.standard_normal((b, 6, 5)).astype(np.float32)
        r, e = lib.main(x, y)
        np.testing.assert_array_equal(r, x.reshape(6, 8, 5))
        np.testing.assert_allclose(e, np.exp(-y).reshape(b, 2, 3, 5), rtol=1e-6)


# a DenseNet's channel concatenation of a fused operand, with a `?` batch: one loop nest per
# operand (loops.emit_concatenation), no select between the operands per element
CONCAT = """
func.func public @main(%x: tensor<?x5x7x6xf32>, %y: tensor<?x5x7x3xf32>) -> tensor<?x5x7x9xf32> {
  %ry = stablehlo.negate %y : tensor<?x5x7x3xf32>
  %c = stablehlo.concatenate %x, %ry, dim = 3
      : (tensor<?x5x7x6xf32>, tensor<?x5x7x3xf32>) -> tensor<?x5x7x9xf32>
  return %c : tensor<?x5x7x9xf32>
}
"""


def test_concatenation_is_one_loop_nest_per_operand():
    (kernel,) = kernels(CONCAT)
    assert '"arith.select"' not in kernel
    assert kernel.count('"memref.store"') == 2
    assert "aot.parallel = true" in kernel  # still split over dim 0


@pytest.mark.parametrize("b", [1, 3, 0])
def test_concatenation_against_numpy(b):
    lib = aot.compile(CONCAT, name="concat")
    rng = np.random.default_rng(b)
    x = rng.standard_normal((b, 5, 7, 6)).astype(np.float32)
    y = rng.standard_normal((b, 5, 7, 3)).astype(np.float32)
    np.testing.assert_allclose(lib.main(x, y), np.concatenate([x, -y], axis=3))
