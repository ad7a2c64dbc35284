"""`aotc inspect`: an artifact's manifest read back from the file alone (never loaded), for
`.so`, `.a` and `.o`, for this machine and for others (big-endian, RISC-V, ELF32), GPU
builds, and a clear error with status 1 for a file that is no artifact."""
import json
import os
import subprocess
import sys

import pytest

from e2e.test_c_link import ROOT

PROGRAM = """
func.func public @main(%arg0: tensor<?x4xf32> {jax.arg_info = "x"}, %b: tensor<4xf32>)
    -> (tensor<?x4xf32> {jax.result_info = "result['y']"}) {
  %0 = stablehlo.multiply %arg0, %arg0 : tensor<?x4xf32>
  return %0 : tensor<?x4xf32>
}
func.func public @halve(%v: tensor<3xf64>) -> tensor<3xf64> {
  %0 = stablehlo.add %v, %v : tensor<3xf64>
  return %0 : tensor<3xf64>
}
"""
ARTIFACTS = {"shared": "libprog.so", "static": "libprog.a", "obj": "prog.o"}


def aotc(*args):
    return subprocess.run([sys.executable, "-m", "aot.cli", *args], capture_output=True,
                          text=True, env=dict(os.environ, PYTHONPATH=ROOT))


@pytest.fixture(scope="module")
def program(tmp_path_factory):
    path = tmp_path_factory.mktemp("inspect") / "prog.mlir"
    path.write_text(PROGRAM)
    return str(path)


def build(program, out, emit, *options):
    path = str(out / ARTIFACTS[emit])
    r = aotc("compile", program, "--name", "prog", "--emit", emit, "-o", path, *options)
    assert r.returncode == 0, r.stderr
    return path


@pytest.mark.parametrize("emit, kind", [("shared", "ELF64 x86-64 shared object"),
                                        ("static", "static archive of ELF64 x86-64 objects"),
                                        ("obj", "ELF64 x86-64 relocatable object")])
def test_inspect_each_artifact_kind(program, tmp_path, emit, kind):
    if os.uname().machine != "x86_64":
        pytest.skip("the expected text names x86-64")
    path = build(program, tmp_path, emit)
    r = aotc("inspect", path)
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines[0] == f"{path}: {kind}"
    body = lines[2:] if emit == "static" else lines[1:]
    if emit == "static":
        assert lines[1] == "member prog.model.o:"
    from aot.api import COMPILER_VERSION
    assert body[0] == f"artifact:       prog ({emit})"
    assert body[1].startswith(f"compiler:       aotc {COMPILER_VERSION} (sources ")
    assert body[2:4] == ["ABI version:    1", "target triple:  x86_64-unknown-linux-gnu"]
    assert body[5:] == [
        "GPU kernels:    no",
        "entries:        2",
        "  prog_main: main(x: f32[?,4], b: f32[4]) -> (result['y']: f32[?,4])",
        "    shape query prog_main_output_shapes",
        "  prog_halve: halve(v: f64[3]) -> (f64[3])",
        "    shape query prog_halve_output_shapes",
    ]
    info = json.loads(aotc("inspect", "--json", path).stdout)
    assert info["name"] == "prog" and info["abi_version"] == 1 and info["gpu_kernels"] is False
    assert info["entries"][0]["args"][0] == {"name": "arg0", "label": "x", "dtype": "f32",
                                             "dims": [-1, 4]}
    assert [e["symbol"] for e in info["entries"]] == ["prog_main", "prog_halve"]


@pytest.mark.parametrize("triple, kind", [
    ("aarch64-linux-gnu", "ELF64 AArch64 relocatable object"),
    ("riscv64-linux-gnu", "ELF64 RISC-V relocatable object"),
    ("powerpc64-linux-gnu", "ELF64 PowerPC64 relocatable object"),  # big-endian
])
def test_inspect_artifacts_for_other_machines(program, tmp_path, triple, kind):
    # --no-runtime: the model's object alone, which needs no cross compiler to build
    path = build(program, tmp_path, "obj", "--target-triple", triple, "--no-runtime")
    r = aotc("inspect", path)
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines()[0] == f"{path}: {kind}"
    assert f"target triple:  {triple}" in r.stdout
    assert "target CPU:     generic" in r.stdout or triple.startswith("riscv")


def test_inspect_reads_elf32(tmp_path):
    """aotc builds for 64-bit pointers only, so an ELF32 object with a manifest is made here
    by LLVM directly: the reader's 32-bit headers."""
    from llvmlite import binding as llvm
    from llvmlite import ir

    from aot.manifest import SECTION, encode
    from lowering.codegen.llvm.machine import _init_llvm
    _init_llvm()
    info = {"name": "tiny", "emit": "obj", "abi_version": 1, "compiler": "aotc test",
            "target_triple": "i686-linux-gnu", "entries": []}
    blob = encode(info)
    m = ir.Module(name="tiny")
    m.triple = "i686-linux-gnu"
    g = ir.GlobalVariable(m, ir.ArrayType(ir.IntType(8), len(blob)), name="tiny_aot_manifest")
    g.global_constant, g.section = True, SECTION
    g.initializer = ir.Constant(g.value_type, bytearray(blob))
    tm = llvm.Target.from_triple(m.triple).create_target_machine()
    path = tmp_path / "tiny.o"
    path.write_bytes(tm.emit_object(llvm.parse_assembly(str(m))))
    r = aotc("inspect", str(path))
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines()[:2] == [f"{path}: ELF32 i386 relocatable object",
                                         "artifact:       tiny (obj)"]
    assert json.loads(aotc("inspect", "--json", str(path)).stdout) == info


def test_inspect_gpu_artifact(program, tmp_path):
    r = aotc("inspect", build(program, tmp_path, "obj", "--target", "cuda,cpu", "--gpu-arch", "sm_90"))
    assert r.returncode == 0, r.stderr
    assert ("GPU kernels:    yes, PTX for sm_90, and CPU kernels (the GPU when the machine has one)"
            in r.stdout)
    assert "shape query prog_main_output_shapes; device entry prog_main_device" in r.stdout


def test_inspect_rejects_what_is_no_artifact(program, tmp_path):
    r = aotc("inspect", program)
    assert r.returncode == 1
    assert r.stderr == (f"aotc: error: {program}: not an aotc artifact (neither an ELF object "
                        "nor an archive, and no aotc manifest inside)\n")
    src = tmp_path / "plain.c"
    src.write_text("int plain(void) { return 1; }\n")
    obj = tmp_path / "plain.o"
    subprocess.run(["cc", "-c", str(src), "-o", str(obj)], check=True)
    r = aotc("inspect", str(obj))
    assert r.returncode == 1 and "not an aotc artifact: an ELF" in r.stderr
    assert "relocatable object without aotc's .aot_manifest section" in r.stderr
    subprocess.run(["ar", "rcs", str(tmp_path / "libplain.a"), str(obj)], check=True)
    r = aotc("inspect", str(tmp_path / "libplain.a"))
    assert r.returncode == 1 and "not an aotc artifact: a static archive of ELF" in r.stderr
    (tmp_path / "short.so").write_bytes(b"\x7fELF\x02\x01")
    r = aotc("inspect", str(tmp_path / "short.so"))
    assert r.returncode == 1 and r.stderr.startswith(f"aotc: error: {tmp_path / 'short.so'}: ")
    assert "Traceback" not in r.stderr
    r = aotc("inspect", str(tmp_path / "missing.so"))
    assert r.returncode == 2 and "no such file" in r.stderr
