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


# ----------------------------------------------------------------------------- integer path

def hlo_of(text):
    from lowering.frontend.parser import parse_module
    from lowering.frontend.printer import print_module
    from lowering.passes.pipeline import run_pipeline
    return print_module(run_pipeline(parse_module(text, "q.mlir"), "hlo"))


def contraction_line(hlo, name):
    return next(line for line in hlo.splitlines() if f'"mhlo.{name}"' in line)


def dot_program(lhs_shape, qa, rhs_shape, qb, out_shape, qo, dims="contracting_dims = [1] x [0]"):
    def t(shape, q):
        return f"tensor<{'x'.join(map(str, shape))}x{q}>"
    a, b, o = t(lhs_shape, qa), t(rhs_shape, qb), t(out_shape, qo)
    return f"""func.func @main(%a: {a}, %b: {b}) -> {o} {{
  %c = stablehlo.dot_general %a, %b, {dims} : ({a}, {b}) -> {o}
  return %c : {o}
}}"""


EXACT_DOT = dot_program(["?", 301], "!quant.uniform<ui8:f32, 0.5:131>", [301, 3],
                        "!quant.uniform<i8:f32:1, {0.25:-7, 0.125:0, 2.0:5}>", ["?", 3],
                        "!quant.uniform<i32:f32:1, {0.125:0, 0.0625:0, 1.0:0}>")


def test_integer_dot_accumulates_exactly_in_i32():
    """ui8 (zero point 131) x i8 per output channel (zero points -7, 0, 5) with power-of-two
    scales, into an i32 result whose scales are lhs_scale * rhs_scale: every conversion is
    exact, so the result is the i32 accumulator itself, sum((a - za) * (b - zb)), which must
    equal numpy's int64 product bit for bit (K = 301: sums far past 2^16). The dot in the
    HLO stage is i16 x i16 -> i32, not f32."""
    dot = contraction_line(hlo_of(EXACT_DOT), "dot_general")
    assert ": (tensor<?x301xi16>, tensor<301x3xi16>) -> tensor<?x3xi32>" in dot, dot
    check_exact_dot(aot.compile(EXACT_DOT, name="quant_int_dot_exact"))


def check_exact_dot(lib):
    rng = np.random.default_rng(6)
    b = rng.integers(-128, 128, (301, 3)).astype(np.int8)
    for rows in (5, 40, 1, 0):
        a = rng.integers(0, 256, (rows, 301)).astype(np.uint8)
        if rows:
            a[0] = 255  # the extreme row: products at their largest
        want = (a.astype(np.int64) - 131) @ (b.astype(np.int64) - np.array([-7, 0, 5]))
        np.testing.assert_array_equal(lib.main(a, b), want)


def test_integer_contractions_on_the_cuda_target(tmp_path):
    """The cuda target's tiled dot takes the i16 x i16 -> i32 product (it stages operands in
    the accumulator type; cuBLAS declines mixed types), its convolution the loop kernel:
    exact on the emulated grid too."""
    from tooling.gpu_emu import build_emulated
    check_exact_dot(build_emulated(EXACT_DOT, "quant_int_dot_cuda", str(tmp_path)))
    check_exact_conv(build_emulated(EXACT_CONV, "quant_int_conv_cuda", str(tmp_path)))


def test_integer_dot_matches_the_reference_semantics():
    """Quantized dot_generals (a batched one with per-axis weights along the batch dim, a
    per-tensor one, one into a float result) against the spec's dequantize-dot-quantize in
    numpy. The integer path sums exactly, then rounds twice (i32 to f32, times the scale);
    the reference rounds every dequantized operand and partial sum in f32: where the scaled
    value sits on a rounding boundary the two may differ by one step (close_steps)."""
    rng = np.random.default_rng(7)
    qa, qo = "!quant.uniform<i8:f32, 0.037:-5>", "!quant.uniform<i8:f32, 0.31:3>"
    qw = "!quant.uniform<i8:f32:0, {0.011:0, 0.023:0}>"
    text = dot_program([2, 9, 70], qa, [2, 70, 33], qw, [2, 9, 33], qo,
                       "batching_dims = [0] x [0], contracting_dims = [2] x [1]")
    assert "xi16>) -> tensor<2x9x33xi32>" in contraction_line(hlo_of(text), "dot_general")
    a = rng.integers(-128, 128, (2, 9, 70)).astype(np.int8)
    w = rng.integers(-128, 128, (2, 70, 33)).astype(np.int8)
    got = aot.compile(text, name="quant_int_dot_batched").main(a, w)
    fw = dequantize(w, per_axis([0.011, 0.023], 0, 3).astype(np.float32), 0)
    want = quantize(dequantize(a, 0.037, -5) @ fw, 0.31, 3, -128, 127, np.int8)
    close_steps(got, want, "batched dot")

    qu = "!quant.uniform<ui8:f32, 0.02:120>"
    text = dot_program([17, 40], qu, [40, 23], Q8B, [17, 23], QU8)
    a = rng.integers(0, 256, (17, 40)).astype(np.uint8)
    w = rng.integers(-128, 128, (40, 23)).astype(np.int8)
    got = aot.compile(text, name="quant_int_dot_u8").main(a, w)
    want = quantize(dequantize(a, 0.02, 120) @ dequantize(w, 0.25, 4), 0.1, 10, 0, 200, np.uint8)
    close_steps(got, want, "ui8 dot")

    text = dot_program([17, 40], qu, [40, 23], Q8B, [17, 23], "f32")
    assert "xi16>) -> tensor<17x23xi32>" in contraction_line(hlo_of(text), "dot_general")
    got = aot.compile(text, name="quant_int_dot_float").main(a, w)
    # exact integer sums times the product of the two f32 scales: two roundings in f32 (a
    # reference summed in f32 is itself off by up to 2e-5 where the sum cancels)
    exact = (a.astype(np.int64) - 120) @ (w.astype(np.int64) - 4)
    np.testing.assert_allclose(got, exact * (np.float64(np.float32(0.02)) * np.float32(0.25)),
                               rtol=3e-7, atol=0)


def conv_program(x_shape, qx, k_shape, qk, out_shape, qo, dn, window, groups=1):
    def t(shape, q):
        return f"tensor<{'x'.join(map(str, shape))}x{q}>"
    x, k, o = t(x_shape, qx), t(k_shape, qk), t(out_shape, qo)
    return f"""func.func @main(%x: {x}, %k: {k}) -> {o} {{
  %y = stablehlo.convolution(%x, %k) dim_numbers = {dn}, window = {{{window}}} {{batch_group_count = 1 : i64, feature_group_count = {groups} : i64}} : ({x}, {k}) -> {o}
  return %y : {o}
}}"""  # noqa: E501


def reference_conv_nchw(x, k, stride, pad, groups):
    """out[b, o, i, j] = sum over c, h, w of x_padded[b, g c, i s + h, j s + w] k[o, c, h, w]
    (NCHW x OIHW, o's group g), in whatever dtype x and k have."""
    xp = np.pad(x, ((0, 0), (0, 0), (pad, pad), (pad, pad)))
    n, _, hh, ww = xp.shape
    o, c, kh, kw = k.shape
    oh, ow = (hh - kh) // stride + 1, (ww - kw) // stride + 1
    out = np.zeros((n, o, oh, ow), np.result_type(x, k))
    per = o // groups
    for f in range(o):
        g = f // per
        for i in range(oh):
            for j in range(ow):
                win = xp[:, g * c:(g + 1) * c, i * stride:i * stride + kh, j * stride:j * stride + kw]
                out[:, f, i, j] = (win * k[f]).sum(axis=(1, 2, 3))
    return out


CONV_DN = "[b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1]"
CONV_WINDOW = "stride = [2, 2], pad = [[1, 1], [1, 1]]"
CONV_QX = "!quant.uniform<i8:f32, 0.5:-9>"
EXACT_CONV = conv_program(
    [2, 4, 9, 9], CONV_QX, [6, 2, 3, 3],
    "!quant.uniform<i8:f32:0, {" + ", ".join(["0.25:0", "0.125:0"] * 3) + "}>", [2, 6, 5, 5],
    "!quant.uniform<i32:f32:1, {" + ", ".join(["0.125:0", "0.0625:0"] * 3) + "}>",
    CONV_DN, CONV_WINDOW, 2)


def check_exact_conv(lib):
    rng = np.random.default_rng(8)
    x = rng.integers(-128, 128, (2, 4, 9, 9)).astype(np.int8)
    k = rng.integers(-128, 128, (6, 2, 3, 3)).astype(np.int8)
    want = reference_conv_nchw(x.astype(np.int64) + 9, k.astype(np.int64), 2, 1, 2)
    np.testing.assert_array_equal(lib.main(x, k), want)
    return x, k


def test_integer_convolution_exact_and_against_the_reference():
    """An NCHW x OIHW convolution, stride 2, two feature groups, per-output-channel weights:
    with power-of-two scales into an i32 result of scale lhs_scale * rhs_scale it is the i32
    accumulator, equal to numpy's int64 convolution; with real scales into i8 it matches the
    reference semantics within one step (see test_integer_dot_matches_the_reference_semantics).
    Padding is zero in the centred operand, i.e. the float 0 the spec pads with."""
    assert "-> tensor<2x6x5x5xi32>" in contraction_line(hlo_of(EXACT_CONV), "convolution")
    x, k = check_exact_conv(aot.compile(EXACT_CONV, name="quant_int_conv_exact"))
    scales = [0.013, 0.021, 0.008, 0.017, 0.03, 0.011]
    qk = "!quant.uniform<i8:f32:0, {" + ", ".join(f"{s}:0" for s in scales) + "}>"
    qo = "!quant.uniform<i8:f32, 0.2:4>"
    text = conv_program([2, 4, 9, 9], CONV_QX, [6, 2, 3, 3], qk, [2, 6, 5, 5], qo, CONV_DN,
                        CONV_WINDOW, 2)
    got = aot.compile(text, name="quant_int_conv").main(x, k)
    fk = dequantize(k, per_axis(scales, 0, 4).astype(np.float32), 0)
    want = quantize(reference_conv_nchw(dequantize(x, 0.5, -9), fk, 2, 1, 2), 0.2, 4, -128, 127,
                    np.int8)
    close_steps(got, want, "convolution")


@pytest.mark.parametrize("qa, qb, k", [
    ("!quant.uniform<i8:f32:1, {0.5:0, 0.25:0}>", Q8, 2),  # per-axis lhs
    ("!quant.uniform<i16:f32, 0.5:0>", Q8, 2),  # 16-bit storage
    ("!quant.uniform<i8:f16, 0.5:0>", "!quant.uniform<i8:f16, 0.25:0>", 2),  # f16 expressed
    (QU8, Q8, 90000),  # K * max|a - 10| * max|b + 3| = 90000 * 190 * 131 > 2^31 - 1
])
def test_contractions_outside_the_integer_path_stay_float(qa, qb, k):
    """Where the integer formula is not the spec's result (or could overflow i32), the dot
    is the reference path's float dot."""
    expressed = "f16" if "f16" in qa else "f32"
    text = dot_program([3, k], qa, [k, 2], qb, [3, 2], qb)
    assert f"-> tensor<3x2x{expressed}>" in contraction_line(hlo_of(text), "dot_general")


def test_constant_weights_fold_into_i16_constants():
    """Quantized constants (as quantized exports write weights: their dense values are the
    storage integers, here also in the long hex form) work on both paths, and an integer
    contraction's centred weights are an i16 constant made at compile time, not a kernel.
    A 3x3 'SAME' conv with per-channel constant weights, then a dot with per-tensor ones."""
    rng = np.random.default_rng(9)
    k = rng.integers(-128, 128, (3, 3, 16, 16)).astype(np.int8)  # 2304 bytes: a hex blob
    w = rng.integers(-128, 128, (16, 3)).astype(np.int8)
    kscales = list(np.round(rng.uniform(0.001, 0.004, 16), 5))
    qk = "!quant.uniform<i8:f32:3, {" + ", ".join(f"{s}:0" for s in kscales) + "}>"
    qw = "!quant.uniform<i8:f32, 0.04:2>"
    qh = "!quant.uniform<i8:f32, 0.9:-4>"
    hex_k = '"0x' + k.tobytes().hex().upper() + '"'
    dense_w = "[" + ", ".join("[" + ", ".join(map(str, row)) + "]" for row in w) + "]"
    qy = "!quant.uniform<ui8:f32, 8.0:128>"
    x_t, h_t, y_t = (f"tensor<1x5x5x16x{Q8}>", f"tensor<1x5x5x16x{qh}>", f"tensor<1x5x5x3x{qy}>")
    text = f"""func.func @main(%x: {x_t}) -> ({y_t}, tensor<16x3x{qw}>) {{
  %k = stablehlo.constant dense<{hex_k}> : tensor<3x3x16x16x{qk}>
  %w = stablehlo.constant dense<{dense_w}> : tensor<16x3x{qw}>
  %h = stablehlo.convolution(%x, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {{stride = [1, 1], pad = [[1, 1], [1, 1]]}} {{batch_group_count = 1 : i64, feature_group_count = 1 : i64}} : ({x_t}, tensor<3x3x16x16x{qk}>) -> {h_t}
  %y = stablehlo.dot_general %h, %w, contracting_dims = [3] x [0] : ({h_t}, tensor<16x3x{qw}>) -> {y_t}
  return %y, %w : {y_t}, tensor<16x3x{qw}>
}}"""  # noqa: E501
    from lowering.frontend.parser import parse_module
    from lowering.frontend.printer import print_module
    from lowering.passes.pipeline import run_pipeline
    fused = print_module(run_pipeline(parse_module(text, "q.mlir"), "fused"))
    assert fused.count("xi16>} : () -> tensor<") == 2  # both centred weights: constants
    assert fused.count("uniform_dequantize") == 4  # x and h centred, two accumulators
    lib = aot.compile(text, name="quant_const_weights")
    x = rng.integers(-128, 128, (1, 5, 5, 16)).astype(np.int8)
    y, w_out = lib.main(x)
    np.testing.assert_array_equal(w_out, w)  # a quantized constant returned: its integers
    fk = dequantize(k, per_axis(kscales, 3, 4).astype(np.float32), 0)
    padded = np.pad(dequantize(x, 0.5, -3), ((0, 0), (1, 1), (1, 1), (0, 0)))
    h = np.zeros((1, 5, 5, 16), np.float32)
    for i in range(5):
        for j in range(5):
            h[0, i, j] = np.einsum("hwc,hwco->o", padded[0, i:i + 3, j:j + 3], fk)
    hq = quantize(h, 0.9, -4, -128, 127, np.int8)
    assert (np.abs(hq) < 120).mean() > 0.8  # mostly inside the range: not a test of clamping
    want = quantize(dequantize(hq, 0.9, -4) @ dequantize(w, 0.04, 2), 8.0, 128, 0, 255, np.uint8)
    assert ((want > 0) & (want < 255)).mean() > 0.8
    close_steps(y, want, "conv then dot")


@pytest.mark.parametrize("storage, expressed", [("i8", "f32"), ("ui8", "f64"), ("i16", "f32"),
                                                ("ui16", "f64"), ("i32", "f32")])
def test_quantize_rounds_half_to_even_bit_exact(storage, expressed):
    """uniform_quantize rounds by adding 1.5 * 2^mantissa_bits to the clamped value (storage
    of at most 16 bits) or by roundeven (i32): both are the spec's round-half-to-even, here
    on exact ties k + 1/2 of both parities, the clamp edges and random values."""
    lo, hi = {"i8": (-128, 127), "ui8": (0, 255), "i16": (-32768, 32767), "ui16": (0, 65535),
              "i32": (-2**31, 2**31 - 1)}[storage]
    zp = 7 if storage.startswith("u") else -5
    q = f"!quant.uniform<{storage}:{expressed}, 0.25:{zp}>"
    text = f"""func.func @main(%x: tensor<?x{expressed}>) -> tensor<?x{q}> {{
  %q = stablehlo.uniform_quantize %x : (tensor<?x{expressed}>) -> tensor<?x{q}>
  return %q : tensor<?x{q}>
}}"""
    lib = aot.compile(text, name=f"quant_round_{storage}_{expressed}")
    dt = np.float32 if expressed == "f32" else np.float64
    rng = np.random.default_rng(10)
    span = min(hi - lo, 70000)
    ties = (np.arange(-40, 40) + 0.5 - zp) * 0.25  # (x / scale + zp) = k + 1/2
    edges = (np.array([lo - 1, lo - 0.5, lo, lo + 0.5, hi - 0.5, hi, hi + 0.5, hi + 1]) - zp) * 0.25
    x = np.concatenate([ties, edges, rng.uniform(-span, span, 500) * 0.25, [-0.0, 1e30, -1e30]])
    x = x.astype(dt)
    scaled = x / dt(0.25) + dt(zp)
    want = np.round(np.clip(scaled, dt(lo), dt(hi))).astype(np.int64)
    want = np.clip(want, lo, hi)  # f32(2^31 - 1) is 2^31: i32's conversion saturates it
    np.testing.assert_array_equal(lib.main(x).astype(np.int64), want)


def test_plain_dot_and_a_float_result():
    """stablehlo.dot (matrix x vector) of quantized operands into a float result (the
    spec's hybrid form) takes the integer path too: the dequantized accumulator is the
    result. Exact here: every product of halves and their sum are representable."""
    text = f"""func.func @main(%a: tensor<3x4x{Q8}>, %b: tensor<4x{Q8}>) -> tensor<3xf32> {{
  %d = stablehlo.dot %a, %b : (tensor<3x4x{Q8}>, tensor<4x{Q8}>) -> tensor<3xf32>
  return %d : tensor<3xf32>
}}"""
    assert "-> tensor<3xi32>" in contraction_line(hlo_of(text), "dot")
    a = np.arange(-60, 60, 10, dtype=np.int8).reshape(3, 4)
    b = np.array([1, -2, 127, -128], np.int8)
    np.testing.assert_array_equal(aot.compile(text, name="quant_plain_dot").main(a, b),
                                  dequantize(a, 0.5, -3) @ dequantize(b, 0.5, -3))


def test_dequantize_to_an_integer_is_a_located_error():
    """The rewrite's own uniform_dequantize to i16 (a contraction's centred operand) is not
    a form a program may write."""
    text = f"""func.func @main(%x: tensor<4x{Q8}>) -> tensor<4xi16> {{
  %d = stablehlo.uniform_dequantize %x : (tensor<4x{Q8}>) -> tensor<4xi16>
  return %d : tensor<4xi16>
}}"""
    with pytest.raises(CompileError, match="result must be a float tensor") as e:
        aot.compile(text, name="quant_bad_dequantize")
    assert (e.value.loc.line, e.value.loc.col) == (2, 8)
