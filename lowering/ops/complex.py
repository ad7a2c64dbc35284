"""Complex numbers: `complex`, `real`, `imag`, and the complex rules of the elementwise ops.

A complex<f32>/complex<f64> scalar is one loop-stage value made (`complex.create`) and taken
apart (`complex.re`, `complex.im`) around real arith/math ops on its parts; codegen holds it
as an LLVM {re, im} struct, so in memory it is the interleaved pair numpy and C99 use and
the data-movement ops move it whole, like any 8- or 16-byte element.

Each rule computes what XLA's CPU backend computes (its elemental IR emitter's formulas,
checked against JAX's outputs on infinities, NaNs and signed zeros): the textbook product,
Smith's division, |z| scaled by its larger part, rsqrt/power through polar form, tanh
through expm1 with its limits at infinity, asin/acos by Hull et al.'s algorithm and atanh by
Kahan's (with XLA's +-pi/2 parts where a part is NaN). Each op's rule on complex operands is its
`complex_scalar` in the registry (`COMPLEX_RULES`), beside its real `scalar` rule.
"""
from __future__ import annotations

import math

from lowering.ir.builder import Ix
from lowering.ir.core import TensorType, component, is_complex, is_float
from lowering.ops import chlo, registry  # chlo: its square, sinh, cosh get complex rules here
from lowering.ops.elementwise import Scalars, define_elementwise
from lowering.ops.registry import ShapeError

# ----------------------------------------------------------------------------- parts


class C(chlo._F):
    """Real arithmetic on the parts of complex values (chlo's float arithmetic on the
    component type), through a Scalars builder `s`."""

    def __init__(self, s, elem: str):
        super().__init__(s, component(elem))
        self.elem, self.f = elem, self.e

    def parts(self, z):
        return (self.s.v("complex.re", [z], self.f), self.s.v("complex.im", [z], self.f))

    def make(self, re, im):
        return self.s.v("complex.create", [re, im], self.elem)

    def abs(self, a):
        return self.op("math.absf", a)

    def fn(self, name, *args):
        return self.op(f"math.{name}", *args)

    def cmp(self, pred, a, b):
        return self.s.v("arith.cmpf", [a, b], "i1", predicate=pred)

    def sel(self, p, a, b):
        return self.s.select(p, a, b, self.f)

    def csel(self, p, a, b):
        return self.s.select(p, a, b, self.elem)

    def and_(self, a, b):
        return self.s.v("arith.andi", [a, b], "i1")

    def or_(self, a, b):
        return self.s.v("arith.ori", [a, b], "i1")

    def not_(self, a):
        return self.s.v("arith.xori", [a, self.s.const(1, "i1")], "i1")

    def copysign(self, a, b):
        return self.fn("copysign", a, b)

    def isnan(self, a):
        return self.cmp("uno", a, a)


def cadd(s, elem, x, y):
    k = C(s, elem)
    (a, b), (c, d) = k.parts(x), k.parts(y)
    return k.make(k.add(a, c), k.add(b, d))


def cmul(s, elem, x, y):
    """(a+bi)(c+di) = (ac-bd) + (ad+bc)i, as written (XLA, numpy)."""
    k = C(s, elem)
    (a, b), (c, d) = k.parts(x), k.parts(y)
    return k.make(k.sub(k.mul(a, c), k.mul(b, d)), k.add(k.mul(a, d), k.mul(b, c)))


def _abs_helper(k: C, z, root: bool):
    """min(|a|,|b|), max(|a|,|b|) and sqrt(1 + (min/max)^2) (or its square): |z| without
    overflow in a*a + b*b."""
    a, b = k.parts(z)
    aa, ab = k.abs(a), k.abs(b)
    hi, lo = k.op("arith.maximumf", aa, ab), k.op("arith.minimumf", aa, ab)
    r = k.div(lo, hi)
    t = k.add(k.c(1.0), k.mul(r, r))
    return lo, hi, (k.fn("sqrt", t) if root else t)


def _cabs(k: C, z):
    lo, hi, t = _abs_helper(k, z, True)
    r = k.mul(hi, t)
    return k.sel(k.isnan(r), lo, r)  # (0,0), (inf,inf) and NaNs: the smaller part


def _binary(fn):
    def rule(s, elem, args, op):
        k = C(s, elem)
        (a, b), (c, d) = k.parts(args[0]), k.parts(args[1])
        return fn(k, a, b, c, d)
    return rule


def _unary(fn):
    def rule(s, elem, args, op):
        k = C(s, elem)
        a, b = k.parts(args[0])
        return fn(k, a, b, args[0])
    return rule


# ----------------------------------------------------------------------------- the rules


def _divide(k: C, ar, ai, br, bi, c99: bool = False):
    """Smith's algorithm; where it gives (NaN, NaN), the C99 recoveries: finite/infinite is
    a zero, and in complex<f64> (or with `c99`) also x/0 an infinity with the signs of x and
    of 0's real part, and infinite/finite an infinity. (XLA's CPU results, checked against
    JAX on every pair of special values: its complex<f32> divide op leaves x/0 and inf/x
    NaN, its complex<f32> atan2 recovers them.)"""
    rat1, rat2 = k.div(br, bi), k.div(bi, br)
    den1, den2 = k.add(bi, k.mul(rat1, br)), k.add(br, k.mul(rat2, bi))
    abr, abi = k.abs(br), k.abs(bi)
    small_r = k.cmp("olt", abr, abi)
    cr = k.sel(small_r, k.div(k.add(k.mul(rat1, ar), ai), den1),
               k.div(k.add(k.mul(rat2, ai), ar), den2))
    ci = k.sel(small_r, k.div(k.sub(k.mul(rat1, ai), ar), den1),
               k.div(k.sub(ai, k.mul(rat2, ar)), den2))
    zero, one, inf = k.c(0.0), k.c(1.0), k.c(float("inf"))
    aar, aai = k.abs(ar), k.abs(ai)
    ar_inf, ai_inf = k.cmp("oeq", aar, inf), k.cmp("oeq", aai, inf)
    br_inf, bi_inf = k.cmp("oeq", abr, inf), k.cmp("oeq", abi, inf)
    finite_num = k.and_(k.cmp("one", aar, inf), k.cmp("one", aai, inf))
    finite_den = k.and_(k.cmp("one", abr, inf), k.cmp("one", abi, inf))
    # finite numerator, infinite denominator: a zero
    inf_den = k.and_(k.or_(br_inf, bi_inf), finite_num)
    u = k.copysign(k.sel(br_inf, one, zero), br)
    v = k.copysign(k.sel(bi_inf, one, zero), bi)
    fixed = [k.mul(zero, k.add(k.mul(ar, u), k.mul(ai, v))), k.mul(zero, k.sub(k.mul(ai, u), k.mul(ar, v)))]
    fixed = [k.sel(inf_den, f, c) for f, c in zip(fixed, (cr, ci))]
    if k.f == "f64" or c99:
        # infinite numerator, finite denominator: an infinity
        inf_num = k.and_(k.or_(ar_inf, ai_inf), finite_den)
        x = k.copysign(k.sel(ar_inf, one, zero), ar)
        y = k.copysign(k.sel(ai_inf, one, zero), ai)
        big = [k.mul(inf, k.add(k.mul(x, br), k.mul(y, bi))), k.mul(inf, k.sub(k.mul(y, br), k.mul(x, bi)))]
        fixed = [k.sel(inf_num, g, f) for g, f in zip(big, fixed)]
        # zero denominator, a numerator not all NaN: an infinity
        zero_den = k.and_(k.and_(k.cmp("oeq", abr, zero), k.cmp("oeq", abi, zero)),
                          k.or_(k.cmp("ord", ar, zero), k.cmp("ord", ai, zero)))
        s_inf = k.copysign(inf, br)
        fixed = [k.sel(zero_den, k.mul(s_inf, p), f) for p, f in zip((ar, ai), fixed)]
    nan = k.and_(k.isnan(cr), k.isnan(ci))
    return k.make(k.sel(nan, fixed[0], cr), k.sel(nan, fixed[1], ci))


def _exp(k: C, a, b, z):
    """e^a (cos b + i sin b); a real z gives a real result, imaginary part +0 even where e^a
    is infinite or NaN (XLA)."""
    e = k.fn("exp", a)
    im = k.sel(k.cmp("oeq", b, k.c(0.0)), k.c(0.0), k.mul(e, k.fn("sin", b)))
    return k.make(k.mul(e, k.fn("cos", b)), im)


def _expm1(k: C, a, b, z):
    """e^z - 1 = (expm1(a) cos b + cosm1(b)) + e^a sin(b) i, cosm1(b) = -2 sin^2(b/2): no
    cancellation near z = 0."""
    em = k.fn("expm1", a)
    cos_b = k.fn("cos", b)
    h = k.fn("sin", k.mul(b, k.c(0.5)))
    cosm1 = k.mul(k.c(-2.0), k.mul(h, h))
    im = k.sel(k.cmp("oeq", b, k.c(0.0)), k.c(0.0), k.mul(k.add(em, k.c(1.0)), k.fn("sin", b)))
    return k.make(k.add(k.mul(em, cos_b), cosm1), im)


def _log(k: C, a, b, z):
    return k.make(k.fn("log", _cabs(k, z)), k.fn("atan2", b, a))


def _log1p(k: C, a, b, z):
    """log(1+z): the real part log|1+z| = log1p(a if 1+a > |b| else max - 1) + log1p((min/max)^2)/2
    over max/min of |1+a| and |b| (no overflow, exact near z = 0, XLA's form), the
    imaginary part atan2(b, 1+a)."""
    one = k.c(1.0)
    a1 = k.add(a, one)
    aa1, ab = k.abs(a1), k.abs(b)
    hi, lo = k.op("arith.maximumf", aa1, ab), k.op("arith.minimumf", aa1, ab)
    big = k.fn("log1p", k.sel(k.cmp("ogt", a1, ab), a, k.sub(hi, one)))
    ratio = k.div(lo, hi)
    r = k.add(k.mul(k.c(0.5), k.fn("log1p", k.mul(ratio, ratio))), big)
    return k.make(k.sel(k.isnan(r), lo, r), k.fn("atan2", b, a1))


def _sqrt(k: C, a, b, z):
    """u = sqrt((|a| + |z|) / 2), v = |b| / 2u: (u, v) for a >= 0, else (v, u), the imaginary
    part negated where b < 0 (so -0 gives +); an infinite b gives (inf, b) unless a is NaN.
    As XLA computes it (checked against JAX on every pair of special values)."""
    aa, ab = k.abs(a), k.abs(b)
    half = k.c(0.5)
    u = k.fn("sqrt", k.add(k.mul(aa, half), k.mul(_cabs(k, z), half)))
    zero, inf = k.c(0.0), k.c(float("inf"))
    v = k.sel(k.cmp("oeq", u, zero), zero, k.div(ab, k.add(u, u)))
    right = k.cmp("oge", a, zero)
    re, im = k.sel(right, u, v), k.sel(right, v, u)
    im = k.sel(k.cmp("olt", b, zero), k.neg(im), im)
    b_inf = k.and_(k.cmp("oeq", ab, inf), k.cmp("ord", a, a))
    return k.make(k.sel(b_inf, inf, re), k.sel(b_inf, b, im))


def _rsqrt(k: C, a, b, z):
    """|z|^-1/2 (cos(-t/2) + i sin(-t/2)); 1/sqrt(0) is (inf, NaN), infinities give zeros."""
    lo, hi, t = _abs_helper(k, z, True)
    one = k.c(1.0)
    r = k.mul(k.div(one, k.fn("sqrt", hi)), k.div(one, k.fn("sqrt", t)))
    r = k.sel(k.isnan(r), k.div(one, k.fn("sqrt", lo)), r)
    half = k.mul(k.fn("atan2", b, a), k.c(-0.5))
    re, im = k.mul(r, k.fn("cos", half)), k.mul(r, k.fn("sin", half))
    zero, inf = k.c(0.0), k.c(float("inf"))
    aa, ab = k.abs(a), k.abs(b)
    both_zero = k.and_(k.cmp("oeq", b, zero), k.cmp("oeq", a, zero))
    at_inf = k.or_(k.and_(k.cmp("oeq", ab, inf), k.isnan(a)), k.cmp("oeq", aa, inf))
    re = k.sel(both_zero, inf, k.sel(at_inf, k.copysign(zero, a), re))
    im = k.sel(both_zero, k.c(float("nan")), k.sel(at_inf, k.neg(k.copysign(zero, b)), im))
    return k.make(re, im)


def _power(k: C, a, b, c, d):
    """(a+bi)^(c+di) = |z|^c e^(-d arg z) (cos q + i sin q), q = c arg z + d log|z|;
    0^w is 1 for w = 0 and 0 for a real w > 0 (Kahan)."""
    aa_bb = k.add(k.mul(a, a), k.mul(b, b))
    zero, half, one = k.c(0.0), k.c(0.5), k.c(1.0)
    arg = k.fn("atan2", b, a)
    coeff = k.mul(k.fn("powf", aa_bb, k.mul(half, c)), k.fn("exp", k.mul(k.neg(d), arg)))
    q = k.add(k.mul(c, arg), k.mul(k.mul(half, d), k.fn("log", aa_bb)))
    general = k.make(k.mul(coeff, k.fn("cos", q)), k.mul(coeff, k.fn("sin", q)))
    zero_base = k.and_(k.and_(k.cmp("oeq", aa_bb, zero), k.cmp("oeq", d, zero)), k.cmp("ole", zero, c))
    special = k.make(k.sel(k.cmp("oeq", zero, c), one, zero), zero)
    return k.csel(zero_base, special, general)


def _tanh_parts(k: C, a, b):
    """tanh(a+bi) = (e^2a - e^-2a + 2i sin 2b) / (e^2a + e^-2a + 2 cos 2b), through expm1
    (exact for small a); +-1 where the denominator overflows; NaNs and zeros as C99 says."""
    two_a = k.add(a, a)
    em, en = k.fn("expm1", two_a), k.fn("expm1", k.neg(two_a))
    re_num = k.sub(em, en)
    cos_b, sin_b = k.fn("cos", b), k.fn("sin", b)
    four = k.c(4.0)
    cos2 = k.mul(k.mul(cos_b, cos_b), four)
    im_num = k.mul(four, k.mul(cos_b, sin_b))
    sum_m2 = k.add(em, en)
    den = k.add(sum_m2, cos2)
    inf, zero = k.c(float("inf")), k.c(0.0)
    re = k.sel(k.cmp("oeq", sum_m2, inf), k.copysign(k.c(-1.0), a), k.div(re_num, den))
    im = k.div(im_num, den)
    a_inf = k.cmp("oeq", k.abs(a), inf)
    sin_nan = k.isnan(im_num)
    re = k.sel(k.and_(sin_nan, k.not_(a_inf)), k.c(float("nan")), re)
    im = k.sel(k.or_(k.cmp("oeq", b, zero), k.and_(a_inf, sin_nan)), zero, im)
    return re, im


def _tanh(k: C, a, b, z):
    return k.make(*_tanh_parts(k, a, b))


def _tan(k: C, a, b, z):
    """tan z = -i tanh(iz): tanh(-b + ai) = x + yi gives y - xi."""
    x, y = _tanh_parts(k, k.neg(b), a)
    return k.make(y, k.neg(x))


def _sine(k: C, a, b, z):
    e = k.fn("exp", b)
    half = k.c(0.5)
    pos, neg = k.mul(half, e), k.div(half, e)
    return k.make(k.mul(k.fn("sin", a), k.add(pos, neg)), k.mul(k.fn("cos", a), k.sub(pos, neg)))


def _cosine(k: C, a, b, z):
    e = k.fn("exp", b)
    half = k.c(0.5)
    pos, neg = k.mul(half, e), k.div(half, e)
    return k.make(k.mul(k.fn("cos", a), k.add(neg, pos)), k.mul(k.fn("sin", a), k.sub(neg, pos)))


def _sinh_cosh(sign: float):
    """(e^z -+ e^-z) / 2, as the chlo decomposition writes them for complex z."""
    def fn(k: C, a, b, z):
        p, q = k.parts(_exp(k, a, b, z)), k.parts(_exp(k, k.neg(a), k.neg(b), z))
        half, s = k.c(0.5), k.c(sign)
        return k.make(k.mul(k.add(p[0], k.mul(s, q[0])), half), k.mul(k.add(p[1], k.mul(s, q[1])), half))
    return fn


def _logistic(k: C, a, b, z):
    """1 / (1 + e^-z), with the complex division."""
    e = k.parts(_exp(k, k.neg(a), k.neg(b), z))
    return _divide(k, k.c(1.0), k.c(0.0), k.add(k.c(1.0), e[0]), e[1])


def _cbrt(k: C, a, b, z):
    """z^(1/3) as the power (1/3 + 0i), as XLA computes it."""
    return _power(k, a, b, k.c(1.0 / 3.0), k.c(0.0))


def _asin_acos_parts(k: C, x, y, acos: bool):
    """asin or acos of x + iy by Hull, Fairgrieve and Tang's algorithm ("Implementing the
    complex arcsine and arccosine functions using exception handling", 1997): with
    r = |(|x|+1, y)|, s = |(|x|-1, y)|, a = (r+s)/2 >= 1 and b = |x|/a, the real part is
    asin(b) or acos(b) away from b = 1 and an atan of exact differences near it; the
    imaginary part's magnitude is log(a + sqrt(a^2-1)), through log1p of exact differences
    near a = 1. No cancellation near the branch points, no overflow before |z| does."""
    ax, ay = k.abs(x), k.abs(y)
    one, half = k.c(1.0), k.c(0.5)
    xp1, xm1 = k.add(ax, one), k.sub(ax, one)
    r = _cabs(k, k.make(xp1, ay))
    s = _cabs(k, k.make(xm1, ay))
    a = k.mul(half, k.add(r, s))
    b = k.div(ax, a)
    y2 = k.mul(ay, ay)
    below = k.cmp("ole", ax, one)
    apx = k.add(a, ax)
    # near b = 1: sqrt(((a + |x|)/2) * (y^2/(r+|x|+1) + s+1-|x|)) (|x| <= 1), or
    # |y| sqrt(((a+|x|)/(r+|x|+1) + (a+|x|)/(s+|x|-1)) / 2) (|x| > 1), both over |x|
    d_below = k.fn("sqrt", k.mul(k.mul(half, apx), k.add(k.div(y2, k.add(r, xp1)), k.sub(k.add(s, one), ax))))
    d_above = k.mul(ay, k.fn("sqrt", k.mul(half, k.add(k.div(apx, k.add(r, xp1)),
                                                       k.div(apx, k.add(s, xm1))))))
    d = k.sel(below, d_below, d_above)
    far = k.cmp("ole", b, k.c(0.6417))
    if acos:
        re = k.sel(far, k.fn("acos", b), k.fn("atan", k.div(d, ax)))
    else:
        re = k.sel(far, k.fn("asin", b), k.fn("atan", k.div(ax, d)))
    # a - 1 as exact differences near a = 1
    am1_below = k.mul(half, k.add(k.div(y2, k.add(r, xp1)), k.div(y2, k.sub(k.add(s, one), ax))))
    am1_above = k.mul(half, k.add(k.div(y2, k.add(r, xp1)), k.add(s, xm1)))
    am1 = k.sel(k.cmp("olt", ax, one), am1_below, am1_above)
    near = k.fn("log1p", k.add(am1, k.fn("sqrt", k.mul(am1, k.add(a, one)))))
    big = k.fn("log", k.add(a, k.mul(k.fn("sqrt", k.sub(a, one)), k.fn("sqrt", k.add(a, one)))))
    im = k.sel(k.cmp("ole", a, k.c(1.5)), near, big)
    # |z| past sqrt(max)/8 (infinities too): the angle of (|x|, |y|), log|z| + log 2
    safe, inf = k.c(_SAFE_MAX[k.f]), k.c(float("inf"))
    huge = k.or_(k.cmp("ogt", ax, safe), k.cmp("ogt", ay, safe))  # either part: NaN in the other
    angle = k.fn("atan2", ay, ax) if acos else k.fn("atan2", ax, ay)
    log_2z = k.add(k.fn("log", _cabs(k, k.make(ax, ay))), k.c(math.log(2.0)))
    either_inf = k.or_(k.cmp("oeq", ax, inf), k.cmp("oeq", ay, inf))
    return k.sel(huge, angle, re), k.sel(huge, k.sel(either_inf, inf, log_2z), im)


_SAFE_MAX = {"f32": 2.3e18, "f64": 1.6e153}  # about sqrt(largest float) / 8


def _signed(k: C, v, of):
    """v with the sign of `of`, -0 counting as positive (XLA's complex functions do)."""
    return k.sel(k.cmp("olt", of, k.c(0.0)), k.neg(v), v)


def _asin(k: C, a, b, z):
    re, im = _asin_acos_parts(k, a, b, acos=False)
    return k.make(_signed(k, re, a), _signed(k, im, b))


def _acos(k: C, a, b, z):
    """acos z = pi - acos(-z) for a negative real part; the imaginary part's sign is b's
    opposite."""
    re, im = _asin_acos_parts(k, a, b, acos=True)
    re = k.sel(k.cmp("olt", a, k.c(0.0)), k.sub(k.c(math.pi), re), re)
    return k.make(re, k.neg(_signed(k, im, b)))


def _asinh(k: C, a, b, z):
    """asinh z = -i asin(iz)."""
    p, q = k.parts(_asin(k, k.neg(b), a, z))
    return k.make(q, k.neg(p))


def _acosh(k: C, a, b, z):
    """acosh z = i acos z or -i acos z, whichever has a real part >= 0."""
    p, q = k.parts(_acos(k, a, b, z))
    lower = k.cmp("ole", q, k.c(0.0))
    return k.make(k.sel(lower, k.neg(q), q), k.sel(lower, p, k.neg(p)))


def _atanh_parts(k: C, x, y):
    """atanh(x + iy) = sign(x) log1p(4|x| / ((1-|x|)^2 + y^2)) / 4
    + i atan2(2y, (1-|x|)(1+|x|) - y^2) / 2 (Kahan; odd in x, so log1p's argument is never
    near -1): exact near 0, the limits at infinity without overflow trouble."""
    one = k.c(1.0)
    ax = k.abs(x)
    omx = k.sub(one, ax)
    den = k.add(k.mul(omx, omx), k.mul(y, y))
    re = k.mul(k.c(0.25), k.fn("log1p", k.div(k.mul(k.c(4.0), ax), den)))
    im = k.mul(k.c(0.5), k.fn("atan2", k.add(y, y), k.sub(k.mul(omx, k.add(one, ax)), k.mul(y, y))))
    # |z| past sqrt(max)/8, or a NaN part: 1/z's real part, and +-pi/2; as in XLA, a NaN
    # counts as negative for both signs (so atanh(NaN + iy) = NaN - i pi/2 sign(y) ... and
    # atanh(NaN + i inf) = -0 + i pi/2)
    huge = k.cmp("uge", k.op("arith.maximumf", ax, k.abs(y)), k.c(_SAFE_MAX[k.f]))
    r = _cabs(k, k.make(ax, y))
    inf = k.c(float("inf"))
    infinite = k.op("arith.ori", k.cmp("oeq", r, inf), k.op("arith.ori", k.cmp("oeq", ax, inf),
                                                          k.cmp("oeq", k.abs(y), inf)))
    tiny = k.sel(infinite, k.c(0.0), k.div(k.div(ax, r), r))
    re = k.sel(huge, tiny, re)
    im = k.sel(huge, _signed_nan_negative(k, k.c(math.pi / 2), y), im)
    return _signed_nan_negative(k, re, x), im


def _signed_nan_negative(k: C, v, of):
    """v with the sign of `of` as XLA's atanh takes it: -0 positive, NaN negative."""
    return k.sel(k.cmp("oge", of, k.c(0.0)), v, k.neg(v))


def _atanh(k: C, a, b, z):
    return k.make(*_atanh_parts(k, a, b))


def _atan(k: C, a, b, z):
    """atan z = -i atanh(iz)."""
    p, q = _atanh_parts(k, k.neg(b), a)
    return k.make(q, k.neg(p))


def _sign(k: C, a, b, z):
    r = _cabs(k, z)
    zero = k.c(0.0)
    is_zero = k.cmp("oeq", r, zero)
    return k.csel(is_zero, k.make(zero, zero), k.make(k.div(a, r), k.div(b, r)))


def _sqrt_polar(k: C, z):
    """sqrt(|z|) (cos(t/2) + i sin(t/2)), t = arg z, with C99's infinities: the square root
    XLA's atan2 takes (its sqrt op is _sqrt's)."""
    a, b = k.parts(z)
    lo, hi, t = _abs_helper(k, z, False)
    r = k.mul(k.fn("sqrt", hi), k.fn("powf", t, k.c(0.25)))  # sqrt|z| without overflow
    r = k.sel(k.isnan(r), k.fn("sqrt", lo), r)
    half = k.mul(k.fn("atan2", b, a), k.c(0.5))
    cos, sin = k.fn("cos", half), k.fn("sin", half)
    zero, inf = k.c(0.0), k.c(float("inf"))
    ab = k.abs(b)
    b_inf, a_ninf = k.cmp("oeq", ab, inf), k.cmp("oeq", a, k.c(float("-inf")))
    re = k.sel(k.or_(b_inf, k.cmp("oeq", a, inf)), inf,
               k.sel(k.and_(a_ninf, k.cmp("one", ab, inf)), zero, k.mul(r, cos)))
    im = k.sel(k.or_(b_inf, a_ninf), k.copysign(inf, b),
               k.sel(k.isnan(r), k.c(float("nan")), k.sel(k.cmp("oeq", sin, zero), sin, k.mul(r, sin))))
    return k.csel(k.cmp("oeq", r, zero), k.make(zero, zero), k.make(re, im))


def _atan2(k: C, a, b, c, d):
    """atan2(y, x) = -i log((x + iy) / sqrt(x^2 + y^2)) for y = a+bi, x = c+di, step by step
    as XLA computes it (products by i and -i as full products, so infinities give its NaNs;
    the polar square root), checked against its results on every pair of special values."""
    s, e = k.s, k.elem
    y, x = k.make(a, b), k.make(c, d)
    root = _sqrt_polar(k, cadd(s, e, cmul(s, e, x, x), cmul(s, e, y, y)))
    num = cadd(s, e, x, cmul(s, e, k.make(k.c(0.0), k.c(1.0)), y))
    q = _divide(k, *k.parts(num), *k.parts(root), c99=True)
    return cmul(s, e, k.make(k.c(0.0), k.c(-1.0)), _log(k, *k.parts(q), q))


def _extremum(pred: str):
    """maximum/minimum: x where its real part is >= (<=) y's, else y. XLA's CPU backend
    compares the real parts only, ordered (a NaN real part loses, ties keep x), where the
    spec says lexicographic on (re, im)."""
    def rule(s, elem, args, op):
        k = C(s, elem)
        return k.csel(k.cmp(pred, k.parts(args[0])[0], k.parts(args[1])[0]), args[0], args[1])
    return rule


def _compare(s, elem, args, op):
    """EQ: both parts equal (ordered); NE: either part unequal (unordered), so x != y is
    !(x == y). Complex numbers have no order: other directions are an error."""
    direction = op.attrs["comparison_direction"].value
    if direction not in ("EQ", "NE"):
        raise op.error(f"compare {direction} of {elem}: complex numbers are only compared EQ or NE")
    k = C(s, elem)
    (a, b), (c, d) = k.parts(args[0]), k.parts(args[1])
    pred = "oeq" if direction == "EQ" else "une"
    re, im = k.cmp(pred, a, c), k.cmp(pred, b, d)
    return k.and_(re, im) if direction == "EQ" else k.or_(re, im)


def _abs(s, elem, args, op):
    return _cabs(C(s, elem), args[0])


COMPLEX_RULES = {
    "add": lambda s, elem, args, op: cadd(s, elem, *args),
    "subtract": _binary(lambda k, a, b, c, d: k.make(k.sub(a, c), k.sub(b, d))),
    "multiply": lambda s, elem, args, op: cmul(s, elem, *args),
    "divide": _binary(_divide),
    "power": _binary(_power),
    "compare": _compare,
    "atan2": _binary(_atan2),
    "maximum": _extremum("oge"),
    "minimum": _extremum("ole"),
    "clamp": lambda s, elem, args, op: _extremum("ole")(s, elem, [_extremum("oge")(s, elem, args[:2], op),
                                                                 args[2]], op),  # min(max(lo, x), hi)
    "bitcast_convert": lambda s, elem, args, op: args[0],  # complex<f32> to itself, or f64
    "negate": _unary(lambda k, a, b, z: k.make(k.neg(a), k.neg(b))),
    "abs": _abs,
    "sign": _unary(_sign),
    "exponential": _unary(_exp),
    "exponential_minus_one": _unary(_expm1),
    "log": _unary(_log),
    "log_plus_one": _unary(_log1p),
    "sqrt": _unary(_sqrt),
    "rsqrt": _unary(_rsqrt),
    "sine": _unary(_sine),
    "cosine": _unary(_cosine),
    "tan": _unary(_tan),
    "tanh": _unary(_tanh),
    "cbrt": _unary(_cbrt),
    "logistic": _unary(_logistic),
    "sinh": _unary(_sinh_cosh(-1.0)),
    "cosh": _unary(_sinh_cosh(1.0)),
    "square": lambda s, elem, args, op: cmul(s, elem, args[0], args[0]),
    "asin": _unary(_asin), "acos": _unary(_acos), "atan": _unary(_atan),
    "asinh": _unary(_asinh), "acosh": _unary(_acosh), "atanh": _unary(_atanh),
}


assert chlo.SCALAR_RULES  # defined before its ops get their complex rules
for _name, _rule in COMPLEX_RULES.items():
    registry.lookup(_name).complex_scalar = _rule
for _name in ("convert", "select"):  # their real rules take complex values as they are
    registry.lookup(_name).complex_scalar = registry.lookup(_name).scalar

# ----------------------------------------------------------------------------- bitcast_convert


def _check_bitcast(op):
    """Complex to complex only (the spec's C2; StableHLO's verifier and XLA refuse the rest)."""
    src, dst = op.operands[0].type.elem, op.results[0].type.elem
    if is_complex(src) != is_complex(dst):
        raise op.error(f"bitcast_convert {src} to {dst}: cannot convert between real and complex "
                       "types (a complex value bitcasts only to a complex type)")


def _bitcast_pieces_at(e, op, idx):
    """complex<f64> <-> two complex<f32> along a last dim of 2, little-endian as in memory:
    piece 0 is the real part's bits (its low word the piece's real part), piece 1 the
    imaginary part's. (The spec allows it; XLA refuses it.)"""
    s, src = Scalars(e.b), op.operands[0].type.elem
    k32, k64 = C(s, "complex<f32>"), C(s, "complex<f64>")
    if src == "complex<f64>":
        re, im = k64.parts(e.at(op.operands[0], list(idx[:-1])))
        bits = s.v("arith.bitcast", [s.select(Ix(e.b).cmp("eq", idx[-1], 0), re, im, "f64")], "i64")
        words = [s.v("arith.trunci", [w], "i32")
                 for w in (bits, s.v("arith.shrui", [bits, s.const(32, "i64")], "i64"))]
        return k32.make(*(s.v("arith.bitcast", [w], "f32") for w in words))
    parts = []
    for j in (0, 1):
        lo, hi = (s.v("arith.extui", [s.v("arith.bitcast", [p], "i32")], "i64")
                  for p in k32.parts(e.at(op.operands[0], list(idx) + [e.b.index(j)])))
        word = s.v("arith.ori", [lo, s.v("arith.shli", [hi, s.const(32, "i64")], "i64")], "i64")
        parts.append(s.v("arith.bitcast", [word], "f64"))
    return k64.make(*parts)


registry.lookup("bitcast_convert").check = _check_bitcast
registry.override("bitcast_convert", "elemental", _bitcast_pieces_at,
                  when=lambda target, op: op.operands[0].type.elem != op.results[0].type.elem
                  and is_complex(op.results[0].type.elem))

# ----------------------------------------------------------------------------- complex, real, imag


def _infer_complex(op):
    re, im = (v.type for v in op.operands)
    if re.shape != im.shape or re.elem != im.elem:
        raise ShapeError(f"complex needs parts of one type, got {re} and {im}")
    if re.elem not in ("f32", "f64"):
        raise ShapeError(f"complex needs f32 or f64 parts, got {re}")
    return [TensorType(re.shape, f"complex<{re.elem}>")]


def _infer_part(op):
    t = op.operands[0].type
    if is_complex(t.elem):
        return [TensorType(t.shape, component(t.elem))]
    if not is_float(t.elem):
        raise ShapeError(f"needs a complex or floating-point operand, got {t}")
    return [t]


def _complex(s, elem, args, op):
    return s.v("complex.create", list(args), f"complex<{elem}>")


def _part(which):
    def rule(s, elem, args, op):
        if not is_complex(elem):  # of a real number: itself, or 0
            return args[0] if which == "re" else s.const(0.0, elem)
        return s.v(f"complex.{which}", args, component(elem))
    return rule


define_elementwise("complex", 2, _complex, infer=_infer_complex)
define_elementwise("real", 1, _part("re"), infer=_infer_part, complex_scalar=_part("re"))
define_elementwise("imag", 1, _part("im"), infer=_infer_part, complex_scalar=_part("im"))

# The ops that take complex element types: the rules above, conversions and select, the
# data-movement ops (they move whole elements), dot, convolution, reduce, reduce_window,
# select_and_scatter, scatter and sort (their scalar arithmetic is these rules; the CPU's
# packed matmul and im2col stay real), get_dimension_size (it reads only the shape).
COMPLEX_OPS = (
    *COMPLEX_RULES, "complex", "real", "imag", "convert", "select", "select_and_scatter",
    "constant", "broadcast_in_dim", "dynamic_broadcast_in_dim", "reshape", "dynamic_reshape",
    "transpose", "slice", "dhlo.slice", "real_dynamic_slice", "dynamic_slice",
    "dynamic_update_slice", "concatenate", "pad", "dynamic_pad", "reverse", "gather",
    "dynamic_gather", "iota", "dynamic_iota", "dot", "dot_general", "reduce", "reduce_window",
    "scatter", "sort", "get_dimension_size", "convolution",
)
registry.accept_complex(*COMPLEX_OPS)
