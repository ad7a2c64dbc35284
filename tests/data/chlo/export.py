"""Export the CHLO / reduce_precision / optimization_barrier cases of tests/ops/test_chlo.py.

JAX is NOT a dependency of the project; it only produces these test programs and
their expected outputs. Run with a separate environment:

    /tmp/jaxenv/bin/python tests/data/chlo/export.py            # all cases
    /tmp/jaxenv/bin/python tests/data/chlo/export.py erf_f32    # some cases
    /tmp/jaxenv/bin/python tests/data/chlo/export.py --list

For every case NAME this writes, next to this script (conventions of tests/data/jax_ops):
  NAME.mlir  the module exactly as `jax.jit(f).lower(*args).as_text()` prints it
  NAME.npz   inputs arg0, arg1, ... and JAX's outputs out0, out1, ...; bfloat16
             arrays as their uint16 bits under NAME__bf16

Inputs are one dimensional: the op's edge cases first (zeros of both signs, +-inf,
NaN, poles, the ends of the domain, values next to them), then values spread over
the domain, seeded per case. XLA's CPU backend flushes subnormals (inputs and
results) to zero, which this compiler does not, so the inputs here avoid subnormal
inputs and results; tests/ops/test_chlo.py checks those against its own references.
"""

import math
import os
import re
import sys

import numpy as np
from jax import lax

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
import export_util as eu  # noqa: E402
from export_util import BF16  # noqa: E402

F16, F32, F64 = np.float16, np.float32, np.float64
INF, NAN = np.inf, np.nan

CASES = {}  # name -> (fn, arg makers, x64, expected substrings)


def case(name, fn, *args, x64=False, expect=()):
    assert name not in CASES, name
    CASES[name] = (fn, args, x64, tuple(expect))


def vals(dtype, edges, lo, hi, n=48, log=False):
    """Edge values, then n values uniform in [lo, hi) (log-uniform magnitudes if log)."""
    def make(rng):
        if log:
            mags = np.exp(rng.uniform(np.log(lo), np.log(hi), n))
            spread = mags * rng.choice([-1.0, 1.0], n)
        else:
            spread = rng.uniform(lo, hi, n)
        return np.concatenate([np.asarray(edges, np.float64), spread]).astype(dtype)
    return make


def bits(dtype, patterns):
    """Values given as bit patterns (NaN payloads)."""
    udt = {F16: np.uint16, BF16: np.uint16, F32: np.uint32, F64: np.uint64}[dtype]
    return np.asarray(patterns, udt).view(dtype)


# ------------------------------------------------------------------ erf, erfc, erf_inv

ERF_EDGES = [0.0, -0.0, INF, -INF, NAN, 1e-30, -1e-30, 0.5, -0.5, 1.0, 3.9, -3.9, 6.0, -6.0]
for dt, tag, x64 in ((F32, "f32", False), (F16, "f16", False), (BF16, "bf16", False),
                     (F64, "f64", True)):
    case(f"erf_{tag}", lax.erf, vals(dt, ERF_EDGES, -4.0, 4.0), x64=x64, expect=["chlo.erf "])
case("erf_f32_small", lax.erf, vals(F32, [1e-37, 1e-20, 1e-10], 1e-8, 1e-1, log=True),
     expect=["chlo.erf "])
# erfc(x) is subnormal in f32 beyond x ~ 9.19, so the f32 inputs stop at 9.
ERFC_EDGES = [0.0, -0.0, INF, -INF, NAN, 1e-30, 0.5, -0.5, 1.0, 2.0, 5.0, 9.0, -6.0, -10.0]
case("erfc_f32", lax.erfc, vals(F32, ERFC_EDGES, -3.0, 9.0), expect=["chlo.erfc"])
case("erfc_f16", lax.erfc, vals(F16, ERFC_EDGES[:-3], -3.0, 3.0), expect=["chlo.erfc"])
case("erfc_f64", lax.erfc, vals(F64, ERFC_EDGES + [20.0, 26.0], -3.0, 26.0), x64=True,
     expect=["chlo.erfc"])

ERF_INV_EDGES = [0.0, -0.0, 1.0, -1.0, 1.5, -1.5, INF, NAN, 0.5, -0.5, 1e-30, 0.9, 0.99, 0.999,
                 -0.9999]
case("erf_inv_f32", lax.erf_inv,
     vals(F32, ERF_INV_EDGES + [1 - 2.0**-24, -(1 - 2.0**-24), 1 - 2.0**-20, 1 - 2.0**-12,
                                 1 - 1e-5, 1 - 1.7e-4], -1.0, 1.0),
     expect=["chlo.erf_inv"])
case("erf_inv_f16", lax.erf_inv, vals(F16, ERF_INV_EDGES[:-1] + [1 - 2.0**-11], -1.0, 1.0),
     expect=["chlo.erf_inv"])
case("erf_inv_bf16", lax.erf_inv, vals(BF16, ERF_INV_EDGES[:-1] + [1 - 2.0**-8], -1.0, 1.0),
     expect=["chlo.erf_inv"])
case("erf_inv_f64", lax.erf_inv,
     vals(F64, ERF_INV_EDGES + [1 - 2.0**-53, -(1 - 2.0**-53), 1 - 1e-12, 1 - 1e-7, 1 - 1e-3],
          -1.0, 1.0),
     x64=True, expect=["chlo.erf_inv"])

# ------------------------------------------------------------------ lgamma, digamma

POLES = [0.0, -0.0, -1.0, -2.0, -3.0, -10.0, -1e6]
NEG_NONINT = [-0.5, -1.5, -2.5, -3.25, -4.75, -10.3, -100.7, -0.001, -0.999, -1.001, -2.0001]
LGAMMA_EDGES = POLES + NEG_NONINT + [INF, -INF, NAN, 1.0, 2.0, 0.5, 3.0, 1e-3, 1e-30, 10.0,
                                     100.0, 1e4, 1e10, 1e30, 3e38]
case("lgamma_f32", lax.lgamma, vals(F32, LGAMMA_EDGES, -20.0, 40.0), expect=["chlo.lgamma"])
case("lgamma_f32_near_roots", lax.lgamma,
     vals(F32, [1 + 2.0**-20, 1 - 2.0**-20, 2 + 2.0**-20, 2 - 2.0**-21, 0.99, 1.01, 1.99, 2.01],
          0.9, 2.1, n=24),
     expect=["chlo.lgamma"])
case("lgamma_f16", lax.lgamma, vals(F16, POLES[:-1] + NEG_NONINT[:-3] + [INF, -INF, NAN, 1.0, 2.0,
                                                                     0.5, 100.0, 3000.0],
                                    -10.0, 20.0),
     expect=["chlo.lgamma"])
case("lgamma_bf16", lax.lgamma, vals(BF16, POLES + NEG_NONINT[:-3] + [INF, -INF, NAN, 1.0, 2.0,
                                                                   0.5, 100.0, 1e30],
                                     -10.0, 20.0),
     expect=["chlo.lgamma"])
case("lgamma_f64", lax.lgamma, vals(F64, LGAMMA_EDGES + [1e300], -20.0, 40.0), x64=True,
     expect=["chlo.lgamma"])

DIGAMMA_EDGES = POLES + NEG_NONINT + [INF, -INF, NAN, 1.0, 2.0, 0.5, 1e-3, 1e-30, 10.0, 1e4,
                                      1e10, 1e30, 1.4616321, 1.46, 1.47]
case("digamma_f32", lax.digamma, vals(F32, DIGAMMA_EDGES, -20.0, 40.0), expect=["chlo.digamma"])
case("digamma_f16", lax.digamma, vals(F16, DIGAMMA_EDGES[:6] + NEG_NONINT[:-3] +
                                      [INF, -INF, NAN, 1.0, 2.0, 0.5, 10.0, 1000.0, 1.4616],
                                      -10.0, 20.0),
     expect=["chlo.digamma"])
case("digamma_f64", lax.digamma, vals(F64, DIGAMMA_EDGES + [1e300, 1.4616321449683622],
                                      -20.0, 40.0),
     x64=True, expect=["chlo.digamma"])

# ------------------------------------------------------------------ hyperbolic and inverse trig

HYP_EDGES = [0.0, -0.0, INF, -INF, NAN, 1e-30, -1e-20, 1e-4, 0.5, -0.99, 1.0, -1.0, 10.0, -20.0,
             88.0, -88.7, 89.0, 89.5, -90.0, 100.0]
for op_name, fn in (("sinh", lax.sinh), ("cosh", lax.cosh)):
    case(f"{op_name}_f32", fn, vals(F32, HYP_EDGES, -12.0, 12.0), expect=[f"chlo.{op_name}"])
    case(f"{op_name}_f16", fn, vals(F16, HYP_EDGES[:12] + [11.0, -11.5, 12.0], -6.0, 6.0),
         expect=[f"chlo.{op_name}"])
    case(f"{op_name}_bf16", fn, vals(BF16, HYP_EDGES, -12.0, 12.0), expect=[f"chlo.{op_name}"])
    case(f"{op_name}_f64", fn, vals(F64, HYP_EDGES + [700.0, 710.0, 711.0, -720.0], -30.0, 30.0),
         x64=True, expect=[f"chlo.{op_name}"])

UNIT_EDGES = [0.0, -0.0, 1.0, -1.0, 1.0000001, -1.5, INF, -INF, NAN, 1e-30, -1e-20, 0.5, -0.5,
              0.99999994, -0.99999994, 1e-4]
for op_name, fn in (("asin", lax.asin), ("acos", lax.acos)):
    case(f"{op_name}_f32", fn, vals(F32, UNIT_EDGES, -1.0, 1.0), expect=[f"chlo.{op_name}"])
    case(f"{op_name}_f16", fn, vals(F16, UNIT_EDGES[:4] + UNIT_EDGES[5:10], -1.0, 1.0),
         expect=[f"chlo.{op_name}"])
    case(f"{op_name}_f64", fn, vals(F64, UNIT_EDGES + [1 - 2.0**-53], -1.0, 1.0), x64=True,
         expect=[f"chlo.{op_name}"])
case("atanh_f32", lax.atanh,
     vals(F32, UNIT_EDGES + [1 - 2.0**-24, -(1 - 2.0**-24), 1 - 2.0**-12], -1.0, 1.0),
     expect=["chlo.atanh"])
case("atanh_bf16", lax.atanh, vals(BF16, UNIT_EDGES[:4] + UNIT_EDGES[5:10], -1.0, 1.0),
     expect=["chlo.atanh"])
case("atanh_f64", lax.atanh, vals(F64, UNIT_EDGES + [1 - 2.0**-53], -1.0, 1.0), x64=True,
     expect=["chlo.atanh"])

WIDE_EDGES = [0.0, -0.0, INF, -INF, NAN, 1e-30, -1e-20, 1e-4, 0.5, -1.0, 1.0, 10.0, -1e4, 1e10,
              -1e30, 3e38]
case("atan_f32", lax.atan, vals(F32, WIDE_EDGES, 1e-3, 1e3, log=True), expect=["chlo.atan "])
case("atan_bf16", lax.atan, vals(BF16, WIDE_EDGES, 1e-3, 1e3, log=True), expect=["chlo.atan "])
case("atan_f64", lax.atan, vals(F64, WIDE_EDGES + [1e300], 1e-3, 1e3, log=True), x64=True,
     expect=["chlo.atan "])
case("asinh_f32", lax.asinh, vals(F32, WIDE_EDGES, 1e-3, 1e3, log=True), expect=["chlo.asinh"])
case("asinh_f16", lax.asinh, vals(F16, WIDE_EDGES[:12], 1e-3, 1e3, log=True),
     expect=["chlo.asinh"])
case("asinh_f64", lax.asinh, vals(F64, WIDE_EDGES + [1e300, -1e-300], 1e-3, 1e3, log=True),
     x64=True, expect=["chlo.asinh"])
ACOSH_EDGES = [1.0, 1.0000001, 1.0001, 1.5, 2.0, 10.0, 1e4, 1e10, 1e30, 3e38, INF, NAN, 0.999,
               0.0, -1.0, -INF]
case("acosh_f32", lax.acosh, vals(F32, ACOSH_EDGES, 1.0, 1e3, log=True), expect=["chlo.acosh"])
case("acosh_f16", lax.acosh, vals(F16, ACOSH_EDGES[:3] + ACOSH_EDGES[4:7] + ACOSH_EDGES[10:],
                                  1.0, 1e3, log=True),
     expect=["chlo.acosh"])
case("acosh_f64", lax.acosh, vals(F64, ACOSH_EDGES + [1 + 2.0**-52, 1e300], 1.0, 1e3, log=True),
     x64=True, expect=["chlo.acosh"])

# ------------------------------------------------------------------ square (jnp.square)

case("square_f32", lax.square, vals(F32, [0.0, -0.0, INF, -INF, NAN, 1e-30, 2e19, -1.9e19, 3.0],
                                   -100.0, 100.0),
     expect=["chlo.square"])
case("square_bf16", lax.square, vals(BF16, [0.0, -0.0, INF, NAN, 1.5, 1.9e19, -3.0], -10.0, 10.0),
     expect=["chlo.square"])
case("square_f16", lax.square, vals(F16, [0.0, -0.0, INF, NAN, 255.9, 256.0, -300.0], -10.0, 10.0),
     expect=["chlo.square"])
# (integer squares are printed as stablehlo.multiply)

# ------------------------------------------------------------------ next_after


def next_after_pairs(dtype, big):
    """(x, y) pairs: toward +-inf, toward NaN, from NaN, equal, from and to zeros of both
    signs, from +-inf, from the largest finite value, across zero."""
    xs = [1.0, 1.0, -1.0, -1.0, 1.0, NAN, NAN, 2.0, -2.0, 0.0, 0.0, -0.0, -0.0, 0.0, -0.0,
          INF, INF, -INF, big, big, -big, 0.5, -0.5, 3.0, 1.0, 1e-3, INF, 0.25]
    ys = [INF, -INF, INF, -INF, NAN, 1.0, NAN, 2.0, -2.0, 1.0, -1.0, 1.0, -1.0, -0.0, 0.0,
          0.0, INF, 0.0, INF, 0.0, -INF, -0.5, 0.5, 3.5, 0.0, 1e-3, -INF, 0.25]

    def make(which):
        def f(rng):
            a = np.asarray(xs if which == 0 else ys, np.float64)
            r = rng.uniform(-4.0, 4.0, (2, 24))
            return np.concatenate([a, r[which]]).astype(dtype)
        return f
    return make(0), make(1)


for dt, tag, big, x64 in ((F32, "f32", 3.4028235e38, False), (F16, "f16", 65504.0, False),
                          (BF16, "bf16", 3.3895314e38, False), (F64, "f64", 1.7976931348623157e308,
                                                                  True)):
    case(f"next_after_{tag}", lax.nextafter, *next_after_pairs(dt, big), x64=x64,
         expect=["chlo.next_after"])

# ------------------------------------------------------------------ reduce_precision


def rp(exponent_bits, mantissa_bits):
    return lambda x: lax.reduce_precision(x, exponent_bits=exponent_bits,
                                          mantissa_bits=mantissa_bits)


# f16's limits: 65504 is the largest finite value, 65520 the midpoint to 65536 (rounds to
# inf), 6.1035156e-05 the smallest normal; ties at 1 + 2^-11 (to even: 1) and 1 + 3 * 2^-11
# (to even: 1 + 2^-9); bf16's largest finite value 3.3895314e38, its midpoint to the next
# power 3.3961775e38.
RP_EDGES = [0.0, -0.0, INF, -INF, NAN, 1.0, -1.0, 65504.0, 65519.99, 65520.0, -65520.0, 1e5,
            -1e5, 6.1035156e-05, 6.1e-05, 3e-5, 6e-8, -6e-8, 1e-30, 1 + 2.0**-11, 1 + 3 * 2.0**-11,
            -(1 + 2.0**-11), 1 + 2.0**-8, 1 + 3 * 2.0**-8, 3.3895314e38, 3.3961775e38, 3.4e38,
            -3.4e38, 1.1754944e-38, 1e-37]
F32_NANS = [0x7F800001, 0xFFC00001, 0x7FBFFFFF, 0xFFFFFFFF, 0x7FC00000]


def rp_input(dtype, nans):
    def make(rng):
        edges = np.asarray(RP_EDGES, np.float64)
        with np.errstate(over="ignore"):
            edges = edges.astype(dtype)
        spread = np.exp(rng.uniform(np.log(1e-6), np.log(1e6), 40)) * rng.choice([-1.0, 1.0], 40)
        with np.errstate(over="ignore"):
            spread = spread.astype(dtype)
        return np.concatenate([edges, spread, bits(dtype, nans)])
    return make


case("reduce_precision_f32_e5m10", rp(5, 10), rp_input(F32, F32_NANS),
     expect=["stablehlo.reduce_precision", "e5m10"])
case("reduce_precision_f32_e8m7", rp(8, 7), rp_input(F32, F32_NANS),
     expect=["stablehlo.reduce_precision", "e8m7"])
case("reduce_precision_f32_e4m3", rp(4, 3), rp_input(F32, F32_NANS),
     expect=["stablehlo.reduce_precision", "e4m3"])
case("reduce_precision_f32_e8m0", rp(8, 0), rp_input(F32, F32_NANS),
     expect=["stablehlo.reduce_precision", "e8m0"])
case("reduce_precision_f64_e5m10", rp(5, 10),
     rp_input(F64, [0x7FF0000000000001, 0xFFF8000000000001, 0x7FF8000000000000]), x64=True,
     expect=["stablehlo.reduce_precision", "e5m10"])
case("reduce_precision_f64_e8m23", rp(8, 23),
     rp_input(F64, [0x7FF0000000000001, 0xFFF8000000000001]), x64=True,
     expect=["stablehlo.reduce_precision", "e8m23"])
case("reduce_precision_bf16_e5m10", rp(5, 10), rp_input(BF16, [0x7F81, 0xFFC1]),
     expect=["stablehlo.reduce_precision", "e5m10"])
case("reduce_precision_f16_e8m7", rp(8, 7), rp_input(F16, [0x7C01, 0xFE01]),
     expect=["stablehlo.reduce_precision", "e8m7"])
case("reduce_precision_f16_e5m10", rp(5, 10), rp_input(F16, [0x7C01, 0xFE01]),
     expect=["stablehlo.reduce_precision", "e5m10"])

# ------------------------------------------------------------------ optimization_barrier and chains


def barrier_fn(x, y):
    a, b = lax.optimization_barrier((x * 2.0, y + 1.0))
    return a * b + 1.0, lax.erf(a)


case("optimization_barrier_f32", barrier_fn, vals(F32, [], -2.0, 2.0, n=24),
     vals(F32, [], -2.0, 2.0, n=24), expect=["stablehlo.optimization_barrier"])
case("optimization_barrier_passthrough", lambda x, y: lax.optimization_barrier((x, y)),
     vals(F32, [], -2.0, 2.0, n=8), lambda rng: rng.integers(-5, 5, 8).astype(np.int32),
     expect=["stablehlo.optimization_barrier"])



def barrier_in_loop_fn(x):
    """A barrier inside a while body (what jax.checkpoint leaves in scanned code)."""
    def body(i, c):
        a, b = lax.optimization_barrier((c * 2.0, c + 1.0))
        return lax.erf(a) * 0.5 + b * 0.1
    return lax.fori_loop(0, 3, body, x)


case("optimization_barrier_in_loop", barrier_in_loop_fn, vals(F32, [], -2.0, 2.0, n=16),
     expect=["stablehlo.optimization_barrier", "stablehlo.while"])


def chain_fn(x, y):
    """Several chlo ops in one fusion with a broadcast and ordinary ops in between."""
    a = lax.erf(x) * lax.lgamma(y + 1.0)
    b = lax.asinh(a) + lax.digamma(y[None, :] + 2.0)
    return lax.nextafter(b, lax.reduce_precision(b, 8, 7) * 0.0 + 100.0)


case("chain_f32", chain_fn, lambda rng: rng.uniform(-2, 2, (3, 8)).astype(F32),
     lambda rng: rng.uniform(0.1, 5, (8,)).astype(F32),
     expect=["chlo.erf ", "chlo.lgamma", "chlo.asinh", "chlo.digamma", "chlo.next_after",
             "reduce_precision"])

# ------------------------------------------------------------------ references

# Exact values, from mpmath at 40 digits, for the unary cases: stored as `ref0` (float64,
# correctly rounded; NaN where the function is undefined), so the test can state each op's
# error against the true function as well as its distance from JAX.
REFERENCES = {
    "erf": "erf", "erfc": "erfc", "erf_inv": "erfinv", "sinh": "sinh", "cosh": "cosh",
    "asin": "asin", "acos": "acos", "atan": "atan", "asinh": "asinh", "acosh": "acosh",
    "atanh": "atanh", "lgamma": None, "digamma": "digamma",
}


def reference(op, x):
    import mpmath
    mpmath.mp.dps = 40
    x = float(x)
    if math.isnan(x):
        return math.nan
    if op == "lgamma":
        if math.isinf(x) or (x <= 0 and x == math.floor(x)):
            return math.inf
        return float(mpmath.re(mpmath.loggamma(x)))
    if op == "digamma":
        if x == -math.inf or (x <= 0 and x == math.floor(x)):
            return math.nan
        if x == math.inf:
            return math.inf
    if op == "erf_inv" and abs(x) >= 1:
        return math.copysign(math.inf, x) if abs(x) == 1 else math.nan
    try:
        y = getattr(mpmath, REFERENCES[op])(mpmath.mpf(x))
    except (ValueError, ZeroDivisionError):
        return math.nan
    if isinstance(y, mpmath.mpc):
        return math.nan if y.imag != 0 else float(y.real)
    return float(y)


def reference_op(name):
    op = re.sub(r"_(f16|bf16|f32|f64)(_\w+)?$", "", name)
    return op if op in REFERENCES else None


# ------------------------------------------------------------------ export

def export_case(name):
    fn, specs, x64, expect = CASES[name]
    args = eu.make_args(specs, np.random.default_rng(eu.seed(name)))
    text, outs = eu.lower(fn, args, x64)
    eu.check_text(name, text, expect, public_main=False)
    eu.check_input_sizes(name, args, 512)
    d = eu.pack(args, outs)
    op = reference_op(name)
    if op is not None:
        d["ref0"] = np.array([reference(op, v) for v in args[0].astype(np.float64)], np.float64)
    eu.write_case(HERE, name, text, d)


if __name__ == "__main__":
    eu.main(sys.argv[1:], CASES, export_case, HERE)
