"""The docs hold together: README starts with the two commands, every relative link and #anchor
of the Markdown resolves, and every generated table is the one its generator writes
(tools/check_docs.py, which `make docs` and `make lint` run)."""
import importlib.util
import os

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

_spec = importlib.util.spec_from_file_location("check_docs", os.path.join(ROOT, "tools", "check_docs.py"))
check_docs = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(check_docs)


def test_readme_starts_with_the_two_commands():
    with open(os.path.join(ROOT, "README.md")) as f:
        head = f.read().split("\n\n", 3)[:3]
    assert "make demo" in "\n".join(head) and "make test" in "\n".join(head)


def test_project_docs_links_and_tables_are_current():
    problems = check_docs.check_tables()
    for path in check_docs.markdown_files():
        problems += check_docs.check_links(path)
    assert problems + check_docs.unlinked() == []


def test_generated_tables_live_in_checked_files():
    checked = {os.path.relpath(p, ROOT) for p in check_docs.markdown_files()}
    assert {rel for rel, _ in check_docs.GENERATED} <= checked


def test_slugs_follow_github():
    assert check_docs.slug("Results — 2026-11-25: transcendental math (issue 15, item 1)") == \
        "results--2026-11-25-transcendental-math-issue-15-item-1"
    assert check_docs.slug("Whole models against XLA (`benchmarks/models.py`)") == \
        "whole-models-against-xla-benchmarksmodelspy"
    assert check_docs.slug("The [C++ class](x.md)") == "the-c-class"


def write(tmp_path, rel, text):
    path = tmp_path / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return str(path)


def test_broken_links_and_anchors_are_named_with_their_line(tmp_path):
    write(tmp_path, "docs/b.md", "# B page\n\n## Usage\n\n## Usage\n\n<a id=\"custom\"></a>\n")
    a = write(tmp_path, "README.md", "\n".join([
        "# A",
        "[ok](docs/b.md) [ok](docs/b.md#usage) [ok](docs/b.md#usage-1) [ok](docs/b.md#custom)",
        "[ok](#a) [web](https://example.com/missing) ![img](docs/b.md)",
        "[gone](docs/missing.md)",
        "[no anchor](docs/b.md#usage-2)",
        "[self](#nowhere)",
        "`[in code](nope.md)`",
        "```",
        "[in a fence](nope.md)",
        "```",
        "",
        "[ref]: docs/also-missing.md",
        "[ref2]: docs/b.md",
        "text",
        "[0, 2^40]: a paragraph's line, not a reference",
        "a [link whose text",
        "runs over lines](docs/gone-too.md)",
    ]))
    problems = check_docs.check_links(a, root=str(tmp_path))
    assert problems == [
        "README.md:4: link to docs/missing.md: docs/missing.md does not exist",
        "README.md:5: link to docs/b.md#usage-2: no heading or anchor #usage-2 in docs/b.md",
        "README.md:6: link to #nowhere: no heading or anchor #nowhere in README.md",
        "README.md:12: link to docs/also-missing.md: docs/also-missing.md does not exist",
        "README.md:17: link to docs/gone-too.md: docs/gone-too.md does not exist",
    ]


def test_a_stale_table_fails_the_check_and_write_refreshes_it(tmp_path):
    from lowering.ops import table
    fresh = table.rewrite(f"# Ops\n\n{table.BEGIN}\nold\n{table.END}\n")
    write(tmp_path, "docs/ops.md", f"# Ops\n\n{table.BEGIN}\nold\n{table.END}\n")
    generated = [("docs/ops.md", "lowering.ops.table")]
    assert check_docs.check_tables(root=str(tmp_path), generated=generated) == [
        "docs/ops.md: its table is not what lowering.ops.table generates: run `make docs`"]
    assert check_docs.check_tables(root=str(tmp_path), write=True, generated=generated) == []
    assert (tmp_path / "docs/ops.md").read_text() == fresh
    assert check_docs.check_tables(root=str(tmp_path), generated=generated) == []


def test_pages_their_index_does_not_link_are_named(tmp_path):
    write(tmp_path, "docs/a.md", "# A\n")
    write(tmp_path, "docs/sub/b.md", "# B\n")
    write(tmp_path, "docs/c.md", "# C\n")
    write(tmp_path, "README.md", "[a](docs/a.md#a) and [b](docs/sub/b.md)\n`[c](docs/c.md)`\n")
    assert check_docs.unlinked(root=str(tmp_path), indexes=[("README.md", "docs")]) == [
        "docs/c.md: not linked from README.md"]


def test_results_list_is_written_from_the_folder(tmp_path):
    write(tmp_path, "benchmarks/results/2026-01-02-b.md", "# b.py, 2026-01-02: later\n\ntext\n")
    write(tmp_path, "benchmarks/results/2026-01-01-a.md", "# a.py, 2026-01-01: first\n")
    begin, end = check_docs.RESULTS_BEGIN, check_docs.RESULTS_END
    text = f"# Benchmarks\n\n## Results by date\n\n{begin}\n- stale\n{end}\n"
    assert check_docs.results_list(text, root=str(tmp_path)) == (
        f"# Benchmarks\n\n## Results by date\n\n{begin}\n\n"
        "- [a.py, 2026-01-01: first](results/2026-01-01-a.md)\n"
        "- [b.py, 2026-01-02: later](results/2026-01-02-b.md)\n\n"
        f"{end}\n")
