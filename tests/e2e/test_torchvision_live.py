"""torchvision's own model classes (random weights, no downloads), exported with
torch.export and compiled, against PyTorch eager: ResNet-18, MobileNetV3 (small), EfficientNet-B0,
ViT-B/16 (at a 32x32 image: 4 patches and a class token, ViT-B/16's full 12 layers and 768
features) and DenseNet-121 (concatenations of up to 25 operands); the segmentation models
LR-ASPP and DeepLabV3 (MobileNetV3-Large backbones, dilated, bilinear upsampling to the image)
and the video models R3D-18 and R(2+1)D-18 (3-D convolutions over 4-frame clips). Each static
and with a dynamic batch at three sizes from one library, from Python and from a C program (no
Python inside, tests/data/torch/run_main.c). A draft-exported detector's NMS and RoI Align are
a compile error naming them and the model's line.

Runs in `make test-torchvision`, which makes its own venv (torchvision's wheels are CUDA builds
of torch 2.14.1 that run on the CPU; they do not import beside the CPU torch 2.13 of the
`torch` extra) and sets AOTC_TEST_TORCHVISION=1."""
import io
import os
import re

import numpy as np
import pytest

import aot
from lowering.ir.core import CompileError

if not os.environ.get("AOTC_TEST_TORCHVISION"):
    pytest.skip("torchvision's models run in `make test-torchvision`", allow_module_level=True)

import torchvision  # noqa: E402

import torch  # noqa: E402
from e2e.test_torch import c_caller, corpus_module  # noqa: E402
from torch import nn  # noqa: E402
from torch.export import Dim  # noqa: E402

corpus = corpus_module()
MODELS = list(corpus.TORCHVISION) + list(corpus.TORCHVISION_FAMILIES)
BATCHES = (1, 2, 3)


def model_and_shape(name: str) -> tuple[nn.Module, tuple]:
    """The model and one input's shape ([3, size, size], or a clip's [3, time, h, w])."""
    if name in corpus.TORCHVISION_FAMILIES:
        shape = corpus.TORCHVISION_FAMILIES[name][2]
    else:
        shape = (3, corpus.TORCHVISION[name][2], corpus.TORCHVISION[name][2])
    model = corpus.torchvision_family_model(name) if name in corpus.TORCHVISION_FAMILIES \
        else corpus.torchvision_model(name)
    return model, tuple(shape)


def image(batch: int, shape: tuple, seed: int) -> np.ndarray:
    return np.random.default_rng(seed).standard_normal((batch, *shape)).astype(np.float32)


def eager(model: nn.Module, x: np.ndarray) -> np.ndarray:
    """The logits (a segmentation model's dict: its "out" map)."""
    with torch.no_grad():
        y = model(torch.from_numpy(x))
    return (y["out"] if isinstance(y, dict) else y).numpy()


def first(out):
    return out[0] if isinstance(out, (list, tuple)) else out


def close(got, want):
    if len(want) > 1:  # the images' logits differ: the weights are not washed out
        assert float(np.ptp(want, axis=0).max()) > 1e-2 * float(np.abs(want).max())
    # Deep networks (ViT's 12 layers, EfficientNet's 16 blocks) sum in a different order
    # than ATen's kernels: f32 tolerance relative to the logits' scale.
    scale = float(np.abs(want).max())
    np.testing.assert_allclose(got, want, rtol=1e-3, atol=1e-4 * max(scale, 1.0))


def signature(shape, batch) -> str:
    return r"main\(\w+: f32\[" + re.escape(",".join(map(str, (batch, *shape)))) + r"\]\)"


@pytest.mark.parametrize("name", MODELS)
def test_dynamic_batch_matches_eager(name, tmp_path):
    """One library with a torch.export Dim batch serves batches 1, 2 and 3, from Python and
    from a C program; batch 0 and a batch past the Dim's maximum are refused by name."""
    model, shape = model_and_shape(name)
    lib = aot.compile_torch(model, torch.from_numpy(image(2, shape, 0)), name=name,
                            dynamic_shapes=({0: Dim("batch", min=1, max=32)},))
    assert re.match(signature(shape, "?"), str(lib.main.signature)), lib.main.signature
    arg = str(lib.main.signature)[5:].split(":")[0]  # forward's argument name (x, input)
    call = c_caller(lib, str(tmp_path))
    for b in BATCHES:
        x = image(b, shape, b)
        want = eager(model, x)
        close(first(lib.main(x)), want)
        close(call(x)[0], want)
    with pytest.raises(RuntimeError, match=f"input '{arg}' dim 0 is 0, below its minimum 1"):
        lib.main(np.zeros((0, *shape), np.float32))
    with pytest.raises(RuntimeError, match=f"input '{arg}' dim 0 is 33, above its maximum 32"):
        lib.main(np.zeros((33, *shape), np.float32))
    with pytest.raises(RuntimeError, match=f"failed: .*input '{arg}' dim 0 is 0, below its"):
        call(np.zeros((0, *shape), np.float32))


@pytest.mark.parametrize("name", MODELS)
def test_static_matches_eager(name):
    model, shape = model_and_shape(name)
    x = image(2, shape, 7)
    lib = aot.compile_torch(model, torch.from_numpy(x), name=f"{name}_static")
    assert re.match(signature(shape, 2), str(lib.main.signature)), lib.main.signature
    close(first(lib.main(x)), eager(model, x))


class BackboneAndHead(nn.Module):
    """A detector without its box post-processing: the backbone's feature maps and the head's
    box regressions and class logits, what the NMS error message asks for."""

    def __init__(self, detector: nn.Module):
        super().__init__()
        self.backbone, self.head = detector.backbone, detector.head

    def forward(self, x):
        out = self.head(list(self.backbone(x).values()))
        return out["bbox_regression"], out["cls_logits"]


def test_ssdlite_backbone_and_head_match_eager():
    """SSDlite320's MobileNetV3 backbone, extra layers and head with a dynamic batch."""
    torch.manual_seed(29)
    detector = torchvision.models.detection.ssdlite320_mobilenet_v3_large(
        weights=None, weights_backbone=None, num_classes=5)
    model = corpus.randomize(BackboneAndHead(detector), 128)
    lib = aot.compile_torch(model, torch.from_numpy(image(2, (3, 128, 128), 0)),
                            name="ssdlite_head", dynamic_shapes=({0: Dim("batch", max=8)},))
    for b in (1, 3):
        x = image(b, (3, 128, 128), b)
        with torch.no_grad():
            want = [t.numpy() for t in model(torch.from_numpy(x))]
        for got, w in zip(lib.main(x), want):
            close(got, w)


class BoxPostprocess(nn.Module):
    """What torchvision's detectors end with: scores over a threshold, boxes decoded in
    place (a copy_ into a view), torchvision.ops.nms and roi_align (Faster R-CNN's box head)."""

    def forward(self, boxes, scores, feature):
        keep = scores > 0.05
        boxes, scores = boxes[keep], scores[keep]
        boxes[:, 2:] = boxes[:, :2] + boxes[:, 2:].abs()
        kept = torchvision.ops.nms(boxes, scores, 0.5)
        rois = torch.cat([torch.zeros_like(boxes[kept, :1]), boxes[kept]], 1)
        return torchvision.ops.roi_align(feature, rois, 2), scores[kept]


def test_detection_postprocess_is_a_located_error():
    """Detectors export only with draft_export (torch.export cannot decide batched_nms's
    data-dependent branch); what such a program holds without a rule is a compile error
    naming nms (and roi_align beside it) and the model's line, from the ExportedProgram and
    from its .pt2 (whose in-place copy_ on a view used to be the error reported first)."""
    args = (torch.rand(20, 4) * 10, torch.rand(20), torch.rand(1, 4, 16, 16))
    ep = torch.export.export(BoxPostprocess().eval(), args)
    buf = io.BytesIO()
    torch.export.save(ep, buf)
    for source in (ep, buf.getvalue()):
        with pytest.raises(CompileError, match=r"test_torchvision_live.py:\d+:0: error: .*"
                           r"torchvision\.nms\.default .*no rule: compile the backbone and "
                           r"head.*also without a rule: torch\.ops\.torchvision\.roi_align"):
            aot.compile(source, "boxes")
