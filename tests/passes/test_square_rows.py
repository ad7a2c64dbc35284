"""A row fusion or row reduction whose run-time row length is also one of its row dims (the
host computes both from one size: attention's [b, h, s, s] scores) is not split into chunk
kernels (bufferize._rows_outnumber_length): fewer rows than chunks would mean rows too short
to cut. Independent run-time dims still split. Checked on the loop stage's kernels and
against numpy."""
import numpy as np

import aot
from lowering.frontend.parser import parse_module
from lowering.passes.pipeline import run_pipeline

T, R = "tensor<?x4x?x?xf32>", "tensor<?x4x?xf32>"


def softmax(tied: bool) -> str:
    """softmax over the last dim of %x, or of %x reshaped to [d0, 4, d3, d3] (`tied`)."""
    last = "%r3, %r3" if tied else "%r2, %r3"
    return f"""func.func @main(%x: {T}) -> {T} {{
  %d0 = stablehlo.get_dimension_size %x, dim = 0 : ({T}) -> tensor<i32>
  %d2 = stablehlo.get_dimension_size %x, dim = 2 : ({T}) -> tensor<i32>
  %d3 = stablehlo.get_dimension_size %x, dim = 3 : ({T}) -> tensor<i32>
  %r0 = stablehlo.reshape %d0 : (tensor<i32>) -> tensor<1xi32>
  %r2 = stablehlo.reshape %d2 : (tensor<i32>) -> tensor<1xi32>
  %r3 = stablehlo.reshape %d3 : (tensor<i32>) -> tensor<1xi32>
  %c4 = stablehlo.constant dense<4> : tensor<1xi32>
  %shape = stablehlo.concatenate %r0, %c4, {last}, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
  %xs = stablehlo.dynamic_reshape %x, %shape : ({T}, tensor<4xi32>) -> {T}
  %ninf = stablehlo.constant dense<-1.0e30> : tensor<f32>
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %m = stablehlo.reduce(%xs init: %ninf) applies stablehlo.maximum across dimensions = [3] : ({T}, tensor<f32>) -> {R}
  %mb = stablehlo.dynamic_broadcast_in_dim %m, %shape, dims = [0, 1, 2] : ({R}, tensor<4xi32>) -> {T}
  %d = stablehlo.subtract %xs, %mb : {T}
  %e = stablehlo.exponential %d : {T}
  %s = stablehlo.reduce(%e init: %zero) applies stablehlo.add across dimensions = [3] : ({T}, tensor<f32>) -> {R}
  %sb = stablehlo.dynamic_broadcast_in_dim %s, %shape, dims = [0, 1, 2] : ({R}, tensor<4xi32>) -> {T}
  %y = stablehlo.divide %e, %sb : {T}
  return %y : {T}
}}"""  # noqa: E501


def row_kernels(text: str) -> int:
    """Kernels made from the softmax's fusion: 1 whole, 3 when split (two reductions, the elements)."""
    module = run_pipeline(parse_module(text, "t.mlir"), "loops")
    return sum("aot.kernel" in f.attrs for f in module.functions()
               if "reshape" not in str(f.attrs.get("aot.kernel")))


def test_square_rows_are_not_split():
    assert row_kernels(softmax(tied=True)) < row_kernels(softmax(tied=False))
    assert row_kernels(softmax(tied=False)) - row_kernels(softmax(tied=True)) == 2


def test_square_rows_match_numpy():
    lib = aot.compile(softmax(tied=True), name="square_rows_softmax")
    rng = np.random.default_rng(3)
    for b, s in ((1, 1), (1, 2), (2, 7), (1, 9), (3, 24), (1, 130)):
        x = rng.standard_normal((b, 4, s, s)).astype(np.float32)
        e = np.exp(x.astype(np.float64) - x.max(-1, keepdims=True))
        want = e / e.sum(-1, keepdims=True)
        for threads in (1, 2):
            lib.set_num_threads(threads)
            np.testing.assert_allclose(lib.main(x), want, rtol=2e-5, atol=1e-7, err_msg=f"b{b} s{s}")
