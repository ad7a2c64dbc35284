"""One launch record per kernel: how its grid is shaped and how the grid maps onto its
iteration space. The schedule sets it (the marks on its parallel loop, which the loop pass
copies to the host's call: threads per iteration, rows or tiles per iteration; and where a
schedule wants them, `aot.block_shape`, `aot.dynamic_shared` and `aot.min_blocks_per_sm` on
the loop); the Target
gives the block size and limits (`Target.gpu`). Everything that launches or describes a
kernel reads this record and nothing else: the device entry (device.emit_entry), the host's
launch (host._launch, which computes the grid at run time by the same rule as `grid`),
`--report` (`describe`) and the time model (timing.py); the emulated grid gets the launch's
dims through the driver's cuLaunchKernel and refuses a block other than the record's, as a
GPU refuses a launch against a kernel's `.reqntid`.

Iteration spaces (`space`):
- "thread": no parallel loop; one block of one thread runs the kernel.
- "rows": dim 0 of the parallel output, `rows` rows per iteration.
- "tiles": the parallel output cut into tiles (`tiles`: size per leading dim), row-major;
  tiles of ones are one iteration per element ("elements": the output flattened, consecutive
  threads on consecutive elements of the innermost dim, so a warp's accesses coalesce).
Each iteration takes `lanes` threads (1; a warp; or the whole block). The grid is
ceil(iterations / iterations per block) blocks, at most `max_blocks`, and the device entry's
grid-stride loop covers any rest. An elementwise kernel may take `vector` consecutive
elements a thread (vector.py: vector loads), from `vector_from` elements on when its dims are
known only at run time: the grid then has a quarter of the blocks. A block-per-tile
schedule whose tiles span two or more dims gets a 2-D/3-D grid (x the last tiled dim, y the
one before, z the rest), when that grid covers every tile within the hardware's limits; the
entry linearizes it back (x fastest), so the body sees the same iteration numbers either way.
"""
from __future__ import annotations

from dataclasses import dataclass, replace

from lowering.codegen.cuda.vector import WIDTH, vectorizable
from lowering.ir.core import MemRefType

WARP = 32


@dataclass(frozen=True)
class Launch:
    name: str  # the PTX entry
    space: str  # "thread", "rows", "tiles" (see the module's docstring)
    block: tuple  # threads per block along x, y, z
    lanes: int = 1  # threads per iteration
    rows: int = 1  # "rows": rows of dim 0 per iteration
    tiles: tuple | None = None  # "tiles": tile size along each leading dim of the output
    extent_param: int | None = None  # entry parameter holding the parallel output's dim 0
    shared_bytes: int = 0  # dynamic shared memory per block
    min_blocks: int = 0  # blocks an SM should hold at once (`.minnctapersm`: ptxas caps the
    #   registers to fit them; 0: no ask)
    max_blocks: int = 8192
    max_grid: tuple = (2 ** 31 - 1, 65535, 65535)
    vector: int = 1  # consecutive iterations (elements) per thread: vector loads (vector.py),
    vector_from: int = 0  # from this many iterations on (fewer: one a thread, as vector 1)

    @property
    def threads_per_block(self) -> int:
        x, y, z = self.block
        return x * y * z

    @property
    def iterations_per_block(self) -> int:
        """Without vector loads; `per_block` says how many a launch of n iterations takes."""
        return self.threads_per_block // self.lanes

    def per_block(self, iterations: int) -> int:
        vector = self.vector if iterations >= self.vector_from else 1
        return self.iterations_per_block * vector

    @property
    def elementwise(self) -> bool:
        return self.space == "tiles" and bool(self.tiles) and set(self.tiles) == {1} and self.lanes == 1

    @property
    def multi_grid(self) -> bool:
        """Whether the grid may have y/z dims: a block per tile, tiles over 2+ dims."""
        return self.space == "tiles" and self.tiles is not None and len(self.tiles) >= 2 \
            and self.lanes == self.threads_per_block

    def counts(self, dims) -> list:
        """Iterations along each dim of the space, for the parallel output's dims."""
        if self.space == "thread":
            return [1]
        if self.space == "rows":
            return [-(-dims[0] // self.rows)]
        return [-(-d // t) for d, t in zip(dims, self.tiles)]

    def iterations(self, dims) -> int:
        n = 1
        for c in self.counts(dims):
            n *= c
        return n

    def grid(self, dims) -> tuple:
        """(x, y, z) blocks for a parallel output of these dims, as the host computes it."""
        if self.space == "thread":
            return 1, 1, 1
        counts = self.counts(dims)
        if self.multi_grid:
            x, y = counts[-1], counts[-2]
            z = 1
            for c in counts[:-2]:
                z *= c
            if 0 < x * y * z <= self.max_blocks and y <= self.max_grid[1] and z <= self.max_grid[2]:
                return x, y, z
        blocks = -(-max(self.iterations(dims), 1) // self.per_block(self.iterations(dims)))
        return min(blocks, self.max_blocks), 1, 1

    def threads_launched(self, dims) -> int:
        x, y, z = self.grid(dims)
        return x * y * z * self.threads_per_block

    def mapping(self) -> str:
        """The iteration space and its threads, in words."""
        if self.space == "thread":
            return "no parallel loop: one thread"
        if self.space == "tiles" and self.tiles == ():
            return f"the one iteration of a rank-0 output, {self.lanes} threads"
        if self.elementwise and self.vector > 1:
            return (f"a thread per {self.vector} consecutive output elements (flattened; vector loads "
                    "and stores when the buffers are 16-byte aligned, else one element at a time)"
                    + (f" from {self.vector_from} elements on, else a thread per element"
                       if self.vector_from else ""))
        if self.elementwise:
            return "a thread per output element (flattened, consecutive threads on consecutive elements)"
        if self.space == "tiles" and set(self.tiles) == {1} and self.lanes == WARP:
            return f"a warp per row: per element of the output's first {len(self.tiles)} dims (flattened)"
        per = ("a block" if self.lanes == self.threads_per_block else
               f"{self.lanes} threads (a warp)" if self.lanes == WARP else
               f"{self.lanes} threads" if self.lanes > 1 else "a thread")
        if self.space == "rows":
            step = f"{self.rows} rows" if self.rows > 1 else "row"
            return f"{per} per {step} of dim 0 of parameter #{self.extent_param}"
        return (f"{per} per tile of {' x '.join(map(str, self.tiles))} of the output "
                f"(its dims from parameter #{self.extent_param})")

    def describe(self, dims=None) -> str:
        """The launch in words, as `--report` prints it; with the output's `dims`, the grid
        and the threads it launches."""
        block = "x".join(map(str, self.block))
        shared = f", {self.shared_bytes} bytes dynamic shared memory" if self.shared_bytes else ""
        if self.min_blocks:
            shared += f", at least {self.min_blocks} blocks per SM (.minnctapersm)"
        if self.space == "thread":
            return f"grid 1x1x1, block {block}: {self.mapping()}{shared}; 1 thread launched"
        if dims is None:  # dims known at run time: the rule, and the largest grid it makes
            rule = (f"grid ceil(iterations / {self.iterations_per_block}) blocks (at most "
                    f"{self.max_blocks}), grid-stride beyond")
            if self.vector > 1:
                rule = (f"grid ceil(iterations / {self.per_block(self.vector_from)}) blocks from "
                        f"{self.vector_from} iterations on, else ceil(iterations / "
                        f"{self.iterations_per_block}) (at most {self.max_blocks}), grid-stride beyond")
            return (f"{rule}, block {block}: {self.mapping()}{shared}; at most "
                    f"{self.max_blocks * self.threads_per_block} threads launched (the largest grid)")
        grid = "x".join(map(str, self.grid(dims)))
        return (f"grid {grid}, block {block}: {self.mapping()}{shared}; "
                f"{self.threads_launched(dims)} threads launched")


def launch_of(name: str, kernel, call_attrs: dict | None, gpu) -> Launch:
    """The launch record of PTX entry `name` for kernel function `kernel`, from its schedule's
    marks (the call's `aot.parallel*` attributes, the parallel loop's `aot.block_shape`,
    `aot.dynamic_shared` and `aot.min_blocks_per_sm`) and the Target's GpuLimits `gpu`."""
    limits = dict(max_blocks=gpu.max_blocks, max_grid=tuple(gpu.max_grid))
    if call_attrs is None or not kernel.attrs.get("aot.parallel") or "aot.parallel" not in call_attrs:
        return Launch(name, "thread", (1, 1, 1), **limits)
    loop = next(op for op in kernel.regions[0].blocks[0].ops
                if op.name == "scf.for" and op.attrs.get("aot.parallel"))
    lanes = call_attrs.get("aot.parallel_lanes", 1)
    block = tuple(loop.attrs.get("aot.block_shape", (max(gpu.block_threads, lanes), 1, 1)))
    shared = loop.attrs.get("aot.dynamic_shared", 0)
    min_blocks = loop.attrs.get("aot.min_blocks_per_sm", 0)
    threads = block[0] * block[1] * block[2]
    if threads > gpu.max_block_threads or threads % lanes or shared > gpu.max_dynamic_shared:
        raise ValueError(f"internal: the schedule of {name} asks for a block of {block} threads, "
                         f"{lanes} per iteration, {shared} bytes of dynamic shared memory")
    offsets, k = [], 0
    for t in kernel.attrs["function_type"].inputs:
        offsets.append(k)
        k += 1 + t.rank if isinstance(t, MemRefType) else 1
    tiles = call_attrs.get("aot.parallel_tiles")
    launch = Launch(name, "rows" if tiles is None else "tiles", block, lanes,
                    call_attrs.get("aot.parallel_block", 1), None if tiles is None else tuple(tiles),
                    offsets[call_attrs["aot.parallel"]] + 1, shared, min_blocks, **limits)
    shape = kernel.attrs["function_type"].inputs[call_attrs["aot.parallel"]].shape
    if launch.elementwise and vectorizable(kernel, shape):
        dims = static_dims(kernel, call_attrs)
        n = 1
        for d in dims or ():
            n *= d
        if dims is None:  # a thread per WIDTH elements from as many as fill every device on
            launch = replace(launch, vector=WIDTH, vector_from=WIDTH * fill_threads())
        elif fills_devices(n // WIDTH):
            launch = replace(launch, vector=WIDTH)
    return launch


def static_dims(kernel, call_attrs: dict | None) -> tuple | None:
    """The parallel output's dims when the compile knows them all, else None."""
    if call_attrs is None or "aot.parallel" not in call_attrs:
        return ()
    shape = kernel.attrs["function_type"].inputs[call_attrs["aot.parallel"]].shape
    return None if any(d is None for d in shape) else tuple(shape)



def fills_devices(threads: int) -> bool:
    """Whether a launch of `threads` threads keeps every device of the Target's table busy:
    at least half its thread slots (what the time model takes as enough loads in flight).
    Every device counts, whatever the Target predicts for: PTX built for sm_80 runs as well
    on an H100. Schedules with a choice of tile size take the smaller one when not."""
    from lowering.target import GPU_DEVICES
    return all(threads * 2 >= d.sms * d.threads_per_sm for d in GPU_DEVICES.values())


def fill_threads() -> int:
    """The fewest threads for which `fills_devices` holds."""
    from lowering.target import GPU_DEVICES
    return max(-(-d.sms * d.threads_per_sm // 2) for d in GPU_DEVICES.values())


def most_sms() -> int:
    """The SMs of the largest device of the Target's table (see `fills_devices`)."""
    from lowering.target import GPU_DEVICES
    return max(d.sms for d in GPU_DEVICES.values())
