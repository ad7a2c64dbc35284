"""PyTorch models compiled by this project against PyTorch eager, `torch.compile` (Inductor,
CPU) and AOTInductor (`torch._inductor.aoti_compile_and_package`), in one run, one thread
each, at several batch sizes from one library (a dynamic batch, and sequence for the text
models), with the compile times beside. The models are the corpus's small versions
(tests/data/torch/export.py), wider ones, and torchvision's own ResNet-18, MobileNetV3 (small),
EfficientNet-B0, ViT-B/16 and DenseNet-121 (random weights; in a venv where torchvision imports, as
`make test-torchvision` makes), and transformers' BERT and GPT-2 with small configs (where
transformers imports). Each library's outputs are checked against eager's. With --static,
each batch size also gets a library of its own, exported at that batch (rows `static`). The
compile times are from the same exported program: aotc's `aot.compile(ep)` (decomposing
only a program holding an op without a rule) against AOTInductor's
`aoti_compile_and_package(ep)`. A benchmark, not a test: it asserts nothing about time.

On a shared machine, `--clock cpu` (the default) times each call by the process's CPU time,
one thread, the candidates interleaved call by call (aot, eager, torch.compile, ... then
again), so a busy minute slows them all alike; `--threads 2 --clock wall` gives the
two-thread wall times (Inductor fixes its thread count when it compiles, so one process
measures one thread count).

    python benchmarks/torch_models.py [--reps 30] [--models mlp,cnn,resnet18,...]
                                      [--batches 1,8,32] [--static] [--no-compile] [--no-aoti]
                                      [--threads 1] [--clock cpu|wall]

Needs torch (`pip install '.[torch]'`); the libraries themselves do not.
"""
from __future__ import annotations

import bench_env  # noqa: E402  one thread everywhere; before numpy and torch

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
from aot.import_torch import export_torch  # noqa: E402

try:
    import torchvision  # noqa: F401  (beside the CPU torch 2.13 it does not import)
    HAVE_TORCHVISION = True
except Exception:  # noqa: BLE001  any import failure just leaves its models out
    HAVE_TORCHVISION = False


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
try:
    import transformers  # noqa: F401
    for _name in ("bert", "gpt2"):  # d 128, 2 layers, 4 heads, sequence 32 (positions: 64)
        MODELS[_name] = (lambda n=_name: corpus.transformers_model(n, width=128),
                         lambda b: (torch.randint(0, 100, (b, 32)),),
                         {"ids": {0: B, 1: Dim("seq", min=2, max=64)}},
                         [1, 8, 32])
except Exception:  # noqa: BLE001  any import failure just leaves its models out
    pass
if HAVE_TORCHVISION:
    for _name, (_, _, _size) in corpus.TORCHVISION.items():
        MODELS[_name] = (lambda n=_name: corpus.torchvision_model(n),
                         lambda b, s=_size: (torch.randn(b, 3, s, s),), {"x": {0: B}}, [1, 8, 32])


def aoti(ep, example: tuple, workdir: str):
    """(AOTInductor's runner of `ep`, compile seconds), or (None, why) where it does not build."""
    try:
        t0 = time.perf_counter()
        path = torch._inductor.aoti_compile_and_package(
            ep, package_path=os.path.join(workdir, f"{id(ep)}.pt2"))
        runner = torch._inductor.aoti_load_package(path)
        with torch.no_grad():
            runner(*example)
        return runner, time.perf_counter() - t0
    except Exception as e:  # noqa: BLE001  reported in the table, the run goes on
        return None, f"{type(e).__name__}: {str(e).splitlines()[0][:80] if str(e) else ''}"


def interleaved_ms(runs: dict, reps: int, clock) -> dict:
    """{name: median ms of runs[name]()} over `reps` rounds, each round calling every run
    once in turn (after one warm-up call each)."""
    for fn in runs.values():
        fn()
    times = {name: [] for name in runs}
    for _ in range(reps):
        for name, fn in runs.items():
            t = clock()
            fn()
            times[name].append(clock() - t)
    return {name: float(np.median(t)) * 1e3 for name, t in times.items()}


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--reps", type=int, default=30)
    p.add_argument("--models", default=",".join(MODELS))
    p.add_argument("--batches", default="", help="batch sizes for every model (default: each "
                   "model's own)")
    p.add_argument("--static", action="store_true", help="also a static library per batch size")
    p.add_argument("--no-compile", action="store_true", help="skip torch.compile")
    p.add_argument("--no-aoti", action="store_true", help="skip AOTInductor")
    p.add_argument("--threads", type=int, default=1, help="threads of torch and of the libraries")
    p.add_argument("--clock", choices=("cpu", "wall"), default="cpu",
                   help="cpu: the process's CPU time (one thread on a shared machine); wall")
    args = p.parse_args()
    torch.set_num_threads(args.threads)
    clock = time.process_time if args.clock == "cpu" else time.perf_counter
    print(f"PyTorch models — torch {torch.__version__}, {args.threads} thread(s) each, "
          f"{args.clock} time, interleaved; cpu: {bench_env.cpu_name()}; "
          f"load average {bench_env.loadavg()}")
    print(f"{'model':18} {'batch':>5} {'lib':6} {'aot ms':>8} {'eager ms':>9} {'compile ms':>10} "
          f"{'aoti ms':>8} {'aot/eager':>9} {'aot/compile':>11} {'aot/aoti':>8}   max |aot-eager|")
    compile_rows = []
    workdir = tempfile.mkdtemp(prefix="aotc-torch-bench-")
    os.environ["AOTC_CACHE_DIR"] = workdir
    aot.compile_torch(corpus.MLP().eval(), torch.randn(2, 16), name="warmup")  # the runtime's C
    for name in args.models.split(","):
        make, example, dynamic, batches = MODELS[name]
        batches = [int(b) for b in args.batches.split(",")] if args.batches else batches
        torch.manual_seed(0)
        model = make().eval()
        t0 = time.perf_counter()
        ep = export_torch(model, example(2), dynamic)  # torch.export.export, eval, no_grad
        t_export = time.perf_counter() - t0
        t0 = time.perf_counter()
        lib = aot.compile(ep, name)
        t_aot = time.perf_counter() - t0
        lib.set_num_threads(args.threads)
        statics, t_static = {}, []
        for b in batches if args.static else ():
            t0 = time.perf_counter()
            statics[b] = aot.compile(export_torch(model, example(b)), f"{name}_b{b}")
            t_static.append(time.perf_counter() - t0)
            statics[b].set_num_threads(args.threads)
        compiled, t_inductor = None, None
        if not args.no_compile:
            compiled = torch.compile(model, dynamic=True)
            t0 = time.perf_counter()
            with torch.no_grad():
                compiled(*example(batches[0]))
            t_inductor = time.perf_counter() - t0
        runner, t_aoti = (None, "skipped") if args.no_aoti else aoti(ep, example(batches[0]), workdir)
        for b in batches:
            inputs = example(b)
            arrays = [t.numpy() for t in inputs]
            libraries = [("dyn", lib)] + ([("static", statics[b])] if b in statics else [])
            runs = {kind: (lambda library=library: library.main(*arrays)) for kind, library in libraries}
            runs["eager"] = lambda: model(*inputs)
            if compiled is not None:
                runs["compile"] = lambda: compiled(*inputs)
            if runner is not None:
                runs["aoti"] = lambda: runner(*inputs)
            with torch.no_grad():
                want = model(*inputs)
                want = (want[0] if isinstance(want, tuple) else want).numpy()
                ms = interleaved_ms(runs, args.reps, clock)
            t_eager = ms["eager"]
            t_comp, t_ao = ms.get("compile", float("nan")), ms.get("aoti", float("nan"))
            for kind, library in libraries:
                got = library.main(*arrays)
                got = got[0] if isinstance(got, (list, tuple)) else got
                err = float(np.abs(got - want).max())
                t_lib = ms[kind]
                print(f"{name:18} {b:5d} {kind:6} {t_lib:8.3f} {t_eager:9.3f} {t_comp:10.3f} "
                      f"{t_ao:8.3f} {t_lib / t_eager:9.2f} {t_lib / t_comp:11.2f} "
                      f"{t_lib / t_ao:8.2f}   {err:.1e}", flush=True)
        t_st = f"{np.median(t_static):.2f}" if t_static else "-"
        compile_rows.append((name, t_export, t_aot, t_st, t_inductor, t_aoti))
        print(f"{name:18} compile s: export {t_export:.2f}, aot {t_aot:.2f} (static, median "
              f"{t_st}), torch.compile 1st call {t_inductor or float('nan'):.2f}, AOTInductor "
              f"{t_aoti if isinstance(t_aoti, str) else f'{t_aoti:.2f}'}", flush=True)
    print(f"\n{'model':18} {'export s':>9} {'aot compile s':>13} {'aot static s':>12} "
          f"{'torch.compile 1st call s':>25} {'AOTInductor s':>14}")
    for name, te, ta, ts, ti, tao in compile_rows:
        ti = f"{ti:.2f}" if ti is not None else "-"
        tao = f"{tao:.2f}" if isinstance(tao, float) else f"- ({tao})"
        print(f"{name:18} {te:9.2f} {ta:13.2f} {ts:>12} {ti:>25} {tao:>14}")
    print(f"load average at the end: {bench_env.loadavg()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
