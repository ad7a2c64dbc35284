"""The docs cannot drift: every relative link in the project's Markdown points at a file that
exists (and, with a #fragment, at a heading or anchor of that file), and every generated table
is the one its generator writes from the code today.

    python tools/check_docs.py            check only; exit 1 naming each problem (`make lint`)
    python tools/check_docs.py --write    regenerate the tables first, then check (`make docs`)

Links are checked in GitHub's terms: a heading's anchor is its text lowercased, punctuation
dropped and spaces made hyphens, a repeated heading getting -1, -2...; links inside code
(fenced blocks, `spans`) are not links.
"""
from __future__ import annotations

import glob
import importlib
import os
import re
import sys
from urllib.parse import unquote

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# The Markdown files whose links are checked: every one in the repository (hidden folders such
# as .venv are skipped by glob) but what builds write.
CHECKED = ["**/*.md"]
NOT_CHECKED = ("build/", "out/")

# Each generated table: the file it lives in, and the module whose rewrite(text) writes it.
GENERATED = [
    ("docs/ops.md", "lowering.ops.table"),
    ("docs/tensorflow.md", "lowering.tf.docs"),
    ("docs/pytorch.md", "lowering.torch.docs"),
]

# benchmarks/README.md's list of the dated results files, written from the folder by `make docs`.
RESULTS_INDEX, RESULTS_FOLDER = "benchmarks/README.md", "benchmarks/results"
RESULTS_BEGIN, RESULTS_END = "<!-- results-list:begin -->", "<!-- results-list:end -->"

# Each index and the folder whose every Markdown file it must link: a page nobody links is lost.
INDEXES = [("README.md", "docs"), ("benchmarks/README.md", "benchmarks/results")]

FENCE = re.compile(r"^\s*(```|~~~)")
CODE_SPAN = re.compile(r"(`+)(.+?)\1")
INLINE_LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
REFERENCE = re.compile(r"^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+.*)?$")
HEADING = re.compile(r"^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$")
HTML_ANCHOR = re.compile(r"<a\s+(?:name|id)=\"([^\"]+)\"")


def prose_lines(text: str):
    """(line number, line) of the text outside fenced code blocks."""
    fenced = False
    for number, line in enumerate(text.splitlines(), 1):
        if FENCE.match(line):
            fenced = not fenced
            continue
        if not fenced:
            yield number, line


def slug(heading: str) -> str:
    """GitHub's anchor for a heading's text."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link keeps its text
    text = text.replace("`", "").replace("*", "").strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(text: str) -> set:
    """Every #fragment a link into this Markdown text may name."""
    found, seen = set(), {}
    for _, line in prose_lines(text):
        m = HEADING.match(line)
        if m:
            base = slug(m.group(2))
            n = seen.get(base, 0)
            seen[base] = n + 1
            found.add(base if n == 0 else f"{base}-{n}")
        found.update(HTML_ANCHOR.findall(line))
    return found


def links(text: str):
    """(line number, target) of every link in the text, outside code; a link's text may run
    over lines. A reference definition (`[name]: target`) cannot interrupt a paragraph, so it
    counts only after a blank line or another definition."""
    prose = [""] * (text.count("\n") + 1)
    for number, line in prose_lines(text):
        prose[number - 1] = CODE_SPAN.sub(lambda m: " " * len(m.group(0)), line)
    joined = "\n".join(prose)
    for m in INLINE_LINK.finditer(joined):
        yield joined.count("\n", 0, m.start(1)) + 1, m.group(1)
    previous = ""
    for number, line in enumerate(prose, 1):
        m = REFERENCE.match(line)
        if m and not previous.strip():
            yield number, m.group(1)
        previous = "" if m and not previous.strip() else line  # definitions may follow each other


def check_links(path: str, root: str = ROOT) -> list:
    """The broken relative links of one Markdown file, as 'file:line: message'."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    where = os.path.relpath(path, root)
    problems, cache = [], {}
    for number, target in sorted(links(text)):
        if re.match(r"^[a-zA-Z][a-zA-Z0-9+.-]*:", target):  # http:, https:, mailto:...
            continue
        file_part, _, fragment = target.partition("#")
        dest = os.path.normpath(os.path.join(os.path.dirname(path), unquote(file_part))) \
            if file_part else path
        if not os.path.exists(dest):
            problems.append(f"{where}:{number}: link to {target}: {file_part} does not exist")
            continue
        if fragment and dest.endswith(".md") and os.path.isfile(dest):
            if dest not in cache:
                with open(dest, encoding="utf-8") as f:
                    cache[dest] = anchors(f.read())
            if unquote(fragment).lower() not in cache[dest]:
                problems.append(f"{where}:{number}: link to {target}: "
                                f"no heading or anchor #{fragment} in {os.path.relpath(dest, root)}")
    return problems


def unlinked(root: str = ROOT, indexes=INDEXES) -> list:
    """The pages of each indexed folder that its index does not link."""
    problems = []
    for index, folder in indexes:
        path = os.path.join(root, index)
        with open(path, encoding="utf-8") as f:
            text = f.read()
        linked = {os.path.normpath(os.path.join(os.path.dirname(path), unquote(target.partition("#")[0])))
                  for _, target in links(text)}
        for page in sorted(glob.glob(os.path.join(root, folder, "**", "*.md"), recursive=True)):
            if os.path.normpath(page) not in linked:
                problems.append(f"{os.path.relpath(page, root)}: not linked from {index}")
    return problems


def markdown_files(root: str = ROOT, patterns=CHECKED) -> list:
    files = set()
    for pattern in patterns:
        files.update(glob.glob(os.path.join(root, pattern), recursive=True))
    return sorted(f for f in files if not os.path.relpath(f, root).startswith(NOT_CHECKED))


def results_list(text: str, root: str = ROOT) -> str:
    """`text` (benchmarks/README.md) with its list of results files rewritten: one line per
    file of benchmarks/results/, by name (so by date), titled by the file's first heading."""
    if RESULTS_BEGIN not in text or RESULTS_END not in text:
        raise ValueError(f"{RESULTS_INDEX} lacks the {RESULTS_BEGIN} ... {RESULTS_END} markers")
    items = []
    folder = os.path.join(root, RESULTS_FOLDER)
    for name in sorted(os.listdir(folder)):
        if name.endswith(".md"):
            with open(os.path.join(folder, name), encoding="utf-8") as f:
                title = f.readline().lstrip("#").strip()
            items.append(f"- [{title}]({os.path.basename(RESULTS_FOLDER)}/{name})")
    head, rest = text.split(RESULTS_BEGIN, 1)
    tail = rest.split(RESULTS_END, 1)[1]
    return head + "\n".join([RESULTS_BEGIN, "", *items, "", RESULTS_END]) + tail


def generators(root: str = ROOT, generated=GENERATED):
    """(file, generator's name, rewrite) for every generated table."""
    for rel, module in generated:
        yield rel, module, importlib.import_module(module).rewrite
    if generated is GENERATED:
        yield RESULTS_INDEX, "the results folder", lambda text: results_list(text, root)


def check_tables(root: str = ROOT, write: bool = False, generated=GENERATED) -> list:
    """The generated tables that differ from their generator's output (rewritten if `write`)."""
    problems = []
    for rel, name, rewrite in generators(root, generated):
        path = os.path.join(root, rel)
        with open(path, encoding="utf-8") as f:
            text = f.read()
        fresh = rewrite(text)
        if fresh == text:
            continue
        if write:
            with open(path, "w", encoding="utf-8") as f:
                f.write(fresh)
        else:
            problems.append(f"{rel}: its table is not what {name} generates: run `make docs`")
    return problems


def main(argv) -> int:
    write = "--write" in argv
    if ROOT not in sys.path:
        sys.path.insert(0, ROOT)
    problems = check_tables(write=write)
    for path in markdown_files():
        problems += check_links(path)
    problems += unlinked()
    for p in problems:
        print(p, file=sys.stderr)
    if problems:
        print(f"check_docs: {len(problems)} problem(s)", file=sys.stderr)
        return 1
    print(f"check_docs: {len(markdown_files())} files: links, indexes and {len(GENERATED) + 1} "
          "generated tables up to date")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
