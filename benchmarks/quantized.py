"""Quantized (int8) models against their f32 versions, both compiled by this project: a
2-layer MLP and a CNN of three 3x3 convolutions, written in StableHLO with `!quant.uniform`
types the way a quantized export writes them (constant weights quantized per output channel,
activations per tensor with scales calibrated on the f32 model). Prints each model's median
time in both forms and the ratio, with the machine's load. A benchmark, not a test: it
asserts nothing about time; the int8 results are checked against the f32 ones within a few
quantization steps.

    python benchmarks/quantized.py [--reps 20] [--batch 64] [--width 256] [--image 32]

The int8 dot_general / convolution run as integers (lowering/ops/quantized.py): operands
centred into i16 (constant weights at compile time), the packed matmul's i16 pair kernel
(vpmaddwd, or vpdpwssd with AVX512-VNNI) accumulating in i32, then one elementwise pass that
scales the accumulator and quantizes it (fused with the next layer's relu and centring).
"""
from __future__ import annotations

import bench_env  # noqa: F401  one thread everywhere; must come before numpy

# isort: split

import argparse  # noqa: E402

import numpy as np  # noqa: E402

import aot  # noqa: E402


def act_type(scale: float) -> str:
    return f"!quant.uniform<i8:f32, {scale:.9g}:0>"


def per_channel(scales, axis: int) -> str:
    return (f"!quant.uniform<i8:f32:{axis}, {{" + ", ".join(f"{s:.9g}:0" for s in scales)
            + "}>")


def dense(a: np.ndarray) -> str:
    """A constant's value in the hex form exporters print."""
    return '"0x' + np.ascontiguousarray(a).tobytes().hex().upper() + '"'


def tensor(shape, elem: str) -> str:
    return f"tensor<{'x'.join(map(str, shape))}x{elem}>"


def quantize_weights(w: np.ndarray):
    """Per output channel (the last dim): scales, int8 weights, and the f32 weights they
    stand for (which the f32 model uses, so both compute the same function)."""
    axes = tuple(range(w.ndim - 1))
    scales = (np.abs(w).max(axis=axes) / 127.0).astype(np.float32)
    q = np.clip(np.round(w / scales), -127, 127).astype(np.int8)
    return scales, q, (q * scales).astype(np.float32)


def relu_q(name: str, x: str, t: str) -> str:
    """relu on a quantized tensor: maximum with a quantized zero."""
    shape_f = t.split("x!quant")[0] + "xf32>"
    return (f"  %{name}_zf = stablehlo.constant dense<0.0> : {shape_f}\n"
            f"  %{name}_z = stablehlo.uniform_quantize %{name}_zf : ({shape_f}) -> {t}\n"
            f"  %{name} = stablehlo.maximum {x}, %{name}_z : {t}\n")


# ----------------------------------------------------------------------------- MLP


def mlp(batch: int, d: int, layers, act_scales, quantized: bool) -> str:
    """x @ w1, relu, @ w2; `layers` holds each weight's (scales, int8, f32 values)."""
    xt = tensor([batch, d], "f32")
    lines = []
    if not quantized:
        for i, (_, _, w) in enumerate(layers):
            lines.append(f"  %w{i} = stablehlo.constant dense<{dense(w)}> : {tensor(w.shape, 'f32')}")
        lines.append(f"  %h = stablehlo.dot_general %x, %w0, contracting_dims = [1] x [0] : ({xt}, {tensor([d, d], 'f32')}) -> {xt}")  # noqa: E501
        lines.append(f"  %z = stablehlo.constant dense<0.0> : {xt}")
        lines.append(f"  %r = stablehlo.maximum %h, %z : {xt}")
        lines.append(f"  %y = stablehlo.dot_general %r, %w1, contracting_dims = [1] x [0] : ({xt}, {tensor([d, d], 'f32')}) -> {xt}")  # noqa: E501
        lines.append(f"  return %y : {xt}")
    else:
        tx, th, ty = (tensor([batch, d], act_type(s)) for s in act_scales)
        wt = [tensor([d, d], per_channel(s, 1)) for s, _, _ in layers]
        for i, (_, q, _) in enumerate(layers):
            lines.append(f"  %w{i} = stablehlo.constant dense<{dense(q)}> : {wt[i]}")
        lines.append(f"  %xq = stablehlo.uniform_quantize %x : ({xt}) -> {tx}")
        lines.append(f"  %h = stablehlo.dot_general %xq, %w0, contracting_dims = [1] x [0] : ({tx}, {wt[0]}) -> {th}")  # noqa: E501
        lines.append(relu_q("r", "%h", th).rstrip("\n"))
        lines.append(f"  %y = stablehlo.dot_general %r, %w1, contracting_dims = [1] x [0] : ({th}, {wt[1]}) -> {ty}")  # noqa: E501
        lines.append(f"  %yf = stablehlo.uniform_dequantize %y : ({ty}) -> {xt}")
        lines.append(f"  return %yf : {xt}")
    return f"func.func @main(%x: {xt}) -> {xt} {{\n" + "\n".join(lines) + "\n}"


def mlp_reference(x, layers):
    """The f32 model in numpy, and its activations' largest magnitudes (the calibration)."""
    h = x @ layers[0][2]
    y = np.maximum(h, 0) @ layers[1][2]
    return y, [np.abs(a).max() for a in (x, h, y)]


# ----------------------------------------------------------------------------- CNN

CONV = ("dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {{stride = [{s}, {s}], "
        "pad = [[1, 1], [1, 1]]}} {{batch_group_count = 1 : i64, feature_group_count = 1 : i64}}")


def cnn_shapes(batch: int, image: int, channels):
    """NHWC shapes of the input and each conv's output: 3x3 'SAME' convolutions, the last
    one with stride 2."""
    shapes, hw = [(batch, image, image, channels[0])], image
    for i, c in enumerate(channels[1:]):
        hw = hw // 2 if i == len(channels) - 2 else hw
        shapes.append((batch, hw, hw, c))
    return shapes


def cnn(shapes, layers, act_scales, quantized: bool) -> str:
    """conv, relu, conv, relu, conv (stride 2), NHWC x HWIO."""
    xt = tensor(shapes[0], "f32")
    out_f = tensor(shapes[-1], "f32")
    lines, cur = [], "%x"
    if quantized:
        tq = [tensor(s, act_type(a)) for s, a in zip(shapes, act_scales)]
        lines.append(f"  %xq = stablehlo.uniform_quantize %x : ({xt}) -> {tq[0]}")
        cur = "%xq"
    for i, (scales, q, w) in enumerate(layers):
        stride = 2 if i == len(layers) - 1 else 1
        if quantized:
            wt, it, ot = tensor(w.shape, per_channel(scales, 3)), tq[i], tq[i + 1]
            lines.append(f"  %w{i} = stablehlo.constant dense<{dense(q)}> : {wt}")
        else:
            wt, it, ot = tensor(w.shape, "f32"), tensor(shapes[i], "f32"), tensor(shapes[i + 1], "f32")
            lines.append(f"  %w{i} = stablehlo.constant dense<{dense(w)}> : {wt}")
        lines.append(f"  %c{i} = stablehlo.convolution({cur}, %w{i}) {CONV.format(s=stride)} : ({it}, {wt}) -> {ot}")  # noqa: E501
        cur = f"%c{i}"
        if i < len(layers) - 1:
            if quantized:
                lines.append(relu_q(f"r{i}", cur, ot).rstrip("\n"))
            else:
                lines.append(f"  %z{i} = stablehlo.constant dense<0.0> : {ot}")
                lines.append(f"  %r{i} = stablehlo.maximum {cur}, %z{i} : {ot}")
            cur = f"%r{i}"
    if quantized:
        lines.append(f"  %yf = stablehlo.uniform_dequantize {cur} : ({tq[-1]}) -> {out_f}")
        cur = "%yf"
    lines.append(f"  return {cur} : {out_f}")
    return f"func.func @main(%x: {xt}) -> {out_f} {{\n" + "\n".join(lines) + "\n}"


def conv_same(x, w, stride):
    """3x3 'SAME' NHWC x HWIO convolution in numpy (f32 calibration)."""
    xp = np.pad(x, ((0, 0), (1, 1), (1, 1), (0, 0)))
    win = np.lib.stride_tricks.sliding_window_view(xp, (3, 3), axis=(1, 2))[:, ::stride, ::stride]
    return np.einsum("bijchw,hwco->bijo", win, w, optimize=True)


def cnn_reference(x, layers):
    acts, cur = [x], x
    for i, (_, _, w) in enumerate(layers):
        cur = conv_same(cur, w, 2 if i == len(layers) - 1 else 1)
        acts.append(cur)
        if i < len(layers) - 1:
            cur = np.maximum(cur, 0)
    return cur, [np.abs(a).max() for a in acts]


# ----------------------------------------------------------------------------- main


def run(name, f32_text, i8_text, x, reps, out_max):
    f32 = aot.compile(f32_text, name=f"{name}_f32")
    i8 = aot.compile(i8_text, name=f"{name}_int8")
    want, got = f32.main(x), i8.main(x)
    err = float(np.max(np.abs(got - want))) / out_max
    assert err < 0.1, f"int8 {name} differs from f32 by {err:.3g} of its range"
    t_f32 = bench_env.median_ms(lambda: f32.main(x), reps)
    t_i8 = bench_env.median_ms(lambda: i8.main(x), reps)
    return f"| {{}} | {t_f32:.3f} | {t_i8:.3f} | {t_i8 / t_f32:.2f}x | {err:.3g} |"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--reps", type=int, default=20)
    ap.add_argument("--batch", type=int, default=64)
    ap.add_argument("--width", type=int, default=256)
    ap.add_argument("--image", type=int, default=32)
    args = ap.parse_args()
    rng = np.random.default_rng(0)
    load_before = bench_env.loadavg()
    rows = []

    b, d = args.batch, args.width
    layers = [quantize_weights(rng.standard_normal((d, d)).astype(np.float32) / np.sqrt(d))
              for _ in range(2)]
    x = (rng.standard_normal((b, d)) * 0.5).astype(np.float32)
    _, peaks = mlp_reference(x, layers)
    scales = [p / 127.0 for p in peaks]
    row = run("mlp", mlp(b, d, layers, scales, False), mlp(b, d, layers, scales, True), x,
              args.reps, peaks[-1])
    rows.append(row.format(f"mlp {b}x{d}, 2 layers"))

    channels = (16, 32, 32, 64)
    shapes = cnn_shapes(8, args.image, channels)
    layers = [quantize_weights(rng.standard_normal((3, 3, ci, co)).astype(np.float32)
                               / np.sqrt(9 * ci)) for ci, co in zip(channels, channels[1:])]
    x = rng.standard_normal(shapes[0]).astype(np.float32)
    _, peaks = cnn_reference(x, layers)
    scales = [p / 127.0 for p in peaks]
    row = run("cnn", cnn(shapes, layers, scales, False), cnn(shapes, layers, scales, True), x,
              args.reps, peaks[-1])
    rows.append(row.format(f"cnn {'x'.join(map(str, shapes[0]))}, 3x3 convs "
                           f"{'-'.join(map(str, channels))}"))

    print(f"# quantized models against f32, 1 thread, {bench_env.cpu_name()}, "
          f"load average {load_before} before / {bench_env.loadavg()} after")
    print("| model | f32 ms | int8 ms | int8 / f32 | max diff / output range |\n"
          "|---|---|---|---|---|")
    print("\n".join(rows))


if __name__ == "__main__":
    main()
