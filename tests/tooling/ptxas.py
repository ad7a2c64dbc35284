"""ptxas from the nvidia-cuda-nvcc wheel (a test dependency in pyproject.toml): the check
that NVIDIA's own assembler accepts our PTX, on a machine without a GPU."""
import glob
import os
import shutil
import subprocess
import sys


def find_ptxas() -> str:
    site = [p for p in sys.path if p.endswith("site-packages")]
    for root in site:
        found = sorted(glob.glob(os.path.join(root, "nvidia", "*", "bin", "ptxas")))
        if found:
            return found[-1]
    on_path = shutil.which("ptxas")
    if on_path:
        return on_path
    raise FileNotFoundError("ptxas not found: `pip install nvidia-cuda-nvcc` (make test installs "
                            "it with the test extras)")


def ptxas(ptx_path: str, arch: str) -> subprocess.CompletedProcess:
    """Assemble for `arch` (-v: registers and shared memory per kernel on stderr)."""
    return subprocess.run([find_ptxas(), f"-arch={arch}", "-v", ptx_path, "-o", os.devnull],
                          capture_output=True, text=True)
