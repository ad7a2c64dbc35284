"""Convolutions on the cuda target as implicit GEMM on the tiled shared-memory matmul
(matmul.py's `block_product`), with a kOutput fusion's elementwise consumers applied to each
result on its way to memory, as the matmul does.

The GEMM: rows M = the output's batch and spatial positions, columns N = output features,
contraction K = (groups a tile spans) x kernel window x input features per group, input
features fastest. Nothing is copied first (no im2col buffer): each A element is gathered from
the input while the block stages its slab in shared memory, through the same window index
math as the CPU's kernel (ops/windows.py's `window_position`: stride, padding, lhs and rhs
dilation; window reversal on the kernel's side), the input's layout read from the dimension
numbers, so NHWC, NCHW and any other order are the same code, 1-D to 3-D. The output is cut
into tiles of TILE output features by TILE positions (smaller when TILE would leave SMs
idle: matmul.tile_side), the positions a box over the batch and spatial dims, the innermost dim
first (2 x 32 of a 32-wide image, 8 x 8 of a 7 x 7 one: `position_tiles`), a block per tile
(the launch's `aot.tiles` over the output's own dims).

Feature groups: a tile's columns may belong to several groups (when the output features per
group are not a multiple of TILE), so its contraction runs over each of those groups' inputs
in turn, with a kernel element counted only for a column of its own group (zero elsewhere):
a block-diagonal GEMM, the waste the rule below weighs.

Which kernel (`implicit_gemm`): the time model's view (timing.py) of the two kernels. The
per-element kernel (windows.py) reads one input and one kernel element per multiply-add from
L2, so it runs at most at L2 bandwidth x 2 FLOPs per two elements; the tiled kernel reuses
each staged element TILE times and runs at the FP32 rate, less the share of its multiply-adds
that are padding (a contraction shorter than DEPTH, columns of other groups). The tiled
kernel is taken when that share of the FP32 rate beats the per-element kernel's L2 rate on
the Target's device: a depthwise 3x3 (1 feature per group: 64 groups per tile, 9 of 16 slab
rows used, 0.9% useful) stays per element; a dense or grouped convolution with a few features
per group goes to the tiles. The per-element kernel also keeps what the tiles do not take:
complex and boolean elements, batch_group_count > 1 (gradients of grouped convolutions) and
kernels of run-time shape.
"""
from __future__ import annotations

from lowering.codegen.cuda import windows  # noqa: F401  (registered first: the rules below are tried before it)
from lowering.codegen.cuda.matmul import (
    DEPTH,
    TILE,
    _accumulator,
    block_product,
    epilogue_store,
    store_tile,
    tile_loop,
    tile_side,
)
from lowering.ir.builder import Ix, LoopBuilder, buffer_dims
from lowering.ir.core import ScalarType, is_complex
from lowering.ops import registry
from lowering.ops.elementwise import Scalars
from lowering.ops.windows import Conv, window_position


def _out_type(op):
    return op.results[0].type if op.results else op.operands[2].type


def groups_per_tile(per_group: int, groups: int, tile: int = TILE) -> int:
    """The most feature groups `tile` consecutive output features (from a multiple of
    `tile`) reach into."""
    if groups == 1 or per_group % tile == 0:
        return 1
    if tile % per_group == 0:
        return min(tile // per_group, groups)
    return min((tile - 1 + per_group - 1) // per_group + 1, groups)


def useful_share(op, tile: int) -> float:
    """The share of the tiled kernel's multiply-adds that are the convolution's own."""
    c, shape = Conv(op), op.operands[1].type.shape
    window = 1
    for d in c.ksp:
        window *= shape[d]
    depth = window * shape[c.ki]
    padded = max(-(-depth // DEPTH) * DEPTH, 1)
    return depth / padded / groups_per_tile(shape[c.ko] // c.G, c.G, tile)


def implicit_gemm(target, op) -> bool:
    """Whether the tiled kernel takes this convolution (the module's docstring says why)."""
    from abi.dtypes import dtype as abi_dtype
    from lowering.codegen.cuda.timing import L2_OVER_HBM
    from lowering.target import GPU_DEVICES
    out_elem = _out_type(op).elem
    if out_elem == "i1" or is_complex(out_elem) or None in op.operands[1].type.shape:
        return False
    c = Conv(op)
    if c.B > 1 or target.gpu is None:
        return False
    device = GPU_DEVICES[target.gpu.device]
    pair = sum(max(abi_dtype(v.type.elem).size, 1) for v in op.operands[:2])
    per_element = device.hbm_gbps * 1e3 * L2_OVER_HBM * 2 / pair  # FLOPs per microsecond
    share = useful_share(op, tile_size(target, c, _out_type(op).shape))
    return share * device.fp32_tflops * 1e6 > per_element


def tile_size(target, c: Conv, out_shape) -> int:
    """The tiles' side: matmul.tile_side of the GEMM (positions x output features)."""
    positions = 1
    for d in [c.ob] + list(c.osp):
        positions = None if out_shape[d] is None or positions is None else positions * out_shape[d]
    return tile_side(target, positions, out_shape[c.of])


def position_tiles(c: Conv, out_shape, tile: int) -> dict:
    """Output dim -> its tile size, over the batch and spatial dims (`tile` positions in all):
    powers of two from the innermost dim out, each no larger than its dim needs (a dim known
    only at run time is taken as large), the outermost taking what is left."""
    dims = sorted([c.ob] + list(c.osp))
    tiles, left = {}, tile
    for d in reversed(dims[1:]):
        n = out_shape[d] if out_shape[d] is not None else tile
        t = 1
        while t < min(n, left):
            t *= 2
        tiles[d] = min(t, left)
        left //= tiles[d]
    tiles[dims[0]] = left
    return tiles


def emit_implicit_gemm(b: LoopBuilder, conv, lhs, rhs, out, store) -> None:
    """The tiled kernel of convolution `conv` on buffers lhs, rhs, out; `store(builder,
    index, value)` writes each result (of the convolution's type) at its output index."""
    c, w = Conv(conv), Conv(conv).window
    rank = out.type.rank
    acc = _accumulator(out.type.elem)
    ld, od = buffer_dims(b, lhs), buffer_dims(b, out)
    tile = tile_size(b.target, c, out.type.shape)
    pos = position_tiles(c, out.type.shape, tile)
    m_dims = sorted(pos)  # the output's batch and spatial dims, in its order
    body, base = tile_loop(b, out, tuple(tile if d == c.of else pos[d] for d in range(rank)))
    bx = Ix(body)
    rshape = rhs.type.shape
    per_group, cg = rshape[c.ko] // c.G, rshape[c.ki]
    spans = groups_per_tile(per_group, c.G, tile)
    window = [rshape[d] for d in c.ksp]
    k_sizes = [spans] + window + [cg]  # the flat contraction: group, window..., input feature
    depth = 1
    for n in k_sizes:
        depth *= n
    spatial_in = [ld[d] for d in c.lsp]
    if 0 in spatial_in:  # an input with no elements along a spatial dim adds nothing
        depth = 0
    for n in spatial_in:
        if not isinstance(n, int):
            depth = bx.select(bx.cmp("sgt", n, 0), depth, 0)
    first_group = bx.div(base[c.of], per_group) if c.G > 1 else 0

    def position(ix, r):
        """The output index of tile row r (its batch and spatial entries) and whether it is
        inside the output."""
        at, inside = {}, None
        for d in reversed(m_dims):
            if pos[d] == 1:
                off = 0
            else:
                off = ix.rem(r, pos[d]) if d != m_dims[0] else r
                r = ix.div(r, pos[d])
            at[d] = ix.add(base[d], off)
            inside = ix.and_(inside, ix.cmp("slt", at[d], od[d]))
        return at, inside

    def unflatten(ix, k):
        idx = []
        for n in reversed(k_sizes[1:]):
            idx.append(ix.rem(k, n) if n > 1 else 0)
            k = ix.div(k, n) if n > 1 else k
        return [k] + idx[::-1]

    def load_input(kb, m, k, k_inside):
        kx = Ix(kb)
        at, inside = position(kx, m)
        gi, *kvs, ci = unflatten(kx, k)
        group = kx.add(first_group, gi)
        ok = kx.and_(inside, k_inside)
        if c.G > 1:
            ok = kx.and_(ok, kx.cmp("slt", group, c.G))
        idx = [None] * lhs.type.rank
        for s in range(c.n):
            valid, q = window_position(kx, w, s, at[c.osp[s]], kvs[s], ld[c.lsp[s]])
            ok = ok if valid is None else kx.and_(ok, valid)
            idx[c.lsp[s]] = q
        idx[c.lb] = at[c.ob]
        idx[c.lf] = kx.add(kx.mul(group, cg), ci) if c.G > 1 else ci
        idx = [kx.select(ok, v, 0) for v in idx]  # a padded or outside element reads element 0
        x = kb.v("memref.load", [lhs] + idx, ScalarType(lhs.type.elem))
        return kx.select(ok, Scalars(kb).convert(x, lhs.type.elem, acc), kb.const(0, acc), ScalarType(acc))

    def load_kernel(kb, n, k, k_inside):
        kx = Ix(kb)
        feature = kx.add(base[c.of], n)
        gi, *kvs, ci = unflatten(kx, k)
        ok = kx.and_(kx.cmp("slt", feature, od[c.of]), k_inside)
        if c.G > 1:  # a column counts only its own group's inputs
            ok = kx.and_(ok, kx.cmp("eq", kx.div(feature, per_group), kx.add(first_group, gi)))
        idx = [None] * rhs.type.rank
        for s in range(c.n):
            idx[c.ksp[s]] = kx.sub(window[s] - 1, kvs[s]) if w.reverse[s] else kvs[s]
        idx[c.ki], idx[c.ko] = ci, kx.min(feature, rshape[c.ko] - 1)
        x = kb.v("memref.load", [rhs] + [kx.val(v) for v in idx], ScalarType(rhs.type.elem))
        return kx.select(ok, Scalars(kb).convert(x, rhs.type.elem, acc), kb.const(0, acc), ScalarType(acc))

    # consecutive threads along the operand's innermost dim, where its loads coalesce
    input_along_k = c.lf == lhs.type.rank - 1
    kernel_along_k = c.ko != rhs.type.rank - 1
    kloop, tx, ty = block_product(body, depth, acc, load_input, load_kernel, input_along_k, kernel_along_k,
                                  tile)

    def place(ix, r, col):
        at, inside = position(ix, r)
        at[c.of] = ix.add(base[c.of], col)
        return ix.and_(inside, ix.cmp("slt", at[c.of], od[c.of])), [at[d] for d in range(rank)]
    store_tile(body, kloop, tx, ty, acc, out.type.elem, place, store, tile)
    body.yield_()


def emit_conv_kernel(k, op, b: LoopBuilder, args: list):
    lhs, rhs, out = args[:3]
    emit_implicit_gemm(b, op, lhs, rhs, out, lambda ob, at, v: ob.op("memref.store", [v, out] + at))


def emit_conv_epilogue(b: LoopBuilder, region_block, inputs: dict, out, env: dict):
    """A kOutput fusion rooted at a convolution: each result through the fused consumers
    (which read the product only at the result's own index) on its way to memory."""
    conv = next(o for o in region_block.ops if o.key == "convolution")
    lhs, rhs = (inputs[v] for v in conv.operands)
    emit_implicit_gemm(b, conv, lhs, rhs, out, epilogue_store(region_block, conv, inputs, out, env))


registry.override("convolution", "kernel", emit_conv_kernel, target="cuda", when=implicit_gemm)
registry.override("convolution", "epilogue", emit_conv_epilogue, target="cuda", when=implicit_gemm)
