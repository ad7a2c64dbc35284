"""The per-kernel time model (lowering/codegen/cuda/timing.py): what the emulated grid counts
(bytes, FLOPs, the sectors warps touch), the estimate's arithmetic, and `--report`'s lines.
Estimates only: nothing here ran on a GPU."""
import os

import numpy as np
import pytest

from aot.driver import Compilation, Options
from lowering.codegen.cuda.launch import Launch
from lowering.codegen.cuda.timing import Work, blocks_per_sm, predict, static_flops
from lowering.target import GPU_DEVICES
from tooling.gpu_emu import build_counting, count_launches

ELEMENTWISE = """func.func @main(%x: tensor<8x8x256x64xf32>, %y: tensor<8x8x256x64xf32>) -> tensor<8x8x256x64xf32> {
  %0 = stablehlo.multiply %x, %y : tensor<8x8x256x64xf32>
  %1 = stablehlo.add %0, %x : tensor<8x8x256x64xf32>
  return %1 : tensor<8x8x256x64xf32>
}"""  # noqa: E501

TRANSPOSE = """func.func @main(%x: tensor<512x512xf32>) -> tensor<512x512xf32> {
  %0 = stablehlo.transpose %x, dims = [1, 0] : (tensor<512x512xf32>) -> tensor<512x512xf32>
  %1 = stablehlo.negate %0 : tensor<512x512xf32>
  return %1 : tensor<512x512xf32>
}"""

A100 = GPU_DEVICES["A100"]
FLAT = Launch("k", "tiles", (256, 1, 1), tiles=(1,), extent_param=1)


def test_the_estimate_of_a_streaming_kernel():
    mb12 = 12 * 2 ** 20
    est = predict(Work(threads=2 ** 20, bytes_accessed=mb12, footprint=mb12, flops=2 ** 20), FLAT, A100)
    assert est.bound == "memory" and est.occupancy == 1.0
    assert est.time_us == pytest.approx(A100.launch_us + mb12 / (A100.hbm_gbps * 1e3))
    assert est.floor_us == pytest.approx(mb12 / (A100.hbm_gbps * 1e3))
    # uncoalesced: 8x the sectors, more L2 traffic than HBM can hide behind, same DRAM bytes
    strided = predict(Work(2 ** 20, mb12, mb12, 0, sectors=8 * mb12 // 32), FLAT, A100)
    assert strided.bound == "L2" and strided.time_us > est.time_us
    # a handful of threads: the launch cost
    assert predict(Work(256, 4096, 4096, 0), FLAT, A100).bound == "launch"
    assert "nothing ran on a GPU" in est.text()


def test_occupancy_follows_registers_and_shared_memory():
    assert blocks_per_sm(A100, 256, 32, 0) == 8  # 2048 threads
    assert blocks_per_sm(A100, 256, 128, 0) == 2  # 65536 registers
    assert blocks_per_sm(A100, 256, 32, 64 * 1024) == 2  # 164 KiB of shared memory


def test_flops_on_the_loop_ir():
    c = Compilation(ELEMENTWISE, "t.mlir", Options(name="t", emit="loops", target="cuda"))
    (kernel,) = [f for f in c.run_stages("loops").functions() if "aot.kernel" in f.attrs]
    assert static_flops(kernel) == 2 * 8 * 8 * 256 * 64


def run_counting(text, name, directory, *args):
    """(lib.main(*args), [(DeviceKernel, Work)] per launch): one run with counting kernels; the
    driver double's kernels directory is put back after."""
    kernels_dir = os.environ.get("AOT_CUDA_DOUBLE_KERNELS")
    os.environ["AOT_EMU_COUNT"] = os.path.join(directory, "counts")
    try:
        lib, c = build_counting(text, name, directory)
        got = lib.main(*args)
        return got, count_launches(os.path.join(directory, "counts"), c)
    finally:
        os.environ.pop("AOT_EMU_COUNT")
        if kernels_dir:  # build_counting pointed the driver double at its own companions
            os.environ["AOT_CUDA_DOUBLE_KERNELS"] = kernels_dir
        else:
            os.environ.pop("AOT_CUDA_DOUBLE_KERNELS", None)


@pytest.fixture(scope="module")
def counted(tmp_path_factory):
    """Both programs run once with counting kernels."""
    out = {}
    for name, text, shape in (("ew", ELEMENTWISE, (8, 8, 256, 64)), ("tr", TRANSPOSE, (512, 512))):
        x = np.ones(shape, np.float32)
        args = [x, x] if name == "ew" else [x]
        out[name] = run_counting(text, name, str(tmp_path_factory.mktemp(name)), *args)[1]
    return out


def test_the_emulated_grid_counts_a_coalesced_kernel(counted):
    ((k, work),) = counted["ew"]
    n = 8 * 8 * 256 * 64
    assert work.threads == n // 4 and work.flops == 2 * n  # a thread per 4 elements (vector.py)
    assert work.bytes_accessed == 4 * n * 3 and work.footprint == 4 * n * 3  # x twice, y, the result
    assert work.sectors == 4 * n * 3 // 32  # every warp access: 128 bytes, 4 sectors


def test_the_emulated_grid_sees_a_transposed_read(counted):
    ((k, work),) = counted["tr"]
    n = 512 * 512
    # the write: 4 sectors a warp; the read walks a column: 32 lanes, 32 sectors
    assert work.sectors == pytest.approx(n // 32 * 4 + n, rel=0.02)
    est = predict(work, k.launch, A100)
    assert est.time_us > predict(Work(work.threads, work.bytes_accessed, work.footprint, work.flops),
                                 k.launch, A100).time_us


def test_report_prints_each_kernels_estimate():
    c = Compilation(ELEMENTWISE, "t.mlir", Options(name="t", emit="ptx", target="cuda"))
    report = c.report()
    assert "262144 threads launched" in report and "predicted" in report and "us on A100" in report
    assert f"{2 * 8 * 8 * 256 * 64} FLOPs" in report


@pytest.mark.parametrize("dims,lhs,rhs", [
    ("contracting_dims = [1] x [1]", (96, 64), (80, 64)),  # q @ k^T: the rhs along k
    ("contracting_dims = [0] x [0]", (64, 96), (64, 80))])  # the lhs along its rows
def test_a_transposed_dot_operand_is_staged_coalesced(dims, lhs, rhs, tmp_path):
    """The tiled matmul stages each operand with consecutive threads along its innermost dim
    (transposing in shared memory): 4 sectors per 128 bytes requested, as coalesced; staged
    along its strided dim, q @ k^T's rhs took 13.3."""
    t = lambda s: f"tensor<{s[0]}x{s[1]}xf32>"  # noqa: E731
    text = (f"func.func @main(%a: {t(lhs)}, %b: {t(rhs)}) -> tensor<96x80xf32> {{\n"
            f"  %0 = stablehlo.dot_general %a, %b, {dims} : ({t(lhs)}, {t(rhs)}) -> tensor<96x80xf32>\n"
            "  return %0 : tensor<96x80xf32>\n}")
    rng = np.random.default_rng(7)
    a, b = rng.standard_normal(lhs).astype(np.float32), rng.standard_normal(rhs).astype(np.float32)
    got, ((k, work),) = run_counting(text, "tdot", str(tmp_path), a, b)
    a64, b64 = a.astype(np.float64), b.astype(np.float64)
    want = a64 @ b64.T if dims.endswith("[1]") else a64.T @ b64
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)
    assert work.sectors * 128 / work.bytes_accessed < 4.5


def test_idle_warps_count_no_iteration(tmp_path):
    """A warp per row of [1, 4000] (a row under LONG_ROW: not a block per row): one warp of the
    block has a row, seven none. They used to count an iteration each, so the one real
    iteration's bytes were scaled to an eighth."""
    text = """func.func @main(%x: tensor<1x4000xf32>) -> tensor<1xf32> {
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %s = stablehlo.reduce(%x init: %z) applies stablehlo.add across dimensions = [1] : (tensor<1x4000xf32>, tensor<f32>) -> tensor<1xf32>
  return %s : tensor<1xf32>
}"""  # noqa: E501
    _, ((k, work),) = run_counting(text, "lrow", str(tmp_path), np.ones((1, 4000), np.float32))
    assert k.launch.lanes == 32
    assert work.bytes_accessed == pytest.approx(4 * 4000, rel=0.01)


def test_report_counts_only_the_buffers_a_kernel_touches():
    """The sum of [1, 4M] split over blocks: its second kernel gets the input too (every
    kernel of a fusion gets its buffers) but reads only the 1024 partials and writes the
    result, so `--report` takes 4100 bytes, not 16 MB (it predicted 3.6 ms)."""
    from lowering.codegen.cuda.timing import static_work
    text = """func.func @main(%x: tensor<1x4194304xf32>) -> tensor<1xf32> {
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %s = stablehlo.reduce(%x init: %z) applies stablehlo.add across dimensions = [1] : (tensor<1x4194304xf32>, tensor<f32>) -> tensor<1xf32>
  return %s : tensor<1xf32>
}"""  # noqa: E501
    c = Compilation(text, "s.mlir", Options(name="s", emit="ptx", target="cuda"))
    kernels = c.llvm()[3]
    funcs = {f"s_{f.attrs['sym_name']}": f for f in c.loops().functions() if "aot.kernel" in f.attrs}
    works = [static_work(funcs[k.name], k.launch, k.dims, lambda e: 4) for k in kernels]
    assert [w.footprint for w in works] == [4 * (4194304 + 1024), 4 * (1024 + 1)]



EXP_TIMES = """func.func @main(%x: tensor<{n}x1022xf32>, %y: tensor<{n}x1022xf32>) -> tensor<{n}x1022xf32> {{
  %e = stablehlo.exponential %x : tensor<{n}x1022xf32>
  %m = stablehlo.multiply %e, %y : tensor<{n}x1022xf32>
  return %m : tensor<{n}x1022xf32>
}}"""

ROW_SOFTMAX = """func.func @main(%x: tensor<?x1024xf32>) -> tensor<?x1024xf32> {
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %e = stablehlo.exponential %x : tensor<?x1024xf32>
  %s = stablehlo.reduce(%e init: %z) applies stablehlo.add across dimensions = [1] : (tensor<?x1024xf32>, tensor<f32>) -> tensor<?xf32>
  %b = stablehlo.broadcast_in_dim %s, dims = [0] : (tensor<?xf32>) -> tensor<?x1024xf32>
  %d = stablehlo.divide %e, %b : tensor<?x1024xf32>
  return %d : tensor<?x1024xf32>
}"""  # noqa: E501


def estimates(text, hint=None):
    """The report's estimate lines, each without its shape label, and all its lines."""
    opts = Options(name="h", emit="ptx", target="cuda", shape_hint=hint)
    lines = Compilation(text, "h.mlir", opts).report().splitlines()
    return [line.strip().split("launched; ")[-1] for line in lines if line.startswith("  ")], lines


@pytest.mark.parametrize("hint", ["2048", "2048x1022,2048x1022"])
def test_run_time_dims_are_estimated_at_the_hinted_shapes(hint):
    """A [?, 1022] elementwise program with --shape-hint gets the estimate its static
    [2048, 1022] form gets (the same kernel: bytes, FLOPs, grid, predicted time), labelled
    with the hint; without a hint or bound, no estimate and the option named. (Rows of 1022:
    a static [2048, 1024] would take 4 elements a thread, vector.py, which ? dims never do.)"""
    (static,), static_lines = estimates(EXP_TIMES.format(n=2048))
    (hinted,), lines = estimates(EXP_TIMES.format(n="?"), hint)
    assert hinted == static and "predicted" in static and f"{3 * 2048 * 1022 * 4} bytes" in static
    label = "every run-time dim = 2048 (--shape-hint)" if hint == "2048" else "the shapes of --shape-hint"
    assert lines[1].startswith(f"  at {label}: grid 8176x1x1, 2093056 threads launched; predicted")
    assert "grid 8176x1x1" in static_lines[0]
    assert estimates(EXP_TIMES.format(n="?"))[0] == \
        ["no estimate: its shapes are known only at run time (give them with --shape-hint)"]
    assert estimates(EXP_TIMES.format(n="?"), "2048x1022")[0] == \
        ["no estimate: --shape-hint does not match the arguments ?x1022,?x1022"]


def test_a_row_fusion_is_estimated_through_the_host_shapes():
    """The row softmax's kernel gets its dims through the host code's shape arithmetic: a
    warp per row of 2048 rows is 256 blocks of 8 rows, its buffers 2 x 8 MiB."""
    (est,), lines = estimates(ROW_SOFTMAX, "2048x1024")
    assert "a warp per row" in lines[0]
    assert lines[1].startswith("  at the shapes of --shape-hint: grid 256x1x1, 65536 threads launched; ")
    assert f"{2 * 2048 * 1024 * 4} bytes" in est


def test_bounded_dims_are_estimated_at_their_bound():
    """With no hint, `?` dims with a bound (bounded dynamism) are estimated at the largest
    shape the host's checks allow; a hint past the bound gets no estimate."""
    bounded = EXP_TIMES.format(n="?").replace("tensor<?x1022xf32>",
                                              "tensor<?x1022xf32, #stablehlo.bounds<64, ?>>")
    static, _ = estimates(EXP_TIMES.format(n=64))
    at_bound, lines = estimates(bounded)
    assert at_bound == static and "predicted" in static[0]
    assert lines[1].startswith("  at the largest shapes the arguments' bounds allow: grid 256x1x1, 65536 ")
    assert estimates(bounded, "65")[0] == ["no estimate: --shape-hint passes the arguments' bounds "
                                          "(argument #0 dim 0: 65 > 64; argument #1 dim 0: 65 > 64)"]
