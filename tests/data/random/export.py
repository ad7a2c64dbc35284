"""Expected bits of rng_bit_generator with algorithm THREE_FRY, from JAX (XLA's CPU backend),
for tests/ops/test_random.py: for each case (shape, dtype) and each state in STATES, the new
state and the bits, written to three_fry.npz under "SHAPE_DTYPE_STATEINDEX_{state,bits}".

Run with the JAX environment (see tests/data/export_util.py), not the project's:
    /tmp/jaxvenv/bin/python tests/data/random/export.py
"""
import os

import jax
import jax.numpy as jnp
import numpy as np

jax.config.update("jax_enable_x64", True)
HERE = os.path.dirname(os.path.abspath(__file__))
STATES = [[1, 2], [123456789012345, 987654321], [7, 2**64 - 3], [2**64 - 1, 2**63 + 5]]
CASES = [  # (shape, dtype): odd and even dims (the split dim), size-1 and empty dims
    ((), "uint32"), ((1,), "uint32"), ((7,), "uint32"), ((3, 5), "uint32"), ((4, 6), "uint32"),
    ((3, 5, 7), "uint32"), ((5, 1, 3), "uint32"), ((3, 2, 5), "uint32"), ((2, 0), "uint32"),
    ((1, 9), "uint32"), ((), "uint64"), ((7,), "uint64"), ((3, 5), "uint64"), ((2, 3, 4), "uint64"),
    ((5, 3), "uint8"), ((4, 3), "uint16"),
]


def name(shape, dtype):
    return "x".join(map(str, shape)) + "_" + dtype


def main():
    out = {}
    for shape, dtype in CASES:
        fn = jax.jit(lambda k, shape=shape, dtype=dtype: jax.lax.rng_bit_generator(
            k, shape, dtype=jnp.dtype(dtype), algorithm=jax.lax.RandomAlgorithm.RNG_THREE_FRY))
        text = fn.lower(np.zeros(2, np.uint64)).as_text()
        assert "algorithm = THREE_FRY" in text, text
        for i, state in enumerate(STATES):
            new, bits = fn(np.array(state, np.uint64))
            out[f"{name(shape, dtype)}_{i}_state"] = np.asarray(new)
            out[f"{name(shape, dtype)}_{i}_bits"] = np.asarray(bits)
    out["states"] = np.array(STATES, np.uint64)
    np.savez_compressed(os.path.join(HERE, "three_fry.npz"), **out)
    print("wrote", len(out), "arrays to", os.path.join(HERE, "three_fry.npz"))


if __name__ == "__main__":
    main()
