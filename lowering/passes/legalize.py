"""HLO stage: one spelling per op, calls inlined, optimization barriers and tuples forwarded,
every op verified and its result types checked against its op's rule (lowering/ops/verify.py)."""
from __future__ import annotations

from lowering.ir.attrs import dense_to_ints
from lowering.ir.core import (
    CompileError,
    EnumAttr,
    FunctionType,
    Location,
    Module,
    OpaqueAttr,
    Operation,
    SymbolRef,
    TensorType,
    clone_op,
    replace_all_uses,
)
from lowering.ops import registry
from lowering.ops.custom_calls import rewrite_custom_call
from lowering.ops.verify import verify_op
from lowering.passes.cse import eliminate_common_subexpressions
from lowering.tf.lower import lower_tf

# ----------------------------------------------------------------------------- attributes

INT_LIST_ATTRS = {
    "broadcast_dimensions", "permutation", "dimensions", "start_indices", "limit_indices",
    "strides", "edge_padding_low", "edge_padding_high", "interior_padding", "slice_sizes",
    "fft_length",
}


INT_ATTRS = {"dimension", "iota_dimension", "exponent_bits", "mantissa_bits"}


def normalize_attrs(op: Operation) -> None:
    """Attribute values to plain Python: int lists to tuples, enums to EnumAttr."""
    a = op.attrs
    for k in list(a):
        if k in INT_LIST_ATTRS:
            a[k] = dense_to_ints(a[k])
        elif k in INT_ATTRS and not isinstance(a[k], int):
            vals = dense_to_ints(a[k])
            if len(vals) != 1:
                raise ValueError(f"'{k}' must be one integer, got {len(vals)}")
            a[k] = int(vals[0])
    if "comparison_direction" in a:
        a["comparison_direction"] = _enum("comparison_direction", a["comparison_direction"])
    if "compare_type" in a:
        a["compare_type"] = _enum("comparison_type", a["compare_type"])
    if "dot_dimension_numbers" in a:
        a["dot_dimension_numbers"] = _dot_dims(a["dot_dimension_numbers"])


def _enum(kind: str, value) -> EnumAttr:
    if isinstance(value, EnumAttr):
        return EnumAttr(kind, value.value)
    if isinstance(value, str):
        return EnumAttr(kind, value)
    if isinstance(value, OpaqueAttr):
        return EnumAttr(kind, value.text.rsplit(" ", 1)[-1].rstrip(">"))
    raise ValueError(f"bad {kind} {value!r}")


_DOT_KEYS = ("lhs_batching_dimensions", "rhs_batching_dimensions", "lhs_contracting_dimensions",
             "rhs_contracting_dimensions")


def _dot_dims(value) -> dict:
    if isinstance(value, dict):
        return {k: tuple(value.get(k, ())) for k in _DOT_KEYS}
    if isinstance(value, OpaqueAttr):  # #stablehlo.dot<lhs_batching_dimensions = [0], ...>
        body = value.text[value.text.index("<") + 1:-1]
        out = {k: () for k in _DOT_KEYS}
        import re
        for key, nums in re.findall(r"(\w+)\s*=\s*\[([^\]]*)\]", body):
            out[key] = tuple(int(x) for x in nums.split(",") if x.strip())
        return out
    raise ValueError(f"bad dot_dimension_numbers {value!r}")


def canonicalize_names(module: Module) -> None:
    for top in module.ops:
        for op in top.walk():
            op.name = registry.canonical_op_name(op)
            if op.dialect in ("mhlo", "lmhlo", "dhlo", "ldhlo"):
                try:
                    normalize_attrs(op)
                except (ValueError, KeyError) as e:
                    raise op.error(f"bad attribute: {e}")
            if op.short_name == "slice" and "strides" not in op.attrs and "start_indices" in op.attrs:
                op.attrs["strides"] = (1,) * len(op.attrs["start_indices"])


def rewrite_custom_calls(module: Module) -> None:
    """Custom calls that are ops in disguise become those ops (lowering/ops/custom_calls.py);
    before inlining, while the functions they name still exist."""
    funcs = {f.attrs["sym_name"]: f for f in module.functions()}
    for func in funcs.values():
        for op in func.walk():
            if op.name == "mhlo.custom_call":
                rewrite_custom_call(op, funcs)


def inline_calls(module: Module) -> None:
    """Replace every func.call by the callee's body; recursion is an error. A
    `stablehlo.composite` (jax.export's wrapping of chlo.top_k and friends) is a call of its
    `decomposition`: the decomposition is its meaning. A private function called once (the
    function `jax.export` wraps the whole program in) gives its ops to the call instead of
    copies: copying them was a tenth of a dynamic program's HLO stage."""
    funcs = {f.attrs["sym_name"]: f for f in module.functions()}
    entries = public_functions(module)
    calls = _call_counts(module)

    def inline_in(func, stack):
        if func.regions:
            inline_block(func.regions[0].blocks[0], stack)

    def inline_block(block, stack):
        i = 0
        while i < len(block.ops):
            op = block.ops[i]
            if op.name == "mhlo.composite":
                if not isinstance(op.attrs.get("decomposition"), SymbolRef):
                    raise op.error("needs a 'decomposition = @function' attribute")
                op.attrs["callee"] = op.attrs["decomposition"]
            elif op.name != "func.call":
                for region in op.regions:  # calls inside loop bodies and branches
                    for inner_block in region.blocks:
                        inline_block(inner_block, stack)
                i += 1
                continue
            if not isinstance(op.attrs.get("callee"), SymbolRef):
                raise op.error("needs a 'callee = @function' attribute")
            callee_name = op.attrs["callee"].name
            callee = funcs.get(callee_name)
            if callee is None or not callee.regions:
                raise op.error(f"call to unknown or external function @{callee_name}")
            if callee_name in stack:
                chain = " -> ".join("@" + s for s in stack + [callee_name])
                raise op.error(f"recursive call is not supported: {chain}")
            inline_in(callee, stack + [callee_name])
            body = callee.regions[0].blocks[0]
            if len(body.args) != len(op.operands):
                raise op.error(f"@{callee_name} takes {len(body.args)} arguments, "
                               f"{len(op.operands)} given")
            if calls.get(callee_name) == 1 and callee not in entries:
                new_ops, returned = _take_body(body, op.operands)
            else:
                new_ops, returned = _copy_body(body, op.operands)
            if returned is None or len(returned) != len(op.results):
                raise op.error(f"@{callee_name} returns {len(returned or [])} values, "
                               f"the call expects {len(op.results)}")
            for old, new in zip(op.results, returned):
                if old.type != new.type:
                    raise op.error(f"@{callee_name} returns {new.type}, the call expects {old.type}")
                replace_all_uses(old, new)
            for n in new_ops:
                n.parent = block
            block.ops[i:i + 1] = new_ops
            op.drop_uses()
            i += len(new_ops)

    for f in entries:
        inline_in(f, [f.attrs["sym_name"]])
    module.ops = [op for op in module.ops if op.name != "func.func" or op in entries]


def _call_counts(module: Module) -> dict:
    """Callee name -> how many calls (and composites) name it, in every function."""
    counts: dict = {}
    for func in module.functions():
        for op in func.walk():
            if op.name in ("func.call", "mhlo.composite"):
                ref = op.attrs.get("callee" if op.name == "func.call" else "decomposition")
                if isinstance(ref, SymbolRef):
                    counts[ref.name] = counts.get(ref.name, 0) + 1
    return counts


def _copy_body(body, operands) -> tuple[list, list | None]:
    """(copies of a callee's ops with its arguments as `operands`, the returned values)."""
    mapping = dict(zip(body.args, operands))
    new_ops, returned = [], None
    for inner in body.ops:
        if inner.name == "func.return":
            returned = [mapping.get(v, v) for v in inner.operands]
            continue
        new_ops.append(clone_op(inner, mapping))
    return new_ops, returned


def _take_body(body, operands) -> tuple[list, list | None]:
    """(the callee's own ops, its arguments' uses pointed at `operands`, the returned
    values): for a callee nothing else calls; its body is left empty."""
    for arg, value in zip(body.args, operands):
        replace_all_uses(arg, value)
    new_ops = [inner for inner in body.ops if inner.name != "func.return"]
    ret = [inner for inner in body.ops if inner.name == "func.return"]
    returned = list(ret[-1].operands) if ret else None
    for r in ret:
        r.drop_uses()
    body.ops = []
    return new_ops, returned


def forward_tuples(module: Module) -> None:
    """`get_tuple_element(tuple(a, b), 1)` is `b`: tuples built and taken apart inside a
    function disappear. A tuple that reaches anything else is an error in verify."""
    def walk_block(block):
        for op in block.ops:
            for region in op.regions:
                for inner in region.blocks:
                    walk_block(inner)
            if op.key == "get_tuple_element":
                src = op.operands[0].owner
                if isinstance(src, Operation) and src.key == "tuple":
                    i = op.attrs.get("index")
                    if not isinstance(i, int) or not 0 <= i < len(src.operands):
                        raise op.error(f"tuple index {i} out of range")
                    replace_all_uses(op.result, src.operands[i])
        for dead_kind in ("get_tuple_element", "tuple"):  # extractions first, then tuples
            used = {v for op in block.ops for inner in op.walk() for v in inner.operands}
            block.ops = [op for op in block.ops if op.key != dead_kind or len(op.results) != 1
                         or op.result in used]  # a malformed one is left for verify
    for func in module.functions():
        if func.regions:
            walk_block(func.regions[0].blocks[0])


def module_loc(module: Module) -> Location:
    """Where a whole-module error points: the first function, else the file's start."""
    funcs = module.functions()
    return funcs[0].loc if funcs else Location(module.filename, 1, 1)


def public_functions(module: Module):
    return [f for f in module.functions()
            if f.attrs.get("sym_visibility", "public") == "public" and f.regions]


def verify(module: Module) -> None:
    """Every op supported, operands well-typed, declared result types consistent."""
    for func in module.functions():
        fn: FunctionType = func.attrs["function_type"]
        for t in list(fn.inputs) + list(fn.results):
            if not isinstance(t, TensorType):
                raise func.error(f"function @{func.attrs['sym_name']}: type {t} is not supported "
                                 "(tensors of int, float and bool elements are)")
            if t.encoding:  # bounds are gone by now (drop_bounds): another kind of tensor
                raise func.error(f"function @{func.attrs['sym_name']}: tensor encoding "
                                 f"'{t.encoding}' is not supported")
        for op in func.regions[0].blocks[0].ops:
            verify_op(op)
        ret = (func.regions[0].blocks[0].ops or [func])[-1]
        if ret.name != "func.return":
            raise func.error("function body must end with a return")
        if [v.type for v in ret.operands] != list(fn.results):
            raise ret.error("returned types do not match the function's result types")


def forward_optimization_barriers(module) -> None:
    """Replace every optimization_barrier's results by its operands and drop it: it only
    orders scheduling in XLA, and here it would otherwise split fusions."""
    for func in module.functions():
        if not func.regions:
            continue
        for top in list(func.regions[0].blocks[0].ops):
            for op in top.walk():
                if op.key != "optimization_barrier":
                    continue
                if len(op.operands) != len(op.results):
                    raise op.error(f"has {len(op.operands)} operands but {len(op.results)} "
                                   "results")
                for v, r in zip(op.operands, op.results):
                    if v.type != r.type:
                        raise op.error(f"result type {r.type} differs from operand type {v.type}")
                block = op.parent
                for old, new in zip(op.results, op.operands):
                    replace_all_uses(old, new)
                block.ops.remove(op)


def legalize(module: Module) -> Module:
    """The HLO stage: canonical spellings, calls inlined, verified."""
    lower_tf(module)  # TensorFlow's tf/tf_executor ops, if any, to mhlo (lowering/tf/)
    canonicalize_names(module)
    if not public_functions(module):
        raise CompileError("module has no public function with a body", module_loc(module))
    registry.rewrite_module("drop_bounds", module)  # lowering/ops/bounded.py
    rewrite_custom_calls(module)
    eliminate_common_subexpressions(module, read_sizes=False)  # each repeat copied no more
    inline_calls(module)
    registry.rewrite_module("lower_quantized", module)  # lowering/ops/quantized.py
    forward_optimization_barriers(module)
    forward_tuples(module)  # identity for a compiler that does not rematerialise
    verify(module)
    return module
