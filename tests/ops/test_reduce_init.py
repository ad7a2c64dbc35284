"""reduce with an init that is not the body's identity (issue 31): the init joins the result
once, on every target and every schedule, as StableHLO's interpreter and the CPU's loops do.
The cuda schedules (lowering/codegen/cuda/reductions.py: a warp per row, a block for the
whole tensor, a block per 32 columns, and the generic thread per output) start each thread
from the body's identity when it is a known combiner, else from its first element with a
flag; the CPU's (loops in order, columns in memory order, columns split into chunks) start
from the init once. Run on the CPU and on the emulated GPU grid, against numpy."""
import numpy as np
import pytest

import aot
from tooling.gpu_emu import build_emulated

# add: the identity path; "sum2": add behind a second op, so its identity is unknown (the
# first-element path); min over ui32 (identity: the largest ui32); argmax (two results, the
# first-element path) whose init (2.5, -1) beats no element.
SUM2 = """ reducer(%a: tensor<i32>, %b: tensor<i32>) {
      %s = stablehlo.add %a, %b : tensor<i32>
      %m = stablehlo.maximum %s, %s : tensor<i32>
      stablehlo.return %m : tensor<i32>
    }"""

ARGMAX = """ reducer(%a1: tensor<f32>, %a3: tensor<f32>) (%a2: tensor<i32>, %a4: tensor<i32>)  {
      %4 = stablehlo.compare GT, %a1, %a3, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %7 = stablehlo.compare EQ, %a1, %a3, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %8 = stablehlo.compare LT, %a2, %a4, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %9 = stablehlo.and %7, %8 : tensor<i1>
      %10 = stablehlo.or %4, %9 : tensor<i1>
      %11 = stablehlo.select %4, %a1, %a3 : tensor<i1>, tensor<f32>
      %12 = stablehlo.select %10, %a2, %a4 : tensor<i1>, tensor<i32>
      stablehlo.return %11, %12 : tensor<f32>, tensor<i32>
    }"""

# name: (input type, dims, output type); the schedule each takes on the GPU in the comment
SHAPES = {
    "row": ("?x?", [1], "?"),  # a warp per row
    "full": ("?x?", [0, 1], ""),  # one block
    "cols": ("?x?", [0], "?"),  # a block per 32 columns
    "few": ("3x?", [0], "?"),  # 3 known rows: a thread per column
    "mid": ("?x?x?", [1], "?x?"),  # columns of each batch: tiles
}


def _t(shape: str, elem: str) -> str:
    return f"tensor<{shape}x{elem}>" if shape else f"tensor<{elem}>"


def program() -> str:
    args, outs, body, rets = [], [], [], []
    consts = ["  %three = stablehlo.constant dense<3> : tensor<i32>",
              "  %seven = stablehlo.constant dense<7> : tensor<ui32>",
              "  %big = stablehlo.constant dense<2.5> : tensor<f32>",
              "  %none = stablehlo.constant dense<-1> : tensor<i32>"]
    for name, (si, dims, so) in SHAPES.items():
        args += [f"%{name}_i: {_t(si, 'i32')}", f"%{name}_u: {_t(si, 'ui32')}", f"%{name}_f: {_t(si, 'f32')}"]
        ti, tu, tf = _t(si, "i32"), _t(si, "ui32"), _t(si, "f32")
        oi, ou, of = _t(so, "i32"), _t(so, "ui32"), _t(so, "f32")
        body += [
            f"  %{name}_add = stablehlo.reduce(%{name}_i init: %three) applies stablehlo.add across "
            f"dimensions = {dims} : ({ti}, tensor<i32>) -> {oi}",
            f"  %{name}_sum2 = stablehlo.reduce(%{name}_i init: %three) across dimensions = {dims} : "
            f"({ti}, tensor<i32>) -> {oi}\n    {SUM2}",
            f"  %{name}_min = stablehlo.reduce(%{name}_u init: %seven) applies stablehlo.minimum across "
            f"dimensions = {dims} : ({tu}, tensor<ui32>) -> {ou}",
            f"  %{name}_iota = stablehlo.iota dim = {dims[-1]} : {ti}" if "?" not in si else
            f"  %{name}_iota = stablehlo.convert %{name}_i : ({ti}) -> {ti}",
            f"  %{name}_am:2 = stablehlo.reduce(%{name}_f init: %big), (%{name}_iota init: %none) across "
            f"dimensions = {dims} : ({tf}, {ti}, tensor<f32>, tensor<i32>) -> ({of}, {oi})\n    {ARGMAX}",
        ]
        outs += [oi, oi, ou, of, oi]
        rets += [f"%{name}_add", f"%{name}_sum2", f"%{name}_min", f"%{name}_am#0", f"%{name}_am#1"]
    return (f"func.func @main({', '.join(args)}) -> ({', '.join(outs)}) {{\n" + "\n".join(consts + body)
            + f"\n  return {', '.join(rets)} : {', '.join(outs)}\n}}")


def _argmax(f, idx, axes):
    """numpy's answer for the argmax body with init (2.5, -1): the first largest element
    above 2.5 (by the index operand, lowest on ties), else the init."""
    f = np.moveaxis(f, axes, range(-len(axes), 0))
    idx = np.moveaxis(idx, axes, range(-len(axes), 0))
    kept = f.shape[:f.ndim - len(axes)]
    f2 = f.reshape(kept + (int(np.prod(f.shape[len(kept):])),))
    i2 = idx.reshape(f2.shape)
    best = np.full(f2.shape[:-1], 2.5, np.float32)
    at = np.full(f2.shape[:-1], -1, np.int32)
    for k in range(f2.shape[-1]):
        v, i = f2[..., k], i2[..., k]
        take = (v > best) | ((v == best) & (i < at))
        best, at = np.where(take, v, best), np.where(take, i, at)
    return best, at


def _inputs(name: str, shape: tuple, rng):
    i = rng.integers(-50, 50, shape).astype(np.int32)
    u = rng.integers(0, 2**32, shape, dtype=np.uint64).astype(np.uint32)
    f = rng.integers(0, 5, shape).astype(np.float32)  # ties, and often nothing above 2.5
    return i, u, f


SIZES = {"row": [(4, 6), (3, 0), (2, 70)], "full": [(4, 6), (0, 3), (7, 45)],
         "cols": [(6, 4), (0, 3), (300, 40)], "few": [(3, 5), (3, 0), (3, 40)],
         "mid": [(2, 6, 4), (2, 0, 3), (2, 20, 33)]}


@pytest.fixture(scope="module", params=["cpu", "cuda"])
def lib(request, tmp_path_factory):
    out = tmp_path_factory.mktemp("reduce_init")
    if request.param == "cuda":
        return build_emulated(program(), "reduce_init_gpu", str(out))
    return aot.compile(program(), name="reduce_init_cpu", output_dir=str(out))


@pytest.mark.parametrize("size", range(3))
def test_a_non_identity_init_joins_once(lib, size):
    rng = np.random.default_rng(size)
    args, wants = [], []
    for name, (si, dims, _) in SHAPES.items():
        shape = SIZES[name][size]
        i, u, f = _inputs(name, shape, rng)
        args += [i, u, f]
        axes = tuple(dims)
        iota = np.broadcast_to(np.arange(shape[dims[-1]], dtype=np.int32).reshape(
            [-1 if d == dims[-1] else 1 for d in range(len(shape))]), shape) if "?" not in si else i
        wants += [i.sum(axes, dtype=np.int32) + 3, i.sum(axes, dtype=np.int32) + 3,
                  np.minimum(u.min(axes, initial=2**32 - 1), 7), *_argmax(f, iota, axes)]
    got = lib.main(*args)
    labels = [f"{n}_{k}" for n in SHAPES for k in ("add", "sum2", "min", "argmax_value", "argmax_index")]
    for label, g, w in zip(labels, got, wants):
        np.testing.assert_array_equal(g, w, err_msg=f"{label} at {SIZES[label.split('_')[0]][size]}")


ROW_FUSION = """func.func @main(%x: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %three = stablehlo.constant dense<3.0> : tensor<f32>
  %s = stablehlo.reduce(%x init: %three) applies stablehlo.add across dimensions = [1] : (tensor<?x?xf32>, tensor<f32>) -> tensor<?xf32>
  %d = stablehlo.get_dimension_size %x, dim = 0 : (tensor<?x?xf32>) -> tensor<i32>
  %e = stablehlo.get_dimension_size %x, dim = 1 : (tensor<?x?xf32>) -> tensor<i32>
  %d1 = stablehlo.reshape %d : (tensor<i32>) -> tensor<1xi32>
  %e1 = stablehlo.reshape %e : (tensor<i32>) -> tensor<1xi32>
  %shape = stablehlo.concatenate %d1, %e1, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
  %b = stablehlo.dynamic_broadcast_in_dim %s, %shape, dims = [0] : (tensor<?xf32>, tensor<2xi32>) -> tensor<?x?xf32>
  %r = stablehlo.subtract %x, %b : tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}"""  # noqa: E501


@pytest.mark.parametrize("target", ["cpu", "cuda"])
def test_a_row_fusion_joins_its_init_once(target, tmp_path):
    """A reduction over rows fused with its elementwise user (a warp per row on the GPU)."""
    lib = (build_emulated(ROW_FUSION, "row_fusion_init", str(tmp_path)) if target == "cuda"
           else aot.compile(ROW_FUSION, name="row_fusion_init", output_dir=str(tmp_path)))
    rng = np.random.default_rng(5)
    for shape in [(4, 6), (3, 0), (2, 70)]:
        x = rng.integers(-8, 8, shape).astype(np.float32)  # exact sums in any order
        np.testing.assert_array_equal(lib.main(x), x - (x.sum(1, keepdims=True) + 3), err_msg=str(shape))


FUSED_COLUMNS = """func.func @main(%x: tensor<?x?xi32>) -> tensor<?xi32> {
  %three = stablehlo.constant dense<3> : tensor<i32>
  %a = stablehlo.abs %x : tensor<?x?xi32>
  %r = stablehlo.reduce(%a init: %three) applies stablehlo.add across dimensions = [0] : (tensor<?x?xi32>, tensor<i32>) -> tensor<?xi32>
  return %r : tensor<?xi32>
}"""  # noqa: E501


@pytest.mark.parametrize("target", ["cpu", "cuda"])
def test_a_split_column_sum_joins_its_init_once(target, tmp_path):
    """A fused column sum: on the CPU its rows split into chunks (bufferize's
    split_column_reduction: chunk 0 starts from the init, the others from their first row),
    on the GPU a block per 32 columns."""
    lib = (build_emulated(FUSED_COLUMNS, "split_cols_init", str(tmp_path)) if target == "cuda"
           else aot.compile(FUSED_COLUMNS, name="split_cols_init", output_dir=str(tmp_path)))
    rng = np.random.default_rng(6)
    for shape in [(0, 3), (5, 4), (300, 40), (1, 1), (17, 0)]:
        x = rng.integers(-50, 50, shape).astype(np.int32)
        np.testing.assert_array_equal(lib.main(x), np.abs(x).sum(0, dtype=np.int32) + 3, err_msg=str(shape))
