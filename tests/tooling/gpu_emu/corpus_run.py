"""Every conformance case built as a --target cuda artifact and run through the CUDA driver double
on the emulated grid (tests/tooling/gpu_emu), against JAX's saved outputs
with the CPU path's tolerances (`make test-gpu`). Each case runs in its own process, so a
crash or a hang is one failed case. Prints the count; exits 1 if any case that compiles for
the GPU gives a wrong number or crashes."""
import glob
import importlib.util
import multiprocessing as mp
import os
import sys
import tempfile
import traceback
from collections import Counter
from multiprocessing.pool import ThreadPool

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
sys.path[:0] = [ROOT, os.path.join(ROOT, "tests")]
CONF = os.path.join(ROOT, "tests", "data", "conformance")
TIMEOUT_S = 300


def _conformance_compare():
    spec = importlib.util.spec_from_file_location(
        "conformance", os.path.join(ROOT, "tests", "e2e", "test_conformance.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod._compare


def run_case(name: str, out_dir: str) -> tuple:
    """(status, detail): passed, refused (a located CompileError), or failed."""
    from corpus import load_case
    from lowering.ir.core import CompileError
    from tooling.gpu_emu import build_emulated
    path = os.path.join(CONF, name + ".mlir")
    try:
        lib = build_emulated(open(path).read(), "m", out_dir, filename=path)
    except CompileError as e:
        return "refused", str(e).split("\n")[0]
    args, want = load_case(os.path.join(CONF, name + ".npz"))
    got = lib.main(*args)
    got = list(got) if isinstance(got, tuple) else [got]
    _conformance_compare()(name, got, want)
    return "passed", ""


def _child(name, conn):
    try:
        with tempfile.TemporaryDirectory() as tmp:
            conn.send(run_case(name, tmp))
    except BaseException as e:  # noqa: BLE001 - reported as the case's failure
        conn.send(("failed", f"{type(e).__name__}: {e}"[:400] + traceback.format_exc()[-300:]))


def isolated(name: str) -> tuple:
    ctx = mp.get_context("fork")
    parent, child = ctx.Pipe(duplex=False)
    p = ctx.Process(target=_child, args=(name, child))
    p.start()
    p.join(TIMEOUT_S)
    if p.is_alive():
        p.kill()
        return "failed", f"timed out after {TIMEOUT_S} s"
    if not parent.poll():
        return "failed", f"crashed (exit code {p.exitcode})"
    return parent.recv()


def main(argv) -> int:
    names = argv or sorted(os.path.basename(p)[:-5] for p in glob.glob(os.path.join(CONF, "*.mlir")))
    with ThreadPool(2) as pool:  # each case in a process of its own
        results = pool.map(isolated, names, chunksize=1)
    for name, (status, detail) in zip(names, results):
        if status != "passed":
            print(f"{status}: {name}: {detail}")
    counts = Counter(status for status, _ in results)
    print(f"cuda emulated grid: {counts['passed']} of {len(names)} conformance cases match JAX; "
          f"{counts['refused']} refused with a located error; {counts['failed']} failed")
    return 1 if counts["failed"] else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
