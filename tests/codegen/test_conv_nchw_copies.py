"""An NCHW convolution that runs channels-last through conv_direct (a window Winograd does not
take) copies its input into channels-last scratch and the result back as `aot.transpose`s,
the register tiles of codegen/cpu/transpose.py, not element by element. Checked on the loops
text and against numpy, static and with a `?` batch, with edges that cut the tiles."""
import numpy as np
import pytest

import aot
from conv_reference import np_conv
from lowering.frontend.parser import parse_module
from lowering.frontend.printer import print_module
from lowering.passes.pipeline import run_pipeline

NCHW = ((0, 1, [2, 3]), (1, 0, [2, 3]), (0, 1, [2, 3]))  # NCHW x OIHW -> NCHW (PyTorch's)


def program(batch, cin, cout, size, k):
    b = batch or "?"
    x, w = f"tensor<{b}x{cin}x{size}x{size}xf32>", f"tensor<{cout}x{cin}x{k}x{k}xf32>"
    y = f"tensor<{b}x{cout}x{size}x{size}xf32>"
    p = k // 2
    return (f"func.func @main(%x: {x}, %w: {w}) -> {y} {{\n"
            f"  %y = stablehlo.convolution(%x, %w) dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->"
            f"[b, f, 0, 1], window = {{stride = [1, 1], pad = [[{p}, {p}], [{p}, {p}]]}} "
            f"{{batch_group_count = 1 : i64, feature_group_count = 1 : i64}} : ({x}, {w}) -> {y}\n"
            f"  return %y : {y}\n}}\n")


@pytest.mark.parametrize("batch, cin, cout, size", [(2, 16, 24, 16), (None, 20, 13, 17)])
def test_channels_last_copies_are_register_transposes(batch, cin, cout, size):
    text = program(batch, cin, cout, size, 5)
    lowered = print_module(run_pipeline(parse_module(text, "test.mlir"), "loops"))
    assert lowered.count('"aot.transpose"') == 2, lowered
    assert "permutation = array<i64: 0, 2, 3, 1>" in lowered
    assert "permutation = array<i64: 0, 3, 1, 2>" in lowered
    assert '"aot.conv"' in lowered and "channels_first" not in lowered
    lib = aot.compile(text, f"nchw_copies_{batch or 'dyn'}_{cin}_{size}")
    rng = np.random.default_rng(cin)
    w = rng.uniform(-1, 1, (cout, cin, 5, 5)).astype(np.float32)
    for n in ([batch] if batch else [1, 3]):
        x = rng.uniform(-1, 1, (n, cin, size, size)).astype(np.float32)
        want = np_conv(x, w, NCHW, [1, 1], [(2, 2), (2, 2)], [1, 1], [1, 1], [False] * 2, 1, 1)
        for threads in (1, 2):
            lib.set_num_threads(threads)
            np.testing.assert_allclose(lib.main(x, w), want, rtol=1e-4, atol=1e-3)
