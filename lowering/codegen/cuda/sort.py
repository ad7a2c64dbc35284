"""The GPU's sort and top_k: a block per segment, a bitonic network over a permutation.

A segment is one index of every dim but the sort dimension (a row, for top_k). The kernel's
parallel loop runs over segments, each iteration belonging to a whole block of 256 threads
(`aot.lanes_per_iteration`; `aot.tiles` = 1 along every other dim and one tile spanning
the output's sort dim, so the host launches one block per segment, up to its limit).

The block sorts a permutation of the segment's positions, not the operands: perm[i] = i,
then a bitonic network over the segment padded to the next power of two P, then every
operand gathered through the permutation. The network is the one whose comparators all put
the smaller element at the lower position (each merge starts by comparing i with its mirror
i ^ (2j - 1), then halves by i ^ j), so padding is by index: a comparator whose upper
position is past the end is skipped, which is what comparing with +infinity would do, and
an element past the end never moves forward; no sentinel value is needed for any type or
comparator. Each of the log2(P) (log2(P) + 1) / 2 steps gives thread t the comparators t,
t + 256, ... and ends at a barrier. "Smaller" is the comparator's order with ties (neither
element before the other) broken by position, a strict total order: the result is the
stable order whatever `is_stable` says (unstable allows it), so it is bit-exact with the
CPU's merge sort (lowering/ops/sort.py), NaNs where the comparator puts them.

The permutation lives in global memory, a scratch buffer of i32 of the operands' shape (a
segment has fewer than 2^31 elements, checked at run time), not in shared memory: segments
have any length, dynamic ones included, and shared memory is static and at most 48 KB per
block, so it would need a second kernel for long segments and still could not stage the
operands (any number, any type, read by an arbitrary comparator). One global path covers
every case; a segment's working set stays in L1/L2 across the steps, and the operands are
only read (through the permutation) until the final gather writes each output once.

top_k runs the same network, descending (floats in total order) with ties by lower index,
and gathers the first k positions: the network's cost does not depend on k, where a
per-row selection would cost O(n k) or per-thread heaps and a merge, for any k up to n.

Its one scratch buffer, the permutation, follows the n results (sort's `writes` rule counts
the scratch the target asked for).
"""
from __future__ import annotations

from lowering.ir.builder import Ix, buffer_dims
from lowering.ir.core import INDEX, ScalarType, TensorType
from lowering.ops import registry
from lowering.ops.elemental import apply_region
from lowering.ops.elementwise import Scalars
from lowering.ops.sort import sort_dimension, top_k_direction

THREADS = 256  # a block per segment (its launch record's block: these threads)
PERM = "i32"
SPAN = 1 << 62  # a tile length covering any dynamic sort dim: one tile (one block) along it


def _perm_type(shape):
    return TensorType(tuple(shape), PERM)


def _check_length(hs, n, op):
    if hs is not None:
        hs.require("slt", n, 1 << 31, op, "the cuda sort takes segments of fewer than 2^31 elements")


def _sort_scratch(op, shapes, hs=None, results=None):
    """The permutation."""
    t = op.operands[0].type
    _check_length(hs, shapes[0][sort_dimension(op, t.rank)], op)
    return [(_perm_type(t.shape), list(shapes[0]))]


def _top_k_scratch(op, shapes, hs=None, results=None):
    t = op.operands[0].type
    _check_length(hs, shapes[0][-1], op)
    return [(_perm_type(t.shape), list(shapes[0]))]


def sort_segments(b, dims: list, dim: int, perm, before, gather, count=None) -> None:
    """The kernel: for each segment along `dim` of a tensor of `dims`, sort `perm` (a buffer
    of that shape) by `before(builder, at_x, at_y)` (i1: the element at full index at_x goes
    strictly before the one at at_y), then `gather(builder, at, at_source)` for each of the
    first `count` (default: all) positions of the segment, at_source being the index of the
    element sorted there."""
    rank = len(dims)
    others = [d for d in range(rank) if d != dim]
    ix = Ix(b)
    total = 1
    for d in others:
        total = ix.mul(total, dims[d])
    loop, body, seg, _ = b.for_(b.index(0), ix.val(total))
    loop.attrs["aot.lanes_per_iteration"] = THREADS
    out_len = dims[dim] if count is None else count  # the parallel output's sort dim: one tile
    span = max(out_len, 1) if isinstance(out_len, int) else SPAN
    loop.attrs["aot.tiles"] = tuple(span if d == dim else 1 for d in range(rank))
    x = Ix(body)
    base = [None] * rank
    for d in reversed(others):  # this iteration's segment, the last dim fastest
        base[d] = x.rem(seg, dims[d]) if d != others[0] else seg
        seg = x.div(seg, dims[d]) if d != others[0] else seg

    def at(pos):
        idx = list(base)
        idx[dim] = pos
        return idx

    def load_perm(bb, pos):
        p = bb.v("memref.load", [perm] + at(pos), ScalarType(PERM))
        return bb.v("arith.index_cast", [p], INDEX)

    tid = body.v("gpu.thread_id", [], INDEX)
    n = x.val(dims[dim])
    _, ib, i, _ = body.for_(tid, n, step=THREADS)
    ib.op("memref.store", [ib.v("arith.index_cast", [i], ScalarType(PERM)), perm] + at(i))
    ib.yield_()
    body.op("gpu.barrier", [])

    # levels = ceil(log2 n): stage s (1..levels) merges runs of 2^s, in s steps
    if isinstance(dims[dim], int):
        levels = body.index((max(dims[dim], 1) - 1).bit_length())
    else:
        clz = body.v("math.ctlz", [x.sub(x.max(n, 1), 1)], INDEX)
        levels = x.sub(64, clz)
    half = body.v("arith.shrui", [x.shl(1, levels), body.index(1)], INDEX)  # P / 2 comparators
    _, sb, s, _ = body.for_(body.index(1), x.add(levels, 1))
    _, rb, r, _ = sb.for_(sb.index(0), s)
    rx = Ix(rb)
    j = rx.shl(1, rx.sub(rx.sub(s, 1), r))  # the step's distance
    flip = rx.cmp("eq", r, 0)  # a merge's first step compares with the mirror position
    mask = rx.select(flip, rx.sub(rx.shl(j, 1), 1), j)
    _, mb, m, _ = rb.for_(tid, half, step=THREADS)
    mx = Ix(mb)
    lo = mx.sub(mx.shl(m, 1), mb.v("arith.andi", [m, mx.sub(j, 1)], INDEX))  # bit t of lo clear
    hi = mb.v("arith.xori", [lo, mask], INDEX)
    _, gb, _, _ = mb.for_(mb.index(0), mx.select(mx.cmp("slt", hi, n), 1, 0))
    gx = Ix(gb)
    a, c = load_perm(gb, lo), load_perm(gb, hi)
    swap = gx.or_(before(gb, at(c), at(a)),
                  gx.and_(gx.not_(before(gb, at(a), at(c))), gx.cmp("slt", c, a)))
    for pos, first, second in ((lo, c, a), (hi, a, c)):
        v = gb.v("arith.index_cast", [gx.select(swap, first, second)], ScalarType(PERM))
        gb.op("memref.store", [v, perm] + at(pos))
    gb.yield_()
    mb.yield_()
    rb.op("gpu.barrier", [])
    rb.yield_()
    sb.yield_()

    _, ob, i, _ = body.for_(tid, n if count is None else x.val(count), step=THREADS)
    gather(ob, at(i), at(load_perm(ob, i)))
    ob.yield_()
    body.yield_()


def emit_sort(k, op, b, args: list):
    n = (len(args) - 1) // 2  # inputs, results, the permutation
    ins, outs, perm = args[:n], args[n:2 * n], args[2 * n]
    dims = buffer_dims(b, ins[0])
    region = op.regions[0]

    def load(bb, buf, idx):
        return bb.v("memref.load", [buf] + idx, ScalarType(buf.type.elem))

    def before(bb, at_x, at_y):
        xs, ys = [load(bb, v, at_x) for v in ins], [load(bb, v, at_y) for v in ins]
        return apply_region(bb, region, [v for pair in zip(xs, ys) for v in pair])[0]

    def gather(bb, at, src):
        for v, out in zip(ins, outs):
            bb.op("memref.store", [load(bb, v, src), out] + at)

    sort_segments(b, dims, sort_dimension(op, len(dims)), perm, before, gather)


def emit_top_k(k, op, b, args: list):
    x, *_, values, indices, perm = args  # (x, k if an operand, results, the permutation)
    elem, idx_elem = x.type.elem, indices.type.elem
    dims = buffer_dims(b, x)
    kind = "TOTALORDER" if elem in ("f16", "bf16", "f32", "f64") else None

    def before(bb, at_x, at_y):  # descending (ascending for the k smallest)
        vx, vy = (bb.v("memref.load", [x] + a, ScalarType(elem)) for a in (at_x, at_y))
        return Scalars(bb).compare(vx, vy, elem, top_k_direction(op), kind)

    def gather(bb, at, src):
        bb.op("memref.store", [bb.v("memref.load", [x] + src, ScalarType(elem)), values] + at)
        bb.op("memref.store", [bb.v("arith.index_cast", [src[-1]], ScalarType(idx_elem)), indices] + at)

    sort_segments(b, dims, len(dims) - 1, perm, before, gather, count=buffer_dims(b, values)[-1])


for _name, _kernel, _scratch in (("sort", emit_sort, _sort_scratch), ("top_k", emit_top_k, _top_k_scratch)):
    registry.override(_name, "kernel", _kernel, target="cuda")
    registry.override(_name, "scratch", _scratch, target="cuda")
    registry.override(_name, "parallel", True, target="cuda")
