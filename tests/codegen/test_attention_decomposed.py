"""PyTorch's decomposed scaled_dot_product_attention (what `run_decompositions()` leaves):
q and k^T each scaled by the scale's square root, [b, h, ...] viewed as [b * h, ...] for
each bmm and back, the causal mask an additive tensor built from a folded `arange`, and the
safe softmax as where(not(any(not(s == -inf))), 0, p). It becomes the one attention kernel
(passes/attention.py: unmerge_batch, _operand_scaling, _all_minus_inf, the constant iota in
_index), checked on the loops text and against numpy."""
import os

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


def decomposed_dynamic(merged_from: str = "b") -> str:
    """The decomposed form with a `?` batch and sequence (4 heads of 8): the views are
    dynamic_reshapes of shape tensors built from the viewed tensors' sizes, b * h a product
    of them, as torch.export writes them. `merged_from` "s": q's and p's views' first size
    is s * h instead, a view that is not provably the merge of [b, h]."""
    t4, t4t = "tensor<?x4x?x8xf32>", "tensor<?x4x8x?xf32>"
    sc, rows = "tensor<?x4x?x?xf32>", "tensor<?x4x?xf32>"
    g3, g3t, sc3 = "tensor<?x?x8xf32>", "tensor<?x8x?xf32>", "tensor<?x?x?xf32>"
    one, three, four = "tensor<1xi32>", "tensor<3xi32>", "tensor<4xi32>"
    root = float(np.float32(1 / np.sqrt(np.sqrt(8))))
    sizes = []
    for x in "qkv":  # %bx1 = [b], %bhx1 = [b * 4] (or [s * 4]), %sx1 = [s] of each input
        merged = "b" if x != "q" else merged_from
        sizes.append(f"""
  %b{x} = stablehlo.get_dimension_size %{x}, dim = 0 : ({t4}) -> tensor<i32>
  %s{x} = stablehlo.get_dimension_size %{x}, dim = 2 : ({t4}) -> tensor<i32>
  %bh{x} = stablehlo.multiply %{merged}{x}, %h : tensor<i32>
  %bh{x}1 = stablehlo.reshape %bh{x} : (tensor<i32>) -> {one}
  %b{x}1 = stablehlo.reshape %b{x} : (tensor<i32>) -> {one}
  %s{x}1 = stablehlo.reshape %s{x} : (tensor<i32>) -> {one}""")
    return f"""func.func @main(%q: {t4}, %k: {t4}, %v: {t4}) -> {t4} {{
  %h = stablehlo.constant dense<4> : tensor<i32>{"".join(sizes)}
  %h1 = stablehlo.constant dense<[4]> : {one}
  %d1 = stablehlo.constant dense<[8]> : {one}
  %shq = stablehlo.concatenate %bhq1, %sq1, %d1, dim = 0 : ({one}, {one}, {one}) -> {three}
  %shk = stablehlo.concatenate %bhk1, %d1, %sk1, dim = 0 : ({one}, {one}, {one}) -> {three}
  %shv = stablehlo.concatenate %bhv1, %sv1, %d1, dim = 0 : ({one}, {one}, {one}) -> {three}
  %shp = stablehlo.concatenate %bhq1, %sq1, %sk1, dim = 0 : ({one}, {one}, {one}) -> {three}
  %sh4 = stablehlo.concatenate %bq1, %h1, %sq1, %sk1, dim = 0 : ({one}, {one}, {one}, {one}) -> {four}
  %sho = stablehlo.concatenate %bq1, %h1, %sq1, %d1, dim = 0 : ({one}, {one}, {one}, {one}) -> {four}
  %shk4 = stablehlo.concatenate %bk1, %h1, %d1, %sk1, dim = 0 : ({one}, {one}, {one}, {one}) -> {four}
  %r = stablehlo.constant dense<{root}> : tensor<f32>
  %c = stablehlo.dynamic_broadcast_in_dim %r, %sho, dims = [] : (tensor<f32>, {four}) -> {t4}
  %ct = stablehlo.dynamic_broadcast_in_dim %r, %shk4, dims = [] : (tensor<f32>, {four}) -> {t4t}
  %qs = stablehlo.multiply %q, %c : {t4}
  %kt = stablehlo.transpose %k, dims = [0, 1, 3, 2] : ({t4}) -> {t4t}
  %ks = stablehlo.multiply %kt, %ct : {t4t}
  %q3 = stablehlo.dynamic_reshape %qs, %shq : ({t4}, {three}) -> {g3}
  %k3 = stablehlo.dynamic_reshape %ks, %shk : ({t4t}, {three}) -> {g3t}
  %s3 = stablehlo.dot_general %q3, %k3, batching_dims = [0] x [0], contracting_dims = [2] x [1] : ({g3}, {g3t}) -> {sc3}
  %s4 = stablehlo.dynamic_reshape %s3, %sh4 : ({sc3}, {four}) -> {sc}
  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %m = stablehlo.reduce(%s4 init: %ninf) applies stablehlo.maximum across dimensions = [3] : ({sc}, tensor<f32>) -> {rows}
  %mb = stablehlo.dynamic_broadcast_in_dim %m, %sh4, dims = [0, 1, 2] : ({rows}, {four}) -> {sc}
  %e0 = stablehlo.subtract %s4, %mb : {sc}
  %e = stablehlo.exponential %e0 : {sc}
  %sum = stablehlo.reduce(%e init: %zero) applies stablehlo.add across dimensions = [3] : ({sc}, tensor<f32>) -> {rows}
  %sb = stablehlo.dynamic_broadcast_in_dim %sum, %sh4, dims = [0, 1, 2] : ({rows}, {four}) -> {sc}
  %p = stablehlo.divide %e, %sb : {sc}
  %p3 = stablehlo.dynamic_reshape %p, %shp : ({sc}, {three}) -> {sc3}
  %v3 = stablehlo.dynamic_reshape %v, %shv : ({t4}, {three}) -> {g3}
  %o3 = stablehlo.dot_general %p3, %v3, batching_dims = [0] x [0], contracting_dims = [2] x [1] : ({sc3}, {g3}) -> {g3}
  %o = stablehlo.dynamic_reshape %o3, %sho : ({g3}, {four}) -> {t4}
  return %o : {t4}
}}"""  # noqa: E501


def test_decomposed_sdpa_with_dynamic_views_is_one_kernel():
    """With a `?` batch and sequence the bmm's views are dynamic_reshapes: the merged size
    b * h is read as a product of the sizes, and the pattern is one kernel, right at every
    shape the library takes. A view whose first size is s * h (not provably [b, h] merged)
    is left as it is, and still right where the shapes agree."""
    text = decomposed_dynamic()
    lowered = loops(text)
    assert lowered.count('"aot.attention"') == 1 and lowered.count('"aot.gemm"') == 0, lowered
    lib = aot.compile(text, name="sdpa_dec_dynamic")
    other = decomposed_dynamic("s")
    assert '"aot.attention"' not in loops(other)
    unproven = aot.compile(other, name="sdpa_dec_dynamic_unproven")
    rng = np.random.default_rng(9)
    for b, s in [(1, 1), (2, 7), (3, 40)]:
        q, k, v = (rng.standard_normal((b, 4, s, 8)).astype(np.float32) for _ in range(3))
        want = reference(q, k, v, False)
        for threads in (1, 2):
            lib.set_num_threads(threads)
            np.testing.assert_allclose(lib.main(q, k, v), want, rtol=2e-5, atol=2e-5)
        if b == s:
            np.testing.assert_allclose(unproven.main(q, k, v), want, rtol=2e-5, atol=2e-5)


def test_dynamic_keepdims_row_views_are_one_kernel():
    """The softmax's row max and sum kept as [b, h, s, 1] by dynamic_reshapes (keepdims with
    `?` dims), then broadcast along the rows: still one kernel, right at every shape."""
    text = decomposed_dynamic()
    four, sc = "tensor<4xi32>", "tensor<?x4x?x?xf32>"
    keep, rows = "tensor<?x4x?x1xf32>", "tensor<?x4x?xf32>"
    for row, out in (("m", "mb"), ("sum", "sb")):
        old = (f"%{out} = stablehlo.dynamic_broadcast_in_dim %{row}, %sh4, dims = [0, 1, 2] : "
               f"({rows}, {four}) -> {sc}")
        assert old in text
        text = text.replace(old, f"""%{row}k = stablehlo.dynamic_reshape %{row}, %shk1 : ({rows}, {four}) -> {keep}
  %{out} = stablehlo.dynamic_broadcast_in_dim %{row}k, %sh4, dims = [0, 1, 2, 3] : ({keep}, {four}) -> {sc}""")  # noqa: E501
    text = text.replace("  %r = stablehlo.constant", """  %one = stablehlo.constant dense<[1]> : tensor<1xi32>
  %shk1 = stablehlo.concatenate %bq1, %h1, %sq1, %one, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
  %r = stablehlo.constant""")  # noqa: E501
    lowered = loops(text)
    assert lowered.count('"aot.attention"') == 1 and lowered.count('"aot.gemm"') == 0, lowered
    lib = aot.compile(text, name="sdpa_dec_dynamic_keepdims")
    rng = np.random.default_rng(11)
    for b, s in [(1, 1), (2, 9), (3, 33)]:
        q, k, v = (rng.standard_normal((b, 4, s, 8)).astype(np.float32) for _ in range(3))
        np.testing.assert_allclose(lib.main(q, k, v), reference(q, k, v, False),
                                   rtol=2e-5, atol=2e-5)


def test_saved_torch_gpt_attention_is_one_kernel(tmp_path):
    """The saved GPT case (tests/data/torch/gpt.pt2: run_decompositions() with a `?` batch
    and sequence, causal SDPA): one attention kernel, matching eager at every saved size."""
    data = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "data",
                        "torch")
    lib = aot.compile(os.path.join(data, "gpt.pt2"), name="gpt_sdpa_dynamic",
                      output_dir=str(tmp_path), dump_after=["loops"], dump_dir=str(tmp_path))
    lowered = open(next(p for p in tmp_path.iterdir() if "loops" in p.name)).read()
    assert lowered.count('"aot.attention"') == 1 and "causal = 0" in lowered
    saved = np.load(os.path.join(data, "gpt.npz"))
    k = 0
    while f"s{k}_arg0" in saved:
        np.testing.assert_allclose(lib.main(saved[f"s{k}_arg0"]), saved[f"s{k}_out0"],
                                   rtol=1e-4, atol=1e-5)
        k += 1
    assert k >= 3
