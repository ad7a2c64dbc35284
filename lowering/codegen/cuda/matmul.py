"""The GPU's dot kernel: a tiled shared-memory matmul, one block per output tile, with a
kOutput fusion's elementwise consumers applied to each result before it is stored.

The output of a dot_general is [batch..., lhs free..., rhs free...]. A tile is TILE rows of
the last lhs-free dim by TILE columns of the last rhs-free dim at one index of every other
dim (`aot.tiles`: the host launches one block per tile, `device.emit_entry` strides over
them); SMALL_TILE or TINY_TILE when TILE would give too few blocks for the devices
(`tile_side`), and when even those do, the contraction is split (`k_split`: partial sums,
added by a second kernel). The block's 256 threads form a 16 x 16 square; thread (ty, tx)
owns the 4 x 4 (or 2 x 2, or 1) results
at rows ty + 16 i and columns tx + 16 j, in registers. The contraction runs DEPTH elements at
a time: the block stages a DEPTH x TILE slab of each operand in shared memory (each thread
loading 4 elements of each, consecutive threads reading consecutive elements of the operand's
innermost dim, contracting or free: a transposed operand is transposed in shared memory),
waits at a barrier, accumulates from the slabs, and waits
again before the slabs are refilled. Elements past an edge are staged as zero, so ragged
tiles and dynamic dims need no second kernel. Several contracting dims are one flattened
index, unflattened on each load. Accumulators are f32 for f16/bf16 operands, as on the CPU.

Dots with no free dim on one side (matrix-vector products) keep the loop form, one thread
per output row. Registered as the cuda target's override of dot / dot_general's kernel and
kOutput epilogue. A pure dot that is a strided-batched GEMM (`gemm_form`) goes to cuBLAS
when the runtime finds it; a dot with a fused epilogue stays this one kernel.
"""
from __future__ import annotations

from lowering.codegen.cuda.launch import fills_devices, most_sms
from lowering.ir.builder import Ix, LoopBuilder, buffer_dims, dims_of, element_loop
from lowering.ir.core import (
    INDEX,
    Block,
    FunctionType,
    MemRefType,
    Operation,
    Region,
    ScalarType,
    is_complex,
    is_float,
)
from lowering.ops import registry
from lowering.ops.contraction import dot_general_dims
from lowering.ops.elemental import Elemental, fusion_dims
from lowering.ops.elementwise import Scalars

TILE = 64  # rows and columns of an output tile
SMALL_TILE = 32  # a tile's side when TILE would leave SMs idle (`tile_side`)
TINY_TILE = 16  # when SMALL_TILE would too: a result per thread
DEPTH = 16  # contracting elements staged in shared memory per step
SIDE = 16  # the block's threads as a SIDE x SIDE square (its launch record's block: SIDE * SIDE)
THREADS = SIDE * SIDE
PAD = 1  # words past each shared slab row (`block_product`)
# blocks an SM holds at once (ptxas caps the registers to fit them: 64 per thread): half an
# SM's 2048 thread slots, what the time model takes as loads enough in flight (attention's
# q @ k^T took 80 registers, 3 blocks per SM: 1.6x its floor on an H100)
MIN_BLOCKS = 4
SPLIT_STEPS = 4  # DEPTH slabs a chunk of a split contraction has at least (`k_split`)


def _free_dims(op):
    lb, rb, lc, rc = dot_general_dims(op)
    lhs_t, rhs_t = op.operands[0].type, op.operands[1].type
    lfree = [d for d in range(lhs_t.rank) if d not in lb and d not in lc]
    rfree = [d for d in range(rhs_t.rank) if d not in rb and d not in rc]
    return lfree, rfree


def tiles_dot(target, op) -> bool:
    """Whether the tiled kernel takes this dot: both sides have a free dim, real numbers
    (complex dots are the loop-form kernel)."""
    lfree, rfree = _free_dims(op)
    out_t = op.results[0].type if op.results else op.operands[2].type
    return bool(lfree) and bool(rfree) and out_t.elem != "i1" and not is_complex(out_t.elem)


def _accumulator(out_elem: str) -> str:
    return "f32" if out_elem in ("f16", "bf16") else out_elem


def tile_side(target, rows, cols, count: int = 1) -> int:
    """The largest of TILE, SMALL_TILE, TINY_TILE whose tiles, for `count` products of rows x
    cols all known to the compile, are at least two per SM of the largest device the PTX may
    run on (`launch.most_sms`), else TINY_TILE: the time model takes a kernel with too few
    threads resident as latency-bound, and a block of TILE x TILE (256 threads, 16
    accumulators each) holds an SM alone. (Attention's [8, 8, 256, 64] @v, 256 such tiles,
    counted against an A100's 108 SMs, stayed at TILE: 2.2x its floor on an H100's 132.)"""
    if rows is None or cols is None:
        return TILE
    for side in (TILE, SMALL_TILE):
        if count * -(-rows // side) * -(-cols // side) >= 2 * most_sms():
            return side
    return TINY_TILE


def tile_loop(b: LoopBuilder, out, tiles: tuple):
    """The parallel loop over `out`'s tiles (`tiles`: a size per dim), a block per tile, the
    last dim fastest: its body and the tile's first index along each dim."""
    ix = Ix(b)
    out_dims = buffer_dims(b, out)
    counts = [ix.div(ix.add(n, t - 1), t) for n, t in zip(out_dims, tiles)]
    total = 1
    for c in counts:
        total = ix.mul(total, c)
    loop, body, t, _ = b.for_(b.index(0), ix.val(total))
    loop.attrs["aot.lanes_per_iteration"] = THREADS
    loop.attrs["aot.tiles"] = tuple(tiles)
    if TILE in tiles:  # 16 accumulators a thread (SMALL_TILE's 4 fit anyway)
        loop.attrs["aot.min_blocks_per_sm"] = MIN_BLOCKS
    bx = Ix(body)
    base = [None] * len(tiles)
    for d in reversed(range(len(tiles))):
        base[d] = bx.mul(bx.rem(t, counts[d]), tiles[d]) if d else bx.mul(t, tiles[d])
        t = bx.div(t, counts[d]) if d else t
    return body, base


def block_product(body: LoopBuilder, depth, acc: str, load_a, load_b, a_along_k: bool, b_along_k: bool,
                  tile: int = TILE):
    """The block's `tile` x `tile` product over `depth` contracting elements, DEPTH at a time: the
    block stages a DEPTH x tile slab of each operand in shared memory (each thread loading
    tile * DEPTH / THREADS elements of each; with `*_along_k`, consecutive threads take
    consecutive contracting elements, else consecutive rows or columns), waits at a barrier,
    accumulates from the slabs, and waits again before they are refilled.

    load_a(builder, row, k, k_inside) and load_b(builder, col, k, k_inside) give an operand's
    element as `acc`, zero where outside the operand or where k_inside is false (k itself is
    clamped into [0, depth)). Returns (the loop whose per * per results are thread (ty, tx)'s
    sums at rows ty + SIDE i, columns tx + SIDE j, i and j in [0, per = tile / SIDE); tx; ty)."""
    per = tile // SIDE
    bx = Ix(body)
    tid = body.v("gpu.thread_id", [], INDEX)
    tx, ty = bx.rem(tid, SIDE), bx.div(tid, SIDE)
    # a row of PAD more: staged along k, a warp's stores go to consecutive slab rows, which
    # tile + PAD words apart fall in different shared-memory banks (tile apart, all in one)
    a_slab = body.v("gpu.shared", [], MemRefType((DEPTH, tile + PAD), acc))
    b_slab = body.v("gpu.shared", [], MemRefType((DEPTH, tile + PAD), acc))
    zero = body.const(0, acc)
    steps = bx.div(bx.add(depth, DEPTH - 1), DEPTH)
    kloop, kb, step, accs = body.for_(body.index(0), bx.val(steps), [zero] * (per * per))
    kx = Ix(kb)
    k0 = kx.mul(step, DEPTH)

    def stage(load, slab, along_k):
        for r in range(tile * DEPTH // THREADS):
            e = kx.add(tid, THREADS * r)
            if along_k:
                kk, m = kx.rem(e, DEPTH), kx.div(e, DEPTH)
            else:
                kk, m = kx.div(e, tile), kx.rem(e, tile)
            k = kx.add(k0, kk)
            inside, k = kx.cmp("slt", k, depth), kx.min(k, kx.sub(depth, 1))
            kb.op("memref.store", [load(kb, m, k, inside), slab, kk, m])

    stage(load_a, a_slab, a_along_k)
    stage(load_b, b_slab, b_along_k)
    kb.op("gpu.barrier", [])
    iloop, ib, kk, cur = kb.for_(kb.index(0), kb.index(DEPTH), accs)
    ibx = Ix(ib)
    a = [ib.v("memref.load", [a_slab, kk, ibx.add(ty, SIDE * i)], ScalarType(acc)) for i in range(per)]
    w = [ib.v("memref.load", [b_slab, kk, ibx.add(tx, SIDE * j)], ScalarType(acc)) for j in range(per)]
    mul, add = ("arith.mulf", "arith.addf") if is_float(acc) else ("arith.muli", "arith.addi")
    sums = [ib.v(add, [cur[i * per + j], ib.v(mul, [a[i], w[j]], ScalarType(acc))], ScalarType(acc))
            for i in range(per) for j in range(per)]
    ib.yield_(sums)
    kb.op("gpu.barrier", [])  # the slabs are refilled only when every thread is done with them
    kb.yield_(iloop.results)
    return kloop, tx, ty


def store_tile(body: LoopBuilder, kloop, tx, ty, acc: str, out_elem: str, place, store,
               tile: int = TILE) -> None:
    """Each thread's results, converted to out_elem, through `store(builder, index, value)`
    where `place(ix, row, col)` (a tile row and column in [0, tile)) gives (inside the
    output, the output index)."""
    bx = Ix(body)
    per = tile // SIDE
    for i in range(per):
        for j in range(per):
            inside, at = place(bx, bx.add(ty, SIDE * i), bx.add(tx, SIDE * j))
            _, guarded, _, _ = body.for_(body.index(0), bx.select(inside, 1, 0))
            store(guarded, at, Scalars(guarded).convert(kloop.results[i * per + j], acc, out_elem))
            guarded.yield_()


def _dot_tile(target, dot, shape) -> tuple:
    """(tile side, the tiles of an output of `shape` (None: not known), pm, pn: the output
    dims a tile spans)."""
    lb_, _, _, _ = dot_general_dims(dot)
    lfree, _ = _free_dims(dot)
    pm, pn = len(lb_) + len(lfree) - 1, len(shape) - 1
    count = 1
    for n in shape[:pm]:
        count = None if n is None or count is None else count * n
    tile = tile_side(target, shape[pm] if count is not None else None, shape[pn], count or 1)
    tiles = (None if count is None or shape[pm] is None or shape[pn] is None
             else count * -(-shape[pm] // tile) * -(-shape[pn] // tile))
    return tile, tiles, pm, pn


def k_split(target, dot, shape) -> tuple:
    """(splits, chunk): a dot of known shapes whose tiles are fewer than two per SM of the
    largest device (as `tile_side` counts) is cut along its contraction into `splits` chunks of
    `chunk` elements (a multiple of DEPTH, at least SPLIT_STEPS slabs deep), each a kernel
    block per tile writing partial sums, which a second kernel adds in chunk order. (1, 0):
    not cut. The GPT decoder's matmuls were 32 blocks each, 19.5x their floor on an H100."""
    lhs_t = dot.operands[0].type
    _, _, lc, _ = dot_general_dims(dot)
    depth = 1
    for d in lc:
        depth = None if depth is None or lhs_t.shape[d] is None else depth * lhs_t.shape[d]
    _, tiles, _, _ = _dot_tile(target, dot, shape)
    if tiles is None or depth is None or tiles >= 2 * most_sms():
        return 1, 0  # as many blocks as tile_side's small tiles need, or unknown
    splits = 1
    while splits * DEPTH * SPLIT_STEPS * 2 <= depth and not fills_devices(tiles * splits * THREADS):
        splits *= 2
    chunk = DEPTH * -(-depth // (splits * DEPTH))
    splits = -(-depth // chunk)  # every chunk non-empty
    return (splits, chunk) if splits > 1 else (1, 0)


def emit_tiled(b: LoopBuilder, dot, lhs, rhs, out, store, partial=None, chunk: int = 0) -> None:
    """The tiled kernel of `dot` on buffers lhs, rhs, out; `store(builder, index, value)`
    writes each finished result (of the dot's result type) at its output index. With a
    `partial` buffer [splits, out dims...] (`k_split`), block (s, tile) sums contracting
    elements [s * chunk, (s + 1) * chunk) only, into partial[s] (accumulator type)."""
    lb_, rb_, lc, rc = dot_general_dims(dot)
    lfree, rfree = _free_dims(dot)
    rank = out.type.rank
    nb, nl = len(lb_), len(lfree)
    acc = _accumulator(out.type.elem)
    out_dims = buffer_dims(b, out)
    tile, _, pm, pn = _dot_tile(b.target, dot, out.type.shape)
    tiles = tuple(tile if d in (pm, pn) else 1 for d in range(rank))
    if partial is None:
        body, base = tile_loop(b, out, tiles)
    else:
        body, (split, *base) = tile_loop(b, partial, (1,) + tiles)
    bx = Ix(body)
    k_dims = [buffer_dims(body, lhs)[d] for d in lc]
    depth = 1
    for n in k_dims:
        depth = bx.mul(depth, n)
    k_lo = None
    if partial is not None:
        k_lo = bx.mul(split, chunk)
        depth = bx.min(bx.sub(depth, k_lo), chunk)

    def loader(buf, batch_dims, free_dims, contract_dims, prefix, start, edge):
        """An operand's element at TILE index m of its last free dim from `start` (its other
        free dims at `prefix`) and flat contracting index k (one index per contracting dim)."""
        def load(kb, m, k, k_inside):
            kx = Ix(kb)
            if k_lo is not None:  # a split's chunk of the contraction
                k = kx.add(k, k_lo)
            i = kx.add(start, m)
            inside = kx.and_(kx.cmp("slt", i, edge), k_inside)
            at = [None] * buf.type.rank
            for d, v in zip(batch_dims, base[:nb]):
                at[d] = v
            for d, v in zip(free_dims, prefix + [kx.min(i, kx.sub(edge, 1))]):
                at[d] = v
            idx = []
            for n in reversed(k_dims[1:]):
                idx.append(kx.rem(k, n))
                k = kx.div(k, n)
            for d, v in zip(contract_dims, [k] + idx[::-1]):
                at[d] = v
            x = Scalars(kb).convert(kb.v("memref.load", [buf] + at, ScalarType(buf.type.elem)),
                                    buf.type.elem, acc)
            return kx.select(inside, x, kb.const(0, acc), ScalarType(acc))
        return load

    # each operand staged with consecutive threads along its innermost dim, where its loads
    # coalesce: along k when that dim is its last contracting one (the flat k's fastest), else
    # along its rows or columns (q @ k^T's rhs along k: 13.3 -> 4 sectors per 128 bytes)
    kloop, tx, ty = block_product(
        body, depth, acc, loader(lhs, lb_, lfree, lc, base[nb:pm], base[pm], out_dims[pm]),
        loader(rhs, rb_, rfree, rc, base[nb + nl:pn], base[pn], out_dims[pn]),
        bool(lc) and lc[-1] == lhs.type.rank - 1, bool(rc) and rc[-1] == rhs.type.rank - 1, tile)

    def place(ix, r, c):
        row, col = ix.add(base[pm], r), ix.add(base[pn], c)
        inside = ix.and_(ix.cmp("slt", row, out_dims[pm]), ix.cmp("slt", col, out_dims[pn]))
        return inside, [row if d == pm else col if d == pn else base[d] for d in range(rank)]
    if partial is not None:
        store_tile(body, kloop, tx, ty, acc, acc, place,
                   lambda ob, at, v: ob.op("memref.store", [v, partial, split] + at), tile)
    else:
        store_tile(body, kloop, tx, ty, acc, out.type.elem, place, store, tile)
    body.yield_()


def emit_split_sum(b: LoopBuilder, partial, out, out_elem: str, store) -> None:
    """The second kernel of a split contraction: out[i] = partial[0][i] + partial[1][i] + ...
    (in split order, so the result does not depend on scheduling), converted to out_elem,
    through `store(builder, index, value)`; a thread per output element."""
    acc = partial.type.elem
    body, at = element_loop(b, buffer_dims(b, out))
    first = body.v("memref.load", [partial, body.index(0)] + at, ScalarType(acc))
    add = "arith.addf" if is_float(acc) else "arith.addi"
    loop, lb, s, (cur,) = body.for_(body.index(1), body.index(partial.type.shape[0]), [first])
    lb.yield_([lb.v(add, [cur, lb.v("memref.load", [partial, s] + at, ScalarType(acc))], ScalarType(acc))])
    store(body, at, Scalars(body).convert(loop.results[0], acc, out_elem))
    body.yield_()


GEMM_TYPES = ("f16", "bf16", "f32", "f64")  # what the runtime's cuBLAS call takes


def gemm_form(dot):
    """(lhs transposed, rhs transposed) when the dot is a strided-batched GEMM cuBLAS can
    run: the same leading batch dims on both sides, then one free and one contracting dim
    each, one float type throughout; else None."""
    lb, rb, lc, rc = dot_general_dims(dot)
    lhs_t, rhs_t = dot.operands[0].type, dot.operands[1].type
    out_t = dot.results[0].type if dot.results else dot.operands[2].type
    nb = len(lb)
    if (list(lb) != list(range(nb)) or list(rb) != list(range(nb)) or lhs_t.rank != nb + 2
            or rhs_t.rank != nb + 2 or len(lc) != 1 or len(rc) != 1
            or not lhs_t.elem == rhs_t.elem == out_t.elem or out_t.elem not in GEMM_TYPES):
        return None
    return int(lc[0] == nb), int(rc[0] == nb + 1)


def emit_tiled_dot(k, op, b: LoopBuilder, args: list):
    lhs, rhs, out = args
    emit_tiled(b, op, lhs, rhs, out, lambda ob, at, v: ob.op("memref.store", [v, out] + at))


def split_calls(k, op, dot, call) -> list:
    """The host ops of a dot kernel cut along its contraction (`k_split`), else [call]: a
    partial-sum buffer allocated, the kernel of `call` emitted again over the buffers and
    the partials (block per tile and split), a second kernel adding the partials into the
    output (through a kOutput fusion's epilogue), the partials freed."""
    fusion = op.key == "fusion"
    region_block = op.regions[0].blocks[0] if fusion else None
    n_in = len(region_block.args) if fusion else 2
    buffers = list(op.operands)  # every run-time dim, as `blas_call`'s
    out = buffers[n_in]
    if fusion and (not all(isinstance(v.owner, Block) for v in dot.operands)
                   or dot.results[0].type.shape != out.type.shape):
        return [call]  # an operand computed in the fusion, or a product of another shape
    splits, chunk = k_split(k.target, dot, out.type.shape)
    if splits == 1:
        return [call]
    host = LoopBuilder(Block(), op.loc, k.target)
    partial = host.v("memref.alloc", [], MemRefType((splits,) + tuple(out.type.shape),
                                                     _accumulator(out.type.elem)))
    fn = next(f for f in k.kernels if f.attrs["sym_name"] == call.attrs["callee"].name)
    block = Block([v.type for v in buffers] + [partial.type])  # the kernel, emitted again
    fn.regions[0].blocks[0], block.parent = block, fn.regions[0]
    fn.attrs["function_type"] = FunctionType(tuple(a.type for a in block.args), ())
    fn.attrs.pop("aot.aliased", None)
    if len(set(buffers)) < len(buffers):  # an in-place result or a repeated dim: arguments alias
        first = {}
        aliased = tuple(first.setdefault(v, i) for i, v in enumerate(buffers))
        fn.attrs["aot.aliased"] = aliased + (len(buffers),)
    eb = LoopBuilder(block, op.loc, k.target)
    args = list(block.args)
    ins = dict(zip(region_block.args, args[:n_in])) if fusion else None
    lhs, rhs = (ins[v] for v in dot.operands) if fusion else args[:2]
    emit_tiled(eb, dot, lhs, rhs, args[n_in], None, args[-1], chunk)
    eb.op("func.return", [])
    # its call as a dot's whose output is its last operand, the partials (the loop covers them)
    stand_in = Operation("lmhlo.dot_general", buffers + [partial], [], loc=op.loc)
    host.block.append(k.new_call(stand_in, fn, buffers + [partial]))
    stand_in.drop_uses()
    call.drop_uses()  # replaced
    sum_fn, sb, args = k.new_kernel(op, buffers + [partial])
    if fusion:
        ins = dict(zip(region_block.args, args[:n_in]))
        env = fusion_dims(sb, region_block, ins, args[op.attrs.get("num_buffers", len(buffers)):-1])
        store = epilogue_store(region_block, dot, ins, args[n_in], env)
    else:
        store = lambda ob, at, v: ob.op("memref.store", [v, args[n_in]] + at)  # noqa: E731
    emit_split_sum(sb, args[-1], args[n_in], dot.results[0].type.elem if fusion else out.type.elem, store)
    sb.op("func.return", [])
    host.block.append(k.new_call(op, sum_fn, buffers + [partial]))
    host.op("memref.dealloc", [partial])
    return host.block.ops


def blas_call(k, op, dot, call) -> list:
    """The host ops that run a dot kernel's work through cuBLAS when the runtime has it, and
    launch the generated kernel (`call`, or its split form: `split_calls`) when not: a pure
    dot's GEMM writes its output; a kOutput fusion's GEMM writes a temporary of the product,
    which a second kernel reads through the fused epilogue into the output."""
    # the kernel op's buffers and every run-time dim, as the kernels made here read them
    # (`call` may have lost a repeated dim: loops.drop_repeated_dims; it is dropped when split)
    operands = list(op.operands)
    own_ops = split_calls(k, op, dot, call)
    form = gemm_form(dot)
    if op.key == "fusion":
        region_block = op.regions[0].blocks[0]
        n_in = len(region_block.args)
        product_t = dot.results[0].type
        out = operands[n_in]
        if (form is None or not all(isinstance(v.owner, Block) for v in dot.operands)
                or product_t.shape != out.type.shape):
            return own_ops  # an operand computed in the fusion, or a product of another shape
        lhs, rhs = (operands[region_block.args.index(v)] for v in dot.operands)
    else:
        if form is None:
            return own_ops
        lhs, rhs, out = operands[:3]
    host = LoopBuilder(Block(), op.loc, k.target)
    attrs = {"aot.transposed": form}
    takes = host.v("gpu.blas_gemm_takes", [lhs, rhs, out], INDEX, **attrs)
    own = LoopBuilder(Block(), op.loc, k.target)  # case 0: the generated kernel
    for o in own_ops:
        own.block.append(o)
    own.yield_()
    blas = LoopBuilder(Block(), op.loc, k.target)  # case 1: cuBLAS
    if op.key != "fusion":
        blas.op("gpu.blas_gemm", [lhs, rhs, out], attrs=attrs)
    else:
        dims = [blas.v("memref.dim", [out, blas.index(d)], INDEX)
                for d, n in enumerate(out.type.shape) if n is None]
        product = blas.v("memref.alloc", dims, MemRefType(product_t.shape, product_t.elem))
        blas.op("gpu.blas_gemm", [lhs, rhs, product], attrs=attrs)
        buffers = list(operands) + [product]
        fn, eb, args = k.new_kernel(op, buffers)
        emit_epilogue_of_product(eb, op, dot, args)
        eb.op("func.return", [])
        blas.block.append(k.new_call(op, fn, buffers))
        blas.op("memref.dealloc", [product])
    blas.yield_()
    host.op("aot.switch", [takes], regions=[Region([own.block]), Region([blas.block])])
    return host.block.ops


def emit_epilogue_of_product(b: LoopBuilder, op, dot, args: list):
    """A kOutput fusion's epilogue over its dot's product, already in the last buffer: one
    iteration per output element (`aot.tiles` of ones), like an elementwise kernel."""
    region_block = op.regions[0].blocks[0]
    n_in = len(region_block.args)
    n_buf = op.attrs.get("num_buffers", len(args) - 1)
    inputs = dict(zip(region_block.args, args[:n_in]))
    out, product = args[n_in], args[-1]
    env = fusion_dims(b, region_block, inputs, args[n_buf:-1])
    body, at = element_loop(b, dims_of(b, out))
    value = body.v("memref.load", [product] + at, ScalarType(product.type.elem))
    e = Elemental(body, inputs, {dot.results[0]: value}, env)
    body.op("memref.store", [e.at(region_block.ops[-1].operands[0], at), out] + at)
    body.yield_()


def emit_tiled_epilogue(b: LoopBuilder, region_block, inputs: dict, out, env: dict):
    """A kOutput fusion: each result goes through the fused consumers (which read the product
    only at the result's own index, fusion.joins_as_output) on its way to memory."""
    dot = next(o for o in region_block.ops if o.key in ("dot_general", "dot"))
    lhs, rhs = (inputs[v] for v in dot.operands)
    emit_tiled(b, dot, lhs, rhs, out, epilogue_store(region_block, dot, inputs, out, env))


def epilogue_store(region_block, root_op, inputs: dict, out, env: dict):
    """The store of a kOutput fusion's tiled kernel (dot or convolution): the value `root_op`
    computed at `at` goes through the fused consumers to the fusion's root, then to `out`."""
    product, root_value = root_op.results[0], region_block.ops[-1].operands[0]

    def store(ob, at, value):
        e = Elemental(ob, inputs, {product: value}, env)
        ob.op("memref.store", [e.at(root_value, at), out] + at)
    return store


for _name in ("dot_general", "dot"):
    registry.override(_name, "kernel", emit_tiled_dot, target="cuda", when=tiles_dot)
    registry.override(_name, "epilogue", emit_tiled_epilogue, target="cuda", when=tiles_dot)
    registry.override(_name, "library_call", blas_call, target="cuda", when=tiles_dot)
