"""Reading a source file: the one place where its bytes become text.

The command line and the Python API both read files through `read_source`, so a
file that is not UTF-8 (a binary, a Latin-1 export) is a located `CompileError`
at its first bad byte, never a `UnicodeDecodeError` from deep inside.
"""
from __future__ import annotations

from lowering.ir.core import CompileError, Location


def printable_line(line: str) -> str:
    """A source line safe to print under an error: control characters (escape sequences,
    NULs, a binary's bytes) become '?', one for one, so the caret still lines up."""
    return "".join(c if c.isprintable() or c == "\t" else "?" for c in line)


def decode_source(data: bytes, filename: str) -> str:
    """UTF-8 bytes to text, newlines as `open()` in text mode gives them (`\\r\\n` and `\\r`
    become `\\n`), a leading byte-order mark dropped. Bytes that are not UTF-8 are a
    CompileError at the line and column of the first bad byte."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise _not_utf8(data, e.start, filename) from None
    if text.startswith("\ufeff"):
        text = text[1:]
    return text.replace("\r\n", "\n").replace("\r", "\n")


def _not_utf8(data: bytes, pos: int, filename: str) -> CompileError:
    start = data.rfind(b"\n", 0, pos) + 1
    end = data.find(b"\n", pos)
    end = len(data) if end < 0 else end
    line_no = data.count(b"\n", 0, pos) + 1
    before = data[start:pos].decode("utf-8", errors="replace")
    # the line, unless the bad byte is far into it (a binary's "line" can be megabytes)
    line = data[start:end].decode("utf-8", errors="replace") if pos - start < 1000 else ""
    return CompileError(f"not UTF-8 text at byte {pos} (0x{data[pos]:02x}): the input must be "
                        "MLIR text", Location(filename, line_no, len(before) + 1),
                        printable_line(line[:1000]))


def read_source(path: str) -> str:
    """The text of the file at `path`; a CompileError if it cannot be read or is not UTF-8."""
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        raise CompileError(f"cannot read the input: {e.strerror or e}", Location(path, 0, 0)) from None
    return decode_source(data, path)
