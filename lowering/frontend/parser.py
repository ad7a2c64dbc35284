"""MLIR text to IR: lark LALR parse into raw ops, then a builder that resolves SSA
names, decodes pretty op bodies (lowering/frontend/pretty.py) and reports errors at
`file:line:col` with the source line."""
from __future__ import annotations

import dataclasses
import re

import lark
from lark import Token, Transformer, v_args

from lowering.frontend import pretty, tokens
from lowering.frontend.raw import RawOp, RawRegion, _Angle, _attr_of, _TokError
from lowering.frontend.source import SourceText, printable_line, read_source, set_aside
from lowering.ir.attrs import HEX_BLOBS, AttrError, parse_type, unescape_string
from lowering.ir.core import (
    UNIT,
    Block,
    CompileError,
    EnumAttr,
    FunctionType,
    Location,
    Module,
    OpaqueType,
    Operation,
    Region,
    SymbolRef,
    TensorType,
    Type,
)

CONTROL = "!tf_executor.control"  # the type of an executor island's control token
_lark = tokens.grammar  # the compiled grammar (frontend/tokens.py, with its tokens' words)


def _type_of(tok) -> Type:
    if isinstance(tok, Type):
        return tok
    try:
        return parse_type(str(tok))
    except AttrError as e:
        raise _TokError(str(e), tok)


def _located_rules(cls):
    """Each rule's callback, made to raise a located _TokError: the parser calls them as it
    reduces (no parse tree is built), so a failing rule is located at its first token."""
    def located(rule, fn):
        def call(self, *children):
            try:
                return fn(self, *children)
            except _TokError:
                raise
            except (AttrError, pretty.DecodeError) as e:
                raise _TokError(str(e), getattr(e, "tok", None) or _first_token(children))
            except Exception as e:  # noqa: BLE001  (any other failure, located and named)
                raise _TokError(f"malformed {rule} ({type(e).__name__}: {e})", _first_token(children))
        return call
    for rule, fn in list(vars(cls).items()):
        if callable(fn) and not rule.startswith("_"):
            setattr(cls, rule, located(rule, fn))
    return cls


@v_args(inline=True)
@_located_rules
class _ToRaw(Transformer):
    """Parse tree to raw ops; attributes and types are decoded here."""

    def start(self, *items):
        return list(items)

    def alias_def(self, name, value):
        return ("alias", str(name), value)

    def operation(self, results, body, loc):
        body.results = results or []
        if loc is not None:
            body.extra["loc"] = loc
        return body

    def result_list(self, *rs):
        return list(rs)

    def result(self, name, count):
        return (str(name), _int(str(count)) if count is not None else 1)

    def generic_op(self, name, operands, successors, props, regions, attrs, fn_type):
        op = RawOp("generic", unescape_string(str(name)), name)
        op.operands = operands or []
        op.regions = regions or []
        op.attrs = dict(props or {})
        op.attrs.update(attrs or {})
        op.fn_type = fn_type
        if successors:
            raise _TokError("ops with block successors (branches) are not supported", name)
        return op

    def successors(self, *blocks):
        return list(blocks)

    def properties(self, *entries):
        return dict(e for e in entries if e is not None)

    def region_list(self, *regions):
        return list(regions)

    def value_list(self, *vals):
        return list(vals)

    def module_op(self, kw, sym, attrs, region):
        op = RawOp("module", "builtin.module", kw)
        op.attrs = dict(attrs or {})
        if sym is not None:
            op.attrs["sym_name"] = str(sym)[1:]
        op.regions = [region]
        return op

    def func_op(self, kw, visibility, sym, args, results, attrs, region):
        op = RawOp("func", "func.func", kw)
        op.attrs = dict(attrs or {})
        op.attrs["sym_name"] = str(sym)[1:].strip('"')
        if visibility is not None:
            op.attrs["sym_visibility"] = str(visibility)
        args = args or []
        results = results or []
        op.fn_type = FunctionType(tuple(a[1] for a in args), tuple(r[0] for r in results))
        op.extra["args"] = args
        op.extra["res_attrs"] = [r[1] for r in results]
        op.regions = [region] if region is not None else []
        return op

    def graph_op(self, kw, region):
        op = RawOp("graph", "tf_executor.graph", kw)
        op.regions = [region]
        return op

    def island_wraps(self, kw, controls, wrapped):
        op = RawOp("island", "tf_executor.island", kw)
        op.operands = controls or []
        op.extra["wrapped"] = wrapped
        return op

    def island_region(self, kw, controls, region):
        op = RawOp("island", "tf_executor.island", kw)
        op.operands = controls or []
        op.regions = [region]
        return op

    def assuming_op(self, kw, witness, *rest):
        op = RawOp("assuming", "shape.assuming", kw)
        op.operands = [witness]
        op.regions = [rest[-1]]
        op.extra["types"] = [_type_of(t) for t in rest[:-1] if t is not None]
        return op

    def v1_op(self, kw, *rest):
        op = RawOp("v1", str(kw), kw)
        rest = [r for r in rest if r is not None]
        op.attrs = rest.pop() if rest and isinstance(rest[-1], dict) and rest[-1:] != [] \
            and not isinstance(rest[-1], tuple) else {}
        op.sig = [r for r in rest if isinstance(r, Type)]
        op.items = _wrap_dicts([r for r in rest if not isinstance(r, Type)])
        return op

    def func_args(self, *args):
        return list(args)

    def named_arg(self, name, type, attrs, loc):
        return (str(name), _type_of(type), attrs or {}, name)

    def anon_arg(self, type, attrs):
        return (None, _type_of(type), attrs or {}, None)

    def func_results(self, *rs):
        return [r for r in rs if r is not None]

    def single_result(self, type):
        return [(_type_of(type), {})]

    def result_type(self, type, attrs):
        return (_type_of(type), attrs or {})

    def custom_op(self, name, *rest):
        op = RawOp("custom", str(name), name)
        items = list(rest)
        # maybe_placeholders: the optional [":" type_sig tail*] group arrives as trailing parts
        while items and items[-1] is None:
            items.pop()
        tails = []
        while items and isinstance(items[-1], tuple) and items[-1] and items[-1][0] == "tail":
            tails.insert(0, items.pop())
        if items and isinstance(items[-1], tuple) and items[-1] and items[-1][0] == "sig":
            op.sig = items.pop()[1]
        op.items = _wrap_dicts(items)
        op.tails = [t[1:] for t in tails]
        return op

    # items
    def item_value(self, tok):
        return ("value", tok)

    def item_word(self, tok):
        return ("word", tok)

    def item_token(self, tok):
        if tok.type in ("ANGLE_ATTR",):
            return ("attr", _Angle(tok), tok)
        return ("attr", self._scalar(tok), tok)

    def item_true(self):
        return ("attr", True, None)

    def item_false(self):
        return ("attr", False, None)

    def item_eq(self):
        return ("eq",)

    def item_comma(self):
        return ("comma",)

    def item_arrow(self):
        return ("arrow",)

    def item_colon(self):
        return ("colon",)

    def item_type(self, tok):
        return ("type", _type_of(tok), tok)

    def item_paren(self, *items):
        return ("paren", _wrap_dicts(items))

    def item_bracket(self, *items):
        return ("bracket", _wrap_dicts(items))

    def type_sig(self, *parts):
        """`: t, t` or, in the functional form chlo ops print, `: t, t -> t` / `-> (t, t)`."""
        *types, results = parts
        types = [_type_of(t) for t in types]
        if results is not None:
            return ("sig", [FunctionType(tuple(types), tuple(results))])
        return ("sig", types)

    def cast_sig(self, src, dst):
        """`: A to B` is the functional `: (A) -> B`."""
        return ("sig", [FunctionType((_type_of(src),), (_type_of(dst),))])

    def tail_keyword(self, kw, region):
        return ("tail", str(kw), [], region)

    def tail_reducer(self, *parts):
        return ("tail", "reducer", list(parts[:-1]), parts[-1])

    def tail_region(self, region):
        return ("tail", "", [], region)

    def region_args(self, *args):
        return [a for a in args if a is not None]

    def region(self, ops, *blocks):
        out = []
        if ops or not blocks:
            out.append((None, [], ops))
        out.extend(blocks)
        return RawRegion(out)

    def op_list(self, *ops):
        return list(ops)

    def block(self, label, *rest):
        ops = rest[-1]
        args = [a for a in rest[:-1] if a is not None]
        return (str(label), args, ops)

    def block_arg(self, name, type, loc):
        return (str(name), _type_of(type), name)

    # attributes
    def attr_dict(self, *entries):
        return dict(e for e in entries if e is not None)

    def attr_entry(self, key, value):
        k = unescape_string(str(key)) if key.type == "STRING" else str(key)
        return (k, UNIT if value is None else _attr_of(value))

    def typed_attr(self, value, type):
        t = _type_of(type)
        if isinstance(value, _Angle):
            return _attr_of(value, t)
        if isinstance(value, int) and not isinstance(value, bool) and getattr(t, "name", "").startswith("f"):
            if not isinstance(value, _HexInt):  # `-1 : f32` is the float -1.0, as in MLIR
                return float(value)
            if not 0 <= value < 1 << (8 * _fbytes(t.name)):
                raise AttrError(f"hex float {hex(value)} does not fit {t.name}")
            import numpy as np  # hex bit pattern of a float
            return float(np.array(value, dtype=np.uint64).astype(f"u{_fbytes(t.name)}")
                         .view(f"f{_fbytes(t.name)}"))
        return value

    def type_attr(self, t):
        return t

    def attr_type(self, tok):
        return _type_of(tok)

    def word_attr(self, tok):
        return EnumAttr("", str(tok))

    def int_attr(self, tok):
        return self._scalar(tok)

    float_attr = int_attr

    def str_attr(self, tok):
        return unescape_string(str(tok))

    def angle_attr(self, tok):
        return _Angle(tok)

    def hash_attr(self, tok):
        return _hash_attr(str(tok))

    def symbol_attr(self, tok):
        return SymbolRef(str(tok)[1:].strip('"'))

    def list_attr(self, *vals):
        return [_attr_of(v) for v in vals if v is not None]

    def true_attr(self):
        return True

    def false_attr(self):
        return False

    def unit_attr(self):
        return UNIT

    def type(self, tok):
        return _type_of(tok)

    plain_type = type

    def function_type(self, *parts):
        ins = [_type_of(t) for t in parts[:-1] if t is not None]
        return FunctionType(tuple(ins), tuple(parts[-1]))

    def fn_results(self, *ts):
        return [_type_of(t) for t in ts if t is not None]

    def loc(self, *items):
        return LocName([p for item in items for p in (item or [])])

    def loc_item(self, *items):
        """A location's strings, numbers and alias references (`#loc3`), in order; the rest
        dropped."""
        out = []
        for item in items:
            if isinstance(item, Token) and item.type == "STRING":
                out.append(("name", unescape_string(str(item))))
            elif isinstance(item, Token) and item.type == "INT":
                out.append(("int", _int(str(item))))
            elif isinstance(item, Token) and item.type == "HASH_ID":
                out.append(("ref", str(item)))
            elif isinstance(item, list):
                out.extend(item)
        return out

    @staticmethod
    def _scalar(tok):
        text = str(tok)
        if tok.type == "INT":
            value = _int(text)
            return _HexInt(value) if text.lower().startswith("0x") else value
        if tok.type == "FLOAT":
            return float(text)
        if tok.type == "STRING":
            return unescape_string(text)
        if tok.type == "SYMBOL":
            return SymbolRef(text[1:].strip('"'))
        if tok.type in ("HASH_ATTR", "HASH_ID"):
            return _hash_attr(text)
        return text


class _HexInt(int):
    """An integer written in hex: as a float attribute's value, its bit pattern."""


_TO_RAW = _ToRaw()  # stateless: one instance, so tokens.grammar keeps one parser for it


def _int(text: str) -> int:
    """An INT token: hex, or decimal with leading zeros allowed (`01`, which int(x, 0) refuses)."""
    return int(text, 16) if text.startswith("0x") else int(text)


def _wrap_dicts(items):
    """Attribute dicts among pretty items become ("dict", d) like every other item."""
    return [("dict", x) if isinstance(x, dict) else x for x in items]


def _fbytes(name: str) -> int:
    return {"f16": 2, "bf16": 2, "f32": 4, "f64": 8}[name]


def _hash_attr(text: str):
    """`#stablehlo<comparison_direction GE>` becomes an EnumAttr; other `#...` stay opaque."""
    from lowering.ir.core import OpaqueAttr
    if "<" in text:
        head, body = text[1:].split("<", 1)
        body = body[:-1].strip()
        parts = body.split()
        if "." not in head and len(parts) == 2 and parts[1].replace("_", "").isalnum():
            return EnumAttr(parts[0], parts[1])
    return OpaqueAttr(text)


# ----------------------------------------------------------------------------- builder


class LocName:
    """What a `loc(...)` says by name: its strings and `#loc` references. TensorFlow's
    imports with debug info name each node this way (`loc(fused["MatMul:", "x_y_prod"])`)."""

    def __init__(self, parts):
        self.parts = parts

    def node_name(self, aliases: dict, depth: int = 0):
        """The last name that is not an op-type marker ("MatMul:"), references followed."""
        names = []
        for kind, text in self.parts:
            if kind == "name" and not text.endswith(":"):
                names.append(text)
            elif kind == "ref" and isinstance(aliases.get(text), LocName) and depth < 16:
                n = aliases[text].node_name(aliases, depth + 1)
                if n:
                    names.append(n)
        return names[-1] if names else None

    def source(self, aliases: dict, depth: int = 0):
        """The first `"file":line:col` it holds, references followed, as a Location (a
        callsite's first is its innermost frame); None if it has none."""
        parts = self.parts
        for i, (kind, value) in enumerate(parts):
            if kind == "name" and [k for k, _ in parts[i + 1:i + 3]] == ["int", "int"]:
                return Location(value, parts[i + 1][1], parts[i + 2][1])
            if kind == "ref" and isinstance(aliases.get(value), LocName) and depth < 16:
                found = aliases[value].source(aliases, depth + 1)
                if found is not None:
                    return found
        return None


NODE_NAME = "_tf_node_name"  # the attribute a TF op's node name (from its location) goes to


class _Scope:
    def __init__(self, parent=None):
        self.names: dict = {}
        self.parent = parent

    def lookup(self, name):
        s = self
        while s is not None:
            if name in s.names:
                return s.names[name]
            s = s.parent
        return None


MAX_RESULTS = 1 << 16  # results one op may name (`%r:N`): TensorFlow's executor nodes build N


class Builder:
    """Raw ops to IR ops: names resolved, pretty forms decoded, errors located."""

    def __init__(self, filename: str, text: str):
        self.filename = filename
        self.lines = text.split("\n")  # as lark counts lines: str.splitlines() also splits at \x0c, \x1c...
        self.shifts: list = []  # hex blobs set aside before lexing (set_aside_hex)

    def loc(self, tok) -> Location:
        if tok is None or not hasattr(tok, "line"):
            return Location(self.filename, 0, 0)
        return Location(self.filename, tok.line, _unshift(self.shifts, tok.line, tok.column))

    def error(self, message: str, tok=None, loc: Location = None) -> CompileError:
        loc = loc or self.loc(tok)
        line = self.lines[loc.line - 1] if 0 < loc.line <= len(self.lines) else ""
        return CompileError(message, loc, printable_line(line[:1000]))

    def end(self) -> Location:
        """Just past the last non-blank character: where 'unexpected end of input' points."""
        n = len(self.lines)
        while n > 1 and not self.lines[n - 1].strip():
            n -= 1
        return Location(self.filename, n, len(self.lines[n - 1].rstrip()) + 1 if self.lines else 1)

    def module(self, raws: list) -> Module:
        """The file's ops, with nested modules flattened into one symbol table: a module
        inside the top one (as StableHLO's tests and some exporters write) contributes its
        functions, public ones compiled as entries. Refused, with both places named: two
        modules defining one symbol (MLIR scopes symbols per module; this compiler has one
        table), and nested symbol references (@inner::@f) across modules."""
        top = [r for r in raws if isinstance(r, RawOp)]
        self.loc_aliases = {r[1]: r[2] for r in raws if isinstance(r, tuple) and r[0] == "alias"}
        module = Module(filename=self.filename)
        if len(top) == 1 and _is_module(top[0]):
            module.attrs = {k: v for k, v in top[0].attrs.items() if k != "sym_name"}
            module.name = top[0].attrs.get("sym_name", "")
            body = top[0].regions[0].blocks[0][2]
        else:
            body = top
        scope = _Scope()
        defined: dict = {}  # symbol -> the token of its first definition
        for raw in self._flatten_modules(body, module):
            op = self.op(raw, scope)
            sym = op.attrs.get("sym_name")
            if isinstance(sym, str):
                if sym in defined:
                    first = self.loc(defined[sym])
                    raise self.error(f"@{sym} is defined twice (first at line {first.line}): nested modules "
                                     "share one symbol table here, so their symbols must differ", raw.tok)
                defined[sym] = raw.tok
            module.ops.append(op)
        return module

    def _flatten_modules(self, body: list, module: Module) -> list:
        """The ops of `body` with each nested module replaced by its own ops (recursively);
        a nested module's attributes fill in those the outer ones lack."""
        ops = []
        for raw in body:
            if not _is_module(raw):
                ops.append(raw)
                continue
            for k, v in raw.attrs.items():
                if k != "sym_name":
                    module.attrs.setdefault(k, v)
            if raw.regions and raw.regions[0].blocks:
                ops += self._flatten_modules(raw.regions[0].blocks[0][2], module)
        return ops

    def op(self, raw: RawOp, scope: _Scope) -> Operation:
        try:
            if raw.kind == "func":
                op = self.func(raw, scope)
            elif raw.kind == "generic":
                op = self.generic(raw, scope)
            elif raw.kind in ("graph", "island"):
                op = self.executor(raw, scope)
            elif raw.kind == "v1":
                op = self.v1(raw, scope)
            elif raw.kind == "assuming":
                op = Operation(raw.name, [self.value(t, scope) for t in raw.operands],
                               raw.extra["types"], {}, [self.region(raw.regions[0], _Scope(scope))],
                               self.loc(raw.tok))
            else:
                op = self.custom(raw, scope)
        except pretty.DecodeError as e:
            raise self.error(f"'{raw.name}': {e}", e.tok or raw.tok)
        except _TokError as e:
            raise self.error(e.message, e.tok)
        except AttrError as e:
            raise self.error(f"'{raw.name}': {e}", raw.tok)
        source = raw.extra.get("loc")  # MLIR's location of the op, where it says one
        source = source.source(getattr(self, "loc_aliases", {})) if isinstance(source, LocName) else None
        if source is not None:
            op.loc = source
        self.bind_results(raw, op, scope)
        return op

    def bind_results(self, raw, op, scope):
        declared = sum(c for _, c in raw.results)
        if raw.results and declared != len(op.results):
            raise self.error(f"'{op.name}' has {len(op.results)} results, {declared} named", raw.tok)
        i = 0
        for name, count in raw.results:
            if count == 1:
                scope.names[name] = op.results[i]
                op.results[i].hint = name[1:]
            for k in range(count):
                scope.names[f"{name}#{k}"] = op.results[i + k]
            i += count

    def value(self, tok, scope):
        v = scope.lookup(str(tok))
        if v is None:
            raise self.error(f"use of undefined value '{tok}'", tok)
        return v

    def check_operand_types(self, toks, values, declared) -> None:
        """A value's type is the one it was defined with; a signature that says otherwise is an
        error at the use (as in MLIR), not a mismatch found deep in a later stage."""
        for tok, v, t in zip(toks, values, declared):
            if v.type != t:
                raise self.error(f"'{tok}' has type {v.type}, but the op's type signature says {t}",
                                 tok)

    def func(self, raw: RawOp, scope: _Scope) -> Operation:
        attrs = dict(raw.attrs)
        attrs["function_type"] = raw.fn_type
        args = raw.extra["args"]
        if any(a[2] for a in args):
            attrs["arg_attrs"] = [a[2] for a in args]
        if any(raw.extra["res_attrs"]):
            attrs["res_attrs"] = raw.extra["res_attrs"]
        regions = []
        if raw.regions:
            inner = _Scope()  # a function is isolated from above: it sees no outer values
            entry_args = [(a[0], a[1], a[3]) for a in args]
            if any(a[0] is None for a in args):
                raise self.error("a function with a body needs named arguments", raw.tok)
            regions = [self.region(raw.regions[0], inner, entry_args)]
        return Operation("func.func", [], [], attrs, regions, self.loc(raw.tok))

    def generic(self, raw: RawOp, scope: _Scope) -> Operation:
        operands = [self.value(t, scope) for t in raw.operands]
        fn = raw.fn_type
        if len(fn.inputs) != len(operands):
            raise self.error(f"'{raw.name}' has {len(operands)} operands but its type lists "
                             f"{len(fn.inputs)}", raw.tok)
        self.check_operand_types(raw.operands, operands, fn.inputs)
        regions = [self.region(r, _Scope(scope)) for r in raw.regions]
        attrs = raw.attrs
        if raw.name.startswith("tf.") and isinstance(raw.extra.get("loc"), LocName):
            name = raw.extra["loc"].node_name(getattr(self, "loc_aliases", {}))
            if name:
                attrs = dict(attrs, **{NODE_NAME: name})
        return Operation(raw.name, operands, fn.results, attrs, regions, self.loc(raw.tok))

    def executor(self, raw: RawOp, scope: _Scope) -> Operation:
        """`tf_executor.graph {...}` and `tf_executor.island [wraps op | {...}]`: a region
        whose terminator (fetch, yield) gives the results, plus an island's control token.
        A wrapped op becomes the island's region with a yield of its results."""
        controls = [self.value(t, scope) for t in raw.operands]
        if "wrapped" in raw.extra:
            if "loc" in raw.extra:  # the island's location names the node it wraps
                raw.extra["wrapped"].extra.setdefault("loc", raw.extra["loc"])
            inner = self.generic(raw.extra["wrapped"], _Scope(scope))
            yield_op = Operation("tf_executor.yield", inner.results, (), {}, (), inner.loc)
            region = Region([Block((), [inner, yield_op])])
        else:
            region = self.region(raw.regions[0], _Scope(scope))
        ops = region.blocks[0].ops
        if not ops or ops[-1].name not in ("tf_executor.fetch", "tf_executor.yield"):
            raise self.error(f"'{raw.name}' must end with tf_executor.fetch or yield", raw.tok)
        types = [v.type for v in ops[-1].operands if str(v.type) != CONTROL]
        if raw.kind == "island":
            types.append(OpaqueType(CONTROL))
        return Operation(raw.name, controls, types, {}, [region], self.loc(raw.tok))

    def v1(self, raw: RawOp, scope: _Scope) -> Operation:
        """A TF1 control flow node: its value operands (in brackets too), its words as
        attributes (`frame "f"` -> frame_name, `constant` -> is_constant,
        `parallel_iterations N`), data results of the `: type` or the `(...) -> (...)` types
        (Merge's second is its i32 index), then a control token."""
        def values(items):
            for item in items:
                if item[0] == "value":
                    yield item[1]
                elif item[0] in ("paren", "bracket"):
                    yield from values(item[1])
        operands = [self.value(t, scope) for t in values(raw.items)]
        attrs = dict(raw.attrs)
        flat = list(raw.items)
        for i, item in enumerate(flat):
            if item[0] != "word":
                continue
            word = str(item[1])
            if word == "constant":
                attrs["is_constant"] = True
            elif word in ("frame", "parallel_iterations") and i + 1 < len(flat) \
                    and flat[i + 1][0] == "attr":
                attrs["frame_name" if word == "frame" else word] = flat[i + 1][1]
        n = sum(c for _, c in raw.results) or 1
        if n > MAX_RESULTS:
            raise self.error(f"'{raw.name}' names {n} results (at most {MAX_RESULTS})", raw.tok)
        sig = raw.sig[0] if raw.sig else OpaqueType("tensor<*xf32>")
        if isinstance(sig, FunctionType):
            data = [t for t in sig.results if str(t) != CONTROL]
            operands = [v for v in operands if str(v.type) != CONTROL]
        else:
            data = [sig] * (n - 1)
            if raw.name == "tf_executor.Merge" and n == 3:
                data[1] = TensorType((), "i32")
        if len(data) != n - 1:
            raise self.error(f"'{raw.name}' has {len(data) + 1} results, {n} named", raw.tok)
        return Operation(raw.name, operands, data + [OpaqueType(CONTROL)], attrs, (),
                         self.loc(raw.tok))

    def custom(self, raw: RawOp, scope: _Scope) -> Operation:
        if raw.name in ("tf_executor.fetch", "tf_executor.yield") and not raw.items:
            return Operation(raw.name, [], [], {}, (), self.loc(raw.tok))  # fetches nothing
        decoded = pretty.decode(raw)
        operands = [self.value(t, scope) for t in decoded.operands]
        if len(raw.sig) == 1 and isinstance(raw.sig[0], FunctionType) \
                and len(raw.sig[0].inputs) == len(operands):  # `: (operand types) -> results`
            self.check_operand_types(decoded.operands, operands, raw.sig[0].inputs)
        regions = [self.region(r, _Scope(scope), args) for r, args in decoded.regions]
        return Operation(decoded.name, operands, decoded.result_types, decoded.attrs, regions,
                         self.loc(raw.tok))

    def region(self, raw: RawRegion, scope: _Scope, entry_args=None) -> Region:
        region = Region()
        for bi, (label, args, ops) in enumerate(raw.blocks):
            if bi == 0 and entry_args is not None:
                if args:
                    raise self.error("region arguments given twice", args[0][2])
                args = entry_args
            if bi > 0:
                raise self.error("regions with several blocks (branches) are not supported",
                                 args[0][2] if args else None)
            block = Block([a[1] for a in args])
            for (name, _, tok), v in zip(args, block.args):
                scope.names[name] = v
                v.hint = name[1:]
            region.add_block(block)
            for raw_op in ops:
                block.append(self.op(raw_op, scope))
        return region


# A hex blob worth setting aside: lark's lexer matches each token with a regular expression,
# at a few MB/s over a blob of frozen weights; this one finds them at hundreds of MB/s.
def set_aside_hex(text: str) -> tuple[str, list, list]:
    """(text with each long `"0x..."` replaced by `"0x@N"`, the blobs (source.HexBlob), and
    per replacement its (line, column after it in the new text, columns removed)) so that
    the lexer never scans the blobs and positions after one on its line can be mapped back.
    A SourceText (a big file, read by read_source) has had its blobs set aside already."""
    if isinstance(text, SourceText):
        return text, text.hex_blobs, text.shifts
    return set_aside(text)


def _unshift(shifts: list, line: int, column: int) -> int:
    """A column of the lexed text, in the original text."""
    return column + sum(removed for ln, col, removed in shifts if ln == line and col <= column)


def _is_module(raw: RawOp) -> bool:
    return raw.kind == "module" or raw.name == "builtin.module"


def parse_module(text: str, filename: str = "<input>") -> Module:
    """Parse MLIR text into a Module; raises CompileError with file:line:col."""
    builder = Builder(filename, text)
    lexed, blobs, builder.shifts = set_aside_hex(text)
    reset = HEX_BLOBS.set(blobs)  # dense<"0x@N"> is read from the blobs set aside
    try:
        return builder.module(_raw_ops(builder, lexed))
    finally:
        HEX_BLOBS.reset(reset)


def _raw_ops(builder: Builder, lexed: str) -> list:
    """The text's raw ops, reduced as lark parses (no parse tree: 40% of the parse time of
    a 4k-op program went to building the tree and walking it again); errors located. Runs of
    one-line ops are read by `_SameForm` (each form parsed by lark once), lark parsing the
    rest around a stand-in for each run."""
    runs = _SameForm(lexed)
    if runs.found:
        try:
            raws = _parse_located(builder, runs.rest)
        except CompileError:  # found, and said, in the text as written
            raws = None
        if raws is not None and runs.splice(raws):
            return raws
    return _parse_located(builder, lexed)  # a run's stand-in was read otherwise: as written


def _parse_located(builder: Builder, lexed: str) -> list:
    try:
        return _lark(_TO_RAW).parse(lexed)
    except _TokError as e:
        raise builder.error(e.message, e.tok or _tree_token(lexed, e))
    except lark.exceptions.UnexpectedCharacters as e:
        column = _unshift(builder.shifts, e.line, e.column)
        raise builder.error(_unexpected_character(lexed, e),
                            loc=Location(builder.filename, e.line, column))
    except lark.exceptions.UnexpectedToken as e:
        if e.token.line is not None and e.token.column is not None:
            e.token.column = _unshift(builder.shifts, e.token.line, e.token.column)
        raise _syntax_error(builder, lexed, e)
    except lark.exceptions.UnexpectedEOF:
        raise builder.error("unexpected end of input", loc=builder.end())


# ----------------------------------------------------------------------------- one-line ops
# A 16k-op program is 16k lines of a few dozen forms (`%v3 = stablehlo.add %v1, %v2 :
# tensor<?x64xf32>`), and lark spends ~300 us on each. A line whose op is complete on it is
# parsed once per form, its value names and loc references replaced by placeholders
# (`%$0 = stablehlo.add %$1, %$2 : tensor<?x64xf32>`), by lark and the grammar as any text;
# each line of that form is then a copy of the raw op, with its own names and positions.

_VALUE_NAME = re.compile(r"%[A-Za-z0-9_.\-]+(?:#[0-9]+)?|(?<=loc\()#[A-Za-z0-9_.\-]+(?=\))")
_OP_LINE = re.compile(r"[ \t]*%[A-Za-z0-9_.\-]")
# what may follow a run of one-line ops, its last op then ending there in any parse
_AFTER_RUN = re.compile(r"[ \t]*(?:%|}|(?:func\.|stablehlo\.|mhlo\.)?return[ \t])")
_STAND_IN = "__aot_one_line_ops : i1"  # a complete op, where a run of them was
_STAND_IN_NAME = _STAND_IN.split()[0]
_FORMS: dict = {}  # a line's form -> a maker of its raw op for a line (_copier), or None
MAX_FORMS = 4096
MIN_NEW_FORMS = 128  # new forms before _SameForm.unique may stop trying


class _SameForm:
    """The one-line ops of a text, by line: their lines blanked in `rest`, a stand-in op on
    each run's first line (so lark's line numbers stay right)."""

    def __init__(self, text: str):
        lines = text.split("\n")
        self.runs: dict = {}  # first line number -> [raw op per line of the run]
        self.tried = self.new = 0  # lines tried, and of them lines of a form not seen before
        run = None
        for i, line in enumerate(lines):
            raw = self.one_line_op(line, i + 1) if _OP_LINE.match(line) and \
                i + 1 < len(lines) and _AFTER_RUN.match(lines[i + 1]) and not self.unique() \
                else None
            if raw is None:
                run = None
                continue
            if run is None:
                run = self.runs[i + 1] = []
                lines[i] = _STAND_IN
            else:
                lines[i] = ""
            run.append(raw)
        self.found = bool(self.runs)
        self.rest = "\n".join(lines) if self.found else text

    def unique(self) -> bool:
        """Whether three lines in four so far had forms of their own (a big CNN's
        convolutions, each of its shapes): a form parsed and copied costs more than lark
        reading the line (~1.7x), so the rest of such a text is left to lark."""
        return self.new > MIN_NEW_FORMS and 4 * self.new > 3 * self.tried

    def one_line_op(self, line: str, number: int):
        """The line's raw op, or None when it is not one op complete on its line (then
        lark reads it in place, and any error is found there)."""
        if '"' in line or "$" in line or "//" in line or "{" in line:
            return None
        names = []
        def placeholder(m):
            names.append(m.group())
            return f"{m.group()[0]}${len(names) - 1}"
        indent = len(line) - len(line.lstrip(" \t"))
        form = _VALUE_NAME.sub(placeholder, line[indent:])
        self.tried += 1
        if form not in _FORMS:
            self.new += 1
            if len(_FORMS) > MAX_FORMS:
                _FORMS.clear()
            _FORMS[form] = _parse_form(form)
        raw = _FORMS[form]
        if raw is None:
            return None
        return raw(_Line(names, number, indent))

    def splice(self, raws: list) -> bool:
        """Put each run's ops where its stand-in was parsed; False if one was not found."""
        placed = 0
        def ops_of(ops):
            nonlocal placed
            out = []
            for op in ops:
                if isinstance(op, RawOp) and op.name == _STAND_IN_NAME and not op.results \
                        and op.tok.line in self.runs:
                    out.extend(self.runs[op.tok.line])
                    placed += 1
                    continue
                if isinstance(op, RawOp):
                    for region in op.regions + [t[-1] for t in op.tails]:
                        region.blocks = [(label, args, ops_of(inner))
                                         for label, args, inner in region.blocks]
                out.append(op)
            return out
        raws[:] = ops_of(raws)
        return placed == len(self.runs)


def _parse_form(form: str):
    """A line's form parsed alone: its raw op if it is one op, complete (a custom op's
    `: types` read, so no next line could extend it), of values only copied safely."""
    try:
        raws = _lark(_TO_RAW).parse(form)
    except (lark.exceptions.LarkError, _TokError):
        return None
    if len(raws) != 1 or not isinstance(raws[0], RawOp) or not raws[0].results:
        return None
    raw = raws[0]
    if raw.kind != "custom" or not raw.sig or raw.regions or raw.tails:
        return None
    starts = [m.start() + 1 for m in re.finditer(r"[%#]\$[0-9]+", form)]
    return _copier(raw, starts) if _copyable(raw) else None


_SHARED = (str, int, float, type(None), Type, EnumAttr, SymbolRef, type(UNIT))


def _copyable(x) -> bool:
    if isinstance(x, (list, tuple)):
        return all(_copyable(v) for v in x)
    if isinstance(x, dict):
        return all(_copyable(v) for v in x.values())
    if isinstance(x, RawOp):
        return all(_copyable(getattr(x, f)) for f in _RAW_FIELDS)
    if isinstance(x, (_Angle, LocName)):
        return True
    return isinstance(x, _SHARED)


class _Line:
    """One line of a form: its names (placeholder k is names[k]), its number, and per k
    how far a token after the first k placeholders moves (their names' lengths less
    theirs, and the indentation)."""

    def __init__(self, names: list, number: int, indent: int):
        self.names, self.number = names, number
        self.moved = [indent]
        for k, name in enumerate(names):
            self.moved.append(self.moved[-1] + len(name) - len(f"%${k}"))


def _placeholder(text: str):
    """k of a placeholder `%$k` / `#$k`, else None."""
    return int(text[2:]) if text[1:2] == "$" and text[:1] in "%#" else None


def _copier(x, starts: list):
    """A function of a _Line making a copy of x (a form's raw op or a part of it) for that
    line: placeholders its names, tokens at its positions, every list and dict new (the
    builder and the passes may change them), immutable values shared. `starts`: the
    columns where the form's placeholders start."""
    if isinstance(x, Token):
        text, k, kind, at = str(x), _placeholder(str(x)), x.type, x.column
        before = sum(1 for c in starts if c < at)
        return lambda line: Token(kind, text if k is None else line.names[k], None,
                                  line.number, at + line.moved[before], line.number)
    if isinstance(x, str) and _placeholder(x) is not None:
        k = _placeholder(x)
        return lambda line: line.names[k]
    if type(x) in (list, tuple):
        parts = [_copier(v, starts) for v in x]
        make = type(x)
        return lambda line: make([f(line) for f in parts])
    if type(x) is dict:
        parts = [(key, _copier(v, starts)) for key, v in x.items()]
        return lambda line: {key: f(line) for key, f in parts}
    if isinstance(x, RawOp):
        parts = [(f, _copier(getattr(x, f), starts)) for f in _RAW_FIELDS]
        return lambda line: RawOp(**{name: f(line) for name, f in parts})
    if isinstance(x, _Angle):
        tok = _copier(x.tok, starts)
        return lambda line: _Angle(tok(line))
    if isinstance(x, LocName):
        parts = _copier(x.parts, starts)
        return lambda line: LocName(parts(line))
    return lambda line: x  # an immutable value (_copyable)


_RAW_FIELDS = [f.name for f in dataclasses.fields(RawOp)]


# A word lexed as a name and then '<': a type or attribute whose '>' is missing (the whole
# `tensor<...>` is one token only when its brackets close).
_OPENERS = ("tensor", "memref", "vector", "tuple", "complex", "dense", "dense_resource", "array",
            "sparse", "affine_map", "affine_set", "strided", "opaque")


def _syntax_error(builder: Builder, text: str, e) -> CompileError:
    tok = e.token
    expected = tokens.describe_expected(e.expected)
    if tok.type == "$END":
        return builder.error(f"unexpected end of input; expected {expected}", loc=builder.end())
    loc = Location(builder.filename, tok.line, tok.column)
    around = text[max(tok.start_pos - 1, 0):tok.start_pos + 3] if tok.start_pos is not None else ""
    if str(tok) == ":" and "::@" in around:  # pointed at the reference's first '@'
        at = text.rfind("@", 0, tok.start_pos)
        loc = Location(builder.filename, tok.line, max(tok.column - (tok.start_pos - at), 1))
        return builder.error("nested symbol references (@module::@symbol) are not supported: nested "
                             "modules share one symbol table here, so name the symbol alone", loc=loc)
    if str(tok) == "<" and tok.start_pos is not None:
        word = text[:tok.start_pos].rstrip().rsplit(None, 1)[-1:]
        word = word[0].lstrip("(:,[{=") if word else ""
        if word in _OPENERS or word.startswith("!"):
            return builder.error(f"'{word}<' is not closed: expected '>'", loc=loc)
    return builder.error(f"unexpected {tokens.show_token(str(tok))}; expected {expected}", loc=loc)


def _unexpected_character(text: str, e) -> str:
    ch = text[e.pos_in_stream] if e.pos_in_stream < len(text) else ""
    msg = f"unexpected character {tokens.show_char(ch)}" if ch else "unexpected end of input"
    if ch == '"':
        return "string not closed: no '\"' after it"
    allowed = set(getattr(e, "allowed", None) or ()) - {"WS", "COMMENT"}
    if allowed:
        msg += f"; expected {tokens.describe_expected(allowed)}"
    return msg


def _tree_token(lexed: str, error: _TokError):
    """Where a rule that failed without a token of its own starts (a typed number, say):
    the text is parsed again into a tree, rare and slower, and walked to that failure."""
    try:
        _ToRaw().transform(_lark().parse(lexed))
    except lark.exceptions.VisitError as e:
        if e.orig_exc.message == error.message:
            return _subtree_token(e.obj)
    return None


def _subtree_token(tree):
    if isinstance(tree, Token):
        return tree
    for child in getattr(tree, "children", ()):
        tok = _subtree_token(child)
        if tok is not None:
            return tok
    return None


def _first_token(children):
    """The first token among a rule's reduced children (tokens, raw ops, lists of them):
    where to point an error."""
    for child in children:
        if isinstance(child, Token):
            return child
        tok = getattr(child, "tok", None) if not isinstance(child, (list, tuple)) \
            else _first_token(child)
        if isinstance(tok, Token):
            return tok
    return None


def parse_file(path: str) -> Module:
    """Parse a file (read by frontend/source.py: not UTF-8 is a located error)."""
    return parse_module(read_source(path), path)
