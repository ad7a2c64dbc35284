"""A kernel takes each run-time dim once (passes/loops.py, drop_repeated_dims): the host
passes a fusion the dims its ops need, and a `?` batch is the same host value for all of
them. Checked on the loop stage's printed text, and against numpy."""
import re

import numpy as np

import aot
from lowering.frontend.parser import parse_module
from lowering.frontend.printer import print_module
from lowering.passes.pipeline import run_pipeline

# jax.export's form: the batch read once, every broadcast a dynamic one of a shape built
# from it, all in one elementwise fusion
PROGRAM = """func.func @main(%x: tensor<?x8xf32>, %v: tensor<8xf32>) -> tensor<?x8xf32> {
  %b = stablehlo.get_dimension_size %x, dim = 0 : (tensor<?x8xf32>) -> tensor<i32>
  %b1 = stablehlo.reshape %b : (tensor<i32>) -> tensor<1xi32>
  %c8 = stablehlo.constant dense<8> : tensor<1xi32>
  %s = stablehlo.concatenate %b1, %c8, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
  %vb = stablehlo.dynamic_broadcast_in_dim %v, %s, dims = [1] : (tensor<8xf32>, tensor<2xi32>) -> tensor<?x8xf32>
  %one = stablehlo.constant dense<1.0> : tensor<f32>
  %ob = stablehlo.dynamic_broadcast_in_dim %one, %s, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x8xf32>
  %two = stablehlo.constant dense<2.0> : tensor<f32>
  %tb = stablehlo.dynamic_broadcast_in_dim %two, %s, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x8xf32>
  %a = stablehlo.add %x, %vb : tensor<?x8xf32>
  %m = stablehlo.multiply %a, %tb : tensor<?x8xf32>
  %r = stablehlo.subtract %m, %ob : tensor<?x8xf32>
  return %r : tensor<?x8xf32>
}"""  # noqa: E501


def test_each_dim_is_passed_once():
    text = print_module(run_pipeline(parse_module(PROGRAM, "dims.mlir"), "loops"))
    calls = [line for line in text.splitlines() if '"func.call"' in line]
    assert calls
    for call in calls:
        operands = re.match(r'\s*"func.call"\(([^)]*)\)', call).group(1).split(", ")
        assert len(operands) == len(set(operands)), call
    signatures = re.findall(r"func.func private @\w+\(([^)]*)\)", text)
    assert any("index" in s for s in signatures)  # the batch is passed, once
    for s in signatures:
        assert s.count(": index") <= 1, s
    assert "aot.aliased" not in text  # nothing left that only repeated a dim


def test_matches_numpy():
    lib = aot.compile(PROGRAM, name="kernel_dims")
    v = np.arange(8, dtype=np.float32)
    for batch in (1, 5):
        x = np.random.default_rng(batch).standard_normal((batch, 8)).astype(np.float32)
        np.testing.assert_allclose(lib.main(x, v), (x + v) * 2 - 1, rtol=1e-6)
