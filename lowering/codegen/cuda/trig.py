"""Device sin, cos and tan: inline, branch-free polynomials (the GPU has no libm).

Built like codegen/llvm/fastmath.py's functions, from loop-stage arith ops through
`fastmath.Ops` (mul/add/div, compares and selects, bitcasts, integer and/or), so a kernel
that uses them needs nothing the device lacks. f32 and f64 are computed in their own type
(f16/bf16 arrive as f32: the op rules promote them and round once).

Algorithm (Cody & Waite's reduction, the kernels of fdlibm/musl):

- Reduction by pi/2: k = rint(x * 2/pi) (the 1.5*2^p "magic number" rounding, which also
  yields k's low bits, the quadrant), r = x - k*pi/2 with pi/2 split into parts C1 + C2 +
  ... whose leading ones have few enough bits that k*Ci is exact for every k of the domain
  (k < 2^17: 7-bit parts for f32; k < 2^27: 26-bit parts for f64), the last part
  full-precision. The first subtractions are exact (the residual still fits the format);
  the later ones go through Knuth's two-sum with their errors collected, and the result is
  renormalised to r = rh + rl, |rl| <= ulp(rh)/2. pi/2 is carried to 2^-82 (f32: seven
  7-bit parts and a 24-bit one) and 2^-160 (f64: four 26-bit parts and a 53-bit one),
  enough for the worst cancellation in the domain: the f32 input closest to a multiple of
  pi/2 below 2^17 is 252.898208... with |r| = 2^-27.8 (found exhaustively), and no double
  comes within 2^-61 of a nonzero multiple (the worst, 6381956970095103 * 2^797, is 2^-60.9
  away: Muller, Elementary Functions, ch. 11).
  Where fl(x * 2/pi) rounds across a half-integer, |r| exceeds pi/4 a little (up to 0.793
  in f32); the polynomials are fitted to cover that.
- sin(r) = rh + (S1 rh^3 + rh^5 S(rh^2)) plus rl's first-order term, and
  cos(r) = w + ((1 - w) - rh^2/2) + (rh^4 C(rh^2) - rh*rl) with w = 1 - rh^2/2
  (fdlibm's __kernel_sin/__kernel_cos in musl's form: the error of 1 - rh^2/2 is kept).
  f64 uses fdlibm's coefficients (|r| <= pi/4, relative error < 2^-58); f32's are minimax
  fits for relative error on |r| <= 0.8 (Lawson's algorithm, rounded to f32 one at a time
  and the rest refitted): 2^-32.5 (sin, degree 9) and 2^-32.6 (cos, degree 8).
- k & 1 picks sin or cos of r, k & 2 the sign. tan = sin(r)/cos(r) for even k and
  -cos(r)/sin(r) for odd k, both kernels' results taken as hi + lo and divided as such: the
  rounded quotient t plus the remainder (n - t*d)/d, t*d exact by Dekker's halves (no FMA).
- Specials: NaN and +-inf give NaN; sin(+-0) and tan(+-0) are +-0 (x itself), cos(+-0) = 1;
  tiny and subnormal x give x for sin and tan, 1 for cos. f(-x) = -f(x) (sin, tan) and
  f(x) (cos) bit for bit.

Errors, in ulps of the exact result, on the emulated grid (the device IR compiled for the
host; tests/codegen/test_device_trig.py checks MAX_ULP on 2*10^5 f32 and 8*10^4 f64 inputs):

    f32, 0 <= x < 2^17, all 1.2*10^9 inputs (float64 reference):  sin 0.78  cos 0.78  tan 0.96
    f64, |x| < 2^27, 4*10^6 samples (long double reference):     sin 0.78  cos 0.77  tan 0.95

DOMAIN: the bounds hold for |x| < 2^17 (f32) and |x| < 2^27 (f64), where every k*Ci is exact.
Beyond it the products round and the error grows with |x|; measured maximum absolute errors
(sin, cos): f32 1e-6 on [2^17, 2^18), 1.2e-4 on [2^18, 2^19), 0.06 on [2^20, 2^21); f64 1 ulp
up to 2^29, 1.2e-7 on [2^30, 2^31), 1e-6 on [2^33, 2^34). Past about 2^22 (f32) / 2^51 (f64) the
magic-number rounding of k fails and the results carry no information. Every finite x still
gives a finite result, sin and cos in [-1, 1]: a reduced argument outside [-1, 1] (only
possible out there) is replaced by 0, and tan's divisor is kept away from 0. There is no
Payne-Hanek reduction.

Without FMA contraction (the cuda target emits mul.rn/add.rn, which ptxas does not fuse),
the exact products, two-sums and Dekker halves hold as written.
"""
from __future__ import annotations

from types import SimpleNamespace

from lowering.codegen.llvm.fastmath import Ops

MAX_ULP = {  # in DOMAIN; the measured maxima are in the docstring
    "f32": {"sine": 1.0, "cosine": 1.0, "tan": 1.5},
    "f64": {"sine": 1.0, "cosine": 1.0, "tan": 1.5},
}
DOMAIN = {"f32": 2.0 ** 17, "f64": 2.0 ** 27}  # |x| below which MAX_ULP holds

_F32 = SimpleNamespace(
    two_over_pi=0.6366197723675814,
    # pi/2 = sum, truncated: 7-bit parts (k*Ci exact for k < 2^17), then 24 bits; 2^-82 left
    pio2=(1.5625, 0.0081787109375, 0.00011730194091796875, 3.129243850708008e-07,
          9.89530235528946e-10, 2.5579538487363607e-12, 5.384581669432009e-15,
          5.721188916458728e-18),
    tiny=2.0 ** -100,  # tan's divisor is never smaller in the domain
    exact=3,  # the first 3 subtractions cannot round (|residual| < 2^24 * its granularity)
    # sin(r) = r + r^3 (S1 + z*S(z)), cos(r) = 1 - z/2 + z^2 C(z), z = r^2, |r| <= 0.8
    sin_p=(-0.1666666716337204, 0.008333377540111542, -0.00019852067634928972,
           2.820354666255298e-06),
    cos_p=(0.04166664183139801, -0.0013887130189687014, 2.4412080165348016e-05),
)

_F64 = SimpleNamespace(
    two_over_pi=0.6366197723675814,
    # 26-bit parts (k*Ci exact for k < 2^27), then 53 bits; 2^-160 left
    pio2=(1.5707963109016418, 1.5893254712295857e-08, 6.123233932053594e-17,
          6.368317055225283e-25, 1.082856673921914e-32),
    tiny=2.0 ** -900,
    exact=2,
    # fdlibm k_sin.c S1..S6 and k_cos.c C1..C6
    sin_p=(-1.66666666666666324348e-01, 8.33333333332248946124e-03,
           -1.98412698298579493134e-04, 2.75573137070700676789e-06,
           -2.50507602534068634195e-08, 1.58969099521155010221e-10),
    cos_p=(4.16666666666666019037e-02, -1.38888888888741095749e-03,
           2.48015872894767294178e-05, -2.75573143513906633035e-07,
           2.08757232129817482790e-09, -1.13596475577881948265e-11),
)

CONSTS = {"f32": _F32, "f64": _F64}


def _two_sum(f: Ops, a, b):
    """(s, e): s = fl(a + b), e = a + b - s exactly (Knuth; no condition on a and b)."""
    s = f.add(a, b)
    bb = f.sub(s, a)
    return s, f.add(f.sub(a, f.sub(s, bb)), f.sub(b, bb))


def _reduce(f: Ops, x):
    """(q, rh, rl): x = q*pi/2 + rh + rl, q an integer of f's width (its low bits valid),
    |rh + rl| <~ pi/4, |rl| <= ulp(rh)/2."""
    k, t = f.k, CONSTS[f.e]
    y = f.add(f.mul(x, f.c(t.two_over_pi)), f.c(k.magic))
    q = f.isub(f.bits(y), f.ci(k.magic_bits))
    kf = f.sub(y, f.c(k.magic))
    r = x
    for c in t.pio2[:t.exact]:
        r = f.sub(r, f.mul(kf, f.c(c)))  # exact
    lo = None
    for c in t.pio2[t.exact:]:
        r, e = _two_sum(f, r, f.mul(kf, f.c(-c)))
        lo = e if lo is None else f.add(lo, e)
    rh = f.add(r, lo)
    rl = f.sub(lo, f.sub(rh, r))  # |lo| <= a few ulp(r)/2: Fast2Sum holds
    # past the domain's end anything may come out (garbage, not inf or NaN, for finite x):
    # keep it in [-1, 1]; the specials are set at the end
    ok = f.cmp("ole", f.abs(rh), f.c(1.0))
    zero = f.c(0.0)
    return q, f.sel(ok, rh, zero), f.sel(ok, rl, zero)


def _sin_k(f: Ops, x, y):
    """sin(x + y) = hi + lo (|lo| <= ulp(hi)/2), |x| <= 0.8, |y| <= ulp(x)/2 (fdlibm's
    __kernel_sin; hi is its result, lo what hi's rounding dropped)."""
    p = CONSTS[f.e].sin_p
    z = f.mul(x, x)
    v = f.mul(z, x)
    r = f.horner(p[1:], z)
    d = f.sub(f.sub(f.mul(z, f.sub(f.mul(f.c(0.5), y), f.mul(v, r))), y), f.mul(v, f.c(p[0])))
    hi = f.sub(x, d)
    return hi, f.sub(f.sub(x, hi), d)  # Fast2Sum: |d| < |x|/6


def _cos_k(f: Ops, x, y):
    """cos(x + y) = hi + lo, as above (musl's __cos: the rounding error of w = 1 - x^2/2 is
    added back)."""
    p = CONSTS[f.e].cos_p
    one = f.c(1.0)
    z = f.mul(x, x)
    r = f.mul(z, f.horner(p, z))
    hz = f.mul(f.c(0.5), z)
    w = f.sub(one, hz)
    b = f.add(f.sub(f.sub(one, w), hz), f.sub(f.mul(z, r), f.mul(x, y)))
    hi = f.add(w, b)
    return hi, f.sub(b, f.sub(hi, w))  # Fast2Sum: w >= 0.68 > |b|


def _split(f: Ops, v):
    """(vh, vl) = v with its low half of bits cleared, and the rest: products of halves are
    exact (Dekker), one of f64's 27-bit halves times the other's excepted (rounded, tiny)."""
    vh = f.flt(f.iand(f.bits(v), f.ci(f.k.sq_mask)))
    return vh, f.sub(v, vh)


def _div(f: Ops, n, nl, d, dl):
    """(n + nl) / (d + dl) to within about 0.5 ulp: the rounded quotient t plus the remainder
    (n + nl - t*(d + dl)) / d, t*d taken exactly by halves."""
    t = f.div(n, d)
    th, tl = _split(f, t)
    dh, d2 = _split(f, d)
    rem = f.sub(n, f.mul(th, dh))  # exact: th*dh is within about 2^-10 of n (Sterbenz)
    for a, b in ((th, d2), (tl, dh), (tl, d2)):
        rem = f.sub(rem, f.mul(a, b))
    rem = f.sub(f.add(rem, nl), f.mul(t, dl))
    return f.add(t, f.div(rem, d))


def _bit(f: Ops, q, m):
    return f.icmp("ne", f.iand(q, f.ci(m)), f.ci(0))


def _finish(f: Ops, x, y, keep_zero):
    """NaN for +-inf and NaN; x itself for +-0 where the function is odd."""
    if keep_zero:
        y = f.sel(f.cmp("oeq", x, f.c(0.0)), x, y)
    return f.sel(f.cmp("olt", f.abs(x), f.c(float("inf"))), y, f.c(float("nan")))


def sin(f: Ops, x):
    q, rh, rl = _reduce(f, x)
    v = f.sel(_bit(f, q, 1), _cos_k(f, rh, rl)[0], _sin_k(f, rh, rl)[0])
    v = f.mul(v, f.sel(_bit(f, q, 2), f.c(-1.0), f.c(1.0)))
    return _finish(f, x, v, True)


def cos(f: Ops, x):
    q, rh, rl = _reduce(f, x)
    v = f.sel(_bit(f, q, 1), _sin_k(f, rh, rl)[0], _cos_k(f, rh, rl)[0])
    v = f.mul(v, f.sel(_bit(f, f.iadd(q, f.ci(1)), 2), f.c(-1.0), f.c(1.0)))
    return _finish(f, x, v, False)


def tan(f: Ops, x):
    q, rh, rl = _reduce(f, x)
    (s, sl), (c, cl) = _sin_k(f, rh, rl), _cos_k(f, rh, rl)
    odd = _bit(f, q, 1)
    n, nl = f.sel(odd, c, s), f.sel(odd, cl, sl)
    d, dl = f.sel(odd, s, c), f.sel(odd, sl, cl)
    # in the domain |d| > 2^-62; past it the reduced argument is noise, and may be 0
    tiny = f.c(CONSTS[f.e].tiny)
    small = f.cmp("olt", f.abs(d), tiny)
    d, dl = f.sel(small, tiny, d), f.sel(small, f.c(0.0), dl)
    v = f.mul(_div(f, n, nl, d, dl), f.sel(odd, f.c(-1.0), f.c(1.0)))
    return _finish(f, x, v, True)
