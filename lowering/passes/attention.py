"""Attention as one kernel: softmax(q k^T * scale) v becomes one fusion, run per query block.

Fused the usual way, attention is three kernels (q k^T, the row softmax, p v) with its [s, s]
scores and probabilities in memory between them. Where the target has a kernel for the whole
(the CPU's, codegen/cpu/attention.py, registered as the `epilogue` rule of a dot_general marked
`aot.attention`), this pass finds the ops of

    s = dot_general(q, k)     batch dims leading on both, q's last dim against k's last
    l = s * c  (or s / c)     optional: c a positive splat constant (the scale, or 1 / it)
    l = where(keep, l, fill)  optional, or l + where(keep, 0, fill): a causal mask (below)
    m = reduce(l, -inf) max over the last dim;  e = exp(l - broadcast(m))
    z = reduce(e, 0) add over the last dim;     p = e / broadcast(z)
    p = where(broadcast(max(l)) == -inf, 0, p)  optional: PyTorch's safe softmax
    o = dot_general(p, v)     batch dims leading, p's last dim against v's second to last

(each intermediate used only inside the pattern, f32; the broadcasts also as jax.nn.softmax
writes them: through [..., s, 1], static or dynamic, the max clamped below by -inf) and puts
them in one kOutput fusion rooted at o whose first dot carries `aot.attention` = the scale.
A division by c is a multiplication by 1 / c there (exact when c is a power of two, as
sqrt(64) is; within an ulp of each score otherwise). The ops stay in the region as the
fusion's meaning (shape inference reads them); the splat constants they use are copied in.
It runs at the start of the fusion stage (passes/fusion.py), before the other kernels are
formed.

PyTorch's decomposed SDPA (`run_decompositions()`) comes in another spelling, read as the
same pattern: q and k^T each multiplied by the scale's square root (the kernel's scale is
their product, within an ulp of each score), each product a bmm between [b * h, ...] views
of [b, h, ...] tensors (rewritten first as one dot_general over both batch dims:
unmerge_batch; with `?` dims the views are dynamic_reshapes whose shape tensors the shape
code builds from the same sizes, b * h a product of them), the causal mask built from an
`arange` (a folded constant, or a dynamic_iota), and the safe softmax as
where(not(any(not(s == -inf))), 0, p).

A causal mask, as GPT-2 and Llama programs spell it (jnp.where(jnp.tril(ones), s, -1e9), or an
additive mask of 0 and -inf), keeps key j of query i where j <= i + c: `keep` is found to be
that from its iotas (static or dynamic, through broadcasts, adds, compares, selects, `not`
and `and`), c a constant >= 0 (every row keeps a key). The fill must be at most MASKED_AT, so
that its exp beside the row's kept scores is 0 in f32; the kernel then skips the masked keys
(whole key blocks past the diagonal). The mask's ops are not in the fusion's region (its meaning
is the unmasked attention there, and the first dot's `aot.causal` = c): the mask is never
computed.

Any other mask or bias, l = l + bias (BERT's padding mask of 0 and the float's minimum over
[b, 1, 1, s], T5's position bias) or l = where(mask, l, fill) (Flax's padding mask, a boolean
tensor; fill any splat constant), is read by the kernel in place: the bias or mask is a fusion
input, or a broadcast of one (copied into the region: nothing [b, h, s, s] is formed), of the
scores' rank with at most two batch dims; the add or select stays in the region, marked
`aot.bias` (its bias operand's index; a select also `aot.keep_if`, the mask's value that keeps
the score, and `aot.fill`). Not with a causal mask in the same pattern: a row the bias masks
entirely would see the keys past its diagonal in the three-kernel result."""
from __future__ import annotations

import math

import numpy as np

from lowering.ir.core import Block, Operation, Region, blocks, clone_op
from lowering.ops import registry
from lowering.passes.cse import ComputedSize, earliest_size, shape_elements

BROADCASTS = ("broadcast_in_dim", "dynamic_broadcast_in_dim")
ELEMENTS = ("f32",)  # what the CPU's kernel computes
# A mask's fill (or an additive mask's value) at or below this masks a score out: exp(fill -
# max) is 0 in f32 beside any kept score above fill + 104 (-1e9, -inf, finfo.min as models
# write it; -1e4 as older ones do), so the kernel skips those keys instead of adding zeros.
MASKED_AT = -1e4
# Ops of a mask's computation (pure): erased with the mask once nothing else reads them.
MASK_OPS = BROADCASTS + ("constant", "iota", "dynamic_iota", "compare", "select", "and", "not",
                         "add", "subtract", "convert", "reshape", "dynamic_reshape", "concatenate",
                         "get_dimension_size")


def _owner(value, key=None):
    """value's defining op (of key `key` if given), else None."""
    op = value.owner
    if not isinstance(op, Operation) or (key is not None and op.key not in key):
        return None
    return op


def _splat(value):
    """The one float a splat constant (or a broadcast of one) holds, else None."""
    op = _owner(value)
    while op is not None and op.key in BROADCASTS:
        op = _owner(op.operands[0])
    if op is None or op.key != "constant":
        return None
    arr = np.asarray(op.attrs["value"].array)
    flat = arr.reshape(-1)
    if flat.size == 0 or not np.all(flat == flat[0]):
        return None
    return float(flat[0])


def _row_broadcast(value, rank, ops: list, floor=None):
    """The row value ([..., s] at rank - 1) whose copies along the last dim `value` is, else
    None; the ops on the way are added to `ops`. As jax.numpy writes keepdims: broadcasts
    along the last dim (static or dynamic), through [..., s, 1] by a broadcast or a reshape
    (a dynamic_reshape too, as _all_minus_inf takes it),
    and, with `floor`, a maximum with a splat constant `floor` (softmax's max with -inf)."""
    while True:
        op = _owner(value)
        if op is None:
            return None
        if op.key in BROADCASTS + ("reshape", "dynamic_reshape"):
            if not _along_rows(op, rank):
                return None
        elif op.key == "maximum" and floor is not None:
            rest = [x for x in op.operands if _splat(x) != floor]
            if len(rest) != 1:
                return None
            ops.append(op)
            value = rest[0]
            continue
        else:
            return value if value.type.rank == rank - 1 and ops else None
        ops.append(op)
        value = op.operands[0]


def _along_rows(op, rank) -> bool:
    """`op` (a broadcast or a reshape) carries a row's value, [..., s] or [..., s, 1], back
    along the last dim of rank-`rank` scores."""
    x = op.operands[0]
    shape_in = x.type.shape
    if op.key in BROADCASTS:
        return list(op.attrs["broadcast_dimensions"]) == list(range(len(shape_in))) and (
            len(shape_in) == rank - 1 or (len(shape_in) == rank and shape_in[-1] == 1))
    if op.key == "dynamic_reshape":  # [..., s] -> [..., s, 1]: each size the same
        elements = _view_elements(op)
        return (len(shape_in) == rank - 1 and elements is not None and elements[-1] == 1
                and all(_is_size(e, x, d) for d, e in enumerate(elements[:-1])))
    return len(shape_in) == rank - 1 and op.results[0].type.shape[-1] == 1


def _row_reduce(value, rank, body_key, init):
    """The reduce over the last dim with `body_key` and the init constant `init`, else None."""
    op = _owner(value, ("reduce",))
    if op is None or len(op.operands) != 2 or list(op.attrs["dimensions"]) != [rank - 1]:
        return None
    body = [o for o in op.regions[0].blocks[0].ops if not o.name.endswith("return")]
    if len(body) != 1 or body[0].key != body_key or _splat(op.operands[1]) != init:
        return None
    return op


def _dims(op, lhs_contract, rhs_contract, rank):
    d = op.attrs.get("dot_dimension_numbers")
    if d is None:
        return False
    batch = list(range(rank - 2))
    return (list(d["lhs_batching_dimensions"]) == batch and list(d["rhs_batching_dimensions"]) == batch
            and list(d["lhs_contracting_dimensions"]) == [lhs_contract]
            and list(d["rhs_contracting_dimensions"]) == [rhs_contract])


def _axes_through(op, axes):
    """The scores dims (see _index) of op's operand's dims, op a broadcast or a reshape that
    adds or drops only dims of 1 (jnp's [s] -> [1, s]); else None. A dim of 1 is 0."""
    src, dst = op.operands[0].type.shape, op.results[0].type.shape
    if op.key in BROADCASTS:
        return [0 if n == 1 else axes[d] for n, d in zip(src, op.attrs["broadcast_dimensions"])]
    if op.key in ("reshape", "dynamic_reshape"):
        kept = [i for i, n in enumerate(dst) if n != 1]
        if len(kept) == sum(n != 1 for n in src):
            it = iter(kept)
            return [0 if n == 1 else axes[next(it)] for n in src]
        # batch dims regrouped ([b, h, s, s] -> [b * h, s, s]), the last two static and kept
        if len(src) >= 2 and len(dst) >= 2 and src[-2:] == dst[-2:] and None not in src[-2:] \
                and all(x is None for x in axes[:-2]):
            return [None] * (len(src) - 2) + list(axes[-2:])
    return None


def _index(value, axes):
    """value (integers over the scores' dims or a broadcast of them) as ({axis: coefficient},
    constant) with the axes "row" (the query) and "col" (the key), else None. `axes` names
    value's dims: "row", "col", 0 (a dim of 1: its iota is 0) or None (a batch dim)."""
    c = _splat(value)
    if c is not None:
        return {}, c
    op = _owner(value)
    if op is None:
        return None
    if op.key in ("iota", "dynamic_iota"):
        axis = axes[op.attrs["iota_dimension"]]
        return None if axis is None else (({axis: 1} if axis else {}), 0)
    if op.key == "constant":  # an iota written out (PyTorch's arange, folded): c0 + position
        arr = np.asarray(op.attrs["value"].array)
        along = [d for d, n in enumerate(arr.shape) if n != 1]
        flat = arr.reshape(-1)
        if len(along) != 1 or axes[along[0]] is None or arr.dtype.kind not in "iu" \
                or not np.array_equal(flat - flat[0], np.arange(flat.size)):
            return None
        return {axes[along[0]]: 1}, int(flat[0])
    if op.key == "convert":
        return _index(op.operands[0], axes)
    inner = _axes_through(op, axes) if op.key in BROADCASTS + ("reshape", "dynamic_reshape") else None
    if inner is not None:
        return _index(op.operands[0], inner)
    if op.key in ("add", "subtract"):
        a, b = (_index(x, axes) for x in op.operands)
        if a is None or b is None:
            return None
        sign = 1 if op.key == "add" else -1
        coef = dict(a[0])
        for axis, n in b[0].items():
            coef[axis] = coef.get(axis, 0) + sign * n
        return {x: n for x, n in coef.items() if n}, a[1] + sign * b[1]
    return None


# compare(col - row, t): the c of "col - row <= c" and whether the compare is that (True) or
# its negation "col - row > c" (False)
_KEEP_FORMS = {"LE": (0, True), "LT": (-1, True), "GT": (0, False), "GE": (-1, False)}
_SWAPPED = {"LE": "GE", "LT": "GT", "GE": "LE", "GT": "LT"}


def _keep(value, axes):
    """(c, True) if the booleans `value` are true exactly where key <= query + c, (c, False)
    if exactly where key > query + c, else None (any other mask)."""
    op = _owner(value)
    if op is None:
        return None
    if op.key == "constant" and op.results[0].type.rank == 2 and axes == ["row", "col"]:
        return _constant_keep(np.asarray(op.attrs["value"].array))
    if op.key == "compare":
        a, b = (_index(x, axes) for x in op.operands)
        direction = getattr(op.attrs.get("comparison_direction"), "value", None)
        if a is None or b is None or direction not in _SWAPPED:
            return None
        coef = dict(a[0])
        for axis, n in b[0].items():
            coef[axis] = coef.get(axis, 0) - n
        coef = {x: n for x, n in coef.items() if n}
        t = b[1] - a[1]  # a - b OP 0  <=>  coef . (row, col) OP t
        if coef == {"row": -1, "col": 1}:  # col - row OP t
            pass
        elif coef == {"row": 1, "col": -1}:  # row - col OP t  <=>  col - row OP' -t
            direction, t = _SWAPPED[direction], -t
        else:
            return None
        if t != int(t):
            return None
        shift, kept = _KEEP_FORMS[direction]
        return int(t) + shift, kept
    if op.key == "not":
        inner = _keep(op.operands[0], axes)
        return inner and (inner[0], not inner[1])
    if op.key == "select":
        truth = [_splat(x) for x in op.operands[1:]]
        inner = _keep(op.operands[0], axes)
        if inner is None or sorted(truth) != [0.0, 1.0]:
            return None
        return inner if truth[0] == 1.0 else (inner[0], not inner[1])
    if op.key == "and":
        a, b = op.operands
        if _splat(a) == 1.0 or _splat(b) == 1.0:
            return _keep(b if _splat(a) == 1.0 else a, axes)
        forms = [_keep(x, axes) for x in (a, b)]
        if all(f is not None and f[1] for f in forms):
            return min(f[0] for f in forms), True
        return None
    inner = _axes_through(op, axes) if op.key in BROADCASTS + ("reshape", "dynamic_reshape") else None
    return None if inner is None else _keep(op.operands[0], inner)


def _constant_keep(keep: np.ndarray):
    """(c, True) if the booleans `keep` [sq, sk] are true exactly where key <= query + c (a
    mask written out as a constant, torch's attn_mask), else None."""
    rows, cols = keep.shape
    if keep.dtype != bool or rows == 0 or cols == 0 or not keep.any(axis=1).all():
        return None
    c = int((keep.shape[1] - 1 - np.argmax(keep[:, ::-1], axis=1) - np.arange(rows)).max())
    causal = np.arange(cols)[None, :] <= np.arange(rows)[:, None] + c
    return (c, True) if np.array_equal(keep, causal) else None


def _additive(value, axes):
    """c if `value` is 0 where key <= query + c and at most MASKED_AT elsewhere, else None."""
    op = _owner(value)
    if op is None:
        return None
    if op.key == "select":
        form = _keep(op.operands[0], axes)
        if form is None:
            return None
        kept, masked = (op.operands[1:] if form[1] else op.operands[:0:-1])
        fill = _splat(masked)
        ok = _splat(kept) == 0.0 and fill is not None and fill <= MASKED_AT
        return form[0] if ok else None
    inner = (_axes_through(op, axes) if op.key in BROADCASTS + ("reshape", "dynamic_reshape")
             else axes if op.key == "convert" else None)
    return None if inner is None else _additive(op.operands[0], inner)


def _unmasked(value, rank):
    """(the scores under a causal mask, its c, the masking op) if `value` is
    where(keep, scores, fill) or scores + where(keep, 0, fill) with keep a causal mask
    (key <= query + c, c >= 0) and fill <= MASKED_AT; else (value, None, None)."""
    op = _owner(value, ("select", "add"))
    axes = [None] * (rank - 2) + ["row", "col"]
    if op is not None and op.key == "select":
        form = _keep(op.operands[0], axes)
        if form is not None:
            scores, masked = op.operands[1:] if form[1] else op.operands[:0:-1]
            fill = _splat(masked)
            if fill is not None and fill <= MASKED_AT and form[0] >= 0:
                return scores, form[0], op
    elif op is not None:
        for scores, mask in (op.operands, op.operands[::-1]):
            c = _additive(mask, axes)
            if c is not None and c >= 0:
                return scores, c, op
    return value, None, None


def _is_scores(value) -> bool:
    """(A unit view of) a scaling or the first dot: the scores side of a bias or a mask."""
    return _owner(_through_views(value, []), ("multiply", "divide", "dot_general")) is not None


def _bias(op, scores_rank):
    """(the scores, the bias) if `op` adds to the scores a bias the kernel reads (an f32 value
    of the scores' rank, at most two batch dims, itself or a broadcast in dim order of an
    input, not a splat constant), or selects between them and a splat fill by a boolean mask
    the kernel reads (jnp.where(mask, s, fill), the bias being the mask); else None."""
    if op is None or scores_rank > 4:
        return None
    if op.key == "select":
        mask, on_true, on_false = op.operands
        pairs = [(on_true, mask)] if _splat(on_false) is not None else []
        pairs += [(on_false, mask)] if _splat(on_true) is not None else []
        elems = ("i1",)
    elif op.key == "add":
        pairs, elems = [op.operands, op.operands[::-1]], ELEMENTS
    else:
        return None
    for x, y in pairs:
        if not _is_scores(x):
            continue
        if y.type.elem not in elems or y.type.rank != scores_rank or _splat(y) is not None:
            return None
        bc = _owner(y, BROADCASTS)
        if bc is not None and list(bc.attrs["broadcast_dimensions"]) != sorted(
                set(bc.attrs["broadcast_dimensions"])):
            return None
        return x, y
    return None


def _unit_view(op) -> bool:
    """A static reshape or broadcast_in_dim that only adds or drops dims of 1 (the same
    elements in the same order), as static batch-1 exports put between the dots (3-D) and
    the softmax (4-D)."""
    if op.key not in ("reshape", "broadcast_in_dim"):
        return False
    src, dst = op.operands[0].type.shape, op.results[0].type.shape
    if None in src or None in dst or [n for n in src if n != 1] != [n for n in dst if n != 1]:
        return False
    dims = list(op.attrs.get("broadcast_dimensions", range(len(src))))
    return dims == sorted(dims) and (op.key == "reshape" or all(dst[i] == n for i, n in zip(dims, src)))


def _through_views(value, ops: list):
    """The value `value` is a unit view of (_unit_view), the views added to `ops`."""
    op = _owner(value)
    while op is not None and _unit_view(op):
        ops.append(op)
        value = op.operands[0]
        op = _owner(value)
    return value


def _scaling(op):
    """(the scale, the scores) of scores * c, c * scores or scores / c (its reciprocal), c a
    positive splat constant; else None."""
    pairs = [op.operands] if op.key == "divide" else [op.operands, op.operands[::-1]]
    for x, c in pairs:
        scale = _splat(c)
        if scale is not None and 0 < scale < math.inf:
            return (1.0 / scale if op.key == "divide" else scale), x
    return None


def _operand_scaling(value, ops: list):
    """(x, c) if `value` is x * c (c a positive splat constant: PyTorch's decomposed SDPA
    scales q and k^T each by the scale's square root), the multiply added to `ops`; else
    (value, 1.0)."""
    op = _owner(value, ("multiply",))
    found = op is not None and _scaling(op)
    if not found:
        return value, 1.0
    ops.append(op)
    return found[1], found[0]


def _keys(qk: Operation, k, ops: list):
    """qk's k as [..., sk, d], given the value `k` its second operand is (past a scaling):
    k itself, or, where the dot reads k^T [..., d, sk] (a transpose the fusion stage could
    not fold, behind a unit view), the transposed value (the transpose and views added to
    `ops`); else None."""
    dims = qk.attrs.get("dot_dimension_numbers")
    if dims is None:
        return None
    if list(dims["rhs_contracting_dimensions"]) == [k.type.rank - 1]:
        return k
    views = []
    t = _owner(_through_views(k, views), ("transpose",))
    perm = list(range(t.operands[0].type.rank)) if t is not None else []
    if t is None or len(perm) < 2 or list(t.attrs["permutation"]) != perm[:-2] + perm[:-3:-1]:
        return None
    ops += views + [t]
    return t.operands[0]


def _zero_rows(value, ops: list):
    """(p, scores) if `value` is where(max(scores) == -inf, 0, p) along the rows (PyTorch's
    safe softmax: a row with every score -inf gives zeros, not NaN), its ops added to `ops`;
    else None."""
    sel = _owner(value, ("select",))
    rank = value.type.rank
    if sel and _splat(sel.operands[1]) == 0.0:
        found = []
        scores = _all_minus_inf(sel.operands[0], rank, found)
        if scores is not None:
            ops += [sel] + found
            return sel.operands[2], scores
    cmp = sel and _splat(sel.operands[1]) == 0.0 and _owner(sel.operands[0], ("compare",))
    if not cmp or getattr(cmp.attrs.get("comparison_direction"), "value", None) != "EQ":
        return None
    for x, y in (cmp.operands, cmp.operands[::-1]):
        found = []
        row = _row_broadcast(x, rank, found) if _splat(y) == -math.inf else None
        top = row is not None and _row_reduce(row, rank, "maximum", -math.inf)
        if top:
            ops += [sel, cmp, top] + found
            return sel.operands[2], top.operands[0]
    return None


def _all_minus_inf(value, rank, ops: list):
    """The scores s if the booleans `value` are not(any(not(s == -inf))) along the rows,
    broadcast back (PyTorch's decomposed safe softmax: all(s == -inf)), the ops added to
    `ops`; else None."""
    found, outer = [], 0
    while True:  # the row's answer broadcast back along the last dim, negated
        op = _owner(value)
        if op is None:
            return None
        if op.key == "not":
            outer += 1
        elif op.key in BROADCASTS + ("reshape", "dynamic_reshape"):
            if not _along_rows(op, rank):
                return None
        else:
            break
        found.append(op)
        value = op.operands[0]
    any_ = _row_reduce(value, rank, "or", 0.0)
    neg = any_ and _owner(any_.operands[0], ("not",))
    cmp = neg and _owner(neg.operands[0], ("compare",))
    if outer != 1 or not cmp or getattr(cmp.attrs.get("comparison_direction"), "value", None) != "EQ":
        return None
    for x, y in (cmp.operands, cmp.operands[::-1]):
        if _splat(y) == -math.inf and x.type.rank == rank:
            ops += found + [any_, neg, cmp]
            return x
    return None


def _same_size(p, q) -> bool:
    """Whether two (value, dim) pairs are always the same size: one earliest source."""
    a, b = earliest_size(*p), earliest_size(*q)
    return a[0] is b[0] and a[1] == b[1]


def _is_size(element, value, dim: int) -> bool:
    """Whether a shape tensor's element (cse.shape_elements: an int, or (value, dim) of a
    get_dimension_size) is always `value`'s size `dim`."""
    n = value.type.shape[dim]
    if isinstance(element, (int, np.integer)):
        return element == n
    return isinstance(element, tuple) and _same_size(element, (value, dim))


def _is_product(element, value) -> bool:
    """Whether a shape tensor's element is value's size 0 times its size 1 (a view merging
    value's two leading dims): a constant, or a computed product of those two sizes."""
    n0, n1 = value.type.shape[:2]
    if isinstance(element, (int, np.integer)):
        return n0 is not None and n1 is not None and element == n0 * n1
    op = isinstance(element, ComputedSize) and _owner(element.value, ("multiply",))
    if not op:
        return False
    for x, y in (op.operands, op.operands[::-1]):
        ex, ey = shape_elements(x), shape_elements(y)
        if ex and ey and len(ex) == len(ey) == 1 and _is_size(ex[0], value, 0) \
                and _is_size(ey[0], value, 1):
            return True
    return False


def _view_elements(op):
    """A reshape's result sizes as shape elements: its static dims, or a dynamic_reshape's
    shape tensor's elements; None when unknown."""
    if op.key == "reshape":
        return list(op.results[0].type.shape)
    elements = shape_elements(op.operands[1])
    return elements if elements is not None and len(elements) == op.results[0].type.rank else None


def _merged_batch(value):
    """(x, its two leading dims, the view's first size as a shape element) if `value` is a
    reshape of x [g1, g2, ...] to [n, ...], its other sizes x's, g2 static (PyTorch's
    decomposed matmuls view [b, h, ...] so for bmm; a dynamic_reshape with `?` dims); then
    n = g1 * g2 (the element count is kept) wherever x has elements. Else None."""
    op = _owner(value, ("reshape", "dynamic_reshape"))
    if op is None:
        return None
    x = op.operands[0]
    src, elements = list(x.type.shape), _view_elements(op)
    if elements is None or len(src) != len(elements) + 1 or src[1] is None \
            or not all(_is_size(e, x, d) for d, e in enumerate(elements[1:], 2)):
        return None
    return x, src[:2], elements[0]


def _same_element(e1, e2) -> bool:
    """Two shape elements (cse.shape_elements) always equal: equal ints, sizes of one
    source, or one computed value."""
    if isinstance(e1, ComputedSize) or isinstance(e2, ComputedSize):
        return isinstance(e1, ComputedSize) and isinstance(e2, ComputedSize) \
            and e1.value is e2.value
    if isinstance(e1, tuple) and isinstance(e2, tuple):
        return _same_size(e1, e2)
    return not isinstance(e1, tuple) and not isinstance(e2, tuple) and e1 == e2


def _merges(a, b) -> bool:
    """Whether both bmm operands' views (_merged_batch) merge their own [g1, g2]: one view's
    first size is proven g1 * g2 (_is_product), the other's is that same element (the
    bmm's batch sizes are equal, so its g1 is too) or proven as well; the g2 equal."""
    if a is None or b is None or a[1][1] != b[1][1]:
        return False
    proven = [_is_product(m[2], m[0]) for m in (a, b)]
    return all(proven) or (any(proven) and _same_element(a[2], b[2]))


def _splits_back(split: Operation, x, dot: Operation) -> bool:
    """Whether `split` (a reshape) views the rank-3 `dot` result [g1 * g2, m, n] as [g1, g2,
    m, n], g1 and g2 x's two leading dims."""
    elements = split.key in ("reshape", "dynamic_reshape") and _view_elements(split)
    result = dot.results[0]
    return bool(elements) and len(elements) == 4 and _is_size(elements[0], x, 0) \
        and _is_size(elements[1], x, 1) \
        and all(_is_size(e, result, d) for d, e in enumerate(elements[2:], 1))


def unmerge_batch(dot: Operation):
    """reshape(dot_general(reshape(a), reshape(b))), the inner reshapes merging the same two
    leading batch dims into one and the outer one splitting them back (PyTorch's decomposed
    bmm between [b, h, ...] tensors), rewritten as one dot_general of a and b over both batch
    dims, so that attention's two products and its softmax have one rank. Returns the new
    dot, or None (nothing changed)."""
    dims = dot.attrs.get("dot_dimension_numbers")
    if dims is None or len(dot.operands) != 2 or dot.results[0].type.rank != 3 \
            or list(dims["lhs_batching_dimensions"]) != [0] or list(dims["rhs_batching_dimensions"]) != [0]:
        return None
    a, b = (_merged_batch(x) for x in dot.operands)
    users = list(dot.results[0].users)
    if not _merges(a, b) or len(users) != 1 or not _splits_back(users[0], a[0], dot):
        return None
    split = users[0]
    moved = {f"{side}_contracting_dimensions": tuple(d + 1 for d in dims[f"{side}_contracting_dimensions"])
             for side in ("lhs", "rhs")}
    new_dims = dict(dims, lhs_batching_dimensions=(0, 1), rhs_batching_dimensions=(0, 1), **moved)
    new = Operation(dot.name, [a[0], b[0]], [split.results[0].type],
                    dict(dot.attrs, dot_dimension_numbers=new_dims), [], dot.loc)
    block = dot.parent
    block.ops.insert(block.ops.index(dot), new)
    new.parent = block
    split.results[0].replace_all_uses_with(new.results[0])
    views = [_owner(x) for x in dot.operands]
    split.erase()
    dot.erase()
    for view in views:
        if view.parent is not None and not any(r.users for r in view.results):
            view.erase()
    return new


def match(pv: Operation):
    """(ops of the pattern ending at dot_general `pv`, its first dot, the scale, the causal
    mask's c or None, the masking op or None, whether rows of -inf scores give zeros, (the
    bias's add, the bias) or None), or None."""
    if pv.key != "dot_general" or len(pv.operands) != 2:
        return None
    p, v = pv.operands
    types = [p.type, v.type, pv.results[0].type]
    if p.type.rank < 2 or any(t.elem not in ELEMENTS for t in types):
        return None
    if not _dims(pv, p.type.rank - 1, p.type.rank - 2, p.type.rank):
        return None
    ops = [pv]
    value = _through_views(p, ops)
    safe = _zero_rows(value, ops)
    div = _owner(safe[0] if safe else value, ("divide",))
    rank = div.results[0].type.rank if div else 0  # the softmax's
    row_sum = div and _row_broadcast(div.operands[1], rank, ops)
    total = row_sum is not None and _row_reduce(row_sum, rank, "add", 0.0)
    exp = div and _owner(div.operands[0], ("exponential",))
    if not (total and exp) or total.operands[0] is not div.operands[0]:
        return None
    sub = _owner(exp.operands[0], ("subtract",))
    row_max = sub and _row_broadcast(sub.operands[1], rank, ops, floor=-math.inf)
    top = row_max is not None and _row_reduce(row_max, rank, "maximum", -math.inf)
    if not top or top.operands[0] is not sub.operands[0] or (safe and safe[1] is not top.operands[0]):
        return None
    ops += [div, total, exp, sub, top]
    # from the softmax's input down to the scores: unit views, a causal mask or a bias, then
    # (inside it, so that the fill is what the softmax sees) the scaling, each optional
    value, scale, causal, mask, scaled, bias = sub.operands[0], 1.0, None, None, False, None
    while True:
        value = _through_views(value, ops)
        op = _owner(value)
        if op is None or op.key == "dot_general":
            break
        if mask is None and bias is None and not scaled:
            value, causal, mask = _unmasked(value, value.type.rank)
            if mask is not None:
                ops.append(mask)
                continue
            biased = _bias(op, value.type.rank)
            if biased is not None:
                value, bias = biased[0], (op, biased[1])
                ops.append(op)
                continue
        found = not scaled and op.key in ("multiply", "divide") and _scaling(op)
        if not found:
            return None
        (scale, value), scaled = found, True
        ops.append(op)
    qk = op
    if qk is None or len(qk.operands) != 2:
        return None
    q, rank = qk.operands[0], qk.operands[0].type.rank
    (q, q_scale), (k_in, k_scale) = (_operand_scaling(x, ops) for x in qk.operands)
    scale *= q_scale * k_scale
    k = _keys(qk, k_in, ops)
    if k is None or any(t.elem not in ELEMENTS for t in (q.type, k.type)):
        return None
    contract = rank - 1 if k is k_in else rank - 2
    if not _dims(qk, rank - 1, contract, rank):
        return None
    ops.append(qk)
    members = {id(o) for o in ops}
    for op in ops:  # every intermediate is read only inside the pattern
        if op is not pv and any(id(u) not in members for r in op.results for u in r.users):
            return None
    if bias is not None:  # of the kernel's rank, and read from outside the pattern
        bc = _owner(bias[1], BROADCASTS)
        source = _owner(bc.operands[0] if bc is not None else bias[1])
        if bias[1].type.rank != rank or (source is not None and id(source) in members):
            return None
    return ops, qk, scale, causal, mask, safe is not None, bias


def _constant_chain(value) -> bool:
    """A splat constant or a broadcast of one: copied into the fusion rather than an input."""
    return _splat(value) is not None


def _erase_unread(values) -> None:
    """The ops of a mask's computation that nothing reads any more (the mask fused away)."""
    todo = list(values)
    while todo:
        op = _owner(todo.pop())
        if op is None or op.parent is None or op.key not in MASK_OPS or op.regions \
                or any(r.users for r in op.results):
            continue
        todo += op.operands
        op.erase()


def build(block: Block, ops: list, qk: Operation, scale: float, causal=None, mask=None,
          safe=False, bias=None) -> Operation:
    """The pattern's ops moved into one kOutput fusion in place of its last dot. The masking
    op (`mask`, of a causal mask with c = `causal`) is not copied: its result is the scores it
    masks there, and the first dot carries `aot.causal` (and `aot.safe_softmax` if `safe`).
    A bias's add or select (`bias` = (that op, the bias)) is copied, marked `aot.bias`, and
    so is a broadcast that makes the bias: the broadcast's operand is the fusion's input."""
    order = {id(o): i for i, o in enumerate(block.ops)}
    members = sorted(ops, key=lambda o: order[id(o)])
    pv = ops[0]
    region_block, mapping, inputs, copied = Block(), {}, [], []

    def bring(value):
        if value in mapping:
            return
        op = _owner(value)
        if op is not None and _constant_chain(value):
            for x in op.operands:
                bring(x)
            region_block.append(clone_op(op, mapping))
            copied.append(op)
            return
        inputs.append(value)
        mapping[value] = region_block.add_arg(value.type)

    def bring_bias(value):
        op = _owner(value, BROADCASTS)
        if op is None or value in mapping:
            return bring(value)
        for x in op.operands:
            bring(x)
        region_block.append(clone_op(op, mapping))
        copied.append(op)
    for op in members:
        if op is mask:
            kept = next(x for x in op.operands if any(x is r for m in members for r in m.results))
            mapping[op.results[0]] = mapping[kept]
            continue
        for x in op.operands:
            if not any(x is r for m in members for r in m.results):
                (bring_bias if bias is not None and op is bias[0] else bring)(x)
        new = region_block.append(clone_op(op, mapping))
        if bias is not None and op is bias[0]:
            new.attrs["aot.bias"] = list(op.operands).index(bias[1])
            if op.key == "select":  # a mask: where it is `aot.keep_if`, the scores; else fill
                fill_true = _splat(op.operands[1])
                new.attrs["aot.keep_if"] = int(fill_true is None)
                new.attrs["aot.fill"] = _splat(op.operands[2]) if fill_true is None else fill_true
        if op is qk:
            new.attrs["aot.attention"] = scale
            if causal is not None:
                new.attrs["aot.causal"] = causal
            if safe:
                new.attrs["aot.safe_softmax"] = 1
    region_block.append(Operation("mhlo.return", [mapping[pv.results[0]]], [], {}, loc=pv.loc))
    fusion = Operation("mhlo.fusion", inputs, [pv.results[0].type], {"fusion_kind": "kOutput"},
                       [Region([region_block])], pv.loc)
    block.ops.insert(block.ops.index(pv), fusion)
    fusion.parent = block
    pv.results[0].replace_all_uses_with(fusion.results[0])
    mask_inputs = list(mask.operands) if mask is not None else []
    for op in reversed(members):
        op.erase()
    for op in reversed(copied):  # constants only the pattern read
        if op.parent is not None and not any(r.users for r in op.results):
            op.erase()
    _erase_unread(mask_inputs)
    return fusion


def fuse_attention(func: Operation, target, report: list) -> None:
    """Every attention pattern in `func` (any block) as one fusion, where the target has the
    kernel: its marked first dot has an `epilogue` rule there."""
    if getattr(target, "gpu", None) is not None:
        return
    for block in list(blocks([func])):
        for op in [o for o in block.ops if o.key == "dot_general"]:
            if op.parent is not block:
                continue
            op = unmerge_batch(op) or op
            found = match(op)
            if found is None:
                continue
            ops, qk, scale, causal, mask, safe, bias = found
            qk.attrs["aot.attention"] = scale
            has_kernel = registry.rule(qk, "epilogue", target) is not None
            del qk.attrs["aot.attention"]
            if not has_kernel:
                return
            build(block, ops, qk, scale, causal, mask, safe, bias)
            why = "softmax(q k^T * scale) v: scores, softmax and the second product per query " \
                  "block in one kernel, nothing in memory"
            if causal is not None:
                why += f"; causal (key <= query + {causal}): masked key blocks skipped"
            if bias is not None:
                why += "; a bias (or mask) added to the scores, read in place"
            report.append({"kernel": "fusion", "kind": "kOutput (attention)", "ops": ops, "why": why})
