"""Functions that differ only in integer constants compiled once (before the module is cut
into partitions): LLVM's optimisation and code generation cost is per function, and a model
repeats its kernels with other channel counts. torchvision's DenseNet-121 lowers to 141
distinct kernels, 40 once their integer constants are set aside (each dense layer's 1x1
convolution, batch norm and concatenation again with 32 more input channels).

- Identical functions (up to their own name and the names of functions already merged): every
  reference goes to the first, the others are dropped. Repeated until none is left, so that
  kernels whose matmul epilogues were the only difference merge in the next round.
- Functions whose text differs only in integer operands where LLVM takes a run-time value (of
  arithmetic, comparisons, selects, element pointers, stores, phis, calls of our functions):
  the first becomes `NAME.merged`, taking each differing constant as a trailing i64 (or iN)
  parameter, and every member a thunk that calls it with its own constants (a call per kernel
  launch; the thunk's callers inline it).
"""
from __future__ import annotations

import re

from llvmlite import ir

INTERNAL = ("internal", "private")
# opcodes whose integer operands may be run-time values (not: shufflevector masks, switch
# cases, alloca counts, struct indices, intrinsics' immediate arguments)
VARIABLE_OPERANDS = {"add", "sub", "mul", "sdiv", "udiv", "srem", "urem", "shl", "lshr",
                     "ashr", "and", "or", "xor", "icmp", "select", "store", "trunc", "zext",
                     "sext"}
# Constants below this stay constants (members that differ in one are not merged): small
# trip counts are what LLVM unrolls whole and vectorises without a remainder (DenseNet-121's
# 16x16 ... 2x2 maps as parameters made it 15% slower)
MIN_PARAMETER = 64
# below this many instructions a function costs LLVM too little to be worth a thunk
MIN_INSTRUCTIONS = 40

_REF = re.compile(r'@"([^"]+)"|@([-\w.$]+)')
_LARGE = re.compile(r"\b(?:6[4-9]|[7-9]\d|[1-9]\d{2,})\b")  # MIN_PARAMETER and more
_MD = re.compile(r"!(\d+)\b")


def merge_functions(mod: ir.Module) -> dict:
    """Merge the module's internal functions as the module docstring says, in place. Returns
    {member name: name of the function that now holds its code}."""
    functions = [f for f in mod.globals.values()
                 if isinstance(f, ir.Function) and f.blocks and f.linkage in INTERNAL]
    in_globals = {m.group(1) or m.group(2) for g in mod.globals.values()
                  if isinstance(g, ir.GlobalVariable) and "ptr" in str(g.value_type)
                  for m in _REF.finditer(str(g))}
    candidates = [f for f in functions if f.name not in in_globals
                  and sum(len(b.instructions) for b in f.blocks) >= MIN_INSTRUCTIONS]
    metadata = {md.name: md for md in mod.metadata}
    texts = {f.name: _canonical_metadata(str(f), metadata) for f in candidates}
    same: dict = {}
    while True:  # identical functions, until a round finds none
        first, found = {}, False
        for f in candidates:
            if f.name in same:
                continue
            original = first.setdefault(_key(f, texts[f.name], same), f)
            if original is not f:
                same[f.name], found = original.name, True
        if not found:
            break
    merged = {}
    if same:
        _redirect(mod, functions, {n: mod.globals[o] for n, o in same.items()})
        for name in same:
            del mod.globals[name]
    groups: dict = {}
    for f in candidates:
        if f.name not in same:
            groups.setdefault(_LARGE.sub("N", _key(f, texts[f.name], same)), []).append(f)
    for members in groups.values():
        if len(members) > 1:
            merged.update(_parameterise(mod, members, metadata))
    return {**same, **merged}


def _key(f: ir.Function, text: str, same: dict) -> str:
    """The function's text with its own name set aside and merged callees named as their
    original."""
    def name(m):
        n = m.group(1) or m.group(2)
        return "@SELF" if n == f.name else f'@"{same.get(n, n)}"'
    return _REF.sub(name, text)


def _canonical_metadata(text: str, metadata: dict) -> str:
    """Metadata references (loop hints) as what the node says rather than its number."""
    def says(m):
        md = metadata.get(m.group(1))
        return "!" + _describe(md, set()) if md is not None else m.group(0)
    return _MD.sub(says, text)


def _describe(md, seen: set) -> str:
    if id(md) in seen:
        return "self"
    seen = seen | {id(md)}
    return "{" + ",".join(_describe(o, seen) if isinstance(o, ir.MDValue) else str(o)
                          for o in md.operands) + "}"


def _redirect(mod: ir.Module, functions: list, to: dict) -> None:
    """Every instruction operand that is a function in `to` becomes its replacement."""
    for f in mod.globals.values():
        if not (isinstance(f, ir.Function) and f.blocks):
            continue
        for block in f.blocks:
            for ins in block.instructions:
                if any(type(o) is ir.Function and o.name in to for o in ins.operands):
                    _set_operands(ins, [to[o.name] if type(o) is ir.Function and o.name in to
                                        else o for o in ins.operands])


def _set_operands(ins, ops: list) -> None:
    ins.operands = ops
    if isinstance(ins, ir.GEPInstr):
        ins.pointer, ins.indices = ops[0], ops[1:]
    ins._clear_string_cache()


def _variable(ins, k: int) -> bool:
    """May operand k of `ins` be a run-time value?"""
    if ins.opname in VARIABLE_OPERANDS:
        return True
    if isinstance(ins, ir.GEPInstr):
        return k > 0 and not isinstance(ins.source_etype, (ir.LiteralStructType,
                                                            ir.IdentifiedStructType))
    if isinstance(ins, ir.CallInstr):
        callee = ins.operands[0]
        return k > 0 and isinstance(callee, ir.Function) and not callee.name.startswith("llvm.")
    return False


def _parameterise(mod: ir.Module, members: list, metadata: dict) -> dict:
    """Members of one text up to its numbers: {member: its merged function}. Each group
    holds the members whose every instruction prints as the first one's once the varying
    integer operands are set to the first one's values."""
    code = {f.name: [ins for b in f.blocks for ins in b.instructions] for f in members}
    out, left = {}, list(members)
    while len(left) > 1:
        first, rest = left[0], []
        group, varying = [(first, {})], set()
        for f in left[1:]:
            diff = _difference(first, code[first.name], f, code[f.name], metadata)
            if diff is None:
                rest.append(f)
            else:
                group.append((f, diff))
                varying |= set(diff)
        if len(group) > 1 and varying:
            out.update(_merge(mod, group, sorted(varying, key=str), code[first.name]))
        left = rest
    return out


def _difference(first, code0: list, f, code: list, metadata: dict):
    """{(instruction index, operand index or ("phi", k)): f's value} where f's code has
    another integer than first's code in a place LLVM takes a run-time value, and is
    otherwise the same; None if f differs in anything else."""
    if len(code) != len(code0) or _prototype(f) != _prototype(first):
        return None
    def text(ins):
        s = str(ins)
        return _canonical_metadata(s, metadata) if "!" in s else s
    diff = {}
    for i, (a, b) in enumerate(zip(code0, code)):
        if str(a) == str(b) or text(a) == text(b):
            continue
        if type(a) is not type(b):
            return None
        if isinstance(a, ir.PhiInstr):
            places = [("phi", k) for k, ((x, _), (y, _)) in enumerate(zip(a.incomings, b.incomings))
                      if _ints_differ(x, y)]
            if len(a.incomings) != len(b.incomings) or not places or not all(
                    _may_vary(a.incomings[k][0], b.incomings[k][0]) for _, k in places):
                return None
            saved = list(b.incomings)
            for _, k in places:
                b.incomings[k] = (a.incomings[k][0], b.incomings[k][1])
            b._clear_string_cache()
            same = text(a) == text(b)
            b.incomings[:] = saved
            b._clear_string_cache()
            values = {(i, p): saved[p[1]][0] for p in places}
        else:
            places = [k for k, (x, y) in enumerate(zip(a.operands, b.operands))
                      if _ints_differ(x, y)]
            if len(a.operands) != len(b.operands) or not places \
                    or not all(_variable(a, k) and _may_vary(a.operands[k], b.operands[k])
                               for k in places):
                return None
            saved = list(b.operands)
            _set_operands(b, [a.operands[k] if k in places else o for k, o in enumerate(saved)])
            same = text(a) == text(b)
            _set_operands(b, saved)
            values = {(i, k): saved[k] for k in places}
        if not same:
            return None
        diff.update(values)
    return diff


def _prototype(f: ir.Function) -> str:
    return str(f).split("\n", 1)[0].replace(f.get_reference(), "@SELF")


def _ints_differ(x, y) -> bool:
    return (isinstance(x, ir.Constant) and isinstance(y, ir.Constant)
            and isinstance(x.type, ir.IntType) and x.type == y.type
            and isinstance(x.constant, int) and isinstance(y.constant, int)
            and x.constant != y.constant)


def _may_vary(x, y) -> bool:
    """Both large enough that LLVM makes the same loop of either."""
    return min(abs(x.constant), abs(y.constant)) >= MIN_PARAMETER


def _merge(mod: ir.Module, group: list, params: list, code0: list) -> dict:
    """The first member's code as NAME.merged with a parameter per varying operand, and each
    member a thunk calling it with its own values (the first's where it has none)."""
    first = group[0][0]
    types = [_operand(code0, p).type for p in params]
    ftype = ir.FunctionType(first.ftype.return_type, list(first.ftype.args) + types)
    merged = ir.Function(mod, ftype, name=first.name + ".merged")
    merged.linkage = "internal"
    merged.calling_convention = first.calling_convention
    for attr in first.attributes:
        merged.attributes.add(attr)
    extra = merged.args[len(first.args):]
    for n, a in enumerate(extra):
        a.name = f"merged.k{n}"
    merged.args = tuple(first.args) + tuple(extra)  # the code still names the first's arguments
    constants = [[diff.get(p, _operand(code0, p)) for p in params] for _, diff in group]
    merged.blocks = first.blocks
    for (i, k), arg in zip(params, extra):
        ins = code0[i]
        if isinstance(k, tuple):
            ins.incomings[k[1]] = (arg, ins.incomings[k[1]][1])
            ins._clear_string_cache()
        else:
            _set_operands(ins, [arg if j == k else o for j, o in enumerate(ins.operands)])
    out = {}
    for (f, _), values in zip(group, constants):
        f.blocks = []
        f.attributes.discard("noinline")
        b = ir.IRBuilder(f.append_basic_block("thunk"))
        result = b.call(merged, list(f.args) + values, tail=True)
        b.ret_void() if isinstance(ftype.return_type, ir.VoidType) else b.ret(result)
        out[f.name] = merged.name
    return out


def _operand(code: list, pos):
    i, k = pos
    return code[i].incomings[k[1]][0] if isinstance(k, tuple) else code[i].operands[k]
