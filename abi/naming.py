"""Names of arguments and results in generated code: one set of rules for the C header's
named constants and the C++ class (`--cpp-class`).

A value's *label* is the program's name for it, taken from, in order:

1. its attributes: `jax.arg_info` / `jax.result_info` (JAX's pytree paths: `"x"`,
   `"params['w']"`, `"result['out']"`), `tf_saved_model.index_path`;
2. the function's `tf.entry_function = {inputs = "x,y", outputs = "out"}` (a TF tensor
   name's `:0` and a `serving_default_` prefix dropped);
3. the name the entry's metadata already has: an argument's SSA name (`%x`), except the
   positional `arg0`, `result0`.

A label becomes an identifier: JAX's root (`args`, `kwargs`, `result`) is dropped, every
run of characters other than letters and digits is one `_`, leading and trailing ones
dropped (`params['w']` -> `params_w`, `result['out']` -> `out`); a label whose identifier is
empty or only digits (JAX's placeholders `args[0]`, `result`, `result[1]`) is none. A
value's *stem* is `arg_<ident>` / `result_<ident>`, or the positional `arg<i>` /
`result<i>` without a label; stems of one entry never clash with each other, with
the positional ones, or with the C++ class's own members (a clash gets `_2`, `_3`, ...).
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from .signature import EntrySig, ValueSig

_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
_NOT_IDENT_CHAR = re.compile(r"[^A-Za-z0-9_]")
_POSITIONAL = re.compile(r"(arg|result)\d+\Z")
_JAX_PREFIX = re.compile(r"(args|kwargs|result)(?=\[|\Z)")
_TF_TENSOR = re.compile(r"^(serving_default_)?(.*?)(:\d+)?$")

# What a value's stem is followed by in the C++ class's members (accessor, element access,
# setters) and in the C header's macros: a stem is taken when any of these would clash.
CPP_MEMBERS = ("{}", "{}_data", "set_{}_data", "{}_shape", "set_{}_shape", "{}_count",
               "{}_size")
C_MACROS = ("{}_INDEX", "{}_NAME", "{}_DTYPE", "{}_RANK", "{}_DIMS", "{}_DIM")
# the C++ class's fixed members (abi/cpp.py), never a value's
CPP_RESERVED = frozenset({
    "Run", "error_msg", "arg_data", "result_data", "set_arg_data", "arg_shape", "result_shape",
    "set_arg_shape", "arg_rank", "result_rank", "LookupArgIndex", "LookupResultIndex",
    "ArgName", "ResultName", "kNumArgs", "kNumResults", "Fail"})


def is_ident(name: str) -> bool:
    return bool(_IDENT.match(name))


def check_ident(what: str, name: str) -> None:
    if not is_ident(name):
        raise ValueError(f"{what} {name!r} is not a C identifier")


def identifier(label: str, *, artifact: bool = False) -> str:
    """The one rule that makes C identifiers of names: every character other than a letter,
    a digit or `_` becomes `_`.

    A value's label (the default) then loses JAX's root, its runs of `_` become one and its
    leading and trailing ones go: `params['w']` -> `params_w`, `result['out']` -> `out`; ""
    when nothing of it is a name (empty, only digits, only JAX's placeholder root
    `args`/`kwargs`/`result`). An artifact's name (`artifact=True`, the prefix of every
    exported symbol) is kept whole, `m_` put before one that is empty or starts with a
    digit: `my-model.v2` -> `my_model_v2`, `3d` -> `m_3d`."""
    if artifact:
        name = _NOT_IDENT_CHAR.sub("_", label)
        return name if name and not name[0].isdigit() else "m_" + name
    label = _JAX_PREFIX.sub("", label, count=1)
    ident = re.sub(r"_+", "_", _NOT_IDENT_CHAR.sub("_", label)).strip("_")
    return "" if not ident or ident.replace("_", "").isdigit() else ident


def _attr_label(attrs: dict, key: str) -> str:
    attrs = attrs or {}
    if isinstance(attrs.get(key), str) and identifier(attrs[key]):
        return attrs[key]
    path = attrs.get("tf_saved_model.index_path")
    if isinstance(path, (list, tuple)) and path:
        return "_".join(str(p) for p in path)
    return ""


def _tf_names(text, n: int) -> list[str]:
    parts = [p.strip() for p in text.split(",")] if isinstance(text, str) and text else []
    if len(parts) != n:
        return [""] * n
    return [_TF_TENSOR.match(p).group(2) for p in parts]


def program_labels(module) -> dict[str, tuple[list[str], list[str]]]:
    """For each function of a parsed module (before any stage runs): its name -> the labels
    its attributes give its arguments and results ("" where none). Reads `op.attrs` only, so
    any op with `sym_name`, `function_type`, `arg_attrs`, `res_attrs` will do."""
    out = {}
    for op in getattr(module, "ops", []):
        attrs = getattr(op, "attrs", {})
        fn = attrs.get("function_type")
        if "sym_name" not in attrs or fn is None:
            continue
        n_in, n_out = len(fn.inputs), len(fn.results)
        tf = attrs.get("tf.entry_function") or {}
        tf = tf if isinstance(tf, dict) else {}
        tf_in, tf_out = _tf_names(tf.get("inputs"), n_in), _tf_names(tf.get("outputs"), n_out)
        arg_attrs = list(attrs.get("arg_attrs") or []) + [{}] * n_in
        res_attrs = list(attrs.get("res_attrs") or []) + [{}] * n_out
        args = [_attr_label(arg_attrs[i], "jax.arg_info") or tf_in[i] for i in range(n_in)]
        results = [_attr_label(res_attrs[i], "jax.result_info") or tf_out[i] for i in range(n_out)]
        out[attrs["sym_name"]] = (args, results)
    return out


@dataclass(frozen=True)
class ValueName:
    """How generated code names one argument or result."""

    kind: str  # "arg" or "result"
    index: int
    label: str  # the program's name for it ("" if none), as the C header's _NAME gives it
    stem: str  # arg_x / arg0: C macros SYM_<stem>_INDEX..., C++ members <stem>_data()...
    value: ValueSig

    @property
    def positional(self) -> str:
        return f"{self.kind}{self.index}"

    @property
    def display(self) -> str:
        """The label, else the metadata's name, else the positional name."""
        return self.label or self.value.name or self.positional


def _names_of(kind: str, values: list[ValueSig], labels: list[str], taken: set) -> list[ValueName]:
    out = []
    for i, (v, given) in enumerate(zip(values, labels)):
        label = given or ("" if _POSITIONAL.match(v.name or "") else v.name or "")
        ident = identifier(label)
        label = label if ident else ""
        stem = f"{kind}_{ident}" if ident else f"{kind}{i}"
        if ident:
            k = 1
            while any(m.format(stem) in taken for m in CPP_MEMBERS + C_MACROS):
                k += 1
                stem = f"{kind}_{ident}_{k}"
        taken.update(m.format(stem) for m in CPP_MEMBERS + C_MACROS)
        out.append(ValueName(kind, i, label, stem, v))
    return out


def entry_names(entry: EntrySig, labels: dict | None = None) -> tuple[list[ValueName], list[ValueName]]:
    """(arguments, results) of one entry as generated code names them; `labels` is
    `program_labels(module)` (ignored for a function whose counts do not match the entry's,
    as for a buffer-level program whose results were arguments)."""
    arg_labels, res_labels = (labels or {}).get(entry.name, ([], []))
    if len(arg_labels) != len(entry.args) or len(res_labels) != len(entry.results):
        arg_labels, res_labels = [], []
    arg_labels = list(arg_labels) or [""] * len(entry.args)
    res_labels = list(res_labels) or [""] * len(entry.results)
    # the positional stems and the class's members first: a label never takes them
    taken = set(CPP_RESERVED)
    for kind, n in (("arg", len(entry.args)), ("result", len(entry.results))):
        for i in range(n):
            taken.update(m.format(f"{kind}{i}") for m in CPP_MEMBERS + C_MACROS)
    return (_names_of("arg", entry.args, arg_labels, taken),
            _names_of("result", entry.results, res_labels, taken))


CPP_KEYWORDS = frozenset("""
alignas alignof and and_eq asm auto bitand bitor bool break case catch char char8_t char16_t
char32_t class compl concept const consteval constexpr constinit const_cast continue co_await
co_return co_yield decltype default delete do double dynamic_cast else enum explicit export
extern false float for friend goto if inline int long mutable namespace new noexcept not not_eq
nullptr operator or or_eq private protected public register reinterpret_cast requires return
short signed sizeof static static_assert static_cast struct switch template this thread_local
throw true try typedef typeid typename union unsigned using virtual void volatile wchar_t while
xor xor_eq""".split())


def parse_cpp_class(spec: str) -> tuple[list[str], str]:
    """`ns::inner::MyModel` -> (["ns", "inner"], "MyModel"); ValueError says what is wrong
    (not an identifier, a C++ keyword, or a name reserved to the implementation)."""
    parts = spec.split("::")
    for part in parts:
        if not is_ident(part) or part in CPP_KEYWORDS or "__" in part or \
                (part.startswith("_") and part[1:2].isupper()):
            raise ValueError(f"--cpp-class {spec!r}: {part!r} is not a usable C++ name "
                             "(want identifiers joined by '::', e.g. ns::MyModel)")
    return parts[:-1], parts[-1]


def entry_class_names(class_name: str, entries: list[EntrySig]) -> list[str]:
    """The C++ class of each entry: the main entry (the one named `main`, else the first)
    gets `class_name`, every other entry F `class_name_F`."""
    main = next((i for i, e in enumerate(entries) if e.name == "main"), 0)
    names, taken = [], set()
    for i, e in enumerate(entries):
        base = class_name if i == main else f"{class_name}_{identifier(e.name) or i}"
        name, k = base, 1
        while name in taken:
            k += 1
            name = f"{base}_{k}"
        taken.add(name)
        names.append(name)
    return names
