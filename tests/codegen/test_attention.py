"""Attention's kernels on the CPU: the scores q k^T, the scaled softmax, and the probabilities
times v, whose [s, s] @ [s, d] product reads its A (the probabilities) in place when d is at
most gemm.A_IN_PLACE_PANELS register-tile panels (packing A took a quarter of that product).
Checked against numpy on both sides of that limit, batch and head dims, 1 and 2 threads."""
import numpy as np
import pytest

import aot
from lowering.codegen.cpu import gemm
from lowering.target import host_target

NR = host_target().blocking("f32").nr


def attention(b, h, s, d) -> str:
    q, sc, rows = (f"tensor<{b}x{h}x{s}x{d}xf32>", f"tensor<{b}x{h}x{s}x{s}xf32>",
                   f"tensor<{b}x{h}x{s}xf32>")
    return f"""func.func @main(%q: {q}, %k: {q}, %v: {q}) -> {q} {{
  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %qk = stablehlo.dot_general %q, %k, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [3] : ({q}, {q}) -> {sc}
  %m = stablehlo.reduce(%qk init: %ninf) applies stablehlo.maximum across dimensions = [3] : ({sc}, tensor<f32>) -> {rows}
  %mb = stablehlo.broadcast_in_dim %m, dims = [0, 1, 2] : ({rows}) -> {sc}
  %e0 = stablehlo.subtract %qk, %mb : {sc}
  %e = stablehlo.exponential %e0 : {sc}
  %s = stablehlo.reduce(%e init: %zero) applies stablehlo.add across dimensions = [3] : ({sc}, tensor<f32>) -> {rows}
  %sb = stablehlo.broadcast_in_dim %s, dims = [0, 1, 2] : ({rows}) -> {sc}
  %p = stablehlo.divide %e, %sb : {sc}
  %o = stablehlo.dot_general %p, %v, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [2] : ({sc}, {q}) -> {q}
  return %o : {q}
}}"""  # noqa: E501


def reference(q, k, v):
    q, k, v = (x.astype(np.float64) for x in (q, k, v))
    x = q @ k.swapaxes(-1, -2)
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return (e / e.sum(axis=-1, keepdims=True)) @ v


WIDE = gemm.A_IN_PLACE_PANELS * NR


@pytest.mark.parametrize("s, d", [
    (128, WIDE),  # read in place: the widest task that is
    (127, WIDE + 1),  # packed: one more, cut panel
    (131, 3 * NR - 5),  # read in place, its last panel cut
    (61, 64),  # attention's d 64 at a short sequence
])
def test_attention_against_numpy(s, d):
    lib = aot.compile(attention(2, 3, s, d), name="attention_kernels")
    rng = np.random.default_rng(s + d)
    q, k, v = (rng.standard_normal((2, 3, s, d)).astype(np.float32) / 4 for _ in range(3))
    want = reference(q, k, v)
    for threads in (1, 2):
        lib.set_num_threads(threads)
        np.testing.assert_allclose(lib.main(q, k, v), want, rtol=1e-4, atol=1e-5)
