"""`make test-asan`: runs a command (pytest) with the sanitizers' runtimes preloaded and
AOTC_SANITIZE=address,undefined, after checking that this machine's C compiler builds
sanitized programs whose findings are reported. Usage: run_sanitized.py COMMAND ARGS...

`make test-tsan`: run_sanitized.py --thread COMMAND ARGS... does the same with
ThreadSanitizer (AOTC_SANITIZE=thread), then prints every race it reported (from
build/tsan/) and fails if there was one."""
import glob
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path[:0] = [ROOT, os.path.dirname(HERE)]

from tooling import sanitize  # noqa: E402


def run_thread_sanitized(command: list) -> int:
    why = sanitize.thread_unavailable()
    if why:
        sys.exit(f"make test-tsan: {why}")
    logs = os.path.join(ROOT, "build", "tsan")
    shutil.rmtree(logs, ignore_errors=True)
    os.makedirs(logs)
    env = sanitize.python_thread_env(os.path.join(logs, "report"))
    print(f"thread-sanitized run: AOTC_SANITIZE=thread LD_PRELOAD={env['LD_PRELOAD']}", flush=True)
    rc = subprocess.call(command, env=env)
    reports = sorted(glob.glob(os.path.join(logs, "report*")))
    for path in reports:
        with open(path) as f:
            print(f.read(), end="")
    if reports:
        print(f"make test-tsan: ThreadSanitizer reported races (in {logs})")
    return rc or (1 if reports else 0)


if __name__ == "__main__":
    if sys.argv[1] == "--thread":
        sys.exit(run_thread_sanitized(sys.argv[2:]))
    why = sanitize.unavailable()
    if why:
        sys.exit(f"make test-asan: {why}")
    env = sanitize.python_env()
    print(f"sanitized run: AOTC_SANITIZE={env['AOTC_SANITIZE']} "
          f"AOT_ALLOCATOR={env['AOT_ALLOCATOR']} LD_PRELOAD={env['LD_PRELOAD']}", flush=True)
    os.execvpe(sys.argv[1], sys.argv[1:], env)
