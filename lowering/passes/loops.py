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

import math
from contextlib import contextmanager

from lowering.ir.builder import Ix, LoopBuilder, dims_of, element_loop, element_nest, loop_nest
from lowering.ir.core import (
    INDEX,
    Block,
    FunctionType,
    MemRefType,
    Module,
    Operation,
    Region,
    ScalarType,
    SymbolRef,
    Value,
)
from lowering.ops import registry
from lowering.ops.elemental import Elemental, Partial, apply_region, fusion_dims, reads_at_own_index
from lowering.passes import kernel_ranges
from lowering.passes.fusion import OUTPUT_ROOTS
from lowering.target import WHOLE_ROWS

# ----------------------------------------------------------------------------- kernels


class KernelEmitter:
    """Outlines each LHLO kernel op of a host function into a kernel function."""

    def __init__(self, module: Module, host: Operation, target):
        self.module = module
        self.host = host
        self.target = target
        self.kernels: list[Operation] = []
        self.prefix = host.attrs["sym_name"]
        self.followups: list[Operation] = []  # kernels an emitter adds, called after its own
        self._host_dims: dict | None = None

    def host_dims(self, buffer: Value) -> dict:
        """{dim: host value} of a host buffer's run-time dims, where the host names them: the
        operands of its `memref.alloc`, or a `memref.dim` of it (an entry argument)."""
        if self._host_dims is None:
            self._host_dims = {}
            for op in self.host.walk():
                if op.name == "memref.alloc" and op.operands:
                    shape = op.result.type.shape
                    dynamic = [d for d, n in enumerate(shape) if n is None]
                    if len(dynamic) == len(op.operands):
                        self._host_dims[op.result] = dict(zip(dynamic, op.operands))
                elif op.name == "memref.dim":
                    index = op.operands[1].owner
                    if isinstance(index, Operation) and index.name == "arith.constant":
                        self._host_dims.setdefault(op.operands[0], {})[index.attrs["value"]] = op.result
        return self._host_dims.get(buffer, {})

    def new_kernel(self, op: Operation, buffers: list):
        name = f"{self.prefix}_kernel_{len(self.kernels)}"
        block = Block([v.type for v in buffers])
        fn = Operation("func.func", [], [], {
            "sym_name": name, "sym_visibility": "private",
            "function_type": FunctionType(tuple(v.type for v in buffers), ()),
            "aot.kernel": op.short_name}, [Region([block])], op.loc)
        if len(set(buffers)) < len(buffers):  # an in-place result: arguments alias
            first = {}
            fn.attrs["aot.aliased"] = tuple(first.setdefault(v, i) for i, v in enumerate(buffers))
        self.kernels.append(fn)
        return fn, LoopBuilder(block, op.loc, self.target), block.args

    def new_call(self, op: Operation, fn: Operation, buffers: list) -> Operation:
        """The host's call of kernel `fn` of `op` on `buffers`, marked for threads."""
        call = Operation("func.call", buffers, [], {"callee": SymbolRef(fn.attrs["sym_name"]),
                                                    "aot.writes": kernel_outputs(op)}, loc=op.loc)
        mark_parallel(op, fn, call, self.target)
        return call

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
            emit = emit_fusion if op.key == "fusion" else registry.rule(op, "kernel", self.target)
            if emit is None:
                raise op.error("no loop lowering for this op")
            buffers = list(op.operands)  # buffers, then the run-time dims a fusion needs
            fn, b, args = self.new_kernel(op, buffers)
            emit(self, op, b, args)
            b.op("func.return", [])
            fold_known_loads(fn, op.attrs.get("aot.known", ()))
            call = self.new_call(op, fn, buffers)
            drop_repeated_dims(fn, call)
            dims_as_arguments(fn, call, self.host_dims)
            kernel_ranges.simplify(fn)
            subject = library_subject(op)
            library = registry.rule(subject, "library_call", self.target)
            new_ops.extend(library(self, op, subject, call) if library is not None else [call])
            for extra in self.followups:  # e.g. combining a split reduction's partials
                new_ops.append(self.new_call(op, extra, buffers))
                drop_repeated_dims(extra, new_ops[-1])
            self.followups = []
        block.ops = []
        for op in new_ops:
            block.append(op)


def fold_known_loads(fn: Operation, known: tuple) -> None:
    """A kernel's loads, at constant indices, of operand elements the host knows (`aot.known`:
    operand, flat position, value triples, bufferize.known_elements) become those constants:
    a `?` program's slice starts and strides, pad amounts and window strides are such shape
    tensors (constants, or sizes the host stores), and their loads kept every index
    multiplied, divided and checked by run-time values in the kernel. Swin's shifted-window
    kernels with a `?` batch (a roll: four real_dynamic_slice pieces, strides all 1) took
    LLVM 4x their static form's time."""
    if not known:
        return
    args = fn.regions[0].blocks[0].args
    table = {(args[known[i]], known[i + 1]): known[i + 2] for i in range(0, len(known), 3)}
    buffers = {buf for buf, _ in table}
    for op in fn.walk():
        if op.name != "memref.load" or op.operands[0] not in buffers:
            continue
        buf, idx, flat = op.operands[0], [i.owner for i in op.operands[1:]], 0
        if not all(isinstance(i, Operation) and i.name == "arith.constant" for i in idx):
            continue
        for n, i in zip(buf.type.shape, idx):
            flat = flat * n + i.attrs["value"]
        value = table.get((buf, flat))
        if value is not None:
            op.operands, op.name, op.attrs = [], "arith.constant", {"value": value}


def drop_repeated_dims(fn: Operation, call: Operation) -> None:
    """A run-time dim the host passes a kernel again (the same host value: one symbolic
    size of many operands) is one argument: the kernel reads the first (`shared_dims`), so
    the later ones, unused, leave its signature and the call. A layer of a `?`-batch
    program passed one kernel the batch 20 times: 20 arguments through the host's call,
    the thread pool's slots and the task."""
    block = fn.regions[0].blocks[0]
    seen, keep = set(), []
    for k, (arg, host_value) in enumerate(zip(block.args, call.operands)):
        if isinstance(arg.type, MemRefType) or host_value not in seen or arg.uses:
            keep.append(k)
        seen.add(host_value)
    if len(keep) == len(block.args):
        return
    block.args = [block.args[k] for k in keep]
    for i, arg in enumerate(block.args):
        arg.index = i
    fn.attrs["function_type"] = FunctionType(tuple(a.type for a in block.args), ())
    if "aot.aliased" in fn.attrs:  # positions of what is left (a first one is always kept)
        position = {k: i for i, k in enumerate(keep)}
        aliased = tuple(position[fn.attrs["aot.aliased"][k]] for k in keep)
        if aliased == tuple(range(len(keep))):
            del fn.attrs["aot.aliased"]
        else:
            fn.attrs["aot.aliased"] = aliased
    call.operands = [call.operands[k] for k in keep]


def dims_as_arguments(fn: Operation, call: Operation, host_dims) -> None:
    """A kernel's `memref.dim` of a buffer whose host dim is a size the host also passes it
    becomes that size argument: the output's loop bounds and the clamps of its index
    arithmetic then read one value, which kernel_ranges.simplify can compare (BLOOM's `?`
    mask kernel gathers mask[b, j] at indices clamped to the mask's size, over loops to the
    output's: the same size, asserted equal)."""
    block = fn.regions[0].blocks[0]
    passed = {}
    for arg, host_value in zip(block.args, call.operands):
        if not isinstance(arg.type, MemRefType):
            passed.setdefault(host_value, arg)
    if not passed:
        return
    for op in list(fn.walk()):
        if op.name != "memref.dim" or op.operands[0] not in block.args:
            continue
        d = op.operands[1].owner
        if not (isinstance(d, Operation) and d.name == "arith.constant"):
            continue
        host_value = host_dims(call.operands[op.operands[0].index]).get(d.attrs["value"])
        if host_value in passed:
            for user, i in op.result.uses:
                if _in_loops(user, fn):  # (a matmul's epilogue region is its own function)
                    user.operands[i] = passed[host_value]


def _in_loops(op: Operation, fn: Operation) -> bool:
    """Whether `op` sits in `fn` inside scf loops and branches only."""
    parent = op.parent.parent.parent if op.parent is not None else None
    while parent is not None and parent is not fn:
        if not parent.name.startswith("scf."):
            return False
        parent = parent.parent.parent.parent if parent.parent is not None else None
    return parent is fn


def library_subject(op: Operation) -> Operation:
    """The op whose library routine may do a kernel's work: a kOutput fusion's dot or conv, else
    the kernel's own op."""
    if op.key == "fusion" and op.attrs.get("fusion_kind") == "kOutput":
        return next(o for o in op.regions[0].blocks[0].ops if o.key in OUTPUT_ROOTS)
    return op


def mark_parallel(op: Operation, fn: Operation, call: Operation, target) -> None:
    """A kernel whose one outermost loop runs over dim 0 of its first output (or the dim its
    `aot.parallel_dim` names) writes disjoint parts of it per iteration: that loop may be
    split across threads. The call says which operand (and dim) has the extent; the host
    decides at run time whether the work is worth it."""
    if not target.threads or not (op.key == "fusion" or registry.rule(op, "parallel", target)):
        return
    loops = [o for o in fn.regions[0].blocks[0].ops if o.name == "scf.for"]
    first_out = fn.attrs.pop("aot.parallel_over", kernel_outputs(op)[0])
    if len(loops) != 1:
        return
    if op.operands[first_out].type.rank == 0 and loops[0].attrs.get("aot.tiles") != ():
        return  # a scalar output has no dim 0 (a device's one tile, `aot.tiles = ()`, has)
    loops[0].attrs["aot.parallel"] = True
    fn.attrs["aot.parallel"] = True
    call.attrs["aot.parallel"] = first_out
    if loops[0].attrs.get("aot.parallel_dim"):  # the loop runs over another dim (element_order)
        call.attrs["aot.parallel_dim"] = loops[0].attrs["aot.parallel_dim"]
    # the loop may step over blocks of dim 0 (matmul rows): the host splits block numbers
    call.attrs["aot.parallel_block"] = loops[0].attrs.get("aot.rows_per_iteration", 1)
    if "aot.lanes_per_iteration" in loops[0].attrs:  # a device's warp or block per iteration
        call.attrs["aot.parallel_lanes"] = loops[0].attrs["aot.lanes_per_iteration"]
    if "aot.tiles" in loops[0].attrs:  # a device's output tile per iteration
        call.attrs["aot.parallel_tiles"] = loops[0].attrs["aot.tiles"]


def kernel_outputs(op: Operation) -> tuple:
    """Operand positions a kernel writes (the host's shape queries follow them)."""
    if op.short_name == "fusion":
        n_in = len(op.regions[0].blocks[0].args)
        n_buf = op.attrs.get("num_buffers", len(op.operands))
        return tuple(range(n_in, n_buf - op.attrs.get("aot.scratch", 0)))
    writes = registry.rule(op, "writes")
    return writes(op) if writes is not None else registry.last_operands(op, 1)


def emit_fusion(k: KernelEmitter, op: Operation, b: LoopBuilder, args: list):
    region_block = op.regions[0].blocks[0]
    n_in = len(region_block.args)
    n_buf = op.attrs.get("num_buffers", len(args))
    n_out = n_buf - op.attrs.get("aot.scratch", 0)
    inputs = dict(zip(region_block.args, args[:n_in]))
    outs = args[n_in:n_out]
    dim_args, input_dims = shared_dims(k, op, args, n_in, n_buf)
    env = fusion_dims(b, region_block, inputs, dim_args)
    for region_arg, buffer in inputs.items():
        env[region_arg] = [input_dims.get((buffer, d), n) for d, n in enumerate(env[region_arg])]
    ret = region_block.ops[-1]
    root = ret.operands[0].owner
    if op.attrs.get("aot.scratch"):  # bufferize.split_column_reduction / split_row_reduction
        first = next(o for o in region_block.ops if o.key == "reduce")
        own = registry.rule(first, "split_kernel", b.target)  # a target's own (a block per chunk)
        if own is not None:
            return own(k, op, b, inputs, outs[0], n_out, env)
        if root.short_name != "reduce":  # bufferize.split_row_fusion
            return emit_split_row_fusion(k, op, b, inputs, outs[0], n_out, env)
        rows = list(root.attrs["dimensions"]) == [root.operands[0].type.rank - 1]
        split = emit_split_rows if rows else emit_split_columns
        return split(k, op, b, root, inputs, outs[0], n_out, env)
    if op.attrs.get("fusion_kind") == "kInput" and root.short_name == "reduce":
        schedule = registry.rule(root, "kernel", b.target) or emit_reduce  # a target's own
        return schedule(b, root, inputs, outs, env)
    if op.attrs.get("fusion_kind") == "kInput":
        first = next(o for o in region_block.ops if o.key == "reduce")
        schedule = registry.rule(first, "row_fusion", b.target) or emit_row_fusion  # a target's own
        return schedule(b, region_block, inputs, outs[0], env)
    if op.attrs.get("fusion_kind") == "kOutput":
        epilogue = registry.rule(library_subject(op), "epilogue", b.target)
        return epilogue(b, region_block, inputs, outs[0], env)
    out = outs[0]
    if root.short_name == "concatenate" and b.target.gpu is None:
        return emit_concatenation(b, root, inputs, out, env)
    if b.target.gpu is not None:  # a thread per output element, consecutive ones side by side
        inner, ivs = element_loop(b, dims_of(b, out))
        inner.op("memref.store", [Elemental(inner, inputs, dims=env).at(ret.operands[0], ivs), out] + ivs)
        inner.yield_()
        return
    transposes = [o for o in region_block.ops if o.key == "transpose"]
    if len(transposes) == 1:  # a target's own (the CPU's tiles), or False
        own = registry.rule(transposes[0], "kernel", b.target)
        if own is not None and own(b, region_block, transposes[0], inputs, out, env) is not False:
            return
    order = element_order(region_block, out)
    out_dims = dims_of(b, out)
    loops = refined_loops(region_block, out) if order == sorted(order) else None
    if loops is not None:
        with loop_nest(b, [b.index(n) for parts in loops for n in parts]) as (inner, part_ivs):
            e, ivs = Elemental(inner, inputs, dims=env), []
            for parts in loops:
                ivs.append(e.linear(list(zip(part_ivs[:len(parts)], parts))))
                part_ivs = part_ivs[len(parts):]
            inner.op("memref.store", [e.at(ret.operands[0], ivs), out] + ivs)
        return
    with loop_nest(b, [out_dims[d] for d in order]) as (inner, ivs_in_order):
        ivs = [ivs_in_order[order.index(d)] for d in range(len(order))]
        e = Elemental(inner, inputs, dims=env)
        value = e.at(ret.operands[0], ivs)
        inner.op("memref.store", [value, out] + ivs)
    if order != sorted(order):
        outer = next(o for o in b.block.ops if o.name == "scf.for")
        outer.attrs["aot.element_order"] = tuple(order)
        if order[0] != 0:  # the host splits the outer loop's dim (mark_parallel)
            outer.attrs["aot.parallel_dim"] = order[0]


def _cuts(shape) -> set:
    """Where a row-major walk of `shape` carries into a dim: its suffix products."""
    return {math.prod(shape[d:]) for d in range(len(shape) + 1)}


def refined_loops(region_block: Block, out) -> list | None:
    """Per output dim, the sizes of the loops that walk it (outermost first), when a reshape
    in a kLoop fusion splits the (static) output's dims finer: MViT's relative positions,
    [1, 1, 8, 56, 56, 8, 7, 7] -> [1, 1, 25088, 392] added to the scores. The element loop over
    the output divided each index back into six parts, per element (20 ns an element); the
    loops over the parts read them as they are (Elemental.splits). Only trailing dims of at
    most target.WHOLE_ROWS elements together split, and never dim 0: the host splits the
    outer loops over the threads by the output's dims, their ivs where the stores put them
    (collapse.py), and each task walks the trailing ones whole; a split dim before them (the
    25088 queries) is divided once a row instead. None when no reshape splits such dims, or
    the splits do not nest (a [6, 4] output read as [4, 6])."""
    shape = out.type.shape
    if None in shape or 0 in shape:
        return None
    cuts = own = _cuts(shape)
    for o in region_block.ops:
        if o.key != "reshape":
            continue
        a, r = tuple(o.operands[0].type.shape), tuple(o.results[0].type.shape)
        other = a if r == tuple(shape) else r if a == tuple(shape) else None
        if other is None or None in other:
            continue
        merged = sorted(cuts | _cuts(other))
        if all(hi % lo == 0 for lo, hi in zip(merged, merged[1:])):
            cuts = set(merged)
    if cuts == own:
        return None
    loops = []
    for d in range(len(shape)):
        lo, hi = math.prod(shape[d + 1:]), math.prod(shape[d:])
        inside = sorted((c for c in cuts if lo <= c <= hi), reverse=True)
        whole = d == 0 or hi > WHOLE_ROWS
        loops.append([shape[d]] if whole else [x // y for x, y in zip(inside, inside[1:])] or [1])
    return None if all(len(parts) == 1 for parts in loops) else loops


# An output dim of at most this many elements (static) that a transpose reads along its
# operand's last dim is walked innermost (element_order)
TINY_TRANSPOSED_DIM = 8


def element_order(region_block: Block, out) -> list:
    """The order of a kLoop fusion's loops over its output's dims, outermost first: the dims'
    own, except that an output dim p of at most TINY_TRANSPOSED_DIM elements read by a
    transpose along its operand's last dim, while the output's last dim is read across
    rows, goes innermost. In the output's order each output row would read every k-th
    element of the whole operand, so [N/2, 2] -> [2, N/2] read its input twice (2x the time
    of [N]); with p innermost (LLVM unrolls it) the operand is read once, in memory order,
    and the output written as k streams."""
    shape = out.type.shape
    order = list(range(len(shape)))
    for o in region_block.ops:
        if o.key != "transpose" or o.results[0].type.shape != shape:
            continue
        perm = list(o.attrs["permutation"])
        p = perm.index(len(shape) - 1)
        if p != len(shape) - 1 and shape[p] is not None and 1 < shape[p] <= TINY_TRANSPOSED_DIM:
            return order[:p] + order[p + 1:] + [p]
    return order


# A concatenation whose output has fewer rows than this (or a run-time count) cuts each row
# into CONCAT_CHUNKS pieces, so that [1, N] uses every thread as [N] does
CONCAT_MANY_ROWS = 16
CONCAT_CHUNKS = 8
# A concatenation along dim 0 runs over blocks of this many output rows (the parallel loop)
CONCAT_ROW_BLOCK = 1024


def emit_concatenation(b: LoopBuilder, root: Operation, inputs: dict, out, env: dict):
    """A fusion whose root is a concatenation: each operand's elements copied (through its
    fused producers) to their place, one loop nest per operand. The elemental rule would read
    every operand at every output element and select one, with the index clamped along the
    concatenated dim: a DenseNet's channel concatenation (innermost dim) then ran element by
    element, and a [N] one 10x slower than a copy.

    Along dim 0, the parallel loop runs over blocks of CONCAT_ROW_BLOCK output rows, each
    operand copying its rows inside the block. Along a later dim, it runs over the output's
    dim 0 (rows); with few rows (or a run-time count) a second loop cuts each row into
    CONCAT_CHUNKS pieces of its first dim that is not 1 (up to the concatenated one), marked
    `aot.chunks` so that the two collapse into one iteration space over the threads
    (codegen/llvm/collapse.py): a [1, N] concatenation ran on one thread."""
    dim = root.attrs["dimension"]
    starts, offset = [], 0
    for v in root.operands:
        starts.append(offset)
        offset = Ix(b).add(offset, Elemental(b, inputs, dims=env).dims(v)[dim])
    ix = Ix(b)

    def copy(at, v, start, lead: list, ranges: list):
        """Operand v's elements over `ranges` ([lo, hi) per dim after `lead`'s) to the output."""
        ivs, bodies = [], [at]
        for lo, hi in ranges:
            _, inner, iv, _ = bodies[-1].for_(Ix(bodies[-1]).val(lo), Ix(bodies[-1]).val(hi))
            ivs.append(iv)
            bodies.append(inner)
        inner = bodies[-1]
        idx = lead + ivs
        value = Elemental(inner, inputs, dims=env).at(v, idx)
        idx[dim] = Ix(inner).add(idx[dim], start)
        inner.op("memref.store", [value, out] + idx)
        for body in reversed(bodies[1:]):
            body.yield_()

    if dim == 0:
        n = dims_of(b, out)[0]
        blocks = ix.div(ix.add(n, CONCAT_ROW_BLOCK - 1), CONCAT_ROW_BLOCK)
        loop, body, blk, _ = b.for_(b.index(0), blocks)
        loop.attrs["aot.rows_per_iteration"] = CONCAT_ROW_BLOCK
        bx = Ix(body)
        lo_out = bx.mul(blk, CONCAT_ROW_BLOCK)
        hi_out = bx.add(lo_out, CONCAT_ROW_BLOCK)
        for v, start in zip(root.operands, starts):
            dims = Elemental(body, inputs, dims=env).dims(v)
            lo = body.v("arith.maxsi", [bx.sub(lo_out, start), body.index(0)], INDEX)
            hi = body.v("arith.minsi", [bx.sub(hi_out, start), bx.val(dims[0])], INDEX)
            copy(body, v, start, [], [(lo, hi)] + [(0, n_) for n_ in dims[1:]])
        body.yield_()
        return
    rows = out.type.shape[0]
    if rows is not None and rows >= CONCAT_MANY_ROWS:
        with loop_nest(b, dims_of(b, out)[:1]) as (at, (i0,)):
            for v, start in zip(root.operands, starts):
                dims = Elemental(at, inputs, dims=env).dims(v)
                copy(at, v, start, [i0], [(0, n_) for n_ in dims[1:]])
        return
    # the dim the chunks cut: the first after dim 0 that is not 1, up to the concatenated
    # one; `?` dims before a static one are candidates, chosen at run time (a `?` [1, 1, N]
    # cut its dim 1, 1 long, and ran on one thread: 1.45x its [N] time)
    candidates = []
    for d in range(1, dim + 1):
        if out.type.shape[d] != 1 or d == dim:
            candidates.append(d)
            if out.type.shape[d] is not None:
                break
    with loop_nest(b, dims_of(b, out)[:1]) as (at, (i0,)):
        chunk_loop, body, c, _ = at.for_(at.index(0), at.index(CONCAT_CHUNKS))
        chunk_loop.attrs["aot.chunks"] = True
        bx = Ix(body)
        chosen = candidates[-1]  # (the dims before the concatenated one are the output's)
        out_dims = dims_of(body, out)
        for d in reversed(candidates[:-1]):
            chosen = bx.select(bx.cmp("ne", out_dims[d], 1), d, chosen)
        for v, start in zip(root.operands, starts):
            dims = Elemental(body, inputs, dims=env).dims(v)
            ranges = [(0, n_) for n_ in dims[1:]]
            for d in candidates:
                n = bx.val(dims[d])
                lo = bx.div(bx.mul(n, c), CONCAT_CHUNKS)
                hi = bx.div(bx.mul(n, bx.add(c, 1)), CONCAT_CHUNKS)
                if len(candidates) > 1:
                    here = bx.cmp("eq", chosen, d)
                    lo, hi = bx.select(here, lo, 0), bx.select(here, hi, n)
                ranges[d - 1] = (lo, hi)
            copy(body, v, start, [i0], ranges)
        body.yield_()


def shared_dims(k: KernelEmitter, op: Operation, args: list, n_in: int, n_buf: int) -> tuple:
    """(the fusion's dim arguments, {(input buffer, dim): dim argument}) with one kernel value
    per host value: a dim the host passes
    twice (the same symbolic size) is the same value in the kernel, and so is an input's dim
    the host also passes, so that the elemental rules can see dims are equal (a reshape that
    only splits the last dim, [b, s, 128] -> [b, s, 4, 32], then maps b and s straight
    through instead of dividing by the run-time s per element, and a dynamic broadcast
    between equal dims needs no test of its size against 1)."""
    first: dict = {}
    for host_value, arg in zip(op.operands[n_buf:], args[n_buf:]):
        first.setdefault(host_value, arg)
    input_dims = {}
    for host_buffer, arg in zip(op.operands[:n_in], args[:n_in]):
        for d, host_value in k.host_dims(host_buffer).items():
            if host_value in first:
                input_dims[(arg, d)] = first[host_value]
    return [first[v] for v in op.operands[n_buf:]], input_dims


def emit_row_fusion(b: LoopBuilder, region_block: Block, inputs: dict, out, env: dict):
    """A kInput fusion with an elementwise root (fusion.joins_as_row_reduction): for each
    row of the output, each reduction over the last dim in program order, then the row's
    elements (fuse_row). On a target whose rows go to a warp (`Target.warp_size` lanes),
    lane l takes columns l, l + lanes, ... and each reduction's partial results are combined
    across the lanes by shuffles, the init joining once (elemental.Partial)."""
    out_dims = dims_of(b, out)
    lanes = b.target.warp_size if len(out_dims) > 1 else 1  # lanes share a row of a row loop
    first = len(b.block.ops)
    nest = element_nest if lanes > 1 else loop_nest  # a device: a warp per row, every leading dim
    with nest(b, out_dims[:-1]) as (rows, rivs):
        if lanes > 1:
            parallel = next(op for op in b.block.ops[first:] if op.name == "scf.for")
            parallel.attrs["aot.lanes_per_iteration"] = lanes
        fuse_row(rows, rivs, out_dims[-1], region_block, inputs, out, env, lanes)


def operand_row(b: LoopBuilder, rivs: list, in_dims: list, out) -> list:
    """The row of a reduction's operand (dims `in_dims`) that output row `rivs` reads: the
    same one, clamped to the operand's row dims where they may differ (row 0 of a size-1
    dim, as a broadcast of the reduction's result reads it)."""
    return [iv if isinstance(n, int) and n == m else
            b.v("arith.minsi", [iv, b.v("arith.subi", [Ix(b).val(n), b.index(1)], INDEX)], INDEX)
            for iv, n, m in zip(rivs, in_dims[:-1], out.type.shape[:-1])]


def fuse_row(rows: LoopBuilder, rivs: list, n, region_block: Block, inputs: dict, out, env: dict,
             lanes: int = 1):
    """Output row `rivs` (of `n` elements) of a row fusion: each reduction over its
    operand's row (operand_row), later reductions and the elements reading its value as a
    scalar; then the row's elements."""
    ret = region_block.ops[-1]
    lane = rows.v("gpu.lane_id", [], INDEX) if lanes > 1 else None
    scalars: dict = {}
    reductions = [o for o in region_block.ops if o.key == "reduce"]
    kept = row_cached_value(ret.operands[0], reductions[-1], out)
    for red in reductions:
        x, init = red.operands
        in_dims = env[x] if x in env else Elemental(rows, inputs).dims(x)
        row = operand_row(rows, rivs, in_dims, out)
        e = Elemental(rows, inputs, scalars, env)
        start = rows.index(0) if lane is None else lane
        part = Partial(red, [e.at(init, [])]) if lane is not None else None
        loop, body, c, cur = rows.for_(start, Ix(rows).val(in_dims[-1]),
                                       part.seed(rows) if part else [e.at(init, [])], step=lanes)
        inner = Elemental(body, inputs, scalars, env)
        value = inner.at(x, row + [c])
        if x is kept:  # the result row holds it until the last walk reads it back
            body.op("memref.store", [value, out] + rivs + [c])  # (each lane its own columns)
        body.yield_(part.fold(body, list(cur), [value]) if part
                    else apply_reduction_body(body, red, list(cur) + [value]))
        total = list(loop.results)
        if part:
            total = part.finish(rows, part.across_lanes(rows, total, lanes))
        scalars[red.results[0]] = total[0]
    values = {**inputs, kept: out} if kept is not None else inputs
    if lane is None:
        with loop_nest(rows, [n]) as (cols, (c,)):
            e = Elemental(cols, values, scalars, env)
            cols.op("memref.store", [e.at(ret.operands[0], rivs + [c]), out] + rivs + [c])
    else:
        _, cols, c, _ = rows.for_(lane, Ix(rows).val(n), step=lanes)
        e = Elemental(cols, values, scalars, env)
        cols.op("memref.store", [e.at(ret.operands[0], rivs + [c]), out] + rivs + [c])
        cols.yield_()


def row_chunk(b: LoopBuilder, n, chunks: int):
    """The length of each of `chunks` chunks of a row of `n` (ceil(n / chunks), at least 1):
    the split row kernels (emit_split_rows, emit_split_row_fusion) cut rows alike."""
    return b.v("arith.maxui", [b.v("arith.divui", [b.v("arith.addi", [n, b.index(chunks - 1)], INDEX),
                                                   b.index(chunks)], INDEX), b.index(1)], INDEX)


def chunk_bounds(cb: LoopBuilder, c, chunk, n) -> tuple:
    """(lo, hi, later) of chunk `c`: its range of the row, and whether it is a later chunk
    holding elements, whose reduction starts from its first element (chunk 0 starts from
    the init value, counted once)."""
    lo = cb.v("arith.minui", [cb.v("arith.muli", [c, chunk], INDEX), n], INDEX)
    hi = cb.v("arith.minui", [cb.v("arith.addi", [lo, chunk], INDEX), n], INDEX)
    later = cb.v("arith.andi", [cb.v("arith.cmpi", [c, cb.index(0)], ScalarType("i1"), predicate="ne"),
                                cb.v("arith.cmpi", [lo, hi], ScalarType("i1"), predicate="ult")],
                 ScalarType("i1"))
    return lo, hi, later


def split_plan(b: LoopBuilder, dims: list, static_rows: bool, chunks: int) -> tuple:
    """(row count, chunk length, few) of a split row kernel over rows dims[:-1] of dims[-1]
    elements. Static rows (few None: bufferize splits them only when they are few) are cut
    into `chunks` chunks; a run-time row count is chosen for when the kernel runs: `few`
    (fewer rows than chunks) cuts them so, else each row is one chunk and the rows are
    shared out whole (task_rows)."""
    n, chunk = dims[-1], row_chunk(b, dims[-1], chunks)
    if static_rows:
        return None, chunk, None
    ix = Ix(b)
    rows = dims[0]
    for d in dims[1:-1]:
        rows = ix.mul(rows, d)
    few = ix.cmp("ult", rows, chunks)
    return rows, ix.select(few, chunk, b.v("arith.maxui", [n, b.index(1)], INDEX)), few


def task_rows(cb: LoopBuilder, c, rows, few, chunks: int) -> tuple:
    """The rows task `c` takes of a run-time row count: ((lo, hi) of the rows it cuts: all
    when `few`, else none; (lo, hi) of the rows it takes whole: its block of ceil(rows /
    chunks) when not `few`, else none)."""
    ix = Ix(cb)
    per = ix.div(ix.add(rows, chunks - 1), chunks)
    lo = ix.min(ix.mul(c, per), rows)
    hi = ix.min(ix.add(lo, per), rows)
    return (0, ix.select(few, rows, 0)), (ix.select(few, 0, lo), ix.select(few, 0, hi))


@contextmanager
def flat_rows(b: LoopBuilder, lo, hi, row_dims: list):
    """`with flat_rows(b, lo, hi, row_dims) as (body, ivs):` rows [lo, hi) of `row_dims`,
    row-major, in one loop. The ivs are lo's digits, carried and stepped like an odometer:
    dividing the row number per row cost a softmax of 64-long rows 6 %."""
    ix = Ix(b)
    lo, start, r = ix.val(lo), [], ix.val(lo)
    for d in reversed(row_dims[1:]):
        d = ix.max(d, 1)  # (a dim of 0: no rows, and no division by it)
        start.append(ix.rem(r, d))
        r = ix.div(r, d)
    _, rb, _, ivs = b.for_(lo, ix.val(hi), [r] + start[::-1])
    yield rb, list(ivs)
    step, carry = [], None
    for d, iv in zip(reversed(row_dims), reversed(ivs)):
        ix = Ix(rb)
        nxt = ix.add(iv, 1) if carry is None else ix.select(carry, ix.add(iv, 1), iv)
        wrap = ix.cmp("eq", nxt, d)
        wrap = wrap if carry is None else ix.and_(carry, wrap)
        step.append(ix.select(wrap, 0, nxt) if len(step) < len(row_dims) - 1 else nxt)
        carry = wrap
    rb.yield_(step[::-1])


def emit_split_row_fusion(k: KernelEmitter, op: Operation, b: LoopBuilder, inputs: dict, out,
                          part_at: int, env: dict):
    """A row fusion over few long rows (bufferize.split_row_fusion) as one kernel per
    reduction, then one for the elements, each over Target.column_chunks chunks of every row
    split over threads. Kernel p first combines the partials of reductions 0..p-1 in chunk
    order (the same value in every chunk), then reduces its chunk of reduction p into
    partial[c, p, rows...]: chunk 0 from the init value, the others from their first element.
    As in emit_row_fusion, the last reduction's operand, when the elements read it, is kept in
    the result row. The chunks do not depend on the thread count, so neither do the results.
    A run-time row count (split_plan) is cut so while there are fewer rows than chunks;
    with more, the first kernel fuses whole rows instead, each task a block of them
    (fuse_row, as emit_row_fusion: one walk over the data, not one a kernel), and the later
    kernels have no rows."""
    region_block = op.regions[0].blocks[0]
    ret = region_block.ops[-1]
    reductions = [o for o in region_block.ops if o.key == "reduce"]
    kept = row_cached_value(ret.operands[0], reductions[-1], out)
    elem = ScalarType(out.type.elem)
    chunks = b.target.column_chunks
    at_out = list(b.block.args).index(out)
    static_rows = all(d is not None for d in out.type.shape[:-1])
    for phase in range(len(reductions) + 1):
        if phase:
            fn, b, args = k.new_kernel(op, list(op.operands))
            k.followups.append(fn)
            n_in = len(region_block.args)
            inputs = dict(zip(region_block.args, args[:n_in]))
            env = fusion_dims(b, region_block, inputs, args[op.attrs["num_buffers"]:])
            out = args[at_out]
        k.kernels[-1].attrs["aot.parallel_over"] = part_at  # threads split the chunk loop
        part = b.block.args[part_at]
        out_dims = dims_of(b, out)
        # each reduction is cut along its own operand's length, which a broadcast of its
        # result may differ from at run time (x [1, ?] summed, broadcast to y's [1, ?]:
        # bufferize can only compare the types); the elements along the result's
        operand_dims = [env[r.operands[0]] if r.operands[0] in env
                        else Elemental(b, inputs).dims(r.operands[0]) for r in reductions]
        lengths = [Ix(b).val(d[-1]) for d in operand_dims] + [Ix(b).val(out_dims[-1])]
        chunk_of = [row_chunk(b, n, chunks) for n in lengths]
        used = [b.v("arith.divui", [b.v("arith.addi", [n, b.v("arith.subi", [chunk, b.index(1)], INDEX)],
                                        INDEX), chunk], INDEX) for n, chunk in zip(lengths, chunk_of)]
        count, _, few = split_plan(b, out_dims, static_rows, chunks)
        _, cb, c, _ = b.for_(b.index(0), b.index(chunks))
        lo, hi, later = chunk_bounds(cb, c, chunk_of[phase], lengths[phase])
        if few is None:
            cut_rows = loop_nest(cb, out_dims[:-1])
        else:  # many rows: the first kernel fuses whole rows, the later ones have none
            cut, whole = task_rows(cb, c, count, few, chunks)
            if phase == 0:
                with flat_rows(cb, *whole, out_dims[:-1]) as (wb, wivs):
                    fuse_row(wb, wivs, out_dims[-1], region_block, inputs, out, env)
            cut_rows = flat_rows(cb, *cut, out_dims[:-1])
        with cut_rows as (rows, rivs):
            scalars: dict = {}
            for q, red in enumerate(reductions[:phase]):  # earlier reductions, in chunk order
                total = rows.v("memref.load", [part, rows.index(0), rows.index(q)] + rivs, elem)
                loop, ib, cc, (acc,) = rows.for_(rows.index(1), used[q], [total])
                p = ib.v("memref.load", [part, cc, ib.index(q)] + rivs, elem)
                ib.yield_(apply_region(ib, red.regions[0], [acc, p]))
                scalars[red.results[0]] = loop.results[0]
            if phase == len(reductions):  # the elements of this chunk of the row
                values = {**inputs, kept: out} if kept is not None else inputs
                _, cols, j, _ = rows.for_(lo, hi)
                e = Elemental(cols, values, scalars, env)
                cols.op("memref.store", [e.at(ret.operands[0], rivs + [j]), out] + rivs + [j])
                cols.yield_()
                continue
            red = reductions[phase]
            x, init = red.operands
            row = operand_row(rows, rivs, operand_dims[phase], out)
            trips = rows.v("arith.select", [later, rows.index(1), rows.index(0)], INDEX)
            seed = Elemental(rows, inputs, scalars, env).at(init, [])
            first, fb, _, _ = rows.for_(rows.index(0), trips, [seed])
            value = Elemental(fb, inputs, scalars, env).at(x, row + [lo])  # read only if there is one
            if x is kept:
                fb.op("memref.store", [value, out] + rivs + [lo])
            fb.yield_([value])
            after = rows.v("arith.addi", [lo, rows.index(1)], INDEX)
            start = rows.v("arith.select", [later, after, lo], INDEX)
            loop, body, j, cur = rows.for_(start, hi, [first.results[0]])
            value = Elemental(body, inputs, scalars, env).at(x, row + [j])
            if x is kept:  # the result row holds it until the last kernel reads it back
                body.op("memref.store", [value, out] + rivs + [j])
            body.yield_(apply_reduction_body(body, red, list(cur) + [value]))
            rows.op("memref.store", [loop.results[0], part, c, rows.index(phase)] + rivs)
        cb.yield_()
        if phase:
            b.op("func.return", [])


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
        if (v in seen or not isinstance(v.owner, Operation)
                or not registry.is_kind(v.owner.key, "elementwise")
                or any(o.type.shape != v.type.shape for o in v.owner.operands)):  # a bitcast's pieces
            continue
        seen.add(v)
        frontier.extend(v.owner.operands)
    return None


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
    if kept and dims and max(dims) < min(kept) and b.target.memory_order_columns:
        return emit_reduce_columns(b, root, inputs, outs, env, as_index, kept)
    with loop_nest(b, [as_index[d] for d in kept]) as (outer, out_ivs):
        e = Elemental(outer, inputs, dims=env)
        accs = [e.at(v, []) for v in inits]
        body, cur = outer, accs
        red_ivs = []
        loops = []
        for run in reduced_runs(dims, ins, inputs):
            ix = Ix(body)
            count = in_dims[run[0]]
            for d in run[1:]:
                count = ix.mul(count, in_dims[d])
            loop, body, iv, iters = body.for_(body.index(0), ix.val(count), cur)
            loops.append((loop, body))
            # the run's elements are contiguous: index its first dims 0, its last the
            # position in the run, and the row-major address is the same
            red_ivs += [body.index(0)] * (len(run) - 1) + [iv]
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


def reduced_runs(dims: list, ins: list, inputs: dict) -> list:
    """The reduced dims in runs walked by one loop each: consecutive dims, where every
    operand is read in row-major order from buffers of its own shape (only elementwise ops
    between them, scalars broadcast), so the run's elements are contiguous. A nest of short
    loops (an SE block's mean over [32, 32]) had LLVM unroll the inner loop whole and
    vectorise the outer one with a run-time stride, which it guessed 1: the scalar path
    ran, one serial add at a time (2.5 ms for [32, 96, 32, 32], numpy 0.52)."""
    runs = []
    flat = all(reads_at_own_index(x, inputs, broadcasts=("broadcast_in_dim",)) for x in ins)
    for d in dims:
        if flat and runs and d == runs[-1][-1] + 1:
            runs[-1].append(d)
        else:
            runs.append([d])
    return runs


def emit_reduce_columns(b: LoopBuilder, root: Operation, inputs: dict, outs: list, env: dict,
                        as_index: list, kept: list):
    """Reduced dims before every kept dim (a column sum): walk the input in memory order,
    keeping one accumulator per output element in the output buffer itself. Each output
    accumulates its elements in order; the inner loop runs along contiguous rows and
    vectorises across outputs (0.5 to 21 GB/s for the column sums of 8192x4096 f32)."""
    n = len(root.operands) // 2
    ins, inits = root.operands[:n], root.operands[n:]
    reduced = [d for d in range(len(as_index)) if d not in kept]
    with loop_nest(b, [as_index[d] for d in kept]) as (init_b, kivs):
        e = Elemental(init_b, inputs, dims=env)
        for v, out in zip(inits, outs):
            init_b.op("memref.store", [e.at(v, []), out] + kivs)
    with loop_nest(b, [as_index[d] for d in reduced]) as (rows, rivs):
        with loop_nest(rows, [as_index[d] for d in kept]) as (body, kivs):
            full_idx = place(len(as_index), zip(reduced, rivs), zip(kept, kivs))
            inner_e = Elemental(body, inputs, dims=env)
            accs = [body.v("memref.load", [out] + kivs, ScalarType(out.type.elem)) for out in outs]
            xs = [inner_e.at(v, full_idx) for v in ins]
            new = apply_region(body, root.regions[0], accs + xs)
            for v, out in zip(new, outs):
                body.op("memref.store", [v, out] + kivs)


def emit_split_columns(k: KernelEmitter, op: Operation, b: LoopBuilder, root: Operation,
                       inputs: dict, out, part_at: int, env: dict):
    """A column reduction in two kernels (bufferize.split_column_reduction). This one:
    chunk c of the rows (the reduced dims, flattened) reduced in memory order into
    partial[c, kept...], the chunks split over threads; chunk 0 starts from the init
    value, the others from their first row. The follow-up kernel: out[kept...] = partial
    0 combined with the other non-empty chunks' partials, in chunk order. The chunk count
    does not depend on the thread count, so neither do the results."""
    chunks = b.target.column_chunks
    x, init = root.operands
    elem = ScalarType(out.type.elem)
    nred = len(root.attrs["dimensions"])
    part = b.block.args[part_at]

    def rows_and_chunk(lb: LoopBuilder, env: dict, inputs: dict):
        dims = [Ix(lb).val(d) for d in (env[x] if x in env else Elemental(lb, inputs).dims(x))]
        rows = dims[0]
        for d in dims[1:nred]:
            rows = lb.v("arith.muli", [rows, d], INDEX)
        chunk = lb.v("arith.divui", [lb.v("arith.addi", [rows, lb.index(chunks - 1)], INDEX),
                                     lb.index(chunks)], INDEX)
        return dims, rows, lb.v("arith.maxui", [chunk, lb.index(1)], INDEX)

    def trips(lb: LoopBuilder, cond):
        return lb.v("arith.select", [cond, lb.index(1), lb.index(0)], INDEX)
    dims, rows, chunk = rows_and_chunk(b, env, inputs)
    k.kernels[-1].attrs["aot.parallel_over"] = part_at  # threads split the chunk loop
    _, cb, c, _ = b.for_(b.index(0), b.index(chunks))
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
    with loop_nest(seed, dims[nred:]) as (sb, kivs):
        sb.op("memref.store", [Elemental(sb, inputs, dims=env).at(init, []), part, c] + kivs)
    seed.yield_()
    later = cb.v("arith.andi", [has_rows, cb.v("arith.xori", [first, cb.const(True, "i1")],
                                                ScalarType("i1"))], ScalarType("i1"))
    _, seed, _, _ = cb.for_(cb.index(0), trips(cb, later))  # another chunk: its first row
    with loop_nest(seed, dims[nred:]) as (sb, kivs):
        sb.op("memref.store", [Elemental(sb, inputs, dims=env).at(x, row_index(sb, lo) + kivs),
                               part, c] + kivs)
    seed.yield_()
    start = cb.v("arith.select", [later, cb.v("arith.addi", [lo, cb.index(1)], INDEX), lo], INDEX)
    _, rb, r, _ = cb.for_(start, hi)
    ridx = row_index(rb, r)
    with loop_nest(rb, dims[nred:]) as (body, kivs):
        acc = body.v("memref.load", [part, c] + kivs, elem)
        value = Elemental(body, inputs, dims=env).at(x, ridx + kivs)
        (new,) = apply_region(body, root.regions[0], [acc, value])
        body.op("memref.store", [new, part, c] + kivs)
    rb.yield_()
    cb.yield_()

    emit_combine_chunks(k, op, b, root, out, part_at, lambda *a: rows_and_chunk(*a)[1:])


def emit_combine_chunks(k: KernelEmitter, op: Operation, b: LoopBuilder, root: Operation, out,
                        part_at: int, length_and_chunk):
    """The follow-up kernel of a split reduction: out[kept...] = partial 0 combined with the
    other non-empty chunks' partials, in chunk order. `length_and_chunk(builder, env, inputs)`
    gives the split length and the chunk size, as the first kernel cut them. The chunk loop
    runs over all Target.column_chunks, an empty chunk's partial (never written) passed over
    by a select: with a run-time count of non-empty chunks, the loop over them stayed a
    loop of unknown trip count inside each output element, and the elements were combined
    one at a time (a `?` column sum took 1.5-2x its static form)."""
    elem = ScalarType(out.type.elem)
    fn, cbld, args = k.new_kernel(op, list(op.operands))
    k.followups.append(fn)
    region_block = op.regions[0].blocks[0]
    n_in = len(region_block.args)
    inputs2 = dict(zip(region_block.args, args[:n_in]))
    env2 = fusion_dims(cbld, region_block, inputs2, args[op.attrs["num_buffers"]:])
    part, out2 = args[part_at], args[list(b.block.args).index(out)]
    length, chunk = length_and_chunk(cbld, env2, inputs2)
    used = cbld.v("arith.divui", [cbld.v("arith.addi", [length, cbld.v(
        "arith.subi", [chunk, cbld.index(1)], INDEX)], INDEX), chunk], INDEX)
    with loop_nest(cbld, dims_of(cbld, out2)) as (outer, kivs):
        total = outer.v("memref.load", [part, outer.index(0)] + kivs, elem)
        loop, ib, c, (acc,) = outer.for_(outer.index(1), outer.index(b.target.column_chunks), [total])
        p = ib.v("memref.load", [part, c] + kivs, elem)
        (combined,) = apply_region(ib, root.regions[0], [acc, p])
        ib.yield_([Ix(ib).select(Ix(ib).cmp("ult", c, used), combined, acc, elem)])
        outer.op("memref.store", [loop.results[0], out2] + kivs)
    cbld.op("func.return", [])


def emit_split_rows(k: KernelEmitter, op: Operation, b: LoopBuilder, root: Operation,
                    inputs: dict, out, part_at: int, env: dict):
    """A reduction of the last dim over few long rows, in two kernels
    (bufferize.split_row_reduction): chunk c of every row, Target.column_chunks chunks a row,
    reduced into partial[c, kept...] with reorderable accumulators (vectorised), the chunks
    split over threads; chunk 0 starts from the init value, the others from their first
    element. The follow-up kernel combines the partials in chunk order (emit_combine_chunks).
    The chunks do not depend on the thread count, so neither do the results.

    With a run-time row count the kernel chooses when it runs: fewer rows than chunks are cut
    into chunks as above; more are shared out whole, task c taking the c-th block of
    ceil(rows / chunks) rows, each row its own chunk 0 (the follow-up then combines one
    partial; split_plan, task_rows): a [?, 256] sum is not cut into 8 chunks of 32 a row,
    and a [1, N] one with a `?` row count no longer runs on one thread."""
    chunks = b.target.column_chunks
    x, init = root.operands
    part = b.block.args[part_at]

    static_rows = all(d is not None for d in x.type.shape[:-1])

    def plan(lb: LoopBuilder, env: dict, inputs: dict):
        """(dims, length, row count, chunk length, few): split_plan's, for x."""
        dims = [Ix(lb).val(d) for d in (env[x] if x in env else Elemental(lb, inputs).dims(x))]
        return (dims, dims[-1]) + split_plan(lb, dims, static_rows, chunks)
    dims, n, rows, chunk, few = plan(b, env, inputs)
    k.kernels[-1].attrs["aot.parallel_over"] = part_at  # threads split the chunk loop
    _, cb, c, _ = b.for_(b.index(0), b.index(chunks))
    at = c if few is None else Ix(cb).select(few, c, 0)  # the partial this task writes
    lo, hi, later = chunk_bounds(cb, at, chunk, n)
    if few is None:
        row_loop = loop_nest(cb, dims[:-1])
    else:  # the rows cut (all, when few) or this task's whole rows, each its chunk 0
        cut, whole = task_rows(cb, c, rows, few, chunks)
        row_loop = flat_rows(cb, Ix(cb).select(few, cut[0], whole[0]),
                             Ix(cb).select(few, cut[1], whole[1]), dims[:-1])
    with row_loop as (rb, kivs):
        trips = rb.v("arith.select", [later, rb.index(1), rb.index(0)], INDEX)
        first, fb, _, _ = rb.for_(rb.index(0), trips, [Elemental(rb, inputs, dims=env).at(init, [])])
        fb.yield_([Elemental(fb, inputs, dims=env).at(x, kivs + [lo])])  # read only if there is one
        seed = first.results[0]
        start = rb.v("arith.select", [later, rb.v("arith.addi", [lo, rb.index(1)], INDEX), lo], INDEX)
        loop, body, j, cur = rb.for_(start, hi, [seed])
        value = Elemental(body, inputs, dims=env).at(x, kivs + [j])
        body.yield_(apply_reduction_body(body, root, list(cur) + [value]))
        rb.op("memref.store", [loop.results[0], part, at] + kivs)
    cb.yield_()

    def length_and_chunk(*a):
        _, length, _, chunk, _ = plan(*a)
        return length, chunk
    emit_combine_chunks(k, op, b, root, out, part_at, length_and_chunk)


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


def lower_to_loops(module: Module, target) -> Module:
    kernels = []
    for func in module.functions():
        if "aot.kernel" in func.attrs:
            continue
        kernels.extend(KernelEmitter(module, func, target).run())
    module.ops.extend(kernels)
    return module
