"""The two whole models of the CPU-speed issue, written in JAX: a small GPT-style decoder and a
small ResNet-style CNN. benchmarks/models.py exports them with `jax.export` and times this
project's library against `jax.jit` (XLA) on the same weights; without JAX it reads the
exports saved in benchmarks/data/ (written by `python benchmarks/model_defs.py`).

JAX is never a dependency of the compiler: this file is imported only where JAX is installed.
"""
from __future__ import annotations

import os
from functools import partial

import numpy as np

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data")

# GPT: vocabulary, context, width, heads, layers
GPT = dict(vocab=512, seq=128, d=256, heads=4, layers=4)
# the same decoder with 100 MB of weights: issue 15's frozen-model compile-time goal
GPT_100MB = dict(GPT, d=512, heads=8, layers=8)
# CNN: 32x32x3 images, channels per stage, residual blocks per stage, classes
CNN = dict(hw=32, channels=(32, 64), blocks=2, classes=10)


def gpt_weights(rng, g=GPT) -> dict:
    d, v = g["d"], g["vocab"]

    def w(*shape):
        return (rng.standard_normal(shape) / np.sqrt(shape[0])).astype(np.float32)
    p = {"embed": w(v, d), "pos": w(g["seq"], d) * 0.1}
    for i in range(g["layers"]):
        p |= {f"ln1_{i}": np.ones(d, np.float32), f"qkv_{i}": w(d, 3 * d), f"proj_{i}": w(d, d),
              f"ln2_{i}": np.ones(d, np.float32), f"up_{i}": w(d, 4 * d), f"down_{i}": w(4 * d, d)}
    p["lnf"] = np.ones(d, np.float32)
    return p


def cnn_weights(rng) -> dict:
    c = CNN

    def w(*shape):
        fan_in = int(np.prod(shape[:-1]))
        return (rng.standard_normal(shape) * np.sqrt(2.0 / fan_in)).astype(np.float32)
    p, cin = {"stem": w(3, 3, 3, c["channels"][0])}, c["channels"][0]
    for s, ch in enumerate(c["channels"]):
        if ch != cin:
            p[f"proj_{s}"] = w(1, 1, cin, ch)
        for b in range(c["blocks"]):
            p[f"conv{s}_{b}_a"] = w(3, 3, ch, ch)
            p[f"conv{s}_{b}_b"] = w(3, 3, ch, ch)
        cin = ch
    p["head"] = w(cin, c["classes"])
    return p


def gpt_forward(p: dict, tokens, g=GPT):
    """Token embedding gather, causal attention, layernorm, GELU MLP, tied output projection."""
    import jax
    import jax.numpy as jnp
    d, h = g["d"], g["heads"]
    t = tokens.shape[-1]

    def layernorm(x, scale):
        mu = x.mean(-1, keepdims=True)
        var = ((x - mu) ** 2).mean(-1, keepdims=True)
        return (x - mu) * jax.lax.rsqrt(var + 1e-5) * scale

    x = p["embed"][tokens] + p["pos"][:t]
    mask = jnp.tril(jnp.ones((t, t), bool))
    for i in range(g["layers"]):
        y = layernorm(x, p[f"ln1_{i}"])
        q, k, v = jnp.split(y @ p[f"qkv_{i}"], 3, axis=-1)
        q, k, v = (a.reshape(t, h, d // h).transpose(1, 0, 2) for a in (q, k, v))
        scores = q @ k.transpose(0, 2, 1) / np.sqrt(d // h)
        scores = jnp.where(mask, scores, -1e9)
        att = jax.nn.softmax(scores, axis=-1) @ v
        x = x + att.transpose(1, 0, 2).reshape(t, d) @ p[f"proj_{i}"]
        y = layernorm(x, p[f"ln2_{i}"])
        x = x + jax.nn.gelu(y @ p[f"up_{i}"]) @ p[f"down_{i}"]
    return layernorm(x, p["lnf"]) @ p["embed"].T


def cnn_forward(p: dict, images):
    """3x3 convolutions, residual adds, 1x1 projections, max pooling, global mean, log-softmax."""
    import jax
    import jax.numpy as jnp
    c = CNN

    def conv(x, w):
        return jax.lax.conv_general_dilated(x, w, (1, 1), "SAME",
                                            dimension_numbers=("NHWC", "HWIO", "NHWC"))
    x = jax.nn.relu(conv(images, p["stem"]))
    cin = c["channels"][0]
    for s, ch in enumerate(c["channels"]):
        if ch != cin:
            x = jax.lax.reduce_window(x, -jnp.inf, jax.lax.max, (1, 2, 2, 1), (1, 2, 2, 1), "VALID")
            x = conv(x, p[f"proj_{s}"])
        for b in range(c["blocks"]):
            y = jax.nn.relu(conv(x, p[f"conv{s}_{b}_a"]))
            x = jax.nn.relu(x + conv(y, p[f"conv{s}_{b}_b"]))
        cin = ch
    return jax.nn.log_softmax(x.mean(axis=(1, 2)) @ p["head"], axis=-1)


MODELS = {
    # name: (weights, forward, example input maker)
    "gpt_decoder": (gpt_weights, gpt_forward,
                    lambda rng: rng.integers(0, GPT["vocab"], GPT["seq"]).astype(np.int32)),
    "gpt_decoder_100mb": (partial(gpt_weights, g=GPT_100MB), partial(gpt_forward, g=GPT_100MB),
                          lambda rng: rng.integers(0, GPT["vocab"], GPT["seq"]).astype(np.int32)),
    "resnet_cnn": (cnn_weights, cnn_forward,
                   lambda rng: rng.standard_normal((8, CNN["hw"], CNN["hw"], 3)).astype(np.float32)),
}


def export_text(name: str) -> str:
    """The model with its weights as arguments (sorted by name, then the input), as
    `jax.export` prints it."""
    import jax
    from jax import export
    weights, forward, make_input = MODELS[name]
    rng = np.random.default_rng(0)
    p = weights(rng)
    names = sorted(p)

    def f(*args):
        return forward(dict(zip(names, args[:-1])), args[-1])
    specs = [jax.ShapeDtypeStruct(p[k].shape, p[k].dtype) for k in names]
    x = make_input(rng)
    specs.append(jax.ShapeDtypeStruct(x.shape, x.dtype))
    jax.config.update("jax_include_debug_info_in_dumps", False)
    return export.export(jax.jit(f))(*specs).mlir_module()


if __name__ == "__main__":  # write benchmarks/data/NAME.mlir (needs JAX)
    os.makedirs(DATA, exist_ok=True)
    for model in MODELS:
        with open(os.path.join(DATA, f"{model}.mlir"), "w") as out:
            out.write(export_text(model))
        print("wrote", os.path.join(DATA, f"{model}.mlir"))
