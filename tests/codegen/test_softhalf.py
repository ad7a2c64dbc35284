"""The f16 conversions an artifact for a CPU without them in hardware defines itself
(lowering/codegen/llvm/softhalf.py), run here through LLVM's JIT against numpy's: every half
widened, every half's neighbourhood and a million random floats and doubles narrowed, with
NaNs, infinities, overflow, subnormals and ties."""
import ctypes

import numpy as np
import pytest
from llvmlite import binding as llvm

from lowering.codegen.llvm.softhalf import HALF_CONVERSIONS
from lowering.target import half_in_hardware

# Each conversion applied to an array: (name, input bits, output bits, helper, its types).
LOOPS = [("widen", "i16", "i32", "__extendhfsf2", "half", "float"),
         ("narrow", "i32", "i16", "__truncsfhf2", "float", "half"),
         ("narrow64", "i64", "i16", "__truncdfhf2", "double", "half")]


def _loop(name, src, dst, fn, arg_t, ret_t):
    return f"""
define void @{name}(ptr %in, ptr %out, i64 %n) {{
entry:
  br label %head
head:
  %i = phi i64 [ 0, %entry ], [ %next, %body ]
  %more = icmp slt i64 %i, %n
  br i1 %more, label %body, label %done
body:
  %p = getelementptr {src}, ptr %in, i64 %i
  %x = load {src}, ptr %p
  %a = bitcast {src} %x to {arg_t}
  %r = call {ret_t} @{fn}({arg_t} %a)
  %y = bitcast {ret_t} %r to {dst}
  %q = getelementptr {dst}, ptr %out, i64 %i
  store {dst} %y, ptr %q
  %next = add i64 %i, 1
  br label %head
done:
  ret void
}}"""


@pytest.fixture(scope="module")
def jit():
    from lowering.codegen.llvm.machine import _init_llvm
    _init_llvm()
    llvm.initialize_native_target()
    llvm.initialize_native_asmprinter()
    mod = llvm.parse_assembly(HALF_CONVERSIONS + "".join(_loop(*spec) for spec in LOOPS))
    mod.verify()
    tm = llvm.Target.from_default_triple().create_target_machine()
    engine = llvm.create_mcjit_compiler(mod, tm)
    engine.finalize_object()
    fns = {}
    for name, *_ in LOOPS:
        proto = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int64)
        fns[name] = proto(engine.get_function_address(name))

    def run(name, x, out_dtype):
        x = np.ascontiguousarray(x)
        out = np.empty(x.shape, out_dtype)
        fns[name](x.ctypes.data, out.ctypes.data, x.size)
        return out
    yield run
    del engine


def _same(got_bits, want, what):
    """Bit for bit, except that any NaN matches any NaN (payloads are not checked here)."""
    got = got_bits.view(want.dtype)
    nan = np.isnan(want)
    assert np.array_equal(np.isnan(got), nan), what
    bad = np.nonzero(got_bits[~nan] != want[~nan].view(got_bits.dtype))[0]
    assert bad.size == 0, f"{what}: {bad.size} differ, first {want[~nan][bad[0]]!r}"


def test_every_half_widens_exactly(jit):
    h = np.arange(1 << 16, dtype=np.uint32).astype(np.uint16)
    got = jit("widen", h, np.uint32)
    _same(got, h.view(np.float16).astype(np.float32), "f16 -> f32")
    nan = np.isnan(h.view(np.float16))
    assert np.all(got[nan] & 0x00400000), "a widened NaN is quiet"


def _inputs(dtype, bits_dtype, rng):
    halves = np.arange(1 << 16, dtype=np.uint32).astype(np.uint16).view(np.float16)
    halves = halves[np.isfinite(halves)].astype(dtype)
    # every half, the midpoints between neighbours (ties both ways) and a hair off them
    with np.errstate(over="ignore"):
        up = np.nextafter(halves.astype(np.float16), np.float16(np.inf)).astype(dtype)
    mids = (halves + (up - halves) / 2)[np.isfinite(up)]
    near = np.concatenate([np.nextafter(mids, dtype(np.inf)), np.nextafter(mids, dtype(-np.inf))])
    rand = rng.integers(0, np.iinfo(bits_dtype).max, 1_000_000, dtype=bits_dtype,
                        endpoint=True).view(dtype)
    small = rng.standard_normal(200_000).astype(dtype) * dtype(2.0 ** -14)  # subnormal halves
    big = rng.uniform(6e4, 7e4, 10_000).astype(dtype)  # around the largest half and overflow
    special = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, -np.nan, 65504, 65519.99, 65520,
                        2.0 ** -24, 2.0 ** -25, 3 * 2.0 ** -26, 2.0 ** -26], dtype)
    return np.concatenate([halves, mids, near, rand, small, big, special])


@pytest.mark.parametrize("name, dtype, bits", [("narrow", np.float32, np.uint32),
                                               ("narrow64", np.float64, np.uint64)])
def test_narrowing_rounds_to_nearest_even(jit, name, dtype, bits):
    x = _inputs(dtype, bits, np.random.default_rng(0))
    with np.errstate(over="ignore"):
        want = x.astype(np.float16)  # numpy rounds once, to nearest even, from x itself
    got = jit(name, x.view(bits), np.uint16)
    _same(got, want, f"{np.dtype(dtype).name} -> f16")
    nan = np.isnan(x)
    assert np.all(got[nan] & 0x0200), "a narrowed NaN is quiet"


@pytest.mark.parametrize("triple, features, hardware", [
    ("x86_64-unknown-linux-gnu", "+avx2,+f16c", True),
    ("x86_64-unknown-linux-gnu", "", False),
    ("aarch64-unknown-linux-gnu", "", True),
    ("riscv64-unknown-linux-gnu", "+m,+a,+f,+d,+c", False),
    ("riscv64-unknown-linux-gnu", "+m,+a,+f,+d,+c,+zfhmin", True),
])
def test_which_cpus_convert_in_hardware(triple, features, hardware):
    assert half_in_hardware(triple, features) == hardware


F16_CHAIN = """func.func @main(%x: tensor<4096xf16>, %y: tensor<4096xf64>) -> (tensor<4096xf16>, tensor<4096xf16>) {
  %0 = stablehlo.multiply %x, %x : tensor<4096xf16>
  %1 = stablehlo.convert %y : (tensor<4096xf64>) -> tensor<4096xf16>
  return %0, %1 : tensor<4096xf16>, tensor<4096xf16>
}"""  # noqa: E501


def test_an_artifact_for_a_cpu_without_f16c_runs_on_its_own_conversions(tmp_path):
    """x86-64 without F16C (what --target-triple x86_64-... alone means): the library
    defines the conversions itself, weak and hidden, and its numbers are numpy's."""
    import subprocess

    import aot
    from aot.driver import Compilation, Options
    from aot.toolchain import arch_of, host_triple
    if arch_of(host_triple()) != "x86_64":
        pytest.skip("builds for x86-64 and runs the library here")
    so = str(tmp_path / "libhalf.so")
    opts = Options(name="half", emit="shared", target_triple="x86_64-unknown-linux-gnu")
    Compilation(F16_CHAIN, "half.mlir", opts).build(so)
    symbols = subprocess.run(["nm", "-D", "--defined-only", so], capture_output=True, text=True).stdout
    assert "__truncsfhf2" not in symbols  # hidden: not exported
    local = subprocess.run(["nm", so], capture_output=True, text=True).stdout
    assert " __truncsfhf2" in local and " __truncdfhf2" in local and " __extendhfsf2" in local
    rng = np.random.default_rng(3)
    x = rng.standard_normal(4096).astype(np.float16)
    y = rng.standard_normal(4096) * 1e3
    sq, conv = aot.load(so).main(x, y)
    np.testing.assert_array_equal(sq, (x.astype(np.float32) ** 2).astype(np.float16))
    np.testing.assert_array_equal(conv, y.astype(np.float16))
