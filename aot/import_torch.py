"""PyTorch programs in: a `.pt2` file (torch.export.save), its bytes, or an
`ExportedProgram` (saved to bytes in memory, so every program takes the one route: the
archive read without torch, lowering/torch), as the mhlo text `aot.compile` takes.

Torch is imported only by `export_torch` (aot.compile_torch) and for an ExportedProgram
object's `torch.export.save`; a `.pt2` file compiles in a process that never imports it."""
from __future__ import annotations

import io
import os

NEEDS_TORCH = ("aot.compile_torch needs PyTorch: pip install 'aotc[torch]' (torch==2.13.0, "
               "CPU); the compiler itself never does")


def is_exported_program(source) -> bool:
    return type(source).__name__ == "ExportedProgram" and hasattr(source, "graph_signature")


def is_pt2(source) -> bool:
    """A .pt2 path, or a .pt2 archive's bytes."""
    if isinstance(source, (bytes, bytearray)):
        return bytes(source[:2]) == b"PK"
    return isinstance(source, str) and "\n" not in source and source.endswith(".pt2")


def program_bytes(ep, decompose: bool) -> bytes:
    """An ExportedProgram as torch.export.save writes it, after `run_decompositions()` if
    `decompose`. The guards export recorded (conditions on the input sizes, checked on every
    call: lowering/torch/guards.py) are kept: run_decompositions drops them (torch 2.14)."""
    import torch
    buf = io.BytesIO()
    program = ep.run_decompositions() if decompose else ep
    if decompose and not getattr(program, "_guards_code", None):
        program._guards_code = list(getattr(ep, "_guards_code", None) or [])
    torch.export.save(program, buf)
    return buf.getvalue()


def op_names(ep) -> set:
    """The ATen names of the ops in an ExportedProgram's graphs (`aten.conv2d.default`,
    `_operator.mul`, `higher_order.cond`), as its serialized form spells them."""
    import operator

    import torch
    names = set()
    for module in ep.graph_module.modules():
        graph = getattr(module, "graph", None)
        for node in graph.nodes if graph is not None else ():
            t = node.target
            if node.op != "call_function" or t is operator.getitem:
                continue
            if isinstance(t, torch._ops.HigherOrderOperator):
                names.add(f"higher_order.{t.name()}")
            elif isinstance(t, torch._ops.OpOverload):
                names.add(str(t))
            else:
                names.add(f"{getattr(t, '__module__', '')}.{getattr(t, '__name__', t)}")
    return names


def lower_exported(ep, name: str, params_as_args: bool):
    """An ExportedProgram lowered as exported when every op in it has a rule (composite ops
    such as linear and conv2d have theirs: run_decompositions retraces the whole program,
    55 s of ViT-B/16's compile at load, empty decomposition table or not); else, or when an
    in-place op cannot be taken as functional, after run_decompositions()."""
    from lowering.torch.archive import read_pt2
    from lowering.torch.emitter import TorchLoweringError
    from lowering.torch.lower import lower_program
    from lowering.torch.table import lowerable
    filename = "<ExportedProgram>"
    if all(lowerable(op) for op in op_names(ep)):
        try:
            return lower_program(read_pt2(program_bytes(ep, False), filename), name,
                                 params_as_args)
        except TorchLoweringError:
            pass  # the decomposed program is lowered, or says what it lacks
    return lower_program(read_pt2(program_bytes(ep, True), filename), name, params_as_args)


def torch_to_mlir(source, name: str = "main", params_as_args: bool = False) -> tuple[str, str]:
    """(mhlo text, file name for messages) of a .pt2 path, its bytes or an ExportedProgram.
    The weights are not in the text: they reach the parser as the arrays read from the
    archive (print_module_source), not as 2 hex digits a byte printed and lexed again."""
    import lowering.torch.rules  # noqa: F401  (fills the table)
    from lowering.frontend.printer import print_module_source
    from lowering.torch.archive import read_pt2
    from lowering.torch.lower import lower_program
    if is_exported_program(source):
        return print_module_source(lower_exported(source, name, params_as_args)), \
            "<ExportedProgram>"
    if isinstance(source, (bytes, bytearray)):
        source, filename = bytes(source), "<pt2 bytes>"
    else:
        filename = source
    prog = read_pt2(source, filename)
    return print_module_source(lower_program(prog, name, params_as_args)), filename


def export_torch(model, example_args: tuple, dynamic_shapes=None, strict: bool = False):
    """torch.export.export(model, args, dynamic_shapes), in eval mode without gradients;
    not decomposed (aot.compile decomposes only a program holding an op without a rule)."""
    try:
        import torch
    except ImportError as e:
        raise ImportError(NEEDS_TORCH) from e
    if hasattr(model, "eval"):
        model = model.eval()
    with torch.no_grad():
        ep = torch.export.export(model, tuple(example_args), dynamic_shapes=dynamic_shapes,
                                 strict=strict)
    return ep


def default_name(source) -> str:
    if isinstance(source, str):
        return os.path.basename(source).split(".")[0]
    return "model"
