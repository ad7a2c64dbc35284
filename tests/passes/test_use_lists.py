"""Use-def chains: every value knows the (op, operand index) pairs that read it, kept right
through every way the passes change operands, erase, clone and move ops."""
import pytest

from lowering.frontend.parser import parse_module
from lowering.ir.core import Block, Operation, TensorType, clone_op, replace_all_uses
from lowering.passes.pipeline import run_pipeline

F32 = TensorType((4,), "f32")


def _ops():
    block = Block([F32, F32])
    a, b = block.args
    add = block.append(Operation("mhlo.add", [a, b], [F32]))
    mul = block.append(Operation("mhlo.multiply", [add.result, a], [F32]))
    return block, a, b, add, mul


def test_creation_registers_each_operand_slot():
    _, a, b, add, mul = _ops()
    assert a.uses == [(add, 0), (mul, 1)]
    assert b.uses == [(add, 1)]
    assert add.result.uses == [(mul, 0)]
    assert mul.result.uses == []


def test_every_list_change_keeps_the_uses_right():
    _, a, b, add, mul = _ops()
    mul.operands[1] = b  # one slot
    assert a.uses == [(add, 0)] and (mul, 1) in b.uses
    mul.operands.insert(0, a)  # shifts the others
    assert mul.operands == [a, add.result, b]
    assert (mul, 0) in a.uses and add.result.uses == [(mul, 1)] and (mul, 2) in b.uses
    del mul.operands[0]
    assert a.uses == [(add, 0)] and add.result.uses == [(mul, 0)] and (mul, 1) in b.uses
    mul.operands.append(a)
    mul.operands.pop(0)
    assert add.result.uses == [] and (mul, 0) in b.uses and (mul, 1) in a.uses
    mul.operands = [add.result, add.result]  # a whole new list
    assert add.result.uses == [(mul, 0), (mul, 1)] and b.uses == [(add, 1)]
    mul.operands[:] = [b]
    assert add.result.uses == [] and (mul, 0) in b.uses
    mul.operands.extend([a, a])
    assert a.uses == [(add, 0), (mul, 1), (mul, 2)]


def test_replace_all_uses_touches_only_users():
    block, a, b, add, mul = _ops()
    replace_all_uses(a, b)
    assert add.operands == [b, b] and mul.operands == [add.result, b]
    assert a.uses == [] and b.uses == [(add, 1), (add, 0), (mul, 1)]
    replace_all_uses(b, b)  # a no-op
    assert len(b.uses) == 3


def test_erase_clone_and_move():
    block, a, b, add, mul = _ops()
    copy = clone_op(mul, {add.result: b})
    assert copy.operands == [b, a] and (copy, 0) in b.uses and (copy, 1) in a.uses
    other = Block()
    block.ops.remove(mul)
    other.append(mul)  # moved: the same op, the same uses
    assert add.result.uses == [(mul, 0)] and mul.parent is other
    mul.erase()
    assert add.result.uses == [] and (mul, 1) not in a.uses and other.ops == []
    copy.erase()
    assert a.uses == [(add, 0)] and b.uses == [(add, 1)]


PROGRAM = """
func.func private @twice(%a: tensor<?x4xf32>) -> tensor<?x4xf32> {
  %s = stablehlo.add %a, %a : tensor<?x4xf32>
  return %s : tensor<?x4xf32>
}
func.func @main(%x: tensor<?x4xf32>, %w: tensor<4x4xf32>) -> (tensor<?x4xf32>, tensor<?xf32>) {
  %t = call @twice(%x) : (tensor<?x4xf32>) -> tensor<?x4xf32>
  %e = stablehlo.exponential %t : tensor<?x4xf32>
  %d = stablehlo.dot_general %e, %w, contracting_dims = [1] x [0]
       : (tensor<?x4xf32>, tensor<4x4xf32>) -> tensor<?x4xf32>
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %r = stablehlo.reduce(%d init: %z) applies stablehlo.add across dimensions = [1]
       : (tensor<?x4xf32>, tensor<f32>) -> tensor<?xf32>
  %n = stablehlo.negate %d : tensor<?x4xf32>
  return %n, %r : tensor<?x4xf32>, tensor<?xf32>
}
"""


def check_use_lists(module) -> int:
    """Every operand slot of every live op is in its value's use list, and every use a live
    op makes is an operand slot holding that value. Returns the number of slots."""
    live = {op for top in module.ops for op in top.walk()}
    slots = 0
    for op in live:
        for i, v in enumerate(op.operands):
            assert (op, i) in v.uses, (op, i, v)
            slots += 1
        for region in op.regions:
            for block in region.blocks:
                for arg in block.args:
                    for user, i in arg.uses:
                        assert user not in live or user.operands[i] is arg
        for r in op.results:
            for user, i in r.uses:
                assert user not in live or user.operands[i] is r
    return slots


@pytest.mark.parametrize("stage", ["hlo", "fused", "lhlo", "loops"])
def test_use_lists_right_after_each_stage(stage):
    """Inlining, tuple forwarding, fusion, bufferization and loop lowering all rewrite
    operands; after each the use lists still match the IR."""
    module = run_pipeline(parse_module(PROGRAM, "uses.mlir"), stage)
    assert check_use_lists(module) > 5
