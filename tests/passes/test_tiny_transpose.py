"""A kLoop fusion whose transpose reads a tiny output dim (static, 2-8 elements) along its
operand's last dim walks that dim innermost (loops.element_order): [N/2, 2] -> [2, N/2]
reads its input once, in memory order, instead of once per output row. The outer loop is
then over another output dim, which the call names for the host (`aot.parallel_dim`), and a
nest whose stores hold the collapsed ivs at other positions still splits as one space
(collapse.collapsed_loops). Such a kernel's task passes static dims as constants, as its
launcher does, so LLVM knows the strides. Checked on the loop-stage IR and the LLVM IR,
and against numpy with the same bits on 1, 2 and 7 threads."""
import re

import numpy as np
import pytest

import aot
from aot.driver import Compilation, Options
from codegen.test_row_split import run_threads
from lowering.codegen.llvm.collapse import collapsed_loops
from lowering.frontend.parser import parse_module
from lowering.passes.loops import TINY_TRANSPOSED_DIM
from lowering.passes.pipeline import run_pipeline
from lowering.target import host_target


def t(shape) -> str:
    return "tensor<" + "".join(f"{d}x" for d in shape) + "f32>"


def transposed(out_shape, perm, add: bool = False) -> str:
    """-transpose(x) to `out_shape` by `perm` (plus a second argument of the output's shape
    and layout with `add`)."""
    src = [0] * len(perm)
    for d, p in enumerate(perm):
        src[p] = out_shape[d]
    args = f"%x: {t(src)}" + (f", %y: {t(out_shape)}" if add else "")
    lines = [f"%p = stablehlo.transpose %x, dims = {list(perm)} : ({t(src)}) -> {t(out_shape)}",
             f"%r = stablehlo.negate %p : {t(out_shape)}"]
    if add:
        lines.append(f"%r2 = stablehlo.add %r, %y : {t(out_shape)}")
    body = "\n  ".join(lines)
    return (f"func.func @main({args}) -> {t(out_shape)} {{\n  {body}\n"
            f"  return %{'r2' if add else 'r'} : {t(out_shape)}\n}}")


def loop_module(text: str):
    return run_pipeline(parse_module(text, "t.mlir"), "loops")


def nest(kernel) -> list:
    """The extents of the kernel's perfect loop nest, outermost first."""
    extents, ops = [], kernel.regions[0].blocks[0].ops
    while True:
        loop = next((o for o in ops if o.name == "scf.for"), None)
        if loop is None:
            return extents
        extents.append(loop.operands[1].owner.attrs["value"])
        ops = loop.regions[0].blocks[0].ops


def only_kernel(module):
    (kernel,) = [f for f in module.functions() if "aot.kernel" in f.attrs]
    return kernel


def test_a_tiny_transposed_dim_is_walked_innermost():
    module = loop_module(transposed((2, 40000), (1, 0)))
    assert nest(only_kernel(module)) == [40000, 2]
    (call,) = [o for f in module.functions() for o in f.walk() if o.name == "func.call"]
    assert call.attrs["aot.parallel_dim"] == 1
    # [1, 4, M]: the 1 and M loops split as one space, though the stores hold M's iv last
    kernel = only_kernel(loop_module(transposed((1, 4, 20000), (0, 2, 1))))
    assert nest(kernel) == [1, 20000, 4]
    assert len(collapsed_loops(kernel, host_target())) == 2


@pytest.mark.parametrize("out_shape, perm", [
    ((TINY_TRANSPOSED_DIM + 1, 5000), (1, 0)),  # not tiny
    ((1, 80000), (1, 0)),  # a dim of one: already read in order
    ((5000, 4), (1, 0)),  # the last dim is the tiny one, read strided either way
    ((2, 3, 4000), (1, 0, 2)),  # the operand's last dim is the output's last: no transposed read
])
def test_other_transposes_keep_the_outputs_order(out_shape, perm):
    # (of x * x: of x alone, the first would be codegen/cpu/transpose.py's tiles)
    text = transposed(out_shape, perm).replace(
        "%p = stablehlo.transpose %x,", "%xx = stablehlo.multiply %x, %x : "
        f"{t([out_shape[perm.index(d)] for d in range(len(perm))])}\n"
        "  %p = stablehlo.transpose %xx,")
    kernel = only_kernel(loop_module(text))
    assert nest(kernel) == list(out_shape)


def task_call(text: str) -> str:
    comp = Compilation(text, "t.mlir", Options(name="tt", emit="llvm"))
    task = re.search(r'^define [^\n]*@"?tt\.main_kernel_0\.task"?\(.*?^}', comp.llvm()[1],
                     re.M | re.S).group(0)
    return next(line for line in task.splitlines() if "call" in line and "main_kernel_0" in line)


def test_a_task_passes_static_dims_as_constants():
    call = task_call(transposed((2, 40000), (1, 0)))
    assert "i64 40000" in call and "i64 2" in call, call


def test_other_tasks_read_their_dims_from_the_slots():
    """Only a reordered kernel gets constants: in every kernel they let LLVM specialise and
    unroll them all (MobileNetV2's compile 7.8 -> 59 CPU seconds)."""
    call = task_call(transposed((8, 40000), (0, 1)))
    assert "i64 40000" not in call and "i64 8" not in call, call


@pytest.mark.parametrize("out_shape, perm, add", [
    ((2, 40001), (1, 0), False), ((2, 17), (1, 0), False), ((3, 1), (1, 0), False),
    ((8, 9001), (1, 0), True), ((1, 4, 20001), (0, 2, 1), False), ((3, 2, 7001), (2, 0, 1), True),
    ((5, 3, 2, 5003), (0, 1, 3, 2), False),
])
def test_tiny_transposes_match_numpy(out_shape, perm, add):
    text = transposed(out_shape, perm, add)
    lib = aot.compile(text, name="tiny_transpose")
    rng = np.random.default_rng(3)
    src = [0] * len(perm)
    for d, p in enumerate(perm):
        src[p] = out_shape[d]
    x = rng.standard_normal(src).astype(np.float32)
    args = [x] + ([rng.standard_normal(out_shape).astype(np.float32)] if add else [])
    want = -np.transpose(x, perm) + (args[1] if add else 0)
    np.testing.assert_array_equal(run_threads(lib, *args), want.astype(np.float32))
