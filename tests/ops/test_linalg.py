"""triangular_solve and cholesky (lowering/ops/linalg.py) against numpy: every flag
combination, batch dims, f32, f64 and f16, static and dynamic shapes, empty matrices and
batches, only the referenced triangle read, and the errors (located at compile time, named
at run time). The JAX-exported programs are in the conformance corpus (solve_triangular_*,
triangular_solve_*, cholesky_*, cho_*).

Inputs are well conditioned (diagonally dominant triangles, x x^T + n I for Cholesky), so
the f64 references bound the errors by a few ulps times the order: f32 rtol 1e-5.
"""
import itertools

import ml_dtypes
import numpy as np
import pytest

import aot
from abi import AotRuntimeError
from lowering.ir.core import CompileError

TRANSPOSES = ("NO_TRANSPOSE", "TRANSPOSE", "ADJOINT")
FLAGS = list(itertools.product((True, False), (True, False), (True, False), TRANSPOSES))
TOL = {"f32": dict(rtol=1e-5, atol=1e-5), "f64": dict(rtol=1e-12, atol=1e-12),
       "f16": dict(rtol=1e-2, atol=1e-2), "bf16": dict(rtol=4e-2, atol=4e-2)}
NP = {"f32": np.float32, "f64": np.float64, "f16": np.float16, "bf16": ml_dtypes.bfloat16}


def tri(rng, shape, dtype):
    """Both triangles filled with [-1, 1) (only one is read), a diagonal of magnitude n..n+1."""
    n = shape[-1]
    a = rng.uniform(-1.0, 1.0, shape)
    i = np.arange(n)
    a[..., i, i] = rng.uniform(n, n + 1.0, shape[:-1]) * rng.choice([-1.0, 1.0], shape[:-1])
    return a.astype(dtype)


def spd(rng, shape, dtype):
    x = rng.uniform(-1.0, 1.0, shape)
    return (x @ np.swapaxes(x, -1, -2) + shape[-1] * np.eye(shape[-1])).astype(dtype)


def solve_ref(a, b, left, lower, unit, transpose):
    """x with op(a) x = b (left) or x op(a) = b, in f64, reading only a's triangle."""
    a, b = a.astype(np.float64), b.astype(np.float64)
    t = np.tril(a) if lower else np.triu(a)
    if unit:
        n = a.shape[-1]
        t = t * (1 - np.eye(n)) + np.eye(n)
    if transpose != "NO_TRANSPOSE":
        t = np.swapaxes(t, -1, -2)
    if left:
        return np.linalg.solve(t, b)
    return np.swapaxes(np.linalg.solve(np.swapaxes(t, -1, -2), np.swapaxes(b, -1, -2)), -1, -2)


def cholesky_ref(a, lower):
    a = a.astype(np.float64)
    if lower:
        return np.linalg.cholesky(a)
    return np.swapaxes(np.linalg.cholesky(np.swapaxes(a, -1, -2)), -1, -2)


def ty(shape, elem):
    return "tensor<" + "".join(("?" if d is None else str(d)) + "x" for d in shape) + elem + ">"


def solve_op(res, a, b, at, bt, left, lower, unit, transpose):
    attrs = (f"left_side = {str(left).lower()}, lower = {str(lower).lower()}, "
             f"transpose_a = #stablehlo<transpose {transpose}>, unit_diagonal = {str(unit).lower()}")
    return (f'{res} = "stablehlo.triangular_solve"({a}, {b}) {{{attrs}}} : ({at}, {bt}) -> {bt}')


def solve_program(elem, a_shape, left_shape, right_shape, flags):
    """One @main(a, b_left, b_right) returning one solve per flag combination."""
    at, lt, rt = ty(a_shape, elem), ty(left_shape, elem), ty(right_shape, elem)
    lines, results, types = [], [], []
    for k, (left, lower, unit, transpose) in enumerate(flags):
        b, bt = ("%bl", lt) if left else ("%br", rt)
        lines.append("  " + solve_op(f"%r{k}", "%a", b, at, bt, left, lower, unit, transpose))
        results.append(f"%r{k}")
        types.append(bt)
    return (f"func.func @main(%a: {at}, %bl: {lt}, %br: {rt}) -> ({', '.join(types)}) {{\n"
            + "\n".join(lines) + f"\n  return {', '.join(results)} : {', '.join(types)}\n}}")


def check_solves(lib, flags, a, bl, br, elem):
    got = lib.main(a, bl, br)
    got = got if isinstance(got, tuple) else (got,)
    for x, (left, lower, unit, transpose) in zip(got, flags):
        want = solve_ref(a, bl if left else br, left, lower, unit, transpose)
        what = f"left_side={left} lower={lower} unit_diagonal={unit} {transpose} {a.shape}"
        assert x.dtype == NP[elem] and x.shape == want.shape, what
        np.testing.assert_allclose(x.astype(np.float64), want, err_msg=what, **TOL[elem])


@pytest.mark.parametrize("elem", ["f32", "f64"])
@pytest.mark.parametrize("batch", [(), (2, 3)])
def test_triangular_solve_every_flag_combination(elem, batch):
    m, n = 5, 3
    a_shape, l_shape, r_shape = batch + (m, m), batch + (m, n), batch + (n, m)
    lib = aot.compile(solve_program(elem, a_shape, l_shape, r_shape, FLAGS), name=f"ts_{elem}")
    rng = np.random.default_rng(len(batch))
    dt = NP[elem]
    a = tri(rng, a_shape, dt)
    check_solves(lib, FLAGS, a, rng.uniform(-2, 2, l_shape).astype(dt),
                 rng.uniform(-2, 2, r_shape).astype(dt), elem)


@pytest.mark.parametrize("elem", ["f16", "bf16"])
def test_triangular_solve_and_cholesky_in_16_bits_compute_in_f32(elem):
    flags = [(True, True, False, "NO_TRANSPOSE"), (False, False, True, "TRANSPOSE")]
    lib = aot.compile(solve_program(elem, (4, 4), (4, 2), (2, 4), flags), name=f"ts_{elem}")
    rng = np.random.default_rng(3)
    dt = NP[elem]
    check_solves(lib, flags, tri(rng, (4, 4), dt), rng.uniform(-2, 2, (4, 2)).astype(dt),
                 rng.uniform(-2, 2, (2, 4)).astype(dt), elem)
    for lower in (True, False):
        lib = aot.compile(cholesky_program((2, 5, 5), elem, lower), name=f"chol_{elem}")
        a = spd(rng, (2, 5, 5), dt)
        got = lib.main(a)
        assert got.dtype == dt
        np.testing.assert_allclose(got.astype(np.float64), cholesky_ref(a, lower), **TOL[elem])


def test_triangular_solve_reads_one_triangle_and_not_a_unit_diagonal():
    """NaNs in the triangle not referenced, and on the diagonal with unit_diagonal, change
    nothing."""
    flags = [(True, True, True, "NO_TRANSPOSE"), (False, False, True, "ADJOINT")]
    lib = aot.compile(solve_program("f32", (4, 4), (4, 3), (3, 4), flags), name="ts_tri")
    rng = np.random.default_rng(4)
    a = tri(rng, (4, 4), np.float32)
    bl, br = rng.uniform(-2, 2, (4, 3)).astype(np.float32), rng.uniform(-2, 2, (3, 4)).astype(np.float32)
    poisoned = a.copy()
    poisoned[np.triu_indices(4)] = np.nan  # lower, unit: only below the diagonal is read
    got_lower = lib.main(poisoned, bl, br)[0]
    poisoned = a.copy()
    poisoned[np.tril_indices(4)] = np.nan  # upper, unit: only above it
    got_upper = lib.main(poisoned, bl, br)[1]
    np.testing.assert_allclose(got_lower, solve_ref(a, bl, *flags[0]), **TOL["f32"])
    np.testing.assert_allclose(got_upper, solve_ref(a, br, *flags[1]), **TOL["f32"])


DYN_FLAGS = [(True, True, False, "NO_TRANSPOSE"), (True, False, True, "TRANSPOSE"),
             (False, True, False, "ADJOINT"), (False, False, False, "NO_TRANSPOSE")]


def test_triangular_solve_dynamic_shapes_and_empty():
    """One build, every size: batches, orders and right-hand sides of 0 included."""
    lib = aot.compile(solve_program("f32", (None, None, None), (None, None, None),
                                    (None, None, None), DYN_FLAGS), name="ts_dyn")
    rng = np.random.default_rng(5)
    # (128, 16, 4): a has 2^15 elements, enough for the batch to be split over threads
    for nb, m, n in [(1, 1, 1), (3, 6, 2), (2, 9, 5), (0, 3, 2), (2, 0, 3), (2, 4, 0), (0, 0, 0),
                     (128, 16, 4)]:
        a = tri(rng, (nb, m, m), np.float32)
        bl = rng.uniform(-2, 2, (nb, m, n)).astype(np.float32)
        br = rng.uniform(-2, 2, (nb, n, m)).astype(np.float32)
        check_solves(lib, DYN_FLAGS, a, bl, br, "f32")


def test_triangular_solve_right_side_rows_split_over_threads():
    """x op(a) = b for one matrix: the rows of x are independent systems, run on threads when
    b is big (2^15 elements here)."""
    flags = [(False, True, False, "NO_TRANSPOSE"), (False, False, True, "TRANSPOSE")]
    lib = aot.compile(solve_program("f32", (None, None), (None, None), (None, None), flags),
                      name="ts_rows")
    rng = np.random.default_rng(8)
    for rows in (8192, 3):
        a = tri(rng, (4, 4), np.float32)
        br = rng.uniform(-2, 2, (rows, 4)).astype(np.float32)
        got = lib.main(a, np.zeros((4, 0), np.float32), br)
        for x, f in zip(got, flags):
            np.testing.assert_allclose(x, solve_ref(a, br, *f), **TOL["f32"])


def test_triangular_solve_static_empty():
    flags = [(True, True, False, "NO_TRANSPOSE"), (False, False, False, "TRANSPOSE")]
    for a_shape, l_shape, r_shape in [((0, 0), (0, 3), (3, 0)), ((0, 3, 3), (0, 3, 2), (0, 2, 3))]:
        lib = aot.compile(solve_program("f32", a_shape, l_shape, r_shape, flags), name="ts_empty")
        got = lib.main(np.zeros(a_shape, np.float32), np.zeros(l_shape, np.float32),
                       np.zeros(r_shape, np.float32))
        assert [g.shape for g in got] == [l_shape, r_shape]


@pytest.mark.parametrize("a_shape, b_shape, left, message", [
    ((2, 3, 4), (2, 3, 2), True, "a is not square in its last two dims: 3 != 4"),
    ((2, 3, 3), (2, 4, 2), True, "b's dim 1 must be a's order: 3 != 4"),
    ((2, 3, 3), (2, 2, 4), False, "b's dim 2 must be a's order: 3 != 4"),
    ((2, 3, 3), (1, 3, 2), True, "batch dim 0 of a and b differ: 2 != 1"),
])
def test_triangular_solve_dynamic_shape_errors(a_shape, b_shape, left, message):
    t = ty((None, None, None), "f32")
    text = (f"func.func @main(%a: {t}, %b: {t}) -> {t} {{\n  "
            + solve_op("%0", "%a", "%b", t, t, left, True, False, "NO_TRANSPOSE")
            + f"\n  return %0 : {t}\n}}")
    lib = aot.compile(text, name="ts_dyn_bad")
    with pytest.raises(AotRuntimeError, match=message) as info:
        lib.main(np.ones(a_shape, np.float32), np.ones(b_shape, np.float32))
    assert "triangular_solve" in str(info.value)


SOLVE = ('%0 = "stablehlo.triangular_solve"(%a, %b) {{{attrs}}} : ({at}, {bt}) -> {rt}')
GOOD = ("left_side = true, lower = true, transpose_a = #stablehlo<transpose NO_TRANSPOSE>, "
        "unit_diagonal = false")


A3, B32 = "tensor<3x3xf32>", "tensor<3x2xf32>"
RIGHT = GOOD.replace("left_side = true", "left_side = false")
BAD_T = GOOD.replace("NO_TRANSPOSE", "TRANSPOSE_INVALID")
INT_LOWER = GOOD.replace("lower = true", "lower = 1 : i64")
NO_UNIT = GOOD.replace(", unit_diagonal = false", "")


@pytest.mark.parametrize("at, bt, rt, attrs, message", [
    ("tensor<3x4xf32>", B32, B32, GOOD, "a must be square in its last two dims, got tensor<3x4xf32>"),
    ("tensor<3xf32>", "tensor<3xf32>", "tensor<3xf32>", GOOD, "a must have rank 2 or more"),
    (A3, "tensor<4x2xf32>", "tensor<4x2xf32>", GOOD, "b's dim 0 must be a's order \\(left side\\): 3 != 4"),
    (A3, B32, B32, RIGHT, "b's dim 1 must be a's order \\(right side\\): 3 != 2"),
    ("tensor<2x3x3xf32>", "tensor<4x3x2xf32>", "tensor<4x3x2xf32>", GOOD,
     "batch dim 0 of a and b differ: 2 != 4"),
    (A3, "tensor<2x3x2xf32>", "tensor<2x3x2xf32>", GOOD, "a and b must have the same rank"),
    (A3, "tensor<3x2xf64>", "tensor<3x2xf64>", GOOD, "a and b must have the same element type"),
    ("tensor<3x3xi32>", "tensor<3x2xi32>", "tensor<3x2xi32>", GOOD, "a must have a float element type"),
    (A3, B32, A3, GOOD, "result type tensor<3x3xf32> does not match"),
    (A3, B32, B32, BAD_T, "transpose_a must be one of NO_TRANSPOSE, TRANSPOSE, ADJOINT, got 'TRANSPOSE_I"),
    (A3, B32, B32, INT_LOWER, "'lower' must be true or false, got 1"),
    (A3, B32, B32, NO_UNIT, "missing attribute 'unit_diagonal'"),
])
def test_triangular_solve_errors_are_located(at, bt, rt, attrs, message):
    text = (f"func.func @main(%a: {at}, %b: {bt}) -> {rt} {{\n  "
            + SOLVE.format(attrs=attrs, at=at, bt=bt, rt=rt) + f"\n  return %0 : {rt}\n}}")
    with pytest.raises(CompileError, match=message) as info:
        aot.compile(text, name="ts_bad")
    assert "<string>:2:8: error: 'mhlo.triangular_solve'" in str(info.value)


# ----------------------------------------------------------------------------- cholesky


def cholesky_program(shape, elem, lower, generic=False):
    t = ty(shape, elem)
    if generic:  # MHLO's generic form, as older exporters print it
        op = f'%0 = "mhlo.cholesky"(%a) {{lower = {str(lower).lower()}}} : ({t}) -> {t}'
    else:  # the pretty form JAX prints; `lower` is false when absent
        op = f"%0 = stablehlo.cholesky %a{', lower = true' if lower else ''} : {t}"
    return f"func.func @main(%a: {t}) -> {t} {{\n  {op}\n  return %0 : {t}\n}}"


@pytest.mark.parametrize("elem", ["f32", "f64"])
@pytest.mark.parametrize("lower", [True, False])
@pytest.mark.parametrize("batch", [(), (2, 3)])
def test_cholesky(elem, lower, batch):
    """Only the referenced triangle is read (NaN in the other), the other is written as zeros."""
    shape = batch + (6, 6)
    lib = aot.compile(cholesky_program(shape, elem, lower), name=f"chol_{elem}")
    a = spd(np.random.default_rng(6), shape, NP[elem])
    poisoned = a.copy()
    poisoned[..., np.triu_indices(6, 1)[0] if lower else np.tril_indices(6, -1)[0],
             np.triu_indices(6, 1)[1] if lower else np.tril_indices(6, -1)[1]] = np.nan
    got = lib.main(poisoned)
    want = cholesky_ref(a, lower)
    assert got.dtype == NP[elem] and got.shape == shape
    np.testing.assert_allclose(got, want, **TOL[elem])
    other = np.triu(np.ones((6, 6)), 1) if lower else np.tril(np.ones((6, 6)), -1)
    assert (got[..., other.astype(bool)] == 0).all()


def test_cholesky_dynamic_shapes_generic_form_and_empty():
    lib = aot.compile(cholesky_program((None, None, None), "f32", True, generic=True), name="chol_dyn")
    rng = np.random.default_rng(7)
    for shape in [(1, 1, 1), (3, 5, 5), (2, 17, 17), (0, 4, 4), (3, 0, 0), (128, 16, 16)]:
        a = spd(rng, shape, np.float32)
        got = lib.main(a)
        assert got.shape == shape
        np.testing.assert_allclose(got, cholesky_ref(a, True), **TOL["f32"])
    with pytest.raises(AotRuntimeError, match="a is not square in its last two dims: 3 != 4"):
        lib.main(np.ones((2, 3, 4), np.float32))
    lib = aot.compile(cholesky_program((0, 0), "f32", False), name="chol_empty")
    assert lib.main(np.zeros((0, 0), np.float32)).shape == (0, 0)


@pytest.mark.parametrize("lower", [True, False])
def test_cholesky_not_positive_definite_gives_nan_not_a_crash(lower):
    """StableHLO leaves this to the implementation: NaN from the first failing pivot on."""
    lib = aot.compile(cholesky_program((3, 3), "f32", lower), name="chol_npd")
    got = lib.main(np.array([[1, 0, 0], [0, -1, 0], [0, 0, 1]], np.float32))
    got = got if lower else got.T
    assert got[0, 0] == 1 and np.isnan(got[1, 1]) and np.isnan(got[2, 1])


POTRF = """func.func @main(%a: tensor<?x3x3xf32>) -> (tensor<?x3x3xf32>, tensor<?xi32>) {
  %l, %info = stablehlo.custom_call @lapack_spotrf_ffi(%a) {mhlo.backend_config = {uplo = UPLO : ui8}, mhlo.frontend_attributes = {num_batch_dims = "1"}} : (tensor<?x3x3xf32>) -> (tensor<?x3x3xf32>, tensor<?xi32>)
  return %l, %info : tensor<?x3x3xf32>, tensor<?xi32>
}"""  # noqa: E501


@pytest.mark.parametrize("uplo", ["L", "U"])
def test_lapack_potrf_reports_the_first_failing_pivot(uplo):
    """JAX's CPU Cholesky, `@lapack_spotrf_ffi` -> (factor, info): info is LAPACK's, 0 or
    the 1-based row of the first pivot that is not positive, per matrix."""
    lib = aot.compile(POTRF.replace("UPLO", str(ord(uplo))), name=f"potrf_{uplo}")
    spd = np.array([[4, 2, 0], [2, 5, 1], [0, 1, 3]], np.float32)
    bad_at_2 = np.array([[1, 2, 0], [2, 1, 0], [0, 0, 1]], np.float32)
    bad_at_3 = np.array([[1, 0, 0], [0, 1, 0], [0, 0, -1]], np.float32)
    nan_at_1 = np.array([[np.nan, 0, 0], [0, 1, 0], [0, 0, 1]], np.float32)
    factor, info = lib.main(np.stack([spd, bad_at_2, bad_at_3, nan_at_1]))
    np.testing.assert_array_equal(info, [0, 2, 3, 1])
    want = np.linalg.cholesky(spd.astype(np.float64))
    np.testing.assert_allclose(factor[0], want if uplo == "L" else want.T, rtol=1e-6, atol=1e-6)
    assert lib.main(np.zeros((0, 3, 3), np.float32))[1].shape == (0,)


def test_lapack_calls_outside_jax_s_forms_are_named():
    text = POTRF.replace("UPLO", "88")
    with pytest.raises(CompileError, match="uplo 'L' or 'U'"):
        aot.compile(text, name="potrf_bad")
    text = POTRF.replace("UPLO", "76").replace('num_batch_dims = "1"', 'num_batch_dims = "0"')
    with pytest.raises(CompileError, match="num_batch_dims = 0 on rank 3 is not supported"):
        aot.compile(text, name="potrf_bad2")


def test_unknown_lapack_call_names_itself_and_the_known_ones():
    """jnp.linalg.eig exports `@lapack_sgeev_ffi`, which has no rule here: the error names
    it at its line and lists the targets that are supported, the LAPACK ones among them."""
    text = POTRF.replace("lapack_spotrf_ffi", "lapack_sgeev_ffi").replace("UPLO", "76")
    with pytest.raises(CompileError) as info:
        aot.compile(text, name="geev_bad")
    message = str(info.value)
    assert "<string>:2:" in message and "custom call @lapack_sgeev_ffi is not supported" in message
    assert "@lapack_spotrf_ffi" in message and "@shape_assertion" in message


@pytest.mark.parametrize("t, rt, message", [
    ("tensor<3x4xf32>", "tensor<3x4xf32>", "a must be square in its last two dims"),
    ("tensor<3xf32>", "tensor<3xf32>", "a must have rank 2 or more"),
    ("tensor<3x3xi32>", "tensor<3x3xi32>", "a must have a float element type"),
    ("tensor<3x3xf32>", "tensor<3x3xf64>", "result type tensor<3x3xf64> does not match"),
])
def test_cholesky_errors_are_located(t, rt, message):
    text = (f"func.func @main(%a: {t}) -> {rt} {{\n"
            f'  %0 = "stablehlo.cholesky"(%a) {{lower = true}} : ({t}) -> {rt}\n  return %0 : {rt}\n}}')
    with pytest.raises(CompileError, match=message) as info:
        aot.compile(text, name="chol_bad")
    assert "<string>:2:8: error: 'mhlo.cholesky'" in str(info.value)


def test_mhlo_spelling():
    text = """func.func @main(%a: tensor<3x3xf64>, %b: tensor<2x3xf64>) -> tensor<2x3xf64> {
      %0 = "mhlo.triangular_solve"(%a, %b) {left_side = false, lower = false,
          transpose_a = #mhlo<transpose ADJOINT>, unit_diagonal = false}
          : (tensor<3x3xf64>, tensor<2x3xf64>) -> tensor<2x3xf64>
      return %0 : tensor<2x3xf64>
    }"""
    lib = aot.compile(text, name="ts_mhlo")
    rng = np.random.default_rng(9)
    a, b = tri(rng, (3, 3), np.float64), rng.uniform(-2, 2, (2, 3))
    np.testing.assert_allclose(lib.main(a, b), solve_ref(a, b, False, False, False, "ADJOINT"),
                               **TOL["f64"])


def test_every_loop_form_on_the_emulated_cuda_grid(tmp_path):
    """The cuda target's kernels (tests/tooling/gpu_emu): every solve form, both Cholesky
    forms, batches split over the grid, empty batches and matrices."""
    from tooling.gpu_emu import build_emulated
    rng = np.random.default_rng(10)
    dyn = (None, None, None)
    lib = build_emulated(solve_program("f32", dyn, dyn, dyn, FLAGS), "ts", str(tmp_path))
    for nb, m, n in [(2, 5, 3), (1, 7, 1), (0, 3, 2), (3, 0, 2)]:
        check_solves(lib, FLAGS, tri(rng, (nb, m, m), np.float32),
                     rng.uniform(-2, 2, (nb, m, n)).astype(np.float32),
                     rng.uniform(-2, 2, (nb, n, m)).astype(np.float32), "f32")
    for lower in (True, False):
        lib = build_emulated(cholesky_program(dyn, "f64", lower), f"chol{int(lower)}", str(tmp_path))
        for shape in [(2, 6, 6), (1, 1, 1), (0, 2, 2)]:
            a = spd(rng, shape, np.float64)
            np.testing.assert_allclose(lib.main(a), cholesky_ref(a, lower), **TOL["f64"])


# ----------------------------------------------------------------------------- lu (getrf)

GETRF = """func.func @main(%a: tensor<?x?x?xf64>) -> (tensor<?x?x?xf64>, tensor<?x?xi32>, tensor<?xi32>) {
  %lu, %piv, %info = stablehlo.custom_call @lapack_dgetrf_ffi(%a) {mhlo.backend_config = {}, mhlo.frontend_attributes = {num_batch_dims = "1"}} : (tensor<?x?x?xf64>) -> (tensor<?x?x?xf64>, tensor<?x?xi32>, tensor<?xi32>)
  return %lu, %piv, %info : tensor<?x?x?xf64>, tensor<?x?xi32>, tensor<?xi32>
}"""  # noqa: E501


def np_getrf(a):
    """LAPACK's getf2 in numpy: (lu, 1-based pivots, info)."""
    lu = a.astype(np.float64).copy()
    m, n = lu.shape
    piv, info = [], 0
    for j in range(min(m, n)):
        p = j + int(np.argmax(np.abs(lu[j:, j])))
        piv.append(p + 1)
        lu[[j, p]] = lu[[p, j]]
        if lu[j, j] == 0:
            info = info or j + 1
            continue
        lu[j + 1:, j] *= 1.0 / lu[j, j]
        lu[j + 1:, j + 1:] -= np.outer(lu[j + 1:, j], lu[j, j + 1:])
    return lu, np.array(piv, np.int32), info


@pytest.mark.parametrize("target", ["cpu", "cuda"])
def test_lapack_getrf_any_shape_from_one_library(target, tmp_path):
    """JAX's CPU LU (`@lapack_dgetrf_ffi`): square, wide, tall, singular (info names the first
    zero pivot's column) and empty matrices from one dynamic-shape library; P L U = a."""
    from tooling.gpu_emu import build_emulated
    lib = (build_emulated(GETRF, "getrf", str(tmp_path)) if target == "cuda"
           else aot.compile(GETRF, name="getrf"))
    rng = np.random.default_rng(21)
    singular = np.array([[[1.0, 2.0, 3.0], [2.0, 4.0, 6.0], [1.0, 0.0, 1.0]]])
    for a in [rng.standard_normal((2, 5, 5)), rng.standard_normal((1, 3, 6)),
              rng.standard_normal((3, 6, 2)), singular, np.zeros((2, 0, 3)), np.zeros((0, 4, 4))]:
        lu, piv, info = lib.main(a)
        assert lu.shape == a.shape and piv.shape == a.shape[:1] + (min(a.shape[1:]),)
        for i in range(a.shape[0]):
            want_lu, want_piv, want_info = np_getrf(a[i])
            np.testing.assert_array_equal(piv[i], want_piv)
            assert info[i] == want_info
            np.testing.assert_allclose(lu[i], want_lu, rtol=1e-12, atol=1e-12)
            m, n = a.shape[1:]
            k = min(m, n)
            lower = np.tril(lu[i], -1)[:, :k] + np.eye(m, k)
            upper = np.triu(lu[i])[:k]
            perm = np.arange(m)
            for j, p in enumerate(piv[i] - 1):
                perm[[j, p]] = perm[[p, j]]
            np.testing.assert_allclose((lower @ upper), a[i][perm], atol=1e-12)
    assert lib.main(singular)[2][0] == 3  # U's last pivot is zero: rank 2


QR = """func.func @main(%a: tensor<?x?x?xDT>) -> (tensor<?x?x?xDT>, tensor<?x?x?xDT>, tensor<?x?xDT>) {
  %qr, %tau = stablehlo.custom_call @lapack_Xgeqrf_ffi(%a) {mhlo.backend_config = {}, mhlo.frontend_attributes = {num_batch_dims = "1"}} : (tensor<?x?x?xDT>) -> (tensor<?x?x?xDT>, tensor<?x?xDT>)
  %q = stablehlo.custom_call @lapack_Xorgqr_ffi(%qr, %tau) {mhlo.backend_config = {}, mhlo.frontend_attributes = {num_batch_dims = "1"}} : (tensor<?x?x?xDT>, tensor<?x?xDT>) -> tensor<?x?x?xDT>
  return %q, %qr, %tau : tensor<?x?x?xDT>, tensor<?x?x?xDT>, tensor<?x?xDT>
}"""  # noqa: E501


@pytest.mark.parametrize("dt, x", [("f32", "s"), ("f64", "d")])
def test_lapack_qr_matches_lapack_through_numpy(dt, x):
    """jnp.linalg.qr's CPU export, `@lapack_{s,d}geqrf_ffi` then `@lapack_{s,d}orgqr_ffi`,
    one library for every [batch, m, n] with m >= n: Q and R are LAPACK's (numpy calls the
    same routines, so even the signs agree); a zero column below the diagonal is left as
    it is (tau 0)."""
    lib = aot.compile(QR.replace("DT", dt).replace("Xgeqrf", f"{x}geqrf").replace("Xorgqr", f"{x}orgqr"),
                      name=f"qr_{dt}")
    tol = 2e-5 if dt == "f32" else 1e-12
    rng = np.random.default_rng(3)
    zero_col = rng.standard_normal((1, 4, 3))
    zero_col[0, 1:, 0] = 0
    for a in [rng.standard_normal((2, 5, 3)), rng.standard_normal((1, 4, 4)),
              rng.standard_normal((3, 6, 1)), zero_col, rng.standard_normal((0, 3, 2))]:
        a = a.astype({"f32": np.float32, "f64": np.float64}[dt])
        q, qr, tau = lib.main(a)
        assert q.shape == a.shape and tau.shape == a.shape[:1] + (a.shape[2],)
        for i in range(a.shape[0]):
            want_q, want_r = np.linalg.qr(a[i].astype(np.float64))
            np.testing.assert_allclose(q[i], want_q, atol=tol)
            np.testing.assert_allclose(np.triu(qr[i][:a.shape[2]]), want_r, atol=tol * 4)
            np.testing.assert_allclose(q[i] @ np.triu(qr[i][:a.shape[2]]), a[i], atol=tol * 4)
        if a.shape == zero_col.shape and (a == zero_col.astype(a.dtype)).all():
            assert tau[0, 0] == 0 and qr[0, 0, 0] == a[0, 0, 0]


def test_qr_of_huge_and_tiny_columns():
    """Columns whose squares overflow (1e25) or underflow (1e-25) f32: the norm is taken of
    the column scaled by its largest element, as LAPACK's is; Q and R stay LAPACK's."""
    lib = aot.compile(QR.replace("DT", "f32").replace("Xgeqrf", "sgeqrf").replace("Xorgqr", "sorgqr"),
                      name="qr_f32")
    base = np.random.default_rng(5).standard_normal((2, 4, 3))
    a = (base * np.array([1e25, 1e-25])[:, None, None]).astype(np.float32)
    q, qr, _ = lib.main(a)
    for i in range(2):
        want_q, want_r = np.linalg.qr(a[i].astype(np.float64))
        np.testing.assert_allclose(q[i], want_q, atol=2e-5)
        np.testing.assert_allclose(np.triu(qr[i][:3]), want_r, rtol=1e-4, atol=0)


def test_householder_product_with_fewer_reflectors_than_columns():
    """jnp.linalg.qr(mode="complete") on a tall matrix pads qr to [m, m] and keeps n taus:
    columns n..m-1 start as the identity's; the result is LAPACK's complete Q."""
    text = """func.func @main(%a: tensor<6x3xf64>) -> tensor<6x6xf64> {
  %qr, %tau = stablehlo.custom_call @lapack_dgeqrf_ffi(%a) {mhlo.backend_config = {}, mhlo.frontend_attributes = {num_batch_dims = "0"}} : (tensor<6x3xf64>) -> (tensor<6x3xf64>, tensor<3xf64>)
  %z = stablehlo.constant dense<0.0> : tensor<f64>
  %p = stablehlo.pad %qr, %z, low = [0, 0], high = [0, 3], interior = [0, 0] : (tensor<6x3xf64>, tensor<f64>) -> tensor<6x6xf64>
  %q = stablehlo.custom_call @lapack_dorgqr_ffi(%p, %tau) {mhlo.backend_config = {}, mhlo.frontend_attributes = {num_batch_dims = "0"}} : (tensor<6x6xf64>, tensor<3xf64>) -> tensor<6x6xf64>
  return %q : tensor<6x6xf64>
}"""  # noqa: E501
    a = np.random.default_rng(4).standard_normal((6, 3))
    q = aot.compile(text, name="qr_complete").main(a)
    np.testing.assert_allclose(q, np.linalg.qr(a, mode="complete")[0], atol=1e-12)


def test_householder_product_refuses_more_columns_than_rows_by_name():
    lib = aot.compile(QR.replace("DT", "f32").replace("Xgeqrf", "sgeqrf").replace("Xorgqr", "sorgqr"),
                      name="qr_f32")
    with pytest.raises(AotRuntimeError, match="householder_product.*at most as many columns as rows"):
        lib.main(np.ones((1, 2, 3), np.float32))


SYEVD = """func.func @main(%a: tensor<?x?x?xDT>) -> (tensor<?x?x?xDT>, tensor<?x?xDT>, tensor<?xi32>) {
  %v, %w, %info = stablehlo.custom_call @lapack_Xsyevd_ffi(%a) {mhlo.backend_config = {mode = 86 : ui8, uplo = UPLO : ui8}, mhlo.frontend_attributes = {num_batch_dims = "1"}} : (tensor<?x?x?xDT>) -> (tensor<?x?x?xDT>, tensor<?x?xDT>, tensor<?xi32>)
  return %v, %w, %info : tensor<?x?x?xDT>, tensor<?x?xDT>, tensor<?xi32>
}"""  # noqa: E501


def _syevd(dt: str, uplo: str = "L"):
    x = "s" if dt == "f32" else "d"
    text = SYEVD.replace("DT", dt).replace("Xsyevd", f"{x}syevd").replace("UPLO", str(ord(uplo)))
    return aot.compile(text, name=f"syevd_{dt}_{uplo}")


@pytest.mark.parametrize("dt, uplo", [("f32", "L"), ("f64", "L"), ("f64", "U")])
def test_lapack_syevd_eigenpairs(dt, uplo):
    """jnp.linalg.eigh's CPU export, `@lapack_{s,d}syevd_ffi`, one library for every
    [batch, n, n]: values ascending as numpy's (LAPACK's); each vector a unit column with
    a v = w v, orthogonal to the others, equal to numpy's up to its sign where the value is
    simple; only the `uplo` triangle is read (the other holds garbage)."""
    lib = _syevd(dt, uplo)
    np_dt = {"f32": np.float32, "f64": np.float64}[dt]
    tol = 1e-5 if dt == "f32" else 1e-12
    rng = np.random.default_rng(7)
    cases = [rng.standard_normal((3, 5, 5)), rng.standard_normal((1, 1, 1)),
             rng.standard_normal((2, 24, 24)), np.diag([2.0, 1.0, 2.0, 0.5])[None],
             np.zeros((0, 3, 3))]
    for a in cases:
        sym = (a + np.swapaxes(a, -1, -2)) / 2
        garbage = np.tril(np.full(a.shape[1:], 99.0), -1)
        given = sym + (garbage.T if uplo == "L" else garbage)  # the unread triangle spoilt
        v, w, info = lib.main(given.astype(np_dt))
        assert v.shape == a.shape and w.shape == a.shape[:2] and (info == 0).all()
        for i in range(a.shape[0]):
            want_w, want_v = np.linalg.eigh(sym[i])
            scale = max(1.0, np.abs(want_w).max())
            np.testing.assert_allclose(w[i], want_w, atol=tol * scale * a.shape[1])
            np.testing.assert_allclose(v[i].T @ v[i], np.eye(a.shape[1]), atol=tol * a.shape[1])
            np.testing.assert_allclose(sym[i] @ v[i], v[i] * w[i], atol=tol * scale * a.shape[1])
            simple = np.min(np.abs(np.diff(want_w)), initial=1.0) > 1e-3
            if simple:
                signs = np.sign(np.sum(v[i] * want_v, axis=0))
                np.testing.assert_allclose(v[i] * signs, want_v, atol=tol * 100)


def test_lapack_syevd_scaled_and_not_converging():
    """Matrices at 1e30 and 1e-30 in f32 (squares out of range: the iteration runs on a
    scaled copy); a NaN does not converge: info 1, which jax's export turns into NaNs."""
    lib = _syevd("f32")
    base = np.random.default_rng(8).standard_normal((4, 4))
    base = base + base.T
    a = np.stack([base * 1e30, base * 1e-30, base]).astype(np.float32)
    a[2, 1, 0] = np.nan
    _, w, info = lib.main(a)
    np.testing.assert_array_equal(info, [0, 0, 1])
    want = np.linalg.eigvalsh(base)
    np.testing.assert_allclose(w[0] / 1e30, want, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(w[1] / 1e-30, want, rtol=1e-5, atol=1e-5)


GESDD = """func.func @main(%a: tensor<?xMxNxDT>) -> (tensor<?xKxDT>, tensor<?xUSHAPExDT>, tensor<?xVSHAPExDT>, tensor<?xi32>) {
  %w, %s, %u, %vt, %info = stablehlo.custom_call @lapack_Xgesdd_ffi(%a) {mhlo.backend_config = {mode = MODE : ui8}, mhlo.frontend_attributes = {num_batch_dims = "1"}} : (tensor<?xMxNxDT>) -> (tensor<?xMxNxDT>, tensor<?xKxDT>, tensor<?xUSHAPExDT>, tensor<?xVSHAPExDT>, tensor<?xi32>)
  return %s, %u, %vt, %info : tensor<?xKxDT>, tensor<?xUSHAPExDT>, tensor<?xVSHAPExDT>, tensor<?xi32>
}"""  # noqa: E501


def _gesdd(m: int, n: int, dt: str, full: bool, mode: str | None = None):
    k = min(m, n)
    u, vt = (f"{m}x{m}", f"{n}x{n}") if full else (f"{m}x{k}", f"{k}x{n}")
    mode = mode or ("A" if full else "S")
    text = (GESDD.replace("MxN", f"{m}x{n}").replace("USHAPE", u).replace("VSHAPE", vt)
            .replace("xKx", f"x{k}x").replace("DT", dt).replace("MODE", str(ord(mode)))
            .replace("Xgesdd", ("s" if dt == "f32" else "d") + "gesdd"))
    return aot.compile(text, name=f"gesdd_{m}x{n}_{dt}_{full}_{mode}")


@pytest.mark.parametrize("full", [True, False])
def test_lapack_gesdd_values_only_in_either_shape(full):
    """Mode N (jnp.linalg.svd(compute_uv=False), matrix_rank, norm(ord=2)): jax types u and
    vt full or reduced depending on the caller; either compiles, s as numpy's."""
    lib = _gesdd(6, 4, "f32", full, mode="N")
    a = np.random.default_rng(11).standard_normal((2, 6, 4)).astype(np.float32)
    s = lib.main(a)[0]
    np.testing.assert_allclose(s, np.linalg.svd(a.astype(np.float64), compute_uv=False), atol=2e-5)


@pytest.mark.parametrize("m, n, dt, full", [(5, 3, "f32", True), (5, 3, "f64", False),
                                            (3, 5, "f64", True), (3, 5, "f32", False),
                                            (4, 4, "f64", True)])
def test_lapack_gesdd_factors(m, n, dt, full):
    """jnp.linalg.svd's CPU export, `@lapack_{s,d}gesdd_ffi` (mode A full, S reduced), on a
    `?` batch: s descending as numpy's, u and vt orthogonal (completed where a's rank or the
    full form leaves columns undefined: a zero column, a rank-one matrix), u s vt = a."""
    lib = _gesdd(m, n, dt, full)
    np_dt = {"f32": np.float32, "f64": np.float64}[dt]
    tol = 2e-6 if dt == "f32" else 1e-13
    rng = np.random.default_rng(9)
    rank_one = np.outer(rng.standard_normal(m), rng.standard_normal(n))
    zero_col = rng.standard_normal((m, n))
    zero_col[:, 0] = 0
    a = np.stack([rng.standard_normal((m, n)), rank_one, zero_col, np.zeros((m, n))]).astype(np_dt)
    s, u, vt, info = lib.main(a)
    k = min(m, n)
    assert (info == 0).all() and s.shape == (4, k)
    for i in range(4):
        np.testing.assert_allclose(s[i], np.linalg.svd(a[i].astype(np.float64), compute_uv=False),
                                   atol=tol * 10)
        np.testing.assert_allclose(u[i].T @ u[i], np.eye(u.shape[-1]), atol=tol * 10)
        np.testing.assert_allclose(vt[i] @ vt[i].T, np.eye(vt.shape[-2]), atol=tol * 10)
        np.testing.assert_allclose((u[i][:, :k] * s[i]) @ vt[i][:k], a[i], atol=tol * 10)
    assert lib.main(np.zeros((0, m, n), np_dt))[0].shape == (0, k)


def test_lapack_gesdd_huge_values_and_nan():
    """Values at 1e30 (squares out of f32's range: the iteration runs on a scaled copy); a
    NaN does not converge (info 1, which jax's export turns into NaNs)."""
    lib = _gesdd(4, 3, "f32", False)
    base = np.random.default_rng(10).standard_normal((4, 3))
    a = np.stack([base * 1e30, base]).astype(np.float32)
    a[1, 2, 1] = np.nan
    s, _, _, info = lib.main(a)
    np.testing.assert_array_equal(info, [0, 1])
    np.testing.assert_allclose(s[0] / 1e30, np.linalg.svd(base, compute_uv=False), rtol=1e-5)
