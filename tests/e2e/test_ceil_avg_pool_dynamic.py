"""ceil_mode average pooling over `?` spatial dims (PyTorch door): the saved ceil_avg_pools
case (tests/data/torch/export.py) at five sizes against PyTorch's eager outputs, saved with
it; each size set keeps or drops a last partial window along some dim."""
import os

import numpy as np

import aot
from e2e.test_torch import size_sets

DATA = os.path.join(os.path.dirname(__file__), "..", "data", "torch")


def test_ceil_avg_pools_match_eager_at_every_size():
    lib = aot.compile(os.path.join(DATA, "ceil_avg_pools.pt2"))
    cases = size_sets("ceil_avg_pools")
    assert len(cases) == 5 and len({args[0].shape for args, _ in cases}) == 5  # five run-time shapes
    for (x,), want in cases:
        got = lib.main(x)
        assert len(got) == len(want) == 5
        for i, (g, w) in enumerate(zip(got, want)):
            assert g.shape == w.shape, (x.shape, i, g.shape, w.shape)
            np.testing.assert_allclose(g, w, rtol=1e-5, atol=1e-6, err_msg=f"{x.shape} output {i}")


def test_jax_ceil_padding_from_the_run_time_height():
    """jax.export of a 3-row, stride-2 window sum over a symbolic height h, padded high by
    (3 - h) mod 2 to keep the last partial window (ceil mode), then / 9: the padding is
    computed at run time (stablehlo.dynamic_reduce_window). Against numpy at odd and even h."""
    lib = aot.compile(os.path.join(DATA, "..", "ceil_pool", "jax_ceil_avg_pool.mlir"))
    for h in (3, 4, 7, 8, 13):
        x = np.random.default_rng(h).standard_normal((1, 2, h, 4)).astype(np.float32)
        padded = np.pad(x, [(0, 0), (0, 0), (0, (3 - h) % 2), (0, 0)])
        want = np.stack([padded[:, :, i:i + 3].sum(2) for i in range(0, padded.shape[2] - 2, 2)], 2) / 9
        got = np.asarray(lib.main(x))
        assert got.shape == (1, 2, (h - 2) // 2 + 1, 4)
        np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-6)
