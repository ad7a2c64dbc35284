"""How the CPU's host code calls a kernel: directly, or over the runtime's thread pool
(`aot_parallel_for`) when its work is big enough, timed under AOT_PROFILE. The other host
ops are every target's (codegen/host/buffers.py)."""
from __future__ import annotations

from llvmlite import ir

from lowering.codegen.host.buffers import HOST_EMITTERS as COMMON_HOST_EMITTERS
from lowering.codegen.llvm import collapse
from lowering.codegen.llvm.types import I32, I64, PTR, VOID, MemRef
from lowering.ir.core import MemRefType


def emit_task(g, kernel):
    """`void task(void *ctx, i64 begin, i64 end)` for aot_parallel_for: the kernel's
    arguments come from an array of 64-bit slots at ctx. The kernel is not inlined into it:
    the host calls it directly too (a small run), and LLVM would optimise and compile its
    loops twice (40% of such a kernel's LLVM time) for one call saved per task. A kernel
    whose loops walk a tiny transposed dim innermost (`aot.element_order`) gets its buffers'
    static dims as constants, as the launcher passes them, so LLVM propagates them into it:
    read from the slots, a static [N/2, 2] input's row stride was a run-time value inside
    it, and its loops ran scalar behind a stride-1 check. Only those: constants in every
    kernel let LLVM specialise and unroll them all (MobileNetV2's compile went 7.8 -> 59 CPU
    seconds, almost all in LLVM)."""
    kernel.attributes.add("noinline")
    task = ir.Function(g.mod, ir.FunctionType(VOID, [PTR, I64, I64]), name=kernel.name + ".task")
    task.linkage = "internal"
    ctx, begin, end = task.args
    b = ir.IRBuilder(task.append_basic_block("entry"))
    func = _kernel_func(g, kernel.name[len(g.name) + 1:])
    reordered = any("aot.element_order" in o.attrs for o in func.regions[0].blocks[0].ops)
    static = _static_params(func) if reordered else [None] * len(kernel.args)
    args = []
    for i, param in enumerate(kernel.args[:-2]):
        if static[i] is not None:
            args.append(ir.Constant(I64, static[i]))
            continue
        slot = b.load(b.gep(ctx, [ir.Constant(I64, i)], inbounds=True, source_etype=I64), typ=I64)
        args.append(b.inttoptr(slot, PTR) if isinstance(param.type, ir.PointerType) else slot)
    b.call(kernel, args + [begin, end])
    b.ret_void()
    return task


def _static_params(func) -> list:
    """Per parameter of kernel `func`'s LLVM function (its pointers and dims, then run-time
    values), the dim's value where its buffer's type fixes it, else None."""
    out = []
    for t in func.attrs["function_type"].inputs:
        out += [None] + list(t.shape) if isinstance(t, MemRefType) else [None]
    return out


PARALLEL_MIN_ELEMENTS = 1 << 15  # largest buffer of a kernel below which threads cost more than they save


def _profiled(g, b, label, call) -> None:
    """`call(b)` emits a kernel call; with AOT_PROFILE set at run time (the runtime's
    aot__profile_enabled, runtime_c/profile.c) it is timed and counted under `label` (a
    C string).
    Otherwise it costs a load and a branch."""
    flag = g.mod.globals.get("aot__profile_enabled")
    if flag is None:
        flag = ir.GlobalVariable(g.mod, I32, name="aot__profile_enabled")  # the runtime's
    on = b.icmp_unsigned("!=", b.load(flag), ir.Constant(I32, 0))
    now = g.declare("aot__profile_now", I64, [])
    before = b.block
    with b.if_then(on):
        started = b.call(now, [])
        timing = b.block
    start = b.phi(I64)
    start.add_incoming(ir.Constant(I64, 0), before)
    start.add_incoming(started, timing)
    call(b)
    with b.if_then(on):
        b.call(g.declare("aot__profile_add", VOID, [PTR, I64]), [label, start])


def _kernel_func(g, name: str):
    """The loop-stage function of kernel `name` (None for a name the module lacks)."""
    if not hasattr(g, "kernel_funcs"):
        g.kernel_funcs = {f.attrs.get("sym_name"): f for f in g.module.functions()}
    return g.kernel_funcs.get(name)


def _kernel_label(g, name: str) -> str:
    """What the profile calls a kernel: its function, its kind and where its root op was."""
    func = _kernel_func(g, name)
    kind = func.attrs.get("aot.kernel", "") if func is not None else ""
    where = f" at {func.loc}" if func is not None and func.loc.line else ""
    return f"{g.name}.{name} ({kind}){where}" if kind else f"{g.name}.{name}{where}"


def _host_call(g, b, op, values, host):
    """One call of the kernel's launcher (its name for the profile, then its arguments)."""
    name = op.attrs["callee"].name
    args = []
    for v in op.operands:
        m = values[v]
        args += [m.ptr] + list(m.dims) if isinstance(m, MemRef) else [m]
    out_index = op.attrs.get("aot.parallel") if name in g.tasks else None
    launcher = _launcher(g, name, out_index, op.attrs.get("aot.parallel_block", 1),
                         op.attrs.get("aot.parallel_dim", 0))
    b.call(launcher, [g.string(_kernel_label(g, name))] + args)


def _launcher(g, name: str, out_index: int | None, block: int, dim: int = 0) -> ir.Function:
    """`K.launch(label, kernel's arguments)`: runs kernel K, timed under `label` when
    profiling, and a parallel one (`out_index`: the operand whose dim `dim` is split) over the
    thread pool when its work is big enough, else on this thread. One per kernel (its copies
    share it), so the host holds one call per kernel call: the host is a program's one long
    function, and this code emitted into it at every call made most of its IR (and of its
    LLVM time)."""
    fn = g.functions[name]
    key = (fn.name, out_index, block, dim)
    launchers = g.__dict__.setdefault("launchers", {})
    if key in launchers:
        return launchers[key]
    params = fn.function_type.args[:-2] if out_index is not None else fn.function_type.args
    others = sum(k[0] == fn.name for k in launchers)  # the same kernel with another split
    launcher = ir.Function(g.mod, ir.FunctionType(VOID, [PTR, *params]),
                           name=fn.name + ".launch" + (str(others) if others else ""))
    launcher.linkage = "internal"
    launcher.attributes.add("nounwind")
    launchers[key] = launcher
    b = ir.IRBuilder(launcher.append_basic_block("entry"))
    ctx = b.alloca(I64, size=max(len(params), 1)) if out_index is not None else None
    operands, it = [], iter(launcher.args[1:])
    for t in _kernel_func(g, name).attrs["function_type"].inputs:
        if isinstance(t, MemRefType):  # static dims as constants: LLVM folds the work's size
            ptr, dims = next(it), [next(it) for _ in t.shape]
            operands.append(MemRef(ptr, [d if n is None else ir.Constant(I64, n)
                                         for d, n in zip(dims, t.shape)], t.elem))
        else:
            operands.append(next(it))
    args = [a for m in operands for a in ([m.ptr, *m.dims] if isinstance(m, MemRef) else [m])]
    if out_index is None:
        _profiled(g, b, launcher.args[0], lambda bb: bb.call(fn, args))
    else:
        _profiled(g, b, launcher.args[0],
                  lambda bb: _run_parallel(g, bb, name, operands, args, out_index, block, ctx, dim))
    b.ret_void()
    return launcher


def _picked(func) -> set:
    """Positions of a kernel's buffer parameters it only reads at computed indices (a
    gather's table, an embedding's or a position table's rows for a few tokens, a slice of a
    larger buffer): their size says nothing of the kernel's work, which the largest buffer
    read along its loops, or written, stands for."""
    args = {id(a): i for i, a in enumerate(func.regions[0].blocks[0].args)}
    picked, other = set(), set()
    for op in func.walk():
        for k, v in enumerate(op.operands):
            if id(v) not in args or op.name == "memref.dim":
                continue
            computed = op.name == "memref.load" and k == 0 and any(
                getattr(x.owner, "name", "arith.constant") != "arith.constant"
                for x in op.operands[1:])
            (picked if computed else other).add(args[id(v)])
    return picked - other


def _run_parallel(g, b, name: str, operands: list, args: list, out_index: int, block: int,
                  ctx, dim: int = 0) -> None:
    """Parallel kernel `name` over the thread pool (its arguments in the slots at `ctx`) when
    the largest buffer it touches is big enough (but those it only picks elements of), else
    on this thread."""
    extent = operands[out_index].dims[dim]
    if block > 1:  # the loop counts blocks of dim 0
        extent = b.udiv(b.add(extent, ir.Constant(I64, block - 1)), ir.Constant(I64, block))
    sizes = collapse.extents(_kernel_func(g, name), g.target, operands.__getitem__)
    if len(sizes) > 1:  # the iterations of a collapsed nest (codegen/llvm/collapse.py)
        extent = sizes[0]
        for n in sizes[1:]:
            extent = b.mul(extent, n)
    total = ir.Constant(I64, 0)
    picked = _picked(_kernel_func(g, name))
    for i, m in enumerate(operands):
        if isinstance(m, MemRef) and i not in picked:
            size = ir.Constant(I64, 1)
            for d in m.dims:
                size = b.mul(size, d)
            total = b.select(b.icmp_signed(">", size, total), size, total)
    big = b.icmp_signed(">=", total, ir.Constant(I64, PARALLEL_MIN_ELEMENTS))
    with b.if_else(big) as (threaded, serial):
        with threaded:
            for i, v in enumerate(args):
                slot = b.gep(ctx, [ir.Constant(I64, i)], inbounds=True, source_etype=I64)
                b.store(b.ptrtoint(v, I64) if isinstance(v.type, ir.PointerType) else v, slot)
            run = g.declare("aot_parallel_for", VOID, [I64, PTR, PTR])
            b.call(run, [extent, g.tasks[name], ctx])
        with serial:
            b.call(g.functions[name], args + [ir.Constant(I64, 0), extent])


HOST_EMITTERS = {**COMMON_HOST_EMITTERS, "func.call": _host_call}
