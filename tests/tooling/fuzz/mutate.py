"""A grammar-aware mutator over the project's own MLIR corpora.

Each fuzz input is a pure function of (corpus, seed, index): `make_input` picks a corpus
file and stacks one to three mutations on it, so any input a campaign reports is rebuilt
from its seed and index alone. The mutations know the language's tokens (the
terminals of lowering/frontend/grammar.lark): SSA values, op names, types with their
dims and element types, dense and array attributes, bracket lists, enums, lines; and
some know nothing (random bytes, truncation), because real inputs do not either.
"""
from __future__ import annotations

import functools
import glob
import os
import random
import re

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))

_NEST = r"<(?:->|[^<>]|<(?:->|[^<>]|<(?:->|[^<>])*>)*>)*>"
TOKEN = re.compile(
    r"(?P<comment>//[^\n]*)"
    r'|(?P<string>"(?:[^"\\\n]|\\.)*")'
    rf"|(?P<type>(?:tensor|memref|vector|tuple|complex){_NEST})"
    rf"|(?P<angle>(?:dense|dense_resource|array|sparse|affine_map|strided|opaque){_NEST})"
    rf"|(?P<hashattr>#[A-Za-z_][\w$.]*{_NEST})"
    r"|(?P<value>%[\w$.\-]+(?:#\d+)?)"
    r'|(?P<symbol>@[\w$.\-]+|@"[^"]*")'
    r"|(?P<block>\^[\w$.\-]+)"
    rf"|(?P<bang>![A-Za-z_][\w$.]*(?:{_NEST})?)"
    r"|(?P<hashid>#[\w$.\-]+)"
    r"|(?P<float>[-+]?\d+\.\d*(?:[eE][-+]?\d+)?|[-+]?\d+[eE][-+]?\d+)"
    r"|(?P<int>0x[0-9A-Fa-f]+|[-+]?\d+)"
    r"|(?P<word>[A-Za-z_][\w$.]*)"
    r"|(?P<arrow>->)"
    r"|(?P<punct>[^\s\w])")

ELEMS = ["f32", "f64", "f16", "bf16", "i1", "i8", "i16", "i32", "i64", "ui8", "ui32", "ui64",
         "si32", "index", "complex<f32>", "f8E4M3FN", "i4", "!stablehlo.token", "tensor<f32>", "x"]
DIMS = ["0", "1", "2", "3", "5", "?", "17", "1024", "65536", "2147483648", "4294967296",
        "9223372036854775807", "-1", ""]
INTS = ["0", "1", "-1", "2", "3", "7", "63", "64", "127", "128", "255", "256", "65535",
        "2147483647", "2147483648", "-2147483648", "4294967296", "9223372036854775807",
        "9223372036854775808", "-9223372036854775808", "18446744073709551616", "99999999999999999999",
        "0x7FC00000", "0xFFFFFFFF", "0x0"]
FLOATS = ["0.0", "-0.0", "1.0", "1.5e300", "1e-45", "3.4028235e38", "1e39", "0x7F800000", "0xFF800000",
          "0x7FC00000", "nan", "inf", "-inf", "1.0e", "1.", "6.5504e4", "1e-310"]
ENUMS = ["EQ", "NE", "LT", "LE", "GT", "GE", "FLOAT", "SIGNED", "UNSIGNED", "TOTALORDER", "DEFAULT",
         "HIGH", "HIGHEST", "XX", "comparison_direction", "compare_type", "true", "false", "unit"]
ODD_BYTES = [b"\x00", b"\xff", b"\xc3", b"\xe2\x80", b"\x1b[31m", b"\r", b"\t", b"\x0c", b"\x85",
             b"\xe2\x80\xa8", b"\xef\xbb\xbf", b"\x80", b"\xfe\xff", b"\xed\xa0\x80"]


@functools.lru_cache(maxsize=1)
def corpus() -> tuple:
    """(path, text) of every corpus file, in a fixed order: tests/data/**/*.mlir, examples/*.mlir."""
    paths = sorted(glob.glob(os.path.join(ROOT, "tests", "data", "**", "*.mlir"), recursive=True))
    paths += sorted(glob.glob(os.path.join(ROOT, "examples", "*.mlir")))
    out = []
    for p in paths:
        with open(p, encoding="utf-8") as f:
            out.append((os.path.relpath(p, ROOT), f.read()))
    return tuple(out)


@functools.lru_cache(maxsize=1)
def pools() -> dict:
    """Every token of the corpus by kind (deduplicated, in order): what swaps draw from.
    Op names are words with a dialect prefix, and the quoted names of generic ops."""
    seen: dict = {}
    for _, text in corpus():
        for m in TOKEN.finditer(text):
            kind, tok = m.lastgroup, m.group(0)
            if kind == "comment" or len(tok) > 200:
                continue
            seen.setdefault(kind, {})[tok] = None
            if kind == "word" and "." in tok:
                seen.setdefault("opname", {})[tok] = None
            if kind == "string" and re.fullmatch(r'"[a-z_]+\.[a-z_0-9.]+"', tok):
                seen.setdefault("opname", {})[tok.strip('"')] = None
    return {k: list(v) for k, v in seen.items()}


def tokens(text: str) -> list:
    return [m for m in TOKEN.finditer(text) if m.lastgroup != "comment"]


def _splice(text: str, start: int, end: int, new: str) -> str:
    return text[:start] + new + text[end:]


# ----------------------------------------------------------------------------- mutations
# Each takes (rng, text) and returns (new text, a short description), or None when the
# text has nothing it can work on.


def token_delete(rng, text):
    toks = tokens(text)
    if not toks:
        return None
    m = rng.choice(toks)
    return _splice(text, m.start(), m.end(), ""), f"delete {m.group(0)[:30]!r}"


def token_duplicate(rng, text):
    toks = tokens(text)
    if not toks:
        return None
    m = rng.choice(toks)
    return _splice(text, m.start(), m.end(), m.group(0) + " " + m.group(0)), f"dup {m.group(0)[:30]!r}"


def token_swap(rng, text):
    """A token replaced by another of its kind: a value by another value (of this file,
    often), an op name by another op's, an int by another int."""
    toks = tokens(text)
    if not toks:
        return None
    m = rng.choice(toks)
    kind = m.lastgroup
    if kind == "word" and "." in m.group(0):
        kind = "opname"
    local = [t.group(0) for t in toks if t.lastgroup == m.lastgroup]
    pool = local if rng.random() < 0.5 else pools().get(kind, local)
    new = rng.choice(pool)
    return _splice(text, m.start(), m.end(), new), f"swap {m.group(0)[:30]!r} -> {new[:30]!r}"


def token_any(rng, text):
    """A token replaced by a token of any kind."""
    toks = tokens(text)
    if not toks:
        return None
    m = rng.choice(toks)
    kind = rng.choice(sorted(pools()))
    new = rng.choice(pools()[kind])
    return _splice(text, m.start(), m.end(), new), f"any {m.group(0)[:30]!r} -> {new[:30]!r}"


def op_swap(rng, text):
    """An op name replaced by another op's: the odd pairings (a sort's body in a while, a
    scatter with an add's types) that a verifier must refuse."""
    toks = [t for t in tokens(text) if (t.lastgroup == "word" and "." in t.group(0))
            or (t.lastgroup == "string" and t.group(0).strip('"') in pools()["opname"])]
    if not toks:
        return None
    m = rng.choice(toks)
    new = rng.choice(pools()["opname"])
    if m.lastgroup == "string":
        new = f'"{new}"'
    return _splice(text, m.start(), m.end(), new), f"op {m.group(0)} -> {new}"


def _mutate_dims(rng, body: str) -> str:
    m = re.match(r"^((?:(?:\?|\d+)x)*)(.*)$", body, re.S)
    dims = m.group(1).split("x")[:-1]
    rest = m.group(2)
    what = rng.randrange(6)
    if what == 0 and dims:
        dims[rng.randrange(len(dims))] = rng.choice(DIMS)
    elif what == 1:
        dims.insert(rng.randrange(len(dims) + 1), rng.choice(DIMS[:8]))
    elif what == 2 and dims:
        del dims[rng.randrange(len(dims))]
    elif what == 3:
        rest = rng.choice(ELEMS) + rest[len(rest.split(",")[0]):]
    elif what == 4 and dims:
        dims = ["0" if rng.random() < 0.5 else d for d in dims]  # zero-size tensors
    else:
        dims = ["?" if rng.random() < 0.5 else d for d in dims]
    return "".join(d + "x" for d in dims) + rest


def type_change(rng, text):
    """A type's dims or element type changed: a dim to 0, ?, 1 or huge; a dim added or
    dropped; f32 to i1 or to something that is no element type."""
    toks = [t for t in tokens(text) if t.lastgroup == "type"]
    if not toks:
        return None
    m = rng.choice(toks)
    tok = m.group(0)
    head, body = tok.split("<", 1)
    if rng.random() < 0.1:
        head = rng.choice(["tensor", "memref", "vector", "tuple", "complex"])
    new = f"{head}<{_mutate_dims(rng, body[:-1])}>"
    if rng.random() < 0.3:  # the same change everywhere the type occurs: still consistent
        return text.replace(tok, new), f"type {tok} -> {new} (all)"
    return _splice(text, m.start(), m.end(), new), f"type {tok} -> {new}"


def dim_rename(rng, text):
    """One dim size changed in every type of the program (4 -> 0, 1, 7 or ?): shapes stay
    consistent, so the program goes deep into the stages, with zero-size tensors and fused
    zero-size constants, size-1 dims that broadcast, dims that no longer divide."""
    toks = [t for t in tokens(text) if t.lastgroup == "type"]
    sizes = sorted({d for t in toks for d in re.findall(r"(?<=[<x])(\d+)(?=x)", t.group(0))})
    if not sizes:
        return None
    old = rng.choice(sizes)
    new = rng.choice(["0", "0", "1", "2", "7", "?"])
    pattern = re.compile(rf"(?<=[<x]){old}(?=x)")
    out = TOKEN.sub(lambda m: pattern.sub(new, m.group(0)) if m.lastgroup == "type"
                    else m.group(0), text)
    return out, f"dim {old} -> {new} in every type"


def dense_change(rng, text):
    """A dense/array attribute's content or its type changed: element counts that do not
    match, empty bodies, zero-size splats, bad hex, values out of range."""
    toks = [t for t in tokens(text) if t.lastgroup == "angle"]
    if not toks:
        return None
    m = rng.choice(toks)
    tok = m.group(0)
    head, body = tok.split("<", 1)
    body = body[:-1]
    what = rng.randrange(7)
    if what == 0:
        body = ""
    elif what == 1:
        body = rng.choice(INTS + FLOATS + ["true", "false", '"0x"', '"0x00"', "[]", "[[]]", "[1, 2]",
                                           "[[1], [2, 3]]", '"0xZZ"', "(1.0, 2.0)"])
    elif what == 2 and body.startswith('"0x'):
        cut = rng.randrange(3, len(body))
        body = body[:cut] + '"'
    elif what == 3:
        nums = list(re.finditer(r"[-+]?\d+(?:\.\d*)?(?:e[-+]?\d+)?", body))
        if nums:
            n = rng.choice(nums)
            body = body[:n.start()] + rng.choice(INTS + FLOATS) + body[n.end():]
    elif what == 4:
        parts = body.split(",")
        body = ",".join(parts[:-1]) if len(parts) > 1 else body + ", " + body
    elif what == 5 and head == "array":
        body = rng.choice(["i64", "i64:", "i64: ", "i1: true", "i32: 1, 2", "f32: 1.0", "i64: -1, 0"])
    else:  # the type after it: another shape, so the counts disagree or the size is zero
        after = re.match(r"\s*:\s*(tensor<[^<>]*>)", text[m.end():])
        if after:
            t = after.group(1)
            new_t = "tensor<" + _mutate_dims(rng, t[7:-1]) + ">"
            s = m.end() + after.start(1)
            return (_splice(text, s, s + len(t), new_t), f"dense type {t} -> {new_t}")
    new = f"{head}<{body}>"
    return _splice(text, m.start(), m.end(), new), f"dense {tok[:30]} -> {new[:30]}"


def number_change(rng, text):
    toks = [t for t in tokens(text) if t.lastgroup in ("int", "float")]
    if not toks:
        return None
    m = rng.choice(toks)
    new = rng.choice(INTS if m.lastgroup == "int" else FLOATS + INTS)
    return _splice(text, m.start(), m.end(), new), f"number {m.group(0)} -> {new}"


_LIST = re.compile(r"\[([^\[\]\n]*)\]")


def list_edit(rng, text):
    """A bracket list (`dims = [0, 1]`, `dense_resource` shapes, slice bounds) edited:
    permuted, an element dropped, duplicated, replaced, or the list emptied."""
    lists = list(_LIST.finditer(text))
    if not lists:
        return None
    m = rng.choice(lists)
    items = [s.strip() for s in m.group(1).split(",")] if m.group(1).strip() else []
    what = rng.randrange(5)
    if what == 0:
        rng.shuffle(items)
    elif what == 1 and items:
        del items[rng.randrange(len(items))]
    elif what == 2 and items:
        items.insert(rng.randrange(len(items) + 1), rng.choice(items))
    elif what == 3 and items:
        items[rng.randrange(len(items))] = rng.choice(INTS[:12])
    else:
        items = [] if items else [rng.choice(INTS[:6])]
    new = "[" + ", ".join(items) + "]"
    return _splice(text, m.start(), m.end(), new), f"list {m.group(0)[:30]} -> {new[:30]}"


_ENTRY = re.compile(r"(?<=[{,(\s])([a-z_][\w]*)\s*=\s*(\[[^\[\]\n]*\]|#\w+<[^<>\n]*>|\"[^\"\n]*\"|[\w.\-]+)"
                    r"(\s*:\s*[\w<>?]+)?")


def attr_edit(rng, text):
    """An attribute entry (`key = value`, generic or pretty) dropped, renamed or given
    another entry's value; an enum word swapped."""
    entries = list(_ENTRY.finditer(text))
    what = rng.randrange(4)
    if what == 3 or not entries:
        words = [t for t in tokens(text) if t.lastgroup == "word" and t.group(0) in ENUMS]
        hashes = [t for t in tokens(text) if t.lastgroup == "hashattr"]
        if hashes and (rng.random() < 0.5 or not words):
            m = rng.choice(hashes)
            inner = re.sub(r"\b[A-Z]+\b", lambda _: rng.choice(ENUMS), m.group(0))
            return _splice(text, m.start(), m.end(), inner), f"enum {m.group(0)[:40]} -> {inner[:40]}"
        if not words:
            return None
        m = rng.choice(words)
        new = rng.choice(ENUMS)
        return _splice(text, m.start(), m.end(), new), f"enum {m.group(0)} -> {new}"
    m = rng.choice(entries)
    if what == 0:
        end = m.end()
        tail = re.match(r"\s*,", text[end:])
        end += tail.end() if tail else 0
        return _splice(text, m.start(), end, ""), f"drop attr {m.group(0)[:40]}"
    if what == 1:
        key = rng.choice([e.group(1) for e in entries] + ["dimensions", "broadcast_dimensions",
                                                          "index_vector_dim", "x"])
        return _splice(text, m.start(1), m.end(1), key), f"rename attr {m.group(1)} -> {key}"
    other = rng.choice(entries)
    return (_splice(text, m.start(2), m.end(2), other.group(2)),
            f"attr {m.group(1)} = {other.group(2)[:30]}")


def line_edit(rng, text):
    lines = text.split("\n")
    if len(lines) < 2:
        return None
    i = rng.randrange(len(lines))
    what = rng.randrange(4)
    if what == 0:
        desc = f"drop line {i + 1}"
        del lines[i]
    elif what == 1:
        desc = f"dup line {i + 1}"
        lines.insert(i, lines[i])
    elif what == 2:
        j = rng.randrange(len(lines))
        lines[i], lines[j] = lines[j], lines[i]
        desc = f"swap lines {i + 1}, {j + 1}"
    else:
        j = rng.randrange(len(lines))
        lines.insert(j, lines.pop(i))
        desc = f"move line {i + 1} to {j + 1}"
    return "\n".join(lines), desc


def splice_line(rng, text):
    """A line of another corpus file inserted: an op that names values this file lacks,
    or, with the same names, other types."""
    path, other = rng.choice(corpus())
    others = [ln for ln in other.split("\n") if "=" in ln or "return" in ln]
    if not others:
        return None
    lines = text.split("\n")
    i = rng.randrange(len(lines) + 1)
    line = rng.choice(others)
    lines.insert(i, line)
    return "\n".join(lines), f"splice line {line.strip()[:40]!r} at {i + 1}"


def truncate(rng, text):
    if not text:
        return None
    cut = rng.randrange(len(text))
    return text[:cut], f"truncate at {cut}"


MUTATIONS = [  # (weight, mutation)
    (8, token_swap), (4, token_any), (5, token_delete), (4, token_duplicate), (6, op_swap),
    (8, type_change), (5, dim_rename), (6, dense_change), (5, number_change), (5, list_edit), (6, attr_edit),
    (5, line_edit), (3, splice_line), (1, truncate),
]
_WEIGHTS = [w for w, _ in MUTATIONS]


def random_bytes(rng, data: bytes):
    """Bytes, not text: odd or random bytes inserted or overwritten, bits flipped."""
    if not data:
        return data, "empty"
    pos = rng.randrange(len(data))
    what = rng.randrange(3)
    if what == 0:
        new = rng.choice(ODD_BYTES)
        return data[:pos] + new + data[pos:], f"insert bytes {new!r} at {pos}"
    if what == 1:
        new = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 9)))
        return data[:pos] + new + data[pos + len(new):], f"overwrite bytes {new!r} at {pos}"
    flipped = data[pos] ^ (1 << rng.randrange(8))
    return data[:pos] + bytes([flipped]) + data[pos + 1:], f"flip a bit of byte {pos}"


def make_input(seed: int, index: int) -> tuple:
    """(bytes, base file, [mutation descriptions]) of input `index` of campaign `seed`."""
    rng = random.Random(f"{seed}:{index}")
    path, text = rng.choice(corpus())
    done = []
    for _ in range(rng.choice((1, 1, 1, 2, 2, 3))):
        if rng.random() < 0.04:
            done.append(("bytes", None))
            continue
        for _attempt in range(4):  # one that finds something to work on
            mutation = rng.choices([m for _, m in MUTATIONS], weights=_WEIGHTS)[0]
            out = mutation(rng, text)
            if out is not None and out[0] != text:
                text, desc = out
                done.append((mutation.__name__, desc))
                break
    data = text.encode("utf-8")
    descs = []
    for name, desc in done:
        if name == "bytes":
            data, desc = random_bytes(rng, data)
        descs.append(f"{name}: {desc}")
    return data, path, descs
