"""One case in a forked process of its own, for the corpus campaigns (the emulated grid, the
device kit's build): an abort inside LLVM, a crash or a hang is one failed case, not the run."""
from __future__ import annotations

import multiprocessing as mp
import traceback

SLICE_S = 5.0


def _child(fn, args, conn):
    try:
        conn.send(fn(*args))
    except BaseException as e:  # noqa: BLE001 - reported as the case's failure
        conn.send(("failed", f"{type(e).__name__}: {e}"[:400] + traceback.format_exc()[-400:]))


def isolated(fn, args: tuple, timeout_s: float) -> tuple:
    """fn(*args) in a forked child; ("failed", why) when it raised, crashed or timed out."""
    ctx = mp.get_context("fork")
    parent, child = ctx.Pipe(duplex=False)
    p = ctx.Process(target=_child, args=(fn, args, child))
    p.start()
    waited = 0.0
    while p.is_alive() and waited < timeout_s:  # in slices: a clock that jumps (seen on this
        p.join(min(SLICE_S, timeout_s - waited))  # project's VMs: "timed out after 900 s" 4 s
        waited += SLICE_S  # into a run) ends one slice early, not the whole wait
    if p.is_alive():
        p.kill()
        return "failed", f"timed out after {timeout_s} s"
    if not parent.poll():
        return "failed", f"crashed (exit code {p.exitcode})"
    return parent.recv()
