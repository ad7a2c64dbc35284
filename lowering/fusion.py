"""Fusion stage: group ops into `mhlo.fusion` kernels.

kLoop: an elemental root (elementwise, broadcast, reshape, transpose, slice, ...)
with the elemental producers whose every use is inside the group; one loop nest
computes the root element by element, producers recomputed in registers.
kInput: a reduce with its elemental producers; the reduction loop reads them
directly, so the reduced operand is never written to memory.
Every elemental op ends up in exactly one fusion, so later stages see only
fusions and library-like kernels (dot).
"""
from __future__ import annotations

import numpy as np

from . import ops as T
from .ir import Block, DenseAttr, Module, Operation, Region, clone_op, replace_all_uses, uses
from .shapes import SHAPE_OPERANDS


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
    return op.dialect in ("mhlo", "dhlo") and op.key in T.ELEMENTAL


def used_as_shape(op: Operation, users: dict) -> bool:
    """A value read on the host as sizes or offsets must be materialised in a buffer."""
    for r in op.results:
        for u in users.get(r, []):
            for i in SHAPE_OPERANDS.get(u.key, ()):
                if i < len(u.operands) and u.operands[i] is r:
                    return True
    return False


def cheap_to_duplicate(op: Operation) -> bool:
    """Ops that cost no memory traffic to recompute in several kernels."""
    if op.key in ("constant", "iota"):
        return True
    if op.key == "broadcast_in_dim":
        src = op.operands[0].owner
        return isinstance(src, Operation) and src.short_name == "constant" and is_splat_constant(src)
    return False


def fuse_function(func: Operation) -> None:
    fuse_block(func.regions[0].blocks[0])


def fuse_block(block: Block) -> None:
    """Fuse the ops of one block; loop bodies and branches are blocks of their own."""
    for op in block.ops:
        if op.key in T.CONTROL_FLOW:
            for region in op.regions:
                fuse_block(region.blocks[0])
    body = [op for op in block.ops if not op.name.endswith(".return")]
    users = uses(block.ops)
    group_of: dict = {}
    groups: list[dict] = []
    duplicates: list = []  # (op, group) pairs: cheap producers copied into several kernels

    for op in reversed(body):
        if op.key == "reduce":
            group = {"kind": "kInput", "root": op, "ops": [op]}
            groups.append(group)
            group_of[op] = group
            continue
        if not fusible(op):
            continue
        if used_as_shape(op, users):
            group = {"kind": "kLoop", "root": op, "ops": [op]}
            groups.append(group)
            group_of[op] = group
            continue
        consumers = [u for r in op.results for u in users.get(r, [])]
        consumer_groups = {id(group_of.get(u)): group_of.get(u) for u in consumers}
        if consumers and None not in consumer_groups.values() and len(consumer_groups) == 1:
            group = next(iter(consumer_groups.values()))
            group["ops"].append(op)
            group_of[op] = group
        elif consumers and cheap_to_duplicate(op) and None not in consumer_groups.values():
            for g in consumer_groups.values():
                duplicates.append((op, g))
        else:
            group = {"kind": "kLoop", "root": op, "ops": [op]}
            groups.append(group)
            group_of[op] = group
    for op, group in duplicates:
        group["ops"].append(op)

    fused_ids = {id(op) for g in groups for op in g["ops"]}
    new_ops = []
    fusions = {id(g["root"]): g for g in groups}
    for op in block.ops:
        if id(op) in fusions:
            new_ops.append(build_fusion(fusions[id(op)], block))
        elif id(op) not in fused_ids:
            new_ops.append(op)
    block.ops = []
    for op in new_ops:
        block.append(op)


def build_fusion(group: dict, block: Block) -> Operation:
    """An `mhlo.fusion` whose region holds the group's ops in program order."""
    order = {id(op): i for i, op in enumerate(block.ops)}
    members = sorted({id(op): op for op in group["ops"]}.values(), key=lambda o: order[id(o)])
    inside = {r for op in members for r in op.results}
    inputs = []
    for op in members:
        for v in op.operands:
            if v not in inside and v not in inputs:
                inputs.append(v)
    root = group["root"]
    region_block = Block([v.type for v in inputs])
    mapping = dict(zip(inputs, region_block.args))
    for op in members:
        region_block.append(clone_op(op, mapping))
    region_block.append(Operation("mhlo.return", [mapping[r] for r in root.results], [], {},
                                  loc=root.loc))
    fusion = Operation("mhlo.fusion", inputs, [r.type for r in root.results],
                       {"fusion_kind": group["kind"]}, [Region([region_block])], root.loc)
    for old, new in zip(root.results, fusion.results):
        replace_all_uses(block.ops, old, new)
    return fusion


def fuse(module: Module) -> Module:
    for func in module.functions():
        fuse_function(func)
    return module
