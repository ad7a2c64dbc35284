"""Export a corpus of small JAX programs with symbolic (dynamic) dimensions.

Companion of tests/data/jax_ops (static shapes). JAX is NOT a dependency of this
project; it is only the tool that produces these test programs. Run with a
separate environment:

    python3 -m venv /tmp/jaxenv
    /tmp/jaxenv/bin/pip install jax jaxlib numpy ml_dtypes
    /tmp/jaxenv/bin/python tests/data/jax_dynamic/export.py                 # all
    /tmp/jaxenv/bin/python tests/data/jax_dynamic/export.py softmax_b16     # some
    /tmp/jaxenv/bin/python tests/data/jax_dynamic/export.py --list

For every case NAME this writes, next to this script:
  NAME.mlir  the text of `jax.export.export(jax.jit(f))(*specs).mlir_module()`
             with `jax_include_debug_info_in_dumps=False` (so no `loc(...)`),
             where specs have symbolic dims (`jax.export.symbolic_shape`).
             Nothing is stripped or rewritten. Entry `@main` is public and
             takes exactly the user's arrays; see README.md.
  NAME.npz   for each concrete size set k = 0, 1, 2:
               s{k}_arg0, s{k}_arg1, ...  inputs in @main argument order
               s{k}_out0, s{k}_out1, ...  outputs of `exported.call(*args)`
             bfloat16 arrays are stored as uint16 bit patterns under the key
             with a `__bf16` suffix (as in tests/data/jax_ops).
             Cases that are expected to fail the module's shape assertions
             also have bad{k}_arg{i} input sets (no outputs).

Inputs are seeded per (case, size set), so adding or removing a case does not
change the data of the others.
"""

import functools
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
from export_util import Arg  # noqa: E402

# Print modules without debug locations (this is what mlir_module() consults).
jax.config.update("jax_include_debug_info_in_dumps", False)

# Default concrete sizes for the dimension variables, one dict per size set.
# b (batch) from {1, 3, 8}, n (length) from {5, 16, 33}.
SIZES = ({"b": 1, "n": 5}, {"b": 3, "n": 16}, {"b": 8, "n": 33})

# name -> dict(fn, args, sizes, bad, expect)
CASES = {}


def U(spec, lo=-2.0, hi=2.0, dtype=np.float32):
    """Uniform floats in [lo, hi)."""
    return Arg(spec, lambda rng, s, dims: rng.uniform(lo, hi, size=s).astype(dtype), dtype)


def I(spec, lo=-10, hi=10, dtype=np.int32):  # noqa: E743  (U, I, B: the makers' short names)
    """Uniform integers in [lo, hi] (inclusive)."""
    return Arg(spec, lambda rng, s, dims: rng.integers(lo, hi, size=s, endpoint=True)
               .astype(dtype), dtype)


def case(name, fn, *args, sizes=SIZES, bad=(), expect=(), platform=None):
    """Register a case.

    sizes: size sets (dicts of dim var -> int) that must run; one set per k.
    bad:   per-argument dim dicts (a tuple with one dict per arg) that
           violate the module's shape constraints; `exported.call` must raise.
    expect: substrings the module text must contain.
    platform: export for that backend instead of the CPU ("tpu" for the linear
           algebra ops JAX's CPU lowering turns into LAPACK custom calls); the
           outputs are then jax.jit's on the CPU, and `bad` cannot be checked.
    """
    assert name not in CASES, name
    assert not (platform and bad), name
    CASES[name] = dict(fn=fn, args=args, sizes=sizes, bad=bad,
                       expect=tuple(expect), platform=platform)


# ------------------------------------------------------------ elementwise

case("elementwise_chain_b16", lambda x: jnp.tanh(x * 2.0 + 1.0) * x, U("b, 16"),
     expect=["stablehlo.dynamic_broadcast_in_dim", "stablehlo.tanh"])
case("elementwise_two_dyn_dims", lambda x, y: (x - y) * x + jnp.exp(-y * y),
     U("b, n"), U("b, n"),
     expect=["tensor<?x?xf32>", "stablehlo.exponential"])
case("bias_broadcast_b16", lambda x, bias: x + bias, U("b, 16"), U("16"),
     expect=["stablehlo.dynamic_broadcast_in_dim"])
case("where_leaky_bn", lambda x: jnp.where(x > 0, x, 0.1 * x), U("b, n"),
     expect=["stablehlo.select", "stablehlo.compare"])
# Integer arithmetic on a dynamic vector; `//` is a call to @floor_divide, and
# jnp.sum gives an i32 reduce whose scalar is broadcast back dynamically.
case("int32_arith_b",
     lambda x: jnp.maximum(x * 3 + 7, -x) // 2 + jnp.sum(x),
     I("b", -50, 50), expect=["tensor<?xi32>", "stablehlo.reduce"])

# --------------------------------------------------------- softmax / norm

case("softmax_b16", lambda x: jax.nn.softmax(x, axis=-1), U("b, 16", -3.0, 3.0),
     expect=["stablehlo.reduce", "stablehlo.exponential"])
case("softmax_bn", lambda x: jax.nn.softmax(x, axis=-1), U("b, n", -3.0, 3.0),
     expect=["stablehlo.reduce", "stablehlo.exponential", "tensor<?x?xf32>"])

_crng = np.random.default_rng(20240611)
_LN_GAMMA = _crng.uniform(0.5, 1.5, (32,)).astype(np.float32)
_LN_BETA = _crng.uniform(-0.1, 0.1, (32,)).astype(np.float32)


def _layernorm(x, eps=1e-5):
    mu = jnp.mean(x, axis=-1, keepdims=True)
    var = jnp.mean((x - mu) ** 2, axis=-1, keepdims=True)
    return (x - mu) * lax.rsqrt(var + eps) * _LN_GAMMA + _LN_BETA


case("layernorm_b32", _layernorm, U("b, 32"),
     expect=["stablehlo.rsqrt", "stablehlo.constant dense<["])

# ------------------------------------------------------------------- MLP

case("mlp_layer_b16", lambda x, w, bias: jax.nn.relu(x @ w + bias),
     U("b, 16"), U("16, 8", -0.5, 0.5), U("8", -0.1, 0.1),
     expect=["stablehlo.dot_general", "stablehlo.maximum"])

# Closed-over weights become constants; W1 has 512 elements, so it is printed
# as a hex blob dense<"0x...">.
_W1 = _crng.uniform(-0.4, 0.4, (16, 32)).astype(np.float32)
_B1 = _crng.uniform(-0.1, 0.1, (32,)).astype(np.float32)
_W2 = _crng.uniform(-0.4, 0.4, (32, 8)).astype(np.float32)
_B2 = _crng.uniform(-0.1, 0.1, (8,)).astype(np.float32)
case("mlp_2layer_b16",
     lambda x: jax.nn.relu(jax.nn.relu(x @ _W1 + _B1) @ _W2 + _B2),
     U("b, 16"), expect=["stablehlo.dot_general", 'dense<"0x'])
case("batched_matmul_bn", lambda a, c: a @ c, U("b, n, 4"), U("b, 4, n"),
     expect=["batching_dims = [0] x [0]", "tensor<?x?x?xf32>"])

# ------------------------------------------------------------- reductions

case("reduce_sum_axis0_bn", lambda x: jnp.sum(x, axis=0), U("b, n"),
     expect=["applies stablehlo.add across dimensions = [0]"])
case("reduce_sum_axis1_bn", lambda x: jnp.sum(x, axis=1), U("b, n"),
     expect=["applies stablehlo.add across dimensions = [1]"])
# complex numbers on symbolic dims: elementwise, a matmul, a reduction, a transpose
def CX(spec, dtype=np.complex64):
    """Complex numbers with both parts uniform in [-2, 2)."""
    return Arg(spec, lambda rng, s, dims: (rng.uniform(-2, 2, size=s)
                                           + 1j * rng.uniform(-2, 2, size=s)).astype(dtype), dtype)


case("complex_matmul_sum_bn", lambda x, w: (jnp.sum(jnp.exp(x) @ w, axis=1), jnp.abs(x).T, x * jnp.conj(x)),
     CX("b, n"), CX("n, 4"), expect=["complex<f32>", "stablehlo.dot_general"])
case("reduce_max_all_bn", jnp.max, U("b, n"),
     expect=["applies stablehlo.maximum across dimensions = [0, 1]"])
case("reduce_mean_axis1_bn", lambda x: jnp.mean(x, axis=1), U("b, n"),
     expect=["stablehlo.convert", "stablehlo.divide"])
case("argmax_axis1_b16", lambda x: jnp.argmax(x, axis=1), U("b, 16"),
     expect=["stablehlo.reduce", "stablehlo.dynamic_iota"])

# ------------------------------------------------------------- shape ops

case("concat_axis1_b3_b5", lambda x, y: jnp.concatenate([x, y], axis=1),
     U("b, 3"), U("b, 5"), expect=["stablehlo.concatenate"])
case("concat_axis0_b4_2x4", lambda x, y: jnp.concatenate([x, y], axis=0),
     U("b, 4"), U("2, 4"), expect=["stablehlo.concatenate"])
case("reshape_b6_to_b23", lambda x: x.reshape(x.shape[0], 2, 3), U("b, 6"),
     expect=["stablehlo.dynamic_reshape"])
case("reshape_flatten_bn", lambda x: x.reshape(-1), U("b, n"),
     expect=["stablehlo.dynamic_reshape"])
case("transpose_bn", lambda x: x.T, U("b, n"), expect=["stablehlo.transpose"])

# jnp indexing with a dynamic dim lowers to (dynamic_)gather; lax.slice with a
# symbolic limit lowers to real_dynamic_slice.
case("slice_cols_jnp_b8", lambda x: x[:, 1:4], U("b, 8"),
     expect=["stablehlo.dynamic_gather"])
case("slice_cols_lax_b8", lambda x: lax.slice(x, (0, 1), (x.shape[0], 4)),
     U("b, 8"), expect=["stablehlo.real_dynamic_slice"])
# b=1 gives an empty (0, 4) result.
case("slice_rows_from1_jnp_b4", lambda x: x[1:], U("b, 4"),
     expect=["stablehlo.dynamic_gather"])
case("slice_rows_from1_lax_b4", lambda x: lax.slice(x, (1, 0), (x.shape[0], 4)),
     U("b, 4"), expect=["stablehlo.real_dynamic_slice"])
case("slice_rows_stride2_jnp_b4", lambda x: x[::2], U("b, 4"),
     expect=['"stablehlo.gather"', "stablehlo.dynamic_iota", "call @divmod"])
case("slice_rows_stride2_lax_b4",
     lambda x: lax.slice(x, (0, 0), (x.shape[0], 4), (2, 1)), U("b, 4"),
     expect=["stablehlo.real_dynamic_slice"])

# jnp.cumsum lowers to stablehlo.reduce_window on CPU, so it is not exported
# here. lax.associative_scan gives a prefix sum from real_dynamic_slice, add,
# pad and concatenate instead.
case("cumsum_assoc_scan_b8", lambda x: lax.associative_scan(jnp.add, x, axis=1),
     U("b, 8"), expect=["stablehlo.real_dynamic_slice", "stablehlo.pad"])

# ------------------------------------------- jax.export's dynamic custom calls

# lax.top_k is a `stablehlo.composite "chlo.top_k"` whose decomposition is a sort; with a
# symbolic k it is `custom_call @stablehlo.dynamic_top_k`.
case("top_k_composite_b8", lambda x: lax.top_k(x, 3), U("b, 8"),
     expect=['stablehlo.composite "chlo.top_k"'])
case("top_k_dynamic_k_bn", lambda x: lax.top_k(x, x.shape[1]), U("b, n"),
     expect=["custom_call @stablehlo.dynamic_top_k"])
# approx_max_k/approx_min_k on the CPU: `custom_call @ApproxTopK` with is_fallback = true,
# an exact top k (distinct values here: ties may come out in another order).
case("approx_max_k_b8", lambda x: lax.approx_max_k(x, 3),
     Arg("b, 8", lambda rng, s, dims: rng.permutation(np.prod(s, dtype=int)).reshape(s)
         .astype(np.float32), np.float32), expect=["custom_call @ApproxTopK"])
case("approx_min_k_b8", lambda x: lax.approx_min_k(x, 2),
     Arg("b, 8", lambda rng, s, dims: rng.permutation(np.prod(s, dtype=int)).reshape(s)
         .astype(np.float32), np.float32), expect=["custom_call @ApproxTopK"])
# jnp.cumsum over a symbolic dim: `custom_call @stablehlo.dynamic_reduce_window`, its
# window and padding computed from the dim.
case("cumsum_axis0_b4", lambda x: jnp.cumsum(x, axis=0), U("b, 4"),
     expect=["custom_call @stablehlo.dynamic_reduce_window"])
case("cumsum_axis1_bn", lambda x: jnp.cumsum(x, axis=1), U("b, n"),
     expect=["custom_call @stablehlo.dynamic_reduce_window"])
# Random numbers of a symbolic shape: threefry (jax.random's default) is plain StableHLO;
# the rbg key is `custom_call @stablehlo.dynamic_rng_bit_generator` (XLA's bits).
case("random_uniform_threefry_b",
     lambda key, x: x + jax.random.uniform(jax.random.wrap_key_data(key), x.shape),
     Arg("2", lambda rng, s, dims: rng.integers(0, 2**32, s, dtype=np.uint32), np.uint32),
     U("b, 3"), expect=["stablehlo.shift_right_logical"])
case("random_uniform_rbg_b",
     lambda key, x: x + jax.random.uniform(jax.random.wrap_key_data(key, impl="rbg"), x.shape),
     Arg("4", lambda rng, s, dims: rng.integers(0, 2**32, s, dtype=np.uint32), np.uint32),
     U("b, 3"), expect=["custom_call @stablehlo.dynamic_rng_bit_generator"])


# ------------------------------------------------------- linear algebra


def SPD(spec):
    """Symmetric positive definite matrices x x^T + n I in the last two dims."""
    def make(rng, s, dims):
        x = rng.uniform(-1.0, 1.0, size=s)
        return (x @ np.swapaxes(x, -1, -2) + s[-1] * np.eye(s[-1])).astype(np.float32)
    return Arg(spec, make)


case("cho_solve_bn", lambda a, y: jax.scipy.linalg.cho_solve((jnp.linalg.cholesky(a), True), y),
     SPD("b, n, n"), U("b, n, 3"), platform="tpu",
     expect=["stablehlo.cholesky", "stablehlo.triangular_solve", "tensor<?x?x?xf32>"])

# ------------------------------------------------------- shape assertions

# Both arguments share `b`; @main asserts that their leading dims are equal
# (bad0: b = 3 vs 8) and that b >= 1 (bad1: b = 0 for both).
case("shape_assert_add_b4", lambda x, y: x + y, U("b, 4"), U("b, 4"),
     bad=(({"b": 3}, {"b": 8}), ({"b": 0}, {"b": 0})),
     expect=["stablehlo.custom_call @shape_assertion", "compare  EQ"])


# ------------------------------------------------------------------ export

def _main_signature(text):
    m = re.search(r"func\.func public @main\((.*?)\) ->", text)
    assert m, "no public @main"
    return re.findall(r"%arg\d+: (tensor<(?:[^<>]|<[^<>]*>)*>)", m.group(1))  # complex<f32> nests


def _tensor_type(spec, dtype):
    dims = ["?" if not d.strip().isdigit() else d.strip()
            for d in spec.split(",") if d.strip()]
    el = {"float32": "f32", "int32": "i32", "float16": "f16", "uint32": "ui32",
          "bfloat16": "bf16", "bool": "i1", "complex64": "complex<f32>"}[str(dtype)]
    return "tensor<" + "".join(d + "x" for d in dims) + el + ">"


def export_case(name):
    c = CASES[name]
    fn, argspecs = c["fn"], c["args"]
    exp = eu.export_symbolic(fn, [(a.spec, a.dtype) for a in argspecs], c["platform"])
    text = exp.mlir_module()

    # Module checks: nothing elided, no locations, the ops we expect, and a
    # public @main that takes exactly the user's arrays.
    eu.check_text(name, text, c["expect"], forbidden=eu.FORBIDDEN_ELLIPSIS, public_main=False)
    assert exp.platforms == (c["platform"] or "cpu",), exp.platforms
    assert not exp.ordered_effects and exp.nr_devices == 1
    want = [_tensor_type(a.spec, a.dtype) for a in argspecs]
    got = _main_signature(text)
    assert got == want, f"{name}: @main takes {got}, expected {want}"

    d = {}
    close = functools.partial(np.testing.assert_allclose, rtol=1e-6, atol=1e-6)
    eu.run_sizes(name, exp, fn, argspecs, c["sizes"], close, d)

    for k, per_arg in enumerate(c["bad"]):
        rng = np.random.default_rng(eu.seed(name, f"bad{k}"))
        args = [a(rng, dims) for a, dims in zip(argspecs, per_arg)]
        try:
            exp.call(*args)
        except ValueError as e:  # JAX rejects the shapes, as it should
            assert "Input shapes do not match" in str(e), (name, str(e))
        else:
            raise AssertionError(f"{name}: bad size set {k} did not fail")
        eu.pack(args, [], f"bad{k}_", d)

    eu.write_case(HERE, name, text, d)


if __name__ == "__main__":
    eu.main(sys.argv[1:], CASES, export_case, HERE)
