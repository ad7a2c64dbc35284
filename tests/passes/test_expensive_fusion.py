"""An expensive elementwise op (cos, exp, ...) is not fused into a kernel that would compute
it again for every copy a broadcast along an outer dim makes of it (RoPE's cos/sin table
spread over batch and heads): it gets a kernel of its own and is read from its buffer.
Spread along trailing dims only (a row's value over the row) it stays fused, since LLVM
computes it once per row. Checked on the fused and loop stages' text and against numpy,
with a `?` batch and sequence."""
import re

import numpy as np

import aot
from lowering.frontend.parser import parse_module
from lowering.frontend.printer import print_module
from lowering.passes.fusion import format_report
from lowering.passes.pipeline import run_pipeline

ROPE_LIKE = """func.func @main(%x: tensor<?x4x?x16xf32>, %a: tensor<?x16xf32>) -> tensor<?x4x?x16xf32> {
  %c = stablehlo.cosine %a : tensor<?x16xf32>
  %b = stablehlo.get_dimension_size %x, dim = 0 : (tensor<?x4x?x16xf32>) -> tensor<i32>
  %s = stablehlo.get_dimension_size %x, dim = 2 : (tensor<?x4x?x16xf32>) -> tensor<i32>
  %b1 = stablehlo.reshape %b : (tensor<i32>) -> tensor<1xi32>
  %s1 = stablehlo.reshape %s : (tensor<i32>) -> tensor<1xi32>
  %four = stablehlo.constant dense<4> : tensor<1xi32>
  %sixteen = stablehlo.constant dense<16> : tensor<1xi32>
  %shape = stablehlo.concatenate %b1, %four, %s1, %sixteen, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
  %cb = stablehlo.dynamic_broadcast_in_dim %c, %shape, dims = [2, 3] : (tensor<?x16xf32>, tensor<4xi32>) -> tensor<?x4x?x16xf32>
  %y = stablehlo.multiply %x, %cb : tensor<?x4x?x16xf32>
  return %y : tensor<?x4x?x16xf32>
}"""  # noqa: E501

ROW_SPREAD = """func.func @main(%x: tensor<8x16xf32>, %r: tensor<8xf32>) -> tensor<8x16xf32> {
  %e = stablehlo.exponential %r : tensor<8xf32>
  %eb = stablehlo.broadcast_in_dim %e, dims = [0] : (tensor<8xf32>) -> tensor<8x16xf32>
  %y = stablehlo.multiply %x, %eb : tensor<8x16xf32>
  return %y : tensor<8x16xf32>
}"""

CHEAP_OUTER = ROW_SPREAD.replace("exponential", "negate").replace(
    "dims = [0] : (tensor<8xf32>) -> tensor<8x16xf32>", "dims = [1] : (tensor<16xf32>) -> tensor<8x16xf32>"
).replace("%r: tensor<8xf32>", "%r: tensor<16xf32>").replace("%r : tensor<8xf32>", "%r : tensor<16xf32>")

# cos and sin of one table concatenated (not the root): the select chain would evaluate both
# at every element, 2 x 2048 evaluations for 2048 elements
ROTATION = """func.func @main(%x: tensor<128x32xf32>, %a: tensor<128x16xf32>) -> tensor<128x32xf32> {
  %c = stablehlo.cosine %a : tensor<128x16xf32>
  %s = stablehlo.sine %a : tensor<128x16xf32>
  %cs = stablehlo.concatenate %c, %s, dim = 1 : (tensor<128x16xf32>, tensor<128x16xf32>) -> tensor<128x32xf32>
  %y = stablehlo.multiply %x, %cs : tensor<128x32xf32>
  return %y : tensor<128x32xf32>
}"""  # noqa: E501


def kernels(text):
    """The fused stage's report split per kernel, and the loop stage's text per function."""
    module = run_pipeline(parse_module(text, "t.mlir"), "fused")
    report = [k for k in re.split(r"^kernel \d+: ", format_report(module), flags=re.M)[1:]
              if "stablehlo" in k or "mhlo." in k]
    loops = print_module(run_pipeline(parse_module(text, "t.mlir"), "loops"))
    funcs = re.split(r"func\.func private ", loops)[1:]
    return report, funcs


def test_an_outer_broadcast_of_cos_reads_it_from_its_own_kernel():
    report, funcs = kernels(ROPE_LIKE)
    own = [k for k in report if "mhlo.cosine" in k]
    assert len(own) == 1 and "(1 op)" in own[0] and "expensive op" in own[0]
    # the multiply's kernel loads the table: no cos in it, one in the table's kernel
    with_cos = [f for f in funcs if "math.cos" in f]
    assert len(with_cos) == 1 and "arith.mulf" not in with_cos[0]
    lib = aot.compile(ROPE_LIKE, name="rope_like")
    rng = np.random.default_rng(0)
    for b, s in [(3, 5), (1, 1), (2, 0)]:
        x = rng.standard_normal((b, 4, s, 16)).astype(np.float32)
        a = rng.standard_normal((s, 16)).astype(np.float32) * 3
        np.testing.assert_allclose(lib.main(x, a), x * np.cos(a), rtol=2e-6, atol=2e-6,
                                   err_msg=f"{b}x{s}")


def test_a_row_value_spread_along_the_row_stays_fused():
    """Along the row, a cheap op over outer dims, or an expensive one on a few elements
    (fewer extra evaluations than a kernel of its own costs): one kernel."""
    small_outer = CHEAP_OUTER.replace("negate", "exponential")  # 16 values, 8 copies
    for text in (ROW_SPREAD, CHEAP_OUTER, small_outer):
        report, _ = kernels(text)
        assert len(report) == 1 and "expensive op" not in report[0], report


def test_a_concatenation_of_cos_and_sin_reads_both_from_buffers():
    report, funcs = kernels(ROTATION)
    assert sum("expensive op" in k for k in report) == 2
    assert not any("math.cos" in f and "math.sin" in f for f in funcs)
    lib = aot.compile(ROTATION, name="rotation")
    rng = np.random.default_rng(1)
    x = rng.standard_normal((128, 32)).astype(np.float32)
    a = rng.standard_normal((128, 16)).astype(np.float32) * 3
    want = x * np.concatenate([np.cos(a), np.sin(a)], axis=1)
    np.testing.assert_allclose(lib.main(x, a), want, rtol=2e-6, atol=2e-6)


# a static batch-1 RoPE table: cos of [8, 16] spread over 4 heads, 384 extra evaluations
STATIC_HEADS = """func.func @main(%x: tensor<1x4x8x16xf32>, %a: tensor<8x16xf32>) -> tensor<1x4x8x16xf32> {
  %c = stablehlo.cosine %a : tensor<8x16xf32>
  %cb = stablehlo.broadcast_in_dim %c, dims = [2, 3] : (tensor<8x16xf32>) -> tensor<1x4x8x16xf32>
  %y = stablehlo.multiply %x, %cb : tensor<1x4x8x16xf32>
  return %y : tensor<1x4x8x16xf32>
}"""  # noqa: E501


def test_a_small_static_table_over_heads_reads_it_from_its_own_kernel():
    """A few hundred extra evaluations already cost more than a kernel: the static [1,8]
    Llama-like model's RoPE kernels took 6.7 us fused against 2.8 us split."""
    report, funcs = kernels(STATIC_HEADS)
    own = [k for k in report if "mhlo.cosine" in k]
    assert len(own) == 1 and "(1 op)" in own[0] and "expensive op" in own[0]
    lib = aot.compile(STATIC_HEADS, name="static_heads")
    rng = np.random.default_rng(2)
    x = rng.standard_normal((1, 4, 8, 16)).astype(np.float32)
    a = rng.standard_normal((8, 16)).astype(np.float32) * 3
    np.testing.assert_allclose(lib.main(x, a), x * np.cos(a), rtol=2e-6, atol=2e-6)
