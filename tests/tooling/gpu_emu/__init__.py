"""The emulated GPU grid: a `--target cuda` program built into a host library whose kernels are
the same NVPTX-flavoured LLVM IR that becomes the PTX, compiled for the host, launched by
emu.c's `aot_gpu_launch` with the threads of a block as OS threads. For tests only.

    lib = build_emulated(text, name, out_dir)   # an abi.Library: lib.main(x) as usual

The device IR changes only where the host has no such thing: the special registers
(`llvm.nvvm.read.ptx.sreg.*`), barriers and warp shuffles become calls into emu.c, `ptx_kernel` entries
become plain functions, the triple and data layout become the host's. Shared memory (addrspace 3
globals) stays as it is: the host takes address space 3 as plain memory, one copy, which is
right because emu.c runs a grid's blocks one after another. Each entry gets a
trampoline that takes its flat parameters from the launch's 64-bit slots, and a table maps
entry names to trampolines, as `cuModuleGetFunction` maps them to kernels.
"""
import hashlib
import os
import re
import subprocess

from llvmlite import ir

from abi.loader import Library
from aot import toolchain
from aot.driver import Compilation, Options, cache_dir
from lowering.codegen.cuda.device import generate_device
from lowering.codegen.cuda.host import generate_host
from lowering.codegen.llvm.machine import optimize, target_machine
from lowering.target import host_target

HERE = os.path.dirname(os.path.abspath(__file__))
I32, I64, PTR = ir.IntType(32), ir.IntType(64), ir.PointerType()


def hostify(device_ir: str, triple: str, layout: str) -> str:
    """The device module, unchanged but for what only a GPU has."""
    t = device_ir.replace('target triple = "nvptx64-nvidia-cuda"', f'target triple = "{triple}"')
    t = re.sub(r'target datalayout = "[^"]*"', f'target datalayout = "{layout}"', t, count=1)
    t = t.replace("define ptx_kernel void", "define void")
    t = re.sub(r"llvm\.nvvm\.read\.ptx\.sreg\.(\w+)\.x", r"aot_emu_\1_x", t)
    t = t.replace("llvm.nvvm.shfl.sync.bfly.i32", "aot_emu_shfl_bfly_i32")
    return t.replace("llvm.nvvm.barrier.cta.sync.aligned.all", "aot_emu_barrier")


def launch_table(kernels, triple: str, layout: str) -> str:
    """`void NAME_emu(i64 *slots)` per entry, and `aot_emu_kernels[]` = {name, trampoline}."""
    mod = ir.Module(name="emu_table")
    mod.triple, mod.data_layout = triple, layout
    rows = []
    for k in kernels:
        entry = ir.Function(mod, ir.FunctionType(ir.VoidType(), [PTR if p == "ptr" else I64
                                                                   for p in k.params]), name=k.name)
        tramp = ir.Function(mod, ir.FunctionType(ir.VoidType(), [PTR]), name=k.name + "_emu")
        b = ir.IRBuilder(tramp.append_basic_block())
        args = []
        for i, p in enumerate(k.params):
            v = b.load(b.gep(tramp.args[0], [ir.Constant(I64, i)], source_etype=I64), typ=I64)
            args.append(b.inttoptr(v, PTR) if p == "ptr" else v)
        b.call(entry, args)
        b.ret_void()
        data = bytearray(k.name.encode() + b"\0")
        name = ir.GlobalVariable(mod, ir.ArrayType(ir.IntType(8), len(data)), name=k.name + ".name")
        name.global_constant, name.initializer = True, ir.Constant(name.value_type, data)
        rows.append(ir.Constant.literal_struct([name, tramp]))
    row_t = ir.LiteralStructType([PTR, PTR])
    table = ir.GlobalVariable(mod, ir.ArrayType(row_t, len(rows)), name="aot_emu_kernels")
    table.global_constant, table.initializer = True, ir.Constant(table.value_type, rows)
    count = ir.GlobalVariable(mod, I32, name="aot_emu_kernel_count")
    count.global_constant, count.initializer = True, ir.Constant(I32, len(rows))
    return str(mod)


def emulator_object() -> str:
    """emu.c compiled once per content (in the build cache)."""
    src = os.path.join(HERE, "emu.c")
    with open(src, "rb") as f:
        key = hashlib.sha256(f.read()).hexdigest()[:16]
    obj = os.path.join(cache_dir(), f"emu-{key}.o")
    if not os.path.exists(obj):
        tmp = f"{obj}.{os.getpid()}"
        subprocess.run([toolchain.c_compiler(), *toolchain.CFLAGS, "-I", toolchain.RUNTIME_DIR, "-c",
                        src, "-o", tmp], check=True)
        os.replace(tmp, obj)
    return obj


def build_emulated(text: str, name: str, out_dir: str, filename: str = "<string>") -> Library:
    """Compile `text` for the cuda target and link it, with the emulated grid, into a host
    library at out_dir/libNAME.so."""
    os.makedirs(out_dir, exist_ok=True)
    c = Compilation(text, filename, Options(name=name, emit="ptx", target="cuda"))
    loops = c.run_stages("loops")
    host_tm = target_machine(host_target())
    triple, layout = host_tm.triple, str(host_tm.target_data)
    device_ir, kernels = generate_device(loops, name, c.target)
    host_ir, _ = generate_host(loops, name, host_tm, c.target, ptx="")
    objects = []
    for part, text_ir in (("host", host_ir), ("device", hostify(device_ir, triple, layout)),
                          ("table", launch_table(kernels, triple, layout))):
        path = os.path.join(out_dir, f"{name}.{part}.o")
        with open(path, "wb") as f:
            f.write(host_tm.emit_object(optimize(text_ir, host_tm)))
        objects.append(path)
    out = os.path.join(out_dir, f"lib{name}.so")
    toolchain.link_shared(objects + [emulator_object()] + toolchain.runtime_objects(cache_dir()), out)
    return Library(out)
