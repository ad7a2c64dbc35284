"""torch.fft (and what torch.stft decomposes to) on mhlo.fft: `_fft_r2c`, `_fft_c2r` and
`_fft_c2c` over any dims (moved last for the transform and back), PyTorch's three
normalisations, and the views between complex tensors and their [..., 2] real pairs.

mhlo.fft's forward transforms are unnormalised and its inverse ones divide by n, where
PyTorch's `normalization` asks for none, 1/sqrt(n) or 1/n (`fft_norm_mode`), whatever the
direction: the result is scaled by what is asked over what mhlo.fft gave.

mhlo.fft's lengths are attributes, so a transformed dim that is `?` is the DFT as a product
with its n x n matrix instead (`_dft_dynamic`): O(n^2) work, made when the library is called,
the same unnormalised forward and 1/n inverse."""
from __future__ import annotations

import math

from lowering.ir.core import Value, is_complex
from lowering.tf.emitter import along_last, complex_fft, fft_over, fit_length
from lowering.torch.nn_ops import dot
from lowering.torch.table import aten

S = "spectral"
MATRIX_MAX = 1 << 24  # elements of a run-time DFT matrix (128 MB of complex64): a longer `?`
                      # transform is refused when called, not left to exhaust memory


def _dims(e, x: Value, dims) -> list:
    return [e.axis(int(d), x.type.rank) for d in (dims if isinstance(dims, list) else [dims])]


def _scaled(e, x: Value, mode: int, sizes: list, times_size: bool) -> Value:
    """x times PyTorch's fft_norm_mode factor for a transform over dims of `sizes` (ints or
    run-time values): 0 none, 1 by 1/sqrt(n), 2 by 1/n; times n as well with `times_size`
    (to undo mhlo's 1/n of an inverse)."""
    if mode not in (0, 1, 2):
        raise e.error(f"normalization {mode} is not one of 0, 1, 2")
    power = (0.0, -0.5, -1.0)[mode] + (1.0 if times_size else 0.0)
    if power == 0.0:
        return x
    n = e.product(sizes, "f64")
    part = x.type.elem[8:-1] if is_complex(x.type.elem) else x.type.elem
    if isinstance(n, int):
        f = e.scalar(n ** power, part)
    else:
        f = e.convert(n if power == 1.0 else e.v("power", [n, e.scalar(power, "f64")]), part)
    if is_complex(x.type.elem):
        f = e.v("complex", [f, e.scalar(0, part)])
    return e.binary("multiply", x, f)


def _dft_dynamic(e, x: Value, axis: int, inverse: bool, onesided: bool = False) -> Value:
    """The DFT of complex x along a `?` axis as x @ W, W[j, k] = exp(-+2 pi i (jk mod n) / n)
    (the product reduced in integers, the angle made in f64 and rounded once), divided by n
    if `inverse` as mhlo's IFFT is; `onesided`: only the first n // 2 + 1 columns."""
    dims = e.dims(x)
    n = dims[axis]
    cols = e.binary("add", e.binary("divide", n, e.scalar(2, n.type.elem)),
                    e.scalar(1, n.type.elem)) if onesided else n
    n64 = e.convert(n, "i64")
    _check_size(e, n64, e.convert(cols, "i64"))
    jk = e.binary("multiply", e.iota([n, cols], 0, "i64"), e.iota([n, cols], 1, "i64"))
    angle = e.binary("multiply", e.convert(e.binary("remainder", jk, n64), "f64"),
                     e.binary("divide", e.scalar(2 * math.pi, "f64"), e.convert(n64, "f64")))
    part = x.type.elem[8:-1]
    sin = e.v("sine", [angle])
    w = e.v("complex", [e.convert(e.v("cosine", [angle]), part),
                        e.convert(sin if inverse else e.v("negate", [sin]), part)])
    out = along_last(e, x, [axis], lambda moved: dot(e, moved, w, 0))
    return _scaled(e, out, 2, [n], False) if inverse else out


def _check_size(e, rows: Value, cols: Value) -> None:
    """A call whose run-time DFT matrix would pass MATRIX_MAX elements is an error."""
    count = e.binary("multiply", rows, cols)
    e.assert_that(e.compare(count, e.scalar(MATRIX_MAX, "i64"), "LE"), [rows, cols],
                  f"{e.target}: an FFT over a dynamic dim is a product with its {{0}} x {{1}} "
                  f"DFT matrix, limited to {MATRIX_MAX} elements ({e.loc.file}:{e.loc.line})")


def _complex_fft(e, x: Value, dims: list, forward: bool) -> Value:
    """FFT (or IFFT) over `dims`: mhlo.fft over the static ones, `_dft_dynamic` along each
    `?` one."""
    static = [d for d in dims if x.type.shape[d] is not None]
    if static:
        x = complex_fft(e, x, static, "FFT" if forward else "IFFT")
    for d in dims:
        if d not in static:
            x = _dft_dynamic(e, x, d, not forward)
    return x


@aten("_fft_r2c.default", group=S)
def fft_r2c(e, n):
    """A real input's transform over `dim`: the last of them one-sided (n // 2 + 1 bins)
    with `onesided`, else every bin (the input made complex)."""
    x = n.arg("self")
    if x.type.elem not in ("f32", "f64"):
        raise e.error(f"the input must be f32 or f64, got {x.type}")
    dims = _dims(e, x, n.arg("dim"))
    sizes = [e.dims(x)[d] for d in dims]
    last = dims[-1]
    if n.arg("onesided") and x.type.shape[last] is not None:
        out = fft_over(e, x, [last], "RFFT", [x.type.shape[last]])
    elif n.arg("onesided"):
        out = _dft_dynamic(e, e.convert(x, f"complex<{x.type.elem}>"), last, False, True)
    else:
        out = _complex_fft(e, e.convert(x, f"complex<{x.type.elem}>"), [last], True)
    out = _complex_fft(e, out, dims[:-1], True)
    return _scaled(e, out, n.arg("normalization"), sizes, False)


@aten("_fft_c2r.default", group=S)
def fft_c2r(e, n):
    """The real inverse over `dim` of a one-sided spectrum: the last dim's output length is
    `last_dim_size` (its input bins cut or zero-padded to last_dim_size // 2 + 1, as
    PyTorch reads them)."""
    x = n.arg("self")
    dims = _dims(e, x, n.arg("dim"))
    length = n.arg("last_dim_size")
    if not isinstance(length, (int, Value)):
        raise e.error(f"last_dim_size must be an integer, got {length!r}")
    last = dims[-1]
    x = _complex_fft(e, x, dims[:-1], False)
    if isinstance(length, int) and x.type.shape[last] is not None:
        x = fit_length(e, x, last, length // 2 + 1)
        out = fft_over(e, x, [last], "IRFFT", [length])
    else:
        out = _c2r_dynamic(e, x, last, length)
    sizes = [e.dims(out)[d] for d in dims[:-1]] + [length]
    return _scaled(e, out, n.arg("normalization"), sizes, True)


def _c2r_dynamic(e, x: Value, axis: int, length) -> Value:
    """The real inverse DFT of length L (an int or a run-time value) of the half-spectrum x
    along `axis`, divided by L as mhlo's IRFFT is: out[t] = sum_k c_k Re(X[k] w^(kt)) / L
    with w = exp(2 pi i / L), c_k 1 for k = 0 and 2k = L, 2 between, 0 from L // 2 + 1 on
    (the bins PyTorch cuts; bins it would pad are zeros, which add nothing). Two real
    products with [m, L] matrices made at run time."""
    part = x.type.elem[8:-1]
    m = e.dims(x)[axis]
    el = m.type.elem if isinstance(m, Value) else "i32"
    big = e.convert(e.scalar_dim(length, el), "i64")
    _check_size(e, e.convert(e.scalar_dim(m, el), "i64"), big)
    k, t = e.iota([m, length], 0, "i64"), e.iota([m, length], 1, "i64")
    angle = e.binary("multiply", e.convert(e.binary("remainder", e.binary("multiply", k, t), big), "f64"),
                     e.binary("divide", e.scalar(2 * math.pi, "f64"), e.convert(big, "f64")))
    two_k = e.binary("multiply", k, e.scalar(2, "i64"))
    edge = e.v("or", [e.compare(k, e.scalar(0, "i64"), "EQ"), e.compare(two_k, big, "EQ")])
    weight = e.binary("subtract", e.scalar(2.0, "f64"), e.convert(edge, "f64"))
    kept = e.convert(e.compare(two_k, big, "LE"), "f64")
    weight = e.binary("divide", e.v("multiply", [weight, kept]), e.convert(big, "f64"))
    mats = [e.convert(e.binary("multiply", weight, e.v(f, [angle])), part) for f in ("cosine", "sine")]
    return along_last(e, x, [axis], lambda moved: e.v("subtract", [
        dot(e, e.v(p, [moved]), m, 0) for p, m in zip(("real", "imag"), mats)]))


@aten("_fft_c2c.default", group=S)
def fft_c2c(e, n):
    """A complex transform over `dim`, forward (unnormalised in mhlo) or inverse (mhlo's
    divides by n)."""
    x = n.arg("self")
    if not is_complex(x.type.elem):
        raise e.error(f"the input must be complex, got {x.type}")
    dims = _dims(e, x, n.arg("dim"))
    forward = n.arg("forward")
    out = _complex_fft(e, x, dims, forward)
    return _scaled(e, out, n.arg("normalization"), [e.dims(x)[d] for d in dims], not forward)


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
