"""Few long rows split over blocks on the cuda target (lowering/codegen/cuda/split_rows.py):
bufferize's split (the CPU's, with Target.column_chunks = 1024 chunks a row) gives the
partials' scratch; a block per (chunk, row) reduces its chunk, a second kernel (a block per
row) combines the partials and joins the init once; a row fusion is a kernel per reduction
and one for the elements. Checked on the launches (grids, blocks), through ptxas, and on the
emulated grid against numpy at run-time lengths that leave empty chunks, a remainder, one
element and none, and more partials than the 256 threads combining them in a row fusion's
later kernels (a softmax row of 66000: 258 chunks of 256); sums with an init that is not the
identity, max and min, integers exactly. Runs in fiber mode."""
import numpy as np
import pytest

from aot.driver import Compilation, Options
from codegen.test_row_split import layernorm, reduce_last, ref_layernorm, ref_softmax, softmax
from tooling.gpu_emu import build_emulated

LENGTHS = (0, 1, 257, 3001)
REFERENCE = {"add": lambda x, init: x.sum(-1) + init,
             "maximum": lambda x, init: np.maximum(x.max(-1, initial=-np.inf), init),
             "minimum": lambda x, init: np.minimum(x.min(-1, initial=np.inf), init)}


@pytest.fixture(autouse=True)
def fibers(monkeypatch):
    monkeypatch.setenv("AOT_EMU_FIBERS", "1")  # a block's threads as fibers: 1024-block grids


def kernels_of(text):
    c = Compilation(text, "s.mlir", Options(name="s", emit="ptx", target="cuda"))
    tm, _, optimized, kernels = c.llvm()
    return tm.emit_assembly(optimized), kernels


def test_a_long_row_is_a_block_per_chunk_then_a_block_per_row(tmp_path):
    """The sum of [1, 4M]: 1024 blocks of 256 partials, then one block of 1024 combining them
    (was one block walking the row); ptxas takes both kernels."""
    from tooling.ptxas import ptxas
    ptx, kernels = kernels_of(reduce_last("1x4194304"))
    assert [k.launch.grid(k.dims) for k in kernels] == [(1, 1024, 1), (1, 1, 1)]
    assert [k.launch.lanes for k in kernels] == [256, 1024] and "bar.sync" in ptx  # a thread a partial
    (tmp_path / "s.ptx").write_text(ptx)
    r = ptxas(str(tmp_path / "s.ptx"), "sm_80")
    assert r.returncode == 0, r.stderr
    short = kernels_of(reduce_last("1x4096"))[1]  # not split: a block per row
    assert len(short) == 1 and short[0].launch.lanes == 256


REDUCTIONS = [("1x?", "f32", "add", 1.5, LENGTHS), ("?", "f32", "maximum", 0.0, LENGTHS[:3]),
              ("3x?", "i32", "add", 3, LENGTHS[:3]), ("2x?", "f64", "minimum", 0.5, LENGTHS[:3])]


def entries(*texts) -> str:
    """One module of these programs' @main each, as @f0, @f1, ...: one library to build."""
    return "\n".join(t.replace("@main", f"@f{i}") for i, t in enumerate(texts))


def test_split_reductions_match_numpy(tmp_path):
    lib = build_emulated(entries(*(reduce_last(*case[:4]) for case in REDUCTIONS)), "s", str(tmp_path))
    for i, (shape, elem, op, init, lengths) in enumerate(REDUCTIONS):
        rows = [int(d) for d in shape.split("x")[:-1]]
        rng = np.random.default_rng(i)
        f = getattr(lib, f"f{i}")
        for n in lengths:
            if elem == "i32":
                x = rng.integers(-2**31, 2**31, rows + [n]).astype(np.int32)
                want = x.sum(-1, dtype=np.int32) + np.int32(init)
                np.testing.assert_array_equal(f(x), want, err_msg=f"n={n}")
                continue
            x = rng.standard_normal(rows + [n]).astype({"f32": np.float32, "f64": np.float64}[elem])
            got = f(x)
            np.testing.assert_allclose(got, REFERENCE[op](x.astype(np.float64), init),
                                       rtol=1e-5 if elem == "f32" else 1e-12, atol=1e-4,
                                       err_msg=f"{shape} {op} n={n}")
            np.testing.assert_array_equal(got, f(x))  # a fixed order: the same bits again


def test_split_row_fusions_match_numpy(tmp_path):
    """softmax of one run-time row, layernorm of three: three kernels each, the same grid."""
    _, kernels = kernels_of(softmax("1x262144"))
    assert [k.launch.grid(k.dims) for k in kernels][-3:] == [(1, 1, 1024)] * 3  # z: the chunks
    lib = build_emulated(entries(softmax("1x?"), layernorm("3x?")), "f", str(tmp_path))
    sm, ln = lib.f0, lib.f1
    rng = np.random.default_rng(2)
    for n in (1, 3001, 66000):
        x = rng.standard_normal((1, n)).astype(np.float32)
        np.testing.assert_allclose(sm(x), ref_softmax(x.astype(np.float64)), rtol=2e-5, atol=1e-9,
                                   err_msg=f"n={n}")
        if n > 3001:
            continue
        x = (rng.standard_normal((3, n)) * 3 + 5).astype(np.float32)
        np.testing.assert_allclose(ln(x, np.full(3, n, np.float32)), ref_layernorm(x.astype(np.float64)),
                                   rtol=0, atol=1e-3, err_msg=f"n={n}")


@pytest.mark.parametrize("shape, threads", [("1x4096", 1024), ("3x1030", 256)])
def test_few_rows_of_a_row_fusion_take_a_block_each(shape, threads, tmp_path):
    """softmax and layernorm over rows too few for a warp each to fill the device and not long
    enough to split: a block per row (was a warp), of 256 threads, or up to 1024 while each
    keeps four columns; against numpy. Short rows keep a warp."""
    rows, n = map(int, shape.split("x"))
    for text in (softmax(shape), layernorm(shape)):
        (k,) = kernels_of(text)[1][-1:]
        assert k.launch.lanes == threads and k.launch.block == (threads, 1, 1)
    assert [k.launch.lanes for k in kernels_of(softmax(f"{rows}x200"))[1]][-1:] == [32]
    lib = build_emulated(entries(softmax(shape), layernorm(shape)), "b", str(tmp_path))
    rng = np.random.default_rng(rows)
    x = rng.standard_normal((rows, n)).astype(np.float32)
    np.testing.assert_allclose(lib.f0(x), ref_softmax(x.astype(np.float64)), rtol=2e-5, atol=1e-9)
    x = (rng.standard_normal((rows, n)) * 3 + 5).astype(np.float32)
    np.testing.assert_allclose(lib.f1(x, np.full(rows, n, np.float32)), ref_layernorm(x.astype(np.float64)),
                               rtol=0, atol=1e-3)
