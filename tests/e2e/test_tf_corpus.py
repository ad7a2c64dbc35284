"""Every program of the TensorFlow-exported corpus (tests/data/tf/, made by its export.py
with TensorFlow, which these tests do not need) compiles from the `tf` dialect form and from
the raw `tf_executor` import, and matches TensorFlow's saved outputs; cases with `?` dims
run at every saved size set from one library; so does TensorFlow's own partial lowering
(NAME.hlo.mlir) where it makes one. A GraphDef case (NAME.feeds.json) compiles its
executor form, which has no signature, with tfcompile's feeds and fetches; a case with its
variables left as resource arguments (NAME.vars.npz) compiles with them frozen (--freeze)."""
import glob
import json
import os

import numpy as np
import pytest

import aot
from corpus import assert_close

TF = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "data", "tf")
CASES = sorted(os.path.basename(p)[:-len(".tf.mlir")] for p in glob.glob(os.path.join(TF, "*.tf.mlir")))
FORMS = ("tf", "executor")
# TensorFlow's own lowering (StableHLO with shape/tensor/arith ops), for the cases it lowers
HLO_CASES = sorted(os.path.basename(p)[:-len(".hlo.mlir")]
                   for p in glob.glob(os.path.join(TF, "*.hlo.mlir")))


def size_sets(npz):
    """[(prefix, args, outs)]: one unprefixed set for a static case, s0_, s1_... else."""
    prefixes = [""] if "arg0" in npz.files else []
    k = 0
    while f"s{k}_arg0" in npz.files:
        prefixes.append(f"s{k}_")
        k += 1
    out = []
    for p in prefixes:
        args = [npz[f"{p}arg{i}"] for i in range(64) if f"{p}arg{i}" in npz.files]
        outs = [npz[f"{p}out{i}"] for i in range(64) if f"{p}out{i}" in npz.files]
        out.append((p, args, outs))
    return out


def test_corpus_is_there():
    assert len(CASES) >= 8
    for case in CASES:
        for form in FORMS:
            assert os.path.exists(os.path.join(TF, f"{case}.{form}.mlir")), (case, form)


def test_tf_lowering_corpus_is_there():
    assert len(HLO_CASES) >= 8


@pytest.mark.parametrize("case, form", [(c, f) for c in CASES for f in FORMS]
                         + [(c, "hlo") for c in HLO_CASES])
def test_tf_case(case, form):
    select = {}
    feeds = os.path.join(TF, case + ".feeds.json")
    if form == "executor" and os.path.exists(feeds):
        with open(feeds) as f:
            select = json.load(f)
    if os.path.exists(os.path.join(TF, case + ".vars.npz")):
        select["freeze"] = os.path.join(TF, case + ".vars.npz")
    lib = aot.compile(os.path.join(TF, f"{case}.{form}.mlir"), name=f"tf_{case}", **select)
    (entry,) = lib.entries.values()  # TF names it after the function: __inference_f_21
    npz = np.load(os.path.join(TF, case + ".npz"))
    sets = size_sets(npz)
    assert sets
    with open(os.path.join(TF, f"{case}.tf.mlir")) as f:
        signature = next(line for line in f if "func.func" in line).split("->")[0]
    if "?" in signature:
        assert len(sets) >= 3, f"{case}: a dynamic case runs at several sizes"
    for prefix, args, want in sets:
        got = entry(*args)
        got = got if isinstance(got, tuple) else (got,)
        assert len(got) == len(want)
        for i, (g, w) in enumerate(zip(got, want)):
            assert_close(g, w, f"{case} ({form}) {prefix}result {i}")
