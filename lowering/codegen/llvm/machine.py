"""Machine code: the LLVM target machine and the optimisation pipeline.

Kept apart from IR generation so that generating IR never needs a target's code generator.
"""
from __future__ import annotations

from llvmlite import binding as llvm


def _init_llvm():
    """Register every target LLVM was built with (x86, AArch64, NVPTX...) once."""
    if not getattr(_init_llvm, "done", False):
        llvm.initialize_all_targets()
        llvm.initialize_all_asmprinters()
        _init_llvm.done = True


def target_machine(target):
    """LLVM's target machine for a lowering.target.Target (triple, CPU and features resolved)."""
    _init_llvm()
    return llvm.Target.from_triple(target.triple).create_target_machine(
        cpu=target.cpu, features=target.features, opt=3, reloc="pic", codemodel="default")


def optimize(ir_text: str, tm) -> llvm.ModuleRef:
    mod = llvm.parse_assembly(ir_text)
    mod.verify()
    pto = llvm.create_pipeline_tuning_options(speed_level=3)
    pto.loop_vectorization = True
    pto.slp_vectorization = True
    pb = llvm.create_pass_builder(tm, pto)
    pm = pb.getModulePassManager()
    pm.run(mod, pb)
    return mod

