"""What a `?` program's kernels know at compile time. The elements of shape tensors the host
knows (slice starts and strides, pad amounts: constants, or concatenations of them with sizes)
are constants in the kernel, not loads (bufferize.known_elements, loops.fold_known_loads);
LLVM compiles no copy of a kernel's loop behind a run-time check that a buffer's dim is 1 (a
stride: machine._stride_checks; the helpers keep theirs), and a static dim of 1 is the
constant in the address arithmetic, so a stride it makes 1 is still seen as 1. Checked on the
loop stage's and LLVM's text, and against numpy."""
import re

import numpy as np

import aot
from aot.driver import Compilation, Options
from lowering.frontend.printer import print_module

SHAPE = """
  %n = stablehlo.get_dimension_size %x, dim = 0 : (tensor<?x16xf32>) -> tensor<i32>
  %n1 = stablehlo.reshape %n : (tensor<i32>) -> tensor<1xi32>
  %c0 = stablehlo.constant dense<0> : tensor<1xi32>
  %c1 = stablehlo.constant dense<1> : tensor<1xi32>
  %c2 = stablehlo.constant dense<2> : tensor<1xi32>
  %c16 = stablehlo.constant dense<16> : tensor<1xi32>
  %strides = stablehlo.concatenate %c1, %c1, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
  %limit = stablehlo.concatenate %n1, %c16, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
"""

# x[:, 2:] padded with one zero on each side of dim 1, squared: every start, stride and pad
# amount a constant (the limit holds the batch)
SLICE_PAD = """func.func @main(%x: tensor<?x16xf32>) -> tensor<?x16xf32> {""" + SHAPE + """
  %start = stablehlo.concatenate %c0, %c2, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
  %s = stablehlo.real_dynamic_slice %x, %start, %limit, %strides : (tensor<?x16xf32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<?x14xf32>
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %lo = stablehlo.constant dense<[0, 1]> : tensor<2xi32>
  %inner = stablehlo.constant dense<0> : tensor<2xi32>
  %p = stablehlo.dynamic_pad %s, %zero, %lo, %lo, %inner : (tensor<?x14xf32>, tensor<f32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<?x16xf32>
  %y = stablehlo.multiply %p, %p : tensor<?x16xf32>
  return %y : tensor<?x16xf32>
}"""  # noqa: E501

# the last two rows, squared: the start's row is the batch - 2, known only at run time
LAST_ROWS = """func.func @main(%x: tensor<?x16xf32>) -> tensor<?x16xf32> {""" + SHAPE + """
  %first = stablehlo.subtract %n1, %c2 : tensor<1xi32>
  %start = stablehlo.concatenate %first, %c0, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
  %s = stablehlo.real_dynamic_slice %x, %start, %limit, %strides : (tensor<?x16xf32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<?x16xf32>
  %y = stablehlo.multiply %s, %s : tensor<?x16xf32>
  return %y : tensor<?x16xf32>
}"""  # noqa: E501

# a [?, ?, 64] row sum of squares (a layer norm's): the nest over the two `?` dims is split
# over threads, the 64 inside unrolled
ROW_SQUARES = """func.func @main(%x: tensor<?x?x64xf32>) -> tensor<?x?xf32> {
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %sq = stablehlo.multiply %x, %x : tensor<?x?x64xf32>
  %s = stablehlo.reduce(%sq init: %zero) applies stablehlo.add across dimensions = [2] : (tensor<?x?x64xf32>, tensor<f32>) -> tensor<?x?xf32>
  return %s : tensor<?x?xf32>
}"""  # noqa: E501

# [?, 64, 1] -> [?, 1, 64]: the output's row reads the input along its dim 1, stride dim 2 = 1
TRANSPOSE_ONES = """func.func @main(%x: tensor<?x64x1xf32>) -> tensor<?x1x64xf32> {
  %t = stablehlo.transpose %x, dims = [0, 2, 1] : (tensor<?x64x1xf32>) -> tensor<?x1x64xf32>
  %y = stablehlo.multiply %t, %t : tensor<?x1x64xf32>
  return %y : tensor<?x1x64xf32>
}"""


# BLOOM's QKV split: a [b*s, 64] result reshaped to [b, s, 64] with one input's sizes, then to
# [b, s, 4, 16] with another's, which a shape assertion checked equal
TWO_SOURCES = """func.func @main(%x: tensor<?x64xf32>, %ids: tensor<?x?xi32>, %m: tensor<?x?xf32>) -> tensor<?x?x4x16xf32> {
  %b = stablehlo.get_dimension_size %ids, dim = 0 : (tensor<?x?xi32>) -> tensor<i32>
  %s = stablehlo.get_dimension_size %ids, dim = 1 : (tensor<?x?xi32>) -> tensor<i32>
  %b2 = stablehlo.get_dimension_size %m, dim = 0 : (tensor<?x?xf32>) -> tensor<i32>
  %s2 = stablehlo.get_dimension_size %m, dim = 1 : (tensor<?x?xf32>) -> tensor<i32>
  %eb = stablehlo.compare EQ, %b, %b2, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
  stablehlo.custom_call @shape_assertion(%eb, %b, %b2) {error_message = "batch {0} != {1}", has_side_effect = true} : (tensor<i1>, tensor<i32>, tensor<i32>) -> ()
  %es = stablehlo.compare EQ, %s, %s2, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
  stablehlo.custom_call @shape_assertion(%es, %s, %s2) {error_message = "seq {0} != {1}", has_side_effect = true} : (tensor<i1>, tensor<i32>, tensor<i32>) -> ()
  %y = stablehlo.add %x, %x : tensor<?x64xf32>
  %b1 = stablehlo.reshape %b : (tensor<i32>) -> tensor<1xi32>
  %s1 = stablehlo.reshape %s : (tensor<i32>) -> tensor<1xi32>
  %bm = stablehlo.reshape %b2 : (tensor<i32>) -> tensor<1xi32>
  %sm = stablehlo.reshape %s2 : (tensor<i32>) -> tensor<1xi32>
  %c4 = stablehlo.constant dense<4> : tensor<1xi32>
  %c16 = stablehlo.constant dense<16> : tensor<1xi32>
  %c64 = stablehlo.constant dense<64> : tensor<1xi32>
  %three = stablehlo.concatenate %b1, %s1, %c64, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
  %y3 = stablehlo.dynamic_reshape %y, %three : (tensor<?x64xf32>, tensor<3xi32>) -> tensor<?x?x64xf32>
  %four = stablehlo.concatenate %bm, %sm, %c4, %c16, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
  %z = stablehlo.dynamic_reshape %y3, %four : (tensor<?x?x64xf32>, tensor<4xi32>) -> tensor<?x?x4x16xf32>
  return %z : tensor<?x?x4x16xf32>
}"""  # noqa: E501


# m[b, j] at the `?` aranges b and j, j wrapped as PyTorch's indexing wraps a negative index
# (BLOOM's padding mask, read per query row): an identity gather
IOTA_GATHER = """func.func @main(%m: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %b = stablehlo.get_dimension_size %m, dim = 0 : (tensor<?x?xf32>) -> tensor<i32>
  %s = stablehlo.get_dimension_size %m, dim = 1 : (tensor<?x?xf32>) -> tensor<i32>
  %b1 = stablehlo.reshape %b : (tensor<i32>) -> tensor<1xi32>
  %s1 = stablehlo.reshape %s : (tensor<i32>) -> tensor<1xi32>
  %c1 = stablehlo.constant dense<1> : tensor<1xi32>
  %sh = stablehlo.concatenate %b1, %s1, %c1, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
  %ib = stablehlo.dynamic_iota %sh, dim = 0 : (tensor<3xi32>) -> tensor<?x?x1xi64>
  %is = stablehlo.dynamic_iota %sh, dim = 1 : (tensor<3xi32>) -> tensor<?x?x1xi64>
  %zero = stablehlo.constant dense<0> : tensor<i64>
  %z = stablehlo.dynamic_broadcast_in_dim %zero, %sh, dims = [] : (tensor<i64>, tensor<3xi32>) -> tensor<?x?x1xi64>
  %n64 = stablehlo.convert %s : (tensor<i32>) -> tensor<i64>
  %n = stablehlo.dynamic_broadcast_in_dim %n64, %sh, dims = [] : (tensor<i64>, tensor<3xi32>) -> tensor<?x?x1xi64>
  %neg = stablehlo.compare LT, %is, %z, SIGNED : (tensor<?x?x1xi64>, tensor<?x?x1xi64>) -> tensor<?x?x1xi1>
  %up = stablehlo.add %is, %n : tensor<?x?x1xi64>
  %w = stablehlo.select %neg, %up, %is : tensor<?x?x1xi1>, tensor<?x?x1xi64>
  %idx = stablehlo.concatenate %ib, %w, dim = 2 : (tensor<?x?x1xi64>, tensor<?x?x1xi64>) -> tensor<?x?x2xi64>
  %g = "stablehlo.gather"(%m, %idx) {dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0, 1], start_index_map = [0, 1], index_vector_dim = 2>, slice_sizes = array<i64: 1, 1>} : (tensor<?x?xf32>, tensor<?x?x2xi64>) -> tensor<?x?xf32>
  %y = stablehlo.multiply %g, %g : tensor<?x?xf32>
  return %y : tensor<?x?xf32>
}"""  # noqa: E501


def shape_loads(text: str, name: str) -> list:
    """The loop stage's loads of a shape tensor (a tensor<2xi32> operand) in the kernels."""
    comp = Compilation(text, f"{name}.mlir", Options(name=name, emit="loops"))
    return re.findall(r'"memref.load"\([^)]*\) : \(memref<2xi32>', print_module(comp.loops()))


def kernel_ir(text: str, name: str) -> str:
    """The optimised LLVM IR of the module's first kernel."""
    llvm = str(Compilation(text, f"{name}.mlir", Options(name=name, emit="llvm")).llvm()[2])
    start = llvm.index(f"@{name}.main_kernel_0(")
    return llvm[start:llvm.index("\ndefine ", start)]


def test_known_slice_and_pad_amounts_are_constants():
    assert shape_loads(SLICE_PAD, "known_pad") == []
    lib = aot.compile(SLICE_PAD, name="known_pad")
    for batch in (1, 3):
        x = np.random.default_rng(batch).standard_normal((batch, 16)).astype(np.float32)
        want = np.zeros_like(x)
        want[:, 1:15] = x[:, 2:] * x[:, 2:]
        np.testing.assert_array_equal(lib.main(x), want)


def test_a_start_known_only_at_run_time_is_loaded():
    assert len(shape_loads(LAST_ROWS, "known_rows")) == 1  # start[0]; start[1] and strides known
    lib = aot.compile(LAST_ROWS, name="known_rows")
    for batch in (2, 5):
        x = np.random.default_rng(batch).standard_normal((batch, 16)).astype(np.float32)
        np.testing.assert_array_equal(lib.main(x), x[-2:] * x[-2:])


def test_no_loop_behind_a_check_that_a_dim_is_1():
    """LLVM vectorised the split nest's middle loop (the 64 unrolled) behind `dim 2 == 1`, a
    copy never run (dim 2 is 64): 5x the kernel's LLVM time."""
    assert not re.search(r"icmp eq i64 %[\w.]+, 1\n", kernel_ir(ROW_SQUARES, "row_squares"))
    lib = aot.compile(ROW_SQUARES, name="row_squares")
    x = np.random.default_rng(0).standard_normal((3, 5, 64)).astype(np.float32)
    np.testing.assert_allclose(lib.main(x), (x.astype(np.float64) ** 2).sum(axis=2), rtol=1e-5)


def test_a_static_dim_of_1_makes_a_known_stride():
    """Read along a dim whose stride is a static dim of 1, the loop is a vector copy with no
    check of that stride (a run-time dim, it was checked, or without the check scalar)."""
    ir = kernel_ir(TRANSPOSE_ONES, "transpose_ones")
    assert "load <" in ir and not re.search(r"icmp eq i64 %[\w.]+, 1\n", ir)
    lib = aot.compile(TRANSPOSE_ONES, name="transpose_ones")
    x = np.random.default_rng(0).standard_normal((3, 64, 1)).astype(np.float32)
    np.testing.assert_array_equal(lib.main(x), (x * x).transpose(0, 2, 1))


def test_the_helpers_keep_their_stride_checks():
    """The matmul packs its operands through strides that are often 1: a module defining a
    helper keeps LLVM's stride-1 loop copies (a versioned loop: `vector.scevcheck`)."""
    from lowering.codegen.cpu.helpers import MAKERS, helper_text
    from lowering.codegen.llvm.machine import HELPER_FAMILIES, optimize, target_machine
    from lowering.target import host_target
    assert set(HELPER_FAMILIES) == set(MAKERS)
    target = host_target()
    tm = target_machine(target)
    gemm = str(optimize(helper_text("gemm", "f32", "aot.gemm.f32.test", target, tm), tm))
    assert "vector.scevcheck" in gemm
    assert not re.search(r"icmp eq i64 %[\w.]+, 1\n", kernel_ir(ROW_SQUARES, "row_squares_2"))


def test_sizes_asserted_equal_are_one_kernel_value():
    """The kernel gets one value for sizes a shape assertion made the same, so the second
    reshape maps b and s straight through instead of dividing the flat index by 64 and by s and
    multiplying back (BLOOM's QKV kernel: 124 ms of LLVM against 51 static)."""
    comp = Compilation(TWO_SOURCES, "two_sources.mlir", Options(name="two_sources", emit="loops"))
    kernels = print_module(comp.loops()).split("func.func private")[1:]
    assert kernels and not any(re.search(r"arith\.(divui|remui)", k) for k in kernels)
    lib = aot.compile(TWO_SOURCES, name="two_sources")
    rng = np.random.default_rng(0)
    for b, s in ((1, 3), (2, 5)):
        x = rng.standard_normal((b * s, 64)).astype(np.float32)
        got = lib.main(x, np.zeros((b, s), np.int32), np.zeros((b, s), np.float32))
        np.testing.assert_array_equal(got, (x + x).reshape(b, s, 4, 16))


def test_an_iota_gather_reads_in_order():
    """The gather's indices are the loops' ivs: their wrap and clamp into the operand change
    nothing (passes/kernel_ranges.py; the clamp's bound is the loop's, one size argument),
    so the kernel reads the operand with vector loads, no clamped index per element."""
    ir = kernel_ir(IOTA_GATHER, "iota_gather")
    assert "load <" in ir and not re.search(r"llvm\.s(min|max)\.v", ir)
    lib = aot.compile(IOTA_GATHER, name="iota_gather")
    for shape in ((1, 3), (4, 37)):
        x = np.random.default_rng(shape[1]).standard_normal(shape).astype(np.float32)
        np.testing.assert_array_equal(lib.main(x), x * x)


def test_a_clamp_the_bounds_do_not_decide_stays():
    """The same gather at aranges as long as another input's row: an index past the
    operand's row is clamped to its last element (the ranges differ: nothing folded)."""
    text = IOTA_GATHER.replace("%m: tensor<?x?xf32>) -> tensor<?x?xf32> {",
                               "%m: tensor<?x?xf32>, %l: tensor<?x?xf32>) -> tensor<?x?xf32> {")
    text = text.replace("%s = stablehlo.get_dimension_size %m, dim = 1",
                        "%s = stablehlo.get_dimension_size %l, dim = 1")
    lib = aot.compile(text, name="iota_gather_clamped")
    m = np.arange(12, dtype=np.float32).reshape(2, 6)
    got = lib.main(m, np.zeros((2, 9), np.float32))
    want = m[:, np.minimum(np.arange(9), 5)]
    np.testing.assert_array_equal(got, want * want)
