"""Vector loads and stores in elementwise kernels (lowering/codegen/cuda/vector.py): a thread
per 4 consecutive elements when the innermost dim allows and the threads still fill the
devices; the PTX has `ld.global.v4` (v2 for f64) that ptxas accepts, the emulated grid gives
numpy's results on the vector path (aligned buffers) and on the scalar fallback (a
misaligned device pointer), and the counting build reports a vector access as one."""
import collections
import ctypes
import os
import re

import numpy as np
import pytest

from aot.driver import Compilation, Options
from lowering.codegen.cuda import ptxas
from tooling.gpu_emu import build_counting, build_emulated, double_library

BIAS = """func.func @main(%x: tensor<SHAPExTYPE>, %b: tensor<LASTxTYPE>) -> tensor<SHAPExTYPE> {
  %bb = stablehlo.broadcast_in_dim %b, dims = [RANK] : (tensor<LASTxTYPE>) -> tensor<SHAPExTYPE>
  %0 = stablehlo.add %x, %bb : tensor<SHAPExTYPE>
  %1 = stablehlo.negate %0 : tensor<SHAPExTYPE>
  return %1 : tensor<SHAPExTYPE>
}"""


def bias_program(shape, elem="f32"):
    return (BIAS.replace("SHAPE", "x".join(map(str, shape))).replace("LAST", str(shape[-1]))
            .replace("RANK", str(len(shape) - 1)).replace("TYPE", elem))


def last_launch():
    out = (ctypes.c_uint * 7)()
    ctypes.CDLL(double_library()).aot_cuda_double_last_launch(out)
    return tuple(out)


def compiled(text):
    c = Compilation(text, "v.mlir", Options(name="v", emit="ptx", target="cuda"))
    return c.assembly(), c.llvm()[3]


# (shape, element, the launch's elements per thread, global accesses of the PTX: the vector
# path's and the scalar fallback's)
CASES = [((544, 1024), "f32", 4, {"ld.v4.b32": 2, "st.v4.b32": 1, "ld.b32": 2, "st.b32": 1}),
         ((1024, 1024), "f64", 4, {"ld.v2.b64": 4, "st.v2.b64": 2, "ld.b64": 2, "st.b64": 1}),
         ((1024, 1024), "f16", 4, {"ld.v2.b32": 2, "st.v2.b32": 1, "ld.b16": 2, "st.b16": 1}),
         ((1024, 1022), "f32", 1, {"ld.b32": 2, "st.b32": 1}),  # rows not a multiple of 4
         ((4, 1024), "f32", 1, {"ld.b32": 2, "st.b32": 1})]  # 1024 threads would not fill a GPU


@pytest.mark.parametrize("shape,elem,vector,accesses", CASES)
def test_vector_loads_in_the_ptx(shape, elem, vector, accesses, tmp_path):
    ptx, (k,) = compiled(bias_program(shape, elem))
    assert k.launch.vector == vector
    n = int(np.prod(shape))
    assert k.launch.threads_launched(shape) == min(-(-n // vector // 256), 8192) * 256
    pattern = r"\b(ld|st)\.global(\.v\d)?\.(\w+)"
    found = collections.Counter(f"{op}{v}.{t}" for op, v, t in re.findall(pattern, ptx))
    assert dict(found) == accesses
    if ptxas.find_ptxas() is None:
        pytest.fail("ptxas not found: the test extras install it (nvidia-cuda-nvcc)")
    path = tmp_path / "v.ptx"
    path.write_text(ptx)
    for arch in ("sm_80", "sm_90"):
        result = ptxas.assemble(str(path), arch)
        assert result.returncode == 0, result.stderr


class MisalignedDeviceArray:
    """An array in the driver double's device memory 4 bytes past a 16-byte boundary."""

    def __init__(self, a: np.ndarray):
        drv, p = ctypes.CDLL(double_library()), ctypes.c_uint64()
        assert drv.cuMemAlloc_v2(ctypes.byref(p), ctypes.c_size_t(a.nbytes + 16)) == 0
        assert p.value % 16 == 0
        drv.cuMemcpyHtoDAsync_v2(ctypes.c_uint64(p.value + 4), a.ctypes.data_as(ctypes.c_void_p),
                                 ctypes.c_size_t(a.nbytes), None)
        self.__cuda_array_interface__ = {"shape": a.shape, "typestr": a.dtype.str, "version": 3,
                                         "strides": None, "data": (p.value + 4, False)}


def test_both_paths_on_the_emulated_grid(tmp_path):
    """Aligned buffers take the vector path, a misaligned one the scalar loop over every
    element with the same threads: both give numpy's numbers exactly."""
    shape = (544, 1024)
    lib = build_emulated(bias_program(shape), "vec", str(tmp_path))
    rng = np.random.default_rng(3)
    x = rng.standard_normal(shape).astype(np.float32)
    b = rng.standard_normal(shape[-1]).astype(np.float32)
    want = -(x + b)
    np.testing.assert_array_equal(lib.main(x, b), want)
    got = lib.main.device(MisalignedDeviceArray(x), MisalignedDeviceArray(b))
    np.testing.assert_array_equal(got.to_numpy(), want)


def test_the_counting_build_sees_one_access_per_group(tmp_path):
    """On the vector path (the counting build's extent: the 139264 groups of 4) each buffer
    is one access of 16 bytes per group, the sectors whole: the scalar kernel's bytes and
    sectors in a quarter of the requests. The misaligned call counts the 557056 elements."""
    shape = (544, 1024)
    n = int(np.prod(shape))
    counts = tmp_path / "counts"
    kernels_dir = os.environ.get("AOT_CUDA_DOUBLE_KERNELS")
    os.environ["AOT_EMU_COUNT"] = str(counts)
    try:
        lib, _ = build_counting(bias_program(shape), "vecc", str(tmp_path))
        x, b = np.ones(shape, np.float32), np.ones(shape[-1], np.float32)
        lib.main(x, b)  # (partial results: each thread stops after 16 iterations)
        lib.main.device(MisalignedDeviceArray(x), MisalignedDeviceArray(b))
    finally:
        os.environ.pop("AOT_EMU_COUNT")
        if kernels_dir:
            os.environ["AOT_CUDA_DOUBLE_KERNELS"] = kernels_dir
        else:
            os.environ.pop("AOT_CUDA_DOUBLE_KERNELS", None)
    lines = [line.split() for line in counts.read_text().splitlines()]
    assert len(lines) == 2
    iterations, extent, accesses, nbytes, _, sectors = lines[0][7:13]
    assert int(lines[0][1]) == n // 4 // 256 and int(extent) == n // 4  # groups of 4
    assert int(accesses) == 3 * int(iterations)  # x, b and the result: one access each per group
    assert int(nbytes) == 3 * 16 * int(iterations)
    assert float(sectors) == pytest.approx(3 * 16 * int(iterations) / 32, rel=0.01)  # whole sectors
    assert int(lines[1][8]) == n  # the misaligned call: the scalar loop over every element


def test_a_run_time_batch_takes_vector_loads_from_enough_rows(tmp_path):
    """[?, 1024]: one build, a thread per 4 elements from 540672 elements on (what fills an
    H100 at a thread per 4), else a thread per element; the host's grid and the device's
    choice follow the same rule; numpy's numbers exactly either way."""
    text = """func.func @main(%x: tensor<?x1024xf32>, %y: tensor<?x1024xf32>) -> tensor<?x1024xf32> {
  %0 = stablehlo.add %x, %y : tensor<?x1024xf32>
  %1 = stablehlo.negate %0 : tensor<?x1024xf32>
  return %1 : tensor<?x1024xf32>
}"""
    ptx, (k,) = compiled(text)
    assert (k.launch.vector, k.launch.vector_from) == (4, 540672)
    assert "ld.global.v4.b32" in ptx and "st.global.v4.b32" in ptx
    lib = build_emulated(text, "vecdyn", str(tmp_path))
    rng = np.random.default_rng(4)
    for rows, blocks in [(3, 12), (527, 2108), (528, 528), (544, 544)]:  # 528 x 1024 = 540672
        x, y = (rng.standard_normal((rows, 1024)).astype(np.float32) for _ in range(2))
        np.testing.assert_array_equal(lib.main(x, y), -(x + y))
        assert last_launch()[:4] == (blocks, 1, 1, 256)


def test_strided_reads_keep_one_element_a_thread():
    """A transposed operand (or a window read with a stride) differs between a group's
    elements at addresses that are not consecutive: 4 elements a thread would make each warp
    access touch 4x the sectors, so such kernels keep one element a thread."""
    transposed = """func.func @main(%x: tensor<1024x1024xf32>) -> tensor<1024x1024xf32> {
  %t = stablehlo.transpose %x, dims = [1, 0] : (tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  %0 = stablehlo.add %t, %x : tensor<1024x1024xf32>
  return %0 : tensor<1024x1024xf32>
}"""
    pool = """func.func @main(%x: tensor<8x64x224x224xf32>) -> tensor<8x64x112x112xf32> {
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %0 = "stablehlo.reduce_window"(%x, %z) ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %m = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %m : tensor<f32>
  }) {window_dimensions = array<i64: 1, 1, 2, 2>, window_strides = array<i64: 1, 1, 2, 2>} : (tensor<8x64x224x224xf32>, tensor<f32>) -> tensor<8x64x112x112xf32>
  return %0 : tensor<8x64x112x112xf32>
}"""  # noqa: E501
    for text in (transposed, pool):
        ptx, ks = compiled(text)
        big = [k for k in ks if k.launch.elementwise and k.launch.threads_launched(k.dims) >= 1 << 20]
        assert big and all(k.launch.vector == 1 for k in big) and "ld.global.v" not in ptx
