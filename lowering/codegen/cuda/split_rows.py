"""Few long rows split over blocks: the sum of [1, 4M], the softmax of [1, 256K] on the GPU.

bufferize decides the split, as on the CPU (split_row_reduction, split_row_fusion: at most 4
rows of at least 256K elements, or of a run-time length), and gives the kernels a scratch of
partials: partial[chunk, kept...] for a reduction, partial[chunk, reduction, rows...] for a
row fusion, Target.column_chunks (1024 on a GPU) chunks a row. This is the cuda target's
schedule of that split (reduce's `split_kernel` rule), instead of the loop stage's thread per
chunk:

- a reduction: a block per (chunk, row) folds its chunk (thread t the elements lo + t,
  lo + t + BLOCK, ...: a warp's loads coalesce) and combines its threads' partials
  (reductions.block_combine) into partial[c, row], without the init; a second kernel, a block
  per row of up to 1024 threads (a thread a partial), folds that row's partials, combines
  them alike and joins the init once.
- a row fusion (softmax, layernorm): one kernel per reduction, then one for the elements,
  each a block per (chunk, row). Kernel p first combines the partials of reductions 0..p-1
  (every block alike, as the reduction's second kernel does; thread 0 hands the value to
  the others through shared memory), then folds its chunk of reduction p into
  partial[c, p, row]. The elements are computed again from the inputs (the CPU keeps
  softmax's exp in the result row: on a GPU that is one more write and read of the row).

A chunk is ceil(n / chunks) elements rounded up to a multiple of WARP, at least MIN_CHUNK; the
blocks of chunks past the row's end skip the work (a short run-time length launches the same
grid).
Every value is combined
in a fixed tree of the chunk count and BLOCK, so the bits do not depend on the grid. The sum
of [1, 4M] was one block walking 4M elements (528x its floor on an H100 by the time model).
"""
from __future__ import annotations

from lowering.codegen.cuda.reductions import (
    BLOCK,
    MAX_BLOCK,
    WARP,
    _product,
    _unflatten,
    block_combine,
    block_total,
)
from lowering.ir.builder import Ix, LoopBuilder, dims_of
from lowering.ir.core import INDEX, CompileError, Operation, ScalarType
from lowering.ops import registry
from lowering.ops.elemental import Elemental, Partial, body_identity, fusion_dims

# Elements a chunk holds at least: a thread of its block one or more. Each block of a row
# fusion's later kernels reads every partial of the row before its chunk (chunks^2 reads a row,
# from L2): the softmax of [1, 256K], 1024 chunks of 256, reads 8 MB of partials in its last
# kernel for 1 MB of row. Longer chunks would read fewer, but the counting run of the time
# model scales what the first blocks do to the whole grid, and would take the idle blocks
# past the chunks used for busy ones.
MIN_CHUNK = BLOCK


def chunking(b: LoopBuilder, n, chunks: int) -> tuple:
    """(chunk length, chunks used) of a row of `n` elements cut into at most `chunks`:
    ceil(n / chunks) rounded up to a multiple of WARP, at least MIN_CHUNK."""
    ix = Ix(b)
    per = ix.div(ix.add(n, chunks - 1), chunks)
    chunk = ix.max(ix.mul(ix.div(ix.add(per, WARP - 1), WARP), WARP), MIN_CHUNK)
    return chunk, ix.div(ix.add(n, ix.sub(chunk, 1)), chunk)


def block_loop(b: LoopBuilder, dims: list, tiles: tuple, threads: int = BLOCK) -> tuple:
    """The parallel loop of a block per element of `dims` (static), as tiles of `tiles` of
    the parallel output: (body, the element's index, the thread's place in its block)."""
    loop, body, t, _ = b.for_(b.index(0), Ix(b).val(_product(Ix(b), dims)))
    loop.attrs["aot.lanes_per_iteration"] = threads  # the launch's block (launch.launch_of)
    loop.attrs["aot.tiles"] = tiles
    return body, _unflatten(Ix(body), t, dims), body.v("gpu.thread_id", [], INDEX)


def fold_range(b: LoopBuilder, part: Partial, lo, hi, tid, read, threads: int = BLOCK) -> list:
    """Thread `tid`'s partial of the elements lo + tid, lo + tid + threads, ... below hi, each
    `read(builder, index)`."""
    loop, body, j, cur = b.for_(Ix(b).add(lo, tid), hi, part.seed(b), step=threads)
    body.yield_(part.fold(body, list(cur), read(body, j)))
    return list(loop.results)


def of_partials(b: LoopBuilder, red: Operation, init, partials, q: list, rows: list, used, tid,
                threads: int = BLOCK) -> tuple:
    """(Partial, thread `tid`'s state) of reduction `red` of a row over its `used`
    partials[c, *q, *rows]: the block combines the states (reductions.block_combine or
    block_total), which joins the init."""
    elem = ScalarType(partials.type.elem)
    part = Partial(red, [init])
    return part, fold_range(b, part, b.index(0), used, tid,
                            lambda fb, c: [fb.v("memref.load", [partials, c] + q + rows, elem)], threads)


def followup(k, op: Operation) -> tuple:
    """A next kernel of the split, on the fusion's buffers: (builder, args, inputs, dims)."""
    fn, b, args = k.new_kernel(op, list(op.operands))
    k.followups.append(fn)
    region_block = op.regions[0].blocks[0]
    inputs = dict(zip(region_block.args, args[:len(region_block.args)]))
    return b, args, inputs, fusion_dims(b, region_block, inputs, args[op.attrs["num_buffers"]:])


def emit_split(k, op: Operation, b: LoopBuilder, inputs: dict, out, part_at: int, env: dict):
    """reduce's `split_kernel` on cuda: the split reduction or row fusion (module docstring)."""
    root = op.regions[0].blocks[0].ops[-1].operands[0].owner
    if root.key != "reduce":
        return emit_split_row_fusion(k, op, b, inputs, out, part_at, env)
    if list(root.attrs["dimensions"]) != [root.operands[0].type.rank - 1]:
        raise CompileError("internal: the cuda target splits only reductions of the last dim", op.loc)
    x, init = root.operands
    partials = b.block.args[part_at]
    chunks, kept = partials.type.shape[0], list(partials.type.shape[1:])
    n = Ix(b).val((env[x] if x in env else Elemental(b, inputs).dims(x))[-1])
    chunk, _ = chunking(b, n, chunks)
    k.kernels[-1].attrs["aot.parallel_over"] = part_at  # the grid: a block per partial
    loop, (c, *rows), tid = block_loop(b, [chunks] + kept, (1,) * (1 + len(kept)))
    body, lo, hi = chunk_of(loop, c, chunk, n)
    part = Partial(root, [Elemental(body, inputs, dims=env).at(init, [])])
    state = fold_range(body, part, lo, hi, tid,
                       lambda fb, j: [Elemental(fb, inputs, dims=env).at(x, rows + [j])])
    last, (value,) = block_combine(body, part, state, tid, finish=False)
    last.op("memref.store", [value, partials, c] + rows)
    last.yield_()
    body.op("gpu.barrier", [])  # the block's next partial waits until these are read
    body.yield_()
    loop.yield_()

    cb, args, inputs, env = followup(k, op)  # a block per row: its partials, then the init
    n = Ix(cb).val((env[x] if x in env else Elemental(cb, inputs).dims(x))[-1])
    _, used = chunking(cb, n, chunks)
    threads = min(max(chunks, BLOCK), MAX_BLOCK)  # a thread a partial: more loads in flight
    body, rows, tid = block_loop(cb, kept, (1,) * len(kept), threads)
    part, state = of_partials(body, root, Elemental(body, inputs, dims=env).at(init, []), args[part_at], [],
                              rows, used, tid, threads)
    last, (value,) = block_combine(body, part, state, tid, threads=threads)
    last.op("memref.store", [value, args[list(b.block.args).index(out)]] + rows)
    last.yield_()
    body.op("gpu.barrier", [])
    body.yield_()
    cb.op("func.return", [])


def chunk_of(b: LoopBuilder, c, chunk, n) -> tuple:
    """(body, lo, hi): chunk `c`'s range of a row of `n`, and the body run only when it holds
    elements (alike for the whole block, so its barriers are safe; close it with yield_):
    the blocks of chunks past a short row's end skip the work."""
    ix = Ix(b)
    lo = ix.min(ix.mul(c, chunk), n)
    hi = ix.min(ix.add(lo, chunk), n)
    _, body, _, _ = b.for_(b.index(0), ix.select(ix.cmp("slt", lo, hi), 1, 0))
    return body, lo, hi


def emit_split_row_fusion(k, op: Operation, b: LoopBuilder, inputs: dict, out, part_at: int, env: dict):
    region_block = op.regions[0].blocks[0]
    ret = region_block.ops[-1]
    reductions = [o for o in region_block.ops if o.key == "reduce"]
    at_out = list(b.block.args).index(out)
    for phase in range(len(reductions) + 1):
        if phase:
            b, args, inputs, env = followup(k, op)
            out = args[at_out]
        k.kernels[-1].attrs["aot.parallel_over"] = part_at  # the grid: a block per (chunk, row)
        partials = b.block.args[part_at]
        chunks, n_red, *rows_shape = partials.type.shape
        n = Ix(b).val(dims_of(b, out)[-1])
        chunk, used = chunking(b, n, chunks)
        loop, (c, *rows), tid = block_loop(b, [chunks] + rows_shape, (1, n_red) + (1,) * len(rows_shape))
        body, lo, hi = chunk_of(loop, c, chunk, n)
        scalars: dict = {}
        for q, red in enumerate(reductions[:phase]):  # the earlier reductions' values
            init = Elemental(body, inputs, scalars, env).at(red.operands[1], [])
            part, state = of_partials(body, red, init, partials, [body.index(q)], rows, used, tid)
            scalars[red.results[0]] = block_total(body, part, state, tid)[0]
        ix = Ix(body)
        if phase == len(reductions):  # the elements of this chunk of the row
            _, cols, j, _ = body.for_(ix.add(lo, tid), hi, step=BLOCK)
            value = Elemental(cols, inputs, scalars, env).at(ret.operands[0], rows + [j])
            cols.op("memref.store", [value, out] + rows + [j])
            cols.yield_()
        else:
            red = reductions[phase]
            x, init = red.operands
            part = Partial(red, [Elemental(body, inputs, scalars, env).at(init, [])])
            state = fold_range(body, part, lo, hi, tid,
                               lambda fb, j: [Elemental(fb, inputs, scalars, env).at(x, rows + [j])])
            last, (value,) = block_combine(body, part, state, tid, finish=False)
            last.op("memref.store", [value, partials, c, last.index(phase)] + rows)
            last.yield_()
        body.op("gpu.barrier", [])  # the block's next iteration waits until shared memory is read
        body.yield_()
        loop.yield_()
        if phase:
            b.op("func.return", [])


def partials_start_from_identity(target, red: Operation) -> bool:
    """The split's partials hold no init: the body must have an identity to start them from
    (bufferize splits only add, multiply, maximum and minimum, which have)."""
    return body_identity(red) is not None


registry.override("reduce", "split_kernel", emit_split, target="cuda", when=partials_start_from_identity)
