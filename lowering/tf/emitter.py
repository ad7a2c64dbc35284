"""What every TF op's lowering rule builds with: an Emitter appends `mhlo.*` ops to a block,
their result types from the op registry's own rules (`infer`), so shapes follow from the
lowered operands and the `tensor<*x..>` types of TensorFlow's raw import are refined as the
ops are built. Helpers for what TF does implicitly: numpy broadcasting, run-time dims as
shape tensors, constants read back as numpy arrays (shape arithmetic folded where TF left
it), reductions with their scalar regions."""
from __future__ import annotations

import re

import numpy as np

from lowering.ir.core import (
    Block,
    CompileError,
    DenseAttr,
    EnumAttr,
    Operation,
    Region,
    TensorType,
    Value,
)
from lowering.ops import registry
from lowering.ops.registry import ShapeError

I32 = "i32"
FLOATS = ("f16", "bf16", "f32", "f64")



MAX_INT_LIST = 1 << 12  # longest constant list (axes, shapes, paddings) read into Python

class TfLoweringError(CompileError):
    """A TF op the front end cannot lower; located at the op."""


class Emitter:
    """Builds mhlo ops at the end of `block` for the TF op at `loc`."""

    def __init__(self, block: Block, loc, tf_op: Operation | None = None):
        self.block, self.loc, self.tf_op = block, loc, tf_op

    def error(self, message: str) -> CompileError:
        name = self.tf_op.name if self.tf_op is not None else "tf"
        return TfLoweringError(f"'{name}': {message}", self.loc)

    # ---------------------------------------------------------------- building ops

    def op(self, name: str, operands, attrs=None, result_types=None, regions=(), n=1) -> Operation:
        """Append `mhlo.<name>`; result types given, or inferred by the registry's rule
        (the first operand's element type stands in until then)."""
        full = name if "." in name else f"mhlo.{name}"
        placeholder = result_types
        if placeholder is None:
            elem = operands[0].type.elem if operands else "f32"
            placeholder = [TensorType((), elem)] * n
        op = Operation(full, list(operands), placeholder, dict(attrs or {}), list(regions), self.loc)
        if result_types is None:
            d = registry.lookup(op.key)
            if d is None or d.infer is None:
                raise self.error(f"internal: {full} has no result-type rule")
            try:
                types = d.infer(op)
            except ShapeError as e:
                raise self.error(str(e))
            for r, t in zip(op.results, types):
                r.type = t
        self.block.append(op)
        return op

    def v(self, name: str, operands, attrs=None, result_type=None, regions=()) -> Value:
        return self.op(name, operands, attrs, None if result_type is None else [result_type],
                       regions).result

    def const(self, value, elem: str, shape=None) -> Value:
        arr = np.asarray(value)
        shape = arr.shape if shape is None else tuple(shape)
        from lowering.ir.core import numpy_dtype
        arr = np.broadcast_to(arr.astype(numpy_dtype(elem)), shape)
        t = TensorType(tuple(shape), elem)
        return self.v("constant", [], {"value": DenseAttr(np.ascontiguousarray(arr), t)}, t)

    def convert(self, x: Value, elem: str) -> Value:
        if x.type.elem == elem:
            return x
        return self.v("convert", [x], result_type=TensorType(x.type.shape, elem))

    def compare(self, a: Value, b: Value, direction: str) -> Value:
        a, b = self.broadcast_pair(a, b)
        kind = "FLOAT" if a.type.elem in FLOATS else (
            "UNSIGNED" if a.type.elem.startswith("ui") or a.type.elem == "i1" else "SIGNED")
        return self.v("compare", [a, b], {"comparison_direction": EnumAttr("comparison_direction", direction),
                                          "compare_type": EnumAttr("comparison_type", kind)})

    def select(self, p: Value, a: Value, b: Value) -> Value:
        a, b = self.broadcast_pair(a, b)
        if p.type.shape != a.type.shape:
            p = self.broadcast_to(p, self.dims(a), a.type.shape)
        return self.v("select", [p, a, b])

    # ---------------------------------------------------------------- constants and dims

    @staticmethod
    def constant_of(v: Value):
        """The numpy value of a value a constant op makes (mhlo's, or a stablehlo one TF's
        partial lowering left), else None."""
        owner = v.owner
        if isinstance(owner, Operation) and owner.name in ("mhlo.constant", "stablehlo.constant") \
                and isinstance(owner.attrs.get("value"), DenseAttr):
            return np.asarray(owner.attrs["value"].array)
        return None

    def int_list(self, v: Value, what: str) -> list:
        """A constant integer operand (axes, permutations, paddings) as a list."""
        arr = self.constant_of(v)
        if arr is None:
            raise self.error(f"{what} must be a constant; computed ones are not supported")
        if arr.size > MAX_INT_LIST:  # axes and paddings are a few numbers, not a tensor of 2^31
            raise self.error(f"{what} has {arr.size} elements (at most {MAX_INT_LIST})")
        return [int(x) for x in arr.reshape(-1)]

    def dims(self, x: Value) -> list:
        """x's dims: an int where static, else a scalar i32 value (get_dimension_size)."""
        return [d if d is not None else self.v("get_dimension_size", [x], {"dimension": i})
                for i, d in enumerate(x.type.shape)]

    def shape_tensor(self, dims: list, elem: str = I32) -> Value:
        """A 1-D `elem` tensor of dims given as ints or scalar integer values."""
        if all(isinstance(d, int) for d in dims):
            return self.const(np.array(dims, np.int64), elem, (len(dims),))
        parts = []
        for d in dims:
            if isinstance(d, int):
                parts.append(self.const(np.array([d]), elem, (1,)))
            else:
                s = self.convert(d, elem)
                if s.type.shape != (1,):
                    s = self.v("reshape", [s], result_type=TensorType((1,), elem))
                parts.append(s)
        if len(parts) == 1:
            return parts[0]
        return self.v("concatenate", parts, {"dimension": 0})

    @staticmethod
    def static_dims(dims: list) -> tuple:
        return tuple(d if isinstance(d, int) else None for d in dims)

    def scalar_dim(self, d, elem: str = I32) -> Value:
        return self.const(d, elem, ()) if isinstance(d, int) else self.convert(d, elem)

    def product(self, dims: list, elem: str = I32):
        """The product of dims (ints and values): an int when all are static."""
        static = 1
        dyn = None
        for d in dims:
            if isinstance(d, int):
                static *= d
            else:
                d = self.convert(d, elem)
                dyn = d if dyn is None else self.v("multiply", [dyn, d])
        if dyn is None:
            return static
        return dyn if static == 1 else self.v("multiply", [dyn, self.const(static, elem, ())])

    # ---------------------------------------------------------------- shapes

    def reshape(self, x: Value, dims: list) -> Value:
        """x reshaped to dims (ints and values): reshape when static, else dynamic_reshape."""
        shape = self.static_dims(dims)
        if x.type.shape == shape:
            return x
        t = TensorType(shape, x.type.elem)
        if all(d is not None for d in shape) and x.type.is_static:
            return self.v("reshape", [x], result_type=t)
        return self.v("dynamic_reshape", [x, self.shape_tensor(dims)], result_type=t)

    def broadcast_to(self, x: Value, dims: list, shape=None, mapping=None) -> Value:
        """x broadcast (numpy style, trailing dims aligned, or by `mapping`) to dims."""
        shape = tuple(shape) if shape is not None else self.static_dims(dims)
        if mapping is None:
            mapping = tuple(range(len(dims) - x.type.rank, len(dims)))
        if x.type.shape == shape and mapping == tuple(range(len(dims))):
            return x
        t = TensorType(shape, x.type.elem)
        if all(d is not None for d in shape):
            return self.v("broadcast_in_dim", [x], {"broadcast_dimensions": mapping}, t)
        return self.v("dynamic_broadcast_in_dim", [x, self.shape_tensor(dims)],
                      {"broadcast_dimensions": mapping}, t)

    def broadcast_dims(self, a: Value, b: Value) -> list:
        """The numpy broadcast of a's and b's dims; `?` against `?` is taken to be equal
        (the elementwise op checks that at run time)."""
        ra, rb = a.type.rank, b.type.rank
        r = max(ra, rb)
        da = [1] * (r - ra) + list(a.type.shape)
        db = [1] * (r - rb) + list(b.type.shape)
        out = []
        for i, (x, y) in enumerate(zip(da, db)):
            if x == y or y == 1:
                src = (a, i - (r - ra)) if x is None else x
            elif x == 1:
                src = (b, i - (r - rb)) if y is None else y
            elif x is None:
                src = y
            elif y is None:
                src = x
            else:
                raise self.error(f"shapes {a.type} and {b.type} do not broadcast")
            out.append(src)
        return [d if isinstance(d, int) else self.v("get_dimension_size", [d[0]], {"dimension": d[1]})
                for d in out]

    def fit(self, x: Value, dims: list) -> Value:
        """x, already of dims' rank and sizes, given the static dims it lacks (a run-time
        checked reshape), or broadcast to dims where it has 1s."""
        shape = self.static_dims(dims)
        if x.type.shape == shape:
            return x
        if x.type.rank == len(dims) and all(
                a == b or (a is None) for a, b in zip(x.type.shape, shape)) and all(
                s is not None for s in shape):
            return self.v("reshape", [x], result_type=TensorType(shape, x.type.elem))
        if x.type.rank == len(dims) and all(a == b or b is None and a != 1
                                            for a, b in zip(x.type.shape, shape)):
            return x  # more static than the join: equal at run time
        return self.broadcast_to(x, dims, shape)

    def broadcast_pair(self, a: Value, b: Value):
        if a.type.shape == b.type.shape:
            return a, b
        dims = self.broadcast_dims(a, b)
        a, b = self.fit(a, dims), self.fit(b, dims)
        if a.type.shape != b.type.shape:  # one more static than the other: relax it
            shape = tuple(x if x == y else None for x, y in zip(a.type.shape, b.type.shape))
            a, b = (self.v("dynamic_reshape", [v, self.shape_tensor(self.dims(v))],
                           result_type=TensorType(shape, v.type.elem))
                    if v.type.shape != shape else v for v in (a, b))
        return a, b

    def binary(self, name: str, a: Value, b: Value) -> Value:
        a, b = self.broadcast_pair(a, b)
        return self.v(name, [a, b])

    # ---------------------------------------------------------------- regions

    def scalar_region(self, elem: str, body: str, nargs: int = 2) -> Region:
        """A reduce body: (a, b) -> body(a, b) on scalars."""
        t = TensorType((), elem)
        block = Block([t] * nargs)
        inner = Emitter(block, self.loc, self.tf_op)
        r = inner.v(body, list(block.args))
        block.append(Operation("mhlo.return", [r], (), {}, (), self.loc))
        return Region([block])

    def slice(self, x: Value, starts: list, limits: list, strides: list | None = None) -> Value:
        """x[starts:limits:strides]: a slice where every bound is static and so is x, else
        real_dynamic_slice; bounds are ints or scalar integer values."""
        strides = strides or [1] * x.type.rank
        if all(isinstance(v, int) for v in starts + limits) and x.type.is_static:
            return self.v("slice", [x], {"start_indices": tuple(starts), "limit_indices": tuple(limits),
                                         "strides": tuple(strides)})
        shape = tuple(-(-(lim - s) // st) if isinstance(s, int) and isinstance(lim, int) else None
                      for s, lim, st in zip(starts, limits, strides))
        return self.v("real_dynamic_slice", [x, self.shape_tensor(starts), self.shape_tensor(limits),
                                             self.shape_tensor(strides)],
                      result_type=TensorType(shape, x.type.elem))

    def iota(self, dims: list, axis: int, elem: str) -> Value:
        """0, 1, 2, ... along `axis` of a tensor of `dims` (ints or run-time sizes)."""
        shape = self.static_dims(dims)
        t = TensorType(shape, elem)
        if all(d is not None for d in shape):
            return self.v("iota", [], {"iota_dimension": axis}, t)
        return self.v("dynamic_iota", [self.shape_tensor(dims)], {"iota_dimension": axis}, t)

    def reduce(self, x: Value, axes: list, body: str, init) -> Value:
        elem = x.type.elem
        init_v = self.const(init, elem, ())
        return self.op("reduce", [x, init_v], {"dimensions": tuple(sorted(axes))},
                       regions=[self.scalar_region(elem, body)]).result

    def contract_labels(self, pieces: list, out: str) -> Value:
        """An einsum of one or two operands, each (value, its labels), no label repeated in
        one: a label of one operand alone that `out` lacks summed first; a static size 1
        against the other operand's size broadcast; labels both share a batch dim where
        `out` keeps them, else contracted, in one dot_general; the result in `out`'s
        order (TF's Einsum and torch.einsum)."""
        kept = []
        for i, (x, t) in enumerate(pieces):
            keep = "".join(s for j, (_, s) in enumerate(pieces) if j != i) + out
            drop = [k for k, c in enumerate(t) if c not in keep]
            if drop:
                x, t = self.reduce(x, drop, "add", 0), "".join(c for c in t if c in keep)
            kept.append((x, t))
        if len(kept) == 1:
            (res, got), = kept
        else:
            (a, ta), (b, tb) = kept
            a, b = self._broadcast_labels(a, ta, b, tb), self._broadcast_labels(b, tb, a, ta)
            batch = [c for c in ta if c in tb and c in out]
            summed = [c for c in ta if c in tb and c not in out]
            dn = {"lhs_batching_dimensions": tuple(ta.index(c) for c in batch),
                  "rhs_batching_dimensions": tuple(tb.index(c) for c in batch),
                  "lhs_contracting_dimensions": tuple(ta.index(c) for c in summed),
                  "rhs_contracting_dimensions": tuple(tb.index(c) for c in summed)}
            res = self.v("dot_general", [a, b], {"dot_dimension_numbers": dn})
            got = "".join(batch) + "".join(c for c in ta if c not in tb) + \
                "".join(c for c in tb if c not in ta)
        perm = tuple(got.index(c) for c in out)
        return res if perm == tuple(range(len(perm))) else \
            self.v("transpose", [res], {"permutation": perm})

    def _broadcast_labels(self, x: Value, t: str, other: Value, t_other: str) -> Value:
        """x with each static size-1 dim that `other` has at another size broadcast to it."""
        dims, theirs = self.dims(x), self.dims(other)
        want = [theirs[t_other.index(c)] if c in t_other and d == 1 and
                theirs[t_other.index(c)] != 1 else d for c, d in zip(t, dims)]
        return x if want == dims else self.broadcast_to(x, want)


def result_elem(op: Operation, i: int = 0, default: str | None = None) -> str | None:
    """The element type TF declared for op's result i, ranked or not (`tensor<*xf32>`)."""
    t = op.results[i].type
    if isinstance(t, TensorType):
        return t.elem
    m = re.fullmatch(r"tensor<\*x(\w+)>", str(t))
    return m.group(1) if m else default


def join_types(a: TensorType, b: TensorType) -> TensorType:
    """The type both a and b have: dims that differ become `?`."""
    if a.rank != b.rank or a.elem != b.elem:
        raise ValueError(f"{a} and {b} differ in rank or element type")
    return TensorType(tuple(x if x == y else None for x, y in zip(a.shape, b.shape)), a.elem)


def ranked(t) -> bool:
    return isinstance(t, TensorType)


def gather_axis(e, params, idx, axis):
    """params indexed along `axis` by every element of idx (TF's GatherV2 with batch_dims 0,
    ATen's index_select): a gather, or a dynamic_gather when a slice size is known only at
    run time."""
    ir, pr = idx.type.rank, params.type.rank
    dn = {"offset_dims": tuple(list(range(axis)) + list(range(axis + ir, pr + ir - 1))),
          "collapsed_slice_dims": (axis,), "start_index_map": (axis,), "index_vector_dim": ir}
    dims = e.dims(params)
    sizes = [1 if i == axis else d for i, d in enumerate(dims)]
    shape = tuple(list(params.type.shape[:axis]) + list(idx.type.shape)
                  + list(params.type.shape[axis + 1:]))
    t = TensorType(shape, params.type.elem)
    if all(isinstance(s, int) for s in sizes):
        return e.v("gather", [params, idx], {"dimension_numbers": dn,
                                             "slice_sizes": tuple(sizes)}, t)
    return e.v("dynamic_gather", [params, idx, e.shape_tensor(sizes)],
               {"dimension_numbers": dn}, t)


MAX_DIMS_PER_FFT = 3  # mhlo.fft transforms the last 1-3 dims


def along_last(e, x, dims: list, transform):
    """transform(x with `dims` moved last, in order), moved back: for transforms that take
    the innermost dims (mhlo.fft, a product with a DFT matrix) applied to any."""
    rank = x.type.rank
    order = [d for d in range(rank) if d not in dims] + list(dims)
    same = order == list(range(rank))
    out = transform(x if same else e.v("transpose", [x], {"permutation": tuple(order)}))
    if same:
        return out
    return e.v("transpose", [out], {"permutation": tuple(order.index(d) for d in range(rank))})


def fft_over(e, x, dims: list, kind: str, lengths: list):
    """One mhlo.fft (`kind`, `lengths`) over `dims` (at most 3, static), moved last
    (TF's transforms take the innermost dims; PyTorch's any)."""
    return along_last(e, x, dims, lambda moved: e.v(
        "fft", [moved], {"fft_type": kind, "fft_length": tuple(lengths)}))


def complex_fft(e, x, dims: list, kind: str):
    """FFT or IFFT over every dim in `dims` (static sizes), three at a time."""
    for i in range(0, len(dims), MAX_DIMS_PER_FFT):
        group = list(dims[i:i + MAX_DIMS_PER_FFT])
        x = fft_over(e, x, group, kind, [x.type.shape[d] for d in group])
    return x


def fit_length(e, x, axis: int, length: int):
    """x cut or zero-padded along a static `axis` to `length` (an FFT's input to its
    fft_length, as TF and PyTorch read a spectrum of another length)."""
    have = x.type.shape[axis]
    if have == length:
        return x
    r = x.type.rank
    if have > length:
        limits = e.dims(x)
        limits[axis] = length
        return e.slice(x, [0] * r, limits)
    high = [0] * r
    high[axis] = length - have
    return e.v("pad", [x, e.const(0, x.type.elem, ())], {
        "edge_padding_low": (0,) * r, "edge_padding_high": tuple(high), "interior_padding": (0,) * r})
