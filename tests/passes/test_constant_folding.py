"""Float arithmetic on small constants folded at compile time
(lowering/passes/constant_folding.py): a frozen batch norm's scale and shift become two [C]
constants (checked on the fused stage's text: no rsqrt left, the broadcasts kept at [C]),
the compiled library matches numpy, and what must not fold stays: an op reading the input,
a result over the size limit, integer arithmetic."""
import re

import numpy as np

import aot
from lowering.frontend.parser import parse_module
from lowering.frontend.printer import print_module
from lowering.passes.constant_folding import MAX_FOLDED_ELEMENTS, fold_constants
from lowering.passes.pipeline import run_pipeline

VAR, MEAN, W, B, EPS = [1.0, 2.0, 3.0, 4.0], [0.5, -1.0, 2.0, 0.25], [1.5, 0.5, -2.0, 1.0], \
    [0.1, 0.2, 0.3, 0.4], 1e-5


def batch_norm(batch):
    """torch.export's frozen batch norm as lowering/torch/math_ops.py writes it."""
    x = f"tensor<{batch}x4x2x2xf32>"
    if batch == "?":
        dims = """  %n = stablehlo.get_dimension_size %x, dim = 0 : (tensor<?x4x2x2xf32>) -> tensor<i32>
  %n1 = stablehlo.reshape %n : (tensor<i32>) -> tensor<1xi32>
  %c = stablehlo.constant dense<[4, 2, 2]> : tensor<3xi32>
  %dims = stablehlo.concatenate %n1, %c, dim = 0 : (tensor<1xi32>, tensor<3xi32>) -> tensor<4xi32>
  %sb = stablehlo.dynamic_broadcast_in_dim %s, %dims, dims = [1] : (tensor<4xf32>, tensor<4xi32>) -> {x}
  %hb = stablehlo.dynamic_broadcast_in_dim %sh, %dims, dims = [1] : (tensor<4xf32>, tensor<4xi32>) -> {x}"""
    else:
        dims = """  %sb = stablehlo.broadcast_in_dim %s, dims = [1] : (tensor<4xf32>) -> {x}
  %hb = stablehlo.broadcast_in_dim %sh, dims = [1] : (tensor<4xf32>) -> {x}"""
    return f"""func.func @main(%x: {x}) -> {x} {{
  %var = stablehlo.constant dense<{VAR}> : tensor<4xf32>
  %mean = stablehlo.constant dense<{MEAN}> : tensor<4xf32>
  %w = stablehlo.constant dense<{W}> : tensor<4xf32>
  %b = stablehlo.constant dense<{B}> : tensor<4xf32>
  %eps = stablehlo.constant dense<{EPS}> : tensor<f32>
  %epsb = stablehlo.broadcast_in_dim %eps, dims = [] : (tensor<f32>) -> tensor<4xf32>
  %ve = stablehlo.add %var, %epsb : tensor<4xf32>
  %r = stablehlo.rsqrt %ve : tensor<4xf32>
  %s = stablehlo.multiply %r, %w : tensor<4xf32>
  %ms = stablehlo.multiply %mean, %s : tensor<4xf32>
  %ng = stablehlo.negate %ms : tensor<4xf32>
  %sh = stablehlo.add %ng, %b : tensor<4xf32>
{dims.format(x=x)}
  %y = stablehlo.multiply %x, %sb : {x}
  %z = stablehlo.add %y, %hb : {x}
  return %z : {x}
}}"""


def fused_text(text):
    return print_module(run_pipeline(parse_module(text, "test.mlir"), "fused"))


def constants(text):
    return re.findall(r"dense<\[([^\]]*)\]> : tensor<4xf32>", text)


def test_batch_norm_scale_and_shift_folded_and_match_numpy():
    var, mean, w, b = (np.array(v, np.float64) for v in (VAR, MEAN, W, B))
    scale = w / np.sqrt(var + EPS)
    shift = b - mean * scale
    rng = np.random.default_rng(3)
    for batch in ("?", 3):
        text = batch_norm(batch)
        fused = fused_text(text)
        assert "rsqrt" not in fused and "negate" not in fused, fused
        folded = [np.array(c.split(", "), float) for c in constants(fused)]
        assert len(folded) == 2, fused  # the inputs' constants are gone
        np.testing.assert_allclose(folded[0], scale, rtol=1e-6)
        np.testing.assert_allclose(folded[1], shift, rtol=1e-6)
        assert fused.count("broadcast_in_dim") == 2  # kept, reading the [4] constants
        x = rng.standard_normal((3, 4, 2, 2)).astype(np.float32)
        got = aot.compile(text, name="fold_bn").main(x)
        want = x * scale[:, None, None] + shift[:, None, None]
        np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-6)


def test_what_must_not_fold_stays():
    big = MAX_FOLDED_ELEMENTS * 2
    text = f"""func.func @main(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<{big}xf32>, tensor<4xi32>) {{
  %a = stablehlo.constant dense<2.0> : tensor<4xf32>
  %y = stablehlo.rsqrt %x : tensor<4xf32>
  %s = stablehlo.constant dense<3.0> : tensor<f32>
  %l = stablehlo.broadcast_in_dim %s, dims = [] : (tensor<f32>) -> tensor<{big}xf32>
  %lr = stablehlo.sqrt %l : tensor<{big}xf32>
  %i = stablehlo.constant dense<[7, -7, 5, 1]> : tensor<4xi32>
  %j = stablehlo.constant dense<2> : tensor<4xi32>
  %k = stablehlo.divide %i, %j : tensor<4xi32>
  %z = stablehlo.multiply %y, %a : tensor<4xf32>
  return %z, %lr, %k : tensor<4xf32>, tensor<{big}xf32>, tensor<4xi32>
}}"""
    fused = fused_text(text)
    assert "rsqrt" in fused and "mhlo.sqrt" in fused and "mhlo.divide" in fused, fused
    x = np.array([1.0, 4.0, 0.25, 16.0], np.float32)
    z, lr, k = aot.compile(text, name="fold_none").main(x)
    np.testing.assert_allclose(z, 2 / np.sqrt(x), rtol=1e-6)
    np.testing.assert_allclose(lr, np.full(big, np.sqrt(3.0)), rtol=1e-6)
    np.testing.assert_array_equal(k, [3, -3, 2, 0])


def test_constants_held_as_one_element_or_flat_fold_in_their_type_shape():
    """The TensorFlow front end holds a rank-0 constant as [1] (np.broadcast_to of that to ()
    was an internal error on every TF corpus case); a splat is one element."""
    from lowering.ir.core import DenseAttr
    text = """func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {
  %a = stablehlo.constant dense<2.0> : tensor<f32>
  %b = stablehlo.constant dense<3.0> : tensor<2xf32>
  %s = stablehlo.multiply %a, %a : tensor<f32>
  %sb = stablehlo.broadcast_in_dim %s, dims = [] : (tensor<f32>) -> tensor<2xf32>
  %t = stablehlo.add %sb, %b : tensor<2xf32>
  %y = stablehlo.multiply %x, %t : tensor<2xf32>
  return %y : tensor<2xf32>
}"""
    module = run_pipeline(parse_module(text), until="hlo")
    for op in module.functions()[0].regions[0].blocks[0].ops:
        if op.key == "constant":  # as the TF front end and a splat hold them
            v = op.attrs["value"]
            op.attrs["value"] = DenseAttr(np.asarray(v.array, np.float32).reshape(-1)[:1].copy(), v.type)
    folded = print_module(fold_constants(module))
    assert "value = dense<7.0> : tensor<2xf32>" in folded and "add" not in folded, folded
