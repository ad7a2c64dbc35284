"""Buffer-level (lmhlo) forms of the ops the tensor level has (lowering/passes/import_lhlo.py):
each program is written the way mhlo prints it, compiled, called with numpy arrays and
checked against numpy, or against the same program written on tensors where numpy has no
direct counterpart. Bad buffer-level input is a located error that says why."""
import os

import numpy as np
import pytest

import aot
from lowering.frontend.parser import parse_module
from lowering.ir.core import CompileError
from lowering.passes.pipeline import run_pipeline

DATA = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "data", "lhlo")
RNG = np.random.default_rng(7)


def build(name):
    return aot.compile(os.path.join(DATA, name + ".mlir"), name=name)


def f32(*shape):
    return RNG.standard_normal(shape).astype(np.float32)


# ----------------------------------------------------------------------------- kernels


def test_fft():
    lib = build("lhlo_fft")
    x = (f32(3, 8) + 1j * f32(3, 8)).astype(np.complex64)
    got = lib.main(x)
    assert got.dtype == np.complex64
    np.testing.assert_allclose(got, np.fft.fft(x.astype(np.complex128)), atol=1e-5)


def test_triangular_solve_and_cholesky():
    lib = build("lhlo_linalg")
    m = f32(4, 4).astype(np.float64)
    a = (m @ m.T + 4 * np.eye(4)).astype(np.float32)
    b = f32(4, 3)
    lo, x = lib.main(a, b)
    want = np.linalg.cholesky(a.astype(np.float64))
    np.testing.assert_allclose(np.tril(lo), want, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(x, np.linalg.solve(want, b.astype(np.float64)), rtol=1e-4, atol=1e-5)


def test_triangular_solve_column_major_layout_is_refused():
    path = os.path.join(DATA, "lhlo_column_major_solve.mlir")
    with open(path) as f:
        module = parse_module(f.read(), "lhlo_column_major_solve.mlir")
    with pytest.raises(CompileError, match=r"^lhlo_column_major_solve\.mlir:2:3: error: "
                       r"'lmhlo.triangular_solve': layout_a = \[0, 1\] is not row-major"):
        run_pipeline(module, "loops")


def test_sort_two_operands():
    lib = build("lhlo_sort2")
    k = np.round(f32(3, 6) * 2).astype(np.float32)  # ties: stability matters
    v = np.arange(18, dtype=np.int32).reshape(3, 6)
    ko, vo = lib.main(k, v)
    order = np.argsort(k, axis=1, kind="stable")
    np.testing.assert_array_equal(ko, np.take_along_axis(k, order, 1))
    np.testing.assert_array_equal(vo, np.take_along_axis(v, order, 1))


def test_gather_rows():
    lib = build("lhlo_gather")
    x, i = f32(5, 4), np.array([[4], [0], [2]], np.int32)
    np.testing.assert_array_equal(lib.main(x, i), x[i[:, 0]])


def test_scatter_add_rows():
    lib = build("lhlo_scatter")
    x, i, u = f32(5, 4), np.array([[1], [3], [1]], np.int32), f32(3, 4)
    want = x.copy()
    np.add.at(want, i[:, 0], u)
    np.testing.assert_allclose(lib.main(x, i, u), want, rtol=1e-6)


def test_convolution_matches_the_tensor_form():
    buffers = build("lhlo_conv")
    tensors = build("hlo_conv")
    x, w = f32(2, 5, 5, 3), f32(3, 3, 3, 4)
    got = buffers.main(x, w)
    np.testing.assert_allclose(got, tensors.main(x, w), rtol=1e-6, atol=1e-6)
    # and one output pixel by hand: the window centred on (2, 2) of image 1
    want = np.einsum("hwi,hwio->o", x[1, 1:4, 1:4].astype(np.float64), w)
    np.testing.assert_allclose(got[1, 2, 2], want, rtol=1e-5, atol=1e-5)


def test_reduce_window_max_pool():
    lib = build("lhlo_reduce_window")
    x = f32(4, 6)
    np.testing.assert_array_equal(lib.main(x), x.reshape(2, 2, 3, 2).max(axis=(1, 3)))


def test_select_and_scatter_max_pool_gradient():
    lib = build("lhlo_select_and_scatter")
    x, s = f32(4, 6), f32(2, 3)
    want = np.zeros_like(x)
    for r in range(2):
        for c in range(3):
            win = x[2 * r:2 * r + 2, 2 * c:2 * c + 2]
            dr, dc = np.unravel_index(np.argmax(win), win.shape)  # the first maximum
            want[2 * r + dr, 2 * c + dc] += s[r, c]
    np.testing.assert_array_equal(lib.main(x, s), want)


# ----------------------------------------------------------------------------- elementwise, elemental


def test_complex_real_imag():
    lib = build("lhlo_complex")
    re, im = f32(2, 3), f32(2, 3)
    c, r, i = lib.main(re, im)
    want = (re + 1j * im.astype(np.complex128)) ** 2
    np.testing.assert_allclose(c, want, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(r, want.real, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(i, want.imag, rtol=1e-5, atol=1e-6)


def test_data_movement():
    """iota, dynamic_slice, pad, concatenate, transpose, reverse and bitcast in one program."""
    lib = build("lhlo_data_movement")
    x, y, pv = f32(3, 4), f32(3, 2), np.float32(9.5)
    for i, j in ((1, 1), (5, -3)):  # out-of-range starts clamp, as in XLA
        io, ds, pd, cc, tr, rv, bc = lib.main(x, y, np.int32(i), np.int32(j), pv)
        si, sj = min(max(i, 0), 1), min(max(j, 0), 2)
        np.testing.assert_array_equal(ds, x[si:si + 2, sj:sj + 2])
    np.testing.assert_array_equal(io, x + np.arange(4, dtype=np.float32))
    want = np.full((6, 6), pv, np.float32)
    want[1::2, :4] = x
    np.testing.assert_array_equal(pd, want)
    np.testing.assert_array_equal(cc, np.concatenate([x, y], axis=1))
    np.testing.assert_array_equal(tr, x.T)
    np.testing.assert_array_equal(rv, x[::-1])
    np.testing.assert_array_equal(bc, x.reshape(12))


def test_clamp_select_convert_bitcast_convert():
    lib = build("lhlo_elementwise")
    x = f32(2, 5) * 4
    p = RNG.random((2, 5)) < 0.5
    cl, sel, cv, bits = lib.main(np.float32(-1), x, np.float32(2), p)
    np.testing.assert_array_equal(cl, np.clip(x, -1, 2))
    np.testing.assert_array_equal(sel, np.where(p, x, -x))
    np.testing.assert_array_equal(cv, x.astype(np.int32))  # toward zero
    np.testing.assert_array_equal(bits, x.view(np.int32))


def test_dynamic_update_slice_broadcast_reduce_precision_dot():
    """Spellings of lhlo_ops.td that differ from the tensor op: `dynamic-update-slice`,
    `broadcast` (prepended dims), `dot` with mhlo's dot dimension numbers."""
    lib = build("lhlo_misc")
    x, u, v, w = f32(4, 5), f32(2, 2), f32(3), f32(5, 3)
    dus, bc, rp, dt = lib.main(x, u, np.int32(1), np.int32(4), v, w)
    want = x.copy()
    want[1:3, 3:5] = u  # start 4 clamps to 3
    np.testing.assert_array_equal(dus, want)
    np.testing.assert_array_equal(bc, np.broadcast_to(v, (2, 3)))
    np.testing.assert_array_equal(rp, x.astype(np.float16).astype(np.float32))
    np.testing.assert_allclose(dt, x.astype(np.float64) @ w, rtol=1e-5, atol=1e-6)


def test_xla_lhlo_spelling():
    lib = build("xla_lhlo_transpose")
    x = f32(2, 3)
    np.testing.assert_array_equal(lib.main(x), x.T)


# ----------------------------------------------------------------------------- control flow


def test_while_doubles_until_the_sum_passes_a_limit():
    lib = build("lhlo_while")
    for x in (np.array([1, 2, 3, 4], np.float32), np.array([50, 60, 0, 0], np.float32)):
        want = x.copy()
        while want.sum() < 100:
            want = want + want
        np.testing.assert_array_equal(lib.main(x), want)


def test_case_picks_a_branch_and_the_last_when_out_of_range():
    lib = build("lhlo_case")
    x = f32(3)
    np.testing.assert_array_equal(lib.main(np.int32(0), x), -x)
    np.testing.assert_array_equal(lib.main(np.int32(1), x), x * x)
    for k in (2, 7, -1):
        np.testing.assert_allclose(lib.main(np.int32(k), x), np.exp(x), rtol=1e-6)


# ----------------------------------------------------------------------------- errors


def compile_error(body, args="%x: memref<4xf32>, %out: memref<4xf32>"):
    text = f"func.func @main({args}) {{\n  {body}\n  return\n}}"
    with pytest.raises(CompileError) as e:
        run_pipeline(parse_module(text, "prog.mlir"), "loops")
    return str(e.value)


def test_unknown_op_is_a_located_error():
    msg = compile_error('"lmhlo.frobnicate"(%x, %out) : (memref<4xf32>, memref<4xf32>) -> ()')
    assert msg.startswith("prog.mlir:2:3: error: 'lmhlo.frobnicate'"), msg
    assert "no tensor-level counterpart" in msg


def test_wrong_number_of_operands_is_a_located_error():
    msg = compile_error('"lmhlo.add"(%x, %out) : (memref<4xf32>, memref<4xf32>) -> ()')
    assert msg.startswith("prog.mlir:2:3: error: 'lmhlo.add': takes two operands and an output "
                          "buffer, got 2"), msg
    msg = compile_error('"lmhlo.sort"(%x, %x, %out) ({\n  }) : (memref<4xf32>, memref<4xf32>, '
                        'memref<4xf32>) -> ()')
    assert msg.startswith("prog.mlir:2:3: error: 'lmhlo.sort': takes inputs and as many outputs, "
                          "got 3"), msg


@pytest.mark.parametrize("op, why", [
    ('"lmhlo.all_reduce"(%x, %out) ({\n  }) {replica_groups = dense<0> : tensor<1x1xi64>}',
     "a collective"),
    ('"lmhlo.rng_get_and_update_state"(%out) {delta = 1 : i64}', "random-number state"),
    ('"lmhlo.custom_call"(%x, %out) {call_target_name = "foo"}', "external code"),
    ('"lmhlo.infeed"(%out) {config = ""}', "device stream"),
    ('"lmhlo.outfeed"(%x) {config = ""}', "device stream"),
])
def test_ops_without_a_single_device_meaning_are_refused(op, why):
    types = "(memref<4xf32>, memref<4xf32>)" if "%x, %out" in op else "(memref<4xf32>)"
    msg = compile_error(f"{op} : {types} -> ()")
    assert msg.startswith("prog.mlir:2:3: error: "), msg
    assert "not supported in buffer-level input" in msg and why in msg, msg


def test_while_needs_a_predicate_buffer_and_case_an_index():
    msg = compile_error('"lmhlo.while"(%out) ({\n  }, {\n  }) : (memref<4xf32>) -> ()')
    assert msg.startswith("prog.mlir:2:3: error: 'lmhlo.while': takes one condition buffer, a "
                          "memref<i1>"), msg
    msg = compile_error('"lmhlo.case"(%x) ({\n  }) : (memref<4xf32>) -> ()')
    assert msg.startswith("prog.mlir:2:3: error: 'lmhlo.case': takes one index buffer"), msg


def test_body_argument_that_is_not_a_buffer_is_refused():
    msg = compile_error(
        '"lmhlo.sort"(%x, %out) ({\n  ^bb0(%a: memref<f32>, %b: tensor<f32>, %r: memref<i1>):\n'
        '    "lmhlo.terminator"() : () -> ()\n  }) : (memref<4xf32>, memref<4xf32>) -> ()')
    assert msg.startswith("prog.mlir:2:3: error: 'lmhlo.sort': a body on buffers takes buffers, "
                          "not tensor<f32>"), msg


def test_kernel_inside_a_fusion_is_refused():
    msg = compile_error('"lmhlo.fusion"() ({\n    "lmhlo.sort"(%x, %out) ({\n    }) : '
                        '(memref<4xf32>, memref<4xf32>) -> ()\n    "lmhlo.terminator"() : () -> ()\n  }) '
                        ': () -> ()')
    assert msg.startswith("prog.mlir:3:5: error: 'lmhlo.sort': only elementwise"), msg


# ----------------------------------------------------------------------------- the cuda target


@pytest.mark.parametrize("name", ["lhlo_sort2", "lhlo_while"])
def test_cuda_target_on_the_emulated_grid(name, tmp_path):
    """The lhlo stage asks the target for a kernel's scratch: the cuda sort's differs from the
    CPU's (one index buffer, not one per operand)."""
    from tooling.gpu_emu import build_emulated
    with open(os.path.join(DATA, name + ".mlir")) as f:
        cuda, cpu = build_emulated(f.read(), name, str(tmp_path)), build(name)
    if name == "lhlo_sort2":
        k = np.round(f32(3, 6) * 2).astype(np.float32)
        args = (k, np.arange(18, dtype=np.int32).reshape(3, 6))
    else:
        args = (np.array([1, 2, 3, 4], np.float32),)
    got, want = cuda.main(*args), cpu.main(*args)
    got, want = (got, want) if isinstance(got, tuple) else ((got,), (want,))
    assert len(got) == len(want)
    for g, w in zip(got, want):
        np.testing.assert_array_equal(g, w)
