"""A reduction of the last dim over few long rows split into chunks of each row
(bufferize.split_row_reduction, loops.emit_split_rows): the chunks are reduced over the
thread pool into a scratch, then combined in chunk order; a row fusion over such rows
(softmax, layernorm: bufferize.split_row_fusion, loops.emit_split_row_fusion) as one such
kernel per reduction and one for the elements. Checked on the loop-stage IR (which
reductions split, and that the threads split the chunk loop) and against numpy at lengths
that leave remainders, empty chunks, one element and none, f32/f64, every combiner, an init
that is not the combiner's identity, on 1, 2 and 7 threads with the same bits."""
from dataclasses import replace

import numpy as np
import pytest

import aot
from lowering.frontend.parser import parse_module
from lowering.passes.bufferize import ROW_SPLIT_MAX_ROWS, ROW_SPLIT_MIN_LENGTH
from lowering.passes.pipeline import run_pipeline
from lowering.target import host_target

NUMPY = {"add": np.add, "multiply": np.multiply, "maximum": np.maximum, "minimum": np.minimum}


def reduce_last(shape: str, elem: str = "f32", op: str = "add", init: float = 0.0) -> str:
    """stablehlo.reduce of the last dim of tensor<shape x elem> with `op`, from `init`."""
    dims = shape.split("x")
    t, r = f"tensor<{shape}x{elem}>", f"tensor<{'x'.join(dims[:-1] + [elem])}>"
    return f"""func.func @main(%x: {t}) -> {r} {{
  %z = stablehlo.constant dense<{init}> : tensor<{elem}>
  %s = stablehlo.reduce(%x init: %z) applies stablehlo.{op} across dimensions = [{len(dims) - 1}] : ({t}, tensor<{elem}>) -> {r}
  return %s : {r}
}}"""  # noqa: E501


def kernels(text: str, target=None) -> list:
    module = run_pipeline(parse_module(text, "t.mlir"), "loops", target=target)
    return [f for f in module.functions() if "aot.kernel" in f.attrs]


def chunk_kernels(text: str, target=None) -> int:
    """How many kernels the threads split over the 8 chunks of a row (Target.column_chunks)."""
    count = 0
    for k in kernels(text, target):
        loop = next((o for o in k.regions[0].blocks[0].ops if o.name == "scf.for"), None)
        ub = loop.operands[1].owner if loop is not None else None
        count += bool(loop is not None and loop.attrs.get("aot.parallel")
                      and getattr(ub, "name", "") == "arith.constant" and ub.attrs["value"] == 8)
    return count


@pytest.mark.parametrize("shape, split", [
    (f"1x{ROW_SPLIT_MIN_LENGTH}", True), (f"{ROW_SPLIT_MIN_LENGTH}", True),  # [1, N] and [N]
    (f"{ROW_SPLIT_MAX_ROWS}x{ROW_SPLIT_MIN_LENGTH}", True), ("1x?", True),  # a run-time length
    (f"1x{ROW_SPLIT_MIN_LENGTH - 1}", False),  # too short to share
    (f"{ROW_SPLIT_MAX_ROWS + 1}x{ROW_SPLIT_MIN_LENGTH}", False),  # whole rows per thread
    ("?x4096", False),  # short rows, however many
    ("?x?", True), (f"?x{ROW_SPLIT_MIN_LENGTH}", True), ("?x2x?", True),  # a run-time row count:
])  # chunks or whole rows, chosen when the kernel runs
def test_which_reductions_split(shape, split):
    """Split: a kernel over the chunks, then the one combining them."""
    ks = kernels(reduce_last(shape))
    assert len(ks) == (2 if split else 1)
    assert chunk_kernels(reduce_last(shape)) == int(split)


def test_no_split_without_chunks_or_threads():
    """A target without column chunks (a GPU's) or without threads keeps whole rows."""
    text = softmax(f"1x{ROW_SPLIT_MIN_LENGTH}")
    assert chunk_kernels(text) == 3
    for target in (replace(host_target(), column_chunks=0), replace(host_target(), threads=False)):
        assert chunk_kernels(text, target) == 0
        assert len(kernels(reduce_last(f"1x{ROW_SPLIT_MIN_LENGTH}"), target)) == 1


def run_threads(lib, *args) -> np.ndarray:
    """The result on 1 thread, after checking 2 and 7 threads give the same bits."""
    got = []
    for threads in (1, 2, 7):
        lib.set_num_threads(threads)
        got.append(lib.main(*args))
    for other in got[1:]:
        np.testing.assert_array_equal(got[0], other)
    return got[0]


@pytest.mark.parametrize("elem", ["f32", "f64"])
def test_run_time_lengths_match_numpy(elem):
    """One library over lengths around the chunk count (empty chunks, remainders), one and
    none, and long odd ones; the init 1.5 joins once."""
    lib = aot.compile(reduce_last("1x?", elem, "add", 1.5), name=f"row_split_{elem}")
    dtype = np.float32 if elem == "f32" else np.float64
    rng = np.random.default_rng(0)
    for n in (0, 1, 2, 7, 8, 9, 17, 1001, 65537, 300007):
        x = rng.standard_normal((1, n)).astype(dtype)
        want = x.astype(np.float64).sum(axis=1) + 1.5
        got = run_threads(lib, x)
        tol = 1e-5 if elem == "f32" else 1e-12
        np.testing.assert_allclose(got, want, rtol=tol, atol=tol * max(1.0, np.sqrt(n)), err_msg=f"n={n}")


@pytest.mark.parametrize("elem, op, init", [("f32", "add", 1.5), ("f64", "maximum", -7.0)])
def test_run_time_rows_match_numpy(elem, op, init):
    """One library over row counts below the chunk count (rows cut into chunks), at it and
    above (whole rows, blocks of ceil(rows / 8) per task, the last ones short or empty),
    none, and rows of none, one and many elements; rank 3 flattens its rows."""
    dtype = np.float32 if elem == "f32" else np.float64
    rng = np.random.default_rng(1)
    for rank in (2, 3):
        lib = aot.compile(reduce_last("x".join("?" * rank), elem, op, init),
                          name=f"row_split_rows{rank}_{elem}")
        for rows, n in ((1, 300007), (3, 1001), (7, 9), (8, 5), (9, 65537), (37, 300), (0, 5),
                        (5, 0), (1, 1), (100, 1)):
            lead = (rows,) if rank == 2 else ((rows + 1) // 2, 2) if rows > 1 else (1, rows)
            x = rng.standard_normal(lead + (n,)).astype(dtype)
            want = NUMPY[op].reduce(x.astype(np.float64), axis=-1, initial=init)
            got = run_threads(lib, x)
            tol = 1e-5 if elem == "f32" else 1e-12
            np.testing.assert_allclose(got, want, rtol=tol, atol=tol * max(1.0, np.sqrt(n)),
                                       err_msg=f"rank {rank}, {rows} rows of {n}")


@pytest.mark.parametrize("shape, elem, op, init", [
    ((3, ROW_SPLIT_MIN_LENGTH + 3), "f32", "maximum", -1e30),
    ((ROW_SPLIT_MIN_LENGTH * 2 + 1,), "f64", "add", 0.25),
    ((1, ROW_SPLIT_MIN_LENGTH + 5), "f64", "minimum", 1e30),
    ((ROW_SPLIT_MAX_ROWS, ROW_SPLIT_MIN_LENGTH + 7), "f32", "multiply", 1.0),
])
def test_static_rows_match_numpy(shape, elem, op, init):
    text = reduce_last("x".join(map(str, shape)), elem, op, init)
    assert len(kernels(text)) == 2
    lib = aot.compile(text, name="row_split_static")
    dtype = np.float32 if elem == "f32" else np.float64
    rng = np.random.default_rng(1)
    x = rng.standard_normal(shape).astype(dtype)
    if op == "multiply":  # ones, and a few 2s and 0.5s: every product exact
        x = rng.choice(np.array([1.0, 2.0, 0.5], dtype), shape, p=[0.9996, 0.0002, 0.0002])
    want = NUMPY[op](NUMPY[op].reduce(x.astype(np.float64), axis=-1), init)
    np.testing.assert_allclose(run_threads(lib, x), want, rtol=1e-5 if elem == "f32" else 1e-12)


def row_shape(t: str) -> str:
    """%shape: the dims of %x as tensor<2xi32>, for broadcasting a row value over a run-time length."""
    return "\n  ".join([
        f"%d0 = stablehlo.get_dimension_size %x, dim = 0 : ({t}) -> tensor<i32>",
        f"%d1 = stablehlo.get_dimension_size %x, dim = 1 : ({t}) -> tensor<i32>",
        "%r0 = stablehlo.reshape %d0 : (tensor<i32>) -> tensor<1xi32>",
        "%r1 = stablehlo.reshape %d1 : (tensor<i32>) -> tensor<1xi32>",
        "%shape = stablehlo.concatenate %r0, %r1, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>"])


def softmax(shape: str, elem: str = "f32") -> str:
    t, r = f"tensor<{shape}x{elem}>", f"tensor<{shape.rsplit('x', 1)[0]}x{elem}>"
    return f"""func.func @main(%x: {t}) -> {t} {{
  {row_shape(t)}
  %ninf = stablehlo.constant dense<-1.0e30> : tensor<{elem}>
  %zero = stablehlo.constant dense<0.0> : tensor<{elem}>
  %m = stablehlo.reduce(%x init: %ninf) applies stablehlo.maximum across dimensions = [1] : ({t}, tensor<{elem}>) -> {r}
  %mb = stablehlo.dynamic_broadcast_in_dim %m, %shape, dims = [0] : ({r}, tensor<2xi32>) -> {t}
  %d = stablehlo.subtract %x, %mb : {t}
  %e = stablehlo.exponential %d : {t}
  %s = stablehlo.reduce(%e init: %zero) applies stablehlo.add across dimensions = [1] : ({t}, tensor<{elem}>) -> {r}
  %sb = stablehlo.dynamic_broadcast_in_dim %s, %shape, dims = [0] : ({r}, tensor<2xi32>) -> {t}
  %y = stablehlo.divide %e, %sb : {t}
  return %y : {t}
}}"""  # noqa: E501


def layernorm(shape: str, elem: str = "f32") -> str:
    """(x - mean) / sqrt(var + 1e-5) per row, the variance a second reduction of the mean's
    result: three kernels when split, each combining the ones before."""
    t, r = f"tensor<{shape}x{elem}>", f"tensor<{shape.rsplit('x', 1)[0]}x{elem}>"
    return f"""func.func @main(%x: {t}, %n: {r}) -> {t} {{
  {row_shape(t)}
  %zero = stablehlo.constant dense<0.0> : tensor<{elem}>
  %s = stablehlo.reduce(%x init: %zero) applies stablehlo.add across dimensions = [1] : ({t}, tensor<{elem}>) -> {r}
  %mean = stablehlo.divide %s, %n : {r}
  %mb = stablehlo.dynamic_broadcast_in_dim %mean, %shape, dims = [0] : ({r}, tensor<2xi32>) -> {t}
  %c = stablehlo.subtract %x, %mb : {t}
  %sq = stablehlo.multiply %c, %c : {t}
  %v = stablehlo.reduce(%sq init: %zero) applies stablehlo.add across dimensions = [1] : ({t}, tensor<{elem}>) -> {r}
  %var = stablehlo.divide %v, %n : {r}
  %eps = stablehlo.constant dense<1.0e-5> : {r}
  %ve = stablehlo.add %var, %eps : {r}
  %inv = stablehlo.rsqrt %ve : {r}
  %ib = stablehlo.dynamic_broadcast_in_dim %inv, %shape, dims = [0] : ({r}, tensor<2xi32>) -> {t}
  %y = stablehlo.multiply %c, %ib : {t}
  return %y : {t}
}}"""  # noqa: E501


def ref_softmax(x):
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def ref_layernorm(x):
    c = x - x.mean(axis=-1, keepdims=True)
    return c / np.sqrt((c * c).mean(axis=-1, keepdims=True) + 1e-5)


@pytest.mark.parametrize("text, split", [
    (softmax(f"1x{ROW_SPLIT_MIN_LENGTH}"), 3), (layernorm(f"{ROW_SPLIT_MAX_ROWS}x?"), 3),
    (softmax(f"1x{ROW_SPLIT_MIN_LENGTH - 1}"), 0), (softmax(f"{ROW_SPLIT_MAX_ROWS + 1}x?"), 0),
    (softmax("?x?"), 3),  # a run-time row count: chunks or whole rows, chosen when it runs
    (softmax("?x4096"), 0),  # short rows, however many
])
def test_which_row_fusions_split(text, split):
    """Split: a kernel per reduction and one for the elements, each over the chunks."""
    assert chunk_kernels(text) == split


@pytest.mark.parametrize("elem", ["f32", "f64"])
def test_split_row_fusions_match_numpy(elem):
    """softmax over one row and layernorm over three, run-time lengths around the chunk
    count (empty chunks, remainders), one element and long odd ones."""
    dtype = np.float32 if elem == "f32" else np.float64
    libs = {"softmax": aot.compile(softmax("1x?", elem), name=f"split_softmax_{elem}"),
            "layernorm": aot.compile(layernorm("3x?", elem), name=f"split_layernorm_{elem}")}
    rng = np.random.default_rng(2)
    for n in (1, 7, 9, 17, 1001, 70001):
        x = rng.standard_normal((1, n)).astype(dtype)
        np.testing.assert_allclose(run_threads(libs["softmax"], x), ref_softmax(x.astype(np.float64)),
                                   rtol=2e-5 if elem == "f32" else 1e-12, atol=1e-9, err_msg=f"n={n}")
        x = (rng.standard_normal((3, n)) * 3 + 5).astype(dtype)
        lib = libs["layernorm"]
        got = run_threads(lib, x, np.full(3, n, dtype))
        want = ref_layernorm(x.astype(np.float64))
        tol = 1e-3 if elem == "f32" else 1e-9
        np.testing.assert_allclose(got, want, rtol=0, atol=tol, err_msg=f"n={n}")


EXPANDED = """func.func @main(%x: tensor<1x?xf32>, %y: tensor<1x?xf32>) -> tensor<1x?xf32> {
  %d1 = stablehlo.get_dimension_size %y, dim = 1 : (tensor<1x?xf32>) -> tensor<i32>
  %one = stablehlo.constant dense<1> : tensor<1xi32>
  %r1 = stablehlo.reshape %d1 : (tensor<i32>) -> tensor<1xi32>
  %shape = stablehlo.concatenate %one, %r1, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %s = stablehlo.reduce(%x init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<1x?xf32>, tensor<f32>) -> tensor<1xf32>
  %sb = stablehlo.dynamic_broadcast_in_dim %s, %shape, dims = [0] : (tensor<1xf32>, tensor<2xi32>) -> tensor<1x?xf32>
  %o = stablehlo.subtract %y, %sb : tensor<1x?xf32>
  return %o : tensor<1x?xf32>
}"""  # noqa: E501


def test_split_row_fusion_reduces_its_operands_own_length():
    """y - sum(x) with x and y of run-time lengths that differ: the split kernels cut x's
    row along x's length and the elements along y's (cut both along y's, a sum of 1000
    read 3 elements: off by 44)."""
    assert chunk_kernels(EXPANDED) == 2
    lib = aot.compile(EXPANDED, name="split_expanded_row")
    rng = np.random.default_rng(5)
    for nx, ny in ((9, 4), (4, 9), (1000, 3), (3, 1000), (5, 5), (0, 3), (3, 0)):
        x = rng.standard_normal((1, nx)).astype(np.float32)
        y = rng.standard_normal((1, ny)).astype(np.float32)
        got = run_threads(lib, x, y)
        want = y - x.astype(np.float64).sum(axis=1, keepdims=True)
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5, err_msg=f"x {nx}, y {ny}")


@pytest.mark.parametrize("elem", ["f32", "f64"])
def test_run_time_row_fusions_match_numpy(elem):
    """softmax and layernorm over a run-time row count: below the chunk count (rows cut into
    chunks, combined across the kernels), at it and above (the first kernel fuses each
    task's block of whole rows, the later ones have none), none, and short rows."""
    dtype = np.float32 if elem == "f32" else np.float64
    eps = (f"%eps = stablehlo.constant dense<1.0e-5> : tensor<?x{elem}>",  # a run-time row count:
           f"%e0 = stablehlo.constant dense<1.0e-5> : tensor<{elem}>\n  %eps = stablehlo."  # eps
           f"dynamic_broadcast_in_dim %e0, %r0, dims = [] : (tensor<{elem}>, tensor<1xi32>) -> "
           f"tensor<?x{elem}>")  # broadcast to it
    libs = {"softmax": aot.compile(softmax("?x?", elem), name=f"rows_softmax_{elem}"),
            "layernorm": aot.compile(layernorm("?x?", elem).replace(*eps), name=f"rows_layernorm_{elem}")}
    assert chunk_kernels(layernorm("?x?", elem).replace(*eps)) == 3
    rng = np.random.default_rng(4)
    for rows, n in ((1, 70001), (3, 1001), (7, 9), (8, 300), (9, 17), (37, 256), (0, 5), (2, 1)):
        x = (rng.standard_normal((rows, n)) * 3 + 1).astype(dtype)
        np.testing.assert_allclose(run_threads(libs["softmax"], x), ref_softmax(x.astype(np.float64)),
                                   rtol=2e-5 if elem == "f32" else 1e-12, atol=1e-9,
                                   err_msg=f"softmax, {rows} rows of {n}")
        lib = libs["layernorm"]
        got = run_threads(lib, x, np.full(rows, n, dtype))
        tol = 1e-3 if elem == "f32" else 1e-9
        np.testing.assert_allclose(got, ref_layernorm(x.astype(np.float64)) if x.size else x,
                                   rtol=0, atol=tol, err_msg=f"layernorm, {rows} rows of {n}")


EXPANDED_ROWS = """func.func @main(%x: tensor<?x?xf32>, %y: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %d0 = stablehlo.get_dimension_size %y, dim = 0 : (tensor<?x?xf32>) -> tensor<i32>
  %d1 = stablehlo.get_dimension_size %y, dim = 1 : (tensor<?x?xf32>) -> tensor<i32>
  %r0 = stablehlo.reshape %d0 : (tensor<i32>) -> tensor<1xi32>
  %r1 = stablehlo.reshape %d1 : (tensor<i32>) -> tensor<1xi32>
  %shape = stablehlo.concatenate %r0, %r1, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %s = stablehlo.reduce(%x init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<?x?xf32>, tensor<f32>) -> tensor<?xf32>
  %sb = stablehlo.dynamic_broadcast_in_dim %s, %shape, dims = [0] : (tensor<?xf32>, tensor<2xi32>) -> tensor<?x?xf32>
  %o = stablehlo.subtract %y, %sb : tensor<?x?xf32>
  return %o : tensor<?x?xf32>
}"""  # noqa: E501


def test_run_time_rows_read_their_operands_rows():
    """y - sum(x) over rows, x with 1 row or as many as y, all dims run-time: a reduction
    reads row 0 of a size-1 x, as the broadcast does, in both the cut and the whole-row
    kernels (fewer and more rows than chunks), and x's own length."""
    assert chunk_kernels(EXPANDED_ROWS) == 2
    lib = aot.compile(EXPANDED_ROWS, name="split_rows_expanded")
    rng = np.random.default_rng(6)
    for y_rows, x_rows, nx, ny in ((3, 1, 1000, 7), (3, 3, 9, 4), (20, 1, 50, 30), (20, 20, 30, 50),
                                   (0, 1, 4, 4)):
        x = rng.standard_normal((x_rows, nx)).astype(np.float32)
        y = rng.standard_normal((y_rows, ny)).astype(np.float32)
        got = run_threads(lib, x, y)
        want = y - x.astype(np.float64).sum(axis=1, keepdims=True)
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-4,
                                   err_msg=f"y {y_rows}x{ny}, x {x_rows}x{nx}")
