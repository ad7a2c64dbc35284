"""The math table: every scalar `math.*` op of the loop stage that a target may lack, keyed by
the op, with the shared decomposition that spells it out in simpler ops and that
decomposition's error bound; what each target computes natively; and the one expansion step
(`expand_math`, the loops stage's last step) that replaces, in every kernel, the math ops its
target lacks by their decompositions.

A decomposition is a function (fastmath.Ops, *operands) -> value built from loop-stage arith
ops and BASIC math ops only (sqrt, floor, abs, copysign...: instructions on every target),
branch-free, in the value's own type (f32 or f64; f16/bf16 math reaches a kernel as f32 ops).
The algorithms and their measurements are in the modules that hold them: codegen/llvm/
fastmath.py (exp, log, expm1, log1p, tanh, erf, erfc), codegen/cuda/trig.py (sin, cos, tan),
arc_hyp.py (the inverse and hyperbolic functions, atan2) and pow.py (pow, cbrt).

What a target has natively (NATIVE, by Target.name): the CPU, every op its LLVM lowering has,
an LLVM intrinsic or a C library call (`llvm`, `libm` below: codegen/llvm/emitters.py builds
the math emitters from them), so its kernels keep their calls; cuda, BASIC alone (no libm on
the device, and libdevice is not in the wheels this project installs), so every other op is
expanded. A new target declares its set here and compiles every op of the table.

Separately from that, a target whose math library is "inline" (Target.math) computes the HLO
ops marked `inline_at_op` by the decomposition at the op level, where the op's argument range
is known (ops/ranges.py) and the CPU's loop vectoriser sees arith ops rather than a libm call
it cannot widen: a choice for speed, not for lack (the CPU has those functions in libm).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from lowering.codegen.cuda import arc_hyp, trig
from lowering.codegen.cuda import pow as device_pow
from lowering.codegen.llvm import fastmath
from lowering.ir.builder import LoopBuilder
from lowering.ir.core import Block, Module, replace_all_uses
from lowering.ops import chlo, registry  # noqa: F401  (chlo: the rules overridden here)
from lowering.ops.elementwise import Scalars
from lowering.ops.ranges import value_range

FLOATS = ("f32", "f64")


@dataclass(frozen=True)
class MathFn:
    """One math op: its decomposition, the largest error of that decomposition in ulps of the
    result per type (measured as its module says), and how the CPU computes the op natively."""
    expand: Callable
    max_ulp: dict  # "f32"/"f64" -> ulps
    hlo: str | None = None  # the HLO op computed as this math op alone (its scalar rule)
    llvm: str | None = None  # the CPU's LLVM intrinsic: llvm.<name>.<type>
    libm: str | None = None  # ... or C library function (<name>f for f32)
    inline_at_op: bool = False  # the "inline" math library's choice at the HLO op level
    domain: dict = field(default_factory=dict)  # type -> |x| below which max_ulp holds


def _ulps(table: dict, key=None) -> dict:
    return {dt: table[dt] if key is None else table[dt][key] for dt in FLOATS}


def _fast(hlo: str, fn, **kw) -> MathFn:
    return MathFn(fn, _ulps(fastmath.MAX_ULP, hlo), hlo=hlo, inline_at_op=True, **kw)


def _trig(hlo: str, fn, **kw) -> MathFn:
    return MathFn(fn, _ulps(trig.MAX_ULP, hlo), hlo=hlo, domain=dict(trig.DOMAIN), **kw)


def _arc_hyp(name: str) -> MathFn:
    return MathFn(getattr(arc_hyp, name), _ulps(arc_hyp.MAX_ULP, name), hlo=name, libm=name)


MATH = {
    "math.exp": _fast("exponential", fastmath.exp, llvm="exp"),
    "math.log": _fast("log", fastmath.log, llvm="log"),
    "math.expm1": _fast("exponential_minus_one", fastmath.expm1, libm="expm1"),
    "math.log1p": _fast("log_plus_one", fastmath.log1p, libm="log1p"),
    "math.tanh": _fast("tanh", fastmath.tanh, libm="tanh"),
    "math.erf": _fast("erf", fastmath.erf, libm="erf"),
    "math.erfc": _fast("erfc", fastmath.erfc, libm="erfc"),
    "math.sin": _trig("sine", trig.sin, llvm="sin"),
    "math.cos": _trig("cosine", trig.cos, llvm="cos"),
    "math.tan": _trig("tan", trig.tan, libm="tan"),
    **{f"math.{n}": _arc_hyp(n) for n in ("atan", "asin", "acos", "sinh", "cosh", "asinh",
                                          "acosh", "atanh")},
    "math.atan2": MathFn(arc_hyp.atan2, _ulps(arc_hyp.ATAN2_MAX_ULP), hlo="atan2", libm="atan2"),
    "math.powf": MathFn(device_pow.pow_, _ulps(device_pow.MAX_ULP), hlo="power", llvm="pow"),
    "math.cbrt": MathFn(device_pow.cbrt, _ulps(device_pow.CBRT_MAX_ULP), hlo="cbrt", libm="cbrt"),
}

# Math ops every target has as instructions; decompositions use these and arith ops only.
BASIC = frozenset({"math.sqrt", "math.floor", "math.ceil", "math.round", "math.roundeven",
                   "math.absf", "math.copysign", "math.ctpop", "math.ctlz", "math.absi"})

NATIVE = {
    "cpu": BASIC | {op for op, fn in MATH.items() if fn.llvm or fn.libm},
    "cuda": BASIC,
}


def native(target) -> frozenset:
    """The math ops `target` computes without the table's decompositions."""
    return NATIVE[target.name]


def expand_math(module: Module, target) -> Module:
    """In every kernel, each math op of an f32/f64 value that `target` lacks becomes its
    decomposition, in place (the function takes the op's operands in order), and so do the
    ops a decomposition makes that the target lacks. What it leaves (another type, an op not
    in the table) is for the target's codegen to refuse by name."""
    have = native(target)
    if have >= set(MATH):  # the CPU: nothing to expand, its kernels as they are
        return module

    def lacking(op):
        return op.name in MATH and op.name not in have and op.results[0].type.name in FLOATS
    for func in module.functions():
        if "aot.kernel" in func.attrs:
            pending = [op for op in func.walk() if lacking(op)]
            while pending:
                pending += [new for new in _expand(pending.pop(), target) if lacking(new)]
    return module


def _expand(op, target) -> list:
    """Replace `op` by its decomposition; the ops that make it, in order."""
    block = op.parent
    scratch = LoopBuilder(Block([]), op.loc, target)
    value = MATH[op.name].expand(fastmath.Ops(Scalars(scratch), op.results[0].type.name),
                                 *op.operands)
    at = block.ops.index(op)
    for new in scratch.block.ops:
        new.parent = block
    block.ops[at:at + 1] = scratch.block.ops
    replace_all_uses(op.results[0], value)
    op.drop_uses()
    return scratch.block.ops


# ----------------------------------------------------------------------------- the inline library


def inline_rule(fn, previous, ranged=False):
    """The decomposition `fn` for f32/f64 (f16/bf16 computed in f32, rounded once), `previous`
    otherwise; with `ranged`, fn also takes its argument's range (ops/ranges.py)."""
    def rule(s, elem, args, op):
        if elem not in fastmath.CONSTS and elem not in fastmath.HALF:
            return previous(s, elem, args, op)
        extra = (value_range(op.operands[0]),) if ranged else ()
        if elem in fastmath.CONSTS:
            return fn(fastmath.Ops(s, elem), args[0], *extra)
        x = s.v("arith.extf", [args[0]], "f32")  # computed in f32, rounded once
        return s.v("arith.truncf", [fn(fastmath.Ops(s, "f32"), x, *extra)], elem)
    return rule


# logistic is not a math op (its generic rule is 1/(1 + exp(-x))): the inline library has a
# version of its own, which keeps the left tail's accuracy where exp(-x) overflows
AT_OP = {fn.hlo: (fn.expand, fn.expand in fastmath.RANGED)
         for fn in MATH.values() if fn.inline_at_op}
AT_OP["logistic"] = (fastmath.logistic, True)

for _hlo, (_fn, _ranged) in AT_OP.items():  # where the target's math library is "inline"
    registry.override(_hlo, "scalar", inline_rule(_fn, registry.lookup(_hlo).scalar, _ranged),
                      when=lambda target, op: target.math == "inline")
