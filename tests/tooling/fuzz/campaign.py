"""A fuzz campaign: mutated corpus programs (mutate.py) through the compiler, each in a pool
of worker processes with a time limit, so a crash or a hang is one failed input.

    python tests/tooling/fuzz/campaign.py -n 100000 --seed 1     (make fuzz N=100000 SEED=1)
    python tests/tooling/fuzz/campaign.py --replay build/fuzz/internal-1-42.mlir

Every input must end in a compile to the loop stage (`--llvm-every K`: every K-th one that
does also goes on to optimised LLVM IR) or a CompileError located in the input
(file:line:col). Anything else fails the input:
  internal  any other exception (an internal compiler error, exit 3 from aotc)
  unlocated a CompileError without a line in the input
  crash     the worker process died (a signal, an abort in native code, out of memory)
  hang      no answer within --timeout seconds (the worker is killed)
Counts go to stdout; every failing input to --out as KIND-SEED-INDEX.mlir, with a .txt
beside it naming its corpus file, its mutations and the error. Exit status 1 on any failure.
"""
from __future__ import annotations

import argparse
import multiprocessing as mp
import os
import re
import sys
import time
import traceback
from collections import Counter
from dataclasses import dataclass, field
from multiprocessing.connection import wait

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
if ROOT not in sys.path:
    sys.path[:0] = [ROOT, os.path.join(ROOT, "tests")]

from tooling.fuzz.mutate import make_input  # noqa: E402

FAILURES = ("internal", "unlocated", "crash", "hang")
# A CompileError that is an internal error dressed up: the parser's catch-all for unexpected
# exceptions in its transformer says `malformed RULE (ValueError: ...)`.
DISGUISED = re.compile(r"\((?:[A-Z]\w*(?:Error|Exception)|StopIteration): ")
RECYCLE = 500  # inputs per worker process before a fresh one takes over
KINDS = ("compiled", "error") + FAILURES


def compile_one(data: bytes, name: str, llvm: bool = False) -> tuple:
    """(kind, detail) of one input, compiled in this process as `aotc compile` does:
    read_source's decoding, then the stages to loops (and LLVM IR if `llvm`)."""
    from aot.driver import Compilation, Options
    from lowering.frontend.source import decode_source
    from lowering.ir.core import CompileError
    try:
        comp = Compilation(decode_source(data, name), name, Options(name="fuzz"))
        comp.loops()
        if llvm:
            comp.llvm()
    except CompileError as e:
        if DISGUISED.search(e.message):  # the parser's catch-all: a bug it caught, not a message
            return "internal", f"{e.message} (a CompileError)\n{e.render()}"
        if e.loc.file == name and e.loc.line > 0:
            return "error", e.render()
        return "unlocated", e.render()
    except Exception as e:  # noqa: BLE001  (what the campaign is looking for)
        return "internal", signature(e) + "\n" + "".join(traceback.format_exception(e))
    return "compiled", ""


def signature(e: BaseException) -> str:
    """`Type at file:line (function)`: the innermost frame in the compiler's own code, what
    groups the failures one bug causes."""
    frames = [f for f in traceback.extract_tb(e.__traceback__)
              if f.filename.startswith(ROOT) and "/tests/" not in f.filename
              and "/.venv/" not in f.filename and "site-packages" not in f.filename]
    where = (f"{os.path.relpath(frames[-1].filename, ROOT)}:{frames[-1].lineno} ({frames[-1].name})"
             if frames else "?")
    return f"{type(e).__name__} at {where}"


def _mapped() -> int:
    """Bytes of address space this process maps (Linux's /proc; 0 where there is none)."""
    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError):
        return 0


def _worker(conn, memory_mb: int, hooks: bool = False, work=compile_one) -> None:
    import faulthandler
    import warnings
    faulthandler.disable()  # a crash is counted by the parent, not dumped on its terminal
    warnings.simplefilter("ignore")  # numpy's overflow warnings on out-of-range literals
    if memory_mb:  # on top of what the fork inherited: a pytest worker that has loaded LLVM
        import resource  # and started threads may already map more than memory_mb (every
        limit = _mapped() + (memory_mb << 20)  # allocation then failed: MemoryError, crashes)
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    while True:
        msg = conn.recv()
        if msg is None:
            return
        index, args = msg
        if hooks and args[0] == b"crash":  # the tests' check of the pool's own guards
            os.kill(os.getpid(), 11)
        if hooks and args[0] == b"hang":
            time.sleep(3600)
        kind, detail = work(*args)
        conn.send((index, kind, detail))


@dataclass
class Result:
    counts: Counter = field(default_factory=Counter)
    failures: list = field(default_factory=list)  # (index, kind, detail, path or None)
    signatures: Counter = field(default_factory=Counter)
    seconds: float = 0.0
    outcomes: dict = field(default_factory=dict)  # index -> (kind, detail), with keep_all

    @property
    def failed(self) -> int:
        return sum(self.counts[k] for k in FAILURES)

    def line(self) -> str:
        c = self.counts
        return (f"{sum(c.values())} inputs: {c['compiled']} compiled, {c['error']} located errors, "
                f"{c['internal']} internal errors, {c['unlocated']} unlocated errors, "
                f"{c['crash']} crashes, {c['hang']} hangs ({self.seconds:.0f} s)")


class _Slot:
    """One worker process and the input it is on."""

    def __init__(self, ctx, memory_mb, hooks=False, work=compile_one):
        self.ctx, self.memory_mb, self.hooks, self.work = ctx, memory_mb, hooks, work
        self.start()

    def start(self):
        self.conn, child = self.ctx.Pipe()
        self.proc = self.ctx.Process(target=_worker,
                                     args=(child, self.memory_mb, self.hooks, self.work),
                                     daemon=True)
        self.proc.start()
        child.close()
        self.job = None  # (index, deadline)
        self.done = 0  # inputs this process has compiled

    def restart(self):
        if self.proc.is_alive():
            self.proc.kill()
        self.proc.join()
        self.conn.close()
        self.start()

    def stop(self):
        try:
            self.conn.send(None)
        except OSError:
            pass
        self.proc.join(5)
        if self.proc.is_alive():
            self.proc.kill()
            self.proc.join()


def pool(jobs: int, timeout: float, work, items, memory_mb: int = 4096, recycle: int = RECYCLE,
         _hooks: bool = False):
    """Run `work(*args)` -> (kind, detail) for every (index, args) of `items` in `jobs` forked
    worker processes (`work` a module-level function; import what it needs before calling),
    yielding (index, kind, detail) as each finishes: kind "crash" when the process died on it
    and "hang" after `timeout` seconds without an answer (a new process takes over). Every
    `recycle` inputs a worker is replaced by a fresh one."""
    ctx = mp.get_context("fork")
    slots = [_Slot(ctx, memory_mb, _hooks, work) for _ in range(max(1, jobs))]
    it = iter(items)

    def feed(slot):
        try:
            index, args = next(it)
        except StopIteration:
            return False
        slot.job = (index, time.monotonic() + timeout)
        slot.conn.send((index, args))
        return True

    try:
        busy = [s for s in slots if feed(s)]
        while busy:
            wait_for = max(0.0, min(s.job[1] for s in busy) - time.monotonic())
            ready = wait([s.conn for s in busy], timeout=wait_for)
            for slot in list(busy):
                index = slot.job[0]
                if slot.conn in ready:
                    try:
                        _, kind, detail = slot.conn.recv()
                    except (EOFError, OSError):
                        slot.proc.join(1)
                        kind, detail = "crash", f"worker died (exit code {slot.proc.exitcode})"
                        slot.restart()
                elif time.monotonic() > slot.job[1]:
                    kind, detail = "hang", f"no result within {timeout:g} s"
                    slot.restart()
                else:
                    continue
                slot.done += 1
                if slot.done >= recycle and slot.proc.is_alive():
                    slot.stop()  # memory the compiler's caches hold (aot.driver's functools.cache
                    slot.start()  # keeps every Compilation) goes with the process
                yield index, kind, detail
                if not feed(slot):
                    busy.remove(slot)
    finally:
        for s in slots:
            s.stop()


def run(inputs, jobs: int = 2, timeout: float = 30.0, out_dir: str | None = None,
        memory_mb: int = 4096, progress: bool = False, keep_all: bool = False,
        _hooks: bool = False) -> Result:
    """Compile every input of `inputs` (an iterable of (index, bytes, name, llvm, describe),
    `describe()` giving the lines for a failure's .txt) in `jobs` worker processes."""
    import aot.driver  # noqa: F401  (imported once, before the workers fork)
    import lowering.frontend.source  # noqa: F401
    res = Result()
    pending = {}  # index -> (data, name, describe)
    t0 = last = time.monotonic()

    def items():
        for index, data, name, llvm, describe in inputs:
            pending[index] = (data, name, describe)
            yield index, (data, name, llvm)

    for index, kind, detail in pool(jobs, timeout, compile_one, items(), memory_mb,
                                    _hooks=_hooks):
        res.counts[kind] += 1
        data, name, describe = pending.pop(index)
        if keep_all:
            res.outcomes[index] = (kind, detail)
        if kind in FAILURES:
            sig = detail.split("\n", 1)[0] if kind == "internal" else kind
            res.signatures[sig] += 1
            path = None
            if out_dir:
                os.makedirs(out_dir, exist_ok=True)
                path = os.path.join(out_dir, f"{kind}-{name}")
                with open(path, "wb") as f:
                    f.write(data)
                with open(path[:-5] + ".txt", "w") as f:
                    f.write("\n".join(describe()) + f"\n\n{kind}: {detail}\n")
            res.failures.append((index, kind, detail, path))
        if progress and time.monotonic() - last > 15:
            last = time.monotonic()
            res.seconds = last - t0
            print(f"  ... {res.line()}", flush=True)
    res.seconds = time.monotonic() - t0
    return res


def campaign_inputs(seed: int, n: int, start: int = 0, llvm_every: int = 0):
    for index in range(start, start + n):
        data, base, descs = make_input(seed, index)
        llvm = bool(llvm_every) and index % llvm_every == 0
        yield (index, data, f"{seed}-{index}.mlir", llvm,
               lambda b=base, d=descs, i=index: [f"seed {seed} index {i}", f"from {b}"] + d)


def replay_inputs(paths, llvm: bool):
    for i, p in enumerate(paths):
        with open(p, "rb") as f:
            data = f.read()
        yield i, data, os.path.basename(p), llvm, lambda p=p: [f"replay of {p}"]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("-n", type=int, default=1000, help="inputs (default 1000)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--start", type=int, default=0, help="first input index (default 0)")
    ap.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--timeout", type=float, default=30.0, help="seconds per input (default 30)")
    ap.add_argument("--llvm-every", type=int, default=0, metavar="K",
                    help="every K-th input also compiles to optimised LLVM IR (default: none)")
    ap.add_argument("--memory-mb", type=int, default=4096,
                    help="address-space limit per worker (default 4096; 0: none)")
    ap.add_argument("--out", default=os.path.join(ROOT, "build", "fuzz"),
                    help="directory for failing inputs (default build/fuzz)")
    ap.add_argument("--replay", nargs="+", metavar="FILE", help="compile these files instead")
    args = ap.parse_args(argv)
    if args.replay:
        inputs = replay_inputs(args.replay, bool(args.llvm_every))
        what = f"replay of {len(args.replay)} files"
    else:
        inputs = campaign_inputs(args.seed, args.n, args.start, args.llvm_every)
        what = f"seed {args.seed}, inputs {args.start}..{args.start + args.n - 1}"
    print(f"fuzz: {what}, {args.jobs} workers, {args.timeout:g} s per input", flush=True)
    res = run(inputs, args.jobs, args.timeout, None if args.replay else args.out, args.memory_mb,
              progress=True,
              keep_all=bool(args.replay))
    for index, (kind, detail) in sorted(res.outcomes.items()):  # a replay: each file's outcome
        print(f"--- {args.replay[index]}: {kind}\n{detail}".rstrip())
    print(f"fuzz: {res.line()}")
    for sig, count in res.signatures.most_common():
        print(f"  {count:6d}  {sig}")
    if res.failed and not args.replay:
        print(f"fuzz: failing inputs in {args.out}")
    return 1 if res.failed else 0


if __name__ == "__main__":
    sys.exit(main())
