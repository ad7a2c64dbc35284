"""The HLO ops: `registry` holds what every stage needs per op; the modules imported here
fill it, one op family each, and the targets' overrides (the CPU's packed matmul and
convolution, the inline math library), each importing the families it overrides. Nothing
else imports the families."""
from lowering.codegen import mathlib  # noqa: F401
from lowering.codegen.cpu import conv_gemm, matmul  # noqa: F401
from lowering.codegen.cuda import matmul as cuda_matmul  # noqa: F401
from lowering.codegen.cuda import reductions  # noqa: F401
from lowering.codegen.cuda import sort as cuda_sort  # noqa: F401
from lowering.codegen.cuda import windows as cuda_windows  # noqa: F401
from lowering.ops import (  # noqa: F401
    bounded,
    chlo,
    complex,
    contraction,
    control_flow,
    data_dependent,
    data_movement,
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
