"""Tests' C programs under AddressSanitizer and UndefinedBehaviorSanitizer.

`make test-asan` sets AOTC_SANITIZE=address,undefined: aotc then builds the runtime with the
sanitizers, and the tests that build C programs of their own add `cflags()` to their compile
and link commands and run them with `run_env()` (leak detection on), checking the output with
`findings()`. With AOTC_SANITIZE unset `cflags()` is empty and nothing changes."""
from __future__ import annotations

import functools
import os
import re
import subprocess
import tempfile

from aot import toolchain

SANITIZE = ("address", "undefined")  # what tests/e2e/test_sanitizers.py always uses

# Every sanitizer's report starts with one of these (ASan/LSan's banner, UBSan's diagnostic).
REPORT_RE = re.compile(r"ERROR: (Address|Leak|UndefinedBehavior)Sanitizer|"
                       r"^\S+:\d+:\d+: runtime error: |^SUMMARY: \w+Sanitizer", re.M)


# For a C program: leaks are errors. For the Python process of `make test-asan`: not (Python
# leaks at exit by design). malloc returns NULL when it cannot, as it would without ASan.
ASAN_OPTIONS_C = "detect_leaks=1:allocator_may_return_null=1"
ASAN_OPTIONS_PYTHON = "detect_leaks=0:allocator_may_return_null=1"
UBSAN_OPTIONS = "print_stacktrace=1:halt_on_error=1"
# Leaks that are not the runtime's (each says why).
LSAN_OPTIONS = "suppressions=" + os.path.join(os.path.dirname(os.path.abspath(__file__)), "lsan.supp")


def active() -> tuple:
    """The sanitizers of $AOTC_SANITIZE (what `make test-asan` sets), () when unset."""
    return toolchain.env_sanitize()


def cflags(sanitize: tuple | None = None) -> list[str]:
    """Flags for compiling and linking a C program with `sanitize` (default: $AOTC_SANITIZE)."""
    return toolchain.sanitize_cflags(active() if sanitize is None else sanitize)


def run_env(base: dict | None = None, **extra) -> dict:
    """The environment for a sanitized C program: leaks reported (the exit code is then
    non-zero), UBSan with stack traces."""
    env = dict(os.environ if base is None else base)
    env["ASAN_OPTIONS"] = ASAN_OPTIONS_C
    env["UBSAN_OPTIONS"] = UBSAN_OPTIONS
    env["LSAN_OPTIONS"] = LSAN_OPTIONS
    env.update(extra)
    return env


def findings(stderr: str) -> list[str]:
    """The sanitizer reports in a program's stderr, one line each."""
    return [line for line in stderr.splitlines() if REPORT_RE.search(line)]


@functools.lru_cache(maxsize=None)
def unavailable(cc: str = "cc") -> str | None:
    """Why `cc` cannot build and run a program with ASan and UBSan whose leak is reported,
    or None when it can."""
    with tempfile.TemporaryDirectory() as d:
        src, exe = os.path.join(d, "probe.c"), os.path.join(d, "probe")
        with open(src, "w") as f:
            f.write("#include <stdlib.h>\nint main(void) { void *volatile p = malloc(7); "
                    "p = 0; return p != 0; }\n")
        proc = subprocess.run([cc, *cflags(SANITIZE), src, "-o", exe], capture_output=True,
                              text=True)
        if proc.returncode:
            return (f"{cc} cannot build with -fsanitize=address,undefined (install libasan and "
                    f"libubsan): {proc.stderr.strip()[-300:]}")
        run = subprocess.run([exe], capture_output=True, text=True, env=run_env(), timeout=60)
        if "LeakSanitizer: detected memory leaks" not in run.stderr:
            return f"LeakSanitizer does not run here (exit {run.returncode}): {run.stderr[-300:]}"
    return None


def python_env(base: dict | None = None) -> dict:
    """The environment for a Python process that loads sanitized libraries (`make
    test-asan`): the sanitizers' runtimes preloaded (they must come first), Python's own
    leaks at exit not reported, AOTC_SANITIZE for every build, and AOT_ALLOCATOR=system so
    that each runtime block is its own malloc, bounds-checked and freed for real."""
    env = dict(os.environ if base is None else base)
    cc = toolchain.find_toolchain(sanitize="").cc
    libs = []
    for name in ("asan", "ubsan"):
        path = subprocess.run([*cc, f"-print-file-name=lib{name}.so"], capture_output=True,
                              text=True).stdout.strip()
        if not os.path.isabs(path):
            raise RuntimeError(f"{' '.join(cc)} has no lib{name}.so: install it (libasan8, "
                               "libubsan1 on Debian/Ubuntu)")
        libs.append(path)
    env["LD_PRELOAD"] = " ".join([*libs, env.get("LD_PRELOAD", "")]).strip()
    env.setdefault("AOTC_SANITIZE", ",".join(SANITIZE))
    env.setdefault("AOT_ALLOCATOR", "system")
    env["ASAN_OPTIONS"] = ASAN_OPTIONS_PYTHON
    env["UBSAN_OPTIONS"] = UBSAN_OPTIONS
    return env


def python_thread_env(log_path: str, base: dict | None = None) -> dict:
    """The environment for a Python process that loads libraries whose runtime is built with
    ThreadSanitizer (`make test-tsan`): TSan's runtime preloaded, AOTC_SANITIZE=thread for
    every build, reports written to `log_path`.PID (pytest would hide them in passing tests)
    and the process's exit status non-zero when there are any (TSan's own exitcode).
    numpy's BLAS runs on one thread: its worker threads are not instrumented, and TSan
    reported their own hand-off of buffers as races."""
    env = {k: v for k, v in (os.environ if base is None else base).items()
           if k not in ("LD_PRELOAD", "ASAN_OPTIONS", "UBSAN_OPTIONS", "LSAN_OPTIONS")}
    cc = toolchain.find_toolchain(sanitize="").cc
    path = subprocess.run([*cc, "-print-file-name=libtsan.so"], capture_output=True,
                          text=True).stdout.strip()
    if not os.path.isabs(path):
        raise RuntimeError(f"{' '.join(cc)} has no libtsan.so: install it (libtsan2 on Debian)")
    env["LD_PRELOAD"] = path
    env["AOTC_SANITIZE"] = "thread"
    env["OPENBLAS_NUM_THREADS"] = "1"
    env["TSAN_OPTIONS"] = f"halt_on_error=0 log_path={log_path}"
    return env


def thread_env(**extra) -> dict:
    """The environment for a program built with ThreadSanitizer: any race ends it, and no
    other sanitizer's runtime preloaded (`make test-asan` preloads ASan's into Python, and
    so into its children; with TSan's that crashes the program at start)."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("LD_PRELOAD", "ASAN_OPTIONS", "UBSAN_OPTIONS", "LSAN_OPTIONS")}
    env["TSAN_OPTIONS"] = "halt_on_error=1"
    env.update(extra)
    return env


# The start of the tests' threaded C programs: their headers, and fail(), which counts and
# prints a failure from any thread.
THREADED_C_PRELUDE = r"""
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static int failures;
static pthread_mutex_t report = PTHREAD_MUTEX_INITIALIZER;

static void fail(const char *what) {
    pthread_mutex_lock(&report);
    failures++;
    printf("%s\n", what);
    pthread_mutex_unlock(&report);
}
"""


def build_thread_program(directory: str, name: str, program: str, archive: str) -> str:
    """THREADED_C_PRELUDE + `program` built with ThreadSanitizer against `archive` (an
    artifact built with --sanitize thread, its header in `directory`); the executable."""
    src, exe = os.path.join(directory, f"{name}.c"), os.path.join(directory, name)
    with open(src, "w") as f:
        f.write(THREADED_C_PRELUDE + program)
    proc = subprocess.run(["cc", "-O1", "-Wall", "-Werror", "-fsanitize=thread", "-g", "-o", exe,
                           src, "-I", directory, archive, "-lm", "-lpthread", "-ldl"],
                          capture_output=True, text=True, env=thread_env())
    assert proc.returncode == 0, proc.stderr
    return exe


def run_thread_clean(exe: str, **env) -> str:
    """Runs a ThreadSanitizer program; it must exit 0 with no race reported. Its stdout."""
    run = subprocess.run([exe], capture_output=True, text=True, timeout=300,
                         env=thread_env(**env))
    assert "ThreadSanitizer" not in run.stderr, run.stderr[-6000:]
    assert run.returncode == 0, run.stdout + run.stderr[-3000:]
    return run.stdout


@functools.lru_cache(maxsize=None)
def thread_unavailable(cc: str = "cc") -> str | None:
    """Why `cc` cannot build and run a program with ThreadSanitizer, or None when it can."""
    with tempfile.TemporaryDirectory() as d:
        src, exe = os.path.join(d, "probe.c"), os.path.join(d, "probe")
        with open(src, "w") as f:
            f.write("int main(void) { return 0; }\n")
        proc = subprocess.run([cc, "-fsanitize=thread", src, "-o", exe], capture_output=True,
                              text=True, env=thread_env())
        if proc.returncode:
            return f"{cc} cannot build with -fsanitize=thread (install libtsan): " \
                   f"{proc.stderr.strip()[-300:]}"
        run = subprocess.run([exe], capture_output=True, text=True, env=thread_env(), timeout=60)
        if run.returncode:
            return f"a ThreadSanitizer program does not run here: {run.stderr[-300:]}"
    return None

