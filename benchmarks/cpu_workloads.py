"""The CPU-speed issue's workloads: this project's compiled library, numpy, and jax.jit (when
JAX is installed; a note otherwise), each workload in its own process per thread count.
Prints one table of median times, the ratio to XLA (to numpy without JAX), and GB/s or
GFLOP/s against the copy bandwidth and BLAS sgemm speed measured in the same process on the
same number of threads. A benchmark, not a test: nothing is asserted about time (only the
compiled library's results are checked, against float64 numpy).

    python benchmarks/cpu_workloads.py [--reps N] [--workloads softmax,mlp] [--threads 1,2]

The parent process compiles each workload (aot.compile, into the usual cache) and runs
`python cpu_workloads.py --child WORKLOAD --threads N --lib PATH` once per thread count; the
child fixes its thread counts and CPU affinity before importing numpy or jax, measures, and
prints one JSON line (prefixed RESULT_TAG) that the parent collects.
"""
from __future__ import annotations

import os
import sys

from threads import configure_threads, threads_arg

RESULT_TAG = "@@cpu_workloads@@ "


_CHILD_THREADS = threads_arg(sys.argv) if "--child" in sys.argv else None  # a child run's
_PINNED = configure_threads(_CHILD_THREADS) if _CHILD_THREADS else None

import bench_env  # noqa: E402  thread variables (already fixed in a child) + sys.path

# isort: split

import argparse  # noqa: E402
import gc  # noqa: E402
import json  # noqa: E402
import statistics  # noqa: E402
import subprocess  # noqa: E402
import time  # noqa: E402

import numpy as np  # noqa: E402

import aot  # noqa: E402


def chain_mlir(kind):
    """elementwise_chain.py's six-op chain, imported only when asked for: that module reads
    `--threads N` from sys.argv at import (and fixed the threads of whoever imported it; a
    parent's `--threads 1,2` made it fail)."""
    saved, sys.argv = sys.argv, sys.argv[:1]
    try:
        from elementwise_chain import mlir
    finally:
        sys.argv = saved
    return mlir(kind)


def f32(*shape):
    return f"tensor<{'x'.join(map(str, shape))}xf32>"


def softmax(rows, cols):
    t, r = f32(rows, cols), f32(rows)
    return f"""func.func @main(%x: {t}) -> {t} {{
  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %m = stablehlo.reduce(%x init: %ninf) applies stablehlo.maximum across dimensions = [1] : ({t}, tensor<f32>) -> {r}
  %mb = stablehlo.broadcast_in_dim %m, dims = [0] : ({r}) -> {t}
  %d = stablehlo.subtract %x, %mb : {t}
  %e = stablehlo.exponential %d : {t}
  %s = stablehlo.reduce(%e init: %zero) applies stablehlo.add across dimensions = [1] : ({t}, tensor<f32>) -> {r}
  %sb = stablehlo.broadcast_in_dim %s, dims = [0] : ({r}) -> {t}
  %y = stablehlo.divide %e, %sb : {t}
  return %y : {t}
}}"""  # noqa: E501


def layernorm(rows, cols):
    t, r = f32(rows, cols), f32(rows)
    return f"""func.func @main(%x: {t}) -> {t} {{
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %n = stablehlo.constant dense<{float(cols)}> : {r}
  %eps = stablehlo.constant dense<1.0e-5> : {r}
  %s = stablehlo.reduce(%x init: %zero) applies stablehlo.add across dimensions = [1] : ({t}, tensor<f32>) -> {r}
  %mean = stablehlo.divide %s, %n : {r}
  %mb = stablehlo.broadcast_in_dim %mean, dims = [0] : ({r}) -> {t}
  %c = stablehlo.subtract %x, %mb : {t}
  %sq = stablehlo.multiply %c, %c : {t}
  %v = stablehlo.reduce(%sq init: %zero) applies stablehlo.add across dimensions = [1] : ({t}, tensor<f32>) -> {r}
  %var = stablehlo.divide %v, %n : {r}
  %ve = stablehlo.add %var, %eps : {r}
  %inv = stablehlo.rsqrt %ve : {r}
  %ib = stablehlo.broadcast_in_dim %inv, dims = [0] : ({r}) -> {t}
  %y = stablehlo.multiply %c, %ib : {t}
  return %y : {t}
}}"""  # noqa: E501


def reduce_sum(rows, cols, dim):
    t, r = f32(rows, cols), f32(cols if dim == 0 else rows)
    return f"""func.func @main(%x: {t}) -> {r} {{
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %s = stablehlo.reduce(%x init: %zero) applies stablehlo.add across dimensions = [{dim}] : ({t}, tensor<f32>) -> {r}
  return %s : {r}
}}"""  # noqa: E501


def dense(x, w, b, act):
    """StableHLO lines for act(x @ w + b); returns (lines, result name)."""
    (m, k), (_, n) = x[1], w[1]
    out = f32(m, n)
    lines = [f"%{x[0]}_{w[0]} = stablehlo.dot_general %{x[0]}, %{w[0]}, contracting_dims = [1] x [0] : "
             f"({f32(m, k)}, {f32(k, n)}) -> {out}",
             f"%{b}_b = stablehlo.broadcast_in_dim %{b}, dims = [1] : ({f32(n)}) -> {out}",
             f"%{x[0]}_{w[0]}_z = stablehlo.add %{x[0]}_{w[0]}, %{b}_b : {out}"]
    z = f"%{x[0]}_{w[0]}_z"
    if act == "relu":
        lines += [f"%zero_{w[0]} = stablehlo.constant dense<0.0> : {out}",
                  f"{z}r = stablehlo.maximum {z}, %zero_{w[0]} : {out}"]
        return lines, f"{z}r"
    if act == "gelu":  # tanh approximation
        c = {"a": 0.044715, "s": 0.7978845608, "h": 0.5, "o": 1.0}
        lines += [f"%{k}_{w[0]} = stablehlo.constant dense<{v}> : {out}" for k, v in c.items()]
        lines += [f"{z}2 = stablehlo.multiply {z}, {z} : {out}",
                  f"{z}3 = stablehlo.multiply {z}2, {z} : {out}",
                  f"{z}4 = stablehlo.multiply {z}3, %a_{w[0]} : {out}",
                  f"{z}5 = stablehlo.add {z}, {z}4 : {out}",
                  f"{z}6 = stablehlo.multiply {z}5, %s_{w[0]} : {out}",
                  f"{z}7 = stablehlo.tanh {z}6 : {out}",
                  f"{z}8 = stablehlo.add {z}7, %o_{w[0]} : {out}",
                  f"{z}9 = stablehlo.multiply {z}, {z}8 : {out}",
                  f"{z}g = stablehlo.multiply {z}9, %h_{w[0]} : {out}"]
        return lines, f"{z}g"
    return lines, z


def mlp(m, k, h, n):
    l1, y1 = dense(("x", (m, k)), ("w1", (k, h)), "b1", "relu")
    l2, y2 = dense((y1[1:], (m, h)), ("w2", (h, n)), "b2", None)
    body = "\n  ".join(l1 + l2)
    return f"""func.func @main(%x: {f32(m, k)}, %w1: {f32(k, h)}, %b1: {f32(h)}, %w2: {f32(h, n)}, %b2: {f32(n)}) -> {f32(m, n)} {{
  {body}
  return {y2} : {f32(m, n)}
}}"""  # noqa: E501


def gelu_dense(m, k, n):
    lines, y = dense(("x", (m, k)), ("w", (k, n)), "b", "gelu")
    body = "\n  ".join(lines)
    return f"""func.func @main(%x: {f32(m, k)}, %w: {f32(k, n)}, %b: {f32(n)}) -> {f32(m, n)} {{
  {body}
  return {y} : {f32(m, n)}
}}"""


def attention(b, h, s, d):
    q, sc = f32(b, h, s, d), f32(b, h, s, s)
    rows = f32(b, h, s)
    return f"""func.func @main(%q: {q}, %k: {q}, %v: {q}) -> {q} {{
  %scale = stablehlo.constant dense<{1.0 / d ** 0.5}> : {sc}
  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %qk = stablehlo.dot_general %q, %k, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [3] : ({q}, {q}) -> {sc}
  %l = stablehlo.multiply %qk, %scale : {sc}
  %m = stablehlo.reduce(%l init: %ninf) applies stablehlo.maximum across dimensions = [3] : ({sc}, tensor<f32>) -> {rows}
  %mb = stablehlo.broadcast_in_dim %m, dims = [0, 1, 2] : ({rows}) -> {sc}
  %e0 = stablehlo.subtract %l, %mb : {sc}
  %e = stablehlo.exponential %e0 : {sc}
  %s = stablehlo.reduce(%e init: %zero) applies stablehlo.add across dimensions = [3] : ({sc}, tensor<f32>) -> {rows}
  %sb = stablehlo.broadcast_in_dim %s, dims = [0, 1, 2] : ({rows}) -> {sc}
  %p = stablehlo.divide %e, %sb : {sc}
  %o = stablehlo.dot_general %p, %v, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [2] : ({sc}, {q}) -> {q}
  return %o : {q}
}}"""  # noqa: E501


def attention_padded(b, h, s, d):
    """attention with BERT's padding mask: a [b, s] bias (0 or the float's minimum) added to the
    scaled scores, broadcast over heads and queries."""
    q, sc, m = f32(b, h, s, d), f32(b, h, s, s), f32(b, s)
    head, body = attention(b, h, s, d).split("\n", 1)
    head = head.replace(f"%v: {q})", f"%v: {q}, %mask: {m})")
    body = body.replace(f"%l = stablehlo.multiply %qk, %scale : {sc}",
                        f"%l0 = stablehlo.multiply %qk, %scale : {sc}\n"
                        f"  %mb0 = stablehlo.broadcast_in_dim %mask, dims = [0, 3] : ({m}) -> {sc}\n"
                        f"  %l = stablehlo.add %l0, %mb0 : {sc}")
    return head + "\n" + body


def attention_part(part, b, h, s, d):
    """One of attention's three kernels alone: the scores q k^T ("qk"), the scaled softmax of
    given scores ("softmax") and the probabilities times v ("pv"), to see which loses."""
    q, sc = f32(b, h, s, d), f32(b, h, s, s)
    if part == "qk":
        return f"""func.func @main(%q: {q}, %k: {q}) -> {sc} {{
  %qk = stablehlo.dot_general %q, %k, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [3] : ({q}, {q}) -> {sc}
  return %qk : {sc}
}}"""  # noqa: E501
    if part == "pv":
        return f"""func.func @main(%p: {sc}, %v: {q}) -> {q} {{
  %o = stablehlo.dot_general %p, %v, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [2] : ({sc}, {q}) -> {q}
  return %o : {q}
}}"""  # noqa: E501
    text = attention(b, h, s, d)
    head, body = text.split("\n", 1)
    lines = [ln for ln in body.splitlines() if "dot_general" not in ln and "return" not in ln]
    lines = [ln.replace("%qk, %scale", "%x, %scale") for ln in lines]
    return (f"func.func @main(%x: {sc}) -> {sc} {{\n" + "\n".join(lines[:-1])
            + f"\n  return %p : {sc}\n}}")


# Reference implementations, written once for numpy and jax.numpy (xp).
def ref_softmax(xp, x):
    e = xp.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def ref_layernorm(xp, x):
    c = x - x.mean(axis=1, keepdims=True)
    return c / xp.sqrt((c * c).mean(axis=1, keepdims=True) + 1e-5)


def ref_gelu_dense(xp, x, w, b):
    z = x @ w + b
    return 0.5 * z * (1 + xp.tanh(0.7978845608 * (z + 0.044715 * z ** 3)))


def ref_mlp(xp, x, w1, b1, w2, b2):
    return xp.maximum(x @ w1 + b1, 0) @ w2 + b2


def ref_attention(xp, q, k, v):
    return ref_softmax(xp, (q @ k.swapaxes(-1, -2)) / 8.0) @ v


def ref_attention_padded(xp, q, k, v, mask):
    return ref_softmax(xp, (q @ k.swapaxes(-1, -2)) / 8.0 + mask[:, None, None, :]) @ v


def padding_mask(rng, b, s):
    """[b, s]: 0 for each row's first keys (its length: s, then random), the float's minimum
    after them."""
    lengths = np.concatenate([[s], rng.integers(s // 2, s + 1, b - 1)])
    return np.where(np.arange(s)[None, :] < lengths[:, None], 0.0,
                    np.finfo(np.float32).min).astype(np.float32)


def ref_scaled_softmax(xp, x):
    return ref_softmax(xp, x / 8.0)


def conv_nhwc(n, size, cin, cout, k):
    """A k x k convolution, stride 1, 'same' padding, NHWC x HWIO -> NHWC."""
    x, w, o = f32(n, size, size, cin), f32(k, k, cin, cout), f32(n, size, size, cout)
    p = k // 2
    return f"""func.func @main(%x: {x}, %w: {w}) -> {o} {{
  %y = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {{stride = [1, 1], pad = [[{p}, {p}], [{p}, {p}]]}} {{batch_group_count = 1 : i64, feature_group_count = 1 : i64}} : ({x}, {w}) -> {o}
  return %y : {o}
}}"""  # noqa: E501


def ref_conv(xp, x, w):
    """numpy: the 3x3 windows (a strided view of the padded input) contracted with w;
    jax: lax.conv_general_dilated."""
    if xp is np:
        padded = np.pad(x, ((0, 0), (1, 1), (1, 1), (0, 0)))
        windows = np.lib.stride_tricks.sliding_window_view(padded, (3, 3), axis=(1, 2))
        return np.tensordot(windows, w, axes=([4, 5, 3], [0, 1, 2]))
    import jax
    return jax.lax.conv_general_dilated(x, w, (1, 1), ((1, 1), (1, 1)),
                                        dimension_numbers=("NHWC", "HWIO", "NHWC"))


def ref_chain6(xp, x):
    """y = abs(max(x * 1.5 + 0.25, 0) - 3) * x, the same as elementwise_chain.py's chain6."""
    return xp.abs(xp.maximum(x * 1.5 + 0.25, 0) - 3) * x


def r32(rng, *shape):
    return rng.standard_normal(shape).astype(np.float32)


# name -> (MLIR text maker, input maker(rng), reference function, (bytes moved, flops), label).
# Rates: GB/s (bytes = inputs read once + result written once) for the memory-bound ones,
# GFLOP/s (2 per multiply-add of the matmuls) for the others.
WORKLOADS = {
    "chain6": (lambda: chain_mlir("abs"),
               lambda rng: [rng.standard_normal(1 << 24, dtype=np.float32)],
               ref_chain6, (2 * 4 * (1 << 24), 0), "abs(max(1.5x+0.25,0)-3)*x, 2^24 f32"),
    "softmax": (lambda: softmax(4096, 1024), lambda rng: [r32(rng, 4096, 1024)],
                ref_softmax, (2 * 4 * 4096 * 1024, 0), "softmax [4096,1024]"),
    "layernorm": (lambda: layernorm(4096, 1024), lambda rng: [r32(rng, 4096, 1024)],
                  ref_layernorm, (2 * 4 * 4096 * 1024, 0), "layernorm [4096,1024]"),
    # batch-1 decode shapes (under the thread pool's 32K-element threshold: one thread) and a
    # single long row (its chunks split over threads: bufferize.split_row_reduction and
    # split_row_fusion)
    "ln_1x4096": (lambda: layernorm(1, 4096), lambda rng: [r32(rng, 1, 4096)],
                  ref_layernorm, (2 * 4 * 4096, 0), "layernorm [1,4096]"),
    "ln_3x1024": (lambda: layernorm(3, 1024), lambda rng: [r32(rng, 3, 1024)],
                  ref_layernorm, (2 * 4 * 3 * 1024, 0), "layernorm [3,1024]"),
    "sm_1x4096": (lambda: softmax(1, 4096), lambda rng: [r32(rng, 1, 4096)],
                  ref_softmax, (2 * 4 * 4096, 0), "softmax [1,4096]"),
    "sm_1x256k": (lambda: softmax(1, 1 << 18), lambda rng: [r32(rng, 1, 1 << 18)],
                  ref_softmax, (2 * 4 << 18, 0), "softmax [1,256K]"),
    "sum_1x4M": (lambda: reduce_sum(1, 1 << 22, 1), lambda rng: [r32(rng, 1, 1 << 22)],
                 lambda xp, a: a.sum(axis=1), (4 << 22, 0), "sum axis 1 of [1,4M]"),
    "row_sums": (lambda: reduce_sum(8192, 4096, 1), lambda rng: [r32(rng, 8192, 4096)],
                 lambda xp, a: a.sum(axis=1), (4 * 8192 * 4096, 0), "sum axis 1 of [8192,4096]"),
    "col_sums": (lambda: reduce_sum(8192, 4096, 0), lambda rng: [r32(rng, 8192, 4096)],
                 lambda xp, a: a.sum(axis=0), (4 * 8192 * 4096, 0), "sum axis 0 of [8192,4096]"),
    "mlp": (lambda: mlp(512, 1024, 4096, 1024),
            lambda rng: [r32(rng, 512, 1024), r32(rng, 1024, 4096) / 32, r32(rng, 4096),
                         r32(rng, 4096, 1024) / 64, r32(rng, 1024)],
            ref_mlp, (0, 2 * 512 * 1024 * 4096 * 2), "relu(x@W1+b1)@W2+b2, 512x1024->4096->1024"),
    "gelu_dense": (lambda: gelu_dense(2048, 1024, 1024),
                   lambda rng: [r32(rng, 2048, 1024), r32(rng, 1024, 1024) / 32, r32(rng, 1024)],
                   ref_gelu_dense, (0, 2 * 2048 * 1024 * 1024), "gelu(x@W+b), 2048x1024x1024"),
    "attention": (lambda: attention(8, 8, 256, 64),
                  lambda rng: [r32(rng, 8, 8, 256, 64) for _ in range(3)],
                  ref_attention, (0, 2 * 2 * 8 * 8 * 256 * 256 * 64),
                  "softmax(qk^T/8)v, b8 h8 s256 d64"),
    "attn_padded": (lambda: attention_padded(8, 8, 256, 64),
                    lambda rng: [r32(rng, 8, 8, 256, 64) for _ in range(3)] + [padding_mask(rng, 8, 256)],
                    ref_attention_padded, (0, 2 * 2 * 8 * 8 * 256 * 256 * 64),
                    "softmax(qk^T/8 + mask)v, b8 h8 s256 d64, a [8,256] padding mask"),
    # attention's kernels one by one (the same shapes; GFLOP/s of the one product, GB/s of
    # the softmax's scores read and written once)
    "attn_qk": (lambda: attention_part("qk", 8, 8, 256, 64),
                lambda rng: [r32(rng, 8, 8, 256, 64) for _ in range(2)],
                lambda xp, q, k: q @ k.swapaxes(-1, -2), (0, 2 * 8 * 8 * 256 * 256 * 64),
                "q k^T, b8 h8 s256 d64"),
    "attn_softmax": (lambda: attention_part("softmax", 8, 8, 256, 64),
                     lambda rng: [r32(rng, 8, 8, 256, 256) * 8],
                     ref_scaled_softmax, (2 * 4 * 8 * 8 * 256 * 256, 0),
                     "softmax(x/8) of the scores, [8,8,256,256]"),
    "attn_pv": (lambda: attention_part("pv", 8, 8, 256, 64),
                lambda rng: [np.abs(r32(rng, 8, 8, 256, 256)) / 256, r32(rng, 8, 8, 256, 64)],
                lambda xp, p, v: p @ v, (0, 2 * 8 * 8 * 256 * 256 * 64),
                "p v, b8 h8 s256 d64"),
    "conv": (lambda: conv_nhwc(8, 32, 64, 64, 3),
             lambda rng: [r32(rng, 8, 32, 32, 64), r32(rng, 3, 3, 64, 64) / 24],
             ref_conv, (0, 2 * 8 * 32 * 32 * 64 * 64 * 9), "conv 3x3 NHWC [8,32,32,64]->64"),
}
MAX_REL_ERR = 1e-3


# ---------------------------------------------------------------------------------------------
# The child: one workload on one thread count.

def time_interleaved(impls, reps: int, warmup: int = 1) -> dict:
    """{label: (median s, min s)} for impls = [(label, fn)]. After warmup calls of each, every
    repetition calls every implementation in turn, so load from other processes drifting over
    the run hits all of them alike. Each turn is one untimed call, then the timed one: the
    thread pool of the implementation before can keep spinning for a while after its call
    returns (OpenBLAS's workers do), and on 2 cores that took a core from the next one (aot's
    MLP on 2 threads: 65 ms alone, 116 ms right after numpy's sgemm)."""
    for _label, fn in impls:
        for _ in range(warmup):
            fn()
    times: dict = {label: [] for label, _ in impls}
    gc.collect()
    gc_was = gc.isenabled()
    gc.disable()
    try:
        for _ in range(reps):
            for label, fn in impls:
                fn()
                t0 = time.perf_counter()
                fn()
                times[label].append(time.perf_counter() - t0)
    finally:
        if gc_was:
            gc.enable()
    return {label: (statistics.median(t), min(t)) for label, t in times.items()}


def machine_peaks(n: int, reps: int = 5) -> dict:
    """What this process reaches on its n threads: STREAM-like copy and triad bandwidth with
    numpy (64 MiB f32 arrays, each of n Python threads working on its own slice; numpy drops the
    GIL inside copyto and ufuncs) and OpenBLAS sgemm (2048^3 through numpy, OPENBLAS_NUM_THREADS
    = n). The copy is the peak rows are compared with: one memmove per thread, no Python in the
    loop. The triad (a = b + s*c, in 128 KiB blocks so the product stays in cache: reads b, c
    and writes a once) is printed beside it as a check. Bytes exclude write-allocate traffic.
    Like STREAM, each figure is the best repetition (the fastest time), not the median."""
    from concurrent.futures import ThreadPoolExecutor
    size = 1 << 24
    a, b, c = (np.full(size, v, np.float32) for v in (0.0, 1.0, 2.0))
    s = np.float32(3.0)
    bounds = [(size * i // n, size * (i + 1) // n) for i in range(n)]
    block = 1 << 15

    def copy_part(lo, hi):
        np.copyto(b[lo:hi], a[lo:hi])

    def triad_part(lo, hi):
        for i in range(lo, hi, block):
            j = min(i + block, hi)
            np.multiply(c[i:j], s, out=a[i:j])
            np.add(a[i:j], b[i:j], out=a[i:j])

    pool = ThreadPoolExecutor(n) if n > 1 else None

    def run(part):
        if pool is None:
            return lambda: part(0, size)
        return lambda: list(pool.map(lambda lh: part(*lh), bounds))

    m = np.full((2048, 2048), 0.5, np.float32)
    t = time_interleaved([("copy", run(copy_part)), ("triad", run(triad_part))], reps)
    gemm = time_interleaved([("gemm", lambda: m @ m)], 3)["gemm"][1]
    if pool is not None:
        pool.shutdown()
    return {"copy_gbs": 2 * 4 * size / t["copy"][1] / 1e9,
            "triad_gbs": 3 * 4 * size / t["triad"][1] / 1e9,
            "blas_gflops": 2 * 2048 ** 3 / gemm / 1e9}


def child(name: str, threads: int, lib_path: str | None, reps: int) -> int:
    make_text, make_inputs, ref_fn, (nbytes, flops), _label = WORKLOADS[name]
    jax, jnp, jax_note = bench_env.probe_jax("XLA rows")
    print(f"  [{name}, {threads} thread(s)] pinned to {_PINNED}; XLA_FLAGS="
          f"{os.environ.get('XLA_FLAGS') or '(none)'}; {jax_note}")
    peaks = machine_peaks(threads)
    print(f"  peaks on {threads} thread(s): copy {peaks['copy_gbs']:.1f} GB/s, triad "
          f"{peaks['triad_gbs']:.1f} GB/s, sgemm {peaks['blas_gflops']:.1f} GFLOP/s")
    lib = aot.load(lib_path) if lib_path else aot.compile(make_text(), name=f"bench_{name}")
    lib.set_num_threads(threads)
    inputs = make_inputs(np.random.default_rng(0))

    want = ref_fn(np, *[a.astype(np.float64) for a in inputs])
    scale = float(np.abs(want).max()) or 1.0
    errors = {"aot": float(np.abs(lib.main(*inputs) - want).max()) / scale}
    # "aot out=" writes into one preallocated result: the kernels without the cost of a
    # fresh result (allocating and first-touching it), which "aot" includes as users see it
    out = np.empty_like(lib.main(*inputs))
    impls = [("aot", lambda: lib.main(*inputs)), ("aot out=", lambda: lib.main(*inputs, out=out)),
             ("numpy", lambda: ref_fn(np, *inputs))]
    if jax is not None:
        jitted = jax.jit(lambda *a: ref_fn(jnp, *a))
        dev = [jax.device_put(a) for a in inputs]
        errors["jax.jit"] = float(np.abs(np.asarray(jitted(*dev)) - want).max()) / scale
        impls.append(("jax.jit", lambda: jitted(*dev).block_until_ready()))
    del want
    print("  max relative error against float64 numpy: "
          + ", ".join(f"{k} {v:.1e}" for k, v in errors.items()))
    if not errors["aot"] <= MAX_REL_ERR:
        print(f"  FAILED: aot's result differs from numpy's by {errors['aot']:.3g} "
              f"(relative to max |ref|), more than {MAX_REL_ERR:g}")
        return 1
    timed = time_interleaved(impls, reps)
    print(RESULT_TAG + json.dumps({
        "workload": name, "threads": threads, "pinned": _PINNED, "jax": jax is not None,
        "jax_note": jax_note, "peaks": peaks, "errors": errors, "bytes": nbytes, "flops": flops,
        "rows": [{"impl": k, "median_s": v[0], "min_s": v[1]} for k, v in timed.items()]}))
    return 0


# ---------------------------------------------------------------------------------------------
# Sweeps: one library with a `?` dim over many sizes, against jax.jit compiled per exact shape.

def mlp_dynamic(k, h, n):
    """relu(x @ W1 + b1) @ W2 + b2 with x: tensor<?xK>, the weights as arguments; the biases
    broadcast to the run-time batch as jax.export prints it."""
    x, hid, out = f"tensor<?x{k}xf32>", f"tensor<?x{h}xf32>", f"tensor<?x{n}xf32>"

    def bias(name, value, width, t):
        return [f"%c{name} = stablehlo.constant dense<{width}> : tensor<1xi32>",
                f"%s{name} = stablehlo.concatenate %m1, %c{name}, dim = 0 : (tensor<1xi32>, "
                f"tensor<1xi32>) -> tensor<2xi32>",
                f"%{name}b = stablehlo.dynamic_broadcast_in_dim %{value}, %s{name}, dims = [1] : "
                f"(tensor<{width}xf32>, tensor<2xi32>) -> {t}"]
    lines = ["%m = stablehlo.get_dimension_size %x, dim = 0 : " + f"({x}) -> tensor<i32>",
             "%m1 = stablehlo.reshape %m : (tensor<i32>) -> tensor<1xi32>",
             *bias("h", "b1", h, hid), *bias("o", "b2", n, out),
             "%z = stablehlo.constant dense<0.0> : tensor<f32>",
             f"%zz = stablehlo.dynamic_broadcast_in_dim %z, %sh, dims = [] : (tensor<f32>, "
             f"tensor<2xi32>) -> {hid}",
             f"%y1 = stablehlo.dot_general %x, %w1, contracting_dims = [1] x [0] : ({x}, "
             f"tensor<{k}x{h}xf32>) -> {hid}",
             f"%y2 = stablehlo.add %y1, %hb : {hid}", f"%y3 = stablehlo.maximum %y2, %zz : {hid}",
             f"%y4 = stablehlo.dot_general %y3, %w2, contracting_dims = [1] x [0] : ({hid}, "
             f"tensor<{h}x{n}xf32>) -> {out}",
             f"%y5 = stablehlo.add %y4, %ob : {out}"]
    body = "\n  ".join(lines)
    return (f"func.func @main(%x: {x}, %w1: tensor<{k}x{h}xf32>, %b1: tensor<{h}xf32>, "
            f"%w2: tensor<{h}x{n}xf32>, %b2: tensor<{n}xf32>) -> {out} {{\n  {body}\n"
            f"  return %y5 : {out}\n}}")


def chain_dynamic(rank):
    """tanh then exp over a tensor of `rank` dynamic dims."""
    t = "tensor<" + "?x" * rank + "f32>"
    return (f"func.func @main(%x: {t}) -> {t} {{\n  %t = stablehlo.tanh %x : {t}\n"
            f"  %e = stablehlo.exponential %t : {t}\n  return %e : {t}\n}}")


MLP_SIZES = [*range(1, 17), 32, 64, 128, 512]
SPLIT_N = 1 << 22
# name -> (its libraries' MLIR texts, description)
SWEEPS = {
    "mlp_batch": ({"mlp": lambda: mlp_dynamic(1024, 4096, 1024)},
                  "relu(x@W1+b1)@W2+b2, x [?, 1024], W1 [1024, 4096], W2 [4096, 1024] (arguments),"
                  f" M = {', '.join(map(str, MLP_SIZES))}"),
    "split": ({"rank1": lambda: chain_dynamic(1), "rank2": lambda: chain_dynamic(2)},
              f"exp(tanh(x)), {SPLIT_N} f32 as [N], [1, N], [2, N/2], [3, N/3]"),
}


def sweep_cases(name, rng):
    """[(label, library key, inputs, reference function(xp, *inputs))] of a sweep."""
    if name == "mlp_batch":
        weights = [r32(rng, 1024, 4096) / 32, r32(rng, 4096), r32(rng, 4096, 1024) / 64,
                   r32(rng, 1024)]
        return [(f"M={m}", "mlp", [r32(rng, m, 1024), *weights], ref_mlp) for m in MLP_SIZES]
    x = r32(rng, SPLIT_N)
    third = SPLIT_N // 3 * 3

    def ref(xp, a):
        return xp.exp(xp.tanh(a))
    return [("[N]", "rank1", [x], ref), ("[1, N]", "rank2", [x.reshape(1, -1)], ref),
            ("[2, N/2]", "rank2", [x.reshape(2, -1)], ref),
            ("[3, N/3]", "rank2", [x[:third].reshape(3, -1)], ref)]


def sweep_child(name: str, threads: int, lib_paths: dict, reps: int) -> int:
    """Each case: the one library against jax.jit compiled for that exact shape (and numpy),
    interleaved; median and min per case."""
    jax, jnp, jax_note = bench_env.probe_jax("XLA rows")
    print(f"  [{name}, {threads} thread(s)] pinned to {_PINNED}; {jax_note}")
    libs = {key: aot.load(path) for key, path in lib_paths.items()}
    for lib in libs.values():
        lib.set_num_threads(threads)
    rows = []
    for label, key, inputs, ref in sweep_cases(name, np.random.default_rng(0)):
        lib = libs[key]
        want = ref(np, *[a.astype(np.float64) for a in inputs])
        err = float(np.abs(lib.main(*inputs) - want).max()) / (float(np.abs(want).max()) or 1.0)
        if not err <= MAX_REL_ERR:
            print(f"  FAILED: {label}: aot differs from numpy by {err:.3g}")
            return 1
        impls = [("aot", lambda: lib.main(*inputs)), ("numpy", lambda: ref(np, *inputs))]
        if jax is not None:
            jitted = jax.jit(lambda *a: ref(jnp, *a))
            dev = [jax.device_put(a) for a in inputs]
            impls.append(("jax.jit", lambda: jitted(*dev).block_until_ready()))
        timed = time_interleaved(impls, reps)
        rows.append({"case": label, **{k: v for k, v in timed.items()}})
    print(RESULT_TAG + json.dumps({"sweep": name, "threads": threads, "jax": jax is not None,
                                   "rows": rows}))
    return 0


def print_sweep(result: dict) -> None:
    """One line per case: medians (min), aot over the reference; then the worst ratio."""
    ref = "jax.jit" if result["jax"] else "numpy"
    print(f"\n{result['sweep']} on {result['threads']} thread(s): median ms (min), aot / {ref}")
    worst = (0.0, "")
    for row in result["rows"]:
        ratio = row["aot"][0] / row[ref][0]
        worst = max(worst, (ratio, row["case"]))
        cells = "  ".join(f"{k} {row[k][0] * 1e3:7.3f} ({row[k][1] * 1e3:7.3f})"
                          for k in ("aot", ref, "numpy") if k in row and (k != "numpy" or ref != k))
        print(f"  {row['case']:<10} {cells}   {ratio:5.2f}x")
    print(f"  worst: {worst[0]:.2f}x at {worst[1]} (aot's median over {ref}'s; above 1: slower)")
    if result["sweep"] == "split":
        by = {row["case"]: row["aot"][0] for row in result["rows"]}
        print(f"  [1, N] / [N]: {by['[1, N]'] / by['[N]']:.2f}x   [2, N/2] / [N]: "
              f"{by['[2, N/2]'] / by['[N]']:.2f}x (goal: [1, N] within 1.1x of [N])")


# ---------------------------------------------------------------------------------------------
# The parent: compile, spawn the children, print the table.

def run_child(name: str, threads: int, lib_path: str, reps: int):
    """Runs one child; forwards its log lines and returns its JSON result (None on failure).
    A sweep's child gets its libraries as one JSON object {key: path}."""
    cmd = [sys.executable, os.path.abspath(__file__), "--child", name, "--threads", str(threads),
           "--lib", lib_path, "--reps", str(reps)]
    proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                          cwd=bench_env.ROOT)
    result = None
    for line in proc.stdout.splitlines():
        if line.startswith(RESULT_TAG):
            result = json.loads(line[len(RESULT_TAG):])
        elif line.strip():
            print(line)
    if proc.returncode != 0 or result is None:
        print(f"  FAILED: {name} on {threads} thread(s), exit status {proc.returncode}")
        return None
    return result


def print_table(results: list) -> None:
    with_jax = bool(results) and all(r["jax"] for r in results)
    vs = "vs XLA" if with_jax else "vs numpy"
    head = (f"{'workload':<11} {'thr':>3} {'impl':<8} {'median ms':>9} {'min ms':>8} "
            f"{'rate':>15} {'peak (same thr)':>21} {'% peak':>6} {vs:>8}")
    print(head)
    print("-" * len(head))
    for r in results:
        by = {row["impl"]: row["median_s"] for row in r["rows"]}
        ref = by.get("jax.jit") if with_jax else by.get("numpy")
        p = r["peaks"]
        for row in r["rows"]:
            t = row["median_s"]
            if r["flops"]:
                rate, peak = r["flops"] / t / 1e9, p["blas_gflops"]
                rate_s, peak_s = f"{rate:.1f} GFLOP/s", f"sgemm {peak:.1f} GFLOP/s"
            else:
                rate, peak = r["bytes"] / t / 1e9, p["copy_gbs"]
                rate_s, peak_s = f"{rate:.2f} GB/s", f"copy {peak:.2f} GB/s"
            print(f"{r['workload']:<11} {r['threads']:>3} {row['impl']:<8} {t * 1e3:9.2f} "
                  f"{row['min_s'] * 1e3:8.2f} {rate_s:>15} {peak_s:>21} {rate / peak:6.0%} "
                  f"{ref / t:7.2f}x")
    print()
    print("rate: GB/s = (inputs read once + result written once) / median, or GFLOP/s = 2 * "
          "multiply-adds / median;")
    print("% peak: that rate over the copy bandwidth (np.copyto, read + write, on the same number "
          "of threads) or numpy's sgemm (OpenBLAS, same threads), best of the child's own runs;")
    print("  read-only reductions and 16 MiB inputs that partly stay in cache can exceed 100 % of "
          "a 64 MiB copy;")
    print(f"{vs}: the {'jax.jit' if with_jax else 'numpy'} median at the same thread count over "
          "this row's (above 1: this row is faster).")
    if not with_jax:
        print("note: JAX is not installed (or did not start) in this Python, so there are no XLA "
              "rows and the ratios are to numpy; pip install jax to compare with XLA.")


def parent(args) -> int:
    names = [w.strip() for w in args.workloads.split(",") if w.strip()]
    unknown = [w for w in names if w not in WORKLOADS]
    unknown += [w for w in args.sweeps.split(",") if w.strip() and w.strip() not in SWEEPS]
    if unknown:
        print(f"unknown workload(s) {', '.join(unknown)}; choose from {', '.join(WORKLOADS)}")
        return 2
    threads = [int(t) for t in args.threads.split(",") if t.strip()]
    import datetime
    import platform
    print(f"cpu_workloads benchmark — {datetime.datetime.now().isoformat(timespec='seconds')}")
    print(f"cpu: {bench_env.cpu_name()} ({os.cpu_count()} logical); python "
          f"{platform.python_version()}, numpy {np.__version__}; reps {args.reps} (interleaved, "
          f"each after one untimed call; median), threads {threads}; load average at start "
          f"{bench_env.loadavg()}")
    print(f"AOTC cache: {aot.driver.cache_dir()}; one child process per (workload, threads)")
    results, failed = [], []
    t_start = time.perf_counter()
    for name in names:
        make_text, _inputs, _ref, _cost, label = WORKLOADS[name]
        t0 = time.perf_counter()
        try:
            lib = aot.compile(make_text(), name=f"bench_{name}")
        except Exception as e:  # a compile failure skips this workload, and fails the run
            print(f"{name}: FAILED to compile: {type(e).__name__}: {e}")
            failed.append(name)
            continue
        print(f"{name}: {label}; aot.compile (or cache load) {time.perf_counter() - t0:.2f} s")
        for n in threads:
            r = run_child(name, n, lib.path, args.reps)
            if r is None:
                failed.append(f"{name}/{n}")
            else:
                results.append(r)
    sweeps = []
    for name in [w.strip() for w in args.sweeps.split(",") if w.strip()]:
        texts, label = SWEEPS[name]
        print(f"sweep {name}: {label}")
        paths = json.dumps({key: aot.compile(text(), name=f"bench_{name}_{key}").path
                            for key, text in texts.items()})
        for n in threads:
            r = run_child(name, n, paths, args.reps)
            if r is None:
                failed.append(f"{name}/{n}")
            else:
                sweeps.append(r)
    print(f"\nall children: {time.perf_counter() - t_start:.0f} s; load average at end "
          f"{bench_env.loadavg()}\n")
    if results:
        print_table(results)
    for r in sweeps:
        print_sweep(r)
    if failed:
        print(f"\nFAILED: {', '.join(failed)}")
        return 1
    return 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--reps", type=int, default=5, help="timed repetitions per implementation")
    ap.add_argument("--workloads", default=",".join(WORKLOADS),
                    help=f"comma-separated subset of {','.join(WORKLOADS)}")
    ap.add_argument("--threads", default="1,2", help="thread counts, one child each (default 1,2)")
    ap.add_argument("--sweeps", default=",".join(SWEEPS),
                    help=f"comma-separated subset of {','.join(SWEEPS)} ('' for none): one "
                         "library with a ? dim over many sizes against jax.jit per shape")
    ap.add_argument("--child", metavar="WORKLOAD", help=argparse.SUPPRESS)
    ap.add_argument("--lib", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child in SWEEPS:
        return sweep_child(args.child, _CHILD_THREADS, json.loads(args.lib), args.reps)
    if args.child:
        return child(args.child, _CHILD_THREADS, args.lib, args.reps)
    return parent(args)


if __name__ == "__main__":
    raise SystemExit(main())
