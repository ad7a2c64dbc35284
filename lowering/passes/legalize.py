"""HLO stage: one spelling per op, calls inlined, every op verified and its result
shape checked against the shape function of its op (lowering/ops.py)."""
from __future__ import annotations

from lowering.ops import hlo_ops as T
from lowering.ops.chlo import forward_optimization_barriers
from lowering.ir.core import (CompileError, FunctionType, Module, Operation, TensorType, clone_op,
                 replace_all_uses)

# Ops recognised but not compiled yet, with what to say about them.
CONTROL_FLOW = {"while", "if", "case"}
NOT_YET = {
    "tuple": "a tuple that is not taken apart in the same function",
    "get_tuple_element": "a tuple that is not taken apart in the same function",
    "gather": "gather", "scatter": "scatter", "convolution": "convolution",
    "reduce_window": "reduce_window", "sort": "sort", "select_and_scatter": "select_and_scatter",
    "rng": "random numbers", "rng_bit_generator": "random numbers", "fft": "FFT",
    "all_reduce": "collectives", "all_gather": "collectives", "all_to_all": "collectives",
    "custom_call": "custom calls", "set_dimension_size": "set_dimension_size",
    "dynamic_gather": "dynamic_gather", "complex": "complex numbers", "real": "complex numbers",
    "imag": "complex numbers", "reduce_precision": "reduce_precision",
}


def canonicalize_names(module: Module) -> None:
    for top in module.ops:
        for op in top.walk():
            op.name = T.canonical_op_name(op)
            if op.dialect in ("mhlo", "lmhlo", "dhlo", "ldhlo"):
                try:
                    T.normalize_attrs(op)
                except (ValueError, KeyError) as e:
                    raise op.error(f"bad attribute: {e}")
            if op.short_name == "slice" and "strides" not in op.attrs and "start_indices" in op.attrs:
                op.attrs["strides"] = (1,) * len(op.attrs["start_indices"])


def inline_calls(module: Module) -> None:
    """Replace every func.call by the callee's body; recursion is an error."""
    funcs = {f.attrs["sym_name"]: f for f in module.functions()}

    def inline_in(func, stack):
        if func.regions:
            inline_block(func.regions[0].blocks[0], stack)

    def inline_block(block, stack):
        i = 0
        while i < len(block.ops):
            op = block.ops[i]
            if op.name != "func.call":
                for region in op.regions:  # calls inside loop bodies and branches
                    for inner_block in region.blocks:
                        inline_block(inner_block, stack)
                i += 1
                continue
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
            mapping = dict(zip(body.args, op.operands))
            new_ops = []
            returned = None
            for inner in body.ops:
                if inner.name == "func.return":
                    returned = [mapping.get(v, v) for v in inner.operands]
                    continue
                new_ops.append(clone_op(inner, mapping))
            if returned is None or len(returned) != len(op.results):
                raise op.error(f"@{callee_name} returns {len(returned or [])} values, "
                               f"the call expects {len(op.results)}")
            for old, new in zip(op.results, returned):
                if old.type != new.type:
                    raise op.error(f"@{callee_name} returns {new.type}, the call expects {old.type}")
                replace_all_uses(block.ops, old, new)
            for n in new_ops:
                n.parent = block
            block.ops[i:i + 1] = new_ops
            i += len(new_ops)

    entries = public_functions(module)
    for f in entries:
        inline_in(f, [f.attrs["sym_name"]])
    module.ops = [op for op in module.ops if op.name != "func.func" or op in entries]


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
                    replace_all_uses(block.ops, op.result, src.operands[i])
        for dead_kind in ("get_tuple_element", "tuple"):  # extractions first, then tuples
            used = {v for op in block.ops for inner in op.walk() for v in inner.operands}
            block.ops = [op for op in block.ops if op.key != dead_kind or op.result in used]
    for func in module.functions():
        if func.regions:
            walk_block(func.regions[0].blocks[0])


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
        for op in func.regions[0].blocks[0].ops:
            verify_op(op)
        ret = func.regions[0].blocks[0].ops[-1]
        if ret.name != "func.return":
            raise func.error("function body must end with a return")
        if [v.type for v in ret.operands] != list(fn.results):
            raise ret.error("returned types do not match the function's result types")


def verify_op(op: Operation) -> None:
    if op.name == "func.return":
        return
    if op.dialect == "chlo":
        raise op.error(f"chlo op '{op.short_name}' is not supported yet")
    if op.dialect not in ("mhlo", "dhlo"):
        raise op.error("op is not supported at tensor level (expected stablehlo/mhlo ops)")
    name = op.key
    if name in CONTROL_FLOW:
        verify_control_flow(op)
        return
    if name == "custom_call":
        target = op.attrs.get("call_target_name")
        if target != "shape_assertion":
            raise op.error(f"custom call @{target} is not supported (known: @shape_assertion)")
        verify_shape_assertion(op)
        return
    if name in NOT_YET:
        raise op.error(f"{NOT_YET[name]} is not supported yet")
    if name not in T.SUPPORTED:
        raise op.error("op is not supported")
    for k in T.REQUIRED_ATTRS.get(name, ()):
        if k not in op.attrs:
            raise op.error(f"missing attribute '{k}'")
    for v in list(op.operands) + list(op.results):
        if not isinstance(v.type, TensorType):
            raise op.error(f"type {v.type} is not supported")
        if v.type.elem not in ("i1", "i8", "i16", "i32", "i64", "ui8", "ui16", "ui32", "ui64",
                               "f16", "bf16", "f32", "f64"):
            raise op.error(f"element type {v.type.elem} is not supported")
        if v.type.encoding:
            raise op.error(f"tensor encoding '{v.type.encoding}' is not supported")
    arity = {**{n: 1 for n in T.UNARY}, **{n: 2 for n in T.BINARY}, "select": 3, "clamp": 3,
             "dot_general": 2, "dot": 2, "pad": 2, "iota": 0, "constant": 0}
    if name in arity and len(op.operands) != arity[name]:
        raise op.error(f"expects {arity[name]} operands, got {len(op.operands)}")
    if name == "reduce":
        verify_reduce_body(op)
    try:
        inferred = T.SHAPE_FUNCTIONS[name](op)
    except T.ShapeError as e:
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


def verify_reduce_body(op: Operation) -> None:
    if len(op.regions) != 1:
        raise op.error("reduce needs one body region")
    block = op.regions[0].blocks[0]
    n = len(op.operands) // 2
    if len(block.args) != 2 * n:
        raise op.error(f"reduce body must take {2 * n} arguments")
    for inner in block.ops:
        inner.name = T.canonical_op_name(inner)
        if inner.name.endswith(".return"):
            continue
        if inner.short_name not in T.ELEMENTWISE | {"constant", "broadcast_in_dim", "reshape"}:
            raise inner.error("only elementwise ops are supported in a reduce body")
        verify_op(inner)


def legalize(module: Module) -> Module:
    """The HLO stage: canonical spellings, calls inlined, verified."""
    canonicalize_names(module)
    if not public_functions(module):
        raise CompileError("module has no public function with a body", None)
    inline_calls(module)
    forward_optimization_barriers(module)
    forward_tuples(module)  # identity for a compiler that does not rematerialise
    verify(module)
    return module

# gather, dynamic_gather and scatter are supported now (lowering/gather.py)
for _k in ("gather", "dynamic_gather", "scatter"):
    NOT_YET.pop(_k, None)

# reduce_precision is supported now (lowering/chlo.py)
NOT_YET.pop("reduce_precision", None)

# sort is supported now (lowering/sort.py)
NOT_YET.pop("sort", None)

# reduce_window, convolution, select_and_scatter are supported now (lowering/windows.py)
for _k in ("reduce_window", "convolution", "select_and_scatter"):
    NOT_YET.pop(_k, None)
