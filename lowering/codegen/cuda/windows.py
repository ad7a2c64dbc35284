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

from lowering.ir.builder import Ix, LoopBuilder, buffer_dims, element_loop
from lowering.ir.core import Block, Region, ScalarType, bit_width, is_complex, is_float, is_unsigned
from lowering.ops import registry
from lowering.ops.elemental import apply_region
from lowering.ops.elementwise import Scalars
from lowering.ops.gather import scatter_position
from lowering.ops.windows import (
    Conv,
    conv_element,
    conv_sizes,
    reduce_window_buffers,
    select_and_scatter_params,
    select_in_window,
    when_nonempty,
    window_fold,
)

I1 = ScalarType("i1")
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
