"""The TF front end's pass: a module holding `tf.*` or `tf_executor.*` ops becomes one of
`mhlo.*` ops, run before the HLO stage (legalize calls `lower_tf`).

Each public function is rebuilt op by op: executor graphs flattened, dead nodes pruned,
every TF op lowered by its table rule (lowering/tf/table.py) with the operands already
lowered, so types are inferred forwards from the signature and `tensor<*x..>` results are
refined on the way; functions called by tf.While/tf.If/PartitionedCall are lowered into
the regions or the block that use them. Ops of other dialects (mhlo left by TensorFlow's
own lowering) are kept, their operands remapped."""
from __future__ import annotations

import re

import lowering.ops  # noqa: F401  (the registry's result-type rules, used by the emitter)
import lowering.tf.rules  # noqa: F401  (fills the table)
from lowering.ir.attrs import parse_type
from lowering.ir.core import (
    Block,
    CompileError,
    Module,
    Operation,
    Region,
    SymbolRef,
    TensorType,
    clone_op,
)
from lowering.tf.emitter import Emitter
from lowering.tf.executor import TERMINATORS, flatten_executor, prune_dead
from lowering.tf.functionalize import functionalize_v1
from lowering.tf.graphdef import NODE_NAME
from lowering.tf.mixed import PREFIXES as MIXED
from lowering.tf.table import NOT_LOWERED, TF_OPS

_END = Operation("func.return")
# What a rule raises when an op's operands or attributes are not as TensorFlow prints them
# (mutated text): a located error there, never a traceback. Rules check what valid graphs vary.
MALFORMED = (IndexError, KeyError, TypeError, ValueError, AttributeError, ZeroDivisionError,
             OverflowError)  # ends a one-op list for lower_ops


def is_tf_op(op: Operation) -> bool:
    """TF's ops, and the shape/tensor/arith ops of TF's own partial lowering (at tensor level
    they come from nowhere else)."""
    return op.name.startswith(("tf.", "tf_executor.") + MIXED)


def has_tf_ops(module: Module) -> bool:
    return any(is_tf_op(op) for top in module.ops for op in top.walk())


def drop_unused(block: Block) -> None:
    """Ops with results none of which is used (a TF axis constant a reduce now holds as an
    attribute, shape pieces a rule read as constants) are dropped; ops without results
    (side effects) stay."""
    while True:
        used = {v for op in block.ops for inner in op.walk() for v in inner.operands}
        keep = [op for op in block.ops if not op.results or any(r in used for r in op.results)]
        if len(keep) == len(block.ops):
            return
        block.ops = keep


class Lowerer:
    """Lowers functions' bodies, following calls into the blocks and regions that use them."""

    def __init__(self, module: Module):
        self.funcs = {f.attrs["sym_name"]: f for f in module.functions() if f.regions}
        self.stack: list = []

    def lower_function(self, func: Operation) -> None:
        name = func.attrs["sym_name"]
        block = func.regions[0].blocks[0]
        for i, a in enumerate(block.args):
            m = re.fullmatch(r"tensor<!tf_type\.resource<(tensor<.*>)>>", str(a.type))
            if m and isinstance(parse_type(m.group(1)), TensorType):
                a.type = parse_type(m.group(1))  # a typed variable: an ordinary argument
            elif "!tf_type.resource" in str(a.type):
                raise CompileError(f"argument {i} of @{name} is a resource variable of unknown "
                                   f"shape ({a.type}): freeze it, --freeze vars.npz with its "
                                   f"value as arg{i} (or convert_variables_to_constants_v2)",
                                   func.loc)
            if not isinstance(a.type, TensorType):
                raise CompileError(f"argument {i} of @{name} has type {a.type}: only ranked "
                                   "tensors are supported (give the input signature its "
                                   "shape; resources must be frozen to constants)", func.loc)
        old = block.ops
        block.ops = []
        self.stack = [name]
        returned = self.lower_ops(old, block, {}, func.loc)
        block.append(Operation("func.return", returned, (), {}, (), old[-1].loc if old else func.loc))
        drop_unused(block)
        fn = func.attrs["function_type"]
        func.attrs["function_type"] = type(fn)(tuple(a.type for a in block.args),
                                               tuple(v.type for v in returned))
        if "res_attrs" in func.attrs and len(func.attrs["res_attrs"]) != len(returned):
            del func.attrs["res_attrs"]

    def lower_ops(self, ops, block: Block, mapping: dict, where=None) -> list:
        """Lower `ops` (ending with a return) into `block`; the returned values, mapped."""
        for op in ops:
            operands = [mapping.get(v, v) for v in op.operands]
            if op.name in TERMINATORS:
                return operands
            if not is_tf_op(op):  # mhlo of TF's own lowering: its regions lowered too
                block.append(self.clone_lowered(op, mapping))
                continue
            short = op.name[3:] if op.name.startswith("tf.") else op.name
            entry = TF_OPS.get(short)
            if entry is None and short in NOT_LOWERED:
                node = op.attrs.get(NODE_NAME)
                where = f" (node '{node}')" if node else ""
                raise CompileError(f"'{op.name}'{where}: {NOT_LOWERED[short]}", op.loc)
            if entry is None:
                raise CompileError(f"TensorFlow op '{op.name}' is not supported", op.loc)
            e = Emitter(block, op.loc, op)
            e.lowerer, e.mapping = self, mapping
            try:
                results = entry.rule(e, op, operands)
            except MALFORMED:  # a rule read operands or attributes TensorFlow never writes so
                raise e.error("its operands or attributes are not in a form TensorFlow writes "
                              "for it (count, rank or attribute values), so it cannot be "
                              "lowered") from None
            if len(results) != len(op.results):
                raise e.error(f"internal: lowered to {len(results)} values for "
                              f"{len(op.results)} results")
            for r, v in zip(op.results, results):
                mapping[r] = v
        located = [o.loc for o in ops if o.loc.line > 0]  # ops the flattening made have none
        raise CompileError("function body must end with a return", located[-1] if located else where)

    def clone_lowered(self, op: Operation, mapping: dict) -> Operation:
        """A copy of a non-TF op with its operands mapped and the TF (and shape/arith) ops
        of its regions lowered, its other ops copied the same way."""
        regions = []
        for region in op.regions:
            new_region = Region()
            for blk in region.blocks:
                new_block = Block([a.type for a in blk.args])
                mapping.update(zip(blk.args, new_block.args))
                for inner in blk.ops:
                    if is_tf_op(inner):
                        self.lower_ops([inner, _END], new_block, mapping)
                    else:
                        new_block.append(self.clone_lowered(inner, mapping))
                new_region.add_block(new_block)
            regions.append(new_region)
        return clone_op(op, mapping, regions)

    def callee(self, e: Emitter, attr: str, ref=None) -> Operation:
        ref = e.tf_op.attrs.get(attr) if ref is None else ref
        if not isinstance(ref, SymbolRef):
            raise e.error(f"needs a '{attr} = @function' attribute")
        f = self.funcs.get(ref.name)
        if f is None:
            raise e.error(f"calls unknown function @{ref.name}")
        return f

    def inline(self, e: Emitter, attr: str, args: list, block: Block, ref=None) -> list:
        """The body of the function named by the TF op's `attr` (or `ref`), lowered into
        `block` with its arguments bound to `args`; its returned values."""
        f = self.callee(e, attr, ref)
        name = f.attrs["sym_name"]
        if name in self.stack:
            raise e.error("recursive call is not supported: "
                          + " -> ".join("@" + s for s in self.stack + [name]))
        body = f.regions[0].blocks[0]
        if len(body.args) != len(args):
            raise e.error(f"@{name} takes {len(body.args)} arguments, {len(args)} given")
        self.stack.append(name)
        where = f.loc if f.loc.line > 0 else e.loc
        try:
            return self.lower_ops(body.ops, block, dict(zip(body.args, args)), where)
        finally:
            self.stack.pop()


def lower_tf(module: Module) -> Module:
    """Every TF op of the module's functions lowered to mhlo; the functions only TF
    control flow or calls used are dropped (their bodies now live where they were used)."""
    if not has_tf_ops(module):
        return module
    for f in [f for f in module.functions() if f.regions]:
        flatten_executor(f)
        functionalize_v1(module, f)  # TF1 Switch/Merge/Enter/... to tf.If/tf.While
        prune_dead(f)
    lowerer = Lowerer(module)
    entries = [f for f in lowerer.funcs.values()
               if f.attrs.get("sym_visibility", "public") == "public"]
    for f in entries:
        lowerer.lower_function(f)
        # TF's generated names (`__inference_<lambda>_61`) made C identifiers for the ABI
        f.attrs["sym_name"] = re.sub(r"[^A-Za-z0-9_]", "_", f.attrs["sym_name"])
    module.ops = [op for op in module.ops if op.name != "func.func" or op in entries]
    return module
