"""Packed matrix multiply: the f32/f64 dot_general kernel (and the i16 x i16 -> i32 one of
quantized contractions), generated as LLVM IR.

A matmul runs at the machine's FMA rate only when its inner loop keeps a tile of
C in registers and streams A and B from L1. That is the BLIS/GotoBLAS structure,
spelled out here with llvmlite:

- The output is cut into tiles, one per thread when the product is big enough:
  rows split evenly in multiples of MR, then columns (at most NC wide) if there
  are still fewer tiles than threads; every batch index has its own. Tiles
  write disjoint parts of C, so `aot_parallel_for` hands them to the runtime's
  thread pool as tasks.
- A task walks K in blocks of KC. For each block and each NB-column block of its
  columns it packs KC x NB of B into NR-column panels (reading B row by row, so
  the reads stream; once for all the task's rows), then for each MC-row block
  of its rows packs MC x KC of A into MR-row panels (k-major, rows past M padded
  with zeros), which stay in L2, and runs the micro-kernel over every (A panel,
  B panel) pair: the B panel stays in L1 meanwhile. (A task with few rows reads
  row-major B in place, one with few columns row-major A: packing them would cost
  about as much as the product.) Both blocks live in the thread's heap scratch
  (`aot_thread_scratch`), not on the stack; without it the task goes MR rows by NR
  columns through stack panels.
- A product of few rows (at most FEW_ROWS_MAX) with row-major B is memory-bound: B must
  stream from memory once, and there is too little of A to pay for packing B. Its tasks
  run the few-row kernels instead: short K blocks of B read in place row by row across
  all the task's columns, a strip of columns at a time, FEW_ROWS_GROUP rows of C per call
  (at one row, a block's rows spread through K, each one long stream: few_rows_tile),
  the last group with its own row count (no cliff between neighbouring M, no padding rows).
  With B's columns contiguous along k instead (a weight given as [N, K]), the few_rows_t
  kernels take dot products down them, B again read once in place.
- The micro-kernel keeps an MR x NR tile of C in MR * NR/VEC vector registers
  (6 x 16 f32 = 12 ymm with AVX2) and does one broadcast of A and NR/VEC
  multiply-adds per row and k. It writes C on the first K block and adds to it
  on the others; tiles cut by the edges of C go through a small stack tile.
- When the last K block has gone through an A block x B block of C, an optional
  epilogue callback `epi(ctx, batch, i0, i1, j0, j1)` finishes that block of C
  while it is still in cache: this is how bias and activation epilogues fuse
  into the matmul.

Operands are addressed by element strides (batch, row, column), so transposed
operands and several batch dims cost nothing but the packing. The product is
computed with `llvm.fmuladd` (fused on targets with FMA) and summed in blocks of
KC, so it rounds differently from a naive dot product, as every BLAS does.

The code is emitted once per module and element type (`gemm_function`); a shared library or
archive links it as an object compiled once into the cache instead (cpu/helpers.py).

The i16 x i16 -> i32 product (element type "i32", operands i16: the integer path of
quantized dot/conv, lowering/ops/quantized.py) is the same structure on pairs: A and B are
packed with two consecutive k's side by side, one i32-sized "pair" (k odd: the last pair's
second half is zero), so a panel is k/2 pairs deep. The micro-kernel broadcasts one pair of
A per row and multiplies it with NR/VEC vectors of B pairs, each product's two halves summed
into one i32 lane: x86's pmaddwd (16 i16 multiply-adds into 8 i32 lanes with AVX2), else
the generic IR (sign-extend, multiply, add the even and odd lanes). Integer sums are exact,
so the result does not depend on the blocking. The pairs rely on a little-endian layout
(the low half of an i32 is its first i16), as on every target this compiler builds for.
"""
from __future__ import annotations

from contextlib import contextmanager

from llvmlite import ir

from lowering.codegen.llvm.types import loop_hint

I1, I16, I32, I64 = ir.IntType(1), ir.IntType(16), ir.IntType(32), ir.IntType(64)
PTR = ir.PointerType()
VOID = ir.VoidType()

# Blocking comes from the Target (lowering/target.py, GEMM_BLOCKING): VEC is the lanes of one
# vector register; MR x NR is the register tile; KC x MR (A panel, in L2 with its MC/MR
# siblings) and KC x NR (B panel, in L1, one of the NB/NR in a packed B block) the packed
# slices; MC x NC the largest tile of C one task owns.
PARALLEL_MIN_FLOPS = 1 << 23  # multiply-adds; below this a product stays on the calling thread
# A task with at most this many MR-row panels of C reads row-major B in place: packing B
# costs a pass over it that so few rows cannot pay back (a matrix-vector product at batch 1).
SMALL_M_PANELS = 2
# A task of at most this many rows packs B in blocks of NARROW_NB columns, not NB, and its
# micro-kernel calls prefetch the next block's rows of B into L2 (next_block), so
# that packing reads them from cache: with so few rows the products cannot hide a pack that
# waits on memory (x[32, 1024] @ W[1024, 4096], W an argument: 1.10-1.17x XLA, packing a
# quarter of the time; 1.00 after). The block being multiplied (256 KB of f32 at KC 256),
# the next one's rows and the A block (at most 144 x 256) stay within a 1 MB L2.
NARROW_ROWS = 144
NARROW_NB = 256
# A micro-kernel call at least this deep prefetches its C tile (for writing) before its k
# loop: C's rows are far apart (a row of C a page away when N is wide), and a tile read back
# from memory after the multiply-adds stalled each call. One core, x[M, 1024] @ W[1024,
# 4096], W an argument: M 32 1.04 -> 0.99x XLA, 64 0.99 -> 0.93, the MLP at 32-512 0.2-1 %
# faster. Shallower calls (attention's q k^T at d 64) write a tile that is in cache.
C_PREFETCH_MIN_K = 128
# Packed B panels are one cache line further apart than KC x NR: at KC x NR x 4 bytes
# (16 KB) every store of a row of B into its panels fell in one L1 set.
PANEL_PAD_BYTES = 64
# A product of at most FEW_ROWS_MAX rows with row-major B that is not packed at compile time
# goes through the few-row kernels: K in blocks of FEW_ROWS_KC rows of B, each block read in
# place once, row by row, for all the task's columns, FEW_ROWS_GROUP rows of C at a time.
# Reading B's NR-column panels down a whole KC block instead walks one cache line per row,
# each row on its own page when B is wide, which the prefetcher does not follow; in blocks of
# 8 rows the next columns take the following lines of the same 8 rows, which it streams.
# Measured on one AVX2 core, x[M, 1024] @ W[1024, 4096] (ms, before -> after): M = 1 0.89 ->
# 0.44, 2 1.0 -> 0.58, 3 4.1 -> 0.57, 4 4.0 -> 0.58, 6 4.1 -> 1.05, 8 3.8 -> 1.09, 12 3.3 ->
# 1.7, 16 3.1 -> 2.8 (the full register tile with B packed at run time: 2.9 at 18, where it
# is as fast again). Blocks of 16 rows were slower at every M, 4 no faster.
FEW_ROWS_MAX = 16
# A few-row product is split over the threads when B has at least this many elements (1 MB
# of f32, beyond L2), however few its multiply-adds: it is bound by reading B from memory,
# which every core's share of the bandwidth speeds up (decoding's x[1, 512] @ W[512, 2048]
# is 1M multiply-adds, under PARALLEL_MIN_FLOPS, and ran on one core). A smaller B stays in
# cache from call to call, and a split cost more than it saved: the GPT-2-like program at
# 1x8 (d 128, its logits' B 64K elements) took 0.11 ms on one thread and 0.23-0.30 on two.
FEW_ROWS_PARALLEL_MIN = 1 << 18
FEW_ROWS_KC = 8
# A K block's FEW_ROWS_KC rows are KC streams read side by side. Taken as adjacent rows, each
# stream is one row of the task (2 KB for W[2048, 512]), over before the hardware prefetcher
# has followed it; so at one row of A, block kb takes rows kb, kb + S, ... (S = ceil(K / KC),
# the blocks' count): K cut in KC contiguous segments, each read from start to end as one
# stream, the sum of each column still in one fixed order (the same bits on any thread
# count). One core, 8 weights rotating through 64 MB, GB/s (CPU-time medians, same process,
# numpy beside): x[1, 2048] @ W[2048, 512] 13.6 -> 24.8 (numpy 15.8), [1, 512] @ [512, 2048]
# 20.6 -> 27.6 (22.5), [1, 1024] @ [1024, 4096] 23.0 -> 27.0, [1, 4096] @ [4096, 1024] 21.0 ->
# 23.9. Not at 2-16 rows: there every k reads a row's A value from its own line, rows of A
# S apart; at 4 rows [4, 4096] @ [4096, 1024] fell 19.3 -> 8.8, at 2-3 rows the 4-column-KB
# shapes 5-30 % (the 2 KB rows gained). KC 4 or 16 with segments: slower at one row.
# (few_rows_tile takes the segments.)
FEW_ROWS_MIN_COLUMNS = 64  # the narrowest task of a few-row product, when threads want more
FEW_ROWS_GROUP = 4  # 6 (the register tile's rows): no faster, 2 more kernels to compile
# Accumulators of a few-row kernel's strip of columns (rows x vectors): enough independent
# multiply-adds to hide their latency, few enough to stay in 16 vector registers with the
# strip's vectors of B (read once for every row). 12 spilled at 2 rows (6 vectors of B beside
# 12 accumulators); one AVX2 core, weights rotating through 64 MB, CPU-time medians, GB/s,
# 12 -> 8: x[2, 512] @ W[512, 2048] 10.2 -> 17.0, [3, 512] @ [512, 2048] 12.4 -> 13.6,
# [1, 512] @ [512, 2048] 16.9 -> 17.7, [1, 2048] @ [2048, 512] 11.0 -> 11.2, [4, ...] even.
FEW_ROWS_ACCUMULATORS = 8
# A few-row kernel whose task's rows of B are at most FEW_ROWS_PREFETCH_BYTES long, and at
# most FEW_ROWS_KC task widths apart (adjacent rows: not the segments above, where it slowed
# x[1, 2048] @ W[2048, 512] 28.7 -> 14.5 GB/s), prefetches each strip's lines
# FEW_ROWS_PREFETCH_ROWS rows of B ahead: in a K block the 8 rows are 8 streams as long as the
# task's row, and on short rows the hardware prefetcher has barely found a stream when the
# block moves on. One AVX2 core,
# 16 weights rotating through 64 MB, GB/s: x[1, 2048] @ W[2048, 512] 10.3 -> 11.8 (median),
# [2, 2048] @ [2048, 512] 8.7 -> 11.5; W[1024, 1024] 15.0 -> 14.1 and W[512, 2048] 17.3 ->
# 15.5 with it, where rows of 4-8 KB stream well, so not there.
FEW_ROWS_PREFETCH_ROWS = 16
FEW_ROWS_PREFETCH_BYTES = 2048
# Micro-kernels for fewer rows than MR, so that the last panel of rows (M mod MR of them)
# computes few padding rows: each adds ~0.15 s to compiling its helper object. The matmul's
# also take 3 and 4 rows on the 4-row kernel; the convolutions keep 1 and 2 (their direct
# convolution 3x3 [8,32,32,64] -> 64 was 4-6 % slower on one core with the 4-row one too).
ROW_VARIANTS = (1, 2)
MATMUL_ROW_VARIANTS = (1, 2, 4)
# A task with at most this many NR-column panels reads row-major A in place (no A panels,
# the "b" micro-kernel): each A element then feeds few multiply-adds, and its packing cost
# about as much as they do (8192x288 @ 288x32, a 3x3 convolution's im2col product: 2.2 ->
# 1.8 ms; attention's p v, [256, 256] @ [256, 64] per head: packing A took 23 %). Up to 2
# panels while that kernel took A's strides as variables (a register per row of A, spilled
# in the k loop: 4-8 panels lost to packing); with them constant, 8 panels against 2, one
# AVX2 core, CPU-time medians of two in-process runs (load 11-20): 2048x48 @ 48x64 0.87 /
# 0.93, 2048x96 @ 96x64 0.88 / 0.92, 512x48 @ 48x128 (ViT's patch embedding) 0.95 / 0.95,
# 4096x256 @ 256x96 0.95, 512x1024 @ 1024x128 0.98. (Not 16: 2048x64 @ 64x256 1.04-1.07.)
A_IN_PLACE_PANELS = 8
# A read in place whose whole operand (every batch) has at least this many bytes comes from
# memory, not from L2 (1 MB a core here): the next MR rows' K block is prefetched into L2 as
# each panel's rows are first read (prefetch_a_rows), since six rows read side by side, a
# cache line of each every 16 k's, are streams the hardware prefetcher does not follow. One
# core, CPU-time medians of 3 interleaved runs, GFLOP/s before -> after: attention's p v
# [64 x 256, 256] @ [256, 64] 74 -> 86 (XLA 84), [16 x 1024, 256] @ [256, 64] 77 -> 88,
# [4096, 256] @ [256, 96] 100 -> 104; in L2 ([2 x 1024, 256] @ [256, 64]) 107 -> 105, so not
# there.
A_PREFETCH_MIN_BYTES = 4 << 20
# Products of at least this many rows and columns whose B is packed at run time (not frozen
# weights) take the target's wide tile where it has one (GemmBlocking.wide: AVX-512's 6 x 32).
# One Zen 4 core, cpu_workloads.py, alternated runs, XLA's time / ours: mlp (512 rows, weights
# as arguments) 0.94-0.98 -> 1.01-1.03, gelu_dense 1.01 -> 1.04-1.13, attention's q k^T
# 1.04-1.06 -> 1.10-1.12; the MLP's x[M, 1024] at M = 32 7.70 -> 7.32 ms, 64 12.5 -> 12.1, 128
# 22.7 -> 21.7. Fewer rows or columns stay on AVX2's tile, where they were faster.
WIDE_MIN_ROWS = 32
WIDE_MIN_COLUMNS = 128
# K blocks at most this deep walk the tiles of C row by row (see task): there the tile's
# stores, not its multiply-adds, bound the product, and column strips of C whose rows are
# not a whole number of cache lines apart (N not a multiple of NR) stalled on them:
# [8, 799, 32] x [8, 32, 799] took 1.8x the time of [8, 798, 32] x [8, 32, 800].
ROW_ORDER_MAX_K = 64
# The micro-kernels' operand layouts (micro_kernel's `packed`) and their names' suffixes.
PACKED_SUFFIX = {"": "", "ab": "_packed", "b": "_rows"}

# The task context: i64 slots, in this order (pointers as integers).
SLOTS = ("batch", "m", "n", "k", "a", "a_batch", "a_row", "a_col", "b", "b_batch", "b_row",
         "b_col", "c", "epi", "epi_ctx", "tiles_m", "tiles_n", "tile_m", "tile_n", "b_packed")
EPILOGUE_T = ir.FunctionType(VOID, [PTR, I64, I64, I64, I64, I64])


def _shuffle(b, x, y, mask):
    return b.shuffle_vector(x, y, ir.Constant(ir.VectorType(ir.IntType(32), len(mask)), mask))


def _interleave(b, rows: list, vec: int):
    """rows[r][k] (len(rows) vectors of vec lanes) as one vector laid out [k][r]: the rows
    concatenated pairwise (padded with undef vectors to a power of two), then one shuffle."""
    parts = list(rows)
    while len(parts) & (len(parts) - 1):
        parts.append(ir.Constant(rows[0].type, ir.Undefined))
    while len(parts) > 1:
        parts = [_shuffle(b, x, y, list(range(2 * x.type.count)))
                 for x, y in zip(parts[0::2], parts[1::2])]
    return _shuffle(b, parts[0], ir.Constant(parts[0].type, ir.Undefined),
                    [r * vec + k for k in range(vec) for r in range(len(rows))])


def _transpose(b, rows: list) -> list:
    """A square block of vectors (VEC rows of VEC lanes, VEC a power of two) transposed: for
    each bit h of the index, the off-diagonal h x h blocks of every pair of rows h apart
    swap, one two-input shuffle per row and bit (x86: vperm2f128 for the 128-bit halves,
    unpck*pd and a blend for the rest)."""
    vec, out, h = len(rows), list(rows), len(rows) // 2
    while h:
        for i in range(vec):
            if i & h:
                continue
            p = i | h
            lo = [j if not j & h else vec + j - h for j in range(vec)]
            hi = [j + h if not j & h else vec + j for j in range(vec)]
            out[i], out[p] = _shuffle(b, out[i], out[p], lo), _shuffle(b, out[i], out[p], hi)
        h //= 2
    return out


def _store_interleaved(b, rows: list, vec: int, dst) -> None:
    """Stores _interleave(rows) at dst (a pointer to lane elements). A whole number of
    VEC-row blocks (attention's keys, a transposed weight's NR columns) goes through
    _transpose, block by block: LLVM split the one wide shuffle of 16 rows into scalar
    inserts through the stack (the transposing pack of q k^T's keys, ~1.1 cycles an
    element)."""
    if vec > 1 and not vec & (vec - 1) and len(rows) % vec == 0:
        blocks = [_transpose(b, rows[r:r + vec]) for r in range(0, len(rows), vec)]
        ptr = rows[0].type.as_pointer()
        for k in range(vec):
            for q, block in enumerate(blocks):
                at = b.gep(dst, [ir.Constant(I64, (k * len(blocks) + q) * vec)], inbounds=True,
                           source_etype=rows[0].type.element)
                b.store(block[k], b.bitcast(at, ptr), align=4)
        return
    block = _interleave(b, rows, vec)
    b.store(block, b.bitcast(dst, block.type.as_pointer()), align=4)


def _strip_vectors(nr_vectors: int, rows: int) -> int:
    """Vectors of columns per strip of the few-row kernel: rows x vectors accumulators,
    about FEW_ROWS_ACCUMULATORS of them, never fewer vectors than the register tile's."""
    return max(nr_vectors, FEW_ROWS_ACCUMULATORS // rows)


def _splat(b, x, vt: ir.VectorType):
    """The scalar x in every lane of a vector of type vt."""
    return b.shuffle_vector(b.insert_element(ir.Constant(vt, ir.Undefined), x, _i(0)),
                            ir.Constant(vt, ir.Undefined),
                            ir.Constant(ir.VectorType(ir.IntType(32), vt.count), [0] * vt.count))


def _pairwise_sum(b, v, lanes: int):
    """The sum of a vector's lanes, halves added pairwise (a fixed order, so fixed bits)."""
    while lanes > 1:
        half = lanes // 2
        lo = b.shuffle_vector(v, v, ir.Constant(ir.VectorType(I32, half), list(range(half))))
        hi = b.shuffle_vector(v, v, ir.Constant(ir.VectorType(I32, half), list(range(half, lanes))))
        v, lanes = b.fadd(lo, hi), half
    return b.extract_element(v, _i(0))


def _i(n: int) -> ir.Constant:
    return ir.Constant(I64, n)


@contextmanager
def _for(b: ir.IRBuilder, start, stop, name="gemm", scalar=False, unroll=True):
    """for (iv = start; iv < stop; iv++) with the body emitted in the `with` block; a
    `scalar` loop is one LLVM must not vectorise (an edge case not worth the code)."""
    pre = b.block
    head = b.append_basic_block(f"{name}.head")
    body = b.append_basic_block(f"{name}.body")
    end = b.append_basic_block(f"{name}.end")
    b.branch(head)
    b.position_at_end(head)
    iv = b.phi(I64, name=f"{name}.iv")
    iv.add_incoming(start, pre)
    b.cbranch(b.icmp_signed("<", iv, stop), body, end)
    b.position_at_end(body)
    yield iv
    iv.add_incoming(b.add(iv, _i(1)), b.block)
    back = b.branch(head)
    if scalar:
        back.set_metadata("llvm.loop", loop_hint(b.module, "llvm.loop.vectorize.enable",
                                                 ir.Constant(I1, 0)))
    elif not unroll:
        back.set_metadata("llvm.loop", loop_hint(b.module, "llvm.loop.unroll.disable"))
    b.position_at_end(end)


def _min(b, x, y):
    return b.select(b.icmp_signed("<", x, y), x, y)


def call_by_rows(b, kernels: dict, rows, args: list, label: str = "") -> None:
    """kernels[rows](*args) for a run-time row count 1 ... max(kernels): a switch over the
    few-row kernels, each specialised for its row count."""
    done = b.function.append_basic_block(f"{label}done")
    top = max(kernels)
    cases = {r: b.function.append_basic_block(f"{label}rows{r}") for r in kernels}
    switch = b.switch(rows, cases[top])
    for r, block in cases.items():
        if r != top:
            switch.add_case(_i(r), block)
        b.position_at_end(block)
        b.call(kernels[r], args)
        b.branch(done)
    b.position_at_end(done)


def _max(b, x, y):
    return b.select(b.icmp_signed(">", x, y), x, y)


def _ceil_div(b, x, n: int):
    return b.sdiv(b.add(x, _i(n - 1)), _i(n))


def _ceil_div_v(b, x, y):
    """ceil(x / y) for y > 0 (a run-time divisor); 0 when y is 0."""
    y1 = _max(b, y, _i(1))
    return b.sdiv(b.add(x, b.sub(y1, _i(1))), y1)


class _Emitter:
    """Emits one element type's micro-kernel, task and entry functions into a module."""

    def __init__(self, mod: ir.Module, elem: str, t: ir.Type, name: str, blocking):
        self.mod, self.elem, self.t = mod, elem, t
        p = blocking
        self.vec, self.mr, self.nr = p.vec, p.mr, p.nr
        self.kc, self.mc, self.nc, self.nb = p.kc, p.mc, p.nc, p.nb
        self.vt = ir.VectorType(t, self.vec)
        self.name = name
        self.size = 8 if elem == "f64" else 4
        # i32: i16 operands packed as i32 pairs of consecutive k's; kp pairs per K block
        self.pairs = elem == "i32"
        self.st = I16 if self.pairs else t  # the operands' element type
        self.kp = self.kc // 2 if self.pairs else self.kc
        self.madd_intrinsic = p.madd
        self.small_m = SMALL_M_PANELS * self.mr
        self.pad = PANEL_PAD_BYTES // self.size  # elements between packed B panels

    def fn(self, suffix, ftype):
        f = ir.Function(self.mod, ftype, name=f"{self.name}.{suffix}")
        f.linkage = "internal"
        f.attributes.add("nounwind")
        return f

    def at(self, b, base, offset):
        return b.gep(base, [offset], inbounds=True, source_etype=self.t)

    def src(self, b, base, offset):
        """An operand element's address (i16 for the pair kernel)."""
        return b.gep(base, [offset], inbounds=True, source_etype=self.st)

    def add(self, b, x, y):
        return b.add(x, y) if self.pairs else b.fadd(x, y)

    def pair_madd(self, b, x, y):
        """x, y: vectors of VEC i16 pairs (as i32 lanes); lane i = x0*y0 + x1*y1 of pair i."""
        w = ir.VectorType(I16, 2 * self.vec)
        x, y = b.bitcast(x, w), b.bitcast(y, w)
        if self.madd_intrinsic:
            f = self.mod.globals.get(self.madd_intrinsic) or ir.Function(
                self.mod, ir.FunctionType(self.vt, [w, w]), name=self.madd_intrinsic)
            return b.call(f, [x, y])
        wide = ir.VectorType(I32, 2 * self.vec)
        prod = b.mul(b.sext(x, wide), b.sext(y, wide))
        undef = ir.Constant(wide, ir.Undefined)
        return b.add(_shuffle(b, prod, undef, list(range(0, 2 * self.vec, 2))),
                     _shuffle(b, prod, undef, list(range(1, 2 * self.vec, 2))))

    def vat(self, b, base, offset):
        """A vector's address (typed, so llvmlite lets a vector be stored there)."""
        return b.bitcast(self.at(b, base, offset), self.vt.as_pointer())

    def fmuladd(self, b, x, y, z):
        """x * y + z on vectors, fused where the target has FMA."""
        name = f"llvm.fmuladd.v{self.vec}{self.elem}"
        f = self.mod.globals.get(name) or ir.Function(
            self.mod, ir.FunctionType(self.vt, [self.vt] * 3), name=name)
        return b.call(f, [x, y, z])

    # ------------------------------------------------------------------ micro-kernel
    def micro_kernel(self, mr: int, packed: str = "", called: bool = False):
        """(kc, a_panel, a_k, a_r, b_panel, ldb, c, ldc, rows, cols, accumulate):
        C[rows, cols] (+)= A B, kc k's deep (pairs of k's for the pair kernel), for `mr`
        rows (a variant with fewer rows than MR computes no padding rows when M is small).
        A's row r, k is at a_panel + k * a_k + r * a_r (rows past `rows` read the last
        one): (MR, 1) in a packed panel, (1, A's row stride) when A is read in place. B's
        k-th row is at b_panel + k * ldb: NR in a packed panel, B's row stride in place.
        The `packed` "ab" variant takes both panels packed and ignores a_k, a_r and ldb:
        with the strides constant, one pointer per operand walks k and every load has a
        fixed offset, where variable strides keep a register per row of A and spill in the
        k loop (2-4 % faster on one AVX2 core, runs interleaved with the strided kernel).
        The "b" variant takes B packed and A's rows in place (a_k 1, ldb NR; only a_r
        varies): attention's p v, A read in place, spilled three row offsets a k step in
        the strided kernel.
        The `called` variant is never inlined: the direct convolution's task, big and with
        many values live across its loops, left its strided k loop too few registers (six
        of its eight address loads a k step from the stack: wav2vec2's kernel 3 stride 2
        convolution at 61 GFLOP/s, 86 called, one AVX2 core)."""
        nr, vec, t, vt = self.nr, self.vec, self.t, self.vt
        nv = nr // vec
        f = self.fn(f"micro_kernel{mr}{PACKED_SUFFIX[packed]}{'_called' if called else ''}",
                    ir.FunctionType(VOID, [I64, PTR, I64, I64, PTR, I64, PTR, I64, I64, I64, I1]))
        kc, ap, a_k, a_r, bp, ldb, c, ldc, rows, cols, accumulate = f.args
        if packed == "ab":
            a_k, a_r, ldb = _i(self.mr), _i(1), _i(nr)  # a panel is MR rows wide
        elif packed == "b":
            a_k, ldb = _i(1), _i(nr)
        if called:
            f.attributes.add("noinline")
        for p in (ap, bp, c):
            p.add_attribute("noalias")
        b = ir.IRBuilder(f.append_basic_block("entry"))
        a_rows = [self.at(b, ap, b.mul(_min(b, _i(r), b.sub(rows, _i(1))), a_r)) for r in range(mr)]
        accs = [[b.alloca(vt) for _ in range(nv)] for _ in range(mr)]
        tile = b.alloca(t, size=_i(mr * nr))
        tile.align = 64
        zero = ir.Constant(vt, None)
        for row in accs:
            for a in row:
                b.store(zero, a)
        with b.if_then(b.icmp_signed(">=", kc, _i(C_PREFETCH_MIN_K))):
            for r in range(mr):  # C's tile, written after the k loop: fetched during it
                row = b.mul(_min(b, _i(r), b.sub(rows, _i(1))), ldc)
                for off in sorted({0, nr - 1}):
                    self.prefetch(b, self.at(b, c, b.add(row, _i(off))), 3, write=True)
        with _for(b, _i(0), kc, "k") as k:  # kc: pairs of k's for the pair kernel
            self.k_step(b, k, a_rows, a_k, bp, ldb, accs)
        full = b.and_(b.icmp_signed("==", rows, _i(mr)), b.icmp_signed("==", cols, _i(nr)))
        with b.if_else(full) as (whole, edge):
            with whole:  # the common case: vector loads and stores straight into C
                for r in range(mr):
                    for v in range(nv):
                        p = self.vat(b, c, b.add(b.mul(_i(r), ldc), _i(v * vec)))
                        acc = b.load(accs[r][v])
                        with b.if_else(accumulate) as (add, first):
                            with add:
                                b.store(self.add(b, acc, b.load(p, typ=vt, align=self.size)), p,
                                        align=self.size)
                            with first:
                                b.store(acc, p, align=self.size)
            with edge:  # a tile cut by the edge of C: through the stack tile
                for r in range(mr):
                    for v in range(nv):
                        b.store(b.load(accs[r][v]), self.vat(b, tile, _i(r * nr + v * vec)),
                                align=self.size)
                with _for(b, _i(0), rows, "er", scalar=True) as r:
                    with _for(b, _i(0), cols, "ec", scalar=True) as j:
                        x = b.load(self.at(b, tile, b.add(b.mul(r, _i(nr)), j)), typ=t)
                        p = self.at(b, c, b.add(b.mul(r, ldc), j))
                        old = b.load(p, typ=t)
                        b.store(b.select(accumulate, self.add(b, old, x), x), p)
        b.ret_void()
        return f

    def k_step(self, b, k, a_rows, a_k, bp, ldb, accs):
        """One k (one pair of k's for the pair kernel): a broadcast of A per row times
        NR/VEC vectors of B, added into the tile."""
        nr, vec, t, vt = self.nr, self.vec, self.t, self.vt
        nv = nr // vec
        bk = b.mul(k, ldb)
        bv = [b.load(self.at(b, bp, b.add(bk, _i(v * vec))), typ=vt, align=self.size)
              for v in range(nv)]
        ak = b.mul(k, a_k)
        for r in range(len(accs)):
            x = b.load(self.at(b, a_rows[r], ak), typ=t)
            splat = _splat(b, x, vt)
            for v in range(nv):
                if self.pairs:
                    acc = b.load(accs[r][v])
                    b.store(b.add(acc, self.pair_madd(b, splat, bv[v])), accs[r][v])
                else:
                    b.store(self.fmuladd(b, splat, bv[v], b.load(accs[r][v])), accs[r][v])

    # ------------------------------------------------------------------ few rows
    def few_rows_kernel(self, rows: int):
        """(kc, a, a_row, a_col, b, ldb, c, ldc, cols, accumulate): C[0:rows, 0:cols] (+)=
        A[0:rows, 0:kc] B[0:kc, 0:cols] for a product of few rows, B read in place row by
        row (B's row k at b + k * ldb, A's row r, k at a + r * a_row + k * a_col). One call
        walks all the columns of a short K block, so B streams from memory once, each of
        its kc rows a sequential read, with no packing and no call per panel. The columns go
        in strips of `_strip_vectors(rows)` vectors, enough accumulators (rows x vectors) to
        hide the multiply-add's latency, then single vectors, then one column at a time."""
        f = self.fn(f"few_rows{rows}", ir.FunctionType(
            VOID, [I64, PTR, I64, I64, PTR, I64, PTR, I64, I64, I1]))
        kc, a, a_row, a_col, bp, ldb, c, ldc, cols, accumulate = f.args
        f.attributes.add("noinline")  # inlined into the task: 2x its compile time, no faster
        for p in (a, bp, c):
            p.add_attribute("noalias")
        b = ir.IRBuilder(f.append_basic_block("entry"))
        a_rows = [self.at(b, a, b.mul(_i(r), a_row)) for r in range(rows)]
        wide = _strip_vectors(self.nr // self.vec, rows) * self.vec
        wide_end = b.mul(b.sdiv(cols, _i(wide)), _i(wide))
        vec_end = b.mul(b.sdiv(cols, _i(self.vec)), _i(self.vec))
        prefetch = b.and_(b.icmp_signed("<=", cols, _i(FEW_ROWS_PREFETCH_BYTES // self.size)),
                          b.icmp_signed("<", ldb, b.mul(cols, _i(FEW_ROWS_KC))))
        for width, lo, hi in ((wide, _i(0), wide_end), (self.vec, wide_end, vec_end)):
            steps = b.sdiv(b.sub(hi, lo), _i(width))
            with _for(b, _i(0), steps, f"fr{width}") as j:
                self.few_rows_strip(b, width // self.vec, b.add(lo, b.mul(j, _i(width))), kc,
                                    a_rows, a_col, bp, ldb, c, ldc, accumulate, prefetch)
        fma = self.scalar_fmuladd()
        with _for(b, vec_end, cols, "frc", scalar=True) as j:  # the last cols % VEC columns
            for r in range(rows):
                p = self.at(b, c, b.add(b.mul(_i(r), ldc), j))
                acc = b.alloca(self.t)
                b.store(b.select(accumulate, b.load(p, typ=self.t), ir.Constant(self.t, 0.0)), acc)
                with _for(b, _i(0), kc, "frk", scalar=True) as k:
                    x = b.load(self.at(b, a_rows[r], b.mul(k, a_col)), typ=self.t)
                    y = b.load(self.at(b, bp, b.add(b.mul(k, ldb), j)), typ=self.t)
                    b.store(b.call(fma, [x, y, b.load(acc)]), acc)
                b.store(b.load(acc), p)
        b.ret_void()
        return f

    def few_rows_strip(self, b, nv, col, kc, a_rows, a_col, bp, ldb, c, ldc, accumulate, prefetch):
        """One strip of nv vectors of columns from `col` on, for every row, over kc k's;
        with `prefetch` (an i1), the strip's lines FEW_ROWS_PREFETCH_ROWS rows of B ahead
        are prefetched as each row is read."""
        vt, vec, size = self.vt, self.vec, self.size
        entry = b.function.entry_basic_block
        with b.goto_block(entry):
            b.position_at_start(entry)
            accs = [[b.alloca(vt) for _ in range(nv)] for _ in a_rows]
        for r, row in enumerate(accs):
            for v, acc in enumerate(row):
                p = self.vat(b, c, b.add(b.mul(_i(r), ldc), b.add(col, _i(v * vec))))
                b.store(b.select(accumulate, b.load(p, typ=vt, align=size), ir.Constant(vt, None)),
                        acc)
        with _for(b, _i(0), kc, "frk", unroll=False) as k:  # unrolled: slower, bigger
            bk = b.add(b.mul(k, ldb), col)
            with b.if_then(prefetch):
                ahead = b.add(bk, b.mul(ldb, _i(FEW_ROWS_PREFETCH_ROWS)))
                for off in range(0, max(nv * vec * size, 64), 64):  # each line of the strip
                    self.prefetch(b, b.gep(bp, [b.add(ahead, _i(off // size))], source_etype=self.t))
            bv = [b.load(self.at(b, bp, b.add(bk, _i(v * vec))), typ=vt, align=size)
                  for v in range(nv)]
            for r, row in enumerate(accs):
                x = b.load(self.at(b, a_rows[r], b.mul(k, a_col)), typ=self.t)
                splat = _splat(b, x, vt)
                for v, acc in enumerate(row):
                    b.store(self.fmuladd(b, splat, bv[v], b.load(acc)), acc)
        for r, row in enumerate(accs):
            for v, acc in enumerate(row):
                p = self.vat(b, c, b.add(b.mul(_i(r), ldc), b.add(col, _i(v * vec))))
                b.store(b.load(acc), p, align=size)

    def few_rows_t_kernel(self, rows: int):
        """(k, a, a_row, b, ldb, c, ldc, cols): C[0:rows, 0:cols] = A[0:rows, 0:k] B[0:k,
        0:cols] with B's column j contiguous at b + j * ldb and A's rows at a + r * a_row:
        per column a dot product of whole vectors along k into VEC lanes, summed pairwise,
        then the last k % VEC one by one. Groups of FEW_ROWS_ACCUMULATORS / rows columns
        keep that many accumulators going; then single columns."""
        f = self.fn(f"few_rows_t{rows}", ir.FunctionType(
            VOID, [I64, PTR, I64, PTR, I64, PTR, I64, I64]))
        k, a, a_row, bp, ldb, c, ldc, cols = f.args
        f.attributes.add("noinline")
        for p in (a, bp, c):
            p.add_attribute("noalias")
        b = ir.IRBuilder(f.append_basic_block("entry"))
        a_rows = [self.at(b, a, b.mul(_i(r), a_row)) for r in range(rows)]
        group = max(1, FEW_ROWS_ACCUMULATORS // rows)
        k_vec = b.mul(b.sdiv(k, _i(self.vec)), _i(self.vec))
        lo = _i(0)
        for width in sorted({group, 1}, reverse=True):
            steps = b.sdiv(b.sub(cols, lo), _i(width))
            with _for(b, _i(0), steps, f"frt{width}") as j:
                self.few_rows_t_columns(b, width, b.add(lo, b.mul(j, _i(width))), k, k_vec,
                                        a_rows, bp, ldb, c, ldc)
            lo = b.add(lo, b.mul(steps, _i(width)))
        b.ret_void()
        return f

    def few_rows_t_columns(self, b, width, col, k, k_vec, a_rows, bp, ldb, c, ldc):
        """C[r, col:col + width] for every row: the columns' dot products with A's rows."""
        vt, vec, t = self.vt, self.vec, self.t
        entry = b.function.entry_basic_block
        with b.goto_block(entry):
            b.position_at_start(entry)
            accs = [[b.alloca(vt) for _ in range(width)] for _ in a_rows]
            sums = [[b.alloca(t) for _ in range(width)] for _ in a_rows]
        columns = [self.at(b, bp, b.mul(b.add(col, _i(g)), ldb)) for g in range(width)]
        for row in accs:
            for acc in row:
                b.store(ir.Constant(vt, None), acc)
        with _for(b, _i(0), b.sdiv(k_vec, _i(vec)), "frtk") as kv:
            kk = b.mul(kv, _i(vec))
            xs = [b.load(self.at(b, ar, kk), typ=vt, align=self.size) for ar in a_rows]
            for g, column in enumerate(columns):
                y = b.load(self.at(b, column, kk), typ=vt, align=self.size)
                for r, x in enumerate(xs):
                    b.store(self.fmuladd(b, x, y, b.load(accs[r][g])), accs[r][g])
        for r, row in enumerate(accs):
            for g, acc in enumerate(row):
                b.store(_pairwise_sum(b, b.load(acc), vec), sums[r][g])
        fma = self.scalar_fmuladd()
        with _for(b, k_vec, k, "frtt", scalar=True) as kk:  # the last k % VEC
            ys = [b.load(self.at(b, column, kk), typ=t) for column in columns]
            for r, ar in enumerate(a_rows):
                x = b.load(self.at(b, ar, kk), typ=t)
                for g, y in enumerate(ys):
                    b.store(b.call(fma, [x, y, b.load(sums[r][g])]), sums[r][g])
        for r in range(len(a_rows)):
            for g in range(width):
                b.store(b.load(sums[r][g]), self.at(b, c, b.add(b.mul(_i(r), ldc), b.add(col, _i(g)))))

    def few_rows_t_kernels(self):
        """{rows: transposed-B few-row kernel} for 1 ... FEW_ROWS_GROUP rows."""
        return {r: (self.mod.globals.get(f"{self.name}.few_rows_t{r}") or self.few_rows_t_kernel(r))
                for r in range(1, FEW_ROWS_GROUP + 1)}

    def prefetch(self, b, address, locality: int = 3, write: bool = False):
        """A read prefetch of `address`'s cache line (never faults, so past B's end too):
        into every cache level at locality 3, into L2 and beyond at 2."""
        f = self.mod.globals.get("llvm.prefetch.p0") or ir.Function(
            self.mod, ir.FunctionType(VOID, [PTR, I32, I32, I32]), name="llvm.prefetch.p0")
        b.call(f, [address, ir.Constant(I32, int(write)), ir.Constant(I32, locality),
                   ir.Constant(I32, 1)])

    def next_block(self, b, s, b_base, calls, p0, kc, k, j0, c0, cols, nc, on):
        """What the `calls` micro-kernel calls over the B block at (p0, c0) prefetch of the
        next block (the next columns, else the next K block; its rows at most `cols` wide,
        the task's B block width): (its first row, its rows, 0 unless `on`; the rows a call
        takes; the cache lines of a row). Computed once a block (prefetch_share per call)."""
        nxt_c0 = b.add(c0, cols)
        wrap = b.icmp_signed(">=", nxt_c0, nc)
        nxt_p0 = b.select(wrap, b.add(p0, kc), p0)
        nxt_c0 = b.select(wrap, _i(0), nxt_c0)
        nxt_kc = _max(b, _min(b, _i(self.kc), b.sub(k, nxt_p0)), _i(0))
        line = 64 // (2 if self.pairs else self.size)  # operand elements per cache line
        row0 = self.src(b, b_base, b.add(b.mul(nxt_p0, s["b_row"]), b.add(j0, nxt_c0)))
        lines = _ceil_div(b, _min(b, cols, b.sub(nc, nxt_c0)), line)
        return row0, b.select(on, nxt_kc, _i(0)), _ceil_div_v(b, nxt_kc, calls), lines

    def prefetch_share(self, b, s, nxt, call):
        """Call `call`'s share of the next block's rows (next_block) prefetched into L2:
        packing that block then reads from cache while this block's multiply-adds run."""
        row0, rows, per_call, lines = nxt
        lo = b.mul(call, per_call)
        line = 64 // (2 if self.pairs else self.size)
        with _for(b, lo, _min(b, b.add(lo, per_call), rows), "pfr", unroll=False) as r:
            row = self.src(b, row0, b.mul(r, s["b_row"]))
            with _for(b, _i(0), lines, "pfl", unroll=False) as q:
                self.prefetch(b, self.src(b, row, b.mul(q, _i(line))), 2)

    def prefetch_a_rows(self, b, a_base, s, row, p0, kc):
        """A read in place from memory (A_PREFETCH_MIN_BYTES): the next MR rows' K block
        (from `row` + MR) prefetched into L2 while the micro-kernel runs on this panel."""
        line = 64 // self.size
        first = b.add(row, _i(self.mr))
        with _for(b, _i(0), _i(self.mr), "par", unroll=False) as r:
            start = b.gep(a_base, [b.add(b.mul(b.add(first, r), s["a_row"]), p0)],
                          source_etype=self.st)
            with _for(b, _i(0), _ceil_div(b, kc, line), "pal", unroll=False) as q:
                self.prefetch(b, b.gep(start, [b.mul(q, _i(line))], source_etype=self.st), 2)

    def scalar_fmuladd(self):
        name = f"llvm.fmuladd.{self.elem}"
        return self.mod.globals.get(name) or ir.Function(
            self.mod, ir.FunctionType(self.t, [self.t] * 3), name=name)

    def few_rows_kernels(self):
        """{rows: few-row kernel} for 1 ... MR rows (the module's own if made already)."""
        return {r: (self.mod.globals.get(f"{self.name}.few_rows{r}") or self.few_rows_kernel(r))
                for r in range(1, FEW_ROWS_GROUP + 1)}

    def micro_kernels(self, packed: str = "", variants=ROW_VARIANTS, called: bool = False):
        """{rows: micro-kernel}: the full MR-row one and the fewer-row variants (the
        module's own when the matmul or the direct convolution made them already). With
        `packed`, the MR-row one is that packed variant: the fewer-row ones, which run on
        the edges, are not worth their compile time (each kernel adds ~0.15 s to a module).
        `called`: the never-inlined variants (micro_kernel)."""
        kernels = {}
        for r in sorted({*(v for v in variants if v < self.mr), self.mr}):
            layout = packed if r == self.mr else ""
            suffix = PACKED_SUFFIX[layout] + ("_called" if called else "")
            kernels[r] = (self.mod.globals.get(f"{self.name}.micro_kernel{r}{suffix}")
                          or self.micro_kernel(r, layout, called))
        return kernels

    def call_micro(self, b, micros, rows, args, sizes=None):
        """The micro-kernel of `micros` with the fewest rows >= `rows` on `args`."""
        sizes = sizes or sorted(micros)
        if len(sizes) == 1:
            b.call(micros[sizes[0]], args)
            return
        with b.if_else(b.icmp_signed("<=", rows, _i(sizes[0]))) as (fits, more):
            with fits:
                b.call(micros[sizes[0]], args)
            with more:
                self.call_micro(b, micros, rows, args, sizes[1:])

    # ------------------------------------------------------------------ task
    def few_rows_tile(self, b, kernels, s, a_base, b_base, c_base, bi, i0, j0, mc, nc,
                      transposed=False):
        """A task's tile of a product of at most SMALL_M_PANELS * MR rows with row-major B:
        K in blocks of FEW_ROWS_KC, each block's rows of B streamed in place by the few-row
        kernels, MR rows of C at a time (the last group with its own row count); then the
        epilogue on the whole tile. `transposed`: B's columns contiguous along k, the whole
        of K in one block, through the few_rows_t kernels."""
        k, n = s["k"], s["n"]
        block = _i(1 << 62) if transposed else _i(FEW_ROWS_KC)
        k_blocks = _max(b, _ceil_div_v(b, k, block), _i(1))  # k = 0: one block of zeros
        # One row of A and row-major B: block kb takes rows kb, kb + S, ... (S = k_blocks),
        # each of its rows continuing a stream through a contiguous S rows of B.
        # (the product's M, not the tile's: the same order whatever the tiles)
        segments = ir.Constant(I1, 0) if transposed else b.icmp_signed("==", s["m"], _i(1))
        step = b.select(segments, k_blocks, _i(1))
        with _for(b, _i(0), k_blocks, "frb") as kb:
            p0 = b.select(segments, kb, b.mul(kb, block))
            kc = _min(b, block, b.select(segments, _ceil_div_v(b, b.sub(k, kb), k_blocks),
                                         b.sub(k, p0)))
            R = max(kernels)
            with _for(b, _i(0), _ceil_div(b, mc, R), "frg") as g:
                r0 = b.mul(g, _i(R))
                rows = _min(b, _i(R), b.sub(mc, r0))
                a = self.src(b, a_base, b.add(b.mul(b.add(i0, r0), s["a_row"]),
                                              b.mul(p0, s["a_col"])))
                c = self.at(b, c_base, b.mul(r0, n))
                if transposed:
                    bp = self.src(b, b_base, b.mul(j0, s["b_col"]))
                    args = [kc, a, s["a_row"], bp, s["b_col"], c, n, nc]
                else:
                    bp = self.src(b, b_base, b.add(b.mul(p0, s["b_row"]), j0))
                    args = [kc, a, s["a_row"], b.mul(s["a_col"], step), bp,
                            b.mul(s["b_row"], step), c, n, nc, b.icmp_signed(">", kb, _i(0))]
                call_by_rows(b, kernels, rows, args, "frg.")
        with b.if_then(b.icmp_signed("!=", s["epi"], _i(0))):
            b.call(b.inttoptr(s["epi"], EPILOGUE_T.as_pointer()),
                   [b.inttoptr(s["epi_ctx"], PTR), bi, i0, b.add(i0, mc), j0, b.add(j0, nc)])

    def task_scratch_bytes(self) -> int:
        """The bytes of the thread's scratch a task packs A and B into (from its start)."""
        return (self.mc * self.kp + (self.kp * self.nr + self.pad) * (self.nb // self.nr)) * self.size

    def task(self, micros, micros_packed, micros_rows):
        """void task(ctx, begin, end): the output tiles numbered [begin, end)."""
        mr, nr, t = self.mr, self.nr, self.t
        f = self.fn("task", ir.FunctionType(VOID, [PTR, I64, I64]))
        ctx, begin, end = f.args
        b = ir.IRBuilder(f.append_basic_block("entry"))
        # The A block and the B block live in the thread's scratch (off the stack: a user's
        # thread may have a small one); without it, the tile goes through one stack panel of
        # each, MR rows by NR columns at a time.
        a_panel_only = b.alloca(t, size=_i(mr * self.kp))
        b_panel_only = b.alloca(t, size=_i(self.kp * nr))
        a_panel_only.align = b_panel_only.align = 64
        scratch_fn = thread_scratch(self.mod)
        a_bytes = self.mc * self.kp * self.size
        scratch = b.call(scratch_fn, [_i(self.task_scratch_bytes())])
        have_scratch = b.icmp_unsigned("!=", scratch, ir.Constant(PTR, None))
        a_pack = b.select(have_scratch, scratch, a_panel_only)
        b_pack = b.select(have_scratch, self.at(b, scratch, _i(a_bytes // self.size)), b_panel_only)
        block_rows = b.select(have_scratch, _i(self.mc), _i(mr))
        block_cols = b.select(have_scratch, _i(self.nb), _i(nr))
        s = load_slots(b, ctx, SLOTS)
        A, B, C = (b.inttoptr(s[x], PTR) for x in ("a", "b", "c"))
        m, n, k = s["m"], s["n"], s["k"]
        # B packed at compile time (pack_constant_b): its K block at p0 starts at p0 * n_pad,
        # and holds the panels of all N columns, each kc x NR
        b_packed = b.icmp_signed("!=", s["b_packed"], _i(0))
        fews = {} if self.pairs else self.few_rows_kernels()
        n_pad = b.mul(_ceil_div(b, n, nr), _i(nr))
        with _for(b, begin, end, "tile") as tile:
            jt = b.srem(tile, s["tiles_n"])
            rest = b.sdiv(tile, s["tiles_n"])
            it = b.srem(rest, s["tiles_m"])
            bi = b.sdiv(rest, s["tiles_m"])
            i0, j0 = b.mul(it, s["tile_m"]), b.mul(jt, s["tile_n"])
            mc, nc = _min(b, s["tile_m"], b.sub(m, i0)), _min(b, s["tile_n"], b.sub(n, j0))
            small_m = b.and_(b.icmp_signed("<=", mc, _i(self.small_m)),
                             b.icmp_signed("==", s["b_col"], _i(1)))
            small_m = b.and_(small_m, b.not_(b_packed))  # packed B beats B in place
            few_columns = b.icmp_signed("<=", nc, _i(A_IN_PLACE_PANELS * nr), name="few_columns")
            a_in_place = b.and_(few_columns, b.icmp_signed("==", s["a_col"], _i(1)))
            if self.pairs:  # pairs interleave two rows or two k's: always packed
                small_m = a_in_place = ir.Constant(I1, 0)
            a_from_memory = b.and_(a_in_place, b.icmp_signed(
                ">=", b.mul(b.mul(s["batch"], m), b.mul(k, _i(self.size))), _i(A_PREFETCH_MIN_BYTES)))
            a_base = self.src(b, A, b.mul(bi, s["a_batch"]))
            b_base = self.src(b, B, b.mul(bi, s["b_batch"]))
            c_base = self.at(b, C, b.add(b.mul(bi, b.mul(m, n)), b.add(b.mul(i0, n), j0)))
            # (m, not mc: how K is cut changes the sums' rounding, which must not depend on
            # the thread count)
            few_rows = b.and_(b.and_(b.icmp_signed("==", s["b_col"], _i(1)), b.not_(b_packed)),
                              b.icmp_signed("<=", m, _i(FEW_ROWS_MAX if fews else -1)))
            block_k = _i(self.kc)
            # few rows with B's columns contiguous along k (a transposed weight, attention's
            # keys): dot products down B's columns, B read once in place, not packed
            few_columns_t = b.and_(b.and_(b.icmp_signed("==", s["b_row"], _i(1)), b.not_(b_packed)),
                                   b.and_(b.icmp_signed("==", s["a_col"], _i(1)),
                                          b.icmp_signed("<=", m, _i(FEW_ROWS_MAX if fews else -1))))
            with b.if_else(b.or_(few_rows, few_columns_t)) as (few, general):
                with few:
                    if fews:  # (none for pairs, which interleave two k's: always packed)
                        with b.if_else(few_rows) as (by_rows, by_columns):
                            with by_rows:
                                self.few_rows_tile(b, fews, s, a_base, b_base, c_base, bi, i0, j0,
                                                   mc, nc)
                            with by_columns:
                                self.few_rows_tile(b, self.few_rows_t_kernels(), s, a_base, b_base,
                                                   c_base, bi, i0, j0, mc, nc, transposed=True)
                with general:
                    k_blocks = b.select(b.icmp_signed(">", k, _i(0)), _ceil_div_v(b, k, block_k), _i(1))
                    with _for(b, _i(0), k_blocks, "kb") as kb:
                        p0 = b.mul(kb, block_k)
                        kc = _min(b, block_k, b.sub(k, p0))
                        depth = b.ashr(b.add(kc, _i(1)), _i(1)) if self.pairs else kc  # of the panels
                        pack_a, pack_b = ((self.pack_a_pairs, self.pack_b_pairs) if self.pairs
                                          else (self.pack_a, self.pack_b))
                        # B block by B block (packed once per task and K block), then the tile's rows
                        # in A blocks of MC (MR at a time without the scratch). A task with few rows
                        # and row-major B reads B's whole NR-column panels in place (packing them
                        # would cost more than the product); the last, cut one is packed. A task
                        # with few columns and row-major A reads A in place.
                        panel_stride = b.add(b.mul(_i(nr), depth),  # (prepacked: no pad)
                                             b.select(b_packed, _i(0), _i(self.pad)))
                        narrow = b.icmp_signed("<=", mc, _i(NARROW_ROWS), name="narrow")
                        cols_here = b.select(narrow, _min(b, block_cols, _i(NARROW_NB)), block_cols)
                        prefetch_next = b.and_(narrow, b.and_(
                            b.icmp_signed("==", s["b_col"], _i(1)), b.not_(b_packed)))
                        with _for(b, _i(0), _ceil_div_v(b, nc, cols_here), "bb") as bb:
                            c0 = b.mul(bb, cols_here)
                            block_nc = _min(b, cols_here, b.sub(nc, c0))
                            in_place = b.select(small_m, b.sdiv(block_nc, _i(nr)), _i(0))
                            with b.if_then(b.not_(b_packed)):
                                pack_b(b, b_base, b_pack, s, p0, kc,
                                       b.add(j0, b.add(c0, b.mul(in_place, _i(nr)))),
                                       b.sub(block_nc, b.mul(in_place, _i(nr))), self.pad)
                            prepacked = self.src(b, b_base, b.add(b.mul(p0, n_pad), b.mul(
                                b.add(j0, c0), kc)))  # j0 + c0 is a multiple of NR
                            with _for(b, _i(0), _ceil_div_v(b, mc, block_rows), "ab") as ab:
                                r0 = b.mul(ab, block_rows)
                                m_panels = _ceil_div(b, _min(b, block_rows, b.sub(mc, r0)), mr)
                                # one A block: packed once per K block, for every B block
                                repack = b.or_(b.icmp_signed("==", bb, _i(0)),
                                               b.icmp_signed(">", mc, block_rows))
                                with _for(b, _i(0), b.select(b.and_(repack, b.not_(a_in_place)),
                                                             m_panels, _i(0)), "pa") as pa:
                                    pack_a(b, a_base, a_pack, s, pa, b.add(i0, r0), p0, kc)
                                # Shallow K blocks: the tiles of C row by row (each A panel
                                # across every B panel), so C is written in long runs along
                                # its rows, which the prefetcher follows; else column strip by
                                # column strip, each B panel staying in L1 for every A panel
                                n_panels = _ceil_div(b, block_nc, nr)
                                by_rows = b.icmp_signed("<=", kc, _i(ROW_ORDER_MAX_K), name="by_rows")
                                outer_n = b.select(by_rows, m_panels, n_panels, name="outer_panels")
                                inner_n = b.select(by_rows, n_panels, m_panels, name="inner_panels")
                                nxt = self.next_block(b, s, b_base, b.mul(outer_n, inner_n), p0,
                                                      kc, k, j0, c0, cols_here, nc, prefetch_next)
                                with _for(b, _i(0), outer_n, "pb") as outer:
                                    with _for(b, _i(0), inner_n, "mk") as inner:
                                        pb = b.select(by_rows, inner, outer)
                                        pa = b.select(by_rows, outer, inner)
                                        self.prefetch_share(b, s, nxt, b.add(b.mul(outer, inner_n), inner))
                                        cols = _min(b, _i(nr), b.sub(block_nc, b.mul(pb, _i(nr))))
                                        direct = b.icmp_signed("<", pb, in_place)
                                        b_panel = b.select(direct, self.src(b, b_base, b.add(
                                            b.mul(p0, s["b_row"]), b.add(j0, b.add(c0, b.mul(pb, _i(nr)))))),
                                            self.at(b, b.select(b_packed, prepacked, b_pack),
                                                    b.mul(b.sub(pb, in_place), panel_stride)))
                                        ldb = b.select(direct, s["b_row"], _i(nr))
                                        row = b.add(r0, b.mul(pa, _i(mr)))
                                        rows = _min(b, _i(mr), b.sub(mc, row))
                                        a_panel = b.select(a_in_place, self.src(b, a_base, b.add(
                                            b.mul(b.add(i0, row), s["a_row"]), p0)),
                                            self.at(b, a_pack, b.mul(pa, b.mul(_i(mr), depth))))
                                        with b.if_then(b.and_(a_from_memory, b.icmp_signed("==", pb, _i(0)))):
                                            self.prefetch_a_rows(b, a_base, s, b.add(i0, row), p0, kc)
                                        c_tile = self.at(b, c_base, b.add(b.mul(row, n),
                                                                          b.add(c0, b.mul(pb, _i(nr)))))
                                        args = [depth, a_panel, b.select(a_in_place, _i(1), _i(mr)),
                                                b.select(a_in_place, s["a_row"], _i(1)),
                                                b_panel, ldb, c_tile, n, rows,
                                                cols, b.icmp_signed(">", kb, _i(0))]
                                        both_packed = b.not_(b.or_(a_in_place, direct))
                                        b_only = b.and_(a_in_place, b.not_(direct))
                                        with b.if_else(both_packed) as (packed, other):
                                            with packed:
                                                self.call_micro(b, micros_packed, rows, args)
                                            with other:
                                                with b.if_else(b_only) as (rows_in_place, strided):
                                                    with rows_in_place:
                                                        self.call_micro(b, micros_rows, rows, args)
                                                    with strided:
                                                        self.call_micro(b, micros, rows, args)
                                # the last K block finished this A block x B block of C: its
                                # epilogue runs now, while the block is in cache
                                last = b.icmp_signed("==", kb, b.sub(k_blocks, _i(1)))
                                with b.if_then(b.and_(last, b.icmp_signed("!=", s["epi"], _i(0)))):
                                    r1 = b.add(i0, r0)
                                    c1 = b.add(j0, c0)
                                    b.call(b.inttoptr(s["epi"], EPILOGUE_T.as_pointer()),
                                           [b.inttoptr(s["epi_ctx"], PTR), bi, r1,
                                            b.add(r1, _min(b, block_rows, b.sub(mc, r0))), c1,
                                            b.add(c1, block_nc)])
        b.ret_void()
        return f

    def pack_a(self, b, a_base, a_pack, s, pa, i0, p0, kc):
        """Panel pa of the A block: a_pack[pa][k, 0:MR] = A[r0:r0 + MR, p0 + k], k-major.
        A full panel copies straight; one cut by the edge reads its last row again and
        stores zeros past it."""
        mr, t = self.mr, self.t
        r0 = b.add(i0, b.mul(pa, _i(mr)))
        rows = _min(b, _i(mr), b.sub(s["m"], r0))
        dst = self.at(b, a_pack, b.mul(pa, b.mul(_i(mr), kc)))
        row_starts = [self.at(b, a_base, b.mul(b.add(r0, _min(b, _i(r), b.sub(rows, _i(1)))),
                                               s["a_row"])) for r in range(mr)]
        zero = ir.Constant(t, 0.0)
        full_rows = b.icmp_signed("==", rows, _i(mr))
        k_vec = b.select(b.and_(full_rows, b.icmp_signed("==", s["a_col"], _i(1))),
                         b.mul(b.sdiv(kc, _i(self.vec)), _i(self.vec)), _i(0))
        with _for(b, _i(0), b.sdiv(k_vec, _i(self.vec)), "pav") as kb:
            # row-major A: VEC k's of each row as one vector, interleaved k-major by shuffles
            k0 = b.mul(kb, _i(self.vec))
            rows_v = [b.load(self.at(b, row_starts[r], b.add(p0, k0)), typ=self.vt, align=self.size)
                      for r in range(mr)]
            block = _interleave(b, rows_v, self.vec)
            b.store(block, b.bitcast(self.at(b, dst, b.mul(k0, _i(mr))), block.type.as_pointer()),
                    align=self.size)
        with b.if_else(full_rows) as (full, edge):
            for keep_all in (True, False):
                with (full if keep_all else edge):
                    with _for(b, k_vec if keep_all else _i(0), kc, "pak") as kk:
                        col = b.mul(b.add(p0, kk), s["a_col"])
                        for r in range(mr):
                            x = b.load(self.at(b, row_starts[r], col), typ=t)
                            if not keep_all:
                                x = b.select(b.icmp_signed("<", _i(r), rows), x, zero)
                            b.store(x, self.at(b, dst, b.add(b.mul(kk, _i(mr)), _i(r))))

    def pack_b(self, b, b_base, b_pack, s, p0, kc, c0, cols, pad=0):
        """The B block B[p0:p0 + kc, c0:c0 + cols] as NR-column panels, each k-major
        (b_pack[panel][k, 0:NR]), zeros past the edge. Row-major B is read row by row,
        NR/VEC vectors per panel, so the reads stream; B contiguous along k (a transposed
        operand, as in attention's q @ k^T) VEC k's of each column at a time, interleaved
        by shuffles; what is left (a cut panel, the k's past a multiple of VEC, other
        strides) element by element."""
        nr, vec, t, vt = self.nr, self.vec, self.t, self.vt
        panels = _ceil_div(b, cols, nr)
        row_major = b.icmp_signed("==", s["b_col"], _i(1))
        k_major = b.and_(b.icmp_signed("==", s["b_row"], _i(1)), b.not_(row_major))
        row_panels = b.select(row_major, b.sdiv(cols, _i(nr)), _i(0))
        k_panels = b.select(k_major, b.sdiv(cols, _i(nr)), _i(0))
        k_vec = b.mul(b.sdiv(kc, _i(vec)), _i(vec))

        def panel(q):
            return self.at(b, b_pack, b.mul(q, b.add(b.mul(_i(nr), kc), _i(pad))))
        with _for(b, _i(0), kc, "pbf") as kk:
            src = self.at(b, b_base, b.add(b.mul(b.add(p0, kk), s["b_row"]), c0))
            with _for(b, _i(0), row_panels, "pbq") as q:
                dst = self.at(b, panel(q), b.mul(kk, _i(nr)))
                for v in range(nr // vec):
                    x = b.load(self.at(b, src, b.add(b.mul(q, _i(nr)), _i(v * vec))), typ=vt,
                               align=self.size)
                    b.store(x, self.vat(b, dst, _i(v * vec)), align=vec * self.size)
        with _for(b, _i(0), k_panels, "pbt") as q:
            columns = [self.at(b, b_base, b.add(b.mul(b.add(c0, b.add(b.mul(q, _i(nr)), _i(j))),
                                                      s["b_col"]), p0)) for j in range(nr)]
            with _for(b, _i(0), b.sdiv(k_vec, _i(vec)), "pbk") as kb:
                k0 = b.mul(kb, _i(vec))
                _store_interleaved(b, [b.load(self.at(b, col, k0), typ=vt, align=self.size)
                                       for col in columns], vec,
                                   self.at(b, panel(q), b.mul(k0, _i(nr))))
        zero = ir.Constant(t, 0.0)

        def elements(k_lo, j_lo, j_hi):
            with _for(b, k_lo, kc, "pbg") as kk:
                row = b.mul(b.add(p0, kk), s["b_row"])
                with _for(b, j_lo, j_hi, "pbj") as j:
                    col = b.add(c0, _min(b, j, b.sub(cols, _i(1))))
                    x = b.load(self.at(b, b_base, b.add(row, b.mul(col, s["b_col"]))), typ=t)
                    x = b.select(b.icmp_signed("<", j, cols), x, zero)
                    q, jj = b.sdiv(j, _i(nr)), b.srem(j, _i(nr))
                    b.store(x, self.at(b, panel(q), b.add(b.mul(kk, _i(nr)), jj)))
        done = b.mul(b.add(row_panels, k_panels), _i(nr))
        elements(_i(0), done, b.mul(panels, _i(nr)))  # panels no fast path took
        elements(k_vec, _i(0), b.mul(k_panels, _i(nr)))  # the k tail of the k-major panels

    # ------------------------------------------------------------------ packing in pairs
    def pair_at(self, b, base, k, stride, kc, p0):
        """The i32 pair (base[k * stride], base[(k + 1) * stride]) of an i16 operand, k
        relative to p0; the second half is 0 past kc (and not read)."""
        second = b.icmp_signed("<", b.add(k, _i(1)), kc)
        k1 = b.select(second, b.add(k, _i(1)), k)
        lo = b.load(self.src(b, base, b.mul(b.add(p0, k), stride)), typ=I16)
        hi = b.load(self.src(b, base, b.mul(b.add(p0, k1), stride)), typ=I16)
        hi = b.select(second, hi, ir.Constant(I16, 0))
        return b.or_(b.zext(lo, I32), b.shl(b.zext(hi, I32), ir.Constant(I32, 16)))

    def pair_vector(self, b, base, k):
        """VEC pairs of a row contiguous along k, from k (even) on: one unaligned load."""
        return b.load(b.bitcast(self.src(b, base, k), self.vt.as_pointer()), typ=self.vt, align=2)

    def pack_a_pairs(self, b, a_base, a_pack, s, pa, i0, p0, kc):
        """pack_a for the pair kernel: a_pack[pa][kk, 0:MR] = the pair of A's k's 2kk, 2kk+1.
        A contiguous along k with a full panel: VEC pairs of each row by one load, rows
        interleaved by shuffles as in pack_a; the rest pair by pair."""
        mr, vec = self.mr, self.vec
        depth = b.ashr(b.add(kc, _i(1)), _i(1))
        r0 = b.add(i0, b.mul(pa, _i(mr)))
        rows = _min(b, _i(mr), b.sub(s["m"], r0))
        dst = self.at(b, a_pack, b.mul(pa, b.mul(_i(mr), depth)))
        row_starts = [self.src(b, a_base, b.mul(b.add(r0, _min(b, _i(r), b.sub(rows, _i(1)))),
                                                s["a_row"])) for r in range(mr)]
        full_rows = b.icmp_signed("==", rows, _i(mr))
        k_vec = b.select(b.and_(full_rows, b.icmp_signed("==", s["a_col"], _i(1))),
                         b.mul(b.sdiv(kc, _i(2 * vec)), _i(vec)), _i(0))  # in pairs
        with _for(b, _i(0), b.sdiv(k_vec, _i(vec)), "pav") as kb:
            k0 = b.mul(kb, _i(vec))
            rows_v = [self.pair_vector(b, row_starts[r], b.add(p0, b.mul(k0, _i(2))))
                      for r in range(mr)]
            block = _interleave(b, rows_v, vec)
            b.store(block, b.bitcast(self.at(b, dst, b.mul(k0, _i(mr))), block.type.as_pointer()),
                    align=self.size)
        with _for(b, k_vec, depth, "pak") as kk:
            for r in range(mr):
                x = self.pair_at(b, row_starts[r], b.mul(kk, _i(2)), s["a_col"], kc, p0)
                x = b.select(b.icmp_signed("<", _i(r), rows), x, ir.Constant(I32, 0))
                b.store(x, self.at(b, dst, b.add(b.mul(kk, _i(mr)), _i(r))))

    def pack_b_pairs(self, b, b_base, b_pack, s, p0, kc, c0, cols, pad=0):
        """pack_b for the pair kernel: b_pack[panel][kk, 0:NR] = the pair of B's rows 2kk,
        2kk+1 at each column, zeros past the edges. Row-major B: VEC columns of both rows
        by two loads, interleaved into VEC pairs; B contiguous along k: VEC pairs of each
        column by one load, interleaved by shuffles; the rest pair by pair."""
        nr, vec = self.nr, self.vec
        depth = b.ashr(b.add(kc, _i(1)), _i(1))
        panels = _ceil_div(b, cols, nr)
        row_major = b.icmp_signed("==", s["b_col"], _i(1))
        k_major = b.and_(b.icmp_signed("==", s["b_row"], _i(1)), b.not_(row_major))
        row_panels = b.select(row_major, b.sdiv(cols, _i(nr)), _i(0))
        k_panels = b.select(k_major, b.sdiv(cols, _i(nr)), _i(0))
        k_vec = b.mul(b.sdiv(kc, _i(2 * vec)), _i(vec))  # in pairs
        half = ir.VectorType(I16, vec)

        def panel(q):
            return self.at(b, b_pack, b.mul(q, b.add(b.mul(_i(nr), depth), _i(pad))))
        with _for(b, _i(0), depth, "pbf") as kk:
            k = b.add(p0, b.mul(kk, _i(2)))
            second = b.icmp_signed("<", b.add(b.mul(kk, _i(2)), _i(1)), kc)
            src0 = self.src(b, b_base, b.add(b.mul(k, s["b_row"]), c0))
            src1 = self.src(b, b_base, b.add(b.mul(b.select(second, b.add(k, _i(1)), k),
                                                   s["b_row"]), c0))
            with _for(b, _i(0), row_panels, "pbq") as q:
                dst = self.at(b, panel(q), b.mul(kk, _i(nr)))
                for v in range(nr // vec):
                    col = b.add(b.mul(q, _i(nr)), _i(v * vec))
                    x0 = b.load(b.bitcast(self.src(b, src0, col), half.as_pointer()), typ=half,
                                align=2)
                    x1 = b.load(b.bitcast(self.src(b, src1, col), half.as_pointer()), typ=half,
                                align=2)
                    x1 = b.select(second, x1, ir.Constant(half, None))
                    pairs = _shuffle(b, x0, x1, [j + h * vec for j in range(vec) for h in (0, 1)])
                    b.store(b.bitcast(pairs, self.vt), self.vat(b, dst, _i(v * vec)),
                            align=vec * self.size)
        with _for(b, _i(0), k_panels, "pbt") as q:
            columns = [self.src(b, b_base, b.add(b.mul(b.add(c0, b.add(b.mul(q, _i(nr)), _i(j))),
                                                       s["b_col"]), p0)) for j in range(nr)]
            with _for(b, _i(0), b.sdiv(k_vec, _i(vec)), "pbk") as kb:
                k0 = b.mul(kb, _i(vec))
                block = _interleave(b, [self.pair_vector(b, col, b.mul(k0, _i(2)))
                                        for col in columns], vec)
                dst = self.at(b, panel(q), b.mul(k0, _i(nr)))
                b.store(block, b.bitcast(dst, block.type.as_pointer()), align=vec * self.size)

        def elements(k_lo, j_lo, j_hi):
            with _for(b, k_lo, depth, "pbg") as kk:
                with _for(b, j_lo, j_hi, "pbj") as j:
                    col = self.src(b, b_base, b.mul(b.add(c0, _min(b, j, b.sub(cols, _i(1)))),
                                                    s["b_col"]))
                    x = self.pair_at(b, col, b.mul(kk, _i(2)), s["b_row"], kc, p0)
                    x = b.select(b.icmp_signed("<", j, cols), x, ir.Constant(I32, 0))
                    q, jj = b.sdiv(j, _i(nr)), b.srem(j, _i(nr))
                    b.store(x, self.at(b, panel(q), b.add(b.mul(kk, _i(nr)), jj)))
        done = b.mul(b.add(row_panels, k_panels), _i(nr))
        elements(_i(0), done, b.mul(panels, _i(nr)))  # panels no fast path took
        elements(k_vec, _i(0), b.mul(k_panels, _i(nr)))  # the k tail of the k-major panels

    # ------------------------------------------------------------------ entry
    def entry(self, task, parallel_for, get_threads, suffix: str = "run"):
        """void gemm(i64 slots[...]): fills in the tile counts, then runs the tasks."""
        f = self.fn(suffix, ir.FunctionType(VOID, [PTR]))
        f.linkage = "internal"
        (ctx,) = f.args
        b = ir.IRBuilder(f.append_basic_block("entry"))

        def slot(name):
            return b.gep(ctx, [_i(SLOTS.index(name))], inbounds=True, source_etype=I64)
        batch, m, n, k = (b.load(slot(x), typ=I64) for x in ("batch", "m", "n", "k"))
        # One task per thread where the product allows. Every task packs the whole of the
        # operand it shares with the others: cutting rows repacks B (K x N) per task,
        # cutting columns repacks A (M x K); so the longer side of C is cut first (rows in
        # multiples of MR; columns at least 256 wide, at most NC), then the other one while
        # there are fewer tasks than threads. A product of few rows packs neither: its
        # columns are cut down to FEW_ROWS_MIN_COLUMNS, so that batch 1 uses many threads.
        threads = b.sext(b.call(get_threads, []), I64)

        def wanted(tiles):  # ceil(threads / (batch * tiles))
            return b.add(b.sdiv(b.sub(threads, _i(1)), _max(b, b.mul(batch, tiles), _i(1))), _i(1))
        max_m, min_n = _ceil_div(b, m, self.mr), _ceil_div(b, n, self.nc)
        min_width = b.select(b.icmp_signed("<=", m, _i(FEW_ROWS_MAX)), _i(FEW_ROWS_MIN_COLUMNS), _i(256))
        max_n = _max(b, min_n, _ceil_div_v(b, n, min_width))
        rows_first = b.icmp_signed(">=", m, n)
        tiles_m_a = _min(b, wanted(min_n), max_m)
        tiles_n_a = _max(b, min_n, _min(b, wanted(tiles_m_a), max_n))
        tiles_n_b = _max(b, min_n, _min(b, wanted(_i(1)), max_n))
        tiles_m_b = _max(b, _min(b, wanted(tiles_n_b), max_m), _min(b, m, _i(1)))
        tiles_m = b.select(rows_first, tiles_m_a, tiles_m_b)
        tiles_n = b.select(rows_first, tiles_n_a, tiles_n_b)
        tile_m = b.mul(_ceil_div(b, _ceil_div_v(b, m, tiles_m), self.mr), _i(self.mr))
        tile_n = b.mul(_ceil_div(b, _ceil_div_v(b, n, tiles_n), self.nr), _i(self.nr))
        for name, v in (("tiles_m", tiles_m), ("tiles_n", tiles_n), ("tile_m", tile_m),
                        ("tile_n", tile_n)):
            b.store(v, slot(name))
        # a few-row product costs its read of B, not its multiply-adds
        flops = b.mul(b.mul(b.mul(batch, m), n), k)
        few_b = b.and_(b.icmp_signed("<=", m, _i(FEW_ROWS_MAX)),
                       b.icmp_signed(">=", b.mul(b.mul(batch, n), k), _i(FEW_ROWS_PARALLEL_MIN)))
        run_tasks(b, b.select(few_b, _i(PARALLEL_MIN_FLOPS), flops),
                  b.mul(batch, b.mul(tiles_m, tiles_n)), task, ctx, parallel_for)
        b.ret_void()
        return f


def pack_constant_b(matrix, kc_max: int, nr: int):
    """A constant B (K x N, numpy) in the layout the task reads when its `b_packed` slot is
    set: for each K block of KC rows (kc of them in the last), the NR-column panels of all N
    columns (zeros past N), each kc x NR, k-major; block p0 starts at p0 * N rounded up to
    NR. That is the layout pack_b gives one task's block at run time, laid out for every
    column at once, so any cut of the columns into tasks (multiples of NR) finds its panels
    in place: frozen weights are packed once, when the model is compiled."""
    import numpy as np
    k, n = matrix.shape
    panels = -(-n // nr)
    padded = np.zeros((k, panels * nr), matrix.dtype)
    padded[:, :n] = matrix
    blocks = [padded[p0:p0 + kc_max].reshape(-1, panels, nr).transpose(1, 0, 2).ravel()
              for p0 in range(0, k, kc_max)]
    return np.concatenate(blocks) if blocks else padded.ravel()


def thread_scratch(mod: ir.Module) -> ir.Function:
    """The runtime's `void *aot_thread_scratch(i64 bytes)`, declared in `mod`: the calling
    thread's kernel workspace, kept and grown by the thread (NULL when there is none)."""
    return (mod.globals.get("aot_thread_scratch")
            or ir.Function(mod, ir.FunctionType(PTR, [I64]), name="aot_thread_scratch"))


def get_num_threads(mod: ir.Module) -> ir.Function:
    """The runtime's `int aot_get_num_threads(void)` (the thread pool's size), declared in `mod`."""
    return (mod.globals.get("aot_get_num_threads")
            or ir.Function(mod, ir.FunctionType(ir.IntType(32), []), name="aot_get_num_threads"))


def load_slots(b, ctx, names) -> dict:
    """{name: the i64 at ctx[i]} for the task context's slot names."""
    return {n: b.load(b.gep(ctx, [_i(i)], inbounds=True, source_etype=I64), typ=I64)
            for i, n in enumerate(names)}


def run_tasks(b, flops, tasks, task, ctx, parallel_for) -> None:
    """task(ctx, 0, tasks) on the thread pool when the work (multiply-adds) is worth it,
    else on the calling thread."""
    with b.if_else(b.icmp_signed(">=", flops, _i(PARALLEL_MIN_FLOPS))) as (threaded, serial):
        with threaded:
            b.call(parallel_for, [tasks, task, ctx])
        with serial:
            b.call(task, [ctx, _i(0), tasks])


def gemm_function(mod: ir.Module, elem: str, t: ir.Type, parallel_for, blocking,
                  name: str | None = None) -> ir.Function:
    """The module's `void NAME.run(i64 *slots)` for element type `elem` with the target's
    `blocking` (a lowering.target.GemmBlocking), emitted on first use."""
    name = name or f"aot.gemm.{elem}"
    existing = mod.globals.get(f"{name}.run")
    if existing is not None:
        return existing
    get_threads = get_num_threads(mod)

    def run(e: _Emitter, entry: str) -> ir.Function:
        micros = e.micro_kernels(variants=MATMUL_ROW_VARIANTS)
        task = e.task(micros, e.micro_kernels(packed="ab", variants=MATMUL_ROW_VARIANTS),
                      micros if e.pairs else e.micro_kernels(packed="b", variants=MATMUL_ROW_VARIANTS))
        return e.entry(task, parallel_for, get_threads, entry)
    e = _Emitter(mod, elem, t, name, blocking)
    if blocking.wide is None:
        return run(e, "run")
    w = _Emitter(mod, elem, t, f"{name}.wide", blocking.wide)
    # a caller that sizes the thread's scratch for the matmul (conv_direct's patch matmul) by
    # `blocking` leaves room for either task
    assert w.task_scratch_bytes() <= e.task_scratch_bytes()
    narrow, wide = run(e, "run_narrow"), run(w, "run")
    f = e.fn("run", ir.FunctionType(VOID, [PTR]))
    (ctx,) = f.args
    b = ir.IRBuilder(f.append_basic_block("entry"))
    s = load_slots(b, ctx, SLOTS)
    large = b.and_(b.icmp_signed(">=", s["m"], _i(WIDE_MIN_ROWS)),
                   b.icmp_signed(">=", s["n"], _i(WIDE_MIN_COLUMNS)))
    with b.if_else(b.and_(large, b.icmp_signed("==", s["b_packed"], _i(0)))) as (big, small):
        with big:
            b.call(wide, [ctx])
        with small:
            b.call(narrow, [ctx])
    b.ret_void()
    return f
