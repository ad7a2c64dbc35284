"""A dense head with a `?` batch, as torch.export writes it (MobileNetV3's: a mean over the
image, two dense layers with bias and hardswish), fuses like its static form: each dynamic
broadcast reads its batch from the tensor beside it, a `get_dimension_size` of a reduce's or
a dot_general's result, and that read, a user outside the kernel, kept the dot out of its
epilogue (no kOutput fusion in the dynamic form, two in the static). The registry's
`same_size` rules of reduce and dot_general (lowering/ops/contraction.py) let cse.py read
those sizes from the input. Checked on the fused stage's text, and against numpy."""
import re
from functools import partial

import numpy as np
import pytest

import aot
from lowering.frontend.parser import parse_module
from lowering.frontend.printer import print_module
from lowering.passes.pipeline import run_pipeline
from torch_text import size_broadcast


def _bcast(name: str, src: str, of: str, width: int, operand: str, dims: str) -> str:
    """`operand` broadcast to [batch, width], its batch read from `of` (torch.export's way)."""
    return size_broadcast(name, src, of, operand, dims, (width,))


PROGRAM = f"""
func.func public @main(%x: tensor<?x8x4x4xf32>, %w1: tensor<8x16xf32>, %b1: tensor<16xf32>,
                       %w2: tensor<16x4xf32>, %b2: tensor<4xf32>) -> tensor<?x4xf32> {{
  %c8 = stablehlo.constant dense<8> : tensor<1xi32>
  %c16 = stablehlo.constant dense<16> : tensor<1xi32>
  %c4 = stablehlo.constant dense<4> : tensor<1xi32>
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %n16 = stablehlo.constant dense<16.0> : tensor<f32>
  %three = stablehlo.constant dense<3.0> : tensor<f32>
  %sum = stablehlo.reduce(%x init: %zero) applies stablehlo.add across dimensions = [2, 3]
      : (tensor<?x8x4x4xf32>, tensor<f32>) -> tensor<?x8xf32>
  {_bcast("d", "tensor<f32>", "sum", 8, "n16", "[]")}
  %mean = stablehlo.divide %sum, %d : tensor<?x8xf32>
  %h = stablehlo.dot_general %mean, %w1, contracting_dims = [1] x [0]
      : (tensor<?x8xf32>, tensor<8x16xf32>) -> tensor<?x16xf32>
  {_bcast("hb", "tensor<16xf32>", "h", 16, "b1", "[1]")}
  %hz = stablehlo.add %h, %hb : tensor<?x16xf32>
  {_bcast("t", "tensor<f32>", "hz", 16, "three", "[]")}
  %h3 = stablehlo.add %hz, %t : tensor<?x16xf32>
  {_bcast("z", "tensor<f32>", "h3", 16, "zero", "[]")}
  %hr = stablehlo.maximum %h3, %z : tensor<?x16xf32>
  %hs = stablehlo.multiply %hz, %hr : tensor<?x16xf32>
  %o = stablehlo.dot_general %hs, %w2, contracting_dims = [1] x [0]
      : (tensor<?x16xf32>, tensor<16x4xf32>) -> tensor<?x4xf32>
  {_bcast("ob", "tensor<4xf32>", "o", 4, "b2", "[1]")}
  %out = stablehlo.add %o, %ob : tensor<?x4xf32>
  return %out : tensor<?x4xf32>
}}"""


def test_dense_layers_fuse_their_epilogues_with_one_size_read():
    fused = print_module(run_pipeline(parse_module(PROGRAM, "head.mlir"), "fused"))
    sizes = [line for line in fused.splitlines() if "get_dimension_size" in line]
    assert len(sizes) == 1 and "(%arg0)" in sizes[0], fused  # was 3: the reduce's, the dots'
    kinds = re.findall(r'fusion_kind = "(\w+)"', fused)
    assert kinds.count("kOutput") == 2, fused  # both dots run their bias and activation


@pytest.mark.parametrize("batch", [1, 5])
def test_numbers_match_numpy(tmp_path, batch):
    lib = aot.compile(PROGRAM, name="densehead", output_dir=str(tmp_path))
    rng = np.random.default_rng(batch)
    x = rng.standard_normal((batch, 8, 4, 4)).astype(np.float32)
    w1, b1 = rng.standard_normal((8, 16)).astype(np.float32), rng.standard_normal(16).astype(np.float32)
    w2, b2 = rng.standard_normal((16, 4)).astype(np.float32), rng.standard_normal(4).astype(np.float32)
    hz = x.mean((2, 3)) @ w1 + b1
    want = (hz * np.maximum(hz + 3, 0)) @ w2 + b2
    np.testing.assert_allclose(lib.main(x, w1, b1, w2, b2), want, rtol=1e-4, atol=1e-4)


_bcast4 = partial(size_broadcast, shape=(6, 6, 16))  # `operand` broadcast to [batch, *shape]


CONV = f"""
func.func public @main(%x: tensor<?x6x6x16xf32>, %w: tensor<3x3x16x16xf32>, %b: tensor<16xf32>)
    -> tensor<?x6x6x16xf32> {{
  %c6 = stablehlo.constant dense<6> : tensor<1xi32>
  %c16 = stablehlo.constant dense<16> : tensor<1xi32>
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %y = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f],
      window = {{stride = [1, 1], pad = [[1, 1], [1, 1]]}}
      {{batch_group_count = 1 : i64, feature_group_count = 1 : i64}}
      : (tensor<?x6x6x16xf32>, tensor<3x3x16x16xf32>) -> tensor<?x6x6x16xf32>
  {_bcast4("yb", "tensor<16xf32>", "y", "b", "[3]")}
  %z = stablehlo.add %y, %yb : tensor<?x6x6x16xf32>
  {_bcast4("zz", "tensor<f32>", "z", "zero", "[]")}
  %out = stablehlo.maximum %z, %zz : tensor<?x6x6x16xf32>
  return %out : tensor<?x6x6x16xf32>
}}"""


def test_a_dynamic_convolution_runs_its_bias_and_relu(tmp_path):
    """A channels-last convolution with a `?` batch, its sizes read from its result as
    torch.export writes them, is one kOutput kernel with its bias and relu, as in static
    form; numbers against numpy at batch 2."""
    fused = print_module(run_pipeline(parse_module(CONV, "conv.mlir"), "fused"))
    assert re.findall(r'fusion_kind = "(\w+)"', fused).count("kOutput") == 1, fused
    lib = aot.compile(CONV, name="dynconv", output_dir=str(tmp_path))
    rng = np.random.default_rng(0)
    x = rng.standard_normal((2, 6, 6, 16)).astype(np.float32)
    w = rng.standard_normal((3, 3, 16, 16)).astype(np.float32)
    b = rng.standard_normal(16).astype(np.float32)
    padded = np.pad(x, ((0, 0), (1, 1), (1, 1), (0, 0)))
    y = sum(padded[:, i:i + 6, j:j + 6, :] @ w[i, j] for i in range(3) for j in range(3))
    np.testing.assert_allclose(lib.main(x, w, b), np.maximum(y + b, 0), rtol=1e-4, atol=1e-4)
