"""Quantized types (lowering/ops/quantized.py): a corpus of StableHLO programs on
`!quant.uniform` tensors, each checked against the spec's reference semantics (dequantize,
compute in the expressed type, quantize) evaluated here in numpy. Quantized arguments and
results cross the ABI as their storage integers.

Exactness: uniform_quantize and uniform_dequantize match bit for bit. Where a float op sits
between them, its float result may differ from numpy's in the last bit (a sum in another
order, a fused multiply-add), which moves the quantized result by one step at most when the
scaled value lies on a rounding boundary: those cases allow one step, and most elements
must still be equal."""
import numpy as np
import pytest

import aot
from lowering.ir.core import CompileError

Q8 = "!quant.uniform<i8:f32, 0.5:-3>"
Q8B = "!quant.uniform<i8:f32, 0.25:4>"
QU8 = "!quant.uniform<ui8<0:200>:f32, 0.1:10>"


def quantize(x, scale, zp, lo, hi, storage):
    """The spec's quantize: clamp(x / scale + zp, min, max), rounded to nearest even."""
    x = np.asarray(x, np.float32)
    scaled = x / np.float32(scale) + np.float32(zp)
    with np.errstate(invalid="ignore"):  # NaN's integer is unspecified
        return np.round(np.clip(scaled, np.float32(lo), np.float32(hi))).astype(storage)


def dequantize(q, scale, zp):
    return ((np.asarray(q).astype(np.int32) - np.int32(zp)).astype(np.float32)
            * np.float32(scale))


def per_axis(values, axis, rank):
    shape = [1] * rank
    shape[axis] = len(values)
    return np.array(values).reshape(shape)


def close_steps(got, want, what):
    diff = np.abs(got.astype(np.int64) - want.astype(np.int64))
    assert diff.max(initial=0) <= 1, f"{what}: {got} vs {want}"
    assert (diff == 0).mean() >= 0.9, f"{what}: {got} vs {want}"


def test_quantize_dequantize_per_tensor_bit_exact():
    text = f"""func.func @main(%x: tensor<?x5xf32>) -> (tensor<?x5x{Q8}>, tensor<?x5xf32>, tensor<?x5x{QU8}>) {{
  %q = stablehlo.uniform_quantize %x : (tensor<?x5xf32>) -> tensor<?x5x{Q8}>
  %d = stablehlo.uniform_dequantize %q : (tensor<?x5x{Q8}>) -> tensor<?x5xf32>
  %u = stablehlo.uniform_quantize %x : (tensor<?x5xf32>) -> tensor<?x5x{QU8}>
  return %q, %d, %u : tensor<?x5x{Q8}>, tensor<?x5xf32>, tensor<?x5x{QU8}>
}}"""  # noqa: E501
    lib = aot.compile(text, name="quant_roundtrip")
    assert str(lib.main.signature) == "main(x: f32[?,5]) -> (i8[?,5], f32[?,5], ui8[?,5])"
    x = np.array([[-70.0, -1.75, -1.25, 0.0, 0.25], [0.75, 1.0, 3.3, 61.9, 1e9],
                  [-1e9, 2.5, -2.5, 12.05, np.nan]], np.float32)[:, :5]
    for rows in (3, 1, 0):
        q, d, u = lib.main(x[:rows])
        want_q = quantize(x[:rows], 0.5, -3, -128, 127, np.int8)
        np.testing.assert_array_equal(q[:, :4], want_q[:, :4])  # NaN's integer is unspecified
        np.testing.assert_array_equal(d, dequantize(q, 0.5, -3))
        want_u = quantize(x[:rows], 0.1, 10, 0, 200, np.uint8)
        np.testing.assert_array_equal(u[:, :4], want_u[:, :4])


def test_elementwise_and_requantize():
    """add of two quantized tensors into a third type; multiply by a float via dequantize;
    uniform_quantize from one quantized type to another (requantize)."""
    text = f"""func.func @main(%a: tensor<6x{Q8}>, %b: tensor<6x{Q8B}>) -> (tensor<6x{Q8B}>, tensor<6x{Q8}>, tensor<6xi1>) {{
  %s = stablehlo.add %a, %b : (tensor<6x{Q8}>, tensor<6x{Q8B}>) -> tensor<6x{Q8B}>
  %r = stablehlo.uniform_quantize %b : (tensor<6x{Q8B}>) -> tensor<6x{Q8}>
  %c = stablehlo.compare GT, %a, %b : (tensor<6x{Q8}>, tensor<6x{Q8B}>) -> tensor<6xi1>
  return %s, %r, %c : tensor<6x{Q8B}>, tensor<6x{Q8}>, tensor<6xi1>
}}"""  # noqa: E501
    lib = aot.compile(text, name="quant_elementwise")
    a = np.array([-128, -5, 0, 3, 90, 127], np.int8)
    b = np.array([127, -128, 17, 4, -40, 0], np.int8)
    s, r, c = lib.main(a, b)
    fa, fb = dequantize(a, 0.5, -3), dequantize(b, 0.25, 4)
    np.testing.assert_array_equal(s, quantize(fa + fb, 0.25, 4, -128, 127, np.int8))
    np.testing.assert_array_equal(r, quantize(fb, 0.5, -3, -128, 127, np.int8))
    np.testing.assert_array_equal(c, fa > fb)


def test_per_axis_quantization():
    qa = "!quant.uniform<i8:f32:1, {0.5:1, 0.25:-2, 2.0:0}>"
    text = f"""func.func @main(%x: tensor<?x3xf32>) -> (tensor<?x3x{qa}>, tensor<?x3xf32>) {{
  %q = stablehlo.uniform_quantize %x : (tensor<?x3xf32>) -> tensor<?x3x{qa}>
  %d = stablehlo.uniform_dequantize %q : (tensor<?x3x{qa}>) -> tensor<?x3xf32>
  return %q, %d : tensor<?x3x{qa}>, tensor<?x3xf32>
}}"""
    lib = aot.compile(text, name="quant_per_axis")
    x = np.random.default_rng(3).uniform(-40, 40, (4, 3)).astype(np.float32)
    q, d = lib.main(x)
    scale, zp = per_axis([0.5, 0.25, 2.0], 1, 2), per_axis([1, -2, 0], 1, 2)
    np.testing.assert_array_equal(q, quantize(x, scale.astype(np.float32), zp, -128, 127, np.int8))
    np.testing.assert_array_equal(d, dequantize(q, scale.astype(np.float32), zp))


def test_data_movement_dot_and_pooling():
    """reshape, transpose, concatenate, dot_general (i8 x per-axis i8 -> i32 storage) and a
    max pool (reduce_window whose body takes quantized scalars) on quantized tensors."""
    qw = "!quant.uniform<i8:f32:1, {0.05:0, 0.1:0}>"
    qacc = "!quant.uniform<i32:f32, 0.0125:0>"
    text = f"""func.func @main(%x: tensor<2x4x{Q8}>, %w: tensor<4x2x{qw}>) -> (tensor<2x2x{qacc}>, tensor<4x4x{Q8}>, tensor<1x2x{Q8}>) {{
  %t = stablehlo.transpose %x, dims = [1, 0] : (tensor<2x4x{Q8}>) -> tensor<4x2x{Q8}>
  %c = stablehlo.concatenate %t, %t, dim = 1 : (tensor<4x2x{Q8}>, tensor<4x2x{Q8}>) -> tensor<4x4x{Q8}>
  %d = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<2x4x{Q8}>, tensor<4x2x{qw}>) -> tensor<2x2x{qacc}>
  %init = stablehlo.constant dense<-128> : tensor<i8>
  %i = stablehlo.uniform_dequantize %x : (tensor<2x4x{Q8}>) -> tensor<2x4xf32>
  %m = "stablehlo.reduce_window"(%x, %x0) ({{
  ^bb0(%p: tensor<{Q8}>, %q: tensor<{Q8}>):
    %mx = stablehlo.maximum %p, %q : tensor<{Q8}>
    stablehlo.return %mx : tensor<{Q8}>
  }}) {{window_dimensions = array<i64: 2, 2>, window_strides = array<i64: 2, 2>}} : (tensor<2x4x{Q8}>, tensor<{Q8}>) -> tensor<1x2x{Q8}>
  return %d, %c, %m : tensor<2x2x{qacc}>, tensor<4x4x{Q8}>, tensor<1x2x{Q8}>
}}"""  # noqa: E501
    text = text.replace("%x0", "%xi").replace(
        "  %init = stablehlo.constant dense<-128> : tensor<i8>\n",
        f"  %lowest = stablehlo.constant dense<-1.0e9> : tensor<f32>\n"
        f"  %xi = stablehlo.uniform_quantize %lowest : (tensor<f32>) -> tensor<{Q8}>\n")
    lib = aot.compile(text, name="quant_movement")
    rng = np.random.default_rng(4)
    x = rng.integers(-128, 128, (2, 4)).astype(np.int8)
    w = rng.integers(-128, 128, (4, 2)).astype(np.int8)
    d, c, m = lib.main(x, w)
    fx = dequantize(x, 0.5, -3)
    fw = dequantize(w, per_axis([0.05, 0.1], 1, 2).astype(np.float32), 0)
    close_steps(d, quantize(fx @ fw, 0.0125, 0, -2**31, 2**31 - 1, np.int32), "dot_general")
    np.testing.assert_array_equal(c, np.concatenate([x.T, x.T], axis=1))
    pooled = fx.reshape(1, 2, 2, 2).max(axis=(1, 3))
    np.testing.assert_array_equal(m, quantize(pooled, 0.5, -3, -128, 127, np.int8))


def test_convolution_with_per_channel_weights():
    """An int8 convolution as quantized models write it: per-tensor input, weights quantized
    per output channel, an i8 result with its own scale (a 3x3 'SAME' conv, NHWC/HWIO)."""
    qk = "!quant.uniform<i8:f32:3, {0.02:0, 0.04:0}>"
    qo = "!quant.uniform<i8:f32, 0.1:-1>"
    text = f"""func.func @main(%x: tensor<1x4x4x1x{Q8}>, %k: tensor<3x3x1x2x{qk}>) -> tensor<1x4x4x2x{qo}> {{
  %y = stablehlo.convolution(%x, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {{stride = [1, 1], pad = [[1, 1], [1, 1]]}} {{batch_group_count = 1 : i64, feature_group_count = 1 : i64}} : (tensor<1x4x4x1x{Q8}>, tensor<3x3x1x2x{qk}>) -> tensor<1x4x4x2x{qo}>
  return %y : tensor<1x4x4x2x{qo}>
}}"""  # noqa: E501
    lib = aot.compile(text, name="quant_conv")
    rng = np.random.default_rng(5)
    x = rng.integers(-128, 128, (1, 4, 4, 1)).astype(np.int8)
    k = rng.integers(-128, 128, (3, 3, 1, 2)).astype(np.int8)
    fx = dequantize(x, 0.5, -3)
    fk = dequantize(k, per_axis([0.02, 0.04], 3, 4).astype(np.float32), 0)
    padded = np.pad(fx, ((0, 0), (1, 1), (1, 1), (0, 0)))
    out = np.zeros((1, 4, 4, 2), np.float32)
    for i in range(4):
        for j in range(4):
            out[0, i, j] = np.einsum("hwc,hwco->o", padded[0, i:i + 3, j:j + 3], fk)
    close_steps(lib.main(x, k), quantize(out, 0.1, -1, -128, 127, np.int8), "convolution")


@pytest.mark.parametrize("qtype, message", [
    ("!quant.uniform<i4:f32, 0.5>", "quantized storage type i4 is not supported"),
    ("!quant.uniform<i8:i32, 0.5>", "expressed type i32 is not a float type"),
    ("!quant.uniform<i8:f32, -0.5>", "scales must be positive"),
    ("!quant.uniform<i8<-200:0>:f32, 0.5>", "storage range <-200:0> does not fit i8"),
    ("!quant.uniform<i8:f32:1, {0.5:0, 0.25:0}>", "2 scales for dim 1 of size 3"),
])
def test_malformed_quantized_types_are_located_errors(qtype, message):
    text = f"""func.func @main(%x: tensor<2x3xf32>) -> tensor<2x3x{qtype}> {{
  %q = stablehlo.uniform_quantize %x : (tensor<2x3xf32>) -> tensor<2x3x{qtype}>
  return %q : tensor<2x3x{qtype}>
}}"""
    with pytest.raises(CompileError, match=message) as e:
        aot.compile(text, name="quant_bad")
    assert e.value.loc.line >= 1
