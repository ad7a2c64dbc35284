"""torch.fft over `?` dims (PyTorch door): the saved spectral_dynamic case (tests/data/
torch/export.py: rfft "ortho", fft2 of a real input, fft then ifft "forward", irfft2 to a
static width over a `?` height, irfft to a `?` length and to a static one from fewer bins)
against PyTorch's eager outputs at four sizes (lengths 5 to 31, powers of two and not)
from one library."""
import os

import numpy as np
import pytest

import aot
from e2e.test_torch import size_sets

DATA = os.path.join(os.path.dirname(__file__), "..", "data", "torch")


def test_spectral_dynamic_matches_eager_at_every_size():
    lib = aot.compile(os.path.join(DATA, "spectral_dynamic.pt2"))
    cases = size_sets("spectral_dynamic")
    assert len(cases) == 4
    for (x,), want in cases:
        got = lib.main(x)
        assert len(got) == len(want) == 6
        for i, (g, w) in enumerate(zip(got, want)):
            assert g.shape == w.shape, (x.shape, i, g.shape, w.shape)
            scale = np.abs(w).max()
            np.testing.assert_allclose(g / scale, w / scale, rtol=0, atol=2e-6,
                                       err_msg=f"{x.shape} output {i}")


def test_a_dft_matrix_past_the_limit_is_refused_when_called():
    """A `?` length whose run-time DFT matrix would pass MATRIX_MAX elements (6000 x 3001 for
    rfft) is an error naming the op and the model's line, not an allocation of gigabytes."""
    lib = aot.compile(os.path.join(DATA, "spectral_dynamic.pt2"))
    with pytest.raises(RuntimeError, match=r"aten\._fft_\w+\.default: an FFT over a dynamic dim "
                                           r"is a product with its \d+ x \d+ DFT matrix, limited "
                                           r"to 16777216 elements \(.*export\.py:\d+\)"):
        lib.main(np.ones((1, 7, 6000), np.float32))

RFFT_OVER_A_QUESTION_DIM = """func.func @main(%x: tensor<3x?xf32>) -> tensor<3x?xcomplex<f32>> {
  %0 = stablehlo.fft %x, type = RFFT, length = [10] : (tensor<3x?xf32>) -> tensor<3x?xcomplex<f32>>
  return %0 : tensor<3x?xcomplex<f32>>
}
"""


def test_mlir_fft_over_a_question_dim_checks_it_against_fft_length(tmp_path):
    """In MLIR fft_length is an attribute (JAX refuses to export an FFT over a symbolic dim),
    so a `?` transformed dim must equal it when called: numpy's rfft if it does, else a
    run-time error at the op's file:line:col."""
    src = tmp_path / "rfft.mlir"
    src.write_text(RFFT_OVER_A_QUESTION_DIM)
    lib = aot.compile(str(src))
    x = np.random.default_rng(0).standard_normal((3, 10)).astype(np.float32)
    np.testing.assert_allclose(lib.main(x), np.fft.rfft(x.astype(np.float64)), rtol=0, atol=1e-5)
    with pytest.raises(RuntimeError, match=r"rfft\.mlir:2:8: dim 1 must be the fft length: 9 != 10"):
        lib.main(np.ones((3, 9), np.float32))
