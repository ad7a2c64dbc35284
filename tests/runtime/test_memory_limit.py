"""The host allocator's memory limit (runtime_c/alloc.c): what it counts (live blocks at their
size-class capacity plus cached blocks), that cached blocks go before an allocation fails, the
exact-size fallback near the limit, AOT_MEMORY_LIMIT's spelling, and the out-of-memory
messages, driven through the runtime's own functions on a small library."""
import os
import subprocess
import sys

import pytest

import aot
from abi.loader import ffi

# the sizes below are the cache's size classes; AOT_ALLOCATOR=system (`make test-asan`) has none
needs_cache = pytest.mark.skipif(os.environ.get("AOT_ALLOCATOR") == "system",
                                 reason="needs the caching allocator")

PROGRAM = """
func.func @main(%x: tensor<?xf32>) -> tensor<?xf32> {
  %y = stablehlo.negate %x : tensor<?xf32>
  return %y : tensor<?xf32>
}
"""


@pytest.fixture
def rt():
    """The library's runtime (a copy of its own, unlike other tests' libraries), starting
    empty and without a limit, and left so."""
    lib = aot.compile(PROGRAM, name="memory_limit_rt")
    lib.release_cached_memory()
    lib.set_memory_limit(0)
    lib.reset_alloc_stats()
    assert lib.alloc_stats()["bytes_in_use"] == 0 and lib.held_bytes() == 0
    yield lib._lib
    lib.set_memory_limit(0)
    lib.release_cached_memory()


def error(rt) -> str:
    return ffi.string(rt.aot_last_error()).decode()


@needs_cache
def test_the_limit_counts_live_and_cached_blocks_at_their_capacity(rt):
    rt.aot_set_memory_limit(1250)
    assert rt.aot_get_memory_limit() == 1250
    a = rt.aot_alloc_for(600, b"a")  # size class 640
    assert a != ffi.NULL and rt.aot_get_held_bytes() == 640
    # 640 + 640 would pass the limit, 640 + 600 does not: the block is made exactly 600 long
    b = rt.aot_alloc_for(600, b"b")
    assert b != ffi.NULL and rt.aot_get_held_bytes() == 1240
    assert rt.aot_alloc_for(16, b"the third block") == ffi.NULL
    assert error(rt) == ("out of memory: needs 16 bytes for the third block "
                         "(memory limit 1250 bytes, 1240 held)")
    rt.aot_free(b)  # not of a size class: back to the system
    assert rt.aot_get_held_bytes() == 640
    rt.aot_free(a)  # cached: still held
    assert rt.aot_get_held_bytes() == 640
    stats = ffi.new("aot_alloc_stats *")
    rt.aot_get_alloc_stats(stats)
    assert stats.bytes_in_use == 0 and stats.num_allocs == stats.num_frees == 2


@needs_cache
def test_cached_blocks_are_dropped_before_an_allocation_fails(rt):
    blocks = [rt.aot_alloc_for(1000, b"x") for _ in range(4)]  # class 1024 each
    for p in blocks:
        rt.aot_free(p)
    assert rt.aot_get_held_bytes() == 4096  # all cached
    rt.aot_set_memory_limit(5000)
    p = rt.aot_alloc_for(3000, b"y")  # class 3072: fits once three cached blocks are gone
    assert p != ffi.NULL
    assert rt.aot_get_held_bytes() == 3072 + 1024
    rt.aot_free(p)
    rt.aot_set_memory_limit(2000)  # a lower limit drops cached blocks until under it
    assert rt.aot_get_held_bytes() <= 2000


@needs_cache
def test_a_request_past_the_limit_or_the_system_fails_with_its_size(rt):
    rt.aot_set_memory_limit(1 << 20)
    assert rt.aot_alloc_for((1 << 20) + 1, b"the big one") == ffi.NULL
    assert error(rt) == ("out of memory: needs 1048577 bytes for the big one "
                         "(memory limit 1048576 bytes, 0 held)")
    rt.aot_set_memory_limit(0)
    cached = rt.aot_alloc_for(100, ffi.NULL)
    rt.aot_free(cached)
    assert rt.aot_get_held_bytes() == 112  # its size class
    # no limit: malloc itself fails (2^60 bytes); the cache is given back before it does
    assert rt.aot_alloc_for(1 << 60, b"an exabyte") == ffi.NULL
    assert error(rt) == "out of memory: needs 1152921504606846976 bytes for an exabyte"
    assert rt.aot_get_held_bytes() == 0
    assert rt.aot_alloc(-1) == ffi.NULL
    assert error(rt) == "aot_alloc: bad size -1"
    stats = ffi.new("aot_alloc_stats *")
    rt.aot_get_alloc_stats(stats)
    assert stats.bytes_in_use == 0 and stats.num_allocs == stats.num_frees == 1


def test_a_result_the_entry_cannot_allocate_is_named():
    """A static result (allocated by aot_prepare_result, not by generated code) names the
    entry and the result in its out-of-memory message."""
    import numpy as np
    lib = aot.compile("""
func.func @main(%x: tensor<?xf32>) -> tensor<1000xf32> {
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %b = stablehlo.broadcast_in_dim %z, dims = [] : (tensor<f32>) -> tensor<1000xf32>
  return %b : tensor<1000xf32>
}
""", name="memory_limit_static")
    lib.release_cached_memory()
    lib.set_memory_limit(1000)
    try:
        with pytest.raises(Exception, match=r"^out of memory: needs 4000 bytes for main's result "
                                             r"'result0' \(#0\), f32\[1000\] \(memory limit 1000 bytes"):
            lib.main(np.zeros(3, np.float32))
        assert lib.alloc_stats()["bytes_in_use"] == 0
    finally:
        lib.set_memory_limit(0)


def test_a_call_failing_at_any_allocation_frees_the_buffers_before_it():
    """The entry's failure exit frees every temporary allocated so far (one table of slots
    it loops over, host.py): the limit is raised step by step so that the call fails at
    each of its allocations in turn, and nothing is left in use after any of them."""
    import numpy as np
    dot = ("stablehlo.dot_general {}, %w, contracting_dims = [1] x [0] : "
           "(tensor<?x64xf32>, tensor<64x64xf32>) -> tensor<?x64xf32>")
    lib = aot.compile(f"""
func.func @main(%x: tensor<?x64xf32>, %w: tensor<64x64xf32>) -> tensor<?x64xf32> {{
  %a = {dot.format("%x")}
  %b = stablehlo.tanh %a : tensor<?x64xf32>
  %c = {dot.format("%b")}
  %d = stablehlo.tanh %c : tensor<?x64xf32>
  %e = {dot.format("%d")}
  %f = stablehlo.add %e, %a : tensor<?x64xf32>
  return %f : tensor<?x64xf32>
}}
""", name="memory_limit_chain")
    x, w = np.ones((100, 64), np.float32), np.full((64, 64), 0.01, np.float32)
    failed_after = set()
    try:
        for limit in range(1 << 14, 1 << 20, 1 << 14):
            lib.release_cached_memory()
            lib.set_memory_limit(limit)
            lib.reset_alloc_stats()
            try:
                lib.main(x, w)
                break
            except Exception as e:  # noqa: BLE001
                assert "out of memory" in str(e)
                failed_after.add(lib.alloc_stats()["num_allocs"])
            assert lib.alloc_stats()["bytes_in_use"] == 0, limit
    finally:
        lib.set_memory_limit(0)
    assert len(failed_after) >= 3, failed_after  # failures after 0, 1, 2... allocations


@pytest.mark.parametrize("text, limit", [("4096", 4096), ("64k", 64 << 10), ("3M", 3 << 20),
                                         ("2g", 2 << 30), ("", 0), ("lots", 0), ("-5", 0),
                                         ("12kb", 0)])
def test_aot_memory_limit_spelling(text, limit):
    """Bytes, or k/M/G for powers of 1024; anything else means no limit."""
    path = aot.compile(PROGRAM, name="memory_limit_rt").path
    code = (f"import ctypes; lib = ctypes.CDLL({path!r}); lib.aot_get_memory_limit.restype = ctypes.c_int64; "
            "print(lib.aot_get_memory_limit())")
    out = subprocess.run([sys.executable, "-c", code], env=dict(os.environ, AOT_MEMORY_LIMIT=text),
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert int(out.stdout) == limit
