"""Syntax errors in the language's words, located; files that are not UTF-8 text.

Every terminal the parser can expect has words (lowering/frontend/tokens.py), so a new
grammar token cannot reach a message as `__ANON_3` or `bang_id`."""
import os
import re

import pytest

from lowering.frontend import tokens
from lowering.frontend.parser import parse_file, parse_module
from lowering.frontend.source import decode_source, read_source
from lowering.frontend.tokens import grammar as _lark
from lowering.ir.core import CompileError


def internal_names():
    """What a grammar-internal name looks like in a message: a terminal's name as lark
    spells it (`BANG_ID`, `LPAR`, `__ANON_1`), or lower-cased when it has an underscore
    (`bang_id`, `__anon_1`: plain `type` or `string` are words)."""
    names = sorted({t.name for t in _lark().terminals} | {"$END"}, key=len, reverse=True)
    word = r"(?<![\w$])({})(?!\w)"
    exact = re.compile(word.format("|".join(map(re.escape, names))))
    lower = re.compile("__|" + word.format("|".join(re.escape(n) for n in names if "_" in n)),
                       re.IGNORECASE)
    return lambda text: exact.search(text) or lower.search(text)


leaks = internal_names()


def terminal_names():
    names = {t.name for t in _lark().terminals} | {"$END"}
    for actions in _lark().parser.parser.parser.parse_table.states.values():
        names |= {n for n in actions if n == n.upper()}  # rules are lower case
    return sorted(names)


@pytest.mark.parametrize("name", terminal_names())
def test_every_terminal_has_words(name):
    words = tokens.describe(name)
    assert words != name and not leaks(words.replace("'", " ")), (name, words)
    literal = {t.name: t.pattern.value for t in _lark().terminals
               if type(t.pattern).__name__ == "PatternStr"}
    assert name in tokens.WORDS or words == f"'{literal[name]}'", (name, words)


def test_every_parser_state_expects_in_words():
    """What each LALR state can say it expected reads without grammar names."""
    for actions in _lark().parser.parser.parser.parse_table.states.values():
        expected = {n for n in actions if n == n.upper()}
        text = tokens.describe_expected(expected)
        stripped = re.sub(r"'[^']*'", "", text)  # quoted literals may be anything
        assert not leaks(stripped), (sorted(expected), text)


FUNC = "func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {\n"


@pytest.mark.parametrize("text, line, col, message", [
    (FUNC + "  %0 = stablehlo.add %a, %a : tensor<4xf32\n}\n", 2, 37,
     "'tensor<' is not closed: expected '>'"),
    ("func.func @main(%a: tensor<4xf32>) -> {\n}\n", 1, 39, "unexpected '{'; expected a type"),
    (FUNC + '  %0 = "stablehlo.add"(a, %a) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>\n}\n',
     2, 24, "unexpected 'a'; expected ')' or an SSA value like %0"),
    (FUNC + '  %0 = "stablehlo.add"(%a, %a) : (tensor<4xf32>, tensor<4xf32>) tensor<4xf32>\n}\n',
     2, 65, "unexpected 'tensor<4xf32>'; expected '->'"),
    (FUNC + "  %0 = stablehlo.add %a, %a {x = } : tensor<4xf32>\n}\n", 2, 34,
     "unexpected '}'; expected an attribute value"),
    (FUNC + "  %0 stablehlo.add %a, %a : tensor<4xf32>\n}\n", 2, 6,
     "unexpected 'stablehlo.add'; expected ',', ':' or '='"),
    ("func.func @main(%a tensor<4xf32>) -> tensor<4xf32> {\n}\n", 1, 20, "expected ':'"),
    (FUNC + "  %0 = stablehlo.add %a, %a : tensor<4xf32>\n  return %0 : tensor<4xf32>\n\n\n",
     3, 28, "unexpected end of input; expected an operation, '}' or a block label like ^bb0"),
    (FUNC + '  %0 = stablehlo.custom_call @f(%a) {backend_config = "abc\n}\n', 2, 55,
     "string not closed"),
    ("\x00module {}\n", 1, 1, "unexpected character U+0000"),
    ("#map = ]\nmodule {}\n", 1, 8, "unexpected ']'; expected an attribute value"),
    ("module {\n  func.func @f(\n", 2, 16,
     "unexpected end of input; expected a type, ')' or an SSA value like %0"),
])
def test_syntax_errors_say_what_was_expected(text, line, col, message):
    with pytest.raises(CompileError) as info:
        parse_module(text, "bad.mlir")
    err = info.value
    assert (err.loc.line, err.loc.col) == (line, col), err.render()
    assert message in err.message, err.render()
    assert not leaks(re.sub(r"'[^']*'", "", err.message)), err.render()
    rendered = err.render().split("\n")
    assert rendered[0].startswith(f"bad.mlir:{line}:{col}: error:")
    assert len(rendered) == 3 and rendered[2] == " " * (col - 1) + "^", err.render()
    assert all(c.isprintable() for c in rendered[1]), err.render()


def test_long_tokens_are_cut_in_messages():
    blob = '"0x' + "00" * 5000 + '"'
    text = FUNC + f"  %0 = stablehlo.constant dense<{blob}> tensor<4xf32>\n}}\n"
    with pytest.raises(CompileError) as info:
        parse_module(text, "bad.mlir")
    assert len(info.value.message) < 200, info.value.message


# ----------------------------------------------------------------------------- not UTF-8


@pytest.mark.parametrize("data, line, col, byte", [
    (b"\xff\xfe m\x00o\x00d\x00", 1, 1, 0),                      # UTF-16 text
    (b"module {\n  // caf\xe9\n}\n", 2, 9, 17),                   # Latin-1
    (b"// \xc3\xa9t\xc3\xa9 ok\nmodule {\n\x7fELF\x02\x01\x80\n", 3, 7, 27),  # after valid UTF-8
])
def test_not_utf8_is_located(data, line, col, byte):
    with pytest.raises(CompileError) as info:
        decode_source(data, "bin.mlir")
    err = info.value
    assert (err.loc.file, err.loc.line, err.loc.col) == ("bin.mlir", line, col), err.render()
    assert err.message.startswith(f"not UTF-8 text at byte {byte} (0x{data[byte]:02x})")
    rendered = err.render().split("\n")
    assert rendered[0].startswith(f"bin.mlir:{line}:{col}: error: not UTF-8 text")
    assert rendered[2] == " " * (col - 1) + "^" and rendered[1].isprintable(), err.render()


def test_source_newlines_and_bom():
    assert decode_source(b"\xef\xbb\xbfa\r\nb\rc\n", "f") == "a\nb\nc\n"


def test_read_source_and_parse_file(tmp_path):
    p = tmp_path / "model.mlir"
    p.write_bytes(os.urandom(64) + b"\xff")
    with pytest.raises(CompileError) as info:
        parse_file(str(p))
    assert info.value.loc.file == str(p) and info.value.loc.line >= 1
    with pytest.raises(CompileError) as info:
        read_source(str(tmp_path))  # a directory
    assert "cannot read the input" in info.value.message


def test_cli_and_api_report_binary_input(tmp_path, capsys):
    import aot
    from aot.cli import main
    p = tmp_path / "model.mlir"
    p.write_bytes(b"module {\n  func.func @main() {\n    \x89PNG\r\n\x1a\n")
    assert main(["compile", str(p), "--emit", "hlo", "-o", "-"]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"{p}:3:5: error: not UTF-8 text at byte 35 (0x89)"), err
    assert "internal compiler error" not in err and "Traceback" not in err
    with pytest.raises(CompileError) as info:
        aot.compile(str(p))
    assert str(info.value.loc) == f"{p}:3:5"
