"""The targets the compiler builds for, one Backend each (base.py says what a backend
answers), and the one list of them: `--target`'s choices and help text, the driver's lookup
and the op-registry overrides all read BACKENDS.

A backend's rules (its kernels and schedules, registered as op-registry overrides by its
codegen modules) are installed by `load(name)`, which every compile path runs before the
stages (`run_pipeline` does, for its target); `load_all()` installs every target's, for what
reads all of them (the op table). Installing is importing: each rule module registers itself
once, so loading again is free.
"""
from __future__ import annotations

from lowering.backends import cpu, cuda
from lowering.backends.base import Backend
from lowering.target import DEFAULT_GPU_ARCH, GPU_ARCHS

# --target value -> its backend, in the order --help lists them
BACKENDS: dict[str, Backend] = {"cpu": cpu.BACKEND, "cuda": cuda.BACKEND, "cuda,cpu": cuda.WITH_CPU}
NAMES = tuple(dict.fromkeys(b.name for b in BACKENDS.values()))  # the Targets' names


def get(choice: str) -> Backend:
    """The backend of a --target value; ValueError naming the known ones."""
    if choice not in BACKENDS:
        raise ValueError(f"unknown target '{choice}' (known: {', '.join(BACKENDS)})")
    return BACKENDS[choice]


def load(name: str) -> None:
    """Install the rules of the target named `name` (a Target's name) into the op registry:
    every op family first, then the math library every target shares, then the target's."""
    import lowering.ops  # noqa: F401  (the families)
    from lowering.codegen import mathlib  # noqa: F401  (inline math where Target.math says)
    get(name).register_rules()


def load_all() -> None:
    for name in NAMES:
        load(name)


def target_help() -> str:
    """--target's help: every choice with what it builds."""
    parts = [f"{choice} ({backend.choices[choice]})" for choice, backend in BACKENDS.items()]
    return ", ".join(parts[:-1]) + ", or " + parts[-1]


def assembly_target(kind: str) -> str | None:
    """The target whose kernels' assembly --emit `kind` is (None: no target's)."""
    return next((b.name for b in BACKENDS.values() if b.assembly == kind), None)


__all__ = ["BACKENDS", "NAMES", "GPU_ARCHS", "DEFAULT_GPU_ARCH", "Backend", "get", "load",
           "load_all", "target_help", "assembly_target"]
