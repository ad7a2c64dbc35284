"""One-line ops are parsed once per form (lowering/frontend/parser.py, `_SameForm`): each
line of a form is a copy of lark's raw op with its own names and positions. The same
module, the same op locations and the same errors (file:line:col) as lark reading every
line, checked against the parser with the fast path turned off."""
from __future__ import annotations

import pytest

from lowering.frontend import parser
from lowering.frontend.printer import print_module
from lowering.ir.core import CompileError


def _parse(text: str, fast: bool):
    """(printed module, every op's location) or the error's text."""
    if not fast:
        original = parser._SameForm.__init__

        def lark_only(self, text):
            self.runs, self.found, self.rest = {}, False, text
        parser._SameForm.__init__ = lark_only
    try:
        module = parser.parse_module(text, "t.mlir")
        return print_module(module), [str(op.loc) for f in module.ops for op in f.walk()]
    except CompileError as e:
        return str(e)
    finally:
        if not fast:
            parser._SameForm.__init__ = original


# (the reduce is one line: a backslash-newline in the string)
PROGRAM = """module {
  func.func @main(%arg0: tensor<4xf32>, %b: tensor<i32>) -> tensor<4xf32> {
    %0 = stablehlo.add %arg0, %arg0 : tensor<4xf32> loc(#loc1)
    %a_much_longer_name = stablehlo.add %0, %arg0 : tensor<4xf32> loc(#loc2)
    %2 = stablehlo.transpose %a_much_longer_name, dims = [0] : (tensor<4xf32>) -> tensor<4xf32>
    %3 = stablehlo.reshape %b : (tensor<i32>) -> tensor<1xi32>
    %4 = stablehlo.constant dense<4> : tensor<1xi32>
    %5 = stablehlo.dynamic_reshape %2, %4 : (tensor<4xf32>, tensor<1xi32>) -> tensor<4xf32>
    %6 = stablehlo.reduce(%5 init: %x) applies stablehlo.add across dimensions = [0] : \
(tensor<4xf32>, tensor<f32>) -> tensor<f32>
    return %2 : tensor<4xf32>
  }
}
#loc1 = loc("model.py":10:4)
#loc2 = loc("model.py":11:8)
"""


def test_same_module_and_locations_as_lark():
    text = PROGRAM.replace("%x)", "%0)").replace("tensor<4xf32>, tensor<f32>) -> tensor<f32>",
                                                 "tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>")
    runs = parser._SameForm(text)
    assert sum(len(r) for r in runs.runs.values()) == 7  # every op line, as one run
    fast = _parse(text, True)
    assert not isinstance(fast, str), fast
    assert fast == _parse(text, False)
    assert "t.mlir" not in fast[1][1] and fast[1][1].startswith("model.py:10:4")


@pytest.mark.parametrize("edit, where", [
    (("%x)", "%x)"), "t.mlir:9:36"),  # an undefined value, the last line of a run
    (("%2 = stablehlo.transpose %a_much_longer_name", "%2 = stablehlo.transpose %a_much"),
     "t.mlir:5:30"),  # past a shorter name than the form's placeholder
    (("dense<4> : tensor<1xi32>", "dense<[1, 2]> : tensor<1xi32>"), "t.mlir:7:29"),  # a value
    (("%3 = stablehlo.reshape %b", "%3 = stablehlo.reshape %b, %b"), "t.mlir:6:10"),  # the op
    ((": (tensor<i32>) -> tensor<1xi32>", ": (tensor<i32>) -> tensor<1xi32>,"),
     "t.mlir:7:5"),  # a trailing comma: the next line is read as its type, by lark
    ((": tensor<4xf32> loc(#loc1)", ""), "t.mlir:3:10"),  # no `: type`: the next line
])                                                      # is read as its operands
def test_errors_located_as_lark_locates_them(edit, where):
    text = PROGRAM.replace(*edit)
    fast = _parse(text, True)
    assert isinstance(fast, str) and fast.startswith(where + ":"), fast
    assert fast == _parse(text, False)


def test_a_text_of_unique_forms_is_left_to_lark():
    """A form parsed and copied costs more than lark reading its line: after many lines of
    new forms (here a constant of its own per line), the rest is lark's, parsed alike."""
    lines = [f"    %c{i} = stablehlo.constant dense<{i}.5> : tensor<{i + 1}xf32>" for i in range(400)]
    text = ("func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {\n" + "\n".join(lines)
            + "\n    return %x : tensor<4xf32>\n}\n")
    runs = parser._SameForm(text)
    assert parser.MIN_NEW_FORMS < runs.tried < 400 and runs.new == runs.tried
    assert _parse(text, True) == _parse(text, False)
