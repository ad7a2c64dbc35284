"""An exported PyTorch program (archive.Program, read without torch) lowered to one mhlo
function, `@main`, the module the rest of the compiler takes.

The function's arguments are the program's user inputs, in the signature's order and named
by it (parameters and buffers are constants, or leading arguments with `params_as_args`).
Each node of the graph is lowered by its rule in table.ATEN_OPS with its tensor arguments
already lowered; a node without a rule is an error naming the ATen op and the model's source
line PyTorch recorded in the node's stack trace. A symbolic dim (`torch.export.Dim`) is a `?`
dim; its range constraint becomes shape checks on every call (`@shape_assertion`, reported by
input name and bound), and inputs sharing a symbol are checked to agree. Each result is held
to the shape and element type PyTorch recorded for it (a static dim PyTorch knows is
restored by a checked reshape; a disagreement is an internal error at the node)."""
from __future__ import annotations

import re

import numpy as np

import lowering.ops  # noqa: F401  (the registry's result-type rules, used by the emitter)
import lowering.torch.rules  # noqa: F401  (fills the table)
from lowering.ir.core import (
    Block,
    CompileError,
    DenseAttr,
    FunctionType,
    Location,
    Module,
    Operation,
    Region,
    TensorType,
    Value,
    numpy_dtype,
)
from lowering.torch.archive import Program, Pt2Error, elem_of, flat_outputs
from lowering.torch.emitter import TorchEmitter, TorchLoweringError
from lowering.torch.guards import check_guards
from lowering.torch.table import ATEN_OPS, NOT_LOWERED, functional_of, lowerable
from lowering.torch.views import WRITE_BACK, Views, first_input, op_base, same_value

# What a rule raises on arguments it did not expect: a located error, never a traceback.
MALFORMED = (IndexError, KeyError, TypeError, ValueError, AttributeError, ZeroDivisionError,
             OverflowError)
_FRAME = re.compile(r'File "([^"]+)", line (\d+)')
_SYMBOL = re.compile(r"Symbol\('(\w+)'[^()]*\)")
_TORCH_FRAME = re.compile(r"[/\\](?:site|dist)-packages[/\\]torch[/\\]")  # torch's own modules
_MISSING = object()


def node_target(raw: dict) -> str:
    """A node's op as the table names it (`aten.add.Tensor`, `higher_order.cond`)."""
    target = raw.get("target", "?")
    for prefix in ("torch.ops.aten.", "torch.ops.higher_order."):
        if target.startswith(prefix):
            return target[len("torch.ops."):]
    return target


def node_location(metadata: dict, default: Location) -> tuple[Location, str]:
    """The innermost frame of the node's stack trace in the model's own code (not in the
    installed torch's modules: a model under a folder named torch is the model's), and its
    source line; else the innermost frame; else `default`."""
    lines = (metadata or {}).get("stack_trace", "").split("\n")
    frames = []
    for i, line in enumerate(lines):
        m = _FRAME.search(line)
        if m:
            code = lines[i + 1].strip() if i + 1 < len(lines) and not _FRAME.search(lines[i + 1]) else ""
            frames.append((m.group(1), int(m.group(2)), code))
    if not frames:
        return default, ""
    own = [f for f in frames if not _TORCH_FRAME.search(f[0]) and not f[0].startswith("<")]
    file, line, code = (own or frames)[-1]
    return Location(file, line, 0), code


def tensor_meta(graph: dict, name: str) -> tuple[tuple, str]:
    """(shape, element type) PyTorch recorded for tensor `name`; a symbolic dim is None."""
    tv = graph["tensor_values"][name]
    shape = tuple(s["as_int"] if "as_int" in s else None for s in tv["sizes"])
    return shape, elem_of(tv["dtype"], f"tensor '{name}'")


class Node:
    """One graph node as its rule sees it: arguments by schema name, output metadata."""

    def __init__(self, raw: dict, env: dict, graph: dict, e: TorchEmitter, lowerer=None):
        self.raw, self.env, self.graph, self.e, self.lowerer = raw, env, graph, e, lowerer
        self.name = raw.get("name", "")
        self.inputs = {i["name"]: i["arg"] for i in raw.get("inputs", [])}
        self.outputs = flat_outputs(raw.get("outputs", []))

    def arg(self, name: str, default=_MISSING):
        if name not in self.inputs:
            if default is _MISSING:
                raise self.e.error(f"argument '{name}' is missing")
            return default
        return resolve(self.inputs[name], self.env, self.e)

    def positional(self, i: int):
        """Argument i by position (a higher-order op's arguments have no schema names)."""
        return resolve(self.raw["inputs"][i]["arg"], self.env, self.e)

    def lower_graph(self, graph: dict, operands: list, block: Block) -> list:
        """A subgraph's nodes lowered into `block`, its inputs bound to `operands` (the
        enclosing values stay visible); its outputs."""
        return self.lowerer.subgraph(graph, operands, block)

    def meta(self, i: int = 0) -> tuple[tuple, str]:
        name = self.outputs[i]
        if name is None or name not in self.graph["tensor_values"]:
            raise self.e.error(f"output {i} has no tensor metadata")
        return tensor_meta(self.graph, name)

    def out_elem(self, i: int = 0) -> str:
        return self.meta(i)[1]


def resolve(arg: dict, env: dict, e: TorchEmitter):
    """A serialized argument as the rules take it: tensors as lowered values, symbolic ints
    as ints or scalar values, dtypes as element types, other constants as Python values."""
    value = _resolve(arg, env, e)
    for v in value if isinstance(value, list) else [value]:
        if isinstance(v, Unavailable):
            raise e.error(f"uses output {v.i} of node '{v.node}', which is not computed "
                          "(not supported yet)")
    return value


def _resolve(arg: dict, env: dict, e: TorchEmitter):
    (kind, body), = arg.items()
    if kind == "as_none":
        return None
    if kind == "as_tensor":
        return env[body["name"]]
    if kind == "as_tensors":
        return [env[t["name"]] for t in body]
    if kind == "as_optional_tensors":
        return [env[t["as_tensor"]["name"]] if "as_tensor" in t else None for t in body]
    if kind == "as_optional_tensor":
        return env[body["as_tensor"]["name"]] if "as_tensor" in body else None
    if kind in ("as_sym_int", "as_sym_float", "as_sym_bool"):
        return _sym(body, env)
    if kind in ("as_sym_ints", "as_sym_floats", "as_sym_bools"):
        return [_sym(s, env) for s in body]
    if kind == "as_scalar_type":
        return elem_of(body, "a dtype argument")
    if kind in ("as_int", "as_ints", "as_float", "as_floats", "as_bool", "as_bools",
                "as_string", "as_strings", "as_int_lists", "as_float_lists"):
        return body
    if kind == "as_complex":  # a Python complex scalar (x * 1j)
        return complex(body["real"], body["imag"])
    if kind in ("as_memory_format", "as_layout", "as_device"):
        return body  # placement and layout: nothing to compute
    if kind == "as_graph":
        return body["graph"]
    raise e.error(f"an argument of kind '{kind}' is not supported")


def _sym(body: dict, env: dict):
    if "as_name" in body:
        return env[body["as_name"]]
    (_, value), = body.items()
    return value


EFFECT_TOKEN = "effect token"  # what a token input binds: with_effects passes it on


class Lowerer:
    """Builds @main from a Program: arguments, constants, shape checks, the nodes, results."""

    def __init__(self, prog: Program, params_as_args: bool):
        self.prog, self.graph, self.params_as_args = prog, prog.graph, params_as_args
        self.block = Block()
        self.env: dict = {}
        self.arg_labels: list = []
        self.user_inputs: dict = {}  # name -> (value, label): what guards read
        self.loc = Location(prog.filename, 0, 0)
        self.entry = TorchEmitter(self.block, self.loc, "input")
        self.symbols: dict = {}  # symbol -> (value, input name, dim)
        producers = {out: raw for raw in self.graph.get("nodes", [])
                     for out in flat_outputs(raw.get("outputs", []))}
        self.views = Views(self.graph, producers, reads(self.graph),
                           lambda raw: self.is_in_place(node_target(raw)))

    def function(self, name: str) -> Operation:
        for spec in self.prog.signature.get("input_specs", []):
            self.input(spec)
        check_guards(self.entry, self.prog.guards, self.user_inputs)
        self.check_rules(self.graph.get("nodes", []))
        for raw in self.graph.get("nodes", []):
            self.node(raw)
        results, labels = [], []
        for spec in self.prog.signature.get("output_specs", []):
            (kind, body), = spec.items()
            if kind == "token":
                continue
            if kind != "user_output":
                raise TorchLoweringError(_state_error(kind, body), self.loc)
            arg = body["arg"]
            if "as_tensor" not in arg:
                raise TorchLoweringError(f"output {len(results)} is not a tensor ({next(iter(arg))})",
                                         self.loc)
            results.append(self.env[arg["as_tensor"]["name"]])
            labels.append(arg["as_tensor"]["name"])
        self.block.append(Operation("func.return", results, (), {}, (), self.loc))
        drop_unused(self.block)
        ftype = FunctionType(tuple(a.type for a in self.block.args), tuple(r.type for r in results))
        attrs = {"sym_name": name, "function_type": ftype,
                 "arg_attrs": [{"jax.arg_info": label} for label in self.arg_labels],
                 "res_attrs": [{"jax.result_info": label} for label in labels]}
        return Operation("func.func", [], [], attrs, [Region([self.block])], self.loc)

    # ---------------------------------------------------------------- inputs

    def input(self, spec: dict) -> None:
        (kind, body), = spec.items()
        if kind == "user_input":
            arg = body["arg"]
            if "as_tensor" not in arg:
                raise TorchLoweringError(f"a user input of kind '{next(iter(arg))}' (not a "
                                         "tensor) is not supported", self.loc)
            name = arg["as_tensor"]["name"]
            self.argument(name, name)
            self.user_inputs[name] = (self.env[name], name)
        elif kind in ("parameter", "buffer"):
            target = body.get("parameter_name") or body.get("buffer_name")
            name = body["arg"]["name"]
            if self.params_as_args:
                self.argument(name, target)
            else:
                self.env[name] = self.constant(target, self.prog.weights, self.prog.constants)
        elif kind == "tensor_constant":
            self.env[body["arg"]["name"]] = self.constant(body["tensor_constant_name"],
                                                          self.prog.constants, {})
        elif kind == "token":  # an effect token (with_effects): threaded, never computed
            self.env[body["arg"]["name"]] = EFFECT_TOKEN
        elif kind == "constant_input":
            (_, value), = body["value"].items()
            self.env[body["name"]] = value
        else:
            raise TorchLoweringError(f"an input of kind '{kind}' is not supported", self.loc)

    def argument(self, name: str, label: str) -> None:
        shape, elem = tensor_meta(self.graph, name)
        v = self.block.add_arg(TensorType(shape, elem))
        self.env[name] = v
        self.arg_labels.append(label)
        sizes = self.graph["tensor_values"][name]["sizes"]
        for d, size in enumerate(sizes):
            m = _SYMBOL.fullmatch(size.get("as_expr", {}).get("expr_str", ""))
            if m:  # a derived dim (2*s) is `?`, unchecked: its symbol is bound elsewhere
                self.bind(m.group(1), v, label, d)

    def bind(self, symbol: str, v: Value, label: str, d: int) -> None:
        """The symbol's first input dim is its value, checked against its range; a later one
        is checked equal to it."""
        e = self.entry
        size = e.v("get_dimension_size", [v], {"dimension": d})
        if symbol in self.symbols:
            first, first_label, first_dim = self.symbols[symbol]
            self.check(e.compare(size, first, "EQ"), [size, first],
                       f"input '{label}' dim {d} is {{0}}, but input '{first_label}' dim "
                       f"{first_dim} is {{1}}: the exported program has them equal "
                       f"(symbol {symbol})")
            return
        self.symbols[symbol] = (size, label, d)
        rng = self.prog.range_constraints.get(symbol, {})
        lo, hi = rng.get("min_val"), rng.get("max_val")
        if isinstance(lo, int):
            self.check(e.compare(size, e.const(lo, "i32", ()), "GE"), [size],
                       f"input '{label}' dim {d} is {{0}}, below its minimum {lo} "
                       f"(torch.export Dim {symbol}: {lo}..{hi})")
        if isinstance(hi, int) and hi < (1 << 31) - 1:
            self.check(e.compare(size, e.const(hi, "i32", ()), "LE"), [size],
                       f"input '{label}' dim {d} is {{0}}, above its maximum {hi} "
                       f"(torch.export Dim {symbol}: {lo}..{hi})")

    def check(self, pred: Value, values: list, message: str) -> None:
        TorchEmitter(self.block, self.loc, "input").assert_that(pred, values, message)

    def constant(self, target: str, *tables) -> Value:
        for table in tables:
            if target in table:
                arr = np.asarray(table[target], order="C")  # 0-d stays 0-d
                t = TensorType(arr.shape, _elem_of_array(arr, target))
                return self.entry.v("constant", [], {"value": DenseAttr(arr, t)}, t)
        raise Pt2Error(f"{self.prog.filename}: the weights hold no tensor '{target}'")

    # ---------------------------------------------------------------- nodes

    def check_rules(self, nodes: list) -> None:
        """The first node of an op without a rule is the error, naming the other such ops:
        before, a program's first other error (an in-place op on a view) hid them
        (torchvision's detection models: nms, roi_align)."""
        missing = [raw for raw in nodes if not lowerable(node_target(raw))]
        if missing:
            others = sorted({node_target(raw) for raw in missing} - {node_target(missing[0])})
            self.unsupported(missing[0], f"; also without a rule: {', '.join(others)}"
                             if others else "")

    def unsupported(self, raw: dict, more: str = ""):
        target = node_target(raw)
        loc, code = node_location(raw.get("metadata"), self.loc)
        why = NOT_LOWERED.get(target, "no rule lowers it yet (docs/pytorch.md lists the "
                                      "ATen ops that are supported)")
        raise TorchLoweringError(f"ATen op {target} (node '{raw.get('name')}') is not "
                                 f"supported: {why}{more}", loc, code)

    def node(self, raw: dict) -> None:
        target = node_target(raw)
        loc, code = node_location(raw.get("metadata"), self.loc)
        e = TorchEmitter(self.block, loc, target, code)
        op, links = ATEN_OPS.get(target), None
        if self.is_in_place(target):
            links = self.in_place_links(e, raw)
            op = ATEN_OPS[functional_of(target)]
        if op is None:
            self.unsupported(raw)
        n = Node(raw, self.env, self.graph, e, self)
        try:
            out = op.rule(e, n)
        except CompileError:
            raise
        except MALFORMED as ex:
            raise e.error(f"cannot lower node '{n.name}': {type(ex).__name__}: {ex}") from None
        out = list(out) if isinstance(out, (list, tuple)) else [out]
        if len(out) < len(n.outputs):
            out += [None] * (len(n.outputs) - len(out))
        for i, (name, v) in enumerate(zip(n.outputs, out)):
            if name is None:
                continue
            if v is None:
                self.env[name] = Unavailable(n.name, i)
                continue
            if isinstance(v, Value) and name in self.graph["tensor_values"]:
                v = refine(e, v, *tensor_meta(self.graph, name))
                self.know_sizes(e, v, name)
            self.env[name] = v
        if links is not None:
            self.write_back(e, raw, links, self.env[n.outputs[0]] if n.outputs and n.outputs[0]
                            else out[0])

    def know_sizes(self, e: TorchEmitter, v: Value, name: str) -> None:
        """v's `?` dims that PyTorch recorded as an input's symbol read as that symbol's
        value, not each from its own get_dimension_size (GPT-2's text: 194 of them)."""
        sizes = self.graph["tensor_values"][name]["sizes"]
        if not isinstance(v.type, TensorType) or v.type.rank != len(sizes):
            return
        for d, size in enumerate(sizes):
            m = _SYMBOL.fullmatch(size.get("as_expr", {}).get("expr_str", ""))
            if m and m.group(1) in self.symbols and v.type.shape[d] is None:
                e.know_size(v, d, self.symbols[m.group(1)][0])


    def in_place_links(self, e: TorchEmitter, raw: dict) -> list:
        """The views an in-place op writes through (views.Views.chain), checked before its
        functional form is computed; in a control-flow branch, an error."""
        if id(raw) not in self.views.index:
            raise e.error(f"in-place op (node '{raw.get('name')}') inside a control-flow "
                          "branch: not supported (run_decompositions() makes it functional)")
        return self.views.chain(e, raw, first_input(raw))

    def write_back(self, e: TorchEmitter, raw: dict, links: list, value: Value) -> None:
        """An in-place op's value written into the tensor that owns its memory, through its
        views, and every view of that tensor taken before it taken again."""
        for child, parent, view in links:
            self.env[child] = value
            back = WRITE_BACK.get(op_base(view.get("target", "")), same_value)
            value = back(e, Node(view, self.env, self.graph, e, self), self.env[parent], value)
        root = links[-1][1] if links else first_input(raw)
        self.env[root] = value
        written = {child for child, _, _ in links} | {root}
        for view in self.views.family(e, root, self.views.index[id(raw)]):
            outs = [o for o in flat_outputs(view.get("outputs", [])) if o]
            if all(o in written for o in outs):
                continue
            if self.is_in_place(node_target(view)):
                self.env[outs[0]] = self.env[self.views.parent(view)]
            else:
                self.node(view)

    @staticmethod
    def is_in_place(target: str) -> bool:
        return target not in ATEN_OPS and functional_of(target) in ATEN_OPS

    def subgraph(self, graph: dict, operands: list, block: Block) -> list:
        saved = self.block, self.env, self.graph
        self.block, self.env, self.graph = block, dict(self.env), graph
        try:
            for inp, v in zip(graph.get("inputs", []), operands):
                self.env[inp["as_tensor"]["name"]] = v
            for raw in graph.get("nodes", []):
                self.node(raw)
            return [self.env[o["as_tensor"]["name"]] for o in graph.get("outputs", [])]
        finally:
            self.block, self.env, self.graph = saved


def reads(graph: dict) -> dict:
    """{tensor name: indices of the nodes reading it} (the graph's outputs as one past the
    last node)."""
    readers: dict = {}
    nodes = graph.get("nodes", [])
    for i, raw in enumerate(nodes):
        for inp in raw.get("inputs", []):
            for name in _tensor_names(inp.get("arg", {})):
                readers.setdefault(name, []).append(i)
    for out in graph.get("outputs", []):
        for name in _tensor_names(out):
            readers.setdefault(name, []).append(len(nodes))
    return readers


def _tensor_names(arg: dict) -> list:
    (kind, body), = arg.items() if len(arg) == 1 else ((None, None),)
    if kind == "as_tensor":
        return [body["name"]]
    if kind == "as_tensors":
        return [t["name"] for t in body]
    if kind == "as_optional_tensors":
        return [t["as_tensor"]["name"] for t in body if "as_tensor" in t]
    if kind == "as_optional_tensor" and "as_tensor" in body:
        return [body["as_tensor"]["name"]]
    return []


def _state_error(kind: str, body: dict) -> str:
    """What an output that is not a user output means: state a library cannot keep."""
    if kind == "buffer_mutation":
        return (f"the program updates buffer '{body.get('buffer_name')}' (a cache, a counter "
                "or batch norm's running statistics): a compiled library keeps no state "
                "between calls; pass it as an input and return its new value, or export in "
                "eval mode")
    if kind == "user_input_mutation":
        return (f"the program writes into its input '{body.get('user_input_name')}': not "
                "supported; return the new value instead")
    return f"the program has a '{kind}' output (it trains): not supported; export in eval mode"


class Unavailable:
    """An output a rule does not compute (max_pool2d's indices): an error where it is used."""

    def __init__(self, node: str, i: int):
        self.node, self.i = node, i


def refine(e: TorchEmitter, v: Value, shape: tuple, elem: str) -> Value:
    """v held to PyTorch's recorded type: its element type, and static dims it lacks. Such
    a dim is checked on every call: torch.export may specialise a size derived from a
    dynamic one (Inception's last 3x3 stride-2 maps are 1x1 at the 96x96 it was exported
    at, 2x2 at 112x112), and an input past that is an error saying so."""
    t = v.type
    if not isinstance(t, TensorType) or t.rank != len(shape):
        raise e.error(f"internal: the lowering made {t}, PyTorch recorded rank {len(shape)} "
                      f"({shape})")
    for ours, theirs in zip(t.shape, shape):
        if ours is not None and theirs is not None and ours != theirs:
            raise e.error(f"internal: the lowering made {t}, PyTorch recorded {shape}")
    if t.elem != elem:
        v = e.convert(v, elem)
    if any(ours is None and theirs is not None for ours, theirs in zip(t.shape, shape)):
        dims = e.dims(v)
        for d, (ours, theirs) in enumerate(zip(t.shape, shape)):
            if ours is None and theirs is not None:
                e.assert_that(e.compare(dims[d], e.const(theirs, "i32", ()), "EQ"), [dims[d]],
                              f"{e.target} at {e.loc.file}:{e.loc.line}: dim {d} of its result "
                              f"is {{0}}, but torch.export recorded it as {theirs} (it "
                              "specialised this size when exporting): the program holds only "
                              "for inputs that keep it so")
        v = e.reshape(v, [theirs if theirs is not None else d for theirs, d in zip(shape, dims)])
    return v


def _elem_of_array(arr: np.ndarray, what: str) -> str:
    from lowering.torch.archive import ELEMS
    for elem in ELEMS.values():
        if arr.dtype == numpy_dtype(elem):
            return elem
    raise Pt2Error(f"tensor '{what}' has dtype {arr.dtype}, not supported")


def drop_unused(block: Block) -> None:
    """Ops none of whose results is used (sizes a rule read and did not need) are dropped;
    ops without results (the shape checks) stay."""
    while True:
        used = {v for op in block.ops for inner in op.walk() for v in inner.operands}
        keep = [op for op in block.ops if not op.results or any(r in used for r in op.results)]
        if len(keep) == len(block.ops):
            return
        block.ops = keep


def lower_program(prog: Program, name: str = "main", params_as_args: bool = False) -> Module:
    """The program as a module of one function, `@name`."""
    try:
        func = Lowerer(prog, params_as_args).function(name)
    except KeyError as ex:  # a name the graph uses and never defines: a damaged program
        raise Pt2Error(f"{prog.filename}: the program refers to {ex} and never defines it") from None
    return Module(ops=[func], filename=prog.filename)
