"""Every conformance case and benchmark program with --target cuda: compiled to PTX and
assembled by ptxas for sm_80 and sm_90 (`make test-gpu`). Prints the counts, and each case the
GPU path refuses with its reason; exits 1 if ptxas rejects anything or a compile crashes (each
corpus case runs in a process of its own). With case names as arguments, only those cases."""
import glob
import os
import sys
import tempfile
from collections import Counter
from multiprocessing.pool import ThreadPool

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path[:0] = [ROOT, os.path.join(ROOT, "tests")]

from aot.driver import Compilation, Options  # noqa: E402
from lowering.ir.core import CompileError  # noqa: E402
from tooling.isolate import isolated as in_child  # noqa: E402
from tooling.ptxas import ptxas  # noqa: E402

ARCHS = ("sm_80", "sm_90")
TIMEOUT_S = 300  # one case's compile and two ptxas runs


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


def isolated(path):
    """check(path) in a process of its own (tooling.isolate): an abort inside LLVM, a crash or
    a hang is one crashed case."""
    got = in_child(check, (path,), TIMEOUT_S)
    return (os.path.basename(path)[:-5], "crashed", got[1]) if got[0] == "failed" else got


def main(argv) -> int:
    """Every corpus case, or those named in argv (and the benchmark programs either way)."""
    corpus = os.path.join(ROOT, "tests", "data", "conformance")
    files = ([os.path.join(corpus, n + ".mlir") for n in argv] if argv
             else sorted(glob.glob(os.path.join(corpus, "*.mlir"))))
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
    sys.exit(main(sys.argv[1:]))
