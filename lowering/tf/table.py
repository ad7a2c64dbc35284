"""The table of TF ops this front end lowers: TF op name -> rule, filled by the rule modules
(`@tf_op("AddV2", "Add", group=...)`); the TF table of docs/tensorflow.md is generated from it
(lowering/tf/docs.py).

A rule is `rule(e: Emitter, op, args) -> [Value]`: `op` is the TF op (its attributes and
declared types), `args` its operands already lowered, the result one value per TF result."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

GROUPS = ["elementwise math", "comparison and logic", "activations", "contractions and windows",
          "reductions", "shapes and data movement", "data-dependent sizes", "spectral",
          "linear algebra", "control flow and calls", "graph plumbing",
          "TensorFlow's partial lowering"]


@dataclass
class TfOp:
    name: str
    rule: Callable
    group: str


TF_OPS: dict[str, TfOp] = {}

# TF ops recognised but not lowered, with what the error says (docs/tensorflow.md lists them too).
NOT_LOWERED = {
    "Placeholder": "an input of the graph: make it an argument with --feed NODE (tfcompile's "
                   "feeds)",
    "VarHandleOp": "a resource variable: freeze it, --freeze vars.npz with its value under "
                   "its name",
    "ResourceGather": "a gather from a resource variable: freeze the variables (--freeze)",
    "AssignVariableOp": "assigning a variable (training, initialisation) is not supported",
    "TensorListPushBack": "a TensorList that grows is not supported yet (reserved ones are)",
    "TensorListPopBack": "a TensorList that shrinks is not supported yet (reserved ones are)",
}


def tf_op(*names: str, group: str):
    """Register the decorated rule for each TF op name (without the `tf.` prefix)."""
    if group not in GROUPS:
        raise ValueError(f"unknown TF op group {group!r}")

    def register(fn):
        for n in names:
            if n in TF_OPS:
                raise ValueError(f"TF op {n} is lowered twice")
            TF_OPS[n] = TfOp(n, fn, group)
        return fn
    return register
