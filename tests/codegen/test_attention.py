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


# ------------------------------------------------------------------ one fused kernel
# passes/attention.py makes softmax(q k^T * scale) v one fusion, codegen/cpu/attention.py its
# kernel (scores, softmax and the second product per query block, nothing in memory).

def scaled_attention(q_shape, k_shape, dv, scale=0.125, jax_style=False) -> str:
    """softmax(q k^T * scale) v over [..., s, d] operands; a `?` in a shape (None) makes the
    broadcasts dynamic. `jax_style`: as jax.nn.softmax exports it (the scores divided by
    1 / scale, the max clamped by -inf, keepdims broadcasts through [..., s, 1])."""
    def t(shape):
        return "tensor<" + "x".join("?" if x is None else str(x) for x in shape) + "xf32>"
    *batch, sq, d = q_shape
    sk = k_shape[-2]
    v_shape = (*batch, sk, dv)
    full, row, kept = (*batch, sq, sk), (*batch, sq), (*batch, sq, 1)
    sc, rows, o = t(full), t(row), t((*batch, sq, dv))
    n = len(batch)
    lines = [f"%qk = stablehlo.dot_general %q, %k, batching_dims = {list(range(n))} x "
             f"{list(range(n))}, contracting_dims = [{n + 1}] x [{n + 1}] : ({t(q_shape)}, "
             f"{t(k_shape)}) -> {sc}"]
    dynamic = None in (sq, sk)
    if dynamic:
        for i, x in enumerate(full):
            if x is None:
                lines += [f"%n{i} = stablehlo.get_dimension_size %qk, dim = {i} : ({sc}) -> tensor<i32>",
                          f"%d{i} = stablehlo.reshape %n{i} : (tensor<i32>) -> tensor<1xi32>"]
            else:
                lines.append(f"%d{i} = stablehlo.constant dense<[{x}]> : tensor<1xi32>")
        lines.append("%one = stablehlo.constant dense<[1]> : tensor<1xi32>")
        for name, parts in (("full", range(n + 2)), ("row", range(n + 1)), ("kept", range(n + 1))):
            pieces = [f"%d{i}" for i in parts] + (["%one"] if name == "kept" else [])
            lines.append(f"%s_{name} = stablehlo.concatenate {', '.join(pieces)}, dim = 0 : "
                         f"({', '.join(['tensor<1xi32>'] * len(pieces))}) -> tensor<{len(pieces)}xi32>")

    def bcast(x, dims, src, dst):
        if dynamic:
            shape = {full: "%s_full", row: "%s_row", kept: "%s_kept"}[dst]
            rank = len(dst)
            return (f"stablehlo.dynamic_broadcast_in_dim {x}, {shape}, dims = {dims} : ({src}, "
                    f"tensor<{rank}xi32>) -> {t(dst)}")
        return f"stablehlo.broadcast_in_dim {x}, dims = {dims} : ({src}) -> {t(dst)}"

    def to_full(x, name):
        """x [..., sq] broadcast along the keys (through [..., sq, 1] in jax's style)."""
        if not jax_style:
            return [f"%{name} = {bcast(x, list(range(n + 1)), rows, full)}"]
        return [f"%{name}1 = {bcast(x, list(range(n + 1)), rows, kept)}",
                f"%{name} = {bcast(f'%{name}1', list(range(n + 2)), t(kept), full)}"]
    const, op = (1 / scale, "divide") if jax_style else (scale, "multiply")
    lines += [
        f"%c = stablehlo.constant dense<{const}> : tensor<f32>",
        f"%cb = {bcast('%c', [], 'tensor<f32>', full)}",
        f"%l = stablehlo.{op} %qk, %cb : {sc}",
        "%ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>",
        "%zero = stablehlo.constant dense<0.0> : tensor<f32>",
        f"%m0 = stablehlo.reduce(%l init: %ninf) applies stablehlo.maximum across dimensions = "
        f"[{n + 1}] : ({sc}, tensor<f32>) -> {rows}"]
    if jax_style:
        lines += [f"%nb = {bcast('%ninf', [], 'tensor<f32>', row)}",
                  f"%m = stablehlo.maximum %nb, %m0 : {rows}"]
    lines += [*to_full("%m" if jax_style else "%m0", "mb"),
              f"%e0 = stablehlo.subtract %l, %mb : {sc}",
              f"%e = stablehlo.exponential %e0 : {sc}",
              f"%s = stablehlo.reduce(%e init: %zero) applies stablehlo.add across dimensions = "
              f"[{n + 1}] : ({sc}, tensor<f32>) -> {rows}",
              *to_full("%s", "sb"),
              f"%p = stablehlo.divide %e, %sb : {sc}",
              f"%o = stablehlo.dot_general %p, %v, batching_dims = {list(range(n))} x "
              f"{list(range(n))}, contracting_dims = [{n + 1}] x [{n}] : ({sc}, {t(v_shape)}) -> {o}"]
    body = "\n  ".join(lines)
    return (f"func.func @main(%q: {t(q_shape)}, %k: {t(k_shape)}, %v: {t(v_shape)}) -> {o} {{\n"
            f"  {body}\n  return %o : {o}\n}}")


def scaled_reference(q, k, v, scale):
    q, k, v = (x.astype(np.float64) for x in (q, k, v))
    return reference(q * scale, k, v)


def loop_ops(text: str, name: str) -> list:
    from aot.driver import Compilation, Options
    module = Compilation(text, f"{name}.mlir", Options(name=name, emit="loops")).loops()
    return [op.name for top in module.ops for op in top.walk()]


def test_attention_is_one_kernel():
    """The whole pattern is one aot.attention op; no packed matmul, no softmax loops left."""
    names = loop_ops(scaled_attention((2, 3, 40, 16), (2, 3, 40, 16), 16), "attn_one")
    assert names.count("aot.attention") == 1
    assert "aot.gemm" not in names and "scf.for" not in names


def test_attention_with_other_readers_of_the_scores_stays_three_kernels():
    """Scores read outside the pattern (here also returned) keep the three kernels."""
    text = scaled_attention((1, 2, 8, 16), (1, 2, 8, 16), 16).replace(
        "return %o : tensor<1x2x8x16xf32>", "return %o, %qk : tensor<1x2x8x16xf32>, tensor<1x2x8x8xf32>"
    ).replace("-> tensor<1x2x8x16xf32> {", "-> (tensor<1x2x8x16xf32>, tensor<1x2x8x8xf32>) {")
    names = loop_ops(text, "attn_three")
    assert "aot.attention" not in names and names.count("aot.gemm") == 2


@pytest.mark.parametrize("sq, sk, d, dv", [
    (1, 1, 64, 64), (7, 7, 64, 64), (65, 65, 64, 64), (257, 257, 64, 64),  # odd sequences
    (13, 300, 24, 40),  # queries != keys, a cut k^T panel, d and dv not multiples of NR
    (30, 5, 7, 3),  # tiny, nothing a whole vector
])
def test_fused_attention_against_numpy(sq, sk, d, dv):
    lib = aot.compile(scaled_attention((2, 3, sq, d), (2, 3, sk, d), dv, 0.3), name="attn_fused")
    rng = np.random.default_rng(sq * 1000 + sk)
    q, k = (rng.standard_normal((2, 3, s, d)).astype(np.float32) for s in (sq, sk))
    v = rng.standard_normal((2, 3, sk, dv)).astype(np.float32)
    want = scaled_reference(q, k, v, 0.3)
    for threads in (1, 2, 3):
        lib.set_num_threads(threads)
        np.testing.assert_allclose(lib.main(q, k, v), want, rtol=2e-5, atol=2e-6)


def test_fused_attention_dynamic_lengths():
    """One library, `?` query and key lengths (dynamic broadcasts): every length pair, 0
    keys (a zero output, as the three kernels give) and batch 1 x head 1 split over threads."""
    text = scaled_attention((1, 2, None, 32), (1, 2, None, 32), 32)
    assert loop_ops(text, "attn_dyn_ops").count("aot.attention") == 1
    lib = aot.compile(text, name="attn_dyn")
    rng = np.random.default_rng(7)
    for sq, sk in ((1, 1), (1, 257), (7, 3), (65, 65), (200, 9), (3, 0)):
        q = rng.standard_normal((1, 2, sq, 32)).astype(np.float32)
        k, v = (rng.standard_normal((1, 2, sk, 32)).astype(np.float32) for _ in range(2))
        want = scaled_reference(q, k, v, 0.125) if sk else np.zeros((1, 2, sq, 32))
        for threads in (1, 2):
            lib.set_num_threads(threads)
            np.testing.assert_allclose(lib.main(q, k, v), want, rtol=2e-5, atol=2e-6)


@pytest.mark.parametrize("q_shape, k_shape", [
    ((2, 4, 24, 32), (2, 4, 24, 32)),  # jax.nn.softmax's form, static
    ((2, 4, None, 32), (2, 4, None, 32)),  # and with ? lengths (dynamic broadcasts)
])
def test_jax_softmax_form_is_fused(q_shape, k_shape):
    """The scores divided by sqrt(d), the max clamped by -inf, keepdims broadcasts: one kernel,
    numpy's result at several lengths."""
    text = scaled_attention(q_shape, k_shape, 32, jax_style=True)
    assert loop_ops(text, "attn_jax_ops").count("aot.attention") == 1
    lib = aot.compile(text, name="attn_jax")
    rng = np.random.default_rng(3)
    for s in ((24,) if q_shape[2] else (1, 9, 64)):
        q, k, v = (rng.standard_normal((2, 4, s, 32)).astype(np.float32) for _ in range(3))
        np.testing.assert_allclose(lib.main(q, k, v), scaled_reference(q, k, v, 0.125),
                                   rtol=2e-5, atol=2e-6)


def test_fused_attention_without_scratch():
    """AOT_KERNEL_SCRATCH=off: each task takes a buffer of its own; same result."""
    import os
    import subprocess
    import sys
    code = (
        "import numpy as np, aot, sys; sys.path.insert(0, 'tests/codegen');"
        "from test_attention import scaled_attention, scaled_reference;"
        "lib = aot.compile(scaled_attention((2, 2, 70, 32), (2, 2, 70, 32), 32), name='attn_noscr');"
        "r = np.random.default_rng(1); q, k, v = (r.standard_normal((2, 2, 70, 32)).astype(np.float32)"
        " for _ in range(3));"
        "np.testing.assert_allclose(lib.main(q, k, v), scaled_reference(q, k, v, 0.125), rtol=2e-5,"
        " atol=2e-6); print('ok')")
    env = dict(os.environ, AOT_KERNEL_SCRATCH="off")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                         cwd=os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
    assert out.returncode == 0 and "ok" in out.stdout, out.stderr[-2000:]
