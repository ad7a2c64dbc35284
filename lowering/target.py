"""What the compiler targets: one object that passes and codegen ask instead of branching.

Target-neutral passes (fusion, bufferize, loops) and codegen read the facts they depend on
from a `Target`: whether kernels may split over the runtime's thread pool, how wide a vector
register is, whether small temporaries may live on the stack, which math library the scalar
`math.*` ops become, and the packed matmul's blocking. `host_target()` describes the machine
the compiler runs on; `host_target(triple, cpu, features)` another CPU, whose blocking then
follows that CPU's vector width and register count instead of this machine's.

This module imports nothing from the rest of the compiler, so any layer may use it.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace


@dataclass(frozen=True)
class GemmBlocking:
    """The packed matmul's blocking for one element type (see codegen/cpu/gemm.py):
    vec lanes per vector register, an mr x nr register tile, kc-deep packed blocks, mc x nc
    the largest tile of C one task owns, nb the columns of one packed B block. The "i32"
    entry is the i16 x i16 -> i32 product (quantized int8 contractions): vec i32 lanes, k in
    pairs (kc even), `madd` the intrinsic that multiplies i16 pairs and adds each pair into
    one i32 lane ("" for the generic sext/mul/add IR)."""
    vec: int
    mr: int
    nr: int
    kc: int
    mc: int
    nc: int
    nb: int
    madd: str = ""
    wide: GemmBlocking | None = None  # the tile of large products with B packed at run time


# By vector width in bytes. 32 (AVX2's 256 bits) was measured on this project's 2-core AMD EPYC
# (Zen 4, which has AVX-512: 256-bit tiles came within 5% of OpenBLAS there, benchmarks/README.md),
# so CPUs with wider vectors keep it; 16 (SSE, NEON) keeps the tile's shape with half the lanes
# (12 accumulator registers) and has not been measured on such a CPU.
# The i16 pair kernel has the f32 tile (i32 lanes) with twice the k per block: its packed
# blocks then take the f32 ones' bytes.
GEMM_BLOCKING = {
    16: {"f32": GemmBlocking(vec=4, mr=6, nr=8, kc=256, mc=288, nc=4096, nb=1024),
         "f64": GemmBlocking(vec=2, mr=6, nr=4, kc=256, mc=144, nc=2048, nb=512),
         "i32": GemmBlocking(vec=4, mr=6, nr=8, kc=512, mc=288, nc=4096, nb=1024)},
    32: {"f32": GemmBlocking(vec=8, mr=6, nr=16, kc=256, mc=288, nc=4096, nb=1024),
         "f64": GemmBlocking(vec=4, mr=6, nr=8, kc=256, mc=144, nc=2048, nb=512),
         "i32": GemmBlocking(vec=8, mr=6, nr=16, kc=512, mc=288, nc=4096, nb=1024)},
}
# AVX-512 (64): the AVX2 tiles, and for f32 products of many rows and columns whose B is packed
# at run time (gemm.WIDE_MIN_ROWS and _COLUMNS) a 6 x 32 tile of 512-bit vectors: 12
# accumulators as with AVX2, but each broadcast of A feeds twice the lanes (8 loads per 24
# 256-bit FMAs' worth, not 12; Zen 4 runs a 512-bit FMA as two halves, so fewer instructions
# and loads, not more FMA slots). XLA here runs YNNPACK's 5 x 64 AVX-512 kernel. As the tile of
# every product it lost where the products are small: frozen (prepacked) weights at 3-4 rows
# 2x the time, DenseNet's 12-48-column 1x1 products 8 %.
GEMM_BLOCKING[64] = {**GEMM_BLOCKING[32], "f32": replace(
    GEMM_BLOCKING[32]["f32"],
    wide=GemmBlocking(vec=16, mr=6, nr=32, kc=256, mc=288, nc=4096, nb=1024))}
# 128-bit vectors with 32 registers (AArch64's NEON, RISC-V's V at its 128-bit minimum): the
# tiles of BLIS's armv8a kernels, 8x12 f32 and 6x8 f64, 24 accumulators each. Not measured
# on such a CPU (they have run under qemu-user only, which checks numbers, not speed).
GEMM_BLOCKING_32_REGISTERS = {
    "f32": GemmBlocking(vec=4, mr=8, nr=12, kc=256, mc=288, nc=4032, nb=1032),
    "f64": GemmBlocking(vec=2, mr=6, nr=8, kc=256, mc=144, nc=2048, nb=512),
    "i32": GemmBlocking(vec=4, mr=8, nr=12, kc=512, mc=288, nc=4032, nb=1032),
}
# No vector unit (RISC-V's rv64gc, the Linux distributions' baseline): one lane, a 4x4 tile
# in 16 of the 32 floating-point registers.
GEMM_BLOCKING_SCALAR = {
    "f32": GemmBlocking(vec=1, mr=4, nr=4, kc=256, mc=128, nc=2048, nb=512),
    "f64": GemmBlocking(vec=1, mr=4, nr=4, kc=256, mc=128, nc=2048, nb=512),
    "i32": GemmBlocking(vec=1, mr=4, nr=4, kc=512, mc=128, nc=2048, nb=512),
}
# x86's multiply-add of i16 pairs (pmaddwd): 2 x vec i16 products summed pairwise into vec
# i32 lanes. SSE2 is in every x86-64; the 256-bit form needs AVX2 (AVX alone has no
# 256-bit integer ops, so it keeps the generic IR).
PAIR_MADD = {4: "llvm.x86.sse2.pmadd.wd", 8: "llvm.x86.avx2.pmadd.wd"}


@dataclass(frozen=True)
class GpuDevice:
    """A GPU's published figures (vendor data sheets, SXM parts), for the per-kernel time
    model (codegen/cuda/timing.py). Nothing here was measured: no GPU was at hand."""
    name: str
    sms: int
    hbm_gbps: float  # DRAM bandwidth, GB/s
    fp32_tflops: float  # CUDA-core FP32 (an FMA is 2 FLOPs)
    tf32_tflops: float  # dense tensor-core TF32
    launch_us: float  # a kernel's fixed cost on a busy stream (launch and ramp), microseconds
    threads_per_sm: int = 2048
    blocks_per_sm: int = 32
    registers_per_sm: int = 65536
    shared_per_sm: int = 167936  # bytes a block may take of the SM's shared memory


GPU_DEVICES = {
    "A100": GpuDevice("A100 SXM4 80GB", sms=108, hbm_gbps=2039, fp32_tflops=19.5, tf32_tflops=156,
                      launch_us=3.0),
    "H100": GpuDevice("H100 SXM5 80GB", sms=132, hbm_gbps=3350, fp32_tflops=67, tf32_tflops=495,
                      launch_us=2.5, shared_per_sm=233472),
}


@dataclass(frozen=True)
class GpuLimits:
    """What a GPU target's schedules and launches may assume: the block size they use unless
    they ask for another, the hardware's limits on blocks and grids, and the device the time
    model predicts for (codegen/cuda/launch.py reads these; nothing else spells them)."""
    block_threads: int = 256  # threads per block of the grid-stride and block schedules
    max_block_threads: int = 1024
    max_blocks: int = 8192  # grid-stride loops cover the rest; enough to fill any current GPU
    max_grid: tuple = (2 ** 31 - 1, 65535, 65535)  # blocks along x, y, z
    max_dynamic_shared: int = 48 * 1024  # bytes of dynamic shared memory without an opt-in
    device: str = "A100"  # GPU_DEVICES entry the time model predicts for


@dataclass(frozen=True)
class Target:
    """Everything a pass or an emitter may ask about the machine it compiles for."""
    name: str  # "cpu"; the kind of device, for per-target kernel overrides in the op registry
    triple: str  # LLVM target triple ("" for the host's)
    cpu: str = ""  # LLVM CPU name ("" for generic)
    features: str = ""  # LLVM feature string, e.g. "+avx2,+fma"
    threads: bool = True  # kernels may split their outer loop over the runtime's thread pool
    vector_bytes: int = 32  # widest vector register the emitted code may use (0: none)
    warp_size: int = 1  # threads that share an iteration of a row kernel (a GPU's warp)
    stack_limit: int = 256  # static temporaries up to this many bytes live on the stack
    math: str = "inline"  # exp/log/tanh...: "inline" polynomials (else libm calls)
    gemm: dict = field(default_factory=dict)  # element type -> GemmBlocking; empty: no packed matmul
    memory_order_columns: bool = True  # column reductions walk the input in memory order,
    #   accumulating in the output buffer (a cache-order walk), not one column at a time
    column_chunks: int = 8  # chunks a split reduction cuts its rows (a column sum) or each of
    #   few long rows into (0: never split); a GPU's, a block each, are many
    collapse_nests: bool = True  # the thread pool may split a perfect parallel nest over its
    #   collapsed iterations (codegen/llvm/collapse.py); a GPU maps loops onto its grid instead
    f16_in_hardware: bool = True  # else the module defines the f16 conversions LLVM calls
    #   (codegen/llvm/softhalf.py): an old libgcc for such a CPU lacks them
    unroll_body_limit: int = 0  # innermost loops of more ops are marked never to unroll (0:
    #   no mark), for an assembler that unrolls them anyway: ptxas -O3 unrolled the FFT's
    #   270-op twiddle loop and took 40-120 s per architecture (0.3 s without)
    gpu: GpuLimits | None = None  # a GPU's block and grid limits (None: not a GPU)

    def blocking(self, elem: str) -> GemmBlocking | None:
        return self.gemm.get(elem)


def _flags(features: str) -> set:
    return {f[1:] for f in features.split(",") if f.startswith("+")}


def vector_bytes_of(triple: str, features: str) -> int:
    """The widest vector register a CPU with these LLVM features has (0: none)."""
    flags = _flags(features)
    if triple.startswith(("x86_64", "i686", "i386")):
        if "avx512f" in flags:
            return 64
        if "avx2" in flags or "avx" in flags:
            return 32
        return 16
    if triple.startswith("riscv"):
        return 16 if "v" in flags else 0  # V's fixed-length vectors are at least 128 bits
    return 16  # AArch64 NEON, and a safe guess elsewhere


def gemm_blocking(triple: str, width: int, features: str = "") -> dict:
    """The packed matmul's blocking for a CPU with vectors of `width` bytes (and, on x86,
    the pair multiply-add its features allow)."""
    if width == 0:
        return GEMM_BLOCKING_SCALAR
    if width == 16 and triple.startswith(("aarch64", "arm64", "riscv")):
        return GEMM_BLOCKING_32_REGISTERS
    table = GEMM_BLOCKING[min(width, 64)]
    pairs = table["i32"]
    if triple.startswith(("x86_64", "i686", "i386")) and (pairs.vec == 4 or "avx2" in _flags(features)):
        table = {**table, "i32": replace(pairs, madd=PAIR_MADD[pairs.vec])}
    return table


def half_in_hardware(triple: str, features: str) -> bool:
    """Whether a CPU converts f16 to and from f32/f64 in hardware (no library calls)."""
    flags = _flags(features)
    if triple.startswith(("aarch64", "arm64")):
        return True  # FCVT is in the base architecture
    if triple.startswith(("x86_64", "i686", "i386")):
        return bool({"f16c", "avx512fp16"} & flags)
    if triple.startswith("riscv"):
        return bool({"zfh", "zfhmin", "zhinx", "zhinxmin"} & flags)
    return False


def default_features(triple: str) -> str:
    """LLVM features for another CPU named by its triple alone: LLVM's generic CPU, except
    where that is not what the triple's Linux distributions build for. RISC-V's generic
    CPU has no float unit (and so a soft-float ABI no system library links with): rv64gc."""
    if triple.startswith("riscv64") and "linux" in triple:
        return "+m,+a,+f,+d,+c"
    return ""


def no_gather(triple: str, features: str) -> str:
    """x86 features with `prefer-no-gather` added (unless the user's features name it): AMD's
    Zen cores (and Intel's since the Downfall microcode) run a vector gather slower than its
    scalar loads, but LLVM's cost model gathers every strided access it vectorises. A
    stride-2 depthwise convolution (EfficientNet's, channels first) took 3.4x as long with
    gathers as with scalar loads on this znver4. GCC tunes these CPUs the same way. Features
    naming it either way (`-prefer-no-gather`: gathers back) are the user's choice."""
    if not triple.startswith(("x86_64", "i686", "i386")) or "prefer-no-gather" in features:
        return features
    return f"{features},+prefer-no-gather" if features else "+prefer-no-gather"


def cpu_target(triple: str, cpu: str = "", features: str = "") -> Target:
    """A CPU target whose vector width, and so matmul blocking, follow its features."""
    width = vector_bytes_of(triple, features)
    features = no_gather(triple, features)
    return Target(name="cpu", triple=triple, cpu=cpu, features=features, vector_bytes=width,
                  gemm=gemm_blocking(triple, width, features),
                  f16_in_hardware=half_in_hardware(triple, features))


GPU_ARCHS = ("sm_80", "sm_86", "sm_89", "sm_90")  # --gpu-arch's choices (lowering/backends)
DEFAULT_GPU_ARCH = GPU_ARCHS[0]
# A loop body this long gains nothing measurable from unrolling (its branch is one op in
# hundreds), and ptxas -O3 spends minutes unrolling and scheduling such bodies: the loops
# of more ops carry `llvm.loop.unroll.disable`, which LLVM honours and prints as
# `.pragma "nounroll"` for ptxas.
UNROLL_BODY_LIMIT = 200
# Trailing loops of constant extent, at most this many iterations together, that a task of a
# collapsed parallel nest runs whole (codegen/llvm/collapse.py); the loop stage may split
# such dims into parts (passes/loops.refined_loops) and no others
WHOLE_ROWS = 1024
PTX_VERSION = "+ptx80"  # PTX ISA 8.0: what LLVM's NVPTX backend and CUDA 12+ drivers read


def cuda_target(arch: str = DEFAULT_GPU_ARCH) -> Target:
    """An NVIDIA GPU: kernels in PTX. Their parallel loops are spread over the grid (`threads`),
    no host-stack temporaries (kernels only see device memory), no libm (the inline
    polynomials, else a compile-time error), no CPU matmul blocking or cache-order walks;
    few long rows split into 1024 chunks, a block each (codegen/cuda/split_rows.py)."""
    if arch not in GPU_ARCHS:
        raise ValueError(f"unknown GPU architecture '{arch}' (known: {', '.join(GPU_ARCHS)})")
    return Target(name="cuda", triple="nvptx64-nvidia-cuda", cpu=arch, features=PTX_VERSION,
                  threads=True, vector_bytes=16, warp_size=32, stack_limit=0, math="inline", gemm={},
                  memory_order_columns=False, column_chunks=1024, collapse_nests=False,
                  unroll_body_limit=UNROLL_BODY_LIMIT,
                  gpu=GpuLimits(device="H100" if arch == "sm_90" else "A100"))


def _check_triple(triple: str) -> None:
    """ValueError for a triple LLVM cannot build for, or one with 32-bit pointers (the
    generated code and the runtime assume 64-bit ones)."""
    import re

    from llvmlite import binding as llvm
    llvm.initialize_all_targets()
    try:
        layout = str(llvm.Target.from_triple(triple).create_target_machine().target_data)
    except RuntimeError:
        raise ValueError(f"unknown target triple '{triple}' (e.g. aarch64-unknown-linux-gnu, "
                         "riscv64-unknown-linux-gnu, x86_64-unknown-linux-gnu)") from None
    bits = re.search(r"(?:^|-)p:(\d+)", layout)
    if bits and bits.group(1) != "64":
        raise ValueError(f"target triple '{triple}' has {bits.group(1)}-bit pointers: only 64-bit "
                         "CPUs are supported")


def host_target(triple: str | None = None, cpu: str | None = None,
                features: str | None = None) -> Target:
    """This machine (nothing given), or the CPU the options name. Another triple without a
    CPU or features means its generic CPU, as LLVM takes it."""
    from llvmlite import binding as llvm
    host = triple is None
    triple = triple or llvm.get_process_triple()
    if not host:
        _check_triple(triple)
    if cpu is None:
        cpu = llvm.get_host_cpu_name() if host else ""
    if features is None:
        features = llvm.get_host_cpu_features().flatten() if host else default_features(triple)
    return cpu_target(triple, cpu, features)
