"""--target cuda: every kernel as PTX through LLVM's NVPTX backend, accepted by ptxas for
sm_80 and sm_90. A fixed sample of the conformance corpus runs here; `make test-gpu` runs
all of it."""
import glob
import os
import subprocess
import sys

import pytest

from aot.driver import Compilation, Options
from lowering.codegen.cuda.launch import Launch
from lowering.ir.core import CompileError
from tooling.ptxas import ptxas

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CORPUS = os.path.join(ROOT, "tests", "data", "conformance")
# A fixed sample: elementwise chains, reductions (row and column), softmax, dots, a
# convolution, gather/scatter, sort, windows, control flow and dynamic shapes.
SAMPLE = ["model_mlp", "model_softmax", "model_layernorm", "model_transformer_block",
          "bf16_reduce_sum", "reduce_argmax_variadic", "dot_general_batched_transposed",
          "conv2d_nhwc_same", "gather_take_rows", "scatter_add_duplicates", "sort_2d_last_axis_i32",
          "top_k_rows", "max_pool_3x3_stride2_same", "maxpool_grad_2x2", "fori_loop_dynamic_trip",
          "cond_inside_loop", "dynamic_update_slice_2d", "cumsum_axis1", "gelu_exact_erfc",
          "jnp_unique_fixed_size", "f16_layernorm", "pad_interior_negative"]


def _sample():
    names = [n for n in SAMPLE if os.path.exists(os.path.join(CORPUS, n + ".mlir"))]
    if len(names) < 12:  # the corpus was renamed: fall back to a fixed slice of it
        names = sorted(os.path.basename(p)[:-5] for p in glob.glob(os.path.join(CORPUS, "*.mlir")))[::10]
    return names


def compile_ptx(path, arch, out):
    text = open(path).read()
    return Compilation(text, path, Options(name="m", emit="ptx", target="cuda", gpu_arch=arch)).build(out)


@pytest.mark.parametrize("arch", ["sm_80", "sm_90"])
@pytest.mark.parametrize("name", _sample())
def test_ptxas_accepts_the_kernels(name, arch, tmp_path):
    out = str(tmp_path / f"{name}.ptx")
    try:
        compile_ptx(os.path.join(CORPUS, name + ".mlir"), arch, out)
    except CompileError as e:  # only a missing device math function may refuse a case
        assert "has no device version yet" in str(e) or "not supported yet" in str(e), str(e)
        return
    ptx = open(out).read()
    assert f".target {arch}" in ptx and ".visible .entry" in ptx
    r = ptxas(out, arch)
    assert r.returncode == 0, r.stderr


def test_examples_and_the_rfc_program(tmp_path):
    for path in [os.path.join(ROOT, "examples", "mlp.mlir"),
                 os.path.join(ROOT, "tests", "data", "rfc", "rfc_dynamic_slice.hlo.mlir"),
                 os.path.join(ROOT, "tests", "data", "rfc", "rfc_dynamic_slice.ldhlo.mlir")]:
        out = str(tmp_path / (os.path.basename(path) + ".ptx"))
        compile_ptx(path, "sm_80", out)
        r = ptxas(out, "sm_80")
        assert r.returncode == 0, (path, r.stderr)


ELEMENTWISE = """func.func @main(%x: tensor<?x64xf32>) -> tensor<?x64xf32> {
  %0 = stablehlo.exponential %x : tensor<?x64xf32>
  %1 = stablehlo.add %0, %x : tensor<?x64xf32>
  return %1 : tensor<?x64xf32>
}"""


def test_nvptx_ir_is_a_grid_stride_loop_over_the_parallel_loop():
    c = Compilation(ELEMENTWISE, "t.mlir", Options(name="t", emit="llvm", target="cuda"))
    _, text, optimized, kernels = c.llvm()
    assert 'target triple = "nvptx64-nvidia-cuda"' in text
    assert 'define ptx_kernel void @"t_main_kernel_0"' in text
    for sreg in ("tid.x", "ctaid.x", "nctaid.x"):
        assert f"llvm.nvvm.read.ptx.sreg.{sreg}" in text
    assert '!"reqntidx", i32 256' in text  # the block is the launch record's, fixed
    assert "expf" not in str(optimized) and "llvm.exp." not in str(optimized)  # inline exp
    (k,) = kernels
    # x (pointer, 2 dims), the result (pointer, 2 dims), then the run-time dims the fusion needs
    assert k.params[:6] == ["ptr", "i64", "i64", "ptr", "i64", "i64"]
    assert set(k.params[6:]) <= {"i64"} and k.extent_param == 4  # the result's dim 0


def test_launch_rule():
    rows = Launch("k", "rows", (256, 1, 1), extent_param=1)
    assert rows.grid([1]) == (1, 1, 1) and rows.grid([257]) == (2, 1, 1)
    assert rows.grid([10 ** 9]) == (8192, 1, 1)  # capped: the grid-stride loop covers the rest
    flat = Launch("e", "tiles", (256, 1, 1), tiles=(1, 1), extent_param=1)
    assert flat.elementwise and flat.grid([4, 1024]) == (16, 1, 1)
    assert flat.threads_launched([4, 1024]) == 4096
    # a block per 64 x 64 tile of a batched matmul's output: a 3-D grid, x the columns' tiles
    tiled = Launch("m", "tiles", (256, 1, 1), lanes=256, tiles=(1, 64, 64), extent_param=1)
    assert tiled.multi_grid and tiled.grid([3, 128, 200]) == (4, 2, 3)
    assert tiled.grid([70000, 64, 64]) == (8192, 1, 1)  # past the limits: 1-D, grid-stride
    assert Launch("s", "thread", (1, 1, 1)).grid([10 ** 6]) == (1, 1, 1)


CBRT = """func.func @main(%x: tensor<8xf32>) -> tensor<8xf32> {
  %0 = stablehlo.cbrt %x : tensor<8xf32>
  return %0 : tensor<8xf32>
}"""


def _aotc(*args):
    return subprocess.run([sys.executable, "-m", "aot.cli", *args], capture_output=True, text=True,
                          cwd=ROOT)


def test_device_math_it_lacks_is_a_located_error(monkeypatch):
    """A math op with neither a device instruction nor an inline version (cbrt, taken out of
    the inline table here: the device has one now or soon) is refused with its location."""
    from lowering.codegen import mathlib
    monkeypatch.delitem(mathlib.MATH, "math.cbrt", raising=False)
    c = Compilation(CBRT, "cbrt.mlir", Options(name="c", emit="ptx", target="cuda"))
    with pytest.raises(CompileError) as e:
        c.assembly()
    text = e.value.render()
    assert "cbrt.mlir:2:" in text and "'math.cbrt'" in text and "no device version" in text


def test_cuda_artifacts_and_their_emit_options(tmp_path):
    src = tmp_path / "e.mlir"
    src.write_text(ELEMENTWISE)
    r = _aotc("compile", str(src), "--target", "cuda", "-o", str(tmp_path / "libe.so"))
    assert r.returncode == 0 and (tmp_path / "libe.so").exists() and (tmp_path / "e.h").exists()
    r = _aotc("compile", str(src), "--target", "cuda", "--emit", "asm", "-o", "-")
    assert r.returncode == 1 and "--emit ptx" in r.stderr and "Traceback" not in r.stderr
    r = _aotc("compile", str(src), "--emit", "ptx", "-o", "-")
    assert r.returncode == 1 and "--emit ptx needs --target cuda" in r.stderr
    r = _aotc("compile", str(src), "--target", "cuda", "--gpu-arch", "sm_90", "--emit", "ptx", "-o", "-")
    assert r.returncode == 0 and ".target sm_90" in r.stdout


def test_report_prints_each_kernels_launch_and_resources(tmp_path):
    r = _aotc("compile", os.path.join(ROOT, "examples", "mlp.mlir"), "--target", "cuda", "--emit",
              "ptx", "-o", str(tmp_path / "mlp.ptx"), "--report")
    assert r.returncode == 0, r.stderr
    lines = [ln for ln in r.stdout.splitlines() if ln.startswith("mlp_main_kernel_")]
    assert lines and all("threads launched" in ln or "1 thread launched" in ln for ln in lines)
    assert all("registers" in ln and "(ptxas)" in ln for ln in lines)


def test_python_compile_for_cuda_builds_a_library(tmp_path):
    """aot.compile(target="cuda") gives the artifact (its calls need a driver: the runtime
    tests run them through the driver double); the target is part of the cache's key."""
    import aot
    cpu, cuda = aot.compile(ELEMENTWISE), aot.compile(ELEMENTWISE, target="cuda")
    assert cpu.path != cuda.path and list(cuda.entries) == ["main"]
    with pytest.raises(ValueError, match="no device allocator"):
        cpu.alloc_stats(device=True)
    assert cuda.alloc_stats(device=True)["num_allocs"] == 0


def _erf_chain(k):
    """Row sums of erf(...erf(x + x)...), k deep: the reduction's loop body holds k inline
    erfs (~130 ops each)."""
    ops = "\n".join(f"  %{i + 1} = chlo.erf %{i} : tensor<?x1000xf32>" for i in range(k))
    return f"""func.func @main(%x: tensor<?x1000xf32>) -> tensor<?xf32> {{
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %0 = stablehlo.add %x, %x : tensor<?x1000xf32>
{ops}
  %r = stablehlo.reduce(%{k} init: %z) applies stablehlo.add across dimensions = [1]
    : (tensor<?x1000xf32>, tensor<f32>) -> tensor<?xf32>
  return %r : tensor<?xf32>
}}"""


def test_long_loop_bodies_are_not_unrolled_on_the_gpu(tmp_path):
    """Past Target.unroll_body_limit ops a loop is marked never to unroll, which reaches ptxas
    as `.pragma "nounroll"` (ptxas -O3 took 40-120 s unrolling such a loop); short loops and
    the CPU target are left to the unrollers."""
    def ptx(k):
        c = Compilation(_erf_chain(k), "t.mlir", Options(name="t", emit="ptx", target="cuda"))
        return c.assembly()
    assert '.pragma "nounroll"' not in ptx(1)
    long_ptx = ptx(3)
    assert '.pragma "nounroll"' in long_ptx
    out = tmp_path / "long.ptx"
    out.write_text(long_ptx)
    assert ptxas(str(out), "sm_80").returncode == 0

    def cpu_marks(k):
        c = Compilation(_erf_chain(k), "t.mlir", Options(name="t", emit="llvm", target="cpu"))
        return c.llvm()[1].count("llvm.loop.unroll.disable")
    assert cpu_marks(3) == cpu_marks(1)


def test_long_fft_assembles(tmp_path):
    """Bluestein's FFT of 1009 points: its twiddle table loop (~270 ops) carries the
    no-unroll mark, and ptxas accepts the kernel (in about a second, not minutes)."""
    out = str(tmp_path / "fft.ptx")
    compile_ptx(os.path.join(CORPUS, "fft_prime_length_c64.mlir"), "sm_80", out)
    assert '.pragma "nounroll"' in open(out).read()
    r = ptxas(out, "sm_80")
    assert r.returncode == 0, r.stderr
