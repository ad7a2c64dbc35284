"""torch.cond as mhlo.if (each branch's subgraph lowered into its region, the enclosing
values visible), torch.while_loop as mhlo.while (as the TF front end's tf.While), and the
ops whose output size depends on the data (nonzero as dhlo.where, unique as a sort and
dhlo.unique)."""
from __future__ import annotations

from lowering.ir.core import Block, Operation, Region, TensorType
from lowering.tf.control import join_branches, relax
from lowering.tf.emitter import join_types
from lowering.torch.math_ops import arg_reduce
from lowering.torch.table import aten


@aten("higher_order.cond", group="control flow")
def cond(e, n):
    """mhlo.if on the predicate (a tensor, non-zero is true, or a constant bool); results
    typed as both branches allow (dims that differ are `?`)."""
    pred, branches, operands = n.positional(0), (n.positional(1), n.positional(2)), n.positional(3)
    if isinstance(pred, bool):  # decided at export: the branch taken, inline
        return n.lower_graph(branches[0 if pred else 1], list(operands), e.block)
    if pred.type.rank != 0:
        raise e.error(f"the predicate must be a scalar, got {pred.type}")
    if pred.type.elem != "i1":
        pred = e.compare(pred, e.scalar(0, pred.type.elem), "NE")
    blocks, outs = [Block(), Block()], []
    for graph, block in zip(branches, blocks):
        outs.append(n.lower_graph(graph, list(operands), block))
    types = join_branches(e, blocks, outs)
    return list(e.op("if", [pred], {}, types, [Region([b]) for b in blocks]).results)


@aten("higher_order.wrap_with_autocast", group="control flow")
def wrap_with_autocast(e, n):
    """A `torch.autocast(..., enabled=False)` region (EfficientViT keeps its attention in
    f32 so): its subgraph inline, as its ops' own types compute it. An enabled region would
    recast the ops' inputs, which is not modelled: an error."""
    if n.positional(2):
        raise e.error("a torch.autocast region that is enabled is not supported: export in "
                      "float32 without autocast, or convert the model (model.to(dtype))")
    graph = n.positional(4)
    return n.lower_graph(graph, [n.positional(i) for i in range(5, len(n.raw["inputs"]))], e.block)


@aten("higher_order.while_loop", group="control flow")
def while_loop(e, n):
    """mhlo.while over the carried values: the cond and body subgraphs lowered into its
    regions, their first inputs the carried values (typed as the loop's inputs and results
    both allow: dims that differ are `?`), the rest the additional inputs (weights, tensors
    the functions close over), read from the enclosing block."""
    cond_graph, body_graph = n.positional(0), n.positional(1)
    carried, extra = list(n.positional(2)), list(n.positional(3))
    types = []
    for i, v in enumerate(carried):
        shape, elem = n.meta(i)
        if elem != v.type.elem or len(shape) != v.type.rank:
            raise e.error(f"carried value {i} is {v.type}, the loop returns {elem} of rank "
                          f"{len(shape)}: a loop's carried types must not change")
        types.append(join_types(v.type, TensorType(shape, elem)))
    carried = [relax(e, v, t) for v, t in zip(carried, types)]
    cond_block, body_block = Block(types), Block(types)
    (pred,) = n.lower_graph(cond_graph, list(cond_block.args) + extra, cond_block)
    ce = type(e)(cond_block, e.loc, e.target, e.code)
    if pred.type.rank != 0:
        raise e.error(f"the loop's condition must be a scalar, got {pred.type}")
    if pred.type.elem != "i1":
        pred = ce.compare(pred, ce.scalar(0, pred.type.elem), "NE")
    cond_block.append(Operation("mhlo.return", [pred], (), {}, (), e.loc))
    out = n.lower_graph(body_graph, list(body_block.args) + extra, body_block)
    if len(out) != len(types):
        raise e.error(f"the loop's body returns {len(out)} values for {len(types)} carried")
    be = type(e)(body_block, e.loc, e.target, e.code)
    body_block.append(Operation("mhlo.return", [relax(be, be.convert(v, t.elem), t)
                                                for v, t in zip(out, types)], (), {}, (), e.loc))
    return list(e.op("while", carried, {}, types,
                     [Region([cond_block]), Region([body_block])]).results)


@aten("nonzero.default", group="data-dependent sizes")
def nonzero(e, n):
    """dhlo.where: the [count, rank] i64 indices of the non-zero elements, row-major order."""
    x = n.arg("self")
    return e.v("dhlo.where", [x], result_type=TensorType((None, x.type.rank), "i64"))


@aten("where.default", group="data-dependent sizes")
def where_indices(e, n):
    """torch.where(condition) alone (detection heads pick boxes so): nonzero's columns, one
    [count] i64 tensor per dim."""
    x = n.arg("condition")
    coords = e.v("dhlo.where", [x], result_type=TensorType((None, x.type.rank), "i64"))
    count = e.dims(coords)[0]
    return [e.reshape(e.slice(coords, [0, k], [count, k + 1]), [count])
            for k in range(x.type.rank)]


@aten("_unique2.default", group="data-dependent sizes")
def unique(e, n):
    """torch.unique over the flattened input: the distinct values sorted (a sort, then
    dhlo.unique, whose first-occurrence order is then sorted order), each element's index
    among them and each value's count (from the [n, count] equality of elements and values)."""
    x = n.arg("self")
    flat = e.reshape(x, [e.product(e.dims(x))])
    el = x.type.elem
    t = TensorType((), el)
    block = Block([t, t])
    inner = type(e)(block, e.loc, e.target, e.code)
    block.append(Operation("mhlo.return", [inner.compare(*block.args, "LT")], (), {}, (), e.loc))
    ordered = e.op("sort", [flat], {"dimension": 0, "is_stable": True},
                   regions=[Region([block])]).result
    kinds = [TensorType((None,), el), TensorType(ordered.type.shape, "i64")]
    values = e.op("dhlo.unique", [ordered], result_types=kinds).results[0]
    fdims, vdims = e.dims(flat), e.dims(values)
    both = fdims + vdims
    eq = e.compare(e.broadcast_to(flat, both, mapping=(0,)),
                   e.broadcast_to(values, both, mapping=(1,)), "EQ")
    hits = e.convert(eq, "i64")
    _, inverse = arg_reduce(e, hits, 1, "max")
    counts = e.reduce(hits, [0], "add", 0)
    return [values, e.reshape(inverse, e.dims(x)), counts]


@aten("unique_consecutive.default", group="data-dependent sizes")
def unique_consecutive(e, n):
    """torch.unique_consecutive over the flattened input: the first element of each run of
    equal elements (dhlo.where of the run starts, then a gather), each element's run
    (a running count of the starts) and each run's length (the next start minus its own)."""
    from lowering.torch.math_ops import cumulative
    from lowering.torch.shapes import slice_dim
    x = n.arg("self")
    if n.arg("dim", None) is not None:
        raise e.error("unique_consecutive with dim= is not supported yet")
    size = e.product(e.dims(x))
    flat = e.reshape(x, [size])
    prev = e.v("concatenate", [slice_dim(e, flat, 0, 0, 1, 1), slice_dim(e, flat, 0, 0, -1, 1)],
               {"dimension": 0})
    first = e.v("or", [e.compare(flat, prev, "NE"),
                       e.compare(e.iota([size], 0, "i64"), e.broadcast_to(e.scalar(0, "i64"), [size]), "EQ")])
    starts = e.v("dhlo.where", [first], result_type=TensorType((None, 1), "i64"))
    dn = {"offset_dims": (), "collapsed_slice_dims": (0,), "start_index_map": (0,),
          "index_vector_dim": 1}
    values = e.v("gather", [flat, starts], {"dimension_numbers": dn, "slice_sizes": (1,)},
                 TensorType((None,), x.type.elem))
    run = cumulative(e, e.convert(first, "i64"), 0, "add", 0)
    inverse = e.reshape(e.v("subtract", [run, e.broadcast_to(e.scalar(1, "i64"), [size])]), e.dims(x))
    at = e.reshape(starts, [e.dims(starts)[0]])
    ends = e.v("concatenate", [slice_dim(e, at, 0, 1, None, 1),
                               e.reshape(e.convert(e.scalar(size, "i32"), "i64"), [1])], {"dimension": 0})
    return [values, inverse, e.v("subtract", [ends, at])]
