"""Control flow: while, if, case on the host around kernels; carried values of any
count and shape (a dynamic one that grows each iteration too), branches of different
shapes, nested loops, calls inside bodies, and no leaks."""
import numpy as np
import pytest

import aot
from abi import AotRuntimeError

FORI = """
func.func @main(%x: tensor<4xf32>, %n: tensor<i32>) -> (tensor<4xf32>, tensor<i32>) {
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %0:3 = stablehlo.while(%i = %c0, %m = %n, %acc = %x) : tensor<i32>, tensor<i32>, tensor<4xf32>
  cond {
    %p = stablehlo.compare LT, %i, %m, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %one = stablehlo.constant dense<1> : tensor<i32>
    %i1 = stablehlo.add %i, %one : tensor<i32>
    %f = stablehlo.convert %i : (tensor<i32>) -> tensor<f32>
    %fb = stablehlo.broadcast_in_dim %f, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %h = func.call @step(%acc) : (tensor<4xf32>) -> tensor<4xf32>
    %a = stablehlo.add %h, %fb : tensor<4xf32>
    stablehlo.return %i1, %m, %a : tensor<i32>, tensor<i32>, tensor<4xf32>
  }
  return %0#2, %0#0 : tensor<4xf32>, tensor<i32>
}
func.func private @step(%v: tensor<4xf32>) -> tensor<4xf32> {
  %half = stablehlo.constant dense<0.5> : tensor<4xf32>
  %0 = stablehlo.multiply %v, %half : tensor<4xf32>
  return %0 : tensor<4xf32>
}
"""


def test_fori_loop_with_call_in_body():
    lib = aot.compile(FORI, name="cf_fori")
    x = np.arange(4, dtype=np.float32)
    for n in (0, 1, 5, 30):
        y, i = lib.main(x, np.int32(n))
        want = x.copy()
        for k in range(n):
            want = (want * np.float32(0.5) + np.float32(k)).astype(np.float32)
        np.testing.assert_allclose(y, want, rtol=1e-6)
        assert int(i) == max(n, 0)
    del y, i  # results live in the runtime's allocator until they are dropped
    assert lib.alloc_stats()["bytes_in_use"] == 0


def test_growing_dynamic_carry_and_nested_loop():
    """x doubles in length each outer iteration; an inner loop sums it into a scalar."""
    lib = aot.compile("""
    func.func @main(%x: tensor<?xf32>, %n: tensor<i32>) -> (tensor<?xf32>, tensor<f32>) {
      %c0 = stablehlo.constant dense<0> : tensor<i32>
      %z = stablehlo.constant dense<0.0> : tensor<f32>
      %0:3 = stablehlo.while(%i = %c0, %v = %x, %s = %z) : tensor<i32>, tensor<?xf32>, tensor<f32>
      cond {
        %p = stablehlo.compare LT, %i, %n, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
        stablehlo.return %p : tensor<i1>
      } do {
        %one = stablehlo.constant dense<1> : tensor<i32>
        %i1 = stablehlo.add %i, %one : tensor<i32>
        %v2 = stablehlo.concatenate %v, %v, dim = 0 : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
        %len = stablehlo.get_dimension_size %v2, dim = 0 : (tensor<?xf32>) -> tensor<i32>
        %1:2 = stablehlo.while(%j = %c0, %t = %s) : tensor<i32>, tensor<f32>
        cond {
          %q = stablehlo.compare LT, %j, %len, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
          stablehlo.return %q : tensor<i1>
        } do {
          %j1 = stablehlo.add %j, %one : tensor<i32>
          %e = stablehlo.dynamic_slice %v2, %j, sizes = [1] : (tensor<?xf32>, tensor<i32>) -> tensor<1xf32>
          %es = stablehlo.reshape %e : (tensor<1xf32>) -> tensor<f32>
          %t1 = stablehlo.add %t, %es : tensor<f32>
          stablehlo.return %j1, %t1 : tensor<i32>, tensor<f32>
        }
        stablehlo.return %i1, %v2, %1#1 : tensor<i32>, tensor<?xf32>, tensor<f32>
      }
      return %0#1, %0#2 : tensor<?xf32>, tensor<f32>
    }""", name="cf_grow")
    for size, n in ((1, 0), (3, 1), (2, 4)):
        x = np.arange(1, size + 1, dtype=np.float32)
        v, s = lib.main(x, np.int32(n))
        want_v, want_s = x, 0.0
        for _ in range(n):
            want_v = np.concatenate([want_v, want_v])
            want_s += want_v.sum()
        np.testing.assert_array_equal(v, want_v)
        assert float(s) == pytest.approx(want_s)
    del v, s  # results live in the runtime's allocator until they are dropped
    assert lib.alloc_stats()["bytes_in_use"] == 0


def test_case_and_if_with_branches_of_different_shapes():
    lib = aot.compile("""
    func.func @main(%k: tensor<i32>, %x: tensor<3xf32>) -> (tensor<?xf32>, tensor<3xf32>) {
      %0 = "stablehlo.case"(%k) ({
        %a = stablehlo.slice %x [0:1] : (tensor<3xf32>) -> tensor<1xf32>
        %ad = stablehlo.reshape %a : (tensor<1xf32>) -> tensor<1xf32>
        %b = stablehlo.concatenate %ad, %ad, dim = 0 : (tensor<1xf32>, tensor<1xf32>) -> tensor<2xf32>
        %r = stablehlo.reshape %b : (tensor<2xf32>) -> tensor<2xf32>
        %d = stablehlo.real_dynamic_slice %x, %lo, %hi, %st : (tensor<3xf32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<?xf32>
        stablehlo.return %d : tensor<?xf32>
      }, {
        stablehlo.return %x : tensor<3xf32>
      }, {
        %n = stablehlo.negate %x : tensor<3xf32>
        stablehlo.return %n : tensor<3xf32>
      }) : (tensor<i32>) -> tensor<?xf32>
      %zero = stablehlo.constant dense<0> : tensor<i32>
      %p = stablehlo.compare GT, %k, %zero, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %1 = "stablehlo.if"(%p) ({
        %e = stablehlo.exponential %x : tensor<3xf32>
        stablehlo.return %e : tensor<3xf32>
      }, {
        stablehlo.return %x : tensor<3xf32>
      }) : (tensor<i1>) -> tensor<3xf32>
      return %0, %1 : tensor<?xf32>, tensor<3xf32>
    }""".replace("%lo, %hi, %st", "%lo, %hi, %st").replace(  # noqa: E501
        "func.func @main(%k: tensor<i32>, %x: tensor<3xf32>)",
        "func.func @main(%k: tensor<i32>, %x: tensor<3xf32>, %lo: tensor<1xi32>, %hi: tensor<1xi32>, "
        "%st: tensor<1xi32>)"), name="cf_case")
    x = np.array([1, 2, 3], np.float32)
    lo, hi, st = np.array([1], np.int32), np.array([3], np.int32), np.array([1], np.int32)
    for k, want0 in ((0, x[1:3]), (1, x), (2, -x), (7, -x), (-1, -x)):  # out of range: last
        a, b = lib.main(np.int32(k), x, lo, hi, st)
        np.testing.assert_array_equal(a, want0)
        np.testing.assert_allclose(b, np.exp(x) if k > 0 else x, rtol=1e-6)
    del a, b  # results live in the runtime's allocator until they are dropped
    assert lib.alloc_stats()["bytes_in_use"] == 0


def test_region_must_return_the_declared_types():
    with pytest.raises(aot.CompileError, match="region returns tensor<4xf32>; expected tensor<3xf32>"):
        aot.compile("""
        func.func @main(%p: tensor<i1>, %x: tensor<3xf32>, %y: tensor<4xf32>) -> tensor<3xf32> {
          %0 = "stablehlo.if"(%p) ({
            stablehlo.return %x : tensor<3xf32>
          }, {
            stablehlo.return %y : tensor<4xf32>
          }) : (tensor<i1>) -> tensor<3xf32>
          return %0 : tensor<3xf32>
        }""", name="cf_bad_types")


def test_loops_allocate_nothing_per_iteration():
    """Static carried values ping-pong between two buffers and small temporaries (the loop
    predicate) live on the stack: the allocation count does not grow with the trip count."""
    lib = aot.compile(FORI, name="cf_fori")
    x = np.arange(4, dtype=np.float32)
    counts = []
    for n in (1, 50):
        lib.reset_alloc_stats()
        lib.main(x, np.int32(n))
        counts.append(lib.alloc_stats()["num_allocs"])
    assert counts[0] == counts[1], counts


def test_tuples_built_and_taken_apart_are_forwarded():
    import os
    path = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "data",
                        "tuples.mlir")
    lib = aot.compile(path, name="tuples")
    x, i = lib.main(np.ones(3, np.float32), np.arange(3, dtype=np.int32))
    np.testing.assert_array_equal(x, [0, 1, 2])
    np.testing.assert_array_equal(i, [2, 2, 2])
    through_barrier = aot.compile("""
        func.func @main(%a: tensor<3xf32>) -> tensor<3xf32> {
          %t = stablehlo.tuple %a, %a : tuple<tensor<3xf32>, tensor<3xf32>>
          %0 = "stablehlo.optimization_barrier"(%t) : (tuple<tensor<3xf32>, tensor<3xf32>>) -> tuple<tensor<3xf32>, tensor<3xf32>>
          %1 = stablehlo.get_tuple_element %0[0] : (tuple<tensor<3xf32>, tensor<3xf32>>) -> tensor<3xf32>
          return %1 : tensor<3xf32>
        }""", name="tuple_barrier")  # noqa: E501
    np.testing.assert_array_equal(through_barrier.main(np.arange(3, dtype=np.float32)), [0, 1, 2])
    with pytest.raises(aot.CompileError, match=r"type tuple<tensor<3xf32>> is not supported"):
        aot.compile("""
        func.func @main(%a: tensor<3xf32>) -> tuple<tensor<3xf32>> {
          %t = stablehlo.tuple %a : tuple<tensor<3xf32>>
          return %t : tuple<tensor<3xf32>>
        }""", name="tuple_escapes")


FAIL_INSIDE = """func.func @main(%x: tensor<?xf32>, %n: tensor<i64>, %p: tensor<i1>, %s: tensor<1xi64>) -> tensor<?xf32> {
  %zero = stablehlo.constant dense<0> : tensor<i64>
  %one = stablehlo.constant dense<1> : tensor<i64>
  %f = stablehlo.constant dense<2.0> : tensor<f32>
  %r:2 = stablehlo.while(%i = %zero, %acc = %x) : tensor<i64>, tensor<?xf32>
   cond {
    %c = stablehlo.compare LT, %i, %n : (tensor<i64>, tensor<i64>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  } do {
    %k = stablehlo.constant dense<3> : tensor<i64>
    %d = stablehlo.subtract %k, %i : tensor<i64>
    %sd = stablehlo.reshape %d : (tensor<i64>) -> tensor<1xi64>
    %b = stablehlo.dynamic_broadcast_in_dim %f, %sd, dims = [] : (tensor<f32>, tensor<1xi64>) -> tensor<?xf32>
    %a = stablehlo.concatenate %acc, %b, %acc, dim = 0 : (tensor<?xf32>, tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
    %i2 = stablehlo.add %i, %one : tensor<i64>
    stablehlo.return %i2, %a : tensor<i64>, tensor<?xf32>
  }
  %t = "stablehlo.if"(%p) ({
    %c2 = stablehlo.concatenate %r#1, %r#1, dim = 0 : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
    stablehlo.return %c2 : tensor<?xf32>
  }, {
    %c3 = stablehlo.concatenate %r#1, %r#1, %r#1, dim = 0 : (tensor<?xf32>, tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
    stablehlo.return %c3 : tensor<?xf32>
  }) : (tensor<i1>) -> tensor<?xf32>
  %neg = stablehlo.negate %t : tensor<?xf32>
  %tail = stablehlo.dynamic_broadcast_in_dim %f, %s, dims = [] : (tensor<f32>, tensor<1xi64>) -> tensor<?xf32>
  %out = stablehlo.concatenate %neg, %tail, dim = 0 : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
  return %out : tensor<?xf32>
}"""  # noqa: E501


def test_a_failure_after_loops_and_branches_frees_each_buffer_once():
    """Buffers handed from iteration to iteration, and out of a branch, are freed once when a
    later op fails: inside the loop (iteration 4's negative dim), or after the branch (the
    branch's result already freed, the tail's dim negative). The call's error is the op's
    own, not the allocator's complaint about a second free, and nothing stays in use."""
    lib = aot.compile(FAIL_INSIDE, name="cf_fail_inside")
    x = np.ones(100, np.float32)
    y = lib.main(x, np.int64(2), np.bool_(True), np.array([3], np.int64))
    assert y.shape == (2 * 408 + 3,)
    del y
    lib.reset_alloc_stats()
    for n, p, s, where in ((6, True, 3, ":13:10"), (2, True, -1, ":26:11"), (2, False, -1, ":26:11")):
        with pytest.raises(AotRuntimeError, match=f"'mhlo.dynamic_broadcast_in_dim' at .*{where}: "
                                                      r"result f32\[-1\] has a negative dim"):
            lib.main(x, np.int64(n), np.bool_(p), np.array([s], np.int64))
    stats = lib.alloc_stats()
    assert stats["bytes_in_use"] == 0 and stats["num_allocs"] == stats["num_frees"] > 0
