"""The packed matmul (lowering/gemm.py): every dot_general whose batch, free and
contracting dims are runs of consecutive dims goes through it. Checked against numpy in
float64 on shapes that cut its register tiles, task tiles and K blocks at every edge, with
transposed operands, several batch, free and contracting dims, on 1 and 2 threads."""
import re

import numpy as np
import pytest

import aot
from lowering.frontend.parser import parse_module
from lowering.frontend.printer import print_module
from lowering.passes.pipeline import run_pipeline


def tensor(shape, elem):
    return f"tensor<{'x'.join(map(str, shape)) + 'x' if shape else ''}{elem}>"


def program(lhs, rhs, out, dims, elem="f32"):
    lt, rt, ot = tensor(lhs, elem), tensor(rhs, elem), tensor(out, elem)
    return f"""func.func @main(%a: {lt}, %b: {rt}) -> {ot} {{
  %c = stablehlo.dot_general %a, %b, {dims} : ({lt}, {rt}) -> {ot}
  return %c : {ot}
}}"""


MATMUL = "contracting_dims = [1] x [0]"
# (lhs shape, rhs shape, dot_general dims, numpy einsum of the same product)
CASES = {
    "edges": ((150, 300), (300, 1030), MATMUL, "mk,kn->mn"),
    "one_tile": ((6, 16), (16, 16), MATMUL, "mk,kn->mn"),
    "scalar_like": ((1, 1), (1, 1), MATMUL, "mk,kn->mn"),
    "empty_m": ((0, 4), (4, 5), MATMUL, "mk,kn->mn"),
    "empty_k": ((4, 0), (0, 5), MATMUL, "mk,kn->mn"),
    "lhs_transposed": ((33, 7), (33, 20), "contracting_dims = [0] x [0]", "km,kn->mn"),
    "rhs_transposed": ((9, 40), (17, 40), "contracting_dims = [1] x [1]", "mk,nk->mn"),
    # B contiguous along k: whole panels by vectors, a k tail and a cut panel by elements
    "rhs_transposed_tail": ((20, 37), (35, 37), "contracting_dims = [1] x [1]", "mk,nk->mn"),
    "batched": ((3, 20, 30), (3, 30, 19), "batching_dims = [0] x [0], contracting_dims = [2] x [1]",
                "bmk,bkn->bmn"),
    "two_batch_dims": ((2, 3, 13, 8), (2, 3, 11, 8),
                       "batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [3]",
                       "abmk,abnk->abmn"),
    "batch_last_in_rhs": ((4, 5, 6), (6, 7, 4), "batching_dims = [0] x [2], contracting_dims = [2] x [0]",
                          "bmk,knb->bmn"),
    "two_free_dims": ((2, 5, 12), (12, 21), "contracting_dims = [2] x [0]", "abk,kn->abn"),
    "two_contracting_dims": ((7, 3, 5), (3, 5, 9), "contracting_dims = [1, 2] x [0, 1]",
                             "mij,ijn->mn"),
    # at most NARROW_ROWS rows: B in NARROW_NB-column blocks (the last cut), the next one's
    # rows prefetched, A packed once per K block for all of them
    "narrow_blocks": ((40, 600), (600, 700), MATMUL, "mk,kn->mn"),
    "outer_product": ((7,), (18,), "contracting_dims = [] x []", "m,n->mn"),
    "matrix_vector": ((19, 23), (23,), MATMUL, "mk,k->m"),
    "vector_matrix": ((23,), (23, 19), "contracting_dims = [0] x [0]", "k,kn->n"),
    # batch dims that are not one run: the loop-form dot, not the packed matmul
    "split_batch_dims": ((2, 5, 3, 4), (2, 3, 4, 6),
                         "batching_dims = [0, 2] x [0, 1], contracting_dims = [3] x [2]",
                         "amck,ackn->acmn"),
}
NOT_PACKED = {"split_batch_dims"}


def out_shape(lhs, rhs, spec):
    return np.einsum(spec, np.zeros(lhs), np.zeros(rhs)).shape


@pytest.mark.parametrize("elem", ["f32", "f64"])
@pytest.mark.parametrize("case", sorted(CASES))
def test_dot_general_matches_numpy(case, elem):
    lhs, rhs, dims, spec = CASES[case]
    text = program(lhs, rhs, out_shape(lhs, rhs, spec), dims, elem)
    loops = print_module(run_pipeline(parse_module(text, "test.mlir"), "loops"))
    assert ('"aot.gemm"' in loops) == (case not in NOT_PACKED)
    lib = aot.compile(text, name=f"gemm_{case}_{elem}")
    rng = np.random.default_rng(len(case))
    a = rng.standard_normal(lhs).astype(elem.replace("f", "float"))
    b = rng.standard_normal(rhs).astype(a.dtype)
    want = np.einsum(spec, a.astype(np.float64), b.astype(np.float64))
    results = []
    for threads in (1, 2):
        lib.set_num_threads(threads)
        got = lib.main(a, b)
        assert got.shape == want.shape and got.dtype == a.dtype
        tol = 1e-4 if elem == "f32" else 1e-12
        k = max(1, a.size // max(1, want.size // max(1, b.size)))
        np.testing.assert_allclose(got, want, rtol=tol, atol=tol * np.sqrt(k))
        results.append(got)
    np.testing.assert_array_equal(results[0], results[1])  # tiles do not depend on threads


def test_dynamic_shapes_one_library():
    """One library with ? dims serves every size, through the same packed kernel."""
    text = program(["?", "?"], ["?", "?"], ["?", "?"], MATMUL)
    lib = aot.compile(text, name="gemm_dynamic")
    rng = np.random.default_rng(1)
    for m, k, n in [(1, 1, 1), (5, 7, 3), (145, 257, 1025), (300, 513, 17), (0, 3, 2)]:
        a = rng.standard_normal((m, k)).astype(np.float32)
        b = rng.standard_normal((k, n)).astype(np.float32)
        np.testing.assert_allclose(lib.main(a, b), a.astype(np.float64) @ b, rtol=1e-4, atol=1e-3)


@pytest.mark.parametrize("elem", ["f32", "f64"])
def test_few_rows_at_every_m(elem):
    """Every M from 1 to 17 (the few-row kernels up to FEW_ROWS_MAX, each row count of their
    last group, then the register tile with its row variants), and 24 and 40, with odd K and
    N (K blocks cut short, column strips, single vectors and single columns), A row-major
    and transposed (read with a column stride), B row-major (read in place) and transposed
    (packed; the transposed forms in f32 only), on 1, 2 and 7 threads with the same bits,
    equal the float64 numpy product."""
    dt = elem.replace("f", "float")
    dyn = ["?", "?"]
    libs = {"plain": aot.compile(program(dyn, dyn, dyn, MATMUL, elem), name=f"gemm_few_{elem}")}
    if elem == "f32":  # the transposed forms read the same kernels (fewer compiles)
        libs["a_t"] = aot.compile(program(dyn, dyn, dyn, "contracting_dims = [0] x [0]", elem),
                                  name=f"gemm_few_at_{elem}")
        libs["b_t"] = aot.compile(program(dyn, dyn, dyn, "contracting_dims = [1] x [1]", elem),
                                  name=f"gemm_few_bt_{elem}")
    operands = {"plain": lambda a, b: (a, b), "a_t": lambda a, b: (np.ascontiguousarray(a.T), b),
                "b_t": lambda a, b: (a, np.ascontiguousarray(b.T))}
    rng = np.random.default_rng(7)
    tol = 1e-4 if elem == "f32" else 1e-12
    for m in [*range(1, 18), 24, 40]:  # 24 rows on 2 threads: tasks of 12 read B in place
        for k, n in ((1, 1), (13, 37), (1031, 129)):
            a = rng.standard_normal((m, k)).astype(dt)
            b = rng.standard_normal((k, n)).astype(dt)
            want = a.astype(np.float64) @ b
            for form, lib in libs.items():
                got = []
                for threads in (1, 2, 7):  # 7: tasks of a few-row product as narrow as 64
                    lib.set_num_threads(threads)
                    got.append(lib.main(*operands[form](a, b)))
                    np.testing.assert_allclose(got[-1], want, rtol=tol, atol=tol * np.sqrt(k),
                                               err_msg=f"{form} m={m} k={k} n={n}")
                for other in got[1:]:
                    np.testing.assert_array_equal(got[0], other, err_msg=f"{form} m={m} k={k} n={n}")


def test_few_rows_batched_with_epilogue_and_packed_weights():
    """The few-row kernels per batch index, with a fused tanh epilogue on the whole tile
    (DENSE below has a bias and a residual, at M = 1 and 7); and with B a constant (packed
    at compile time: the register tile and its row variants at every M), for M = 1 ... 17."""
    rng = np.random.default_rng(11)
    w = rng.standard_normal((45, 67)).astype(np.float32) / 6
    hexw = "0x" + w.tobytes().hex()
    text = f"""func.func @main(%x: tensor<3x?x45xf32>, %v: tensor<3x45x67xf32>, %x1: tensor<?x45xf32>) -> (tensor<3x?x67xf32>, tensor<?x67xf32>) {{
  %p = stablehlo.dot_general %x, %v, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<3x?x45xf32>, tensor<3x45x67xf32>) -> tensor<3x?x67xf32>
  %t = stablehlo.tanh %p : tensor<3x?x67xf32>
  %w = stablehlo.constant dense<"{hexw}"> : tensor<45x67xf32>
  %q = stablehlo.dot_general %x1, %w, contracting_dims = [1] x [0] : (tensor<?x45xf32>, tensor<45x67xf32>) -> tensor<?x67xf32>
  return %t, %q : tensor<3x?x67xf32>, tensor<?x67xf32>
}}"""  # noqa: E501
    loops = print_module(run_pipeline(parse_module(text, "few.mlir"), "loops"))
    assert loops.count('"aot.gemm"') == 2 and "aot.packed_b" in loops
    lib = aot.compile(text, name="gemm_few_batched")
    v = rng.standard_normal((3, 45, 67)).astype(np.float32) / 6
    for m in range(1, 18):
        x = rng.standard_normal((3, m, 45)).astype(np.float32)
        t, q = lib.main(x, v, x[0])
        np.testing.assert_allclose(t, np.tanh(np.einsum("bmk,bkn->bmn", x.astype(np.float64), v)),
                                   rtol=1e-5, atol=1e-5, err_msg=f"m={m}")
        np.testing.assert_allclose(q, x[0].astype(np.float64) @ w, rtol=1e-4, atol=1e-4,
                                   err_msg=f"m={m}")


def test_inner_dim_mismatch_is_reported():
    text = program(["?", "?"], ["?", "?"], ["?", "?"], MATMUL)
    lib = aot.compile(text, name="gemm_dynamic")
    with pytest.raises(Exception, match="dot_general"):
        lib.main(np.ones((2, 3), np.float32), np.ones((4, 5), np.float32))


# ----------------------------------------------------------------------------- kOutput fusion

DENSE = """func.func @main(%x: tensor<?x70xf32>, %w: tensor<70x40xf32>, %b: tensor<40xf32>, %r: tensor<?x40xf32>) -> tensor<?x40xf32> {
  %x2 = stablehlo.multiply %x, %x : tensor<?x70xf32>
  %y = stablehlo.dot_general %x2, %w, contracting_dims = [1] x [0] : (tensor<?x70xf32>, tensor<70x40xf32>) -> tensor<?x40xf32>
  %shape = stablehlo.get_dimension_size %r, dim = 0 : (tensor<?x40xf32>) -> tensor<i32>
  %n1 = stablehlo.reshape %shape : (tensor<i32>) -> tensor<1xi32>
  %c40 = stablehlo.constant dense<40> : tensor<1xi32>
  %s = stablehlo.concatenate %n1, %c40, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
  %bb = stablehlo.dynamic_broadcast_in_dim %b, %s, dims = [1] : (tensor<40xf32>, tensor<2xi32>) -> tensor<?x40xf32>
  %z = stablehlo.add %y, %bb : tensor<?x40xf32>
  %t = stablehlo.tanh %z : tensor<?x40xf32>
  %o = stablehlo.add %t, %r : tensor<?x40xf32>
  return %o : tensor<?x40xf32>
}"""  # noqa: E501


def dense_reference(x, w, b, r):
    x = x.astype(np.float64)
    return np.tanh((x * x) @ w + b) + r


def test_bias_activation_and_residual_fuse_into_the_matmul():
    fused = print_module(run_pipeline(parse_module(DENSE, "dense.mlir"), "fused"))
    assert fused.count('fusion_kind = "kOutput"') == 1
    loops = print_module(run_pipeline(parse_module(DENSE, "dense.mlir"), "loops"))
    region = loops[loops.index('"aot.gemm"'):loops.index("lhs_runs")]
    assert "scf.for" in region and "memref.store" in region  # the epilogue, per tile
    # x * x (an operand: read from memory) and the matmul with its epilogue; the shape
    # tensor is stored by the host code (bufferize), not a kernel
    assert loops.count("func.func private") == 2
    lib = aot.compile(DENSE, name="gemm_dense")
    rng = np.random.default_rng(2)
    w = rng.standard_normal((70, 40)).astype(np.float32) / 8
    b = rng.standard_normal(40).astype(np.float32)
    for rows in (0, 1, 7, 145, 600):
        x = rng.standard_normal((rows, 70)).astype(np.float32)
        r = rng.standard_normal((rows, 40)).astype(np.float32)
        r_before = r.copy()
        for threads in (1, 2):
            lib.set_num_threads(threads)
            got = lib.main(x, w, b, r)
            np.testing.assert_allclose(got, dense_reference(x, w, b, r), rtol=1e-5, atol=1e-5)
        np.testing.assert_array_equal(r, r_before)  # the residual input is not written


def fused_kinds(text):
    fused = print_module(run_pipeline(parse_module(text, "t.mlir"), "fused"))
    return fused.count('"kOutput"'), fused


SCALED_SCORES = """func.func @main(%q: tensor<2x3x33x8xf32>, %k: tensor<2x3x20x8xf32>) -> tensor<2x3x33x20xf32> {
  %s = stablehlo.dot_general %q, %k, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [3] : (tensor<2x3x33x8xf32>, tensor<2x3x20x8xf32>) -> tensor<2x3x33x20xf32>
  %c = stablehlo.constant dense<0.125> : tensor<2x3x33x20xf32>
  %y = stablehlo.multiply %s, %c : tensor<2x3x33x20xf32>
  return %y : tensor<2x3x33x20xf32>
}"""  # noqa: E501

TRANSPOSED_USE = """func.func @main(%a: tensor<30x20xf32>, %b: tensor<20x30xf32>) -> tensor<30x30xf32> {
  %p = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<30x20xf32>, tensor<20x30xf32>) -> tensor<30x30xf32>
  %t = stablehlo.transpose %p, dims = [1, 0] : (tensor<30x30xf32>) -> tensor<30x30xf32>
  %y = stablehlo.add %p, %t : tensor<30x30xf32>
  return %y : tensor<30x30xf32>
}"""  # noqa: E501

TWO_USES = """func.func @main(%a: tensor<30x20xf32>, %b: tensor<20x30xf32>) -> (tensor<30x30xf32>, tensor<30x30xf32>) {
  %p = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<30x20xf32>, tensor<20x30xf32>) -> tensor<30x30xf32>
  %y = stablehlo.exponential %p : tensor<30x30xf32>
  return %p, %y : tensor<30x30xf32>, tensor<30x30xf32>
}"""  # noqa: E501


@pytest.mark.parametrize("name, text, shapes, fused, reference", [
    ("scaled_scores", SCALED_SCORES, [(2, 3, 33, 8), (2, 3, 20, 8)], 1,
     lambda q, k: np.einsum("abmk,abnk->abmn", q, k) * 0.125),
    ("transposed_use", TRANSPOSED_USE, [(30, 20), (20, 30)], 0, lambda a, b: a @ b + (a @ b).T),
    ("two_uses", TWO_USES, [(30, 20), (20, 30)], 0, lambda a, b: (a @ b, np.exp(a @ b))),
])
def test_which_consumers_fuse(name, text, shapes, fused, reference):
    """Only elementwise consumers on the product's shape join it, and only when nothing
    else reads the product."""
    assert fused_kinds(text)[0] == fused
    lib = aot.compile(text, name=f"gemm_{name}")
    rng = np.random.default_rng(3)
    args = [rng.standard_normal(shape).astype(np.float32) for shape in shapes]
    got = lib.main(*args)
    want = reference(*[a.astype(np.float64) for a in args])
    got, want = (got, want) if isinstance(want, tuple) else ((got,), (want,))
    for g, w in zip(got, want):
        np.testing.assert_allclose(g, w, rtol=1e-5, atol=1e-4)


# ----------------------------------------------------------------------------- workspace

WORKSPACE_CHECK = """
import numpy as np, aot, threading, sys
lib = aot.compile(sys.argv[1], name="gemm_workspace")
rng = np.random.default_rng(5)
a = rng.standard_normal((300, 513)).astype(np.float32)
b = rng.standard_normal((513, 1030)).astype(np.float32)
want = a.astype(np.float64) @ b
results = []
def run():
    results.append(lib.main(a, b))
threading.stack_size(256 * 1024)  # a small stack: the A block must not live on it
for threads in (1, 2):
    lib.set_num_threads(threads)
    t = threading.Thread(target=run)
    t.start()
    t.join()
for got in results:
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-3)
print("ok", len(results))
"""


@pytest.mark.parametrize("scratch", ["on", "off"])
def test_workspace_off_the_stack_and_its_fallback(scratch, tmp_path):
    """The A block is in the thread's heap scratch, so a thread with a 256 KiB stack can
    run a big product; with AOT_KERNEL_SCRATCH=off the stack-panel fallback gives the
    same result."""
    import os
    import subprocess
    import sys
    text = program(["?", "?"], ["?", "?"], ["?", "?"], MATMUL)
    env = dict(os.environ, AOT_KERNEL_SCRATCH=scratch,
               PYTHONPATH=os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
    r = subprocess.run([sys.executable, "-c", WORKSPACE_CHECK, text], env=env,
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0 and "ok 2" in r.stdout, r.stderr


# ----------------------------------------------------------------------------- convolution

def test_convolution_through_the_packed_matmul():
    """f32 convolutions with one feature and batch group go through im2col and the packed
    matmul (aot.gemm in the loop stage), in any layout, with strides, padding (negative
    too), both dilations and window reversal; thin groups (3 features) keep the loop."""
    from conv_reference import random_conv, random_dimension_numbers
    rng = np.random.default_rng(21)
    for trial in range(10):
        dn = random_dimension_numbers(rng, int(rng.integers(1, 3)))
        if trial == 0:  # NCHW x OIHW -> NCHW: W @ A_b per batch index, in place
            dn = ((0, 1, [2, 3]), (1, 0, [2, 3]), (0, 1, [2, 3]))
        elif trial == 1:  # NHWC x HWIO -> NHWC: A @ W, in place
            dn = ((0, 3, [1, 2]), (2, 3, [0, 1]), (0, 3, [1, 2]))
        groups = 2 if trial == 9 else 1
        case = random_conv(rng, dn, int(rng.integers(1, 4)), 2 * groups, 3 * groups, groups, 1,
                           spatial_hi=7)
        if case is None:
            continue
        text, x, w, want = case
        loops = print_module(run_pipeline(parse_module(text, "conv.mlir"), "loops"))
        assert ('"aot.gemm"' in loops) == (groups == 1), trial  # thin groups: the loop
        lib = aot.compile(text, name=f"gemm_conv_{trial}")
        for threads in (1, 2):
            lib.set_num_threads(threads)
            np.testing.assert_allclose(lib.main(x, w), want, rtol=1e-5, atol=1e-5,
                                       err_msg=f"trial {trial}")


def test_direct_convolution():
    """NHWC x HWIO -> NHWC f32/f64 convolutions with >= 16 input features and whole NR
    panels of output features run as the direct convolution (aot.conv: no im2col): window
    rows in the padding skipped, positions whose column is in the padding left out of a
    call, whole window rows in one call; strides, dilation, padding (negative too), windows
    bigger than the input, 1 and 2 threads, a dynamic batch."""
    from conv_reference import conv_text, np_conv
    rng = np.random.default_rng(5)
    dn = ((0, 3, [1, 2]), (2, 3, [0, 1]), (0, 3, [1, 2]))
    cases = [((2, 9, 13), (3, 3), (1, 1), (1, 1), ((1, 1), (1, 1)), 16, 32, "f32"),
             ((1, 7, 8), (3, 2), (2, 1), (1, 2), ((0, 2), (-1, 1)), 32, 16, "f32"),
             ((3, 5, 6), (2, 3), (1, 2), (2, 1), ((2, 0), (2, 2)), 48, 16, "f64"),
             ((1, 2, 3), (3, 3), (1, 1), (1, 1), ((2, 2), (2, 2)), 16, 16, "f32"),
             ((2, 12, 12), (1, 1), (1, 1), (1, 1), ((0, 0), (0, 0)), 24, 48, "f32")]
    for i, (shape, ksize, strides, dil, pads, cin, cout, elem) in enumerate(cases):
        dt = np.float32 if elem == "f32" else np.float64
        x = rng.uniform(-1, 1, shape + (cin,)).astype(dt)
        w = rng.uniform(-1, 1, ksize + (cin, cout)).astype(dt)
        want = np_conv(x, w, dn, strides, pads, (1, 1), dil, (False, False), 1, 1)
        text = conv_text(x.shape, w.shape, want.shape, dn, strides, pads, (1, 1), dil,
                         (False, False), 1, 1).replace("xf32>", f"x{elem}>")
        if i == 0:  # one library for every batch size
            for dims in (x.shape, want.shape):
                text = text.replace("tensor<" + "x".join(map(str, dims)), "tensor<?x"
                                    + "x".join(map(str, dims[1:])))
        loops = print_module(run_pipeline(parse_module(text, "conv.mlir"), "loops"))
        if ksize == (1, 1):  # a 1x1 window is one matmul (conv_gemm.pointwise)
            assert '"aot.gemm"' in loops and '"aot.conv"' not in loops, i
        else:
            assert '"aot.conv"' in loops and '"aot.gemm"' not in loops, i
        lib = aot.compile(text, name=f"direct_conv_{i}")
        tol = 1e-5 if elem == "f32" else 1e-12
        for threads in (1, 2):
            lib.set_num_threads(threads)
            np.testing.assert_allclose(lib.main(x, w), want, rtol=tol, atol=tol, err_msg=f"case {i}")
        if i == 0:
            np.testing.assert_allclose(lib.main(x[:1], w), want[:1], rtol=tol, atol=tol)
            assert lib.main(x[:0], w).shape == (0,) + want.shape[1:]


CONV_EPILOGUE = """func.func @main(%x: tensor<?x6x7x16xf32>, %w: tensor<3x3x16x32xf32>, %b: tensor<32xf32>, %r: tensor<?x6x7x32xf32>) -> tensor<?x6x7x32xf32> {
  %y = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<?x6x7x16xf32>, tensor<3x3x16x32xf32>) -> tensor<?x6x7x32xf32>
  %n = stablehlo.get_dimension_size %x, dim = 0 : (tensor<?x6x7x16xf32>) -> tensor<i32>
  %n1 = stablehlo.reshape %n : (tensor<i32>) -> tensor<1xi32>
  %rest = stablehlo.constant dense<[6, 7, 32]> : tensor<3xi32>
  %s = stablehlo.concatenate %n1, %rest, dim = 0 : (tensor<1xi32>, tensor<3xi32>) -> tensor<4xi32>
  %bb = stablehlo.dynamic_broadcast_in_dim %b, %s, dims = [3] : (tensor<32xf32>, tensor<4xi32>) -> tensor<?x6x7x32xf32>
  %z = stablehlo.add %y, %bb : tensor<?x6x7x32xf32>
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %zb = stablehlo.dynamic_broadcast_in_dim %zero, %s, dims = [] : (tensor<f32>, tensor<4xi32>) -> tensor<?x6x7x32xf32>
  %a = stablehlo.maximum %z, %zb : tensor<?x6x7x32xf32>
  %o = stablehlo.add %a, %r : tensor<?x6x7x32xf32>
  return %o : tensor<?x6x7x32xf32>
}"""  # noqa: E501


def test_direct_convolution_runs_its_consumers_per_row():
    """Bias, relu and a residual add after a direct convolution are one kOutput kernel: the
    conv runs them on each finished output row (aot.conv with a region), no second pass."""
    from conv_reference import np_conv
    loops = print_module(run_pipeline(parse_module(CONV_EPILOGUE, "conv.mlir"), "loops"))
    assert loops.count('"aot.conv"') == 1 and "kOutput" in print_module(
        run_pipeline(parse_module(CONV_EPILOGUE, "conv.mlir"), "fused"))
    lib = aot.compile(CONV_EPILOGUE, name="direct_conv_epilogue")
    rng = np.random.default_rng(9)
    dn = ((0, 3, [1, 2]), (2, 3, [0, 1]), (0, 3, [1, 2]))
    for n in (3, 1):
        x = rng.uniform(-1, 1, (n, 6, 7, 16)).astype(np.float32)
        w = rng.uniform(-1, 1, (3, 3, 16, 32)).astype(np.float32)
        bias = rng.uniform(-1, 1, 32).astype(np.float32)
        r = rng.uniform(-1, 1, (n, 6, 7, 32)).astype(np.float32)
        conv = np_conv(x, w, dn, (1, 1), ((1, 1), (1, 1)), (1, 1), (1, 1), (False, False), 1, 1)
        want = np.maximum(conv + bias, 0) + r
        for threads in (1, 2):
            lib.set_num_threads(threads)
            np.testing.assert_allclose(lib.main(x, w, bias, r), want, rtol=1e-5, atol=1e-5)


# ----------------------------------------------------------------------------- i16 x i16 -> i32

def int_program(lhs, rhs, out, dims):
    lt, rt, ot = tensor(lhs, "i16"), tensor(rhs, "i16"), tensor(out, "i32")
    return f"""func.func @main(%a: {lt}, %b: {rt}) -> {ot} {{
  %c = stablehlo.dot_general %a, %b, {dims} : ({lt}, {rt}) -> {ot}
  return %c : {ot}
}}"""


INT_CASES = {**CASES,
             # K blocks of 512 k's, the last one odd; odd k in a single block
             "k_blocks_odd_tail": ((37, 1031), (1031, 45), MATMUL, "mk,kn->mn"),
             "odd_k_transposed": ((13, 1025), (21, 1025), "contracting_dims = [1] x [1]",
                                  "mk,nk->mn")}


def int_operands(rng, lhs, rhs):
    """Centred int8 values (what quantized contractions feed the kernel): [-255, 255], the
    first row of A and first column of B at the extremes."""
    a = rng.integers(-255, 256, lhs).astype(np.int16)
    b = rng.integers(-255, 256, rhs).astype(np.int16)
    if a.size and b.size:
        a.reshape(-1)[:min(a.size, 64)] = -255
        b.reshape(-1)[:min(b.size, 64)] = 255
    return a, b


@pytest.mark.parametrize("case", sorted(INT_CASES))
def test_int16_pair_kernel_is_exact(case):
    """The packed matmul's i16 pair kernel (quantized int8 contractions) on every shape of
    the float cases plus odd k across K blocks: equal to numpy's int64 product, on 1 and 2
    threads."""
    lhs, rhs, dims, spec = INT_CASES[case]
    text = int_program(lhs, rhs, out_shape(lhs, rhs, spec), dims)
    loops = print_module(run_pipeline(parse_module(text, "test.mlir"), "loops"))
    assert ('"aot.gemm"' in loops) == (case not in NOT_PACKED)
    lib = aot.compile(text, name=f"gemm_{case}_i16")
    a, b = int_operands(np.random.default_rng(len(case)), lhs, rhs)
    want = np.einsum(spec, a.astype(np.int64), b.astype(np.int64))
    for threads in (1, 2):
        lib.set_num_threads(threads)
        got = lib.main(a, b)
        assert got.dtype == np.int32
        np.testing.assert_array_equal(got, want)


def pair_blockings():
    """The i16 pair kernel's blocking of every CPU table, each run on this machine: x86's
    pmaddwd forms where it has them, the generic sext/mul/add IR for the rest (the AArch64
    and RISC-V tables, AVX without AVX2, no vector unit)."""
    from dataclasses import replace

    from lowering.target import GEMM_BLOCKING, GEMM_BLOCKING_32_REGISTERS, GEMM_BLOCKING_SCALAR
    sse2 = replace(GEMM_BLOCKING[16]["i32"], madd="llvm.x86.sse2.pmadd.wd")
    avx2 = replace(GEMM_BLOCKING[32]["i32"], madd="llvm.x86.avx2.pmadd.wd")
    return {"sse2": sse2, "avx2": avx2, "generic_16": GEMM_BLOCKING[16]["i32"],
            "generic_32": GEMM_BLOCKING[32]["i32"], "generic_32_registers":
            GEMM_BLOCKING_32_REGISTERS["i32"], "generic_scalar": GEMM_BLOCKING_SCALAR["i32"]}


@pytest.mark.parametrize("kind", sorted(pair_blockings()))
def test_int16_pair_kernel_forms(kind, tmp_path):
    """Each form of the pair kernel, with dynamic shapes cutting its tiles (odd k, a k tail
    past a K block, row-major and k-major B): exact. The x86 forms call pmaddwd; the
    generic ones do not."""
    from dataclasses import replace

    from aot.driver import Compilation, Options
    from lowering.target import host_target
    if kind in ("sse2", "avx2") and not host_target().triple.startswith("x86_64"):
        pytest.skip("x86's pmaddwd")
    if kind == "avx2" and host_target().blocking("i32").madd != "llvm.x86.avx2.pmadd.wd":
        pytest.skip("this CPU has no AVX2")
    blocking = pair_blockings()[kind]
    rng = np.random.default_rng(11)
    for rhs in ("row_major", "k_major"):
        dims = MATMUL if rhs == "row_major" else "contracting_dims = [1] x [1]"
        text = int_program(["?", "?"], ["?", "?"], ["?", "?"], dims)
        c = Compilation(text, "mm.mlir", Options(name=f"mm_{kind}_{rhs}", emit="llvm"))
        c.target = replace(c.target, gemm={**c.target.gemm, "i32": blocking})
        ll = tmp_path / f"{kind}_{rhs}.ll"
        c.build(str(ll))
        assert ("pmadd.wd" in ll.read_text()) == bool(blocking.madd)
        c = Compilation(text, "mm.mlir", Options(name=f"mm_{kind}_{rhs}", emit="shared"))
        c.target = replace(c.target, gemm={**c.target.gemm, "i32": blocking})
        so = tmp_path / f"lib{kind}_{rhs}.so"
        c.build(str(so))
        lib = aot.load(str(so))
        for m, k, n in [(1, 1, 1), (7, 13, 11), (17, 1027, 25), (40, 64, 33)]:
            a, b = int_operands(rng, (m, k), (k, n) if rhs == "row_major" else (n, k))
            want = a.astype(np.int64) @ (b if rhs == "row_major" else b.T).astype(np.int64)
            np.testing.assert_array_equal(lib.main(a, b), want, err_msg=f"{kind} {m}x{k}x{n}")


def test_int16_pair_kernel_under_qemu(tmp_path):
    """The generic pair kernel as AArch64 and RISC-V build it, run under qemu-user: exact."""
    from tooling.cross import CROSS, build, call, require
    for arch in sorted(CROSS):
        cross = require(arch)
        exe = build(int_program(["?", "?"], ["?", "?"], ["?", "?"], MATMUL), "mm.mlir",
                    f"mm_i16_{arch}", cross, str(tmp_path))
        rng = np.random.default_rng(12)
        for m, k, n in [(1, 1, 1), (7, 13, 11), (17, 1027, 25)]:
            a, b = int_operands(rng, (m, k), (k, n))
            got, = call(cross, exe, [a, b], str(tmp_path), threads=1)
            np.testing.assert_array_equal(got, a.astype(np.int64) @ b.astype(np.int64),
                                          err_msg=f"{arch} {m}x{k}x{n}")


def int_conv_reference(x, w, stride, pad):
    """NHWC x HWIO -> NHWC in int64."""
    xp = np.pad(x.astype(np.int64), ((0, 0), (pad, pad), (pad, pad), (0, 0)))
    kh, kw = w.shape[:2]
    oh, ow = (xp.shape[1] - kh) // stride + 1, (xp.shape[2] - kw) // stride + 1
    out = np.zeros((x.shape[0], oh, ow, w.shape[3]), np.int64)
    for i in range(oh):
        for j in range(ow):
            win = xp[:, i * stride:i * stride + kh, j * stride:j * stride + kw]
            out[:, i, j] = np.einsum("bhwc,hwco->bo", win, w.astype(np.int64))
    return out


@pytest.mark.parametrize("layout", ["nhwc", "nchw"])
def test_int16_convolution_through_the_pair_kernel(layout):
    """An i16 x i16 -> i32 convolution (the integer path of quantized ones) goes through
    im2col and the pair kernel in both in-place layouts: exact."""
    x_shape, k_shape, o_shape = (2, 9, 9, 5), (3, 3, 5, 7), (2, 5, 5, 7)
    if layout == "nhwc":
        dn, perm_x, perm_k, perm_o = "[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]", None, None, None
    else:
        dn = "[b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1]"
        perm_x, perm_k, perm_o = (0, 3, 1, 2), (3, 2, 0, 1), (0, 3, 1, 2)

    def shape(s, perm):
        return [s[p] for p in perm] if perm else list(s)
    xt, kt = tensor(shape(x_shape, perm_x), "i16"), tensor(shape(k_shape, perm_k), "i16")
    ot = tensor(shape(o_shape, perm_o), "i32")
    text = f"""func.func @main(%x: {xt}, %k: {kt}) -> {ot} {{
  %y = stablehlo.convolution(%x, %k) dim_numbers = {dn}, window = {{stride = [2, 2], pad = [[1, 1], [1, 1]]}} {{batch_group_count = 1 : i64, feature_group_count = 1 : i64}} : ({xt}, {kt}) -> {ot}
  return %y : {ot}
}}"""  # noqa: E501
    loops = print_module(run_pipeline(parse_module(text, "conv.mlir"), "loops"))
    assert '"aot.gemm"' in loops
    x, k = int_operands(np.random.default_rng(13), x_shape, k_shape)
    want = int_conv_reference(x, k, 2, 1)
    args = (x, k) if layout == "nhwc" else (x.transpose(perm_x).copy(), k.transpose(perm_k).copy())
    got = aot.compile(text, name=f"gemm_conv_i16_{layout}").main(*args)
    np.testing.assert_array_equal(got, want if layout == "nhwc" else want.transpose(perm_o))


def test_shallow_k_blocks_walk_c_by_rows():
    """A K block at most ROW_ORDER_MAX_K deep walks the tiles of C row by row (each A panel
    across every B panel), deeper ones column strip by column strip: the attention scores'
    [8, 799, 32] x [8, 32, 799] stalled on C's stores in column strips (1.8x the time of
    N = 800). Checked on the task's IR, then against numpy where the two orders meet: K
    blocks on both sides of the limit in one product, edges of C in M and N, a batch, `?`
    dims and a fused bias."""
    from llvmlite import ir as llvm_ir

    from lowering.codegen.cpu import gemm
    from lowering.target import host_target
    mod = llvm_ir.Module("m")
    pfor = llvm_ir.Function(mod, llvm_ir.FunctionType(llvm_ir.VoidType(), []), name="pfor")
    gemm.gemm_function(mod, "f32", llvm_ir.FloatType(), pfor, host_target().blocking("f32"))
    task = str(mod.globals["aot.gemm.f32.task"])
    limit = gemm.ROW_ORDER_MAX_K
    assert re.search(rf'%"by_rows" = icmp sle i64 %"?[\w.]+"?, {limit}\b', task)
    for name in ("outer_panels", "inner_panels"):  # both loops' trip counts swap with it
        assert re.search(rf'%"{name}" = select\s+i1 %"by_rows"', task)
    assert re.search(r'icmp slt i64 %"pb.iv", %"outer_panels"', task)
    assert re.search(r'icmp slt i64 %"mk.iv", %"inner_panels"', task)

    text = """func.func @main(%a: tensor<?x?x?xf32>, %b: tensor<?x?x?xf32>, %c: tensor<?xf32>) -> tensor<?x?x?xf32> {
  %p = stablehlo.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<?x?x?xf32>, tensor<?x?x?xf32>) -> tensor<?x?x?xf32>
  %s = stablehlo.get_dimension_size %p, dim = 0 : (tensor<?x?x?xf32>) -> tensor<i32>
  %m = stablehlo.get_dimension_size %p, dim = 1 : (tensor<?x?x?xf32>) -> tensor<i32>
  %n = stablehlo.get_dimension_size %p, dim = 2 : (tensor<?x?x?xf32>) -> tensor<i32>
  %s1 = stablehlo.reshape %s : (tensor<i32>) -> tensor<1xi32>
  %m1 = stablehlo.reshape %m : (tensor<i32>) -> tensor<1xi32>
  %n1 = stablehlo.reshape %n : (tensor<i32>) -> tensor<1xi32>
  %shape = stablehlo.concatenate %s1, %m1, %n1, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
  %cb = stablehlo.dynamic_broadcast_in_dim %c, %shape, dims = [2] : (tensor<?xf32>, tensor<3xi32>) -> tensor<?x?x?xf32>
  %r = stablehlo.add %p, %cb : tensor<?x?x?xf32>
  return %r : tensor<?x?x?xf32>
}"""  # noqa: E501
    lib = aot.compile(text, name="gemm_shallow_k")
    rng = np.random.default_rng(3)
    kc = host_target().blocking("f32").kc
    for bs, m, k, n in [(3, 39, 32, 45), (2, 20, limit, 17), (2, 20, limit + 1, 33),
                        (1, 25, kc + limit, 50), (1, 19, kc + limit + 3, 31), (2, 0, 5, 7)]:
        a = rng.standard_normal((bs, m, k)).astype(np.float32)
        b = rng.standard_normal((bs, k, n)).astype(np.float32)
        c = rng.standard_normal(n).astype(np.float32)
        want = np.einsum("bmk,bkn->bmn", a.astype(np.float64), b) + c
        for threads in (1, 2):
            lib.set_num_threads(threads)
            np.testing.assert_allclose(lib.main(a, b, c), want, rtol=1e-4, atol=1e-4 * np.sqrt(k),
                                       err_msg=f"{bs}x{m}x{k}x{n}, {threads} threads")


def test_narrow_tasks_prefetch_the_next_b_block():
    """A task of at most NARROW_ROWS rows packs B in NARROW_NB-column blocks and prefetches
    the next block's rows into L2 (locality 2) from its micro-kernel calls; packed panels are
    PANEL_PAD_BYTES apart beyond KC x NR. Checked on the task's IR (numbers: CASES'
    narrow_blocks and test_few_rows_at_every_m's 24 and 40 rows)."""
    from llvmlite import ir as llvm_ir

    from lowering.codegen.cpu import gemm
    from lowering.target import host_target
    mod = llvm_ir.Module("m")
    pfor = llvm_ir.Function(mod, llvm_ir.FunctionType(llvm_ir.VoidType(), []), name="pfor")
    gemm.gemm_function(mod, "f32", llvm_ir.FloatType(), pfor, host_target().blocking("f32"))
    task = str(mod.globals["aot.gemm.f32.task"])
    assert re.search(rf'%"narrow" = icmp sle i64 %"?[\w.]+"?, {gemm.NARROW_ROWS}\b', task)
    assert re.search(r'select\s+i1 %"narrow", i64 %"?[\w.]+"?, i64 %"?[\w.]+"?', task)
    assert re.search(r'call void @"llvm.prefetch.p0"\(ptr %"?[\w.]+"?, i32 0, i32 2, i32 1\)', task)
    assert re.search(r'icmp slt i64 %"pfr.iv"', task)


def test_deep_micro_kernel_calls_prefetch_their_c_tile():
    """A micro-kernel call at least C_PREFETCH_MIN_K deep prefetches each row of its C tile
    for writing (rw 1, into L1) before its k loop, at the tile's first and last column.
    Checked on the micro-kernel's IR (its numbers: every gemm test)."""
    from llvmlite import ir as llvm_ir

    from lowering.codegen.cpu import gemm
    from lowering.target import host_target
    mod = llvm_ir.Module("m")
    pfor = llvm_ir.Function(mod, llvm_ir.FunctionType(llvm_ir.VoidType(), []), name="pfor")
    blocking = host_target().blocking("f32")
    gemm.gemm_function(mod, "f32", llvm_ir.FloatType(), pfor, blocking)
    micro = str(mod.globals[f"aot.gemm.f32.micro_kernel{blocking.mr}_packed"])
    assert re.search(rf'icmp sge i64 %"?[\w.]+"?, {gemm.C_PREFETCH_MIN_K}\b', micro)
    writes = re.findall(r'call void @"llvm.prefetch.p0"\(ptr %"?[\w.]+"?, i32 1, i32 3, i32 1\)',
                        micro)
    assert len(writes) == 2 * blocking.mr, micro
    assert micro.index("llvm.prefetch") < micro.index('"k.iv"')


def test_a_read_in_place_only_for_the_fewest_columns():
    """A task of at most A_IN_PLACE_PANELS (8) NR-column panels reads row-major A in place,
    calling the micro-kernel for A's rows in place; wider ones pack it. Checked on
    the task's IR, then against numpy on both sides of the limit, with A row-major and
    transposed."""
    from llvmlite import ir as llvm_ir

    from lowering.codegen.cpu import gemm
    from lowering.target import host_target
    blocking = host_target().blocking("f32")
    mod = llvm_ir.Module("m")
    pfor = llvm_ir.Function(mod, llvm_ir.FunctionType(llvm_ir.VoidType(), []), name="pfor")
    gemm.gemm_function(mod, "f32", llvm_ir.FloatType(), pfor, blocking)
    task = str(mod.globals["aot.gemm.f32.task"])
    limit = gemm.A_IN_PLACE_PANELS * blocking.nr
    assert gemm.A_IN_PLACE_PANELS == 8
    assert re.search(rf'%"few_columns" = icmp sle i64 %"?[\w.]+"?, {limit}\b', task)
    # A read in place with B packed: the kernel whose A stride along k and B stride are
    # constants (the strided one spilled row offsets in its k loop)
    assert f'@"aot.gemm.f32.micro_kernel{blocking.mr}_rows"' in task
    rng = np.random.default_rng(4)
    for dims, spec in ((MATMUL, "mk,kn->mn"), ("contracting_dims = [0] x [0]", "km,kn->mn")):
        text = program(["?", "?"], ["?", "?"], ["?", "?"], dims)
        lib = aot.compile(text, name=f"gemm_a_in_place_{spec[:2]}")
        for n in (limit, limit + 1, 3 * blocking.nr, 8 * blocking.nr + 3):
            m, k = 50, 48
            a = rng.standard_normal((m, k) if spec[0] == "m" else (k, m)).astype(np.float32)
            b = rng.standard_normal((k, n)).astype(np.float32)
            want = np.einsum(spec, a.astype(np.float64), b)
            np.testing.assert_allclose(lib.main(a, b), want, rtol=1e-4, atol=1e-3,
                                       err_msg=f"{spec} n={n}")


def test_a_read_in_place_from_memory_prefetches_its_next_rows():
    """A read in place whose operand has at least A_PREFETCH_MIN_BYTES prefetches the next
    panel's rows into L2 (locality 2) on the first B panel of each A panel; the last panel's
    prefetch runs past A's rows (a prefetch never faults). Checked on the task's IR, then
    against numpy with A above the limit, M not a multiple of MR and two K blocks."""
    from llvmlite import ir as llvm_ir

    from lowering.codegen.cpu import gemm
    from lowering.target import host_target
    blocking = host_target().blocking("f32")
    mod = llvm_ir.Module("m")
    pfor = llvm_ir.Function(mod, llvm_ir.FunctionType(llvm_ir.VoidType(), []), name="pfor")
    gemm.gemm_function(mod, "f32", llvm_ir.FloatType(), pfor, blocking)
    task = str(mod.globals["aot.gemm.f32.task"])
    assert re.search(rf'icmp sge i64 %"?[\w.]+"?, {gemm.A_PREFETCH_MIN_BYTES}\b', task)
    assert '"par.iv"' in task and '"pal.iv"' in task
    rng = np.random.default_rng(7)
    k = blocking.kc + 40
    bs, m, n = 3, 5 * blocking.mr * 100 + 1, 2 * blocking.nr + 5
    assert bs * m * k * 4 >= gemm.A_PREFETCH_MIN_BYTES
    text = program([bs, m, k], [bs, k, n], [bs, m, n],
                   "batching_dims = [0] x [0], contracting_dims = [2] x [1]")
    lib = aot.compile(text, name="gemm_a_in_place_prefetch")
    a = rng.standard_normal((bs, m, k)).astype(np.float32)
    b = rng.standard_normal((bs, k, n)).astype(np.float32)
    want = np.einsum("bmk,bkn->bmn", a.astype(np.float64), b)
    for threads in (1, 2):
        lib.set_num_threads(threads)
        np.testing.assert_allclose(lib.main(a, b), want, rtol=1e-4, atol=1e-3 * np.sqrt(k),
                                   err_msg=f"{threads} threads")


def test_large_products_take_the_wide_tile():
    """With AVX-512 the f32 matmul's entry runs the wide tile's task (6 x 32 of 512-bit
    vectors) for products of at least WIDE_MIN_ROWS rows and WIDE_MIN_COLUMNS columns whose B
    is packed at run time, else AVX2's (checked on an AVX-512 target's IR); then, on this
    machine, numbers on both sides of both limits, batched, B transposed, 1 and 2 threads."""
    from llvmlite import ir as llvm_ir

    from lowering.codegen.cpu import gemm
    from lowering.target import cpu_target
    blocking = cpu_target("x86_64-unknown-linux-gnu", features="+avx2,+fma,+avx512f").blocking("f32")
    assert blocking.wide is not None and blocking.wide.vec == 2 * blocking.vec
    mod = llvm_ir.Module("m")
    pfor = llvm_ir.Function(mod, llvm_ir.FunctionType(llvm_ir.VoidType(), []), name="pfor")
    gemm.gemm_function(mod, "f32", llvm_ir.FloatType(), pfor, blocking)
    run = str(mod.globals["aot.gemm.f32.run"])
    assert re.search(rf'icmp sge i64 %"?[\w.]+"?, {gemm.WIDE_MIN_ROWS}\b', run)
    assert re.search(rf'icmp sge i64 %"?[\w.]+"?, {gemm.WIDE_MIN_COLUMNS}\b', run)
    assert '@"aot.gemm.f32.wide.run"' in run and '@"aot.gemm.f32.run_narrow"' in run
    assert "<16 x float>" in str(mod.globals["aot.gemm.f32.wide.micro_kernel6_packed"])
    rng = np.random.default_rng(11)
    rows, cols = gemm.WIDE_MIN_ROWS, gemm.WIDE_MIN_COLUMNS
    for dims, spec in (("batching_dims = [0] x [0], contracting_dims = [2] x [1]", "bmk,bkn->bmn"),
                       ("batching_dims = [0] x [0], contracting_dims = [2] x [2]", "bmk,bnk->bmn")):
        rhs = ["?", "?", "?"]
        lib = aot.compile(program(["?", "?", "?"], rhs, ["?", "?", "?"], dims),
                          name=f"gemm_wide_{spec[4:7]}")
        for bs, m, k, n in ((2, rows - 1, 70, cols), (1, rows, 300, cols - 1), (2, rows, 70, cols),
                            (1, 3 * rows + 5, 260, 2 * cols + 37)):
            a = rng.standard_normal((bs, m, k)).astype(np.float32)
            b = rng.standard_normal((bs, k, n) if spec[5] == "k" else (bs, n, k)).astype(np.float32)
            want = np.einsum(spec, a.astype(np.float64), b)
            for threads in (1, 2):
                lib.set_num_threads(threads)
                np.testing.assert_allclose(lib.main(a, b), want, rtol=1e-4, atol=1e-3 * np.sqrt(k),
                                           err_msg=f"{spec} {bs}x{m}x{k}x{n}, {threads} threads")
