"""PyTorch models compiled by this project against PyTorch eager and `torch.compile`
(Inductor, CPU), in one run, one thread each, at several batch sizes from one library (a
dynamic batch, and sequence for the text models), with the compile times beside. The models
are the corpus's own small versions (tests/data/torch/export.py: torchvision does not import
beside the CPU torch here, so ResNet-18, MobileNetV3 and ViT are small versions written there)
plus wider ones. Each library's outputs are checked against
eager's. A benchmark, not a test: it asserts nothing about time.

    python benchmarks/torch_models.py [--reps 30] [--models mlp,cnn,gpt,...] [--no-compile]

Needs torch (`pip install '.[torch]'`); the libraries themselves do not.
"""
from __future__ import annotations

import bench_env  # noqa: F401  one thread everywhere; before numpy and torch

# isort: split

import argparse  # noqa: E402
import os  # noqa: E402
import sys  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402

import numpy as np  # noqa: E402

import torch  # noqa: E402
from torch.export import Dim  # noqa: E402

sys.path.insert(0, os.path.join(bench_env.ROOT, "tests", "data", "torch"))
import export as corpus  # noqa: E402  the corpus's model classes

import aot  # noqa: E402


class WideMLP(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.net = torch.nn.Sequential(torch.nn.Linear(512, 1024), torch.nn.GELU(),
                                       torch.nn.Linear(1024, 1024), torch.nn.GELU(),
                                       torch.nn.LayerNorm(1024), torch.nn.Linear(1024, 10))

    def forward(self, x):
        return torch.softmax(self.net(x), -1)


B, T = Dim("batch", min=1, max=64), Dim("seq", min=2, max=128)
# name -> (model maker, example maker(batch), dynamic shapes, batches)
MODELS = {
    "mlp": (corpus.MLP, lambda b: (torch.randn(b, 16),), {"x": {0: B}}, [1, 8, 32]),
    "mlp_wide": (WideMLP, lambda b: (torch.randn(b, 512),), {"x": {0: B}}, [1, 8, 32]),
    "cnn": (corpus.CNN, lambda b: (torch.randn(b, 3, 16, 16),), {"x": {0: B}}, [1, 8, 32]),
    "gpt": (lambda: corpus.GPT(vocab=512, d=128, heads=4, max_len=128),
            lambda b: (torch.randint(0, 512, (b, 32)),), {"ids": {0: B, 1: T}}, [1, 4, 16]),
    "encoder": (corpus.Encoder, lambda b: (torch.randint(0, 40, (b, 24)),),
                {"ids": {0: B, 1: T}}, [1, 8, 32]),
    "rnn": (corpus.RNN, lambda b: (torch.randn(b, 7, 4),), {"x": {0: B}}, [1, 8, 32]),
    "resnet": (corpus.TinyResNet, lambda b: (torch.randn(b, 3, 16, 16),), {"x": {0: B}}, [1, 8, 32]),
    "mobilenet": (corpus.TinyMobileNet, lambda b: (torch.randn(b, 3, 16, 16),), {"x": {0: B}},
                  [1, 8, 32]),
    "vit": (corpus.TinyViT, lambda b: (torch.randn(b, 3, 16, 16),), {"x": {0: B}}, [1, 8, 32]),
}


def median_ms(fn, reps: int) -> float:
    return bench_env.median_ms(fn, reps)


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--reps", type=int, default=30)
    p.add_argument("--models", default=",".join(MODELS))
    p.add_argument("--no-compile", action="store_true", help="skip torch.compile")
    args = p.parse_args()
    torch.set_num_threads(1)
    print(f"PyTorch models — torch {torch.__version__}, one thread each; cpu: "
          f"{bench_env.cpu_name()}; load average {bench_env.loadavg()}")
    print(f"{'model':9} {'batch':>5} {'aot ms':>8} {'eager ms':>9} {'compile ms':>10} "
          f"{'aot/eager':>9} {'aot/compile':>11}   max |aot-eager|")
    compile_rows = []
    os.environ["AOTC_CACHE_DIR"] = tempfile.mkdtemp(prefix="aotc-torch-bench-")
    for name in args.models.split(","):
        make, example, dynamic, batches = MODELS[name]
        torch.manual_seed(0)
        model = make().eval()
        t0 = time.perf_counter()
        ep = torch.export.export(model, example(2), dynamic_shapes=dynamic)
        t_export = time.perf_counter() - t0
        t0 = time.perf_counter()
        lib = aot.compile(ep, name)
        t_aot = time.perf_counter() - t0
        lib.set_num_threads(1)
        compiled, t_inductor = None, None
        if not args.no_compile:
            compiled = torch.compile(model, dynamic=True)
            t0 = time.perf_counter()
            with torch.no_grad():
                compiled(*example(batches[0]))
            t_inductor = time.perf_counter() - t0
        for b in batches:
            inputs = example(b)
            arrays = [t.numpy() for t in inputs]
            with torch.no_grad():
                want = model(*inputs)
                want = want[0] if isinstance(want, tuple) else want
                got = lib.main(*arrays)
                got = got[0] if isinstance(got, (list, tuple)) else got
                err = float(np.abs(got - want.numpy()).max())
                t_lib = median_ms(lambda: lib.main(*arrays), args.reps)
                t_eager = median_ms(lambda: model(*inputs), args.reps)
                t_comp = (median_ms(lambda: compiled(*inputs), args.reps)
                          if compiled is not None else float("nan"))
            print(f"{name:9} {b:5d} {t_lib:8.3f} {t_eager:9.3f} {t_comp:10.3f} "
                  f"{t_lib / t_eager:9.2f} {t_lib / t_comp:11.2f}   {err:.1e}", flush=True)
        compile_rows.append((name, t_export, t_aot, t_inductor))
    print(f"\n{'model':9} {'export s':>9} {'aot compile s':>13} {'torch.compile 1st call s':>25}")
    for name, te, ta, ti in compile_rows:
        print(f"{name:9} {te:9.2f} {ta:13.2f} {ti if ti is not None else float('nan'):25.2f}")
    print(f"load average at the end: {bench_env.loadavg()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
