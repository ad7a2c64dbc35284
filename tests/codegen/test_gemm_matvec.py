"""Matrix-vector products (the packed matmul's few-row kernels, lowering/codegen/cpu/gemm.py)
on the thread pool: a product of few rows goes to the pool by the size of B, its columns cut
into tasks; at one row, a K block's rows are spread through K; a B whose columns run along k (given as
[N, K]) is read in place by dot products, not packed. Checked against numpy in float64, with odd
K and N (K blocks cut short, column strips, single vectors and single columns), rows of B
above and below the prefetch's length, and the same bits on 1, 2 and 7 threads (each
column's sum over K runs in order, whoever computes it)."""
import numpy as np
import pytest

import aot
from lowering.codegen.cpu import gemm

MATMUL = """func.func @main(%a: tensor<?x?xf32>, %b: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %c = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
  return %c : tensor<?x?xf32>
}"""  # noqa: E501
# B given as [N, K] (a transposed weight, attention's keys): each column contiguous along k
TRANSPOSED = MATMUL.replace("contracting_dims = [1] x [0]", "contracting_dims = [1] x [1]")

# (K, N): B over FEW_ROWS_PARALLEL_MIN with rows longer than the prefetch's (the tasks' rows
# below it on 7 threads); a deep B of short rows (long segments of K); a B too
# small for the pool
SHAPES = ((515, 1100), (2053, 131), (77, 517))


def test_shapes_cover_the_pool_and_the_prefetch():
    prefetched = gemm.FEW_ROWS_PREFETCH_BYTES // 4
    assert [k * n >= gemm.FEW_ROWS_PARALLEL_MIN for k, n in SHAPES] == [True, True, False]
    assert SHAPES[0][1] > prefetched >= SHAPES[0][1] // 7 and SHAPES[1][1] <= prefetched


@pytest.mark.parametrize("form", ["row_major", "transposed"])
def test_matrix_vector_products_match_numpy_with_the_same_bits_on_any_threads(form):
    """Row-major B through the few-row kernels; B as [N, K] through their transposed form
    (dot products down B's columns: K's vectors, then its last K % 8 one by one)."""
    lib = aot.compile(MATMUL if form == "row_major" else TRANSPOSED, name=f"gemm_matvec_{form}")
    rng = np.random.default_rng(5)
    for k, n in SHAPES:
        b = rng.standard_normal((k, n)).astype(np.float32)
        operand = b if form == "row_major" else np.ascontiguousarray(b.T)
        for m in range(1, 6):  # 5: a group of 4 rows, then 1
            a = rng.standard_normal((m, k)).astype(np.float32)
            want = a.astype(np.float64) @ b
            got = []
            for threads in (1, 2, 7):
                lib.set_num_threads(threads)
                got.append(lib.main(a, operand))
                np.testing.assert_allclose(got[-1], want, rtol=1e-4, atol=1e-4 * np.sqrt(k),
                                           err_msg=f"m={m} k={k} n={n} threads={threads}")
            for other in got[1:]:
                np.testing.assert_array_equal(got[0], other, err_msg=f"m={m} k={k} n={n}")


def test_a_k_block_takes_rows_spread_through_k():
    """At one row of A, K = 16 is two blocks of 8 rows, block 0 rows 0, 2, ..., 14 and
    block 1 rows 1, 3, ..., 15 (each of a block's rows one long stream). With B's column
    2^25, 1, -2^25, 0, ... and x all ones the sum is exactly 1 in that order; adjacent rows
    (0..7, then 8..15) lose the 1 in 2^25 + 1 (f32's spacing there is 4) and give 0."""
    assert gemm.FEW_ROWS_KC == 8
    lib = aot.compile(MATMUL, name="gemm_matvec_segments")
    b = np.zeros((16, 1030), np.float32)
    b[0], b[1], b[2] = 2.0 ** 25, 1.0, -(2.0 ** 25)
    for threads in (1, 2):
        lib.set_num_threads(threads)
        got = lib.main(np.ones((1, 16), np.float32), b)
        np.testing.assert_array_equal(got, np.ones((1, 1030), np.float32))
