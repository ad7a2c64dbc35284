"""Host code of every target: the ops only an entry point runs, and its failure exit.

Entry points own memory (heap and stack buffers, freed on every failure path) and report
errors through the runtime; kernels do neither, so these emitters (`HOST_EMITTERS`) apply
only while emitting a host function. A target adds how its host code calls a kernel
(`func.call`: codegen/cpu/host.py hands it to the thread pool, codegen/cuda/host.py
launches it) and may replace the buffer ops (device memory).
"""
from __future__ import annotations

from llvmlite import ir

from abi.dtypes import dtype as abi_dtype
from lowering.codegen.llvm.types import I1, I8, I32, I64, PTR, VOID, MemRef, loop_hint, storage_type


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


def _host_row_view(g, b, op, values, host):
    """buf[row]: the argument's pointer moved `row` rows on, its dims after the first."""
    src, row = (values[v] for v in op.operands)
    offset = row
    for d in src.dims[1:]:
        offset = b.mul(offset, d)
    ptr = b.gep(src.ptr, [offset], inbounds=True, source_etype=storage_type(src.elem))
    return MemRef(ptr, list(src.dims[1:]), src.elem)


HOST_EMITTERS = {
    "memref.alloc": _host_alloc, "memref.dealloc": _host_dealloc,
    "memref.get_global": _host_get_global, "memref.copy": _host_copy, "aot.check": _host_check,
    "aot.row_view": _host_row_view,
}
