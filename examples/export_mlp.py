"""Export the shipped example program: a small MLP as StableHLO text.

Run with a Python that has JAX installed (JAX is not a dependency of this
project, only a tool to produce test programs):

    python3 -m venv /tmp/jaxenv && /tmp/jaxenv/bin/pip install jax jaxlib numpy
    /tmp/jaxenv/bin/python examples/export_mlp.py

Writes, next to this script:
  mlp.mlir  pretty StableHLO text as `jax.jit(f).lower(x).as_text()` prints it,
            entry function `@main(x)`, weights embedded as hex
            `stablehlo.constant dense<"0x...">` (no elided constants).
  mlp.npz   W1, b1, W2, b2, W3, b3 (the embedded weights), the input `x`
            (f32[8, 64]) and JAX's output `y` (f32[8, 10]), so a demo can
            recompute the forward pass in numpy and compare.

Model: x f32[8,64] -> dense 64->128 + relu -> dense 128->32 + tanh
       -> dense 32->10 -> softmax over the last axis.
"""

import os

import jax
import jax.numpy as jnp
import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))


def make_params(seed=0):
    rng = np.random.default_rng(seed)

    def dense(n_in, n_out):
        # Glorot-ish scaling keeps activations in a sensible range.
        w = rng.standard_normal((n_in, n_out)) * np.sqrt(2.0 / (n_in + n_out))
        b = rng.standard_normal((n_out,)) * 0.1
        return w.astype(np.float32), b.astype(np.float32)

    W1, b1 = dense(64, 128)
    W2, b2 = dense(128, 32)
    W3, b3 = dense(32, 10)
    return dict(W1=W1, b1=b1, W2=W2, b2=b2, W3=W3, b3=b3)


def main():
    p = make_params(0)
    x = np.random.default_rng(1).standard_normal((8, 64)).astype(np.float32)

    # Weights are closed over (numpy arrays), so JAX embeds them as constants.
    def mlp(x):
        h = jax.nn.relu(x @ p["W1"] + p["b1"])
        h = jnp.tanh(h @ p["W2"] + p["b2"])
        logits = h @ p["W3"] + p["b3"]
        return jax.nn.softmax(logits, axis=-1)

    lowered = jax.jit(mlp).lower(x)
    text = lowered.as_text()
    for bad in ("dense_resource", "{...}", "__elided__"):
        assert bad not in text, f"elided constant in module: {bad!r}"
    assert 'dense<"0x' in text, "expected hex-printed weight constants"
    assert "func.func public @main(" in text

    y = np.asarray(jax.jit(mlp)(x))

    with open(os.path.join(HERE, "mlp.mlir"), "w") as f:
        f.write(text)
    np.savez(os.path.join(HERE, "mlp.npz"), x=x, y=y, **p)
    print(f"wrote mlp.mlir ({len(text)} bytes) and mlp.npz; y shape {y.shape}")


if __name__ == "__main__":
    main()
