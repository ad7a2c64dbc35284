"""Bufferisation: tensors become buffers (LHLO), with their dims computed at run time.

Each kernel result gets a buffer allocated right before the kernel and freed
right after its last use; its dims come from the kernel's shape function
(the registry's shape rules, lowering/passes/host_shapes.py), run on the host: for a
fusion, the shape rules of its ops
composed. A fusion also receives the run-time dims of its internal values, so
its loops never recompute shapes. Entry results of static shape become output
parameters (the caller's buffer, tfcompile style); results whose shape is known
only at run time are allocated here and returned. Large constants become
read-only globals in the object file.
"""
from __future__ import annotations

import math

import numpy as np

from lowering.ir.core import (
    INDEX,
    Block,
    DenseAttr,
    FunctionType,
    MemRefType,
    Module,
    Operation,
    Region,
    ScalarType,
    SymbolRef,
    TensorType,
    Value,
)
from lowering.ops import registry
from lowering.passes.host_shapes import HostShapes

# Kernels that need temporary buffers from the host (kernels take only buffers):
# Ops whose results are buffers the enclosing scope owns.
OWNING_OPS = ("memref.alloc", "scf.while", "aot.switch")
# the values a shape tensor's element type holds (host_shapes.SHAPE_ELEMS)
ELEMENT_RANGES = {"i32": (-2 ** 31, 2 ** 31 - 1), "i64": (-2 ** 63, 2 ** 63 - 1),
                  "ui32": (0, 2 ** 32 - 1), "ui64": (0, 2 ** 64 - 1), "index": (-2 ** 63, 2 ** 63 - 1)}


def last_users(ops) -> dict:
    """Each value to the op of this list that uses it last (uses inside an op's regions
    count as uses by that op)."""
    table = {}
    for op in ops:
        for inner in op.walk():
            for v in inner.operands:
                table[v] = op
    return table


def pointwise(fusion: Operation, result_type) -> bool:
    """Every value in the fusion has the result's shape or is a scalar, and every op is
    elementwise (or a splat constant, or a scalar broadcast): element i of the result reads
    only element i of each input."""
    block = fusion.regions[0].blocks[0]
    ok_shape = {result_type.shape, ()}
    if any(a.type.shape not in ok_shape for a in block.args):
        return False
    for inner in block.ops[:-1]:
        if any(r.type.shape not in ok_shape for r in inner.results):
            return False
        if registry.is_kind(inner.key, "elementwise") or inner.key == "constant":
            continue
        if inner.key == "broadcast_in_dim" and inner.operands[0].type.shape == ():
            continue
        return False
    return True


def _one_associative_combiner(red: Operation) -> bool:
    """A reduce of one input whose body is one add, multiply, maximum or minimum: its chunks
    may be reduced apart and combined afterwards (the split reductions below)."""
    body = red.regions[0].blocks[0].ops
    return len(red.operands) == 2 and len(body) == 2 and \
        body[0].key in ("add", "multiply", "maximum", "minimum")


def split_column_reduction(fusion: Operation, target) -> bool:
    """A kInput fusion whose root reduces leading dims (a column sum) with one associative
    combiner and one result: its rows are cut into Target.column_chunks chunks reduced on their
    own (in parallel) into a scratch, then combined (loops.emit_reduce_columns). One
    thread walking all rows in memory order already reads at one core's limit; the
    chunks let two read at once."""
    if fusion.attrs.get("fusion_kind") != "kInput" or not target.column_chunks \
            or not target.memory_order_columns:
        return False
    root = fusion.regions[0].blocks[0].ops[-1].operands[0].owner
    if not isinstance(root, Operation) or root.key != "reduce" or not _one_associative_combiner(root):
        return False
    dims, rank = list(root.attrs["dimensions"]), root.operands[0].type.rank
    return bool(dims) and len(dims) != rank and dims == list(range(len(dims)))


# A reduction of the last dim is split into chunks of each row (split_row_reduction) when it
# has at most this many rows (each row is then long enough to share; more rows are shared
# out whole) and rows of at least ROW_SPLIT_MIN_LENGTH elements (or a run-time length).
ROW_SPLIT_MAX_ROWS = 4
ROW_SPLIT_MIN_LENGTH = 1 << 18


def split_row_reduction(fusion: Operation, target, sizes: dict | None = None) -> bool:
    """A kInput fusion whose root reduces the last dim of few long rows (a [1, N] sum, a
    full sum of [N]) with one associative combiner and one result: each row is cut into
    Target.column_chunks chunks reduced in parallel into a scratch, then combined in chunk
    order (loops.emit_split_rows). Whole rows per thread left all but one core idle.
    `sizes` (value -> its dims, ints or host index Values) rules out rows never few and long
    (_rows_outnumber_length)."""
    if fusion.attrs.get("fusion_kind") != "kInput" or not target.column_chunks or not target.threads:
        return False
    root = fusion.regions[0].blocks[0].ops[-1].operands[0].owner
    if not isinstance(root, Operation) or root.key != "reduce" or not _one_associative_combiner(root):
        return False
    shape = root.operands[0].type.shape
    return list(root.attrs["dimensions"]) == [len(shape) - 1] and _few_long_rows(
        shape, run_time_rows=target.gpu is None) and not _rows_outnumber_length(
        (sizes or {}).get(root.operands[0]))


def split_row_fusion(fusion: Operation, target, sizes: dict | None = None) -> bool:
    """A row fusion (softmax, layernorm: loops.emit_row_fusion) over few long rows (or a
    run-time count of long rows, on a CPU: the kernels choose when they run), its
    reductions each of the last dim of a value of the result's shape and element type, with
    one associative combiner: one kernel per reduction and one for the elements, each over
    Target.column_chunks chunks of every row split over threads, the reductions' partials
    in a scratch that later kernels combine in chunk order (loops.emit_split_row_fusion).
    `sizes` as for split_row_reduction."""
    if fusion.attrs.get("fusion_kind") != "kInput" or not target.column_chunks or not target.threads:
        return False
    ops = fusion.regions[0].blocks[0].ops
    root = ops[-1].operands[0].owner
    if not isinstance(root, Operation) or root.key == "reduce" or len(fusion.results) != 1:
        return False
    out = fusion.results[0].type
    if not _few_long_rows(out.shape, run_time_rows=target.gpu is None) or \
            _rows_outnumber_length((sizes or {}).get(ops[-1].operands[0])):
        return False
    return all(_one_associative_combiner(red) and red.operands[0].type.shape == out.shape
               and red.results[0].type.elem == out.elem for red in ops if red.key == "reduce")


def _few_long_rows(shape, run_time_rows: bool = False) -> bool:
    """At most ROW_SPLIT_MAX_ROWS rows (static) of ROW_SPLIT_MIN_LENGTH elements or more (or
    a run-time length). With `run_time_rows`, a run-time row count too: the kernel then cuts
    rows into chunks or shares whole rows out as the count it meets asks
    (loops.emit_split_rows)."""
    long = shape[-1] is None or shape[-1] >= ROW_SPLIT_MIN_LENGTH
    if any(n is None for n in shape[:-1]):
        return run_time_rows and long
    rows = 1
    for n in shape[:-1]:
        rows *= n
    return rows <= ROW_SPLIT_MAX_ROWS and long


def _rows_outnumber_length(dims) -> bool:
    """Whether a run-time row length is also a row dim (the host computes equal sizes once,
    so one Value): attention's [b, h, s, s] scores. Rows are then at least as many as a row
    is long, so fewer rows than chunks means rows too short to cut, and the split kernels
    (three with a softmax, their cut loops costing LLVM ~0.3 s each) would never cut one."""
    if not dims or isinstance(dims[-1], int):
        return False
    return any(d is dims[-1] for d in dims[:-1])


def memref_of(t: TensorType) -> MemRefType:
    return MemRefType(t.shape, t.elem)


class FunctionBufferizer:
    def __init__(self, module: Module, func: Operation, globals_: list, compile_target):
        self.module = module
        self.compile_target = compile_target
        self.func = func
        self.globals = globals_
        self.buffers: dict = {}  # tensor Value -> memref Value
        self.shapes: dict = {}  # tensor Value -> [int | index Value]
        self.ops: list[Operation] = []
        self.hs = HostShapes(self.emit, func.attrs["sym_name"])
        self.moved: set = set()  # buffers whose ownership passed into a loop
        self.last_user: dict = {}  # tensor value -> the op of its block that uses it last

    def run(self) -> Operation:
        func = self.func
        fn: FunctionType = func.attrs["function_type"]
        old_block = func.regions[0].blocks[0]
        ret = old_block.ops[-1]
        static_results = all(t.is_static for t in fn.results)
        arg_types = [memref_of(t) for t in fn.inputs]
        out_types = [memref_of(t) for t in fn.results] if static_results else []
        block = Block(arg_types + out_types)
        self.entry_args = set(block.args[:len(arg_types)])
        for old, new in zip(old_block.args, block.args):
            self.buffers[old] = new
            new.hint = old.hint
            self.shapes[old] = [self.hs.dim(new, d) for d in range(new.type.rank)]
        for i, d, bound in func.attrs.get("aot.arg_bounds", ()):  # bounded dynamism
            arg = old_block.args[i]
            self.hs.require("sle", self.shapes[arg][d], bound, func,
                            f"argument #{i} (%{arg.hint or i}) dim {d} exceeds its bound")
        outs = block.args[len(arg_types):]
        # results written straight into the caller's buffers where a kernel produces them
        target: dict = {}
        if static_results:
            for v, out in zip(ret.operands, outs):
                if v not in target and isinstance(v.owner, Operation) and v.owner.key != "constant":
                    target[v] = out
        self.last_user.update(last_users(old_block.ops))
        for op in old_block.ops[:-1]:
            self.lower(op, target)
        returned = []
        for i, v in enumerate(ret.operands):
            buf = self.buffers[v]
            if static_results:
                if buf is not outs[i]:
                    self.emit("memref.copy", [buf, outs[i]], loc=ret.loc)
                continue
            if not self.is_allocated(buf) or buf in returned:
                # the caller takes ownership of returned buffers: never an argument or a constant
                copy = self.alloc_shape(v.type, self.shapes[v], ret.loc)
                self.emit("memref.copy", [buf, copy], loc=ret.loc)
                buf = copy
            returned.append(buf)
        self.insert_deallocs(keep=set(returned) | set(outs))
        for op in self.ops:
            block.append(op)
        block.append(Operation("func.return", returned, [], loc=ret.loc))
        new_attrs = dict(func.attrs)
        new_attrs["function_type"] = FunctionType(tuple(arg_types + out_types),
                                                  tuple(v.type for v in returned))
        new_attrs["aot.num_inputs"] = len(arg_types)
        new_attrs.pop("arg_attrs", None)
        new_attrs.pop("res_attrs", None)
        return Operation("func.func", [], [], new_attrs, [Region([block])], func.loc)

    def emit(self, name, operands, result_types=(), attrs=None, regions=(), loc=None):
        op = Operation(name, operands, result_types, attrs or {}, regions, loc or self.func.loc)
        self.ops.append(op)
        return op

    def is_allocated(self, buf: Value) -> bool:
        """Owned by the current scope: freed by it, or handed on (returned, yielded)."""
        return isinstance(buf.owner, Operation) and buf.owner.name in OWNING_OPS

    def in_region(self, build) -> list:
        """Run `build` with emission redirected to a new op list (a region's body); constants
        made inside stay inside."""
        saved_ops, saved_shapes, saved_users = self.ops, self.hs.save(), dict(self.last_user)
        self.ops = []
        try:
            build()
            return self.ops
        finally:  # what a region learned about last uses does not hold outside it
            self.ops, self.last_user = saved_ops, saved_users
            self.hs.restore(saved_shapes)

    def owned_results(self, values: list, keep_as_is: list, loc, always_copy=False) -> list:
        """Buffers a region hands out must be its own and distinct: copy the others."""
        out = []
        for v_buf, (v, same) in zip(values, keep_as_is):
            if not always_copy and (same is v_buf or (self.is_allocated(v_buf) and v_buf not in out
                                                      and v_buf.owner in self.ops)):
                out.append(v_buf)
                continue
            copy = self.alloc_shape(v.type, self.shapes[v], loc)
            self.emit("memref.copy", [v_buf, copy], loc=loc)
            out.append(copy)
        return out

    def bind_region_args(self, block: Block, tensor_args: list) -> list:
        """Region block args (buffers) stand for the tensor args; their dims are read here."""
        for t_arg, m_arg in zip(tensor_args, block.args):
            self.buffers[t_arg] = m_arg
            self.shapes[t_arg] = [self.hs.dim(m_arg, d) for d in range(m_arg.type.rank)]
        return block.args

    def lower_while(self, op: Operation) -> None:
        """scf.while over owned copies of the carried values.

        A carried value of static shape ping-pongs between two buffers: the body's kernel
        writes the new value straight into the spare one, then the two swap, so the loop
        allocates nothing per iteration. A carried value of dynamic shape gets a new buffer
        from the body each iteration and the old one is freed."""
        n = len(op.results)
        types = [memref_of(r.type) for r in op.results]
        static = [i for i, t in enumerate(types) if t.is_static]
        # the loop frees what it carries: it starts from copies, since the initial values
        # may still be read after the loop
        starts = self.owned_results([self.buffers[v] for v in op.operands],
                                    [(v, None) for v in op.operands], op.loc, always_copy=True)
        spares = [self.alloc_shape(op.results[i].type, list(types[i].shape), op.loc) for i in static]
        self.moved.update(starts + spares)
        all_types = types + [types[i] for i in static]
        cond, body = (r.blocks[0] for r in op.regions)
        before, after = Block(all_types), Block(all_types)

        def build_cond():
            self.last_user.update(last_users(cond.ops))
            self.bind_region_args(before, cond.args)
            for inner in cond.ops[:-1]:
                self.lower(inner, {})
            pred = self.emit("memref.load", [self.buffers[cond.ops[-1].operands[0]]],
                             [ScalarType("i1")], loc=op.loc).result
            self.insert_deallocs(keep=set())
            self.emit("scf.condition", [pred] + list(before.args), loc=op.loc)

        def build_body():
            self.last_user.update(last_users(body.ops))
            current, spare = self.bind_region_args(after, body.args), after.args[n:]
            ret = body.ops[-1]
            target = {}
            for k, i in enumerate(static):
                v = ret.operands[i]
                if v not in target and v not in body.args:
                    target[v] = spare[k]  # the kernel computing it writes the spare buffer
            for inner in body.ops[:-1]:
                self.lower(inner, target)
            new = [None] * n
            next_spare = list(spare)
            for k, i in enumerate(static):
                v, buf = ret.operands[i], self.buffers[ret.operands[i]]
                if buf is current[i]:  # carried unchanged
                    new[i] = current[i]
                    continue
                if buf is not spare[k]:
                    self.emit("memref.copy", [buf, spare[k]], loc=ret.loc)
                new[i], next_spare[k] = spare[k], current[i]
            dynamic = [i for i in range(n) if i not in static]
            fresh = self.owned_results([self.buffers[ret.operands[i]] for i in dynamic],
                                       [(ret.operands[i], current[i]) for i in dynamic], ret.loc)
            for i, buf in zip(dynamic, fresh):
                new[i] = buf
                if buf is not current[i]:
                    self.emit("memref.dealloc", [current[i]], loc=ret.loc)
            self.insert_deallocs(keep=set(new) | set(next_spare))
            self.emit("scf.yield", new + next_spare, loc=ret.loc)

        for ops, block in ((self.in_region(build_cond), before), (self.in_region(build_body), after)):
            for inner in ops:
                block.append(inner)
        loop = self.emit("scf.while", starts + spares, all_types,
                         regions=[Region([before]), Region([after])], loc=op.loc)
        for spare_result in loop.results[n:]:
            self.emit("memref.dealloc", [spare_result], loc=op.loc)
        self.bind_results(op, loop)

    def lower_switch(self, op: Operation) -> None:
        """if/case as aot.switch on an index; an out-of-range case index takes the last branch
        (XLA). Each branch yields buffers it owns."""
        n = len(op.regions)
        scalar = self.emit("memref.load", [self.buffers[op.operands[0]]],
                           [ScalarType(op.operands[0].type.elem)], loc=op.loc).result
        if op.key == "if":  # true is branch 0
            index = self.emit("arith.select", [scalar, self.hs.index(0), self.hs.index(1)], [INDEX],
                              loc=op.loc).result
        else:
            i = self.emit("arith.index_cast", [scalar], [INDEX], loc=op.loc).result
            ok = self.emit("arith.andi", [self.hs.cmp("sge", i, 0), self.hs.cmp("slt", i, n)],
                           [ScalarType("i1")], loc=op.loc).result
            index = self.emit("arith.select", [ok, i, self.hs.index(n - 1)], [INDEX], loc=op.loc).result
        types = [memref_of(r.type) for r in op.results]
        regions = []
        for region in op.regions:
            branch = region.blocks[0]

            def build(branch=branch):
                self.last_user.update(last_users(branch.ops))
                for inner in branch.ops[:-1]:
                    self.lower(inner, {})
                ret = branch.ops[-1]
                new = self.owned_results([self.buffers[v] for v in ret.operands],
                                         [(v, None) for v in ret.operands], ret.loc)
                self.insert_deallocs(keep=set(new))
                self.emit("scf.yield", new, loc=ret.loc)
            regions.append(Region([Block([], self.in_region(build))]))
        switch = self.emit("aot.switch", [index], types, regions=regions, loc=op.loc)
        self.bind_results(op, switch)

    def bind_results(self, op: Operation, host_op: Operation) -> None:
        for r, b in zip(op.results, host_op.results):
            self.buffers[r] = b
            self.shapes[r] = [self.hs.dim(b, d) for d in range(b.type.rank)]

    def alloc_shape(self, t: TensorType, shape: list, loc) -> Value:
        # sizes a shape assertion made equal are allocated as one (hs.root), the value the
        # kernels are passed for them (lower_fusion): a kernel's loop bounds are then its
        # size arguments, the same values its index clamps and reshapes read
        dynamic = [self.hs.value(self.hs.root(d)) for d, n in zip(shape, t.shape) if n is None]
        return self.emit("memref.alloc", dynamic, [memref_of(t)], loc=loc).result

    def alloc(self, v: Value, target: dict, loc) -> Value:
        if v in target:
            return target[v]
        return self.alloc_shape(v.type, self.shapes[v], loc)

    def lower(self, op: Operation, target: dict) -> None:
        key = op.key
        if key == "constant":
            name = f"__constant_{len(self.globals)}"
            value: DenseAttr = op.attrs["value"]
            self.globals.append(Operation("memref.global", [], [], {
                "sym_name": name, "type": memref_of(value.type), "initial_value": value,
                "constant": True}, loc=op.loc))
            g = self.emit("memref.get_global", [], [memref_of(value.type)],
                          {"name": SymbolRef(name)}, loc=op.loc)
            self.buffers[op.result] = g.result
            self.shapes[op.result] = list(value.type.shape)
            self.hs.know_constant(g.result, value)
            return
        if key == "while":
            self.lower_while(op)
            return
        if key in ("if", "case"):
            self.lower_switch(op)
            return
        if key == "custom_call":  # @shape_assertion, checked in the HLO stage
            self.lower_shape_assertion(op)
            return
        if key == "get_dimension_size":
            self.lower_get_dimension_size(op, target)
            return
        if key == "fusion":
            self.lower_fusion(op, target)
            return
        if key in ("dhlo.where", "dhlo.unique"):
            self.lower_data_dependent(op)
            return
        rule = registry.rule(op, "shape_rule")
        if rule is None:
            raise op.error("no shape function for this op")
        bufs = [self.buffers[v] for v in op.operands]
        shapes = [self.shapes[v] for v in op.operands]
        for r, shape in zip(op.results, rule(self.hs, op, shapes, bufs)):
            self.hs.require_buffer(op, r.type.elem, shape)
            self.shapes[r] = shape
        outs = [self.alloc(r, target, op.loc) for r in op.results]
        scratch_rule = registry.rule(op, "scratch", self.compile_target) or (lambda *a: [])
        wanted = scratch_rule(op, shapes, self.hs, [self.shapes[r] for r in op.results])
        attrs = dict(op.attrs)  # (after the rule: it may mark what it chose)
        scratch = [self.alloc_shape(t, shape, op.loc) for t, shape in wanted]
        if scratch:  # the kernel's temporaries: freed right after it, like any buffer
            attrs["aot.scratch"] = len(scratch)
        attrs.update(self.known_elements(bufs, outs))
        regions = op.regions
        op.regions = []
        self.emit("lmhlo." + op.short_name, bufs + outs + scratch, [], attrs, regions, loc=op.loc)
        for r, b in zip(op.results, outs):
            self.buffers[r] = b

    def known_elements(self, ins: list, outs: list) -> dict:
        """{"aot.known": (operand, flat position, value)...} of the elements of a kernel's
        operands the host knows as integers (a small constant's, a shape tensor's it stored or
        folded), for the kernel to use instead of loading them (loops.fold_known_loads); {}
        when none. Not of a buffer the kernel also writes (in place)."""
        known = []
        for i, buf in enumerate(ins):
            elements = self.hs.known.get(buf)
            if elements is None or buf in outs or buf.type.elem not in ELEMENT_RANGES:
                continue
            lo, hi = ELEMENT_RANGES[buf.type.elem]
            known += [x for pos, v in enumerate(elements)
                      if isinstance(v, int) and lo <= v <= hi for x in (i, pos, v)]
        return {"aot.known": tuple(known)} if known else {}

    def lower_get_dimension_size(self, op, target):
        """A shape read as data: computed on the host, stored into a scalar buffer."""
        d = self.shapes[op.operands[0]][op.attrs["dimension"]]
        self.shapes[op.result] = []
        out = self.alloc(op.result, target, op.loc)
        v = self.emit("arith.index_cast", [self.hs.value(d)], [ScalarType("i32")], loc=op.loc).result
        self.emit("memref.store", [v, out], loc=op.loc)
        self.buffers[op.result] = out
        self.hs.known[out] = [d]  # what a shape built from it reads: the dim itself

    def lower_data_dependent(self, op: Operation) -> None:
        """Upper-bound buffer and a count from the kernel, then an exact-size result."""
        src = op.operands[0]
        n = 1
        for d in self.shapes[src]:
            n = self.hs.mul(n, d)
        first = op.results[0]
        bound_shape = [n] + list(self.shapes[src])[1:] if op.key == "dhlo.unique" else [n, src.type.rank]
        bound_type = TensorType(tuple(d if isinstance(d, int) else None for d in bound_shape),
                                first.type.elem)
        bound = self.alloc_shape(bound_type, bound_shape, op.loc)
        count_buf = self.emit("memref.alloc", [], [MemRefType((), "i64")], loc=op.loc).result
        extra = []
        if op.key == "dhlo.unique":
            self.shapes[op.results[1]] = list(self.shapes[src])
            extra = [self.alloc_shape(op.results[1].type, self.shapes[src], op.loc)]
            self.buffers[op.results[1]] = extra[0]
        self.emit("l" + op.name, [self.buffers[src], bound] + extra + [count_buf], [],
                  dict(op.attrs), loc=op.loc)
        count = self.hs.load_index(count_buf, None)
        shape = [count] + ([src.type.rank] if op.key == "dhlo.where" else [])
        self.shapes[first] = shape
        exact = self.alloc_shape(first.type, shape, op.loc)
        self.emit("memref.copy", [bound, exact], loc=op.loc)  # copies the exact-size prefix
        self.buffers[first] = exact

    def lower_shape_assertion(self, op: Operation) -> None:
        """The call fails with JAX's message, its {k} placeholders filled with the values."""
        import re
        pred_buf, *value_bufs = (self.buffers[v] for v in op.operands)
        self.asserted_equal(op.operands[0])
        pred = self.emit("memref.load", [pred_buf], [ScalarType("i1")], loc=op.loc).result
        values = [self.hs.load_index(b, None) for b in value_bufs]
        message = op.attrs["error_message"].replace("%", "%%")
        args = []

        def placeholder(m):
            k = int(m.group(1))
            if k >= len(values):
                return m.group(0)
            args.append(self.hs.value(values[k]))  # (a size known here is an int)
            return "%lld"
        message = re.sub(r"\{(\d+)\}", placeholder, message)
        self.emit("aot.check", [pred] + args, [], {"message": message}, loc=op.loc)

    def asserted_equal(self, pred: Value) -> None:
        """A shape assertion that two dims are equal (jax.export's check that the arguments
        sharing a symbolic dim agree) makes them the same dim from here on: the call fails
        before any kernel runs otherwise. row_view then sees a `v_cache[i]` sliced to the
        `k_cache`'s length as the whole row."""
        fusion = pred.owner
        if not isinstance(fusion, Operation) or fusion.key != "fusion" or not fusion.regions:
            return  # (an op already lowered here keeps its key but not its region)
        block = fusion.regions[0].blocks[0]
        if len(block.ops) != 2 or block.ops[0].key != "compare" or \
                getattr(block.ops[0].attrs.get("comparison_direction"), "value", None) != "EQ":
            return
        cmp = block.ops[0]
        if cmp.results[0] is not block.ops[1].operands[0] or \
                not all(x in block.args for x in cmp.operands):
            return
        dims = []
        for x in cmp.operands:
            buf = self.buffers.get(fusion.operands[block.args.index(x)])
            known = self.hs.known.get(buf)
            if known is None or len(known) != 1:
                return
            dims.append(known[0])
        self.hs.assume_equal(*dims)

    def lower_fusion(self, op: Operation, target: dict) -> None:
        """The fused shape function runs here; the kernel gets the dims it needs as operands."""
        block = op.regions[0].blocks[0]
        env = dict(zip(block.args, [self.shapes[v] for v in op.operands]))
        bufs = dict(zip(block.args, [self.buffers[v] for v in op.operands]))
        dim_operands = []
        for inner in block.ops[:-1]:
            rule = registry.rule(inner, "shape_rule")
            if rule is None:
                raise inner.error("no shape function for this op")
            shapes = rule(self.hs, inner, [env[v] for v in inner.operands],
                          [bufs.get(v) for v in inner.operands])
            for r, shape in zip(inner.results, shapes):
                self.hs.require_buffer(inner, r.type.elem, shape)
                env[r] = shape
                # a size a shape assertion made equal to another is passed as that one
                # (hs.root): the kernel sees one value, and its reshapes map it straight through
                dim_operands += [self.hs.value(self.hs.root(d)) for d, n in zip(shape, r.type.shape)
                                 if n is None]
        ret = block.ops[-1]
        for r, v in zip(op.results, ret.operands):
            self.shapes[r] = env[v]
        ins = [self.buffers[v] for v in op.operands]
        if self.row_view(op, block, bufs, env, target):
            return
        if len(op.results) == 1 and self.compile_target.gpu is None:
            folded = self.hs.fold_shape_tensor(block, ins)
            if folded is not None:
                self.store_on_host(op.results[0], folded, target, op.loc)
                return
        outs = []
        for r in op.results:
            outs.append(self.in_place_buffer(op, r, target, outs) or self.alloc(r, target, op.loc))
        attrs = dict(op.attrs)
        if split_column_reduction(op, self.compile_target) or \
                split_row_reduction(op, self.compile_target, env):
            # per-chunk partial results, combined afterwards
            r = op.results[0]
            chunks = self.compile_target.column_chunks
            shape = (chunks,) + tuple(r.type.shape)  # partial[chunk, kept dims...]
            outs.append(self.alloc_shape(TensorType(shape, r.type.elem),
                                         [chunks] + list(self.shapes[r]), op.loc))
            attrs["aot.scratch"] = 1
        elif split_row_fusion(op, self.compile_target, env):  # partial[chunk, reduction, rows...]
            r = op.results[0]
            chunks, n_red = self.compile_target.column_chunks, sum(o.key == "reduce" for o in block.ops)
            shape = (chunks, n_red) + tuple(r.type.shape[:-1])
            outs.append(self.alloc_shape(TensorType(shape, r.type.elem),
                                         [chunks, n_red] + list(self.shapes[r][:-1]), op.loc))
            attrs["aot.scratch"] = 1
        attrs["num_buffers"] = len(ins) + len(outs)
        attrs.update(self.known_elements(ins, outs))
        regions = op.regions
        op.regions = []
        self.emit("lmhlo.fusion", ins + outs + dim_operands, [], attrs, regions, loc=op.loc)
        folded = self.hs.fold_shape_tensor(block, ins) if len(outs) == 1 else None
        for r, b in zip(op.results, outs):
            self.buffers[r] = b
            self.hs.known.pop(b, None)  # an input's buffer written over in place
        if folded is not None:  # a shape tensor: its dims, for the host to read
            self.hs.known[outs[0]] = folded

    def row_view(self, op: Operation, block: Block, bufs: dict, env: dict, target: dict) -> bool:
        """A fusion that only picks one whole row along dim 0 of an entry argument (a decoder's
        `k_cache[i]`: a dynamic_gather of sizes [1, all the rest]) reads it in place: its
        result is an `aot.row_view` of the argument, not a copy (at a 2,048-token cache, a
        sixth of a token was spent copying such rows). Arguments are never written or freed,
        and a view is never freed; one returned is copied like any argument."""
        *prep, gather, ret = block.ops
        r = op.results[0] if len(op.results) == 1 else None
        rule = registry.rule(gather, "row_pick")
        picked = rule(gather) if rule is not None else None
        if (r is None or r in target or self.compile_target.gpu is not None or picked is None
                or ret.operands[0] is not gather.result):
            return False
        source, index = (gather.operands[i] for i in picked)
        src = bufs.get(source)
        shape, want = self.shapes[r], env[source][1:]
        if (src not in self.entry_args or len(shape) != len(want)
                or not all(self.hs.same(a, b) for a, b in zip(shape, want))):  # the whole row
            return False
        # one start index, maybe broadcast or reshaped from a scalar
        while index not in bufs and isinstance(index.owner, Operation) and index.owner in prep \
                and index.owner.key in ("broadcast_in_dim", "reshape"):
            index = index.owner.operands[0]
        if index not in bufs or math.prod(index.type.shape) != 1:
            return False
        start = self.hs.load_index(bufs[index], 0 if index.type.rank else None)
        rows = env[source][0]
        start = self.hs.max(self.hs.min(start, self.hs.sub(rows, 1)), 0)  # clamped, as gather
        view = self.emit("aot.row_view", [src, self.hs.value(start)], [memref_of(r.type)], loc=op.loc)
        self.buffers[r] = view.result
        return True

    def store_on_host(self, r: Value, dims: list, target: dict, loc) -> None:
        """A shape tensor whose every element the host knows (host_shapes.fold_shape_tensor:
        constants and sizes, concatenated, reshaped, added...) is stored by the host code, a
        few scalar stores, instead of by a kernel of its own: torch.export's MobileNetV3 with
        a `?` batch ran 36 such kernels a call, each a call through the thread pool. Not on a
        GPU, where each store is a copy to the device and one kernel writes them all."""
        out = self.alloc(r, target, loc)
        elem, shape = ScalarType(r.type.elem), r.type.shape
        for flat, d in enumerate(dims):
            at = [self.hs.index(int(i)) for i in np.unravel_index(flat, shape)] if shape else []
            v = self.emit("arith.index_cast", [self.hs.value(d)], [elem], loc=loc).result
            self.emit("memref.store", [v, out] + at, loc=loc)
        self.buffers[r] = out
        self.hs.known[out] = dims

    def in_place_buffer(self, op: Operation, r: Value, target: dict, taken: list):
        """A pointwise fusion may write its result over an input of the same shape whose
        buffer dies here: element i is read before it is written, and nothing reads it after."""
        if r in target or not pointwise(op, r.type):
            return None
        for v in op.operands:
            buf = self.buffers[v]
            if (self.last_user.get(v) is op and v.type == r.type and buf not in taken
                    and self.is_allocated(buf) and buf.owner in self.ops and buf not in self.moved
                    and all(a is b or a == b for a, b in zip(self.shapes[v], self.shapes[r]))):
                return buf
        return None

    def insert_deallocs(self, keep: set) -> None:
        """Free each buffer this scope owns right after the last op that touches it (an op
        touches what its nested regions use, too)."""
        freed = {op.operands[0] for op in self.ops if op.name == "memref.dealloc"}  # already
        owned = {r for op in self.ops if op.name in OWNING_OPS for r in op.results} - freed
        last_use: dict = {}
        for i, op in enumerate(self.ops):
            for inner in op.walk():
                for v in inner.operands:
                    if v in owned:
                        last_use[v] = i
        freed_after: dict = {}  # op index -> the buffers last used there, in first-use order
        for v, j in last_use.items():
            freed_after.setdefault(j, []).append(v)
        out = []
        for i, op in enumerate(self.ops):
            out.append(op)
            if op.name in ("scf.condition", "scf.yield", "func.return"):
                continue
            for v in [v for v in freed_after.get(i, ()) if v not in keep and v not in self.moved]:
                out.append(Operation("memref.dealloc", [v], [], loc=op.loc))
            for r in op.results:
                if op.name in OWNING_OPS and r not in last_use and r not in keep and r not in freed:
                    out.append(Operation("memref.dealloc", [r], [], loc=op.loc))
        self.ops = out


ESCAPING_USES = ("scf.yield", "scf.condition", "scf.while", "aot.switch", "func.return")


def mark_stack_buffers(func: Operation, stack_limit: int) -> None:
    """A small static buffer (up to the target's `stack_limit` bytes) used only by kernels,
    loads, stores and copies in its scope needs no allocator call: the LLVM stage gives it
    a slot in the entry block."""
    from abi.dtypes import dtype as abi_dtype
    escapes = set()
    allocs = []
    for op in func.walk():
        if op.name in ESCAPING_USES:
            escapes.update(op.operands)
        if op.name == "memref.alloc" and op.result.type.is_static:
            t = op.result.type
            size = abi_dtype(t.elem).size
            for n in t.shape:
                size *= n
            if size <= stack_limit:
                allocs.append(op)
    for op in allocs:
        if op.result not in escapes:
            op.attrs["aot.stack"] = True


def bufferize(module: Module, target) -> Module:
    globals_: list = []
    new_ops = []
    for op in module.ops:
        if op.name == "func.func" and op.regions:
            func = FunctionBufferizer(module, op, globals_, target).run()
            mark_stack_buffers(func, target.stack_limit)
            new_ops.append(func)
        else:
            new_ops.append(op)
    module.ops = globals_ + new_ops
    return module
