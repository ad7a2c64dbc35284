"""Export test programs for sort, top_k, reduce_window, convolution and select_and_scatter.

JAX is NOT a dependency of this project; it only produces these test programs and
their expected outputs. Run with a separate environment:

    /tmp/jaxenv/bin/python tests/sort_conv_window/export.py            # all cases
    /tmp/jaxenv/bin/python tests/sort_conv_window/export.py sort_f32   # some cases
    /tmp/jaxenv/bin/python tests/sort_conv_window/export.py --list

Three kinds of case, each writing NAME.mlir and NAME.npz next to this script:

- `case`: `jax.jit(f).lower(*args).as_text()` (static shapes, pretty StableHLO as
  JAX prints it); npz keys arg0.., out0.. (outputs of `jax.jit(f)`).
- `edited`: the text of a `case` with a textual edit (a comparator turned around,
  window_reversal set, ...) for what JAX's API cannot ask for; the expected outputs
  come from compiling the edited text with XLA itself (the CPU client jaxlib ships).
- `dynamic`: `jax.export` with symbolic dims (`b`), npz keys s{k}_arg.., s{k}_out..
  for the size sets k = 0, 1, 2 (outputs of `exported.call`).

bfloat16 arrays are stored as their uint16 bits under NAME__bf16. Inputs are
seeded from crc32 of the case name, so cases do not change each other's data.
`chlo.top_k` cases also get a NAME_generic.mlir twin in the generic form
(`"chlo.top_k"(%x) {k = 2 : i64} : (t) -> (t1, t2)`), same npz.
"""

import os
import re
import sys
import zlib

import ml_dtypes
import numpy as np

import jax
import jax.numpy as jnp
from jax import export, lax

HERE = os.path.dirname(os.path.abspath(__file__))
BF16 = ml_dtypes.bfloat16
jax.config.update("jax_include_debug_info_in_dumps", False)

CASES = {}
SIZES = ({"b": 1}, {"b": 3}, {"b": 8})


def case(name, fn, *args, x64=False, expect=(), edit=None):
    assert name not in CASES, name
    CASES[name] = dict(kind="edited" if edit else "static", fn=fn, args=args, x64=x64,
                       expect=tuple(expect), edit=edit)


def dynamic(name, fn, *args, expect=()):
    """args: (spec, maker) with spec like "b, 16"; maker(rng, shape) -> array."""
    assert name not in CASES, name
    CASES[name] = dict(kind="dynamic", fn=fn, args=args, expect=tuple(expect))


# ---------------------------------------------------------------- inputs

def U(shape, lo=-2.0, hi=2.0, dtype=np.float32):
    return lambda rng: rng.uniform(lo, hi, size=shape).astype(dtype)


def I(shape, lo=-10, hi=10, dtype=np.int32):
    return lambda rng: rng.integers(lo, hi, size=shape, endpoint=True).astype(dtype)


def SMALL(shape, dtype=np.float32):
    """Values from {-2..2}: many ties."""
    return lambda rng: rng.integers(-2, 2, size=shape, endpoint=True).astype(dtype)


def SPECIAL(shape, dtype=np.float32):
    """Floats with NaN, -NaN, +-inf, +-0.0 and ties."""
    def make(rng):
        pool = np.array([np.nan, -np.nan, np.inf, -np.inf, 0.0, -0.0, 1.0, -1.0, 2.5, 1.0],
                        np.float64)
        x = rng.choice(pool, size=shape)
        x = np.where(rng.uniform(size=shape) < 0.3, rng.uniform(-3, 3, size=shape), x)
        return x.astype(dtype)
    return make


def DU(lo=-2.0, hi=2.0, dtype=np.float32):
    return lambda rng, s: rng.uniform(lo, hi, size=s).astype(dtype)


# ---------------------------------------------------------------- sort

case("sort_f32_axis1", lambda x: jnp.sort(x, axis=1), SMALL((5, 37)), expect=["stablehlo.sort"])
case("sort_f32_axis0", lambda x: jnp.sort(x, axis=0), U((33, 4)), expect=["dimension = 0"])
case("sort_f32_3d_axis1", lambda x: jnp.sort(x, axis=1), U((3, 17, 2)))
case("sort_f32_long", lambda x: jnp.sort(x), U((2, 1000)))
case("sort_f32_one", lambda x: jnp.sort(x), U((4, 1)))
case("sort_nan_inf_zero", lambda x: jnp.sort(x, axis=-1), SPECIAL((6, 40)),
     expect=["TOTALORDER"])
case("sort_i32", lambda x: jnp.sort(x, axis=-1), I((4, 100)), expect=["SIGNED"])
case("sort_ui8", lambda x: jnp.sort(x, axis=0), I((50, 3), 0, 255, np.uint8),
     expect=["UNSIGNED"])
case("sort_bool", lambda x: jnp.sort(x, axis=-1),
     lambda rng: rng.integers(0, 2, (3, 21)).astype(np.bool_))
case("sort_f16", lambda x: jnp.sort(x, axis=-1), SPECIAL((3, 30), np.float16))
case("sort_bf16", lambda x: jnp.sort(x, axis=-1), SPECIAL((3, 30), BF16))
case("sort_f64", lambda x: jnp.sort(x, axis=-1), SPECIAL((3, 30), np.float64), x64=True)
case("sort_descending", lambda x: jnp.sort(x, axis=-1, descending=True), SMALL((3, 19)))
case("argsort_axis1", lambda x: jnp.argsort(x, axis=1), SMALL((4, 50)),
     expect=["stablehlo.iota", "stablehlo.sort"])
case("argsort_axis0", lambda x: jnp.argsort(x, axis=0), SMALL((30, 3)))
case("argsort_nan", lambda x: jnp.argsort(x, axis=-1), SPECIAL((3, 25)))
case("sort_two_keys", lambda a, b, v: lax.sort((a, b, v), dimension=1, num_keys=2),
     I((3, 40), 0, 3), I((3, 40), 0, 3), U((3, 40)))
case("sort_key_value_i32_f32", lambda k, v: lax.sort((k, v), dimension=1, num_keys=1),
     I((4, 33), -3, 3), U((4, 33)))
# A comparator JAX's API does not offer: GT instead of LT (descending, stable).
case("sort_comparator_gt", lambda k, v: lax.sort((k, v), dimension=1, num_keys=1),
     I((4, 33), -3, 3), U((4, 33)),
     edit=lambda t: re.sub(r"stablehlo\.compare\s+LT", "stablehlo.compare GT", t))
case("top_k_f32", lambda x: lax.top_k(x, 3), SPECIAL((4, 20)), expect=["chlo.top_k"])
case("top_k_i32", lambda x: lax.top_k(x, 5), I((3, 7, 9), -3, 3))
case("top_k_full", lambda x: lax.top_k(x, 13), SMALL((2, 13)))
case("top_k_one", lambda x: lax.top_k(x, 1), U((64,)))
dynamic("sort_dyn_batch", lambda x: jnp.sort(x, axis=-1), ("b, 50", DU()))
dynamic("argsort_dyn_axis", lambda x: jnp.argsort(x, axis=0), ("b, 4", DU()))


# ---------------------------------------------------------------- export

FORBIDDEN = ("dense_resource", "{...}", "__elided__", "loc(")


def _seed(name):
    return zlib.crc32(name.encode())


def _store(d, key, arr):
    arr = np.asarray(arr)
    if arr.dtype == BF16:
        d[key + "__bf16"] = arr.view(np.uint16)
    else:
        d[key] = arr


def _check_text(name, text, expect):
    for bad in FORBIDDEN:
        assert bad not in text, f"{name}: {bad!r} in module text"
    assert "func.func public @main(" in text, name
    norm = re.sub(r"\s+", " ", text)
    for e in expect:
        e = re.sub(r"\s+", " ", e)
        assert e in norm, f"{name}: expected {e!r} in module text"


def run_with_xla(text, args):
    """Compile MLIR text with jaxlib's XLA CPU client and run it."""
    from jax._src import xla_bridge
    exe = xla_bridge.get_backend().compile_and_load(text, jax.devices()[:1])
    res = exe.execute_sharded([jax.device_put(a) for a in args])
    return [np.asarray(o[0]) for o in res.disassemble_into_single_device_arrays()]


def generic_top_k(text):
    return re.sub(r"chlo\.top_k\((%[\w#]+), k = (\d+)\) : (tensor<[^>]*>) -> \(([^)]*)\)",
                  r'"chlo.top_k"(\1) {k = \2 : i64} : (\3) -> (\4)', text)


def export_static(name, c):
    rng = np.random.default_rng(_seed(name))
    args = [s(rng) if callable(s) else np.asarray(s) for s in c["args"]]
    prev = jax.config.jax_enable_x64
    jax.config.update("jax_enable_x64", c["x64"])
    try:
        jitted = jax.jit(c["fn"])
        text = jitted.lower(*args).as_text()
        if c["edit"]:
            edited = c["edit"](text)
            assert edited != text, f"{name}: the edit changed nothing"
            text = edited
            outs = run_with_xla(text, args)
        else:
            outs = jax.tree_util.tree_leaves(jitted(*args))
    finally:
        jax.config.update("jax_enable_x64", prev)
    _check_text(name, text, c["expect"])
    for a in args:
        assert a.size <= 4096, f"{name}: input too large"
    d = {}
    for i, a in enumerate(args):
        _store(d, f"arg{i}", a)
    for i, o in enumerate(outs):
        _store(d, f"out{i}", o)
    files = {name: text}
    if "chlo.top_k(" in text:
        files[name + "_generic"] = generic_top_k(text)
        assert '"chlo.top_k"' in files[name + "_generic"], name
    for n, t in files.items():
        with open(os.path.join(HERE, n + ".mlir"), "w") as f:
            f.write(t)
        np.savez(os.path.join(HERE, n + ".npz"), **d)


def _concrete(spec, dims):
    return tuple(int(d) if d.strip().isdigit() else int(eval(d, {}, dict(dims)))
                 for d in spec.split(",") if d.strip())


def export_dynamic(name, c):
    scope = export.SymbolicScope()
    specs = [jax.ShapeDtypeStruct(export.symbolic_shape(spec, scope=scope),
                                  maker(np.random.default_rng(0), (1,)).dtype)
             for spec, maker in c["args"]]
    exp = export.export(jax.jit(c["fn"]))(*specs)
    text = exp.mlir_module()
    _check_text(name, text, c["expect"])
    assert "?x" in text, f"{name}: no dynamic dim"
    d = {}
    for k, dims in enumerate(SIZES):
        rng = np.random.default_rng(_seed(f"{name}/s{k}"))
        args = [maker(rng, _concrete(spec, dims)) for spec, maker in c["args"]]
        outs = jax.tree_util.tree_leaves(exp.call(*args))
        for i, a in enumerate(args):
            _store(d, f"s{k}_arg{i}", a)
        for j, o in enumerate(outs):
            _store(d, f"s{k}_out{j}", o)
    with open(os.path.join(HERE, name + ".mlir"), "w") as f:
        f.write(text)
    np.savez(os.path.join(HERE, name + ".npz"), **d)


def main(argv):
    if "--list" in argv:
        print("\n".join(CASES))
        return
    names = argv or list(CASES)
    for n in names:
        if n not in CASES:
            sys.exit(f"unknown case {n!r}")
    for n in names:
        c = CASES[n]
        (export_dynamic if c["kind"] == "dynamic" else export_static)(n, c)
    print(f"exported {len(names)} cases to {HERE}")


if __name__ == "__main__":
    main(sys.argv[1:])
