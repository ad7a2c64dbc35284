"""Export the PyTorch corpus: small models written here (torchvision does not import beside the
CPU torch, see docs/pytorch.md), each saved with `torch.export.save` after
`run_decompositions()` (core ATen ops) as NAME.pt2, with inputs and PyTorch's eager outputs
as NAME.npz. The default tests compile the .pt2 files without torch installed.

PyTorch is NOT a dependency of the compiler: only this script (and `make test-torch`) imports
it. Run with torch installed (`pip install '.[torch]'`):

    .venv/bin/python tests/data/torch/export.py            # all cases
    .venv/bin/python tests/data/torch/export.py NAME ...   # some cases

NAME.npz holds, per size set k, sK_argI (the user inputs) and sK_outJ (eager outputs). Inputs
come from numpy.random.default_rng(crc32("NAME/sK")); weights from torch.manual_seed(crc32).
"""
import os
import sys
import zlib

import numpy as np
import torch.nn.functional as F

import torch
from torch import nn
from torch.export import Dim

OUT = os.path.dirname(os.path.abspath(__file__))


class MLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1, self.fc2, self.fc3 = nn.Linear(16, 32), nn.Linear(32, 32), nn.Linear(32, 10)
        self.norm = nn.LayerNorm(32)

    def forward(self, x):
        h = F.gelu(self.fc1(x))
        h = self.norm(F.silu(self.fc2(h)) + h)
        return torch.softmax(self.fc3(torch.relu(h)), dim=-1)


class CNN(nn.Module):
    """conv + frozen batch norm + relu, max and avg pools, adaptive pool, flatten, linear."""

    def __init__(self):
        super().__init__()
        self.c1, self.b1 = nn.Conv2d(3, 8, 3, padding=1), nn.BatchNorm2d(8)
        self.c2, self.b2 = nn.Conv2d(8, 16, 3, stride=2, padding=1, bias=False), nn.BatchNorm2d(16)
        self.c3 = nn.Conv2d(16, 16, 1, groups=4)
        self.fc = nn.Linear(32, 5)

    def forward(self, x):
        h = F.max_pool2d(torch.relu(self.b1(self.c1(x))), 2)
        h = torch.relu(self.b2(self.c2(h)))
        h = F.avg_pool2d(self.c3(h), 2, stride=1, padding=1) + h[:, :, :1, :1].mean()
        a = torch.flatten(F.adaptive_avg_pool2d(h, 1), 1)
        m = torch.amax(h, dim=(2, 3))
        return self.fc(torch.cat([a, m], dim=1))


class Attention(nn.Module):
    def __init__(self, d, heads):
        super().__init__()
        self.heads, self.qkv, self.proj = heads, nn.Linear(d, 3 * d), nn.Linear(d, d)

    def forward(self, x):
        b, t, d = x.shape
        q, k, v = self.qkv(x).split(d, dim=2)
        q, k, v = (z.view(b, t, self.heads, d // self.heads).transpose(1, 2) for z in (q, k, v))
        y = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        return self.proj(y.transpose(1, 2).reshape(b, t, d))


class GPT(nn.Module):
    """A one-block GPT: embeddings, causal attention, an MLP, tied-free head."""

    def __init__(self, vocab=50, d=32, heads=4, max_len=64):
        super().__init__()
        self.tok, self.pos = nn.Embedding(vocab, d), nn.Embedding(max_len, d)
        self.ln1, self.ln2, self.lnf = nn.LayerNorm(d), nn.LayerNorm(d), nn.LayerNorm(d)
        self.attn = Attention(d, heads)
        self.mlp = nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(approximate="tanh"), nn.Linear(4 * d, d))
        self.head = nn.Linear(d, vocab, bias=False)

    def forward(self, ids):
        pos = torch.arange(ids.shape[1], device=ids.device)
        x = self.tok(ids) + self.pos(pos)[None]
        x = x + self.attn(self.ln1(x))
        x = x + self.mlp(self.ln2(x))
        return self.head(self.lnf(x))


class Encoder(nn.Module):
    """BERT-like: a padding mask from the ids, masked attention written out with matmul,
    where, and a pooled first token."""

    def __init__(self, vocab=40, d=16):
        super().__init__()
        self.emb = nn.Embedding(vocab, d)
        self.q, self.k, self.v = nn.Linear(d, d), nn.Linear(d, d), nn.Linear(d, d)
        self.ln = nn.LayerNorm(d)
        self.pool = nn.Linear(d, d)

    def forward(self, ids):
        x = self.emb(ids)
        mask = (ids != 0)[:, None, :]  # [b, 1, t]
        s = torch.matmul(self.q(x), self.k(x).transpose(-1, -2)) / 4.0
        s = torch.where(mask, s, torch.full_like(s, -1e9))
        x = self.ln(x + torch.softmax(s, -1) @ self.v(x))
        return torch.tanh(self.pool(x[:, 0])), x.sum(dim=1)


class Misc(nn.Module):
    """Data movement and elementwise odds: expand, slice with step, index_select, gather
    by an index tensor, clamp, pow, rsqrt, comparisons, cumsum-free reductions."""

    def forward(self, x, idx):
        y = x.permute(0, 2, 1).contiguous()[:, ::2, 1:]  # [b, 3, 4]
        z = torch.index_select(x, 2, idx)  # [b, 5, 2]
        w = x[:, idx]  # [b, 2, 6]
        e = x[:, :1, :].expand(-1, 5, 6)
        s = torch.clamp(x, -0.5, 0.5) ** 2 + torch.rsqrt(x.abs() + 1) - torch.exp(-x) * torch.sigmoid(x)
        m = (x > 0).float() * x.max(dim=1, keepdim=True).values - x.min() + x.var(dim=2, keepdim=True)
        return y.sum(-1), z, w, e + s + m, torch.argmax(x, dim=2)


class Ops(nn.Module):
    """The rest of the rule table's common ops: activations, group norm, pools with
    ceil_mode and padding not counted, adaptive pooling, conv1d, cumsum, gather, flip,
    repeat, pad, rounding divisions, log_softmax, prod, any/all, argmin."""

    def __init__(self):
        super().__init__()
        self.gn = nn.GroupNorm(2, 4)
        self.conv = nn.Conv1d(4, 4, 3, padding=2, dilation=2, groups=2)

    def forward(self, x, ix):  # x [b, 4, 6, 6], ix [b, 4] int64 in [0, 6)
        a = F.elu(x) + F.hardswish(x) + F.leaky_relu(x, 0.2) + F.hardsigmoid(x) + torch.trunc(x * 3)
        g = self.gn(a)
        p = F.max_pool2d(g, 3, stride=2, ceil_mode=True) + F.avg_pool2d(
            g, 3, stride=3, padding=1, ceil_mode=True, count_include_pad=False)  # [b, 4, 3, 3]
        q = F.adaptive_avg_pool2d(g, 2).flatten(2)  # [b, 4, 4]
        r = self.conv(g.mean(dim=3))  # [b, 4, 6]
        c = torch.cumsum(r, dim=2) + torch.gather(r, 2, ix[:, :, None].expand(-1, -1, 2))[..., :1]
        f = torch.flip(c, [2]).repeat(1, 2, 1)  # [b, 8, 6]
        z = F.pad(f, (1, 2), value=0.5)  # [b, 8, 9]
        d = torch.div(z, 0.3, rounding_mode="floor") + torch.div(z, -0.7, rounding_mode="trunc")
        n = torch.div(ix, 4, rounding_mode="floor") + torch.remainder(ix - 3, 4)
        s = F.log_softmax(d, dim=1).prod(dim=2) + z.amin(dim=2)
        flags = ((x > 1).any(dim=3) & (x > -3).all(dim=3)).float().sum(-1)  # [b, 4]
        return p.flatten(1), q, s, n, torch.argmin(z, dim=2), torch.min(z, dim=1).values, flags


class CondNonzero(nn.Module):
    """Data-dependent control flow written with torch.cond, and the data-dependent sizes of
    nonzero, unique (sorted, with inverse indices and counts) and unique_consecutive."""

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 4)

    def forward(self, x):
        def positive(x):
            return torch.relu(self.fc(x)) * 2

        def negative(x):
            return self.fc(x).tanh() - 1

        y = torch.cond(x.sum() > 0, positive, negative, (x,))
        values, inverse, counts = torch.unique((x * 2).round(), return_inverse=True,
                                               return_counts=True)
        runs, run_of, run_len = torch.unique_consecutive((x * 1.5).round().flatten().sort()[0][:-1:2],
                                                         return_inverse=True, return_counts=True)
        return y, torch.nonzero(x > 0.5), values, inverse, counts, runs, run_of, run_len


class Unknown(nn.Module):
    """An op the compiler has no rule for (the error test)."""

    def forward(self, x):
        return torch.special.bessel_j0(x) + 1


class RNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.lstm, self.gru = nn.LSTM(4, 8, batch_first=True), nn.GRU(8, 6, batch_first=True)

    def forward(self, x):
        h, _ = self.lstm(x)
        y, _ = self.gru(h)
        return y


# Small versions of torchvision's models (its wheels do not import beside the CPU torch): their
# characteristic blocks at a small width and image size; make test-torch and the benchmark use
# them (they are not saved: the saved corpus keeps to what `make test` can afford).

class BasicBlock(nn.Module):
    """ResNet-18's block: two 3x3 convs with batch norm, a strided 1x1 shortcut."""

    def __init__(self, cin, cout, stride):
        super().__init__()
        self.c1, self.b1 = nn.Conv2d(cin, cout, 3, stride, 1, bias=False), nn.BatchNorm2d(cout)
        self.c2, self.b2 = nn.Conv2d(cout, cout, 3, 1, 1, bias=False), nn.BatchNorm2d(cout)
        self.short = (nn.Sequential(nn.Conv2d(cin, cout, 1, stride, bias=False), nn.BatchNorm2d(cout))
                      if stride != 1 or cin != cout else nn.Identity())

    def forward(self, x):
        return torch.relu(self.b2(self.c2(torch.relu(self.b1(self.c1(x))))) + self.short(x))


class TinyResNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(3, 8, 7, 2, 3, bias=False), nn.BatchNorm2d(8), nn.ReLU(),
                                  nn.MaxPool2d(3, 2, 1))
        self.layers = nn.Sequential(BasicBlock(8, 8, 1), BasicBlock(8, 16, 2), BasicBlock(16, 32, 2))
        self.fc = nn.Linear(32, 10)

    def forward(self, x):
        return self.fc(torch.flatten(nn.functional.adaptive_avg_pool2d(self.layers(self.stem(x)), 1), 1))


class InvertedResidual(nn.Module):
    """MobileNetV3's block: expand 1x1, depthwise 3x3, squeeze-excite (hardsigmoid),
    hardswish, project 1x1, residual."""

    def __init__(self, c, e):
        super().__init__()
        self.expand = nn.Sequential(nn.Conv2d(c, e, 1, bias=False), nn.BatchNorm2d(e), nn.Hardswish())
        self.dw = nn.Sequential(nn.Conv2d(e, e, 3, 1, 1, groups=e, bias=False), nn.BatchNorm2d(e),
                                nn.Hardswish())
        self.se = nn.Sequential(nn.AdaptiveAvgPool2d(1), nn.Conv2d(e, 8, 1), nn.ReLU(),
                                nn.Conv2d(8, e, 1), nn.Hardsigmoid())
        self.project = nn.Sequential(nn.Conv2d(e, c, 1, bias=False), nn.BatchNorm2d(c))

    def forward(self, x):
        h = self.dw(self.expand(x))
        return x + self.project(h * self.se(h))


class TinyMobileNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(3, 16, 3, 2, 1, bias=False), nn.BatchNorm2d(16), nn.Hardswish())
        self.blocks = nn.Sequential(InvertedResidual(16, 32), InvertedResidual(16, 48))
        self.head = nn.Sequential(nn.Linear(16, 32), nn.Hardswish(), nn.Dropout(0.2), nn.Linear(32, 10))

    def forward(self, x):
        return self.head(self.blocks(self.stem(x)).mean(dim=(2, 3)))


class TinyViT(nn.Module):
    """ViT-B/16's shape at a small size: a patch-embedding conv, a class token, learned
    positions, nn.TransformerEncoder layers (nn.MultiheadAttention), the class token's head."""

    def __init__(self, d=32, patch=4, image=16):
        super().__init__()
        self.embed = nn.Conv2d(3, d, patch, patch)
        self.cls = nn.Parameter(torch.randn(1, 1, d) * 0.02)
        self.pos = nn.Parameter(torch.randn(1, (image // patch) ** 2 + 1, d) * 0.02)
        layer = nn.TransformerEncoderLayer(d, 4, 64, dropout=0.0, activation="gelu",
                                           batch_first=True, norm_first=True)
        self.encoder = nn.TransformerEncoder(layer, 2, enable_nested_tensor=False)
        self.norm, self.head = nn.LayerNorm(d), nn.Linear(d, 10)

    def forward(self, x):
        p = self.embed(x).flatten(2).transpose(1, 2)
        h = torch.cat([self.cls.expand(p.shape[0], -1, -1), p], dim=1) + self.pos
        return self.head(self.norm(self.encoder(h))[:, 0])


# torchvision's models (make test-torchvision, the benchmark; not saved: 10-340 MB of weights):
# name -> (constructor, keywords, image size). num_classes 10 keeps the heads small; ViT-B/16
# (12 layers, 768 features) at 32x32 sees 4 patches and a class token.
TORCHVISION = {
    "resnet18": ("resnet18", {}, 64),
    "mobilenet_v3_small": ("mobilenet_v3_small", {}, 64),
    "efficientnet_b0": ("efficientnet_b0", {}, 64),
    "vit_b_16": ("vit_b_16", {"image_size": 32}, 32),
    "densenet121": ("densenet121", {}, 64),  # concatenations of up to 25 operands
}


def randomize(model: nn.Module, size: int, spread: float = 0.1, shape=None) -> nn.Module:
    """Noise on the weights a constructor starts constant (zero biases, ViT's head...), then
    batch norm statistics measured on random inputs (train mode, a cumulative average; size
    x size images, or of `shape`): with the statistics left at their initial 0 and 1,
    MobileNetV3's signal fades through its blocks and its logits do not depend on the image.
    In eval mode after."""
    with torch.no_grad():
        for p in model.parameters():
            if p.numel() == 1 or float(p.std()) == 0.0:
                p.add_(torch.empty_like(p).uniform_(-spread, spread))
        norms = [m for m in model.modules() if isinstance(m, (nn.BatchNorm2d, nn.BatchNorm3d))]
        for m in norms:
            m.reset_running_stats()
            m.momentum = None
        if norms:
            model.train()
            for _ in range(2):
                model(torch.randn(8, *(shape or (3, size, size))))
    return model.eval()


def torchvision_model(name: str, seed: int = 29) -> nn.Module:
    """TORCHVISION's model `name` in eval mode, random weights (no downloads)."""
    import torchvision
    constructor, kwargs, size = TORCHVISION[name]
    torch.manual_seed(seed)
    model = getattr(torchvision.models, constructor)(weights=None, num_classes=10, **kwargs)
    return randomize(model, size)


class Composite(nn.Module):
    """The composite ops torch.export leaves before run_decompositions, saved as exported
    (AS_EXPORTED): conv2d, batch_norm, in-place relu_ and add_ (a residual), flatten,
    dropout, layer_norm, linear, unflatten, scaled_dot_product_attention with a boolean
    mask, a float mask and is_causal."""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 8, 3, 1, 1, bias=False)
        self.bn = nn.BatchNorm2d(8)
        self.conv2 = nn.Conv2d(8, 8, 3, 1, 1)
        self.relu = nn.ReLU(inplace=True)
        self.drop = nn.Dropout(0.3, inplace=True)
        self.norm = nn.LayerNorm(16)
        self.qkv = nn.Linear(16, 48)
        self.register_buffer("keep", torch.ones(8, 8, dtype=torch.bool).tril().flip(1))
        self.register_buffer("bias", torch.arange(64.0).view(8, 8) / 32 - 1)

    def forward(self, x):
        h = self.relu(self.bn(self.conv(x)))
        out = self.conv2(h)
        out += h
        t = self.norm(self.drop(torch.flatten(self.relu(out), 2)))  # [b, 8, 16]
        qkv = self.qkv(t).unflatten(-1, (3, 2, 8)).permute(2, 0, 3, 1, 4)  # [3, b, 2, 8, 8]
        q, k, v = qkv[0], qkv[1], qkv[2]
        a = F.scaled_dot_product_attention(q, k, v, attn_mask=self.keep)
        b = F.scaled_dot_product_attention(q, k, v, attn_mask=self.bias)
        c = F.scaled_dot_product_attention(q, k, v, is_causal=True, scale=0.3)
        return a + b + c


class Masks(nn.Module):
    """The mask-building ops transformers' GPT-2 leaves as exported (AS_EXPORTED): `&` of
    boolean masks (aten.__and__; `|` and `^` too), new_ones/new_zeros/new_full, diff (with
    prepend/append, n=2, booleans by xor) and to.dtype_layout."""

    def forward(self, x, ids):  # x [b, t] f32, ids [b, t] i64
        pad = ids > 2
        t = torch.arange(ids.shape[1])
        causal = t[:, None] >= t[None, :]
        keep = (pad[:, None, :] & causal) & ids.new_ones((), dtype=torch.bool)
        none = ids.new_full((), False, dtype=torch.bool)
        keep = (keep | ids.new_zeros((1, 1), dtype=torch.bool)) ^ none
        steps = torch.diff(ids, n=2, dim=-1, prepend=ids[:, :2] * 0)
        flips = torch.diff(pad, dim=1, append=pad[:, -1:])
        wide = torch.ops.aten.to.dtype_layout(x, dtype=torch.float64, layout=torch.strided,
                                              device=torch.device("cpu"))
        return torch.where(keep, x[:, None, :], 0.0).sum(-1), steps, flips, wide * 2


class Common(nn.Module):
    """Ops common models call that torch.export leaves as they are (AS_EXPORTED, so each has
    a rule and no run_decompositions retrace): a causal mask by tril and masked_fill, triu
    and tril with diagonals, chunk, stack and unbind, torch.maximum/minimum, cumprod, erfc,
    exp2, log2, relu6, softplus, expand_as/type_as/view_as, `to(device=, dtype=)`, F.interpolate nearest and
    bilinear (align_corners off and on), and x[mask] (a data-dependent count of rows)."""

    def forward(self, x, img):  # x [b, t, 8], img [b, 3, 5, 6]
        t = x.shape[1]
        scores = x @ x.transpose(1, 2)
        causal = torch.tril(torch.ones(t, t, dtype=torch.bool))
        att = scores.masked_fill(~causal, float("-inf")).softmax(-1) @ x
        band = torch.triu(scores, diagonal=-1) - torch.tril(scores, 2)
        lo, hi = x.chunk(2, dim=-1)
        first, second = torch.stack([torch.maximum(lo, hi), torch.minimum(lo, hi)], 1).unbind(1)
        fill = lo.masked_fill(hi > 0.5, torch.tensor(0.25))
        sums = (torch.special.erfc(lo) + torch.exp2(hi) + torch.log2(lo.abs() + 1)
                + F.relu6(hi * 4) + F.softplus(lo, beta=2.0, threshold=1.0))
        prod = torch.cumprod(0.5 + x.to(x.device, torch.float64).sigmoid(), 1).float().view_as(x)
        near = F.interpolate(img, scale_factor=2, mode="nearest")
        smooth = F.interpolate(img, size=(7, 9), mode="bilinear", align_corners=False)
        corners = F.interpolate(img, scale_factor=2, mode="bilinear", align_corners=True)
        picked = x[x[..., 0] > 0] * 2  # a boolean mask over [b, t]: [count, 8]
        return (att, band, first - second, fill.expand_as(lo) + sums.type_as(lo), prod,
                near, smooth, corners, picked)


class PreNormAttention(nn.Module):
    """A pre-norm attention block, ViT's: LayerNorm, nn.MultiheadAttention (self-attention,
    batch first) and the residual, over a dynamic batch (its dynamic library once gave wrong
    values when cse read the layer norm's sizes through its reduce)."""

    def __init__(self):
        super().__init__()
        self.norm = nn.LayerNorm(32)
        self.attn = nn.MultiheadAttention(32, 4, batch_first=True)

    def forward(self, x):
        y = self.norm(x)
        return self.attn(y, y, y, need_weights=False)[0] + x


class InPlaceHazard(nn.Module):
    """relu_ on a tensor a view was taken of before: the view, read after it, sees the
    change, which the functional form would not make."""

    def forward(self, x):
        y = x * 2
        v = y.view(2, 2)
        y.relu_()
        return v + 1


class Sorting(nn.Module):
    """Sorts and what is built on them, saved as exported (AS_EXPORTED): sort (ascending,
    descending and stable, along the fixed and the dynamic dim, NaN placed as PyTorch
    places it), argsort, topk (largest and smallest), kthvalue, median (a dim, and all
    elements), cummax/cummin, bucketize and searchsorted."""

    def forward(self, x):  # x [b, 6]
        xn = torch.where(x > 1.2, float("nan"), x)
        v, i = torch.sort(xn, dim=-1)
        vd, idd = torch.sort(x, dim=0, descending=True, stable=True)
        a = torch.argsort(xn, dim=1, descending=True)
        tv, ti = torch.topk(xn, 3)
        sv, si = torch.topk(x, 1, dim=0, largest=False)
        kv, ki = torch.kthvalue(x, 2, dim=1, keepdim=True)
        mv, mi = torch.median(x, dim=1)
        cmv, cmi = torch.cummax(x, dim=1)
        cnv, cni = torch.cummin(x, dim=0)
        bounds = torch.tensor([-1.0, 0.0, 0.5, 1.0])
        bk = torch.bucketize(x, bounds) + torch.bucketize(x.round(), bounds, right=True) * 10
        ss = torch.searchsorted(bounds, x, side="right")
        return (v, i, vd, idd, a, tv, ti, sv, si, kv, ki, mv, mi, x.median(), cmv, cmi, cnv,
                cni, bk, ss)


class Scatter(nn.Module):
    """Writes at indices, saved as exported (scatter_writes) and decomposed (scatter_core,
    where index_add, index_copy and index_fill become index_put): scatter of a tensor and of
    a value, scatter_add (repeated indices, and along the dynamic dim), scatter_reduce (amax
    and prod without self, mean), index_put (one index tensor, accumulating repeats; two
    broadcast index tensors; a boolean mask), masked_scatter, index_add with alpha,
    index_copy, index_fill, index_reduce."""

    def forward(self, x, ix):  # x [b, 6] f32, ix [b, 3] i64 in 0..5
        u = torch.argsort(x, dim=1)[:, :3]  # distinct in each row: replacing writes
        s1 = torch.zeros_like(x).scatter(1, u, x[:, :3] * 2)
        s2 = x.scatter(1, u, -1.0)
        s3 = x.scatter_add(1, ix, x[:, 3:])
        s4 = x.scatter_reduce(1, ix, x[:, :3], "amax", include_self=False)
        s5 = x.scatter_reduce(1, ix, x[:, :3], "mean")
        s6 = x.scatter_reduce(1, ix, x[:, 3:], "prod", include_self=False)
        s7 = torch.zeros_like(x).scatter_add(0, ix % x.shape[0], x[:, :3])
        xt = x.t()
        p1 = xt.index_put((torch.tensor([4, 1, -1]),), torch.ones(3, 1)).t()
        p2 = xt.index_put((torch.tensor([1, 1, 3]),), xt[:3], accumulate=True).t()
        rows = torch.arange(x.shape[0])[:, None]
        p3 = x.index_put((rows, u), x[:, :3] * 3)
        p4 = x.index_put((x > 0.5,), torch.tensor(0.25))
        p5 = x.masked_scatter(x < 0, x.flip(1) * 10)
        p6 = torch.index_add(x, 1, torch.tensor([0, 2, 2, 5]), x[:, :4], alpha=0.5)
        p7 = x.index_copy(1, torch.tensor([3, 0]), x[:, 4:])
        p8 = x.index_fill(1, torch.tensor([1, 4]), -2.0)
        p9 = x.index_reduce(1, torch.tensor([0, 0, 5]), x[:, :3], "amax")
        return s1, s2, s3, s4, s5, s6, s7, p1, p2, p3, p4, p5, p6, p7, p8, p9


class Setitem(nn.Module):
    """Python's item assignment (in place, so saved decomposed: copy, index_put and
    where): a column set to a number and to a slice of another tensor, a boolean mask set,
    and `+=` at a list of columns."""

    def forward(self, x):  # x [b, 6]
        y = x.clone()
        y[:, 0] = 5.0
        y[:, 2:4] = x[:, :2] * 2
        y[x > 1] = 0.0
        y[:, torch.tensor([1, 5])] += 1
        return y


class MoreOps(nn.Module):
    """Reads beyond one gather, elementwise odds and norms, saved as exported (more_ops) and
    decomposed (more_ops_core): embedding_bag (sum with per-sample weights, mean over 2-D
    input with a padding index, max), masked_select, repeat_interleave (an int, and a
    tensor of counts: a data-dependent length), roll (along dims, and flat), unfold,
    diagonal, triu_indices, log10, hypot, copysign, signbit, isinf, isfinite, shifts,
    vector norms (p 3, 2), dist, cdist, logsumexp, instance norm, adaptive max and average
    pools to sizes that do not divide the input's, logcumsumexp, histc, grid_sample
    (bilinear with zeros, nearest with border padding; points outside the image too)."""

    def __init__(self):
        super().__init__()
        self.bag_sum = nn.EmbeddingBag(10, 5, mode="sum")
        self.bag_mean = nn.EmbeddingBag(10, 5, mode="mean", padding_idx=0)
        self.bag_max = nn.EmbeddingBag(10, 5, mode="max")
        self.w3, self.b3 = nn.Parameter(torch.randn(3)), nn.Parameter(torch.randn(3))

    def forward(self, x, img, ids):  # x [b, 6], img [b, 3, 4, 5], ids [b, 4] in 0..9
        flat = ids.flatten()
        offsets = torch.arange(x.shape[0]) * 4
        bags = (self.bag_sum(flat, offsets, per_sample_weights=x[:, :4].flatten())
                + self.bag_mean(ids) + self.bag_max(flat, offsets))
        picked = torch.masked_select(x, x > 0)
        rep = x.repeat_interleave(2, dim=1)
        counted = torch.repeat_interleave(x, torch.tensor([1, 0, 2, 1, 1, 3]), dim=1)
        rolled = torch.roll(x, 2, 1) + torch.roll(x, (1, -1), (0, 1)) + torch.roll(x, 3)
        windows = x.unfold(1, 3, 2)
        diag = torch.diagonal(img, offset=1, dim1=2, dim2=3)
        upper = x[:, torch.triu_indices(6, 6, 1)[1]]
        odd = (torch.log10(x.abs() + 1) + torch.hypot(x, x * 0.5) + torch.copysign(x, -x)
               + torch.signbit(x).float() + torch.isinf(x / (x > 0).float()).float()
               + torch.isfinite(x / (x > 0).float()).float())
        shifted = (ids << 2) + (ids >> 1)
        norms = torch.linalg.vector_norm(x, 3, dim=1) + x.norm(dim=1) + torch.dist(x, x * 2)
        dists = torch.cdist(img[:, 0], img[:, 1])
        lse = torch.logsumexp(x, 1)
        inst = F.instance_norm(img, weight=self.w3, bias=self.b3)
        pools = F.adaptive_max_pool2d(img, (3, 2)) + F.adaptive_avg_pool2d(img, (3, 2))
        scan = torch.logcumsumexp(x * 30, 1)
        grid = torch.tanh(img[:, :2].permute(0, 2, 3, 1)) * 1.2  # [b, 4, 5, 2]
        sampled = (F.grid_sample(img, grid, align_corners=False)
                   + F.grid_sample(img, grid, mode="nearest", padding_mode="border", align_corners=True))
        return (bags, picked, rep, counted, rolled, windows, diag, upper, odd, shifted, norms,
                dists, lse, inst, pools, scan, torch.histc(x, 5), torch.histc(x, 4, min=-1, max=1),
                sampled)


class CompositeMore(nn.Module):
    """More ops export leaves as they are (saved as exported, so each has a rule and
    aot.compile needs no retrace): square, sgn, frac, max/min of two tensors, lerp,
    addcmul/addcdiv, nan_to_num, logit, mish, logsigmoid, celu, selu, hardshrink,
    softshrink, prelu (one and per-channel weights), glu, rms_norm, std/var with and
    without correction, narrow, movedim, tile, pixel_shuffle/unshuffle, channel_shuffle,
    outer, one_hot, count_nonzero, aminmax, take_along_dim, F.pad's reflect, replicate and
    circular modes, linspace, eye, argwhere, broadcast_tensors."""

    def __init__(self):
        super().__init__()
        self.prelu1, self.prelu4 = nn.PReLU(), nn.PReLU(4, init=0.1)
        self.rms = nn.RMSNorm(6)

    def forward(self, x, img, ids):  # x [b, 6], img [b, 4, 4, 6], ids [b, 3] in 0..4
        inf = x / (x > 0.3).float()  # +-inf where x <= 0.3 (x never 0): nan_to_num
        a = (x.square() + x.sgn() + x.frac() + torch.max(x, x.flip(1)) + torch.min(x, -x)
             + torch.lerp(x, x * 2, 0.3) + torch.addcmul(x, x, x, value=0.5)
             + torch.addcdiv(x, x, x.abs() + 1) + torch.nan_to_num(inf, posinf=9.0)
             + torch.nan_to_num(torch.log(x)) + torch.logit(x.sigmoid(), eps=1e-3))
        b = (F.mish(x) + F.logsigmoid(x) + F.celu(x, 0.7) + F.selu(x) + F.hardshrink(x, 0.4)
             + F.softshrink(x, 0.3) + self.prelu1(x) + F.glu(torch.cat([x, x], 1))
             + self.rms(x))
        stats = (x.std(1) + x.var(1, unbiased=False) + torch.std(x, 1, correction=0)
                 + torch.std_mean(x, 1)[1])
        moved = img.narrow(3, 1, 4).movedim(1, 3) + self.prelu4(img)[:, :, :, 1:5].movedim(1, -1)
        tiled = x.tile(2, 1)
        shuffled = F.pixel_unshuffle(F.pixel_shuffle(img, 2), 2) + F.channel_shuffle(img, 2)
        hot = F.one_hot(ids, 5).sum(1) + torch.count_nonzero(x > 0, 1)[:, None]
        lo, hi = torch.aminmax(x, dim=1)
        along = (torch.take_along_dim(x[:1], ids[:1], 1) + torch.take_along_dim(x[0], ids[0])
                 + torch.outer(lo, x[0])[:, :3])
        padded = (F.pad(img, (2, 1, 1, 0), mode="reflect") + F.pad(img, (2, 1, 1, 0), mode="replicate")
                  + F.pad(img, (2, 1, 1, 0), mode="circular"))
        grid = torch.linspace(0, 1, 6) + torch.eye(6, 6)[2] + x
        where = torch.argwhere(x > 0.5)
        bx, by = torch.broadcast_tensors(x[:, :1], x)
        return a, b, stats, moved, tiled, shuffled, hot, lo, hi, along, padded, grid, where, bx + by


class WhileGrid(nn.Module):
    """The last of the ops once refused (saved decomposed: its mask writes are in place):
    torch.while_loop (a data-dependent trip count, a closed-over weight and input as its
    additional inputs), grid_sample's bicubic mode (zeros, border and reflection padding)
    and reflection padding for bilinear and nearest (points outside the image too),
    `x[mask] = values` and `+=` with one value per true element, and a batched
    searchsorted (left and right sides)."""

    def __init__(self):
        super().__init__()
        self.w = nn.Parameter(torch.randn(6))

    def forward(self, x, img):  # x [b, 6], img [b, 3, 4, 5]
        grid = torch.tanh(img[:, :2].permute(0, 2, 3, 1)) * 1.6  # [b, 4, 5, 2]
        sampled = (F.grid_sample(img, grid, mode="bicubic", align_corners=False)
                   + F.grid_sample(img, grid, mode="bicubic", padding_mode="border", align_corners=True)
                   + F.grid_sample(img, grid, mode="bicubic", padding_mode="reflection", align_corners=False)
                   + F.grid_sample(img, grid, padding_mode="reflection", align_corners=True)
                   + F.grid_sample(img, grid, mode="nearest", padding_mode="reflection", align_corners=False))
        y = x.clone()
        y[x > 0.5] = x[x > 0.5] * 10
        y[x < -1] += torch.exp(x[x < -1])
        rows = torch.sort(x, dim=1)[0]  # [b, 6], one sorted sequence per row
        found = (torch.searchsorted(rows, x[:, :4] * 0.7)
                 + torch.searchsorted(rows, x.round(), side="right")[:, :4] * 10)

        def more(i, v):
            return (i < 12) & (v.abs().amax() > 0.05)

        def halve(i, v):
            return i + 1, v * 0.5 + self.w * 0.001 - x * 0.002

        steps, small = torch.while_loop(more, halve, (torch.zeros((), dtype=torch.int64), x * 4))
        return sampled, y, found, steps, small


class MaskPut(nn.Module):
    """`y[x > 0] = v` with v another input (a dynamic count the mask must match: checked on
    every call, tests/e2e/test_torch.py; one row is broadcast, as PyTorch does), and `+=`
    of one value at a 2-D mask's true elements in a slice."""

    def forward(self, x, v):  # x [n] with k positive elements, v [k]
        y = x.clone()
        y[x > 0] = v
        z = torch.zeros(3, 4)
        z[:, 1:][x[:3, None].expand(3, 3) > 0] += 1
        return y, z


class Linalg(nn.Module):
    """torch.linalg on a `?` batch of 4x4 matrices: Cholesky (its error check on every call:
    a matrix that is not positive-definite raises, tests/e2e/test_torch.py), triangular and
    Cholesky solves, LU solve (matrix and vector right sides, and x A = B), inverse, det and slogdet
    (signs of both kinds), QR of a tall and a wide block in each mode, eigh and eigvalsh,
    reduced and full SVD, svdvals and pinv (each vector's sign made that of its first
    element: the sign is the method's own)."""

    def forward(self, a, b):  # a [n, 4, 4], b [n, 4, 3]
        spd = a @ a.mT + 4 * torch.eye(4)
        chol = torch.linalg.cholesky(spd)
        up = torch.linalg.solve_triangular(chol.mT, b, upper=True)
        right = torch.linalg.solve_triangular(chol, b.mT, upper=False, left=False, unitriangular=True)
        cs = torch.cholesky_solve(b, chol)
        x = torch.linalg.solve(a, b)
        xv = torch.linalg.solve(a, b[..., 0])
        inv = torch.linalg.inv(a)
        sign, logdet = torch.linalg.slogdet(a)
        q, r = torch.linalg.qr(b)
        qc, rc = torch.linalg.qr(b, mode="complete")
        qw, rw = torch.linalg.qr(b.mT)
        rr = torch.linalg.qr(b, mode="r")[1]
        values, vectors = torch.linalg.eigh(spd)
        vectors = vectors * torch.sign(vectors[..., :1, :])  # the sign of each is the method's
        upper = torch.linalg.eigvalsh(a, UPLO="U")
        u, s, vh = torch.linalg.svd(b, full_matrices=False)
        flip = torch.sign(u[..., :1, :])  # each pair's sign is the method's own
        uf, sf, vhf = torch.linalg.svd(b.mT)
        return (chol, up, right, cs, x, xv, inv, torch.linalg.det(a), sign, logdet, q, r, qc, rc,
                qw, rw, rr, values, vectors, upper, u * flip, s, vh * flip.mT, sf,
                (uf[..., :3] * sf[..., None, :]) @ vhf[..., :3, :], torch.linalg.pinv(b),
                torch.linalg.svdvals(a), torch.linalg.solve(a, b.mT, left=False))


class Spectral(nn.Module):
    """torch.fft and torch.stft over a `?` batch of signals [n, 64] and images [n, 3, 8, 6]:
    rfft/irfft in each norm, a complex filter in the frequency domain (a complex output),
    fft2/ifft2 over the last two dims, fftn over two inner dims, hfft, stft (Hann window,
    complex and as real pairs) and its inverse, a mel-style power spectrum."""

    def __init__(self):
        super().__init__()
        self.register_buffer("window", torch.hann_window(16))
        self.register_buffer("mel", torch.rand(9, 4))

    def forward(self, x, img):
        spec = torch.fft.rfft(x)
        back = torch.fft.irfft(spec * torch.exp(-0.1j * torch.arange(33.0)), n=64, norm="backward")
        ortho = torch.fft.irfft(torch.fft.rfft(x, norm="ortho"), n=64, norm="ortho")
        fwd = torch.fft.rfft(x, n=40, norm="forward")
        f2 = torch.fft.fft2(img)
        i2 = torch.fft.ifft2(f2 * 0.5).real
        fn = torch.fft.fftn(img, dim=(1, 3), norm="ortho")
        h = torch.fft.hfft(spec[:, :9], n=16)
        st = torch.stft(x, n_fft=16, hop_length=4, window=self.window, return_complex=True)
        power = (st.abs() ** 2).transpose(1, 2) @ self.mel[:, :4]
        pairs = torch.view_as_real(st)
        inv = torch.istft(st, n_fft=16, hop_length=4, window=self.window, length=64)
        return back, ortho, fwd, f2, i2, fn, h, power, pairs, inv, torch.view_as_complex(pairs).imag


class HalfWidth(nn.Module):
    """A bfloat16 model (weights, input and arithmetic; the result in f32): linear, layer
    norm, GELU, a residual and a softmax; tests/e2e/test_torch.py compares it to eager
    within bfloat16's rounding."""

    def __init__(self):
        super().__init__()
        self.fc, self.norm, self.out = nn.Linear(16, 16), nn.LayerNorm(16), nn.Linear(16, 8)
        self.to(torch.bfloat16)

    def forward(self, x):
        h = self.norm(F.gelu(self.fc(x)) + x)
        return torch.softmax(self.out(h), dim=-1).float()


class DynamicSpatial(nn.Module):
    """A segmentation-style net over images whose batch, height and width are all `?`:
    ceil_mode max pooling over odd sizes, upsampling back to the skip connection's size
    (output_size from the run-time sizes), nearest and bilinear (both align_corners) by
    scale factors 2 and 1.5, and a global average."""

    def __init__(self):
        super().__init__()
        self.c1, self.c2 = nn.Conv2d(3, 8, 3, padding=1), nn.Conv2d(8, 8, 3, padding=1)
        self.head = nn.Conv2d(16, 2, 1)

    def forward(self, x):
        a = F.relu(self.c1(x))
        b = F.relu(self.c2(F.max_pool2d(a, 3, stride=2, padding=1, ceil_mode=True)))
        up = F.interpolate(b, size=a.shape[-2:], mode="bilinear", align_corners=False)
        y = self.head(torch.cat([up, a], 1))
        near = F.interpolate(y, scale_factor=2, mode="nearest")
        corners = F.interpolate(y, scale_factor=2, mode="bilinear", align_corners=True)
        odd = F.interpolate(b, scale_factor=1.5, mode="bilinear", align_corners=False)
        return y, near, corners, odd, F.adaptive_avg_pool2d(y, 1)


class ShiftedWindows(nn.Module):
    """Swin's shifted-window attention over [b, 8, 8, 16] channels-last maps: roll by half a
    window, 4x4 windows, the shift's mask built by in-place writes into slices of
    new_zeros (saved decomposed, as aot.compile decomposes it), attention with the mask,
    roll back, then the head's layer norm, permute to NCHW, a 1x1 adaptive average pool
    (decomposed to a mean and an as_strided restride) and a linear."""

    def __init__(self):
        super().__init__()
        self.qkv, self.proj = nn.Linear(16, 48), nn.Linear(16, 16)
        self.norm, self.head = nn.LayerNorm(16), nn.Linear(16, 5)

    def forward(self, x):  # [b, 8, 8, 16]
        b, h, w, c = x.shape
        win, shift = 4, 2
        y = torch.roll(x, shifts=(-shift, -shift), dims=(1, 2))
        y = y.view(b, h // win, win, w // win, win, c).permute(0, 1, 3, 2, 4, 5)
        y = y.reshape(-1, win * win, c)
        q, k, v = self.qkv(y).chunk(3, dim=-1)
        scores = q @ k.transpose(-2, -1) / 4.0
        mask = x.new_zeros((h, w))
        regions = (slice(0, -win), slice(-win, -shift), slice(-shift, None))
        count = 0
        for hs in regions:
            for ws in regions:
                mask[hs, ws] = count
                count += 1
        mask = mask.view(h // win, win, w // win, win).permute(0, 2, 1, 3).reshape(-1, win * win)
        mask = (mask.unsqueeze(1) - mask.unsqueeze(2)).ne(0).float() * -100.0
        scores = scores.view(b, -1, win * win, win * win) + mask.unsqueeze(0)
        y = torch.softmax(scores, -1).view(-1, win * win, win * win) @ v
        y = self.proj(y).view(b, h // win, w // win, win, win, c).permute(0, 1, 3, 2, 4, 5)
        y = torch.roll(y.reshape(b, h, w, c), shifts=(shift, shift), dims=(1, 2)) + x
        y = self.norm(y).permute(0, 3, 1, 2)
        return self.head(torch.flatten(F.adaptive_avg_pool2d(y, 1), 1))


class PoolsAnySize(nn.Module):
    """Pools over images whose batch, height and width are all `?`, saved as exported (each
    its own rule, no retrace): adaptive average and max pooling to 1x1 (torchvision's
    classifiers), 7x3 and 3x2 cells (bounds computed at run time), 1-D adaptive pooling,
    and average pooling that counts only the covered elements; and Swin's padding to whole
    4x4 windows, by amounts computed from the run-time sizes."""

    def forward(self, x):
        h, w = x.shape[-2:]
        windows = F.pad(x, (0, (4 - w % 4) % 4, 1, (4 - h % 4) % 4), value=0.5)
        return (F.adaptive_avg_pool2d(x, 1), F.adaptive_avg_pool2d(x, (7, 3)),
                F.adaptive_max_pool2d(x, (3, 2)), F.adaptive_max_pool2d(x, 1),
                F.adaptive_avg_pool1d(x.flatten(2), 5),
                F.avg_pool2d(x, 3, stride=2, padding=1, count_include_pad=False), windows)


class CeilAvgPools(nn.Module):
    """ceil_mode average pooling over a `?` height and width: the last partial window kept,
    divided by its count of input and padding elements (not the overhang) or, without
    count_include_pad, of input elements only; 1-D and 3-D too. (Each has padding + stride
    <= kernel, so no last window can start past the input: where one can, torch.export
    guards the sizes to one side of that.)"""

    def forward(self, x):
        return (F.avg_pool2d(x, 3, stride=2, ceil_mode=True),
                F.avg_pool2d(x, 3, stride=2, padding=1, ceil_mode=True),
                F.avg_pool2d(x, (3, 2), stride=(2, 1), padding=(1, 1), ceil_mode=True,
                             count_include_pad=False),
                F.avg_pool1d(x.flatten(2), 4, stride=3, padding=1, ceil_mode=True),
                F.avg_pool3d(x.unsqueeze(1), 2, stride=2, ceil_mode=True))


class Eig(nn.Module):
    """torch.linalg.eig of a general matrix: refused at compile time (no general eigensolver),
    the error naming the op and this line."""

    def forward(self, x):
        values, vectors = torch.linalg.eig(x)
        return torch.view_as_real(values), torch.view_as_real(vectors)


class SpectralDynamic(nn.Module):
    """torch.fft over `?` height and width (the DFT as a product with its matrix, made at
    run time): rfft with "ortho", fft2 of a real input (every bin), fft then ifft with
    "forward", irfft2 back to a static 6 columns over the `?` height; irfft to the `?` width
    of a spectrum whose first and last bins have imaginary parts (ignored), and to a static
    40 rows from fewer bins (zero-padded)."""

    def forward(self, x):
        r = torch.view_as_real
        back = torch.fft.irfft2(torch.fft.rfft2(x[:, :, :6]), s=(x.shape[1], 6))
        spun = torch.fft.irfft(torch.fft.rfft(x) * (1 + 2j), n=x.shape[-1], norm="ortho")
        return (r(torch.fft.rfft(x, dim=-1, norm="ortho")), r(torch.fft.fft2(x)),
                r(torch.fft.ifft(torch.fft.fft(x, dim=1), dim=2, norm="forward")), back, spun,
                torch.fft.irfft(torch.fft.rfft(x, dim=1), n=40, dim=1))


class VideoOps(nn.Module):
    """The ops of torchvision's video models over clips [b, c, t, h, w], saved as exported
    (AS_EXPORTED; their 3-D adaptive pool fell back to run_decompositions, a retrace): Conv3d
    strided and padded, R(2+1)D's factorised pair (1x3x3 then 3x1x1), BatchNorm3d, 3-D max
    and average pools (ceil_mode, as S3D), adaptive average pooling to 1x1x1 (the
    classifiers' end) and to cells that do not divide the clip, adaptive max pooling; MViT's
    tensor_split (a class token off a `?` dim; sections) and einsum (a contraction with a
    weight, token similarities, `...` summed, implicit output, a size-1 dim broadcast); the
    batch, length, height and width all `?`."""

    def __init__(self):
        super().__init__()
        self.stem = nn.Conv3d(3, 6, (3, 5, 5), stride=(1, 2, 2), padding=(1, 2, 2), bias=False)
        self.bn = nn.BatchNorm3d(6)
        self.spatial = nn.Conv3d(6, 8, (1, 3, 3), padding=(0, 1, 1))
        self.temporal = nn.Conv3d(8, 6, (3, 1, 1), padding=(1, 0, 0))
        self.fc = nn.Linear(6, 4)
        self.mix = nn.Parameter(torch.randn(5, 6))
        self.scale = nn.Parameter(torch.randn(1, 6, 3))

    def forward(self, x):
        h = F.relu(self.bn(self.stem(x)))
        h = h + self.temporal(F.relu(self.spatial(h)))
        first, tokens = torch.tensor_split(h.flatten(2).transpose(1, 2), (1,), dim=1)
        a, b, c = torch.tensor_split(h, 3, dim=1)
        sims = torch.einsum("bnc,bmc->bnm", tokens, first)
        return (self.fc(F.adaptive_avg_pool3d(h, 1).flatten(1)), sims, a * b - c,
                torch.einsum("bcthw,dc->bdthw", h, self.mix), torch.einsum("bc...->bc", h),
                torch.einsum("bc,bcd", first[:, 0], self.scale), tokens[:, -2:],
                F.max_pool3d(h, (1, 3, 3), stride=(1, 2, 2), padding=(0, 1, 1)),
                F.max_pool3d(h, 2, stride=2, ceil_mode=True),
                F.avg_pool3d(h, (2, 3, 3), stride=(1, 2, 2), padding=(1, 1, 1)),
                F.adaptive_avg_pool3d(h, (2, 3, 3)), F.adaptive_max_pool3d(h, (2, 1, 3)))


class DetectionOps(nn.Module):
    """What torchvision's detection heads call between the network and their NMS, saved as
    exported (AS_EXPORTED): torch.where(condition) alone (nonzero's columns, a run-time
    count), the scores at those coordinates, and topk of min(k, that count) (torch.sym_min)
    and of max(1, ...) (torch.sym_max)."""

    def forward(self, scores):
        rows, cols = torch.where(scores > 0.5)
        picked = scores[rows, cols]
        top = picked.topk(min(4, picked.shape[0]))
        low = scores.flatten().topk(max(1, picked.shape[0]), largest=False)
        return rows, cols, top.values, top.indices, low.values


# torchvision's other families: name -> (module, kwargs, one input's shape): segmentation
# (dilated backbones, ASPP's image pooling, bilinear upsampling back to the image) and video
# (3-D convolutions, R(2+1)D's factorised ones, 3-D pooling over clips [3, time, h, w]).
TORCHVISION_FAMILIES = {
    "lraspp_mobilenet_v3_large": ("segmentation", {"num_classes": 5}, (3, 64, 64)),
    "deeplabv3_mobilenet_v3_large": ("segmentation", {"num_classes": 5}, (3, 64, 64)),
    "r3d_18": ("video", {"num_classes": 10}, (3, 4, 32, 32)),
    "r2plus1d_18": ("video", {"num_classes": 10}, (3, 4, 32, 32)),
}


def torchvision_family_model(name: str, seed: int = 29) -> nn.Module:
    """TORCHVISION_FAMILIES' model `name` in eval mode, random weights (its backbone's too)."""
    import torchvision
    family, kwargs, shape = TORCHVISION_FAMILIES[name]
    torch.manual_seed(seed)
    extra = {"weights_backbone": None} if family == "segmentation" else {}
    model = getattr(getattr(torchvision.models, family), name)(weights=None, **kwargs, **extra)
    return randomize(model, 0, shape=shape)


def transformers_model(kind: str, width: int = 32, layers: int = 2, heads: int = 4) -> nn.Module:
    """A BERT or a GPT-2 of transformers' own PyTorch classes ("bert", "gpt2"), small
    configs, random weights (no downloads), wrapped to take input ids and return the last
    hidden state or the logits."""
    import transformers as hf
    torch.manual_seed(2)
    if kind == "bert":
        cfg = hf.BertConfig(vocab_size=100, hidden_size=width, num_hidden_layers=layers,
                            num_attention_heads=heads, intermediate_size=2 * width,
                            max_position_embeddings=64)
        inner = hf.BertModel(cfg)
    else:
        cfg = hf.GPT2Config(vocab_size=100, n_embd=width, n_layer=layers, n_head=heads,
                            n_positions=64)
        cfg._attn_implementation = "eager"  # the sdpa path's view does not export with a dynamic batch
        inner = hf.GPT2LMHeadModel(cfg)

    class Ids(nn.Module):
        def __init__(self):
            super().__init__()
            self.inner = inner

        def forward(self, ids):
            kwargs = {"use_cache": False} if kind == "gpt2" else {}
            return self.inner(input_ids=ids, **kwargs)[0]
    return Ids().eval()


def f32(*shape):
    return lambda rng, d: rng.standard_normal([d.get(s, s) for s in shape]).astype(np.float32)


def bf16(*shape):
    """Floats that bfloat16 holds exactly, saved as f32 (.npz has no bfloat16): the cases in
    BF16_INPUTS pass them to the model, and the tests to the library, as bfloat16."""
    import ml_dtypes
    return lambda rng, d: rng.standard_normal([d.get(s, s) for s in shape]).astype(
        ml_dtypes.bfloat16).astype(np.float32)


def ints(hi, *shape, lo=0):
    return lambda rng, d: rng.integers(lo, hi, [d.get(s, s) for s in shape]).astype(np.int64)


def signs(n, k):
    """d[n] floats, d[k] of them positive (at random places)."""
    def make(rng, d):
        magnitude = np.abs(rng.standard_normal(d[n])) + 0.1
        return (magnitude * np.where(rng.permutation(d[n]) < d[k], 1, -1)).astype(np.float32)
    return make


def consts(*values):
    return lambda rng, d: np.array(values, np.int64)


class ZooOps(nn.Module):
    """Ops transformers' models leave as exported that had no rule or lowered only some
    forms (AS_EXPORTED; found by the 2026-11-29 sweep of architectures): `x.T`
    (aten.numpy_T, Falcon's attention takes its weights so; every dim reversed) of a weight
    and of a tensor with dynamic dims; `matmul` of operands of different ranks (a 3-d input
    by a 2-d weight, batch dims broadcast, vectors on either side: it fell back to
    run_decompositions, a retrace of the whole program); group_norm and _weight_norm
    (wav2vec2), meshgrid with either indexing over a dynamic length (BEiT), baddbmm
    (Bloom's ALiBi scores)."""

    def __init__(self):
        super().__init__()
        self.w = nn.Parameter(torch.randn(6, 8))
        self.k = nn.Parameter(torch.randn(3, 8, 4))
        self.v = nn.Parameter(torch.randn(8))
        self.g = nn.Parameter(torch.rand(1, 1, 4) + 0.5)
        self.gn = nn.Parameter(torch.randn(2, 8))

    def forward(self, x):  # x [b, t, 8]
        xt = x.T * 2  # of 3 dims: deprecated (a warning), still allowed
        heads = torch.matmul(x.unsqueeze(1), self.k)  # [b, 1, t, 8] @ [3, 8, 4]
        norm = F.group_norm(x.transpose(1, 2), 4, self.gn[0], self.gn[1])
        wn = torch._weight_norm(self.k, self.g, 2) \
            + torch._weight_norm(self.k, self.g[0, 0, :3, None, None], 0)
        t = torch.arange(x.shape[1])
        ij = torch.meshgrid(t, torch.arange(3), indexing="ij")
        xy = torch.meshgrid(t, t[:2] * 3, indexing="xy")
        grid = (ij[0] * 10 + ij[1]).sum(1) + (xy[0] - xy[1]).sum(0)
        scores = torch.baddbmm(self.v[:1], x, x.transpose(1, 2), beta=0.5, alpha=2.0)
        return (x @ self.w.T, xt, heads, x @ self.v, self.v @ x.transpose(1, 2), self.v @ self.v,
                norm, x @ wn.sum(0), grid, scores)


class ViewsAndHeads(nn.Module):
    """Saved as exported (AS_EXPORTED): in-place writes through views (BEiT's relative position
    index: `+=` and `*=` on a select of a permuted copy, slice and select writes into zeros; a
    view read after its tensor is overwritten; writes through a transpose, a narrow and a
    swapaxes of a `?`-shaped reshape), and attention whose key and value have fewer heads than the query:
    one for all (multi-query, broadcast, under an ALiBi-like bias) and grouped (enable_gqa)."""

    def __init__(self):
        super().__init__()
        self.q, self.kv1, self.kv2 = nn.Linear(16, 16), nn.Linear(16, 8), nn.Linear(16, 16)

    def forward(self, x):  # x [b, t, 16]
        b, t, _ = x.shape
        q = self.q(x).view(b, t, 4, 4).transpose(1, 2)
        k1, v1 = self.kv1(x).view(b, t, 1, 8).transpose(1, 2).split(4, dim=-1)
        slopes = torch.tensor([0.5, 0.25, 0.125, 0.0625]).view(1, 4, 1, 1)
        bias = slopes * torch.arange(t, dtype=torch.float32).view(1, 1, 1, t)
        a1 = F.scaled_dot_product_attention(q, k1, v1, attn_mask=bias)
        k2, v2 = self.kv2(x).view(b, t, 2, 8).transpose(1, 2).split(4, dim=-1)
        a2 = F.scaled_dot_product_attention(q, k2, v2, is_causal=True, enable_gqa=True)
        grid = torch.meshgrid(torch.arange(2), torch.arange(2), indexing="ij")
        coords = torch.stack(grid).flatten(1)
        rel = (coords[:, :, None] - coords[:, None, :]).permute(1, 2, 0).contiguous()
        rel[:, :, 0] += 1
        rel[:, :, 1] += 1
        rel[:, :, 0] *= 3
        index = torch.zeros(5, 5, dtype=rel.dtype)
        index[1:, 1:] = rel.sum(-1)
        index[0, 0:] = 9
        index[0:, 0] = 10
        index[0, 0] = 11
        rel_bias = torch.linspace(-1, 1, 12)[index.view(-1)].view(5, 5)
        y = (a1 + a2).transpose(1, 2).reshape(b, t, 16)
        v = y.view(b, t, 4, 4)
        y.relu_()
        y.transpose(1, 2)[:, 3] = 0.5
        y.narrow(2, 4, 2).mul_(2)
        y.swapaxes(1, 2)[:, 0].zero_()  # Swin V2's zero_, MaxViT's swapaxes
        return v.sum(-1) + rel_bias[0:4, 1:5].sum(0), y


class InputWrite(nn.Module):
    """Writes into its input through a view (saved as exported): not taken as functional."""

    def forward(self, x):
        x[:, 0] += 1
        return x * 2


class TimmOps(nn.Module):
    """Saved as exported (AS_EXPORTED): ops timm's models leave as they are: convolutions with
    padding "same" (an even kernel, dilated: one more row and column after) and "valid",
    reshape_as (LeViT), NFNet's weight standardisation (batch norm in training mode with no
    running statistics), bicubic interpolation (CrossViT), F.unfold (TNT) and a disabled
    autocast region (EfficientViT)."""

    def __init__(self):
        super().__init__()
        self.same = nn.Conv2d(3, 4, 4, padding="same", dilation=2)
        self.same_hw = nn.Conv2d(3, 4, (3, 2), padding="same")
        self.valid = nn.Conv2d(3, 4, 3, padding="valid")
        self.gain = nn.Parameter(torch.linspace(0.5, 1.5, 4))

    def forward(self, x):  # x [b, 3, 9, 8]
        w = self.same.weight
        w = F.batch_norm(w.reshape(1, 4, -1), None, None, weight=self.gain, training=True,
                         momentum=0.0, eps=1e-5).reshape_as(w)
        a = F.conv2d(x, w, self.same.bias, padding="same", dilation=2)
        like = x[:, :, :7, :6].sum(1, keepdim=True).expand(-1, 4, -1, -1)
        up = F.interpolate(x, size=(11, 6), mode="bicubic")
        up_aligned = F.interpolate(x, scale_factor=1.5, mode="bicubic", align_corners=True)
        cols = F.unfold(x, (3, 2), dilation=(1, 2), padding=(1, 0), stride=(2, 1))
        with torch.autocast(device_type="cpu", enabled=False):
            kept = torch.tanh(x).sum(-1)
        return a + self.same_hw(x), self.valid(x).reshape_as(like), up, up_aligned, cols, kept


class Recurrent(nn.Module):
    """Saved as exported (AS_EXPORTED): nn.LSTM (two layers, bidirectional, batch_first),
    nn.GRU over its output and a bias-free LSTM over one unbatched sequence, kept whole
    (aten.lstm.input, aten.gru.input: a loop over the steps, not the decomposition's
    unrolled ones); every output and last state."""

    def __init__(self):
        super().__init__()
        self.lstm = nn.LSTM(4, 8, num_layers=2, batch_first=True, bidirectional=True)
        self.gru = nn.GRU(16, 6)
        self.plain = nn.LSTM(4, 3, bias=False)

    def forward(self, x):  # x [b, 5, 4]
        y, (h, c) = self.lstm(x)
        z, hz = self.gru(y.transpose(0, 1))
        u, (hu, cu) = self.plain(x[0])
        return y, h, c, z, hz, u, hu, cu


BATCH = Dim("batch", min=1, max=64)
SEQ = Dim("seq", min=2, max=64)
SEQ3 = Dim("seq", min=3, max=64)  # diff(n=2) after prepending 2 columns: PyTorch asks for 3

# name -> (model class, input makers, dynamic_shapes or None, size sets)
CASES = {
    "mlp": (MLP, [f32("b", 16)], {"x": {0: BATCH}}, [{"b": 2}, {"b": 1}, {"b": 5}, {"b": 17}]),
    "mlp_static": (MLP, [f32(3, 16)], None, [{}]),
    "cnn": (CNN, [f32("b", 3, 16, 16)], {"x": {0: BATCH}}, [{"b": 2}, {"b": 1}, {"b": 3}, {"b": 6}]),
    "gpt": (GPT, [ints(50, "b", "t")], {"ids": {0: BATCH, 1: SEQ}},
            [{"b": 2, "t": 5}, {"b": 1, "t": 2}, {"b": 3, "t": 9}, {"b": 2, "t": 33}]),
    "encoder": (Encoder, [ints(40, "b", "t")], {"ids": {0: BATCH, 1: SEQ}},
                [{"b": 2, "t": 6}, {"b": 1, "t": 3}, {"b": 4, "t": 7}, {"b": 3, "t": 12}]),
    "misc": (Misc, [f32("b", 5, 6), consts(4, 1)], {"x": {0: BATCH}, "idx": None},
             [{"b": 2}, {"b": 1}, {"b": 3}, {"b": 8}]),
    "ops": (Ops, [f32("b", 4, 6, 6), ints(6, "b", 4)], {"x": {0: BATCH}, "ix": {0: BATCH}},
            [{"b": 2}, {"b": 1}, {"b": 3}, {"b": 5}]),
    "cond_nonzero": (CondNonzero, [f32("b", 4)], {"x": {0: BATCH}},
                     [{"b": 3}, {"b": 1}, {"b": 4}, {"b": 6}]),
    "unknown_op": (Unknown, [f32(3)], None, [{}]),
    "composite": (Composite, [f32("b", 3, 4, 4)], {"x": {0: BATCH}},
                  [{"b": 2}, {"b": 1}, {"b": 3}, {"b": 5}]),
    "inplace_hazard": (InPlaceHazard, [f32(4)], None, [{}]),
    "timm_ops": (TimmOps, [f32("b", 3, 9, 8)], {"x": {0: BATCH}},
                 [{"b": 2}, {"b": 1}, {"b": 3}, {"b": 5}]),
    "recurrent": (Recurrent, [f32("b", 5, 4)], {"x": {0: BATCH}},
                  [{"b": 2}, {"b": 1}, {"b": 3}, {"b": 6}]),
    "input_write": (InputWrite, [f32("b", 3)], {"x": {0: BATCH}}, [{"b": 2}]),
    "views_and_heads": (ViewsAndHeads, [f32("b", "t", 16)], {"x": {0: BATCH, 1: SEQ}},
                        [{"b": 2, "t": 5}, {"b": 1, "t": 2}, {"b": 3, "t": 9}, {"b": 2, "t": 33}]),
    "masks": (Masks, [f32("b", "t"), ints(6, "b", "t")], {"x": {0: BATCH, 1: SEQ3},
                                                          "ids": {0: BATCH, 1: SEQ3}},
              [{"b": 2, "t": 5}, {"b": 1, "t": 3}, {"b": 3, "t": 9}, {"b": 2, "t": 33}]),
    "rnn": (RNN, [f32("b", 7, 4)], {"x": {0: BATCH}}, [{"b": 2}, {"b": 1}, {"b": 3}, {"b": 5}]),
    "attention": (PreNormAttention, [f32("b", 5, 32)], {"x": {0: BATCH}},
                  [{"b": 2}, {"b": 1}, {"b": 3}, {"b": 8}]),
    "common": (Common, [f32("b", "t", 8), f32("b", 3, 5, 6)],
               {"x": {0: BATCH, 1: SEQ}, "img": {0: BATCH}},
               [{"b": 2, "t": 5}, {"b": 1, "t": 2}, {"b": 3, "t": 9}, {"b": 2, "t": 17}]),
    "sorting": (Sorting, [f32("b", 6)], {"x": {0: BATCH}}, [{"b": 2}, {"b": 1}, {"b": 3}, {"b": 7}]),
    "scatter_writes": (Scatter, [f32("b", 6), ints(6, "b", 3)], {"x": {0: BATCH}, "ix": {0: BATCH}},
                       [{"b": 2}, {"b": 1}, {"b": 3}, {"b": 7}]),
    "scatter_core": (Scatter, [f32("b", 6), ints(6, "b", 3)], {"x": {0: BATCH}, "ix": {0: BATCH}},
                     [{"b": 3}, {"b": 1}, {"b": 2}, {"b": 8}]),
    "more_ops": (MoreOps, [f32("b", 6), f32("b", 3, 4, 5), ints(10, "b", 4)],
                 {"x": {0: BATCH}, "img": {0: BATCH}, "ids": {0: BATCH}},
                 [{"b": 2}, {"b": 1}, {"b": 3}, {"b": 5}]),
    "more_ops_core": (MoreOps, [f32("b", 6), f32("b", 3, 4, 5), ints(10, "b", 4)],
                      {"x": {0: BATCH}, "img": {0: BATCH}, "ids": {0: BATCH}},
                      [{"b": 3}, {"b": 1}, {"b": 2}, {"b": 6}]),
    "composite_more": (CompositeMore, [f32("b", 6), f32("b", 4, 4, 6), ints(5, "b", 3)],
                       {"x": {0: BATCH}, "img": {0: BATCH}, "ids": {0: BATCH}},
                       [{"b": 2}, {"b": 1}, {"b": 3}, {"b": 5}]),
    "setitem": (Setitem, [f32("b", 6)], {"x": {0: BATCH}}, [{"b": 2}, {"b": 1}, {"b": 3}, {"b": 5}]),
    "mask_put": (MaskPut, [signs("n", "k"), f32("k")], {"x": {0: Dim("n", min=3, max=64)},
                                                        "v": {0: Dim("k", max=64)}},
                 [{"n": 5, "k": 2}, {"n": 3, "k": 1}, {"n": 8, "k": 6}, {"n": 4, "k": 4}]),
    "linalg": (Linalg, [f32("b", 4, 4), f32("b", 4, 3)], {"a": {0: BATCH}, "b": {0: BATCH}},
               [{"b": 2}, {"b": 1}, {"b": 3}, {"b": 5}]),
    "spectral": (Spectral, [f32("b", 64), f32("b", 3, 8, 6)], {"x": {0: BATCH}, "img": {0: BATCH}},
                 [{"b": 2}, {"b": 1}, {"b": 3}, {"b": 5}]),
    "bf16": (HalfWidth, [bf16("b", 16)], {"x": {0: BATCH}}, [{"b": 2}, {"b": 1}, {"b": 3}, {"b": 6}]),
    "dynamic_spatial": (DynamicSpatial, [f32("b", 3, "h", "w")],
                        {"x": {0: BATCH, 2: Dim.AUTO, 3: Dim.AUTO}},
                        [{"b": 2, "h": 16, "w": 12}, {"b": 1, "h": 9, "w": 13},
                         {"b": 3, "h": 7, "w": 5}, {"b": 1, "h": 20, "w": 31}]),
    "shifted_windows": (ShiftedWindows, [f32("b", 8, 8, 16)], {"x": {0: BATCH}},
                        [{"b": 2}, {"b": 1}, {"b": 3}, {"b": 5}]),
    "pools_any_size": (PoolsAnySize, [f32("b", 3, "h", "w")],
                       {"x": {0: BATCH, 2: Dim("h", min=3, max=64), 3: Dim("w", min=3, max=64)}},
                       [{"b": 2, "h": 16, "w": 12}, {"b": 1, "h": 9, "w": 13},
                        {"b": 3, "h": 3, "w": 5}, {"b": 1, "h": 23, "w": 31}]),
    "ceil_avg_pools": (CeilAvgPools, [f32("b", 3, "h", "w")],
                       {"x": {0: BATCH, 2: Dim.AUTO, 3: Dim.AUTO}},
                       [{"b": 2, "h": 9, "w": 12}, {"b": 1, "h": 8, "w": 13},
                        {"b": 3, "h": 7, "w": 5}, {"b": 1, "h": 20, "w": 31},
                        {"b": 1, "h": 6, "w": 10}]),
    "eig": (Eig, [f32(4, 4)], None, [{}]),
    "spectral_dynamic": (SpectralDynamic, [f32("b", "h", "w")],
                         {"x": {0: BATCH, 1: Dim.AUTO, 2: Dim.AUTO}},
                         [{"b": 2, "h": 5, "w": 8}, {"b": 1, "h": 7, "w": 12},
                          {"b": 3, "h": 16, "w": 9}, {"b": 1, "h": 12, "w": 31}]),
    "zoo_ops": (ZooOps, [f32("b", "t", 8)], {"x": {0: BATCH, 1: SEQ}},
                [{"b": 2, "t": 5}, {"b": 1, "t": 2}, {"b": 3, "t": 9}, {"b": 2, "t": 33}]),
    "video_ops": (VideoOps, [f32("b", 3, "t", "h", "w")],
                  {"x": {0: BATCH, 2: Dim.AUTO, 3: Dim.AUTO, 4: Dim.AUTO}},
                  [{"b": 2, "t": 4, "h": 12, "w": 10}, {"b": 1, "t": 3, "h": 9, "w": 13},
                   {"b": 3, "t": 5, "h": 8, "w": 8}, {"b": 1, "t": 6, "h": 16, "w": 11}]),
    "detection_ops": (DetectionOps, [f32("n", 3)], {"scores": {0: Dim("n", min=2, max=64)}},
                      [{"n": 6}, {"n": 2}, {"n": 9}, {"n": 30}]),
    "while_grid": (WhileGrid, [f32("b", 6), f32("b", 3, 4, 5)], {"x": {0: BATCH}, "img": {0: BATCH}},
                   [{"b": 2}, {"b": 1}, {"b": 3}, {"b": 6}]),
}


def seed(name, tag):
    return zlib.crc32(f"{name}/{tag}".encode())


# Saved as torch.export leaves them (composite and in-place ops), not decomposed.
AS_EXPORTED = {"composite", "inplace_hazard", "masks", "common", "attention", "sorting",
               "scatter_writes", "more_ops", "composite_more", "pools_any_size",
               "ceil_avg_pools", "zoo_ops", "video_ops",
               "detection_ops", "views_and_heads", "input_write", "timm_ops",
               "recurrent"}


BF16_INPUTS = {"bf16"}


def as_torch(name, a):
    t = torch.from_numpy(a)
    return t.to(torch.bfloat16) if name in BF16_INPUTS and t.is_floating_point() else t


def inputs(name, k):
    _, makers, _, sizes = CASES[name]
    rng = np.random.default_rng(seed(name, f"s{k}"))
    return [m(rng, sizes[k]) for m in makers]


def export_case(name):
    cls, makers, dynamic, sizes = CASES[name]
    torch.manual_seed(seed(name, "weights"))
    model = cls().eval()
    for m in model.modules():  # batch norm statistics that are not the identity
        if isinstance(m, (nn.BatchNorm2d, nn.BatchNorm3d)):
            m.running_mean.uniform_(-0.5, 0.5)
            m.running_var.uniform_(0.5, 2.0)
    example = tuple(as_torch(name, a) for a in inputs(name, 0))
    ep = torch.export.export(model, example, dynamic_shapes=dynamic)
    if name not in AS_EXPORTED:
        ep = ep.run_decompositions()
    torch.export.save(ep, os.path.join(OUT, f"{name}.pt2"))
    data = {}
    for k in range(len(sizes)):
        args = inputs(name, k)
        with torch.no_grad():
            outs = model(*(as_torch(name, a) for a in args))
        outs = outs if isinstance(outs, tuple) else (outs,)
        data.update({f"s{k}_arg{i}": a for i, a in enumerate(args)})
        data.update({f"s{k}_out{i}": o.numpy() for i, o in enumerate(outs)})
    np.savez(os.path.join(OUT, f"{name}.npz"), **data)
    return ep


def main(argv):
    for name in argv or list(CASES):
        try:
            export_case(name)
            print("exported", name)
        except Exception as e:  # an export that fails is reported, the others still run
            print(f"{name}: export failed: {type(e).__name__}: {e}", file=sys.stderr)


if __name__ == "__main__":
    main(sys.argv[1:])
