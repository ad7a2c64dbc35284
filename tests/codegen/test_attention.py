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

def scaled_attention(q_shape, k_shape, dv, scale=0.125, jax_style=False, mask=None,
                     safe=False) -> str:
    """softmax(q k^T * scale) v over [..., s, d] operands; a `?` in a shape (None) makes the
    broadcasts dynamic. `jax_style`: as jax.nn.softmax exports it (the scores divided by
    1 / scale, the max clamped by -inf, keepdims broadcasts through [..., s, 1]). `mask`:
    (form, c, fill, direction) masks the scaled scores where not (iota0 + c DIRECTION iota1),
    as jnp.tril(ones, k=c) with GE: form "where" (jnp.where(keep, l, fill)) or "add" (l +
    where(keep, 0, fill)); fill is MLIR's spelling of an f32. `safe`: PyTorch's safe softmax
    (rows whose max is -inf give zeros), as the torch door writes it."""
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
    def masked(x, name):
        """name = x under `mask`."""
        form, c, fill, direction = mask
        two, ib, fb = t(full[-2:]).replace("f32", "i32"), t(full[-2:]).replace("f32", "i1"), t(full[-2:])
        if dynamic:
            pair = [f"%s_pair = stablehlo.concatenate %d{n}, %d{n + 1}, dim = 0 : (tensor<1xi32>, "
                    f"tensor<1xi32>) -> tensor<2xi32>"]

            def iota(d):
                return f"stablehlo.dynamic_iota %s_pair, dim = {d} : (tensor<2xi32>) -> {two}"

            def splat2(x, src, dst):
                return (f"stablehlo.dynamic_broadcast_in_dim {x}, %s_pair, dims = [] : ({src}, "
                        f"tensor<2xi32>) -> {dst}")
        else:
            pair = []

            def iota(d):
                return f"stablehlo.iota dim = {d} : {two}"

            def splat2(x, src, dst):
                return f"stablehlo.broadcast_in_dim {x}, dims = [] : ({src}) -> {dst}"
        if form == "constant":  # the keep mask written out (torch's attn_mask), static
            rows = [[j <= i + c for j in range(full[-1])] for i in range(full[-2])]
            literal = "[" + ", ".join("[" + ", ".join(str(x).lower() for x in r) + "]" for r in rows) + "]"
            return [f"%keep = stablehlo.constant dense<{literal}> : {ib}",
                    f"%mf = stablehlo.constant dense<{fill}> : tensor<f32>",
                    f"%kb = stablehlo.broadcast_in_dim %keep, dims = [{n}, {n + 1}] : ({ib}) -> "
                    f"{sc.replace('f32', 'i1')}",
                    f"%mfb = {bcast('%mf', [], 'tensor<f32>', full)}",
                    f"{name} = stablehlo.select %kb, {x}, %mfb : {sc.replace('f32', 'i1')}, {sc}"]
        out = pair + [
            f"%mr = {iota(0)}",
            f"%mc0 = stablehlo.constant dense<{c}> : tensor<i32>",
            f"%mcb = {splat2('%mc0', 'tensor<i32>', two)}",
            f"%mra = stablehlo.add %mr, %mcb : {two}",
            f"%mcol = {iota(1)}",
            f"%keep = stablehlo.compare {direction}, %mra, %mcol, SIGNED : ({two}, {two}) -> {ib}",
            f"%mf = stablehlo.constant dense<{fill}> : tensor<f32>"]
        full_dims = [n, n + 1]

        def to_scores(x, src, elem):
            dst = sc.replace("f32", elem)
            if dynamic:
                return (f"stablehlo.dynamic_broadcast_in_dim {x}, %s_full, dims = {full_dims} : "
                        f"({src}, tensor<{len(full)}xi32>) -> {dst}")
            return f"stablehlo.broadcast_in_dim {x}, dims = {full_dims} : ({src}) -> {dst}"
        if form == "where":
            return out + [f"%kb = {to_scores('%keep', ib, 'i1')}",
                          f"%mfb = {bcast('%mf', [], 'tensor<f32>', full)}",
                          f"{name} = stablehlo.select %kb, {x}, %mfb : {sc.replace('f32', 'i1')}, {sc}"]
        return out + ["%mz = stablehlo.constant dense<0.0> : tensor<f32>",
                      f"%mzb = {splat2('%mz', 'tensor<f32>', fb)}",
                      f"%mfb = {splat2('%mf', 'tensor<f32>', fb)}",
                      f"%madd = stablehlo.select %keep, %mzb, %mfb : {ib}, {fb}",
                      f"%maddb = {to_scores('%madd', fb, 'f32')}",
                      f"{name} = stablehlo.add {x}, %maddb : {sc}"]
    const, op = (1 / scale, "divide") if jax_style else (scale, "multiply")
    lines += [
        f"%c = stablehlo.constant dense<{const}> : tensor<f32>",
        f"%cb = {bcast('%c', [], 'tensor<f32>', full)}",
        f"{'%l0' if mask else '%l'} = stablehlo.{op} %qk, %cb : {sc}",
        *(masked("%l0", "%l") if mask else [])]
    lines += [
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
              f"%p = stablehlo.divide %e, %sb : {sc}"]
    if safe:
        lines += [f"%sm = stablehlo.reduce(%l init: %ninf) applies stablehlo.maximum across "
                  f"dimensions = [{n + 1}] : ({sc}, tensor<f32>) -> {rows}",
                  *to_full("%sm", "smb"),
                  f"%ninfb = {bcast('%ninf', [], 'tensor<f32>', full)}",
                  f"%dead = stablehlo.compare EQ, %smb, %ninfb, FLOAT : ({sc}, {sc}) -> "
                  f"{sc.replace('f32', 'i1')}",
                  f"%zerob = {bcast('%zero', [], 'tensor<f32>', full)}",
                  f"%p2 = stablehlo.select %dead, %zerob, %p : {sc.replace('f32', 'i1')}, {sc}"]
    lines += [f"%o = stablehlo.dot_general {'%p2' if safe else '%p'}, %v, batching_dims = {list(range(n))} x "
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


# ------------------------------------------------------------------ causal masks
def masked_reference(q, k, v, scale, c, fill=-1e9):
    """scaled_reference with keys j > i + c of query i set to `fill` (jnp.where's form)."""
    q, k, v = (x.astype(np.float64) for x in (q, k, v))
    x = (q * scale) @ k.swapaxes(-1, -2)
    sq, sk = x.shape[-2:]
    x = np.where(np.arange(sk)[None, :] <= np.arange(sq)[:, None] + c, x, fill)
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return (e / e.sum(axis=-1, keepdims=True)) @ v


@pytest.mark.parametrize("form, c, fill", [
    ("where", 0, "-1.000000e+09"),  # jnp.where(jnp.tril(ones), s, -1e9): GPT-2's
    ("where", 2, "0xFF800000"),  # tril(k=2), -inf
    ("add", 0, "0xFF800000"),  # s + where(keep, 0, -inf): an additive mask
    ("constant", 1, "0xFF800000"),  # the mask a constant (torch's attn_mask = tril)
])
def test_causal_attention_is_one_kernel(form, c, fill):
    """A causal mask is part of the kernel: one aot.attention with its c, nothing else (the
    mask is never computed); numpy's result with queries = keys, fewer queries than keys (a
    cut diagonal) and more, 1-3 threads, on the packed and the few-query paths."""
    mask = (form, c, fill, "GE")
    names = loop_ops(scaled_attention((2, 3, 40, 16), (2, 3, 40, 16), 16, mask=mask),
                     "attn_causal_ops")
    assert names.count("aot.attention") == 1 and names.count("func.call") == 1
    for sq, sk, d in ((1, 1, 64), (7, 7, 64), (24, 24, 32), (65, 65, 64), (257, 257, 64),
                      (13, 300, 24), (40, 9, 8)):
        lib = aot.compile(scaled_attention((2, 3, sq, d), (2, 3, sk, d), d, 0.3, jax_style=True,
                                           mask=mask), name="attn_causal")
        rng = np.random.default_rng(sq * 1000 + sk)
        q, k, v = (rng.standard_normal((2, 3, s, d)).astype(np.float32) for s in (sq, sk, sk))
        want = masked_reference(q, k, v, 0.3, c)
        for threads in (1, 2, 3):
            lib.set_num_threads(threads)
            np.testing.assert_allclose(lib.main(q, k, v), want, rtol=2e-5, atol=2e-6)


def test_causal_attention_dynamic_lengths():
    """One library with `?` lengths (dynamic iotas and broadcasts, as jax exports a `?`
    sequence): every length pair; on 3 threads each head's queries are cut in two chunks,
    the first packing fewer keys than the second."""
    text = scaled_attention((1, 2, None, 32), (1, 2, None, 32), 32, jax_style=True,
                            mask=("where", 0, "-1.000000e+09", "GE"))
    names = loop_ops(text, "attn_causal_dyn_ops")
    assert names.count("aot.attention") == 1 and "scf.for" not in names
    lib = aot.compile(text, name="attn_causal_dyn")
    rng = np.random.default_rng(11)
    for sq, sk in ((1, 1), (1, 257), (5, 5), (17, 17), (65, 65), (200, 9), (300, 300)):
        q = rng.standard_normal((1, 2, sq, 32)).astype(np.float32)
        k, v = (rng.standard_normal((1, 2, sk, 32)).astype(np.float32) for _ in range(2))
        for threads in (1, 3):
            lib.set_num_threads(threads)
            np.testing.assert_allclose(lib.main(q, k, v), masked_reference(q, k, v, 0.125, 0),
                                       rtol=2e-5, atol=2e-6)


@pytest.mark.parametrize("mask", [
    ("where", 0, "-1.000000e+00", "GE"),  # a fill whose exp is not 0: its keys count
    ("where", -1, "-1.000000e+09", "GE"),  # the first row has no key
    ("where", 0, "-1.000000e+09", "LE"),  # keys at or after the query (not causal)
])
def test_other_masks_are_read_as_boolean_tensors(mask):
    """Masks that are not causal in the kernel's sense (a fill whose exp counts, a row with no
    key kept, keys after the query) are computed as a boolean tensor, which the kernel reads:
    where it is false the score is the fill, as jnp.where gives (tests/codegen/
    test_attention_bias.py has the padding masks)."""
    text = scaled_attention((1, 2, 9, 16), (1, 2, 9, 16), 16, jax_style=True, mask=mask)
    names = loop_ops(text, "attn_other_mask_ops")
    assert names.count("aot.attention") == 1 and "aot.gemm" not in names
    lib = aot.compile(text, name="attn_other_mask")
    rng = np.random.default_rng(5)
    q, k, v = (rng.standard_normal((1, 2, 9, 16)).astype(np.float32) for _ in range(3))
    _, c, fill, direction = mask
    q64, k64, v64 = (x.astype(np.float64) for x in (q, k, v))
    x = (q64 * 0.125) @ k64.swapaxes(-1, -2)
    rows, cols = np.arange(9)[:, None] + c, np.arange(9)[None, :]
    keep = rows >= cols if direction == "GE" else rows <= cols
    x = np.where(keep, x, float(fill))
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    np.testing.assert_allclose(lib.main(q, k, v), (e / e.sum(axis=-1, keepdims=True)) @ v64,
                               rtol=2e-5, atol=2e-6)


def test_batch_one_export_form_is_fused():
    """As a static batch-1 export leaves it: 3-D dots around a 4-D softmax (unit dims added
    and dropped by a broadcast and a reshape), k^T a transpose behind a reshape (the kernel
    reads the transpose's input), a causal mask: one kernel, numpy's result."""
    s4, s3, k4, kt4, kt3 = ("tensor<1x4x40x40xf32>", "tensor<4x40x40xf32>", "tensor<1x4x40x16xf32>",
                            "tensor<1x4x16x40xf32>", "tensor<4x16x40xf32>")
    q3, m2 = "tensor<4x40x16xf32>", "tensor<40x40xi32>"
    text = f"""func.func @main(%q: {q3}, %k: {k4}, %v: {q3}) -> {q3} {{
  %kt = stablehlo.transpose %k, dims = [0, 1, 3, 2] : ({k4}) -> {kt4}
  %kt3 = stablehlo.reshape %kt : ({kt4}) -> {kt3}
  %qk = stablehlo.dot_general %q, %kt3, batching_dims = [0] x [0], contracting_dims = [2] x [1] : ({q3}, {kt3}) -> {s3}
  %qk4 = stablehlo.broadcast_in_dim %qk, dims = [1, 2, 3] : ({s3}) -> {s4}
  %c = stablehlo.constant dense<4.0> : tensor<f32>
  %cb = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<f32>) -> {s4}
  %l0 = stablehlo.divide %qk4, %cb : {s4}
  %r = stablehlo.iota dim = 0 : {m2}
  %col = stablehlo.iota dim = 1 : {m2}
  %keep = stablehlo.compare GE, %r, %col, SIGNED : ({m2}, {m2}) -> tensor<40x40xi1>
  %kb = stablehlo.broadcast_in_dim %keep, dims = [2, 3] : (tensor<40x40xi1>) -> tensor<1x4x40x40xi1>
  %f = stablehlo.constant dense<-1.0e+09> : tensor<f32>
  %fb = stablehlo.broadcast_in_dim %f, dims = [] : (tensor<f32>) -> {s4}
  %l = stablehlo.select %kb, %l0, %fb : tensor<1x4x40x40xi1>, {s4}
  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %m = stablehlo.reduce(%l init: %ninf) applies stablehlo.maximum across dimensions = [3] : ({s4}, tensor<f32>) -> tensor<1x4x40xf32>
  %mb = stablehlo.broadcast_in_dim %m, dims = [0, 1, 2] : (tensor<1x4x40xf32>) -> {s4}
  %e0 = stablehlo.subtract %l, %mb : {s4}
  %e = stablehlo.exponential %e0 : {s4}
  %s = stablehlo.reduce(%e init: %zero) applies stablehlo.add across dimensions = [3] : ({s4}, tensor<f32>) -> tensor<1x4x40xf32>
  %sb = stablehlo.broadcast_in_dim %s, dims = [0, 1, 2] : (tensor<1x4x40xf32>) -> {s4}
  %p = stablehlo.divide %e, %sb : {s4}
  %p3 = stablehlo.reshape %p : ({s4}) -> {s3}
  %o = stablehlo.dot_general %p3, %v, batching_dims = [0] x [0], contracting_dims = [2] x [1] : ({s3}, {q3}) -> {q3}
  return %o : {q3}
}}"""  # noqa: E501
    names = loop_ops(text, "attn_batch1_ops")
    assert names.count("aot.attention") == 1 and names.count("func.call") == 1
    lib = aot.compile(text, name="attn_batch1")
    rng = np.random.default_rng(2)
    q, v = (rng.standard_normal((4, 40, 16)).astype(np.float32) for _ in range(2))
    k = rng.standard_normal((1, 4, 40, 16)).astype(np.float32)
    for threads in (1, 2):
        lib.set_num_threads(threads)
        np.testing.assert_allclose(lib.main(q, k, v), masked_reference(q, k[0], v, 0.25, 0),
                                   rtol=2e-5, atol=2e-6)


@pytest.mark.parametrize("safe", [True, False])
def test_rows_of_minus_inf(safe):
    """PyTorch's safe softmax (the torch door's form: rows whose max is -inf give zeros) is
    part of the kernel; without it such a row is NaN, as jax.nn.softmax gives. A causal mask
    filled with -inf, and one head whose keys are all -inf."""
    mask = ("where", 0, "0xFF800000", "GE")
    text = scaled_attention((1, 2, None, 16), (1, 2, None, 16), 16, mask=mask, safe=safe)
    assert loop_ops(text, "attn_safe_ops").count("aot.attention") == 1
    lib = aot.compile(text, name="attn_safe")
    rng = np.random.default_rng(4)
    for s in (5, 40):
        q = np.abs(rng.standard_normal((1, 2, s, 16))).astype(np.float32) + 0.1
        k, v = (rng.standard_normal((1, 2, s, 16)).astype(np.float32) for _ in range(2))
        k[0, 1] = -np.inf  # head 1: every score -inf
        want = masked_reference(q[:, :1], k[:, :1], v[:, :1], 0.125, 0)
        got = lib.main(q, k, v)
        np.testing.assert_allclose(got[:, :1], want, rtol=2e-5, atol=2e-6)
        if safe:
            assert np.array_equal(got[:, 1], np.zeros((1, s, 16), np.float32))
        else:
            assert np.isnan(got[:, 1]).all()
