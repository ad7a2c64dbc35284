"""The HLO ops: `registry` holds what every stage needs per op; the modules imported here
fill it, one op family each, then the targets' overrides (the CPU's packed matmul and
convolution, the inline math library). Nothing else imports the families."""
from lowering.ops import (chlo, contraction, control_flow, data_dependent,  # noqa: F401
                          data_movement, elementwise, gather, sort, unsupported, windows)
from lowering.codegen.cpu import conv_gemm, matmul  # noqa: F401
from lowering.codegen.llvm import fastmath  # noqa: F401
