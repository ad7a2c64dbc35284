"""The packed matmul and the direct and Winograd convolutions as cached objects
(lowering/codegen/cpu/helpers.py): a library declares them and links the object compiled
once into the cache; the object's name follows everything its code depends on; text outputs
keep them inline; the symbols stay inside the library."""
import dataclasses
import os
import subprocess

import numpy as np

from abi.loader import Library
from aot.driver import Compilation, Options
from lowering.codegen.cpu.helpers import HelperObjects

MATMUL_CONV = """func.func @main(%a: tensor<?x40xf32>, %w: tensor<40x24xf32>, %x: tensor<2x9x9x16xf32>,
                 %k: tensor<3x3x16x16xf32>, %d: tensor<5x7xf64>, %e: tensor<7x3xf64>)
    -> (tensor<?x24xf32>, tensor<2x9x9x16xf32>, tensor<5x3xf64>) {
  %0 = stablehlo.dot_general %a, %w, contracting_dims = [1] x [0] : (tensor<?x40xf32>, tensor<40x24xf32>) -> tensor<?x24xf32>
  %1 = stablehlo.convolution(%x, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x9x9x16xf32>, tensor<3x3x16x16xf32>) -> tensor<2x9x9x16xf32>
  %2 = stablehlo.dot_general %d, %e, contracting_dims = [1] x [0] : (tensor<5x7xf64>, tensor<7x3xf64>) -> tensor<5x3xf64>
  return %0, %1, %2 : tensor<?x24xf32>, tensor<2x9x9x16xf32>, tensor<5x3xf64>
}"""  # noqa: E501


def _conv(x, k):
    xp = np.pad(x.astype(np.float64), ((0, 0), (1, 1), (1, 1), (0, 0)))
    out = np.zeros(x.shape[:3] + (k.shape[3],))
    for i in range(3):
        for j in range(3):
            out += np.einsum("bhwc,cf->bhwf", xp[:, i:i + x.shape[1], j:j + x.shape[2]], k[i, j])
    return out


def _check_results(lib, rows: int, seed: int) -> None:
    """MATMUL_CONV's three results against numpy, its dynamic dim `rows`."""
    rng = np.random.default_rng(seed)
    args = [rng.standard_normal(s) for s in ((rows, 40), (40, 24), (2, 9, 9, 16), (3, 3, 16, 16),
                                             (5, 7), (7, 3))]
    args = [a.astype(np.float32) for a in args[:4]] + args[4:]
    y, c, z = lib.main(*args)
    np.testing.assert_allclose(y, args[0].astype(np.float64) @ args[1], rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(c, _conv(args[2], args[3]), rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(z, args[4] @ args[5], rtol=1e-12)


def test_libraries_link_the_cached_helpers(tmp_path, monkeypatch):
    monkeypatch.setenv("AOTC_CACHE_DIR", str(tmp_path / "cache"))
    comp = Compilation(MATMUL_CONV, "mc.mlir", Options(name="mc"))
    comp.build(str(tmp_path / "one" / "libmc.so"))
    helpers = sorted(os.listdir(tmp_path / "cache" / "helpers"))
    # the f32 matmul, the f32 convolution (3x3 at stride 1: Winograd's, with the direct one
    # it falls back to) and the f64 matmul, each an object of its own
    assert len(helpers) == 3 and all(h.endswith(".o") for h in helpers)
    assert {h.split(".")[1] for h in helpers} == {"gemm", "winograd"}
    # a rebuilt object would be a new file renamed into place (a new inode); a reused one is
    # only marked as used (its mtime, for `aotc cache --prune`)
    stamps = {h: os.stat(tmp_path / "cache" / "helpers" / h).st_ino for h in helpers}
    Compilation(MATMUL_CONV, "mc.mlir", Options(name="mc2")).build(str(tmp_path / "two" / "libmc2.so"))
    assert {h: os.stat(tmp_path / "cache" / "helpers" / h).st_ino for h in helpers} == stamps
    assert sorted(os.listdir(tmp_path / "cache" / "helpers")) == helpers  # reused, not rebuilt
    # inside the library, not exported from it
    nm = subprocess.run(["nm", "-D", "--defined-only", str(tmp_path / "one" / "libmc.so")],
                        capture_output=True, text=True, check=True).stdout
    assert "aot.gemm" not in nm and "aot.conv" not in nm and "aot.winograd" not in nm
    _check_results(Library(str(tmp_path / "two" / "libmc2.so")), rows=33, seed=0)


def test_the_name_follows_what_the_code_depends_on():
    target = Compilation(MATMUL_CONV, "mc.mlir", Options(name="mc")).target
    base = HelperObjects(target, "fingerprint")
    names = {base.prefix("gemm", "f32"), base.prefix("gemm", "f64"), base.prefix("conv", "f32"),
             HelperObjects(target, "another compiler").prefix("gemm", "f32"),
             HelperObjects(dataclasses.replace(target, features=target.features + ",-fma"),
                           "fingerprint").prefix("gemm", "f32")}
    assert len(names) == 5
    assert base.prefix("gemm", "f32") == HelperObjects(target, "fingerprint").prefix("gemm", "f32")


def test_text_outputs_and_objects_keep_them_inline():
    for emit in ("llvm", "obj"):
        comp = Compilation(MATMUL_CONV, "mc.mlir", Options(name="mc", emit=emit))
        assert comp.helpers() is None
    _, text, _, _ = Compilation(MATMUL_CONV, "mc.mlir", Options(name="mc", emit="llvm")).llvm()
    assert "micro_kernel" in text
    _, text, _, _ = Compilation(MATMUL_CONV, "mc.mlir", Options(name="mc")).llvm()
    assert "micro_kernel" not in text and 'declare hidden void @"aot.gemm.f32.' in text


def test_a_damaged_helper_object_is_built_again(tmp_path, monkeypatch):
    """An emptied or cut object in the cache (a full disk, a user's cleanup) is rebuilt,
    not linked: the library still builds and computes."""
    monkeypatch.setenv("AOTC_CACHE_DIR", str(tmp_path / "cache"))
    Compilation(MATMUL_CONV, "mc.mlir", Options(name="mc")).build(str(tmp_path / "a" / "libmc.so"))
    helpers = tmp_path / "cache" / "helpers"
    objects = sorted(helpers.iterdir())
    whole = objects[0].read_bytes()
    objects[0].write_bytes(whole[:len(whole) // 2])  # cut
    objects[1].write_bytes(b"")  # emptied
    Compilation(MATMUL_CONV, "mc.mlir", Options(name="mc3")).build(str(tmp_path / "b" / "libmc3.so"))
    assert objects[0].read_bytes() == whole and objects[1].stat().st_size > 0
    _check_results(Library(str(tmp_path / "b" / "libmc3.so")), rows=4, seed=1)
