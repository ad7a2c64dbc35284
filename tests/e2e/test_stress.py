"""Reliability under load (issue 16): many threads calling one dynamic-shape library agree with
serial calls bit for bit and leave the allocator's counters consistent; a library used before
fork() works in the child (the thread pool and the allocator start over); thousands of calls
with failures mixed in (shapes refused by name, failing shape checks, out of memory under a
memory limit) leave no byte in use and the library still right.

AOT_STRESS_SCALE=N multiplies the call counts (`make stress` runs a longer campaign)."""
import gc
import os
import re
import signal
import subprocess
import sys
import threading
import time
import warnings

import numpy as np
import pytest

import aot
from abi.loader import AotRuntimeError, ffi

SCALE = max(1, int(os.environ.get("AOT_STRESS_SCALE", "1")))

# t = exp(x) + y (a shape check: x and y must have as many rows), its row sums, t @ w. Rows of
# 512 or more make 32K-element kernels, which the thread pool splits.
PROGRAM = """
func.func @main(%x: tensor<?x64xf32>, %y: tensor<?x64xf32>, %w: tensor<64x32xf32>) -> (tensor<?x64xf32>, tensor<?xf32>, tensor<?x32xf32>) {
  %e = stablehlo.exponential %x : tensor<?x64xf32>
  %t = stablehlo.add %e, %y : tensor<?x64xf32>
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %s = stablehlo.reduce(%t init: %z) applies stablehlo.add across dimensions = [1] : (tensor<?x64xf32>, tensor<f32>) -> tensor<?xf32>
  %m = stablehlo.dot_general %t, %w, contracting_dims = [1] x [0] : (tensor<?x64xf32>, tensor<64x32xf32>) -> tensor<?x32xf32>
  return %t, %s, %m : tensor<?x64xf32>, tensor<?xf32>, tensor<?x32xf32>
}
"""  # noqa: E501

ROWS = (0, 1, 2, 3, 5, 8, 13, 31, 64, 100, 257, 600)  # 600: the kernels go parallel


@pytest.fixture(scope="module")
def lib():
    return aot.compile(PROGRAM, name="stress")


def make_cases(seed=0):
    rng = np.random.default_rng(seed)
    w = (rng.standard_normal((64, 32)) / 8).astype(np.float32)
    cases = []
    for rows in ROWS:
        x = (rng.standard_normal((rows, 64)) / 4).astype(np.float32)
        y = rng.standard_normal((rows, 64)).astype(np.float32)
        cases.append((x, y, w))
    return cases


def same_bits(got, want) -> bool:
    return all(g.shape == r.shape and g.dtype == r.dtype and g.tobytes() == r.tobytes()
               for g, r in zip(got, want))


def run_threads(n, worker):
    """Runs worker(k) on n threads started together; returns the exceptions they raised."""
    start = threading.Barrier(n)
    errors = []

    def body(k):
        try:
            start.wait()
            worker(k)
        except BaseException as e:  # reported by the caller, with the thread that saw it
            errors.append((k, repr(e)))

    threads = [threading.Thread(target=body, args=(k,)) for k in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return errors


def settled_stats(lib):
    gc.collect()  # results are numpy arrays over runtime blocks: freed when they die
    return lib.alloc_stats()


def test_eight_threads_agree_with_serial_bit_for_bit(lib):
    lib.set_num_threads(2)
    cases = make_cases()
    # serial results, and how many blocks one call of each shape allocates
    lib.reset_alloc_stats()
    wants, allocs_per_case = [], []
    for case in cases:
        before = lib.alloc_stats()["num_allocs"]
        wants.append(lib.main(*case))
        allocs_per_case.append(lib.alloc_stats()["num_allocs"] - before)
    in_use_of_wants = settled_stats(lib)["bytes_in_use"]  # the serial results' data and dims
    assert in_use_of_wants > 0
    lib.reset_alloc_stats()

    threads, calls = 8, 1000 * SCALE
    order = [[(k * 5 + 3 * i + i // len(cases)) % len(cases) for i in range(calls)]
             for k in range(threads)]
    mismatches = []

    def worker(k):
        for i, j in enumerate(order[k]):
            got = lib.main(*cases[j])
            if not same_bits(got, wants[j]):
                mismatches.append((k, i, ROWS[j]))

    began = time.perf_counter()
    errors = run_threads(threads, worker)
    took = time.perf_counter() - began
    assert not errors, errors[:3]
    assert not mismatches, mismatches[:10]
    stats = settled_stats(lib)
    expected_allocs = sum(allocs_per_case[j] for k in range(threads) for j in order[k])
    assert stats["num_allocs"] == expected_allocs
    assert stats["num_frees"] == expected_allocs
    assert stats["bytes_in_use"] == in_use_of_wants  # the serial results, still alive
    assert stats["peak_bytes_in_use"] >= in_use_of_wants
    wants.clear()  # the serial results die
    assert settled_stats(lib)["bytes_in_use"] == 0
    print(f"{threads} threads x {calls} calls: {took:.2f} s, {expected_allocs} allocations, "
          f"{stats['cache_hits']} cache hits, 0 bytes in use after")


# ---------------------------------------------------------------------------- fork


def wait_child(pid, timeout=60.0) -> int:
    """The child's exit status; a child still running after `timeout` (a deadlock) is killed
    and the test fails instead of hanging."""
    deadline = time.monotonic() + timeout
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            return os.waitstatus_to_exitcode(status)
        if time.monotonic() > deadline:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            pytest.fail(f"child {pid} still running after {timeout} s: deadlocked after fork()")
        time.sleep(0.01)


def fork_and_call(lib, case, want, threads=2) -> int:
    """Forks; the child calls the library with the pool on `threads` threads (and from a
    second Python thread too), compares with `want` and exits 0 (right), 1 (wrong) or 2 (an
    exception)."""
    with warnings.catch_warnings():  # Python warns that fork() in a threaded process may deadlock
        warnings.simplefilter("ignore", DeprecationWarning)
        pid = os.fork()
    if pid == 0:  # the child: never returns into pytest
        code = 2
        try:
            lib.set_num_threads(threads)
            ok = same_bits(lib.main(*case), want)
            box = []
            t = threading.Thread(target=lambda: box.append(same_bits(lib.main(*case), want)))
            t.start()
            t.join()
            ok = ok and box == [True] and same_bits(lib.main(*case), want)
            code = 0 if ok else 1
        finally:
            os._exit(code)
    return wait_child(pid)


def test_library_used_before_fork_works_in_the_child(lib):
    lib.set_num_threads(3)
    case = make_cases()[-1]  # 600 rows: every kernel goes to the pool
    want = lib.main(*case)
    assert same_bits(lib.main(*case), want)  # the parent's pool is up, its workers parked
    assert fork_and_call(lib, case, want, threads=3) == 0
    assert fork_and_call(lib, case, want, threads=1) == 0
    assert same_bits(lib.main(*case), want)  # and the parent's pool still works


def test_fork_while_another_thread_is_mid_call(lib):
    """A fork while another thread holds the pool (mid-job) or the allocator's lock: the
    child must start over rather than wait for a thread that does not exist there."""
    lib.set_num_threads(2)
    case = make_cases()[-1]
    want = lib.main(*case)
    stop = threading.Event()
    calls, bad = [0], []

    def busy():
        while not stop.is_set():
            if not same_bits(lib.main(*case), want):
                bad.append(calls[0])
            calls[0] += 1

    t = threading.Thread(target=busy)
    t.start()
    try:
        codes = []
        for _ in range(12 * SCALE):
            time.sleep(0.002)
            codes.append(fork_and_call(lib, case, want))
    finally:
        stop.set()
        t.join()
    assert codes == [0] * len(codes)
    assert not bad and calls[0] > 0
    want = None  # the serial result dies
    assert settled_stats(lib)["bytes_in_use"] == 0


# ---------------------------------------------------------------------------- memory


def raw_call(lib, arrays, dtypes=None):
    """Calls `main` through the C ABI with tensors built by hand (any dtype code and dims,
    which the Python loader would refuse before the call): (status, message, results)."""
    args = ffi.new("aot_tensor[]", len(arrays))
    keep = []
    for i, a in enumerate(arrays):
        dims = ffi.new("int64_t[]", list(a.shape) or [0])
        keep.append(dims)
        if a.size:
            data = ffi.from_buffer(a)
            keep.append(data)
            args[i].data = data
        args[i].dims = dims
        args[i].rank = a.ndim
        args[i].dtype = (dtypes or {}).get(i, 2)  # AOT_F32
    results = ffi.new("aot_tensor[]", 3)
    rc = lib.main._fn(args, results)
    message = ffi.string(lib._lib.aot_last_error()).decode()
    if rc == 0:
        for i in range(3):
            lib._lib.aot_tensor_free(ffi.addressof(results[i]))
    return rc, message, [results[i].data for i in range(3)]


@pytest.fixture
def limited(lib):
    """The library, to be given a memory limit (removed again after the test)."""
    yield lib
    lib.set_memory_limit(0)


def set_limit(lib, nbytes):
    """Starts from an empty allocator (earlier results collected, the cache released), then
    sets the limit."""
    gc.collect()  # a test's frame held by a pytest.raises traceback still holds its results
    lib.release_cached_memory()
    lib.set_memory_limit(nbytes)


def test_a_call_past_the_memory_limit_fails_naming_the_bytes(limited):
    lib = limited
    rows = 5000
    x = np.zeros((rows, 64), np.float32)
    w = np.zeros((64, 32), np.float32)
    set_limit(lib, 1 << 20)
    assert lib.get_memory_limit() == 1 << 20
    with pytest.raises(AotRuntimeError) as info:
        lib.main(x, x, w)
    assert info.value.code == 2
    needs = rows * 64 * 4
    assert re.match(rf"out of memory: needs {needs} bytes for the f32\[\?,64\] buffer in main at "
                    rf"\S+:\d+:\d+ \(memory limit 1048576 bytes, \d+ held\)$", str(info.value)), info.value
    assert settled_stats(lib)["bytes_in_use"] == 0
    lib.main(x[:100], x[:100], w)  # small enough
    assert lib.held_bytes() <= 1 << 20
    lib.set_memory_limit(0)
    t, s, m = lib.main(x, x, w)  # no limit: fine
    assert t.shape == (rows, 64) and float(t[0, 0]) == 1.0


@pytest.mark.skipif(os.environ.get("AOT_ALLOCATOR") == "system", reason="needs the cache")
def test_cached_blocks_go_before_a_call_fails(limited):
    lib = limited
    w = np.zeros((64, 32), np.float32)
    set_limit(lib, 3 << 20)
    a = np.zeros((4000, 64), np.float32)  # ~1 MB for t, 0.5 MB for m
    b = np.zeros((5000, 64), np.float32)  # another size class
    lib.main(a, a, w)
    assert lib.held_bytes() > 0  # its blocks are cached now
    held_before = lib.held_bytes()
    lib.main(b, b, w)  # fits only once the first call's cached blocks are dropped
    assert held_before + 5000 * 96 * 4 > 3 << 20
    assert lib.held_bytes() <= 3 << 20
    assert settled_stats(lib)["bytes_in_use"] == 0


def test_memory_limit_from_the_environment(lib, tmp_path):
    script = tmp_path / "limit.py"
    script.write_text(f"""
import numpy as np
from abi.loader import AotRuntimeError, Library
lib = Library({lib.path!r})
assert lib.get_memory_limit() == 512 * 1024, lib.get_memory_limit()
x, w = np.ones((4096, 64), np.float32), np.ones((64, 32), np.float32)
try:
    lib.main(x, x, w)
except AotRuntimeError as e:
    print(e.code, e)
t, s, m = lib.main(x[:10], x[:10], w)
total = float(s[0])
del t, s, m
print(total, lib.alloc_stats()["bytes_in_use"])
""")
    env = dict(os.environ, AOT_MEMORY_LIMIT="512k")
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    env["PYTHONPATH"] = root + os.pathsep + env.get("PYTHONPATH", "")
    out = subprocess.run([sys.executable, str(script)], env=env, capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 0, out.stderr
    first, second = out.stdout.splitlines()
    assert first.startswith(f"2 out of memory: needs {4096 * 64 * 4} bytes for the f32[?,64] buffer"), first
    assert "(memory limit 524288 bytes" in first
    total, in_use = second.split()
    assert abs(float(total) - 64 * (np.e + 1)) < 1e-3 and in_use == "0"


OVERFLOW = """
func.func @main(%x: tensor<?x?xf32>, %y: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %d = stablehlo.dot_general %x, %y, contracting_dims = [1] x [0] : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
  return %d : tensor<?x?xf32>
}
"""  # noqa: E501

STATIC_OVERFLOW = """
func.func @main(%y: tensor<?x2147483648x2147483648xf32>) -> tensor<2147483648x2147483648xf32> {
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %s = stablehlo.reduce(%y init: %z) applies stablehlo.add across dimensions = [0] : (tensor<?x2147483648x2147483648xf32>, tensor<f32>) -> tensor<2147483648x2147483648xf32>
  return %s : tensor<2147483648x2147483648xf32>
}
"""  # noqa: E501


def test_dims_whose_byte_size_overflows_are_an_error_not_a_wrap():
    """Empty arguments may have huge dims; a result that multiplies dims of two of them (here
    2^40 x 2^40 floats, 2^82 bytes) used to wrap to a 0-byte block the kernel wrote past."""
    lib = aot.compile(OVERFLOW, name="overflow")
    x, y = np.empty((1 << 40, 0), np.float32), np.empty((0, 1 << 40), np.float32)
    with pytest.raises(AotRuntimeError) as info:
        lib.main(x, y)
    assert info.value.code == 2
    assert str(info.value).startswith(
        "out of memory: needs more than 9223372036854775807 bytes for the f32[?,?] buffer in main at ")
    got = lib.main(np.ones((3, 0), np.float32), np.ones((0, 2), np.float32))
    assert got.shape == (3, 2) and not got.any()
    del got
    assert settled_stats(lib)["bytes_in_use"] == 0
    # static dims whose product passes int64, reached through an empty argument
    big = aot.compile(STATIC_OVERFLOW, name="overflow_static")
    args = ffi.new("aot_tensor[]", 1)
    dims = ffi.new("int64_t[]", [0, 1 << 31, 1 << 31])
    args[0].dims, args[0].rank, args[0].dtype = dims, 3, 2
    results = ffi.new("aot_tensor[]", 1)
    assert big.main._fn(args, results) == 2
    assert ffi.string(big._lib.aot_last_error()).decode() == (
        "out of memory: needs more than 9223372036854775807 bytes for main's result 'result0' "
        "(#0), f32[2147483648,2147483648]")
    assert results[0].data == ffi.NULL


def test_ten_thousand_calls_with_failures_mixed_in(limited):
    """4 threads x 2,500 calls: right answers, shapes the runtime refuses by name, a shape
    check that fails (x and y rows differ), and calls past the memory limit. Afterwards no
    byte is in use and the library still gives the serial answers."""
    lib = limited
    lib.set_num_threads(2)
    cases = make_cases(seed=3)
    wants = [lib.main(*c) for c in cases]
    w = cases[0][2]
    huge = np.zeros((20000, 64), np.float32)  # t alone needs 5,120,000 bytes
    set_limit(lib, 4 << 20)
    del_base = settled_stats(lib)["bytes_in_use"]
    lib.reset_alloc_stats()
    threads, calls = 4, 2500 * SCALE
    tally = {"ok": 0, "refused": 0, "check": 0, "oom": 0}
    problems = []
    lock = threading.Lock()

    def worker(k):
        rng = np.random.default_rng(100 + k)
        counts = dict.fromkeys(tally, 0)
        for i in range(calls):
            kind = rng.choice(["ok"] * 6 + ["refused", "check", "oom", "python"])
            try:
                if kind == "ok":
                    j = int(rng.integers(len(cases)))
                    if not same_bits(lib.main(*cases[j]), wants[j]):
                        problems.append((k, i, "wrong answer", ROWS[j]))
                    counts["ok"] += 1
                elif kind == "refused":  # through the C ABI: a dtype or a static dim wrong
                    x, y, _ = cases[int(rng.integers(1, len(cases)))]
                    if rng.integers(2):
                        rc, msg, data = raw_call(lib, [x, y, w], dtypes={1: 3})
                        want = "main: argument 'y' (#1) expects f32[?,64], got f64["
                    else:
                        rc, msg, data = raw_call(lib, [x, y, w[:63]])
                        want = "main: argument 'w' (#2) expects f32[64,32], got f32[63,32]"
                    if rc != 1 or not msg.startswith(want) or any(d != ffi.NULL for d in data):
                        problems.append((k, i, "refused", rc, msg))
                    counts["refused"] += 1
                elif kind == "check":
                    x = cases[-1][0]
                    y = cases[int(rng.integers(1, len(cases) - 1))][1]
                    try:
                        lib.main(x, y, w)
                        problems.append((k, i, "check passed"))
                    except AotRuntimeError as e:
                        if e.code != 3 or "operand dim 0 differs: 600 != " not in str(e):
                            problems.append((k, i, "check", e.code, str(e)))
                    counts["check"] += 1
                elif kind == "oom":
                    try:
                        lib.main(huge, huge, w)
                        problems.append((k, i, "oom passed"))
                    except AotRuntimeError as e:
                        if e.code != 2 or not str(e).startswith(
                                "out of memory: needs 5120000 bytes for the f32[?,64] buffer in main"):
                            problems.append((k, i, "oom", e.code, str(e)))
                    counts["oom"] += 1
                else:  # the loader refuses before the call
                    with pytest.raises(ValueError, match=r"argument 'w' \(#2\) expects f32\[64,32\]"):
                        lib.main(cases[1][0], cases[1][1], w.T.copy())
                    counts["refused"] += 1
            except BaseException as e:
                problems.append((k, i, kind, repr(e)))
        with lock:
            for key, n in counts.items():
                tally[key] += n

    began = time.perf_counter()
    errors = run_threads(threads, worker)
    took = time.perf_counter() - began
    assert not errors, errors[:3]
    assert not problems, problems[:5]
    assert sum(tally.values()) == threads * calls
    assert all(n > 0 for n in tally.values()), tally
    stats = settled_stats(lib)
    assert stats["bytes_in_use"] == del_base
    assert stats["num_allocs"] == stats["num_frees"]
    assert lib.held_bytes() <= 4 << 20
    assert all(same_bits(lib.main(*c), want) for c, want in zip(cases, wants))
    wants.clear()  # the serial results die
    assert settled_stats(lib)["bytes_in_use"] == 0
    print(f"{threads * calls} calls {tally} in {took:.2f} s: {stats['num_allocs']} allocations, "
          f"0 bytes in use after, {lib.held_bytes()} held under a {4 << 20}-byte limit")


def test_the_shape_query_refuses_sizes_that_overflow_too():
    """output_shapes replays the allocations to report the peak: a buffer whose byte size
    passes 2^62 is the same kind of error there, not a wrapped peak of 0 bytes."""
    lib = aot.compile(OVERFLOW, name="overflow_query")
    x, y = np.empty((1 << 40, 0), np.float32), np.empty((0, 1 << 40), np.float32)
    with pytest.raises(AotRuntimeError, match=r"main: .*f32\[1099511627776, 1099511627776\] "
                                              r"has a negative dim or needs more than 2\^62 bytes"):
        lib.main.output_shapes(x, y)
    shapes = lib.main.output_shapes(np.ones((3, 0), np.float32), np.ones((0, 2), np.float32))
    assert shapes.shapes == [(3, 2)] and shapes.peak_bytes == 24
