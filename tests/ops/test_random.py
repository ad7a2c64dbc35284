"""rng_bit_generator (lowering/ops/random.py) against Philox-4x32-10 written here in numpy
from the algorithm's definition (Salmon et al., SC 2011) and XLA's layout of its output
(xla/hlo/builder/lib/prng.cc), which JAX's outputs in tests/data/jax_dynamic confirm
(random_uniform_rbg_b): every bit equal, on the CPU and on the emulated GPU."""
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


@pytest.mark.parametrize("text, message", [
    (program(2, (4,), "ui32", "THREE_FRY"), "rng_algorithm THREE_FRY is not supported yet"),
    (program(4, (4,), "ui32"), "state must be tensor<2xui64> or"),
    (program(2, (4,), "i1"), "cannot generate random bits of i1"),
])
def test_forms_not_supported_are_named(text, message):
    with pytest.raises(CompileError, match=message):
        aot.compile(text, name="rbg_bad")
