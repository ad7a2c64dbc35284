"""The cuda target's block reductions (lowering/codegen/cuda/reductions.py) on the emulated grid:
whole-tensor reductions by one block of 256 threads, column reductions by a block per 32
columns, against numpy. Integers and exactly representable sums are compared bit for bit;
float sums of random data within rtol 1e-5 (f32) / 1e-12 (f64) of the float64 sum, as the
partial results are added in a tree rather than in order. Argmax keeps the lowest index on
ties, as the CPU does (among several NaNs, which one's index is kept depends on the order,
as the body keeps its first argument's: it is one of theirs, as on XLA's GPU). With the
barrier between the partial results and their combination taken out, the sums here come out
wrong on the emulated grid: its threads really race."""
import ml_dtypes
import numpy as np
import pytest

from aot.driver import Compilation, Options
from tooling.gpu_emu import build_emulated

SIZES = [0, 1, 31, 32, 33, 255, 256, 257, 5000]

FULL = """func.func @main(%x: tensor<?x?xf32>, %k: tensor<?x?xi32>, %p: tensor<?xi1>) -> (tensor<f32>, tensor<i32>, tensor<f32>, tensor<i1>) {
  %zf = stablehlo.constant dense<0.0> : tensor<f32>
  %zi = stablehlo.constant dense<0> : tensor<i32>
  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %t = stablehlo.constant dense<true> : tensor<i1>
  %e = stablehlo.exponential %x : tensor<?x?xf32>
  %s = stablehlo.reduce(%e init: %zf) applies stablehlo.add across dimensions = [0, 1] : (tensor<?x?xf32>, tensor<f32>) -> tensor<f32>
  %i = stablehlo.reduce(%k init: %zi) applies stablehlo.add across dimensions = [0, 1] : (tensor<?x?xi32>, tensor<i32>) -> tensor<i32>
  %m = stablehlo.reduce(%x init: %ninf) applies stablehlo.maximum across dimensions = [0, 1] : (tensor<?x?xf32>, tensor<f32>) -> tensor<f32>
  %a = stablehlo.reduce(%p init: %t) applies stablehlo.and across dimensions = [0] : (tensor<?xi1>, tensor<i1>) -> tensor<i1>
  return %s, %i, %m, %a : tensor<f32>, tensor<i32>, tensor<f32>, tensor<i1>
}"""  # noqa: E501

ARGMAX_BODY = """     reducer(%a1: tensor<f32>, %a3: tensor<f32>) (%a2: tensor<i32>, %a4: tensor<i32>)  {
      %4 = stablehlo.compare GT, %a1, %a3, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %5 = stablehlo.compare NE, %a1, %a1, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %6 = stablehlo.or %4, %5 : tensor<i1>
      %7 = stablehlo.compare EQ, %a1, %a3, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %8 = stablehlo.compare LT, %a2, %a4, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %9 = stablehlo.and %7, %8 : tensor<i1>
      %10 = stablehlo.or %6, %9 : tensor<i1>
      %11 = stablehlo.select %6, %a1, %a3 : tensor<i1>, tensor<f32>
      %12 = stablehlo.select %10, %a2, %a4 : tensor<i1>, tensor<i32>
      stablehlo.return %11, %12 : tensor<f32>, tensor<i32>
    }"""

ARGMAX_FLAT = """func.func @main(%x: tensor<?xf32>) -> (tensor<f32>, tensor<i32>) {
  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %z = stablehlo.constant dense<0> : tensor<i32>
  %n = stablehlo.get_dimension_size %x, dim = 0 : (tensor<?xf32>) -> tensor<i32>
  %n1 = stablehlo.reshape %n : (tensor<i32>) -> tensor<1xi32>
  %i = stablehlo.dynamic_iota %n1, dim = 0 : (tensor<1xi32>) -> tensor<?xi32>
  %r:2 = stablehlo.reduce(%x init: %ninf), (%i init: %z) across dimensions = [0] : (tensor<?xf32>, tensor<?xi32>, tensor<f32>, tensor<i32>) -> (tensor<f32>, tensor<i32>)
""" + ARGMAX_BODY + """
  return %r#0, %r#1 : tensor<f32>, tensor<i32>
}"""  # noqa: E501

ARGMAX_2D = """func.func @main(%x: tensor<7x45xf32>) -> tensor<i32> {
  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %z = stablehlo.constant dense<0> : tensor<i32>
  %c = stablehlo.constant dense<45> : tensor<7x45xi32>
  %r0 = stablehlo.iota dim = 0 : tensor<7x45xi32>
  %c0 = stablehlo.iota dim = 1 : tensor<7x45xi32>
  %m = stablehlo.multiply %r0, %c : tensor<7x45xi32>
  %i = stablehlo.add %m, %c0 : tensor<7x45xi32>
  %r:2 = stablehlo.reduce(%x init: %ninf), (%i init: %z) across dimensions = [0, 1] : (tensor<7x45xf32>, tensor<7x45xi32>, tensor<f32>, tensor<i32>) -> (tensor<f32>, tensor<i32>)
""" + ARGMAX_BODY + """
  return %r#1 : tensor<i32>
}"""  # noqa: E501

COLUMNS = """func.func @main(%x: tensor<?x?xf32>, %k: tensor<?x?xi32>, %y: tensor<?x?x?xf32>, %p: tensor<?x?xi1>) -> (tensor<?xf32>, tensor<?xi32>, tensor<?x?xf32>, tensor<?xf32>, tensor<?xi1>) {
  %zf = stablehlo.constant dense<0.0> : tensor<f32>
  %zi = stablehlo.constant dense<0> : tensor<i32>
  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %f = stablehlo.constant dense<false> : tensor<i1>
  %e = stablehlo.exponential %x : tensor<?x?xf32>
  %s = stablehlo.reduce(%e init: %zf) applies stablehlo.add across dimensions = [0] : (tensor<?x?xf32>, tensor<f32>) -> tensor<?xf32>
  %i = stablehlo.reduce(%k init: %zi) applies stablehlo.add across dimensions = [0] : (tensor<?x?xi32>, tensor<i32>) -> tensor<?xi32>
  %m = stablehlo.reduce(%y init: %ninf) applies stablehlo.maximum across dimensions = [1] : (tensor<?x?x?xf32>, tensor<f32>) -> tensor<?x?xf32>
  %t = stablehlo.reduce(%y init: %zf) applies stablehlo.add across dimensions = [0, 1] : (tensor<?x?x?xf32>, tensor<f32>) -> tensor<?xf32>
  %a = stablehlo.reduce(%p init: %f) applies stablehlo.or across dimensions = [0] : (tensor<?x?xi1>, tensor<i1>) -> tensor<?xi1>
  return %s, %i, %m, %t, %a : tensor<?xf32>, tensor<?xi32>, tensor<?x?xf32>, tensor<?xf32>, tensor<?xi1>
}"""  # noqa: E501

ARGMAX_COLUMNS = """func.func @main(%x: tensor<?x?xf32>) -> tensor<?xi32> {
  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %z = stablehlo.constant dense<0> : tensor<i32>
  %r = stablehlo.get_dimension_size %x, dim = 0 : (tensor<?x?xf32>) -> tensor<i32>
  %c = stablehlo.get_dimension_size %x, dim = 1 : (tensor<?x?xf32>) -> tensor<i32>
  %r1 = stablehlo.reshape %r : (tensor<i32>) -> tensor<1xi32>
  %c1 = stablehlo.reshape %c : (tensor<i32>) -> tensor<1xi32>
  %shape = stablehlo.concatenate %r1, %c1, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
  %i = stablehlo.dynamic_iota %shape, dim = 0 : (tensor<2xi32>) -> tensor<?x?xi32>
  %res:2 = stablehlo.reduce(%x init: %ninf), (%i init: %z) across dimensions = [0] : (tensor<?x?xf32>, tensor<?x?xi32>, tensor<f32>, tensor<i32>) -> (tensor<?xf32>, tensor<?xi32>)
""" + ARGMAX_BODY + """
  return %res#1 : tensor<?xi32>
}"""  # noqa: E501

HALVES = """func.func @main(%x: tensor<?x?xELEM>) -> (tensor<ELEM>, tensor<?xELEM>) {
  %z = stablehlo.constant dense<0.0> : tensor<ELEM>
  %s = stablehlo.reduce(%x init: %z) applies stablehlo.add across dimensions = [0, 1] : (tensor<?x?xELEM>, tensor<ELEM>) -> tensor<ELEM>
  %c = stablehlo.reduce(%x init: %z) applies stablehlo.add across dimensions = [0] : (tensor<?x?xELEM>, tensor<ELEM>) -> tensor<?xELEM>
  return %s, %c : tensor<ELEM>, tensor<?xELEM>
}"""  # noqa: E501


def kernels_of(text):
    c = Compilation(text, "r.mlir", Options(name="r", emit="ptx", target="cuda"))
    tm, _, optimized, kernels = c.llvm()
    return tm.emit_assembly(optimized), kernels


def test_full_reductions_are_one_block_of_shuffles_and_a_barrier():
    ptx, kernels = kernels_of(FULL)
    assert [k.launch.tiles for k in kernels] == [()] * 4 and {k.launch.lanes for k in kernels} == {256}
    assert "bar.sync" in ptx and "shfl.sync.bfly" in ptx
    assert all(k.launch.grid([]) == (1, 1, 1) and k.launch.block == (256, 1, 1) for k in kernels)
    text = kernels[0].describe()
    assert "grid 1x1x1, block 256x1x1: the one iteration of a rank-0 output, 256 threads" in text


def test_the_cpu_keeps_its_loops():
    c = Compilation(FULL + "\n", "r.mlir", Options(name="r", emit="loops"))
    text = str(c.run_stages("loops"))
    assert "gpu." not in text and "aot.tiles" not in text


def test_full_reductions_every_size(tmp_path):
    """Fewer elements than a warp, than a block, and many per thread; integers wrap."""
    lib = build_emulated(FULL, "full", str(tmp_path))
    rng = np.random.default_rng(0)
    for n in SIZES:
        rows = next(r for r in (7, 5, 3, 2, 1) if n % r == 0) if n else 0
        shape = (rows, n // rows) if n else (0, 3)
        x = rng.standard_normal(shape).astype(np.float32)
        k = rng.integers(-2**31, 2**31, shape).astype(np.int32)
        p = np.ones(n, bool)
        if n > 2:
            p[n - 2] = False
        s, i, m, a = lib.main(x, k, p)
        np.testing.assert_allclose(s, np.exp(x.astype(np.float64)).sum(), rtol=1e-5)
        assert i == k.sum(dtype=np.int32), n  # bit-exact, wrapping
        assert m == (x.max() if n else -np.inf), n
        assert a == p.all(), n


def test_full_argmax_ties_take_the_lowest_index(tmp_path):
    lib = build_emulated(ARGMAX_FLAT, "amax", str(tmp_path))
    rng = np.random.default_rng(1)
    for n in SIZES[1:]:
        x = rng.integers(0, 4, n).astype(np.float32)  # every value many times
        v, i = lib.main(x)
        assert (v, i) == (x.max(), np.argmax(x)), n
        if n > 40:
            x[40] = np.nan  # NaN wins
            v, i = lib.main(x)
            assert np.isnan(v) and i == 40
            x[[n - 3, n - 1]] = np.nan  # which NaN: the body is not commutative on two NaNs
            v, i = lib.main(x)
            assert np.isnan(v) and i in (40, n - 3, n - 1)
    assert tuple(lib.main(np.zeros(0, np.float32))) == (-np.inf, 0)


def test_full_argmax_of_a_matrix(tmp_path):
    lib = build_emulated(ARGMAX_2D, "amax2", str(tmp_path))
    x = np.random.default_rng(2).integers(0, 3, (7, 45)).astype(np.float32)
    assert lib.main(x) == np.argmax(x)
    x[6, 44] = 9
    assert lib.main(x) == 7 * 45 - 1


def test_column_reductions_are_tiles_of_32_columns():
    ptx, kernels = kernels_of(COLUMNS)
    assert sorted(k.launch.tiles for k in kernels) == [(1, 32), (32,), (32,), (32,), (32,)]
    assert {k.launch.lanes for k in kernels} == {256}
    assert "bar.sync" in ptx and "st.shared" in ptx and "ld.shared" in ptx
    assert "a block per tile of 32 of the output" in kernels[0].describe()


def test_a_few_known_rows_keep_a_thread_per_column():
    """3 rows into a vector: the generic loops' thread per column, not a tile; 3 rows into a
    matrix ([B, 3, C] -> [B, C]): tiles, as the loops would give a thread per b only."""
    few = """func.func @main(%x: tensor<3x?xf32>, %y: tensor<?x3x?xf32>) -> (tensor<?xf32>, tensor<?x?xf32>) {
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %s = stablehlo.reduce(%x init: %z) applies stablehlo.add across dimensions = [0] : (tensor<3x?xf32>, tensor<f32>) -> tensor<?xf32>
  %t = stablehlo.reduce(%y init: %z) applies stablehlo.add across dimensions = [1] : (tensor<?x3x?xf32>, tensor<f32>) -> tensor<?x?xf32>
  return %s, %t : tensor<?xf32>, tensor<?x?xf32>
}"""  # noqa: E501
    _, kernels = kernels_of(few)
    assert [(k.launch.tiles, k.launch.lanes) for k in kernels] == [(None, 1), ((1, 32), 256)]


@pytest.mark.parametrize("rows,cols", [(0, 5), (1, 1), (5, 0), (31, 33), (256, 32), (257, 31),
                                       (33, 257), (5000, 3), (255, 65)])
def test_column_reductions_every_shape(rows, cols, tmp_path):
    """Ragged tiles (columns not a multiple of 32), fewer rows than the block's 8 thread rows,
    and more tiles than the emulated grid's blocks (each block takes several)."""
    lib = build_emulated(COLUMNS, "cols", str(tmp_path))
    rng = np.random.default_rng(rows * 1000 + cols)
    x = rng.standard_normal((rows, cols)).astype(np.float32)
    k = rng.integers(-2**31, 2**31, (rows, cols)).astype(np.int32)
    y = rng.standard_normal((3, rows, cols)).astype(np.float32)
    p = rng.random((rows, cols)) < 0.01
    s, i, m, t, a = lib.main(x, k, y, p)
    np.testing.assert_allclose(s, np.exp(x.astype(np.float64)).sum(0), rtol=1e-5)
    np.testing.assert_array_equal(i, k.sum(0, dtype=np.int32))
    np.testing.assert_array_equal(m, y.max(1) if rows else np.full((3, cols), -np.inf))
    np.testing.assert_allclose(t, y.astype(np.float64).sum((0, 1)), rtol=1e-5,
                               atol=1e-6 * np.abs(y).sum() + 1e-30)  # sums that cancel
    np.testing.assert_array_equal(a, p.any(0))


def test_column_argmax_ties_take_the_lowest_row(tmp_path):
    lib = build_emulated(ARGMAX_COLUMNS, "camax", str(tmp_path))
    rng = np.random.default_rng(3)
    for rows, cols in [(1, 1), (9, 33), (300, 40), (2000, 3)]:
        x = rng.integers(0, 3, (rows, cols)).astype(np.float32)
        np.testing.assert_array_equal(lib.main(x), np.argmax(x, 0))


@pytest.mark.parametrize("elem", ["bf16", "f16", "f64"])
def test_element_types(elem, tmp_path):
    """Halves accumulate in their own type, as on the CPU: small integers, whose sums they
    hold exactly in any order, so the results are bit-exact."""
    dtype = {"bf16": ml_dtypes.bfloat16, "f16": np.float16, "f64": np.float64}[elem]
    lib = build_emulated(HALVES.replace("ELEM", elem), "h" + elem, str(tmp_path))
    rng = np.random.default_rng(4)
    for rows, cols in [(0, 2), (1, 1), (7, 33), (40, 3)]:
        if elem == "f64":
            x = rng.standard_normal((rows, cols))
            s, c = lib.main(x)
            np.testing.assert_allclose(s, x.sum(), rtol=1e-12, atol=1e-12)
            np.testing.assert_allclose(c, x.sum(0), rtol=1e-12, atol=1e-12)
            continue
        x = rng.integers(0, 2, (rows, cols)).astype(dtype)  # full sum at most 231 < 256
        s, c = lib.main(x)
        assert s.dtype == dtype and float(s) == x.astype(np.float64).sum()
        np.testing.assert_array_equal(c.astype(np.float64), x.astype(np.float64).sum(0))


def static_reduction(shape, dims, elem):
    t = lambda s: f"tensor<{'x'.join(map(str, s))}x{elem}>"  # noqa: E731
    out = [n for d, n in enumerate(shape) if d not in dims]
    return (f"func.func @main(%x: {t(shape)}) -> {t(out)} {{\n"
            f"  %z = stablehlo.constant dense<0.0> : tensor<{elem}>\n"
            f"  %s = stablehlo.reduce(%x init: %z) applies stablehlo.add across dimensions = {list(dims)} : "
            f"({t(shape)}, tensor<{elem}>) -> {t(out)}\n  return %s : {t(out)}\n}}")


@pytest.mark.parametrize("shape,dims,elem,tile", [
    ((300, 100), [0], "f32", 8), ((100, 13), [0], "f64", 4), ((3, 100, 21), [1], "f32", 8),
    ((5, 20, 37), [0, 1], "f32", 8),  # 100 rows over two dims
    ((20, 100), [0], "f32", 32)])  # fewer rows than a sector's tile has thread rows: 32 columns
def test_few_column_tiles_take_a_sectors_worth_of_columns(shape, dims, elem, tile, tmp_path):
    """Known shapes whose tiles of 32 columns would be too few blocks for the device: a tile is
    a 32-byte sector's columns, its block 256 / tile thread rows; the sums against numpy."""
    from tooling.ptxas import ptxas
    text = static_reduction(shape, dims, elem)
    ptx, kernels = kernels_of(text)
    (k,) = kernels
    assert k.launch.tiles[-1] == tile and k.launch.lanes == 256
    (tmp_path / "sc.ptx").write_text(ptx)
    r = ptxas(str(tmp_path / "sc.ptx"), "sm_80")
    assert r.returncode == 0, r.stderr
    lib = build_emulated(text, "sc", str(tmp_path))
    x = np.random.default_rng(5).standard_normal(shape).astype(elem.replace("f", "float"))
    np.testing.assert_allclose(lib.main(x), x.astype(np.float64).sum(tuple(dims)),
                               rtol={"f32": 1e-5, "f64": 1e-12}[elem], atol=1e-5)


LONG_ROWS = """func.func @main(%x: tensor<ROWSx?xf32>, %k: tensor<ROWSx?xi32>) -> (tensor<ROWSxf32>, tensor<ROWSxf32>, tensor<ROWSxi32>) {
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %zi = stablehlo.constant dense<0> : tensor<i32>
  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %s = stablehlo.reduce(%x init: %z) applies stablehlo.add across dimensions = [1] : (tensor<ROWSx?xf32>, tensor<f32>) -> tensor<ROWSxf32>
  %m = stablehlo.reduce(%x init: %ninf) applies stablehlo.maximum across dimensions = [1] : (tensor<ROWSx?xf32>, tensor<f32>) -> tensor<ROWSxf32>
  %i = stablehlo.reduce(%k init: %zi) applies stablehlo.add across dimensions = [1] : (tensor<ROWSx?xi32>, tensor<i32>) -> tensor<ROWSxi32>
  return %s, %m, %i : tensor<ROWSxf32>, tensor<ROWSxf32>, tensor<ROWSxi32>
}"""  # noqa: E501


@pytest.mark.parametrize("rows,cols", [(1, 20000), (3, 4097), (9, 4100)])
def test_few_long_rows_take_a_block_each(rows, cols, tmp_path):
    """Rows too few for a warp each to fill the device, each a block of 256 threads (9 rows:
    the emulated grid's 4 blocks stride over them, a barrier between a block's rows);
    against numpy, and through ptxas."""
    from tooling.ptxas import ptxas
    text = LONG_ROWS.replace("ROWS", str(rows)).replace("?", str(cols))
    ptx, kernels = kernels_of(text)
    assert [k.launch.lanes for k in kernels] == [256, 256, 256]
    (tmp_path / "lr.ptx").write_text(ptx)
    r = ptxas(str(tmp_path / "lr.ptx"), "sm_80")
    assert r.returncode == 0, r.stderr
    lib = build_emulated(text, "lr", str(tmp_path))
    rng = np.random.default_rng(rows)
    x = rng.standard_normal((rows, cols)).astype(np.float32)
    k = rng.integers(-2**31, 2**31, (rows, cols)).astype(np.int32)
    s, m, i = lib.main(x, k)
    np.testing.assert_allclose(s, x.astype(np.float64).sum(1), rtol=1e-5, atol=1e-4)
    np.testing.assert_array_equal(m, x.max(1))
    np.testing.assert_array_equal(i, k.sum(1, dtype=np.int32))
    short = LONG_ROWS.replace("ROWS", str(rows)).replace("?", "100")  # short rows keep a warp
    assert {k.launch.lanes for k in kernels_of(short)[1]} == {32}
