"""The C side of the ABI as files: the runtime header and sources that every
artifact ships with, and the per-artifact header declaring its entries.
"""
from __future__ import annotations

import re
from pathlib import Path

import runtime_c

from .dtypes import dtype as _dtype
from .naming import check_ident as _check_ident
from .naming import entry_names
from .signature import EntrySig, ValueSig


def runtime_dir() -> Path:
    """The runtime_c package directory (its .c sources and aot_runtime.h)."""
    return Path(runtime_c.__file__).resolve().parent


def runtime_header_path() -> Path:
    """Path of aot_runtime.h, to ship beside generated headers or pass to -I."""
    return runtime_dir() / "aot_runtime.h"


def runtime_sources() -> list[Path]:
    """Every runtime .c file; each artifact compiles and links all of them."""
    return sorted(runtime_dir().glob("*.c"))


def abi_version() -> int:
    """AOT_ABI_VERSION of aot_runtime.h: the ABI's one definition (the loader checks libraries
    against it, code generation writes it into each library's metadata)."""
    m = re.search(r"#define AOT_ABI_VERSION (\d+)", runtime_header_path().read_text())
    return int(m.group(1))


def runtime_cdef() -> str:
    """The cffi-parsable slice of aot_runtime.h (between the cffi markers),
    so the loader's declarations cannot drift from the C header."""
    text = runtime_header_path().read_text()
    begin, end = "/* cffi-begin */", "/* cffi-end */"
    return text[text.index(begin) + len(begin):text.index(end)]


def _comment_safe(text: str) -> str:
    return text.replace("*/", "* /")


def _value_rows(kind: str, values: list[ValueSig]) -> list[tuple[str, ...]]:
    return [(f"{kind}[{i}]", v.name or "-", str(v),
             "dims {" + ", ".join(map(str, v.c_dims)) + "}", _dtype(v.dtype).ctype)
            for i, v in enumerate(values)]


def _table(rows: list[tuple[str, ...]]) -> list[str]:
    """Rows of cells as aligned columns."""
    widths = [max(len(r[c]) for r in rows) for c in range(len(rows[0]))] if rows else []
    return ["  ".join(cell.ljust(w) for cell, w in zip(r, widths)).rstrip() for r in rows]


def c_string(text: str) -> str:
    """A C string literal of `text` (UTF-8; quotes, backslashes and controls escaped)."""
    out = []
    for byte in text.encode():
        ch = chr(byte)
        out.append("\\" + ch if ch in '"\\?' else ch if 32 <= byte < 127 else f"\\{byte:03o}")
    return '"' + "".join(out) + '"'


def _constants_block(entry: EntrySig, labels: dict | None) -> list[str]:
    """`SYM_<stem>_INDEX`, `_NAME`, `_DTYPE`, `_RANK`, `_DIMS`, `_DIM<k>` for each argument and
    result (stems: abi/naming.py), so a caller need not count positions."""
    args, results = entry_names(entry, labels)
    sym = entry.symbol
    rows = [(f"{sym}_NUM_ARGS", str(len(args))), (f"{sym}_NUM_RESULTS", str(len(results)))]
    for v in args + results:
        p = f"{sym}_{v.stem}"
        rows += [(f"{p}_INDEX", str(v.index)), (f"{p}_NAME", c_string(v.display)),
                 (f"{p}_DTYPE", _dtype(v.value.dtype).enum), (f"{p}_RANK", str(v.value.rank))]
        if v.value.rank:  # a scalar has no dims (C has no empty initializer)
            rows.append((f"{p}_DIMS", "{" + ", ".join(map(str, v.value.c_dims)) + "}"))
        rows += [(f"{p}_DIM{d}", f"({n})" if n < 0 else str(n)) for d, n in enumerate(v.value.c_dims)]
    width = max(len(r[0]) for r in rows)
    lines = [f"/* Named constants of '{_comment_safe(entry.name)}': each argument's and result's "
             "index in args[] or", " * results[], name, dtype and dims (-1: known at run time). */"]
    return lines + [f"#define {name.ljust(width)} {value}" for name, value in rows]


def _entry_block(entry: EntrySig, device: bool = False, labels: dict | None = None) -> str:
    _check_ident("entry symbol", entry.symbol)
    rows = _value_rows("args", entry.args) + _value_rows("results", entry.results)
    lines = [f"/* Entry '{_comment_safe(entry.name)}': {_comment_safe(str(entry))}"]
    lines += [f" *   {_comment_safe(row)}" for row in _table(rows)]
    if any(not r.is_static for r in entry.results):
        lines.append(" * Results with a '?' dim (-1 in the metadata) are allocated by the")
        lines.append(" * runtime when their data is NULL; free them with aot_tensor_free().")
    lines.append(" * Returns AOT_OK, or an error code with aot_last_error() set. */")
    lines.append(f"int {entry.symbol}(const aot_tensor *args, aot_tensor *results);")
    n_dims = sum(r.rank for r in entry.results)
    lines.append(f"/* Shape query of '{_comment_safe(entry.name)}': the same args; writes the "
                 f"{n_dims} result dims")
    lines.append(" * in order (-1 where the data decides) and the peak bytes the call "
                 "allocates. */")
    lines.append(f"int {entry.symbol}_output_shapes(const aot_tensor *args, int64_t *result_dims, "
                 "int64_t *peak_bytes);")
    if device:
        lines.append(f"/* '{_comment_safe(entry.name)}' on device memory, on a CUDA stream "
                     "(aot_runtime.h, \"device entry\"). */")
        lines.append(f"int {entry.symbol}_device(const aot_tensor *args, aot_tensor *results, void *stream);")
    lines += _constants_block(entry, labels)
    return "\n".join(lines)


def generate_header(library_name: str, entries: list[EntrySig], device: bool = False,
                    labels: dict | None = None) -> str:
    """The C header of one artifact: its entries' prototypes with their
    argument and result shapes in comments, named constants for each argument
    and result, and its metadata function; with `device` (a GPU build), each
    entry's device entry too. `labels`: naming.program_labels of the program."""
    _check_ident("library name", library_name)
    guard = f"AOT_{library_name.upper()}_H"
    blocks = "\n\n".join(_entry_block(e, device, labels) for e in entries)
    return f"""\
/* {library_name}.h - generated by aotc; do not edit.
 *
 * Entry functions of the library '{library_name}'.  Arrays are aot_tensor
 * (dense, row-major); '?' marks a dim known only at run time, stored as -1
 * in the metadata.  Ownership rules are in aot_runtime.h. */
#ifndef {guard}
#define {guard}

#include "aot_runtime.h"

#if AOT_ABI_VERSION != {abi_version()}
#error "{library_name}.h was generated for ABI version {abi_version()}: use the aot_runtime.h shipped with it"
#endif

#ifdef __cplusplus
extern "C" {{
#endif

{blocks}

/* Signatures of all entries, queryable at run time; static, never free. */
const aot_library_info *{library_name}_aot_metadata(void);

#ifdef __cplusplus
}}
#endif

#endif /* {guard} */
"""
