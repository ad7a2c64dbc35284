"""Guard before LLVM: the loop stage may hold only ops the LLVM emitter knows."""
from __future__ import annotations

from lowering.codegen.llvm.emitters import EMITTERS
from lowering.ir.core import CompileError, Module
from lowering.ir.dialect import LOOP_OPS


def verify_loops(module: Module) -> Module:
    legal = set(LOOP_OPS) | set(EMITTERS)
    for top in module.ops:
        for op in top.walk():
            if op.name not in legal:
                raise CompileError(f"'{op.name}' has no lowering to LLVM", op.loc)
    return module
