"""`tf_executor` graphs flattened into plain function bodies: each island's ops in order,
its results replaced by what it yields, control tokens dropped (the ops are pure, so their
order is the data flow's), the fetch's values returned; then nodes nothing uses are pruned."""
from __future__ import annotations

from lowering.ir.core import CompileError, Operation

CONTROL = "!tf_executor.control"
V1_CONTROL_FLOW = ("Switch", "_SwitchN", "Merge", "Enter", "Exit", "NextIteration.Source",
                   "NextIteration.Sink", "LoopCond", "SwitchN", "ControlTrigger")
TERMINATORS = ("func.return", "return", "shape.assuming_yield")


def is_control(v) -> bool:
    return str(v.type) == CONTROL


def flatten_executor(func: Operation) -> None:
    """Replace every tf_executor.graph in func's body by its islands' ops."""
    block = func.regions[0].blocks[0]
    if not any(op.name == "tf_executor.graph" for op in block.ops):
        return
    mapping: dict = {}

    def remap(op):
        for inner in op.walk():
            inner.operands = [mapping.get(v, v) for v in inner.operands]

    out = []
    for op in block.ops:
        if op.name != "tf_executor.graph":
            remap(op)
            out.append(op)
            continue
        if len(op.regions) != 1 or len(op.regions[0].blocks) != 1:
            raise CompileError("'tf_executor.graph' needs one region holding the graph's nodes",
                               op.loc)
        for node in op.regions[0].blocks[0].ops:
            if node.name == "tf_executor.island":
                body = node.regions[0].blocks[0].ops
                for inner in body[:-1]:
                    remap(inner)
                    inner.parent = block
                    out.append(inner)
                yielded = [mapping.get(v, v) for v in body[-1].operands if not is_control(v)]
                for r, v in zip([r for r in node.results if not is_control(r)], yielded):
                    mapping[r] = v
            elif node.name == "tf_executor.fetch":
                fetched = [mapping.get(v, v) for v in node.operands if not is_control(v)]
                for r, v in zip(op.results, fetched):
                    mapping[r] = v
            elif node.name.split(".", 1)[-1] in V1_CONTROL_FLOW:  # made functional next
                node.operands = [mapping.get(v, v) for v in node.operands if not is_control(v)]
                node.parent = block
                out.append(node)
            else:
                raise CompileError(f"'{node.name}': this executor op is not supported",
                                   node.loc)
    block.ops = out


def prune_dead(func: Operation) -> None:
    """Drop ops none of whose results is used (TF graphs keep unused nodes; NoOps anchor
    control edges only). Every TF op this front end lowers is free of side effects."""
    block = func.regions[0].blocks[0]
    changed = True
    while changed:
        used = {v for op in block.ops for inner in op.walk() for v in inner.operands}
        keep = [op for op in block.ops if op.name in TERMINATORS
                or any(r in used for r in op.results)]
        changed = len(keep) != len(block.ops)
        block.ops = keep
