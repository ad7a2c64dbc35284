"""Expected outputs of complex atan2, maximum, minimum and clamp as XLA's CPU backend computes
them, for tests/ops/test_complex.py: every pair of special values (0, -0, 1, -1, 2.5, -0.5,
inf, -inf, NaN in each part) and random pairs (clamp: triples of special real parts), in
complex<f32> and complex<f64>, written to xla_ops.npz. JAX does not emit these ops on complex
numbers itself (jax.lax.max expands to compares of the parts), so the StableHLO text below
is compiled by XLA directly.
(bitcast_convert has no data here: StableHLO's verifier refuses it between complex and real
types, and XLA refuses complex<f64> <-> 2 x complex<f32>, which the spec allows; the tests
check that one against numpy's view.)

Run with the JAX environment (see tests/data/export_util.py), not the project's:
    /tmp/jaxvenv/bin/python tests/data/complex/export_xla_ops.py
"""
import os

import jax
import numpy as np
from jax._src import compiler, xla_bridge
from jax._src.interpreters import mlir as jmlir
from jax._src.lib import xla_client as xc
from jax._src.lib.mlir import ir

jax.config.update("jax_enable_x64", True)
HERE = os.path.dirname(os.path.abspath(__file__))
SPECIAL = [0.0, -0.0, 1.0, -1.0, 2.5, -0.5, np.inf, -np.inf, np.nan]
T = {np.complex64: "complex<f32>", np.complex128: "complex<f64>"}


def run(text, *args):
    """Compile a StableHLO module with XLA's CPU backend and run it once."""
    backend = xla_bridge.get_backend("cpu")
    with jmlir.make_ir_context():
        module = ir.Module.parse("module @m {\n" + text + "\n}")
        options = compiler.get_compile_options(num_replicas=1, num_partitions=1)
        exe = compiler.backend_compile_and_load(
            backend, module, xc.DeviceList(tuple(backend.devices()[:1])), options, [])
    return [np.asarray(o) for o in exe.execute([jax.device_put(a) for a in args])]


def pairs(dtype, rng):
    """(y, x): every pair of special values, then random pairs."""
    grid = np.empty(len(SPECIAL) ** 2, dtype)
    grid.real = np.repeat(SPECIAL, len(SPECIAL))
    grid.imag = np.tile(SPECIAL, len(SPECIAL))
    y, x = (m.ravel() for m in np.meshgrid(grid, grid, indexing="ij"))
    n = 300
    ry = (rng.uniform(-3, 3, n) + 1j * rng.uniform(-3, 3, n)).astype(dtype)
    rx = (rng.uniform(-3, 3, n) + 1j * rng.uniform(-3, 3, n)).astype(dtype)
    ry[:20] = rng.choice([-1.0, 0.0, 1.0], 20) + 1j * ry[:20].imag  # ties of the real parts
    rx[:20] = ry[:20].real + 1j * rx[:20].imag
    return np.concatenate([y, ry]), np.concatenate([x, rx])


def binary(op, dtype, a, b):
    t = f"tensor<{a.size}x{T[dtype]}>"
    return run(f"func.func @main(%a: {t}, %b: {t}) -> {t} {{\n  %0 = stablehlo.{op} %a, %b : {t}\n"
               f"  return %0 : {t}\n}}", a, b)[0]


def clamp(dtype):
    """(lo, x, hi, clamp): every triple of real parts from -1, 0, -0, 1, NaN, the imaginary
    parts 1, 2, 3 telling which operand was picked."""
    reals = [-1.0, 0.0, -0.0, 1.0, np.nan]
    grid = np.array(np.meshgrid(reals, reals, reals, indexing="ij")).reshape(3, -1)
    lo, x, hi = (np.array(grid[i] + 1j * (i + 1), dtype) for i in range(3))
    t = f"tensor<{lo.size}x{T[dtype]}>"
    got = run(f"func.func @main(%a: {t}, %b: {t}, %c: {t}) -> {t} {{\n"
              f"  %0 = stablehlo.clamp %a, %b, %c : {t}\n  return %0 : {t}\n}}", lo, x, hi)[0]
    return lo, x, hi, got


def main():
    rng = np.random.default_rng(2026)
    out = {}
    for dtype, tag in ((np.complex64, "c64"), (np.complex128, "c128")):
        y, x = pairs(dtype, rng)
        out[f"{tag}_y"], out[f"{tag}_x"] = y, x
        for op in ("atan2", "maximum", "minimum"):
            out[f"{tag}_{op}"] = binary(op, dtype, y, x)
        for key, value in zip(("lo", "x", "hi", "out"), clamp(dtype)):
            out[f"{tag}_clamp_{key}"] = value
    np.savez_compressed(os.path.join(HERE, "xla_ops.npz"), **out)
    print("wrote", os.path.join(HERE, "xla_ops.npz"), {k: v.shape for k, v in out.items()})


if __name__ == "__main__":
    main()
