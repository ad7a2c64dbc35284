"""Host code on the CPU: the ops only an entry point runs, and the thread-pool dispatch.

Entry points own memory (heap and stack buffers, freed on every failure path), report
errors through the runtime and hand big kernels to `aot_parallel_for`; kernels do none of
that, so these emitters (`HOST_EMITTERS`) apply only while emitting a host function.
"""
from __future__ import annotations

from llvmlite import ir

from abi.dtypes import dtype as abi_dtype
from lowering.codegen.llvm import collapse
from lowering.codegen.llvm.types import I1, I8, I32, I64, PTR, VOID, MemRef, loop_hint


class HostState:
    """Per-entry bookkeeping: the shared failure exit that releases results made so far."""

    def __init__(self, gen, fn, results_p, entry_name):
        self.gen, self.fn, self.results_p, self.entry_name = gen, fn, results_p, entry_name
        self.owned = []
        self.slots = {}  # temporary buffer -> its entry-block slot, freed on failure
        self.tables = {}  # free function -> (its slots' entry-block array, how many)
        self.entry_builder = None
        self.fail_block = fn.append_basic_block("fail")
        self.fail_builder = ir.IRBuilder(self.fail_block)
        self.code = self.fail_builder.phi(I32, name="code")
        self.unprepare_name = "aot_unprepare_result"  # a device entry's results: its own

    def fail_if_nonzero(self, b, rc):
        ok = self.fn.append_basic_block("ok")
        self.code.add_incoming(rc, b.block)
        b.cbranch(b.icmp_signed("!=", rc, ir.Constant(I32, 0)), self.fail_block, ok)
        b.position_at_end(ok)

    def entry_alloca(self, t, size=None):
        """Stack space in the entry block: allocated once per call, whatever branch needs it."""
        eb = self.entry_builder
        with eb.goto_entry_block():
            eb.position_at_start(self.fn.entry_basic_block)
            return eb.alloca(t, size=size)

    def int64_slots(self, b, values: list):
        """The values (pointers as integers) in an array of 64-bit slots, as a kernel task or a
        device launch takes its parameters."""
        slots = self.entry_alloca(I64, size=max(len(values), 1))
        for i, v in enumerate(values):
            slot = b.gep(slots, [ir.Constant(I64, i)], inbounds=True, source_etype=I64)
            b.store(b.ptrtoint(v, I64) if isinstance(v.type, ir.PointerType) else v, slot)
        return slots

    def slot(self, mem: "MemRef", free: str = "aot_free"):
        """The entry-block slot holding `mem`'s pointer while it is live: the failure exit
        releases what it holds with `free` (a device target's buffers have their own). The
        slots of one `free` are one array the failure exit loops over: separate slots would
        become SSA values, one phi each at the exit with an input per failing call, which
        cost LLVM half its time on the entry (0.15 s of the GPT benchmark's 0.3 s)."""
        key = id(mem)
        if key not in self.slots:
            eb = self.entry_builder
            with eb.goto_entry_block():
                if free not in self.tables:
                    eb.position_at_start(self.fn.entry_basic_block)
                    self.tables[free] = [eb.alloca(PTR, size=ir.Constant(I64, 1)), 0]
                table = self.tables[free]
                eb.position_after(table[0])
                s = eb.gep(table[0], [ir.Constant(I64, table[1])], inbounds=True, source_etype=PTR)
                eb.store(ir.Constant(PTR, None), s)
                table[1] += 1
            self.slots[key] = (mem, s, free)
        return self.slots[key][1]

    def release(self, b, mem) -> str | None:
        """`mem` is handed on (into a loop's carried value or a branch's result), which frees
        it from now on: its own slot lets go. Returns the slot's free function, or None when
        `mem` had no slot (a stack buffer, an argument)."""
        entry = self.slots.get(id(mem))
        if entry is None:
            return None
        b.store(ir.Constant(PTR, None), entry[1])
        return entry[2]

    def take(self, b, mem, free: str) -> None:
        """`mem` (a loop's carried value, a branch's result) owns its pointer from here."""
        b.store(mem.ptr, self.slot(mem, free=free))

    def finish(self):
        fb = self.fail_builder
        for free, (table, n) in self.tables.items():
            table.operands = [ir.Constant(I64, n)]  # its size, known now
            loop = self.fn.append_basic_block("fail.free")
            done = self.fn.append_basic_block("fail.freed")
            before = fb.block
            fb.branch(loop)
            fb.position_at_end(loop)
            i = fb.phi(I64)
            i.add_incoming(ir.Constant(I64, 0), before)
            ptr = fb.load(fb.gep(table, [i], inbounds=True, source_etype=PTR), typ=PTR)
            fb.call(self.gen.declare(free, VOID, [PTR]), [ptr])
            nxt = fb.add(i, ir.Constant(I64, 1))
            i.add_incoming(nxt, loop)
            back = fb.cbranch(fb.icmp_unsigned("<", nxt, ir.Constant(I64, n)), loop, done)
            # unrolled, SROA would split the array into SSA values again
            back.set_metadata("llvm.loop", loop_hint(self.gen.mod, "llvm.loop.unroll.disable"))
            fb.position_at_end(done)
        unprepare = self.gen.declare(self.unprepare_name, VOID, [PTR, I32, I32])
        for j, owned in self.owned:
            fb.call(unprepare, [self.results_p, ir.Constant(I32, j), fb.load(owned, typ=I32)])
        fb.ret(self.code)


INT64_MAX = (1 << 63) - 1


def buffer_text(op, elem: str, shape) -> str:
    """How an out-of-memory message names the buffer `op` allocates: its type, the entry
    and the source location of the op it holds the result of."""
    dims = ",".join("?" if n is None else str(n) for n in shape)
    func = op
    while func is not None and func.name != "func.func":
        func = func.parent.parent.parent if func.parent and func.parent.parent else None
    entry = f" in {func.attrs['sym_name']}" if func is not None else ""
    return f"the {elem}[{dims}] buffer{entry} at {op.loc}"


def checked_byte_size(g, b, host, elem: str, dims: list, what: str):
    """The byte size of an `elem` buffer of `dims`, computed at run time with every multiply
    checked: a product past int64 (dims that are each fine, from empty arguments or huge
    static dims, whose product is not) fails the call with status 2 and "out of memory:
    needs more than 2^63-1 bytes for <what>", where a wrapped size would have allocated a
    small block that the kernel then writes past."""
    smul = g.intrinsic("llvm.smul.with.overflow.i64", ir.LiteralStructType([I64, I1]), [I64, I64])
    size, overflow = ir.Constant(I64, abi_dtype(elem).size), None
    for d in dims:
        product = b.call(smul, [size, d])
        size = b.extract_value(product, 0)
        wrapped = b.extract_value(product, 1)
        overflow = wrapped if overflow is None else b.or_(overflow, wrapped)
    if overflow is None:
        return size
    too_big = host.fn.append_basic_block("alloc.too_big")
    ok = host.fn.append_basic_block("alloc.size_ok")
    b.cbranch(overflow, too_big, ok)
    b.position_at_end(too_big)
    set_error = g.declare_vararg("aot_set_error", I32, [I32, PTR])
    rc = b.call(set_error, [ir.Constant(I32, 2), g.string("out of memory: needs more than %lld bytes for %s"),
                            ir.Constant(I64, INT64_MAX), g.string(what)])
    host.code.add_incoming(rc, b.block)
    b.branch(host.fail_block)
    b.position_at_end(ok)
    return size


def _host_alloc(g, b, op, values, host):
    t = op.results[0].type
    if op.attrs.get("aot.stack"):  # small, static, never escapes: an entry-block slot
        size = abi_dtype(t.elem).size
        for n in t.shape:
            size *= n
        eb = host.entry_builder
        with eb.goto_entry_block():
            eb.position_at_start(host.fn.entry_basic_block)
            slot = eb.alloca(ir.ArrayType(I8, max(size, 1)))
            slot.align = 64
            # an untyped pointer, as every buffer is (IRBuilder.bitcast would return the
            # slot itself: llvmlite deems all pointer types equal)
            ptr = ir.instructions.CastInstr(eb.block, "bitcast", slot, PTR)
            eb._insert(ptr)
        mem = MemRef(ptr, [ir.Constant(I64, n) for n in t.shape], t.elem)
        mem.on_stack = True
        return mem
    dims = [values[v] for v in op.operands]
    it = iter(dims)
    shape = [ir.Constant(I64, n) if n is not None else next(it) for n in t.shape]
    what = buffer_text(op, t.elem, t.shape)
    size = checked_byte_size(g, b, host, t.elem, shape, what)
    ptr = b.call(g.declare("aot_alloc_for", PTR, [I64, PTR]), [size, g.string(what)])
    is_null = b.icmp_unsigned("==", b.ptrtoint(ptr, I64), ir.Constant(I64, 0))
    rc = b.select(is_null, ir.Constant(I32, 2), ir.Constant(I32, 0))
    host.fail_if_nonzero(b, rc)
    mem = MemRef(ptr, shape, t.elem)
    b.store(ptr, host.slot(mem))
    return mem


def _host_dealloc(g, b, op, values, host):
    mem = values[op.operands[0]]
    if getattr(mem, "on_stack", False):
        return
    b.call(g.declare("aot_free", VOID, [PTR]), [mem.ptr])
    b.store(ir.Constant(PTR, None), host.slot(mem))


def _host_check(g, b, op, values, host):
    """`aot.check %ok, %args... {message}`: fail the call with the message unless %ok."""
    cond, *args = (values[v] for v in op.operands)
    fail = host.fn.append_basic_block("check.fail")
    ok = host.fn.append_basic_block("check.ok")
    b.cbranch(cond, ok, fail)
    b.position_at_end(fail)
    set_error = g.declare_vararg("aot_set_error", I32, [I32, PTR])
    rc = b.call(set_error, [ir.Constant(I32, 3), g.string(op.attrs["message"])] + list(args))
    host.code.add_incoming(rc, b.block)
    b.branch(host.fail_block)
    b.position_at_end(ok)


def _host_get_global(g, b, op, values, host):
    t = op.results[0].type
    return MemRef(g.globals[op.attrs["name"].name], [ir.Constant(I64, n) for n in t.shape], t.elem)


def _host_copy(g, b, op, values, host):
    """Copies the destination's size: a prefix when the source is an upper-bound buffer."""
    src, dst = (values[v] for v in op.operands)
    size = ir.Constant(I64, abi_dtype(src.elem).size)
    for d in dst.dims:
        size = b.mul(size, d)
    memcpy = g.intrinsic("llvm.memcpy.p0.p0.i64", VOID, [PTR, PTR, I64, I1])
    b.call(memcpy, [dst.ptr, src.ptr, size, ir.Constant(I1, 0)])


def emit_task(g, kernel):
    """`void task(void *ctx, i64 begin, i64 end)` for aot_parallel_for: the kernel's
    arguments come from an array of 64-bit slots at ctx. The kernel is not inlined into it:
    the host calls it directly too (a small run), and LLVM would optimise and compile its
    loops twice (40% of such a kernel's LLVM time) for one call saved per task."""
    kernel.attributes.add("noinline")
    task = ir.Function(g.mod, ir.FunctionType(VOID, [PTR, I64, I64]), name=kernel.name + ".task")
    task.linkage = "internal"
    ctx, begin, end = task.args
    b = ir.IRBuilder(task.append_basic_block("entry"))
    args = []
    for i, param in enumerate(kernel.args[:-2]):
        slot = b.load(b.gep(ctx, [ir.Constant(I64, i)], inbounds=True, source_etype=I64), typ=I64)
        args.append(b.inttoptr(slot, PTR) if isinstance(param.type, ir.PointerType) else slot)
    b.call(kernel, args + [begin, end])
    b.ret_void()
    return task


PARALLEL_MIN_ELEMENTS = 1 << 15  # largest buffer of a kernel below which threads cost more than they save


def _profiled(g, b, label: str, call) -> None:
    """`call(b)` emits a kernel call; with AOT_PROFILE set at run time (the runtime's
    aot__profile_enabled, runtime_c/profile.c) it is timed and counted under `label`.
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
        b.call(g.declare("aot__profile_add", VOID, [PTR, I64]), [g.string(label), start])


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
    name = op.attrs["callee"].name
    _profiled(g, b, _kernel_label(g, name), lambda bb: _call_kernel(g, bb, op, values, host))


def _call_kernel(g, b, op, values, host):
    name = op.attrs["callee"].name
    fn = g.functions[name]
    args = []
    for v in op.operands:
        m = values[v]
        args += [m.ptr] + list(m.dims) if isinstance(m, MemRef) else [m]
    if name not in g.tasks:
        b.call(fn, args)
        return
    out = values[op.operands[op.attrs["aot.parallel"]]]
    block = op.attrs.get("aot.parallel_block", 1)
    extent = out.dims[0]
    if block > 1:  # the loop counts blocks of dim 0
        extent = b.udiv(b.add(extent, ir.Constant(I64, block - 1)), ir.Constant(I64, block))
    sizes = collapse.extents(_kernel_func(g, name), g.target, lambda i: values[op.operands[i]])
    if len(sizes) > 1:  # the iterations of a collapsed nest (codegen/llvm/collapse.py)
        extent = sizes[0]
        for n in sizes[1:]:
            extent = b.mul(extent, n)
    # the work is the largest buffer the kernel touches (a reduction's input, not its output)
    total = ir.Constant(I64, 0)
    for v in op.operands:
        m = values[v]
        if isinstance(m, MemRef):
            size = ir.Constant(I64, 1)
            for d in m.dims:
                size = b.mul(size, d)
            total = b.select(b.icmp_signed(">", size, total), size, total)
    big = b.icmp_signed(">=", total, ir.Constant(I64, PARALLEL_MIN_ELEMENTS))
    with b.if_else(big) as (threaded, serial):
        with threaded:
            ctx = host.int64_slots(b, args)
            run = g.declare("aot_parallel_for", VOID, [I64, PTR, PTR])
            b.call(run, [extent, g.tasks[name], ctx])
        with serial:
            b.call(fn, args + [ir.Constant(I64, 0), extent])


HOST_EMITTERS = {
    "memref.alloc": _host_alloc, "memref.dealloc": _host_dealloc,
    "memref.get_global": _host_get_global, "memref.copy": _host_copy, "func.call": _host_call,
    "aot.check": _host_check,
}
