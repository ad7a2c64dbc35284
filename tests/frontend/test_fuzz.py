"""The fuzzer (tests/tooling/fuzz/): every input it ever found failing stays fixed, and a small
fixed-seed campaign runs here (`make fuzz` runs large ones).

Each file of tests/data/fuzz_regressions/ was an internal compiler error (or an error with no
location) once; its header says which, and `// expect: error '...'` (a located CompileError
whose rendering holds that text) or `// expect: compiled`."""
import glob
import os
import re

import pytest

from tooling.fuzz.campaign import campaign_inputs, compile_one, run
from tooling.fuzz.mutate import make_input

TESTS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
REGRESSIONS = sorted(glob.glob(os.path.join(TESTS, "data", "fuzz_regressions", "*.mlir")))
EXPECT = re.compile(r"^// expect: (compiled|error (['\"])(.*)\2)$", re.M)


@pytest.mark.parametrize("path", REGRESSIONS, ids=os.path.basename)
def test_fuzz_regression(path):
    with open(path, "rb") as f:
        data = f.read()
    m = EXPECT.search(data.decode("utf-8", errors="replace"))
    assert m, f"{path}: no '// expect: ...' line"
    name = os.path.basename(path)
    kind, detail = compile_one(data, name)
    if m.group(1) == "compiled":
        assert kind == "compiled", detail
    else:
        assert kind == "error", detail
        assert detail.startswith(name + ":") and m.group(3) in detail, detail


def test_inputs_are_reproducible():
    assert make_input(7, 123) == make_input(7, 123)
    assert make_input(7, 123) != make_input(7, 124)


def test_small_campaign(tmp_path):
    """600 inputs of a fixed seed, through the worker pool as `make fuzz` runs them:
    nothing may end in an internal error, an unlocated error, a crash or a hang."""
    res = run(campaign_inputs(seed=20240601, n=600, llvm_every=30), jobs=2, timeout=60,
              out_dir=str(tmp_path))
    assert sum(res.counts.values()) == 600
    assert res.counts["compiled"] > 20 and res.counts["error"] > 200, res.line()
    failures = [f"{kind} at input {i}: {detail.splitlines()[0] if detail else ''}"
                for i, kind, detail, _ in res.failures]
    assert not res.failed, res.line() + "\n" + "\n".join(failures) + f"\n(inputs in {tmp_path})"


def test_campaign_counts_crashes_and_hangs(tmp_path):
    """The pool's own guards: a worker that dies or stops answering is one failed input, and
    the campaign goes on with a new worker."""
    inputs = [(0, b"crash", "c.mlir", False, lambda: ["c"]),
              (1, b"hang", "h.mlir", False, lambda: ["h"]),
              (2, b"func.func @main() {\n  return\n}\n", "ok.mlir", False, lambda: ["ok"])]
    res = run(iter(inputs), jobs=2, timeout=3, out_dir=str(tmp_path), _hooks=True)
    assert (res.counts["crash"], res.counts["hang"], res.counts["compiled"]) == (1, 1, 1), res.line()
    assert sorted(os.listdir(tmp_path)) == ["crash-c.mlir", "crash-c.txt", "hang-h.mlir", "hang-h.txt"]


def test_zero_size_fused_constants_run():
    """The zero-size constants of the regression above, built and called: empty results of
    the right shapes, and a reduction over zero rows giving its init."""
    import numpy as np

    import aot
    lib = aot.compile(os.path.join(TESTS, "data", "fuzz_regressions", "zero_size_fused_constants.mlir"))
    outs = lib.main(np.zeros((0, 4), np.float32), np.zeros((0,), np.float32),
                    np.zeros((0, 3), np.int32), np.zeros((2, 0), np.float32))
    assert [o.shape for o in outs] == [(0, 4), (0,), (3,), (0, 5), (0, 2)]
    assert outs[2].tolist() == [0, 0, 0]


def _sleep_then(seconds, value):
    import time
    time.sleep(seconds)
    return value


def test_isolated_case_times_out_by_its_waits_not_one_clock_reading():
    """tooling.isolate waits for a case in slices (a VM clock that jumps ends one slice, not
    the whole wait): a quick case's result comes back, a slow one is killed and reported."""
    from tooling import isolate
    assert isolate.isolated(_sleep_then, (0, ("ok", 1)), 30) == ("ok", 1)
    assert isolate.isolated(_sleep_then, (30, ("ok", 1)), 0.5) == ("failed", "timed out after 0.5 s")
