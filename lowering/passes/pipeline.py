"""The pass pipeline: one named step per stage, each printable with `--emit`.

    hlo    spellings canonical, calls inlined, verified with shape inference
    fused  pools over whole dims made reductions, scatters of rows known now marked,
           float arithmetic on small constants folded,
           repeated shape code shared, transposes folded into the dots that read them, then
           kLoop / kInput / kOutput fusions
    lhlo   buffers: allocated before, freed after the kernel that needs them
    loops  kernels outlined as loop nests over buffers; host code calls them
"""
from __future__ import annotations

import lowering.ops  # noqa: F401  (fills the op registry: every family)
from lowering import backends
from lowering.codegen.llvm.guard import verify_loops
from lowering.codegen.mathlib import expand_math
from lowering.ir.core import CompileError
from lowering.passes.bufferize import bufferize
from lowering.passes.constant_folding import fold_constants
from lowering.passes.cse import eliminate_common_subexpressions
from lowering.passes.fusion import fuse
from lowering.passes.import_lhlo import import_lhlo, is_buffer_level
from lowering.passes.legalize import legalize
from lowering.passes.loops import lower_to_loops
from lowering.passes.prepack import prepack_constant_weights
from lowering.passes.row_scatters import mark_row_scatters
from lowering.passes.shape_query import add_shape_queries
from lowering.passes.transpose_folding import fold_transposes
from lowering.passes.window_reductions import rewrite_window_reductions
from lowering.target import Target, host_target

# Each step takes the module and the Target.
STAGES = [
    ("hlo", lambda m, t: legalize(m)),  # parse result -> canonical, verified HLO
    ("fused", lambda m, t: fuse(fold_transposes(  # ops grouped into kernels
        eliminate_common_subexpressions(fold_constants(mark_row_scatters(
        rewrite_window_reductions(m)))), t), t)),
    ("lhlo", bufferize),  # tensors -> buffers
    ("loops", lambda m, t: verify_loops(expand_math(prepack_constant_weights(  # loop nests,
        add_shape_queries(lower_to_loops(m, t)), t), t))),  # the math the target lacks spelled out
]
STAGE_NAMES = [name for name, _ in STAGES]


def run_pipeline(module, until: str = "loops", dump=None, target: Target | None = None):
    """Run the stages up to and including `until` for `target` (this machine's CPU if None);
    `dump(stage, module)` sees each result. The target's rules are installed first."""
    target = target or host_target()
    backends.load(target.name)
    if until not in STAGE_NAMES:
        raise ValueError(f"unknown stage '{until}'; stages: {', '.join(STAGE_NAMES)}")
    stages = STAGES
    if is_buffer_level(module):  # LHLO/LDHLO input starts at the buffer stage
        if STAGE_NAMES.index(until) < STAGE_NAMES.index("lhlo"):
            raise CompileError(f"the input is buffer-level (LHLO); it has no '{until}' stage", None)
        stages = [("lhlo", import_lhlo)] + [s for s in STAGES if s[0] == "loops"]
    for name, step in stages:
        module = step(module, target)
        if dump is not None:
            dump(name, module)
        if name == until:
            break
    return module
