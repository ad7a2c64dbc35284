"""The HLO ops: `registry` holds what every stage needs per op; the modules imported here
fill it, one op family each. A target's overrides (the CPU's packed matmul and convolutions,
the cuda schedules, the inline math library) are registered by its codegen modules, which the
target's backend imports when it is loaded (lowering/backends): this package imports nothing
of codegen. Nothing else imports the families."""
from lowering.ops import (  # noqa: F401
    bounded,
    chlo,
    complex,
    contraction,
    control_flow,
    data_dependent,
    data_movement,
    eigen,
    elementwise,
    fft,
    gather,
    linalg,
    quantized,
    random,
    sort,
    unsupported,
    windows,
)
