"""stablehlo.fft (lowering/ops/fft.py) against numpy.fft: every type over 1-3 dims, odd and
prime lengths, f32 and f64, a dynamic batch dim, and the errors. Relative error measured
against the largest output: f32 within 1e-6 (numpy's own float32 FFT is about 1e-7), f64
within 1e-14; Bluestein's lengths within 3 ulps * log2(n) of numpy's f64 pocketfft."""
import math

import numpy as np
import pytest

import aot
from lowering.ir.core import CompileError
from lowering.ops import fft

RNG = np.random.default_rng(11)


def _t(shape, elem):
    return "tensor<" + "".join(f"{'?' if d is None else d}x" for d in shape) + f"{elem}>"


def program(kind, shape_in, shape_out, ein, eout, lengths):
    ti, to = _t(shape_in, ein), _t(shape_out, eout)
    return (f"func.func @main(%x: {ti}) -> {to} {{\n"
            f"  %0 = stablehlo.fft %x, type = {kind}, length = {list(lengths)} : ({ti}) -> {to}\n"
            f"  return %0 : {to}\n}}")


def _input(shape, elem):
    if elem.startswith("complex"):
        z = RNG.standard_normal(shape) + 1j * RNG.standard_normal(shape)
        return z.astype(np.complex64 if "f32" in elem else np.complex128)
    return RNG.standard_normal(shape).astype(np.float32 if elem == "f32" else np.float64)


CASES = [  # kind, input shape, output shape, element types, lengths, numpy reference
    ("FFT", (3, 8), (3, 8), "complex<f32>", "complex<f32>", [8], np.fft.fft),
    ("FFT", (2, 13), (2, 13), "complex<f64>", "complex<f64>", [13], np.fft.fft),
    ("IFFT", (2, 7), (2, 7), "complex<f64>", "complex<f64>", [7], np.fft.ifft),
    ("RFFT", (4, 10), (4, 6), "f32", "complex<f32>", [10], np.fft.rfft),
    ("RFFT", (1, 1), (1, 1), "f64", "complex<f64>", [1], np.fft.rfft),
    ("IRFFT", (3, 5), (3, 8), "complex<f32>", "f32", [8], lambda x: np.fft.irfft(x, 8)),
    ("IRFFT", (2, 4), (2, 7), "complex<f64>", "f64", [7], lambda x: np.fft.irfft(x, 7)),
    ("FFT", (2, 3, 4, 5), (2, 3, 4, 5), "complex<f64>", "complex<f64>", [3, 4, 5],
     lambda x: np.fft.fftn(x, axes=(1, 2, 3))),
    ("IFFT", (4, 6), (4, 6), "complex<f32>", "complex<f32>", [4, 6], np.fft.ifft2),
    ("RFFT", (2, 6, 8), (2, 6, 5), "f64", "complex<f64>", [6, 8],
     lambda x: np.fft.rfftn(x, axes=(1, 2))),
    ("IRFFT", (6, 5), (6, 8), "complex<f64>", "f64", [6, 8],
     lambda x: np.fft.irfftn(x, s=(6, 8), axes=(0, 1))),
    ("IRFFT", (2, 3, 4, 3), (2, 3, 4, 5), "complex<f64>", "f64", [3, 4, 5],
     lambda x: np.fft.irfftn(x, s=(3, 4, 5), axes=(1, 2, 3))),
]


@pytest.mark.parametrize("case", range(len(CASES)))
def test_against_numpy(case):
    kind, si, so, ein, eout, lengths, ref = CASES[case]
    lib = aot.compile(program(kind, si, so, ein, eout, lengths), name=f"fft_{case}")
    x = _input(si, ein)
    got = lib.main(x)
    want = ref(x.astype(np.complex128 if ein.startswith("complex") else np.float64))
    assert got.shape == want.shape and got.dtype.name == {"f32": "float32", "f64": "float64",
                                                          "complex<f32>": "complex64",
                                                          "complex<f64>": "complex128"}[eout]
    tol = 1e-6 if "f32" in eout else 1e-14
    assert np.max(np.abs(got - want)) <= tol * max(np.max(np.abs(want)), 1.0), (kind, lengths)


@pytest.mark.parametrize("n", [1, 2, 1024])
def test_power_of_two_lengths_take_the_radix_2_path(n):
    """Cooley-Tukey in the element's precision: f32 within 1e-6 of the largest output at 1024
    points (O(log n) ulps), forward and inverse."""
    for kind, ref in (("FFT", np.fft.fft), ("IFFT", np.fft.ifft)):
        lib = aot.compile(program(kind, (2, n), (2, n), "complex<f32>", "complex<f32>", [n]),
                          name=f"fft_pow2_{kind}_{n}")
        x = _input((2, n), "complex<f32>")
        want = ref(x.astype(np.complex128))
        assert np.max(np.abs(lib.main(x) - want)) <= 1e-6 * max(np.max(np.abs(want)), 1.0)


def test_a_dynamic_batch_from_one_library():
    lib = aot.compile(program("RFFT", (None, 12), (None, 7), "f32", "complex<f32>", [12]),
                      name="fft_dynamic")
    for rows in (1, 5, 0):
        x = _input((rows, 12), "f32")
        np.testing.assert_allclose(lib.main(x), np.fft.rfft(x.astype(np.float64)), atol=1e-5)


def _four_kinds(n: int, batch: int = 3) -> str:
    """FFT of complex<f32>, IFFT of complex<f64>, RFFT of f32, IRFFT to f64, all of length n."""
    h = n // 2 + 1
    ops = [("FFT", (batch, n), "complex<f32>", (batch, n), "complex<f32>"),
           ("IFFT", (batch, n), "complex<f64>", (batch, n), "complex<f64>"),
           ("RFFT", (batch, n), "f32", (batch, h), "complex<f32>"),
           ("IRFFT", (batch, h), "complex<f64>", (batch, n), "f64")]
    args = ", ".join(f"%x{i}: {_t(si, ei)}" for i, (_, si, ei, _, _) in enumerate(ops))
    outs = [_t(so, eo) for _, _, _, so, eo in ops]
    body = "".join(f"  %{i} = stablehlo.fft %x{i}, type = {k}, length = [{n}] : ({_t(si, ei)}) -> {outs[i]}\n"
                   for i, (k, si, ei, _, _) in enumerate(ops))
    return (f"func.func @main({args}) -> ({', '.join(outs)}) {{\n{body}"
            f"  return {', '.join(f'%{i}' for i in range(4))} : {', '.join(outs)}\n}}")


def _check_four_kinds(lib, n: int, batch: int = 3):
    h = n // 2 + 1
    xs = [_input((batch, n), "complex<f32>"), _input((batch, n), "complex<f64>"), _input((batch, n), "f32"),
          np.fft.rfft(RNG.standard_normal((batch, n)))]
    refs = [np.fft.fft, np.fft.ifft, np.fft.rfft, lambda x: np.fft.irfft(x, n)]
    for i, (x, got, ref) in enumerate(zip(xs, lib.main(*xs), refs)):
        want = ref(x.astype(np.complex128 if x.dtype.kind == "c" else np.float64))
        assert got.shape == want.shape == ((batch, n) if i != 2 else (batch, h))
        eps = np.finfo(got.real.dtype).eps
        err = np.max(np.abs(got - want)) / max(np.max(np.abs(want)), 1e-300)
        assert err <= 3 * eps * max(math.log2(n), 1), (n, i, err / eps)


@pytest.mark.parametrize("n", [3, 5, 7, 12, 17, 100, 127, 1000, 1009, 4097])
def test_bluestein_lengths_within_log_n_ulps(n, monkeypatch, tmp_path):
    """Bluestein's chirp-z transform on f64 radix-2 lines (forced below DIRECT_MAX, where the
    direct DFT is faster, to test it there too): FFT, IFFT, RFFT and IRFFT within
    3 ulps * log2(n) of the largest output (measured: at most 1.7, 0.5 at n = 4097)."""
    if n <= fft.DIRECT_MAX:
        monkeypatch.setattr(fft, "DIRECT_MAX", 0)  # a build of its own, not the cache's
        lib = aot.compile(_four_kinds(n), name=f"fft_chirp_{n}", output_dir=str(tmp_path))
    else:
        lib = aot.compile(_four_kinds(n), name=f"fft_chirp_{n}")
    _check_four_kinds(lib, n)


def test_chirp_angles_are_reduced_exactly():
    """j^2 mod 2n in integers: at n = 100003 (j^2 up to 1e10) the f64 angle pi j^2 / n
    rounds by up to 3e-11 radians; reduced first, the transform of a delta at 1 is the
    twiddle row exp(-2 pi i k / n) to 1e-12 (unreduced, it misses by 6e-11: measured)."""
    n = 100003
    lib = aot.compile(program("FFT", (1, n), (1, n), "complex<f64>", "complex<f64>", [n]), name="fft_100003")
    x = np.zeros((1, n), np.complex128)
    x[0, 1] = 1
    k = np.arange(n)
    np.testing.assert_allclose(lib.main(x)[0], np.exp(-2j * np.pi * k / n), rtol=0, atol=1e-12)


@pytest.mark.parametrize("target", ["cpu", "cuda"])
def test_passes_of_every_kind_in_several_dims(target, tmp_path):
    """A Bluestein pass (100), a direct one (12), real passes of a power of two (64, its f64
    line) between complex scratch buffers; on the emulated GPU too (the same loop code)."""
    from tooling.gpu_emu import build_emulated
    cases = [("FFT", (2, 12, 100), (2, 12, 100), "complex<f32>", "complex<f32>", [12, 100],
              lambda x: np.fft.fft2(x)),
             ("IRFFT", (3, 100, 33), (3, 100, 64), "complex<f64>", "f64", [100, 64],
              lambda x: np.fft.irfft2(x, s=(100, 64)))]
    for i, (kind, si, so, ein, eout, lengths, ref) in enumerate(cases):
        text = program(kind, si, so, ein, eout, lengths)
        lib = (build_emulated(text, f"fft_dims_{i}", str(tmp_path)) if target == "cuda"
               else aot.compile(text, name=f"fft_dims_{i}"))
        x = _input(si, ein)
        want = ref(x.astype(np.complex128))
        tol = 3 * np.finfo(np.float32 if "f32" in eout else np.float64).eps * math.log2(100 * 64)
        assert np.max(np.abs(lib.main(x) - want)) <= tol * np.max(np.abs(want)), kind


@pytest.mark.parametrize("kind, si, so, ein, eout, lengths, message", [
    ("FFT", (3, 8), (3, 8), "f32", "f32", [8], "FFT takes complex<f32> or complex<f64>"),
    ("RFFT", (3, 8), (3, 5), "complex<f32>", "complex<f32>", [8], "RFFT takes f32 or f64"),
    ("FFT", (3, 8), (3, 8), "complex<f32>", "complex<f32>", [4], "do not match fft_length"),
    ("IRFFT", (3, 8), (3, 8), "complex<f32>", "f32", [8], "do not match fft_length"),
    ("FFT", (8,), (8,), "complex<f32>", "complex<f32>", [2, 4], "needs an operand of rank 2"),
    ("FFT", (8,), (8,), "complex<f32>", "complex<f32>", [0], "1 to 3 positive integers"),
])
def test_errors_are_located(kind, si, so, ein, eout, lengths, message):
    with pytest.raises(CompileError, match=message) as e:
        aot.compile(program(kind, si, so, ein, eout, lengths), name="fft_bad")
    assert e.value.loc.line == 2


def _ulps_f32(got, want):
    """Per element: how many f32 ulps of the exact (f64) value `got` is from it."""
    return np.abs(got - want) / np.spacing(np.abs(want).astype(np.float32)).astype(np.float64)


@pytest.mark.parametrize("kind, shape, lengths", [
    ("IRFFT", (14, 15, 16, 17), [15, 16, 32]),  # issue 31: 86,141 ulps when passes were f32
    ("FFT", (3, 12, 16, 17), [12, 16, 17]),
    ("FFT", (4, 64), [64]),
    ("IFFT", (2, 8, 100), [8, 100]),
    ("RFFT", (5, 16, 45), [16, 45]),
])
def test_f32_results_are_the_f64_transform_rounded_once(kind, shape, lengths, tmp_path):
    """Every pass in f64 with complex<f64> buffers between passes: each f32 output is within
    1 ulp of its own exact value (numpy's f64 FFT), near-zero outputs included, and not only
    within an ulp of the largest output; the f64 error allowed on top is 4 eps64 log2(n)
    of the largest output."""
    m = len(lengths)
    ein = "f32" if kind == "RFFT" else "complex<f32>"
    eout = "f32" if kind == "IRFFT" else "complex<f32>"
    so = shape[:-1] + ((lengths[-1] // 2 + 1) if kind == "RFFT" else lengths[-1],)
    lib = aot.compile(program(kind, shape, so, ein, eout, lengths), name=f"fft_once_{kind}_{len(shape)}",
                      output_dir=str(tmp_path))
    x = _input(shape, ein) * 3
    axes = tuple(range(len(shape) - m, len(shape)))
    ref = {"FFT": np.fft.fftn, "IFFT": np.fft.ifftn, "RFFT": np.fft.rfftn,
           "IRFFT": lambda v, axes: np.fft.irfftn(v, s=lengths, axes=axes)}[kind]
    want = ref(x.astype(np.complex128 if ein != "f32" else np.float64), axes=axes)
    got = lib.main(x)
    slack = 4 * np.finfo(np.float64).eps * math.log2(max(np.prod(lengths), 2)) * np.max(np.abs(want))
    for g, w in ((got.real, want.real), (got.imag, want.imag)) if eout != "f32" else ((got, want),):
        assert np.all(np.abs(g - w) <= np.spacing(np.abs(w).astype(np.float32)) + slack), \
            (kind, lengths, _ulps_f32(g, w).max())
