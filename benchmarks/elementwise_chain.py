"""Benchmark: a fused chain of six elementwise ops on 2^24 f32 elements.

    .venv/bin/python benchmarks/elementwise_chain.py [--reps 15] [--warmup 2]
                                                      [--no-pin] [--no-inspect] [--threads 2]

A benchmark, not a test: it prints numbers and asserts nothing about time.
It compares, in one process and one run,

  * this project's compiled library (`aot.compile` of the StableHLO below),
    called as users call it (`lib.main(x)`, which allocates the result), and
    the same kernel writing into a preallocated result (`lib.main(x, out=buf)`,
    so the cost of allocating and first-touching a fresh 64 MiB result shows
    up as the difference between the two rows);
  * numpy written naturally (one temporary per op);
  * numpy in place (`out=`, one preallocated buffer);
  * `jax.jit` of the same function, when `import jax` works (never installed
    by this script);

for five workloads: the plain chain (mul, add, max, sub, abs, mul), the
same chain with `abs` replaced by one transcendental (tanh, exp or logistic),
and with it replaced by logistic(exp(tanh(.))), issue 15's transcendental chain.  It also
measures the machine's copy bandwidth with `np.copyto` and reports each
row's bandwidth as a fraction of it.  With `--threads N` the library and XLA run on N
threads (the process held to N CPUs), and %copy reads against what N cores copy: a
compiled `y = -x` on N threads, since numpy does not copy on N threads from Python reliably
(numpy's rows stay one thread).  See benchmarks/README.md.
"""
from __future__ import annotations

import os
import sys

from threads import configure_threads, threads_arg

THREADS = threads_arg(sys.argv)
PINNED = configure_threads(THREADS) if THREADS > 1 else None

import bench_env  # noqa: E402,F401  one thread everywhere unless fixed above; before numpy and jax

# isort: split

import argparse  # noqa: E402
import gc  # noqa: E402
import re  # noqa: E402
import statistics  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402

import numpy as np  # noqa: E402

ROOT = bench_env.ROOT

import aot  # noqa: E402

N = 1 << 24
T = f"tensor<{N}xf32>"
# Bytes a fused kernel has to move: read x once, write y once.  Every row's
# GB/s uses this same figure, so the column compares times, not traffic
# (numpy's natural form really moves ~6x more through its temporaries).
BYTES = 2 * 4 * N

# The fifth op of each workload (or ops, applied in turn, joined by "+"); everything else
# is shared.  `chain6+mix` is the transcendental chain: tanh, then exp, then logistic.
FIFTH = {"chain6": "abs", "chain6+tanh": "tanh", "chain6+exp": "exponential",
         "chain6+logistic": "logistic", "chain6+mix": "tanh+exponential+logistic"}


def mlir(fifth: str) -> str:
    """y = fifth(max(x * 1.5 + 0.25, 0) - 3) * x, with splat constants."""
    ops = fifth.split("+")
    body = "\n".join(f"  %4_{i} = stablehlo.{op} %{'3' if i == 0 else f'4_{i - 1}'} : {T}"
                     for i, op in enumerate(ops))
    return f"""func.func @main(%x: {T}) -> {T} {{
  %c_scale = stablehlo.constant dense<1.500000e+00> : {T}
  %c_shift = stablehlo.constant dense<2.500000e-01> : {T}
  %c_zero = stablehlo.constant dense<0.000000e+00> : {T}
  %c_three = stablehlo.constant dense<3.000000e+00> : {T}
  %0 = stablehlo.multiply %x, %c_scale : {T}
  %1 = stablehlo.add %0, %c_shift : {T}
  %2 = stablehlo.maximum %1, %c_zero : {T}
  %3 = stablehlo.subtract %2, %c_three : {T}
{body}
  %5 = stablehlo.multiply %4_{len(ops) - 1}, %x : {T}
  return %5 : {T}
}}
"""


def _np_logistic(x, out=None):
    """1 / (1 + exp(-x)) in ufuncs (in place when out is given)."""
    out = np.negative(x, out=out)
    np.exp(out, out=out)
    np.add(out, np.float32(1), out=out)
    return np.reciprocal(out, out=out)


def _compose(fs):
    def f(x, out=None):
        for g in fs:
            x = g(x, out=out)
        return x
    return f


def formula(fifth: str) -> str:
    """The workload as a formula, e.g. logistic(exp(tanh(max(x*1.5 + 0.25, 0) - 3))) * x."""
    ops = [{"abs": "absolute", "exponential": "exp"}.get(o, o) for o in fifth.split("+")]
    inner = "max(x*1.5 + 0.25, 0) - 3"
    for o in ops:
        inner = f"{o}({inner})"
    return f"{inner} * x"


_NP_OPS = {"abs": np.abs, "tanh": np.tanh, "exponential": np.exp, "logistic": _np_logistic}
NP_FIFTH = {f: _compose([_NP_OPS[o] for o in f.split("+")]) if "+" in f else _NP_OPS[f]
            for f in FIFTH.values()}


def numpy_natural(fifth: str):
    f = NP_FIFTH[fifth]
    s, b, t = np.float32(1.5), np.float32(0.25), np.float32(3.0)

    def run(x):
        return f(np.maximum(x * s + b, np.float32(0)) - t) * x
    return run


def numpy_inplace(fifth: str):
    f = NP_FIFTH[fifth]
    s, b, t, z = np.float32(1.5), np.float32(0.25), np.float32(3.0), np.float32(0)

    def run(x, out):
        np.multiply(x, s, out=out)
        np.add(out, b, out=out)
        np.maximum(out, z, out=out)
        np.subtract(out, t, out=out)
        f(out, out=out)
        np.multiply(out, x, out=out)
        return out
    return run


def jax_fn(jnp, fifth: str):
    import jax
    table = {"abs": jnp.abs, "tanh": jnp.tanh, "exponential": jnp.exp,
             "logistic": jax.nn.sigmoid}

    def f(v):
        for op in fifth.split("+"):
            v = table[op](v)
        return v

    def run(x):
        return f(jnp.maximum(x * jnp.float32(1.5) + jnp.float32(0.25), jnp.float32(0))
                 - jnp.float32(3.0)) * x
    return run


def copy_reference(dst: np.ndarray, src: np.ndarray, threads: int):
    """(what, fn): the copy %copy is read against. One thread: np.copyto. N threads: numpy
    cannot copy on N threads from Python reliably (np.copyto and ufuncs run the slices one
    after the other about half the time here), so a compiled `y = -x` (one read and one
    write per element, the same traffic as a copy) on the library's N threads stands in."""
    if threads == 1:
        return "np.copyto", lambda: np.copyto(dst, src)
    lib = aot.compile(f"""func.func @main(%x: {T}) -> {T} {{
  %y = stablehlo.negate %x : {T}
  return %y : {T}
}}
""", name="copy_reference")
    lib.set_num_threads(threads)
    return f"y = -x compiled here, {threads} threads", lambda: lib.main(src, out=dst)


def prealloc_call(lib, x: np.ndarray, out: np.ndarray):
    """lib.main writing into a caller-owned result buffer: the public
    `lib.main(x, out=buf)` (no allocation on the call).  Returns None when
    the library cannot take `out=` (e.g. a dynamic-shape result)."""
    try:
        def call(x):
            return lib.main(x, out=out)
        call(x)  # raises if the library cannot take out= for this signature
        return call
    except Exception as e:  # pragma: no cover - depends on the library's signature
        print(f"note: lib.main(x, out=...) unavailable ({type(e).__name__}: {e})")
        return None


def _summary(times: list) -> dict:
    return {"median": statistics.median(times), "min": min(times), "max": max(times)}


def timeit(fn, reps: int, warmup: int) -> dict:
    """Median/min/max seconds of fn() over reps calls, after warmup calls."""
    return time_interleaved([("", fn, None)], reps, warmup)[""]


def time_interleaved(impls, reps: int, warmup: int) -> dict:
    """{label: median/min/max seconds} for impls = [(label, fn, setup)].

    Round-robin: each repetition calls every implementation once, so load
    from other processes drifting over the run hits all of them alike and the
    ratios stay meaningful.  With a setup, fn(setup()) is timed, setup not."""
    for _label, fn, setup in impls:
        for _ in range(warmup):
            fn() if setup is None else fn(setup())
    times: dict = {label: [] for label, _, _ in impls}
    gc_was = gc.isenabled()
    gc.disable()
    try:
        for _ in range(reps):
            for label, fn, setup in impls:
                arg = None if setup is None else setup()
                t0 = time.perf_counter()
                fn() if setup is None else fn(arg)
                times[label].append(time.perf_counter() - t0)
                del arg
    finally:
        if gc_was:
            gc.enable()
    return {label: _summary(t) for label, t in times.items()}


def inspect_kernel(text: str, name: str) -> str:
    """Compiles once more with the optimised IR dumped and says what the loop
    became: vector width in the IR, and libm calls left in the machine code."""
    with tempfile.TemporaryDirectory() as d:
        aot.compile(text, name=name + "_inspect", dump_after=["llvm-opt"], dump_dir=d,
                    output_dir=os.path.join(d, "build"))
        files = [f for f in os.listdir(d) if f.endswith("llvm-opt.ll")]
        if not files:
            return "no llvm-opt dump"
        with open(os.path.join(d, files[0])) as f:
            ir_text = f.read()
    widths = sorted({int(w) for w in re.findall(r"<(\d+) x float>", ir_text)})
    ir_libm = sorted(set(re.findall(r"call (?:fast )?(?:<\d+ x )?float>? @(\w+f)\(", ir_text)))
    ir_intr = sorted(set(re.findall(r"@llvm\.(exp|tanh|log|sin|cos)\.(v\d+f32|f32)", ir_text)))
    parts = [f"IR vectors: {', '.join(f'<{w} x float>' for w in widths) or 'none (scalar)'}"]
    if ir_libm:
        parts.append(f"scalar libm calls in IR: {', '.join(ir_libm)}")
    if ir_intr:
        parts.append("math intrinsics: " + ", ".join(f"llvm.{a}.{b}" for a, b in ir_intr))
    try:  # what the backend made of it: count libm calls in the assembly
        import llvmlite.binding as llvm
        llvm.initialize_all_targets()
        llvm.initialize_all_asmprinters()
        target = llvm.Target.from_triple(llvm.get_process_triple())
        tm = target.create_target_machine(cpu=llvm.get_host_cpu_name(),
                                          features=llvm.get_host_cpu_features().flatten(),
                                          opt=3, reloc="pic")
        asm = tm.emit_assembly(llvm.parse_assembly(ir_text))
        libm = sorted(set(re.findall(r"\b(expf|tanhf|logf|sinf|cosf)\b", asm)))
        ymm = "ymm" in asm or "zmm" in asm
        desc = f"asm: {'ymm/zmm vector code' if ymm else 'no ymm/zmm registers'}"
        if libm:
            # calls after the libm symbol is first loaded, to the function's end:
            # the (unrolled) loop body's scalar libm calls, plus the error-path call
            m = re.search(r"\b(expf|tanhf|logf|sinf|cosf)\b", asm)
            body = asm[m.start():].split(".Lfunc_end", 1)[0]
            calls = len(re.findall(r"^\s*call\w*\s", body, re.M))
            desc += f", {calls} call instructions after {'/'.join(libm)} is loaded (scalar libm)"
        else:
            desc += ", no libm calls"
        parts.append(desc)
    except Exception as e:  # pragma: no cover
        parts.append(f"asm not inspected ({type(e).__name__})")
    return "; ".join(parts)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--reps", type=int, default=15, help="timed repetitions (median reported)")
    ap.add_argument("--warmup", type=int, default=2, help="untimed calls before timing")
    ap.add_argument("--no-pin", action="store_true", help="do not pin the process to one CPU")
    ap.add_argument("--no-inspect", action="store_true",
                    help="skip dumping the optimised IR / assembly of each kernel")
    ap.add_argument("--threads", type=int, default=1,
                    help="threads of the library, XLA and the reference copy (default 1)")
    ap.add_argument("--workloads", default=",".join(FIFTH),
                    help=f"comma-separated subset of {', '.join(FIFTH)}")
    args = ap.parse_args()

    pinned = PINNED or bench_env.pin_to_one_cpu(not args.no_pin)
    jax, jnp, jax_note = bench_env.probe_jax("XLA rows")
    bench_env.print_header("elementwise_chain benchmark", pinned, jax_note)
    print(f"load average at start: {bench_env.loadavg()} "
          f"(other processes on these cores add noise; see the min column)")
    print(f"threads: {args.threads} (the library and XLA; numpy's rows: 1)")
    print(f"n = 2^24 = {N} f32 ({4 * N / 2**20:.0f} MiB in, {4 * N / 2**20:.0f} MiB out); "
          f"reps = {args.reps}, warmup = {args.warmup}, statistic = median")
    print(f"AOTC cache: {aot.driver.cache_dir()}")
    print()

    rng = np.random.default_rng(0)
    x = rng.standard_normal(N, dtype=np.float32)
    out = np.empty_like(x)
    out.fill(0)  # first-touch the preallocated buffer outside every timing

    # --- memory bandwidth reference --------------------------------------------------
    dst = np.empty_like(x)
    dst.fill(0)
    copy_what, copy_fn = copy_reference(dst, x, args.threads)
    copy = timeit(copy_fn, args.reps, args.warmup)
    copy_bw = BYTES / copy["median"] / 1e9
    one_thread_copy = copy if args.threads == 1 else timeit(lambda: np.copyto(dst, x), args.reps,
                                                            args.warmup)
    fresh = timeit(lambda: np.copy(x), args.reps, args.warmup)
    alloc_ms = (fresh["median"] - one_thread_copy["median"]) * 1e3  # both numpy, one thread
    print(f"memory bandwidth ({copy_what}, 64 MiB -> 64 MiB, preallocated): "
          f"{copy['median'] * 1e3:.2f} ms = {copy_bw:.2f} GB/s (read + write)")
    print(f"np.copy into a fresh array: {fresh['median'] * 1e3:.2f} ms -> allocating and "
          f"first-touching a 64 MiB result costs ~{alloc_ms:.1f} ms per call")
    one = timeit(lambda: np.multiply(x, np.float32(2), out=dst), args.reps, args.warmup)
    print(f"one numpy elementwise pass (np.multiply(x, 2, out=dst)): {one['median'] * 1e3:.2f} ms "
          f"= {BYTES / one['median'] / 1e9:.2f} GB/s -- the floor for any single-pass kernel")
    dst = None  # 64 MiB freed before the workloads
    print()

    workloads = [w.strip() for w in args.workloads.split(",") if w.strip()]
    rows = []  # (workload, impl, timing)
    for wl in workloads:
        fifth = FIFTH[wl]
        text = mlir(fifth)
        t0 = time.perf_counter()
        lib = aot.compile(text, name=wl.replace("+", "_"))
        compile_s = time.perf_counter() - t0
        if hasattr(lib, "set_num_threads"):
            try:
                lib.set_num_threads(args.threads)
            except Exception:
                pass

        ref = numpy_natural(fifth)(x)
        ours = lib.main(x)
        raw = prealloc_call(lib, x, out)
        ip = numpy_inplace(fifth)
        checks = [("aot lib.main", ours)]
        if raw is not None:
            checks.append(("aot out=", raw(x).copy()))
        checks.append(("numpy in-place", ip(x, out).copy()))
        jfn = jdon = None
        xj = None
        if jax is not None:
            jfn = jax.jit(jax_fn(jnp, fifth))
            # XLA may write the result into a donated input: its fused loop
            # without the cost of a fresh result buffer (cf. aot, prealloc out)
            jdon = jax.jit(jax_fn(jnp, fifth), donate_argnums=0)
            xj = jax.device_put(x)
            checks.append(("jax.jit", np.asarray(jfn(xj).block_until_ready())))
            checks.append(("jax.jit donated", np.asarray(jdon(jnp.array(x, copy=True)))))
        print(f"[{wl}] y = {formula(fifth)}"
              f"   (compile + load: {compile_s:.2f} s)")
        denom = np.maximum(np.abs(ref), 1.0)
        for label, got in checks:
            err = np.abs(got.astype(np.float64) - ref)
            print(f"  check {label:<15} max abs err {err.max():.3g}, "
                  f"max err/max(|ref|,1) {(err / denom).max():.3g}")
        if not args.no_inspect:
            print(f"  kernel: {inspect_kernel(text, wl.replace('+', '_'))}")
        del checks, ref
        gc.collect()

        impls = [("aot lib.main(x)", lambda: lib.main(x), None)]
        if raw is not None:
            impls.append(("aot, prealloc out", lambda: raw(x), None))
        nat = numpy_natural(fifth)
        impls.append(("numpy natural", lambda: nat(x), None))
        impls.append(("numpy in-place", lambda: ip(x, out), None))
        if jfn is not None:
            impls.append(("jax.jit (XLA)", lambda: jfn(xj).block_until_ready(), None))
            # a fresh (touched) copy of x per call, made outside the timing
            impls.append(("jax.jit, donated x", lambda a: jdon(a).block_until_ready(),
                          lambda: jnp.array(x, copy=True).block_until_ready()))
        gc.collect()
        timed = time_interleaved(impls, args.reps, args.warmup)
        rows += [(wl, label, timed[label]) for label, _, _ in impls]
        gc.collect()
        print()

    # --- table -------------------------------------------------------------------------
    by = {(w, i): t["median"] for w, i, t in rows}
    has_xla = any(i == "jax.jit (XLA)" for _, i, _ in rows)
    head = (f"{'workload':<12} {'implementation':<18} {'median ms':>9} {'min ms':>8} "
            f"{'GB/s':>6} {'%copy':>6} {'vs numpy':>8}")
    if has_xla:
        head += f" {'vs XLA':>7}"
    print(head)
    print("-" * len(head))
    for wl, impl, t in rows:
        med = t["median"]
        gbs = BYTES / med / 1e9
        line = (f"{wl:<12} {impl:<18} {med * 1e3:9.2f} {t['min'] * 1e3:8.2f} "
                f"{gbs:6.2f} {gbs / copy_bw:6.0%} {by[(wl, 'numpy natural')] / med:7.2f}x")
        if has_xla:
            xla = by.get((wl, "jax.jit (XLA)"))
            line += f" {xla / med:6.2f}x" if xla else f" {'-':>7}"
        print(line)
    print()
    print("GB/s = (4 B read + 4 B written) * 2^24 / median time, the traffic of one fused pass "
          "for every row;")
    print(f"%copy = that as a fraction of the copy's bandwidth ({copy_what}); "
          "vs numpy / vs XLA = median of 'numpy natural' / 'jax.jit (XLA)' over this row's "
          "(>1: this row is faster).")
    print("'aot lib.main(x)' gets its 64 MiB result from the runtime's caching allocator each "
          "call (as users call it: the block a dropped result gave back); 'aot, prealloc out' "
          "is the same kernel writing into the caller's buffer.")
    if not has_xla:
        print("XLA column omitted: " + jax_note)


if __name__ == "__main__":
    main()
