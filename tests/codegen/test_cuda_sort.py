"""The cuda target's sort and top_k (lowering/codegen/cuda/sort.py: a block per segment, a
bitonic network over a permutation) on the emulated grid, bit-exact against numpy's stable
sort and the CPU path: segment lengths around the network's powers of two, several segments
along either dim, dynamic shapes, (key, value) sorts with many ties, NaN and -0.0, top_k with
ties. (With the barrier after the initial permutation or after each network step taken out,
these tests fail on the emulated grid: its threads really race.)"""
import numpy as np
import pytest

import aot
from aot.driver import Compilation, Options
from tooling.gpu_emu import build_emulated

LENGTHS = [0, 1, 2, 3, 255, 256, 257, 1000, 5000]

# JAX's float comparator: -0.0 as 0.0, every NaN as one NaN, then LT in total order
JAX_LT = """      %cz = stablehlo.constant dense<0.0> : tensor<{e}>
      %cn = stablehlo.constant dense<0x7FC00000> : tensor<{e}>
      %za = stablehlo.compare EQ, %a, %cz, FLOAT : (tensor<{e}>, tensor<{e}>) -> tensor<i1>
      %a1 = stablehlo.select %za, %cz, %a : tensor<i1>, tensor<{e}>
      %na = stablehlo.compare NE, %a, %a, FLOAT : (tensor<{e}>, tensor<{e}>) -> tensor<i1>
      %a2 = stablehlo.select %na, %cn, %a1 : tensor<i1>, tensor<{e}>
      %zb = stablehlo.compare EQ, %b, %cz, FLOAT : (tensor<{e}>, tensor<{e}>) -> tensor<i1>
      %b1 = stablehlo.select %zb, %cz, %b : tensor<i1>, tensor<{e}>
      %nb = stablehlo.compare NE, %b, %b, FLOAT : (tensor<{e}>, tensor<{e}>) -> tensor<i1>
      %b2 = stablehlo.select %nb, %cn, %b1 : tensor<i1>, tensor<{e}>
      %r = stablehlo.compare LT, %a2, %b2, TOTALORDER : (tensor<{e}>, tensor<{e}>) -> tensor<i1>"""


def compare(direction, kind):
    return ("      %r = stablehlo.compare {d}, %a, %b, {k} : (tensor<{{e}}>, tensor<{{e}}>) -> tensor<i1>"
            .format(d=direction, k=kind))


def sort_program(shape, elems, dim, body, stable=True):
    """A sort of one operand per element type in `elems`, its comparator `body` (on the
    first operand's %a and %b, giving %r) ignoring the others."""
    ts = [f"tensor<{'x'.join(shape)}x{e}>" for e in elems]
    e = elems[0]
    args = ", ".join(f"%x{i}: {t}" for i, t in enumerate(ts))
    block = "%a: tensor<{e}>, %b: tensor<{e}>".format(e=e) + "".join(
        f", %u{i}: tensor<{x}>, %v{i}: tensor<{x}>" for i, x in enumerate(elems[1:]))
    outs = ", ".join(ts)
    return f"""func.func @main({args}) -> ({outs}) {{
  %s:{len(elems)} = "stablehlo.sort"({", ".join(f"%x{i}" for i in range(len(elems)))}) ({{
    ^bb0({block}):
{body.format(e=e)}
      stablehlo.return %r : tensor<i1>
  }}) {{dimension = {dim} : i64, is_stable = {str(stable).lower()}}} : ({outs}) -> ({outs})
  return {", ".join(f"%s#{i}" for i in range(len(elems)))} : {outs}
}}"""


def bits(x):
    return x.view(np.int32) if x.dtype == np.float32 else x


def total_order_key(x):
    """The i32 whose signed order is the f32 total order (-NaN < -inf < -0.0 < 0.0 < NaN)."""
    b = x.view(np.int32)
    return b ^ ((b >> 31) & 0x7FFFFFFF)


def test_segment_lengths_f32_with_nan_and_signed_zero(tmp_path):
    """One dynamic segment of every length around the network's powers of two, with ties,
    NaNs and both zeros: the order and the bits of np.sort(kind="stable")."""
    text = sort_program(["?"], ["f32"], 0, JAX_LT)
    c = Compilation(text, "s.mlir", Options(name="s", emit="ptx", target="cuda"))
    tm, _, optimized, kernels = c.llvm()
    (k,) = kernels
    assert k.launch.lanes == 256 and k.launch.tiles == (1 << 62,)  # a block
    assert "bar.sync" in tm.emit_assembly(optimized)
    lib = build_emulated(text, "s", str(tmp_path))
    rng = np.random.default_rng(0)
    for n in LENGTHS:
        x = rng.integers(-4, 5, n).astype(np.float32)
        x[rng.random(n) < 0.1] = np.nan
        x[rng.random(n) < 0.1] = -0.0
        x[rng.random(n) < 0.05] = -np.inf
        got = lib.main(x)
        want = np.sort(x, kind="stable")
        np.testing.assert_array_equal(bits(got), bits(want), err_msg=f"n = {n}")


def test_total_order_comparator(tmp_path):
    """A bare TOTALORDER comparator: -NaN first, -0.0 before 0.0, NaN last."""
    lib = build_emulated(sort_program(["?"], ["f32"], 0, compare("LT", "TOTALORDER")), "t", str(tmp_path))
    x = np.array([0.0, np.nan, -0.0, 1.0, -np.nan, -np.inf, 0.0, -0.0, np.inf, -1.0] * 30, np.float32)
    got = lib.main(x)
    want = x[np.argsort(total_order_key(x), kind="stable")]
    np.testing.assert_array_equal(bits(got), bits(want))
    assert np.isnan(got[0]) and np.signbit(got[0]) and np.isnan(got[-1]) and not np.signbit(got[-1])


@pytest.mark.parametrize("dim", [0, 1])
def test_segments_along_either_dim_dynamic_i32(dim, tmp_path):
    """Several segments of a ?x? i32 tensor, sorted along dim 0 or dim 1, descending."""
    lib = build_emulated(sort_program(["?", "?"], ["i32"], dim, compare("GT", "SIGNED")), f"d{dim}",
                         str(tmp_path))
    rng = np.random.default_rng(1)
    for shape in [(0, 5), (5, 0), (1, 1), (7, 300), (300, 7), (3, 1000), (9, 257)]:
        x = rng.integers(-50, 50, shape).astype(np.int32)
        got = lib.main(x)
        np.testing.assert_array_equal(got, -np.sort(-x, axis=dim, kind="stable"), err_msg=str(shape))


@pytest.mark.parametrize("stable", [True, False])
def test_key_value_sort_with_many_ties(stable, tmp_path):
    """(i32 key, f32 value) sorted by key alone: values of equal keys keep their order (the
    network breaks ties by position, so is_stable = false gives the same result), in rows
    of a 3-D tensor sorted along its middle dim."""
    lib = build_emulated(sort_program(["?", "?", "?"], ["i32", "f32"], 1, compare("LT", "SIGNED"), stable),
                         "kv", str(tmp_path))
    rng = np.random.default_rng(2)
    for shape in [(2, 3, 4), (3, 700, 2), (1, 5000, 1)]:
        keys = rng.integers(0, 4, shape).astype(np.int32)
        values = rng.standard_normal(shape).astype(np.float32)
        got_k, got_v = lib.main(keys, values)
        order = np.argsort(keys, axis=1, kind="stable")
        np.testing.assert_array_equal(got_k, np.take_along_axis(keys, order, 1))
        np.testing.assert_array_equal(got_v, np.take_along_axis(values, order, 1))


def test_same_bits_as_the_cpu_path(tmp_path):
    """Three operands, a descending total-order comparator on the f32 keys with
    ties and NaNs, not stable: the CPU's kernel
    and the GPU's agree element for element."""
    text = sort_program(["?", "?"], ["f32", "i32", "f32"], 1, compare("GT", "TOTALORDER"), stable=False)
    cpu = aot.compile(text, "cpu_sort", output_dir=str(tmp_path / "cpu"))
    gpu = build_emulated(text, "gpu_sort", str(tmp_path / "gpu"))
    rng = np.random.default_rng(3)
    x = rng.integers(-3, 3, (4, 600)).astype(np.float32)
    x[rng.random(x.shape) < 0.1] = np.nan
    args = (x, rng.integers(0, 9, x.shape).astype(np.int32), rng.standard_normal(x.shape).astype(np.float32))
    for c, g in zip(cpu.main(*args), gpu.main(*args)):
        np.testing.assert_array_equal(bits(c), bits(g))


def top_k_program(elem, k):
    return f"""func.func @main(%x: tensor<?x?x{elem}>) -> (tensor<?x{k}x{elem}>, tensor<?x{k}xi32>) {{
  %v, %i = chlo.top_k(%x, k = {k}) : tensor<?x?x{elem}> -> (tensor<?x{k}x{elem}>, tensor<?x{k}xi32>)
  return %v, %i : tensor<?x{k}x{elem}>, tensor<?x{k}xi32>
}}"""


@pytest.mark.parametrize("elem", ["f32", "i32"])
def test_top_k_with_ties(elem, tmp_path):
    """The largest k of each row, ties by lower index first, NaN above everything (total
    order); k of 1 and of 3, rows of every length from k up."""
    rng = np.random.default_rng(4)
    for k in (1, 3):
        lib = build_emulated(top_k_program(elem, k), f"top{k}", str(tmp_path / str(k)))
        for n in [k, 4, 255, 256, 257, 1000, 5000]:
            x = rng.integers(-5, 5, (3, n)).astype(np.float32 if elem == "f32" else np.int32)
            if elem == "f32":
                x[rng.random(x.shape) < 0.02] = np.nan
                x[rng.random(x.shape) < 0.1] = -0.0
            values, indices = lib.main(x)
            key = total_order_key(x) if elem == "f32" else x
            want = np.argsort(-key.astype(np.int64), axis=1, kind="stable")[:, :k]
            np.testing.assert_array_equal(indices, want, err_msg=f"k = {k}, n = {n}")
            np.testing.assert_array_equal(bits(values), bits(np.take_along_axis(x, want, 1)))


DYNAMIC_K = """func.func @main(%x: tensor<?x?xf32>, %k: tensor<i32>) -> (tensor<?x?xf32>, tensor<?x?xi32>) {
  %v, %i = stablehlo.custom_call @stablehlo.dynamic_top_k(%x, %k) {api_version = 2 : i32} : (tensor<?x?xf32>, tensor<i32>) -> (tensor<?x?xf32>, tensor<?x?xi32>)
  return %v, %i : tensor<?x?xf32>, tensor<?x?xi32>
}"""  # noqa: E501


@pytest.mark.parametrize("target", ["cpu", "cuda"])
def test_top_k_with_k_at_run_time(target, tmp_path):
    """jax.export's @stablehlo.dynamic_top_k: k is a tensor, the results' last dim is k; k
    out of range is a run-time error naming it."""
    from abi import AotRuntimeError
    lib = (build_emulated(DYNAMIC_K, "topk_dyn", str(tmp_path)) if target == "cuda"
           else aot.compile(DYNAMIC_K, name="topk_dyn"))
    rng = np.random.default_rng(5)
    for n, k in ((6, 0), (6, 2), (257, 257), (40, 7)):
        x = rng.permutation(3 * n).reshape(3, n).astype(np.float32)
        values, indices = lib.main(x, np.int32(k))
        want = np.argsort(-x, axis=1, kind="stable")[:, :k]
        np.testing.assert_array_equal(indices, want)
        np.testing.assert_array_equal(values, np.take_along_axis(x, want, 1))
    for k, message in ((7, "k exceeds the last dim"), (-1, "k is negative")):
        with pytest.raises(AotRuntimeError, match=message):
            lib.main(np.zeros((2, 6), np.float32), np.int32(k))


APPROX_MIN_K = """func.func @main(%x: tensor<?x8xf32>) -> (tensor<?x3xf32>, tensor<?x3xi32>) {
  %c0 = stablehlo.constant dense<0x7F800000> : tensor<f32>
  %c1 = stablehlo.constant dense<-1> : tensor<i32>
  %b = stablehlo.get_dimension_size %x, dim = 0 : (tensor<?x8xf32>) -> tensor<i32>
  %b1 = stablehlo.reshape %b : (tensor<i32>) -> tensor<1xi32>
  %c8 = stablehlo.constant dense<8> : tensor<1xi32>
  %s = stablehlo.concatenate %b1, %c8, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
  %iota = stablehlo.dynamic_iota %s, dim = 1 : (tensor<2xi32>) -> tensor<?x8xi32>
  %v, %i = stablehlo.custom_call @ApproxTopK(%x, %iota, %c0, %c1) {called_computations = [@lt], mhlo.backend_config = {aggregate_to_topk = true, is_fallback = true, recall_target = 0.95 : f32, reduction_dim = 1 : i64, reduction_input_size_override = -1 : i64, top_k = 3 : i64}} : (tensor<?x8xf32>, tensor<?x8xi32>, tensor<f32>, tensor<i32>) -> (tensor<?x3xf32>, tensor<?x3xi32>)
  return %v, %i : tensor<?x3xf32>, tensor<?x3xi32>
}
func.func private @lt(%a: tensor<f32>, %b: tensor<f32>, %ia: tensor<i32>, %ib: tensor<i32>) -> tensor<i1> {
  %r = stablehlo.compare LT, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
  return %r : tensor<i1>
}"""  # noqa: E501


@pytest.mark.parametrize("target", ["cpu", "cuda"])
def test_approx_min_k_is_the_exact_k_smallest(target, tmp_path):
    lib = (build_emulated(APPROX_MIN_K, "approx_min", str(tmp_path)) if target == "cuda"
           else aot.compile(APPROX_MIN_K, name="approx_min"))
    x = np.random.default_rng(6).permutation(40).reshape(5, 8).astype(np.float32)
    values, indices = lib.main(x)
    want = np.argsort(x, axis=1, kind="stable")[:, :3]
    np.testing.assert_array_equal(indices, want)
    np.testing.assert_array_equal(values, np.take_along_axis(x, want, 1))


@pytest.mark.parametrize("old, new, message", [
    ("reduction_dim = 1 : i64", "reduction_dim = 0 : i64", "over dim 0 is not supported yet"),
    ("stablehlo.compare LT", "stablehlo.compare LE", "only a comparator that is one > or <"),
    ("%s, dim = 1", "%s, dim = 0", "must be an iota along dim 1"),
])
def test_approx_top_k_forms_not_supported_are_named(old, new, message):
    from lowering.ir.core import CompileError
    assert old in APPROX_MIN_K
    with pytest.raises(CompileError, match=message) as e:
        aot.compile(APPROX_MIN_K.replace(old, new), name="approx_bad")
    assert e.value.loc.line == 9  # the custom call's
