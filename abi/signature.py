"""Signatures of entry functions, as the compiler, the header generator and
the loader all describe them.

Dims are ints, or None for a dimension known only at run time (-1 in C).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from .dtypes import dtype as _dtype


def format_shape(dtype: str, dims) -> str:
    """'f32[4,?]': the spelling the C runtime's messages use too."""
    return f"{dtype}[{','.join('?' if d is None or d < 0 else str(d) for d in dims)}]"


@dataclass(frozen=True)
class ValueSig:
    """One argument or result: its name, MLIR element type and dims."""

    name: str
    dtype: str
    dims: tuple[int | None, ...]

    def __post_init__(self):
        _dtype(self.dtype)  # fail early on a type the ABI cannot carry
        object.__setattr__(self, "dims", tuple(self.dims))

    @property
    def rank(self) -> int:
        return len(self.dims)

    @property
    def is_static(self) -> bool:
        return all(d is not None for d in self.dims)

    @property
    def c_dims(self) -> tuple[int, ...]:
        """Dims as the C metadata stores them: -1 for dynamic."""
        return tuple(-1 if d is None else d for d in self.dims)

    def __str__(self) -> str:
        return format_shape(self.dtype, self.dims)


@dataclass
class EntrySig:
    """One entry function: its program name ('main'), C symbol ('NAME_main'),
    arguments and results."""

    name: str
    symbol: str
    args: list[ValueSig] = field(default_factory=list)
    results: list[ValueSig] = field(default_factory=list)

    def __str__(self) -> str:
        args = ", ".join(f"{a.name}: {a}" for a in self.args)
        results = ", ".join(str(r) for r in self.results)
        return f"{self.name}({args}) -> ({results})"
