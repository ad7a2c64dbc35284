"""Windowed ops: reduce_window, convolution and select_and_scatter, as direct loop kernels.

All three slide a window over an operand that is (conceptually) dilated and padded:
along each dim, operand element q sits at position q * base_dilation (lhs_dilation for
convolution) in the dilated operand, and the padded operand starts `padding_low`
before it. Window element k of output element o covers position

    p = o * stride + k * window_dilation - padding_low

which holds an operand element when p >= 0, p % base_dilation == 0 and
p / base_dilation < n; otherwise it is padding (or a dilation hole). Every output dim
is the strided bound max(0, (padded - dilated_window) / stride + 1), as in XLA.

- reduce_window (any body, several operands): each output element folds its window,
  starting from the init values, with the body region applied on scalars; padding and
  holes contribute the init value (XLA's semantics: the operand is padded with it).
  cumsum/cumprod/cummax on CPU, max/avg pooling are reduce_windows in JAX.
- convolution (any dimension numbers, strides, padding, lhs/rhs dilation, window
  reversal, feature_group_count, batch_group_count): each output element sums
  lhs * rhs over the kernel's spatial window and its input features, in that order.
  f32/f64/integer results accumulate in the result buffer with the output features
  innermost (one input element times a kernel row, which vectorises in NHWC/HWIO);
  f16/bf16 results accumulate per element in f32 and round once, as for dot.
- select_and_scatter (max-pool gradients): the result starts as the init value; for
  each source element in row-major order, the select region picks one element of its
  window (the first valid one, replaced by a later one whenever select(current, later)
  is false; padding is never selected) and the scatter region combines the source
  element into the result there.

Kernels have no branches: a window element outside the operand is read at a clamped,
valid index and replaced by a select. When an operand can be empty at run time while
its result is not (padding alone), the kernel runs a version without loads instead
(an scf.for of one or zero trips picks it), so nothing is ever read out of bounds.

The ops register in the op registry at the end, with the pretty form of convolution's
`dim_numbers` and `window`. On the CPU, f32/f64 convolutions with one group run as im2col
and the packed matmul instead (codegen/cpu/conv_gemm.py overrides the kernel).
"""
from __future__ import annotations

import re

import numpy as np

from lowering.ir.builder import Ix, buffer_dims, loop_nest
from lowering.ir.core import INDEX, DenseAttr, OpaqueAttr, Operation, ScalarType, TensorType, is_complex
from lowering.ops import registry
from lowering.ops.complex import cadd, cmul
from lowering.ops.elemental import apply_region
from lowering.ops.elementwise import Scalars
from lowering.ops.registry import ShapeError, static_or
from lowering.ops.sort import verify_scalar_region

I1 = ScalarType("i1")
FLOATS = ("f16", "bf16", "f32", "f64")


def _shape_error(msg):
    return ShapeError(msg)


# ----------------------------------------------------------------------------- attributes


def ints(value, n: int, default: int, what: str) -> tuple:
    """An integer list attribute (array<i64>, dense<...>, [..]) of length n, or the default."""
    if value is None:
        return (default,) * n
    if isinstance(value, DenseAttr):
        if value.array.size not in (1, n):  # before a loop over a (huge) splat
            raise _shape_error(f"{what} needs {n} values, got {value.array.size}")
        out = tuple(int(v) for v in np.asarray(value.array).reshape(-1))
    elif isinstance(value, (list, tuple)):
        out = tuple(int(v) for v in value)
    else:
        raise _shape_error(f"{what} must be a list of integers, got {value!r}")
    if len(out) == 1 and n != 1 and isinstance(value, DenseAttr) and value.array.size == 1:
        out = out * n  # a splat dense<k>
    if len(out) != n:
        raise _shape_error(f"{what} needs {n} values, got {len(out)}")
    return out


def padding_pairs(value, n: int) -> list:
    """padding = dense<[[lo, hi], ...]> : tensor<nx2xi64> (or a splat, or nested lists)."""
    if value is None:
        return [(0, 0)] * n
    if isinstance(value, DenseAttr):
        arr = np.asarray(value.array)
        if arr.size not in (1, 2 * n):  # before a loop over a (huge) splat
            raise _shape_error(f"padding needs {n} (low, high) pairs, got {arr.size} values")
        flat = [int(v) for v in arr.reshape(-1)]
        if arr.size == 1:
            flat = flat * (2 * n)
    else:
        try:
            flat = [int(v) for pair in value
                    for v in (pair if isinstance(pair, (list, tuple)) else [pair])]
        except (TypeError, ValueError):
            raise _shape_error(f"padding must be {n} (low, high) pairs of integers, got {value!r}") from None
    if len(flat) != 2 * n:
        raise _shape_error(f"padding needs {n} (low, high) pairs, got {len(flat)} values")
    return [(flat[2 * i], flat[2 * i + 1]) for i in range(n)]


def bools(value, n: int, what: str) -> tuple:
    if value is None:
        return (False,) * n
    if isinstance(value, DenseAttr):
        if value.array.size != n:  # before a loop over a (huge) splat
            raise _shape_error(f"{what} needs {n} values, got {value.array.size}")
        out = tuple(bool(v) for v in np.asarray(value.array).reshape(-1))
    else:
        out = tuple(bool(v) for v in value)
    if len(out) != n:
        raise _shape_error(f"{what} needs {n} values, got {len(out)}")
    return out


class Window:
    """Per-dim window parameters over an operand of rank n."""

    def __init__(self, size, stride, pad, base_dil, win_dil, reverse=None):
        self.size, self.stride, self.pad = list(size), list(stride), list(pad)
        self.base_dil, self.win_dil = list(base_dil), list(win_dil)
        self.reverse = list(reverse) if reverse is not None else [False] * len(self.size)
        for d in range(len(self.size)):  # (a dynamic_reduce_window's, read at run time,
            # are index values: checked on the host, see _dynamic_reduce_window_rule)
            if any(isinstance(v, int) and v <= 0
                   for v in (self.stride[d], self.base_dil[d], self.win_dil[d])):
                raise _shape_error(f"window strides and dilations must be positive (dim {d})")

    def out_dim(self, d: int, n, window=None):
        """Output size along d for an operand dim n (and window size, if given here),
        statically: None when unknown."""
        w = self.size[d] if window is None else window
        if n is None or w is None:
            return None
        dilated = max(0, (n - 1) * self.base_dil[d] + 1) if n > 0 else 0
        padded = dilated + self.pad[d][0] + self.pad[d][1]
        q = padded - ((w - 1) * self.win_dil[d] + 1)
        return max(0, q // self.stride[d] + 1)

    def run_out_dim(self, hs, d: int, n, w=None):
        """The same on the host, at run time."""
        w = self.size[d] if w is None else w
        bd = self.base_dil[d]
        dilated = n if isinstance(bd, int) and bd == 1 else hs.max(hs.add(hs.mul(n, bd), hs.sub(1, bd)), 0)
        padded = hs.add(hs.add(dilated, self.pad[d][0]), self.pad[d][1])
        span = hs.add(hs.mul(hs.sub(w, 1), self.win_dil[d]), 1)
        q = hs.sub(padded, span)
        s = self.stride[d]
        return hs.max(hs.div(hs.add(q, s), s), 0)


def _window_params(op: Operation, dilations: bool) -> Window:
    """The Window of reduce_window (with its dilations) or select_and_scatter (without)."""
    rank = op.operands[0].type.rank
    a = op.attrs
    if "window_dimensions" not in a:
        raise _shape_error("missing attribute 'window_dimensions'")
    dil = [ints(a.get(k), rank, 1, k) if dilations else [1] * rank
           for k in ("base_dilations", "window_dilations")]
    return Window(ints(a["window_dimensions"], rank, 1, "window_dimensions"),
                  ints(a.get("window_strides"), rank, 1, "window_strides"),
                  padding_pairs(a.get("padding"), rank), *dil)


def reduce_window_params(op: Operation) -> Window:
    return _window_params(op, dilations=True)


def select_and_scatter_params(op: Operation) -> Window:
    return _window_params(op, dilations=False)


# ----------------------------------------------------------------------------- conv attributes

CONV_KEYS = ("input_batch_dimension", "input_feature_dimension", "input_spatial_dimensions",
             "kernel_input_feature_dimension", "kernel_output_feature_dimension",
             "kernel_spatial_dimensions", "output_batch_dimension", "output_feature_dimension",
             "output_spatial_dimensions")


def _parse_compact(spec: str) -> dict:
    """`[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]` to the dimension-number dict."""
    m = re.fullmatch(r"\s*\[([^\]]*)\]\s*x\s*\[([^\]]*)\]\s*->\s*\[([^\]]*)\]\s*", spec)
    if not m:
        raise _shape_error(f"cannot read convolution dimension numbers '{spec}'")
    out = {}
    for side, text, (a, b_) in (("input", m.group(1), ("b", "f")),
                                ("kernel", m.group(2), ("i", "o")),
                                ("output", m.group(3), ("b", "f"))):
        labels = [t.strip() for t in text.split(",")]
        spatial = {}
        first = second = None
        for pos, lab in enumerate(labels):
            if lab == a:
                first = pos
            elif lab == b_:
                second = pos
            elif lab.isdigit():
                spatial[int(lab)] = pos
            else:
                raise _shape_error(f"bad label '{lab}' in convolution dimension numbers '{spec}'")
        if first is None or second is None or sorted(spatial) != list(range(len(spatial))):
            raise _shape_error(f"incomplete convolution dimension numbers '{spec}'")
        sp = tuple(spatial[k] for k in range(len(spatial)))
        if side == "kernel":
            out.update(kernel_input_feature_dimension=first, kernel_output_feature_dimension=second,
                       kernel_spatial_dimensions=sp)
        else:
            out.update({f"{side}_batch_dimension": first, f"{side}_feature_dimension": second,
                        f"{side}_spatial_dimensions": sp})
    return out


def conv_dims(op: Operation) -> dict:
    """dimension_numbers as a dict of CONV_KEYS, from any of the spellings."""
    value = op.attrs.get("dimension_numbers")
    if isinstance(value, OpaqueAttr):
        text = value.text
        body = text[text.index("<") + 1:text.rindex(">")].strip() if "<" in text else text
        if body.startswith("raw"):
            value = {}
            for key, v in re.findall(r"(\w+)\s*=\s*(\[[^\]]*\]|-?\d+)", body):
                value[key] = (tuple(int(x) for x in v.strip("[]").split(",") if x.strip())
                              if v.startswith("[") else int(v))
        else:
            return _parse_compact(body)
    if isinstance(value, str):
        return _parse_compact(value)
    if isinstance(value, dict):
        out = {}
        for k in CONV_KEYS:
            if k not in value:
                raise _shape_error(f"convolution dimension numbers lack '{k}'")
            v = value[k]
            if k.endswith("s"):
                out[k] = ints(v, len(v) if not isinstance(v, DenseAttr) else v.array.size, 0, k)
            else:
                out[k] = int(v if not isinstance(v, (list, tuple)) else v[0])
        return out
    raise _shape_error(f"cannot read convolution dimension numbers {value!r}")


class Conv:
    """A convolution's parameters, checked against its operand ranks."""

    def __init__(self, op: Operation):
        dn = conv_dims(op)
        self.lb, self.lf = dn["input_batch_dimension"], dn["input_feature_dimension"]
        self.lsp = list(dn["input_spatial_dimensions"])
        self.ki, self.ko = dn["kernel_input_feature_dimension"], dn["kernel_output_feature_dimension"]
        self.ksp = list(dn["kernel_spatial_dimensions"])
        self.ob, self.of = dn["output_batch_dimension"], dn["output_feature_dimension"]
        self.osp = list(dn["output_spatial_dimensions"])
        lhs, rhs = op.operands[0].type, op.operands[1].type
        n = len(self.lsp)
        for what, dims, rank in (("input", [self.lb, self.lf] + self.lsp, lhs.rank),
                                 ("kernel", [self.ki, self.ko] + self.ksp, rhs.rank),
                                 ("output", [self.ob, self.of] + self.osp, lhs.rank)):
            if len(dims) != rank or sorted(dims) != list(range(rank)):
                raise _shape_error(f"{what} dimension numbers {dims} do not fit rank {rank}")
        if len(self.ksp) != n or len(self.osp) != n:
            raise _shape_error("input, kernel and output must have the same spatial dims")
        a = op.attrs
        self.n = n
        try:
            self.G = int(a.get("feature_group_count", 1))
            self.B = int(a.get("batch_group_count", 1))
        except (TypeError, ValueError):
            raise _shape_error("feature_group_count and batch_group_count must be integers") from None
        if self.G < 1 or self.B < 1:
            raise _shape_error("feature_group_count and batch_group_count must be positive")
        if self.G > 1 and self.B > 1:
            raise _shape_error("feature_group_count and batch_group_count cannot both exceed 1")
        self.window = Window([None] * n, ints(a.get("window_strides"), n, 1, "window_strides"),
                             padding_pairs(a.get("padding"), n),
                             ints(a.get("lhs_dilation"), n, 1, "lhs_dilation"),
                             ints(a.get("rhs_dilation"), n, 1, "rhs_dilation"),
                             bools(a.get("window_reversal"), n, "window_reversal"))


# ----------------------------------------------------------------------------- shape functions


def infer_reduce_window(op: Operation):
    n = len(op.operands) // 2
    if n == 0 or len(op.operands) != 2 * n:
        raise _shape_error("reduce_window takes N operands and N init values")
    ins, inits = op.operands[:n], op.operands[n:]
    t0 = ins[0].type
    for v in ins:
        if v.type.rank != t0.rank or any(a is not None and b is not None and a != b
                                         for a, b in zip(v.type.shape, t0.shape)):
            raise _shape_error("reduce_window operands must have the same shape")
    for v, init in zip(ins, inits):
        if init.type.shape != () or init.type.elem != v.type.elem:
            raise _shape_error(f"init value must be a scalar {v.type.elem}, got {init.type}")
    w = reduce_window_params(op)
    for d, s in enumerate(w.size):
        if s < 1:
            raise _shape_error(f"window dimension {d} must be positive, got {s}")
    elems = [v.type.elem for v in ins]
    verify_scalar_region(op, 0, elems + elems, elems, "body")
    shape = tuple(w.out_dim(d, t0.shape[d]) for d in range(t0.rank))
    return [TensorType(shape, e) for e in elems]


WINDOW_OPERANDS = ("window_dimensions", "window_strides", "base_dilations", "window_dilations",
                  "padding")


def infer_dynamic_reduce_window(op: Operation):
    """reduce_window whose window comes from its last five operands (jax.export's
    @stablehlo.dynamic_reduce_window, as jnp.cumsum over a symbolic dim writes it): 1-D
    integer tensors of the operand's rank, and padding of [rank, 2]; the result dims are
    computed on the host from their values."""
    n = (len(op.operands) - len(WINDOW_OPERANDS)) // 2
    if n <= 0 or len(op.operands) != 2 * n + len(WINDOW_OPERANDS):
        raise _shape_error("dynamic_reduce_window takes N operands, N init values and five "
                           "window operands (" + ", ".join(WINDOW_OPERANDS) + ")")
    ins, inits = op.operands[:n], op.operands[n:2 * n]
    rank = ins[0].type.rank
    for v, what in zip(op.operands[2 * n:], WINDOW_OPERANDS):
        want = (rank, 2) if what == "padding" else (rank,)
        if v.type.shape != want or v.type.elem not in ("i32", "i64"):
            raise _shape_error(f"{what} must be a tensor<{'x'.join(map(str, want))}xi32> or "
                               f"i64, got {v.type}")
    for v, init in zip(ins, inits):
        if v.type.shape != ins[0].type.shape:
            raise _shape_error("reduce_window operands must have the same shape")
        if init.type.shape != () or init.type.elem != v.type.elem:
            raise _shape_error(f"init value must be a scalar {v.type.elem}, got {init.type}")
    elems = [v.type.elem for v in ins]
    verify_scalar_region(op, 0, elems + elems, elems, "body")
    return [TensorType(r.type.shape, e) for r, e in zip(op.results, elems)]


def loaded_window(load, rank: int, params: list) -> Window:
    """The Window of a dynamic_reduce_window from its window operands, `load(buf, idx)`
    giving an element as an index value (on the host or in a kernel)."""
    sizes, strides, base, dil, pad = params
    per_dim = [[load(buf, [d]) for d in range(rank)] for buf in (sizes, strides, base, dil)]
    pairs = [(load(pad, [d, 0]), load(pad, [d, 1])) for d in range(rank)]
    return Window(per_dim[0], per_dim[1], pairs, per_dim[2], per_dim[3])


def _host_index_load(hs):
    def load(buf, idx):
        v = hs.emit("memref.load", [buf] + [hs.index(i) for i in idx],
                    [ScalarType(buf.type.elem)], {}).result
        return hs.emit("arith.index_cast", [v], [INDEX], {}).result
    return load


def _dynamic_reduce_window_rule(hs, op, shapes, bufs):
    n = (len(op.operands) - len(WINDOW_OPERANDS)) // 2
    base = list(shapes[0])
    for s in shapes[1:n]:
        for d in range(len(base)):
            base[d] = hs.require_equal(base[d], s[d], op, f"operands differ in dim {d}")
    w = loaded_window(_host_index_load(hs), len(base), bufs[2 * n:])
    for d in range(len(base)):
        for what, v in (("window dimension", w.size[d]), ("window stride", w.stride[d]),
                        ("base dilation", w.base_dil[d]), ("window dilation", w.win_dil[d])):
            hs.require("sgt", v, 0, op, f"{what} {d} must be positive")
    out = [w.run_out_dim(hs, d, base[d]) for d in range(len(base))]
    return [static_or(r.type.shape, out) for r in op.results]


def reduce_window_buffers(op: Operation, b, args: list) -> tuple:
    """(inputs, init values, outputs, Window) of a reduce_window kernel's buffers; for
    dynamic_reduce_window the Window's entries are index values loaded from its operands."""
    if op.key != "dynamic_reduce_window":
        n = len(args) // 3
        return args[:n], args[n:2 * n], args[2 * n:], reduce_window_params(op)
    k = len(WINDOW_OPERANDS)
    n = (len(args) - k) // 3

    def load(buf, idx):
        v = b.v("memref.load", [buf] + [b.index(i) for i in idx], ScalarType(buf.type.elem))
        return b.v("arith.index_cast", [v], INDEX)
    window = loaded_window(load, args[0].type.rank, args[2 * n:2 * n + k])
    return args[:n], args[n:2 * n], args[2 * n + k:], window


def infer_convolution(op: Operation):
    if len(op.operands) != 2:
        raise _shape_error("convolution takes two operands (input, kernel)")
    lhs, rhs = op.operands[0].type, op.operands[1].type
    out_elem = op.results[0].type.elem
    if "i1" in (lhs.elem, rhs.elem, out_elem):
        raise _shape_error("convolution of booleans is not supported")
    if (lhs.elem in FLOATS) != (out_elem in FLOATS) or (rhs.elem in FLOATS) != (out_elem in FLOATS):
        raise _shape_error(f"convolution mixes float and integer types: {lhs}, {rhs} -> {out_elem}")
    c = Conv(op)
    C, N = lhs.shape[c.lf], lhs.shape[c.lb]
    Ci, Co = rhs.shape[c.ki], rhs.shape[c.ko]
    if C is not None and Ci is not None and C != Ci * c.G:
        raise _shape_error(f"input features ({C}) must be kernel input features ({Ci}) times "
                           f"feature_group_count ({c.G})")
    if Co is not None and (Co % c.G or Co % c.B):
        raise _shape_error(f"kernel output features ({Co}) must divide by feature_group_count "
                           f"({c.G}) and batch_group_count ({c.B})")
    if N is not None and N % c.B:
        raise _shape_error(f"input batch ({N}) must divide by batch_group_count ({c.B})")
    shape = [None] * lhs.rank
    shape[c.ob] = None if N is None else N // c.B
    shape[c.of] = Co
    for d in range(c.n):
        k = rhs.shape[c.ksp[d]]
        if k is not None and k < 1:
            raise _shape_error(f"kernel spatial dim {d} must be positive")
        shape[c.osp[d]] = c.window.out_dim(d, lhs.shape[c.lsp[d]], k)
    return [TensorType(tuple(shape), out_elem)]


def infer_select_and_scatter(op: Operation):
    if len(op.operands) != 3:
        raise _shape_error("select_and_scatter takes operand, source and init value")
    operand, source, init = (v.type for v in op.operands)
    if init.shape != () or init.elem != source.elem:
        raise _shape_error(f"init value must be a scalar {source.elem}, got {init}")
    if source.rank != operand.rank:
        raise _shape_error(f"source {source} must have the operand's rank")
    w = select_and_scatter_params(op)
    for d in range(operand.rank):
        want = w.out_dim(d, operand.shape[d])
        if want is not None and source.shape[d] is not None and want != source.shape[d]:
            raise _shape_error(f"source dim {d} is {source.shape[d]}; the windows over the "
                               f"operand give {want}")
    verify_scalar_region(op, 0, [operand.elem] * 2, ["i1"], "select")
    verify_scalar_region(op, 1, [source.elem] * 2, [source.elem], "scatter")
    return [TensorType(operand.shape, source.elem)]


# ----------------------------------------------------------------------------- run-time shapes


def _reduce_window_rule(hs, op, shapes, bufs):
    n = len(op.operands) // 2
    base = list(shapes[0])
    for s in shapes[1:n]:
        for d in range(len(base)):
            base[d] = hs.require_equal(base[d], s[d], op, f"operands differ in dim {d}")
    w = reduce_window_params(op)
    out = [w.run_out_dim(hs, d, base[d]) for d in range(len(base))]
    return [static_or(r.type.shape, out) for r in op.results]


def _convolution_rule(hs, op, shapes, bufs):
    c = Conv(op)
    ls, rs = shapes
    hs.require_equal(ls[c.lf], hs.mul(rs[c.ki], c.G), op,
                     "input features must be kernel input features times feature_group_count")
    if c.B > 1:
        N = ls[c.lb]
        if isinstance(N, int):
            if N % c.B:
                raise op.error(f"input batch ({N}) must divide by batch_group_count ({c.B})")
        else:
            rem = hs.emit("arith.remsi", [N, hs.index(c.B)], [INDEX], {}).result
            hs.require_equal(rem, 0, op, "input batch modulo batch_group_count")
    out = [None] * len(ls)
    out[c.ob] = hs.div(ls[c.lb], c.B)
    out[c.of] = rs[c.ko]
    for d in range(c.n):
        hs.require("sge", rs[c.ksp[d]], 1, op, f"kernel spatial dim {d} must be positive")
        out[c.osp[d]] = c.window.run_out_dim(hs, d, ls[c.lsp[d]], rs[c.ksp[d]])
    return [static_or(op.results[0].type.shape, out)]


def _select_and_scatter_rule(hs, op, shapes, bufs):
    operand, source = shapes[0], shapes[1]
    w = select_and_scatter_params(op)
    for d in range(len(operand)):
        hs.require_equal(source[d], w.run_out_dim(hs, d, operand[d]), op,
                         f"source dim {d} does not match the windows over the operand")
    return [static_or(op.results[0].type.shape, operand)]


# ----------------------------------------------------------------------------- kernels


def fold_nest(b, bounds: list, inits: list, body) -> list:
    """Nested scf.for loops over `bounds` carrying `inits`; `body(builder, ivs, values)`
    returns the new values. Returns the final values."""
    if not bounds:
        return body(b, [], list(inits))
    loops, cur, bb, ivs = [], list(inits), b, []
    for ub in bounds:
        loop, bb, iv, iters = bb.for_(bb.index(0), Ix(bb).val(ub), cur)
        loops.append((loop, bb))
        ivs.append(iv)
        cur = list(iters)
    new = body(bb, ivs, cur)
    bb.yield_(new)
    for (loop, _), (_, ob) in zip(reversed(loops[1:]), reversed(loops[:-1])):
        ob.yield_(loop.results)
    return list(loops[0][0].results)


def when_nonempty(b, dims: list, emit) -> None:
    """Run `emit(builder, can_load)`: with loads when every dim in `dims` is non-zero, else
    the version without loads; static dims decide at compile time, dynamic ones at run
    time (one scf.for of one or zero trips per version)."""
    if any(d == 0 for d in dims if isinstance(d, int)):
        emit(b, False)
        return
    dynamic = [d for d in dims if not isinstance(d, int)]
    if not dynamic:
        emit(b, True)
        return
    ix = Ix(b)
    ok = None
    for d in dynamic:
        ok = ix.and_(ok, ix.cmp("sgt", d, 0))
    trips = ix.select(ok, 1, 0)
    for can_load, n in ((True, trips), (False, ix.sub(1, trips))):
        _, gb, _, _ = b.for_(b.index(0), n)
        emit(gb, can_load)
        gb.yield_([])


def window_position(ix, w: Window, d: int, o, k, n):
    """(valid, index) of window element k of output element o along d, over an operand
    dim of size n; the index is clamped to 0 where not valid."""
    p = ix.add(ix.mul(o, w.stride[d]), ix.mul(k, w.win_dil[d]))
    p = ix.sub(p, w.pad[d][0])
    valid = None
    low = w.pad[d][0]
    if not (isinstance(p, int) and p >= 0) and not (isinstance(low, int) and low <= 0):
        valid = ix.and_(valid, ix.cmp("sge", p, 0))
    q = p
    bd = w.base_dil[d]
    if not (isinstance(bd, int) and bd == 1):
        valid = ix.and_(valid, ix.cmp("eq", ix.rem(p, bd), 0))
        q = ix.div(p, bd)
    valid = ix.and_(valid, ix.cmp("slt", q, n))
    return valid, q


def window_indices(ix, w: Window, ivs: list, kvs: list, dims: list):
    """(valid, indices) of window element kvs of output element ivs over the operand's
    leading len(ivs) dims (sizes `dims`): window_position per dim, the indices clamped to 0
    where the element is not valid (valid is None when every position is)."""
    valid, idx = None, []
    for d, (o, k, n) in enumerate(zip(ivs, kvs, dims)):
        ok, q = window_position(ix, w, d, o, k, n)
        valid = ix.and_(valid, ok)
        idx.append(q)
    if valid is not None:
        idx = [ix.select(valid, q, 0) for q in idx]
    return valid, idx


def row_ranges(ix, start, stride: int, size, width):
    """(lo, hi): the output positions o < width whose input index o * stride + start lies in
    [0, size) are lo <= o < hi (those before lo and from hi on fall in the padding)."""
    def first_at_or_past(bound):
        return ix.min(ix.div(ix.add(ix.max(ix.sub(bound, start), 0), stride - 1), stride), width)
    lo = first_at_or_past(0)
    return lo, ix.max(lo, first_at_or_past(size))


def window_fold(b, w: Window, region, ins: list, in_dims: list, ivs: list, init_vals: list,
                can_load: bool) -> list:
    """reduce_window's values at output element `ivs`: its window folded from the init values
    (padding and holes contribute them). Shared with the GPU's one-thread-per-element kernel."""
    def body(bb, kvs, accs):
        ix = Ix(bb)
        if not can_load:
            return apply_region(bb, region, accs + init_vals)
        valid, idx = window_indices(ix, w, ivs, kvs, in_dims)
        xs = [bb.v("memref.load", [buf] + idx, ScalarType(buf.type.elem)) for buf in ins]
        if valid is not None:
            xs = [ix.select(valid, x, i, ScalarType(buf.type.elem))
                  for x, i, buf in zip(xs, init_vals, ins)]
        return apply_region(bb, region, accs + xs)

    return fold_nest(b, list(w.size), init_vals, body)


# Rows of fewer output elements than this fold each element's window in registers; longer
# ones fold a row at a time (_fold_rows).
ROW_FOLD_MIN = 8


def emit_reduce_window(k, op: Operation, b, args: list):
    ins, inits, outs, w = reduce_window_buffers(op, b, args)
    in_dims = buffer_dims(b, ins[0])
    width = buffer_dims(b, outs[0])[-1] if outs[0].type.rank else 0
    if (op.key == "reduce_window" and len(ins) == 1 and ins[0] is not outs[0]
            and w.base_dil[-1] == 1 and not (isinstance(width, int) and width < ROW_FOLD_MIN)):
        when_nonempty(b, in_dims, lambda eb, can_load: _fold_rows(
            eb, w, op.regions[0], ins[0], inits[0], outs[0], in_dims, can_load))
        return

    def emit(eb, can_load):
        with loop_nest(eb, [Ix(eb).val(d) for d in buffer_dims(eb, outs[0])]) as (outer, ivs):
            init_vals = [outer.v("memref.load", [buf], ScalarType(buf.type.elem)) for buf in inits]
            final = window_fold(outer, w, op.regions[0], ins, in_dims, ivs, init_vals, can_load)
            for v, out in zip(final, outs):
                outer.op("memref.store", [v, out] + ivs)

    when_nonempty(b, in_dims, emit)


def _fold_rows(b, w: Window, region, inp, init_buf, out, in_dims: list, can_load: bool) -> None:
    """reduce_window of one operand a row of the output's last dim at a time: the row set to
    the init value, then for each window element in order, every output of the row folds it
    (the same folds in the same order per element as window_fold's). Along the row the input
    is read at o * stride + start in three ranges (padding, input, padding) with no check per
    element, so LLVM vectorises the row: a 3x3 stride-2 max pool over 64x112x112 (ResNet's
    stem, NCHW) took 7.7 ms folding element by element."""
    elem = ScalarType(inp.type.elem)
    out_dims = buffer_dims(b, out)
    last, width = len(out_dims) - 1, out_dims[-1]
    with loop_nest(b, [Ix(b).val(d) for d in out_dims[:-1]]) as (nest, ivs):
        init = nest.v("memref.load", [init_buf], elem)
        _, fb, o, _ = nest.for_(nest.index(0), Ix(nest).val(width))
        fb.op("memref.store", [init, out] + ivs + [o])
        fb.yield_([])

        def element(bb, kvs, _):
            ix = Ix(bb)
            valid, idx = window_indices(ix, w, ivs, kvs[:last], in_dims[:last])
            start = ix.sub(ix.mul(kvs[last], w.win_dil[last]), w.pad[last][0])
            lo, hi = row_ranges(ix, start, w.stride[last], in_dims[last], width)
            for begin, end, inside in ((0, lo, False), (lo, hi, can_load), (hi, width, False)):
                _, rb, o, _ = bb.for_(Ix(bb).val(begin), Ix(bb).val(end))
                rx = Ix(rb)
                x = init
                if inside:
                    at = [rx.val(q) for q in idx] + [rx.val(rx.add(rx.mul(o, w.stride[last]), start))]
                    x = rb.v("memref.load", [inp] + at, elem)
                    if valid is not None:
                        x = rx.select(valid, x, init, elem)
                acc = rb.v("memref.load", [out] + ivs + [o], elem)
                rb.op("memref.store", apply_region(rb, region, [acc, x]) + [out] + ivs + [o])
                rb.yield_([])
            return []
        fold_nest(nest, list(w.size), [], element)


def conv_window_at(ix, c: Conv, w: Window, rd: list, out_at: list, kvs: list, spatial_in: list,
                   lidx: list, ridx: list):
    """The spatial entries of the lhs and rhs indices for filter offsets `kvs` at output
    position `out_at` (per spatial dim), filled in place; returns where the input element is
    inside the operand (None: everywhere)."""
    valid = None
    for s in range(c.n):
        ok, q = window_position(ix, w, s, out_at[s], kvs[s], spatial_in[s])
        valid = ix.and_(valid, ok)
        lidx[c.lsp[s]] = q
        kk = kvs[s]
        if w.reverse[s]:
            kk = ix.sub(ix.sub(rd[c.ksp[s]], 1), kk)
        ridx[c.ksp[s]] = kk
    return valid


def conv_sizes(b, op: Operation, c: Conv, lhs, rhs) -> tuple:
    """A convolution kernel's sizes: (lhs dims, rhs dims, input features per group, output
    features per group or None, batch per group or None, the input's spatial dims)."""
    ld, rd = buffer_dims(b, lhs), buffer_dims(b, rhs)
    if any(d == 0 for d in [rd[c.ksp[s]] for s in range(c.n)] if isinstance(d, int)):
        raise op.error("kernel spatial dims must be positive")
    ix0 = Ix(b)
    cg = rd[c.ki]  # input features per group
    o_per = ix0.div(rd[c.ko], c.G if c.G > 1 else c.B) if (c.G > 1 or c.B > 1) else None
    n_per = ix0.div(ld[c.lb], c.B) if c.B > 1 else None
    spatial_in = [ld[c.lsp[s]] for s in range(c.n)]
    return ld, rd, cg, o_per, n_per, spatial_in


def conv_element(outer, c: Conv, lhs, rhs, sizes: tuple, ivs: list, acc_elem: str, can_load: bool):
    """The sum at output element `ivs` in acc_elem, kernel positions outside and input
    features inside (0 without loads). Shared with the GPU's one-thread-per-element kernel."""
    ld, rd, cg, o_per, n_per, spatial_in = sizes
    w = c.window
    ox = Ix(outer)
    of, ob = ivs[c.of], ivs[c.ob]
    group = ox.div(of, o_per) if o_per is not None else None
    feat_base = ox.mul(group, cg) if c.G > 1 else 0
    lhs_batch = ox.add(ox.mul(group, n_per), ob) if c.B > 1 else ob
    zero = outer.const(0, acc_elem)
    if not can_load:
        return zero
    bounds = [rd[c.ksp[s]] for s in range(c.n)] + [cg]

    def body(bb, kvs, accs):
        ix = Ix(bb)
        lidx, ridx = [None] * len(ld), [None] * len(rd)
        valid = conv_window_at(ix, c, w, rd, [ivs[c.osp[s]] for s in range(c.n)], kvs, spatial_in,
                               lidx, ridx)
        ci = kvs[c.n]
        lidx[c.lb] = lhs_batch
        lidx[c.lf] = ix.add(feat_base, ci)
        ridx[c.ki] = ci
        ridx[c.ko] = of
        if valid is not None:
            lidx = [ix.select(valid, q, 0) if d in c.lsp else q for d, q in enumerate(lidx)]
        s_ = Scalars(bb)
        x = s_.convert(bb.v("memref.load", [lhs] + lidx, ScalarType(lhs.type.elem)),
                       lhs.type.elem, acc_elem)
        y = s_.convert(bb.v("memref.load", [rhs] + ridx, ScalarType(rhs.type.elem)),
                       rhs.type.elem, acc_elem)
        if valid is not None:
            x = ix.select(valid, x, bb.const(0, acc_elem), ScalarType(acc_elem))
        return [mul_add(bb, acc_elem, accs[0], x, y)]

    (total,) = fold_nest(outer, bounds, [zero], body)
    return total


def mul_add(b, elem: str, acc, x, y):
    """acc + x * y in `elem`: float, integer, or complex (its product and sum)."""
    if is_complex(elem):
        s = Scalars(b)
        return cadd(s, elem, acc, cmul(s, elem, x, y))
    mul, add = ("arith.mulf", "arith.addf") if elem in FLOATS else ("arith.muli", "arith.addi")
    return b.v(add, [acc, b.v(mul, [x, y], ScalarType(elem))], ScalarType(elem))


def emit_convolution(k, op: Operation, b, args: list):
    lhs, rhs, out = args
    c = Conv(op)
    out_elem = out.type.elem
    acc_elem = "f32" if out_elem in ("f16", "bf16") else out_elem
    sizes = conv_sizes(b, op, c, lhs, rhs)
    ld, rd, cg, o_per, n_per, spatial_in = sizes

    def emit(eb, can_load):
        with loop_nest(eb, [Ix(eb).val(d) for d in buffer_dims(eb, out)]) as (outer, ivs):
            total = conv_element(outer, c, lhs, rhs, sizes, ivs, acc_elem, can_load)
            outer.op("memref.store", [Scalars(outer).convert(total, acc_elem, out_elem), out] + ivs)

    if acc_elem == out_elem:
        when_nonempty(b, spatial_in, lambda eb, can_load: _conv_features_inner(
            eb, can_load, c, lhs, rhs, out, ld, rd, cg, o_per, n_per, spatial_in))
    else:
        when_nonempty(b, spatial_in, emit)


def _conv_features_inner(b, can_load, c, lhs, rhs, out, ld, rd, cg, o_per, n_per, spatial_in):
    """Output features innermost, accumulated in the result buffer: for each output
    position, kernel position and input feature, one input element times a row of the
    kernel adds into a row of outputs (contiguous in the usual HWIO/NHWC layouts, so it
    vectorises). The sum runs in the same order as the per-element fold; a window element
    over padding or a dilation hole counts as 0 (times the kernel, as XLA computes it)."""
    w = c.window
    elem = out.type.elem
    rank = len(ld)
    out_dims = buffer_dims(b, out)
    other = [d for d in range(rank) if d != c.of]
    with loop_nest(b, [Ix(b).val(out_dims[d]) for d in other]) as (outer, oivs):

        def out_at(of):
            idx = [None] * rank
            for d, iv in zip(other, oivs):
                idx[d] = iv
            idx[c.of] = of
            return idx

        _, zb, of, _ = outer.for_(outer.index(0), Ix(outer).val(out_dims[c.of]))
        zb.op("memref.store", [zb.const(0, elem), out] + out_at(of))
        zb.yield_([])
        groups = c.G if c.G > 1 else c.B
        _, gb, grp, _ = outer.for_(outer.index(0), outer.index(groups))
        gx = Ix(gb)
        lhs_batch = gx.add(gx.mul(grp, n_per), oivs[other.index(c.ob)]) if c.B > 1 else \
            oivs[other.index(c.ob)]
        feat_base = gx.mul(grp, cg) if c.G > 1 else 0
        per = o_per if o_per is not None else out_dims[c.of]
        with loop_nest(gb, [Ix(gb).val(rd[c.ksp[s]]) for s in range(c.n)]) as (kb, kvs):
            kx = Ix(kb)
            lidx, ridx = [None] * rank, [None] * rank
            valid = conv_window_at(kx, c, w, rd, [oivs[other.index(c.osp[s])] for s in range(c.n)], kvs,
                                   spatial_in, lidx, ridx)
            if valid is not None:
                lidx = [kx.select(valid, q, 0) if q is not None else None for q in lidx]
            lidx[c.lb] = lhs_batch
            _, cb, ci, _ = kb.for_(kb.index(0), Ix(kb).val(cg))
            cx = Ix(cb)
            s_ = Scalars(cb)
            if can_load:
                lidx[c.lf] = cx.add(feat_base, ci)
                x = s_.convert(cb.v("memref.load", [lhs] + lidx, ScalarType(lhs.type.elem)),
                               lhs.type.elem, elem)
                if valid is not None:
                    x = cx.select(valid, x, cb.const(0, elem), ScalarType(elem))
            else:
                x = cb.const(0, elem)
            _, ib, oo, _ = cb.for_(cb.index(0), Ix(cb).val(per))
            ox = Ix(ib)
            of = ox.add(ox.mul(grp, per), oo) if groups > 1 else oo
            ridx[c.ki], ridx[c.ko] = ci, of
            y = Scalars(ib).convert(ib.v("memref.load", [rhs] + ridx, ScalarType(rhs.type.elem)),
                                    rhs.type.elem, elem)
            cur = ib.v("memref.load", [out] + out_at(of), ScalarType(elem))
            ib.op("memref.store", [mul_add(ib, elem, cur, x, y), out] + out_at(of))
            ib.yield_([])
            cb.yield_([])
        gb.yield_([])


def select_in_window(outer, w: Window, select, operand, out_dims: list, sivs: list) -> tuple:
    """(any valid, position) of the operand element the select region picks in the window of
    source element `sivs`; the position is 0 where the window holds no element. Shared with
    the GPU's one-thread-per-source-element kernel."""
    elem = operand.type.elem
    ox = Ix(outer)
    rank = len(out_dims)
    first = [outer.const(0, elem), outer.const(False, "i1")] + [outer.index(0)] * rank

    def body(bb, kvs, cur):
        ix = Ix(bb)
        best, have, pos = cur[0], cur[1], cur[2:]
        valid, idx = window_indices(ix, w, sivs, kvs, out_dims)
        x = bb.v("memref.load", [operand] + idx, ScalarType(elem))
        keep = apply_region(bb, select, [best, x])[0]
        take = ix.or_(ix.not_(have), ix.not_(keep))
        if valid is not None:
            take = ix.and_(valid, take)
        new_pos = [ix.select(take, q, p) for q, p in zip(idx, pos)]
        now_have = ix.or_(have, valid) if valid is not None else bb.const(True, "i1")
        return [ix.select(take, x, best, ScalarType(elem)), now_have] + new_pos

    res = fold_nest(outer, list(w.size), first, body)
    have, pos = res[1], res[2:]
    return have, [ox.select(have, p, 0) for p in pos]


def emit_select_and_scatter(k, op: Operation, b, args: list):
    operand, source, init, out = args
    w = select_and_scatter_params(op)
    src_elem = source.type.elem
    out_dims = buffer_dims(b, out)
    # the result starts as the init value everywhere
    with loop_nest(b, [Ix(b).val(d) for d in out_dims]) as (fill, ivs):
        fill.op("memref.store", [fill.v("memref.load", [init], ScalarType(src_elem)), out] + ivs)
    select, scatter = op.regions

    def emit(eb, can_load):
        if not can_load:  # an empty operand has no element to select
            return
        with loop_nest(eb, [Ix(eb).val(d) for d in buffer_dims(eb, source)]) as (outer, sivs):
            have, pos = select_in_window(outer, w, select, operand, out_dims, sivs)
            ox = Ix(outer)
            old = outer.v("memref.load", [out] + pos, ScalarType(src_elem))
            s = outer.v("memref.load", [source] + sivs, ScalarType(src_elem))
            new = apply_region(outer, scatter, [old, s])[0]
            outer.op("memref.store", [ox.select(have, new, old, ScalarType(src_elem)), out] + pos)

    when_nonempty(b, out_dims, emit)


_FAMILY = "reductions and contractions"
def _reduce_window_same_size(op: Operation, dim: int):
    """A dim whose window is 1 wide, unstrided, undilated and unpadded keeps the input's
    size (cse.py reads the size there); one input only (with its init)."""
    rank = op.results[0].type.rank
    if len(op.operands) != 2:
        return None
    unit = all(ints(op.attrs.get(k), rank, 1, k)[dim] == 1 for k in
               ("window_dimensions", "window_strides", "base_dilations", "window_dilations"))
    return (0, dim) if unit and padding_pairs(op.attrs.get("padding"), rank)[dim] == (0, 0) else None


registry.define("reduce_window", "kernel", _FAMILY, attrs=("window_dimensions",),
                infer=infer_reduce_window, shape_rule=_reduce_window_rule,
                same_size=_reduce_window_same_size,
                kernel=emit_reduce_window,  # inputs..., inits..., outs...
                writes=lambda op: registry.last_operands(op, len(op.operands) // 3))
registry.define("dynamic_reduce_window", "kernel", "dynamic shapes",
                infer=infer_dynamic_reduce_window, shape_rule=_dynamic_reduce_window_rule,
                shape_operands=tuple(range(-len(WINDOW_OPERANDS), 0)),
                kernel=emit_reduce_window,  # inputs..., inits..., window operands, outs...
                writes=lambda op: registry.last_operands(
                    op, (len(op.operands) - len(WINDOW_OPERANDS)) // 3))


def _convolution_same_size(op: Operation, dim: int):
    """The output's batch dim is the input's when batches are not grouped (cse.py reads the
    size there)."""
    c = Conv(op)
    return (0, c.lb) if dim == c.ob and c.B == 1 else None


registry.define("convolution", "kernel", _FAMILY, attrs=("dimension_numbers",),
                infer=infer_convolution, shape_rule=_convolution_rule, kernel=emit_convolution,
                same_size=_convolution_same_size,
                writes=lambda op: (2,))  # input, kernel, result, scratch...
registry.define("select_and_scatter", "kernel", _FAMILY, attrs=("window_dimensions",),
                infer=infer_select_and_scatter, shape_rule=_select_and_scatter_rule,
                kernel=emit_select_and_scatter)
