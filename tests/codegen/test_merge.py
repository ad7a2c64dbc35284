"""Functions that differ only in integer constants are compiled once (llvm/merge.py): a
model's repeated kernels with other channel counts share one function taking the counts,
identical ones (up to the names of functions already merged) one body; small constants, which
decide LLVM's unrolling and vector loops, stay constants."""
import re

import numpy as np
import pytest
from llvmlite import binding as llvm
from llvmlite import ir

import aot
from aot.driver import Compilation, Options
from lowering.codegen.llvm import gen, merge
from lowering.codegen.llvm.machine import target_machine

I64, VOID, PTR = ir.IntType(64), ir.VoidType(), ir.PointerType()

# Four row sums: rows of 96 and 160 (large: one function), of 4 and 8 (small: two)
SUMS = """func.func @main(%x: tensor<?x96xf32>, %y: tensor<?x160xf32>, %z: tensor<?x4xf32>,
                 %u: tensor<?x8xf32>) -> (tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>) {
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %a = stablehlo.reduce(%x init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<?x96xf32>, tensor<f32>) -> tensor<?xf32>
  %b = stablehlo.reduce(%y init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<?x160xf32>, tensor<f32>) -> tensor<?xf32>
  %c = stablehlo.reduce(%z init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<?x4xf32>, tensor<f32>) -> tensor<?xf32>
  %d = stablehlo.reduce(%u init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<?x8xf32>, tensor<f32>) -> tensor<?xf32>
  return %a, %b, %c, %d : tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>
}"""  # noqa: E501


@pytest.fixture
def small_functions(monkeypatch):
    """Every function is worth merging, however short."""
    monkeypatch.setattr(merge, "MIN_INSTRUCTIONS", 0)


def _loop(mod, name, bound: int, scale: int, callee=None):
    """`void name(ptr p)`: p[i] = i * scale for i < bound (and a call of `callee`)."""
    f = ir.Function(mod, ir.FunctionType(VOID, [PTR]), name)
    f.linkage = "internal"
    entry, head, body, done = (f.append_basic_block(n) for n in ("entry", "head", "body", "done"))
    b = ir.IRBuilder(entry)
    b.branch(head)
    b.position_at_end(head)
    i = b.phi(I64)
    i.add_incoming(ir.Constant(I64, 0), entry)
    b.cbranch(b.icmp_signed("<", i, ir.Constant(I64, bound)), body, done)
    b.position_at_end(body)
    b.store(b.mul(i, ir.Constant(I64, scale)), b.gep(f.args[0], [i], source_etype=I64))
    if callee is not None:
        b.call(callee, [f.args[0]])
    nxt = b.add(i, ir.Constant(I64, 1))
    i.add_incoming(nxt, body)
    b.branch(head)
    b.position_at_end(done)
    b.ret_void()
    return f


def _host(mod, callees):
    host = ir.Function(mod, ir.FunctionType(VOID, [PTR]), "host")
    b = ir.IRBuilder(host.append_basic_block("entry"))
    for f in callees:
        b.call(f, [host.args[0]])
    b.ret_void()


def _parses(mod):
    llvm.parse_assembly(str(mod)).verify()


def test_large_constants_become_parameters(small_functions):
    mod = ir.Module("m")
    fs = [_loop(mod, f"k{i}", bound, 3) for i, bound in enumerate((96, 160, 224))]
    _host(mod, fs)
    merged = merge.merge_functions(mod)
    assert merged == {"k0": "k0.merged", "k1": "k0.merged", "k2": "k0.merged"}
    text = str(mod)
    assert re.search(r'define internal void @"k0.merged"\(ptr %"\.1", i64 %"merged.k0"\)', text)
    assert re.search(r'icmp slt i64 %"\.\d+", %"merged.k0"', text)  # the bound, not the 3
    for name, bound in (("k0", 96), ("k1", 160), ("k2", 224)):
        assert f'tail call void @"k0.merged"(ptr %".1", i64 {bound})' in str(mod.globals[name])
    _parses(mod)


def test_small_constants_stay(small_functions):
    """Bounds of 4 and 8 (and scales 3 and 100 beside the same bound) are not merged."""
    mod = ir.Module("m")
    fs = [_loop(mod, "k0", 4, 3), _loop(mod, "k1", 8, 3), _loop(mod, "k2", 96, 3),
          _loop(mod, "k3", 96, 100)]
    _host(mod, fs)
    assert merge.merge_functions(mod) == {}
    _parses(mod)


def test_identical_functions_merge_in_rounds(small_functions):
    """Two callees identical but for their names merge first, and then their callers, which
    differed only in which of them they called; the host calls the survivors."""
    mod = ir.Module("m")
    e0, e1 = _loop(mod, "k0.epilogue1", 16, 3), _loop(mod, "k1.epilogue2", 16, 3)
    k0, k1 = _loop(mod, "k0", 32, 5, e0), _loop(mod, "k1", 32, 5, e1)
    _host(mod, [k0, k1])
    assert merge.merge_functions(mod) == {"k1.epilogue2": "k0.epilogue1", "k1": "k0"}
    assert "k1" not in mod.globals and "k1.epilogue2" not in mod.globals
    assert str(mod.globals["host"]).count('call void @"k0"(') == 2
    _parses(mod)


def test_a_function_named_in_a_global_is_left(small_functions):
    mod = ir.Module("m")
    fs = [_loop(mod, "k0", 16, 3), _loop(mod, "k1", 16, 3)]
    _host(mod, fs)
    table = ir.GlobalVariable(mod, ir.ArrayType(PTR, 1), "table")
    table.initializer = ir.Constant(ir.ArrayType(PTR, 1), [fs[1]])
    assert merge.merge_functions(mod) == {}


def test_merged_kernels_compute_the_same(small_functions, tmp_path):
    comp = Compilation(SUMS, "sums.mlir", Options(name="sums"))
    tm = target_machine(comp.target)
    texts, _, _ = gen.generate_parts(comp.loops(), "sums", tm, comp.target, 1)
    merged = re.findall(r'^define [^@]*@"(sums\.[^"]+\.merged)"', texts[0], re.M)
    assert len(merged) == 1, merged  # the 96 and 160 rows; the 4 and 8 rows kept apart
    assert len(re.findall(rf'call void @"{re.escape(merged[0])}"', texts[0])) == 2
    lib = aot.compile(SUMS, name="sums", output_dir=str(tmp_path))
    rng = np.random.default_rng(0)
    for n in (1, 3, 70):
        args = [rng.standard_normal((n, k)).astype(np.float32) for k in (96, 160, 4, 8)]
        for got, x in zip(lib.main(*args), args):
            np.testing.assert_allclose(got, x.sum(axis=1), rtol=1e-5, atol=1e-5)
