"""aotc: an ahead-of-time compiler from HLO-family MLIR to native libraries.

    lib = aot.compile("model.mlir")      # build (cached) and load
    lib = aot.compile(exported)          # or a jax.export.Exported (its mlir_module())
    lib = aot.compile_jax(f, x, dynamic={"x": "b, 64"})   # or export with JAX and compile
    lib = aot.compile("model.pt2")       # a torch.export.save file (or an ExportedProgram)
    lib = aot.compile_torch(model, x, dynamic_shapes={"x": {0: Dim("b")}})  # export + compile
    y = lib.main(x)                      # numpy in, numpy out
    lib = aot.load("out/libmodel.so")    # load an artifact built by `aotc`

A file that does not load as an aotc library is an `aot.LoadError` (an OSError) saying why.
"""
from lowering.ir.core import CompileError

from .api import compile, compile_jax, compile_torch, load

__all__ = ["compile", "compile_jax", "compile_torch", "load", "CompileError", "LoadError"]


def __getattr__(name):
    if name == "LoadError":  # from the loader, imported on first use (it brings in cffi)
        from abi.loader import LoadError
        return LoadError
    raise AttributeError(f"module 'aot' has no attribute {name!r}")
