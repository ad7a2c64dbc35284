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
