"""ptxas for the tests: the compiler's own finder (lowering/codegen/cuda/ptxas.py)."""
from lowering.codegen.cuda.ptxas import assemble, find_ptxas  # noqa: F401


def ptxas(ptx_path: str, arch: str):
    return assemble(ptx_path, arch)
