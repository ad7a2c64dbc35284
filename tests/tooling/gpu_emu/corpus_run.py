"""Every conformance case built as a --target cuda artifact and run through the CUDA driver double
on the emulated grid (tests/tooling/gpu_emu), against JAX's saved outputs
with the CPU path's tolerances (`make test-gpu`), then the cases with a dot again with their
matmuls on the cuBLAS double. Each case runs in its own process, so a crash or a hang is one
failed case. Prints the counts; exits 1 if any case that compiles for the GPU gives a wrong
number or crashes."""
import glob
import importlib.util
import os
import sys
import tempfile
from collections import Counter
from multiprocessing.pool import ThreadPool

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
sys.path[:0] = [ROOT, os.path.join(ROOT, "tests")]
CONF = os.path.join(ROOT, "tests", "data", "conformance")
TIMEOUT_S = 300

from tooling.isolate import isolated as in_child  # noqa: E402


def _conformance_compare():
    spec = importlib.util.spec_from_file_location(
        "conformance", os.path.join(ROOT, "tests", "e2e", "test_conformance.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod._compare


def has_dot(name: str) -> bool:
    with open(os.path.join(CONF, name + ".mlir")) as f:
        text = f.read()
    return "dot_general" in text or "stablehlo.dot " in text


def run_case(name: str, out_dir: str, blas: bool = False) -> tuple:
    """(status, detail): passed, refused (a located CompileError), or failed. With `blas`,
    matmuls go to the cuBLAS double."""
    from corpus import load_case
    from lowering.ir.core import CompileError
    from tooling.gpu_emu import build_emulated
    path = os.path.join(CONF, name + ".mlir")
    try:
        lib = build_emulated(open(path).read(), "m", out_dir, filename=path, blas=blas)
    except CompileError as e:
        return "refused", str(e).split("\n")[0]
    args, want = load_case(os.path.join(CONF, name + ".npz"))
    got = lib.main(*args)
    got = list(got) if isinstance(got, tuple) else [got]
    _conformance_compare()(name, got, want)
    return "passed", ""


def _in_tmp(name, blas):
    with tempfile.TemporaryDirectory() as tmp:
        return run_case(name, tmp, blas)


def isolated(name: str, blas: bool = False) -> tuple:
    return in_child(_in_tmp, (name, blas), TIMEOUT_S)


def run_all(names: list, blas: bool) -> int:
    with ThreadPool(2) as pool:  # each case in a process of its own
        results = pool.starmap(isolated, [(n, blas) for n in names], chunksize=1)
    for name, (status, detail) in zip(names, results):
        if status != "passed":
            print(f"{status}: {name}: {detail}")
    counts = Counter(status for status, _ in results)
    how = "with matmuls on the cuBLAS double" if blas else "conformance cases"
    print(f"cuda emulated grid: {counts['passed']} of {len(names)} {how} match JAX; "
          f"{counts['refused']} refused with a located error; {counts['failed']} failed")
    return counts["failed"]


def main(argv) -> int:
    names = argv or sorted(os.path.basename(p)[:-5] for p in glob.glob(os.path.join(CONF, "*.mlir")))
    failed = run_all(names, blas=False)
    failed += run_all([n for n in names if has_dot(n)], blas=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
