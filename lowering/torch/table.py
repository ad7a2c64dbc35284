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
          "indexing", "sorting", "scatter and index writes", "creation", "control flow",
          "data-dependent sizes", "linear algebra", "spectral", "symbolic sizes", "no-ops"]


@dataclass
class AtenOp:
    name: str
    rule: Callable
    group: str


ATEN_OPS: dict[str, AtenOp] = {}

# ATen ops recognised but not lowered, with what the error says.
NOT_LOWERED = {
    "aten.max_pool2d_with_indices_backward.default": "training (backward) ops are not supported",
    # torch.linalg.eig and eigvals: no general (Hessenberg QR) eigensolver in ops/linalg.py
    "aten.linalg_eig.default": "there is no general (non-symmetric) eigensolver, whose "
                               "eigenvalues are complex; torch.linalg.eigh (symmetric or Hermitian "
                               "matrices) and torch.linalg.svd are supported",
    # torchvision's detection post-processing (its models export only with draft_export,
    # which is unsound: torch.export cannot decide batched_nms's data-dependent branch)
    "torch.ops.torchvision.nms.default": "torchvision's non-maximum suppression has no rule: "
                                         "compile the backbone and head (model.backbone, "
                                         "model.head) and run the box post-processing outside",
    "torch.ops.torchvision.roi_align.default": "torchvision's RoI Align has no rule (two-stage "
                                               "detectors' box heads)",
    # torch.export refuses lstsq itself (its outputs' shapes depend on the driver)
    "aten.linalg_lstsq.default": "there is no least-squares solver; torch.linalg.pinv(A) @ B, "
                                 "or a QR solve (torch.linalg.qr, solve_triangular), is supported",
}


def functional_of(name: str) -> str | None:
    """`aten.relu.default` for the in-place `aten.relu_.default`; None for other names."""
    parts = name.split(".")
    if len(parts) != 3 or parts[0] != "aten" or not parts[1].endswith("_") \
            or parts[1].startswith("_") and parts[1].endswith("__"):
        return None
    return f"aten.{parts[1][:-1]}.{parts[2]}"


def lowerable(name: str) -> bool:
    """Whether a node of this op has a rule: its own, or its functional form's (in-place)."""
    return name in ATEN_OPS or functional_of(name) in ATEN_OPS


def aten(*names: str, group: str):
    """Register the decorated rule for each ATen op (`add.Tensor` means `aten.add.Tensor`;
    a name with a module, `_operator.mul`, `torch.sym_not` or `higher_order.cond`, stands
    as it is)."""
    if group not in GROUPS:
        raise ValueError(f"unknown ATen op group {group!r}")

    def register(fn):
        for n in names:
            full = n if n.startswith(("_operator.", "higher_order.", "torch.")) else f"aten.{n}"
            if full in ATEN_OPS:
                raise ValueError(f"ATen op {full} is lowered twice")
            ATEN_OPS[full] = AtenOp(full, fn, group)
        return fn
    return register
