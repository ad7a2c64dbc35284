"""NVIDIA's PTX assembler, where one is installed (the nvidia-cuda-nvcc wheel, or on PATH): the
compiler never needs it to emit PTX; `--report` asks it for each kernel's registers and shared
memory, and the tests use it to prove the PTX assembles."""
from __future__ import annotations

import glob
import os
import re
import shutil
import subprocess
import sys


def find_ptxas() -> str | None:
    for root in (p for p in sys.path if p.endswith("site-packages")):
        found = sorted(glob.glob(os.path.join(root, "nvidia", "*", "bin", "ptxas")))
        if found:
            return found[-1]
    return shutil.which("ptxas")


def assemble(ptx_path: str, arch: str) -> subprocess.CompletedProcess:
    """`ptxas -arch=ARCH -v`: the return code, and per kernel its resources on stderr."""
    exe = find_ptxas()
    if exe is None:
        raise FileNotFoundError("ptxas not found: `pip install nvidia-cuda-nvcc` (make test "
                                "installs it with the test extras)")
    return subprocess.run([exe, f"-arch={arch}", "-v", ptx_path, "-o", os.devnull],
                          capture_output=True, text=True)


def resources(stderr: str) -> dict:
    """Kernel name -> (registers, shared memory bytes) from `ptxas -v`'s report."""
    out, current = {}, None
    for line in stderr.splitlines():
        m = (re.search(r"Function properties for (\S+)", line)
             or re.search(r"Compiling entry function '(\S+)'", line))
        if m:
            current = m.group(1)
        m = re.search(r"Used (\d+) registers(?:.*?(\d+) bytes smem)?", line)
        if m and current:
            out[current] = (int(m.group(1)), int(m.group(2) or 0))
    return out
