"""Export gather / scatter / dynamic_gather programs from JAX, with inputs and outputs.

JAX is NOT a dependency of this project; it is only the tool that produces these
test programs. Run with a separate environment:

    python3 -m venv /tmp/jaxenv
    /tmp/jaxenv/bin/pip install jax jaxlib numpy ml_dtypes
    /tmp/jaxenv/bin/python tests/data/gather_scatter/export.py               # all cases
    /tmp/jaxenv/bin/python tests/data/gather_scatter/export.py take_rows     # some cases
    /tmp/jaxenv/bin/python tests/data/gather_scatter/export.py --list

For every case NAME this writes, next to this script:
  NAME.mlir  `jax.export.export(jax.jit(f))(*specs).mlir_module()` printed with
             `jax_include_debug_info_in_dumps=False` (no `loc(...)`); specs have
             static shapes, or symbolic dims (`b`, `n`) for the dynamic cases.
             Nothing is stripped or rewritten; JAX prints gather, scatter and
             dynamic_gather in the generic form with `#stablehlo.gather<...>` /
             `#stablehlo.scatter<...>` dimension numbers.
  NAME.npz   for each size set k (one for static cases, three for dynamic ones):
               s{k}_arg0, s{k}_arg1, ...  inputs in @main argument order
               s{k}_out0, ...             outputs of `exported.call(*args)`
             bfloat16 arrays as uint16 bits under a `__bf16` key suffix.

Inputs are seeded from crc32("NAME/s{k}"), so the output is deterministic and
adding or removing a case leaves the others unchanged. Index arguments are drawn
from the valid range [-dim, dim) (jnp normalises negative indices) unless the
case is about out-of-range indices. `exported.call` must agree with `jax.jit(f)`
on every size set, and the module text must contain the case's `expect` strings.
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
from export_util import BF16, Arg  # noqa: E402

jax.config.update("jax_include_debug_info_in_dumps", False)

STATIC = ({},)
# b (rows) and n (number of indices) for the dynamic cases.
SIZES = ({"b": 1, "n": 2}, {"b": 3, "n": 5}, {"b": 8, "n": 13})

CASES = {}


def U(spec, lo=-2.0, hi=2.0, dtype=np.float32):
    """Uniform floats in [lo, hi)."""
    return Arg(spec, lambda rng, s, dims: rng.uniform(lo, hi, size=s).astype(dtype), dtype)


def SMALL(spec, dtype=np.float32):
    """Small integers as floats, so products and sums are exact whatever the order."""
    return Arg(spec, lambda rng, s, dims: rng.integers(-3, 4, size=s).astype(dtype), dtype)


def IDX(spec, bound, neg=True, oob=0, dtype=np.int32):
    """Integer indices into a dim of size `bound` (an int or a dim expression):
    [-bound, bound) with negatives, [0, bound) without; `oob` widens the range on
    both sides to produce out-of-range indices."""
    def make(rng, s, dims):
        n = int(eval(str(bound), {}, dict(dims)))
        lo = (-n if neg else 0) - oob
        return rng.integers(lo, n + oob, size=s).astype(dtype)
    return Arg(spec, make, dtype)


def case(name, fn, *args, sizes=STATIC, x64=False, expect=()):
    assert name not in CASES, name
    CASES[name] = dict(fn=fn, args=args, sizes=sizes, x64=x64, expect=expect)


G, S, DG = ["stablehlo.gather"], ["stablehlo.scatter"], ["stablehlo.dynamic_gather"]

# ------------------------------------------------------------------- gather

case("take_rows", lambda x, i: x[i], U("5, 4"), IDX("3", 5), expect=G)
case("take_cols", lambda x, i: x[:, i], U("4, 5"), IDX("3", 5), expect=G)
case("take_2d_indices", lambda x, i: x[i], U("5, 4"), IDX("3, 2", 5), expect=G)
case("take_pointwise", lambda x, i, j: x[i, j], U("4, 5"), IDX("6", 4), IDX("6", 5),
     expect=G)
case("take_row_then_cols", lambda x, i: x[1, i], U("3, 4, 5"), IDX("2", 4), expect=G)
case("take_middle_axis", lambda x, i: x[:, i, :], U("2, 5, 3"), IDX("4", 5), expect=G)
case("take_along_axis", lambda x, i: jnp.take_along_axis(x, i, axis=1), U("3, 5"),
     IDX("3, 2", 5, neg=False), expect=G + ["operand_batching_dims"])
case("take_along_axis0", lambda x, i: jnp.take_along_axis(x, i, axis=0), U("4, 3"),
     IDX("2, 3", 4, neg=False), expect=G)
case("vmap_take_rows", jax.vmap(lambda x, i: x[i]), U("3, 5, 4"), IDX("3, 2", 5),
     expect=G + ["operand_batching_dims"])
case("vmap_vmap_take", jax.vmap(jax.vmap(lambda x, i: x[i])), U("2, 3, 5"),
     IDX("2, 3, 4", 5), expect=G)

_rng = np.random.default_rng(20240720)
_TABLE = _rng.uniform(-1, 1, (10, 8)).astype(np.float32)
case("embedding_lookup", lambda ids: jnp.asarray(_TABLE)[ids],
     IDX("2, 3", 10, neg=False), expect=G + ["stablehlo.constant"])
case("embedding_lookup_i64", lambda t, ids: t[ids], U("10, 8"),
     IDX("4", 10, neg=False, dtype=np.int64), x64=True, expect=G + ["xi64>"])
case("take_fused_operand_and_indices", lambda x, i: jnp.exp(x)[(i * 3) % 5],
     U("5, 4"), IDX("6", 5, neg=False), expect=G + ["stablehlo.exponential"])
case("take_int32_values", lambda x, i: x[i] + 1, Arg("6, 2", lambda r, s, d: r.integers(
    -100, 100, size=s).astype(np.int32), np.int32), IDX("4", 6), expect=G)
case("take_bf16", lambda x, i: x[i], U("5, 4", dtype=BF16), IDX("3", 5), expect=G + ["bf16"])

# Out-of-range indices: with promise_in_bounds JAX emits a bare gather and XLA
# clamps each start into [0, dim - slice_size].
case("take_out_of_range_clamped", lambda x, i: x.at[i].get(mode="promise_in_bounds"),
     U("5, 4"), IDX("8", 5, neg=False, oob=6), expect=G)
case("gather_window_clamped",
     lambda x, i: lax.gather(x, i, lax.GatherDimensionNumbers(
         offset_dims=(1, 2), collapsed_slice_dims=(), start_index_map=(0, 1)),
         slice_sizes=(3, 2), mode=lax.GatherScatterMode.PROMISE_IN_BOUNDS),
     U("5, 4"), IDX("6, 2", 5, neg=False, oob=4), expect=G)
# jnp's default for x[i] on out-of-range indices (what JAX emits around the gather).
case("take_out_of_range_default", lambda x, i: x[i], U("5, 4"),
     IDX("8", 5, neg=False, oob=6), expect=G)
case("take_fill_mode", lambda x, i: x.at[i].get(mode="fill", fill_value=-1.0), U("5, 4"),
     IDX("8", 5, neg=False, oob=6), expect=G)

# ------------------------------------------------------------------ scatter

case("at_set", lambda x, i, v: x.at[i].set(v), U("5, 4"), IDX("3", 5), U("3, 4"),
     expect=S)
case("at_set_unique", lambda x, i, v: x.at[i].set(v, unique_indices=True), U("6, 3"),
     Arg("3", lambda r, s, d: r.permutation(6)[:3].astype(np.int32), np.int32), U("3, 3"),
     expect=S)
case("at_add_duplicates", lambda x, i, v: x.at[i].add(v), SMALL("4, 3"),
     Arg("6", lambda r, s, d: np.array([1, 3, 1, 1, 0, 3], np.int32), np.int32),
     SMALL("6, 3"), expect=S)
case("at_add_scalar_duplicates", lambda x, i: x.at[i].add(1.0), U("5"),
     Arg("7", lambda r, s, d: np.array([0, 2, 2, 4, 2, -1, 0], np.int32), np.int32),
     expect=S)
case("at_max", lambda x, i, v: x.at[i].max(v), U("5, 3"), IDX("6", 5), U("6, 3"), expect=S)
case("at_min", lambda x, i, v: x.at[i].min(v), U("5, 3"), IDX("6", 5), U("6, 3"), expect=S)
case("at_mul", lambda x, i, v: x.at[i].multiply(v), SMALL("5, 3"), IDX("6", 5),
     SMALL("6, 3"), expect=S)
case("at_add_int32", lambda x, i, v: x.at[i].add(v),
     Arg("5, 2", lambda r, s, d: r.integers(-50, 50, size=s).astype(np.int32), np.int32),
     IDX("8", 5), Arg("8, 2", lambda r, s, d: r.integers(-50, 50, size=s).astype(np.int32),
                      np.int32), expect=S)
case("scatter_2d_set", lambda x, i, j, v: x.at[i, j].set(v), U("4, 5"),
     Arg("3", lambda r, s, d: np.array([0, 3, 2], np.int32), np.int32),
     Arg("3", lambda r, s, d: np.array([4, 0, 2], np.int32), np.int32), U("3"), expect=S)
case("scatter_2d_add", lambda x, i, j, v: x.at[i, j].add(v), SMALL("4, 5"), IDX("9", 4),
     IDX("9", 5), SMALL("9"), expect=S)
case("scatter_cols_add", lambda x, i, v: x.at[:, i].add(v), SMALL("3, 5"), IDX("4", 5),
     SMALL("3, 4"), expect=S)
case("segment_sum", lambda d, s: jax.ops.segment_sum(d, s, num_segments=4), SMALL("7, 3"),
     IDX("7", 4, neg=False), expect=S)
case("segment_max", lambda d, s: jax.ops.segment_max(d, s, num_segments=4), U("7, 3"),
     IDX("7", 4, neg=False), expect=S)
case("at_add_out_of_range_dropped", lambda x, i, v: x.at[i].add(v, mode="drop"),
     SMALL("5, 2"), IDX("8", 5, neg=False, oob=4), SMALL("8, 2"), expect=S)
case("scatter_window_out_of_range_skipped",
     lambda x, i, v: lax.scatter_add(x, i, v, lax.ScatterDimensionNumbers(
         update_window_dims=(1, 2), inserted_window_dims=(),
         scatter_dims_to_operand_dims=(0,)),
         mode=lax.GatherScatterMode.FILL_OR_DROP),
     SMALL("5, 2"), Arg("4, 1", lambda r, s, d: np.array([[0], [2], [3], [-1]], np.int32),
                        np.int32), SMALL("4, 3, 2"), expect=S)
case("vmap_at_add", jax.vmap(lambda x, i, v: x.at[i].add(v)), SMALL("3, 5"), IDX("3, 4", 5),
     SMALL("3, 4"), expect=S)
case("at_add_bf16", lambda x, i, v: x.at[i].add(v), SMALL("5, 3", dtype=BF16), IDX("4", 5),
     SMALL("4, 3", dtype=BF16), expect=S + ["bf16"])
case("at_add_fused_updates", lambda x, i, v: x.at[i % 5].add(jnp.tanh(v) * 2.0), U("5, 3"),
     IDX("6", 10, neg=False), U("6, 3"), expect=S)

# ------------------------------------------------------ dynamic (symbolic) dims

case("dyn_slice_cols", lambda x: x[:, 1:4], U("b, 8"), sizes=SIZES, expect=DG)
case("dyn_slice_rows_from1", lambda x: x[1:], U("b, 8"), sizes=SIZES, expect=DG)
case("dyn_take_rows", lambda x, i: x[i], U("b, 8"), IDX("n", "b"), sizes=SIZES, expect=G)
case("dyn_take_along_axis", lambda x, i: jnp.take_along_axis(x, i, axis=1), U("b, 8"),
     IDX("b, 3", 8, neg=False), sizes=SIZES, expect=G)
case("dyn_at_add", lambda x, i, v: x.at[i].add(v), SMALL("b, 8"), IDX("n", "b"),
     SMALL("n, 8"), sizes=SIZES, expect=S)
case("dyn_segment_sum", lambda d, s: jax.ops.segment_sum(d, s, num_segments=4),
     SMALL("n, 3"), IDX("n", 4, neg=False), sizes=SIZES, expect=S)


# ------------------------------------------------------------------ export

def export_case(name):
    c = CASES[name]
    fn, argspecs = c["fn"], c["args"]
    with eu.x64(c["x64"]):
        exp = eu.export_symbolic(fn, [(a.spec, a.dtype) for a in argspecs])
        text = exp.mlir_module()
        eu.check_text(name, text, c["expect"], forbidden=eu.FORBIDDEN_ELLIPSIS,
                      public_main=False)
        assert exp.platforms == ("cpu",), exp.platforms
        d = {}
        eu.run_sizes(name, exp, fn, argspecs, c["sizes"], np.testing.assert_array_equal, d)
    eu.write_case(HERE, name, text, d)


if __name__ == "__main__":
    eu.main(sys.argv[1:], CASES, export_case, HERE)
