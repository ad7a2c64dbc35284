"""Consecutive reduced dims walked as one loop (loops.reduced_runs): an SE block's mean over
[H, W] of NCHW is one loop of H*W iterations over contiguous elements, which LLVM vectorises
(as a nest of 32-long loops it ran one serial add at a time). Checked: the loops text (one
reduction loop, its bound H*W), and numbers against numpy for sums over trailing, middle,
all and non-consecutive dims, a `?` batch, operands computed elementwise from buffers and
from a scalar, and the cases kept as nests (a broadcast operand, a reversed dim order)."""
import numpy as np
import pytest

import aot
from lowering.frontend.parser import parse_module
from lowering.frontend.printer import print_module
from lowering.passes.pipeline import run_pipeline


def t(shape) -> str:
    return "tensor<" + "".join(f"{d}x" for d in shape) + "f32>"


def program(shape, dims, body: str = "plain") -> str:
    """sum over dims of x (plain), of exp(x) * y + 2 (elementwise), or of x + v broadcast
    along the last dim (broadcast)."""
    out = tuple(n for i, n in enumerate(shape) if i not in dims)
    s = t(shape)
    lines = ["%z = stablehlo.constant dense<0.0> : tensor<f32>"]
    args = f"%x: {s}"
    operand = "%x"
    if body == "elementwise":
        args += f", %y: {s}"
        lines += [f"%e = stablehlo.exponential %x : {s}", f"%m = stablehlo.multiply %e, %y : {s}",
                  "%two = stablehlo.constant dense<2.0> : tensor<f32>",
                  f"%tb = stablehlo.broadcast_in_dim %two, dims = [] : (tensor<f32>) -> {s}",
                  f"%a = stablehlo.add %m, %tb : {s}"]
        operand = "%a"
    elif body == "broadcast":
        n = shape[-1]
        args += f", %v: tensor<{n}xf32>"
        lines += [f"%vb = stablehlo.broadcast_in_dim %v, dims = [{len(shape) - 1}] : "
                  f"(tensor<{n}xf32>) -> {s}", f"%a = stablehlo.add %x, %vb : {s}"]
        operand = "%a"
    lines.append(f"%r = stablehlo.reduce({operand} init: %z) applies stablehlo.add across "
                 f"dimensions = {list(dims)} : ({s}, tensor<f32>) -> {t(out)}")
    body_text = "\n  ".join(lines)
    return f"func.func @main({args}) -> {t(out)} {{\n  {body_text}\n  return %r : {t(out)}\n}}"


def reduction_loops(text: str) -> list:
    """The kernel's scf.for loops that carry an accumulator (their closing lines, and the
    constant each one's bound is)."""
    loops = print_module(run_pipeline(parse_module(text, "test.mlir"), "loops"))
    kernel = loops[loops.index("aot.kernel"):].splitlines()
    return [line for line in kernel if line.strip().startswith("})")
            and "index, index, index, f32) -> f32" in line]


def bound_of_reduction(text: str) -> str:
    """The name of the upper bound of the outermost accumulating loop."""
    loops = print_module(run_pipeline(parse_module(text, "test.mlir"), "loops"))
    kernel = loops[loops.index("aot.kernel"):].splitlines()
    line = next(line for line in kernel if '"scf.for"' in line and line.count(",") == 3)
    bound = line.split("(")[1].split(",")[1].strip()
    return next(li for li in kernel if li.strip().startswith(bound + " = "))


def test_mean_over_h_w_is_one_loop():
    """[?, 96, 32, 32] summed over [2, 3]: one loop to 1024, not two to 32."""
    lines = reduction_loops(program(("?", 96, 32, 32), (2, 3)))
    assert len(lines) == 1, lines
    assert "value = 1024 " in bound_of_reduction(program(("?", 96, 32, 32), (2, 3)))


@pytest.mark.parametrize("body", ["broadcast"])
def test_operand_read_other_than_row_major_keeps_the_nest(body):
    """x + v[w]: v is not of x's shape, so [h, w] stay two loops."""
    assert len(reduction_loops(program((4, 6, 5), (1, 2), body))) == 2


def test_reversed_dim_order_keeps_the_nest():
    assert len(reduction_loops(program((4, 6, 5), (2, 1)))) == 2


CASES = [  # (shape the program has, shapes run, dims, body)
    ((3, 5, 32, 32), [(3, 5, 32, 32)], (2, 3), "plain"),
    (("?", 7, 9, 11), [(2, 7, 9, 11), (1, 7, 9, 11), (0, 7, 9, 11)], (2, 3), "plain"),
    ((4, 6, 5, 3), [(4, 6, 5, 3)], (1, 2), "plain"),
    ((4, 6, 5, 3), [(4, 6, 5, 3)], (0, 1, 2, 3), "plain"),
    ((4, 6, 5, 3), [(4, 6, 5, 3)], (0, 2, 3), "plain"),
    ((4, 6, 5, 3), [(4, 6, 5, 3)], (0, 2), "plain"),
    ((4, 6, 5, 3), [(4, 6, 5, 3)], (3, 2), "plain"),
    ((3, 6, 7, 8), [(3, 6, 7, 8)], (1, 2, 3), "elementwise"),
    ((4, 6, 5, 8), [(4, 6, 5, 8)], (2, 3), "broadcast"),
]


@pytest.mark.parametrize("shape, runs, dims, body", CASES)
def test_numbers(shape, runs, dims, body):
    name = "reduce_runs_" + "_".join(str(v) for v in (*shape, *dims, body)).replace("?", "q")
    lib = aot.compile(program(shape, dims, body), name=name)
    rng = np.random.default_rng(0)
    for run in runs:
        x = rng.standard_normal(run, dtype=np.float32)
        args = [x]
        a = x.astype(np.float64)
        if body == "elementwise":
            y = rng.standard_normal(run, dtype=np.float32)
            args.append(y)
            a = np.exp(a) * y + 2
        elif body == "broadcast":
            v = rng.standard_normal(run[-1], dtype=np.float32)
            args.append(v)
            a = a + v
        want = a.sum(axis=tuple(sorted(dims)))
        got = np.asarray(lib.main(*args))
        assert got.shape == want.shape
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-4)
