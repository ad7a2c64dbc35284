"""Fusion stage: group ops into `mhlo.fusion` kernels.

kLoop: an elemental root (elementwise, broadcast, reshape, transpose, slice, ...)
with the elemental producers whose every use is inside the group; one loop nest
computes the root element by element, producers recomputed in registers.
kInput: a reduce with its elemental producers; the reduction loop reads them
directly, so the reduced operand is never written to memory.
A reduction over the last dim whose result its consumers read only per row joins
their kernel (still kInput, with an elementwise root): the kernel walks each row
once per reduction and once for the result while the row is in cache, as softmax
and layernorm want, instead of reading the input from memory once per kernel.
kOutput: a dot (or a convolution) with the elementwise ops that consume its result
(bias, activation, residual): the packed matmul (the direct convolution) runs them on
each tile (output row) as soon as it is complete, while it is in cache, instead of in
a second pass over memory.
Every elemental op ends up in exactly one fusion, so later stages see only
fusions and library-like kernels (dot).
"""
from __future__ import annotations

import numpy as np

from lowering.ir.core import Block, Module, Operation, Region, clone_op, replace_all_uses, uses
from lowering.ops import registry
from lowering.ops.elemental import BROADCASTS
from lowering.passes.attention import fuse_attention


def is_splat_constant(op: Operation) -> bool:
    if op.short_name != "constant":
        return False
    arr = np.asarray(op.attrs["value"].array)
    return arr.size <= 1 or arr.strides and all(s == 0 for s in arr.strides) or bool(
        np.all(arr.reshape(-1).view(np.uint8).reshape(arr.size, -1) == arr.reshape(-1)[:1].view(
            np.uint8)))


def fusible(op: Operation) -> bool:
    """Computed element by element: can live inside a fusion."""
    if op.key == "constant":
        return is_splat_constant(op)
    return op.dialect in ("mhlo", "dhlo") and registry.is_kind(op.key, "elementwise", "elemental")


def used_as_shape(op: Operation, users: dict) -> bool:
    """A value read on the host as sizes or offsets must be materialised in a buffer."""
    for r in op.results:
        for u in users.get(r, []):
            for i in registry.shape_operands(u.key):
                if i < len(u.operands) and u.operands[i] is r:
                    return True
    return False


def cheap_to_duplicate(op: Operation) -> bool:
    """Ops that cost no memory traffic to recompute in several kernels (static or with a
    shape operand: the `?` form of a splat or an iota, which the static form folds)."""
    if op.key in ("constant", "iota", "dynamic_iota"):
        return True
    if op.key in BROADCASTS:
        src = op.operands[0].owner
        return isinstance(src, Operation) and src.short_name == "constant" and is_splat_constant(src)
    return False


# Ops whose kernels read their operands from buffers and may root a kOutput fusion.
OUTPUT_ROOTS = ("dot_general", "dot", "convolution")


def joins_as_output(dot: Operation, group: dict, target) -> bool:
    """A dot or convolution may root the epilogue of its consumers' kLoop group when the
    target's kernel for it runs epilogues (the CPU's packed matmul and direct convolution)
    and every op between it and the group's root is elementwise on its result's shape:
    each output element then needs only the same element of the product. The result must
    have the product's type, since the product is written into it first."""
    if group["kind"] != "kLoop" or registry.rule(dot, "epilogue", target) is None:
        return False
    root, product = group["root"], dot.results[0]
    if len(root.results) != 1 or root.results[0].type != product.type:
        return False
    members = {id(op) for op in group["ops"]}
    reached, frontier = set(), [product]
    while frontier:
        v = frontier.pop()
        for u in group["ops"]:
            if v not in u.operands or id(u) in reached:
                continue
            if not registry.is_kind(u.key, "elementwise") or u.results[0].type.shape != product.type.shape:
                return False
            reached.add(id(u))
            frontier.extend(u.results)
    return id(root) in reached and reached <= members


def joins_as_row_reduction(red: Operation, group: dict, target) -> bool:
    """A reduction over the last dim may join its consumers' kernel when they read its
    result only per row: through elementwise ops on row-shaped values into a broadcast
    along the leading dims to the root's rank. Each output row then needs that row's
    reduced value (or row 0's, where a broadcast expands a size-1 dim), which the kernel
    computes before the row's elements (loops.emit_row_fusion)."""
    root = group["root"]
    if group["kind"] not in ("kLoop", "kInput") or root.key == "reduce" or len(root.results) != 1:
        return False
    rank = red.operands[0].type.rank
    if len(red.operands) != 2 or list(red.attrs["dimensions"]) != [rank - 1]:
        return False
    if root.results[0].type.rank != rank or rank == 0:
        return False
    rows, out_shape = list(range(rank - 1)), root.results[0].type.shape
    seen, frontier, full = set(), [red.results[0]], []
    while frontier:
        v = frontier.pop()
        for u in group["ops"]:
            if v not in u.operands or id(u) in seen:
                continue
            seen.add(id(u))
            if (u.key in BROADCASTS and list(u.attrs["broadcast_dimensions"]) == rows
                    and u.results[0].type.rank == rank and u.operands[0] is v):
                full.extend(u.results)
                continue
            if registry.is_kind(u.key, "elementwise") and u.results[0].type.rank == rank - 1:
                frontier.extend(u.results)
                continue
            return False
    while full:  # from the broadcasts to the root: element by element, so row r stays row r
        v = full.pop()  # (a transpose there, as torch's attention after a layernorm, would
        for u in group["ops"]:  # read other rows' values: wrong results in the ? form)
            if v not in u.operands or id(u) in seen:
                continue
            seen.add(id(u))
            if u.key == "reduce" and list(u.attrs["dimensions"]) == [rank - 1]:
                continue  # the kernel's next row reduction (softmax's sum), checked as it joined
            if not registry.is_kind(u.key, "elementwise") or u.results[0].type.shape != out_shape:
                return False
            full.extend(u.results)
    return True


# Elementwise ops that cost tens of instructions per element (polynomials, divisions):
# worth a buffer rather than computing them again for every element a broadcast makes.
EXPENSIVE = frozenset({
    "sine", "cosine", "tan", "exponential", "exponential_minus_one", "log", "log_plus_one",
    "logistic", "tanh", "power", "atan2", "erf", "erf_inv", "erfc", "cbrt", "acos", "acosh",
    "asin", "asinh", "atan", "atanh", "cosh", "sinh", "lgamma", "digamma"})


def expands_outer_dims(bcast: Operation) -> bool:
    """A broadcast that makes copies along a dim before one of its operand's own dims: the
    loop nest (row-major over the result) then computes each operand element once per
    copy, and LLVM cannot hoist it. Copies along trailing dims only (a row's value spread
    over the row) are loop-invariant in the inner loops, so LLVM computes them once."""
    src, dst = bcast.operands[0].type.shape, bcast.results[0].type.shape
    dims = list(bcast.attrs["broadcast_dimensions"])
    kept = [d for i, d in enumerate(dims) if src[i] != 1]
    copied = [d for d in range(len(dst)) if d not in dims or (src[dims.index(d)] == 1
                                                              and dst[d] != 1)]
    return bool(kept) and bool(copied) and min(copied) < max(kept)


# Fewer extra evaluations than this cost less than a kernel and a buffer of their own
# (~0.3 us a call against ~2-4 ns an evaluation of cos/sin). At 1024, a static [1,8]
# Llama's RoPE (896 extra cos and sin in q's rotation) stayed fused: 6.7 us a kernel
# against 2.8 us split, its static library 1.2x slower than its dynamic one.
MIN_RECOMPUTED = 128


def elements(t) -> float:
    """A tensor type's element count; infinite when a dim is dynamic (it may be large)."""
    return float(np.prod(t.shape)) if None not in t.shape else float("inf")


def recomputed_in(op: Operation, group: dict, users: dict) -> bool:
    """An expensive op would be evaluated at least MIN_RECOMPUTED times more than its result
    has elements in the group's loop nest: a broadcast on its way to the root copies it
    along an outer dim, or a concatenation (not the root: an elemental select) evaluates
    it for the other operands' elements too. RoPE's cos/sin of a [seq, d/2] angle table,
    fused into the rotation of every batch row and head, were 37% of a Llama-like model's
    time."""
    if op.key not in EXPENSIVE:
        return False
    members, most = {id(o) for o in group["ops"]}, {}
    copies, frontier = 1.0, [(r, 1.0) for r in op.results]
    while frontier:
        value, factor = frontier.pop()
        for u in users.get(value, []):
            if id(u) not in members:
                continue
            if u.key in BROADCASTS and expands_outer_dims(u):
                out, src = elements(u.results[0].type), elements(u.operands[0].type)
                factor *= out if out == float("inf") else out / max(src, 1)
            elif u.key == "concatenate" and u is not group["root"]:
                factor *= len(u.operands)
            copies = max(copies, factor)
            for r in u.results:  # each value walked again only with more copies
                if most.get(r, 0) < factor:
                    most[r] = factor
                    frontier.append((r, factor))
    return (copies - 1) * elements(op.results[0].type) >= MIN_RECOMPUTED


# Kernel ops that may join their consumers' kernel: op key -> (test, the kernel's new kind).
JOINS = {**{k: (joins_as_output, "kOutput") for k in OUTPUT_ROOTS},
         "reduce": (joins_as_row_reduction, "kInput")}


def fuse_function(func: Operation, target, report: list | None = None) -> None:
    fuse_block(func.regions[0].blocks[0], target, report)


def unfused_reason(op: Operation, consumers: list, consumer_groups: dict) -> str:
    """Why an elemental op roots a kernel instead of joining its consumers'."""
    if not consumers:
        return "its result is not used"
    reader = next((u.key for u in consumers if u.key in OUTPUT_ROOTS), None)
    if reader is not None:
        return f"its result is an operand of a {reader}, which reads its operands from memory"
    outside = [u for u in consumers if consumer_groups.get(id(u)) is None]
    if outside:
        names = sorted({u.name for u in outside})
        return "its result is used outside any fusion (by " + ", ".join(names) + ")"
    return f"its result is used by {len(set(consumer_groups))} kernels: fusing would compute it in each"


def fuse_block(block: Block, target, report: list | None = None) -> None:
    """Fuse the ops of one block; loop bodies and branches are blocks of their own."""
    report = report if report is not None else []
    for op in block.ops:
        if registry.is_kind(op.key, "control"):
            for region in op.regions:
                fuse_block(region.blocks[0], target, report)
    body = [op for op in block.ops if not op.name.endswith(".return")]
    users = uses(block.ops)
    group_of: dict = {}
    groups: list[dict] = []
    copied_into: dict = {}  # op -> the kernels a cheap producer is copied into

    for op in reversed(body):
        joins = JOINS.get(op.key)
        if joins is not None:  # a dot, conv or reduce may join the one kernel its users are in
            consumers = [u for r in op.results for u in users.get(r, [])]
            groups_of_users = {id(group_of.get(u)): group_of.get(u) for u in consumers}
            group = next(iter(groups_of_users.values())) if len(groups_of_users) == 1 else None
            test, kind = joins
            if group is not None and test(op, group, target):
                group["kind"] = kind
                group["ops"].append(op)
                group_of[op] = group
                continue
        if op.key == "reduce":
            group = {"kind": "kInput", "root": op, "ops": [op],
                     "why": "a reduction roots a kInput kernel; its result is materialised"}
            groups.append(group)
            group_of[op] = group
            continue
        if not fusible(op):
            if (op.dialect in ("mhlo", "dhlo") and not registry.is_kind(op.key, "control")
                    and op.key not in ("return", "fusion")):  # (a fusion: passes/attention.py's)
                report.append({"kernel": op.name, "kind": "own kernel", "ops": [op],
                               "why": "not an elemental op: it gets a kernel of its own"
                               if op.key != "constant" else "a non-splat constant: a global buffer"})
            continue
        if used_as_shape(op, users):
            group = {"kind": "kLoop", "root": op, "ops": [op],
                     "why": "its result is read on the host as a shape, so it is materialised"}
            groups.append(group)
            group_of[op] = group
            continue
        consumers = [u for r in op.results for u in users.get(r, [])]
        # a matmul's operands are read from buffers: their producers are not fused into it
        # (a consumer copied into several kernels, a splat's broadcast: each of them)
        consumer_groups = {id(g): g for u in consumers for g in copied_into.get(
            u, [group_of.get(u) if u.key not in OUTPUT_ROOTS else None])}
        single = next(iter(consumer_groups.values())) if len(consumer_groups) == 1 else None
        if consumers and single is not None and recomputed_in(op, single, users):
            group = {"kind": "kLoop", "root": op, "ops": [op],
                     "why": "an expensive op its consumers' kernel would compute again for "
                            "every copy a broadcast (or concatenation) makes of it"}
            groups.append(group)
            group_of[op] = group
        elif consumers and single is not None:
            single["ops"].append(op)
            group_of[op] = single
        elif consumers and cheap_to_duplicate(op) and None not in consumer_groups.values():
            copied_into[op] = list(consumer_groups.values())
        else:
            group = {"kind": "kLoop", "root": op, "ops": [op],
                     "why": unfused_reason(op, consumers, {id(u): group_of.get(u) for u in consumers})}
            groups.append(group)
            group_of[op] = group
    for op, into in copied_into.items():
        for group in into:
            group["ops"].append(op)
    for g in groups:
        report.append({"kernel": "fusion", "kind": g["kind"], "ops": g["ops"], "why": g["why"]})

    fused_ids = {id(op) for g in groups for op in g["ops"]}
    new_ops = []
    fusions = {id(g["root"]): g for g in groups}
    order = {id(op): i for i, op in enumerate(block.ops)}
    for op in block.ops:
        if id(op) in fusions:
            new_ops.append(build_fusion(fusions[id(op)], order))
        elif id(op) not in fused_ids:
            new_ops.append(op)
    block.ops = []
    for op in new_ops:
        block.append(op)


def structural_inputs(root: Operation, members: list, inside: set) -> list:
    """The values a fusion reads from outside, in the order a walk from its root's operands
    first reaches them (then any member's the walk misses, in program order): two layers'
    like fusions take their operands alike, however the shared shape code between them was
    placed, so their kernels are the same text and LLVM compiles one (the Llama-like
    program's dynamic form had pairs differing only in argument order)."""
    found, seen, stack = {}, set(), [root]
    while stack:
        op = stack.pop()
        if id(op) in seen:
            continue
        seen.add(id(op))
        for v in op.operands:
            if v not in inside:
                found.setdefault(v, None)
        stack.extend(v.owner for v in reversed(op.operands) if v in inside)
    for op in members:
        for v in op.operands:
            if v not in inside:
                found.setdefault(v, None)
    return list(found)


def build_fusion(group: dict, order: dict) -> Operation:
    """An `mhlo.fusion` whose region holds the group's ops in program order (`order`: each
    op's position in the block, by id)."""
    members = sorted({id(op): op for op in group["ops"]}.values(), key=lambda o: order[id(o)])
    inside = {r for op in members for r in op.results}
    root = group["root"]
    inputs = structural_inputs(root, members, inside)
    region_block = Block([v.type for v in inputs])
    mapping = dict(zip(inputs, region_block.args))
    for op in members:
        region_block.append(clone_op(op, mapping))
    region_block.append(Operation("mhlo.return", [mapping[r] for r in root.results], [], {},
                                  loc=root.loc))
    fusion = Operation("mhlo.fusion", inputs, [r.type for r in root.results],
                       {"fusion_kind": group["kind"]}, [Region([region_block])], root.loc)
    for old, new in zip(root.results, fusion.results):
        replace_all_uses(old, new)
    return fusion


def fuse(module: Module, target) -> Module:
    for func in module.functions():
        fuse_attention(func, target, module.report)  # whole attentions first: one kernel each
        fuse_function(func, target, module.report)
    return module


def format_report(module) -> str:
    """One paragraph per kernel: kind, ops with their source locations, and why its root was
    not fused into a neighbour."""
    lines = []
    entries = sorted(module.report, key=lambda e: (e["ops"][0].loc.line, e["ops"][0].loc.col))
    for k, entry in enumerate(entries):
        ops = sorted(entry["ops"], key=lambda o: (o.loc.line, o.loc.col))
        root = entry["ops"][0]
        lines.append(f"kernel {k}: {entry['kind']} at {root.loc} ({len(ops)} op"
                     f"{'s' if len(ops) != 1 else ''})")
        lines.append("  ops: " + ", ".join(f"{o.name} ({o.loc.line}:{o.loc.col})" for o in ops))
        lines.append(f"  root {root.name}: {entry['why']}")
    return "\n".join(lines) + "\n"
