"""sort (several operands, a comparator region, any dimension) and chlo.top_k.

Both are kernels built on one routine: a stable bottom-up merge sort of every line
along the sort dimension (every index of the other dims), O(n log n) comparisons.

Kernels get only buffers, so the merge sort's scratch space comes from the host:
the bufferised op takes extra temporary outputs of the sorted operands' types and
shape, allocated right before the kernel and freed right after it like any other
buffer. The ops' `scratch` rules say which; bufferisation appends
them to the kernel's operands and records their count as `aot.scratch`:

    lmhlo.sort(%in0, %in1, %out0, %out1, %tmp0, %tmp1) {aot.scratch = 2, dimension = 1, ...}
    lmhlo.top_k(%x, %values, %indices, %v0, %i0, %v1, %i1) {aot.scratch = 4, k = 2}

Each line is sorted with ceil(log2 n) merge passes (runs of 1, 2, 4, ...) that
ping-pong between two buffers per operand. Pass 0 reads the operands directly;
the number of passes is rounded up to an odd count (a pass whose runs already
cover the line is a plain copy), so the last one writes the `even` buffers: the
results for sort, the first scratch pair for top_k (whose k first elements are
then copied to its results). Kernels have no branches: a merge step loads both
heads (at indices clamped into the run), asks the comparator whether the right
head goes strictly before the left one, stores the selected head and advances
one side; equal elements keep their order, so every sort is stable, as XLA's
`is_stable = true` requires (and `false` allows).

top_k is XLA's: values sorted descending (floats in total order: NaN first, -0.0
after 0.0, -NaN last) with their i32 (or i64) indices, ties by lower index first.
"""
from __future__ import annotations

from lowering.ir.builder import Ix, buffer_dims, loop_nest
from lowering.ir.core import INDEX, Operation, ScalarType, TensorType, clone_op
from lowering.ops import registry
from lowering.ops.elemental import apply_region
from lowering.ops.elementwise import Scalars
from lowering.ops.registry import ShapeError, static_or
from lowering.ops.verify import verify_scalar_ops

I1 = ScalarType("i1")
SORTABLE = ("i1", "i8", "i16", "i32", "i64", "ui8", "ui16", "ui32", "ui64", "f16", "bf16",
            "f32", "f64", "complex<f32>", "complex<f64>")  # complex: by a comparator of its parts


def _shape_error(msg):
    return ShapeError(msg)


# ----------------------------------------------------------------------------- shape functions


def sort_dimension(op: Operation, rank: int) -> int:
    d = op.attrs.get("dimension", -1)
    if isinstance(d, (tuple, list)):
        d = d[0]
    d = int(d)
    if not -rank <= d < rank:
        raise _shape_error(f"dimension {d} out of range for rank {rank}")
    return d % rank


def localize_captures(block, what: str) -> None:
    """A region may use constants defined outside it (jax.export hoists them to the
    function): each gets a copy inside the region, so kernels see a self-contained scalar
    body. Any other captured value is an error."""
    defined, copies, front = set(block.args), {}, []
    for inner in block.ops:
        for i, v in enumerate(inner.operands):
            if v in defined:
                continue
            if v not in copies:
                owner = v.owner
                if not (isinstance(owner, Operation) and owner.key == "constant"
                        and v.type.shape == ()):
                    raise inner.error(f"uses a value defined outside the {what} region "
                                      "(only scalar constants may be)")
                copies[v] = clone_op(owner, {}).results[0]
                front.append(copies[v].owner)
            inner.operands[i] = copies[v]
        defined.update(inner.results)
    for c in reversed(front):
        c.parent = block
        block.ops.insert(0, c)


def verify_scalar_region(op: Operation, region_index: int, arg_elems: list, result_elems: list,
                         what: str) -> None:
    """One block of scalar elementwise ops taking `arg_elems` and returning `result_elems`."""
    if len(op.regions) <= region_index or len(op.regions[region_index].blocks) != 1:
        raise _shape_error(f"needs a {what} region")
    block = op.regions[region_index].blocks[0]
    localize_captures(block, what)
    want = [TensorType((), e) for e in arg_elems]
    if [a.type for a in block.args] != want:
        raise _shape_error(f"{what} region must take " + ", ".join(map(str, want)))
    if not block.ops or not block.ops[-1].name.endswith("return"):
        raise _shape_error(f"{what} region must end with a return")
    verify_scalar_ops(block.ops, f"{what} region")
    ret = block.ops[-1]
    if [v.type for v in ret.operands] != [TensorType((), e) for e in result_elems]:
        raise ret.error(f"{what} region must return "
                        + ", ".join(f"tensor<{e}>" for e in result_elems))


def infer_sort(op: Operation):
    ts = [v.type for v in op.operands]
    if not ts:
        raise _shape_error("sort needs at least one operand")
    rank = ts[0].rank
    if rank == 0:
        raise _shape_error("sort needs operands of rank 1 or more")
    for t in ts[1:]:
        if t.rank != rank or any(a is not None and b is not None and a != b
                                 for a, b in zip(t.shape, ts[0].shape)):
            raise _shape_error("sort operands must have the same shape, got "
                               + ", ".join(map(str, ts)))
    for t in ts:
        if t.elem not in SORTABLE:
            raise _shape_error(f"cannot sort {t}")
    sort_dimension(op, rank)
    verify_scalar_region(op, 0, [e for t in ts for e in (t.elem, t.elem)], ["i1"], "comparator")
    return list(ts)


def top_k_direction(op: Operation) -> str:
    """GT: the k largest (top_k); LT: the k smallest (ApproxTopK with a less-than comparator)."""
    return "LT" if op.attrs.get("aot.smallest") else "GT"


def top_k_k(op: Operation) -> int:
    k = op.attrs.get("k")
    if isinstance(k, (tuple, list)):
        k = k[0]
    if k is None or int(k) < 0:
        raise _shape_error(f"k must be a non-negative integer, got {k!r}")
    return int(k)


def infer_top_k(op: Operation):
    """top_k(x) {k}, or top_k(x, k) with k a 0-d integer tensor (jax.export's
    @stablehlo.dynamic_top_k): then the results' last dim is whatever k is at run time."""
    if len(op.operands) not in (1, 2) or len(op.results) != 2:
        raise _shape_error("top_k takes one operand (or an operand and k) and has two results "
                           "(values, indices)")
    t = op.operands[0].type
    if len(op.operands) == 2:
        kt = op.operands[1].type
        if kt.rank != 0 or kt.elem not in ("i32", "i64", "ui32", "ui64"):
            raise _shape_error(f"k must be a 0-d integer tensor, got {kt}")
        k = None
    else:
        k = top_k_k(op)
    if t.rank == 0:
        raise _shape_error("top_k needs an operand of rank 1 or more")
    if t.elem not in SORTABLE:
        raise _shape_error(f"cannot take top_k of {t}")
    n = t.shape[-1]
    if n is not None and k is not None and k > n:
        raise _shape_error(f"k = {k} exceeds the last dim ({n}) of {t}")
    idx = op.results[1].type.elem
    if idx not in ("i32", "i64"):
        raise _shape_error(f"top_k indices must be i32 or i64, got {idx}")
    shape = t.shape[:-1] + (k,)
    return [TensorType(shape, t.elem), TensorType(shape, idx)]


# ----------------------------------------------------------------------------- run-time shapes


def _sort_rule(hs, op, shapes, bufs):
    base = list(shapes[0])
    for s in shapes[1:]:
        for d in range(len(base)):
            base[d] = hs.require_equal(base[d], s[d], op, f"sort operands differ in dim {d}")
    return [static_or(r.type.shape, base) for r in op.results]


def _top_k_rule(hs, op, shapes, bufs):
    src = list(shapes[0])
    if len(op.operands) == 2:
        k = hs.load_index(bufs[1], None)
        hs.require("sge", k, 0, op, "k is negative")
    else:
        k = top_k_k(op)
    hs.require("sle", k, src[-1], op, "k exceeds the last dim")
    out = src[:-1] + [k]
    return [static_or(r.type.shape, out) for r in op.results]


def _sort_scratch(op, shapes, hs=None, results=None):
    """The merge sort ping-pongs between the results and one scratch buffer per operand."""
    return [(v.type, list(shapes[0])) for v in op.operands]


def _top_k_scratch(op, shapes, hs=None, results=None):
    """Two (values, indices) pairs of the operand's shape: the sort's ping-pong buffers."""
    t = op.operands[0].type
    idx = TensorType(t.shape, op.results[1].type.elem)
    src = list(shapes[0])
    return [(t, src), (idx, src), (t, src), (idx, src)]


# ----------------------------------------------------------------------------- kernels


def _merge_pass(b, n, width, load, dst, at, before):
    """Merge adjacent runs of `width` elements of one line (read by `load(builder, pos)`,
    a list of scalars per position) into runs of 2 * width written to the buffers `dst`
    at index `at(pos)`. Stable: the right head goes first only if strictly before."""
    ix = Ix(b)
    two_w = ix.shl(width, 1)
    nruns = ix.div(ix.add(n, ix.sub(two_w, 1)), two_w)
    _, rb, r, _ = b.for_(b.index(0), ix.val(nruns))
    rx = Ix(rb)
    lo = rx.mul(r, two_w)
    mid = rx.min(rx.add(lo, width), n)
    hi = rx.min(rx.add(lo, two_w), n)
    last = rx.sub(hi, 1)
    _, kb, k, (i, j) = rb.for_(lo, rx.val(hi), [lo, mid])
    kx = Ix(kb)
    left = load(kb, kx.min(i, last))
    right = load(kb, kx.min(j, last))
    right_first = before(kb, right, left)
    take_right = kx.and_(kx.cmp("slt", j, hi), kx.or_(kx.not_(kx.cmp("slt", i, mid)), right_first))
    for buf, x, y in zip(dst, right, left):
        kb.op("memref.store", [kx.select(take_right, x, y, ScalarType(buf.type.elem)), buf] + at(k))
    kb.yield_([kx.select(take_right, i, kx.add(i, 1)), kx.select(take_right, kx.add(j, 1), j)])
    rb.yield_([])


def sort_lines(b, dims: list, dim: int, first: callable, even: list, odd: list, before) -> None:
    """Stable merge sort of every line along `dim` of a tensor of `dims`.

    `first(builder, index)` gives the scalars at a full index (pass 0 reads them); the
    sorted line ends in the buffers `even`; `odd` is scratch of the same shape and types.
    `before(builder, xs, ys)` is i1: xs goes strictly before ys."""
    outer_dims = [d for d in range(len(dims)) if d != dim]
    with loop_nest(b, [b.index(dims[d]) if isinstance(dims[d], int) else dims[d]
                       for d in outer_dims]) as (body, ivs):
        n = dims[dim]

        def at(pos):
            idx = list(ivs)
            idx.insert(dim, pos)
            return idx

        def loader(bufs):
            return lambda bb, pos: [bb.v("memref.load", [buf] + at(pos), ScalarType(buf.type.elem))
                                    for buf in bufs]

        _merge_pass(body, n, 1, lambda bb, pos: first(bb, at(pos)), even, at, before)
        # ceil(log2 n) passes in all, rounded up to an odd count: pass 0, then pairs
        x = Ix(body)
        nm1 = x.sub(x.max(n, 1), 1)
        if isinstance(nm1, int):
            pairs = body.index(nm1.bit_length() // 2)
        else:
            clz = body.v("math.ctlz", [nm1], INDEX)
            levels = x.sub(64, clz)
            pairs = body.v("arith.shrui", [levels, body.index(1)], INDEX)
        _, pb, p, _ = body.for_(body.index(0), pairs)
        px = Ix(pb)
        w1 = px.shl(1, px.add(px.shl(p, 1), 1))
        _merge_pass(pb, n, w1, loader(even), odd, at, before)
        _merge_pass(pb, n, px.shl(w1, 1), loader(odd), even, at, before)
        pb.yield_([])


def _scratch_split(op, args, n_scratch):
    got = op.attrs.get("aot.scratch")
    if got != n_scratch:
        raise op.error(f"needs {n_scratch} scratch buffers from the host (bufferised by this "
                       "compiler); buffer-level input of this op is not supported")
    return args[:len(args) - n_scratch], args[len(args) - n_scratch:]


def emit_sort(k, op: Operation, b, args: list):
    n = len(args) // 3
    (ins_outs, scratch) = _scratch_split(op, args, n)
    ins, outs = ins_outs[:n], ins_outs[n:]
    dims = buffer_dims(b, ins[0])
    dim = sort_dimension(op, len(dims))
    region = op.regions[0]

    def first(bb, idx):
        return [bb.v("memref.load", [buf] + idx, ScalarType(buf.type.elem)) for buf in ins]

    def before(bb, xs, ys):
        return apply_region(bb, region, [v for pair in zip(xs, ys) for v in pair])[0]

    sort_lines(b, dims, dim, first, list(outs), list(scratch), before)


def emit_top_k(k, op: Operation, b, args: list):
    (x, *_, values, indices), scratch = _scratch_split(op, args, 4)
    even, odd = scratch[:2], scratch[2:]
    elem, idx_elem = x.type.elem, indices.type.elem
    dims = buffer_dims(b, x)
    dim = len(dims) - 1

    def first(bb, idx):
        v = bb.v("memref.load", [x] + idx, ScalarType(elem))
        return [v, bb.v("arith.index_cast", [idx[dim]], ScalarType(idx_elem))]

    def before(bb, xs, ys):  # xs first when greater (smaller); total order for floats
        kind = "TOTALORDER" if elem in ("f16", "bf16", "f32", "f64") else None
        return Scalars(bb).compare(xs[0], ys[0], elem, top_k_direction(op), kind)

    sort_lines(b, dims, dim, first, even, odd, before)
    out_dims = buffer_dims(b, values)
    with loop_nest(b, [b.index(d) if isinstance(d, int) else d for d in out_dims]) as (inner, ivs):
        for src, dst in zip(even, (values, indices)):
            v = inner.v("memref.load", [src] + ivs, ScalarType(src.type.elem))
            inner.op("memref.store", [v, dst] + ivs)


registry.alias("chlo.top_k", "mhlo.top_k")
def _sort_writes(op):
    """The results and the scratch: operands are n inputs, n results, then the scratch (as
    many as the target's kernel asked for)."""
    scratch = op.attrs["aot.scratch"]
    return registry.last_operands(op, (len(op.operands) - scratch) // 2 + scratch)


registry.define("sort", "kernel", "reductions and contractions", attrs=("dimension",),
                infer=infer_sort, shape_rule=_sort_rule, scratch=_sort_scratch, kernel=emit_sort,
                writes=_sort_writes)
registry.define("top_k", "kernel", "reductions and contractions", infer=infer_top_k,
                shape_rule=_top_k_rule, shape_operands=(1,), scratch=_top_k_scratch, kernel=emit_top_k,
                writes=lambda op: registry.last_operands(op, 2 + op.attrs["aot.scratch"]))
