"""The artifact's public face: entry points with the C ABI of runtime_c/aot_runtime.h, and
the metadata tables that describe them.

Each host function becomes `int NAME_F(const aot_tensor *args, aot_tensor *results)`,
checking every argument through the runtime before touching it and allocating (or
adopting) its results; a shape query becomes `NAME_F_output_shapes`. `NAME_aot_metadata`
(and the weak `aot_library_metadata`) return the library's table of entries, which the
Python loader and C callers read. The struct types here mirror aot_runtime.h.
"""
from __future__ import annotations

from llvmlite import ir

from abi.dtypes import dtype as abi_dtype
from abi.header import abi_version
from lowering.codegen.host.buffers import HostState
from lowering.codegen.llvm.types import I32, I64, PTR, MemRef
from lowering.ir.core import MemRefType, Operation

TENSOR_T = ir.LiteralStructType([PTR, PTR, I32, I32])  # aot_tensor
VALUE_INFO_T = ir.LiteralStructType([PTR, I32, I32, PTR])  # aot_value_info
ENTRY_INFO_T = ir.LiteralStructType([PTR, PTR, PTR, I32, I32, PTR, PTR, PTR])  # aot_entry_info
LIBRARY_INFO_T = ir.LiteralStructType([I32, I32, PTR, PTR])  # aot_library_info
ABI_VERSION = abi_version()  # aot_runtime.h's AOT_ABI_VERSION


def host_function(fn: ir.Function) -> ir.Function:
    """An entry or shape query, which LLVM leaves unoptimised (optnone): it is calls of
    kernels and a little integer arithmetic, run once per call of the library, and one long
    function that LLVM's O3 passes took most of a compile on (a 4k-op dynamic program: 2.1 of
    its 4.1 s of LLVM, and superlinear in the function's length). The kernels keep O3."""
    for attribute in ("nounwind", "noinline", "optnone"):
        fn.attributes.add(attribute)
    return fn


HOST_RESULT_FUNCTIONS = {"prepare": "aot_prepare_result", "unprepare": "aot_unprepare_result",
                         "adopt": "aot_adopt_result"}


def emit_entry(g, func: Operation, transfers=None, symbol_suffix: str = ""):
    """`int NAME_F(const aot_tensor *args, aot_tensor *results)`: (signature, function,
    argument infos, result infos). `transfers` (a device build's) moves arguments and results
    between memories and may name its own result functions; by default the build's
    (`g.transfers_factory`)."""
    from abi.signature import EntrySig, ValueSig
    fname = func.attrs["sym_name"]
    symbol = f"{g.name}_{fname}"
    fn_type = func.attrs["function_type"]
    n_in = func.attrs["aot.num_inputs"]
    block = func.regions[0].blocks[0]
    in_types = fn_type.inputs[:n_in]
    out_params = fn_type.inputs[n_in:]
    ret_types = fn_type.results
    result_types = list(out_params) + list(ret_types)
    arg_names = [a.hint if a.hint and not a.hint.startswith("arg") else f"arg{i}"
                 for i, a in enumerate(block.args[:n_in])]
    sig = EntrySig(fname, symbol,
                   [ValueSig(n, t.elem, tuple(t.shape)) for n, t in zip(arg_names, in_types)],
                   [ValueSig(f"result{i}", t.elem, tuple(t.shape))
                    for i, t in enumerate(result_types)])
    # a second entry of the same function (a device entry) names its tables apart
    tables = symbol + symbol_suffix
    infos_in = [value_info(g, v, f"{tables}.arg{i}") for i, v in enumerate(sig.args)]
    infos_out = [value_info(g, v, f"{tables}.res{i}") for i, v in enumerate(sig.results)]
    own = symbol_suffix or g.entry_suffix or ("__cpu" if g.dispatch_suffix is not None else "")
    fn = ir.Function(g.mod, ir.FunctionType(I32, [PTR, PTR]), name=symbol + own)
    if symbol_suffix:
        fn.linkage = "internal"
    host_function(fn)
    args_p, results_p = fn.args
    b = ir.IRBuilder(fn.append_basic_block("entry"))
    entry_name = g.string(fname)
    host = HostState(g, fn, results_p, entry_name)
    host.entry_builder = ir.IRBuilder(fn.entry_basic_block)
    # ownership flags live in the entry block so the failure exit may read them all
    for j in range(len(out_params)):
        owned = b.alloca(I32, name=f"owned{j}")
        b.store(ir.Constant(I32, 0), owned)
        host.owned.append((j, owned))
    if transfers is None and g.transfers_factory:
        transfers = g.transfers_factory(g)  # a device's copies
    values = checked_arguments(g, b, host, args_p, block.args[:n_in], infos_in, transfers)
    names = getattr(transfers, "RESULT_FUNCTIONS", HOST_RESULT_FUNCTIONS)
    host.unprepare_name = names["unprepare"]
    prepare = g.declare(names["prepare"], I32, [PTR, I32, PTR, PTR, PTR, PTR])
    for j, (arg, info) in enumerate(zip(block.args[n_in:], infos_out)):
        dims = g.const_array([d for d in arg.type.shape] or [0], f"{tables}.outdims{j}")
        owned = host.owned[j][1]
        rc = b.call(prepare, [results_p, ir.Constant(I32, j), info, entry_name, dims, owned])
        host.fail_if_nonzero(b, rc)
        values[arg] = tensor_memref(b, results_p, j, arg.type)
        if transfers:
            values[arg] = transfers.result(b, host, values[arg])
    returned = g.emit_ops(b, block.ops, values, host)
    if transfers:
        returned = [transfers.returned(b, host, mem) for mem in returned]
        transfers.finish(b, host)
    adopt = g.declare(names["adopt"], I32, [PTR, I32, PTR, PTR, PTR, PTR])
    for k, mem in enumerate(returned):
        j = len(out_params) + k
        dims = b.alloca(I64, size=max(len(mem.dims), 1))
        for d, dv in enumerate(mem.dims):
            b.store(dv, b.gep(dims, [ir.Constant(I64, d)], inbounds=True, source_etype=I64))
        if id(mem) in host.slots:  # the result (or adopt, on failure) owns it from here
            b.store(ir.Constant(PTR, None), host.slot(mem))
        rc = b.call(adopt, [results_p, ir.Constant(I32, j), infos_out[j], entry_name, mem.ptr, dims])
        host.fail_if_nonzero(b, rc)
    b.ret(ir.Constant(I32, 0))
    host.finish()
    return sig, fn, infos_in, infos_out


def emit_dispatch(g, entry):
    """`NAME_F` of a two-target artifact: the device build's entry when the runtime chose
    the device for this process, else the CPU build's (NAME_F__cpu)."""
    sig, cpu_fn, infos_in, infos_out = entry
    fn = ir.Function(g.mod, ir.FunctionType(I32, [PTR, PTR]), name=sig.symbol)
    fn.attributes.add("nounwind")
    device_fn = g.declare(sig.symbol + g.dispatch_suffix, I32, [PTR, PTR])
    b = ir.IRBuilder(fn.append_basic_block("entry"))
    use_device = b.call(g.declare("aot_gpu_use_device", I32, []), [])
    with b.if_then(b.icmp_signed("!=", use_device, ir.Constant(I32, 0))):
        b.ret(b.call(device_fn, list(fn.args)))
    b.ret(b.call(cpu_fn, list(fn.args)))
    return sig, fn, infos_in, infos_out


def emit_query(g, func: Operation, entries):
    """`int NAME_F_output_shapes(const aot_tensor *args, int64_t *dims, int64_t *peak)`."""
    name = func.attrs["aot.shape_query"]
    sig, _, infos_in, _ = next(e for e in entries if e[0].name == name)
    fn = ir.Function(g.mod, ir.FunctionType(I32, [PTR, PTR, PTR]),
                     name=f"{sig.symbol}_output_shapes")
    host_function(fn)
    args_p, dims_p, peak_p = fn.args
    b = ir.IRBuilder(fn.append_basic_block("entry"))
    entry_name = g.string(name)
    host = HostState(g, fn, None, entry_name)
    host.entry_builder = ir.IRBuilder(fn.entry_basic_block)
    block = func.regions[0].blocks[0]
    transfers = g.transfers_factory(g) if g.transfers_factory else None
    values = checked_arguments(g, b, host, args_p, block.args, infos_in, transfers)
    outs = g.emit_ops(b, block.ops, values, host)
    if transfers:
        transfers.finish(b, host)
    for i, v in enumerate(outs[:-1]):
        b.store(v, b.gep(dims_p, [ir.Constant(I64, i)], inbounds=True, source_etype=I64))
    b.store(outs[-1], peak_p)
    b.ret(ir.Constant(I32, 0))
    host.finish()
    return fn


def checked_arguments(g, b, host, args_p, block_args, infos, transfers) -> dict:
    """Each argument checked by the runtime against its signature (failing the call if it
    does not match), then taken as a buffer (moved to the device's memory by `transfers`)."""
    check = g.declare("aot_check_arg", I32, [PTR, I32, PTR, PTR])
    values = {}
    for i, (arg, info) in enumerate(zip(block_args, infos)):
        host.fail_if_nonzero(b, b.call(check, [args_p, ir.Constant(I32, i), info, host.entry_name]))
        values[arg] = tensor_memref(b, args_p, i, arg.type)
        if any(n is None or n == 0 for n in arg.type.shape):
            values[arg] = empty_safe(g, b, values[arg])
        if transfers:
            values[arg] = transfers.argument(b, host, values[arg])
    return values


def empty_safe(g, b, m: MemRef) -> MemRef:
    """An empty argument's data may be NULL (the ABI allows it), but a fused kernel reads each
    operand at a clamped index even where a select then takes another (pad, concatenate), so
    index 0 of an empty operand is read: NULL becomes a zeroed block wide enough for a vector
    of any element type. Found by the differential fuzzer (tests/tooling/fuzz/differential.py)."""
    dummy = g.mod.globals.get(f"{g.name}.empty_data")
    if dummy is None:
        at = ir.ArrayType(I64, 64)
        dummy = ir.GlobalVariable(g.mod, at, name=f"{g.name}.empty_data")
        dummy.linkage = "private"
        dummy.global_constant = True
        dummy.initializer = ir.Constant(at, None)
        dummy.align = 64
    null = b.icmp_unsigned("==", m.ptr, ir.Constant(PTR, None))
    return MemRef(b.select(null, dummy, m.ptr), m.dims, m.elem)


def tensor_memref(b, tensors, i, t: MemRefType) -> MemRef:
    """The i-th aot_tensor at `tensors` as a buffer; static dims become constants."""
    slot = b.gep(tensors, [ir.Constant(I64, i)], inbounds=True, source_etype=TENSOR_T)
    data = b.load(b.gep(slot, [ir.Constant(I32, 0), ir.Constant(I32, 0)], inbounds=True,
                        source_etype=TENSOR_T), typ=PTR)
    dims_p = b.load(b.gep(slot, [ir.Constant(I32, 0), ir.Constant(I32, 1)], inbounds=True,
                          source_etype=TENSOR_T), typ=PTR)
    dims = []
    for d, n in enumerate(t.shape):
        if n is not None:
            dims.append(ir.Constant(I64, n))
        else:
            dims.append(b.load(b.gep(dims_p, [ir.Constant(I64, d)], inbounds=True,
                                     source_etype=I64), typ=I64))
    return MemRef(data, dims, t.elem)


def value_info(g, v, name):
    dims = g.const_array([-1 if d is None else d for d in v.dims] or [0], name + ".dims")
    var = ir.GlobalVariable(g.mod, VALUE_INFO_T, name=name)
    var.global_constant = True
    var.linkage = "private"
    var.initializer = ir.Constant(VALUE_INFO_T, [g.string(v.name), ir.Constant(I32, abi_dtype(v.dtype).code),
                                                 ir.Constant(I32, len(v.dims)), dims])
    return var


def emit_metadata(g, entries):
    def array(items, t, name):
        at = ir.ArrayType(t, max(len(items), 1))
        var = ir.GlobalVariable(g.mod, at, name=name)
        var.global_constant = True
        var.linkage = "private"
        var.initializer = ir.Constant(at, [i.initializer for i in items] if items else None)
        return var
    infos = []
    for sig, fn, ins, outs in entries:
        a = array(ins, VALUE_INFO_T, f"{sig.symbol}.args")
        r = array(outs, VALUE_INFO_T, f"{sig.symbol}.results")
        query = g.query_fns.get(sig.name)
        infos.append(ir.Constant(ENTRY_INFO_T, [g.string(sig.name), g.string(sig.symbol), fn,
                                                ir.Constant(I32, len(ins)), ir.Constant(I32, len(outs)),
                                                a, r, query if query is not None
                                                else ir.Constant(PTR, None)]))
    at = ir.ArrayType(ENTRY_INFO_T, len(infos))
    table = ir.GlobalVariable(g.mod, at, name=f"{g.name}.entries")
    table.global_constant = True
    table.linkage = "private"
    table.initializer = ir.Constant(at, infos)
    lib = ir.GlobalVariable(g.mod, LIBRARY_INFO_T, name=f"{g.name}.library")
    lib.global_constant = True
    lib.linkage = "private"
    lib.initializer = ir.Constant(LIBRARY_INFO_T, [ir.Constant(I32, ABI_VERSION),
                                                   ir.Constant(I32, len(infos)),
                                                   g.string(g.name), table])
    for sym, linkage in ((f"{g.name}_aot_metadata", None), ("aot_library_metadata", "weak")):
        fn = ir.Function(g.mod, ir.FunctionType(PTR, []), name=sym)
        if linkage:
            fn.linkage = linkage
        ir.IRBuilder(fn.append_basic_block("entry")).ret(lib)
    g.entries = [e[0] for e in entries]

