"""The C runtime on its own: it compiles cleanly, its header agrees with the
Python dtype table, and a C program linking a model statically (the way a
user of libNAME.a does) gets results, errors and freed memory right."""
from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

import abi
from tooling import sanitize

C_DIR = Path(__file__).resolve().parents[1] / "data" / "runtime_c"
CFLAGS = ["-O2", "-fPIC", "-std=c11", "-pthread"]
LIBS = ["-lm", "-lpthread", "-ldl"]


def cc(*args) -> None:
    """Runs the system C compiler; a failure shows its diagnostics."""
    proc = subprocess.run(["cc", *map(str, args)], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr


def build_static_fake(out: Path, san: tuple = ()) -> Path:
    """libfake.a: the fake model plus the runtime, like an aotc static artifact (built
    with the sanitizers `san`)."""
    objects = []
    for src in [*abi.runtime_sources(), C_DIR / "fake_model.c"]:
        obj = out / (src.stem + ".o")
        cc(*CFLAGS, *sanitize.cflags(san), f"-I{abi.runtime_dir()}", "-c", src, "-o", obj)
        objects.append(obj)
    archive = out / "libfake.a"
    subprocess.run(["ar", "rcs", archive, *objects], check=True)
    return archive


def build_fake_program(out: Path, san: tuple = ()) -> Path:
    """fake_main.c linked against libfake.a, including a generated fake.h."""
    archive = build_static_fake(out, san)
    entries = [
        abi.EntrySig("add", "fake_add", [abi.ValueSig("x", "f32", (None, 3)),
                                         abi.ValueSig("y", "f32", (None, 3))],
                     [abi.ValueSig("sum", "f32", (None, 3))]),
        abi.EntrySig("unique", "fake_unique", [abi.ValueSig("x", "i32", (None,))],
                     [abi.ValueSig("values", "i32", (None,))]),
        abi.EntrySig("minmax", "fake_minmax", [abi.ValueSig("x", "f32", (None,))],
                     [abi.ValueSig("min", "f32", ()), abi.ValueSig("argmin", "i64", ())]),
    ]
    (out / "fake.h").write_text(abi.generate_header("fake", entries))
    exe = out / "fake_main"
    cc(*CFLAGS, *sanitize.cflags(san), "-Wall", "-Wextra", "-Werror", f"-I{out}",
       f"-I{abi.runtime_dir()}", C_DIR / "fake_main.c", archive, "-o", exe, *LIBS)
    return exe


@pytest.fixture(scope="module")
def fake_program(tmp_path_factory) -> Path:
    """The fake program, with $AOTC_SANITIZE's sanitizers (`make test-asan`)."""
    return build_fake_program(tmp_path_factory.mktemp("fake_c"), sanitize.active())


EXPECTED_OUTPUT = """\
library fake abi 1 entries 6
add rc=0
add result f32[2,3] 11 22 33 44 55 66
add caller-owned rc=0
add caller-owned f32[2,3] 2 4 6 8 10 12
add wrong result rc=1: add: result 'sum' (#0) expects f32[2,3], got f32[3,3]
add bad rc=1: add: argument 'y' (#1) expects f32[?,3], got f32[2,4]
add bad dtype rc=1: add: argument 'y' (#1) expects f32[?,3], got i32[2,4]
add null data rc=1: add: argument 'y' (#1) has NULL data for f32[2,3]
unique rc=0 n=4: 1 3 5 9
minmax empty rc=1: minmax: x is empty
alloc(-1): aot_alloc: bad size -1
parallel_for wrong=0
bytes_in_use=0
"""


@pytest.mark.parametrize("allocator", ["cache", "system"])
def test_c_program_statically_linked(fake_program, allocator):
    env = sanitize.run_env(AOT_ALLOCATOR=allocator)
    proc = subprocess.run([fake_program], capture_output=True, text=True, env=env, timeout=60)
    assert not sanitize.findings(proc.stderr), proc.stderr
    assert proc.stdout == EXPECTED_OUTPUT
    assert proc.returncode == 0


@pytest.mark.parametrize("source", abi.runtime_sources(), ids=lambda p: p.name)
def test_runtime_compiles_without_warnings(source, tmp_path):
    cc(*CFLAGS, "-Wall", "-Wextra", "-Wpedantic", "-Werror", "-c", source,
       "-o", tmp_path / "x.o")


def test_runtime_header_is_valid_cxx(tmp_path):
    if not shutil.which("c++"):
        pytest.skip("no C++ compiler")
    src = tmp_path / "use.cc"
    src.write_text('#include "aot_runtime.h"\nint main() { return aot_dtype_size(AOT_F32) != 4; }\n')
    proc = subprocess.run(["c++", "-fsyntax-only", f"-I{abi.runtime_dir()}", str(src)],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr


def header_enum(enum_name: str) -> dict[str, int]:
    """Enumerators of `typedef enum enum_name {...}` in aot_runtime.h."""
    text = abi.runtime_header_path().read_text()
    body = re.search(r"typedef enum %s \{(.*?)\}" % enum_name, text, re.S).group(1)
    return {name: int(value) for name, value in re.findall(r"(\w+)\s*=\s*(\d+)", body)}


def test_dtype_table_matches_header_enum():
    enum = header_enum("aot_dtype")
    assert {d.enum: d.code for d in abi.DTYPES.values()} == enum
    assert sorted(enum.values()) == list(range(len(enum)))


def test_dtype_table_matches_runtime_names_and_sizes(tmp_path):
    lib_path = tmp_path / "librt.so"
    cc(*CFLAGS, "-shared", *abi.runtime_sources(), "-o", lib_path, *LIBS)
    rt = abi.loader.ffi.dlopen(str(lib_path))
    for name, dt in abi.DTYPES.items():
        assert abi.loader.ffi.string(rt.aot_dtype_name(dt.code)).decode() == name
        assert rt.aot_dtype_size(dt.code) == dt.size == dt.numpy.itemsize
    assert rt.aot_dtype_size(99) == 0


def test_status_codes_in_header():
    assert header_enum("aot_status") == {
        "AOT_OK": 0, "AOT_ERR_INVALID_ARGUMENT": 1, "AOT_ERR_OUT_OF_MEMORY": 2,
        "AOT_ERR_RUNTIME": 3}


def test_cffi_slice_has_no_preprocessor_lines():
    assert not [line for line in abi.runtime_cdef().splitlines() if line.startswith("#")]
