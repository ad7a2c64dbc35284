"""Names in generated code (abi/naming.py): labels from the program's attributes, their
identifiers and clashes, the C header's named constants and the C++ class's members, both
from the same stems; the C++ header compiles as C++11 and C++17 with warnings as errors."""
from __future__ import annotations

import subprocess

import pytest

import abi
from abi.cpp import generate_cpp_header
from abi.naming import entry_class_names, entry_names, identifier, parse_cpp_class, program_labels
from lowering.frontend.parser import parse_module

JAX = """
func.func public @main(%arg0: tensor<?x4xf32> {jax.arg_info = "x"},
                       %arg1: tensor<4xf32> {jax.arg_info = "params['w']"},
                       %arg2: tensor<f32> {jax.arg_info = "args[2]"})
    -> (tensor<?x4xf32> {jax.result_info = "result['out']"}, tensor<4xf32> {jax.result_info = "result[1]"}) {
  return %arg0, %arg1 : tensor<?x4xf32>, tensor<4xf32>
}
func.func public @single(%x: tensor<2xf32>) -> (tensor<2xf32> {jax.result_info = "result"}) {
  return %x : tensor<2xf32>
}
"""

TF = """
func.func @serve(%arg0: tensor<2x3xf32>, %arg1: tensor<3xf32> {tf_saved_model.index_path = ["bias"]})
    -> tensor<2x3xf32> attributes {tf.entry_function = {control_outputs = "",
      inputs = "serving_default_images:0,b", outputs = "Identity:0"}} {
  return %arg0 : tensor<2x3xf32>
}
"""


def sig(name, args, results, symbol=None):
    return abi.EntrySig(name, symbol or f"m_{name}", [abi.ValueSig(*a) for a in args],
                        [abi.ValueSig(*r) for r in results])


def test_labels_from_jax_attributes():
    labels = program_labels(parse_module(JAX, "jax.mlir"))
    # JAX's placeholders (args[2], result[1], and `result` alone) are no names
    assert labels["main"] == (["x", "params['w']", ""], ["result['out']", ""])
    assert labels["single"] == ([""], [""])


def test_labels_from_tf_entry_function_and_index_path():
    labels = program_labels(parse_module(TF, "tf.mlir"))
    # an argument's own attribute wins over the function's list; TF's ':0' and prefix go
    assert labels["serve"] == (["images", "bias"], ["Identity"])


@pytest.mark.parametrize("label, ident", [
    ("x", "x"), ("params['w']", "params_w"), ("result['out']", "out"), ("result[0]", ""),
    ("result", ""), ("args[1]", ""), ("kwargs['k']", "k"), ("results", "results"), ("", ""),
    ("a--b", "a_b"), ("__x__", "x"), ("0x", "0x"), ("12", ""), ("layer 1/kernel:0", "layer_1_kernel_0"),
])
def test_identifier(label, ident):
    assert identifier(label) == ident


def test_stems_labels_and_positions():
    entry = sig("main", [("arg0", "f32", (None, 4)), ("arg1", "f32", (4,)), ("arg2", "f32", ())],
                [("result0", "f32", (None, 4)), ("result1", "f32", (4,))])
    labels = program_labels(parse_module(JAX, "jax.mlir"))
    args, results = entry_names(entry, labels)
    assert [(v.stem, v.display) for v in args] == [
        ("arg_x", "x"), ("arg_params_w", "params['w']"), ("arg2", "arg2")]
    assert [(v.stem, v.display) for v in results] == [("result_out", "result['out']"),
                                                      ("result1", "result1")]
    # SSA names of the metadata are labels too; positional ones are not
    args, results = entry_names(sig("f", [("x", "f32", ()), ("arg1", "f32", ())], [("y", "f32", ())]))
    assert [v.stem for v in args + results] == ["arg_x", "arg1", "result_y"]


def test_stems_never_clash():
    entry = sig("main", [("x-1", "f32", ()), ("x_1", "f32", ()), ("data", "f32", ()),
                         ("0", "f32", ())], [("x-1", "f32", ())])
    args, results = entry_names(entry)
    # the second x_1 gets a suffix; `arg_data` is the class's own member; "0" is no name
    assert [v.stem for v in args] == ["arg_x_1", "arg_x_1_2", "arg_data_2", "arg3"]
    assert [v.stem for v in results] == ["result_x_1"]


def test_labels_ignored_when_counts_differ():
    entry = sig("main", [("arg0", "f32", ())], [])
    assert [v.stem for v in entry_names(entry, {"main": (["x", "y"], [])})[0]] == ["arg0"]


def test_cpp_class_names():
    assert parse_cpp_class("ns::inner::MyModel") == (["ns", "inner"], "MyModel")
    assert parse_cpp_class("MyModel") == ([], "MyModel")
    for bad in ("ns::", "my-model", "class", "a::__b", "_Model", "ns:::M", "1x"):
        with pytest.raises(ValueError, match="not a usable C\\+\\+ name"):
            parse_cpp_class(bad)
    entries = [sig("init", [], []), sig("main", [], []), sig("step", [], [])]
    assert entry_class_names("M", entries) == ["M_init", "M", "M_step"]
    assert entry_class_names("M", entries[::2]) == ["M", "M_step"]  # no main: the first


ENTRIES = [
    sig("main", [("x", "f32", (None, 4)), ("n", "i64", ())],
        [("y", "f32", (4, 10)), ("", "i1", (None,))], symbol="model_main"),
    sig("init", [], [("w", "bf16", (2, 3))], symbol="model_init"),
]


def test_c_constants_text():
    text = abi.generate_header("model", ENTRIES, labels={"main": (["", "count"], ["", "mask"])})
    defines = {" ".join(line.split()) for line in text.splitlines() if line.startswith("#define")}
    for line in ["#define model_main_NUM_ARGS 2",
                 "#define model_main_arg_x_INDEX 0",
                 '#define model_main_arg_x_NAME "x"',
                 "#define model_main_arg_x_DTYPE AOT_F32",
                 "#define model_main_arg_x_DIMS {-1, 4}",
                 "#define model_main_arg_x_DIM0 (-1)",
                 '#define model_main_arg_count_NAME "count"',
                 "#define model_main_arg_count_RANK 0",
                 "#define model_main_result_y_INDEX 0",
                 "#define model_main_result_mask_INDEX 1",
                 "#define model_main_result_mask_DTYPE AOT_I1",
                 "#define model_init_NUM_ARGS 0",
                 "#define model_init_result_w_DIMS {2, 3}"]:
        assert line in defines, line
    assert "model_main_arg_count_DIMS" not in text  # a scalar has no dims initializer


def test_cpp_header_text():
    text = generate_cpp_header("model", ENTRIES, "ns::Model")
    for line in ["namespace ns {", "class Model {", "class Model_init {",
                 "  enum { kNumArgs = 2, kNumResults = 2 };",
                 "  float *arg_x_data() { return static_cast<float *>(args_[0].data); }",
                 "  float &arg_x(int64_t i0, int64_t i1) { return arg_x_data()[i0 * 4 + i1]; }",
                 "  bool set_arg_x_shape(std::initializer_list<int64_t> dims) {",
                 "  int64_t &arg_n() { return arg_n_data()[0]; }",
                 "  float *arg0_data() { return static_cast<float *>(args_[0].data); }",
                 "  uint8_t *result1_data() { return static_cast<uint8_t *>(results_[1].data); }",
                 "  uint16_t &result_w(int64_t i0, int64_t i1) { return result_w_data()[i0 * 3 + i1]; }",
                 "    if (model_main(args_, results_) != AOT_OK) return Fail(aot_last_error());",
                 "    aot_tensor_free(&results_[1]);"]:
        assert line in text, line
    assert "set_arg_n_shape" not in text  # static arguments have no shape setter of their own


@pytest.mark.parametrize("std", ["c++11", "c++17"])
def test_cpp_header_compiles(tmp_path, std):
    (tmp_path / "model.h").write_text(abi.generate_header("model", ENTRIES))
    (tmp_path / "model.hpp").write_text(generate_cpp_header("model", ENTRIES, "a::b::Model"))
    # a second artifact's header in the same program: its shared helpers appear once
    other = [sig("main", [("x", "f64", (3,))], [("y", "f64", (3,))], symbol="other_main")]
    (tmp_path / "other.h").write_text(abi.generate_header("other", other))
    (tmp_path / "other.hpp").write_text(generate_cpp_header("other", other, "Other"))
    src = tmp_path / "use.cpp"
    src.write_text('#include "model.hpp"\n#include "other.hpp"\n'
                   "int use() { a::b::Model m; a::b::Model_init i; Other o;\n"
                   "  return m.Run() + i.Run() + o.Run() + m.set_arg_x_shape({2, 4}); }\n")
    proc = subprocess.run(["c++", f"-std={std}", "-Wall", "-Wextra", "-pedantic", "-Werror",
                           "-fsyntax-only", f"-I{tmp_path}", f"-I{abi.runtime_dir()}", str(src)],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
