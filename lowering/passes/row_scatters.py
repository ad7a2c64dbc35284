"""Scatters whose indices are known when the model is compiled, marked for their kernel.

PyTorch's in-place write through a slice (`attn[:, :, 1:, 1:] += rel_pos`, MViT's relative
positions; `x[:, 1:] = y`) reaches us as slice_scatter: a scatter whose indices are
`iota + start` (with the wrap of negative starts), computed by ops of their own. Its kernel
copied the operand, then wrote each update element through a loaded index, bounds-checked
and selected: four per MViT-V2-S block over its [25089, 393] scores. Here each op's `rows`
rule (ops/gather.scatter_rows: the indices evaluated now, a run of consecutive rows) sets
`aot.rows`, and its kernel copies each output element once, from the operand or the
updates. Rewritten as a dynamic_update_slice instead, the updates fused into the softmax's
row fusion, which evaluated them in each of its passes: slower (benchmarks/results/
2026-11-29-mvit.md).
"""
from __future__ import annotations

from lowering.ir.core import Module
from lowering.ops import registry


def mark_row_scatters(module: Module) -> Module:
    for op in (o for f in module.functions() for o in f.walk()):
        rule = registry.rule(op, "rows")
        run = rule(op) if rule is not None else None
        if run is not None:
            op.attrs["aot.rows"] = run
    return module
