"""Whole models against XLA: the GPT-style decoder (also scaled to 100 MB of weights) and
ResNet-style CNN of model_defs.py, with their weights as arguments and frozen in as
constants, compiled by this project and (when JAX is installed) by `jax.jit`, in one run.
Prints the model table (run time, ratio to XLA) and the compile-time table (this compiler's
stages and peak memory, XLA's compile). A benchmark, not a test:
it asserts nothing about time; the libraries' results are checked against XLA's.

    python benchmarks/models.py [--reps 20] [--models gpt_decoder,resnet_cnn] [--threads 2]

Without JAX, the models' StableHLO comes from benchmarks/data/ and the XLA columns say so.
"""
from __future__ import annotations

import sys

from threads import configure_threads, threads_arg

THREADS = threads_arg(sys.argv)
PINNED = configure_threads(THREADS) if THREADS > 1 else None

import bench_env  # noqa: E402  one thread everywhere unless fixed above; before numpy and jax

# isort: split

import argparse  # noqa: E402
import json  # noqa: E402
import os  # noqa: E402
import re  # noqa: E402
import subprocess  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402

import numpy as np  # noqa: E402

import model_defs  # noqa: E402
from abi.loader import Library  # noqa: E402


def _jax():
    try:
        import jax
        return jax
    except ImportError:
        return None


def freeze(text: str, weights: list) -> str:
    """The module with @main's first len(weights) arguments turned into dense hex constants
    (a frozen graph, as tfcompile builds them)."""
    head = re.search(r"func\.func public @main\((.*?)\) ->", text)
    args = re.findall(r"(%arg\d+): (tensor<[^>]*>)", head.group(1))
    kept = ", ".join(f"{n}: {t}" for n, t in args[len(weights):])
    body_start = text.index("{\n", head.end()) + 1  # the body (result attributes use {} too)
    consts = "".join(f'\n    {n} = stablehlo.constant dense<"0x{w.tobytes().hex()}"> : {t}'
                     for (n, t), w in zip(args, weights))
    return (text[:head.start(1)] + kept + text[head.end(1):body_start] + consts
            + text[body_start:])


STAGES = """
import json, resource, sys, time
from aot.driver import Compilation, Options
from lowering.frontend.source import read_source
text_path, name, out = sys.argv[1:]
comp = Compilation(read_source(text_path), text_path, Options(name=name, emit="shared"))
stages, t = {}, time.perf_counter()
comp.module  # parsed now
stages["parse"], t = time.perf_counter() - t, time.perf_counter()
comp.loops()
stages["to loops"], t = time.perf_counter() - t, time.perf_counter()
comp.build(out)  # LLVM IR, then optimisation and code generation on every core, and link
stages["LLVM + link"] = time.perf_counter() - t
# this process's high-water mark (ru_maxrss would carry the benchmark's own across the exec)
with open("/proc/self/status") as f:
    own = next(int(line.split()[1]) for line in f if line.startswith("VmHWM")) / 1024
print(json.dumps([stages, own, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024]))
"""


ALL_CPUS = os.sched_getaffinity(0)  # before main() pins the timed calls to one of them


def compile_stages(text: str, name: str, out_dir: str) -> tuple:
    """(library, {stage: seconds}, (peak MB, children's peak MB)): parse, HLO passes to the
    loop IR, then LLVM (IR, its optimisation and code generation, on every core) and link. Run
    in a fresh process reading the file as `aotc` does (a large one mapped, its hex constants
    set aside): one with JAX loaded compiles on one core (machine.parallel_jobs). The peaks are
    the largest resident sets of the compiler process and of its largest child (LLVM's forked
    workers, which share the parent's pages, the C compiler, the linker)."""
    path = f"{out_dir}/lib{name}.so"
    with open(f"{out_dir}/{name}.mlir", "w") as f:
        f.write(text)
    run = subprocess.run([sys.executable, "-c", STAGES, f.name, name, path], cwd=bench_env.ROOT,
                         capture_output=True, text=True, check=True,
                         preexec_fn=lambda: os.sched_setaffinity(0, ALL_CPUS))  # not pinned
    stages, own, child = json.loads(run.stdout.splitlines()[-1])
    return Library(path), stages, (own, child)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--reps", type=int, default=20)
    ap.add_argument("--models", default=",".join(model_defs.MODELS))
    ap.add_argument("--no-pin", action="store_true", help="do not pin to one CPU (XLA's runtime "
                    "may then use a second core despite its flags)")
    ap.add_argument("--threads", type=int, default=1, help="threads of both compilers' "
                    "run times (and CPUs the process may use)")
    args = ap.parse_args()
    pinned = PINNED or bench_env.pin_to_one_cpu(not args.no_pin)
    jax = _jax()
    print(f"# whole models, {THREADS} thread(s), pinned: {pinned}, {bench_env.cpu_name()}, load "
          f"{bench_env.loadavg()}; XLA: "
          f"{'jax ' + jax.__version__ if jax else 'not installed (pip install jax for its columns)'}")
    run_rows, compile_rows = [], []
    for name in args.models.split(","):
        weights_fn, forward, make_input = model_defs.MODELS[name]
        rng = np.random.default_rng(0)
        p = weights_fn(rng)
        x = make_input(rng)
        names = sorted(p)
        weights = [p[k] for k in names]
        weights_mb = sum(w.nbytes for w in weights) / 1e6
        if jax:
            text = model_defs.export_text(name)
        else:
            with open(f"{model_defs.DATA}/{name}.mlir") as f:
                text = f.read()
        frozen = freeze(text, weights)
        xla = xla_frozen = None
        if jax:
            def f(*a):
                return forward(dict(zip(names, a[:-1])), a[-1])
            t = time.perf_counter()
            xla = jax.jit(f).lower(*weights, x).compile()
            xla_compile = time.perf_counter() - t
            t = time.perf_counter()
            constants = {k: jax.numpy.asarray(v) for k, v in p.items()}  # closed over: frozen
            xla_frozen = jax.jit(lambda xx: forward(constants, xx)).lower(x).compile()
            xla_frozen_compile = time.perf_counter() - t
            want = np.asarray(xla(*weights, x))
        for form, src, call_args, xla_fn, xla_c in (
                ("weights as arguments", text, weights + [x], xla, xla_compile if jax else None),
                ("frozen", frozen, [x], xla_frozen, xla_frozen_compile if jax else None)):
            with tempfile.TemporaryDirectory() as tmp:
                lib, stages, peak_mb = compile_stages(src, name, tmp)
                got = lib.main(*call_args)
                if jax:
                    np.testing.assert_allclose(got, want, rtol=2e-3, atol=2e-3,
                                               err_msg=f"{name} ({form})")
                aot_ms = bench_env.median_ms(lambda: lib.main(*call_args), args.reps)
                xla_ms = (bench_env.median_ms(lambda: xla_fn(*call_args).block_until_ready(), args.reps)
                          if jax else None)
            run_rows.append((name, form, aot_ms, xla_ms))
            compile_rows.append((name, form, len(src) / 1e6, weights_mb, stages, peak_mb, xla_c))

    print("\n| model | form | aotc ms | XLA ms | XLA / aotc |\n|---|---|---|---|---|")
    for name, form, a, x in run_rows:
        ratio = f"{x / a:.2f}x" if x else "-"
        print(f"| {name} | {form} | {a:.2f} | {f'{x:.2f}' if x else '-'} | {ratio} |")
    print("\n| model | form | text MB | parse s | to loops s | LLVM + link s "
          "| aotc total s | XLA compile s | aotc peak MB (frozen: / weights) | largest child MB |\n"
          "|---|---|---|---|---|---|---|---|---|---|")
    for name, form, mb, wmb, st, peak, xc in compile_rows:
        total = sum(st.values())
        print(f"| {name} | {form} | {mb:.1f} | " + " | ".join(f"{v:.2f}" for v in st.values())
              + f" | {total:.2f} | {f'{xc:.2f}' if xc else '-'} | {peak[0]:.0f}"
              + (f" ({peak[0] / wmb:.1f}x)" if form == "frozen" else "") + f" | {peak[1]:.0f} |")


if __name__ == "__main__":
    main()
