"""abi/elf.py, the one ELF reader: headers of either class and byte order, the sections of a
compiled object, and one machine table with both spellings (target triples' for the
toolchain's and the loader's messages, ELF tools' for `aotc inspect`)."""
import struct
import subprocess

import pytest

from abi import elf
from aot.toolchain import c_compiler


def _header(bits: int, order: str, machine: int, e_type: int = elf.ET_REL, shoff: int = 0) -> bytes:
    ident = elf.MAGIC + bytes([1 if bits == 32 else 2, 1 if order == "<" else 2, 1]) + bytes(9)
    fmt = order + ("HHIQQQIHHHHHH" if bits == 64 else "HHIIIIIHHHHHH")
    return ident + struct.pack(fmt, e_type, machine, 1, 0, 0, shoff, 0, 64 if bits == 64 else 52,
                               0, 0, 0, 0, 0)


@pytest.mark.parametrize("bits, order", [(64, "<"), (64, ">"), (32, "<"), (32, ">")])
def test_a_header_of_either_class_and_byte_order(bits, order, tmp_path):
    data = _header(bits, order, 21)
    h = elf.header(data)
    assert (h.bits, h.order, h.type, h.machine) == (bits, order, elf.ET_REL, 21)
    assert elf.describe(h) == f"ELF{bits} PowerPC64 relocatable object"
    assert elf.sections(data, h) == []  # no section headers
    (tmp_path / "x.o").write_bytes(data)
    assert elf.elf_machine(str(tmp_path / "x.o")) == 21


def test_one_machine_table_spelled_two_ways():
    assert elf.machine_name(62) == "x86_64" and elf.machine_name(183) == "aarch64"
    assert elf.describe(elf.header(_header(64, "<", 62, elf.ET_DYN))) == "ELF64 x86-64 shared object"
    assert elf.describe(elf.header(_header(64, "<", 183))) == "ELF64 AArch64 relocatable object"
    assert elf.machine_name(9999) == "ELF machine 9999" and elf.machine_name(None) == "not ELF"
    assert elf.describe(elf.header(_header(32, "<", 9999, 7))) == "ELF32 machine 9999 file"


def test_the_sections_of_a_compiled_object(tmp_path):
    src = tmp_path / "tagged.c"
    src.write_text('__attribute__((section(".tag"), used)) const char tag[] = "hello";\n')
    obj = tmp_path / "tagged.o"
    subprocess.run([*c_compiler().split(), "-c", str(src), "-o", str(obj)], check=True)
    data = obj.read_bytes()
    h = elf.header(data)
    found = {name: (offset, size) for name, _, offset, size in elf.sections(data, h)}
    offset, size = found[b".tag"]
    assert data[offset:offset + size] == b"hello\0"
    assert h.type == elf.ET_REL and h.machine == elf.elf_machine(str(obj))


def test_damaged_headers_say_why():
    with pytest.raises(elf.ElfError, match="the file has 40 bytes, less than an ELF header"):
        elf.header(_header(64, "<", 62)[:40])
    with pytest.raises(elf.ElfError, match="the file has 5 bytes, less than an ELF header"):
        elf.header(elf.MAGIC + bytes([2]))
    with pytest.raises(elf.ElfError, match="unknown class 3 or byte order 1"):
        elf.header(elf.MAGIC + bytes([3, 1]) + bytes(58))
    data = _header(64, "<", 62, shoff=64) + bytes(10)
    with pytest.raises(elf.ElfError, match="section headers run past the end of the file"):
        elf.sections(data, elf.header(data))
