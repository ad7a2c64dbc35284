"""Frozen weights stored as the packed matmul's panels (lowering/passes/prepack.py): which
constants are packed (checked on the loop stage's text), and that products with them equal
numpy's on shapes that cut K blocks, register panels and task tiles, with a transposed B,
at every batch size a dynamic dim allows (the 1-row kernel included), on 1 and 2 threads."""
import numpy as np
import pytest

import aot
from lowering.frontend.parser import parse_module
from lowering.frontend.printer import print_module
from lowering.passes.pipeline import run_pipeline


def hexconst(name, w, elem):
    return (f'  %{name} = stablehlo.constant dense<"0x{w.tobytes().hex()}"> : '
            f'tensor<{"x".join(map(str, w.shape))}x{elem}>\n')


def loops_text(text):
    return print_module(run_pipeline(parse_module(text, "test.mlir"), "loops"))


def frozen_dense(w, elem, transposed=False):
    """x (?, K) @ W, W frozen: (K, N), or (N, K) contracted on its dim 1."""
    k, n = (w.shape[1], w.shape[0]) if transposed else w.shape
    dims = "contracting_dims = [1] x [1]" if transposed else "contracting_dims = [1] x [0]"
    wt = f"tensor<{w.shape[0]}x{w.shape[1]}x{elem}>"
    return (f"func.func @main(%x: tensor<?x{k}x{elem}>) -> tensor<?x{n}x{elem}> {{\n"
            + hexconst("w", w, elem)
            + f"  %y = stablehlo.dot_general %x, %w, {dims} : (tensor<?x{k}x{elem}>, {wt}) "
              f"-> tensor<?x{n}x{elem}>\n"
            f"  return %y : tensor<?x{n}x{elem}>\n}}")


@pytest.mark.parametrize("elem", ["f32", "f64"])
@pytest.mark.parametrize("k,n,transposed", [(300, 37, False), (1, 16, False), (520, 1030, False),
                                            (70, 45, True)])
def test_frozen_weights_are_packed_and_exact(elem, k, n, transposed):
    dt = np.dtype(elem.replace("f", "float"))
    rng = np.random.default_rng(k + n)
    w = rng.standard_normal((n, k) if transposed else (k, n)).astype(dt)
    text = frozen_dense(w, elem, transposed)
    loops = loops_text(text)
    assert loops.count("aot.packed_b") == 2  # on the constant, and on its matmul
    lib = aot.compile(text, name=f"prepack_{elem}_{k}_{n}_{int(transposed)}")
    wm = (w.T if transposed else w).astype(np.float64)
    tol = 1e-4 if elem == "f32" else 1e-12
    for m in (0, 1, 2, 5, 13, 40, 301):
        x = rng.standard_normal((m, k)).astype(dt)
        want = x.astype(np.float64) @ wm
        for threads in (1, 2):
            lib.set_num_threads(threads)
            got = lib.main(x)
            assert got.shape == (m, n) and got.dtype == dt
            np.testing.assert_allclose(got, want, rtol=tol, atol=tol * np.sqrt(k),
                                       err_msg=f"m={m} threads={threads}")


def test_a_constant_read_elsewhere_stays_as_it_is():
    """W feeds a matmul and an add, so its bytes must stay W's: not packed, and both uses
    read it right; V feeds two matmuls with the same view: packed once, read by both."""
    rng = np.random.default_rng(3)
    w = rng.standard_normal((20, 20)).astype(np.float32)
    v = rng.standard_normal((20, 20)).astype(np.float32)
    t = "tensor<20x20xf32>"
    text = ("func.func @main(%x: tensor<20x20xf32>) -> (tensor<20x20xf32>, tensor<20x20xf32>) {\n"
            + hexconst("w", w, "f32") + hexconst("v", v, "f32")
            + f"  %y = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : ({t}, {t}) -> {t}\n"
            f"  %z = stablehlo.add %y, %w : {t}\n"
            f"  %p = stablehlo.dot_general %x, %v, contracting_dims = [1] x [0] : ({t}, {t}) -> {t}\n"
            f"  %q = stablehlo.dot_general %p, %v, contracting_dims = [1] x [0] : ({t}, {t}) -> {t}\n"
            f"  return %z, %q : {t}, {t}\n}}")
    loops = loops_text(text)
    packed_globals = [line for line in loops.splitlines()
                      if "memref.global" in line and "aot.packed_b" in line]
    assert len(packed_globals) == 1 and loops.count("aot.packed_b = true") == 2
    lib = aot.compile(text, name="prepack_shared")
    x = rng.standard_normal((20, 20)).astype(np.float32)
    z, q = lib.main(x)
    x64 = x.astype(np.float64)
    np.testing.assert_allclose(z, x64 @ w + w, rtol=1e-5, atol=1e-4)
    np.testing.assert_allclose(q, (x64 @ v) @ v, rtol=1e-4, atol=1e-3)


def test_weights_as_arguments_are_not_packed():
    text = ("func.func @main(%x: tensor<?x8xf32>, %w: tensor<8x4xf32>) -> tensor<?x4xf32> {\n"
            "  %y = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : "
            "(tensor<?x8xf32>, tensor<8x4xf32>) -> tensor<?x4xf32>\n"
            "  return %y : tensor<?x4xf32>\n}")
    assert "aot.packed_b" not in loops_text(text)
