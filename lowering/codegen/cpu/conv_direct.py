"""Direct 2-D convolution on the packed matmul's micro-kernel: no im2col buffer.

For a (batch, height, width, feature) input, a (kh, kw, in, out) kernel and a (batch,
height, width, out) result, the MR output positions ow0 ... ow0 + MR - 1 of one output row
read, for one window position (kh, kw), MR input rows of features that lie `stride * C`
elements apart:

    out[b, oh, ow0 + r, f] += sum over c of in[b, ih, (ow0 + r) sw + kw dw - pw, c]
                                            * w[kh, kw, c, f],   ih = oh sh + kh dh - ph

which is the micro-kernel's C[r, f] += A[r, c] B[c, f] with A read in place (k stride 1,
row stride sw C) and B the kernel's rows for (kh, kw) in place (row stride: the out
features; or, where the calling thread has scratch for it, packed per call into NR-feature
panels, see _pack_kernel). So a tile of MR positions x NR features is zeroed, then takes one
micro-kernel call per window position; positions whose input column falls in the padding are left out
of that call (a shorter run of rows), window rows in the padding are skipped. The kernel's
NR-feature panel stays in L1 while the row's tiles go by. Tasks are output rows (batch,
oh), cut into chunks of tiles when there are too few rows for every thread (_chunks), or
taken in groups when rows are short (_row_group), on the thread pool when the product is
big enough. A finished block of tiles (BLOCK_BYTES) goes through the fused consumers'
epilogue (a kOutput fusion: bias, activation, residual), if any.

Thin feature groups (two to a panel) have their kernels packed block-diagonally into full
panels (_pack_kernel); windows that tile the input with thin features are gathered into a
matrix for the packed matmul instead (_patch_matmul).

A 1-D convolution (batch, w, feature) is the 2-D one of height 1: its rows are the batch,
and with stride s a tile's MR window rows, kw x c elements each, lie s c apart in the input,
read in place: the matmul without im2col (wav2vec2's kernel 10 stride 5 and kernel 3 stride
2 feature convolutions).

conv_gemm.py routes the convolutions this layout allows here (`direct`); the rest keep
im2col and the packed matmul.
"""
from __future__ import annotations

from llvmlite import ir

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
    _splat,
    gemm_function,
    get_num_threads,
    load_slots,
    run_tasks,
    thread_scratch,
)
from lowering.codegen.cpu.gemm import SLOTS as GEMM_SLOTS

SLOTS = ("input", "kernel", "out", "batch", "h", "w", "c", "oh", "ow", "f", "kh", "kw",
         "sh", "sw", "dh", "dw", "ph", "pw", "epi", "epi_ctx", "packed_kernel", "transformed",
         "chunks", "chunk_tiles", "groups", "cin", "panel_lo", "panel_hi", "splits",
         "patches", "row_group", "panel_tasks", "prepacked", "nchw_in", "nchw_out")

# Tasks per thread the output is cut into: as the thread pool's chunks per thread, so uneven
# tasks balance. A call with fewer output rows than that cuts its rows into chunks of MR-wide
# tiles as well (batch 1, 1-D convolutions): ResNet's 14x14x256 3x3 convolution at batch 1
# left one of two cores idle for most of its 14 rows.
TASKS_PER_THREAD = 4
# The bytes of output a block of tiles spans (MR positions x every feature each): in L2.
BLOCK_BYTES = 128 << 10
# Each tile's calls prefetch (in lines of PREFETCH_LINE bytes) a 1/P share of the input that the
# tile one block ahead reads, P the task's feature panels: the next block's input arrives
# spread over this block's calls, not all on its first panel, where the hardware prefetcher
# left the micro-kernel waiting on memory (wav2vec2's kernel 3 stride 2 convolution, 8 x 3199 x
# 128, one core: 0.93 of its time; a cold 2 x 799 input 0.91, a hot one unchanged). Whole,
# on the first panel only, the prefetches came too fast to hide the latency (1.00).
PREFETCH_LINE = 64
# Windows that tile the input (stride = window, no padding) with window rows shorter than
# this (kw c: ViT's 4x4 patches of 3 features, 12) are gathered into a matrix and multiplied
# by the packed matmul, the fused consumers on its tiles (_patch_matmul): output rows of 8
# positions fill 6-wide tiles badly and a window row is a short call. One AVX2 core, CPU-time
# medians, the patch embedding 32x32x32x3 -> 128 with its bias: 0.73 ms direct with each
# block's windows gathered, 0.41 ms im2col's matmul and a separate bias pass.
PATCH_MATMUL_BELOW = 16
# Elements of A from which the threads share its gather.
PATCH_PARALLEL_ELEMS = 1 << 16
# An input of at most this many bytes whose kernel is larger than the output: tasks are
# shares of the kernel's feature panels, each over every output row (_panel_tasks), so
# each panel streams from memory once and the input stays in L2. By rows, every task
# streamed the whole kernel: ResNet's 7x7x512 3x3 at batch 1 (9 MiB of kernel, 7 rows).
# Each such task packs its panels itself, one at a time into its thread's scratch, where
# they stay in L2 while the rows go by (_pack_panel): packed whole by the calling thread
# before the tasks, the kernel went to memory and came back.
PANEL_TASKS_INPUT_BYTES = 256 << 10
# ... and whose kernel has at least this many bytes: a smaller one stays in L2 across the
# row tasks (ResNet-18's 8x8x128 3x3 at batch 1, 576 KiB: 2-3 % slower by panels).
PANEL_TASKS_KERNEL_BYTES = 1 << 20
# A row's last tile, cut by the row's end to R = ow mod MR rows, is a pass over a kernel
# panel for R rows' work on R x NR/VEC accumulators, too few to hide the multiply-add's
# latency (wav2vec2's kernel 3 stride 2 at 3 x 399: rows of 199 = 33 x 6 + 1 positions, the
# 1-row kernel 1.8 % of the samples for 0.5 % of the work; rows of 3 took the 6-row kernel).
# Where its window rows are whole and the kernel is packed, it takes up to TAIL_PANELS panels
# a call, as many as keep at most TAIL_ACCUMULATORS accumulators (_tail_kernel).
TAIL_ACCUMULATORS = 12
TAIL_PANELS = 4


def _prefetch_ahead(e: _Emitter, b, s, inp, row_at, kh_lo, kh_hi, x0, cin, part, parts) -> None:
    """Prefetch share `part` of `parts` of the input lines the tile whose first input column
    is x0 reads, in each window row [kh_lo, kh_hi) (`row_at(kh)`: the row's first element;
    `cin` features a position). Prefetches never fault: past the input's end they do
    nothing."""
    step = PREFETCH_LINE // e.size
    span = b.mul(b.add(b.mul(_i(e.mr), s["sw"]), s["kw"]), cin)
    lines = b.sdiv(b.add(span, _i(step - 1)), _i(step))
    parts = _max(b, parts, _i(1))
    first, last = b.sdiv(b.mul(lines, part), parts), b.sdiv(b.mul(lines, b.add(part, _i(1))), parts)
    with _for(b, kh_lo, kh_hi, "pkh") as kh:
        start = b.add(row_at(kh), b.mul(x0, cin))
        with _for(b, first, last, "pl") as line:
            e.prefetch(b, b.gep(inp, [b.add(start, b.mul(line, _i(step)))], source_etype=e.t))


def _ceil_div_signed(b, x, n):
    """ceil(x / n) for n > 0 and any x."""
    q = b.sdiv(x, n)
    return b.add(q, b.zext(b.and_(b.icmp_signed(">", x, b.mul(q, n)),
                                   b.icmp_signed(">", x, _i(0))), I64))


def conv_function(mod: ir.Module, elem: str, t: ir.Type, parallel_for, blocking,
                  name: str | None = None, gemm: ir.Function | None = None) -> ir.Function:
    """The module's `void NAME.conv_run(i64 *slots)` (SLOTS) direct convolution for `elem`,
    emitted on first use, sharing the packed matmul's micro-kernels (NAME: aot.gemm.ELEM).
    `gemm`: the packed matmul's entry the patch windows' product calls (cpu/helpers.py
    declares the matmul's cached object's), else the module's own."""
    name = name or f"aot.gemm.{elem}"
    existing = mod.globals.get(f"{name}.conv_run")
    if existing is not None:
        return existing
    e = _Emitter(mod, elem, t, name, blocking)
    micros = e.micro_kernels(called=True)
    # the kernels the task calls, before it: where their loops fall in the object (their
    # alignment) then does not move with each change to the task's code
    e.micro_kernel(e.mr, "b", called=True)
    for rows in range(1, 0 if e.pairs else e.mr):
        _tail_kernel(e, rows)
    task = _task(e, micros)
    gemm = gemm or gemm_function(mod, elem, t, parallel_for, blocking, name)
    gather = _gather_task(e)
    f = e.fn("conv_run", ir.FunctionType(VOID, [PTR]))
    (ctx,) = f.args
    b = ir.IRBuilder(f.append_basic_block("entry"))
    s = load_slots(b, ctx, SLOTS)
    with b.if_then(b.and_(_thin_patches(b, s), b.icmp_signed("==", s["prepacked"], _i(0)))):
        _patch_matmul(e, b, ctx, s, gemm, gather, parallel_for)
    # feature groups: `c` becomes the kernel's input features (a group's), `cin` the input's
    s["cin"], s["c"] = s["c"], b.sdiv(s["c"], _max(b, s["groups"], _i(1)))
    for slot in ("cin", "c"):
        b.store(s[slot], b.gep(ctx, [_i(SLOTS.index(slot))], inbounds=True, source_etype=I64))
    rows = b.mul(s["batch"], s["oh"])
    by_panels = _panel_tasks(e, b, s, rows)
    whole = b.icmp_signed(">", by_panels, _i(0))  # a task's rows whole: one chunk a row
    packed = _pack_kernel(e, b, ctx, s, whole, b.icmp_signed("!=", s["prepacked"], _i(0)))
    _merge_thin_groups(e, b, ctx, s, packed)
    flops = b.mul(b.mul(b.mul(rows, s["ow"]), b.mul(s["f"], s["c"])), b.mul(s["kh"], s["kw"]))
    chunks, chunk_tiles = _chunks(e, b, rows, s["ow"])
    group = _row_group(e, b, rows, s["ow"], s["f"], chunks)
    chunks, chunk_tiles = b.select(whole, _i(1), chunks), b.select(whole, _i(0), chunk_tiles)
    for slot, v in (("chunks", chunks), ("chunk_tiles", chunk_tiles), ("row_group", group),
                    ("panel_tasks", by_panels)):
        b.store(v, b.gep(ctx, [_i(SLOTS.index(slot))], inbounds=True, source_etype=I64))
    tasks = b.select(b.icmp_signed(">", group, _i(1)),
                     b.sdiv(b.add(rows, b.sub(group, _i(1))), group), b.mul(rows, chunks))
    tasks = b.select(whole, by_panels, tasks)
    run_tasks(b, flops, tasks, task, ctx, parallel_for)
    b.ret_void()
    return f


def patch_matmul(ops, tiling, groups, kh, kw, c):
    """Whether windows that tile the input take _patch_matmul: one group, more than one
    window row, rows shorter than PATCH_MATMUL_BELOW. The one rule for both conv_gemm's
    compile-time choice (ints, INTS) and the run-time one (IR values, _IROps)."""
    thin = ops.and_(ops.lt(groups, 2), ops.lt(ops.mul(kw, c), PATCH_MATMUL_BELOW))
    return ops.and_(ops.and_(tiling, thin), ops.lt(1, kh))


class INTS:
    """patch_matmul's operations on Python ints and bools."""
    and_ = staticmethod(lambda x, y: bool(x and y))
    lt = staticmethod(lambda x, y: x < y)
    mul = staticmethod(lambda x, y: x * y)


class _IROps:
    """patch_matmul's operations on i64 IR values (ints become constants)."""
    def __init__(self, b):
        self.b = b

    def _v(self, x):
        return _i(x) if isinstance(x, int) else x

    def and_(self, x, y):
        return self.b.and_(x, y)

    def lt(self, x, y):
        return self.b.icmp_signed("<", self._v(x), self._v(y))

    def mul(self, x, y):
        return self.b.mul(self._v(x), self._v(y))


def _thin_patches(b, s):
    """Windows that tile the input (stride = window, no padding or dilation) and take
    patch_matmul."""
    def eq(x, y):
        return b.icmp_signed("==", x, y)
    tiling = b.and_(b.and_(eq(s["sh"], s["kh"]), eq(s["sw"], s["kw"])),
                    b.and_(b.and_(eq(s["ph"], _i(0)), eq(s["pw"], _i(0))),
                           b.and_(eq(s["dh"], _i(1)), eq(s["dw"], _i(1)))))
    return patch_matmul(_IROps(b), tiling, s["groups"], s["kh"], s["kw"], s["c"])


def _patch_matmul(e: _Emitter, b, ctx, s, gemm, gather, parallel_for) -> None:
    """out[(batch, oh, ow), f] = A @ kernel[(kh, kw, c), f] by the packed matmul, A's row
    the window of (batch, oh, ow): kh runs of kw c input elements (a window row), gathered
    on the threads into the calling thread's scratch after what the matmul's tasks pack into
    (the same block: asking for less returns it unchanged). The fused consumers run on the
    matmul's finished tiles, rows being the positions as the direct convolution's are.
    Returns from the caller; without scratch, the direct convolution runs instead."""
    k = b.mul(b.mul(s["kh"], s["kw"]), s["c"])
    rows = b.mul(s["batch"], s["oh"])
    m = b.mul(rows, s["ow"])
    packing = e.task_scratch_bytes()
    scratch = b.call(thread_scratch(e.mod), [b.add(_i(packing), b.mul(b.mul(m, k), _i(e.size)))])
    with b.if_then(b.icmp_unsigned("!=", scratch, ir.Constant(PTR, None))):
        a = e.at(b, scratch, _i(packing // e.size))
        b.store(b.ptrtoint(a, I64),
                b.gep(ctx, [_i(SLOTS.index("patches"))], inbounds=True, source_etype=I64))
        with b.if_else(b.icmp_signed(">=", b.mul(m, k), _i(PATCH_PARALLEL_ELEMS))) as (many, few):
            with many:
                b.call(parallel_for, [rows, gather, ctx])
            with few:
                b.call(gather, [ctx, _i(0), rows])
        _patches_gemm(b, s, a, gemm, m, k)
        b.ret_void()


def _gather_task(e: _Emitter) -> ir.Function:
    """void task(ctx, begin, end): the rows of A (`patches` slot) of output rows [begin, end)."""
    f = e.fn("patch_gather", ir.FunctionType(VOID, [PTR, I64, I64]))
    ctx, begin, end = f.args
    b = ir.IRBuilder(f.append_basic_block("entry"))
    s = load_slots(b, ctx, SLOTS)
    inp, a = b.inttoptr(s["input"], PTR), b.inttoptr(s["patches"], PTR)
    run = b.mul(s["kw"], s["c"])
    k = b.mul(s["kh"], run)
    with _for(b, begin, end, "pr") as row:
        bi, oh = b.sdiv(row, s["oh"]), b.srem(row, s["oh"])
        with _for(b, _i(0), s["kh"], "ph") as kh:
            src_row = e.at(b, inp, b.mul(b.add(b.mul(bi, s["h"]), b.add(b.mul(oh, s["kh"]), kh)),
                                         b.mul(s["w"], s["c"])))
            with _for(b, _i(0), s["ow"], "pw") as ow:
                src = e.at(b, src_row, b.mul(ow, run))
                dst = e.at(b, a, b.add(b.mul(b.add(b.mul(row, s["ow"]), ow), k), b.mul(kh, run)))
                with _for(b, _i(0), run, "pc") as j:
                    b.store(b.load(e.at(b, src, j), typ=e.t), e.at(b, dst, j))
    b.ret_void()
    return f


def _patches_gemm(b, s, a, gemm, m, k) -> None:
    """out = A @ kernel by the packed matmul, the convolution's epilogue on its tiles."""
    values = {"batch": _i(1), "m": m, "n": s["f"], "k": k, "a": b.ptrtoint(a, I64), "a_row": k,
              "a_col": _i(1), "b": s["kernel"], "b_row": s["f"], "b_col": _i(1), "c": s["out"],
              "epi": s["epi"], "epi_ctx": s["epi_ctx"]}
    with b.goto_entry_block():
        b.position_at_start(b.function.entry_basic_block)
        slots = b.alloca(I64, size=_i(len(GEMM_SLOTS)))
    for i, name in enumerate(GEMM_SLOTS):
        b.store(values.get(name, _i(0)), b.gep(slots, [_i(i)], inbounds=True))
    b.call(gemm, [b.bitcast(slots, PTR)])


def _row_group(e: _Emitter, b, rows, ow, f_out, chunks):
    """Output rows a task takes together: as many as fill a block (BLOCK_BYTES) when a row
    has fewer tiles, while every thread keeps TASKS_PER_THREAD tasks; else 1. Each feature
    panel of the kernel then streams over the group's rows, not a row's one or two tiles
    (ResNet's 7x7x512 3x3: 9 MiB of kernel, far past L2, streamed once per 7 positions)."""
    get_threads = get_num_threads(e.mod)
    tasks = b.mul(b.sext(b.call(get_threads, []), I64), _i(TASKS_PER_THREAD))
    tiles = _max(b, b.sdiv(b.add(ow, _i(e.mr - 1)), _i(e.mr)), _i(1))
    fill = b.sdiv(_block_tiles(e, b, f_out), tiles)
    spread = b.sdiv(rows, tasks)
    group = _max(b, _min(b, fill, spread), _i(1))
    return b.select(b.icmp_signed("==", chunks, _i(1)), group, _i(1))


def _panel_tasks(e: _Emitter, b, s, rows):
    """Tasks as shares of the feature panels, each over every output row: as many as the
    panels, at most TASKS_PER_THREAD a thread, for an ungrouped convolution whose input has
    at most PANEL_TASKS_INPUT_BYTES and whose kernel is larger than its output and has at
    least PANEL_TASKS_KERNEL_BYTES; else 0 (tasks by rows)."""
    get_threads = get_num_threads(e.mod)
    tasks = b.mul(b.sext(b.call(get_threads, []), I64), _i(TASKS_PER_THREAD))
    panels = b.sdiv(b.add(s["f"], _i(e.nr - 1)), _i(e.nr))
    inputs = b.mul(b.mul(b.mul(s["batch"], s["h"]), b.mul(s["w"], s["cin"])), _i(e.size))
    kernel = b.mul(b.mul(s["kh"], s["kw"]), s["c"])
    big = b.icmp_signed(">=", b.mul(b.mul(kernel, s["f"]), _i(e.size)), _i(PANEL_TASKS_KERNEL_BYTES))
    fits = b.and_(b.and_(b.icmp_signed("<=", s["groups"], _i(1)),
                         b.icmp_signed("<=", inputs, _i(PANEL_TASKS_INPUT_BYTES))),
                  b.and_(b.icmp_signed(">", kernel, b.mul(rows, s["ow"])), big))
    return b.select(fits, _min(b, panels, tasks), _i(0))


def _block_tiles(e: _Emitter, b, f_out):
    """MR-wide tiles a block: BLOCK_BYTES of output."""
    return _max(b, b.sdiv(_i(BLOCK_BYTES // e.size), b.mul(_i(e.mr), f_out)), _i(1))


def _chunks(e: _Emitter, b, rows, ow):
    """(chunks per output row, MR-wide tiles per chunk): one chunk per row when the rows
    give every thread TASKS_PER_THREAD tasks, else as many as make up the difference."""
    get_threads = get_num_threads(e.mod)
    tasks = b.mul(b.sext(b.call(get_threads, []), I64), _i(TASKS_PER_THREAD))
    tiles = _max(b, b.sdiv(b.add(ow, _i(e.mr - 1)), _i(e.mr)), _i(1))
    wanted = b.sdiv(b.add(tasks, b.sub(rows, _i(1))), _max(b, rows, _i(1)))
    chunk_tiles = b.sdiv(b.add(tiles, _i(-1)), _min(b, _max(b, wanted, _i(1)), tiles))
    chunk_tiles = b.add(chunk_tiles, _i(1))  # ceil(tiles / chunks)
    return b.sdiv(b.add(tiles, b.sub(chunk_tiles, _i(1))), chunk_tiles), chunk_tiles


def _thin_groups(e: _Emitter, b, s):
    """P, the feature groups one NR-wide panel holds: NR / (a group's output features) when
    that divides NR and the group count (wav2vec2's 16 groups of 8 on 16-wide f32 panels:
    2), else 1."""
    groups = _max(b, s["groups"], _i(1))
    outs = _max(b, b.sdiv(s["f"], groups), _i(1))
    p = b.sdiv(_i(e.nr), outs)
    fits = b.and_(b.and_(b.icmp_signed("<", outs, _i(e.nr)), b.icmp_signed(">", groups, _i(1))),
                  b.and_(b.icmp_signed("==", b.srem(_i(e.nr), outs), _i(0)),
                         b.icmp_signed("==", b.srem(groups, _max(b, p, _i(1))), _i(0))))
    return b.select(fits, p, _i(1))


def _merge_thin_groups(e: _Emitter, b, ctx, s, packed) -> None:
    """With P > 1 thin groups a panel and the kernel packed block-diagonally (_pack_kernel),
    the tasks see G / P groups of P c input and NR output features: full NR-wide tiles,
    each reading its P groups' input features in place. Without packed panels (no scratch)
    the tasks keep the G groups, each panel cut to a group's features."""
    p = b.select(b.icmp_unsigned("!=", packed, ir.Constant(PTR, None)), _thin_groups(e, b, s), _i(1))
    for slot, v in (("c", b.mul(s["c"], p)), ("groups", b.sdiv(s["groups"], p))):
        b.store(v, b.gep(ctx, [_i(SLOTS.index(slot))], inbounds=True, source_etype=I64))


def _pack_kernel(e: _Emitter, b, ctx, s, by_panels, prepacked):
    """The kernel as NR-feature panels, each (kh kw c) x NR (k-major), in the calling
    thread's scratch, its address in the `packed_kernel` slot (0: none, the tasks read it in
    place); returns it. In place, a panel's rows lie `out features` apart: with 64 of them, 256 bytes,
    the rows of a 3x3x64 panel fall in a quarter of L1's sets and evict each other (a
    16x16x64 -> 64 convolution at 74 GFLOP/s on one AVX2 core against 85 for 32x32x32 -> 32).
    With P > 1 thin groups a panel (_thin_groups), block-diagonally: a panel's depth is
    (kh kw P c), the rows of its group q (of P) nonzero only in q's columns. Not here
    with `by_panels` (the tasks pack their own panels): none, 0. `prepacked`: the kernel is
    these panels already (a frozen kernel, stored so at compile time: pack_constant), read as
    is by every task."""
    nr = e.nr
    p = _thin_groups(e, b, s)
    depth = b.mul(b.mul(b.mul(s["kh"], s["kw"]), s["c"]), p)
    whole = b.sdiv(s["f"], _i(nr))
    panels = b.sdiv(b.add(s["f"], _i(nr - 1)), _i(nr))  # the last one cut by F: zero-padded
    bytes_ = b.mul(b.mul(depth, b.mul(panels, _i(nr))), _i(e.size))
    skip = b.or_(by_panels, prepacked)
    got = b.call(thread_scratch(e.mod), [b.select(skip, _i(0), bytes_)])
    packed = b.select(skip, ir.Constant(PTR, None), got)
    have = b.icmp_unsigned("!=", packed, ir.Constant(PTR, None))
    with b.if_else(b.and_(have, b.icmp_signed(">", p, _i(1)))) as (diagonal, dense):
        with diagonal:
            _pack_block_diagonal(e, b, s, packed, p, whole)
        with dense:
            _pack_dense(e, b, s, packed, have, depth, panels)
    packed = b.select(prepacked, b.inttoptr(s["kernel"], PTR), packed)
    b.store(b.ptrtoint(packed, I64),
            b.gep(ctx, [_i(SLOTS.index("packed_kernel"))], inbounds=True, source_etype=I64))
    return packed


def pack_constant(kernel, nr: int):
    """A frozen kernel (kh, kw, c, F) (numpy) as the dense panels _pack_kernel gives, for the
    `prepacked` slot: panel fp is (kh kw c) x NR, k-major, the last one zero-padded past F."""
    import numpy as np
    depth, f = int(np.prod(kernel.shape[:-1])), kernel.shape[-1]
    panels = -(-f // nr)
    padded = np.zeros((depth, panels * nr), kernel.dtype)
    padded[:, :f] = kernel.reshape(depth, f)
    return np.ascontiguousarray(padded.reshape(depth, panels, nr).transpose(1, 0, 2)).ravel()


def _pack_block_diagonal(e: _Emitter, b, s, packed, p, panels) -> None:
    """Panel fp's row (kpos, q, i) = the kernel's row (kpos, i) in group q's columns
    [q NR / P, (q + 1) NR / P), zeros elsewhere (the kernel: (kh kw, c, F), c a group's)."""
    nr, c = e.nr, s["c"]
    outs = b.sdiv(_i(nr), p)
    ker = b.inttoptr(s["kernel"], PTR)
    kpos = b.mul(s["kh"], s["kw"])
    zero = ir.Constant(e.vt, None)
    with _for(b, _i(0), panels, "dp") as fp:
        panel = e.at(b, packed, b.mul(fp, b.mul(b.mul(kpos, b.mul(p, c)), _i(nr))))
        with _for(b, _i(0), kpos, "dk") as kp:
            with _for(b, _i(0), p, "dq") as q:
                with _for(b, _i(0), c, "di") as i:
                    row = e.at(b, panel, b.mul(b.add(b.mul(b.add(b.mul(kp, p), q), c), i), _i(nr)))
                    for v in range(nr // e.vec):
                        b.store(zero, e.vat(b, row, _i(v * e.vec)), align=e.size)
                    src = e.at(b, ker, b.add(b.mul(b.add(b.mul(kp, c), i), s["f"]),
                                             b.add(b.mul(fp, _i(nr)), b.mul(q, outs))))
                    with _for(b, _i(0), outs, "dj", scalar=True) as j:
                        b.store(b.load(e.at(b, src, j), typ=e.t),
                                e.at(b, row, b.add(b.mul(q, outs), j)))


def _pack_dense(e: _Emitter, b, s, packed, have, depth, panels) -> None:
    """The panels of a kernel read as is (one group a panel, or none)."""
    with b.if_then(have):
        with _for(b, _i(0), panels, "kp") as fp:
            _pack_panel(e, b, s, e.at(b, packed, b.mul(fp, b.mul(depth, _i(e.nr)))), fp, depth)


def _pack_panel(e: _Emitter, b, s, panel, fp, depth) -> None:
    """Feature panel fp of the kernel read as is, depth rows of NR at `panel`; the one cut
    by F zero-padded."""
    nr, vec, vt = e.nr, e.vec, e.vt
    ker = b.inttoptr(s["kernel"], PTR)
    f0 = b.mul(fp, _i(nr))
    with b.if_else(b.icmp_signed("<=", b.add(f0, _i(nr)), s["f"])) as (full, cut):
        with full:
            with _for(b, _i(0), depth, "kk") as k:
                src = e.at(b, ker, b.add(b.mul(k, s["f"]), f0))
                for v in range(nr // vec):
                    x = b.load(e.vat(b, src, _i(v * vec)), typ=vt, align=e.size)
                    b.store(x, e.vat(b, panel, b.add(b.mul(k, _i(nr)), _i(v * vec))),
                            align=e.size)
        with cut:
            with _for(b, _i(0), depth, "kk") as k:
                with _for(b, _i(0), _i(nr), "kj", scalar=True) as j:
                    inside = b.icmp_signed("<", b.add(f0, j), s["f"])
                    at = b.select(inside, b.add(b.mul(k, s["f"]), b.add(f0, j)), _i(0))
                    x = b.select(inside, b.load(e.at(b, ker, at), typ=e.t), ir.Constant(e.t, 0))
                    b.store(x, e.at(b, panel, b.add(b.mul(k, _i(nr)), j)))


def tail_panels(rows: int, nv: int) -> int:
    """Panels a call of the R-row tail kernel takes (NR = nv vectors a panel)."""
    return max(1, min(TAIL_PANELS, TAIL_ACCUMULATORS // (rows * nv)))


def _tail_kernel(e: _Emitter, rows: int):
    """(kc, a, a_r, b, panel_stride, c, ldc, accumulate): C[rows, P NR] (+)= A B for P =
    tail_panels(rows) whole packed panels: A's row r at a + r a_r (k stride 1), panel q's
    row k at b + q panel_stride + k NR, C's panel q at c + q NR (rows ldc apart). Each
    position's sum runs over k in the micro-kernel's order, so its bits are the same."""
    nv = e.nr // e.vec
    panels = tail_panels(rows, nv)
    name = f"conv_tail{rows}x{panels}"
    existing = e.mod.globals.get(f"{e.name}.{name}")
    if existing is not None:
        return existing
    f = e.fn(name, ir.FunctionType(VOID, [I64, PTR, I64, PTR, I64, PTR, I64, I1]))
    kc, a, a_r, bp, stride, c, ldc, accumulate = f.args
    f.attributes.add("noinline")
    for p in (a, bp, c):
        p.add_attribute("noalias")
    b = ir.IRBuilder(f.append_basic_block("entry"))
    a_rows = [e.at(b, a, b.mul(_i(r), a_r)) for r in range(rows)]
    cols = [(q, v) for q in range(panels) for v in range(nv)]
    accs = [[b.alloca(e.vt) for _ in cols] for _ in range(rows)]
    for row in accs:
        for acc in row:
            b.store(ir.Constant(e.vt, None), acc)
    with _for(b, _i(0), kc, "tk") as k:
        bv = [b.load(e.vat(b, bp, b.add(b.mul(_i(q), stride), b.add(b.mul(k, _i(e.nr)),
                                                                   _i(v * e.vec)))),
                     typ=e.vt, align=e.size) for q, v in cols]
        for r, row in enumerate(accs):
            x = _splat(b, b.load(e.at(b, a_rows[r], k), typ=e.t), e.vt)
            for acc, y in zip(row, bv):
                b.store(e.fmuladd(b, x, y, b.load(acc)), acc)
    for r, row in enumerate(accs):
        for acc, (q, v) in zip(row, cols):
            at = e.vat(b, c, b.add(b.mul(_i(r), ldc), _i(q * e.nr + v * e.vec)))
            x = b.load(acc)
            with b.if_else(accumulate) as (add, first):
                with add:
                    b.store(b.fadd(x, b.load(at, typ=e.vt, align=e.size)), at, align=e.size)
                with first:
                    b.store(x, at, align=e.size)
    b.ret_void()
    return f


def _window_rows(b, s, row, group_in, cin):
    """(kh_lo, kh_hi, in_row_at) of output row `row` (batch, oh): the window rows inside the
    input, 0 <= oh sh + kh dh - ph < h, and window row kh's first input element (at the
    panel's group's first feature group_in)."""
    bi, oh = b.sdiv(row, s["oh"]), b.srem(row, s["oh"])
    y0 = b.sub(b.mul(oh, s["sh"]), s["ph"])
    kh_lo = _min(b, _max(b, _ceil_div_signed(b, b.sub(_i(0), y0), s["dh"]), _i(0)), s["kh"])
    kh_hi = _max(b, _min(b, _ceil_div_signed(b, b.sub(s["h"], y0), s["dh"]), s["kh"]), kh_lo)

    def in_row_at(kh):
        ih = b.add(y0, b.mul(kh, s["dh"]))
        return b.add(b.mul(b.add(b.mul(bi, s["h"]), ih), b.mul(s["w"], cin)), group_in)
    return kh_lo, kh_hi, in_row_at


def _tail_plan(e: _Emitter, b, s, tiles, cin, packed):
    """(wide, tail) for a call: `wide` (i1; None for the pair kernel, which has no tail
    kernels, or without `packed`) when
    the rows' last tile has R = 1 ... MR - 1 positions, whole window rows (dw 1, every
    column inside), one group and the kernel `packed` whole; tail = (its first position,
    R, panels a call (tail_panels(R)), its first input column)."""
    mr, sw = e.mr, s["sw"]
    rows = b.sub(s["ow"], b.mul(b.sub(tiles, _i(1)), _i(mr)))
    ow0 = b.sub(s["ow"], rows)
    x_first = b.sub(b.mul(ow0, sw), s["pw"])
    x_last = b.add(b.add(x_first, b.mul(b.sub(rows, _i(1)), sw)), b.sub(s["kw"], _i(1)))
    step = _i(1)
    for r in range(1, mr):
        step = b.select(b.icmp_signed("==", rows, _i(r)), _i(tail_panels(r, e.nr // e.vec)), step)
    tail = (ow0, rows, step, x_first)
    if e.pairs or packed is None:
        return None, tail
    inside = b.and_(b.icmp_signed(">=", x_first, _i(0)), b.icmp_signed("<", x_last, s["w"]))
    whole_rows = b.and_(b.and_(b.icmp_signed("==", s["dw"], _i(1)), b.icmp_signed("==", cin, s["c"])),
                        inside)
    cut = b.and_(b.icmp_signed("<", rows, _i(mr)), b.icmp_signed(">", rows, _i(0)))
    return b.and_(b.and_(cut, packed), b.and_(b.icmp_signed("<=", s["groups"], _i(1)),
                                              whole_rows)), tail


def _tails_function(e: _Emitter) -> ir.Function:
    """void conv_tails(ctx, row_lo, row_hi, p_lo, p_hi): the tail tiles (_tail_plan) of
    output rows [row_lo, row_hi) for the whole packed panels [p_lo, p_hi), tail_panels(R)
    a call of the R-row tail kernel; the first window row's call writes, the others add."""
    existing = e.mod.globals.get(f"{e.name}.conv_tails")
    if existing is not None:
        return existing
    f = e.fn("conv_tails", ir.FunctionType(VOID, [PTR, I64, I64, I64, I64]))
    f.attributes.add("noinline")
    ctx, row_lo, row_hi, p_lo, p_hi = f.args
    b = ir.IRBuilder(f.append_basic_block("entry"))
    s = load_slots(b, ctx, SLOTS)
    cin = b.select(b.icmp_signed("==", s["cin"], _i(0)), s["c"], s["cin"])
    tiles = b.sdiv(b.add(s["ow"], _i(e.mr - 1)), _i(e.mr))
    _, (ow0, tail_rows, step, x_first) = _tail_plan(e, b, s, tiles, cin, None)
    f_out, depth = s["f"], b.mul(s["kw"], s["c"])
    inp, out, kernel = (b.inttoptr(s[x], PTR) for x in ("input", "out", "packed_kernel"))
    panel_stride = b.mul(b.mul(s["kh"], depth), _i(e.nr))
    with _for(b, row_lo, row_hi, "tr") as row:
        kh_lo, kh_hi, in_row_at = _window_rows(b, s, row, _i(0), cin)
        tile = e.at(b, out, b.mul(b.add(b.mul(row, s["ow"]), ow0), f_out))
        with _for(b, _i(0), b.sdiv(b.sub(p_hi, p_lo), step), "tg") as g:
            fp = b.add(p_lo, b.mul(g, step))
            c_tile = e.at(b, tile, b.mul(fp, _i(e.nr)))
            with b.if_then(b.icmp_signed(">=", kh_lo, kh_hi)):  # every window row in padding
                with _for(b, _i(0), step, "tz") as q:
                    _zero_tile(e, b, e.at(b, c_tile, b.mul(q, _i(e.nr))), tail_rows, _i(e.nr),
                               f_out)
            with _for(b, kh_lo, kh_hi, "tkh") as kh:
                args = [depth, e.at(b, inp, b.add(in_row_at(kh), b.mul(x_first, cin))),
                        b.mul(s["sw"], cin),
                        e.at(b, kernel, b.add(b.mul(fp, panel_stride), b.mul(b.mul(kh, depth),
                                                                             _i(e.nr)))),
                        panel_stride, c_tile, f_out, b.icmp_signed("!=", kh, kh_lo)]
                for r in range(1, e.mr):
                    with b.if_then(b.icmp_signed("==", tail_rows, _i(r))):
                        b.call(_tail_kernel(e, r), args)
    b.ret_void()
    return f


def _zero_tile(e: _Emitter, b, tile, rows, cols, ldc) -> None:
    """tile[rows, cols] = 0, its rows ldc apart."""
    with b.if_else(b.icmp_signed("==", cols, _i(e.nr))) as (full, cut):
        with full:
            with _for(b, _i(0), rows, "zr") as r:
                for v in range(e.nr // e.vec):
                    b.store(ir.Constant(e.vt, None),
                            e.vat(b, tile, b.add(b.mul(r, ldc), _i(v * e.vec))), align=e.size)
        with cut:
            with _for(b, _i(0), rows, "zc", scalar=True) as r:
                with _for(b, _i(0), cols, "zj", scalar=True) as j:
                    b.store(ir.Constant(e.t, 0), e.at(b, tile, b.add(b.mul(r, ldc), j)))


def _task(e: _Emitter, micros: dict) -> ir.Function:
    """void task(ctx, begin, end): tasks [begin, end), task t the chunk t % chunks of output
    row (batch, oh) t / chunks (a chunks slot of 0: whole rows, as Winograd's fallback)."""
    mr, nr = e.mr, e.nr
    f = e.fn("conv_task", ir.FunctionType(VOID, [PTR, I64, I64]))
    ctx, begin, end = f.args
    b = ir.IRBuilder(f.append_basic_block("entry"))
    s = load_slots(b, ctx, SLOTS)
    inp, ker, out = (b.inttoptr(s[x], PTR) for x in ("input", "kernel", "out"))
    c, f_out, w = s["c"], s["f"], s["w"]
    # the input's features per position: c's G times with G groups (0: set by no conv_run)
    cin = b.select(b.icmp_signed("==", s["cin"], _i(0)), c, s["cin"])
    group_outs = b.sdiv(f_out, _max(b, s["groups"], _i(1)))
    # a panel's features: NR, or a thin group's when its kernel was not packed (no scratch)
    width = _max(b, _min(b, _i(nr), group_outs), _i(1))
    # the feature panels [panel_lo, panel_hi) (a panel_hi of 0: all; Winograd's fallback
    # for its tasks' panels)
    panels = b.sdiv(b.add(f_out, b.sub(width, _i(1))), width)
    some = b.icmp_signed(">", s["panel_hi"], _i(0))
    panel_lo = b.select(some, s["panel_lo"], _i(0))
    panel_hi = b.select(some, s["panel_hi"], panels)
    # a packed panel and a full tile: the micro-kernel with B's strides constant (`packed="b"`)
    micro_rows = (e.mod.globals.get(f"{e.name}.micro_kernel{mr}_rows_called")
                  or e.micro_kernel(mr, "b", called=True))

    packed = b.icmp_signed("!=", s["packed_kernel"], _i(0))
    k_all = b.mul(b.mul(s["kh"], s["kw"]), c)

    def accumulate(rows, depth, a, k0, f0, c_tile, cols, panel, packed):
        """c_tile[rows, cols] += A B: A's rows in place `sw cin` apart from `a`, depth k's
        from the kernel's row k0 (its feature panel f0, packed or in place). A panel cut by F
        is read packed (zero-padded), else element by element (no scratch: a fallback).
        Always adding: with the flag constant in every call, LLVM drops it from the
        micro-kernels (a flag that varies cost grouped1d's short calls 8 %)."""
        in_panel = e.at(b, panel, b.mul(k0, _i(nr)))
        kernel_rows = b.select(packed, in_panel, e.at(b, ker, b.add(b.mul(k0, f_out), f0)))
        with b.if_else(b.or_(packed, b.icmp_signed("==", cols, _i(nr)))) as (micro, scalar):
            with micro:
                args = [depth, a, _i(1), b.mul(s["sw"], cin), kernel_rows,
                        b.select(packed, _i(nr), f_out), c_tile, f_out, rows, cols, ir.Constant(I1, 1)]
                with b.if_else(b.and_(packed, b.icmp_signed("==", rows, _i(mr)))) as (full, other):
                    with full:  # constant strides but A's rows: ~2 % faster
                        b.call(micro_rows, args)
                    with other:
                        e.call_micro(b, micros, rows, args)
            with scalar:
                with _for(b, _i(0), rows, "sr", scalar=True) as r:
                    with _for(b, _i(0), cols, "sj", scalar=True) as j:
                        at = e.at(b, c_tile, b.add(b.mul(r, f_out), j))
                        with _for(b, _i(0), depth, "sk", scalar=True) as k:
                            x = b.load(e.at(b, a, b.add(b.mul(r, b.mul(s["sw"], cin)), k)), typ=e.t)
                            y = b.load(e.at(b, kernel_rows, b.add(b.mul(k, f_out), j)), typ=e.t)
                            b.store(b.fadd(b.load(at, typ=e.t), b.fmul(x, y)), at)
    chunks = _max(b, s["chunks"], _i(1))
    tiles = b.sdiv(b.add(s["ow"], _i(mr - 1)), _i(mr))
    chunk_tiles = b.select(b.icmp_signed("==", s["chunk_tiles"], _i(0)), tiles, s["chunk_tiles"])
    group = _max(b, s["row_group"], _i(1))
    share = _max(b, s["panel_tasks"], _i(1))
    by_panels = b.icmp_signed(">", s["panel_tasks"], _i(0))
    grouped = b.or_(b.icmp_signed(">", group, _i(1)), by_panels)
    all_rows = b.mul(s["batch"], s["oh"])
    own_panels = b.sub(panel_hi, panel_lo)
    # a share of the panels packs each in turn here (none: they are read in place)
    packs = b.and_(by_panels, b.icmp_signed("==", s["prepacked"], _i(0)))
    own = b.call(thread_scratch(e.mod), [b.select(packs, b.mul(b.mul(k_all, _i(nr)),
                                                               _i(e.size)), _i(0))])
    own = b.select(packs, own, ir.Constant(PTR, None))
    packs_own = b.icmp_unsigned("!=", own, ir.Constant(PTR, None))
    # the rows' tail tiles that take several panels a call (in conv_tails: its loops and
    # values here left the task's own loops fewer registers, 2-7 % on short calls)
    wide, tail = _tail_plan(e, b, s, tiles, cin, b.and_(packed, b.not_(packs_own)))
    tails = _tails_function(e) if wide is not None else None
    with _for(b, begin, end, "task") as t:
        # a task: a chunk of one row's tiles, a group of whole rows (row_group), or a share
        # of the panels over every row (panel_tasks)
        row_lo = b.select(by_panels, _i(0), b.select(grouped, b.mul(t, group), b.sdiv(t, chunks)))
        row_hi = b.select(by_panels, all_rows,
                          b.select(grouped, _min(b, b.add(row_lo, group), all_rows),
                                   b.add(row_lo, _i(1))))
        chunk = b.select(grouped, _i(0), b.srem(t, chunks))
        p_lo = b.select(by_panels, b.add(panel_lo, b.sdiv(b.mul(t, own_panels), share)), panel_lo)
        p_hi = b.select(by_panels, b.add(panel_lo, b.sdiv(b.mul(b.add(t, _i(1)), own_panels),
                                                          share)), panel_hi)
        features = (_min(b, b.mul(p_lo, width), f_out), _min(b, b.mul(p_hi, width), f_out))
        # the task's whole panels from p_lo whose tail tiles go tail_panels(R) a call
        wide_hi = p_lo
        if wide is not None:
            whole = b.sub(_min(b, p_hi, b.sdiv(f_out, _i(nr))), p_lo)
            calls = b.sdiv(_max(b, whole, _i(0)), tail[2])
            wide_hi = b.select(wide, b.add(p_lo, b.mul(calls, tail[2])), p_lo)
        tile_lo = b.mul(chunk, chunk_tiles)
        tile_hi = _min(b, b.add(tile_lo, chunk_tiles), tiles)
        # blocks of the chunk's tiles small enough to stay in L2 while every feature panel
        # goes over them: each output line is written once from memory, not once per panel
        # (wav2vec2's kernel 10 stride 5 convolution, 8 x 3199 positions x 128 features:
        # 13 ms panel by panel over whole rows, against 3.7 ms for im2col's matmul); a row
        # group is one block
        block = b.select(grouped, _max(b, tiles, _i(1)), _block_tiles(e, b, f_out))
        with _for(b, _i(0), b.sdiv(b.add(b.sub(tile_hi, tile_lo), b.sub(block, _i(1))), block),
                  "ob") as ob:
            blk_lo = b.add(tile_lo, b.mul(ob, block))
            blk_hi = _min(b, b.add(blk_lo, block), tile_hi)
            tail_here = b.icmp_signed("==", blk_hi, tiles)  # the block ends its rows
            with _for(b, p_lo, p_hi, "fp") as fp:
                f0 = b.mul(fp, width)
                with b.if_then(packs_own):
                    _pack_panel(e, b, s, own, fp, k_all)
                panel = b.select(packs_own, own, e.at(b, b.inttoptr(s["packed_kernel"], PTR),
                                                      b.mul(f0, k_all)))  # f0 / NR panels before
                panel_packed = b.or_(packed, packs_own)
                cols = _min(b, width, b.sub(f_out, f0))  # < NR: the panel cut by F
                group_in = b.mul(b.sdiv(f0, group_outs), c)  # the panel's group's first feature
                # the tail tile of panels [p_lo, wide_hi) runs after the panels (conv_tails)
                ot_hi = b.select(b.and_(tail_here, b.icmp_signed("<", fp, wide_hi)),
                                 b.sub(blk_hi, _i(1)), blk_hi)
                with _for(b, row_lo, row_hi, "or") as row:
                    kh_lo, kh_hi, in_row_at = _window_rows(b, s, row, group_in, cin)
                    out_row = e.at(b, out, b.mul(row, b.mul(s["ow"], f_out)))
                    with _for(b, blk_lo, ot_hi, "ot") as ot:
                        ow0 = b.mul(ot, _i(mr))
                        rows = _min(b, _i(mr), b.sub(s["ow"], ow0))
                        tile = e.at(b, out_row, b.add(b.mul(ow0, f_out), f0))
                        _zero_tile(e, b, tile, rows, cols, f_out)
                        # with dw = 1, where every window column of every position is inside, a
                        # window row's kw x c run is contiguous in the input and in the kernel:
                        # one call for the whole window row
                        x_first = b.sub(b.mul(ow0, s["sw"]), s["pw"])
                        x_last = b.add(b.add(x_first, b.mul(b.sub(rows, _i(1)), s["sw"])),
                                       b.sub(s["kw"], _i(1)))
                        _prefetch_ahead(e, b, s, inp, in_row_at, kh_lo, kh_hi,
                                        b.add(x_first, b.mul(b.mul(block, _i(mr)), s["sw"])), cin,
                                        b.sub(fp, p_lo), b.sub(p_hi, p_lo))
                        whole_rows = b.and_(b.and_(b.icmp_signed("==", s["dw"], _i(1)),
                                                   b.icmp_signed("==", cin, c)),
                                            b.and_(b.icmp_signed(">=", x_first, _i(0)),
                                                   b.icmp_signed("<", x_last, w)))
                        with _for(b, kh_lo, kh_hi, "kh") as kh:
                            in_row = e.at(b, inp, in_row_at(kh))
                            with b.if_then(whole_rows):
                                accumulate(rows, b.mul(s["kw"], c), e.at(b, in_row, b.mul(x_first, cin)),
                                           b.mul(b.mul(kh, s["kw"]), c), f0, tile, cols, panel,
                                           panel_packed)
                            with _for(b, _i(0), b.select(whole_rows, _i(0), s["kw"]), "kw") as kw:
                                # positions r whose input column x0 + r sw is inside: [r_lo, r_hi)
                                x0 = b.sub(b.add(b.mul(ow0, s["sw"]), b.mul(kw, s["dw"])), s["pw"])
                                r_lo = _max(b, _ceil_div_signed(b, b.sub(_i(0), x0), s["sw"]), _i(0))
                                r_hi = _min(b, _ceil_div_signed(b, b.sub(w, x0), s["sw"]), rows)
                                with b.if_then(b.icmp_signed("<", r_lo, r_hi)):
                                    accumulate(b.sub(r_hi, r_lo), c,
                                               e.at(b, in_row, b.mul(b.add(x0, b.mul(r_lo, s["sw"])), cin)),
                                               b.mul(b.add(b.mul(kh, s["kw"]), kw), c), f0,
                                               e.at(b, tile, b.mul(r_lo, f_out)), cols, panel,
                                               panel_packed)
            if wide is not None:
                with b.if_then(b.and_(tail_here, b.icmp_signed(">", wide_hi, p_lo))):
                    b.call(tails, [ctx, row_lo, row_hi, p_lo, wide_hi])
            # the block is finished: its fused consumers run now, while it is in cache
            with b.if_then(b.icmp_signed("!=", s["epi"], _i(0))):
                first, last = b.mul(row_lo, s["ow"]), b.mul(b.sub(row_hi, _i(1)), s["ow"])
                b.call(b.inttoptr(s["epi"], EPILOGUE_T.as_pointer()),
                       [b.inttoptr(s["epi_ctx"], PTR), _i(0),
                        b.add(first, _min(b, b.mul(blk_lo, _i(mr)), s["ow"])),
                        b.add(last, _min(b, b.mul(blk_hi, _i(mr)), s["ow"])), *features])
    b.ret_void()
    return f
