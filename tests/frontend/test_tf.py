"""The TensorFlow front end (lowering/tf/): the executor dialect parses and flattens, TF ops
lower to the HLO/DHLO ops that keep dynamic shapes, and what is not supported is an error at
the op's file:line:col."""
import os

import numpy as np
import pytest

import aot
from lowering.frontend.parser import parse_module
from lowering.frontend.printer import print_module
from lowering.ir.core import CompileError
from lowering.passes.pipeline import run_pipeline
from lowering.tf import docs

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def hlo(text: str) -> str:
    return print_module(run_pipeline(parse_module(text, "m.mlir"), "hlo"))


def error(text: str) -> CompileError:
    with pytest.raises(CompileError) as info:
        run_pipeline(parse_module(text, "m.mlir"), "hlo")
    return info.value


EXECUTOR = """module {
  func.func @main(%arg0: tensor<?x4xf32>) -> tensor<*xf32> {
    %0 = tf_executor.graph {
      %outputs, %control = tf_executor.island wraps "tf.Const"()
          <{value = dense<2.0> : tensor<f32>}> {device = ""} : () -> tensor<f32>
      %dead, %control_0 = tf_executor.island wraps "tf.Exp"(%arg0) : (tensor<?x4xf32>) -> tensor<*xf32>
      %control_1 = tf_executor.island(%control, %control_0) wraps "tf.NoOp"() : () -> ()
      %outputs_2, %control_3 = tf_executor.island(%control_1) {
        %1 = "tf.Mul"(%arg0, %outputs) : (tensor<?x4xf32>, tensor<f32>) -> tensor<*xf32>
        tf_executor.yield %1 : tensor<*xf32>
      }
      tf_executor.fetch %outputs_2, %control_3 : tensor<*xf32>, !tf_executor.control
    }
    return %0 : tensor<*xf32>
  }
}
"""


def test_executor_graph_parses_with_islands_and_control_tokens():
    module = parse_module(EXECUTOR)
    graph = module.functions()[0].regions[0].blocks[0].ops[0]
    assert graph.name == "tf_executor.graph"
    islands = graph.regions[0].blocks[0].ops
    assert [op.name for op in islands] == ["tf_executor.island"] * 4 + ["tf_executor.fetch"]
    assert [str(r.type) for r in islands[0].results] == ["tensor<f32>", "!tf_executor.control"]
    assert len(islands[2].operands) == 2 and len(islands[2].results) == 1  # NoOp: control only
    assert islands[3].regions[0].blocks[0].ops[0].name == "tf.Mul"


def test_executor_graph_is_flattened_pruned_and_refined():
    """Islands' ops in order, the dead Exp and the NoOp gone, tensor<*x..> refined from the
    signature: the function now returns tensor<?x4xf32>."""
    text = hlo(EXECUTOR)
    assert "tf_executor" not in text and "tf." not in text
    assert "exponential" not in text
    assert "-> tensor<?x4xf32>" in text
    lib = aot.compile(EXECUTOR, name="tf_executor_small")
    x = np.arange(12, dtype=np.float32).reshape(3, 4)
    np.testing.assert_array_equal(lib.main(x), x * 2)


def test_computed_reshape_and_shape_stay_dynamic():
    text = hlo("""
    func.func @main(%x: tensor<?x6xf32>) -> (tensor<?x2x3xf32>, tensor<2xi32>) {
      %b = "tf.Const"() <{value = dense<0> : tensor<1xi32>}> : () -> tensor<1xi32>
      %e = "tf.Const"() <{value = dense<1> : tensor<1xi32>}> : () -> tensor<1xi32>
      %c = "tf.Const"() <{value = dense<[2, 3]> : tensor<2xi32>}> : () -> tensor<2xi32>
      %s = "tf.Shape"(%x) : (tensor<?x6xf32>) -> tensor<2xi32>
      %n = "tf.StridedSlice"(%s, %b, %e, %e) <{begin_mask = 0 : i64, ellipsis_mask = 0 : i64,
          end_mask = 0 : i64, new_axis_mask = 0 : i64, shrink_axis_mask = 1 : i64}>
          : (tensor<2xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<i32>
      %n1 = "tf.ExpandDims"(%n, %b) : (tensor<i32>, tensor<1xi32>) -> tensor<1xi32>
      %shape = "tf.ConcatV2"(%n1, %c, %b) : (tensor<1xi32>, tensor<2xi32>, tensor<1xi32>) -> tensor<3xi32>
      %r = "tf.Reshape"(%x, %shape) : (tensor<?x6xf32>, tensor<3xi32>) -> tensor<?x2x3xf32>
      return %r, %s : tensor<?x2x3xf32>, tensor<2xi32>
    }""")
    assert "get_dimension_size" in text and "concatenate" in text
    assert "dynamic_reshape" in text and "tensor<?x2x3xf32>" in text


def test_while_and_if_become_mhlo_control_flow():
    text = hlo(open(os.path.join(ROOT, "tests", "data", "tf", "while_loop.tf.mlir")).read())
    assert "mhlo.while" in text and "while_body" not in text
    text = hlo(open(os.path.join(ROOT, "tests", "data", "tf", "cond.tf.mlir")).read())
    assert "mhlo.if" in text and "cond_true" not in text


def test_where_and_unique_are_the_dhlo_ops():
    text = hlo(open(os.path.join(ROOT, "tests", "data", "tf", "unique_where.tf.mlir")).read())
    assert "dhlo.where" in text and "dhlo.unique" in text


@pytest.mark.parametrize("body, where, message", [
    ('%0 = "tf.FooBar"(%x) : (tensor<4xf32>) -> tensor<4xf32>', (3, 10),
     "TensorFlow op 'tf.FooBar' is not supported"),
    ('%0 = "tf.Sum"(%x, %x) <{keep_dims = false}> : (tensor<4xf32>, tensor<4xf32>) -> tensor<f32>',
     (3, 10), "'tf.Sum': the reduction axes must be a constant"),
    ('%d = "tf.Const"() <{value = dense<-3> : tensor<i32>}> : () -> tensor<i32>\n'
     '    %0 = "tf.OneHot"(%x, %d, %x, %x) <{axis = -1 : i64}> : (tensor<4xf32>, tensor<i32>, '
     'tensor<4xf32>, tensor<4xf32>) -> tensor<*xf32>', (4, 10),
     "OneHot's depth must be 0 or more, got -3"),
], ids=["unknown op", "computed axes", "negative one_hot depth"])
def test_unsupported_is_a_located_error(body, where, message):
    text = f"""module {{
  func.func @main(%x: tensor<4xf32>) -> tensor<*xf32> {{
    {body}
    return %0 : tensor<*xf32>
  }}
}}
"""
    e = error(text)
    assert message in e.message
    assert (e.loc.file, e.loc.line, e.loc.col) == ("m.mlir", *where), str(e)


@pytest.mark.parametrize("op", ["ResizeBilinear", "ResizeNearestNeighbor"])
@pytest.mark.parametrize("size, message", [
    ([2, 2143289344], "the output size [2, 2143289344] is past 16777216 pixels along an axis"),
    ([0, 3], "the output size must be 2 positive numbers (height, width), got [0, 3]"),
    ([4], "the output size must be 2 positive numbers (height, width), got [4]"),
], ids=["huge (a fuzzer's)", "zero", "one number"])
def test_resize_sizes_are_checked(op, size, message):
    """A resize's output size is checked before its compile-time tables are built: the
    fuzzer's 2^31 took a MemoryError, a 0 would divide by zero."""
    n = len(size)
    text = f"""module {{
  func.func @main(%x: tensor<1x4x6x2xf32>) -> tensor<*xf32> {{
    %s = "tf.Const"() <{{value = dense<{size}> : tensor<{n}xi32>}}> : () -> tensor<{n}xi32>
    %0 = "tf.{op}"(%x, %s) <{{align_corners = false, half_pixel_centers = false}}> : (tensor<1x4x6x2xf32>, tensor<{n}xi32>) -> tensor<*xf32>
    return %0 : tensor<*xf32>
  }}
}}
"""  # noqa: E501
    e = error(text)
    assert message in e.message, e.message
    assert (e.loc.line, e.loc.col) == (4, 10), str(e)


@pytest.mark.parametrize("const, op, message", [
    ("dense<[-1, 3]> : tensor<2xi32>", '"tf.Fill"(%c, %s) : (tensor<2xi32>, tensor<f32>)',
     "'tf.Fill': the dims must be 0 or more, got [-1, 3]"),
    ("dense<[-2]> : tensor<1xi32>", '"tf.Tile"(%x, %c) : (tensor<4xf32>, tensor<1xi32>)',
     "'tf.Tile': Tile's multiples must be 0 or more, got [-2]"),
    ("dense<[[-1, 2]]> : tensor<1x2xi32>", '"tf.Pad"(%x, %c) : (tensor<4xf32>, tensor<1x2xi32>)',
     "'tf.Pad': the paddings must be 0 or more, got [-1, 2]"),
], ids=["fill", "tile", "pad"])
def test_negative_sizes_are_located_errors(const, op, message):
    """Negative constant dims, multiples and paddings, which TensorFlow refuses: Fill and Tile
    compiled and failed every call ('computed as f32[-1,3]'), Pad cropped (stablehlo's
    meaning of a negative padding)."""
    ctype = const.split(" : ")[1]
    e = error(f"""module {{
  func.func @main(%x: tensor<4xf32>, %s: tensor<f32>) -> tensor<*xf32> {{
    %c = "tf.Const"() <{{value = {const}}}> : () -> {ctype}
    %0 = {op} -> tensor<*xf32>
    return %0 : tensor<*xf32>
  }}
}}
""")
    assert message in str(e) and (e.loc.line, e.loc.col) == (4, 10), str(e)


@pytest.mark.parametrize("body, message", [
    ('%c = "tf.Const"() <{value = dense<[1, 1]> : tensor<2xi32>}> : () -> tensor<2xi32>\n'
     '    %a = "tf.Const"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>\n'
     '    %0:2 = "tf.SplitV"(%x, %c, %a) : (tensor<4xf32>, tensor<2xi32>, tensor<i32>) -> '
     '(tensor<*xf32>, tensor<*xf32>)', "SplitV's sizes [1, 1] do not split dim 0 of size 4"),
    ('%0 = "tf.Pack"(%x, %x) <{axis = 7 : i64}> : (tensor<4xf32>, tensor<4xf32>) -> '
     'tensor<*xf32>', "'tf.Pack': axis 7 out of range for rank 2"),
    ('%0:4 = "tf.Unpack"(%x) <{axis = 3 : i64}> : (tensor<4xf32>) -> (tensor<*xf32>, '
     'tensor<*xf32>, tensor<*xf32>, tensor<*xf32>)', "'tf.Unpack': axis 3 out of range for rank 1"),
    ('%c = "tf.Const"() <{value = dense<3> : tensor<i32>}> : () -> tensor<i32>\n'
     '    %i = "tf.Cast"(%x) : (tensor<4xf32>) -> tensor<4xi32>\n'
     '    %0 = "tf.OneHot"(%i, %c, %s, %s) <{axis = 5 : i64}> : (tensor<4xi32>, tensor<i32>, '
     'tensor<f32>, tensor<f32>) -> tensor<*xf32>', "'tf.OneHot': axis 5 out of range for rank 2"),
    ('%c = "tf.Const"() <{value = dense<[2, 2]> : tensor<2xi32>}> : () -> tensor<2xi32>\n'
     '    %0 = "tf.Tile"(%x, %c) : (tensor<4xf32>, tensor<2xi32>) -> tensor<*xf32>',
     "Tile's multiples [2, 2] must have one entry per dim of tensor<4xf32>"),
    ('%0 = "tf.Squeeze"(%x) <{squeeze_dims = [3]}> : (tensor<4xf32>) -> tensor<*xf32>',
     "'tf.Squeeze': axis 3 out of range for rank 1"),
    ('%k = "tf.Const"() <{value = dense<1.0> : tensor<3x1x1x1xf32>}> : () -> tensor<3x1x1x1xf32>\n'
     '    %m = "tf.Reshape"(%x, %r) : (tensor<4xf32>, tensor<4xi32>) -> tensor<1x2x2x1xf32>\n'
     '    %0 = "tf.Conv2D"(%m, %k) <{strides = [1, 1, 1, 1], padding = "VALID", '
     'data_format = "NHWC", dilations = [1, 1, 1, 1], explicit_paddings = []}> : '
     '(tensor<1x2x2x1xf32>, tensor<3x1x1x1xf32>) -> tensor<*xf32>',
     "the window spans 3 elements along dim 1 (its dilation included), more than the padded "
     "input's 2"),
    ('%m = "tf.Reshape"(%x, %r) : (tensor<4xf32>, tensor<4xi32>) -> tensor<1x2x2x1xf32>\n'
     '    %0 = "tf.MaxPool"(%m) <{ksize = [1, 1, 1, 1], strides = [1, 1, 1, 1], '
     'padding = "EXPLICIT", data_format = "NHWC", explicit_paddings = [0, 0, -1, 0, 0, 0, 0, 0]}>'
     ' : (tensor<1x2x2x1xf32>) -> tensor<*xf32>',
     "explicit_paddings must be 2 numbers, 0 or more, per dim of tensor<1x2x2x1xf32>"),
    ('%e = "tf.Const"() <{value = dense<> : tensor<0xf32>}> : () -> tensor<0xf32>\n'
     '    %a = "tf.Const"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>\n'
     '    %0 = "tf.ArgMax"(%e, %a) : (tensor<0xf32>, tensor<i32>) -> tensor<*xf32>',
     "'tf.ArgMax': the reduction axis 0 of tensor<0xf32> is empty"),
], ids=["splitv sizes", "pack axis", "unpack axis", "one_hot axis", "tile length", "squeeze axis",
        "conv window past the input", "negative explicit padding", "argmax of nothing"])
def test_axes_and_sizes_tensorflow_refuses_are_errors(body, message):
    """Each compiled before, as another program: SplitV kept its first pieces and dropped
    the rest, Tile used as many multiples as the rank, and Pack, Unpack and OneHot wrapped
    the axis around the rank (Squeeze's said 'cannot squeeze dim 0' for axis 3), and a
    window past its input or a negative explicit padding gave an empty result (ArgMax of
    an empty axis: 0)."""
    e = error(f"""module {{
  func.func @main(%x: tensor<4xf32>, %s: tensor<f32>) -> tensor<*xf32> {{
    %r = "tf.Const"() <{{value = dense<[1, 2, 2, 1]> : tensor<4xi32>}}> : () -> tensor<4xi32>
    {body}
    return {"%0#0" if "%0:" in body else "%0"} : tensor<*xf32>
  }}
}}
""")
    assert message in str(e), str(e)


def _range_program(limit: int, result: str) -> str:
    return f"""module {{
  func.func @main(%x: tensor<{result}xi32>) -> tensor<{result}xi32> {{
    %a = "tf.Const"() <{{value = dense<0> : tensor<i32>}}> : () -> tensor<i32>
    %b = "tf.Const"() <{{value = dense<{limit}> : tensor<i32>}}> : () -> tensor<i32>
    %c = "tf.Const"() <{{value = dense<1> : tensor<i32>}}> : () -> tensor<i32>
    %r = "tf.Range"(%a, %b, %c) : (tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<{result}xi32>
    %s = "tf.AddV2"(%r, %x) : (tensor<{result}xi32>, tensor<{result}xi32>) -> tensor<{result}xi32>
    return %s : tensor<{result}xi32>
  }}
}}
"""


def test_long_constant_ranges_are_computed_at_run_time(tmp_path):
    """A constant tf.Range of more than CONSTANT_RANGE_MAX elements is an iota at run time,
    not a compile-time constant (a fuzzer's limit of 2^31 was 16 GiB of it); shorter ones
    stay constants, and both give the same numbers."""
    import aot
    from lowering.tf.shapes import CONSTANT_RANGE_MAX
    assert "dynamic_iota" in hlo(_range_program(0x7FC00000, "?"))
    short = hlo(_range_program(5, "5"))
    assert "iota" not in short and "dense<[0, 1, 2, 3, 4]>" in short
    n = CONSTANT_RANGE_MAX + 5
    lib = aot.compile(_range_program(n, str(n)), name="long_range", output_dir=str(tmp_path))
    y = lib.main(np.ones(n, np.int32))
    np.testing.assert_array_equal(y, np.arange(1, n + 1, dtype=np.int32))


def test_v1_control_flow_becomes_functional():
    """The TF1 graph's Switch/Merge cond and Enter/Merge/Switch/LoopCond/NextIteration/Exit
    loop become tf.If and tf.While over new functions, then mhlo if and while."""
    from aot.driver import Compilation, Options
    path = os.path.join(ROOT, "tests", "data", "tf", "v1_control_flow.executor.mlir")
    module = Compilation(open(path).read(), path,
                         Options(feeds=["x"], fetches=["out"])).run_stages("hlo")
    text = print_module(module)
    assert "mhlo.if" in text and "mhlo.while" in text and "tf_executor" not in text


def test_v1_control_flow_outside_a_cond_or_loop_is_a_located_error():
    e = error("""module {
  func.func @main(%x: tensor<f32>, %p: tensor<i1>) -> tensor<*xf32> {
    %0 = tf_executor.graph {
      %a, %b, %c = tf_executor.Switch %x, %p : tensor<f32> {T = f32, device = ""}
      tf_executor.fetch %a : tensor<*xf32>
    }
    return %0 : tensor<*xf32>
  }
}
""")
    assert "'tf_executor.Switch': this form of TF1 (v1) control flow is not supported" in e.message
    assert e.loc.line == 4


def test_unranked_argument_is_refused_with_what_to_do():
    e = error("""func.func @main(%x: tensor<*xf32>) -> tensor<*xf32> {
      %0 = "tf.Relu"(%x) : (tensor<*xf32>) -> tensor<*xf32>
      return %0 : tensor<*xf32>
    }""")
    assert "argument 0 of @main has type tensor<*xf32>" in e.message
    assert "give the input signature its shape" in e.message


def test_docs_tf_table_is_generated():
    with open(os.path.join(ROOT, "docs", "tensorflow.md")) as f:
        text = f.read()
    assert docs.rewrite(text) == text, "docs/tensorflow.md's TF ops table is stale: run `make docs`"


GRAPHDEF = os.path.join(ROOT, "tests", "data", "tf", "tfcompile_matmul.executor.mlir")


def test_graphdef_feeds_and_fetches_make_the_signature(tmp_path):
    """tfcompile's config as options: placeholders fed become arguments named after their
    nodes, fetched nodes results; the header names them."""
    import subprocess
    import sys
    out = tmp_path / "libmm.so"
    r = subprocess.run([sys.executable, "-m", "aot.cli", "compile", GRAPHDEF, "-o", str(out),
                        "--name", "mm", "--feed", "x_hold", "--feed", "y_hold",
                        "--fetch", "x_y_prod"], capture_output=True, text=True, cwd=ROOT)
    assert r.returncode == 0, r.stderr
    header = (tmp_path / "mm.h").read_text()
    assert "arg_x_hold" in header and "arg_y_hold" in header and "result_x_y_prod" in header
    lib = aot.load(str(out))
    x, y = np.ones((4, 3), np.float32), np.arange(6, dtype=np.float32).reshape(3, 2)
    np.testing.assert_allclose(lib.main(x, y), x @ y)


@pytest.mark.parametrize("feeds, fetches, message", [
    ([], ["x_y_prod"], "'tf.Placeholder' (node 'x_hold'): an input of the graph: make it an "
                       "argument with --feed NODE"),
    (["x_hold", "y_hold"], ["nope"],
     "fetch 'nope' is no node of the graph (nodes: x_hold, x_y_prod, y_hold)"),
    (["x_hold", "y_hold"], ["x_y_prod:1"], "node 'x_y_prod' has 1 outputs"),
], ids=["not fed", "unknown fetch", "no such output"])
def test_graphdef_feed_errors(feeds, fetches, message):
    from aot.driver import Compilation, Options
    text = open(GRAPHDEF).read()
    with pytest.raises(CompileError) as info:
        Compilation(text, GRAPHDEF, Options(feeds=feeds, fetches=fetches)).run_stages("hlo")
    assert message in info.value.message


VARIABLES = os.path.join(ROOT, "tests", "data", "tf", "mlp_variables.tf.mlir")


def test_unfrozen_variables_say_how_to_freeze_them():
    e = error(open(VARIABLES).read())
    assert "argument 1 of @__inference_<lambda>_" in e.message
    assert "is a resource variable of unknown shape" in e.message
    assert "--freeze vars.npz with its value as arg1" in e.message


def test_freeze_makes_variables_constants_and_drops_their_arguments(tmp_path):
    import subprocess
    import sys
    out = tmp_path / "libv.so"
    r = subprocess.run([sys.executable, "-m", "aot.cli", "compile", VARIABLES, "-o", str(out),
                        "--name", "v", "--freeze", VARIABLES.replace(".tf.mlir", ".vars.npz")],
                       capture_output=True, text=True, cwd=ROOT)
    assert r.returncode == 0, r.stderr
    (entry,) = aot.load(str(out)).entries.values()
    assert len(entry.signature.args) == 1  # x; the four variables are constants now
    npz = np.load(VARIABLES.replace(".tf.mlir", ".npz"))
    np.testing.assert_allclose(entry(npz["s0_arg0"]), npz["s0_out0"], rtol=2e-5, atol=1e-6)


def test_calls_are_inlined_and_case_picks_a_branch():
    """tf.StatefulPartitionedCall's @f is lowered in place; a functional tf.Case is an
    mhlo.case whose out-of-range index takes the last branch (TF's default)."""
    text = """module {
  func.func @main(%x: tensor<?xf32>, %k: tensor<i32>) -> (tensor<?xf32>, tensor<?xf32>) {
    %0 = "tf.StatefulPartitionedCall"(%x) <{config = "", config_proto = "", executor_type = "",
        f = @inner}> : (tensor<?xf32>) -> tensor<?xf32>
    %1 = "tf.Case"(%k, %x) <{branches = [@inner, @twice], is_stateless = true}>
        : (tensor<i32>, tensor<?xf32>) -> tensor<*xf32>
    return %0, %1 : tensor<?xf32>, tensor<*xf32>
  }
  func.func private @inner(%a: tensor<?xf32>) -> tensor<?xf32> {
    %c = "tf.Const"() <{value = dense<1.0> : tensor<f32>}> : () -> tensor<f32>
    %0 = "tf.AddV2"(%a, %c) : (tensor<?xf32>, tensor<f32>) -> tensor<?xf32>
    return %0 : tensor<?xf32>
  }
  func.func private @twice(%a: tensor<?xf32>) -> tensor<?xf32> {
    %0 = "tf.AddV2"(%a, %a) : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
    return %0 : tensor<?xf32>
  }
}
"""
    assert "mhlo.case" in hlo(text) and "func.call" not in hlo(text)
    lib = aot.compile(text, name="tf_calls")
    x = np.arange(3, dtype=np.float32)
    for k, want in ((0, x + 1), (1, x * 2), (5, x * 2)):
        a, b = lib.main(x, np.int32(k))
        np.testing.assert_array_equal(a, x + 1)
        np.testing.assert_array_equal(b, want)


def test_import_tf_reports_errors_without_a_traceback():
    """`aotc import-tf` needs TensorFlow only when it runs; without it (or without the
    SavedModel) it is an error with status 1."""
    import subprocess
    import sys
    r = subprocess.run([sys.executable, "-m", "aot.cli", "import-tf", "/no/such/saved_model"],
                       capture_output=True, text=True, cwd=ROOT)
    assert r.returncode == 1 and r.stderr.startswith("aotc: error:"), r.stderr
    assert "Traceback" not in r.stderr


def test_tensor_list_of_unknown_rank_says_why():
    """A reserved TensorList is one buffer: its element rank must be known (unknown dims
    are fine: the first SetItem sizes it)."""
    e = error("""func.func @main(%n: tensor<i32>) -> tensor<*xf32> {
      %s = "tf.Const"() <{value = dense<-1> : tensor<i32>}> : () -> tensor<i32>
      %0 = "tf.TensorListReserve"(%s, %n) : (tensor<i32>, tensor<i32>)
          -> tensor<!tf_type.variant<tensor<*xf32>>>
      %1 = "tf.TensorListStack"(%0, %s) : (tensor<!tf_type.variant<tensor<*xf32>>>,
          tensor<i32>) -> tensor<*xf32>
      return %1 : tensor<*xf32>
    }""")
    assert "a TensorList of unknown rank is not supported" in e.message
    assert e.loc.line == 3


TF1_VARIABLES = os.path.join(ROOT, "tests", "data", "tf", "tf1_variables.executor.mlir")


@pytest.mark.parametrize("values, message", [
    (None, "'tf.VarHandleOp' (node 'b'): a resource variable: freeze it, --freeze vars.npz"),
    ({"w": np.zeros((3, 2), np.float32), "v": np.zeros(2, np.float32)},
     "--freeze names variable 'v', which the graph does not have (its variables: b, w)"),
], ids=["not frozen", "unknown variable"])
def test_graph_variables_errors(tmp_path, values, message):
    from aot.driver import Compilation, Options
    freeze = None
    if values is not None:
        freeze = str(tmp_path / "vars.npz")
        np.savez(freeze, **values)
    opts = Options(feeds=["x"], fetches=["y"], freeze=freeze)
    with pytest.raises(CompileError) as info:
        Compilation(open(TF1_VARIABLES).read(), TF1_VARIABLES, opts).run_stages("hlo")
    assert message in info.value.message


SPECTRAL = """module {
  func.func @main(%x: tensor<?x64xf32>, %img: tensor<?x4x6xcomplex<f32>>) -> (tensor<?x33xf32>, tensor<?x64xf32>, tensor<?x4x6xcomplex<f32>>, tensor<?x33xf32>, tensor<?x40xf32>, tensor<?x4x6xcomplex<f32>>, tensor<?x4x6xf32>) {
    %n = "tf.Const"() <{value = dense<64> : tensor<1xi32>}> : () -> tensor<1xi32>
    %n40 = "tf.Const"() <{value = dense<40> : tensor<1xi32>}> : () -> tensor<1xi32>
    %n16 = "tf.Const"() <{value = dense<16> : tensor<1xi32>}> : () -> tensor<1xi32>
    %s = "tf.RFFT"(%x, %n) : (tensor<?x64xf32>, tensor<1xi32>) -> tensor<?x33xcomplex<f32>>
    %a = "tf.ComplexAbs"(%s) : (tensor<?x33xcomplex<f32>>) -> tensor<?x33xf32>
    %b = "tf.IRFFT"(%s, %n) : (tensor<?x33xcomplex<f32>>, tensor<1xi32>) -> tensor<?x64xf32>
    %f = "tf.FFT2D"(%img) : (tensor<?x4x6xcomplex<f32>>) -> tensor<?x4x6xcomplex<f32>>
    %g = "tf.IFFT2D"(%f) : (tensor<?x4x6xcomplex<f32>>) -> tensor<?x4x6xcomplex<f32>>
    %ang = "tf.Angle"(%s) : (tensor<?x33xcomplex<f32>>) -> tensor<?x33xf32>
    %short = "tf.IRFFT"(%s, %n40) : (tensor<?x33xcomplex<f32>>, tensor<1xi32>) -> tensor<?x40xf32>
    %re = "tf.Real"(%f) : (tensor<?x4x6xcomplex<f32>>) -> tensor<?x4x6xf32>
    %im = "tf.Imag"(%f) : (tensor<?x4x6xcomplex<f32>>) -> tensor<?x4x6xf32>
    %c = "tf.Complex"(%re, %im) : (tensor<?x4x6xf32>, tensor<?x4x6xf32>) -> tensor<?x4x6xcomplex<f32>>
    %cj = "tf.Conj"(%c) : (tensor<?x4x6xcomplex<f32>>) -> tensor<?x4x6xcomplex<f32>>
    %cr = "tf.Real"(%x) : (tensor<?x64xf32>) -> tensor<?x64xf32>
    %imr = "tf.Imag"(%re) : (tensor<?x4x6xf32>) -> tensor<?x4x6xf32>
    return %a, %b, %g, %ang, %short, %cj, %imr : tensor<?x33xf32>, tensor<?x64xf32>, tensor<?x4x6xcomplex<f32>>, tensor<?x33xf32>, tensor<?x40xf32>, tensor<?x4x6xcomplex<f32>>, tensor<?x4x6xf32>
  }
}"""  # noqa: E501


def test_fft_ops_match_numpy():
    """tf.signal's transforms (RFFT/IRFFT with fft_length, here also a shorter one that cuts
    the spectrum; FFT2D/IFFT2D) and the complex ops around them (ComplexAbs, Angle, Real,
    Imag, Complex, Conj, of complex and real tensors) on a `?` batch, against numpy."""
    lib = aot.compile(SPECTRAL, name="tf_spectral")
    rng = np.random.default_rng(0)
    for b in (1, 3):
        x = rng.standard_normal((b, 64)).astype(np.float32)
        img = (rng.standard_normal((b, 4, 6)) + 1j * rng.standard_normal((b, 4, 6))).astype(np.complex64)
        got = lib.main(x, img)
        s = np.fft.rfft(x.astype(np.float64))
        want = [np.abs(s), x, img, np.angle(s), np.fft.irfft(s, 40), np.conj(np.fft.fft2(img)),
                np.zeros((b, 4, 6))]
        for g, w in zip(got, want, strict=True):
            assert g.shape == w.shape
            np.testing.assert_allclose(g, w, atol=5e-6)


def _linalg_text():
    T = "tensor<?x4x4xf32>"  # noqa: N806
    return f"""module {{
  func.func @main(%a: {T}, %b: tensor<?x4x2xf32>) -> ({T}, tensor<?x4x2xf32>, tensor<?x4x2xf32>, {T}, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, {T}, {T}, tensor<?x4xf32>, {T}, tensor<?x2xf32>, tensor<?x4x2xf32>, tensor<?x2x2xf32>, {T}) {{
    %t = "tf.BatchMatMulV2"(%a, %a) <{{adj_x = false, adj_y = true}}> : ({T}, {T}) -> {T}
    %eye = "tf.Const"() <{{value = dense<[[4.0, 0.0, 0.0, 0.0], [0.0, 4.0, 0.0, 0.0], [0.0, 0.0, 4.0, 0.0], [0.0, 0.0, 0.0, 4.0]]> : tensor<4x4xf32>}}> : () -> tensor<4x4xf32>
    %spd = "tf.AddV2"(%t, %eye) : ({T}, tensor<4x4xf32>) -> {T}
    %l = "tf.Cholesky"(%spd) : ({T}) -> {T}
    %x = "tf.MatrixTriangularSolve"(%l, %b) <{{lower = true, adjoint = false}}> : ({T}, tensor<?x4x2xf32>) -> tensor<?x4x2xf32>
    %xa = "tf.MatrixTriangularSolve"(%l, %b) <{{lower = true, adjoint = true}}> : ({T}, tensor<?x4x2xf32>) -> tensor<?x4x2xf32>
    %inv = "tf.MatrixInverse"(%a) <{{adjoint = true}}> : ({T}) -> {T}
    %det = "tf.MatrixDeterminant"(%a) : ({T}) -> tensor<?xf32>
    %sg, %ld = "tf.LogMatrixDeterminant"(%a) : ({T}) -> (tensor<?xf32>, tensor<?xf32>)
    %q, %r = "tf.Qr"(%a) <{{full_matrices = false}}> : ({T}) -> ({T}, {T})
    %e, %v = "tf.SelfAdjointEigV2"(%spd) <{{compute_v = true}}> : ({T}) -> (tensor<?x4xf32>, {T})
    %s, %u, %vv = "tf.Svd"(%b) <{{compute_uv = true, full_matrices = false}}> : (tensor<?x4x2xf32>) -> (tensor<?x2xf32>, tensor<?x4x2xf32>, tensor<?x2x2xf32>)
    %sol = "tf.MatrixSolve"(%a, %t) <{{adjoint = true}}> : ({T}, {T}) -> {T}
    return %l, %x, %xa, %inv, %det, %sg, %ld, %q, %r, %e, %v, %s, %u, %vv, %sol : {T}, tensor<?x4x2xf32>, tensor<?x4x2xf32>, {T}, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, {T}, {T}, tensor<?x4xf32>, {T}, tensor<?x2xf32>, tensor<?x4x2xf32>, tensor<?x2x2xf32>, {T}
  }}
}}"""  # noqa: E501


def test_linalg_ops_match_numpy():
    """tf.linalg on a `?` batch against numpy: Cholesky, MatrixTriangularSolve (and its
    adjoint), MatrixInverse (adjoint), MatrixDeterminant, LogMatrixDeterminant, Qr,
    SelfAdjointEigV2 (a v = v e), Svd (TF's v, not its transpose: u s v^T = b), MatrixSolve
    (adjoint: a^T x = a a^T)."""
    lib = aot.compile(_linalg_text(), name="tf_linalg")
    rng = np.random.default_rng(0)
    for n in (1, 3):
        a = rng.standard_normal((n, 4, 4)).astype(np.float32)
        b = rng.standard_normal((n, 4, 2)).astype(np.float32)
        got = lib.main(a, b)
        a64 = a.astype(np.float64)
        spd = a64 @ a64.transpose(0, 2, 1) + 4 * np.eye(4)
        chol = np.linalg.cholesky(spd)
        q, r = np.linalg.qr(a64)
        sign, logdet = np.linalg.slogdet(a64)
        want = [chol, np.linalg.solve(chol, b), np.linalg.solve(chol.transpose(0, 2, 1), b),
                np.linalg.inv(a64).transpose(0, 2, 1), np.linalg.det(a64), sign, logdet, q, r,
                np.linalg.eigvalsh(spd), None, np.linalg.svd(b.astype(np.float64), compute_uv=False),
                None, None, np.linalg.solve(a64.transpose(0, 2, 1), a64 @ a64.transpose(0, 2, 1))]
        for g, w in zip(got, want, strict=True):
            if w is not None:
                np.testing.assert_allclose(g, w, rtol=1e-5, atol=2e-5)
        values, vectors, s, u, v = got[9], got[10], got[11], got[12], got[13]
        np.testing.assert_allclose(spd @ vectors, vectors * values[:, None, :], atol=2e-5)
        np.testing.assert_allclose((u * s[:, None, :]) @ v.transpose(0, 2, 1), b, atol=2e-6)
