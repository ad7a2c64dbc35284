"""Every program of the JAX-exported corpus compiles and matches JAX's saved outputs."""
import glob
import os

import pytest

import aot
from corpus import assert_close, load_case

HERE = os.path.dirname(os.path.abspath(__file__))
CASES = sorted(os.path.basename(p)[:-5] for p in glob.glob(os.path.join(HERE, "jax_ops", "*.mlir")))


def test_corpus_is_there():
    assert len(CASES) >= 150


@pytest.mark.parametrize("case", CASES)
def test_jax_case(case):
    base = os.path.join(HERE, "jax_ops", case)
    lib = aot.compile(base + ".mlir", name=case)
    args, want = load_case(base + ".npz")
    got = lib.main(*args)
    got = got if isinstance(got, tuple) else (got,)
    assert len(got) == len(want)
    for i, (g, w) in enumerate(zip(got, want)):
        assert_close(g, w, f"{case} result {i}")
