"""The GPU's row reduction: one warp per output element, as XLA's GPU backend reduces rows.

A reduction over the last dim (row sums, row maxima, argmax along a row) whose root is a
kInput fusion's reduce: the kernel's parallel loop goes over the kept dims as on the CPU, but
each iteration belongs to a warp, not a thread (`aot.lanes_per_iteration` = WARP). Lane l of
the warp folds the row's elements l, l + 32, l + 64, ... into its accumulators (reading the
fused producers' values through the elemental emitter), then five butterfly shuffles
(`gpu.shuffle_xor` by 16, 8, 4, 2, 1) combine the 32 partial results with the reduce's own
body, so every lane ends with the row's value; all lanes store it (the same value, to the
same place). The partial results are combined in a fixed tree, so a row's result does not
depend on scheduling; float sums are reassociated, as on the CPU.

Registered as the cuda target's override of reduce's `kernel` (its schedule as a fusion root).
"""
from __future__ import annotations

from lowering.ir.builder import LoopBuilder, loop_nest
from lowering.ir.core import INDEX, Operation
from lowering.ops import registry
from lowering.ops.elemental import Elemental, apply_region, combine_lanes

WARP = 32  # cuda_target().warp_size


def is_row_reduction(target, root: Operation) -> bool:
    rank = root.operands[0].type.rank
    return list(root.attrs["dimensions"]) == [rank - 1] and rank >= 2


def emit_warp_row_reduction(b: LoopBuilder, root: Operation, inputs: dict, outs: list, env: dict):
    n = len(root.operands) // 2
    ins, inits = root.operands[:n], root.operands[n:]
    in_dims = env[ins[0]] if ins[0] in env else list(ins[0].type.shape)
    dims = [b.index(d) if isinstance(d, int) else d for d in in_dims]
    first = len(b.block.ops)
    with loop_nest(b, dims[:-1]) as (outer, rows):
        parallel = next(op for op in b.block.ops[first:] if op.name == "scf.for")
        parallel.attrs["aot.lanes_per_iteration"] = WARP  # a warp per iteration, lanes in step
        e = Elemental(outer, inputs, dims=env)
        accs = [e.at(v, []) for v in inits]
        lane = outer.v("gpu.lane_id", [], INDEX)
        loop, body, j, cur = outer.for_(lane, dims[-1], accs, step=WARP)
        xs = [Elemental(body, inputs, dims=env).at(v, list(rows) + [j]) for v in ins]
        body.yield_(apply_region(body, root.regions[0], list(cur) + xs))
        accs = combine_lanes(outer, root.regions[0], list(loop.results), WARP)
        for v, out in zip(accs, outs):
            outer.op("memref.store", [v, out] + list(rows))


registry.override("reduce", "kernel", emit_warp_row_reduction, target="cuda", when=is_row_reduction)
