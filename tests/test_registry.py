"""The op registry: every registered op has what its kind needs, overrides apply only where
they say, and the verifier and the README's table read the same registry."""
import pytest

from lowering import backends
from lowering.frontend.parser import parse_module
from lowering.ops import registry
from lowering.passes.legalize import legalize
from lowering.target import Target, cpu_target

backends.load_all()  # every family and every target's overrides


@pytest.mark.parametrize("name", sorted(registry.OPS))
def test_every_op_has_what_its_kind_needs(name):
    op = registry.OPS[name]
    assert op.kind in registry.KINDS
    missing = [f for f in registry.REQUIRED_BY_KIND[op.kind] if getattr(op, f) is None]
    assert missing == [], f"{name} ({op.kind}) lacks {missing}"
    assert op.family, name


def test_every_kind_is_used():
    assert {op.kind for op in registry.OPS.values()} == set(registry.KINDS)


def test_not_yet_ops_are_not_registered():
    assert not set(registry.NOT_YET) & set(registry.OPS)


def test_override_of_an_unknown_field_is_refused():
    with pytest.raises(ValueError, match="no field 'kernal'"):
        registry.override("dot", "kernal", lambda *a: None)


def test_define_twice_is_refused():
    with pytest.raises(ValueError, match="defined twice"):
        registry.define("add", "elementwise", "elementwise")


def _dot_op():
    m = parse_module("""func.func @main(%a: tensor<64x32xf32>, %b: tensor<32x16xf32>) -> tensor<64x16xf32> {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<64x32xf32>, tensor<32x16xf32>) -> tensor<64x16xf32>
  return %0 : tensor<64x16xf32>
}""")  # noqa: E501
    legalize(m)
    return next(op for op in m.functions()[0].walk() if op.key == "dot_general")


def test_target_overrides_apply_by_target_name_and_condition():
    dot = _dot_op()
    generic = registry.lookup("dot_general").kernel
    cpu = cpu_target("x86_64-unknown-linux-gnu", features="+avx2")
    assert registry.rule(dot, "kernel", cpu) is not generic  # the packed matmul
    other = Target(name="other", triple="")
    assert registry.rule(dot, "kernel", other) is generic
    no_gemm = Target(name="cpu", triple="", gemm={})  # a CPU without a packed matmul
    assert registry.rule(dot, "kernel", no_gemm) is generic
    assert registry.rule(dot, "epilogue", no_gemm) is None


def test_math_library_override_follows_the_target():
    m = parse_module("""func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.exponential %a : tensor<4xf32>
  return %0 : tensor<4xf32>
}""")
    legalize(m)
    exp = next(op for op in m.functions()[0].walk() if op.key == "exponential")
    base = registry.lookup("exponential").scalar
    assert registry.rule(exp, "scalar", cpu_target("x86_64-unknown-linux-gnu")) is not base
    libm = Target(name="cpu", triple="", math="libm")
    assert registry.rule(exp, "scalar", libm) is base
