"""Every conformance case with --target cuda: compiled to PTX and assembled by ptxas for
sm_80 and sm_90 (`make test-gpu`). Prints the count, and each case the GPU path refuses with
its reason; exits 1 if ptxas rejects anything or a refusal is not a located CompileError."""
import glob
import multiprocessing as mp
import os
import sys
import tempfile
from collections import Counter

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path[:0] = [ROOT, os.path.join(ROOT, "tests")]

from aot.driver import Compilation, Options  # noqa: E402
from lowering.ir.core import CompileError  # noqa: E402
from tooling.ptxas import ptxas  # noqa: E402

ARCHS = ("sm_80", "sm_90")


def check(path):
    name = os.path.basename(path)[:-5]
    with tempfile.TemporaryDirectory() as tmp:
        for arch in ARCHS:
            out = os.path.join(tmp, f"{name}.{arch}.ptx")
            opts = Options(name="m", emit="ptx", target="cuda", gpu_arch=arch)
            try:
                Compilation(open(path).read(), path, opts).build(out)
            except CompileError as e:
                return name, "refused", str(e).split("\n")[0]
            r = ptxas(out, arch)
            if r.returncode != 0:
                return name, "ptxas rejected", f"{arch}: {r.stderr.strip()[:300]}"
    return name, "ok", ""


def main() -> int:
    files = sorted(glob.glob(os.path.join(ROOT, "tests", "data", "conformance", "*.mlir")))
    with mp.get_context("fork").Pool(os.cpu_count(), maxtasksperchild=4) as pool:
        results = pool.map(check, files, chunksize=1)
    for name, status, why in results:
        if status != "ok":
            print(f"{status}: {name}: {why}")
    counts = Counter(status for _, status, _ in results)
    print(f"cuda PTX: {counts['ok']} of {len(results)} conformance cases pass ptxas for "
          f"{' and '.join(ARCHS)}; {counts['refused']} refused with a located error; "
          f"{counts['ptxas rejected']} rejected by ptxas")
    return 1 if counts["ptxas rejected"] else 0


if __name__ == "__main__":
    sys.exit(main())
