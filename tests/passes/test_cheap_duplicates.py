"""A splat constant broadcast to a `?` shape, or a `?`-shaped iota, read by two kernels is
computed in each of them, as its static form (a constant) is: no kernel and buffer of its
own. Checked on the loop stage's kernels and against numpy at two batches."""
import re

import numpy as np

import aot
from lowering.frontend.parser import parse_module
from lowering.frontend.printer import print_module
from lowering.passes.pipeline import run_pipeline

# %k (a splat) and %i (an iota), both [?, 8], each read by a reduction and by an
# elementwise root: two kernels, each recomputing them
TWO_READERS = """func.func @main(%x: tensor<?x8xf32>) -> (tensor<?xf32>, tensor<?x8xf32>) {
  %b = stablehlo.get_dimension_size %x, dim = 0 : (tensor<?x8xf32>) -> tensor<i32>
  %b1 = stablehlo.reshape %b : (tensor<i32>) -> tensor<1xi32>
  %eight = stablehlo.constant dense<8> : tensor<1xi32>
  %shape = stablehlo.concatenate %b1, %eight, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
  %c = stablehlo.constant dense<3.0> : tensor<f32>
  %k = stablehlo.dynamic_broadcast_in_dim %c, %shape, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x8xf32>
  %i = stablehlo.dynamic_iota %shape, dim = 1 : (tensor<2xi32>) -> tensor<?x8xf32>
  %xk = stablehlo.multiply %x, %k : tensor<?x8xf32>
  %a = stablehlo.add %xk, %i : tensor<?x8xf32>
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %s = stablehlo.reduce(%a init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<?x8xf32>, tensor<f32>) -> tensor<?xf32>
  %xi = stablehlo.subtract %x, %i : tensor<?x8xf32>
  %d = stablehlo.divide %xi, %k : tensor<?x8xf32>
  %e = stablehlo.exponential %d : tensor<?x8xf32>
  return %s, %e : tensor<?xf32>, tensor<?x8xf32>
}"""  # noqa: E501


def test_splat_and_iota_recomputed_in_each_reader():
    loops = print_module(run_pipeline(parse_module(TWO_READERS, "t.mlir"), "loops"))
    kernels = re.findall(r"func\.func private @(\w+)", loops)
    assert len(kernels) == 2, kernels  # the reduction's and the exponential's
    lib = aot.compile(TWO_READERS, "cheap_duplicates")
    for batch in (1, 5):
        x = np.random.default_rng(batch).standard_normal((batch, 8)).astype(np.float32)
        i = np.arange(8, dtype=np.float32)
        s, e = lib.main(x)
        np.testing.assert_allclose(s, (x * 3 + i).sum(1), rtol=1e-5, atol=1e-5)
        np.testing.assert_allclose(e, np.exp((x - i) / 3), rtol=1e-5)
