"""Verification of tensor-level ops from the registry: the op is known, its attributes and
operand types are what its kind needs, and its declared result types agree with its rule.
Shared by the HLO stage and by the op families' checks of their regions."""
from __future__ import annotations

from lowering.ir.core import Operation, TensorType, is_complex
from lowering.ops import registry
from lowering.ops.custom_calls import REWRITES
from lowering.ops.registry import ShapeError

ELEMENT_TYPES = ("i1", "i2", "i4", "i8", "i16", "i32", "i64", "ui2", "ui4", "ui8", "ui16", "ui32", "ui64",
                 "f16", "bf16", "f32", "f64", "complex<f32>", "complex<f64>")


def verify_op(op: Operation) -> None:
    """One tensor-level op against its registry entry; raises CompileError at its location."""
    if op.name == "func.return":
        return
    if op.dialect == "chlo":
        raise op.error(f"chlo op '{op.short_name}' is not supported yet")
    if op.dialect not in ("mhlo", "dhlo"):
        raise op.error("op is not supported at tensor level (expected stablehlo/mhlo ops)")
    name = op.key
    d = registry.lookup(name)
    if d is not None and d.kind == "control":
        d.check(op)
        return
    if name == "custom_call":
        target = op.attrs.get("call_target_name")
        if target != "shape_assertion":
            known = ", ".join(f"@{t}" for t in sorted({"shape_assertion", *REWRITES}))
            raise op.error(f"custom call @{target} is not supported (known: {known})")
        verify_shape_assertion(op)
        return
    if name in registry.NOT_YET:
        raise op.error(f"{registry.NOT_YET[name]} is not supported yet")
    if d is None:
        raise op.error("op is not supported")
    for k in d.attrs:
        if k not in op.attrs:
            raise op.error(f"missing attribute '{k}'")
    for v in list(op.operands) + list(op.results):
        if not isinstance(v.type, TensorType):
            raise op.error(f"type {v.type} is not supported")
        if v.type.elem not in ELEMENT_TYPES:
            raise op.error(f"element type {v.type.elem} is not supported")
        if v.type.encoding:
            raise op.error(f"tensor encoding '{v.type.encoding}' is not supported")
        if is_complex(v.type.elem) and name not in registry.COMPLEX:
            why = registry.COMPLEX_NOT_YET.get(name)
            raise op.error(f"{name} of {v.type.elem} (complex numbers) is not supported yet"
                           + (f": {why}" if why else ""))
    if d.arity is not None and len(op.operands) != d.arity:
        raise op.error(f"expects {d.arity} operands, got {len(op.operands)}")
    if d.check is not None:
        d.check(op)
    try:
        inferred = d.infer(op)
    except ShapeError as e:
        raise op.error(str(e))
    except (KeyError, IndexError, TypeError) as e:
        raise op.error(f"malformed op ({e})")
    if inferred is None:
        return
    if len(inferred) != len(op.results):
        raise op.error(f"expects {len(inferred)} results, got {len(op.results)}")
    for want, r in zip(inferred, op.results):
        got = r.type
        if (got.rank != want.rank or got.elem != want.elem or
                any(a is not None and b is not None and a != b for a, b in zip(got.shape, want.shape))):
            raise op.error(f"result type {got} does not match the inferred type {want}")


# Ops a scalar region (a reduce body, a comparator, an update) may hold.
SCALAR_REGION_OPS = ("constant", "broadcast_in_dim", "reshape")


def verify_scalar_ops(ops, where: str) -> None:
    """The ops of a scalar region, its return excepted: canonical spellings, elementwise
    (or constants and scalar reshapes), each verified like any other op."""
    for i, inner in enumerate(ops):
        inner.name = registry.canonical_op_name(inner)
        if inner.name.endswith(".return"):
            if i != len(ops) - 1:
                raise inner.error(f"a return must be the last op of a {where}")
            continue
        if not registry.is_kind(inner.key, "elementwise") and inner.key not in SCALAR_REGION_OPS:
            raise inner.error(f"only elementwise ops are supported in a {where}")
        verify_op(inner)


def verify_control_flow(op: Operation) -> None:
    """while: cond and body regions over the carried values; if/case: one region per branch,
    each yielding the results. Ops inside are verified like any other."""
    name = op.key
    for v in list(op.operands) + list(op.results):
        if not isinstance(v.type, TensorType):
            raise op.error(f"type {v.type} is not supported")
    if name == "while":
        if len(op.regions) != 2:
            raise op.error("while needs a cond and a body region")
        carried = [v.type for v in op.operands]
        if [r.type for r in op.results] != carried:
            raise op.error("while results must have the types of its operands")
        for region, want in zip(op.regions, ([TensorType((), "i1")], carried)):
            block = region.blocks[0]
            if [a.type for a in block.args] != carried:
                raise op.error("while regions take the carried values as arguments")
            verify_region_ops(block, want, op)
        return
    if name == "if":
        if len(op.operands) != 1 or op.operands[0].type != TensorType((), "i1"):
            raise op.error("if needs one tensor<i1> predicate")
        if len(op.regions) != 2:
            raise op.error("if needs a true and a false region")
    else:  # case
        t = op.operands[0].type if len(op.operands) == 1 else None
        if t is None or t.shape != () or t.elem not in ("i32", "i64", "ui32", "ui64"):
            raise op.error("case needs one integer scalar index")
        if not op.regions:
            raise op.error("case needs at least one branch")
    for region in op.regions:
        block = region.blocks[0]
        if block.args:
            raise op.error("branches take no arguments")
        verify_region_ops(block, [r.type for r in op.results], op)


def verify_region_ops(block, result_types, owner: Operation) -> None:
    if not block.ops or not block.ops[-1].name.endswith(".return"):
        raise owner.error("region must end with a return")
    ret = block.ops[-1]
    ret.name = "mhlo.return"
    for inner in block.ops[:-1]:
        verify_op(inner)
    got = [v.type for v in ret.operands]
    if len(got) != len(result_types) or any(
            not isinstance(g, TensorType) or g.rank != w.rank or g.elem != w.elem or any(
                a is not None and b is not None and a != b for a, b in zip(g.shape, w.shape))
            for g, w in zip(got, result_types)):
        raise ret.error("region returns " + ", ".join(map(str, got)) + "; expected "
                        + ", ".join(map(str, result_types)))


def verify_shape_assertion(op: Operation) -> None:
    """`custom_call @shape_assertion(%pred, %values...) {error_message = "...{0}..."}` (jax.export)."""
    if not op.operands or op.operands[0].type != TensorType((), "i1"):
        raise op.error("@shape_assertion needs a tensor<i1> predicate first")
    for v in op.operands[1:]:
        if v.type.shape != () or v.type.elem not in ("i32", "i64"):
            raise op.error(f"@shape_assertion values must be integer scalars, got {v.type}")
    if not isinstance(op.attrs.get("error_message"), str):
        raise op.error("@shape_assertion needs an error_message")
