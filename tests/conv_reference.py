"""numpy references for windowed ops shared by ops/test_sort_conv_window.py and
codegen/test_gemm.py: dilation with padding, the StableHLO convolution in float64, its
MLIR text, and random convolutions to check the compiler against."""
import numpy as np


def dilate_pad(x, fill, base_dil, pads):
    """x dilated by base_dil (holes = fill) and padded by (lo, hi) pairs (negative crops)."""
    shape = [(n - 1) * d + 1 if n > 0 else 0 for n, d in zip(x.shape, base_dil)]
    y = np.full(shape, fill, x.dtype)
    y[tuple(slice(None, None, d) for d in base_dil)] = x
    for d, (lo, hi) in enumerate(pads):
        width = [(0, 0)] * y.ndim
        width[d] = (max(lo, 0), max(hi, 0))
        y = np.pad(y, width, constant_values=fill)
        start, stop = max(-lo, 0), y.shape[d] - max(-hi, 0)
        y = y.take(range(start, max(stop, start)), axis=d)
    return y


def np_conv(lhs, rhs, dn, strides, pads, lhs_dil, rhs_dil, reverse, groups, batch_groups):
    """The StableHLO convolution in float64, from canonical layouts [N, C, S..] x [O, I, K..]."""
    (lb, lf, lsp), (ki, ko, ksp), (ob, of, osp) = dn
    n = len(lsp)
    L = lhs.astype(np.float64).transpose([lb, lf] + lsp)
    R = rhs.astype(np.float64).transpose([ko, ki] + ksp)
    R = np.flip(R, axis=[2 + d for d in range(n) if reverse[d]]) if any(reverse) else R
    L = dilate_pad(L, 0.0, (1, 1) + tuple(lhs_dil), [(0, 0), (0, 0)] + list(pads))
    N, COUT, CIN = L.shape[0] // batch_groups, R.shape[0], R.shape[1]
    span = [(k - 1) * d + 1 for k, d in zip(R.shape[2:], rhs_dil)]
    sp_out = [max(0, (p - s) // st + 1) for p, s, st in zip(L.shape[2:], span, strides)]
    out = np.zeros([N, COUT] + sp_out)
    for b in range(N):
        for o in range(COUT):
            g = o // (COUT // groups)
            bg = o // (COUT // batch_groups)
            img = L[bg * N + b, g * CIN:(g + 1) * CIN]
            for s in np.ndindex(*sp_out):
                win = img[(slice(None),) + tuple(
                    slice(si * st, si * st + sp, d) for si, st, sp, d in
                    zip(s, strides, span, rhs_dil))]
                out[(b, o) + s] = np.sum(win * R[o])
    perm = [0] * (n + 2)
    for src, dst in enumerate([ob, of] + osp):
        perm[dst] = src
    return out.transpose(perm)


def conv_text(lhs_shape, rhs_shape, out_shape, dn, strides, pads, lhs_dil, rhs_dil, reverse,
              groups, batch_groups):
    def spec(first, second, a, b, sp):
        labels = [None] * (len(sp) + 2)
        labels[first], labels[second] = a, b
        for k, d in enumerate(sp):
            labels[d] = str(k)
        return "[" + ", ".join(labels) + "]"
    (lb, lf, lsp), (ki, ko, ksp), (ob, of, osp) = dn
    text = (spec(lb, lf, "b", "f", lsp) + "x" + spec(ki, ko, "i", "o", ksp) + "->"
            + spec(ob, of, "b", "f", osp))
    t = lambda s: "tensor<" + "x".join(map(str, s)) + "xf32>"  # noqa: E731
    arr = lambda v: ", ".join(map(str, v))  # noqa: E731
    return f"""
    func.func @main(%x: {t(lhs_shape)}, %w: {t(rhs_shape)}) -> {t(out_shape)} {{
      %0 = "stablehlo.convolution"(%x, %w) {{dimension_numbers = #stablehlo.conv<{text}>,
          window_strides = array<i64: {arr(strides)}>, lhs_dilation = array<i64: {arr(lhs_dil)}>,
          rhs_dilation = array<i64: {arr(rhs_dil)}>,
          padding = dense<[{", ".join(f"[{a}, {b}]" for a, b in pads)}]> : tensor<{len(pads)}x2xi64>,
          window_reversal = array<i1: {arr(str(r).lower() for r in reverse)}>,
          feature_group_count = {groups} : i64, batch_group_count = {batch_groups} : i64}}
          : ({t(lhs_shape)}, {t(rhs_shape)}) -> {t(out_shape)}
      return %0 : {t(out_shape)}
    }}"""


def random_conv(rng, dn, N, cin, cout, groups, batch_groups, spatial_hi=6):
    """A convolution with random spatial sizes, kernel, strides, dilations, padding
    (negative too) and window reversal, for dimension numbers dn: (its MLIR text, x, w,
    the float64 numpy result), or None when the result is empty."""
    n = len(dn[0][2])
    spatial = [int(s) for s in rng.integers(2, spatial_hi, n)]
    kernel = [int(k) for k in rng.integers(1, 4, n)]
    strides = [int(s) for s in rng.integers(1, 3, n)]
    lhs_dil = [int(s) for s in rng.integers(1, 3, n)]
    rhs_dil = [int(s) for s in rng.integers(1, 3, n)]
    pads = [tuple(int(p) for p in rng.integers(-1, 3, 2)) for _ in range(n)]
    reverse = [bool(r) for r in rng.integers(0, 2, n)]
    lhs_shape, rhs_shape = [0] * (n + 2), [0] * (n + 2)
    for src, dst in enumerate([dn[0][0], dn[0][1]] + dn[0][2]):
        lhs_shape[dst] = ([N, cin] + spatial)[src]
    for src, dst in enumerate([dn[1][1], dn[1][0]] + dn[1][2]):
        rhs_shape[dst] = ([cout, cin // groups] + kernel)[src]
    x = rng.uniform(-1, 1, lhs_shape).astype(np.float32)
    w = rng.uniform(-1, 1, rhs_shape).astype(np.float32)
    want = np_conv(x, w, dn, strides, pads, lhs_dil, rhs_dil, reverse, groups, batch_groups)
    if 0 in want.shape:
        return None
    text = conv_text(lhs_shape, rhs_shape, want.shape, dn, strides, pads, lhs_dil, rhs_dil,
                     reverse, groups, batch_groups)
    return text, x, w, want


def random_dimension_numbers(rng, n):
    perms = [list(rng.permutation(n + 2)) for _ in range(3)]
    return tuple((p[0], p[1], p[2:]) for p in perms)
