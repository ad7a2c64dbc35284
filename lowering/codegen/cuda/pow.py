"""Device pow (`math.powf`, what stablehlo.power on floats becomes): inline and branch-free.

The GPU has no libm. pow(x, y) is split in two: the magnitude |x|^y = exp(y log|x|), which
gives 0, inf and NaN by itself wherever C's powf does for |x| (log(0) = -inf, log(inf) = inf,
exp's clamp, NaN through everything), and the C99 special cases picked per lane by selects,
in the op's own type:

- y = +-0 or x = 1: 1, even for a NaN operand; x = -1 with y = +-inf: 1.
- x < 0 (-0 and -inf included, by the sign bit) with y an odd integer: -|x|^y, so -0 and
  -inf give -0 and -inf there; finite x < 0 with a finite non-integer y: NaN.
- y an integer: floor(y) = y (infinities count as even integers); odd: floor(y/2) != y/2.

f32: log and exp are fastmath's f64 polynomials (|x| as f64 is always normal), the f64 result
rounded once to f32: its relative error (< 2^-44: log's and exp's ulp, and y*log|x|'s
rounding for |y log|x|| < 104) is far below an f32 ulp, so the f32 result is the correctly
rounded one but where the exact value is within ~2^-20 ulp of a tie, and overflow and
underflow (subnormal results rounded once, from a normal f64) are where the correctly rounded
result has them. f16/bf16 reach the device as f32 pow (the op rules promote them) and are
rounded once more.

f64: fdlibm's e_pow.c (FreeBSD msun) with its ifs turned into selects: log2|x| = t1 + t2 in
extra precision (|x| = 2^n m, ss = (m - bp)/(m + bp) with bp = 1 or 1.5 in two parts, a
polynomial in ss^2, the pieces' high halves with their low 32 bits cleared so that their
products are exact: no FMA is needed), y*log2|x| = z as p_h + p_l (y and t1 split likewise),
overflow/underflow decided on z (fdlibm's exact thresholds), then 2^z = 2^n 2^(z - n) with
n = rint(z) and exp's rational approximation, scaled by 2^n in two exact steps (one rounding
into the subnormals). For |y| > 2^31 and |x| within 2^-20 of 1, log2|x| comes from log's
series instead, with x - 1 split as well: fdlibm's ivln2_h*(x - 1) is not exact there, which
y turns into hundreds of ulps. |x| = 0 or inf and y = +-inf give 0 or inf from the signs.

Errors, in ulps of the exact result, on the emulated grid against float64 (f32) and x86 long
double (f64) references, 10^7 samples each (tests/codegen/test_device_pow.py's inputs: random
bit patterns, plain ranges, results over the whole exponent range, bases near 1 with huge
exponents, subnormal bases, negative bases with integer exponents, tiny exponents): f32 0.5
(0.500000006: ties), f64 0.855. See MAX_ULP.

Without FMA contraction (the PTX uses .rn arithmetic, which ptxas does not fuse), the bounds
hold on the device.
"""
from __future__ import annotations

from lowering.codegen.llvm.fastmath import Ops, _scale, exp, log

# Largest error in ulps of the result, per computed type (measured maxima, 10^7 samples each:
# f32 0.500000006, f64 0.855)
MAX_ULP = {"f32": 0.5001, "f64": 1.0}

def _floor(f: Ops, a):
    return f._v("math.floor", [a], f.e)


def _and(f: Ops, p, q):
    return f._v("arith.andi", [p, q], "i1")


def _abs_pow_f32(f: Ops, a, y):
    """|x|^y for a = |x| >= 0 (or NaN): exp(y log a) in f64, rounded once to f32."""
    d = Ops(f.s, "f64")
    a64, y64 = (f.s.v("arith.extf", [v], "f64") for v in (a, y))
    return f.s.v("arith.truncf", [exp(d, d.mul(y64, log(d, a64)))], "f32")


# fdlibm's e_pow.c constants: log2(x) = n + dp_h + 2/(3 ln2) * ss*(3 + ss^2 + ...) with
# ss = (x - bp)/(x + bp), bp = 1 or 1.5 (dp_h + dp_l = log2(bp)); 2^z by exp's polynomial
_D = dict(
    dp_h=0.5849624872207642, dp_l=1.350039202129749e-08,
    log_l=(0.5999999999999946, 0.4285714285785502, 0.33333332981837743, 0.272728123808534,
           0.23066074577556175, 0.20697501780033842),
    exp_p=(0.16666666666666602, -0.0027777777777015593, 6.613756321437934e-05,
           -1.6533902205465252e-06, 4.1381367970572385e-08),
    lg2=0.6931471805599453, lg2_h=0.6931471824645996, lg2_l=-1.904654299957768e-09,
    cp=0.9617966939259756, cp_h=0.9617967009544373, cp_l=-7.028461650952758e-09,  # 2/(3 ln2)
    ivln2=1.4426950408889634, ivln2_h=1.4426950216293335, ivln2_l=1.9259629911266175e-08,
    ovt=8.008566259537294e-17,  # -(1024 - log2(DBL_MAX + ulp/2))
)


def _low_cleared(f: Ops, v):
    """v with its low 32 bits cleared (fdlibm's SET_LOW_WORD(v, 0)): 21 significant bits."""
    return f.flt(f.iand(f.bits(v), f.ci(-(1 << 32))))


def _high_word(f: Ops, hi):
    return f.flt(f.shl(hi, 32))


def _log2_parts(f: Ops, a):
    """log2(a) = t1 + t2 in extra precision, t1 with 21 significant bits (fdlibm), a > 0 finite."""
    c = f.c
    sub = f.cmp("olt", a, c(2.2250738585072014e-308))
    a = f.sel(sub, f.mul(a, c(2.0 ** 53)), a)
    hx = f.shr(f.bits(a), 32)
    n = f.iadd(f.isub(f.shr(hx, 20), f.ci(0x3FF)), f.seli(sub, f.ci(-53), f.ci(0)))
    j = f.iand(hx, f.ci(0xFFFFF))
    k1 = _and(f, f.icmp("sgt", j, f.ci(0x3988E)), f.icmp("slt", j, f.ci(0xBB67A)))  # bp = 1.5
    up = f.icmp("sge", j, f.ci(0xBB67A))  # past sqrt(3): a/2 against 1
    ix = f.isub(f.iadd(j, f.ci(0x3FF00000)), f.seli(up, f.ci(0x100000), f.ci(0)))
    n = f.iadd(n, f.seli(up, f.ci(1), f.ci(0)))
    ax = f.flt(f.iadd(f.shl(ix, 32), f.iand(f.bits(a), f.ci(0xFFFFFFFF))))
    bp = f.sel(k1, c(1.5), c(1.0))
    u = f.sub(ax, bp)
    v = f.div(c(1.0), f.add(ax, bp))
    ss = f.mul(u, v)
    s_h = _low_cleared(f, ss)
    t_h = _high_word(f, f.iadd(f.iadd(f.shr(ix, 1), f.ci(0x20080000)),
                               f.seli(k1, f.ci(1 << 18), f.ci(0))))  # ax + bp, high part
    t_l = f.sub(ax, f.sub(t_h, bp))
    s_l = f.mul(v, f.sub(f.sub(u, f.mul(s_h, t_h)), f.mul(s_h, t_l)))
    s2 = f.mul(ss, ss)
    r = f.add(f.mul(f.mul(s2, s2), f.horner(_D["log_l"], s2)), f.mul(s_l, f.add(s_h, ss)))
    s2 = f.mul(s_h, s_h)
    t_h = _low_cleared(f, f.add(f.add(c(3.0), s2), r))
    t_l = f.sub(r, f.sub(f.sub(t_h, c(3.0)), s2))
    u = f.mul(s_h, t_h)
    v = f.add(f.mul(s_l, t_h), f.mul(t_l, ss))
    p_h = _low_cleared(f, f.add(u, v))
    p_l = f.sub(v, f.sub(p_h, u))
    z_h = f.mul(c(_D["cp_h"]), p_h)
    z_l = f.add(f.add(f.mul(c(_D["cp_l"]), p_h), f.mul(p_l, c(_D["cp"]))),
                f.sel(k1, c(_D["dp_l"]), c(0.0)))
    dp_h = f.sel(k1, c(_D["dp_h"]), c(0.0))
    t = f.to_float(n)
    t1 = _low_cleared(f, f.add(f.add(f.add(z_h, z_l), dp_h), t))
    t2 = f.sub(z_l, f.sub(f.sub(f.sub(t1, t), dp_h), z_h))
    return t1, t2


def _log2_near_one(f: Ops, a):
    """log2(a) = t1 + t2 for |a - 1| <= 2^-20 by log's series (fdlibm, for |y| > 2^31). t = a - 1
    may have 32 significant bits, so it is split too, to keep ivln2_h*t exact (fdlibm's is not:
    ~2^-53 relative, which y up to 2^64 turns into hundreds of ulps)."""
    c = f.c
    t = f.sub(a, c(1.0))
    t_h = _low_cleared(f, t)
    w = f.mul(f.mul(t, t), f.sub(c(0.5), f.mul(t, f.sub(c(0.3333333333333333), f.mul(t, c(0.25))))))
    u = f.mul(c(_D["ivln2_h"]), t_h)
    v = f.sub(f.add(f.mul(f.sub(t, t_h), c(_D["ivln2_h"])), f.mul(t, c(_D["ivln2_l"]))),
              f.mul(w, c(_D["ivln2"])))
    t1 = _low_cleared(f, f.add(u, v))
    return t1, f.sub(v, f.sub(t1, u))


def _abs_pow_f64(f: Ops, a, y):
    """|x|^y for a = |x| (fdlibm's e_pow.c, branch-free): 2^(y log2 a) with log2 a and the
    product in extra precision, the product's integer part n split off and 2^(z - n) by exp's
    polynomial, scaled by 2^n once. a = 0 or inf and y = +-inf: 0 or inf from the signs."""
    c, inf = f.c, f.c(float("inf"))
    t1, t2 = _log2_parts(f, a)
    n1, n2 = _log2_near_one(f, a)
    near = _and(f, _and(f, f.cmp("oge", f.abs(y), f.flt(f.ci(0x41E0000100000000))),
                        f.cmp("oge", a, f.flt(f.ci(0x3FEFFFFF00000000)))),
                f.cmp("ole", a, f.flt(f.ci(0x3FF00000FFFFFFFF))))
    t1, t2 = f.sel(near, n1, t1), f.sel(near, n2, t2)
    y1 = _low_cleared(f, y)
    p_l = f.add(f.mul(f.sub(y, y1), t1), f.mul(y, t2))
    p_h = f.mul(y1, t1)  # exact: 21 bits by 21
    z = f.add(p_l, p_h)
    over = f.ori(f.cmp("ogt", z, c(1024.0)),
                 _and(f, f.cmp("oeq", z, c(1024.0)),
                      f.cmp("ogt", f.add(p_l, c(_D["ovt"])), f.sub(z, p_h))))
    under = f.ori(f.cmp("olt", z, c(-1075.0)),
                  _and(f, f.cmp("oeq", z, c(-1075.0)), f.cmp("ole", p_l, f.sub(z, p_h))))
    rz = f.add(z, c(f.k.magic))  # z rounded to an integer n: 2^z = 2^n 2^(z - n)
    n = f.isub(f.bits(rz), f.ci(f.k.magic_bits))
    p_h = f.sub(p_h, f.sub(rz, c(f.k.magic)))  # exact
    t = _low_cleared(f, f.add(p_l, p_h))
    u = f.mul(t, c(_D["lg2_h"]))
    v = f.add(f.mul(f.sub(p_l, f.sub(t, p_h)), c(_D["lg2"])), f.mul(t, c(_D["lg2_l"])))
    z = f.add(u, v)
    w = f.sub(v, f.sub(z, u))
    t = f.mul(z, z)
    t1 = f.sub(z, f.mul(t, f.horner(_D["exp_p"], t)))
    r = f.sub(f.div(f.mul(z, t1), f.sub(t1, c(2.0))), f.add(w, f.mul(z, w)))
    res = _scale(f, f.sub(c(1.0), f.sub(r, z)), n)
    res = f.sel(over, inf, f.sel(under, c(0.0), res))
    # a = 0 or inf, or y = +-inf: inf where log a and y have the same sign, else 0
    limit = f.ori(f.ori(f.cmp("oeq", a, c(0.0)), f.cmp("oeq", a, inf)), f.cmp("oeq", f.abs(y), inf))
    grows = f._v("arith.xori", [f.cmp("olt", a, c(1.0)), f.cmp("ogt", y, c(0.0))], "i1")
    res = f.sel(limit, f.sel(grows, inf, c(0.0)), res)
    return f.sel(f.ori(f.cmp("une", a, a), f.cmp("une", y, y)), f.add(a, y), res)  # NaN


ABS_POW = {"f32": _abs_pow_f32, "f64": _abs_pow_f64}


def pow_(f: Ops, x, y):
    """C99's pow(x, y): |x|^y, then its sign and the special cases, the later ones winning."""
    one, zero, inf = f.c(1.0), f.c(0.0), f.c(float("inf"))
    ay = f.abs(y)
    r = ABS_POW[f.e](f, f.abs(x), y)
    half = f.mul(y, f.c(0.5))
    odd = _and(f, f.cmp("oeq", _floor(f, y), y), f.cmp("one", _floor(f, half), half))
    negative = f.icmp("slt", f.bits(x), f.ci(0))  # -0 and -inf too
    r = f.sel(_and(f, negative, odd), f.copysign(r, x), r)
    finite_neg = _and(f, f.cmp("olt", x, zero), f.cmp("one", x, f.c(float("-inf"))))
    non_int = _and(f, f.cmp("une", _floor(f, y), y), f.cmp("olt", ay, inf))
    r = f.sel(_and(f, finite_neg, non_int), f.c(float("nan")), r)
    minus_one_inf = _and(f, f.cmp("oeq", x, f.c(-1.0)), f.cmp("oeq", ay, inf))
    is_one = f.ori(f.ori(f.cmp("oeq", x, one), f.cmp("oeq", y, zero)), minus_one_inf)
    return f.sel(is_one, one, r)


def cbrt(f: Ops, x):
    """The cube root (`math.cbrt`, what stablehlo.cbrt becomes), odd: copysign(|x|^(1/3), x).

    |x|^(1/3) = exp(log|x| / 3) in f64 (f32 widened: its subnormals are normal there), then
    for f64 one Newton step y - (y - |x|/y^2)/3, which takes exp's error (up to ~120 ulps:
    log|x|/3 is rounded at up to 236 in magnitude) down to the rounding of the step itself;
    f32 rounds the f64 value once. 0, inf and NaN come out of log and exp as they are (the
    Newton step would make them NaN, so they skip it). Measured on the emulated grid against
    numpy's cbrt (tests/codegen/test_device_cbrt.py): see CBRT_MAX_ULP."""
    d = Ops(f.s, "f64")
    a = f.abs(x) if f.e == "f64" else f.s.v("arith.extf", [f.abs(x)], "f64")
    y = exp(d, d.div(log(d, a), d.c(3.0)))
    if f.e == "f64":
        step = d.sub(y, d.div(d.sub(y, d.div(a, d.mul(y, y))), d.c(3.0)))
        plain = d.ori(d.cmp("oeq", y, d.c(0.0)), d.cmp("uge", y, d.c(float("inf"))))  # 0, inf, NaN
        y = d.sel(plain, y, step)
    else:
        y = f.s.v("arith.truncf", [y], f.e)
    return f.copysign(y, x)


# Largest error of cbrt in ulps of the exact result, per computed type (measured over 5 * 10^6
# samples each of random bit patterns, subnormals, plain ranges and cubes: f32 correctly
# rounded on every one, f64 0.733)
CBRT_MAX_ULP = {"f32": 0.5, "f64": 0.8}
