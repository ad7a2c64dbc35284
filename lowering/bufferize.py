"""Bufferisation: tensors become buffers (LHLO).

Each kernel result gets a buffer allocated right before the kernel and freed
right after its last use. Entry results with static shapes become output
parameters (the caller's buffer, tfcompile style); results whose shape is known
only at run time are allocated here and returned. Large constants become
read-only globals in the object file.
"""
from __future__ import annotations

from .ir import (Block, DenseAttr, FunctionType, MemRefType, Module, Operation, Region, SymbolRef,
                 TensorType, Value)


def memref_of(t: TensorType) -> MemRefType:
    return MemRefType(t.shape, t.elem)


class FunctionBufferizer:
    def __init__(self, module: Module, func: Operation, globals_: list):
        self.module = module
        self.func = func
        self.globals = globals_
        self.buffers: dict = {}  # tensor Value -> memref Value
        self.out_ops: list[Operation] = []

    def run(self) -> Operation:
        func = self.func
        fn: FunctionType = func.attrs["function_type"]
        old_block = func.regions[0].blocks[0]
        ret = old_block.ops[-1]
        static_results = all(t.is_static for t in fn.results)
        arg_types = [memref_of(t) for t in fn.inputs]
        out_types = [memref_of(t) for t in fn.results] if static_results else []
        block = Block(arg_types + out_types)
        for old, new in zip(old_block.args, block.args):
            self.buffers[old] = new
            new.hint = old.hint
        outs = block.args[len(arg_types):]
        # results written straight into the caller's buffers where a kernel produces them
        target: dict = {}
        if static_results:
            for v, out in zip(ret.operands, outs):
                if v not in target and isinstance(v.owner, Operation) and v.owner.name != "mhlo.constant":
                    target[v] = out
        self.ops = []
        for op in old_block.ops[:-1]:
            self.lower(op, target)
        returned = []
        for i, v in enumerate(ret.operands):
            buf = self.buffers[v]
            if static_results:
                if buf is not outs[i]:
                    self.emit("lmhlo.copy", [buf, outs[i]], loc=ret.loc)
            else:
                returned.append(buf)
        self.insert_deallocs(block, keep=set(returned) | set(outs))
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

    def alloc(self, v: Value, target: dict, loc) -> Value:
        if v in target:
            return target[v]
        t = v.type
        if not t.is_static:
            raise self.func.error(f"buffer of dynamic shape {t} needs run-time shape inference, "
                                  "which is not supported yet")
        return self.emit("memref.alloc", [], [memref_of(t)], loc=loc).result

    def lower(self, op: Operation, target: dict) -> None:
        if op.name == "mhlo.constant":
            name = f"__constant_{len(self.globals)}"
            value: DenseAttr = op.attrs["value"]
            self.globals.append(Operation("memref.global", [], [], {
                "sym_name": name, "type": memref_of(value.type), "initial_value": value,
                "constant": True}, loc=op.loc))
            g = self.emit("memref.get_global", [], [memref_of(value.type)],
                          {"name": SymbolRef(name)}, loc=op.loc)
            self.buffers[op.result] = g.result
            return
        ins = [self.buffers[v] for v in op.operands]
        outs = [self.alloc(r, target, op.loc) for r in op.results]
        name = "lmhlo." + op.short_name
        attrs = dict(op.attrs)
        regions = op.regions
        op.regions = []
        self.emit(name, ins + outs, [], attrs, regions, loc=op.loc)
        for r, b in zip(op.results, outs):
            self.buffers[r] = b

    def insert_deallocs(self, block: Block, keep: set) -> None:
        """Free each allocated buffer right after the last op that touches it."""
        allocated = {op.result for op in self.ops if op.name == "memref.alloc"}
        last_use: dict = {}
        for i, op in enumerate(self.ops):
            for v in op.operands:
                if v in allocated:
                    last_use[v] = i
        out = []
        for i, op in enumerate(self.ops):
            out.append(op)
            for v in [v for v, j in last_use.items() if j == i and v not in keep]:
                out.append(Operation("memref.dealloc", [v], [], loc=op.loc))
        for op in self.ops:
            if op.name == "memref.alloc" and op.result not in last_use and op.result not in keep:
                out.append(Operation("memref.dealloc", [op.result], [], loc=op.loc))
        self.ops = out


def bufferize(module: Module) -> Module:
    globals_: list = []
    new_ops = []
    for op in module.ops:
        if op.name == "func.func" and op.regions:
            new_ops.append(FunctionBufferizer(module, op, globals_).run())
        else:
            new_ops.append(op)
    module.ops = globals_ + new_ops
    return module
