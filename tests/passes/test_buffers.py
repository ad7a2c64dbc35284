"""Buffer reuse: a pointwise kernel writes its result over an input whose buffer dies
there, and only then."""
import os
import re

import numpy as np

import aot
from aot.driver import Compilation, Options
from lowering.frontend.parser import parse_module
from lowering.frontend.printer import print_module
from lowering.passes.pipeline import run_pipeline

DATA = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "data")


def lhlo_text(text):
    return print_module(run_pipeline(parse_module(text), "lhlo"))


def test_pointwise_kernel_writes_over_a_dying_input():
    with open(os.path.join(DATA, "in_place.mlir")) as f:
        text = f.read()
    assert '"lmhlo.fusion"(%0, %0)' in lhlo_text(text)  # tanh(2t) + t written over t
    lib = aot.compile(text, name="in_place")
    x = np.random.default_rng(0).random((64, 128)).astype(np.float32)
    s, o = lib.main(x)
    t = np.exp(x.astype(np.float64))
    v = np.tanh(2 * t) + t
    np.testing.assert_allclose(s, t.sum(axis=1), rtol=1e-6)
    np.testing.assert_allclose(o, v.max(axis=1) + v.sum(axis=1), rtol=1e-6)


def test_a_kernel_written_in_place_uses_one_pointer_for_its_buffer():
    """The in-place kernel's output is its input's buffer (`aot.aliased` maps argument 1 to
    0): the LLVM function reads and writes through the first pointer, noalias as every
    distinct buffer's is, and leaves the second unused, so LLVM adds no run-time overlap
    checks (nor the scalar copy of each loop they guard)."""
    with open(os.path.join(DATA, "in_place.mlir")) as f:
        comp = Compilation(f.read(), "in_place.mlir", Options(name="in_place"))
    (kernel,) = [f for f in comp.loops().functions() if f.attrs.get("aot.aliased")]
    assert kernel.attrs["aot.aliased"] == (0, 0)
    _, text, _, _ = comp.llvm()
    name = kernel.attrs["sym_name"]
    m = re.search(rf'define internal void @"in_place\.{name}"\((.*?)\) nounwind\s*\{{(.*?)\n\}}',
                  text, re.S)
    params, body = m.group(1).split(", "), m.group(2)
    first, second = params[0], params[3]  # pointer, 2 dims; then the same buffer's pointer
    assert first.startswith("ptr noalias ") and second.startswith("ptr ")
    assert "noalias" not in second and second.split()[-1] not in body
    assert first.split()[-1] in body


def test_no_reuse_of_an_input_read_later():
    text = """
    func.func @main(%x: tensor<8xf32>) -> (tensor<f32>, tensor<f32>) {
      %t = stablehlo.exponential %x : tensor<8xf32>
      %z = stablehlo.constant dense<0.0> : tensor<f32>
      %a = stablehlo.reduce(%t init: %z) applies stablehlo.add across dimensions = [0] : (tensor<8xf32>, tensor<f32>) -> tensor<f32>
      %y = stablehlo.negate %t : tensor<8xf32>
      %b = stablehlo.reduce(%y init: %z) applies stablehlo.add across dimensions = [0] : (tensor<8xf32>, tensor<f32>) -> tensor<f32>
      %c = stablehlo.reduce(%t init: %z) applies stablehlo.maximum across dimensions = [0] : (tensor<8xf32>, tensor<f32>) -> tensor<f32>
      %d = stablehlo.add %b, %c : tensor<f32>
      return %a, %d : tensor<f32>, tensor<f32>
    }"""  # noqa: E501
    assert '"lmhlo.fusion"(%0, %0)' not in lhlo_text(text)  # t is read after negate
    lib = aot.compile(text, name="no_reuse")
    x = np.linspace(0, 1, 8, dtype=np.float32)
    a, d = lib.main(x)
    t = np.exp(x.astype(np.float64))
    np.testing.assert_allclose([a, d], [t.sum(), -t.sum() + t.max()], rtol=1e-6)


def deallocs_twice(func) -> list:
    """Values freed twice in one block, anywhere in `func`."""
    twice = []
    for op in func.walk():
        for region in op.regions:
            for block in region.blocks:
                freed = [o.operands[0] for o in block.ops if o.name == "memref.dealloc"]
                twice += [v for i, v in enumerate(freed) if v in freed[:i]]
    return twice


def test_loops_free_each_buffer_once():
    """A while loop's spare buffers were freed twice after the loop (its explicit dealloc, then
    insert_deallocs again): with the cache a freed block's magic hid it, with
    AOT_ALLOCATOR=system it was a use after free that AddressSanitizer reported (make
    test-asan)."""
    for case in ("while_zero_iterations", "nested_while_scan", "cond_inside_loop",
                 "loop_inside_cond", "model_lstm_scan"):
        with open(os.path.join(DATA, "conformance", case + ".mlir")) as f:
            module = run_pipeline(parse_module(f.read()), "loops")
        for func in module.ops:
            assert not deallocs_twice(func), (case, func)
