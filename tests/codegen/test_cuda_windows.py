"""The cuda target's window, convolution and scatter kernels (lowering/codegen/cuda/windows.py)
on the emulated grid against numpy: pools with strides, padding and dilations over a dynamic
batch, convolutions in both layouts with feature groups, scatters with duplicate indices
(integers bit-exact, float sums within rounding: atomics add in arrival order) and a max-pool
gradient. Each kernel is checked to be a parallel launch, the atomics to be `atom.` in PTX."""
import numpy as np
import pytest

from aot.driver import Compilation, Options
from conv_reference import conv_text, dilate_pad, np_conv
from tooling.gpu_emu import build_emulated

OPS = ("reduce_window", "convolution", "scatter", "select_and_scatter")


def kernels_and_ptx(text, name):
    """The PTX entries of the program's window/scatter kernels, and the PTX."""
    opts = Options(name=name, emit="ptx", target="cuda")
    tm, _, optimized, kernels = Compilation(text, name + ".mlir", opts).llvm()
    loops = Compilation(text, name + ".mlir", opts).run_stages("loops")
    ours = {f"{name}_{f.attrs['sym_name']}" for f in loops.functions() if f.attrs.get("aot.kernel") in OPS}
    return [k for k in kernels if k.name in ours], tm.emit_assembly(optimized)


def assert_all_parallel(text, name):
    """Every launch of the op is a grid-stride loop (none runs on one thread); the PTX."""
    kernels, ptx = kernels_and_ptx(text, name)
    assert kernels and all(k.extent_param is not None for k in kernels), [k.describe() for k in kernels]
    return ptx


POOL = """func.func @main(%x: tensor<?x9x10x3xELEM>) -> tensor<?xOUTxELEM> {
  %init = stablehlo.constant dense<INIT> : tensor<ELEM>
  %0 = "stablehlo.reduce_window"(%x, %init) ({
  ^bb0(%a: tensor<ELEM>, %b: tensor<ELEM>):
    %m = stablehlo.OP %a, %b : tensor<ELEM>
    stablehlo.return %m : tensor<ELEM>
  }) {window_dimensions = array<i64: 1, 3, 2, 1>, window_strides = array<i64: 1, 2, 3, 1>,
      base_dilations = array<i64: 1, BD, 1, 1>, window_dilations = array<i64: 1, 1, WD, 1>,
      padding = dense<[[0, 0], [1, 2], [2, 1], [0, 0]]> : tensor<4x2xi64>}
      : (tensor<?x9x10x3xELEM>, tensor<ELEM>) -> tensor<?xOUTxELEM>
  return %0 : tensor<?xOUTxELEM>
}"""


def np_reduce_window(x, init, fn, window, strides, pads, base_dil, win_dil):
    """Folded in the kernel's order (init, then the window row-major): floats match exactly."""
    xp = dilate_pad(x, init, base_dil, pads)
    span = [(w - 1) * d + 1 for w, d in zip(window, win_dil)]
    shape = [(n - s) // st + 1 for n, s, st in zip(xp.shape, span, strides)]
    out = np.full(shape, init, x.dtype)
    for k in np.ndindex(*window):
        out = fn(out, xp[tuple(slice(kk * d, kk * d + (o - 1) * st + 1, st)
                               for kk, d, o, st in zip(k, win_dil, shape, strides))])
    return out


@pytest.mark.parametrize("op, elem, base_dil, win_dil", [
    ("maximum", "f32", 1, 2), ("add", "f32", 2, 1), ("maximum", "i32", 2, 2), ("add", "i32", 1, 1)])
def test_pools(op, elem, base_dil, win_dil, tmp_path):
    dtype = {"f32": np.float32, "i32": np.int32}[elem]
    init = 0 if op == "add" else (-np.inf if elem == "f32" else np.iinfo(np.int32).min)
    fn = np.add if op == "add" else np.maximum
    args = ((1, 3, 2, 1), (1, 2, 3, 1), [(0, 0), (1, 2), (2, 1), (0, 0)],
            (1, base_dil, 1, 1), (1, 1, win_dil, 1))
    out_shape = np_reduce_window(np.zeros((1, 9, 10, 3), dtype), dtype(init), fn, *args).shape
    init_text = {"-inf": "0xFF800000"}.get(str(init), str(init))
    text = (POOL.replace("ELEM", elem).replace("OP", op).replace("INIT", init_text)
            .replace("OUT", "x".join(map(str, out_shape[1:]))).replace("BD", str(base_dil))
            .replace("WD", str(win_dil)))
    assert_all_parallel(text, "pool")
    lib = build_emulated(text, "pool", str(tmp_path))
    rng = np.random.default_rng(0)
    for batch in (0, 1, 5):
        x = rng.integers(-50, 50, (batch, 9, 10, 3)).astype(dtype) if elem == "i32" else \
            rng.standard_normal((batch, 9, 10, 3)).astype(dtype)
        np.testing.assert_array_equal(lib.main(x), np_reduce_window(x, dtype(init), fn, *args))


@pytest.mark.parametrize("layout, groups", [("nhwc", 1), ("nhwc", 3), ("nchw", 1), ("nchw", 2)])
def test_conv2d(layout, groups, tmp_path):
    """Padding (asymmetric), stride 2, rhs dilation and feature groups; f32 as on the CPU."""
    dn = ((0, 3, [1, 2]), (2, 3, [0, 1]), (0, 3, [1, 2])) if layout == "nhwc" else \
        ((0, 1, [2, 3]), (1, 0, [2, 3]), (0, 1, [2, 3]))
    cin, cout, hw, k = 6, 6, (9, 8), (3, 2)
    lhs = [2, hw[0], hw[1], cin] if layout == "nhwc" else [2, cin, hw[0], hw[1]]
    rhs = [k[0], k[1], cin // groups, cout] if layout == "nhwc" else [cout, cin // groups, k[0], k[1]]
    conv = ((2, 1), [(1, 2), (0, 1)], (1, 1), (1, 2), (False, False), groups, 1)
    rng = np.random.default_rng(1)
    x, w = rng.uniform(-1, 1, lhs).astype(np.float32), rng.uniform(-1, 1, rhs).astype(np.float32)
    want = np_conv(x, w, dn, *conv)
    text = conv_text(lhs, rhs, want.shape, dn, *conv)
    assert_all_parallel(text, "conv")
    lib = build_emulated(text, "conv", str(tmp_path))
    np.testing.assert_allclose(lib.main(x, w), want, rtol=1e-5, atol=1e-5)


SCATTER = """func.func @main(%x: tensor<6x3xELEM>, %i: tensor<?x1xi32>, %u: tensor<?x3xELEM>)
    -> tensor<6x3xELEM> {
  %0 = "stablehlo.scatter"(%x, %i, %u) ({
  ^bb0(%a: tensor<ELEM>, %b: tensor<ELEM>):
    BODY
  }) {scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1],
      inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}
      : (tensor<6x3xELEM>, tensor<?x1xi32>, tensor<?x3xELEM>) -> tensor<6x3xELEM>
  return %0 : tensor<6x3xELEM>
}"""
BODIES = {op: f"%c = stablehlo.{op} %a, %b : tensor<ELEM>\n    stablehlo.return %c : tensor<ELEM>"
          for op in ("add", "maximum", "minimum", "multiply", "or")}
BODIES["set"] = "stablehlo.return %b : tensor<ELEM>"
NUMPY = {"add": np.add, "maximum": np.maximum, "minimum": np.minimum, "multiply": np.multiply,
         "or": np.bitwise_or}


def scatter_program(op, elem):
    return SCATTER.replace("BODY", BODIES[op]).replace("ELEM", elem)


@pytest.mark.parametrize("op, elem", [
    ("add", "i32"), ("add", "f32"), ("add", "f64"), ("add", "ui64"), ("maximum", "i32"),
    ("maximum", "f32"), ("minimum", "ui32"), ("or", "i64"), ("multiply", "i32")])
def test_scatter_duplicates(op, elem, tmp_path):
    """Many updates to each row (out-of-range rows dropped), from threads that really race:
    integers bit-exact, float sums close; max/min/or/add are atomics, float max and a
    multiply a compare-and-swap loop."""
    text = scatter_program(op, elem)
    ptx = assert_all_parallel(text, "sc")
    cas = (op, elem) in (("maximum", "f32"), ("multiply", "i32"))
    assert ".cas." in ptx if cas else ("atom." in ptx or "red." in ptx) and ".cas." not in ptx, ptx
    lib = build_emulated(text, "sc", str(tmp_path))
    dtype = np.dtype({"f32": "float32", "f64": "float64", "i32": "int32", "ui32": "uint32",
                      "ui64": "uint64", "i64": "int64"}[elem])
    rng = np.random.default_rng(2)
    for n in (0, 1, 3000):
        idx = rng.integers(-1, 7, (n, 1)).astype(np.int32)
        if dtype.kind == "f":
            x, u = rng.standard_normal((6, 3)).astype(dtype), rng.standard_normal((n, 3)).astype(dtype)
        else:
            hi = 3 if op == "multiply" else 1000
            x, u = (rng.integers(1, hi, s).astype(dtype) for s in ((6, 3), (n, 3)))
        want = x.copy()
        for r, row in zip(idx[:, 0], u):
            if 0 <= r < 6:
                want[r] = NUMPY[op](want[r], row)
        got = lib.main(x, idx, u)
        if op == "add" and dtype.kind == "f":
            np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4 * max(n, 1) ** 0.5)
        else:
            np.testing.assert_array_equal(got, want)


def test_scatter_set_and_fallback(tmp_path):
    """A replacing region stores (any update may land where indices repeat); a combiner on
    16-bit elements has no atomic here and keeps the one-thread kernel, in order."""
    text = scatter_program("set", "f32")
    assert_all_parallel(text, "set")
    lib = build_emulated(text, "set", str(tmp_path))
    x = np.zeros((6, 3), np.float32)
    idx = np.array([[0], [2], [2], [5], [9]], np.int32)
    u = np.arange(15, dtype=np.float32).reshape(5, 3)
    got = lib.main(x, idx, u)
    np.testing.assert_array_equal(got[[0, 5]], u[[0, 3]])
    assert ((got[2] == u[1]) | (got[2] == u[2])).all() and not got[[1, 3, 4]].any()  # per element
    kernels, _ = kernels_and_ptx(scatter_program("add", "f16"), "half")
    assert any(k.extent_param is None for k in kernels)


SAS = """func.func @main(%x: tensor<?x7x6xf32>, %s: tensor<?x4x3xf32>) -> tensor<?x7x6xf32> {
  %init = stablehlo.constant dense<0.0> : tensor<f32>
  %0 = "stablehlo.select_and_scatter"(%x, %s, %init) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %c = stablehlo.compare GE, %a, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }, {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %c = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %c : tensor<f32>
  }) {window_dimensions = array<i64: 1, 3, 3>, window_strides = array<i64: 1, 2, 2>,
      padding = dense<[[0, 0], [1, 1], [1, 1]]> : tensor<3x2xi64>}
      : (tensor<?x7x6xf32>, tensor<?x4x3xf32>, tensor<f32>) -> tensor<?x7x6xf32>
  return %0 : tensor<?x7x6xf32>
}"""


def np_select_and_scatter(x, s, window, strides, pads):
    """The max-pool gradient: each source element added at its window's first maximum."""
    out = np.zeros_like(x)
    for si in np.ndindex(*s.shape):
        best = None
        for k in np.ndindex(*window):
            p = tuple(a * st + kk - lo for a, st, kk, (lo, _) in zip(si, strides, k, pads))
            if all(0 <= q < n for q, n in zip(p, x.shape)) and (best is None or x[p] > x[best]):
                best = p
        if best is not None:
            out[best] += s[si]
    return out


def test_max_pool_gradient(tmp_path):
    """Overlapping 3x3 windows at stride 2 with ties: several source elements add into one
    place through atomics; small integers in f32 make the sums exact in any order."""
    ptx = assert_all_parallel(SAS, "sas")
    assert "atom.global.add.f32" in ptx or "red.global.add.f32" in ptx, ptx
    lib = build_emulated(SAS, "sas", str(tmp_path))
    rng = np.random.default_rng(3)
    for batch in (0, 2, 9):
        x = rng.integers(-2, 3, (batch, 7, 6)).astype(np.float32)
        s = rng.integers(1, 9, (batch, 4, 3)).astype(np.float32)
        want = np_select_and_scatter(x, s, (1, 3, 3), (1, 2, 2), [(0, 0), (1, 1), (1, 1)])
        np.testing.assert_array_equal(lib.main(x, s), want)


STATIC_POOL = """func.func @main(%x: tensor<INxELEM>) -> tensor<OUTxELEM> {
  %init = stablehlo.constant dense<INIT> : tensor<ELEM>
  %0 = "stablehlo.reduce_window"(%x, %init) ({
  ^bb0(%a: tensor<ELEM>, %b: tensor<ELEM>):
    %m = stablehlo.OP %a, %b : tensor<ELEM>
    stablehlo.return %m : tensor<ELEM>
  }) {window_dimensions = array<i64: WINDOW>, window_strides = array<i64: STRIDES>,
      padding = dense<PADS> : tensor<4x2xi64>} : (tensor<INxELEM>, tensor<ELEM>) -> tensor<OUTxELEM>
  return %0 : tensor<OUTxELEM>
}"""


@pytest.mark.parametrize("shape, window, strides, pads, op, elem, tiles", [
    ((2, 16, 33, 35), (1, 1, 3, 3), (1, 1, 2, 2), [(0, 0), (0, 0), (0, 1), (1, 0)], "maximum", "f32",
     "1 x 1 x 15 x 17"),  # NCHW max pool 3x3 stride 2: a tile of 15 x 17 outputs
    ((2, 17, 19, 40), (1, 3, 3, 1), (1, 1, 1, 1), [(0, 0), (1, 1), (1, 1), (0, 0)], "add", "f32",
     "1 x 1 x 8 x 32"),  # NHWC sum pool 3x3 stride 1: 32 channels (contiguous) x 8 columns
    ((3, 20, 21, 5), (1, 2, 3, 1), (1, 1, 2, 1), [(0, 0), (0, 1), (2, 0), (0, 0)], "maximum", "f64",
     "1 x 4 x 11 x 5"),
    ((2, 9, 30, 30), (1, 1, 4, 4), (1, 1, 3, 2), [(0, 0), (0, 0), (1, 1), (0, 0)], "add", "i32",
     "1 x 1 x 10 x 14")])
def test_overlapping_windows_are_tiled_through_shared_memory(shape, window, strides, pads, op, elem,
                                                              tiles, tmp_path):
    """Windows wider than their stride: a block per output tile stages the input its windows
    cover in shared memory once (padding as the init value), then each thread folds its window
    there; results equal numpy's exactly (the same fold order), many tiles per block too."""
    dtype = {"f32": np.float32, "f64": np.float64, "i32": np.int32}[elem]
    init = dtype(0) if op == "add" else dtype(-np.inf)
    fn = np.add if op == "add" else np.maximum
    args = (window, strides, pads, (1,) * 4, (1,) * 4)
    out_shape = np_reduce_window(np.zeros(shape, dtype), init, fn, *args).shape
    init_text = {"f32": "0xFF800000", "f64": "0xFFF0000000000000"}[elem] if op == "maximum" else "0"
    text = (STATIC_POOL.replace("ELEM", elem).replace("OP", op).replace("INIT", init_text)
            .replace("WINDOW", ", ".join(map(str, window))).replace("STRIDES", ", ".join(map(str, strides)))
            .replace("PADS", str([list(p) for p in pads]))
            .replace("IN", "x".join(map(str, shape))).replace("OUT", "x".join(map(str, out_shape))))
    (k,), ptx = kernels_and_ptx(text, "tpool")
    assert k.describe().split(": ", 1)[1].startswith(f"a block per tile of {tiles} of the output")
    assert "bar.sync" in ptx and ".shared" in ptx
    lib = build_emulated(text, "tpool", str(tmp_path))
    rng = np.random.default_rng(5)
    x = (rng.integers(-50, 50, shape) if elem == "i32" else rng.standard_normal(shape)).astype(dtype)
    np.testing.assert_array_equal(lib.main(x), np_reduce_window(x, init, fn, *args))
