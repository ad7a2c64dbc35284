"""Winograd F(2x2, 3x3) convolution: 3x3 windows at stride 1 in 2.25x fewer multiply-adds.

A 3x3 convolution's output tile of 2x2 positions reads a 4x4 patch d of its input. With
B^T d B (the patch transformed), G g G^T (the kernel's 3x3 window g transformed, once per
call) and the output transform A^T m A (Lavin & Gray, "Fast Algorithms for Convolutional
Neural Networks", 2015),

    B^T = [1  0 -1  0]      G = [1    0    0 ]      A^T = [1  1  1  0]
          [0  1  1  0]          [1/2  1/2  1/2]            [0  1 -1 -1]
          [0 -1  1  0]          [1/2 -1/2  1/2]
          [0  1  0 -1]          [0    0    1 ]

the tile is y = A^T [sum over c of (G g_c,f G^T) * (B^T d_c B)] A: each of the 16
transformed positions xi is a matmul of (tiles x C) by (C x F). Here those products run on
the packed matmul's micro-kernel: for a block of MR tiles, their transformed patches (V[xi],
MR rows of C, in the thread's scratch) times the transformed kernel's NR-feature panel
(U[xi], C x NR) give M[xi] (MR x NR, scratch), 16 calls, then the output transform writes
the block's 2x2 positions of those NR features. 16 products of depth C per 4 outputs against
9 C per output: 2.25x fewer multiply-adds, plus the transforms. One AVX2 core, 8 x 32x32
images, 32 features to 32: 1.83 ms direct, 1.04 Winograd; 8 x 16x16, 64 to 64: 2.01 / 1.05.

Tasks are tile rows (batch, oh / 2), cut into chunks of MR / gcd(TW, MR) tile rows (TW tiles
a row) whose tiles are numbered through, so every block has MR tiles even where a row's tile
count is not a multiple of MR (the last block of a task may have fewer). With too few tile
rows for the threads (batch 1) the tasks are shares of the feature panels instead, each over
every tile row (`_splits`): each transforms the patches again, for its panels' products. A chunk's output
rows go through the fused consumers' epilogue when it is done, as the direct convolution's
rows do. The patches' positions outside the input read a zero row (the padding, and the
fourth row or column of a tile that overhangs an odd output).

Each tile's value depends only on its own patch and the kernel, so results do not depend on
the thread count. They round differently from the direct convolution's sums, about as
closely: against a float64 reference, the largest error over uniform random operands was
1.03 (Winograd) and 1.28 (direct) f32 epsilons times the sum of the terms' magnitudes
(tests/codegen/test_conv_winograd.py allows 8).

A call with fewer than MIN_TILES tiles (and U not stored), or without scratch (AOT_KERNEL_SCRATCH=off, or none
to be had), runs the direct convolution (conv_direct.py, in the same module), as does a task
that finds no scratch.
"""
from __future__ import annotations

from llvmlite import ir

from lowering.codegen.cpu.conv_direct import SLOTS, TASKS_PER_THREAD, conv_function
from lowering.codegen.cpu.gemm import (
    EPILOGUE_T,
    I1,
    I64,
    PTR,
    VOID,
    _Emitter,
    _for,
    _i,
    _max,
    _min,
    get_num_threads,
    load_slots,
    run_tasks,
    thread_scratch,
)
from lowering.codegen.cpu.gemm import _transpose as _transpose_block

XI = 16  # transformed positions of a 4x4 patch


# The transformed kernel U (16 C F elements) is streamed once per block of MR tiles: past
# this size it comes from memory each time and the product loses to the direct form's (one
# AVX2 core, batch 4 x 7x7, 512 features to 512: 15.6 ms direct, 17.0 Winograd; batch 1 x
# 14x14, 256 to 256, U 4 MiB: 3.04 / 2.45 ms).
MAX_TRANSFORMED_BYTES = 4 << 20
# Below this many 2x2 tiles in a call, transforming the kernel costs more than the products
# save, and the call runs the direct convolution (64 features to 64: 4 tiles 0.73x the
# direct form's speed, 16 tiles 1.02x, 32 tiles 1.24x; 128 to 128, 9 tiles: 0.65x). With U
# stored (a frozen kernel) Winograd's wins at any count: 256 to 256 at 4 tiles 0.49x the time.
MIN_TILES = 32


def takes(window: tuple, stride: tuple, dilation: tuple, features: int, outs: int,
          elem_bytes: int, vec: int) -> bool:
    """Whether a direct convolution (conv_gemm.direct: 16 or more input features) runs as
    Winograd's: a 3x3 window at stride and dilation 1, input features in whole vectors (the
    transforms' loads), a transformed kernel of at most MAX_TRANSFORMED_BYTES. 8 x 32x32
    images to 32 features, one AVX2 core, direct against Winograd: 16 features 1.03 / 0.67
    ms, 24: 1.42 / 0.83, 32: 1.83 / 1.04; 8 x 16x16 x 64 to 64: 2.01 / 1.05 ms."""
    return (tuple(window) == (3, 3) and tuple(stride) == (1, 1) and tuple(dilation) == (1, 1)
            and features % vec == 0 and XI * features * outs * elem_bytes <= MAX_TRANSFORMED_BYTES)


def transform_constant(kernel, nr: int):
    """A frozen (3, 3, C, F) kernel (numpy) followed by U as _transform_kernel computes it,
    the same operations in the same order (so the same bits): what the `transformed` slot
    points into when the kernel was stored so at compile time (passes/prepack.py); the
    kernel itself stays first for the direct convolution's fallback."""
    import numpy as np
    g, half = kernel, kernel.dtype.type(0.5)

    def gt(g0, g1, g2):  # G applied to 3 values, as _Vectors.kernel
        s = g0 + g2
        return [g0, (s + g1) * half, (s - g1) * half, g2]
    rows = [gt(g[kh, 0], g[kh, 1], g[kh, 2]) for kh in range(3)]
    cols = [gt(rows[0][j], rows[1][j], rows[2][j]) for j in range(4)]
    c, f = kernel.shape[2:]
    u = np.stack([cols[j][i] for i in range(4) for j in range(4)])  # (XI, C, F)
    u = u.reshape(XI, c, f // nr, nr).transpose(0, 2, 1, 3)  # U[xi][panel][c][NR]
    return np.concatenate([kernel.ravel(), np.ascontiguousarray(u).ravel()])


def _2d(transform, x):
    """transform applied to each row of x (a list of lists), then to each column."""
    rows = [transform(r) for r in x]
    cols = [transform([r[j] for r in rows]) for j in range(len(rows[0]))]
    return [[c[i] for c in cols] for i in range(len(cols[0]))]


class _Vectors:
    """The transforms' arithmetic on vectors of the element type."""

    def __init__(self, b, e: _Emitter):
        self.b = b
        self.half = ir.Constant(e.vt, [ir.Constant(e.t, 0.5)] * e.vec)

    def add(self, x, y):
        return self.b.fadd(x, y)

    def sub(self, x, y):
        return self.b.fsub(x, y)

    def input(self, d):
        """B^T applied to 4 values."""
        return [self.sub(d[0], d[2]), self.add(d[1], d[2]), self.sub(d[2], d[1]),
                self.sub(d[1], d[3])]

    def kernel(self, g):
        """G applied to 3 values."""
        s = self.add(g[0], g[2])
        return [g[0], self.b.fmul(self.add(s, g[1]), self.half),
                self.b.fmul(self.sub(s, g[1]), self.half), g[2]]

    def output(self, m):
        """A^T applied to 4 values."""
        return [self.add(self.add(m[0], m[1]), m[2]), self.sub(self.sub(m[1], m[2]), m[3])]


def winograd_function(mod: ir.Module, elem: str, t: ir.Type, parallel_for, blocking,
                      name: str | None = None, gemm: ir.Function | None = None) -> ir.Function:
    """The module's `void NAME.winograd_run(i64 *slots)` (conv_direct.SLOTS) for `elem`,
    emitted on first use with the direct convolution it falls back to (`gemm`: as there)."""
    name = name or f"aot.gemm.{elem}"
    existing = mod.globals.get(f"{name}.winograd_run")
    if existing is not None:
        return existing
    direct = conv_function(mod, elem, t, parallel_for, blocking, name, gemm)
    e = _Emitter(mod, elem, t, name, blocking)
    task = _task(e, e.micro_kernels(), mod.globals[f"{name}.conv_task"])
    f = e.fn("winograd_run", ir.FunctionType(VOID, [PTR]))
    (ctx,) = f.args
    b = ir.IRBuilder(f.append_basic_block("entry"))
    s = load_slots(b, ctx, SLOTS)
    relayout = _transpose_task(e)
    # channels-first operands (conv_gemm's NCHW route): `input` and `out` are channels-last
    # scratch, filled from and copied to them here, by register transposes
    plane, out_plane = b.mul(s["h"], s["w"]), b.mul(s["oh"], s["ow"])
    with b.if_then(b.icmp_signed("!=", s["nchw_in"], _i(0))):
        _transpose(b, relayout, parallel_for, s["batch"], s["nchw_in"], s["input"], s["c"], plane)
    _winograd_or_direct(e, b, ctx, s, task, direct, parallel_for)
    with b.if_then(b.icmp_signed("!=", s["nchw_out"], _i(0))):
        _transpose(b, relayout, parallel_for, s["batch"], s["out"], s["nchw_out"], out_plane,
                   s["f"])
    b.ret_void()
    return f


def _winograd_or_direct(e: _Emitter, b, ctx, s, task, direct, parallel_for) -> None:
    """The call by Winograd's tasks, or by the direct convolution (few tiles, no scratch)."""
    tiles_h = b.sdiv(b.add(s["oh"], _i(1)), _i(2))
    tiles = b.mul(b.mul(s["batch"], tiles_h), b.sdiv(b.add(s["ow"], _i(1)), _i(2)))
    # U stored with a frozen kernel (the `transformed` slot: transform_constant): no
    # transform to pay for, Winograd's at any tile count
    stored = b.icmp_signed("!=", s["transformed"], _i(0))
    few_tiles = b.and_(b.icmp_signed("<", tiles, _i(MIN_TILES)), b.not_(stored))
    with b.if_else(few_tiles) as (few, enough):
        with few:
            b.call(direct, [ctx])
        with enough:
            u_elems = b.select(stored, _i(0), b.mul(_i(XI), b.mul(s["c"], s["f"])))
            scratch = b.call(thread_scratch(e.mod), [b.mul(b.add(u_elems, _task_elems(e, b, s["c"])),
                                                      _i(e.size))])
            with b.if_else(b.icmp_unsigned("==", scratch, ir.Constant(PTR, None))) as (none, have):
                with none:
                    b.call(direct, [ctx])
                with have:
                    with b.if_then(b.not_(stored)):
                        _transform_kernel(e, b, s, scratch)
                        b.store(b.ptrtoint(scratch, I64), b.gep(
                            ctx, [_i(SLOTS.index("transformed"))], inbounds=True,
                            source_etype=I64))
                    flops = b.mul(b.mul(b.mul(s["batch"], s["oh"]), s["ow"]),
                                  b.mul(b.mul(s["f"], s["c"]), _i(4)))
                    splits = _splits(e, b, b.mul(s["batch"], tiles_h), b.sdiv(s["f"], _i(e.nr)))
                    b.store(splits, b.gep(ctx, [_i(SLOTS.index("splits"))], inbounds=True,
                                          source_etype=I64))
                    tasks = b.select(b.icmp_signed(">", splits, _i(1)), splits,
                                     b.mul(s["batch"], tiles_h))
                    run_tasks(b, flops, tasks, task, ctx, parallel_for)


def _transpose(b, task, parallel_for, batch, src, dst, rows, cols) -> None:
    """dst[i] (cols x rows) = src[i] (rows x cols) transposed, for each i < batch (one task
    each): the copies of a channels-first convolution, in place of conv_gemm's scalar loops."""
    with b.goto_entry_block():
        b.position_at_start(b.function.entry_basic_block)
        ctx = b.alloca(I64, size=_i(4))
    for i, v in enumerate((src, dst, rows, cols)):
        b.store(v, b.gep(ctx, [_i(i)], inbounds=True, source_etype=I64))
    run_tasks(b, b.mul(batch, b.mul(rows, cols)), batch, task, b.bitcast(ctx, PTR), parallel_for)


def _transpose_task(e: _Emitter) -> ir.Function:
    """void task(ctx, begin, end): matrices [begin, end) of _transpose, in VEC x VEC blocks
    transposed in registers (log2 VEC rounds of swapping off-diagonal blocks), the edges
    not in whole blocks element by element. One AVX2 core, 32 x 128 x 16 x 16 to channels-last:
    about 0.2 ms in 8x8 blocks against 1.1 ms element by element (C, benchmarks/results/
    2026-11-29-winograd-nchw.md)."""
    f = e.fn("winograd_transpose", ir.FunctionType(VOID, [PTR, I64, I64]))
    ctx, begin, end = f.args
    b = ir.IRBuilder(f.append_basic_block("entry"))
    src0, dst0, rows, cols = (b.load(b.gep(ctx, [_i(i)], inbounds=True, source_etype=I64),
                                     typ=I64) for i in range(4))
    vec = e.vec
    whole_r = b.mul(b.sdiv(rows, _i(vec)), _i(vec))
    whole_c = b.mul(b.sdiv(cols, _i(vec)), _i(vec))
    with _for(b, begin, end, "tm") as m:
        size = b.mul(m, b.mul(rows, cols))
        src = e.at(b, b.inttoptr(src0, PTR), size)
        dst = e.at(b, b.inttoptr(dst0, PTR), size)
        with _for(b, _i(0), b.sdiv(cols, _i(vec)), "tc") as cb:
            c0 = b.mul(cb, _i(vec))
            with _for(b, _i(0), b.sdiv(rows, _i(vec)), "tr") as rb:
                r0 = b.mul(rb, _i(vec))
                x = [b.load(e.vat(b, src, b.add(b.mul(b.add(r0, _i(i)), cols), c0)), typ=e.vt,
                            align=e.size) for i in range(vec)]
                for j, v in enumerate(_transpose_block(b, x)):
                    b.store(v, e.vat(b, dst, b.add(b.mul(b.add(c0, _i(j)), rows), r0)),
                            align=e.size)

        def element(r, c):
            v = b.load(e.at(b, src, b.add(b.mul(r, cols), c)), typ=e.t)
            b.store(v, e.at(b, dst, b.add(b.mul(c, rows), r)))
        with _for(b, _i(0), whole_c, "tx", scalar=True) as c:  # rows past the whole blocks
            with _for(b, whole_r, rows, "ty", scalar=True) as r:
                element(r, c)
        with _for(b, whole_c, cols, "tz", scalar=True) as c:  # columns past them, every row
            with _for(b, _i(0), rows, "tw", scalar=True) as r:
                element(r, c)
    b.ret_void()
    return f


def _splits(e: _Emitter, b, tile_rows, panels):
    """The feature panels' share of the tasks: with fewer tile rows than TASKS_PER_THREAD a
    thread (batch 1), 2 per thread (at most one a panel), each task all the tile rows of its
    panels (ResNet's 14x14x256 3x3 at batch 1: 7 tile rows, one of two cores idle for a
    third of the call); else 1, the tasks tile rows."""
    get_threads = get_num_threads(e.mod)
    threads = b.sext(b.call(get_threads, []), I64)
    few = b.icmp_signed("<", tile_rows, b.mul(threads, _i(TASKS_PER_THREAD)))
    return b.select(b.and_(few, b.icmp_signed(">", threads, _i(1))),
                    _min(b, panels, b.mul(threads, _i(2))), _i(1))


def _task_elems(e: _Emitter, b, c):
    """A task's scratch, in elements: a zero row of C, V (XI x MR x C) and M (XI x MR x NR)."""
    return b.add(b.mul(c, _i(1 + XI * e.mr)), _i(XI * e.mr * e.nr))


def _transform_kernel(e: _Emitter, b, s, u) -> None:
    """U[xi][panel][c][NR] = (G g G^T)[xi] for each input feature c and NR-feature panel of
    the (3, 3, C, F) kernel g: the micro-kernel's B panels, C deep, for every xi."""
    c, fo, nr, vec = s["c"], s["f"], e.nr, e.vec
    ker = b.inttoptr(s["kernel"], PTR)
    panels = b.sdiv(fo, _i(nr))
    ops = _Vectors(b, e)
    with _for(b, _i(0), c, "wc") as ci:
        with _for(b, _i(0), panels, "wp") as fp:
            for v in range(nr // vec):
                f0 = b.add(b.mul(fp, _i(nr)), _i(v * vec))
                g = [[b.load(e.vat(b, ker, b.add(b.mul(b.add(b.mul(_i(3 * kh + kw), c), ci), fo),
                                                 f0)), typ=e.vt, align=e.size)
                      for kw in range(3)] for kh in range(3)]
                tu = _2d(ops.kernel, g)
                for xi in range(XI):
                    at = b.add(b.mul(b.add(b.mul(b.add(b.mul(_i(xi), panels), fp), c), ci), _i(nr)),
                               _i(v * vec))
                    b.store(tu[xi // 4][xi % 4], e.vat(b, u, at), align=e.size)


def _task(e: _Emitter, micros: dict, direct_task) -> ir.Function:
    """void task(ctx, begin, end): tile rows (batch, oh / 2) [begin, end) of every feature
    panel; or, with `splits` > 1, tasks [begin, end) each every tile row of its share of the
    feature panels."""
    f = e.fn("winograd_task", ir.FunctionType(VOID, [PTR, I64, I64]))
    ctx, begin, end = f.args
    b = ir.IRBuilder(f.append_basic_block("entry"))
    s = load_slots(b, ctx, SLOTS)
    inp, out = b.inttoptr(s["input"], PTR), b.inttoptr(s["out"], PTR)
    c, fo, oh, ow = s["c"], s["f"], s["oh"], s["ow"]
    tiles_h = b.sdiv(b.add(oh, _i(1)), _i(2))
    tiles_w = b.sdiv(b.add(ow, _i(1)), _i(2))
    u = b.inttoptr(s["transformed"], PTR)
    # The calling thread's scratch holds U and, after it, this task's buffers (asking it for
    # less than it has returns it unchanged); another thread's scratch is its own.
    got = b.call(thread_scratch(e.mod), [b.mul(_task_elems(e, b, c), _i(e.size))])
    buf = b.select(b.icmp_unsigned("==", got, u), e.at(b, u, b.mul(_i(XI), b.mul(c, fo))), got)

    panels = b.sdiv(fo, _i(e.nr))
    splits = _max(b, s["splits"], _i(1))
    split = b.icmp_signed(">", splits, _i(1))
    rows = b.mul(s["batch"], tiles_h)
    with _for(b, b.select(split, begin, _i(0)), b.select(split, end, _i(1)), "wt") as t:
        row_lo, row_hi = b.select(split, _i(0), begin), b.select(split, rows, end)
        p_lo = b.select(split, b.sdiv(b.mul(t, panels), splits), _i(0))
        p_hi = b.select(split, b.sdiv(b.mul(b.add(t, _i(1)), panels), splits), panels)
        with b.if_else(b.icmp_unsigned("==", buf, ir.Constant(PTR, None))) as (none, have):
            with none:  # no scratch: these rows and panels by the direct convolution
                local = _with_panels(b, ctx, p_lo, p_hi)
                b.call(direct_task, [local, *_output_rows(b, row_lo, row_hi, tiles_h, oh)])
            with have:
                _tile_rows(e, b, s, micros, inp, out, u, buf, row_lo, row_hi, tiles_h, tiles_w,
                           p_lo, p_hi)
    b.ret_void()
    return f


def _with_panels(b, ctx, p_lo, p_hi):
    """A copy of the task context (on the stack) whose panel_lo and panel_hi slots are
    p_lo and p_hi."""
    with b.goto_entry_block():
        b.position_at_start(b.function.entry_basic_block)
        local = b.alloca(I64, size=_i(len(SLOTS)))
    for i, name in enumerate(SLOTS):
        v = {"panel_lo": p_lo, "panel_hi": p_hi}.get(name)
        if v is None:
            v = b.load(b.gep(ctx, [_i(i)], inbounds=True, source_etype=I64), typ=I64)
        b.store(v, b.gep(local, [_i(i)], inbounds=True))
    return b.bitcast(local, PTR)


def _output_rows(b, begin, end, tiles_h, oh):
    """The output rows [first, stop) of tile rows [begin, end), rows flattened over (batch,
    oh): tile row (batch, ty) has rows 2 ty and 2 ty + 1 of its image, those below oh."""
    def first(tile_row):
        return b.add(b.mul(b.sdiv(tile_row, tiles_h), oh), b.mul(b.srem(tile_row, tiles_h), _i(2)))
    last = b.sub(end, _i(1))
    image_end = b.mul(b.add(b.sdiv(last, tiles_h), _i(1)), oh)
    return first(begin), _min(b, b.add(first(last), _i(2)), image_end)


def _tile_rows(e: _Emitter, b, s, micros, inp, out, u, buf, begin, end, tiles_h, tiles_w,
               p_lo, p_hi) -> None:
    """Tile rows [begin, end) of feature panels [p_lo, p_hi) with the task's buffers at
    `buf` (a zero row, V, M)."""
    mr, nr, vec, vt = e.mr, e.nr, e.vec, e.vt
    c, fo, oh, ow = s["c"], s["f"], s["oh"], s["ow"]
    zeros = buf
    v_buf = e.at(b, buf, c)
    m_buf = e.at(b, v_buf, b.mul(c, _i(XI * mr)))
    zero = ir.Constant(vt, None)
    with _for(b, _i(0), b.sdiv(c, _i(vec)), "wz") as cv:
        b.store(zero, e.vat(b, zeros, b.mul(cv, _i(vec))), align=e.size)
    ops = _Vectors(b, e)
    panels = b.sdiv(fo, _i(nr))
    rows_per_chunk = _chunk_rows(b, tiles_w, mr)
    chunks = b.sdiv(b.add(b.sub(end, begin), b.sub(rows_per_chunk, _i(1))), rows_per_chunk)
    with _for(b, _i(0), chunks, "wk") as k:
        row0 = b.add(begin, b.mul(k, rows_per_chunk))
        row1 = _min(b, b.add(row0, rows_per_chunk), end)
        n_tiles = b.mul(b.sub(row1, row0), tiles_w)
        with _for(b, _i(0), b.sdiv(b.add(n_tiles, _i(mr - 1)), _i(mr)), "wb") as blk:
            t0 = b.mul(blk, _i(mr))
            rows = _min(b, _i(mr), b.sub(n_tiles, t0))
            where = []  # per tile of the block: (batch, tile y, tile x), used below `rows`
            for r in range(mr):
                t = b.add(t0, _i(r))
                tr = b.add(row0, b.sdiv(t, tiles_w))
                where.append((b.sdiv(tr, tiles_h), b.srem(tr, tiles_h), b.srem(t, tiles_w)))
            # the block's patches transformed into V[xi][r][c]; rows past `rows` zeroed
            for r in range(mr):
                bi, ty, tx = where[r]
                with b.if_else(b.icmp_signed("<", _i(r), rows)) as (tile, pad):
                    with tile:
                        _transform_patch(e, b, ops, s, inp, zeros, v_buf, r, bi, ty, tx)
                    with pad:
                        with _for(b, _i(0), b.sdiv(c, _i(vec)), "wq") as cv:
                            for xi in range(XI):
                                at = b.add(b.mul(_i(xi * mr + r), c), b.mul(cv, _i(vec)))
                                b.store(zero, e.vat(b, v_buf, at), align=e.size)
            # always MR rows, the micro-kernel's fast path: padded rows of V are zeros, and
            # their rows of M are not read
            with _for(b, p_lo, p_hi, "wf") as fp:
                for xi in range(XI):
                    e.call_micro(b, micros, _i(mr), [
                        c, e.at(b, v_buf, b.mul(_i(xi * mr), c)), _i(1), c,
                        e.at(b, u, b.mul(b.add(b.mul(_i(xi), panels), fp), b.mul(c, _i(nr)))),
                        _i(nr), e.at(b, m_buf, _i(xi * mr * nr)), _i(nr), _i(mr), _i(nr),
                        ir.Constant(I1, 0)])
                for r in range(mr):
                    bi, ty, tx = where[r]
                    with b.if_then(b.icmp_signed("<", _i(r), rows)):
                        _transform_output(e, b, ops, s, out, m_buf, r, bi, ty, tx, fp)
        # the chunk's output rows are finished: their fused consumers run now
        with b.if_then(b.icmp_signed("!=", s["epi"], _i(0))):
            first, stop = _output_rows(b, row0, row1, tiles_h, oh)
            b.call(b.inttoptr(s["epi"], EPILOGUE_T.as_pointer()),
                   [b.inttoptr(s["epi_ctx"], PTR), _i(0), b.mul(first, ow), b.mul(stop, ow),
                    b.mul(p_lo, _i(nr)), b.mul(p_hi, _i(nr))])


def _chunk_rows(b, tiles_w, mr: int):
    """Tile rows per chunk: the fewest whose tiles fill whole blocks of MR, MR / gcd(TW, MR)
    (at most MR), at run time: MR's divisors tried in turn."""
    rows = _i(mr)
    for d in sorted(x for x in range(2, mr + 1) if mr % x == 0):
        rows = b.select(b.icmp_signed("==", b.srem(tiles_w, _i(d)), _i(0)), _i(mr // d), rows)
    return rows


def _transform_patch(e: _Emitter, b, ops, s, inp, zeros, v_buf, r, bi, ty, tx) -> None:
    """V[xi][r][:] = (B^T d B)[xi] for the 4x4 patch at (2 ty - ph, 2 tx - pw) of image bi;
    positions outside the input read the zero row."""
    mr, vec = e.mr, e.vec
    c, h, w = s["c"], s["h"], s["w"]
    y0 = b.sub(b.mul(ty, _i(2)), s["ph"])
    x0 = b.sub(b.mul(tx, _i(2)), s["pw"])
    row_ok = [_inside(b, b.add(y0, _i(p)), h) for p in range(4)]
    col_ok = [_inside(b, b.add(x0, _i(q)), w) for q in range(4)]
    base = []
    for p in range(4):
        for q in range(4):
            ok = b.and_(row_ok[p], col_ok[q])
            pos = b.add(b.mul(b.add(b.mul(bi, h), b.add(y0, _i(p))), w), b.add(x0, _i(q)))
            base.append(b.select(ok, e.at(b, inp, b.mul(b.select(ok, pos, _i(0)), c)), zeros))
    with _for(b, _i(0), b.sdiv(c, _i(vec)), "wv") as cv:
        off = b.mul(cv, _i(vec))
        d = [[b.load(e.vat(b, base[4 * p + q], off), typ=e.vt, align=e.size) for q in range(4)]
             for p in range(4)]
        tv = _2d(ops.input, d)
        for xi in range(XI):
            at = b.add(b.mul(_i(xi * mr + r), c), off)
            b.store(tv[xi // 4][xi % 4], e.vat(b, v_buf, at), align=e.size)


def _inside(b, x, n):
    return b.and_(b.icmp_signed(">=", x, _i(0)), b.icmp_signed("<", x, n))


def _transform_output(e: _Emitter, b, ops, s, out, m_buf, r, bi, ty, tx, fp) -> None:
    """The 2x2 outputs (A^T m A) of tile r for feature panel fp, those inside the result."""
    mr, nr, vec = e.mr, e.nr, e.vec
    fo, oh, ow = s["f"], s["oh"], s["ow"]
    y0, x0 = b.mul(ty, _i(2)), b.mul(tx, _i(2))
    more_y = b.icmp_signed("<", b.add(y0, _i(1)), oh)
    more_x = b.icmp_signed("<", b.add(x0, _i(1)), ow)
    inside = {(0, 0): None, (0, 1): more_x, (1, 0): more_y, (1, 1): b.and_(more_x, more_y)}
    for v in range(nr // vec):
        m = [[b.load(e.vat(b, m_buf, _i((4 * i + j) * mr * nr + r * nr + v * vec)),
                     typ=e.vt, align=e.size) for j in range(4)] for i in range(4)]
        y = _2d(ops.output, m)
        for dy in range(2):
            for dx in range(2):
                pos = b.add(b.mul(b.add(b.mul(bi, oh), b.add(y0, _i(dy))), ow), b.add(x0, _i(dx)))
                at = b.add(b.mul(pos, fo), b.add(b.mul(fp, _i(nr)), _i(v * vec)))
                ok = inside[(dy, dx)]
                if ok is None:
                    b.store(y[dy][dx], e.vat(b, out, at), align=e.size)
                else:
                    with b.if_then(ok):
                        b.store(y[dy][dx], e.vat(b, out, at), align=e.size)
