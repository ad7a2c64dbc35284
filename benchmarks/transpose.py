"""Benchmark: transposes that move the last dim, against numpy and XLA (issue 28).

    /work/jaxenv/bin/python benchmarks/transpose.py [--rounds 9] [--threads 1]
        [--build DIR]            compile every case into DIR (the aot on PYTHONPATH), no timing
        [--libs A=DIR,B=DIR]     time the libraries built there (A/B of two compilers), else
                                 compile here with this checkout

Each case is a `stablehlo.transpose` of an f32 input (static, and with a `?` batch dim), timed
interleaved in one process beside numpy's `np.ascontiguousarray(x.transpose(perm))` and
`jax.jit` of the same transpose compiled for the exact shape (when jax imports). Per round,
each gets one untimed call and then calls until 20 ms have passed; CPU time per call
(process_time; wall time with --threads above 1), median and range over the rounds.
Results are checked against numpy.
"""
from __future__ import annotations

import sys

from threads import configure_threads, threads_arg

_THREADS = threads_arg(sys.argv)
configure_threads(_THREADS)

import bench_env  # noqa: E402,F401  sys.path

# isort: split

import argparse  # noqa: E402
import gc  # noqa: E402
import os  # noqa: E402
import statistics  # noqa: E402
import time  # noqa: E402

import numpy as np  # noqa: E402

import aot  # noqa: E402

CASES = [  # (shape, permutation)
    ((32, 128, 32, 32), (0, 2, 3, 1)),  # NCHW -> NHWC
    ((32, 32, 32, 128), (0, 3, 1, 2)),  # NHWC -> NCHW
    ((32, 128, 32, 32), (0, 3, 1, 2)),
    ((4096, 1024), (1, 0)),
    ((8, 64, 197), (0, 2, 1)),
    ((8, 197, 12, 64), (0, 2, 3, 1)),  # attention's k^T per head
    ((1, 1000, 1000), (0, 2, 1)),
    ((32, 128, 256), (0, 2, 1)),
]


def ty(shape) -> str:
    return "tensor<" + "".join(f"{d}x" for d in shape) + "f32>"


def program(shape, perm, dynamic: bool) -> str:
    src = ("?",) + tuple(shape[1:]) if dynamic else tuple(shape)
    out = tuple(src[p] for p in perm)
    return (f"func.func @main(%x: {ty(src)}) -> {ty(out)} {{\n"
            f"  %y = stablehlo.transpose %x, dims = {list(perm)} : ({ty(src)}) -> {ty(out)}\n"
            f"  return %y : {ty(out)}\n}}")


def case_name(shape, perm, dynamic: bool) -> str:
    return (f"tr_{'x'.join(map(str, shape))}_{''.join(map(str, perm))}"
            f"{'_dyn' if dynamic else ''}")


def build(out_dir: str | None) -> dict:
    """{(case index, dynamic): library}, compiled with the aot on the path."""
    libs = {}
    for i, (shape, perm) in enumerate(CASES):
        for dynamic in (False, True):
            name = case_name(shape, perm, dynamic)
            out = None if out_dir is None else os.path.join(out_dir, name)
            libs[i, dynamic] = aot.compile(program(shape, perm, dynamic), name=name,
                                           output_dir=out)
    return libs


def load(out_dir: str) -> dict:
    libs = {}
    for i, (shape, perm) in enumerate(CASES):
        for dynamic in (False, True):
            name = case_name(shape, perm, dynamic)
            libs[i, dynamic] = aot.load(os.path.join(out_dir, name, f"lib{name}.so"))
            libs[i, dynamic].set_num_threads(_THREADS)
    return libs


def per_call(fn, budget=0.02) -> float:
    clock = time.process_time if _THREADS == 1 else time.perf_counter
    fn()
    n, t0 = 0, clock()
    while True:
        fn()
        n += 1
        t = clock() - t0
        if t >= budget:
            return t / n


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=9)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--build")
    ap.add_argument("--libs", default="")
    ap.add_argument("--no-xla", action="store_true")
    args = ap.parse_args()
    if args.build:
        build(args.build)
        return 0
    variants = {}
    for spec in filter(None, args.libs.split(",")):
        label, path = spec.split("=", 1)
        variants[label] = load(path)
    if not variants:
        variants["aot"] = build(None)
        for lib in variants["aot"].values():
            lib.set_num_threads(_THREADS)
    jax = None
    if not args.no_xla:
        try:
            import jax
        except ImportError:
            pass
    rng = np.random.default_rng(0)
    rows = []  # (label, {name: fn})
    for i, (shape, perm) in enumerate(CASES):
        x = rng.standard_normal(shape, dtype=np.float32)
        want = np.ascontiguousarray(x.transpose(perm))
        fns = {"numpy": lambda x=x, perm=perm: np.ascontiguousarray(x.transpose(perm))}
        if jax is not None:
            f = jax.jit(lambda a, perm=perm: a.transpose(perm))
            xd = jax.device_put(x)
            fns["xla"] = lambda f=f, xd=xd: f(xd).block_until_ready()
        for label, libs in variants.items():
            for dynamic in (False, True):
                lib = libs[i, dynamic]
                got = np.asarray(lib.main(x))
                if not np.array_equal(got, want):
                    raise SystemExit(f"{label} {case_name(shape, perm, dynamic)}: wrong result")
                fns[f"{label}{' ?' if dynamic else ''}"] = lambda lib=lib, x=x: lib.main(x)
        rows.append((f"{list(shape)} {list(perm)}", fns))
    times = {(r, k): [] for r, (_, fns) in enumerate(rows) for k in fns}
    gc.collect()
    gc.disable()
    for _ in range(args.rounds):
        for r, (_, fns) in enumerate(rows):
            for k, fn in fns.items():
                times[r, k].append(per_call(fn))
    gc.enable()
    clock = "CPU" if _THREADS == 1 else "wall"
    print(f"f32 transposes, {_THREADS} thread(s), {args.rounds} rounds, {clock} ms per call: median "
          f"[min-max]; load average {bench_env.loadavg()}")
    for r, (label, fns) in enumerate(rows):
        cells = []
        for k in fns:
            ts = [t * 1e3 for t in times[r, k]]
            cells.append(f"{k} {statistics.median(ts):.3f} [{min(ts):.3f}-{max(ts):.3f}]")
        print(f"{label:<28} " + "; ".join(cells))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
