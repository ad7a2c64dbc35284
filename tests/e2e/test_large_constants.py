"""Big constants (frozen weights) reach the artifact as their own object (`.incbin` assembled
by the target's C compiler, aot/driver.py `data_objects`) instead of LLVM IR: the values
are the constant's, the symbols stay hidden, and small constants and `--emit llvm` keep
them in the LLVM module."""
import os
import subprocess
import sys

import numpy as np

import aot
from aot.driver import EXTERNAL_DATA_BYTES, Compilation, Options

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
W = np.random.default_rng(0).standard_normal((256, 96)).astype(np.float32)  # 96 KiB
SMALL = np.arange(8, dtype=np.int32)
TEXT = f"""func.func @main(%x: tensor<3x256xf32>, %i: tensor<8xi32>) -> (tensor<3x96xf32>, tensor<8xi32>) {{
  %w = stablehlo.constant dense<"0x{W.tobytes().hex()}"> : tensor<256x96xf32>
  %s = stablehlo.constant dense<"0x{SMALL.tobytes().hex()}"> : tensor<8xi32>
  %y = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<3x256xf32>, tensor<256x96xf32>) -> tensor<3x96xf32>
  %t = stablehlo.add %i, %s : tensor<8xi32>
  return %y, %t : tensor<3x96xf32>, tensor<8xi32>
}}"""  # noqa: E501


def test_values_and_hidden_symbols(tmp_path):
    assert W.nbytes >= EXTERNAL_DATA_BYTES > SMALL.nbytes
    lib = aot.compile(TEXT, name="frozen", output_dir=str(tmp_path))
    x = np.random.default_rng(1).standard_normal((3, 256)).astype(np.float32)
    y, t = lib.main(x, np.ones(8, np.int32))
    np.testing.assert_allclose(y, x.astype(np.float64) @ W, rtol=1e-4, atol=1e-4)
    np.testing.assert_array_equal(t, SMALL + 1)
    dynamic = subprocess.run(["nm", "-D", "--defined-only", str(tmp_path / "libfrozen.so")],
                             capture_output=True, text=True).stdout
    assert "frozen." not in dynamic  # the data's symbol is not exported


def test_only_binary_artifacts_take_the_data_out_of_llvm(tmp_path):
    comp = Compilation(TEXT, "frozen.mlir", Options(name="frozen", emit="llvm"))
    assert comp.external_data() == []
    llvm_text = comp.build(str(tmp_path / "frozen.ll"))["text"]
    assert "external constant" not in open(llvm_text).read()
    comp = Compilation(TEXT, "frozen.mlir", Options(name="frozen", emit="obj"))
    assert len(comp.external_data()) == 1  # the 96 KiB one; the 32-byte one stays in LLVM IR
    obj = comp.build(str(tmp_path / "frozen.o"))["obj"]
    sections = subprocess.run(["readelf", "-S", "-W", obj], capture_output=True, text=True).stdout
    assert ".rodata.aot_data" in sections


def test_cli_static_archive_links_into_a_c_program(tmp_path):
    """The archive carries the data object: a C program linked against it gets the values."""
    src = tmp_path / "frozen.mlir"
    src.write_text(TEXT)
    r = subprocess.run([sys.executable, "-m", "aot.cli", "compile", str(src), "--emit", "static",
                        "-o", str(tmp_path / "libfrozen.a")], cwd=ROOT, capture_output=True,
                       text=True)
    assert r.returncode == 0, r.stderr
    members = subprocess.run(["ar", "t", str(tmp_path / "libfrozen.a")], capture_output=True,
                             text=True).stdout.split()
    assert any(m.startswith("data") for m in members), members
