"""A time model per kernel, for GPUs this project has never run on: an estimate, not a
measurement.

What a kernel does (`Work`) is counted either on the emulated grid (benchmarks/gpu_workloads.py
--model: every global access with its address, so the 32-byte sectors each warp access
touches, and every floating-point op) or, for `--report`, from the compiled shapes alone (its
buffers' bytes, FLOPs counted on its loop IR where the trip counts are constants, accesses
taken as coalesced). With the launch record, ptxas's registers and shared memory, and a
device of the Target's table (`target.GPU_DEVICES`), `predict` gives:

- occupancy: blocks resident per SM, the least of the SM's block, thread, register and
  shared-memory limits;
- DRAM time: the bytes that must cross (the sectors touched, at most the buffers' bytes:
  a sector read again by another warp is taken to hit in L2) over HBM bandwidth, derated when
  too few threads are resident to keep enough loads in flight (half the device's thread slots
  taken as enough);
- L2 time: every sector the warps request, over L2_OVER_HBM x the HBM bandwidth (an
  assumption: A100's and H100's L2 deliver roughly 2.5-3x their HBM);
- compute time: FLOPs over the CUDA-core FP32 rate (these kernels use no tensor cores),
  derated for SMs left idle and for fewer than 8 warps per SM;
- time = launch cost + the largest of the three; `bound` names which.

The roofline floor of the same work is max(bytes it must move / HBM bandwidth, FLOPs / peak):
no launch cost, perfect coalescing and occupancy. Nothing here has been checked against a
GPU; the device kit (issue 30) is how it will be.
"""
from __future__ import annotations

from dataclasses import dataclass

from lowering.codegen.cuda import run_shapes
from lowering.codegen.cuda.device import FLOPS
from lowering.codegen.cuda.run_shapes import INDEX_ARITH

SECTOR = 32  # bytes: the unit of a global memory transaction
L2_OVER_HBM = 2.5  # assumed L2 bandwidth / HBM bandwidth
REGISTER_GRANULE = 256  # registers are allocated to a warp in units of this many


@dataclass
class Work:
    """What one launch of a kernel does."""
    threads: int  # threads launched
    bytes_accessed: int  # bytes its threads load and store (each access's own size)
    footprint: int  # bytes of the buffers it reads and writes
    flops: int | None  # floating-point operations (None: not counted)
    sectors: int | None = None  # 32-byte sectors its warps' accesses touch (None: coalesced)

    @property
    def dram_bytes(self) -> int:
        """Bytes that must cross between DRAM and the chip."""
        requested = self.sectors * SECTOR if self.sectors is not None else self.bytes_accessed
        return min(requested, self.footprint)


@dataclass
class Estimate:
    time_us: float
    floor_us: float
    bound: str  # "memory", "latency" (too few threads in flight), "L2", "compute" or "launch"
    occupancy: float  # resident threads per SM / the SM's thread slots
    device: str

    def text(self) -> str:
        return (f"predicted {self.time_us:.1f} us on {self.device} ({self.bound}-bound, occupancy "
                f"{self.occupancy:.0%}); roofline floor {self.floor_us:.2f} us (an estimate: "
                "nothing ran on a GPU)")


def blocks_per_sm(device, block_threads: int, registers: int, shared: int) -> int:
    """Blocks of this kernel one SM holds at once."""
    warps = -(-block_threads // 32)
    regs_per_block = warps * -(-max(registers, 1) * 32 // REGISTER_GRANULE) * REGISTER_GRANULE
    limits = [device.blocks_per_sm, device.threads_per_sm // block_threads,
              device.registers_per_sm // regs_per_block]
    if shared:
        limits.append(device.shared_per_sm // shared)
    return max(min(limits), 0)


def predict(work: Work, launch, device, registers: int = 32, shared: int = 0) -> Estimate:
    """The estimate for one launch of a kernel (see the module's docstring)."""
    block = launch.threads_per_block
    blocks = max(-(-work.threads // block), 1)
    per_sm = blocks_per_sm(device, block, registers, shared + launch.shared_bytes)
    if per_sm == 0:
        raise ValueError(f"{launch.name}: a block of {block} threads with {registers} registers "
                         f"and {shared} bytes of shared memory fits no SM of {device.name}")
    occupancy = per_sm * block / device.threads_per_sm
    active_sms = min(device.sms, blocks)
    resident = min(work.threads, device.sms * per_sm * block)
    in_flight = min(1.0, resident / (device.sms * device.threads_per_sm / 2))
    hbm = device.hbm_gbps * 1e3  # bytes per microsecond
    t_dram = work.dram_bytes / (hbm * in_flight)
    requested = work.sectors * SECTOR if work.sectors is not None else work.bytes_accessed
    t_l2 = requested / (hbm * L2_OVER_HBM * in_flight)
    warps_per_sm = min(per_sm * block, -(-work.threads // active_sms)) / 32
    busy = active_sms / device.sms * min(1.0, warps_per_sm / 8)
    t_compute = (work.flops or 0) / (device.fp32_tflops * 1e6 * busy)
    parts = {"memory": t_dram, "L2": t_l2, "compute": t_compute}
    bound = max(parts, key=parts.get)
    if device.launch_us > parts[bound]:
        bound = "launch"
    elif bound == "memory" and work.dram_bytes / hbm < t_dram / 2:
        bound = "latency"  # too few threads in flight to reach the bandwidth
    floor = max(min(work.bytes_accessed, work.footprint) / hbm,
                (work.flops or 0) / (device.fp32_tflops * 1e6))
    return Estimate(device.launch_us + max(parts.values()), floor, bound, occupancy, device.name)


# ---- --report: the work from the compiled shapes -------------------------------------------

def _constant(values: dict, v):
    return values.get(id(v))


def _trip(op, values) -> int | None:
    """A loop's trip count; one starting at a thread's lane or place counts as the first
    thread's (from 0)."""
    lb, ub, step = (_constant(values, v) for v in op.operands[:3])
    if lb is None and getattr(op.operands[0].owner, "name", "") in ("gpu.lane_id", "gpu.thread_id"):
        lb = 0
    if None in (lb, ub, step) or step <= 0:
        return None
    return max(-(-(ub - lb) // step), 0)



def static_flops(kernel, args: list | None = None) -> int | None:
    """FLOPs of one run of `kernel` (a loop-stage function) over its whole iteration space,
    every thread sharing an iteration counted, when every loop's trip count is a constant (a
    branch counts as its dearest side, so ragged tiles as whole ones); else None. `args`
    (run_shapes.kernel_shapes): each argument's dims or value where the types leave them open."""
    values, shapes = {}, {}
    for a, v in zip(kernel.regions[0].blocks[0].args, args or ()):
        (shapes if isinstance(v, tuple) else values)[id(a)] = v

    def count(ops) -> int | None:
        total = 0
        for op in ops:
            if op.name == "arith.constant" and isinstance(op.attrs.get("value"), int):
                values[id(op.results[0])] = op.attrs["value"]
            elif op.name == "memref.dim":
                dim = _constant(values, op.operands[1])
                shape = shapes.get(id(op.operands[0]), op.operands[0].type.shape)
                if dim is not None and shape[dim] is not None:
                    values[id(op.results[0])] = shape[dim]
            elif op.name == "arith.select":  # a guard's trip count: its dearer side
                a, b = (_constant(values, v) for v in op.operands[1:])
                if a is not None and b is not None:
                    values[id(op.results[0])] = max(a, b)
            elif op.name in INDEX_ARITH and len(op.operands) == 2:
                a, b = (_constant(values, v) for v in op.operands)
                if a is not None and b is not None:
                    values[id(op.results[0])] = INDEX_ARITH[op.name](a, b)
            elif op.name in FLOPS:
                total += FLOPS[op.name]
            elif op.name in ("scf.if", "aot.switch"):  # the dearest branch
                branches = [count(r.blocks[0].ops) for r in op.regions if r.blocks]
                if None in branches:
                    return None
                total += max(branches, default=0)
            elif op.name == "scf.while":
                return None
            elif op.name == "scf.for":
                trip = _trip(op, values)
                inner = count(op.regions[0].blocks[0].ops)
                if trip is None or inner is None:
                    return None
                total += trip * inner * op.attrs.get("aot.lanes_per_iteration", 1)  # each thread's
        return total
    return count(kernel.regions[0].blocks[0].ops)


def static_work(kernel, launch, dims, elem_bytes, args: list | None = None) -> Work | None:
    """The work of a kernel from its compiled shapes (every buffer's dims known), else None:
    the buffers it reads or writes (not those whose dims alone it reads: a split reduction's
    second kernel gets the input too, and reads only the partials). With `args` (each
    argument's dims or value, run_shapes.kernel_shapes), at those shapes."""
    if dims is None:
        return None
    touched = {id(v) for op in kernel.walk() if op.name != "memref.dim" for v in op.operands}
    footprint = 0
    types = kernel.attrs["function_type"].inputs
    for i, (arg, t) in enumerate(zip(kernel.regions[0].blocks[0].args, types)):
        shape = args[i] if args and isinstance(args[i], tuple) else getattr(t, "shape", None)
        if shape is None or id(arg) not in touched:
            continue
        if None in shape:
            return None
        n = 1
        for d in shape:
            n *= d
        footprint += n * elem_bytes(t.elem)
    return Work(launch.threads_launched(dims) if launch.space != "thread" else 1, footprint, footprint,
                static_flops(kernel, args))


def report_estimates(module, name: str, kernels: list, resources: dict | None, target,
                     hint=None) -> dict:
    """PTX entry -> the estimate's text. A kernel whose dims are known only at run time is
    estimated at the shapes of `hint` (run_shapes.parse_hint), else at the largest the
    arguments' bounds allow, labelled so; with neither, the text says there is no estimate."""
    from abi.dtypes import dtype as abi_dtype
    from lowering.target import GPU_DEVICES
    device = GPU_DEVICES[target.gpu.device]
    funcs = {f"{name}_{f.attrs['sym_name']}": f for f in module.functions() if "aot.kernel" in f.attrs}
    at_run_time, why_not = {}, "no estimate: its shapes are known only at run time"
    for entry in run_shapes.entries(module):
        shapes, label = run_shapes.argument_shapes(entry, hint)
        if shapes is None:
            why_not = label
            continue
        for sym, (args, attrs) in run_shapes.kernel_shapes(entry, shapes).items():
            at_run_time.setdefault(f"{name}_{sym}", (args, attrs, label))
    out = {}
    for k in kernels:
        def elem_bytes(e):
            return max(abi_dtype(e).size, 1)
        work, prefix = static_work(funcs[k.name], k.launch, k.dims, elem_bytes), ""
        if work is None and k.name in at_run_time:
            args, attrs, label = at_run_time[k.name]
            dims = args[attrs["aot.parallel"]] if "aot.parallel" in attrs else ()
            work = static_work(funcs[k.name], k.launch, dims, elem_bytes, args)
            grid = "x".join(map(str, k.launch.grid(dims)))
            prefix = f"{label}: grid {grid}, {work.threads} threads launched; "
        if work is None:
            out[k.name] = why_not
            continue
        regs, smem = (resources or {}).get(k.name, (32, 0))
        est = predict(work, k.launch, device, regs, smem)
        flops = (f"{work.flops} FLOPs" if work.flops is not None
                 else "FLOPs not counted (a loop of run-time length)")
        out[k.name] = f"{prefix}{est.text()}; {work.footprint} bytes, {flops}, accesses taken as coalesced"
    return out
