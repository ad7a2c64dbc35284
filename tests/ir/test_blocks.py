"""ir.core.blocks: every block of a module's functions, nested ones included, each once,
a block before the blocks nested in its ops (the walk window_reductions and constant_folding
make with it)."""
from lowering.frontend.parser import parse_module
from lowering.ir.core import blocks

TEXT = """func.func @main(%x: tensor<4xf32>, %p: tensor<i1>) -> tensor<4xf32> {
  %r = "stablehlo.if"(%p) ({
    %a = stablehlo.add %x, %x : tensor<4xf32>
    stablehlo.return %a : tensor<4xf32>
  }, {
    %z = stablehlo.constant dense<0.0> : tensor<f32>
    %s = stablehlo.reduce(%x init: %z) applies stablehlo.add across dimensions = [0] : (tensor<4xf32>, tensor<f32>) -> tensor<f32>
    %b = stablehlo.broadcast_in_dim %s, dims = [] : (tensor<f32>) -> tensor<4xf32>
    stablehlo.return %b : tensor<4xf32>
  }) : (tensor<i1>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}
func.func @other(%y: tensor<f32>) -> tensor<f32> {
  return %y : tensor<f32>
}"""  # noqa: E501


def nested(ops) -> list:
    """The blocks by recursion, each before those nested in its ops."""
    out = []
    for op in ops:
        for region in op.regions:
            for block in region.blocks:
                out.append(block)
                out += nested(block.ops)
    return out


def test_every_block_once_outer_first():
    module = parse_module(TEXT, "t.mlir")
    walked = list(blocks(module.functions()))
    want = nested(module.functions())
    assert len(walked) == len(want) == 5  # two bodies, two branches, the reduce's body
    assert set(map(id, walked)) == set(map(id, want))
    position = {id(b): i for i, b in enumerate(walked)}
    for b in want:
        for inner in nested(b.ops):
            assert position[id(b)] < position[id(inner)]


def test_a_block_rewritten_when_reached_is_walked_as_rewritten():
    """A pass may replace a block's ops when it reaches it: the walk goes into the new ones."""
    module = parse_module(TEXT, "t.mlir")
    seen = []
    for block in blocks(module.functions()):
        seen.append(block)
        if any(op.name == "stablehlo.if" for op in block.ops):
            block.ops = [op for op in block.ops if op.name != "stablehlo.if"]
    assert len(seen) == 2  # the two function bodies: the if's branches were dropped
