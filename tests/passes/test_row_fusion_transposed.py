"""A row reduction joins its consumers' kernel only when everything after its broadcast is
element by element: a transpose there (torch's attention transposing a layernorm's output)
reads other rows' reduced values, which the row kernel computes one row at a time (wrong
results: ViT-B/16 with a `?` batch). Checked on the fused stage's text, and against numpy."""
import numpy as np

import aot
from lowering.frontend.parser import parse_module
from lowering.frontend.printer import print_module
from lowering.passes.pipeline import run_pipeline

PROGRAM = """
func.func public @main(%x: tensor<3x5x4xf32>) -> tensor<5x3x4xf32> {
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %s = stablehlo.reduce(%x init: %zero) applies stablehlo.add across dimensions = [2]
      : (tensor<3x5x4xf32>, tensor<f32>) -> tensor<3x5xf32>
  %b = stablehlo.broadcast_in_dim %s, dims = [0, 1] : (tensor<3x5xf32>) -> tensor<3x5x4xf32>
  %d = stablehlo.subtract %x, %b : tensor<3x5x4xf32>
  %t = stablehlo.transpose %d, dims = [1, 0, 2] : (tensor<3x5x4xf32>) -> tensor<5x3x4xf32>
  return %t : tensor<5x3x4xf32>
}"""


def test_a_transpose_after_the_broadcast_keeps_the_reduction_apart(tmp_path):
    fused = print_module(run_pipeline(parse_module(PROGRAM, "rows.mlir"), "fused"))
    assert fused.count("fusion_kind") == 2, fused  # the reduction, then the transposed rows
    lib = aot.compile(PROGRAM, name="rowsT", output_dir=str(tmp_path))
    x = np.arange(60, dtype=np.float32).reshape(3, 5, 4) ** 1.5
    want = (x - x.sum(2, keepdims=True)).transpose(1, 0, 2)
    np.testing.assert_allclose(lib.main(x), want, rtol=1e-5)
