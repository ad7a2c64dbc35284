"""A row of an argument picked along dim 0 (a decoder's `k_cache[i]`, a dynamic_gather in
JAX's export) is read in place: bufferize makes it an `aot.row_view` of the argument, no
kernel copying it. The start index is clamped as gather clamps it; the argument is never
written through the view, and a view returned is the caller's own copy."""
import numpy as np
import pytest

import aot
from lowering.frontend.parser import parse_module
from lowering.frontend.printer import print_module
from lowering.passes.pipeline import run_pipeline

ROW = """func.func @main(%c: tensor<4x3x?x5xf32>, %i: tensor<i32>, %q: tensor<3x5xf32>) -> (tensor<3x?xf32>, tensor<3x?x5xf32>, tensor<3x?x5xf32>) {
  %n = stablehlo.get_dimension_size %c, dim = 2 : (tensor<4x3x?x5xf32>) -> tensor<i32>
  %n1 = stablehlo.reshape %n : (tensor<i32>) -> tensor<1xi32>
  %one = stablehlo.constant dense<1> : tensor<1xi32>
  %three = stablehlo.constant dense<3> : tensor<1xi32>
  %five = stablehlo.constant dense<5> : tensor<1xi32>
  %sizes = stablehlo.concatenate %one, %three, %n1, %five, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
  %idx = stablehlo.broadcast_in_dim %i, dims = [] : (tensor<i32>) -> tensor<1xi32>
  %row = "stablehlo.dynamic_gather"(%c, %idx, %sizes) <{dimension_numbers = #stablehlo.gather<offset_dims = [0, 1, 2], collapsed_slice_dims = [0], start_index_map = [0]>, indices_are_sorted = true}> : (tensor<4x3x?x5xf32>, tensor<1xi32>, tensor<4xi32>) -> tensor<3x?x5xf32>
  %s = stablehlo.dot_general %q, %row, batching_dims = [0] x [0], contracting_dims = [1] x [2] : (tensor<3x5xf32>, tensor<3x?x5xf32>) -> tensor<3x?xf32>
  %e = stablehlo.exponential %row : tensor<3x?x5xf32>
  return %s, %row, %e : tensor<3x?xf32>, tensor<3x?x5xf32>, tensor<3x?x5xf32>
}"""  # noqa: E501


def test_a_row_of_an_argument_is_a_view_not_a_copy():
    lhlo = print_module(run_pipeline(parse_module(ROW, "row.mlir"), "lhlo"))
    assert lhlo.count('"aot.row_view"(%arg0') == 1
    assert "dynamic_gather" not in lhlo.split('"aot.row_view"')[1]  # no kernel picks the row
    # a narrower slice (dim 2 not whole) is not a row: still a kernel
    narrow = ROW.replace("%n1, %five", "%one, %five")
    assert '"aot.row_view"' not in print_module(run_pipeline(parse_module(narrow, "n.mlir"), "lhlo"))


def test_row_view_numbers_against_numpy():
    lib = aot.compile(ROW, name="row_view")
    rng = np.random.default_rng(3)
    for length in (1, 7, 300):
        c = rng.standard_normal((4, 3, length, 5)).astype(np.float32)
        q = rng.standard_normal((3, 5)).astype(np.float32)
        before = c.copy()
        for i in (-3, 0, 2, 3, 9):  # clamped to 0 .. 3, as gather clamps
            row = before[min(max(i, 0), 3)]
            s, r, e = lib.main(c, np.int32(i), q)
            np.testing.assert_allclose(s, np.einsum("hd,hld->hl", q.astype(np.float64), row),
                                       rtol=1e-5, atol=1e-5, err_msg=f"L={length} i={i}")
            np.testing.assert_array_equal(r, row)
            np.testing.assert_allclose(e, np.exp(row.astype(np.float64)), rtol=1e-6)
            r[:] = 0  # the returned row is the caller's own
        np.testing.assert_array_equal(c, before)


# A second cache whose length jax.export checks equal to the first's (`L` shared): its row
# sliced to the first's length is the whole row, so a view too (decoding's v_cache[i]).
TWO = """func.func @main(%c: tensor<4x3x?x5xf32>, %v: tensor<4x3x?x5xf32>, %i: tensor<i32>, %q: tensor<3x5xf32>) -> tensor<3x?xf32> {
  %n = stablehlo.get_dimension_size %c, dim = 2 : (tensor<4x3x?x5xf32>) -> tensor<i32>
  %m = stablehlo.get_dimension_size %v, dim = 2 : (tensor<4x3x?x5xf32>) -> tensor<i32>
  %eq = stablehlo.compare EQ, %m, %n, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
  stablehlo.custom_call @shape_assertion(%eq, %m, %n) {api_version = 2 : i32, error_message = "v's length {0} is not c's {1}", has_side_effect = true} : (tensor<i1>, tensor<i32>, tensor<i32>) -> ()
  %n1 = stablehlo.reshape %n : (tensor<i32>) -> tensor<1xi32>
  %one = stablehlo.constant dense<1> : tensor<1xi32>
  %three = stablehlo.constant dense<3> : tensor<1xi32>
  %five = stablehlo.constant dense<5> : tensor<1xi32>
  %sizes = stablehlo.concatenate %one, %three, %n1, %five, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
  %idx = stablehlo.broadcast_in_dim %i, dims = [] : (tensor<i32>) -> tensor<1xi32>
  %row = "stablehlo.dynamic_gather"(%v, %idx, %sizes) <{dimension_numbers = #stablehlo.gather<offset_dims = [0, 1, 2], collapsed_slice_dims = [0], start_index_map = [0]>, indices_are_sorted = true}> : (tensor<4x3x?x5xf32>, tensor<1xi32>, tensor<4xi32>) -> tensor<3x?x5xf32>
  %s = stablehlo.dot_general %q, %row, batching_dims = [0] x [0], contracting_dims = [1] x [2] : (tensor<3x5xf32>, tensor<3x?x5xf32>) -> tensor<3x?xf32>
  return %s : tensor<3x?xf32>
}"""  # noqa: E501


def test_a_row_sliced_to_a_length_asserted_equal_is_a_view():
    """The equality holds from the check on: the call fails there first otherwise."""
    lhlo = print_module(run_pipeline(parse_module(TWO, "two.mlir"), "lhlo"))
    assert lhlo.count('"aot.row_view"(%arg1') == 1
    unchecked = TWO.replace("%eq = stablehlo.compare EQ", "%eq = stablehlo.compare GE")
    assert '"aot.row_view"' not in print_module(run_pipeline(parse_module(unchecked, "u.mlir"),
                                                             "lhlo"))
    lib = aot.compile(TWO, name="row_view_asserted")
    rng = np.random.default_rng(4)
    c, v = (rng.standard_normal((4, 3, 6, 5)).astype(np.float32) for _ in range(2))
    q = rng.standard_normal((3, 5)).astype(np.float32)
    np.testing.assert_allclose(lib.main(c, v, np.int32(2), q),
                               np.einsum("hd,hld->hl", q.astype(np.float64), v[2]), rtol=1e-5,
                               atol=1e-5)
    with pytest.raises(RuntimeError, match="v's length 7 is not c's 6"):
        lib.main(c, np.zeros((4, 3, 7, 5), np.float32), np.int32(2), q)
