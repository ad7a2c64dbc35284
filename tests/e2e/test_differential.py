"""The differential fuzzer (tests/tooling/fuzz/differential.py): random valid programs, each
compiled once and called with two assignments of its `?` dims, against the numpy evaluation
the generator does as it builds them. A fixed-seed sample runs here (`make fuzz-diff` runs
large campaigns), with what campaigns found wrong as explicit regressions (REDUCED)."""
import numpy as np
import pytest

import aot
from tooling.fuzz.differential import _pad, check, compare, generate, run_saved, save

SEED = 20251125
SAMPLE = 36

# What campaigns found wrong, reduced by hand to the op at fault (a generated program's seed
# and index do not survive changes to the generator): (name, program, inputs(n) for a dynamic
# dim's size n, numpy reference). Each is called at n = 3, 1 and 0.
EMPTY_DYN = "tensor<?xf32>"
REDUCED = [
    # an empty dynamic operand of a concatenate, fused (negate): every operand is read at a
    # clamped index, n - 1 = -1 for the empty one, before its data (NULL for an empty
    # argument): a segfault
    ("concatenate_empty_fused_operand", f"""
func.func @main(%a: {EMPTY_DYN}, %b: tensor<1xf32>) -> {EMPTY_DYN} {{
  %n = stablehlo.negate %a : {EMPTY_DYN}
  %c = "stablehlo.concatenate"(%n, %b) {{dimension = 0 : i64}}
      : ({EMPTY_DYN}, tensor<1xf32>) -> {EMPTY_DYN}
  return %c : {EMPTY_DYN}
}}""", lambda n: [np.arange(n, dtype=np.float32), np.array([5], np.float32)],
     lambda a, b: [np.concatenate([-a, b])]),
    # a pad of an empty dynamic operand, fused: index 0 of the empty (NULL) operand read
    ("pad_empty_fused_operand", f"""
func.func @main(%a: {EMPTY_DYN}) -> {EMPTY_DYN} {{
  %p = stablehlo.constant dense<7.0> : tensor<f32>
  %n = stablehlo.negate %a : {EMPTY_DYN}
  %r = "stablehlo.pad"(%n, %p) {{edge_padding_low = array<i64: 1>,
      edge_padding_high = array<i64: 2>, interior_padding = array<i64: 0>}}
      : ({EMPTY_DYN}, tensor<f32>) -> {EMPTY_DYN}
  return %r : {EMPTY_DYN}
}}""", lambda n: [np.arange(n, dtype=np.float32)],
     lambda a: [np.pad(-a, (1, 2), constant_values=7)]),
    # a reshape fused into a pad, its operand empty at run time: pad reads it at index 0
    # anyway, and the reshape's index arithmetic divided by the operand's dim of 0 (SIGFPE)
    ("reshape_of_empty_fused_into_pad", """
func.func @main(%a: tensor<?x2x?xf32>) -> tensor<?x?xf32> {
  %two = stablehlo.constant dense<2> : tensor<i32>
  %n0 = stablehlo.get_dimension_size %a, dim = 0 : (tensor<?x2x?xf32>) -> tensor<i32>
  %n2 = stablehlo.get_dimension_size %a, dim = 2 : (tensor<?x2x?xf32>) -> tensor<i32>
  %m = stablehlo.multiply %two, %n2 : tensor<i32>
  %s0 = stablehlo.reshape %n0 : (tensor<i32>) -> tensor<1xi32>
  %s1 = stablehlo.reshape %m : (tensor<i32>) -> tensor<1xi32>
  %shape = stablehlo.concatenate %s0, %s1, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
  %r = stablehlo.dynamic_reshape %a, %shape : (tensor<?x2x?xf32>, tensor<2xi32>) -> tensor<?x?xf32>
  %p = stablehlo.constant dense<7.0> : tensor<f32>
  %out = "stablehlo.pad"(%r, %p) {edge_padding_low = array<i64: 0, 1>,
      edge_padding_high = array<i64: 2, 1>, interior_padding = array<i64: 2, 2>}
      : (tensor<?x?xf32>, tensor<f32>) -> tensor<?x?xf32>
  return %out : tensor<?x?xf32>
}""", lambda n: [np.arange(4 * n, dtype=np.float32).reshape(2, 2, n)],
     lambda a: [_pad(a.reshape(2, -1), np.float32(7), [0, 1], [2, 1], [2, 2])]),
    # a concatenate whose operands are all statically empty, fused with a pad after it: its
    # elemental rule had no value to give (a KeyError: None in LLVM IR generation)
    ("concatenate_all_empty", """
func.func @main(%a: tensor<1x2xf32>) -> tensor<2x3xf32> {
  %p = stablehlo.constant dense<1.5> : tensor<f32>
  %s = "stablehlo.slice"(%a) {start_indices = array<i64: 0, 0>, limit_indices = array<i64: 1, 0>,
      strides = array<i64: 1, 1>} : (tensor<1x2xf32>) -> tensor<1x0xf32>
  %c = "stablehlo.concatenate"(%s, %s) {dimension = 1 : i64}
      : (tensor<1x0xf32>, tensor<1x0xf32>) -> tensor<1x0xf32>
  %r = "stablehlo.pad"(%c, %p) {edge_padding_low = array<i64: 1, 1>,
      edge_padding_high = array<i64: 0, 2>, interior_padding = array<i64: 0, 0>}
      : (tensor<1x0xf32>, tensor<f32>) -> tensor<2x3xf32>
  return %r : tensor<2x3xf32>
}""", lambda n: [np.ones((1, 2), np.float32)], lambda a: [np.full((2, 3), 1.5, np.float32)]),
]


def run_program(seed, index):
    case = generate(seed, index)
    lib = aot.compile(case.text, name=f"diff_{seed}_{index}")
    problems, _ = check(case, lib)
    assert not problems, "\n".join(problems) + "\n" + case.text


@pytest.mark.parametrize("index", range(SAMPLE))
def test_sample(index):
    run_program(SEED, index)


@pytest.mark.parametrize("name, text, inputs, reference", REDUCED, ids=[r[0] for r in REDUCED])
def test_reduced(name, text, inputs, reference):
    lib = aot.compile(text, name=name)
    for n in (3, 1, 0):
        args = inputs(n)
        got = lib.main(*args)
        got = list(got) if isinstance(got, tuple) else [got]
        for g, w in zip(got, reference(*args), strict=True):
            np.testing.assert_array_equal(g, w, err_msg=f"{name}, n = {n}")


def test_programs_are_reproducible():
    a, b = generate(7, 11), generate(7, 11)
    assert a.text == b.text
    for c in (0, 1):
        for x, y in zip(a.inputs[c] + a.expected[c], b.inputs[c] + b.expected[c]):
            np.testing.assert_array_equal(x, y)
    assert generate(7, 12).text != a.text


def test_sample_covers_dynamic_dims_and_the_op_families():
    cases = [generate(SEED, i) for i in range(SAMPLE)]
    assert sum("?" in c.text.split("{", 1)[0] for c in cases) >= SAMPLE // 3
    seen = {op for c in cases for op in c.ops}
    for op in ("dot_general", "broadcast_in_dim", "convert", "compare", "select", "slice",
               "dynamic_slice", "concatenate", "transpose", "reshape"):
        assert op in seen, op
    assert any(op.startswith("reduce_") for op in seen)


def test_saved_failure_replays(tmp_path):
    """A failure's files (the program, the .npz of inputs, expected results and bounds) run
    again by --replay: as saved it passes; with one expected element changed it fails."""
    case = generate(SEED, 3)
    base = save(case, str(tmp_path), "mismatch", "test")
    assert run_saved(base + ".mlir") == ("ok", "")
    flat = case.expected[1][0].reshape(-1)
    if flat.size:
        flat[0] = ~flat[0] if flat.dtype.kind in "bi" else flat[0] + 1000
        base = save(case, str(tmp_path), "mismatch", "test")
        kind, detail = run_saved(base + ".mlir")
        assert kind == "mismatch" and "call 1 result 0" in detail, detail


def test_compare_flags_a_wrong_element():
    want = np.array([1.0, 2.0], np.float32)
    assert compare(want.copy(), want, np.array([0.0, 0.0])) is None
    assert compare(np.array([1.0, 2.5], np.float32), want, np.array([0.0, 0.4])) is not None
    assert compare(np.array([1.0, 2.25], np.float32), want, np.array([0.0, 0.4])) is None
    assert compare(np.array([1, 2], np.int32), np.array([1, 3], np.int32), None) is not None
    nan = np.array([np.nan, 1.0], np.float32)
    assert compare(nan.copy(), nan, np.zeros(2)) is None
    assert compare(np.array([1.0, 1.0], np.float32), nan, np.zeros(2)) is not None
    assert "want float32[3]" in compare(np.zeros(2, np.float32), np.zeros(3, np.float32), None)
