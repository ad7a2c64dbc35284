"""Test setup: the repository root and tests/ importable, and a private build cache
per session so tests never read artifacts from an older compiler."""
import os
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
for p in (ROOT, os.path.join(ROOT, "tests")):
    if p not in sys.path:
        sys.path.insert(0, p)

if "AOTC_CACHE_DIR" not in os.environ:
    os.environ["AOTC_CACHE_DIR"] = tempfile.mkdtemp(prefix="aotc-test-cache-")
