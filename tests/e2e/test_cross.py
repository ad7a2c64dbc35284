"""Cross-compilation: `--target-triple` for another CPU builds the whole artifact for it (the
runtime by a C compiler for that CPU), or fails before any work saying which compiler to
install. Cross-built programs run under qemu-user and their numbers are compared: the packed
matmul on shapes that cut the target's tiles, and conformance cases against JAX's outputs.

`make test` runs a fixed sample of the corpus; `make test-cross` (AOTC_CROSS_CORPUS=all) all
of it. Without the cross tools these tests skip, naming the packages (`make cross-tools`);
with AOTC_REQUIRE_CROSS set, as in CI, they fail instead."""
from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest

from aot.toolchain import Toolchain, ToolchainError, arch_of, check_one_machine, host_triple
from codegen.test_gemm import MATMUL, program
from e2e.test_conformance import CASES, CONF, UNSUPPORTED_OPS, _compare, unsupported_op
from tooling.cross import CROSS, build, call, require

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MLP = os.path.join(ROOT, "examples", "mlp.mlir")
ELF_MACHINE = {"aarch64": 183, "riscv64": 243, "x86_64": 62}
# A triple that is not this machine's, for the tests that need no cross tools.
OTHER = "aarch64-unknown-linux-gnu" if arch_of(host_triple()) != "aarch64" else "x86_64-unknown-linux-gnu"

ADD = """func.func @main(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.add %a, %b : tensor<4xf32>
  return %0 : tensor<4xf32>
}"""


def aotc(*args, env=None):
    env = dict(env or os.environ, PYTHONPATH=ROOT)
    return subprocess.run([sys.executable, "-m", "aot.cli", "compile", *args], capture_output=True,
                          text=True, env=env)


# ------------------------------------------------------------------ errors (no tools needed)

def test_missing_cross_compiler_is_named_before_any_work(tmp_path):
    """No compiler for the target: one line naming the package, before the input is even
    parsed (this one is not MLIR at all), and nothing written."""
    bad = tmp_path / "broken.mlir"
    bad.write_text("this is not MLIR\n")
    env = {k: v for k, v in os.environ.items() if k not in ("CC", "AR")}
    env["PATH"] = str(tmp_path / "empty-bin")
    out = tmp_path / "out"
    for emit in ("shared", "static", "obj"):
        proc = aotc(str(bad), "--target-triple", OTHER, "--emit", emit, "-o", str(out / "x"), env=env)
        assert proc.returncode == 1
        package = "gcc-" + OTHER.replace("-unknown", "").replace("_", "-")
        assert proc.stderr == (f"aotc: error: no C compiler for {OTHER}: install {package} "
                               "(Debian/Ubuntu) or pass --cc\n")
    assert not out.exists()
    # text and assembly need no C compiler
    good = tmp_path / "add.mlir"
    good.write_text(ADD)
    proc = aotc(str(good), "--target-triple", OTHER, "--emit", "asm", "-o", str(out / "add.s"), env=env)
    assert proc.returncode == 0, proc.stderr


def test_a_compiler_for_the_wrong_cpu_is_refused(tmp_path):
    """--cc (or $CC for this machine) that builds for another CPU: an error naming both."""
    good = tmp_path / "add.mlir"
    good.write_text(ADD)
    fake = tmp_path / "fake-cc"  # says it builds for the other CPU, and would fail to compile
    fake.write_text(f"#!/bin/sh\n[ \"$1\" = -dumpmachine ] && echo {OTHER} && exit 0\nexit 1\n")
    fake.chmod(0o755)
    proc = aotc(str(good), "--cc", str(fake), "-o", str(tmp_path / "libadd.so"))
    assert proc.returncode == 1
    assert proc.stderr == (f"aotc: error: --cc {fake} builds for {OTHER}, not {host_triple()}\n")
    proc = aotc(str(good), "-o", str(tmp_path / "libadd.so"), env=dict(os.environ, CC=str(fake)))
    assert proc.returncode == 1
    assert proc.stderr.startswith(f"aotc: error: CC={fake} builds for {OTHER}, not this machine")
    proc = aotc(str(good), "--emit", "shared", "--no-runtime", "-o", str(tmp_path / "libadd.so"))
    assert proc.stderr == "aotc: error: --no-runtime needs --emit obj (the model's object alone)\n"
    assert not (tmp_path / "libadd.so").exists()


@pytest.mark.parametrize("triple, message", [
    ("foo-bar-baz", "unknown target triple 'foo-bar-baz'"),
    ("armv7-unknown-linux-gnueabihf", "has 32-bit pointers: only 64-bit CPUs are supported"),
])
def test_triples_that_cannot_work_are_refused_first(tmp_path, triple, message):
    from aot.driver import Compilation, Options
    from lowering.ir.core import CompileError
    with pytest.raises(CompileError, match=message):
        Compilation(ADD, "add.mlir", Options(emit="obj", target_triple=triple)).build(
            str(tmp_path / "add.o"))
    assert not os.listdir(tmp_path)


def _elf(path, machine: int) -> str:
    """A file that starts as a 64-bit little-endian relocatable ELF object for `machine`."""
    head = b"\x7fELF" + bytes([2, 1, 1]) + bytes(9) + (1).to_bytes(2, "little")
    path.write_bytes(head + machine.to_bytes(2, "little") + bytes(44))
    return str(path)


def test_objects_for_two_machines_are_never_put_together(tmp_path):
    """The guard before every link, archive and merge: an aarch64 model with an x86-64
    runtime (what `--emit static` silently made before) is an error."""
    tc = Toolchain(cc=("cc",), machine="x86_64-linux-gnu", ar="ar")
    model = _elf(tmp_path / "mlp.model.o", ELF_MACHINE["aarch64"])
    runtime = _elf(tmp_path / "alloc.o", ELF_MACHINE["x86_64"])
    with pytest.raises(ToolchainError, match="alloc.o is for x86_64 but the model is for aarch64: "
                                             "the runtime was built with cc"):
        check_one_machine([model, runtime], tc)
    check_one_machine([model, _elf(tmp_path / "tensor.o", ELF_MACHINE["aarch64"])], tc)


def test_loading_a_library_for_another_cpu_says_so(tmp_path):
    import aot
    other = "aarch64" if arch_of(host_triple()) != "aarch64" else "x86_64"
    so = _elf(tmp_path / "libmlp.so", ELF_MACHINE[other])
    with pytest.raises(OSError, match=f"built for {other}, not for this machine .*qemu-user"):
        aot.load(so)


# ------------------------------------------------------------------ artifacts (cross tools)

def _ar_members(path):
    """(name, bytes) of each member of an ar archive (its index and name table left out)."""
    with open(path, "rb") as f:
        data = f.read()
    assert data[:8] == b"!<arch>\n"
    pos = 8
    while pos + 60 <= len(data):
        name = data[pos:pos + 16].decode().strip()
        name = name[:-1] if name.endswith("/") and name not in ("/", "//") else name  # GNU
        size = int(data[pos + 48:pos + 58])
        body = data[pos + 60:pos + 60 + size]
        pos += 60 + size + (size & 1)
        if name not in ("/", "//", "/SYM64/"):
            yield name, body


@pytest.mark.parametrize("arch", ["aarch64", "riscv64"])
def test_every_object_of_an_artifact_is_for_the_target(tmp_path, arch):
    from aot.driver import Compilation, Options
    from aot.toolchain import elf_machine
    cross = require(arch)
    want = ELF_MACHINE[arch]
    for emit, name in (("static", "libadd.a"), ("shared", "libadd.so"), ("obj", "add.o")):
        out = str(tmp_path / name)
        Compilation(ADD, "add.mlir", Options(name="add", emit=emit, target_triple=cross.triple)).build(out)
        if emit == "static":
            members = dict(_ar_members(out))
            assert {"alloc.o", "error.o", "tensor.o", "threadpool.o"} <= set(members)
            for member, body in members.items():
                assert body[:4] == b"\x7fELF" and int.from_bytes(body[18:20], "little") == want, member
        else:
            assert elf_machine(out) == want


# The packed matmul on the target's own blocking (8x12 f32 and 6x8 f64 tiles on aarch64, a
# one-lane 4x4 tile on rv64gc): shapes that cut register tiles, task tiles and K blocks (256).
MATMUL_SHAPES = [(1, 1, 1), (8, 300, 12), (7, 13, 11), (17, 513, 25), (130, 260, 250)]


@pytest.mark.parametrize("arch", ["aarch64", "riscv64"])
@pytest.mark.parametrize("elem", ["f32", "f64"])
@pytest.mark.parametrize("rhs", ["row_major", "transposed"])
def test_packed_matmul_under_qemu(tmp_path, arch, elem, rhs):
    cross = require(arch)
    dims = MATMUL if rhs == "row_major" else "contracting_dims = [1] x [1]"
    name = f"mm_{elem}_{rhs}"
    exe = build(program(["?", "?"], ["?", "?"], ["?", "?"], dims, elem), "mm.mlir", name, cross,
                str(tmp_path))
    rng = np.random.default_rng(7)
    dt = np.float32 if elem == "f32" else np.float64
    for m, k, n in MATMUL_SHAPES:
        a = rng.standard_normal((m, k)).astype(dt)
        b = rng.standard_normal((k, n) if rhs == "row_major" else (n, k)).astype(dt)
        want = a.astype(np.float64) @ (b if rhs == "row_major" else b.T).astype(np.float64)
        one, = call(cross, exe, [a, b], str(tmp_path), threads=1)
        two, = call(cross, exe, [a, b], str(tmp_path), threads=2)
        tol = 1e-4 if elem == "f32" else 1e-12
        assert one.dtype == dt and one.shape == (m, n)
        np.testing.assert_allclose(one, want, rtol=tol, atol=tol * np.sqrt(k), err_msg=f"{m}x{k}x{n}")
        np.testing.assert_array_equal(one, two)  # tiles do not depend on the thread count


@pytest.mark.parametrize("arch", ["aarch64", "riscv64"])
@pytest.mark.parametrize("kind, strides", [("direct", (1, 2)), ("winograd", (1, 1))])
def test_direct_convolution_under_qemu(tmp_path, arch, kind, strides):
    """The direct convolution (aot.conv) with each target's tile: 48 output features are
    whole panels of 12 (AArch64) and 4 (rv64gc); padding cuts window rows and columns. At
    stride 1 the 3x3 window runs as Winograd's (MR tiles of 8 and 4, vectors of 4 and 1)."""
    from conv_reference import conv_text, np_conv
    from lowering.frontend.parser import parse_module
    from lowering.frontend.printer import print_module
    from lowering.passes.pipeline import run_pipeline
    from lowering.target import host_target
    cross = require(arch)
    dn = ((0, 3, [1, 2]), (2, 3, [0, 1]), (0, 3, [1, 2]))
    rng = np.random.default_rng(3)
    x = rng.uniform(-1, 1, (2, 7, 9, 16)).astype(np.float32)
    w = rng.uniform(-1, 1, (3, 3, 16, 48)).astype(np.float32)
    want = np_conv(x, w, dn, strides, ((1, 1), (2, 0)), (1, 1), (1, 1), (False, False), 1, 1)
    text = conv_text(x.shape, w.shape, want.shape, dn, strides, ((1, 1), (2, 0)), (1, 1), (1, 1),
                     (False, False), 1, 1)
    loops = print_module(run_pipeline(parse_module(text, "conv.mlir"), "loops",
                                      target=host_target(cross.triple)))
    assert ("winograd = true" in loops) == (kind == "winograd")
    exe = build(text, "conv.mlir", f"{kind}_conv", cross, str(tmp_path))
    results = []
    for threads in (1, 2):
        got, = call(cross, exe, [x, w], str(tmp_path), threads=threads)
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)
        results.append(got)
    np.testing.assert_array_equal(*results)


# ------------------------------------------------------------------ the conformance corpus

# A fixed sample for `make test`: matmuls (plain, batched and transposed, attention, im2col
# convolution, f16), every float width, loops, sort, scatter, gather, integer ops, complex
# numbers (their {re, im} structs in registers, special values).
SAMPLE = {
    "aarch64": ["model_mlp", "model_transformer_block", "model_attention_single_head",
                "dot_general_batched_transposed", "conv2d_nhwc_same", "f16_matmul", "bf16_softmax",
                "lgamma_f64", "model_lstm_scan", "while_newton_converge", "sort_key_value",
                "scatter_add_duplicates", "gather_take_rows", "elementwise_int_mix",
                "jnp_unique_fixed_size", "reduce_window_sum_2x2", "complex_special_values_c64"],
    "riscv64": ["model_mlp", "dot_general_batched_transposed", "conv2d_nhwc_same",
                "conv2d_direct_resblock", "bf16_softmax",
                "lgamma_f64", "model_lstm_scan", "sort_key_value", "elementwise_int_mix",
                "complex_matmul_batched_c128"],
}
ALL = os.environ.get("AOTC_CROSS_CORPUS") == "all"


def test_sample_is_in_the_corpus():
    for arch, cases in SAMPLE.items():
        assert set(cases) <= set(CASES), arch


@pytest.mark.parametrize("arch, case", [(a, c) for a in CROSS for c in (CASES if ALL else SAMPLE[a])])
def test_conformance_under_qemu(tmp_path, arch, case):
    from corpus import load_case
    from lowering.ir.core import CompileError
    cross = require(arch)
    path = os.path.join(CONF, case + ".mlir")
    with open(path) as f:
        text = f.read()
    try:
        exe = build(text, path, case, cross, str(tmp_path))
    except CompileError as e:
        if unsupported_op(str(e)) in UNSUPPORTED_OPS:
            pytest.xfail(f"unsupported: {unsupported_op(str(e))}")
        raise
    args, want = load_case(os.path.join(CONF, case + ".npz"))
    _compare(case, call(cross, exe, args, str(tmp_path)), want)
