"""The CPU's host code as LLVM sees it (codegen/cpu/host.py, codegen/host/entry_abi.py): the
entry and its shape query are left unoptimised (optnone: they are calls and a little integer
arithmetic, and one long function that O3 spent most of a big program's compile on), and a
kernel is called through one `K.launch` per kernel, which times it when profiling and
chooses between the thread pool and this thread, so the host holds one call per kernel
call. Checked on the printed LLVM IR, and against numpy on kernels run both ways."""
import re

import numpy as np

import aot
from aot.driver import Compilation, Options

# two identical layers over a `?` batch (a dot, then a reduction's row sums subtracted and
# tanh): the kernels of the second are the first's (gen.identical_kernels)
LAYER = """  %d{i} = stablehlo.dot_general %x{i}, %w, contracting_dims = [1] x [0] : (tensor<?x64xf32>, tensor<64x64xf32>) -> tensor<?x64xf32>
  %s{i} = stablehlo.reduce(%d{i} init: %z) applies stablehlo.add across dimensions = [1] : (tensor<?x64xf32>, tensor<f32>) -> tensor<?xf32>
  %b{i} = stablehlo.broadcast_in_dim %s{i}, dims = [0] : (tensor<?xf32>) -> tensor<?x64xf32>
  %c{i} = stablehlo.subtract %d{i}, %b{i} : tensor<?x64xf32>
  %x{j} = stablehlo.tanh %c{i} : tensor<?x64xf32>
"""  # noqa: E501
TWO_LAYERS = ("func.func @main(%x0: tensor<?x64xf32>, %w: tensor<64x64xf32>) -> tensor<?x64xf32> {\n"
              "  %z = stablehlo.constant dense<0.0> : tensor<f32>\n"
              + LAYER.format(i=0, j=1) + LAYER.format(i=1, j=2)
              + "  return %x2 : tensor<?x64xf32>\n}")


def llvm_text() -> str:
    """The module's LLVM IR as generated (before LLVM's passes)."""
    comp = Compilation(TWO_LAYERS, "two.mlir", Options(name="two", emit="llvm"))
    return comp.llvm()[1]


def function(text: str, name: str) -> str:
    match = re.search(r'^define [^\n]*@"?' + re.escape(name) + r'"?\(.*?^}', text, re.M | re.S)
    assert match, f"no function {name}"
    return match.group(0)


def test_entry_and_query_are_left_unoptimised():
    text = llvm_text()
    for name in ("two_main",):
        head = function(text, name).splitlines()[0]
        assert "optnone" in head and "noinline" in head, head
    kernels = re.findall(r'^define internal [^\n]*@"two\.main_kernel_\d+"\(.*$', text, re.M)
    assert kernels and not any("optnone" in k for k in kernels)


def test_kernels_are_called_through_one_launcher_each():
    text = llvm_text()
    host = function(text, "two_main")
    for callee in ("aot_parallel_for", "aot__profile_now"):  # the launchers' business
        assert callee not in host
    assert not re.search(r'call void @"two\.main_kernel_\d+"\(', host)  # not called directly
    launched = re.findall(r'call void @"(two\.main_kernel_\d+\.launch\d*)"\(ptr @"\.str', host)
    assert len(set(launched)) < len(launched), launched  # the second layer calls the first's
    parallel = [name for name in set(launched) if '@"aot_parallel_for"' in function(text, name)]
    assert parallel, launched
    for name in parallel:
        launcher, kernel = function(text, name), name.rsplit(".", 1)[0]
        assert f'@"{kernel}.task"' in launcher and "aot__profile_add" in launcher
        assert re.search(rf'call void @"{re.escape(kernel)}"\(', launcher)  # or on this thread


def test_launched_kernels_match_numpy_both_ways():
    """Batch 1 runs on this thread, batch 1024 (64K elements) over the pool."""
    lib = aot.compile(TWO_LAYERS, name="host_code_two")
    lib.set_num_threads(2)
    w = np.random.default_rng(0).standard_normal((64, 64)).astype(np.float32) * 0.1
    for batch in (1, 1024):
        x = np.random.default_rng(batch).standard_normal((batch, 64)).astype(np.float32)
        want = x.astype(np.float64)
        for _ in range(2):
            d = want @ w.astype(np.float64)
            want = np.tanh(d - d.sum(axis=1, keepdims=True))
        np.testing.assert_allclose(lib.main(x, w), want, rtol=1e-4, atol=1e-4)  # f32 row sums of 64


def layers(n: int) -> str:
    return ("func.func @main(%x0: tensor<?x64xf32>, %w: tensor<64x64xf32>) -> tensor<?x64xf32> {\n"
            "  %z = stablehlo.constant dense<0.0> : tensor<f32>\n"
            + "".join(LAYER.format(i=i, j=i + 1) for i in range(n))
            + f"  return %x{n} : tensor<?x64xf32>\n}}")


def test_a_long_host_is_a_partition_of_its_own():
    """The host (thousands of instructions) alone in the first partition, which the driver
    makes at -O0 (machine.compile_objects' host_tm); the kernels in the others."""
    from llvmlite import ir

    from lowering.codegen.llvm.gen import LLVMGen
    from lowering.codegen.llvm.partition import HOST_ALONE_MIN_WORK, split, work
    comp = Compilation(layers(40), "long.mlir", Options(name="long", emit="shared"))
    mod = LLVMGen(comp.loops(), "long", comp.target).run()
    host = [f for f in mod.globals.values() if isinstance(f, ir.Function) and f.blocks
            and f.linkage not in ("internal", "private")]
    assert sum(map(work, host)) >= HOST_ALONE_MIN_WORK
    texts, hidden = split(mod, 3, host_alone=True)
    assert len(texts) == 3
    assert not re.search(r"^define (internal|hidden)", texts[0], re.M)  # the host alone
    assert re.search(r'^define i32 @"long_main"\(.*optnone', texts[0], re.M)
    called = set(re.findall(r'call void @"(long\.main_kernel_\d+\.launch\d*)"', texts[0]))
    assert called and called <= set(hidden)  # defined elsewhere, hidden, joined at link
    for text in texts[1:]:
        assert not re.search(r'^define i32 @"long_main"', text, re.M)


def test_a_long_host_at_o0_matches_numpy():
    lib = aot.compile(layers(40), name="host_code_long")
    w = np.random.default_rng(0).standard_normal((64, 64)).astype(np.float32) * 0.1
    x = np.random.default_rng(1).standard_normal((3, 64)).astype(np.float32)
    want = x.astype(np.float64)
    for _ in range(40):
        d = want @ w.astype(np.float64)
        want = np.tanh(d - d.sum(axis=1, keepdims=True))
    np.testing.assert_allclose(lib.main(x, w), want, rtol=1e-3, atol=1e-4)
