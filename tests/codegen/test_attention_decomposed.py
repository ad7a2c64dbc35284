"""PyTorch's decomposed scaled_dot_product_attention (what `run_decompositions()` leaves):
q and k^T each scaled by the scale's square root, [b, h, ...] viewed as [b * h, ...] for
each bmm and back, the causal mask an additive tensor built from a folded `arange`, and the
safe softmax as where(not(any(not(s == -inf))), 0, p). It becomes the one attention kernel
(passes/attention.py: unmerge_batch, _operand_scaling, _all_minus_inf, the constant iota in
_index), checked on the loops text and against numpy."""
import numpy as np
import pytest

import aot
from lowering.frontend.parser import parse_module
from lowering.frontend.printer import print_module
from lowering.passes.pipeline import run_pipeline


def decomposed(b, h, s, d, causal: bool, scores_too=False) -> str:
    """The decomposed form at static shapes; `scores_too`: the scores are a second result."""
    g = b * h
    t4, t4t = f"tensor<{b}x{h}x{s}x{d}xf32>", f"tensor<{b}x{h}x{d}x{s}xf32>"
    g3 = f"tensor<{g}x{s * b * h // g}x{d}xf32>"
    g3t = f"tensor<{g}x{d}x{s * b * h // g}xf32>"
    sc3 = f"tensor<{g}x{s * b * h // g}x{s * b * h // g}xf32>"
    sc, rows = f"tensor<{b}x{h}x{s}x{s}xf32>", f"tensor<{b}x{h}x{s}xf32>"
    root = float(np.float32(1 / np.sqrt(np.sqrt(d))))
    mask = ""
    scores = "%s4"
    if causal:
        ar = ", ".join(str(i) for i in range(s))
        mask = f"""
  %ar = stablehlo.constant dense<[{ar}]> : tensor<{s}xi64>
  %row = stablehlo.reshape %ar : (tensor<{s}xi64>) -> tensor<1x{s}xi64>
  %col = stablehlo.reshape %ar : (tensor<{s}xi64>) -> tensor<{s}x1xi64>
  %rb = stablehlo.broadcast_in_dim %row, dims = [0, 1] : (tensor<1x{s}xi64>) -> tensor<{s}x{s}xi64>
  %cb = stablehlo.broadcast_in_dim %col, dims = [0, 1] : (tensor<{s}x1xi64>) -> tensor<{s}x{s}xi64>
  %diff = stablehlo.subtract %rb, %cb : tensor<{s}x{s}xi64>
  %z64 = stablehlo.constant dense<0> : tensor<{s}x{s}xi64>
  %le = stablehlo.compare LE, %diff, %z64, SIGNED : (tensor<{s}x{s}xi64>, tensor<{s}x{s}xi64>) -> tensor<{s}x{s}xi1>
  %true = stablehlo.constant dense<true> : tensor<{s}x{s}xi1>
  %keep = stablehlo.and %le, %true : tensor<{s}x{s}xi1>
  %zf = stablehlo.constant dense<0.0> : tensor<{s}x{s}xf32>
  %nf = stablehlo.constant dense<0xFF800000> : tensor<{s}x{s}xf32>
  %add2 = stablehlo.select %keep, %zf, %nf : tensor<{s}x{s}xi1>, tensor<{s}x{s}xf32>
  %add4 = stablehlo.broadcast_in_dim %add2, dims = [2, 3] : (tensor<{s}x{s}xf32>) -> {sc}
  %masked = stablehlo.add %s4, %add4 : {sc}"""  # noqa: E501
        scores = "%masked"
    results, ret = (f"{t4}, {sc}", "%o, %s4") if scores_too else (t4, "%o")
    return f"""func.func @main(%q: {t4}, %k: {t4}, %v: {t4}) -> ({results}) {{
  %c = stablehlo.constant dense<{root}> : {t4}
  %ct = stablehlo.constant dense<{root}> : {t4t}
  %qs = stablehlo.multiply %q, %c : {t4}
  %kt = stablehlo.transpose %k, dims = [0, 1, 3, 2] : ({t4}) -> {t4t}
  %ks = stablehlo.multiply %kt, %ct : {t4t}
  %q3 = stablehlo.reshape %qs : ({t4}) -> {g3}
  %k3 = stablehlo.reshape %ks : ({t4t}) -> {g3t}
  %s3 = stablehlo.dot_general %q3, %k3, batching_dims = [0] x [0], contracting_dims = [2] x [1] : ({g3}, {g3t}) -> {sc3}
  %s4 = stablehlo.reshape %s3 : ({sc3}) -> {sc}{mask}
  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %m = stablehlo.reduce({scores} init: %ninf) applies stablehlo.maximum across dimensions = [3] : ({sc}, tensor<f32>) -> {rows}
  %mb = stablehlo.broadcast_in_dim %m, dims = [0, 1, 2] : ({rows}) -> {sc}
  %e0 = stablehlo.subtract {scores}, %mb : {sc}
  %e = stablehlo.exponential %e0 : {sc}
  %sum = stablehlo.reduce(%e init: %zero) applies stablehlo.add across dimensions = [3] : ({sc}, tensor<f32>) -> {rows}
  %sb = stablehlo.broadcast_in_dim %sum, dims = [0, 1, 2] : ({rows}) -> {sc}
  %p = stablehlo.divide %e, %sb : {sc}
  %ninfs = stablehlo.constant dense<0xFF800000> : {sc}
  %isinf = stablehlo.compare EQ, {scores}, %ninfs, FLOAT : ({sc}, {sc}) -> tensor<{b}x{h}x{s}x{s}xi1>
  %finite = stablehlo.not %isinf : tensor<{b}x{h}x{s}x{s}xi1>
  %false = stablehlo.constant dense<false> : tensor<i1>
  %any = stablehlo.reduce(%finite init: %false) applies stablehlo.or across dimensions = [3] : (tensor<{b}x{h}x{s}x{s}xi1>, tensor<i1>) -> tensor<{b}x{h}x{s}xi1>
  %any1 = stablehlo.reshape %any : (tensor<{b}x{h}x{s}xi1>) -> tensor<{b}x{h}x{s}x1xi1>
  %none = stablehlo.not %any1 : tensor<{b}x{h}x{s}x1xi1>
  %noneb = stablehlo.broadcast_in_dim %none, dims = [0, 1, 2, 3] : (tensor<{b}x{h}x{s}x1xi1>) -> tensor<{b}x{h}x{s}x{s}xi1>
  %zeros = stablehlo.constant dense<0.0> : {sc}
  %safe = stablehlo.select %noneb, %zeros, %p : tensor<{b}x{h}x{s}x{s}xi1>, {sc}
  %p3 = stablehlo.reshape %safe : ({sc}) -> {sc3}
  %v3 = stablehlo.reshape %v : ({t4}) -> {g3}
  %o3 = stablehlo.dot_general %p3, %v3, batching_dims = [0] x [0], contracting_dims = [2] x [1] : ({sc3}, {g3}) -> {g3}
  %o = stablehlo.reshape %o3 : ({g3}) -> {t4}
  return {ret} : {results}
}}"""  # noqa: E501


def reference(q, k, v, causal):
    q, k, v = (x.astype(np.float64) for x in (q, k, v))
    x = q @ k.swapaxes(-1, -2) / np.sqrt(q.shape[-1])
    if causal:
        s = x.shape[-1]
        x = np.where(np.arange(s)[None, :] <= np.arange(s)[:, None], x, -np.inf)
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return (e / e.sum(axis=-1, keepdims=True)) @ v


def loops(text):
    return print_module(run_pipeline(parse_module(text, "test.mlir"), "loops"))


@pytest.mark.parametrize("causal", [False, True])
@pytest.mark.parametrize("b, h, s, d", [(2, 3, 20, 8), (1, 4, 67, 64)])
def test_decomposed_sdpa_is_one_kernel(b, h, s, d, causal):
    text = decomposed(b, h, s, d, causal)
    lowered = loops(text)
    assert lowered.count('"aot.attention"') == 1, lowered
    assert lowered.count('"aot.gemm"') == 0
    assert ("causal = 0" in lowered) == causal and "safe = 1" in lowered
    lib = aot.compile(text, name=f"sdpa_dec_{b}_{h}_{s}_{d}_{int(causal)}")
    rng = np.random.default_rng(s + d)
    q, k, v = (rng.standard_normal((b, h, s, d)).astype(np.float32) for _ in range(3))
    want = reference(q, k, v, causal)
    for threads in (1, 2):
        lib.set_num_threads(threads)
        np.testing.assert_allclose(lib.main(q, k, v), want, rtol=2e-5, atol=2e-5)


def test_products_unmerged_when_the_scores_are_read_elsewhere():
    """With the scores also a result the pattern is not one kernel, but its bmm's are still
    rewritten over [b, h] (no views around them): the results are the program's."""
    text = decomposed(2, 3, 20, 8, True, scores_too=True)
    lowered = loops(text)
    assert '"aot.attention"' not in lowered and "memref<6x20x20xf32>" not in lowered
    lib = aot.compile(text, name="sdpa_dec_scores_too")
    rng = np.random.default_rng(5)
    q, k, v = (rng.standard_normal((2, 3, 20, 8)).astype(np.float32) for _ in range(3))
    out, scores = lib.main(q, k, v)
    x = q.astype(np.float64) @ k.swapaxes(-1, -2) / np.sqrt(8)
    np.testing.assert_allclose(scores, x, rtol=2e-5, atol=2e-5)  # before the mask
    np.testing.assert_allclose(out, reference(q, k, v, True), rtol=2e-5, atol=2e-5)
