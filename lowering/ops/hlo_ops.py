"""The op tables: canonical spellings, op families, and per-op shape functions.

Every spelling a user may have (`stablehlo.`, `mhlo.`, `xla_hlo.`, `xla_dhlo.`,
`lmhlo.`, `xla_lhlo.`, `xla_ldhlo.`, old standard-dialect names) maps to one
canonical name: `mhlo.` at tensor level, `lmhlo.` at buffer level.
"""
from __future__ import annotations

from lowering.ir.attrs import dense_to_ints
from lowering.ir.core import DenseAttr, EnumAttr, OpaqueAttr, Operation, TensorType
from lowering.passes.host_shapes import SHAPE_OPERANDS

TENSOR_DIALECTS = {"stablehlo": "mhlo", "mhlo": "mhlo", "xla_hlo": "mhlo", "xla_dhlo": "mhlo",
                   "chlo": "chlo"}
BUFFER_DIALECTS = {"lmhlo": "lmhlo", "xla_lhlo": "lmhlo", "xla_ldhlo": "lmhlo"}

# Older (RFC-era xla_hlo) short names and their current spelling.
SHORT_ALIASES = {
    "const": "constant", "sub": "subtract", "mul": "multiply", "div": "divide", "max": "maximum",
    "min": "minimum", "exp": "exponential", "neg": "negate", "rem": "remainder", "pow": "power",
    "matmul": "dot", "log1p": "log_plus_one", "expm1": "exponential_minus_one",
    "round": "round_nearest_afz",
}

STD_ALIASES = {
    "alloc": "memref.alloc", "dealloc": "memref.dealloc", "dim": "memref.dim",
    "constant": "arith.constant", "return": "func.return", "call": "func.call", "func": "func.func",
    "std.alloc": "memref.alloc", "std.dealloc": "memref.dealloc", "std.dim": "memref.dim",
    "std.constant": "arith.constant", "std.return": "func.return", "std.call": "func.call",
}

UNARY = {
    "abs", "negate", "sign", "exponential", "exponential_minus_one", "log", "log_plus_one",
    "logistic", "tanh", "sqrt", "rsqrt", "cbrt", "sine", "cosine", "tan", "floor", "ceil",
    "round_nearest_afz", "round_nearest_even", "not", "popcnt", "count_leading_zeros", "is_finite",
    "convert", "bitcast_convert",
}
BINARY = {
    "add", "subtract", "multiply", "divide", "remainder", "power", "maximum", "minimum", "atan2",
    "and", "or", "xor", "shift_left", "shift_right_arithmetic", "shift_right_logical", "compare",
}
ELEMENTWISE = UNARY | BINARY | {"select", "clamp"}
# Ops computed element by element from their operands: these fuse into kLoop kernels.
SHAPE_OPS = {"broadcast_in_dim", "reshape", "transpose", "reverse", "slice", "pad", "concatenate",
             "iota"}
# Their dynamic-shape forms: sizes and offsets come from tensors at run time.
DYNAMIC_SHAPE_OPS = {"dynamic_broadcast_in_dim", "dynamic_reshape", "real_dynamic_slice",
                     "dhlo.slice", "dynamic_iota", "dynamic_slice", "dynamic_update_slice",
                     "dynamic_pad"}
ELEMENTAL = ELEMENTWISE | SHAPE_OPS | DYNAMIC_SHAPE_OPS | {"constant"}
# Ops that run on the host: they read or write shapes, not data.
HOST_OPS = {"get_dimension_size"}
# Results whose size depends on the data (the RFC's "category 2"): computed into an
# upper-bound buffer by a kernel that also counts, then copied to an exact-size result.
DATA_DEPENDENT = {"dhlo.where", "dhlo.unique"}
# Ops with a kernel of their own.
KERNELS = {"reduce", "dot_general", "dot"}
STRUCTURAL = {"return", "optimization_barrier", "tuple", "get_tuple_element"}
# Control flow runs on the host around kernels.
CONTROL_FLOW = {"while", "if", "case"}
SUPPORTED = ELEMENTAL | KERNELS | HOST_OPS | DATA_DEPENDENT | CONTROL_FLOW | {"return"}

FLOAT_ONLY = {"exponential", "exponential_minus_one", "log", "log_plus_one", "logistic", "tanh",
              "sqrt", "rsqrt", "cbrt", "sine", "cosine", "tan", "floor", "ceil",
              "round_nearest_afz", "round_nearest_even", "is_finite", "atan2"}
INT_ONLY = {"popcnt", "count_leading_zeros", "shift_left", "shift_right_arithmetic",
            "shift_right_logical"}
INT_OR_BOOL = {"and", "or", "xor", "not"}


def canonical_op_name(op: Operation) -> str:
    """Like canonical_name, where the operand count tells the RFC's dynamic slice apart."""
    if op.name == "xla_dhlo.slice" and len(op.operands) == 3:
        return "dhlo.slice"
    if op.name == "xla_ldhlo.slice" and len(op.operands) == 4:
        return "ldhlo.slice"
    return canonical_name(op.name)


def canonical_name(name: str) -> str:
    """Any accepted spelling of an op to its canonical name."""
    if name in STD_ALIASES:
        return STD_ALIASES[name]
    if "." not in name:
        return name
    dialect, short = name.split(".", 1)
    if dialect in TENSOR_DIALECTS:
        return f"{TENSOR_DIALECTS[dialect]}.{SHORT_ALIASES.get(short, short)}"
    if dialect in BUFFER_DIALECTS:
        return f"lmhlo.{SHORT_ALIASES.get(short, short)}"
    return name


# ----------------------------------------------------------------------------- attributes

INT_LIST_ATTRS = {
    "broadcast_dimensions", "permutation", "dimensions", "start_indices", "limit_indices",
    "strides", "edge_padding_low", "edge_padding_high", "interior_padding", "slice_sizes",
}
INT_ATTRS = {"dimension", "iota_dimension"}


def normalize_attrs(op: Operation) -> None:
    """Attribute values to plain Python: int lists to tuples, enums to EnumAttr."""
    a = op.attrs
    for k in list(a):
        if k in INT_LIST_ATTRS:
            a[k] = dense_to_ints(a[k])
        elif k in INT_ATTRS:
            a[k] = int(dense_to_ints(a[k])[0]) if not isinstance(a[k], int) else a[k]
    if "comparison_direction" in a:
        a["comparison_direction"] = _enum("comparison_direction", a["comparison_direction"])
    if "compare_type" in a:
        a["compare_type"] = _enum("comparison_type", a["compare_type"])
    if "dot_dimension_numbers" in a:
        a["dot_dimension_numbers"] = _dot_dims(a["dot_dimension_numbers"])


def _enum(kind: str, value) -> EnumAttr:
    if isinstance(value, EnumAttr):
        return EnumAttr(kind, value.value)
    if isinstance(value, str):
        return EnumAttr(kind, value)
    if isinstance(value, OpaqueAttr):
        return EnumAttr(kind, value.text.rsplit(" ", 1)[-1].rstrip(">"))
    raise ValueError(f"bad {kind} {value!r}")


_DOT_KEYS = ("lhs_batching_dimensions", "rhs_batching_dimensions", "lhs_contracting_dimensions",
             "rhs_contracting_dimensions")


def _dot_dims(value) -> dict:
    if isinstance(value, dict):
        return {k: tuple(value.get(k, ())) for k in _DOT_KEYS}
    if isinstance(value, OpaqueAttr):  # #stablehlo.dot<lhs_batching_dimensions = [0], ...>
        body = value.text[value.text.index("<") + 1:-1]
        out = {k: () for k in _DOT_KEYS}
        import re
        for key, nums in re.findall(r"(\w+)\s*=\s*\[([^\]]*)\]", body):
            out[key] = tuple(int(x) for x in nums.split(",") if x.strip())
        return out
    raise ValueError(f"bad dot_dimension_numbers {value!r}")


# ----------------------------------------------------------------------------- shape functions


class ShapeError(Exception):
    pass


def _same_shape(types, what="operands"):
    shapes = {t.shape for t in types}
    if len(shapes) > 1:
        raise ShapeError(f"{what} must have the same shape, got " + ", ".join(map(str, types)))


def infer_elementwise(op: Operation):
    ts = [v.type for v in op.operands]
    name = op.short_name
    if name == "select":
        pred, a, b = ts
        if a.shape != b.shape or a.elem != b.elem:
            raise ShapeError(f"select branches differ: {a} vs {b}")
        if pred.elem != "i1" or (pred.shape != () and pred.shape != a.shape):
            raise ShapeError(f"select predicate must be i1 of shape {a.shape} or a scalar, got {pred}")
        return [a]
    if name == "clamp":
        lo, x, hi = ts
        for b in (lo, hi):
            if b.shape not in ((), x.shape) or b.elem != x.elem:
                raise ShapeError(f"clamp bound {b} does not match operand {x}")
        return [x]
    _same_shape(ts)
    elems = {t.elem for t in ts}
    if len(elems) > 1:
        raise ShapeError("operands must have the same element type, got " + ", ".join(map(str, ts)))
    elem = ts[0].elem
    if name in FLOAT_ONLY and elem not in ("f16", "bf16", "f32", "f64"):
        raise ShapeError(f"needs floating-point operands, got {ts[0]}")
    if name in INT_ONLY and elem in ("f16", "bf16", "f32", "f64", "i1"):
        raise ShapeError(f"needs integer operands, got {ts[0]}")
    if name in INT_OR_BOOL and elem in ("f16", "bf16", "f32", "f64"):
        raise ShapeError(f"needs integer or boolean operands, got {ts[0]}")
    if name == "compare":
        direction = op.attrs["comparison_direction"].value
        if direction not in ("EQ", "NE", "LT", "LE", "GT", "GE"):
            raise ShapeError(f"unknown comparison direction '{direction}'")
        ct = op.attrs.get("compare_type")
        if ct is not None and ct.value not in ("FLOAT", "TOTALORDER", "SIGNED", "UNSIGNED", "NOTYPE"):
            raise ShapeError(f"unknown comparison type '{ct.value}'")
    if name in ("compare", "is_finite"):
        return [TensorType(ts[0].shape, "i1")]
    if name in ("convert", "bitcast_convert"):
        return None  # result element type comes from the declared type
    return [ts[0]]


def infer_broadcast_in_dim(op):
    src = op.operands[0].type
    dims = op.attrs.get("broadcast_dimensions")
    out = op.results[0].type
    if dims is None or len(dims) != src.rank:
        raise ShapeError(f"broadcast_dimensions {dims} must list one result dim per operand dim "
                         f"({src.rank})")
    for i, d in enumerate(dims):
        if not 0 <= d < out.rank:
            raise ShapeError(f"broadcast dimension {d} out of range for {out}")
        s, o = src.shape[i], out.shape[d]
        if s is not None and o is not None and s != 1 and s != o:
            raise ShapeError(f"operand dim {i} of size {s} cannot broadcast to result dim {d} of size {o}")
    return None


def infer_reshape(op):
    src, out = op.operands[0].type, op.results[0].type
    if src.is_static and out.is_static:
        import math
        if math.prod(src.shape) != math.prod(out.shape):
            raise ShapeError(f"reshape changes the element count: {src} to {out}")
    return None


def infer_transpose(op):
    src = op.operands[0].type
    perm = op.attrs["permutation"]
    if sorted(perm) != list(range(src.rank)):
        raise ShapeError(f"permutation {perm} is not a permutation of {src.rank} dims")
    return [TensorType(tuple(src.shape[p] for p in perm), src.elem)]


def infer_reverse(op):
    src = op.operands[0].type
    dims = op.attrs["dimensions"]
    if any(not 0 <= d < src.rank for d in dims) or len(set(dims)) != len(dims):
        raise ShapeError(f"dimensions {dims} must be distinct dims of {src}")
    return [src]


def infer_slice(op):
    src = op.operands[0].type
    starts, limits, strides = (op.attrs[k] for k in ("start_indices", "limit_indices", "strides"))
    shape = []
    for d, (s, l, st) in enumerate(zip(starts, limits, strides)):
        n = src.shape[d]
        if st <= 0 or s < 0 or l < s or (n is not None and l > n):
            raise ShapeError(f"slice [{s}:{l}:{st}] out of range for dim {d} of {src}")
        shape.append((l - s + st - 1) // st)
    if len(starts) != src.rank:
        raise ShapeError(f"slice needs {src.rank} start indices, got {len(starts)}")
    return [TensorType(tuple(shape), src.elem)]


def infer_pad(op):
    src, pv = op.operands[0].type, op.operands[1].type
    lo, hi, inner = (op.attrs[k] for k in ("edge_padding_low", "edge_padding_high", "interior_padding"))
    if pv.shape != () or pv.elem != src.elem:
        raise ShapeError(f"padding value must be a scalar {src.elem}, got {pv}")
    shape = []
    for d in range(src.rank):
        n = src.shape[d]
        if inner[d] < 0:
            raise ShapeError("interior padding must be non-negative")
        shape.append(None if n is None else lo[d] + hi[d] + n + max(n - 1, 0) * inner[d])
        if shape[-1] is not None and shape[-1] < 0:
            raise ShapeError(f"padding makes dim {d} negative")
    return [TensorType(tuple(shape), src.elem)]


def infer_concatenate(op):
    ts = [v.type for v in op.operands]
    dim = op.attrs["dimension"]
    r = ts[0].rank
    if not 0 <= dim < r:
        raise ShapeError(f"dimension {dim} out of range for rank {r}")
    shape = list(ts[0].shape)
    for t in ts[1:]:
        if t.rank != r or t.elem != ts[0].elem:
            raise ShapeError(f"operands differ: {ts[0]} vs {t}")
        for d in range(r):
            if d != dim and None not in (t.shape[d], shape[d]) and t.shape[d] != shape[d]:
                raise ShapeError(f"operands differ in dim {d}: {ts[0]} vs {t}")
    sizes = [t.shape[dim] for t in ts]
    shape[dim] = None if None in sizes else sum(sizes)
    return [TensorType(tuple(shape), ts[0].elem)]


def infer_iota(op):
    out = op.results[0].type
    if not 0 <= op.attrs.get("iota_dimension", -1) < max(out.rank, 1):
        raise ShapeError(f"iota_dimension out of range for {out}")
    return None


def infer_constant(op):
    v = op.attrs.get("value")
    if isinstance(v, DenseAttr):
        return [v.type]
    raise ShapeError("constant needs a dense value")


def infer_reduce(op):
    n = len(op.operands) // 2
    ins, inits = op.operands[:n], op.operands[n:]
    dims = op.attrs["dimensions"]
    shape = ins[0].type.shape
    out = []
    for v, init in zip(ins, inits):
        if v.type.shape != shape:
            raise ShapeError("reduce inputs must have the same shape")
        if init.type.shape != () or init.type.elem != v.type.elem:
            raise ShapeError(f"init value must be a scalar {v.type.elem}, got {init.type}")
        if any(not 0 <= d < len(shape) for d in dims) or len(set(dims)) != len(dims):
            raise ShapeError(f"bad reduce dimensions {dims} for rank {len(shape)}")
        out.append(TensorType(tuple(s for i, s in enumerate(shape) if i not in dims), v.type.elem))
    return out


def dot_general_dims(op):
    """(lhs_batch, rhs_batch, lhs_contract, rhs_contract) for dot and dot_general alike."""
    if op.short_name == "dot":
        lr, rr = op.operands[0].type.rank, op.operands[1].type.rank
        return (), (), (lr - 1,), (0,) if rr >= 1 else ()
    d = op.attrs["dot_dimension_numbers"]
    return (d["lhs_batching_dimensions"], d["rhs_batching_dimensions"],
            d["lhs_contracting_dimensions"], d["rhs_contracting_dimensions"])


def infer_dot_general(op):
    lhs, rhs = op.operands[0].type, op.operands[1].type
    lb, rb, lc, rc = dot_general_dims(op)
    if len(lb) != len(rb) or len(lc) != len(rc):
        raise ShapeError("batching and contracting dims must pair up")
    for a, b in list(zip(lb, rb)) + list(zip(lc, rc)):
        x, y = lhs.shape[a], rhs.shape[b]
        if None not in (x, y) and x != y:
            raise ShapeError(f"lhs dim {a} ({x}) does not match rhs dim {b} ({y})")
    batch = [lhs.shape[d] for d in lb]
    lfree = [s for i, s in enumerate(lhs.shape) if i not in lb and i not in lc]
    rfree = [s for i, s in enumerate(rhs.shape) if i not in rb and i not in rc]
    out_elem = op.results[0].type.elem
    return [TensorType(tuple(batch + lfree + rfree), out_elem)]


def infer_dynamic(op):
    """Dynamic ops: the element type carries over; dims are checked at run time."""
    src, out = op.operands[0].type if op.operands else None, op.results[0].type
    if src is not None and op.key != "dynamic_iota" and src.elem != out.elem:
        raise ShapeError(f"element type changes from {src.elem} to {out.elem}")
    for i in SHAPE_OPERANDS.get(op.key, ()):
        t = op.operands[i].type
        if t.rank != 1 or t.elem not in ("i32", "i64", "ui32", "ui64", "index"):
            raise ShapeError(f"shape operand #{i} must be a 1-D integer tensor, got {t}")
    if op.key == "dynamic_pad":
        pv = op.operands[1].type
        if pv.shape != () or pv.elem != src.elem or len(op.operands) != 5:
            raise ShapeError(f"dynamic_pad takes the operand, a scalar {src.elem} padding value "
                             "and low, high, interior tensors")
        for t in (op.operands[k].type for k in (2, 3, 4)):
            if t.shape not in ((src.rank,), (None,)):
                raise ShapeError(f"padding amounts must have {src.rank} elements, got {t}")
    if op.key == "dynamic_broadcast_in_dim":
        dims = op.attrs["broadcast_dimensions"]
        if len(dims) != src.rank or any(not 0 <= d < out.rank for d in dims):
            raise ShapeError(f"broadcast_dimensions {dims} do not fit {src} -> {out}")
    if op.key in ("dynamic_slice",):
        sizes = op.attrs["slice_sizes"]
        if len(sizes) != src.rank or len(op.operands) != 1 + src.rank:
            raise ShapeError(f"dynamic_slice of {src} needs {src.rank} start indices and sizes")
        return [TensorType(tuple(sizes), src.elem)]
    if op.key == "dynamic_update_slice":
        upd = op.operands[1].type
        if upd.rank != src.rank or upd.elem != src.elem or len(op.operands) != 2 + src.rank:
            raise ShapeError(f"dynamic_update_slice of {src} needs an update of the same rank and "
                             f"{src.rank} start indices")
        return [src]
    if op.key in ("real_dynamic_slice", "dhlo.slice", "dynamic_reshape") and out.rank != src.rank \
            and op.key != "dynamic_reshape":
        raise ShapeError(f"slice changes the rank: {src} -> {out}")
    return None


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


def infer_get_dimension_size(op):
    src = op.operands[0].type
    d = op.attrs.get("dimension")
    if d is None or not 0 <= d < src.rank:
        raise ShapeError(f"dimension {d} out of range for {src}")
    return [TensorType((), "i32")]


SHAPE_FUNCTIONS = {
    **{n: infer_elementwise for n in ELEMENTWISE},
    "broadcast_in_dim": infer_broadcast_in_dim, "reshape": infer_reshape,
    "transpose": infer_transpose, "reverse": infer_reverse, "slice": infer_slice, "pad": infer_pad,
    "concatenate": infer_concatenate, "iota": infer_iota, "constant": infer_constant,
    "reduce": infer_reduce, "dot_general": infer_dot_general, "dot": infer_dot_general,
    **{n: infer_dynamic for n in DYNAMIC_SHAPE_OPS},
    "get_dimension_size": infer_get_dimension_size,
    "dhlo.where": infer_where, "dhlo.unique": infer_unique,
}

REQUIRED_ATTRS = {
    "broadcast_in_dim": ("broadcast_dimensions",), "transpose": ("permutation",),
    "reverse": ("dimensions",), "slice": ("start_indices", "limit_indices", "strides"),
    "pad": ("edge_padding_low", "edge_padding_high", "interior_padding"),
    "concatenate": ("dimension",), "iota": ("iota_dimension",), "reduce": ("dimensions",),
    "dot_general": ("dot_dimension_numbers",), "compare": ("comparison_direction",),
    "constant": ("value",), "dynamic_broadcast_in_dim": ("broadcast_dimensions",),
    "dynamic_slice": ("slice_sizes",), "get_dimension_size": ("dimension",),
}

# gather, dynamic_gather (elemental) and scatter (a kernel): lowering/gather.py
from lowering.ops.gather import REQUIRED_ATTRS as _gs_required, SHAPE_FUNCTIONS as _gs_shapes  # noqa: E402
ELEMENTAL |= {"gather", "dynamic_gather"}
KERNELS |= {"scatter"}
SUPPORTED |= {"gather", "dynamic_gather", "scatter"}
SHAPE_FUNCTIONS.update(_gs_shapes)
REQUIRED_ATTRS.update(_gs_required)

# chlo elementwise ops and reduce_precision: lowering/chlo.py (`chlo.X` is spelled `mhlo.X`)
from lowering.ops import chlo as _chlo  # noqa: E402
STD_ALIASES.update(_chlo.ALIASES)
UNARY |= _chlo.NEW_UNARY
BINARY |= _chlo.NEW_BINARY
ELEMENTWISE |= _chlo.NEW_UNARY | _chlo.NEW_BINARY
ELEMENTAL |= _chlo.NEW_UNARY | _chlo.NEW_BINARY
SUPPORTED |= _chlo.NEW_UNARY | _chlo.NEW_BINARY
FLOAT_ONLY |= _chlo.FLOAT_ONLY
INT_ATTRS |= {"exponent_bits", "mantissa_bits"}
SHAPE_FUNCTIONS.update({_n: infer_elementwise for _n in _chlo.NEW_UNARY | _chlo.NEW_BINARY})
SHAPE_FUNCTIONS["reduce_precision"] = _chlo.infer_reduce_precision
REQUIRED_ATTRS["reduce_precision"] = ("exponent_bits", "mantissa_bits")

# sort and chlo.top_k (kernels): lowering/sort.py (`chlo.top_k` is spelled `mhlo.top_k`)
from lowering.ops.sort import REQUIRED_ATTRS as _sort_required, SHAPE_FUNCTIONS as _sort_shapes  # noqa: E402
STD_ALIASES["chlo.top_k"] = "mhlo.top_k"
KERNELS |= {"sort", "top_k"}
SUPPORTED |= {"sort", "top_k"}
SHAPE_FUNCTIONS.update(_sort_shapes)
REQUIRED_ATTRS.update(_sort_required)

# reduce_window, convolution, select_and_scatter (kernels): lowering/windows.py
from lowering.ops.windows import REQUIRED_ATTRS as _win_required, SHAPE_FUNCTIONS as _win_shapes  # noqa: E402
KERNELS |= {"reduce_window", "convolution", "select_and_scatter"}
SUPPORTED |= {"reduce_window", "convolution", "select_and_scatter"}
SHAPE_FUNCTIONS.update(_win_shapes)
REQUIRED_ATTRS.update(_win_required)
