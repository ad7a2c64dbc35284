"""Complex element types (lowering/ops/complex.py): complex<f32> and complex<f64> from the text
to the ABI, each op against numpy, and the edge cases (infinities, NaNs, signed zeros)
where XLA's CPU results are what the compiler gives. The JAX-exported cases are in the
conformance corpus (tests/data/conformance/complex_*).
"""
from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest

import aot
from abi import dtypes
from lowering.frontend.parser import parse_module
from lowering.frontend.printer import print_module
from lowering.ir.attrs import AttrError, decode_dense, parse_type
from lowering.ir.core import CompileError, TensorType
from lowering.ops import registry
from tooling import sanitize

C64, C128 = np.complex64, np.complex128
TOL = {C64: dict(rtol=2e-6, atol=1e-6), C128: dict(rtol=1e-13, atol=1e-14)}
T = {C64: "complex<f32>", C128: "complex<f64>"}


def cx(values, dtype):
    """Complex numbers from (re, im) pairs, set by part (1j * inf would make a NaN)."""
    pairs = np.asarray(values, np.float64).reshape(-1, 2)
    out = np.empty(len(pairs), dtype)
    out.real, out.imag = pairs[:, 0], pairs[:, 1]
    return out


def close(got, want, dtype):
    """Each part within tolerance, NaN where the other has NaN."""
    for f in (np.real, np.imag):
        np.testing.assert_allclose(f(got), f(want), equal_nan=True, **TOL[dtype])


def unary_program(ops, t, n="?"):
    """@main(x) returning each op of x (elementwise ops of one operand)."""
    ty = f"tensor<{n}x{t}>"
    body, rets, types = [], [], []
    for i, (op, rt) in enumerate(ops):
        rt = f"tensor<{n}x{rt}>" if rt else ty
        body.append(f"  %{i} = stablehlo.{op} %x : ({ty}) -> {rt}")
        rets.append(f"%{i}")
        types.append(rt)
    return (f"func.func @main(%x: {ty}) -> ({', '.join(types)}) {{\n" + "\n".join(body)
            + f"\n  return {', '.join(rets)} : {', '.join(types)}\n}}\n")


RNG = np.random.default_rng(13)
DATA = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "data", "complex")


def program(name):
    with open(os.path.join(DATA, name + ".mlir")) as f:
        return f.read()


def random_cx(n, dtype, scale=2.0, rng=None):
    rng = RNG if rng is None else rng
    return (rng.uniform(-scale, scale, n) + 1j * rng.uniform(-scale, scale, n)).astype(dtype)


# ----------------------------------------------------------------------------- text


def test_types_parse_and_print():
    t = parse_type("tensor<2x?xcomplex<f64>>")
    assert t == TensorType((2, None), "complex<f64>") and str(t) == "tensor<2x?xcomplex<f64>>"


@pytest.mark.parametrize("body, want", [
    ("(1.5,-2.0)", [1.5 - 2j] * 3),
    ("[(1.0,2.0), (0.0,-0.5), (-3.0,4.0)]", [1 + 2j, -0.5j, -3 + 4j]),
    ("[(0x7F800000,0.0), (0xFF800000,0x7FC00000), (1.0e+00,-0.000000e+00)]",
     cx([[np.inf, 0], [-np.inf, np.nan], [1, -0.0]], C64)),
    ('"0x0000803F000000C0000000000000803F0000404000008040"', [1 - 2j, 1j, 3 + 4j]),
])
def test_constants_in_every_printed_form(body, want):
    got = decode_dense(body, TensorType((3,), "complex<f32>")).array
    assert got.dtype == C64
    np.testing.assert_array_equal(got, np.asarray(want, C64))
    if "0.000000e+00)" in body:  # the sign of a zero part is kept
        assert np.signbit(got[2].imag)


def test_malformed_complex_constant_is_an_error():
    with pytest.raises(AttrError, match="expected \\(re, im\\) pairs"):
        decode_dense("[(1.0,2.0,3.0)]", TensorType((1,), "complex<f32>"))
    with pytest.raises(AttrError, match="complex literal"):
        decode_dense("(1.0,2.0)", TensorType((1,), "f32"))


def test_constant_prints_back_as_mlir_does():
    text = ("func.func @main() -> tensor<2xcomplex<f32>> {\n"
            "  %0 = stablehlo.constant dense<[(1.0,-2.0), (0x7F800000,0.5)]> : tensor<2xcomplex<f32>>\n"
            "  return %0 : tensor<2xcomplex<f32>>\n}\n")
    printed = print_module(parse_module(text))
    assert "dense<[(1.0,-2.0), (0x7F800000,0.5)]> : tensor<2xcomplex<f32>>" in printed, printed


# ----------------------------------------------------------------------------- ABI


def test_abi_codes_are_appended():
    assert (dtypes.dtype("complex<f32>").code, dtypes.dtype("complex<f32>").size) == (13, 8)
    assert (dtypes.dtype("complex<f64>").code, dtypes.dtype("complex<f64>").size) == (14, 16)
    assert dtypes.dtype("complex<f32>").enum == "AOT_C64" and dtypes.from_numpy(C128).enum == "AOT_C128"
    assert dtypes.dtype("ui64").code == 12  # the codes before keep their values


@pytest.fixture(scope="module")
def add_lib():
    return aot.compile("func.func @main(%a: tensor<?xcomplex<f64>>, %b: tensor<?xcomplex<f64>>)"
                       " -> tensor<?xcomplex<f64>> {\n"
                       "  %0 = stablehlo.add %a, %b : tensor<?xcomplex<f64>>\n"
                       "  return %0 : tensor<?xcomplex<f64>>\n}\n")


def test_python_takes_and_returns_complex_arrays(add_lib):
    a, b = random_cx(7, C128), random_cx(7, C128)
    got = add_lib.main(a, b)
    assert got.dtype == C128 and got.shape == (7,)
    np.testing.assert_array_equal(got, a + b)
    np.testing.assert_array_equal(add_lib.main([1 + 2j, 3], [1j, 0.5]), [1 + 3j, 3.5])  # lists
    assert "complex<f64>[?]" in str(add_lib.main.signature)
    with pytest.raises(TypeError, match="expects complex<f64>"):
        add_lib.main(a.astype(C64), b)
    strided = np.stack([a, b], axis=1)[:, 0]  # not contiguous: copied first
    np.testing.assert_array_equal(add_lib.main(strided, b), a + b)


# ----------------------------------------------------------------------------- ops


UNARY = [  # (op, result type or None for the operand's, numpy reference)
    ("negate", None, np.negative), ("abs", "r", np.abs), ("exponential", None, np.exp),
    ("log", None, np.log), ("sqrt", None, np.sqrt), ("rsqrt", None, lambda z: 1 / np.sqrt(z)),
    ("sine", None, np.sin), ("cosine", None, np.cos), ("tan", None, np.tan),
    ("tanh", None, np.tanh), ("log_plus_one", None, np.log1p), ("exponential_minus_one", None, np.expm1),
    ("sign", None, lambda z: z / np.abs(z)), ("real", "r", np.real), ("imag", "r", np.imag),
    ("cbrt", None, lambda z: z ** (1 / 3)), ("logistic", None, lambda z: 1 / (1 + np.exp(-z))),
    ("chlo.sinh", None, np.sinh), ("chlo.cosh", None, np.cosh), ("chlo.square", None, np.square),
    ("chlo.asin", None, np.arcsin), ("chlo.acos", None, np.arccos), ("chlo.atan", None, np.arctan),
    ("chlo.asinh", None, np.arcsinh), ("chlo.acosh", None, np.arccosh), ("chlo.atanh", None, np.arctanh),
]


@pytest.mark.parametrize("dtype", [C64, C128])
def test_unary_ops_against_numpy(dtype):
    t = T[dtype]
    part = t[8:-1]
    ops = [(op, part if rt == "r" else None) for op, rt, _ in UNARY]
    text = unary_program(ops, t).replace("stablehlo.chlo.", "chlo.")
    lib = aot.compile(text)
    z = np.concatenate([random_cx(40, dtype), random_cx(8, dtype, 1e-3),
                        np.asarray([1e-30 + 1e-30j, 3 + 0j, -3 + 0j, 2j, 0.5 - 1e-6j, 1.0001 + 1e-7j,
                                    -1.0001 - 1e-7j], dtype)])
    for (op, _, ref), got in zip(UNARY, lib.main(z)):
        with np.errstate(all="ignore"):
            want = ref(z.astype(C128))
        if got.dtype.kind == "c":
            close(got, want.astype(dtype), dtype)
        else:
            np.testing.assert_allclose(got, want.astype(got.dtype), err_msg=op, **TOL[dtype])


BINARY = [("add", np.add), ("subtract", np.subtract), ("multiply", np.multiply),
          ("divide", np.divide), ("power", np.power)]


@pytest.mark.parametrize("dtype", [C64, C128])
def test_binary_ops_against_numpy(dtype):
    ty = f"tensor<?x{T[dtype]}>"
    body = "\n".join(f"  %{i} = stablehlo.{op} %a, %b : {ty}" for i, (op, _) in enumerate(BINARY))
    rets = ", ".join(f"%{i}" for i in range(len(BINARY)))
    lib = aot.compile(f"func.func @main(%a: {ty}, %b: {ty}) -> ({', '.join([ty] * len(BINARY))}) {{\n"
                      f"{body}\n  return {rets} : {', '.join([ty] * len(BINARY))}\n}}\n")
    # inputs of this test's own, not the module's generator: the draws must not depend on
    # which tests ran before in the same worker
    rng = np.random.default_rng(29)
    a, b = random_cx(50, dtype, rng=rng), random_cx(50, dtype, rng=rng)
    a[:2], b[:2] = [0.5j, 3 - 1j], [2 + 1j, 1]
    for (op, ref), got in zip(BINARY, lib.main(a, b)):
        want = ref(a.astype(C128), b.astype(C128))
        if op == "power":
            # exp(b log a) is accurate relative to its modulus, not per part: a part much
            # smaller than |a^b| (up to ~1e3 here) carries the modulus' rounding (2e5
            # samples: at most 1.4e-7 |a^b| for complex64)
            tol = TOL[dtype]
            assert np.all(np.abs(got - want) <= tol["atol"] + tol["rtol"] * np.abs(want)), op
        else:
            close(got, want.astype(dtype), dtype)
    # Smith's division: no overflow or underflow in |b|^2
    big = np.finfo(dtype).max / 4
    a, b = np.array([big + big * 1j, 3e-30j], dtype), np.array([big - big * 1j, 1e-30 + 1e-30j], dtype)
    close(lib.main(a, b)[3], np.array([1j, 1.5 + 1.5j], dtype), dtype)


def test_inverse_functions_far_out_and_at_infinity():
    """asin ... atanh (Hull et al., Kahan) past sqrt(max) and at infinities: the limits XLA
    gives (checked over every special pair by the corpus' complex_inverse_special_c64)."""
    names = ["asin", "acos", "asinh", "acosh", "atan", "atanh"]
    lib = aot.compile(unary_program([("chlo." + n, None) for n in names], "complex<f64>")
                      .replace("stablehlo.chlo.", "chlo."))
    z = cx([[1e200, 1e200], [-3e300, 1], [np.inf, 0], [2, -np.inf], [np.inf, np.nan]], C128)
    got = dict(zip(names, lib.main(z)))
    with np.errstate(all="ignore"):
        for n, ref in (("asin", np.arcsin), ("acos", np.arccos), ("asinh", np.arcsinh),
                       ("acosh", np.arccosh), ("atan", np.arctan), ("atanh", np.arctanh)):
            close(got[n][:2], ref(z[:2]), C128)
    assert got["asin"][2] == complex(np.pi / 2, np.inf) and got["acos"][3] == complex(np.pi / 2, np.inf)
    assert got["atanh"][2] == complex(0, np.pi / 2) and got["atan"][3] == complex(np.pi / 2, -0.0)
    assert got["asinh"][4].real == np.inf and np.isnan(got["asinh"][4].imag)


def test_edge_cases_are_xlas():
    """Infinities, NaNs and signed zeros as XLA's CPU backend gives them (measured against
    JAX over every pair of special values in the corpus' complex_special_values cases):
    where C99/numpy says otherwise, the test says which."""
    lib = aot.compile(unary_program([("exponential", None), ("sqrt", None), ("abs", "f32"),
                                     ("tanh", None), ("log", None)], "complex<f32>"))
    z = cx([[np.inf, 0], [-2, -0.0], [np.inf, np.nan], [0, 0], [-np.inf, 0], [1, np.inf],
            [np.nan, 0], [np.inf, np.inf]], C64)
    exp, sqrt, absolute, tanh, log = lib.main(z)
    # exp of a real z is real, even at NaN (numpy: exp(NaN+0j) = NaN+NaN j)
    assert exp[0] == np.inf and exp[6].imag == 0 and not np.signbit(exp[6].imag)
    # sqrt(-2-0j) is +1.414j in XLA (C99 and numpy: -1.414j); sqrt(1+inf j) = inf+inf j
    assert sqrt[1].real == 0 and sqrt[1].imag == pytest.approx(np.sqrt(2))
    assert sqrt[5] == complex(np.inf, np.inf) and sqrt[3] == 0
    # |inf + NaN j| is NaN in XLA (numpy's hypot: inf); |inf + inf j| = inf
    assert np.isnan(absolute[2]) and absolute[7] == np.inf and absolute[3] == 0
    # tanh(inf + 0j) = 1 + 0j, tanh(NaN + 0j) = NaN + 0j (C99)
    assert tanh[0] == 1 and np.isnan(tanh[6].real) and tanh[6].imag == 0
    # log(0) = -inf + 0j, log(-inf + 0j) = inf + pi j
    assert log[3] == complex(-np.inf, 0) and log[4] == complex(np.inf, np.float32(np.pi))


def test_division_special_cases():
    """Smith's algorithm; finite / infinite is 0. XLA recovers x/0 and inf/finite as C99's
    infinities in complex<f64> only: in complex<f32> they stay NaN."""
    for dtype in (C64, C128):
        ty = f"tensor<4x{T[dtype]}>"
        lib = aot.compile(f"func.func @main(%a: {ty}, %b: {ty}) -> {ty} {{\n"
                          f"  %0 = stablehlo.divide %a, %b : {ty}\n  return %0 : {ty}\n}}\n")
        a = cx([[1, 2], [1, 0], [np.inf, np.inf], [0, 0]], dtype)
        b = cx([[np.inf, 1], [0, 0], [1, 0], [0, 0]], dtype)
        got = lib.main(a, b)
        assert got[0] == 0 and np.isnan(got[3].real) and np.isnan(got[3].imag)
        if dtype == C128:  # (1+0j)/0 = inf * (1+0j); (inf+inf j)/1 = inf+inf j
            assert got[1].real == np.inf and np.isnan(got[1].imag)
            assert got[2] == complex(np.inf, np.inf)
        else:
            assert np.isnan(got[1].real) and np.isnan(got[2].real)


def test_power_of_zero():
    """0^w is 1 for w = 0 and 0 for a real w > 0 (Kahan); otherwise XLA's polar formula,
    which gives NaN for a complex w (numpy: 0)."""
    ty = "tensor<4xcomplex<f64>>"
    lib = aot.compile(f"func.func @main(%a: {ty}, %b: {ty}) -> {ty} {{\n"
                      f"  %0 = stablehlo.power %a, %b : {ty}\n  return %0 : {ty}\n}}\n")
    got = lib.main(np.zeros(4, C128), np.array([0, 2.5, -1, 2 + 1j], C128))
    assert got[0] == 1 and got[1] == 0 and np.isnan(got[2].real) and np.isnan(got[3].real)


def test_compare_convert_select():
    text = program("compare_convert_select")
    lib = aot.compile(text)
    a = cx([[1, 2], [np.nan, 0], [3.7, -1], [0, 5], [-1e12, 0]], C64)
    b = cx([[1, 2], [np.nan, 0], [3.7, 1], [0, 5], [0, 0]], C64)
    i = np.array([1, -2, 0, 7, 2**31 - 1], np.int32)
    eq, ne, sel, re, ints, wide, from_int, nonzero = lib.main(a, b, i)
    np.testing.assert_array_equal(eq, a == b)  # NaN is unequal to itself
    np.testing.assert_array_equal(ne, a != b)
    np.testing.assert_array_equal(sel, np.where(a == b, a, b))
    np.testing.assert_array_equal(re, a.real)  # complex to real: the real part
    np.testing.assert_array_equal(ints, [1, 0, 3, 0, -2**31])  # NaN to 0, saturating
    np.testing.assert_array_equal(wide, a.astype(C128))
    np.testing.assert_array_equal(from_int, i.astype(C64))
    np.testing.assert_array_equal(nonzero, a.real != 0)


def test_dot_and_reduce_against_numpy():
    text = program("dot_reduce")
    lib = aot.compile(text)
    for rows in (1, 4, 33):
        a, b = random_cx(rows * 5, C128).reshape(rows, 5), random_cx(15, C128, 0.5).reshape(5, 3)
        mm, sums, prod = lib.main(a, b)
        close(mm, a @ b, C128)
        close(sums, a.sum(axis=0), C128)
        np.testing.assert_allclose(prod, np.prod(a @ b), rtol=1e-12)


def test_data_movement_moves_whole_elements():
    """Transpose, slice, concatenate and pad of complex<f32>: 8-byte elements, bit for bit."""
    text = program("data_movement")
    lib = aot.compile(text)
    x = random_cx(12, C64).reshape(3, 4)
    t, s, c, p = lib.main(x)
    bits = lambda a: np.ascontiguousarray(a).view(np.uint64)  # noqa: E731
    np.testing.assert_array_equal(bits(t), bits(x.T))
    np.testing.assert_array_equal(bits(s), bits(x[:, 1::2]))
    np.testing.assert_array_equal(bits(c), bits(np.concatenate([x, x])))
    fill = cx([[np.nan, -0.0]], C64)[0]
    want = np.full((4, 6), fill, C64)
    want[1:, :4] = x
    np.testing.assert_array_equal(bits(p), bits(want))


def _xla_agrees(got, want, dtype):
    """Each part: NaN and infinity where XLA has them, a zero's sign where the other part
    agrees exactly, else within a few ulps of max(1, |part|) (atan2's real part modulo 2 pi,
    as a rounding can put a point on the other side of the branch cut; XLA's sin, atan2 and
    pow are not the ones here)."""
    tol = 8 * np.finfo(dtype).eps
    bad = []
    for this, other in ((np.real, np.imag), (np.imag, np.real)):
        g, w = this(got).astype(np.float64), this(want).astype(np.float64)
        same_other = (other(got) == other(want)) | (np.isnan(other(got)) & np.isnan(other(want)))
        with np.errstate(invalid="ignore"):
            diff = g - w
            if this is np.real:
                diff = (diff + np.pi) % (2 * np.pi) - np.pi
            ok = (np.isnan(g) == np.isnan(w)) & ((g == w) | ~np.isinf(w)) & (np.isinf(g) == np.isinf(w))
            ok &= ~np.isfinite(w) | (np.abs(diff) <= tol * np.maximum(1, np.abs(w)))
            ok &= ~((g == 0) & (w == 0) & same_other) | (np.signbit(g) == np.signbit(w))
        bad += list(np.nonzero(~ok)[0])
    return sorted(set(bad))


@pytest.mark.parametrize("dtype, target", [(C64, "cpu"), (C128, "cpu"), (C64, "cuda")])
def test_atan2_maximum_minimum_are_xlas(dtype, target, tmp_path):
    """Against XLA's CPU results (tests/data/complex/export_xla_ops.py) on every pair of
    special values and random pairs, on the CPU and the emulated GPU. maximum/minimum pick by
    the real parts alone (NaN loses, ties keep the first), bit for bit; atan2 is
    -i log((x + iy) / sqrt(x^2 + y^2)) with XLA's NaNs and infinities."""
    from tooling.gpu_emu import build_emulated
    ty = f"tensor<?x{T[dtype]}>"
    text = (f"func.func @main(%y: {ty}, %x: {ty}) -> ({ty}, {ty}, {ty}) {{\n"
            f"  %0 = stablehlo.atan2 %y, %x : {ty}\n  %1 = stablehlo.maximum %y, %x : {ty}\n"
            f"  %2 = stablehlo.minimum %y, %x : {ty}\n  return %0, %1, %2 : {ty}, {ty}, {ty}\n}}\n")
    lib = build_emulated(text, "cx_atan2", str(tmp_path)) if target == "cuda" else aot.compile(text)
    tag = "c64" if dtype == C64 else "c128"
    data = np.load(os.path.join(DATA, "xla_ops.npz"))
    y, x = data[f"{tag}_y"], data[f"{tag}_x"]
    atan2, high, low = lib.main(y, x)
    bad = _xla_agrees(atan2, data[f"{tag}_atan2"], dtype)
    assert not bad, [(y[i], x[i], atan2[i], data[f"{tag}_atan2"][i]) for i in bad[:5]]
    assert np.isnan(atan2.real).sum() > 1000 and np.isinf(atan2.imag).sum() >= 8  # specials were hit
    for got, op in ((high, "maximum"), (low, "minimum")):
        np.testing.assert_array_equal(got.view(np.uint8), data[f"{tag}_{op}"].view(np.uint8), err_msg=op)


@pytest.mark.parametrize("dtype", [C64, C128])
def test_clamp_is_xlas(dtype):
    """clamp(lo, x, hi) = minimum(maximum(lo, x), hi) by real parts, bit for bit with XLA on
    every triple of -1, 0, -0, 1, NaN; scalar bounds too."""
    ty, st = f"tensor<?x{T[dtype]}>", f"tensor<{T[dtype]}>"
    lib = aot.compile(f"func.func @main(%lo: {ty}, %x: {ty}, %hi: {ty}, %a: {st}, %b: {st})"
                      f" -> ({ty}, {ty}) {{\n"
                      f"  %0 = stablehlo.clamp %lo, %x, %hi : {ty}\n"
                      f"  %1 = stablehlo.clamp %a, %x, %b : ({st}, {ty}, {st}) -> {ty}\n"
                      f"  return %0, %1 : {ty}, {ty}\n}}\n")
    tag = "c64" if dtype == C64 else "c128"
    data = np.load(os.path.join(DATA, "xla_ops.npz"))
    lo, x, hi = (data[f"{tag}_clamp_{k}"] for k in ("lo", "x", "hi"))
    got, scalar = lib.main(lo, x, hi, dtype(-0.5 + 7j), dtype(0.5 - 7j))
    np.testing.assert_array_equal(got.view(np.uint8), data[f"{tag}_clamp_out"].view(np.uint8))
    low, high = dtype(-0.5 + 7j), dtype(0.5 - 7j)
    want = [low if v.real < -0.5 else v if v.real <= 0.5 else high for v in x]  # a NaN real part: high
    np.testing.assert_array_equal(scalar.view(np.uint8), np.array(want, dtype).view(np.uint8))


def test_bitcast_convert_of_complex():
    """complex<f64> <-> 2 x complex<f32> in memory order (the spec allows it; XLA does not);
    complex<f32> to itself; real <-> complex is an error, as StableHLO's verifier says."""
    text = ("func.func @main(%a: tensor<3xcomplex<f64>>, %b: tensor<2x2xcomplex<f32>>) -> "
            "(tensor<3x2xcomplex<f32>>, tensor<2xcomplex<f64>>, tensor<2x2xcomplex<f32>>) {\n"
            "  %0 = stablehlo.bitcast_convert %a : (tensor<3xcomplex<f64>>) -> tensor<3x2xcomplex<f32>>\n"
            "  %1 = stablehlo.bitcast_convert %b : (tensor<2x2xcomplex<f32>>) -> tensor<2xcomplex<f64>>\n"
            "  %2 = stablehlo.bitcast_convert %b : (tensor<2x2xcomplex<f32>>) -> tensor<2x2xcomplex<f32>>\n"
            "  return %0, %1, %2 : tensor<3x2xcomplex<f32>>, tensor<2xcomplex<f64>>,"
            " tensor<2x2xcomplex<f32>>\n}\n")
    lib = aot.compile(text)
    a = cx([[1.5, -2.0], [np.inf, -0.0], [np.nan, 1e-300]], C128)
    b = np.frombuffer(np.random.default_rng(5).integers(0, 2**32, 8, dtype=np.uint32).tobytes(),
                      C64).reshape(2, 2)
    split, joined, same = lib.main(a, b)
    assert split.tobytes() == a.tobytes() and split.shape == (3, 2)
    assert joined.tobytes() == b.tobytes() and same.tobytes() == b.tobytes()
    bad = ("func.func @main(%a: tensor<3xcomplex<f32>>) -> tensor<3xi64> {\n"
           "  %0 = stablehlo.bitcast_convert %a : (tensor<3xcomplex<f32>>) -> tensor<3xi64>\n"
           "  return %0 : tensor<3xi64>\n}\n")
    with pytest.raises(CompileError, match="cannot convert between real and complex types") as e:
        aot.compile(bad)
    assert e.value.loc.line == 2


SELECT_AND_SCATTER = """func.func @main(%x: tensor<4x6xcomplex<f64>>, %s: tensor<2x3xcomplex<f64>>) -> tensor<4x6xcomplex<f64>> {
  %init = stablehlo.constant dense<(0.5,-1.0)> : tensor<complex<f64>>
  %0 = "stablehlo.select_and_scatter"(%x, %s, %init) ({
    ^bb0(%a: tensor<complex<f64>>, %b: tensor<complex<f64>>):
      %ra = stablehlo.real %a : (tensor<complex<f64>>) -> tensor<f64>
      %rb = stablehlo.real %b : (tensor<complex<f64>>) -> tensor<f64>
      %c = stablehlo.compare GE, %ra, %rb : (tensor<f64>, tensor<f64>) -> tensor<i1>
      stablehlo.return %c : tensor<i1>
  }, {
    ^bb0(%a: tensor<complex<f64>>, %b: tensor<complex<f64>>):
      %m = stablehlo.multiply %a, %b : tensor<complex<f64>>
      %r = stablehlo.add %m, %b : tensor<complex<f64>>
      stablehlo.return %r : tensor<complex<f64>>
  }) {window_dimensions = array<i64: 2, 2>, window_strides = array<i64: 2, 1>}
     : (tensor<4x6xcomplex<f64>>, tensor<2x3xcomplex<f64>>, tensor<complex<f64>>) -> tensor<4x6xcomplex<f64>>
  return %0 : tensor<4x6xcomplex<f64>>
}
"""  # noqa: E501


@pytest.mark.parametrize("target", ["cpu", "cuda"])
def test_select_and_scatter_of_complex(target, tmp_path):
    """Windows of 2x2 at strides (2, 1), overlapping in dim 1: each source value goes to its
    window's element of largest real part (the first on ties) through a complex
    multiply-add, in source order."""
    from tooling.gpu_emu import build_emulated
    text = SELECT_AND_SCATTER.replace("[2, 3]", "").replace("2x3xcomplex", "2x5xcomplex")
    lib = (build_emulated(text, "sas_cx", str(tmp_path)) if target == "cuda"
           else aot.compile(text, name="sas_cx"))
    x = random_cx(24, C128).reshape(4, 6)
    x[0, 0] = x[0, 1] = 3 + 1j  # a tie: the first wins
    s = random_cx(10, C128).reshape(2, 5)
    want = np.full((4, 6), 0.5 - 1j)
    for i in range(2):
        for j in range(5):
            w = x[2 * i:2 * i + 2, j:j + 2].real
            a, b = np.unravel_index(np.argmax(w), w.shape)
            want[2 * i + a, j + b] = want[2 * i + a, j + b] * s[i, j] + s[i, j]
    close(lib.main(x, s), want, C128)


@pytest.mark.parametrize("op, message", [
    ("remainder", "'mhlo.remainder': remainder of complex<f32> (complex numbers) is not supported yet"),
])
def test_ops_without_complex_rules_are_located_errors(op, message):
    text = ("func.func @main(%a: tensor<2xcomplex<f32>>) -> tensor<2xcomplex<f32>> {\n"
            f"  %0 = stablehlo.{op} %a, %a : tensor<2xcomplex<f32>>\n"
            "  return %0 : tensor<2xcomplex<f32>>\n}\n")
    with pytest.raises(CompileError, match=message.replace("(", "\\(").replace(")", "\\)")) as e:
        aot.compile(text)
    assert e.value.loc.line == 2


def test_compare_order_of_complex_is_an_error():
    text = ("func.func @main(%a: tensor<2xcomplex<f32>>) -> tensor<2xi1> {\n"
            "  %0 = stablehlo.compare LT, %a, %a :"
            " (tensor<2xcomplex<f32>>, tensor<2xcomplex<f32>>) -> tensor<2xi1>\n"
            "  return %0 : tensor<2xi1>\n}\n")
    with pytest.raises(CompileError, match="only compared EQ or NE"):
        aot.compile(text)


def test_registry_lists_only_defined_ops():
    assert registry.COMPLEX <= set(registry.OPS)
    assert set(registry.COMPLEX_NOT_YET) <= set(registry.OPS) - registry.COMPLEX
    for name in registry.COMPLEX:  # every elementwise op that takes complex has its rule
        d = registry.OPS[name]
        if d.kind == "elementwise" and name not in ("complex",):
            assert d.complex_scalar is not None, name


def test_cuda_target_builds_complex_kernels(tmp_path):
    """The cuda target compiles complex arithmetic, a reduction and a dot (the loop-form
    kernel) to PTX; their numbers are checked on the emulated grid
    by tests/tooling/gpu_emu/corpus_run.py over the corpus' complex cases."""
    from aot.driver import Compilation, Options
    text = program("cuda_kernels")
    out = str(tmp_path / "cx.ptx")
    Compilation(text, "cx.mlir", Options(name="m", emit="ptx", target="cuda", gpu_arch="sm_80")).build(out)
    ptx = open(out).read()
    assert ptx.count(".entry") >= 2


def test_c_and_cpp_see_complex_pairs(tmp_path):
    """The C header says AOT_C64 and a C99 program passes `float complex` arrays; the C++
    class's accessors are std::complex<float>."""
    out = str(tmp_path)
    env = dict(os.environ, PYTHONPATH=os.path.dirname(os.path.dirname(DATA)))
    subprocess.run([sys.executable, "-m", "aot.cli", "compile", os.path.join(DATA, "square.mlir"),
                    "--name", "square", "--cpp-class", "demo::Square", "-o",
                    os.path.join(out, "libsquare.so")], check=True, env=env, capture_output=True)
    header = open(os.path.join(out, "square.h")).read()
    assert "square_main_arg_x_DTYPE   AOT_C64" in header and "float _Complex (re, im)" in header
    hpp = open(os.path.join(out, "square.hpp")).read()
    assert "std::complex<float> &result0(int64_t i0, int64_t i1)" in hpp and "#include <complex>" in hpp
    exe = os.path.join(out, "c_abi")
    subprocess.run(["cc", "-std=c11", "-O1", "-Wall", "-Werror", *sanitize.cflags(), "-o", exe,
                    os.path.join(DATA, "c_abi.c"), "-I", out, "-L", out, "-lsquare",
                    f"-Wl,-rpath,{out}", "-lm"], check=True, capture_output=True)
    run = subprocess.run([exe], capture_output=True, text=True, env=sanitize.run_env())
    assert run.returncode == 0 and not sanitize.findings(run.stderr), run.stdout + run.stderr
    assert run.stdout.split() == ["-3", "4", "-4", "0", "dtype", "13", "complex<f32>"]
