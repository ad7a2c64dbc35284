"""`aotc` as a user runs it: every --emit kind, stage dumps, and errors that are
one located message with exit status 1, never a traceback."""
import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
ADD = """func.func @main(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.add %a, %b : tensor<4xf32>
  return %0 : tensor<4xf32>
}
"""


def aotc(*args, cwd=None):
    env = dict(os.environ, PYTHONPATH=ROOT)
    return subprocess.run([sys.executable, "-m", "aot.cli", *args], capture_output=True, text=True,
                          env=env, cwd=cwd)


@pytest.fixture
def add_file(tmp_path):
    p = tmp_path / "add.mlir"
    p.write_text(ADD)
    return p


@pytest.mark.parametrize("emit, expect", [
    ("hlo", '"mhlo.add"'), ("fused", '"mhlo.fusion"'), ("lhlo", '"lmhlo.fusion"'),
    ("loops", '"scf.for"'), ("llvm", "define i32 @add_main"), ("asm", "add_main:"),
])
def test_text_stages(add_file, emit, expect):
    r = aotc("compile", str(add_file), "--emit", emit, "-o", "-")
    assert r.returncode == 0, r.stderr
    assert expect in r.stdout


@pytest.mark.parametrize("emit, filename", [("shared", "libadd.so"), ("static", "libadd.a"),
                                            ("obj", "add.o")])
def test_binary_artifacts(add_file, tmp_path, emit, filename):
    out = tmp_path / "out" / filename
    r = aotc("compile", str(add_file), "--emit", emit, "-o", str(out))
    assert r.returncode == 0, r.stderr
    assert out.exists() and out.stat().st_size > 0
    header = (tmp_path / "out" / "add.h").read_text()
    assert "int add_main(const aot_tensor *args, aot_tensor *results);" in header
    assert (tmp_path / "out" / "aot_runtime.h").exists()


def test_name_and_dump_dir(add_file, tmp_path):
    r = aotc("compile", str(add_file), "--name", "my-model", "--dump-ir-after=all",
             "--dump-dir", str(tmp_path / "dumps"), "-o", str(tmp_path / "libm.so"))
    assert r.returncode == 0, r.stderr
    dumps = sorted(os.listdir(tmp_path / "dumps"))
    assert dumps == ["0-hlo.mlir", "1-fused.mlir", "2-lhlo.mlir", "3-loops.mlir", "4-llvm.ll",
                     "5-llvm-opt.ll"]
    assert "my_model_main" in (tmp_path / "dumps" / "4-llvm.ll").read_text()


def test_cross_target_object(add_file, tmp_path):
    r = aotc("compile", str(add_file), "--emit", "asm", "--target-triple", "aarch64-unknown-linux-gnu",
             "-o", "-")
    assert r.returncode == 0, r.stderr
    assert "ret" in r.stdout and "x86" not in r.stdout.lower()


@pytest.mark.parametrize("text, where, message", [
    ("func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {\n  %0 = stablehlo.add %a, %a tensor<4xf32>\n}\n",
     ":2:", "error: unexpected"),
    ("func.func @main(%a: tensor<2xui64>) -> tensor<2xui64> {\n"
     "  %0 = \"stablehlo.rng\"(%a) {rng_distribution = #stablehlo<rng_distribution UNIFORM>} "
     ": (tensor<2xui64>) -> tensor<2xui64>\n"
     "  return %0 : tensor<2xui64>\n}\n",
     ":2:8:", "'mhlo.rng': stateful random numbers (rng_bit_generator is supported) is not supported yet"),
    ("func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {\n  %0 = stablehlo.frobnicate %a : tensor<4xf32>\n"
     "  return %0 : tensor<4xf32>\n}\n",
     ":2:8:", "'mhlo.frobnicate': op is not supported"),
    ("func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {\n"
     "  %0 = \"stablehlo.all_gather\"(%a) {all_gather_dim = 0 : i64} : (tensor<4xf32>) -> tensor<4xf32>\n"
     "  return %0 : tensor<4xf32>\n}\n",
     ":2:8:", "collectives is not supported yet"),
    ("func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {\n"
     "  %0 = stablehlo.add %a, %a : (tensor<4xf32>, tensor<4xf32>) -> tensor<5xf32>\n"
     "  return %0 : tensor<5xf32>\n}\n",
     ":2:8:", "does not match the inferred type tensor<4xf32>"),
    ("func.func @main(%a: tensor<4xi32>) -> tensor<4xi32> {\n"
     "  %0 = stablehlo.exponential %a : tensor<4xi32>\n  return %0 : tensor<4xi32>\n}\n",
     ":2:8:", "needs floating-point operands"),
    ("func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {\n"
     "  %0 = func.call @main(%a) : (tensor<4xf32>) -> tensor<4xf32>\n  return %0 : tensor<4xf32>\n}\n",
     ":2:8:", "recursive call is not supported: @main -> @main"),
    ("func.func @main(%a: tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>> {\n"
     "  %0 = stablehlo.remainder %a, %a : tensor<4xcomplex<f32>>\n  return %0 : tensor<4xcomplex<f32>>\n}\n",
     ":2:8:", "'mhlo.remainder': remainder of complex<f32> (complex numbers) is not supported yet"),
    ("func.func @main(%a: tensor<2xf32>) -> tensor<2xf32> {\n"
     "  %c = stablehlo.constant dense<[1.0, 1e40]> : tensor<2xf32>\n  return %c : tensor<2xf32>\n}\n",
     ":2:27:", "1e40 is out of range for f32"),
])
def test_errors_are_located_messages(tmp_path, text, where, message):
    p = tmp_path / "bad.mlir"
    p.write_text(text)
    r = aotc("compile", str(p), "-o", str(tmp_path / "libbad.so"))
    assert r.returncode == 1, (r.returncode, r.stderr)
    assert "Traceback" not in r.stderr
    first, *shown = r.stderr.splitlines()
    assert first.startswith(str(p) + where), first
    assert message in first, first
    line, col = ([int(n) for n in where.strip(":").split(":")] + [0])[:2]
    # every error, the verifier's and the passes' too, shows its line and a caret
    assert shown[0] == text.split("\n")[line - 1], r.stderr
    if col:
        assert shown[1] == " " * (col - 1) + "^", r.stderr


def test_missing_input_file(tmp_path):
    r = aotc("compile", str(tmp_path / "nope.mlir"))
    assert r.returncode == 2 and "no such file" in r.stderr and "Traceback" not in r.stderr


def test_fusion_report(tmp_path):
    src = os.path.join(ROOT, "tests", "data", "golden", "softmax_dot.mlir")
    r = aotc("compile", src, "--emit", "fused", "-o", str(tmp_path / "out.mlir"), "--report")
    assert r.returncode == 0, r.stderr
    kernels = [line for line in r.stdout.splitlines() if line.startswith("kernel ")]
    assert len(kernels) == 2  # the matmul; softmax's reductions with their consumers
    assert "kernel 0: own kernel at" in r.stdout and "mhlo.dot_general (4:8)" in r.stdout
    assert ("kernel 1: kInput at" in r.stdout and "mhlo.reduce (6:8), mhlo.broadcast_in_dim (7:9)"
            in r.stdout and "mhlo.reduce (11:8), mhlo.broadcast_in_dim (12:9), mhlo.divide (13:8)"
            in r.stdout)
    assert "root mhlo.dot_general: not an elemental op" in r.stdout


def test_cache_command_lists_prunes_and_clears(tmp_path):
    """`aotc cache` shows what aot.compile keeps; a reused library counts as used (its mtime),
    so `--prune DAYS` drops only what nothing used for that long; `--clear` empties the cache,
    and the next compile builds again."""
    cache = tmp_path / "cache"
    env = dict(os.environ, PYTHONPATH=ROOT, AOTC_CACHE_DIR=str(cache))

    def run(*args):
        return subprocess.run([sys.executable, *args], capture_output=True, text=True, env=env)

    compile_two = ("import aot, os, numpy as np\n"
                   f"text = {ADD!r}\n"
                   "x = np.ones(4, np.float32)\n"
                   "for name in ('old', 'kept'):\n"
                   "    assert (aot.compile(text, name=name).main(x, x) == 2).all()\n")
    r = run("-c", compile_two)
    assert r.returncode == 0, r.stderr
    r = run("-m", "aot.cli", "cache")
    assert r.returncode == 0, r.stderr
    assert str(cache) in r.stdout and "compiled libraries (2)" in r.stdout
    assert "runtime objects (1)" in r.stdout

    builds = {p.name: p for p in (cache / "build").iterdir()}
    old = next(p for p in builds.values() if (p / "libold.so").exists())
    kept = next(p for p in builds.values() if (p / "libkept.so").exists())
    month = 30 * 86400
    for p in (old, kept, *cache.glob("runtime-*")):
        os.utime(p, (p.stat().st_atime - month, p.stat().st_mtime - month))
    # a cache hit uses 'kept' now; building 'fresh' uses the runtime objects
    r = run("-c", "import aot, numpy as np\n"
                  f"x = np.ones(4, np.float32)\nassert (aot.compile({ADD!r}, name='kept')"
                  ".main(x, x) == 2).all()\n"
                  f"assert (aot.compile({ADD!r}, name='fresh').main(x, x) == 2).all()\n")
    assert r.returncode == 0, r.stderr
    r = run("-m", "aot.cli", "cache", "--prune", "7")
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("removed 1 entries")
    assert not old.exists() and (kept / "libkept.so").exists() and list(cache.glob("runtime-*"))

    r = run("-m", "aot.cli", "cache", "--clear")
    assert r.returncode == 0, r.stderr
    assert cache.is_dir() and not any(cache.iterdir())
    r = run("-c", compile_two)  # everything built again
    assert r.returncode == 0, r.stderr
    r = run("-m", "aot.cli", "cache", "--prune", "-1")
    assert r.returncode == 2 and "--prune takes a number of days" in r.stderr


def test_a_cache_that_cannot_be_used_is_one_message(tmp_path, add_file):
    """AOTC_CACHE_DIR naming a file: `aotc compile` and `aotc cache` say so and exit 1, and
    aot.compile raises an OSError saying the same; never a traceback."""
    not_a_dir = tmp_path / "file"
    not_a_dir.write_text("x")
    env = dict(os.environ, PYTHONPATH=ROOT, AOTC_CACHE_DIR=str(not_a_dir))
    want = f"the compile cache AOTC_CACHE_DIR={not_a_dir} cannot be used: it is not a directory"
    for args in (["compile", str(add_file), "-o", str(tmp_path / "libadd.so")], ["cache"]):
        r = subprocess.run([sys.executable, "-m", "aot.cli", *args], capture_output=True,
                           text=True, env=env)
        assert r.returncode == 1 and r.stderr.strip() == f"aotc: error: {want} (set " \
            "AOTC_CACHE_DIR to a directory this user can write)", r.stderr
    r = subprocess.run([sys.executable, "-c", "import aot\ntry:\n"
                        f"    aot.compile({ADD!r})\nexcept OSError as e:\n    print(e)\n"],
                       capture_output=True, text=True, env=env)
    assert r.returncode == 0 and want in r.stdout, r.stdout + r.stderr


def test_cache_warm_builds_what_a_first_compile_would(tmp_path):
    """`aotc cache --warm` (run by `make venv`) leaves a fresh cache holding the runtime and
    the f32 matmul, convolution and attention helpers, so a first compile of a model with a
    matmul, both kinds of convolution and an attention builds no object of its own: none
    appears, none is rewritten
    (a rebuilt object is a new file renamed into place: a new inode; a used one is touched)."""
    cache = tmp_path / "cache"
    env = dict(os.environ, PYTHONPATH=ROOT, AOTC_CACHE_DIR=str(cache))
    r = subprocess.run([sys.executable, "-m", "aot.cli", "cache", "--warm"], capture_output=True,
                       text=True, env=env)
    assert r.returncode == 0, r.stderr
    assert "runtime objects (1)" in r.stdout and "helper objects (4)" in r.stdout, r.stdout
    built = {p: p.stat().st_ino for p in [*cache.glob("helpers/*.o"), *cache.glob("runtime-*/*.o")]}
    assert {p.name.split(".")[1] for p in cache.glob("helpers/*.o")} == {"gemm", "conv", "winograd",
                                                                          "attention"}
    model = tmp_path / "model.mlir"
    model.write_text(_WARM_LIKE)
    r = subprocess.run([sys.executable, "-m", "aot.cli", "compile", str(model), "-o",
                        str(tmp_path / "out" / "libmodel.so")], capture_output=True, text=True, env=env)
    assert r.returncode == 0, r.stderr
    after = {p: p.stat().st_ino for p in [*cache.glob("helpers/*.o"), *cache.glob("runtime-*/*.o")]}
    assert after == built


# A model unlike the warm-up program (other shapes, a bias and a relu) using the same helpers.
_WARM_LIKE = """
func.func @main(%x: tensor<2x20x20x32xf32>, %w: tensor<3x3x32x48xf32>, %w2: tensor<3x3x48x48xf32>,
                %v: tensor<48x10xf32>, %q: tensor<3x20x24xf32>)
    -> (tensor<2x10x10x48xf32>, tensor<2x20x20x10xf32>, tensor<3x20x24xf32>) {
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f],
      window = {stride = [1, 1], pad = [[1, 1], [1, 1]]}
      {batch_group_count = 1 : i64, feature_group_count = 1 : i64}
      : (tensor<2x20x20x32xf32>, tensor<3x3x32x48xf32>) -> tensor<2x20x20x48xf32>
  %1 = stablehlo.convolution(%0, %w2) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f],
      window = {stride = [2, 2], pad = [[1, 1], [1, 1]]}
      {batch_group_count = 1 : i64, feature_group_count = 1 : i64}
      : (tensor<2x20x20x48xf32>, tensor<3x3x48x48xf32>) -> tensor<2x10x10x48xf32>
  %2 = stablehlo.dot_general %0, %v, contracting_dims = [3] x [0]
      : (tensor<2x20x20x48xf32>, tensor<48x10xf32>) -> tensor<2x20x20x10xf32>
  %s = stablehlo.dot_general %q, %q, batching_dims = [0] x [0], contracting_dims = [2] x [2]
      : (tensor<3x20x24xf32>, tensor<3x20x24xf32>) -> tensor<3x20x20xf32>
  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %m = stablehlo.reduce(%s init: %ninf) applies stablehlo.maximum across dimensions = [2]
      : (tensor<3x20x20xf32>, tensor<f32>) -> tensor<3x20xf32>
  %mb = stablehlo.broadcast_in_dim %m, dims = [0, 1] : (tensor<3x20xf32>) -> tensor<3x20x20xf32>
  %d = stablehlo.subtract %s, %mb : tensor<3x20x20xf32>
  %e = stablehlo.exponential %d : tensor<3x20x20xf32>
  %t = stablehlo.reduce(%e init: %zero) applies stablehlo.add across dimensions = [2]
      : (tensor<3x20x20xf32>, tensor<f32>) -> tensor<3x20xf32>
  %tb = stablehlo.broadcast_in_dim %t, dims = [0, 1] : (tensor<3x20xf32>) -> tensor<3x20x20xf32>
  %p = stablehlo.divide %e, %tb : tensor<3x20x20xf32>
  %3 = stablehlo.dot_general %p, %q, batching_dims = [0] x [0], contracting_dims = [2] x [1]
      : (tensor<3x20x20xf32>, tensor<3x20x24xf32>) -> tensor<3x20x24xf32>
  return %1, %2, %3 : tensor<2x10x10x48xf32>, tensor<2x20x20x10xf32>, tensor<3x20x24xf32>
}
"""
