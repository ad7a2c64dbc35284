"""Winograd F(2x2, 3x3) convolutions (lowering/codegen/cpu/conv_winograd.py): 3x3 windows
at stride 1 with input features in whole vectors, checked against numpy in float64 on
shapes whose tiles overhang odd outputs and padding, whose tile rows do not fill whole
blocks of MR tiles, and big enough to go on the thread pool; results the same bits on 1 and
2 threads; the direct convolution run instead for calls with few tiles and without scratch;
which convolutions take it; a fixed sample of random shapes."""
import os
import subprocess
import sys

import numpy as np
import pytest

import aot
from conv_reference import conv_text, np_conv
from lowering.frontend.parser import parse_module
from lowering.frontend.printer import print_module
from lowering.passes.pipeline import run_pipeline

DN = ((0, 3, [1, 2]), (2, 3, [0, 1]), (0, 3, [1, 2]))  # NHWC x HWIO -> NHWC


def case(shape, cin, cout, pads, elem="f32", ksize=(3, 3), strides=(1, 1), dil=(1, 1),
         seed=0):
    """(text, x, w, float64 reference, float64 bound on the sum of |terms| per output)."""
    rng = np.random.default_rng(seed)
    dt = np.float32 if elem == "f32" else np.float64
    x = rng.uniform(-1, 1, shape + (cin,)).astype(dt)
    w = rng.uniform(-1, 1, ksize + (cin, cout)).astype(dt)
    args = (DN, strides, pads, (1, 1), dil, (False, False), 1, 1)
    want = np_conv(x, w, *args)
    bound = np_conv(np.abs(x), np.abs(w), *args)
    text = conv_text(x.shape, w.shape, want.shape, *args).replace("xf32>", f"x{elem}>")
    return text, x, w, want, bound


def loops_text(text):
    return print_module(run_pipeline(parse_module(text, "conv.mlir"), "loops"))


# (batch, h, w), input features, output features, padding, element type; each with at least
# conv_winograd.MIN_TILES 2x2 tiles
CASES = {
    "resnet_block": ((2, 16, 16), 32, 32, ((1, 1), (1, 1)), "f32"),
    "odd_output": ((1, 9, 13), 16, 32, ((1, 1), (1, 1)), "f32"),  # tiles overhang 9 x 13
    "no_padding": ((3, 7, 10), 24, 16, ((0, 0), (0, 0)), "f32"),  # 5 x 8 output
    "uneven_padding": ((4, 6, 5), 16, 48, ((2, 0), (0, 3)), "f32"),
    "tiles_past_the_input": ((6, 2, 3), 16, 16, ((2, 2), (2, 2)), "f32"),
    "seven_tiles_a_row": ((2, 14, 14), 64, 16, ((1, 1), (1, 1)), "f32"),  # chunks of 6 rows
    "threaded": ((8, 20, 20), 32, 32, ((1, 1), (1, 1)), "f32"),  # > 2^23 multiply-adds
    # batch 1, 7 tile rows (< 4 a thread): tasks are shares of the 11 feature panels
    "batch_one_split_panels": ((1, 14, 14), 64, 176, ((1, 1), (1, 1)), "f32"),
    "f64": ((2, 11, 8), 16, 16, ((1, 1), (1, 1)), "f64"),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_winograd_matches_float64(name):
    shape, cin, cout, pads, elem = CASES[name]
    text, x, w, want, bound = case(shape, cin, cout, pads, elem)
    loops = loops_text(text)
    assert '"aot.conv"' in loops and "winograd = true" in loops, loops
    lib = aot.compile(text, name=f"winograd_{name}")
    # each output within a few roundings of the sum of its terms' magnitudes (a wrong
    # transform or a missed tile is off by whole terms)
    eps = np.finfo(x.dtype).eps
    results = []
    for threads in (1, 2):
        lib.set_num_threads(threads)
        got = lib.main(x, w)
        assert got.shape == want.shape
        err = np.abs(got - want)
        assert (err <= 8 * eps * bound + 1e-30).all(), (name, threads, float((err / bound).max()))
        results.append(got)
    assert np.array_equal(results[0], results[1]), "results depend on the thread count"


def test_few_tiles_run_the_direct_convolution(monkeypatch):
    """A dynamic batch: 25 tiles an image, so one image (below MIN_TILES) runs the direct
    convolution (its very bits) and three run Winograd's (other bits, as close)."""
    from lowering.codegen.cpu import conv_winograd
    text, x, w, want, bound = case((3, 10, 10), 32, 16, ((1, 1), (1, 1)))
    text = text.replace("tensor<3x10x10x", "tensor<?x10x10x")  # the input and the result
    assert "winograd = true" in loops_text(text)
    lib = aot.compile(text, name="winograd_dynamic")
    monkeypatch.setattr(conv_winograd, "takes", lambda *args: False)
    direct = aot.compile(text, name="winograd_dynamic_direct")
    assert "winograd" not in loops_text(text)
    for n in (3, 1, 0):
        got = lib.main(x[:n], w)
        assert got.shape == want[:n].shape
        assert (np.abs(got - want[:n]) <= 8 * np.finfo(np.float32).eps * bound[:n]).all(), n
        assert np.array_equal(got, direct.main(x[:n], w)) == (n < 3), n


@pytest.mark.parametrize("why, ksize, strides, dil, cin, cout", [
    ("stride 2", (3, 3), (2, 2), (1, 1), 32, 16),
    ("5x5 window", (5, 5), (1, 1), (1, 1), 32, 16),
    ("dilated window", (3, 3), (1, 1), (2, 2), 32, 16),
    ("features not in whole vectors", (3, 3), (1, 1), (1, 1), 18, 16),  # of 8 or 4 lanes
    ("transformed kernel over 4 MiB", (3, 3), (1, 1), (1, 1), 256, 288),
])
def test_other_convolutions_stay_direct(why, ksize, strides, dil, cin, cout):
    text, x, w, want, bound = case((1, 12, 12), cin, cout, ((1, 1), (1, 1)), ksize=ksize,
                                   strides=strides, dil=dil)
    loops = loops_text(text)
    assert '"aot.conv"' in loops and "winograd" not in loops, why
    got = aot.compile(text, name="direct_" + why.replace(" ", "_")).main(x, w)
    assert (np.abs(got - want) <= 8 * np.finfo(np.float32).eps * bound).all(), why


FALLBACK = """
import sys, numpy as np
sys.path.insert(0, {tests!r})
from abi.loader import Library
from test_conv_winograd import case
text, x, w, want, bound = case((2, 9, 9), 32, 16, ((1, 1), (1, 1)))
lib = Library({path!r})
lib.set_num_threads(2)
got = lib.main(x, w)
assert (np.abs(got - want) <= 8 * np.finfo(np.float32).eps * bound).all()
print(np.asarray(got, np.float32).tobytes().hex())
"""


def test_without_scratch_the_direct_convolution_runs(tmp_path):
    """AOT_KERNEL_SCRATCH=off: no buffers for the transforms, so the call falls back to the
    direct convolution (different roundings: not the same bits as with scratch)."""
    text, *_ = case((2, 9, 9), 32, 16, ((1, 1), (1, 1)))
    lib = aot.compile(text, name="winograd_fallback")
    tests = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    script = FALLBACK.format(tests=os.path.join(tests, "codegen"), path=lib.path)
    outs = {}
    for scratch in ("on", "off"):
        env = dict(os.environ, AOT_KERNEL_SCRATCH=scratch,
                   PYTHONPATH=os.pathsep.join([os.path.dirname(tests), tests]))
        run = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True,
                             text=True, timeout=300)
        assert run.returncode == 0, run.stderr
        outs[scratch] = run.stdout.strip()
    assert outs["on"] != outs["off"], "the fallback did not run (same bits as Winograd's)"


def test_random_shapes():
    """A fixed sample of random batches, sizes, paddings (negative too), feature counts and
    types; most have MIN_TILES tiles or more, the rest run the direct convolution."""
    from lowering.codegen.cpu.conv_winograd import MIN_TILES
    rng = np.random.default_rng(11)
    ran = 0
    for i in range(12):
        n, h, w = (int(v) for v in rng.integers((1, 4, 4), (9, 26, 26)))
        pads = tuple(tuple(int(p) for p in rng.integers(-1, 4, 2)) for _ in range(2))
        oh, ow = h + sum(pads[0]) - 2, w + sum(pads[1]) - 2
        if oh < 1 or ow < 1:
            continue
        elem = "f64" if i % 4 == 3 else "f32"
        text, x, wt, want, bound = case((n, h, w), int(rng.choice([16, 24, 32, 40])),
                                        int(rng.choice([16, 32, 48])), pads, elem, seed=i)
        assert "winograd = true" in loops_text(text)
        ran += n * ((oh + 1) // 2) * ((ow + 1) // 2) >= MIN_TILES
        lib = aot.compile(text, name=f"winograd_random_{i}")
        outs = []
        for threads in (1, 2):
            lib.set_num_threads(threads)
            outs.append(lib.main(x, wt))
            assert (np.abs(outs[-1] - want) <= 8 * np.finfo(x.dtype).eps * bound).all(), (i, pads)
        assert np.array_equal(*outs), i
    assert ran >= 6, ran


NCHW = ((0, 1, [2, 3]), (1, 0, [2, 3]), (0, 1, [2, 3]))  # NCHW x OIHW -> NCHW (PyTorch's)


@pytest.mark.parametrize("hw, cin, cout, winograd", [
    ((13, 11), 16, 32, True),  # odd planes: tiles overhang both edges
    ((9, 9), 32, 16, True),  # 81 positions an image: by batch at run time (conv_gemm)
    ((10, 7), 20, 16, False),  # features not in whole vectors: the direct convolution
])
def test_nchw_through_winograd(hw, cin, cout, winograd):
    """PyTorch's layouts with a `?` batch (DenseNet's 3x3 convolutions): against float64 at
    batches 5, 1 and 0 and on 1 and 2 threads; Winograd's where the features allow it, whose
    kernel copies the input to channels-last and the result back itself, in register
    transposes (no loop nest of conv_gemm's copies but the kernel's relayout)."""
    rng = np.random.default_rng(5)
    x = rng.uniform(-1, 1, (5, cin) + hw).astype(np.float32)
    w = rng.uniform(-1, 1, (cout, cin, 3, 3)).astype(np.float32)
    args = (NCHW, (1, 1), ((1, 1), (1, 1)), (1, 1), (1, 1), (False, False), 1, 1)
    want, bound = np_conv(x, w, *args), np_conv(np.abs(x), np.abs(w), *args)
    text = conv_text(x.shape, w.shape, want.shape, *args)
    text = text.replace("tensor<5x", "tensor<?x")  # the input and the result
    loops = loops_text(text)
    assert ("winograd = true" in loops) == winograd
    if winograd:  # the kernel copies its operands itself: no loop reads or writes their
        # channels-last forms (a ? batch under 256 positions: per-image products beside it)
        last = [f"x{hw[0]}x{hw[1]}x{n}xf32>" for n in (cin, cout)]
        moves = [ln for ln in loops.splitlines() if '"memref.load"' in ln or '"memref.store"' in ln]
        assert "channels_first = true" in loops and moves
        assert not [ln for ln in moves if any(t in ln for t in last)], loops
    lib = aot.compile(text, name=f"winograd_nchw_{hw[0]}_{hw[1]}_{cin}")
    for n in (5, 1, 0):
        outs = []
        for threads in (1, 2):
            lib.set_num_threads(threads)
            outs.append(lib.main(x[:n], w))
            assert outs[-1].shape == want[:n].shape
            assert (np.abs(outs[-1] - want[:n]) <= 8 * np.finfo(np.float32).eps * bound[:n]).all(), n
        assert np.array_equal(*outs), n
