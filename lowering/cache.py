"""Where the compiler keeps what it builds once and reuses: `$AOTC_CACHE_DIR`, else
`$XDG_CACHE_HOME/aotc` (`~/.cache/aotc`). Built libraries, runtime objects and the parser's
tables live there."""
from __future__ import annotations

import os


def cache_dir() -> str:
    d = os.environ.get("AOTC_CACHE_DIR") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "aotc")
    os.makedirs(d, exist_ok=True)
    return d
