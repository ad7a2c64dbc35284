"""Convolutions on the cuda target as implicit GEMM (lowering/codegen/cuda/conv.py) on the
emulated grid through the CUDA driver double, against numpy (float64, tests/conv_reference.py):
1-D to 3-D, NHWC and NCHW, strides, lhs and rhs dilation, padding (negative
too), window reversal, feature groups whose tiles straddle groups, 1x1, batch 1 and 3, sizes
that are not multiples of the tiles, a fused bias + relu epilogue, a batch known only at run
time; which kernel each convolution gets (depthwise stays a thread per output element); ptxas
on the PTX.
Small shapes: the larger ones are tests/tooling/gpu_emu/conv_campaign.py's (`make test-gpu`)."""
import numpy as np
import pytest

from aot.driver import Compilation, Options
from conv_reference import conv_text, np_conv
from lowering.codegen.cuda import conv
from tooling.gpu_emu import build_emulated

NHWC = ((0, 3, [1, 2]), (2, 3, [0, 1]), (0, 3, [1, 2]))
NCHW = ((0, 1, [2, 3]), (1, 0, [2, 3]), (0, 1, [2, 3]))
NWC = ((0, 2, [1]), (1, 2, [0]), (0, 2, [1]))
NDHWC = ((0, 4, [1, 2, 3]), (3, 4, [0, 1, 2]), (0, 4, [1, 2, 3]))


def shape_of(dn_part, first, second, spatial):
    """A tensor's shape from its dimension numbers and its canonical (first, second, spatial) sizes."""
    shape = [0] * (len(spatial) + 2)
    for size, d in zip([first, second] + spatial, [dn_part[0], dn_part[1]] + dn_part[2]):
        shape[d] = size
    return shape


# name: dn, batch, in features, out features, input spatial, kernel spatial,
#       (strides, pads, lhs dilation, rhs dilation, reversal, groups)
CASES = {
    "conv1d_stride5_kernel10": (NWC, 1, 3, 5, [57], [10], ([5], [(0, 0)], [1], [1], [False], 1)),
    "conv2d_3x3_pad1_batch3": (NHWC, 3, 5, 70, [7, 9], [3, 3], ([1, 1], [(1, 1), (1, 1)], [1, 1], [1, 1],
                                                          [False, False], 1)),
    "conv2d_stride2_dilation2_nchw": (NCHW, 1, 4, 6, [11, 10], [3, 2], ([2, 2], [(2, 2), (1, 0)], [1, 1],
                                                                      [2, 2], [False, False], 1)),
    "lhs_dilation_reversed": (NHWC, 2, 3, 4, [5, 4], [3, 3], ([1, 2], [(2, 2), (-1, 2)], [2, 2], [1, 1],
                                                              [True, False], 1)),
    "grouped_straddling": (NHWC, 2, 6, 9, [6, 7], [3, 3], ([1, 1], [(1, 1), (1, 1)], [1, 1], [1, 1],
                                                          [False, False], 3)),
    "pointwise_1x1": (NHWC, 3, 20, 33, [5, 7], [1, 1], ([1, 1], [(0, 0), (0, 0)], [1, 1], [1, 1],
                                                       [False, False], 1)),
    "conv3d_small": (NDHWC, 1, 2, 4, [4, 5, 3], [2, 3, 2], ([1, 2, 1], [(0, 1), (1, 1), (1, 0)], [1, 1, 1],
                                                       [1, 1, 1], [False] * 3, 1)),
}


def conv_case(name):
    dn, batch, cin, cout, spatial, kernel, (strides, pads, lhs_dil, rhs_dil, rev, groups) = CASES[name]
    lhs = shape_of(dn[0], batch, cin, spatial)
    rhs = shape_of((dn[1][1], dn[1][0], dn[1][2]), cout, cin // groups, kernel)
    conv = (strides, pads, lhs_dil, rhs_dil, rev, groups, 1)
    rng = np.random.default_rng(len(name))
    x, w = rng.uniform(-1, 1, lhs).astype(np.float32), rng.uniform(-1, 1, rhs).astype(np.float32)
    want = np_conv(x, w, dn, *conv)
    return conv_text(lhs, rhs, want.shape, dn, *conv), x, w, want


def conv_kernels(text, name):
    """The PTX entries of a program whose kernels are all convolutions (or their fusions)."""
    return compiled(text, name).llvm()[3]


def compiled(text, name):
    return Compilation(text, name + ".mlir", Options(name=name, emit="ptx", target="cuda"))


def assert_ptxas_accepts(c, tmp_path):
    """ptxas (sm_80) takes the program's PTX, which stages its slabs in shared memory."""
    from tooling.ptxas import ptxas
    out = tmp_path / "k.ptx"
    out.write_text(c.assembly())
    assert all(s in c.assembly() for s in ("bar.sync", "ld.shared", "st.shared"))
    r = ptxas(str(out), "sm_80")
    assert r.returncode == 0, r.stderr


def is_tiled(kernel, tile=None) -> bool:
    """A block of 256 threads per tile of `tile` output features (the implicit GEMM; any of
    the three tile sides when None)."""
    sides = (tile,) if tile else (16, 32, 64)
    return kernel.launch.lanes == 256 and any(t in kernel.launch.tiles for t in sides)


BIG_TILES = {"conv2d_3x3_pad1_batch3", "grouped_straddling"}  # forced to 64 x 64: their outputs are small
TINY_TILES = {"conv2d_stride2_dilation2_nchw", "pointwise_1x1"}  # 16 x 16 (conv.tile_size's own choice)


@pytest.mark.parametrize("name", sorted(CASES))
def test_implicit_gemm_matches_numpy(name, tmp_path, monkeypatch):
    """Each case with 32 x 32 tiles, two with 64 x 64 ones, two with 16 x 16 (what
    conv.tile_size gives such small outputs now)."""
    tile = 64 if name in BIG_TILES else 16 if name in TINY_TILES else 32
    monkeypatch.setattr(conv, "tile_size", lambda *args: tile)
    text, x, w, want = conv_case(name)
    c = compiled(text, name)
    (kernel,) = c.llvm()[3]
    assert is_tiled(kernel, tile), kernel.describe()
    if name in BIG_TILES | TINY_TILES:
        assert_ptxas_accepts(c, tmp_path)
    lib = build_emulated(text, name, str(tmp_path))
    np.testing.assert_allclose(lib.main(x, w), want, rtol=1e-5, atol=1e-5)


DEPTHWISE = dict(lhs=[1, 5, 4, 64], rhs=[3, 3, 1, 64], dn=NHWC,
                 conv=([1, 1], [(1, 1), (1, 1)], [1, 1], [1, 1], [False, False], 64, 1))


def test_depthwise_stays_per_element(tmp_path):
    """One feature per group: a 32 x 32 tile would span 32 groups with 9 of each 16-deep slab
    used, 1.8% of its multiply-adds useful, below the per-element kernel's rate on the model."""
    rng = np.random.default_rng(3)
    x = rng.uniform(-1, 1, DEPTHWISE["lhs"]).astype(np.float32)
    w = rng.uniform(-1, 1, DEPTHWISE["rhs"]).astype(np.float32)
    want = np_conv(x, w, DEPTHWISE["dn"], *DEPTHWISE["conv"])
    text = conv_text(DEPTHWISE["lhs"], DEPTHWISE["rhs"], want.shape, DEPTHWISE["dn"], *DEPTHWISE["conv"])
    (kernel,) = conv_kernels(text, "dw")
    assert kernel.launch.elementwise, kernel.describe()
    lib = build_emulated(text, "dw", str(tmp_path))
    np.testing.assert_allclose(lib.main(x, w), want, rtol=1e-5, atol=1e-5)


def test_rule_weighs_the_groups():
    """8 groups of 8 features (a 32 x 32 tile spans 4 groups, 9 of 16 slab rows used: 14%
    useful) are tiled on the model's A100 (FP32 19.5 TFLOP/s against the per-element kernel's
    1.3 at L2 bandwidth); 64 groups of 1 (1.8%) are not; complex elements never are. Large
    outputs get 64 x 64 tiles, smaller ones 32 x 32 or 16 x 16 (fewer than two per SM:
    smaller tiles)."""
    assert [conv.groups_per_tile(p, 100) for p in (1, 3, 8, 64, 96, 128)] == [64, 22, 8, 1, 2, 1]
    assert conv.groups_per_tile(3, 100, 32) == 12
    for batch, tile in ((16, 64), (4, 32)):  # 512 or 128 tiles of 64 x 64 for the A100's 108 SMs
        text = conv_text([batch, 32, 32, 8], [3, 3, 8, 128], [batch, 32, 32, 128], NHWC, [1, 1],
                         [(1, 1), (1, 1)], [1, 1], [1, 1], [False, False], 1, 1)
        (kernel,) = conv_kernels(text, "big")
        assert kernel.launch.tiles == (1, tile // 32, 32, tile), kernel.describe()
    for groups, per_group, tiled in ((8, 8, True), (64, 1, False)):
        rhs = [3, 3, 1, groups * per_group]
        text = conv_text([1, 6, 5, groups], rhs, [1, 6, 5, groups * per_group], NHWC,
                         [1, 1], [(1, 1), (1, 1)], [1, 1], [1, 1], [False, False], groups, 1)
        (kernel,) = conv_kernels(text, "g")
        assert is_tiled(kernel) == tiled, (groups, per_group, kernel.describe())
    complex_text = conv_text([1, 6, 5, 8], [3, 3, 8, 8], [1, 6, 5, 8], NHWC, [1, 1], [(1, 1), (1, 1)],
                             [1, 1], [1, 1], [False, False], 1, 1).replace("xf32>", "xcomplex<f32>>")
    (kernel,) = conv_kernels(complex_text, "c")
    assert kernel.launch.elementwise


EPILOGUE = """func.func @main(%x: tensor<3x9x7x5xf32>, %w: tensor<3x3x5x70xf32>, %b: tensor<70xf32>)
    -> tensor<3x9x7x70xf32> {
  %y = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f],
      window = {stride = [1, 1], pad = [[1, 1], [1, 1]]}
      {batch_group_count = 1 : i64, feature_group_count = 1 : i64}
      : (tensor<3x9x7x5xf32>, tensor<3x3x5x70xf32>) -> tensor<3x9x7x70xf32>
  %bb = stablehlo.broadcast_in_dim %b, dims = [3] : (tensor<70xf32>) -> tensor<3x9x7x70xf32>
  %z = stablehlo.add %y, %bb : tensor<3x9x7x70xf32>
  %c = stablehlo.constant dense<0.0> : tensor<3x9x7x70xf32>
  %r = stablehlo.maximum %z, %c : tensor<3x9x7x70xf32>
  return %r : tensor<3x9x7x70xf32>
}"""


def test_fused_bias_relu(tmp_path):
    """conv + bias + relu is one kernel: the consumers run on each result before it is stored."""
    c = compiled(EPILOGUE, "ep")
    kernels = c.llvm()[3]
    assert len(kernels) == 1 and is_tiled(kernels[0]), [k.describe() for k in kernels]
    assert_ptxas_accepts(c, tmp_path)
    lib = build_emulated(EPILOGUE, "ep", str(tmp_path))
    rng = np.random.default_rng(4)
    x = rng.uniform(-1, 1, (3, 9, 7, 5)).astype(np.float32)
    w = rng.uniform(-1, 1, (3, 3, 5, 70)).astype(np.float32)
    b = rng.uniform(-1, 1, 70).astype(np.float32)
    y = np_conv(x, w, NHWC, [1, 1], [(1, 1), (1, 1)], [1, 1], [1, 1], [False, False], 1, 1) + b
    np.testing.assert_allclose(lib.main(x, w, b), np.maximum(y, 0), rtol=1e-5, atol=1e-5)


def test_batch_known_at_run_time(tmp_path):
    """A dynamic batch (0, 1 and 3): the tiles over it are counted on the device."""
    text, _, w, _ = conv_case("conv2d_stride2_dilation2_nchw")
    text = text.replace("tensor<1x", "tensor<?x")  # the input's and the output's batch
    assert text.count("tensor<?x") == 5
    lib = build_emulated(text, "dyn", str(tmp_path))
    rng = np.random.default_rng(5)
    for batch in (0, 1, 3):
        x = rng.uniform(-1, 1, (batch, 4, 11, 10)).astype(np.float32)
        want = np_conv(x, w, NCHW, *CASES["conv2d_stride2_dilation2_nchw"][-1], 1)
        np.testing.assert_allclose(lib.main(x, w), want, rtol=1e-5, atol=1e-5)

