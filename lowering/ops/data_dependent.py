"""Results whose size the data decides (the RFC's "category 2"): `dhlo.where` (indices of the
non-zero elements) and `dhlo.unique` (tf.Unique). A kernel writes an upper-bound buffer and
a count; bufferisation then copies the count's worth into an exact-size result."""
from __future__ import annotations

from lowering.ir.builder import dims_of
from lowering.ir.core import INDEX, ScalarType, TensorType
from lowering.ops import registry
from lowering.ops.elementwise import Scalars
from lowering.ops.registry import ShapeError


def infer_where(op):
    """dhlo.where(x) -> [count, rank] i64 indices of the non-zero elements, row-major order."""
    src = op.operands[0].type
    return [TensorType((None, src.rank), "i64")]


def infer_unique(op):
    """dhlo.unique(x) -> (values in first-occurrence order, index of each x in values),
    as tf.Unique."""
    src = op.operands[0].type
    if src.rank != 1:
        raise ShapeError(f"unique takes a 1-D tensor, got {src}")
    idx = op.results[1].type.elem if len(op.results) == 2 else "i32"
    if idx not in ("i32", "i64"):
        raise ShapeError(f"unique indices must be i32 or i64, got {idx}")
    return [TensorType((None,), src.elem), TensorType(src.shape, idx)]


def emit_where(k, op, b, args: list):
    """Indices of the non-zero elements, row-major, written at a running count (branch-free:
    every element stores at the count, which only advances past the non-zero ones)."""
    x, out, count_buf = args
    zero_i64 = b.const(0, "i64")
    body, cur, loops, ivs = b, [zero_i64], [], []
    for bound in dims_of(b, x):
        loop, body, iv, iters = body.for_(body.index(0), bound, cur)
        loops.append((loop, body))
        ivs.append(iv)
        cur = list(iters)
    count = cur[0]
    value = body.v("memref.load", [x] + ivs, ScalarType(x.type.elem))
    nonzero = Scalars(body).convert(value, x.type.elem, "i1")
    row = body.v("arith.index_cast", [count], INDEX)
    for d, iv in enumerate(ivs):
        body.op("memref.store", [body.v("arith.index_cast", [iv], ScalarType("i64")), out, row,
                                 body.index(d)])
    step = body.v("arith.extui", [nonzero], ScalarType("i64"))
    body.yield_([body.v("arith.addi", [count, step], ScalarType("i64"))])
    for (loop, _), (_, ob) in zip(reversed(loops[1:]), reversed(loops[:-1])):
        ob.yield_(loop.results)
    total = loops[0][0].results[0] if loops else b.v("arith.extui", [Scalars(b).convert(
        b.v("memref.load", [x], ScalarType(x.type.elem)), x.type.elem, "i1")], ScalarType("i64"))
    b.op("memref.store", [total, count_buf])


def emit_unique(k, op, b, args: list):
    """tf.Unique: values in first-occurrence order and each element's index into them.
    A linear search of the values found so far (O(n * unique)); NaN never equals itself."""
    x, values, index, count_buf = args
    elem, idx_elem = x.type.elem, index.type.elem
    (n,) = dims_of(b, x)
    loop, body, i, (count,) = b.for_(b.index(0), n, [b.index(0)])
    xi = body.v("memref.load", [x, i], ScalarType(elem))
    search, sb, j, (found,) = body.for_(body.index(0), count, [count])
    yj = sb.v("memref.load", [values, j], ScalarType(elem))
    s = Scalars(sb)
    same = s.compare(yj, xi, elem, "EQ")
    first = sb.v("arith.cmpi", [found, count], ScalarType("i1"), predicate="eq")
    take = sb.v("arith.andi", [same, first], ScalarType("i1"))
    sb.yield_([sb.v("arith.select", [take, j, found], INDEX)])
    found = search.results[0]
    body.op("memref.store", [xi, values, count])  # kept only if the count advances past it
    body.op("memref.store", [body.v("arith.index_cast", [found], ScalarType(idx_elem)), index, i])
    is_new = body.v("arith.cmpi", [found, count], ScalarType("i1"), predicate="eq")
    step = body.v("arith.index_cast", [body.v("arith.extui", [is_new], ScalarType("i64"))], INDEX)
    body.yield_([body.v("arith.addi", [count, step], INDEX)])
    b.op("memref.store", [b.v("arith.index_cast", [loop.results[0]], ScalarType("i64")), count_buf])


registry.define("dhlo.where", "data_dependent", "data-dependent sizes", infer=infer_where,
                kernel=emit_where, writes=lambda op: registry.last_operands(op, 2))
registry.define("dhlo.unique", "data_dependent", "data-dependent sizes", infer=infer_unique,
                kernel=emit_unique, writes=lambda op: registry.last_operands(op, 3))
