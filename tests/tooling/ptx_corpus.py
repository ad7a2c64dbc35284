"""Every conformance case and benchmark program with --target cuda: compiled to PTX and
assembled by ptxas for sm_80 and sm_90 (`make test-gpu`). Prints the counts, and each case the
GPU path refuses with its reason; exits 1 if ptxas rejects anything or a compile crashes (each
corpus case runs in a process of its own)."""
import glob
import multiprocessing as mp
import os
import sys
import tempfile
from collections import Counter
from multiprocessing.pool import ThreadPool

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path[:0] = [ROOT, os.path.join(ROOT, "tests")]

from aot.driver import Compilation, Options  # noqa: E402
from lowering.ir.core import CompileError  # noqa: E402
from tooling.ptxas import ptxas  # noqa: E402

ARCHS = ("sm_80", "sm_90")


def benchmark_programs() -> dict:
    """name -> StableHLO text of the benchmark workloads (benchmarks/cpu_workloads.py)."""
    sys.path.insert(0, os.path.join(ROOT, "benchmarks"))
    from cpu_workloads import WORKLOADS
    return {f"benchmark {name}": row[0]() for name, row in WORKLOADS.items()}


def check(path, text=None):
    """(name, status, why) of one program (a corpus file, or `text` named `path`)."""
    name = os.path.basename(path)[:-5] if text is None else path
    text = open(path).read() if text is None else text
    with tempfile.TemporaryDirectory() as tmp:
        for arch in ARCHS:
            out = os.path.join(tmp, f"k.{arch}.ptx")
            opts = Options(name="m", emit="ptx", target="cuda", gpu_arch=arch)
            try:
                Compilation(text, path, opts).build(out)
            except CompileError as e:
                return name, "refused", str(e).split("\n")[0]
            r = ptxas(out, arch)
            if r.returncode != 0:
                return name, "ptxas rejected", f"{arch}: {r.stderr.strip()[:300]}"
    return name, "ok", ""


def _child(path, conn):
    try:
        conn.send(check(path))
    except BaseException as e:  # noqa: BLE001 - reported as the case's failure
        conn.send((os.path.basename(path)[:-5], "crashed", f"{type(e).__name__}: {e}"))


def isolated(path):
    """check(path) in a process of its own: an abort inside LLVM is one failed case."""
    ctx = mp.get_context("fork")
    parent, child = ctx.Pipe(duplex=False)
    p = ctx.Process(target=_child, args=(path, child))
    p.start()
    p.join(300)
    if p.is_alive():
        p.kill()
        return os.path.basename(path)[:-5], "crashed", "timed out"
    if not parent.poll():
        return os.path.basename(path)[:-5], "crashed", f"exit code {p.exitcode}"
    return parent.recv()


def main() -> int:
    files = sorted(glob.glob(os.path.join(ROOT, "tests", "data", "conformance", "*.mlir")))
    with ThreadPool(os.cpu_count()) as pool:
        results = pool.map(isolated, files, chunksize=1)
    benchmarks = [check(name, text) for name, text in benchmark_programs().items()]
    for name, status, why in results + benchmarks:
        if status != "ok":
            print(f"{status}: {name}: {why}")
    counts = Counter(status for _, status, _ in results)
    print(f"cuda PTX: {counts['ok']} of {len(results)} conformance cases pass ptxas for "
          f"{' and '.join(ARCHS)}; {counts['refused']} refused with a located error; "
          f"{counts['ptxas rejected']} rejected by ptxas; {counts['crashed']} crashed")
    bench_ok = sum(status == "ok" for _, status, _ in benchmarks)
    print(f"cuda PTX: {bench_ok} of {len(benchmarks)} benchmark programs pass ptxas for "
          f"{' and '.join(ARCHS)}")
    bad = counts["ptxas rejected"] or counts["crashed"] or bench_ok != len(benchmarks)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
