"""The GPU runtime (runtime_c/device/cuda_*.c) end to end through the CUDA driver double
(tests/tooling/cuda_double): `--target cuda` artifacts as users get them, called from Python
and from C programs; device allocation and its statistics; faults injected in the driver
(module load, launch, out of memory), each an error message after which nothing leaks and
the next call works; and a machine with no driver at all."""
import ctypes
import os
import subprocess
import sys
import threading
import time

import numpy as np
import pytest

from abi import dlpack
from abi.dtypes import dtype
from aot.driver import Compilation, Options
from examples.demo import numpy_mlp
from tooling import sanitize
from tooling.gpu_emu import build_companion, build_emulated, double_library, use_driver_double

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
EXAMPLES = os.path.join(ROOT, "examples")

PROGRAM = """func.func @main(%x: tensor<?x?xf32>, %w: tensor<?x?xf32>) -> (tensor<?x?xf32>, tensor<?xf32>) {
  %0 = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
  %1 = stablehlo.tanh %0 : tensor<?x?xf32>
  %c = stablehlo.constant dense<0.0> : tensor<f32>
  %2 = stablehlo.reduce(%1 init: %c) applies stablehlo.add across dimensions = [1] : (tensor<?x?xf32>, tensor<f32>) -> tensor<?xf32>
  return %1, %2 : tensor<?x?xf32>, tensor<?xf32>
}"""  # noqa: E501


def expected(x, w):
    t = np.tanh(x.astype(np.float64) @ w)
    return t, t.sum(1)


@pytest.fixture(scope="module")
def lib(tmp_path_factory):
    return build_emulated(PROGRAM, "rt", str(tmp_path_factory.mktemp("rt")))


def double():
    return ctypes.CDLL(double_library())  # the same instance the artifacts opened


def inputs(rows=70, inner=20, cols=9, seed=0):
    rng = np.random.default_rng(seed)
    return (rng.standard_normal((rows, inner)).astype(np.float32),
            rng.standard_normal((inner, cols)).astype(np.float32))


def test_results_through_the_driver_and_device_allocator(lib):
    x, w = inputs()
    t, s = lib.main(x, w)
    want_t, want_s = expected(x, w)
    np.testing.assert_allclose(t, want_t, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(s, want_s, rtol=1e-5, atol=1e-5)
    lib.reset_alloc_stats(device=True)
    lib.main(x, w)
    stats = lib.alloc_stats(device=True)
    # arguments, preallocated results and the temporaries all go back after the call
    assert stats["bytes_in_use"] == 0 and stats["num_allocs"] == stats["num_frees"] > 0
    assert stats["peak_bytes_in_use"] >= (x.size + w.size + x.shape[0] * w.shape[1]) * 4
    if os.environ.get("AOT_ALLOCATOR") != "system":  # `make test-asan` turns the cache off
        assert stats["cache_hits"] > 0  # the second call reuses the first one's blocks
    del t, s
    assert lib.alloc_stats()["bytes_in_use"] == 0  # on the host: only the results, while alive


def test_every_shape_and_threads_with_their_own_streams(lib):
    errors = []

    def work(seed):
        try:
            for rows, inner, cols in [(0, 3, 4), (1, 1, 1), (65, 17, 70), (3, 0, 2)]:
                x, w = inputs(rows, inner, cols, seed)
                t, s = lib.main(x, w)
                want_t, want_s = expected(x, w)
                np.testing.assert_allclose(t, want_t, rtol=1e-5, atol=1e-6)
                np.testing.assert_allclose(s, want_s, rtol=1e-5, atol=1e-5)
        except Exception as e:  # noqa: BLE001 - reported by the main thread
            errors.append(e)
    destroyed = double().aot_cuda_double_streams_destroyed()
    threads = [threading.Thread(target=work, args=(i,)) for i in range(3)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert not errors, errors
    # each thread's stream goes with the thread (its TLS destructors may run just after join)
    for _ in range(100):
        if double().aot_cuda_double_streams_destroyed() - destroyed == 3:
            break
        time.sleep(0.01)
    assert double().aot_cuda_double_streams_destroyed() - destroyed == 3


@pytest.mark.parametrize("fault, message", [
    ("oom", "out of device memory"),
    ("launch", "CUDA kernel launch failed: unspecified launch failure"),
])
def test_faults_are_errors_and_leave_nothing_behind(lib, monkeypatch, fault, message):
    x, w = inputs()
    lib.main(x, w)  # the module is loaded, the allocator's cache warm
    live, stats = double().aot_cuda_double_live(), lib.alloc_stats(device=True)
    monkeypatch.setenv("AOT_CUDA_DOUBLE_FAIL", fault)
    if fault == "oom":  # every block from the driver, none from the cache
        lib.release_cached_memory()
    with pytest.raises(Exception, match=message):
        lib.main(x, w)
    monkeypatch.delenv("AOT_CUDA_DOUBLE_FAIL")
    after = lib.alloc_stats(device=True)
    assert after["bytes_in_use"] == stats["bytes_in_use"] == 0
    assert double().aot_cuda_double_live() <= live  # nothing leaked in the device's memory
    t, _ = lib.main(x, w)
    np.testing.assert_allclose(t, expected(x, w)[0], rtol=1e-5, atol=1e-6)


def test_device_memory_limit(lib):
    """lib.set_memory_limit(n, device=True) caps what the device allocator holds: a limit
    below what a call needs fails it with the sizes (the cache given back, nothing left
    live), twice the call's peak (room for every power-of-two class) passes, and the host's
    limit is a separate one."""
    x, w = inputs()
    lib.main(x, w)
    lib.reset_alloc_stats(device=True)
    lib.main(x, w)
    peak = lib.alloc_stats(device=True)["peak_bytes_in_use"]
    assert lib.get_memory_limit(device=True) == 0
    caching = os.environ.get("AOT_ALLOCATOR") != "system"  # `make test-asan` turns it off
    assert (lib.held_bytes(device=True) >= peak) if caching else lib.held_bytes(device=True) == 0
    on_device = double().aot_cuda_double_live()
    try:
        lib.set_memory_limit(peak // 2, device=True)
        assert lib.get_memory_limit(device=True) == peak // 2 and lib.get_memory_limit() == 0
        assert lib.held_bytes(device=True) <= peak // 2  # over the new limit: cache went back
        assert double().aot_cuda_double_live() <= on_device
        with pytest.raises(Exception, match=rf"out of device memory: needs \d+ bytes \(device "
                                            rf"memory limit {peak // 2} bytes, \d+ held\)"):
            lib.main(x, w)
        assert lib.alloc_stats(device=True)["bytes_in_use"] == 0
        assert lib.held_bytes(device=True) <= peak // 2
        lib.set_memory_limit(2 * peak, device=True)
        t, s = lib.main(x, w)
        np.testing.assert_allclose(t, expected(x, w)[0], rtol=1e-5, atol=1e-6)
        assert lib.held_bytes(device=True) <= 2 * peak
    finally:
        lib.set_memory_limit(0, device=True)
    assert lib.get_memory_limit(device=True) == 0
    t, _ = lib.main(x, w)
    np.testing.assert_allclose(t, expected(x, w)[0], rtol=1e-5, atol=1e-6)


def test_device_memory_limit_takes_exact_sizes(tmp_path):
    """Two 12000-byte buffers (argument and result, each of the 16384-byte class) under a
    limit of 16384 + 12000: the second one fits only at its exact size, which it then takes;
    one byte less and the call fails."""
    neg = build_emulated("""func.func @main(%x: tensor<3000xf32>) -> tensor<3000xf32> {
  %0 = stablehlo.negate %x : tensor<3000xf32>
  return %0 : tensor<3000xf32>
}""", "neg", str(tmp_path))
    x = np.arange(3000, dtype=np.float32)
    # without the cache (`make test-asan`) every block has its exact size from the start
    first = 12000 if os.environ.get("AOT_ALLOCATOR") == "system" else 16384
    neg.release_cached_memory()
    neg.set_memory_limit(first + 12000 - 1, device=True)
    with pytest.raises(Exception, match="out of device memory: needs 12000 bytes"):
        neg.main(x)
    neg.set_memory_limit(first + 12000, device=True)
    np.testing.assert_array_equal(neg.main(x), -x)
    neg.set_memory_limit(0, device=True)


def test_a_full_device_takes_back_the_cache(lib, monkeypatch):
    """A device with room for a call's blocks but not for those and the blocks cached from
    calls of other sizes: the allocation that fails gives the cache back to the driver and
    is tried again, so the call runs."""
    if os.environ.get("AOT_ALLOCATOR") == "system":
        pytest.skip("nothing is cached without the cache (make test-asan)")
    small, big = inputs(rows=70), inputs(rows=3000, seed=1)
    lib.release_cached_memory()
    lib.main(*big)
    need = lib.held_bytes(device=True)  # every block the big call took, now cached
    lib.release_cached_memory()
    lib.main(*small)
    cached = lib.held_bytes(device=True)
    assert cached > 0
    dev = double()
    dev.aot_cuda_double_live_bytes.restype = ctypes.c_longlong
    free_room = need - cached // 2  # the big call fits only if the cache goes back
    monkeypatch.setenv("AOT_CUDA_DOUBLE_MEMORY", str(dev.aot_cuda_double_live_bytes() + free_room))
    t, s = lib.main(*big)
    np.testing.assert_allclose(t, expected(*big)[0], rtol=1e-5, atol=1e-6)
    assert lib.held_bytes(device=True) <= need


def test_a_device_limit_gives_back_the_biggest_cached_blocks_first(lib):
    """The host's and the device's limit are one rule (runtime_c/cache.c): an allocation
    over it gives cached blocks back to the driver, biggest first, only until it fits; the
    small ones stay cached for the next call."""
    if os.environ.get("AOT_ALLOCATOR") == "system":
        pytest.skip("nothing is cached without the cache (make test-asan)")
    so, dev = ctypes.CDLL(lib.path), double()
    so.aot_gpu_alloc.restype, so.aot_gpu_alloc.argtypes = ctypes.c_void_p, [ctypes.c_int64]
    so.aot_gpu_free.argtypes = [ctypes.c_void_p]
    so.aot_gpu_get_held_bytes.restype = ctypes.c_int64
    lib.release_cached_memory()
    blocks = [so.aot_gpu_alloc(n) for n in (1000, 1000, 1000, 1000, 4000)]  # 4 x 1024, 4096
    for p in blocks:
        so.aot_gpu_free(p)
    assert so.aot_gpu_get_held_bytes() == 8192
    on_device = dev.aot_cuda_double_live()
    try:
        lib.set_memory_limit(9000, device=True)
        p = so.aot_gpu_alloc(1500)  # class 2048: fits once the 4096-byte block went back
        assert p and so.aot_gpu_get_held_bytes() == 4 * 1024 + 2048
        assert dev.aot_cuda_double_live() == on_device  # one block back to the driver, one new
        so.aot_gpu_free(p)
    finally:
        lib.set_memory_limit(0, device=True)
        lib.release_cached_memory()


def test_device_memory_limit_from_the_environment(lib):
    """AOT_GPU_MEMORY_LIMIT, read at the first device allocation, in its own process."""
    script = ("import numpy as np, aot, sys\n"
              f"lib = aot.load({lib.path!r})\n"
              "print(lib.get_memory_limit(device=True), lib.get_memory_limit())\n"
              "try:\n"
              "    lib.main(np.ones((70, 20), np.float32), np.ones((20, 9), np.float32))\n"
              "except Exception as e:\n"
              "    print(e)\n")
    env = {**os.environ, "AOT_GPU_MEMORY_LIMIT": "1k", "PYTHONPATH": ROOT}
    r = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env,
                       timeout=300)
    assert r.returncode == 0, r.stderr
    first, second = r.stdout.splitlines()[:2]
    assert first == "1024 0"
    assert "out of device memory: needs" in second and "device memory limit 1024 bytes" in second


def test_a_module_the_driver_rejects_shows_its_log(tmp_path, monkeypatch):
    lib = build_emulated(PROGRAM.replace("tanh", "exponential"), "rejected", str(tmp_path))
    x, w = inputs()
    monkeypatch.setenv("AOT_CUDA_DOUBLE_FAIL", "load")
    with pytest.raises(Exception, match=r"could not load this library's PTX.*injected by the driver double"):
        lib.main(x, w)
    monkeypatch.delenv("AOT_CUDA_DOUBLE_FAIL")
    assert lib.alloc_stats(device=True)["bytes_in_use"] == 0
    t, _ = lib.main(x, w)  # loaded on this call
    np.testing.assert_allclose(t, np.exp(x.astype(np.float64) @ w), rtol=1e-5)


def test_no_driver_is_a_clear_error(tmp_path):
    """A cuda artifact on a machine without the driver: the call fails with the reason."""
    so = str(tmp_path / "libnod.so")
    Compilation(PROGRAM, "nod.mlir", Options(name="nod", emit="shared", target="cuda")).build(so)
    script = ("import numpy as np, aot\n"
              f"lib = aot.load({so!r})\n"
              "try:\n"
              "    lib.main(np.ones((2, 3), np.float32), np.ones((3, 4), np.float32))\n"
              "except Exception as e:\n"
              "    print('error:', e)\n")
    env = dict(os.environ, PYTHONPATH=ROOT, AOT_CUDA_LIBRARY="/nonexistent/libcuda.so.1")
    r = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env)
    assert r.returncode == 0, r.stderr
    assert "error: main: no CUDA driver found: /nonexistent/libcuda.so.1" in r.stdout or \
        "no CUDA driver found: /nonexistent/libcuda.so.1" in r.stdout, r.stdout
    env["AOT_CUDA_LIBRARY"] = double_library()
    env["AOT_CUDA_DOUBLE_DEVICES"] = "0"
    r = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env)
    assert "found no GPU" in r.stdout, r.stdout + r.stderr


@pytest.mark.parametrize("emit, artifact, link", [
    ("shared", "libmlp.so", lambda d: ["-L", d, "-lmlp", f"-Wl,-rpath,{d}"]),
    ("static", "libmlp.a", lambda d: [os.path.join(d, "libmlp.a")]),
])
def test_c_program_linked_against_a_cuda_artifact(tmp_path, emit, artifact, link):
    """examples/demo.c, unchanged, against the MLP built for the cuda target: the same
    output as the CPU build (tests/e2e/test_c_link.py), kernels launched through the driver."""
    out = str(tmp_path)
    path = os.path.join(EXAMPLES, "mlp.mlir")
    with open(path) as f:
        c = Compilation(f.read(), path, Options(name="mlp", emit=emit, target="cuda"))
    c.build(os.path.join(out, artifact))
    build_companion(c)
    use_driver_double()
    exe = os.path.join(out, "demo")
    subprocess.run(["cc", "-O1", "-Wall", "-Werror", *sanitize.cflags(), "-o", exe,
                    os.path.join(EXAMPLES, "demo.c"), "-I", out, *link(out), "-lm", "-lpthread",
                    "-ldl"], check=True, capture_output=True)
    p = np.load(os.path.join(EXAMPLES, "mlp.npz"))
    p["x"].astype(np.float32).tofile(os.path.join(out, "x.bin"))
    run = subprocess.run([exe, os.path.join(out, "x.bin"), os.path.join(out, "y.bin")],
                         capture_output=True, text=True, env=sanitize.run_env())
    assert not sanitize.findings(run.stderr), run.stderr  # `make test-asan`: leaks too
    assert run.returncode == 0, run.stderr
    assert "bad input rejected: main: argument 'arg0' (#0) expects f32[8,64], got f32[8,63]" in run.stdout
    assert "runtime-allocated result: rank 2, dims 8 x 10" in run.stdout
    want = numpy_mlp({k: v.astype(np.float64) for k, v in p.items()}, p["x"].astype(np.float64))
    y = np.fromfile(os.path.join(out, "y.bin"), dtype=np.float32).reshape(8, 10)
    np.testing.assert_allclose(y, want, rtol=1e-5, atol=1e-6)


def test_cuda_cpu_artifact_takes_the_gpu_when_there_is_one(tmp_path):
    """--target cuda,cpu: one library, its entries on the GPU when the driver has a device,
    else on the CPU; AOT_DEVICE forces either. Each case in a process of its own (the choice
    is made once per process)."""
    so = str(tmp_path / "libboth.so")
    c = Compilation(PROGRAM, "both.mlir", Options(name="both", emit="shared", target="cuda,cpu"))
    c.build(so)
    build_companion(c)
    use_driver_double()  # where the double finds the kernels, when a case selects it
    script = ("import numpy as np, aot\n"
              f"lib = aot.load({so!r})\n"
              "rng = np.random.default_rng(0)\n"
              "x, w = rng.standard_normal((70, 20), np.float32), rng.standard_normal((20, 9), np.float32)\n"
              "try:\n"
              "    t, s = lib.main(x, w)\n"
              "    err = np.abs(t - np.tanh(x.astype(np.float64) @ w)).max()\n"
              "    print(lib.device, lib.alloc_stats(device=True)['num_allocs'] > 0, err < 1e-5)\n"
              "except Exception as e:\n"
              "    print('error:', e)\n")
    none = "/nonexistent/libcuda.so.1"
    cases = [({"AOT_CUDA_LIBRARY": none}, "cpu False True"),
             ({"AOT_CUDA_LIBRARY": none, "AOT_DEVICE": "cuda"}, "error: no CUDA driver found"),
             ({"AOT_CUDA_LIBRARY": double_library()}, "cuda True True"),
             ({"AOT_CUDA_LIBRARY": double_library(), "AOT_DEVICE": "cpu"}, "cpu False True")]
    for extra, want in cases:
        env = {k: v for k, v in os.environ.items() if k != "AOT_DEVICE"}
        env.update(PYTHONPATH=ROOT, **extra)
        r = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env)
        assert r.stdout.startswith(want), (extra, r.stdout, r.stderr)


class Tensor(ctypes.Structure):  # aot_tensor
    _fields_ = [("data", ctypes.c_void_p), ("dims", ctypes.POINTER(ctypes.c_int64)),
                ("rank", ctypes.c_int32), ("dtype", ctypes.c_int32)]


def test_device_entry_keeps_data_on_the_device(lib):
    """NAME_F_device from C's point of view (ctypes): device pointers in and out, results the
    runtime allocates (freed with aot_gpu_tensor_free) or the caller's device buffers."""
    drv, so = double(), ctypes.CDLL(lib.path)
    f32 = dtype("f32").code

    def to_device(a):
        p = ctypes.c_uint64()
        assert drv.cuMemAlloc_v2(ctypes.byref(p), ctypes.c_size_t(max(a.nbytes, 1))) == 0
        drv.cuMemcpyHtoDAsync_v2(p, a.ctypes.data_as(ctypes.c_void_p), ctypes.c_size_t(a.nbytes), None)
        return p.value

    def to_host(ptr, shape):
        out = np.empty(shape, np.float32)
        drv.cuMemcpyDtoHAsync_v2(out.ctypes.data_as(ctypes.c_void_p), ctypes.c_uint64(ptr),
                                 ctypes.c_size_t(out.nbytes), None)
        return out
    x, w = inputs()
    dims = [(ctypes.c_int64 * 2)(*x.shape), (ctypes.c_int64 * 2)(*w.shape)]
    args = (Tensor * 2)(Tensor(to_device(x), dims[0], 2, f32), Tensor(to_device(w), dims[1], 2, f32))
    results = (Tensor * 2)()
    lib.reset_alloc_stats(device=True)
    assert so.rt_main_device(args, results, None) == 0
    t = to_host(results[0].data, tuple(results[0].dims[i] for i in range(2)))
    s = to_host(results[1].data, (results[1].dims[0],))
    want_t, want_s = expected(x, w)
    np.testing.assert_allclose(t, want_t, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(s, want_s, rtol=1e-5, atol=1e-5)
    assert lib.alloc_stats(device=True)["bytes_in_use"] == t.nbytes + s.nbytes  # the results
    for r in results:
        so.aot_gpu_tensor_free(ctypes.byref(r))
        assert r.data is None
    assert lib.alloc_stats(device=True)["bytes_in_use"] == 0
    # the caller's device buffers, written in place; a wrong shape is refused by name
    mine = [(ctypes.c_int64 * 2)(70, 9), (ctypes.c_int64 * 1)(70)]
    results = (Tensor * 2)(Tensor(to_device(np.zeros((70, 9), np.float32)), mine[0], 2, f32),
                           Tensor(to_device(np.zeros(70, np.float32)), mine[1], 1, f32))
    assert so.rt_main_device(args, results, None) == 0
    np.testing.assert_allclose(to_host(results[0].data, (70, 9)), want_t, rtol=1e-5, atol=1e-6)
    mine[1][0] = 69
    assert so.rt_main_device(args, results, None) != 0
    so.aot_last_error.restype = ctypes.c_char_p
    assert b"result" in so.aot_last_error() and b"[69]" in so.aot_last_error()
    assert lib.alloc_stats(device=True)["bytes_in_use"] == 0


class FakeDeviceArray:
    """What CuPy or PyTorch would hand over: device memory (the double's) behind
    __cuda_array_interface__."""

    def __init__(self, a: np.ndarray):
        drv, p = double(), ctypes.c_uint64()
        assert drv.cuMemAlloc_v2(ctypes.byref(p), ctypes.c_size_t(max(a.nbytes, 1))) == 0
        drv.cuMemcpyHtoDAsync_v2(p, a.ctypes.data_as(ctypes.c_void_p), ctypes.c_size_t(a.nbytes), None)
        self.__cuda_array_interface__ = {"shape": a.shape, "typestr": a.dtype.str, "version": 3,
                                         "strides": None, "data": (p.value, False)}


def test_python_device_entry_takes_cuda_array_interface(lib):
    x, w = inputs()
    lib.reset_alloc_stats(device=True)
    t, s = lib.main.device(FakeDeviceArray(x), FakeDeviceArray(w))
    want_t, want_s = expected(x, w)
    assert t.shape == (70, 9) and t.__cuda_array_interface__["typestr"] == "<f4"
    np.testing.assert_allclose(t.to_numpy(), want_t, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(s.to_numpy(), want_s, rtol=1e-5, atol=1e-5)
    t2, _ = lib.main.device(t, FakeDeviceArray(np.eye(9, dtype=np.float32)))  # a result as input
    np.testing.assert_allclose(t2.to_numpy(), np.tanh(want_t), rtol=1e-5, atol=1e-6)
    del t, s, t2, _
    assert lib.alloc_stats(device=True)["bytes_in_use"] == 0  # results freed with their objects
    with pytest.raises(TypeError, match=r"argument 'x' \(#0\).* is in cpu memory \(DLPack\); the device "
                                        r"entry takes CUDA device memory"):
        lib.main.device(x, w)  # numpy arrays have __dlpack__ too, on the host
    with pytest.raises(TypeError, match="must be a device array"):
        lib.main.device([1.0], w)
    with pytest.raises(TypeError, match="expects float32, got a device array of float64"):
        lib.main.device(FakeDeviceArray(x.astype(np.float64)), FakeDeviceArray(w))


class DLPackOnly:
    """What PyTorch or JAX would hand over: device memory behind __dlpack__ only."""

    def __init__(self, a: np.ndarray):
        self.memory = FakeDeviceArray(a)  # the double's memory, kept alive by this object
        self.shape, self.dtype = a.shape, a.dtype
        self.taken = 0

    def __dlpack__(self, stream=None):
        self.taken += 1
        return dlpack.export(self.memory.__cuda_array_interface__["data"][0], self.shape, self.dtype, self)

    def __dlpack_device__(self):
        return dlpack.CUDA, 0


def test_python_device_entry_takes_and_gives_dlpack(lib):
    x, w = inputs()
    xd, wd = DLPackOnly(x), DLPackOnly(w)
    t, s = lib.main.device(xd, wd)
    assert xd.taken == wd.taken == 1 and not dlpack._exported  # each handed back after the call
    want_t, want_s = expected(x, w)
    np.testing.assert_allclose(t.to_numpy(), want_t, rtol=1e-5, atol=1e-6)
    assert t.__dlpack_device__() == (dlpack.CUDA, 0)
    # a result's capsule, as torch.from_dlpack would take it: the array lives while it is used
    ptr, shape, dt, release = dlpack.device_view(t, None, lambda: "t")
    assert len(dlpack._exported) == 1
    assert (ptr, shape, dt) == (int(t.__cuda_array_interface__["data"][0]), (70, 9), np.float32)
    release()
    assert not dlpack._exported
    t.__dlpack__()  # a capsule nobody consumes gives its array back when it dies
    assert not dlpack._exported
    with pytest.raises(TypeError, match="expects float32, got a device array of float64"):
        lib.main.device(DLPackOnly(x.astype(np.float64)), wd)
    assert not dlpack._exported  # handed back on errors too
    del t, s
    assert lib.alloc_stats(device=True)["bytes_in_use"] == 0


def test_gpu_benchmark_script_runs_through_the_double():
    """benchmarks/gpu_workloads.py is for a machine with a GPU; --smoke keeps the script itself
    working here (tiny shapes, the driver double; its results are checked, its times are not)."""
    r = subprocess.run([sys.executable, os.path.join(ROOT, "benchmarks", "gpu_workloads.py"), "--smoke",
                        "--workloads", "softmax,mlp"], capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stdout + r.stderr
    lines = [ln.split()[0] for ln in r.stdout.splitlines()]
    assert "softmax" in lines and "mlp" in lines and "WRONG" not in r.stdout


THREADED_MAIN = r'''
#include "rtt.h"

/* Each thread (its own stream) calls with its own sizes, so device blocks are allocated,
 * cached, handed between streams and freed; thread 0 also changes the device memory limit
 * and gives the cache back meanwhile; every thread makes a failing call. */
static void *caller(void *arg) {
    int id = (int)(long)arg;
    for (int rep = 0; rep < 8; rep++) {
        int64_t rows = 5 + 7 * ((rep + id) % 4), inner = 6, cols = 3;
        float x[33 * 6], w[6 * 3];
        for (int i = 0; i < rows * inner; i++) x[i] = (float)((i + id) % 5) * 0.1f;
        for (int i = 0; i < inner * cols; i++) w[i] = 0.2f;
        int64_t dx[2] = {rows, inner}, dw[2] = {inner, cols};
        aot_tensor args[2] = {{x, dx, 2, AOT_F32}, {w, dw, 2, AOT_F32}};
        aot_tensor res[2] = {{NULL, NULL, 0, 0}, {NULL, NULL, 0, 0}};
        if (id == 0) {
            aot_gpu_set_memory_limit(rep % 2 ? 0 : (int64_t)1 << 20);
            if (rep == 5) aot_gpu_release_cached_memory();
        }
        if (rtt_main(args, res)) {
            fail(aot_last_error());
        } else {
            double dot = 0;
            for (int k = 0; k < inner; k++) dot += x[k] * 0.2;
            if (fabs(((float *)res[0].data)[0] - tanh(dot)) > 1e-5) fail("wrong result");
            aot_tensor_free(&res[0]);
            aot_tensor_free(&res[1]);
        }
        int64_t bad[2] = {inner + 1, cols};
        args[1].dims = bad;
        if (rtt_main(args, res) == 0) fail("a wrong shape passed");
    }
    return NULL;
}

int main(void) {
    pthread_t threads[3];
    for (long i = 0; i < 3; i++) pthread_create(&threads[i], NULL, caller, (void *)i);
    for (int i = 0; i < 3; i++) pthread_join(threads[i], NULL);
    aot_alloc_stats stats;
    aot_gpu_get_alloc_stats(&stats);
    printf("failures=%d device bytes_in_use=%lld\n", failures, (long long)stats.bytes_in_use);
    aot_gpu_release_cached_memory();
    return failures != 0;
}
'''


def test_gpu_runtime_threads_under_thread_sanitizer(tmp_path):
    """The GPU runtime built with ThreadSanitizer, in a C program built with it: three threads,
    each with its stream, call a cuda artifact through the driver double with their own sizes
    while one changes the device memory limit and releases the cache. No data race may be
    reported in the runtime's C (streams, the device allocator and its cross-stream cache,
    the module load); the kernels and the double are not instrumented."""
    why = sanitize.thread_unavailable()
    if why:
        pytest.skip(why)
    if sanitize.active():  # `make test-asan`; `make test` runs this test
        pytest.skip("the driver double and its kernels are built with AddressSanitizer here, "
                    "which a ThreadSanitizer program cannot load")
    out = str(tmp_path)
    c = Compilation(PROGRAM, "rtt.mlir", Options(name="rtt", emit="static", target="cuda",
                                                 sanitize="thread"))
    c.build(os.path.join(out, "librtt.a"))
    build_companion(c)
    use_driver_double()
    exe = sanitize.build_thread_program(out, "main", THREADED_MAIN, os.path.join(out, "librtt.a"))
    stdout = sanitize.run_thread_clean(exe)
    assert stdout.strip().endswith("failures=0 device bytes_in_use=0"), stdout
