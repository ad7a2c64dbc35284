"""Parser and printer: round trips, the pretty forms JAX prints, attributes, and
errors located at file:line:col."""
import glob
import os

import numpy as np
import pytest

from lowering.frontend.parser import parse_file, parse_module
from lowering.frontend.printer import print_module
from lowering.ir.core import CompileError, DenseAttr, EnumAttr, TensorType

TESTS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ROOT = os.path.dirname(TESTS)
FILES = (sorted(glob.glob(os.path.join(TESTS, "data", "jax_ops", "*.mlir")))
         + [os.path.join(ROOT, "examples", "mlp.mlir")]
         + sorted(glob.glob(os.path.join(ROOT, "tests", "data", "*.mlir"))))


@pytest.mark.parametrize("path", FILES, ids=os.path.basename)
def test_round_trip(path):
    """print(parse(text)) is a fixed point: printing what was read back changes nothing."""
    first = print_module(parse_file(path))
    second = print_module(parse_module(first, "printed"))
    assert first == second


def only_op(text, name=None):
    module = parse_module(text)
    ops = [op for op in module.functions()[0].regions[0].blocks[0].ops if op.name != "func.return"
           and not op.name.endswith("return")]
    return ops if name is None else [o for o in ops if o.name == name][0]


def test_pretty_forms_decode_to_generic_attributes():
    text = """
    func.func @main(%a: tensor<3x4xf32>, %b: tensor<4x5xf32>, %c: tensor<f32>, %p: tensor<3x4xi1>) -> tensor<3x5xf32> {
      %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<3x4xf32>, tensor<4x5xf32>) -> tensor<3x5xf32>
      %1 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<f32>) -> tensor<3x4xf32>
      %2 = stablehlo.compare  GE, %a, %1,  FLOAT : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xi1>
      %3 = stablehlo.select %p, %a, %1 : tensor<3x4xi1>, tensor<3x4xf32>
      %4 = stablehlo.reduce(%a init: %c) applies stablehlo.add across dimensions = [1] : (tensor<3x4xf32>, tensor<f32>) -> tensor<3xf32>
      %5 = stablehlo.slice %a [0:3:2, 1:4] : (tensor<3x4xf32>) -> tensor<2x3xf32>
      %6 = stablehlo.pad %a, %c, low = [-1, 1], high = [2, 0], interior = [0, 1] : (tensor<3x4xf32>, tensor<f32>) -> tensor<4x8xf32>
      %7 = stablehlo.iota dim = 1 : tensor<3x4xf32>
      return %0 : tensor<3x5xf32>
    }"""  # noqa: E501
    ops = only_op(text)
    by_name = {op.name: op for op in ops}
    dot = by_name["stablehlo.dot_general"]
    assert dot.attrs["dot_dimension_numbers"]["lhs_contracting_dimensions"] == (1,)
    assert dot.attrs["dot_dimension_numbers"]["rhs_contracting_dimensions"] == (0,)
    assert by_name["stablehlo.broadcast_in_dim"].attrs["broadcast_dimensions"] == ()
    cmp = by_name["stablehlo.compare"]
    assert cmp.attrs["comparison_direction"] == EnumAttr("comparison_direction", "GE")
    assert cmp.results[0].type == TensorType((3, 4), "i1")
    assert by_name["stablehlo.select"].results[0].type == TensorType((3, 4), "f32")
    red = by_name["stablehlo.reduce"]
    assert red.attrs["dimensions"] == (1,) and len(red.regions) == 1
    assert [o.name for o in red.regions[0].blocks[0].ops] == ["stablehlo.add", "stablehlo.return"]
    sl = by_name["stablehlo.slice"]
    assert (sl.attrs["start_indices"], sl.attrs["limit_indices"], sl.attrs["strides"]) == \
        ((0, 1), (3, 4), (2, 1))
    pad = by_name["stablehlo.pad"]
    assert pad.attrs["edge_padding_low"] == (-1, 1) and pad.attrs["interior_padding"] == (0, 1)
    assert by_name["stablehlo.iota"].attrs["iota_dimension"] == 1


def test_dense_forms():
    text = """
    func.func @main() -> tensor<2xf32> {
      %0 = stablehlo.constant dense<"0x0000803F00000040"> : tensor<2xf32>
      %1 = stablehlo.constant dense<[0x7F800000, -0.000000e+00]> : tensor<2xf32>
      %2 = stablehlo.constant dense<[[true, false]]> : tensor<1x2xi1>
      %3 = stablehlo.constant dense<1.5> : tensor<2x3xbf16>
      %4 = stablehlo.constant dense<[1, 254]> : tensor<2xui8>
      %5 = stablehlo.constant dense<"0x003C"> : tensor<4xf16>
      return %0 : tensor<2xf32>
    }"""
    values = [op.attrs["value"] for op in only_op(text)]
    assert all(isinstance(v, DenseAttr) for v in values)
    np.testing.assert_array_equal(values[0].array, [1.0, 2.0])
    assert np.isinf(values[1].array[0]) and np.signbit(values[1].array[1])
    np.testing.assert_array_equal(values[2].array, [[True, False]])
    assert values[3].array.shape == (2, 3) and float(values[3].array[1, 2]) == 1.5
    np.testing.assert_array_equal(values[4].array, [1, 254])
    np.testing.assert_array_equal(values[5].array, np.ones(4, np.float16))


def test_large_hex_constant_is_one_array():
    n = 1 << 20
    data = np.arange(n, dtype=np.float32)
    text = (f'func.func @main() -> tensor<{n}xf32> {{\n  %0 = stablehlo.constant '
            f'dense<"0x{data.tobytes().hex()}"> : tensor<{n}xf32>\n  return %0 : tensor<{n}xf32>\n}}')
    value = only_op(text)[0].attrs["value"]
    np.testing.assert_array_equal(value.array, data)


def test_module_attributes_locations_and_multi_results():
    text = """#loc1 = loc("model.py":3:7)
    module @jit_f attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
      func.func public @main(%arg0: tensor<3x5xf32> {mhlo.layout_mode = "default"}) -> (tensor<3xf32> {jax.result_info = "result[0]"}, tensor<3xi32>) {
        %c = stablehlo.constant dense<0> : tensor<i32>
        %cst = stablehlo.constant dense<0xFF800000> : tensor<f32>
        %0 = stablehlo.iota dim = 1 : tensor<3x5xi32> loc(#loc1)
        %1:2 = stablehlo.reduce(%arg0 init: %cst), (%0 init: %c) across dimensions = [1] : (tensor<3x5xf32>, tensor<3x5xi32>, tensor<f32>, tensor<i32>) -> (tensor<3xf32>, tensor<3xi32>)
         reducer(%arg1: tensor<f32>, %arg3: tensor<f32>) (%arg2: tensor<i32>, %arg4: tensor<i32>)  {
          %2 = stablehlo.compare  GT, %arg1, %arg3,  FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
          %3 = stablehlo.select %2, %arg1, %arg3 : tensor<i1>, tensor<f32>
          %4 = stablehlo.select %2, %arg2, %arg4 : tensor<i1>, tensor<i32>
          stablehlo.return %3, %4 : tensor<f32>, tensor<i32>
        }
        return %1#0, %1#1 : tensor<3xf32>, tensor<3xi32>
      }
    }"""  # noqa: E501
    module = parse_module(text)
    assert module.name == "jit_f" and module.attrs["mhlo.num_partitions"] == 1
    func = module.functions()[0]
    assert func.attrs["res_attrs"][0] == {"jax.result_info": "result[0]"}
    red = [op for op in func.regions[0].blocks[0].ops if op.name == "stablehlo.reduce"][0]
    assert len(red.results) == 2
    # block arguments are ordered (accumulators..., inputs...), whatever the pretty grouping
    assert [str(a.type) for a in red.regions[0].blocks[0].args] == \
        ["tensor<f32>", "tensor<i32>", "tensor<f32>", "tensor<i32>"]
    ret = func.regions[0].blocks[0].ops[-1]
    assert ret.operands == red.results
    # an op's loc("file":line:col), here through an alias, is its location (AOT_PROFILE's)
    iota = func.regions[0].blocks[0].ops[2]
    assert (iota.name, str(iota.loc), str(red.loc)) == ("stablehlo.iota", "model.py:3:7", "<input>:7:16")


def test_rfc_examples_parse():
    for form in ("hlo", "ldhlo"):
        path = os.path.join(ROOT, "tests", "data", "rfc", f"rfc_dynamic_slice.{form}.mlir")
        module = parse_file(path)
        assert module.functions()[0].attrs["sym_name"] == "main"


@pytest.mark.parametrize("text, line, col, message", [
    ("func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {\n  %0 = stablehlo.add %a, %a : tensor<4xf32>\n"
     "  return %0 : tensor<4xf32>\n", 3, 28, "unexpected end of input; expected an operation, '}'"),
    ("func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {\n  %0 = stablehlo.add %a, %b : tensor<4xf32>\n"
     "  return %0 : tensor<4xf32>\n}\n", 2, 26, "use of undefined value '%b'"),
    ("func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {\n"
     "  %0 = stablehlo.add %a, %a ; tensor<4xf32>\n}\n", 2, 29, "unexpected character ';'"),
    ("func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {\n"
     "  %0 = stablehlo.constant dense<[1.0, 2.0]> : tensor<3xf32>\n"
     "  return %0 : tensor<3xf32>\n}\n", 2, 27, "needs 3"),
    ("func.func @main() -> tensor<2xui8> {\n  %0 = stablehlo.constant dense<[1, -2]> : tensor<2xui8>\n"
     "  return %0 : tensor<2xui8>\n}\n", 2, 27, "integer -2 out of range for ui8"),
    ("func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {\n"
     "  %0 = \"mhlo.add\"(%a) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>\n"
     "  return %0 : tensor<4xf32>\n}\n", 2, 8, "1 operands but its type lists 2"),
])
def test_syntax_errors_are_located(text, line, col, message):
    with pytest.raises(CompileError) as info:
        parse_module(text, "bad.mlir")
    err = info.value
    assert (err.loc.file, err.loc.line, err.loc.col) == ("bad.mlir", line, col), err.render()
    assert message in err.message
    rendered = err.render()
    assert rendered.startswith(f"bad.mlir:{line}:{col}: error:")
    assert rendered.splitlines()[-1].strip() == "^"


NESTED = """module @outer attributes {mhlo.num_replicas = 1 : i32} {
  module @inner {
    func.func private @twice(%x: tensor<2xf32>) -> tensor<2xf32> {
      %0 = stablehlo.add %x, %x : tensor<2xf32>
      return %0 : tensor<2xf32>
    }
    module @deeper attributes {mhlo.num_partitions = 1 : i32} {
      func.func public @main(%x: tensor<2xf32>) -> tensor<2xf32> {
        %0 = func.call @twice(%x) : (tensor<2xf32>) -> tensor<2xf32>
        return %0 : tensor<2xf32>
      }
    }
  }
  func.func public @neg(%x: tensor<2xf32>) -> tensor<2xf32> {
    %0 = stablehlo.negate %x : tensor<2xf32>
    return %0 : tensor<2xf32>
  }
}
"""

GENERIC_MODULE = """"builtin.module"() <{sym_name = "jit_main"}> ({
  "func.func"() <{function_type = (tensor<2xf32>) -> tensor<2xf32>, sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<2xf32>):
    %0 = "stablehlo.multiply"(%arg0, %arg0) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
    "func.return"(%0) : (tensor<2xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 1 : i32} : () -> ()
"""  # noqa: E501


def test_nested_modules_are_flattened(tmp_path):
    """Issue 31: the inner modules' functions join one symbol table (calls across the levels
    by plain name), public ones at any depth are entries, attributes merge (outer first)."""
    import aot
    m = parse_module(NESTED, "n.mlir")
    assert [f.attrs["sym_name"] for f in m.functions()] == ["twice", "main", "neg"]
    assert m.name == "outer" and set(m.attrs) == {"mhlo.num_replicas", "mhlo.num_partitions"}
    lib = aot.compile(NESTED, name="nested", output_dir=str(tmp_path))
    x = np.array([1.5, -2], np.float32)
    np.testing.assert_array_equal(lib.main(x), 2 * x)
    np.testing.assert_array_equal(lib.neg(x), -x)
    gen = aot.compile(GENERIC_MODULE, name="generic_module", output_dir=str(tmp_path))
    np.testing.assert_array_equal(gen.main(x), x * x)


@pytest.mark.parametrize("text, line, col, message", [
    ("module {\n  module @a {\n    func.func @f() {\n      return\n    }\n  }\n"
     "  module @b {\n    func.func @f() {\n      return\n    }\n  }\n}\n", 8, 5,
     "@f is defined twice (first at line 3)"),
    ("module {\n  module @a {\n    func.func private @f() {\n      return\n    }\n  }\n"
     "  func.func @main() {\n    func.call @a::@f() : () -> ()\n    return\n  }\n}\n", 8, 15,
     "nested symbol references (@module::@symbol) are not supported"),
])
def test_nested_module_limits_are_located(text, line, col, message):
    with pytest.raises(CompileError) as info:
        parse_module(text, "n.mlir")
    assert (info.value.loc.line, info.value.loc.col) == (line, col), info.value.render()
    assert message in info.value.message
