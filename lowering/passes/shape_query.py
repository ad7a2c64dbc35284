"""Shape queries: for each entry F, a host function that computes F's result dims and the
peak bytes F will allocate, without running F's data kernels.

It is the backward slice of F's host code from the dims of its results and of its
allocations: `memref.dim`, index arithmetic, the checks on them, and the small kernels
that compute shape tensors (their buffers are read on the host). A dim that depends on
the data (the count of `dhlo.where`, `dhlo.unique`) is reported as -1, and so is the
peak when any allocation's size depends on the data.
"""
from __future__ import annotations

from lowering.ir.core import (
    INDEX,
    Block,
    FunctionType,
    MemRefType,
    Module,
    Operation,
    Region,
    Value,
    clone_op,
)
from lowering.ops import registry
from lowering.passes.host_shapes import HostShapes


def written_buffers(op: Operation) -> list:
    if op.name == "func.call":
        return [op.operands[i] for i in op.attrs.get("aot.writes", ())]
    if op.name in ("memref.copy", "memref.store"):
        return [op.operands[1]]
    return []


class Slicer:
    def __init__(self, host: Operation, kernels: dict):
        self.ops = host.regions[0].blocks[0].ops
        self.kernels = kernels
        self.writers: dict = {}
        for op in self.ops:
            for buf in written_buffers(op):
                self.writers.setdefault(buf, []).append(op)
        self.needed: set = set()
        self.data_dependent: set = set()  # values whose computation needs a data kernel
        self.buffer_dep: dict = {}  # buffer -> whether its contents need a data kernel

    def is_data_kernel(self, op: Operation) -> bool:
        if op.name != "func.call":
            return False
        kernel = self.kernels.get(op.attrs["callee"].name)
        return kernel is not None and registry.is_kind(
            "dhlo." + kernel.attrs.get("aot.kernel", ""), "data_dependent")

    def need(self, v: Value) -> bool:
        """Mark what computes v; returns True if v depends on data-dependent kernels."""
        if v in self.data_dependent:
            return True
        op = v.owner
        if not isinstance(op, Operation) or id(op) in self.needed:
            return False
        if op.regions:  # what a loop or a branch computes is known only by running it
            self.data_dependent.add(v)
            return True
        self.needed.add(id(op))
        dep = any(self.need(x) for x in op.operands)
        if op.name == "memref.load":
            dep |= self.need_buffer(op.operands[0])
        if dep:  # outside the slice: what reads it is reported as -1 or left out
            self.data_dependent.add(v)
            self.needed.discard(id(op))
        return dep

    def need_buffer(self, buf: Value) -> bool:
        """Mark what writes buf and, through the buffers those writers read, what wrote
        them; True if any of it is a data-dependent kernel (a `where` count stored into a
        buffer that a small kernel reads). A data-dependent buffer's writers leave the slice."""
        if buf not in self.buffer_dep:
            self.buffer_dep[buf] = False  # a buffer a call both reads and writes
            dep = False
            for w in self.writers.get(buf, []):
                if self.is_data_kernel(w):
                    dep = True
                    continue
                self.needed.add(id(w))
                written = written_buffers(w)
                dep = dep or any(self.need(x) for x in w.operands) or any(
                    self.need_buffer(x) for x in w.operands
                    if isinstance(x.type, MemRefType) and x not in written)
            if dep:
                for w in self.writers.get(buf, []):
                    self.needed.discard(id(w))
            self.buffer_dep[buf] = dep
        return self.buffer_dep[buf]


def build_query(host: Operation, kernels: dict) -> Operation:
    block = host.regions[0].blocks[0]
    ret = block.ops[-1]
    n_in = host.attrs["aot.num_inputs"]
    fn = host.attrs["function_type"]
    slicer = Slicer(host, kernels)
    result_dims = []  # per result: list of int | Value
    for t in fn.inputs[n_in:]:
        result_dims.append(list(t.shape))
    for buf in ret.operands:
        owner = buf.owner
        if owner.name == "memref.alloc":
            it = iter(owner.operands)
            result_dims.append([n if n is not None else next(it) for n in buf.type.shape])
        else:  # a loop's or a branch's result: its dims are known by running it
            result_dims.append([n if n is not None else -1 for n in buf.type.shape])
    allocs = [op for op in block.ops if op.name == "memref.alloc"]
    has_regions = any(op.regions for op in block.ops)
    data_dims = set()
    for dims in result_dims:
        for d in dims:
            if isinstance(d, Value) and slicer.need(d):
                data_dims.add(d)
    peak_known = not has_regions  # allocations inside loops and branches: run to know
    for a in allocs:
        for d in a.operands:
            if slicer.need(d):
                peak_known = False
    # the query fails where the call would: every check that does not depend on the data
    for op in block.ops:
        if op.name == "aot.check" and not any(slicer.need(v) for v in op.operands):
            slicer.needed.add(id(op))
    # buffers the slice touches need their allocs, and frees after their last use
    touched = {v for op in block.ops if id(op) in slicer.needed for v in op.operands}
    for op in block.ops:
        if op.name == "memref.alloc" and op.result in touched:
            slicer.needed.add(id(op))
    new_block = Block(list(fn.inputs[:n_in]))  # the query has no result buffers
    mapping = dict(zip(block.args, new_block.args))
    kept = [op for op in block.ops if id(op) in slicer.needed]
    last_use = {}  # buffer -> the kept op that reads it last
    for op in kept:
        for v in op.operands:
            if isinstance(v.owner, Operation) and v.owner.name == "memref.alloc":
                last_use[v] = op
    freed_after: dict = {}  # op -> the buffers freed after it, in first-use order
    for v, op in last_use.items():
        freed_after.setdefault(op, []).append(v)
    for op in kept:
        new_block.append(clone_op(op, mapping))
        for v in freed_after.get(op, ()):
            new_block.append(Operation("memref.dealloc", [mapping[v]], [], loc=op.loc))

    def emit(name, operands, type=INDEX, **attrs):
        op = Operation(name, operands, [type] if type else [], attrs, loc=host.loc)
        new_block.append(op)
        return op.results[0] if type else None

    def const(n):
        return emit("arith.constant", [], value=n)

    outs = []
    for dims in result_dims:
        for d in dims:
            if isinstance(d, int):
                outs.append(const(d))  # -1 included: decided at run time
            elif d in data_dims:
                outs.append(const(-1))
            else:
                outs.append(mapping[d])
    # peak bytes: allocations and frees replayed in the host function's order, folded
    # where sizes are static
    if peak_known:
        from abi.dtypes import dtype as abi_dtype
        hs = HostShapes(lambda name, operands, types, attrs: new_block.append(
            Operation(name, operands, types, attrs, loc=host.loc)), host.attrs["sym_name"])
        live, peak, sizes = 0, 0, {}
        for op in block.ops:
            if op.name == "memref.alloc":
                it = iter(op.operands)
                size = abi_dtype(op.result.type.elem).size
                dims = [n if n is not None else mapping[next(it)] for n in op.result.type.shape]
                hs.require_buffer(op, op.result.type.elem, dims, always=True)  # no wrapped sizes
                for n in dims:
                    size = hs.mul(size, n)
                sizes[op.result] = size
                live = hs.add(live, size)
                peak = hs.max(peak, live)
            elif op.name == "memref.dealloc" and op.operands[0] in sizes:
                live = hs.sub(live, sizes[op.operands[0]])
        outs.append(hs.value(peak))
    else:
        outs.append(const(-1))
    new_block.append(Operation("func.return", outs, [], loc=host.loc))
    name = host.attrs["sym_name"]
    return Operation("func.func", [], [], {
        "sym_name": f"{name}__output_shapes", "aot.shape_query": name,
        "aot.num_inputs": n_in,
        "function_type": FunctionType(tuple(fn.inputs[:n_in]), tuple(INDEX for _ in outs))},
        [Region([new_block])], host.loc)


def add_shape_queries(module: Module) -> Module:
    kernels = {f.attrs["sym_name"]: f for f in module.functions() if "aot.kernel" in f.attrs}
    hosts = [f for f in module.functions() if "aot.kernel" not in f.attrs
             and "aot.shape_query" not in f.attrs]
    module.ops.extend(build_query(h, kernels) for h in hosts)
    return module
