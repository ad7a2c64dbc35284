"""rng_bit_generator (lowering/ops/random.py) against Philox-4x32-10 written here in numpy
from the algorithm's definition (Salmon et al., SC 2011) and XLA's layout of its output
(xla/hlo/builder/lib/prng.cc), which JAX's outputs in tests/data/jax_dynamic confirm
(random_uniform_rbg_b): every bit equal, on the CPU and on the emulated GPU. THREE_FRY
against JAX's outputs (tests/data/random/export.py) and a numpy Threefry-2x32 for the forms
JAX does not make (the dynamic shape operand, signed and float element types)."""
import os

import numpy as np
import pytest

import aot
from abi import AotRuntimeError
from lowering.ir.core import CompileError

M32 = 0xFFFFFFFF


def philox4x32(counter, key):
    x, (k0, k1) = list(counter), key
    for _ in range(10):
        p0, p1 = x[0] * 0xD2511F53, x[2] * 0xCD9E8D57
        x = [((p1 >> 32) ^ x[1] ^ k0) & M32, p1 & M32, ((p0 >> 32) ^ x[3] ^ k1) & M32, p0 & M32]
        k0, k1 = (k0 + 0x9E3779B9) & M32, (k1 + 0xBB67AE85) & M32
    return x


def reference(state, shape, dtype):
    """(new state, bits) of XLA's Philox rng_bit_generator for a 2- or 3-word state."""
    key = int(state[0])
    low, high = int(state[1]), int(state[2] if len(state) == 3 else state[0])
    n = int(np.prod(shape, dtype=np.int64))
    wide = np.dtype(dtype).itemsize == 8
    per_vector = 2 if wide else 4
    vectors = -(-n // per_vector)
    words = []
    for j in range(vectors):
        c = low + j
        h = (high + (c >> 64)) & (2**64 - 1)
        c &= 2**64 - 1
        words += philox4x32([c & M32, c >> 32, h & M32, h >> 32], (key & M32, key >> 32))
    if wide:
        numbers = [words[2 * i] | words[2 * i + 1] << 32 for i in range(len(words) // 2)]
        bits = np.array(numbers[:n], np.uint64)
    else:
        bits = np.array(words[:n], np.uint32).astype(f"uint{8 * np.dtype(dtype).itemsize}")
    new_low = low + vectors
    new = [key, new_low & (2**64 - 1)]
    if len(state) == 3:
        new.append((high + (new_low >> 64)) & (2**64 - 1))
    return np.array(new, np.uint64), bits.view(dtype).reshape(shape)


ELEM = {np.uint32: "ui32", np.uint64: "ui64", np.uint8: "ui8", np.uint16: "ui16",
        np.int32: "i32", np.float32: "f32", np.float64: "f64"}


def program(words, shape, elem, algorithm="DEFAULT"):
    t = f"tensor<{'x'.join(map(str, shape)) + 'x' if shape else ''}{elem}>"
    return f"""func.func @main(%s: tensor<{words}xui64>) -> (tensor<{words}xui64>, {t}) {{
  %ns, %b = stablehlo.rng_bit_generator %s, algorithm = {algorithm} : (tensor<{words}xui64>) -> (tensor<{words}xui64>, {t})
  return %ns, %b : tensor<{words}xui64>, {t}
}}"""  # noqa: E501


STATES = [[1, 2], [123456789012345, 987654321], [7, 2**64 - 3], [5, 2**64 - 2, 9]]


@pytest.mark.parametrize("shape, dtype", [((7,), np.uint32), ((3, 5), np.uint32), ((), np.uint32),
                                          ((2, 0), np.uint32), ((5,), np.uint64), ((3, 3), np.uint8),
                                          ((4, 1, 3), np.uint16), ((6,), np.int32), ((5,), np.float64),
                                          ((2, 3), np.float32)])
def test_bits_and_new_state_match_philox(shape, dtype):
    """Counters near 2^64 carry into the high word (3-word states keep it)."""
    libs = {}
    for state in STATES:
        words = len(state)
        if words not in libs:
            libs[words] = aot.compile(program(words, shape, ELEM[dtype]),
                                      name=f"rbg_{words}_{ELEM[dtype]}_{len(shape)}")
        new, bits = libs[words].main(np.array(state, np.uint64))
        want_new, want_bits = reference(state, shape, dtype)
        np.testing.assert_array_equal(new, want_new, err_msg=f"state {state}")
        assert bits.dtype == np.dtype(dtype) and bits.shape == shape
        np.testing.assert_array_equal(bits.view(f"uint{8 * bits.itemsize}"),
                                      want_bits.view(f"uint{8 * bits.itemsize}"), err_msg=f"{state}")


DYNAMIC = """func.func @main(%s: tensor<2xui64>, %shape: tensor<2xi32>) -> (tensor<2xui64>, tensor<?x?xui32>) {
  %ns, %b = stablehlo.custom_call @stablehlo.dynamic_rng_bit_generator(%s, %shape) {api_version = 2 : i32, rng_algorithm = #stablehlo<rng_algorithm DEFAULT>} : (tensor<2xui64>, tensor<2xi32>) -> (tensor<2xui64>, tensor<?x?xui32>)
  return %ns, %b : tensor<2xui64>, tensor<?x?xui32>
}"""  # noqa: E501


@pytest.mark.parametrize("target", ["cpu", "cuda"])
def test_dynamic_form_any_shape_from_one_library(target, tmp_path):
    """@stablehlo.dynamic_rng_bit_generator (jax.export): the shape is an operand."""
    from tooling.gpu_emu import build_emulated
    lib = (build_emulated(DYNAMIC, "rbg_dynamic", str(tmp_path)) if target == "cuda"
           else aot.compile(DYNAMIC, name="rbg_dynamic"))
    state = np.array([42, 2**64 - 5], np.uint64)
    for shape in [(1, 1), (3, 3), (0, 4), (17, 5)]:
        new, bits = lib.main(state, np.array(shape, np.int32))
        want_new, want_bits = reference(state, shape, np.uint32)
        np.testing.assert_array_equal(new, want_new)
        np.testing.assert_array_equal(bits, want_bits, err_msg=str(shape))
    with pytest.raises(AotRuntimeError, match="dim 1 of the shape is negative"):
        lib.main(state, np.array([2, -1], np.int32))


THREE_FRY = np.load(os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                                 "data", "random", "three_fry.npz"))


def threefry2x32(x0, x1, k0, k1):
    rotations = ((13, 15, 26, 6), (17, 29, 16, 24))
    ks = (k0, k1, 0x1BD11BDA ^ k0 ^ k1)
    x0, x1 = (x0 + k0) & M32, (x1 + k1) & M32
    for group in range(5):
        for r in rotations[group % 2]:
            x0 = (x0 + x1) & M32
            x1 = x0 ^ (((x1 << r) | (x1 >> (32 - r))) & M32)
        x0 = (x0 + ks[(group + 1) % 3]) & M32
        x1 = (x1 + ks[(group + 2) % 3] + group + 1) & M32
    return x0, x1


def three_fry_reference(state, shape, dtype):
    """(new state, bits) of XLA's Threefry rng_bit_generator (prng.cc's layout)."""
    key, base = int(state[0]), int(state[1])

    def words(i):
        c = (base + i) & (2**64 - 1)
        return threefry2x32(c & M32, c >> 32, key & M32, key >> 32)
    width = 8 * np.dtype(dtype).itemsize
    if width == 64:
        n = int(np.prod(shape, dtype=np.int64))
        bits = np.array([w0 | w1 << 32 for w0, w1 in map(words, range(n))], np.uint64)
        return np.array([key, (base + n) & (2**64 - 1)], np.uint64), bits.view(dtype).reshape(shape)
    if not shape:
        halved, split = (1,), None
    else:
        even = [d for d, n in enumerate(shape) if n % 2 == 0]
        split = even[0] if even else int(np.argmax(shape))
        halved = tuple(-(-n // 2) if d == split else n for d, n in enumerate(shape))
    bits = np.zeros(shape, np.uint32)
    for idx in np.ndindex(*shape):
        half = tuple(i // 2 if d == split else i for d, i in enumerate(idx))
        pair = words(int(np.ravel_multi_index(half, halved)) if half else 0)
        bits[idx] = pair[idx[split] % 2 if shape else 0]
    used = int(np.prod(halved))
    return np.array([key, (base + used) & (2**64 - 1)], np.uint64), bits.astype(f"uint{width}").view(dtype)


def _three_fry_cases():
    names = sorted({k.rsplit("_", 2)[0] for k in THREE_FRY.files if k != "states"})
    return [(tuple(int(d) for d in n.rsplit("_", 1)[0].split("x") if d), np.dtype(n.rsplit("_", 1)[1]))
            for n in names]


@pytest.mark.parametrize("shape, dtype", _three_fry_cases())
def test_three_fry_matches_jax(shape, dtype):
    """Every bit and the new state as JAX gives them, for states whose counters wrap past
    2^64; the numpy reference agrees (so it can stand in for JAX below)."""
    elem = {np.uint8: "ui8", np.uint16: "ui16", np.uint32: "ui32", np.uint64: "ui64"}[dtype.type]
    lib = aot.compile(program(2, shape, elem, "THREE_FRY"), name=f"tf_{elem}_{len(shape)}")
    name = "x".join(map(str, shape)) + "_" + dtype.name
    for i, state in enumerate(THREE_FRY["states"]):
        new, bits = lib.main(state)
        want_new, want_bits = THREE_FRY[f"{name}_{i}_state"], THREE_FRY[f"{name}_{i}_bits"]
        np.testing.assert_array_equal(new, want_new, err_msg=f"state {state}")
        assert bits.dtype == dtype and bits.shape == shape
        np.testing.assert_array_equal(bits, want_bits, err_msg=f"state {state}")
        ref_new, ref_bits = three_fry_reference(state, shape, dtype)
        np.testing.assert_array_equal(ref_new, want_new)
        np.testing.assert_array_equal(ref_bits, want_bits)


@pytest.mark.parametrize("shape, dtype", [((3, 4), np.int32), ((5,), np.float32), ((3,), np.float64),
                                          ((2, 5), np.int64)])
def test_three_fry_other_types_are_the_same_bits(shape, dtype):
    state = np.array([99, 2**64 - 2], np.uint64)
    lib = aot.compile(program(2, shape, ELEM.get(dtype, "i64"), "THREE_FRY"), name="tf_other")
    new, bits = lib.main(state)
    want_new, want_bits = three_fry_reference(state, shape, dtype)
    np.testing.assert_array_equal(new, want_new)
    assert bits.dtype == np.dtype(dtype)
    unsigned = f"uint{8 * bits.itemsize}"
    np.testing.assert_array_equal(bits.view(unsigned), want_bits.view(unsigned))


@pytest.mark.parametrize("target", ["cpu", "cuda"])
def test_three_fry_dynamic_shape_picks_the_split_dim_at_run_time(target, tmp_path):
    """32-bit bits halve the first even dim, else the first largest: chosen from the shape
    operand's values."""
    from tooling.gpu_emu import build_emulated
    text = DYNAMIC.replace("DEFAULT", "THREE_FRY")
    lib = (build_emulated(text, "tf_dynamic", str(tmp_path)) if target == "cuda"
           else aot.compile(text, name="tf_dynamic"))
    state = np.array([42, 2**64 - 5], np.uint64)
    for shape in [(1, 1), (3, 3), (3, 4), (4, 3), (5, 3), (3, 7), (0, 4), (6, 5)]:
        new, bits = lib.main(state, np.array(shape, np.int32))
        want_new, want_bits = three_fry_reference(state, shape, np.uint32)
        np.testing.assert_array_equal(new, want_new, err_msg=str(shape))
        np.testing.assert_array_equal(bits, want_bits, err_msg=str(shape))


@pytest.mark.parametrize("text, message", [
    (program(2, (4,), "ui32", "FOUR_FRY"), "unknown rng_algorithm FOUR_FRY"),
    (program(3, (4,), "ui32", "THREE_FRY"), "the Threefry state must be tensor<2xui64>"),
    (program(4, (4,), "ui32"), "state must be tensor<2xui64> or"),
    (program(2, (4,), "i1"), "cannot generate random bits of i1"),
])
def test_forms_not_supported_are_named(text, message):
    with pytest.raises(CompileError, match=message):
        aot.compile(text, name="rbg_bad")
