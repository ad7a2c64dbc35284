"""No kernel reads outside its buffers: inputs are fenced by PROT_NONE pages on both
sides, so any stray read is a segfault. Each program runs in a subprocess, so a crash
fails its test instead of taking pytest down."""
import os
import subprocess
import sys

import pytest

from fenced import DRIVER, ROOT

CASES = {
    "concatenate": ("""func.func @main(%a: tensor<3xf32>, %b: tensor<2xf32>, %c: tensor<4xf32>) -> tensor<9xf32> {
  %0 = stablehlo.concatenate %a, %b, %c, dim = 0 : (tensor<3xf32>, tensor<2xf32>, tensor<4xf32>) -> tensor<9xf32>
  return %0 : tensor<9xf32>
}""", "[np.arange(3, dtype=np.float32), np.arange(2, dtype=np.float32) + 10, np.arange(4, dtype=np.float32) + 20]",  # noqa: E501
        "np.array([0, 1, 2, 10, 11, 20, 21, 22, 23], np.float32)"),
    "pad": ("""func.func @main(%a: tensor<2x3xf32>, %p: tensor<f32>) -> tensor<5x3xf32> {
  %0 = stablehlo.pad %a, %p, low = [2, -1], high = [0, 1], interior = [1, 0] : (tensor<2x3xf32>, tensor<f32>) -> tensor<5x3xf32>
  return %0 : tensor<5x3xf32>
}""", "[np.arange(6, dtype=np.float32).reshape(2, 3), np.float32(-1)]",  # noqa: E501
        "np.array([[-1]*3, [-1]*3, [1, 2, -1], [-1]*3, [4, 5, -1]], np.float32)"),
    "reverse_slice": ("""func.func @main(%a: tensor<5x4xf32>) -> tensor<2x2xf32> {
  %0 = stablehlo.reverse %a, dims = [0, 1] : tensor<5x4xf32>
  %1 = stablehlo.slice %0 [1:5:2, 0:4:2] : (tensor<5x4xf32>) -> tensor<2x2xf32>
  return %1 : tensor<2x2xf32>
}""", "[np.arange(20, dtype=np.float32).reshape(5, 4)]",
        "np.arange(20, dtype=np.float32).reshape(5, 4)[::-1, ::-1][1:5:2, 0:4:2]"),
    "dynamic_slice_clamped": ("""func.func @main(%a: tensor<6xf32>, %i: tensor<i32>) -> tensor<3xf32> {
  %0 = stablehlo.dynamic_slice %a, %i, sizes = [3] : (tensor<6xf32>, tensor<i32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}""", "[np.arange(6, dtype=np.float32), np.int32(100)]", "np.array([3, 4, 5], np.float32)"),
    "dynamic_update_slice": ("""func.func @main(%a: tensor<6xf32>, %u: tensor<2xf32>, %i: tensor<i32>) -> tensor<6xf32> {
  %0 = stablehlo.dynamic_update_slice %a, %u, %i : (tensor<6xf32>, tensor<2xf32>, tensor<i32>) -> tensor<6xf32>
  return %0 : tensor<6xf32>
}""", "[np.zeros(6, np.float32), np.ones(2, np.float32), np.int32(-5)]",  # noqa: E501
        "np.array([1, 1, 0, 0, 0, 0], np.float32)"),
    "broadcast_gather_like": ("""func.func @main(%a: tensor<1x3xf32>, %b: tensor<4x1xf32>) -> tensor<4x3xf32> {
  %0 = stablehlo.broadcast_in_dim %a, dims = [0, 1] : (tensor<1x3xf32>) -> tensor<4x3xf32>
  %1 = stablehlo.broadcast_in_dim %b, dims = [0, 1] : (tensor<4x1xf32>) -> tensor<4x3xf32>
  %2 = stablehlo.add %0, %1 : tensor<4x3xf32>
  return %2 : tensor<4x3xf32>
}""", "[np.arange(3, dtype=np.float32).reshape(1, 3), np.arange(4, dtype=np.float32).reshape(4, 1)]",  # noqa: E501
        "np.arange(3, dtype=np.float32).reshape(1, 3) + np.arange(4, dtype=np.float32).reshape(4, 1)"),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_fenced_inputs(case):
    text, args, want = CASES[case]
    env = dict(os.environ, PYTHONPATH=ROOT)
    r = subprocess.run([sys.executable, "-c", DRIVER, text, args, want], capture_output=True,
                       text=True, env=env, timeout=120)
    assert r.returncode == 0, f"exit {r.returncode}: {r.stderr[-2000:]}"
    assert r.stdout.strip().endswith("ok")
