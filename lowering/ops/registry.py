"""The op registry: per HLO op, everything the stages need, filled by the op families.

Each family module (`lowering/ops/<family>.py`) calls `define` once per op with its rules;
a target that needs its own kernel (the CPU's packed matmul) adds an `override`, as JAX's
`register_lowering(..., platform=...)` does. Passes look rules up when they run (`rule`),
so this module imports only the IR, and only `lowering/ops/__init__.py` imports the
families. The op table (docs/ops.md) and the verifier's checks come from here too. (Pretty forms
are syntax: the frontend's decoders read them, lowering/frontend/pretty.py.)

An op's fields, by the stage that reads them:

    verify     kind, arity, attrs (required attributes), operand_types, infer (result types
               from operand types; None keeps the declared ones; raises ShapeError), check
               (extra verification, e.g. of regions or custom calls); whether it takes
               complex element types (`accept_complex`, called by lowering/ops/complex.py)
    lhlo       shape_rule (run-time result dims on the host), shape_operands (operands read
               on the host as sizes), scratch (a kernel's temporary buffers)
    fusion     epilogue (a kernel that runs its elementwise consumers on its finished tiles:
               a kOutput fusion; only where a target's kernel provides one)
    loops      scalar (elementwise semantics), complex_scalar (the same on complex operands:
               lowering/ops/complex.py), elemental (value at an index, fused), kernel
               (a kernel of its own), writes (its outputs among the buffers; default: the
               last one), parallel (its outer loop may be split over threads)
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from lowering.ir.core import Operation

# What an op is, which decides what it must provide (see `REQUIRED_BY_KIND`).
KINDS = {
    "elementwise": "scalar semantics per element; fuses into kLoop kernels",
    "elemental": "moves or makes data element by element; fuses into kLoop kernels",
    "kernel": "a kernel of its own (contractions, sort, windows...)",
    "reduction": "reduce: the root of a kInput fusion, emitted with it",
    "host": "runs on the host: reads or writes shapes, not data",
    "data_dependent": "result size decided by the data: an upper-bound buffer and a count",
    "control": "host control flow around kernels",
}
REQUIRED_BY_KIND = {
    "elementwise": ("infer", "shape_rule", "scalar", "elemental"),
    "elemental": ("infer", "shape_rule", "elemental"),
    "kernel": ("infer", "shape_rule", "kernel"),
    "reduction": ("infer", "shape_rule"),
    "host": ("infer",),
    "data_dependent": ("infer", "kernel"),
    "control": ("check",),
}


class ShapeError(Exception):
    """A result-type rule's complaint; the verifier adds the op's location."""


@dataclass
class OpDef:
    name: str  # canonical short name: "add", "dhlo.where"
    kind: str
    family: str  # the op table's group (docs/ops.md)
    arity: int | None = None
    attrs: tuple = ()
    operand_types: str | None = None  # "float", "int", "int_or_bool"; None: any
    infer: Callable | None = None
    check: Callable | None = None
    shape_rule: Callable | None = None
    shape_operands: tuple = ()
    scratch: Callable | None = None
    scalar: Callable | None = None
    complex_scalar: Callable | None = None  # scalar semantics where an operand is complex
    elemental: Callable | None = None
    kernel: Callable | None = None  # a reduction's: its schedule as a kInput fusion's root
    split_kernel: Callable | None = None  # a reduction's schedule when bufferize splits its few
    #   long rows into chunks (partials in a scratch): (emitter, fusion, builder, inputs, output,
    #   the partials' position, dims); None: loops' own (a thread per chunk)
    row_fusion: Callable | None = None  # a reduction's, the first of a row fusion (softmax): a
    #   target's schedule of that fusion, (builder, fusion block, inputs, output, dims); None: loops'
    writes: Callable | None = None  # buffer form: operand positions its kernel writes
    parallel: bool = False  # its kernel's outer loop covers dim 0 of its first output
    epilogue: Callable | None = None  # runs fused elementwise consumers on its output's tiles
    library_call: Callable | None = None  # (emitter, kernel op, it, call) -> host ops: a library may run it
    same_size: Callable | None = None  # (op, result dim) -> (operand, its dim) always that size,
    #   ("element", operand, k[, {operand: value}]) a shape operand's element k, or None (cse.py)
    row_pick: Callable | None = None  # (op) -> (operand, start index operand) when its result is
    #   one row along dim 0 of that operand, all of it, if its sizes say so (a view may stand for it)
    rows: Callable | None = None  # (op) -> an attribute for its kernel when its indices, known at
    #   compile time, write a run of consecutive rows (passes/row_scatters.py), else None
    overrides: list = field(default_factory=list)  # (field, fn, target name or None, when)


OPS: dict[str, OpDef] = {}
NOT_YET: dict[str, str] = {}  # recognised ops not compiled yet, with what to say about them


def define(name: str, kind: str, family: str, **rules) -> OpDef:
    if name in OPS:
        raise ValueError(f"op '{name}' is defined twice")
    if kind not in KINDS:
        raise ValueError(f"op '{name}': unknown kind '{kind}'")
    OPS[name] = OpDef(name, kind, family, **rules)
    return OPS[name]


def override(name: str, field_name: str, fn: Callable, *, target: str | None = None,
             when: Callable | None = None) -> None:
    """`fn` replaces op `name`'s `field_name` rule on targets named `target` (any if None)
    for ops where `when(target, op)` holds."""
    if field_name not in OpDef.__dataclass_fields__:
        raise ValueError(f"op '{name}': no field '{field_name}' to override")
    OPS[name].overrides.insert(0, (field_name, fn, target, when))


# name -> fn(module): whole-module type rewrites a family owns (its types are not ops, so
# no op rule can carry them: bounds encodings, quantized element types). The HLO stage
# (passes/legalize.py) runs them by name, in its own order, without importing the family.
MODULE_REWRITES: dict[str, Callable] = {}


def module_rewrite(name: str) -> Callable:
    """Decorator: register `fn(module)` as the module rewrite called `name`."""
    def register(fn: Callable) -> Callable:
        if name in MODULE_REWRITES:
            raise ValueError(f"module rewrite '{name}' is defined twice")
        MODULE_REWRITES[name] = fn
        return fn
    return register


def rewrite_module(name: str, module) -> None:
    MODULE_REWRITES[name](module)


def not_yet(reason: str, *names: str) -> None:
    for n in names:
        NOT_YET[n] = reason


# (op, target name) -> why: ops that compile for the CPU but not yet for that target, set by
# the target's codegen (the op table, docs/ops.md, and tests/ops/test_ops_targets.py read it). Empty
# by goal, and now: the cuda target compiles every op the CPU does.
NOT_ON_TARGET: dict[tuple[str, str], str] = {}


COMPLEX: set = set()  # ops that take complex element types
COMPLEX_NOT_YET: dict[str, str] = {}  # ops that could take them but do not yet, and why


def accept_complex(*names: str) -> None:
    """These ops compile with complex element types (the verifier refuses them elsewhere)."""
    COMPLEX.update(names)


def complex_not_yet(reason: str, *names: str) -> None:
    for n in names:
        COMPLEX_NOT_YET[n] = reason


def lookup(name: str) -> OpDef | None:
    return OPS.get(name)


def rule(op: Operation, field_name: str, target=None):
    """The `field_name` rule for `op` on `target` (a lowering.target.Target): the first
    override that applies, else the op's own; None when the op has none."""
    d = OPS.get(op.key)
    if d is None:
        return None
    for f, fn, tname, when in d.overrides:
        if f != field_name or target is None:
            continue
        if (tname is None or tname == target.name) and (when is None or when(target, op)):
            return fn
    return getattr(d, field_name)


def last_operands(op: Operation, n: int) -> tuple:
    """The positions of op's last n operands: where a buffer-form kernel's outputs go."""
    return tuple(range(len(op.operands) - n, len(op.operands)))


def names(*kinds: str) -> set:
    """Every registered op of these kinds."""
    return {n for n, d in OPS.items() if d.kind in kinds}


def is_kind(key: str, *kinds: str) -> bool:
    d = OPS.get(key)
    return d is not None and d.kind in kinds


def shape_operands(key: str) -> tuple:
    d = OPS.get(key)
    return d.shape_operands if d is not None else ()


# ----------------------------------------------------------------------------- spellings
# Every spelling a user may have maps to one canonical name: `mhlo.` at tensor level,
# `lmhlo.` at buffer level.

TENSOR_DIALECTS = {"stablehlo": "mhlo", "mhlo": "mhlo", "xla_hlo": "mhlo", "xla_dhlo": "mhlo",
                   "chlo": "chlo"}
BUFFER_DIALECTS = {"lmhlo": "lmhlo", "xla_lhlo": "lmhlo", "xla_ldhlo": "lmhlo"}

# Older (RFC-era xla_hlo) short names and their current spelling.
SHORT_ALIASES = {
    "const": "constant", "sub": "subtract", "mul": "multiply", "div": "divide", "max": "maximum",
    "min": "minimum", "exp": "exponential", "neg": "negate", "rem": "remainder", "pow": "power",
    "matmul": "dot", "log1p": "log_plus_one", "expm1": "exponential_minus_one",
    "round": "round_nearest_afz",
}

# Whole-name aliases: the old standard dialect, and chlo ops compiled as `mhlo.` ones
# (families add theirs with `alias`).
ALIASES = {
    "alloc": "memref.alloc", "dealloc": "memref.dealloc", "dim": "memref.dim",
    "constant": "arith.constant", "return": "func.return", "call": "func.call", "func": "func.func",
    "std.alloc": "memref.alloc", "std.dealloc": "memref.dealloc", "std.dim": "memref.dim",
    "std.constant": "arith.constant", "std.return": "func.return", "std.call": "func.call",
}


def alias(spelling: str, canonical: str) -> None:
    ALIASES[spelling] = canonical


def canonical_op_name(op: Operation) -> str:
    """Like canonical_name, where the operand count tells the RFC's dynamic slice apart."""
    if op.name == "xla_dhlo.slice" and len(op.operands) == 3:
        return "dhlo.slice"
    if op.name == "xla_ldhlo.slice" and len(op.operands) == 4:
        return "ldhlo.slice"
    return canonical_name(op.name)


def canonical_name(name: str) -> str:
    """Any accepted spelling of an op to its canonical name."""
    if name in ALIASES:
        return ALIASES[name]
    if "." not in name:
        return name
    dialect, short = name.split(".", 1)
    if dialect in TENSOR_DIALECTS:
        return f"{TENSOR_DIALECTS[dialect]}.{SHORT_ALIASES.get(short, short)}"
    if dialect in BUFFER_DIALECTS:
        return f"lmhlo.{SHORT_ALIASES.get(short, short)}"
    return name


# ----------------------------------------------------------------------------- shared by rules


def static_or(t_shape, dims):
    """Prefer what the declared type says where it is static."""
    return [t if t is not None else d for t, d in zip(t_shape, dims)]


def op_text(op: Operation) -> str:
    """How a run-time check's message names an op."""
    return f"'{op.name}' at {op.loc}"
