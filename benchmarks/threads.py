"""Thread counts for a benchmark process, fixed before numpy or jax is imported (so it
imports neither): cpu_workloads.py's children and `models.py --threads N`."""
import os


def threads_arg(argv) -> int:
    """The N of `--threads N` (or `--threads=N`) in argv, 1 without it: read before numpy
    and jax are imported, so before argparse runs."""
    for i, a in enumerate(argv):
        if a == "--threads" and i + 1 < len(argv):
            return int(argv[i + 1])
        if a.startswith("--threads="):
            return int(a.split("=", 1)[1])
    return 1


def configure_threads(n: int) -> str:
    """Fix every thread count to n before numpy/jax are imported, and restrict the process to
    n CPUs. XLA: on one thread its Eigen pool is turned off (--xla_cpu_multi_thread_eigen=false;
    jaxlib 0.10.2 knows no intra-op thread-count flag: `--intra_op_parallelism_threads=1` in
    XLA_FLAGS aborts as unknown, and the undashed `intra_op_parallelism_threads=1` often quoted
    beside it is silently ignored). Its dot kernels still start threads of their own, so the affinity
    mask is what actually holds every implementation to n cores. Returns the mask, for the log."""
    for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS",
                "NUMEXPR_NUM_THREADS", "VECLIB_MAXIMUM_THREADS", "AOT_NUM_THREADS"):
        os.environ[var] = str(n)
    flags = [f for f in os.environ.get("XLA_FLAGS", "").split()
             if not f.startswith("--xla_cpu_multi_thread_eigen")]
    if n == 1:
        flags.append("--xla_cpu_multi_thread_eigen=false")
    os.environ["XLA_FLAGS"] = " ".join(flags)
    os.environ.setdefault("JAX_PLATFORMS", "cpu")
    # OpenBLAS's idle workers spin for 2^28 cycles (~0.1 s) after each call by default,
    # taking a core from whatever runs next on a 2-core machine: numpy's matmul made aot's
    # two-thread conv and attention look slower than its one-thread ones. 2^4 cycles instead.
    os.environ.setdefault("OPENBLAS_THREAD_TIMEOUT", "4")
    if not hasattr(os, "sched_setaffinity"):
        return "not pinned (no sched_setaffinity)"
    cpus = sorted(os.sched_getaffinity(0))
    if len(cpus) < n:
        return f"only {len(cpus)} CPUs available for {n} threads: {cpus}"
    os.sched_setaffinity(0, set(cpus[:n]))
    return f"cpus {cpus[:n]}"
