"""The GPU's window, convolution and scatter kernels: a thread per output or update element
where the generic kernels run on one thread.

- reduce_window, convolution: one parallel iteration per output element (the output's dims
  flattened, `aot.tiles` of ones), each folding its window or filter as the CPU's kernel
  folds one element (ops/windows.py's `window_fold`, `conv_element`). Most convolutions run
  as implicit GEMM instead (conv.py, whose rule is tried first); this kernel keeps depthwise
  ones and what the tiles do not take (conv.py's docstring says which).
- scatter: two launches, since a grid has no barrier between its blocks and the copy must be
  complete before any update lands: operand -> result (a thread per element), then a thread
  per update element, which finds its place as the CPU does (gather.py's `scatter_position`)
  and combines into the result by the update region's `COMBINE` rule: a `gpu.atomic_rmw`
  for a known commutative op, a plain store for a replacing region, else a compare-and-swap
  loop running the region itself (`gpu.atomic_cas`).
- select_and_scatter: the result filled with the init value, then a thread per source
  element: select in its window (windows.py's `select_in_window`), combine as scatter does.

Atomics are for 32- and 64-bit elements; a scatter whose combiner needs one on a narrower
element, or with several operands, keeps the generic one-thread kernel. Results: integer
combiners are exact and order-independent (bit-exact whatever the order); float sums
(and other float regions) combine in the order threads arrive, so they vary from run to run
within rounding; with duplicate indices and a replacing region, which update lands is left
open, as StableHLO leaves it (the CPU applies updates in order, the last one wins).
"""
from __future__ import annotations

from abi.dtypes import dtype
from lowering.codegen.cuda.reductions import _unflatten
from lowering.ir.builder import Ix, LoopBuilder, buffer_dims, element_loop
from lowering.ir.core import (
    Block,
    MemRefType,
    Region,
    ScalarType,
    bit_width,
    is_complex,
    is_float,
    is_unsigned,
)
from lowering.ops import registry
from lowering.ops.elemental import apply_region
from lowering.ops.elementwise import Scalars
from lowering.ops.gather import scatter_position
from lowering.ops.windows import (
    Conv,
    conv_element,
    conv_sizes,
    fold_nest,
    reduce_window_buffers,
    reduce_window_params,
    select_and_scatter_params,
    select_in_window,
    when_nonempty,
    window_fold,
)

I1 = ScalarType("i1")
INDEX = ScalarType("index")
# update region's op, element class -> gpu.atomic_rmw kind. Float max/min are not here: the
# device's atom.max is maxNum (drops NaN), StableHLO's maximum propagates it (a CAS loop does).
COMBINE = {("add", "int"): "add", ("add", "uint"): "add", ("add", "float"): "fadd",
           ("maximum", "int"): "max", ("maximum", "uint"): "umax",
           ("minimum", "int"): "min", ("minimum", "uint"): "umin",
           ("or", "int"): "or", ("or", "uint"): "or", ("and", "int"): "and", ("and", "uint"): "and",
           ("xor", "int"): "xor", ("xor", "uint"): "xor"}


def combiner(region, elem: str) -> str | None:
    """How threads combine into an element: "set" (the region returns the update), an
    atomic_rmw kind, "cas" (any other one-result region), or None (no atomic for elem)."""
    block = region.blocks[0]
    ret = block.ops[-1]
    if len(block.args) != 2 or len(ret.operands) != 1:
        return None
    cur, upd = block.args
    if ret.operands[0] is upd:
        return "set"
    if bit_width(elem) not in (32, 64) or is_complex(elem):  # no atomic for a (re, im) pair
        return None
    first = block.ops[0]
    kind = "float" if is_float(elem) else "uint" if is_unsigned(elem) else "int"
    if len(block.ops) == 2 and ret.operands[0] is first.result and len(first.operands) == 2 \
            and set(first.operands) == {cur, upd}:
        return COMBINE.get((first.key, kind), "cas")
    return "cas"


def combine(b: LoopBuilder, region, how: str, out, pos: list, value) -> None:
    """out[pos] = region(out[pos], value), atomically against the other threads."""
    t = ScalarType(out.type.elem)
    if how == "set":
        b.op("memref.store", [value, out] + pos)
        return
    if how != "cas":
        b.v("gpu.atomic_rmw", [value, out] + pos, t, kind=how)
        return
    before, after = Block([t]), Block([t])  # a stale first read only costs one more round
    b.op("scf.while", [b.v("memref.load", [out] + pos, t)], [t], {}, [Region([before]), Region([after])])
    bb = LoopBuilder(before, b.loc, b.target)
    cur = before.args[0]
    (new,) = apply_region(bb, region, [cur, value])
    seen = bb.v("gpu.atomic_cas", [cur, new, out] + pos, t)
    bits = ScalarType(f"i{bit_width(out.type.elem)}")
    as_bits = (lambda v: bb.v("arith.bitcast", [v], bits)) if is_float(out.type.elem) else (lambda v: v)
    again = bb.v("arith.cmpi", [as_bits(seen), as_bits(cur)], I1, predicate="ne")
    bb.op("scf.condition", [again, seen])
    LoopBuilder(after, b.loc, b.target).yield_([after.args[0]])


def when(b: LoopBuilder, cond, emit) -> None:
    """emit(builder) run only where cond holds (None: always): a loop of one or zero trips."""
    if cond is None:
        return emit(b)
    _, gb, _, _ = b.for_(b.index(0), Ix(b).select(cond, 1, 0))
    emit(gb)
    gb.yield_()


def emit_reduce_window(k, op, b: LoopBuilder, args: list):
    ins, inits, outs, w = reduce_window_buffers(op, b, args)
    in_dims = buffer_dims(b, ins[0])
    body, ivs = element_loop(b, buffer_dims(b, outs[0]))

    def emit(eb, can_load):
        init_vals = [eb.v("memref.load", [buf], ScalarType(buf.type.elem)) for buf in inits]
        for v, out in zip(window_fold(eb, w, op.regions[0], ins, in_dims, ivs, init_vals, can_load), outs):
            eb.op("memref.store", [v, out] + ivs)
    when_nonempty(body, in_dims, emit)
    body.yield_()


BLOCK = 256  # threads of a tiled window kernel's block
SHARED_BYTES = 48 * 1024  # the most a block's staged input may take (static shared memory)
TILED_ELEMS = ("f16", "bf16", "f32", "f64", "i32", "i64")


def window_tiles(op) -> tuple | None:
    """Output tile sizes (one per dim) for a reduce_window whose windows overlap, or None:
    one operand, static shapes, no dilation, some dim with a window wider than its stride.
    The innermost dim gets up to 32 (a warp along contiguous memory), then the window dims
    from the last outwards what is left of a block of BLOCK; the input the tile's windows
    cover must fit SHARED_BYTES."""
    one = len(op.operands) == 2 and len(op.results) == 1 or len(op.operands) == 3 and not op.results
    if op.key != "reduce_window" or not one or op.operands[0].type.elem not in TILED_ELEMS:
        return None  # (the buffer form's output is its last operand)
    shape = op.operands[0].type.shape
    out = (op.results[0] if op.results else op.operands[-1]).type.shape
    w = reduce_window_params(op)
    if None in shape or None in out or 0 in out or any(n != 1 for n in w.base_dil + w.win_dil) \
            or not any(size > stride for size, stride in zip(w.size, w.stride)):
        return None
    tiles, left = [1] * len(out), BLOCK
    for d in [len(out) - 1] + [d for d in reversed(range(len(out) - 1)) if w.size[d] > 1]:
        tiles[d] = min(out[d], 32 if d == len(out) - 1 else left)
        left //= tiles[d]
    staged = 1
    for d, t in enumerate(tiles):
        staged *= (t - 1) * w.stride[d] + w.size[d]
    size = dtype(op.operands[0].type.elem).size
    return tuple(tiles) if staged * size <= SHARED_BYTES else None


def emit_tiled_reduce_window(k, op, b: LoopBuilder, args: list):
    """A block per output tile (`window_tiles`): its threads copy the input the tile's windows
    cover into shared memory (padding as the init value, which is what reduce_window pads
    with), wait at a barrier, then each folds its output element's window from shared memory:
    each input element is read from global memory once per tile, not once per window that
    covers it."""
    (inp,), (init,), (out,), w = reduce_window_buffers(op, b, args)
    tiles = window_tiles(op)
    in_dims, out_dims = inp.type.shape, out.type.shape
    spans = [(t - 1) * w.stride[d] + w.size[d] for d, t in enumerate(tiles)]
    staged = 1
    for n in spans:
        staged *= n
    elem = ScalarType(inp.type.elem)
    counts = [-(-n // t) for n, t in zip(out_dims, tiles)]
    total = 1
    for n in counts:
        total *= n
    loop, body, t, _ = b.for_(b.index(0), b.index(total))
    loop.attrs["aot.lanes_per_iteration"] = BLOCK  # a block per tile
    loop.attrs["aot.tiles"] = tiles
    bx = Ix(body)
    at = _unflatten(bx, t, counts)
    first = [bx.mul(a, n) for a, n in zip(at, tiles)]  # the tile's first output element
    origin = [bx.sub(bx.mul(f, w.stride[d]), w.pad[d][0]) for d, f in enumerate(first)]
    tid = body.v("gpu.thread_id", [], INDEX)
    fill = body.v("memref.load", [init], elem)
    shared = body.v("gpu.shared", [], MemRefType((staged,), inp.type.elem))
    stage, sb, e, _ = body.for_(tid, body.index(staged), step=BLOCK)
    sx = Ix(sb)
    valid, idx = None, []
    for d, p in enumerate(_unflatten(sx, e, spans)):
        q = sx.add(origin[d], p)
        valid = sx.and_(valid, sx.and_(sx.cmp("sge", q, 0), sx.cmp("slt", q, in_dims[d])))
        idx.append(q)
    idx = [sx.select(valid, q, 0) for q in idx]
    x = sb.v("memref.load", [inp] + idx, elem)
    sb.op("memref.store", [sx.select(valid, x, fill, elem), shared, e])
    sb.yield_()
    body.op("gpu.barrier", [])
    per_tile = 1
    for n in tiles:
        per_tile *= n
    local = _unflatten(bx, tid, list(tiles))
    place = [bx.add(f, at_tile) for f, at_tile in zip(first, local)]
    inside = bx.cmp("slt", tid, per_tile)
    for d, p in enumerate(place):
        inside = bx.and_(inside, bx.cmp("slt", p, out_dims[d]))

    def fold(fb, kvs, accs):
        fx = Ix(fb)
        flat = 0
        for d, (at_tile, kv) in enumerate(zip(local, kvs)):
            flat = fx.add(fx.mul(flat, spans[d]), fx.add(fx.mul(at_tile, w.stride[d]), kv))
        x = fb.v("memref.load", [shared, fx.val(flat)], elem)
        return apply_region(fb, op.regions[0], accs + [x])

    def emit(gb):
        (value,) = fold_nest(gb, list(w.size), [fill], fold)
        gb.op("memref.store", [value, out] + place)
    when(body, inside, emit)
    body.op("gpu.barrier", [])  # the next tile's staging waits until this one is read
    body.yield_()


def emit_convolution(k, op, b: LoopBuilder, args: list):
    lhs, rhs, out = args
    c = Conv(op)
    out_elem = out.type.elem
    acc_elem = "f32" if out_elem in ("f16", "bf16") else out_elem
    sizes = conv_sizes(b, op, c, lhs, rhs)
    body, ivs = element_loop(b, buffer_dims(b, out))

    def emit(eb, can_load):
        total = conv_element(eb, c, lhs, rhs, sizes, ivs, acc_elem, can_load)
        eb.op("memref.store", [Scalars(eb).convert(total, acc_elem, out_elem), out] + ivs)
    when_nonempty(body, sizes[5], emit)
    body.yield_()


def fill_then(k, op, b: LoopBuilder, out, value_at, over: int):
    """This kernel: out[i] = value_at(builder, i) on a thread per element. Returns the builder
    and arguments of a second kernel, launched after it, parallel over operand `over`."""
    body, ivs = element_loop(b, buffer_dims(b, out))
    body.op("memref.store", [value_at(body, ivs), out] + ivs)
    body.yield_()
    fn, second, args = k.new_kernel(op, list(op.operands))
    fn.attrs["aot.parallel_over"] = over
    k.followups.append(fn)
    return second, args


def emit_scatter(k, op, b: LoopBuilder, args: list):
    t = ScalarType(args[3].type.elem)
    sb, (_, indices, updates, out) = fill_then(
        k, op, b, args[3], lambda fb, ivs: fb.v("memref.load", [args[0]] + ivs, t), over=2)
    out_dims, upd_dims = buffer_dims(sb, out), buffer_dims(sb, updates)
    if not any(d == 0 for d in out_dims if isinstance(d, int)):  # an empty operand takes none
        body, uivs = element_loop(sb, upd_dims)
        ix = Ix(body)
        ok, pos = scatter_position(body, op, indices, out_dims, upd_dims, uivs)
        for d in out_dims:
            if not isinstance(d, int):
                ok = ix.and_(ok, ix.cmp("sgt", d, 0))
        value = body.v("memref.load", [updates] + uivs, t)
        how = combiner(op.regions[0], out.type.elem)
        when(body, ok, lambda gb: combine(gb, op.regions[0], how, out, pos, value))
        body.yield_()
    sb.op("func.return", [])


def emit_select_and_scatter(k, op, b: LoopBuilder, args: list):
    t = ScalarType(args[3].type.elem)
    sb, (operand, source, _, out) = fill_then(
        k, op, b, args[3], lambda fb, ivs: fb.v("memref.load", [args[2]], t), over=1)
    w = select_and_scatter_params(op)
    select, scatter = op.regions
    how = combiner(scatter, out.type.elem)
    out_dims = buffer_dims(sb, out)
    body, sivs = element_loop(sb, buffer_dims(sb, source))

    def emit(eb, can_load):
        if can_load:  # an empty operand has no element to select
            have, pos = select_in_window(eb, w, select, operand, out_dims, sivs)
            value = eb.v("memref.load", [source] + sivs, t)
            when(eb, have, lambda gb: combine(gb, scatter, how, out, pos, value))
    when_nonempty(body, out_dims, emit)
    body.yield_()
    sb.op("func.return", [])


def _atomic(region_at: int):
    """The rule's condition: one result (the region takes two scalars), combined by some
    atomic; else one thread does all, in order. The last operand has the result's type."""
    return lambda target, op: combiner(op.regions[region_at], op.operands[-1].type.elem) is not None


SCHEDULES = {  # op: (kernel, when it applies)
    "reduce_window": (emit_reduce_window, None),
    "dynamic_reduce_window": (emit_reduce_window, None),
    "convolution": (emit_convolution, None),
    "scatter": (emit_scatter, _atomic(0)),
    "select_and_scatter": (emit_select_and_scatter, _atomic(1)),
}
for _name, (_kernel, _when) in SCHEDULES.items():
    registry.override(_name, "kernel", _kernel, target="cuda", when=_when)
    registry.override(_name, "parallel", True, target="cuda", when=_when)
# registered last: tried first (registry.override), before the thread per output element
registry.override("reduce_window", "kernel", emit_tiled_reduce_window, target="cuda",
                  when=lambda target, op: window_tiles(op) is not None)
registry.override("reduce_window", "parallel", True, target="cuda",
                  when=lambda target, op: window_tiles(op) is not None)
