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


def nchw_convs(w, returned):
    """Two 3x3 NCHW convolutions (4x8x8 positions x 16 features: the CPU's channels-last route,
    which wants the kernel HWIO) sharing one frozen OIHW kernel, a third reading its kernel as
    an argument, and with `returned` the frozen kernel also returned."""
    x, k = "tensor<4x16x8x8xf32>", "tensor<16x16x3x3xf32>"

    def conv(a, b):
        return (f"stablehlo.convolution(%{a}, %{b}) dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->"
                "[b, f, 0, 1], window = {pad = [[1, 1], [1, 1]]} {batch_group_count = 1 : i64, "
                f"feature_group_count = 1 : i64}} : ({x}, {k}) -> {x}\n")
    outs = [("b", x), ("c", x)] + ([("w", k)] if returned else [])
    return (f"func.func @main(%x: {x}, %v: {k}) -> ({', '.join(t for _, t in outs)}) {{\n"
            + hexconst("w", w, "f32") + f"  %a = {conv('x', 'w')}  %b = {conv('a', 'w')}"
            + f"  %c = {conv('x', 'v')}  return {', '.join('%' + n for n, _ in outs)} : "
            + f"{', '.join(t for _, t in outs)}\n}}")


@pytest.mark.parametrize("returned", [False, True])
def test_frozen_conv_kernel_stored_hwio_and_not_copied_per_call(returned):
    from conv_reference import np_conv
    rng = np.random.default_rng(5)
    w = (rng.standard_normal((16, 16, 3, 3)) / 12).astype(np.float32)
    text = nchw_convs(w, returned)
    loops = run_pipeline(parse_module(text, "test.mlir"), "loops")
    shapes = [op.attrs["type"].shape for op in loops.ops if op.name == "memref.global"]
    assert shapes == [(16, 16, 3, 3) if returned else (3, 3, 16, 16)], shapes
    copied = []  # per aot.conv: whether its kernel is a buffer the kernel function writes
    for f in loops.functions():
        for op in f.walk():
            if op.name == "aot.conv":
                copied.append(any(s.name == "memref.store" and s.operands[1] is op.operands[1]
                                  for s in f.walk()))
    # the argument's kernel (and a constant read elsewhere) is still copied on every call
    assert copied == ([True] * 3 if returned else [False, False, True]), copied
    x = rng.standard_normal((4, 16, 8, 8)).astype(np.float32)
    v = rng.standard_normal((16, 16, 3, 3)).astype(np.float32)
    got = aot.compile(text, name="prepack_hwio").main(x, v)
    dn = ((0, 1, [2, 3]), (1, 0, [2, 3]), (0, 1, [2, 3]))

    def conv(a, k):
        return np_conv(a, k, dn, (1, 1), [(1, 1), (1, 1)], (1, 1), (1, 1), (False, False), 1, 1)
    np.testing.assert_allclose(got[0], conv(conv(x, w), w), rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(got[1], conv(x, v), rtol=1e-4, atol=1e-4)
    if returned:
        np.testing.assert_array_equal(got[2], w)


def channels_last_conv(w, x_shape, stride, pad, frozen):
    """One NWC / NHWC convolution by a WIO / HWIO kernel, frozen or an argument."""
    n = len(w.shape) - 2
    sp = "0" if n == 1 else "0, 1"
    x = f"tensor<{'x'.join(map(str, x_shape))}xf32>"
    k = f"tensor<{'x'.join(map(str, w.shape))}xf32>"
    outs = [(s + 2 * pad - kk) // stride + 1 if isinstance(s, int) else None
            for s, kk in zip(x_shape[1:-1], w.shape[:-2])]
    y = f"tensor<{'x'.join(map(str, [x_shape[0]] + outs + [w.shape[-1]]))}xf32>"
    window = (f"window = {{stride = [{', '.join([str(stride)] * n)}], "
              f"pad = [{', '.join([f'[{pad}, {pad}]'] * n)}]}}")
    conv = (f"stablehlo.convolution(%x, %w) dim_numbers = [b, {sp}, f]x[{sp}, i, o]->[b, {sp}, f], "
            f"{window} {{batch_group_count = 1 : i64, feature_group_count = 1 : i64}} : "
            f"({x}, {k}) -> {y}\n")
    args = f"%x: {x}" + ("" if frozen else f", %w: {k}")
    return (f"func.func @main({args}) -> {y} {{\n" + (hexconst("w", w, "f32") if frozen else "")
            + f"  %y = {conv}  return %y : {y}\n}}")


@pytest.mark.parametrize("case", [
    # (kernel, inputs, stride, pad, kind): wav2vec2's k3s2 (features a whole panel, and 40:
    # the last panel cut), a big kernel over a small input (tasks by panels), a 3x3 at
    # stride 2, Winograd's 3x3 (with U stored, a batch of 1's 16 tiles too; the kernel as an
    # argument takes the direct convolution there: numpy's results, not the same bits)
    ((3, 32, 32), [(3, 41, 32), (1, 41, 32)], 2, 0, "panels"),
    ((3, 24, 40), [(2, 33, 24)], 2, 0, "panels"),
    ((3, 512, 512), [(1, 20, 512)], 1, 1, "panels"),
    ((3, 3, 16, 24), [(2, 9, 9, 16)], 2, 1, "panels"),
    ((3, 3, 16, 32), [(4, 8, 8, 16), (1, 8, 8, 16)], 1, 1, "winograd"),
])
def test_frozen_conv_kernel_stored_packed_and_bit_identical(case):
    """The frozen kernel is stored as the convolution reads it (its panels, or followed by
    Winograd's transform), not packed per call: the results are the bits the same program
    with the kernel as an argument gives, and equal numpy's, at every batch of a `?` form,
    on 1 and 2 threads."""
    from conv_reference import np_conv
    w_shape, shapes, stride, pad, kind = case
    rng = np.random.default_rng(sum(w_shape))
    w = (rng.standard_normal(w_shape) / np.sqrt(np.prod(w_shape[:-1]))).astype(np.float32)
    n = len(w_shape) - 2
    for x_shape in {shapes[0], ("?",) + shapes[0][1:]}:
        frozen = channels_last_conv(w, x_shape, stride, pad, True)
        loops = loops_text(frozen)
        assert f'aot.packed_conv = ["{kind}", ' in loops and "aot.packed_kernel = true" in loops
        tag = f"{'x'.join(map(str, w_shape))}_{x_shape[0]}"
        lib = aot.compile(frozen, name=f"prepack_conv_{tag}")
        plain = aot.compile(channels_last_conv(w, x_shape, stride, pad, False),
                            name=f"prepack_conv_arg_{tag}")
        for shape in shapes if x_shape[0] == "?" else shapes[:1]:
            x = rng.standard_normal(shape).astype(np.float32)
            sp = list(range(1, n + 1))
            want = np_conv(x, w, ((0, n + 1, sp), (n, n + 1, list(range(n))), (0, n + 1, sp)),
                           (stride,) * n, [(pad, pad)] * n, (1,) * n, (1,) * n, (False,) * n,
                           1, 1).astype(np.float32)
            for threads in (1, 2):
                lib.set_num_threads(threads)
                plain.set_num_threads(threads)
                got = lib.main(x)
                if kind == "panels" or shape[0] > 1:
                    np.testing.assert_array_equal(got, plain.main(x, w))
                np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4,
                                           err_msg=f"{shape} threads={threads}")


def _nchw_3x3(cin, cout, size, stride):
    """(rng, w, the program with w frozen, the program taking it as an argument): an NCHW
    3x3 convolution with a `?` batch and its OIHW kernel w."""
    rng = np.random.default_rng(cin + size)
    w = (rng.standard_normal((cout, cin, 3, 3)) / 12).astype(np.float32)
    out = (size + 2 - 3) // stride + 1
    x, k = f"tensor<?x{cin}x{size}x{size}xf32>", f"tensor<{cout}x{cin}x3x3xf32>"
    y = f"tensor<?x{cout}x{out}x{out}xf32>"
    conv = (f"stablehlo.convolution(%x, %w) dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->"
            f"[b, f, 0, 1], window = {{stride = [{stride}, {stride}], pad = [[1, 1], [1, 1]]}} "
            f"{{batch_group_count = 1 : i64, feature_group_count = 1 : i64}} : ({x}, {k}) -> {y}\n")
    frozen = (f"func.func @main(%x: {x}) -> {y} {{\n" + hexconst("w", w, "f32")
              + f"  %y = {conv}  return %y : {y}\n}}")
    return rng, w, frozen, f"func.func @main(%x: {x}, %w: {k}) -> {y} {{\n  %y = {conv}  return %y : {y}\n}}"


def _nchw_cases(rng, w, size, stride, batches):
    """(batch, input, numpy's result) of _nchw_3x3's convolution at each batch."""
    from conv_reference import np_conv
    dn = ((0, 1, [2, 3]), (1, 0, [2, 3]), (0, 1, [2, 3]))
    for batch in batches:
        a = rng.standard_normal((batch, w.shape[1], size, size)).astype(np.float32)
        yield batch, a, np_conv(a, w, dn, (stride, stride), [(1, 1), (1, 1)], (1, 1), (1, 1),
                                (False, False), 1, 1)


@pytest.mark.parametrize("cin, cout, size, stride", [(32, 32, 4, 1), (20, 24, 12, 1)])
def test_dynamic_nchw_frozen_conv_kernel_stored_once(cin, cout, size, stride):
    """An NCHW convolution with a `?` batch and few positions an image picks its route per
    call when its kernel is an argument (im2col's per-image products at small batches); with
    a frozen kernel it runs channels-last at every batch, the kernel stored once, HWIO and
    packed (no OIHW twin beside it), not copied per call. numpy's results at batches 1, 3, 33
    on 1 and 2 threads; Winograd's (32 features, U stored: at any tile count) and direct
    (20 -> 24)."""
    rng, w, frozen, with_arg = _nchw_3x3(cin, cout, size, stride)
    loops = loops_text(frozen)
    assert "aot.relayout" not in loops and "aot.packed_kernel = true" in loops, loops
    shapes = {g.split("type = ")[1].split(",")[0] for g in loops.splitlines()
              if '"memref.global"' in g}
    assert shapes == {f"memref<3x3x{cin}x{cout}xf32>"}, shapes
    assert "aot.packed_conv" in loops
    lib = aot.compile(frozen, name=f"prepack_once_{cin}_{cout}_{size}")
    plain = aot.compile(with_arg, name=f"prepack_once_arg_{cin}_{cout}_{size}")
    for batch, a, want in _nchw_cases(rng, w, size, stride, (1, 3, 33)):
        for threads in (1, 2):
            lib.set_num_threads(threads)
            plain.set_num_threads(threads)
            for got in (lib.main(a), plain.main(a, w)):
                np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4,
                                           err_msg=f"{batch} threads={threads}")


@pytest.mark.parametrize("cin, cout, size, stride", [(32, 32, 4, 1), (20, 24, 12, 1)])
def test_dynamic_nchw_conv_kernel_gets_a_relaid_twin(cin, cout, size, stride, monkeypatch):
    """An NCHW convolution with a `?` batch and a frozen kernel of more than TWIN_KERNEL_BYTES
    (here 0) picks its route per call: the OIHW kernel is the channels-first product's A,
    and was copied to HWIO on every call for the channels-last branch. Now the call passes a
    second constant, the kernel stored HWIO (then packed for the convolution), and the copy is
    gone; the OIHW constant stays for the product. Same
    bits as the kernel passed as an argument, and numpy's, at batches of both routes, on 1
    and 2 threads; the channels-last branch Winograd (32 features: from 64 positions a call,
    FROZEN_WINOGRAD_POSITIONS) and direct (20 -> 24)."""
    from lowering.codegen.cpu import conv_gemm
    monkeypatch.setattr(conv_gemm, "TWIN_KERNEL_BYTES", 0)
    rng, w, frozen, with_arg = _nchw_3x3(cin, cout, size, stride)
    loops = loops_text(frozen)
    assert "aot.relayout" not in loops and "aot.packed_kernel = true" in loops, loops
    shapes = {g.split("type = ")[1].split(",")[0] for g in loops.splitlines()
              if '"memref.global"' in g}
    assert shapes == {f"memref<{cout}x{cin}x3x3xf32>", f"memref<3x3x{cin}x{cout}xf32>"}, shapes
    assert "aot.packed_conv" in loops
    lib = aot.compile(frozen, name=f"prepack_twin0_{cin}_{cout}_{size}")
    plain = aot.compile(with_arg, name=f"prepack_twin0_arg_{cin}_{cout}_{size}")
    # batch 4 x 4x4: channels-last (Winograd's, U stored) for the twin
    for batch, a, want in _nchw_cases(rng, w, size, stride, (1, 3, 4, 33)):
        for threads in (1, 2):
            lib.set_num_threads(threads)
            plain.set_num_threads(threads)
            got = lib.main(a)
            # the route of the kernel as an argument (its bits), but Winograd's at 4 x 4x4
            # (64 positions) against the per-image products there
            same = batch != 4 or cin % 8 != 0
            assert np.array_equal(got, plain.main(a, w)) == same, (batch, threads)
            np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4,
                                       err_msg=f"{batch} threads={threads}")
