"""Device math: the scalar `math.*` ops a kernel still holds after lowering (the chlo rules'
own `math.log`, say, which the op-level inline library does not see) become the inline
polynomials of codegen/llvm/fastmath.py, with the same error bounds as on the CPU. The device
has no libm, and libdevice is not in the wheels this project installs; what has no inline
version stays, for `device.check_device_ops` to refuse by name.
"""
from __future__ import annotations

from lowering.codegen.cuda import arc_hyp, trig
from lowering.codegen.cuda import pow as device_pow
from lowering.codegen.llvm import fastmath
from lowering.ir.builder import LoopBuilder
from lowering.ir.core import Block, Module, replace_all_uses
from lowering.ops.elementwise import Scalars

INLINE = {"math.exp": fastmath.exp, "math.log": fastmath.log, "math.tanh": fastmath.tanh,
          "math.expm1": fastmath.expm1, "math.log1p": fastmath.log1p, "math.erf": fastmath.erf,
          "math.erfc": fastmath.erfc}
INLINE.update(arc_hyp.FUNCTIONS)  # atan, asin, acos and the hyperbolics: device only
INLINE.update(trig.FUNCTIONS)  # sin, cos, tan: device only (the CPU has libm)
INLINE.update(device_pow.FUNCTIONS)  # pow(x, y) and cbrt: device only


def inline_device_math(module: Module, target) -> None:
    """Expand, in every kernel, each INLINE op of an f32/f64 value in place; the function
    takes the op's operands in order."""
    for func in module.functions():
        if "aot.kernel" not in func.attrs:
            continue
        for op in list(func.walk()):
            fn = INLINE.get(op.name)
            if fn is None or op.results[0].type.name not in fastmath.CONSTS:
                continue
            elem = op.results[0].type.name
            block = op.parent
            scratch = LoopBuilder(Block([]), op.loc, target)
            value = fn(fastmath.Ops(Scalars(scratch), elem), *op.operands)
            at = block.ops.index(op)
            for new in scratch.block.ops:
                new.parent = block
            block.ops[at:at + 1] = scratch.block.ops
            replace_all_uses(op.results[0], value)
