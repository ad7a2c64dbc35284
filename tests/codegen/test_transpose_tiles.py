"""A kLoop fusion h(transpose(x)) whose transpose moves x's last dim (h: fused elementwise
producers and consumers of one tensor operand) becomes `aot.transpose` with h as its region
(codegen/cpu/transpose.py's rule for loops.emit_fusion), which the CPU emits as VEC x VEC
register tiles, h applied in place after them: checked on the loop-stage IR and the LLVM IR, and against numpy
bit for bit on 1, 2 and 7 threads, static and with `?` dims, with edges that are not whole
tiles, for each element width; what it does not take stays on the element loop."""
import re

import ml_dtypes
import numpy as np
import pytest

import aot
from aot.driver import Compilation, Options
from codegen.test_row_split import run_threads
from lowering.frontend.parser import parse_module
from lowering.passes.pipeline import run_pipeline

DTYPES = {"f32": np.float32, "f64": np.float64, "bf16": ml_dtypes.bfloat16, "i8": np.int8,
          "i16": np.int16, "i1": np.bool_, "i64": np.int64}


def t(shape, elem="f32") -> str:
    return "tensor<" + "".join(f"{d}x" for d in shape) + f"{elem}>"


def program(shape, perm, elem="f32", dynamic=(), negate=False) -> str:
    """transpose(x, perm) of an x of `shape` whose dims in `dynamic` are `?` (negated after)."""
    src = tuple("?" if d in dynamic else n for d, n in enumerate(shape))
    out = tuple(src[p] for p in perm)
    lines = [f"%y = stablehlo.transpose %x, dims = {list(perm)} : ({t(src, elem)}) -> "
             f"{t(out, elem)}"]
    if negate:
        lines.append(f"%r = stablehlo.negate %y : {t(out, elem)}")
    body = "\n  ".join(lines)
    return (f"func.func @main(%x: {t(src, elem)}) -> {t(out, elem)} {{\n  {body}\n"
            f"  return %{'r' if negate else 'y'} : {t(out, elem)}\n}}")


def loop_ops(text: str) -> list:
    module = run_pipeline(parse_module(text, "t.mlir"), "loops")
    return [o.name for f in module.functions() if "aot.kernel" in f.attrs for o in f.walk()]


def sample(shape, elem, seed=0):
    rng = np.random.default_rng(seed)
    if elem == "i1":
        return rng.integers(0, 2, shape).astype(np.bool_)
    if elem.startswith("i"):
        return rng.integers(-100, 100, shape).astype(DTYPES[elem])
    return rng.standard_normal(shape).astype(DTYPES[elem])


@pytest.mark.parametrize("shape, perm", [((32, 64, 8, 8), (0, 2, 3, 1)),
                                         ((40, 24), (1, 0)), ((2, 9, 16, 12), (0, 3, 1, 2))])
def test_a_transpose_of_the_last_dim_is_tiled(shape, perm):
    for dynamic in ((), (0,)):
        ops = loop_ops(program(shape, perm, dynamic=dynamic))
        assert "aot.transpose" in ops and "scf.for" not in ops, ops
    comp = Compilation(program(shape, perm), "t.mlir", Options(name="tt", emit="llvm"))
    text = comp.llvm()[1]
    task = re.search(r'^define [^\n]*\.transpose"?\(.*?^}', text, re.M | re.S)
    assert task is not None and "shufflevector" in task.group(0)
    kernel = re.search(r'^define [^\n]*main_kernel_0"?\(.*?^}', text, re.M | re.S).group(0)
    assert "aot_parallel_for" in kernel  # the tasks on the thread pool (when big enough)


@pytest.mark.parametrize("text", [
    program((32, 64, 8, 8), (0, 2, 1, 3)),  # the last dim stays last
    program((4096, 3), (1, 0)),  # the input's last dim narrower than a tile (element_order's)
    program((3, 4096), (1, 0)),  # the output's
    program((64, 64), (1, 0), elem="complex<f32>"),  # an element the tiles do not move
    program((64, 64), (1, 0), negate=True).replace(  # a second tensor input
        "%r = stablehlo.negate %y", "%r = stablehlo.add %y, %y2").replace(
        "%x: tensor<64x64xf32>", "%x: tensor<64x64xf32>, %y2: tensor<64x64xf32>"),
    program((64, 64), (1, 0), elem="f64", negate=True).replace(  # another element type in x
        "%x: tensor<64x64xf64>", "%x: tensor<64x64xf32>").replace(
        "%y = stablehlo.transpose %x", "%xc = stablehlo.convert %x : (tensor<64x64xf32>) -> "
        "tensor<64x64xf64>\n  %y = stablehlo.transpose %xc").replace(
        "(tensor<64x64xf64>) -> tensor<64x64xf64>\n  %r", "(tensor<64x64xf64>) -> "
        "tensor<64x64xf64>\n  %r"),
])
def test_other_transposes_keep_the_element_loop(text):
    ops = loop_ops(text)
    assert "aot.transpose" not in ops and "scf.for" in ops, ops


@pytest.mark.parametrize("shape, perm, dynamic", [
    ((19, 21), (1, 0), ()), ((8, 8), (1, 0), ()), ((3, 19, 21), (0, 2, 1), (0, 1, 2)),
    ((5, 9, 11, 13), (0, 2, 3, 1), (0,)), ((5, 13, 9, 11), (0, 3, 1, 2), (0, 3)),
    ((3, 17, 5, 12), (3, 0, 2, 1), ()), ((2, 3, 10, 9), (1, 3, 0, 2), (1, 2)),
    ((1, 300, 261), (0, 2, 1), ()), ((1, 261, 300), (0, 2, 1), (0, 1, 2)),  # threads
    ((700, 520), (1, 0), ()),  # L past a chunk (loops over L_CHUNK positions)
])
def test_tiled_transposes_match_numpy(shape, perm, dynamic):
    lib = aot.compile(program(shape, perm, dynamic=dynamic), name="tiled_transpose")
    x = sample(shape, "f32")
    np.testing.assert_array_equal(run_threads(lib, x), np.transpose(x, perm))


@pytest.mark.parametrize("elem", ["f64", "bf16", "i8", "i16", "i1", "i64"])
def test_every_element_width_matches_numpy(elem):
    shape, perm = (3, 37, 2, 45), (0, 3, 2, 1)
    for dynamic in ((), (0, 3)):
        text = program(shape, perm, elem=elem, dynamic=dynamic)
        assert "aot.transpose" in loop_ops(text)
        lib = aot.compile(text, name=f"tiled_transpose_{elem}")
        x = sample(shape, elem, seed=1)
        got = run_threads(lib, x)
        assert got.dtype == x.dtype
        np.testing.assert_array_equal(got, np.transpose(x, perm))


def test_run_time_dims_of_zero_and_below_a_tile():
    lib = aot.compile(program((4, 20, 30), (0, 2, 1), dynamic=(0, 1, 2)), name="tiled_small")
    for shape in ((0, 5, 7), (2, 0, 9), (2, 3, 0), (1, 1, 1), (2, 7, 3), (3, 9, 8)):
        x = sample(shape, "f32", seed=2)
        np.testing.assert_array_equal(run_threads(lib, x), np.transpose(x, (0, 2, 1)))


CHAIN = """func.func @main(%x: tensor<{s}xf32>) -> tensor<{o}xf32> {{
  %c = stablehlo.constant dense<0.5> : tensor<f32>
  %h = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<f32>) -> tensor<{s}xf32>
  %a = stablehlo.multiply %x, %h : tensor<{s}xf32>
  %y = stablehlo.transpose %a, dims = [0, 2, 1] : (tensor<{s}xf32>) -> tensor<{o}xf32>
  %r = stablehlo.exponential %y : tensor<{o}xf32>
  %n = stablehlo.negate %r : tensor<{o}xf32>
  return %n : tensor<{o}xf32>
}}"""


@pytest.mark.parametrize("shape", [(3, 19, 21), (1, 300, 261)])
def test_fused_producers_and_consumers_run_on_the_tiles(shape):
    o = (shape[0], shape[2], shape[1])
    text = CHAIN.format(s="x".join(map(str, shape)), o="x".join(map(str, o)))
    ops = loop_ops(text)
    assert "aot.transpose" in ops and "scf.for" not in ops and "arith.mulf" in ops, ops
    lib = aot.compile(text, name="tiled_chain")
    x = sample(shape, "f32", seed=4)
    want = -np.exp(np.transpose(x * np.float32(0.5), (0, 2, 1)))
    np.testing.assert_allclose(run_threads(lib, x), want, rtol=2e-6)


def test_a_negated_transpose_with_run_time_dims_matches_numpy():
    """shape_split.py's transpose: -transpose(x), every dim `?`."""
    lib = aot.compile(program((6, 40, 33), (0, 2, 1), dynamic=(0, 1, 2), negate=True),
                      name="tiled_negate")
    for shape in ((6, 40, 33), (1, 9, 700), (2, 3, 5)):
        x = sample(shape, "f32", seed=5)
        np.testing.assert_array_equal(run_threads(lib, x), -np.transpose(x, (0, 2, 1)))


@pytest.mark.parametrize("elem", ["bf16", "i8", "i1"])
def test_a_fused_consumer_of_every_width_matches_numpy(elem):
    text = program((3, 37, 45), (0, 2, 1), elem=elem, dynamic=(0,), negate=elem != "i1")
    if elem == "i1":
        text = text.replace("return %y", "%r = stablehlo.not %y : tensor<?x45x37xi1>\n  return %r")
    assert "aot.transpose" in loop_ops(text)
    lib = aot.compile(text, name=f"tiled_chain_{elem}")
    x = sample((3, 37, 45), elem, seed=6)
    want = np.transpose(x, (0, 2, 1))
    np.testing.assert_array_equal(run_threads(lib, x), ~want if elem == "i1" else -want)
