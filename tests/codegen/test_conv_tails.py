"""The direct convolution's tail tiles (lowering/codegen/cpu/conv_direct.py): a row's last
tile, cut by the row's end to R = ow mod MR positions, takes tail_panels(R) whole packed
panels a call (_tail_kernel) where its window rows are whole. Checked on the task's IR, then
against numpy for wav2vec2-like kernel 3 stride 2 convolutions with every R (and R = 0, and
rows shorter than MR), 1 and 2 threads (a batch of 1 cut into chunks of tiles, a batch of
rows whose last block holds only the tail), a fused bias + relu, static and `?`, the kernel
frozen (prepacked) or an argument (packed per call), and for the same bits as the
fewer-row micro-kernels give (AOT_KERNEL_SCRATCH=off: the kernel read in place)."""
import os
import re
import subprocess
import sys

import numpy as np
import pytest
from test_conv_paths import NWC, conv_program, loops

import aot
from conv_reference import np_conv
from lowering.codegen.cpu import conv_direct
from lowering.target import host_target


def _task_ir(elem):
    from llvmlite import ir as llvm_ir
    mod = llvm_ir.Module("m")
    pfor = llvm_ir.Function(mod, llvm_ir.FunctionType(llvm_ir.VoidType(), []), name="pfor")
    t = llvm_ir.FloatType() if elem == "f32" else llvm_ir.DoubleType()
    conv_direct.conv_function(mod, elem, t, pfor, host_target().blocking(elem))
    return mod


@pytest.mark.parametrize("elem", ["f32", "f64"])
def test_tail_tiles_take_several_panels_a_call(elem):
    """The task hands its rows' tail tiles to conv_tails, which has a kernel for each R =
    1 ... MR - 1 rows holding R x panels x NR/VEC accumulators (at most TAIL_ACCUMULATORS);
    no kernel for full tiles."""
    blocking = host_target().blocking(elem)
    mod = _task_ir(elem)
    task = str(mod.globals[f"aot.gemm.{elem}.conv_task"])
    assert f'call void @"aot.gemm.{elem}.conv_tails"' in task
    tails = str(mod.globals[f"aot.gemm.{elem}.conv_tails"])
    nv = blocking.nr // blocking.vec
    for rows in range(1, blocking.mr):
        panels = conv_direct.tail_panels(rows, nv)
        assert rows * panels * nv <= conv_direct.TAIL_ACCUMULATORS or panels == 1
        assert f'call void @"aot.gemm.{elem}.conv_tail{rows}x{panels}"' in tails, rows
        kernel = str(mod.globals[f"aot.gemm.{elem}.conv_tail{rows}x{panels}"])
        assert len(re.findall(r"call .*@\"llvm\.fmuladd", kernel)) == rows * panels * nv
    assert f"conv_tail{blocking.mr}x" not in tails
    assert conv_direct.tail_panels(1, 2) == conv_direct.TAIL_PANELS  # one row: the most


def _want(x, w, b, pads, relu):
    y = np_conv(x, w, NWC, (2,), [pads], [1], [1], [False], 1, 1) + b
    return np.maximum(y, 0) if relu else y


def _lengths(mr, tiles):
    """Input lengths of a kernel 3 stride 2 convolution whose rows have `tiles` full tiles
    and R = 0 ... MR - 1 more positions."""
    return [2 * (tiles * mr + r - 1) + 3 for r in range(mr)]


@pytest.mark.parametrize("elem, frozen, relu", [("f32", True, True), ("f32", False, False),
                                                ("f64", True, False), ("f64", False, True)])
def test_tail_tiles_against_numpy(elem, frozen, relu):
    """Every R, rows shorter than MR, one and two threads; a `?` batch and length and the
    static form; 8 whole panels and one cut by F (its tail the fewer-row kernels')."""
    blocking = host_target().blocking(elem)
    mr, cin, cout = blocking.mr, 24, 8 * blocking.nr + 3
    dt = np.float32 if elem == "f32" else np.float64
    tol = 1e-4 if elem == "f32" else 1e-10
    rng = np.random.default_rng(cout + relu + 2 * frozen)
    w = rng.uniform(-1, 1, (3, cin, cout)).astype(dt)
    b = rng.uniform(-1, 1, cout).astype(dt)
    tag = f"{elem}_{'frozen' if frozen else 'arg'}_{'relu' if relu else 'bias'}"

    def run(lib, x):
        return lib.main(x, b) if frozen else lib.main(x, w, b)
    text = conv_program((None, None, cin), w.shape, (None, None, cout), (2,), [(0, 0)], elem,
                        bias=True, relu=relu, frozen=w if frozen else None)
    assert '"aot.conv"' in loops(text)
    lib = aot.compile(text, name=f"conv_tails_{tag}")
    for batch, n in [(3, n) for n in _lengths(mr, 2)] + [(2, 2 * (mr - 3) + 1), (1, 3)]:
        x = rng.uniform(-1, 1, (batch, n, cin)).astype(dt)
        want = _want(x, w, b, (0, 0), relu)
        for threads in (1, 2):
            lib.set_num_threads(threads)
            np.testing.assert_allclose(run(lib, x), want, rtol=tol, atol=tol * 8,
                                       err_msg=f"{batch}x{n} threads={threads}")
    x = rng.uniform(-1, 1, (2, _lengths(mr, 3)[1], cin)).astype(dt)  # R = 1
    want = _want(x, w, b, (0, 0), relu)
    static = aot.compile(conv_program(x.shape, w.shape, want.shape, (2,), [(0, 0)], elem,
                                      bias=True, relu=relu, frozen=w if frozen else None),
                         name=f"conv_tails_static_{tag}")
    for threads in (1, 2):
        static.set_num_threads(threads)
        np.testing.assert_allclose(run(static, x), want, rtol=tol, atol=tol * 8)


@pytest.mark.parametrize("frozen", [True, False])
def test_tail_tiles_in_chunks_and_blocks(frozen):
    """Tails where a task's chunk or block holds nothing but them: a batch of 1 (its row cut
    into chunks of tiles, TASKS_PER_THREAD a thread; on the pool with two threads: ~2^23.6
    multiply-adds) whose last chunk is the tail alone, and rows of one block of tiles
    (BLOCK_BYTES) and the tail, the bias and relu run per block. R = 1, 3, 5."""
    blocking = host_target().blocking("f32")
    mr, nr = blocking.mr, blocking.nr
    cin, cout = 96, 8 * nr
    rng = np.random.default_rng(31)
    w = rng.uniform(-1, 1, (3, cin, cout)).astype(np.float32)
    b = rng.uniform(-1, 1, cout).astype(np.float32)
    text = conv_program((None, None, cin), w.shape, (None, None, cout), (2,), [(0, 0)], "f32",
                        bias=True, relu=True, frozen=w if frozen else None)
    lib = aot.compile(text, name=f"conv_tails_chunks_{'frozen' if frozen else 'arg'}")
    block = conv_direct.BLOCK_BYTES // (mr * cout * 4)
    assert conv_direct.TASKS_PER_THREAD == 4
    # tiles: 1 thread, 4 tasks: 12 full + the tail in chunks of 4 (the tail alone in the
    # 4th); 2 threads, 8 tasks: 56 + the tail in chunks of 8 (alone in the 8th)
    for threads, batch, full in ((1, 1, 12), (2, 1, 56), (1, 5, block), (2, 5, block)):
        lib.set_num_threads(threads)
        for n in _lengths(mr, full)[1::2]:
            x = rng.uniform(-1, 1, (batch, n, cin)).astype(np.float32)
            got = lib.main(x, b) if frozen else lib.main(x, w, b)
            np.testing.assert_allclose(got, _want(x, w, b, (0, 0), True), rtol=1e-4,
                                       atol=1e-3, err_msg=f"{batch}x{n} threads={threads}")


@pytest.mark.parametrize("groups, cin, cout", [(2, 16, 16), (4, 16, 16)])
def test_tail_tiles_of_thin_groups(groups, cin, cout):
    """NR / (a group's features) thin groups, packed block-diagonally into one panel: the
    tasks see one group of every feature, so the tails of R = 4 and 5 (one panel a call)
    take the tail kernels; every R, the kernel frozen and an argument."""
    rng = np.random.default_rng(groups)
    w = rng.uniform(-1, 1, (3, cin // groups, cout)).astype(np.float32)
    b = rng.uniform(-1, 1, cout).astype(np.float32)
    mr = host_target().blocking("f32").mr
    for frozen in (True, False):
        text = conv_program((None, None, cin), w.shape, (None, None, cout), (2,), [(0, 0)],
                            "f32", bias=True, groups=groups, frozen=w if frozen else None)
        lib = aot.compile(text, name=f"conv_tails_groups{groups}_{cout}_{frozen}")
        for n in _lengths(mr, 2):
            x = rng.uniform(-1, 1, (3, n, cin)).astype(np.float32)
            want = np_conv(x, w, NWC, (2,), [(0, 0)], [1], [1], [False], groups, 1) + b
            got = lib.main(x, b) if frozen else lib.main(x, w, b)
            np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4, err_msg=str(n))


def test_padded_tails_keep_the_fewer_row_kernels():
    """Padding at the row's end (SAME-like): the tail's window rows are not whole, so it
    keeps the column-by-column calls; right with every R."""
    blocking = host_target().blocking("f32")
    mr, cout = blocking.mr, 2 * blocking.nr
    rng = np.random.default_rng(32)
    w = rng.uniform(-1, 1, (3, 16, cout)).astype(np.float32)
    b = rng.uniform(-1, 1, cout).astype(np.float32)
    text = conv_program((None, None, 16), w.shape, (None, None, cout), (2,), [(1, 1)], "f32",
                        bias=True, relu=True, frozen=w)
    lib = aot.compile(text, name="conv_tails_padded")
    for n in [2 * (2 * mr + r) - 1 for r in range(mr)]:
        x = rng.uniform(-1, 1, (2, n, 16)).astype(np.float32)
        np.testing.assert_allclose(lib.main(x, b), _want(x, w, b, (1, 1), True), rtol=1e-4,
                                   atol=1e-4, err_msg=str(n))


IN_PLACE = """
import sys, numpy as np
from abi.loader import Library
lib = Library(sys.argv[1])
x, w, b = (np.load(p) for p in sys.argv[2:5])
np.save(sys.argv[5], lib.main(x, w, b))
"""


def test_tail_tiles_same_bits_as_the_fewer_row_kernels(tmp_path):
    """A position's sum runs over k in the same order in the tail kernel as in the fewer-row
    micro-kernels: the packed kernel's results (tails several panels a call) are the bits of
    the same library's without scratch (AOT_KERNEL_SCRATCH=off: the kernel read in place,
    each panel's tail by the fewer-row kernels), on every whole panel."""
    blocking = host_target().blocking("f32")
    mr, cout = blocking.mr, 8 * blocking.nr + 3
    rng = np.random.default_rng(33)
    w = rng.uniform(-1, 1, (3, 40, cout)).astype(np.float32)
    b = rng.uniform(-1, 1, cout).astype(np.float32)
    text = conv_program((None, None, 40), w.shape, (None, None, cout), (2,), [(0, 0)], "f32",
                        bias=True)
    lib = aot.compile(text, name="conv_tails_bits")
    lib.set_num_threads(1)
    tests = os.path.dirname(os.path.abspath(__file__))
    env = dict(os.environ, AOT_KERNEL_SCRATCH="off", AOT_NUM_THREADS="1",
               PYTHONPATH=os.path.dirname(os.path.dirname(tests)))
    for r in range(1, mr):
        x = rng.uniform(-1, 1, (3, _lengths(mr, 4)[r], 40)).astype(np.float32)
        paths = [str(tmp_path / f"{name}.npy") for name in ("x", "w", "b", "y")]
        for p, a in zip(paths, (x, w, b)):
            np.save(p, a)
        done = subprocess.run([sys.executable, "-c", IN_PLACE, lib.path, *paths], env=env,
                              capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, done.stderr
        whole = 8 * blocking.nr
        np.testing.assert_array_equal(lib.main(x, w, b)[..., :whole],
                                      np.load(paths[3])[..., :whole], err_msg=f"R = {r}")
