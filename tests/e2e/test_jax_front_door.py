"""aot.compile of anything with an mlir_module() method (a jax.export.Exported), and
aot.compile_jax: its argument specs (symbolic where `dynamic` names an argument) built through a
stand-in for JAX, and its error when JAX is absent. JAX is never needed by these tests."""
import sys
import types

import numpy as np
import pytest

import aot

ADD = """module @jit_double {
  func.func public @main(%x: tensor<?x4xf32>, %y: tensor<4xf32>) -> tensor<?x4xf32> {
    %0 = stablehlo.broadcast_in_dim %y, dims = [1] : (tensor<4xf32>) -> tensor<1x4xf32>
    %c = stablehlo.constant dense<1> : tensor<1xi32>
    %d = stablehlo.get_dimension_size %x, dim = 0 : (tensor<?x4xf32>) -> tensor<i32>
    %r = stablehlo.reshape %d : (tensor<i32>) -> tensor<1xi32>
    %c4 = stablehlo.constant dense<4> : tensor<1xi32>
    %s = stablehlo.concatenate %r, %c4, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %1 = stablehlo.dynamic_broadcast_in_dim %0, %s, dims = [0, 1]
        : (tensor<1x4xf32>, tensor<2xi32>) -> tensor<?x4xf32>
    %2 = stablehlo.add %x, %1 : tensor<?x4xf32>
    return %2 : tensor<?x4xf32>
  }
}
"""


class FakeExported:
    """What aot.compile reads of a jax.export.Exported: mlir_module() and fun_name."""
    fun_name = "double"

    def __init__(self, text=ADD):
        self.text = text

    def mlir_module(self):
        return self.text


def test_compile_takes_an_object_with_mlir_module():
    lib = aot.compile(FakeExported())
    x, y = np.arange(12, dtype=np.float32).reshape(3, 4), np.ones(4, np.float32)
    np.testing.assert_array_equal(lib.main(x, y), x + y)
    assert lib.main(x[:1], y).shape == (1, 4)  # compiled once, any batch


def test_compile_refuses_what_is_no_mlir():
    with pytest.raises(TypeError, match="mlir_module"):
        aot.compile(42)
    with pytest.raises(TypeError, match=r"mlir_module\(\) returned bytes"):
        aot.compile(FakeExported(ADD.encode()))


def test_compile_jax_without_jax_says_how_to_get_it(monkeypatch):
    monkeypatch.setitem(sys.modules, "jax", None)  # `import jax` raises ImportError
    with pytest.raises(ImportError, match=r"aot.compile_jax needs JAX: pip install jax"):
        aot.compile_jax(lambda x: x, np.zeros(3, np.float32))


@pytest.fixture
def fake_jax(monkeypatch):
    """Just enough of jax (jit, ShapeDtypeStruct, export.export/symbolic_shape/SymbolicScope)
    to see what compile_jax asks of it."""
    jax = types.ModuleType("jax")
    export = types.ModuleType("jax.export")
    calls = {}

    class Spec:
        def __init__(self, shape, dtype):
            self.shape, self.dtype = shape, dtype

    class Scope:
        pass

    def symbolic_shape(spelled, scope=None):
        assert isinstance(scope, Scope)
        scopes = calls.setdefault("scopes", [])  # the objects: a freed one's id is reused
        if not any(s is scope for s in scopes):
            scopes.append(scope)
        return tuple(int(d) if d.strip().isdigit() else d.strip() for d in spelled.split(","))

    def jit(fn):
        jitted = lambda *a: fn(*a)  # noqa: E731
        jitted.lower, jitted.__name__ = object(), fn.__name__
        return jitted

    def do_export(fn):
        def with_specs(*specs):
            calls["specs"] = [(s.shape, s.dtype) for s in specs]
            return FakeExported()
        return with_specs

    jax.jit, jax.ShapeDtypeStruct, jax.numpy, jax.export = jit, Spec, np, export
    export.export, export.symbolic_shape, export.SymbolicScope = do_export, symbolic_shape, Scope
    monkeypatch.setitem(sys.modules, "jax", jax)
    monkeypatch.setitem(sys.modules, "jax.export", export)
    return calls


def test_compile_jax_specs_from_the_signature(fake_jax):
    def double(x, y):
        return x + y

    lib = aot.compile_jax(double, np.zeros((8, 4), np.float32), np.zeros(4, np.float32),
                          dynamic={"x": "b, 4"})
    assert fake_jax["specs"] == [(("b", 4), np.float32), ((4,), np.float32)]
    x = np.ones((5, 4), np.float32)
    np.testing.assert_array_equal(lib.main(x, np.full(4, 2, np.float32)), x + 2)
    # by position, one symbolic scope for all arguments
    aot.compile_jax(double, np.zeros((8, 4), np.float32), np.zeros(4, np.float32),
                    dynamic={0: "b, 4", "y": "4"})
    assert fake_jax["specs"] == [(("b", 4), np.float32), ((4,), np.float32)]
    assert len(fake_jax["scopes"]) == 2  # one per call


def test_compile_jax_dynamic_errors(fake_jax):
    def f(x, y):
        return x

    args = (np.zeros((8, 4), np.float32), np.zeros(4, np.float32))
    with pytest.raises(ValueError, match=r"'z' is not an argument of f .*names: 'x', 'y'"):
        aot.compile_jax(f, *args, dynamic={"z": "b, 4"})
    with pytest.raises(ValueError, match=r"'x' is 'b', 1 dims, but its example has 2"):
        aot.compile_jax(f, *args, dynamic={"x": "b"})
    with pytest.raises(ValueError, match="both name argument 0"):
        aot.compile_jax(f, *args, dynamic={"x": "b, 4", 0: "c, 4"})
