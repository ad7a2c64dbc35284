"""sort, top_k, reduce_window, convolution and select_and_scatter: programs exported from
JAX (tests/data/sort_conv_window/, expected outputs from JAX or XLA) and hand-written ones
checked against numpy, static and dynamic shapes, and the errors.

Tolerances: sort, argsort and top_k move elements, so their results must match bit for
bit (NaN payloads and the sign of zero included); integer results must match exactly;
float results of reduce_window, convolution and select_and_scatter use the per-dtype
tolerances of tests/corpus.py (f32: rtol 2e-5, atol 1e-6), since they may sum in a
different order than XLA does.
"""
import glob
import os

import numpy as np
import pytest

import aot
from abi import AotRuntimeError
from conv_reference import dilate_pad, np_conv, random_conv, random_dimension_numbers
from corpus import assert_close, load_case
from lowering.ir.core import CompileError

DATA = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "data",
                    "sort_conv_window")
CASES = sorted(os.path.basename(p)[:-5] for p in glob.glob(os.path.join(DATA, "*.mlir")))
EXACT = ("sort", "argsort", "top_k")
# A cumulative sum of 300 floats: partial sums near zero after cancellation carry the
# rounding error of the terms before them (about 300 ulps of 20 here), whatever the order.
CASE_TOLERANCE = {"cumsum_long": (2e-5, 1e-5)}


def assert_matches(case, got, want, what):
    if case in CASE_TOLERANCE:
        rtol, atol = CASE_TOLERANCE[case]
        assert np.asarray(got).dtype == np.asarray(want).dtype, what
        np.testing.assert_allclose(got, want, rtol=rtol, atol=atol, err_msg=what)
    else:
        assert_close(got, want, what)
    if case.startswith(EXACT):
        g, w = np.asarray(got), np.asarray(want)
        assert g.tobytes() == w.tobytes(), f"{what}: not bit-exact"


def load_sizes(npz_path):
    """Dynamic cases: [(args, outs)] per size set s0, s1, ..."""
    import ml_dtypes
    data = np.load(npz_path)

    def get(key):
        if key in data.files:
            return data[key]
        return data[key + "__bf16"].view(ml_dtypes.bfloat16)

    sets, k = [], 0
    while any(f.startswith(f"s{k}_arg") for f in data.files):
        args = [get(f"s{k}_arg{i}") for i in range(16)
                if f"s{k}_arg{i}" in data.files or f"s{k}_arg{i}__bf16" in data.files]
        outs = [get(f"s{k}_out{i}") for i in range(16)
                if f"s{k}_out{i}" in data.files or f"s{k}_out{i}__bf16" in data.files]
        sets.append((args, outs))
        k += 1
    return sets


def compile_case(case):
    text = open(os.path.join(DATA, case + ".mlir")).read()
    return aot.compile(text, name=case)


def test_cases_are_there():
    assert len(CASES) >= 25


@pytest.mark.parametrize("case", CASES)
def test_exported_case(case):
    lib = compile_case(case)
    npz = os.path.join(DATA, case + ".npz")
    if "s0_arg0" in np.load(npz).files:
        runs = load_sizes(npz)
        assert len(runs) == 3
    else:
        runs = [load_case(npz)]
    for k, (args, want) in enumerate(runs):
        got = lib.main(*args)
        got = got if isinstance(got, tuple) else (got,)
        assert len(got) == len(want)
        for i, (g, w) in enumerate(zip(got, want)):
            assert_matches(case, g, w, f"{case} size set {k} result {i}")


# ----------------------------------------------------------------------------- sort

SORT_1D = """
func.func @main(%x: tensor<?xf32>) -> (tensor<?xf32>, tensor<?xi32>) {
  %d = stablehlo.get_dimension_size %x, dim = 0 : (tensor<?xf32>) -> tensor<i32>
  %n = stablehlo.reshape %d : (tensor<i32>) -> tensor<1xi32>
  %i = stablehlo.dynamic_iota %n, dim = 0 : (tensor<1xi32>) -> tensor<?xi32>
  %s:2 = "stablehlo.sort"(%x, %i) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>, %c: tensor<i32>, %e: tensor<i32>):
    %lt = stablehlo.compare LT, %a, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %lt : tensor<i1>
  }) {dimension = 0 : i64, is_stable = true} : (tensor<?xf32>, tensor<?xi32>) -> (tensor<?xf32>, tensor<?xi32>)
  return %s#0, %s#1 : tensor<?xf32>, tensor<?xi32>
}"""  # noqa: E501


def sort_1d_lib():
    return aot.compile(SORT_1D, name="sort_1d")


def test_sort_every_length_is_stable():
    """Every length 0..70 (odd and even pass counts, partial runs) and a few long ones:
    the merge sort matches numpy's stable argsort."""
    lib = sort_1d_lib()
    rng = np.random.default_rng(5)
    for n in list(range(71)) + [127, 128, 129, 1000, 4097]:
        x = rng.integers(-4, 4, n).astype(np.float32)  # many ties
        values, perm = lib.main(x)
        want = np.argsort(x, kind="stable")
        np.testing.assert_array_equal(perm, want.astype(np.int32), err_msg=f"n = {n}")
        np.testing.assert_array_equal(values, x[want])


def test_sort_frees_its_scratch_buffers():
    lib = sort_1d_lib()
    lib.reset_alloc_stats()
    x = np.random.default_rng(6).random(300).astype(np.float32)
    for _ in range(3):
        lib.main(x)
    stats = lib.alloc_stats()
    assert stats["bytes_in_use"] == 0, stats
    assert stats["num_allocs"] == stats["num_frees"]


def test_sort_scratch_in_the_lhlo_stage():
    from lowering.frontend.parser import parse_module
    from lowering.frontend.printer import print_module
    from lowering.passes.pipeline import run_pipeline
    text = open(os.path.join(DATA, "argsort_axis1.mlir")).read()
    lhlo = print_module(run_pipeline(parse_module(text), "lhlo"))
    line = next(ln for ln in lhlo.splitlines() if "lmhlo.sort" in ln)
    assert line.count("%") == 6  # 2 operands, 2 results, 2 scratch buffers
    assert "aot.scratch = 2" in lhlo


@pytest.mark.parametrize("shape, dim", [((0, 5), 0), ((0, 5), 1), ((3, 0), 1), ((3, 0), 0)])
def test_sort_empty(shape, dim):
    t = "x".join(map(str, shape)) + "xf32"
    lib = aot.compile(f"""
    func.func @main(%x: tensor<{t}>) -> tensor<{t}> {{
      %s = "stablehlo.sort"(%x) ({{
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %lt = stablehlo.compare LT, %a, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
        stablehlo.return %lt : tensor<i1>
      }}) {{dimension = {dim} : i64}} : (tensor<{t}>) -> tensor<{t}>
      return %s : tensor<{t}>
    }}""", name=f"sort_empty_{dim}_{'_'.join(map(str, shape))}")
    assert lib.main(np.zeros(shape, np.float32)).shape == shape


def test_sort_dynamic_2d_both_dims():
    lib = aot.compile("""
    func.func @main(%x: tensor<?x?xi64>) -> tensor<?x?xi64> {
      %s = "stablehlo.sort"(%x) ({
      ^bb0(%a: tensor<i64>, %b: tensor<i64>):
        %gt = stablehlo.compare GT, %a, %b, SIGNED : (tensor<i64>, tensor<i64>) -> tensor<i1>
        stablehlo.return %gt : tensor<i1>
      }) {dimension = 0 : i64, is_stable = false} : (tensor<?x?xi64>) -> tensor<?x?xi64>
      return %s : tensor<?x?xi64>
    }""", name="sort_dyn_2d")
    rng = np.random.default_rng(7)
    for shape in [(1, 1), (5, 3), (33, 2), (2, 40), (0, 3)]:
        x = rng.integers(-2**40, 2**40, shape)
        np.testing.assert_array_equal(lib.main(x), -np.sort(-x, axis=0))


def test_top_k_dynamic_k_too_large():
    lib = aot.compile("""
    func.func @main(%x: tensor<2x?xf32>) -> (tensor<2x3xf32>, tensor<2x3xi32>) {
      %v, %i = "chlo.top_k"(%x) {k = 3 : i64} : (tensor<2x?xf32>) -> (tensor<2x3xf32>, tensor<2x3xi32>)
      return %v, %i : tensor<2x3xf32>, tensor<2x3xi32>
    }""", name="top_k_dyn")
    x = np.array([[1, 5, 2, 5], [0, -1, 7, 3]], np.float32)
    v, i = lib.main(x)
    np.testing.assert_array_equal(v, [[5, 5, 2], [7, 3, 0]])
    np.testing.assert_array_equal(i, [[1, 3, 2], [2, 3, 0]])
    with pytest.raises(AotRuntimeError, match="k exceeds the last dim"):
        lib.main(x[:, :2])


def test_top_k_of_booleans():
    """i1 orders false < true (unsigned), ties keep their order: lax.top_k of bools."""
    lib = aot.compile("""
    func.func @main(%x: tensor<2x5xi1>) -> (tensor<2x3xi1>, tensor<2x3xi32>) {
      %v, %i = chlo.top_k(%x, k = 3) : tensor<2x5xi1> -> (tensor<2x3xi1>, tensor<2x3xi32>)
      return %v, %i : tensor<2x3xi1>, tensor<2x3xi32>
    }""", name="top_k_i1")
    x = np.array([[0, 1, 0, 1, 1], [0, 0, 0, 0, 1]], bool)
    v, i = lib.main(x)
    order = np.argsort(~x, axis=1, kind="stable")[:, :3]
    np.testing.assert_array_equal(i, order)
    np.testing.assert_array_equal(v, np.take_along_axis(x, order, axis=1))


# Zero-size constants fused into the op that reads them (found crashing the compiler as a
# new user would: a `dense<>` of shape 2x0 as pad's, convolution's or dynamic_update_slice's
# operand). Each is compiled and checked against numpy.
EMPTY_CONSTANT_CASES = {
    "pad": ("""
    func.func @main(%x: tensor<2x3xf32>) -> tensor<2x5xf32> {
      %c = stablehlo.constant dense<> : tensor<2x0xf32>
      %z = stablehlo.constant dense<1.5> : tensor<f32>
      %p = stablehlo.pad %c, %z, low = [0, 1], high = [0, 4], interior = [0, 0] : (tensor<2x0xf32>, tensor<f32>) -> tensor<2x5xf32>
      %r = stablehlo.add %p, %p : tensor<2x5xf32>
      return %r : tensor<2x5xf32>
    }""", lambda x: np.full((2, 5), 3.0, np.float32)),  # noqa: E501
    "dynamic_update_slice": ("""
    func.func @main(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
      %i = stablehlo.constant dense<1> : tensor<i32>
      %c = stablehlo.constant dense<> : tensor<2x0xf32>
      %u = stablehlo.dynamic_update_slice %x, %c, %i, %i : (tensor<2x3xf32>, tensor<2x0xf32>, tensor<i32>, tensor<i32>) -> tensor<2x3xf32>
      %r = stablehlo.multiply %u, %u : tensor<2x3xf32>
      return %r : tensor<2x3xf32>
    }""", lambda x: x * x),  # noqa: E501
    "convolution_no_output_features": ("""
    func.func @main(%x: tensor<2x3xf32>) -> tensor<1x3x2x0xf32> {
      %y = stablehlo.reshape %x : (tensor<2x3xf32>) -> tensor<1x3x2x1xf32>
      %w = stablehlo.constant dense<> : tensor<3x3x1x0xf32>
      %c = stablehlo.convolution(%y, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x3x2x1xf32>, tensor<3x3x1x0xf32>) -> tensor<1x3x2x0xf32>
      return %c : tensor<1x3x2x0xf32>
    }""", lambda x: np.zeros((1, 3, 2, 0), np.float32)),  # noqa: E501
    "convolution_no_input_features": ("""
    func.func @main(%x: tensor<2x3xf32>) -> tensor<1x4x4x3xf32> {
      %e = stablehlo.constant dense<> : tensor<1x4x4x0xf32>
      %w = stablehlo.constant dense<> : tensor<3x3x0x3xf32>
      %y = stablehlo.convolution(%e, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x4x4x0xf32>, tensor<3x3x0x3xf32>) -> tensor<1x4x4x3xf32>
      return %y : tensor<1x4x4x3xf32>
    }""", lambda x: np.zeros((1, 4, 4, 3), np.float32)),  # noqa: E501
}


@pytest.mark.parametrize("case", sorted(EMPTY_CONSTANT_CASES))
def test_zero_size_fused_constants(case):
    text, reference = EMPTY_CONSTANT_CASES[case]
    lib = aot.compile(text, name=f"empty_{case}")
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    got, want = lib.main(x), reference(x)
    assert got.shape == want.shape and got.dtype == want.dtype
    np.testing.assert_array_equal(got, want)


def test_sort_result_read_as_a_shape():
    """A sorted tensor used as a shape: the call and the shape query agree."""
    lib = aot.compile("""
    func.func @main(%s: tensor<2xi32>, %x: tensor<?xf32>) -> tensor<?x?xf32> {
      %sorted:2 = "stablehlo.sort"(%s, %s) ({
      ^bb0(%a: tensor<i32>, %b: tensor<i32>, %c: tensor<i32>, %d: tensor<i32>):
        %lt = stablehlo.compare LT, %a, %b, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
        stablehlo.return %lt : tensor<i1>
      }) {dimension = 0 : i64} : (tensor<2xi32>, tensor<2xi32>) -> (tensor<2xi32>, tensor<2xi32>)
      %r = stablehlo.dynamic_reshape %x, %sorted#0 : (tensor<?xf32>, tensor<2xi32>) -> tensor<?x?xf32>
      return %r : tensor<?x?xf32>
    }""", name="sort_shape_query")
    s, x = np.array([3, 2], np.int32), np.arange(6, dtype=np.float32)
    assert lib.main(s, x).shape == (2, 3)
    shapes, _ = lib.main.output_shapes(s, x)
    assert list(shapes[0]) == [2, 3]


@pytest.mark.parametrize("body, message", [
    ("%r = stablehlo.add %a, %b : tensor<f32>\n stablehlo.return %r : tensor<f32>",
     "comparator region must return tensor<i1>"),
    ("%r = stablehlo.compare LT, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>\n"
     " stablehlo.return %r, %r : tensor<i1>, tensor<i1>", "comparator region must return"),
])
def test_sort_bad_comparator(body, message):
    with pytest.raises(CompileError, match=message):
        aot.compile(f"""
        func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {{
          %s = "stablehlo.sort"(%x) ({{
          ^bb0(%a: tensor<f32>, %b: tensor<f32>):
            {body}
          }}) {{dimension = 0 : i64}} : (tensor<4xf32>) -> tensor<4xf32>
          return %s : tensor<4xf32>
        }}""", name="sort_bad")


def test_sort_errors():
    with pytest.raises(CompileError, match="dimension 2 out of range"):
        aot.compile("""
        func.func @main(%x: tensor<4x3xf32>) -> tensor<4x3xf32> {
          %s = "stablehlo.sort"(%x) ({
          ^bb0(%a: tensor<f32>, %b: tensor<f32>):
            %r = stablehlo.compare LT, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
            stablehlo.return %r : tensor<i1>
          }) {dimension = 2 : i64} : (tensor<4x3xf32>) -> tensor<4x3xf32>
          return %s : tensor<4x3xf32>
        }""", name="sort_bad_dim")
    with pytest.raises(CompileError, match="k = 5 exceeds the last dim"):
        aot.compile("""
        func.func @main(%x: tensor<2x4xf32>) -> (tensor<2x5xf32>, tensor<2x5xi32>) {
          %v, %i = "chlo.top_k"(%x) {k = 5 : i64} : (tensor<2x4xf32>) -> (tensor<2x5xf32>, tensor<2x5xi32>)
          return %v, %i : tensor<2x5xf32>, tensor<2x5xi32>
        }""", name="top_k_bad")


# ----------------------------------------------------------------------------- numpy references


def np_reduce_window(x, init, fn, window, strides, pads, base_dil, win_dil):
    y = dilate_pad(x, init, base_dil, pads)
    span = [(w - 1) * wd + 1 for w, wd in zip(window, win_dil)]
    out_shape = [max(0, (p - s) // st + 1) for p, s, st in zip(y.shape, span, strides)]
    out = np.empty(out_shape, x.dtype)
    for o in np.ndindex(*out_shape):
        acc = init
        for k in np.ndindex(*window):
            acc = fn(acc, y[tuple(oo * st + kk * wd for oo, st, kk, wd in
                                  zip(o, strides, k, win_dil))])
        out[o] = acc
    return out


def test_reduce_window_random_parameters_against_numpy():
    """Windows, strides, padding (negative too), base and window dilations at random."""
    rng = np.random.default_rng(11)
    for trial in range(6):
        shape = tuple(int(n) for n in rng.integers(1, 7, 2))
        window = tuple(int(w) for w in rng.integers(1, 4, 2))
        strides = tuple(int(s) for s in rng.integers(1, 3, 2))
        base_dil = tuple(int(s) for s in rng.integers(1, 3, 2))
        win_dil = tuple(int(s) for s in rng.integers(1, 3, 2))
        pads = [tuple(int(p) for p in rng.integers(-1, 3, 2)) for _ in range(2)]
        x = rng.integers(-50, 50, shape).astype(np.int32)
        want = np_reduce_window(x, np.int32(-1000), max, window, strides, pads, base_dil, win_dil)
        if 0 in want.shape:
            continue
        t = "x".join(map(str, shape)) + "xi32"
        r = "x".join(map(str, want.shape)) + "xi32"
        pad_text = ", ".join(f"[{lo}, {hi}]" for lo, hi in pads)
        lib = aot.compile(f"""
        func.func @main(%x: tensor<{t}>) -> tensor<{r}> {{
          %init = stablehlo.constant dense<-1000> : tensor<i32>
          %0 = "stablehlo.reduce_window"(%x, %init) ({{
          ^bb0(%a: tensor<i32>, %b: tensor<i32>):
            %m = stablehlo.maximum %a, %b : tensor<i32>
            stablehlo.return %m : tensor<i32>
          }}) {{window_dimensions = array<i64: {window[0]}, {window[1]}>,
               window_strides = array<i64: {strides[0]}, {strides[1]}>,
               base_dilations = array<i64: {base_dil[0]}, {base_dil[1]}>,
               window_dilations = array<i64: {win_dil[0]}, {win_dil[1]}>,
               padding = dense<[{pad_text}]> : tensor<2x2xi64>}} : (tensor<{t}>, tensor<i32>) -> tensor<{r}>
          return %0 : tensor<{r}>
        }}""", name=f"rw_random_{trial}")
        np.testing.assert_array_equal(lib.main(x), want, err_msg=f"trial {trial}")


DYNAMIC_WINDOW = """
func.func @main(%x: tensor<?x?xi32>, %w: tensor<2xi32>, %s: tensor<2xi32>, %bd: tensor<2xi32>, %wd: tensor<2xi32>, %p: tensor<2x2xi32>) -> tensor<?x?xi32> {
  %init = stablehlo.constant dense<-1000> : tensor<i32>
  %0 = stablehlo.custom_call @stablehlo.dynamic_reduce_window(%x, %init, %w, %s, %bd, %wd, %p) {api_version = 2 : i32, called_computations = [@max]} : (tensor<?x?xi32>, tensor<i32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>, tensor<2x2xi32>) -> tensor<?x?xi32>
  return %0 : tensor<?x?xi32>
}
func.func private @max(%a: tensor<i32>, %b: tensor<i32>) -> tensor<i32> {
  %m = stablehlo.maximum %a, %b : tensor<i32>
  return %m : tensor<i32>
}"""  # noqa: E501


@pytest.mark.parametrize("target", ["cpu", "cuda"])
def test_dynamic_reduce_window_window_read_at_run_time(target, tmp_path):
    """jax.export's @stablehlo.dynamic_reduce_window: one library, a different window,
    strides, dilations and padding (negative too) on every call, against numpy; a window
    that is not positive is a run-time error naming it."""
    from tooling.gpu_emu import build_emulated
    lib = (build_emulated(DYNAMIC_WINDOW, "rw_dynamic", str(tmp_path)) if target == "cuda"
           else aot.compile(DYNAMIC_WINDOW, name="rw_dynamic"))
    rng = np.random.default_rng(12)
    ran = 0
    while ran < 6:
        shape = tuple(int(n) for n in rng.integers(1, 7, 2))
        window, strides, base_dil, win_dil = (tuple(int(v) for v in rng.integers(1, hi, 2))
                                              for hi in (4, 3, 3, 3))
        pads = [tuple(int(p) for p in rng.integers(-1, 3, 2)) for _ in range(2)]
        x = rng.integers(-50, 50, shape).astype(np.int32)
        want = np_reduce_window(x, np.int32(-1000), max, window, strides, pads, base_dil, win_dil)
        if 0 in want.shape:
            continue
        got = lib.main(x, *(np.array(v, np.int32) for v in (window, strides, base_dil, win_dil, pads)))
        np.testing.assert_array_equal(got, want, err_msg=f"{shape} {window} {strides} {pads}")
        ran += 1
    ones = np.ones(2, np.int32)
    with pytest.raises(AotRuntimeError, match="window stride 1 must be positive"):
        lib.main(np.zeros((3, 3), np.int32), ones, np.array([1, 0], np.int32), ones, ones,
                 np.zeros((2, 2), np.int32))


REDUCE_WINDOW_DYN = """
func.func @main(%x: tensor<?xf32>) -> tensor<?xf32> {
  %init = stablehlo.constant dense<0.5> : tensor<f32>
  %0 = "stablehlo.reduce_window"(%x, %init) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) {window_dimensions = array<i64: 3>, window_strides = array<i64: 2>,
      padding = dense<[[2, 3]]> : tensor<1x2xi64>} : (tensor<?xf32>, tensor<f32>) -> tensor<?xf32>
  return %0 : tensor<?xf32>
}"""


def test_reduce_window_dynamic_and_empty_operand():
    """An empty operand still has a result (its windows cover padding only): the kernel
    then runs without loads."""
    lib = aot.compile(REDUCE_WINDOW_DYN, name="rw_dyn")
    for n in (0, 1, 2, 7, 30):
        x = np.arange(n, dtype=np.float32)
        want = np_reduce_window(x, np.float32(0.5), lambda a, b: a + b, (3,), (2,), [(2, 3)],
                                (1,), (1,))
        np.testing.assert_allclose(lib.main(x), want, rtol=1e-6)


def test_convolution_random_parameters_against_numpy():
    """Dimension numbers in any order, strides, padding (negative too), both dilations,
    window reversal, feature groups and batch groups, at random."""
    rng = np.random.default_rng(12)
    for trial in range(8):
        dn = random_dimension_numbers(rng, int(rng.integers(1, 3)))
        groups, batch_groups = [(1, 1), (2, 1), (1, 2), (3, 1)][trial % 4]
        case = random_conv(rng, dn, 2 * batch_groups, 2 * groups, 2 * groups * batch_groups,
                           groups, batch_groups)
        if case is None:
            continue
        text, x, w, want = case
        lib = aot.compile(text, name=f"conv_random_{trial}")
        np.testing.assert_allclose(lib.main(x, w), want, rtol=1e-5, atol=1e-5,
                                   err_msg=f"trial {trial}")


def test_convolution_dynamic_spatial_and_empty_input():
    """Dynamic spatial and feature dims; a spatial dim of zero at run time gives an output
    of padding only, all zeros (the kernel runs without loads)."""
    lib = aot.compile("""
    func.func @main(%x: tensor<1x?x?xf32>, %w: tensor<3x2x4xf32>) -> tensor<1x?x4xf32> {
      %0 = "stablehlo.convolution"(%x, %w) {
          dimension_numbers = #stablehlo.conv<[b, 0, f]x[0, i, o]->[b, 0, f]>,
          window_strides = array<i64: 1>, padding = dense<[[2, 2]]> : tensor<1x2xi64>,
          batch_group_count = 1 : i64, feature_group_count = 1 : i64}
          : (tensor<1x?x?xf32>, tensor<3x2x4xf32>) -> tensor<1x?x4xf32>
      return %0 : tensor<1x?x4xf32>
    }""", name="conv_dyn")
    rng = np.random.default_rng(13)
    w = rng.uniform(-1, 1, (3, 2, 4)).astype(np.float32)
    dn = ((0, 2, [1]), (1, 2, [0]), (0, 2, [1]))
    for n in (0, 1, 5):
        x = rng.uniform(-1, 1, (1, n, 2)).astype(np.float32)
        want = np_conv(x, w, dn, [1], [(2, 2)], [1], [1], [False], 1, 1)
        np.testing.assert_allclose(lib.main(x, w), want, rtol=1e-5, atol=1e-6)
    with pytest.raises(AotRuntimeError, match="input features must be kernel input features"):
        lib.main(np.zeros((1, 3, 3), np.float32), w)


def np_select_and_scatter(operand, source, init, window, strides, pads, select_ge=True):
    out = np.full(operand.shape, init, source.dtype)
    for s in np.ndindex(*source.shape):
        best = None
        for k in np.ndindex(*window):
            p = tuple(si * st + kk - lo for si, st, kk, (lo, _) in zip(s, strides, k, pads))
            if any(q < 0 or q >= n for q, n in zip(p, operand.shape)):
                continue
            if best is None or not (operand[best] >= operand[p] if select_ge
                                    else operand[best] <= operand[p]):
                best = p
        if best is not None:
            out[best] += source[s]
    return out


def test_select_and_scatter_padding_and_dynamic():
    lib = aot.compile("""
    func.func @main(%x: tensor<?x5xf32>, %s: tensor<?x3xf32>) -> tensor<?x5xf32> {
      %init = stablehlo.constant dense<0.0> : tensor<f32>
      %0 = "stablehlo.select_and_scatter"(%x, %s, %init) ({
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %c = stablehlo.compare GE, %a, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
        stablehlo.return %c : tensor<i1>
      }, {
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %c = stablehlo.add %a, %b : tensor<f32>
        stablehlo.return %c : tensor<f32>
      }) {window_dimensions = array<i64: 2, 3>, window_strides = array<i64: 2, 2>,
          padding = dense<[[1, 0], [1, 1]]> : tensor<2x2xi64>}
          : (tensor<?x5xf32>, tensor<?x3xf32>, tensor<f32>) -> tensor<?x5xf32>
      return %0 : tensor<?x5xf32>
    }""", name="sas_dyn")
    rng = np.random.default_rng(14)
    for rows in (1, 4, 7):
        x = rng.integers(-3, 3, (rows, 5)).astype(np.float32)  # ties: the first maximum wins
        src_rows = (rows + 1 - 2) // 2 + 1
        s = rng.uniform(0, 1, (src_rows, 3)).astype(np.float32)
        want = np_select_and_scatter(x, s, 0.0, (2, 3), (2, 2), [(1, 0), (1, 1)])
        np.testing.assert_allclose(lib.main(x, s), want, rtol=1e-6)
    with pytest.raises(AotRuntimeError, match="source dim 0 does not match"):
        lib.main(np.zeros((4, 5), np.float32), np.zeros((7, 3), np.float32))


# ----------------------------------------------------------------------------- errors


@pytest.mark.parametrize("text, message", [
    ("""%0 = "stablehlo.convolution"(%x, %w) {dimension_numbers = #stablehlo.conv<[b, 0, f]x[0, i, o]->[b, 0, f]>,
        feature_group_count = 1 : i64, batch_group_count = 1 : i64} : (tensor<1x5x3xf32>, tensor<2x2x4xf32>) -> tensor<1x4x4xf32>""",  # noqa: E501
     r"input features \(3\) must be kernel input features \(2\)"),
    ("""%0 = "stablehlo.convolution"(%x, %w) {dimension_numbers = #stablehlo.conv<[b, 0, f]x[0, i, o]->[b, 0, f]>,
        feature_group_count = 1 : i64, batch_group_count = 1 : i64} : (tensor<1x5x3xf32>, tensor<2x3x4xf32>) -> tensor<1x5x4xf32>""",  # noqa: E501
     "does not match the inferred type tensor<1x4x4xf32>"),
    ("""%0 = "stablehlo.convolution"(%x, %w) {dimension_numbers = #stablehlo.conv<[b, 0, f]x[0, i, o]->[b, 0, 0]>,
        feature_group_count = 1 : i64, batch_group_count = 1 : i64} : (tensor<1x5x3xf32>, tensor<2x3x4xf32>) -> tensor<1x4x4xf32>""",  # noqa: E501
     "incomplete convolution dimension numbers"),
])
def test_convolution_errors(text, message):
    lhs, rhs, out = (t.strip() for t in text.rsplit(":", 1)[1].replace("(", "").replace(")", "")
                     .replace("->", ",").split(", "))
    with pytest.raises(CompileError, match=message):
        aot.compile(f"""
        func.func @main(%x: {lhs}, %w: {rhs}) -> {out} {{
          {text}
          return %0 : {out}
        }}""", name="conv_bad")


def test_window_errors():
    with pytest.raises(CompileError, match="init value must be a scalar f32"):
        aot.compile("""
        func.func @main(%x: tensor<4xf32>) -> tensor<3xf32> {
          %init = stablehlo.constant dense<0> : tensor<i32>
          %0 = "stablehlo.reduce_window"(%x, %init) ({
          ^bb0(%a: tensor<f32>, %b: tensor<f32>):
            %s = stablehlo.add %a, %b : tensor<f32>
            stablehlo.return %s : tensor<f32>
          }) {window_dimensions = array<i64: 2>} : (tensor<4xf32>, tensor<i32>) -> tensor<3xf32>
          return %0 : tensor<3xf32>
        }""", name="rw_bad")
    with pytest.raises(CompileError, match="source dim 1 is 3; the windows over the operand give 2"):
        aot.compile("""
        func.func @main(%x: tensor<4x4xf32>, %s: tensor<2x3xf32>) -> tensor<4x4xf32> {
          %init = stablehlo.constant dense<0.0> : tensor<f32>
          %0 = "stablehlo.select_and_scatter"(%x, %s, %init) ({
          ^bb0(%a: tensor<f32>, %b: tensor<f32>):
            %c = stablehlo.compare GE, %a, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
            stablehlo.return %c : tensor<i1>
          }, {
          ^bb0(%a: tensor<f32>, %b: tensor<f32>):
            %c = stablehlo.add %a, %b : tensor<f32>
            stablehlo.return %c : tensor<f32>
          }) {window_dimensions = array<i64: 2, 2>, window_strides = array<i64: 2, 2>}
              : (tensor<4x4xf32>, tensor<2x3xf32>, tensor<f32>) -> tensor<4x4xf32>
          return %0 : tensor<4x4xf32>
        }""", name="sas_bad")


# ----------------------------------------------------------------------------- memory safety


CONV_PADDED = """
func.func @main(%x: tensor<1x4x2xf32>, %w: tensor<3x2x4xf32>) -> tensor<1x5x4xf32> {
  %0 = "stablehlo.convolution"(%x, %w) {
      dimension_numbers = #stablehlo.conv<[b, 0, f]x[0, i, o]->[b, 0, f]>,
      window_strides = array<i64: 2>, padding = dense<[[3, 2]]> : tensor<1x2xi64>,
      lhs_dilation = array<i64: 2>, batch_group_count = 1 : i64, feature_group_count = 1 : i64}
      : (tensor<1x4x2xf32>, tensor<3x2x4xf32>) -> tensor<1x5x4xf32>
  return %0 : tensor<1x5x4xf32>
}"""

SAS_PADDED = """
func.func @main(%x: tensor<3x5xf32>, %s: tensor<2x3xf32>) -> tensor<3x5xf32> {
  %init = stablehlo.constant dense<0.0> : tensor<f32>
  %0 = "stablehlo.select_and_scatter"(%x, %s, %init) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %c = stablehlo.compare GE, %a, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }, {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %c = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %c : tensor<f32>
  }) {window_dimensions = array<i64: 2, 3>, window_strides = array<i64: 2, 2>,
      padding = dense<[[1, 0], [1, 1]]> : tensor<2x2xi64>}
      : (tensor<3x5xf32>, tensor<2x3xf32>, tensor<f32>) -> tensor<3x5xf32>
  return %0 : tensor<3x5xf32>
}"""


def fenced_cases():
    """name -> (text, args, wanted results), the results from the numpy references."""
    x5 = np.arange(5, dtype=np.float32)
    s = np.array([3, 1, 2, 1, 0], np.float32)
    cx = np.arange(8, dtype=np.float32).reshape(1, 4, 2) / 8
    cw = np.arange(24, dtype=np.float32).reshape(3, 2, 4) / 24
    sx = np.arange(15, dtype=np.float32).reshape(3, 5) % 4
    ss = np.arange(1, 7, dtype=np.float32).reshape(2, 3)
    return {
        "reduce_window": (REDUCE_WINDOW_DYN, [x5], [np_reduce_window(
            x5, np.float32(0.5), lambda a, b: a + b, (3,), (2,), [(2, 3)], (1,), (1,))]),
        "sort": (SORT_1D, [s], [np.sort(s, kind="stable"),
                                np.argsort(s, kind="stable").astype(np.int32)]),
        "convolution": (CONV_PADDED, [cx, cw], [np_conv(
            cx, cw, ((0, 2, [1]), (1, 2, [0]), (0, 2, [1])), [2], [(3, 2)], [2], [1], [False],
            1, 1).astype(np.float32)]),
        "select_and_scatter": (SAS_PADDED, [sx, ss], [np_select_and_scatter(
            sx, ss, 0.0, (2, 3), (2, 2), [(1, 0), (1, 1)])]),
    }


def _literal(a):
    return f"np.array({np.asarray(a).tolist()!r}, np.{np.asarray(a).dtype.name})"


@pytest.mark.parametrize("case", ["convolution", "reduce_window", "select_and_scatter", "sort"])
def test_fenced_inputs(case):
    """Inputs fenced by PROT_NONE pages (the driver of tests/e2e/test_memory_safety.py, in
    tests/fenced.py): windows over padding and merge passes never read outside their buffers."""
    import subprocess
    import sys

    from fenced import DRIVER, ROOT
    text, args, want = fenced_cases()[case]
    driver = DRIVER.replace("np.testing.assert_array_equal(got, want)",
                            "[np.testing.assert_allclose(g, w, rtol=1e-6) for g, w in "
                            "zip(got if isinstance(got, tuple) else (got,), want)]")
    proc = subprocess.run([sys.executable, "-c", driver, text,
                           "[" + ", ".join(map(_literal, args)) + "]",
                           "[" + ", ".join(map(_literal, want)) + "]"],
                          cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0 and "ok" in proc.stdout, proc.stderr[-2000:]
