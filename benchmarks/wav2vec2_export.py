"""The wav2vec2-style encoder whose compile time benchmarks/README.md reports: 1-D convs
(kernel 10 stride 5, kernel 3 stride 2), a grouped 1-D conv positional embedding, 2
transformer layers, written with `jax.export` static (1 x 1200) and with a `?` batch and length
into OUT (argv[1]) as w2v_static.mlir and w2v_dynamic.mlir. Needs JAX:

    /work/jaxenv/bin/python benchmarks/wav2vec2_export.py /tmp/w2v
    .venv/bin/python benchmarks/compile_time.py --files /tmp/w2v/w2v_static.mlir /tmp/w2v/w2v_dynamic.mlir
"""
import os
import sys

import jax
import jax.numpy as jnp
import numpy as np
from jax import export

OUT = sys.argv[1] if len(sys.argv) > 1 else "."
rng = np.random.default_rng(0)
C, H, FF, HEADS, G = 128, 128, 256, 4, 8
def p(*shape, s=0.05):
    return jnp.asarray(rng.standard_normal(shape).astype(np.float32) * s)
W = {
    "c1": p(10, 1, C), "c2": p(3, C, C), "c3": p(3, C, C),
    "proj": p(C, H), "pos": p(16, H // G, H),
    "layers": [{k: p(*s) for k, s in (("q", (H, H)), ("k", (H, H)), ("v", (H, H)), ("o", (H, H)),
                                       ("f1", (H, FF)), ("f2", (FF, H)), ("g1", (H,)), ("g2", (H,)))}
               for _ in range(2)],
}
DN = ("NWC", "WIO", "NWC")
def ln(x, g):
    m = x.mean(-1, keepdims=True)
    v = ((x - m) ** 2).mean(-1, keepdims=True)
    return (x - m) * jax.lax.rsqrt(v + 1e-5) * g
def f(audio):
    x = audio[..., None]
    x = jax.nn.gelu(jax.lax.conv_general_dilated(x, W["c1"], (5,), "VALID", dimension_numbers=DN))
    x = jax.nn.gelu(jax.lax.conv_general_dilated(x, W["c2"], (2,), "VALID", dimension_numbers=DN))
    x = jax.nn.gelu(jax.lax.conv_general_dilated(x, W["c3"], (2,), "VALID", dimension_numbers=DN))
    x = x @ W["proj"]
    pos = jax.lax.conv_general_dilated(x, W["pos"], (1,), [(8, 7)], dimension_numbers=DN,
                                       feature_group_count=G)
    x = x + jax.nn.gelu(pos)
    b, t = x.shape[0], x.shape[1]
    for L in W["layers"]:
        h = ln(x, L["g1"])
        q, k, v = ((h @ L[n]).reshape(b, t, HEADS, H // HEADS) for n in "qkv")
        s = jnp.einsum("bqhd,bkhd->bhqk", q, k) / np.sqrt(H // HEADS)
        a = jnp.einsum("bhqk,bkhd->bqhd", jax.nn.softmax(s, -1), v).reshape(b, t, H)
        x = x + a @ L["o"]
        x = x + jax.nn.gelu(ln(x, L["g2"]) @ L["f1"]) @ L["f2"]
    return x
n = sum(int(np.prod(a.shape)) for a in jax.tree_util.tree_leaves(W))
print("params", n)
for form, spec in (("static", jax.ShapeDtypeStruct((1, 1200), jnp.float32)),
                   ("dynamic", jax.ShapeDtypeStruct(export.symbolic_shape("b, n"), jnp.float32))):
    e = export.export(jax.jit(f))(spec)
    with open(os.path.join(OUT, f"w2v_{form}.mlir"), "w") as out:
        out.write(e.mlir_module())
