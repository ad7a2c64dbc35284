"""Buffer-level input (LHLO/LDHLO: `lmhlo.*`, `xla_lhlo.*`, `xla_ldhlo.*`).

A user may start from buffers instead of tensors. Each buffer-form op
`lmhlo.X(ins..., outs...)` is raised to the form bufferisation produces: an
elementwise, elemental or reduce op becomes an `lmhlo.fusion(ins..., outs)` whose
region computes `mhlo.X` on tensors; a kernel op (sort, fft, convolution, ...) stays
`lmhlo.X(ins..., outs..., scratch...)` with its regions on tensors and the scratch
its kernel asks for. An `lmhlo.fusion` written with buffers inside (the RFC's style:
internal allocs, buffer ops) is raised the same way, its internal buffers becoming values.
`lmhlo.while` (its condition writes a `memref<i1>`) and `lmhlo.case` (an index or
predicate buffer picks a branch) become the host's `scf.while` and `aot.switch` around
their raised ops. From there the pipeline is the one tensor-level input takes.

Which trailing operands are outputs, and how region bodies on buffers (`^bb0(%a, %b:
memref<f32>, %out: memref<f32>)` with lmhlo ops) are read, is the `FORMS` table
(mhlo's lhlo_ops.td); the ops `REFUSED` names have no single-device tensor meaning.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from lowering.ir.attrs import dense_to_ints
from lowering.ir.core import (
    INDEX,
    UNKNOWN_LOC,
    Block,
    CompileError,
    DenseAttr,
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
from lowering.ops.registry import NOT_YET
from lowering.ops.verify import verify_op
from lowering.passes.bufferize import memref_of
from lowering.passes.host_shapes import HostShapes
from lowering.passes.legalize import canonicalize_names, module_loc, public_functions


def _one(n: int):
    return 1


def _thirds(n: int):
    return n // 3 if n and n % 3 == 0 else None


def _halves(n: int):
    return n // 2 if n and n % 2 == 0 else None


def _dot_attrs(op: Operation) -> None:
    """lmhlo.dot without dimension numbers is the classic dot: last dim of lhs by first of rhs."""
    if "dot_dimension_numbers" not in op.attrs:
        op.attrs["dot_dimension_numbers"] = {
            "lhs_batching_dimensions": (), "rhs_batching_dimensions": (),
            "lhs_contracting_dimensions": (op.operands[0].type.rank - 1,),
            "rhs_contracting_dimensions": (0,)}


def _broadcast_attrs(op: Operation) -> None:
    """lmhlo.broadcast prepends `broadcast_sizes` dims: a broadcast_in_dim onto the last ones."""
    try:
        sizes = dense_to_ints(op.attrs.pop("broadcast_sizes"))
    except (KeyError, ValueError, TypeError):
        raise op.error("needs a 'broadcast_sizes = dense<[...]>' attribute") from None
    rank = op.operands[0].type.rank
    op.attrs["broadcast_dimensions"] = tuple(range(len(sizes), len(sizes) + rank))


def _default_layouts(op: Operation) -> None:
    """triangular_solve's layout_a/b/output: buffers here are row-major, which is the only
    layout (minor-to-major n-1, ..., 0) this compiler can honour."""
    for key, v in zip(("layout_a", "layout_b", "layout_output"), op.operands):
        if key in op.attrs:
            try:
                layout = tuple(dense_to_ints(op.attrs.pop(key)))
            except (ValueError, TypeError):
                raise op.error(f"bad attribute '{key}'") from None
            if layout != tuple(range(v.type.rank - 1, -1, -1)):
                raise op.error(f"{key} = {list(layout)} is not row-major; buffers here are dense "
                               "and row-major (minor-to-major n-1, ..., 0)")


@dataclass(frozen=True)
class BufferForm:
    """How one lmhlo op's operands and regions map onto its tensor op."""
    outs: Callable = _one  # operand count -> how many trailing operands are outputs (None: malformed)
    layout: str | None = None  # the operand order, for errors (default: from the op's arity)
    body_outs: Callable = _one  # a region's block-arg count -> how many trailing args it writes
    tensor: str | None = None  # the tensor op's name where it differs
    attrs: Callable | None = None  # rewrites the attributes into the tensor op's


FORMS = {
    "reduce": BufferForm(_thirds, "inputs, as many init values and as many outputs", _thirds),
    "reduce_window": BufferForm(_thirds, "inputs, as many init values and as many outputs", _thirds),
    "sort": BufferForm(_halves, "inputs and as many outputs"),
    "scatter": BufferForm(lambda n: (n - 1) // 3 if n % 3 == 1 and n > 1 else None,
                          "operands, the indices, as many updates and as many outputs"),
    "select_and_scatter": BufferForm(lambda n: 1 if n == 4 else None,
                                     "an operand, a source, an init value and an output buffer"),
    "dot": BufferForm(tensor="dot_general", attrs=_dot_attrs),
    "triangular_solve": BufferForm(attrs=_default_layouts),
    "bitcast": BufferForm(tensor="reshape"),  # buffers are dense and row-major: same bytes
    "dynamic_bitcast": BufferForm(tensor="dynamic_reshape"),
    "broadcast": BufferForm(tensor="broadcast_in_dim", attrs=_broadcast_attrs),
    "dynamic-update-slice": BufferForm(tensor="dynamic_update_slice"),
    "while": BufferForm(lambda n: n),  # writes its condition buffer (raise_while checks it)
    "case": BufferForm(lambda n: 0),  # reads its index; its branches write (raise_case)
    "outfeed": BufferForm(lambda n: 0),  # refused (REFUSED); what it reads is not an output
    "infeed": BufferForm(lambda n: n),
}

_COLLECTIVE = "a collective; a compiled library runs on one device, with no replicas to talk to"
REFUSED = {
    **dict.fromkeys(("all_reduce", "all_gather", "all_to_all", "reduce_scatter",
                     "collective_permute"), _COLLECTIVE),
    "replica_id": "there are no replicas in a single-device library",
    "partition_id": "there are no partitions in a single-device library",
    "infeed": "a device stream the compiled library has no channel for",
    "outfeed": "a device stream the compiled library has no channel for",
    "rng_get_and_update_state": "it updates XLA's global random-number state, which a compiled "
                                "library does not keep (rng_bit_generator takes its state as data)",
    "custom_call": "it calls external code the compiler cannot see",
    "dynamic_conv": "it has no tensor-level counterpart here (write mhlo.convolution with the "
                    "padding as attributes)",
}


def form(op: Operation) -> BufferForm:
    return FORMS.get(op.short_name, BufferForm())


def is_buffer_level(module: Module) -> bool:
    for f in module.functions():
        fn = f.attrs["function_type"]
        if any(isinstance(t, MemRefType) for t in list(fn.inputs) + list(fn.results)):
            return True
    return False


def tensor_of(t: MemRefType) -> TensorType:
    return TensorType(t.shape, t.elem)


_WORDS = {0: "no", 1: "one", 2: "two", 3: "three"}


def num_outputs(op: Operation, arity: int | None = None) -> int:
    """How many trailing operands of a buffer op are outputs; a located error when the
    operand count does not fit the op (`arity`: its tensor op's operand count, if fixed)."""
    n = len(op.operands)
    n_out = form(op).outs(n)
    if n_out is None or n_out > n or (arity is not None and n - n_out != arity):
        layout = form(op).layout or (
            "operands and an output buffer" if arity is None else
            f"{_WORDS.get(arity, arity)} operand{'s' * (arity != 1)} and an output buffer")
        raise op.error(f"takes {layout}, got {n}")
    return n_out


def tensor_name(op: Operation) -> str:
    """`lmhlo.add` -> `mhlo.add`; the project's `ldhlo.slice` -> `dhlo.slice`."""
    return ("dhlo." if op.dialect == "ldhlo" else "mhlo.") + (form(op).tensor or op.short_name)


def check_known(op: Operation) -> registry.OpDef:
    """The registry entry of a buffer op's tensor counterpart, or a located error saying why
    there is none."""
    name = op.short_name
    if name in REFUSED:
        raise op.error(f"is not supported in buffer-level input: {REFUSED[name]}")
    key = ("dhlo." if op.dialect == "ldhlo" else "") + (form(op).tensor or name)
    if key in NOT_YET:
        raise op.error(f"{NOT_YET[key]} is not supported yet")
    d = registry.lookup(key)
    if d is None:
        raise op.error("op is not supported in buffer-level input: it has no tensor-level "
                       "counterpart in this compiler")
    if d.kind in ("host", "data_dependent"):
        raise op.error("op is not supported in buffer-level input: its result's size is decided "
                       "when it runs, so no output buffer can be given; write it at tensor level")
    return d


class FunctionImporter:
    def __init__(self, func: Operation, globals_: list, target=None):
        self.func = func
        self.globals = globals_
        self.target = target  # a kernel's scratch may depend on it (registry overrides)
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
            for op in top.walk():  # fusion bodies and loop bodies write outer buffers too
                if op.dialect in ("lmhlo", "ldhlo") and op.short_name not in ("terminator", "fusion"):
                    n = form(op).outs(len(op.operands)) or 0
                    written.update(op.operands[len(op.operands) - n:])
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
        new_ops = self.lower_ops(block.ops)
        block.ops = []
        for op in new_ops:
            block.append(op)
        func.attrs["aot.num_inputs"] = n_in
        return func

    def lower_ops(self, ops: list) -> list:
        """Each op raised, preceded by the host ops (dims, checks) its raising needs."""
        out, saved = [], self.pre
        for op in ops:
            self.pre = []
            lowered = self.lower(op)
            out.extend(self.pre + lowered)
        self.pre = saved
        return out

    def lower_region(self, region: Region, tail) -> Region:
        """A while's or case's region on outer buffers: its ops raised, then `tail(ops)`
        (the terminator it needs); constants made inside stay inside."""
        if not region.blocks:
            raise region.parent.error("needs a body region")
        body = [o for o in region.blocks[0].ops if o.short_name != "terminator"]
        saved = self.hs.save()
        try:
            ops = self.lower_ops(body)
            ops += tail(ops)
        finally:
            self.hs.restore(saved)
        return Region([Block([], ops)])

    def lower(self, op: Operation) -> list:
        if op.dialect not in ("lmhlo", "ldhlo"):
            if op.name in ("memref.alloc", "memref.dealloc", "memref.dim", "arith.constant",
                           "func.return"):
                op.attrs.pop("temp", None)
                return [op]
            raise op.error("op is not supported in buffer-level input")
        name = op.short_name
        if name == "copy":
            if len(op.operands) != 2:
                raise op.error(f"takes a source and a target buffer, got {len(op.operands)}")
            return [Operation("memref.copy", op.operands, [], {}, loc=op.loc)]
        if name == "constant":
            value: DenseAttr = op.attrs.get("value")
            if not isinstance(value, DenseAttr):
                raise op.error("needs a 'value = dense<...>' attribute")
            if len(op.operands) != 1:
                raise op.error(f"takes one output buffer, got {len(op.operands)}")
            sym = f"__constant_{len(self.globals)}"
            self.globals.append(Operation("memref.global", [], [], {
                "sym_name": sym, "type": memref_of(value.type), "initial_value": value,
                "constant": True}, loc=op.loc))
            g = Operation("memref.get_global", [], [memref_of(value.type)], {"name": SymbolRef(sym)},
                          loc=op.loc)
            return [g, Operation("memref.copy", [g.result, op.operands[0]], [], {}, loc=op.loc)]
        if name == "fusion":
            return [self.raise_fusion(op)]
        if name == "terminator":
            raise op.error("a terminator belongs at the end of a region")
        if name == "while":
            return [self.raise_while(op)]
        if name == "case":
            return [self.raise_case(op)]
        d = check_known(op)
        if d.kind == "control":
            raise op.error("op is not supported in buffer-level input (lmhlo has while and case)")
        return self.raise_single(op, d)

    def raise_single(self, op: Operation, d: registry.OpDef) -> list:
        """`lmhlo.X(ins..., outs...)` -> an `lmhlo.fusion` computing `mhlo.X` on tensors, or
        for a kernel, `lmhlo.X(ins..., outs..., scratch...)` with its regions on tensors."""
        k = len(op.operands) - num_outputs(op, d.arity)
        ins, outs = op.operands[:k], op.operands[k:]
        if form(op).attrs is not None:
            form(op).attrs(op)
        block = Block([tensor_of(v.type) for v in ins])
        regions = [self.raise_body(r, form(op).body_outs) for r in op.regions]
        inner = Operation(tensor_name(op), block.args, [tensor_of(v.type) for v in outs],
                          dict(op.attrs), regions, op.loc)
        verify_raised(inner)
        in_shapes = [self.buffer_dims(v) for v in ins]
        shapes = self.check_shapes(inner, in_shapes, list(ins))
        dims = []
        for r, out, shape in zip(inner.results, outs, shapes):
            actual = self.buffer_dims(out)
            for k, (want, got) in enumerate(zip(shape, actual)):
                self.hs.require_equal(want, got, inner, f"output buffer dim {k} does not fit")
            dims += [self.hs.value(x) for x, n in zip(actual, r.type.shape) if n is None]
        if d.kind == "kernel":
            return self.kernel(inner, list(ins), list(outs), in_shapes, shapes)
        block.append(inner)
        block.append(Operation("mhlo.return", inner.results, [], loc=op.loc))
        kind = "kInput" if d.kind == "reduction" else "kLoop"
        return [Operation("lmhlo.fusion", list(ins) + list(outs) + dims, [],
                          {"fusion_kind": kind, "num_buffers": len(ins) + len(outs)},
                          [Region([block])], op.loc)]

    def kernel(self, inner: Operation, ins: list, outs: list, in_shapes: list,
               out_shapes: list) -> list:
        """The buffer form bufferisation gives a kernel op: its temporaries allocated before
        it and freed after it."""
        attrs = dict(inner.attrs)
        scratch_rule = registry.rule(inner, "scratch", self.target) or (lambda *a: [])
        wanted = scratch_rule(inner, in_shapes, self.hs, out_shapes)
        scratch = []
        for t, shape in wanted:
            sizes = [self.hs.value(x) for x, n in zip(shape, t.shape) if n is None]
            scratch.append(Operation("memref.alloc", sizes, [memref_of(t)], {}, loc=inner.loc))
        if scratch:
            attrs["aot.scratch"] = len(scratch)
        regions, inner.regions = inner.regions, []
        k = Operation("lmhlo." + inner.short_name, ins + outs + [s.result for s in scratch], [],
                      attrs, regions, inner.loc)
        frees = [Operation("memref.dealloc", [s.result], [], loc=inner.loc) for s in scratch]
        return scratch + [k] + frees

    def raise_while(self, op: Operation) -> Operation:
        """`lmhlo.while(%cond)`: the condition region writes %cond (a memref<i1>), the body
        region writes the loop's buffers; an scf.while with nothing carried."""
        if len(op.operands) != 1 or op.operands[0].type != MemRefType((), "i1"):
            raise op.error("takes one condition buffer, a memref<i1> its condition region "
                           f"writes; got {', '.join(str(v.type) for v in op.operands) or 'none'}")
        if len(op.regions) != 2:
            raise op.error(f"needs a condition and a body region, got {len(op.regions)}")
        cond = op.operands[0]

        def test(ops):
            pred = Operation("memref.load", [cond], [ScalarType("i1")], loc=op.loc)
            return [pred, Operation("scf.condition", [pred.result], [], loc=op.loc)]
        before = self.lower_region(op.regions[0], test)
        after = self.lower_region(op.regions[1],
                                  lambda ops: [Operation("scf.yield", [], [], loc=op.loc)])
        return Operation("scf.while", [], [], {}, [before, after], op.loc)

    def raise_case(self, op: Operation) -> Operation:
        """`lmhlo.case(%index)`: branch %index runs (the last one when out of range, as in
        XLA); a predicate picks branch 0 when true."""
        if len(op.operands) != 1 or op.operands[0].type.rank != 0 \
                or op.operands[0].type.elem not in ("i1", "i32", "i64"):
            raise op.error("takes one index buffer, a memref<i32> (or memref<i1>); got "
                           f"{', '.join(str(v.type) for v in op.operands) or 'none'}")
        if not op.regions:
            raise op.error("needs at least one branch region")
        buf, n = op.operands[0], len(op.regions)
        scalar = self.emit_pre("memref.load", [buf], [ScalarType(buf.type.elem)], loc=op.loc).result
        if buf.type.elem == "i1":
            index = self.emit_pre("arith.select", [scalar, self.hs.index(0), self.hs.index(1)],
                                  [INDEX], loc=op.loc).result
        else:
            i = self.emit_pre("arith.index_cast", [scalar], [INDEX], loc=op.loc).result
            ok = self.emit_pre("arith.andi", [self.hs.cmp("sge", i, 0), self.hs.cmp("slt", i, n)],
                               [ScalarType("i1")], loc=op.loc).result
            index = self.emit_pre("arith.select", [ok, i, self.hs.index(n - 1)], [INDEX],
                                  loc=op.loc).result
        branches = [self.lower_region(r, lambda ops: [Operation("scf.yield", [], [], loc=op.loc)])
                    for r in op.regions]
        return Operation("aot.switch", [index], [], {}, branches, op.loc)

    def raise_body(self, region: Region, body_outs=_one) -> Region:
        """A body on buffers (`^bb0(%a, %b, %out: memref<f32>)`, lmhlo ops writing buffers)
        to one on tensors; `body_outs(number of args)` of its trailing args are what it
        writes, in the order its results go. A body already on tensors is kept."""
        if not region.blocks:
            raise region.parent.error("needs a body region")
        old = region.blocks[0]
        if not any(isinstance(a.type, MemRefType) for a in old.args):
            return region
        for a in old.args:
            if not isinstance(a.type, MemRefType):
                raise region.parent.error(f"a body on buffers takes buffers, not {a.type}")
        n_out = body_outs(len(old.args))
        if n_out is None or not 0 < n_out < len(old.args):
            raise region.parent.error(f"a body with {len(old.args)} buffer arguments does not "
                                      "fit this op")
        n_in = len(old.args) - n_out
        what = f"a {region.parent.short_name} body"
        block = Block([tensor_of(a.type) for a in old.args[:n_in]])
        current: dict = dict(zip(old.args[:n_in], block.args))
        for op in old.ops:
            if op.short_name in ("terminator", "yield", "return") or op.name in (
                    "memref.alloc", "memref.dealloc"):
                continue
            if op.dialect not in ("lmhlo", "ldhlo"):
                raise op.error("a body on buffers holds buffer ops (lmhlo) only")
            if not op.operands or any(v not in current for v in op.operands[:-1]):
                raise op.error(f"{what}'s ops read the body's arguments or values written "
                               "before them, and write one buffer")
            *ins, out = op.operands
            if op.short_name == "copy":
                if len(ins) != 1:
                    raise op.error(f"takes a source and a target buffer, got {len(op.operands)}")
                current[out] = current[ins[0]]
                continue
            inner = Operation(tensor_name(op), [current[v] for v in ins],
                              [tensor_of(out.type)], dict(op.attrs), loc=op.loc)
            block.append(inner)
            current[out] = inner.result
        if any(a not in current for a in old.args[n_in:]):
            raise region.parent.error(f"{what} must write its output buffers")
        results = [current[a] for a in old.args[n_in:]]
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
            d = check_known(inner)
            if d.kind not in ("elementwise", "elemental", "reduction"):
                raise inner.error("only elementwise, elemental and reduce ops may appear inside a "
                                  "fusion; write this op outside it")
            k = len(inner.operands) - num_outputs(inner, d.arity)
            ins, outs = inner.operands[:k], inner.operands[k:]
            if form(inner).attrs is not None:
                form(inner).attrs(inner)
            args = []
            for v in ins:
                if v not in current:
                    if v in local:
                        raise inner.error("reads a fusion-local buffer before it is written")
                    current[v] = block.add_arg(tensor_of(v.type))
                    shapes[current[v]] = self.buffer_dims(v)
                    inputs.append(v)
                args.append(current[v])
            regions = [self.raise_body(r, form(inner).body_outs) for r in inner.regions]
            new = Operation(tensor_name(inner), args, [tensor_of(v.type) for v in outs],
                            dict(inner.attrs), regions, inner.loc)
            verify_raised(new)
            block.append(new)
            bufs = list(ins)
            result_shapes = self.check_shapes(new, [shapes[a] for a in args], bufs)
            for v, r, shape in zip(outs, new.results, result_shapes):
                actual = self.alloc_dims(v, body) if v in local else self.buffer_dims(v)
                for i, (want, got) in enumerate(zip(shape, actual)):
                    self.hs.require_equal(want, got, new, f"buffer dim {i} does not fit")
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


def import_lhlo(module: Module, target=None) -> Module:
    """The LHLO stage for buffer-level input (for `target`: a kernel's scratch may depend on it)."""
    canonicalize_names(module)
    if not public_functions(module):
        raise CompileError("module has no public function with a body", module_loc(module))
    globals_: list = []
    for f in module.functions():
        FunctionImporter(f, globals_, target).run()
    module.ops = globals_ + module.ops
    return module
