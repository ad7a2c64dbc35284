"""The packed matmul (lowering/gemm.py): every dot_general whose batch, free and
contracting dims are runs of consecutive dims goes through it. Checked against numpy in
float64 on shapes that cut its register tiles, task tiles and K blocks at every edge, with
transposed operands, several batch, free and contracting dims, on 1 and 2 threads."""
import numpy as np
import pytest

import aot
from lowering.parser import parse_module
from lowering.pipeline import run_pipeline
from lowering.printer import print_module


def tensor(shape, elem):
    return f"tensor<{'x'.join(map(str, shape)) + 'x' if shape else ''}{elem}>"


def program(lhs, rhs, out, dims, elem="f32"):
    lt, rt, ot = tensor(lhs, elem), tensor(rhs, elem), tensor(out, elem)
    return f"""func.func @main(%a: {lt}, %b: {rt}) -> {ot} {{
  %c = stablehlo.dot_general %a, %b, {dims} : ({lt}, {rt}) -> {ot}
  return %c : {ot}
}}"""


MATMUL = "contracting_dims = [1] x [0]"
# (lhs shape, rhs shape, dot_general dims, numpy einsum of the same product)
CASES = {
    "edges": ((150, 300), (300, 1030), MATMUL, "mk,kn->mn"),
    "one_tile": ((6, 16), (16, 16), MATMUL, "mk,kn->mn"),
    "scalar_like": ((1, 1), (1, 1), MATMUL, "mk,kn->mn"),
    "empty_m": ((0, 4), (4, 5), MATMUL, "mk,kn->mn"),
    "empty_k": ((4, 0), (0, 5), MATMUL, "mk,kn->mn"),
    "lhs_transposed": ((33, 7), (33, 20), "contracting_dims = [0] x [0]", "km,kn->mn"),
    "rhs_transposed": ((9, 40), (17, 40), "contracting_dims = [1] x [1]", "mk,nk->mn"),
    "batched": ((3, 20, 30), (3, 30, 19), "batching_dims = [0] x [0], contracting_dims = [2] x [1]",
                "bmk,bkn->bmn"),
    "two_batch_dims": ((2, 3, 13, 8), (2, 3, 11, 8),
                       "batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [3]",
                       "abmk,abnk->abmn"),
    "batch_last_in_rhs": ((4, 5, 6), (6, 7, 4), "batching_dims = [0] x [2], contracting_dims = [2] x [0]",
                          "bmk,knb->bmn"),
    "two_free_dims": ((2, 5, 12), (12, 21), "contracting_dims = [2] x [0]", "abk,kn->abn"),
    "two_contracting_dims": ((7, 3, 5), (3, 5, 9), "contracting_dims = [1, 2] x [0, 1]",
                             "mij,ijn->mn"),
    "outer_product": ((7,), (18,), "contracting_dims = [] x []", "m,n->mn"),
    "matrix_vector": ((19, 23), (23,), MATMUL, "mk,k->m"),
    "vector_matrix": ((23,), (23, 19), "contracting_dims = [0] x [0]", "k,kn->n"),
    # batch dims that are not one run: the loop-form dot, not the packed matmul
    "split_batch_dims": ((2, 5, 3, 4), (2, 3, 4, 6),
                         "batching_dims = [0, 2] x [0, 1], contracting_dims = [3] x [2]",
                         "amck,ackn->acmn"),
}
NOT_PACKED = {"split_batch_dims"}


def out_shape(lhs, rhs, spec):
    return np.einsum(spec, np.zeros(lhs), np.zeros(rhs)).shape


@pytest.mark.parametrize("elem", ["f32", "f64"])
@pytest.mark.parametrize("case", sorted(CASES))
def test_dot_general_matches_numpy(case, elem):
    lhs, rhs, dims, spec = CASES[case]
    text = program(lhs, rhs, out_shape(lhs, rhs, spec), dims, elem)
    loops = print_module(run_pipeline(parse_module(text, "test.mlir"), "loops"))
    assert ('"aot.gemm"' in loops) == (case not in NOT_PACKED)
    lib = aot.compile(text, name=f"gemm_{case}_{elem}")
    rng = np.random.default_rng(len(case))
    a = rng.standard_normal(lhs).astype(elem.replace("f", "float"))
    b = rng.standard_normal(rhs).astype(a.dtype)
    want = np.einsum(spec, a.astype(np.float64), b.astype(np.float64))
    results = []
    for threads in (1, 2):
        lib.set_num_threads(threads)
        got = lib.main(a, b)
        assert got.shape == want.shape and got.dtype == a.dtype
        tol = 1e-4 if elem == "f32" else 1e-12
        k = max(1, a.size // max(1, want.size // max(1, b.size)))
        np.testing.assert_allclose(got, want, rtol=tol, atol=tol * np.sqrt(k))
        results.append(got)
    np.testing.assert_array_equal(results[0], results[1])  # tiles do not depend on threads


def test_dynamic_shapes_one_library():
    """One library with ? dims serves every size, through the same packed kernel."""
    text = program(["?", "?"], ["?", "?"], ["?", "?"], MATMUL)
    lib = aot.compile(text, name="gemm_dynamic")
    rng = np.random.default_rng(1)
    for m, k, n in [(1, 1, 1), (5, 7, 3), (145, 257, 1025), (300, 513, 17), (0, 3, 2)]:
        a = rng.standard_normal((m, k)).astype(np.float32)
        b = rng.standard_normal((k, n)).astype(np.float32)
        np.testing.assert_allclose(lib.main(a, b), a.astype(np.float64) @ b, rtol=1e-4, atol=1e-3)


def test_inner_dim_mismatch_is_reported():
    text = program(["?", "?"], ["?", "?"], ["?", "?"], MATMUL)
    lib = aot.compile(text, name="gemm_dynamic")
    with pytest.raises(Exception, match="dot_general"):
        lib.main(np.ones((2, 3), np.float32), np.ones((4, 5), np.float32))
