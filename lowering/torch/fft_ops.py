"""torch.fft (and what torch.stft decomposes to) on mhlo.fft: `_fft_r2c`, `_fft_c2r` and
`_fft_c2c` over any dims (moved last for the transform and back), PyTorch's three
normalisations, and the views between complex tensors and their [..., 2] real pairs.

mhlo.fft's forward transforms are unnormalised and its inverse ones divide by n, where
PyTorch's `normalization` asks for none, 1/sqrt(n) or 1/n (`fft_norm_mode`), whatever the
direction: the result is scaled by what is asked over what mhlo.fft gave."""
from __future__ import annotations

import math

from lowering.ir.core import Value, is_complex
from lowering.tf.emitter import complex_fft, fft_over, fit_length
from lowering.torch.table import aten

S = "spectral"


def _dims(e, x: Value, dims) -> list:
    dims = [e.axis(int(d), x.type.rank) for d in (dims if isinstance(dims, list) else [dims])]
    for d in dims:
        if x.type.shape[d] is None:
            raise e.error(f"the transformed dim {d} of {x.type} must be static (mhlo.fft's "
                          "lengths are attributes)")
    return dims


def _scaled(e, x: Value, factor: float) -> Value:
    if factor == 1.0:
        return x
    return e.binary("multiply", x, e.scalar(factor, x.type.elem))


def _norm(e, mode: int, n: int) -> float:
    """PyTorch's fft_norm_mode: 0 none, 1 by 1/sqrt(n), 2 by 1/n."""
    if mode not in (0, 1, 2):
        raise e.error(f"normalization {mode} is not one of 0, 1, 2")
    return (1.0, 1.0 / math.sqrt(n), 1.0 / n)[mode]


@aten("_fft_r2c.default", group=S)
def fft_r2c(e, n):
    """A real input's transform over `dim`: the last of them one-sided (n // 2 + 1 bins)
    with `onesided`, else every bin (the input made complex)."""
    x = n.arg("self")
    if x.type.elem not in ("f32", "f64"):
        raise e.error(f"the input must be f32 or f64, got {x.type}")
    dims = _dims(e, x, n.arg("dim"))
    size = math.prod(x.type.shape[d] for d in dims)
    if n.arg("onesided"):
        out = fft_over(e, x, dims[-1:], "RFFT", [x.type.shape[dims[-1]]])
        out = complex_fft(e, out, dims[:-1], "FFT")
    else:
        out = complex_fft(e, e.convert(x, f"complex<{x.type.elem}>"), dims, "FFT")
    return _scaled(e, out, _norm(e, n.arg("normalization"), size))


@aten("_fft_c2r.default", group=S)
def fft_c2r(e, n):
    """The real inverse over `dim` of a one-sided spectrum: the last dim's output length is
    `last_dim_size` (its input bins cut or zero-padded to last_dim_size // 2 + 1, as
    PyTorch reads them)."""
    x = n.arg("self")
    dims = _dims(e, x, n.arg("dim"))
    length = n.arg("last_dim_size")
    if not isinstance(length, int):
        raise e.error("last_dim_size must be static")
    last = dims[-1]
    x = fit_length(e, x, last, length // 2 + 1)
    x = complex_fft(e, x, dims[:-1], "IFFT")
    out = fft_over(e, x, [last], "IRFFT", [length])
    size = math.prod([out.type.shape[d] for d in dims[:-1]] + [length])
    return _scaled(e, out, size * _norm(e, n.arg("normalization"), size))


@aten("_fft_c2c.default", group=S)
def fft_c2c(e, n):
    """A complex transform over `dim`, forward (unnormalised in mhlo) or inverse (mhlo's
    divides by n)."""
    x = n.arg("self")
    if not is_complex(x.type.elem):
        raise e.error(f"the input must be complex, got {x.type}")
    dims = _dims(e, x, n.arg("dim"))
    size = math.prod(x.type.shape[d] for d in dims)
    forward = n.arg("forward")
    out = complex_fft(e, x, dims, "FFT" if forward else "IFFT")
    factor = _norm(e, n.arg("normalization"), size)
    return _scaled(e, out, factor if forward else size * factor)


@aten("view_as_real.default", group=S)
def view_as_real(e, n):
    """complex [...] -> real [..., 2]: the real and imaginary parts side by side."""
    x = n.arg("self")
    parts = [e.v(part, [x]) for part in ("real", "imag")]
    dims = e.dims(x) + [1]
    parts = [e.reshape(p, dims) for p in parts]
    return e.v("concatenate", parts, {"dimension": x.type.rank})


@aten("view_as_complex.default", group=S)
def view_as_complex(e, n):
    """real [..., 2] -> complex [...]."""
    x = n.arg("self")
    if x.type.shape[-1] != 2:
        raise e.error(f"the last dim must be 2 (real, imaginary), got {x.type}")
    r = x.type.rank
    dims = e.dims(x)
    parts = [e.reshape(e.slice(x, [0] * (r - 1) + [i], dims[:-1] + [i + 1]), dims[:-1]) for i in (0, 1)]
    return e.v("complex", parts)


@aten("real.default", "imag.default", group=S)
def real_imag(e, n):
    x = n.arg("self")
    part = "real" if e.target.startswith("aten.real") else "imag"
    if not is_complex(x.type.elem):
        if part == "imag":
            raise e.error("imag of a real tensor is not defined (PyTorch refuses it too)")
        return x
    return e.v(part, [x])


@aten("_conj.default", "conj.default", "conj_physical.default", "resolve_conj.default",
      "resolve_neg.default", group=S)
def conj(e, n):
    """The complex conjugate (resolve_conj and resolve_neg materialise a lazy conjugate or
    negation PyTorch keeps as a flag: here values are always materialised)."""
    x = n.arg("self")
    if not is_complex(x.type.elem) or e.target.startswith("aten.resolve"):
        return x
    return e.v("complex", [e.v("real", [x]), e.v("negate", [e.v("imag", [x])])])
