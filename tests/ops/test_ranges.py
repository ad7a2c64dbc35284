"""Value ranges (lowering/ops/ranges.py) and the inline math that uses them: exp without its
clamp and two-step scale where its argument is bounded, logistic with one formula where the
argument's sign is known. The bounds are checked on parsed HLO; the unguarded functions must
give the very bits the guarded ones give (a fused chain against the same ops split across
two libraries, where the second cannot know the range), NaNs and infinities included, and
their IR must have lost the guards."""
import numpy as np
import pytest

import aot
from lowering.frontend.parser import parse_module
from lowering.frontend.printer import print_module
from lowering.ops.ranges import value_range
from lowering.passes.legalize import legalize
from lowering.passes.pipeline import run_pipeline


def unary_chain(ops, elem="f32"):
    t = f"tensor<?x{elem}>"
    lines, v = [], "%x"
    for i, op in enumerate(ops):
        lines.append(f"  %v{i} = stablehlo.{op} {v} : {t}")
        v = f"%v{i}"
    return (f"func.func @main(%x: {t}) -> {t} {{\n" + "\n".join(lines)
            + f"\n  return {v} : {t}\n}}")


def ranges_of(text):
    """{result name hint or op key: (lo, hi)} of the ops of @main."""
    main = legalize(parse_module(text, "t.mlir")).function("main")
    return [(op.key, value_range(op.results[0])) for op in main.regions[0].blocks[0].ops
            if op.results]


def test_bounds_follow_the_ops():
    text = """func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %c = stablehlo.constant dense<[0.5, -2.0, 3.0, 1.0]> : tensor<4xf32>
  %z = stablehlo.constant dense<0.0> : tensor<4xf32>
  %m = stablehlo.maximum %x, %z : tensor<4xf32>
  %t = stablehlo.tanh %x : tensor<4xf32>
  %s = stablehlo.multiply %t, %c : tensor<4xf32>
  %e = stablehlo.exponential %s : tensor<4xf32>
  %n = stablehlo.negate %e : tensor<4xf32>
  %a = stablehlo.abs %n : tensor<4xf32>
  %l = stablehlo.logistic %m : tensor<4xf32>
  %d = stablehlo.subtract %l, %t : tensor<4xf32>
  return %d : tensor<4xf32>
}"""
    got = dict(ranges_of(text))
    assert got["constant"] == (0.0, 0.0)  # the last constant by key: the splat zero
    assert got["maximum"] == (0.0, np.inf)
    assert got["tanh"] == (-1.0, 1.0)
    assert got["multiply"] == (-3.0, 3.0)
    lo, hi = got["exponential"]
    assert lo == pytest.approx(np.exp(-3.0)) and hi == pytest.approx(np.exp(3.0))
    assert got["negate"] == (-hi, -lo) and got["abs"] == (lo, hi)
    assert got["logistic"] == (0.5, 1.0)
    assert got["subtract"] == (-0.5, 2.0)


def test_unknown_inputs_are_unbounded():
    assert dict(ranges_of(unary_chain(["sqrt", "exponential"])))["exponential"] == (0.0, np.inf)
    assert dict(ranges_of(unary_chain(["sqrt"])))["sqrt"] == (-np.inf, np.inf)


SPECIAL = [0.0, -0.0, np.inf, -np.inf, np.nan, 1e-30, -1e-30, 88.0, -104.0, 1e30, -1e30]


@pytest.mark.parametrize("elem", ["f32", "f64"])
@pytest.mark.parametrize("chain", [("tanh", "exponential"), ("exponential", "logistic"),
                                   ("tanh", "exponential", "logistic"),
                                   ("exponential", "negate", "logistic")])
def test_unguarded_math_gives_the_guarded_bits(chain, elem):
    dt = np.dtype(elem.replace("f", "float"))
    fused = aot.compile(unary_chain(chain, elem), name=f"ranges_{'_'.join(chain)}_{elem}")
    steps = [aot.compile(unary_chain([op], elem), name=f"ranges_step_{op}_{elem}") for op in chain]
    rng = np.random.default_rng(len(chain))
    x = np.concatenate([rng.standard_normal(1 << 14) * 4, rng.uniform(-120, 120, 1 << 14),
                        np.array(SPECIAL)]).astype(dt)
    want = x
    for lib in steps:  # each alone: its argument's range unknown, every guard in place
        want = lib.main(want)
    got = fused.main(x)
    np.testing.assert_array_equal(got.view(f"u{dt.itemsize}"), want.view(f"u{dt.itemsize}"))


def test_the_guards_are_gone():
    """exp(tanh(x)) scales in one step (no floor(n/2) shift) and clamps nothing, and then
    logistic of that positive value selects no formula: past tanh's own clamp, the loop
    stage's text has no select and no shift."""
    def loops(ops):
        return print_module(run_pipeline(parse_module(unary_chain(ops), "t.mlir"), "loops"))
    assert "arith.shrsi" in loops(["exponential"]) and "arith.shrsi" in loops(["logistic"])
    chain = loops(["tanh", "exponential", "logistic"])
    assert "arith.shrsi" not in chain
    assert chain.count("arith.select") == loops(["tanh"]).count("arith.select") == 1


def row_max_difference(x_shape, dims, bcast_dims, keep_shape=None, y="%x", reducer="maximum",
                       elem="f32"):
    """y - broadcast(reduce(x, reducer, dims)), through a reshape to keep_shape if given."""
    t = f"tensor<{'x'.join(map(str, x_shape))}x{elem}>"
    kept = [n for d, n in enumerate(x_shape) if d not in dims]
    r = f"tensor<{'x'.join(map(str, kept))}x{elem}>" if kept else f"tensor<{elem}>"
    lines = [f"  %init = stablehlo.constant dense<0xFF800000> : tensor<{elem}>"
             if elem == "f32" else
             f"  %init = stablehlo.constant dense<0xFFF0000000000000> : tensor<{elem}>",
             f"  %m = stablehlo.reduce(%x init: %init) applies stablehlo.{reducer} across "
             f"dimensions = {list(dims)} : ({t}, tensor<{elem}>) -> {r}"]
    src, src_t = "%m", r
    if keep_shape is not None:
        k = f"tensor<{'x'.join(map(str, keep_shape))}x{elem}>"
        lines.append(f"  %mk = stablehlo.reshape %m : ({r}) -> {k}")
        src, src_t = "%mk", k
    lines += [f"  %mb = stablehlo.broadcast_in_dim {src}, dims = {list(bcast_dims)} : "
              f"({src_t}) -> {t}",
              f"  %d = stablehlo.subtract {y}, %mb : {t}",
              f"  %e = stablehlo.exponential %d : {t}"]
    return (f"func.func @main(%x: {t}, %y: {t}) -> {t} {{\n" + "\n".join(lines)
            + f"\n  return %e : {t}\n}}")


@pytest.mark.parametrize("case,bounded", [
    (dict(x_shape=(3, 5), dims=[1], bcast_dims=[0]), True),
    (dict(x_shape=(2, 3, 5), dims=[2], bcast_dims=[0, 1]), True),
    (dict(x_shape=(2, 3, 5), dims=[0, 2], bcast_dims=[1]), True),
    (dict(x_shape=(3, 5), dims=[1], bcast_dims=[0, 1], keep_shape=(3, 1)), True),  # keepdims
    (dict(x_shape=(1, 5), dims=[1], bcast_dims=[0]), True),
    (dict(x_shape=(5, 5), dims=[1], bcast_dims=[1]), False),  # row r's max at column r
    (dict(x_shape=(5, 5), dims=[0], bcast_dims=[0]), False),
    (dict(x_shape=(3, 5), dims=[1], bcast_dims=[0], y="%y"), False),  # another value's max
    (dict(x_shape=(3, 5), dims=[1], bcast_dims=[0], reducer="minimum"), False),
    (dict(x_shape=(3, 5), dims=[1], bcast_dims=[0], reducer="add"), False),
])
def test_a_value_minus_its_row_maximum_is_at_most_zero(case, bounded):
    """softmax's x - max(x) (and keepdims' reshape on the way) is <= 0; a maximum broadcast
    along another dim, of another value, or another reduction is not bounded."""
    got = dict(ranges_of(row_max_difference(**case)))["subtract"]
    assert got == ((-np.inf, 0.0) if bounded else (-np.inf, np.inf))


@pytest.mark.parametrize("elem", ["f32", "f64"])
def test_exp_of_a_row_maximum_difference_gives_the_guarded_bits(elem):
    """exp(x - max(x)) takes the one-sided clamp and the up-and-down scaling (no floor(n/2)
    shift in its loops): the same bits as exp alone (guarded), numpy's to 1 ulp, over rows
    whose differences reach the subnormal results and below, with infinities and NaN."""
    dt = np.dtype(elem.replace("f", "float"))
    n = 1 << 12
    text = row_max_difference((8, n), [1], [0], elem=elem)
    assert "arith.shrsi" not in print_module(run_pipeline(parse_module(text, "t.mlir"), "loops"))
    fused = aot.compile(text, name=f"ranges_rowmax_exp_{elem}")
    diff = aot.compile(text.replace("stablehlo.exponential %d", "stablehlo.subtract %d, %y"),
                       name=f"ranges_rowmax_diff_{elem}")  # x - max(x) - 0: no exp
    exp = aot.compile(unary_chain(["exponential"], elem), name=f"ranges_step_exponential_{elem}")
    rng = np.random.default_rng(7)
    lo = {"f32": -110.0, "f64": -760.0}[elem]
    x = np.stack([rng.uniform(lo, 0, n), rng.uniform(lo / 2, 0, n) + 50, rng.standard_normal(n),
                  rng.uniform(-1e30, 1e30, n), rng.uniform(lo, 0, n), rng.uniform(lo, 0, n),
                  rng.uniform(lo, 0, n), rng.uniform(lo, 0, n)]).astype(dt)
    x[4, :5] = [-np.inf, -0.0, 0.0, lo, -np.inf]
    x[5, 7] = np.nan
    x[6, 3] = np.inf
    x[7, :] = -np.inf
    x[7, 9] = 0.0
    zero = np.zeros_like(x)
    d = diff.main(x, zero)  # x - max(x) alone
    want = exp.main(d.reshape(-1)).reshape(x.shape)  # exp of it with every guard
    got = fused.main(x, zero)
    np.testing.assert_array_equal(got.view(f"u{dt.itemsize}"), want.view(f"u{dt.itemsize}"))
    ref = np.exp(d.astype(np.float64) if elem == "f32" else d)
    assert np.isnan(got[5]).all() and np.isnan(got[6, 3]) and got[7, 9] == 1.0
    ok = ~np.isnan(ref)
    tiny = np.finfo(dt).smallest_subnormal
    ulp = np.maximum(np.spacing(np.abs(ref[ok]).astype(dt)).astype(np.float64), tiny)
    assert (np.abs(got[ok] - ref[ok]) / ulp).max() <= 1.05
    assert (got[ok] == 0).any() and ((got[ok] > 0) & (got[ok] < np.finfo(dt).tiny)).any()
