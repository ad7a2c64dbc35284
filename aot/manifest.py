"""An artifact's manifest, and `aotc inspect`, which reads it back without loading anything.

Every model object aotc writes carries one read-only global, `NAME_aot_manifest`, in an
ELF section of its own (`.aot_manifest`): a magic line, then JSON with the artifact's name,
entries and signatures, target triple and CPU, ABI version, compiler version, and whether
it holds GPU kernels. No pointers, so no relocations: the bytes in the file are the whole
record, in a `.so`, in the model's member of a `.a`, and in an `.o`, for whatever CPU the
artifact was built for. `read_manifests` finds the section through the ELF section headers
(32/64-bit, either byte order; archives member by member), and falls back to scanning the
bytes for the magic in a file without section headers or in another object format.
"""
from __future__ import annotations

import json
import os
import struct
import sys

from abi import elf

SECTION = ".aot_manifest"
# written as two parts so that this source file never holds the magic itself
MAGIC = b"\x7fAOTC-" + b"MANIFEST\n"
FORMAT = 1  # the manifest's own layout; bump on incompatible changes


class NotAnArtifact(ValueError):
    pass


# ---- writing ----------------------------------------------------------------------------

def manifest(comp, tm, entries) -> dict:
    """What `aotc inspect` prints about the artifact a Compilation builds."""
    from abi.naming import entry_names
    from lowering.codegen.host.entry_abi import ABI_VERSION

    from .version import COMPILER_VERSION, compiler_fingerprint
    cpu = comp.backend.host_target(comp.target)  # where the entry points run

    def values(named):
        return [{"name": v.value.name, "label": v.label, "dtype": v.value.dtype,
                 "dims": list(v.value.c_dims)} for v in named]
    out_entries = []
    for e in entries:
        args, results = entry_names(e, getattr(comp, "labels", None))
        out_entries.append({"name": e.name, "symbol": e.symbol, "args": values(args),
                            "results": values(results),
                            "output_shapes": f"{e.symbol}_output_shapes",
                            "device_entry": comp.backend.device_entry(e.symbol)})
    return {
        "format": FORMAT, "name": comp.opts.name, "emit": comp.opts.emit,
        "abi_version": ABI_VERSION, "compiler": f"aotc {COMPILER_VERSION}",
        "compiler_sources": compiler_fingerprint()[:16],
        "target_triple": tm.triple, "target_cpu": cpu.cpu, "target_features": cpu.features,
        "targets": comp.opts.target, **comp.backend.manifest_fields(comp), "entries": out_entries,
    }


def encode(info: dict) -> bytes:
    return MAGIC + json.dumps(info, sort_keys=True, separators=(",", ":")).encode() + b"\0"


def _is_elf_triple(triple: str) -> bool:
    return not any(s in triple for s in ("apple", "darwin", "macos", "ios", "windows", "win32",
                                         "mingw", "msvc", "cygwin"))


def embed(comp, tm, module, entries) -> None:
    """Links the manifest global into `module` (an llvmlite ModuleRef about to become the
    model's object); a module that has it already is left as it is."""
    from llvmlite import binding as llvm
    from llvmlite import ir
    symbol = f"{comp.opts.name}_aot_manifest"
    try:
        module.get_global_variable(symbol)
        return
    except NameError:
        pass
    blob = encode(manifest(comp, tm, entries))
    m = ir.Module(name=symbol)
    m.triple, m.data_layout = module.triple, module.data_layout
    ty = ir.ArrayType(ir.IntType(8), len(blob))
    g = ir.GlobalVariable(m, ty, name=symbol)
    g.global_constant = True
    g.initializer = ir.Constant(ty, bytearray(blob))
    g.align = 1
    if _is_elf_triple(tm.triple):
        g.section = SECTION
    module.link_in(llvm.parse_assembly(str(m)))


# ---- reading ----------------------------------------------------------------------------

def _elf(data: bytes):
    """(description, [contents of each .aot_manifest section], has section headers)."""
    try:
        h = elf.header(data)
        found = elf.sections(data, h)
    except elf.ElfError as e:
        raise NotAnArtifact(f"truncated or corrupt ELF file: {e}") from None
    ours = [data[offset:offset + size] for name, kind, offset, size in found
            if name == SECTION.encode() and kind != elf.SHT_NOBITS]
    return elf.describe(h), ours, bool(found)


def _ar_members(data: bytes):
    """(name, bytes) of each member of a System V / GNU / BSD archive."""
    pos, long_names = 8, b""
    while pos + 60 <= len(data):
        header = data[pos:pos + 60]
        if header[58:60] != b"`\n":
            raise NotAnArtifact("damaged archive member header")
        name = header[:16].decode(errors="replace").strip()
        size = int(header[48:58].decode().strip() or 0)
        body = data[pos + 60:pos + 60 + size]
        pos += 60 + size + (size & 1)
        if name == "//":
            long_names = body
            continue
        if name in ("/", "/SYM64/", "__.SYMDEF", "__.SYMDEF SORTED"):
            continue
        if name.startswith("#1/"):  # BSD: the name leads the data
            n = int(name[3:])
            name, body = body[:n].rstrip(b"\0").decode(errors="replace"), body[n:]
        elif name.startswith("/") and name[1:].isdigit():
            start = int(name[1:])
            name = long_names[start:long_names.find(b"\n", start)].decode(errors="replace")
        yield name.rstrip("/"), body


def _decode(blobs: list[bytes], where: str) -> list[dict]:
    out = []
    for blob in blobs:
        start = blob.find(MAGIC)
        while start >= 0:
            stop = blob.find(b"\0", start)
            text = blob[start + len(MAGIC):stop if stop >= 0 else len(blob)]
            try:
                info = json.loads(text)
            except ValueError as e:
                raise NotAnArtifact(f"{where}: damaged aotc manifest ({e})") from None
            if not isinstance(info, dict) or not isinstance(info.get("entries"), list):
                raise NotAnArtifact(f"{where}: damaged aotc manifest")
            out.append(info)
            start = blob.find(MAGIC, stop if stop >= 0 else len(blob))
    return out


def _object(data: bytes, where: str) -> tuple[str, list[dict]]:
    if data[:4] == elf.MAGIC:
        what, sections, has_headers = _elf(data)
        if sections or has_headers:
            return what, _decode(sections, where)
        return what, _decode([data], where)  # stripped of its section headers: scan
    return "", _decode([data], where)


def read_manifests(path: str) -> tuple[str, list[tuple[str, dict]]]:
    """(what the file is, [(where in it, manifest)]); NotAnArtifact when it holds none."""
    with open(path, "rb") as f:
        data = f.read()
    if data.startswith(b"!<arch>\n"):
        found, machines = [], set()
        for name, body in _ar_members(data):
            what, infos = _object(body, f"{path}({name})")
            if what:
                machines.add(what.rsplit(" ", 2)[0] if what.startswith("ELF") else what)
            found += [(name, info) for info in infos]
        what = "static archive" + (f" of {', '.join(sorted(machines))} objects" if machines else "")
    else:
        what, infos = _object(data, path)
        found = [("", info) for info in infos]
    if not found:
        if not what:
            raise NotAnArtifact(f"{path}: not an aotc artifact (neither an ELF object nor an "
                                "archive, and no aotc manifest inside)")
        raise NotAnArtifact(f"{path}: not an aotc artifact: {_article(what)} {what} without aotc's "
                            f"{SECTION} section (artifacts built before `aotc inspect` existed "
                            "have none)")
    return what, found


def _article(what: str) -> str:
    return "an" if what[:1].lower() in "aeiou" else "a"


def _shape(v: dict) -> str:
    return f"{v['dtype']}[{','.join('?' if d < 0 else str(d) for d in v['dims'])}]"


def format_manifest(info: dict) -> str:
    gpu = "no"
    if info.get("gpu_kernels"):
        gpu = f"yes, PTX for {info.get('gpu_arch')}"
        if "cpu" in str(info.get("targets", "")).split(","):
            gpu += ", and CPU kernels (the GPU when the machine has one)"
    lines = [f"artifact:       {info.get('name')} ({info.get('emit')})",
             f"compiler:       {info.get('compiler')} (sources {info.get('compiler_sources')})",
             f"ABI version:    {info.get('abi_version')}",
             f"target triple:  {info.get('target_triple')}",
             f"target CPU:     {info.get('target_cpu') or 'generic'}",
             f"GPU kernels:    {gpu}",
             f"entries:        {len(info['entries'])}"]
    for e in info["entries"]:
        args = ", ".join(f"{a.get('label') or a['name']}: {_shape(a)}" for a in e["args"])
        results = ", ".join((f"{r['label']}: " if r.get("label") else "") + _shape(r)
                            for r in e["results"])
        lines.append(f"  {e['symbol']}: {e['name']}({args}) -> ({results})")
        extra = [f"shape query {e['output_shapes']}"]
        if e.get("device_entry"):
            extra.append(f"device entry {e['device_entry']}")
        lines.append(f"    {'; '.join(extra)}")
    return "\n".join(lines) + "\n"


def inspect_main(path: str, as_json: bool = False) -> int:
    """`aotc inspect`: 0, or 1 with one line on stderr when the file is no artifact."""
    if not os.path.exists(path):
        print(f"aotc: error: no such file: {path}", file=sys.stderr)
        return 2
    try:
        what, found = read_manifests(path)
    except (NotAnArtifact, OSError, struct.error) as e:
        print(f"aotc: error: {e}" if str(e).startswith(path) else f"aotc: error: {path}: {e}",
              file=sys.stderr)
        return 1
    if as_json:
        print(json.dumps([info for _, info in found] if len(found) > 1 else found[0][1], indent=2))
        return 0
    print(f"{path}: {what}")
    for where, info in found:
        if where:
            print(f"member {where}:")
        print(format_manifest(info), end="")
    return 0
