"""A reduction of the last dim over few long rows split into chunks of each row
(bufferize.split_row_reduction, loops.emit_split_rows): the chunks are reduced over the
thread pool into a scratch, then combined in chunk order. Checked on the loop-stage IR (which
reductions split, and that the threads split the chunk loop) and against numpy at lengths
that leave remainders, empty chunks, one element and none, f32/f64, every combiner, an init
that is not the combiner's identity, on 1, 2 and 7 threads with the same bits."""
import numpy as np
import pytest

import aot
from lowering.frontend.parser import parse_module
from lowering.passes.bufferize import ROW_SPLIT_MAX_ROWS, ROW_SPLIT_MIN_LENGTH
from lowering.passes.pipeline import run_pipeline

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


def kernels(text: str) -> list:
    module = run_pipeline(parse_module(text, "t.mlir"), "loops")
    return [f for f in module.functions() if "aot.kernel" in f.attrs]


@pytest.mark.parametrize("shape, split", [
    (f"1x{ROW_SPLIT_MIN_LENGTH}", True), (f"{ROW_SPLIT_MIN_LENGTH}", True),  # [1, N] and [N]
    (f"{ROW_SPLIT_MAX_ROWS}x{ROW_SPLIT_MIN_LENGTH}", True), ("1x?", True),  # a run-time length
    (f"1x{ROW_SPLIT_MIN_LENGTH - 1}", False),  # too short to share
    (f"{ROW_SPLIT_MAX_ROWS + 1}x{ROW_SPLIT_MIN_LENGTH}", False),  # whole rows per thread
    ("?x4096", False),  # a run-time row count: whole rows
])
def test_which_reductions_split(shape, split):
    ks = kernels(reduce_last(shape))
    assert len(ks) == (2 if split else 1)
    if split:  # the first kernel's parallel loop runs over the chunks, 0 .. column_chunks
        loop = next(o for o in ks[0].regions[0].blocks[0].ops if o.name == "scf.for")
        assert loop.attrs.get("aot.parallel")
        assert loop.operands[1].owner.attrs["value"] == 8


def run_threads(lib, x) -> np.ndarray:
    """The result on 1 thread, after checking 2 and 7 threads give the same bits."""
    got = []
    for threads in (1, 2, 7):
        lib.set_num_threads(threads)
        got.append(lib.main(x))
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
