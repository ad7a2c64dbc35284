"""The shape code of a symbolic batch, as `jax.export` writes it (a shape tensor built at every
use), compiled once and checked once: repeated shape ops shared before fusion
(lowering/passes/cse.py), shape tensors read on the host as the dims they were built from
(host_shapes.fold_shape_tensor), and a dim times constants kept as one product. Checked on
the fused and loop stages' text, and numerically against numpy at several batches."""
import re

import numpy as np
import pytest

import aot
from lowering.frontend.parser import parse_module
from lowering.frontend.printer import print_module
from lowering.passes.pipeline import run_pipeline

PROGRAM = """
func.func public @main(%x: tensor<?x4xf32>, %bias: tensor<4xf32>) -> tensor<?x4xf32> {
  %b = stablehlo.get_dimension_size %x, dim = 0 : (tensor<?x4xf32>) -> tensor<i32>
  %r = call @body(%b, %x, %bias) : (tensor<i32>, tensor<?x4xf32>, tensor<4xf32>) -> tensor<?x4xf32>
  return %r : tensor<?x4xf32>
}
func.func private @body(%b: tensor<i32>, %x: tensor<?x4xf32>, %bias: tensor<4xf32>) -> tensor<?x4xf32> {
  %c4 = stablehlo.constant dense<4> : tensor<1xi32>
  %c2 = stablehlo.constant dense<2> : tensor<1xi32>
  %c2b = stablehlo.constant dense<2> : tensor<1xi32>
  %b1 = stablehlo.reshape %b : (tensor<i32>) -> tensor<1xi32>
  %s1 = stablehlo.concatenate %b1, %c4, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
  %bb = stablehlo.dynamic_broadcast_in_dim %bias, %s1, dims = [1]
      : (tensor<4xf32>, tensor<2xi32>) -> tensor<?x4xf32>
  %y = stablehlo.add %x, %bb : tensor<?x4xf32>
  %b2 = stablehlo.reshape %b : (tensor<i32>) -> tensor<1xi32>
  %s2 = stablehlo.concatenate %b2, %c2, %c2b, dim = 0
      : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
  %p = stablehlo.dynamic_reshape %y, %s2 : (tensor<?x4xf32>, tensor<3xi32>) -> tensor<?x2x2xf32>
  %e = stablehlo.exponential %p : tensor<?x2x2xf32>
  %b3 = stablehlo.reshape %b : (tensor<i32>) -> tensor<1xi32>
  %s3 = stablehlo.concatenate %b3, %c4, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
  %q = stablehlo.dynamic_reshape %e, %s3 : (tensor<?x2x2xf32>, tensor<2xi32>) -> tensor<?x4xf32>
  %bb2 = stablehlo.dynamic_broadcast_in_dim %bias, %s3, dims = [1]
      : (tensor<4xf32>, tensor<2xi32>) -> tensor<?x4xf32>
  %out = stablehlo.multiply %q, %bb2 : tensor<?x4xf32>
  return %out : tensor<?x4xf32>
}
"""


def stage(name):
    return print_module(run_pipeline(parse_module(PROGRAM, "shape.mlir"), name))


def test_repeated_shape_code_is_shared_before_fusion():
    fused = stage("fused")
    # one reshape of the batch, one [b, 4] and one [b, 2, 2] shape tensor (each use had its own)
    assert len(re.findall(r'"mhlo.reshape"\(%\w+\) : \(tensor<i32>\)', fused)) == 1
    concats = re.findall(r'"mhlo.concatenate".*-> tensor<(\d)xi32>', fused)
    assert sorted(concats) == ["2", "3"]
    # the two equal constants [2] became one
    assert len(re.findall(r"dense<\[2\]> : tensor<1xi32>", fused)) == 1


def test_shape_tensors_read_as_their_dims_with_no_checks():
    """Every dynamic dim is the argument's dim 0 itself: the broadcasts' and reshapes' result
    dims need no load from the shape buffers and no run-time check against each other (the
    element counts b*4 and b*2*2 are one product)."""
    loops = stage("loops")
    main = loops[:loops.index("func.func private")]
    assert '"memref.load"' not in main
    assert '"aot.check"' not in main


@pytest.mark.parametrize("batch", [1, 3, 7])
def test_shape_code_results_match_numpy(batch):
    lib = aot.compile(PROGRAM, name="shape_code")
    rng = np.random.default_rng(batch)
    x = rng.standard_normal((batch, 4)).astype(np.float32)
    bias = rng.standard_normal(4).astype(np.float32)
    want = np.exp(x + bias) * bias
    np.testing.assert_allclose(lib.main(x, bias), want, rtol=2e-6, atol=1e-6)


def test_shape_tensors_are_stored_by_the_host_not_by_kernels():
    """A shape tensor the host folds (constants and sizes, concatenated) is a few scalar
    stores in the host code, not a kernel of its own (each a call through the thread pool):
    the program's one kernel computes the floats."""
    lhlo = stage("lhlo")
    assert lhlo.count('"lmhlo.fusion"') == 1, lhlo  # was 4: the [b, 4] and [b, 2, 2] shapes
    assert re.search(r'"memref.store"\(%\w+, %\w+, %\w+\) : \(i32, memref<3xi32>', lhlo), lhlo


SLICE = """
func.func public @main(%x: tensor<?x4xf32>) -> tensor<?x?xf32> {
  %two = stablehlo.constant dense<[2, 0]> : tensor<2xi32>
  %one = stablehlo.constant dense<1> : tensor<1xi32>
  %four = stablehlo.constant dense<4> : tensor<1xi32>
  %steps = stablehlo.constant dense<1> : tensor<2xi32>
  %n = stablehlo.get_dimension_size %x, dim = 0 : (tensor<?x4xf32>) -> tensor<i32>
  %b = stablehlo.reshape %n : (tensor<i32>) -> tensor<1xi32>
  %end = stablehlo.concatenate %b, %four, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
  %lo = stablehlo.concatenate %b, %one, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
  %start = stablehlo.subtract %lo, %two : tensor<2xi32>
  %y = stablehlo.real_dynamic_slice %x, %start, %end, %steps
      : (tensor<?x4xf32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<?x?xf32>
  return %y : tensor<?x?xf32>
}"""


@pytest.mark.parametrize("batch", [2, 5])
def test_a_kernel_reads_the_host_stored_shape_tensor(tmp_path, batch):
    """The slice's kernel reads its start indices [b - 2, 1] from the buffer the host code
    stored them into: the last two rows, columns 1..3."""
    lhlo = print_module(run_pipeline(parse_module(SLICE, "slice.mlir"), "lhlo"))
    assert lhlo.count('"lmhlo.') == 1, lhlo  # the slice alone; its shapes stored by the host
    lib = aot.compile(SLICE, name="host_stored", output_dir=str(tmp_path))
    x = np.arange(batch * 4, dtype=np.float32).reshape(batch, 4)
    np.testing.assert_array_equal(lib.main(x), x[batch - 2:, 1:])


# torch's x[-3:, 1:] on a ? batch: the row start wrapped when negative and clamped to the
# size, the column start an element of an iota; both folded on the host
CLAMPED = """
func.func public @main(%x: tensor<?x4xf32>) -> tensor<?x?xf32> {
  %n = stablehlo.get_dimension_size %x, dim = 0 : (tensor<?x4xf32>) -> tensor<i32>
  %minus3 = stablehlo.constant dense<-3> : tensor<i32>
  %zero = stablehlo.constant dense<0> : tensor<i32>
  %negative = stablehlo.compare LT, %minus3, %zero, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
  %wrapped = stablehlo.add %minus3, %n : tensor<i32>
  %s = stablehlo.select %negative, %wrapped, %minus3 : tensor<i1>, tensor<i32>
  %row = stablehlo.clamp %zero, %s, %n : (tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<i32>
  %row1 = stablehlo.reshape %row : (tensor<i32>) -> tensor<1xi32>
  %iota = stablehlo.iota dim = 0 : tensor<2xi32>
  %col = stablehlo.slice %iota [1:2] : (tensor<2xi32>) -> tensor<1xi32>
  %start = stablehlo.concatenate %row1, %col, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
  %b = stablehlo.reshape %n : (tensor<i32>) -> tensor<1xi32>
  %four = stablehlo.constant dense<4> : tensor<1xi32>
  %end = stablehlo.concatenate %b, %four, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
  %steps = stablehlo.constant dense<1> : tensor<2xi32>
  %y = stablehlo.real_dynamic_slice %x, %start, %end, %steps
      : (tensor<?x4xf32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<?x?xf32>
  return %y : tensor<?x?xf32>
}"""  # noqa: E501


def test_clamped_slice_bounds_are_folded_on_the_host(tmp_path):
    """A clamp and an iota in a shape tensor's code are host arithmetic (each was a kernel
    of its own in the zoo's Falcon, DeBERTa and BEiT); the slice against numpy at batches
    below and above 3."""
    lhlo = print_module(run_pipeline(parse_module(CLAMPED, "clamped.mlir"), "lhlo"))
    assert lhlo.count('"lmhlo.') == 1, lhlo  # the slice alone
    lib = aot.compile(CLAMPED, name="clamped", output_dir=str(tmp_path))
    for batch in (1, 2, 3, 5):
        x = np.arange(batch * 4, dtype=np.float32).reshape(batch, 4)
        np.testing.assert_array_equal(lib.main(x), x[-3:, 1:])


CHECKED = """
func.func public @main(%x: tensor<?x4xf32>) -> tensor<?x4xf32> {
  %n = stablehlo.get_dimension_size %x, dim = 0 : (tensor<?x4xf32>) -> tensor<i32>
  %one = stablehlo.constant dense<1> : tensor<i32>
  %most = stablehlo.constant dense<6> : tensor<i32>
  %low = stablehlo.compare GE, %n, %one, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
  stablehlo.custom_call @shape_assertion(%low, %n) {error_message = "dim 0 is {0}, below 1",
      has_side_effect = true} : (tensor<i1>, tensor<i32>) -> ()
  %high = stablehlo.compare LE, %n, %most, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
  stablehlo.custom_call @shape_assertion(%high, %n) {error_message = "dim 0 is {0}, above 6",
      has_side_effect = true} : (tensor<i1>, tensor<i32>) -> ()
  %y = stablehlo.exponential %x : tensor<?x4xf32>
  return %y : tensor<?x4xf32>
}"""


def test_range_checks_of_sizes_run_on_the_host(tmp_path):
    """torch.export's Dim range checks (a size compared with its bounds) are host compares
    stored for the assertion, not a kernel each: one kernel, the exponential."""
    lhlo = print_module(run_pipeline(parse_module(CHECKED, "checked.mlir"), "lhlo"))
    assert lhlo.count('"lmhlo.fusion"') == 1, lhlo  # was 3
    assert lhlo.count('"aot.check"') == 2, lhlo
    lib = aot.compile(CHECKED, name="checked", output_dir=str(tmp_path))
    x = np.linspace(-1, 1, 20, dtype=np.float32).reshape(5, 4)
    np.testing.assert_allclose(lib.main(x), np.exp(x), rtol=2e-6)
    with pytest.raises(RuntimeError, match="dim 0 is 7, above 6"):
        lib.main(np.zeros((7, 4), np.float32))
    with pytest.raises(RuntimeError, match="dim 0 is 0, below 1"):
        lib.main(np.zeros((0, 4), np.float32))


STATIC_VALUE = """
func.func public @main(%x: tensor<?x8xf32>) -> tensor<?x8xf32> {
  %n = stablehlo.get_dimension_size %x, dim = 1 : (tensor<?x8xf32>) -> tensor<i32>
  %nine = stablehlo.constant dense<9> : tensor<i32>
  %ok = stablehlo.compare GE, %n, %nine, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
  stablehlo.custom_call @shape_assertion(%ok, %n) {error_message = "dim 1 is {0}, below 9",
      has_side_effect = true} : (tensor<i1>, tensor<i32>) -> ()
  return %x : tensor<?x8xf32>
}"""


def test_an_assertion_may_print_a_static_size(tmp_path):
    """A shape assertion's value that is a static dim (known while bufferizing, an int) is
    printed as a constant: it was an int operand of aot.check (fuzz seed 11 input 969)."""
    lib = aot.compile(STATIC_VALUE, name="static_value", output_dir=str(tmp_path))
    with pytest.raises(RuntimeError, match="dim 1 is 8, below 9"):
        lib.main(np.zeros((2, 8), np.float32))


FLOOR = """
func.func public @main(%x: tensor<?xf32>) -> (tensor<i32>, tensor<i32>) {
  %n = stablehlo.get_dimension_size %x, dim = 0 : (tensor<?xf32>) -> tensor<i32>
  %zero = stablehlo.constant dense<0> : tensor<i32>
  %one = stablehlo.constant dense<1> : tensor<i32>
  %four = stablehlo.constant dense<4> : tensor<i32>
  %ten = stablehlo.constant dense<10> : tensor<i32>
  %a = stablehlo.subtract %n, %ten : tensor<i32>
  %q0 = stablehlo.divide %a, %four : tensor<i32>
  %sa = stablehlo.sign %a : tensor<i32>
  %s4 = stablehlo.sign %four : tensor<i32>
  %signs = stablehlo.compare NE, %sa, %s4, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
  %r0 = stablehlo.remainder %a, %four : tensor<i32>
  %inexact = stablehlo.compare NE, %r0, %zero, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
  %down = stablehlo.and %signs, %inexact : tensor<i1>
  %q1 = stablehlo.subtract %q0, %one : tensor<i32>
  %q = stablehlo.select %down, %q1, %q0 : tensor<i1>, tensor<i32>
  %rneg = stablehlo.compare LT, %r0, %zero, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
  %dneg = stablehlo.compare LT, %four, %zero, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
  %differ = stablehlo.compare NE, %rneg, %dneg, UNSIGNED : (tensor<i1>, tensor<i1>) -> tensor<i1>
  %wrap = stablehlo.and %differ, %inexact : tensor<i1>
  %r1 = stablehlo.add %r0, %four : tensor<i32>
  %r = stablehlo.select %wrap, %r1, %r0 : tensor<i1>, tensor<i32>
  return %q, %r : tensor<i32>, tensor<i32>
}"""


def test_floor_division_of_a_size_runs_on_the_host(tmp_path):
    """jax.export's floor division and modulo of a size ((n - 10) // 4 and % 4: a strided
    convolution's output length) spelled with sign, remainder, compare, and, select: host
    arithmetic, no kernel; the results against Python's // and % on both signs."""
    lhlo = print_module(run_pipeline(parse_module(FLOOR, "floor.mlir"), "lhlo"))
    assert '"lmhlo.' not in lhlo, lhlo  # was 5 kernels
    lib = aot.compile(FLOOR, name="floor", output_dir=str(tmp_path))
    for n in (0, 3, 9, 10, 13, 14, 17):
        q, r = lib.main(np.zeros(n, np.float32))
        assert (int(q), int(r)) == ((n - 10) // 4, (n - 10) % 4), n


# x + arange(max(n, 0)): PyTorch's arange length, (end - start) / step floored at 0
ARANGE = """
func.func public @main(%x: tensor<?xf32>) -> tensor<?xf32> {
  %n = stablehlo.get_dimension_size %x, dim = 0 : (tensor<?xf32>) -> tensor<i32>
  %zero = stablehlo.constant dense<0> : tensor<i32>
  %m = stablehlo.maximum %n, %zero : tensor<i32>
  %m1 = stablehlo.reshape %m : (tensor<i32>) -> tensor<1xi32>
  %i = stablehlo.dynamic_iota %m1, dim = 0 : (tensor<1xi32>) -> tensor<?xf32>
  %y = stablehlo.add %x, %i : tensor<?xf32>
  return %y : tensor<?xf32>
}"""


def test_a_size_floored_at_zero_is_the_size(tmp_path):
    """max(n, 0) of a size n is n on the host (HostShapes.max): the arange's length is the
    input's, one size argument for the kernel, no maximum computed and no check that the
    lengths agree."""
    loops = print_module(run_pipeline(parse_module(ARANGE, "arange.mlir"), "loops"))
    main = loops.split("func.func private")[0]
    assert "arith.maxsi" not in main and '"aot.check"' not in main, main
    lib = aot.compile(ARANGE, name="arange", output_dir=str(tmp_path))
    for n in (1, 5):
        x = np.linspace(-1, 1, n, dtype=np.float32)
        np.testing.assert_array_equal(lib.main(x), x + np.arange(n, dtype=np.float32))
