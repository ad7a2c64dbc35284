"""Compile-time work saved: identical kernels are compiled once (gen.identical_kernels), and
a module is cut into partitions that LLVM compiles in forked processes at the same time
(llvm/partition.py, machine.compile_objects), joined into one object whose symbols are the
single module's."""
import os
import re
import subprocess
import sys

import numpy as np
import pytest

import aot
from aot.driver import Compilation, Options, Partitions
from aot.toolchain import find_toolchain
from lowering.codegen.llvm import machine, partition
from lowering.ir.core import CompileError

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# Two identical layers (the same kernels but for their buffers), then a different one.
LAYERS = """func.func @main(%x: tensor<?x64xf32>, %w1: tensor<64x64xf32>, %w2: tensor<64x64xf32>,
                 %w3: tensor<64x16xf32>) -> tensor<?x16xf32> {
  %a = stablehlo.dot_general %x, %w1, contracting_dims = [1] x [0] : (tensor<?x64xf32>, tensor<64x64xf32>) -> tensor<?x64xf32>
  %b = stablehlo.tanh %a : tensor<?x64xf32>
  %c = stablehlo.dot_general %b, %w2, contracting_dims = [1] x [0] : (tensor<?x64xf32>, tensor<64x64xf32>) -> tensor<?x64xf32>
  %d = stablehlo.tanh %c : tensor<?x64xf32>
  %e = stablehlo.dot_general %d, %w3, contracting_dims = [1] x [0] : (tensor<?x64xf32>, tensor<64x16xf32>) -> tensor<?x16xf32>
  %f = stablehlo.exponential %e : tensor<?x16xf32>
  return %f : tensor<?x16xf32>
}"""  # noqa: E501


def _inputs(n, rng=np.random.default_rng(0)):
    return [rng.standard_normal(s).astype(np.float32) * 0.2 for s in ((n, 64), (64, 64), (64, 64), (64, 16))]


def _want(x, w1, w2, w3):
    x, w1, w2, w3 = (a.astype(np.float64) for a in (x, w1, w2, w3))
    return np.exp(np.tanh(np.tanh(x @ w1) @ w2) @ w3)


@pytest.fixture
def partitioned(monkeypatch):
    """Every module big enough to share is cut in two, whatever this machine's cores."""
    monkeypatch.setattr(partition, "PARALLEL_MIN_WORK", 0)
    monkeypatch.setattr(machine, "parallel_jobs", lambda: 2)


def test_identical_kernels_are_compiled_once(tmp_path):
    comp = Compilation(LAYERS, "layers.mlir", Options(name="layers"))
    kernels = [f.attrs["sym_name"] for f in comp.loops().functions() if "aot.kernel" in f.attrs]
    _, text, _, _ = comp.llvm()
    defined = re.findall(r'define internal void @"layers\.(main_kernel_\d+)"\(', text)
    assert len(defined) < len(kernels), (defined, kernels)
    assert set(defined) < set(kernels)
    lib = aot.compile(LAYERS, name="layers", output_dir=str(tmp_path))
    for n in (1, 37):
        args = _inputs(n)
        np.testing.assert_allclose(lib.main(*args), _want(*args), rtol=2e-5, atol=1e-6)
    # the profile still names every call site's own kernel
    call = ("import sys, numpy as np, aot\nlib = aot.load(sys.argv[1])\n"
            "lib.main(*[np.ones(s, np.float32) for s in ((3, 64), (64, 64), (64, 64), (64, 16))])")
    run = subprocess.run([sys.executable, "-c", call, lib.path], cwd=ROOT, capture_output=True,
                         text=True, timeout=120, env=dict(os.environ, AOT_PROFILE="1"))
    assert run.returncode == 0, run.stderr
    profiled = set(re.findall(r"layers\.(main_kernel_\d+)", run.stderr))
    assert profiled == set(kernels), run.stderr


def test_partitions_keep_units_whole_and_host_first(partitioned):
    from lowering.codegen.llvm.gen import generate_parts
    comp = Compilation(LAYERS, "layers.mlir", Options(name="layers"))
    tm = machine.target_machine(comp.target)
    texts, hidden, _ = generate_parts(comp.loops(), "layers", tm, comp.target, 2)
    assert len(texts) == 2 and hidden
    defines = [set(re.findall(r'^define [^@]*@"([^"]+)"', t, re.M)) for t in texts]
    assert "layers_main" in defines[0] and not defines[0] & defines[1]
    everything = defines[0] | defines[1]
    for name in everything:  # a kernel's task and epilogues are where the kernel is
        base = name.split(".task")[0].split(".epilogue")[0]
        if base != name and base in everything:
            assert any({name, base} <= d for d in defines), name
    gemm = [d for d in defines if any(n.startswith("aot.gemm.") for n in d)]
    assert len(gemm) == 1  # the matmul's functions are one unit
    for t in texts:
        machine.optimize(t, tm)  # each is a whole module LLVM accepts


def test_only_functions_called_across_partitions_are_hidden(partitioned):
    """A function another partition calls (or takes the address of) is hidden; one only its
    own partition refers to stays internal, so LLVM drops it where it was inlined (the
    matmul's micro-kernels): after optimisation no partition defines one twice over."""
    from lowering.codegen.llvm.gen import generate_parts
    comp = Compilation(LAYERS, "layers.mlir", Options(name="layers"))
    tm = machine.target_machine(comp.target)
    texts, hidden, _ = generate_parts(comp.loops(), "layers", tm, comp.target, 2)
    defines = [{name: linkage.strip() for linkage, name in
                re.findall(r'^define (internal |hidden )?[^@]*@"([^"]+)"', t, re.M)} for t in texts]
    for i, d in enumerate(defines):
        others = "".join(t for j, t in enumerate(texts) if j != i)
        for name, linkage in d.items():
            if linkage in ("internal", "hidden"):
                called = re.search(rf'(call|ptrtoint)[^\n]*@"{re.escape(name)}"', others) is not None
                assert (linkage == "hidden") == called == (name in hidden), name
    micro = [n for d in defines for n in d if n.startswith("aot.gemm.") and "micro_kernel" in n]
    assert micro and not set(micro) & set(hidden)
    optimized = [{f.name for f in machine.optimize(t, tm).functions if not f.is_declaration}
                 for t in texts]
    assert not any(n in o for o in optimized for n in micro)  # inlined into the task, dropped


def test_partitioned_library_matches_and_exports_the_same_symbols(tmp_path, partitioned):
    comp = Compilation(LAYERS, "layers.mlir", Options(name="layers"))
    assert isinstance(comp.model()[1], Partitions)
    lib = aot.compile(LAYERS, name="layers", output_dir=str(tmp_path / "so"))
    for n in (2, 65):
        args = _inputs(n)
        np.testing.assert_allclose(lib.main(*args), _want(*args), rtol=2e-5, atol=1e-6)

    def symbols(jobs: int) -> set:
        out = tmp_path / f"j{jobs}"
        out.mkdir()
        c = Compilation(LAYERS, "layers.mlir", Options(name="layers", emit="obj"))
        if jobs == 1:
            c.can_partition = lambda: False
        c.build(str(out / "layers.o"))
        nm = subprocess.run(["nm", "-g", "--defined-only", str(out / "layers.o")],
                            capture_output=True, text=True, check=True).stdout
        return {line.split()[-1] for line in nm.splitlines() if line.strip()}
    single, parts = symbols(1), symbols(2)
    assert parts == single
    assert not any(s.startswith("aot.gemm") or ".main_kernel_" in s for s in parts)


def test_two_partitioned_models_link_into_one_program(tmp_path, partitioned):
    """Each model's shared internal functions are local again: two models with the same
    matmul helpers link side by side without duplicate symbols."""
    for name in ("first", "second"):
        Compilation(LAYERS, "layers.mlir", Options(name=name, emit="static")).build(
            str(tmp_path / f"lib{name}.a"))
    src = tmp_path / "main.c"
    src.write_text("#include <stdio.h>\nint first_main(void *, void *);\n"
                   "int second_main(void *, void *);\n"
                   "int main(void) { printf(\"%d\\n\", first_main != second_main); return 0; }\n")
    cc = find_toolchain().cc
    exe = tmp_path / "main"
    link = subprocess.run([*cc, str(src), str(tmp_path / "libfirst.a"), str(tmp_path / "libsecond.a"),
                           "-o", str(exe), "-lm", "-pthread", "-ldl"], capture_output=True, text=True)
    assert link.returncode == 0, link.stderr
    assert subprocess.run([str(exe)], capture_output=True, text=True).stdout.strip() == "1"


def test_a_failing_partition_is_an_error(tmp_path):
    comp = Compilation(LAYERS, "layers.mlir", Options(name="layers"))
    tm = machine.target_machine(comp.target)
    good = comp.llvm()[1]
    with pytest.raises(CompileError, match="LLVM failed on a partition.*parsing error"):
        machine.compile_objects([good, "this is not LLVM IR"], tm,
                                [str(tmp_path / "a.o"), str(tmp_path / "b.o")])


def test_jobs_from_the_environment(monkeypatch):
    monkeypatch.setenv("AOTC_JOBS", "3")
    assert machine.parallel_jobs() == 3
    monkeypatch.setenv("AOTC_JOBS", "1")
    assert machine.parallel_jobs() == 1
    monkeypatch.setenv("AOTC_JOBS", "many")
    with pytest.raises(CompileError, match="AOTC_JOBS='many'"):
        machine.parallel_jobs()
