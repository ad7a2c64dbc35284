"""Quantized (int8) models against their f32 versions, both compiled by this project: a
2-layer MLP (a CNN is still to come), written in StableHLO with `!quant.uniform` types (weights per
output channel, activations per tensor), the way a quantized export writes them. Prints each
model's median time in both forms and the ratio. A benchmark, not a test: it asserts nothing
about time; the int8 results are checked against the f32 ones within the quantization error.

    python benchmarks/quantized.py [--reps 20] [--batch 64]

Quantized ops compute by the spec's reference semantics here (dequantize, compute in f32,
quantize), so int8 costs more than f32 until dot and convolution get an integer path.
"""
from __future__ import annotations

import bench_env  # noqa: F401  one thread everywhere; must come before numpy

# isort: split

import argparse  # noqa: E402

import numpy as np  # noqa: E402

import aot  # noqa: E402

ACT = "!quant.uniform<i8:f32, 0.05:0>"


def per_channel(scales) -> str:
    return "!quant.uniform<i8:f32:1, {" + ", ".join(f"{s:.6g}:0" for s in scales) + "}>"


def mlp(batch: int, d: int, w1_scales, w2_scales, quantized: bool) -> str:
    """x @ w1, relu, @ w2 (the quantized form: int8 weights, int8 activations)."""
    if not quantized:
        return f"""func.func @main(%x: tensor<{batch}x{d}xf32>, %w1: tensor<{d}x{d}xf32>, %w2: tensor<{d}x{d}xf32>) -> tensor<{batch}x{d}xf32> {{
  %h = stablehlo.dot_general %x, %w1, contracting_dims = [1] x [0] : (tensor<{batch}x{d}xf32>, tensor<{d}x{d}xf32>) -> tensor<{batch}x{d}xf32>
  %z = stablehlo.constant dense<0.0> : tensor<{batch}x{d}xf32>
  %r = stablehlo.maximum %h, %z : tensor<{batch}x{d}xf32>
  %y = stablehlo.dot_general %r, %w2, contracting_dims = [1] x [0] : (tensor<{batch}x{d}xf32>, tensor<{d}x{d}xf32>) -> tensor<{batch}x{d}xf32>
  return %y : tensor<{batch}x{d}xf32>
}}"""  # noqa: E501
    q1, q2 = per_channel(w1_scales), per_channel(w2_scales)
    t = f"tensor<{batch}x{d}x{ACT}>"
    head = (f"func.func @main(%x: tensor<{batch}x{d}xf32>, %w1: tensor<{d}x{d}x{q1}>, "
            f"%w2: tensor<{d}x{d}x{q2}>) -> tensor<{batch}x{d}xf32> {{")
    body = f"""
  %xq = stablehlo.uniform_quantize %x : (tensor<{batch}x{d}xf32>) -> {t}
  %h = stablehlo.dot_general %xq, %w1, contracting_dims = [1] x [0] : ({t}, tensor<{d}x{d}x{q1}>) -> {t}
  %zf = stablehlo.constant dense<0.0> : tensor<{batch}x{d}xf32>
  %z = stablehlo.uniform_quantize %zf : (tensor<{batch}x{d}xf32>) -> {t}
  %r = stablehlo.maximum %h, %z : {t}
  %y = stablehlo.dot_general %r, %w2, contracting_dims = [1] x [0] : ({t}, tensor<{d}x{d}x{q2}>) -> {t}
  %yf = stablehlo.uniform_dequantize %y : ({t}) -> tensor<{batch}x{d}xf32>
  return %yf : tensor<{batch}x{d}xf32>
}}"""  # noqa: E501
    return head + body


def quantize_weights(w: np.ndarray):
    """Per output channel (the last dim): scales, int8 weights, and the weights they stand for."""
    scales = np.abs(w).max(axis=0) / 127.0
    q = np.clip(np.round(w / scales), -127, 127).astype(np.int8)
    return scales.astype(np.float32), q, (q * scales).astype(np.float32)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--reps", type=int, default=20)
    ap.add_argument("--batch", type=int, default=64)
    ap.add_argument("--width", type=int, default=256)
    args = ap.parse_args()
    rng = np.random.default_rng(0)
    b, d = args.batch, args.width
    w1 = rng.standard_normal((d, d)).astype(np.float32) / np.sqrt(d)
    w2 = rng.standard_normal((d, d)).astype(np.float32) / np.sqrt(d)
    (s1, q1, f1), (s2, q2, f2) = quantize_weights(w1), quantize_weights(w2)
    x = (rng.standard_normal((b, d)) * 0.5).astype(np.float32)
    f32 = aot.compile(mlp(b, d, s1, s2, quantized=False), name="mlp_f32")
    i8 = aot.compile(mlp(b, d, s1, s2, quantized=True), name="mlp_int8")
    want = f32.main(x, f1, f2)
    got = i8.main(x, q1, q2)
    err = float(np.max(np.abs(got - want)))
    assert err < 0.3, f"int8 MLP differs from f32 by {err} (more than a few quantization steps)"
    t_f32 = bench_env.median_ms(lambda: f32.main(x, f1, f2), args.reps)
    t_i8 = bench_env.median_ms(lambda: i8.main(x, q1, q2), args.reps)
    print(f"# quantized MLP ({b}x{d}, 2 layers), 1 thread, {bench_env.cpu_name()}")
    print("| model | f32 ms | int8 ms | int8 / f32 | max abs diff |\n|---|---|---|---|---|")
    print(f"| mlp | {t_f32:.3f} | {t_i8:.3f} | {t_i8 / t_f32:.2f}x | {err:.3g} |")


if __name__ == "__main__":
    main()
