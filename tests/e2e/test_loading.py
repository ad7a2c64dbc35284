"""What `aot.load` refuses, in plain words and never as a crash: files that are not shared
libraries, libraries not built by aotc, another ABI version, truncated artifacts, missing
paths, directories."""
import os
import shutil
import subprocess
import textwrap

import numpy as np
import pytest

import abi
import aot

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
                   if "/libm.so" in line or "/libm-" in line})
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
