"""Autoregressive decoding, one token per call, with a key/value cache whose length is a `?` dim.

    /work/jaxenv/bin/python benchmarks/decode.py [--quick] [--threads N] [--reps N]

The workload the dynamic-shape RFC was written for (issue 28): a 4-layer decoder (width 512,
8 heads, MLP 2048, pre-layernorm, GELU; 50 MB of f32 weights passed as arguments) computes
one token from its input vector and the cache of the L tokens before it ([layers, heads, L,
64] keys and values), returning its output and its own key and value rows. Timed:

  * this project: ONE library, compiled once with L symbolic, called at every length;
  * XLA per length: `jax.jit` compiled for each exact L (a server meets each length once,
    so its compile time is counted once per length);
  * XLA on power-of-two buckets: the cache padded to the next power of two, the padding
    masked out, one compile per bucket (what XLA users do instead).

Lengths are sampled (powers of two and a few between); the per-token latency between samples
is interpolated linearly in L (attention is linear in L; the rest does not depend on it), and
the time to generate 2,048 tokens (token t reads a cache of t, t = 1..2048) is the sum of the
interpolated latencies, plus, for XLA, the compiles: per length, the measured compile times
interpolated over all 2,048 lengths; per bucket, the 12 buckets' (measured, or interpolated in
--quick). The floor at length L is the bytes a token must read, every weight and the L
cached keys and values once, over the copy bandwidth measured in this process on the same
threads; at short caches it is the weights' alone.

A benchmark, not a test: it asserts nothing about time; the library's outputs are checked
against XLA's. Needs JAX.
"""
from __future__ import annotations

import sys

from threads import configure_threads, threads_arg

THREADS = threads_arg(sys.argv)
PINNED = configure_threads(THREADS) if THREADS > 1 else None

import bench_env  # noqa: E402  one thread everywhere unless fixed above; before numpy and jax

# isort: split

import argparse  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402

import numpy as np  # noqa: E402

import aot  # noqa: E402
from cpu_workloads import machine_peaks  # noqa: E402  the copy bandwidth, measured one way
from model_sweep import CLOCK, CPU_CLOCK, synchronous_xla, timed_ms  # noqa: E402

D, HEADS, MLP, LAYERS = 512, 8, 2048, 4
DH = D // HEADS
MAX_LEN = 2048
LENGTHS = (1, 2, 3, 4, 8, 16, 32, 64, 100, 128, 256, 384, 512, 1000, 1024, 1536, 2047, 2048)
QUICK_LENGTHS = (1, 64, 1000, 2048)


def weights(rng) -> dict:
    def w(*shape):
        return (rng.standard_normal(shape) / np.sqrt(shape[0])).astype(np.float32)
    p = {}
    for i in range(LAYERS):
        p |= {f"ln1_{i}": np.ones(D, np.float32), f"qkv_{i}": w(D, 3 * D), f"proj_{i}": w(D, D),
              f"ln2_{i}": np.ones(D, np.float32), f"up_{i}": w(D, MLP), f"down_{i}": w(MLP, D)}
    return p


def step(p: dict, x, k_cache, v_cache, valid=None):
    """One token: x [D], caches [LAYERS, HEADS, L, DH]; returns (output [D], its keys and
    values [LAYERS, HEADS, DH]). With `valid` (a scalar), cache rows from `valid` on are
    padding and masked out (the bucketed form)."""
    import jax
    import jax.numpy as jnp

    def layernorm(v, g):
        mu = v.mean()
        return (v - mu) * jax.lax.rsqrt(((v - mu) ** 2).mean() + 1e-5) * g

    new_k, new_v = [], []
    for i in range(LAYERS):
        q, k, v = (a.reshape(HEADS, DH) for a in jnp.split(layernorm(x, p[f"ln1_{i}"]) @ p[f"qkv_{i}"], 3))
        s_cache = jnp.einsum("hd,hld->hl", q, k_cache[i]) / np.float32(np.sqrt(DH))
        if valid is not None:
            s_cache = jnp.where(jnp.arange(k_cache.shape[2]) < valid, s_cache, -jnp.inf)
        s_self = (q * k).sum(-1, keepdims=True) / np.float32(np.sqrt(DH))
        prob = jax.nn.softmax(jnp.concatenate([s_cache, s_self], axis=1), axis=1)
        att = jnp.einsum("hl,hld->hd", prob[:, :-1], v_cache[i]) + prob[:, -1:] * v
        x = x + att.reshape(D) @ p[f"proj_{i}"]
        x = x + jax.nn.gelu(layernorm(x, p[f"ln2_{i}"]) @ p[f"up_{i}"]) @ p[f"down_{i}"]
        new_k.append(k)
        new_v.append(v)
    return x, jnp.stack(new_k), jnp.stack(new_v)


def interpolate(points: dict, n: int) -> float:
    """The value at n, linear between the nearest measured points (flat beyond them)."""
    xs = sorted(points)
    return float(np.interp(n, xs, [points[x] for x in xs]))


def bucket(n: int) -> int:
    return 1 << (n - 1).bit_length()


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help=f"lengths {QUICK_LENGTHS} only")
    ap.add_argument("--lengths", type=int, nargs="+", help="these cache lengths only")
    ap.add_argument("--reps", type=int, default=30, help="most timed calls per length")
    ap.add_argument("--budget", type=float, default=1.5, help="seconds of calls per length")
    ap.add_argument("--bandwidth", type=float, help="GB/s for the floor (default: the copy "
                    "bandwidth measured now, which a loaded machine lowers)")
    ap.add_argument("--no-pin", action="store_true")
    ap.add_argument("--threads", type=int, default=1, help="threads of both compilers' run "
                    "times (and CPUs the process may use)")
    args = ap.parse_args()
    pinned = PINNED or bench_env.pin_to_one_cpu(not args.no_pin)
    synchronous_xla()
    jax, jnp, note = bench_env.probe_jax("every row")
    bench_env.print_header("# decode: one token per call, cache length ? (ours: one library)",
                           pinned, note)
    if jax is None:
        return
    from jax import export
    jax.config.update("jax_include_debug_info_in_dumps", False)
    rng = np.random.default_rng(0)
    p = weights(rng)
    names = sorted(p)
    w = [p[k] for k in names]
    weight_bytes = sum(a.nbytes for a in w)
    bw = args.bandwidth or machine_peaks(THREADS)["copy_gbs"]
    floor_ms = weight_bytes / bw / 1e6

    def floor_at(n):  # every weight and the n cached keys and values read once
        return (weight_bytes + 2 * LAYERS * HEADS * n * DH * 4) / bw / 1e6
    print(f"threads: {THREADS}, load {bench_env.loadavg()}; weights {weight_bytes / 1e6:.1f} MB, "
          f"{'given' if args.bandwidth else 'copy'} bandwidth {bw:.1f} GB/s -> floor "
          f"{floor_ms:.2f} ms per token, plus the cache's keys and values at each L")

    def f(*a):
        return step(dict(zip(names, a[:len(names)])), *a[len(names):])

    def fb(*a):
        return step(dict(zip(names, a[:len(names)])), *a[len(names):-1], valid=a[-1])

    specs = [jax.ShapeDtypeStruct(a.shape, a.dtype) for a in w]
    cache = export.symbolic_shape(f"{LAYERS}, {HEADS}, L, {DH}")
    text = export.export(jax.jit(f))(*specs, jax.ShapeDtypeStruct((D,), np.float32),
                                     jax.ShapeDtypeStruct(cache, np.float32),
                                     jax.ShapeDtypeStruct(cache, np.float32)).mlir_module()
    with tempfile.TemporaryDirectory() as tmp:
        t = time.perf_counter()
        lib = aot.compile(text, name="decode", output_dir=tmp)
        ours_compile = time.perf_counter() - t
    print(f"ours: one compile, {ours_compile:.2f} s")
    lengths = tuple(args.lengths or (QUICK_LENGTHS if args.quick else LENGTHS))
    x = rng.standard_normal(D).astype(np.float32)
    kc = rng.standard_normal((LAYERS, HEADS, MAX_LEN, DH)).astype(np.float32)
    vc = rng.standard_normal((LAYERS, HEADS, MAX_LEN, DH)).astype(np.float32)
    wj = [jnp.asarray(a) for a in w]
    ours, exact, exact_c, padded, padded_c, medians = {}, {}, {}, {}, {}, {}
    print(f"\nPer token, {CLOCK} medians of interleaved rounds (wall medians in brackets):\n"
          "| L | ours ms | XLA exact ms | XLA compile s | XLA bucket | XLA bucket ms "
          "| ours / XLA exact | ours / floor |\n|---|---|---|---|---|---|---|---|")
    for n in lengths:
        k, v = np.ascontiguousarray(kc[:, :, :n]), np.ascontiguousarray(vc[:, :, :n])
        b = bucket(n)
        kb = np.zeros((LAYERS, HEADS, b, DH), np.float32)
        vb = np.zeros_like(kb)
        kb[:, :, :n], vb[:, :, :n] = k, v
        t = time.perf_counter()
        xla = jax.jit(f).lower(*wj, x, k, v).compile()
        exact_c[n] = time.perf_counter() - t
        t = time.perf_counter()
        xla_b = jax.jit(fb).lower(*wj, x, kb, vb, np.int32(n)).compile()
        padded_c[b] = time.perf_counter() - t
        want = [np.asarray(a) for a in xla(*wj, x, k, v)]
        got = lib.main(*w, x, k, v)
        got_b = [np.asarray(a) for a in xla_b(*wj, x, kb, vb, np.int32(n))]
        for g, gb, e in zip(got, got_b, want):
            np.testing.assert_allclose(g, e, rtol=2e-3, atol=2e-3, err_msg=f"ours at L={n}")
            np.testing.assert_allclose(gb, e, rtol=2e-3, atol=2e-3, err_msg=f"bucket at L={n}")
        kj, vj, kbj, vbj = (jnp.asarray(a) for a in (k, v, kb, vb))
        timed = timed_ms(
            [lambda: lib.main(*w, x, k, v),
             lambda: jax.block_until_ready(xla(*wj, x, kj, vj)),
             lambda: jax.block_until_ready(xla_b(*wj, x, kbj, vbj, np.int32(n)))],
            args.budget, args.reps)
        (ours[n], exact[n], padded[n]), medians[n] = ([t[int(CPU_CLOCK)] for t in timed],
                                                      [t[0] for t in timed])
        print(f"| {n} | {ours[n]:.2f} [{medians[n][0]:.2f}] | {exact[n]:.2f} [{medians[n][1]:.2f}] "
              f"| {exact_c[n]:.2f} | {b} | {padded[n]:.2f} [{medians[n][2]:.2f}] "
              f"| {ours[n] / exact[n]:.2f} | {ours[n] / floor_at(n):.2f} |", flush=True)
    # a bucket's latency is its full length's (padding computed, then masked)
    bucket_ms = {bucket(n): padded[n] for n in lengths if n == bucket(n)} or padded
    total_ours = sum(interpolate(ours, n) for n in range(1, MAX_LEN + 1))
    total_exact = sum(interpolate(exact, n) for n in range(1, MAX_LEN + 1))
    compile_exact = sum(interpolate(exact_c, n) for n in range(1, MAX_LEN + 1))
    total_bucket = sum(interpolate(bucket_ms, bucket(n)) for n in range(1, MAX_LEN + 1))
    compile_bucket = sum(interpolate(padded_c, b) for b in {bucket(n) for n in range(1, MAX_LEN + 1)})
    worst = max(lengths, key=lambda n: ours[n] / exact[n])
    print(f"\nworst length against XLA exact: L={worst}, ours {ours[worst]:.2f} ms, XLA "
          f"{exact[worst]:.2f} ms ({ours[worst] / exact[worst]:.2f}x); against the floor "
          f"(weights and cache): {ours[lengths[0]] / floor_at(lengths[0]):.2f}x at "
          f"L={lengths[0]} ({floor_at(lengths[0]):.2f} ms), "
          f"{ours[lengths[-1]] / floor_at(lengths[-1]):.2f}x at L={lengths[-1]} "
          f"({floor_at(lengths[-1]):.2f} ms)")
    print(f"\n2,048 tokens (latencies interpolated between {len(lengths)} measured lengths; "
          "compiles counted once per length or bucket):\n"
          "| | run s | compile s | total s |\n|---|---|---|---|")
    print(f"| ours (one library) | {total_ours / 1e3:.2f} | {ours_compile:.2f} "
          f"| {total_ours / 1e3 + ours_compile:.2f} |")
    print(f"| XLA per length | {total_exact / 1e3:.2f} | {compile_exact:.1f} "
          f"| {total_exact / 1e3 + compile_exact:.1f} |")
    print(f"| XLA power-of-two buckets | {total_bucket / 1e3:.2f} | {compile_bucket:.1f} "
          f"| {total_bucket / 1e3 + compile_bucket:.1f} |")
    floor_total = sum(floor_at(n) for n in range(1, MAX_LEN + 1))
    print(f"| floor (weights and cache at {bw:.1f} GB/s) | {floor_total / 1e3:.2f} | | |")


if __name__ == "__main__":
    main()
