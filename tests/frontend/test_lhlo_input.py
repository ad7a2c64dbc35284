"""Buffer-level (LHLO) input compiles through the same kernels as tensor-level input."""
import os

import numpy as np
import pytest

import aot
from lowering.frontend.parser import parse_module
from lowering.frontend.printer import print_module
from lowering.ir.core import CompileError
from lowering.passes.pipeline import run_pipeline

DATA = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "data")


def test_fusion_dot_constant_and_output_argument():
    lib = aot.compile(os.path.join(DATA, "lhlo_fusion_dot.mlir"), name="lhlo_fusion_dot")
    assert [a.name for a in lib.main.signature.args] == ["a", "b"]  # %c is written: a result
    rng = np.random.default_rng(0)
    a, b = rng.random((2, 3), np.float32), rng.random((3, 4), np.float32)
    t = a.astype(np.float64) @ b
    np.testing.assert_allclose(lib.main(a, b), np.exp(t + 1.5) * t, rtol=2e-6)


def test_reduce_with_buffer_body_and_returned_buffer():
    lib = aot.compile(os.path.join(DATA, "lhlo_reduce_return.mlir"), name="lhlo_reduce_return")
    x = np.arange(15, dtype=np.float32).reshape(3, 5)
    np.testing.assert_allclose(lib.main(x), (x * x).sum(axis=1), rtol=1e-6)


def test_raised_form_is_printed():
    with open(os.path.join(DATA, "lhlo_reduce_return.mlir")) as f:
        text = print_module(run_pipeline(parse_module(f.read()), "lhlo"))
    assert '"mhlo.reduce"' in text and 'fusion_kind = "kInput"' in text
    assert '"mhlo.add"' in text and "xla_lhlo" not in text


def test_tensor_stages_do_not_exist_for_buffer_input():
    with open(os.path.join(DATA, "lhlo_reduce_return.mlir")) as f:
        module = parse_module(f.read())
    with pytest.raises(CompileError, match="buffer-level"):
        run_pipeline(module, "fused")
