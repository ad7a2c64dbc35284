"""torch.export's guards: the conditions on the input sizes under which the exported program is
the model. A Python branch taken on a size (Swin's `if window >= padded_height: shift = 0`),
or a size assumed not 1, is traced once and recorded as a guard, a Python expression over
`L['x'].size()[d]` in the archive's `guards_code`, when no range of one dim can say it. Each
guard becomes a check on every call: a size outside them is refused by name, never run
through the branch export took for other sizes (a wrong answer, not an error)."""
from __future__ import annotations

import ast

from lowering.ir.core import Value
from lowering.torch.emitter import TorchEmitter

_ARITHMETIC = {ast.Add: "add", ast.Sub: "subtract", ast.Mult: "multiply"}
_FOLD = {ast.Add: lambda a, b: a + b, ast.Sub: lambda a, b: a - b,
         ast.Mult: lambda a, b: a * b, ast.FloorDiv: lambda a, b: a // b,
         ast.Mod: lambda a, b: a % b}
_COMPARE = {ast.Eq: "EQ", ast.NotEq: "NE", ast.Lt: "LT", ast.LtE: "LE", ast.Gt: "GT",
            ast.GtE: "GE"}
_FOLD_COMPARE = {"EQ": int.__eq__, "NE": int.__ne__, "LT": int.__lt__, "LE": int.__le__,
                 "GT": int.__gt__, "GE": int.__ge__}
_CALLS = {"torch.sym_max": ("maximum", max), "torch.sym_min": ("minimum", min),
          "max": ("maximum", max), "min": ("minimum", min)}  # sympy's Max/Min print as these
_SHOWN = 240  # characters of a guard's text in its error message
I64 = "i64"  # guards multiply sizes together (96 * b * h * w): past i32 at large inputs


class GuardError(Exception):
    """A guard of a form this module does not translate."""


class _Term:
    """A guard's sub-expression: a Python int (folded) or an i64/i1 value; whether it is
    known non-negative (sizes are), so // and % need no floor correction; and `ok`, an i1
    that is false where Python would raise evaluating it (a run-time zero divisor), or None
    where it never raises. A guard that raises refuses the call, as torch's own would."""
    __slots__ = ("value", "nonneg", "ok")

    def __init__(self, value, nonneg: bool, ok=None):
        self.value, self.nonneg, self.ok = value, nonneg, ok


class Guards:
    """Translates guards into checks in `e`'s block; shared sub-expressions are built once."""

    def __init__(self, e: TorchEmitter, inputs: dict):
        self.e, self.inputs = e, inputs  # input name -> (value, label)
        self.memo: dict = {}

    def check(self, text: str) -> None:
        try:
            self.text = text
            tree = ast.parse(text, mode="eval").body
            term = self.term(tree)
        except (SyntaxError, GuardError) as err:
            raise self.e.error(f"torch.export recorded a guard on the input sizes that cannot "
                               f"be checked at run time ({err}): {shorten(text)}") from None
        if _folded(term) and not term.value:
            raise self.e.error(f"torch.export recorded a guard that is always false: "
                               f"{shorten(text)}")
        holds = self.both(term.ok, None if _folded(term) else term.value)
        if holds is None:
            return
        refs = dict.fromkeys(ref for node in ast.walk(tree) if (ref := _size_ref(node)))
        values, named = [], []
        for name, d in sorted(refs):
            value, label = self.inputs[name]
            size = value.type.shape[d]
            named.append(f"input '{label}' dim {d} is {size if size is not None else '{%d}' % len(values)}")
            if size is None:
                values.append(self.e.dims(value)[d])
        self.e.assert_that(holds, values,
                           f"{', '.join(named)}: outside the sizes the program was "
                           f"exported for (torch.export assumed "
                           f"{shorten(text).replace('{', '{{').replace('}', '}}')}, a "
                           "branch on a size or a torch._check); export it at a size of this kind too, "
                           "or with a Dim that excludes it")

    def term(self, node: ast.AST) -> _Term:
        """A sub-expression's term, keyed by its text: guards repeat theirs (Swin's 640
        guards are 410K nodes, 1.7K distinct), and a text is compared in C."""
        key = self.text[node.col_offset:node.end_col_offset]
        if key not in self.memo:
            self.memo[key] = self.build(node)
        return self.memo[key]

    def build(self, node: ast.AST) -> _Term:
        e = self.e
        if isinstance(node, ast.Constant) and type(node.value) in (int, bool):
            return _Term(node.value, node.value >= 0)
        ref = _size_ref(node)
        if ref:
            name, d = ref
            if name not in self.inputs:
                raise GuardError(f"it reads L['{name}'], not an input tensor of the program")
            value, _ = self.inputs[name]
            if d >= value.type.rank:
                raise GuardError(f"input '{name}' has no dim {d}")
            size = value.type.shape[d]
            if size is not None:
                return _Term(size, True)
            return _Term(e.convert(e.dims(value)[d], I64), True)
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
            return self.arith(ast.Sub(), _Term(0, True), self.term(node.operand))
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            t = self.term(node.operand)
            return _Term(not t.value if _folded(t) else e.v("not", [t.value]), True, t.ok)
        if isinstance(node, ast.BinOp) and type(node.op) in _FOLD:
            return self.arith(node.op, self.term(node.left), self.term(node.right))
        if isinstance(node, ast.BoolOp):
            return self.boolean(node)
        if isinstance(node, ast.Compare):
            return self.compare(node)
        if isinstance(node, ast.Call) and ast.unparse(node.func) in _CALLS and not node.keywords:
            hlo, fold = _CALLS[ast.unparse(node.func)]
            args = [self.term(a) for a in node.args]
            out = args[0]
            for t in args[1:]:
                ok = self.both(out.ok, t.ok)
                if _folded(out) and _folded(t):
                    out = _Term(fold(out.value, t.value), fold(out.value, t.value) >= 0, ok)
                else:
                    nonneg = (out.nonneg or t.nonneg) if hlo == "maximum" else (out.nonneg and t.nonneg)
                    out = _Term(e.v(hlo, [self.i64(out), self.i64(t)]), nonneg, ok)
            return out
        raise GuardError(f"'{ast.unparse(node)[:80]}' is not a size expression it knows")

    def i64(self, t: _Term) -> Value:
        return t.value if isinstance(t.value, Value) else self.e.const(int(t.value), I64, ())

    def both(self, *conditions):
        """The i1 `and` of the conditions that are not None (None: always true)."""
        out = None
        for c in conditions:
            if c is not None:
                out = c if out is None else self.e.v("and", [out, c])
        return out

    def reached(self, ok, reach):
        """`ok` of a sub-expression Python evaluates only where `reach` holds (and/or and
        comparison chains stop early): an error past the stop is not raised."""
        if ok is None or reach is None:
            return ok
        return self.e.v("or", [self.e.v("not", [reach]), ok])

    def arith(self, op: ast.operator, a: _Term, b: _Term) -> _Term:
        """Python's integer arithmetic: // and % round toward minus infinity (the IR's
        divide and remainder toward zero), so a possibly negative operand gets the floor
        correction. A run-time zero divisor makes the term not ok (Python raises there); the
        division itself reads it as 1, so the generated check never divides by zero."""
        e = self.e
        ok = self.both(a.ok, b.ok)
        if _folded(a) and _folded(b):
            if type(op) in (ast.FloorDiv, ast.Mod) and b.value == 0:
                raise GuardError("it divides by zero")
            v = _FOLD[type(op)](a.value, b.value)
            return _Term(v, v >= 0, ok)
        if type(op) in _ARITHMETIC:
            nonneg = a.nonneg and b.nonneg and not isinstance(op, ast.Sub)
            return _Term(e.v(_ARITHMETIC[type(op)], [self.i64(a), self.i64(b)]), nonneg, ok)
        x, y = self.i64(a), self.i64(b)
        if not _folded(b):
            zero = e.compare(y, e.const(0, I64, ()), "EQ")
            ok = self.both(ok, e.v("not", [zero]))
            y = e.select(zero, e.const(1, I64, ()), y)
        q, r = e.v("divide", [x, y]), e.v("remainder", [x, y])
        if a.nonneg and b.nonneg:
            return _Term(q if isinstance(op, ast.FloorDiv) else r, True, ok)
        zero = e.const(0, I64, ())
        signs_differ = e.v("xor", [e.compare(r, zero, "LT"), e.compare(y, zero, "LT")])
        fix = e.v("and", [e.compare(r, zero, "NE"), signs_differ])
        if isinstance(op, ast.FloorDiv):
            return _Term(e.select(fix, e.v("subtract", [q, e.const(1, I64, ())]), q), False, ok)
        return _Term(e.select(fix, e.v("add", [r, y]), r), b.nonneg, ok)

    def boolean(self, node: ast.BoolOp) -> _Term:
        is_and = isinstance(node.op, ast.And)
        out = ok = None  # the value so far; where every sub-expression evaluated is ok
        for sub in node.values:
            t = self.term(sub)
            reach = None if out is None else (out if is_and else self.e.v("not", [out]))
            ok = self.both(ok, self.reached(t.ok, reach))
            if _folded(t):
                if bool(t.value) != is_and:  # False in an and, True in an or: decided
                    return _Term(bool(t.value), True, ok)
                continue
            out = t.value if out is None else self.e.v("and" if is_and else "or", [out, t.value])
        return _Term(is_and if out is None else out, True, ok)

    def compare(self, node: ast.Compare) -> _Term:
        out, left = None, self.term(node.left)
        ok = left.ok
        for op, right_node in zip(node.ops, node.comparators):
            if type(op) not in _COMPARE:
                raise GuardError(f"it compares with '{type(op).__name__}'")
            right, direction = self.term(right_node), _COMPARE[type(op)]
            ok = self.both(ok, self.reached(right.ok, out))
            if _folded(left) and _folded(right):
                if not _FOLD_COMPARE[direction](int(left.value), int(right.value)):
                    return _Term(False, True, ok)
            else:
                c = self.e.compare(self.i64(left), self.i64(right), direction)
                out = c if out is None else self.e.v("and", [out, c])
            left = right
        return _Term(True if out is None else out, True, ok)


def _folded(t: _Term) -> bool:
    return not isinstance(t.value, Value)


def _size_ref(node: ast.AST):
    """(input name, dim) of `L['name'].size()[d]`, else None."""
    if not (isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant)
            and isinstance(node.slice.value, int) and isinstance(node.value, ast.Call)):
        return None
    call = node.value
    if call.args or call.keywords or not isinstance(call.func, ast.Attribute) \
            or call.func.attr != "size":
        return None
    base = call.func.value
    if (isinstance(base, ast.Subscript) and isinstance(base.value, ast.Name)
            and base.value.id == "L" and isinstance(base.slice, ast.Constant)
            and isinstance(base.slice.value, str)):
        return base.slice.value, node.slice.value
    return None


def shorten(text: str) -> str:
    return text if len(text) <= _SHOWN else text[:_SHOWN] + " ..."


def check_guards(e: TorchEmitter, guards: list, inputs: dict) -> None:
    """Every guard of the program as a check on every call, in `e`'s block."""
    translate = Guards(e, inputs)
    for text in dict.fromkeys(guards):
        translate.check(text)
