"""C++ and C programs against the generated headers: the class of `--cpp-class` over each
artifact kind (examples/demo.cpp on the MLP), and over a program with named, dynamic and
data-dependent values and two entries; a C program that finds every argument and result
through NAME.h's named constants. Numbers are compared with numpy."""
import os
import subprocess
import sys

import numpy as np
import pytest

from e2e.test_c_link import EXAMPLES, ROOT, data  # noqa: F401  (data: the MLP's fixture)
from tooling import sanitize

ARTIFACTS = {"shared": "lib{}.so", "static": "lib{}.a", "obj": "{}.o"}


def aotc_compile(src: str, out: str, name: str, emit: str = "shared", *options) -> str:
    path = os.path.join(out, ARTIFACTS[emit].format(name))
    proc = subprocess.run([sys.executable, "-m", "aot.cli", "compile", src, "--name", name,
                           "--emit", emit, "-o", path, *options], capture_output=True, text=True,
                          env=dict(os.environ, PYTHONPATH=ROOT))
    assert proc.returncode == 0, proc.stderr
    return path


def build(compiler: str, src: str, out: str, artifact: str, *flags) -> str:
    """A C or C++ program linked against `artifact` (and the headers beside it), warnings
    as errors."""
    exe = os.path.join(out, os.path.basename(src).replace(".", "_"))
    name = os.path.basename(artifact)
    link = (["-L", out, f"-l{name[3:-3]}", f"-Wl,-rpath,{out}"] if name.endswith(".so")
            else [artifact])
    proc = subprocess.run([compiler, "-O1", "-Wall", "-Wextra", "-Werror", *flags,
                           *sanitize.cflags(), "-o", exe, src,
                           "-I", out, *link, "-lm", "-lpthread", "-ldl"], capture_output=True,
                          text=True)
    assert proc.returncode == 0, proc.stderr
    return exe


def run(*argv) -> str:
    proc = subprocess.run(argv, capture_output=True, text=True, env=sanitize.run_env())
    assert not sanitize.findings(proc.stderr), proc.stderr  # `make test-asan`
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return proc.stdout


@pytest.mark.parametrize("emit", ["shared", "static", "obj"])
def test_demo_cpp_on_each_artifact_kind(tmp_path, data, emit):  # noqa: F811
    x, want = data
    out = str(tmp_path)
    artifact = aotc_compile(os.path.join(EXAMPLES, "mlp.mlir"), out, "mlp", emit,
                            "--cpp-class", "demo::Mlp")
    exe = build("c++", os.path.join(EXAMPLES, "demo.cpp"), out, artifact, "-std=c++11")
    x.tofile(os.path.join(out, "x.bin"))
    stdout = run(exe, os.path.join(out, "x.bin"), os.path.join(out, "y.bin"))
    assert "C++ class: arg0 -> 8 x 10 result" in stdout
    y = np.fromfile(os.path.join(out, "y.bin"), dtype=np.float32).reshape(8, 10)
    np.testing.assert_allclose(y, want, rtol=1e-5, atol=1e-6)


# Names from JAX's attributes (x, params['w'], the result dict's keys), a '?' dim, a
# result whose size the data decides (where), a static scalar result among dynamic ones,
# and a second entry whose argument is named by its SSA name.
NAMED = """
func.func public @main(%arg0: tensor<?x4xf32> {jax.arg_info = "x"},
                       %arg1: tensor<4xf32> {jax.arg_info = "params['w']"})
    -> (tensor<?x4xf32> {jax.result_info = "result['scaled']"},
        tensor<?x2xi64> {jax.result_info = "result['nonzero']"},
        tensor<f32> {jax.result_info = "result['total']"}) {
  %0 = stablehlo.multiply %arg0, %arg0 : tensor<?x4xf32>
  %1 = dhlo.where %arg0 : (tensor<?x4xf32>) -> tensor<?x2xi64>
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %2 = stablehlo.reduce(%arg1 init: %z) applies stablehlo.add across dimensions = [0] : (tensor<4xf32>, tensor<f32>) -> tensor<f32>
  return %0, %1, %2 : tensor<?x4xf32>, tensor<?x2xi64>, tensor<f32>
}
func.func public @norm(%v: tensor<?xf64>) -> tensor<f64> {
  %z = stablehlo.constant dense<0.0> : tensor<f64>
  %sq = stablehlo.multiply %v, %v : tensor<?xf64>
  %s = stablehlo.reduce(%sq init: %z) applies stablehlo.add across dimensions = [0] : (tensor<?xf64>, tensor<f64>) -> tensor<f64>
  return %s : tensor<f64>
}
"""  # noqa: E501

CPP_PROGRAM = r"""
#include <cstdio>
#include "named.hpp"

static void print(const char *what, const float *p, long long n) {
  std::printf("%s", what);
  for (long long i = 0; i < n; ++i) std::printf(" %.9g", p[i]);
  std::printf("\n");
}

int main() {
  app::Named m;
  if (m.Run()) return 1;  // x has a '?' dim: its shape first
  std::printf("error: %s\n", m.error_msg());
  for (int rows : {3, 5}) {  // one object, two shapes
    if (!m.set_arg_x_shape({rows, 4})) return 2;
    for (int i = 0; i < rows; ++i)
      for (int j = 0; j < 4; ++j) m.arg_x(i, j) = (i + j) % 3 == 0 ? 0.0f : 0.5f * i - j;
    for (int j = 0; j < 4; ++j) m.arg_params_w(j) = 1.5f * j;
    if (!m.Run()) { std::printf("run failed: %s\n", m.error_msg()); return 3; }
    std::printf("scaled %lld %lld\n", (long long)m.result_scaled_shape()[0],
                (long long)m.result_scaled_shape()[1]);
    print("values", m.result_scaled_data(), m.result_scaled_count());
    std::printf("nonzero %lld:", (long long)m.result_nonzero_shape()[0]);
    for (long long k = 0; k < m.result_nonzero_count(); ++k)
      std::printf(" %lld", (long long)m.result_nonzero_data()[k]);
    std::printf("\ntotal %.9g %.9g\n", m.result_total(), *static_cast<const float *>(m.result_data(2)));
  }
  std::printf("names %s %s %s %d %d\n", app::Named::ArgName(1), app::Named::ResultName(1),
              app::Named::ResultName(2), app::Named::LookupArgIndex("params['w']"),
              app::Named::LookupResultIndex("nope"));

  /* the second entry's class; its argument given as the caller's memory */
  app::Named_norm n;
  double v[5] = {1, 2, 3, 4, 5.5};
  n.set_arg_v_data(v);
  n.set_arg_v_shape({5});
  if (!n.Run()) return 4;
  std::printf("norm %.17g\n", n.result0());
  n.set_arg_v_shape({-1});
  std::printf("bad shape: %s\n", n.error_msg());
  n.set_arg_v_shape({2});
  n.Run();
  std::printf("norm2 %.17g\n", n.result0());
  return 0;
}
"""

C_PROGRAM = r"""
#include <stdio.h>
#include "named.h"

/* Every position, dtype and static dim from the header's named constants. */
int main(void) {
  float x[2][named_main_arg_x_DIM1] = {{0, 1, 2, 3}, {-1, 0, 0, 4}};
  float w[] = {1, 2, 3, 4.5f};
  int64_t x_dims[named_main_arg_x_RANK] = {2, named_main_arg_x_DIM1};
  int64_t w_dims[] = named_main_arg_params_w_DIMS;
  aot_tensor args[named_main_NUM_ARGS], results[named_main_NUM_RESULTS] = {{0}};
  args[named_main_arg_x_INDEX] = (aot_tensor){x, x_dims, named_main_arg_x_RANK, named_main_arg_x_DTYPE};
  args[named_main_arg_params_w_INDEX] =
      (aot_tensor){w, w_dims, named_main_arg_params_w_RANK, named_main_arg_params_w_DTYPE};
  if (named_main(args, results) != AOT_OK) {
    printf("failed: %s\n", aot_last_error());
    return 1;
  }
  aot_tensor *nz = &results[named_main_result_nonzero_INDEX];
  aot_tensor *total = &results[named_main_result_total_INDEX];
  printf("%s %d %lld x %lld:", named_main_result_nonzero_NAME, nz->dtype == named_main_result_nonzero_DTYPE,
         (long long)nz->dims[0], (long long)nz->dims[named_main_result_nonzero_RANK - 1]);
  for (int64_t k = 0; k < nz->dims[0] * nz->dims[1]; ++k)
    printf(" %lld", (long long)((int64_t *)nz->data)[k]);
  printf("\n%s %g %s\n", named_main_result_total_NAME, *(float *)total->data, named_main_arg_params_w_NAME);
  for (int i = 0; i < named_main_NUM_RESULTS; ++i) aot_tensor_free(&results[i]);
  return 0;
}
"""


@pytest.fixture(scope="module")
def named(tmp_path_factory):
    out = str(tmp_path_factory.mktemp("named"))
    src = os.path.join(out, "named.mlir")
    with open(src, "w") as f:
        f.write(NAMED)
    return out, aotc_compile(src, out, "named", "shared", "--cpp-class", "app::Named")


def x_values(rows):
    i, j = np.indices((rows, 4))
    return np.where((i + j) % 3 == 0, 0.0, 0.5 * i - j).astype(np.float32)


def test_cpp_class_names_shapes_and_entries(named):
    out, artifact = named
    src = os.path.join(out, "use.cpp")
    with open(src, "w") as f:
        f.write(CPP_PROGRAM)
    lines = iter(run(build("c++", src, out, artifact, "-std=c++17")).splitlines())
    assert next(lines) == ("error: main: argument 'x' (#0) has a dim known only at run time: "
                           "set it with set_arg_x_shape() before Run()")
    w = 1.5 * np.arange(4, dtype=np.float32)
    for rows in (3, 5):
        x = x_values(rows)
        assert next(lines) == f"scaled {rows} 4"
        np.testing.assert_array_equal(np.array(next(lines).split()[1:], np.float32), (x * x).ravel())
        head, _, idx = next(lines).partition(":")
        assert head == f"nonzero {np.count_nonzero(x)}"
        np.testing.assert_array_equal(np.array(idx.split(), np.int64), np.argwhere(x).ravel())
        assert next(lines) == f"total {w.sum():.9g} {w.sum():.9g}"
    assert next(lines) == "names params['w'] result['nonzero'] result['total'] 1 -1"
    v = np.array([1, 2, 3, 4, 5.5])
    assert float(next(lines).split()[1]) == pytest.approx((v * v).sum(), rel=1e-15)
    assert next(lines) == "bad shape: set_arg_shape: a dim is negative"
    assert float(next(lines).split()[1]) == pytest.approx((v[:2] * v[:2]).sum(), rel=1e-15)


def test_c_program_through_named_constants(named):
    out, artifact = named
    src = os.path.join(out, "use.c")
    with open(src, "w") as f:
        f.write(C_PROGRAM)
    lines = run(build("cc", src, out, artifact, "-std=c11")).splitlines()
    x = np.array([[0, 1, 2, 3], [-1, 0, 0, 4]], np.float32)
    want = " ".join(str(k) for k in np.argwhere(x).ravel())
    assert lines == [f"result['nonzero'] 1 {np.count_nonzero(x)} x 2: {want}",
                     "result['total'] 10.5 params['w']"]


def test_cpp_class_option_errors(tmp_path):
    env = dict(os.environ, PYTHONPATH=ROOT)
    mlp = os.path.join(EXAMPLES, "mlp.mlir")
    for options, message in ((["--cpp-class", "my-model"], "not a usable C++ name"),
                             (["--cpp-class", "M", "--emit", "llvm"], "--cpp-class goes with")):
        proc = subprocess.run([sys.executable, "-m", "aot.cli", "compile", mlp, *options,
                               "-o", str(tmp_path / "x")], capture_output=True, text=True, env=env)
        assert proc.returncode == 2 and message in proc.stderr, proc.stderr
