"""The compiled grammar, and what a syntax error says was expected: in the language's words
rather than the grammar's token names (`expected a type`, not `expected one of: bang_id,
identifier, type`).

`WORDS` is the one table from the grammar's named terminals to words; anonymous
terminals (the quoted strings of grammar.lark: `'->'`, `'{'`, `module`) print as
their own text. tests/frontend/test_syntax_errors.py walks every terminal the
parser can expect and checks that it has a word here, so a new terminal cannot
reach an error message under its internal name.
"""
from __future__ import annotations

import functools
import os

import lark

from lowering.cache import cache_dir

GRAMMAR = os.path.join(os.path.dirname(__file__), "grammar.lark")


@functools.lru_cache(maxsize=2)
def grammar(transformer=None) -> lark.Lark:
    """grammar.lark as an LALR parser with a contextual lexer; with `transformer` (one
    stateless instance: the parser is kept per instance), the parser calls it as each rule
    reduces and builds no tree. Building its tables takes
    ~0.2 s, every process (each `aotc compile`): lark keeps them in the compiler's cache,
    keyed by the grammar's and lark's hash, and rebuilds them if the file is missing, stale
    or unreadable (two compiles writing it at once)."""
    with open(GRAMMAR) as f:
        text = f.read()
    try:
        cache = os.path.join(cache_dir(), "grammar.lark-tables")
    except OSError:  # no writable cache: build the tables every time
        cache = False
    return lark.Lark(text, parser="lalr", lexer="contextual", propagate_positions=False,
                     maybe_placeholders=True, cache=cache, transformer=transformer)


# Named terminals of grammar.lark (and lark's end-of-input marker).
WORDS = {
    "$END": "end of input",
    "VALUE_ID": "an SSA value like %0",
    "SYMBOL": "a symbol like @main",
    "BLOCK_ID": "a block label like ^bb0",
    "BANG_ID": "a dialect type like !stablehlo.token",
    "HASH_ATTR": "an attribute like #stablehlo<...>",
    "HASH_ID": "an attribute alias like #map",
    "TYPE": "a type like tensor<4xf32>",
    "ANGLE_ATTR": "an attribute like dense<...>",
    "BARE_ID": "a name",
    "STRING": "a string",
    "FLOAT": "a number",
    "INT": "an integer",
    "FUNC_KW": "'func.func'",
    "TAIL_KW": "a region keyword (cond, do, body, then, else)",
    "GRAPH_KW": "'tf_executor.graph'",
    "ISLAND_KW": "'tf_executor.island'",
    "V1_KW": "a TF1 control flow node (tf_executor.Switch, Merge, ...)",
    "ASSUMING_KW": "'shape.assuming'",
    "COMMENT": "a comment",
    "WS": "whitespace",
}

# Sets of terminals that together mean one thing: when all of `needs` are expected, the
# phrase replaces every terminal in `covers`. Checked in order; the first groups are wider.
GROUPS = [
    ("an attribute value", {"INT", "FLOAT", "STRING", "ANGLE_ATTR", "HASH_ATTR", "SYMBOL", "TYPE"},
     {"INT", "FLOAT", "STRING", "ANGLE_ATTR", "HASH_ATTR", "HASH_ID", "SYMBOL", "TYPE", "BANG_ID",
      "BARE_ID", "LPAR", "LSQB", "LBRACE", "TRUE", "FALSE", "UNIT", "LOC"}),
    ("an alias like #map = ... or !t = ...", {"BANG_ID", "HASH_ID", "FUNC_KW", "MODULE_KW"},
     {"BANG_ID", "HASH_ID"}),
    ("an operation", {"VALUE_ID", "STRING", "BARE_ID", "FUNC_KW"},
     {"VALUE_ID", "STRING", "BARE_ID", "FUNC_KW", "MODULE_KW", "GRAPH_KW", "ISLAND_KW",
      "V1_KW", "ASSUMING_KW"}),
    ("an operation", {"STRING", "BARE_ID", "FUNC_KW"},
     {"STRING", "BARE_ID", "FUNC_KW", "MODULE_KW", "GRAPH_KW", "ISLAND_KW",
      "V1_KW", "ASSUMING_KW"}),
    ("a type", {"TYPE", "BANG_ID", "BARE_ID"}, {"TYPE", "BANG_ID", "BARE_ID", "LPAR"}),
    ("a location item", {"LESSTHAN", "HASH_ID", "INT"},
     {"LESSTHAN", "HASH_ID", "INT", "STRING", "BARE_ID", "COLON", "COMMA", "LPAR", "LSQB"}),
]

_IGNORED = {"WS", "COMMENT"}


@functools.lru_cache(maxsize=1)
def _literals() -> dict:
    """Anonymous terminal name -> its quoted text, from the grammar as lark compiled it."""
    return {t.name: f"'{t.pattern.value}'" for t in grammar().terminals
            if type(t.pattern).__name__ == "PatternStr"}


def describe(name: str) -> str:
    """Words for one terminal name; an unknown one stays visible (the test catches it)."""
    if name in WORDS:
        return WORDS[name]
    return _literals().get(name, name)


def describe_expected(names) -> str:
    """`expected ...` for a set of terminal names: groups first, then single words,
    `a, b or c`; long lists are cut."""
    names = set(names) - _IGNORED
    phrases = []
    for phrase, needs, covers in GROUPS:
        if needs <= names:
            phrases.append(phrase)
            names -= covers
    words = sorted({describe(n) for n in names}, key=lambda w: (not w.startswith("'"), w))
    phrases = list(dict.fromkeys(phrases)) + words
    if not phrases:
        return "something else"
    if len(phrases) > 6:
        phrases = phrases[:5] + ["..."]
        return ", ".join(phrases)
    return phrases[0] if len(phrases) == 1 else ", ".join(phrases[:-1]) + " or " + phrases[-1]


def show_token(text: str, limit: int = 40) -> str:
    """A found token for a message, quoted and cut when long (a constant's hex blob)."""
    text = text if len(text) <= limit else text[:limit - 3] + "..."
    return "'" + "".join(c if c.isprintable() else "?" for c in text) + "'"


def show_char(ch: str) -> str:
    return f"'{ch}'" if ch.isprintable() and not ch.isspace() or ch == " " else f"U+{ord(ch):04X}"
