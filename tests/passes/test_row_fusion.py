"""Row reductions fuse with the consumers that read them per row (softmax, layernorm):
one kInput kernel walks each row once per reduction and once for the result. Checked on
the fused stage's text and against numpy, with static and dynamic shapes, broadcasts
that expand a size-1 dim at run time, and the cases that must stay apart."""
import re

import numpy as np
import pytest

import aot
from lowering.frontend.parser import parse_module
from lowering.frontend.printer import print_module
from lowering.passes.fusion import format_report
from lowering.passes.pipeline import run_pipeline


def fused(text):
    module = run_pipeline(parse_module(text, "t.mlir"), "fused")
    return module, format_report(module)


def softmax(t, r, bcast="stablehlo.broadcast_in_dim %{v}, dims = [0] : ({r}) -> {t}"):
    b = lambda v: bcast.format(v=v, r=r, t=t)  # noqa: E731
    return f"""func.func @main(%x: {t}) -> {t} {{
  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %m = stablehlo.reduce(%x init: %ninf) applies stablehlo.maximum across dimensions = [1] : ({t}, tensor<f32>) -> {r}
  %mb = {b("m")}
  %d = stablehlo.subtract %x, %mb : {t}
  %e = stablehlo.exponential %d : {t}
  %s = stablehlo.reduce(%e init: %zero) applies stablehlo.add across dimensions = [1] : ({t}, tensor<f32>) -> {r}
  %sb = {b("s")}
  %y = stablehlo.divide %e, %sb : {t}
  return %y : {t}
}}"""  # noqa: E501


def ref_softmax(x):
    e = np.exp(x - x.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


LAYERNORM = """func.func @main(%x: tensor<37x300xf32>, %g: tensor<300xf32>) -> tensor<37x300xf32> {
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %n = stablehlo.constant dense<300.0> : tensor<37xf32>
  %eps = stablehlo.constant dense<1.0e-5> : tensor<37xf32>
  %s = stablehlo.reduce(%x init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<37x300xf32>, tensor<f32>) -> tensor<37xf32>
  %mean = stablehlo.divide %s, %n : tensor<37xf32>
  %mb = stablehlo.broadcast_in_dim %mean, dims = [0] : (tensor<37xf32>) -> tensor<37x300xf32>
  %c = stablehlo.subtract %x, %mb : tensor<37x300xf32>
  %sq = stablehlo.multiply %c, %c : tensor<37x300xf32>
  %v = stablehlo.reduce(%sq init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<37x300xf32>, tensor<f32>) -> tensor<37xf32>
  %var = stablehlo.divide %v, %n : tensor<37xf32>
  %ve = stablehlo.add %var, %eps : tensor<37xf32>
  %inv = stablehlo.rsqrt %ve : tensor<37xf32>
  %ib = stablehlo.broadcast_in_dim %inv, dims = [0] : (tensor<37xf32>) -> tensor<37x300xf32>
  %gb = stablehlo.broadcast_in_dim %g, dims = [1] : (tensor<300xf32>) -> tensor<37x300xf32>
  %y0 = stablehlo.multiply %c, %ib : tensor<37x300xf32>
  %y = stablehlo.multiply %y0, %gb : tensor<37x300xf32>
  return %y : tensor<37x300xf32>
}"""  # noqa: E501


def one_row_kernel(report):
    """One kernel computes the values (the others, if any, compute shapes for the host)."""
    kernels = [k for k in re.split(r"^kernel \d+: ", report, flags=re.M)[1:]
               if "as a shape" not in k and "get_dimension_size" not in k]
    return len(kernels) == 1 and "kInput" in kernels[0]


def test_softmax_is_one_kernel_and_matches_numpy():
    text = softmax("tensor<70x333xf32>", "tensor<70xf32>")
    assert one_row_kernel(fused(text)[1])
    # exp(x - max) is computed once: the sum's walk keeps it in the result row (a second
    # store), and the divide reads it back from there
    loops = print_module(run_pipeline(parse_module(text, "t.mlir"), "loops"))
    assert loops.count('"memref.store"') == 2 and loops.count('"scf.for"') == 4
    lib = aot.compile(text, name="row_softmax")
    x = np.random.default_rng(0).standard_normal((70, 333)).astype(np.float32) * 4
    for threads in (1, 2):
        lib.set_num_threads(threads)
        np.testing.assert_allclose(lib.main(x), ref_softmax(x.astype(np.float64)), rtol=2e-6, atol=1e-9)


def test_layernorm_is_one_kernel_and_matches_numpy():
    assert one_row_kernel(fused(LAYERNORM)[1])
    lib = aot.compile(LAYERNORM, name="row_layernorm")
    rng = np.random.default_rng(1)
    x, g = rng.standard_normal((37, 300)).astype(np.float32), rng.standard_normal(300).astype(np.float32)
    x64 = x.astype(np.float64)
    c = x64 - x64.mean(axis=1, keepdims=True)
    want = c / np.sqrt((c * c).mean(axis=1, keepdims=True) + 1e-5) * g
    np.testing.assert_allclose(lib.main(x, g), want, rtol=1e-5, atol=1e-5)


DYNAMIC_BCAST = ("stablehlo.dynamic_broadcast_in_dim %{v}, %shape, dims = [0] : "
                 "({r}, tensor<2xi32>) -> {t}")


def shape_of(v):
    """%shape = the dims of %v (tensor<?x?xf32>) as a tensor<2xi32>, as jax.export spells it."""
    lines = []
    for d in (0, 1):
        lines += [f"%d{d} = stablehlo.get_dimension_size %{v}, dim = {d} : (tensor<?x?xf32>) -> tensor<i32>",
                  f"%r{d} = stablehlo.reshape %d{d} : (tensor<i32>) -> tensor<1xi32>"]
    lines.append("%shape = stablehlo.concatenate %r0, %r1, dim = 0 : "
                 "(tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>")
    return "\n  ".join(lines)


def test_dynamic_rows_one_library():
    t, r = "tensor<?x?xf32>", "tensor<?xf32>"
    text = softmax(t, r, DYNAMIC_BCAST).replace(
        "  %ninf", f"  {shape_of('x')}\n  %ninf")
    assert one_row_kernel(fused(text)[1])
    lib = aot.compile(text, name="row_softmax_dynamic")
    rng = np.random.default_rng(2)
    for shape in [(1, 1), (5, 3), (300, 17), (0, 4), (3, 0)]:
        x = rng.standard_normal(shape).astype(np.float32)
        got = lib.main(x)
        assert got.shape == shape
        if x.size:
            np.testing.assert_allclose(got, ref_softmax(x.astype(np.float64)), rtol=2e-6, atol=1e-9)


SIZE_ONE_EXPANSION = f"""func.func @main(%x: tensor<?x?xf32>, %y: tensor<?x?xf32>) -> tensor<?x?xf32> {{
  {shape_of("y")}
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %s = stablehlo.reduce(%x init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<?x?xf32>, tensor<f32>) -> tensor<?xf32>
  %sb = stablehlo.dynamic_broadcast_in_dim %s, %shape, dims = [0] : (tensor<?xf32>, tensor<2xi32>) -> tensor<?x?xf32>
  %o = stablehlo.subtract %y, %sb : tensor<?x?xf32>
  return %o : tensor<?x?xf32>
}}"""  # noqa: E501


@pytest.mark.parametrize("x_rows", [1, 6])
def test_a_broadcast_may_expand_the_reduced_rows(x_rows):
    """Row sums of x [1 or 6, 9] broadcast to y's 6 rows: the fused kernel reads row 0 of a
    size-1 dim, as the broadcast does."""
    assert one_row_kernel(fused(SIZE_ONE_EXPANSION)[1])
    lib = aot.compile(SIZE_ONE_EXPANSION, name="row_expansion")
    rng = np.random.default_rng(3)
    x = rng.standard_normal((x_rows, 9)).astype(np.float32)
    y = rng.standard_normal((6, 4)).astype(np.float32)
    want = y - x.astype(np.float64).sum(axis=1, keepdims=True)
    np.testing.assert_allclose(lib.main(x, y), want, rtol=1e-5, atol=1e-5)


APART = """func.func @main(%x: tensor<20x30xf32>) -> (tensor<20x30xf32>, tensor<20xf32>, tensor<20x30xf32>) {
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %e = stablehlo.exponential %x : tensor<20x30xf32>
  %s = stablehlo.reduce(%e init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<20x30xf32>, tensor<f32>) -> tensor<20xf32>
  %sb = stablehlo.broadcast_in_dim %s, dims = [0] : (tensor<20xf32>) -> tensor<20x30xf32>
  %y = stablehlo.divide %e, %sb : tensor<20x30xf32>
  %c = stablehlo.reduce(%x init: %zero) applies stablehlo.add across dimensions = [0] : (tensor<20x30xf32>, tensor<f32>) -> tensor<30xf32>
  %cb = stablehlo.broadcast_in_dim %c, dims = [1] : (tensor<30xf32>) -> tensor<20x30xf32>
  %z = stablehlo.subtract %x, %cb : tensor<20x30xf32>
  return %y, %s, %z : tensor<20x30xf32>, tensor<20xf32>, tensor<20x30xf32>
}"""  # noqa: E501


def test_reductions_read_elsewhere_or_over_columns_stay_apart():
    """%s is also returned, so it is materialised; %c reduces columns, which a row walk
    cannot give early. Both keep kernels of their own, and %e, read by two kernels,
    says why it is not fused into one."""
    report = fused(APART)[1]
    assert len([line for line in report.splitlines() if line.startswith("kernel ")]) == 5
    assert "root mhlo.exponential: its result is used by 2 kernels" in report
    assert "root mhlo.reduce: a reduction roots a kInput kernel" in report
    lib = aot.compile(APART, name="row_apart")
    x = np.random.default_rng(4).standard_normal((20, 30)).astype(np.float32)
    x64 = x.astype(np.float64)
    e = np.exp(x64)
    want = (e / e.sum(axis=1, keepdims=True), e.sum(axis=1), x64 - x64.sum(axis=0))
    for g, w in zip(lib.main(x), want):
        np.testing.assert_allclose(g, w, rtol=1e-5, atol=1e-5)


# ----------------------------------------------------------------------------- column reductions

def column_reduce(shape, dims, combiner, init, elem="f32"):
    t = f"tensor<{'x'.join(map(str, shape))}x{elem}>"
    kept = [n for d, n in enumerate(shape) if d not in dims]
    r = f"tensor<{'x'.join(map(str, kept))}x{elem}>" if kept else f"tensor<{elem}>"
    return f"""func.func @main(%x: {t}) -> {r} {{
  %init = stablehlo.constant dense<{init}> : tensor<{elem}>
  %s = stablehlo.reduce(%x init: %init) applies stablehlo.{combiner} across dimensions = {list(dims)} : ({t}, tensor<{elem}>) -> {r}
  return %s : {r}
}}"""  # noqa: E501


@pytest.mark.parametrize("shape, dims, combiner, init, elem, reference", [
    ((1000, 37), [0], "add", "5.0", "f32", lambda x: 5.0 + x.sum(axis=0)),
    ((3, 37), [0], "add", "5.0", "f32", lambda x: 5.0 + x.sum(axis=0)),  # fewer rows than chunks
    ((0, 37), [0], "add", "5.0", "f32", lambda x: np.full(37, 5.0)),  # no rows: the init
    ((200, 9, 13), [0, 1], "maximum", "-1.0e30", "f32", lambda x: x.max(axis=(0, 1))),
    ((77, 4, 6), [0], "minimum", "1.0e30", "f32", lambda x: x.min(axis=0)),
    ((50, 8), [0], "multiply", "2.0", "f64", lambda x: 2.0 * x.prod(axis=0)),
    ((301, 16), [0], "add", "7", "i32", lambda x: 7 + x.sum(axis=0)),
])
def test_column_reductions_split_in_chunks(shape, dims, combiner, init, elem, reference):
    """Column reductions are cut into row chunks reduced in parallel, then combined: the
    init value counts once, empty and short inputs work, several reduced and kept dims,
    every combiner the split takes, and the same result on 1 and 2 threads."""
    text = column_reduce(shape, dims, combiner, init, elem)
    lhlo = print_module(run_pipeline(parse_module(text, "t.mlir"), "lhlo"))
    assert "aot.scratch = 1" in lhlo
    lib = aot.compile(text, name=f"column_{combiner}_{elem}_{len(shape)}_{shape[0]}")
    rng = np.random.default_rng(6)
    if elem == "i32":
        x = rng.integers(-50, 50, shape).astype(np.int32)
    else:
        x = (rng.uniform(0.9, 1.1, shape) if combiner == "multiply"
             else rng.standard_normal(shape)).astype(elem.replace("f", "float"))
    results = []
    for threads in (1, 2):
        lib.set_num_threads(threads)
        results.append(lib.main(x))
    want = reference(x.astype(np.float64) if elem != "i32" else x.astype(np.int64))
    np.testing.assert_allclose(results[0], want, rtol=1e-5, atol=1e-4)
    np.testing.assert_array_equal(results[0], results[1])


def test_column_reduction_with_dynamic_rows():
    lib = aot.compile(column_reduce(("?", "?"), [0], "add", "1.0", "f32"), name="column_dynamic")
    rng = np.random.default_rng(7)
    for shape in [(0, 3), (1, 5), (7, 2), (1000, 33)]:
        x = rng.standard_normal(shape).astype(np.float32)
        np.testing.assert_allclose(lib.main(x), 1.0 + x.astype(np.float64).sum(axis=0),
                                   rtol=1e-5, atol=1e-4)
