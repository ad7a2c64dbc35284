"""Benchmark: does every kernel kind use every thread whatever its shape? (issue 28)

    .venv/bin/python benchmarks/shape_split.py [--n 1048576] [--rounds 15] [--calls 10]
                                               [--threads 2] [--kinds ew,rowsum,...]

The same work, N f32 elements, laid out as [N], [1, N], [2, N/2] and [1, 1, N], for each
kernel kind: a kLoop elementwise chain (exp(tanh x)), a row reduction (sum of the last dim),
a column reduction (sum of dim 0 of [32, shape/32]: its result has the shape), a transpose
(negated, from the shape with its last two dims swapped), a broadcast (x + a row vector), a
concatenation (two halves of the last dim) and a softmax of the last dim (a row fusion);
each static and with every dim `?` (the `dyn` rows). All libraries are loaded into one
process and called interleaved: per round, each shape gets one untimed call and then
`--calls` timed ones. Prints per shape the median and the best per-call time over the
rounds and the ratio to [N] (the goal: [1, N] within 1.1x of [N]). Wall-clock times on a
shared 2-core machine are noisy: read the best-of beside the median. A benchmark, not a
test: only the results are checked, against numpy.
"""
from __future__ import annotations

import sys

from threads import configure_threads, threads_arg

_THREADS = threads_arg(sys.argv) if "--threads" in " ".join(sys.argv) else 2
configure_threads(_THREADS)

import bench_env  # noqa: E402,F401  sys.path

# isort: split

import argparse  # noqa: E402
import gc  # noqa: E402
import statistics  # noqa: E402
import time  # noqa: E402

import numpy as np  # noqa: E402

import aot  # noqa: E402

COL_ROWS = 32  # the column reduction sums [32, shape / 32] over dim 0


def t(shape) -> str:
    return "tensor<" + "".join(f"{d}x" for d in shape) + "f32>"


def dyn(shape) -> tuple:
    return tuple("?" for _ in shape)


def shape_ops(x: str, rank: int, name: str = "sh") -> list:
    """StableHLO lines building %name, the run-time shape of %x (rank dims, all `?`)."""
    lines = []
    for d in range(rank):
        lines += [f"%{name}d{d} = stablehlo.get_dimension_size %{x}, dim = {d} : "
                  f"({t(('?',) * rank)}) -> tensor<i32>",
                  f"%{name}r{d} = stablehlo.reshape %{name}d{d} : (tensor<i32>) -> tensor<1xi32>"]
    parts = ", ".join(f"%{name}r{d}" for d in range(rank))
    lines.append(f"%{name} = stablehlo.concatenate {parts}, dim = 0 : "
                 f"({', '.join(['tensor<1xi32>'] * rank)}) -> tensor<{rank}xi32>")
    return lines


def func(args: list, result: str, lines: list, ret: str) -> str:
    sig = ", ".join(f"%{n}: {ty}" for n, ty in args)
    body = "\n  ".join(lines)
    return f"func.func @main({sig}) -> {result} {{\n  {body}\n  return %{ret} : {result}\n}}"


def ew(shape, dynamic):
    s = t(dyn(shape) if dynamic else shape)
    return func([("x", s)], s, [f"%a = stablehlo.tanh %x : {s}",
                                f"%y = stablehlo.exponential %a : {s}"], "y")


def rowsum(shape, dynamic):
    sh = dyn(shape) if dynamic else shape
    s, r = t(sh), t(sh[:-1])
    return func([("x", s)], r, [
        "%z = stablehlo.constant dense<0.0> : tensor<f32>",
        f"%y = stablehlo.reduce(%x init: %z) applies stablehlo.add across dimensions = "
        f"[{len(sh) - 1}] : ({s}, tensor<f32>) -> {r}"], "y")


def colsum(shape, dynamic):
    sh = dyn(shape) if dynamic else shape
    src = ("?",) + sh if dynamic else (COL_ROWS,) + sh[:-1] + (sh[-1] // COL_ROWS,)
    out = sh if dynamic else src[1:]
    return func([("x", t(src))], t(out), [
        "%z = stablehlo.constant dense<0.0> : tensor<f32>",
        f"%y = stablehlo.reduce(%x init: %z) applies stablehlo.add across dimensions = [0] : "
        f"({t(src)}, tensor<f32>) -> {t(out)}"], "y")


def transpose(shape, dynamic):
    if len(shape) == 1:  # [N]: the plain negation, the [N] baseline
        s = t(dyn(shape) if dynamic else shape)
        return func([("x", s)], s, [f"%y = stablehlo.negate %x : {s}"], "y")
    sh = dyn(shape) if dynamic else shape
    perm = list(range(len(sh) - 2)) + [len(sh) - 1, len(sh) - 2]
    src = tuple(sh[p] for p in perm)
    return func([("x", t(src))], t(sh), [
        f"%p = stablehlo.transpose %x, dims = {perm} : ({t(src)}) -> {t(sh)}",
        f"%y = stablehlo.negate %p : {t(sh)}"], "y")


def broadcast(shape, dynamic):
    sh = dyn(shape) if dynamic else shape
    s, v = t(sh), t(sh[-1:])
    if len(sh) == 1:
        return func([("x", s), ("v", v)], s, [f"%y = stablehlo.add %x, %v : {s}"], "y")
    if not dynamic:
        lines = [f"%b = stablehlo.broadcast_in_dim %v, dims = [{len(sh) - 1}] : ({v}) -> {s}"]
    else:
        lines = shape_ops("x", len(sh)) + [
            f"%b = stablehlo.dynamic_broadcast_in_dim %v, %sh, dims = [{len(sh) - 1}] : "
            f"({v}, tensor<{len(sh)}xi32>) -> {s}"]
    return func([("x", s), ("v", v)], s, lines + [f"%y = stablehlo.add %x, %b : {s}"], "y")


def concat(shape, dynamic):
    half = shape[:-1] + (shape[-1] // 2,)
    h, s = (t(dyn(half)), t(dyn(shape))) if dynamic else (t(half), t(shape))
    return func([("a", h), ("b", h)], s, [
        f"%y = stablehlo.concatenate %a, %b, dim = {len(shape) - 1} : ({h}, {h}) -> {s}"], "y")


def softmax(shape, dynamic):
    """exp(x - max) / sum over the last dim: a row fusion (bufferize.split_row_fusion splits
    few long rows, and a run-time row count when the kernels run)."""
    sh = dyn(shape) if dynamic else shape
    s, r, rank = t(sh), t(sh[:-1]), len(sh)
    keep = list(range(rank - 1))
    lines = shape_ops("x", rank) if dynamic else []

    def spread(v, name):
        if dynamic:
            return (f"%{name} = stablehlo.dynamic_broadcast_in_dim %{v}, %sh, dims = {keep} : "
                    f"({r}, tensor<{rank}xi32>) -> {s}")
        return f"%{name} = stablehlo.broadcast_in_dim %{v}, dims = {keep} : ({r}) -> {s}"
    lines += [
        "%lo = stablehlo.constant dense<0xFF800000> : tensor<f32>",
        "%z = stablehlo.constant dense<0.0> : tensor<f32>",
        f"%m = stablehlo.reduce(%x init: %lo) applies stablehlo.maximum across dimensions = "
        f"[{rank - 1}] : ({s}, tensor<f32>) -> {r}", spread("m", "mb"),
        f"%d = stablehlo.subtract %x, %mb : {s}",
        f"%e = stablehlo.exponential %d : {s}",
        f"%u = stablehlo.reduce(%e init: %z) applies stablehlo.add across dimensions = "
        f"[{rank - 1}] : ({s}, tensor<f32>) -> {r}", spread("u", "ub"),
        f"%y = stablehlo.divide %e, %ub : {s}"]
    return func([("x", s)], s, lines, "y")


def inputs_of(kind, shape, rng):
    n = int(np.prod(shape))
    x = rng.standard_normal(n, dtype=np.float32)
    if kind == "colsum":
        return [x.reshape((COL_ROWS,) + shape[:-1] + (shape[-1] // COL_ROWS,))]
    if kind == "transpose" and len(shape) > 1:
        return [x.reshape(shape[:-2] + (shape[-1], shape[-2]))]
    if kind == "broadcast":
        return [x.reshape(shape), rng.standard_normal(shape[-1], dtype=np.float32)]
    if kind == "concat":
        half = shape[:-1] + (shape[-1] // 2,)
        return [x[: n // 2].reshape(half), x[n // 2:].reshape(half)]
    return [x.reshape(shape)]


def reference(kind, shape, inputs):
    a = [i.astype(np.float64) for i in inputs]
    return {"ew": lambda: np.exp(np.tanh(a[0])),
            "rowsum": lambda: a[0].sum(axis=-1),
            "colsum": lambda: a[0].sum(axis=0),
            "transpose": lambda: -(np.swapaxes(a[0], -1, -2) if len(shape) > 1 else a[0]),
            "broadcast": lambda: a[0] + a[1],
            "concat": lambda: np.concatenate(a, axis=-1),
            "softmax": lambda: np.exp(a[0] - a[0].max(-1, keepdims=True))
            / np.exp(a[0] - a[0].max(-1, keepdims=True)).sum(-1, keepdims=True)}[kind]()


KINDS = {"ew": ew, "rowsum": rowsum, "colsum": colsum, "transpose": transpose,
         "broadcast": broadcast, "concat": concat, "softmax": softmax}


def shapes(n: int) -> list:
    return [(n,), (1, n), (2, n // 2), (1, 1, n)]


def run(kinds, n, rounds, calls, forms) -> None:
    rng = np.random.default_rng(0)
    cases = []  # (kind, form, shape, lib, inputs)
    for kind in kinds:
        for form in forms:
            for shape in shapes(n):
                text = KINDS[kind](shape, form == "dyn")
                name = f"split_{kind}_{form}_{'x'.join(map(str, shape))}"
                lib = aot.compile(text, name=name)
                lib.set_num_threads(_THREADS)
                inputs = inputs_of(kind, shape, rng)
                got, want = np.asarray(lib.main(*inputs)), reference(kind, shape, inputs)
                err = float(np.abs(got.reshape(want.shape) - want).max())
                if not err <= 1e-3 * max(1.0, float(np.abs(want).max())):
                    raise SystemExit(f"{name}: wrong result, max error {err:.3g}")
                cases.append((kind, form, shape, lib, inputs))
    times = {i: [] for i in range(len(cases))}
    gc.collect()
    gc.disable()
    for _ in range(rounds):
        for i, (_k, _f, _s, lib, inputs) in enumerate(cases):
            lib.main(*inputs)
            t0 = time.perf_counter()
            for _ in range(calls):
                lib.main(*inputs)
            times[i].append((time.perf_counter() - t0) / calls)
    gc.enable()
    print(f"{n} f32 elements, {_THREADS} thread(s), {rounds} rounds of {calls} calls; "
          f"load average {bench_env.loadavg()}")
    print(f"{'kind':<10} {'form':<6} {'shape':<14} {'median us':>10} {'best us':>9} "
          f"{'med/[N]':>8} {'best/[N]':>8}")
    base = {}
    for i, (kind, form, shape, _lib, _in) in enumerate(cases):
        med, best = statistics.median(times[i]) * 1e6, min(times[i]) * 1e6
        if len(shape) == 1:
            base[kind, form] = (med, best)
        bm, bb = base[kind, form]
        print(f"{kind:<10} {form:<6} {str(list(shape)):<14} {med:10.1f} {best:9.1f} "
              f"{med / bm:8.2f} {best / bb:8.2f}")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--n", type=int, default=1 << 20)
    ap.add_argument("--rounds", type=int, default=15)
    ap.add_argument("--calls", type=int, default=10)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--kinds", default=",".join(KINDS))
    ap.add_argument("--forms", default="static,dyn")
    args = ap.parse_args()
    run([k for k in args.kinds.split(",") if k], args.n, args.rounds, args.calls,
        [f for f in args.forms.split(",") if f])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
