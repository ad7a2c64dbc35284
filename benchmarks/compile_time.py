"""Compile time against program size: generated programs of about 1k, 4k and 16k ops, each
static (batch 8) and with a `?` batch written as `jax.export` writes it (the batch read once
with get_dimension_size and passed to a private function; every broadcast and reshape of a
batched value a dynamic_broadcast_in_dim / dynamic_reshape of a shape built from it). Prints
each stage's time per op, in microseconds: every pass linear in the program's size keeps a
column flat from 1k to 16k, and the dynamic form's total within 1.5x of the static one's.
Then a DenseNet-121-like program (torchvision's layers at 64x64, weights as arguments; 1k ops
and ~140 distinct kernels, most alike but for their channel counts), static and `?` batch.

    .venv/bin/python benchmarks/compile_time.py [--sizes 1000,4000,16000] [--repeat 1]
    .venv/bin/python benchmarks/compile_time.py --profile 4000 --dynamic   # cProfile, top 25
    .venv/bin/python benchmarks/compile_time.py --files m_static.pt2 m_dyn.pt2 [--profile-files]

Each compile runs in a fresh process (as `aotc compile` would), with the runtime and helper
objects already in the cache (the first compile on a machine, with an empty cache and after
`aotc cache --warm`, is timed by --fresh). A
benchmark, not a test: the machine is shared, so read ratios, not absolute times.

A layer of the generated program (hidden 64, about 36 ops static): a dot with a weight,
a bias broadcast and added, a private gelu function called (tanh form), a layernorm
(two reductions over the last dim, each broadcast back), a concatenation with the layer's
input, a reshape to [batch, 2, 64] and a sum over the pair, a residual add, a slice and a
transpose pair. Layers repeat until the op count is reached.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

HIDDEN = 64
STATIC_BATCH = 8


class Writer:
    """Emits one function's ops as StableHLO text, numbering SSA values, with or without a
    symbolic batch (`%b`, a tensor<i32>)."""

    def __init__(self, dynamic: bool):
        self.dynamic = dynamic
        self.lines: list[str] = []
        self.n = 0
        self.ops = 0  # compute ops: the same in both forms

    def t(self, *dims, elem="f32") -> str:
        return "tensor<" + "".join(("?" if d == "B" and self.dynamic else
                                    str(STATIC_BATCH) if d == "B" else str(d)) + "x"
                                   for d in dims) + elem + ">"

    def op(self, text: str, compute: bool = True) -> str:
        name = f"%v{self.n}"
        self.n += 1
        self.ops += compute
        self.lines.append(f"    {name} = {text}")
        return name

    def shape(self, *dims) -> str:
        """The shape operand of a dynamic op: the batch reshaped to [1] and concatenated with
        the other dims as constants (jax.export's shape code, repeated at every use)."""
        parts = []
        for d in dims:
            if d == "B":
                parts.append(self.op("stablehlo.reshape %b : (tensor<i32>) -> tensor<1xi32>",
                                     False))
            else:
                parts.append(self.op(f"stablehlo.constant dense<{d}> : tensor<1xi32>", False))
        return self.op(f"stablehlo.concatenate {', '.join(parts)}, dim = 0 : "
                       f"({', '.join(['tensor<1xi32>'] * len(dims))}) -> "
                       f"tensor<{len(dims)}xi32>", False)

    def broadcast(self, x: str, src: tuple, dims: list, out: tuple) -> str:
        if self.dynamic and "B" in out:
            s = self.shape(*out)
            return self.op(f"stablehlo.dynamic_broadcast_in_dim {x}, {s}, dims = {dims} : "
                           f"({self.t(*src)}, tensor<{len(out)}xi32>) -> {self.t(*out)}")
        return self.op(f"stablehlo.broadcast_in_dim {x}, dims = {dims} : "
                       f"({self.t(*src)}) -> {self.t(*out)}")

    def reshape(self, x: str, src: tuple, out: tuple) -> str:
        if self.dynamic and "B" in out:
            s = self.shape(*out)
            return self.op(f"stablehlo.dynamic_reshape {x}, {s} : "
                           f"({self.t(*src)}, tensor<{len(out)}xi32>) -> {self.t(*out)}")
        return self.op(f"stablehlo.reshape {x} : ({self.t(*src)}) -> {self.t(*out)}")

    def binary(self, name: str, a: str, b: str, shape: tuple) -> str:
        return self.op(f"stablehlo.{name} {a}, {b} : {self.t(*shape)}")

    def unary(self, name: str, a: str, shape: tuple) -> str:
        return self.op(f"stablehlo.{name} {a} : {self.t(*shape)}")

    def const(self, value: float) -> str:
        return self.op(f"stablehlo.constant dense<{value}> : tensor<f32>")

    def scalar_like(self, value: float, shape: tuple) -> str:
        return self.broadcast(self.const(value), (), [], shape)

    def reduce_last(self, x: str, shape: tuple) -> str:
        zero = self.const(0.0)
        return self.op(f"stablehlo.reduce({x} init: {zero}) applies stablehlo.add across "
                       f"dimensions = [{len(shape) - 1}] : ({self.t(*shape)}, tensor<f32>) -> "
                       f"{self.t(*shape[:-1])}")


def layer(w: Writer, x: str) -> str:
    """One layer (see the module docstring); x is [B, HIDDEN]."""
    bh, h = ("B", HIDDEN), HIDDEN
    d = w.op(f"stablehlo.dot_general {x}, %w, contracting_dims = [1] x [0] : "
             f"({w.t(*bh)}, {w.t(h, h)}) -> {w.t(*bh)}")
    y = w.binary("add", d, w.broadcast("%bias", (h,), [1], bh), bh)
    y = w.op(f"call @gelu({y}{', %b' if w.dynamic else ''}) : ({w.t(*bh)}"
             f"{', tensor<i32>' if w.dynamic else ''}) -> {w.t(*bh)}")
    mean = w.reduce_last(y, bh)
    inv_n = w.scalar_like(1.0 / h, ("B",))
    mean = w.binary("multiply", mean, inv_n, ("B",))
    centred = w.binary("subtract", y, w.broadcast(mean, ("B",), [0], bh), bh)
    var = w.reduce_last(w.binary("multiply", centred, centred, bh), bh)
    var = w.binary("multiply", var, w.scalar_like(1.0 / h, ("B",)), ("B",))
    rstd = w.unary("rsqrt", w.binary("add", var, w.scalar_like(1e-5, ("B",)), ("B",)), ("B",))
    y = w.binary("multiply", centred, w.broadcast(rstd, ("B",), [0], bh), bh)
    both = w.op(f"stablehlo.concatenate {y}, {x}, dim = 1 : ({w.t(*bh)}, {w.t(*bh)}) -> "
                f"{w.t('B', 2 * h)}")
    pairs = w.reshape(both, ("B", 2 * h), ("B", 2, h))
    zero = w.const(0.0)
    summed = w.op(f"stablehlo.reduce({pairs} init: {zero}) applies stablehlo.add across "
                  f"dimensions = [1] : ({w.t('B', 2, h)}, tensor<f32>) -> {w.t(*bh)}")
    t = w.op(f"stablehlo.transpose {summed}, dims = [1, 0] : ({w.t(*bh)}) -> {w.t(h, 'B')}")
    t = w.unary("negate", t, (h, "B"))
    back = w.op(f"stablehlo.transpose {t}, dims = [1, 0] : ({w.t(h, 'B')}) -> {w.t(*bh)}")
    return w.binary("subtract", x, back, bh)


def gelu(dynamic: bool) -> str:
    w = Writer(dynamic)
    bh = ("B", HIDDEN)
    x = "%x"
    cube = w.binary("multiply", x, w.binary("multiply", x, x, bh), bh)
    inner = w.binary("add", x, w.binary("multiply", cube, w.scalar_like(0.044715, bh), bh), bh)
    th = w.unary("tanh", w.binary("multiply", inner, w.scalar_like(0.7978845608, bh), bh), bh)
    half = w.binary("multiply", x, w.scalar_like(0.5, bh), bh)
    out = w.binary("multiply", half, w.binary("add", th, w.scalar_like(1.0, bh), bh), bh)
    args = f"%x: {w.t(*bh)}" + (", %b: tensor<i32>" if dynamic else "")
    return (f"  func.func private @gelu({args}) -> {w.t(*bh)} {{\n" + "\n".join(w.lines)
            + f"\n    return {out} : {w.t(*bh)}\n  }}\n"), w.ops


def program(ops: int, dynamic: bool) -> tuple[str, int]:
    """(MLIR text, compute ops counted with the gelu calls inlined) of about `ops` ops."""
    gelu_text, gelu_ops = gelu(dynamic)
    w = Writer(dynamic)
    x, calls = "%x", 0
    while w.ops + calls * (gelu_ops - 1) < ops:  # each call becomes the function's ops
        x = layer(w, x)
        calls += 1
    count = w.ops + calls * (gelu_ops - 1)
    bh = w.t("B", HIDDEN)
    params = f"%x: {bh}, %w: tensor<{HIDDEN}x{HIDDEN}xf32>, %bias: tensor<{HIDDEN}xf32>"
    body = "\n".join(w.lines) + f"\n    return {x} : {bh}\n  }}\n"
    if not dynamic:
        return (f"module @compile_time {{\n  func.func public @main({params}) -> {bh} {{\n"
                + body + gelu_text + "}\n"), count
    main = (f"  func.func public @main({params}) -> {bh} {{\n"
            f"    %b = stablehlo.get_dimension_size %x, dim = 0 : ({bh}) -> tensor<i32>\n"
            f"    %r = call @layers(%b, %x, %w, %bias) : (tensor<i32>, {bh}, "
            f"tensor<{HIDDEN}x{HIDDEN}xf32>, tensor<{HIDDEN}xf32>) -> {bh}\n"
            f"    return %r : {bh}\n  }}\n")
    return (f"module @compile_time {{\n{main}  func.func private @layers(%b: tensor<i32>, "
            f"{params}) -> {bh} {{\n" + body + gelu_text + "}\n"), count


# DenseNet-121 as torchvision builds it (blocks of 6, 12, 24 and 16 layers, growth 32, a
# 4x32-channel bottleneck; each layer's batch norm and ReLU over the concatenation of every
# earlier map), at 64x64, NCHW, batch norms as per-channel scale and shift: its concatenations
# and thin 1x1 convolutions repeat with 32 more channels at every layer, which is what makes
# its kernels many and alike. Weights are arguments (the text stays small).
DENSE_BLOCKS, GROWTH, BOTTLENECK, DENSE_HW = (6, 12, 24, 16), 32, 128, 64


def densenet121(dynamic: bool) -> tuple[str, int]:
    """(MLIR text, compute ops) of the DenseNet-121-like program, static at batch 8 or with
    a `?` batch."""
    w = Writer(dynamic)
    params = []

    def param(*dims) -> str:
        name = f"%p{len(params)}"
        params.append(f"{name}: {w.t(*dims)}")
        return name

    def conv(x, c, hw, out, k, stride=1):
        pad, ohw = k // 2, (hw + 2 * (k // 2) - k) // stride + 1
        y = w.op(f"stablehlo.convolution({x}, {param(out, c, k, k)}) dim_numbers = "
                 f"[b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1], window = {{stride = [{stride}, "
                 f"{stride}], pad = [[{pad}, {pad}], [{pad}, {pad}]]}} {{batch_group_count = 1 : "
                 f"i64, feature_group_count = 1 : i64}} : ({w.t('B', c, hw, hw)}, "
                 f"{w.t(out, c, k, k)}) -> {w.t('B', out, ohw, ohw)}")
        return y, ohw

    def norm_relu(x, c, hw):
        shape = ("B", c, hw, hw)
        y = w.binary("multiply", x, w.broadcast(param(c), (c,), [1], shape), shape)
        y = w.binary("add", y, w.broadcast(param(c), (c,), [1], shape), shape)
        return w.binary("maximum", y, w.scalar_like(0.0, shape), shape)

    def pool(x, c, hw, k, stride, op, init):
        out = (hw + 2 * (k // 2 if op == "maximum" else 0) - k) // stride + 1
        pad = k // 2 if op == "maximum" else 0
        a, b2 = f"%a{w.n}", f"%c{w.n}"
        y = w.op(f'"stablehlo.reduce_window"({x}, {w.const(init)}) ({{\n    ^bb0({a}: tensor<f32>, '
                 f"{b2}: tensor<f32>):\n      %r{w.n} = stablehlo.{op} {a}, {b2} : tensor<f32>\n"
                 f"      stablehlo.return %r{w.n} : tensor<f32>\n    }}) {{window_dimensions = "
                 f"array<i64: 1, 1, {k}, {k}>, window_strides = array<i64: 1, 1, {stride}, {stride}>, "
                 f"padding = dense<[[0, 0], [0, 0], [{pad}, {pad}], [{pad}, {pad}]]> : "
                 f"tensor<4x2xi64>}} : ({w.t('B', c, hw, hw)}, tensor<f32>) -> "
                 f"{w.t('B', c, out, out)}")
        return y, out

    x, hw = conv("%x", 3, DENSE_HW, 64, 7, 2)
    x, hw = pool(norm_relu(x, 64, hw), 64, hw, 3, 2, "maximum", "0xFF800000")
    features, c = [(x, 64)], 64
    for i, layers in enumerate(DENSE_BLOCKS):
        for _ in range(layers):
            joined = features[0][0] if len(features) == 1 else w.op(
                f"stablehlo.concatenate {', '.join(f for f, _ in features)}, dim = 1 : "
                f"({', '.join(w.t('B', n, hw, hw) for _, n in features)}) -> "
                f"{w.t('B', c, hw, hw)}")
            y, _ = conv(norm_relu(joined, c, hw), c, hw, BOTTLENECK, 1)
            y, _ = conv(norm_relu(y, BOTTLENECK, hw), BOTTLENECK, hw, GROWTH, 3)
            features.append((y, GROWTH))
            c += GROWTH
        x = w.op(f"stablehlo.concatenate {', '.join(f for f, _ in features)}, dim = 1 : "
                 f"({', '.join(w.t('B', n, hw, hw) for _, n in features)}) -> "
                 f"{w.t('B', c, hw, hw)}")
        if i < len(DENSE_BLOCKS) - 1:  # transition: half the channels, half the size
            x, _ = conv(norm_relu(x, c, hw), c, hw, c // 2, 1)
            c //= 2
            x, hw = pool(x, c, hw, 2, 2, "add", 0.0)
            x = w.binary("multiply", x, w.scalar_like(0.25, ("B", c, hw, hw)), ("B", c, hw, hw))
            features = [(x, c)]
    x = norm_relu(x, c, hw)
    zero = w.const(0.0)
    x = w.op(f"stablehlo.reduce({x} init: {zero}) applies stablehlo.add across dimensions = "
             f"[2, 3] : ({w.t('B', c, hw, hw)}, tensor<f32>) -> {w.t('B', c)}")
    logits = w.op(f"stablehlo.dot_general {x}, {param(c, 1000)}, contracting_dims = [1] x [0] : "
                  f"({w.t('B', c)}, {w.t(c, 1000)}) -> {w.t('B', 1000)}")
    out = w.t("B", 1000)
    head = f"%x: {w.t('B', 3, DENSE_HW, DENSE_HW)}, " + ", ".join(params)
    size = (f"    %b = stablehlo.get_dimension_size %x, dim = 0 : "
            f"({w.t('B', 3, DENSE_HW, DENSE_HW)}) -> tensor<i32>\n") if dynamic else ""
    return (f"module @densenet121 {{\n  func.func public @main({head}) -> {out} {{\n" + size
            + "\n".join(w.lines) + f"\n    return {logits} : {out}\n  }}\n}}\n"), w.ops


# run in a fresh process: parse, each pass stage, then LLVM (IR, optimisation, code
# generation) and the link, each timed in CPU seconds (this process's and its finished
# children's: LLVM's forked workers, cc, ld), which a busy machine inflates less than wall
# time; the wall time of the whole compile beside them
STAGES = """
import json, resource, sys, time
from aot.driver import Compilation, Options, fewer_collections
from lowering.passes.pipeline import run_pipeline
collections_off = fewer_collections()  # as the driver's own stages run; held: a dropped
collections_off.__enter__()  # generator closes at once and turns the collector back on
text_path, out = sys.argv[1:]
start = time.perf_counter()
def cpu():
    return sum(getattr(resource.getrusage(who), f) for who in
               (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN) for f in ("ru_utime", "ru_stime"))
times, last = {}, [cpu()]
def lap(name, _module=None):
    now = cpu()
    times[name], last[0] = now - last[0], now
if text_path.endswith(".pt2"):  # a PyTorch program: the torch front end is a stage of its own
    from aot.import_torch import torch_to_mlir
    text, _ = torch_to_mlir(text_path)
    lap("torch")
else:
    text = open(text_path).read()
comp = Compilation(text, text_path, Options(name="m", emit="shared"))
comp.module
lap("parse")
loops = run_pipeline(comp.module, "loops", dump=lap, target=comp.target)
comp.loops = lambda: loops  # the stages are done: build starts from their result
comp.build(out)
lap("llvm+link")
print(json.dumps([times, time.perf_counter() - start]))
"""

PROFILE = """
import cProfile, pstats, sys
from aot.driver import Compilation, Options
text_path, out = sys.argv[1:]
if text_path.endswith(".pt2"):
    from aot.import_torch import torch_to_mlir
    text = torch_to_mlir(text_path)[0]
else:
    text = open(text_path).read()
comp = Compilation(text, text_path, Options(name="m", emit="shared"))
cProfile.run("comp.build(out)", "/tmp/compile_time.prof")
pstats.Stats("/tmp/compile_time.prof").sort_stats("cumulative").print_stats(40)
"""

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def compile_once(text: str, tmp: str, script: str = STAGES, env=None) -> str:
    path = os.path.join(tmp, "program.mlir")
    with open(path, "w") as f:
        f.write(text)
    return compile_file(path, tmp, script, env)


def compile_file(path: str, tmp: str, script: str = STAGES, env=None) -> str:
    """The script's output on one compile of `path` (MLIR text, or a PyTorch .pt2) in a fresh
    process."""
    run = subprocess.run([sys.executable, "-c", script, path, os.path.join(tmp, "libm.so")],
                         cwd=ROOT, capture_output=True, text=True, env=env)
    if run.returncode != 0:
        sys.exit(f"compile failed:\n{run.stderr[-3000:]}")
    return run.stdout


def stage_times(path: str, repeat: int) -> tuple[dict, float]:
    """({stage: median CPU seconds}, median wall seconds) over `repeat` fresh-process compiles
    of the file `path`."""
    runs = []
    with tempfile.TemporaryDirectory() as tmp:
        for _ in range(repeat):
            runs.append(json.loads(compile_file(path, tmp).splitlines()[-1]))
    stages = {k: statistics.median(r[0][k] for r in runs) for k in runs[0][0]}
    return stages, statistics.median(r[1] for r in runs)


def text_stage_times(text: str, repeat: int) -> tuple[dict, float]:
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "program.mlir")
        with open(path, "w") as f:
            f.write(text)
        return stage_times(path, repeat)


def fresh_machine(repeat: int) -> None:
    """The first compile with an empty cache (runtime and helper objects built) against a
    warm one, on the 1k-op static program, and the first compile after `aotc cache --warm`
    (what `make venv` runs) into an empty cache: wall seconds (the goal's measure, which a
    busy machine inflates) and CPU seconds (this process's and its children's)."""
    text, _ = program(1000, False)
    with tempfile.TemporaryDirectory() as tmp:
        rows = []
        for _ in range(repeat):
            cold, warmed = tempfile.mkdtemp(dir=tmp), tempfile.mkdtemp(dir=tmp)
            env = dict(os.environ, AOTC_CACHE_DIR=cold)
            row = [_measure(text, tmp, env) for _ in ("first", "warm")]
            env = dict(os.environ, AOTC_CACHE_DIR=warmed)
            subprocess.run([sys.executable, "-c", "from aot.api import warm_cache; warm_cache()"],
                           cwd=ROOT, env=env, check=True)
            rows.append(row + [_measure(text, tmp, env)])
    (first, first_cpu), (warm, warm_cpu), (warmed, warmed_cpu) = (
        [statistics.median(r[k][m] for r in rows) for m in (0, 1)] for k in (0, 1, 2))
    print(f"first compile with an empty cache {first:.2f} s wall ({first_cpu:.2f} s CPU), warm "
          f"{warm:.2f} s ({warm_cpu:.2f} s CPU): +{first - warm:.2f} s wall, "
          f"+{first_cpu - warm_cpu:.2f} s CPU; first after aotc cache --warm {warmed:.2f} s "
          f"wall ({warmed_cpu:.2f} s CPU): +{warmed - warm:.2f} s wall, "
          f"+{warmed_cpu - warm_cpu:.2f} s CPU (goal <= +1.5 s wall)")


def _measure(text: str, tmp: str, env) -> tuple[float, float]:
    """(wall seconds, CPU seconds) of one compile in a fresh process."""
    times, wall = json.loads(compile_once(text, tmp, env=env).splitlines()[-1])
    return wall, sum(times.values())


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sizes", default="1000,4000,16000")
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--profile", type=int, help="cProfile one compile of this many ops")
    ap.add_argument("--dynamic", action="store_true", help="with --profile: the `?` form")
    ap.add_argument("--fresh", action="store_true", help="time a first compile (empty cache)")
    ap.add_argument("--save", help="write the generated programs into this directory")
    ap.add_argument("--no-densenet", action="store_true",
                    help="without the DenseNet-121-like program (compiles in about 10 s)")
    ap.add_argument("--files", nargs="+", help="time these MLIR files' (or PyTorch .pt2 "
                    "programs') stages instead (e.g. a model's static and dynamic exports)")
    ap.add_argument("--profile-files", action="store_true",
                    help="with --files: cProfile one compile of each instead")
    args = ap.parse_args()
    if args.files:
        for path in args.files:
            if args.profile_files:
                with tempfile.TemporaryDirectory() as tmp:
                    print(compile_file(path, tmp, PROFILE))
                continue
            times, wall = stage_times(path, args.repeat)
            print(f"{os.path.basename(path)}: CPU s " + ", ".join(f"{k} {v:.2f}" for k, v in
                                                             times.items())
                  + f", total {sum(times.values()):.2f}; wall {wall:.2f} s", flush=True)
        return
    if args.profile:
        with tempfile.TemporaryDirectory() as tmp:
            print(compile_once(program(args.profile, args.dynamic)[0], tmp, PROFILE))
        return
    if args.fresh:
        fresh_machine(args.repeat)
        return
    header = None
    totals = {}
    cases = [(str(size), lambda dynamic, size=size: program(size, dynamic))
             for size in map(int, args.sizes.split(","))]
    if not args.no_densenet:
        cases.append(("densenet121", densenet121))
    for label, make in cases:
        for dynamic in (False, True):
            text, ops = make(dynamic)
            if args.save:
                form = "dynamic" if dynamic else "static"
                os.makedirs(args.save, exist_ok=True)
                with open(os.path.join(args.save, f"compile_{label}_{form}.mlir"), "w") as f:
                    f.write(text)
            times, wall = text_stage_times(text, args.repeat)
            if header is None:
                header = list(times)
                print("CPU microseconds per op by stage; total CPU and wall seconds")
                print(f"{'program':>11} {'ops':>6} {'form':>8} " + " ".join(f"{s:>9}" for s in header)
                      + f" {'total':>9} {'cpu s':>7} {'wall s':>7} {'dyn/static':>10}")
            total = sum(times.values())
            totals[(label, dynamic)] = total
            ratio = f"{total / totals[(label, False)]:10.2f}" if dynamic else f"{'':>10}"
            print(f"{'generated' if label.isdigit() else label:>11} {ops:>6} "
                  f"{'dynamic' if dynamic else 'static':>8} "
                  + " ".join(f"{times[s] / ops * 1e6:9.1f}" for s in header)
                  + f" {total / ops * 1e6:9.1f} {total:7.2f} {wall:7.2f} {ratio}", flush=True)

if __name__ == "__main__":
    main()
