"""The CPU's convolution routes of lowering/codegen/cpu/conv_gemm.py beyond 2-D im2col: 1-D
convolutions as the direct convolution of height 1 (aot.conv, the input read in place), 1x1
convolutions as one packed matmul over every position (aot.gemm), and direct convolutions
with too few output rows for the threads cut into chunks of tiles. Each checked against the
float64 numpy reference of tests/conv_reference.py, static and with a `?` batch and length,
odd sizes, f32 and f64, with a fused bias where the route runs epilogues."""
import re

import numpy as np
import pytest

import aot
from conv_reference import np_conv
from lowering.codegen.cpu.conv_gemm import CONSTANT_ROW_POSITIONS
from lowering.frontend.parser import parse_module
from lowering.frontend.printer import print_module
from lowering.passes.pipeline import run_pipeline

NWC = ((0, 2, [1]), (1, 2, [0]), (0, 2, [1]))  # (batch, w, f) x (w, i, o) -> (batch, w, f)
NHWC = ((0, 3, [1, 2]), (2, 3, [0, 1]), (0, 3, [1, 2]))


def conv_program(x_shape, w_shape, out_shape, stride, pads, elem, bias=False, groups=1,
                 relu=False, frozen=None):
    """A convolution (plus a bias along the features, then a relu) as StableHLO text; None
    dims are `?`. `frozen`: the kernel (numpy) as a constant, not an argument."""
    n = len(w_shape) - 2
    t = lambda s: "tensor<" + "x".join("?" if d is None else str(d) for d in s) + f"x{elem}>"  # noqa: E731
    labels = "[b, " + ", ".join(map(str, range(n))) + ", f]"
    kernel = "[" + ", ".join(map(str, range(n))) + ", i, o]"
    pad = ", ".join(f"[{lo}, {hi}]" for lo, hi in pads)
    f = w_shape[-1]
    args = f"%x: {t(x_shape)}" + ("" if frozen is not None else f", %w: {t(w_shape)}") + (
        f", %b: {t((f,))}" if bias else "")
    window = f"stride = [{', '.join(map(str, stride))}], pad = [{pad}]"
    body = "" if frozen is None else (f'  %w = stablehlo.constant dense<"0x{frozen.tobytes().hex()}">'
                                      f" : {t(w_shape)}\n")
    body += (f"  %y = stablehlo.convolution(%x, %w) dim_numbers = {labels}x{kernel}->{labels}, "
             f"window = {{{window}}} {{batch_group_count = 1 : i64, feature_group_count = {groups} : i64}}"
             f" : ({t(x_shape)}, {t(w_shape)}) -> {t(out_shape)}\n")
    result = "%y"
    if bias:
        rank = len(out_shape)
        if all(d is not None for d in out_shape):
            body += (f"  %bb = stablehlo.broadcast_in_dim %b, dims = [{rank - 1}] : "
                     f"({t((f,))}) -> {t(out_shape)}\n")
        else:
            for d in range(rank):  # the result's shape, as jax.export builds it
                body += (f"  %d{d} = stablehlo.get_dimension_size %y, dim = {d} : "
                         f"({t(out_shape)}) -> tensor<i32>\n"
                         f"  %r{d} = stablehlo.reshape %d{d} : (tensor<i32>) -> tensor<1xi32>\n")
            parts = ", ".join(f"%r{d}" for d in range(rank))
            body += (f"  %shape = stablehlo.concatenate {parts}, dim = 0 : "
                     f"({', '.join(['tensor<1xi32>'] * rank)}) -> tensor<{rank}xi32>\n"
                     f"  %bb = stablehlo.dynamic_broadcast_in_dim %b, %shape, dims = [{rank - 1}] "
                     f": ({t((f,))}, tensor<{rank}xi32>) -> {t(out_shape)}\n")
        body += f"  %z = stablehlo.add %y, %bb : {t(out_shape)}\n"
        result = "%z"
    if relu:  # after the bias: its %shape
        body += f"  %c0 = stablehlo.constant dense<0.0> : tensor<{elem}>\n"
        if all(d is not None for d in out_shape):
            body += (f"  %c0b = stablehlo.broadcast_in_dim %c0, dims = [] : (tensor<{elem}>) "
                     f"-> {t(out_shape)}\n")
        else:
            body += (f"  %c0b = stablehlo.dynamic_broadcast_in_dim %c0, %shape, dims = [] : "
                     f"(tensor<{elem}>, tensor<{len(out_shape)}xi32>) -> {t(out_shape)}\n")
        body += f"  %r = stablehlo.maximum {result}, %c0b : {t(out_shape)}\n"
        result = "%r"
    return (f"func.func @main({args}) -> {t(out_shape)} {{\n{body}"
            f"  return {result} : {t(out_shape)}\n}}\n")


def loops(text):
    return print_module(run_pipeline(parse_module(text, "conv.mlir"), "loops"))


def check(lib, x, w, dn, stride, pads, elem, bias=None, groups=1):
    want = np_conv(x, w, dn, stride, pads, [1] * len(stride), [1] * len(stride),
                   [False] * len(stride), groups, 1)
    args = (x, w) if bias is None else (x, w, bias)
    if bias is not None:
        want = want + bias
    tol = 1e-4 if elem == "f32" else 1e-10
    got = lib.main(*args)
    assert got.shape == want.shape
    np.testing.assert_allclose(got, want, rtol=tol, atol=tol * np.sqrt(w[..., 0].size))


def arrays(rng, x_shape, w_shape, elem):
    dt = np.float32 if elem == "f32" else np.float64
    return (rng.uniform(-1, 1, x_shape).astype(dt), rng.uniform(-1, 1, w_shape).astype(dt),
            rng.uniform(-1, 1, w_shape[-1]).astype(dt))


# 1-D: (input features, kernel, stride, padding, output features, lengths to run, type)
CONV1D = {
    "wav2vec2_first": (1, 10, 5, (0, 0), 32, (10, 57, 1203), "f32"),  # window rows of 10
    "wav2vec2_second": (32, 3, 2, (0, 0), 32, (3, 4, 239), "f32"),
    "padded_odd": (17, 4, 3, (2, 1), 16, (1, 2, 45), "f32"),  # edge tiles column by column
    "padded_odd_f64": (17, 4, 3, (2, 1), 24, (1, 2, 45), "f64"),  # f64 panels: 8 wide
}


@pytest.mark.parametrize("name", sorted(CONV1D))
def test_1d_convolution_runs_direct(name):
    """1-D convolutions run as aot.conv (no im2col scratch), static and with a `?` batch and
    length in one library, with a fused bias."""
    cin, k, s, pad, cout, lengths, elem = CONV1D[name]
    rng = np.random.default_rng(len(name))
    text = conv_program((None, None, cin), (k, cin, cout), (None, None, cout), (s,), [pad],
                        elem, bias=True)
    lowered = loops(text)
    assert '"aot.conv"' in lowered and "im2col" not in lowered, lowered
    lib = aot.compile(text, name=f"conv1d_{name}_{elem}")
    for batch, n in zip((1, 3, 2), lengths):
        x, w, b = arrays(rng, (batch, n, cin), (k, cin, cout), elem)
        check(lib, x, w, NWC, (s,), [pad], elem, b)
    # the static form of the longest
    x, w, b = arrays(rng, (2, lengths[-1], cin), (k, cin, cout), elem)
    want_shape = np_conv(x, w, NWC, (s,), [pad], [1], [1], [False], 1, 1).shape
    static = aot.compile(conv_program(x.shape, w.shape, want_shape, (s,), [pad], elem, bias=True),
                         name=f"conv1d_{name}_{elem}_static")
    check(static, x, w, NWC, (s,), [pad], elem, b)


@pytest.mark.parametrize("elem, batch", [("f32", None), ("f64", 3)])
def test_1x1_convolution_is_one_matmul(elem, batch):
    """A 1x1 stride-1 convolution without padding is one aot.gemm over every position (no
    im2col, no aot.conv), its bias fused into the matmul's tiles; `?` batch and static."""
    rng = np.random.default_rng(7)
    cin, cout = 13, 40  # not whole panels either way
    static = batch is not None
    text = conv_program((batch, 5, 7, cin), (1, 1, cin, cout), (batch, 5, 7, cout), (1, 1),
                        [(0, 0), (0, 0)], elem, bias=True)
    lowered = loops(text)
    assert lowered.count('"aot.gemm"') == 1 and '"aot.conv"' not in lowered, lowered
    lib = aot.compile(text, name=f"conv1x1_{elem}_{'static' if static else 'dynamic'}")
    for b in ((3,) if static else (1, 2, 5)):
        x, w, bias = arrays(rng, (b, 5, 7, cin), (1, 1, cin, cout), elem)
        check(lib, x, w, NHWC, (1, 1), [(0, 0), (0, 0)], elem, bias)


def test_1x1_with_padding_or_stride_is_not_a_plain_matmul():
    """Padding or a stride makes a 1x1 convolution read other than its input as is: it keeps
    the windowed routes, and is still right."""
    rng = np.random.default_rng(8)
    for stride, pads in (((2, 1), [(0, 0), (0, 0)]), ((1, 1), [(1, 0), (0, 1)])):
        x, w, _ = arrays(rng, (2, 6, 5, 16), (1, 1, 16, 16), "f32")
        want_shape = np_conv(x, w, NHWC, stride, pads, (1, 1), (1, 1), (False, False), 1, 1).shape
        text = conv_program(x.shape, w.shape, want_shape, stride, pads, "f32")
        assert '"aot.gemm"' not in loops(text) or "im2col" in loops(text)
        lib = aot.compile(text, name=f"conv1x1_windowed_{stride[0]}_{pads[0][0]}")
        check(lib, x, w, NHWC, stride, pads, "f32")


@pytest.mark.parametrize("elem", ["f32", "f64"])
def test_direct_convolution_prefetches_the_next_block(elem):
    """The direct convolution's task prefetches, tile by tile, a share of the input the tile a
    block ahead reads, and runs full tiles of a packed panel on the micro-kernel with B's
    strides constant (`_rows_called`). Checked on the task's IR, then against numpy on a 1-D
    convolution of several blocks a row, whose last tiles prefetch past the input's end and
    whose edge tiles (fewer rows, a panel cut by the features) take the other kernels."""
    from llvmlite import ir as llvm_ir

    from lowering.codegen.cpu import conv_direct
    from lowering.target import host_target
    mod = llvm_ir.Module("m")
    pfor = llvm_ir.Function(mod, llvm_ir.FunctionType(llvm_ir.VoidType(), []), name="pfor")
    t = llvm_ir.FloatType() if elem == "f32" else llvm_ir.DoubleType()
    blocking = host_target().blocking(elem)
    conv_direct.conv_function(mod, elem, t, pfor, blocking)
    task = str(mod.globals[f"aot.gemm.{elem}.conv_task"])
    assert re.search(r'call void @"llvm.prefetch.p0"', task), task[:2000]
    assert re.search(r'icmp slt i64 %"pl.iv"', task)  # the share's lines, a loop
    assert f'@"aot.gemm.{elem}.micro_kernel{blocking.mr}_rows_called"' in task
    rng = np.random.default_rng(5)
    cout = blocking.nr * 2 + 3  # two full panels and one cut
    rows = conv_direct.BLOCK_BYTES // (blocking.mr * cout * (4 if elem == "f32" else 8))
    n = 2 * (2 * rows * blocking.mr + 5) + 3  # two blocks and a part, an edge tile
    x, w, b = arrays(rng, (2, n, 16), (3, 16, cout), elem)
    want_shape = np_conv(x, w, NWC, (2,), [(0, 0)], [1], [1], [False], 1, 1).shape
    text = conv_program(x.shape, w.shape, want_shape, (2,), [(0, 0)], elem, bias=True)
    assert '"aot.conv"' in loops(text)
    lib = aot.compile(text, name=f"conv_prefetch_{elem}")
    check(lib, x, w, NWC, (2,), [(0, 0)], elem, b)


def test_batch_one_direct_convolution_on_threads():
    """A batch-1 direct convolution with few output rows (14) but more than 2^23
    multiply-adds runs on the pool in chunks of each row's tiles; with its bias fused, each
    chunk's epilogue covers only its positions."""
    rng = np.random.default_rng(9)
    x, w, b = arrays(rng, (1, 14, 23, 64), (3, 3, 64, 256), "f32")  # stride 2 in w: no Winograd
    pads = [(1, 1), (1, 1)]
    want_shape = np_conv(x, w, NHWC, (1, 2), pads, (1, 1), (1, 1), (False, False), 1, 1).shape
    text = conv_program(x.shape, w.shape, want_shape, (1, 2), pads, "f32", bias=True)
    assert '"aot.conv"' in loops(text)
    lib = aot.compile(text, name="conv_batch1_threads")
    check(lib, x, w, NHWC, (1, 2), pads, "f32", b)


def test_direct_convolution_in_row_groups():
    """Rows of two tiles (7 positions: 6 + 1) and many of them: tasks take groups of whole
    rows (11 or 5, the last group short), each feature panel streaming over the group, the
    bias fused into each group's positions."""
    rng = np.random.default_rng(15)
    x, w, b = arrays(rng, (9, 5, 7, 20), (3, 3, 20, 24), "f32")  # 20 features: not Winograd
    pads = [(1, 1), (1, 1)]
    text = conv_program(x.shape, w.shape, (9, 5, 7, 24), (1, 1), pads, "f32", bias=True)
    lowered = loops(text)
    assert '"aot.conv"' in lowered and "winograd" not in lowered, lowered
    lib = aot.compile(text, name="conv_row_groups")
    for threads in (1, 2):
        lib.set_num_threads(threads)
        check(lib, x, w, NHWC, (1, 1), pads, "f32", b)


@pytest.mark.parametrize("x_shape, cout", [((1, 7, 7, 130), 232), ((2, 3, 8, 130), 248)])
@pytest.mark.parametrize("elem", ["f32", "f64"])
def test_small_input_large_kernel_by_feature_panels(x_shape, cout, elem):
    """A small input whose kernel is larger than its output (ResNet's 7x7x512 3x3 at batch
    1; here 1.1-2.4 MB): tasks are shares of the feature panels (232 features: the last f32
    panel cut), each over every row, each share's bias fused; on 1, 2 and 3 threads (4 to
    12 shares). 130 features: not Winograd."""
    rng = np.random.default_rng(23)
    x, w, b = arrays(rng, x_shape, (3, 3, 130, cout), elem)
    pads = [(1, 1), (1, 1)]
    text = conv_program(x.shape, w.shape, x_shape[:3] + (cout,), (1, 1), pads, elem, bias=True)
    lowered = loops(text)
    assert '"aot.conv"' in lowered and "winograd" not in lowered, lowered
    lib = aot.compile(text, name=f"conv_panel_tasks_{elem}")
    for threads in (1, 2, 3):
        lib.set_num_threads(threads)
        check(lib, x, w, NHWC, (1, 1), pads, elem, b)


def test_batch_one_winograd_split_over_feature_panels():
    """Winograd at batch 1 with 5 tile rows (< 4 tasks a thread): the threads take shares of
    the feature panels (13, not a multiple of the shares), each share's bias fused; the
    same bits on 1 and 2 threads."""
    rng = np.random.default_rng(13)
    x, w, b = arrays(rng, (1, 9, 14, 96), (3, 3, 96, 208), "f32")  # > 2^23 multiply-adds
    pads = [(1, 1), (1, 1)]
    text = conv_program(x.shape, w.shape, (1, 9, 14, 208), (1, 1), pads, "f32", bias=True)
    assert "winograd = true" in loops(text)
    lib = aot.compile(text, name="conv_winograd_split")
    results = []
    for threads in (1, 2):
        lib.set_num_threads(threads)
        check(lib, x, w, NHWC, (1, 1), pads, "f32", b)
        results.append(lib.main(x, w, b))
    assert np.array_equal(results[0], results[1])


@pytest.mark.parametrize("elem, window, cin, cout, size", [
    ("f32", (4, 4), 3, 40, 18),  # ViT's patches; 18 = 4 x 4 + 2 rows and columns unread
    ("f64", (2, 3), 2, 12, 11),  # a panel cut by the features (f64: 8 wide)
])
def test_thin_patches_gather_into_a_matmul(elem, window, cin, cout, size):
    """Windows that tile the input with thin features (ViT's patch embedding): aot.conv
    gathers them into a matrix and runs the packed matmul, the bias fused into its tiles;
    `?` batch (a small call gathers on one thread, a big one on all), and without scratch
    the direct convolution's window rows."""
    rng = np.random.default_rng(14)
    oh, ow = size // window[0], size // window[1]
    text = conv_program((None, size, size, cin), window + (cin, cout), (None, oh, ow, cout),
                        window, [(0, 0), (0, 0)], elem, bias=True)
    lowered = loops(text)
    assert '"aot.conv"' in lowered and "im2col" not in lowered, lowered
    lib = aot.compile(text, name=f"conv_patches_{elem}")
    for batch in (1, 100 if elem == "f32" else 2):  # 100: > PATCH_PARALLEL_ELEMS elements of A
        x, w, b = arrays(rng, (batch, size, size, cin), window + (cin, cout), elem)
        check(lib, x, w, NHWC, window, [(0, 0), (0, 0)], elem, b)
    if elem == "f32":
        run_without_scratch(lib, f'x, w, b = arrays(np.random.default_rng(5), (3, {size}, {size}, '
                            f'{cin}), {window + (cin, cout)}, "f32")\n'
                            f'check(lib, x, w, NHWC, {window}, [(0, 0), (0, 0)], "f32", b)')


@pytest.mark.parametrize("dn, x_shape, w_shape, stride, pads, groups, elem, route", [
    # wav2vec2's positional convolution: groups of 8 features, an even kernel, `?` b and n:
    # two groups a 16-wide panel, their kernels packed block-diagonally (direct)
    (NWC, (None, None, 32), (6, 8, 32), (1,), [(3, 3)], 4, "f32", "aot.conv"),
    # f64 groups of 4 (half an 8-wide panel) 3x3 at stride 1 x 2, two a panel
    (NHWC, (None, 7, 9, 32), (3, 3, 8, 16), (1, 2), [(1, 1), (0, 1)], 4, "f64", "aot.conv"),
    # groups of 4 (f64: half a panel) 3x3 at stride 2, odd sizes; 3 groups do not pair up
    (NHWC, (None, 7, 9, 6), (3, 3, 2, 12), (2, 2), [(1, 1), (0, 1)], 3, "f64", "aot.gemm"),
    # depthwise: the loop kernel (LLVM vectorises it across the features)
    (NHWC, (None, 7, 9, 5), (3, 3, 1, 5), (2, 2), [(1, 1), (0, 1)], 5, "f64", None),
    # groups of 16 features to whole panels: the direct convolution, each group read in place
    (NWC, (None, None, 48), (5, 16, 96), (2,), [(2, 3)], 3, "f32", "aot.conv"),
    (NHWC, (None, 6, 5, 32), (3, 2, 16, 16), (1, 2), [(1, 1), (1, 0)], 2, "f64", "aot.conv"),
])
def test_grouped_convolution_reads_each_group(dn, x_shape, w_shape, stride, pads, groups, elem,
                                              route):
    """Feature groups run as one batched aot.gemm (a matmul per group), or, with whole
    panels of output features per group or two groups a panel, as the direct convolution;
    depthwise ones in the loop kernel."""
    rng = np.random.default_rng(groups)
    n = len(stride)
    out_shape = (None,) * (n + 1) + (w_shape[-1],) if n == 1 else (None, None, None, w_shape[-1])
    text = conv_program(x_shape, w_shape, out_shape, stride, pads, elem, groups=groups)
    lowered = loops(text)
    if route is None:
        assert '"aot.gemm"' not in lowered and '"aot.conv"' not in lowered, lowered
    else:
        other = "aot.conv" if route == "aot.gemm" else "aot.gemm"
        assert lowered.count(f'"{route}"') == 1 and f'"{other}"' not in lowered, lowered
    lib = aot.compile(text, name=f"conv_grouped_{groups}_{elem}")
    for batch, size in ((1, 5), (3, 17)):
        shape = (batch, size) + tuple(x_shape[2:]) if n == 1 else (batch,) + x_shape[1:]
        x, w, _ = arrays(rng, shape, w_shape, elem)
        check(lib, x, w, dn, stride, pads, elem, groups=groups)


WITHOUT_SCRATCH = """
import sys, numpy as np
sys.path.insert(0, {tests!r})
from abi.loader import Library
from test_conv_paths import NHWC, NWC, arrays, check
lib = Library({path!r})
{check}
print("ok")
"""


def run_without_scratch(lib, check_line):
    """check_line (a call of check on `lib`) in a process whose kernels get no scratch
    (AOT_KERNEL_SCRATCH=off): the routes' fallbacks."""
    import os
    import subprocess
    import sys
    tests = os.path.dirname(os.path.abspath(__file__))
    env = dict(os.environ, AOT_KERNEL_SCRATCH="off",
               PYTHONPATH=os.pathsep.join([os.path.dirname(os.path.dirname(tests)),
                                           os.path.dirname(tests)]))
    code = WITHOUT_SCRATCH.format(tests=tests, path=lib.path, check=check_line)
    r = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                       timeout=300)
    assert r.returncode == 0 and "ok" in r.stdout, r.stderr


@pytest.mark.parametrize("elem, cout", [("f32", 12), ("f64", 5)])
def test_direct_convolution_with_a_panel_cut_by_the_features(elem, cout):
    """Output features not a whole number of NR-wide panels (DenseNet's growth of 12): the
    direct convolution, its last panel packed with zeros past F; `?` batch, fused bias; and
    without scratch (AOT_KERNEL_SCRATCH=off) that panel element by element."""
    rng = np.random.default_rng(11)
    pads = [(1, 1), (1, 1)]
    text = conv_program((None, 9, 7, 16), (3, 3, 16, cout), (None, 9, 7, cout), (1, 1), pads,
                        elem, bias=True)
    lowered = loops(text)
    assert '"aot.conv"' in lowered and "winograd" not in lowered, lowered
    lib = aot.compile(text, name=f"conv_cut_panel_{elem}")
    for batch in (1, 2):
        x, w, b = arrays(rng, (batch, 9, 7, 16), (3, 3, 16, cout), elem)
        check(lib, x, w, NHWC, (1, 1), pads, elem, b)
    if elem == "f32":
        run_without_scratch(lib, 'x, w, b = arrays(np.random.default_rng(11), (2, 9, 7, 16), '
                            '(3, 3, 16, 12), "f32")\n'
                            'check(lib, x, w, NHWC, (1, 1), [(1, 1), (1, 1)], "f32", b)')


def test_thin_groups_block_diagonal_with_bias_and_without_scratch():
    """16 groups of 8 features (wav2vec2's positional convolution, kernel 32): two groups a
    panel with the bias fused, a `?` batch and length, odd lengths; and without scratch (no
    packed panels) each group's 8 features as a cut panel, element by element."""
    rng = np.random.default_rng(12)
    text = conv_program((None, None, 128), (32, 8, 128), (None, None, 128), (1,), [(16, 15)],
                        "f32", bias=True, groups=16)
    lowered = loops(text)
    assert lowered.count('"aot.conv"') == 1 and '"aot.gemm"' not in lowered, lowered
    lib = aot.compile(text, name="conv_thin_groups")
    for batch, n in ((1, 3), (2, 41)):
        x, w, b = arrays(rng, (batch, n, 128), (32, 8, 128), "f32")
        check(lib, x, w, NWC, (1,), [(16, 15)], "f32", b, groups=16)
    run_without_scratch(lib, 'x, w, b = arrays(np.random.default_rng(3), (2, 19, 128), '
                        '(32, 8, 128), "f32")\n'
                        'check(lib, x, w, NWC, (1,), [(16, 15)], "f32", b, groups=16)')


NCHW = ((0, 1, [2, 3]), (1, 0, [2, 3]), (0, 1, [2, 3]))  # as PyTorch exports: x OIHW -> NCHW


def nchw_program(batch, cin, cout, size, stride=1):
    """A 3x3 convolution at padding 1 in PyTorch's layouts; batch None is `?`."""
    b = "?" if batch is None else batch
    x, w = f"tensor<{b}x{cin}x{size}x{size}xf32>", f"tensor<{cout}x{cin}x3x3xf32>"
    o = (size - 1) // stride + 1
    y = f"tensor<{b}x{cout}x{o}x{o}xf32>"
    return (f"func.func @main(%x: {x}, %w: {w}) -> {y} {{\n"
            f"  %y = stablehlo.convolution(%x, %w) dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->"
            f"[b, f, 0, 1], window = {{stride = [{stride}, {stride}], pad = [[1, 1], [1, 1]]}} "
            f"{{batch_group_count = 1 : i64, feature_group_count = 1 : i64}} : ({x}, {w}) -> {y}\n"
            f"  return %y : {y}\n}}\n")


@pytest.mark.parametrize("size, cin, cout, stride, batch, route", [
    (2, 24, 40, 1, 3, "one_matmul"), (4, 8, 40, 1, 3, "per_image"), (4, 24, 40, 1, 3, "per_image"),
    (4, 24, 40, 1, 16, "channels_last"), (16, 16, 32, 1, 1, "channels_last"),
    (31, 16, 24, 2, 1, "per_image")])
def test_channels_first_routes(size, cin, cout, stride, batch, route):
    """NCHW with fewer than FEW_POSITIONS output positions an image (ResNet-18's layer4 at
    64x64: 2x2) is one matmul over batch x positions columns, the kernel read once; with at
    least DIRECT_MIN_FEATURES input features and CHANNELS_LAST_POSITIONS output positions a
    call, it is copied into channels-last scratch for the direct convolution (aot.conv,
    Winograd's) and back, at stride 1; thinner inputs, fewer positions or a stride keep im2col's
    in-place per-image products, and a `?` batch under that many positions an image holds
    both, chosen by each call's batch. Each right, static and `?` batch, on both sides."""
    text = loops(nchw_program(batch, cin, cout, size, stride))
    k, o = cin * 9, (size - 1) // stride + 1
    positions = o * o
    assert (f"memref<{k}x{batch}x{positions}xf32>" in text) == (route == "one_matmul")
    assert (f"memref<{batch}x{k}x{positions}xf32>" in text) == (route == "per_image")
    assert (f"memref<{batch}x{size}x{size}x{cin}xf32>" in text
            and '"aot.conv"' in text) == (route == "channels_last")
    dynamic = loops(nchw_program(None, cin, cout, size, stride))
    both = route != "one_matmul" and cin >= 16 and stride == 1 and positions < 256
    assert (f"memref<?x{size}x{size}x{cin}xf32>" in dynamic
            and f"memref<?x{k}x{positions}xf32>" in dynamic) == both
    rng = np.random.default_rng(size)
    w = rng.uniform(-1, 1, (cout, cin, 3, 3)).astype(np.float32)
    runs = [(batch, batch), (None, 5)] + ([(None, 256 // positions + 1)] if both else [])
    for b, shape in runs:
        lib = aot.compile(nchw_program(b, cin, cout, size, stride),
                          f"nchw_{size}_{cin}_{cout}_{stride}_{b or 'dyn'}")
        x = rng.uniform(-1, 1, (shape, cin, size, size)).astype(np.float32)
        want = np_conv(x, w, NCHW, [stride] * 2, [(1, 1), (1, 1)], [1, 1], [1, 1], [False] * 2, 1, 1)
        np.testing.assert_allclose(lib.main(x, w), want, rtol=1e-4, atol=1e-4 * np.sqrt(k))


@pytest.mark.parametrize("kernel", ["oihw", "iohw"])
@pytest.mark.parametrize("batch, size", [(1, 4), (2, 2), (None, 4)])
def test_channels_first_kernel_read_in_place(kernel, batch, size):
    """A channels-first product (per image, or one over the batch) reads an OIHW kernel in
    place as its W [out, in x window], with no copy into a scratch W; a kernel in another
    layout (IOHW here) is copied into W first. Both against numpy, static and `?` batch."""
    cin, cout = 24, 40
    text = nchw_program(batch, cin, cout, size, 1)
    if kernel == "iohw":
        text = text.replace("x[o, i, 0, 1]", "x[i, o, 0, 1]").replace(
            f"tensor<{cout}x{cin}x3x3xf32>", f"tensor<{cin}x{cout}x3x3xf32>")
    lowered = loops(text)
    assert (f"memref<{cout}x{cin * 9}xf32>" in lowered) == (kernel == "iohw"), lowered
    rng = np.random.default_rng(size)
    lib = aot.compile(text, f"nchw_w_{kernel}_{batch or 'dyn'}_{size}")
    w = rng.uniform(-1, 1, (cout, cin, 3, 3)).astype(np.float32)
    given = w if kernel == "oihw" else np.ascontiguousarray(w.transpose(1, 0, 2, 3))
    for n in ([batch] if batch else [1, 3]):
        x = rng.uniform(-1, 1, (n, cin, size, size)).astype(np.float32)
        want = np_conv(x, w, NCHW, [1, 1], [(1, 1), (1, 1)], [1, 1], [1, 1], [False] * 2, 1, 1)
        np.testing.assert_allclose(lib.main(x, given), want, rtol=1e-4, atol=1e-4 * np.sqrt(cin * 9))


def nchw_1x1_program(batch, cin, cout, size, along, elem="f32", act="logistic"):
    """A 1x1 convolution in PyTorch's layouts plus a bias broadcast `along` dim 1 (the
    features: batch-norm's) or 3 (the columns), then `act` (a logistic: SiLU's half)."""
    b = "?" if batch is None else batch
    x, w = f"tensor<{b}x{cin}x{size}x{size}x{elem}>", f"tensor<{cout}x{cin}x1x1x{elem}>"
    y = f"tensor<{b}x{cout}x{size}x{size}x{elem}>"
    n = cout if along == 1 else size
    if batch is None:
        shape = ("  %d0 = stablehlo.get_dimension_size %y, dim = 0 : (" + y + ") -> tensor<i32>\n"
                 "  %r0 = stablehlo.reshape %d0 : (tensor<i32>) -> tensor<1xi32>\n"
                 f"  %c = stablehlo.constant dense<[{cout}, {size}, {size}]> : tensor<3xi32>\n"
                 "  %s = stablehlo.concatenate %r0, %c, dim = 0 : (tensor<1xi32>, tensor<3xi32>)"
                 " -> tensor<4xi32>\n"
                 f"  %bb = stablehlo.dynamic_broadcast_in_dim %b, %s, dims = [{along}] : "
                 f"(tensor<{n}x{elem}>, tensor<4xi32>) -> {y}\n")
    else:
        shape = f"  %bb = stablehlo.broadcast_in_dim %b, dims = [{along}] : (tensor<{n}x{elem}>) -> {y}\n"
    return (f"func.func @main(%x: {x}, %w: {w}, %b: tensor<{n}x{elem}>) -> {y} {{\n"
            f"  %y = stablehlo.convolution(%x, %w) dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->"
            f"[b, f, 0, 1], window = {{stride = [1, 1], pad = [[0, 0], [0, 0]]}} "
            f"{{batch_group_count = 1 : i64, feature_group_count = 1 : i64}} : ({x}, {w}) -> {y}\n"
            f"{shape}  %z = stablehlo.add %y, %bb : {y}\n"
            f"  %s2 = stablehlo.{act} %z : {y}\n"
            f"  return %s2 : {y}\n}}\n")


@pytest.mark.parametrize("size, along, elem", [(5, 1, "f32"), (5, 3, "f32"), (1, 1, "f32"),
                                               (4, 1, "f64"), (6, 1, "f32")])
def test_channels_first_1x1_is_one_matmul_with_its_consumers(size, along, elem):
    """An NCHW 1x1 convolution (EfficientNet's MBConv projections, batch-norm and SiLU after
    it) is one aot.gemm over the input as it is, no im2col copy, its consumers fused into the
    matmul's tiles: per image W @ x[b] (positions the columns, read as one flat index when the
    consumers read nothing along the spatial dims apart, else unflattened), or with 1x1
    images x @ W^T. Right static and with a `?` batch."""
    cin, cout = 19, 21
    for batch in (3, None):
        text = loops(nchw_1x1_program(batch, cin, cout, size, along, elem))
        assert text.count('"aot.gemm"') == 1 and "scf.for" not in text.split('"aot.gemm"')[0]
        assert f"x{cin}x{size * size}x{elem}>" not in text  # no im2col copy [B, C, positions]
        # batch and row indices are one division each, unflattened columns two more (1x1
        # images: the batch is the rows, the columns [F, 1, 1]); a small image's rows run
        # twice: whole, between constant bounds, and cut by the tile
        whole = along == 1 and 1 < size * size < CONSTANT_ROW_POSITIONS
        assert text.count("arith.divui") == (2 + whole if along == 1 and size > 1 else 4), text
        bounds = re.findall(rf'(%\d+) = "arith.constant"\(\) {{value = {size * size} : i64}}', text)
        assert any(re.search(rf'"scf.for"\(%\w+, {v}, ', text) for v in bounds) == whole
    # a short body (no polynomial: abs for relu's kind) keeps the tile's own bounds
    text = loops(nchw_1x1_program(3, cin, cout, size, along, elem, act="abs"))
    assert text.count("arith.divui") == (2 if along == 1 and size > 1 else 4), text
    rng = np.random.default_rng(size + along)
    dt = np.float32 if elem == "f32" else np.float64
    w = rng.uniform(-1, 1, (cout, cin, 1, 1)).astype(dt)
    bias = rng.uniform(-1, 1, cout if along == 1 else size).astype(dt)
    for batch, n in ((3, 3), (None, 1), (None, 6)):
        lib = aot.compile(nchw_1x1_program(batch, cin, cout, size, along, elem),
                          f"nchw1x1_{size}_{along}_{elem}_{batch or 'dyn'}")
        x = rng.uniform(-1, 1, (n, cin, size, size)).astype(dt)
        y = np.einsum("bihw,oi->bohw", x.astype(np.float64), w[:, :, 0, 0].astype(np.float64))
        y = y + (bias[:, None, None] if along == 1 else bias)
        want = 1 / (1 + np.exp(-y))
        tol = 1e-5 if elem == "f32" else 1e-12
        np.testing.assert_allclose(lib.main(x, w, bias), want, rtol=tol, atol=tol)


def test_patch_matmul_is_one_rule():
    """conv_gemm's compile-time choice and the run-time one share conv_direct.patch_matmul:
    tiling windows, one group, more than one window row, rows under PATCH_MATMUL_BELOW."""
    from lowering.codegen.cpu import conv_direct as cd
    below = cd.PATCH_MATMUL_BELOW
    assert cd.patch_matmul(cd.INTS, True, 1, 4, 4, 3)
    assert not cd.patch_matmul(cd.INTS, False, 1, 4, 4, 3)  # windows overlap or pad
    assert not cd.patch_matmul(cd.INTS, True, 2, 4, 4, 3)  # grouped
    assert not cd.patch_matmul(cd.INTS, True, 1, 1, 4, 3)  # one window row
    assert not cd.patch_matmul(cd.INTS, True, 1, 4, below, 1)  # rows too long
    assert cd.patch_matmul(cd.INTS, True, 1, 4, below - 1, 1)


@pytest.mark.parametrize("kw, pad_w, stride, dilation, width", [
    (3, (2, 0), 3, 2, 11), (5, (0, 4), 2, 1, 7), (3, (4, 4), 1, 1, 3), (1, (0, 0), 2, 1, 9),
    (3, (0, 0), 1, 3, 9)])
def test_per_image_rows_in_ranges(kw, pad_w, stride, dilation, width):
    """The channels-first products' A_b (or A) fills each row of a window position in three ranges along
    the last spatial dim (padding left, input, padding right; rows wholly in the padding
    too), with no per-element clamp: right against numpy for padding, stride and dilation
    along it, static and with a `?` batch at 1 and 3."""
    cin, cout, h = 8, 16, 5
    ow = (width + sum(pad_w) - dilation * (kw - 1) - 1) // stride + 1
    oh = h  # 3 rows of window, padding 1, stride 1

    def program(b):
        x, w = f"tensor<{b}x{cin}x{h}x{width}xf32>", f"tensor<{cout}x{cin}x3x{kw}xf32>"
        y = f"tensor<{b}x{cout}x{oh}x{ow}xf32>"
        return (f"func.func @main(%x: {x}, %w: {w}) -> {y} {{\n"
                f"  %y = stablehlo.convolution(%x, %w) dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->"
                f"[b, f, 0, 1], window = {{stride = [1, {stride}], pad = [[1, 1], [{pad_w[0]}, "
                f"{pad_w[1]}]], rhs_dilate = [1, {dilation}]}} {{batch_group_count = 1 : i64, "
                f"feature_group_count = 1 : i64}} : ({x}, {w}) -> {y}\n  return %y : {y}\n}}\n")
    text, k = loops(program(2)), cin * 3 * kw  # per image, or one product over the batch
    assert f"memref<2x{k}x{oh * ow}xf32>" in text or f"memref<{k}x2x{oh * ow}xf32>" in text
    rng = np.random.default_rng(kw * 100 + width)
    w = rng.uniform(-1, 1, (cout, cin, 3, kw)).astype(np.float32)
    for b, batches in ((2, [2]), ("?", [1, 3])):
        lib = aot.compile(program(b), f"rows_{kw}_{pad_w[0]}_{pad_w[1]}_{stride}_{dilation}_"
                                      f"{width}_{'dyn' if b == '?' else b}")
        for n in batches:
            x = rng.uniform(-1, 1, (n, cin, h, width)).astype(np.float32)
            want = np_conv(x, w, NCHW, [1, stride], [(1, 1), pad_w], [1, 1], [1, dilation],
                           [False] * 2, 1, 1)
            np.testing.assert_allclose(lib.main(x, w), want, rtol=1e-4, atol=1e-4 * np.sqrt(cin * 3 * kw))
