"""The cuda target's tiled shared-memory matmul (lowering/codegen/cuda/matmul.py) on the
emulated grid: every dot_general form the CPU takes (batch dims, transposed and several
contracting dims, several free dims, integer and half types), ragged and empty tiles, and a
fused kOutput epilogue; checked against numpy. (With either of the kernel's two barriers
taken out, every test here fails on the emulated grid: its threads really race.)"""
import ml_dtypes
import numpy as np
import pytest

from aot.driver import Compilation, Options
from tooling.gpu_emu import build_emulated

EPILOGUE = """func.func @main(%a: tensor<?x?xf32>, %b: tensor<?x?xf32>, %c: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
  %1 = stablehlo.add %0, %c : tensor<?x?xf32>
  %2 = stablehlo.tanh %1 : tensor<?x?xf32>
  return %2 : tensor<?x?xf32>
}"""  # noqa: E501


def test_one_kernel_with_its_epilogue_every_shape(tmp_path):
    """Empty, single-element, ragged (not a multiple of the 64 x 64 tile or the 16-deep
    slab) and multi-tile products, with bias and tanh applied on the way to memory. (The
    second kernel is the same epilogue over cuBLAS's product, for when there is cuBLAS.)"""
    c = Compilation(EPILOGUE, "e.mlir", Options(name="e", emit="ptx", target="cuda"))
    tm, _, optimized, kernels = c.llvm()
    assert len(kernels) == 2 and kernels[0].launch.tiles == (64, 64) and kernels[0].launch.lanes == 256
    assert kernels[1].launch.tiles == (1, 1) and kernels[1].launch.lanes == 1
    ptx = tm.emit_assembly(optimized)
    assert "bar.sync" in ptx and "ld.shared" in ptx and "st.shared" in ptx
    lib = build_emulated(EPILOGUE, "e", str(tmp_path))
    rng = np.random.default_rng(0)
    for m, k, n in [(0, 3, 4), (5, 0, 3), (1, 1, 1), (3, 17, 5), (65, 33, 70), (130, 40, 64)]:
        a, b = rng.standard_normal((m, k)), rng.standard_normal((k, n))
        bias = rng.standard_normal((m, n))
        got = lib.main(a.astype(np.float32), b.astype(np.float32), bias.astype(np.float32))
        np.testing.assert_allclose(got, np.tanh(a @ b + bias), rtol=1e-5, atol=2e-6)


def dot_program(lhs, rhs, out, elem, out_elem, dims):
    t = lambda shape, e: f"tensor<{'x'.join(map(str, shape))}x{e}>"  # noqa: E731
    return (f"func.func @main(%a: {t(lhs, elem)}, %b: {t(rhs, elem)}) -> {t(out, out_elem)} {{\n"
            f"  %0 = stablehlo.dot_general %a, %b, {dims} : ({t(lhs, elem)}, {t(rhs, elem)}) -> "
            f"{t(out, out_elem)}\n  return %0 : {t(out, out_elem)}\n}}")


FORMS = {  # name: lhs shape, rhs shape, dims, einsum of the same product
    "batch": ((3, 70, 20), (3, 20, 66), "batching_dims = [0] x [0], contracting_dims = [2] x [1]",
              "bmk,bkn->bmn"),
    "lhs_transposed": ((37, 65), (37, 9), "contracting_dims = [0] x [0]", "km,kn->mn"),
    "rhs_transposed": ((65, 37), (9, 37), "contracting_dims = [1] x [1]", "mk,nk->mn"),
    "two_contracting": ((5, 6, 7), (6, 7, 70), "contracting_dims = [1, 2] x [0, 1]", "mij,ijn->mn"),
    "two_free_each": ((4, 17, 9), (9, 3, 20), "contracting_dims = [2] x [0]", "abk,kcd->abcd"),
    "batch_last": ((20, 30, 2), (30, 40, 2), "batching_dims = [2] x [2], contracting_dims = [1] x [0]",
                   "mkb,knb->bmn"),
}


@pytest.mark.parametrize("form", sorted(FORMS))
def test_dot_general_forms(form, tmp_path):
    lhs, rhs, dims, spec = FORMS[form]
    rng = np.random.default_rng(1)
    a, b = rng.standard_normal(lhs), rng.standard_normal(rhs)
    want = np.einsum(spec, a, b)
    lib = build_emulated(dot_program(lhs, rhs, want.shape, "f32", "f32", dims), form, str(tmp_path))
    got = lib.main(a.astype(np.float32), b.astype(np.float32))
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("elem", ["i32", "f16", "bf16", "f64"])
def test_element_types(elem, tmp_path):
    """Integers bit-exact (wrapping as on the CPU); halves accumulate in f32."""
    rng = np.random.default_rng(2)
    shape_a, shape_b = (70, 45), (45, 67)
    if elem == "i32":
        a, b = (rng.integers(-100, 100, s).astype(np.int32) for s in (shape_a, shape_b))
    else:
        a, b = rng.standard_normal(shape_a), rng.standard_normal(shape_b)
    lib = build_emulated(dot_program(shape_a, shape_b, (70, 67), elem, elem,
                                     "contracting_dims = [1] x [0]"), "t" + elem, str(tmp_path))
    if elem == "i32":
        np.testing.assert_array_equal(lib.main(a, b), a @ b)
        return
    dtype = {"f16": np.float16, "f64": np.float64, "bf16": ml_dtypes.bfloat16}[elem]
    a, b = a.astype(dtype), b.astype(dtype)
    exact = a.astype(np.float64) @ b.astype(np.float64)
    got = lib.main(a, b).astype(np.float64)
    tol = {"f16": 2e-3, "bf16": 1e-2, "f64": 1e-12}[elem]
    np.testing.assert_allclose(got, exact.astype(dtype).astype(np.float64), rtol=tol, atol=tol * 10)


def test_small_tiles_when_large_ones_would_not_fill_the_largest_device():
    """Attention's @v, [8, 8, 256, 64]: 256 tiles of 64 x 64, two per SM of an A100 (the
    Target's device) but not of an H100, where the same PTX runs: 32 x 32 tiles, 1024
    blocks. The MLP's 512 tiles (q @ k^T's 1024) keep 64 x 64; the GPT decoder's [128, 256]
    output, 32 tiles of 32 x 32, takes 16 x 16 (128 blocks, then split K)."""
    from lowering.codegen.cuda.matmul import SMALL_TILE, TILE, TINY_TILE, tile_side
    from lowering.target import cuda_target
    target = cuda_target()
    assert tile_side(target, 256, 64, 64) == SMALL_TILE
    assert tile_side(target, 2048, 1024) == TILE
    assert tile_side(target, 128, 256) == TINY_TILE
    assert tile_side(target, None, 64, 64) == TILE  # unknown rows: the large tile


def test_large_tiles_ask_for_four_blocks_per_sm(tmp_path):
    """A 64 x 64 tile's kernel carries `.minnctapersm 4` (launch record's min_blocks), so ptxas
    keeps it to 64 registers: four blocks of 256 threads, half an SM's thread slots. Attention's
    batched q @ k^T with its scale took 80 (three blocks). 32 x 32 tiles ask for nothing."""
    from tooling.ptxas import ptxas
    t = "tensor<8x8x256x64xf32>"
    text = (f"func.func @main(%q: {t}, %k: {t}) -> tensor<8x8x256x256xf32> {{\n"
            "  %s = stablehlo.constant dense<0.125> : tensor<8x8x256x256xf32>\n"
            "  %0 = stablehlo.dot_general %q, %k, batching_dims = [0, 1] x [0, 1], "
            "contracting_dims = [3] x [3]"
            f" : ({t}, {t}) -> tensor<8x8x256x256xf32>\n"
            "  %1 = stablehlo.multiply %0, %s : tensor<8x8x256x256xf32>\n"
            "  return %1 : tensor<8x8x256x256xf32>\n}")
    c = Compilation(text, "qk.mlir", Options(name="qk", emit="ptx", target="cuda"))
    path = tmp_path / "qk.ptx"
    c.build(str(path))
    kernels = c.llvm()[3]
    assert (kernels[0].launch.tiles, kernels[0].launch.min_blocks) == ((1, 1, 64, 64), 4)
    assert "at least 4 blocks per SM (.minnctapersm)" in kernels[0].describe()
    ptx = path.read_text()
    assert ".minnctapersm 4" in ptx
    r = ptxas(str(path), "sm_80")
    assert r.returncode == 0, r.stderr
    from lowering.codegen.cuda.ptxas import resources
    assert resources(r.stderr)[kernels[0].name][0] <= 64
    small = EPILOGUE.replace("?x?", "64x64")  # one tile of 64: 16 x 16 tiles
    (tiled, *_) = Compilation(small, "m.mlir", Options(name="m", emit="ptx", target="cuda")).llvm()[3]
    assert tiled.launch.tiles == (16, 16) and tiled.launch.min_blocks == 0


SPLIT = """func.func @main(%a: tensor<LHSxELEM>, %b: tensor<RHSxELEM>, %c: tensor<NxELEM>) -> tensor<OUTxELEM> {
  %0 = stablehlo.dot_general %a, %b, DIMS : (tensor<LHSxELEM>, tensor<RHSxELEM>) -> tensor<OUTxELEM>
  %cb = stablehlo.broadcast_in_dim %c, dims = [RANK] : (tensor<NxELEM>) -> tensor<OUTxELEM>
  %1 = stablehlo.add %0, %cb : tensor<OUTxELEM>
  return %1 : tensor<OUTxELEM>
}"""  # noqa: E501


@pytest.mark.parametrize("lhs,rhs,dims,spec,elem", [
    ((64, 512), (512, 48), "contracting_dims = [1] x [0]", "mk,kn->mn", "f32"),
    ((2, 40, 300), (2, 70, 300), "batching_dims = [0] x [0], contracting_dims = [2] x [2]", "bmk,bnk->bmn",
     "f32"),  # ragged last chunk (300 = 5 x 64 - 20), rhs transposed
    ((700, 33), (700, 20), "contracting_dims = [0] x [0]", "km,kn->mn", "f16"),
    ((16, 1024), (1024, 16), "contracting_dims = [1] x [0]", "mk,kn->mn", "i32")])
def test_few_tiles_split_the_contraction(lhs, rhs, dims, spec, elem, tmp_path):
    """A dot of known shapes whose tiles are too few blocks for the devices is cut along its
    contraction: a block per (split, tile) writes partial sums, a second kernel adds them in
    split order and applies the fused epilogue (a bias here); against numpy, through ptxas."""
    from tooling.ptxas import ptxas
    rng = np.random.default_rng(3)
    dtype = {"f32": np.float32, "f16": np.float16, "i32": np.int32}[elem]
    n = np.einsum(spec, np.zeros(lhs), np.zeros(rhs)).shape[-1]
    if elem == "i32":
        a, b, c = (rng.integers(-1000, 1000, s).astype(np.int32) for s in (lhs, rhs, (n,)))
    else:
        a, b, c = (rng.standard_normal(s).astype(dtype) for s in (lhs, rhs, (n,)))
    want = np.einsum(spec, a.astype(np.float64), b.astype(np.float64)) + c.astype(np.float64)
    shape = lambda s: "x".join(map(str, s))  # noqa: E731
    text = (SPLIT.replace("LHS", shape(lhs)).replace("RHS", shape(rhs)).replace("OUT", shape(want.shape))
            .replace("RANK", str(want.ndim - 1)).replace("N", str(want.shape[-1])).replace("DIMS", dims)
            .replace("ELEM", elem))
    c_ = Compilation(text, "sk.mlir", Options(name="sk", emit="ptx", target="cuda"))
    c_.build(str(tmp_path / "sk.ptx"))
    kernels = c_.llvm()[3]
    splits = kernels[0].launch.tiles
    assert len(splits) == want.ndim + 1 and splits[0] == 1  # a block per split and tile
    assert kernels[1].launch.elementwise  # the partials added (then cuBLAS's epilogue kernel)
    assert ptxas(str(tmp_path / "sk.ptx"), "sm_80").returncode == 0
    got = build_emulated(text, "sk" + elem, str(tmp_path)).main(a, b, c).astype(np.float64)
    if elem == "i32":
        np.testing.assert_array_equal(got, want.astype(np.int64).astype(np.int32))
        return
    tol = {"f32": 1e-5, "f16": 2e-3}[elem]
    np.testing.assert_allclose(got, want.astype(dtype).astype(np.float64), rtol=tol, atol=tol * 30)
