"""Benchmark: one dynamic-shape library over 40 batch sizes, against per-shape JIT.

    .venv/bin/python benchmarks/dynamic_shapes.py [--calls 3] [--steady-reps 5]
                                                  [--sizes 40] [--no-pin] [--use-cache]

A benchmark, not a test: it prints numbers and asserts nothing about time.
Two programs are written below as StableHLO text with a dynamic batch dim
(`tensor<?x1024xf32>`, `tensor<?x256xf32>`):

  * softmax over the last axis of x[?, 1024]: reduce max, subtract, exp,
    reduce sum, divide, with the batch dim carried through
    `get_dimension_size` / `concatenate` / `dynamic_broadcast_in_dim` as
    `jax.export` prints it (`--softmax-form broadcast` writes the plain
    `broadcast_in_dim` of a `tensor<?xf32>` instead);
  * an MLP x[?, 256] -> dense 256->512 + relu -> dense 512->128, its fixed
    random weights embedded as hex `dense<"0x...">` constants.

Each is swept over 40 distinct batch sizes (1..512 for softmax, 1..256 for the
MLP), every size called a few times, by

  * this project: ONE `aot.compile` (a fresh build, timed separately), one
    library for every size;
  * numpy (single-threaded BLAS for the MLP's matmuls);
  * `jax.jit`, when `import jax` works (never installed by this script):
    XLA compiles once per distinct shape, at the first call with it.

The first pass over the sizes is timed whole, including whatever each
implementation compiles at first sight of a shape; the steady state is
further passes over the same sizes, everything compiled.  See
benchmarks/README.md.
"""
from __future__ import annotations

import os

import bench_env  # noqa: E402,F401  one thread everywhere; must come before numpy and jax

# isort: split

import argparse  # noqa: E402
import gc  # noqa: E402
import resource  # noqa: E402
import shutil  # noqa: E402
import statistics  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402

import numpy as np  # noqa: E402

ROOT = bench_env.ROOT

import aot  # noqa: E402

# --- the programs -----------------------------------------------------------------------

SOFTMAX_N = 1024
T_SM = f"tensor<?x{SOFTMAX_N}xf32>"


def softmax_mlir(form: str = "jax") -> str:
    """softmax(x, axis=1) for x: tensor<?x1024xf32>.

    form="jax": the row max/sum are broadcast back with dynamic_broadcast_in_dim
    to a shape built from get_dimension_size, as jax.export prints it;
    form="broadcast": a plain broadcast_in_dim of the tensor<?xf32> (dims = [0]
    maps the ? dim through)."""
    head = f"""func.func public @main(%arg0: {T_SM}) -> {T_SM} {{
  %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  %cst_0 = stablehlo.constant dense<0xFF800000> : tensor<f32>
"""
    if form == "jax":
        shape = f"""  %c = stablehlo.constant dense<{SOFTMAX_N}> : tensor<1xi32>
  %b = stablehlo.get_dimension_size %arg0, dim = 0 : ({T_SM}) -> tensor<i32>
  %b1 = stablehlo.reshape %b : (tensor<i32>) -> tensor<1xi32>
  %shape = stablehlo.concatenate %b1, %c, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
"""

        def bcast(dst, src):
            return (f"  {dst} = stablehlo.dynamic_broadcast_in_dim {src}, %shape, dims = [0] : "
                    f"(tensor<?xf32>, tensor<2xi32>) -> {T_SM}\n")
    elif form == "broadcast":
        shape = ""

        def bcast(dst, src):
            return (f"  {dst} = stablehlo.broadcast_in_dim {src}, dims = [0] : "
                    f"(tensor<?xf32>) -> {T_SM}\n")
    else:
        raise ValueError(form)
    return (head + shape
            + f"  %0 = stablehlo.reduce(%arg0 init: %cst_0) applies stablehlo.maximum across "
              f"dimensions = [1] : ({T_SM}, tensor<f32>) -> tensor<?xf32>\n"
            + bcast("%1", "%0")
            + f"  %2 = stablehlo.subtract %arg0, %1 : {T_SM}\n"
            + f"  %3 = stablehlo.exponential %2 : {T_SM}\n"
            + f"  %4 = stablehlo.reduce(%3 init: %cst) applies stablehlo.add across "
              f"dimensions = [1] : ({T_SM}, tensor<f32>) -> tensor<?xf32>\n"
            + bcast("%5", "%4")
            + f"  %6 = stablehlo.divide %3, %5 : {T_SM}\n"
            + f"  return %6 : {T_SM}\n}}\n")


def softmax_numpy(x):
    e = np.exp(x - x.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def softmax_jax(jnp):
    def f(x):
        e = jnp.exp(x - x.max(axis=1, keepdims=True))
        return e / e.sum(axis=1, keepdims=True)
    return f


MLP_IN, MLP_HID, MLP_OUT = 256, 512, 128


def mlp_weights():
    """Fixed random weights (seeded), scaled so activations stay O(1)."""
    rng = np.random.default_rng(20261122)
    w1 = (rng.standard_normal((MLP_IN, MLP_HID)) / np.sqrt(MLP_IN)).astype(np.float32)
    b1 = (0.1 * rng.standard_normal(MLP_HID)).astype(np.float32)
    w2 = (rng.standard_normal((MLP_HID, MLP_OUT)) / np.sqrt(MLP_HID)).astype(np.float32)
    b2 = (0.1 * rng.standard_normal(MLP_OUT)).astype(np.float32)
    return w1, b1, w2, b2


def hex_dense(arr: np.ndarray) -> str:
    """A dense<"0x..."> attribute: the raw little-endian f32 bytes, as JAX prints weights."""
    return 'dense<"0x' + np.ascontiguousarray(arr, dtype="<f4").tobytes().hex().upper() + '">'


def mlp_mlir(w1, b1, w2, b2) -> str:
    X, H, Y = (f"tensor<?x{MLP_IN}xf32>", f"tensor<?x{MLP_HID}xf32>", f"tensor<?x{MLP_OUT}xf32>")
    return f"""func.func public @main(%x: {X}) -> {Y} {{
  %w1 = stablehlo.constant {hex_dense(w1)} : tensor<{MLP_IN}x{MLP_HID}xf32>
  %b1 = stablehlo.constant {hex_dense(b1)} : tensor<{MLP_HID}xf32>
  %w2 = stablehlo.constant {hex_dense(w2)} : tensor<{MLP_HID}x{MLP_OUT}xf32>
  %b2 = stablehlo.constant {hex_dense(b2)} : tensor<{MLP_OUT}xf32>
  %zero = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  %c_hid = stablehlo.constant dense<{MLP_HID}> : tensor<1xi32>
  %c_out = stablehlo.constant dense<{MLP_OUT}> : tensor<1xi32>
  %n = stablehlo.get_dimension_size %x, dim = 0 : ({X}) -> tensor<i32>
  %n1 = stablehlo.reshape %n : (tensor<i32>) -> tensor<1xi32>
  %s_hid = stablehlo.concatenate %n1, %c_hid, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
  %s_out = stablehlo.concatenate %n1, %c_out, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
  %0 = stablehlo.dot_general %x, %w1, contracting_dims = [1] x [0] : ({X}, tensor<{MLP_IN}x{MLP_HID}xf32>) -> {H}
  %1 = stablehlo.dynamic_broadcast_in_dim %b1, %s_hid, dims = [1] : (tensor<{MLP_HID}xf32>, tensor<2xi32>) -> {H}
  %2 = stablehlo.add %0, %1 : {H}
  %3 = stablehlo.dynamic_broadcast_in_dim %zero, %s_hid, dims = [] : (tensor<f32>, tensor<2xi32>) -> {H}
  %4 = stablehlo.maximum %2, %3 : {H}
  %5 = stablehlo.dot_general %4, %w2, contracting_dims = [1] x [0] : ({H}, tensor<{MLP_HID}x{MLP_OUT}xf32>) -> {Y}
  %6 = stablehlo.dynamic_broadcast_in_dim %b2, %s_out, dims = [1] : (tensor<{MLP_OUT}xf32>, tensor<2xi32>) -> {Y}
  %7 = stablehlo.add %5, %6 : {Y}
  return %7 : {Y}
}}
"""  # noqa: E501


def mlp_numpy(w1, b1, w2, b2):
    def f(x):
        return np.maximum(x @ w1 + b1, np.float32(0)) @ w2 + b2
    return f


def mlp_jax(jnp, w1, b1, w2, b2):
    w1, b1, w2, b2 = (jnp.asarray(a) for a in (w1, b1, w2, b2))

    def f(x):
        return jnp.maximum(x @ w1 + b1, 0.0) @ w2 + b2
    return f


# --- sizes, timing --------------------------------------------------------------------

def sweep_sizes(max_batch: int, k: int) -> list:
    """k distinct batch sizes from 1 to max_batch, spread geometrically."""
    if k > max_batch:
        raise ValueError(f"cannot pick {k} distinct sizes from 1..{max_batch}")
    sizes: list = []
    for i, v in enumerate(np.geomspace(1, max_batch, k)):
        lo = sizes[-1] + 1 if sizes else 1
        hi = max_batch - (k - 1 - i)
        sizes.append(int(min(max(round(v), lo), hi)))
    return sizes


def minor_faults() -> int:
    return resource.getrusage(resource.RUSAGE_SELF).ru_minflt


def timed_pass(call, inputs, calls: int):
    """One pass over the sizes: `calls` calls per size.  Returns (total seconds,
    seconds per size, the last result of each size, minor page faults)."""
    per_size, results = [], []
    gc_was = gc.isenabled()
    gc.disable()
    try:
        f0 = minor_faults()
        t_start = time.perf_counter()
        for x in inputs:
            t0 = time.perf_counter()
            for _ in range(calls):
                r = call(x)
            per_size.append(time.perf_counter() - t0)
            results.append(r)
        total = time.perf_counter() - t_start
        faults = minor_faults() - f0
    finally:
        if gc_was:
            gc.enable()
    return total, per_size, results, faults


def check(label: str, got, ref, rtol: float, atol: float) -> str:
    got = np.asarray(got)
    if got.shape != ref.shape:
        raise AssertionError(f"{label}: shape {got.shape}, numpy has {ref.shape}")
    err = np.abs(got.astype(np.float64) - ref)
    bad = err > atol + rtol * np.abs(ref)
    if bad.any():
        raise AssertionError(f"{label}: {int(bad.sum())} elements differ from numpy "
                             f"(max abs err {err.max():.3g})")
    return f"max abs err {err.max():.3g}"


# --- one workload ---------------------------------------------------------------------

def run_workload(wl: dict, args, jax, jnp, build_root: str) -> list:
    """Sweeps one workload with every implementation; returns table rows."""
    name, sizes = wl["name"], wl["sizes"]
    rng = np.random.default_rng(7)
    inputs = [(wl["scale"] * rng.standard_normal((b, wl["features"]), dtype=np.float32))
              for b in sizes]
    refs = [wl["numpy"](x.astype(np.float64)) for x in inputs]
    # One size outside the sweep, for each implementation's check before timing:
    # it also absorbs one-time costs (first call into the library, JAX's backend
    # start-up) without compiling any shape the timed first pass will see.
    pre_b = max(sizes) + 1
    pre_x = (wl["scale"] * rng.standard_normal((pre_b, wl["features"]), dtype=np.float32))
    pre_ref = wl["numpy"](pre_x.astype(np.float64))
    tol = dict(rtol=wl["rtol"], atol=wl["atol"])

    print(f"[{name}] {wl['desc']}")
    print(f"  {len(sizes)} batch sizes: {', '.join(map(str, sizes))}")
    print(f"  {args.calls} calls per size per pass; steady state = median of "
          f"{args.steady_reps} further passes (interleaved across implementations)")

    # ours: one build for every size
    text = wl["mlir"]()
    t0 = time.perf_counter()
    if args.use_cache:
        lib = aot.compile(text, name=name)
    else:
        lib = aot.compile(text, name=name, output_dir=os.path.join(build_root, name))
    compile_s = time.perf_counter() - t0
    if hasattr(lib, "set_num_threads"):
        lib.set_num_threads(1)
    print(f"  aot.compile: {compile_s:.2f} s ({'cache allowed' if args.use_cache else 'fresh build'}"
          f" + load; {len(text) / 1e6:.2f} MB of MLIR text), one library for all sizes")

    impls = []  # (label, call, inputs, compile seconds or None)
    ours = lib.main
    print(f"  pre-check aot      (b={pre_b}): {check('aot', ours(pre_x), pre_ref, **tol)}")
    impls.append(("aot (1 library)", ours, inputs, compile_s))
    npf = wl["numpy"]
    print(f"  pre-check numpy    (b={pre_b}): {check('numpy', npf(pre_x), pre_ref, **tol)}")
    impls.append(("numpy", npf, inputs, None))
    if jax is not None:
        jf = jax.jit(wl["jax"](jnp))
        jin = [jax.device_put(x) for x in inputs]
        for a in jin:
            a.block_until_ready()

        def jcall(x, jf=jf):
            return jf(x).block_until_ready()
        print(f"  pre-check jax.jit  (b={pre_b}): "
              f"{check('jax.jit', jcall(jax.device_put(pre_x)), pre_ref, **tol)}")
        impls.append(("jax.jit (XLA)", jcall, jin, None))
    # Before every timed pass each implementation gets one untimed call with the
    # out-of-sweep input (a shape it has already seen), so the first size of a
    # pass does not pay for switching from another implementation's pass.
    warm = {"aot (1 library)": lambda: ours(pre_x), "numpy": lambda: npf(pre_x)}
    if jax is not None:
        pre_j = jax.device_put(pre_x)
        warm["jax.jit (XLA)"] = lambda: jcall(pre_j)

    lib.reset_alloc_stats()
    gc.collect()
    first = {}
    for label, call, xs, _ in impls:
        warm[label]()
        total, per_size, results, _ = timed_pass(call, xs, args.calls)
        for b, got, ref in zip(sizes, results, refs):
            check(f"{label} b={b}", got, ref, **tol)
        first[label] = (total, per_size)
        del results
        gc.collect()
    print(f"  first pass: every result checked against numpy (float64), all {len(sizes)} sizes")

    steady = {label: [] for label, *_ in impls}
    steady_per = {label: [] for label, *_ in impls}
    faults = {label: 0 for label, *_ in impls}
    for _ in range(args.steady_reps):
        for label, call, xs, _ in impls:
            warm[label]()
            total, per_size, results, flt = timed_pass(call, xs, args.calls)
            del results
            steady[label].append(total)
            steady_per[label].append(per_size)
            faults[label] += flt
    stats = lib.alloc_stats()
    allocs = stats["num_allocs"]
    hit_rate = stats["cache_hits"] / allocs if allocs else float("nan")
    print(f"  aot allocator after the sweep ({1 + args.steady_reps} passes): "
          f"bytes_in_use={stats['bytes_in_use']}, peak={stats['peak_bytes_in_use'] / 2**20:.2f} MiB, "
          f"allocs={allocs}, frees={stats['num_frees']}, cache hits={stats['cache_hits']} "
          f"({hit_rate:.1%})")
    if stats["bytes_in_use"] != 0:
        raise AssertionError(f"{name}: the library still holds {stats['bytes_in_use']} bytes")

    # a few sizes, steady state per call (min over the steady passes)
    pick = sorted({0, len(sizes) // 2, len(sizes) - 1})
    cols = "".join(f"{'b=' + str(sizes[i]):>11}" for i in pick)
    print(f"  steady ms per call at {cols}   first-pass ms per call at {cols}"
          f"   page faults per call (steady)")
    for label, *_ in impls:
        st = [min(p[i] for p in steady_per[label]) / args.calls * 1e3 for i in pick]
        fi = [first[label][1][i] / args.calls * 1e3 for i in pick]
        print(f"    {label:<16}  {''.join(f'{v:11.3f}' for v in st)}"
              f"   {' ' * 21}{''.join(f'{v:11.3f}' for v in fi)}"
              f"   {faults[label] / (args.steady_reps * args.calls * len(sizes)):10.1f}")
    if "jax.jit (XLA)" in first:
        ratios = [min(p[i] for p in steady_per["aot (1 library)"])
                  / min(p[i] for p in steady_per["jax.jit (XLA)"]) for i in range(len(sizes))]
        worst = max(range(len(sizes)), key=ratios.__getitem__)
        slower = sum(r > 1.2 for r in ratios)
        print(f"  worst size against XLA compiled for that shape: b={sizes[worst]}, aot "
              f"{ratios[worst]:.2f}x XLA's steady time; {slower} of {len(sizes)} sizes above 1.2x "
              f"(issue 15's goal: none)")
        extra = first["jax.jit (XLA)"][0] - statistics.median(steady["jax.jit (XLA)"])
        print(f"  jax.jit: ~{extra / len(sizes) * 1e3:.0f} ms per new shape (1st pass - steady, "
              f"over {len(sizes)} shapes) against aot's one {compile_s:.2f} s build")
    print()

    rows = []
    for label, _, _, comp in impls:
        st = statistics.median(steady[label])
        fp = first[label][0]
        rows.append(dict(workload=name, impl=label, compile=comp, first=fp, steady=st,
                         cold=fp + (comp or 0.0)))
    return rows


def print_table(rows: list, has_jax: bool, jax_note: str) -> None:
    def ratio(ref, val):
        return f"{ref / val:7.2f}x" if ref is not None and val else f"{'-':>8}"

    head = (f"{'workload':<8} {'implementation':<16} {'compile s':>9} {'1st pass ms':>11} "
            f"{'cold ms':>9} {'steady ms':>9} | {'steady vs np':>12} {'cold vs np':>10}")
    if has_jax:
        head += f" {'steady vs jax':>13} {'cold vs jax':>11}"
    print(head)
    print("-" * len(head))
    by = {(r["workload"], r["impl"]): r for r in rows}
    for r in rows:
        npr = by[(r["workload"], "numpy")]
        if r["impl"].startswith("jax"):
            comp = f"~{r['first'] - r['steady']:.2f}*"
        elif r["compile"] is None:
            comp = "-"
        else:
            comp = f"{r['compile']:.2f}"
        line = (f"{r['workload']:<8} {r['impl']:<16} {comp:>9} {r['first'] * 1e3:11.1f} "
                f"{r['cold'] * 1e3:9.1f} {r['steady'] * 1e3:9.1f} | "
                f"{ratio(npr['steady'], r['steady']):>12} {ratio(npr['cold'], r['cold']):>10}")
        if has_jax:
            jr = by.get((r["workload"], "jax.jit (XLA)"))
            line += (f" {ratio(jr and jr['steady'], r['steady']):>13}"
                     f" {ratio(jr and jr['cold'], r['cold']):>11}")
        print(line)
    print()
    print("1st pass = the first sweep over all sizes (a few calls each), including whatever the "
          "implementation compiles at first sight of a shape;")
    print("cold = compile + 1st pass (aot: its one build; jax.jit: its per-shape compiles are "
          "inside the 1st pass); steady = a later sweep, all compiled.")
    print("vs np / vs jax = the numpy / jax.jit row's time divided by this row's "
          "(>1: this row is faster).")
    if has_jax:
        print("* jax.jit compile column = 1st pass - steady: an estimate of the time its "
              "per-shape tracing + XLA compiles took inside the 1st pass.")
    else:
        print("jax columns omitted: " + jax_note)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sizes", type=int, default=40, help="distinct batch sizes per workload")
    ap.add_argument("--calls", type=int, default=3, help="calls per size in each pass")
    ap.add_argument("--steady-reps", type=int, default=5,
                    help="steady-state passes (median reported)")
    ap.add_argument("--softmax-max", type=int, default=512, help="largest softmax batch")
    ap.add_argument("--mlp-max", type=int, default=256, help="largest MLP batch")
    ap.add_argument("--softmax-form", choices=("jax", "broadcast"), default="jax",
                    help="how the softmax program broadcasts the row max/sum back")
    ap.add_argument("--workloads", default="softmax,mlp", help="comma-separated subset")
    ap.add_argument("--no-pin", action="store_true", help="do not pin the process to one CPU")
    ap.add_argument("--use-cache", action="store_true",
                    help="let aot.compile reuse its build cache (the compile column is then "
                         "only a load when the program was built before)")
    args = ap.parse_args()

    pinned = bench_env.pin_to_one_cpu(not args.no_pin)
    jax, jnp, jax_note = bench_env.probe_jax("jax.jit rows")
    bench_env.print_header("dynamic_shapes benchmark", pinned, jax_note)
    print(f"load average at start: {bench_env.loadavg()} (other processes on these cores add noise)")
    print()

    weights = mlp_weights()
    all_workloads = {
        "softmax": dict(
            name="softmax", features=SOFTMAX_N, scale=3.0,
            sizes=sweep_sizes(args.softmax_max, args.sizes),
            desc=f"softmax(x, axis=1), x: tensor<?x{SOFTMAX_N}xf32> "
                 f"({args.softmax_form} form of the broadcasts)",
            mlir=lambda: softmax_mlir(args.softmax_form),
            numpy=softmax_numpy, jax=softmax_jax, rtol=1e-4, atol=1e-6),
        "mlp": dict(
            name="mlp", features=MLP_IN, scale=1.0,
            sizes=sweep_sizes(args.mlp_max, args.sizes),
            desc=f"relu(x @ W1 + b1) @ W2 + b2, x: tensor<?x{MLP_IN}xf32>, "
                 f"W1 {MLP_IN}x{MLP_HID}, W2 {MLP_HID}x{MLP_OUT} (hex constants)",
            mlir=lambda: mlp_mlir(*weights),
            numpy=mlp_numpy(*weights), jax=lambda jnp: mlp_jax(jnp, *weights),
            rtol=1e-4, atol=1e-4),
    }
    names = [w.strip() for w in args.workloads.split(",") if w.strip()]
    rows = []
    build_root = tempfile.mkdtemp(prefix="aot_dynbench_")
    try:
        t_all = time.perf_counter()
        for n in names:
            rows += run_workload(all_workloads[n], args, jax, jnp, build_root)
        print_table(rows, jax is not None, jax_note)
        print(f"\nload average at end: {bench_env.loadavg()}; whole run {time.perf_counter() - t_all:.1f} s")
    finally:
        shutil.rmtree(build_root, ignore_errors=True)


if __name__ == "__main__":
    main()
