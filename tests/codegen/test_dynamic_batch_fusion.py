"""A dynamic batch fuses like a static one (issue 28): torch.export's programs read each
dynamic broadcast's sizes from the tensor beside it (`get_dimension_size` of the previous
op's result), and that read, a user outside the kernel, cut fusion after every op
(MobileNetV3-Small at a `?` batch: 403 kernels, 65 static). lowering/passes/cse.py reads
such sizes from the earliest value of the same size. Checked on the fused stage's text and
numerically against numpy at two batches."""
from functools import partial

import numpy as np
import pytest

import aot
from lowering.frontend.parser import parse_module
from lowering.frontend.printer import print_module
from lowering.passes.pipeline import run_pipeline
from torch_text import size_broadcast

_bcast = partial(size_broadcast, shape=(8, 4))  # `operand` broadcast to [batch, *shape]


PROGRAM = f"""
func.func public @main(%x: tensor<?x8x4xf32>, %scale: tensor<8xf32>, %shift: tensor<8xf32>)
    -> tensor<?x8x4xf32> {{
  %c8 = stablehlo.constant dense<8> : tensor<1xi32>
  %c4 = stablehlo.constant dense<4> : tensor<1xi32>
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  {_bcast("s", "tensor<8xf32>", "x", "scale", "[1]")}
  %a = stablehlo.multiply %x, %s : tensor<?x8x4xf32>
  {_bcast("t", "tensor<8xf32>", "a", "shift", "[1]")}
  %b = stablehlo.add %a, %t : tensor<?x8x4xf32>
  {_bcast("z", "tensor<f32>", "b", "zero", "[]")}
  %c = stablehlo.maximum %b, %z : tensor<?x8x4xf32>
  %d = stablehlo.exponential %c : tensor<?x8x4xf32>
  {_bcast("u", "tensor<8xf32>", "d", "scale", "[1]")}
  %e = stablehlo.multiply %d, %u : tensor<?x8x4xf32>
  return %e : tensor<?x8x4xf32>
}}"""


def test_sizes_read_from_the_input_so_one_kernel_computes_everything():
    fused = print_module(run_pipeline(parse_module(PROGRAM, "dyn.mlir"), "fused"))
    compute = [line for line in fused.splitlines()
               if "fusion_kind" in line and "xf32>" in line.rsplit("->", 1)[-1]]
    assert len(compute) == 1, fused  # was 4: a kernel cut after each op whose size was read
    sizes = [line for line in fused.splitlines() if "get_dimension_size" in line]
    assert len(sizes) == 1 and "%arg0" in sizes[0], fused  # one read, of the input


@pytest.mark.parametrize("batch", [3, 17])
def test_numbers_match_numpy(tmp_path, batch):
    lib = aot.compile(PROGRAM, name="dynbatch", output_dir=str(tmp_path))
    rng = np.random.default_rng(batch)
    x = rng.standard_normal((batch, 8, 4)).astype(np.float32)
    scale, shift = rng.standard_normal((2, 8)).astype(np.float32)
    want = np.exp(np.maximum(x * scale[:, None] + shift[:, None], 0)) * scale[:, None]
    np.testing.assert_allclose(lib.main(x, scale, shift), want, rtol=1e-5, atol=1e-6)


CONV = """
func.func public @main(%x: tensor<?x2x4x4xf32>, %w: tensor<3x2x1x1xf32>, %b: tensor<3xf32>)
    -> tensor<?x3x4x4xf32> {
  %c3 = stablehlo.constant dense<3> : tensor<1xi32>
  %c4 = stablehlo.constant dense<4> : tensor<1xi32>
  %y = stablehlo.convolution(%x, %w) dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1],
      window = {stride = [1, 1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64}
      : (tensor<?x2x4x4xf32>, tensor<3x2x1x1xf32>) -> tensor<?x3x4x4xf32>
  %n = stablehlo.get_dimension_size %y, dim = 0 : (tensor<?x3x4x4xf32>) -> tensor<i32>
  %r = stablehlo.reshape %n : (tensor<i32>) -> tensor<1xi32>
  %s = stablehlo.concatenate %r, %c3, %c4, %c4, dim = 0
      : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
  %bb = stablehlo.dynamic_broadcast_in_dim %b, %s, dims = [1]
      : (tensor<3xf32>, tensor<4xi32>) -> tensor<?x3x4x4xf32>
  %z = stablehlo.add %y, %bb : tensor<?x3x4x4xf32>
  return %z : tensor<?x3x4x4xf32>
}"""


def test_a_convolutions_batch_is_read_from_its_input():
    fused = print_module(run_pipeline(parse_module(CONV, "conv.mlir"), "fused"))
    sizes = [line for line in fused.splitlines() if "get_dimension_size" in line]
    assert len(sizes) == 1 and "(%arg0)" in sizes[0], fused


@pytest.mark.parametrize("pad", ["[[0, 0], [1, 1]]", "[[1, 0], [1, 1]]"])
def test_reduce_window_keeps_its_size_only_where_its_window_is_one(tmp_path, pad):
    """A reduce_window's size read goes back to its input on a dim of window 1 with no
    padding (its padding a dense attribute, as StableHLO prints it), and stays on a padded
    one, where the sizes differ; numbers against numpy either way."""
    program = f"""
func.func public @main(%x: tensor<?x6xf32>) -> (tensor<?x6xf32>, tensor<i32>) {{
  %init = stablehlo.constant dense<0.0> : tensor<f32>
  %w = "stablehlo.reduce_window"(%x, %init) ({{
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %s : tensor<f32>
  }}) {{window_dimensions = array<i64: 1, 3>, padding = dense<{pad}> : tensor<2x2xi64>}}
      : (tensor<?x6xf32>, tensor<f32>) -> tensor<?x6xf32>
  %n = stablehlo.get_dimension_size %w, dim = 0 : (tensor<?x6xf32>) -> tensor<i32>
  return %w, %n : tensor<?x6xf32>, tensor<i32>
}}"""
    if pad.startswith("[[0, 0]"):
        fused = print_module(run_pipeline(parse_module(program, "rw.mlir"), "fused"))
        sizes = [line for line in fused.splitlines() if "get_dimension_size" in line]
        assert len(sizes) == 1 and "%arg0" in sizes[0], fused  # read from the input
    x = np.arange(5 * 6, dtype=np.float32).reshape(5, 6)
    rows = (0, 0) if pad.startswith("[[0, 0]") else (1, 0)  # a padded batch: one row more
    padded = np.pad(x, (rows, (1, 1)))
    want = np.stack([padded[:, j:j + 3].sum(1) for j in range(padded.shape[1] - 2)], 1)
    lib = aot.compile(program, name="rw" + str(len(pad)), output_dir=str(tmp_path))
    got, n = lib.main(x)
    np.testing.assert_allclose(got, want)
    assert int(n) == want.shape[0]
