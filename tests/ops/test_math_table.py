"""The math table (lowering/codegen/mathlib.py) is the one source of the scalar math functions
(issue 31): every math op an elementwise rule makes has an entry or is an instruction on every
target, every target computes each natively or expands it, the CPU's LLVM lowering of them
comes from the table, and a CPU that declares nothing natively but exp and log still compiles
every float elementwise op, to the same values."""
from __future__ import annotations

import numpy as np
import test_ops_targets as targets

import aot
from aot.driver import Compilation, Options
from lowering.codegen import mathlib
from lowering.codegen.llvm.emitters import EMITTERS
from lowering.ir.builder import LoopBuilder
from lowering.ir.core import Block, ScalarType, TensorType, Value
from lowering.ops import registry
from lowering.ops.elementwise import Scalars
from lowering.target import Target

# ops whose rules read attributes (and make no math op)
ATTRIBUTED = ("compare", "reduce_precision")
LIBM_CPU = Target(name="cpu", triple="", math="libm")  # the ops' own rules: no inline library


def math_ops_of(name: str, elem: str) -> set:
    """The math ops of HLO op `name`'s own scalar rule on `elem` operands."""
    if name in ATTRIBUTED:
        return set()
    op = registry.lookup(name)
    b = LoopBuilder(Block([]), None, LIBM_CPU)
    args = [Value(ScalarType(elem)) for _ in range(op.arity)]
    fake = type("Op", (), {"operands": args, "attrs": {}, "results": [Value(TensorType((1,), elem))],
                           "short_name": name})()
    op.scalar(Scalars(b), elem, args, fake)
    return {o.name for o in b.block.ops if o.name.startswith("math.")}


def test_every_math_op_of_the_elementwise_rules_is_in_the_table():
    made = set()
    for name in targets.float_ops():
        for elem in ("f32", "f64"):
            made |= math_ops_of(name, elem)
    assert {"math.cbrt", "math.sin", "math.powf", "math.erf", "math.atanh"} <= made
    assert made <= set(mathlib.MATH) | mathlib.BASIC, made - set(mathlib.MATH) - mathlib.BASIC
    for op, fn in mathlib.MATH.items():  # the HLO op an entry names is computed as that op
        assert op in math_ops_of(fn.hlo, "f32"), (op, fn.hlo)


def test_every_target_computes_or_expands_every_table_op():
    for target, native in mathlib.NATIVE.items():
        assert mathlib.BASIC <= native, target
        for op, fn in mathlib.MATH.items():
            assert op in native or fn.expand is not None, (target, op)
    assert mathlib.NATIVE["cuda"] == mathlib.BASIC  # no libm on the device: all expanded
    for op, fn in mathlib.MATH.items():  # each decomposition has its measured bound
        assert fn.hlo and (fn.llvm or fn.libm), op
        assert all(0.5 <= fn.max_ulp[dt] <= 3 for dt in mathlib.FLOATS), op


def test_the_cpu_lowers_exactly_its_native_math_ops():
    """The LLVM emitters' math ops are the CPU's native set: the table's intrinsics and libm
    calls and the basic instructions, nothing keyed anywhere else."""
    assert {k for k in EMITTERS if k.startswith("math.")} == mathlib.NATIVE["cpu"]


def test_a_cpu_with_only_exp_and_log_compiles_every_op(tmp_path, monkeypatch):
    """Every other math op expanded from the table's decompositions in the CPU's kernels (the
    loop stage holds no other math function), and each op's value is the usual CPU's within
    the type's tolerance (test_ops_targets.RTOL)."""
    from abi.loader import Library
    ops = [n for n in targets.float_ops() if math_ops_of(n, "f32") - mathlib.BASIC]
    assert len(ops) >= 25
    types = ("f32", "f64")
    monkeypatch.setattr(targets, "FLOATS", types)
    text, xs = targets.program(ops), targets.inputs(ops)
    want = aot.compile(text, name="math_usual", output_dir=str(tmp_path)).main(*xs)
    have = mathlib.BASIC | {"math.exp", "math.log"}
    monkeypatch.setitem(mathlib.NATIVE, "cpu", have)
    c = Compilation(text, "m.mlir", Options(name="math_expanded"))
    c.build(str(tmp_path / "libmath_expanded.so"))
    kernels = [f for f in c.loops().functions() if "aot.kernel" in f.attrs]
    left = {op.name for f in kernels for op in f.walk() if op.name.startswith("math.")}
    assert left <= have and "math.exp" in left, left - have
    got = Library(str(tmp_path / "libmath_expanded.so")).main(*xs)
    bad = []
    for i, (g, w) in enumerate(zip(got, want)):
        dt, name = types[i // len(ops)], ops[i % len(ops)]
        g64, w64 = g.astype(np.float64), w.astype(np.float64)
        tol = targets.RTOL[dt] * np.maximum(np.abs(w64), 1e-3 if dt != "f64" else 1e-12)
        if not np.all((np.abs(g64 - w64) <= tol) | (np.isnan(g64) & np.isnan(w64))):
            bad.append(f"{name} {dt}: got {g[:4]}, want {w[:4]}")
    assert not bad, "\n".join(bad)


ATAN2 = """func.func @main(%y: tensor<?x{t}>, %x: tensor<?x{t}>) -> tensor<?x{t}> {{
  %0 = stablehlo.atan2 %y, %x : tensor<?x{t}>
  return %0 : tensor<?x{t}>
}}"""


def test_atan2_decomposition_within_its_bound(tmp_path, monkeypatch):
    """atan2 expanded on a CPU without it (as on cuda), on random bit patterns and plain values:
    within the table's bound; zeros (signed), infinities and NaN as C's atan2 gives them."""
    from abi.loader import Library
    from ulp import ulp_errors
    monkeypatch.setitem(mathlib.NATIVE, "cpu", mathlib.BASIC)
    rng = np.random.default_rng(7)
    specials = [0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, -1.0, 1e-30]
    for dt, ft, bits, wide in (("f32", np.float32, np.uint32, np.float64),
                               ("f64", np.float64, np.uint64, np.longdouble)):
        c = Compilation(ATAN2.format(t=dt), "a.mlir", Options(name=f"atan2_{dt}"))
        c.build(str(tmp_path / f"libatan2_{dt}.so"))
        assert "math.atan2" not in {op.name for f in c.loops().functions() for op in f.walk()}
        sy, sx = np.meshgrid(np.array(specials, ft), np.array(specials, ft))
        y, x = (np.concatenate([rng.integers(0, np.iinfo(bits).max, 100_000, dtype=bits).view(ft),
                                rng.uniform(-10, 10, 100_000).astype(ft), s.ravel()])
                for s in (sy, sx))
        got = Library(str(tmp_path / f"libatan2_{dt}.so")).main(y, x)
        with np.errstate(all="ignore"):
            err = ulp_errors(got, np.arctan2(y.astype(wide), x.astype(wide)), ft)
        bound = mathlib.MATH["math.atan2"].max_ulp[dt]
        assert err.max() <= bound, (dt, y[err > bound][:4], x[err > bound][:4], got[err > bound][:4])
