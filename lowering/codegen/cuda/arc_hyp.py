"""Device atan, asin, acos, sinh, cosh, asinh, acosh, atanh: inline and branch-free.

The GPU has no libm, and chlo's rules lower these eight functions to `math.<name>` ops (libm
calls on the CPU). Here each is spelled out in the loop-stage scalar ops of
codegen/llvm/fastmath.py's `Ops` (add/sub/mul/div, sqrt, compares, selects, bitcasts and
integer ops), every case computed and the right one picked per lane by selects, never a
branch. f32 and f64 are computed in their own type (f16/bf16 reach the device as f32 ops,
computed in f32 and rounded once). The algorithms are fdlibm's (FreeBSD msun, musl), with
every `if` turned into a select:

- atan: |x| reduced to one of five intervals by t = |x| (below 7/16), (2|x| - 1)/(2 + |x|),
  (|x| - 1)/(|x| + 1), (|x| - 1.5)/(1 + 1.5|x|) or -1/|x| (past 39/16), numerators exact;
  atan(t) = t - t*(s1 + s2) by an odd polynomial in t^2 split in its even and odd parts, plus
  atan(c) in two parts (c = 1/2, 1, 3/2, inf; 0 on the first interval):
  hi - ((t*(s1 + s2) - lo) - t). x's sign is copied onto the result.
- asin: |x| < 1/2: |x| + |x|*R(x^2), R = P/Q rational (fdlibm's; Remez fit of
  (asin(x) - x)/x^3). |x| >= 1/2: asin = pi/2 - 2*asin(s), z = (1 - |x|)/2 (exact),
  s = sqrt(z): near 1 (|x| >= 0.975) pio2_hi - (2(s + s*R(z)) - pio2_lo); else s = f + c
  with f = s with its low bits cleared (f^2 exact) and c = (z - f^2)/(s + f), so
  pio4_hi - 2f is exact and the result pio4_hi - ((2s*R(z) - (pio2_lo - 2c)) - (pio4_hi - 2f)).
- acos: |x| < 1/2: pio2_hi - (x - (pio2_lo - x*R(x^2))); x <= -1/2: pi - 2(s + (s*R(z) -
  pio2_lo)); x >= 1/2: 2(f + (s*R(z) + c)), with z, s, f, c as in asin. One R evaluation
  (its argument selected).
- sinh: |x| < 1: |x| + |x|^3 P(x^2) (odd minimax polynomial, relative error of sinh; Remez
  in long double, coefficients rounded to the type). |x| >= 1: exp's reduction
  |x| = n ln2 + r, 1 + p = exp(r) (fastmath's polynomial), and with q = 2^-2n/(1 + p),
  sinh = 2^(n-1) (1 + (p - q)): one rounding at the result's size, then an exact scaling
  (fastmath's two-step 2^n), so nothing overflows before sinh itself does (exp(|x| - ln2)
  would round |x| - ln2 and cost ~|x| ulps) and exp(-|x|) never cancels badly (|x| >= 1).
  q is 2^-2n with n capped (it is below an ulp long before), so 2^-2n stays normal.
- cosh: |x| < ln2/2: 1 + t^2/(2(1 + t)), t = expm1(|x|); else 2^(n-1) (1 + (p + q)).
- asinh: |x| > 2^28 (f32: 2^12): log(2|x|) as log's own reduction |x| = 2^k m with k + 1
  for k (2|x| never formed, ln2 added with log's own two-part constant); 2 < |x| <= that:
  log(2|x| + 1/(sqrt(x^2 + 1) + |x|)); |x| <= 2: log1p(|x| + x^2/(1 + sqrt(1 + x^2))) with
  the sum kept as hi + lo (Fast2Sum) and lo folded into log1p's own correction term for
  the rounding of 1 + x, so the sum's rounding costs nothing; |x| < 2^-28 (f32: 2^-12): x.
  x's sign on the result.
- acosh: x < 1 or NaN: NaN; x > 2^28 (f32: 2^12): log(2x) as above; 2 < x:
  log(2x - 1/(x + sqrt(x^2 - 1))); 1 <= x <= 2: t = x - 1 (exact), log1p(t + sqrt(2t + t^2))
  where near 1 the square root carries most of the result: w = 2t + t^2 with its rounding
  error (Fast2Sum), sqrt(w) = f + c with f its high part (f^2 exact) and
  c = ((w - f^2) + w's error)/(s + f), and t + f + c summed in two parts into log1p as in
  asinh.
- atanh: |x| < 1/2: log1p(2|x| + 2|x|^2/(1 - |x|))/2 (the sum in two parts, as in asinh);
  else log1p(2|x|/(1 - |x|))/2 (1 - |x| exact); |x| > 1: NaN, +-1: +-inf; x's sign.

exp's reduction and polynomial, expm1, log's reduction and log(1 + f), log1p are fastmath's.
Coefficients: fdlibm's atan/atanf and asin/asinf (the float versions' shorter polynomials for
f32); sinh's are minimax fits made for this. Specials: NaN gives NaN; +-0 keeps its sign in
the odd functions (and cosh(+-0) = 1, acos(+-0) = pi/2, acos(1) = +0, acosh(1) = +0);
atan(+-inf) = +-pi/2 rounded; sinh(+-inf) = +-inf, cosh(+-inf) = inf, asinh(+-inf) = +-inf,
acosh(inf) = inf; asin/acos/atanh NaN outside [-1, 1], acosh NaN below 1; atanh(+-1) =
+-inf. sinh and cosh overflow to inf exactly where the rounded result does.

Errors, in ulps of the result (the ulp of the exact value), measured against float64 (f32)
or x86 long double (f64) references: see MAX_ULP. f32: over all 2^32 inputs (through a numpy
model of `Ops` that gives bit for bit what the device code gives, while writing this). f64:
10^7 samples per function (random bit patterns, uniform over the domain, log-uniform near 0
and near +-1). tests/codegen/test_device_arc_hyp.py checks the bounds on the device path
itself, on the emulated GPU grid. Without FMA contraction (the PTX uses .rn arithmetic, which
ptxas does not fuse), the bounds hold on the device.
"""
from __future__ import annotations

import math

from lowering.codegen.llvm.fastmath import (
    Ops,
    _clamp,
    _expm1_r,
    _log1p_f,
    _pow2,
    _reduce,
    _scale,
    _split,
    expm1,
    log,
    log1p,
)

# Largest error in ulps of the result, per computed type. Measured maxima: f32 (all 2^32
# inputs) atan 0.852, asin 0.981, acos 0.918, sinh 1.219, cosh 1.226, asinh 1.251,
# acosh 1.065, atanh 1.327; f64 (10^7 samples each) atan 0.832, asin 0.886, acos 0.893,
# sinh 1.202, cosh 1.194, asinh 1.205, acosh 1.054, atanh 1.182.
MAX_ULP = {
    "f32": {"atan": 1.0, "asin": 1.0, "acos": 1.0, "sinh": 1.5, "cosh": 1.5, "asinh": 1.5,
            "acosh": 1.5, "atanh": 1.5},
    "f64": {"atan": 1.0, "asin": 1.0, "acos": 1.0, "sinh": 1.5, "cosh": 1.5, "asinh": 1.5,
            "acosh": 1.5, "atanh": 1.5},
}

# atan2 (atan of the smaller magnitude over the larger, moved to the quadrant): atan's error,
# the quotient's rounding and those of pi/2 - t, pi - t and their rounded constants. Measured
# maxima over 1.5*10^7 samples each (random bit patterns, uniform on [-10, 10]^2, y/x in
# [0.3, 3]), the decomposition compiled for the CPU against float64 (f32) and long double (f64)
# references: f32 1.909, f64 1.709.
ATAN2_MAX_ULP = {"f32": 2.5, "f64": 2.5}


class _Consts:
    def __init__(self, **kw):
        self.__dict__.update(kw)


_F32 = _Consts(
    # atan(c) = hi + lo for c = 1/2, 1, 3/2, inf (fdlibm's atanhi/atanlo)
    atan_hi=(4.6364760399e-01, 7.8539812565e-01, 9.8279368877e-01, 1.5707962513e+00),
    atan_lo=(5.0121582440e-09, 3.7748947079e-08, 3.4473217170e-08, 7.5497894159e-08),
    atan_t=(3.3333328366e-01, -1.9999158382e-01, 1.4253635705e-01, -1.0648017377e-01,
            6.1687607318e-02),
    pio2_hi=1.5707962513e+00, pio2_lo=7.5497894159e-08, pio4_hi=7.8539812565e-01,
    pi=3.1415925026e+00,
    # (asin(x) - x)/x^3 = z*P(z)/Q(z), z = x^2, Q's constant term 1 (fdlibm asinf)
    asin_p=(1.6666586697e-01, -4.2743422091e-02, -8.6563630030e-03),
    asin_q=(1.0, -7.0662963390e-01),
    hi_mask=-(1 << 12),  # s with its low 12 bits cleared: its square is exact
    big=4096.0,  # 2^12: asinh/acosh as log(2|x|) past it
    tiny=2.0 ** -12,  # asinh(x) = x below it
    half_exp_hi=90.0,  # exp(90)/2 > FLT_MAX
    q_cap=40,  # exp(-2a) < 2^-80 past n = 40: 2^-80 is still a normal number
    # sinh(x) = x + x^3 P(x^2), |x| < 1 (minimax, relative error of sinh)
    sinh_p=(0.1666666716337204, 0.00833331048488617, 0.00019842895562760532,
            2.7822131869470468e-06),
)

_F64 = _Consts(
    atan_hi=(4.63647609000806093515e-01, 7.85398163397448278999e-01,
             9.82793723247329054082e-01, 1.57079632679489655800e+00),
    atan_lo=(2.26987774529616870924e-17, 3.06161699786838301793e-17,
             1.39033110312309984516e-17, 6.12323399573676603587e-17),
    atan_t=(3.33333333333329318027e-01, -1.99999999998764832476e-01,
            1.42857142725034663711e-01, -1.11111104054623557880e-01,
            9.09088713343650656196e-02, -7.69187620504482999495e-02,
            6.66107313738753120669e-02, -5.83357013379057348645e-02,
            4.97687799461593236017e-02, -3.65315727442169155270e-02,
            1.62858201153657823623e-02),
    pio2_hi=1.57079632679489655800e+00, pio2_lo=6.12323399573676603587e-17,
    pio4_hi=7.85398163397448278999e-01, pi=3.14159265358979311600e+00,
    asin_p=(1.66666666666666657415e-01, -3.25565818622400915405e-01,
            2.01212532134862925881e-01, -4.00555345006794114027e-02,
            7.91534994289814532176e-04, 3.47933107596021167570e-05),
    asin_q=(1.0, -2.40339491173441421878e+00, 2.02094576023350569471e+00,
            -6.88283971605453293030e-01, 7.70381505559019352791e-02),
    hi_mask=-(1 << 32),  # the low word cleared
    big=2.0 ** 28,
    tiny=2.0 ** -28,
    half_exp_hi=711.0,  # exp(711)/2 > DBL_MAX
    q_cap=60,
    sinh_p=(0.16666666666666669, 0.008333333333333038, 0.00019841269841468342,
            2.7557319152651166e-06, 2.5052122928883363e-08, 1.6057339230920483e-10,
            7.754644749362781e-13),
)

_CONSTS = {"f32": _F32, "f64": _F64}


# ----------------------------------------------------------------------------- helpers


def _sqrt(f: Ops, a):
    return f._v("math.sqrt", [a], f.e)


def _pick(f: Ops, conds, values):
    """values[i] for the first true conds[i], values[-1] if none is (one select each)."""
    acc = values[-1]
    for cond, v in zip(reversed(conds), reversed(values[:-1])):
        acc = f.sel(cond, v, acc)
    return acc


def _hi_part(f: Ops, s):
    """s with its low bits cleared: few enough significant bits that its square is exact."""
    return f.flt(f.iand(f.bits(s), f.ci(_CONSTS[f.e].hi_mask)))


def _log_2x(f: Ops, x):
    """log(2x) for a normal x > 0 or +inf: log's reduction x = 2^k m with k + 1 for k, so 2x is
    never formed (it may overflow) and ln2 is added without a rounding of its own."""
    e, m = _split(f, x)
    y = _log1p_f(f, f.sub(m, f.c(1.0)), f.to_float(f.iadd(e, f.ci(1))))
    inf = f.c(float("inf"))
    return f.sel(f.cmp("oeq", x, inf), inf, y)


def _log1p2(f: Ops, x, lo):
    """log1p(x + lo) for a small correction lo (|lo| <= ulp(x) or so): fastmath's log1p with lo
    added to the rounding error of 1 + x it already carries, so x + lo is never rounded. x is
    finite and > -1 here (the callers' arguments are >= 0)."""
    k = f.k
    one, zero = f.c(1.0), f.c(0.0)
    u = f.add(one, x)
    e, m = _split(f, u)
    k0 = f.icmp("eq", e, f.ci(0))
    c = f.sel(f.icmp("sge", e, f.ci(2)), f.sub(one, f.sub(u, x)), f.sub(x, f.sub(u, one)))
    c = f.div(f.add(f.sel(k0, zero, c), lo), u)
    c = f.sel(f.icmp("sge", e, f.ci(k.log1p_c_k)), zero, c)
    return _log1p_f(f, f.sel(k0, x, f.sub(m, one)), f.to_float(e), c)


def _two_sum_fast(f: Ops, a, b):
    """(s, t) with s = a + b rounded and s + t = a + b exactly, for |a| >= |b|."""
    s = f.add(a, b)
    return s, f.sub(b, f.sub(s, a))


def _asin_r(f: Ops, z):
    """(asin(x) - x)/x with z = x^2: z*P(z)/Q(z)."""
    k = _CONSTS[f.e]
    return f.div(f.mul(z, f.horner(k.asin_p, z)), f.horner(k.asin_q, z))


# ----------------------------------------------------------------------------- functions


def atan(f: Ops, x):
    k = _CONSTS[f.e]
    one = f.c(1.0)
    a = f.abs(x)
    # the interval: a < 7/16, 11/16, 19/16, 39/16, else (NaN too: -1/NaN is NaN)
    conds = [f.cmp("olt", a, f.c(end)) for end in (0.4375, 0.6875, 1.1875, 2.4375)]
    num = _pick(f, conds, [a, f.sub(f.add(a, a), one), f.sub(a, one), f.sub(a, f.c(1.5)),
                           f.c(-1.0)])
    den = _pick(f, conds, [one, f.add(f.c(2.0), a), f.add(a, one),
                           f.add(one, f.mul(f.c(1.5), a)), a])
    t = f.div(num, den)
    z = f.mul(t, t)
    w = f.mul(z, z)
    c = k.atan_t
    s1 = f.mul(z, f.horner(c[0::2], w))
    s2 = f.mul(w, f.horner(c[1::2], w))
    zero = f.c(0.0)
    hi = _pick(f, conds, [zero] + [f.c(v) for v in k.atan_hi])
    lo = _pick(f, conds, [zero] + [f.c(v) for v in k.atan_lo])
    y = f.sub(hi, f.sub(f.sub(f.mul(t, f.add(s1, s2)), lo), t))
    return f.copysign(y, x)


def _asin_parts(f: Ops, x):
    """(a, small, z, s, f_hi, c, r): a = |x|; small: a < 1/2; z = x^2 there, else (1 - a)/2;
    s = sqrt(z) = f_hi + c; r = R(z)."""
    a = f.abs(x)
    small = f.cmp("olt", a, f.c(0.5))
    z = f.sel(small, f.mul(a, a), f.mul(f.sub(f.c(1.0), a), f.c(0.5)))  # 1 - a exact
    s = _sqrt(f, z)
    fh = _hi_part(f, s)
    c = f.div(f.sub(z, f.mul(fh, fh)), f.add(s, fh))
    c = f.sel(f.cmp("oeq", s, f.c(0.0)), s, c)  # |x| = 1: 0/0
    return a, small, z, s, fh, c, _asin_r(f, z)


def _nan_outside_one(f: Ops, a, y):
    return f.sel(f.cmp("ugt", a, f.c(1.0)), f.c(float("nan")), y)


def asin(f: Ops, x):
    k = _CONSTS[f.e]
    a, small, z, s, fh, c, r = _asin_parts(f, x)
    two = f.c(2.0)
    y_small = f.add(a, f.mul(a, r))
    pio2_lo, pio4_hi = f.c(k.pio2_lo), f.c(k.pio4_hi)
    y_near1 = f.sub(f.c(k.pio2_hi), f.sub(f.mul(two, f.add(s, f.mul(s, r))), pio2_lo))
    p = f.sub(f.mul(f.mul(two, s), r), f.sub(pio2_lo, f.mul(two, c)))
    q = f.sub(pio4_hi, f.mul(two, fh))
    y_mid = f.sub(pio4_hi, f.sub(p, q))
    y = _pick(f, [small, f.cmp("olt", a, f.c(0.975))], [y_small, y_mid, y_near1])
    return f.copysign(_nan_outside_one(f, a, y), x)


def acos(f: Ops, x):
    k = _CONSTS[f.e]
    a, small, z, s, fh, c, r = _asin_parts(f, x)
    two, pio2_lo = f.c(2.0), f.c(k.pio2_lo)
    y_small = f.sub(f.c(k.pio2_hi), f.sub(x, f.sub(pio2_lo, f.mul(x, r))))
    y_neg = f.sub(f.c(k.pi), f.mul(two, f.add(s, f.sub(f.mul(r, s), pio2_lo))))
    y_pos = f.mul(two, f.add(fh, f.add(f.mul(r, s), c)))
    y = _pick(f, [small, f.cmp("olt", x, f.c(0.0))], [y_small, y_neg, y_pos])
    return _nan_outside_one(f, a, y)


def _exp_parts(f: Ops, a):
    """(n, p, q) for a >= 0 (NaN stays NaN): exp(a) = 2^n (1 + p), exp's reduction and
    polynomial, and q = 2^-2n / (1 + p), so that exp(-a) = 2^-n q... and
    sinh(a), cosh(a) = 2^(n-1) (1 + (p -+ q)): summed once at the result's size, then scaled
    exactly, overflowing only where the result does. a is clamped where that is certain."""
    k = _CONSTS[f.e]
    n, r = _reduce(f, _clamp(f, a, -1.0, k.half_exp_hi))
    p = _expm1_r(f, r)
    cap = f.seli(f.icmp("sgt", n, f.ci(k.q_cap)), f.ci(k.q_cap), n)  # q is negligible past it
    q = f.div(_pow2(f, f.isub(f.ci(0), f.iadd(cap, cap))), f.add(f.c(1.0), p))
    return n, p, q


def sinh(f: Ops, x):
    a = f.abs(x)
    z = f.mul(a, a)
    y_small = f.add(a, f.mul(f.mul(a, z), f.horner(_CONSTS[f.e].sinh_p, z)))
    n, p, q = _exp_parts(f, a)
    y_large = _scale(f, f.add(f.c(1.0), f.sub(p, q)), f.isub(n, f.ci(1)))
    y = f.sel(f.cmp("olt", a, f.c(1.0)), y_small, y_large)
    return f.copysign(y, x)


def cosh(f: Ops, x):
    one = f.c(1.0)
    a = f.abs(x)
    t = expm1(f, a)
    w = f.add(one, t)
    y_small = f.add(one, f.div(f.mul(t, t), f.add(w, w)))
    n, p, q = _exp_parts(f, a)
    y_large = _scale(f, f.add(one, f.add(p, q)), f.isub(n, f.ci(1)))
    return f.sel(f.cmp("olt", a, f.c(0.34657359027997264)), y_small, y_large)


def asinh(f: Ops, x):
    k = _CONSTS[f.e]
    one = f.c(1.0)
    a = f.abs(x)
    a2 = f.mul(a, a)
    root = _sqrt(f, f.add(a2, one))
    y_mid = log(f, f.add(f.add(a, a), f.div(one, f.add(root, a))))
    y_small = _log1p2(f, *_two_sum_fast(f, a, f.div(a2, f.add(one, root))))
    y_big = _log_2x(f, a)
    # NaN fails every compare: the last case, log(NaN) = NaN
    y = _pick(f, [f.cmp("ogt", a, f.c(k.big)), f.cmp("olt", a, f.c(k.tiny)),
                  f.cmp("ole", a, f.c(2.0))], [y_big, a, y_small, y_mid])
    return f.copysign(y, x)


def acosh(f: Ops, x):
    k = _CONSTS[f.e]
    one = f.c(1.0)
    t = f.sub(x, one)  # exact for x in [1, 2]
    # s = sqrt(w), w = 2t + t^2 = fh + c with fh = s's high part (fh^2 exact, w - fh^2 exact)
    # and c = (w - fh^2 + w's rounding error)/(s + fh); log1p(t + s) of the sum t + fh + c
    # kept in two parts, so neither w's nor s's nor the sum's rounding costs an ulp
    t2, tt = f.add(t, t), f.mul(t, t)
    w = f.add(t2, tt)
    w_err = f.add(f.sub(t2, w), tt)
    s = _sqrt(f, w)
    fh = _hi_part(f, s)
    c = f.div(f.add(f.sub(w, f.mul(fh, fh)), w_err), f.add(s, fh))
    c = f.sel(f.cmp("oeq", s, f.c(0.0)), s, c)  # x = 1: 0/0
    u, u_lo = _two_sum_fast(f, fh, t)
    u, u_lo = _two_sum_fast(f, u, f.add(u_lo, c))
    y_small = _log1p2(f, u, u_lo)
    y_mid = log(f, f.sub(f.add(x, x), f.div(one, f.add(x, _sqrt(f, f.sub(f.mul(x, x), one))))))
    y_big = _log_2x(f, x)
    y = _pick(f, [f.cmp("ole", x, f.c(2.0)), f.cmp("ole", x, f.c(k.big))],
              [y_small, y_mid, y_big])
    return f.sel(f.cmp("ult", x, one), f.c(float("nan")), y)  # x < 1 or NaN


def atanh(f: Ops, x):
    one, half = f.c(1.0), f.c(0.5)
    a = f.abs(x)
    t = f.add(a, a)
    d = f.sub(one, a)  # exact for a >= 1/2
    y_small = _log1p2(f, *_two_sum_fast(f, t, f.div(f.mul(t, a), d)))
    y_large = log1p(f, f.div(t, d))
    y = f.mul(half, f.sel(f.cmp("olt", a, half), y_small, y_large))
    return f.copysign(_nan_outside_one(f, a, y), x)


def atan2(f: Ops, y, x):
    """atan of the smaller magnitude over the larger (in [0, 1]), moved to (y, x)'s quadrant:
    C's values at zeros and infinities (atan2(+-0, -0) = +-pi, inf over inf a quarter turn),
    NaN in, NaN out. (The complex functions' arg z: log, sqrt, power.)"""
    ax, ay = f.abs(x), f.abs(y)
    hi = f._v("arith.maximumf", [ax, ay], f.e)
    lo = f._v("arith.minimumf", [ax, ay], f.e)
    zero, inf = f.c(0.0), f.c(float("inf"))
    t = atan(f, f.div(lo, hi))
    t = f.sel(f.cmp("oeq", hi, zero), zero, t)  # 0/0
    both_inf = f._v("arith.andi", [f.cmp("oeq", ax, inf), f.cmp("oeq", ay, inf)], "i1")
    t = f.sel(both_inf, f.c(math.pi / 4), t)  # inf/inf
    t = f.sel(f.cmp("ogt", ay, ax), f.sub(f.c(math.pi / 2), t), t)
    negative_x = f.cmp("olt", f.copysign(f.c(1.0), x), zero)  # -0 too
    t = f.sel(negative_x, f.sub(f.c(math.pi), t), t)
    return f.copysign(t, y)
