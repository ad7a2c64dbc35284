"""The CPU-speed issue's workloads, each in one process run: the compiled library on 1 and 2
threads, numpy, and jax.jit when JAX is installed (a note otherwise). Prints median times,
the ratio to XLA (or numpy), and GB/s or GFLOP/s against the machine's measured copy
bandwidth and single-core BLAS speed. A benchmark, not a test: nothing is asserted about time.

    python benchmarks/cpu_workloads.py [--reps N] [--workloads softmax,mlp]
"""
from __future__ import annotations

import bench_env  # noqa: F401  one thread everywhere; must come before numpy and jax

import argparse  # noqa: E402
import statistics  # noqa: E402
import time  # noqa: E402

import numpy as np  # noqa: E402

import aot  # noqa: E402


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
}}"""


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
}}"""


def reduce_sum(rows, cols, dim):
    t, r = f32(rows, cols), f32(cols if dim == 0 else rows)
    return f"""func.func @main(%x: {t}) -> {r} {{
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %s = stablehlo.reduce(%x init: %zero) applies stablehlo.add across dimensions = [{dim}] : ({t}, tensor<f32>) -> {r}
  return %s : {r}
}}"""


def dense(x, w, b, act):
    """StableHLO lines for act(x @ w + b); returns (lines, result name)."""
    (m, k), (_, n) = x[1], w[1]
    out = f32(m, n)
    lines = [f"%{x[0]}_{w[0]} = stablehlo.dot_general %{x[0]}, %{w[0]}, contracting_dims = [1] x [0] : ({f32(m, k)}, {f32(k, n)}) -> {out}",
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
}}"""


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
}}"""


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


def workloads(rng):
    """name -> (mlir, inputs, numpy function, (bytes moved, flops))."""
    r = lambda *s: rng.standard_normal(s).astype(np.float32)  # noqa: E731
    x = r(4096, 1024)
    big = r(8192, 4096)
    m_x, w1, b1, w2, b2 = r(512, 1024), r(1024, 4096) / 32, r(4096), r(4096, 1024) / 64, r(1024)
    g_x, g_w, g_b = r(2048, 1024), r(1024, 1024) / 32, r(1024)
    q, k, v = r(8, 8, 256, 64), r(8, 8, 256, 64), r(8, 8, 256, 64)
    return {
        "softmax": (softmax(4096, 1024), [x], ref_softmax, (2 * x.nbytes, 0)),
        "layernorm": (layernorm(4096, 1024), [x], ref_layernorm, (2 * x.nbytes, 0)),
        "row_sums": (reduce_sum(8192, 4096, 1), [big], lambda xp, a: a.sum(axis=1), (big.nbytes, 0)),
        "col_sums": (reduce_sum(8192, 4096, 0), [big], lambda xp, a: a.sum(axis=0), (big.nbytes, 0)),
        "mlp": (mlp(512, 1024, 4096, 1024), [m_x, w1, b1, w2, b2], ref_mlp,
                (0, 2 * 512 * 1024 * 4096 * 2)),
        "gelu_dense": (gelu_dense(2048, 1024, 1024), [g_x, g_w, g_b], ref_gelu_dense,
                       (0, 2 * 2048 * 1024 * 1024)),
        "attention": (attention(8, 8, 256, 64), [q, k, v], ref_attention,
                      (0, 2 * 2 * 8 * 8 * 256 * 256 * 64)),
    }


def median_time(fn, reps):
    fn()
    times = []
    for _ in range(reps):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def machine_peaks(reps):
    a = np.ones(1 << 24, np.float32)
    b = np.empty_like(a)
    copy = median_time(lambda: np.copyto(b, a), reps)
    m = np.ones((1024, 1024), np.float32)
    gemm = median_time(lambda: m @ m, reps)
    return 2 * a.nbytes / copy / 1e9, 2 * 1024 ** 3 / gemm / 1e9


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--workloads", default="softmax,layernorm,row_sums,col_sums,mlp,gelu_dense,attention")
    args = ap.parse_args()
    try:
        import jax
        jax_ok = True
    except ImportError:
        jax_ok = False
        print("note: JAX is not installed; ratios are against numpy (pip install jax to compare with XLA)")
    bandwidth, blas = machine_peaks(args.reps)
    print(f"machine: copy bandwidth {bandwidth:.1f} GB/s, one-core BLAS sgemm {blas:.1f} GFLOP/s")
    rng = np.random.default_rng(0)
    table = workloads(rng)
    print(f"{'workload':11s} {'impl':12s} {'median ms':>9s} {'rate':>16s} {'of peak':>8s} {'vs ref':>7s}")
    for name in args.workloads.split(","):
        text, inputs, ref_fn, (nbytes, flops) = table[name]
        lib = aot.compile(text, name=f"bench_{name}")
        want = ref_fn(np, *[a.astype(np.float64) for a in inputs])
        got = lib.main(*inputs)
        err = float(np.abs(got - want).max() / (np.abs(want).max() or 1))
        rows = []
        for threads in (1, 2):
            lib.set_num_threads(threads)
            rows.append((f"aot {threads} thr", median_time(lambda: lib.main(*inputs), args.reps)))
        rows.append(("numpy", median_time(lambda: ref_fn(np, *inputs), args.reps)))
        if jax_ok:
            import jax.numpy as jnp
            jitted = jax.jit(lambda *a: ref_fn(jnp, *a))
            device_inputs = [jnp.asarray(a) for a in inputs]
            rows.append(("jax.jit", median_time(
                lambda: jitted(*device_inputs).block_until_ready(), args.reps)))
        ref = dict(rows)["jax.jit" if jax_ok else "numpy"]
        for impl, t in rows:
            if flops:
                rate, peak = f"{flops / t / 1e9:.1f} GFLOP/s", flops / t / 1e9 / blas
            else:
                rate, peak = f"{nbytes / t / 1e9:.1f} GB/s", nbytes / t / 1e9 / bandwidth
            print(f"{name:11s} {impl:12s} {t * 1e3:9.2f} {rate:>16s} {peak:7.0%} {ref / t:6.2f}x")
        print(f"{'':11s} (max relative error against float64 numpy: {err:.1e})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
