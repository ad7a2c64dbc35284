"""The CPU's depthwise convolution kernel (lowering/codegen/cpu/conv_depthwise.py): one
channel in, one out, as MobileNet and EfficientNet have them, channels-first (PyTorch's NCHW)
and channels-last (JAX's NHWC). Checked against a float64 numpy reference, static and with a
`?` batch from one library, strides 1 and 2, padding same and valid, 3x3 and 5x5 windows, odd
widths (the border and tail runs), batch 1, with a fused bias and activation; and on the loop
stage's text: the route is the depthwise nest, parallel over the threads. Channels-first
convolutions take three forms (rows, small planes spelled out, transposed per image), each
covered."""
import numpy as np
import pytest

import aot
from lowering.frontend.parser import parse_module
from lowering.frontend.printer import print_module
from lowering.passes.pipeline import run_pipeline

DIMS = {"nchw": "[b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1]",
        "nhwc": "[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]"}


def out_size(n, k, s, pad, dil=1):
    return (n + pad[0] + pad[1] - (k - 1) * dil - 1) // s + 1


def shapes(layout, batch, c, h, w, k, s, pads, dil=1):
    oh, ow = out_size(h, k, s, pads[0], dil), out_size(w, k, s, pads[1], dil)
    if layout == "nchw":
        return (batch, c, h, w), (c, 1, k, k), (batch, c, oh, ow)
    return (batch, h, w, c), (k, k, 1, c), (batch, oh, ow, c)


def program(layout, x_shape, w_shape, out_shape, stride, pads, elem, epilogue, dil=1,
            multiplier=1, entry="main"):
    """A depthwise convolution as StableHLO text (None dims `?`), the function `entry`;
    `epilogue`: a bias along the channels and a relu6 after it, fused into the convolution's
    kernel."""
    t = lambda s: "tensor<" + "x".join("?" if d is None else str(d) for d in s) + f"x{elem}>"  # noqa: E731
    c = x_shape[1] if layout == "nchw" else x_shape[3]
    f = c * multiplier
    fdim = 1 if layout == "nchw" else 3
    pad = ", ".join(f"[{lo}, {hi}]" for lo, hi in pads)
    args = f"%x: {t(x_shape)}, %w: {t(w_shape)}" + (f", %b: {t((f,))}" if epilogue else "")
    body = (f"  %y = stablehlo.convolution(%x, %w) dim_numbers = {DIMS[layout]}, "
            f"window = {{stride = [{stride}, {stride}], pad = [{pad}], rhs_dilate = [{dil}, {dil}]}}"
            f" {{batch_group_count = 1 : i64, feature_group_count = {c} : i64}}"
            f" : ({t(x_shape)}, {t(w_shape)}) -> {t(out_shape)}\n")
    result = "%y"
    if epilogue:
        if out_shape[0] is not None:
            body += (f"  %bb = stablehlo.broadcast_in_dim %b, dims = [{fdim}] : "
                     f"({t((f,))}) -> {t(out_shape)}\n")
        else:  # the batch read at run time from the input, as jax.export builds it (from the
            # result, %y would have a use outside the fusion and its consumers a kernel apart)
            rest = [d for d in out_shape if d is not None]
            body += (f"  %d0 = stablehlo.get_dimension_size %x, dim = 0 : "
                     f"({t(x_shape)}) -> tensor<i32>\n"
                     "  %r0 = stablehlo.reshape %d0 : (tensor<i32>) -> tensor<1xi32>\n"
                     f"  %rest = stablehlo.constant dense<{rest}> : tensor<3xi32>\n"
                     "  %shape = stablehlo.concatenate %r0, %rest, dim = 0 : "
                     "(tensor<1xi32>, tensor<3xi32>) -> tensor<4xi32>\n"
                     f"  %bb = stablehlo.dynamic_broadcast_in_dim %b, %shape, dims = [{fdim}] "
                     f": ({t((f,))}, tensor<4xi32>) -> {t(out_shape)}\n")
        body += (f"  %z = stablehlo.add %y, %bb : {t(out_shape)}\n"
                 f"  %lo = stablehlo.constant dense<0.0> : tensor<{elem}>\n"
                 f"  %hi = stablehlo.constant dense<6.0> : tensor<{elem}>\n"
                 f"  %r = stablehlo.clamp %lo, %z, %hi : (tensor<{elem}>, {t(out_shape)}, "
                 f"tensor<{elem}>) -> {t(out_shape)}\n")
        result = "%r"
    return (f"func.func @{entry}({args}) -> {t(out_shape)} {{\n{body}"
            f"  return {result} : {t(out_shape)}\n}}\n")


def reference(layout, x, w, stride, pads, bias=None, dil=1):
    """The depthwise convolution in float64: each tap a strided slice of the padded input
    times its weight; then bias and relu6."""
    if layout == "nhwc":  # as NCHW x (C, 1, K, K)
        x, w = x.transpose(0, 3, 1, 2), w.transpose(3, 2, 0, 1)
    x, w = x.astype(np.float64), w.astype(np.float64)
    xp = np.pad(x, [(0, 0), (0, 0), pads[0], pads[1]])
    k = w.shape[2]
    oh = out_size(x.shape[2], k, stride, pads[0], dil)
    ow = out_size(x.shape[3], k, stride, pads[1], dil)
    out = np.zeros(x.shape[:2] + (oh, ow))
    for i in range(k):
        for j in range(k):
            win = xp[:, :, i * dil:i * dil + (oh - 1) * stride + 1:stride,
                     j * dil:j * dil + (ow - 1) * stride + 1:stride]
            out += win * w[None, :, 0, i, j, None, None]
    if bias is not None:
        out = np.clip(out + bias[None, :, None, None], 0, 6)
    return out if layout == "nchw" else out.transpose(0, 2, 3, 1)


def loops(text):
    return print_module(run_pipeline(parse_module(text, "dw.mlir"), "loops"))


def check(fn, layout, x, w, stride, pads, elem, bias=None, dil=1):
    want = reference(layout, x, w, stride, pads, bias, dil)
    got = fn(x, w) if bias is None else fn(x, w, bias)
    assert got.shape == want.shape
    tol = 1e-5 if elem == "f32" else 1e-12
    np.testing.assert_allclose(got, want, rtol=tol, atol=tol)


def data(rng, layout, batch, c, h, w, k, s, pads, elem, dil=1):
    dt = np.float32 if elem == "f32" else np.float64
    xs, ws, _ = shapes(layout, batch, c, h, w, k, s, pads, dil)
    return (rng.uniform(-1, 1, xs).astype(dt), rng.uniform(-1, 1, ws).astype(dt),
            rng.uniform(-1, 1, c).astype(dt))


SAME3, SAME5, VALID = [(1, 1), (1, 1)], [(2, 2), (2, 2)], [(0, 0), (0, 0)]
# name: (layout, channels, height, width, window, stride, padding, type); odd widths leave
# tails after the vector loops and border columns on both sides
CASES = {
    "nchw_k3_s2_same": ("nchw", 5, 60, 61, 3, 2, SAME3, "f32"),  # rows of positions
    "nchw_k5_s1_transposed": ("nchw", 9, 13, 15, 5, 1, SAME5, "f32"),  # channels-last per image
    "nchw_k5_s1_same": ("nchw", 4, 7, 31, 5, 1, SAME5, "f32"),  # a vectorised inside run
    "nchw_k3_s1_short_rows": ("nchw", 5, 16, 17, 3, 1, SAME3, "f32"),  # runs of 15: two blocks
    "nchw_k3_s1_one_block": ("nchw", 3, 12, 10, 3, 1, SAME3, "f32"),  # a run of 8: one block
    "nchw_k3_s2_blocks": ("nchw", 5, 31, 29, 3, 2, SAME3, "f32"),  # 15 positions, a run of 13
    "nchw_k3_s1_long_rows": ("nchw", 3, 5, 37, 3, 1, SAME3, "f32"),  # a vector run of 35, then a pass
    "nchw_k3_s1_valid_f64": ("nchw", 3, 6, 11, 3, 1, VALID, "f64"),  # small planes: unrolled
    "nchw_k5_s2_small": ("nchw", 6, 9, 9, 5, 2, SAME5, "f32"),
    "nchw_k5_s2_strided_plane": ("nchw", 7, 16, 15, 5, 2, SAME5, "f32"),  # 8x8 x 25 taps whole
    # small planes finished a group of channels at a time: 6 channels of 4x4 in groups of 2,
    # 12 of 2x2 in groups of 4, 10 of 4x3 (stride 2) in groups of 5
    "nchw_k3_s1_grouped_4x4": ("nchw", 6, 4, 4, 3, 1, SAME3, "f32"),
    "nchw_k5_s1_grouped_2x2": ("nchw", 12, 2, 2, 5, 1, SAME5, "f32"),
    "nchw_k3_s2_grouped_4x3": ("nchw", 10, 7, 5, 3, 2, SAME3, "f32"),
    "nhwc_k3_s2_tf_same": ("nhwc", 11, 8, 9, 3, 2, [(0, 1), (0, 1)], "f32"),  # SAME at stride 2
    "nhwc_k5_s1_same": ("nhwc", 19, 7, 7, 5, 1, SAME5, "f32"),
    "nhwc_k5_s2_valid_f64": ("nhwc", 7, 11, 12, 5, 2, VALID, "f64"),
}
# the cases also compiled static (batch 2) without the epilogue: one per route (rows,
# transposed, small planes, channels-last); the others run their `?` entry at batch 2 instead,
# an LLVM compile less each (the suite's time)
STATIC = {"nchw_k3_s2_same", "nchw_k5_s1_transposed", "nchw_k3_s1_valid_f64", "nhwc_k3_s2_tf_same"}


MULTIPLIER = ((2, 6, 7, 7), (12, 1, 3, 3), (2, 12, 7, 7))  # kernel (12, 1, 3, 3) over 6 channels


@pytest.fixture(scope="module")
def lib():
    """One library holding every numeric case's entries (one compile, not one per case, to
    keep the default suite fast): per case `<name>_dynamic` (a `?` batch, with the fused bias
    + relu6) and for STATIC `<name>_static` (batch 2, without it); then `dilated` (window dilation 2)
    and `multiplier` (a channel multiplier of 2)."""
    text = ""
    for name, (layout, c, h, w, k, s, pads, elem) in sorted(CASES.items()):
        xs, ws, os_ = shapes(layout, None, c, h, w, k, s, pads)
        text += program(layout, xs, ws, os_, s, pads, elem, True, entry=f"{name}_dynamic")
        if name not in STATIC:
            continue
        xs, ws, os_ = shapes(layout, 2, c, h, w, k, s, pads)
        text += program(layout, xs, ws, os_, s, pads, elem, False, entry=f"{name}_static")
    xs, ws, os_ = shapes("nhwc", 2, 6, 9, 9, 3, 1, SAME5, dil=2)
    text += program("nhwc", xs, ws, os_, 1, SAME5, "f32", False, dil=2, entry="dilated")
    text += program("nchw", *MULTIPLIER, 1, SAME3, "f32", False, multiplier=2, entry="multiplier")
    return aot.compile(text, name="dw_cases")


@pytest.mark.parametrize("name", sorted(CASES))
def test_depthwise_matches_numpy(lib, name):
    """A `?` batch entry with the fused bias + relu6 at batches 1 and 3, and the static form
    without it at batch 2 (else the `?` entry at batch 2), against the float64 reference."""
    layout, c, h, w, k, s, pads, elem = CASES[name]
    rng = np.random.default_rng(len(name))
    for batch in (1, 3) if name in STATIC else (1, 2, 3):
        x, wt, bias = data(rng, layout, batch, c, h, w, k, s, pads, elem)
        check(getattr(lib, f"{name}_dynamic"), layout, x, wt, s, pads, elem, bias)
    if name in STATIC:
        x, wt, _ = data(rng, layout, 2, c, h, w, k, s, pads, elem)
        check(getattr(lib, f"{name}_static"), layout, x, wt, s, pads, elem)


# (layout, plane size, window): (kernels, products, clamps) of the static program with bias
# and relu6
ROUTES = {("nchw", 40, 3): (1, 9 * 6, 1),  # rows: 2 row versions x 3 runs, then one finishing loop
          ("nchw", 10, 3): (1, 28 * 28, 100),  # a small plane spelled out: a product per tap inside
          ("nchw", 12, 5): (2, 25 * 4, 1),  # transposed per image; its consumers a kernel apart
          ("nhwc", 10, 3): (1, 9 * 4, 4)}  # a pair of columns (2 sums), one column, a last one


@pytest.mark.parametrize("layout, size, k", sorted(ROUTES))
def test_depthwise_route_is_taken(layout, size, k):
    """The loop stage holds the depthwise nest, its outermost loop marked for the threads, the
    window unrolled (kh kw products in each innermost body), the bias and relu6 fused into the
    same kernel (static: one kernel, the clamp inside) except in the transposed form, whose
    scratch buffers a kOutput kernel cannot take; with a `?` batch the same nest."""
    kernels, products, clamps = ROUTES[layout, size, k]
    pads = [(k // 2, k // 2)] * 2
    xs, ws, os_ = shapes(layout, 2, 8, size, size, k, 1, pads)
    text = loops(program(layout, xs, ws, os_, 1, pads, "f32", True))
    assert text.count("aot.kernel =") == kernels, text
    kind = "convolution" if kernels == 2 else "fusion"
    assert f'aot.kernel = "{kind}", aot.parallel = true' in text, text
    assert text.count("arith.minimumf") == clamps and text.count("arith.mulf") == products, text
    xs, ws, os_ = shapes(layout, None, 8, size, size, k, 1, pads)
    text = loops(program(layout, xs, ws, os_, 1, pads, "f32", False))
    assert 'aot.kernel = "convolution", aot.parallel = true' in text, text
    assert text.count("arith.mulf") == products, text


def test_depthwise_strided_plane_spelled_out():
    """A 5x5 stride-2 convolution onto an 8x8 plane (1600 taps: EfficientNet-B0's 144x16x16)
    is spelled out whole with its bias and relu6 in one kernel (a clamp per position), not
    transposed per image with its consumers a kernel apart; at stride 1 the same plane size
    is still transposed."""
    pads = [(2, 2)] * 2
    xs, ws, os_ = shapes("nchw", 2, 8, 16, 16, 5, 2, pads)
    text = loops(program("nchw", xs, ws, os_, 2, pads, "f32", True))
    assert text.count("aot.kernel =") == 1 and text.count("arith.minimumf") == 64, text
    xs, ws, os_ = shapes("nchw", 2, 8, 8, 8, 5, 1, pads)
    assert loops(program("nchw", xs, ws, os_, 1, pads, "f32", True)).count("aot.kernel =") == 2


def test_depthwise_dilated_and_multiplier(lib):
    """A dilated window runs the depthwise kernel too; a channel multiplier of 2 keeps the loop
    kernel. Both against the reference."""
    rng = np.random.default_rng(3)
    x, wt, _ = data(rng, "nhwc", 2, 6, 9, 9, 3, 1, SAME5, "f32", dil=2)
    check(lib.dilated, "nhwc", x, wt, 1, SAME5, "f32", dil=2)
    x = rng.uniform(-1, 1, MULTIPLIER[0]).astype(np.float32)
    wt = rng.uniform(-1, 1, MULTIPLIER[1]).astype(np.float32)
    assert "aot.parallel" not in loops(program("nchw", *MULTIPLIER, 1, SAME3, "f32", False,
                                               multiplier=2))
    got = lib.multiplier(x, wt)
    want = np.zeros(MULTIPLIER[2])
    xp = np.pad(x.astype(np.float64), [(0, 0), (0, 0), (1, 1), (1, 1)])
    for o in range(12):
        for i in range(3):
            for j in range(3):
                want[:, o] += xp[:, o // 2, i:i + 7, j:j + 7] * wt[o, 0, i, j]
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("stride, size", [(2, 60), (1, 60), (1, 37)])
def test_depthwise_rows_finish_in_a_second_pass(stride, size):
    """Channels-first with a fused bias + relu6, scalar runs (stride 2) or vector ones (stride
    1, long rows): the rows' runs store the bare sums (9 products in each of 2 row versions x
    3 runs) and one loop after them runs the epilogue (one clamp), where the one-pass form put
    a clamp in each of the 6 runs. (Their numbers: CASES' rows and long rows.)"""
    pads = [(1, 1)] * 2
    xs, ws, os_ = shapes("nchw", 2, 8, size, size, 3, stride, pads)
    text = loops(program("nchw", xs, ws, os_, stride, pads, "f32", True))
    assert text.count("aot.kernel =") == 1, text
    assert 'aot.kernel = "fusion", aot.parallel = true' in text, text
    assert text.count("arith.mulf") == 9 * 6 and text.count("arith.minimumf") == 1, text


@pytest.mark.parametrize("stride, size, blocks", [(1, 16, 2), (2, 32, 2), (1, 32, 4),
                                                  (2, 48, 3)])
def test_depthwise_short_runs_in_vector_blocks(stride, size, blocks):
    """3x3 rows whose inside run the loop vectoriser leaves scalar (14 and 15 positions: 16x16,
    32x32 at stride 2; 30 at stride 1; 23 at stride 2) go in `blocks` blocks of 8 positions
    spelled out, the last one's start clamped: 9 products for each of the 2 border columns
    and 8 x 9 in the block, in each of the 2 row versions; one clamp. Longer runs (stride 2:
    27, stride 1: 38 in test_depthwise_route_is_taken) keep the loops."""
    pads = [(1, 1)] * 2
    xs, ws, os_ = shapes("nchw", 2, 8, size, size, 3, stride, pads)
    text = loops(program("nchw", xs, ws, os_, stride, pads, "f32", True))
    assert text.count("aot.kernel =") == 1 and text.count("arith.minimumf") == 1, text
    assert text.count("arith.mulf") == 2 * (2 * 9 + 8 * 9), text
    assert f"{{value = {blocks} : i64}}" in text and text.count("arith.minsi") == 2, text
    xs, ws, os_ = shapes("nchw", 2, 8, 56, 56, 3, 2, pads)
    assert loops(program("nchw", xs, ws, os_, 2, pads, "f32", True)).count("arith.mulf") == 9 * 6


def consumers_program(along, size=16, channels=8, batch="2") -> str:
    """A size x size 3x3 stride-1 NCHW depthwise convolution (`batch` images, `channels`
    channels) + r * v, v broadcast along dim `along` (1: per channel; 3: along the rows'
    positions; None: no v), + r (a buffer of the output's shape): relu6 of that."""
    t = f"tensor<{batch}x{channels}x{size}x{size}xf32>"
    wt = f"tensor<{channels}x1x3x3xf32>"
    n = channels if along == 1 else size
    v = f", %v: tensor<{n}xf32>" if along else ""
    body = ""
    if along and batch == "?":  # the result's shape read at run time, as jax.export builds it
        body = ("  %d0 = stablehlo.get_dimension_size %x, dim = 0 : "
                f"({t}) -> tensor<i32>\n"
                "  %r0 = stablehlo.reshape %d0 : (tensor<i32>) -> tensor<1xi32>\n"
                f"  %rest = stablehlo.constant dense<[{channels}, {size}, {size}]> : tensor<3xi32>\n"
                "  %shape = stablehlo.concatenate %r0, %rest, dim = 0 : "
                "(tensor<1xi32>, tensor<3xi32>) -> tensor<4xi32>\n"
                f"  %vb = stablehlo.dynamic_broadcast_in_dim %v, %shape, dims = [{along}] : "
                f"(tensor<{n}xf32>, tensor<4xi32>) -> {t}\n")
    elif along:
        body = f"  %vb = stablehlo.broadcast_in_dim %v, dims = [{along}] : (tensor<{n}xf32>) -> {t}\n"
    body += f"  %m = stablehlo.multiply %r, %vb : {t}\n" if along else ""
    return (f"func.func @main(%x: {t}, %w: {wt}{v}, %r: {t}) -> {t} {{\n"
            f"  %y = stablehlo.convolution(%x, %w) dim_numbers = {DIMS['nchw']}, "
            "window = {stride = [1, 1], pad = [[1, 1], [1, 1]], rhs_dilate = [1, 1]} "
            f"{{batch_group_count = 1 : i64, feature_group_count = {channels} : i64}} : "
            f"({t}, {wt}) -> {t}\n" + body +
            f"  %a = stablehlo.add %y, {'%m' if along else '%r'} : {t}\n"
            "  %lo = stablehlo.constant dense<0.0> : tensor<f32>\n"
            "  %hi = stablehlo.constant dense<6.0> : tensor<f32>\n"
            f"  %c = stablehlo.clamp %lo, %a, %hi : (tensor<f32>, {t}, tensor<f32>) -> {t}\n"
            f"  return %c : {t}\n}}\n")


def consumers_reference(x, w, v, r, along):
    """consumers_program's result in float64."""
    size, channels = x.shape[2], x.shape[1]
    shape = (1, channels, 1, 1) if along == 1 else (1, 1, 1, size)
    vb = v.reshape(shape).astype(np.float64) if along else 1.0
    xp = np.pad(x.astype(np.float64), [(0, 0), (0, 0), (1, 1), (1, 1)])
    conv = sum(xp[:, :, i:i + size, j:j + size] * w[None, :, 0, i, j, None, None]
               for i in range(3) for j in range(3))
    return np.clip(conv + r * vb, 0, 6)


@pytest.mark.parametrize("along, plane", [(1, True), (3, False)])
def test_depthwise_finishes_whole_planes(along, plane):
    """16-long rows: where the consumers read per channel or at the output's own index, one
    finishing loop over the plane's 256 positions after its rows (indexed [n, ch, 0, p]);
    a consumer reading along the rows keeps a finishing loop per row. Both against numpy."""
    text = print_module(run_pipeline(parse_module(consumers_program(along), "t.mlir"), "loops"))
    assert ('{value = 256 : i64}' in text) == plane, text
    assert text.count("arith.minimumf") == 1, text
    rng = np.random.default_rng(along)
    x = rng.uniform(-1, 1, (2, 8, 16, 16)).astype(np.float32)
    w = rng.uniform(-1, 1, (8, 1, 3, 3)).astype(np.float32)
    v = rng.uniform(-1, 1, 8 if along == 1 else 16).astype(np.float32)
    r = rng.uniform(-1, 1, (2, 8, 16, 16)).astype(np.float32)
    lib = aot.compile(consumers_program(along), name=f"dw_consumers_{along}")
    want = consumers_reference(x, w, v, r, along)
    np.testing.assert_allclose(lib.main(x, w, v, r), want, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("along, batch", [(None, "2"), (None, "?"), (1, "2"), (1, "?")])
def test_depthwise_small_planes_finish_by_groups(along, batch):
    """6 channels of 4x4 spelled out: the bare sums of 2 channels at a time (gcd(6, 64 / 16)),
    then the pair finished in one loop: one run of their 32 positions where the consumers read
    only at the output's own index (a residual), else a loop per channel over its 16 (a
    per-channel factor); one clamp in the kernel, not one per position. Static and `?` batch
    (batches 1 and 3) against numpy."""
    text = print_module(run_pipeline(parse_module(consumers_program(along, 4, 6, batch),
                                                  "t.mlir"), "loops"))
    assert text.count("aot.kernel =") == 1 and text.count("arith.minimumf") == 1, text
    assert ("{value = 32 : i64}" in text) == (along is None), text
    rng = np.random.default_rng(7)
    lib = aot.compile(consumers_program(along, 4, 6, batch),
                      name=f"dw_groups_{along}_{'dyn' if batch == '?' else batch}")
    for images in (1, 3) if batch == "?" else (2,):
        x = rng.uniform(-1, 1, (images, 6, 4, 4)).astype(np.float32)
        w = rng.uniform(-1, 1, (6, 1, 3, 3)).astype(np.float32)
        v = rng.uniform(-1, 1, 6).astype(np.float32)
        r = rng.uniform(-1, 1, (images, 6, 4, 4)).astype(np.float32)
        got = lib.main(x, w, v, r) if along else lib.main(x, w, r)
        np.testing.assert_allclose(got, consumers_reference(x, w, v, r, along), rtol=1e-5,
                                   atol=1e-5)


@pytest.mark.parametrize("kernel", ["oihw", "hwio"])
def test_depthwise_small_planes_flat_sums(kernel):
    """4x4 planes with a 5x5 window (196 taps inside), 20 channels in groups of 4: the sums
    index the buffers flat ([n, first channel, 0, channel in group x 16 + position]) for the
    loop vectoriser, the kernel's index too, in PyTorch's OIHW and JAX's HWIO layouts; with a
    `?` batch and a bias + relu6 (read per channel), against numpy at batches 1 and 3."""
    c, k, pads = 20, 5, SAME5
    kdims = {"oihw": "[o, i, 0, 1]", "hwio": "[0, 1, i, o]"}[kernel]
    w_shape = (c, 1, k, k) if kernel == "oihw" else (k, k, 1, c)
    text = program("nchw", (None, c, 4, 4), w_shape, (None, c, 4, 4), 1, pads, "f32", True)
    text = text.replace("x[o, i, 0, 1]->", f"x{kdims}->")
    out = loops(text)
    assert out.count("aot.kernel =") == 1 and out.count("arith.minimumf") == 1, out
    assert out.count("{value = 16 : i64}") >= 2 and out.count("{value = 4 : i64}") >= 2, out
    lib = aot.compile(text, name=f"dw_flat_{kernel}")
    rng = np.random.default_rng(11)
    for batch in (1, 3):
        x, wt, bias = data(rng, "nchw", batch, c, 4, 4, k, 1, pads, "f32")
        got = lib.main(x, wt if kernel == "oihw" else wt.transpose(2, 3, 1, 0), bias)
        np.testing.assert_allclose(got, reference("nchw", x, wt, 1, pads, bias), rtol=1e-5,
                                   atol=1e-5)


def program_3d(x_shape, c, k, stride, pad, bias: bool) -> str:
    """A 3-D channels-first depthwise convolution [b, c, t, h, w] x [c, 1, k, k, k] (MViT's
    pooling), `None` dims `?`, with a bias along the channels after it when `bias`."""
    t = lambda s: "tensor<" + "x".join("?" if d is None else str(d) for d in s) + "xf32>"  # noqa: E731
    o = [(n + 2 * pad - k) // s + 1 for n, s in zip(x_shape[2:], stride)]
    out, w = (x_shape[0], c, *o), (c, 1, k, k, k)
    pads = ", ".join([f"[{pad}, {pad}]"] * 3)
    body = (f"  %y = stablehlo.convolution(%x, %w) dim_numbers = [b, f, 0, 1, 2]x[o, i, 0, 1, 2]"
            f"->[b, f, 0, 1, 2], window = {{stride = {list(stride)}, pad = [{pads}]}}"
            f" {{batch_group_count = 1 : i64, feature_group_count = {c} : i64}}"
            f" : ({t(x_shape)}, {t(w)}) -> {t(out)}\n")
    args, result = f"%x: {t(x_shape)}, %w: {t(w)}", "%y"
    if bias:
        args += f", %b: {t((c,))}"
        body += (f"  %bb = stablehlo.broadcast_in_dim %b, dims = [1] : ({t((c,))}) -> {t(out)}\n"
                 f"  %z = stablehlo.add %y, %bb : {t(out)}\n")
        result = "%z"
    return f"func.func @main({args}) -> {t(out)} {{\n{body}  return {result} : {t(out)}\n}}\n"


def reference_3d(x, w, stride, pad):
    x, w = x.astype(np.float64), w.astype(np.float64)
    xp = np.pad(x, [(0, 0), (0, 0)] + [(pad, pad)] * 3)
    k = w.shape[2]
    o = [(n + 2 * pad - k) // s + 1 for n, s in zip(x.shape[2:], stride)]
    out = np.zeros(x.shape[:2] + tuple(o))
    for a in range(k):
        for i in range(k):
            for j in range(k):
                win = xp[:, :, a:a + (o[0] - 1) * stride[0] + 1:stride[0],
                         i:i + (o[1] - 1) * stride[1] + 1:stride[1],
                         j:j + (o[2] - 1) * stride[2] + 1:stride[2]]
                out += win * w[None, :, 0, a, i, j, None, None, None]
    return out


def test_depthwise_3d_route_is_taken():
    """A 3-D channels-first depthwise convolution is the depthwise nest (batch, channel,
    frame, row), parallel, a pass per window frame (3 x 9 products in each of the row's six
    runs); a bias after it is a kernel of its own."""
    text = loops(program_3d((1, 8, 4, 30, 30), 8, 3, (1, 1, 1), 1, True))
    assert 'aot.kernel = "convolution", aot.parallel = true' in text, text
    assert text.count("aot.kernel =") == 2 and text.count("arith.mulf") == 3 * 9 * 6, text


@pytest.mark.parametrize("x_shape, stride", [
    ((1, 8, 4, 30, 30), (1, 1, 1)),  # MViT's q pool: long vector runs
    ((2, 5, 5, 17, 19), (1, 4, 4)),  # its k/v pools: strided rows
    ((1, 4, 3, 9, 9), (2, 2, 2)),  # strided frames, windows past both ends
    ((1, 3, 2, 40, 33), (1, 1, 1)),  # every frame's window in the padding on one side
])
def test_depthwise_3d_matches_numpy(x_shape, stride):
    rng = np.random.default_rng(5)
    c = x_shape[1]
    x = rng.uniform(-1, 1, x_shape).astype(np.float32)
    w = rng.uniform(-1, 1, (c, 1, 3, 3, 3)).astype(np.float32)
    bias = rng.uniform(-1, 1, c).astype(np.float32)
    want = reference_3d(x, w, stride, 1)
    lib = aot.compile(program_3d(x_shape, c, 3, stride, 1, True), name="dw3d")
    np.testing.assert_allclose(lib.main(x, w, bias), want + bias[None, :, None, None, None],
                               rtol=1e-5, atol=1e-5)
    dyn = aot.compile(program_3d((None,) + x_shape[1:], c, 3, stride, 1, False), name="dw3d_dyn")
    for batch in (1, 3):
        xb = np.concatenate([x] * 3)[:batch]
        np.testing.assert_allclose(dyn.main(xb, w), reference_3d(xb, w, stride, 1), rtol=1e-5,
                                   atol=1e-5)
