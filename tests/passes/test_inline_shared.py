"""The HLO stage's inlining (lowering/passes/legalize.py) and the shape code it copies: a
private function called once gives its own ops to the call (jax.export wraps every program
in one), one called more often is copied per call, and a callee's repeated shape code is
shared before it is copied (cse.py before inlining), so a dynamic program's stages see
each shape tensor once per copy, not once per use. Checked on the HLO stage's text and
objects, and numerically against numpy."""
import re

import numpy as np

import aot
from lowering.frontend.parser import parse_module
from lowering.frontend.printer import print_module
from lowering.passes.pipeline import run_pipeline

# @act builds the same [b, 4] shape tensor three times; @layers calls it twice
PROGRAM = """
func.func public @main(%x: tensor<?x4xf32>) -> tensor<?x4xf32> {
  %b = stablehlo.get_dimension_size %x, dim = 0 : (tensor<?x4xf32>) -> tensor<i32>
  %r = call @layers(%b, %x) : (tensor<i32>, tensor<?x4xf32>) -> tensor<?x4xf32>
  return %r : tensor<?x4xf32>
}
func.func private @layers(%b: tensor<i32>, %x: tensor<?x4xf32>) -> tensor<?x4xf32> {
  %y = call @act(%x, %b) : (tensor<?x4xf32>, tensor<i32>) -> tensor<?x4xf32>
  %z = call @act(%y, %b) : (tensor<?x4xf32>, tensor<i32>) -> tensor<?x4xf32>
  return %z : tensor<?x4xf32>
}
func.func private @act(%x: tensor<?x4xf32>, %b: tensor<i32>) -> tensor<?x4xf32> {
  %c0 = stablehlo.constant dense<0.5> : tensor<f32>
  %c1 = stablehlo.constant dense<1.0> : tensor<f32>
  %b1 = stablehlo.reshape %b : (tensor<i32>) -> tensor<1xi32>
  %k1 = stablehlo.constant dense<4> : tensor<1xi32>
  %s1 = stablehlo.concatenate %b1, %k1, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
  %h = stablehlo.dynamic_broadcast_in_dim %c0, %s1, dims = []
      : (tensor<f32>, tensor<2xi32>) -> tensor<?x4xf32>
  %b2 = stablehlo.reshape %b : (tensor<i32>) -> tensor<1xi32>
  %k2 = stablehlo.constant dense<4> : tensor<1xi32>
  %s2 = stablehlo.concatenate %b2, %k2, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
  %o = stablehlo.dynamic_broadcast_in_dim %c1, %s2, dims = []
      : (tensor<f32>, tensor<2xi32>) -> tensor<?x4xf32>
  %b3 = stablehlo.reshape %b : (tensor<i32>) -> tensor<1xi32>
  %k3 = stablehlo.constant dense<4> : tensor<1xi32>
  %s3 = stablehlo.concatenate %b3, %k3, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
  %h2 = stablehlo.dynamic_broadcast_in_dim %c0, %s3, dims = []
      : (tensor<f32>, tensor<2xi32>) -> tensor<?x4xf32>
  %t = stablehlo.tanh %x : tensor<?x4xf32>
  %u = stablehlo.add %t, %o : tensor<?x4xf32>
  %v = stablehlo.multiply %u, %h : tensor<?x4xf32>
  %w = stablehlo.multiply %v, %h2 : tensor<?x4xf32>
  return %w : tensor<?x4xf32>
}
"""


def test_callee_shape_code_shared_before_it_is_copied():
    hlo = print_module(run_pipeline(parse_module(PROGRAM, "inline.mlir"), "hlo"))
    # two copies of @act: one [b, 4] shape tensor each (three per copy before: its
    # reshape, constant and concatenate); the two tanh computations kept
    assert len(re.findall(r'"mhlo.concatenate"', hlo)) == 2
    assert len(re.findall(r'"mhlo.reshape"\(%\w+\) : \(tensor<i32>\)', hlo)) == 2
    assert len(re.findall(r"dense<\[?4\]?> : tensor<1xi32>", hlo)) == 2
    assert len(re.findall(r'"mhlo.tanh"', hlo)) == 2
    assert "func.call" not in hlo and "@layers" not in hlo and "@act" not in hlo


def test_function_called_once_gives_its_ops_and_uses_stay_live():
    module = parse_module(PROGRAM, "inline.mlir")
    layers = module.function("layers")
    own = list(layers.regions[0].blocks[0].ops[:-1])  # its two calls, inlined in place
    main_args = module.function("main").regions[0].blocks[0].args
    module = run_pipeline(module, "hlo")
    body = module.function("main").regions[0].blocks[0]
    assert not set(own) & set(body.ops)  # the calls themselves are gone ...
    assert not layers.regions[0].blocks[0].ops  # ... and @layers' body moved, not copied
    for op in body.ops:  # every use list names only ops in the function (none dropped)
        for v in op.operands:
            assert all(user in body.ops for user in v.users), (op.name, v)
    assert all(user in body.ops for user in main_args[0].users)


def test_numbers_against_numpy(tmp_path):
    lib = aot.compile(PROGRAM, name="inline_shared", output_dir=str(tmp_path))
    for batch in (1, 3):
        x = np.random.default_rng(batch).standard_normal((batch, 4)).astype(np.float32)
        y = ((np.tanh(x) + 1.0) * 0.25).astype(np.float32)
        want = (np.tanh(y) + 1.0) * 0.25
        np.testing.assert_allclose(lib.main(x), want, rtol=1e-5, atol=1e-6)
