"""A scatter that overwrites consecutive rows, its indices `iota + start` (PyTorch's
slice_scatter), is marked `aot.rows` at the fused stage (passes/row_scatters.py,
ops/gather.scatter_rows) and its kernel copies each element once, reading no index; other
scatters keep the general kernel. Checked on the fused and loop stages and against numpy."""
import numpy as np
import pytest

import aot
from lowering.frontend.parser import parse_module
from lowering.passes.pipeline import run_pipeline


def t(shape, elem="f32") -> str:
    return "tensor<" + "".join(f"{d}x" for d in shape) + f"{elem}>"


def program(x, upd, window, inserted, rows: str, combiner: str = "") -> str:
    """x with `upd` scattered at the indices `rows` builds (an [n, 1] i64 value %i)."""
    n = upd[[k for k in range(len(upd)) if k not in window][0]]
    body = ("    %m = stablehlo.add %a, %b : tensor<f32>\n    stablehlo.return %m : tensor<f32>"
            if combiner == "add" else "    stablehlo.return %b : tensor<f32>")
    return f"""func.func @main(%x: {t(x)}, %u: {t(upd)}) -> {t(x)} {{
{rows}
  %s = "stablehlo.scatter"(%x, %i, %u) <{{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = {list(window)}, inserted_window_dims = [{inserted}], scatter_dims_to_operand_dims = [{inserted}], index_vector_dim = 1>}}> ({{
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
{body}
  }}) : ({t(x)}, {t((n, 1), "i64")}, {t(upd)}) -> {t(x)}
  return %s : {t(x)}
}}"""  # noqa: E501


def iota_rows(n: int, start: int) -> str:
    """torch's slice_scatter rows: iota + start, negative ones wrapped (never, here)."""
    return f"""  %r = stablehlo.iota dim = 0 : {t((n,), "i64")}
  %c = stablehlo.constant dense<{start}> : {t((n,), "i64")}
  %a0 = stablehlo.add %r, %c : {t((n,), "i64")}
  %z = stablehlo.constant dense<0> : {t((n,), "i64")}
  %neg = stablehlo.compare LT, %a0, %z : ({t((n,), "i64")}, {t((n,), "i64")}) -> {t((n,), "i1")}
  %big = stablehlo.constant dense<1000> : {t((n,), "i64")}
  %w = stablehlo.add %a0, %big : {t((n,), "i64")}
  %sel = stablehlo.select %neg, %w, %a0 : {t((n,), "i1")}, {t((n,), "i64")}
  %i = stablehlo.reshape %sel : ({t((n,), "i64")}) -> {t((n, 1), "i64")}"""


def scatter_attr(text: str):
    module = run_pipeline(parse_module(text, "t.mlir"), "fused")
    (op,) = [o for f in module.functions() for o in f.walk() if o.name.endswith(".scatter")]
    return op.attrs.get("aot.rows")


CASES = {  # name: (operand, updates, update_window_dims, scatter dim, start, aot.rows)
    "columns": ((1, 5, 7), (1, 5, 4), (0, 1), 2, 2, (2, 2, 2)),  # attn[..., 1:] = ...
    "rows": ((1, 6, 5), (1, 4, 5), (0, 2), 1, 1, (1, 1, 1)),  # attn[:, 1:] = ...
    "rows first": ((6, 5), (4, 5), (1,), 0, 2, (0, 2, 0)),
    "rows last in the updates": ((6, 5), (5, 4), (0,), 0, 0, (0, 0, 1)),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_row_scatters_are_copies(name):
    x_shape, u_shape, window, d, start, want_attr = CASES[name]
    n = u_shape[[k for k in range(len(u_shape)) if k not in window][0]]
    text = program(x_shape, u_shape, window, d, iota_rows(n, start))
    assert scatter_attr(text) == want_attr
    loops = run_pipeline(parse_module(text, "t.mlir"), "loops")
    (kernel,) = [f for f in loops.functions() if f.attrs.get("aot.kernel") == "scatter"]
    index_buffer = kernel.regions[0].blocks[0].args[1]
    assert not [o for o in kernel.walk() if o.name == "memref.load" and o.operands[0] is index_buffer]
    rng = np.random.default_rng(3)
    x, u = (rng.standard_normal(s).astype(np.float32) for s in (x_shape, u_shape))
    u_in_x_order = np.moveaxis(u, want_attr[2], d)
    want = x.copy()
    sl = [slice(None)] * len(x_shape)
    sl[d] = slice(start, start + n)
    want[tuple(sl)] = u_in_x_order
    np.testing.assert_array_equal(aot.compile(text, name="row_scatter").main(x, u), want)


@pytest.mark.parametrize("rows, combiner", [
    ("  %i = stablehlo.constant dense<[[0], [2], [3]]> : tensor<3x1xi64>", ""),  # a gap
    ("  %i = stablehlo.constant dense<[[3], [4], [5]]> : tensor<3x1xi64>", ""),  # past the end
    (iota_rows(3, 1), "add"),  # not an overwrite
])
def test_other_scatters_keep_the_general_kernel(rows, combiner):
    text = program((5, 4), (3, 4), (1,), 0, rows, combiner)
    assert scatter_attr(text) is None
    rng = np.random.default_rng(4)
    x, u = (rng.standard_normal(s).astype(np.float32) for s in ((5, 4), (3, 4)))
    idx = {0: [0, 2, 3], 1: [3, 4, 5], 2: [1, 2, 3]}[0 if "[0]" in rows else 1 if "[3]" in rows else 2]
    want = x.copy()
    for j, r in enumerate(idx):
        if r < 5:
            want[r] = want[r] + u[j] if combiner else u[j]
    np.testing.assert_allclose(aot.compile(text, name="other_scatter").main(x, u), want, rtol=1e-6)
