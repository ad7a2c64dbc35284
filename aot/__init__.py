"""aotc: an ahead-of-time compiler from HLO-family MLIR to native libraries.

    lib = aot.compile("model.mlir")      # build (cached) and load
    y = lib.main(x)                      # numpy in, numpy out
    lib = aot.load("out/libmodel.so")    # load an artifact built by `aotc`
"""
from lowering.ir.core import CompileError

from .api import compile, load

__all__ = ["compile", "load", "CompileError"]
