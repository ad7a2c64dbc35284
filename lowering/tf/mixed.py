"""What TensorFlow's own partial lowering (`pass_pipeline='tf-lower-to-mlprogram-and-hlo'`)
leaves beside its StableHLO: shape computations in the `shape`, `tensor` and `arith`
dialects on `index` scalars and `tensor<Nxindex>` shapes. Each becomes mhlo on 0-d and 1-d
integer tensors (index is i64), so the module compiles as one; the tf ops it left behind
are lowered by the other rules."""
from __future__ import annotations

import numpy as np

from lowering.ir.core import DenseAttr, ScalarType, TensorType, bounds_of
from lowering.tf.emitter import Emitter
from lowering.tf.table import tf_op

G = "TensorFlow's partial lowering"
PREFIXES = ("shape.", "tensor.", "arith.", "stablehlo.torch_index_select",
            "mhlo.torch_index_select")  # what these rules cover


def _elem(t) -> str:
    e = t.elem if isinstance(t, TensorType) else t.name if isinstance(t, ScalarType) else "i64"
    return "i64" if e == "index" else e


@tf_op("shape.shape_of", group=G)
def shape_of(e: Emitter, op, args):
    return [e.shape_tensor(e.dims(args[0]), "i64")]


@tf_op("arith.constant", group=G)
def constant(e: Emitter, op, args):
    value, t = op.attrs.get("value"), op.results[0].type
    if isinstance(value, DenseAttr):
        return [e.const(np.asarray(value.array), _elem(value.type), value.type.shape)]
    if isinstance(value, (bool, int, float)):
        return [e.const(value, _elem(t), ())]
    raise e.error(f"constant {value!r} is not supported")


ARITH = {"addi": "add", "subi": "subtract", "muli": "multiply", "divsi": "divide",
         "divui": "divide", "remsi": "remainder", "maxsi": "maximum", "minsi": "minimum",
         "andi": "and", "ori": "or", "xori": "xor", "addf": "add", "subf": "subtract",
         "mulf": "multiply", "divf": "divide", "maximumf": "maximum", "minimumf": "minimum"}


def _arith(name):
    def rule(e: Emitter, op, args):
        """The mhlo op of the same arithmetic."""
        return [e.binary(name, args[0], args[1])]
    return rule


for _a, _h in ARITH.items():
    tf_op(f"arith.{_a}", group=G)(_arith(_h))

PREDICATES = {"eq": "EQ", "ne": "NE", "slt": "LT", "sle": "LE", "sgt": "GT", "sge": "GE",
              "ult": "LT", "ule": "LE", "ugt": "GT", "uge": "GE", "oeq": "EQ", "one": "NE",
              "olt": "LT", "ole": "LE", "ogt": "GT", "oge": "GE"}


@tf_op("arith.cmpi", "arith.cmpf", group=G)
def cmp(e: Emitter, op, args):
    p = str(op.attrs.get("predicate", ""))
    if p not in PREDICATES:
        raise e.error(f"predicate {p!r} is not supported")
    return [e.compare(args[0], args[1], PREDICATES[p])]


@tf_op("arith.select", group=G)
def select(e: Emitter, op, args):
    return [e.select(*args)]


@tf_op("arith.index_cast", "arith.index_castui", "arith.extsi", "arith.trunci",
       "arith.sitofp", "arith.fptosi", group=G)
def cast(e: Emitter, op, args):
    return [e.convert(args[0], _elem(op.results[0].type))]


@tf_op("shape.cstr_broadcastable", group=G)
def cstr_broadcastable(e: Emitter, op, args):
    """A witness only: the ops it guards check their dims at run time themselves."""
    return [e.const(True, "i1", ())]


@tf_op("shape.assuming", group=G)
def assuming(e: Emitter, op, args):
    """The region's ops in place; its assuming_yield's values are the results."""
    return e.lowerer.lower_ops(op.regions[0].blocks[0].ops, e.block, e.mapping)


@tf_op("shape.broadcast", group=G)
def broadcast(e: Emitter, op, args):
    """The numpy broadcast of 1-D shapes (of static lengths): aligned at the end, a 1 takes
    the other's extent."""
    n = max(a.type.shape[0] for a in args)
    out = None
    for a in args:
        k = a.type.shape[0]
        a = e.convert(a, "i64")
        if k < n:
            a = e.v("concatenate", [e.const(np.ones(n - k), "i64", (n - k,)), a], {"dimension": 0})
        out = a if out is None else e.select(e.compare(out, e.const(1, "i64", ()), "EQ"), a, out)
    return [out]


@tf_op("stablehlo.torch_index_select", "mhlo.torch_index_select", group=G)
def torch_index_select(e: Emitter, op, args):
    """TF's lowering of GatherV2: params indexed along `dim` (batch_dims 0)."""
    from lowering.tf.shapes import gather_axis
    if int(op.attrs.get("batch_dims", 0)) != 0:
        raise e.error("batch_dims other than 0 is not supported yet")
    params, idx = args
    return [gather_axis(e, params, idx, int(op.attrs.get("dim", 0)) % params.type.rank)]


@tf_op("tensor.dim", group=G)
def dim(e: Emitter, op, args):
    x, d = args
    (i,) = e.int_list(d, "the dim index")
    return [e.convert(e.dims(x)[i] if not isinstance(e.dims(x)[i], int)
                      else e.const(x.type.shape[i], "i64", ()), "i64")]


@tf_op("tensor.from_elements", group=G)
def from_elements(e: Emitter, op, args):
    t = op.results[0].type
    elem = _elem(t)
    if isinstance(t, TensorType) and t.rank == 1:
        return [e.shape_tensor([e.convert(a, elem) for a in args], elem)]
    raise e.error(f"from_elements to {t} is not supported (1-D results are)")


@tf_op("tensor.extract", group=G)
def extract(e: Emitter, op, args):
    """An element at constant indices: a slice, reshaped to a scalar."""
    t, *idx = args
    at = [e.int_list(i, "the extract index")[0] for i in idx]
    s = e.v("slice", [t], {"start_indices": tuple(at), "limit_indices": tuple(a + 1 for a in at),
                           "strides": (1,) * len(at)}) if t.type.is_static else None
    if s is None:
        raise e.error("extract from a tensor of dynamic shape is not supported")
    return [e.reshape(s, [])]



@tf_op("tensor.cast", group=G)
def tensor_cast(e: Emitter, op, args):
    """Between types differing only in static dims and bounds (TF's export of tf.where:
    tensor<?x2xi64, #stablehlo.bounds<12, ?>> to tensor<?x2xi64>): the same values, with
    the host checking, where the cast narrows, a dim made static or given a bound."""
    dst = op.results[0].type
    if not isinstance(dst, TensorType) or not isinstance(args[0].type, TensorType):
        raise e.error(f"tensor.cast to {dst} is not supported (ranked tensors are)")
    try:
        bounds = bounds_of(dst)
    except ValueError as err:
        raise e.error(str(err)) from None
    plain = TensorType(dst.shape, dst.elem)
    if plain == TensorType(args[0].type.shape, args[0].type.elem) and not bounds:
        return [args[0]]
    return [e.v("dhlo.cast", [args[0]], {"bounds": bounds} if bounds else {}, plain)]
