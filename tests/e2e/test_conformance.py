"""The conformance corpus (tests/data/conformance/): every case compiles and matches JAX's
outputs, or fails to compile in exactly the expected way because it uses an op that
is not implemented yet.

Outcomes per case:
- passed: it compiled and every result matched JAX's (corpus.TOLERANCE, or a looser
  per-case tolerance from CASE_TOLERANCE where an approximation justifies it);
- unsupported (reported as xfail, never as a pass): the compile raised a CompileError
  saying "'OP': ... is not supported[ yet]" and OP is in UNSUPPORTED_OPS;
- failed: anything else: wrong numbers, a crash or hang of the compiled code, any
  other compile error, an unsupported op that UNSUPPORTED_OPS does not name, or a case
  that compiles although it contains an op that UNSUPPORTED_OPS names (the op works
  now: take it off the list).

Each case runs in a worker process, so a crash or a hang is one failed case, not the
end of the session. A summary line `conformance: N passed, M unsupported (ops: ...)`
is printed at the end of the session.
"""
from __future__ import annotations

import collections
import glob
import os
import re
import subprocess
import sys
import tempfile
import traceback

import numpy as np
import pytest

TESTS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ROOT = os.path.dirname(TESTS)
CONF = os.path.join(TESTS, "data", "conformance")
CASES = sorted(os.path.basename(p)[:-5] for p in glob.glob(os.path.join(CONF, "*.mlir")))

# Ops the compiler does not implement yet, by the name its CompileError gives them
# ("'mhlo.sort': sort is not supported yet"). A case that fails to compile naming one
# of these is recorded as unsupported; a case that contains one of these and compiles
# fails, so that the list shrinks as ops land.
UNSUPPORTED_OPS: list[str] = []  # every op of the corpus compiles

# Looser tolerances (rtol, atol) for float results, per case, only where an
# approximation justifies it. Measured against scipy in float64, JAX's own float32
# results are off by up to 3.5e-6 (lgamma, Lanczos approximation) and 6.4e-7 absolute
# near digamma's root at 1.46 (rel. 5.8e-5): another implementation of equal quality
# can differ from JAX's by about twice that, beyond the default atol of 1e-6.
# An f32 FFT of about 1000 points sums 1000 products per output: JAX's own result is off
# by up to 2.4e-7 of the largest output (3.2e-5 absolute here, against numpy in float64;
# this compiler's, summed in f64, by 3.5e-8), so outputs near zero need an absolute bound.
CASE_TOLERANCE = {
    "lgamma_f32": (2e-5, 1e-5),
    "digamma_f32": (2e-5, 5e-6),
    "fft_prime_length_c64": (2e-5, 1e-4),
    "rfft_long_f32": (2e-5, 1e-4),
}

CASE_TIMEOUT_S = 120

UNSUPPORTED_RE = re.compile(r"error: '([\w.]+)': ([^\n]*\bis not supported\b[^\n]*)")
# Op names where ops stand in the module text: after `=`, at the start of a line,
# after `applies` (reduce shorthand), or quoted in generic form.
OP_RE = re.compile(r'(?:=|^|applies)\s*"?((?:stablehlo|mhlo|chlo)\.[a-z_0-9]+)\b', re.M)

RESULTS: dict[str, tuple[str, str]] = {}  # case -> (passed|unsupported|failed, op or reason)


def ops_in_text(text: str) -> set[str]:
    """The ops a module contains, by the compiler's names (stablehlo.X is mhlo.X)."""
    return {("mhlo." + n.split(".", 1)[1]) if n.startswith("stablehlo.") else n
            for n in OP_RE.findall(text)}


def unsupported_op(message: str):
    """'mhlo.X' from a "... is not supported[ yet]" CompileError message, else None."""
    m = UNSUPPORTED_RE.search(message)
    return m.group(1) if m else None


# ------------------------------------------------------------------ worker process

def _worker_main(rfd: int, wfd: int) -> None:
    """Compile and run cases sent by the test process; send back outcomes."""
    import faulthandler
    from multiprocessing.connection import Connection
    faulthandler.enable()
    for p in (ROOT, TESTS):
        if p not in sys.path:
            sys.path.insert(0, p)
    import aot
    from corpus import load_case
    rx, tx = Connection(rfd, writable=False), Connection(wfd, readable=False)
    while True:
        try:
            case = rx.recv()
        except EOFError:
            return
        base = os.path.join(CONF, case)
        try:
            lib = aot.compile(base + ".mlir", name=case)
        except aot.CompileError as e:
            tx.send(("compile_error", str(e)))
            continue
        except Exception:
            tx.send(("error", "compile raised:\n" + traceback.format_exc()))
            continue
        try:
            args, _ = load_case(base + ".npz")
            got = lib.main(*args)
            got = got if isinstance(got, tuple) else (got,)
            tx.send(("ran", [np.asarray(g) for g in got]))
        except Exception:
            tx.send(("error", "run raised:\n" + traceback.format_exc()))


class Worker:
    """A child process running cases one at a time; restarted after a crash or a hang."""

    def __init__(self):
        self.proc = None
        self.log = tempfile.NamedTemporaryFile(prefix="conformance-worker-", suffix=".log", delete=False)

    def _start(self):
        from multiprocessing.connection import Connection
        p2c_r, p2c_w = os.pipe()
        c2p_r, c2p_w = os.pipe()
        self.log.seek(0)
        self.log.truncate()
        self.proc = subprocess.Popen(
            [sys.executable, os.path.abspath(__file__), "--worker", str(p2c_r), str(c2p_w)],
            pass_fds=(p2c_r, c2p_w), stdin=subprocess.DEVNULL, stdout=self.log, stderr=self.log,
            env=dict(os.environ), cwd=ROOT)
        os.close(p2c_r)
        os.close(c2p_w)
        self.tx = Connection(p2c_w, readable=False)
        self.rx = Connection(c2p_r, writable=False)

    def _log_tail(self, n=3000):
        self.log.flush()
        with open(self.log.name, errors="replace") as f:
            return f.read()[-n:]

    def run(self, case: str, timeout: float):
        if self.proc is None or self.proc.poll() is not None:
            self._start()
        try:
            self.tx.send(case)
        except OSError:  # it died between cases; the read below reports how
            pass
        if not self.rx.poll(timeout):
            self.stop()
            return "error", f"timed out after {timeout:.0f} s (compile + run)"
        try:
            return self.rx.recv()
        except EOFError:
            rc = self.proc.wait()
            self.proc = None
            how = f"signal {-rc}" if rc < 0 else f"exit status {rc}"
            return "error", f"the worker process died ({how}) compiling or running it:\n{self._log_tail()}"

    def stop(self):
        if self.proc is not None:
            self.tx.close()
            try:
                self.proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
            self.proc = None


# ------------------------------------------------------------------ summary

class _Summary:
    def pytest_terminal_summary(self, terminalreporter):
        if RESULTS:
            terminalreporter.write_line(summary_line())


def summary_line() -> str:
    kinds = collections.Counter(k for k, _ in RESULTS.values())
    ops = collections.Counter(op for k, op in RESULTS.values() if k == "unsupported")
    op_list = ", ".join(f"{op} x{n}" for op, n in sorted(ops.items())) or "none"
    line = f"conformance: {kinds['passed']} passed, {kinds['unsupported']} unsupported (ops: {op_list})"
    if kinds["failed"]:
        line += f", {kinds['failed']} failed"
    return line


@pytest.fixture(scope="module")
def worker(request):
    pm = request.config.pluginmanager
    if not pm.has_plugin("conformance-summary"):
        pm.register(_Summary(), "conformance-summary")
    w = Worker()
    yield w
    w.stop()
    os.unlink(w.log.name)


# ------------------------------------------------------------------ tests

def test_corpus_is_there():
    assert len(CASES) >= 150
    for c in CASES:
        assert os.path.exists(os.path.join(CONF, c + ".npz")), c


def test_unsupported_list_names_ops_the_corpus_uses():
    """Every op on UNSUPPORTED_OPS occurs in some case, so the per-case checks notice
    when it starts to work; the list has no duplicates."""
    used = set()
    for c in CASES:
        with open(os.path.join(CONF, c + ".mlir")) as f:
            used |= ops_in_text(f.read())
    assert len(set(UNSUPPORTED_OPS)) == len(UNSUPPORTED_OPS)
    assert not set(UNSUPPORTED_OPS) - used, f"not in any case: {sorted(set(UNSUPPORTED_OPS) - used)}"
    assert set(CASE_TOLERANCE) <= set(CASES)


def _compare(case, got, want):
    from corpus import assert_close
    assert len(got) == len(want), f"{case}: {len(got)} results, JAX has {len(want)}"
    for i, (g, w) in enumerate(zip(got, want)):
        assert_close(g, w, f"{case} result {i}", CASE_TOLERANCE.get(case))


@pytest.mark.parametrize("case", CASES)
def test_conformance(case, worker):
    from corpus import load_case
    with open(os.path.join(CONF, case + ".mlir")) as f:
        listed_here = sorted(ops_in_text(f.read()) & set(UNSUPPORTED_OPS))
    RESULTS[case] = ("failed", "")
    kind, payload = worker.run(case, CASE_TIMEOUT_S)
    if kind == "compile_error":
        op = unsupported_op(payload)
        if op is None:
            pytest.fail(f"compile error:\n{payload}", pytrace=False)
        if op not in UNSUPPORTED_OPS:
            pytest.fail(f"{op} is not supported, and UNSUPPORTED_OPS does not name it:\n{payload}",
                        pytrace=False)
        RESULTS[case] = ("unsupported", op)
        pytest.xfail(f"unsupported: {op}")
    if kind == "error":
        pytest.fail(payload, pytrace=False)
    _, want = load_case(os.path.join(CONF, case + ".npz"))
    _compare(case, payload, want)
    if listed_here:
        pytest.fail(f"compiles and matches JAX although it contains {', '.join(listed_here)}: "
                    "take the op(s) off UNSUPPORTED_OPS", pytrace=False)
    RESULTS[case] = ("passed", "")


if __name__ == "__main__" and sys.argv[1:2] == ["--worker"]:
    _worker_main(int(sys.argv[2]), int(sys.argv[3]))
