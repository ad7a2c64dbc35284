"""Guard before LLVM: the loop stage may hold only ops the LLVM emitter knows."""
from __future__ import annotations

from lowering.codegen.llvm.emitters import EMITTERS
from lowering.ir.core import CompileError, Module

LOOP_STAGE_OPS = {"scf.for", "scf.yield", "func.return", "func.call", "memref.alloc",
                  "memref.dealloc", "memref.get_global", "memref.copy", "memref.load",
                  "memref.store", "memref.dim", "memref.global", "func.func", "aot.check",
                  "scf.while", "scf.condition", "aot.switch"}


def verify_loops(module: Module) -> Module:
    legal = LOOP_STAGE_OPS | set(EMITTERS)
    for top in module.ops:
        for op in top.walk():
            if op.name not in legal:
                raise CompileError(f"'{op.name}' has no lowering to LLVM", op.loc)
    return module
