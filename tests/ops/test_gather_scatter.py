"""gather, dynamic_gather and scatter: JAX-exported programs (tests/data/gather_scatter/) against
JAX's outputs, and hand-written programs covering every kind of dimension number against a
numpy reference of the StableHLO semantics with XLA's choices (gather starts clamped into
the operand, a scatter update whose window does not fit skipped as a whole)."""
import glob
import os
import subprocess
import sys

import numpy as np
import pytest

import aot
from abi import AotRuntimeError
from corpus import assert_close

TESTS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ROOT = os.path.dirname(TESTS)
GS = os.path.join(TESTS, "data", "gather_scatter")
CASES = sorted(os.path.basename(p)[:-5] for p in glob.glob(os.path.join(GS, "*.mlir")))


def size_sets(npz):
    import ml_dtypes
    arrays = {k[:-6] if k.endswith("__bf16") else k:
              npz[k].view(ml_dtypes.bfloat16) if k.endswith("__bf16") else npz[k]
              for k in npz.files}
    k = 0
    while f"s{k}_arg0" in arrays:
        args = [arrays[f"s{k}_arg{i}"] for i in range(16) if f"s{k}_arg{i}" in arrays]
        outs = [arrays[f"s{k}_out{i}"] for i in range(16) if f"s{k}_out{i}" in arrays]
        yield k, args, outs
        k += 1


def test_corpus_is_there():
    assert len(CASES) >= 40
    assert any(c.startswith("dyn_") for c in CASES)


@pytest.mark.parametrize("case", CASES)
def test_jax_case(case):
    """One library per case; every size set (three for the symbolic-shape cases)."""
    lib = aot.compile(os.path.join(GS, case + ".mlir"), name=case)
    ran = 0
    for k, args, outs in size_sets(np.load(os.path.join(GS, case + ".npz"))):
        got = lib.main(*args)
        got = got if isinstance(got, tuple) else (got,)
        assert len(got) == len(outs)
        for i, (g, w) in enumerate(zip(got, outs)):
            assert_close(g, w, f"{case} size set {k} result {i}")
        ran += 1
    assert ran == (3 if case.startswith("dyn_") else 1)


# ----------------------------------------------------------------------------- reference

GATHER_KEYS = ("offset_dims", "collapsed_slice_dims", "operand_batching_dims",
               "start_indices_batching_dims", "start_index_map", "index_vector_dim")
SCATTER_KEYS = ("update_window_dims", "inserted_window_dims", "input_batching_dims",
                "scatter_indices_batching_dims", "scatter_dims_to_operand_dims",
                "index_vector_dim")


def _dn(keys, dn):
    return [dn.get(k, 0 if k == "index_vector_dim" else ()) for k in keys]


def _index_vector(indices, batch, ivd):
    if ivd < indices.ndim:
        return [int(x) for x in indices[tuple(batch[:ivd]) + (slice(None),) + tuple(batch[ivd:])]]
    return [int(indices[tuple(batch)])]


def ref_gather(operand, indices, dn, sizes):
    off, col, obd, sbd, sim, ivd = _dn(GATHER_KEYS, dn)
    r = operand.ndim
    batch_shape = [n for i, n in enumerate(indices.shape) if i != ivd]
    window = [d for d in range(r) if d not in col and d not in obd]
    out_rank = len(batch_shape) + len(off)
    bi, wi = iter(batch_shape), iter(sizes[d] for d in window)
    out_shape = tuple(next(wi) if d in off else next(bi) for d in range(out_rank))
    out = np.zeros(out_shape, operand.dtype)
    for oi in np.ndindex(*out_shape):
        batch = [oi[d] for d in range(out_rank) if d not in off]
        vec = _index_vector(indices, batch, ivd)
        pos = [0] * r
        for k, od in enumerate(sim):
            pos[od] = min(max(vec[k], 0), operand.shape[od] - sizes[od])
        for od, sd in zip(obd, sbd):
            pos[od] += batch[sd if sd < ivd else sd - 1]
        for j, d in enumerate(window):
            pos[d] += oi[off[j]]
        out[oi] = operand[tuple(pos)]
    return out


def ref_scatter(inputs, indices, updates, dn, combine):
    uwd, iwd, ibd, sbd, sdod, ivd = _dn(SCATTER_KEYS, dn)
    results = [np.array(x, copy=True) for x in inputs]
    shape = inputs[0].shape
    r = len(shape)
    window = [d for d in range(r) if d not in iwd and d not in ibd]
    wsize = {d: updates[0].shape[uwd[j]] for j, d in enumerate(window)}
    for ui in np.ndindex(*updates[0].shape):
        scatter = [ui[d] for d in range(updates[0].ndim) if d not in uwd]
        vec = _index_vector(indices, scatter, ivd)
        pos = [0] * r
        ok = True
        for k, od in enumerate(sdod):
            ok &= 0 <= vec[k] <= shape[od] - wsize.get(od, 1)
            pos[od] = vec[k]
        if not ok:
            continue
        for od, sd in zip(ibd, sbd):
            pos[od] += scatter[sd if sd < ivd else sd - 1]
        for j, d in enumerate(window):
            pos[d] += ui[uwd[j]]
        new = combine([x[tuple(pos)] for x in results], [u[ui] for u in updates])
        for x, v in zip(results, new):
            x[tuple(pos)] = v
    return results


# ----------------------------------------------------------------------------- MLIR text

ELEM = {"float32": "f32", "float64": "f64", "int32": "i32", "int64": "i64", "int8": "i8",
        "uint8": "ui8", "uint32": "ui32", "uint64": "ui64", "bool": "i1", "int16": "i16"}


def ttype(shape, elem):
    if not isinstance(elem, str):
        elem = ELEM[np.dtype(elem).name]
    return "tensor<" + "".join(("?" if d is None else str(d)) + "x" for d in shape) + elem + ">"


def dn_text(kind, keys, dn, dialect="stablehlo"):
    parts = []
    for k in keys:
        if k == "index_vector_dim":
            parts.append(f"{k} = {dn.get(k, 0)}")
        elif dn.get(k):
            parts.append(f"{k} = [{', '.join(map(str, dn[k]))}]")
    return f"#{dialect}.{kind}<{', '.join(parts)}>"


def gather_text(x_t, i_t, out_t, dn, sizes, dialect="stablehlo"):
    sizes_attr = (f"array<i64: {', '.join(map(str, sizes))}>" if dialect == "stablehlo"
                  else f"dense<[{', '.join(map(str, sizes))}]> : tensor<{len(sizes)}xi64>")
    return f"""func.func @main(%x: {x_t}, %i: {i_t}) -> {out_t} {{
  %0 = "{dialect}.gather"(%x, %i) {{dimension_numbers = {dn_text("gather", GATHER_KEYS, dn, dialect)}, indices_are_sorted = false, slice_sizes = {sizes_attr}}} : ({x_t}, {i_t}) -> {out_t}
  return %0 : {out_t}
}}"""  # noqa: E501


def scatter_text(in_ts, i_t, upd_ts, dn, body, dialect="stablehlo"):
    """body: lines of the update region over %a0.. (current) and %b0.. (updates)."""
    n = len(in_ts)
    elems = [t[t.rindex("x") + 1:-1] if "x" in t else t[7:-1] for t in in_ts]
    params = ", ".join([f"%x{k}: {t}" for k, t in enumerate(in_ts)] + [f"%i: {i_t}"] +
                       [f"%u{k}: {t}" for k, t in enumerate(upd_ts)])
    args = ", ".join([f"%x{k}" for k in range(n)] + ["%i"] + [f"%u{k}" for k in range(n)])
    bb = ", ".join([f"%a{k}: tensor<{e}>" for k, e in enumerate(elems)] +
                   [f"%b{k}: tensor<{e}>" for k, e in enumerate(elems)])
    results = ", ".join(in_ts)
    lhs = "%0" if n == 1 else f"%0:{n}"
    rets = "%0" if n == 1 else ", ".join(f"%0#{k}" for k in range(n))
    body = "\n      ".join(body)
    return f"""func.func @main({params}) -> ({results}) {{
  {lhs} = "{dialect}.scatter"({args}) ({{
    ^bb0({bb}):
      {body}
  }}) {{scatter_dimension_numbers = {dn_text("scatter", SCATTER_KEYS, dn, dialect)}, indices_are_sorted = false, unique_indices = false}} : ({", ".join(in_ts + [i_t] + upd_ts)}) -> ({results})
  return {rets} : {results}
}}"""  # noqa: E501


ADD = ["%s = stablehlo.add %a0, %b0 : tensor<{e}>", "stablehlo.return %s : tensor<{e}>"]


def body_of(op, elem):
    if op == "set":
        return [f"stablehlo.return %b0 : tensor<{elem}>"]
    return [f"%s = stablehlo.{op} %a0, %b0 : tensor<{elem}>", f"stablehlo.return %s : tensor<{elem}>"]


COMBINE = {"add": lambda a, b: [a[0] + b[0]], "set": lambda a, b: [b[0]],
           "maximum": lambda a, b: [np.maximum(a[0], b[0])],
           "minimum": lambda a, b: [np.minimum(a[0], b[0])],
           "multiply": lambda a, b: [a[0] * b[0]], "or": lambda a, b: [a[0] | b[0]]}


def _indices(rng, shape, lo, hi, dtype=np.int32):
    return rng.integers(lo, hi, size=shape).astype(dtype)


# ----------------------------------------------------------------------------- gather cases

# name: (operand shape, indices (shape, lo, hi, dtype), dimension numbers, slice sizes)
GATHERS = {
    # index vectors along dim 0 of the indices; start_index_map out of order
    "ivd_first_permuted_map": ((5, 6), ((2, 3), -2, 8, np.int32),
                               dict(offset_dims=(1,), collapsed_slice_dims=(0,),
                                    start_index_map=(1, 0), index_vector_dim=0), (1, 3)),
    # index_vector_dim == rank(indices): each index is a scalar
    "implicit_index_vector": ((7,), ((4,), -3, 10, np.int32),
                              dict(collapsed_slice_dims=(0,), start_index_map=(0,),
                                   index_vector_dim=1), (1,)),
    # a scalar index: a dynamic_slice
    "scalar_index_window": ((5, 4), ((), -9, 9, np.int32),
                            dict(offset_dims=(0, 1), start_index_map=(0,), index_vector_dim=0),
                            (2, 4)),
    # batch dims placed between offset dims, windows clamped at both ends
    "interleaved_offsets_clamped": ((6, 5), ((3, 2), -4, 9, np.int32),
                                    dict(offset_dims=(0, 2), start_index_map=(0, 1),
                                         index_vector_dim=1), (2, 3)),
    # operand batching dim in the middle of the operand, indices batching dim in the middle
    "batching_dims_middle": ((3, 4, 5), ((2, 4, 1), -1, 6, np.int32),
                             dict(offset_dims=(1, 3), operand_batching_dims=(1,),
                                  start_indices_batching_dims=(1,), start_index_map=(2,),
                                  index_vector_dim=2), (2, 1, 3)),
    # batching dims after the index vector dim
    "batching_after_index_vector": ((4, 6), ((1, 3, 4), 0, 6, np.int32),
                                    dict(collapsed_slice_dims=(1,), operand_batching_dims=(0,),
                                         start_indices_batching_dims=(2,), start_index_map=(1,),
                                         index_vector_dim=0), (1, 1)),
    "three_d_all_collapsed": ((3, 4, 5), ((6, 3), -1, 6, np.int32),
                              dict(collapsed_slice_dims=(0, 1, 2), start_index_map=(2, 0, 1),
                                   index_vector_dim=1), (1, 1, 1)),
    "ui32_huge_indices": ((6, 3), ((5, 1), 0, 2 ** 32, np.uint32),
                          dict(offset_dims=(1,), collapsed_slice_dims=(0,), start_index_map=(0,),
                               index_vector_dim=1), (1, 3)),
    "ui8_indices": ((6, 3), ((5, 1), 0, 256, np.uint8),
                    dict(offset_dims=(1,), collapsed_slice_dims=(0,), start_index_map=(0,),
                         index_vector_dim=1), (1, 3)),
    "ui64_huge_indices": ((6, 3), ((5, 1), 0, 2 ** 64, np.uint64),
                          dict(offset_dims=(1,), collapsed_slice_dims=(0,), start_index_map=(0,),
                               index_vector_dim=1), (1, 2)),
    "i64_indices": ((6, 3), ((5, 1), -2 ** 40, 2 ** 40, np.int64),
                    dict(offset_dims=(1,), collapsed_slice_dims=(0,), start_index_map=(0,),
                         index_vector_dim=1), (1, 3)),
    "i8_indices": ((6, 3), ((5, 1), -128, 128, np.int8),
                   dict(offset_dims=(1,), collapsed_slice_dims=(0,), start_index_map=(0,),
                        index_vector_dim=1), (1, 3)),
    "empty_indices": ((6, 3), ((0, 1), 0, 6, np.int32),
                      dict(offset_dims=(1,), collapsed_slice_dims=(0,), start_index_map=(0,),
                           index_vector_dim=1), (1, 3)),
    "zero_size_window": ((6, 3), ((2, 1), 0, 6, np.int32),
                         dict(offset_dims=(1,), collapsed_slice_dims=(0,), start_index_map=(0,),
                              index_vector_dim=1), (1, 0)),
}


def _gather_inputs(name, dtype=np.float32):
    shape, (ishape, lo, hi, idt), dn, sizes = GATHERS[name]
    rng = np.random.default_rng(len(name))
    x = (rng.standard_normal(shape) * 10).astype(dtype)
    i = rng.integers(lo, hi, size=ishape, dtype=np.uint64 if idt == np.uint64 else np.int64) \
        .astype(idt)
    return x, i, dn, sizes


@pytest.mark.parametrize("name", sorted(GATHERS))
def test_gather_dimension_numbers(name):
    x, i, dn, sizes = _gather_inputs(name)
    want = ref_gather(x, i, dn, sizes)
    lib = aot.compile(gather_text(ttype(x.shape, x.dtype), ttype(i.shape, i.dtype),
                                  ttype(want.shape, x.dtype), dn, sizes), name="g_" + name)
    np.testing.assert_array_equal(lib.main(x, i), want)


@pytest.mark.parametrize("dtype", [np.float64, np.int8, np.uint32, np.bool_, np.int64])
def test_gather_element_types(dtype):
    x, i, dn, sizes = _gather_inputs("interleaved_offsets_clamped")
    x = (x > 0) if dtype == np.bool_ else x.astype(dtype)
    want = ref_gather(x, i, dn, sizes)
    lib = aot.compile(gather_text(ttype(x.shape, x.dtype), ttype(i.shape, i.dtype),
                                  ttype(want.shape, x.dtype), dn, sizes), name="g_types")
    np.testing.assert_array_equal(lib.main(x, i), want)


def test_gather_mhlo_spellings():
    x, i, dn, sizes = _gather_inputs("batching_dims_middle")
    want = ref_gather(x, i, dn, sizes)
    types = ttype(x.shape, x.dtype), ttype(i.shape, i.dtype), ttype(want.shape, x.dtype)
    lib = aot.compile(gather_text(*types, dn, sizes, dialect="mhlo"), name="g_mhlo")
    np.testing.assert_array_equal(lib.main(x, i), want)
    # the RFC-era xla_hlo form: dimension numbers as a dictionary of dense attributes
    x, i, dn, sizes = _gather_inputs("interleaved_offsets_clamped")
    want = ref_gather(x, i, dn, sizes)
    types = ttype(x.shape, x.dtype), ttype(i.shape, i.dtype), ttype(want.shape, x.dtype)
    text = f"""func.func @main(%x: {types[0]}, %i: {types[1]}) -> {types[2]} {{
  %0 = "xla_hlo.gather"(%x, %i) {{dimension_numbers = {{collapsed_slice_dims = dense<[]> : tensor<0xi64>, index_vector_dim = 1 : i64, offset_dims = dense<[0, 2]> : tensor<2xi64>, start_index_map = dense<[0, 1]> : tensor<2xi64>}}, slice_sizes = dense<[2, 3]> : tensor<2xi64>}} : ({types[0]}, {types[1]}) -> {types[2]}
  return %0 : {types[2]}
}}"""  # noqa: E501
    lib = aot.compile(text, name="g_xla_hlo")
    np.testing.assert_array_equal(lib.main(x, i), want)


def test_gather_dynamic_shapes():
    """Dynamic operand and index count: one library, several sizes, empty ones included."""
    dn = dict(offset_dims=(1,), collapsed_slice_dims=(0,), start_index_map=(0,),
              index_vector_dim=1)
    lib = aot.compile(gather_text("tensor<?x?xf32>", "tensor<?x1xi32>", "tensor<?x2xf32>", dn,
                                  (1, 2)), name="g_dyn")
    rng = np.random.default_rng(1)
    for rows, cols, n in ((3, 2, 4), (7, 5, 1), (1, 9, 6), (4, 3, 0)):
        x = rng.standard_normal((rows, cols)).astype(np.float32)
        i = rng.integers(-3, rows + 3, size=(n, 1)).astype(np.int32)
        np.testing.assert_array_equal(lib.main(x, i), ref_gather(x, i, dn, (1, 2)))
    with pytest.raises(AotRuntimeError, match="slice size of dim 1 exceeds the operand"):
        lib.main(np.zeros((3, 1), np.float32), np.zeros((2, 1), np.int32))


def test_gather_dynamic_batching_dims_checked():
    dn = dict(collapsed_slice_dims=(1,), operand_batching_dims=(0,),
              start_indices_batching_dims=(0,), start_index_map=(1,), index_vector_dim=2)
    lib = aot.compile(gather_text("tensor<?x5xf32>", "tensor<?x2x1xi32>", "tensor<?x2xf32>", dn,
                                  (1, 1)), name="g_dyn_batch")
    x = np.arange(15, dtype=np.float32).reshape(3, 5)
    i = np.array([[[0], [4]], [[2], [9]], [[-1], [3]]], np.int32)
    np.testing.assert_array_equal(lib.main(x, i), ref_gather(x, i, dn, (1, 1)))
    with pytest.raises(AotRuntimeError, match="batching dim 0 and indices dim 0 differ"):
        lib.main(x, i[:2])


DYNAMIC_GATHER = """func.func @main(%x: tensor<?x?xf32>, %i: tensor<2xi32>, %s: tensor<2xi64>) -> tensor<?x?xf32> {
  %0 = "stablehlo.dynamic_gather"(%x, %i, %s) <{dimension_numbers = #stablehlo.gather<offset_dims = [0, 1], start_index_map = [0, 1]>, indices_are_sorted = false}> : (tensor<?x?xf32>, tensor<2xi32>, tensor<2xi64>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}"""  # noqa: E501


def test_dynamic_gather_slice_sizes_from_a_tensor():
    lib = aot.compile(DYNAMIC_GATHER, name="dyn_gather")
    dn = dict(offset_dims=(0, 1), start_index_map=(0, 1))
    x = np.arange(42, dtype=np.float32).reshape(6, 7)
    for start, sizes in (((1, 2), (3, 4)), ((5, 6), (2, 3)), ((-4, 1), (6, 7)), ((2, 2), (0, 3))):
        i, s = np.array(start, np.int32), np.array(sizes, np.int64)
        np.testing.assert_array_equal(lib.main(x, i, s), ref_gather(x, i, dn, sizes))
    with pytest.raises(AotRuntimeError, match="slice size of dim 1 exceeds the operand"):
        lib.main(x, np.zeros(2, np.int32), np.array([1, 8], np.int64))
    with pytest.raises(AotRuntimeError, match="slice size of dim 0 is negative"):
        lib.main(x, np.zeros(2, np.int32), np.array([-1, 2], np.int64))
    shapes, _ = lib.main.output_shapes(x, np.zeros(2, np.int32), np.array([4, 5], np.int64))
    assert [tuple(s) for s in shapes] == [(4, 5)]


def test_dynamic_gather_static_result_checked():
    text = DYNAMIC_GATHER.replace("-> tensor<?x?xf32>", "-> tensor<?x3xf32>").replace(
        "return %0 : tensor<?x?xf32>", "return %0 : tensor<?x3xf32>")
    lib = aot.compile(text, name="dyn_gather_static")
    x = np.arange(42, dtype=np.float32).reshape(6, 7)
    got = lib.main(x, np.array([1, 1], np.int32), np.array([2, 3], np.int64))
    np.testing.assert_array_equal(got, x[1:3, 1:4])
    with pytest.raises(AotRuntimeError, match="result dim 1"):
        lib.main(x, np.array([1, 1], np.int32), np.array([2, 4], np.int64))


def test_gather_fuses_with_producers_and_consumers():
    text = """func.func @main(%x: tensor<5x4xf32>, %i: tensor<3xi32>) -> tensor<3x4xf32> {
  %c = stablehlo.constant dense<2> : tensor<3xi32>
  %j = stablehlo.multiply %i, %c : tensor<3xi32>
  %k = stablehlo.reshape %j : (tensor<3xi32>) -> tensor<3x1xi32>
  %e = stablehlo.exponential %x : tensor<5x4xf32>
  %g = "stablehlo.gather"(%e, %k) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 4>}> : (tensor<5x4xf32>, tensor<3x1xi32>) -> tensor<3x4xf32>
  %n = stablehlo.negate %g : tensor<3x4xf32>
  return %n : tensor<3x4xf32>
}"""  # noqa: E501
    from lowering.frontend.parser import parse_module
    from lowering.passes.pipeline import run_pipeline
    fused = run_pipeline(parse_module(text), until="fused")
    body = [op for op in fused.functions()[0].regions[0].blocks[0].ops if op.name != "func.return"]
    assert [op.name for op in body] == ["mhlo.fusion"], [op.name for op in body]
    lib = aot.compile(text, name="g_fused")
    x = np.random.default_rng(3).standard_normal((5, 4)).astype(np.float32)
    i = np.array([0, 1, 2], np.int32)
    np.testing.assert_allclose(lib.main(x, i), -np.exp(x)[np.minimum(i * 2, 4)], rtol=1e-6)


# ----------------------------------------------------------------------------- scatter cases

# name: (operand shape, indices (shape, lo, hi, dtype), updates shape, dimension numbers)
SCATTERS = {
    "rows_add_duplicates_dropped": ((6, 3), ((9, 1), -2, 8, np.int32), (9, 3),
                                   dict(update_window_dims=(1,), inserted_window_dims=(0,),
                                        scatter_dims_to_operand_dims=(0,),
                                        index_vector_dim=1)),
    "ivd_first_permuted_map": ((4, 5), ((2, 6), -1, 6, np.int32), (6,),
                               dict(inserted_window_dims=(0, 1),
                                    scatter_dims_to_operand_dims=(1, 0), index_vector_dim=0)),
    "implicit_index_vector": ((6,), ((8,), -2, 8, np.int32), (8,),
                              dict(inserted_window_dims=(0,), scatter_dims_to_operand_dims=(0,),
                                   index_vector_dim=1)),
    "scalar_index_window": ((5, 3), ((), 0, 5, np.int32), (3,),
                            dict(update_window_dims=(0,), inserted_window_dims=(0,),
                                 scatter_dims_to_operand_dims=(0,), index_vector_dim=0)),
    # 2x3 windows: starts that do not leave room for the whole window skip it
    "windows_out_of_range_skipped": ((5, 4), ((6, 2), -1, 5, np.int32), (6, 2, 3),
                                     dict(update_window_dims=(1, 2),
                                          scatter_dims_to_operand_dims=(0, 1),
                                          index_vector_dim=1)),
    "window_dims_interleaved": ((4, 5, 3), ((2, 1), 0, 5, np.int32), (4, 2, 3),
                                dict(update_window_dims=(0, 2), inserted_window_dims=(1,),
                                     scatter_dims_to_operand_dims=(1,), index_vector_dim=1)),
    "batching_dims": ((3, 5), ((3, 4, 1), -1, 6, np.int32), (3, 4),
                      dict(inserted_window_dims=(1,), input_batching_dims=(0,),
                           scatter_indices_batching_dims=(0,), scatter_dims_to_operand_dims=(1,),
                           index_vector_dim=2)),
    "batching_dims_after_index_vector": ((2, 6, 3), ((1, 4, 2), 0, 6, np.int32), (4, 2, 3),
                                         dict(update_window_dims=(2,), inserted_window_dims=(1,),
                                              input_batching_dims=(0,),
                                              scatter_indices_batching_dims=(2,),
                                              scatter_dims_to_operand_dims=(1,),
                                              index_vector_dim=0)),
    "ui32_indices": ((6, 2), ((5, 1), 0, 2 ** 32, np.uint32), (5, 2),
                     dict(update_window_dims=(1,), inserted_window_dims=(0,),
                          scatter_dims_to_operand_dims=(0,), index_vector_dim=1)),
    "ui64_indices": ((6, 2), ((5, 1), 0, 2 ** 64, np.uint64), (5, 2),
                     dict(update_window_dims=(1,), inserted_window_dims=(0,),
                          scatter_dims_to_operand_dims=(0,), index_vector_dim=1)),
    "i8_indices": ((6, 2), ((7, 1), -128, 128, np.int8), (7, 2),
                   dict(update_window_dims=(1,), inserted_window_dims=(0,),
                        scatter_dims_to_operand_dims=(0,), index_vector_dim=1)),
    "empty_updates": ((6, 2), ((0, 1), 0, 6, np.int32), (0, 2),
                      dict(update_window_dims=(1,), inserted_window_dims=(0,),
                           scatter_dims_to_operand_dims=(0,), index_vector_dim=1)),
}


def _scatter_inputs(name, dtype=np.float32):
    shape, (ishape, lo, hi, idt), ushape, dn = SCATTERS[name]
    rng = np.random.default_rng(len(name) + 100)
    x = rng.integers(-5, 6, size=shape).astype(dtype)
    i = rng.integers(lo, hi, size=ishape, dtype=np.uint64 if idt == np.uint64 else np.int64) \
        .astype(idt)
    if name == "ui32_indices":  # a few in range, the rest huge
        i[:2] = [[1], [4]]
    if name == "ui64_indices":
        i[:2] = [[3], [3]]
    u = rng.integers(-5, 6, size=ushape).astype(dtype)
    return x, i, u, dn


@pytest.mark.parametrize("name", sorted(SCATTERS))
@pytest.mark.parametrize("op", ["add", "set"])
def test_scatter_dimension_numbers(name, op):
    x, i, u, dn = _scatter_inputs(name)
    (want,) = ref_scatter([x], i, [u], dn, COMBINE[op])
    text = scatter_text([ttype(x.shape, x.dtype)], ttype(i.shape, i.dtype),
                        [ttype(u.shape, u.dtype)], dn, body_of(op, "f32"))
    lib = aot.compile(text, name=f"s_{name}_{op}")
    np.testing.assert_array_equal(lib.main(x, i, u), want)


@pytest.mark.parametrize("op,dtype", [("maximum", np.float32), ("minimum", np.int32),
                                      ("multiply", np.float64), ("add", np.uint8),
                                      ("or", np.bool_), ("add", np.int64)])
def test_scatter_regions_and_types(op, dtype):
    x, i, u, dn = _scatter_inputs("rows_add_duplicates_dropped")
    if dtype == np.bool_:
        x, u = x > 0, u > 0
    else:
        x, u = x.astype(dtype), u.astype(dtype)
    with np.errstate(over="ignore"):  # ui8 sums wrap around, as they do compiled
        (want,) = ref_scatter([x], i, [u], dn, COMBINE[op])
    elem = ELEM[np.dtype(dtype).name]
    text = scatter_text([ttype(x.shape, x.dtype)], ttype(i.shape, i.dtype),
                        [ttype(u.shape, u.dtype)], dn, body_of(op, elem))
    lib = aot.compile(text, name="s_types")
    np.testing.assert_array_equal(lib.main(x, i, u), want)


def test_scatter_region_of_several_ops():
    """current * 0.5 + update, with a constant inside the region."""
    x, i, u, dn = _scatter_inputs("rows_add_duplicates_dropped")
    body = ["%h = stablehlo.constant dense<5.000000e-01> : tensor<f32>",
            "%m = stablehlo.multiply %a0, %h : tensor<f32>",
            "%s = stablehlo.add %m, %b0 : tensor<f32>",
            "stablehlo.return %s : tensor<f32>"]
    (want,) = ref_scatter([x], i, [u], dn, lambda a, b: [a[0] * np.float32(0.5) + b[0]])
    text = scatter_text([ttype(x.shape, x.dtype)], ttype(i.shape, i.dtype),
                        [ttype(u.shape, u.dtype)], dn, body)
    np.testing.assert_array_equal(aot.compile(text, name="s_body").main(x, i, u), want)


def test_variadic_scatter():
    """Two inputs and two updates: a running (sum, count) per row, as one region."""
    x, i, u, dn = _scatter_inputs("rows_add_duplicates_dropped")
    c = np.zeros(x.shape, np.int32)
    cu = np.ones(u.shape, np.int32)
    body = ["%s = stablehlo.add %a0, %b0 : tensor<f32>",
            "%n = stablehlo.add %a1, %b1 : tensor<i32>",
            "stablehlo.return %s, %n : tensor<f32>, tensor<i32>"]
    want = ref_scatter([x, c], i, [u, cu], dn, lambda a, b: [a[0] + b[0], a[1] + b[1]])
    text = scatter_text([ttype(x.shape, x.dtype), ttype(c.shape, c.dtype)],
                        ttype(i.shape, i.dtype), [ttype(u.shape, u.dtype), ttype(cu.shape, cu.dtype)],
                        dn, body)
    got = aot.compile(text, name="s_variadic").main(x, c, i, u, cu)
    assert len(got) == 2
    for g, w in zip(got, want):
        np.testing.assert_array_equal(g, w)


def test_scatter_mhlo_spelling():
    x, i, u, dn = _scatter_inputs("batching_dims")
    (want,) = ref_scatter([x], i, [u], dn, COMBINE["add"])
    text = scatter_text([ttype(x.shape, x.dtype)], ttype(i.shape, i.dtype),
                        [ttype(u.shape, u.dtype)], dn,
                        ["%s = mhlo.add %a0, %b0 : tensor<f32>", "mhlo.return %s : tensor<f32>"],
                        dialect="mhlo")
    np.testing.assert_array_equal(aot.compile(text, name="s_mhlo").main(x, i, u), want)


def test_scatter_dynamic_shapes():
    """Dynamic operand rows and update count, an empty operand included."""
    dn = dict(update_window_dims=(1,), inserted_window_dims=(0,),
              scatter_dims_to_operand_dims=(0,), index_vector_dim=1)
    text = scatter_text(["tensor<?x3xf32>"], "tensor<?x1xi32>", ["tensor<?x3xf32>"], dn,
                        body_of("add", "f32"))
    lib = aot.compile(text, name="s_dyn")
    rng = np.random.default_rng(5)
    for rows, n in ((4, 6), (1, 3), (9, 0), (0, 4), (6, 20)):
        x = rng.integers(-5, 5, (rows, 3)).astype(np.float32)
        i = rng.integers(-2, rows + 2, (n, 1)).astype(np.int32)
        u = rng.integers(-5, 5, (n, 3)).astype(np.float32)
        (want,) = ref_scatter([x], i, [u], dn, COMBINE["add"])
        np.testing.assert_array_equal(lib.main(x, i, u), want)
    with pytest.raises(AotRuntimeError, match="update dim 0 and the indices differ"):
        lib.main(np.zeros((3, 3), np.float32), np.zeros((2, 1), np.int32),
                 np.zeros((3, 3), np.float32))


def test_scatter_result_feeds_more_work():
    """A scatter in the middle of a program: fused producers of its operands, a consumer."""
    text = """func.func @main(%x: tensor<4x3xf32>, %i: tensor<5xi32>, %u: tensor<5x3xf32>) -> tensor<4x3xf32> {
  %e = stablehlo.exponential %u : tensor<5x3xf32>
  %k = stablehlo.reshape %i : (tensor<5xi32>) -> tensor<5x1xi32>
  %z = stablehlo.negate %x : tensor<4x3xf32>
  %s = "stablehlo.scatter"(%z, %k, %e) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %m = stablehlo.maximum %a, %b : tensor<f32>
    stablehlo.return %m : tensor<f32>
  }) : (tensor<4x3xf32>, tensor<5x1xi32>, tensor<5x3xf32>) -> tensor<4x3xf32>
  %r = stablehlo.multiply %s, %s : tensor<4x3xf32>
  return %r : tensor<4x3xf32>
}"""  # noqa: E501
    rng = np.random.default_rng(7)
    x = rng.standard_normal((4, 3)).astype(np.float32)
    i = np.array([3, 0, 3, 9, -1], np.int32)
    u = rng.standard_normal((5, 3)).astype(np.float32)
    dn = dict(update_window_dims=(1,), inserted_window_dims=(0,),
              scatter_dims_to_operand_dims=(0,), index_vector_dim=1)
    (s,) = ref_scatter([-x], i.reshape(5, 1), [np.exp(u)], dn, COMBINE["maximum"])
    np.testing.assert_allclose(aot.compile(text, name="s_mid").main(x, i, u), s * s, rtol=1e-6)


# ----------------------------------------------------------------------------- errors


def _gather_with(dn, sizes=(1, 4), x_t="tensor<5x4xf32>", i_t="tensor<3x1xi32>",
                 out_t="tensor<3x4xf32>"):
    return gather_text(x_t, i_t, out_t, dn, sizes)


ROWS = dict(offset_dims=(1,), collapsed_slice_dims=(0,), start_index_map=(0,), index_vector_dim=1)


@pytest.mark.parametrize("text,message", [
    (_gather_with(dict(ROWS, collapsed_slice_dims=())), "must add up to the operand's rank"),
    (_gather_with(dict(ROWS, start_index_map=(0, 1))), "start_index_map has 2 entries"),
    (_gather_with(ROWS, sizes=(1, 5)), "slice size 5 of dim 1 does not fit"),
    (_gather_with(ROWS, sizes=(2, 4)), "collapsed or batching dim 0 must be 1"),
    (_gather_with(dict(ROWS, index_vector_dim=3)), "index_vector_dim 3 out of range"),
    (_gather_with(ROWS, out_t="tensor<3x5xf32>"), "does not match the inferred type"),
    (_gather_with(ROWS, i_t="tensor<3x1xf32>"), "indices must be integers"),
    (_gather_with(ROWS).replace("offset_dims = [1]", "offset_dims = [1], bogus = [1]"),
     "unknown gather dimension number 'bogus'"),
    (scatter_text(["tensor<4x3xf32>"], "tensor<5x1xi32>", ["tensor<5x4xf32>"],
                  dict(update_window_dims=(1,), inserted_window_dims=(0,),
                       scatter_dims_to_operand_dims=(0,), index_vector_dim=1),
                  body_of("add", "f32")), "update window dim 1 \\(4\\) is larger"),
    (scatter_text(["tensor<4x3xf32>"], "tensor<5x1xi32>", ["tensor<6x3xf32>"],
                  dict(update_window_dims=(1,), inserted_window_dims=(0,),
                       scatter_dims_to_operand_dims=(0,), index_vector_dim=1),
                  body_of("add", "f32")), "update scatter dim 0 \\(6\\) differs"),
    (scatter_text(["tensor<4x3xf32>"], "tensor<5x1xi32>", ["tensor<5x3xf32>"],
                  dict(update_window_dims=(1,), inserted_window_dims=(0,),
                       scatter_dims_to_operand_dims=(0,), index_vector_dim=1),
                  ["%s = stablehlo.add %a0, %b0 : tensor<f32>",
                   "stablehlo.return %s, %s : tensor<f32>, tensor<f32>"]),
     "update region must return"),
    (scatter_text(["tensor<4x3xf32>"], "tensor<5x1xi32>", ["tensor<5x3xf32>"],
                  dict(update_window_dims=(1,), inserted_window_dims=(0,),
                       scatter_dims_to_operand_dims=(0,), index_vector_dim=1),
                  ["%s = stablehlo.dot %a0, %b0 : (tensor<f32>, tensor<f32>) -> tensor<f32>",
                   "stablehlo.return %s : tensor<f32>"]),
     "only elementwise ops are supported in a scatter region"),
])
def test_compile_errors(text, message):
    with pytest.raises(aot.CompileError, match=message):
        aot.compile(text, name="bad")


# ----------------------------------------------------------------------------- memory safety

FENCED = {
    "gather_clamped_windows": (
        _gather_with(dict(offset_dims=(1, 2), start_index_map=(0, 1), index_vector_dim=1),
                     sizes=(3, 2), i_t="tensor<4x2xi32>", out_t="tensor<4x3x2xf32>"),
        "[np.arange(20, dtype=np.float32).reshape(5, 4), "
        "np.array([[-100, 100], [4, 3], [2, -1], [1000000, -7]], np.int32)]",
        "np.stack([np.arange(20, dtype=np.float32).reshape(5, 4)[a:a + 3, b:b + 2] "
        "for a, b in [(0, 2), (2, 2), (2, 0), (2, 0)]])"),
    "scatter_out_of_range": (
        scatter_text(["tensor<5x4xf32>"], "tensor<4x1xi32>", ["tensor<4x2x4xf32>"],
                     dict(update_window_dims=(1, 2), scatter_dims_to_operand_dims=(0,),
                          index_vector_dim=1), body_of("add", "f32")),
        "[np.zeros((5, 4), np.float32), np.array([[4], [-1], [3], [1000]], np.int32), "
        "np.ones((4, 2, 4), np.float32)]",
        "np.array([[0] * 4, [0] * 4, [0] * 4, [1] * 4, [1] * 4], np.float32)"),
}


@pytest.mark.parametrize("name", sorted(FENCED))
def test_no_access_outside_buffers(name):
    """Inputs fenced by PROT_NONE pages (the driver of e2e/test_memory_safety.py, in fenced.py)."""
    from fenced import DRIVER
    text, args, want = FENCED[name]
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([ROOT, TESTS]))
    proc = subprocess.run([sys.executable, "-c", DRIVER, text, args, want], env=env,
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0 and "ok" in proc.stdout, proc.stdout + proc.stderr


def test_large_gather_and_scatter():
    """Outputs big enough for the thread pool (a gather fusion splits its rows across
    threads; scatter stays one sequential kernel)."""
    dn_g = dict(offset_dims=(1,), collapsed_slice_dims=(0,), start_index_map=(0,),
                index_vector_dim=1)
    dn_s = dict(update_window_dims=(1,), inserted_window_dims=(0,),
                scatter_dims_to_operand_dims=(0,), index_vector_dim=1)
    rng = np.random.default_rng(11)
    table = rng.standard_normal((1000, 16)).astype(np.float32)
    ids = rng.integers(-5, 1005, (5000, 1)).astype(np.int32)
    lib = aot.compile(gather_text("tensor<1000x16xf32>", "tensor<?x1xi32>", "tensor<?x16xf32>",
                                  dn_g, (1, 16)), name="g_large")
    np.testing.assert_array_equal(lib.main(table, ids), table[np.clip(ids[:, 0], 0, 999)])
    upd = rng.integers(-3, 4, (5000, 16)).astype(np.float32)
    text = scatter_text(["tensor<1000x16xf32>"], "tensor<?x1xi32>", ["tensor<?x16xf32>"], dn_s,
                        body_of("add", "f32"))
    (want,) = ref_scatter([table], ids, [upd], dn_s, COMBINE["add"])
    np.testing.assert_array_equal(aot.compile(text, name="s_large").main(table, ids, upd), want)
