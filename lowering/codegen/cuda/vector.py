"""Vector loads and stores in elementwise (kLoop) kernels: each thread takes WIDTH consecutive
elements of the flattened output, so a warp's accesses to a buffer read along its innermost
dim become `ld.global.v4` / `st.global.v4` (for f32; v2 for f64) instead of four scalar ones.

The loop stage's kernel runs one element per iteration of its parallel loop, the element's
index unflattened from the iteration number t (`element_loop`: t rem D and t div D for the
innermost dim D, and so on outwards). `vector_kernel` makes a copy whose iteration is a group
g of WIDTH elements, t = WIDTH g + k: when D is a multiple of WIDTH, the group's elements
share every outer index (t div D = g div (D / WIDTH)) and have innermost indices
WIDTH (g rem (D / WIDTH)) + k. Each op of the body is repeated for k = 0..WIDTH-1 side by
side, so the WIDTH loads of a buffer at the innermost index are adjacent, at consecutive
addresses whose first is a multiple of WIDTH elements: LLVM's load/store vectorizer merges
them when the buffers are 16-byte aligned, which the device entry checks at run time (then
it passes the pointers through `llvm.ptrmask`, which tells LLVM so); else it runs the scalar
body (device.emit_entry). Those accesses are marked (`aot.vector`: WIDTH on the first, 0 on
the others) so the counting build reports one access of WIDTH elements, as the GPU makes it.

Taken when the output's innermost dim is a multiple of WIDTH and a thread per WIDTH elements
still fills every device of the table (launch.fills_devices): fewer threads would leave SMs
idle (the issue's goal: no kLoop kernel under min(elements, 100000) threads). With dims known
only at run time (a `?` batch), the launch record says from how many elements on
(`vector_from`), and the host's grid and the device entry both follow it.
"""
from __future__ import annotations

from lowering.ir.core import Block, Operation, Region, ScalarType, clone_op

WIDTH = 4
INDEX = ScalarType("index")
MAX_BODY_OPS = 400  # a longer body repeated WIDTH times would cost registers, not save loads
REM, DIV = ("arith.remsi", "arith.remui"), ("arith.divsi", "arith.divui")


def _parallel_loop(func):
    return next((op for op in func.regions[0].blocks[0].ops
                 if op.name == "scf.for" and op.attrs.get("aot.parallel")), None)


def _constant(v):
    owner = v.owner
    if isinstance(owner, Operation) and owner.name == "arith.constant":
        value = owner.attrs.get("value")
        return value if isinstance(value, int) else None
    return None


def vectorizable(func, dims) -> bool:
    """Whether the elementwise kernel `func`, its output of `dims` (None where known only at
    run time), can take WIDTH elements per iteration: the innermost dim a multiple of WIDTH
    (known), the iteration number used
    only to unflatten the index by multiples of WIDTH (or as the index itself, rank 1), no
    in-place buffers, a body of at most MAX_BODY_OPS ops, and every load or store whose index
    differs between a group's elements one at consecutive addresses (`_strided_access`: a
    window's or a transposed read would touch 4x the sectors per warp access)."""
    loop = _parallel_loop(func)
    if loop is None or not dims or dims[-1] is None or dims[-1] % WIDTH or "aot.aliased" in func.attrs:
        return False
    body = loop.regions[0].blocks[0]
    if sum(1 for op in body.ops for _ in op.walk()) > MAX_BODY_OPS:
        return False
    iv = body.args[0]
    for op in (o for o in body.ops for o in o.walk()):
        if any(v is iv for v in op.operands) and op.name in REM + DIV:
            c = _constant(op.operands[1])
            if op.operands[0] is not iv or c is None or c % WIDTH:
                return False
    return _constant(loop.operands[0]) == 0 and _constant(loop.operands[2]) == 1 \
        and not _strided_access(body, iv)


def _strided_access(body, iv) -> bool:
    """Whether some load or store of the body has an index that differs between a group's
    elements and is not `_is_vector_access` (at the innermost index, directly in the body)."""
    inner, varies = {}, {id(iv)}
    for op in body.ops:
        if op.operands and op.operands[0] is iv and op.name in REM:
            inner[id(op.results[0])] = True
            varies.add(id(op.results[0]))
            continue
        if op.operands and op.operands[0] is iv and op.name in DIV:
            continue
        nested = list(op.walk())
        for o in nested:
            if o.name in ("memref.load", "memref.store") and any(id(v) in varies for v in o.operands[1:]) \
                    and not (o is op and _is_vector_access(o, iv, inner, varies)):
                return True
            if any(id(v) in varies for v in o.operands):
                varies.update(id(r) for r in o.results)
        if any(id(v) in varies for o in nested for v in o.operands):
            varies.update(id(r) for r in op.results)
    return False


def vector_kernel(func) -> Operation:
    """A copy of the kernel `func` (sym_name + "__v4") whose parallel loop steps over groups of
    WIDTH consecutive elements (see the module's docstring)."""
    block = func.regions[0].blocks[0]
    new_block = Block([a.type for a in block.args])
    mapping = dict(zip(block.args, new_block.args))
    for op in block.ops:
        if op.name == "scf.for" and op.attrs.get("aot.parallel"):
            new_block.append(_group_loop(op, mapping, new_block))
        else:
            new_block.append(clone_op(op, mapping))
    attrs = dict(func.attrs, sym_name=f"{func.attrs['sym_name']}__v4")
    return Operation(func.name, [], [], attrs, [Region([new_block])], func.loc)


def _const(block, value: int):
    return block.append(Operation("arith.constant", [], [INDEX], {"value": value})).results[0]


def _op(block, name, operands):
    return block.append(Operation(name, operands, [INDEX])).results[0]


def _group_loop(loop, mapping: dict, outer: Block) -> Operation:
    body = loop.regions[0].blocks[0]
    iv = body.args[0]
    extent = mapping.get(loop.operands[1], loop.operands[1])
    groups = _op(outer, "arith.divui", [extent, _const(outer, WIDTH)])
    new_body = Block([INDEX])
    g = new_body.args[0]
    first = _op(new_body, "arith.muli", [g, _const(new_body, WIDTH)])
    lanes = [dict(mapping) for _ in range(WIDTH)]
    inner = {}  # id(original value) -> True: the innermost index (a group's consecutive elements)
    varies = {id(iv)}  # original values that differ between a group's elements
    for k, m in enumerate(lanes):
        m[iv] = _op(new_body, "arith.addi", [first, _const(new_body, k)]) if k else first
    for op in body.ops:
        if op.name == "scf.yield":
            continue
        if op.operands and op.operands[0] is iv and op.name in REM + DIV:
            per_group = _const(new_body, _constant(op.operands[1]) // WIDTH)
            if op.name in DIV:  # the same for the group's elements: once
                outer_index = _op(new_body, op.name, [g, per_group])
                for m in lanes:
                    m[op.results[0]] = outer_index
                continue
            place = _op(new_body, op.name, [g, per_group])
            base = _op(new_body, "arith.muli", [place, _const(new_body, WIDTH)])
            for k, m in enumerate(lanes):
                m[op.results[0]] = _op(new_body, "arith.addi", [base, _const(new_body, k)]) if k else base
            inner[id(op.results[0])] = True
            varies.add(id(op.results[0]))
            continue
        vector = _is_vector_access(op, iv, inner, varies)
        if any(id(v) in varies for o in op.walk() for v in o.operands):
            varies.update(id(r) for r in op.results)
        for k, m in enumerate(lanes):
            new = new_body.append(clone_op(op, m))
            if vector:
                new.attrs["aot.vector"] = WIDTH if k == 0 else 0
    new_body.append(Operation("scf.yield"))
    zero, one = _const(outer, 0), _const(outer, 1)
    return Operation("scf.for", [zero, groups, one], [], dict(loop.attrs), [Region([new_body])], loop.loc)


def _is_vector_access(op, iv, inner: dict, varies: set) -> bool:
    """A load or store at the innermost index (or the iteration number itself, the index of a
    rank-1 output) in its last place, its other indices the same for the group's elements:
    the group's WIDTH accesses are at consecutive addresses."""
    if op.name == "memref.load":
        idx = list(op.operands[1:])
    elif op.name == "memref.store":
        idx = list(op.operands[2:])
    else:
        return False
    last_dim = (op.operands[0] if op.name == "memref.load" else op.operands[1]).type.shape[-1:]
    if not idx or not (id(idx[-1]) in inner or idx[-1] is iv) or last_dim[0] is None or last_dim[0] % WIDTH:
        return False  # (a row length not a multiple of WIDTH: rows after the first misaligned)
    return not any(id(v) in varies for v in idx[:-1])
