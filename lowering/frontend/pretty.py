"""Per-op decoders of the pretty (custom assembly) forms JAX and MLIR print.

The grammar parses a pretty op body as a flat list of items; a decoder picked by
the op's short name turns it into operands, attributes, result types and
regions, naming attributes as the generic form does (`dims` of broadcast_in_dim
becomes `broadcast_dimensions`, and so on). Ops without an entry use the
default decoder: operands, `key = value` attributes, and the type signature.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

import numpy as np

from lowering.ir.core import (
    DenseAttr,
    EnumAttr,
    FunctionType,
    OpaqueAttr,
    ScalarType,
    SymbolRef,
    TensorType,
)


class DecodeError(Exception):
    def __init__(self, message, tok=None):
        super().__init__(message)
        self.tok = tok


@dataclass
class Decoded:
    name: str
    operands: list = field(default_factory=list)  # value tokens
    attrs: dict = field(default_factory=dict)
    result_types: list = field(default_factory=list)
    regions: list = field(default_factory=list)  # [(RawRegion, entry_args or None)]


TERMINATORS = {"return", "terminator", "yield", "assuming_yield"}


def short_name(name: str) -> str:
    return name.rsplit(".", 1)[-1] if "." in name else name


# ----------------------------------------------------------------------------- item helpers


def _split(items, kind="comma"):
    parts, cur = [], []
    for it in items:
        if it[0] == kind:
            parts.append(cur)
            cur = []
        else:
            cur.append(it)
    if cur or parts:
        parts.append(cur)
    return parts


def _attr_value(parts):
    """Value of `key = ...`: a bracket list, a token, a word (enum) or a dict."""
    from lowering.frontend.raw import _attr_of
    if len(parts) == 3 and parts[0][0] == "bracket" and parts[1] == ("word", "x") or (
            len(parts) == 3 and parts[0][0] == "bracket" and parts[1][0] == "word"
            and str(parts[1][1]) == "x" and parts[2][0] == "bracket"):
        return (_bracket(parts[0][1]), _bracket(parts[2][1]))
    if len(parts) != 1:
        raise DecodeError("cannot read attribute value", _first_tok(parts))
    kind = parts[0][0]
    if kind == "bracket":
        return _bracket(parts[0][1])
    if kind == "attr":
        return _attr_of(parts[0][1])
    if kind == "word":
        return str(parts[0][1])
    if kind == "dict":
        return parts[0][1]
    raise DecodeError("cannot read attribute value", _first_tok(parts))


def _first_tok(items):
    for it in items:
        if len(it) > 1 and hasattr(it[-1], "line"):
            return it[-1]
        if len(it) > 1 and hasattr(it[1], "line"):
            return it[1]
    return None


def _bracket(items):
    """`[1, 2]` -> (1, 2); `[A, B]` -> ['A', 'B']; `[0:2, 1:4:2]` -> [('slice', 0, 2, 1), ...]."""
    from lowering.frontend.raw import _attr_of
    out = []
    for part in _split(items):
        if not part:
            continue
        if any(p[0] == "colon" for p in part):
            nums = [p[1] for p in part if p[0] == "attr"]
            out.append(("slice",) + tuple(nums) + ((1,) if len(nums) == 2 else ()))
        elif len(part) == 1 and part[0][0] == "attr":
            out.append(_attr_of(part[0][1]))  # a dense<...> here has no type: an error
        elif len(part) == 1 and part[0][0] == "word":
            out.append(str(part[0][1]))
        elif len(part) == 1 and part[0][0] == "bracket":
            out.append(_bracket(part[0][1]))
        else:
            raise DecodeError("cannot read list element", _first_tok(part))
    if all(isinstance(v, int) and not isinstance(v, bool) for v in out):
        return tuple(out)
    return out


class Items:
    """The top-level items of a pretty op, sorted into what decoders ask for."""

    def __init__(self, raw):
        self.raw = raw
        self.values = []
        self.kw = {}
        self.words = []
        self.groups = []
        self.symbols = []
        self.attrs = []
        self.dicts = []
        self.brackets = []
        parts = _split(raw.items)
        for part in parts:
            i = 0
            while i < len(part):
                it = part[i]
                if it[0] == "word" and i + 1 < len(part) and part[i + 1][0] == "eq":
                    value = part[i + 2:]
                    if len(value) > 1 and value[-1][0] == "dict":  # `k = [..] {attrs}`
                        self.dicts.append(value[-1][1])  # (TF's lowering prints that)
                        value = value[:-1]
                    self.kw[str(it[1])] = _attr_value(value)
                    break
                if it[0] == "value":
                    self.values.append(it[1])
                elif it[0] == "word":
                    self.words.append(str(it[1]))
                elif it[0] == "paren":
                    self.groups.append(it[1])
                elif it[0] == "attr" and isinstance(it[1], SymbolRef):
                    self.symbols.append(it[1])
                elif it[0] == "attr":
                    self.attrs.append(it)
                elif it[0] == "dict":
                    self.dicts.append(it[1])
                elif it[0] == "bracket":
                    self.brackets.append(it[1])
                i += 1

    def group_values(self):
        return [it[1] for g in self.groups for it in g if it[0] == "value"]


def _types(raw, n_operands: int, n_results_hint=1):
    """Operand and result types from the signature `: t` / `: (ts) -> ts`."""
    sig = raw.sig
    if len(sig) == 1 and isinstance(sig[0], FunctionType):
        fn = sig[0]
        if len(fn.inputs) != n_operands:
            raise DecodeError(f"has {n_operands} operands but its type lists {len(fn.inputs)}",
                              raw.tok)
        return list(fn.inputs), list(fn.results)
    if not sig:
        if n_results_hint:
            raise DecodeError("missing type signature ': type'", raw.tok)
        return [], []
    if len(sig) == 1:
        return [sig[0]] * n_operands, [sig[0]] * n_results_hint
    return list(sig), list(sig)


def _region_with_args(region, args):
    return (region, [(name, t, tok) for name, t, tok in args])


# ----------------------------------------------------------------------------- decoders


def decode_default(raw, it: Items) -> Decoded:
    operands = it.values + it.group_values()
    terminator = short_name(raw.name) in TERMINATORS
    if terminator and raw.sig and not isinstance(raw.sig[0], FunctionType) \
            and len(raw.sig) != len(operands):
        raise DecodeError(f"returns {len(operands)} values but lists {len(raw.sig)} types", raw.tok)
    _, results = _types(raw, len(operands), 0 if terminator else 1)
    attrs = dict(it.kw)
    for d in it.dicts:
        attrs.update(d)
    regions = [(t[2], None) for t in raw.tails]
    if it.words:
        raise DecodeError(f"unexpected word '{it.words[0]}' in pretty form", raw.tok)
    return Decoded(raw.name, operands, attrs, [] if terminator else results, regions)


def decode_constant(raw, it: Items) -> Decoded:
    from lowering.frontend.raw import _attr_of, dense_type
    if not it.attrs or not raw.sig:
        raise DecodeError("expected 'constant VALUE : TYPE'", raw.tok)
    t = raw.sig[0]
    value = it.attrs[0][1]
    if isinstance(dense_type(t), TensorType):
        value = _attr_of(value, t)
    attrs = {"value": value}
    for d in it.dicts:
        attrs.update(d)
    return Decoded(raw.name, [], attrs, [t])


def decode_compare(raw, it: Items) -> Decoded:
    if not it.words:
        raise DecodeError("expected a comparison direction (EQ, NE, LT, LE, GT, GE)", raw.tok)
    attrs = {"comparison_direction": EnumAttr("comparison_direction", it.words[0])}
    if len(it.words) > 1:
        attrs["compare_type"] = EnumAttr("comparison_type", it.words[1])
    sig = raw.sig
    if len(sig) == 1 and not isinstance(sig[0], FunctionType):
        t = sig[0]
        result = TensorType(t.shape, "i1") if isinstance(t, TensorType) else t
        return Decoded(raw.name, it.values, attrs, [result])
    _, results = _types(raw, len(it.values))
    return Decoded(raw.name, it.values, attrs, results)


def decode_arith_cmp(raw, it: Items) -> Decoded:
    """`arith.cmpi slt, %a, %b : i32` (TensorFlow's partial lowering prints it): the
    predicate word, an i1 (or i1 tensor) result."""
    if not it.words or not raw.sig:
        raise DecodeError("expected 'cmpi PREDICATE, %a, %b : TYPE'", raw.tok)
    t = raw.sig[0]
    result = TensorType(t.shape, "i1") if isinstance(t, TensorType) else ScalarType("i1")
    return Decoded(raw.name, it.values, {"predicate": str(it.words[0])}, [result])


def decode_tensor_extract(raw, it: Items) -> Decoded:
    """`tensor.extract %t[%i, %j] : tensor<2x3xi32>`: the tensor, its indices, one element."""
    if not raw.sig or not isinstance(raw.sig[0], TensorType):
        raise DecodeError("expected 'extract %t[INDICES] : TENSOR_TYPE'", raw.tok)
    indices = [v[1] for b in it.brackets for v in b if v[0] == "value"]
    return Decoded(raw.name, it.values + indices, {}, [ScalarType(raw.sig[0].elem)])


def decode_witness(raw, it: Items) -> Decoded:
    """`shape.cstr_broadcastable %a, %b : t, t`: one `!shape.witness` result."""
    from lowering.ir.core import OpaqueType
    return Decoded(raw.name, it.values, {}, [OpaqueType("!shape.witness")])


def decode_select(raw, it: Items) -> Decoded:
    sig = raw.sig
    if len(sig) == 2:  # `: pred_type, result_type`
        return Decoded(raw.name, it.values, {}, [sig[1]])
    _, results = _types(raw, len(it.values))
    return Decoded(raw.name, it.values, {}, results)


def _renamed(mapping):
    """A decoder that is the default one with pretty keyword names mapped to attribute names."""
    def decode(raw, it: Items) -> Decoded:
        for short, full in mapping.items():
            if short in it.kw:
                it.kw[full] = it.kw.pop(short)
        return decode_default(raw, it)
    return decode


def decode_slice(raw, it: Items) -> Decoded:
    if it.brackets:
        spec = _bracket(it.brackets[0])
        if not all(isinstance(s, tuple) and len(s) == 4 and s[0] == "slice" and all(
                isinstance(n, int) and not isinstance(n, bool) for n in s[1:]) for s in spec):
            raise DecodeError("expected slice bounds like [0:4, 1:5:2] (start:limit or "
                              "start:limit:stride per dim)", raw.tok)
        it.kw["start_indices"] = tuple(s[1] for s in spec)
        it.kw["limit_indices"] = tuple(s[2] for s in spec)
        it.kw["strides"] = tuple(s[3] for s in spec)
    return decode_default(raw, it)


def decode_dot_general(raw, it: Items) -> Decoded:
    dims = {}
    for key, side in (("batching_dims", "batching"), ("contracting_dims", "contracting")):
        if key in it.kw:
            value = it.kw.pop(key)
            if not (isinstance(value, tuple) and len(value) == 2
                    and all(isinstance(v, tuple) for v in value)):
                raise DecodeError(f"expected '{key} = [..] x [..]' (lists of integers)", raw.tok)
            lhs, rhs = value
            dims[f"lhs_{side}_dimensions"] = tuple(lhs)
            dims[f"rhs_{side}_dimensions"] = tuple(rhs)
    for k in ("lhs_batching_dimensions", "rhs_batching_dimensions", "lhs_contracting_dimensions",
              "rhs_contracting_dimensions"):
        dims.setdefault(k, ())
    it.kw["dot_dimension_numbers"] = dims
    if "precision" in it.kw:
        it.kw["precision_config"] = it.kw.pop("precision")
    return decode_default(raw, it)


def decode_reduce(raw, it: Items) -> Decoded:
    inputs, inits = [], []
    for g in it.groups:
        vals = [x[1] for x in g if x[0] == "value"]
        if len(vals) != 2:
            raise DecodeError("expected '(%input init: %init)'", raw.tok)
        inputs.append(vals[0])
        inits.append(vals[1])
    if "across" in it.words:
        it.words.remove("across")
    dims = it.kw.pop("dimensions", None)
    if not isinstance(dims, tuple):
        raise DecodeError("expected 'across dimensions = [...]' (a list of integers)", raw.tok)
    n = len(inputs)
    operand_types, results = _types(raw, 2 * n, n)
    attrs = {"dimensions": tuple(dims)}
    for d in it.dicts:
        attrs.update(d)
    if "applies" in it.words:
        idx = it.words.index("applies")
        if idx + 1 >= len(it.words):
            raise DecodeError("expected an op name after 'applies'", raw.tok)
        body_op = it.words[idx + 1]
        if not all(isinstance(t, TensorType) for t in operand_types[:n]):
            raise DecodeError("reduce inputs must be tensors", raw.tok)
        region = _applies_region(raw, body_op, [t.elem for t in operand_types[:n]])
        regions = [(region, None)]
    else:
        tails = [t for t in raw.tails if t[0] == "reducer"]
        if not tails:
            raise DecodeError("expected 'applies OP' or a 'reducer' region", raw.tok)
        _, groups, region = tails[0]
        args = [g[0] for g in groups] + [g[1] for g in groups]
        regions = [_region_with_args(region, args)]
    return Decoded(raw.name, inputs + inits, attrs, results, regions)


def _applies_region(raw, op_name, elems):
    """`applies stablehlo.add` is shorthand for a region `^bb0(%a, %b): add; return`."""
    from lark import Token

    from lowering.frontend.raw import RawOp, RawRegion
    from lowering.ir.core import TensorType as T
    n = len(elems)
    tok = raw.tok
    lhs = [Token("VALUE_ID", f"%__acc{i}") for i in range(n)]
    rhs = [Token("VALUE_ID", f"%__x{i}") for i in range(n)]
    for t in lhs + rhs:
        t.line, t.column = tok.line, tok.column
    scalar = [T((), e) for e in elems]
    body = RawOp("custom", op_name, tok, results=[("%__r", 1)],
                 items=[("value", lhs[0]), ("comma",), ("value", rhs[0])], sig=[scalar[0]])
    ret = RawOp("custom", "stablehlo.return", tok, items=[("value", Token("VALUE_ID", "%__r"))],
                sig=[scalar[0]])
    args = [(str(t), scalar[i % n], t) for i, t in enumerate(lhs + rhs)]
    return RawRegion([(None, args, [body, ret])])


def decode_call(raw, it: Items) -> Decoded:
    if not it.symbols:
        raise DecodeError("expected '@callee(...)'", raw.tok)
    operands = it.group_values()
    _, results = _types(raw, len(operands), 1)
    if len(raw.sig) == 1 and not isinstance(raw.sig[0], FunctionType):
        results = [raw.sig[0]]
    attrs = {"callee": it.symbols[0]}
    for d in it.dicts:
        attrs.update(d)
    return Decoded(raw.name, operands, attrs, results)


def decode_custom_call(raw, it: Items) -> Decoded:
    if not it.symbols:
        raise DecodeError("expected '@target(...)'", raw.tok)
    operands = it.group_values()
    _, results = _types(raw, len(operands), 1)
    attrs = {"call_target_name": it.symbols[0].name}
    attrs.update(it.kw)
    for d in it.dicts:
        attrs.update(d)
    return Decoded(raw.name, operands, attrs, results)


def decode_while(raw, it: Items) -> Decoded:
    names, inits = [], []
    for g in it.groups:
        for part in _split(g):
            vals = [x[1] for x in part if x[0] == "value"]
            if len(vals) == 2:
                names.append(vals[0])
                inits.append(vals[1])
    types = list(raw.sig)
    if len(types) != len(inits):
        raise DecodeError(f"{len(inits)} loop values but {len(types)} types", raw.tok)
    regions = []
    for kw in ("cond", "do"):
        found = [t for t in raw.tails if t[0] == kw]
        if not found:
            raise DecodeError(f"expected a '{kw}' region", raw.tok)
        regions.append(_region_with_args(found[0][2], [(str(n), t, n) for n, t in zip(names, types)]))
    attrs = {}
    for d in it.dicts:
        attrs.update(d)
    return Decoded(raw.name, inits, attrs, types, regions)


def decode_alloc(raw, it: Items) -> Decoded:
    """`alloc(%d0, %d1) {attrs} : memref<?x?xf32>`: operands are the dynamic dims."""
    attrs = {}
    for d in it.dicts:
        attrs.update(d)
    if len(raw.sig) != 1:
        raise DecodeError("expected ': memref<...>'", raw.tok)
    return Decoded(raw.name, it.group_values(), attrs, [raw.sig[0]])


def decode_dealloc(raw, it: Items) -> Decoded:
    return Decoded(raw.name, it.values, {}, [])


def decode_dim(raw, it: Items) -> Decoded:
    """`dim %m, %c0 : memref<...>`: the result is an index."""
    from lowering.ir.core import INDEX
    return Decoded(raw.name, it.values, {}, [INDEX])


def decode_get_tuple_element(raw, it: Items) -> Decoded:
    """`get_tuple_element %t[1] : (tuple<...>) -> T`."""
    if not it.brackets or len(it.brackets[0]) != 1:
        raise DecodeError("expected '%tuple[index]'", raw.tok)
    _, results = _types(raw, len(it.values), 1)
    return Decoded(raw.name, it.values, {"index": _bracket(it.brackets[0])[0]}, results)


# ----------------------------------------------------------------------------- forms of their own


def decode_reduce_precision(raw, it):
    """Pretty form `reduce_precision %x, format = e5m10 : tensor<...>`."""
    fmt = it.kw.pop("format", None)
    if fmt is not None:
        m = re.fullmatch(r"e(\d+)m(\d+)", str(fmt))
        if m is None:
            raise DecodeError(f"bad reduce_precision format '{fmt}' (expected eXmY)", raw.tok)
        it.kw["exponent_bits"], it.kw["mantissa_bits"] = int(m.group(1)), int(m.group(2))
    return decode_default(raw, it)


def decode_top_k(raw, it):
    """`chlo.top_k(%x, k = 2) : tensor<3x5xf32> -> (tensor<3x2xf32>, tensor<3x2xi32>)`."""
    operands, attrs = list(it.values), dict(it.kw)
    for g in it.groups:
        for part in _split(g):
            if len(part) == 3 and part[0][0] == "word" and part[1][0] == "eq" \
                    and part[2][0] == "attr":
                attrs[str(part[0][1])] = part[2][1]
            elif len(part) == 1 and part[0][0] == "value":
                operands.append(part[0][1])
            elif part:
                raise DecodeError("expected '(%operand, k = N)'", raw.tok)
    for d in it.dicts:
        attrs.update(d)
    _, results = _types(raw, len(operands), 2)
    return Decoded(raw.name, operands, attrs, results)


def decode_convolution(raw, it):
    """`stablehlo.convolution(%lhs, %rhs) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f],
    window = {stride = [..], pad = [[..]], lhs_dilate = [..], rhs_dilate = [..],
    reverse = [..]} {attrs} : (lhs, rhs) -> out`, to the generic form's attributes."""

    def labels(items):
        out = []
        for x in items:
            if x[0] == "word":
                out.append(str(x[1]))
            elif x[0] == "attr":
                out.append(str(x[1]))
            elif x[0] != "comma":
                raise DecodeError("bad convolution dimension label", raw.tok)
        return "[" + ", ".join(out) + "]"

    operands, attrs = [], {}
    items = list(raw.items)
    i = 0
    while i < len(items):
        x = items[i]
        if x[0] == "paren":
            operands += [v[1] for v in x[1] if v[0] == "value"]
        elif x[0] == "word" and str(x[1]) == "dim_numbers" and i + 1 < len(items) \
                and items[i + 1][0] == "eq":
            parts = items[i + 2:i + 7]
            kinds = [p[0] for p in parts]
            if kinds != ["bracket", "word", "bracket", "arrow", "bracket"] or str(parts[1][1]) != "x":
                raise DecodeError("expected 'dim_numbers = [..]x[..]->[..]'", raw.tok)
            spec = f"{labels(parts[0][1])}x{labels(parts[2][1])}->{labels(parts[4][1])}"
            attrs["dimension_numbers"] = OpaqueAttr(f"#stablehlo.conv<{spec}>")
            i += 7
            continue
        elif x[0] == "word" and str(x[1]) == "window" and i + 2 < len(items) \
                and items[i + 1][0] == "eq" and items[i + 2][0] == "dict":
            win = items[i + 2][1]
            names = {"stride": "window_strides", "lhs_dilate": "lhs_dilation",
                     "rhs_dilate": "rhs_dilation", "reverse": "window_reversal"}
            for key, value in win.items():
                try:
                    if key == "pad":
                        arr = np.array([[int(v) for v in pair] for pair in value], np.int64)
                        attrs["padding"] = DenseAttr(arr.reshape(len(value), 2),
                                                     TensorType((len(value), 2), "i64"))
                    elif key in names:
                        attrs[names[key]] = tuple(bool(v) if key == "reverse" else int(v)
                                                  for v in value)
                    else:
                        raise DecodeError(f"unknown window key '{key}'", raw.tok)
                except (TypeError, ValueError, OverflowError):
                    raise DecodeError(f"malformed window '{key}' in convolution", raw.tok) from None
            i += 3
            continue
        elif x[0] == "dict":
            attrs.update(x[1])
        elif x[0] == "value":
            operands.append(x[1])
        elif x[0] != "comma":
            raise DecodeError("unexpected item in convolution's pretty form", raw.tok)
        i += 1
    _, results = _types(raw, len(operands), 1)
    return Decoded(raw.name, operands, attrs, results)


decode_convolution.reads_raw_items = True  # it reads `dim_numbers = [..]x[..]->[..]` itself


DECODERS = {
    "get_tuple_element": decode_get_tuple_element,
    "alloc": decode_alloc,
    "dealloc": decode_dealloc,
    "dim": decode_dim,
    "constant": decode_constant,
    "compare": decode_compare,
    "select": decode_select,
    "broadcast_in_dim": _renamed({"dims": "broadcast_dimensions"}),
    "dynamic_broadcast_in_dim": _renamed({"dims": "broadcast_dimensions"}),
    "transpose": _renamed({"dims": "permutation"}),
    "reverse": _renamed({"dims": "dimensions"}),
    "concatenate": _renamed({"dim": "dimension"}),
    "iota": _renamed({"dim": "iota_dimension"}),
    "dynamic_iota": _renamed({"dim": "iota_dimension"}),
    "get_dimension_size": _renamed({"dim": "dimension"}),
    "set_dimension_size": _renamed({"dim": "dimension"}),
    "pad": _renamed({"low": "edge_padding_low", "high": "edge_padding_high",
                     "interior": "interior_padding"}),
    "slice": decode_slice,
    "dynamic_slice": _renamed({"sizes": "slice_sizes"}),
    "dot_general": decode_dot_general,
    "dot": _renamed({"precision": "precision_config"}),
    "reduce": decode_reduce,
    "call": decode_call,
    "custom_call": decode_custom_call,
    "while": decode_while,
    "reduce_precision": decode_reduce_precision,
    "top_k": decode_top_k,
    "convolution": decode_convolution,
    "cmpi": decode_arith_cmp,
    "cmpf": decode_arith_cmp,
    "extract": decode_tensor_extract,
    "cstr_broadcastable": decode_witness,
}


def decode(raw) -> Decoded:
    decoder = DECODERS.get(short_name(raw.name), decode_default)
    try:
        it = Items(raw)
    except DecodeError:
        if not getattr(decoder, "reads_raw_items", False):
            raise
        it = None  # a form only the op's own decoder reads (convolution's dim_numbers)
    return decoder(raw, it)
