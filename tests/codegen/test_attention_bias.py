"""A bias added to the scaled scores inside the fused attention kernel (passes/attention.py,
codegen/cpu/attention.py): BERT's padding mask (0 and the float's minimum over [b, sk]), T5's
position bias ([1, h, sq, sk]), a full [b, h, sq, sk] tensor, 3-D scores; static and `?` dims;
the packed and the few-query paths; rows the bias masks entirely. Checked against numpy, and
on the loops text: one aot.attention with a fifth operand, never the [b, h, sq, sk] sum."""
import numpy as np
import pytest

import aot

MIN = float(np.finfo(np.float32).min)


def _t(shape, elem="f32"):
    return "tensor<" + "x".join("?" if x is None else str(x) for x in shape) + f"x{elem}>"


def biased_attention(q_shape, k_shape, bias_shape, bias_dims, scale=0.125, causal=False,
                     where=None) -> str:
    """softmax(q k^T * scale + broadcast(bias, bias_dims)) v, q and k [..., s, d]; a `?` (None)
    in a shape makes the broadcasts dynamic (their shape read off the scores). `causal`: the
    scaled scores first masked to keys <= query by jnp.where's form. `where` = (fill, kept):
    the bias is a boolean mask instead, the scores where it is `kept`, else fill (MLIR's
    spelling of an f32), as jnp.where(mask, s, fill) (kept True) writes it."""
    *batch, sq, d = q_shape
    n = len(batch)
    full, rows = (*batch, sq, k_shape[-2]), (*batch, sq)
    sc, rw, bias_t = _t(full), _t(rows), _t(bias_shape, "i1" if where else "f32")
    dynamic = None in full
    lines = [f"%qk = stablehlo.dot_general %q, %k, batching_dims = {list(range(n))} x "
             f"{list(range(n))}, contracting_dims = [{n + 1}] x [{n + 1}] : ({_t(q_shape)}, "
             f"{_t(k_shape)}) -> {sc}"]
    if dynamic:
        for i in range(n + 2):
            lines += [f"%n{i} = stablehlo.get_dimension_size %qk, dim = {i} : ({sc}) -> tensor<i32>",
                      f"%d{i} = stablehlo.reshape %n{i} : (tensor<i32>) -> tensor<1xi32>"]
        for name, count in (("full", n + 2), ("rows", n + 1)):
            parts = ", ".join(f"%d{i}" for i in range(count))
            lines.append(f"%s_{name} = stablehlo.concatenate {parts}, dim = 0 : "
                         f"({', '.join(['tensor<1xi32>'] * count)}) -> tensor<{count}xi32>")

    def bcast(x, dims, src, dst, shape):
        if dynamic:
            return (f"stablehlo.dynamic_broadcast_in_dim {x}, %s_{shape}, dims = {dims} : ({src}, "
                    f"tensor<{len(dst)}xi32>) -> {_t(dst)}")
        return f"stablehlo.broadcast_in_dim {x}, dims = {dims} : ({src}) -> {_t(dst)}"
    lines += ["%c = stablehlo.constant dense<" + repr(float(scale)) + "> : tensor<f32>",
              f"%cb = {bcast('%c', [], 'tensor<f32>', full, 'full')}",
              f"%l0 = stablehlo.multiply %qk, %cb : {sc}"]
    scaled = "%l0"
    if causal:
        pair, keep = _t(full[-2:], "i32"), _t(full[-2:], "i1")
        lines += [f"%r = stablehlo.iota dim = 0 : {pair}", f"%col = stablehlo.iota dim = 1 : {pair}",
                  f"%keep = stablehlo.compare GE, %r, %col, SIGNED : ({pair}, {pair}) -> {keep}",
                  f"%kb = stablehlo.broadcast_in_dim %keep, dims = [{n}, {n + 1}] : "
                  f"({keep}) -> {_t(full, 'i1')}",
                  "%f = stablehlo.constant dense<-1.0e+09> : tensor<f32>",
                  f"%fb = {bcast('%f', [], 'tensor<f32>', full, 'full')}",
                  f"%lm = stablehlo.select %kb, %l0, %fb : {_t(full, 'i1')}, {sc}"]
        scaled = "%lm"
    bias = "%bias"
    if tuple(bias_shape) != full:
        lines.append(f"%bb = {bcast('%bias', list(bias_dims), bias_t, full, 'full')}"
                     .replace(f"-> {sc}", f"-> {_t(full, 'i1')}" if where else f"-> {sc}"))
        bias = "%bb"
    if where:
        fill, kept = where
        pair = f"{scaled}, %fb0" if kept else f"%fb0, {scaled}"
        lines += [f"%f0 = stablehlo.constant dense<{fill}> : tensor<f32>",
                  f"%fb0 = {bcast('%f0', [], 'tensor<f32>', full, 'full')}",
                  f"%l = stablehlo.select {bias}, {pair} : {_t(full, 'i1')}, {sc}"]
    else:
        lines.append(f"%l = stablehlo.add {scaled}, {bias} : {sc}")
    lines += [
              "%ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>",
              "%zero = stablehlo.constant dense<0.0> : tensor<f32>",
              f"%m = stablehlo.reduce(%l init: %ninf) applies stablehlo.maximum across dimensions "
              f"= [{n + 1}] : ({sc}, tensor<f32>) -> {rw}",
              f"%mb = {bcast('%m', list(range(n + 1)), rw, full, 'full')}",
              f"%e0 = stablehlo.subtract %l, %mb : {sc}",
              f"%e = stablehlo.exponential %e0 : {sc}",
              f"%s = stablehlo.reduce(%e init: %zero) applies stablehlo.add across dimensions = "
              f"[{n + 1}] : ({sc}, tensor<f32>) -> {rw}",
              f"%sb = {bcast('%s', list(range(n + 1)), rw, full, 'full')}",
              f"%p = stablehlo.divide %e, %sb : {sc}",
              f"%o = stablehlo.dot_general %p, %v, batching_dims = {list(range(n))} x "
              f"{list(range(n))}, contracting_dims = [{n + 1}] x [{n}] : ({sc}, {_t(k_shape)}) -> "
              f"{_t(q_shape)}"]
    body = "\n  ".join(lines)
    return (f"func.func @main(%q: {_t(q_shape)}, %k: {_t(k_shape)}, %v: {_t(k_shape)}, "
            f"%bias: {bias_t}) -> {_t(q_shape)} {{\n  {body}\n  return %o : {_t(q_shape)}\n}}")


def reference(q, k, v, bias_full, scale=0.125, causal=False):
    """numpy's result in f32 for the scores plus bias (the float's minimum absorbs the score
    as in the program), then the softmax and the product in f64."""
    x = (q.astype(np.float64) @ k.astype(np.float64).swapaxes(-1, -2)).astype(np.float32)
    x = x * np.float32(scale)
    if causal:
        sq, sk = x.shape[-2:]
        x = np.where(np.arange(sk)[None, :] <= np.arange(sq)[:, None], x, np.float32(-1e9))
    x = (x + bias_full).astype(np.float64)
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return (e / e.sum(axis=-1, keepdims=True)) @ v.astype(np.float64)


def loop_ops(text: str, name: str) -> list:
    from aot.driver import Compilation, Options
    module = Compilation(text, f"{name}.mlir", Options(name=name, emit="loops")).loops()
    return [op for top in module.ops for op in top.walk()]


def padding_bias(rng, b, sk, lengths=None):
    """[b, sk]: 0 for the first lengths[i] keys of row i, the float's minimum after them."""
    lengths = rng.integers(1, sk + 1, b) if lengths is None else np.asarray(lengths)
    return np.where(np.arange(sk)[None, :] < lengths[:, None], 0.0, MIN).astype(np.float32)


def one_kernel(text, name):
    ops = loop_ops(text, name)
    kernels = [op for op in ops if op.name == "aot.attention"]
    assert len(kernels) == 1 and len(kernels[0].operands) == 5, [op.name for op in ops]
    assert "aot.gemm" not in [op.name for op in ops]  # nothing left of the three kernels
    return kernels[0]


@pytest.mark.parametrize("sq, sk, d", [(1, 300, 64), (7, 7, 16), (40, 40, 32), (65, 130, 64)])
def test_padding_mask_in_the_kernel(sq, sk, d):
    """BERT's padding mask over [b, sk], broadcast along heads and queries: one kernel whose
    bias is the [2, sk] input itself; the few-query (sq 1) and packed paths, 1-3 threads."""
    b, h = 2, 3
    text = biased_attention((b, h, sq, d), (b, h, sk, d), (b, sk), [0, 3])
    kernel = one_kernel(text, "attn_pad_ops")
    assert kernel.attrs["bias_dims"] == [0, 3]
    lib = aot.compile(text, name="attn_pad")
    rng = np.random.default_rng(sq + sk)
    q = rng.standard_normal((b, h, sq, d)).astype(np.float32)
    k, v = (rng.standard_normal((b, h, sk, d)).astype(np.float32) for _ in range(2))
    bias = padding_bias(rng, b, sk, [sk, max(1, sk // 3)])
    want = reference(q, k, v, bias[:, None, None, :])
    for threads in (1, 2, 3):
        lib.set_num_threads(threads)
        np.testing.assert_allclose(lib.main(q, k, v, bias), want, rtol=2e-5, atol=2e-6)


def test_padding_mask_dynamic_batch_and_lengths():
    """`?` batch and lengths (dynamic broadcasts): one library, every shape, the bias's batch
    dim 1 at run time against a batch of 3 (a broadcast the kernel reads with stride 0)."""
    text = biased_attention((None, 2, None, 32), (None, 2, None, 32), (None, None), [0, 3])
    one_kernel(text, "attn_pad_dyn_ops")
    lib = aot.compile(text, name="attn_pad_dyn")
    rng = np.random.default_rng(9)
    for b, sq, sk, bias_b in ((1, 1, 1, 1), (3, 1, 257, 1), (2, 24, 24, 2), (3, 65, 65, 3)):
        q = rng.standard_normal((b, 2, sq, 32)).astype(np.float32)
        k, v = (rng.standard_normal((b, 2, sk, 32)).astype(np.float32) for _ in range(2))
        bias = padding_bias(rng, bias_b, sk)
        np.testing.assert_allclose(lib.main(q, k, v, bias), reference(q, k, v, bias[:, None, None, :]),
                                   rtol=2e-5, atol=2e-6)


@pytest.mark.parametrize("bias_shape, dims", [
    ((1, 3, 24, 24), [0, 1, 2, 3]),  # T5's position bias: one per head, broadcast over the batch
    ((2, 3, 24, 24), [0, 1, 2, 3]),  # a full tensor: no broadcast at all
    ((24, 24), [2, 3]),  # one [sq, sk] bias for every batch index and head
    ((2, 1, 24), [0, 1, 3]),  # a padding mask as [b, 1, sk]
    ((2, 3, 24, 1), [0, 1, 2, 3]),  # one value per query: the keys' stride 0 (a scalar loop)
])
def test_other_biases_in_the_kernel(bias_shape, dims):
    rng = np.random.default_rng(len(bias_shape) + dims[0])
    text = biased_attention((2, 3, 24, 16), (2, 3, 24, 16), bias_shape, dims)
    one_kernel(text, "attn_bias_ops")
    lib = aot.compile(text, name="attn_bias")
    q, k, v = (rng.standard_normal((2, 3, 24, 16)).astype(np.float32) for _ in range(3))
    bias = rng.standard_normal(bias_shape).astype(np.float32) * 3
    full = np.broadcast_to(bias.reshape([bias_shape[dims.index(i)] if i in dims else 1 for i in range(4)]),
                           (2, 3, 24, 24))
    np.testing.assert_allclose(lib.main(q, k, v, bias), reference(q, k, v, full), rtol=2e-5, atol=2e-6)


def test_three_dim_scores():
    """Scores [b * h, sq, sk] (one batch dim) with a [sq, sk] bias."""
    text = biased_attention((6, 20, 16), (6, 20, 16), (20, 20), [1, 2])
    one_kernel(text, "attn_bias3_ops")
    lib = aot.compile(text, name="attn_bias3")
    rng = np.random.default_rng(12)
    q, k, v = (rng.standard_normal((6, 20, 16)).astype(np.float32) for _ in range(3))
    bias = rng.standard_normal((20, 20)).astype(np.float32)
    np.testing.assert_allclose(lib.main(q, k, v, bias), reference(q, k, v, bias), rtol=2e-5, atol=2e-6)


def test_rows_the_bias_masks_entirely():
    """A batch row whose every key has the float's minimum: each score plus it rounds to the
    minimum, so the program's softmax is uniform over the keys; the kernel adds the same way."""
    text = biased_attention((2, 2, 9, 16), (2, 2, 9, 16), (2, 9), [0, 3])
    lib = aot.compile(text, name="attn_bias_all")
    rng = np.random.default_rng(13)
    q, k, v = (rng.standard_normal((2, 2, 9, 16)).astype(np.float32) for _ in range(3))
    bias = padding_bias(rng, 2, 9, [4, 9])
    bias[0] = MIN
    got = lib.main(q, k, v, bias)
    np.testing.assert_allclose(got, reference(q, k, v, bias[:, None, None, :]), rtol=2e-5, atol=2e-6)
    np.testing.assert_allclose(got[0], np.broadcast_to(v[0].mean(axis=1, keepdims=True), (2, 9, 16)),
                               rtol=1e-5, atol=1e-6)


def test_causal_mask_and_bias_stay_three_kernels():
    """A causal mask and a bias in one pattern are not fused (a row the bias masks entirely
    would see the keys past its diagonal in the program's result): three kernels, numpy's
    result, that row included."""
    text = biased_attention((1, 2, 9, 16), (1, 2, 9, 16), (1, 9), [0, 3], causal=True)
    assert "aot.attention" not in [op.name for op in loop_ops(text, "attn_causal_bias_ops")]
    lib = aot.compile(text, name="attn_causal_bias")
    rng = np.random.default_rng(14)
    q, k, v = (rng.standard_normal((1, 2, 9, 16)).astype(np.float32) for _ in range(3))
    bias = padding_bias(rng, 1, 9, [5])
    bias[0, :3] = MIN  # query 0..2 see only masked keys
    np.testing.assert_allclose(lib.main(q, k, v, bias),
                               reference(q, k, v, bias[:, None, None, :], causal=True),
                               rtol=2e-5, atol=2e-6)



def where_reference(q, k, v, keep_full, fill, scale=0.125):
    """numpy's result for jnp.where(keep, s * scale, fill) then the softmax and the product."""
    x = (q.astype(np.float64) @ k.astype(np.float64).swapaxes(-1, -2)) * scale
    x = np.where(keep_full, x, fill)
    with np.errstate(invalid="ignore"):  # a row of -inf: NaN, as the program gives
        e = np.exp(x - x.max(axis=-1, keepdims=True))
        return (e / e.sum(axis=-1, keepdims=True)) @ v.astype(np.float64)


@pytest.mark.parametrize("fill, kept", [
    ("-3.40282347E+38", True),  # Flax's jnp.where(mask, s, finfo.min)
    ("-1.000000e+09", False),  # where(not_mask, -1e9, s): the mask keeps where it is false
    ("0xFF800000", True),  # -inf (a row masked entirely is NaN, as in the program)
])
def test_boolean_padding_mask_in_the_kernel(fill, kept):
    """A boolean [b, sk] padding mask selecting between the scores and a fill: one kernel
    reading the mask's bytes in place; numpy's result on the packed and few-query paths,
    static and with `?` batch and lengths, a batch row masked entirely (uniform over its keys,
    or NaN for a fill of -inf)."""
    value = -np.inf if fill == "0xFF800000" else float(fill)
    for shapes in (((2, 3, 40, 32), (2, 3, 40, 32), (2, 40)),
                   ((None, 2, None, 16), (None, 2, None, 16), (None, None))):
        q_shape, k_shape, bias_shape = shapes
        text = biased_attention(q_shape, k_shape, bias_shape, [0, 3], where=(fill, kept))
        kernel = one_kernel(text, "attn_bool_ops")
        assert kernel.attrs["keep_if"] == int(kept)
        lib = aot.compile(text, name="attn_bool")
        rng = np.random.default_rng(21)
        for b, sq, sk in ((2, 40, 40),) if q_shape[0] else ((1, 1, 9), (3, 1, 257), (3, 33, 33)):
            d = q_shape[-1]
            q = rng.standard_normal((b, q_shape[1], sq, d)).astype(np.float32)
            k, v = (rng.standard_normal((b, q_shape[1], sk, d)).astype(np.float32) for _ in range(2))
            keep = padding_bias(rng, b, sk) == 0
            keep[-1] = b == 1  # the last row masked entirely (kept whole at batch 1)
            mask = keep if kept else ~keep
            want = where_reference(q, k, v, keep[:, None, None, :], value)
            for threads in (1, 2):
                lib.set_num_threads(threads)
                got = lib.main(q, k, v, mask)
                rows = b - 1 if np.isneginf(value) and b > 1 else b
                assert np.isnan(got[rows:]).all()
                np.testing.assert_allclose(got[:rows], want[:rows], rtol=2e-5, atol=2e-6)
