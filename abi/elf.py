"""The one ELF reader: a file's header, its section headers, its machine, and what is wrong
with a file that should be an ELF shared library or object, in plain words, read from its
headers alone (never loaded). The loader asks before dlopen, which would map a truncated
file's missing pages and die of SIGBUS on touching them; the runtime cache asks of its
objects before linking them; the toolchain checks that an artifact's objects are for one
machine; `aotc inspect` finds the manifest's section."""
from __future__ import annotations

import os
import stat
import struct
from dataclasses import dataclass

MAGIC = b"\x7fELF"
ET_REL, ET_EXEC, ET_DYN, ET_CORE = 1, 2, 3, 4
PT_LOAD = 1
SHT_NOBITS = 8
KINDS = {ET_REL: "an ELF relocatable object (.o)", ET_EXEC: "an ELF executable",
         ET_DYN: "an ELF shared library", ET_CORE: "an ELF core dump"}
TYPES = {ET_REL: "relocatable object", ET_EXEC: "executable", ET_DYN: "shared object"}  # as `file` says

# e_machine: (the CPU as target triples spell it, as ELF tools such as `file` name it)
MACHINES = {3: ("x86", "i386"), 8: ("mips", "MIPS"), 20: ("ppc", "PowerPC"), 21: ("ppc64", "PowerPC64"),
            22: ("s390x", "s390"), 40: ("arm", "ARM"), 62: ("x86_64", "x86-64"),
            183: ("aarch64", "AArch64"), 243: ("riscv", "RISC-V"), 258: ("loongarch", "LoongArch")}


class ElfError(ValueError):
    """An ELF file whose headers cannot be read: the message says why."""


@dataclass(frozen=True)
class Header:
    bits: int  # 32 or 64
    order: str  # struct's byte order: "<" or ">"
    type: int
    machine: int
    phoff: int
    shoff: int
    phentsize: int
    phnum: int
    shentsize: int
    shnum: int
    shstrndx: int


def header(data: bytes) -> Header:
    """The ELF header at the start of `data` (at least its first 64 bytes); ElfError when the
    class, byte order or length is wrong."""
    if data[:4] != MAGIC:
        raise ElfError("not an ELF file")
    if len(data) < 16:  # not even its identification
        raise ElfError(f"the file has {len(data)} bytes, less than an ELF header")
    bits = {1: 32, 2: 64}.get(data[4])
    order = {1: "<", 2: ">"}.get(data[5])
    if bits is None or order is None:
        raise ElfError(f"an ELF file of unknown class {data[4]} or byte order {data[5]}")
    if len(data) < (64 if bits == 64 else 52):
        raise ElfError(f"the file has {len(data)} bytes, less than an ELF header")
    fields = struct.unpack_from(order + ("HHIQQQIHHHHHH" if bits == 64 else "HHIIIIIHHHHHH"), data, 16)
    e_type, e_machine, _, _, phoff, shoff, _, _, phentsize, phnum, shentsize, shnum, shstrndx = fields
    return Header(bits, order, e_type, e_machine, phoff, shoff, phentsize, phnum, shentsize, shnum, shstrndx)


def sections(data: bytes, h: Header) -> list[tuple[bytes, int, int, int]]:
    """(name, type, offset, size) of each section of the ELF file `data`; [] when it has no
    section headers (stripped of them); ElfError when they run past its end."""
    if h.shoff == 0 or h.shoff >= len(data):
        return []
    fmt = h.order + ("IIQQQQIIQQ" if h.bits == 64 else "IIIIIIIIII")

    def section(i):
        at = h.shoff + i * h.shentsize
        if at + struct.calcsize(fmt) > len(data):
            raise ElfError("its section headers run past the end of the file")
        name, kind, _, _, offset, size, link, _, _, _ = struct.unpack_from(fmt, data, at)
        return name, kind, offset, size, link
    shnum, shstrndx = h.shnum, h.shstrndx
    if shnum == 0:  # more sections than the header's field holds: the count is in section 0
        shnum = section(0)[3]
    if shstrndx == 0xFFFF:
        shstrndx = section(0)[4]
    _, _, names_at, names_size, _ = section(shstrndx)
    names = data[names_at:names_at + names_size]
    out = []
    for i in range(shnum):
        name, kind, offset, size, _ = section(i)
        out.append((names[name:names.find(b"\0", name)], kind, offset, size))
    return out


def describe(h: Header) -> str:
    """"ELF64 x86-64 shared object", as `file` would say it."""
    name = MACHINES[h.machine][1] if h.machine in MACHINES else f"machine {h.machine}"
    return f"ELF{h.bits} {name} {TYPES.get(h.type, 'file')}"


def elf_machine(path: str) -> int | None:
    """The e_machine of an ELF file (object or shared library); None if it is not ELF."""
    with open(path, "rb") as f:
        head = f.read(20)
    if len(head) < 20 or head[:4] != MAGIC:
        return None
    return int.from_bytes(head[18:20], "little" if head[5] == 1 else "big")


def machine_name(machine: int | None) -> str:
    """The CPU of an e_machine as target triples spell it ("x86_64", "aarch64")."""
    if machine is None:
        return "not ELF"
    return MACHINES[machine][0] if machine in MACHINES else f"ELF machine {machine}"


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
    if head[:4] != MAGIC:
        return f"not {noun}: {_what_it_is(head)}"
    try:
        h = header(head)
    except ElfError as e:
        return f"truncated or corrupt: {e}"
    if h.type != want:
        return f"not {noun}: it is {KINDS.get(h.type, f'an ELF file of type {h.type}')}"
    ph_fmt, ph_fields = (h.order + "IIQQQQQQ", (2, 5)) if h.bits == 64 else (h.order + "IIIIIIII", (1, 4))
    needed = max(h.phoff + h.phnum * h.phentsize if h.phnum else 0,
                 h.shoff + h.shnum * h.shentsize if h.shoff else 0)
    if h.phnum and h.phentsize >= struct.calcsize(ph_fmt) and h.phoff + h.phnum * h.phentsize <= size:
        f.seek(h.phoff)
        table = f.read(h.phnum * h.phentsize)
        for i in range(h.phnum):
            ph = struct.unpack_from(ph_fmt, table, i * h.phentsize)
            if ph[0] == PT_LOAD:
                needed = max(needed, ph[ph_fields[0]] + ph[ph_fields[1]])
    if want == ET_DYN and not h.phnum:
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
