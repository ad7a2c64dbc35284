"""A column reduction split into chunks of its rows (bufferize.split_column_reduction,
loops.emit_split_columns) with run-time dims: the combining kernel walks all
Target.column_chunks partials with a constant trip count and passes over the empty ones by
a select (loops.emit_combine_chunks), so its loop over the kept elements vectorises as the
static form's does. Checked on the loop-stage IR and against numpy at row counts below, at
and above the chunk count (empty chunks), none, ranks 2 and 3, a non-identity init, on 1,
2 and 7 threads with the same bits."""
import numpy as np
import pytest

import aot
from lowering.frontend.parser import parse_module
from lowering.passes.pipeline import run_pipeline
from lowering.target import host_target

NUMPY = {"add": np.add, "maximum": np.maximum, "multiply": np.multiply}


def reduce_leading(rank: int, elem: str, op: str, init) -> str:
    """stablehlo.reduce of dim 0 of a rank-`rank` tensor of run-time dims."""
    t, r = f"tensor<{'?x' * rank}{elem}>", f"tensor<{'?x' * (rank - 1)}{elem}>"
    return f"""func.func @main(%x: {t}) -> {r} {{
  %z = stablehlo.constant dense<{init}> : tensor<{elem}>
  %s = stablehlo.reduce(%x init: %z) applies stablehlo.{op} across dimensions = [0] : ({t}, tensor<{elem}>) -> {r}
  return %s : {r}
}}"""  # noqa: E501


def test_combining_walks_every_chunk_with_a_constant_count():
    """Two kernels; the second's chunk loop runs 1..column_chunks (a constant, not the
    run-time count of non-empty chunks) and selects between the combined and the kept value."""
    module = run_pipeline(parse_module(reduce_leading(3, "f32", "add", 0.0), "t.mlir"), "loops")
    kernels = [f for f in module.functions() if "aot.kernel" in f.attrs]
    assert len(kernels) == 2
    chunk_loops = [op for op in kernels[1].walk() if op.name == "scf.for"
                   and getattr(op.operands[1].owner, "name", "") == "arith.constant"
                   and op.operands[1].owner.attrs["value"] == host_target().column_chunks]
    assert len(chunk_loops) == 1
    body = [op.name for op in chunk_loops[0].walk()]
    assert "arith.addf" in body and "arith.select" in body and "scf.for" not in body[1:]


def run_threads(lib, x) -> np.ndarray:
    """The result on 1 thread, after checking 2 and 7 threads give the same bits."""
    got = []
    for threads in (1, 2, 7):
        lib.set_num_threads(threads)
        got.append(lib.main(x))
    for other in got[1:]:
        np.testing.assert_array_equal(got[0], other)
    return got[0]


@pytest.mark.parametrize("elem, op, init", [("i32", "add", 3), ("f32", "maximum", -2.5),
                                            ("f64", "multiply", 1.0)])
def test_run_time_column_reductions_match_numpy(elem, op, init):
    dtype = {"i32": np.int32, "f32": np.float32, "f64": np.float64}[elem]
    rng = np.random.default_rng(2)
    for rank in (2, 3):
        lib = aot.compile(reduce_leading(rank, elem, op, init), name=f"split_cols{rank}_{elem}")
        for rows, cols in ((1, 1000), (2, 3), (3, 1), (7, 17), (8, 1000), (9, 5), (17, 1001),
                           (300, 40), (0, 4), (5, 0)):
            kept = (cols,) if rank == 2 else (2, cols)
            if op == "multiply":  # ones, and a few 2s and 0.5s: every product exact
                x = rng.choice(np.array([1.0, 2.0, 0.5], dtype), (rows,) + kept, p=[0.9, 0.05, 0.05])
            else:
                x = rng.integers(-50, 50, (rows,) + kept).astype(dtype)
            want = NUMPY[op].reduce(x, axis=0, initial=init).astype(dtype)
            np.testing.assert_array_equal(run_threads(lib, x), want,
                                          err_msg=f"rank {rank}, {rows} rows of {kept}")
