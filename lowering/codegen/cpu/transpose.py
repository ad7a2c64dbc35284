"""The CPU's transpose that moves the last dim: `aot.transpose(src, dst)`, in register tiles.

Element by element, a transpose that moves the innermost dim reads its input (or writes its
output) with a stride: [32, 128, 32, 32] NCHW -> NHWC took 12.2 ms on one core against ~2 ms
of memory traffic. Here the input's last dim P and the dim L that becomes the output's last
are cut into VEC x VEC tiles: VEC vectors loaded along the input's contiguous dim, transposed
in registers (gemm._transpose: log2 VEC rounds of shuffles), stored as VEC vectors along the
output's. A task is one block of VEC positions of P (and L_CHUNK of L) at one index of the
other dims, so any shape splits over threads across its whole iteration space ([1, N, M]
too). Elements move as integers of their width (bf16, f32, i8 ... alike). Dims that stay
neighbours are merged first, and static extents and strides are constants in the task,
run-time ones read from its slots. A kLoop fusion h(transpose(x)) with h elementwise (one
tensor operand besides constants) comes here too, h applied in place to each task's rows.
Used by loops.emit_fusion (the rule registered below) and by conv_gemm's NCHW copies.
One AVX2 core, f32: [32, 128, 32, 32] NCHW -> NHWC 12.2 -> 2.6 ms, [4096, 1024]^T 30 -> 2.7
(XLA 3.9 and 5.6; benchmarks/results/2026-11-29-transpose-2.md).
"""
from __future__ import annotations

import math

from llvmlite import ir

from lowering.codegen.cpu.gemm import _for
from lowering.codegen.cpu.gemm import _transpose as _transpose_block
from lowering.codegen.cpu.host import PARALLEL_MIN_ELEMENTS
from lowering.codegen.llvm.types import SUB_BYTE, MemRef
from lowering.ir.builder import LoopBuilder, dims_of
from lowering.ir.core import INDEX, Block, Operation, Region, ScalarType, is_complex, numpy_dtype
from lowering.ops import registry
from lowering.ops.elemental import Elemental

I64, PTR, VOID = ir.IntType(64), ir.PointerType(), ir.VoidType()
MAX_VEC = 8  # tile side: 8 x 8 f32 fills AVX2's registers; wider ones would spill
# A task covers at most this many positions of L: the L_CHUNK input rows it reads from are
# read again by the next task (the next VEC positions of P) while still in the cache and
# the TLB. Whole, [4096, 1024] -> [1024, 4096] read 4096 rows (pages) a task: 5.5 ms
L_CHUNK = 256


def _chunk(b, n_p, vec: int):
    """Positions of L a task covers: L_CHUNK, more when P has fewer than VEC positions (a
    task's elements stay L_CHUNK x VEC): with `?` dims, [N, 1] -> [1, N] ran 4096 tasks of
    256 elements, their set-up a third of the time."""
    if isinstance(n_p, ir.Constant):
        return ir.Constant(I64, L_CHUNK * vec // max(1, min(n_p.constant, vec)))
    rows = b.select(b.icmp_unsigned("<", n_p, ir.Constant(I64, vec)), n_p, ir.Constant(I64, vec))
    rows = b.select(b.icmp_unsigned(">", rows, ir.Constant(I64, 0)), rows, ir.Constant(I64, 1))
    return b.udiv(ir.Constant(I64, L_CHUNK * vec), rows)


def element_bytes(elem: str) -> int:
    if elem in SUB_BYTE:
        return 1
    if is_complex(elem):
        return 0  # (complex<f32> would move as i64; not needed so far)
    return numpy_dtype(elem).itemsize


def tile(target, elem: str) -> int:
    """The tile side for `elem` on `target` (0: no vector registers, or an element kind the
    tiles do not move): vectors of at most the target's width, at most MAX_VEC lanes."""
    size = element_bytes(elem)
    if target.vector_bytes < 16 or size not in (1, 2, 4, 8):
        return 0
    return min(MAX_VEC, target.vector_bytes // size)


def tiled(target, op: Operation) -> bool:
    """Whether a transpose moves its operand's last dim and is done in tiles: not when the
    element has no tile width, nor where one of the two swapped dims (merged with the
    neighbours that move with it) is static and narrower than a tile (loops.element_order
    walks such a dim innermost)."""
    x, perm = op.operands[0].type, list(op.attrs["permutation"])
    vec = tile(target, x.elem)
    if not vec or perm[-1] == len(perm) - 1:
        return False
    groups, order = merged(tuple(perm))
    sizes = [[x.shape[d] for d in group] for group in (groups[-1], groups[order[-1]])]
    return all(None in ns or math.prod(ns) >= vec for ns in sizes)


def emit_tiled(b, region_block: Block, op: Operation, inputs: dict, out, env: dict):
    """The loop stage's form of a kLoop fusion out = h(transpose(g(x)), ...) (loops.emit_fusion)
    whose one transpose `op` is tiled: `aot.transpose(x, out, captured...)`, which
    emit_transpose spells out in LLVM. The tiles move x itself; g (elementwise producers of x,
    their other operands broadcasts or constants) and h (the elementwise consumers, any other
    operands) are the region, which each task runs in place on the output rows it has just
    written (in cache): at output index o, x's element at the transposed index is out[o].
    The region's arguments: an output row (flat over all dims but the last) and the range
    [lo, hi) of its last dim; the kernel values it reads are aot.transpose's operands after
    out. False (the element loop) for any other fusion: x read elsewhere than through g, g
    mixing x with another tensor of its shape, another element type in x than in out, an
    output whose last dim is `?` or narrower than a tile (the region's rows)."""
    ret = region_block.ops[-1]
    if len(ret.operands) != 1 or out in inputs.values():
        return False
    path, v = [], op.operands[0]  # g's values, from the transpose's operand back to x
    while v not in inputs:
        if not isinstance(v.owner, Operation) or not registry.is_kind(v.owner.key, "elementwise"):
            return False
        path.append(v)
        main = [u for u in v.owner.operands if not _side(u, inputs)]
        if len(main) != 1 or main[0].type.shape != v.type.shape:
            return False
        v = main[0]
    x = v
    uses = [u for o in region_block.ops for u in o.operands]
    if x.type.elem != out.type.elem or any(uses.count(u) != 1 for u in path + [x]):
        return False
    # h: each op that reads the transpose's result, directly or not, is elementwise on the
    # output's shape (a broadcast after it, torch's expand of a transposed weight over a `?`
    # batch, writes elements the tiles never move: they were left unwritten)
    shape, moved_values = ret.operands[0].type.shape, {op.results[0]}
    if op.results[0].type.shape != shape:
        return False
    for o in region_block.ops[:-1]:
        if any(u in moved_values for u in o.operands):
            if not registry.is_kind(o.key, "elementwise") or o.results[0].type.shape != shape:
                return False
            moved_values.update(o.results)
    attrs = {"permutation": tuple(op.attrs["permutation"])}
    if ret.operands[0] is op.results[0] and not path:
        b.op("aot.transpose", [inputs[x], out], attrs=attrs)
        return None
    width = out.type.shape[-1]
    if width is None or width < tile(b.target, x.type.elem):
        return False  # the region's rows could be 1 long: [?, 1] took 5.9 ms a 1M (2.1 before)
    block = Block([INDEX] * 3)
    rb = LoopBuilder(block, b.loc, b.target)
    row, lo, hi = block.args
    dims = dims_of(rb, out)[:-1]
    prefix = []
    for d in reversed(dims[1:]):
        prefix.insert(0, rb.v("arith.remui", [row, d], INDEX))
        row = rb.v("arith.divui", [row, d], INDEX)
    prefix = [row] + prefix if dims else []
    _, body, last, _ = rb.for_(lo, hi)
    idx = prefix + [last]
    moved = body.v("memref.load", [out] + idx, ScalarType(out.type.elem))
    value = Elemental(body, inputs, scalars={x: moved}, dims=env).at(ret.operands[0], idx)
    body.op("memref.store", [value, out] + idx)
    body.yield_()
    rb.yield_()
    ops = [inner for o in block.ops for inner in o.walk()]
    inside = {r for o in ops for r in o.results} | set(block.args)
    inside |= {a for o in ops for r in o.regions for k in r.blocks for a in k.args}
    captured = []
    for o in ops:
        for u in o.operands:
            if u not in inside and u not in captured:
                captured.append(u)
    b.op("aot.transpose", [inputs[x], out] + captured, attrs=attrs, regions=[Region([block])])
    return None


def _side(v, inputs: dict) -> bool:
    """A value g reads beside x: constants and broadcasts, and elementwise ops of them."""
    op = v.owner
    if v in inputs or not isinstance(op, Operation):
        return False
    if op.key in ("constant", "broadcast_in_dim", "dynamic_broadcast_in_dim", "broadcast"):
        return True
    return registry.is_kind(op.key, "elementwise") and all(_side(u, inputs) for u in op.operands)


def merged(perm: tuple) -> tuple:
    """(groups, permutation of the groups): input dims that stay neighbours in the output
    (perm holds d, d + 1 side by side) are one dim."""
    groups = [[perm[0]]]
    for d in perm[1:]:
        if d == groups[-1][-1] + 1:
            groups[-1].append(d)
        else:
            groups.append([d])
    order = sorted(range(len(groups)), key=lambda k: groups[k][0])
    return [groups[k] for k in order], tuple(order.index(k) for k in range(len(groups)))


def emit_transpose(g, b, op, args) -> None:
    """dst = transpose(src, `permutation`) with the task of _task, on the thread pool when
    there are PARALLEL_MIN_ELEMENTS elements or more."""
    src, dst = args[:2]
    elem = op.operands[0].type.elem
    static_out = op.operands[1].type.shape
    static = op.operands[0].type.shape
    dims = [ir.Constant(I64, n) if n is not None else src.dims[d] for d, n in enumerate(static)]
    groups, perm = merged(tuple(op.attrs["permutation"]))
    ext = []
    for group in groups:
        e = dims[group[0]]
        for d in group[1:]:
            e = _mul(b, e, dims[d])
        ext.append(e)
    rank = len(ext)
    in_stride = _row_major(b, ext)
    out_stride = _row_major(b, [ext[d] for d in perm])
    p = perm.index(rank - 1)  # where the input's last dim goes
    outer = [i for i in range(rank - 1) if i != p]  # the output's other dims, in its order
    # slots: P, L, L's input stride, P's output stride, then (extent, input stride, output
    # stride) per outer dim
    values = [ext[rank - 1], ext[perm[-1]], in_stride[perm[-1]], out_stride[p]]
    for i in outer:
        values += [ext[perm[i]], in_stride[perm[i]], out_stride[i]]
    # the region's row segments: positions of L are rows of the output's last dim
    values.append(ir.Constant(I64, static_out[-1]) if static_out[-1] is not None else dst.dims[-1])
    captured = []  # the kernel values the region reads: buffers as pointer and dims
    for x in args[2:]:
        captured += [b.ptrtoint(x.ptr, I64)] + list(x.dims) if isinstance(x, MemRef) else [x]
    region = (op.regions[0].blocks[0], op.operands[2:], args[2:]) if op.regions else None
    task = _task(g, b.function.name + ".transpose", tile(g.target, elem), elem, values,
                 len(outer), region)
    slots = [b.ptrtoint(src.ptr, I64), b.ptrtoint(dst.ptr, I64)] + values + captured
    with b.goto_entry_block():
        b.position_at_start(b.function.entry_basic_block)
        ctx = b.alloca(I64, size=ir.Constant(I64, len(slots)))
    for k, v in enumerate(slots):
        b.store(v, b.gep(ctx, [ir.Constant(I64, k)], inbounds=True, source_etype=I64))
    vec = tile(g.target, elem)
    tasks = _mul(b, _ceil_div(b, ext[rank - 1], vec),
                 _ceil_div_by(b, ext[perm[-1]], _chunk(b, ext[rank - 1], vec)))
    total = ext[rank - 1]
    for i in outer:
        tasks = _mul(b, tasks, ext[perm[i]])
        total = _mul(b, total, ext[perm[i]])
    total = _mul(b, total, ext[perm[-1]])
    ctx = b.bitcast(ctx, PTR)
    if not g.target.threads:
        b.call(task, [ctx, ir.Constant(I64, 0), tasks])
        return
    parallel_for = g.declare("aot_parallel_for", VOID, [I64, PTR, PTR])
    big = b.icmp_signed(">=", total, ir.Constant(I64, PARALLEL_MIN_ELEMENTS))
    with b.if_else(big) as (threaded, serial):
        with threaded:
            b.call(parallel_for, [tasks, task, ctx])
        with serial:
            b.call(task, [ctx, ir.Constant(I64, 0), tasks])


def _task(g, name: str, vec: int, elem: str, values: list, n_outer: int, region) -> ir.Function:
    """void task(ctx, begin, end): tasks [begin, end), task t the VEC positions from
    (t mod blocks) * VEC of the input's last dim P, L_CHUNK of L, at an index of the outer
    dims (t row-major over outer dims, L's chunks, P's blocks): whole tiles in registers
    (P's last, partial block too: its loads masked, only its rows stored; a single row as a
    strided loop), L's tail element by element; then the region `h` (if any) in place on
    what the task wrote. `values` that are constants stay so."""
    f = ir.Function(g.mod, ir.FunctionType(VOID, [PTR, I64, I64]),
                    name=g.mod.get_unique_name(name))
    f.linkage = "internal"
    ctx, begin, end = f.args
    b = ir.IRBuilder(f.append_basic_block("entry"))

    def slot(k):
        if k >= 2 and isinstance(values[k - 2], ir.Constant):
            return values[k - 2]
        return b.load(b.gep(ctx, [ir.Constant(I64, k)], inbounds=True, source_etype=I64), typ=I64)
    size = element_bytes(elem)
    et = ir.IntType(8 * size)
    vt = ir.VectorType(et, vec)
    masked_load = g.intrinsic(f"llvm.masked.load.v{vec}i{8 * size}.p0", vt,
                              [PTR, ir.IntType(32), ir.VectorType(ir.IntType(1), vec), vt])
    src0, dst0 = (b.inttoptr(slot(k), PTR) for k in (0, 1))
    n_p, n_l, s_l, t_p = (slot(k) for k in (2, 3, 4, 5))
    outer = [tuple(slot(6 + 3 * i + k) for k in range(3)) for i in range(n_outer)]
    w0 = slot(6 + 3 * n_outer)  # the output's last dim
    captured = {}  # the region's kernel values, from the slots after values
    at_slot = 2 + len(values)
    for v, x in zip(*region[1:]) if region else ():
        if isinstance(x, MemRef):
            ptr = b.inttoptr(b.load(b.gep(ctx, [ir.Constant(I64, at_slot)], inbounds=True,
                                          source_etype=I64), typ=I64), PTR)
            dims = [b.load(b.gep(ctx, [ir.Constant(I64, at_slot + 1 + d)], inbounds=True,
                                 source_etype=I64), typ=I64) for d in range(len(x.dims))]
            captured[v] = MemRef(ptr, dims, x.elem)
            at_slot += 1 + len(x.dims)
        else:
            captured[v] = b.load(b.gep(ctx, [ir.Constant(I64, at_slot)], inbounds=True,
                                       source_etype=I64), typ=I64)
            at_slot += 1
    c = lambda n: ir.Constant(I64, n)  # noqa: E731
    blocks = _ceil_div(b, n_p, vec)
    chunk = _chunk(b, n_p, vec)
    chunks = _ceil_div_by(b, n_l, chunk)

    def at(base, offset, t):
        return b.gep(base, [offset], inbounds=True, source_etype=t)

    def element(src, dst, pos, l_pos):  # dst[pos, l] = src[l, pos]
        v = b.load(at(src, b.add(b.mul(l_pos, s_l), pos), et), typ=et, align=size)
        b.store(v, at(dst, b.add(b.mul(pos, t_p), l_pos), et), align=size)
    with _for(b, begin, end, "tt") as t:
        pb = b.urem(t, blocks)
        rest = b.udiv(t, blocks)
        l_lo = b.mul(b.urem(rest, chunks), chunk)
        rest = b.udiv(rest, chunks)
        l_end = b.add(l_lo, chunk)
        l_hi = b.select(b.icmp_signed("<", l_end, n_l), l_end, n_l)
        whole_l = b.add(l_lo, b.mul(b.sdiv(b.sub(l_hi, l_lo), c(vec)), c(vec)))
        s_base, d_base = c(0), c(0)
        for n, ss, ds in reversed(outer):
            digit = b.urem(rest, n)
            rest = b.udiv(rest, n)
            s_base = b.add(s_base, b.mul(digit, ss))
            d_base = b.add(d_base, b.mul(digit, ds))
        src, dst = at(src0, s_base, et), at(dst0, d_base, et)
        p0 = b.mul(pb, c(vec))
        whole = b.icmp_signed("<=", b.add(p0, c(vec)), n_p)
        p_hi = b.select(whole, b.add(p0, c(vec)), n_p)

        def tiles(mask):  # VEC rows of L at a time; P's partial block masked to p_hi - p0
            with _for(b, c(0), b.sdiv(b.sub(whole_l, l_lo), c(vec)), "tl") as lb:
                l0 = b.add(l_lo, b.mul(lb, c(vec)))
                ptrs = [at(src, b.add(b.mul(b.add(l0, c(i)), s_l), p0), et) for i in range(vec)]
                if mask is None:
                    rows = [b.load(q, typ=vt, align=size) for q in ptrs]
                else:
                    rows = [b.call(masked_load, [q, ir.Constant(ir.IntType(32), size), mask,
                                                 ir.Constant(vt, None)]) for q in ptrs]
                for j, v in enumerate(_transpose_block(b, rows)):
                    q = at(dst, b.add(b.mul(b.add(p0, c(j)), t_p), l0), et)
                    if mask is None:
                        b.store(v, q, align=size)
                        continue
                    with b.if_then(b.icmp_signed("<", b.add(p0, c(j)), p_hi)):
                        b.store(v, q, align=size)
        one = b.icmp_signed("==", b.sub(p_hi, p0), c(1))
        with b.if_else(whole) as (full, partial):
            with full:
                tiles(None)
            with partial:
                with b.if_else(one) as (row, masked):
                    with row:  # stride s_l, 1 when P is 1 (LLVM checks it)
                        with _for(b, l_lo, l_hi, "tq") as l_pos:
                            element(src, dst, p0, l_pos)
                    with masked:
                        lanes = ir.Constant(ir.VectorType(I64, vec), list(range(vec)))
                        count = b.insert_element(ir.Constant(ir.VectorType(I64, vec), None),
                                                 b.sub(p_hi, p0), ir.Constant(ir.IntType(32), 0))
                        count = b.shuffle_vector(count, count, ir.Constant(
                            ir.VectorType(ir.IntType(32), vec), [0] * vec))
                        tiles(b.icmp_unsigned("<", lanes, count))
        with _for(b, b.select(one, l_hi, whole_l), l_hi, "te", scalar=True) as l_pos:  # L's tail
            with _for(b, p0, p_hi, "tp", scalar=True) as pos:
                element(src, dst, pos, l_pos)
        if region is not None:  # the fused elementwise ops, on the rows just written
            h = region[0]
            with _for(b, p0, p_hi, "th") as pos:  # L's positions as rows of the last dim
                base = b.add(d_base, b.mul(pos, t_p))
                first = b.udiv(b.add(base, l_lo), w0)
                last = b.udiv(b.add(base, b.sub(l_hi, c(1))), w0)
                with _for(b, first, b.add(last, c(1)), "tr") as r:
                    start = b.mul(r, w0)
                    lo = b.sub(_max(b, b.add(base, l_lo), start), start)
                    hi = b.sub(_min(b, b.add(base, l_hi), b.add(start, w0)), start)
                    g.emit_ops(b, h.ops, {**captured, h.args[0]: r, h.args[1]: lo,
                                          h.args[2]: hi}, None)
    b.ret_void()
    return f


def _max(b, x, y):
    return b.select(b.icmp_unsigned(">", x, y), x, y)


def _min(b, x, y):
    return b.select(b.icmp_unsigned("<", x, y), x, y)


def _row_major(b, ext: list) -> list:
    strides = [ir.Constant(I64, 1)]
    for e in reversed(ext[1:]):
        strides.append(_mul(b, strides[-1], e))
    return strides[::-1]


def _mul(b, x, y):
    if isinstance(x, ir.Constant) and isinstance(y, ir.Constant):
        return ir.Constant(I64, x.constant * y.constant)
    return b.mul(x, y)


def _ceil_div_by(b, x, n):
    if isinstance(x, ir.Constant) and isinstance(n, ir.Constant):
        return ir.Constant(I64, -(-x.constant // n.constant))
    return b.udiv(b.add(x, b.sub(n, ir.Constant(I64, 1))), n)


def _ceil_div(b, x, n: int):
    if isinstance(x, ir.Constant):
        return ir.Constant(I64, -(-x.constant // n))
    return b.udiv(b.add(x, ir.Constant(I64, n - 1)), ir.Constant(I64, n))



registry.override("transpose", "kernel", emit_tiled, target="cpu", when=tiled)
