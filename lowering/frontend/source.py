"""Reading a source file: the one place where its bytes become text.

The command line and the Python API both read files through `read_source`, so a
file that is not UTF-8 (a binary, a Latin-1 export) is a located `CompileError`
at its first bad byte, never a `UnicodeDecodeError` from deep inside.
"""
from __future__ import annotations

import binascii
import hashlib
import mmap
import os
import re

import numpy as np

from lowering.ir.core import CompileError, Location, numpy_dtype

# Hex constants this long are set aside before lexing: the lexer's regular expressions would
# take seconds over the megabytes of a frozen model's weights (`"0x@N"` stands for blob N).
LONG_HEX_DIGITS = 4096
_LONG_HEX = re.compile(r'"0[xX]([0-9A-Fa-f]{%d,})"' % LONG_HEX_DIGITS)
_LONG_HEX_BYTES = re.compile(rb'"0[xX]([0-9A-Fa-f]{%d,})"' % LONG_HEX_DIGITS)
MAP_FROM_BYTES = 1 << 24  # files this big are mapped, not read: their blobs are never copied


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
    """The text of the file at `path`; a CompileError if it cannot be read or is not UTF-8.
    A file of MAP_FROM_BYTES or more is mapped, and its long hex constants are set aside
    from the mapping (a SourceText): its weights are never a str."""
    try:
        with open(path, "rb") as f:
            if os.fstat(f.fileno()).st_size >= MAP_FROM_BYTES:
                return _read_mapped(f, path)
            data = f.read()
    except OSError as e:
        raise CompileError(f"cannot read the input: {e.strerror or e}", Location(path, 0, 0)) from None
    return decode_source(data, path)


class HexBlob:
    """The digits of one long hex constant, set aside before lexing: a span of the source (a
    str, or a mapped file), decoded when its constant is built. Nothing copies the digits
    before then, and a mapped file's pages are given back once they are decoded, so a
    frozen model's weights are in memory once, as bytes."""
    __slots__ = ("source", "start", "end")

    def __init__(self, source, start: int, end: int):
        self.source, self.start, self.end = source, start, end

    def raw(self) -> bytes:
        if isinstance(self.source, str):
            return bytes.fromhex(self.source[self.start:self.end])
        with memoryview(self.source) as whole, whole[self.start:self.end] as digits:
            data = binascii.unhexlify(digits)
        page = mmap.PAGESIZE
        first = self.start // page * page
        if hasattr(self.source, "madvise") and hasattr(mmap, "MADV_DONTNEED"):
            self.source.madvise(mmap.MADV_DONTNEED, first, self.end - first)
        return data


class ArrayBlob:
    """A constant's array standing for a hex blob (printer.print_module_source): the parser
    takes its bytes as they are, never spelled as text."""
    __slots__ = ("array",)

    def __init__(self, attr):
        dtype = np.uint8 if attr.type.elem == "i1" else numpy_dtype(attr.type.elem)
        self.array = np.ascontiguousarray(attr.array, dtype=dtype).reshape(-1).view(np.uint8)

    def raw(self):
        return self.array


def set_aside(source) -> tuple:
    """(the source with each long `"0x..."` replaced by `"0x@N"` (of its type: str, or bytes
    for a mapped file), the HexBlobs, and per replacement its (line, column after it in the
    new text, columns removed)) so that positions after a blob on its line can be mapped
    back to the original columns."""
    text = isinstance(source, str)
    pattern, newline = (_LONG_HEX, "\n") if text else (_LONG_HEX_BYTES, b"\n")
    blobs, shifts, pieces = [], [], []
    last, line, line_start = 0, 1, 0  # line_start: offset of the current line in `source`
    for m in pattern.finditer(source):
        gap = source[last:m.start()]
        if gap.count(newline):
            line += gap.count(newline)
            line_start = last + gap.rfind(newline) + 1
        key = f'"0x@{len(blobs)}"'
        blobs.append(HexBlob(source, m.start(1), m.end(1)))
        removed_before = sum(r for ln, _, r in shifts if ln == line)
        shifts.append((line, m.start() - line_start + 1 + len(key) - removed_before,
                       m.end() - m.start() - len(key)))
        pieces += [gap, key if text else key.encode()]
        last = m.end()
    if not blobs:
        return source, [], []
    pieces.append(source[last:])
    return ("" if text else b"").join(pieces), blobs, shifts


class SourceText(str):
    """A big file's text with its long hex constants already set aside (`set_aside`):
    `hex_blobs` and `shifts` go to the parser, and `digest` (of the whole file) stands for
    the text wherever a build is keyed by its source."""
    hex_blobs: list
    shifts: list
    digest: str


def _read_mapped(f, path: str) -> str:
    mapped = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
    lexed, blobs, shifts = set_aside(mapped)
    if not blobs:
        data = bytes(mapped)
        mapped.close()
        return decode_source(data, path)
    text = SourceText(decode_source(lexed, path))
    text.hex_blobs, text.shifts = blobs, shifts
    digest = hashlib.sha256()
    with memoryview(mapped) as whole:
        for start in range(0, len(mapped), 1 << 24):
            with whole[start:start + (1 << 24)] as chunk:
                digest.update(chunk)
    text.digest = digest.hexdigest()
    if hasattr(mapped, "madvise") and hasattr(mmap, "MADV_DONTNEED"):
        mapped.madvise(mmap.MADV_DONTNEED)  # read again blob by blob as constants are built
    return text
