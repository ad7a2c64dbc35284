"""TF's FFT ops (tf.signal.rfft, irfft, fft, ifft and their 2-D/3-D forms, which
tf.signal.stft and the MFCC front ends of audio models call) on mhlo.fft over the innermost
dims, and the complex-number ops around them. TF's transforms have mhlo.fft's conventions
(forward unnormalised, inverse divided by n); a real transform's input is cut or
zero-padded to fft_length first, as TF does."""
from __future__ import annotations

from lowering.ir.core import is_complex
from lowering.tf.emitter import Emitter, complex_fft, fft_over, fit_length
from lowering.tf.table import tf_op

S = "spectral"
DIMS = {"": 1, "2D": 2, "3D": 3}


def _innermost(e: Emitter, x, d: int) -> list:
    r = x.type.rank
    if r < d:
        raise e.error(f"a {d}-D transform needs rank {d} or more, got {x.type}")
    dims = list(range(r - d, r))
    if any(x.type.shape[a] is None for a in dims):
        raise e.error(f"the transformed dims of {x.type} must be static (mhlo.fft's lengths "
                      "are attributes)")
    return dims


def _real_fft(kind: str, d: int):
    def rule(e: Emitter, op, args):
        """`fft_length` (a constant) per transformed dim; the input fitted to it (the last
        dim to fft_length // 2 + 1 bins for the inverse)."""
        x = args[0]
        lengths = e.int_list(args[1], "fft_length")
        if len(lengths) != d or any(n <= 0 for n in lengths):
            raise e.error(f"fft_length must be {d} positive numbers, got {lengths}")
        dims = _innermost(e, x, d)
        for axis, n in zip(dims, lengths):
            x = fit_length(e, x, axis, n // 2 + 1 if kind == "IRFFT" and axis == dims[-1] else n)
        return [fft_over(e, x, dims, kind, lengths)]
    return rule


def _complex(kind: str, d: int):
    def rule(e: Emitter, op, args):
        x = args[0]
        return [complex_fft(e, x, _innermost(e, x, d), kind)]
    return rule


for _suffix, _d in DIMS.items():
    tf_op(f"RFFT{_suffix}", group=S)(_real_fft("RFFT", _d))
    tf_op(f"IRFFT{_suffix}", group=S)(_real_fft("IRFFT", _d))
    tf_op(f"FFT{_suffix}", group=S)(_complex("FFT", _d))
    tf_op(f"IFFT{_suffix}", group=S)(_complex("IFFT", _d))


@tf_op("ComplexAbs", group=S)
def complex_abs(e, op, args):
    return [e.v("abs", [args[0]])]


@tf_op("Real", "Imag", group=S)
def real_imag(e, op, args):
    """The part; of a real tensor, itself or zeros."""
    x = args[0]
    part = "real" if op.name.endswith("Real") else "imag"
    if is_complex(x.type.elem):
        return [e.v(part, [x])]
    return [x if part == "real" else e.broadcast_to(e.const(0, x.type.elem, ()), e.dims(x))]


@tf_op("Complex", group=S)
def make_complex(e, op, args):
    re, im = e.broadcast_pair(args[0], args[1])
    return [e.v("complex", [re, im])]


@tf_op("Conj", group=S)
def conj(e, op, args):
    x = args[0]
    if not is_complex(x.type.elem):
        return [x]
    return [e.v("complex", [e.v("real", [x]), e.v("negate", [e.v("imag", [x])])])]


@tf_op("Angle", group=S)
def angle(e, op, args):
    """atan2(imag, real); 0 for a real tensor's non-negative elements, pi for its negative."""
    x = args[0]
    if is_complex(x.type.elem):
        return [e.v("atan2", [e.v("imag", [x]), e.v("real", [x])])]
    zero = e.broadcast_to(e.const(0, x.type.elem, ()), e.dims(x))
    return [e.v("atan2", [zero, x])]
