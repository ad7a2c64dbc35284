"""The CPU's dot kernel: products the packed matmul (gemm.py) can take become one `aot.gemm`
op, and a dot's elementwise consumers (a kOutput fusion) run on each finished tile of C.
Registered as CPU overrides of dot / dot_general in the op registry."""
from __future__ import annotations

from lowering.ir.builder import Ix, LoopBuilder, dims_of
from lowering.ir.core import INDEX, Block, Region
from lowering.ops import registry
from lowering.ops.contraction import dot_general_dims
from lowering.ops.elemental import Elemental


def packed_kind(target, lhs: str, rhs: str, out: str) -> str | None:
    """The packed matmul's element type (its blocking's key) for these operand and result
    types, or None: one float type throughout, or i16 x i16 -> i32 (the integer path of
    quantized contractions, which runs as "i32")."""
    if lhs == rhs == out and out in ("f32", "f64") or (lhs, rhs, out) == ("i16", "i16", "i32"):
        return out if target.blocking(out) is not None else None
    return None


def packed_runs(op, target) -> dict | None:
    """Whether a dot goes through the packed matmul, and how. Each operand is taken as a
    batch of matrices addressed by strides, so batch, free and contracting dims must each be
    a run of consecutive dims (listed in order) on both sides: a run flattens into one index
    of a row-major buffer. Returns [start, stop) of the lhs runs (batch, rows, k) and the
    rhs runs (batch, k, columns), or None (the loop-form dot then computes it)."""
    lhs_t, rhs_t = op.operands[0].type, op.operands[1].type
    out_t = op.results[0].type if op.results else op.operands[2].type  # tensor or buffer form
    if packed_kind(target, lhs_t.elem, rhs_t.elem, out_t.elem) is None:
        return None
    lb, rb, lc, rc = dot_general_dims(op)
    lfree = [d for d in range(lhs_t.rank) if d not in lb and d not in lc]
    rfree = [d for d in range(rhs_t.rank) if d not in rb and d not in rc]

    def run(dims):
        dims = list(dims)
        if dims and dims != list(range(dims[0], dims[0] + len(dims))):
            return None
        return (dims[0], dims[0] + len(dims)) if dims else (0, 0)
    lhs, rhs = [run(lb), run(lfree), run(lc)], [run(rb), run(rc), run(rfree)]
    if None in lhs or None in rhs:
        return None
    return {"lhs_runs": [x for r in lhs for x in r], "rhs_runs": [x for r in rhs for x in r]}


def epilogue_tile(b: LoopBuilder, subject, region_block: Block, inputs: dict, out, env: dict,
                  nb: int, nm: int, flat_columns: bool = False, whole_row: int | None = None):
    """(region, captured): a kOutput fusion's region as a tile callback (bi, i0, i1, j0, j1)
    that overwrites rows [i0, i1) x columns [j0, j1) of batch index `bi` of `out` (its
    first nb dims the batch, the next nm the rows, a last one the columns, each group
    flattened; columns over several dims, as an NCHW convolution's positions, are unflattened
    per element, or with `flat_columns` indexed [0, ..., j], the same address in a row-major
    buffer, where the region reads nothing along those dims apart) with the fused consumers'
    value of `subject`'s product, already in `out`
    (fusion.joins_as_output). With `whole_row` (a static column count), a tile of whole rows
    runs its columns between constant bounds, which LLVM vectorises however short they are.
    Kernel values the region uses from outside are `captured`, to become the library op's
    extra operands."""
    product, root_value = subject.results[0], region_block.ops[-1].operands[0]
    tile = Block([INDEX] * 5)
    eb = LoopBuilder(tile, b.loc, b.target)
    bi, i0, i1, j0, j1 = tile.args
    out_dims = dims_of(eb, out)

    def unflatten(lb: LoopBuilder, flat, dims):
        idx = []
        for d in reversed(dims):
            idx.append(lb.v("arith.remui", [flat, d], INDEX))
            flat = lb.v("arith.divui", [flat, d], INDEX)
        return idx[::-1]
    batch_idx = unflatten(eb, bi, out_dims[:nb])

    def rows(rb: LoopBuilder, lo, hi):
        _, row, i, _ = rb.for_(i0, i1)
        row_idx = unflatten(row, i, out_dims[nb:nb + nm])
        _, col, j, _ = row.for_(lo, hi)
        cols = out_dims[nb + nm:]
        if flat_columns and len(cols) > 1:
            col_idx = [col.index(0)] * (len(cols) - 1) + [j]
        else:
            col_idx = unflatten(col, j, cols) if len(cols) > 1 else [j] if cols else []
        idx = batch_idx + row_idx + col_idx
        e = Elemental(col, {**inputs, product: out}, dims=env)
        col.op("memref.store", [e.at(root_value, idx), out] + idx)
        col.yield_()
        row.yield_()
    if whole_row is None:
        rows(eb, j0, j1)
    else:
        ix = Ix(eb)
        whole = ix.and_(ix.cmp("eq", j0, 0), ix.cmp("eq", j1, whole_row))
        taken = ix.select(whole, 1, 0)
        _, wb, _, _ = eb.for_(eb.index(0), taken)
        rows(wb, wb.index(0), wb.index(whole_row))
        wb.yield_()
        _, pb, _, _ = eb.for_(eb.index(0), ix.sub(1, taken))
        rows(pb, j0, j1)
        pb.yield_()
    eb.yield_()
    inside = {v for o in tile.ops for inner in o.walk() for v in inner.results}
    inside |= {a for o in tile.ops for inner in o.walk() for r in inner.regions
               for blk in r.blocks for a in blk.args} | set(tile.args)
    captured = []
    for o in tile.ops:
        for inner in o.walk():
            for v in inner.operands:
                if v not in inside and v not in captured:
                    captured.append(v)
    return Region([tile]), captured


def emit_matmul_epilogue(b: LoopBuilder, region_block: Block, inputs: dict, out, env: dict):
    """A kOutput fusion: the packed matmul writes the product into the result buffer, and
    its region runs on each finished tile of C (epilogue_tile)."""
    dot = next(o for o in region_block.ops if o.key in ("dot_general", "dot"))
    runs = packed_runs(dot, b.target)
    nb, nm = runs["lhs_runs"][1] - runs["lhs_runs"][0], runs["lhs_runs"][3] - runs["lhs_runs"][2]
    region, captured = epilogue_tile(b, dot, region_block, inputs, out, env, nb, nm)
    lhs, rhs = (inputs[v] for v in dot.operands)
    b.op("aot.gemm", [lhs, rhs, out] + captured, attrs=runs, regions=[region])


def emit_packed_dot(k, op, b: LoopBuilder, args: list):
    lhs, rhs, out = args
    b.op("aot.gemm", [lhs, rhs, out], attrs=packed_runs(op, b.target))


def _packs(target, op) -> bool:
    return packed_runs(op, target) is not None


def _takes_epilogue(target, op) -> bool:
    """The epilogue walks C's columns as one dim: the rhs columns must be one dim."""
    runs = packed_runs(op, target)
    return (runs is not None and runs["rhs_runs"][5] - runs["rhs_runs"][4] <= 1
            and "aot.attention" not in op.attrs)  # the scores of an attention fusion


for _name in ("dot_general", "dot"):
    registry.override(_name, "kernel", emit_packed_dot, target="cpu", when=_packs)
    registry.override(_name, "epilogue", emit_matmul_epilogue, target="cpu", when=_takes_epilogue)

from lowering.codegen.cpu import attention  # noqa: E402,F401  (its epilogue override: the fused attention)
