"""Long dense<"0x..."> blobs are set aside before lexing (frontend/parser.py,
set_aside_hex) and decoded from the original text: the values are the blob's, positions
after a blob on its line are the original columns, and a module with several blobs on one
line reads each. Big files are mapped (source.read_source): their blobs are set aside from
the mapping and never become a str."""
import numpy as np
import pytest

import aot
from lowering.frontend import source
from lowering.frontend.parser import parse_module, set_aside_hex
from lowering.ir.core import CompileError


def _module(blobs, tail=""):
    lines = ["func.func @main() -> (" + ", ".join(f"tensor<{a.size}x{t}>" for a, t in blobs) + ") {"]
    names = []
    for i, (a, t) in enumerate(blobs):
        lines.append(f'  %c{i} = stablehlo.constant dense<"0x{a.tobytes().hex().upper()}"> : '
                     f"tensor<{a.size}x{t}>{tail if i == 0 else ''}")
        names.append(f"%c{i}")
    types = ", ".join(f"tensor<{a.size}x{t}>" for a, t in blobs)
    lines += [f"  return {', '.join(names)} : {types}", "}"]
    return "\n".join(lines) + "\n"


def _constants(module):
    return [np.asarray(op.attrs["value"].array) for f in module.functions() for op in f.walk()
            if op.name.endswith("constant")]


def test_blobs_are_read_from_the_original_text():
    rng = np.random.default_rng(0)
    blobs = [(rng.standard_normal(50_000).astype(np.float32), "f32"),
             (rng.integers(-2**62, 2**62, 3000), "i64"), (np.array([1, 0] * 2100, np.bool_), "i1")]
    text = _module(blobs)
    lexed, found, _ = set_aside_hex(text)
    assert len(found) == 3 and len(lexed) < 1000  # the lexer sees keys, not the blobs
    for got, (want, _) in zip(_constants(parse_module(text, "m.mlir")), blobs):
        np.testing.assert_array_equal(got, want)


def test_positions_after_a_blob_are_the_original_columns():
    a = np.zeros(4096, np.float32)
    text = _module([(a, "f32")], tail=" junk")
    with pytest.raises(CompileError) as e:
        parse_module(text, "m.mlir")
    line = text.split("\n")[e.value.loc.line - 1]
    assert line[e.value.loc.col - 1:].startswith("junk"), e.value.render()[:200]


def test_two_blobs_on_one_line_and_a_short_one():
    a, b = np.arange(3000, dtype=np.int32), np.arange(4, dtype=np.int32)
    t = "tensor<3000xi32>"
    text = (f"func.func @main() -> ({t}, {t}, tensor<4xi32>) {{\n"
            f'  %a = stablehlo.constant dense<"0x{a.tobytes().hex()}"> : {t} %b = stablehlo.constant '
            f'dense<"0x{(a + 1).tobytes().hex()}"> : {t}\n'
            f'  %c = stablehlo.constant dense<"0x{b.tobytes().hex()}"> : tensor<4xi32>\n'
            f"  return %a, %b, %c : {t}, {t}, tensor<4xi32>\n}}\n")
    got = _constants(parse_module(text.replace(f": {t} %b", f": {t}\n  %b"), "m.mlir"))
    np.testing.assert_array_equal(got[0], a)
    np.testing.assert_array_equal(got[1], a + 1)
    np.testing.assert_array_equal(got[2], b)
    assert len(set_aside_hex(text)[1]) == 2  # the short one stays in the text


def test_float_attributes_from_integer_literals():
    """As MLIR reads them: a decimal integer is the float of that value, a hex one the float's
    bits; hex bits wider than the type are a located error."""
    text = ('func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {\n'
            '  %0 = "stablehlo.abs"(%x) {a = -1 : f32, b = 0x3F800000 : f32, c = 0x7C00 : f16} '
            ': (tensor<2xf32>) -> tensor<2xf32>\n  return %0 : tensor<2xf32>\n}\n')
    op = [o for f in parse_module(text, "m.mlir").functions() for o in f.walk()
          if o.name.endswith("abs")][0]
    assert op.attrs["a"] == -1.0 and op.attrs["b"] == 1.0 and op.attrs["c"] == float("inf")
    with pytest.raises(CompileError, match="hex float 0x10000 does not fit f16") as e:
        parse_module(text.replace("0x7C00 : f16", "0x10000 : f16"), "m.mlir")
    assert e.value.loc.line == 2


@pytest.fixture
def mapped(monkeypatch):
    """Every file is read the way a big one is: mapped, its blobs set aside there."""
    monkeypatch.setattr(source, "MAP_FROM_BYTES", 0)


def test_a_mapped_file_reads_the_same_constants(tmp_path, mapped):
    rng = np.random.default_rng(1)
    blobs = [(rng.standard_normal(5000).astype(np.float32), "f32"),
             (rng.integers(-9, 9, 4100).astype(np.int8), "i8")]
    path = tmp_path / "m.mlir"
    path.write_text(_module(blobs))
    text = source.read_source(str(path))
    assert isinstance(text, source.SourceText) and len(text) < 1000 and len(text.hex_blobs) == 2
    for got, (want, _) in zip(_constants(parse_module(text, str(path))), blobs):
        np.testing.assert_array_equal(got, want)


def test_a_mapped_file_keeps_original_columns_and_reports_bad_bytes(tmp_path, mapped):
    path = tmp_path / "m.mlir"
    path.write_text(_module([(np.zeros(4096, np.float32), "f32")], tail=" junk"))
    with pytest.raises(CompileError) as e:
        parse_module(source.read_source(str(path)), str(path))
    line = _module([(np.zeros(4096, np.float32), "f32")], tail=" junk").split("\n")[e.value.loc.line - 1]
    assert line[e.value.loc.col - 1:].startswith("junk")
    path.write_bytes(_module([(np.zeros(4096, np.float32), "f32")]).encode() + b"// \xff\n")
    with pytest.raises(CompileError, match="not UTF-8"):
        source.read_source(str(path))


def test_the_build_cache_tells_mapped_files_apart_by_their_blobs(tmp_path, mapped):
    """Two files that differ only inside a blob are two builds (the cache key is the file's
    digest, not the text the lexer sees)."""
    results = []
    for value in (1.0, 2.0):
        path = tmp_path / f"v{int(value)}" / "m.mlir"
        path.parent.mkdir()
        path.write_text(_module([(np.full(4096, value, np.float32), "f32")]))
        results.append(aot.compile(str(path), name="blob").main())
    assert results[0][0] == 1.0 and results[1][0] == 2.0
