"""torch.linalg ops the PyTorch door refuses: a compile-time error naming the ATen op, the
model's file:line, and what is supported instead. (torch.linalg.lstsq cannot be tested so:
torch.export itself refuses lstsq, its outputs' shapes depending on the driver; the table
names it for a program that holds it all the same.)"""
import os

import pytest

import aot
from lowering.ir.core import CompileError

DATA = os.path.join(os.path.dirname(__file__), "..", "data", "torch")


def _line(snippet: str) -> int:
    lines = open(os.path.join(DATA, "export.py")).read().split("\n")
    return next(i for i, text in enumerate(lines, 1) if snippet in text)


def test_general_eig_is_refused_at_the_models_line():
    with pytest.raises(CompileError, match=r"aten\.linalg_eig\.default .* no general "
                                           r"\(non-symmetric\) eigensolver.*torch\.linalg\.eigh") as info:
        aot.compile(os.path.join(DATA, "eig.pt2"))
    loc = info.value.loc
    assert os.path.basename(str(loc.file)) == "export.py"
    assert loc.line == _line("values, vectors = torch.linalg.eig(x)")

