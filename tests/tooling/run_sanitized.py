"""`make test-asan`: runs a command (pytest) with the sanitizers' runtimes preloaded and
AOTC_SANITIZE=address,undefined, after checking that this machine's C compiler builds
sanitized programs whose findings are reported. Usage: run_sanitized.py COMMAND ARGS..."""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [os.path.dirname(os.path.dirname(HERE)), os.path.dirname(HERE)]

from tooling import sanitize  # noqa: E402

if __name__ == "__main__":
    why = sanitize.unavailable()
    if why:
        sys.exit(f"make test-asan: {why}")
    env = sanitize.python_env()
    print(f"sanitized run: AOTC_SANITIZE={env['AOTC_SANITIZE']} "
          f"AOT_ALLOCATOR={env['AOT_ALLOCATOR']} LD_PRELOAD={env['LD_PRELOAD']}", flush=True)
    os.execvpe(sys.argv[1], sys.argv[1:], env)
