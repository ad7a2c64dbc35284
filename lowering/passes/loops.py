"""Loop stage: every LHLO kernel becomes an outlined function of loop nests.

Kernels (`func.func` with the `aot.kernel` attribute) hold `scf.for` nests,
`memref.load`/`memref.store` and scalar `arith`/`math` ops; the host function
keeps allocation, the calls to kernels and deallocation. Kernels take only
buffers, so a later GPU backend can compile the same functions for the device
while the host code stays as it is.

Fusions are emitted the XLA way: an elemental emitter computes the root's
value at an output index, pulling each producer's value at the index that
producer needs (broadcast, transpose, slice... map indices), so intermediate
values never touch memory.
"""
from __future__ import annotations

import numpy as np

from lowering.ir.core import (INDEX, Block, FunctionType, Module, Operation, Region, ScalarType, SymbolRef,
                 Value)
from lowering.codegen.cpu.gemm import packed_runs
from lowering.ops.hlo_ops import ELEMENTWISE, dot_general_dims
from lowering.ops.scalar import Scalars, lower_scalar


class LoopBuilder:
    """Appends ops to a block; `for_` opens nested `scf.for` loops."""

    def __init__(self, block: Block, loc):
        self.block = block
        self.loc = loc

    def op(self, name, operands, result_types=(), attrs=None, regions=()):
        return self.block.append(Operation(name, operands, result_types, attrs or {}, regions,
                                           self.loc))

    def v(self, name, operands, type, **attrs) -> Value:
        return self.op(name, operands, [type], attrs).result

    def const(self, value, elem: str) -> Value:
        if elem in ("f16", "bf16", "f32", "f64"):
            value = float(value)
        elif elem == "i1":
            value = bool(value)
        else:
            value = int(value)
        return self.v("arith.constant", [], ScalarType(elem), value=value)

    def index(self, n: int) -> Value:
        return self.const(n, "index")

    def for_(self, lb: Value, ub: Value, inits=()):
        """An `scf.for` from lb to ub (step 1); returns (op, body builder, iv, iter args)."""
        body = Block([INDEX] + [v.type for v in inits])
        op = self.op("scf.for", [lb, ub, self.index(1)] + list(inits), [v.type for v in inits],
                     {}, [Region([body])])
        return op, LoopBuilder(body, self.loc), body.args[0], body.args[1:]

    def yield_(self, values=()):
        self.op("scf.yield", list(values))


def dims_of(b: LoopBuilder, buf: Value) -> list:
    """Index values for each dim of a buffer: constants where static."""
    out = []
    for d, n in enumerate(buf.type.shape):
        out.append(b.index(n) if n is not None else b.v("memref.dim", [buf, b.index(d)], INDEX))
    return out


def loop_nest(b: LoopBuilder, bounds: list):
    """Nested loops over `bounds`; returns (innermost builder, induction variables)."""
    ivs = []
    for ub in bounds:
        _, b, iv, _ = b.for_(b.index(0), ub)
        ivs.append(iv)
    return b, ivs


def close_nest(b: LoopBuilder, depth: int):
    """Terminate `depth` nested loop bodies, innermost first."""
    block = b.block
    for _ in range(depth):
        block.append(Operation("scf.yield", [], [], {}, loc=b.loc))
        region = block.parent
        block = region.parent.parent if region.parent is not None else None
        if block is None:
            break


# ----------------------------------------------------------------------------- elemental emitter


class Elemental:
    """Computes a fused tensor value's scalar at an index, recursively through producers."""

    def __init__(self, b: LoopBuilder, inputs: dict, scalars: dict | None = None,
                 dims: dict | None = None):
        self.b = b
        self.inputs = inputs  # region block arg -> kernel buffer argument
        self.scalars = scalars or {}  # value -> scalar already computed (reduce bodies)
        self.dim_env = dims or {}  # region value -> [int | index Value], its run-time dims
        self.cache: dict = {}

    def dims(self, v: Value) -> list:
        """v's dims: static ints, or index values the kernel received or read."""
        if v in self.dim_env:
            return self.dim_env[v]
        if v in self.inputs:
            buf = self.inputs[v]
            return [n if n is not None else self.b.v("memref.dim", [buf, self.b.index(d)], INDEX)
                    for d, n in enumerate(buf.type.shape)]
        return list(v.type.shape)

    def ival(self, d) -> Value:
        return self.b.index(d) if isinstance(d, int) else d

    def iadd(self, a, c):
        if isinstance(c, int) and c == 0:
            return a
        return self.b.v("arith.addi", [a, self.ival(c)], INDEX)

    def isub(self, a, c):
        if isinstance(c, int) and c == 0:
            return a
        return self.b.v("arith.subi", [self.ival(a), self.ival(c)], INDEX)

    def imul(self, a, c):
        if isinstance(c, int) and c == 1:
            return a
        return self.b.v("arith.muli", [a, self.ival(c)], INDEX)

    def scalar_index(self, v: Value, idx: list) -> Value:
        """An integer tensor element (a start index) as an index value."""
        x = self.at(v, idx)
        return self.b.v("arith.index_cast", [x], INDEX)

    def clamp(self, x, lo, hi) -> Value:
        b = self.b
        x = b.v("arith.maxsi", [x, self.ival(lo)], INDEX)
        return b.v("arith.minsi", [x, self.ival(hi)], INDEX)

    def at(self, v: Value, idx: list) -> Value:
        if v in self.scalars:
            return self.scalars[v]
        key = (v, tuple(map(id, idx)))
        if key not in self.cache:
            self.cache[key] = self._compute(v, idx)
        return self.cache[key]

    def _compute(self, v: Value, idx: list) -> Value:
        b = self.b
        if v in self.inputs:
            buf = self.inputs[v]
            return b.v("memref.load", [buf] + list(idx), ScalarType(buf.type.elem))
        op = v.owner
        rule = ELEMENTAL_RULES.get(op.key)
        if rule is None:
            raise op.error("cannot be computed inside a fused kernel")
        return rule(self, op, idx)

    # index helpers
    def add(self, a, c):
        return a if c == 0 else self.b.v("arith.addi", [a, self.b.index(c)], INDEX)

    def mul(self, a, c):
        return a if c == 1 else self.b.v("arith.muli", [a, self.b.index(c)], INDEX)


def _elementwise(e: Elemental, op: Operation, idx):
    args = []
    for v in op.operands:
        args.append(e.at(v, idx if v.type.rank else []))
    return lower_scalar(e.b, op, args)


def _broadcast_in_dim(e: Elemental, op, idx):
    """A size-1 operand dim expands: known statically, or selected at run time."""
    src = op.operands[0]
    src_dims, out_dims = e.dims(src), e.dims(op.results[0])
    src_idx = []
    for i, d in enumerate(op.attrs["broadcast_dimensions"]):
        n, m = src_dims[i], out_dims[d]
        if n == 1 and m != 1:
            src_idx.append(e.b.index(0))
        elif isinstance(n, int) or n is m:
            src_idx.append(idx[d])
        else:
            one = e.b.v("arith.cmpi", [n, e.b.index(1)], ScalarType("i1"), predicate="eq")
            src_idx.append(e.b.v("arith.select", [one, e.b.index(0), idx[d]], INDEX))
    return e.at(src, src_idx)


def _reshape(e: Elemental, op, idx):
    src = op.operands[0]
    in_dims, out_dims = e.dims(src), e.dims(op.results[0])
    squeezed_in = [(i, n) for i, n in enumerate(in_dims) if n != 1]
    squeezed_out = [(i, n) for i, n in enumerate(out_dims) if n != 1]
    if len(squeezed_in) == len(squeezed_out) and all(
            a == b if isinstance(a, int) else a is b for (_, a), (_, b) in zip(squeezed_in, squeezed_out)):
        # only unit dims added or removed: indices map one to one
        zero = e.b.index(0)
        src_idx = [zero] * len(in_dims)
        for (i, _), (o, _) in zip(squeezed_in, squeezed_out):
            src_idx[i] = idx[o]
        return e.at(src, src_idx)
    linear = e.b.index(0)
    for d, n in enumerate(out_dims):
        linear = e.iadd(e.imul(linear, n), idx[d]) if d else idx[d]
    src_idx = [None] * len(in_dims)
    for d in reversed(range(len(in_dims))):
        n = in_dims[d]
        if d == 0:
            src_idx[d] = linear
            break
        src_idx[d] = e.b.v("arith.remui", [linear, e.ival(n)], INDEX)
        linear = e.b.v("arith.divui", [linear, e.ival(n)], INDEX)
    return e.at(src, src_idx)


def _transpose(e: Elemental, op, idx):
    perm = op.attrs["permutation"]
    src_idx = [None] * len(perm)
    for i, p in enumerate(perm):
        src_idx[p] = idx[i]
    return e.at(op.operands[0], src_idx)


def _reverse(e: Elemental, op, idx):
    dims = e.dims(op.results[0])
    src_idx = list(idx)
    for d in op.attrs["dimensions"]:
        last = dims[d] - 1 if isinstance(dims[d], int) else e.isub(dims[d], 1)
        src_idx[d] = e.isub(last, idx[d])
    return e.at(op.operands[0], src_idx)


def _slice(e: Elemental, op, idx):
    starts, strides = op.attrs["start_indices"], op.attrs["strides"]
    src_idx = [e.add(e.mul(i, st), s) for i, s, st in zip(idx, starts, strides)]
    return e.at(op.operands[0], src_idx)


def _pad(e: Elemental, op, idx):
    return _padded(e, op, idx, op.attrs["edge_padding_low"], op.attrs["interior_padding"])


def _dynamic_pad(e: Elemental, op, idx):
    """Pad amounts from tensors (checked on the host: interior >= 0, sizes >= 0)."""
    lo = [e.scalar_index(op.operands[2], [e.b.index(d)]) for d in range(len(idx))]
    inner = [e.scalar_index(op.operands[4], [e.b.index(d)]) for d in range(len(idx))]
    return _padded(e, op, idx, lo, inner)


def _padded(e: Elemental, op, idx, lo, inner):
    """In-bounds positions read the operand (at a clamped, always valid index); others the pad
    value. `lo` and `inner` hold ints, or index values when they come from tensors."""
    b = e.b
    src, pad_value = op.operands[:2]
    valid = None
    src_idx = []
    src_dims = e.dims(src)
    for d, i in enumerate(idx):
        n = src_dims[d]
        j = e.isub(i, lo[d])
        conds = [b.v("arith.cmpi", [j, b.index(0)], ScalarType("i1"), predicate="sge")]
        if inner[d] != 0:
            step = b.index(inner[d] + 1) if isinstance(inner[d], int) else e.iadd(inner[d], 1)
            q = b.v("arith.divsi", [j, step], INDEX)
            r = b.v("arith.remsi", [j, step], INDEX)
            conds.append(b.v("arith.cmpi", [r, b.index(0)], ScalarType("i1"), predicate="eq"))
        else:
            q = j
        conds.append(b.v("arith.cmpi", [q, e.ival(n)], ScalarType("i1"), predicate="slt"))
        for c in conds:
            valid = c if valid is None else b.v("arith.andi", [valid, c], ScalarType("i1"))
        src_idx.append(q)
    if valid is None:
        return e.at(src, [])
    zero = b.index(0)
    safe = [b.v("arith.select", [valid, q, zero], INDEX) for q in src_idx]
    inside = e.at(src, safe)
    outside = e.at(pad_value, [])
    return b.v("arith.select", [valid, inside, outside], ScalarType(src.type.elem))


def _concatenate(e: Elemental, op, idx):
    """A select chain over the operands, each read at a clamped index."""
    b = e.b
    dim = op.attrs["dimension"]
    elem = ScalarType(op.results[0].type.elem)
    pieces, offset = [], 0
    for v in op.operands:
        n = e.dims(v)[dim]
        pieces.append((v, offset, n))
        offset = offset + n if isinstance(offset, int) and isinstance(n, int) else \
            b.v("arith.addi", [e.ival(offset), e.ival(n)], INDEX)
    result = None
    for v, start, n in reversed(pieces):
        if n == 0:
            continue
        # every operand is read at every index (the selects pick one): clamp into its range
        last = n - 1 if isinstance(n, int) else e.isub(n, 1)
        local = e.clamp(e.isub(idx[dim], start), 0, last)
        value = e.at(v, idx[:dim] + [local] + idx[dim + 1:])
        if result is None:
            result = value
            continue
        end = start + n if isinstance(start, int) and isinstance(n, int) else \
            b.v("arith.addi", [e.ival(start), e.ival(n)], INDEX)
        in_range = b.v("arith.cmpi", [idx[dim], e.ival(end)], ScalarType("i1"), predicate="slt")
        result = b.v("arith.select", [in_range, value, result], elem)
    return result


def _real_dynamic_slice(e: Elemental, op, idx):
    src, start, _, strides = op.operands
    src_idx = []
    for d, i in enumerate(idx):
        c = e.b.index(d)
        s0, st = e.scalar_index(start, [c]), e.scalar_index(strides, [c])
        src_idx.append(e.b.v("arith.addi", [e.b.v("arith.muli", [i, st], INDEX), s0], INDEX))
    return e.at(src, src_idx)


def _dhlo_slice(e: Elemental, op, idx):
    src, start = op.operands[0], op.operands[1]
    return e.at(src, [e.b.v("arith.addi", [i, e.scalar_index(start, [e.b.index(d)])], INDEX)
                      for d, i in enumerate(idx)])


def _clamped_starts(e: Elemental, starts, src_dims, sizes):
    """XLA clamps dynamic_slice starts so the window stays inside the operand."""
    out = []
    for s_val, n, size in zip(starts, src_dims, sizes):
        s0 = e.scalar_index(s_val, [])
        hi = n - size if isinstance(n, int) and isinstance(size, int) else e.isub(e.ival(n), size)
        out.append(e.clamp(s0, 0, hi))
    return out


def _dynamic_slice(e: Elemental, op, idx):
    src = op.operands[0]
    starts = _clamped_starts(e, op.operands[1:], e.dims(src), op.attrs["slice_sizes"])
    return e.at(src, [e.b.v("arith.addi", [i, s0], INDEX) for i, s0 in zip(idx, starts)])


def _dynamic_update_slice(e: Elemental, op, idx):
    b = e.b
    src, upd = op.operands[0], op.operands[1]
    upd_dims = e.dims(upd)
    starts = _clamped_starts(e, op.operands[2:], e.dims(src), upd_dims)
    inside, local = None, []
    for i, s0, n in zip(idx, starts, upd_dims):
        j = b.v("arith.subi", [i, s0], INDEX)
        ok = b.v("arith.andi", [b.v("arith.cmpi", [j, b.index(0)], ScalarType("i1"), predicate="sge"),
                                b.v("arith.cmpi", [j, e.ival(n)], ScalarType("i1"), predicate="slt")],
                 ScalarType("i1"))
        inside = ok if inside is None else b.v("arith.andi", [inside, ok], ScalarType("i1"))
        local.append(j)
    if inside is None:
        return e.at(upd, [])
    safe = [b.v("arith.select", [inside, j, b.index(0)], INDEX) for j in local]
    new, old = e.at(upd, safe), e.at(src, idx)
    return b.v("arith.select", [inside, new, old], ScalarType(src.type.elem))


def _iota(e: Elemental, op, idx):
    elem = op.results[0].type.elem
    i = idx[op.attrs["iota_dimension"]] if idx else e.b.index(0)
    as_int = e.b.v("arith.index_cast", [i], ScalarType("i64"))
    return Scalars(e.b).convert(as_int, "i64", elem)


def _constant(e: Elemental, op, idx):
    arr = np.asarray(op.attrs["value"].array).reshape(-1)
    elem = op.results[0].type.elem
    x = arr[0]
    return e.b.const(bool(x) if elem == "i1" else (float(x) if arr.dtype.kind == "f" or elem == "bf16"
                                                   else int(x)), elem)


ELEMENTAL_RULES = {
    "broadcast_in_dim": _broadcast_in_dim, "reshape": _reshape, "transpose": _transpose,
    "reverse": _reverse, "slice": _slice, "pad": _pad, "concatenate": _concatenate,
    "iota": _iota, "constant": _constant, "dynamic_broadcast_in_dim": _broadcast_in_dim,
    "dynamic_reshape": _reshape, "dynamic_iota": _iota, "real_dynamic_slice": _real_dynamic_slice,
    "dhlo.slice": _dhlo_slice, "dynamic_slice": _dynamic_slice, "dynamic_pad": _dynamic_pad,
    "dynamic_update_slice": _dynamic_update_slice,
}
for _name in ("abs negate sign exponential exponential_minus_one log log_plus_one logistic tanh "
              "sqrt rsqrt cbrt sine cosine tan floor ceil round_nearest_afz round_nearest_even not "
              "popcnt count_leading_zeros is_finite convert bitcast_convert add subtract multiply "
              "divide remainder power maximum minimum atan2 and or xor shift_left "
              "shift_right_arithmetic shift_right_logical compare select clamp").split():
    ELEMENTAL_RULES[_name] = _elementwise


def apply_region(b: LoopBuilder, region: Region, args: list) -> list:
    """Inline a scalar region (a reduce body) on scalar `args`; returns its results."""
    block = region.blocks[0]
    e = Elemental(b, {}, dict(zip(block.args, args)))
    ret = block.ops[-1]
    return [e.at(v, []) for v in ret.operands]


# ----------------------------------------------------------------------------- kernels


class KernelEmitter:
    """Outlines each LHLO kernel op of a host function into a kernel function."""

    def __init__(self, module: Module, host: Operation):
        self.module = module
        self.host = host
        self.kernels: list[Operation] = []
        self.prefix = host.attrs["sym_name"]
        self.followups: list[Operation] = []  # kernels an emitter adds, called after its own

    def new_kernel(self, op: Operation, buffers: list):
        name = f"{self.prefix}_kernel_{len(self.kernels)}"
        block = Block([v.type for v in buffers])
        fn = Operation("func.func", [], [], {
            "sym_name": name, "sym_visibility": "private",
            "function_type": FunctionType(tuple(v.type for v in buffers), ()),
            "aot.kernel": op.short_name}, [Region([block])], op.loc)
        if len(set(buffers)) < len(buffers):  # an in-place result: arguments alias
            fn.attrs["aot.aliased"] = True
        self.kernels.append(fn)
        return fn, LoopBuilder(block, op.loc), block.args

    def run(self):
        self.run_block(self.host.regions[0].blocks[0])
        return self.kernels

    def run_block(self, block: Block) -> None:
        """Kernel ops become calls; host control flow keeps its regions, lowered alike."""
        new_ops = []
        for op in block.ops:
            if op.dialect not in ("lmhlo", "ldhlo"):
                for region in op.regions:
                    for inner in region.blocks:
                        self.run_block(inner)
                new_ops.append(op)
                continue
            if op.short_name == "copy":
                new_ops.append(Operation("memref.copy", op.operands, [], {}, loc=op.loc))
                continue
            emit = KERNEL_EMITTERS.get(op.key)
            if emit is None:
                raise op.error("no loop lowering for this op")
            buffers = list(op.operands)  # buffers, then the run-time dims a fusion needs
            fn, b, args = self.new_kernel(op, buffers)
            emit(self, op, b, args)
            b.op("func.return", [])
            call = Operation("func.call", buffers, [], {"callee": SymbolRef(fn.attrs["sym_name"]),
                                                        "aot.writes": kernel_outputs(op)}, loc=op.loc)
            mark_parallel(op, fn, call)
            new_ops.append(call)
            for extra in self.followups:  # e.g. combining a split reduction's partials
                later = Operation("func.call", buffers, [], {
                    "callee": SymbolRef(extra.attrs["sym_name"]),
                    "aot.writes": kernel_outputs(op)}, loc=op.loc)
                mark_parallel(op, extra, later)
                new_ops.append(later)
            self.followups = []
        block.ops = []
        for op in new_ops:
            block.append(op)


def fusion_dims(b: LoopBuilder, region_block: Block, inputs: dict, dim_args: list) -> dict:
    """Run-time dims of every value in a fusion: inputs read once from their buffers,
    internal values from the kernel's index arguments (computed by the host)."""
    env = {}
    for arg, buf in inputs.items():
        env[arg] = [n if n is not None else b.v("memref.dim", [buf, b.index(d)], INDEX)
                    for d, n in enumerate(buf.type.shape)]
    it = iter(dim_args)
    for op in region_block.ops[:-1]:
        for r in op.results:
            env[r] = [n if n is not None else next(it) for n in r.type.shape]
    return env


PARALLEL_KERNELS = {"fusion", "dot_general", "dot"}


def mark_parallel(op: Operation, fn: Operation, call: Operation) -> None:
    """A kernel whose one outermost loop runs over dim 0 of its first output writes disjoint
    parts of it per iteration: that loop may be split across threads. The call says which
    operand has the extent; the host decides at run time whether the work is worth it."""
    if op.key not in PARALLEL_KERNELS:
        return
    loops = [o for o in fn.regions[0].blocks[0].ops if o.name == "scf.for"]
    first_out = fn.attrs.pop("aot.parallel_over", kernel_outputs(op)[0])
    if len(loops) != 1 or op.operands[first_out].type.rank == 0:
        return
    loops[0].attrs["aot.parallel"] = True
    fn.attrs["aot.parallel"] = True
    call.attrs["aot.parallel"] = first_out
    # the loop may step over blocks of dim 0 (matmul rows): the host splits block numbers
    call.attrs["aot.parallel_block"] = loops[0].attrs.get("aot.rows_per_iteration", 1)


def kernel_outputs(op: Operation) -> tuple:
    """Operand positions a kernel writes (the host's shape queries follow them)."""
    if op.short_name == "fusion":
        n_in = len(op.regions[0].blocks[0].args)
        n_buf = op.attrs.get("num_buffers", len(op.operands))
        return tuple(range(n_in, n_buf - op.attrs.get("aot.scratch", 0)))
    if op.key == "scatter":  # inputs..., indices, updates..., outs...
        n_out = (len(op.operands) - 1) // 3
    elif op.key == "reduce_window":  # inputs..., inits..., outs...
        n_out = len(op.operands) // 3
    elif op.key == "sort":  # inputs..., outs..., scratch...
        n_out = 2 * op.attrs["aot.scratch"]
    elif op.key == "top_k":  # x, values, indices, scratch...
        n_out = 2 + op.attrs["aot.scratch"]
    elif op.key == "convolution":  # input, kernel, result, scratch...
        return (2,)
    else:
        n_out = {"dhlo.where": 2, "dhlo.unique": 3}.get(op.key, 1)
    return tuple(range(len(op.operands) - n_out, len(op.operands)))


def emit_fusion(k: KernelEmitter, op: Operation, b: LoopBuilder, args: list):
    region_block = op.regions[0].blocks[0]
    n_in = len(region_block.args)
    n_buf = op.attrs.get("num_buffers", len(args))
    n_out = n_buf - op.attrs.get("aot.scratch", 0)
    inputs = dict(zip(region_block.args, args[:n_in]))
    outs = args[n_in:n_out]
    env = fusion_dims(b, region_block, inputs, args[n_buf:])
    ret = region_block.ops[-1]
    root = ret.operands[0].owner
    if op.attrs.get("aot.scratch"):  # bufferize.split_column_reduction
        return emit_split_columns(k, op, b, root, inputs, outs[0], n_out, env)
    if op.attrs.get("fusion_kind") == "kInput" and root.short_name == "reduce":
        return emit_reduce(b, root, inputs, outs, env)
    if op.attrs.get("fusion_kind") == "kInput":
        return emit_row_fusion(b, region_block, inputs, outs[0], env)
    if op.attrs.get("fusion_kind") == "kOutput":
        return emit_matmul_epilogue(b, region_block, inputs, outs[0], env)
    out = outs[0]
    inner, ivs = loop_nest(b, dims_of(b, out))
    e = Elemental(inner, inputs, dims=env)
    value = e.at(ret.operands[0], ivs)
    inner.op("memref.store", [value, out] + ivs)
    close_nest(inner, len(ivs))


def emit_row_fusion(b: LoopBuilder, region_block: Block, inputs: dict, out, env: dict):
    """A kInput fusion with an elementwise root (fusion.joins_as_row_reduction): for each
    row of the output, each reduction over the last dim in program order, then the row's
    elements. A reduction's row is the output row, clamped to its operand's row dims,
    which is the row a broadcast reads (the same one, or row 0 of a size-1 dim); later
    reductions and the elements read its value as a scalar."""
    ret = region_block.ops[-1]
    out_dims = dims_of(b, out)
    rows, rivs = loop_nest(b, out_dims[:-1])
    scalars: dict = {}
    reductions = [o for o in region_block.ops if o.key == "reduce"]
    kept = row_cached_value(ret.operands[0], reductions[-1], out)
    for red in reductions:
        x, init = red.operands
        in_dims = env[x] if x in env else Elemental(rows, inputs).dims(x)
        row = [iv if isinstance(n, int) and n == m else
               rows.v("arith.minsi", [iv, rows.v("arith.subi", [_as_index(rows, n), rows.index(1)],
                                                 INDEX)], INDEX)
               for iv, n, m in zip(rivs, in_dims[:-1], out.type.shape[:-1])]
        e = Elemental(rows, inputs, scalars, env)
        loop, body, c, (acc,) = rows.for_(rows.index(0), _as_index(rows, in_dims[-1]), [e.at(init, [])])
        inner = Elemental(body, inputs, scalars, env)
        value = inner.at(x, row + [c])
        if x is kept:  # the result row holds it until the last walk reads it back
            body.op("memref.store", [value, out] + rivs + [c])
        (new,) = apply_reduction_body(body, red, [acc, value])
        body.yield_([new])
        scalars[red.results[0]] = loop.results[0]
    cols, (c,) = loop_nest(rows, out_dims[-1:])
    e = Elemental(cols, {**inputs, kept: out} if kept is not None else inputs, scalars, env)
    cols.op("memref.store", [e.at(ret.operands[0], rivs + [c]), out] + rivs + [c])
    close_nest(cols, 1)
    close_nest(rows, len(rivs))


def row_cached_value(root_value: Value, last: Operation, out) -> Value | None:
    """The last reduction's operand, when the result also reads it elementwise (softmax's
    exp): it then has the result's shape, and the reduction's walk stores it in the result
    row, so the final walk loads it instead of computing it again."""
    x = last.operands[0]
    if x.type.elem != out.type.elem or not isinstance(x.owner, Operation):
        return None  # a kernel input is read from its own buffer anyway
    frontier, seen = [root_value], set()
    while frontier:
        v = frontier.pop()
        if v is x:
            return x
        if v in seen or not isinstance(v.owner, Operation) or v.owner.key not in ELEMENTWISE:
            continue
        seen.add(v)
        frontier.extend(v.owner.operands)
    return None


def _as_index(b: LoopBuilder, d):
    return b.index(d) if isinstance(d, int) else d


def emit_matmul_epilogue(b: LoopBuilder, region_block: Block, inputs: dict, out, env: dict):
    """A kOutput fusion: the packed matmul writes the product into the result buffer, and
    its region, run on each finished tile [i0, i1) x [j0, j1) of batch index `bi`,
    overwrites the tile with the fused consumers' value (fusion.joins_as_matmul). The
    region's uses of kernel values from outside become the op's extra operands."""
    dot = next(o for o in region_block.ops if o.key in ("dot_general", "dot"))
    product, root_value = dot.results[0], region_block.ops[-1].operands[0]
    runs = packed_runs(dot)
    nb, nm = runs["lhs_runs"][1] - runs["lhs_runs"][0], runs["lhs_runs"][3] - runs["lhs_runs"][2]
    tile = Block([INDEX] * 5)
    eb = LoopBuilder(tile, b.loc)
    bi, i0, i1, j0, j1 = tile.args
    out_dims = dims_of(eb, out)

    def unflatten(lb: LoopBuilder, flat, dims):
        idx = []
        for d in reversed(dims):
            idx.append(lb.v("arith.remui", [flat, d], INDEX))
            flat = lb.v("arith.divui", [flat, d], INDEX)
        return idx[::-1]
    batch_idx = unflatten(eb, bi, out_dims[:nb])
    _, row, i, _ = eb.for_(i0, i1)
    row_idx = unflatten(row, i, out_dims[nb:nb + nm])
    _, col, j, _ = row.for_(j0, j1)
    idx = batch_idx + row_idx + ([j] if len(out_dims) > nb + nm else [])
    e = Elemental(col, {**inputs, product: out}, dims=env)
    col.op("memref.store", [e.at(root_value, idx), out] + idx)
    col.yield_()
    row.yield_()
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
    lhs, rhs = (inputs[v] for v in dot.operands)
    b.op("aot.gemm", [lhs, rhs, out] + captured, attrs=runs, regions=[Region([tile])])


def place(rank: int, *groups) -> list:
    """An index of `rank` entries from (dim, value) pairs: a reduction's kept and reduced
    loop variables put back in the operand's dim order."""
    idx = [None] * rank
    for group in groups:
        for d, iv in group:
            idx[d] = iv
    return idx


def emit_reduce(b: LoopBuilder, root: Operation, inputs: dict, outs: list, env: dict):
    """Loops over the kept dims outside, the reduced dims inside with accumulators in registers."""
    n = len(root.operands) // 2
    ins, inits = root.operands[:n], root.operands[n:]
    dims = root.attrs["dimensions"]
    in_dims = env[ins[0]] if ins[0] in env else list(ins[0].type.shape)
    as_index = [b.index(d) if isinstance(d, int) else d for d in in_dims]
    kept = [d for d in range(len(in_dims)) if d not in dims]
    if kept and dims and max(dims) < min(kept):  # column-wise: accumulate in data order
        return emit_reduce_columns(b, root, inputs, outs, env, as_index, kept)
    outer, out_ivs = loop_nest(b, [as_index[d] for d in kept])
    e = Elemental(outer, inputs, dims=env)
    accs = [e.at(v, []) for v in inits]
    body, cur = outer, accs
    red_ivs = []
    loops = []
    for d in dims:
        loop, body, iv, iters = body.for_(body.index(0), as_index[d], cur)
        loops.append((loop, body))
        red_ivs.append(iv)
        cur = list(iters)
    full_idx = place(len(in_dims), zip(kept, out_ivs), zip(dims, red_ivs))
    inner_e = Elemental(body, inputs, dims=env)
    xs = [inner_e.at(v, full_idx) for v in ins]
    new = apply_reduction_body(body, root, cur + xs)
    if not loops:  # nothing reduced: the body combines init and element once
        final = new
    else:
        body.yield_(new)
        # close reduction loops: each outer loop yields the inner loop's results
        for (loop, lb), (outer_loop, ob) in zip(reversed(loops[1:]), reversed(loops[:-1])):
            ob.yield_(loop.results)
        final = loops[0][0].results
    for v, out in zip(final, outs):
        outer.op("memref.store", [v, out] + out_ivs)
    close_nest(outer, len(out_ivs))


def emit_reduce_columns(b: LoopBuilder, root: Operation, inputs: dict, outs: list, env: dict,
                        as_index: list, kept: list):
    """Reduced dims before every kept dim (a column sum): walk the input in memory order,
    keeping one accumulator per output element in the output buffer itself. Each output
    accumulates its elements in order; the inner loop runs along contiguous rows and
    vectorises across outputs (0.5 to 21 GB/s for the column sums of 8192x4096 f32)."""
    n = len(root.operands) // 2
    ins, inits = root.operands[:n], root.operands[n:]
    reduced = [d for d in range(len(as_index)) if d not in kept]
    init_b, kivs = loop_nest(b, [as_index[d] for d in kept])
    e = Elemental(init_b, inputs, dims=env)
    for v, out in zip(inits, outs):
        init_b.op("memref.store", [e.at(v, []), out] + kivs)
    close_nest(init_b, len(kivs))
    rows, rivs = loop_nest(b, [as_index[d] for d in reduced])
    body, kivs = loop_nest(rows, [as_index[d] for d in kept])
    full_idx = place(len(as_index), zip(reduced, rivs), zip(kept, kivs))
    inner_e = Elemental(body, inputs, dims=env)
    accs = [body.v("memref.load", [out] + kivs, ScalarType(out.type.elem)) for out in outs]
    xs = [inner_e.at(v, full_idx) for v in ins]
    new = apply_region(body, root.regions[0], accs + xs)
    for v, out in zip(new, outs):
        body.op("memref.store", [v, out] + kivs)
    close_nest(body, len(kivs))
    close_nest(rows, len(rivs))


def emit_split_columns(k: KernelEmitter, op: Operation, b: LoopBuilder, root: Operation,
                       inputs: dict, out, part_at: int, env: dict):
    """A column reduction in two kernels (bufferize.split_column_reduction). This one:
    chunk c of the rows (the reduced dims, flattened) reduced in memory order into
    partial[c, kept...], the chunks split over threads; chunk 0 starts from the init
    value, the others from their first row. The follow-up kernel: out[kept...] = partial
    0 combined with the other non-empty chunks' partials, in chunk order. The chunk count
    does not depend on the thread count, so neither do the results."""
    from lowering.passes.bufferize import COLUMN_CHUNKS
    x, init = root.operands
    elem = ScalarType(out.type.elem)
    nred = len(root.attrs["dimensions"])
    part = b.block.args[part_at]

    def rows_and_chunk(lb: LoopBuilder, env: dict, inputs: dict):
        dims = [_as_index(lb, d) for d in (env[x] if x in env else Elemental(lb, inputs).dims(x))]
        rows = dims[0]
        for d in dims[1:nred]:
            rows = lb.v("arith.muli", [rows, d], INDEX)
        chunk = lb.v("arith.divui", [lb.v("arith.addi", [rows, lb.index(COLUMN_CHUNKS - 1)], INDEX),
                                     lb.index(COLUMN_CHUNKS)], INDEX)
        return dims, rows, lb.v("arith.maxui", [chunk, lb.index(1)], INDEX)

    def trips(lb: LoopBuilder, cond):
        return lb.v("arith.select", [cond, lb.index(1), lb.index(0)], INDEX)
    dims, rows, chunk = rows_and_chunk(b, env, inputs)
    k.kernels[-1].attrs["aot.parallel_over"] = part_at  # threads split the chunk loop
    _, cb, c, _ = b.for_(b.index(0), b.index(COLUMN_CHUNKS))
    lo = cb.v("arith.minui", [cb.v("arith.muli", [c, chunk], INDEX), rows], INDEX)
    hi = cb.v("arith.minui", [cb.v("arith.addi", [lo, chunk], INDEX), rows], INDEX)
    first = cb.v("arith.cmpi", [c, cb.index(0)], ScalarType("i1"), predicate="eq")
    has_rows = cb.v("arith.cmpi", [lo, hi], ScalarType("i1"), predicate="ult")

    def row_index(lb: LoopBuilder, r):
        ivs, flat = [], r
        for d in reversed(dims[1:nred]):
            ivs.append(lb.v("arith.remui", [flat, d], INDEX))
            flat = lb.v("arith.divui", [flat, d], INDEX)
        return [flat] + ivs[::-1]
    _, seed, _, _ = cb.for_(cb.index(0), trips(cb, first))  # chunk 0: the init value
    sb, kivs = loop_nest(seed, dims[nred:])
    sb.op("memref.store", [Elemental(sb, inputs, dims=env).at(init, []), part, c] + kivs)
    close_nest(sb, len(kivs))
    seed.yield_()
    later = cb.v("arith.andi", [has_rows, cb.v("arith.xori", [first, cb.const(True, "i1")],
                                                ScalarType("i1"))], ScalarType("i1"))
    _, seed, _, _ = cb.for_(cb.index(0), trips(cb, later))  # another chunk: its first row
    sb, kivs = loop_nest(seed, dims[nred:])
    sb.op("memref.store", [Elemental(sb, inputs, dims=env).at(x, row_index(sb, lo) + kivs),
                           part, c] + kivs)
    close_nest(sb, len(kivs))
    seed.yield_()
    start = cb.v("arith.select", [later, cb.v("arith.addi", [lo, cb.index(1)], INDEX), lo], INDEX)
    _, rb, r, _ = cb.for_(start, hi)
    ridx = row_index(rb, r)
    body, kivs = loop_nest(rb, dims[nred:])
    acc = body.v("memref.load", [part, c] + kivs, elem)
    value = Elemental(body, inputs, dims=env).at(x, ridx + kivs)
    (new,) = apply_region(body, root.regions[0], [acc, value])
    body.op("memref.store", [new, part, c] + kivs)
    close_nest(body, len(kivs))
    rb.yield_()
    cb.yield_()

    fn, cbld, args = k.new_kernel(op, list(op.operands))
    k.followups.append(fn)
    region_block = op.regions[0].blocks[0]
    n_in = len(region_block.args)
    inputs2 = dict(zip(region_block.args, args[:n_in]))
    env2 = fusion_dims(cbld, region_block, inputs2, args[op.attrs["num_buffers"]:])
    part, out2 = args[part_at], args[list(b.block.args).index(out)]
    _, rows2, chunk2 = rows_and_chunk(cbld, env2, inputs2)
    used = cbld.v("arith.divui", [cbld.v("arith.addi", [rows2, cbld.v(
        "arith.subi", [chunk2, cbld.index(1)], INDEX)], INDEX), chunk2], INDEX)
    outer, kivs = loop_nest(cbld, dims_of(cbld, out2))
    total = outer.v("memref.load", [part, outer.index(0)] + kivs, elem)
    loop, ib, c, (acc,) = outer.for_(outer.index(1), used, [total])
    p = ib.v("memref.load", [part, c] + kivs, elem)
    ib.yield_(apply_region(ib, root.regions[0], [acc, p]))
    outer.op("memref.store", [loop.results[0], out2] + kivs)
    close_nest(outer, len(kivs))
    cbld.op("func.return", [])


REASSOCIABLE = {"arith.addf", "arith.mulf", "arith.maximumf", "arith.minimumf"}


def apply_reduction_body(b: LoopBuilder, red: Operation, args: list) -> list:
    """A reduce's body on (accumulators..., elements...), its float combiners marked as
    reorderable (as XLA reorders reductions): LLVM then keeps vector accumulators."""
    first = len(b.block.ops)
    new = apply_region(b, red.regions[0], args)
    for acc_op in b.block.ops[first:]:
        if acc_op.name in REASSOCIABLE:
            acc_op.attrs["fastmath"] = "reassoc"
    return new


def emit_dot(k: KernelEmitter, op: Operation, b: LoopBuilder, args: list):
    """out[batch, lfree, rfree] = sum over contracting dims of lhs * rhs, accumulated in the
    result type."""
    lhs, rhs, out = args
    lhs_t, rhs_t = op.operands[0].type, op.operands[1].type
    lb_, rb_, lc, rc = dot_general_dims(op)
    out_elem = out.type.elem
    if out_elem == "i1":
        raise op.error("dot of booleans is not supported")
    lfree = [d for d in range(lhs_t.rank) if d not in lb_ and d not in lc]
    rfree = [d for d in range(rhs_t.rank) if d not in rb_ and d not in rc]
    acc_elem = "f32" if out_elem in ("f16", "bf16") else out_elem
    runs = packed_runs(op)
    if runs is not None:
        b.op("aot.gemm", [lhs, rhs, out], attrs=runs)
        return
    if (rfree and rfree[-1] == rhs_t.rank - 1 and acc_elem == out_elem
            and lhs_t.elem == rhs_t.elem == out_elem):
        return emit_dot_rows(b, lhs, rhs, out, (lb_, rb_, lc, rc), lfree, rfree)
    outer, ivs = loop_nest(b, dims_of(b, out))
    nb = len(lb_)
    acc_elem = "f32" if out_elem in ("f16", "bf16") else out_elem
    s = Scalars(outer)
    zero = outer.const(0, acc_elem)
    body, cur, loops, civs = outer, [zero], [], []
    lhs_dims = dims_of(outer, lhs)
    for d in lc:
        loop, body, iv, iters = body.for_(body.index(0), lhs_dims[d], cur)
        loops.append((loop, body))
        civs.append(iv)
        cur = list(iters)
    lidx, ridx = [None] * lhs_t.rank, [None] * rhs_t.rank
    for i, (l, r) in enumerate(zip(lb_, rb_)):
        lidx[l] = ivs[i]
        ridx[r] = ivs[i]
    for i, d in enumerate(lfree):
        lidx[d] = ivs[nb + i]
    for i, d in enumerate(rfree):
        ridx[d] = ivs[nb + len(lfree) + i]
    for l, r, iv in zip(lc, rc, civs):
        lidx[l] = iv
        ridx[r] = iv
    bs = Scalars(body)
    x = bs.convert(body.v("memref.load", [lhs] + lidx, ScalarType(lhs_t.elem)), lhs_t.elem, acc_elem)
    y = bs.convert(body.v("memref.load", [rhs] + ridx, ScalarType(rhs_t.elem)), rhs_t.elem, acc_elem)
    from lowering.ir.core import is_float
    mul, add = ("arith.mulf", "arith.addf") if is_float(acc_elem) else ("arith.muli", "arith.addi")
    prod = body.v(mul, [x, y], ScalarType(acc_elem))
    total = body.v(add, [cur[0], prod], ScalarType(acc_elem))
    if add == "arith.addf":  # a dot product may be reordered: LLVM keeps vector accumulators
        total.owner.attrs["fastmath"] = "reassoc"
    if not loops:  # no contracting dims: an outer product
        result = total
    else:
        body.yield_([total])
        for (loop, _), (_, ob) in zip(reversed(loops[1:]), reversed(loops[:-1])):
            ob.yield_(loop.results)
        result = loops[0][0].results[0]
    outer.op("memref.store", [s.convert(result, acc_elem, out_elem), out] + ivs)
    close_nest(outer, len(ivs))


ROW_BLOCK = 4  # output rows computed together: each rhs row loaded feeds this many FMAs


def emit_dot_rows(b: LoopBuilder, lhs, rhs, out, dims, lfree, rfree):
    """The i-k-j order: output rows accumulate lhs[i, k] * rhs[k, :], so the innermost loop
    runs along the contiguous last dim of rhs and out, and vectorises. Rows go ROW_BLOCK at
    a time (then one by one for the rest), so each rhs element loaded serves several rows."""
    lb_, rb_, lc, rc = dims
    out_dims = dims_of(b, out)
    nb, nl = len(lb_), len(lfree)
    if nl == 0:  # no row dim to block: one row per batch index
        outer, prefix = loop_nest(b, out_dims[:nb])
        _dot_row_block(outer, lhs, rhs, out, dims, lfree, rfree, prefix, [])
        close_nest(outer, len(prefix))
        return
    outer, prefix = loop_nest(b, out_dims[:nb + nl - 1])
    m = out_dims[nb + nl - 1]
    # one loop over blocks of rows (the parallel one when nothing is outside it); a block
    # that would run past the last row does its rows one by one instead. Loops of 0 or 1
    # trips stand for the two cases.
    blocks = outer.v("arith.divui", [outer.v("arith.addi", [m, outer.index(ROW_BLOCK - 1)], INDEX),
                                     outer.index(ROW_BLOCK)], INDEX)
    block_loop, body, ib, _ = outer.for_(outer.index(0), blocks)
    block_loop.attrs["aot.rows_per_iteration"] = ROW_BLOCK
    base = body.v("arith.muli", [ib, body.index(ROW_BLOCK)], INDEX)
    end = body.v("arith.addi", [base, body.index(ROW_BLOCK)], INDEX)
    full = body.v("arith.cmpi", [end, m], ScalarType("i1"), predicate="ule")
    one, zero = body.index(1), body.index(0)
    _, fast, _, _ = body.for_(zero, body.v("arith.select", [full, one, zero], INDEX))
    rows = [base] + [fast.v("arith.addi", [base, fast.index(r)], INDEX) for r in range(1, ROW_BLOCK)]
    _dot_row_block(fast, lhs, rhs, out, dims, lfree, rfree, prefix, rows)
    fast.yield_()
    tail_start = body.v("arith.select", [full, m, base], INDEX)
    _, rest, i, _ = body.for_(tail_start, m)
    _dot_row_block(rest, lhs, rhs, out, dims, lfree, rfree, prefix, [i])
    rest.yield_()
    body.yield_()
    close_nest(outer, len(prefix))


def _dot_row_block(b: LoopBuilder, lhs, rhs, out, dims, lfree, rfree, prefix, rows):
    """out[prefix, row, :] = sum over k of lhs[prefix, row, k] * rhs[k, :], for each row."""
    from lowering.ir.core import is_float
    lb_, rb_, lc, rc = dims
    elem = out.type.elem
    nb = len(lb_)
    out_dims, lhs_dims = dims_of(b, out), dims_of(b, lhs)
    row_sets = [prefix + [r] for r in rows] if rows else [list(prefix)]
    zero = b.const(0, elem)
    clear, j0 = loop_nest(b, out_dims[len(row_sets[0]):])
    for row_ivs in row_sets:
        clear.op("memref.store", [zero, out] + row_ivs + j0)
    close_nest(clear, len(j0))
    kb, kivs = loop_nest(b, [lhs_dims[d] for d in lc])

    def lhs_index(row_ivs):
        idx = [None] * lhs.type.rank
        for i, l in enumerate(lb_):
            idx[l] = row_ivs[i]
        for i, d in enumerate(lfree):
            idx[d] = row_ivs[nb + i]
        for l, iv in zip(lc, kivs):
            idx[l] = iv
        return idx
    a = [kb.v("memref.load", [lhs] + lhs_index(r), ScalarType(elem)) for r in row_sets]
    inner, jivs = loop_nest(kb, out_dims[len(row_sets[0]):])
    ridx = [None] * rhs.type.rank
    for i, r in enumerate(rb_):
        ridx[r] = row_sets[0][i]
    for r, iv in zip(rc, kivs):
        ridx[r] = iv
    for d, iv in zip(rfree, jivs):
        ridx[d] = iv
    x = inner.v("memref.load", [rhs] + ridx, ScalarType(elem))
    mul, add = ("arith.mulf", "arith.addf") if is_float(elem) else ("arith.muli", "arith.addi")
    for a_r, row_ivs in zip(a, row_sets):
        acc = inner.v("memref.load", [out] + row_ivs + jivs, ScalarType(elem))
        total = inner.v(add, [acc, inner.v(mul, [a_r, x], ScalarType(elem))], ScalarType(elem))
        inner.op("memref.store", [total, out] + row_ivs + jivs)
    close_nest(inner, len(jivs))
    close_nest(kb, len(kivs))


def emit_where(k: KernelEmitter, op: Operation, b: LoopBuilder, args: list):
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


def emit_unique(k: KernelEmitter, op: Operation, b: LoopBuilder, args: list):
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


KERNEL_EMITTERS = {
    "dhlo.where": emit_where,
    "dhlo.unique": emit_unique,
    "fusion": emit_fusion,
    "dot_general": emit_dot,
    "dot": emit_dot,
}


def lower_to_loops(module: Module) -> Module:
    kernels = []
    for func in module.functions():
        if "aot.kernel" in func.attrs:
            continue
        kernels.extend(KernelEmitter(module, func).run())
    module.ops.extend(kernels)
    return module

# gather, dynamic_gather (elemental), scatter (kernel): lowering/gather.py
from lowering.ops.gather import ELEMENTAL_RULES as _gather_elemental, KERNEL_EMITTERS as _gather_kernels  # noqa: E402
ELEMENTAL_RULES.update(_gather_elemental)
KERNEL_EMITTERS.update(_gather_kernels)

# chlo elementwise ops and reduce_precision: lowering/chlo.py
from lowering.ops.chlo import NEW_BINARY as _chlo_binary, NEW_UNARY as _chlo_unary  # noqa: E402
ELEMENTAL_RULES.update({_n: _elementwise for _n in _chlo_unary | _chlo_binary})

# sort, top_k (kernels): lowering/sort.py
from lowering.ops.sort import KERNEL_EMITTERS as _sort_kernels  # noqa: E402
KERNEL_EMITTERS.update(_sort_kernels)

# reduce_window, convolution, select_and_scatter (kernels): lowering/windows.py
from lowering.ops.windows import KERNEL_EMITTERS as _win_kernels  # noqa: E402
KERNEL_EMITTERS.update(_win_kernels)
