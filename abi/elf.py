"""What is wrong with a file that should be an ELF shared library or object, in plain words,
read from its headers alone (never loaded): the loader asks before dlopen, which would map
a truncated file's missing pages and die of SIGBUS on touching them, and the runtime cache
asks of its objects before linking them."""
from __future__ import annotations

import os
import stat
import struct

ET_REL, ET_EXEC, ET_DYN, ET_CORE = 1, 2, 3, 4
PT_LOAD = 1
KINDS = {ET_REL: "an ELF relocatable object (.o)", ET_EXEC: "an ELF executable",
         ET_DYN: "an ELF shared library", ET_CORE: "an ELF core dump"}


def elf_problem(path: str, want: int = ET_DYN) -> str | None:
    """None when `path` is a whole ELF file of type `want` (ET_DYN, ET_REL); else what is
    wrong: "no such file", "it is a directory, not a shared library", "not a shared
    library: ...", "truncated or corrupt: ..."."""
    noun = "a shared library" if want == ET_DYN else "an object file (.o)"
    try:
        with open(path, "rb") as f:
            st = os.fstat(f.fileno())
            if stat.S_ISDIR(st.st_mode):
                return f"it is a directory, not {noun}"
            if not stat.S_ISREG(st.st_mode):
                return f"not {noun}: it is not a regular file"
            return _check(f, st.st_size, want, noun)
    except FileNotFoundError:
        return "no such file"
    except IsADirectoryError:
        return f"it is a directory, not {noun}"
    except OSError as e:
        return f"cannot read it ({e.strerror or e})"


def _check(f, size: int, want: int, noun: str) -> str | None:
    head = f.read(64)
    if size == 0:
        return f"not {noun}: the file is empty (an interrupted build or copy?)"
    if head[:4] != b"\x7fELF":
        return f"not {noun}: {_what_it_is(head)}"
    bits = {1: 32, 2: 64}.get(head[4])
    end = {1: "<", 2: ">"}.get(head[5])
    if bits is None or end is None:
        return f"truncated or corrupt: an ELF file of unknown class {head[4]} or byte order {head[5]}"
    ehsize = 64 if bits == 64 else 52
    if len(head) < ehsize:
        return f"truncated or corrupt: the file has {size} bytes, less than an ELF header"
    if bits == 64:
        e_type, _, _, _, phoff, shoff, _, _, phentsize, phnum, shentsize, shnum, _ = \
            struct.unpack_from(end + "HHIQQQIHHHHHH", head, 16)
        ph_fmt, ph_fields = end + "IIQQQQQQ", (2, 5)  # p_offset, p_filesz
    else:
        e_type, _, _, _, phoff, shoff, _, _, phentsize, phnum, shentsize, shnum, _ = \
            struct.unpack_from(end + "HHIIIIIHHHHHH", head, 16)
        ph_fmt, ph_fields = end + "IIIIIIII", (1, 4)
    if e_type != want:
        return f"not {noun}: it is {KINDS.get(e_type, f'an ELF file of type {e_type}')}"
    needed = max(phoff + phnum * phentsize if phnum else 0,
                 shoff + shnum * shentsize if shoff else 0)
    if phnum and phentsize >= struct.calcsize(ph_fmt) and phoff + phnum * phentsize <= size:
        f.seek(phoff)
        table = f.read(phnum * phentsize)
        for i in range(phnum):
            ph = struct.unpack_from(ph_fmt, table, i * phentsize)
            if ph[0] == PT_LOAD:
                needed = max(needed, ph[ph_fields[0]] + ph[ph_fields[1]])
    if want == ET_DYN and not phnum:
        return "truncated or corrupt: it has no program headers"
    if needed > size:
        return (f"truncated or corrupt: the file has {size} bytes but its ELF headers describe "
                f"{needed} (an interrupted build or copy?)")
    return None


def _what_it_is(head: bytes) -> str:
    if head.startswith(b"!<arch>\n"):
        return "it is a static archive (.a): link it into a C program instead"
    for magic, what in ((b"\xcf\xfa\xed\xfe", "a Mach-O file (macOS)"), (b"MZ", "a Windows DLL or program"),
                        (b"\xfe\xed\xfa\xcf", "a Mach-O file (macOS)")):
        if head.startswith(magic):
            return f"it is {what}, not ELF"
    text = head.decode("utf-8", errors="ignore")  # a character cut at byte 64 is dropped
    if len(text.encode()) >= len(head) - 3 and all(c.isprintable() or c in "\t\r\n" for c in text):
        first = text.strip().splitlines()[0][:40] if text.strip() else ""
        return f"it is a text file (it begins {first!r})" if first else "it is a text file"
    return "it is not an ELF file (its first bytes are " + head[:8].hex(" ") + ")"
