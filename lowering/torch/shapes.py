"""ATen's views and copies, indexing, tensor creation and the arithmetic of symbolic sizes,
lowered to mhlo. A size is an int, or a scalar i32 value where PyTorch has a symbol (read
from the input's dims, `aten.sym_size.int`, and combined by `_operator.*` nodes): ops whose
sizes are values become their dynamic forms (dynamic_reshape, dynamic_broadcast_in_dim,
real_dynamic_slice, dynamic_iota)."""
from __future__ import annotations

import numpy as np

from lowering.ir.core import TensorType, Value
from lowering.tf.emitter import gather_axis as shared_gather_axis
from lowering.torch.emitter import TorchEmitter
from lowering.torch.table import aten

S = "shapes and data movement"
I64_MAX = (1 << 63) - 1


def _sizes(e: TorchEmitter, sizes: list, x: Value | None = None, recorded=None) -> list:
    """A view's sizes: ints and values, a -1 solved from x's element count (or taken from
    the `recorded` output shape where PyTorch found it static: [b, s, 128] viewed as
    [b, s, 4, -1] is [b, s, 4, 32], not a run-time division making the heads' dim `?`)."""
    sizes = list(sizes)
    holes = [i for i, s in enumerate(sizes) if isinstance(s, int) and s == -1]
    if len(holes) > 1:
        raise e.error(f"sizes {sizes} have more than one -1")
    if holes and recorded is not None and len(recorded) == len(sizes) \
            and isinstance(recorded[holes[0]], int):
        sizes[holes[0]] = recorded[holes[0]]
    elif holes:
        total = e.product(e.dims(x))
        known = e.product([s for i, s in enumerate(sizes) if i != holes[0]])
        if isinstance(total, int) and isinstance(known, int):
            sizes[holes[0]] = total // known if known else 0
        else:
            sizes[holes[0]] = e.v("divide", [e.scalar(total, "i32"), e.scalar(known, "i32")])
    return sizes


@aten("view.default", "_unsafe_view.default", "reshape.default", "view_copy.default", group=S)
def view(e, n):
    x = n.arg("self")
    sizes = n.arg("size") if "size" in n.inputs else n.arg("shape")
    return e.reshape(x, _sizes(e, sizes, x, n.meta()[0]))


@aten("permute.default", "permute_copy.default", group=S)
def permute(e, n):
    x = n.arg("self")
    perm = tuple(e.axis(d, x.type.rank) for d in n.arg("dims"))
    return e.v("transpose", [x], {"permutation": perm})


@aten("transpose.int", "swapaxes.default", "swapdims.default", group=S)
def transpose(e, n):
    """Two dims swapped (swapaxes names them axis0/axis1: MaxViT)."""
    x = n.arg("self")
    r = x.type.rank
    a, b = (e.axis(n.arg(k), r) for k in (("axis0", "axis1") if "axis0" in n.inputs
                                          else ("dim0", "dim1")))
    perm = list(range(r))
    perm[a], perm[b] = b, a
    return e.v("transpose", [x], {"permutation": tuple(perm)})


@aten("t.default", group=S)
def t(e, n):
    x = n.arg("self")
    return x if x.type.rank < 2 else e.v("transpose", [x], {"permutation": (1, 0)})


@aten("numpy_T.default", group=S)
def numpy_t(e, n):
    """`x.T`: every dim reversed (Falcon's attention takes its weights so)."""
    x = n.arg("self")
    return e.v("transpose", [x], {"permutation": tuple(reversed(range(x.type.rank)))})


@aten("unsqueeze.default", group=S)
def unsqueeze(e, n):
    x = n.arg("self")
    dims = e.dims(x)
    d = e.axis(n.arg("dim"), x.type.rank + 1)
    return e.reshape(x, dims[:d] + [1] + dims[d:])


@aten("squeeze.dims", "squeeze.dim", "squeeze.default", group=S)
def squeeze(e, n):
    x = n.arg("self")
    r = x.type.rank
    dims = n.arg("dim", None) if "dim" in n.inputs else n.arg("dims", None)
    axes = e.axes(dims, r) if dims is not None else list(range(r))
    sizes = e.dims(x)
    keep = [d for i, d in enumerate(sizes) if not (i in axes and d == 1)]
    return e.reshape(x, keep)


@aten("expand.default", "expand_copy.default", group=S)
def expand(e, n):
    x = n.arg("self")
    sizes = list(n.arg("size"))
    r = len(sizes)
    own = e.dims(x)
    lead = r - x.type.rank
    dims = [own[i - lead] if isinstance(s, int) and s == -1 else s for i, s in enumerate(sizes)]
    if x.type.rank == r and all(isinstance(a, int) and isinstance(b, int) and a == b
                                for a, b in zip(own, dims)):
        return x
    return e.broadcast_to(x, dims)


@aten("expand_as.default", "view_as.default", "reshape_as.default", group=S)
def like(e, n):
    """self broadcast to (expand_as) or viewed or reshaped as (view_as, reshape_as: LeViT,
    NFNet's weight standardisation) other's sizes."""
    x, dims = n.arg("self"), e.dims(n.arg("other"))
    return e.broadcast_to(x, dims) if e.target.startswith("aten.expand_as") else e.reshape(x, dims)


@aten("clone.default", "alias.default", "lift_fresh_copy.default", "detach.default",
      "contiguous.default", "_to_copy.default", "to.dtype", "to.dtype_layout", "to.device",
      "to.other",
      "_to_dim_order_copy.default", "type_as.default",
      group=S)
def copy(e, n):
    """A copy or a cast: values are immutable here, so only the element type matters."""
    return e.convert(n.arg("self"), n.out_elem())


@aten("cat.default", "concat.default", group=S)
def cat(e, n):
    xs = [x for x in n.arg("tensors") if not (x.type.rank == 1 and x.type.shape[0] == 0)]
    elem = n.out_elem()
    xs = [e.convert(x, elem) for x in xs]
    if len(xs) == 1:
        return xs[0]
    return e.v("concatenate", xs, {"dimension": e.axis(n.arg("dim", 0), xs[0].type.rank)})


@aten("stack.default", group=S)
def stack(e, n):
    """The tensors, each given a dim of 1 at `dim`, concatenated along it."""
    xs = [e.convert(x, n.out_elem()) for x in n.arg("tensors")]
    axis = e.axis(n.arg("dim", 0), xs[0].type.rank + 1)
    xs = [e.reshape(x, e.dims(x)[:axis] + [1] + e.dims(x)[axis:]) for x in xs]
    return xs[0] if len(xs) == 1 else e.v("concatenate", xs, {"dimension": axis})


def _norm_index(e, i, d, clamp: bool):
    """Index i of a dim of size d (ints or values): negative counts from the end; clamped to
    [0, d] when `clamp` (a slice's bounds), as PyTorch does."""
    if isinstance(i, int) and isinstance(d, int):
        i = i + d if i < 0 else i
        return min(max(i, 0), d) if clamp else i
    if isinstance(i, int) and i >= 0:
        return e.v("minimum", [e.scalar(i, "i32"), e.scalar(d, "i32")]) if clamp and i > 0 else i
    if isinstance(i, int):  # negative, dynamic dim
        return e.v("maximum", [e.v("add", [e.scalar(d, "i32"), e.scalar(i, "i32")]), e.scalar(0, "i32")])
    iv = e.scalar(i, "i32")
    dv = e.scalar(d, "i32")
    neg = e.compare(iv, e.scalar(0, "i32"), "LT")
    iv = e.v("select", [neg, e.v("add", [iv, dv]), iv])
    return e.v("clamp", [e.scalar(0, "i32"), iv, dv]) if clamp else iv


def slice_dim(e: TorchEmitter, x: Value, axis: int, start, end, step: int) -> Value:
    dims = e.dims(x)
    d = dims[axis]
    start = _norm_index(e, 0 if start is None else start, d, True)
    end = d if end is None or (isinstance(end, int) and end >= I64_MAX // 2) else \
        _norm_index(e, end, d, True)
    if isinstance(start, int) and isinstance(end, int):
        end = max(end, start)
    elif not (isinstance(start, int) and start == 0):
        end = e.v("maximum", [e.scalar(end, "i32"), e.scalar(start, "i32")])
    if isinstance(start, int) and start == 0 and end is d and step == 1:
        return x
    r = x.type.rank
    starts = [start if i == axis else 0 for i in range(r)]
    limits = [end if i == axis else dims[i] for i in range(r)]
    strides = [step if i == axis else 1 for i in range(r)]
    return e.slice(x, starts, limits, strides)


@aten("slice.Tensor", "slice_copy.Tensor", group=S)
def slice_(e, n):
    x = n.arg("self")
    step = n.arg("step", 1)
    if not isinstance(step, int) or step <= 0:
        raise e.error(f"slice step must be a positive constant, got {step}")
    return slice_dim(e, x, e.axis(n.arg("dim", 0), x.type.rank), n.arg("start", None),
                     n.arg("end", None), step)


@aten("diff.default", group="elementwise math")
def diff(e, n):
    """x[1:] - x[:-1] along `dim`, `n` times, after `prepend`/`append` are concatenated
    (GPT-2's position ids from its attention mask); booleans differ by xor, as in PyTorch."""
    x = n.arg("self")
    axis = e.axis(n.arg("dim", -1), x.type.rank)
    elem = n.out_elem()
    parts = [e.convert(p, elem) for p in (n.arg("prepend", None), x, n.arg("append", None))
             if p is not None]
    if len(parts) > 1:
        x = e.v("concatenate", parts, {"dimension": axis})
    for _ in range(n.arg("n", 1)):
        hi, lo = slice_dim(e, x, axis, 1, None, 1), slice_dim(e, x, axis, 0, -1, 1)
        x = e.v("xor" if elem == "i1" else "subtract", [hi, lo])
    return x


@aten("select.int", "select_copy.int", group=S)
def select(e, n):
    x = n.arg("self")
    axis = e.axis(n.arg("dim"), x.type.rank)
    d = e.dims(x)[axis]
    i = _norm_index(e, n.arg("index"), d, False)
    one = i + 1 if isinstance(i, int) else e.v("add", [i, e.scalar(1, "i32")])
    piece = slice_dim(e, x, axis, i, one, 1)
    return e.reshape(piece, [s for k, s in enumerate(e.dims(piece)) if k != axis])


@aten("split_with_sizes.default", "split.Tensor", "split_with_sizes_copy.default", group=S)
def split(e, n):
    x = n.arg("self")
    axis = e.axis(n.arg("dim", 0), x.type.rank)
    d = e.dims(x)[axis]
    if "split_sizes" in n.inputs:
        sizes = n.arg("split_sizes")
    else:
        size = n.arg("split_size")
        if not isinstance(d, int):
            raise e.error("split by a size along a dynamic dim is not supported yet")
        sizes = [min(size, d - s) for s in range(0, d, size)]
    out, start = [], 0
    for s in sizes:
        end = start + s if isinstance(start, int) and isinstance(s, int) else \
            e.v("add", [e.scalar(start, "i32"), e.scalar(s, "i32")])
        out.append(slice_dim(e, x, axis, start, end, 1))
        start = end
    return out


@aten("tensor_split.indices", "tensor_split.sections", group=S)
def tensor_split(e, n):
    """The pieces between `indices` along `dim` (each cut a slice bound: negative ones count
    from the end, clamped into the dim; MViT splits its class token off so), or `sections`
    pieces whose first size % sections are one longer, as PyTorch cuts them."""
    x = n.arg("self")
    axis = e.axis(n.arg("dim", 0), x.type.rank)
    d = e.dims(x)[axis]
    if "sections" in n.inputs:
        k = n.arg("sections")
        if not isinstance(d, int) or not isinstance(k, int):
            raise e.error("tensor_split into sections along a dynamic dim is not supported yet")
        cuts = [i * (d // k) + min(i, d % k) for i in range(1, k)]
    else:
        cuts = list(n.arg("indices"))
    bounds = [0, *cuts, None]
    return [slice_dim(e, x, axis, lo, hi, 1) for lo, hi in zip(bounds, bounds[1:])]


@aten("chunk.default", group=S)
def chunk(e, n):
    """`chunks` pieces of ceil(size / chunks) along `dim` (fewer when they run out), as
    PyTorch cuts them."""
    x = n.arg("self")
    axis = e.axis(n.arg("dim", 0), x.type.rank)
    d = e.dims(x)[axis]
    if not isinstance(d, int):
        raise e.error("chunk along a dynamic dim is not supported yet")
    size = max(-(-d // n.arg("chunks")), 1)
    return [slice_dim(e, x, axis, s, min(s + size, d), 1) for s in range(0, d, size)] or [x]


@aten("unbind.int", group=S)
def unbind(e, n):
    """One tensor per index along `dim`, that dim removed."""
    x = n.arg("self")
    axis = e.axis(n.arg("dim", 0), x.type.rank)
    dims = e.dims(x)
    if not isinstance(dims[axis], int):
        raise e.error("unbind along a dynamic dim is not supported (its count of results is "
                      "fixed when exported)")
    rest = dims[:axis] + dims[axis + 1:]
    return [e.reshape(slice_dim(e, x, axis, i, i + 1, 1), rest) for i in range(dims[axis])]


@aten("tril.default", "triu.default", group=S)
def tril(e, n):
    """x where column - row <= diagonal (tril; >= for triu) over its last two dims, else 0
    (a causal mask: torch.tril(torch.ones(t, t)), t dynamic or not)."""
    x = n.arg("self")
    dims = e.dims(x)
    if x.type.rank < 2:
        raise e.error(f"{e.target} needs a matrix, got rank {x.type.rank}")
    offset = e.v("subtract", [e.iota(dims[-2:], 1, "i64"), e.iota(dims[-2:], 0, "i64")])
    keep = e.compare(offset, e.scalar(n.arg("diagonal", 0), "i64"),
                     "LE" if e.target.startswith("aten.tril") else "GE")
    keep, x, zero = e.broadcast_all([keep, x, e.scalar(0, x.type.elem)])
    return e.v("select", [keep, x, zero])


@aten("flip.default", group=S)
def flip(e, n):
    x = n.arg("self")
    return e.v("reverse", [x], {"dimensions": tuple(e.axes(n.arg("dims"), x.type.rank))})


@aten("constant_pad_nd.default", group=S)
def constant_pad(e, n):
    """pad = [last_lo, last_hi, prev_lo, prev_hi, ...]; negative amounts crop. An amount
    PyTorch computed from a symbolic size (Swin pads its maps to whole windows) makes it a
    dynamic_pad, its amounts a run-time tensor."""
    x = n.arg("self")
    pads = n.arg("pad")
    r = x.type.rank
    lo, hi = [0] * r, [0] * r
    for k in range(len(pads) // 2):
        lo[r - 1 - k], hi[r - 1 - k] = pads[2 * k], pads[2 * k + 1]
    value = e.scalar(n.arg("value", 0), x.type.elem)
    if all(isinstance(a, int) for a in lo + hi):
        return e.v("pad", [x, value], {"edge_padding_low": tuple(lo),
                                       "edge_padding_high": tuple(hi), "interior_padding": (0,) * r})
    shape = tuple(d + a + b if all(isinstance(v, int) for v in (d, a, b)) else None
                  for d, a, b in zip(x.type.shape, lo, hi))
    return e.v("dynamic_pad", [x, value, e.shape_tensor(lo), e.shape_tensor(hi),
                               e.shape_tensor([0] * r)], result_type=TensorType(shape, x.type.elem))


@aten("repeat.default", group=S)
def repeat(e, n):
    """x tiled: broadcast to [r0, d0, r1, d1, ...] then merged pairwise."""
    x = n.arg("self")
    reps = n.arg("repeats")
    lead = len(reps) - x.type.rank
    dims = [1] * lead + e.dims(x)
    x = e.reshape(x, dims)
    wide = []
    for r, d in zip(reps, dims):
        wide += [r, d]
    b = e.broadcast_to(x, wide, mapping=tuple(range(1, 2 * len(dims), 2)))
    return e.reshape(b, [e.product([r, d]) for r, d in zip(reps, dims)])


# ---------------------------------------------------------------- indexing

X = "indexing"


def gather_axis(e: TorchEmitter, params: Value, idx: Value, axis: int) -> Value:
    """params indexed along `axis` by every element of idx (negative indices wrap)."""
    return shared_gather_axis(e, params, _wrap(e, idx, e.dims(params)[axis]), axis)


@aten("embedding.default", group=X)
def embedding(e, n):
    return gather_axis(e, n.arg("weight"), n.arg("indices"), 0)


@aten("index_select.default", group=X)
def index_select(e, n):
    x = n.arg("self")
    return gather_axis(e, x, n.arg("index"), e.axis(n.arg("dim"), x.type.rank))


@aten("index.Tensor", group=X)
def index(e, n):
    """x[..., i0, i1, ...] with index tensors on consecutive dims (broadcast together, negative
    indices wrapping), the dims before and after taken whole: one gather. A boolean mask
    (x[mask], a data-dependent size) gathers at the coordinates nonzero(mask) finds."""
    x = n.arg("self")
    indices = n.arg("indices")
    given = [i for i, t in enumerate(indices) if t is not None]
    if not given:
        return x
    if given != list(range(given[0], given[-1] + 1)):
        raise e.error("index tensors on dims that are not consecutive are not supported yet")
    dims = e.dims(x)
    if any(indices[i].type.elem == "i1" for i in given):
        if len(given) != 1:
            raise e.error("a boolean mask beside other index tensors is not supported yet")
        mask = indices[given[0]]  # x[mask]: the coordinates of its true elements (nonzero's)
        given = list(range(given[0], given[0] + mask.type.rank))
        coords = e.v("dhlo.where", [mask], result_type=TensorType((None, mask.type.rank), "i64"))
        picked, s = (None,), 1
    elif len(given) == 1:
        return gather_axis(e, x, indices[given[0]], given[0])
    else:
        idx = e.broadcast_all([e.convert(indices[i], "i64") for i in given])
        idx = [_wrap(e, v, dims[i]) for v, i in zip(idx, given)]
        s = idx[0].type.rank
        sdims = e.dims(idx[0])
        coords = e.v("concatenate", [e.reshape(v, sdims + [1]) for v in idx], {"dimension": s})
        picked = idx[0].type.shape
    k, m = given[0], len(given)
    rest = x.type.rank - k - m
    dn = {"offset_dims": tuple(range(k)) + tuple(range(k + s, k + s + rest)),
          "collapsed_slice_dims": tuple(given), "start_index_map": tuple(given),
          "index_vector_dim": s}
    sizes = [1 if i in given else d for i, d in enumerate(dims)]
    shape = tuple(x.type.shape[:k]) + picked + tuple(x.type.shape[k + m:])
    t = TensorType(shape, x.type.elem)
    if all(isinstance(d, int) for d in sizes):
        return e.v("gather", [x, coords], {"dimension_numbers": dn, "slice_sizes": tuple(sizes)}, t)
    return e.v("dynamic_gather", [x, coords, e.shape_tensor(sizes)], {"dimension_numbers": dn}, t)


def _wrap(e, idx, d):
    """Negative indices count from the end of a dim of size d."""
    neg = e.compare(idx, e.scalar(0, idx.type.elem), "LT")
    return e.v("select", [neg, e.binary("add", idx, e.scalar(d, idx.type.elem)), idx])


def element_coords(e: TorchEmitter, idx: Value, axis: int, rank: int) -> Value:
    """Coordinates [*idx.shape, rank] of each element of `idx` in a tensor of `rank` dims:
    its own position on every dim but `axis`, where its value (gather and scatter along a
    dim)."""
    dims = e.dims(idx)
    idx = e.convert(idx, "i64")
    cols = [idx if k == axis else e.iota(dims, k, "i64") for k in range(rank)]
    return e.v("concatenate", [e.reshape(c, dims + [1]) for c in cols], {"dimension": rank})


@aten("gather.default", group=X)
def gather(e, n):
    """out[i][j][k] = x[i][index[i][j][k]][k] (dim 1): a gather whose start indices are the
    iotas of index's shape with `index` at `dim`."""
    x, idx = n.arg("self"), n.arg("index")
    axis = e.axis(n.arg("dim"), x.type.rank)
    r = x.type.rank
    coords = element_coords(e, idx, axis, r)
    dn = {"offset_dims": (), "collapsed_slice_dims": tuple(range(r)),
          "start_index_map": tuple(range(r)), "index_vector_dim": r}
    return e.v("gather", [x, coords], {"dimension_numbers": dn, "slice_sizes": (1,) * r},
               TensorType(idx.type.shape, x.type.elem))


# ---------------------------------------------------------------- creation

C = "creation"


@aten("full.default", "zeros.default", "ones.default", "empty.memory_format",
      "new_full.default", "new_zeros.default", "new_ones.default", "new_empty.default", group=C)
def full(e, n):
    """A constant of `size`; `new_ones` and the other `new_*` take only their dtype from
    `self` (recorded in the output's meta)."""
    elem = n.out_elem()
    value = n.arg("fill_value", 1 if "ones" in e.target else 0)
    dims = list(n.arg("size"))
    return e.broadcast_to(e.scalar(value, elem), dims)


@aten("full_like.default", "zeros_like.default", "ones_like.default", "empty_like.default",
      group=C)
def full_like(e, n):
    x = n.arg("self")
    value = n.arg("fill_value", 1 if "ones" in e.target else 0)
    return e.broadcast_to(e.scalar(value, n.out_elem()), e.dims(x), x.type.shape)


@aten("scalar_tensor.default", group=C)
def scalar_tensor(e, n):
    return e.scalar(n.arg("s"), n.out_elem())


@aten("arange.start_step", "arange.default", "arange.start", group=C)
def arange(e, n):
    """A constant when the bounds are; else start + step * iota over ceil((end - start) /
    step) elements, counted at run time."""
    elem = n.out_elem()
    start, end, step = n.arg("start", 0), n.arg("end"), n.arg("step", 1)
    if all(not isinstance(v, Value) for v in (start, end, step)):
        arr = np.arange(start, end, step)
        return e.const(arr, elem, arr.shape)
    if isinstance(step, Value) or (isinstance(start, float) or isinstance(end, float)):
        raise e.error("a dynamic arange needs integer bounds and a constant step")
    span = e.v("subtract", [e.scalar(end, "i32"), e.scalar(start, "i32")])
    count = e.v("divide", [e.v("add", [span, e.scalar(step - 1 if step > 0 else step + 1, "i32")]),
                           e.scalar(step, "i32")])
    count = e.v("maximum", [count, e.scalar(0, "i32")])
    iota = e.iota([count], 0, elem)
    out = e.binary("multiply", iota, e.scalar(step, elem)) if step != 1 else iota
    return out if isinstance(start, int) and start == 0 else e.binary("add", out, e.scalar(start, elem))


# ---------------------------------------------------------------- symbolic sizes

Y = "symbolic sizes"


@aten("sym_size.int", group=Y)
def sym_size(e, n):
    x = n.arg("self")
    d = e.dims(x)[e.axis(n.arg("dim"), x.type.rank)]
    return d


@aten("sym_numel.default", group=Y)
def sym_numel(e, n):
    return e.product(e.dims(n.arg("self")))


def _sym(fold, hlo):
    def rule(e, n):
        a, b = (n.arg(k) if k in n.inputs else n.positional(i) for i, k in enumerate("ab"))
        if isinstance(a, int) and isinstance(b, int):
            return fold(a, b)
        return e.v(hlo, [e.scalar(a, "i32"), e.scalar(b, "i32")])  # sizes: non-negative
    return rule


aten("_operator.mul", group=Y)(_sym(lambda a, b: a * b, "multiply"))
aten("_operator.add", group=Y)(_sym(lambda a, b: a + b, "add"))
aten("_operator.sub", group=Y)(_sym(lambda a, b: a - b, "subtract"))
aten("_operator.floordiv", group=Y)(_sym(lambda a, b: a // b, "divide"))
aten("_operator.mod", group=Y)(_sym(lambda a, b: a % b, "remainder"))
aten("torch.sym_min", group=Y)(_sym(min, "minimum"))  # torchvision's detection heads: top-k
aten("torch.sym_max", group=Y)(_sym(max, "maximum"))  # of min(k, the run-time count)


def _sym_compare(fold, direction):
    def rule(e, n):
        """A comparison of sizes (what export's own shape assertions test): a bool, or a
        scalar i1 value."""
        a, b = n.arg("a"), n.arg("b")
        if isinstance(a, int) and isinstance(b, int):
            return fold(a, b)
        return e.compare(e.scalar(a, "i32"), e.scalar(b, "i32"), direction)
    return rule


for _name, _fold, _dir in [("ge", lambda a, b: a >= b, "GE"), ("gt", lambda a, b: a > b, "GT"),
                           ("le", lambda a, b: a <= b, "LE"), ("lt", lambda a, b: a < b, "LT"),
                           ("eq", lambda a, b: a == b, "EQ"), ("ne", lambda a, b: a != b, "NE")]:
    aten(f"_operator.{_name}", group=Y)(_sym_compare(_fold, _dir))


@aten("torch.sym_not", group=Y)
def sym_not(e, n):
    a = n.arg("a") if "a" in n.inputs else n.positional(0)
    return (not a) if isinstance(a, bool) else e.v("not", [e.convert(a, "i1")])


# ---------------------------------------------------------------- no-ops

@aten("_assert_tensor_metadata.default", "sym_constrain_range.default",
      "sym_constrain_range_for_size.default", "_assert_async.msg", group="no-ops")
def nothing(e, n):
    """Checks PyTorch made at export; the shape checks at the inputs stand for them."""
    return []


@aten("_assert_scalar.default", group=Y)
def assert_scalar(e, n):
    """A condition on sizes the program asserts (torch._check, export's runtime asserts):
    checked on every call when it depends on a run-time size."""
    cond, msg = n.arg("self"), n.arg("assert_msg", "") or ""
    if isinstance(cond, Value):
        text = msg.replace("{", "{{").replace("}", "}}")
        e.assert_that(e.convert(cond, "i1"), [], f"{e.target} failed: {text}")
    elif not cond:
        raise e.error(f"asserts a condition that is false: {msg}")
    return []


@aten("as_strided.default", "as_strided_copy.default", group=S)
def as_strided(e, n):
    """A view reading its input's storage through new sizes and strides. Lowered when the
    input is dense in the strides PyTorch recorded for it and the view reads each of its
    elements once from offset 0: a memory-format change, a reordering of the storage, or
    none (what run_decompositions leaves after a mean over a permuted tensor, as in Swin's
    head) is a transpose, a reshape and a transpose. Any other view is an error."""
    x = n.arg("self")
    sizes, strides = list(n.arg("size")), list(n.arg("stride"))
    name = n.inputs["self"].get("as_tensor", {}).get("name")
    recorded = n.graph["tensor_values"].get(name, {})
    in_strides = [s.get("as_int") for s in recorded.get("strides", [])]
    in_order = _dense_order(list(x.type.shape), in_strides)
    out_order = _dense_order([s if isinstance(s, int) else None for s in sizes], strides)
    if n.arg("storage_offset", None) not in (None, 0) or in_order is None \
            or out_order is None or not _same_count(recorded, n.graph["tensor_values"].get(
                n.outputs[0], {})):
        raise e.error(f"as_strided with sizes {_show(sizes)} and strides {_show(strides)} "
                      "reinterprets its input's storage: only a view reading every element "
                      "of a dense input once, from offset 0, is supported")
    storage = e.v("transpose", [x], {"permutation": tuple(in_order)})
    y = e.reshape(storage, [sizes[d] for d in out_order])
    back = tuple(out_order.index(d) for d in range(len(sizes)))
    return e.v("transpose", [y], {"permutation": back})


def _dense_order(sizes: list, strides: list) -> list | None:
    """The dims outermost first in memory (dims of size 1 last: their stride is never
    used) if sizes and strides lay out a dense block, else None. A `?` size (None) may only
    be the outermost dim's."""
    if len(strides) != len(sizes):
        return None
    ones = [d for d, s in enumerate(sizes) if s == 1]
    rest = [d for d in range(len(sizes)) if d not in ones]
    if any(not isinstance(strides[d], int) for d in rest):
        return None
    rest.sort(key=lambda d: -strides[d])
    expected = 1
    for i, d in enumerate(reversed(rest)):
        if strides[d] != expected or (sizes[d] is None and i != len(rest) - 1):
            return None
        expected *= sizes[d] or 1
    return rest + ones


def _same_count(a: dict, b: dict) -> bool:
    """Whether two recorded tensors hold as many elements: equal products of their static
    sizes and the same symbolic sizes."""
    def count(meta):
        static, symbols = 1, []
        for s in meta.get("sizes", []):
            if "as_int" in s:
                static *= s["as_int"]
            else:
                symbols.append(s.get("as_expr", {}).get("expr_str", "?"))
        return static, sorted(symbols)
    return bool(a) and bool(b) and count(a) == count(b)


def _show(sizes: list) -> str:
    return "[" + ", ".join(str(s) if isinstance(s, int) else "?" for s in sizes) + "]"
