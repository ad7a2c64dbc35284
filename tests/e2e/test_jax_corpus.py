"""Every program of the JAX-exported corpus compiles and matches JAX's saved outputs."""
import glob
import os

import pytest

import aot
from corpus import assert_close, load_case

JAX_OPS = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "data", "jax_ops")
CASES = sorted(os.path.basename(p)[:-5] for p in glob.glob(os.path.join(JAX_OPS, "*.mlir")))


def test_corpus_is_there():
    assert len(CASES) >= 150


@pytest.mark.parametrize("case", CASES)
def test_jax_case(case):
    base = os.path.join(JAX_OPS, case)
    lib = aot.compile(base + ".mlir", name=case)
    args, want = load_case(base + ".npz")
    got = lib.main(*args)
    got = got if isinstance(got, tuple) else (got,)
    assert len(got) == len(want)
    for i, (g, w) in enumerate(zip(got, want)):
        assert_close(g, w, f"{case} result {i}")
