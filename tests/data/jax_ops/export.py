"""Export a corpus of small JAX programs, one per StableHLO op family.

JAX is NOT a dependency of this project; it is only the tool that produces
these test programs. Run with a separate environment:

    python3 -m venv /tmp/jaxenv
    /tmp/jaxenv/bin/pip install jax jaxlib numpy ml_dtypes
    /tmp/jaxenv/bin/python tests/data/jax_ops/export.py            # all cases
    /tmp/jaxenv/bin/python tests/data/jax_ops/export.py add_f32    # some cases
    /tmp/jaxenv/bin/python tests/data/jax_ops/export.py --list

For every case NAME this writes, next to this script:
  NAME.mlir  pretty StableHLO text, exactly `jax.jit(f).lower(*args).as_text()`
             (static shapes, entry `@main`, no elided constants)
  NAME.npz   inputs  arg0, arg1, ... (in argument order)
             outputs out0, out1, ... (flattened result pytree, in order)
             bfloat16 arrays are stored as their uint16 bit patterns under the
             key with a `__bf16` suffix (e.g. `arg0__bf16`), since npz has no
             bfloat16 type. All other dtypes are stored natively.

Inputs are tiny and seeded per case (seed derived from the case name), so
adding or removing a case does not change the data of the others.
"""

import os
import sys

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
import export_util as eu  # noqa: E402
from export_util import BF16, SMALLF, B, I, U  # noqa: E402  (input makers of the cases)

# name -> (fn, arg specs, x64, expected substrings)
CASES = {}


def case(name, fn, *args, x64=False, expect=()):
    """Register a case. Each arg is a numpy array or a callable(rng)->array."""
    assert name not in CASES, name
    CASES[name] = (fn, args, x64, tuple(expect))


# ---------------------------------------------------------------- input makers
# U (uniform floats), I (integers), B (booleans) and SMALLF (floats in {-2..2}) are
# export_util's.

def NZ(shape, lo=-10, hi=10, dtype=np.int32):
    """Uniform nonzero integers in [lo, hi]."""
    def make(rng):
        v = rng.integers(lo, hi, size=shape, endpoint=True)
        v[v == 0] = 1
        return v.astype(dtype)
    return make


S = (3, 4)  # default elementwise shape

# ------------------------------------------------------- elementwise binary

case("add_f32", lax.add, U(S), U(S), expect=["stablehlo.add"])
case("add_i32", lax.add, I(S), I(S), expect=["stablehlo.add"])
case("add_f16", lax.add, U(S, dtype=np.float16), U(S, dtype=np.float16),
     expect=["stablehlo.add", "f16"])
case("add_bf16", lax.add, U(S, dtype=BF16), U(S, dtype=BF16),
     expect=["stablehlo.add", "bf16"])
case("add_scalar_broadcast_f32", lambda x: x + 1.5, U(S),
     expect=["stablehlo.add", "broadcast_in_dim"])
case("subtract_f32", lax.sub, U(S), U(S), expect=["stablehlo.subtract"])
case("subtract_i32", lax.sub, I(S), I(S), expect=["stablehlo.subtract"])
case("multiply_f32", lax.mul, U(S), U(S), expect=["stablehlo.multiply"])
case("multiply_i32", lax.mul, I(S), I(S), expect=["stablehlo.multiply"])
case("multiply_bf16", lax.mul, U(S, dtype=BF16), U(S, dtype=BF16),
     expect=["stablehlo.multiply", "bf16"])
case("divide_f32", lax.div, U(S), U(S, 0.5, 3.0), expect=["stablehlo.divide"])
# lax.div on integers truncates toward zero (C semantics); negatives included.
case("divide_i32", lax.div, I(S, -20, 20), NZ(S, -6, 6),
     expect=["stablehlo.divide"])
# jnp.floor_divide on integers: Python floor semantics, built from divide,
# remainder, sign, compare and select.
case("floor_divide_jnp_i32", jnp.floor_divide, I(S, -20, 20), NZ(S, -6, 6),
     expect=["stablehlo.divide"])
# lax.rem: result has the sign of the dividend (C fmod semantics).
case("remainder_f32", lax.rem, U(S, -5.0, 5.0),
     lambda rng: (rng.uniform(0.5, 2.0, S) * rng.choice([-1, 1], S)).astype(np.float32),
     expect=["stablehlo.remainder"])
case("remainder_i32", lax.rem, I(S, -20, 20), NZ(S, -6, 6),
     expect=["stablehlo.remainder"])
# jnp.remainder / %: Python semantics (sign of divisor), remainder + fixup.
case("remainder_jnp_mod_i32", jnp.remainder, I(S, -20, 20), NZ(S, -6, 6),
     expect=["stablehlo.remainder"])
case("power_f32", lax.pow, U(S, 0.1, 3.0), U(S, -2.0, 2.0),
     expect=["stablehlo.power"])
# x ** 3 with a Python int exponent: lax.integer_pow -> multiply chain.
case("integer_pow_f32", lambda x: x ** 3, U(S), expect=["stablehlo.multiply"])
case("maximum_f32", lax.max, U(S), U(S), expect=["stablehlo.maximum"])
case("maximum_i32", lax.max, I(S), I(S), expect=["stablehlo.maximum"])
case("minimum_f32", lax.min, U(S), U(S), expect=["stablehlo.minimum"])
case("minimum_i32", lax.min, I(S), I(S), expect=["stablehlo.minimum"])
case("atan2_f32", lax.atan2, U(S), U(S), expect=["stablehlo.atan2"])
case("and_i32", lax.bitwise_and, I(S, -100, 100), I(S, -100, 100),
     expect=["stablehlo.and"])
case("or_i32", lax.bitwise_or, I(S, -100, 100), I(S, -100, 100),
     expect=["stablehlo.or"])
case("xor_i32", lax.bitwise_xor, I(S, -100, 100), I(S, -100, 100),
     expect=["stablehlo.xor"])
case("and_bool", lax.bitwise_and, B(S), B(S), expect=["stablehlo.and", "i1"])
case("or_bool", lax.bitwise_or, B(S), B(S), expect=["stablehlo.or", "i1"])
case("xor_bool", lax.bitwise_xor, B(S), B(S), expect=["stablehlo.xor", "i1"])
case("and_ui8", lax.bitwise_and, I(S, 0, 255, np.uint8), I(S, 0, 255, np.uint8),
     expect=["stablehlo.and", "ui8"])
case("shift_left_i32", lax.shift_left, I(S, -1000, 1000), I(S, 0, 31),
     expect=["stablehlo.shift_left"])
case("shift_right_arithmetic_i32", lax.shift_right_arithmetic,
     I(S, -100000, 100000), I(S, 0, 31),
     expect=["stablehlo.shift_right_arithmetic"])
case("shift_right_logical_i32", lax.shift_right_logical,
     I(S, -100000, 100000), I(S, 0, 31),
     expect=["stablehlo.shift_right_logical"])

# -------------------------------------------------------- elementwise unary

case("abs_f32", lax.abs, U(S), expect=["stablehlo.abs"])
case("abs_i32", lax.abs, I(S), expect=["stablehlo.abs"])
case("negate_f32", lax.neg, U(S), expect=["stablehlo.negate"])
case("negate_i32", lax.neg, I(S), expect=["stablehlo.negate"])
case("sign_f32", lax.sign,
     np.array([[-2.5, -0.0, 0.0, 3.0], [1e-30, -1e-30, 7.0, -7.0],
               [np.inf, -np.inf, 0.5, -0.5]], np.float32),
     expect=["stablehlo.sign"])
case("sign_i32", lax.sign, I(S, -3, 3), expect=["stablehlo.sign"])
case("exponential_f32", lax.exp, U(S, -3.0, 3.0), expect=["stablehlo.exponential "])
case("exponential_bf16", lax.exp, U(S, -3.0, 3.0, BF16),
     expect=["stablehlo.exponential ", "bf16"])
case("exponential_minus_one_f32", lax.expm1, U(S, -1e-3, 1e-3),
     expect=["stablehlo.exponential_minus_one"])
case("log_f32", lax.log, U(S, 0.01, 10.0), expect=["stablehlo.log "])
case("log_plus_one_f32", lax.log1p, U(S, -0.9, 1e-2),
     expect=["stablehlo.log_plus_one"])
# JAX has no HLO logistic lowering: jax.nn.sigmoid / lax.logistic lower to
# 1 / (1 + exp(-x)), so this case does not contain `stablehlo.logistic`.
case("logistic_f32", jax.nn.sigmoid, U(S, -6.0, 6.0),
     expect=["stablehlo.exponential", "stablehlo.divide"])
case("tanh_f32", lax.tanh, U(S, -3.0, 3.0), expect=["stablehlo.tanh"])
case("tanh_f16", lax.tanh, U(S, -3.0, 3.0, np.float16),
     expect=["stablehlo.tanh", "f16"])
case("sqrt_f32", lax.sqrt, U(S, 0.0, 10.0), expect=["stablehlo.sqrt"])
case("rsqrt_f32", lax.rsqrt, U(S, 0.1, 10.0), expect=["stablehlo.rsqrt"])
case("cbrt_f32", lax.cbrt, U(S, -10.0, 10.0), expect=["stablehlo.cbrt"])
case("sine_f32", lax.sin, U(S, -4.0, 4.0), expect=["stablehlo.sine"])
case("cosine_f32", lax.cos, U(S, -4.0, 4.0), expect=["stablehlo.cosine"])
case("tan_f32", lax.tan, U(S, -1.2, 1.2), expect=["stablehlo.tan "])
case("floor_f32", lax.floor, U(S, -5.0, 5.0), expect=["stablehlo.floor"])
case("ceil_f32", lax.ceil, U(S, -5.0, 5.0), expect=["stablehlo.ceil"])
_HALVES = np.array([[-2.5, -1.5, -0.5, 0.5], [1.5, 2.5, 3.5, -3.5],
                    [0.4, -0.6, 1.2, -7.7]], np.float32)
case("round_nearest_afz_f32",
     lambda x: lax.round(x, lax.RoundingMethod.AWAY_FROM_ZERO), _HALVES,
     expect=["stablehlo.round_nearest_afz"])
case("round_nearest_even_f32", jnp.round, _HALVES,
     expect=["stablehlo.round_nearest_even"])
case("is_finite_f32", jnp.isfinite,
     np.array([[1.0, np.inf, -np.inf, np.nan], [0.0, -0.0, 3e38, -1e-45],
               [np.nan, 2.0, -2.0, np.inf]], np.float32),
     expect=["stablehlo.is_finite"])
case("not_bool", lax.bitwise_not, B(S), expect=["stablehlo.not"])
case("not_i32", lax.bitwise_not, I(S, -100, 100), expect=["stablehlo.not"])
case("popcnt_i32", lax.population_count, I(S, -100000, 100000),
     expect=["stablehlo.popcnt"])
case("popcnt_ui8", lax.population_count, I(S, 0, 255, np.uint8),
     expect=["stablehlo.popcnt", "ui8"])
case("count_leading_zeros_i32", lax.clz,
     np.array([[0, 1, 2, 3], [-1, 255, 256, 2**30], [-2**31, 2**31 - 1, 7, 1000]],
              np.int32),
     expect=["stablehlo.count_leading_zeros"])

# ----------------------------------------------------------------- compare

_DIRS = {"eq": lax.eq, "ne": lax.ne, "lt": lax.lt,
         "le": lax.le, "gt": lax.gt, "ge": lax.ge}
for _d, _f in _DIRS.items():
    case(f"compare_f32_{_d}", _f, SMALLF(S), SMALLF(S),
         expect=[f"stablehlo.compare  {_d.upper()}", "FLOAT"])
    case(f"compare_i32_{_d}", _f, I(S, -2, 2), I(S, -2, 2),
         expect=[f"stablehlo.compare  {_d.upper()}", "SIGNED"])
    # Values straddle 2**31 so signed and unsigned orderings differ.
    case(f"compare_ui32_{_d}", _f,
         lambda rng: rng.choice(np.array([0, 1, 2**31 - 1, 2**31, 2**32 - 1],
                                         np.uint32), S),
         lambda rng: rng.choice(np.array([0, 1, 2**31 - 1, 2**31, 2**32 - 1],
                                         np.uint32), S),
         expect=[f"stablehlo.compare  {_d.upper()}", "UNSIGNED"])
case("compare_bool_eq", lax.eq, B(S), B(S), expect=["stablehlo.compare"])

# -------------------------------------------------- select / clamp / convert

case("select_f32", jnp.where, B(S), U(S), U(S), expect=["stablehlo.select"])
case("select_i32", jnp.where, B(S), I(S), I(S), expect=["stablehlo.select"])
# Typical user code: mask with a comparison and a scalar.
case("select_where_scalar_f32", lambda x: jnp.where(x > 0, x, 0.0), U(S),
     expect=["stablehlo.select", "stablehlo.compare"])
case("clamp_scalar_f32", lambda x: lax.clamp(-0.5, x, 0.5), U(S),
     expect=["stablehlo.clamp"])
case("clamp_array_f32", lax.clamp, U(S, -2.0, -0.5), U(S), U(S, 0.5, 2.0),
     expect=["stablehlo.clamp"])
case("clamp_scalar_operands_f32", lax.clamp, np.float32(-0.5), U(S),
     np.float32(0.5), expect=["stablehlo.clamp"])
case("clamp_i32", lambda x: lax.clamp(np.int32(-3), x, np.int32(4)), I(S),
     expect=["stablehlo.clamp"])
case("clip_jnp_f32", lambda x: jnp.clip(x, -1.0, 1.0), U(S),
     expect=["stablehlo.maximum", "stablehlo.minimum"])
case("convert_f32_to_i32", lambda x: x.astype(jnp.int32), U(S, -100.0, 100.0),
     expect=["stablehlo.convert"])
case("convert_i32_to_f32", lambda x: x.astype(jnp.float32), I(S, -1000, 1000),
     expect=["stablehlo.convert"])
case("convert_f32_to_f16", lambda x: x.astype(jnp.float16), U(S, -100.0, 100.0),
     expect=["stablehlo.convert", "f16"])
case("convert_f32_to_bf16", lambda x: x.astype(jnp.bfloat16), U(S, -100.0, 100.0),
     expect=["stablehlo.convert", "bf16"])
case("convert_f16_to_f32", lambda x: x.astype(jnp.float32),
     U(S, -100.0, 100.0, np.float16), expect=["stablehlo.convert", "f16"])
case("convert_bf16_to_f32", lambda x: x.astype(jnp.float32),
     U(S, -100.0, 100.0, BF16), expect=["stablehlo.convert", "bf16"])
case("convert_bool_to_f32", lambda x: x.astype(jnp.float32), B(S),
     expect=["stablehlo.convert"])
case("convert_ui8_to_i32", lambda x: x.astype(jnp.int32), I(S, 0, 255, np.uint8),
     expect=["stablehlo.convert", "ui8"])
case("convert_i32_to_ui8", lambda x: x.astype(jnp.uint8), I(S, 0, 255),
     expect=["stablehlo.convert", "ui8"])
case("convert_f64_to_f32", lambda x: x.astype(jnp.float32),
     U(S, -100.0, 100.0, np.float64), x64=True,
     expect=["stablehlo.convert", "f64"])
case("bitcast_convert_f32_to_i32",
     lambda x: lax.bitcast_convert_type(x, jnp.int32), U(S),
     expect=["stablehlo.bitcast_convert"])
case("bitcast_convert_i32_to_f32",
     lambda x: lax.bitcast_convert_type(x, jnp.float32),
     I(S, 0x3F000000, 0x40800000), expect=["stablehlo.bitcast_convert"])

# -------------------------------------------------------------- shape ops

case("broadcast_scalar_to_matrix", lambda s: jnp.broadcast_to(s, (3, 4)),
     U(()), expect=["stablehlo.broadcast_in_dim"])
case("broadcast_vector_along_rows",
     lambda v: lax.broadcast_in_dim(v, (3, 4), (1,)), U((4,)),
     expect=["stablehlo.broadcast_in_dim"])
case("broadcast_vector_along_cols",
     lambda v: lax.broadcast_in_dim(v, (3, 4), (0,)), U((3,)),
     expect=["stablehlo.broadcast_in_dim"])
case("broadcast_expand_size1_dims",
     lambda v: jnp.broadcast_to(v, (2, 3, 4)), U((3, 1)),
     expect=["stablehlo.broadcast_in_dim"])
case("reshape_2d_to_3d", lambda x: x.reshape(2, 3, 2), U(S),
     expect=["stablehlo.reshape"])
case("reshape_flatten", lambda x: x.reshape(-1), U((2, 3, 2)),
     expect=["stablehlo.reshape"])
case("reshape_to_scalar", lambda x: x.reshape(()), U((1, 1)),
     expect=["stablehlo.reshape"])
case("transpose_2d", lambda x: x.T, U(S), expect=["stablehlo.transpose"])
case("transpose_3d_201", lambda x: jnp.transpose(x, (2, 0, 1)), U((2, 3, 4)),
     expect=["stablehlo.transpose"])
case("transpose_3d_102", lambda x: jnp.transpose(x, (1, 0, 2)), U((2, 3, 4)),
     expect=["stablehlo.transpose"])
case("reverse_axis0", lambda x: lax.rev(x, (0,)), U(S),
     expect=["stablehlo.reverse"])
case("reverse_axes01", lambda x: lax.rev(x, (0, 1)), U(S),
     expect=["stablehlo.reverse"])
case("reverse_jnp_flip_3d", lambda x: jnp.flip(x, axis=2), U((2, 3, 4)),
     expect=["stablehlo.reverse"])
case("slice_basic", lambda x: lax.slice(x, (1, 1), (3, 4)), U((4, 5)),
     expect=["stablehlo.slice"])
case("slice_strided", lambda x: lax.slice(x, (0, 1), (5, 6), (2, 3)), U((5, 7)),
     expect=["stablehlo.slice"])
case("slice_jnp_indexing", lambda x: x[1:, ::2, 2], U((3, 5, 4)),
     expect=["stablehlo.slice"])
case("concatenate_axis0",
     lambda a, b, c: jnp.concatenate([a, b, c], axis=0),
     U((2, 3)), U((1, 3)), U((3, 3)), expect=["stablehlo.concatenate"])
case("concatenate_axis1",
     lambda a, b, c: jnp.concatenate([a, b, c], axis=1),
     U((2, 1)), U((2, 3)), U((2, 2)), expect=["stablehlo.concatenate"])
case("pad_low_high_interior",
     lambda x: lax.pad(x, np.float32(-1.0), [(1, 2, 1), (0, 1, 2)]), U((2, 3)),
     expect=["stablehlo.pad"])
case("pad_negative",
     lambda x: lax.pad(x, np.float32(9.0), [(-1, 2, 0), (1, -2, 1)]), U((3, 4)),
     expect=["stablehlo.pad"])
case("pad_jnp_constant", lambda x: jnp.pad(x, ((1, 1), (2, 0))), I((2, 3)),
     expect=["stablehlo.pad"])
case("iota_1d_noarg", lambda: lax.iota(jnp.int32, 6), expect=["stablehlo.iota"])
case("iota_2d_dim0_i32",
     lambda x: lax.broadcasted_iota(jnp.int32, (3, 4), 0) + x, I(S),
     expect=["stablehlo.iota"])
case("iota_2d_dim1_f32",
     lambda x: lax.broadcasted_iota(jnp.float32, (3, 4), 1) * x, U(S),
     expect=["stablehlo.iota"])
case("iota_arange_f32", lambda x: jnp.arange(4, dtype=jnp.float32) + x, U(S),
     expect=["stablehlo.iota"])

# ----------------------------------------------------------------- reduce

case("reduce_sum_axis0_f32", lambda x: jnp.sum(x, axis=0), U(S),
     expect=["stablehlo.reduce"])
case("reduce_sum_axis1_f32", lambda x: jnp.sum(x, axis=1), U(S),
     expect=["stablehlo.reduce"])
case("reduce_sum_all_f32", jnp.sum, U(S), expect=["stablehlo.reduce"])
case("reduce_sum_3d_axes02_f32", lambda x: jnp.sum(x, axis=(0, 2)), U((2, 3, 4)),
     expect=["stablehlo.reduce"])
case("reduce_sum_keepdims_f32", lambda x: jnp.sum(x, axis=1, keepdims=True), U(S),
     expect=["stablehlo.reduce"])
case("reduce_sum_i32", lambda x: jnp.sum(x, axis=1), I(S),
     expect=["stablehlo.reduce"])
case("reduce_max_f32", lambda x: jnp.max(x, axis=1), U(S),
     expect=["applies stablehlo.maximum"])
case("reduce_max_i32", lambda x: jnp.max(x, axis=0), I(S),
     expect=["applies stablehlo.maximum"])
case("reduce_min_f32", lambda x: jnp.min(x, axis=0), U(S),
     expect=["applies stablehlo.minimum"])
case("reduce_prod_f32", lambda x: jnp.prod(x, axis=1), U(S, 0.5, 1.5),
     expect=["applies stablehlo.multiply"])
case("reduce_mean_f32", lambda x: jnp.mean(x, axis=-1), U(S),
     expect=["stablehlo.reduce", "stablehlo.divide"])
case("reduce_any_bool", lambda x: jnp.any(x, axis=1), B(S),
     expect=["applies stablehlo.or"])
case("reduce_all_bool", lambda x: jnp.all(x, axis=0), B(S),
     expect=["applies stablehlo.and"])
case("reduce_argmax_f32", lambda x: jnp.argmax(x, axis=1), U((3, 5)),
     expect=["stablehlo.reduce", "reducer"])
case("reduce_argmin_f32", lambda x: jnp.argmin(x, axis=0), U((3, 5)),
     expect=["stablehlo.reduce", "reducer"])

# ------------------------------------------------------------ dot_general

case("dot_vector_vector", jnp.dot, U((5,)), U((5,)), expect=["stablehlo.dot_general"])
case("dot_matrix_vector", jnp.matmul, U((3, 5)), U((5,)),
     expect=["stablehlo.dot_general"])
case("dot_matrix_matrix", jnp.matmul, U((3, 5)), U((5, 4)),
     expect=["stablehlo.dot_general"])
case("dot_batched", lambda a, b: jnp.einsum("bij,bjk->bik", a, b),
     U((2, 3, 5)), U((2, 5, 4)), expect=["batching_dims"])
case("dot_batched_matmul_operator", lambda a, b: a @ b,
     U((2, 3, 5)), U((2, 5, 4)), expect=["batching_dims"])
case("dot_contract_leading", lambda a, b: jnp.einsum("ji,jk->ik", a, b),
     U((5, 3)), U((5, 4)), expect=["contracting_dims = [0] x [0]"])
case("dot_batch_not_leading", lambda a, b: jnp.einsum("ibj,jbk->bik", a, b),
     U((3, 2, 5)), U((5, 2, 4)), expect=["batching_dims = [1] x [1]"])
case("dot_two_contracting_dims", lambda a, b: jnp.einsum("ijk,jkl->il", a, b),
     U((2, 3, 4)), U((3, 4, 5)), expect=["stablehlo.dot_general"])
case("dot_i32", jnp.matmul, I((3, 5)), I((5, 4)), expect=["stablehlo.dot_general"])
case("dot_bf16", jnp.matmul, U((3, 5), dtype=BF16), U((5, 4), dtype=BF16),
     expect=["stablehlo.dot_general", "bf16"])
case("dot_preferred_f32_from_bf16",
     lambda a, b: lax.dot(a, b, preferred_element_type=jnp.float32),
     U((3, 5), dtype=BF16), U((5, 4), dtype=BF16),
     expect=["stablehlo.dot_general"])


# ------------------------------------------------------------- func.call

@jax.jit
def _inner_scale(x):
    return x * 2.0 + 1.0


@jax.jit
def _inner_outer(x, y):
    return _inner_scale(x) * y


case("call_nested_jit", lambda x: _inner_scale(x) - _inner_scale(x * x), U(S),
     expect=["call @"])
case("call_nested_two_levels", lambda x, y: _inner_outer(x, y) + 1.0, U(S), U(S),
     expect=["call @"])


# ------------------------------------------------------------- constants
# Arrays closed over by the traced function become `stablehlo.constant`s.
# MLIR prints small ones as (nested) lists and large ones (> ~100 elements) as
# little-endian hex blobs `dense<"0x...">`; i1 hex uses one byte per element.

_crng = np.random.default_rng(1234)
_C_F32_SMALL = _crng.uniform(-2, 2, (3, 4)).astype(np.float32)
_C_F32_BIG = _crng.uniform(-2, 2, (12, 12)).astype(np.float32)
_C_I32_BIG = _crng.integers(-1000, 1000, (12, 12)).astype(np.int32)
_C_I32_SMALL = _crng.integers(-1000, 1000, (3, 4)).astype(np.int32)
_C_BOOL_SMALL = _crng.integers(0, 2, (3, 4)).astype(np.bool_)
_C_BOOL_BIG = _crng.integers(0, 2, (12, 12)).astype(np.bool_)
_C_F16_BIG = _crng.uniform(-2, 2, (12, 12)).astype(np.float16)
_C_BF16_BIG = _crng.uniform(-2, 2, (12, 12)).astype(BF16)
_C_UI8_BIG = _crng.integers(0, 256, (12, 12)).astype(np.uint8)
_C_SPECIAL = np.array([[np.inf, -np.inf, np.nan, -0.0],
                       [1e-45, 3.4028235e38, 1e-3, 0.1],
                       [1.0, -1.0, 1e10, -2.5]], np.float32)

case("constant_f32_list", lambda x: x + _C_F32_SMALL, U(S),
     expect=["stablehlo.constant dense<[["])
case("constant_f32_hex", lambda x: x @ _C_F32_BIG, U((2, 12)),
     expect=['stablehlo.constant dense<"0x'])
case("constant_i32_list", lambda x: x * _C_I32_SMALL, I(S),
     expect=["stablehlo.constant dense<[["])
case("constant_i32_hex", lambda x: x + _C_I32_BIG, I((12, 12)),
     expect=['stablehlo.constant dense<"0x'])
case("constant_bool_list", lambda x: jnp.where(_C_BOOL_SMALL, x, -x), U(S),
     expect=["stablehlo.constant dense<[["])
case("constant_bool_hex", lambda x: jnp.where(_C_BOOL_BIG, x, -x), U((12, 12)),
     expect=['stablehlo.constant dense<"0x'])
case("constant_f16_hex", lambda x: x + _C_F16_BIG, U((12, 12), dtype=np.float16),
     expect=['stablehlo.constant dense<"0x'])
case("constant_bf16_hex", lambda x: x + _C_BF16_BIG, U((12, 12), dtype=BF16),
     expect=['stablehlo.constant dense<"0x'])
case("constant_ui8_hex", lambda x: x ^ _C_UI8_BIG, I((12, 12), 0, 255, np.uint8),
     expect=['stablehlo.constant dense<"0x'])
case("constant_special_f32", lambda x: x * 1.0 + _C_SPECIAL, U(S),
     expect=["stablehlo.constant"])

# ------------------------------------------------------------ composites

def _layernorm(x, g, b, eps=1e-5):
    mu = jnp.mean(x, axis=-1, keepdims=True)
    var = jnp.mean((x - mu) ** 2, axis=-1, keepdims=True)
    return (x - mu) * lax.rsqrt(var + eps) * g + b


case("softmax", lambda x: jax.nn.softmax(x, axis=-1), U((4, 6), -3.0, 3.0))
case("layernorm", _layernorm, U((4, 8)), U((8,), 0.5, 1.5), U((8,), -0.1, 0.1))
case("mlp_relu_layer", lambda x, w, b: jax.nn.relu(x @ w + b),
     U((4, 6)), U((6, 5), -0.5, 0.5), U((5,), -0.1, 0.1))
case("gelu_tanh", lambda x: jax.nn.gelu(x, approximate=True), U((3, 5), -4.0, 4.0))
case("logsumexp", lambda x: jax.nn.logsumexp(x, axis=-1), U((4, 6), -3.0, 3.0))
case("multi_output_tuple",
     lambda x, y: (x + y, jnp.sum(x * y), jnp.argmax(y, axis=0)), U(S), U(S))
case("scalar_args_f32", lambda a, b: a * b + jnp.sin(a), U(()), U(()))


# ------------------------------------------------------------------ export

def export_case(name):
    fn, specs, x64, expect = CASES[name]
    args = eu.make_args(specs, np.random.default_rng(eu.seed(name)))
    text, outs = eu.lower(fn, args, x64)
    eu.check_text(name, text, expect)
    eu.check_input_sizes(name, args, 512)
    eu.write_case(HERE, name, text, eu.pack(args, outs))


if __name__ == "__main__":
    eu.main(sys.argv[1:], CASES, export_case, HERE)
