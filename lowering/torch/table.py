"""The table of ATen ops this front end lowers: ATen op name (`aten.add.Tensor`, or a Python
operator on symbolic sizes, `_operator.mul`) -> rule, filled by the rule modules
(`@aten("add.Tensor", "add.Scalar", group=...)`); docs/pytorch.md's coverage table is
generated from it (`python -m lowering.torch.docs`).

A rule is `rule(e: TorchEmitter, n: Node)`: `n.arg(name, default)` reads an argument by its
schema name (the value of a tensor argument already lowered; a symbolic int is an int or a
scalar i32 value), `n.meta(i)` the (shape, element type) PyTorch recorded for output i. It
returns one value per output of the node (a list), or one value."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

GROUPS = ["elementwise math", "comparison and logic", "activations", "normalization",
          "reductions", "contractions and windows", "shapes and data movement",
          "indexing", "creation", "control flow", "data-dependent sizes", "symbolic sizes",
          "no-ops"]


@dataclass
class AtenOp:
    name: str
    rule: Callable
    group: str


ATEN_OPS: dict[str, AtenOp] = {}

# ATen ops recognised but not lowered, with what the error says.
NOT_LOWERED = {
    "aten.max_pool2d_with_indices_backward.default": "training (backward) ops are not supported",
    "higher_order.while_loop": "torch.while_loop is not supported yet",
}


def aten(*names: str, group: str):
    """Register the decorated rule for each ATen op (`add.Tensor` means `aten.add.Tensor`;
    a name with a module, `_operator.mul` or `higher_order.cond`, stands as it is)."""
    if group not in GROUPS:
        raise ValueError(f"unknown ATen op group {group!r}")

    def register(fn):
        for n in names:
            full = n if n.startswith(("_operator.", "higher_order.")) else f"aten.{n}"
            if full in ATEN_OPS:
                raise ValueError(f"ATen op {full} is lowered twice")
            ATEN_OPS[full] = AtenOp(full, fn, group)
        return fn
    return register
