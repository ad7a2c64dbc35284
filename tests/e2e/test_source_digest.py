"""The helper objects' cache key (lowering/cache.py source_digest): a hash of the files the
helpers' code is made from, found through their imports, so that an edit to one of those
files rebuilds them and an edit anywhere else in the compiler does not."""
from lowering.cache import source_digest


def _tree(root, files):
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


def test_digest_follows_imports_only(tmp_path):
    _tree(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/top.py": "import os\nfrom pkg.mid import f\n\ndef g():\n    from pkg import (\n"
                      "        low,\n    )\n    return low\n",
        "pkg/mid.py": "import numpy as np, pkg.other\n\ndef f():\n    return np\n",
        "pkg/other.py": "X = 1\n",
        "pkg/low.py": "Y = 2\n",
        "pkg/unrelated.py": "Z = 3\n",
    })

    def digest():
        source_digest.cache_clear()
        return source_digest("pkg.top", str(tmp_path))

    first = digest()
    assert digest() == first
    (tmp_path / "pkg/unrelated.py").write_text("Z = 4\n")
    assert digest() == first  # not imported: the key stays
    seen = {first}
    for name in ("pkg/top.py", "pkg/mid.py", "pkg/other.py", "pkg/low.py"):
        path = tmp_path / name
        path.write_text(path.read_text() + "# edited\n")
        seen.add(digest())  # imported at the top, inside a function, in a list: a new key
    assert len(seen) == 5


def test_the_helpers_sources_are_their_own():
    source_digest.cache_clear()
    a = source_digest("lowering.codegen.cpu.helpers")
    assert a == source_digest("lowering.codegen.cpu.helpers")
    assert a != source_digest("lowering.passes.pipeline")
