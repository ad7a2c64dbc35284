"""A float division by a divisor computed before its loop (softmax's e / sum(e) of a row) is
emitted with `arcp`, so LLVM multiplies by one reciprocal per row (gen.invariant_divisions);
a division by a constant or by a value of the same iteration stays a true division. Checked
on the generated LLVM IR and, for the softmax, against numpy (x * (1/s): 1.5 ulp at most)."""
import re

import numpy as np

import aot
from aot.driver import Compilation, Options

SOFTMAX = """func.func @main(%x: tensor<4x300xf32>) -> tensor<4x300xf32> {
  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %m = stablehlo.reduce(%x init: %ninf) applies stablehlo.maximum across dimensions = [1] : (tensor<4x300xf32>, tensor<f32>) -> tensor<4xf32>
  %mb = stablehlo.broadcast_in_dim %m, dims = [0] : (tensor<4xf32>) -> tensor<4x300xf32>
  %e0 = stablehlo.subtract %x, %mb : tensor<4x300xf32>
  %e = stablehlo.exponential %e0 : tensor<4x300xf32>
  %s = stablehlo.reduce(%e init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<4x300xf32>, tensor<f32>) -> tensor<4xf32>
  %sb = stablehlo.broadcast_in_dim %s, dims = [0] : (tensor<4xf32>) -> tensor<4x300xf32>
  %p = stablehlo.divide %e, %sb : tensor<4x300xf32>
  return %p : tensor<4x300xf32>
}"""  # noqa: E501

ELEMENTWISE = """func.func @main(%x: tensor<64xf32>, %y: tensor<64xf32>) -> tensor<64xf32> {
  %c = stablehlo.constant dense<3.0> : tensor<64xf32>
  %a = stablehlo.divide %x, %c : tensor<64xf32>
  %b = stablehlo.divide %a, %y : tensor<64xf32>
  return %b : tensor<64xf32>
}"""


def divisions(text: str, name: str) -> list:
    """The fdiv instructions of the module's LLVM IR, as generated (before LLVM's passes)."""
    llvm = Compilation(text, f"{name}.mlir", Options(name=name, emit="llvm")).llvm()[1]
    return re.findall(r"= fdiv [^\n]*", llvm)


def test_row_divisor_is_a_reciprocal_and_others_stay_divisions():
    row = divisions(SOFTMAX, "sm")
    assert row and all("arcp" in d for d in row), row
    other = divisions(ELEMENTWISE, "ew")
    assert len(other) == 2 and not any("arcp" in d for d in other), other


def test_softmax_with_the_reciprocal_matches_numpy():
    x = np.random.default_rng(1).standard_normal((4, 300)).astype(np.float32) * 5
    got = aot.compile(SOFTMAX, name="recip_softmax").main(x)
    e = np.exp(x.astype(np.float64) - x.max(axis=1, keepdims=True))
    want = e / e.sum(axis=1, keepdims=True)
    np.testing.assert_allclose(got, want, rtol=2e-6, atol=0)


def test_softmax_exp_loop_is_interleaved_four_times():
    """Softmax's exp loop (52 loop-stage ops since its one-sided exp) is past gen.LONG_BODY, so
    LLVM interleaves it 4 times (its own choice, 2, was 0.93 as fast); a short loop is not."""
    llvm = Compilation(SOFTMAX, "sm.mlir", Options(name="sm_il", emit="llvm")).llvm()[1]
    assert re.search(r'!"llvm.loop.interleave.count", i32 4', llvm)
    short = Compilation(ELEMENTWISE, "ew.mlir", Options(name="ew_il", emit="llvm")).llvm()[1]
    assert "llvm.loop.interleave.count" not in short
