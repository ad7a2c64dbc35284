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
from lowering.frontend.printer import print_module
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
# the transpose of a sum of two inputs: not one of codegen/cpu/transpose.py's tiled fusions
TRANSPOSE = """func.func @main(%x: tensor<?x?xf32>, %y: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %s = stablehlo.add %x, %y : tensor<?x?xf32>
  %e = stablehlo.transpose %s, dims = [1, 0] : (tensor<?x?xf32>) -> tensor<?x?xf32>
  return %e : tensor<?x?xf32>
}"""


def collapsed_depths(text: str) -> list:
    module = run_pipeline(parse_module(text, "t.mlir"), "loops")
    return [len(collapsed_loops(f, host_target())) for f in module.functions()
            if f.attrs.get("aot.parallel")]


@pytest.mark.parametrize("text, depth", [
    (chain("tensor<?x?xf32>"), 2), (chain("tensor<1x2x?xf32>"), 3),
    (TRANSPOSE, 2),  # stores at the nest's ivs, loads from another order: still disjoint
    (ROW_SUMS.replace("?x?xf32", "?x256xf32"), 1),  # a reduction in each row: not a perfect nest
    (chain("tensor<?x64x2x2xf32>"), 1),  # as [?, 256]: rows of 256 run whole (WHOLE_ROWS)
    (chain("tensor<?x8x64x32xf32>"), 3), (chain("tensor<?x64x32x32xf32>"), 2),
    (chain("tensor<1x2x2048xf32>"), 3),  # a long row still splits inside
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


def concat(shapes: list, dim: int, out: str, elem: str = "f32", exp_first: bool = False) -> str:
    """stablehlo.concatenate of arguments of `shapes` ("2x?", ...) along `dim`; with
    `exp_first` the first operand goes through an exponential fused into the kernel."""
    ts = [f"tensor<{s}x{elem}>" for s in shapes]
    args = ", ".join(f"%a{i}: {t}" for i, t in enumerate(ts))
    first = f"  %e = stablehlo.exponential %a0 : {ts[0]}\n" if exp_first else ""
    names = ", ".join(["%e" if exp_first else "%a0"] + [f"%a{i}" for i in range(1, len(ts))])
    o = f"tensor<{out}x{elem}>"
    return (f"func.func @main({args}) -> {o} {{\n{first}  %y = stablehlo.concatenate {names}, "
            f"dim = {dim} : ({', '.join(ts)}) -> {o}\n  return %y : {o}\n}}")


# (operand shapes as compiled, the shapes called, dim, result shape as compiled)
CONCATS = [
    (["1000", "2500", "7"], None, 0, "3507"),  # [N]: blocks of output rows, cut anywhere
    (["1500x3", "700x3"], None, 0, "2200x3"),
    (["1x7", "1x50001", "1x13"], None, 1, "1x50021"),  # [1, N]: pieces of the one row
    (["1x1x30000", "1x1x9"], None, 2, "1x1x30009"),  # cut along the last dim (dims of 1 skipped)
    (["2x3x5", "2x3x4000"], None, 2, "2x3x4005"),  # cut along dim 1: 3 rows for 8 pieces
    (["20x300", "20x5"], None, 1, "20x305"),  # many rows: whole rows per thread
    (["?x?", "?x?"], [(1, 40000), (1, 3)], 1, "?x?"),  # run-time rows
    (["?x?", "?x?"], [(5, 7), (3, 7)], 0, "?x?"),
    # every dim `?`: the dim the pieces cut is the first not 1 at run time, up to the last
    (["?x?x?", "?x?x?"], [(1, 1, 30000), (1, 1, 9)], 2, "?x?x?"),
    (["?x?x?", "?x?x?"], [(1, 3, 4000), (1, 3, 5)], 2, "?x?x?"),
    (["?x?x?", "?x?x?"], [(2, 1, 7), (2, 1, 1)], 2, "?x?x?"),
    (["?x?x?", "?x?x?"], [(1, 1, 1), (1, 1, 1)], 2, "?x?x?"),
]


@pytest.mark.parametrize("shapes, called, dim, out", CONCATS)
def test_concatenations_split_over_threads(shapes, called, dim, out):
    """A concatenation's pieces cover the output once, whatever the threads: numpy's result,
    the same bits on 1, 2 and 7 threads (the first operand through a fused exponential)."""
    lib = aot.compile(concat(shapes, dim, out, exp_first=True), name="concat_split")
    rng = np.random.default_rng(0)
    dims = called or [tuple(int(n) for n in s.split("x")) for s in shapes]
    xs = [rng.standard_normal(d).astype(np.float32) for d in dims]
    want = np.concatenate([np.exp(xs[0])] + xs[1:], axis=dim)
    results = []
    for threads in (1, 2, 7):
        lib.set_num_threads(threads)
        results.append(lib.main(*xs))
    np.testing.assert_allclose(results[0], want, rtol=2e-6)
    for r in results[1:]:
        assert np.array_equal(r, results[0])


def test_concatenations_collapse_or_block():
    """[1, N] along dim 1: the rows and their pieces collapse into one iteration space;
    [N]: the parallel loop steps over blocks of the output's rows; 20 rows: rows alone."""
    assert collapsed_depths(concat(["1x40000", "1x9"], 1, "1x40009")) == [2]
    assert collapsed_depths(concat(["?x?", "?x?"], 1, "?x?")) == [2]
    # `?` dims before the concatenated one: which one the pieces cut is chosen at run time
    text = print_module(run_pipeline(parse_module(concat(["?x?x?", "?x?x?"], 2, "?x?x?"),
                                                  "t.mlir"), "loops"))
    assert "aot.chunks" in text and 'predicate = "ne"' in text, text
    text = print_module(run_pipeline(parse_module(concat(["1x1x40000", "1x1x9"], 2, "1x1x40009"),
                                                  "t.mlir"), "loops"))
    assert "aot.chunks" in text and "arith.select" not in text
    assert collapsed_depths(concat(["20x300", "20x5"], 1, "20x305")) == [1]
    module = run_pipeline(parse_module(concat(["40000", "9"], 0, "40009"), "t.mlir"), "loops")
    text = print_module(module)
    assert "aot.parallel_block = 1024" in text and "arith.select" not in text


BN_SILU = """func.func @main(%x: tensor<?x512x2x2xf32>, %s: tensor<512xf32>) -> tensor<?x512x2x2xf32> {
  %c = stablehlo.constant dense<2> : tensor<i32>
  %n = stablehlo.get_dimension_size %x, dim = 0 : (tensor<?x512x2x2xf32>) -> tensor<i32>
  %r = stablehlo.reshape %n : (tensor<i32>) -> tensor<1xi32>
  %k = stablehlo.constant dense<[512, 2, 2]> : tensor<3xi32>
  %shape = stablehlo.concatenate %r, %k, dim = 0 : (tensor<1xi32>, tensor<3xi32>) -> tensor<4xi32>
  %sb = stablehlo.dynamic_broadcast_in_dim %s, %shape, dims = [1] : (tensor<512xf32>, tensor<4xi32>) -> tensor<?x512x2x2xf32>
  %y = stablehlo.multiply %x, %sb : tensor<?x512x2x2xf32>
  %l = stablehlo.logistic %y : tensor<?x512x2x2xf32>
  %o = stablehlo.multiply %y, %l : tensor<?x512x2x2xf32>
  return %o : tensor<?x512x2x2xf32>
}"""  # noqa: E501


def test_short_trailing_rows_run_whole():
    """A per-channel scale over [?, 512, 2, 2] (a batch norm before SiLU on 2x2 images): the
    thread pool splits (batch, channel), each task runs the 2x2 loops between constant
    bounds (their run-time bounds left the rows scalar, 4.6x slower); numpy's result on 1,
    2 and 7 threads, the same bits."""
    assert collapsed_depths(BN_SILU) == [2]
    lib = aot.compile(BN_SILU, name="split_short_rows")
    rng = np.random.default_rng(3)
    x = rng.standard_normal((33, 512, 2, 2)).astype(np.float32)
    s = rng.standard_normal(512).astype(np.float32)
    y = x.astype(np.float64) * s[:, None, None]
    want = y / (1 + np.exp(-y))
    got = []
    for threads in (1, 2, 7):
        lib.set_num_threads(threads)
        got.append(lib.main(x, s))
        np.testing.assert_allclose(got[-1], want, rtol=2e-6, atol=1e-7)
    for other in got[1:]:
        np.testing.assert_array_equal(got[0], other)


# token embeddings plus position embeddings: rows of two [512, 128] tables picked by ? ids
# and by an iota (a GPT's first kernel); x * 2 a dense read beside them
EMBED = """func.func @main(%ids: tensor<?xi32>, %tok: tensor<512x128xf32>, %pos: tensor<512x128xf32>, %x: tensor<?x128xf32>) -> tensor<?x128xf32> {
  %n = stablehlo.get_dimension_size %ids, dim = 0 : (tensor<?xi32>) -> tensor<i32>
  %n1 = stablehlo.reshape %n : (tensor<i32>) -> tensor<1xi32>
  %it = stablehlo.dynamic_iota %n1, dim = 0 : (tensor<1xi32>) -> tensor<?xi32>
  %one = stablehlo.constant dense<[1]> : tensor<1xi32>
  %sh = stablehlo.concatenate %n1, %one, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
  %i2 = stablehlo.dynamic_reshape %ids, %sh : (tensor<?xi32>, tensor<2xi32>) -> tensor<?x1xi32>
  %p3 = stablehlo.dynamic_reshape %it, %sh : (tensor<?xi32>, tensor<2xi32>) -> tensor<?x1xi32>
  %t = "stablehlo.gather"(%tok, %i2) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 128>} : (tensor<512x128xf32>, tensor<?x1xi32>) -> tensor<?x128xf32>
  %p = "stablehlo.gather"(%pos, %p3) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 128>} : (tensor<512x128xf32>, tensor<?x1xi32>) -> tensor<?x128xf32>
  %s = stablehlo.add %t, %p : tensor<?x128xf32>
  %y = stablehlo.add %s, %x : tensor<?x128xf32>
  return %y : tensor<?x128xf32>
}"""  # noqa: E501


def test_picked_tables_do_not_make_a_kernel_parallel():
    """A kernel's work is judged by the largest buffer it reads along its loops or writes:
    two 64K-element tables whose rows it picks (by ids, and by an iota) are not counted, so
    8 tokens stay on the calling thread (0.17 us of work took 50-120 us on two threads of a
    loaded machine), while the dense [?, 128] input still is; right on 1 and 2 threads."""
    from lowering.codegen.cpu.host import _picked
    module = run_pipeline(parse_module(EMBED, "embed.mlir"), "loops")
    kernels = [f for f in module.functions() if f.attrs.get("aot.parallel")]
    assert len(kernels) == 1
    args = kernels[0].regions[0].blocks[0].args
    shapes = {i: tuple(a.type.shape) for i, a in enumerate(args) if hasattr(a.type, "shape")}
    picked = _picked(kernels[0])
    assert {shapes[i] for i in picked} == {(512, 128)} and len(picked) == 2, (picked, shapes)
    assert any(s == (None, 128) for i, s in shapes.items() if i not in picked)
    lib = aot.compile(EMBED, name="picked_tables")
    rng = np.random.default_rng(3)
    tok, pos = (rng.standard_normal((512, 128)).astype(np.float32) for _ in range(2))
    for n in (8, 300):
        ids = rng.integers(0, 512, n).astype(np.int32)
        x = rng.standard_normal((n, 128)).astype(np.float32)
        for threads in (1, 2):
            lib.set_num_threads(threads)
            np.testing.assert_array_equal(lib.main(ids, tok, pos, x), tok[ids] + pos[:n] + x)


# a `?` arange written to a [?, ?, ?, 1] buffer (DeBERTa's relative-position indices): a store
# of the outer iv in a nest of run-time extents
IOTA_4D = """func.func @main(%x: tensor<?x?xf32>) -> tensor<?x?x?x1xi64> {
  %b = stablehlo.get_dimension_size %x, dim = 0 : (tensor<?x?xf32>) -> tensor<i32>
  %s = stablehlo.get_dimension_size %x, dim = 1 : (tensor<?x?xf32>) -> tensor<i32>
  %b1 = stablehlo.reshape %b : (tensor<i32>) -> tensor<1xi32>
  %s1 = stablehlo.reshape %s : (tensor<i32>) -> tensor<1xi32>
  %c1 = stablehlo.constant dense<1> : tensor<1xi32>
  %sh = stablehlo.concatenate %b1, %s1, %s1, %c1, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
  %i = stablehlo.dynamic_iota %sh, dim = 0 : (tensor<4xi32>) -> tensor<?x?x?x1xi64>
  return %i : tensor<?x?x?x1xi64>
}"""  # noqa: E501


POOL_3X3 = """func.func @main(%x: T_IN) -> T_OUT {
  %init = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %y = "stablehlo.reduce_window"(%x, %init) ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %m = stablehlo.maximum %a, %b : tensor<f32>
      stablehlo.return %m : tensor<f32>
  }) {window_dimensions = array<i64: 1, 1, 3, 3>, window_strides = array<i64: 1, 1, 2, 2>,
      padding = dense<[[0, 0], [0, 0], [1, 1], [1, 1]]> : tensor<4x2xi64>} : (T_IN, tensor<f32>) -> T_OUT
  return %y : T_OUT
}"""


def optimised_kernel(text: str, name: str) -> str:
    """The optimised LLVM IR of the module's first kernel (its loops: the task inlines it)."""
    optimized = str(Compilation(text, f"{name}.mlir", Options(name=name, emit="llvm")).llvm()[2])
    start = optimized.index(f"@{name}.main_kernel_0(")
    return optimized[start:optimized.index("\ndefine ", start)]


def vector_loops(kernel: str) -> int:
    return len(re.findall(r"^vector\.body[\w.]*:", kernel, re.M))


def test_a_task_tests_its_first_and_last_rows_once():
    """A row is the task's first or last by its number, one comparison: compared digit by
    digit, LLVM unswitched the outer loops on their own ivs' tests and compiled the
    vectorised inner loop once per case (BLOOM's `?` mask kernel: four copies, 100 -> 45 ms
    of LLVM)."""
    add = "func.func @main(%x: T, %y: T) -> T {\n  %e = stablehlo.add %x, %y : T\n  return %e : T\n}"
    assert vector_loops(optimised_kernel(add.replace("T", "tensor<?x?x?xf32>"), "rows3")) == 1


def test_no_runtime_unrolling_around_a_runtime_loop():
    """An outer loop whose inner loop runs a run-time number of times is not unrolled at run
    time (each copy a copy of the vectorised inner loop, its epilogue and remainder): the
    [?, ?, ?, 1] iota had nine vector loops and 92 ms of LLVM."""
    kernel = optimised_kernel(IOTA_4D, "iota4")
    assert vector_loops(kernel) == 1 and ".prol" not in kernel
    # a static pool's rows run over ranges computed per row, not a size: left as they were
    pool = POOL_3X3.replace("T_IN", "tensor<1x8x16x16xf32>").replace("T_OUT", "tensor<1x8x8x8xf32>")
    text = Compilation(pool, "pool.mlir", Options(name="pool3", emit="llvm")).llvm()[1]
    assert "unroll.runtime.disable" not in text
    lib = aot.compile(IOTA_4D, name="iota4")
    for b, s in ((1, 2), (3, 5)):
        want = np.broadcast_to(np.arange(b).reshape(b, 1, 1, 1), (b, s, s, 1))
        np.testing.assert_array_equal(lib.main(np.zeros((b, s), np.float32)), want)
