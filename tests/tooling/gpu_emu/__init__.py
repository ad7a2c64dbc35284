"""The emulated GPU grid: a `--target cuda` artifact, as users get it, run on this GPU-less
machine through the CUDA driver double (tests/tooling/cuda_double), which loads the host build
of the artifact's kernels (its "companion") instead of compiling the PTX. The companion's
kernels are the same NVPTX-flavoured LLVM IR that becomes the PTX, compiled for the host and
run by emu.c with the threads of a block as OS threads. For tests only.

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
import tempfile

import numpy as np
from llvmlite import ir

from abi.loader import Library
from aot import toolchain
from aot.driver import Compilation, Options, cache_dir
from lowering.codegen.llvm.machine import optimize, target_machine
from lowering.target import host_target

HERE = os.path.dirname(os.path.abspath(__file__))
I32, I64, PTR = ir.IntType(32), ir.IntType(64), ir.PointerType()


def hostify(device_ir: str, triple: str, layout: str) -> str:
    """The device module, unchanged but for what only a GPU has."""
    t = device_ir.replace('target triple = "nvptx64-nvidia-cuda"', f'target triple = "{triple}"')
    t = re.sub(r'target datalayout = "[^"]*"', f'target datalayout = "{layout}"', t, count=1)
    t = t.replace("define ptx_kernel void", "define void")
    t = re.sub(r"llvm\.nvvm\.read\.ptx\.sreg\.(\w+)\.([xyz])", r"aot_emu_\1_\2", t)
    t = t.replace("llvm.nvvm.shfl.sync.bfly.i32", "aot_emu_shfl_bfly_i32")
    return t.replace("llvm.nvvm.barrier.cta.sync.aligned.all", "aot_emu_barrier")


def launch_table(kernels, triple: str, layout: str) -> str:
    """`void NAME_emu(i64 *slots)` per entry, and `aot_emu_kernels[]` = {name, trampoline,
    parameter count, the block its launch record fixes (x, y, z)}."""
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
        block = [ir.Constant(I32, n) for n in k.launch.block]
        rows.append(ir.Constant.literal_struct([name, tramp, ir.Constant(I32, len(k.params)), *block]))
    row_t = ir.LiteralStructType([PTR, PTR, I32, I32, I32, I32])
    table = ir.GlobalVariable(mod, ir.ArrayType(row_t, len(rows)), name="aot_emu_kernels")
    table.global_constant, table.initializer = True, ir.Constant(table.value_type, rows)
    count = ir.GlobalVariable(mod, I32, name="aot_emu_kernel_count")
    count.global_constant, count.initializer = True, ir.Constant(I32, len(rows))
    return str(mod)


def _compiled(src: str, tag: str, flags=(), shared=False) -> str:
    """A C file of this directory's tools compiled once per content (in the build cache)."""
    with open(src, "rb") as f:
        key = hashlib.sha256(f.read() + " ".join(flags).encode()).hexdigest()[:16]
    out = os.path.join(cache_dir(), f"{tag}-{key}.{'so' if shared else 'o'}")
    if not os.path.exists(out):
        tmp = f"{out}.{os.getpid()}"
        kind = ["-shared"] if shared else ["-c"]
        subprocess.run([toolchain.c_compiler(), *toolchain.CFLAGS, *flags, "-I", toolchain.RUNTIME_DIR,
                        *kind, src, "-o", tmp, *(["-ldl", "-lpthread"] if shared else [])], check=True)
        os.replace(tmp, out)
    return out


def emulator_object() -> str:
    return _compiled(os.path.join(HERE, "emu.c"), "emu")


def double_library() -> str:
    """The CUDA driver API test double (tests/tooling/cuda_double/double.c)."""
    return _compiled(os.path.join(os.path.dirname(HERE), "cuda_double", "double.c"), "libcuda_double",
                     shared=True)


def blas_double_library() -> str:
    """The cuBLAS test double (tests/tooling/cuda_double/cublas_double.c)."""
    return _compiled(os.path.join(os.path.dirname(HERE), "cuda_double", "cublas_double.c"),
                     "libcublas_double", shared=True)


def ptx_hash(ptx: str) -> str:
    """The 64-bit FNV-1a hash of the PTX text, as the driver double computes it."""
    h = 1469598103934665603
    for byte in ptx.encode():
        h = ((h ^ byte) * 1099511628211) & 0xFFFFFFFFFFFFFFFF
    return f"{h:016x}"


def kernels_dir() -> str:
    """Where companions go: $AOT_CUDA_DOUBLE_KERNELS, else a directory of the build cache."""
    d = os.environ.get("AOT_CUDA_DOUBLE_KERNELS") or os.path.join(cache_dir(), "cuda-double-kernels")
    os.makedirs(d, exist_ok=True)
    return d


def build_companion(c: Compilation, counting: bool = False) -> str:
    """The host build of a cuda compilation's kernels, where the driver double finds it:
    kernels_dir()/<hash of the PTX>.so. With `counting`, the build that reports what each
    kernel does to the emulated grid (`count_launches`)."""
    host_tm = target_machine(host_target())
    triple, layout = host_tm.triple, str(host_tm.target_data)
    _, device_ir, _, kernels = c.llvm()
    if counting:
        from lowering.codegen.cuda.device import generate_device
        device_ir, _ = generate_device(c.loops(), c.opts.name, c.target, counting=True)
    out = os.path.join(kernels_dir(), ptx_hash(c.assembly()) + ".so")
    with tempfile.TemporaryDirectory() as tmp:
        objects = []
        for part, text_ir in (("device", hostify(device_ir, triple, layout)),
                              ("table", launch_table(kernels, triple, layout))):
            path = os.path.join(tmp, f"{part}.o")
            with open(path, "wb") as f:
                f.write(host_tm.emit_object(optimize(text_ir, host_tm)))
            objects.append(path)
        toolchain.link_shared(objects + [emulator_object()], out + f".{os.getpid()}")
        os.replace(out + f".{os.getpid()}", out)
    return out


def use_driver_double(blas: bool = False) -> None:
    """Point this process's cuda artifacts at the driver double and its kernels, and their
    matmuls at the cuBLAS double (`blas`) or at their own tiled kernels (each artifact's
    runtime reads these at its first device call and first matmul)."""
    os.environ["AOT_CUDA_LIBRARY"] = double_library()
    os.environ["AOT_CUDA_DOUBLE_KERNELS"] = kernels_dir()
    if blas:
        os.environ["AOT_CUBLAS_LIBRARY"] = blas_double_library()
        os.environ.pop("AOT_CUBLAS", None)
    else:  # a real cuBLAS would run on a real GPU, not on the double's memory
        os.environ["AOT_CUBLAS"] = "0"
        os.environ.pop("AOT_CUBLAS_LIBRARY", None)


def build_emulated(text: str, name: str, out_dir: str, filename: str = "<string>",
                   blas: bool = False) -> Library:
    """Compile `text` for the cuda target into out_dir/libNAME.so, the artifact a user gets,
    and run it through the CUDA driver double: the runtime's whole launch path (module load,
    argument packing, device allocation, copies) with the kernels on the emulated grid, and
    its matmuls on the cuBLAS double with `blas` (else on their own tiled kernels).
    AOT_TEST_REAL_GPU=1 skips the double: the tests then run on the machine's own GPU."""
    os.makedirs(out_dir, exist_ok=True)
    c = Compilation(text, filename, Options(name=name, emit="shared", target="cuda"))
    out = os.path.join(out_dir, f"lib{name}.so")
    c.build(out)
    if os.environ.get("AOT_TEST_REAL_GPU"):  # a machine with a GPU: the real driver
        return Library(out)
    build_companion(c)
    use_driver_double(blas)
    return Library(out)


def builds_per_type(tmp_path_factory, program, prefix: str):
    """get(dt): the emulated library of `program(dt)`, built once per element type (for a
    module-scoped fixture of the device math tests)."""
    libs = {}

    def get(dt):
        if dt not in libs:
            libs[dt] = build_emulated(program(dt), f"{prefix}_{dt}", str(tmp_path_factory.mktemp(dt)))
        return libs[dt]
    return get


def build_counting(text: str, name: str, out_dir: str):
    """(the artifact, its Compilation) with the companion that counts: calls of the library
    append to $AOT_EMU_COUNT a line per launch (emu.c), read back by `count_launches`. The
    companion goes to a directory of its own (out_dir/counting), which this process's driver
    double then reads: call it before the first call of any cuda artifact."""
    os.makedirs(out_dir, exist_ok=True)
    c = Compilation(text, "<string>", Options(name=name, emit="shared", target="cuda"))
    out = os.path.join(out_dir, f"lib{name}.so")
    c.build(out)
    os.environ["AOT_CUDA_DOUBLE_KERNELS"] = os.path.join(out_dir, "counting")
    build_companion(c, counting=True)
    use_driver_double()
    return Library(out), c


def count_launches(path: str, c: Compilation) -> list:
    """[(DeviceKernel, timing.Work)] per launch the counting run wrote to `path`: its counts
    scaled from the iterations run to the whole iteration space, its buffers' bytes from its
    parameters (each buffer once)."""
    from abi.dtypes import dtype as abi_dtype
    from lowering.codegen.cuda.timing import Work
    from lowering.ir.core import MemRefType
    by_name = {k.name: k for k in c.llvm()[3]}
    funcs = {f"{c.opts.name}_{f.attrs['sym_name']}": f for f in c.loops().functions()
             if "aot.kernel" in f.attrs}
    out = []
    for line in open(path).read().splitlines():
        name, *fields = line.split()
        k = by_name[name]
        gx, gy, gz, bx, by, bz, iterations, extent, accesses, nbytes, flops = map(int, fields[:11])
        sectors, params = float(fields[11]), [int(v) for v in fields[12:]]
        done = iterations / k.launch.lanes
        scale = extent / done if k.launch.space != "thread" and done else 1.0
        footprint, seen, i = 0, set(), 0
        for t in funcs[name].attrs["function_type"].inputs:
            if isinstance(t, MemRefType):
                dims = params[i + 1:i + 1 + t.rank]
                n = int(np.prod(dims, dtype=np.int64)) * max(abi_dtype(t.elem).size, 1)
                if params[i] not in seen:
                    seen.add(params[i])
                    footprint += n
                i += 1 + t.rank
            else:
                i += 1
        threads = gx * gy * gz * bx * by * bz
        out.append((k, Work(threads, round(nbytes * scale), footprint, round(flops * scale),
                            round(sectors * scale))))
    return out
