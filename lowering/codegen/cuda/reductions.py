"""The GPU's reductions, as XLA's GPU backend schedules them: a warp per row, a block per
whole-tensor reduction, a block per 32 columns.

Each is the cuda target's override of reduce's `kernel` (its schedule as a kInput fusion's
root); the fused producers are read through the elemental emitter. Partial results are
always combined in a fixed tree, so a result does not depend on scheduling (float sums are
reassociated, as on the CPU). The init value joins once, at the end, as on the CPU (an add
with init 3 adds 3 once, not once per thread): each thread's partial starts from the body's
identity when the body is a known combiner (add, multiply, maximum, minimum, and, or, xor),
else from its first element, with a flag carried along saying whether it has one
(elemental.Partial).

- Row reduction (the last dim reduced, others kept): the parallel loop goes over the kept
  dims, an iteration per warp (`aot.lanes_per_iteration` = WARP). Lane l folds the row's
  elements l, l + 32, ... ; five butterfly shuffles combine the 32 partials, every lane
  stores the row's value. Rows too few for a warp each to fill the device and at least
  LONG_ROW long get a block each, combined as the full reduction's (`few_long_rows`).
- Row fusion (softmax, layernorm; the loop stage gives a warp a row): rows likewise too few
  and at least LONG_FUSION_ROW long get a block each (`few_long_fusion_rows`), each
  reduction's value combined by the block and handed to every thread (`block_total`).
  Few rows longer still are split over blocks (split_rows.py).
- Full reduction (every dim reduced, a rank-0 result): one iteration (`aot.tiles` = ()), a
  block of BLOCK threads. Thread t folds the elements at flat indices t, t + BLOCK, ...;
  shuffles combine each warp's partials, lane 0 of each warp puts its warp's value in shared
  memory, and after a barrier thread 0 folds the warps' values in warp order and stores.
- Column reduction (a run of consecutive dims reduced, the last dim kept: x[R, C] -> [C],
  x[B, R, C] -> [B, C]): an iteration per tile of COLS output columns at one index of the
  other kept dims (`aot.tiles`). Thread (ty, tx) of the block's ROWS x COLS folds rows ty,
  ty + ROWS, ... of column tile + tx (the reduced dims flattened), so a warp reads COLS
  consecutive elements; the partials go to shared memory [ROWS][COLS], and after a barrier
  the threads with ty = 0 fold their column's ROWS partials in row order and store. A second
  barrier keeps the next tile's partials from overwriting ones still being read. When tiles of
  COLS columns would be too few blocks for the device, a tile is a 32-byte sector's columns
  (8 of f32) and the block's threads BLOCK / 8 rows of them (`column_tile`).
"""
from __future__ import annotations

from abi.dtypes import dtype
from lowering.codegen.cuda.launch import fills_devices
from lowering.ir.builder import Ix, LoopBuilder, dims_of, element_nest
from lowering.ir.core import INDEX, MemRefType, Operation
from lowering.ops import registry
from lowering.ops.elemental import Elemental, Partial

WARP = 32  # cuda_target().warp_size
BLOCK = 256  # threads sharing an iteration of the block schedules (their launch records' block)
COLS = WARP  # output columns per tile of a column reduction
ROWS = BLOCK // COLS  # threads per column
LONG_ROW = 4096  # elements: a row reduction's rows this long, if few, get a block each
LONG_FUSION_ROW = BLOCK  # elements: a row fusion's, likewise (a column a thread)
MAX_BLOCK = 1024  # threads: a block per row takes up to this many, four columns each or more
SECTOR = 32  # bytes: a global memory transaction's unit (timing.SECTOR)


def is_row_reduction(target, root: Operation) -> bool:
    rank = root.operands[0].type.rank
    return list(root.attrs["dimensions"]) == [rank - 1] and rank >= 2


def is_full_reduction(target, root: Operation) -> bool:
    return len(root.attrs["dimensions"]) == root.operands[0].type.rank


def is_column_reduction(target, root: Operation) -> bool:
    """Reduced dims consecutive and before the last dim, which is kept. Not when fewer rows
    than the block's ROWS are known to be reduced into a vector: most thread rows would idle,
    and a thread per column (the generic loops) reads as coalesced."""
    dims = sorted(root.attrs["dimensions"])
    shape = root.operands[0].type.shape
    if not dims or dims[-1] >= len(shape) - 1 or dims != list(range(dims[0], dims[-1] + 1)):
        return False
    rows = 1
    for d in dims:
        rows = rows * shape[d] if shape[d] is not None and rows is not None else None
    return rows is None or rows >= ROWS or len(shape) - len(dims) > 1


def _parts(root: Operation, env: dict):
    """(inputs, inits, the inputs' dims: ints where static)."""
    n = len(root.operands) // 2
    ins, inits = root.operands[:n], root.operands[n:]
    return ins, inits, list(env[ins[0]] if ins[0] in env else ins[0].type.shape)


def _product(ix: Ix, dims: list):
    total = 1
    for d in dims:
        total = ix.mul(total, d)
    return total


def _unflatten(ix: Ix, flat, dims: list) -> list:
    """A row-major flat index into `dims` as one index per dim."""
    idx = []
    for d in reversed(dims[1:]):
        idx.append(ix.rem(flat, d))
        flat = ix.div(flat, d)
    return [flat] + idx[::-1] if dims else []


def _when(b: LoopBuilder, cond) -> LoopBuilder:
    """A body run only where `cond` holds (a loop of 0 or 1 trips); close it with yield_."""
    _, guarded, _, _ = b.for_(b.index(0), Ix(b).select(cond, 1, 0))
    return guarded


def emit_warp_row_reduction(b: LoopBuilder, root: Operation, inputs: dict, outs: list, env: dict):
    ins, inits, in_dims = _parts(root, env)
    dims = [b.index(d) if isinstance(d, int) else d for d in in_dims]
    first = len(b.block.ops)
    with element_nest(b, dims[:-1]) as (outer, rows):  # a warp per row, over every leading dim
        parallel = next(op for op in b.block.ops[first:] if op.name == "scf.for")
        parallel.attrs["aot.lanes_per_iteration"] = WARP  # a warp per iteration, lanes in step
        e = Elemental(outer, inputs, dims=env)
        part = Partial(root, [e.at(v, []) for v in inits])
        lane = outer.v("gpu.lane_id", [], INDEX)
        loop, body, j, cur = outer.for_(lane, dims[-1], part.seed(outer), step=WARP)
        xs = [Elemental(body, inputs, dims=env).at(v, list(rows) + [j]) for v in ins]
        body.yield_(part.fold(body, list(cur), xs))
        state = part.across_lanes(outer, list(loop.results), WARP)
        for v, out in zip(part.finish(outer, state), outs):
            outer.op("memref.store", [v, out] + list(rows))


def block_combine(b: LoopBuilder, part: Partial, state: list, tid, finish: bool = True,
                  threads: int = BLOCK):
    """A block's `threads` partials (`state`, thread `tid`'s) combined: shuffles within each
    warp, lane 0 of each warp puts its warp's value in shared memory, and after a barrier
    thread 0 folds the warps' values in warp order. Returns the builder of thread 0's part (its
    values finished, the init joined, unless not `finish`; the caller stores them and closes it
    with yield_)."""
    bx = Ix(b)
    warps = threads // WARP
    state = part.across_lanes(b, state, WARP)
    shared = [b.v("gpu.shared", [], MemRefType((warps,), a.type.name)) for a in state]
    lead = _when(b, bx.cmp("eq", bx.rem(tid, WARP), 0))
    for a, s in zip(state, shared):
        lead.op("memref.store", [a, s, Ix(lead).div(tid, WARP)])
    lead.yield_()
    b.op("gpu.barrier", [])
    last = _when(b, bx.cmp("eq", tid, 0))
    vals = [last.v("memref.load", [s, last.index(0)], a.type) for a, s in zip(state, shared)]
    for w in range(1, warps):
        others = [last.v("memref.load", [s, last.index(w)], a.type) for a, s in zip(state, shared)]
        vals = part.join(last, vals, others)
    return last, part.finish(last, vals) if finish else vals


def block_total(b: LoopBuilder, part: Partial, state: list, tid, threads: int = BLOCK) -> list:
    """The block's partials combined (block_combine) and finished, in every thread: thread 0
    hands them to the others through shared memory."""
    shared = [b.v("gpu.shared", [], MemRefType((1,), i.type.name)) for i in part.inits]
    last, values = block_combine(b, part, state, tid, threads=threads)
    for v, s in zip(values, shared):
        last.op("memref.store", [v, s, last.index(0)])
    last.yield_()
    b.op("gpu.barrier", [])
    return [b.v("memref.load", [s, b.index(0)], v.type) for v, s in zip(values, shared)]


def emit_block_full_reduction(b: LoopBuilder, root: Operation, inputs: dict, outs: list, env: dict):
    ins, inits, in_dims = _parts(root, env)
    total = Ix(b).val(_product(Ix(b), in_dims))
    loop, body, _, _ = b.for_(b.index(0), b.index(1))
    loop.attrs["aot.lanes_per_iteration"] = BLOCK  # one block, one iteration
    loop.attrs["aot.tiles"] = ()
    tid = body.v("gpu.thread_id", [], INDEX)
    part = Partial(root, [Elemental(body, inputs, dims=env).at(v, []) for v in inits])
    fold, fb, i, cur = body.for_(tid, total, part.seed(body), step=BLOCK)
    idx = _unflatten(Ix(fb), i, in_dims)
    xs = [Elemental(fb, inputs, dims=env).at(v, idx) for v in ins]
    fb.yield_(part.fold(fb, list(cur), xs))
    last, values = block_combine(body, part, list(fold.results), tid)
    for v, out in zip(values, outs):
        last.op("memref.store", [v, out])
    last.yield_()
    body.yield_()


def few_long_rows(target, root: Operation) -> bool:
    """A row reduction whose rows, known to the compile, are too few for a warp each to fill
    the devices (`launch.fills_devices`) and at least LONG_ROW long: a block per row (the sum
    of [1, 4M] was one warp walking 4M elements, 528x its floor on an H100)."""
    shape = root.operands[0].type.shape
    if not is_row_reduction(target, root) or None in shape:
        return False
    rows = 1
    for n in shape[:-1]:
        rows *= n
    return shape[-1] >= LONG_ROW and not fills_devices(rows * WARP)


def emit_block_row_reduction(b: LoopBuilder, root: Operation, inputs: dict, outs: list, env: dict):
    ins, inits, in_dims = _parts(root, env)
    dims = [b.index(d) if isinstance(d, int) else d for d in in_dims]
    first = len(b.block.ops)
    with element_nest(b, dims[:-1]) as (outer, rows):  # a block per row
        parallel = next(op for op in b.block.ops[first:] if op.name == "scf.for")
        parallel.attrs["aot.lanes_per_iteration"] = BLOCK
        tid = outer.v("gpu.thread_id", [], INDEX)
        part = Partial(root, [Elemental(outer, inputs, dims=env).at(v, []) for v in inits])
        fold, fb, j, cur = outer.for_(tid, dims[-1], part.seed(outer), step=BLOCK)
        xs = [Elemental(fb, inputs, dims=env).at(v, list(rows) + [j]) for v in ins]
        fb.yield_(part.fold(fb, list(cur), xs))
        last, values = block_combine(outer, part, list(fold.results), tid)
        for v, out in zip(values, outs):
            last.op("memref.store", [v, out] + list(rows))
        last.yield_()
        outer.op("gpu.barrier", [])  # the block's next row waits until these partials are read


def few_long_fusion_rows(target, red: Operation) -> bool:
    """A row fusion (softmax, layernorm) whose first reduction's rows, known to the compile,
    are too few for a warp each to fill the devices and at least LONG_FUSION_ROW long: a
    block per row (the softmax of [1, 4096] was one warp of a block of 8 walking the row; the
    GPT decoder's layernorms of [128, 256] 16 blocks on 16 SMs, now 128)."""
    shape = red.operands[0].type.shape
    if len(shape) < 2 or None in shape:
        return False
    rows = 1
    for n in shape[:-1]:
        rows *= n
    return shape[-1] >= LONG_FUSION_ROW and not fills_devices(rows * WARP)


def emit_block_row_fusion(b: LoopBuilder, region_block, inputs: dict, out, env: dict):
    """A row fusion as loops.emit_row_fusion, a block per row instead of a warp: thread t
    folds columns t, t + T, ... of each reduction, the block combines them (block_total) and
    every thread reads the value; then thread t computes those columns of the result. T is
    BLOCK, doubled while each thread keeps four columns or more, up to MAX_BLOCK (the softmax of
    [1, 4096]: 1024 threads, 7.7 -> 3.8 us predicted on an H100, launch cost 2.5 us).
    The elements are computed again from the inputs (no row kept in the result: on a GPU
    that would be one more write and read of the row)."""
    ret = region_block.ops[-1]
    out_dims = dims_of(b, out)
    threads = BLOCK  # more for longer rows, up to MAX_BLOCK: more loads in flight
    while threads < MAX_BLOCK and 8 * threads <= out.type.shape[-1]:
        threads *= 2
    first = len(b.block.ops)
    with element_nest(b, out_dims[:-1]) as (rows, rivs):  # a block per row
        parallel = next(op for op in b.block.ops[first:] if op.name == "scf.for")
        parallel.attrs["aot.lanes_per_iteration"] = threads  # the launch's block (launch_of)
        tid = rows.v("gpu.thread_id", [], INDEX)
        scalars: dict = {}
        for red in (o for o in region_block.ops if o.key == "reduce"):
            x, init = red.operands
            in_dims = env[x] if x in env else Elemental(rows, inputs).dims(x)
            row = [iv if isinstance(n, int) and n == m else Ix(rows).min(iv, Ix(rows).sub(n, 1))  # broadcast
                   for iv, n, m in zip(rivs, in_dims[:-1], out.type.shape[:-1])]
            part = Partial(red, [Elemental(rows, inputs, scalars, env).at(init, [])])
            loop, body, c, cur = rows.for_(tid, Ix(rows).val(in_dims[-1]), part.seed(rows), step=threads)
            body.yield_(part.fold(body, list(cur), [Elemental(body, inputs, scalars, env).at(x, row + [c])]))
            scalars[red.results[0]] = block_total(rows, part, list(loop.results), tid, threads)[0]
        _, cols, c, _ = rows.for_(tid, out_dims[-1], step=threads)
        cols.op("memref.store", [Elemental(cols, inputs, scalars, env).at(ret.operands[0], rivs + [c]), out]
                + rivs + [c])
        cols.yield_()
        rows.op("gpu.barrier", [])  # the block's next row waits until shared memory is read


def column_tile(root: Operation) -> int:
    """Output columns per block: COLS, or a sector's worth (8 f32, 4 f64; a warp still reads
    whole 32-byte sectors, 4 rows of one each) when the shapes are known, tiles of COLS would
    be too few blocks to fill the devices (`launch.fills_devices`) and there are rows enough
    for the block's BLOCK / width thread rows: the column sums of [8192, 4096] were 128 blocks
    walking all 8192 rows, 4.2x their floor on an H100 (512 blocks of 8 columns: 1.1x)."""
    shape = root.operands[0].type.shape
    red = sorted(root.attrs["dimensions"])
    if None in shape or 0 in shape:
        return COLS
    rows = cols = 1
    for d, n in enumerate(shape):
        rows, cols = (rows * n, cols) if d in red else (rows, cols * n)
    narrow = max(SECTOR // max(dtype(root.operands[0].type.elem).size, 1), 1)
    tiles = cols // shape[-1] * -(-shape[-1] // COLS)
    if narrow >= COLS or fills_devices(tiles * BLOCK) or rows < BLOCK // narrow:
        return COLS
    return narrow


def emit_tiled_column_reduction(b: LoopBuilder, root: Operation, inputs: dict, outs: list, env: dict):
    ins, inits, in_dims = _parts(root, env)
    red = sorted(root.attrs["dimensions"])
    lo, hi = red[0], red[-1] + 1
    out_dims = in_dims[:lo] + in_dims[hi:]
    ix = Ix(b)
    cols = column_tile(root)
    rows_per = BLOCK // cols  # thread rows of the block
    tiles = (1,) * (len(out_dims) - 1) + (cols,)
    counts = [ix.div(ix.add(n, t - 1), t) for n, t in zip(out_dims, tiles)]
    rows = ix.val(_product(ix, in_dims[lo:hi]))
    loop, body, t, _ = b.for_(b.index(0), ix.val(_product(ix, counts)))
    loop.attrs["aot.lanes_per_iteration"] = BLOCK  # a block per tile of columns
    loop.attrs["aot.tiles"] = tiles
    bx = Ix(body)
    at = _unflatten(bx, t, counts)  # the tile, then this thread's output index
    tid = body.v("gpu.thread_id", [], INDEX)
    tx, ty = bx.rem(tid, cols), bx.div(tid, cols)
    at[-1] = bx.add(bx.mul(at[-1], cols), tx)
    inside = bx.cmp("slt", at[-1], out_dims[-1])
    part = Partial(root, [Elemental(body, inputs, dims=env).at(v, []) for v in inits])
    fold, fb, r, cur = body.for_(ty, bx.select(inside, rows, 0), part.seed(body), step=rows_per)
    idx = at[:lo] + _unflatten(Ix(fb), r, in_dims[lo:hi]) + at[lo:]
    xs = [Elemental(fb, inputs, dims=env).at(v, idx) for v in ins]
    fb.yield_(part.fold(fb, list(cur), xs))
    state = list(fold.results)
    shared = [body.v("gpu.shared", [], MemRefType((rows_per, cols), a.type.name)) for a in state]
    for a, s in zip(state, shared):
        body.op("memref.store", [a, s, ty, tx])
    body.op("gpu.barrier", [])
    top = _when(body, bx.and_(bx.cmp("eq", ty, 0), inside))
    vals = [top.v("memref.load", [s, top.index(0), tx], a.type) for a, s in zip(state, shared)]
    for row in range(1, rows_per):
        others = [top.v("memref.load", [s, top.index(row), tx], a.type) for a, s in zip(state, shared)]
        vals = part.join(top, vals, others)
    for v, out in zip(part.finish(top, vals), outs):
        top.op("memref.store", [v, out] + at)
    top.yield_()
    body.op("gpu.barrier", [])  # the next tile's partials wait until these are read
    body.yield_()


registry.override("reduce", "row_fusion", emit_block_row_fusion, target="cuda", when=few_long_fusion_rows)
registry.override("reduce", "kernel", emit_warp_row_reduction, target="cuda", when=is_row_reduction)
registry.override("reduce", "kernel", emit_block_row_reduction, target="cuda", when=few_long_rows)
registry.override("reduce", "kernel", emit_block_full_reduction, target="cuda", when=is_full_reduction)
registry.override("reduce", "kernel", emit_tiled_column_reduction, target="cuda", when=is_column_reduction)
