"""Control flow (while, if, case), run on the host around the kernels of its regions."""
from lowering.ops import registry
from lowering.ops.verify import verify_control_flow

for _name in ("while", "if", "case"):
    registry.define(_name, "control", "control flow", check=verify_control_flow)
