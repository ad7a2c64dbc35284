"""torchvision's own model classes (random weights, no downloads), exported with
torch.export and compiled, against PyTorch eager: ResNet-18, MobileNetV3 (small), EfficientNet-B0,
ViT-B/16 (at a 32x32 image: 4 patches and a class token, ViT-B/16's full 12 layers and 768
features) and DenseNet-121 (concatenations of up to 25 operands), each static and with a dynamic
batch at three sizes from one library, from Python and from a C program (no Python inside,
tests/data/torch/run_main.c).

Runs in `make test-torchvision`, which makes its own venv (torchvision's wheels are CUDA builds
of torch 2.14.1 that run on the CPU; they do not import beside the CPU torch 2.13 of the
`torch` extra) and sets AOTC_TEST_TORCHVISION=1."""
import os

import numpy as np
import pytest

import aot

if not os.environ.get("AOTC_TEST_TORCHVISION"):
    pytest.skip("torchvision's models run in `make test-torchvision`", allow_module_level=True)

import torch  # noqa: E402
from e2e.test_torch import c_caller, corpus_module  # noqa: E402
from torch import nn  # noqa: E402
from torch.export import Dim  # noqa: E402

corpus = corpus_module()
MODELS = list(corpus.TORCHVISION)
BATCHES = (1, 2, 3)


def model_and_size(name: str) -> tuple[nn.Module, int]:
    return corpus.torchvision_model(name), corpus.TORCHVISION[name][2]


def image(batch: int, size: int, seed: int) -> np.ndarray:
    return np.random.default_rng(seed).standard_normal((batch, 3, size, size)).astype(np.float32)


def eager(model: nn.Module, x: np.ndarray) -> np.ndarray:
    with torch.no_grad():
        return model(torch.from_numpy(x)).numpy()


def close(got, want):
    if len(want) > 1:  # the images' logits differ: the weights are not washed out
        assert float(np.ptp(want, axis=0).max()) > 1e-2 * float(np.abs(want).max())
    # Deep networks (ViT's 12 layers, EfficientNet's 16 blocks) sum in a different order
    # than ATen's kernels: f32 tolerance relative to the logits' scale.
    scale = float(np.abs(want).max())
    np.testing.assert_allclose(got, want, rtol=1e-3, atol=1e-4 * max(scale, 1.0))


@pytest.mark.parametrize("name", MODELS)
def test_dynamic_batch_matches_eager(name, tmp_path):
    """One library with a torch.export Dim batch serves batches 1, 2 and 3, from Python and
    from a C program; batch 0 and a batch past the Dim's maximum are refused by name."""
    model, size = model_and_size(name)
    lib = aot.compile_torch(model, torch.from_numpy(image(2, size, 0)), name=name,
                            dynamic_shapes={"x": {0: Dim("batch", min=1, max=32)}})
    assert str(lib.main.signature).startswith(f"main(x: f32[?,3,{size},{size}])")
    call = c_caller(lib, str(tmp_path))
    for b in BATCHES:
        x = image(b, size, b)
        want = eager(model, x)
        close(lib.main(x), want)
        close(call(x)[0], want)
    with pytest.raises(RuntimeError, match="input 'x' dim 0 is 0, below its minimum 1"):
        lib.main(np.zeros((0, 3, size, size), np.float32))
    with pytest.raises(RuntimeError, match="input 'x' dim 0 is 33, above its maximum 32"):
        lib.main(np.zeros((33, 3, size, size), np.float32))
    with pytest.raises(RuntimeError, match="failed: .*input 'x' dim 0 is 0, below its minimum 1"):
        call(np.zeros((0, 3, size, size), np.float32))


@pytest.mark.parametrize("name", MODELS)
def test_static_matches_eager(name):
    model, size = model_and_size(name)
    x = image(2, size, 7)
    lib = aot.compile_torch(model, torch.from_numpy(x), name=f"{name}_static")
    assert str(lib.main.signature).startswith(f"main(x: f32[2,3,{size},{size}])")
    close(lib.main(x), eager(model, x))
