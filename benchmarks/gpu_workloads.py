"""The GPU runtime issue's workloads on a machine with an NVIDIA GPU: this project's cuda build
(its device entry, data kept on the GPU) against jax.jit on JAX's GPU backend (`jax[cuda]`),
in one run. Prints one table of median times, the ratio to XLA, and GB/s or GFLOP/s against
the device's copy bandwidth and XLA's own sgemm speed (cuBLAS), measured in the same run. A
benchmark, not a test: only the compiled library's results are checked (float64 numpy).

    python benchmarks/gpu_workloads.py [--reps N] [--workloads softmax,mlp]
    python benchmarks/gpu_workloads.py --smoke   # tiny sizes, through the driver double
    python benchmarks/gpu_workloads.py --model   # predicted time per kernel (no GPU: estimates)

Never run on a real GPU yet: no machine of this project has one. `--smoke` checks the script
itself on a GPU-less machine (tiny shapes, the CUDA driver double of tests/tooling, no JAX);
its times mean nothing. The workloads and their references are cpu_workloads.py's.
"""
from __future__ import annotations

import os
import sys

os.environ.setdefault("JAX_PLATFORMS", "cuda")  # before bench_env picks the CPU for JAX

import bench_env  # noqa: E402  (sys.path)

# isort: split

import argparse  # noqa: E402
import ctypes  # noqa: E402
import statistics  # noqa: E402
import time  # noqa: E402

import numpy as np  # noqa: E402

import aot  # noqa: E402
from cpu_workloads import (  # noqa: E402
    MAX_REL_ERR,
    WORKLOADS,
    attention,
    layernorm,
    mlp,
    r32,
    reduce_sum,
    ref_layernorm,
    ref_mlp,
    ref_softmax,
    softmax,
)

MODELS = ["gpt_decoder", "resnet_cnn"]  # model_defs.py's, for --model
GOAL_RATIO, GOAL_THREADS = 1.5, 100_000  # issue 30's goals for the model: time / floor, threads
SMOKE = {  # the same programs at sizes the emulated grid runs in seconds
    "softmax": (lambda: softmax(16, 40), lambda rng: [r32(rng, 16, 40)], ref_softmax, (2 * 4 * 640, 0)),
    "layernorm": (lambda: layernorm(16, 40), lambda rng: [r32(rng, 16, 40)], ref_layernorm,
                  (2 * 4 * 640, 0)),
    "col_sums": (lambda: reduce_sum(40, 70, 0), lambda rng: [r32(rng, 40, 70)],
                 lambda xp, a: a.sum(axis=0), (4 * 2800, 0)),
    "mlp": (lambda: mlp(8, 16, 70, 10),
            lambda rng: [r32(rng, 8, 16), r32(rng, 16, 70), r32(rng, 70), r32(rng, 70, 10), r32(rng, 10)],
            ref_mlp, (0, 2 * 8 * (16 * 70 + 70 * 10))),
    "attention": (lambda: attention(1, 2, 16, 8), lambda rng: [r32(rng, 1, 2, 16, 8) for _ in range(3)],
                  lambda xp, q, k, v: ref_softmax(xp, (q @ k.swapaxes(-1, -2)) / 8 ** 0.5) @ v,
                  (0, 2 * 2 * 2 * 16 * 16 * 8)),
}


class Driver:
    """The CUDA driver API through ctypes, for device buffers and synchronisation: the library
    the artifacts open (AOT_CUDA_LIBRARY, else libcuda.so.1)."""

    def __init__(self):
        self.lib = ctypes.CDLL(os.environ.get("AOT_CUDA_LIBRARY") or "libcuda.so.1")
        ctx, dev = ctypes.c_void_p(), ctypes.c_int()
        for call in (lambda: self.lib.cuInit(0), lambda: self.lib.cuDeviceGet(ctypes.byref(dev), 0),
                     lambda: self.lib.cuDevicePrimaryCtxRetain(ctypes.byref(ctx), dev),
                     lambda: self.lib.cuCtxSetCurrent(ctx)):
            rc = call()
            if rc != 0:
                raise RuntimeError(f"CUDA driver error {rc}")

    def upload(self, a: np.ndarray) -> "Buffer":
        p = ctypes.c_uint64()
        assert self.lib.cuMemAlloc_v2(ctypes.byref(p), ctypes.c_size_t(max(a.nbytes, 1))) == 0
        self.lib.cuMemcpyHtoDAsync_v2(p, a.ctypes.data_as(ctypes.c_void_p), ctypes.c_size_t(a.nbytes), None)
        self.sync()
        return Buffer(self, p.value, a.shape, a.dtype)

    def sync(self):
        self.lib.cuStreamSynchronize(None)

    def copy_bandwidth(self, nbytes: int, reps: int) -> float:
        """GB/s of a device-to-device copy (bytes read + bytes written)."""
        src, dst = ctypes.c_uint64(), ctypes.c_uint64()
        self.lib.cuMemAlloc_v2(ctypes.byref(src), ctypes.c_size_t(nbytes))
        self.lib.cuMemAlloc_v2(ctypes.byref(dst), ctypes.c_size_t(nbytes))
        times = []
        for _ in range(reps + 1):
            t = time.perf_counter()
            self.lib.cuMemcpyDtoDAsync_v2(dst, src, ctypes.c_size_t(nbytes), None)
            self.sync()
            times.append(time.perf_counter() - t)
        self.lib.cuMemFree_v2(src)
        self.lib.cuMemFree_v2(dst)
        return 2 * nbytes / statistics.median(times[1:]) / 1e9


class Buffer:
    """Device memory behind __cuda_array_interface__, as CuPy would hand it over."""

    def __init__(self, driver, ptr, shape, dtype):
        self.driver, self.ptr = driver, ptr
        self.__cuda_array_interface__ = {"shape": tuple(shape), "typestr": np.dtype(dtype).str,
                                         "version": 3, "strides": None, "data": (ptr, False)}

    def __del__(self):
        self.driver.lib.cuMemFree_v2(ctypes.c_uint64(self.ptr))


def median_time(fn, sync, reps: int) -> float:
    fn()
    sync()
    times = []
    for _ in range(reps):
        t = time.perf_counter()
        fn()
        sync()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def jax_gpu():
    try:
        import jax
        return jax, jax.devices("gpu")[0]
    except Exception as e:  # noqa: BLE001 - reported in the table's note
        return None, f"{type(e).__name__}: {e}".splitlines()[0]


def ptxas_resources(c) -> dict:
    """Kernel -> (registers, shared bytes) from ptxas, or {} without it."""
    import tempfile

    from lowering.codegen.cuda import ptxas
    if ptxas.find_ptxas() is None:
        return {}
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "k.ptx")
        with open(path, "w") as f:
            f.write(c.assembly())
        return ptxas.resources(ptxas.assemble(path, c.target.cpu).stderr)


def model_programs(names: list) -> list:
    """(name, program text, input maker, whether to print each launch) for --model: the
    benchmark matrix's workloads and the whole models of model_defs.py (their weights as
    arguments, from benchmarks/data/)."""
    import model_defs
    out = []
    for name in names:
        if name in WORKLOADS:
            out.append((name, WORKLOADS[name][0](), WORKLOADS[name][1], True))
            continue
        weights_fn, _, make_input = model_defs.MODELS[name]
        with open(os.path.join(model_defs.DATA, f"{name}.mlir")) as f:
            text = f.read()

        def inputs(rng, weights_fn=weights_fn, make_input=make_input):
            p = weights_fn(rng)
            return [p[k] for k in sorted(p)] + [make_input(rng)]
        out.append((name, text, inputs, False))
    return out


def counted_estimates(text: str, name: str, inputs: list, scratch: str, devices: list) -> list:
    """[(DeviceKernel, timing.Work, [Estimate per device])] per launch of one run of `text`
    on `inputs`, on the emulated grid with counting kernels (each thread stopping after a few
    iterations, the counts scaled to the whole grid). Sets this process's driver double."""
    sys.path.insert(0, os.path.join(bench_env.ROOT, "tests"))
    from lowering.codegen.cuda.timing import predict
    from tooling.gpu_emu import build_counting, count_launches
    counts = os.path.join(scratch, f"{name}.counts")
    os.environ["AOT_EMU_COUNT"] = counts
    os.environ.setdefault("AOT_EMU_COUNT_ITERATIONS", "4")
    try:
        lib, c = build_counting(text, name, scratch)
        lib.main(*inputs)  # partial results: only the counts matter
    finally:
        os.environ.pop("AOT_EMU_COUNT", None)
    resources = ptxas_resources(c)
    out = []
    for k, work in count_launches(counts, c):
        regs, smem = resources.get(k.name, (32, 0))
        out.append((k, work, [predict(work, k.launch, d, regs, smem) for d in devices]))
    return out


def model(names: list) -> int:
    """--model: each program at its full size run once on the emulated grid with counting
    kernels (`counted_estimates`), and every launch's predicted time on an A100 and an H100
    (codegen/cuda/timing.py) against the roofline floor of the same work. Estimates: nothing
    runs on a GPU."""
    import tempfile

    from lowering.target import GPU_DEVICES
    scratch = tempfile.mkdtemp(prefix="gpu_model_")
    devices = [GPU_DEVICES["A100"], GPU_DEVICES["H100"]]
    print("predicted per kernel launch (an estimate from the time model: nothing ran on a GPU; "
          "our own kernels, no cuBLAS)")
    print(f"{'program':11s} {'kernel':>10s} {'blocks x block':>15s} {'threads':>9s} {'MB':>8s} {'GFLOP':>7s} "
          f"{'sect/req':>8s} {'A100 us':>8s} {'floor':>7s} {'H100 us':>8s} {'floor':>7s}"
          f" {'/floor':>6s} bound")
    rng = np.random.default_rng(0)
    h100 = GPU_DEVICES["H100"]
    misses, kernels, few = [], 0, []  # the goals: within 1.5x of the floor; enough threads
    under = []  # misses whose floor is under one launch's cost: against launch + floor
    for name, text, make_inputs, each in model_programs(names):
        total, rows = [0.0] * 4, []
        for k, work, (a, h) in counted_estimates(text, f"model_{name}", make_inputs(rng), scratch, devices):
            total = [t + v for t, v in zip(total, (a.time_us, a.floor_us, h.time_us, h.floor_us))]
            shape = f"{-(-work.threads // k.launch.threads_per_block)}x{k.launch.threads_per_block}"
            coalescing = work.sectors * 128 / work.bytes_accessed if work.bytes_accessed else float("nan")
            kernel = "kernel " + k.name.rsplit("_", 1)[-1]
            if each:
                kernels += 1
                if h.time_us > GOAL_RATIO * h.floor_us:
                    # the launch cost alone over (GOAL_RATIO - 1) x the floor: no kernel can meet
                    # it; the best any kernel could be predicted is the launch cost + the floor
                    best = h100.launch_us + h.floor_us
                    if h100.launch_us > (GOAL_RATIO - 1) * h.floor_us:
                        under.append(f"{name} {kernel} {h.time_us:.1f} us, {h.time_us / best:.1f}x its "
                                     f"best {best:.1f} us ({h.time_us / h.floor_us:.0f}x its floor)")
                    else:
                        misses.append(f"{name} {kernel} {h.time_us / h.floor_us:.1f}x")
            elements = int(np.prod(k.dims)) if k.dims else 0
            if k.launch.space != "thread" and work.threads < min(elements, GOAL_THREADS):
                kind = "kLoop" if k.launch.elementwise else "not kLoop"
                few.append(f"{name} {kernel} ({kind}: {k.launch.mapping()}): {work.threads} threads, "
                           f"{elements} output elements")
            rows.append((h.time_us, f"{name:11s} {kernel:>10s} {shape:>15s} {work.threads:9d} "
                         f"{work.dram_bytes / 1e6:8.2f} {(work.flops or 0) / 1e9:7.3f} {coalescing:8.1f} "
                         f"{a.time_us:8.1f} {a.floor_us:7.1f} {h.time_us:8.1f} {h.floor_us:7.1f} "
                         f"{h.time_us / max(h.floor_us, 1e-9):6.1f} {h.bound}"))
        if not each:  # a whole model: its dearest launches
            print(f"{name}: {len(rows)} launches, the 5 longest on an H100:")
            rows = sorted(rows, reverse=True)[:5]
        for _, row in rows:
            print(row)
        print(f"{name:11s} {'total':>10s} {'':>15s} {'':>9s} {'':>8s} {'':>7s} {'':>8s} {total[0]:8.1f} "
              f"{total[1]:7.1f} {total[2]:8.1f} {total[3]:7.1f} {total[2] / max(total[3], 1e-9):6.1f}")
    print("sect/req: 32-byte sectors touched per 128 bytes requested (4: coalesced); MB: DRAM bytes; "
          "floor: max(bytes / HBM bandwidth, FLOPs / FP32 peak), no launch cost")
    print(f"goal, the benchmark matrix on an H100 within {GOAL_RATIO}x of its floor: "
          f"{kernels - len(misses) - len(under)} of {kernels} kernels; real misses (a floor of twice "
          f"the launch cost or more): {', '.join(misses) if misses else 'none'}")
    if under:
        print(f"  the other {len(under)} have a floor under one launch's assumed cost ({h100.launch_us} us), "
              f"which no kernel can be within {GOAL_RATIO}x of; against their best possible prediction "
              "(launch cost + floor): " + "; ".join(under))
    kloop = [f for f in few if "(kLoop" in f]
    print(f"goal, no kLoop kernel launching fewer threads than min(output elements, {GOAL_THREADS}): "
          + (f"missed: {'; '.join(kloop)}" if kloop else "met")
          + f" ({len(few) - len(kloop)} launches of tiled matmuls, convolutions or row reductions launch "
          "fewer: a block or a warp takes each tile or row)")
    return 0


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--reps", type=int, default=20)
    p.add_argument("--workloads", default="")
    p.add_argument("--smoke", action="store_true", help="tiny sizes through the driver double")
    p.add_argument("--model", action="store_true",
                   help="predicted time per kernel from the time model (no GPU needed; an estimate)")
    args = p.parse_args()
    if args.model:
        return model([n for n in args.workloads.split(",") if n] or list(WORKLOADS) + MODELS)
    table, build = WORKLOADS, lambda text, name: aot.compile(text, name=name, target="cuda")
    if args.smoke:  # the artifact and the host build of its kernels, for the driver double
        sys.path.insert(0, os.path.join(bench_env.ROOT, "tests"))
        import tempfile

        from tooling.gpu_emu import build_emulated, use_driver_double
        use_driver_double()
        scratch = tempfile.mkdtemp(prefix="gpu_workloads_")
        table, args.reps = SMOKE, min(args.reps, 2)
        build = lambda text, name: build_emulated(text, name, scratch)  # noqa: E731
    names = [n for n in args.workloads.split(",") if n] or list(table)
    try:
        driver = Driver()
    except (OSError, RuntimeError) as e:
        print(f"no usable GPU: {e} (this benchmark needs an NVIDIA GPU and its driver; "
              "--smoke runs it through the driver double)")
        return 2
    bandwidth = driver.copy_bandwidth(1 << (20 if args.smoke else 28), args.reps)
    jax, device = (None, "not used with --smoke") if args.smoke else jax_gpu()
    sgemm = None
    if jax is not None:
        n = 4096
        a = jax.device_put(np.ones((n, n), np.float32), device)
        f = jax.jit(lambda x: x @ x)
        sgemm = 2 * n ** 3 / median_time(lambda: f(a).block_until_ready(), lambda: None, args.reps) / 1e9
    print(f"device copy bandwidth {bandwidth:.1f} GB/s; XLA sgemm 4096^3 "
          + (f"{sgemm:.0f} GFLOP/s" if sgemm else f"not measured ({device})"))
    print(f"{'workload':12s} {'aot ms':>9s} {'XLA ms':>9s} {'aot/XLA':>8s} {'aot rate':>14s} {'of peak':>8s}")
    rng, failed = np.random.default_rng(0), 0
    for name in names:
        make, make_inputs, ref, (nbytes, flops) = table[name][:4]
        lib = build(make(), f"gpu_{name}")
        host = make_inputs(rng)
        dev = [driver.upload(a) for a in host]
        out = lib.main.device(*dev)
        got = (out[0] if isinstance(out, tuple) else out).to_numpy()
        want = np.asarray(ref(np, *[a.astype(np.float64) for a in host]))
        err = float(np.abs(got - want).max() / max(np.abs(want).max(), 1e-30))
        failed += err > MAX_REL_ERR
        t_aot = median_time(lambda: lib.main.device(*dev), driver.sync, args.reps)
        t_xla = None
        if jax is not None:
            import jax.numpy as jnp
            f = jax.jit(lambda *xs: ref(jnp, *xs))
            xs = [jax.device_put(a, device) for a in host]
            t_xla = median_time(lambda: f(*xs).block_until_ready(), lambda: None, args.reps)
        rate, peak = (flops / t_aot / 1e9, sgemm) if flops else (nbytes / t_aot / 1e9, bandwidth)
        unit = "GFLOP/s" if flops else "GB/s"
        print(f"{name:12s} {t_aot * 1e3:9.3f} {t_xla * 1e3 if t_xla else float('nan'):9.3f} "
              f"{t_aot / t_xla if t_xla else float('nan'):8.2f} {rate:9.1f} {unit:7s}"
              f"{100 * rate / peak if peak else float('nan'):7.0f}%"
              + ("" if err <= MAX_REL_ERR else f"  WRONG: rel. error {err:.1e}"))
    if args.smoke:
        print("(--smoke: the driver double on the emulated grid; times and rates mean nothing)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
