"""Where the compiler keeps what it builds once and reuses: `$AOTC_CACHE_DIR`, else
`$XDG_CACHE_HOME/aotc` (`~/.cache/aotc`). Built libraries, runtime objects, helper objects
and the parser's tables live there.

Each entry's modification time is when it was last used (`touch` on every reuse), so
`prune` (`aotc cache --prune DAYS`) can drop what no compile has used for a while: the
libraries of programs compiled once, and the runtime and helper objects of earlier compiler
versions, which nothing asks for again."""
from __future__ import annotations

import functools
import hashlib
import os
import re
import shutil
import time

# `from M import (A, B)`, `from M import A, B`, `import M, N`: (M, names) or (None, modules)
IMPORT = re.compile(r"^[ \t]*(?:from[ \t]+([\w.]+)[ \t]+import[ \t]+(\([^)]*\)|[^\n#]*)"
                    r"|import[ \t]+([\w., \t]+))", re.M)

# Top-level names in the cache and what they hold, for `aotc cache`
KINDS = (("build", "compiled libraries"), ("runtime-", "runtime objects"),
         ("helpers", "matmul and convolution helper objects"))


class CacheError(OSError):
    """The cache directory cannot be made or used (a file in its place, no permission)."""


def cache_dir() -> str:
    named = os.environ.get("AOTC_CACHE_DIR")
    d = named or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "aotc")
    try:
        os.makedirs(d, exist_ok=True)
    except OSError as e:
        where = f"AOTC_CACHE_DIR={d}" if named else d
        why = "it is not a directory" if os.path.exists(d) else e.strerror or str(e)
        raise CacheError(f"the compile cache {where} cannot be used: {why} "
                         "(set AOTC_CACHE_DIR to a directory this user can write)") from None
    return d


@functools.cache
def source_digest(module: str, root: str | None = None) -> str:
    """Hash of the project's source files that `module` imports, transitively (imports inside
    functions counted): the key of what is built from those files alone. The helper objects
    keyed by every source file were rebuilt after any edit anywhere in the compiler (+2.6 s
    of CPU in the next compile), though their code comes from nine files. `root`: the
    directory holding the packages (this project's)."""
    root = root or os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    seen, todo = {}, [module]
    while todo:
        name = todo.pop()
        base = os.path.join(root, *name.split("."))
        path = next((p for p in (base + ".py", os.path.join(base, "__init__.py"))
                     if os.path.isfile(p)), None)
        if path is None or path in seen:
            continue  # not the project's (numpy, llvmlite), or read already
        with open(path, "rb") as f:
            seen[path] = f.read()
        for module_name, names, modules in IMPORT.findall(seen[path].decode()):
            if module_name:  # a name imported from a package may be its module
                todo += [module_name] + [f"{module_name}.{n.split()[0]}" for n in
                                         names.strip("()").replace("\n", " ").split(",")
                                         if n.strip()]
            else:
                todo += [m.split()[0] for m in modules.split(",") if m.strip()]
    h = hashlib.sha256()
    for path in sorted(seen):
        h.update(os.path.relpath(path, root).encode() + b"\0" + seen[path])
    return h.hexdigest()


def touch(path: str) -> None:
    """Marks a cache entry as used now (its mtime), which pruning goes by; never fails
    a compile (a read-only cache is only never pruned)."""
    try:
        os.utime(path)
    except OSError:
        pass


def _size(path: str) -> int:
    if not os.path.isdir(path):
        return os.path.getsize(path) if os.path.exists(path) else 0
    total = 0
    for root, _, files in os.walk(path):
        for f in files:
            try:
                total += os.path.getsize(os.path.join(root, f))
            except OSError:  # removed meanwhile by a compile beside us
                pass
    return total


def _entry_paths(root: str) -> list[tuple[str, str]]:
    """(kind, path) of every prunable entry: each library's build directory, each
    runtime-object directory, each helper object."""
    found = []
    for name in sorted(os.listdir(root)):
        path = os.path.join(root, name)
        if name == "build" and os.path.isdir(path):
            found += [("build", os.path.join(path, d)) for d in sorted(os.listdir(path))]
        elif name == "helpers" and os.path.isdir(path):
            found += [("helpers", os.path.join(path, f)) for f in sorted(os.listdir(path))]
        elif name.startswith("runtime-") and os.path.isdir(path):
            found.append(("runtime-", path))
    return found


def entries(root: str | None = None) -> list[tuple[str, str, int, float]]:
    """(kind, path, bytes, last use) of every prunable entry (_entry_paths)."""
    root = root or cache_dir()
    out = []
    for kind, path in _entry_paths(root):
        try:
            out.append((kind, path, _size(path), os.path.getmtime(path)))
        except OSError:  # removed meanwhile
            pass
    return out


def prune(max_age_days: float | None = None, root: str | None = None) -> tuple[int, int]:
    """Removes the entries not used for `max_age_days` (None: everything in the cache);
    returns (entries removed, bytes freed). A compile running meanwhile rebuilds what it
    finds missing."""
    root = root or cache_dir()
    if max_age_days is None:
        freed = sum(_size(os.path.join(root, n)) for n in os.listdir(root))
        count = len(_entry_paths(root))
        for name in os.listdir(root):
            path = os.path.join(root, name)
            shutil.rmtree(path, ignore_errors=True) if os.path.isdir(path) else _remove(path)
        return count, freed
    cutoff = time.time() - max_age_days * 86400
    count = freed = 0
    for _, path, size, used in entries(root):
        if used < cutoff:
            shutil.rmtree(path, ignore_errors=True) if os.path.isdir(path) else _remove(path)
            count, freed = count + 1, freed + size
    return count, freed


def _remove(path: str) -> None:
    try:
        os.remove(path)
    except OSError:
        pass


def usage(root: str | None = None) -> list[tuple[str, int, int]]:
    """(what, entries, bytes) per kind, then everything else under the cache (parser tables,
    test tools' objects) as one line."""
    root = root or cache_dir()
    listed = entries(root)
    rows = [(label, sum(1 for k, *_ in listed if k == kind),
             sum(b for k, _, b, _ in listed if k == kind)) for kind, label in KINDS]
    total = sum(_size(os.path.join(root, n)) for n in os.listdir(root))
    rows.append(("other files", 0, total - sum(b for _, _, b in rows)))
    return rows
