"""A kLoop fusion h(transpose(g(x)), ...) whose transpose moves x's last dim (g: elementwise
producers of x with broadcasts or constants beside; h: elementwise consumers of anything)
becomes `aot.transpose` with g and h as its region (codegen/cpu/transpose.py's rule for
loops.emit_fusion), which the CPU emits as VEC x VEC register tiles of x, the region applied
in place after them: checked on the loop-stage IR and the LLVM IR, and against numpy
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


def loop_ops(text: str, nested: bool = True) -> list:
    """The kernels' ops (without `nested`: only those of their bodies, not in loops)."""
    module = run_pipeline(parse_module(text, "t.mlir"), "loops")
    kernels = [f for f in module.functions() if "aot.kernel" in f.attrs]
    if not nested:
        return [o.name for f in kernels for o in f.regions[0].blocks[0].ops]
    return [o.name for f in kernels for o in f.walk()]


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
    program((64, 64), (1, 0)).replace(  # x mixed with another tensor before the transpose
        "%y = stablehlo.transpose %x", "%s = stablehlo.add %x, %x2 : tensor<64x64xf32>\n"
        "  %y = stablehlo.transpose %s").replace(
        "%x: tensor<64x64xf32>", "%x: tensor<64x64xf32>, %x2: tensor<64x64xf32>"),
    program((64, 64), (1, 0)).replace(  # x read twice
        "%y = stablehlo.transpose %x", "%s = stablehlo.multiply %x, %x : tensor<64x64xf32>\n"
        "  %y = stablehlo.transpose %s"),
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
    ops = loop_ops(text, nested=False)
    assert "aot.transpose" in ops and "scf.for" not in ops, ops
    assert "arith.mulf" in loop_ops(text)  # in its region
    lib = aot.compile(text, name="tiled_chain")
    x = sample(shape, "f32", seed=4)
    want = -np.exp(np.transpose(x * np.float32(0.5), (0, 2, 1)))
    np.testing.assert_allclose(run_threads(lib, x), want, rtol=2e-6)


def test_a_negated_transpose_with_run_time_dims_matches_numpy():
    """shape_split.py's transpose: -transpose(x), every dim `?`: a region whose rows may be
    1 long (a `?` last dim) keeps the element loop."""
    text = program((6, 40, 33), (0, 2, 1), dynamic=(0, 1, 2), negate=True)
    assert "aot.transpose" not in loop_ops(text)
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


LAYER_NORM_OUT = """func.func @main(%x: tensor<?x{h}x{w}x{c}xf32>, %m: tensor<?x{h}x{w}xf32>,
                 %s: tensor<{c}xf32>, %y: tensor<?x{c}x{h}x{w}xf32>) -> tensor<?x{c}x{h}x{w}xf32> {{
  %sh = stablehlo.get_dimension_size %x, dim = 0 : (tensor<?x{h}x{w}x{c}xf32>) -> tensor<i32>
  %sr = stablehlo.reshape %sh : (tensor<i32>) -> tensor<1xi32>
  %k = stablehlo.constant dense<[{h}, {w}, {c}]> : tensor<3xi32>
  %shape = stablehlo.concatenate %sr, %k, dim = 0 : (tensor<1xi32>, tensor<3xi32>) -> tensor<4xi32>
  %mb = stablehlo.dynamic_broadcast_in_dim %m, %shape, dims = [0, 1, 2] : (tensor<?x{h}x{w}xf32>, tensor<4xi32>) -> tensor<?x{h}x{w}x{c}xf32>
  %sb = stablehlo.dynamic_broadcast_in_dim %s, %shape, dims = [3] : (tensor<{c}xf32>, tensor<4xi32>) -> tensor<?x{h}x{w}x{c}xf32>
  %a = stablehlo.subtract %x, %mb : tensor<?x{h}x{w}x{c}xf32>
  %b = stablehlo.multiply %a, %sb : tensor<?x{h}x{w}x{c}xf32>
  %t = stablehlo.transpose %b, dims = [0, 3, 1, 2] : (tensor<?x{h}x{w}x{c}xf32>) -> tensor<?x{c}x{h}x{w}xf32>
  %r = stablehlo.add %t, %y : tensor<?x{c}x{h}x{w}xf32>
  return %r : tensor<?x{c}x{h}x{w}xf32>
}}"""  # noqa: E501


@pytest.mark.parametrize("n, h, w, c", [(2, 5, 9, 19), (1, 24, 24, 96), (3, 3, 8, 8)])
def test_producers_with_broadcasts_and_a_second_input(n, h, w, c):
    """ConvNeXt's layer norm back to NCHW: (x - mean) * scale over NHWC, transposed, plus a
    tensor of the result's shape: g reads broadcasts beside x, h another input."""
    text = LAYER_NORM_OUT.format(h=h, w=w, c=c)
    ops = loop_ops(text)
    assert "aot.transpose" in ops, ops
    lib = aot.compile(text, name="tiled_layer_norm_out")
    rng = np.random.default_rng(7)
    x, m = (rng.standard_normal(s).astype(np.float32) for s in ((n, h, w, c), (n, h, w)))
    s_, y = (rng.standard_normal(s).astype(np.float32) for s in ((c,), (n, c, h, w)))
    want = np.transpose((x - m[..., None]) * s_, (0, 3, 1, 2)) + y
    np.testing.assert_array_equal(run_threads(lib, x, m, s_, y), want)


@pytest.mark.parametrize("add", [False, True])
def test_a_broadcast_after_the_transpose_keeps_the_element_loop(add):
    """broadcast(transpose(w)) over a `?` batch (torch's expand of a transposed weight for a
    bmm, as the saved GPT case has it), then maybe an add: the broadcast writes elements the
    tiles would never move, so the fusion stays on the element loop. The tiles took it once
    and left every batch index but the first unwritten."""
    w, out = t((32, 32)), t(("?", 32, 32))
    lines = [f"%wt = stablehlo.transpose %w, dims = [1, 0] : ({w}) -> {w}",
             f"%b = stablehlo.dynamic_broadcast_in_dim %wt, %s, dims = [1, 2] : "
             f"({w}, tensor<3xi32>) -> {out}"]
    if add:
        lines.append(f"%r = stablehlo.add %b, %x : {out}")
    body = "\n  ".join(lines)
    text = (f"func.func @main(%w: {w}, %x: {out}) -> {out} {{\n"
            f"  %s0 = stablehlo.get_dimension_size %x, dim = 0 : ({out}) -> tensor<i32>\n"
            f"  %s1 = stablehlo.reshape %s0 : (tensor<i32>) -> tensor<1xi32>\n"
            f"  %c = stablehlo.constant dense<32> : tensor<2xi32>\n"
            f"  %s = stablehlo.concatenate %s1, %c, dim = 0 : (tensor<1xi32>, tensor<2xi32>) -> "
            f"tensor<3xi32>\n"
            f"  {body}\n  return %{'r' if add else 'b'} : {out}\n}}")
    assert "aot.transpose" not in loop_ops(text)
    lib = aot.compile(text, name=f"transpose_broadcast_{int(add)}")
    rng = np.random.default_rng(3)
    wv = rng.standard_normal((32, 32)).astype(np.float32)
    for n in (1, 3):
        x = rng.standard_normal((n, 32, 32)).astype(np.float32)
        want = np.broadcast_to(wv.T, (n, 32, 32)) + (x if add else 0)
        np.testing.assert_array_equal(lib.main(wv, x), want.astype(np.float32))
