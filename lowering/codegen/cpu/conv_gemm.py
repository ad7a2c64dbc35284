"""Convolution as a packed matmul (im2col), so convolutions run at the matmul's speed.

A convolution with one batch group, all of one float type the packed matmul takes (f32,
f64), computes

    out[b, o..., f] = sum over k..., i of in[b, o*stride + k*dil - pad ..., i] * w[k..., i, f]

which is C = A @ B with A[m, kk] the input window of output position m = (b, o...)
(zeros where it falls in padding or between dilated input elements) and kk = (k..., i),
B[kk, f] the kernel. The kernel emits, with the buffers bufferisation gives it as
scratch (its `scratch` rule, sized on the host):

1. A, written row by row (im2col), and B, the kernel in (k..., i) x f order (window
   reversal applied here);
2. `aot.gemm(A, B, C)`, the packed matmul of gemm.py, on the thread pool;
3. when the result's layout is not (batch, spatial..., feature), C is a scratch buffer
   too and is copied into the result's layout.

A result laid out (batch, feature, spatial...) (NCHW, JAX's default) is computed the
other way round instead, in place: out[b] = W[f, (i, k...)] @ A_b[(i, k...), p] for
each batch index, A_b's rows being shifted copies of input rows, so its writes and the
input's reads both run along the last spatial dim.

A convolution of G > 1 feature groups of at least NR/2 output features each is G such
products, one batch of the packed matmul (A [G, M, K/G...], B [G, K, N/G], C [G, M, N/G]
copied into the result): grouped convolutions at the matmul's speed instead of the direct
loop (`_emit_grouped`), where the direct convolution does not take them (whole panels a
group, or two groups a panel: `thin_groups`). Depthwise ones (one feature a group) run
conv_depthwise.py's kernel.

A 1-D or 2-D convolution in (batch, spatial..., feature) layouts with enough input features skips
im2col: `aot.conv`, the direct convolution of conv_direct.py, reads the input in place
(`direct`).

The integer path of quantized convolutions (i16 x i16 -> i32, lowering/ops/quantized.py)
takes the same route: A and B in i16, C in i32, the packed matmul's pair kernel. Other
convolutions (batch groups, thin feature groups, other integer or 16-bit types) keep the direct loop
kernel of ops/windows.py. Registered as the CPU's override of that kernel.
"""
from __future__ import annotations

import math

from lowering.codegen.cpu import conv_depthwise, conv_direct, conv_winograd, transpose  # noqa: F401  (overrides)
from lowering.codegen.cpu.matmul import epilogue_tile, packed_kind
from lowering.codegen.llvm import fastmath
from lowering.ir.builder import Ix, loop_nest
from lowering.ir.core import MemRefType, Operation, ScalarType, TensorType, bit_width, numpy_dtype
from lowering.ops import registry
from lowering.ops.windows import Conv, buffer_dims, row_ranges, when_nonempty, window_position

# Feature groups go through per-group matmuls when each group has at least half an NR-wide
# panel of output features. Thinner ones stay in the loop kernel of ops/windows.py, which LLVM
# vectorises across the features (depthwise ones: conv_depthwise.py): one AVX2 core, a
# depthwise 3x3 over 1x56x56x64 0.34 ms there against 13 ms as 64 one-column matmuls; 8 groups
# of 4 features (28x28x32) 0.30 / 0.34 ms; 16 groups of 8, 1-D kernel 32 (3x99x128): 6.6 / 4.9 ms.


def takes(target, op: Operation) -> bool:
    """Whether a convolution goes through im2col and the packed matmul on `target`."""
    out = op.results[0].type if op.results else op.operands[2].type
    if packed_kind(target, op.operands[0].type.elem, op.operands[1].type.elem, out.elem) is None:
        return False
    c = Conv(op)
    if c.B != 1:
        return False
    if c.G == 1:
        return True
    rhs = op.operands[1].type
    outs = rhs.shape[c.ko]
    return (isinstance(rhs.shape[c.ki], int) and isinstance(outs, int)
            and outs // c.G >= target.blocking(out.elem).nr // 2)


def _natural_output(c) -> bool:
    """The result is laid out (batch, spatial..., feature): C can be the result itself."""
    return [c.ob] + c.osp + [c.of] == list(range(c.n + 2))


def _channels_first(c) -> bool:
    """The result is laid out (batch, feature, spatial...), as in NCHW: per batch index
    out[b] = W[f, kk] @ A_b[kk, p], with p the output positions, written in place."""
    return [c.ob, c.of] + c.osp == list(range(c.n + 2))


def _kernel_is_w(c) -> bool:
    """The kernel is laid out (out, in, spatial...) and not reversed, as PyTorch's OIHW: it is
    W[f, (i, k...)] already, and the channels-first product reads it in place. Copied into W
    first, ResNet-18's 256 -> 256 3x3 at 4x4 and batch 1 spent a fifth of its time in the
    copy (memmove, 2.4 MB a call)."""
    return [c.ko, c.ki] + c.ksp == list(range(c.n + 2)) and not any(c.window.reverse)


# Below this many output positions an image, a channels-first result is not computed image
# by image (W @ A_b would be a product of few columns, W read once per image: torchvision's
# ResNet-18 at 64x64, layer4's 512->512 3x3 at 2x2 positions, 4.6k x 512 weights read 32
# times at batch 32) but as one product W @ A over every image's positions, A's columns
# (batch, positions), and copied into place.
FEW_POSITIONS = 16


def _few_positions(op: Operation, c) -> bool:
    """A channels-first result with fewer (static) output positions an image than
    FEW_POSITIONS: one product over the batch's positions (`_emit_channels_first`)."""
    if not _channels_first(c):
        return False
    out = op.results[0].type if op.results else op.operands[2].type
    positions = 1
    for s in c.osp:
        if not isinstance(out.shape[s], int):
            return False
        positions *= out.shape[s]
    return positions < FEW_POSITIONS


def _via_channels_last(op: Operation, c) -> bool:
    """A 2-D channels-first convolution (PyTorch's NCHW x OIHW) that conv_direct.py would take
    in channels-last form (`direct`'s conditions on the window and features) at stride 1,
    but for few positions an image (one product over the batch is faster there) and 1x1
    windows (a plain product of the input as it is): copied into channels-last scratch,
    computed by the direct (or Winograd) convolution, copied back (`_emit_via_channels_last`).
    One AVX2 core, 32x64x16x16 3x3 + bias + relu: 17.1 ms as im2col's per-image products,
    6.0 ms as the same convolution in NHWC. At stride 2 (ResNet's 64 -> 128 at 16x16) the
    copies cost what the direct form gains: 1.1-1.3x the per-image time at batches 8 and 32."""
    if c.n != 2 or c.G != 1 or not _channels_first(c) or _few_positions(op, c):
        return False
    lhs, rhs = op.operands[0].type, op.operands[1].type
    if [c.lb, c.lf] + c.lsp != [0, 1, 2, 3] or lhs.elem not in ("f32", "f64"):
        return False
    w = c.window
    ksizes = [rhs.shape[d] for d in c.ksp]
    return (ksizes != [1, 1] and all(v == 1 for v in w.stride) and not any(w.reverse)
            and all(d == 1 for d in w.base_dil)
            and all(isinstance(v, int) for v in w.stride + w.win_dil + ksizes + [p[0] for p in w.pad])
            and isinstance(lhs.shape[c.lf], int) and lhs.shape[c.lf] >= DIRECT_MIN_FEATURES
            and isinstance(rhs.shape[c.ko], int))


# Output positions a call (batch x an image's) from which the channels-last route pays for
# its copies, the kernel's above all (F C kh kw elements, once a call); below, im2col's
# per-image products. One AVX2 core, 3x3 + bias + relu, channels-last / per-image time:
# 64x16x16 at batch 1 (256 positions) 0.75, 128x8x8 at batch 1 (64) 2.6 and at batch 8 0.78,
# 256x4x4 at batch 8 (128) 1.6 and at batch 32 0.76.
CHANNELS_LAST_POSITIONS = 256

# A frozen kernel of at most this many bytes takes the channels-last route at every `?` batch:
# stored relaid (and as Winograd's U) once, no kernel copy (passes/prepack.py); a bigger one
# keeps the per-call route, stored twice (OIHW for the per-image products, relaid for the
# channels-last route). `?` batch, one core, caches flushed between calls (as in a model),
# channels-last / per-image time at batch 1 / 2 / 4 / 8: 128 -> 32 at 8x8 (0.14 MiB) 0.79 /
# 0.66 / 1.0 / 1.0; 128x8x8 (0.56 MiB) 0.79 / 0.66 / 1.0 / 1.0; 192x4x4 (1.3 MiB) 1.6 / 1.4 /
# 0.95 / 0.72; 256x4x4 (2.3 MiB) 1.6 / 1.5 / 0.89 / 0.68; 512x4x4 (9 MiB, not Winograd's)
# 1.3 / 1.2 / 1.2 / 1.1 (benchmarks/results/2026-11-29-kernel-twin-3.md).
TWIN_KERNEL_BYTES = 1 << 20


# A frozen kernel twice (above TWIN_KERNEL_BYTES) whose channels-last route is Winograd's: U
# is stored, so that route pays from this many positions a call (caches flushed, at batch 4 /
# 8: 256x4x4 0.89 / 0.68 of the per-image time, 192x4x4 0.95 / 0.72).
FROZEN_WINOGRAD_POSITIONS = 64


def _run_time_positions(b, op: Operation) -> int:
    """Positions a call from which the per-call route runs channels-last."""
    frozen = getattr(op.operands[1].owner, "name", None) == "memref.get_global"
    if frozen and _direct_attrs(b.target, op).get("winograd"):
        return FROZEN_WINOGRAD_POSITIONS
    return CHANNELS_LAST_POSITIONS


def _frozen_small_kernel(op: Operation) -> bool:
    """A constant kernel of at most TWIN_KERNEL_BYTES: when bufferisation asks for the scratch,
    an `mhlo.constant` (`_scratch` marks the op `aot.frozen_kernel`); after, that mark (the
    kernel is a buffer then, its constant out of sight)."""
    if "aot.frozen_kernel" in op.attrs:
        return True
    rhs = op.operands[1].type
    if isinstance(rhs, MemRefType) or (
            math.prod(rhs.shape) * bit_width(rhs.elem) // 8 > TWIN_KERNEL_BYTES):
        return False
    return getattr(op.operands[1].owner, "key", None) == "constant"


def _static_positions(op: Operation, c) -> int | None:
    """An image's output positions, None unless static."""
    out = op.results[0].type if op.results else op.operands[2].type
    sizes = [out.shape[d] for d in c.osp]
    return None if None in sizes else sizes[0] * sizes[1]


def _channels_last_route(op: Operation, c) -> str | None:
    """Whether a convolution runs channels-last (`_via_channels_last`): "always" when every call
    has CHANNELS_LAST_POSITIONS output positions or more, or its batch is `?` and its kernel a
    small constant (a static batch keeps the OIHW kernel alone: the smaller library), "run
    time" when that depends on a `?` batch (the kernel holds both routes), else None."""
    if not _via_channels_last(op, c):
        return None
    out = op.results[0].type if op.results else op.operands[2].type
    positions, batch = _static_positions(op, c), out.shape[c.ob]
    if positions is None or positions >= CHANNELS_LAST_POSITIONS:
        return "always"
    if batch is None:
        return "always" if _frozen_small_kernel(op) else "run time"
    return "always" if batch * positions >= CHANNELS_LAST_POSITIONS else None


def _kernel_is_hwio(c) -> bool:
    """The kernel is laid out (spatial..., in, out), not reversed: aot.conv's kernel as it is."""
    return c.ksp + [c.ki, c.ko] == list(range(c.n + 2)) and not any(c.window.reverse)


def _emit_via_channels_last(b, op: Operation, c, lhs, rhs, out, x, k, y) -> None:
    """x[b, h, w, i] = lhs[b, i, h, w], k[kh, kw, i, f] = rhs's kernel (rhs itself when it is
    HWIO), aot.conv(x, k) -> y (Winograd's where it takes the window), then
    out[b, f, oh, ow] = y[b, oh, ow, f]."""
    elem = lhs.type.elem
    ld, od = buffer_dims(b, lhs), buffer_dims(b, out)
    attrs = _direct_attrs(b.target, op)
    if _kernel_is_hwio(c):
        k = rhs
    else:
        _kernel_to_hwio(b, c, rhs, k, elem)
    if attrs.get("winograd"):  # conv_winograd copies lhs into x and y into out itself
        b.op("aot.conv", [x, k, y, lhs, out], attrs=dict(attrs, channels_first=True))
        return
    if transpose.tile(b.target, elem):  # the copies in register tiles (codegen/cpu/transpose.py)
        b.op("aot.transpose", [lhs, x], attrs={"permutation": (0, 2, 3, 1)})
        b.op("aot.conv", [x, k, y], attrs=attrs)
        b.op("aot.transpose", [y, out], attrs={"permutation": (0, 3, 1, 2)})
        return
    with loop_nest(b, [Ix(b).val(d) for d in ld]) as (nb, ivs):  # read in order
        v = nb.v("memref.load", [lhs] + ivs, ScalarType(elem))
        nb.op("memref.store", [v, x, ivs[c.lb]] + [ivs[d] for d in c.lsp] + [ivs[c.lf]])
    b.op("aot.conv", [x, k, y], attrs=attrs)
    with loop_nest(b, [Ix(b).val(d) for d in od]) as (ob, ivs):  # written in order
        v = ob.v("memref.load", [y, ivs[c.ob]] + [ivs[d] for d in c.osp] + [ivs[c.of]],
                 ScalarType(out.type.elem))
        ob.op("memref.store", [v, out] + ivs)


def _kernel_to_hwio(b, c, rhs, k, elem) -> None:
    """k[kh, kw, i, f] = rhs's kernel, input feature by input feature: OIHW's o x (kh kw)
    block of one i is read in lines that stay cached for the next i, and written along f (in
    order of the kernel's dims, the writes of 256x256x3x3 went C F elements apart: 3 ms at
    batch 1). The nest is marked `aot.relayout` (k = rhs transposed by it): prepack.py drops
    it for a constant kernel, stored so at compile time."""
    rd = buffer_dims(b, rhs)
    order = [c.ki, c.ko] + c.ksp
    with loop_nest(b, [Ix(b).val(rd[d]) for d in order]) as (kb, ivs):
        at = [None] * len(rd)
        for d, iv in zip(order, ivs):
            at[d] = iv
        v = kb.v("memref.load", [rhs] + at, ScalarType(elem))
        kb.op("memref.store", [v, k] + [at[d] for d in c.ksp] + [at[c.ki], at[c.ko]])
    b.block.ops[-1].attrs["aot.relayout"] = c.ksp + [c.ki, c.ko]


def _scratch(op: Operation, shapes: list, hs, results):
    """A [M, K], B [K, N] and, for other output layouts, C [M, N]: M = batch x output
    positions, K = kernel positions x input features, N = output features."""
    c = Conv(op)
    elem = op.operands[0].type.elem  # A and B: the operands' type; C: the result's
    out_elem = (op.results[0].type if op.results else op.operands[2].type).elem
    out, rhs = results[0], shapes[1]
    m, k = out[c.ob], rhs[c.ki]
    for s in range(c.n):
        m = hs.mul(m, out[c.osp[s]])
        k = hs.mul(k, rhs[c.ksp[s]])
    n = rhs[c.ko]

    def t(*dims, elem=elem):
        return TensorType(tuple(d if isinstance(d, int) else None for d in dims), elem), list(dims)
    if c.G > 1:  # per group g: A[g] [M, K], B[g] [K, N / G], C[g] [M, N / G]
        return [t(c.G, m, k), t(c.G, k, n // c.G), t(c.G, m, n // c.G, elem=out_elem)]
    if _frozen_small_kernel(op):  # read again after bufferisation, when the constant is gone
        op.attrs["aot.frozen_kernel"] = True
    route = _channels_last_route(op, c)
    last = [t(shapes[0][c.lb], *[shapes[0][d] for d in c.lsp], shapes[0][c.lf]),
            t(1, 1) if _kernel_is_hwio(c) else t(*[rhs[d] for d in c.ksp], rhs[c.ki], n),
            t(out[c.ob], *[out[d] for d in c.osp], n, elem=out_elem)] if route else []
    if route == "always":  # X [B, H, W, C], K [KH, KW, C, F] ([1, 1]: HWIO), Y [B, OH, OW, F]
        return last
    if _channels_first(c):  # W [N, K] and A_b [B, K, positions] (after `last`: a `?` batch)
        positions = 1
        for s in range(c.n):
            positions = hs.mul(positions, out[c.osp[s]])
        w = t(1, 1) if _kernel_is_w(c) else t(n, k)  # [1, 1]: unused, the kernel read in place
        if _few_positions(op, c):  # A [K, batch, positions], C [N, batch, positions]
            return [w, t(k, out[c.ob], positions), t(n, out[c.ob], positions, elem=out_elem)]
        return last + [w, t(out[c.ob], k, positions)]
    buffers = [t(m, k), t(k, n)]
    if not _natural_output(c):
        buffers.append(t(m, n, elem=out_elem))
    return buffers


def emit(k, op: Operation, b, args: list) -> None:
    """The kernel: im2col into A, the kernel into B, the packed matmul, and the copy into
    the result's layout when it needs one."""
    lhs, rhs, out, a, bmat = args[:5]
    c = Conv(op)
    ld, rd, od = buffer_dims(b, lhs), buffer_dims(b, rhs), buffer_dims(b, out)
    spatial_in = [ld[c.lsp[s]] for s in range(c.n)]
    ksizes = [rd[c.ksp[s]] for s in range(c.n)]
    features = rd[c.ki]

    def flat(ix, ivs, dims):
        idx = 0
        for iv, d in zip(ivs, dims):
            idx = ix.add(ix.mul(idx, d), iv)
        return idx

    if c.G > 1:
        return _emit_grouped(b, c, lhs, rhs, out, a, bmat, args[5], ld, rd, od, spatial_in,
                             ksizes, features, flat)
    route = _channels_last_route(op, c)
    if route == "always":  # a: X, bmat: K, args[5]: Y
        return _emit_via_channels_last(b, op, c, lhs, rhs, out, a, bmat, args[5])
    if route == "run time":  # X, K, Y, then W and the batched A_b
        ix = Ix(b)
        positions = ix.mul(od[c.ob], _static_positions(op, c))
        trips = ix.select(ix.cmp("sge", positions, _run_time_positions(b, op)), 1, 0)
        _, gb, _, _ = b.for_(b.index(0), trips)
        _emit_via_channels_last(gb, op, c, lhs, rhs, out, a, bmat, args[5])
        gb.yield_([])
        _, gb, _, _ = b.for_(b.index(0), ix.sub(1, trips))
        _emit_channels_first(gb, c, lhs, rhs, out, args[6], args[7], ld, rd, od, spatial_in,
                             ksizes, features, flat)
        gb.yield_([])
        return
    if _channels_first(c):  # a: W, bmat: the batched A_b (or one A, C beside it)
        return _emit_channels_first(b, c, lhs, rhs, out, a, bmat, ld, rd, od, spatial_in, ksizes,
                                    features, flat, args[5] if _few_positions(op, c) else None)

    _im2col(b, c, lhs, a, ld, od, spatial_in, ksizes, features, flat)
    _kernel_matrix(b, c, lhs.type.elem, rhs, bmat, rd, ksizes, features, flat)

    target = out if _natural_output(c) else args[5]
    b.op("aot.gemm", [a, bmat, target],
         attrs={"lhs_runs": [0, 0, 0, 1, 1, 2], "rhs_runs": [0, 0, 0, 1, 1, 2]})
    if target is out:
        return
    with loop_nest(b, [Ix(b).val(d) for d in od]) as (cb, ivs):
        ix = Ix(cb)
        m = flat(ix, [ivs[c.ob]] + [ivs[s] for s in c.osp], [od[c.ob]] + [od[s] for s in c.osp])
        y = cb.v("memref.load", [target, Ix(cb).val(m), ivs[c.of]], ScalarType(out.type.elem))
        cb.op("memref.store", [y, out] + ivs)


def _im2col(b, c, lhs, a, ld, od, spatial_in, ksizes, features, flat, groups=None) -> None:
    """A[m, kk] (A[g, m, kk] with `groups`, g's input features): row m = (batch, output
    position), column kk = (kernel position, input feature), the input under that window
    element, zero in the padding and between dilated input elements."""
    w = c.window
    elem = lhs.type.elem
    out_pos = [od[c.ob]] + [od[s] for s in c.osp]
    lead = [groups] if groups else []

    def gather(eb, can_load):
        with loop_nest(eb, [Ix(eb).val(d) for d in lead + out_pos]) as (rows, rivs):
            g, rivs = (rivs[0], rivs[1:]) if groups else (None, rivs)
            with loop_nest(rows, [Ix(rows).val(d) for d in ksizes + [features]]) as (win, kivs):
                ix = Ix(win)
                m = flat(ix, rivs, out_pos)
                kk = flat(ix, kivs, ksizes + [features])
                zero = win.const(0, elem)
                value = zero
                if can_load:
                    valid, lidx = None, [None] * len(ld)
                    for s in range(c.n):
                        ok, q = window_position(ix, w, s, rivs[1 + s], kivs[s], spatial_in[s])
                        valid = ix.and_(valid, ok)
                        lidx[c.lsp[s]] = q
                    feature = kivs[c.n] if g is None else ix.add(ix.mul(g, features), kivs[c.n])
                    lidx[c.lb], lidx[c.lf] = rivs[0], feature
                    if valid is not None:
                        lidx = [ix.select(valid, q, 0) if d in c.lsp else q for d, q in enumerate(lidx)]
                    value = win.v("memref.load", [lhs] + [Ix(win).val(q) for q in lidx], ScalarType(elem))
                    if valid is not None:
                        value = ix.select(valid, value, zero, ScalarType(elem))
                at = ([g] if g is not None else []) + [Ix(win).val(m), Ix(win).val(kk)]
                win.op("memref.store", [value, a] + at)
    when_nonempty(b, spatial_in, gather)


def _kernel_matrix(b, c, elem, rhs, bmat, rd, ksizes, features, flat, groups=None) -> None:
    """B[kk, f] = w[k..., i, f] (B[g, kk, f] = w[k..., i, g F/G + f] with `groups`), the
    window reversed where asked; `elem` A's and B's type (i16 for the integer path, whose C
    is i32)."""
    w = c.window
    fg = rd[c.ko] // groups if groups else rd[c.ko]
    lead = [groups] if groups else []
    with loop_nest(b, [Ix(b).val(d) for d in lead + ksizes + [features, fg]]) as (kb, kivs):
        ix = Ix(kb)
        g, kivs = (kivs[0], kivs[1:]) if groups else (None, kivs)
        ridx = [None] * len(rd)
        for s in range(c.n):
            kpos = kivs[s]
            if w.reverse[s]:
                kpos = ix.sub(ix.sub(ksizes[s], 1), kpos)
            ridx[c.ksp[s]] = kpos
        f = kivs[c.n + 1]
        ridx[c.ki], ridx[c.ko] = kivs[c.n], f if g is None else ix.add(ix.mul(g, fg), f)
        x = kb.v("memref.load", [rhs] + [Ix(kb).val(q) for q in ridx], ScalarType(elem))
        kk = flat(ix, kivs[:c.n + 1], ksizes + [features])
        kb.op("memref.store", [x, bmat] + ([g] if g is not None else []) + [Ix(kb).val(kk), f])


def _emit_grouped(b, c, lhs, rhs, out, a, bmat, cmat, ld, rd, od, spatial_in, ksizes, features,
                  flat):
    """A convolution of G feature groups as G matmuls, one batch of the packed matmul:
    A[g] the im2col of group g's input features, B[g] its kernel, C[g] its output features,
    copied into the result's layout (wav2vec2's grouped positional convolution, 16 groups)."""
    groups, fg = c.G, rd[c.ko] // c.G
    out_pos = [od[c.ob]] + [od[s] for s in c.osp]

    _im2col(b, c, lhs, a, ld, od, spatial_in, ksizes, features, flat, groups)
    _kernel_matrix(b, c, lhs.type.elem, rhs, bmat, rd, ksizes, features, flat, groups)

    b.op("aot.gemm", [a, bmat, cmat],
         attrs={"lhs_runs": [0, 1, 1, 2, 2, 3], "rhs_runs": [0, 1, 1, 2, 2, 3]})
    with loop_nest(b, [Ix(b).val(d) for d in od]) as (cb, ivs):
        ix = Ix(cb)
        m = flat(ix, [ivs[c.ob]] + [ivs[s] for s in c.osp], out_pos)
        f = ivs[c.of]
        y = cb.v("memref.load", [cmat, Ix(cb).val(ix.div(f, fg)), Ix(cb).val(m),
                                 Ix(cb).val(ix.rem(f, fg))], ScalarType(out.type.elem))
        cb.op("memref.store", [y, out] + ivs)


def _row_in_ranges(b, c, lhs, cols, at, lidx, valid, k, row, width, size, zero) -> None:
    """A_b's row of window position k along the last spatial dim, in three loops: the
    positions left of the input (zeros), those inside it (loads at consecutive strided
    addresses, no clamp per element: LLVM vectorises them; clamped, it gathered them one
    element at a time, 9 % of a 256 -> 256 3x3 at 4x4's time with a `?` batch), and those
    right of it (zeros). `lidx` holds the other dims' input indices, `valid` their check."""
    w, elem, d = c.window, lhs.type.elem, c.n - 1
    ix, stride = Ix(b), w.stride[d]
    start = ix.sub(ix.mul(k, w.win_dil[d]), w.pad[d][0])  # input index of output position 0
    lo, hi = row_ranges(ix, start, stride, size, width)
    for begin, end, load in ((0, lo, False), (lo, hi, True), (hi, width, False)):
        _, lb, o, _ = b.for_(Ix(b).val(begin), Ix(b).val(end))
        lx = Ix(lb)
        value = zero
        if load:
            idx = list(lidx)
            idx[c.lsp[d]] = lx.add(lx.mul(o, stride), start)
            value = lb.v("memref.load", [lhs] + [lx.val(q) for q in idx], ScalarType(elem))
            if valid is not None:
                value = lx.select(valid, value, zero, ScalarType(elem))
        lb.op("memref.store", [value, cols] + at + [lx.val(lx.add(lx.mul(row, width), o))])
        lb.yield_([])


def _emit_channels_first(b, c, lhs, rhs, out, wmat, cols, ld, rd, od, spatial_in, ksizes,
                         features, flat, cmat=None):
    """out[b, f, p...] = W[f, (i, k...)] @ A_b[(i, k...), p...]: A_b's rows are shifted
    (strided, dilated) copies of the input's rows, read along the last spatial dim, and
    the product lands in the result's own layout. With `cmat` (few positions) one product
    C[f, b, p] = W @ A[(i, k...), b, p] instead, copied into the result."""
    w = c.window
    elem = lhs.type.elem
    out_sp = [od[s] for s in c.osp]

    def im2col(eb, can_load):
        ranges = can_load and w.base_dil[c.n - 1] == 1  # rows in three ranges, below
        inner = out_sp[:-1] if ranges else out_sp
        with loop_nest(eb, [Ix(eb).val(d) for d in [od[c.ob], features] + ksizes + inner]) as (nest, ivs):
            ix = Ix(nest)
            bi, i, kvs, ovs = ivs[0], ivs[1], ivs[2:2 + c.n], ivs[2 + c.n:]
            kk = flat(ix, [i] + kvs, [features] + ksizes)
            at = [Ix(nest).val(kk), bi] if cmat is not None else [bi, Ix(nest).val(kk)]
            zero = nest.const(0, elem)
            if not can_load:
                nest.op("memref.store", [zero, cols] + at + [Ix(nest).val(flat(ix, ovs, out_sp))])
                return
            valid, lidx = None, [None] * len(ld)
            for s in range(len(ovs)):
                ok, q = window_position(ix, w, s, ovs[s], kvs[s], spatial_in[s])
                valid = ix.and_(valid, ok)
                lidx[c.lsp[s]] = q
            lidx[c.lb], lidx[c.lf] = bi, i
            if valid is not None:  # (the last spatial dim's index, None with ranges: set there)
                lidx = [ix.select(valid, q, 0) if d in c.lsp and q is not None else q
                        for d, q in enumerate(lidx)]
            if not ranges:
                value = nest.v("memref.load", [lhs] + [Ix(nest).val(q) for q in lidx], ScalarType(elem))
                if valid is not None:
                    value = ix.select(valid, value, zero, ScalarType(elem))
                nest.op("memref.store", [value, cols] + at + [Ix(nest).val(flat(ix, ovs, out_sp))])
                return
            _row_in_ranges(nest, c, lhs, cols, at, lidx, valid, kvs[-1], flat(ix, ovs, out_sp[:-1]),
                           out_sp[-1], spatial_in[-1], zero)
    when_nonempty(b, spatial_in, im2col)

    if _kernel_is_w(c):  # W is the kernel: read in place
        wmat, w_runs = rhs, [0, 0, 0, 1, 1, c.n + 2]
    else:
        _kernel_as_w(b, c, elem, rhs, wmat, rd, ksizes, features, flat)
        w_runs = [0, 0, 0, 1, 1, 2]
    if cmat is None:
        b.op("aot.gemm", [wmat, cols, out], attrs={"lhs_runs": w_runs, "rhs_runs": [0, 1, 1, 2, 2, 3]})
        return
    b.op("aot.gemm", [wmat, cols, cmat], attrs={"lhs_runs": w_runs, "rhs_runs": [0, 0, 0, 1, 1, 3]})
    with loop_nest(b, [Ix(b).val(d) for d in od]) as (cb, ivs):
        p = flat(Ix(cb), ivs[2:], out_sp)
        y = cb.v("memref.load", [cmat, ivs[c.of], ivs[c.ob], Ix(cb).val(p)],
                 ScalarType(out.type.elem))
        cb.op("memref.store", [y, out] + ivs)


def _kernel_as_w(b, c, elem, rhs, wmat, rd, ksizes, features, flat) -> None:
    """W[f, (i, k...)] = the kernel's element (f, i, k...), the window reversed where asked."""
    w = c.window
    with loop_nest(b, [Ix(b).val(d) for d in [rd[c.ko], features] + ksizes]) as (kb, kivs):
        ix = Ix(kb)
        ridx = [None] * len(rd)
        ridx[c.ko], ridx[c.ki] = kivs[0], kivs[1]
        for s in range(c.n):
            kpos = kivs[2 + s]
            if w.reverse[s]:
                kpos = ix.sub(ix.sub(ksizes[s], 1), kpos)
            ridx[c.ksp[s]] = kpos
        x = kb.v("memref.load", [rhs] + [Ix(kb).val(q) for q in ridx], ScalarType(elem))
        kk = flat(ix, kivs[1:], [features] + ksizes)
        kb.op("memref.store", [x, wmat, kivs[0], Ix(kb).val(kk)])


# Below this many input features a window position's run of them is too short for a
# micro-kernel call of its own: im2col gathers the whole window into one row of A instead.
# 3x3 convolutions of 8x32x32 images to 32 features, im2col against direct, one thread:
# 3 features 0.23 / 0.46 ms, 8: 0.52 / 0.67, 16: 1.0 / 1.0, 32: 2.2 / 1.8.
DIRECT_MIN_FEATURES = 16
# A 1-D convolution's window row (kw x features, contiguous in the input) is one micro-kernel
# call where the window is inside: wav2vec2's first convolution, 1 feature x 10, 2 threads,
# 8 x 16000 samples to 128 features: 5.3 ms direct against 8.8 ms for im2col (a loaded
# machine; 3 x 2000: 0.15 / 0.17 ms).
DIRECT_MIN_WINDOW_ROW = 8


def thin_groups(nr: int, groups: int, outs: int, features: int) -> int:
    """P > 1 when P groups of `outs` output features (at least NR / 2) fill an NR-wide panel
    and the direct convolution packs their kernels block-diagonally into it (conv_direct.py's
    _thin_groups, the same rule at run time), their P x `features` input features
    together at least DIRECT_MIN_FEATURES: wav2vec2's 16 groups of 8 read in place, without
    im2col's copy of the input 32 times over. Else 1."""
    p = nr // outs if 0 < outs < nr and nr % outs == 0 else 1
    return p if 1 < p <= 2 and groups % p == 0 and p * features >= DIRECT_MIN_FEATURES else 1


def direct(target, op: Operation) -> bool:
    """Whether a convolution runs as conv_direct.py's direct convolution: 1-D or 2-D, input
    and result (batch, spatial..., feature), kernel (spatial..., in, out) not reversed, no
    input dilation, a static window, f32/f64, static output features (a last panel cut by
    them is read packed, zero-padded: DenseNet's growth of 12), and at least
    DIRECT_MIN_FEATURES input features; a 1-D convolution a window row (kw x features) of
    DIRECT_MIN_WINDOW_ROW. Feature groups too
    when each group has whole NR-wide panels of output features and DIRECT_MIN_FEATURES
    input features: a panel's products read its group's input features in place, one call
    per window position, with no im2col (whose A would be kw times the input: wav2vec2's
    128-wide positional convolution of 48-feature groups); or when two groups fill a panel
    (thin_groups)."""
    if not takes(target, op) or op.operands[0].type.elem not in ("f32", "f64"):
        return False
    c = Conv(op)
    w = c.window
    lhs, rhs = op.operands[0].type, op.operands[1].type
    natural = list(range(c.n + 2))
    features, outs = lhs.shape[c.lf], rhs.shape[c.ko]
    nr = target.blocking(lhs.elem).nr
    if c.G > 1:  # each NR-feature panel inside one group, its input features read in place
        features = rhs.shape[c.ki]
        if not (isinstance(outs, int) and isinstance(features, int)):
            return False
        thin = thin_groups(nr, c.G, outs // c.G, features)
        features *= thin  # a panel's input features: one call per window position
        if not (((outs // c.G) % nr == 0 or thin > 1) and features >= DIRECT_MIN_FEATURES):
            return False
    run, least = features, DIRECT_MIN_FEATURES if c.n == 2 else DIRECT_MIN_WINDOW_ROW
    if c.n == 1 and isinstance(features, int) and isinstance(rhs.shape[c.ksp[0]], int):
        run = features * rhs.shape[c.ksp[0]]
    if c.n == 2 and c.G == 1 and _patches(c, rhs):
        least = 1  # thin features: a gather and the packed matmul (conv_direct._patch_matmul)
    return (c.n in (1, 2) and [c.lb] + c.lsp + [c.lf] == natural
            and c.ksp + [c.ki, c.ko] == natural
            and _natural_output(c) and not any(w.reverse) and all(d == 1 for d in w.base_dil)
            and all(isinstance(v, int) for v in w.stride + w.win_dil + [p[0] for p in w.pad])
            and isinstance(features, int) and run >= least
            and isinstance(outs, int) and (c.G == 1 or outs % nr == 0))


def _patches(c, rhs) -> bool:
    """Windows that tile the input (stride = window, no padding or dilation): ViT's patch
    embedding. With thin features aot.conv gathers their windows and runs the packed matmul,
    its consumers fused (im2col's matmul here fused none)."""
    w = c.window
    return (list(w.stride) == [rhs.shape[d] for d in c.ksp] and all(d == 1 for d in w.win_dil)
            and all(tuple(p) == (0, 0) for p in w.pad))


def _direct_attrs(target, op: Operation) -> dict:
    """aot.conv's window (a 1-D one as 2-D of height 1); `winograd` where conv_winograd.py
    computes it (3x3, stride 1)."""
    c = Conv(op)
    w = c.window
    high = [1] * (2 - c.n)  # the height of a 1-D convolution: stride and dilation 1, no padding
    attrs = {"stride": high + list(w.stride), "dilation": high + list(w.win_dil),
             "pad": [0] * (2 - c.n) + [p[0] for p in w.pad]}
    lhs, rhs = op.operands[0].type, op.operands[1].type
    if not (c.n == 2 and conv_direct.patch_matmul(
            conv_direct.INTS, _patches(c, rhs), c.G, *(rhs.shape[d] for d in c.ksp + [c.ki]))):
        attrs["panels"] = True  # reads its kernel as NR-feature panels (not _patch_matmul)
    if c.G > 1:
        attrs["groups"] = c.G
        return attrs
    whole_panels = rhs.shape[c.ko] % target.blocking(lhs.elem).nr == 0  # Winograd's panels
    if c.n == 2 and whole_panels and conv_winograd.takes(
            tuple(rhs.shape[d] for d in c.ksp), w.stride, w.win_dil, lhs.shape[c.lf],
            rhs.shape[c.ko], numpy_dtype(lhs.elem).itemsize, target.blocking(lhs.elem).vec):
        attrs["winograd"] = True
    return attrs


def emit_direct(k, op: Operation, b, args: list) -> None:
    b.op("aot.conv", args[:3], attrs=_direct_attrs(b.target, op))


def emit_direct_epilogue(b, region_block, inputs: dict, out, env: dict) -> None:
    """A kOutput fusion of a direct convolution: its region runs on each finished chunk of
    an output row (matmul.epilogue_tile, rows over (batch, spatial...), columns the
    features)."""
    conv = next(o for o in region_block.ops if o.key == "convolution")
    region, captured = epilogue_tile(b, conv, region_block, inputs, out, env, 0,
                                     Conv(conv).n + 1)
    lhs, rhs = (inputs[v] for v in conv.operands)
    b.op("aot.conv", [lhs, rhs, out] + captured, attrs=_direct_attrs(b.target, conv),
         regions=[region])


def pointwise(target, op: Operation) -> bool:
    """Whether a convolution is a plain matmul of its input as is: a 1x1 (x1...) window at
    stride 1 without padding or dilation, in (batch, spatial..., feature) layouts, kernel
    (spatial..., in, out). Then out[(b, p...), f] = in[(b, p...), :] @ w[:, f] is the packed
    matmul over every output position at once, the kernel a matmul's B (packed once at compile
    time when frozen, passes/prepack.py), positions tiled across rows and images alike, the
    threads splitting M x N: DenseNet's bottlenecks and ResNet's projections."""
    if not takes(target, op):
        return False
    c = Conv(op)
    if c.G > 1:
        return False
    w = c.window
    rhs = op.operands[1].type
    natural = list(range(c.n + 2))
    return ([c.lb] + c.lsp + [c.lf] == natural and c.ksp + [c.ki, c.ko] == natural
            and _natural_output(c) and all(rhs.shape[d] == 1 for d in c.ksp)
            and all(v == 1 for v in w.stride + w.base_dil)
            and all(p == (0, 0) for p in map(tuple, w.pad)))


def _pointwise_runs(op: Operation) -> dict:
    """The matmul's view: rows every dim but the features, k the input (and kernel's 1x1...)
    features, columns the output features."""
    n = Conv(op).n
    return {"lhs_runs": [0, 0, 0, n + 1, n + 1, n + 2], "rhs_runs": [0, 0, 0, n + 1, n + 1, n + 2]}


def emit_pointwise(k, op: Operation, b, args: list) -> None:
    b.op("aot.gemm", args[:3], attrs=_pointwise_runs(op))


def emit_pointwise_epilogue(b, region_block, inputs: dict, out, env: dict) -> None:
    """A kOutput fusion of a pointwise convolution: its region runs on each finished tile of
    the matmul (rows over (batch, spatial...), columns the features)."""
    conv = next(o for o in region_block.ops if o.key == "convolution")
    region, captured = epilogue_tile(b, conv, region_block, inputs, out, env, 0,
                                     Conv(conv).n + 1)
    lhs, rhs = (inputs[v] for v in conv.operands)
    b.op("aot.gemm", [lhs, rhs, out] + captured, attrs=_pointwise_runs(conv), regions=[region])


def pointwise_channels_first(target, op: Operation) -> bool:
    """Whether a convolution is a plain product in PyTorch's layouts: NCHW (any spatial
    rank) input and result, an OIHW 1x1 (x1...) kernel (W [F, C] as it is), stride 1, no
    padding. Then out[b] = W @ in[b][C, positions], the packed matmul over the batch with
    nothing copied, or with one position an image (squeeze-excitation's 1x1 convolutions of
    pooled features) out[(b), F] = in[B, C] @ W^T, the batch as rows; 2 to 15 static positions
    an image keep im2col's one product over the batch (a product of 4 columns an image was
    3.4x its time: EfficientNet-B0's 672 -> 192 at 2x2, batch 32). Its elementwise
    consumers (batch-norm, SiLU: EfficientNet-B0's MBConv projections) run on each finished
    tile (`emit_pointwise_channels_first_epilogue`); im2col copied the input first and ran
    them as a kernel of their own over the whole result."""
    if not takes(target, op):
        return False
    c = Conv(op)
    natural = list(range(c.n + 2))
    rhs = op.operands[1].type
    w = c.window
    positions = _static_positions(op, c) if c.n == 2 else None
    return (c.G == 1 and [c.lb, c.lf] + c.lsp == natural and _channels_first(c)
            and positions is not None and (positions == 1 or positions >= FEW_POSITIONS)
            and [c.ko, c.ki] + c.ksp == natural and all(rhs.shape[d] == 1 for d in c.ksp)
            and all(v == 1 for v in w.stride + w.base_dil)
            and all(p == (0, 0) for p in map(tuple, w.pad)))


def _pointwise_channels_first_runs(op: Operation) -> tuple:
    """(lhs, rhs, runs, nb, nm) of the aot.gemm: per image W [F, C] @ in[b] [C, positions],
    or with static single positions in [B, C] @ W^T [C, F]."""
    n = Conv(op).n
    out = op.results[0].type if op.results else op.operands[2].type
    if all(out.shape[d] == 1 for d in range(2, n + 2)):
        return 0, {"lhs_runs": [0, 0, 0, 1, 1, n + 2], "rhs_runs": [0, 0, 1, n + 2, 0, 1]}, 0, 1
    return 1, {"lhs_runs": [0, 0, 0, 1, 1, n + 2], "rhs_runs": [0, 1, 1, 2, 2, n + 2]}, 1, 1


def emit_pointwise_channels_first(k, op: Operation, b, args: list) -> None:
    weights_first, runs, _, _ = _pointwise_channels_first_runs(op)
    lhs, rhs = (args[1], args[0]) if weights_first else (args[0], args[1])
    b.op("aot.gemm", [lhs, rhs, args[2]], attrs=runs)


def _reads_positions_flat(region_block, conv: Operation) -> bool:
    """Whether the fused consumers read nothing along the product's spatial dims apart: ops
    element by element, constants, and broadcasts that expand the spatial dims (a per-channel
    batch-norm, a [B, F, 1, 1] excitation scale). Then an element is addressed by its
    position (h w) flattened, as [0, p] (matmul.epilogue_tile's flat_columns): dividing each
    column index by W cost 6x a 32x96x32x32 epilogue's time."""
    spatial = set(range(2, conv.results[0].type.rank))
    for o in region_block.ops[:-1]:
        if o is conv or o.key == "constant" or registry.is_kind(o.key, "elementwise"):
            continue
        if o.key not in ("broadcast_in_dim", "dynamic_broadcast_in_dim"):
            return False
        shape = o.operands[0].type.shape
        if shape and o.results[0].type.rank != len(spatial) + 2:
            return False
        if any(d in spatial and shape[k] != 1 for k, d in enumerate(o.attrs["broadcast_dimensions"])):
            return False
    return True


# An NCHW image of fewer output positions than this (EfficientNet-B0's 4x4 planes: 16) runs
# consumers that evaluate an inline polynomial (SiLU's logistic: fastmath) over a tile of whole
# rows between constant column bounds. Between the tile's run-time bounds LLVM's vector loop
# (8 lanes x 4 interleaved for so long a body) needs 32 columns, so a 16-long row ran 4 lanes
# wide, its constants reloaded: the epilogue took as long as the product (perf, 32x112x4x4 ->
# 672 + batch-norm + SiLU); with constant bounds it is two 8-lane steps, 2.2x faster. Short
# bodies (MobileNetV3's hardswish, relu) were 4 % slower so (the model, same process).
CONSTANT_ROW_POSITIONS = 32


def _polynomial(region_block) -> bool:
    """Whether a fused region evaluates a function the compiler spells out as a polynomial."""
    return any(o.key in fastmath.MAX_ULP["f32"] for o in region_block.ops)


def emit_pointwise_channels_first_epilogue(b, region_block, inputs: dict, out, env: dict) -> None:
    """A kOutput fusion of an NCHW pointwise convolution: its region runs on each finished
    tile (rows the output features, columns an image's positions; or rows the batch), a tile
    of whole rows of a small image between constant bounds (CONSTANT_ROW_POSITIONS)."""
    conv = next(o for o in region_block.ops if o.key == "convolution")
    weights_first, runs, nb, nm = _pointwise_channels_first_runs(conv)
    flat = bool(weights_first) and _reads_positions_flat(region_block, conv)
    positions = (_static_positions(conv, Conv(conv)) if flat and _polynomial(region_block)
                 else CONSTANT_ROW_POSITIONS)
    region, captured = epilogue_tile(b, conv, region_block, inputs, out, env, nb, nm, flat_columns=flat,
                                     whole_row=positions if positions < CONSTANT_ROW_POSITIONS else None)
    x, w = (inputs[v] for v in conv.operands)
    lhs, rhs = (w, x) if weights_first else (x, w)
    b.op("aot.gemm", [lhs, rhs, out] + captured, attrs=runs, regions=[region])


registry.override("convolution", "scratch", _scratch, target="cpu", when=takes)
registry.override("convolution", "kernel", emit, target="cpu",
                  when=lambda target, op: takes(target, op) and bool(op.attrs.get("aot.scratch")))
registry.override("convolution", "scratch", lambda *args: [], target="cpu", when=direct)
registry.override("convolution", "kernel", emit_direct, target="cpu", when=direct)
registry.override("convolution", "epilogue", emit_direct_epilogue, target="cpu", when=direct)
registry.override("convolution", "scratch", lambda *args: [], target="cpu", when=pointwise)
registry.override("convolution", "kernel", emit_pointwise, target="cpu", when=pointwise)
registry.override("convolution", "epilogue", emit_pointwise_epilogue, target="cpu", when=pointwise)
registry.override("convolution", "scratch", lambda *args: [], target="cpu", when=pointwise_channels_first)
registry.override("convolution", "kernel", emit_pointwise_channels_first, target="cpu",
                  when=pointwise_channels_first)
registry.override("convolution", "epilogue", emit_pointwise_channels_first_epilogue, target="cpu",
                  when=pointwise_channels_first)
