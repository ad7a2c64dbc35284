"""Shrink a failing fuzz input to a small regression test: lines, then tokens, are dropped
while the failure keeps its signature (exception type and innermost compiler frame).

    python tests/tooling/fuzz/reduce.py build/fuzz/internal-1-42.mlir [-o small.mlir]
"""
from __future__ import annotations

import argparse
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
if ROOT not in sys.path:
    sys.path[:0] = [ROOT, os.path.join(ROOT, "tests")]

from tooling.fuzz.campaign import compile_one  # noqa: E402
from tooling.fuzz.mutate import tokens  # noqa: E402


def failure(data: bytes, llvm: bool = False):
    """The failure's signature, or None when the input compiles or is a located error."""
    kind, detail = compile_one(data, "reduced.mlir", llvm)
    if kind == "internal":
        return detail.split("\n", 1)[0]
    return kind if kind == "unlocated" else None


def _shrink(parts: list, joiner: str, keeps) -> list:
    """Delta debugging over `parts`: drop chunks, halving the chunk size down to one."""
    n = max(1, len(parts) // 2)
    while n >= 1:
        i, changed = 0, False
        while i < len(parts):
            trial = parts[:i] + parts[i + n:]
            if trial and keeps(joiner.join(trial)):
                parts, changed = trial, True
            else:
                i += n
        if not changed:
            n //= 2
    return parts


def reduce(data: bytes, llvm: bool = False) -> bytes:
    want = failure(data, llvm)
    if want is None:
        raise SystemExit("the input does not fail")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return data

    def keeps(t: str) -> bool:
        return failure(t.encode("utf-8"), llvm) == want

    lines = _shrink(text.split("\n"), "\n", keeps)
    text = "\n".join(lines)
    # tokens: drop whole tokens, keeping the text between them
    spans = [(m.start(), m.end()) for m in tokens(text)]
    pieces, last = [], 0
    for s, e in spans:
        pieces.append(text[last:e])
        last = e
    pieces.append(text[last:])
    text = "".join(_shrink(pieces, "", keeps))
    return text.encode("utf-8")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("input")
    ap.add_argument("-o", "--output", help="default: stdout")
    ap.add_argument("--llvm", action="store_true", help="the failure is in codegen to LLVM IR")
    args = ap.parse_args(argv)
    with open(args.input, "rb") as f:
        out = reduce(f.read(), args.llvm)
    print(f"signature: {failure(out, args.llvm)}", file=sys.stderr)
    if args.output:
        with open(args.output, "wb") as f:
            f.write(out)
    else:
        sys.stdout.write(out.decode("utf-8", errors="replace"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
