"""The shared start of every benchmark, imported before numpy or jax: one thread everywhere
(numpy's BLAS, XLA, and the compiled library's pool: one core against one core), and the
repository importable from a plain checkout."""
import os
import sys

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS",
             "NUMEXPR_NUM_THREADS", "VECLIB_MAXIMUM_THREADS", "AOT_NUM_THREADS"):
    os.environ.setdefault(_var, "1")
os.environ.setdefault("XLA_FLAGS", "--xla_cpu_multi_thread_eigen=false")
os.environ.setdefault("JAX_PLATFORMS", "cpu")

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)


def cpu_name() -> str:
    """The processor's model name, for the report header."""
    import platform
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "?"


def loadavg() -> str:
    """The 1, 5 and 15 minute load averages, for the report ("?" where unknown)."""
    try:
        with open("/proc/loadavg") as f:
            return " ".join(f.read().split()[:3])
    except OSError:
        return "?"


def pin_to_one_cpu(enabled: bool) -> str:
    """Pin the process to one CPU (when asked and possible); says which, for the header."""
    if not enabled or not hasattr(os, "sched_setaffinity"):
        return "no"
    cpu = min(os.sched_getaffinity(0))
    os.sched_setaffinity(0, {cpu})
    return f"cpu {cpu}"


def probe_jax(skipped: str):
    """(jax, jax.numpy, note) when JAX imports, else (None, None, note): never installs it."""
    try:
        import jax
        import jax.numpy as jnp
        return jax, jnp, f"jax {jax.__version__} ({jax.devices()[0].platform})"
    except Exception as e:  # any failure to import or start JAX just skips its rows
        return None, None, f"jax not available ({type(e).__name__}: {e}); {skipped} skipped"


def print_header(title: str, pinned: str, jax_note: str) -> None:
    import datetime
    import platform

    import llvmlite
    import numpy as np
    print(f"{title} — {datetime.datetime.now().isoformat(timespec='seconds')}")
    print(f"cpu: {cpu_name()} ({os.cpu_count()} logical), pinned: {pinned}; "
          f"python {platform.python_version()}, numpy {np.__version__}, "
          f"llvmlite {llvmlite.__version__}")
    print(jax_note)


def median_ms(fn, reps: int, clock=None) -> float:
    """Median time of `fn()` over `reps` calls after one warm-up, in milliseconds: wall time,
    or the process's CPU time with `clock=time.process_time` (on a shared machine)."""
    import statistics
    import time
    clock = clock or time.perf_counter
    fn()
    times = []
    for _ in range(reps):
        t = clock()
        fn()
        times.append(clock() - t)
    return statistics.median(times) * 1e3
