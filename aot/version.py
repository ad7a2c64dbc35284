"""The compiler's version, and a fingerprint of its sources: the build cache's key (aot/api.py)
and the manifest of every artifact (aot/manifest.py) both read them. Imports nothing of the
compiler."""
from __future__ import annotations

import functools
import hashlib
import os

COMPILER_VERSION = "0.1.0"


@functools.lru_cache(maxsize=1)
def compiler_fingerprint() -> str:
    """Hash of the compiler's own sources: a changed compiler never reuses an old build."""
    import glob
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    h = hashlib.sha256(COMPILER_VERSION.encode())
    for pkg in ("aot", "lowering", "abi", "runtime_c"):
        for path in sorted(glob.glob(os.path.join(root, pkg, "**", "*"), recursive=True)):
            if path.endswith((".py", ".lark", ".c", ".h")):
                with open(path, "rb") as f:
                    h.update(path[len(root):].encode() + f.read())
    return h.hexdigest()
