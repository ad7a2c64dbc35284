"""StableHLO text as torch.export's lowering writes a `?`-batch broadcast, shared by the
dynamic-fusion tests (passes/test_dynamic_epilogues.py, codegen/test_dynamic_batch_fusion.py)."""


def size_broadcast(name: str, src: str, of: str, operand: str, dims: str, shape: tuple) -> str:
    """`%name`: `operand` (of type `src`) broadcast to [batch, *shape], its batch read from
    `of` (a tensor of that shape) by `get_dimension_size`; each static dim d is the
    caller's `%c{d}` constant (a tensor<1xi32>)."""
    rank = len(shape) + 1
    full = "tensor<?x" + "x".join(map(str, shape)) + "xf32>"
    parts = ", ".join(["%" + name + "_r"] + [f"%c{d}" for d in shape])
    part_types = ", ".join(["tensor<1xi32>"] * rank)
    return f"""
  %{name}_n = stablehlo.get_dimension_size %{of}, dim = 0 : ({full}) -> tensor<i32>
  %{name}_r = stablehlo.reshape %{name}_n : (tensor<i32>) -> tensor<1xi32>
  %{name}_s = stablehlo.concatenate {parts}, dim = 0
      : ({part_types}) -> tensor<{rank}xi32>
  %{name} = stablehlo.dynamic_broadcast_in_dim %{operand}, %{name}_s, dims = {dims}
      : ({src}, tensor<{rank}xi32>) -> {full}"""
