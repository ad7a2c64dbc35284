"""Sub-byte integers i2, i4, ui2, ui4 (issue 31): StableHLO's storage types for quantized
programs. Dense constants parse (range-checked), buffers hold a value per byte as ml_dtypes'
int2/int4/uint2/uint4 do (the ABI's I2/I4/U2/U4: read from the low bits, written sign- or
zero-extended), and arithmetic wraps in the type's width (LLVM's i2/i4 registers), on the CPU
and on the emulated GPU grid, against Python integers reduced to the width."""
import ml_dtypes
import numpy as np
import pytest

import aot
from lowering.frontend.parser import parse_module
from lowering.frontend.printer import print_module
from lowering.ir.core import CompileError
from tooling.gpu_emu import build_emulated

NP = {"i2": ml_dtypes.int2, "i4": ml_dtypes.int4, "ui2": ml_dtypes.uint2, "ui4": ml_dtypes.uint4}
BINARY = ["add", "subtract", "multiply", "maximum", "minimum", "and", "or", "xor",
          "shift_left", "shift_right_logical", "shift_right_arithmetic"]
UNARY = ["negate", "not", "popcnt", "count_leading_zeros", "abs"]


def program(dt: str) -> str:
    t = f"tensor<?x{dt}>"
    lines = [f"  %b{i} = stablehlo.{op} %x, %y : {t}" for i, op in enumerate(BINARY)]
    lines += [f"  %u{i} = stablehlo.{op} %x : {t}" for i, op in enumerate(UNARY)]
    lines += [f"  %wide = stablehlo.convert %x : ({t}) -> tensor<?xf32>",
              f"  %back = stablehlo.convert %f : (tensor<?xf32>) -> {t}",
              f"  %lt = stablehlo.compare LT, %x, %y : ({t}, {t}) -> tensor<?xi1>",
              f"  %sum = stablehlo.reduce(%x init: %zero) applies stablehlo.add across dimensions = [0] : "
              f"({t}, tensor<{dt}>) -> tensor<{dt}>"]
    outs = ([f"%b{i}" for i in range(len(BINARY))] + [f"%u{i}" for i in range(len(UNARY))]
            + ["%wide", "%back", "%lt", "%sum", "%c"])
    types = [t] * (len(BINARY) + len(UNARY)) + ["tensor<?xf32>", t, "tensor<?xi1>", f"tensor<{dt}>",
                                                 f"tensor<4x{dt}>"]
    consts = {"i2": "[0, 1, -2, -1]", "i4": "[7, -8, 3, -1]", "ui2": "[0, 1, 2, 3]", "ui4": "[15, 0, 9, 1]"}
    return (f"func.func @main(%x: {t}, %y: {t}, %f: tensor<?xf32>) -> ({', '.join(types)}) {{\n"
            f"  %zero = stablehlo.constant dense<0> : tensor<{dt}>\n"
            f"  %c = stablehlo.constant dense<{consts[dt]}> : tensor<4x{dt}>\n"
            + "\n".join(lines) + f"\n  return {', '.join(outs)} : {', '.join(types)}\n}}\n")


def wrap(v: int, dt: str) -> int:
    bits = int(dt.lstrip("ui"))
    v &= (1 << bits) - 1
    return v - (1 << bits) if not dt.startswith("u") and v >> (bits - 1) else v


def reference(op: str, a: int, b: int, dt: str) -> int:
    bits = int(dt.lstrip("ui"))
    amount = b & ((1 << bits) - 1)  # shift amounts read as unsigned
    return wrap({
        "add": lambda: a + b, "subtract": lambda: a - b, "multiply": lambda: a * b,
        "maximum": lambda: max(a, b), "minimum": lambda: min(a, b),
        "and": lambda: a & b, "or": lambda: a | b, "xor": lambda: a ^ b,
        "shift_left": lambda: 0 if amount >= bits else a << amount,
        "shift_right_logical": lambda: 0 if amount >= bits else (a & ((1 << bits) - 1)) >> amount,
        "shift_right_arithmetic": lambda: wrap(a, dt.lstrip("u")) >> min(amount, bits - 1),  # the bits
        "negate": lambda: -a, "not": lambda: ~a, "abs": lambda: abs(a),
        "popcnt": lambda: bin(a & ((1 << bits) - 1)).count("1"),
        "count_leading_zeros": lambda: bits - (a & ((1 << bits) - 1)).bit_length(),
    }[op](), dt)


@pytest.fixture(scope="module", params=["cpu", "cuda"])
def target(request):
    return request.param


@pytest.mark.parametrize("dt", ["i2", "i4", "ui2", "ui4"])
def test_arithmetic_wraps_in_the_width(dt, target, tmp_path):
    text = program(dt)
    lib = (build_emulated(text, f"sub_{dt}", str(tmp_path)) if target == "cuda"
           else aot.compile(text, name=f"sub_{dt}", output_dir=str(tmp_path)))
    bits = int(dt.lstrip("ui"))
    lo, hi = (0, 1 << bits) if dt.startswith("u") else (-(1 << (bits - 1)), 1 << (bits - 1))
    pairs = [(a, b) for a in range(lo, hi) for b in range(lo, hi)]  # every pair of values
    x = np.array([a for a, _ in pairs], NP[dt])
    y = np.array([b for _, b in pairs], NP[dt])
    f = np.linspace(lo - 0.4, hi - 0.6, len(pairs)).astype(np.float32)
    outs = lib.main(x, y, f)
    for op, got in zip(BINARY + UNARY, outs):
        assert got.dtype == NP[dt], (op, got.dtype)
        want = [reference(op, a, b, dt) for a, b in pairs]
        assert [int(v) for v in got] == want, (op, dt, target)
    wide, back, lt, total, const = outs[len(BINARY) + len(UNARY):]
    np.testing.assert_array_equal(wide, x.astype(np.float32))
    assert [int(v) for v in back] == [int(v) for v in np.trunc(f)]  # in range: truncation
    np.testing.assert_array_equal(lt, x.astype(np.int64) < y.astype(np.int64))
    assert int(total) == wrap(sum(a for a, _ in pairs), dt)
    consts = {"i2": [0, 1, -2, -1], "i4": [7, -8, 3, -1], "ui2": [0, 1, 2, 3], "ui4": [15, 0, 9, 1]}
    assert [int(v) for v in const] == consts[dt]


def test_buffers_hold_a_value_per_byte():
    """ml_dtypes' layout in, sign-extended bytes out (an int8 view shows the value)."""
    text = ("func.func @main(%x: tensor<3xi4>) -> tensor<3xi4> {\n"
            "  %0 = stablehlo.negate %x : tensor<3xi4>\n  return %0 : tensor<3xi4>\n}\n")
    lib = aot.compile(text, name="sub_bytes")
    assert str(lib.main.signature) == "main(x: i4[3]) -> (i4[3])"
    out = lib.main(np.array([1, -7, 3], ml_dtypes.int4))
    assert out.view(np.int8).tolist() == [-1, 7, -3]


def test_constants_parse_print_and_are_range_checked():
    text = ("func.func @main() -> tensor<4xi2> {\n"
            "  %0 = stablehlo.constant dense<[0, 1, 0, -1]> : tensor<4xi2>\n"
            "  return %0 : tensor<4xi2>\n}\n")
    m = parse_module(text, "c.mlir")
    assert "dense<[0, 1, 0, -1]> : tensor<4xi2>" in print_module(m)
    with pytest.raises(CompileError, match="integer 4 out of range for i2") as info:
        parse_module(text.replace("0, -1]", "0, 4]"), "c.mlir")
    assert (info.value.loc.line, info.value.loc.col) == (2, 27)
    with pytest.raises(CompileError, match="integer 16 out of range for ui4"):
        parse_module(text.replace("0, -1]> : tensor<4xi2>", "0, 16]> : tensor<4xui4>")
                     .replace("tensor<4xi2>", "tensor<4xui4>"), "c.mlir")
