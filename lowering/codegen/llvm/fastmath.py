"""Vector math: exp, log, tanh, logistic, expm1, log1p, erf and erfc as inline polynomials.

`math.exp` becomes `llvm.exp.*`, which the x86 backend splits into one scalar
`expf` call per lane, and `math.tanh`/`math.expm1`/`math.log1p` (and chlo.py's
`math.erf`/`math.erfc`) are libm calls that keep the loop vectoriser from
widening the whole fused loop. The rules here spell these functions out in
loop-stage arith ops only (mul/add/div, compares and selects, bitcasts and
integer shifts), branch-free, so a fused elementwise loop that uses them is
vectorised like any other (`<8 x float>` with AVX2). f32 and f64 are computed
in their own type; f16/bf16 in f32 and rounded once, as every float op here
is; other types keep the rule they had.

Algorithms (Cody & Waite; the structure of Cephes and fdlibm/musl):

- exp: x = n*ln2 + r with n = rint(x/ln2) (the 1.5*2^p "magic number"
  rounding, which yields n's bits too), ln2 split in two so that n*ln2_hi is
  exact, exp(r) = 1 + r + r^2*P(r) on |r| <= ln2/2, then scaled by 2^n in two
  exponent-field steps 2^(n>>1) * 2^(n - (n>>1)), so results that underflow
  into the subnormals are rounded once, as a correctly rounded exp does. x is
  clamped to [lo, hi] past which the result is 0 or inf anyway; NaN passes the
  clamp and propagates. f32: P has one coefficient fewer than expm1's (degree 6
  in all: exp's 1 + r hides P's last bits, expm1's r does not), evaluated with
  fused multiply-adds, and floor(n/2) is an arithmetic shift.
- log: x = 2^k * m with m in [sqrt(1/2), sqrt(2)) by integer arithmetic on the
  bits (subnormals scaled by 2^p first), log(m) = log1p(f), f = m - 1, by
  Cephes' polynomial f - f^2/2 + f^3*P(f) (f32) or fdlibm's
  s = f/(2+f) series (f64), plus k*ln2 in two parts. log(0) = -inf,
  log(x<0) = NaN, log(inf) = inf.
- log1p: u = 1 + x decomposed as in log, plus the rounding error of u,
  c = x - (u - 1) (or 1 - (u - x) for u >= 2*sqrt(2)), as c/u (fdlibm); for
  u in [sqrt(1/2), sqrt(2)) f = x itself.
- expm1: the same reduction as exp, expm1(r) = r + r^2*P(r), then
  2^n*expm1(r) + (2^n - 1) while 2^n - 1 is exact (|n| <= p+1), else exp - 1.
- tanh: |x| < 0.625: x + x^3*P(x^2) (odd minimax polynomial); else
  1 - 2/(exp(2|x|) + 1) with x's sign, which saturates to +-1 by itself (f64).
  f32: one formula, tanh(a) = E/(E + 2), E = expm1(2a) (expm1's reduction and
  polynomial, fused multiply-adds), a = |x| clamped to 9.0109, from where tanh
  rounds to 1 (so 2^n is one normal float): no second polynomial, no select, one
  division; 2.42 ulp at most against 1.33 for the two pieces, ~12% faster in
  the benchmark. A rational minimax tanh, x*P(x^2)/Q(x^2) of degree 9/8 with one
  division and no exp, was tried too: faster still (memory speed in the
  benchmark), but its roundings of P and Q (values near 1, or up to ~10^3) reach
  the result whole: 5.4 ulp near 1 as a*P/Q, 4.9 as 1 - (Q - a*P)/Q.
- logistic: e = exp(-|x|) never overflows; 1/(1 + e) for x >= 0 and
  e/(1 + e) for x < 0, so the left tail keeps its accuracy into the
  subnormals instead of flushing to 0 where exp(-x) overflows.
- erf, erfc: |x| < 0.8125: erf(x) = x + x*P(x^2) (odd minimax polynomial), and
  erfc(x) = 1 - erf(x) for x < 1/4, 1/2 - ((x - 1/2) + x*P(x^2)) above (fdlibm's
  way to keep erfc's low bits). |x| >= 0.8125: erfc(a) = exp(-a^2) * G(a), a = |x|
  clamped to where erfc(a) rounds to 0, G(a) = exp(a^2) erfc(a) by pieces chosen
  per lane with selects (one Horner evaluation, each coefficient a select): a
  polynomial in a - c on [0.8125, 2) (f64: and [2, 3.5)), then H(u)/a with
  u = 1/a^2 (H -> 1/sqrt(pi) as a -> inf); exp(-a^2) is exp's reduction applied
  to a^2 = ah^2 + (a - ah)(a + ah), ah being a with its low half of bits
  cleared, so a^2 is never rounded (that would cost ~a^2 ulps), and G*exp(r) is
  summed as c0 + ((c0_lo + (G - c0)) + G*expm1(r)), G's constant term being
  c0 + c0_lo. erf = +-(1 - erfc(a)), erfc(-a) = 2 - erfc(a); +-inf give +-1, 0
  and 2, NaN propagates.

Polynomial coefficients for exp/expm1, tanh and erf/erfc are minimax fits for
relative error (Lawson's algorithm in long double; erf/erfc against 50-digit
references, the coefficients rounded one at a time from the lowest and the rest
refitted) on the intervals above, rounded to the target type; log's are
Cephes' (f32) and fdlibm's (f64).

Errors, measured against float64 (f32) or long double (f64; erf/erfc: 50-digit
decimal) references (tests/codegen/test_fastmath.py; f32 also exhaustively over all
2^32 inputs while writing this, erf/erfc over 3*10^6 samples): see MAX_ULP.
Specials (+-0, +-inf, NaN, overflow and underflow) are exact.
Multiply-adds: f64, log, log1p, expm1, erf and erfc are built without FMA
contraction (LLVM does not fuse fmul + fadd unless asked), and their bounds
hold on every target. f32 exp, tanh and logistic mark their polynomial steps
`contract` (Ops.fma), which LLVM fuses where the target has FMA: their f32
bounds were measured with FMA (x86-64 with FMA3, this project's machine);
without it the same ops round twice, as they all did before: built for x86-64-v2
(no FMA), 1.7*10^8 samples (random bit patterns, uniform on [-20, 20] and
[-1, 1]) gave 0.98 (exp), 2.42 (tanh), 2.40 (logistic), within the same bounds.

Guards follow the argument's range (ops/ranges.py: bounds from the ops of the fused chain
that compute it): exp of an argument within exp_unguarded (2^n a normal float) has no clamp
and scales by 2^n in one multiply, logistic of an argument of known sign uses that sign's
formula alone; exp of an argument bounded above by exp_bounded_hi (softmax's x - max(x) <= 0)
clamps only below and scales by 2^(n + s) then by the constant 2^-s (_scale_up_down). All
give the bits the guarded forms give (tests/ops/test_ranges.py), with
~8 and ~12 fewer vector ops (exp(tanh(x)), logistic(exp(x)), logistic of a relu).

codegen/mathlib.py's table holds these functions with the other decompositions, keyed by the math
op; where the Target's math library is "inline", they replace the HLO ops' scalar rules.
"""
from __future__ import annotations

from lowering.ir.core import ScalarType
from lowering.ops.ranges import FULL

HALF = ("f16", "bf16")

# Largest error in ulps of the result (the ulp of the exact value, subnormal ulp below the
# smallest normal), over each op's whole domain, per computed type. f32: the maxima of an
# exhaustive run over all 2^32 inputs are 1.011 (exp: 18 inputs above 1 ulp, since its
# shorter polynomial; 0.96 before), 0.83 (log), 2.42 (tanh, as expm1(2a)/(expm1(2a) + 2);
# 1.33 before), 2.402 (logistic), 1.40 (expm1), 0.84 (log1p); exp, tanh and logistic with FMA
# (2026-11-25, see the module docstring); with the reduction x - n*ln2 in multiply-adds too
# (2026-11-27, exhaustive again): 1.0095 (exp, 12 inputs above 1 ulp), 2.4245 (tanh), 2.4019
# (logistic).
# f64: 2*10^7 samples (random bit patterns and uniform values) gave 0.94, 0.81, 1.30, 2.43,
# 1.44, 0.82; the bounds leave a margin there.
# erf, erfc: f32 0.81, 2.31 over 3*10^6 samples (against glibc's double erf/erfc); f64
# 0.80, 1.98 over 3.5*10^4 (against 50-digit references). erfc's error is exp's plus G's
# plus the division by a: its result is within 2 ulps' bit distance of the rounded one.
MAX_ULP = {
    "f32": {"exponential": 1.05, "log": 1.0, "log_plus_one": 1.0, "exponential_minus_one": 1.5,
            "tanh": 2.5, "logistic": 2.5, "erf": 1.0, "erfc": 2.5},
    "f64": {"exponential": 1.0, "log": 1.0, "log_plus_one": 1.0, "exponential_minus_one": 2.0,
            "tanh": 2.0, "logistic": 3.0, "erf": 1.0, "erfc": 2.5},
}


class _Consts:
    def __init__(self, **kw):
        self.__dict__.update(kw)


_F32 = _Consts(
    int="i32", mant=23, bias=127, mant_mask=0x007FFFFF,
    magic=12582912.0, magic_bits=0x4B400000,  # 1.5 * 2^23: x + magic rounds x to an integer
    log2e=1.4426950408889634,
    ln2_hi=0.693359375, ln2_lo=-2.12194440e-4,  # Cephes: ln2_hi has 9 significant bits
    exp_lo=-104.0, exp_hi=89.0,  # exp(-104) < 2^-150 / 2 and exp(89) > FLT_MAX
    exp_unguarded=(-87.0, 87.0),  # |n| <= 126: 2^n is a normal float
    # expm1(r) = r + r^2 * P(r), |r| <= 0.35 (minimax, relative error of expm1)
    expm1_p=(0.5, 0.1666666567325592, 0.04166634753346443, 0.008333391509950161,
             0.0013941660290583968, 0.00019845958740916103),
    expm1_exact_n=24,  # 2^n - 1 is exact for |n| <= 24
    sqrt_half_bits=0x3F3504F3, min_normal=1.1754943508222875e-38,
    subnormal_scale=8388608.0, subnormal_k=23,  # 2^23
    # log(1+f) = f - f^2/2 + f^3 * P(f), f in [sqrt(1/2)-1, sqrt(2)-1] (Cephes logf)
    log_p=(3.3333331174e-1, -2.4999993993e-1, 2.0000714765e-1, -1.6668057665e-1,
           1.4249322787e-1, -1.2420140846e-1, 1.1676998740e-1, -1.1514610310e-1,
           7.0376836292e-2),
    log1p_c_k=25,  # the rounding error of 1 + x matters while k < 25
    # exp(r) = 1 + r + r^2 * P(r), |r| <= ln2/2 (minimax, relative error of exp): one
    # coefficient fewer than expm1's, whose result has no 1 to hide P's error behind
    exp_p=(0.4999999403953552, 0.1666652113199234, 0.04166838899254799,
           0.008368736132979393, 0.0013814490521326661),
    tanh_one=9.010913848876953,  # the smallest float whose tanh rounds to 1
    # erf(x) = x + x * P(x^2), |x| < erf_small (minimax, relative error of erf)
    erf_small=0.8125,
    erf_p=(0.12837916612625122, -0.3761260509490967, 0.11283111572265625,
           -0.02681959979236126, 0.005081495735794306, -0.0006505018682219088),
    # erfc(a) = exp(-a^2) G(a) for a >= erf_small, G = exp(a^2) erfc(a), by pieces
    # (end, c, lo, P): G = P(a - c) on a < end, the last one G = P(u)/a with u = 1/a^2
    # (minimax, relative error of G), P's constant term being P[0] + lo
    erfc_max=10.25,  # erfc(10.25) < 2^-155: rounds to 0 from here on
    erfc_pieces=(
        (2.0, 1.40625, 1.4669858217075671e-08, (0.3376225531101227, -0.17881569266319275,
                                                0.08616295456886292, -0.038432735949754715,
                                                0.016059530898928642,
                                                -0.006339699029922485,
                                                0.0023724848870187998,
                                                -0.0008546857861801982,
                                                0.0003228843561373651,
                                                -0.00010382691834820434)),
        (None, None, 1.686886896834494e-08, (0.5641895532608032, -0.2820918560028076,
                                             0.4229000508785248, -1.0475722551345825,
                                             3.4416301250457764, -12.29654312133789,
                                             39.09148025512695, -92.78373718261719,
                                             137.78404235839844, -93.5543441772461)),
    ),
    sq_mask=-(1 << 12),  # clears a's low 12 bits: the square of the rest is exact
)

_F64 = _Consts(
    int="i64", mant=52, bias=1023, mant_mask=0x000FFFFFFFFFFFFF,
    magic=6755399441055744.0, magic_bits=0x4338000000000000,  # 1.5 * 2^52
    log2e=1.4426950408889634,
    ln2_hi=6.93147180369123816490e-01, ln2_lo=1.90821492927058770002e-10,  # fdlibm
    exp_lo=-746.0, exp_hi=710.0,
    exp_unguarded=(-707.0, 707.0),  # |n| <= 1020
    expm1_p=(0.5, 0.16666666666666677, 0.04166666666666646, 0.00833333333332089,
             0.0013888888888976911, 0.00019841269888401218, 2.480158715533498e-05,
             2.75572415878272e-06, 2.7557409728593446e-07, 2.5110051634642567e-08,
             2.0875134967108543e-09),
    expm1_exact_n=53,
    sqrt_half_bits=0x3FE6A09E667F3BCD, min_normal=2.2250738585072014e-308,
    subnormal_scale=4503599627370496.0, subnormal_k=52,  # 2^52
    # fdlibm's log: log(1+f) = 2s + s*R(s^2), s = f/(2+f)
    log_lg=(6.666666666666735130e-01, 3.999999999940941908e-01, 2.857142874366239149e-01,
            2.222219843214978396e-01, 1.818357216161805012e-01, 1.531383769920937332e-01,
            1.479819860511658591e-01),
    log1p_c_k=54,
    tanh_small=0.625,
    tanh_p=(-0.33333333333332854, 0.13333333333262115, -0.053968253931273406,
            0.02186948757613446, -0.008863221002341992, 0.003591989166892441,
            -0.0014549588252622291, 0.00058631632530968, -0.00022856371022734475,
            7.71437379708547e-05, -1.6072239271908643e-05),
    erf_small=0.8125,
    erf_p=(0.12837916709551256, -0.37612638903183315, 0.11283791670933811,
           -0.026866170640833253, 0.005223977579300183, -0.0008548324058672744,
           0.00012055211922081248, -1.4922424674977344e-05, 1.6406040796038044e-06,
           -1.5748937151729367e-07, 1.083877235359514e-08),
    erfc_max=28.0,  # erfc(28) < 2^-1136
    erfc_pieces=(
        (2.0, 1.40625, -2.222614453595284e-17, (0.33762256742895974, -0.17881569620156337,
                                                0.0861629946455109, -0.03843265665420863,
                                                0.016058535612791996,
                                                -0.006340136379502636,
                                                0.002380906275535902,
                                                -0.0008548534081205747,
                                                0.00029469218030096854,
                                                -9.78761221135966e-05,
                                                3.141066951076979e-05,
                                                -9.764483880771968e-06,
                                                2.9470879570189455e-06,
                                                -8.648274352841562e-07,
                                                2.4577073679945996e-07,
                                                -6.866792981758134e-08,
                                                2.095703589441138e-08,
                                                -5.496202681921202e-09)),
        (3.5, 2.75, -1.1844908734404136e-17, (0.1936620962790687, -0.06323763756063484,
                                              0.01975859298732283, -0.005934337896997912,
                                              0.0017195818852910457,
                                              -0.00048219508498199474,
                                              0.00013118180049425692,
                                              -3.469860956873726e-05,
                                              8.940156396230587e-06,
                                              -2.247373498266776e-06,
                                              5.519739703672407e-07,
                                              -1.3262511160810858e-07,
                                              3.121501829693242e-08,
                                              -7.201011098619621e-09,
                                              1.619765146701745e-09,
                                              -3.604374833704833e-10,
                                              8.875613645790058e-11,
                                              -1.892029228840593e-11)),
        (None, None, -1.962405932198763e-17, (0.564189583547756, -0.28209479177331714,
                                              0.4231421873351082, -1.0578553726486746,
                                              3.7024772576458607, -16.659320323941692,
                                              91.49039793180344, -587.6635623620464,
                                              4150.8598812134005, -28657.366190281577,
                                              154107.19022203816, -262749.260599059,
                                              -4707991.14138246, 40108437.586683415,
                                              40060501.56688935, -2484992502.607215,
                                              15315292211.089575, -32592225332.69253)),
    ),
    sq_mask=-(1 << 27),
)

CONSTS = {"f32": _F32, "f64": _F64}


class Ops:
    """Scalar arith ops of one float type (and its same-width integer) through Scalars."""

    def __init__(self, s, elem):
        self.s, self.e = s, elem
        self.k = CONSTS[elem]
        self.i = self.k.int

    def _v(self, name, args, t, **attrs):
        return self.s.b.v(name, list(args), ScalarType(t), **attrs)

    # floats
    def c(self, value):
        return self.s.const(value, self.e)

    def add(self, a, b):
        return self._v("arith.addf", [a, b], self.e)

    def sub(self, a, b):
        return self._v("arith.subf", [a, b], self.e)

    def mul(self, a, b):
        return self._v("arith.mulf", [a, b], self.e)

    def div(self, a, b):
        return self._v("arith.divf", [a, b], self.e)

    def abs(self, a):
        return self._v("math.absf", [a], self.e)

    def copysign(self, a, b):
        return self._v("math.copysign", [a, b], self.e)

    def cmp(self, pred, a, b):
        return self._v("arith.cmpf", [a, b], "i1", predicate=pred)

    def sel(self, p, a, b):
        return self._v("arith.select", [p, a, b], self.e)

    def fma(self, a, b, c):
        """a*b + c, fused where the target has FMA: the mul and add carry LLVM's `contract`
        flag, which lets the backend fuse them (and only then: without FMA they stay two
        rounded ops)."""
        return self._v("arith.addf", [self._v("arith.mulf", [a, b], self.e, fastmath="contract"),
                                      c], self.e, fastmath="contract")

    def horner(self, coeffs, x, fused=False):
        """coeffs[0] + x*(coeffs[1] + x*(...)), lowest degree first (with fma steps if
        `fused`)."""
        acc = self.c(coeffs[-1])
        for a in reversed(coeffs[:-1]):
            acc = self.fma(acc, x, self.c(a)) if fused else self.add(self.mul(acc, x), self.c(a))
        return acc

    # integers of the same width
    def ci(self, value):
        return self.s.const(value, self.i)

    def bits(self, x):
        return self._v("arith.bitcast", [x], self.i)

    def flt(self, n):
        return self._v("arith.bitcast", [n], self.e)

    def iadd(self, a, b):
        return self._v("arith.addi", [a, b], self.i)

    def isub(self, a, b):
        return self._v("arith.subi", [a, b], self.i)

    def iand(self, a, b):
        return self._v("arith.andi", [a, b], self.i)

    def shl(self, a, n):
        return self._v("arith.shli", [a, self.ci(n)], self.i)

    def shr(self, a, n):
        """Logical shift (AVX2 has no 64-bit arithmetic one)."""
        return self._v("arith.shrui", [a, self.ci(n)], self.i)

    def icmp(self, pred, a, b):
        return self._v("arith.cmpi", [a, b], "i1", predicate=pred)

    def seli(self, p, a, b):
        return self._v("arith.select", [p, a, b], self.i)

    def ori(self, a, b):
        return self._v("arith.ori", [a, b], "i1")

    def to_float(self, n):
        """A small integer (|n| < 2^(p-1)) to float through the magic number: exact, and a
        vector add rather than an i64 -> f64 conversion AVX2 lacks."""
        return self.sub(self.flt(self.iadd(n, self.ci(self.k.magic_bits))), self.c(self.k.magic))


# ----------------------------------------------------------------------------- building blocks


def _clamp(f: Ops, x, lo, hi):
    """x limited to [lo, hi]; NaN stays NaN (both compares are false)."""
    x = f.sel(f.cmp("ogt", x, f.c(hi)), f.c(hi), x)
    return f.sel(f.cmp("olt", x, f.c(lo)), f.c(lo), x)


def _reduce(f: Ops, x, fused=False):
    """(n, r) with x = n*ln2 + r, n = rint(x*log2(e)) as an integer, |r| <~ ln2/2. `fused`:
    three multiply-adds (n from the exact product, r - n*ln2_lo rounded once)."""
    k = f.k
    if fused:
        t = f.fma(x, f.c(k.log2e), f.c(k.magic))
        nf = f.sub(t, f.c(k.magic))
        r = f.fma(nf, f.c(-k.ln2_hi), x)  # exact, as below
        return f.isub(f.bits(t), f.ci(k.magic_bits)), f.fma(nf, f.c(-k.ln2_lo), r)
    t = f.add(f.mul(x, f.c(k.log2e)), f.c(k.magic))
    n = f.isub(f.bits(t), f.ci(k.magic_bits))
    nf = f.sub(t, f.c(k.magic))
    r = f.sub(x, f.mul(nf, f.c(k.ln2_hi)))  # exact: n*ln2_hi is exact, and close to x
    r = f.sub(r, f.mul(nf, f.c(k.ln2_lo)))
    return n, r


def _expm1_r(f: Ops, r):
    """expm1(r) for the reduced argument."""
    return f.add(f.mul(f.mul(r, r), f.horner(f.k.expm1_p, r)), r)


def _pow2(f: Ops, n):
    """2^n for n in the normal exponent range."""
    return f.flt(f.shl(f.iadd(n, f.ci(f.k.bias)), f.k.mant))


def _scale(f: Ops, p, n):
    """p * 2^n in two exact steps, so only the last multiply rounds (into subnormals)."""
    if f.i == "i32":  # floor(n / 2): an arithmetic shift (AVX2 has it for 32-bit lanes)
        n1 = f._v("arith.shrsi", [n, f.ci(1)], f.i)
    else:
        off = 4096  # n + 2*off >= 0 for every n here (|n| < 1100), for the logical shift
        n1 = f.isub(f.shr(f.iadd(n, f.ci(2 * off)), 1), f.ci(off))
    n2 = f.isub(n, n1)
    return f.mul(f.mul(p, _pow2(f, n1)), _pow2(f, n2))


def exp(f: Ops, x, rng=FULL):
    """exp(x); `rng` bounds x (NaN aside, ops/ranges.py): within exp_unguarded, 2^n is a
    normal float, so x needs no clamp and one multiply by it rounds as the two steps do
    (the same result, ~8 ops fewer); NaN still propagates through the multiply."""
    k = f.k
    unguarded = k.exp_unguarded[0] <= rng[0] and rng[1] <= k.exp_unguarded[1]
    bounded_above = rng[1] <= _exp_bounded_hi(k)
    fused = hasattr(k, "exp_p")  # f32: the shorter polynomial, fused multiply-adds
    if unguarded:
        clamped = x
    elif bounded_above:  # NaN passes the compare, as in _clamp
        clamped = f.sel(f.cmp("olt", x, f.c(k.exp_lo)), f.c(k.exp_lo), x)
    else:
        clamped = _clamp(f, x, k.exp_lo, k.exp_hi)
    n, r = _reduce(f, clamped, fused)
    if fused:
        p = f.fma(f.mul(r, r), f.horner(k.exp_p, r, fused=True), r)
    else:
        p = _expm1_r(f, r)
    if unguarded:
        return f.mul(f.add(p, f.c(1.0)), _pow2(f, n))
    if bounded_above:
        return _scale_up_down(f, f.add(p, f.c(1.0)), n)
    return _scale(f, f.add(p, f.c(1.0)), n)


def _exp_pre_scale(k):
    """Bits of the up-and-down scaling of exp's results below exp_bounded_hi: n + mant + 3
    >= 2 - bias for every n of an argument >= exp_lo, so p * 2^(n + that) (p >= 1/sqrt(2))
    is a normal float."""
    return k.mant + 3


def _exp_bounded_hi(k):
    """Arguments up to here (so n + _exp_pre_scale <= bias - 1) take _scale_up_down."""
    return float(int((k.bias - _exp_pre_scale(k) - 1) * 0.6931471805599453))


def _scale_up_down(f: Ops, p, n):
    """p * 2^n for n from exp_lo up to exp_bounded_hi (softmax's x - max(x) <= 0): p *
    2^(n + s) is exact and normal, and the multiply by the constant 2^-s is the one rounding
    (into the subnormals), as _scale's second step is: the same bits in 4 ops, not 8."""
    s = _exp_pre_scale(f.k)
    return f.mul(f.mul(p, _pow2(f, f.iadd(n, f.ci(s)))), f.c(2.0 ** -s))


def expm1(f: Ops, x):
    k = f.k
    n, r = _reduce(f, _clamp(f, x, k.exp_lo, k.exp_hi))
    r2p = f.mul(f.mul(r, r), f.horner(k.expm1_p, r))
    p = f.add(r2p, r)  # expm1(r)
    one = f.c(1.0)
    t = _pow2(f, n)  # garbage where |n| is large: only used where it is not
    # 2^n * (r + r^2 P) + (2^n - 1), summed as ((2^n - 1) + 2^n r) + 2^n r^2 P: the first
    # sum is exact where it cancels (n = 1, r < 0), so p's rounding is not doubled there
    near = f.add(f.add(f.sub(t, one), f.mul(t, r)), f.mul(t, r2p))
    far = f.sub(_scale(f, f.add(p, one), n), one)
    lim = k.expm1_exact_n
    use_far = f.ori(f.icmp("sgt", n, f.ci(lim)), f.icmp("slt", n, f.ci(-lim)))
    y = f.sel(use_far, far, near)
    return f.sel(f.cmp("oeq", x, f.c(0.0)), x, y)  # keeps -0


def _log1p_f(f: Ops, fm, kf, c=None):
    """log(1 + fm) + kf*ln2 (+ c, a small correction), fm in [sqrt(1/2)-1, sqrt(2)-1]."""
    k = f.k
    if f.e == "f32":  # Cephes: f - f^2/2 + f^3 P(f)
        z = f.mul(fm, fm)
        y = f.mul(f.mul(fm, z), f.horner(k.log_p, fm))
        y = f.add(y, f.mul(kf, f.c(k.ln2_lo)))
        if c is not None:
            y = f.add(y, c)
        y = f.sub(y, f.mul(f.c(0.5), z))
        return f.add(f.add(fm, y), f.mul(kf, f.c(k.ln2_hi)))
    # fdlibm: k*ln2_hi - ((hfsq - (s*(hfsq + R) + (k*ln2_lo + c))) - f)
    lg = k.log_lg
    s = f.div(fm, f.add(f.c(2.0), fm))
    z = f.mul(s, s)
    w = f.mul(z, z)
    t1 = f.mul(w, f.horner(lg[1::2], w))
    t2 = f.mul(z, f.horner(lg[0::2], w))
    big_r = f.add(t2, t1)
    hfsq = f.mul(f.mul(f.c(0.5), fm), fm)
    lo = f.mul(kf, f.c(k.ln2_lo))
    if c is not None:
        lo = f.add(lo, c)
    inner = f.sub(f.sub(hfsq, f.add(f.mul(s, f.add(hfsq, big_r)), lo)), fm)
    return f.sub(f.mul(kf, f.c(k.ln2_hi)), inner)


def _split(f: Ops, x):
    """(k, m): x = 2^k * m with m in [sqrt(1/2), sqrt(2)), x positive and normal."""
    k = f.k
    ix = f.isub(f.bits(x), f.ci(k.sqrt_half_bits))
    off = 1 << (int(k.int[1:]) - 2 - k.mant)
    # ix >> mant, arithmetically, through a logical shift of ix + off*2^mant (which is
    # non-negative as an unsigned number for every positive x, inf included)
    e = f.isub(f.shr(f.iadd(ix, f.ci(off << k.mant)), k.mant), f.ci(off))
    m = f.flt(f.iadd(f.iand(ix, f.ci(k.mant_mask)), f.ci(k.sqrt_half_bits)))
    return e, m


def log(f: Ops, x):
    k = f.k
    tiny = f.cmp("olt", x, f.c(k.min_normal))
    xs = f.sel(tiny, f.mul(x, f.c(k.subnormal_scale)), x)
    e, m = _split(f, xs)
    e = f.isub(e, f.seli(tiny, f.ci(k.subnormal_k), f.ci(0)))
    y = _log1p_f(f, f.sub(m, f.c(1.0)), f.to_float(e))
    inf = f.c(float("inf"))
    y = f.sel(f.cmp("oeq", x, inf), inf, y)
    y = f.sel(f.cmp("oeq", x, f.c(0.0)), f.c(float("-inf")), y)
    return f.sel(f.cmp("ult", x, f.c(0.0)), f.c(float("nan")), y)  # x < 0 or NaN


def log1p(f: Ops, x):
    k = f.k
    one = f.c(1.0)
    u = f.add(one, x)
    e, m = _split(f, u)
    k0 = f.icmp("eq", e, f.ci(0))
    # the rounding error of u: exact differences (Sterbenz) on either side of u = 2*sqrt(2)
    c = f.sel(f.icmp("sge", e, f.ci(2)), f.sub(one, f.sub(u, x)), f.sub(x, f.sub(u, one)))
    c = f.div(c, u)
    zero = f.c(0.0)
    c = f.sel(f.ori(k0, f.icmp("sge", e, f.ci(k.log1p_c_k))), zero, c)
    fm = f.sel(k0, x, f.sub(m, one))
    y = _log1p_f(f, fm, f.to_float(e), c)
    inf = f.c(float("inf"))
    y = f.sel(f.cmp("oeq", x, inf), inf, y)
    y = f.sel(f.cmp("oeq", x, f.c(-1.0)), f.c(float("-inf")), y)
    y = f.sel(f.cmp("ult", x, f.c(-1.0)), f.c(float("nan")), y)  # x < -1 or NaN
    return f.sel(f.cmp("oeq", x, zero), x, y)  # keeps -0


def tanh(f: Ops, x):
    k = f.k
    if hasattr(k, "tanh_one"):
        return _tanh_fused(f, x)
    a = f.abs(x)
    z = f.mul(x, x)
    small = f.add(f.mul(f.mul(x, z), f.horner(k.tanh_p, z)), x)
    one = f.c(1.0)
    e = exp(f, f.add(a, a))
    large = f.sub(one, f.div(f.c(2.0), f.add(e, one)))
    # x's sign on both: the odd polynomial's sum loses it at x = -0 (-0 + +0 = +0)
    return f.copysign(f.sel(f.cmp("olt", a, f.c(k.tanh_small)), small, large), x)


def _tanh_fused(f: Ops, x):
    """tanh(a) = E / (E + 2), E = expm1(2a), a = |x| clamped to tanh_one, with x's sign: one
    formula for every a (E keeps its relative accuracy as a -> 0, where 1 - 2/(exp + 1)
    cancels), fused multiply-adds, one division; 2a <= 18.02 keeps 2^n a normal float."""
    k = f.k
    a = f.abs(x)
    a = f.sel(f.cmp("ogt", a, f.c(k.tanh_one)), f.c(k.tanh_one), a)  # NaN stays NaN
    n, r = _reduce(f, f.add(a, a), fused=True)
    r2p = f.mul(f.mul(r, r), f.horner(k.expm1_p, r, fused=True))
    t = _pow2(f, n)
    # 2^n (r + r^2 P) + (2^n - 1), summed as in expm1; 2^n - 1 is exact up to n = 24, and
    # above, where it is not, E + 2 rounds to E anyway
    e = f.add(f.fma(t, r, f.sub(t, f.c(1.0))), f.mul(t, r2p))
    return f.copysign(f.div(e, f.add(e, f.c(2.0))), x)


def logistic(f: Ops, x, rng=FULL):
    """With x's sign known from `rng`, the formula for that sign alone (the same values)."""
    one = f.c(1.0)
    if rng[0] >= 0:  # 1/(1 + exp(-x))
        return f.div(one, f.add(one, exp(f, f.sub(f.c(0.0), x), (-rng[1], -rng[0]))))
    if rng[1] <= 0:  # exp(x)/(1 + exp(x))
        e = exp(f, x, rng)
        return f.div(e, f.add(one, e))
    e = exp(f, f.sub(f.c(0.0), f.abs(x)))  # 0 - |x|: NaN stays NaN
    num = f.sel(f.cmp("olt", x, f.c(0.0)), e, one)
    return f.div(num, f.add(one, e))


def _exp_neg_square(f: Ops, a):
    """(n, e) with exp(-a^2) = 2^n * (1 + e), |e| <~ 0.41. a^2 = hi + lo with hi = ah^2 exact
    (ah: a with its low bits cleared) and lo = (a - ah)(a + ah), so a^2 is never rounded (that
    would cost a relative error of a^2 ulps); hi - n*ln2_hi is exact."""
    k = f.k
    ah = f.flt(f.iand(f.bits(a), f.ci(k.sq_mask)))
    hi = f.mul(ah, ah)
    lo = f.mul(f.sub(a, ah), f.add(a, ah))
    t = f.sub(f.c(k.magic), f.mul(f.add(hi, lo), f.c(k.log2e)))  # magic - rint(a^2 log2(e))
    n = f.isub(f.bits(t), f.ci(k.magic_bits))
    nf = f.sub(t, f.c(k.magic))
    p = f.add(hi, f.mul(nf, f.c(k.ln2_hi)))
    r = f.sub(f.sub(f.mul(nf, f.c(-k.ln2_lo)), p), lo)
    return n, _expm1_r(f, r)


def _erfc_large(f: Ops, a):
    """erfc(a) for a = |x| >= erf_small (any such value, inf and NaN included)."""
    k = f.k
    a = _clamp(f, a, k.erf_small, k.erfc_max)
    n, e = _exp_neg_square(f, a)
    *polys, tail = k.erfc_pieces
    conds = [f.cmp("olt", a, f.c(end)) for end, _, _, _ in polys]

    def pick(values):
        """values[i] on piece i: one Horner evaluation for all pieces, branch-free."""
        acc = values[-1]
        for cond, v in zip(reversed(conds), reversed(values[:-1])):
            acc = f.sel(cond, v, acc)
        return acc

    def const(i):
        return pick([f.c(p[3][i]) for p in k.erfc_pieces])

    u = f.div(f.c(1.0), f.mul(a, a))
    v = pick([f.sub(a, f.c(c)) for _, c, _, _ in polys] + [u])  # a - c: exact (Sterbenz)
    deg = len(tail[3]) - 1
    acc = const(deg)
    for i in range(deg - 1, 0, -1):
        acc = f.add(f.mul(acc, v), const(i))
    t = f.mul(acc, v)
    c0 = const(0)
    g = f.add(c0, t)
    # G * (1 + e) = c0 + ((lo + t) + G*e): the one rounding at full size is the last add
    q = f.add(c0, f.add(f.add(pick([f.c(p[2]) for p in k.erfc_pieces]), t), f.mul(g, e)))
    q = f.div(q, f.sel(conds[-1], f.c(1.0), a))  # H(u) / a on the last piece
    return _scale(f, q, n)


def erf(f: Ops, x):
    a = f.abs(x)
    small = f.add(x, f.mul(x, f.horner(f.k.erf_p, f.mul(x, x))))  # keeps -0
    large = f.copysign(f.sub(f.c(1.0), _erfc_large(f, a)), x)
    return f.sel(f.cmp("olt", a, f.c(f.k.erf_small)), small, large)


def erfc(f: Ops, x):
    a = f.abs(x)
    one, half = f.c(1.0), f.c(0.5)
    xy = f.mul(x, f.horner(f.k.erf_p, f.mul(x, x)))  # erf(x) = x + xy
    # x < 1/4: 1 - erf(x) >= 0.72; else 1/2 - ((x - 1/2) + xy), x - 1/2 exact: erfc(x) >= 1/4
    # there, and this rounds at its ulp rather than erf(x)'s
    small = f.sel(f.cmp("olt", x, f.c(0.25)), f.sub(one, f.add(x, xy)),
                  f.sub(half, f.add(f.sub(x, half), xy)))
    e = _erfc_large(f, a)
    large = f.sel(f.cmp("olt", x, f.c(0.0)), f.sub(f.c(2.0), e), e)
    return f.sel(f.cmp("olt", a, f.c(f.k.erf_small)), small, large)


RANGED = (exp, logistic)  # the functions that take their argument's range
