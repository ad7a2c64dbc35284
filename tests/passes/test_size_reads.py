"""Size reads through slices, transposes and concatenations: torch.export reads each dynamic
broadcast's batch from the tensor beside it, here the result of a real_dynamic_slice from 0
by 1 (ViT's q/k/v split), of a transpose and of a concatenation; cse.py reads them all from
the input (the slice's limit, the registry's `same_size` rules of transpose and
concatenate), so one kernel computes the floats, as in static form (ViT-B/16 with a `?`
batch: 305 kernels before, 257 static and now). Checked on the fused stage's text, and
against numpy."""
import numpy as np

import aot
from lowering.frontend.parser import parse_module
from lowering.frontend.printer import print_module
from lowering.passes.pipeline import run_pipeline


def _shape(name: str, of: str, type_: str, dim: int, parts: list) -> str:
    """A shape tensor whose `?` element is `of`'s size `dim` (torch.export's way)."""
    return f"""
  %{name}_n = stablehlo.get_dimension_size %{of}, dim = {dim} : ({type_}) -> tensor<i32>
  %{name}_r = stablehlo.reshape %{name}_n : (tensor<i32>) -> tensor<1xi32>
  %{name} = stablehlo.concatenate {", ".join(f"%{p}" if p != "?" else f"%{name}_r" for p in parts)},
      dim = 0 : ({", ".join(["tensor<1xi32>"] * len(parts))}) -> tensor<{len(parts)}xi32>"""


PROGRAM = f"""
func.func public @main(%x: tensor<?x4x6xf32>, %bias: tensor<2xf32>, %scale: tensor<4xf32>)
    -> tensor<4x?x4xf32> {{
  %c2 = stablehlo.constant dense<2> : tensor<1xi32>
  %c4 = stablehlo.constant dense<4> : tensor<1xi32>
  %zeros = stablehlo.constant dense<0> : tensor<3xi32>
  %ones = stablehlo.constant dense<1> : tensor<3xi32>
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  {_shape("lim", "x", "tensor<?x4x6xf32>", 0, ["?", "c4", "c2"])}
  %s = stablehlo.real_dynamic_slice %x, %zeros, %lim, %ones
      : (tensor<?x4x6xf32>, tensor<3xi32>, tensor<3xi32>, tensor<3xi32>) -> tensor<?x4x2xf32>
  {_shape("sb", "s", "tensor<?x4x2xf32>", 0, ["?", "c4", "c2"])}
  %b = stablehlo.dynamic_broadcast_in_dim %bias, %sb, dims = [2]
      : (tensor<2xf32>, tensor<3xi32>) -> tensor<?x4x2xf32>
  %a = stablehlo.add %s, %b : tensor<?x4x2xf32>
  %t = stablehlo.transpose %a, dims = [1, 0, 2] : (tensor<?x4x2xf32>) -> tensor<4x?x2xf32>
  {_shape("tb", "t", "tensor<4x?x2xf32>", 1, ["c4", "?", "c2"])}
  %k = stablehlo.dynamic_broadcast_in_dim %scale, %tb, dims = [0]
      : (tensor<4xf32>, tensor<3xi32>) -> tensor<4x?x2xf32>
  %m = stablehlo.multiply %t, %k : tensor<4x?x2xf32>
  %c = stablehlo.concatenate %m, %a2, dim = 2 : (tensor<4x?x2xf32>, tensor<4x?x2xf32>) -> tensor<4x?x4xf32>
  {_shape("cb", "c", "tensor<4x?x4xf32>", 1, ["c4", "?", "c4"])}
  %z = stablehlo.dynamic_broadcast_in_dim %zero, %cb, dims = []
      : (tensor<f32>, tensor<3xi32>) -> tensor<4x?x4xf32>
  %out = stablehlo.maximum %c, %z : tensor<4x?x4xf32>
  return %out : tensor<4x?x4xf32>
}}""".replace("%a2", "%m")


def test_sizes_read_through_slice_transpose_and_concatenate():
    fused = print_module(run_pipeline(parse_module(PROGRAM, "reads.mlir"), "fused"))
    sizes = [line for line in fused.splitlines() if "get_dimension_size" in line]
    assert len(sizes) == 1 and "(%arg0)" in sizes[0], fused  # was 4
    floats = [line for line in fused.splitlines()
              if "fusion_kind" in line and "xf32>" in line.rsplit("->", 1)[-1]]
    assert len(floats) == 1, fused  # was 4


def test_numbers_match_numpy(tmp_path):
    lib = aot.compile(PROGRAM, name="sizereads", output_dir=str(tmp_path))
    rng = np.random.default_rng(3)
    x = rng.standard_normal((3, 4, 6)).astype(np.float32)
    bias, scale = rng.standard_normal(2).astype(np.float32), rng.standard_normal(4).astype(np.float32)
    m = (x[:, :, :2] + bias).transpose(1, 0, 2) * scale[:, None, None]
    np.testing.assert_allclose(lib.main(x, bias, scale), np.maximum(np.concatenate([m, m], 2), 0),
                               rtol=1e-6)
