"""GraphDef imports in tfcompile's style: a raw import (`convert_graph_def(graph_def,
pass_pipeline='', show_debug_info=True)`) has a `@main()` without arguments or results, its
inputs `tf.Placeholder` nodes; feeds and fetches name nodes (tfcompile's config, `aotc
compile --feed x_hold --fetch x_y_prod`) and make @main's signature: each fed node's output
an argument, in order, each fetched node's output a result. Node names come from the ops'
locations (the parser keeps them as NODE_NAME); `name:k` is a node's k-th output.
Variables passed as resource arguments are frozen into constants (`--freeze vars.npz`)."""
from __future__ import annotations

import re

import numpy as np

from lowering.ir.core import (
    CompileError,
    DenseAttr,
    Module,
    Operation,
    TensorType,
    numpy_dtype,
    replace_all_uses,
)
from lowering.tf.executor import TERMINATORS, flatten_executor, prune_dead
from lowering.tf.functionalize import functionalize_v1

NODE_NAME = "_tf_node_name"  # as lowering/frontend/parser.py stores it


def _split(name: str):
    node, _, k = name.partition(":")
    return node, int(k) if k.isdigit() else 0


def apply_feeds_fetches(module: Module, feeds=(), fetches=()) -> Module:
    """Give the module's one public function the signature the feeds and fetches name."""
    feeds, fetches = list(feeds or ()), list(fetches or ())
    if not feeds and not fetches:
        return module
    entries = [f for f in module.functions()
               if f.regions and f.attrs.get("sym_visibility", "public") == "public"]
    if len(entries) != 1:
        raise CompileError(f"--feed/--fetch need one public function, the module has "
                           f"{len(entries)}", entries[0].loc if entries else None)
    func = entries[0]
    flatten_executor(func)
    block = func.regions[0].blocks[0]
    nodes = {op.attrs[NODE_NAME]: op for op in block.ops if NODE_NAME in op.attrs}
    if not nodes:
        raise CompileError("--feed/--fetch name graph nodes, but the module has no node "
                           "names: import it with show_debug_info=True (the names are in "
                           "its locations)", func.loc)

    def output(name: str, what: str):
        node, k = _split(name)
        op = nodes.get(node)
        if op is None:
            known = ", ".join(sorted(nodes)[:12])
            raise CompileError(f"{what} '{node}' is no node of the graph (nodes: {known}"
                               f"{', ...' if len(nodes) > 12 else ''})", func.loc)
        if k >= len(op.results):
            raise CompileError(f"{what} '{name}': node '{node}' has {len(op.results)} "
                               "outputs", op.loc)
        return op, op.results[k]

    fed = []
    for name in feeds:
        op, value = output(name, "feed")
        if not isinstance(value.type, TensorType):
            raise CompileError(f"feed '{name}' has type {value.type}: a fed node needs a "
                               "ranked shape (give the placeholder its shape)", op.loc)
        arg = block.add_arg(value.type)
        arg.hint = _split(name)[0]
        replace_all_uses(value, arg)
        fed.append(op)
    fetched = [output(name, "fetch")[1] for name in fetches]
    block.ops = [op for op in block.ops if op not in fed or op.name != "tf.Placeholder"]
    ret = block.ops[-1] if block.ops and block.ops[-1].name in TERMINATORS else None
    if ret is None:
        ret = Operation("func.return", [], (), {}, (), func.loc)
        block.append(ret)
    if fetches:
        ret.operands = fetched
    fn = func.attrs["function_type"]
    func.attrs["function_type"] = type(fn)(tuple(a.type for a in block.args),
                                           tuple(v.type for v in ret.operands))
    func.attrs.pop("arg_attrs", None)
    func.attrs.pop("res_attrs", None)
    func.attrs["tf.entry_function"] = {"inputs": ",".join(_split(f)[0] for f in feeds),
                                       "outputs": ",".join(_split(f)[0] for f in fetches)}
    functionalize_v1(module, func)  # after the fetches: what they need is what is kept
    prune_dead(func)
    return module


RESOURCE = "!tf_type.resource"


def _constant(value, loc, what) -> Operation:
    """A tf.Const holding a frozen variable's value."""
    arr = np.ascontiguousarray(value)
    elem = next((e for e in ("f16", "f32", "f64", "i1", "i8", "i16", "i32", "i64", "ui8",
                             "ui16", "ui32", "ui64") if numpy_dtype(e) == arr.dtype), None)
    if elem is None:
        raise CompileError(f"--freeze {what}: dtype {arr.dtype} is not supported", loc)
    t = TensorType(arr.shape, elem)
    return Operation("tf.Const", [], [t], {"value": DenseAttr(arr, t)}, (), loc)


def freeze_variables(module: Module, values: dict) -> Module:
    """tfcompile's frozen graph: the public function's resource arguments named `argN` (their
    positions) in `values` become constants of those arrays, and leave the signature; other
    keys name the graph's variables (a tf.VarHandleOp's shared_name or node name), whose
    handles become those constants."""
    entries = [f for f in module.functions()
               if f.regions and f.attrs.get("sym_visibility", "public") == "public"]
    if len(entries) != 1:
        raise CompileError(f"--freeze needs one public function, the module has {len(entries)}",
                           entries[0].loc if entries else None)
    func = entries[0]
    flatten_executor(func)
    block = func.regions[0].blocks[0]
    handles = {}
    for op in block.ops:
        if op.name == "tf.VarHandleOp":
            for key in (op.attrs.get("shared_name"), op.attrs.get(NODE_NAME)):
                if isinstance(key, str) and key:
                    handles.setdefault(key, op)
    named = [k for k in values if not re.fullmatch(r"arg\d+", k)]
    for key in named:
        op = handles.get(key)
        if op is None:
            known = ", ".join(sorted(handles)) or "none"
            raise CompileError(f"--freeze names variable '{key}', which the graph does not "
                               f"have (its variables: {known})", func.loc)
        const = _constant(values[key], op.loc, f"variable '{key}'")
        replace_all_uses(op.result, const.result)
        const.parent = block
        block.ops[block.ops.index(op)] = const
    values = {k: v for k, v in values.items() if k not in named}
    unknown = sorted(set(values) - {f"arg{i}" for i in range(len(block.args))})
    if unknown:
        raise CompileError(f"--freeze names {', '.join(unknown)}, but @"
                           f"{func.attrs['sym_name']} has {len(block.args)} arguments "
                           "(arg0 ...)", func.loc)
    keep, consts = [], []
    for i, a in enumerate(block.args):
        key = f"arg{i}"
        if key not in values:
            keep.append(i)
            continue
        if RESOURCE not in str(a.type):
            raise CompileError(f"--freeze {key}: argument {i} is {a.type}, not a resource "
                               "variable", func.loc)
        const = _constant(values[key], func.loc, key)
        replace_all_uses(a, const.result)
        consts.append(const)
    for c in consts:
        c.parent = block
    block.ops = consts + block.ops
    block.args = [block.args[i] for i in keep]
    for k, a in enumerate(block.args):
        a.index = k
    fn = func.attrs["function_type"]
    func.attrs["function_type"] = type(fn)(tuple(fn.inputs[i] for i in keep), fn.results)
    if "arg_attrs" in func.attrs:
        func.attrs["arg_attrs"] = [func.attrs["arg_attrs"][i] for i in keep]
    entry = func.attrs.get("tf.entry_function")
    if isinstance(entry, dict) and isinstance(entry.get("inputs"), str):
        names = entry["inputs"].split(",")
        if len(names) == len(fn.inputs):
            func.attrs["tf.entry_function"] = dict(entry, inputs=",".join(names[i] for i in keep))
    return module
