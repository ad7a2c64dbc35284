"""A concatenation inside a kLoop kernel, under elementwise ops of its shape (DenseNet's scale,
shift and relu of each concatenation), read as a select chain over its operands: checked
against numpy along every dim, with few and many rows, a `?` batch, empty operands, read
transposed as well, and with many operands. (One loop nest per operand instead was measured
and not kept: benchmarks/results/2026-11-28-loops.md.) Where the operands are the kernel's
buffers and the concatenated dim is an outer one, the kernel selects the buffer and reads it
once (data_movement._one_buffer_read): its loops text and its numbers are checked too."""
import numpy as np
import pytest

import aot
from lowering.frontend.parser import parse_module
from lowering.frontend.printer import print_module
from lowering.passes.pipeline import run_pipeline


def program(a: str, b: str, c: str, dim: int, scale_dim: int, n: int) -> str:
    """relu(concatenate(x, -y) * s + t), s and t broadcast along dim scale_dim (n long)."""
    rank = c.count("x")
    shape = ", ".join(f"%d{i}" for i in range(rank))
    dyn = "?" in c
    sizes = []
    for i in range(rank):
        if dyn:  # the concatenated dim's size the sum of its operands' (read from %c, it
            # would be a buffer of its own)
            sizes.append(f"%s{i} = stablehlo.get_dimension_size %x, dim = {i} : ({a}) -> tensor<i32>")
            if i == dim:
                sizes += [f"%e{i} = stablehlo.get_dimension_size %y, dim = {i} : ({b}) -> tensor<i32>",
                          f"%u{i} = stablehlo.add %s{i}, %e{i} : tensor<i32>"]
            sizes.append(f"%d{i} = stablehlo.reshape %{'u' if i == dim else 's'}{i} : "
                         "(tensor<i32>) -> tensor<1xi32>")
    if dyn:
        parts = ", ".join(["tensor<1xi32>"] * rank)
        sizes.append(f"%sh = stablehlo.concatenate {shape}, dim = 0 : ({parts}) -> tensor<{rank}xi32>")

    def spread(v, ty, dims):
        if dyn:
            return (f"stablehlo.dynamic_broadcast_in_dim {v}, %sh, dims = {dims} : "
                    f"({ty}, tensor<{rank}xi32>) -> {c}")
        return f"stablehlo.broadcast_in_dim {v}, dims = {dims} : ({ty}) -> {c}"
    lines = [f"%ny = stablehlo.negate %y : {b}",
             f"%c = stablehlo.concatenate %x, %ny, dim = {dim} : ({a}, {b}) -> {c}", *sizes,
             "%z = stablehlo.constant dense<0.0> : tensor<f32>",
             f"%sb = {spread('%s', f'tensor<{n}xf32>', [scale_dim])}",
             f"%tb = {spread('%t', f'tensor<{n}xf32>', [scale_dim])}",
             f"%zb = {spread('%z', 'tensor<f32>', [])}",
             f"%m = stablehlo.multiply %c, %sb : {c}", f"%p = stablehlo.add %m, %tb : {c}",
             f"%r = stablehlo.maximum %p, %zb : {c}"]
    body = "\n  ".join(lines)
    return (f"func.func public @main(%x: {a}, %y: {b}, %s: tensor<{n}xf32>, %t: tensor<{n}xf32>)"
            f" -> {c} {{\n  {body}\n  return %r : {c}\n}}")


CASES = {  # name: (x, y, out, dim, the scale's dim, its length), then the shapes run
    "channels": ("tensor<?x5x7x6xf32>", "tensor<?x5x7x3xf32>", "tensor<?x5x7x9xf32>", 3, 3, 9,
                 [((b, 5, 7, 6), (b, 5, 7, 3)) for b in (1, 3, 0)]),
    "static_rows": ("tensor<40x6xf32>", "tensor<40x10xf32>", "tensor<40x16xf32>", 1, 1, 16,
                    [((40, 6), (40, 10))]),
    "few_rows_dim1": ("tensor<2x300x4xf32>", "tensor<2x100x4xf32>", "tensor<2x400x4xf32>", 1, 2,
                      4, [((2, 300, 4), (2, 100, 4))]),
    "dim0": ("tensor<?x6xf32>", "tensor<?x6xf32>", "tensor<?x6xf32>", 0, 1, 6,
             [((m, 6), (k, 6)) for m, k in ((3, 1500), (0, 2), (2, 0))]),
}


@pytest.mark.parametrize("name", CASES)
def test_against_numpy(name):
    a, b, c, dim, sdim, n, runs = CASES[name]
    lib = aot.compile(program(a, b, c, dim, sdim, n), name=f"concat_in_{name}")
    rng = np.random.default_rng(0)
    s, t = rng.standard_normal(n).astype(np.float32), rng.standard_normal(n).astype(np.float32)
    for xs, ys in runs:
        x, y = rng.standard_normal(xs).astype(np.float32), rng.standard_normal(ys).astype(np.float32)
        cat = np.concatenate([x, -y], axis=dim)
        shape = [1] * cat.ndim
        shape[sdim] = n
        want = np.maximum(cat * s.reshape(shape) + t.reshape(shape), 0)
        np.testing.assert_allclose(lib.main(x, y, s, t), want, rtol=1e-6, atol=1e-6)


# the concatenation also read transposed
TRANSPOSED = """
func.func public @main(%x: tensor<4x3xf32>, %y: tensor<4x1xf32>) -> tensor<4x4xf32> {
  %c = stablehlo.concatenate %x, %y, dim = 1 : (tensor<4x3xf32>, tensor<4x1xf32>) -> tensor<4x4xf32>
  %t = stablehlo.transpose %c, dims = [1, 0] : (tensor<4x4xf32>) -> tensor<4x4xf32>
  %r = stablehlo.add %c, %t : tensor<4x4xf32>
  return %r : tensor<4x4xf32>
}
"""


def test_a_concatenation_also_read_transposed():
    rng = np.random.default_rng(1)
    x, y = rng.standard_normal((4, 3)).astype(np.float32), rng.standard_normal((4, 1)).astype(np.float32)
    cat = np.concatenate([x, y], axis=1)
    np.testing.assert_allclose(aot.compile(TRANSPOSED, name="concat_transposed").main(x, y),
                               cat + cat.T, rtol=1e-6)


def many(n: int) -> str:
    """relu(concatenate of n [2, 3] operands along dim 1)."""
    ins = ", ".join(f"%x{i}: tensor<2x3xf32>" for i in range(n))
    out = f"tensor<2x{3 * n}xf32>"
    return (f"func.func public @main({ins}) -> {out} {{\n"
            f"  %c = stablehlo.concatenate {', '.join(f'%x{i}' for i in range(n))}, dim = 1 : "
            f"({', '.join(['tensor<2x3xf32>'] * n)}) -> {out}\n"
            f"  %z = stablehlo.constant dense<0.0> : tensor<f32>\n"
            f"  %zb = stablehlo.broadcast_in_dim %z, dims = [] : (tensor<f32>) -> {out}\n"
            f"  %r = stablehlo.maximum %c, %zb : {out}\n  return %r : {out}\n}}")


@pytest.mark.parametrize("n", [2, 5, 33])
def test_many_operands(n):
    xs = [np.random.default_rng(i).standard_normal((2, 3)).astype(np.float32) - 0.5
          for i in range(n)]
    got = aot.compile(many(n), name=f"concat_many_{n}").main(*xs)
    np.testing.assert_array_equal(got, np.maximum(np.concatenate(xs, axis=1), 0))


def dense_block(channels: list, dim: int = 1, dynamic_last: bool = False) -> str:
    """exp(concatenate of buffers [?, c, 4, 16] along `dim`): DenseNet's concatenation of the
    earlier layers' features; with `dynamic_last` the last operand's channels are `?`."""
    def ty(c):
        shape = ["?", str(c), "4", "16"]
        shape[dim] = "?" if dynamic_last and c == channels[-1] else shape[dim]
        return f"tensor<{'x'.join(shape)}xf32>"
    out = ["?", "4", "16"]
    out.insert(dim, "?" if dynamic_last else str(sum(channels)))
    if dim != 1:
        out[1] = str(channels[0])
    out = f"tensor<{'x'.join(out)}xf32>"
    types = [ty(c) for c in channels]
    names = [f"%x{i}" for i in range(len(channels))]
    return (f"func.func @main({', '.join(f'{n}: {t}' for n, t in zip(names, types))}) -> {out} {{\n"
            f"  %c = stablehlo.concatenate {', '.join(names)}, dim = {dim} : "
            f"({', '.join(types)}) -> {out}\n"
            f"  %e = stablehlo.exponential %c : {out}\n  return %e : {out}\n}}")


def kernel_loads(text: str) -> list:
    """The memref.load lines of the module's one kernel."""
    loops = print_module(run_pipeline(parse_module(text, "test.mlir"), "loops"))
    kernel = loops[loops.index("aot.kernel"):]
    return [line for line in kernel.splitlines() if "memref.load" in line]


def test_buffers_concatenated_along_an_outer_dim_are_read_once():
    """Four buffers along the channels: one load from a selected buffer, not four."""
    loads = kernel_loads(dense_block([8, 3, 5, 2]))
    assert len(loads) == 1 and "memref<?x?x4x16xf32>" in loads[0], loads


def test_along_the_innermost_dim_every_buffer_is_read():
    """Along the last dim the selection would change per element: the vector chain stays."""
    ins = [f"%x{i}: tensor<?x{c}xf32>" for i, c in enumerate((8, 3, 5))]
    text = (f"func.func @main({', '.join(ins)}) -> tensor<?x16xf32> {{\n"
            "  %c = stablehlo.concatenate %x0, %x1, %x2, dim = 1 : (tensor<?x8xf32>, "
            "tensor<?x3xf32>, tensor<?x5xf32>) -> tensor<?x16xf32>\n"
            "  %e = stablehlo.exponential %c : tensor<?x16xf32>\n  return %e : tensor<?x16xf32>\n}")
    assert len(kernel_loads(text)) == 3


@pytest.mark.parametrize("channels,dim,dynamic_last", [
    ([8, 3, 5, 2], 1, False), ([6, 6], 1, False), ([4, 1, 7], 1, True), ([2, 2, 2], 0, False)])
def test_buffers_read_once_against_numpy(channels, dim, dynamic_last):
    """At several batches, a `?` last operand empty at run time among them."""
    lib = aot.compile(dense_block(channels, dim, dynamic_last),
                      name=f"concat_once_{'_'.join(map(str, channels))}_{dim}_{int(dynamic_last)}")
    rng = np.random.default_rng(2)
    for batch, last in ((1, channels[-1]), (3, channels[-1]), (2, 0)):
        if last == 0 and not dynamic_last:
            continue
        xs = []
        for i, c in enumerate(channels):
            shape = [batch, c, 4, 16]
            if dim == 0:
                shape = [c, channels[0], 4, 16]
            if i == len(channels) - 1:
                shape[dim] = last
            xs.append(rng.standard_normal(shape).astype(np.float32))
        np.testing.assert_allclose(lib.main(*xs), np.exp(np.concatenate(xs, axis=dim)), rtol=1e-6)
