"""reduce_window of one operand folds a row of the output at a time (ops/windows.py
_fold_rows): the row set to the init value, then each window element folded into every
output of the row, the input read along the row in ranges with no check per element. Checked
on the loops text (the kernel reads its output back) and against numpy: pooling in NCHW and
NHWC, padding, window dilation, an init that is not the body's identity (padding folds it),
a `?` batch; base dilation and narrow rows keep the element-by-element fold."""
import numpy as np
import pytest

import aot
from lowering.frontend.parser import parse_module
from lowering.frontend.printer import print_module
from lowering.passes.pipeline import run_pipeline


def program(shape, window, strides, pads, body="maximum", init="0xFF800000", win_dil=None,
            base_dil=None, batch=None):
    out = [((n - 1) * (bd or 1) + 1 + lo + hi - ((k - 1) * (wd or 1) + 1)) // s + 1
           for n, k, s, (lo, hi), wd, bd in zip(shape, window, strides, pads,
                                                win_dil or [1] * 4, base_dil or [1] * 4)]
    dims = [batch or shape[0]] + list(shape[1:])
    t_in = "tensor<" + "x".join(map(str, dims)) + "xf32>"
    t_out = "tensor<" + "x".join(map(str, [batch or out[0]] + out[1:])) + "xf32>"
    extra = ""
    if win_dil:
        extra += f", window_dilations = array<i64: {', '.join(map(str, win_dil))}>"
    if base_dil:
        extra += f", base_dilations = array<i64: {', '.join(map(str, base_dil))}>"
    pad = ", ".join(f"[{lo}, {hi}]" for lo, hi in pads)
    return f"""func.func @main(%x: {t_in}) -> {t_out} {{
  %init = stablehlo.constant dense<{init}> : tensor<f32>
  %y = "stablehlo.reduce_window"(%x, %init) ({{
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %m = stablehlo.{body} %a, %b : tensor<f32>
      stablehlo.return %m : tensor<f32>
  }}) {{window_dimensions = array<i64: {', '.join(map(str, window))}>,
      window_strides = array<i64: {', '.join(map(str, strides))}>,
      padding = dense<[{pad}]> : tensor<{len(pads)}x2xi64>{extra}}}
      : ({t_in}, tensor<f32>) -> {t_out}
  return %y : {t_out}
}}"""


def reference(x, window, strides, pads, fold, init, win_dil=None, base_dil=None):
    """Each output element folds its window in order from `init`; padding and holes fold
    `init` too."""
    win_dil, base_dil = win_dil or [1] * x.ndim, base_dil or [1] * x.ndim
    dilated = np.full([(n - 1) * d + 1 for n, d in zip(x.shape, base_dil)], init, np.float32)
    dilated[tuple(slice(None, None, d) for d in base_dil)] = x
    padded = np.pad(dilated, pads, constant_values=init)
    out_shape = [(n - (k - 1) * d - 1) // s + 1
                 for n, k, s, d in zip(padded.shape, window, strides, win_dil)]
    acc = np.full(out_shape, init, np.float32)
    for k in np.ndindex(*window):
        part = padded[tuple(slice(kk * d, kk * d + (o - 1) * s + 1, s)
                            for kk, d, o, s in zip(k, win_dil, out_shape, strides))]
        acc = fold(acc, part)
    return acc


CASES = [  # shape, window, strides, pads, body, init, window dilation, base dilation
    ((2, 8, 23, 23), (1, 1, 3, 3), (1, 1, 2, 2), ((0, 0), (0, 0), (1, 1), (1, 1)),
     "maximum", -np.inf, None, None),  # ResNet's stem pool, NCHW
    ((2, 12, 12, 16), (1, 2, 2, 1), (1, 2, 2, 1), ((0, 0),) * 4, "add", 0.0, None, None),  # NHWC
    ((1, 3, 17, 29), (1, 1, 2, 5), (1, 1, 1, 3), ((0, 0), (0, 0), (2, 1), (4, 6)),
     "add", 1.0, [1, 1, 1, 2], None),  # init 1: each padded element adds it
    ((1, 2, 9, 30), (1, 1, 3, 3), (1, 1, 1, 1), ((0, 0), (0, 0), (1, 1), (1, 1)),
     "minimum", np.inf, None, [1, 1, 1, 2]),  # base dilation: element by element
]


def loops(text):
    return print_module(run_pipeline(parse_module(text, "rw.mlir"), "loops"))


@pytest.mark.parametrize("case", range(len(CASES)))
def test_reduce_window_rows(case):
    shape, window, strides, pads, body, init, win_dil, base_dil = CASES[case]
    init_text = {-np.inf: "0xFF800000", np.inf: "0x7F800000"}.get(init, repr(float(init)))
    fold = {"maximum": np.maximum, "minimum": np.minimum, "add": np.add}[body]
    text = program(shape, window, strides, pads, body, init_text, win_dil, base_dil)
    lowered = loops(text)
    kernel = lowered[lowered.index('attributes {aot.kernel = "reduce_window"}'):]
    assert ('"memref.load"(%arg2' in kernel) == (base_dil is None), kernel
    rng = np.random.default_rng(case)
    for batch, sizes in ((None, [shape[0]]), ("?", [1, 3])):
        lib = aot.compile(program(shape, window, strides, pads, body, init_text, win_dil,
                                  base_dil, batch), f"rw_rows_{case}_{'dyn' if batch else 'static'}")
        for n in sizes:
            x = rng.standard_normal((n,) + tuple(shape[1:])).astype(np.float32)
            want = reference(x, window, strides, [list(p) for p in pads], fold, np.float32(init),
                             win_dil, base_dil)
            np.testing.assert_allclose(lib.main(x), want, rtol=1e-6, atol=1e-6)


def test_narrow_rows_fold_each_element():
    """Output rows narrower than ROW_FOLD_MIN keep the fold in registers (no output reads)."""
    text = program((1, 4, 8, 8), (1, 1, 2, 2), (1, 1, 2, 2), ((0, 0),) * 4)
    kernel = loops(text)
    kernel = kernel[kernel.index('attributes {aot.kernel = "reduce_window"}'):]
    assert '"memref.load"(%arg2' not in kernel
