"""Golden text of every stage for small programs.

Each tests/data/golden/NAME.mlir holds the input followed by one `// ==== STAGE`
block per stage with the expected printed IR as comment lines. Regenerate after
an intended change with `AOTC_UPDATE_GOLDEN=1 pytest tests/passes/test_stages.py` and
review the diff.
"""
import glob
import os

import pytest

from lowering.frontend.parser import parse_module
from lowering.frontend.printer import print_module
from lowering.passes.pipeline import STAGE_NAMES, run_pipeline

GOLDEN = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "data", "golden")
FILES = sorted(glob.glob(os.path.join(GOLDEN, "*.mlir")))
MARK = "// ==== "


def split_golden(text: str):
    source, _, rest = text.partition("\n" + MARK)
    expected = {}
    if rest:
        for block in (MARK + rest).split("\n" + MARK):
            header, _, body = block.partition("\n")
            stage = header.replace(MARK, "").strip()
            expected[stage] = "\n".join(line[3:] if line.startswith("// ") else line[2:]
                                        for line in body.splitlines()) + "\n"
    return source.rstrip("\n") + "\n", expected


def actual_stages(source: str, path: str) -> dict:
    out = {}
    run_pipeline(parse_module(source, path), "loops",
                 dump=lambda stage, m: out.__setitem__(stage, print_module(m)))
    return out


@pytest.mark.parametrize("path", FILES, ids=os.path.basename)
def test_golden_stages(path):
    with open(path) as f:
        source, expected = split_golden(f.read())
    actual = actual_stages(source, os.path.basename(path))
    if os.environ.get("AOTC_UPDATE_GOLDEN"):
        blocks = [source]
        for stage in STAGE_NAMES:
            body = "\n".join(("// " + line) if line else "//"
                             for line in actual[stage].rstrip("\n").splitlines())
            blocks.append(f"{MARK}{stage}\n{body}\n")
        with open(path, "w") as f:
            f.write("".join(blocks))
        return
    assert set(expected) == set(STAGE_NAMES), "golden file lacks stages; regenerate it"
    for stage in STAGE_NAMES:
        assert actual[stage] == expected[stage], f"stage {stage} differs"


@pytest.mark.parametrize("path", FILES, ids=os.path.basename)
def test_every_stage_parses_back(path):
    """Each stage's text is input the parser accepts and prints identically."""
    with open(path) as f:
        source, _ = split_golden(f.read())
    for stage, text in actual_stages(source, path).items():
        assert print_module(parse_module(text, stage)) == text, stage
