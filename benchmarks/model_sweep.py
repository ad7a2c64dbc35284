"""Issue 28's kinds of programs, swept over sizes, against XLA compiled for each exact shape.

    /work/jaxenv/bin/python benchmarks/model_sweep.py [--quick] [--programs vit,mlp]
                                                      [--threads N] [--reps N]

Seven programs, written here in JAX from the issue's descriptions (weights frozen in as
constants, as a deployed model is): a ViT-style encoder, a wav2vec2-style audio encoder, GPT-2-,
BERT- and Llama-like (RoPE, grouped-query attention) text models, a DenseNet-like block stack
at 64x64 and the MLP 1024->4096->1024. Each is exported through `jax.export` twice: once per
exact shape (static), and once with a symbolic batch (and sequence or length, for text and
audio). Per size the script times this project's static library for that shape, its one
dynamic library, and `jax.jit` compiled for that shape, all in one process; then prints per
program the worst ratio ours / XLA over the sizes, static and dynamic, with the compile times
(ours static, median over shapes; ours dynamic, once; XLA, median over shapes) beside.

A benchmark, not a test: it asserts nothing about time. Every library's result is checked
against XLA's (a mismatch is printed, not hidden). Needs JAX (never a dependency of aotc).
`--quick` (what `make bench` runs) sweeps two sizes per program.
"""
from __future__ import annotations

import sys

from threads import configure_threads, threads_arg

THREADS = threads_arg(sys.argv)
PINNED = configure_threads(THREADS) if THREADS > 1 else None

import bench_env  # noqa: E402  one thread everywhere unless fixed above; before numpy and jax

# isort: split

import argparse  # noqa: E402
import statistics  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
import traceback  # noqa: E402

import numpy as np  # noqa: E402

import aot  # noqa: E402

# On one thread the process's CPU time is what a call costs, whatever else the machine runs;
# on more, the threads' CPU times add up, and the wall time is the measure.
CPU_CLOCK = THREADS == 1
CLOCK = "CPU time" if CPU_CLOCK else "wall"

H = 128  # hidden width of the transformers
HEADS = 4
LAYERS = 2
VOCAB = 512
MAX_SEQ = 512


def _w(rng, *shape, scale=None):
    fan_in = int(np.prod(shape[:-1])) if len(shape) > 1 else shape[0]
    s = scale if scale is not None else 1.0 / np.sqrt(fan_in)
    return (rng.standard_normal(shape) * s).astype(np.float32)


# --- shared pieces (jax imported lazily: this file is read without JAX for --help) ----------

def _layernorm(x, p, name):
    import jax
    mu = x.mean(-1, keepdims=True)
    var = ((x - mu) ** 2).mean(-1, keepdims=True)
    return (x - mu) * jax.lax.rsqrt(var + 1e-5) * p[name + "_g"] + p[name + "_b"]


def _rmsnorm(x, p, name):
    import jax
    return x * jax.lax.rsqrt((x * x).mean(-1, keepdims=True) + 1e-6) * p[name + "_g"]


def _rope(x, positions):
    """Rotary embedding on x [b, heads, s, dh] (halves rotated, as Llama does)."""
    import jax.numpy as jnp
    dh = x.shape[-1]
    inv = 1.0 / (10000.0 ** (np.arange(0, dh, 2, dtype=np.float32) / dh))
    ang = positions.astype(jnp.float32)[:, None] * inv[None, :]  # [s, dh/2]
    cos, sin = jnp.cos(ang), jnp.sin(ang)
    x1, x2 = x[..., :dh // 2], x[..., dh // 2:]
    return jnp.concatenate([x1 * cos - x2 * sin, x1 * sin + x2 * cos], axis=-1)


def _attention(x, p, i, *, causal=False, kv_heads=HEADS, rope=False):
    """Multi-head self-attention over x [b, s, H]; grouped-query when kv_heads < HEADS."""
    import jax
    import jax.numpy as jnp
    b, s, _ = x.shape
    dh = H // HEADS
    q = (x @ p[f"wq{i}"]).reshape(b, s, HEADS, dh).transpose(0, 2, 1, 3)
    k = (x @ p[f"wk{i}"]).reshape(b, s, kv_heads, dh).transpose(0, 2, 1, 3)
    v = (x @ p[f"wv{i}"]).reshape(b, s, kv_heads, dh).transpose(0, 2, 1, 3)
    if rope:
        pos = jnp.arange(s)
        q, k = _rope(q, pos), _rope(k, pos)
    if kv_heads < HEADS:
        k = jnp.repeat(k, HEADS // kv_heads, axis=1)
        v = jnp.repeat(v, HEADS // kv_heads, axis=1)
    scores = q @ k.transpose(0, 1, 3, 2) / np.float32(np.sqrt(dh))
    if causal:
        mask = jnp.tril(jnp.ones((s, s), bool))
        scores = jnp.where(mask, scores, np.float32(-1e9))
    att = jax.nn.softmax(scores, axis=-1) @ v
    return att.transpose(0, 2, 1, 3).reshape(b, s, H) @ p[f"wo{i}"]


def _layer_weights(rng, p, i, *, kv_heads=HEADS, mlp=4 * H, gated=False, norm="ln"):
    dkv = H // HEADS * kv_heads
    p |= {f"wq{i}": _w(rng, H, H), f"wk{i}": _w(rng, H, dkv), f"wv{i}": _w(rng, H, dkv),
          f"wo{i}": _w(rng, H, H), f"up{i}": _w(rng, H, mlp), f"down{i}": _w(rng, mlp, H)}
    if gated:
        p[f"gate{i}"] = _w(rng, H, mlp)
    for n in (f"n1_{i}", f"n2_{i}"):
        p[n + "_g"] = (1 + 0.1 * rng.standard_normal(H)).astype(np.float32)
        if norm == "ln":
            p[n + "_b"] = (0.1 * rng.standard_normal(H)).astype(np.float32)
    return p


def _norm_weights(rng, p, name):
    p[name + "_g"] = (1 + 0.1 * rng.standard_normal(H)).astype(np.float32)
    p[name + "_b"] = (0.1 * rng.standard_normal(H)).astype(np.float32)
    return p


def _pre_ln_block(x, p, i, causal=False):
    import jax
    x = x + _attention(_layernorm(x, p, f"n1_{i}"), p, i, causal=causal)
    return x + jax.nn.gelu(_layernorm(x, p, f"n2_{i}") @ p[f"up{i}"]) @ p[f"down{i}"]


def _post_ln_block(x, p, i):
    import jax
    x = _layernorm(x + _attention(x, p, i), p, f"n1_{i}")
    return _layernorm(x + jax.nn.gelu(x @ p[f"up{i}"]) @ p[f"down{i}"], p, f"n2_{i}")


# --- the programs: (weights(rng), forward(p, x), input(rng, size), dynamic spelling) --------

def vit_weights(rng):
    p = {"patch": _w(rng, 4, 4, 3, H), "patch_b": _w(rng, H, scale=0.1),
         "cls": _w(rng, 1, 1, H, scale=0.1), "pos": _w(rng, 65, H, scale=0.1),
         "head": _w(rng, H, 10)}
    for i in range(LAYERS):
        _layer_weights(rng, p, i)
    return _norm_weights(rng, p, "nf")


def vit_forward(p, images):
    """32x32 images, 4x4 patches by a convolution with stride = kernel, a class token, 65
    tokens, 2 pre-LN encoder layers, the class token's logits."""
    import jax
    import jax.numpy as jnp
    b = images.shape[0]
    x = jax.lax.conv_general_dilated(images, p["patch"], (4, 4), "VALID",
                                     dimension_numbers=("NHWC", "HWIO", "NHWC")) + p["patch_b"]
    x = x.reshape(b, 64, H)
    x = jnp.concatenate([jnp.broadcast_to(p["cls"], (b, 1, H)), x], axis=1) + p["pos"]
    for i in range(LAYERS):
        x = _pre_ln_block(x, p, i)
    return _layernorm(x[:, 0], p, "nf") @ p["head"]


def audio_weights(rng):
    c = 64
    p = {"c1": _w(rng, 10, 1, c), "c2": _w(rng, 3, c, c), "fp": _w(rng, c, H),
         "fp_b": _w(rng, H, scale=0.1), "pos": _w(rng, 16, H // 16, H)}
    p = _norm_weights(rng, p, "fn")
    p["fn_g"], p["fn_b"] = p["fn_g"][:c], p["fn_b"][:c]
    for i in range(LAYERS):
        _layer_weights(rng, p, i)
    return _norm_weights(rng, p, "ne")


def audio_forward(p, wave):
    """Raw samples [b, n]: conv k10 s5, conv k3 s2 (GELU each), layernorm, projection, a
    grouped (16 groups) 1-D convolution positional embedding, 2 post-LN encoder layers."""
    import jax

    def conv1d(x, w, stride, pad="VALID", groups=1):
        return jax.lax.conv_general_dilated(x, w, (stride,), pad, feature_group_count=groups,
                                            dimension_numbers=("NWC", "WIO", "NWC"))
    x = jax.nn.gelu(conv1d(wave[:, :, None], p["c1"], 5))
    x = jax.nn.gelu(conv1d(x, p["c2"], 2))
    mu = x.mean(-1, keepdims=True)
    x = (x - mu) * jax.lax.rsqrt(((x - mu) ** 2).mean(-1, keepdims=True) + 1e-5) * p["fn_g"] + p["fn_b"]
    x = x @ p["fp"] + p["fp_b"]
    pos = conv1d(x, p["pos"], 1, [(8, 8)], groups=16)[:, :-1]  # even kernel: drop the last
    x = _layernorm(x + jax.nn.gelu(pos), p, "ne")
    for i in range(LAYERS):
        x = _post_ln_block(x, p, i)
    return x


def gpt2_weights(rng):
    p = {"embed": _w(rng, VOCAB, H, scale=0.5), "pos": _w(rng, MAX_SEQ, H, scale=0.1)}
    for i in range(LAYERS):
        _layer_weights(rng, p, i)
    return _norm_weights(rng, p, "nf")


def gpt2_forward(p, tokens):
    """Token and learned position embeddings, 2 causal pre-LN layers, tied output logits."""
    import jax.numpy as jnp
    x = p["embed"][tokens] + p["pos"][jnp.arange(tokens.shape[1])]  # position ids, gathered
    for i in range(LAYERS):
        x = _pre_ln_block(x, p, i, causal=True)
    return _layernorm(x, p, "nf") @ p["embed"].T


def bert_weights(rng):
    p = {"embed": _w(rng, VOCAB, H, scale=0.5), "pos": _w(rng, MAX_SEQ, H, scale=0.1)}
    p = _norm_weights(rng, p, "ne")
    for i in range(LAYERS):
        _layer_weights(rng, p, i)
    return p


def bert_forward(p, tokens):
    """Embeddings and their layernorm, 2 bidirectional post-LN layers: the hidden states."""
    import jax.numpy as jnp
    x = _layernorm(p["embed"][tokens] + p["pos"][jnp.arange(tokens.shape[1])], p, "ne")
    for i in range(LAYERS):
        x = _post_ln_block(x, p, i)
    return x


def llama_weights(rng):
    p = {"embed": _w(rng, VOCAB, H, scale=0.5), "out": _w(rng, H, VOCAB),
         "nf_g": np.ones(H, np.float32)}
    for i in range(LAYERS):
        _layer_weights(rng, p, i, kv_heads=2, mlp=344, gated=True, norm="rms")
    return p


def llama_forward(p, tokens):
    """RMSNorm, RoPE, grouped-query attention (4 query heads, 2 key/value heads), SwiGLU."""
    import jax
    x = p["embed"][tokens]
    for i in range(LAYERS):
        x = x + _attention(_rmsnorm(x, p, f"n1_{i}"), p, i, causal=True, kv_heads=2, rope=True)
        y = _rmsnorm(x, p, f"n2_{i}")
        x = x + (jax.nn.silu(y @ p[f"gate{i}"]) * (y @ p[f"up{i}"])) @ p[f"down{i}"]
    return _rmsnorm(x, p, "nf") @ p["out"]


DENSE = dict(growth=12, layers=4, stem=24)


def densenet_weights(rng):
    g, c = DENSE["growth"], DENSE["stem"]
    p = {"stem": _w(rng, 3, 3, 3, c)}
    for blk in range(2):
        for j in range(DENSE["layers"]):
            p[f"s{blk}_{j}"] = (1 + 0.1 * rng.standard_normal(c)).astype(np.float32)
            p[f"b{blk}_{j}"] = (0.1 * rng.standard_normal(c)).astype(np.float32)
            p[f"w1_{blk}_{j}"] = _w(rng, 1, 1, c, 4 * g)
            p[f"w3_{blk}_{j}"] = _w(rng, 3, 3, 4 * g, g)
            c += g
        if blk == 0:
            p["trans"] = _w(rng, 1, 1, c, c // 2)
            c //= 2
    p["head"] = _w(rng, c, 10)
    return p


def densenet_forward(p, images):
    """64x64 images: a 3x3 stride-2 stem, two dense blocks of 4 layers (scale+shift, ReLU,
    1x1 conv to 48 channels, ReLU, 3x3 conv to 12, concatenated onto the input) joined by a
    1x1 transition and 2x2 average pooling, global mean, logits."""
    import jax
    import jax.numpy as jnp

    def conv(x, w, stride=1):
        return jax.lax.conv_general_dilated(x, w, (stride, stride), "SAME",
                                            dimension_numbers=("NHWC", "HWIO", "NHWC"))
    x = jax.nn.relu(conv(images, p["stem"], 2))
    for blk in range(2):
        for j in range(DENSE["layers"]):
            y = jax.nn.relu(x * p[f"s{blk}_{j}"] + p[f"b{blk}_{j}"])
            y = conv(jax.nn.relu(conv(y, p[f"w1_{blk}_{j}"])), p[f"w3_{blk}_{j}"])
            x = jnp.concatenate([x, y], axis=-1)
        if blk == 0:
            x = conv(x, p["trans"])
            x = jax.lax.reduce_window(x, 0.0, jax.lax.add, (1, 2, 2, 1), (1, 2, 2, 1), "VALID") / 4
    return x.mean(axis=(1, 2)) @ p["head"]


def mlp_weights(rng):
    return {"w1": _w(rng, 1024, 4096), "b1": _w(rng, 4096, scale=0.1),
            "w2": _w(rng, 4096, 1024), "b2": _w(rng, 1024, scale=0.1)}


def mlp_forward(p, x):
    import jax
    return jax.nn.relu(x @ p["w1"] + p["b1"]) @ p["w2"] + p["b2"]


def _images(hw):
    return lambda rng, b: rng.standard_normal((b, hw, hw, 3)).astype(np.float32)


def _tokens(rng, size):
    b, s = size
    return rng.integers(0, VOCAB, (b, s)).astype(np.int32)


# name: (weights, forward, make_input(rng, size), symbolic shape, full sizes, quick sizes)
BATCHES = (1, 2, 3, 4, 8, 16)
TEXT_SIZES = ((1, 8), (3, 24), (2, 64), (4, 128), (1, 256), (1, 512))
PROGRAMS = {
    "vit": (vit_weights, vit_forward, _images(32), "b, 32, 32, 3", BATCHES, (1, 3)),
    "wav2vec2": (audio_weights, audio_forward,
                 lambda rng, size: rng.standard_normal(size).astype(np.float32), "b, n",
                 ((1, 1200), (3, 2000), (1, 4000), (2, 8000), (1, 16000)),
                 ((1, 1200), (3, 2000))),
    "gpt2": (gpt2_weights, gpt2_forward, _tokens, "b, s", TEXT_SIZES, ((1, 8), (3, 24))),
    "bert": (bert_weights, bert_forward, _tokens, "b, s", TEXT_SIZES, ((1, 8), (3, 24))),
    "llama": (llama_weights, llama_forward, _tokens, "b, s", TEXT_SIZES, ((1, 8), (3, 24))),
    "densenet": (densenet_weights, densenet_forward, _images(64), "b, 64, 64, 3", BATCHES,
                 (1, 3)),
    "mlp": (mlp_weights, mlp_forward, lambda rng, b: rng.standard_normal((b, 1024)).astype(np.float32),
            "b, 1024", (1, 2, 3, 4, 8, 16, 32, 64, 128, 256, 512), (1, 3, 4, 16)),
}


# --- measuring ------------------------------------------------------------------------------

def timed_ms(fns, budget_s: float, max_reps: int) -> list:
    """(median wall time, median CPU time) in ms of each of fns, measured interleaved (one call
    of each per round, so a load that comes and goes hits them alike): one warm-up round, then
    as many rounds as fit the budget (at least 5, at most max_reps). The CPU time is the
    process's (every thread), so on one thread it is the call's time without the waits that
    other processes cause: on the shared machine (load 15-30 on 2 cores) wall medians were
    10x the calls' own time and even the fastest of 20 calls was off by 2-7x."""
    one = []
    for fn in fns:
        fn()
        t = time.perf_counter()
        fn()
        one.append(time.perf_counter() - t)
    reps = int(min(max_reps, max(5, budget_s / max(sum(one), 1e-6))))
    wall, cpu = [[] for _ in fns], [[] for _ in fns]
    for _ in range(reps):
        for fn, w, c in zip(fns, wall, cpu):
            t, tc = time.perf_counter(), time.process_time()
            fn()
            c.append(time.process_time() - tc)
            w.append(time.perf_counter() - t)
    return [(statistics.median(w) * 1e3, statistics.median(c) * 1e3) for w, c in zip(wall, cpu)]


def synchronous_xla() -> None:
    """XLA runs each call on the calling thread, as the compiled library does (before its
    backend starts). With asynchronous dispatch a call hands its work to another thread, and on
    the loaded shared machine waiting for that thread doubled XLA's median (0.60-0.65 ms
    against 0.28-0.35 ms for a [72,128] two-matmul program; its fastest call barely moved)."""
    try:
        import jax
    except ImportError:
        return
    jax.config.update("jax_cpu_enable_async_dispatch", False)


def export_text(jax, forward, p, spec) -> str:
    from jax import export
    consts = {k: jax.numpy.asarray(v) for k, v in p.items()}  # closed over: frozen constants
    return export.export(jax.jit(lambda x: forward(consts, x)))(spec).mlir_module()


# Compiled once before the programs: a process's first compile also imports and initialises
# the compiler and LLVM (0.15-0.2 s here), which would be charged to the first program's
# dynamic compile alone.
WARM_UP = """func.func @main(%x: tensor<?x4xf32>) -> tensor<?x4xf32> {
  %0 = stablehlo.exponential %x : tensor<?x4xf32>
  return %0 : tensor<?x4xf32>
}
"""


def compile_ours(text: str, name: str, tmp: str):
    t = time.perf_counter()
    lib = aot.compile(text, name=name, output_dir=f"{tmp}/{name}")  # a fresh build
    return lib, time.perf_counter() - t


def sweep(jax, name: str, sizes, args, tmp: str) -> dict:
    """Per size: (ours static ms, ours dynamic ms, XLA ms, max error) and the compile times."""
    from jax import export
    weights_fn, forward, make_input, symbolic, _, _ = PROGRAMS[name]
    rng = np.random.default_rng(0)
    p = weights_fn(rng)
    consts = {k: jax.numpy.asarray(v) for k, v in p.items()}
    inputs = {size: make_input(rng, size) for size in sizes}
    dtype = next(iter(inputs.values())).dtype
    spec = jax.ShapeDtypeStruct(export.symbolic_shape(symbolic), dtype)
    dyn, dyn_compile = compile_ours(export_text(jax, forward, p, spec), f"{name}_dyn", tmp)
    rows, ours_c, xla_c = [], [], []
    for size, x in inputs.items():
        t = time.perf_counter()
        xla = jax.jit(lambda xx: forward(consts, xx)).lower(x).compile()
        xla_c.append(time.perf_counter() - t)
        tag = "x".join(map(str, np.atleast_1d(size)))
        static, c = compile_ours(export_text(jax, forward, p, jax.ShapeDtypeStruct(x.shape, dtype)),
                                 f"{name}_{tag}", tmp)
        ours_c.append(c)
        want = np.asarray(xla(x))
        err = max(float(np.max(np.abs(np.asarray(lib.main(x)) - want))) for lib in (static, dyn))
        scale = float(np.max(np.abs(want))) or 1.0
        (s_wall, s_cpu), (d_wall, d_cpu), (x_wall, x_cpu) = timed_ms(
            [lambda: static.main(x), lambda: dyn.main(x), lambda: xla(x).block_until_ready()],
            args.budget, args.reps)
        s_ms, d_ms, x_ms = (s_cpu, d_cpu, x_cpu) if CPU_CLOCK else (s_wall, d_wall, x_wall)
        rows.append((tag, s_ms / x_ms, d_ms / x_ms, s_wall / x_wall, d_wall / x_wall))
        print(f"  {name} {tag:>9}: {CLOCK} ms: ours static {s_ms:8.3f}, dynamic {d_ms:8.3f}, "
              f"XLA {x_ms:8.3f} -> {s_ms / x_ms:.2f}x / {d_ms / x_ms:.2f}x; wall medians: "
              f"{s_wall / x_wall:.2f}x / {d_wall / x_wall:.2f}x"
              f"{'' if err / scale < 2e-3 else f'  MISMATCH rel err {err / scale:.1e}'}",
              flush=True)
    return dict(rows=rows, dyn_compile=dyn_compile, ours_compile=statistics.median(ours_c),
                xla_compile=statistics.median(xla_c))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--programs", default=",".join(PROGRAMS))
    ap.add_argument("--quick", action="store_true", help="two to four sizes per program")
    ap.add_argument("--reps", type=int, default=50, help="most timed calls per measurement")
    ap.add_argument("--budget", type=float, default=1.0, help="seconds of calls per size")
    ap.add_argument("--sizes", default="", help="only these sizes, e.g. 1x256,4x128 "
                    "(batch, or batch x sequence/length): the worst ones, to save time")
    ap.add_argument("--no-pin", action="store_true")
    ap.add_argument("--threads", type=int, default=1, help="threads of both compilers' run "
                    "times (and CPUs the process may use)")
    args = ap.parse_args()
    pinned = PINNED or bench_env.pin_to_one_cpu(not args.no_pin)
    synchronous_xla()
    jax, _, note = bench_env.probe_jax("every row")
    bench_env.print_header("# model sweep: ours (static per shape, one dynamic) / XLA per shape",
                           pinned, note)
    print(f"threads: {THREADS}, load {bench_env.loadavg()}")
    if jax is None:
        return
    jax.config.update("jax_include_debug_info_in_dumps", False)
    results = {}
    with tempfile.TemporaryDirectory() as tmp:
        compile_ours(WARM_UP, "warm_up", tmp)  # the process's first compile loads the compiler
        for name in args.programs.split(","):
            sizes = PROGRAMS[name][5 if args.quick else 4]
            if args.sizes:
                wanted = args.sizes.split(",")
                sizes = [z for z in sizes if "x".join(map(str, np.atleast_1d(z))) in wanted]
            try:
                results[name] = sweep(jax, name, sizes, args, tmp)
            except Exception as e:  # one program's failure is a row, not the end of the run
                traceback.print_exc()
                results[name] = f"{type(e).__name__}: {str(e).splitlines()[0][:120]}"
    print(f"\nWorst ratio ours / XLA over the sizes ({CLOCK} medians; wall medians in brackets), "
          "and compile times:\n| program | sizes | worst static (at) | worst dynamic (at) "
          "| ours static compile s | ours dynamic compile s | XLA compile s |\n"
          "|---|---|---|---|---|---|---|")
    for name, r in results.items():
        if isinstance(r, str):
            print(f"| {name} | - | failed: {r} | | | | |")
            continue

        def worst(col):
            row = max(r["rows"], key=lambda row: row[col])
            return f"{row[col]:.2f} ({row[0]}) [{max(q[col + 2] for q in r['rows']):.2f}]"
        print(f"| {name} | {len(r['rows'])} | {worst(1)} | {worst(2)} | {r['ours_compile']:.2f} "
              f"| {r['dyn_compile']:.2f} | {r['xla_compile']:.2f} |")


if __name__ == "__main__":
    main()
