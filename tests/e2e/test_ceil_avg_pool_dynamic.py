"""ceil_mode average pooling over `?` spatial dims (PyTorch door): the saved ceil_avg_pools
case (tests/data/torch/export.py) at five sizes against PyTorch's eager outputs, saved with
it; each size set keeps or drops a last partial window along some dim."""
import os

import numpy as np

import aot

DATA = os.path.join(os.path.dirname(__file__), "..", "data", "torch")


def test_ceil_avg_pools_match_eager_at_every_size():
    lib = aot.compile(os.path.join(DATA, "ceil_avg_pools.pt2"))
    data = np.load(os.path.join(DATA, "ceil_avg_pools.npz"))
    sizes = sorted({k.split("_")[0] for k in data.files})
    assert len(sizes) == 5
    shapes = set()
    for s in sizes:
        x = data[f"{s}_arg0"]
        shapes.add(x.shape)
        got = lib.main(x)
        want = [data[f"{s}_out{i}"] for i in range(5)]
        assert len(got) == 5
        for i, (g, w) in enumerate(zip(got, want)):
            assert g.shape == w.shape, (s, i, g.shape, w.shape)
            np.testing.assert_allclose(g, w, rtol=1e-5, atol=1e-6, err_msg=f"{s} output {i}")
    assert len(shapes) == 5  # one program, five run-time shapes
