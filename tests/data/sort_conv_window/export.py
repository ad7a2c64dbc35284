"""Export test programs for sort, top_k, reduce_window, convolution and select_and_scatter.

JAX is NOT a dependency of this project; it only produces these test programs and
their expected outputs. Run with a separate environment:

    /tmp/jaxenv/bin/python tests/data/sort_conv_window/export.py            # all cases
    /tmp/jaxenv/bin/python tests/data/sort_conv_window/export.py sort_f32   # some cases
    /tmp/jaxenv/bin/python tests/data/sort_conv_window/export.py --list

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
Cases with `chlo.top_k` or `stablehlo.convolution` also get a NAME_generic.mlir twin
with those ops in the generic form (`"chlo.top_k"(%x) {k = 2 : i64} : (t) -> (t1, t2)`,
`"stablehlo.convolution"(..) <{dimension_numbers = #stablehlo.conv<..>, ...}>`), same npz.
"""

import os
import re
import sys

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
import export_util as eu  # noqa: E402
from export_util import BF16, I, U  # noqa: E402  (input makers of the cases)
from export_util import SMALLF as SMALL  # noqa: E402  (values from {-2..2}: many ties)

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
# U (uniform floats), I (integers) and SMALL (floats in {-2..2}) are export_util's.

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



# ---------------------------------------------------------------- reduce_window

def _pool(init, op, window, strides, padding, **kw):
    return lambda x: lax.reduce_window(x, init, op, window, strides, padding, **kw)


case("cumsum_f32_axis1", lambda x: jnp.cumsum(x, axis=1), U((4, 9)),
     expect=["stablehlo.reduce_window"])
case("cumsum_i32_axis0", lambda x: jnp.cumsum(x, axis=0), I((7, 3)))
case("cumsum_reverse", lambda x: lax.cumsum(x, axis=1, reverse=True), U((3, 8)))
case("cummax_f32", lambda x: lax.cummax(x, axis=1), U((3, 8)), expect=["stablehlo.maximum"])
case("cummin_i32_reverse", lambda x: lax.cummin(x, axis=0, reverse=True), I((6, 4)))
case("cumprod_f32", lambda x: jnp.cumprod(x, axis=1), U((3, 6), 0.5, 1.5))
case("cumsum_long", lambda x: jnp.cumsum(x, axis=-1), U((2, 300)))
case("max_pool_nhwc_pad", _pool(-jnp.inf, lax.max, (1, 3, 3, 1), (1, 2, 2, 1),
                                ((0, 0), (1, 1), (1, 1), (0, 0))), U((2, 7, 7, 3)))
case("max_pool_same", _pool(-jnp.inf, lax.max, (1, 2, 2, 1), (1, 2, 2, 1), "SAME"),
     U((1, 5, 5, 2)))
case("max_pool_i32", _pool(np.int32(-2**31), lax.max, (1, 1, 2, 2), (1, 1, 2, 2), "VALID"),
     I((2, 3, 6, 6), -100, 100))
case("max_pool_bf16", _pool(-jnp.inf, lax.max, (2, 2), (1, 1), "VALID"), U((5, 6), dtype=BF16))
case("avg_pool_nchw", lambda x: lax.reduce_window(x, 0.0, lax.add, (1, 1, 2, 2), (1, 1, 2, 2),
                                                  "VALID") / 4.0, U((2, 3, 6, 6)))
case("avg_pool_padded", lambda x: lax.reduce_window(x, 0.0, lax.add, (1, 3, 3, 1), (1, 1, 1, 1),
                                                    "SAME") / 9.0, U((1, 5, 5, 2)))
case("reduce_window_dilations", _pool(0.0, lax.add, (2, 2), (1, 2), ((1, 0), (0, 2)),
                                      base_dilation=(2, 1), window_dilation=(1, 2)), U((5, 6)),
     expect=["base_dilations = array<i64: 2, 1>", "window_dilations = array<i64: 1, 2>"])
case("reduce_window_1d_stride3", _pool(-jnp.inf, lax.max, (2,), (3,), "VALID"), U((11,)))
case("reduce_window_window_larger", _pool(0.0, lax.add, (4,), (1,), ((3, 3),)), U((2,)))


def _argmax_pool(x):
    idx = lax.broadcasted_iota(jnp.int32, x.shape, 1)

    def f(a, b):
        take = (b[0] > a[0]) | ((b[0] == a[0]) & (b[1] < a[1]))
        return jnp.where(take, b[0], a[0]), jnp.where(take, b[1], a[1])
    return lax.reduce_window((x, idx), (-jnp.inf, jnp.int32(0)), f, (1, 3), (1, 2), "SAME")


case("reduce_window_argmax_pool", _argmax_pool, SMALL((3, 11)),
     expect=['"stablehlo.reduce_window"(%arg0, %0, %cst, %c)'])
dynamic("cumsum_dyn_batch", lambda x: jnp.cumsum(x, axis=1), ("b, 12", DU()))
dynamic("max_pool_dyn_batch", _pool(-jnp.inf, lax.max, (1, 2, 2, 1), (1, 2, 2, 1), "SAME"),
        ("b, 5, 5, 3", DU()))


# ---------------------------------------------------------------- convolution

def _conv(strides=(1, 1), padding="VALID", lhs_dil=None, rhs_dil=None,
          dn=("NHWC", "HWIO", "NHWC"), groups=1, batch_groups=1, pet=None):
    return lambda x, w: lax.conv_general_dilated(
        x, w, strides, padding, lhs_dilation=lhs_dil, rhs_dilation=rhs_dil,
        dimension_numbers=dn, feature_group_count=groups, batch_group_count=batch_groups,
        preferred_element_type=pet)


case("conv_nhwc_stride_pad_dilation",
     _conv((2, 1), ((1, 1), (0, 2)), rhs_dil=(2, 1)), U((2, 6, 6, 3)), U((3, 3, 3, 4)),
     expect=["stablehlo.convolution", "dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]"])
case("conv_nchw_same", lambda x, w: lax.conv(x, w, (1, 1), "SAME"), U((2, 3, 7, 7)),
     U((5, 3, 3, 3)), expect=["[b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1]"])
case("conv_nchw_stride2_asym", _conv((2, 2), ((0, 1), (2, 0)), dn=("NCHW", "OIHW", "NCHW")),
     U((1, 2, 8, 7)), U((4, 2, 3, 2)))
case("conv_mixed_layouts", _conv((1, 2), "SAME", dn=("NHWC", "OIHW", "NCHW")),
     U((2, 5, 6, 3)), U((4, 3, 2, 3)), expect=["[b, 0, 1, f]x[o, i, 0, 1]->[b, f, 0, 1]"])
case("conv_depthwise", _conv((1, 1), "SAME", groups=4), U((1, 6, 6, 4)), U((3, 3, 1, 8)),
     expect=["feature_group_count = 4"])
case("conv_grouped", _conv((1, 1), "VALID", groups=2), U((2, 5, 5, 4)), U((3, 3, 2, 6)),
     expect=["feature_group_count = 2"])
case("conv_batch_group", _conv((1, 1), "VALID", batch_groups=2), U((4, 5, 5, 3)),
     U((2, 2, 3, 6)), expect=["batch_group_count = 2"])
case("conv_1d", _conv((2,), ((2, 1),), dn=("NWC", "WIO", "NWC")), U((2, 10, 3)), U((4, 3, 5)),
     expect=["[b, 0, f]x[0, i, o]->[b, 0, f]"])
case("conv_3d", _conv((1, 2, 1), "SAME", dn=("NDHWC", "DHWIO", "NDHWC")), U((1, 4, 5, 4, 2)),
     U((2, 3, 2, 2, 3)))
case("conv_transpose", lambda x, w: lax.conv_transpose(x, w, (2, 2), "SAME",
                                                       dimension_numbers=("NHWC", "HWIO", "NHWC")),
     U((1, 4, 4, 3)), U((3, 3, 3, 2)), expect=["lhs_dilate = [2, 2]"])
case("conv_lhs_and_rhs_dilation", _conv((1, 1), ((1, 2), (0, 1)), lhs_dil=(2, 1), rhs_dil=(1, 2)),
     U((1, 4, 5, 2)), U((2, 3, 2, 3)))
case("conv_i8_to_i32", _conv((1, 1), "SAME", pet=jnp.int32), I((1, 5, 5, 3), -128, 127, np.int8),
     I((3, 3, 3, 2), -128, 127, np.int8), expect=["tensor<1x5x5x2xi32>"])
case("conv_f64", _conv((1, 1), "VALID"), U((1, 4, 4, 2), dtype=np.float64),
     U((2, 2, 2, 3), dtype=np.float64), x64=True)
case("conv_f16", _conv((1, 1), "SAME"), U((1, 4, 4, 2), -1, 1, np.float16),
     U((2, 2, 2, 3), -1, 1, np.float16))
# window_reversal: the kernel read back to front (JAX's API never asks for it).
case("conv_window_reversal", _conv((1, 1), ((1, 0), (0, 1))), U((1, 4, 5, 2)), U((2, 3, 2, 3)),
     edit=lambda t: t.replace("reverse = [false, false]", "reverse = [true, false]"))
# The gradient of a depthwise convolution with respect to its kernel uses batch groups.
case("conv_depthwise_kernel_grad",
     lambda x, w, g: jax.grad(lambda w: jnp.sum(_conv((1, 1), "SAME", groups=3)(x, w) * g))(w),
     U((2, 5, 5, 3)), U((3, 3, 1, 3)), U((2, 5, 5, 3)))
dynamic("conv_dyn_batch", _conv((1, 1), "SAME"), ("b, 6, 6, 3", DU()), ("3, 3, 3, 4", DU()))


# ---------------------------------------------------------------- select_and_scatter

def _pool_grad(window, strides, padding, init=-jnp.inf, op=lax.max):
    def f(x, g):
        return jax.grad(lambda x: jnp.sum(lax.reduce_window(x, init, op, window, strides,
                                                            padding) * g))(x)
    return f


case("maxpool_grad_valid", _pool_grad((1, 2, 2, 1), (1, 2, 2, 1), "VALID"), U((2, 6, 6, 3)),
     U((2, 3, 3, 3)), expect=["stablehlo.select_and_scatter"])
case("maxpool_grad_overlap_same", _pool_grad((1, 3, 3, 1), (1, 2, 2, 1), "SAME"),
     U((1, 7, 7, 2)), U((1, 4, 4, 2)))
case("maxpool_grad_ties", _pool_grad((1, 2, 2, 1), (1, 1, 1, 1), "VALID"), SMALL((1, 5, 5, 1)),
     U((1, 4, 4, 1)))
case("minpool_grad", _pool_grad((2, 2), (2, 1), "VALID", jnp.inf, lax.min), U((6, 5)),
     U((3, 4)), expect=["compare  LE"])
case("maxpool_grad_i32", lambda x, g: _select_and_scatter_add(g, x, (1, 3), (1, 2), "VALID"),
     I((3, 9)), I((3, 4)))
# Padding as select_and_scatter's own attribute (JAX pads the operand with a pad op
# instead): the pad is dropped and its amounts moved into the attribute.
case("select_and_scatter_padding", _pool_grad((1, 3, 3, 1), (1, 2, 2, 1), "SAME"),
     U((1, 5, 5, 1)), U((1, 3, 3, 1)), edit=lambda t: _padding_into_attribute(t))
dynamic("maxpool_grad_dyn_batch", _pool_grad((1, 2, 2, 1), (1, 2, 2, 1), "VALID"),
        ("b, 4, 4, 2", DU()), ("b, 2, 2, 2", DU()))


def _select_and_scatter_add(source, operand, window, strides, padding):
    from jax._src.lax import windowed_reductions as wr
    pads = lax.padtype_to_pads(operand.shape, window, strides, padding)
    return wr._select_and_scatter_add(source, operand, lax.ge_p, window, strides, pads)


def _padding_into_attribute(text):
    """Drop the pad before select_and_scatter and give its amounts to `padding`."""
    m = re.search(r" *(%\w+) = stablehlo\.pad (%\w+), %\w+, low = \[([^\]]*)\], "
                  r"high = \[([^\]]*)\], interior = \[[0, ]*\] : "
                  r"\((tensor<[^>]*>), tensor<f32>\) -> (tensor<[^>]*>)\n", text)
    padded, operand, low, high, small, big = m.groups()
    text = text[:m.start()] + text[m.end():]
    lows, highs = low.split(", "), high.split(", ")
    rank = len(lows)
    pairs = ", ".join(f"[{a}, {b}]" for a, b in zip(lows, highs))
    text = text.replace(f'"stablehlo.select_and_scatter"({padded},',
                        f'"stablehlo.select_and_scatter"({operand},')
    text = text.replace(f"padding = dense<0> : tensor<{rank}x2xi64>",
                        f"padding = dense<[{pairs}]> : tensor<{rank}x2xi64>")
    text = re.sub(r"\}\) : \(" + re.escape(big) + r", (tensor<[^>]*>), tensor<f32>\) -> "
                  + re.escape(big), lambda k: f"}}) : ({small}, {k.group(1)}, tensor<f32>) -> {small}",
                  text)
    dims = small[len("tensor<"):].split("x")[:rank]
    full = ", ".join(f"0:{d}" for d in dims)
    return re.sub(r"stablehlo\.slice (%\w+) \[[^\]]*\] : \(" + re.escape(big) + r"\)",
                  lambda k: f"stablehlo.slice {k.group(1)} [{full}] : ({small})", text)


# ---------------------------------------------------------------- export

def run_with_xla(text, args):
    """Compile MLIR text with jaxlib's XLA CPU client and run it."""
    from jax._src import xla_bridge
    exe = xla_bridge.get_backend().compile_and_load(text, jax.devices()[:1])
    res = exe.execute_sharded([jax.device_put(a) for a in args])
    return [np.asarray(o[0]) for o in res.disassemble_into_single_device_arrays()]


def generic_top_k(text):
    return re.sub(r"chlo\.top_k\((%[\w#]+), k = (\d+)\) : (tensor<[^>]*>) -> \(([^)]*)\)",
                  r'"chlo.top_k"(\1) {k = \2 : i64} : (\3) -> (\4)', text)


CONV_RE = re.compile(r"stablehlo\.convolution\(([^)]*)\) dim_numbers = (\[[^\]]*\]x\[[^\]]*\]->\[[^\]]*\])"
                     r"(?:, window = \{([^}]*)\})? \{(.*)\} : (.*)$")


def generic_convolution(text):
    """The pretty convolution lines of a module in the generic form (the rest unchanged)."""
    out = []
    for line in text.splitlines():
        m = CONV_RE.search(line)
        if m:
            ops, spec, win, attrs, sig = m.groups()
            props = [f"dimension_numbers = #stablehlo.conv<{spec}>"]
            w = dict(re.findall(r"(\w+) = (\[\[.*?\]\]|\[[^\]]*\])", win or ""))
            n = len(re.findall(r"\d+", spec.split("x")[0]))
            for key, name in (("stride", "window_strides"), ("lhs_dilate", "lhs_dilation"),
                              ("rhs_dilate", "rhs_dilation")):
                if key in w:
                    props.append(f"{name} = array<i64: {w[key].strip('[]')}>")
            if "pad" in w:
                props.append(f"padding = dense<{w['pad']}> : tensor<{n}x2xi64>")
            if "reverse" in w:
                props.append(f"window_reversal = array<i1: {w['reverse'].strip('[]')}>")
            props.append(attrs)
            line = line[:m.start()] + f'"stablehlo.convolution"({ops}) <{{{", ".join(props)}}}> : {sig}'
        out.append(line)
    return "\n".join(out) + ("\n" if text.endswith("\n") else "")


def export_static(name, c):
    args = eu.make_args(c["args"], np.random.default_rng(eu.seed(name)))
    with eu.x64(c["x64"]):
        jitted = jax.jit(c["fn"], keep_unused=True)
        text = jitted.lower(*args).as_text()
        if c["edit"]:
            edited = c["edit"](text)
            assert edited != text, f"{name}: the edit changed nothing"
            text = edited
            outs = run_with_xla(text, args)
        else:
            outs = jax.tree_util.tree_leaves(jitted(*args))
    eu.check_text(name, text, c["expect"])
    eu.check_input_sizes(name, args, 4096)
    _write(name, text, eu.pack(args, outs))


def export_dynamic(name, c):
    exp = eu.export_symbolic(c["fn"], [(spec, maker(np.random.default_rng(0), (1,)).dtype)
                                       for spec, maker in c["args"]])
    text = exp.mlir_module()
    eu.check_text(name, text, c["expect"])
    assert "?x" in text, f"{name}: no dynamic dim"
    d = {}
    for k, dims in enumerate(SIZES):
        rng = np.random.default_rng(eu.seed(name, f"s{k}"))
        args = [maker(rng, eu.concrete_shape(spec, dims)) for spec, maker in c["args"]]
        outs = jax.tree_util.tree_leaves(exp.call(*args))
        eu.pack(args, outs, f"s{k}_", d)
    _write(name, text, d)


def _write(name, text, d):
    """NAME, and for a module with a pretty top_k or convolution NAME_generic too."""
    files = {name: text}
    if "chlo.top_k(" in text or "stablehlo.convolution(" in text:
        files[name + "_generic"] = generic_convolution(generic_top_k(text))
        assert "chlo.top_k(" not in files[name + "_generic"], name
        assert "stablehlo.convolution(" not in files[name + "_generic"], name
    for n, t in files.items():
        eu.write_case(HERE, n, t, d)


def export_case(name):
    c = CASES[name]
    (export_dynamic if c["kind"] == "dynamic" else export_static)(name, c)


if __name__ == "__main__":
    eu.main(sys.argv[1:], CASES, export_case, HERE)
