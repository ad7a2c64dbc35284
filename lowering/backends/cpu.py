"""The CPU target: this machine, or the CPU --target-triple/-cpu/-features name. Its kernels
and host code are one LLVM module (codegen/llvm/gen.py), cut into partitions compiled on
several cores when the toolchain can join them; matmuls and convolutions call helper objects
built once per CPU and cached (codegen/cpu/helpers.py); big constants are assembled beside
the module. Its rules: the packed matmul and the convolution routes (codegen/cpu)."""
from __future__ import annotations

from lowering.backends.base import Backend, option_error


class CpuBackend(Backend):
    name = "cpu"
    choices = {"cpu": "default: this machine, or --target-triple"}
    external_data = True

    def make_target(self, opts):
        from lowering.target import host_target
        try:
            return host_target(opts.target_triple, opts.target_cpu, opts.target_features)
        except ValueError as e:  # a triple LLVM does not know, or a 32-bit one
            raise option_error(str(e)) from None

    def register_rules(self) -> None:
        from lowering.codegen.cpu import conv_gemm, matmul, transpose  # noqa: F401

    def helper_objects(self, target, fingerprint: str):
        from lowering.codegen.cpu.helpers import HelperObjects
        return HelperObjects(target, fingerprint)

    def toolchain_triple(self, target) -> str | None:
        return target.triple

    def generate(self, comp, tm) -> tuple[str, list]:
        from lowering.codegen.llvm.gen import generate
        for op in comp.external_data():
            op.attrs["aot.external_data"] = True
        return generate(comp.loops(), comp.opts.name, tm, comp.target, helpers=comp.helpers())

    def model(self, comp):
        """The optimised ModuleRef, or, when the module is cut into partitions compiled on
        several cores (llvm/partition.py), the driver's Partitions of their texts."""
        from lowering.codegen.llvm.gen import generate_parts
        from lowering.codegen.llvm.machine import optimize, parallel_jobs, target_machine
        jobs = parallel_jobs() if comp.can_partition() else 1
        comp.start_helpers(comp.loops())  # any the HLO did not foretell, beside the model's IR
        if jobs == 1:
            return super().model(comp)
        tm = target_machine(comp.target)
        for op in comp.external_data():
            op.attrs["aot.external_data"] = True
        # the host code alone in the first partition, at -O0, beside the kernels' `jobs`
        texts, hidden, entries = generate_parts(comp.loops(), comp.opts.name, tm, comp.target,
                                                jobs + 1, helpers=comp.helpers(), host_alone=True)
        if len(texts) == 1:
            return tm, optimize(texts[0], tm), entries
        return tm, comp.partitions(texts, hidden, target_machine(comp.target, opt=0)), entries


BACKEND = CpuBackend()
