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
"""
from __future__ import annotations

from lowering.ir.core import MemRefType, Module, uses


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


def prepack_constant_weights(module: Module, target) -> Module:
    if not target.gemm:  # no packed matmul on this target
        return module
    kernels = {f.attrs["sym_name"]: f for f in module.functions() if "aot.kernel" in f.attrs}
    everything = list(module.functions())
    used = uses(everything)
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
    for sym, sites in passed.items():
        if sites:
            globals_[sym].attrs["aot.packed_b"] = list(params[sites[0]][0])
    for key, syms in passed_to.items():
        if syms:
            params[key][1].attrs["aot.packed_b"] = True
    return module
