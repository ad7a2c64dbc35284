"""Export the conformance corpus: every op family real JAX models use, control
flow included, plus small composite models, each checked against JAX's own
outputs by tests/e2e/test_conformance.py.

JAX is NOT a dependency of this project; it is only the tool that produces
these test programs. Run with a separate environment:

    python3 -m venv /tmp/jaxenv
    /tmp/jaxenv/bin/pip install jax jaxlib numpy ml_dtypes
    /tmp/jaxenv/bin/python tests/data/conformance/export.py               # all cases
    /tmp/jaxenv/bin/python tests/data/conformance/export.py sort_1d_f32   # some cases
    /tmp/jaxenv/bin/python tests/data/conformance/export.py --list        # names
    /tmp/jaxenv/bin/python tests/data/conformance/export.py --prune       # also delete
                                                                     # files of removed cases

For every case NAME this writes, next to this script:
  NAME.mlir  pretty StableHLO text, exactly `jax.jit(f).lower(*args).as_text()`
             (static shapes, entry `@main`, no debug locations, no elided
             constants)
  NAME.npz   inputs  arg0, arg1, ... (in argument order)
             outputs out0, out1, ... (flattened result pytree, in order)
             bfloat16 arrays are stored as their uint16 bit patterns under the
             key with a `__bf16` suffix (e.g. `arg0__bf16`), since npz has no
             bfloat16 type. All other dtypes are stored natively.

Inputs are small and seeded per case (seed = crc32 of the case name), so adding
or removing a case does not change the data of the others. The conventions are
those of tests/data/jax_ops; see README.md here.
"""

import os
import re
import sys

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
import export_util as eu  # noqa: E402
from export_util import BF16, SMALLF, I, U  # noqa: E402  (input makers of the cases)

# name -> (fn, arg specs, x64, expected substrings, lowering platform)
CASES = {}


def case(name, fn, *args, x64=False, expect=(), platform=None):
    """Register a case. Each arg is a numpy array or a callable(rng)->array.

    `expect` lists substrings the module text must contain (whitespace
    collapsed), so a case named for an op really contains that op. `platform`
    lowers for that backend instead of the CPU (export_util.lower): "tpu" for
    the linear algebra ops JAX's CPU lowering turns into LAPACK custom calls;
    the outputs are still the CPU's."""
    assert name not in CASES, name
    assert re.fullmatch(r"[a-z0-9_]+", name), name
    CASES[name] = (fn, args, x64, tuple(expect), platform)


# ---------------------------------------------------------------- input makers
# U (uniform floats), I (integers), B (booleans) and SMALLF (floats in {-2..2}) are
# export_util's.

def N(shape, scale=1.0, dtype=np.float32):
    """Normal floats with the given standard deviation."""
    return lambda rng: (rng.standard_normal(size=shape) * scale).astype(dtype)


def PERM(shape, dtype=np.float32, scale=0.25):
    """Distinct values (a shuffled arange times `scale`): no ties anywhere."""
    n = int(np.prod(shape))
    return lambda rng: (rng.permutation(n).reshape(shape) * scale - n * scale / 2).astype(dtype)


def UNIQ(n, hi):
    """n distinct int32 indices in [0, hi)."""
    return lambda rng: rng.choice(hi, size=n, replace=False).astype(np.int32)


def SCALAR_I(v):
    return np.int32(v)


S = (3, 4)  # default elementwise shape


# ======================================================================
# gather
# ======================================================================

case("gather_take_rows", lambda x, i: x[i], U((5, 4)), I((6,), 0, 4),
     expect=["stablehlo.gather"])
case("gather_take_axis1", lambda x, i: jnp.take(x, i, axis=1), U((3, 6)), I((4,), 0, 5),
     expect=["stablehlo.gather"])
case("gather_negative_indices", lambda x, i: x[i], U((5, 3)), I((7,), -5, 4),
     expect=["stablehlo.gather"])
case("gather_point_pairs", lambda x, i, j: x[i, j], U((4, 5)), I((6,), 0, 3), I((6,), 0, 4),
     expect=["stablehlo.gather"])
case("gather_take_along_axis", lambda x, i: jnp.take_along_axis(x, i, axis=1),
     U((4, 6)), I((4, 3), 0, 5), expect=["stablehlo.gather"])
case("gather_index_matrix_3d", lambda x, i: x[i], U((4, 3, 2)), I((2, 3), 0, 3),
     expect=["stablehlo.gather"])
case("gather_mode_clip", lambda x, i: jnp.take(x, i, axis=0, mode="clip"),
     U((5, 3)), I((6,), -3, 8), expect=["stablehlo.gather"])
case("gather_mode_fill", lambda x, i: jnp.take(x, i, axis=0, mode="fill", fill_value=-7.0),
     U((5, 3)), I((6,), -7, 8), expect=["stablehlo.gather"])
case("gather_i32_operand", lambda x, i: x[:, i], I((3, 5), -100, 100), I((4,), 0, 4),
     expect=["stablehlo.gather"])
case("gather_vmap_batched", jax.vmap(lambda x, i: x[i]), U((3, 5)), I((3, 2), 0, 4),
     expect=["stablehlo.gather"])


def _gather_windows(x, starts):
    # windows of 3 consecutive columns starting at each index (slice sizes > 1)
    dn = lax.GatherDimensionNumbers(offset_dims=(1, 2), collapsed_slice_dims=(),
                                    start_index_map=(1,))
    return lax.gather(x, starts[:, None], dn, slice_sizes=(4, 3),
                      mode=lax.GatherScatterMode.CLIP)


case("gather_windows_slice_sizes", _gather_windows, U((4, 8)), I((5,), 0, 7),
     expect=["stablehlo.gather", "slice_sizes = array<i64: 4, 3>"])
case("gather_2d_index_rows", lambda x, ij: x[ij[:, 0], ij[:, 1]],
     U((3, 4, 2)), I((5, 2), 0, 2), expect=["stablehlo.gather"])

# ======================================================================
# scatter
# ======================================================================

case("scatter_set_unique", lambda x, i, v: x.at[i].set(v), U((6, 3)), UNIQ(4, 6), U((4, 3)),
     expect=["stablehlo.scatter"])
# Duplicate indices with set: which update wins is unspecified, so the
# duplicates here carry the same value (a function of the index).
case("scatter_set_duplicates_same_value",
     lambda x, i: x.at[i].set(i.astype(jnp.float32) * 10.0), U((6,)), I((8,), 0, 5),
     expect=["stablehlo.scatter"])
case("scatter_add_duplicates", lambda x, i, v: x.at[i].add(v), U((5,)), I((9,), 0, 4), U((9,)),
     expect=["stablehlo.scatter", "stablehlo.add"])
case("scatter_add_rows_duplicates", lambda x, i, v: x.at[i].add(v), U((4, 3)), I((6,), 0, 3),
     U((6, 3)), expect=["stablehlo.scatter"])
case("scatter_max_duplicates", lambda x, i, v: x.at[i].max(v), U((5,)), I((9,), 0, 4), U((9,)),
     expect=["stablehlo.scatter", "stablehlo.maximum"])
case("scatter_min_duplicates", lambda x, i, v: x.at[i].min(v), U((5,)), I((9,), 0, 4), U((9,)),
     expect=["stablehlo.scatter", "stablehlo.minimum"])
case("scatter_mul_duplicates", lambda x, i, v: x.at[i].multiply(v), U((5,)), I((7,), 0, 4),
     U((7,), 0.5, 1.5), expect=["stablehlo.scatter", "stablehlo.multiply"])
case("scatter_add_point_pairs", lambda x, i, j, v: x.at[i, j].add(v), U((3, 4)),
     I((7,), 0, 2), I((7,), 0, 3), U((7,)), expect=["stablehlo.scatter"])
case("scatter_add_i32_duplicates", lambda x, i, v: x.at[i].add(v), I((6,), -50, 50),
     I((10,), 0, 5), I((10,), -20, 20), expect=["stablehlo.scatter"])
case("scatter_add_mode_drop", lambda x, i, v: x.at[i].add(v, mode="drop"), U((5,)),
     I((8,), -2, 7), U((8,)), expect=["stablehlo.scatter"])
case("scatter_set_negative_indices", lambda x, i, v: x.at[i].set(v), U((6,)), UNIQ(3, 6),
     U((3,)), expect=["stablehlo.scatter"])
case("scatter_segment_sum", lambda d, s: jax.ops.segment_sum(d, s, num_segments=4),
     U((8, 3)), I((8,), 0, 3), expect=["stablehlo.scatter"])
case("scatter_one_hot_set",
     lambda lab: jnp.zeros((5, 4), jnp.float32).at[jnp.arange(5), lab].set(1.0),
     I((5,), 0, 3), expect=["stablehlo.scatter"])
case("scatter_vmap_batched", jax.vmap(lambda x, i, v: x.at[i].add(v)), U((3, 5)),
     I((3, 2), 0, 4), U((3, 2)), expect=["stablehlo.scatter"])

# ======================================================================
# dynamic_slice / dynamic_update_slice
# ======================================================================

case("dynamic_slice_2d", lambda x, i, j: lax.dynamic_slice(x, (i, j), (2, 3)), U((5, 6)),
     SCALAR_I(1), SCALAR_I(2), expect=["stablehlo.dynamic_slice"])
case("dynamic_slice_clamped", lambda x, i, j: lax.dynamic_slice(x, (i, j), (2, 3)), U((5, 6)),
     SCALAR_I(9), SCALAR_I(-4), expect=["stablehlo.dynamic_slice"])
case("dynamic_index_scalar", lambda x, i: x[i], U((5, 3)), SCALAR_I(-2),
     expect=["stablehlo.dynamic_slice"])
case("dynamic_update_slice_2d",
     lambda x, u, i, j: lax.dynamic_update_slice(x, u, (i, j)), U((5, 6)), U((2, 3)),
     SCALAR_I(2), SCALAR_I(1), expect=["stablehlo.dynamic_update_slice"])
case("dynamic_update_slice_clamped",
     lambda x, u, i, j: lax.dynamic_update_slice(x, u, (i, j)), U((5, 6)), U((2, 3)),
     SCALAR_I(7), SCALAR_I(-3), expect=["stablehlo.dynamic_update_slice"])
case("dynamic_slice_in_dim_i32", lambda x, i: lax.dynamic_slice_in_dim(x, i, 3, axis=1),
     I((3, 7), -50, 50), SCALAR_I(3), expect=["stablehlo.dynamic_slice"])

# ======================================================================
# convolution
# ======================================================================


def _conv(strides=(1, 1), padding="VALID", dn=("NHWC", "HWIO", "NHWC"), lhs_dil=None,
          rhs_dil=None, fgc=1, bgc=1):
    return lambda x, w: lax.conv_general_dilated(
        x, w, strides, padding, lhs_dilation=lhs_dil, rhs_dilation=rhs_dil,
        dimension_numbers=dn, feature_group_count=fgc, batch_group_count=bgc)


case("conv1d_nwc_valid", _conv((1,), "VALID", ("NWC", "WIO", "NWC")),
     U((2, 9, 3)), U((3, 3, 4), -0.5, 0.5), expect=["stablehlo.convolution"])
case("conv1d_ncw_same_stride2", _conv((2,), "SAME", ("NCH", "OIH", "NCH")),
     U((2, 3, 10)), U((4, 3, 3), -0.5, 0.5), expect=["stablehlo.convolution", "stride = [2]"])
case("conv2d_nhwc_valid", _conv(), U((2, 6, 6, 3)), U((3, 3, 3, 4), -0.5, 0.5),
     expect=["stablehlo.convolution", "[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]"])
case("conv2d_nhwc_same", _conv(padding="SAME"), U((1, 5, 5, 2)), U((3, 3, 2, 3), -0.5, 0.5),
     expect=["stablehlo.convolution", "pad = [[1, 1], [1, 1]]"])
case("conv2d_nchw_oihw", _conv(dn=("NCHW", "OIHW", "NCHW")), U((2, 3, 6, 5)),
     U((4, 3, 2, 3), -0.5, 0.5),
     expect=["stablehlo.convolution", "[b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1]"])
case("conv2d_stride2", _conv(strides=(2, 2), padding="SAME"), U((1, 7, 7, 2)),
     U((3, 3, 2, 4), -0.5, 0.5), expect=["stablehlo.convolution", "stride = [2, 2]"])
case("conv2d_padding_asymmetric", _conv(padding=((1, 2), (0, 1))), U((1, 5, 6, 2)),
     U((2, 3, 2, 3), -0.5, 0.5), expect=["stablehlo.convolution", "pad = [[1, 2], [0, 1]]"])
case("conv2d_rhs_dilation", _conv(padding="SAME", rhs_dil=(2, 2)), U((1, 7, 7, 2)),
     U((3, 3, 2, 2), -0.5, 0.5), expect=["stablehlo.convolution", "rhs_dilate = [2, 2]"])
# 16+ input features and whole panels of output features: the CPU's direct convolution, a
# residual block with its bias/relu/residual fused into each output row; strided and dilated
def _resblock(x, w1, b1, w2):
    y = jax.nn.relu(_conv(padding="SAME")(x, w1) + b1)
    return jax.nn.relu(_conv(padding="SAME")(y, w2) + y)


case("conv2d_direct_resblock", _resblock, U((2, 7, 9, 16)), U((3, 3, 16, 16), -0.2, 0.2),
     U((16,)), U((3, 3, 16, 16), -0.2, 0.2), expect=["stablehlo.convolution"])
case("conv2d_direct_strided_dilated", _conv(strides=(2, 1), padding=((1, 2), (2, 0)), rhs_dil=(1, 2)),
     U((1, 8, 9, 32)), U((3, 2, 32, 16), -0.2, 0.2), expect=["stablehlo.convolution", "stride = [2, 1]"])
case("conv2d_lhs_dilation", _conv(padding=((1, 1), (1, 1)), lhs_dil=(2, 2)), U((1, 4, 4, 2)),
     U((3, 3, 2, 3), -0.5, 0.5), expect=["stablehlo.convolution", "lhs_dilate = [2, 2]"])
case("conv2d_transpose",
     lambda x, w: lax.conv_transpose(x, w, (2, 2), "SAME", dimension_numbers=("NHWC", "HWIO", "NHWC")),
     U((1, 4, 4, 3)), U((3, 3, 3, 2), -0.5, 0.5), expect=["stablehlo.convolution"])
case("conv2d_depthwise", _conv(padding="SAME", fgc=4), U((2, 5, 5, 4)),
     U((3, 3, 1, 4), -0.5, 0.5), expect=["stablehlo.convolution", "feature_group_count = 4"])
case("conv2d_grouped", _conv(fgc=2), U((1, 5, 5, 4)), U((2, 2, 2, 6), -0.5, 0.5),
     expect=["stablehlo.convolution", "feature_group_count = 2"])
case("conv2d_depthwise_multiplier", _conv(fgc=2, dn=("NCHW", "OIHW", "NCHW")),
     U((1, 2, 5, 5)), U((4, 1, 3, 3), -0.5, 0.5),
     expect=["stablehlo.convolution", "feature_group_count = 2"])
# The weight gradient of a depthwise convolution: JAX emits batch_group_count.
case("conv2d_weight_grad_batch_group",
     lambda x, w, g: jax.vjp(lambda w: _conv(padding="SAME", fgc=4)(x, w), w)[1](g)[0],
     U((2, 5, 5, 4)), U((3, 3, 1, 4), -0.5, 0.5), U((2, 5, 5, 4)),
     expect=["stablehlo.convolution", "batch_group_count = 4"])
case("conv2d_input_grad",
     lambda x, w, g: jax.vjp(lambda x: _conv(strides=(2, 2), padding="SAME")(x, w), x)[1](g)[0],
     U((1, 6, 6, 2)), U((3, 3, 2, 3), -0.5, 0.5), U((1, 3, 3, 3)),
     expect=["stablehlo.convolution", "lhs_dilate = [2, 2]"])
case("conv2d_weight_grad",
     lambda x, w, g: jax.vjp(lambda w: _conv(padding="SAME")(x, w), w)[1](g)[0],
     U((2, 5, 5, 2)), U((3, 3, 2, 3), -0.5, 0.5), U((2, 5, 5, 3)),
     expect=["stablehlo.convolution"])
case("conv3d_ndhwc", _conv((1, 1, 1), "VALID", ("NDHWC", "DHWIO", "NDHWC")),
     U((1, 4, 4, 4, 2)), U((2, 2, 2, 2, 3), -0.5, 0.5), expect=["stablehlo.convolution"])
case("conv2d_f16", _conv(padding="SAME"), U((1, 5, 5, 2), dtype=np.float16),
     U((3, 3, 2, 3), -0.5, 0.5, np.float16), expect=["stablehlo.convolution", "f16"])
case("conv1d_causal_dilated", _conv((1,), ((4, 0),), ("NWC", "WIO", "NWC"), rhs_dil=(2,)),
     U((1, 8, 2)), U((3, 2, 2), -0.5, 0.5), expect=["stablehlo.convolution", "rhs_dilate = [2]"])

# ======================================================================
# reduce_window and cumulative ops
# ======================================================================


def _rw(init, op, dims, strides, padding="VALID", base_dil=None, win_dil=None):
    return lambda x: lax.reduce_window(x, init, op, dims, strides, padding,
                                       base_dilation=base_dil, window_dilation=win_dil)


case("reduce_window_sum_2x2", _rw(0.0, lax.add, (1, 2, 2, 1), (1, 1, 1, 1)), U((1, 4, 5, 2)),
     expect=["stablehlo.reduce_window", "stablehlo.add"])
case("max_pool_2x2_stride2", _rw(-jnp.inf, lax.max, (1, 2, 2, 1), (1, 2, 2, 1)),
     U((2, 6, 6, 3)), expect=["stablehlo.reduce_window", "stablehlo.maximum"])
case("max_pool_3x3_stride2_same", _rw(-jnp.inf, lax.max, (1, 3, 3, 1), (1, 2, 2, 1), "SAME"),
     U((1, 7, 7, 2)), expect=["stablehlo.reduce_window", "padding"])
case("min_pool_2x2", _rw(jnp.inf, lax.min, (2, 2), (1, 1)), U((5, 5)),
     expect=["stablehlo.reduce_window", "stablehlo.minimum"])
case("avg_pool_padded",
     lambda x: _rw(0.0, lax.add, (1, 3, 3, 1), (1, 2, 2, 1), ((0, 0), (1, 1), (1, 1), (0, 0)))(x) / 9.0,
     U((1, 6, 6, 2)), expect=["stablehlo.reduce_window", "padding"])
case("reduce_window_window_dilation", _rw(-jnp.inf, lax.max, (2, 2), (1, 1), win_dil=(2, 2)),
     U((6, 6)), expect=["stablehlo.reduce_window", "window_dilations"])
case("reduce_window_base_dilation", _rw(0.0, lax.add, (2, 2), (1, 1), base_dil=(2, 2)),
     U((4, 4)), expect=["stablehlo.reduce_window", "base_dilations"])
case("reduce_window_1d_max_stride3", _rw(-jnp.inf, lax.max, (4,), (3,)), U((13,)),
     expect=["stablehlo.reduce_window"])
case("reduce_window_i32_max", _rw(np.int32(-2**31), lax.max, (2, 3), (1, 2)),
     I((5, 7), -100, 100), expect=["stablehlo.reduce_window"])
case("cumsum_axis1", lambda x: jnp.cumsum(x, axis=1), U((3, 6)),
     expect=["stablehlo.reduce_window"])
case("cumsum_reverse_axis0", lambda x: lax.cumsum(x, axis=0, reverse=True), U((5, 3)),
     expect=["stablehlo.reduce_window"])
case("cumsum_i32", lambda x: jnp.cumsum(x), I((10,), -20, 20),
     expect=["stablehlo.reduce_window"])
case("cummax_axis1", lambda x: lax.cummax(x, axis=1), U((3, 7)),
     expect=["stablehlo.reduce_window", "stablehlo.maximum"])
case("cummin_axis0", lambda x: lax.cummin(x, axis=0), U((6, 3)),
     expect=["stablehlo.reduce_window", "stablehlo.minimum"])
case("cumprod_axis0", lambda x: jnp.cumprod(x, axis=0), U((5, 3), 0.5, 1.5),
     expect=["stablehlo.reduce_window", "stablehlo.multiply"])
case("cumlogsumexp", lambda x: lax.cumlogsumexp(x, axis=0), U((6, 2)),
     expect=["stablehlo.reduce_window"])
case("reduce_window_variadic_argmax_pool",
     lambda x: lax.reduce_window(
         (x, lax.broadcasted_iota(jnp.int32, x.shape, 0)), (-jnp.inf, np.int32(0)),
         lambda a, b: (jnp.where(a[0] >= b[0], a[0], b[0]), jnp.where(a[0] >= b[0], a[1], b[1])),
         (3,), (1,), "VALID"),
     PERM((8,)), expect=["stablehlo.reduce_window"])

# ======================================================================
# select_and_scatter (max-pool gradient)
# ======================================================================


def _pool_grad(init, op, dims, strides, padding="VALID"):
    def f(x, g):
        y, vjp = jax.vjp(lambda x: lax.reduce_window(x, init, op, dims, strides, padding), x)
        return vjp(g)[0]
    return f


case("maxpool_grad_2x2", _pool_grad(-jnp.inf, lax.max, (1, 2, 2, 1), (1, 2, 2, 1)),
     U((1, 4, 4, 2)), U((1, 2, 2, 2)), expect=["stablehlo.select_and_scatter"])
case("maxpool_grad_3x3_stride2_same",
     _pool_grad(-jnp.inf, lax.max, (1, 3, 3, 1), (1, 2, 2, 1), "SAME"),
     U((1, 5, 5, 2)), U((1, 3, 3, 2)), expect=["stablehlo.select_and_scatter"])
# Ties inside windows: the select function (GE) decides which element gets it.
case("maxpool_grad_ties", _pool_grad(-jnp.inf, lax.max, (2, 2), (1, 1)),
     SMALLF((4, 4)), U((3, 3)), expect=["stablehlo.select_and_scatter"])
case("minpool_grad_2x2", _pool_grad(jnp.inf, lax.min, (2, 2), (2, 2)),
     U((4, 6)), U((2, 3)), expect=["stablehlo.select_and_scatter"])

# ======================================================================
# sort, argsort, top_k
# ======================================================================

case("sort_1d_f32", jnp.sort, U((9,)), expect=["stablehlo.sort"])
case("sort_2d_axis0", lambda x: jnp.sort(x, axis=0), U((5, 3)), expect=["stablehlo.sort"])
case("sort_2d_last_axis_i32", lambda x: jnp.sort(x, axis=-1), I((3, 6), -5, 5),
     expect=["stablehlo.sort"])
case("sort_descending", lambda x: jnp.sort(x, descending=True), U((8,)),
     expect=["stablehlo.sort"])
case("sort_nan_inf_signed_zero", jnp.sort,
     np.array([3.0, np.nan, -np.inf, 0.0, -0.0, np.inf, -1.5, 2.0, -np.nan, 1e-30], np.float32),
     expect=["stablehlo.sort", "TOTALORDER"])
case("argsort_stable_ties", jnp.argsort, SMALLF((10,)), expect=["stablehlo.sort", "stablehlo.iota"])
case("argsort_descending_2d", lambda x: jnp.argsort(x, axis=1, descending=True), SMALLF((3, 6)),
     expect=["stablehlo.sort"])
case("sort_key_value", lambda k, v: lax.sort((k, v), num_keys=1), PERM((7,)), U((7,)),
     expect=["stablehlo.sort"])
case("sort_two_keys", lambda k1, k2, v: lax.sort((k1, k2, v), num_keys=2),
     I((9,), 0, 2), I((9,), 0, 3), U((9,)), expect=["stablehlo.sort"])
case("sort_unstable_distinct", lambda x: lax.sort(x, is_stable=False), PERM((3, 5)),
     expect=["stablehlo.sort"])
case("sort_bf16", jnp.sort, U((8,), dtype=BF16), expect=["stablehlo.sort", "bf16"])
case("sort_ui32", jnp.sort,
     lambda rng: rng.choice(np.array([0, 1, 2**31 - 1, 2**31, 2**32 - 1], np.uint32), (8,)),
     expect=["stablehlo.sort"])
case("lexsort_two_keys", lambda a, b: jnp.lexsort((a, b)), I((8,), 0, 3), I((8,), 0, 2),
     expect=["stablehlo.sort"])
case("top_k_1d", lambda x: lax.top_k(x, 3), PERM((10,)), expect=["chlo.top_k"])
case("top_k_rows", lambda x: lax.top_k(x, 2), PERM((4, 6)), expect=["chlo.top_k"])
case("top_k_i32", lambda x: lax.top_k(x, 4), PERM((9,), np.int32, 1), expect=["chlo.top_k"])

# ======================================================================
# reduce_precision
# ======================================================================

_RP = np.array([[1.0, 1.0009765625, 1.00048828125, 1.000732421875],
                [65504.0, 65520.0, 1e5, -1e5],
                [6e-5, 6e-8, 1e-9, -3.0000001e-8],
                [np.inf, -np.inf, np.nan, -0.0],
                [3.14159265, -2.71828182, 0.1, 1e-3]], np.float32)
case("reduce_precision_f16", lambda x: lax.reduce_precision(x, 5, 10), _RP,
     expect=["stablehlo.reduce_precision", "format = e5m10"])
case("reduce_precision_bf16", lambda x: lax.reduce_precision(x, 8, 7), _RP,
     expect=["stablehlo.reduce_precision", "format = e8m7"])
case("reduce_precision_e4m3", lambda x: lax.reduce_precision(x, 4, 3), U((3, 5), -300.0, 300.0),
     expect=["stablehlo.reduce_precision", "format = e4m3"])

# ======================================================================
# chlo ops (and tan, which JAX emits as stablehlo.tan)
# ======================================================================

case("erf_f32", lax.erf, U((4, 5), -3.0, 3.0), expect=["chlo.erf "])
case("erfc_f32", lax.erfc, U((4, 5), -3.0, 5.0), expect=["chlo.erfc"])
case("erf_inv_f32", lax.erf_inv, U((4, 5), -0.99, 0.99), expect=["chlo.erf_inv"])
case("lgamma_f32", lax.lgamma, U((4, 5), 0.1, 10.0), expect=["chlo.lgamma"])
case("digamma_f32", lax.digamma, U((4, 5), 0.1, 10.0), expect=["chlo.digamma"])
case("tan_f32", lax.tan, U((4, 5), -1.4, 1.4), expect=["stablehlo.tan "])
case("sinh_f32", lax.sinh, U((4, 5), -5.0, 5.0), expect=["chlo.sinh"])
case("cosh_f32", lax.cosh, U((4, 5), -5.0, 5.0), expect=["chlo.cosh"])
case("asin_f32", lax.asin, U((4, 5), -1.0, 1.0), expect=["chlo.asin"])
case("acos_f32", lax.acos, U((4, 5), -1.0, 1.0), expect=["chlo.acos"])
case("atan_f32", lax.atan, U((4, 5), -10.0, 10.0), expect=["chlo.atan "])
case("asinh_f32", lax.asinh, U((4, 5), -10.0, 10.0), expect=["chlo.asinh"])
case("acosh_f32", lax.acosh, U((4, 5), 1.0, 10.0), expect=["chlo.acosh"])
case("atanh_f32", lax.atanh, U((4, 5), -0.99, 0.99), expect=["chlo.atanh"])
case("nextafter_f32", lax.nextafter,
     np.array([0.0, 1.0, -1.0, 1.0, 0.0, -0.0, np.inf, 3.0, 1e-45, np.nan], np.float32),
     np.array([1.0, 2.0, -2.0, 0.0, -1.0, 1.0, 0.0, 3.0, 0.0, 1.0], np.float32),
     expect=["chlo.next_after"])
case("erf_f16", lax.erf, U((3, 4), -3.0, 3.0, np.float16), expect=["chlo.erf ", "f16"])
case("sinh_bf16", lax.sinh, U((3, 4), -3.0, 3.0, BF16), expect=["chlo.sinh", "bf16"])
case("lgamma_f64", lax.lgamma, U((3, 4), 0.1, 20.0, np.float64), x64=True,
     expect=["chlo.lgamma", "f64"])
case("erf_inv_f64", lax.erf_inv, U((3, 4), -0.999, 0.999, np.float64), x64=True,
     expect=["chlo.erf_inv", "f64"])
case("atan_edge_values", lax.atan,
     np.array([0.0, -0.0, 1.0, -1.0, 1e30, -1e30, np.inf, -np.inf, 1e-30, np.nan], np.float32),
     expect=["chlo.atan "])
# Exact GELU: JAX writes it with erfc.
case("gelu_exact_erfc", lambda x: jax.nn.gelu(x, approximate=False), U((3, 6), -4.0, 4.0),
     expect=["chlo.erfc"])

# More chlo ops that jnp / jax.scipy emit: square (jnp.square, var, std, hypot),
# bessel_i1e, polygamma, zeta; igamma is a while loop around lgamma.
case("square_chlo", jnp.square, U((3, 4)), expect=["chlo.square"])
case("var_std_chlo_square", lambda x: (jnp.var(x, axis=1), jnp.std(x, axis=0)), U((4, 5)),
     expect=["chlo.square"])
case("bessel_i1e_f32", lax.bessel_i1e, U((3, 4), -6.0, 6.0), expect=["chlo.bessel_i1e"])
case("polygamma_f32", lambda x: lax.polygamma(jnp.ones_like(x), x), U((3, 4), 0.5, 6.0),
     expect=["chlo.polygamma"])
case("zeta_f32", lambda x, q: lax.zeta(x, q), U((3, 4), 1.5, 5.0), U((3, 4), 0.5, 4.0),
     expect=["chlo.zeta"])
case("igamma_while_lgamma", lambda a, x: lax.igamma(a, x), U((3, 4), 0.5, 5.0), U((3, 4), 0.1, 6.0),
     expect=["chlo.lgamma", "stablehlo.while"])
case("log_ndtr_erf_erfc", jax.scipy.special.log_ndtr, U((3, 5), -8.0, 4.0),
     expect=["chlo.erf ", "chlo.erfc"])

# ======================================================================
# optimization_barrier, remat
# ======================================================================

case("optimization_barrier_pair", lambda x, y: lax.optimization_barrier((x * 2.0, y + 1)),
     U(S), I(S), expect=["stablehlo.optimization_barrier"])
case("remat_grad",
     lambda x, w: jax.grad(lambda w: jnp.sum(jax.checkpoint(lambda w: jnp.sin(x @ w) ** 2)(w)))(w),
     U((3, 4)), U((4, 2)), expect=["stablehlo.optimization_barrier"])

# ======================================================================
# f16 / bf16 arithmetic
# ======================================================================

case("f16_elementwise_chain", lambda x, y: (x * y + x) / (1.0 + jnp.abs(y)) - jnp.sqrt(jnp.abs(x)),
     U((4, 5), dtype=np.float16), U((4, 5), dtype=np.float16), expect=["f16"])
case("bf16_elementwise_chain", lambda x, y: jnp.maximum(x * y, 0.0) + jnp.exp(-jnp.abs(x)),
     U((4, 5), dtype=BF16), U((4, 5), dtype=BF16), expect=["bf16"])
case("f16_matmul", jnp.matmul, U((3, 8), dtype=np.float16), U((8, 4), dtype=np.float16),
     expect=["stablehlo.dot_general", "f16"])
case("bf16_matmul_f32_acc",
     lambda a, b: jnp.matmul(a, b, preferred_element_type=jnp.float32),
     U((3, 8), dtype=BF16), U((8, 4), dtype=BF16), expect=["stablehlo.dot_general", "bf16"])
case("bf16_softmax", lambda x: jax.nn.softmax(x, axis=-1), U((3, 6), -3.0, 3.0, BF16),
     expect=["bf16", "stablehlo.exponential"])
case("f16_layernorm",
     lambda x: (x - x.mean(-1, keepdims=True)) * lax.rsqrt(x.var(-1, keepdims=True) + 1e-3),
     U((3, 8), dtype=np.float16), expect=["f16", "stablehlo.rsqrt"])
case("bf16_reduce_sum", lambda x: jnp.sum(x, axis=0), U((6, 4), dtype=BF16),
     expect=["bf16", "stablehlo.reduce"])
case("f16_tanh_exp_log", lambda x: jnp.tanh(x) + jnp.log1p(jnp.exp(x)), U((3, 5), dtype=np.float16),
     expect=["f16", "stablehlo.tanh"])
case("f16_to_bf16_convert", lambda x: x.astype(jnp.bfloat16) * 3, U((3, 4), -100, 100, np.float16),
     expect=["stablehlo.convert", "bf16", "f16"])
case("bf16_mlp",
     lambda x, w1, w2: jax.nn.relu(x @ w1) @ w2,
     U((2, 6), dtype=BF16), U((6, 8), -0.5, 0.5, BF16), U((8, 3), -0.5, 0.5, BF16),
     expect=["bf16", "stablehlo.dot_general"])

# ======================================================================
# control flow
# ======================================================================

case("fori_loop_static", lambda x: lax.fori_loop(0, 5, lambda i, c: c * 0.9 + i.astype(jnp.float32), x),
     U((3,)), expect=["stablehlo.while"])
case("fori_loop_dynamic_trip", lambda n, x: lax.fori_loop(0, n, lambda i, c: c * 1.1 - 0.05, x),
     SCALAR_I(7), U((4,)), expect=["stablehlo.while"])
case("fori_loop_dynamic_zero_trip", lambda n, x: lax.fori_loop(0, n, lambda i, c: c + 1.0, x),
     SCALAR_I(0), U((4,)), expect=["stablehlo.while"])
case("fori_loop_dynamic_bounds_i32",
     lambda lo, hi: lax.fori_loop(lo, hi, lambda i, c: c + i * i, np.int32(0)),
     SCALAR_I(3), SCALAR_I(11), expect=["stablehlo.while"])


def _multi_carry(x, m):
    def cond(c):
        i, v, mm, flag = c
        return (i < 6) & flag

    def body(c):
        i, v, mm, flag = c
        v = v + mm.sum(axis=0)[: v.shape[0]] * 0.1
        mm = mm * 0.5 + i.astype(jnp.float32)
        return i + 1, v, mm, jnp.max(v) < 50.0
    return lax.while_loop(cond, body, (np.int32(0), x, m, True))


case("while_multi_carry_shapes", _multi_carry, U((3,)), U((2, 4)),
     expect=["stablehlo.while"])


def _collatz_steps(n):
    def body(c):
        n, k = c
        return jnp.where(n % 2 == 0, n // 2, 3 * n + 1), k + 1
    return lax.while_loop(lambda c: c[0] != 1, body, (n, np.int32(0)))[1]


case("while_collatz_data_dependent", jax.vmap(_collatz_steps),
     np.array([1, 6, 7, 27, 97, 12], np.int32), expect=["stablehlo.while"])


def _newton_sqrt(a):
    def body(c):
        x, it = c
        return 0.5 * (x + a / x), it + 1

    def cond(c):
        x, it = c
        return (jnp.max(jnp.abs(x * x - a)) > 1e-4 * jnp.max(a)) & (it < 50)
    return lax.while_loop(cond, body, (a, np.int32(0)))


case("while_newton_converge", _newton_sqrt, U((5,), 1.0, 30.0), expect=["stablehlo.while"])
case("while_zero_iterations", lambda x: lax.while_loop(lambda c: c[0] > 100, lambda c: (c[0] + 1, c[1] * 2),
                                                       (np.int32(0), x)),
     U((3,)), expect=["stablehlo.while"])
case("scan_cumulative_carry_and_ys",
     lambda xs: lax.scan(lambda c, x: (c + x, c * x), jnp.zeros(3, jnp.float32), xs),
     U((5, 3)), expect=["stablehlo.while"])
case("scan_reverse", lambda xs: lax.scan(lambda c, x: (c * 0.5 + x, c), jnp.float32(0), xs, reverse=True),
     U((6,)), expect=["stablehlo.while"])
case("scan_multiple_xs_ys",
     lambda a, b: lax.scan(lambda c, xy: (c + xy[0].sum(), (xy[0] * c, xy[1] + 1)), jnp.float32(1), (a, b)),
     U((4, 3)), I((4, 2)), expect=["stablehlo.while"])
case("scan_unroll2", lambda xs: lax.scan(lambda c, x: (jnp.tanh(c + x), c), jnp.zeros(2, jnp.float32), xs,
                                          unroll=2)[0],
     U((5, 2)), expect=["stablehlo.while"])
case("cond_true_branch", lambda p, x: lax.cond(p, lambda x: x * 2.0, lambda x: -x, x),
     np.bool_(True), U((4,)), expect=["stablehlo.case"])
case("cond_false_branch", lambda p, x: lax.cond(p, lambda x: x * 2.0, lambda x: -x, x),
     np.bool_(False), U((4,)), expect=["stablehlo.case"])
case("cond_data_dependent_multi_out",
     lambda x, m: lax.cond(jnp.sum(x) > 0, lambda x, m: (x + 1, m @ m, jnp.int32(1)),
                           lambda x, m: (x - 1, m.T, jnp.int32(2)), x, m),
     U((5,)), U((3, 3)), expect=["stablehlo.case"])
case("switch_three_branches",
     lambda i, x: lax.switch(i, [lambda x: x + 1, lambda x: x * x, jnp.sin], x),
     SCALAR_I(1), U((4,)), expect=["stablehlo.case"])
case("switch_index_clamped",
     lambda i, x: lax.switch(i, [lambda x: x + 1, lambda x: x * x, jnp.sin], x),
     SCALAR_I(7), U((4,)), expect=["stablehlo.case"])
case("switch_negative_index_clamped",
     lambda i, x: lax.switch(i, [lambda x: x + 1, lambda x: x * x, jnp.sin], x),
     SCALAR_I(-3), U((4,)), expect=["stablehlo.case"])
case("nested_fori_loops",
     lambda x: lax.fori_loop(0, 3, lambda i, a: lax.fori_loop(
         0, 4, lambda j, b: b * 0.9 + (i * j).astype(jnp.float32), a), x),
     U((2, 2)), expect=["stablehlo.while"])
case("nested_while_scan",
     lambda xs: lax.fori_loop(0, 2, lambda k, c: lax.scan(lambda s, x: (s + x * s, None), c, xs)[0],
                              jnp.ones(3, jnp.float32) * 0.1),
     U((4, 3), -0.5, 0.5), expect=["stablehlo.while"])
case("loop_with_reduction_inside",
     lambda m: lax.fori_loop(0, 4, lambda i, c: (c[0] + jnp.max(c[1], axis=0), c[1] * 0.5 + jnp.sum(c[1])),
                             (jnp.zeros(3, jnp.float32), m)),
     U((2, 3)), expect=["stablehlo.while", "stablehlo.reduce"])
case("loop_dynamic_slice_read",
     lambda x: lax.fori_loop(0, x.shape[0], lambda i, acc: acc + x[i] * i.astype(jnp.float32),
                             jnp.zeros(x.shape[1], jnp.float32)),
     U((5, 3)), expect=["stablehlo.while", "stablehlo.dynamic_slice"])
case("loop_dynamic_update_slice_write",
     lambda x: lax.fori_loop(0, 4, lambda i, buf: lax.dynamic_update_index_in_dim(
         buf, buf[i - 1] * 2.0 + x, i, 0), jnp.ones((4, 3), jnp.float32)),
     U((3,)), expect=["stablehlo.while", "stablehlo.dynamic_update_slice"])
# `.at[i].set` with a traced scalar index is a scatter, not a dynamic_update_slice.
case("loop_scatter_set_traced_index",
     lambda x: lax.fori_loop(0, 4, lambda i, buf: buf.at[i].set(buf[i - 1] * 2.0 + x),
                             jnp.ones((4, 3), jnp.float32)),
     U((3,)), expect=["stablehlo.while", "stablehlo.scatter"])
case("cond_inside_loop",
     lambda x: lax.fori_loop(
         0, 6, lambda i, c: lax.cond(i % 2 == 0, lambda c: c + 1.0, lambda c: c * 0.5, c), x),
     U((3,)), expect=["stablehlo.while", "stablehlo.case"])
case("loop_inside_cond",
     lambda p, x: lax.cond(p > 0, lambda x: lax.fori_loop(0, 3, lambda i, c: c * 2.0, x), lambda x: x, x),
     SCALAR_I(1), U((3,)), expect=["stablehlo.while", "stablehlo.case"])
case("lax_map_rows", lambda x: lax.map(lambda r: jnp.sort(r)[::-1] * jnp.sum(r), x),
     U((4, 5)), expect=["stablehlo.while"])
case("while_int_and_float_state_bool_out",
     lambda x: lax.while_loop(lambda c: c[1] < 10.0, lambda c: (c[0] + 1, c[1] * 1.5 + 0.1),
                              (np.int32(0), x)),
     np.float32(0.3), expect=["stablehlo.while"])

# ======================================================================
# jax.random (threefry: 32/64-bit integer arithmetic, shifts, bitcasts)
# ======================================================================

_KEY = np.array([0, 42], np.uint32)


def _key(k):
    return jax.random.wrap_key_data(k)


case("random_uniform", lambda k: jax.random.uniform(_key(k), (3, 4)), _KEY,
     expect=["stablehlo.shift_right_logical", "ui32"])
case("random_normal_erf_inv", lambda k: jax.random.normal(_key(k), (3, 4)), _KEY,
     expect=["chlo.erf_inv", "ui32"])
case("random_dropout", lambda k, x: jnp.where(jax.random.bernoulli(_key(k), 0.7, x.shape), x / 0.7, 0.0),
     _KEY, U((4, 5)), expect=["stablehlo.select", "ui32"])
case("random_categorical", lambda k, logits: jax.random.categorical(_key(k), logits), _KEY,
     U((3, 6), -2.0, 2.0), expect=["stablehlo.reduce", "ui32"])
case("random_split_fold_in",
     lambda k: jax.random.uniform(jax.random.fold_in(jax.random.split(_key(k))[1], 7), (5,)), _KEY,
     expect=["ui32"])

# The rbg key: stablehlo.rng_bit_generator (XLA's Philox), its bits as XLA gives them.
_RBG_KEY = np.array([7, 0, 42, 3], np.uint32)


def _rbg(k):
    return jax.random.wrap_key_data(k, impl="rbg")


case("random_uniform_rbg", lambda k: jax.random.uniform(_rbg(k), (3, 5)), _RBG_KEY,
     expect=["stablehlo.rng_bit_generator"])
case("random_normal_rbg_f64", lambda k: jax.random.normal(_rbg(k), (4, 3), jnp.float64), _RBG_KEY,
     expect=["stablehlo.rng_bit_generator", "ui64"], x64=True)
case("random_bits_rbg_u8", lambda k: jax.random.bits(_rbg(k), (9,), jnp.uint8), _RBG_KEY,
     expect=["stablehlo.rng_bit_generator"])

# ======================================================================
# jnp functions built from gather / scatter / sort / while
# ======================================================================

case("jnp_unique_fixed_size", lambda x: jnp.unique(x, size=6, fill_value=-1), I((10,), 0, 7),
     expect=["stablehlo.sort", "stablehlo.scatter"])
case("jnp_nonzero_fixed_size", lambda x: jnp.nonzero(x > 0, size=5, fill_value=-1), U((3, 4)),
     expect=["stablehlo.scatter", "stablehlo.reduce_window"])
case("jnp_searchsorted", lambda a, v: jnp.searchsorted(jnp.sort(a), v), U((8,)), U((3, 4)),
     expect=["stablehlo.sort", "stablehlo.while"])
case("jnp_histogram", lambda x: jnp.histogram(x, bins=5, range=(-2.0, 2.0))[0], U((20,)),
     expect=["stablehlo.scatter"])
case("jnp_bincount", lambda x: jnp.bincount(x, length=6), I((15,), 0, 5),
     expect=["stablehlo.scatter"])
case("jnp_interp",
     lambda x: jnp.interp(x, jnp.array([-2.0, -0.5, 0.5, 2.0]), jnp.array([1.0, -1.0, 2.0, 0.0])),
     U((9,)), expect=["stablehlo.gather"])
case("jnp_diag", lambda x: jnp.diag(x), U((4, 4)), expect=["stablehlo.gather"])
case("jnp_roll_dynamic", lambda x, s: jnp.roll(x, s, axis=1), U((3, 5)), SCALAR_I(2),
     expect=["stablehlo.dynamic_slice"])
case("jnp_one_hot", lambda i: jax.nn.one_hot(i, 5), I((6,), 0, 4), expect=["stablehlo.compare"])
case("jnp_quantile", lambda x: jnp.quantile(x, jnp.array([0.1, 0.5, 0.9], jnp.float32), axis=1), U((3, 7)),
     expect=["stablehlo.sort"])

# ======================================================================
# linear algebra: triangular_solve, cholesky (lowered for "tpu": JAX's CPU
# lowering calls LAPACK through custom calls instead)
# ======================================================================


def TRI(shape, dtype=np.float32):
    """Square matrices in the last two dims, both triangles filled (only one is read),
    diagonally dominant: off-diagonal entries in [-1, 1), the diagonal in [n, n + 1) with a
    random sign, so every triangle is well conditioned."""
    n = shape[-1]

    def make(rng):
        a = rng.uniform(-1.0, 1.0, size=shape)
        d = rng.uniform(n, n + 1.0, size=shape[:-1]) * rng.choice([-1.0, 1.0], size=shape[:-1])
        idx = np.arange(n)
        a[..., idx, idx] = d
        return a.astype(dtype)
    return make


def SPD(shape, dtype=np.float32):
    """Symmetric positive definite matrices x x^T + n I (x uniform in [-1, 1))."""
    n = shape[-1]

    def make(rng):
        x = rng.uniform(-1.0, 1.0, size=shape)
        return (x @ np.swapaxes(x, -1, -2) + n * np.eye(n)).astype(dtype)
    return make


_TS = ["stablehlo.triangular_solve"]
_jsl = jax.scipy.linalg
_tsolve = lax.linalg.triangular_solve
case("solve_triangular_lower", lambda a, b: _jsl.solve_triangular(a, b, lower=True),
     TRI((5, 5)), U((5, 3)), platform="tpu", expect=_TS + ["lower = true", "NO_TRANSPOSE"])
case("solve_triangular_upper_vector", lambda a, b: _jsl.solve_triangular(a, b, lower=False),
     TRI((6, 6)), U((6,)), platform="tpu", expect=_TS + ["lower = false"])
case("solve_triangular_lower_trans", lambda a, b: _jsl.solve_triangular(a, b, trans=1, lower=True),
     TRI((5, 5)), U((5, 2)), platform="tpu", expect=_TS + ["transpose TRANSPOSE"])
case("solve_triangular_upper_trans2_unit",
     lambda a, b: _jsl.solve_triangular(a, b, trans=2, lower=False, unit_diagonal=True),
     TRI((4, 4)), U((4, 3)), platform="tpu", expect=_TS + ["unit_diagonal = true"])
case("triangular_solve_right_lower", lambda a, b: _tsolve(a, b, left_side=False, lower=True),
     TRI((4, 4)), U((3, 4)), platform="tpu", expect=_TS + ["left_side = false"])
case("triangular_solve_right_upper_transpose_unit",
     lambda a, b: _tsolve(a, b, left_side=False, lower=False, transpose_a=True, unit_diagonal=True),
     TRI((5, 5)), U((2, 5)), platform="tpu", expect=_TS + ["left_side = false", "transpose TRANSPOSE"])
case("solve_triangular_batched", lambda a, b: _jsl.solve_triangular(a, b, lower=True, trans=1),
     TRI((2, 3, 4, 4)), U((2, 3, 4, 2)), platform="tpu", expect=_TS + ["tensor<2x3x4x4xf32>"])
case("solve_triangular_f64", lambda a, b: _jsl.solve_triangular(a, b, lower=False),
     TRI((6, 6), np.float64), U((6, 4), dtype=np.float64), x64=True, platform="tpu",
     expect=_TS + ["f64"])
case("triangular_solve_right_batched_f64",
     lambda a, b: _tsolve(a, b, left_side=False, lower=True, transpose_a=True),
     TRI((3, 4, 4), np.float64), U((3, 2, 4), dtype=np.float64), x64=True, platform="tpu",
     expect=_TS + ["f64", "left_side = false"])
case("cholesky_f32", jnp.linalg.cholesky, SPD((5, 5)), platform="tpu",
     expect=["stablehlo.cholesky"])
case("cholesky_batched", jnp.linalg.cholesky, SPD((3, 4, 4)), platform="tpu",
     expect=["stablehlo.cholesky", "tensor<3x4x4xf32>"])
case("cholesky_f64", lambda a: lax.linalg.cholesky(a, symmetrize_input=False), SPD((6, 6), np.float64),
     x64=True, platform="tpu", expect=["stablehlo.cholesky", "f64"])
case("cho_solve_spd", lambda a, b: _jsl.cho_solve((jnp.linalg.cholesky(a), True), b),
     SPD((5, 5)), U((5, 3)), platform="tpu", expect=["stablehlo.cholesky"] + _TS)
case("cho_factor_solve_upper", lambda a, b: _jsl.cho_solve(_jsl.cho_factor(a, lower=False), b),
     SPD((4, 4)), U((4,)), platform="tpu", expect=["stablehlo.cholesky"] + _TS)

# The same as JAX's CPU lowering writes them: LAPACK custom calls (potrf with its info
# result, trsm with its flag characters), rewritten into the ops above.
_LAPACK = ["stablehlo.custom_call @lapack_"]
case("cholesky_lapack_f32", jnp.linalg.cholesky, SPD((5, 5)), expect=_LAPACK + ["spotrf"])
case("cholesky_lapack_batched_f64", jnp.linalg.cholesky, SPD((3, 4, 4), np.float64), x64=True,
     expect=_LAPACK + ["dpotrf"])
case("cholesky_lapack_not_positive_definite", jnp.linalg.cholesky,
     lambda rng: np.array([[4.0, 2.0, 0.0], [2.0, 1.0, 3.0], [0.0, 3.0, 5.0]], np.float32),
     expect=_LAPACK + ["spotrf"])
case("solve_triangular_lapack", lambda a, b: _jsl.solve_triangular(a, b, trans=1, lower=True),
     TRI((5, 5)), U((5, 3)), expect=_LAPACK + ["strsm"])
case("triangular_solve_lapack_right_unit",
     lambda a, b: _tsolve(a, b, left_side=False, lower=False, transpose_a=True, unit_diagonal=True),
     TRI((2, 4, 4)), U((2, 3, 4)), expect=_LAPACK + ["strsm"])
case("cho_solve_lapack_f64", lambda a, b: _jsl.cho_solve(_jsl.cho_factor(a), b),
     SPD((5, 5), np.float64), U((5, 2), dtype=np.float64), x64=True, expect=_LAPACK + ["dpotrf", "dtrsm"])
# LU with partial pivoting (getrf: lu, 1-based pivots, info), and what JAX builds on it
case("linalg_solve_lapack", jnp.linalg.solve, U((5, 5)), U((5, 2)), expect=_LAPACK + ["sgetrf"])
case("lu_factor_lapack", _jsl.lu_factor, U((6, 6)), expect=_LAPACK + ["sgetrf"])
case("lu_wide_lapack", _jsl.lu, U((4, 6)), expect=_LAPACK + ["sgetrf"])
case("lu_singular_lapack", _jsl.lu_factor,
     lambda rng: np.array([[1.0, 2.0, 3.0], [2.0, 4.0, 6.0], [1.0, 0.0, 1.0]], np.float32),
     expect=_LAPACK + ["sgetrf"])
case("linalg_det_f64_lapack", jnp.linalg.det, U((5, 5), dtype=np.float64), x64=True,
     expect=_LAPACK + ["dgetrf"])
case("linalg_inv_batched_lapack", jnp.linalg.inv, U((3, 4, 4)), expect=_LAPACK + ["sgetrf"])
# Householder QR (geqrf, orgqr: LAPACK's signs, so Q and R compare as they are), symmetric
# eigenvalues (syevd) and singular values (gesdd): the values only, and what is unique
# whatever the vectors' signs (pinv, lstsq)
case("qr_lapack_tall", jnp.linalg.qr, U((6, 4)), expect=_LAPACK + ["sgeqrf", "sorgqr"])
case("qr_lapack_complete_batched_f64", lambda a: jnp.linalg.qr(a, mode="complete"),
     U((2, 5, 3), dtype=np.float64), x64=True, expect=_LAPACK + ["dgeqrf", "dorgqr"])
case("qr_lapack_wide", jnp.linalg.qr, U((3, 5)), expect=_LAPACK + ["sgeqrf"])
case("eigvalsh_lapack", jnp.linalg.eigvalsh, SPD((5, 5)), expect=_LAPACK + ["ssyevd"])
case("eigh_lapack_reconstruct_f64", lambda a: (lambda w, v: (w, (v * w) @ v.T))(*jnp.linalg.eigh(a)),
     SPD((4, 4), np.float64), x64=True, expect=_LAPACK + ["dsyevd"])
case("svdvals_lapack_batched", lambda a: jnp.linalg.svd(a, compute_uv=False), U((2, 5, 3)),
     expect=_LAPACK + ["sgesdd"])
case("pinv_lapack_wide", jnp.linalg.pinv, U((3, 5)), expect=_LAPACK + ["sgesdd"])
case("lstsq_lapack", lambda a, b: jnp.linalg.lstsq(a, b)[0], U((6, 4)), U((6, 2)),
     expect=_LAPACK + ["sgesdd"])

# ======================================================================
# earlier op families, briefly
# ======================================================================

case("elementwise_float_mix",
     lambda x, y: jnp.exp(-x * x) + jnp.log1p(jnp.abs(y)) * jnp.tanh(x)
     - jnp.sqrt(jnp.abs(x * y)) / (1 + y * y)
     + lax.pow(jnp.abs(x) + 0.5, y) + jnp.floor(x * 3) + lax.rsqrt(y * y + 1),
     U((4, 5)), U((4, 5)), expect=["stablehlo.exponential", "stablehlo.power"])
case("elementwise_int_mix",
     lambda a, b: ((a * b) ^ (a >> 2)) + jnp.abs(a) % 7 - lax.div(a, jnp.where(b == 0, 1, b))
     + lax.population_count(b),
     I((4, 5), -1000, 1000), I((4, 5), -50, 50), expect=["stablehlo.xor", "stablehlo.popcnt"])
case("compare_select_mix", lambda x, y: jnp.where((x > y) & (x != 0), x, jnp.where(x < -1, y, x * y)),
     SMALLF((4, 5)), SMALLF((4, 5)), expect=["stablehlo.compare", "stablehlo.select"])
case("broadcast_shapes", lambda a, b, c: a[:, None, :] + b[None, :, None] * c,
     U((2, 4)), U((3,)), U(()), expect=["stablehlo.broadcast_in_dim"])
case("reshape_transpose_chain", lambda x: jnp.transpose(x.reshape(2, 3, 4), (2, 0, 1)).reshape(4, 6).T,
     U((6, 4)), expect=["stablehlo.reshape", "stablehlo.transpose"])
case("slice_strided_reverse", lambda x: jnp.flip(x[1:5:2, ::3], axis=0), U((6, 7)),
     expect=["stablehlo.slice", "stablehlo.reverse"])
case("concat_three", lambda a, b, c: jnp.concatenate([a, b, c], axis=1), U((2, 1)), U((2, 3)),
     I((2, 2)), expect=["stablehlo.concatenate"])
case("pad_interior_negative", lambda x: lax.pad(x, np.float32(-1.0), [(1, -1, 1), (-1, 2, 2)]),
     U((3, 4)), expect=["stablehlo.pad"])
case("iota_2d_arith",
     lambda x: x * lax.broadcasted_iota(jnp.float32, (3, 4), 1)
     + lax.broadcasted_iota(jnp.float32, (3, 4), 0),
     U(S), expect=["stablehlo.iota"])
case("reduce_multi_axis_max_sum", lambda x: (jnp.max(x, axis=(0, 2)), jnp.sum(x, axis=1)),
     U((2, 3, 4)), expect=["stablehlo.reduce"])
case("reduce_argmax_variadic", lambda x: jnp.argmax(x, axis=0), SMALLF((5, 4)),
     expect=["stablehlo.reduce"])
case("dot_general_batched_transposed", lambda a, b: jnp.einsum("bik,bjk->bij", a, b),
     U((2, 3, 4)), U((2, 5, 4)), expect=["stablehlo.dot_general", "batching_dims"])
case("clamp_convert_bitcast",
     lambda x: lax.bitcast_convert_type(lax.clamp(-1.0, x, 1.0), jnp.int32) + x.astype(jnp.int32),
     U((3, 4), -3.0, 3.0), expect=["stablehlo.clamp", "stablehlo.bitcast_convert"])
case("f64_elementwise", lambda x, y: jnp.sin(x) * y + jnp.exp(y) / (1.0 + x * x), U(S, dtype=np.float64),
     U(S, dtype=np.float64), x64=True, expect=["f64"])
case("i64_arith", lambda a, b: a * b + (a << 3) - b // 3, I(S, -10**6, 10**6, np.int64),
     I(S, -10**6, 10**6, np.int64), x64=True, expect=["i64"])

# ======================================================================
# composite models
# ======================================================================


def _layernorm(x, g, b, eps=1e-5):
    mu = jnp.mean(x, axis=-1, keepdims=True)
    var = jnp.mean((x - mu) ** 2, axis=-1, keepdims=True)
    return (x - mu) * lax.rsqrt(var + eps) * g + b


def _mlp(x, w1, b1, w2, b2):
    return jax.nn.relu(x @ w1 + b1) @ w2 + b2


def _attention(q, k, v, mask=None):
    s = q @ jnp.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1]).astype(np.float32)
    if mask is not None:
        s = jnp.where(mask, s, -1e9)
    return jax.nn.softmax(s, axis=-1) @ v


def _mha(x, wq, wk, wv, wo, heads, causal=True):
    t, d = x.shape
    hd = d // heads

    def split(y):
        return y.reshape(t, heads, hd).transpose(1, 0, 2)
    q, k, v = split(x @ wq), split(x @ wk), split(x @ wv)
    mask = jnp.tril(jnp.ones((t, t), bool)) if causal else None
    o = _attention(q, k, v, mask)
    return o.transpose(1, 0, 2).reshape(t, d) @ wo


def _transformer_block(x, g1, b1, wq, wk, wv, wo, g2, b2, w1, c1, w2, c2):
    h = x + _mha(_layernorm(x, g1, b1), wq, wk, wv, wo, heads=2)
    return h + _mlp(_layernorm(h, g2, b2), w1, c1, w2, c2)


def _cnn(x, k1, k2, wd, bd):
    h = jax.nn.relu(lax.conv_general_dilated(x, k1, (1, 1), "SAME",
                                             dimension_numbers=("NHWC", "HWIO", "NHWC")))
    h = lax.reduce_window(h, -jnp.inf, lax.max, (1, 2, 2, 1), (1, 2, 2, 1), "VALID")
    h = jax.nn.relu(lax.conv_general_dilated(h, k2, (1, 1), "VALID",
                                             dimension_numbers=("NHWC", "HWIO", "NHWC")))
    h = lax.reduce_window(h, -jnp.inf, lax.max, (1, 2, 2, 1), (1, 2, 2, 1), "VALID")
    return jax.nn.log_softmax(h.reshape(h.shape[0], -1) @ wd + bd)


def _rnn(xs, h0, wx, wh, b):
    def cell(h, x):
        h = jnp.tanh(x @ wx + h @ wh + b)
        return h, h
    return lax.scan(cell, h0, xs)


def _lstm(xs, w, b):
    hdim = w.shape[1] // 4

    def cell(c, x):
        h, cc = c
        z = jnp.concatenate([x, h]) @ w + b
        i, f, g, o = jnp.split(z, 4)
        cc = jax.nn.sigmoid(f) * cc + jax.nn.sigmoid(i) * jnp.tanh(g)
        h = jax.nn.sigmoid(o) * jnp.tanh(cc)
        return (h, cc), h
    return lax.scan(cell, (jnp.zeros(hdim, jnp.float32), jnp.zeros(hdim, jnp.float32)), xs)[1]


def _classifier_head(x, w, b):
    logits = x @ w + b
    probs = jax.nn.softmax(logits, axis=-1)
    top_p, top_i = lax.top_k(probs, 3)
    return jnp.argmax(logits, axis=-1), top_p, top_i


def _embed_mean_pool(ids, table, w):
    e = table[ids]                          # gather
    mask = (ids != 0)[..., None]
    pooled = jnp.sum(e * mask, axis=1) / jnp.maximum(jnp.sum(mask, axis=1), 1)
    return pooled @ w


def _cross_entropy(logits, labels):
    lp = jax.nn.log_softmax(logits, axis=-1)
    return -jnp.mean(jnp.take_along_axis(lp, labels[:, None], axis=1))


def _mlp_sgd_step(x, y, w1, b1, w2, b2):
    def loss(p):
        return jnp.mean((_mlp(x, *p) - y) ** 2)
    value, g = jax.value_and_grad(loss)(((w1, b1, w2, b2)))
    return (value,) + tuple(p - 0.1 * gp for p, gp in zip((w1, b1, w2, b2), g))


def _cnn_grad(x, k, wd):
    def loss(k, wd):
        h = jax.nn.relu(lax.conv_general_dilated(x, k, (1, 1), "SAME",
                                                 dimension_numbers=("NHWC", "HWIO", "NHWC")))
        h = lax.reduce_window(h, -jnp.inf, lax.max, (1, 2, 2, 1), (1, 2, 2, 1), "VALID")
        return jnp.sum(jnp.tanh(h.reshape(h.shape[0], -1) @ wd))
    return jax.grad(loss, argnums=(0, 1))(k, wd)


def _greedy_decode(emb, w, start):
    steps = 6

    def body(i, c):
        tok, out = c
        logits = jnp.tanh(emb[tok]) @ w
        nxt = jnp.argmax(logits).astype(jnp.int32)
        return nxt, lax.dynamic_update_index_in_dim(out, nxt, i, 0)
    return lax.fori_loop(0, steps, body, (start, jnp.zeros(steps, jnp.int32)))[1]


def _kmeans_step(x, c):
    d = jnp.sum((x[:, None, :] - c[None, :, :]) ** 2, axis=-1)
    a = jnp.argmin(d, axis=1)
    sums = jax.ops.segment_sum(x, a, num_segments=c.shape[0])
    counts = jax.ops.segment_sum(jnp.ones(x.shape[0], jnp.float32), a, num_segments=c.shape[0])
    return a, jnp.where(counts[:, None] > 0, sums / jnp.maximum(counts, 1)[:, None], c)


def _batchnorm_infer(x, mean, var, g, b):
    return (x - mean) / jnp.sqrt(var + 1e-5) * g + b


def _median(x):
    return jnp.median(x, axis=-1)


D = 8
case("model_mlp", _mlp, U((4, 6)), N((6, 16), 0.4), U((16,), -0.1, 0.1), N((16, 3), 0.3),
     U((3,), -0.1, 0.1), expect=["stablehlo.dot_general", "stablehlo.maximum"])
case("model_layernorm", _layernorm, U((4, 8)), U((8,), 0.5, 1.5), U((8,), -0.1, 0.1),
     expect=["stablehlo.rsqrt"])
case("model_softmax", lambda x: jax.nn.softmax(x, axis=-1), U((4, 7), -5.0, 5.0),
     expect=["stablehlo.exponential"])
case("model_attention_single_head", _attention, U((5, D)), U((6, D)), U((6, 4)),
     expect=["stablehlo.dot_general", "stablehlo.exponential"])
case("model_mha_causal_mask", lambda x, wq, wk, wv, wo: _mha(x, wq, wk, wv, wo, heads=2),
     U((5, D)), N((D, D), 0.3), N((D, D), 0.3), N((D, D), 0.3), N((D, D), 0.3),
     expect=["stablehlo.dot_general", "stablehlo.select"])
case("model_transformer_block", _transformer_block,
     U((5, D)), U((D,), 0.5, 1.5), U((D,), -0.1, 0.1),
     N((D, D), 0.3), N((D, D), 0.3), N((D, D), 0.3), N((D, D), 0.3),
     U((D,), 0.5, 1.5), U((D,), -0.1, 0.1),
     N((D, 16), 0.3), U((16,), -0.1, 0.1), N((16, D), 0.3), U((D,), -0.1, 0.1),
     expect=["stablehlo.dot_general", "stablehlo.rsqrt", "stablehlo.exponential"])
case("model_cnn_2d", _cnn, U((2, 8, 8, 1)), N((3, 3, 1, 4), 0.4), N((3, 3, 4, 4), 0.3),
     N((4, 5), 0.3), U((5,), -0.1, 0.1),
     expect=["stablehlo.convolution", "stablehlo.reduce_window", "stablehlo.dot_general"])
case("model_rnn_tanh_scan", _rnn, U((6, 3)), U((4,), -0.5, 0.5), N((3, 4), 0.5), N((4, 4), 0.4),
     U((4,), -0.1, 0.1), expect=["stablehlo.while", "stablehlo.tanh"])
case("model_lstm_scan", _lstm, U((5, 3)), N((7, 16), 0.4), U((16,), -0.1, 0.1),
     expect=["stablehlo.while", "stablehlo.tanh"])
case("model_classifier_argmax_topk", _classifier_head, U((3, 6)), N((6, 8), 0.5), U((8,), -0.1, 0.1),
     expect=["chlo.top_k", "stablehlo.reduce"])
case("model_median_sort", _median, U((3, 7)), expect=["stablehlo.sort"])
case("model_median_even", _median, U((2, 6)), expect=["stablehlo.sort"])
case("model_embedding_mean_pool", _embed_mean_pool, I((3, 5), 0, 9), U((10, 6)), N((6, 2), 0.5),
     expect=["stablehlo.gather"])
case("model_cross_entropy", _cross_entropy, U((4, 5), -3.0, 3.0), I((4,), 0, 4),
     expect=["stablehlo.gather"])
case("model_mlp_sgd_step", _mlp_sgd_step, U((4, 3)), U((4, 2)), N((3, 5), 0.5), U((5,), -0.1, 0.1),
     N((5, 2), 0.5), U((2,), -0.1, 0.1), expect=["stablehlo.dot_general", "stablehlo.transpose"])
case("model_cnn_grad", _cnn_grad, U((2, 4, 4, 1)), N((3, 3, 1, 2), 0.5), N((8, 3), 0.4),
     expect=["stablehlo.convolution", "stablehlo.select_and_scatter"])
case("model_greedy_decode", _greedy_decode, N((6, 4), 1.0), N((4, 6), 1.0), SCALAR_I(2),
     expect=["stablehlo.while", "stablehlo.dynamic_update_slice"])
case("model_kmeans_step", _kmeans_step, U((10, 2)), U((3, 2)),
     expect=["stablehlo.scatter", "stablehlo.reduce"])
case("model_batchnorm_inference", _batchnorm_infer, U((2, 4, 4, 3)), U((3,), -0.1, 0.1),
     U((3,), 0.5, 1.5), U((3,), 0.5, 1.5), U((3,), -0.1, 0.1), expect=["stablehlo.sqrt"])
case("model_gelu_mlp_bf16",
     lambda x, w1, w2: jax.nn.gelu(x @ w1, approximate=False) @ w2,
     U((2, 6), dtype=BF16), U((6, 8), -0.5, 0.5, BF16), U((8, 3), -0.5, 0.5, BF16),
     expect=["chlo.erfc", "bf16"])
case("model_depthwise_separable_block",
     lambda x, dw, pw: jax.nn.relu6(lax.conv_general_dilated(
         lax.conv_general_dilated(x, dw, (1, 1), "SAME", dimension_numbers=("NHWC", "HWIO", "NHWC"),
                                  feature_group_count=x.shape[-1]),
         pw, (1, 1), "VALID", dimension_numbers=("NHWC", "HWIO", "NHWC"))),
     U((1, 6, 6, 3)), N((3, 3, 1, 3), 0.4), N((1, 1, 3, 4), 0.5),
     expect=["stablehlo.convolution", "feature_group_count = 3"])
case("model_nms_like_sort_gather",
     lambda scores, boxes: boxes[jnp.argsort(-scores)[:3]],
     PERM((6,)), U((6, 4)), expect=["stablehlo.sort", "stablehlo.gather"])


# ======================================================================
# complex numbers (complex64, complex128)
# ======================================================================

def CX(shape, lo=-2.0, hi=2.0, dtype=np.complex64):
    """Complex numbers with real and imaginary parts uniform in [lo, hi)."""
    return lambda rng: (rng.uniform(lo, hi, size=shape)
                        + 1j * rng.uniform(lo, hi, size=shape)).astype(dtype)


# Zeros of both signs, infinities, NaNs and ordinary values in both parts: every pair.
_SPECIAL = np.array([0.0, -0.0, 1.5, -2.0, np.inf, -np.inf, np.nan], np.float32)
_CX_SPECIAL = np.zeros(len(_SPECIAL) ** 2, np.complex64)  # set by parts: 1j * inf has a NaN
_CX_SPECIAL.real, _CX_SPECIAL.imag = np.repeat(_SPECIAL, len(_SPECIAL)), np.tile(_SPECIAL, len(_SPECIAL))
C128 = np.complex128

# ======================================================================
# stablehlo.fft (jnp.fft): FFT, IFFT, RFFT, IRFFT over 1-3 dims, any length
# ======================================================================

_FFT = ["stablehlo.fft"]
case("fft_c64", jnp.fft.fft, CX((3, 8)), expect=_FFT + ["type = FFT"])
case("fft_odd_length_c64", jnp.fft.fft, CX((2, 15)), expect=_FFT)
case("ifft_c128", jnp.fft.ifft, CX((4, 12), dtype=C128), x64=True, expect=_FFT + ["type = IFFT"])
case("rfft_f32", jnp.fft.rfft, U((5, 16)), expect=_FFT + ["type = RFFT"])
case("irfft_f32", lambda x: jnp.fft.irfft(x, 10), CX((3, 6)), expect=_FFT + ["type = IRFFT"])
case("fft2_c64", jnp.fft.fft2, CX((2, 6, 8)), expect=_FFT + ["length = [6, 8]"])
case("rfftn_3d_f64", lambda x: jnp.fft.rfftn(x, axes=(1, 2, 3)), U((2, 3, 4, 6), dtype=np.float64),
     x64=True, expect=_FFT + ["length = [3, 4, 6]"])
case("irfft2_f32", lambda x: jnp.fft.irfft2(x, s=(4, 9)), CX((4, 5)), expect=_FFT + ["type = IRFFT"])
# lengths above 40 that are not powers of two: Bluestein's chirp-z on radix-2 transforms
case("fft_prime_length_c64", jnp.fft.fft, CX((2, 1009)), expect=_FFT)
case("rfft_long_f32", jnp.fft.rfft, U((3, 1000)), expect=_FFT + ["type = RFFT"])
case("ifft_prime_length_c128", jnp.fft.ifft, CX((1, 257), dtype=C128), x64=True,
     expect=_FFT + ["type = IFFT"])
case("fft_spectrum_model", lambda x: jnp.abs(jnp.fft.rfft(x * jnp.hanning(64), axis=-1)) ** 2,
     U((4, 64)), expect=_FFT)

case("complex_arith_c64", lambda x, y: (x + y, x - y, x * y, x / y, -x), CX((3, 4)), CX((3, 4)),
     expect=["stablehlo.divide", "complex<f32>"])
case("complex_arith_c128", lambda x, y: (x * y - x, x / y), CX((3, 4), dtype=C128),
     CX((3, 4), dtype=C128), x64=True, expect=["stablehlo.divide", "complex<f64>"])
case("complex_divide_special_c64", lambda x: (x / _CX_SPECIAL[::-1], _CX_SPECIAL / x),
     _CX_SPECIAL, expect=["stablehlo.divide"])
case("complex_parts_c64",
     lambda x: (jnp.abs(x), jnp.angle(x), jnp.conj(x), jnp.real(x), jnp.imag(x), jnp.sign(x)),
     CX((3, 5)), expect=["stablehlo.abs", "stablehlo.real", "stablehlo.imag", "stablehlo.complex",
                         "stablehlo.sign"])
case("complex_lax_complex", lambda a, b: lax.complex(a, b) * 2, U((2, 3)), U((2, 3)),
     expect=["stablehlo.complex"])
case("complex_exp_log_c64", lambda x: (jnp.exp(x), jnp.log(x), jnp.expm1(x), jnp.log1p(x)),
     CX((3, 4)), expect=["stablehlo.exponential ", "stablehlo.log ", "stablehlo.log_plus_one",
                         "stablehlo.exponential_minus_one"])
case("complex_sqrt_rsqrt_c64", lambda x: (jnp.sqrt(x), lax.rsqrt(x)), CX((3, 4)),
     expect=["stablehlo.sqrt", "stablehlo.rsqrt"])
case("complex_power_c64", lambda x, y: x ** y, CX((3, 4), 0.1, 2.0), CX((3, 4), -1.0, 1.0),
     expect=["stablehlo.power"])
case("complex_trig_c64", lambda x: (jnp.sin(x), jnp.cos(x), jnp.tan(x), jnp.tanh(x)), CX((3, 4)),
     expect=["stablehlo.sine", "stablehlo.cosine", "stablehlo.tan", "stablehlo.tanh"])
case("complex_elementwise_c128",
     lambda x: (jnp.exp(x), jnp.log(x), jnp.sqrt(x), jnp.tanh(x), jnp.abs(x), jnp.sin(x)),
     CX((2, 5), dtype=C128), x64=True, expect=["stablehlo.sqrt", "complex<f64>"])
case("complex_special_values_c64",
     lambda x: (jnp.abs(x), jnp.exp(x), jnp.log(x), jnp.sqrt(x), lax.rsqrt(x), jnp.tanh(x),
                jnp.sign(x), x * x, jnp.expm1(x), jnp.log1p(x)),
     _CX_SPECIAL, expect=["stablehlo.tanh"])
case("complex_special_trig_c64",
     lambda x: (jnp.sin(x), jnp.cos(x), jnp.tan(x), x ** jnp.complex64(0.5 + 1j), x / (1 - 2j)),
     _CX_SPECIAL, expect=["stablehlo.sine", "stablehlo.tan", "stablehlo.power"])
case("complex_special_values_c128",
     lambda x: (jnp.abs(x), jnp.exp(x), jnp.log(x), jnp.sqrt(x), jnp.tanh(x), jnp.log1p(x), x / x[::-1]),
     _CX_SPECIAL.astype(np.complex128), x64=True, expect=["stablehlo.log_plus_one", "complex<f64>"])
case("complex_chlo_c64", lambda x: (jnp.sinh(x), jnp.cosh(x), jnp.square(x), lax.logistic(x)),
     CX((3, 4)), expect=["chlo.sinh", "chlo.cosh", "chlo.square"])
case("complex_cumsum_scatter_c64",
     lambda x, i, v: (jnp.cumsum(x, axis=1), x.at[i].add(v), lax.reduce_window(
         x, jnp.complex64(1), lax.mul, (1, 2), (1, 1), "VALID")),
     CX((3, 5)), I((4,), 0, 2), CX((4, 5)),
     expect=["stablehlo.scatter", "stablehlo.reduce_window"])
case("complex_sort_c64", lambda x: (jnp.sort(x, axis=-1), jnp.argsort(x[0])),
     lambda rng: (rng.integers(-2, 3, (3, 6)) + 1j * rng.integers(-2, 3, (3, 6))).astype(np.complex64),
     expect=["stablehlo.sort"])
case("complex_while_c64",
     lambda z, c: lax.fori_loop(0, 5, lambda _, w: w * w * 0.5 + c, z), CX((2, 3), -0.5, 0.5),
     CX((2, 3), -0.5, 0.5), expect=["stablehlo.while"])
_INV = (jnp.arcsin, jnp.arccos, jnp.arctan, jnp.arcsinh, jnp.arccosh, jnp.arctanh)
case("complex_inverse_c64", lambda x: tuple(f(x) for f in _INV),
     lambda rng: np.concatenate([CX((24,))(rng), CX((6,), -1e-3, 1e-3)(rng), CX((6,), -1e6, 1e6)(rng),
                                 np.array([0.5, -2, 1j, 1 - 1e-4j, 3, -0.5j], np.complex64)]),
     expect=["chlo.asin", "chlo.acos", "chlo.atan ", "chlo.asinh", "chlo.acosh", "chlo.atanh"])
case("complex_inverse_c128", lambda x: tuple(f(x) for f in _INV), CX((3, 5), dtype=C128), x64=True,
     expect=["chlo.asin", "chlo.atanh", "complex<f64>"])
case("complex_inverse_special_c64", lambda x: tuple(f(x) for f in _INV), _CX_SPECIAL,
     expect=["chlo.asin", "chlo.acosh", "chlo.atanh"])
case("complex_conv_c64", lambda x, w: lax.conv_general_dilated(
    x, w, (1, 1), "SAME", dimension_numbers=("NHWC", "HWIO", "NHWC")),
     CX((1, 5, 5, 2)), CX((3, 3, 2, 3)), expect=["stablehlo.convolution"])
case("complex_conv1d_c128", lambda x, w: jnp.convolve(x, w, mode="full"), CX((9,), dtype=C128),
     CX((4,), dtype=C128), x64=True, expect=["stablehlo.convolution"])
case("complex_compare_select_c64",
     lambda x, y: (x == y, x != y, jnp.where(x == y, x, y * 2)),
     lambda rng: (rng.integers(-1, 2, (3, 4)) + 1j * rng.integers(-1, 2, (3, 4))).astype(np.complex64),
     lambda rng: (rng.integers(-1, 2, (3, 4)) + 1j * rng.integers(-1, 2, (3, 4))).astype(np.complex64),
     expect=["stablehlo.compare", "stablehlo.select"])
case("complex_convert",
     lambda x, i, z: (x.astype(jnp.complex64), i.astype(jnp.complex64),
                      lax.convert_element_type(z, jnp.float32), z.astype(jnp.complex128),
                      lax.convert_element_type(z.astype(jnp.complex128), jnp.int32)),
     U((2, 3)), I((2, 3)), CX((2, 3), -5.0, 5.0), x64=True, expect=["stablehlo.convert"])
case("complex_matmul_c64", lambda a, b: a @ b, CX((4, 5)), CX((5, 3)),
     expect=["stablehlo.dot_general"])
case("complex_matmul_batched_c128", lambda a, b: jnp.einsum("bij,bjk->bik", a, b),
     CX((2, 3, 4), dtype=C128), CX((2, 4, 3), dtype=C128), x64=True,
     expect=["stablehlo.dot_general", "complex<f64>"])
case("complex_matvec_conj_c64", lambda a, v: jnp.conj(a).T @ v, CX((5, 4)), CX((5,)),
     expect=["stablehlo.dot_general"])
case("complex_reduce_c64", lambda x: (jnp.sum(x, axis=1), jnp.prod(x, axis=0), jnp.sum(x)),
     CX((4, 6), -1.0, 1.0), expect=["stablehlo.reduce"])
case("complex_reduce_c128", lambda x: (jnp.sum(x, axis=0), jnp.mean(x)), CX((5, 3), dtype=C128),
     x64=True, expect=["stablehlo.reduce"])
case("complex_data_movement_c64",
     lambda x, i: (x.T, x.reshape(4, 3), jnp.concatenate([x, x * 1j], axis=0),
                   jnp.pad(x, ((1, 0), (0, 2))), x[1:, ::2], jnp.flip(x, axis=1),
                   jnp.broadcast_to(x[:, :1], (3, 4)), x[i], lax.dynamic_slice(x, (i[0], 1), (2, 2)),
                   lax.dynamic_update_slice(x, jnp.ones((1, 2), jnp.complex64), (1, i[1]))),
     CX((3, 4)), I((2,), 0, 2),
     expect=["stablehlo.transpose", "stablehlo.concatenate", "stablehlo.pad", "stablehlo.gather",
             "stablehlo.dynamic_slice", "stablehlo.dynamic_update_slice", "stablehlo.reverse"])
case("complex_model_dft", lambda x: jnp.abs(
    jnp.exp(-2j * jnp.pi * jnp.outer(jnp.arange(8), jnp.arange(8)) / 8).astype(jnp.complex64)
    @ x.astype(jnp.complex64)) ** 2, U((8,)), expect=["stablehlo.dot_general", "stablehlo.iota"])


# ------------------------------------------------------------------ export

MAX_CASE_BYTES = 100_000


def export_case(name):
    fn, specs, x64, expect, platform = CASES[name]
    args = eu.make_args(specs, np.random.default_rng(eu.seed(name)))
    # keep_unused: the module takes every stored argument
    text, outs = eu.lower(fn, args, x64, keep_unused=True, platform=platform)
    eu.check_text(name, text, expect)
    eu.check_input_sizes(name, args, 4096)
    for o in outs:
        assert not (np.issubdtype(o.dtype, np.floating) and np.isnan(np.asarray(o, np.float64)).all()), \
            f"{name}: output all NaN"
    size = eu.write_case(HERE, name, text, eu.pack(args, outs))
    assert size <= MAX_CASE_BYTES, f"{name}: {size} bytes"


if __name__ == "__main__":
    eu.main(sys.argv[1:], CASES, export_case, HERE, keep_going=True, prune=True)
