"""Attention as one kernel: softmax(q k^T * scale) v becomes one fusion, run per query block.

Fused the usual way, attention is three kernels (q k^T, the row softmax, p v) with its [s, s]
scores and probabilities in memory between them. Where the target has a kernel for the whole
(the CPU's, codegen/cpu/attention.py, registered as the `epilogue` rule of a dot_general marked
`aot.attention`), this pass finds the ops of

    s = dot_general(q, k)     batch dims leading on both, q's last dim against k's last
    l = s * c  (or s / c)     optional: c a positive splat constant (the scale, or 1 / it)
    m = reduce(l, -inf) max over the last dim;  e = exp(l - broadcast(m))
    z = reduce(e, 0) add over the last dim;     p = e / broadcast(z)
    o = dot_general(p, v)     batch dims leading, p's last dim against v's second to last

(each intermediate used only inside the pattern, f32; the broadcasts also as jax.nn.softmax
writes them: through [..., s, 1], static or dynamic, the max clamped below by -inf) and puts
them in one kOutput fusion rooted at o whose first dot carries `aot.attention` = the scale.
A division by c is a multiplication by 1 / c there (exact when c is a power of two, as
sqrt(64) is; within an ulp of each score otherwise). The ops stay in the region as the
fusion's meaning (shape inference reads them); the splat constants they use are copied in.
It runs at the start of the fusion stage (passes/fusion.py), before the other kernels are
formed."""
from __future__ import annotations

import math

import numpy as np

from lowering.ir.core import Block, Operation, Region, blocks, clone_op
from lowering.ops import registry

BROADCASTS = ("broadcast_in_dim", "dynamic_broadcast_in_dim")
ELEMENTS = ("f32",)  # what the CPU's kernel computes


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
    along the last dim (static or dynamic), through [..., s, 1] by a broadcast or a reshape,
    and, with `floor`, a maximum with a splat constant `floor` (softmax's max with -inf)."""
    while True:
        op = _owner(value)
        if op is None:
            return None
        shape_in = op.operands[0].type.shape if op.operands else ()
        if op.key in BROADCASTS:
            dims = list(op.attrs["broadcast_dimensions"])
            if len(shape_in) == rank - 1 and dims == list(range(rank - 1)):
                pass
            elif not (len(shape_in) == rank and dims == list(range(rank)) and shape_in[-1] == 1):
                return None
        elif op.key == "reshape":
            if not (len(shape_in) == rank - 1 and op.results[0].type.shape[-1] == 1):
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


def match(pv: Operation):
    """(ops of the pattern ending at dot_general `pv`, its first dot, the scale), or None."""
    if pv.key != "dot_general" or len(pv.operands) != 2:
        return None
    p, v = pv.operands
    rank = p.type.rank
    types = [p.type, v.type, pv.results[0].type]
    if rank < 2 or any(t.rank != rank or t.elem not in ELEMENTS for t in types):
        return None
    if not _dims(pv, rank - 1, rank - 2, rank):
        return None
    ops = [pv]
    div = _owner(p, ("divide",))
    row_sum = div and _row_broadcast(div.operands[1], rank, ops)
    total = row_sum is not None and _row_reduce(row_sum, rank, "add", 0.0)
    exp = div and _owner(div.operands[0], ("exponential",))
    if not (total and exp) or total.operands[0] is not div.operands[0]:
        return None
    sub = _owner(exp.operands[0], ("subtract",))
    row_max = sub and _row_broadcast(sub.operands[1], rank, ops, floor=-math.inf)
    top = row_max is not None and _row_reduce(row_max, rank, "maximum", -math.inf)
    if not top or top.operands[0] is not sub.operands[0]:
        return None
    scaled = sub.operands[0]
    ops += [div, total, exp, sub, top]
    scale, qk = 1.0, _owner(scaled, ("dot_general",))
    if qk is None:  # the scores times a constant, or divided by one (its reciprocal here)
        mul = _owner(scaled, ("multiply", "divide"))
        if mul is None:
            return None
        pairs = [mul.operands] if mul.key == "divide" else [mul.operands, mul.operands[::-1]]
        for x, c in pairs:
            scale, qk = _splat(c), _owner(x, ("dot_general",))
            if scale is not None and qk is not None:
                break
        if qk is None or scale is None or not (0 < scale < math.inf):
            return None
        scale = 1.0 / scale if mul.key == "divide" else scale
        ops.append(mul)
    q, k = qk.operands
    if any(t.rank != rank or t.elem not in ELEMENTS for t in (q.type, k.type)):
        return None
    if not _dims(qk, rank - 1, rank - 1, rank):
        return None
    ops.append(qk)
    members = {id(o) for o in ops}
    for op in ops:  # every intermediate is read only inside the pattern
        if op is not pv and any(id(u) not in members for r in op.results for u in r.users):
            return None
    return ops, qk, scale


def _constant_chain(value) -> bool:
    """A splat constant or a broadcast of one: copied into the fusion rather than an input."""
    return _splat(value) is not None


def build(block: Block, ops: list, qk: Operation, scale: float) -> Operation:
    """The pattern's ops moved into one kOutput fusion in place of its last dot."""
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
    for op in members:
        for x in op.operands:
            if not any(x is r for m in members for r in m.results):
                bring(x)
        new = region_block.append(clone_op(op, mapping))
        if op is qk:
            new.attrs["aot.attention"] = scale
    region_block.append(Operation("mhlo.return", [mapping[pv.results[0]]], [], {}, loc=pv.loc))
    fusion = Operation("mhlo.fusion", inputs, [pv.results[0].type], {"fusion_kind": "kOutput"},
                       [Region([region_block])], pv.loc)
    block.ops.insert(block.ops.index(pv), fusion)
    fusion.parent = block
    pv.results[0].replace_all_uses_with(fusion.results[0])
    for op in reversed(members):
        op.erase()
    for op in reversed(copied):  # constants only the pattern read
        if op.parent is not None and not any(r.users for r in op.results):
            op.erase()
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
            found = match(op)
            if found is None:
                continue
            ops, qk, scale = found
            qk.attrs["aot.attention"] = scale
            has_kernel = registry.rule(qk, "epilogue", target) is not None
            del qk.attrs["aot.attention"]
            if not has_kernel:
                return
            build(block, ops, qk, scale)
            report.append({"kernel": "fusion", "kind": "kOutput (attention)", "ops": ops,
                           "why": "softmax(q k^T * scale) v: scores, softmax and the second "
                                  "product per query block in one kernel, nothing in memory"})
