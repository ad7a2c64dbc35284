"""The cuda target: kernels as NVPTX IR and PTX for one GPU architecture (codegen/cuda/
device.py), and this machine's host code that launches them from the embedded PTX
(codegen/cuda/host.py), with entries on device pointers beside the host ones. `--target
cuda,cpu` adds the CPU build of the same program to the artifact: its entries run the
device build's (NAME_F__cuda) when the runtime finds a GPU. Its rules: the tiled matmul,
warp and block reductions, sort, windows and scatter schedules (codegen/cuda)."""
from __future__ import annotations

from lowering.backends.base import Backend, option_error

DEVICE_SUFFIX = "__cuda"  # a two-target artifact's device entries: NAME_F__cuda


class CudaBackend(Backend):
    name = "cuda"
    choices = {"cuda": "kernels as PTX",
               "cuda,cpu": "both in one artifact: the GPU when there is one"}
    runtime_sources = ("device/cuda_driver.c", "device/cuda_memory.c", "device/cuda_copy.c",
                       "device/cuda_launch.c", "device/cuda_blas.c", "device/cuda_results.c")
    assembly = "ptx"
    device_entries = True

    def __init__(self, choice: str = ""):
        super().__init__(choice)
        self.with_cpu = self.choice == "cuda,cpu"  # the CPU build too, one artifact
        self.two_objects = self.with_cpu  # merged into one object even for --emit obj

    def make_target(self, opts):
        from lowering.target import cuda_target
        if opts.target_triple or opts.target_cpu or opts.target_features:
            raise option_error("--target-triple/-cpu/-features describe a CPU; the cuda "
                               "target takes --gpu-arch")
        try:
            return cuda_target(opts.gpu_arch)
        except ValueError as e:
            raise option_error(str(e)) from None

    def register_rules(self) -> None:
        from lowering.codegen.cuda import conv, matmul, reductions, sort, split_rows, windows  # noqa: F401

    def host_target(self, target):
        from lowering.target import host_target
        return host_target()  # the host code runs here

    def generate(self, comp, tm) -> tuple[str, list]:
        """The device module, and its kernels (device.DeviceKernel)."""
        from lowering.codegen.cuda.device import generate_device
        return generate_device(comp.loops(), comp.opts.name, comp.target)

    def model(self, comp):
        """(host machine, optimised host module, entries): this machine's host code,
        launching the kernels of the embedded PTX."""
        from lowering.codegen.cuda.host import generate_host
        from lowering.codegen.llvm.machine import optimize, target_machine
        from lowering.target import host_target
        ptx = comp.assembly()
        host_tm = target_machine(host_target())
        suffix = DEVICE_SUFFIX if self.with_cpu else ""
        text, entries = generate_host(comp.loops(), comp.opts.name, host_tm, comp.target, ptx, suffix)
        return host_tm, optimize(text, host_tm), entries

    def extra_objects(self, comp, tmp: str) -> list:
        """With cuda,cpu: the CPU build, whose entries run the device build's when the
        runtime finds a GPU."""
        if not self.with_cpu:
            return []
        import os

        from lowering.codegen.llvm.gen import generate
        from lowering.codegen.llvm.machine import optimize, target_machine
        from lowering.target import host_target
        target = host_target()
        module = comp.loops_for(target)
        tm = target_machine(target)
        text, _ = generate(module, comp.opts.name, tm, target, dispatch_suffix=DEVICE_SUFFIX)
        path = os.path.join(tmp, f"{comp.opts.name}.cpu.o")
        with open(path, "wb") as f:
            f.write(tm.emit_object(optimize(text, tm)))
        return [path]

    def report(self, comp) -> str:
        """Each kernel's launch, registers and shared memory, and the time model's estimate
        (codegen/cuda/timing.py); kernels with run-time dims at `--shape-hint`'s shapes or the
        largest the arguments' bounds allow (codegen/cuda/run_shapes.py)."""
        import os
        import tempfile

        from lowering.codegen.cuda import ptxas
        from lowering.codegen.cuda.device import launch_report
        from lowering.codegen.cuda.run_shapes import parse_hint
        from lowering.codegen.cuda.timing import report_estimates
        hint = comp.opts.shape_hint
        try:
            hint = None if hint is None else parse_hint(hint)
        except ValueError as e:
            raise option_error(str(e)) from None
        tm, _, optimized, kernels = comp.llvm()
        resources = None
        if ptxas.find_ptxas() is not None:
            with tempfile.TemporaryDirectory() as tmp:
                path = os.path.join(tmp, "kernels.ptx")
                with open(path, "w") as f:
                    f.write(tm.emit_assembly(optimized))
                resources = ptxas.resources(ptxas.assemble(path, comp.target.cpu).stderr)
        timing = report_estimates(comp.loops(), comp.opts.name, kernels, resources, comp.target, hint)
        return launch_report(kernels, resources, timing)

    def manifest_fields(self, comp) -> dict:
        return {"gpu_kernels": True, "gpu_arch": comp.target.cpu}


BACKEND = CudaBackend()
WITH_CPU = CudaBackend("cuda,cpu")
