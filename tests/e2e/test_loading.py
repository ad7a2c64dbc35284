"""What `aot.load` refuses, in plain words and never as a crash: files that are not shared
libraries, libraries not built by aotc, another ABI version, truncated artifacts, missing
paths, directories. And how the build cache recovers: two processes compiling one program
at once both get a working library, and a damaged cache entry (the library or a runtime
object truncated, emptied or overwritten) is built again instead of failing for good."""
import os
import shutil
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import abi
import aot
from abi.elf import ET_REL, elf_problem

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PROGRAM = """
func.func public @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.add %x, %x : tensor<4xf32>
  %1 = stablehlo.multiply %0, %x : tensor<4xf32>
  return %1 : tensor<4xf32>
}
"""
X = np.array([1, -2, 3.5, 0], np.float32)
EXPECTED = 2 * X * X


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """(cache folder, the cached library's path) of PROGRAM compiled once into its own
    cache; tests copy that folder rather than compile again."""
    cache = tmp_path_factory.mktemp("loading") / "cache"
    saved = os.environ.get("AOTC_CACHE_DIR")
    os.environ["AOTC_CACHE_DIR"] = str(cache)
    try:
        lib = aot.compile(PROGRAM, "twice")
    finally:
        os.environ["AOTC_CACHE_DIR"] = saved if saved is not None else ""
        if saved is None:
            del os.environ["AOTC_CACHE_DIR"]
    np.testing.assert_array_equal(lib.main(X), EXPECTED)
    return cache, lib.path


def cc_shared(tmp_path, name: str, code: str, *flags) -> str:
    src, out = tmp_path / f"{name}.c", tmp_path / f"lib{name}.so"
    src.write_text(textwrap.dedent(code))
    proc = subprocess.run(["cc", "-shared", "-fPIC", "-I", abi.runtime_dir(), str(src), "-o",
                           str(out), *flags], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    return str(out)


def refused(path, match: str) -> str:
    with pytest.raises(aot.LoadError, match=match) as info:
        aot.load(str(path))
    assert isinstance(info.value, OSError)
    message = str(info.value)
    assert message.startswith(f"cannot load {os.path.abspath(path)}: "), message
    assert "cffi" not in message and "ctypes" not in message, message
    return message


# ---- aot.load refuses ------------------------------------------------------------------


@pytest.mark.parametrize("kind, content, match", [
    ("text", b"module @m {\n}\n", r"not a shared library: it is a text file \(it begins 'module @m \{'\)"),
    ("random", np.random.default_rng(0).bytes(4096), "not a shared library: it is not an ELF file"),
    ("empty", b"", "not a shared library: the file is empty"),
    ("archive", b"!<arch>\n", "not a shared library: it is a static archive"),
])
def test_a_file_that_is_no_shared_library(tmp_path, kind, content, match):
    path = tmp_path / "libmodel.so"
    path.write_bytes(content)
    refused(path, match)


def test_a_missing_path_and_a_directory(tmp_path):
    refused(tmp_path / "libnothere.so", "no such file$")
    refused(tmp_path, "it is a directory, not a shared library$")


def test_an_object_file(built):
    cache, _ = built
    obj = next(cache.glob("runtime-*/alloc.o"))
    refused(obj, r"not a shared library: it is an ELF relocatable object \(\.o\)$")


@pytest.mark.parametrize("fraction", [0.5, 0.01])
def test_a_truncated_artifact(built, tmp_path, fraction):
    """dlopen would map the missing pages and die of SIGBUS touching them: refused first."""
    data = open(built[1], "rb").read()
    path = tmp_path / "libtwice.so"
    path.write_bytes(data[:int(len(data) * fraction)])
    refused(path, "truncated or corrupt: the file has .* bytes but its ELF headers describe")


def test_a_library_for_another_cpu(built, tmp_path):
    data = bytearray(open(built[1], "rb").read())
    other = 183 if data[18:20] != (183).to_bytes(2, "little") else 62  # aarch64, else x86-64
    data[18:20] = other.to_bytes(2, "little")
    path = tmp_path / "libtwice.so"
    path.write_bytes(bytes(data))
    refused(path, f"built for {'aarch64' if other == 183 else 'x86_64'}, not for this machine")


def test_a_library_not_built_by_aotc(tmp_path):
    path = cc_shared(tmp_path, "plain", "int plain(void) { return 1; }\n")
    refused(path, "not built by aotc: it has no aot_library_metadata")


def test_the_system_libm():
    libm = sorted({line.split()[-1] for line in open("/proc/self/maps")
                   if ("/libm.so" in line or "/libm-" in line)  # the system's, not an
                   and line.split()[-1].startswith(("/lib", "/usr/lib"))})  # artifact named m
    if not libm:
        pytest.skip("no libm mapped into this process")
    refused(libm[0], "not built by aotc: it has no aot_library_metadata")


def test_another_abi_version(tmp_path):
    path = cc_shared(tmp_path, "old", """
        #include "aot_runtime.h"
        static const aot_library_info info = {7, 0, "old", 0};
        const aot_library_info *aot_library_metadata(void) { return &info; }
    """)
    refused(path, f"built for ABI version 7; this aotc reads version {abi.ABI_VERSION}: "
                  "rebuild it with this aotc$")


def test_metadata_that_is_null(tmp_path):
    path = cc_shared(tmp_path, "null", """
        #include "aot_runtime.h"
        const aot_library_info *aot_library_metadata(void) { return 0; }
    """)
    refused(path, r"corrupt: its aot_library_metadata\(\) returned NULL$")


def test_a_library_the_dynamic_loader_refuses(tmp_path):
    dep = cc_shared(tmp_path, "gone", "int gone(void) { return 1; }\n")
    path = cc_shared(tmp_path, "needs", "int gone(void);\nint needs(void) { return gone(); }\n",
                     "-L", str(tmp_path), "-lgone")
    os.remove(dep)
    refused(path, "the dynamic loader refused it: libgone.so: cannot open shared object file")


def test_a_refused_library_is_closed_again(built, tmp_path):
    """A library that loaded but was refused is dlclosed: the aotc library then put at the
    same path loads, rather than dlopen handing back the refused one by its name."""
    path = tmp_path / "libtwice.so"
    os.replace(cc_shared(tmp_path, "plain", "int plain(void) { return 1; }\n"), path)
    refused(path, "not built by aotc")
    shutil.copyfile(built[1], tmp_path / "copy.so")
    os.replace(tmp_path / "copy.so", path)
    np.testing.assert_array_equal(aot.load(str(path)).main(X), EXPECTED)


# ---- the cache -------------------------------------------------------------------------


def run_python(code: str, cache) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-c", textwrap.dedent(code)], cwd=ROOT, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            env=dict(os.environ, AOTC_CACHE_DIR=str(cache)))


COMPILE_AND_CALL = f"""
    import numpy as np, aot
    lib = aot.compile({PROGRAM!r}, "twice")
    print(lib.path, *lib.main(np.array({X.tolist()}, np.float32)).tolist())
"""


def test_two_processes_compile_one_program_at_once(tmp_path):
    """Both build (runtime objects and library) into one empty cache at the same moment;
    each renames a whole file into place, so each loads a whole library."""
    procs = [run_python(COMPILE_AND_CALL, tmp_path) for _ in range(2)]
    outs = [p.communicate(timeout=120) for p in procs]
    paths = set()
    for p, (out, err) in zip(procs, outs):
        assert p.returncode == 0, err
        path, *values = out.split()
        assert [float(v) for v in values] == EXPECTED.tolist()
        paths.add(path)
    assert len(paths) == 1
    leftovers = [str(p) for p in tmp_path.rglob("*") if ".tmp" in p.name or ".stale" in p.name]
    assert leftovers == []
    assert elf_problem(paths.pop()) is None


def damaged_copy(built, tmp_path, monkeypatch):
    """A copy of the built cache, made the cache of this test; the library's path in it."""
    cache, so = built
    copy = tmp_path / "cache"
    shutil.copytree(cache, copy)
    monkeypatch.setenv("AOTC_CACHE_DIR", str(copy))
    return copy, copy / os.path.relpath(so, cache)


DAMAGE = {
    "truncated": lambda data: data[:len(data) // 2],
    "empty": lambda data: b"",
    "garbage": lambda data: np.random.default_rng(1).bytes(len(data)),
    "foreign": None,  # a valid shared library, not aotc's
}


@pytest.mark.parametrize("damage", list(DAMAGE))
def test_a_damaged_cached_library_is_built_again(built, tmp_path, monkeypatch, damage):
    _, so = damaged_copy(built, tmp_path, monkeypatch)
    if DAMAGE[damage] is None:
        os.replace(cc_shared(tmp_path, "plain", "int plain(void) { return 1; }\n"), so)
    else:
        so.write_bytes(DAMAGE[damage](so.read_bytes()))
    assert elf_problem(str(so)) is not None or damage == "foreign"
    lib = aot.compile(PROGRAM, "twice")
    assert lib.path == str(so)
    np.testing.assert_array_equal(lib.main(X), EXPECTED)
    assert elf_problem(str(so)) is None


def test_an_entry_damaged_while_loaded_is_built_again(built, tmp_path, monkeypatch):
    """This process has the cached library loaded when the file is replaced by garbage (a new
    file, as a copy would: truncating the mapped file in place would kill any process using
    it). compile rebuilds the file; dlopen of the same path gives back the library already
    loaded (the same code), and a fresh process loads the rebuilt file."""
    cache, so = damaged_copy(built, tmp_path, monkeypatch)
    first = aot.compile(PROGRAM, "twice")
    (tmp_path / "garbage").write_bytes(b"\0" * 100)
    os.replace(tmp_path / "garbage", so)
    second = aot.compile(PROGRAM, "twice")
    np.testing.assert_array_equal(first.main(X), EXPECTED)
    np.testing.assert_array_equal(second.main(X), EXPECTED)
    assert elf_problem(str(so)) is None
    proc = run_python(f"""
        import numpy as np, aot
        print(*aot.load({str(so)!r}).main(np.array({X.tolist()}, np.float32)).tolist())
    """, cache)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 0, err
    assert [float(v) for v in out.split()] == EXPECTED.tolist()


@pytest.mark.parametrize("damage", ["truncated", "empty", "missing", "garbage"])
def test_damaged_runtime_objects_are_built_again(built, tmp_path, monkeypatch, damage):
    """A runtime object cut short (a full disk, a killed build) must not fail every later
    build: the runtime folder is set aside and compiled again."""
    cache, so = damaged_copy(built, tmp_path, monkeypatch)
    obj = next(cache.glob("runtime-*/alloc.o"))
    if damage == "missing":
        obj.unlink()
    else:
        obj.write_bytes(DAMAGE[damage](obj.read_bytes()))
    lib = aot.compile(PROGRAM.replace("multiply %0, %x", "multiply %x, %0"), "other")
    np.testing.assert_array_equal(lib.main(X), EXPECTED)
    assert elf_problem(str(obj), ET_REL) is None
    assert [p.name for p in cache.iterdir() if p.name.startswith("runtime-")] == [obj.parent.name]


def test_runtime_objects_compile_in_the_background_and_errors_say_why(tmp_path):
    """start_runtime_objects starts one compiler per source and returns at once; wait()
    gives the objects, then cached (a second start has nothing to run). A compiler that
    fails is a ToolchainError with its message at wait(), and leaves nothing in the cache;
    close() (a build that stopped first) waits without raising."""
    from aot.toolchain import Toolchain, ToolchainError, find_toolchain, start_runtime_objects
    build = start_runtime_objects(str(tmp_path / "good"), "cpu", find_toolchain())
    assert len(build.jobs) == len(build.objects) > 1
    objects = build.wait()
    assert all(elf_problem(o, ET_REL) is None for o in objects)
    again = start_runtime_objects(str(tmp_path / "good"), "cpu", find_toolchain())
    assert again.jobs == [] and again.wait() == objects
    cc = tmp_path / "failing-cc"
    cc.write_text("#!/bin/sh\necho 'no such header: sorry' >&2\nexit 1\n")
    cc.chmod(0o755)
    bad = Toolchain(cc=(str(cc),), machine="", ar="ar")
    with pytest.raises(ToolchainError, match="no such header: sorry"):
        start_runtime_objects(str(tmp_path / "bad"), "cpu", bad).wait()
    start_runtime_objects(str(tmp_path / "bad"), "cpu", bad).close()
    assert os.listdir(tmp_path / "bad") == []
