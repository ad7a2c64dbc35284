"""Buffer-level input (LHLO/LDHLO: `lmhlo.*`, `xla_lhlo.*`, `xla_ldhlo.*`).

A user may start from buffers instead of tensors. Each buffer-form op
`lmhlo.X(ins..., out)` is raised to the form bufferisation produces: an
`lmhlo.fusion(ins..., out)` whose region computes `mhlo.X` on tensors. An
`lmhlo.fusion` written with buffers inside (the RFC's style: internal allocs,
buffer ops) is raised the same way, its internal buffers becoming values. From
there the pipeline is the one tensor-level input takes.
"""
from __future__ import annotations

from lowering.ir.core import (
    UNKNOWN_LOC,
    Block,
    CompileError,
    DenseAttr,
    MemRefType,
    Module,
    Operation,
    Region,
    SymbolRef,
    TensorType,
    Value,
)
from lowering.ops import registry
from lowering.ops.registry import NOT_YET
from lowering.ops.verify import verify_op
from lowering.passes.bufferize import memref_of
from lowering.passes.host_shapes import HostShapes
from lowering.passes.legalize import canonicalize_names, module_loc, public_functions


def is_buffer_level(module: Module) -> bool:
    for f in module.functions():
        fn = f.attrs["function_type"]
        if any(isinstance(t, MemRefType) for t in list(fn.inputs) + list(fn.results)):
            return True
    return False


def tensor_of(t: MemRefType) -> TensorType:
    return TensorType(t.shape, t.elem)


# how many trailing operands of a buffer op are outputs
def num_outputs(op: Operation) -> int:
    if op.short_name == "reduce":
        return len(op.operands) // 3
    return 1


def tensor_name(op: Operation) -> str:
    """`lmhlo.add` -> `mhlo.add`; the project's `ldhlo.slice` -> `dhlo.slice`."""
    return ("dhlo." if op.dialect == "ldhlo" else "mhlo.") + op.short_name


class FunctionImporter:
    def __init__(self, func: Operation, globals_: list):
        self.func = func
        self.globals = globals_
        self.pre: list = []  # host ops (dims, checks) to place before the op being raised
        self.hs = HostShapes(self.emit_pre, func.attrs["sym_name"])

    def emit_pre(self, name, operands, result_types=(), attrs=None, regions=(), loc=None):
        op = Operation(name, operands, result_types, attrs or {}, regions, loc or self.func.loc)
        self.pre.append(op)
        return op

    def buffer_dims(self, buf: Value) -> list:
        return [self.hs.dim(buf, d) for d in range(buf.type.rank)]

    def check_shapes(self, op: Operation, shapes: list, bufs: list) -> list:
        """Run the op's shape rule on the buffers' run-time dims, so that buffer-level input
        gets the same checks (never an out-of-bounds access) as tensor-level input."""
        rule = registry.rule(op, "shape_rule")
        if rule is None:
            raise op.error("no shape function for this op")
        return rule(self.hs, op, shapes, bufs)

    def run(self) -> Operation:
        func = self.func
        block = func.regions[0].blocks[0]
        written = set()
        for top in block.ops:
            for op in top.walk():  # every buffer op's operands are buffers (not an index, a token)
                if op.dialect in ("lmhlo", "ldhlo"):
                    for i, v in enumerate(op.operands):
                        if not isinstance(v.type, MemRefType):
                            raise op.error(f"operand #{i} has type {v.type}, not a buffer of "
                                           "numbers (memref<...xf32>, ...)")
                check_memref_op(op)
        for top in block.ops:
            for op in top.walk():  # fusion bodies write outer buffers too
                if op.dialect in ("lmhlo", "ldhlo") and op.short_name not in ("terminator", "fusion"):
                    written.update(op.operands[len(op.operands) - num_outputs(op):])
        args = block.args
        outs = [a for a in args if a in written]
        n_in = len(args) - len(outs)
        if outs and any(a not in written for a in args[n_in:]):
            raise func.error("output buffer arguments (those the function writes) must follow "
                             "the input arguments")
        if not block.ops:
            raise func.error("function body must end with a return")
        ret = block.ops[-1]
        if outs and ret.operands:
            raise func.error("a function may either write output arguments or return buffers, "
                             "not both")
        for a in outs:
            if not a.type.is_static:
                raise func.error("an output argument needs a static shape; return buffers of "
                                 "dynamic shape instead")
        new_ops = []
        for op in block.ops:
            self.pre = []
            lowered = self.lower(op)
            new_ops.extend(self.pre + lowered)
        block.ops = []
        for op in new_ops:
            block.append(op)
        func.attrs["aot.num_inputs"] = n_in
        return func

    def lower(self, op: Operation) -> list:
        if op.dialect not in ("lmhlo", "ldhlo"):
            if op.name in ("memref.alloc", "memref.dealloc", "memref.dim", "arith.constant",
                           "func.return"):
                op.attrs.pop("temp", None)
                return [op]
            raise op.error("op is not supported in buffer-level input")
        name = op.short_name
        if name == "copy":
            return [Operation("memref.copy", op.operands, [], {}, loc=op.loc)]
        if name == "constant":
            value: DenseAttr = op.attrs.get("value")
            if not isinstance(value, DenseAttr):
                raise op.error("needs a 'value = dense<...>' attribute")
            sym = f"__constant_{len(self.globals)}"
            self.globals.append(Operation("memref.global", [], [], {
                "sym_name": sym, "type": memref_of(value.type), "initial_value": value,
                "constant": True}, loc=op.loc))
            g = Operation("memref.get_global", [], [memref_of(value.type)], {"name": SymbolRef(sym)},
                          loc=op.loc)
            return [g, Operation("memref.copy", [g.result, op.operands[0]], [], {}, loc=op.loc)]
        if name in ("dot", "dot_general"):
            if len(op.operands) != 3:
                raise op.error(f"takes two operands and an output buffer, got {len(op.operands)}")
            if name == "dot":
                lr = op.operands[0].type.rank
                op.attrs["dot_dimension_numbers"] = {
                    "lhs_batching_dimensions": (), "rhs_batching_dimensions": (),
                    "lhs_contracting_dimensions": (lr - 1,), "rhs_contracting_dimensions": (0,)}
                op.name = "lmhlo.dot_general"
            return [op]
        if name == "fusion":
            return [self.raise_fusion(op)]
        if name in NOT_YET:
            raise op.error(f"{NOT_YET[name]} is not supported yet")
        if name == "reduce":
            return [self.raise_single(op, "kInput")]
        if registry.is_kind(op.key, "elementwise", "elemental"):
            return [self.raise_single(op, "kLoop")]
        raise op.error("op is not supported in buffer-level input")

    def raise_single(self, op: Operation, kind: str) -> Operation:
        """`lmhlo.X(ins..., outs...)` -> `lmhlo.fusion` computing `mhlo.X` on tensors."""
        n_out = num_outputs(op)
        ins, outs = op.operands[:-n_out], op.operands[-n_out:]
        block = Block([tensor_of(v.type) for v in ins])
        regions = [self.raise_body(r) for r in op.regions]
        inner = Operation(tensor_name(op), block.args, [tensor_of(v.type) for v in outs],
                          dict(op.attrs), regions, op.loc)
        block.append(inner)
        block.append(Operation("mhlo.return", inner.results, [], loc=op.loc))
        verify_raised(inner)
        shapes = self.check_shapes(inner, [self.buffer_dims(v) for v in ins], list(ins))
        dims = []
        for r, out, shape in zip(inner.results, outs, shapes):
            actual = self.buffer_dims(out)
            for d, (want, got) in enumerate(zip(shape, actual)):
                self.hs.require_equal(want, got, inner, f"output buffer dim {d} does not fit")
            dims += [self.hs.value(x) for x, n in zip(actual, r.type.shape) if n is None]
        return Operation("lmhlo.fusion", list(ins) + list(outs) + dims, [],
                         {"fusion_kind": kind, "num_buffers": len(ins) + len(outs)},
                         [Region([block])], op.loc)

    def raise_body(self, region: Region) -> Region:
        """A reduce body on buffers (`^bb0(%a, %b, %out: memref<f32>)`) to one on tensors."""
        old = region.blocks[0]
        n = len(old.args) // 3 if len(old.args) % 3 == 0 and old.ops and old.ops[0].dialect == "lmhlo" \
            else None
        if n is None:  # already a tensor body
            return region
        block = Block([tensor_of(a.type) for a in old.args[:2 * n]])
        current: dict = dict(zip(old.args[:2 * n], block.args))
        for op in old.ops:
            if op.short_name in ("terminator", "yield", "return"):
                continue
            if not op.operands or any(v not in current for v in op.operands[:-1]):
                raise op.error("a reduce body's ops read the body's arguments or values written "
                               "before them, and write one buffer")
            *ins, out = op.operands
            inner = Operation("mhlo." + op.short_name, [current[v] for v in ins],
                              [tensor_of(out.type)], dict(op.attrs), loc=op.loc)
            block.append(inner)
            current[out] = inner.result
        if any(a not in current for a in old.args[2 * n:]):
            raise region.parent.error("a reduce body must write its output buffers")
        results = [current[a] for a in old.args[2 * n:]]
        block.append(Operation("mhlo.return", results, [], loc=old.ops[0].loc if old.ops else UNKNOWN_LOC))
        return Region([block])

    def raise_fusion(self, op: Operation) -> Operation:
        """An RFC-style fusion on buffers: its internal allocs become tensor values."""
        if not op.regions or not op.regions[0].blocks:
            raise op.error("a fusion needs a body region")
        body = op.regions[0].blocks[0]
        local = {o.result for o in body.ops if o.name == "memref.alloc"}
        inputs: list[Value] = []
        block = Block()
        current: dict = {}
        outputs: list[Value] = []
        shapes: dict = {}  # tensor value -> dims
        dims: list = []  # run-time dims of internal values, in op order
        for inner in body.ops:
            if inner.name == "memref.alloc" or inner.short_name in ("terminator", "yield"):
                continue
            if inner.dialect not in ("lmhlo", "ldhlo"):
                raise inner.error("only buffer ops and allocs may appear inside a fusion")
            n_out = num_outputs(inner)
            ins, outs = inner.operands[:-n_out], inner.operands[-n_out:]
            args = []
            for v in ins:
                if v not in current:
                    if v in local:
                        raise inner.error("reads a fusion-local buffer before it is written")
                    current[v] = block.add_arg(tensor_of(v.type))
                    shapes[current[v]] = self.buffer_dims(v)
                    inputs.append(v)
                args.append(current[v])
            new = Operation(tensor_name(inner), args, [tensor_of(v.type) for v in outs],
                            dict(inner.attrs), [self.raise_body(r) for r in inner.regions], inner.loc)
            verify_raised(new)
            block.append(new)
            bufs = list(ins)
            result_shapes = self.check_shapes(new, [shapes[a] for a in args], bufs)
            for v, r, shape in zip(outs, new.results, result_shapes):
                actual = self.alloc_dims(v, body) if v in local else self.buffer_dims(v)
                for d, (want, got) in enumerate(zip(shape, actual)):
                    self.hs.require_equal(want, got, new, f"buffer dim {d} does not fit")
                shapes[r] = actual
                dims += [self.hs.value(x) for x, n in zip(actual, r.type.shape) if n is None]
                current[v] = r
                if v not in local and v not in outputs:
                    outputs.append(v)
        if len(outputs) != 1:
            raise op.error(f"a fusion must write exactly one buffer defined outside it, "
                           f"this one writes {len(outputs)}")
        root = current[outputs[0]].owner
        block.append(Operation("mhlo.return", [current[outputs[0]]], [], loc=op.loc))
        kind = "kInput" if root.short_name == "reduce" else "kLoop"
        return Operation("lmhlo.fusion", inputs + outputs + dims, [],
                         {"fusion_kind": kind, "num_buffers": len(inputs) + len(outputs)},
                         [Region([block])], op.loc)

    def alloc_dims(self, buf: Value, body: Block) -> list:
        """A fusion-local buffer's dims: its alloc's operands, defined before the fusion."""
        alloc = buf.owner  # one size per dynamic dim (check_memref_op)
        it = iter(alloc.operands)
        return [n if n is not None else next(it) for n in buf.type.shape]


def check_memref_op(op: Operation) -> None:
    """alloc, dealloc and dim as the later stages read them: an alloc has one memref result and
    a size per dynamic dim; a dim takes a buffer and a constant index within its rank."""
    n = {"memref.dealloc": 1, "memref.dim": 2}.get(op.name)
    if n is not None and len(op.operands) != n:
        raise op.error(f"takes {n} operands, got {len(op.operands)}")
    if op.name == "memref.alloc":
        if len(op.results) != 1 or not isinstance(op.results[0].type, MemRefType):
            raise op.error("an alloc has one result, a memref of numbers; got "
                           + (", ".join(str(r.type) for r in op.results) or "none"))
        t = op.results[0].type
        if len(op.operands) != t.shape.count(None):
            raise op.error(f"{t} has {t.shape.count(None)} dynamic dims, but the alloc gives "
                           f"{len(op.operands)} sizes")
    if op.name == "memref.dim":
        buf, index = op.operands
        const = index.owner
        value = const.attrs.get("value") if isinstance(const, Operation) \
            and const.name == "arith.constant" else None
        if not isinstance(buf.type, MemRefType) or not isinstance(value, int) \
                or not 0 <= value < buf.type.rank:
            raise op.error("takes a buffer and a constant index below its rank")


def verify_raised(op: Operation) -> None:
    verify_op(op)


def import_lhlo(module: Module) -> Module:
    """The LHLO stage for buffer-level input."""
    canonicalize_names(module)
    if not public_functions(module):
        raise CompileError("module has no public function with a body", module_loc(module))
    globals_: list = []
    for f in module.functions():
        FunctionImporter(f, globals_).run()
    module.ops = globals_ + module.ops
    return module
