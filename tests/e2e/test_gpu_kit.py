"""The device kit (tools/gpu_kit, `make gpu-kit`): a small kit (five conformance cases and one
benchmark at its --smoke size) built, and its run.sh run as on a GPU machine but through the
CUDA driver double: the table must say every case is correct and the benchmark timed, and a
corrupted expected output must show as wrong."""
import os
import re
import subprocess
import sys

import numpy as np
import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# f32 with a tolerance, integers exactly, bf16, a 0-d argument, complex infinities and NaNs
CASES = ["acos_f32", "argsort_stable_ties", "bf16_softmax", "cond_true_branch", "complex_special_values_c64"]


@pytest.fixture(scope="module")
def kit(tmp_path_factory):
    out = tmp_path_factory.mktemp("kit")
    kit, double = out / "gpu-kit", out / "double"
    r = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "gpu_kit", "build.py"), "--out", str(kit),
                        "--double", str(double), "--cases", ",".join(CASES), "--benchmarks", "softmax",
                        "--smoke", "--no-tar"], capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stdout + r.stderr
    return kit, double


def run_kit(kit, double, *names):
    sys.path.insert(0, os.path.join(ROOT, "tests"))
    from tooling.gpu_emu import double_library
    env = dict(os.environ, AOT_CUDA_LIBRARY=double_library(), AOT_CUDA_DOUBLE_KERNELS=str(double))
    return subprocess.run(["bash", str(kit / "run.sh"), *names], capture_output=True, text=True, env=env,
                          timeout=300)


def test_run_sh_passes_against_the_driver_double(kit):
    r = run_kit(*kit)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "summary: 6 correct, 0 wrong, 0 errors; 1 benchmarks timed" in r.stdout, r.stdout
    row = next(line for line in r.stdout.splitlines() if line.startswith("bench_softmax"))
    measured, predicted, floor = row.split()[2:5]
    assert float(measured) > 0 and float(predicted) > float(floor) > 0, row  # the floor has no launch cost
    manifest = (kit[0] / "cases" / "bench_softmax" / "manifest.txt").read_text()
    assert re.search(r"^predict H100 [\d.]+ [\d.]+$", manifest, re.M), manifest


def test_a_wrong_result_is_reported(kit):
    expected = kit[0] / "cases" / "acos_f32" / "w0.bin"
    want = np.fromfile(expected, np.float32)
    bad = want.copy()
    bad[1] += 0.01
    bad.tofile(expected)
    try:
        r = run_kit(*kit, "acos_f32")
    finally:
        want.tofile(expected)
    assert r.returncode == 1
    assert re.search(r"^acos_f32 +wrong .*element 1 off by", r.stdout, re.M), r.stdout
