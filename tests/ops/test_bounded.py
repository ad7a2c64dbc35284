"""Bounded dynamism (lowering/ops/bounded.py): `?` dims with bounds in the type's encoding,
both spellings, checked against arguments on every call; set_dimension_size against numpy;
malformed bounds and sizes out of range are named errors."""
import numpy as np
import pytest

import aot
from abi import AotRuntimeError
from lowering.ir.core import CompileError

STABLEHLO = """func.func @main(%x: tensor<?x4xf32, #stablehlo.bounds<8, ?>>, %n: tensor<i32>) -> tensor<?x4xf32, #stablehlo.bounds<8, ?>> {
  %0 = stablehlo.add %x, %x : tensor<?x4xf32, #stablehlo.bounds<8, ?>>
  %1 = stablehlo.set_dimension_size %0, %n, dim = 0 : (tensor<?x4xf32, #stablehlo.bounds<8, ?>>, tensor<i32>) -> tensor<?x4xf32, #stablehlo.bounds<8, ?>>
  return %1 : tensor<?x4xf32, #stablehlo.bounds<8, ?>>
}"""  # noqa: E501
MHLO = (STABLEHLO.replace("#stablehlo.bounds<8, ?>", "#mhlo.type_extensions<bounds = [8, ?]>")
        .replace("stablehlo.", "mhlo."))


@pytest.mark.parametrize("text", [STABLEHLO, MHLO], ids=["stablehlo", "mhlo"])
def test_bounded_arguments_and_set_dimension_size(text):
    lib = aot.compile(text, name="bounded")
    assert str(lib.main.signature) == "main(x: f32[?,4], n: i32[]) -> (f32[?,4])"
    x = np.arange(32, dtype=np.float32).reshape(8, 4)
    for rows, n in ((8, 8), (8, 3), (5, 0), (1, 1)):
        np.testing.assert_array_equal(lib.main(x[:rows], np.int32(n)), 2 * x[:n])
    with pytest.raises(AotRuntimeError, match=r"argument #0 \(%x\) dim 0 exceeds its bound \(9 vs 8\)"):
        lib.main(np.zeros((9, 4), np.float32), np.int32(1))
    with pytest.raises(AotRuntimeError, match=r"the size of dim 0 exceeds the operand's \(6 vs 5\)"):
        lib.main(x[:5], np.int32(6))
    with pytest.raises(AotRuntimeError, match="the size of dim 0 is negative"):
        lib.main(x[:5], np.int32(-1))


@pytest.mark.parametrize("encoding, message", [
    ("#stablehlo.bounds<8>", "do not give one bound or \\? per dim"),
    ("#stablehlo.bounds<8, x>", "do not give one bound or \\? per dim"),
    ("#stablehlo.other<8>", "tensor encoding '#stablehlo.other<8>' is not supported"),
])
def test_malformed_bounds_are_located_errors(encoding, message):
    t = f"tensor<?x4xf32, {encoding}>"
    text = f"func.func @main(%x: {t}) -> {t} {{\n  return %x : {t}\n}}"
    with pytest.raises(CompileError, match=message) as e:
        aot.compile(text, name="bounded_bad")
    assert e.value.loc.line == 1


def test_set_dimension_size_dim_out_of_range():
    text = """func.func @main(%x: tensor<8xf32>, %n: tensor<i32>) -> tensor<?xf32> {
  %0 = stablehlo.set_dimension_size %x, %n, dim = 1 : (tensor<8xf32>, tensor<i32>) -> tensor<?xf32>
  return %0 : tensor<?xf32>
}"""
    with pytest.raises(CompileError, match="dimension 1 out of range"):
        aot.compile(text, name="sds_bad")


TF_WHERE = """func.func @main(%x: tensor<?x2xi64, #stablehlo.bounds<12, ?>>) -> tensor<?x2xi64> {
  %0 = tensor.cast %x : tensor<?x2xi64, #stablehlo.bounds<12, ?>> to tensor<?x2xi64>
  %1 = stablehlo.add %0, %0 : tensor<?x2xi64>
  return %1 : tensor<?x2xi64>
}"""

NARROWING = """func.func @main(%x: tensor<?x2xf32>, %y: tensor<3x?xf32>) -> (tensor<3x2xf32>, tensor<?x?xf32>) {
  %0 = tensor.cast %x : tensor<?x2xf32> to tensor<3x2xf32>
  %1 = tensor.cast %y : tensor<3x?xf32> to tensor<?x?xf32, #stablehlo.bounds<?, 4>>
  %2 = stablehlo.negate %1 : tensor<?x?xf32, #stablehlo.bounds<?, 4>>
  %3 = tensor.cast %2 : tensor<?x?xf32, #stablehlo.bounds<?, 4>> to tensor<?x?xf32>
  return %0, %3 : tensor<3x2xf32>, tensor<?x?xf32>
}"""  # noqa: E501


def test_tensor_cast_between_static_dims_and_bounds(tmp_path):
    """Issue 31: TF's StableHLO export of tf.where casts a bounded type to an unbounded one;
    a cast that makes a dim static, or gives it a bound, is checked on the host."""
    lib = aot.compile(TF_WHERE, name="tf_where_cast", output_dir=str(tmp_path))
    x = np.arange(10, dtype=np.int64).reshape(5, 2)
    np.testing.assert_array_equal(lib.main(x), 2 * x)
    lib = aot.compile(NARROWING, name="narrowing_cast", output_dir=str(tmp_path))
    x, y = np.ones((3, 2), np.float32), np.arange(12, dtype=np.float32).reshape(3, 4)
    a, b = lib.main(x, y)
    np.testing.assert_array_equal(a, x)
    np.testing.assert_array_equal(b, -y)
    with pytest.raises(AotRuntimeError, match=r"'dhlo.cast' at <string>:2:8: dim 0 must be 3: 4 != 3"):
        lib.main(np.ones((4, 2), np.float32), y)
    with pytest.raises(AotRuntimeError, match=r"dim 1 exceeds its bound 4 \(5 vs 4\)"):
        lib.main(x, np.ones((3, 5), np.float32))


def test_tensor_cast_of_anything_else_is_a_located_error():
    text = """func.func @main(%x: tensor<?x2xf32>) -> tensor<?x2xf64> {
  %0 = tensor.cast %x : tensor<?x2xf32> to tensor<?x2xf64>
  return %0 : tensor<?x2xf64>
}"""
    with pytest.raises(CompileError, match="changes more than static dims and bounds") as info:
        aot.compile(text, name="bad_cast")
    assert info.value.loc.line == 2


@pytest.mark.parametrize("stage", ["hlo", "lhlo", "loops"])
def test_bounds_print_at_every_stage_and_read_back(tmp_path, stage):
    """The entry's argument bounds are printed with each stage (`--emit`), and a printed HLO
    stage compiled again keeps the check (they were a dict with integer keys: the printer
    failed on it)."""
    from aot.cli import main
    src = tmp_path / "bounded.mlir"
    src.write_text(STABLEHLO)
    out = tmp_path / f"bounded.{stage}.mlir"
    assert main(["compile", str(src), "--emit", stage, "-o", str(out)]) == 0
    assert "aot.arg_bounds = [array<i64: 0, 0, 8>]" in out.read_text()
    if stage == "hlo":
        lib = aot.compile(str(out), name="bounded_again", output_dir=str(tmp_path))
        x = np.ones((9, 4), np.float32)
        np.testing.assert_array_equal(lib.main(x[:8], np.int32(2)), 2 * x[:2])
        with pytest.raises(AotRuntimeError, match=r"argument #0 \(%.*\) dim 0 exceeds its bound \(9 vs 8\)"):
            lib.main(x, np.int32(1))
