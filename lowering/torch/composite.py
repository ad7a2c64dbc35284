"""ATen's composite ops, as `torch.export.export` leaves them before `run_decompositions()`
(linear, conv2d, batch_norm, layer_norm, dropout, flatten, scaled_dot_product_attention),
lowered to the same mhlo as their decompositions: a program whose ops all have rules is
lowered as exported (aot/import_torch.py), because `run_decompositions` retraces the whole
program (55 s of ViT-B/16's compile at load here, with an empty decomposition table too).
In-place variants (`relu_`, `add_`) take their functional rule where that is safe
(lower.py, `inplace_rule`)."""
from __future__ import annotations

import math

import numpy as np

from lowering.torch import math_ops, nn_ops
from lowering.torch.emitter import TorchEmitter
from lowering.torch.table import aten

_MISSING = object()


class WithDefaults:
    """A node read with its schema's defaults for the arguments the program left out (the
    serialized graph omits arguments left at their defaults)."""

    def __init__(self, n, **defaults):
        self.n, self.defaults = n, defaults

    def arg(self, name: str, default=_MISSING):
        if name not in self.n.inputs and name in self.defaults:
            return self.defaults[name]
        return self.n.arg(name) if default is _MISSING else self.n.arg(name, default)

    def __getattr__(self, name):
        return getattr(self.n, name)


@aten("conv1d.default", "conv2d.default", "conv3d.default", group=nn_ops.W)
def conv(e, n):
    """convolution.default with conv2d's defaults (not transposed)."""
    return nn_ops.convolution(e, WithDefaults(n, stride=1, padding=0, dilation=1, groups=1,
                                              transposed=False, output_padding=0))


@aten("linear.default", group=nn_ops.W)
def linear(e, n):
    """x @ weight^T + bias, as its decomposition computes it: the leading dims flattened to
    rows of one matrix product (addmm), then restored."""
    x, w, bias = n.arg("input"), n.arg("weight"), n.arg("bias", None)
    dims = e.dims(x)
    rows = x if x.type.rank == 2 else e.reshape(x, [e.product(dims[:-1]), dims[-1]])
    y = nn_ops.dot(e, rows, e.v("transpose", [w], {"permutation": (1, 0)}), 0)
    if bias is not None:
        y = e.binary("add", y, bias)
    return y if x.type.rank == 2 else e.reshape(y, dims[:-1] + [e.dims(y)[-1]])


@aten("batch_norm.default", group=math_ops.N)
def batch_norm(e, n):
    if n.arg("training", False):
        raise e.error("batch norm in training mode is not supported: export the model in eval "
                      "mode (model.eval())")
    return math_ops.batch_norm(e, n)[0]


@aten("layer_norm.default", group=math_ops.N)
def layer_norm(e, n):
    return math_ops.layer_norm(e, WithDefaults(n, eps=1e-5))[0]


@aten("dropout.default", "dropout_.default", "feature_dropout.default",
      "alpha_dropout.default", group=math_ops.A)
def dropout(e, n):
    """The identity in eval mode (train=False, which export records): `dropout_` changes
    nothing then, so it needs no in-place check."""
    if n.arg("train", False) and n.arg("p", 0.0):
        raise e.error("dropout in training mode is not supported: export the model in eval "
                      "mode (model.eval())")
    return n.arg("input") if "input" in n.inputs else n.arg("self")


@aten("softmax.int", "log_softmax.int", group=math_ops.A)
def softmax(e, n):
    """_softmax's, in `dtype` if given."""
    x = e.convert(n.arg("self"), n.out_elem())
    return math_ops.softmax_of(e, x, e.axis(n.arg("dim"), x.type.rank), "log" in e.target)


@aten("flatten.using_ints", group="shapes and data movement")
def flatten(e, n):
    x = n.arg("self")
    r = x.type.rank
    if r == 0:
        return e.reshape(x, [1])
    lo, hi = e.axis(n.arg("start_dim", 0), r), e.axis(n.arg("end_dim", -1), r)
    dims = e.dims(x)
    return e.reshape(x, dims[:lo] + [e.product(dims[lo:hi + 1])] + dims[hi + 1:])


@aten("unflatten.int", group="shapes and data movement")
def unflatten(e, n):
    x = n.arg("self")
    d = e.axis(n.arg("dim"), x.type.rank)
    dims = e.dims(x)
    sizes = list(n.arg("sizes"))
    if sizes.count(-1):
        known = e.product([s for s in sizes if not (isinstance(s, int) and s == -1)])
        whole = dims[d]
        hole = whole // known if isinstance(whole, int) and isinstance(known, int) else \
            e.v("divide", [e.scalar(whole, "i32"), e.scalar(known, "i32")])
        sizes = [hole if isinstance(s, int) and s == -1 else s for s in sizes]
    return e.reshape(x, dims[:d] + sizes + dims[d + 1:])


@aten("scaled_dot_product_attention.default", group=nn_ops.W)
def attention(e: TorchEmitter, n):
    """softmax(q k^T * scale + mask) v over [..., L, E] x [..., S, E] x [..., S, Ev], as
    its math decomposition: the leading dims flattened to one batch dim of two matrix
    products. A boolean mask (or is_causal) keeps the positions where it is true, and a row
    with no position kept gives zeros, as PyTorch's safe softmax does."""
    q, k, v = n.arg("query"), n.arg("key"), n.arg("value")
    mask = n.arg("attn_mask", None)
    if n.arg("dropout_p", 0.0):
        raise e.error("attention dropout (dropout_p > 0) is not supported: export in eval mode")
    if n.arg("enable_gqa", False) and q.type.shape[-3] != k.type.shape[-3]:
        raise e.error("grouped-query attention (enable_gqa with fewer key heads) is not "
                      "supported yet")
    el = q.type.elem
    qd, kd, vd = e.dims(q), e.dims(k), e.dims(v)
    size = q.type.shape[-1]
    if size is None:
        raise e.error("attention needs a static head size")
    scale = n.arg("scale", None)
    scale = 1 / math.sqrt(size) if scale is None else scale
    lead = qd[:-2]
    batch = e.product(lead) if lead else 1
    q3 = e.reshape(e.binary("multiply", q, e.scalar(scale, el)), [batch] + qd[-2:])
    kt = e.v("transpose", [e.reshape(k, [batch] + kd[-2:])], {"permutation": (0, 2, 1)})
    s = nn_ops.dot(e, q3, kt, 1)  # [batch, L, S]
    keep = None
    if n.arg("is_causal", False):
        rows = e.iota(e.dims(s), 1, "i32")
        cols = e.iota(e.dims(s), 2, "i32")
        keep = e.compare(rows, cols, "GE")
    if mask is not None:
        mask = e.reshape(e.broadcast_to(mask, lead + [qd[-2], kd[-2]]), e.dims(s))
        if mask.type.elem == "i1":
            keep = mask if keep is None else e.v("and", [keep, mask])
        else:
            s = e.v("add", [s, e.convert(mask, el)])
    if keep is not None:
        s = e.select(keep, s, e.scalar(-np.inf, el))
    p = math_ops.softmax_of(e, s, 2, log=False)
    if keep is not None:  # rows with no position kept: zeros, not NaN
        m = e.spread(e.reduce(s, [2], "maximum", -np.inf), s, [2])
        p = e.select(e.compare(m, e.scalar(-np.inf, el), "EQ"), e.scalar(0, el), p)
    out = nn_ops.dot(e, p, e.reshape(v, [batch] + vd[-2:]), 1)
    return e.reshape(out, lead + [qd[-2], vd[-1]])
