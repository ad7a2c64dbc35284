"""Bad input is a located CompileError, never a Python exception from deep inside: valid
programs mutated at random (a token deleted, duplicated or replaced by another) run
through every stage up to loops; anything but a CompileError fails the test."""
import glob
import os
import random
import re

import pytest

from lowering.frontend.parser import parse_module
from lowering.ir.core import CompileError
from lowering.passes.pipeline import run_pipeline

DATA = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "data")
SOURCES = (sorted(glob.glob(os.path.join(DATA, "jax_ops", "*.mlir")))[::4]
           + sorted(glob.glob(os.path.join(DATA, "jax_dynamic", "*.mlir")))[::3]
           + sorted(glob.glob(os.path.join(DATA, "golden", "*.mlir")))
           + sorted(glob.glob(os.path.join(DATA, "conformance", "*.mlir")))[::10])
TOKEN = re.compile(r'%[\w#]+|"[^"]*"|\w+|[^\s\w]')


def mutate(rng, text):
    toks = list(TOKEN.finditer(text))
    m = rng.choice(toks)
    kind = rng.randrange(3)
    if kind == 0:
        return text[:m.start()] + text[m.end():]
    if kind == 1:
        return text[:m.start()] + m.group(0) + " " + m.group(0) + text[m.end():]
    return text[:m.start()] + rng.choice(toks).group(0) + text[m.end():]


@pytest.mark.parametrize("seed", range(4))
def test_mutated_programs_fail_cleanly(seed):
    rng = random.Random(seed)
    for _ in range(250):
        text = mutate(rng, open(rng.choice(SOURCES)).read())
        try:
            run_pipeline(parse_module(text, "mutated.mlir"), "loops")
        except CompileError as e:
            assert e.render().startswith("mutated.mlir:") and e.loc.line > 0, e.render()
