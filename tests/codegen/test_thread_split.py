"""A parallel kernel's whole iteration space split over threads (codegen/llvm/collapse.py):
an elementwise nest collapses, so a [1, N] or [3, N] output uses every thread, and each task
walks partial first and last rows. Checked on the loop-stage IR (which nests collapse), on
the host's call (the extent it hands the thread pool) and against numpy at shapes whose
rows a task cuts anywhere, on 1, 2 and 7 threads with the same bits."""
import re

import numpy as np
import pytest

import aot
from aot.driver import Compilation, Options
from lowering.codegen.llvm import machine
from lowering.codegen.llvm.collapse import collapsed_loops
from lowering.frontend.parser import parse_module
from lowering.passes.pipeline import run_pipeline
from lowering.target import host_target


def chain(t: str) -> str:
    """tanh then exp, one elementwise fusion over tensor type t."""
    return f"""func.func @main(%x: {t}) -> {t} {{
  %t = stablehlo.tanh %x : {t}
  %e = stablehlo.exponential %t : {t}
  return %e : {t}
}}"""


ROW_SUMS = """func.func @main(%x: tensor<?x?xf32>) -> tensor<?xf32> {
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %s = stablehlo.reduce(%x init: %z) applies stablehlo.add across dimensions = [1] : (tensor<?x?xf32>, tensor<f32>) -> tensor<?xf32>
  return %s : tensor<?xf32>
}"""  # noqa: E501
COLUMN_SUMS = ROW_SUMS.replace("dimensions = [1]", "dimensions = [0]")
TRANSPOSE = """func.func @main(%x: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %t = stablehlo.transpose %x, dims = [1, 0] : (tensor<?x?xf32>) -> tensor<?x?xf32>
  %e = stablehlo.exponential %t : tensor<?x?xf32>
  return %e : tensor<?x?xf32>
}"""


def collapsed_depths(text: str) -> list:
    module = run_pipeline(parse_module(text, "t.mlir"), "loops")
    return [len(collapsed_loops(f, host_target())) for f in module.functions()
            if f.attrs.get("aot.parallel")]


@pytest.mark.parametrize("text, depth", [
    (chain("tensor<?x?xf32>"), 2), (chain("tensor<1x2x?xf32>"), 3),
    (TRANSPOSE, 2),  # stores at the nest's ivs, loads from another order: still disjoint
    (ROW_SUMS, 1),  # a reduction inside each row: not a perfect nest
])
def test_which_nests_collapse(text, depth):
    assert collapsed_depths(text) == [depth]


def test_collapsing_is_a_target_capability():
    """A target without `collapse_nests` (a GPU maps loops onto its grid) keeps dim 0."""
    from dataclasses import replace
    module = run_pipeline(parse_module(chain("tensor<?x?xf32>"), "t.mlir"), "loops")
    (kernel,) = [f for f in module.functions() if f.attrs.get("aot.parallel")]
    assert len(collapsed_loops(kernel, host_target())) == 2
    assert len(collapsed_loops(kernel, replace(host_target(), collapse_nests=False))) == 1


def test_column_sums_keep_their_split():
    """A column reduction accumulates into its output across rows: no nest there collapses."""
    assert all(d <= 1 for d in collapsed_depths(COLUMN_SUMS))


def test_host_hands_the_pool_every_element():
    """[1, 65536]: the thread pool's extent is the 65536 elements, not dim 0's 1."""
    _, text, _, _ = Compilation(chain("tensor<1x65536xf32>"), "c.mlir",
                                Options(name="split", emit="llvm")).llvm()
    tm = machine.target_machine(host_target())
    optimized = str(machine.optimize(text, tm))  # the extent's arithmetic folded
    calls = re.findall(r"call void @aot_parallel_for\(i64 (\S+),", optimized)
    assert calls == ["65536"], calls


@pytest.mark.parametrize("shape", [(1, 40001), (3, 33333), (2, 3, 7001), (1, 1, 50000), (7, 9001),
                                   (1, 1), (0, 5), (5, 0), (40000, 1)])
def test_collapsed_split_matches_numpy(shape):
    t = "tensor<" + "?x" * len(shape) + "f32>"
    lib = aot.compile(chain(t), name=f"split_chain{len(shape)}")
    x = np.random.default_rng(len(shape)).standard_normal(shape).astype(np.float32)
    want = np.exp(np.tanh(x.astype(np.float64)))
    got = []
    for threads in (1, 2, 7):
        lib.set_num_threads(threads)
        got.append(lib.main(x))
        np.testing.assert_allclose(got[-1], want, rtol=2e-6, err_msg=f"{threads} threads")
    for other in got[1:]:
        np.testing.assert_array_equal(got[0], other)
