"""Depthwise 2-D (and channels-first 3-D) convolutions on the CPU: one channel in, one out,
vectorised along the contiguous dim, split over threads across batch x channels x rows.

A depthwise convolution (feature_group_count = input channels = output channels: MobileNet's
and EfficientNet's 3x3 and 5x5) does kh kw multiply-adds per output, too few for the packed
matmul (a group is a 1-column product), so ops/windows.py's loop kernel ran it: output
features innermost, accumulated in the result buffer through every window position, on one
thread: 2-5 GFLOP/s. Here every output element is one sum of its kh kw window taps, the
window unrolled (its size is static), kept in a register and stored once:

- channels first (NCHW, as PyTorch exports them): the loop nest is (batch, channel, output
  row) then the output row's positions, innermost and contiguous. The channel's kh kw weights
  are loaded once a row, outside the position loops (scalars LLVM keeps in registers and
  broadcasts), and each position reads kh kw input elements along the row, which the loop
  vectoriser turns into vector loads; runs too short for it (and 3x3 ones at stride 2) go in
  spelled-out blocks of 8 positions for the SLP vectoriser (VECTOR_BLOCK). A small plane
  (SMALL_PLANE_TAPS) is spelled out whole instead: (batch, channel), then every position's
  taps inside the input at constant offsets; with fused consumers, a group of channels'
  bare sums are stored and finished in one vectorised loop (FINISH_CHANNELS), and 4x4 planes
  run the group's channels as vector lanes (FLAT_SUMS_PLANE);
- channels last (NHWC, as JAX/Keras write them): the loop nest is (batch, output row), then
  the output columns (in pairs at stride 1), then the channels, innermost and contiguous: a
  tap is a vector of inputs times a vector of weights, loaded once for a pair's two sums.

Padding costs nothing inside: an output row whose window rows are all inside the input runs a
version without row tests, and along the row the positions whose window columns are all inside
([lo, hi), known at compile time) run without column tests; only the borders select 0 for
taps in the padding (as XLA counts them: a zero times the weight). The loops above the
innermost form a perfect nest indexed by the output's leading dims, which the thread pool
splits as one iteration space (codegen/llvm/collapse.py): batch 1 uses every core.

In a kOutput fusion (bias, activation, residual after the convolution) each output element
goes through the fused consumers right after its sum (their Elemental rules, the sum
standing for the convolution's value), so the result is written once.

Taken for f32/f64, 2-D, static window, strides, window dilation and input spatial dims, no
input dilation, input and result both channels-first or both channels-last (the kernel in
any layout); 3-D ones channels-first (MViT's pools), a pass over each output row per window
frame (_frames_first); a channel multiplier above 1 and the rest keep the loop kernel.
"""
from __future__ import annotations

import copy
import math

from lowering.ir.builder import Ix, buffer_dims, loop_nest
from lowering.ir.core import INDEX, Operation, ScalarType, TensorType
from lowering.ops import registry
from lowering.ops.elemental import Elemental, reads_at_own_index
from lowering.ops.windows import Conv


def _layout(c: Conv) -> str | None:
    """"first" (batch, feature, spatial...) or "last" (batch, spatial..., feature) when the
    input and the result share it, else None."""
    dims = list(range(c.n + 2))
    first = [c.lb, c.lf] + c.lsp == dims and [c.ob, c.of] + c.osp == dims
    last = [c.lb] + c.lsp + [c.lf] == dims and [c.ob] + c.osp + [c.of] == dims
    return "first" if first else "last" if last else None


def depthwise(target, op: Operation) -> bool:
    """Whether a convolution runs as this module's depthwise kernel (see the module doc)."""
    lhs, rhs = op.operands[0].type, op.operands[1].type
    out = op.results[0].type if op.results else op.operands[2].type
    if not (lhs.elem == rhs.elem == out.elem and lhs.elem in ("f32", "f64")):
        return False
    c = Conv(op)
    if c.n not in (2, 3) or c.B != 1 or c.G == 1 or _layout(c) != "first" and (
            c.n == 3 or _layout(c) is None):
        return False
    w = c.window
    static = [lhs.shape[d] for d in c.lsp] + [rhs.shape[d] for d in c.ksp] + \
        list(w.stride) + list(w.win_dil) + [p for pair in w.pad for p in pair]
    return (all(isinstance(v, int) for v in static) and all(v > 0 for v in static[:2 * c.n])
            and all(d == 1 for d in w.base_dil)
            and rhs.shape[c.ki] == 1 and rhs.shape[c.ko] == c.G and lhs.shape[c.lf] == c.G)


class _Plan:
    """The static facts of one depthwise convolution: sizes, window, interior ranges."""

    def __init__(self, op: Operation):
        c = self.c = Conv(op)
        w = c.window
        lhs, rhs, out = op.operands[0].type, op.operands[1].type, (
            op.results[0].type if op.results else op.operands[2].type)
        self.elem = out.elem
        # from the static input, whatever the result's type says (a `?` there is this size)
        sizes = [max(0, (n + lo + hi - (k - 1) * d - 1) // s + 1) for n, (lo, hi), k, d, s in
                 zip((lhs.shape[d] for d in c.lsp), w.pad, (rhs.shape[d] for d in c.ksp),
                     w.win_dil, w.stride)]
        # a 3-D convolution's frames (T): (input frames, window, stride, dilation, padding
        # before, output frames, reversed); the fields below are its last two dims
        self.frames = None if c.n == 2 else (lhs.shape[c.lsp[0]], rhs.shape[c.ksp[0]],
                                             w.stride[0], w.win_dil[0], w.pad[0][0], sizes[0],
                                             w.reverse[0])
        self.h, self.w = (lhs.shape[d] for d in c.lsp[-2:])
        self.kh, self.kw = (rhs.shape[d] for d in c.ksp[-2:])
        self.kshape = tuple(rhs.shape)
        (self.sh, self.sw), (self.dh, self.dw) = w.stride[-2:], w.win_dil[-2:]
        self.ph, self.pw = w.pad[-2][0], w.pad[-1][0]
        self.oh, self.ow = sizes[-2:]
        self.reverse = w.reverse[-2:]
        self.pads = [tuple(pair) for pair in w.pad[-2:]]
        # output columns whose window columns are all inside the input: [lo, hi)
        self.col_lo, self.col_hi = self._inside(self.pw, self.sw, self.dw, self.kw, self.w)

    def padded(self) -> "_Plan":
        """The same convolution over its input zero-padded (no padding left): every window
        inside, so every column goes the way without tests."""
        q = copy.copy(self)
        q.h = self.h + sum(self.pads[0])
        q.w = self.w + sum(self.pads[1])
        q.ph = q.pw = 0
        q.pads = [(0, 0), (0, 0)]
        q.col_lo, q.col_hi = q._inside(0, q.sw, q.dw, q.kw, q.w)
        return q

    @staticmethod
    def _inside(pad, stride, dil, k, n) -> tuple:
        """[lo, hi): the outputs o with 0 <= o stride - pad and o stride - pad + (k-1) dil < n."""
        lo = -(-pad // stride) if pad > 0 else 0
        last = n - 1 + pad - (k - 1) * dil  # o stride <= last
        hi = last // stride + 1 if last >= 0 else 0
        return lo, max(hi, lo)

    def flat_kernel_index(self, ix, first, j, kh: int, kw: int) -> list:
        """kernel_index of channel first + j as an index of the same row-major address whose
        run-time part is `first` alone, the rest folded into the last dim (constant strides
        along j for LLVM: the kernel's dims are run-time values)."""
        c, shape = self.c, self.kshape
        strides = [1] * 4
        for d in range(2, -1, -1):
            strides[d] = strides[d + 1] * shape[d + 1]
        idx = [0] * 4
        idx[c.ksp[0]] = self.kh - 1 - kh if self.reverse[0] else kh
        idx[c.ksp[1]] = self.kw - 1 - kw if self.reverse[1] else kw
        rest = sum(i * s for i, s in zip(idx, strides))
        last = ix.add(ix.mul(j, strides[c.ko]), rest)
        out = [ix.val(0)] * 4
        if c.ko == 3:
            out[3] = ix.add(first, last)
        else:
            out[c.ko], out[3] = first, last
        return out

    def kernel_index(self, ix, channel, kh: int, kw: int, kt: int = 0) -> list:
        """The kernel's index of channel's weight at window position (kh, kw) (and frame kt
        of a 3-D one)."""
        c = self.c
        idx = [None] * (c.n + 2)
        idx[c.ki], idx[c.ko] = 0, channel
        if self.frames:
            idx[c.ksp[0]] = self.frames[1] - 1 - kt if self.frames[6] else kt
        idx[c.ksp[-2]] = self.kh - 1 - kh if self.reverse[0] else kh
        idx[c.ksp[-1]] = self.kw - 1 - kw if self.reverse[1] else kw
        return [ix.val(i) for i in idx]


def _if(b, cond):
    """(then builder, else builder): two loops of one or no trip (the loop stage has no scf.if)."""
    ix = Ix(b)
    taken = ix.select(cond, 1, 0)
    _, then_b, _, _ = b.for_(b.index(0), taken)
    _, else_b, _, _ = b.for_(b.index(0), ix.sub(1, taken))
    return then_b, else_b


def _tap_rows(b, p: _Plan, oh):
    """Per window row kh: (input row, whether it is inside), the row clamped to 0 outside."""
    ix = Ix(b)
    rows = []
    for kh in range(p.kh):
        ih = ix.sub(ix.add(ix.mul(oh, p.sh), kh * p.dh), p.ph)
        ok = ix.and_(ix.cmp("sge", ih, 0), ix.cmp("slt", ih, p.h))
        rows.append((ix.select(ok, ih, 0), ok))
    return rows


def _row_inside(b, p: _Plan, oh):
    """Whether every window row of output row oh is inside the input."""
    ix = Ix(b)
    top = ix.sub(ix.mul(oh, p.sh), p.ph)
    return ix.and_(ix.cmp("sge", top, 0), ix.cmp("slt", ix.add(top, (p.kh - 1) * p.dh), p.h))


def _mul_add(b, acc, x, w, elem):
    """acc + x w (x w when acc is None), one fused multiply-add where the target has it (the
    `contract` flag): half the instructions of a tap, rounded once."""
    term = b.v("arith.mulf", [x, w], elem, fastmath="contract")
    return term if acc is None else b.v("arith.addf", [acc, term], elem, fastmath="contract")


def _tap_sum(b, p: _Plan, load, weights, rows, col, col_checked: bool, rows_checked: bool,
             stride=None):
    """sum over (kh, kw) of input(row kh, column) * weight: `load(b, ih, iw)` reads the input
    at window row ih and column iw; taps in the padding count 0 where checked. `stride`: the
    column stride as a run-time value (see _channels_first), else p.sw."""
    ix = Ix(b)
    elem = ScalarType(p.elem)
    zero = b.const(0, p.elem)
    acc = None
    for kw in range(p.kw):
        iw = ix.sub(ix.add(ix.mul(col, p.sw if stride is None else stride), kw * p.dw), p.pw)
        col_ok = None
        if col_checked:
            col_ok = ix.and_(ix.cmp("sge", iw, 0), ix.cmp("slt", iw, p.w))
            iw = ix.select(col_ok, iw, 0)
        for kh, (ih, row_ok) in enumerate(rows):
            x = load(b, ih, iw)
            ok = row_ok if rows_checked else None
            ok = col_ok if ok is None else ix.and_(ok, col_ok) if col_ok is not None else ok
            if ok is not None:
                x = ix.select(ok, x, zero, elem)
            acc = _mul_add(b, acc, x, weights(b, kh, kw), elem)
    return acc


def _emit(b, op: Operation, lhs, rhs, out, finish, raw=None, plane_finish=False,
          flat=False) -> None:
    """The depthwise kernel of `op` over buffers lhs, rhs, out; `finish(b, idx, value)` stores
    an output element (and runs the fused consumers on it); `raw(b, idx, value)`, where given,
    stores the bare sum in `out` for a second pass to finish (_channels_first)."""
    p = _Plan(op)
    dims = [Ix(b).val(d) for d in buffer_dims(b, out)]
    if p.frames:
        _frames_first(b, p, lhs, rhs, out, dims, finish)
    elif _layout(p.c) == "first":
        _channels_first(b, p, lhs, rhs, dims, finish, out if raw else None, raw, plane_finish,
                        flat)
    else:
        _channels_last(b, p, lhs, rhs, dims, finish)


# A channels-first output plane with at most this many window taps (positions x kh kw) is
# spelled out whole: each position's taps inside the input at constant offsets, no tests and
# no loops. Rows of 2-8 positions (MobileNetV3's and EfficientNet's planes at 64x64) leave the
# vector loops empty and every tap to the tested border code. One loaded AVX2 core, CPU time,
# 32 images, rows against whole planes: 4x4 5x5 over 240 channels 1.41 -> 0.38-0.48 ms,
# 8x8 3x3 over 88 0.55 -> 0.39-0.45 ms; 7x7 and 8x8 5x5 (1225, 1600 taps) gained 1.2-1.6x but
# took LLVM 1-3 s longer each, so they keep the rows.
SMALL_PLANE_TAPS = 1024
# At a stride above 1 the rows' loads are scalar and strided (and a 5x5 window's planes went
# transposed per image), so planes up to this many taps are spelled out too: EfficientNet-B0's
# 144x16x16 -> 8x8 5x5 stride 2 (1600). Its `?` batch library, one core, CPU time,
# interleaved (load 13): batch 32 44.3-44.7 -> 43.4 ms, batch 8 12.0 -> 11.8; compile 5.6
# CPU s against 4.8-5.7. All 1600-tap planes (stride 1 too) 43.0 ms but 6.3 s.
STRIDED_PLANE_TAPS = 1600


def _spelled_out(p: "_Plan") -> bool:
    """Whether the output plane is spelled out whole (_small_planes)."""
    taps = p.oh * p.ow * p.kh * p.kw
    return taps <= (SMALL_PLANE_TAPS if p.sh == p.sw == 1 else STRIDED_PLANE_TAPS)

# An inside run of at least this many positions is left to the loop vectoriser
# (_channels_first); shorter ones keep the scalar recurrences, which were faster there (one
# core, 8 images, vectorised against scalar: a run of 10 (14x14 5x5) 2.4 / 1.2 ms, 14 (16x16
# 3x3) 0.74 / 0.58, 24 (28x28 5x5) 1.66 / 7.05, 30 (32x32 3x3) 0.45 / 0.54).
VECTOR_RUN = 24


# Small planes (below FINISH_PLANES_BELOW positions) with fused consumers that read at the
# output's own index or per channel: the bare sums of a group of channels (the largest
# divisor of the channels up to FINISH_CHANNELS) are stored, then the group's planes are
# finished in one loop, vectorised: as one run of positions [n, first channel, 0, q] where
# nothing is read per channel (the same row-major address), else a loop per channel over its
# plane ([n, q / plane, 0, q % plane] left the loop scalar: the kernel's dims are run-time
# values). Finished position by position, as each sum was made, the batch-norm + SiLU ran
# scalar and cost more than the sums. EfficientNet-B0's shapes with batch-norm + SiLU, batch
# 32, one core, CPU time (load 1.8), us before / after (groups of 64 positions): 1152x2x2
# 5x5 539 / 286, 672x4x4 5x5 1267 / 808, 480x4x4 3x3 582 / 342, 240x8x8 -> 4x4 3x3 stride
# 2 333 / 202; the model 43.95 -> 41.47 ms. 8x8 planes finished so were slower (144x16x16 ->
# 8x8 5x5 stride 2: 1054 / 1187).
FINISH_PLANES_BELOW = 64
FINISH_CHANNELS = 16
# Where the input plane has at most FLAT_SUMS_PLANE positions (LLVM's interleaved accesses
# go up to 16) and the plane at least FLAT_SUMS_TAPS taps inside, a group's sums read and
# write the buffers at [n, first channel, 0, channel in group x plane + position] (the same
# row-major address), so that the strides along the group are constants: the loop
# vectoriser then runs the group's 16 channels as the lanes (interleaved loads). Groups of
# 16 channels against groups of 4 indexed per channel, same load, us: 672x4x4 5x5 802 / 504,
# 480x4x4 5x5 584 / 359, 480x4x4 3x3 341 / 313, 672x4x4 -> 2x2 5x5 stride 2 387 / 283;
# groups of 8 were slower than 4 (1094, 782, 399, 336); 2x2 planes (16 taps) and 8x8 inputs
# (strides of 64) gained nothing. LLVM takes 0.15-0.2 CPU s longer per such kernel, so only
# the 5x5 4x4 planes (196 taps) take it: EfficientNet-B0 (? batch, batch 32, load 7, 21
# rounds) 40.05 ms without, 39.53 with them, 39.62 with the 3x3 and stride-2 planes too;
# compile 5.8-5.9 CPU s, 6.2-6.35, 6.5-6.7.
FLAT_SUMS_PLANE = 16
FLAT_SUMS_TAPS = 150


def _finish_group(p: _Plan, plane_finish: bool) -> int:
    """Channels per group whose spelled-out planes are finished in one loop (0: each
    position finished as it is summed)."""
    if not plane_finish or p.oh * p.ow >= FINISH_PLANES_BELOW:
        return 0
    return math.gcd(p.c.G, FINISH_CHANNELS)


def _flat_sums(p: _Plan) -> bool:
    """Whether a group's sums index the buffers flat (see FLAT_SUMS_PLANE)."""
    inside = sum(1 for oh in range(p.oh) for ow in range(p.ow) for kh in range(p.kh)
                 for kw in range(p.kw) if 0 <= oh * p.sh + kh * p.dh - p.ph < p.h
                 and 0 <= ow * p.sw + kw * p.dw - p.pw < p.w)
    return p.h * p.w <= FLAT_SUMS_PLANE and inside >= FLAT_SUMS_TAPS


def _small_planes(b, p: _Plan, lhs, rhs, dims, finish, out=None, raw=None,
                  plane_finish: bool = False, flat: bool = False) -> None:
    """(batch, channel group) as a perfect nest, each channel's plane positions unrolled:
    each a sum of only its taps inside the input, the channel's weights loaded once; with
    groups (_finish_group) their bare sums go through `raw` and a loop over the group's
    planes finishes them (`flat`: nothing read per channel, one run of positions)."""
    elem = ScalarType(p.elem)
    group = _finish_group(p, plane_finish and raw is not None)
    _, nb, n, _ = b.for_(b.index(0), dims[0])
    _, gb, g, _ = nb.for_(nb.index(0), nb.index(p.c.G // max(group, 1)))
    cb, ch = gb, g
    if group:
        _, cb, j, _ = gb.for_(gb.index(0), gb.index(group))
        ch = Ix(cb).add(Ix(cb).mul(g, group), j)
    ix = Ix(cb)
    if group and _flat_sums(p):
        first = ix.mul(g, group)

        def in_at(ih, iw):  # [n, first, 0, j plane + position]: the same row-major address
            return [n, first, cb.index(0), ix.add(ix.mul(j, p.h * p.w), ih * p.w + iw)]

        def out_at(oh, ow):
            return [n, first, cb.index(0), ix.add(ix.mul(j, p.oh * p.ow), oh * p.ow + ow)]

        def w_at(kh, kw):
            return p.flat_kernel_index(ix, first, j, kh, kw)
    else:
        def in_at(ih, iw):
            return [n, ch, cb.index(ih), cb.index(iw)]

        def out_at(oh, ow):
            return [n, ch, cb.index(oh), cb.index(ow)]

        def w_at(kh, kw):
            return p.kernel_index(ix, ch, kh, kw)
    wts = {}
    for oh in range(p.oh):
        for ow in range(p.ow):
            acc = None
            for kh in range(p.kh):
                ih = oh * p.sh + kh * p.dh - p.ph
                for kw in range(p.kw):
                    iw = ow * p.sw + kw * p.dw - p.pw
                    if not (0 <= ih < p.h and 0 <= iw < p.w):
                        continue
                    if (kh, kw) not in wts:
                        wts[(kh, kw)] = cb.v("memref.load", [rhs] + w_at(kh, kw), elem)
                    x = cb.v("memref.load", [lhs] + in_at(ih, iw), elem)
                    acc = _mul_add(cb, acc, x, wts[(kh, kw)], elem)
            (raw if group else finish)(cb, out_at(oh, ow),
                                       acc if acc is not None else cb.const(0, p.elem))
    if group:
        cb.yield_()
        positions = p.oh * p.ow
        if flat:
            _, fb, q, _ = gb.for_(gb.index(0), gb.index(group * positions))
            idx = [n, Ix(fb).mul(g, group), fb.index(0), q]
        else:
            _, jb, j, _ = gb.for_(gb.index(0), gb.index(group))
            _, fb, q, _ = jb.for_(jb.index(0), jb.index(positions))
            idx = [n, Ix(fb).add(Ix(fb).mul(g, group), j), fb.index(0), q]
        finish(fb, idx, fb.v("memref.load", [out] + idx, elem))
        fb.yield_()
        if not flat:
            jb.yield_()
    gb.yield_()
    nb.yield_()


# Where the fused consumers read every buffer at the output's own index or per channel, a
# plane of at most this many positions is finished in one loop over the plane (indexed
# [n, ch, 0, position]: the same row-major address) after its rows: a finishing loop per
# 16-long row left AVX-512's vector loop (16 lanes, interleaved) empty and ran the SiLU
# scalar.
PLANE_FINISH = 1024


# Inside runs the loop vectoriser leaves scalar (shorter than VECTOR_RUN at stride 1, or a
# run-time stride it cannot version at stride 2; or too short for its 8 lanes x 4
# interleaved at 30) go in blocks of VECTOR_BLOCK positions, each spelled out (the last
# block overlapping its predecessor: the same sums stored twice), so that the SLP vectoriser
# makes each tap one vector load (a wide load and a shuffle at stride 2) times the weight:
# for a window width and stride, runs of VECTOR_BLOCK up to below this length. Batch-norm +
# SiLU fused, one core, CPU time, load 5.5-6.6, us before / after: 3x3 32x96x32x32 stride 2
# 1345 / 905, 32x32x32x32 1018 / 686, 4x192x28x28 547 / 465, 4x384x14x14 2511 / 2277,
# 4x192x28x28 stride 2 287 / 202, 32x144x16x16 1053-1143 / 1031-1088; runs of 27 at stride
# 2 (4x144x56x56) 427 / 500 and 5x5 windows (4x240x28x28, a run of 24: 1439 / 2689) were
# slower, so they keep the loops.
VECTOR_BLOCK = 8
BLOCKS_BELOW = {(3, 1): 32, (3, 2): 24}


def _blocks(b, p: _Plan, load, weights, rows, rows_checked, lo, hi, block, store) -> None:
    """The inside run [lo, hi) in blocks of `block` positions (see VECTOR_BLOCK): `store(b,
    column, sum)` for each."""
    _, bb, k, _ = b.for_(b.index(0), b.index(-(-(hi - lo) // block)))
    bx = Ix(bb)
    first = bx.min(bx.add(bx.mul(k, block), lo), hi - block)
    for i in range(block):
        col = bx.add(first, i)
        store(bb, col, _tap_sum(bb, p, load, weights, rows, col, False, rows_checked))
    bb.yield_()


def _channels_first(b, p: _Plan, lhs, rhs, dims, finish, out=None, raw=None,
                    plane_finish: bool = False, flat: bool = False) -> None:
    """(batch, channel, output row) as a perfect nest, then the row's positions in three runs:
    left border, inside, right border; the channel's weights loaded once a row. Small planes
    are spelled out whole instead (_small_planes). With fused consumers (`raw` given), the
    runs store the bare sums in `out`'s row, which a second loop over the whole row reads
    back and finishes, vectorised. Inside scalar runs (a column stride above 1, an inside
    run shorter than VECTOR_RUN) a SiLU evaluated position by position cost 3 times the
    convolution (EfficientNet-B0's 32x96x32x32 3x3 stride 2 with batch-norm + SiLU: 10.9 ms,
    2.7 with a bias + relu6; its 32x144x16x16 3x3 stride 1, runs of 14: 5.1 -> 4.2 ms, one
    loaded core); inside the vector runs, the consumers made the loop too long for LLVM's
    vector loop to fill (8 lanes x 4 interleaved for SiLU: 32 positions, so a run of 30 went
    4 lanes wide or scalar, and longer ones left such a remainder): 3x3 + batch-norm + SiLU,
    one core, batch 32, finished in the run against by the second loop: 32x32x32 9.0 / 2.5 ms,
    96x32x32 23.2 / 6.6, 16x64x64 13.3 / 3.4, 24x56x56 13.7 / 3.9, 16x112x112 18.4 / 9.8;
    with batch-norm or + relu 1.0-1.3x faster too. Small planes finish position by
    position: a second pass over their 2-4 long rows was 1.1-1.5x slower."""
    if _spelled_out(p):
        return _small_planes(b, p, lhs, rhs, dims, finish, out, raw, plane_finish, flat)
    elem = ScalarType(p.elem)
    _, nb, n, _ = b.for_(b.index(0), dims[0])
    _, cb, ch, _ = nb.for_(nb.index(0), dims[1])
    _, rb, oh, _ = cb.for_(cb.index(0), dims[2])
    plane_finish = plane_finish and raw is not None and p.oh * p.ow <= PLANE_FINISH
    rix = Ix(rb)
    wts = {(kh, kw): rb.v("memref.load", [rhs] + p.kernel_index(rix, ch, kh, kw), elem)
           for kh in range(p.kh) for kw in range(p.kw)}
    rows = _tap_rows(rb, p, oh)
    ow = p.ow
    lo, hi = min(p.col_lo, ow), min(p.col_hi, ow)

    def load(bb, ih, iw):
        return bb.v("memref.load", [lhs, n, ch, Ix(bb).val(ih), Ix(bb).val(iw)], elem)

    def weights(bb, kh, kw):
        return wts[(kh, kw)]

    # The inside run's column stride as a value LLVM cannot see through (the kernel's input
    # features, 1 for every depthwise kernel, read at run time): with the constant, GVN
    # carried each input element from one position to the next (x[ow + kw] is the next
    # position's x[ow + kw - 1]) in kh (kw - 1) scalar recurrences, and the loop vectoriser
    # gave up; with it, it versions the loop on a stride of 1 and loads vectors.
    # Short runs keep the constant (VECTOR_RUN), and so does stride 2: a run-time stride of
    # 2 x 1 is no stride of 1 to version on, and its loads went scalar (32x16x56x56 3x3
    # stride 2: 1.3 ms against 0.5).
    block = VECTOR_BLOCK if VECTOR_BLOCK <= hi - lo < BLOCKS_BELOW.get((p.kw, p.sw), 0) else 0
    stride = None
    if hi - lo >= VECTOR_RUN and p.sw == 1 and not block:
        stride = rb.v("memref.dim", [rhs, rb.index(p.c.ki)], INDEX)
    two_pass = raw is not None
    inside, border = _if(rb, _row_inside(rb, p, oh))
    for vb, rows_checked in ((inside, False), (border, True)):
        for start, stop, col_checked in ((0, lo, True), (lo, hi, False), (hi, ow, True)):
            if block and not col_checked:
                _blocks(vb, p, load, weights, rows, rows_checked, lo, hi, block,
                        lambda bb, col, value: (raw if two_pass else finish)(
                            bb, [n, ch, oh, col], value))
                continue
            _, pb, col, _ = vb.for_(Ix(vb).val(start), Ix(vb).val(stop))
            value = _tap_sum(pb, p, load, weights, rows, col, col_checked, rows_checked,
                             None if col_checked else stride)
            (raw if two_pass else finish)(pb, [n, ch, oh, col], value)
            pb.yield_()
        vb.yield_()
    if two_pass and not plane_finish:
        _, fb, col, _ = rb.for_(rb.index(0), rb.index(ow))
        finish(fb, [n, ch, oh, col], fb.v("memref.load", [out, n, ch, oh, col], elem))
        fb.yield_()
    rb.yield_()
    if plane_finish:
        _, fb, q, _ = cb.for_(cb.index(0), cb.index(p.oh * ow))
        idx = [n, ch, fb.index(0), q]
        finish(fb, idx, fb.v("memref.load", [out] + idx, elem))
        fb.yield_()
    cb.yield_()
    nb.yield_()


def _frames_first(b, p: _Plan, lhs, rhs, out, dims, finish) -> None:
    """A 3-D channels-first convolution (MViT's pooling of q, k and v: 3x3x3 over
    [1, 96, 8, 56, 56] at strides 1 and 1x8x8): (batch, channel, output frame, output row) as
    a perfect nest, then per window frame one pass over the row as _channels_first's (three
    runs, the kh kw taps of that frame), each pass after the first adding its sums to the
    row stored by the one before. One pass of all kt kh kw taps was not vectorised (27 input
    rows to version the loop on: 65 ms for the stride-1 pool above, one core); per frame it
    takes the 2-D kernel's vector loops. Before, ops/windows.py's loop kernel ran them on one
    thread: MViT-V2-S's 48 pools at 3x eager PyTorch's time. No fused consumers (`finish`
    is a store): they run as a kernel of their own."""
    elem = ScalarType(p.elem)
    t, kt, st, dt, pt, _, _ = p.frames
    _, nb, n, _ = b.for_(b.index(0), dims[0])
    _, cb, ch, _ = nb.for_(nb.index(0), dims[1])
    _, tb, o_t, _ = cb.for_(cb.index(0), dims[2])
    _, rb, oh, _ = tb.for_(tb.index(0), dims[3])
    rix = Ix(rb)
    first_frame = rix.sub(rix.mul(o_t, st), pt)
    row_inside = _row_inside(rb, p, oh)
    lo, hi = min(p.col_lo, p.ow), min(p.col_hi, p.ow)
    stride = None  # a run-time 1 for LLVM to version the long runs on (see _channels_first)
    if hi - lo >= VECTOR_RUN and p.sw == 1:
        stride = rb.v("memref.dim", [rhs, rb.index(p.c.ki)], INDEX)
    for k in range(kt):
        it = rix.add(first_frame, k * dt)
        frame_ok = rix.and_(rix.cmp("sge", it, 0), rix.cmp("slt", it, t))
        frame = rix.select(frame_ok, it, 0)
        rows = [((frame, ih), rix.and_(frame_ok, ok)) for ih, ok in _tap_rows(rb, p, oh)]
        wts = {(kh, kw): rb.v("memref.load", [rhs] + p.kernel_index(rix, ch, kh, kw, k), elem)
               for kh in range(p.kh) for kw in range(p.kw)}

        def load(bb, row, iw):
            return bb.v("memref.load", [lhs, n, ch, row[0], row[1], Ix(bb).val(iw)], elem)

        def weights(bb, kh, kw, wts=wts):
            return wts[(kh, kw)]
        inside_b, border_b = _if(rb, rix.and_(frame_ok, row_inside))
        for vb, rows_checked in ((inside_b, False), (border_b, True)):
            for start, stop, col_checked in ((0, lo, True), (lo, hi, False), (hi, p.ow, True)):
                _, pb, col, _ = vb.for_(Ix(vb).val(start), Ix(vb).val(stop))
                idx = [n, ch, o_t, oh, col]
                value = _tap_sum(pb, p, load, weights, rows, col, col_checked, rows_checked,
                                 None if col_checked else stride)
                if k:
                    value = pb.v("arith.addf", [pb.v("memref.load", [out] + idx, elem), value],
                                 elem)
                finish(pb, idx, value)
                pb.yield_()
            vb.yield_()
    rb.yield_()
    tb.yield_()
    cb.yield_()
    nb.yield_()


def _channels_last(b, p: _Plan, lhs, rhs, dims, finish) -> None:
    """(batch, output row) as a perfect nest, then the row's columns (in pairs at stride 1)
    and the channels innermost (_image_rows)."""
    _, nb, n, _ = b.for_(b.index(0), dims[0])

    def weight(b2, ch, kh, kw):
        return b2.v("memref.load", [rhs] + p.kernel_index(Ix(b2), ch, kh, kw), ScalarType(p.elem))
    _image_rows(nb, p, n, lhs, weight, dims[1], dims[3], finish)
    nb.yield_()


def _image_rows(nb, p: _Plan, n, lhs, weight, rows_out, channels, finish) -> None:
    """Image n of a channels-last input `lhs`: its output rows, each row's columns (in pairs
    at stride 1) and the channels innermost: a pair whose windows are both inside shares each
    tap's weights and most input vectors between its two sums, without tests; a column at the
    border, and an odd last column, run one at a time with them. `weight(b, channel, kh, kw)`
    loads a weight."""
    elem = ScalarType(p.elem)
    _, rb, oh, _ = nb.for_(nb.index(0), rows_out)
    rows = _tap_rows(rb, p, oh)  # in the row's body: the nest the threads split ends here
    row_inside = _row_inside(rb, p, oh)

    def columns(bb, cols, checked):
        """One loop over the channels computing the sums of columns `cols` of row oh."""
        _, fb, ch, _ = bb.for_(bb.index(0), channels)

        def load(b2, ih, iw):
            return b2.v("memref.load", [lhs, n, Ix(b2).val(ih), Ix(b2).val(iw), ch], elem)

        def weights(b2, kh, kw):
            return weight(b2, ch, kh, kw)
        sums = [_tap_sum(fb, p, load, weights, rows, col, checked, checked) for col in cols]
        for col, value in zip(cols, sums):
            finish(fb, [n, oh, col, ch], value)
        fb.yield_()

    # at stride 1 a pair's windows overlap: its sums share input vectors as well as weights;
    # at stride 2 they share only weights, and pairs were slower (32x56x56x16 3x3: 1.2 ms
    # against 0.74 one column at a time, one core)
    group = 2 if p.sw == 1 else 1
    groups = p.ow // group
    _, qb, q, _ = rb.for_(rb.index(0), rb.index(groups))
    qx = Ix(qb)
    first = qx.mul(q, group)
    cols = [first] + [qx.add(first, j) for j in range(1, group)]
    inside = qx.and_(row_inside, qx.and_(qx.cmp("sge", first, p.col_lo),
                                         qx.cmp("slt", cols[-1], p.col_hi)))
    together, apart = _if(qb, inside)
    columns(together, cols, False)
    together.yield_()
    _, ob, col, _ = apart.for_(first, Ix(apart).add(first, group))
    columns(ob, [col], True)
    ob.yield_()
    apart.yield_()
    qb.yield_()
    _, tb, col, _ = rb.for_(rb.index(group * groups), rb.index(p.ow))  # an odd width's last column
    columns(tb, [col], True)
    tb.yield_()
    rb.yield_()


# Window taps from which a channels-first convolution with short rows runs transposed: the
# two copies cost as much as a 3x3 window's sums. One loaded core, CPU time, transposed against
# rows: 8x96x14x14 5x5 0.66 / 0.98 ms, 8x240x14x14 5x5 1.55 / 2.20, 32x576x7x7 5x5 6.7 / 7.7,
# 32x240x8x8 5x5 4.0 / 4.5; 32x144x16x16 3x3 4.4 / 2.2.
TRANSPOSED_TAPS = 25


def _transposed(op: Operation) -> bool:
    """A channels-first convolution whose rows leave too short an inside run for the vector
    loops (VECTOR_RUN), whose planes are too big to spell out (SMALL_PLANE_TAPS) and whose
    window is large (TRANSPOSED_TAPS): 5x5 over 7x7 to 16x16 planes. It runs on each image
    transposed to channels-last (_emit_transposed)."""
    p = _Plan(op)
    run = min(p.col_hi, p.ow) - min(p.col_lo, p.ow)
    return (_layout(p.c) == "first" and not p.frames and not _spelled_out(p)
            and run < VECTOR_RUN and p.kh * p.kw >= TRANSPOSED_TAPS
            and all(v >= 0 for pair in p.pads for v in pair))


def _transposed_scratch(op: Operation, shapes: list, hs, results):
    """Per image: the input channels-last and zero-padded [N, H + pads, W + pads, C], the
    weights [N, KH, KW, C] (a copy each, so that the threads write apart), the result
    channels-last [N, OH, OW, C]."""
    q = _Plan(op).padded()
    batch, channels = results[0][0], results[0][1]

    def typed(*dims):
        return TensorType(tuple(d if isinstance(d, int) else None for d in dims), q.elem), list(dims)
    return [typed(batch, q.h, q.w, channels), typed(batch, q.kh, q.kw, channels),
            typed(batch, q.oh, q.ow, channels)]


def _emit_transposed(b, op: Operation, lhs, rhs, out, s_in, s_w, s_out) -> None:
    """For each image (split over the threads): its input copied channels-last and
    zero-padded, the weights channels-last, the channels-last rows over the padded input
    (_image_rows: vectors of channels, every column pair without tests), the result copied
    back. Rows of 7-14 positions leave the channels-first vector loops empty, and
    mkldnn does the same (nChw8c blocks)."""
    p = _Plan(op)
    q = p.padded()
    elem = ScalarType(p.elem)
    dims = [Ix(b).val(d) for d in buffer_dims(b, out)]
    _, nb, n, _ = b.for_(b.index(0), dims[0])
    with loop_nest(nb, [nb.index(q.h), nb.index(q.w), dims[1]]) as (ib, (h, w, ch)):
        ix = Ix(ib)  # the padding written as zeros: the rows below need no tests
        ih, iw = ix.sub(h, p.ph), ix.sub(w, p.pw)
        ok = ix.and_(ix.and_(ix.cmp("sge", ih, 0), ix.cmp("slt", ih, p.h)),
                     ix.and_(ix.cmp("sge", iw, 0), ix.cmp("slt", iw, p.w)))
        x = ib.v("memref.load", [lhs, n, ch, ix.select(ok, ih, 0), ix.select(ok, iw, 0)], elem)
        ib.op("memref.store", [ix.select(ok, x, ib.const(0, p.elem), elem), s_in, n, h, w, ch])
    with loop_nest(nb, [nb.index(p.kh), nb.index(p.kw), dims[1]]) as (wb, (kh, kw, ch)):
        idx = [None] * 4
        c = p.c
        idx[c.ki], idx[c.ko] = wb.index(0), ch
        idx[c.ksp[0]] = Ix(wb).sub(p.kh - 1, kh) if p.reverse[0] else kh
        idx[c.ksp[1]] = Ix(wb).sub(p.kw - 1, kw) if p.reverse[1] else kw
        wb.op("memref.store", [wb.v("memref.load", [rhs] + idx, elem), s_w, n, kh, kw, ch])

    def weight(b2, ch, kh, kw):
        return b2.v("memref.load", [s_w, n, b2.index(kh), b2.index(kw), ch], elem)

    def store(bb, idx, value):
        bb.op("memref.store", [value, s_out] + idx)
    _image_rows(nb, q, n, s_in, weight, nb.index(q.oh), dims[1], store)
    with loop_nest(nb, [dims[1], nb.index(p.oh), nb.index(p.ow)]) as (ob, (ch, oh, ow)):
        ob.op("memref.store", [ob.v("memref.load", [s_out, n, oh, ow, ch], elem), out, n, ch, oh, ow])
    nb.yield_()


def emit(k, op: Operation, b, args: list) -> None:
    lhs, rhs, out = args[:3]
    if len(args) >= 6:  # _transposed: its scratch buffers follow
        return _emit_transposed(b, op, lhs, rhs, out, *args[3:6])

    def store(bb, idx, value):
        bb.op("memref.store", [value, out] + idx)
    _emit(b, op, lhs, rhs, out, store)


def emit_epilogue(b, region_block, inputs: dict, out, env: dict) -> None:
    """A kOutput fusion: each output element's sum goes through the fused consumers (their
    Elemental rules, the sum standing for the convolution's value) and is stored once."""
    conv = next(o for o in region_block.ops if o.key == "convolution")
    product, root = conv.results[0], region_block.ops[-1].operands[0]
    lhs, rhs = (inputs[v] for v in conv.operands)

    def store(bb, idx, value):
        fused = Elemental(bb, inputs, scalars={product: value}, dims=env).at(root, idx)
        bb.op("memref.store", [fused, out] + idx)

    def raw(bb, idx, value):  # the bare sum, finished by a second pass (_channels_first)
        bb.op("memref.store", [value, out] + idx)
    same_type = getattr(out.type, "elem", None) == getattr(product.type, "elem", False)
    _emit(b, conv, lhs, rhs, out, store, raw if same_type else None,
          reads_at_own_index(root, inputs, per_dims=(0, 1), stop=product),
          reads_at_own_index(root, inputs, per_dims=(0,), stop=product))


registry.override("convolution", "scratch", lambda *args: [], target="cpu", when=depthwise)
registry.override("convolution", "scratch", _transposed_scratch, target="cpu",
                  when=lambda target, op: depthwise(target, op) and _transposed(op))
registry.override("convolution", "kernel", emit, target="cpu", when=depthwise)
registry.override("convolution", "parallel", True, target="cpu", when=depthwise)
# the transposed form has scratch buffers, which a kOutput fusion's kernel cannot take, and
# the 3-D one's passes add to the stored row: their consumers run as a kernel of their own
registry.override("convolution", "epilogue", emit_epilogue, target="cpu",
                  when=lambda target, op: depthwise(target, op) and not _transposed(op)
                  and Conv(op).n == 2)
