"""LLVM stage: the driver that turns a loop-stage module into LLVM IR (llvmlite).

It walks the module (globals, kernels, host functions) and the bodies (blocks, scf.for,
scf.while, aot.switch, calls between kernels), looking each op up in the emitter tables:
llvm/emitters.py for scalar and memory ops, cpu/host.py for what only host code does;
host/entry_abi.py wraps host functions as the artifact's entry points. A buffer is a data
pointer plus one i64 per dim (dense, row-major). Machine code: llvm/machine.py.
"""
from __future__ import annotations

import numpy as np
from llvmlite import ir

from lowering.codegen.cpu import conv_direct, conv_winograd
from lowering.codegen.cpu.gemm import pack_constant_b
from lowering.codegen.cpu.helpers import MAKERS
from lowering.codegen.cpu.host import HOST_EMITTERS, emit_task
from lowering.codegen.host import entry_abi
from lowering.codegen.llvm import collapse
from lowering.codegen.llvm.emitters import EMITTERS
from lowering.codegen.llvm.merge import merge_functions
from lowering.codegen.llvm.partition import split
from lowering.codegen.llvm.types import (
    F32,
    I1,
    I8,
    I16,
    I32,
    I64,
    PTR,
    VOID,
    MemRef,
    llvm_type,
    loop_hint,
    storage_type,
)
from lowering.frontend.printer import print_op
from lowering.ir.core import (
    CompileError,
    DenseAttr,
    MemRefType,
    Module,
    Operation,
    component,
    is_complex,
    numpy_dtype,
)

# An innermost loop whose body is more than this many loop-stage ops (a fused elementwise
# chain with inline exp/tanh/logistic: 68-205 ops; the plain six-op chain: 13) is
# interleaved this many times by LLVM's vectoriser. Its own cost model picks 1 for such long
# bodies, and one vector iteration is then one long dependency chain (exp's reduction,
# polynomial and scaling, a division, the next function...) the core cannot overlap far
# enough: the tanh -> exp -> logistic chain of benchmarks/elementwise_chain.py took 33 ms
# with 1 and 21 ms with 4 (2 gave 30 ms), one thread, AVX-512 on this machine. 48, not 60: exp
# alone (59 ops), tanh alone (57) and softmax's exp loop (52 since its one-sided exp) took
# 0.86, 0.88-0.84 and 0.93 of their time interleaved 4 times rather than LLVM's 2 (AVX2, Zen 3,
# one thread, 2026-11-28-attention-decode section 5).
LONG_BODY = 48
LONG_BODY_INTERLEAVE = 4


def _runtime_extent_inside(block) -> bool:
    """Whether a loop nested in `block` runs over a `?` size of the kernel (an argument or
    a buffer's dim): LLVM's runtime unrolling of the loop around it (a `?` nest's dim-1
    loop, say) then copies that inner loop whole, its vector body, epilogue and remainder,
    to save one branch per outer iteration. deberta_v2's `?` iota kernel (a [?, ?, ?, 1]
    store) took 92 ms of LLVM for it, 47 without. Static kernels are left as they were
    (their window and padding ranges, computed per row, keep the unrolling they had)."""
    for op in block.ops:
        if op.name == "scf.for" and (_is_size(op.operands[1])
                                     or _runtime_extent_inside(op.regions[0].blocks[0])):
            return True
        if op.name != "scf.for" and op.regions and any(
                _runtime_extent_inside(blk) for r in op.regions for blk in r.blocks):
            return True
    return False


def _is_size(v) -> bool:
    """A kernel's run-time size: one of its arguments, or a dim of a buffer."""
    owner = v.owner
    if isinstance(owner, Operation):
        return owner.name == "memref.dim"
    region = getattr(owner, "parent", None)
    return getattr(getattr(region, "parent", None), "name", None) == "func.func"


class LLVMGen:
    """One module's generation: the LLVM module, its globals and functions, and the helpers
    every emitter calls back into (declare, const, string, element_ptr, emit_ops...)."""

    def __init__(self, module: Module, name: str, target, host_emitters=HOST_EMITTERS,
                 emitters=EMITTERS):
        self.module = module
        self.emitters = emitters  # kernel and host scalar ops: EMITTERS, plus a device's own
        self.host_emitters = host_emitters  # the host's ops: the CPU's, or a device target's
        self.name = name
        self.target = target  # lowering.target.Target
        self.mod = ir.Module(name=name)
        self.globals = {}
        self.functions = {}
        self.tasks = {}  # parallel kernel -> its aot_parallel_for task
        self.parallel_range = None  # (begin, end) while emitting a parallel kernel
        self.strings = {}
        self.transfers_factory = None  # a device target's argument/result copies (cuda/host.py)
        # one artifact for two targets (--target cuda,cpu): the device build's entries are
        # NAME_F + entry_suffix, without metadata; the CPU build's public NAME_F picks one
        self.entry_suffix = ""
        self.metadata = True
        self.dispatch_suffix = None  # on the CPU build: the device entries' suffix
        self.reciprocal_divisions = set()  # divf ops by a loop-invariant divisor (emit_for)
        self.helpers = None  # a cpu/helpers.HelperObjects: matmul and convolution as objects

    # helpers ---------------------------------------------------------------------------
    def cpu_helper(self, kind: str, elem: str) -> ir.Function:
        """The entry of the CPU's packed matmul ("gemm"), direct or Winograd convolution ("conv",
        "winograd") for `elem`: declared, when the module's helpers are cached objects
        (cpu/helpers.py), else emitted into the module."""
        if self.helpers is not None:
            return self.helpers.declare(self.mod, kind, elem)
        return MAKERS[kind](self.mod, elem, llvm_type(elem),
                            self.declare("aot_parallel_for", VOID, [I64, PTR, PTR]),
                            self.target.blocking(elem))

    def declare(self, name, ret, args):
        if name in self.mod.globals:
            return self.mod.globals[name]
        return ir.Function(self.mod, ir.FunctionType(ret, args), name=name)

    def declare_vararg(self, name, ret, args):
        if name in self.mod.globals:
            return self.mod.globals[name]
        return ir.Function(self.mod, ir.FunctionType(ret, args, var_arg=True), name=name)

    def intrinsic(self, name, ret, args):
        return self.declare(name, ret, args)

    def const(self, value, elem):
        t = llvm_type(elem)
        if is_complex(elem):
            z = complex(value)
            return ir.Constant(t, [self.const(z.real, component(elem)), self.const(z.imag, component(elem))])
        if elem == "bf16":
            import ml_dtypes
            bits = np.array(value, dtype=ml_dtypes.bfloat16).view(np.uint16)
            return ir.Constant(I16, int(bits))
        if elem in ("f16", "f32", "f64"):
            return ir.Constant(t, float(np.array(value, dtype=numpy_dtype(elem))))
        if elem == "i1":
            return ir.Constant(I1, int(bool(value)))
        return ir.Constant(t, int(value) & ((1 << t.width) - 1))

    def bf16_to_f32(self, b, x):
        return b.bitcast(b.shl(b.zext(x, I32), ir.Constant(I32, 16)), F32)

    def f32_to_bf16(self, b, x):
        """Round to nearest even; NaN stays a quiet NaN."""
        bits = b.bitcast(x, I32)
        lsb = b.and_(b.lshr(bits, ir.Constant(I32, 16)), ir.Constant(I32, 1))
        rounded = b.add(b.add(bits, ir.Constant(I32, 0x7FFF)), lsb)
        is_nan = b.fcmp_unordered("uno", x, x)
        nan = ir.Constant(I32, 0x7FC00000)
        return b.trunc(b.lshr(b.select(is_nan, nan, rounded), ir.Constant(I32, 16)), I16)

    def string(self, text: str):
        if text not in self.strings:
            data = bytearray(text.encode() + b"\0")
            t = ir.ArrayType(I8, len(data))
            g = ir.GlobalVariable(self.mod, t, name=f".str.{len(self.strings)}")
            g.global_constant = True
            g.linkage = "private"
            g.initializer = ir.Constant(t, data)
            self.strings[text] = g
        return self.strings[text]

    def const_array(self, values, name, elem_t=I64):
        t = ir.ArrayType(elem_t, len(values))
        g = ir.GlobalVariable(self.mod, t, name=name)
        g.global_constant = True
        g.linkage = "private"
        g.initializer = ir.Constant(t, [ir.Constant(elem_t, v) for v in values])
        return g

    def element_ptr(self, b, mem: MemRef, idx):
        linear = None
        for d, i in enumerate(idx):
            linear = i if linear is None else b.add(b.mul(linear, mem.dims[d], flags=["nsw", "nuw"]), i,
                                                    flags=["nsw", "nuw"])
        if linear is None:
            return mem.ptr
        return b.gep(mem.ptr, [linear], inbounds=True, source_etype=storage_type(mem.elem))

    # module ----------------------------------------------------------------------------
    def run(self, emit_kernels: bool = True):
        """The whole module; without `emit_kernels` only host code, whose host emitters then
        launch kernels compiled elsewhere (a device's)."""
        for op in self.module.ops:
            if op.name == "memref.global":
                self.emit_global(op)
        kernels = [f for f in self.module.functions() if "aot.kernel" in f.attrs] if emit_kernels else []
        hosts = [f for f in self.module.functions() if "aot.kernel" not in f.attrs
                 and "aot.shape_query" not in f.attrs]
        queries = {f.attrs["aot.shape_query"]: f for f in self.module.functions()
                   if "aot.shape_query" in f.attrs}
        same_as = identical_kernels(kernels)
        kernels = [f for f in kernels if f.attrs["sym_name"] not in same_as]
        for f in kernels:
            fn = self.declare_kernel(f)
            if f.attrs.get("aot.parallel"):  # the thread pool's entry into it
                self.tasks[f.attrs["sym_name"]] = emit_task(self, fn)
        for copy, original in same_as.items():  # calls to a copy call its original
            self.functions[copy] = self.functions[original]
            if original in self.tasks:
                self.tasks[copy] = self.tasks[original]
        for f in kernels:
            self.emit_kernel(f)
        entries = [entry_abi.emit_entry(self, f) for f in hosts]
        if not self.metadata:
            self.entries = [e[0] for e in entries]
            return self.mod
        if self.dispatch_suffix is not None:
            entries = [entry_abi.emit_dispatch(self, e) for e in entries]
        self.query_fns = {name: entry_abi.emit_query(self, f, entries) for name, f in queries.items()}
        entry_abi.emit_metadata(self, entries)
        return self.mod

    def emit_global(self, op: Operation):
        raw = global_bytes(op)
        t = ir.ArrayType(I8, len(raw))
        g = ir.GlobalVariable(self.mod, t, name=global_symbol(self.name, op))
        g.global_constant = True
        g.align = 64
        if op.attrs.get("aot.external_data"):  # its bytes come in an object of their own
            g.linkage = "external"
        else:
            g.linkage = "private"
            g.initializer = ir.Constant(t, bytearray(raw))
        self.globals[op.attrs["sym_name"]] = g

    def declare_kernel(self, func: Operation):
        params = []
        for t in func.attrs["function_type"].inputs:
            params += [PTR] + [I64] * t.rank if isinstance(t, MemRefType) else [llvm_type(t.name)]
        if func.attrs.get("aot.parallel"):
            params += [I64, I64]  # the [begin, end) of its outermost loop
        fn = ir.Function(self.mod, ir.FunctionType(VOID, params),
                         name=f"{self.name}.{func.attrs['sym_name']}")
        fn.linkage = "internal"
        fn.attributes.add("nounwind")
        self.functions[func.attrs["sym_name"]] = fn
        return fn

    def emit_kernel(self, func: Operation):
        fn = self.functions[func.attrs["sym_name"]]
        block = func.regions[0].blocks[0]
        values = {}
        i = 0
        # an argument that is the same buffer as an earlier one (in place) is read and written
        # through the earlier one's pointer: the pointers used are distinct buffers, noalias,
        # and LLVM neither checks overlaps at run time nor keeps a scalar copy of each loop
        same_as = func.attrs.get("aot.aliased") or range(len(block.args))
        for k, arg in enumerate(block.args):
            if not isinstance(arg.type, MemRefType):  # a run-time dim
                values[arg] = fn.args[i]
                i += 1
                continue
            ptr = fn.args[i]
            if same_as[k] != k:
                values[arg] = values[block.args[same_as[k]]]
            else:
                ptr.add_attribute("noalias")
                # a static dim of 1 as the constant: a stride it makes 1 is then known to
                # LLVM, whose vectoriser no longer checks symbolic strides (machine.py)
                dims = [ir.Constant(I64, 1) if n == 1 else a for n, a in
                        zip(arg.type.shape, fn.args[i + 1:i + 1 + arg.type.rank])]
                values[arg] = MemRef(ptr, dims, arg.type.elem)
            i += 1 + arg.type.rank
        b = ir.IRBuilder(fn.append_basic_block("entry"))
        self.parallel_range = (fn.args[-2], fn.args[-1]) if func.attrs.get("aot.parallel") else None
        self.emit_ops(b, block.ops, values, None)
        b.ret_void()
        self.parallel_range = None

    # bodies ----------------------------------------------------------------------------
    def emit_ops(self, b, ops, values, host):
        for op in ops:
            name = op.name
            if name == "scf.for":
                self.emit_for(b, op, values, host)
                continue
            if name == "scf.while":
                self.emit_while(b, op, values, host)
                continue
            if name == "aot.switch":
                self.emit_switch(b, op, values, host)
                continue
            if name in ("scf.yield", "func.return", "scf.condition"):
                return [values[v] for v in op.operands]
            if host is not None and name in self.host_emitters:
                results = self.host_emitters[name](self, b, op, values, host)
            else:
                emit = self.emitters.get(name)
                if emit is None:
                    raise CompileError(f"'{name}': no LLVM lowering", op.loc)
                results = emit(self, b, op, [values[v] for v in op.operands])
            if op.results:
                values[op.results[0]] = results
        return []

    def emit_for(self, b, op, values, host):
        lb, ub, step = (values[v] for v in op.operands[:3])
        if op.attrs.get("aot.parallel") and self.parallel_range is not None:
            lb, ub = self.parallel_range  # this thread's share of the outermost loop
        lb, ub = collapse.loop_bounds(self, b, op, values, lb, ub)  # or of the whole nest
        inits = [values[v] for v in op.operands[3:]]
        pre = b.block
        fn = b.function
        header = fn.append_basic_block("for.cond")
        body = fn.append_basic_block("for.body")
        exit_ = fn.append_basic_block("for.end")
        b.branch(header)
        b.position_at_end(header)
        iv = b.phi(I64, name="iv")
        iv.add_incoming(lb, pre)
        phis = []
        for v in inits:
            p = b.phi(v.type)
            p.add_incoming(v, pre)
            phis.append(p)
        b.cbranch(b.icmp_signed("<", iv, ub), body, exit_)
        b.position_at_end(body)
        block = op.regions[0].blocks[0]
        if self.target.name == "cpu":  # (NVPTX would take arcp for an approximate division)
            self.reciprocal_divisions.update(invariant_divisions(block))
        values[block.args[0]] = iv
        for a, p in zip(block.args[1:], phis):
            values[a] = p
        yielded = self.emit_ops(b, block.ops, values, host)
        nxt = b.add(iv, step, flags=["nsw", "nuw"])
        latch = b.block
        iv.add_incoming(nxt, latch)
        for p, y in zip(phis, yielded):
            p.add_incoming(y, latch)
        br = b.branch(header)
        innermost = not any(o.regions for o in block.ops)
        if not innermost and _runtime_extent_inside(block):
            br.set_metadata("llvm.loop", loop_hint(b.module, "llvm.loop.unroll.runtime.disable"))
        elif innermost and 0 < self.target.unroll_body_limit < len(block.ops):
            br.set_metadata("llvm.loop", loop_hint(b.module, "llvm.loop.unroll.disable"))
        elif innermost and len(block.ops) > LONG_BODY:
            br.set_metadata("llvm.loop", loop_hint(b.module, "llvm.loop.interleave.count",
                                                   ir.Constant(I32, LONG_BODY_INTERLEAVE)))
        b.position_at_end(exit_)
        for r, p in zip(op.results, phis):
            values[r] = p

    def phi_values(self, b, types, incoming):
        """Phis for values flowing into a join: a buffer is its pointer and its dynamic dims."""
        out = []
        for k, t in enumerate(types):
            if isinstance(t, MemRefType):
                ptr = b.phi(PTR)
                dims = []
                for d, n in enumerate(t.shape):
                    if n is not None:
                        dims.append(ir.Constant(I64, n))
                    else:
                        dims.append(b.phi(I64))
                for vals, block in incoming:
                    m = vals[k]
                    ptr.add_incoming(m.ptr, block)
                    for dv, src in zip(dims, m.dims):
                        if isinstance(dv, ir.PhiInstr):
                            dv.add_incoming(src, block)
                out.append(MemRef(ptr, dims, t.elem))
            else:
                p = b.phi(llvm_type(t.name))
                for vals, block in incoming:
                    p.add_incoming(vals[k], block)
                out.append(p)
        return out

    def add_incoming(self, phis, vals, block):
        for p, v in zip(phis, vals):
            if isinstance(p, MemRef):
                p.ptr.add_incoming(v.ptr, block)
                for dv, src in zip(p.dims, v.dims):
                    if isinstance(dv, ir.PhiInstr):
                        dv.add_incoming(src, block)
            else:
                p.add_incoming(v, block)

    def emit_while(self, b, op, values, host):
        """scf.while: the before region decides, the after region computes the next values."""
        types = [v.type for v in op.operands]
        fn = b.function
        header = fn.append_basic_block("while.cond")
        body = fn.append_basic_block("while.body")
        exit_ = fn.append_basic_block("while.end")
        inits = [values[v] for v in op.operands]
        frees = self.hand_on(b, inits, host)
        pre = b.block
        b.branch(header)
        b.position_at_end(header)
        carried = self.phi_values(b, types, [(inits, pre)])
        self.take_over(b, carried, frees, host)
        before, after = (r.blocks[0] for r in op.regions)
        for a, v in zip(before.args, carried):
            values[a] = v
        cond = self.emit_ops(b, before.ops, values, host)
        pred, forwarded = cond[0], cond[1:]
        b.cbranch(pred, body, exit_)
        b.position_at_end(body)
        for a, v in zip(after.args, forwarded):
            values[a] = v
        nxt = self.emit_ops(b, after.ops, values, host)
        self.hand_on(b, nxt, host)
        self.add_incoming(carried, nxt, b.block)
        b.branch(header)
        b.position_at_end(exit_)
        for r, v in zip(op.results, forwarded):
            values[r] = v

    def emit_switch(self, b, op, values, host):
        """aot.switch: one block per region, chosen by the index (the last one by default)."""
        fn = b.function
        index = values[op.operands[0]]
        blocks = [fn.append_basic_block(f"case.{i}") for i in range(len(op.regions))]
        exit_ = fn.append_basic_block("case.end")
        sw = b.switch(index, blocks[-1])
        for i, blk in enumerate(blocks[:-1]):
            sw.add_case(ir.Constant(I64, i), blk)
        incoming, frees = [], [None] * len(op.results)
        for region, blk in zip(op.regions, blocks):
            b.position_at_end(blk)
            out = self.emit_ops(b, region.blocks[0].ops, values, host)
            frees = [f or g for f, g in zip(frees, self.hand_on(b, out, host))]
            incoming.append((out, b.block))
            b.branch(exit_)
        b.position_at_end(exit_)
        results = self.phi_values(b, [r.type for r in op.results], incoming)
        self.take_over(b, results, frees, host)
        for r, v in zip(op.results, results):
            values[r] = v

    @staticmethod
    def hand_on(b, mems: list, host) -> list:
        """Buffers flowing into a join (a loop's carried values, a branch's results) stop
        being freed by their own slots on failure: the join's values own them (take_over), so
        a failure later frees each buffer once, whichever iteration or branch made it."""
        if host is None:
            return [None] * len(mems)
        return [host.release(b, m) if isinstance(m, MemRef) else None for m in mems]

    @staticmethod
    def take_over(b, mems: list, frees: list, host) -> None:
        for m, free in zip(mems, frees):
            if host is not None and free is not None:
                host.take(b, m, free)


def invariant_divisions(block) -> list:
    """The float divisions in a loop body whose divisor is computed before the loop (not a
    constant): softmax's e / sum(e) over a row. They are emitted with `arcp`, so LLVM's LICM
    computes 1 / divisor once before the loop and multiplies: a vdivps ymm costs ~3.5-5
    cycles where a vmulps costs 0.5, and the division pass was a quarter of a softmax row's
    time. x * (1/y) is within 1.5 ulp of x / y (two roundings) instead of 0.5; a division by
    a constant stays a division (LLVM would turn it into a multiplication by an inexact
    reciprocal too)."""
    inside = set(block.args)
    for o in block.ops:
        inside.update(o.results)
    found = []
    for o in block.ops:
        if o.name == "arith.divf" and o.operands[1] not in inside:
            src = o.operands[1].owner
            if not (isinstance(src, Operation) and src.name == "arith.constant"):
                found.append(o)
    return found


def global_bytes(op: Operation) -> bytes:
    """A memref.global's initial value as the bytes of its buffer."""
    value: DenseAttr = op.attrs["initial_value"]
    arr = np.ascontiguousarray(value.array).astype(numpy_dtype(value.type.elem))
    if value.type.elem == "i1":
        arr = arr.astype(np.uint8)
    if "aot.packed_b" in op.attrs:  # a matmul's B, stored as its panels (passes/prepack.py)
        k, n, row, col, kc, nr = op.attrs["aot.packed_b"]
        flat = arr.ravel()
        matrix = flat[np.arange(k)[:, None] * row + np.arange(n)[None, :] * col]
        arr = pack_constant_b(matrix, kc, nr)
    if "aot.packed_conv" in op.attrs:  # a convolution's kernel as its NR panels, or + U
        shape, (kind, nr) = op.attrs["type"].shape, op.attrs["aot.packed_conv"]
        pack = conv_winograd.transform_constant if kind == "winograd" else conv_direct.pack_constant
        arr = pack(np.broadcast_to(arr, shape) if arr.size == 1 else arr.reshape(shape), nr)
    return arr.tobytes()


def identical_kernels(kernels: list) -> dict:
    """{kernel name: name of an earlier kernel with the same text}: the repeated layers of a
    model lower to kernels that differ only in their names (the GPT benchmark's 57 kernels
    are 18 distinct ones), and LLVM then optimises and compiles each once. Calls keep their
    own callee name, so a profile still tells the copies apart."""
    first, same_as = {}, {}
    for f in kernels:
        name = f.attrs["sym_name"]
        try:
            text = print_op(f).replace(f"@{name}(", "@kernel(", 1)
        except Exception:  # noqa: BLE001  (an attribute the printer cannot spell: no sharing)
            continue
        same_as[name] = first.setdefault(text, name)
    return {k: v for k, v in same_as.items() if k != v}


def global_symbol(name: str, op: Operation) -> str:
    return f"{name}.{op.attrs['sym_name']}"


def generate(module: Module, name: str, tm, target, dispatch_suffix: str | None = None,
             helpers=None) -> tuple[str, list]:
    """LLVM IR text of a loop-stage module for `target`, and the entry signatures. With
    `dispatch_suffix`, each entry NAME_F runs a device build's NAME_F<suffix> instead when
    the runtime finds the device (`aot_gpu_use_device`). With `helpers` (a
    cpu/helpers.HelperObjects), the matmul and convolution helpers are only declared, and
    `helpers` lists the objects to link."""
    texts, _, entries = generate_parts(module, name, tm, target, 1, dispatch_suffix, helpers)
    return texts[0], entries


def generate_parts(module: Module, name: str, tm, target, parts: int,
                   dispatch_suffix: str | None = None, helpers=None,
                   host_alone: bool = False) -> tuple[list, list, list]:
    """([IR text of each partition], [functions made hidden to cross them], entries): the
    module cut into at most `parts` modules for as many cores (llvm/partition.py; with
    `host_alone`, the first of several texts is the host code alone)."""
    gen = LLVMGen(module, name, target)
    gen.dispatch_suffix = dispatch_suffix
    gen.helpers = helpers
    mod = gen.run()
    merge_functions(mod)
    mod.triple = tm.triple
    mod.data_layout = str(tm.target_data)
    texts, promoted = split(mod, parts, host_alone) if parts > 1 else ([str(mod)], [])
    if not target.f16_in_hardware:  # the f16 conversions LLVM calls, in the module itself
        from lowering.codegen.llvm.softhalf import HALF_CONVERSIONS
        texts = [t + HALF_CONVERSIONS for t in texts]
    return texts, promoted, gen.entries
