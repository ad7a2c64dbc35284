"""Matrix-vector products at memory speed: the few-row matmul alone, against numpy and the
machine's read bandwidth, in one run.

    .venv/bin/python benchmarks/matvec.py [--threads N] [--reps N] [--rows M]

Decoding one token (benchmarks/decode.py) is x[1, K] @ W[K, N] for every weight matrix, each
weight read once from memory: its time is the weights' bytes over the read bandwidth. Timed
here: the products of a decoder layer, [M, 512] @ [512, 2048] and [M, 2048] @ [2048, 512]
(f32), each call multiplying one x by GROUP weight matrices (one library call, so Python's
call cost is spread over 32 MB of weights), alternating between two such groups (64 MB, twice
the L3 cache), so the weights come from memory as in decoding; numpy (OpenBLAS) does the same
GROUP products per call on the same weights. The read bandwidth is measured in the same run:
a sum of a 64 MB f32 array by numpy and by a compiled library (split over the threads), best
of each. GB/s counts the weights' bytes only.

A benchmark, not a test: it asserts nothing about time; the library's products are checked
against numpy's.
"""
from __future__ import annotations

import sys

from threads import configure_threads, threads_arg

THREADS = threads_arg(sys.argv)
PINNED = configure_threads(THREADS)

import bench_env  # noqa: E402,F401  the repository importable; thread counts fixed above

# isort: split

import argparse  # noqa: E402
import statistics  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402

import numpy as np  # noqa: E402

import aot  # noqa: E402

GROUP = 8
SHAPES = ((512, 2048), (2048, 512))
READ_ELEMS = 1 << 24  # 64 MB of f32


def products_program(m: int, k: int, n: int) -> str:
    """x[m, k] times GROUP weights [k, n], GROUP results."""
    xt, wt, ot = f"tensor<{m}x{k}xf32>", f"tensor<{k}x{n}xf32>", f"tensor<{m}x{n}xf32>"
    ws = ", ".join(f"%w{i}: {wt}" for i in range(GROUP))
    lines = [f"  %y{i} = stablehlo.dot_general %x, %w{i}, contracting_dims = [1] x [0] : "
             f"({xt}, {wt}) -> {ot}" for i in range(GROUP)]
    outs = ", ".join(f"%y{i}" for i in range(GROUP))
    return (f"func.func @main(%x: {xt}, {ws}) -> ({', '.join([ot] * GROUP)}) {{\n"
            + "\n".join(lines) + f"\n  return {outs} : {', '.join([ot] * GROUP)}\n}}")


SUM_PROGRAM = """func.func @main(%a: tensor<1x16777216xf32>) -> tensor<1xf32> {
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %s = stablehlo.reduce(%a init: %z) applies stablehlo.add across dimensions = [1] : (tensor<1x16777216xf32>, tensor<f32>) -> tensor<1xf32>
  return %s : tensor<1xf32>
}"""  # noqa: E501


def timed(fns: dict, reps: int) -> dict:
    """{name: (best wall s, median wall s, median CPU s)} of each fn, interleaved rounds
    after one warm-up round."""
    wall, cpu = {k: [] for k in fns}, {k: [] for k in fns}
    for fn in fns.values():
        fn()
    for _ in range(reps):
        for name, fn in fns.items():
            t, tc = time.perf_counter(), time.process_time()
            fn()
            cpu[name].append(time.process_time() - tc)
            wall[name].append(time.perf_counter() - t)
    return {k: (min(wall[k]), statistics.median(wall[k]), statistics.median(cpu[k])) for k in fns}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--reps", type=int, default=15)
    ap.add_argument("--rows", type=int, nargs="*", default=[1], help="M values (default 1)")
    args = ap.parse_args()
    print(f"# matvec — threads {THREADS} ({PINNED}), load {bench_env.loadavg()}, "
          f"cpu {bench_env.cpu_name()}")
    rng = np.random.default_rng(0)
    big = np.ones((1, READ_ELEMS), np.float32)
    with tempfile.TemporaryDirectory() as tmp:
        summer = aot.compile(SUM_PROGRAM, name="read_bw", output_dir=tmp)
        summer.set_num_threads(THREADS)
        t = timed({"numpy sum": lambda: big.sum(), "ours sum": lambda: summer.main(big)}, args.reps)
        read = {k: big.nbytes / v[0] / 1e9 for k, v in t.items()}
        print(f"read bandwidth (best): numpy sum {read['numpy sum']:.1f} GB/s, "
              f"compiled sum {read['ours sum']:.1f} GB/s")
        bw = max(read.values())
        print("\n| product | ours ms (best / median wall, median CPU) | numpy ms (same) "
              "| ours GB/s | numpy GB/s | ours / read bw |\n|---|---|---|---|---|---|")
        for m in args.rows:
            for k, n in SHAPES:
                lib = aot.compile(products_program(m, k, n), name=f"mv{m}_{k}_{n}", output_dir=tmp)
                lib.set_num_threads(THREADS)
                groups = [[rng.standard_normal((k, n)).astype(np.float32) for _ in range(GROUP)]
                          for _ in range(2)]
                x = rng.standard_normal((m, k)).astype(np.float32)
                for got, w in zip(lib.main(x, *groups[0]), groups[0]):
                    np.testing.assert_allclose(got, x.astype(np.float64) @ w, rtol=1e-4, atol=1e-3)
                turn = [0]

                def ours():
                    turn[0] ^= 1
                    lib.main(x, *groups[turn[0]])

                def numpy():
                    turn[0] ^= 1
                    for w in groups[turn[0]]:
                        x @ w
                r = timed({"ours": ours, "numpy": numpy}, args.reps)
                nbytes = GROUP * k * n * 4
                o, p = r["ours"], r["numpy"]
                print(f"| [{m},{k}]x[{k},{n}] | {o[0] * 1e3:.2f} / {o[1] * 1e3:.2f}, {o[2] * 1e3:.2f} "
                      f"| {p[0] * 1e3:.2f} / {p[1] * 1e3:.2f}, {p[2] * 1e3:.2f} "
                      f"| {nbytes / o[0] / 1e9:.1f} | {nbytes / p[0] / 1e9:.1f} "
                      f"| {nbytes / o[0] / 1e9 / bw:.2f} |", flush=True)


if __name__ == "__main__":
    main()
