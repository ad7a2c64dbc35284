"""Every elementwise op that takes floats x every target x every float type (issue 31): an op
that compiles for the CPU must compile for the GPU too, or be listed in NOT_YET with why
(empty: the goal, and so far the fact).

One program per target holds every op on every float type (one result each). The CPU's
artifact is compiled and run; the cuda one is compiled to PTX, assembled by ptxas when this
machine has it, and run on the emulated grid (tests/tooling/gpu_emu). Each result is compared
with the same op computed by the CPU in f64 and rounded to the type: the CPU's own accuracy
against numpy is tested op by op elsewhere (tests/ops/test_ops_numeric.py, test_chlo.py);
here the question is whether each target computes each op, at the type's precision."""
from __future__ import annotations

import os

import ml_dtypes
import numpy as np
import pytest

import aot
import lowering.ops  # noqa: F401  (fills the registry)
from aot.driver import Compilation, Options
from lowering.ops import registry

FLOATS = ("f32", "f64", "f16", "bf16")
NP = {"f16": np.float16, "bf16": ml_dtypes.bfloat16, "f32": np.float32, "f64": np.float64}
# Relative error allowed against the f64 computation rounded to the type (a few ulps of it;
# the special functions' f32 versions are within ~1e-5 relative on these domains)
RTOL = {"f64": 1e-12, "f32": 2e-5, "f16": 4e-3, "bf16": 3e-2}
# Ops of complex numbers or bit patterns rather than float math, tested in their own files
NOT_FLOAT_MATH = {"complex", "real", "imag", "bitcast_convert"}
# (op, target) pairs not compiled yet, with why (registry.not_on_target, in the op table of
# docs/ops.md). Empty by goal: an entry is a gap to close.
NOT_YET = registry.NOT_ON_TARGET
N = 16  # elements per operand

# Inputs per op: (low, high) of a uniform draw for each operand; ops not listed take (-4, 4)
DOMAIN = {
    "acos": [(-0.99, 0.99)], "asin": [(-0.99, 0.99)], "atanh": [(-0.95, 0.95)],
    "acosh": [(1.01, 8)], "log": [(0.05, 20)], "log_plus_one": [(-0.9, 8)],
    "sqrt": [(0.05, 20)], "rsqrt": [(0.05, 20)], "erf_inv": [(-0.95, 0.95)],
    "lgamma": [(0.1, 8)], "digamma": [(0.1, 8)], "power": [(0.1, 4), (-3, 3)],
    "divide": [(-4, 4), (0.5, 4)], "remainder": [(-8, 8), (0.5, 4)],
    "zeta": [(1.5, 6), (0.5, 4)], "polygamma": [(1, 3), (0.5, 4)],
    "tan": [(-1.4, 1.4)], "exponential": [(-8, 8)], "cosh": [(-5, 5)], "sinh": [(-5, 5)],
}
INTEGRAL_FIRST = {"polygamma"}  # its order n is an integer


def float_ops() -> list:
    return sorted(n for n, o in registry.OPS.items()
                  if o.kind == "elementwise" and o.operand_types in (None, "float")
                  and n not in NOT_FLOAT_MATH)


def _line(i: int, name: str, dt: str, args: list) -> tuple:
    """One op on operands `args` of type dt: (its text, its result type)."""
    t, b = f"tensor<{N}x{dt}>", f"tensor<{N}xi1>"
    a = ", ".join(args)
    if name == "is_finite":
        return f'  %r{i} = "mhlo.is_finite"({a}) : ({t}) -> {b}', b
    if name in ("compare", "select"):
        cmp = (f'"mhlo.compare"({args[0]}, {args[1]}) {{comparison_direction = '
               f'#mhlo<comparison_direction LT>}} : ({t}, {t}) -> {b}')
        if name == "compare":
            return f"  %r{i} = {cmp}", b
        return (f"  %c{i} = {cmp}\n  %r{i} = \"mhlo.select\"(%c{i}, {args[0]}, {args[1]}) : "
                f"({b}, {t}, {t}) -> {t}"), t
    if name == "convert":  # to the next float type: every pair of float types over the loop
        to = FLOATS[(FLOATS.index(dt) + 1) % len(FLOATS)]
        return f'  %r{i} = "mhlo.convert"({a}) : ({t}) -> tensor<{N}x{to}>', f"tensor<{N}x{to}>"
    attrs = " {exponent_bits = 5 : i32, mantissa_bits = 7 : i32}" if name == "reduce_precision" else ""
    return f'  %r{i} = "mhlo.{name}"({a}){attrs} : ({", ".join([t] * len(args))}) -> {t}', t


def arity(name: str) -> int:
    return registry.OPS[name].arity


def program(ops: list) -> str:
    """main(every operand of every (op, type)) -> every result, in (type, op) order, each its
    own small kernel (one fused kernel of them all compiles slower: LLVM's passes grow faster
    than the function)."""
    params, lines, results = [], [], []
    for dt in FLOATS:
        for name in ops:
            args = []
            for _ in range(arity(name) if name != "select" else 2):
                args.append(f"%p{len(params)}")
                params.append(f"{args[-1]}: tensor<{N}x{dt}>")
            line, rt = _line(len(results), name, dt, args)
            lines.append(line)
            results.append((f"%r{len(results)}", rt))
    return (f"func.func @main({', '.join(params)}) -> ({', '.join(t for _, t in results)}) {{\n"
            + "\n".join(lines) + f"\n  return {', '.join(r for r, _ in results)} : "
            + f"{', '.join(t for _, t in results)}\n}}\n")


def inputs(ops: list) -> list:
    """The same values for every type: drawn in f64 and rounded to bf16, the coarsest, so
    each is exact in every float type and the CPU's f64 results are every type's reference."""
    rng = np.random.default_rng(31)
    per_op = []
    for name in ops:
        domain = DOMAIN.get(name) or [(-4, 4)]
        xs = []
        for k in range(arity(name) if name != "select" else 2):
            lo, hi = domain[min(k, len(domain) - 1)]
            x = rng.uniform(lo, hi, N)
            x = np.round(x) if name in INTEGRAL_FIRST and k == 0 else x
            xs.append(x.astype(ml_dtypes.bfloat16).astype(np.float64))
        per_op.append(xs)
    return [x.astype(NP[dt]) for dt in FLOATS for xs in per_op for x in xs]


def _check(ops, got, ref, target):
    """Each type's result of each op against the f64 one (`ref`, by op) rounded to the type."""
    labels = [(dt, name) for dt in FLOATS for name in ops]
    bad = []
    for (dt, name), g, r in zip(labels, got, ref * len(FLOATS)):
        if name == "convert":  # to the next type: the f64 result rounded through it
            r = r.astype(NP[FLOATS[(FLOATS.index(dt) + 1) % len(FLOATS)]])
        if g.dtype == np.bool_:
            ok = np.array_equal(g, r)
        else:
            want, g64 = r.astype(g.dtype).astype(np.float64), g.astype(np.float64)
            tol = RTOL[dt] * np.maximum(np.abs(want), 1e-3 if dt != "f64" else 1e-12)
            ok = np.all((np.abs(g64 - want) <= tol) | (np.isnan(g64) & np.isnan(want)))
        if not ok:
            bad.append(f"{name} {dt} on {target}: got {g[:4]}, want {r[:4].astype(g.dtype)}")
    assert not bad, "\n".join(bad)


def test_every_op_on_every_target_and_float_type(tmp_path):
    """The CPU's artifact, then the cuda one: one compile, its PTX assembled by ptxas (where
    this machine has one) and its kernels run on the emulated grid (as build_emulated does,
    sharing the compile). One test, so the CPU's f64 results, the reference, are made once."""
    from abi.loader import Library
    from tooling.gpu_emu import build_companion, use_driver_double
    from tooling.ptxas import find_ptxas, ptxas
    ops = [n for n in float_ops() if (n, "cpu") not in NOT_YET and (n, "cuda") not in NOT_YET]
    xs, text = inputs(ops), program(ops)
    cpu = aot.compile(text, name="ops_targets_cpu", output_dir=str(tmp_path)).main(*xs)
    at = FLOATS.index("f64") * len(ops)
    ref = cpu[at:at + len(ops)]
    _check(ops, cpu, ref, "cpu")
    c = Compilation(text, "ops.mlir", Options(name="ops_targets_gpu", emit="shared", target="cuda"))
    c.build(str(tmp_path / "libops_targets_gpu.so"))
    if find_ptxas():
        (tmp_path / "ops.ptx").write_text(c.assembly())
        r = ptxas(str(tmp_path / "ops.ptx"), "sm_80")
        assert r.returncode == 0, r.stderr[:2000]
    if not os.environ.get("AOT_TEST_REAL_GPU"):  # as build_emulated: else the machine's GPU
        build_companion(c)
        use_driver_double()
    _check(ops, Library(str(tmp_path / "libops_targets_gpu.so")).main(*xs), ref, "cuda")


def test_the_not_yet_list_is_honest():
    """Each NOT_YET entry still fails (else it must leave the list), and names real ops."""
    for (name, target), why in NOT_YET.items():
        assert name in float_ops() and target in ("cpu", "cuda") and why
        text = program([name])
        with pytest.raises(Exception):
            Compilation(text, "o.mlir", Options(name="o", emit="ptx" if target == "cuda" else "llvm",
                                                target=target)).llvm()
