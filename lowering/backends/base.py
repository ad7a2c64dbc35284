"""What a target is to the driver: one object per target (Triton's BaseBackend, numba's
target context) that says everything the driver would otherwise ask `target.name` for.

The driver (aot/driver.py) holds one Compilation per compile and asks its backend:
- `make_target(opts)`: the `Target` the options describe, the options checked first;
- `register_rules()`: import the codegen modules that register this target's op-registry
  overrides (kernels, schedules): run once, before the stages (`lowering.backends.load`);
- `generate(comp, tm)`: the codegen stage, loop-stage module -> LLVM IR text and entries;
- `model(comp)`: the artifact's model code, (machine, optimised module, entries);
- `extra_objects(comp, tmp)`: objects beside the model's (another build of the model);
- `report(comp)`: what `aotc --report` adds after the fusion report;
- `manifest_fields(comp)`: the target's part of the artifact's manifest;
and reads its data: `runtime_sources` (its part of runtime_c/), `assembly` (the text kind
`--emit` writes for its kernels), `device_entries` (each entry has a device twin),
`external_data` (big constants assembled beside the module); and `helper_objects(target,
fingerprint)`, the matmul and convolution helpers as cached objects (None: in the module).

`comp` is the driver's Compilation: its stages (`loops()`, `llvm()`, `run_stages_for`), its
options and its services (`assembly()`, `helpers()`, `external_data()`, `can_partition()`,
`partitions()`, `loops_for(target)`).
A backend never imports the driver, and the driver never names a target.
"""
from __future__ import annotations

from lowering.ir.core import CompileError


class Backend:
    name = ""  # the Target's name, the key of its op-registry overrides
    choices: dict = {}  # --target values this backend builds -> their help text
    runtime_sources: tuple = ()  # its part of the runtime: paths under runtime_c/
    assembly = "asm"  # what --emit writes as the kernels' assembly
    device_entries = False  # each entry has a twin on device pointers (NAME_F_device)
    external_data = False  # big constants go into an object of their own (.incbin)
    two_objects = False  # two builds merged: the C toolchain is needed for any binary

    def __init__(self, choice: str = ""):
        self.choice = choice or self.name  # the --target value, e.g. "cuda,cpu"

    def make_target(self, opts):
        raise NotImplementedError

    def register_rules(self) -> None:
        """Import the modules whose import registers this target's overrides."""

    def helper_objects(self, target, fingerprint: str):
        """The library's helper objects (codegen/cpu/helpers.py), None: none."""
        return None

    def toolchain_triple(self, target) -> str | None:
        """The triple the runtime's C is built for (None: this machine)."""
        return None

    def host_target(self, target):
        """The CPU the entry points run on (the manifest's target CPU)."""
        return target

    def generate(self, comp, tm) -> tuple[str, list]:
        raise NotImplementedError

    def model(self, comp):
        tm, _, optimized, entries = comp.llvm()
        return tm, optimized, entries

    def extra_objects(self, comp, tmp: str) -> list:
        return []

    def report(self, comp) -> str:
        return ""

    def manifest_fields(self, comp) -> dict:
        return {"gpu_kernels": False, "gpu_arch": None}

    def device_entry(self, symbol: str) -> str | None:
        return f"{symbol}_device" if self.device_entries else None


def option_error(message: str) -> CompileError:
    return CompileError(message, None)
