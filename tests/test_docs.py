"""The README's supported-ops table is the one the op tables generate (`make docs`)."""
import os

from lowering.ops import table as optable

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def test_readme_ops_table_is_generated():
    with open(os.path.join(ROOT, "README.md")) as f:
        text = f.read()
    assert optable.rewrite(text) == text, "README's ops table is stale: run `make docs`"


def test_readme_starts_with_the_two_commands():
    with open(os.path.join(ROOT, "README.md")) as f:
        head = f.read().split("\n\n", 3)[:3]
    assert "make demo" in "\n".join(head) and "make test" in "\n".join(head)
