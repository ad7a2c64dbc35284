"""The Python side of the ABI: the cffi loader driving the fake model
(tests/data/runtime_c/fake_model.c) built as a shared library, signatures, and the
generated per-artifact header (golden text in tests/data/runtime_c/golden_model.h)."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import textwrap
import threading
from pathlib import Path

import cffi
import ml_dtypes
import numpy as np
import pytest

import abi
from abi import AotRuntimeError, EntrySig, Library, ValueSig

C_DIR = Path(__file__).resolve().parents[1] / "data" / "runtime_c"
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def fake_so(tmp_path_factory) -> Path:
    """libfake.so: fake model + runtime, built like an aotc shared artifact."""
    out = tmp_path_factory.mktemp("fake_so") / "libfake.so"
    cmd = ["cc", "-O2", "-fPIC", "-std=c11", "-pthread", "-shared", f"-I{abi.runtime_dir()}",
           *map(str, abi.runtime_sources()), str(C_DIR / "fake_model.c"), "-o", str(out),
           "-lm", "-lpthread", "-ldl"]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    return out


@pytest.fixture(scope="module")
def lib(fake_so) -> Library:
    return Library(fake_so)


def run_python(code: str, **env) -> str:
    """Runs code in a fresh interpreter (environment read at load time)."""
    proc = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True,
                          text=True, cwd=ROOT, env=dict(os.environ, **env), timeout=60)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


# ---- metadata ---------------------------------------------------------------


def test_metadata_gives_entries_and_signatures(lib):
    assert lib.name == "fake"
    assert list(lib.entries) == ["add", "unique", "minmax", "positive", "assert_finite",
                                 "scale"]
    assert lib.add is lib.entries["add"]
    assert str(lib.add.signature) == "add(x: f32[?,3], y: f32[?,3]) -> (f32[?,3])"
    assert str(lib.minmax.signature) == "minmax(x: f32[?]) -> (f32[], i64[])"
    assert lib.add.signature.symbol == "fake_add"
    assert lib.add.signature.results == [ValueSig("sum", "f32", (None, 3))]


def test_missing_entry_names_the_known_ones(lib):
    with pytest.raises(AttributeError, match="no entry 'mul'; entries: add, unique"):
        lib.mul


# ---- results ----------------------------------------------------------------


def test_add_dynamic_result(lib):
    x = np.random.default_rng(0).standard_normal((5, 3)).astype(np.float32)
    y = np.arange(15, dtype=np.float32).reshape(5, 3)
    np.testing.assert_array_equal(lib.add(x, y), x + y)
    assert lib.add(x[:0], y[:0]).shape == (0, 3)


def test_non_contiguous_arguments_are_copied(lib):
    x = np.arange(24, dtype=np.float32).reshape(4, 6)[:, ::2]
    np.testing.assert_array_equal(lib.add(x, x), x + x)


def test_unique_result_sized_after_computing(lib):
    got = lib.unique(np.array([4, -1, 4, 7, -1], np.int32))
    assert got.dtype == np.int32
    np.testing.assert_array_equal(got, [-1, 4, 7])
    assert lib.unique(np.array([], np.int32)).shape == (0,)


def test_several_static_results_are_a_tuple_of_0d_arrays(lib):
    low, where = lib.minmax(np.array([3, 1, -2, 5], np.float32))
    assert (low.shape, low.dtype, float(low)) == ((), np.float32, -2.0)
    assert (where.dtype, int(where)) == (np.int64, 2)


def test_results_are_runtime_blocks_returned_when_dropped(lib):
    """Results past 4 KiB are numpy arrays over the runtime's blocks (no copy): a dropped
    result goes back to the caching allocator, so the next call reuses it. Smaller ones are
    copied and their block goes back at once. With out= nothing is allocated at all."""
    big = np.ones((1024, 3), np.float32)  # 12 KiB results
    lib.add(big, big)  # warm the cache
    stats = lib.alloc_stats()
    kept = [lib.add(big, np.full_like(big, i)) for i in range(3)]
    assert [float(r[0, 0]) for r in kept] == [1.0, 2.0, 3.0]  # each result its own block
    assert lib.alloc_stats()["bytes_in_use"] > stats["bytes_in_use"]
    del kept
    assert lib.alloc_stats()["bytes_in_use"] == stats["bytes_in_use"]
    for _ in range(10):
        lib.add(big, big)
    assert lib.alloc_stats()["cache_hits"] - stats["cache_hits"] >= 10

    small = [lib.minmax(np.full(4, i, np.float32)) for i in range(3)]
    assert [float(r[0]) for r in small] == [0.0, 1.0, 2.0]
    assert lib.alloc_stats()["bytes_in_use"] == stats["bytes_in_use"]  # copied, blocks back
    after = lib.alloc_stats()
    out = (np.empty((), np.float32), np.empty((), np.int64))
    lib.minmax(np.ones(4, np.float32), out=out)
    assert lib.alloc_stats()["num_allocs"] == after["num_allocs"]
    assert (float(out[0]), int(out[1])) == (1.0, 0)


def test_bf16_argument_and_bool_result(lib):
    x = np.array([1.5, -2, 0, np.nan, np.inf, -0.0], ml_dtypes.bfloat16)
    got = lib.positive(x)
    assert got.dtype == np.bool_
    np.testing.assert_array_equal(got, [True, False, False, False, True, False])


def test_zero_results_return_none(lib):
    assert lib.assert_finite(np.ones(3)) is None


def test_0d_arguments_from_scalars_and_arrays(lib):
    x = np.arange(4, dtype=np.float32)
    for s in [2.0, 2, np.float32(2), np.array(2, np.float32)]:
        np.testing.assert_array_equal(lib.scale(x, s), 2 * x)
    with pytest.raises(ValueError, match=r"argument 's' \(#1\) expects f32\[\], got f32\[1\]"):
        lib.scale(x, np.ones(1, np.float32))
    with pytest.raises(TypeError, match=r"argument 's' \(#1\) expects f32\[\], got f64\[\]"):
        lib.scale(x, np.float64(2))


def test_python_lists_and_scalars_become_arrays(lib):
    np.testing.assert_array_equal(lib.unique([3, 3, 1]), [1, 3])
    np.testing.assert_array_equal(lib.add([[1, 2, 3]], [[0.5, 0.5, 0.5]]), [[1.5, 2.5, 3.5]])
    assert lib.positive([1.0, -1.0]).tolist() == [True, False]


# ---- errors -----------------------------------------------------------------


def test_wrong_dtype_names_argument_and_shapes(lib):
    x = np.ones((2, 3), np.float32)
    with pytest.raises(TypeError, match=r"add: argument 'y' \(#1\) expects f32\[\?,3\], "
                                        r"got f64\[2,3\]"):
        lib.add(x, x.astype(np.float64))


def test_wrong_rank_and_dims_name_argument_and_shapes(lib):
    x = np.ones((2, 3), np.float32)
    with pytest.raises(ValueError, match=r"argument 'x' \(#0\) expects f32\[\?,3\], got f32\[6\]"):
        lib.add(x.ravel(), x)
    with pytest.raises(ValueError, match=r"argument 'y' \(#1\) expects f32\[\?,3\], got f32\[3,2\]"):
        lib.add(x, x.reshape(3, 2))


def test_lossy_python_values_are_rejected(lib):
    with pytest.raises(TypeError, match=r"unique: argument 'x' \(#0\) expects i32\[\?\]"):
        lib.unique([1.5, 2.0])


def test_wrong_argument_count(lib):
    with pytest.raises(TypeError, match=r"add\(\) takes 2 arguments \(x, y\), got 1"):
        lib.add(np.ones((1, 3), np.float32))


def test_runtime_error_carries_code_and_message(lib):
    with pytest.raises(AotRuntimeError, match=r"assert_finite: x\[1\] is inf") as info:
        lib.assert_finite([0.0, np.inf])
    assert isinstance(info.value, RuntimeError)
    assert info.value.code == 3


# ---- memory -----------------------------------------------------------------


def test_runtime_results_are_freed_and_cached(lib):
    x = np.ones((64, 3), np.float32)
    lib.add(x, x)  # warm the cache
    before = lib.alloc_stats()
    for _ in range(100):
        lib.add(x, x)
        lib.unique(np.arange(50, dtype=np.int32))
    after = lib.alloc_stats()
    assert after["bytes_in_use"] == before["bytes_in_use"] == 0
    assert after["num_allocs"] - before["num_allocs"] >= 300  # data + dims + unique
    assert after["num_frees"] - before["num_frees"] == after["num_allocs"] - before["num_allocs"]
    assert after["cache_hits"] - before["cache_hits"] >= 290


def test_error_after_allocating_frees_the_result(lib):
    x = np.ones((4, 3), np.float32)
    for _ in range(20):
        with pytest.raises(AotRuntimeError, match="add: x has 4 rows but y has 2"):
            lib.add(x, x[:2])
    assert lib.alloc_stats()["bytes_in_use"] == 0


def test_reset_stats_keeps_bytes_in_use(lib):
    lib.add(np.ones((8, 3), np.float32), np.ones((8, 3), np.float32))
    lib.reset_alloc_stats()
    stats = lib.alloc_stats()
    assert stats == dict(bytes_in_use=0, peak_bytes_in_use=0, num_allocs=0, num_frees=0,
                         cache_hits=0)
    lib.release_cached_memory()
    lib.add(np.ones((8, 3), np.float32), np.ones((8, 3), np.float32))
    assert lib.alloc_stats()["cache_hits"] == 0  # the cache was emptied
    assert lib.alloc_stats()["peak_bytes_in_use"] == 8 * 3 * 4 + 2 * 8


def test_each_library_has_its_own_runtime(lib, fake_so, tmp_path):
    other = Library(Path(shutil.copy(fake_so, tmp_path / "libfake2.so")))
    before = lib.alloc_stats()["num_allocs"]
    other.add(np.ones((2, 3), np.float32), np.ones((2, 3), np.float32))
    assert other.alloc_stats()["num_allocs"] >= 2
    assert lib.alloc_stats()["num_allocs"] == before


def test_system_allocator_from_environment(fake_so):
    out = run_python(f"""
        import numpy as np, abi
        lib = abi.Library({str(fake_so)!r})
        x = np.ones((16, 3), np.float32)
        for _ in range(50):
            assert (lib.add(x, x) == 2).all()
        s = lib.alloc_stats()
        print(s["bytes_in_use"], s["cache_hits"], s["num_allocs"] == s["num_frees"] >= 100)
        """, AOT_ALLOCATOR="system")
    assert out.split() == ["0", "0", "True"]


# ---- threads ----------------------------------------------------------------


def parallel_check(fake_so):
    """fake_parallel_check(n, repeats), the test hook of the fake model."""
    ffi = cffi.FFI()
    ffi.cdef("int64_t fake_parallel_check(int64_t n, int32_t repeats);")
    return ffi.dlopen(str(fake_so)).fake_parallel_check


def run_threads(target, count=6):
    errors = []

    def guarded(i):
        try:
            target(i)
        except BaseException as e:  # reported in the main thread
            errors.append(e)

    threads = [threading.Thread(target=guarded, args=(i,)) for i in range(count)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors


def test_num_threads_round_trip(lib):
    lib.set_num_threads(3)
    assert lib.get_num_threads() == 3
    lib.set_num_threads(0)  # back to the default
    assert lib.get_num_threads() >= 1


def test_num_threads_default_from_environment(fake_so):
    out = run_python(f"import abi; print(abi.Library({str(fake_so)!r}).get_num_threads())",
                     AOT_NUM_THREADS="5")
    assert out.strip() == "5"


def test_parallel_for_covers_every_index_once_from_many_threads(lib, fake_so):
    check = parallel_check(fake_so)
    lib.set_num_threads(4)
    try:
        for n in [0, 1, 2, 7, 1000]:
            assert check(n, 3) == 0

        def hammer(i):
            for n in range(100 + 37 * i, 140 + 37 * i):
                assert check(n, 2) == 0, n
        run_threads(hammer)
    finally:
        lib.set_num_threads(0)


def test_entries_are_thread_safe(lib):
    lib.set_num_threads(4)
    try:
        def work(i):
            rng = np.random.default_rng(i)
            for _ in range(30):
                x = rng.standard_normal((200 + i, 3)).astype(np.float32)
                np.testing.assert_array_equal(lib.add(x, x), x + x)
                with pytest.raises(ValueError, match="argument 'y'"):
                    lib.add(x, x[:, :2])
        run_threads(work)
    finally:
        lib.set_num_threads(0)
    assert lib.alloc_stats()["bytes_in_use"] == 0


# ---- generated header -------------------------------------------------------

GOLDEN_ENTRIES = [
    EntrySig("main", "model_main",
             [ValueSig("x", "f32", (4, None)), ValueSig("n", "i64", ())],
             [ValueSig("y", "f32", (4, 10)), ValueSig("", "i1", (None,))]),
    EntrySig("init", "model_init", [], [ValueSig("w", "bf16", (2, 3))]),
]


def test_generated_header_matches_golden():
    text = abi.generate_header("model", GOLDEN_ENTRIES)
    golden = C_DIR / "golden_model.h"
    if os.environ.get("AOT_UPDATE_GOLDEN"):
        golden.write_text(text)
    assert text == golden.read_text()


@pytest.mark.parametrize("compiler", ["cc", "c++"])
def test_generated_header_compiles(compiler, tmp_path):
    (tmp_path / "model.h").write_text(abi.generate_header("model", GOLDEN_ENTRIES))
    src = tmp_path / "use.c"
    src.write_text('#include "model.h"\nint use(void) { return model_main(0, 0); }\n')
    lang = ["-x", "c++"] if compiler == "c++" else ["-std=c11"]
    proc = subprocess.run([compiler, *lang, "-Wall", "-Werror", "-fsyntax-only",
                           f"-I{tmp_path}", f"-I{abi.runtime_dir()}", str(src)],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr


def test_header_rejects_names_that_are_not_c_identifiers():
    with pytest.raises(ValueError, match="library name 'my-model'"):
        abi.generate_header("my-model", [])


def test_signature_text():
    sig = EntrySig("main", "m_main", [ValueSig("x", "f32", (4, None))],
                   [ValueSig("", "f32", (4, 10))])
    assert str(sig) == "main(x: f32[4,?]) -> (f32[4,10])"
    assert sig.args[0].c_dims == (4, -1) and not sig.args[0].is_static
    with pytest.raises(KeyError, match="unsupported element type 'f8'"):
        ValueSig("x", "f8", ())


def test_a_header_from_another_abi_version_does_not_compile(tmp_path):
    """A NAME.h used with an aot_runtime.h of another ABI version is a compile error that
    says so, not a program that misreads the structs at run time."""
    (tmp_path / "model.h").write_text(abi.generate_header("model", GOLDEN_ENTRIES))
    runtime_h = abi.runtime_header_path().read_text()
    assert "#define AOT_ABI_VERSION 1\n" in runtime_h
    (tmp_path / "aot_runtime.h").write_text(runtime_h.replace("#define AOT_ABI_VERSION 1\n",
                                                              "#define AOT_ABI_VERSION 2\n"))
    (tmp_path / "use.c").write_text('#include "model.h"\nint main(void) { return 0; }\n')
    r = subprocess.run(["cc", "-c", str(tmp_path / "use.c"), "-I", str(tmp_path), "-o",
                        str(tmp_path / "use.o")], capture_output=True, text=True)
    assert r.returncode != 0 and "model.h was generated for ABI version 1" in r.stderr, r.stderr
