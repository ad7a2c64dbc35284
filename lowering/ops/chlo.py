"""CHLO's elementwise ops, reduce_precision and optimization_barrier.

JAX prints erf, erfc, erf_inv, lgamma, digamma, sinh, cosh, asin, acos, atan,
asinh, acosh, atanh, bessel_i1e, zeta, polygamma, next_after and square (jnp.square; and, in older versions,
tan) in the `chlo.` dialect. They are elementwise, so they get no stage of
their own: `chlo.X` is spelled `mhlo.X` from the HLO stage on (a registry alias), and
from there each op is one more elementwise op in the registry, with its scalar rule
here (SCALAR_RULES). They fuse like any other elementwise op.

Numerics, per op (f16/bf16 are computed in a wider type and rounded once):

- erf, erfc: inline polynomials that vectorise, lowering/fastmath.py (which
  replaces the libm rules registered here; f16/bf16 in f32): erf within 1 ulp,
  erfc within 2.5 (XLA's erfc rounds x^2 and loses ~x^2 ulps).
- sinh, cosh, asin, acos, atan, asinh, acosh, atanh: libm (`sinhf`, `sinh`,
  ...; f16/bf16 in f32). glibc's are within 1-2 ulps; XLA's own formulas are a
  few ulps (more for cosh/sinh of large |x|, where XLA computes
  exp(|x| + log(1/2))).
- erf_inv: Giles' double-precision approximation ("Approximating the erfinv
  function", GPU Computing Gems, 2011), the one XLA uses for f64, with
  w = -log((1-|x|)(1+|x|)) for |x| >= 1/2 so w keeps its precision near +-1.
  f16/bf16/f32 are computed in f64 and rounded once (XLA evaluates Giles'
  single-precision polynomial in f32).
- lgamma, digamma: Lanczos' approximation (g = 7, 9 terms) with the reflection
  formula for x < 1/2, the formulas of XLA's `chlo` decomposition; f16/bf16/f32
  are computed in f64 and rounded once, so they keep their relative accuracy
  next to the roots (lgamma(1) = lgamma(2) = 0, digamma(1.4616...) = 0) where
  an f32 evaluation has an absolute error of ~5e-7. f64 keeps XLA's accuracy:
  relative error up to ~3e-15 (30 ulps), ~4e-15 absolute next to the roots. lgamma is exactly 0 at 1 and
  2, +inf at poles and +-inf; digamma is NaN at poles (0, -1, -2, ...) and -inf.
- bessel_i1e: Cephes' Chebyshev series (i1.c, double coefficients) in f64, both intervals
  evaluated and one selected; within an ulp of mpmath in f32, ~1e-15 relative in f64.
- zeta (Hurwitz), polygamma: Euler-Maclaurin after ten terms with twelve Bernoulli terms
  (Cephes' zeta.c, fixed trip counts as in XLA's decomposition), in f64; polygamma(n, x) =
  (-1)^(n+1) n! zeta(n + 1, x), digamma for n = 0. The domain edges are XLA's (inf, NaN).
  For q <= 0 (x an integer) ten terms may not reach the asymptotic range: less accurate there.
- square: x * x (integers wrap; f16/bf16 are multiplied in f32 and rounded once).
- next_after: bit manipulation in the operand's own width (XLA's algorithm):
  NaN if either is NaN, y if x == y, the smallest subnormal signed like y if
  x is 0, else x's bit pattern one step toward y.
- reduce_precision: XLA's bit-level rounding to `exponent_bits`/
  `mantissa_bits` (round to nearest even, overflow to inf, values below the
  format's smallest normal to signed zero), NaN kept as it is (payload too).

Each op is registered as an elementwise op (ops/elementwise.py), spelled `mhlo.X`.
"""
from __future__ import annotations

import math

from lowering.ir.core import bit_width
from lowering.ops import registry
from lowering.ops.elementwise import define_elementwise, infer_elementwise
from lowering.ops.registry import ShapeError

HALF = ("f16", "bf16")

# CHLO ops JAX emits that are elementwise and computed here (chlo.top_k is not).
UNARY = {"erf", "erfc", "erf_inv", "lgamma", "digamma", "tan", "sinh", "cosh", "asin", "acos",
         "atan", "asinh", "acosh", "atanh", "square", "bessel_i1e"}
BINARY = {"next_after", "zeta", "polygamma"}
# New tensor-level elementwise ops: the CHLO ones (tan exists already) and reduce_precision.
NEW_UNARY = (UNARY - {"tan"}) | {"reduce_precision"}
NEW_BINARY = BINARY
FLOAT_ONLY = (NEW_UNARY | NEW_BINARY) - {"square"}

# The ops computed as one `math.` op of the same name (how each target computes it: the math
# table, codegen/mathlib.py).
LIBM_FUNCTIONS = {n: n for n in ("erf", "erfc", "sinh", "cosh", "asin", "acos", "atan",
                                 "asinh", "acosh", "atanh")}

# exponent and mantissa bits of each float type
FLOAT_FORMAT = {"f16": (5, 10), "bf16": (8, 7), "f32": (8, 23), "f64": (11, 52)}


# ----------------------------------------------------------------------------- helpers


def _signed(value: int, width: int) -> int:
    """`value` (an unsigned bit pattern) as a signed integer of `width` bits."""
    value &= (1 << width) - 1
    return value - (1 << width) if value >> (width - 1) else value


class _F:
    """Float arithmetic on scalar values of one type, through a scalar builder `s`."""

    def __init__(self, s, elem):
        self.s, self.e = s, elem

    def c(self, value):
        return self.s.const(value, self.e)

    def op(self, name, *args, **attrs):
        return self.s.v(name, list(args), self.e, **attrs)

    def add(self, a, b):
        return self.op("arith.addf", a, b)

    def sub(self, a, b):
        return self.op("arith.subf", a, b)

    def mul(self, a, b):
        return self.op("arith.mulf", a, b)

    def div(self, a, b):
        return self.op("arith.divf", a, b)

    def neg(self, a):
        return self.op("arith.negf", a)

    def cmp(self, pred, a, b):
        return self.s.v("arith.cmpf", [a, b], "i1", predicate=pred)

    def sel(self, p, a, b):
        return self.s.select(p, a, b, self.e)

    def horner(self, coeffs, w):
        """coeffs[0] * w^(n-1) + ... + coeffs[-1], evaluated by Horner's rule."""
        p = self.c(coeffs[0])
        for k in coeffs[1:]:
            p = self.add(self.mul(p, w), self.c(k))
        return p


def _computed_in(s, elem, args, wide, body):
    """body(_F, args) evaluated in `wide` (when `elem` is narrower), rounded once to `elem`."""
    if bit_width(elem) < bit_width(wide):
        xs = [s.v("arith.extf", [x], wide) for x in args]
        return s.v("arith.truncf", [body(_F(s, wide), xs)], elem)
    return body(_F(s, elem), args)


def _libm_rule(math_op):
    """A libm function; f16/bf16 are computed in f32 (as scalar._float_op does)."""
    def rule(s, elem, args, op):
        wide = "f32" if elem in HALF else elem
        return _computed_in(s, elem, args, wide, lambda f, xs: f.op(math_op, *xs))
    return rule


def _wide_rule(body):
    """A rule computed in f64 for every float type, rounded once to the operand's type."""
    def rule(s, elem, args, op):
        return _computed_in(s, elem, args, "f64", lambda f, xs: body(f, *xs))
    return rule


# ----------------------------------------------------------------------------- erf_inv

# Giles' double-precision erfinv: p(w) * x, a polynomial in w - 3.125 (w < 6.25),
# sqrt(w) - 3.25 (w < 16) or sqrt(w) - 5, highest power first.
_ERFINV_W_LT_6_25 = (
    -3.6444120640178196996e-21, -1.685059138182016589e-19, 1.2858480715256400167e-18,
    1.115787767802518096e-17, -1.333171662854620906e-16, 2.0972767875968561637e-17,
    6.6376381343583238325e-15, -4.0545662729752068639e-14, -8.1519341976054721522e-14,
    2.6335093153082322977e-12, -1.2975133253453532498e-11, -5.4154120542946279317e-11,
    1.051212273321532285e-09, -4.1126339803469836976e-09, -2.9070369957882005086e-08,
    4.2347877827932403518e-07, -1.3654692000834678645e-06, -1.3882523362786468719e-05,
    0.0001867342080340571352, -0.00074070253416626697512, -0.0060336708714301490533,
    0.24015818242558961693, 1.6536545626831027356)
_ERFINV_W_LT_16 = (
    2.2137376921775787049e-09, 9.0756561938885390979e-08, -2.7517406297064545428e-07,
    1.8239629214389227755e-08, 1.5027403968909827627e-06, -4.013867526981545969e-06,
    2.9234449089955446044e-06, 1.2475304481671778723e-05, -4.7318229009055733981e-05,
    6.8284851459573175448e-05, 2.4031110387097893999e-05, -0.0003550375203628474796,
    0.00095328937973738049703, -0.0016882755560235047313, 0.0024914420961078508066,
    -0.0037512085075692412107, 0.005370914553590063617, 1.0052589676941592334,
    3.0838856104922207635)
_ERFINV_W_GE_16 = (
    -2.7109920616438573243e-11, -2.5556418169965252055e-10, 1.5076572693500548083e-09,
    -3.7894654401267369937e-09, 7.6157012080783393804e-09, -1.4960026627149240478e-08,
    2.9147953450901080826e-08, -6.7711997758452339498e-08, 2.2900482228026654717e-07,
    -9.9298272942317002539e-07, 4.5260625972231537039e-06, -1.9681778105531670567e-05,
    7.5995277030017761139e-05, -0.00021503011930044477347, -0.00013871931833623122026,
    1.0103004648645343977, 4.8499064014085844221)


def _erf_inv(f: _F, x):
    one = f.c(1.0)
    a = f.op("math.absf", x)
    # w = -log(1 - x^2), with 1 - x^2 as (1-|x|)(1+|x|): next to +-1, 1 - |x| is exact and
    # the product has one rounding, where 1 - x*x would lose the low bits of x*x. Only w's
    # absolute error matters (p is smooth in w), so log rather than log1p is fine for small x.
    w = f.neg(f.op("math.log", f.mul(f.sub(one, a), f.add(one, a))))
    sqrt_w = f.op("math.sqrt", w)
    p1 = f.horner(_ERFINV_W_LT_6_25, f.sub(w, f.c(3.125)))
    p2 = f.horner(_ERFINV_W_LT_16, f.sub(sqrt_w, f.c(3.25)))
    p3 = f.horner(_ERFINV_W_GE_16, f.sub(sqrt_w, f.c(5.0)))
    p = f.sel(f.cmp("olt", w, f.c(6.25)), p1, f.sel(f.cmp("olt", w, f.c(16.0)), p2, p3))
    result = f.mul(p, x)
    # erf_inv(+-1) = +-inf; |x| > 1 gives NaN through the log; NaN stays NaN.
    at_one = f.cmp("oeq", a, one)
    return f.sel(at_one, f.op("math.copysign", f.c(math.inf), x), result)


# ----------------------------------------------------------------------------- lgamma, digamma

_LANCZOS_G = 7.0
_LANCZOS_BASE = 0.99999999999980993227684700473478
_LANCZOS = (676.520368121885098567009190444019, -1259.13921672240287047156078755283,
            771.3234287776530788486528258894, -176.61502916214059906584551354,
            12.507343278686904814458936853, -0.13857109526572011689554707,
            9.984369578019570859563e-6, 1.50563273514931155834e-7)


def _lanczos_z(f: _F, x):
    """(reflect, z): reflect for x < 1/2, z = -x there and x - 1 elsewhere."""
    reflect = f.cmp("olt", x, f.c(0.5))
    return reflect, f.sel(reflect, f.neg(x), f.sub(x, f.c(1.0)))


def _log_t(f: _F, z):
    """(t, log t) with t = z + g + 1/2. (XLA takes log(g + 1/2) + log1p(z / (g + 1/2)) for
    devices with an inaccurate log; evaluated in f64 with libm's, log t is as accurate.)"""
    t = f.add(z, f.c(_LANCZOS_G + 0.5))
    return t, f.op("math.log", t)


def _is_inf(f: _F, x):
    return f.cmp("oeq", f.op("math.absf", x), f.c(math.inf))


def _lgamma(f: _F, x):
    half, one = f.c(0.5), f.c(1.0)
    reflect, z = _lanczos_z(f, x)
    a = f.c(_LANCZOS_BASE)
    for k, coeff in enumerate(_LANCZOS, start=1):
        a = f.add(a, f.div(f.c(coeff), f.add(z, f.c(float(k)))))
    t, log_t = _log_t(f, z)
    # (z + 1/2) log t - t, as (z + 1/2 - t / log t) log t so that it does not overflow
    r = f.mul(f.sub(f.add(z, half), f.div(t, log_t)), log_t)
    c = f.add(f.c(0.5 * math.log(2 * math.pi)), r)
    # lgamma(z + 1) = c + log a. For x < 1/2, lgamma(x) = log(pi) - log|sin(pi x)| -
    # lgamma(1 - x) = log(pi) - c - log(|sin(pi x)| a): one log for both. sin(pi x) is taken
    # at the fraction of |x| folded into [0, 1/2], exactly 0 at the integers (poles: the log
    # is -inf and the result +inf).
    ax = f.op("math.absf", x)
    frac = f.sub(ax, f.op("math.floor", ax))
    frac = f.sel(f.cmp("olt", half, frac), f.sub(one, frac), frac)
    sin = f.op("math.sin", f.mul(f.c(math.pi), frac))
    log_a = f.op("math.log", f.sel(reflect, f.mul(sin, a), a))
    result = f.sel(reflect, f.sub(f.sub(f.c(math.log(math.pi)), c), log_a), f.add(c, log_a))
    # exactly 0 at 1 and 2 (the approximation leaves ~1e-15 there)
    one_or_two = f.s.v("arith.ori", [f.cmp("oeq", x, one), f.cmp("oeq", x, f.c(2.0))], "i1")
    result = f.sel(one_or_two, f.c(0.0), result)
    return f.sel(_is_inf(f, x), f.c(math.inf), result)


def _digamma(f: _F, x):
    zero, one = f.c(0.0), f.c(1.0)
    reflect, z = _lanczos_z(f, x)
    a, a_prime = f.c(_LANCZOS_BASE), zero
    for k, coeff in enumerate(_LANCZOS, start=1):
        inv = f.div(one, f.add(z, f.c(float(k))))
        q = f.mul(f.c(coeff), inv)
        a_prime = f.sub(a_prime, f.mul(q, inv))
        a = f.add(a, q)
    t, log_t = _log_t(f, z)
    dg = f.sub(f.add(log_t, f.div(a_prime, a)), f.div(f.c(_LANCZOS_G), t))
    # x < 1/2: digamma(x) = digamma(1 - x) - pi cot(pi x), x shifted by an integer into
    # [-1/2, 1/2] first so that pi x keeps its precision.
    reduced = f.add(x, f.op("math.absf", f.op("math.floor", f.add(x, f.c(0.5)))))
    cot = f.div(f.c(math.pi), f.op("math.tan", f.mul(f.c(math.pi), reduced)))
    result = f.sel(reflect, f.sub(dg, cot), dg)
    pole = f.s.v("arith.andi", [f.cmp("ole", x, zero),
                                f.cmp("oeq", x, f.op("math.floor", x))], "i1")
    return f.sel(pole, f.c(math.nan), result)


# ----------------------------------------------------------------------------- bessel_i1e

# Cephes' i1.c Chebyshev coefficients (highest degree first): exp(-|x|) I1(|x|) / |x| on
# [0, 8] in y = |x| / 2 - 2, and exp(-|x|) I1(|x|) sqrt(|x|) on (8, inf) in 32 / |x| - 2.
_I1E_A = (
    2.77791411276104639959e-18, -2.11142121435816608115e-17, 1.55363195773620046921e-16,
    -1.10559694773538630805e-15, 7.60068429473540693410e-15, -5.04218550472791168711e-14,
    3.22379336594557470981e-13, -1.98397439776494371520e-12, 1.17361862988909016308e-11,
    -6.66348972350202774223e-11, 3.62559028155211703701e-10, -1.88724975172282928790e-9,
    9.38153738649577178388e-9, -4.44505912879632808065e-8, 2.00329475355213526229e-7,
    -8.56872026469545474066e-7, 3.47025130813767847674e-6, -1.32731636560394358279e-5,
    4.78156510755005422638e-5, -1.61760815825896745588e-4, 5.12285956168575772895e-4,
    -1.51357245063125314899e-3, 4.15642294431288815669e-3, -1.05640848946261981558e-2,
    2.47264490306265168283e-2, -5.29459812080949914269e-2, 1.02643658689847095384e-1,
    -1.76416518357834055153e-1, 2.52587186443633654823e-1)
_I1E_B = (
    7.51729631084210481353e-18, 4.41434832307170791151e-18, -4.65030536848935832153e-17,
    -3.20952592199342395980e-17, 2.96262899764595013876e-16, 3.30820231092092828324e-16,
    -1.88035477551078244854e-15, -3.81440307243700780478e-15, 1.04202769841288027642e-14,
    4.27244001671195135429e-14, -2.10154184277266431302e-14, -4.08355111109219731823e-13,
    -7.19855177624590851209e-13, 2.03562854414708950722e-12, 1.41258074366137813316e-11,
    3.25260358301548823856e-11, -1.89749581235054123450e-11, -5.58974346219658380687e-10,
    -3.83538038596423702205e-9, -2.63146884688951950684e-8, -2.51223623787020892529e-7,
    -3.88256480887769039346e-6, -1.10588938762623716291e-4, -9.76109749136146840777e-3,
    7.78576235018280120474e-1)


def _chebyshev(f: _F, coeffs, y):
    """Cephes' chbevl: a Chebyshev series at y in [-2, 2] (Clenshaw's recurrence)."""
    b0, b1, b2 = f.c(coeffs[0]), f.c(0.0), f.c(0.0)
    for coeff in coeffs[1:]:
        b2, b1 = b1, b0
        b0 = f.add(f.sub(f.mul(y, b1), b2), f.c(coeff))
    return f.mul(f.c(0.5), f.sub(b0, b2))


def _bessel_i1e(f: _F, x):
    """exp(-|x|) I1(x), odd; both series evaluated (each at an argument clamped into its
    interval) and one selected, so the rule stays branch-free and vectorises."""
    z = f.op("math.absf", x)
    eight = f.c(8.0)
    small_z = f.op("arith.minimumf", z, eight)
    small = f.mul(_chebyshev(f, _I1E_A, f.sub(f.mul(small_z, f.c(0.5)), f.c(2.0))), small_z)
    large_z = f.op("arith.maximumf", z, eight)
    large = f.div(_chebyshev(f, _I1E_B, f.sub(f.div(f.c(32.0), large_z), f.c(2.0))),
                  f.op("math.sqrt", large_z))
    r = f.sel(f.cmp("ole", z, eight), small, large)
    return f.sel(f.cmp("olt", x, f.c(0.0)), f.neg(r), r)


# ----------------------------------------------------------------------------- zeta, polygamma

# Euler-Maclaurin's Bernoulli terms (2k)! / B_2k of Cephes' zeta.c
_ZETA_A = (12.0, -720.0, 30240.0, -1209600.0, 47900160.0, -1.8924375803183791606e9,
           7.47242496e10, -2.950130727918164224e12, 1.1646782814350067249e14,
           -4.5979787224074726105e15, 1.8152105401943546773e17, -7.1661652561756670113e18)


def _zeta(f: _F, x, q):
    """Hurwitz's zeta(x, q) = sum over k >= 0 of (q + k)^-x: ten terms summed, the rest by
    Euler-Maclaurin with twelve Bernoulli terms (Cephes' zeta.c and XLA's chlo decomposition,
    with fixed trip counts). Outside its domain as XLA: +inf at x = 1, NaN for x < 1 or for
    q <= 0 with x not an integer, and at the poles (integer q <= 0) +inf for even x, else NaN."""
    one = f.c(1.0)
    neg_x = f.neg(x)
    s = f.op("math.powf", q, neg_x)
    a = q
    b = s
    for _ in range(9):
        a = f.add(a, one)
        b = f.op("math.powf", a, neg_x)
        s = f.add(s, b)
    w = a
    s = f.add(s, f.div(f.mul(b, w), f.sub(x, one)))
    s = f.sub(s, f.mul(f.c(0.5), b))
    fac, k = one, 0.0
    for coeff in _ZETA_A:
        fac = f.mul(fac, f.add(x, f.c(k)))
        b = f.div(b, w)
        s = f.add(s, f.div(f.mul(fac, b), f.c(coeff)))
        k += 1.0
        fac = f.mul(fac, f.add(x, f.c(k)))
        b = f.div(b, w)
        k += 1.0
    nan, inf, zero = f.c(math.nan), f.c(math.inf), f.c(0.0)
    q_nonpositive = f.cmp("ole", q, zero)
    x_integer = f.cmp("oeq", x, f.op("math.floor", x))
    q_integer = f.cmp("oeq", q, f.op("math.floor", q))
    x_even = f.cmp("oeq", f.op("arith.remf", x, f.c(2.0)), zero)
    s = f.sel(f.s.v("arith.andi", [q_nonpositive, q_integer], "i1"), f.sel(x_even, inf, nan), s)
    x_fraction = f.s.v("arith.xori", [x_integer, f.s.const(True, "i1")], "i1")
    s = f.sel(f.s.v("arith.andi", [q_nonpositive, x_fraction], "i1"), nan, s)
    s = f.sel(f.cmp("olt", x, one), nan, s)
    return f.sel(f.cmp("oeq", x, one), inf, s)


def _polygamma(f: _F, n, x):
    """polygamma(n, x) = (-1)^(n+1) n! zeta(n + 1, x) for integer n >= 1, digamma for n = 0,
    NaN for any other n (XLA's decomposition)."""
    one, zero = f.c(1.0), f.c(0.0)
    n_plus_one = f.add(n, one)
    factorial = f.op("math.exp", _lgamma(f, n_plus_one))
    odd = f.cmp("oeq", f.op("arith.remf", n, f.c(2.0)), one)
    sign = f.sel(odd, one, f.c(-1.0))
    result = f.mul(f.mul(sign, factorial), _zeta(f, n_plus_one, x))
    result = f.sel(f.cmp("oeq", n, zero), _digamma(f, x), result)
    valid = f.s.v("arith.andi", [f.cmp("oge", n, zero), f.cmp("oeq", n, f.op("math.floor", n))], "i1")
    return f.sel(valid, result, f.c(math.nan))


# ----------------------------------------------------------------------------- bit-level ops


def _next_after(s, elem, args, op):
    x, y = args
    width = bit_width(elem)
    ie = f"i{width}"

    def ic(v):
        return s.const(_signed(v, width), ie)

    def iop(name, *xs):
        return s.v(name, list(xs), ie)

    def icmp(pred, a, b):
        return s.v("arith.cmpi", [a, b], "i1", predicate=pred)

    xi, yi = s.v("arith.bitcast", [x], ie), s.v("arith.bitcast", [y], ie)
    sign_mask, abs_mask = ic(1 << (width - 1)), ic((1 << (width - 1)) - 1)
    nan = s.v("arith.ori", [s.compare(x, x, elem, "NE"), s.compare(y, y, elem, "NE")], "i1")
    equal = s.compare(x, y, elem, "EQ")
    x_abs, y_abs = iop("arith.andi", xi, abs_mask), iop("arith.andi", yi, abs_mask)
    x_sign, y_sign = iop("arith.andi", xi, sign_mask), iop("arith.andi", yi, sign_mask)
    zero, one = ic(0), ic(1)
    # toward zero when the signs differ or |x| > |y|, else away from it
    smaller = s.v("arith.ori", [icmp("ne", x_sign, y_sign), icmp("ugt", x_abs, y_abs)], "i1")
    stepped = iop("arith.addi", xi, s.select(smaller, ic(-1), one, ie))
    from_zero = s.select(icmp("eq", y_abs, zero), yi, iop("arith.ori", y_sign, one), ie)
    result = s.select(icmp("eq", x_abs, zero), from_zero, stepped, ie)
    result = s.select(equal, yi, result, ie)
    exp_bits, man_bits = FLOAT_FORMAT[elem]
    quiet_nan = ((1 << exp_bits) - 1) << man_bits | 1 << (man_bits - 1)
    result = s.select(nan, ic(quiet_nan), result, ie)
    return s.v("arith.bitcast", [result], elem)


def reduce_precision_bits(op):
    """(exponent_bits, mantissa_bits) of a reduce_precision op, checked."""
    e, m = op.attrs.get("exponent_bits"), op.attrs.get("mantissa_bits")
    if not isinstance(e, int) or not isinstance(m, int) or e < 1 or m < 0:
        raise op.error(f"reduce_precision needs exponent_bits >= 1 and mantissa_bits >= 0, "
                       f"got {e!r} and {m!r}")
    return e, m


def _reduce_precision(s, elem, args, op):
    x = args[0]
    exp_bits, man_bits = reduce_precision_bits(op)
    width = bit_width(elem)
    src_exp, src_man = FLOAT_FORMAT[elem]
    ie = f"i{width}"

    def ic(v):
        return s.const(_signed(v, width), ie)

    def iop(name, *xs):
        return s.v(name, list(xs), ie)

    bits = s.v("arith.bitcast", [x], ie)
    if man_bits < src_man:
        # round to nearest even at the new last mantissa bit: add half an ulp minus one,
        # plus the bit that will be the last one, then truncate
        shift = src_man - man_bits
        last = 1 << shift
        last_bit = iop("arith.shrui", iop("arith.andi", bits, ic(last)), ic(shift))
        bias = iop("arith.addi", last_bit, ic((last >> 1) - 1))
        bits = iop("arith.andi", iop("arith.addi", bits, bias), ic(~(last - 1)))
    if exp_bits < src_exp:
        exp_mask = ((1 << src_exp) - 1) << src_man
        src_bias = (1 << (src_exp - 1)) - 1
        new_bias = (1 << (exp_bits - 1)) - 1
        exponent = iop("arith.andi", bits, ic(exp_mask))
        overflow = s.v("arith.cmpi", [exponent, ic((src_bias + new_bias) << src_man)], "i1",
                       predicate="ugt")
        underflow = s.v("arith.cmpi", [exponent, ic((src_bias - new_bias) << src_man)], "i1",
                        predicate="ule")
        signed_zero = iop("arith.andi", bits, ic(1 << (width - 1)))
        signed_inf = iop("arith.ori", signed_zero, ic(exp_mask))
        bits = s.select(overflow, signed_inf, s.select(underflow, signed_zero, bits, ie), ie)
    result = s.v("arith.bitcast", [bits], elem)
    return s.select(s.compare(x, x, elem, "NE"), x, result, elem)


def _square(s, elem, args, op):
    x = args[0]
    if elem in FLOAT_FORMAT:
        wide = "f32" if elem in HALF else elem
        return _computed_in(s, elem, [x], wide, lambda f, xs: f.mul(xs[0], xs[0]))
    return s.v("arith.muli", [x, x], elem)


# ----------------------------------------------------------------------------- tables

SCALAR_RULES = {
    **{n: _libm_rule(f"math.{n}") for n in LIBM_FUNCTIONS},
    "erf_inv": _wide_rule(_erf_inv),
    "lgamma": _wide_rule(_lgamma),
    "digamma": _wide_rule(_digamma),
    "bessel_i1e": _wide_rule(_bessel_i1e),
    "zeta": _wide_rule(_zeta),
    "polygamma": _wide_rule(_polygamma),
    "next_after": _next_after,
    "square": _square,
    "reduce_precision": _reduce_precision,
}


def infer_reduce_precision(op):
    """Shape function: elementwise on floats, with valid exponent and mantissa widths."""
    e, m = op.attrs.get("exponent_bits"), op.attrs.get("mantissa_bits")
    if not isinstance(e, int) or not isinstance(m, int) or e < 1 or m < 0:
        raise ShapeError(f"needs exponent_bits >= 1 and mantissa_bits >= 0, got {e!r} and {m!r}")
    return infer_elementwise(op)


for _name in UNARY | BINARY:  # `chlo.X` is compiled as `mhlo.X`
    registry.alias(f"chlo.{_name}", f"mhlo.{_name}")
for _name in sorted(NEW_UNARY | NEW_BINARY):
    define_elementwise(
        _name, 2 if _name in NEW_BINARY else 1, SCALAR_RULES[_name],
        types="float" if _name in FLOAT_ONLY else None,
        **({"infer": infer_reduce_precision, "attrs": ("exponent_bits", "mantissa_bits")}
           if _name == "reduce_precision" else {}))
