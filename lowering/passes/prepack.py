"""Frozen weights packed for the matmul when the model is compiled.

The packed matmul (codegen/cpu/gemm.py) copies B into NR-column panels on every call. When
B is a constant (a frozen graph's weight), that copy gives the same bytes every time: here
such a constant is stored in the panel layout instead (gemm.pack_constant_b), and its
`aot.gemm` ops are marked `aot.packed_b`, so the kernel reads the panels straight from the
artifact. The GPT benchmark's frozen decoder copies 13 MB per call less.

A constant qualifies when every use of it, in every function, is a kernel call argument that
the kernel uses only as the B operand of one `aot.gemm` with no batch run, all of them with
the same K x N matrix view (the panels are the bytes of the constant: nothing else may read
it). A kernel parameter qualifies when every call passes such a constant. Only the CPU
target's f32/f64 matmul reads packed B.

The same holds for a kernel's copy of a parameter into another layout, a loop nest marked
`aot.relayout` (k = the parameter transposed: the channels-last convolution's OIHW -> HWIO
kernel copy, codegen/cpu/conv_gemm.py): a constant passed there is stored transposed, the
kernel reads it in place of its copy, and the nest goes. 16 % of a 256 -> 256 3x3
convolution over 32x256x4x4 was that copy.

And for the direct convolution's kernel (an `aot.conv` marked `panels`): conv_direct packs
it into NR-feature panels on every call; a constant is stored as those panels
(`aot.packed_conv` on the global, conv_direct.pack_constant) and the op marked
`aot.packed_kernel`. A kernel relaid above is packed in a second round.

A relayout nest whose parameter the kernel also reads elsewhere (an NCHW convolution with a
`?` batch and a frozen kernel of more than conv_gemm.TWIN_KERNEL_BYTES, whose route is chosen
per call: the OIHW kernel is the channels-first product's A, its HWIO copy the channels-last
branch's kernel) cannot store the constant relaid: there
each call passes, in place of the copy's fresh buffer, a second constant, the first stored
relaid (_twin_relayouts), and the nest goes; that one then packs for its convolution.
"""
from __future__ import annotations

import numpy as np

from lowering.ir.core import (
    DenseAttr,
    FunctionType,
    MemRefType,
    Module,
    Operation,
    SymbolRef,
    TensorType,
    uses,
)


def _matrix_view(gemm, target):
    """(K, N, row stride, column stride, KC, NR): the gemm's B as a K x N matrix of its
    static buffer and the blocking it is packed for, or None when the packed layout cannot
    serve it."""
    lhs, rhs, out = (v.type for v in gemm.operands[:3])
    rr = gemm.attrs["rhs_runs"]
    if (rr[0] != rr[1] or not isinstance(rhs, MemRefType) or not rhs.is_static
            or rhs.elem not in ("f32", "f64") or not lhs.elem == rhs.elem == out.elem
            or target.blocking(rhs.elem) is None):
        return None

    def run(lo, hi):
        size = stride = 1
        for d in rhs.shape[lo:hi]:
            size *= d
        for d in rhs.shape[hi:]:
            stride *= d
        return size, stride
    (k, row), (n, col) = run(rr[2], rr[3]), run(rr[4], rr[5])
    blocking = target.blocking(rhs.elem)
    return (k, n, row, col, blocking.kc, blocking.nr)


def _conv_panels(conv, target):
    """("conv", kind, NR): the direct convolution's kernel as NR-feature panels ("panels"),
    when conv_direct reads them so (one group a panel, not the patch matmul), or followed by
    Winograd's transform U ("winograd"); else None."""
    lhs, ker, out = (v.type for v in conv.operands[:3])
    if (not conv.attrs.get("panels")
            or not isinstance(ker, MemRefType) or not ker.is_static
            or ker.elem not in ("f32", "f64") or not lhs.elem == ker.elem == out.elem
            or target.blocking(ker.elem) is None):
        return None
    nr, groups, f = target.blocking(ker.elem).nr, conv.attrs.get("groups", 1), ker.shape[-1]
    outs = f // groups
    if groups > 1 and outs < nr and nr % outs == 0:  # thin groups: block-diagonal panels
        return None
    return ("conv", "winograd" if conv.attrs.get("winograd") else "panels", nr)


def prepack_constant_weights(module: Module, target) -> Module:
    if not target.gemm:  # no packed matmul on this target
        return module
    while _prepack(module, target):  # a relaid kernel may pack for its convolution
        pass
    return module


def _prepack(module: Module, target) -> bool:
    """One round; whether it relaid a kernel."""
    kernels = {f.attrs["sym_name"]: f for f in module.functions() if "aot.kernel" in f.attrs}
    everything = list(module.functions())
    used = uses(everything)
    if _twin_relayouts(module, kernels, everything, used):
        return True
    # kernel parameters read only as one gemm's B: (kernel, index) -> (view, gemm op)
    params = {}
    for name, f in kernels.items():
        args = f.regions[0].blocks[0].args
        for op in f.walk():
            if op.name == "aot.gemm" and op.operands[1] in args:
                rhs = op.operands[1]
                view = _matrix_view(op, target)
                if view is not None and used.get(rhs) == [op]:
                    params[(name, args.index(rhs))] = (view, op)
            elif op.name == "aot.conv" and op.operands[1] in args:
                view = _conv_panels(op, target)
                if view is not None and used.get(op.operands[1]) == [op]:
                    params[(name, args.index(op.operands[1]))] = (view, op)
            elif op.name == "scf.for" and "aot.relayout" in op.attrs:
                found = _relayout(op, args, used)
                if found is not None:
                    params[(name, args.index(found[0]))] = (
                        ("relayout", tuple(op.attrs["aot.relayout"])), (op,) + found)
    # constants: global name -> [(kernel, index) of each use], None once a use disqualifies
    globals_ = {op.attrs["sym_name"]: op for op in module.ops if op.name == "memref.global"}
    passed: dict = {}
    passed_to: dict = {}  # (kernel, index) -> globals passed there, None: something else
    for f in everything:
        for op in f.walk():
            if op.name == "memref.get_global":
                sym = op.attrs["name"].name
                sites = passed.setdefault(sym, [])
                for user in used.get(op.result, []):
                    callee = user.attrs.get("callee")
                    positions = [i for i, v in enumerate(user.operands) if v is op.result]
                    if (user.name != "func.call" or callee is None or sites is None
                            or any((callee.name, i) not in params for i in positions)):
                        passed[sym] = sites = None
                        break
                    sites += [(callee.name, i) for i in positions]
            elif op.name == "func.call" and op.attrs["callee"].name in kernels:
                for i, v in enumerate(op.operands):
                    key = (op.attrs["callee"].name, i)
                    if key not in params:
                        continue
                    owner = v.owner
                    sym = (owner.attrs["name"].name if getattr(owner, "name", None)
                           == "memref.get_global" else None)
                    if sym is None or passed_to.get(key, []) is None:
                        passed_to[key] = None
                    else:
                        passed_to.setdefault(key, []).append(sym)
    # a constant packs when all its uses qualify with one view; a parameter when every call
    # passes a constant that packs (dropping one can drop the other: to a fixed point)
    changed = True
    while changed:
        changed = False
        for sym, sites in passed.items():
            ok = (sites and sym in globals_ and globals_[sym].attrs.get("constant")
                  and all(passed_to.get(s) for s in sites)
                  and len({params[s][0] for s in sites}) == 1)
            if sites is not None and not ok:
                passed[sym] = None
                changed = True
        for key, syms in passed_to.items():
            if syms is not None and any(passed.get(s) is None for s in syms):
                passed_to[key] = None
                changed = True
    relaid = {}  # global name -> its transposed type
    for sym, sites in passed.items():
        view = params[sites[0]][0] if sites else None
        if view and view[0] == "relayout":
            relaid[sym] = _transpose_global(globals_[sym], list(view[1]))
        elif view and view[0] == "conv":
            globals_[sym].attrs["aot.packed_conv"] = list(view[1:])
        elif view:
            globals_[sym].attrs["aot.packed_b"] = list(view)
    for f in everything:
        for op in f.walk():
            if op.name == "memref.get_global" and op.attrs["name"].name in relaid:
                op.result.type = relaid[op.attrs["name"].name]
    for key, syms in passed_to.items():
        if not syms:
            continue
        view, what = params[key]
        if view[0] != "relayout":
            what.attrs["aot.packed_kernel" if view[0] == "conv" else "aot.packed_b"] = True
            continue
        nest, param, copy = what
        nest.parent.ops.remove(nest)
        nest.drop_uses()
        param.type = copy.type
        copy.replace_all_uses_with(param)
        f = kernels[key[0]]
        ft = f.attrs["function_type"]
        inputs = list(ft.inputs)
        inputs[key[1]] = copy.type
        f.attrs["function_type"] = FunctionType(tuple(inputs), ft.results)
    return bool(relaid)


def _relayout(nest, args, used, shared=False):
    """(parameter, copy) of a nest marked `aot.relayout` that only copies one static kernel
    parameter, read nowhere else (`shared`: read elsewhere too), into another parameter of
    its transposed shape, written nowhere else; or None."""
    loads = [op for op in nest.walk() if op.name == "memref.load"]
    stores = [op for op in nest.walk() if op.name == "memref.store"]
    if len(loads) != 1 or len(stores) != 1:
        return None
    param, copy = loads[0].operands[0], stores[0].operands[1]
    perm = list(nest.attrs["aot.relayout"])
    t = param.type
    readers = used.get(param, [])
    if (param not in args or copy not in args
            or (loads[0] not in readers if shared else readers != loads)
            or any(op.name == "memref.store" and op.operands[1] is copy and op is not stores[0]
                   for op in used.get(copy, []))
            or not isinstance(t, MemRefType) or not t.is_static
            or sorted(perm) != list(range(len(t.shape)))
            or copy.type != MemRefType(tuple(t.shape[d] for d in perm), t.elem)):
        return None
    return param, copy


def _transpose_global(glob, perm: list) -> MemRefType:
    """Store a constant global transposed by `perm`; its new type."""
    glob.attrs["initial_value"], glob.attrs["type"] = _transposed(glob, perm)
    return glob.attrs["type"]


def _transposed(glob, perm: list):
    """(initial value, type) of a constant global transposed by `perm`."""
    t, value = glob.attrs["type"], glob.attrs["initial_value"]
    array = np.asarray(value.array)
    array = (array.reshape(t.shape) if array.size == np.prod(t.shape)
             else np.broadcast_to(array.reshape(()), t.shape))  # a splat: one element
    shape = tuple(t.shape[d] for d in perm)
    return (DenseAttr(np.ascontiguousarray(array.transpose(perm)),
                      TensorType(shape, value.type.elem)), MemRefType(shape, t.elem))


def _twin_relayouts(module: Module, kernels: dict, everything: list, used: dict) -> bool:
    """Relayout nests whose parameter is read elsewhere too: where every call of the kernel
    passes a constant global for the parameter and, for the copy, a static buffer of its own
    (`memref.alloc`, only freed after), the calls pass a twin global (the constant relaid,
    one per constant and layout) instead, and the nest goes. Whether any went."""
    globals_ = {op.attrs["sym_name"]: op for op in module.ops if op.name == "memref.global"}
    calls: dict = {}
    for f in everything:
        for op in f.walk():
            if op.name == "func.call" and op.attrs["callee"].name in kernels:
                calls.setdefault(op.attrs["callee"].name, []).append(op)
    twins: dict = {}  # (global, perm) -> the twin's name
    changed = False
    for name, f in kernels.items():
        args = f.regions[0].blocks[0].args
        for nest in [op for op in f.walk() if op.name == "scf.for" and "aot.relayout" in op.attrs]:
            found = _relayout(nest, args, used, shared=True)
            if found is None or _relayout(nest, args, used) is not None:
                continue  # not such a nest, or one the constant itself is relaid for
            i, j = (args.index(v) for v in found)
            plan = [_twin_site(call, i, j, globals_, used) for call in calls.get(name, [])]
            if not plan or None in plan:
                continue
            perm = tuple(nest.attrs["aot.relayout"])
            for call, sym, alloc in plan:
                twin = twins.get((sym, perm))
                if twin is None:
                    twin = twins[(sym, perm)] = f"{sym}_relaid_{len(twins)}"
                    value, t = _transposed(globals_[sym], list(perm))
                    glob = Operation("memref.global", [], [], {
                        "sym_name": twin, "type": t, "initial_value": value, "constant": True},
                        loc=globals_[sym].loc)
                    module.ops.insert(module.ops.index(globals_[sym]) + 1, glob)
                get = Operation("memref.get_global", [], [alloc.result.type],
                                {"name": SymbolRef(twin)}, loc=call.loc)
                block = call.parent
                block.ops.insert(block.ops.index(call), get)
                get.parent = block
                call.operands[j] = get.result
                for op in [alloc] + [u for u in used.get(alloc.result, []) if u is not call]:
                    op.erase()  # the buffer and its dealloc
            nest.parent.ops.remove(nest)
            nest.drop_uses()
            changed = True
    return changed


def _twin_site(call, i, j, globals_, used):
    """(call, constant, buffer) when `call` passes a constant global as operand i and, as
    operand j, a static buffer of its own that is only freed after; else None."""
    src, dst = call.operands[i].owner, call.operands[j].owner
    if getattr(src, "name", None) != "memref.get_global" or j in call.attrs.get("aot.writes", ()):
        return None
    sym = src.attrs["name"].name
    if (sym not in globals_ or not globals_[sym].attrs.get("constant")
            or getattr(dst, "name", None) != "memref.alloc" or len(dst.operands)
            or any(u is not call and u.name != "memref.dealloc"
                   for u in used.get(dst.result, []))
            or call.operands.count(dst.result) != 1):
        return None
    return call, sym, dst
