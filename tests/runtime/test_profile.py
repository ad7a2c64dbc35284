"""AOT_PROFILE (runtime_c/profile.c): each kernel's calls and time, reported at exit to stderr
or to the file AOT_PROFILE names; nothing is timed or printed without it."""
import os
import re
import subprocess
import sys

import aot

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PROGRAM = """func.func @main(%x: tensor<?x64xf32>, %w: tensor<64x32xf32>) -> tensor<?x32xf32> {
  %e = stablehlo.exponential %x : tensor<?x64xf32>
  %d = stablehlo.dot_general %e, %w, contracting_dims = [1] x [0] : (tensor<?x64xf32>, tensor<64x32xf32>) -> tensor<?x32xf32>
  %t = stablehlo.tanh %d : tensor<?x32xf32>
  return %t : tensor<?x32xf32>
}"""  # noqa: E501
CALLS = """
import sys
import numpy as np
import aot
lib = aot.load(sys.argv[1])
for n in (1, 100, 7):
    lib.main(np.ones((n, 64), np.float32), np.ones((64, 32), np.float32))
"""


def _run(so, **env):
    return subprocess.run([sys.executable, "-c", CALLS, so], cwd=ROOT, capture_output=True,
                          text=True, env=dict(os.environ, **env), timeout=120)


def test_profile_counts_every_kernel_call(tmp_path):
    lib = aot.compile(PROGRAM, name="profiled", output_dir=str(tmp_path))
    quiet = _run(lib.path, AOT_PROFILE="0")
    assert quiet.returncode == 0 and "aot profile" not in quiet.stderr, quiet.stderr
    loud = _run(lib.path, AOT_PROFILE="1")
    assert loud.returncode == 0, loud.stderr
    lines = loud.stderr.splitlines()
    head = next(i for i, line in enumerate(lines) if line.startswith("aot profile: "))
    kernels = int(re.match(r"aot profile: (\d+) kernels", lines[head]).group(1))
    rows = [line.split() for line in lines[head + 2:head + 2 + kernels]]
    assert kernels >= 1 and all(int(r[1]) == 3 for r in rows), loud.stderr  # 3 calls each
    assert all(r[4].startswith("profiled.main_kernel_") for r in rows), loud.stderr
    assert abs(sum(float(r[3].rstrip("%")) for r in rows) - 100) < 1, loud.stderr
    report = tmp_path / "profile.txt"
    to_file = _run(lib.path, AOT_PROFILE=str(report))
    assert to_file.returncode == 0 and "aot profile" not in to_file.stderr
    assert report.read_text().startswith("aot profile: ")
