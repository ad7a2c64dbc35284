"""cmake/aotc.cmake and the aot_runtime.pc `aotc compile` writes: examples/cmake built by CMake
(aotc run at build time, the program linked through the target's usage requirements) and its
output compared with numpy; the same as a static archive, rebuilt when the .mlir changes;
pkg-config's flags from the .pc file."""
import os
import shutil
import subprocess
import sys

import numpy as np
import pytest

from e2e.test_c_link import EXAMPLES, ROOT

CMAKE = shutil.which("cmake")
needs_cmake = pytest.mark.skipif(CMAKE is None, reason="cmake is not installed (make cross-tools)")


def aotc_executable() -> str:
    for d in (os.path.dirname(sys.executable), os.path.join(ROOT, ".venv", "bin")):
        if os.path.isfile(os.path.join(d, "aotc")):
            return os.path.join(d, "aotc")
    pytest.skip("no aotc executable beside this Python or in .venv/bin (pip install -e .)")


def cmake_build(src: str, build: str) -> str:
    proc = subprocess.run([CMAKE, "-S", src, "-B", build, f"-DAOTC_EXECUTABLE={aotc_executable()}",
                           "-DCMAKE_C_FLAGS=-Wall -Wextra -Werror"], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    proc = subprocess.run([CMAKE, "--build", build], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return proc.stdout


def expected() -> np.ndarray:
    """examples/cmake/main.c's input through the MLP, in float64."""
    p = {k: v.astype(np.float64) for k, v in np.load(os.path.join(EXAMPLES, "mlp.npz")).items()}
    x = (np.arange(8 * 64) % 13).astype(np.float32).reshape(8, 64) / np.float32(13) - np.float32(0.5)
    h = np.maximum(x.astype(np.float64) @ p["W1"] + p["b1"], 0.0)
    z = np.tanh(h @ p["W2"] + p["b2"]) @ p["W3"] + p["b3"]
    e = np.exp(z - z.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def run_app(exe: str) -> np.ndarray:
    proc = subprocess.run([exe], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    return np.array([[float(v) for v in line.split()] for line in proc.stdout.splitlines()])


@needs_cmake
def test_cmake_example_shared(tmp_path):
    cmake_build(os.path.join(EXAMPLES, "cmake"), str(tmp_path))
    np.testing.assert_allclose(run_app(str(tmp_path / "mlp_app")), expected(), rtol=1e-4, atol=1e-6)
    assert (tmp_path / "aotc" / "mlp" / "libmlp.so").is_file()


@needs_cmake
def test_cmake_static_rebuilt_when_the_model_changes(tmp_path):
    src = tmp_path / "src"
    src.mkdir()
    shutil.copy(os.path.join(EXAMPLES, "mlp.mlir"), src / "model.mlir")
    shutil.copy(os.path.join(EXAMPLES, "cmake", "main.c"), src / "main.c")
    cmake_dir = os.path.join(ROOT, "cmake").replace("\\", "/")
    (src / "CMakeLists.txt").write_text(
        "cmake_minimum_required(VERSION 3.19)\nproject(t C)\n"
        f"include({cmake_dir}/aotc.cmake)\n"
        "aotc_add_library(model model.mlir NAME mlp STATIC)\n"
        "add_executable(app main.c)\ntarget_link_libraries(app PRIVATE model)\n")
    build = tmp_path / "build"
    log = cmake_build(str(src), str(build))
    assert "aotc: compiling" in log
    assert (build / "aotc" / "model" / "libmlp.a").is_file()
    np.testing.assert_allclose(run_app(str(build / "app")), expected(), rtol=1e-4, atol=1e-6)
    assert "aotc: compiling" not in cmake_build(str(src), str(build))  # up to date: no work
    # A changed model is compiled and linked again.
    (src / "model.mlir").write_text((src / "model.mlir").read_text() + "// changed\n")
    log = cmake_build(str(src), str(build))
    assert "aotc: compiling" in log and "Linking C executable app" in log


def test_pkg_config_file(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "aot.cli", "compile",
                           os.path.join(EXAMPLES, "mlp.mlir"), "-o", str(tmp_path / "libmlp.a"),
                           "--emit", "static"], capture_output=True, text=True,
                          env=dict(os.environ, PYTHONPATH=ROOT))
    assert proc.returncode == 0, proc.stderr
    from aot.version import COMPILER_VERSION
    text = (tmp_path / "aot_runtime.pc").read_text()
    assert f"prefix={tmp_path}\n" in text and f"Version: {COMPILER_VERSION}\n" in text
    assert "Cflags: -I${includedir}\n" in text and "-lm -lpthread -ldl" in text
    if shutil.which("pkg-config") is None:
        return
    env = dict(os.environ, PKG_CONFIG_PATH=str(tmp_path))
    flags = subprocess.run(["pkg-config", "--cflags", "--libs", "aot_runtime"], env=env,
                           capture_output=True, text=True, check=True).stdout.split()
    assert f"-I{tmp_path}" in flags and {"-lm", "-lpthread", "-ldl"} <= set(flags)
    version = subprocess.run(["pkg-config", "--modversion", "aot_runtime"], env=env,
                             capture_output=True, text=True, check=True).stdout.strip()
    assert version == COMPILER_VERSION
    # A C program built with just those flags and the archive.
    exe = str(tmp_path / "app")
    proc = subprocess.run([os.environ.get("CC", "cc"), os.path.join(EXAMPLES, "cmake", "main.c"),
                           "-o", exe, str(tmp_path / "libmlp.a"), *flags], capture_output=True,
                          text=True)
    assert proc.returncode == 0, proc.stderr
    np.testing.assert_allclose(run_app(exe), expected(), rtol=1e-4, atol=1e-6)
