"""Pools over whole dims made reductions (lowering/passes/window_reductions.py): PyTorch's
adaptive average pool to 1x1 and a global max pool, static and with a `?` batch, become a
reduce and a reshape (checked on the fused stage's text) and match numpy; a pool with a
stride, padding or a window short of its dim stays a reduce_window."""
import numpy as np
import pytest

import aot
from lowering.frontend.parser import parse_module
from lowering.frontend.printer import print_module
from lowering.passes.pipeline import run_pipeline


def pool(batch, body="add", init="0.0", window=(1, 1, 4, 3), strides=(1, 1, 4, 3), extra=""):
    x = f"tensor<{batch}x5x4x3xf32>"
    out_hw = "x".join(str((n - w) // s + 1) for n, w, s in zip((4, 3), window[2:], strides[2:]))
    out = f"tensor<{batch}x5x{out_hw}xf32>"
    win = ", ".join(map(str, window))
    st = ", ".join(map(str, strides))
    return f"""func.func @main(%x: {x}) -> {out} {{
  %z = stablehlo.constant dense<{init}> : tensor<f32>
  %r = "stablehlo.reduce_window"(%x, %z) ({{
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.{body} %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }}) {{window_dimensions = array<i64: {win}>, window_strides = array<i64: {st}>{extra}}}
    : ({x}, tensor<f32>) -> {out}
  return %r : {out}
}}"""


def fused_text(text):
    return print_module(run_pipeline(parse_module(text, "test.mlir"), "fused"))


@pytest.mark.parametrize("batch", ["2", "?"])
@pytest.mark.parametrize("body,init,ref", [("add", "0.0", np.sum),
                                           ("maximum", "0xFF800000", np.max)])
def test_whole_window_pool_is_a_reduce(batch, body, init, ref):
    text = pool(batch, body, init)
    fused = fused_text(text)
    assert "reduce_window" not in fused
    assert "dimensions = array<i64: 2, 3>" in fused
    assert ("dynamic_reshape" in fused) == (batch == "?")
    lib = aot.compile(text, f"whole_pool_{body}_{'dyn' if batch == '?' else 'static'}")
    for n in ((2,) if batch == "2" else (1, 3, 0)):
        x = np.random.default_rng(n).standard_normal((n, 5, 4, 3)).astype(np.float32)
        want = ref(x, axis=(2, 3), keepdims=True) if n else np.zeros((0, 5, 1, 1), np.float32)
        np.testing.assert_allclose(lib.main(x), want, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("window,strides,extra", [
    ((1, 1, 2, 3), (1, 1, 2, 3), ""),  # a window short of H: two windows along it
    ((1, 1, 4, 3), (1, 1, 4, 3),
     ", padding = dense<[[0, 0], [0, 0], [1, 0], [0, 0]]> : tensor<4x2xi64>"),
    ((1, 1, 4, 3), (1, 2, 4, 3), ""),  # a kept dim with a stride
])
def test_other_pools_stay(window, strides, extra):
    text = pool("?", window=window, strides=strides, extra=extra)
    if strides[1] == 2:
        text = text.replace("?x5x1x1", "?x3x1x1")
    assert "reduce_window" in fused_text(text)
