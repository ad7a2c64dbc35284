"""PyTorch programs in: a `.pt2` file (torch.export.save), its bytes, or an
`ExportedProgram` (saved to bytes in memory, so every program takes the one route: the
archive read without torch, lowering/torch), as the mhlo text `aot.compile` takes.

Torch is imported only by `export_torch` (aot.compile_torch) and for an ExportedProgram
object's `torch.export.save`; a `.pt2` file compiles in a process that never imports it."""
from __future__ import annotations

import io
import os
import weakref

# The ExportedPrograms export_torch decomposed already (run_decompositions retraces the whole
# program: 10-70 s for ViT-B/16 here, not to be paid twice by aot.compile_torch).
_DECOMPOSED: weakref.WeakSet = weakref.WeakSet()

NEEDS_TORCH = ("aot.compile_torch needs PyTorch: pip install 'aotc[torch]' (torch==2.13.0, "
               "CPU); the compiler itself never does")


def is_exported_program(source) -> bool:
    return type(source).__name__ == "ExportedProgram" and hasattr(source, "graph_signature")


def is_pt2(source) -> bool:
    """A .pt2 path, or a .pt2 archive's bytes."""
    if isinstance(source, (bytes, bytearray)):
        return bytes(source[:2]) == b"PK"
    return isinstance(source, str) and "\n" not in source and source.endswith(".pt2")


def program_bytes(ep) -> bytes:
    """An ExportedProgram as torch.export.save writes it, core ATen ops first (a program
    still holding composite ops is decomposed)."""
    import torch
    buf = io.BytesIO()
    torch.export.save(ep if ep in _DECOMPOSED else ep.run_decompositions(), buf)
    return buf.getvalue()


def torch_to_mlir(source, name: str = "main", params_as_args: bool = False) -> tuple[str, str]:
    """(mhlo text, file name for messages) of a .pt2 path, its bytes or an ExportedProgram.
    The weights are not in the text: they reach the parser as the arrays read from the
    archive (print_module_source), not as 2 hex digits a byte printed and lexed again."""
    from lowering.frontend.printer import print_module_source
    from lowering.torch.archive import read_pt2
    from lowering.torch.lower import lower_program
    if is_exported_program(source):
        source, filename = program_bytes(source), "<ExportedProgram>"
    elif isinstance(source, (bytes, bytearray)):
        source, filename = bytes(source), "<pt2 bytes>"
    else:
        filename = source
    prog = read_pt2(source, filename)
    return print_module_source(lower_program(prog, name, params_as_args)), filename


def export_torch(model, example_args: tuple, dynamic_shapes=None, strict: bool = False):
    """torch.export.export(model, args, dynamic_shapes) decomposed to core ATen ops."""
    try:
        import torch
    except ImportError as e:
        raise ImportError(NEEDS_TORCH) from e
    if hasattr(model, "eval"):
        model = model.eval()
    with torch.no_grad():
        ep = torch.export.export(model, tuple(example_args), dynamic_shapes=dynamic_shapes,
                                 strict=strict)
    ep = ep.run_decompositions()
    _DECOMPOSED.add(ep)
    return ep


def default_name(source) -> str:
    if isinstance(source, str):
        return os.path.basename(source).split(".")[0]
    return "model"
