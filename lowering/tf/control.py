"""TF2's functional control flow and calls, and the graph's plumbing: tf.While/tf.If with
function attributes become mhlo while/if whose regions hold the called functions' bodies
(lowered in place), calls are inlined, Identity-like ops forward their operands."""
from __future__ import annotations

import copy

from lowering.ir.core import Block, Operation, Region, TensorType
from lowering.tf.emitter import Emitter, join_types
from lowering.tf.table import tf_op

G = "graph plumbing"
C = "control flow and calls"


@tf_op("Identity", "IdentityN", "StopGradient", "Snapshot", "PreventGradient", "EnsureShape",
       group=G)
def identity(e, op, args):
    return list(args)


@tf_op("NoOp", group=G)
def no_op(e, op, args):
    return []


def relax(e: Emitter, v, t: TensorType):
    """v given type t, which has `?` where v is static (a carried value or a branch result
    whose shape may change): a dynamic_reshape to its own dims."""
    if v.type == t:
        return v
    return e.v("dynamic_reshape", [v, e.shape_tensor(e.dims(v))], result_type=t)


def _pred(e: Emitter, v):
    """A tensor<i1> predicate: a non-bool scalar is true where non-zero (TF's rule)."""
    if v.type.rank != 0:
        raise e.error(f"the predicate must be a scalar, got {v.type}")
    if v.type.elem == "i1":
        return v
    return e.compare(v, e.const(0, v.type.elem, ()), "NE")


def _ret(block, values, loc):
    block.append(Operation("mhlo.return", list(values), (), {}, (), loc))


def join_branches(e: Emitter, blocks: list, outs: list) -> list:
    """The result types of an if/case whose branch `blocks` computed `outs`: as every branch
    allows (dims that differ are `?`); each block is ended by the return of its values
    relaxed to them. The TF and PyTorch front ends' one join (e may be either's emitter)."""
    if any(len(o) != len(outs[0]) for o in outs):
        raise e.error("the branches return different numbers of values")
    types = [v.type for v in outs[0]]
    try:
        for o in outs[1:]:
            types = [join_types(t, v.type) for t, v in zip(types, o)]
    except ValueError as err:
        raise e.error(f"the branches' results differ: {err}")
    for block, vals in zip(blocks, outs):
        inner = copy.copy(e)  # the same emitter, building in the branch's block
        inner.block = block
        _ret(block, [relax(inner, v, t) for v, t in zip(vals, types)], e.loc)
    return types


@tf_op("While", "StatelessWhile", group=C)
def while_(e: Emitter, op, args):
    """mhlo.while over the carried values (their types relaxed to `?` where TF's declared
    results are), cond and body the bodies of @cond and @body."""
    types = []
    for v, r in zip(args, op.results):
        t = v.type
        if isinstance(r.type, TensorType) and r.type.rank == t.rank:
            t = join_types(t, TensorType(r.type.shape, t.elem))
        types.append(t)
    carried = [relax(e, v, t) for v, t in zip(args, types)]
    cond_block, body_block = Block(types), Block(types)
    ce = Emitter(cond_block, e.loc, e.tf_op)
    cond = e.lowerer.inline(e, "cond", list(cond_block.args), cond_block)
    if len(cond) != 1:
        raise e.error(f"@cond returns {len(cond)} values, not one predicate")
    _ret(cond_block, [_pred(ce, cond[0])], e.loc)
    be = Emitter(body_block, e.loc, e.tf_op)
    out = e.lowerer.inline(e, "body", list(body_block.args), body_block)
    if len(out) != len(types):
        raise e.error(f"@body returns {len(out)} values for {len(types)} carried")
    _ret(body_block, [relax(be, v, t) if v.type.rank == t.rank else v for v, t in zip(out, types)],
         e.loc)
    w = e.op("while", carried, {}, types, [Region([cond_block]), Region([body_block])])
    return list(w.results)


@tf_op("If", "StatelessIf", group=C)
def if_(e: Emitter, op, args):
    """mhlo.if on the predicate; each branch the body of its function on the operands; the
    results typed as both branches allow (dims that differ are `?`)."""
    pred, *ins = args
    pred = _pred(e, pred)
    blocks, outs = [], []
    for attr in ("then_branch", "else_branch"):
        block = Block()
        outs.append(e.lowerer.inline(e, attr, list(ins), block))
        blocks.append(block)
    types = join_branches(e, blocks, outs)
    r = e.op("if", [pred], {}, types, [Region([b]) for b in blocks])
    return list(r.results)


@tf_op("PartitionedCall", "StatefulPartitionedCall", group=C)
def call(e: Emitter, op, args):
    """The body of @f lowered in place."""
    return e.lowerer.inline(e, "f", list(args), e.block)


@tf_op("ReadVariableOp", group=G)
def read_variable(e: Emitter, op, args):
    """The variable's value: a frozen constant, or the tensor argument a typed resource
    (`!tf_type.resource<tensor<...>>`) became."""
    return [args[0]]


@tf_op("PlaceholderWithDefault", group=G)
def placeholder_with_default(e: Emitter, op, args):
    """Not fed: its default."""
    return [args[0]]


@tf_op("Case", "StatelessCase", group=C)
def case(e: Emitter, op, args):
    """mhlo.case on the branch index (out of range: the last branch, as TF's default), each
    region the body of one of `branches` on the operands."""
    index, *ins = args
    if index.type.rank != 0:
        raise e.error(f"the branch index must be a scalar, got {index.type}")
    names = op.attrs.get("branches")
    if not isinstance(names, list) or not names:
        raise e.error("needs a 'branches' list of functions")
    blocks, outs = [], []
    for ref in names:
        block = Block()
        outs.append(e.lowerer.inline(e, "branches", list(ins), block, ref))
        blocks.append(block)
    types = join_branches(e, blocks, outs)
    r = e.op("case", [e.convert(index, "i32")], {}, types, [Region([b]) for b in blocks])
    return list(r.results)
