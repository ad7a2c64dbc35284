"""Dynamic shapes: one compiled library runs on every shape the program allows.

The RFC's own program in both its forms, the JAX symbolic-shape corpus at three
sizes each, the dynamic ops one by one against numpy, run-time errors instead of
out-of-bounds access, and no leaks over thousands of calls with varying shapes.
"""
import glob
import os
import re

import numpy as np
import pytest

import aot
from abi import AotRuntimeError
from corpus import assert_close

TESTS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SHARED = os.path.join(os.path.dirname(os.path.dirname(TESTS)), "shared", "examples")
RFC = os.path.join(TESTS, "data", "rfc")  # a copy of shared/examples, so any checkout runs it
DYN = os.path.join(TESTS, "data", "jax_dynamic")


def rfc_path(form):
    return os.path.join(RFC, f"rfc_dynamic_slice.{form}.mlir")


@pytest.mark.parametrize("form", ["hlo", "ldhlo"])
def test_rfc_copy_matches_shared_examples(form):
    """The copy in tests/data/rfc is the project's shared example, where that sits beside
    the checkout (it does in the team's workspace)."""
    shared = os.path.join(SHARED, f"rfc_dynamic_slice.{form}.mlir")
    with open(rfc_path(form)) as f:
        copy = f.read()
    assert "@main" in copy
    if os.path.exists(shared):
        with open(shared) as f:
            assert f.read() == copy


@pytest.mark.parametrize("form", ["hlo", "ldhlo"])
def test_rfc_program_every_size(form):
    lib = aot.compile(rfc_path(form), name=f"rfc_{form}")
    assert str(lib.main.signature) == \
        "main(arg0: f32[4,8], arg1: i64[2], arg2: f32[?,?], arg3: f32[?,?]) -> (f32[?,?])"
    rng = np.random.default_rng(0)
    arg0 = rng.random((4, 8), np.float32)
    for a in (1, 2):
        for b in (1, 2, 3, 4):
            for n in (1, 5):
                arg2 = rng.random((2 * a, 2 * b), np.float32)
                arg3 = rng.random((2 * b, n), np.float32)
                got = lib.main(arg0, np.array([a, b], np.int64), arg2, arg3)
                want = (arg0[:2 * a, :2 * b].astype(np.float64) + arg2) @ arg3
                np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("form", ["hlo", "ldhlo"])
@pytest.mark.parametrize("ab, shape2, message", [
    ((3, 1), (6, 2), r"start \+ size of dim 0 exceeds the operand \(6 vs 4\)"),
    ((1, 5), (2, 10), r"start \+ size of dim 1 exceeds the operand \(10 vs 8\)"),
    ((-1, 1), (1, 2), r"size of dim 0 is negative \(-2 vs 0\)"),
    ((1, 1), (3, 2), r"(operand dim 0 differs|buffer dim 0 does not fit): 2 != 3"),
])
def test_rfc_program_out_of_range(form, ab, shape2, message):
    lib = aot.compile(rfc_path(form), name=f"rfc_{form}")
    arg0 = np.zeros((4, 8), np.float32)
    with pytest.raises(AotRuntimeError) as info:
        lib.main(arg0, np.array(ab, np.int64), np.zeros(shape2, np.float32),
                 np.zeros((shape2[1], 3), np.float32))
    assert re.search(message, str(info.value)), str(info.value)
    assert f"rfc_dynamic_slice.{form}.mlir:" in str(info.value)  # the op's location


DYN_CASES = sorted(os.path.basename(p)[:-5] for p in glob.glob(os.path.join(DYN, "*.mlir")))


def sizes(npz):
    k = 0
    while f"s{k}_arg0" in npz.files:
        args = [npz[f"s{k}_arg{i}"] for i in range(16) if f"s{k}_arg{i}" in npz.files]
        outs = [npz[f"s{k}_out{i}"] for i in range(16) if f"s{k}_out{i}" in npz.files]
        yield k, args, outs
        k += 1


@pytest.mark.parametrize("case", DYN_CASES)
def test_jax_symbolic_export(case):
    """One library, three sizes, JAX's outputs."""
    lib = aot.compile(os.path.join(DYN, case + ".mlir"), name=case)
    npz = np.load(os.path.join(DYN, case + ".npz"))
    ran = 0
    for k, args, outs in sizes(npz):
        got = lib.main(*args)
        got = got if isinstance(got, tuple) else (got,)
        for i, (g, w) in enumerate(zip(got, outs)):
            assert_close(g, w, f"{case} size set {k} result {i}")
        ran += 1
    assert ran >= 3


def test_shape_assertion_reports_jax_message():
    lib = aot.compile(os.path.join(DYN, "shape_assert_add_b4.mlir"), name="shape_assert")
    npz = np.load(os.path.join(DYN, "shape_assert_add_b4.npz"))
    with pytest.raises(AotRuntimeError, match=r"args\[1\].shape\[0\] \(= 8\) and the "
                                              r"specification 'b' \(= 3\)"):
        lib.main(npz["bad0_arg0"], npz["bad0_arg1"])
    with pytest.raises(AotRuntimeError, match="Expected value >= 1 for dimension variable 'b'"):
        lib.main(npz["bad1_arg0"], npz["bad1_arg1"])


def compile_text(text, name):
    return aot.compile(text, name=name)


def test_dynamic_ops_against_numpy():
    lib = compile_text("""
    func.func @main(%x: tensor<?x?xf32>, %starts: tensor<2xi64>, %limits: tensor<2xi64>,
                    %strides: tensor<2xi64>, %i: tensor<i32>, %u: tensor<?x2xf32>)
        -> (tensor<?x?xf32>, tensor<2x2xf32>, tensor<?x?xf32>, tensor<?xf32>, tensor<?x?xi32>) {
      %0 = stablehlo.real_dynamic_slice %x, %starts, %limits, %strides : (tensor<?x?xf32>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>) -> tensor<?x?xf32>
      %c0 = stablehlo.constant dense<0> : tensor<i32>
      %1 = stablehlo.dynamic_slice %x, %i, %c0, sizes = [2, 2] : (tensor<?x?xf32>, tensor<i32>, tensor<i32>) -> tensor<2x2xf32>
      %2 = stablehlo.dynamic_update_slice %x, %u, %i, %c0 : (tensor<?x?xf32>, tensor<?x2xf32>, tensor<i32>, tensor<i32>) -> tensor<?x?xf32>
      %d0 = stablehlo.get_dimension_size %x, dim = 0 : (tensor<?x?xf32>) -> tensor<i32>
      %d1 = stablehlo.get_dimension_size %x, dim = 1 : (tensor<?x?xf32>) -> tensor<i32>
      %n = stablehlo.multiply %d0, %d1 : tensor<i32>
      %shape = stablehlo.reshape %n : (tensor<i32>) -> tensor<1xi32>
      %3 = stablehlo.dynamic_reshape %x, %shape : (tensor<?x?xf32>, tensor<1xi32>) -> tensor<?xf32>
      %r0 = stablehlo.reshape %d0 : (tensor<i32>) -> tensor<1xi32>
      %r1 = stablehlo.reshape %d1 : (tensor<i32>) -> tensor<1xi32>
      %s2 = stablehlo.concatenate %r0, %r1, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
      %4 = stablehlo.dynamic_iota %s2, dim = 1 : (tensor<2xi32>) -> tensor<?x?xi32>
      return %0, %1, %2, %3, %4 : tensor<?x?xf32>, tensor<2x2xf32>, tensor<?x?xf32>, tensor<?xf32>, tensor<?x?xi32>
    }""", "dynamic_ops")  # noqa: E501
    rng = np.random.default_rng(1)
    for shape in [(5, 7), (3, 3), (8, 2)]:
        x = rng.random(shape, np.float32)
        for start in (0, 1, 7, -3):  # dynamic_slice/update_slice clamp their starts (XLA)
            starts, limits, strides = np.array([1, 0]), np.array([shape[0], 2]), np.array([2, 1])
            u = rng.random((2, 2), np.float32)
            got = lib.main(x, starts, limits, strides, np.int32(start), u)
            s = min(max(start, 0), shape[0] - 2)
            upd = x.copy()
            upd[s:s + 2, 0:2] = u
            want = [x[1:shape[0]:2, 0:2], x[s:s + 2, 0:2], upd, x.reshape(-1),
                    np.broadcast_to(np.arange(shape[1], dtype=np.int32), shape)]
            for g, w in zip(got, want):
                np.testing.assert_array_equal(g, w)


def test_broadcast_of_a_dim_that_is_one_at_run_time():
    lib = compile_text("""
    func.func @main(%x: tensor<?x?xf32>, %y: tensor<?x?xf32>) -> tensor<?x?xf32> {
      %d0 = stablehlo.get_dimension_size %y, dim = 0 : (tensor<?x?xf32>) -> tensor<i32>
      %d1 = stablehlo.get_dimension_size %y, dim = 1 : (tensor<?x?xf32>) -> tensor<i32>
      %r0 = stablehlo.reshape %d0 : (tensor<i32>) -> tensor<1xi32>
      %r1 = stablehlo.reshape %d1 : (tensor<i32>) -> tensor<1xi32>
      %s = stablehlo.concatenate %r0, %r1, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
      %b = stablehlo.dynamic_broadcast_in_dim %x, %s, dims = [0, 1] : (tensor<?x?xf32>, tensor<2xi32>) -> tensor<?x?xf32>
      %0 = stablehlo.add %b, %y : tensor<?x?xf32>
      return %0 : tensor<?x?xf32>
    }""", "dyn_bcast")  # noqa: E501
    y = np.arange(12, dtype=np.float32).reshape(3, 4)
    for x in (np.ones((1, 4), np.float32), np.ones((3, 1), np.float32), np.ones((1, 1), np.float32),
              np.full((3, 4), 2, np.float32)):
        np.testing.assert_array_equal(lib.main(x, y), x + y)
    with pytest.raises(AotRuntimeError, match="operand dim 0 is 2, cannot broadcast to 3"):
        lib.main(np.ones((2, 4), np.float32), y)


def test_no_leaks_over_many_calls_with_varying_shapes():
    lib = compile_text("""
    func.func @main(%x: tensor<?x?xf32>) -> tensor<?xf32> {
      %e = stablehlo.exponential %x : tensor<?x?xf32>
      %z = stablehlo.constant dense<0.0> : tensor<f32>
      %s = stablehlo.reduce(%e init: %z) applies stablehlo.add across dimensions = [1] : (tensor<?x?xf32>, tensor<f32>) -> tensor<?xf32>
      %t = stablehlo.tanh %s : tensor<?xf32>
      return %t : tensor<?xf32>
    }""", "leak_check")  # noqa: E501
    lib.reset_alloc_stats()
    rng = np.random.default_rng(2)
    xs = [rng.random((int(a), int(b)), np.float32) for a, b in rng.integers(1, 40, size=(64, 2))]
    for i in range(10_000):
        x = xs[i % len(xs)]
        y = lib.main(x)
        if i % 997 == 0:
            np.testing.assert_allclose(y, np.tanh(np.exp(x.astype(np.float64)).sum(axis=1)), rtol=1e-5)
    del y  # results live in the runtime's allocator until they are dropped
    stats = lib.alloc_stats()
    assert stats["bytes_in_use"] == 0, stats
    assert stats["num_allocs"] == stats["num_frees"] >= 20_000
    hit_rate = stats["cache_hits"] / stats["num_allocs"]
    print(f"allocator: {stats['num_allocs']} allocations, cache hit rate {hit_rate:.1%}")
    if os.environ.get("AOT_ALLOCATOR") != "system":  # `make test-asan` turns the cache off
        assert hit_rate > 0.5


def first_occurrence_unique(y):
    """tf.Unique's answer from numpy: values in first-occurrence order, and indices into them."""
    _, first, inverse = np.unique(y, return_index=True, return_inverse=True)
    order = np.argsort(first)
    rank = np.empty_like(order)
    rank[order] = np.arange(len(order))
    return y[np.sort(first)], rank[inverse.reshape(-1)]


@pytest.mark.parametrize("elem, dtype", [("i32", np.int32), ("f32", np.float32), ("ui8", np.uint8)])
def test_unique(elem, dtype):
    lib = compile_text(f"""
    func.func @main(%y: tensor<?x{elem}>) -> (tensor<?x{elem}>, tensor<?xi64>) {{
      %v, %i = "dhlo.unique"(%y) : (tensor<?x{elem}>) -> (tensor<?x{elem}>, tensor<?xi64>)
      return %v, %i : tensor<?x{elem}>, tensor<?xi64>
    }}""", f"unique_{elem}")
    rng = np.random.default_rng(3)
    for n in (1, 2, 17, 300):
        y = rng.integers(0, 9, n).astype(dtype)
        values, index = lib.main(y)
        want_values, want_index = first_occurrence_unique(y)
        np.testing.assert_array_equal(values, want_values)
        np.testing.assert_array_equal(index, want_index)
        np.testing.assert_array_equal(values[index], y)


@pytest.mark.parametrize("shape", [(7,), (4, 5), (2, 3, 4), (1, 1)])
def test_where(shape):
    rank = len(shape)
    dyn = "x".join("?" * rank)
    lib = compile_text(f"""
    func.func @main(%x: tensor<{dyn}xi1>) -> tensor<?x{rank}xi64> {{
      %0 = dhlo.where %x : (tensor<{dyn}xi1>) -> tensor<?x{rank}xi64>
      return %0 : tensor<?x{rank}xi64>
    }}""", f"where_{rank}")
    rng = np.random.default_rng(4)
    for p in (0.0, 0.3, 1.0):
        for scale in (1, 3):
            x = rng.random(tuple(d * scale for d in shape)) < p
            np.testing.assert_array_equal(lib.main(x), np.argwhere(x))
    stats = lib.alloc_stats()
    assert stats["bytes_in_use"] == 0


def test_output_shapes_query_from_python():
    lib = aot.compile(rfc_path("hlo"), name="rfc_hlo")
    arg0 = np.ones((4, 8), np.float32)
    shapes, peak = lib.main.output_shapes(arg0, np.array([2, 3]), np.ones((4, 6), np.float32),
                                          np.ones((6, 5), np.float32))
    assert shapes == [(4, 5)]
    # live at once: starts + sizes (2 x 16 B), then slice+add (4x6 f32) with the matmul (4x5 f32)
    assert peak == 16 + 16 + 96 - 32 + 80
    with pytest.raises(AotRuntimeError, match=r"start \+ size of dim 0 exceeds the operand"):
        lib.main.output_shapes(arg0, np.array([3, 3]), np.ones((6, 6), np.float32),
                               np.ones((6, 5), np.float32))
    where = compile_text("""
    func.func @main(%x: tensor<?x?xf32>) -> (tensor<?x2xi64>, tensor<?xf32>) {
      %0 = dhlo.where %x : (tensor<?x?xf32>) -> tensor<?x2xi64>
      %z = stablehlo.constant dense<0.0> : tensor<f32>
      %s = stablehlo.reduce(%x init: %z) applies stablehlo.add across dimensions = [1] : (tensor<?x?xf32>, tensor<f32>) -> tensor<?xf32>
      return %0, %s : tensor<?x2xi64>, tensor<?xf32>
    }""", "where_query")  # noqa: E501
    assert where.main.output_shapes(np.ones((3, 5), np.float32)) == ([(-1, 2), (3,)], -1)


def test_check_on_a_data_dependent_count():
    """A check whose predicate a small kernel computes from a `where` count (torch._check on
    a nonzero count): the call checks it after the count exists; the shape query, which runs
    no data kernel, leaves it out (it once copied the count's store without the count)."""
    lib = compile_text("""
    func.func @main(%x: tensor<?xf32>) -> tensor<?x1xi64> {
      %z = mhlo.constant dense<0.0> : tensor<f32>
      %n = "mhlo.get_dimension_size"(%x) {dimension = 0 : i64} : (tensor<?xf32>) -> tensor<i32>
      %shape = "mhlo.reshape"(%n) : (tensor<i32>) -> tensor<1xi32>
      %zb = "mhlo.dynamic_broadcast_in_dim"(%z, %shape) {broadcast_dimensions = array<i64>} : (tensor<f32>, tensor<1xi32>) -> tensor<?xf32>
      %pos = "mhlo.compare"(%x, %zb) {comparison_direction = #mhlo<comparison_direction GT>} : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xi1>
      %w = "dhlo.where"(%pos) : (tensor<?xi1>) -> tensor<?x1xi64>
      %c = "mhlo.get_dimension_size"(%w) {dimension = 0 : i64} : (tensor<?x1xi64>) -> tensor<i32>
      %five = mhlo.constant dense<5> : tensor<i32>
      %zero = mhlo.constant dense<0> : tensor<i32>
      %r = mhlo.remainder %c, %five : tensor<i32>
      %ok = "mhlo.compare"(%r, %zero) {comparison_direction = #mhlo<comparison_direction NE>} : (tensor<i32>, tensor<i32>) -> tensor<i1>
      "mhlo.custom_call"(%ok, %c) {call_target_name = "shape_assertion", error_message = "{0} positives, a multiple of 5", has_side_effect = true, api_version = 2 : i64} : (tensor<i1>, tensor<i32>) -> ()
      return %w : tensor<?x1xi64>
    }""", "count_check")  # noqa: E501
    x = np.array([1, -1, 2, 3, -4, -5, 6, -7], np.float32)
    np.testing.assert_array_equal(lib.main(x), np.argwhere(x > 0))
    assert lib.main.output_shapes(x) == ([(-1, 1)], -1)
    x[[1, 5]] = 1  # 6 positives
    np.testing.assert_array_equal(lib.main(x), np.argwhere(x > 0))
    with pytest.raises(AotRuntimeError, match="5 positives, a multiple of 5"):
        lib.main(np.array([1, 1, 1, 1, 1, -1], np.float32))


def test_out_argument_writes_in_place():
    lib = compile_text("""
    func.func @main(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
      %0 = stablehlo.exponential %x : tensor<4xf32>
      %1 = stablehlo.negate %x : tensor<4xf32>
      return %0, %1 : tensor<4xf32>, tensor<4xf32>
    }""", "out_arg")
    x = np.arange(4, dtype=np.float32)
    a, b = np.empty(4, np.float32), np.empty(4, np.float32)
    got = lib.main(x, out=(a, b))
    assert got[0] is a and got[1] is b
    np.testing.assert_allclose(a, np.exp(x), rtol=1e-6)
    np.testing.assert_array_equal(b, -x)
    with pytest.raises(ValueError, match=r"result0.*expects a writeable C-contiguous f32\[4\]"):
        lib.main(x, out=(np.empty(5, np.float32), b))
    # kernels read arguments while writing results: overlapping out= arrays are refused
    with pytest.raises(ValueError, match=r"result0.*shares memory with argument 'x' \(#0\)"):
        lib.main(x, out=(x, b))
    with pytest.raises(ValueError, match=r"result1.*shares memory with result #0"):
        lib.main(x, out=(a, a))


def test_output_shapes_query_from_c(tmp_path):
    """A C caller sizes its result buffer with the query, then calls the entry into it."""
    import subprocess
    import sys
    root = os.path.dirname(TESTS)
    subprocess.run([sys.executable, "-m", "aot.cli", "compile", rfc_path("hlo"), "--name", "rfc",
                    "-o", str(tmp_path / "librfc.so")], check=True, capture_output=True,
                   env=dict(os.environ, PYTHONPATH=root))
    (tmp_path / "q.c").write_text(r'''
#include <stdio.h>
#include <stdlib.h>
#include "rfc.h"
int main(void) {
    static float a0[4 * 8], a2[4 * 6], a3[6 * 5];
    int64_t half[2] = {2, 3};
    int64_t d0[2] = {4, 8}, d1[1] = {2}, d2[2] = {4, 6}, d3[2] = {6, 5};
    for (int i = 0; i < 32; i++) a0[i] = 1;
    for (int i = 0; i < 24; i++) a2[i] = 1;
    for (int i = 0; i < 30; i++) a3[i] = 1;
    aot_tensor args[4] = {{a0, d0, 2, AOT_F32}, {half, d1, 1, AOT_I64}, {a2, d2, 2, AOT_F32},
                          {a3, d3, 2, AOT_F32}};
    int64_t dims[2], peak;
    if (rfc_main_output_shapes(args, dims, &peak)) { printf("%s\n", aot_last_error()); return 1; }
    float *y = malloc(sizeof(float) * dims[0] * dims[1]);
    aot_tensor res[1] = {{y, dims, 2, AOT_F32}};
    if (rfc_main(args, res)) { printf("%s\n", aot_last_error()); return 1; }
    printf("%lld x %lld, peak %lld, y[0] = %g\n", (long long)dims[0], (long long)dims[1],
           (long long)peak, y[0]);
    free(y);
    return 0;
}
''')
    from tooling import sanitize  # `make test-asan`: the program is sanitized too, leaks checked
    subprocess.run(["cc", *sanitize.cflags(), "-o", str(tmp_path / "q"), str(tmp_path / "q.c"),
                    "-I", str(tmp_path), "-L", str(tmp_path), "-lrfc", f"-Wl,-rpath,{tmp_path}",
                    "-lm", "-lpthread", "-ldl"], check=True)
    out = subprocess.run([str(tmp_path / "q")], capture_output=True, text=True,
                         env=sanitize.run_env())
    assert not sanitize.findings(out.stderr), out.stderr
    assert out.returncode == 0, out.stdout
    assert out.stdout.strip() == "4 x 5, peak 176, y[0] = 12"


def test_dynamic_pad():
    lib = compile_text("""
    func.func @main(%x: tensor<?x?xf32>, %p: tensor<f32>, %lo: tensor<2xi64>, %hi: tensor<2xi64>,
                    %in: tensor<2xi64>) -> tensor<?x?xf32> {
      %0 = stablehlo.dynamic_pad %x, %p, %lo, %hi, %in : (tensor<?x?xf32>, tensor<f32>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>) -> tensor<?x?xf32>
      return %0 : tensor<?x?xf32>
    }""", "dyn_pad")  # noqa: E501

    def reference(x, p, lo, hi, inner):
        for d in range(2):  # interior, then low/high (negative amounts crop)
            n = x.shape[d]
            shape = list(x.shape)
            shape[d] = n + max(n - 1, 0) * inner[d]
            y = np.full(shape, p, x.dtype)
            sl = [slice(None)] * 2
            sl[d] = slice(None, None, inner[d] + 1)
            y[tuple(sl)] = x
            before = [(0, 0)] * 2
            before[d] = (max(lo[d], 0), max(hi[d], 0))
            y = np.pad(y, before, constant_values=p)
            crop = [slice(None)] * 2
            crop[d] = slice(-min(lo[d], 0) or None, y.shape[d] + min(hi[d], 0))
            x = y[tuple(crop)]
        return x
    rng = np.random.default_rng(5)
    for shape, lo, hi, inner in [((3, 4), (1, 0), (0, 2), (0, 1)), ((2, 2), (-1, 2), (1, -1), (2, 0)),
                                 ((5, 1), (0, 0), (0, 0), (0, 0))]:
        x = rng.random(shape, np.float32)
        got = lib.main(x, np.float32(-1), np.array(lo), np.array(hi), np.array(inner))
        np.testing.assert_array_equal(got, reference(x, np.float32(-1), lo, hi, inner))
    with pytest.raises(AotRuntimeError, match="interior padding of dim 0 is negative"):
        lib.main(np.ones((2, 2), np.float32), np.float32(0), np.array([0, 0]), np.array([0, 0]),
                 np.array([-1, 0]))


CRAFTED_SHAPE = """func.func @main(%s: tensor<2xi64>, %p: tensor<i32>) -> (tensor<?x?xf32>, tensor<?xf32>) {
  %c = stablehlo.constant dense<1.0> : tensor<f32>
  %0 = stablehlo.dynamic_broadcast_in_dim %c, %s, dims = [] : (tensor<f32>, tensor<2xi64>) -> tensor<?x?xf32>
  %v = stablehlo.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %z = stablehlo.constant dense<0> : tensor<1xi32>
  %lo = stablehlo.reshape %p : (tensor<i32>) -> tensor<1xi32>
  %1 = stablehlo.dynamic_pad %v, %c, %lo, %z, %z : (tensor<3xf32>, tensor<f32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<?xf32>
  return %0, %1 : tensor<?x?xf32>, tensor<?xf32>
}"""  # noqa: E501

CRAFTED_RUN = """
import sys, numpy as np, aot
lib = aot.load(sys.argv[1])
for dims, pad in (([2**31, 2**31], 0), ([2**62, 4], 0), ([-20, 4], 0), ([3, 4], -5), ([2, 3], 1)):
    for call in (lib.main, lib.main.output_shapes):
        try:
            r = call(np.array(dims, np.int64), np.int32(pad))
            print("ok", r[0].shape if call is lib.main else r)
        except Exception as e:
            print("error", e)
        sys.stdout.flush()
"""


def test_crafted_shapes_are_errors_naming_the_op(tmp_path):
    """Dims from data that are negative, or whose byte size would wrap int64 (a tiny block,
    then writes past it), fail the call and the shape query with the op, its location and the
    dims, in a subprocess so that a crash fails the test instead of ending pytest."""
    import subprocess
    import sys
    path = tmp_path / "crafted.mlir"
    path.write_text(CRAFTED_SHAPE)
    lib = aot.compile(str(path), name="crafted")
    r = subprocess.run([sys.executable, "-c", CRAFTED_RUN, lib.path], capture_output=True, text=True,
                       timeout=120)
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    broadcast = f"main: 'mhlo.dynamic_broadcast_in_dim' at {path}:3:8: result f32[%s] has a negative dim " \
                "or needs more than 2^62 bytes"
    pad = f"main: 'mhlo.dynamic_pad' at {path}:7:8: padding makes dim 0 negative (-2 vs 0)"
    assert lines[0] == lines[1] == "error " + broadcast % "2147483648, 2147483648"
    assert lines[2] == lines[3] == "error " + broadcast % "4611686018427387904, 4"
    assert lines[4] == lines[5] == "error " + broadcast % "-20, 4"
    assert lines[6] == lines[7] == "error " + pad
    assert lines[8] == "ok (2, 3)" and lines[9].startswith("ok ([(2, 3), (4,)], ")
