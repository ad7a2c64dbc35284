"""C programs calling artifacts whose runtime is built with AddressSanitizer and
UndefinedBehaviorSanitizer (--sanitize address,undefined), themselves built with them and run
with leak detection on: results, error paths (wrong shapes, out-of-range dynamic slices, a
failing JAX shape assertion) and freed memory, with no sanitizer report. The fixed subset
`make test` runs; `make test-asan` runs the C-interface, dynamic-shape and conformance tests
with the sanitizers (docs/testing.md).

The model's own code comes from LLVM IR and is not instrumented: what is checked is the
runtime's C, the calls the model makes into the C library (memcpy, memset: intercepted), and
every block the runtime hands out, each its own malloc under AOT_ALLOCATOR=system."""
from __future__ import annotations

import os
import re
import subprocess

import pytest

from aot.driver import Compilation, Options
from tooling import sanitize

TESTS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ROOT = os.path.dirname(TESTS)
RFC = os.path.join(TESTS, "data", "rfc", "rfc_dynamic_slice.hlo.mlir")
SHAPE_ASSERT = os.path.join(TESTS, "data", "jax_dynamic", "shape_assert_add_b4.mlir")
SAN = ",".join(sanitize.SANITIZE)


@pytest.fixture(scope="module", autouse=True)
def sanitizers_work():
    why = sanitize.unavailable()
    if why:
        pytest.skip(why)


def build(tmp_path, mlir: str, name: str, emit: str, program: str) -> str:
    """The artifact of `mlir` (runtime sanitized) and a C program using it, sanitized too."""
    with open(mlir) as f:
        text = f.read()
    artifact = str(tmp_path / ("lib%s.%s" % (name, "a" if emit == "static" else "so")))
    Compilation(text, mlir, Options(name=name, emit=emit, sanitize=SAN)).build(artifact)
    src = tmp_path / f"{name}_main.c"
    src.write_text(program)
    exe = str(tmp_path / f"{name}_main")
    link = [artifact] if emit == "static" else ["-L", str(tmp_path), f"-l{name}",
                                                f"-Wl,-rpath,{tmp_path}"]
    proc = subprocess.run(["cc", "-O1", "-Wall", "-Werror", *sanitize.cflags(sanitize.SANITIZE),
                           "-o", exe, str(src), "-I", str(tmp_path), *link, "-lm", "-lpthread",
                           "-ldl"], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    return exe


def run_clean(exe: str, *argv: str, **env) -> str:
    """Runs a sanitized program; it must exit 0 with no sanitizer report. Its stdout. The
    allocator's blocks are each their own malloc unless AOT_ALLOCATOR says otherwise."""
    env.setdefault("AOT_ALLOCATOR", "system")
    proc = subprocess.run([exe, *argv], capture_output=True, text=True, timeout=120,
                          env=sanitize.run_env(**env))
    assert not sanitize.findings(proc.stderr), proc.stderr[-4000:]
    assert proc.returncode == 0, proc.stdout + proc.stderr[-4000:]
    return proc.stdout


RFC_MAIN = r'''
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "rfc.h"

static float a0[4 * 8], a2[8 * 8], a3[8 * 5];

/* main(arg0: f32[4,8], arg1: i64[2], arg2: f32[?,?], arg3: f32[?,?]): (arg0[:2a,:2b] + arg2) @ arg3 */
static int call(int64_t a, int64_t b, int64_t r2, int64_t c2, int64_t n, aot_tensor *res) {
    int64_t half[2] = {a, b};
    int64_t d0[2] = {4, 8}, d1[1] = {2}, d2[2] = {r2, c2}, d3[2] = {c2, n};
    aot_tensor args[4] = {{a0, d0, 2, AOT_F32}, {half, d1, 1, AOT_I64}, {a2, d2, 2, AOT_F32},
                          {a3, d3, 2, AOT_F32}};
    return rfc_main(args, res);
}

int main(void) {
    for (int i = 0; i < 64; i++) a2[i] = 1;
    for (int i = 0; i < 32; i++) a0[i] = 1;
    for (int i = 0; i < 40; i++) a3[i] = 1;
    for (int rep = 0; rep < 3; rep++)  /* every size the program allows, runtime-owned results */
        for (int64_t a = 1; a <= 2; a++)
            for (int64_t b = 1; b <= 4; b++) {
                aot_tensor res[1] = {{NULL, NULL, 0, 0}};
                if (call(a, b, 2 * a, 2 * b, 5, res)) { printf("failed: %s\n", aot_last_error()); return 1; }
                float *y = res[0].data;
                if (res[0].dims[0] != 2 * a || res[0].dims[1] != 5 || y[res[0].dims[0] * 5 - 1] != 4 * b) {
                    printf("wrong result for %lld %lld\n", (long long)a, (long long)b);
                    return 1;
                }
                aot_tensor_free(&res[0]);
            }
    printf("sizes ok\n");

    /* a caller-owned result sized by the shape query */
    int64_t half[2] = {2, 3}, d0[2] = {4, 8}, d1[1] = {2}, d2[2] = {4, 6}, d3[2] = {6, 5};
    aot_tensor args[4] = {{a0, d0, 2, AOT_F32}, {half, d1, 1, AOT_I64}, {a2, d2, 2, AOT_F32},
                          {a3, d3, 2, AOT_F32}};
    int64_t dims[2], peak;
    if (rfc_main_output_shapes(args, dims, &peak)) { printf("%s\n", aot_last_error()); return 1; }
    float *y = malloc(sizeof(float) * (size_t)(dims[0] * dims[1]));
    aot_tensor out[1] = {{y, dims, 2, AOT_F32}};
    if (rfc_main(args, out)) { printf("%s\n", aot_last_error()); return 1; }
    printf("caller-owned %lld x %lld y[0] = %g\n", (long long)dims[0], (long long)dims[1], y[0]);
    int64_t wrong[2] = {4, 4};
    out[0].dims = wrong;
    printf("wrong result buffer: rc=%d %s\n", rfc_main(args, out), aot_last_error());
    free(y);

    /* run-time errors: each leaves nothing allocated */
    aot_tensor res[1] = {{NULL, NULL, 0, 0}};
    printf("out of range: rc=%d %s\n", call(3, 1, 6, 2, 3, res), aot_last_error());
    printf("out of range: rc=%d %s\n", call(1, 5, 2, 10, 3, res), aot_last_error());
    printf("negative: rc=%d %s\n", call(-1, 1, 1, 2, 3, res), aot_last_error());
    printf("mismatch: rc=%d %s\n", call(1, 1, 3, 2, 3, res), aot_last_error());
    printf("null result: rc=%d\n", call(1, 1, 2, 2, 3, NULL));
    if (res[0].data) { printf("error left a result\n"); return 1; }
    printf("query error: rc=%d\n", rfc_main_output_shapes(NULL, dims, &peak));
    aot_alloc_stats stats;
    aot_get_alloc_stats(&stats);
    printf("bytes_in_use=%lld\n", (long long)stats.bytes_in_use);
    aot_release_cached_memory();
    return 0;
}
'''


@pytest.mark.parametrize("allocator", ["system", "cache"])
def test_dynamic_shapes_static_artifact(tmp_path, allocator):
    exe = build(tmp_path, RFC, "rfc", "static", RFC_MAIN)
    out = run_clean(exe, AOT_ALLOCATOR=allocator, AOT_NUM_THREADS="2")
    lines = out.splitlines()
    assert lines[0] == "sizes ok"
    assert lines[1] == "caller-owned 4 x 5 y[0] = 12"
    assert lines[2] == "wrong result buffer: rc=1 main: result 'result0' (#0) expects f32[4,5], " \
        "got f32[4,4]"
    assert "start + size of dim 0 exceeds the operand (6 vs 4)" in lines[3]
    assert "start + size of dim 1 exceeds the operand (10 vs 8)" in lines[4]
    assert "size of dim 0 is negative (-2 vs 0)" in lines[5]
    assert lines[6].startswith("mismatch: rc=3 ") and "dim 0 differs: 2 != 3" in lines[6], lines[6]
    assert lines[7] == "null result: rc=1"
    assert lines[8] == "query error: rc=1"
    assert lines[9] == "bytes_in_use=0"


ASSERT_MAIN = r'''
#include <stdio.h>
#include "shape_assert.h"

static float x[8 * 4], z[8 * 4];

static int call(int64_t n0, int64_t n1, aot_tensor *res) {
    int64_t d0[2] = {n0, 4}, d1[2] = {n1, 4};
    aot_tensor args[2] = {{x, d0, 2, AOT_F32}, {x, d1, 2, AOT_F32}};
    return shape_assert_main(args, res);
}

int main(void) {
    for (int i = 0; i < 32; i++) x[i] = (float)i;
    aot_tensor res[1] = {{NULL, NULL, 0, 0}};
    int rc = call(8, 8, res);
    printf("ok rc=%d dims %lld x %lld last %g\n", rc, (long long)res[0].dims[0],
           (long long)res[0].dims[1], ((float *)res[0].data)[31]);
    aot_tensor_free(&res[0]);
    int64_t zd[2] = {3, 4};
    aot_tensor caller[1] = {{z, zd, 2, AOT_F32}};
    printf("caller rc=%d\n", call(3, 3, caller));
    printf("bad0 rc=%d %s\n", call(3, 8, res), aot_last_error());
    printf("bad1 rc=%d %s\n", call(0, 0, res), aot_last_error());
    printf("bad1 caller rc=%d %s\n", call(0, 0, caller), aot_last_error());
    printf("left %p\n", res[0].data);
    return 0;
}
'''


def test_shape_assertion_shared_artifact(tmp_path):
    exe = build(tmp_path, SHAPE_ASSERT, "shape_assert", "shared", ASSERT_MAIN)
    lines = run_clean(exe, AOT_NUM_THREADS="2").splitlines()
    assert lines[0] == "ok rc=0 dims 8 x 4 last 62"
    assert lines[1] == "caller rc=0"
    assert lines[2].startswith("bad0 rc=3 ") and \
        "args[1].shape[0] (= 8) and the specification 'b' (= 3)" in lines[2], lines[2]
    assert lines[3].startswith("bad1 rc=3 ") and \
        "Expected value >= 1 for dimension variable 'b'" in lines[3], lines[3]
    assert lines[4].startswith("bad1 caller rc=3 ")
    assert lines[5] in ("left (nil)", "left 0x0")


def test_demo_program(tmp_path):
    """examples/demo.c, the README's C example, against the MLP as a shared library."""
    import numpy as np
    with open(os.path.join(ROOT, "examples", "demo.c")) as f:
        demo = f.read()
    exe = build(tmp_path, os.path.join(ROOT, "examples", "mlp.mlir"), "mlp", "shared", demo)
    x = np.load(os.path.join(ROOT, "examples", "mlp.npz"))["x"].astype(np.float32)
    x.tofile(tmp_path / "x.bin")
    out = run_clean(exe, str(tmp_path / "x.bin"), str(tmp_path / "y.bin"))
    assert "bad input rejected: main: argument 'arg0' (#0) expects f32[8,64], got f32[8,63]" in out
    assert "runtime-allocated result: rank 2, dims 8 x 10" in out


def test_fake_runtime_program(tmp_path):
    """The runtime's own C test (tests/data/runtime_c/fake_main.c), both allocators."""
    from runtime.test_runtime_c import EXPECTED_OUTPUT, build_fake_program
    exe = str(build_fake_program(tmp_path, sanitize.SANITIZE))
    for allocator in ("system", "cache"):
        assert run_clean(exe, AOT_ALLOCATOR=allocator) == EXPECTED_OUTPUT


def test_the_sanitizers_report_what_they_should(tmp_path):
    """The checks above would pass vacuously if the sanitizers said nothing: a heap overflow,
    a use after free, a leak and a signed overflow are each reported."""
    src = tmp_path / "bad.c"
    src.write_text(r'''
#include <stdlib.h>
#include <string.h>
int main(int argc, char **argv) {
    char *p = malloc(16);
    volatile int i = 16, big = 0x7fffffff;
    switch (argv[1][0]) {
    case 'o': p[i] = 1; break;                        /* heap overflow */
    case 'u': free(p); return p[0];                   /* use after free */
    case 'l': p = 0; break;                           /* leak */
    case 's': return big + argc;                      /* signed overflow */
    }
    return (int)(long)p & 0;
}
''')
    exe = str(tmp_path / "bad")
    subprocess.run(["cc", "-O0", *sanitize.cflags(sanitize.SANITIZE), "-o", exe, str(src)],
                   check=True, capture_output=True)
    expect = {"o": "heap-buffer-overflow", "u": "heap-use-after-free",
              "l": "detected memory leaks", "s": "signed integer overflow"}
    for arg, what in expect.items():
        proc = subprocess.run([exe, arg], capture_output=True, text=True, env=sanitize.run_env())
        assert proc.returncode != 0 and what in proc.stderr and sanitize.findings(proc.stderr), \
            (arg, proc.stderr)


POOL = """func.func @main(%x: tensor<?x256xf32>, %w: tensor<256x64xf32>) -> (tensor<?x64xf32>, tensor<?x256xf32>) {
  %0 = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<?x256xf32>, tensor<256x64xf32>) -> tensor<?x64xf32>
  %1 = stablehlo.tanh %0 : tensor<?x64xf32>
  %2 = stablehlo.exponential %x : tensor<?x256xf32>
  %3 = stablehlo.add %2, %x : tensor<?x256xf32>
  return %1, %3 : tensor<?x64xf32>, tensor<?x256xf32>
}
"""  # noqa: E501

POOL_MAIN = r'''
#include "pool.h"

#define CALLERS 3
static float w[256 * 64];

/* Each caller runs the model on its own row counts (so its buffers are allocated and freed
 * every call, by the pool's threads and its own), one of them also changes the pool's size
 * between calls, and every one makes a call that fails (aot_last_error is per thread). */
static void *caller(void *arg) {
    int id = (int)(long)arg;
    for (int rep = 0; rep < 12; rep++) {
        int64_t rows = 64 + 37 * ((rep + id) % 5);
        float *x = malloc(sizeof(float) * (size_t)rows * 256);
        for (int64_t i = 0; i < rows * 256; i++) x[i] = (float)((i + id) % 7) * 0.01f;
        int64_t dx[2] = {rows, 256}, dw[2] = {256, 64};
        aot_tensor args[2] = {{x, dx, 2, AOT_F32}, {w, dw, 2, AOT_F32}};
        aot_tensor res[2] = {{NULL, NULL, 0, 0}, {NULL, NULL, 0, 0}};
        if (id == 0) aot_set_num_threads(1 + rep % 2);
        if (pool_main(args, res)) {
            fail(aot_last_error());
        } else {
            float *t = res[0].data, *e = res[1].data;
            double want = 0; /* row 0 of tanh(x @ w), column 0; w is all 0.001 */
            for (int k = 0; k < 256; k++) want += x[k] * 0.001;
            if (fabs(t[0] - tanh(want)) > 1e-5 || fabs(e[5] - (exp(x[5]) + x[5])) > 1e-5)
                fail("wrong result");
            aot_tensor_free(&res[0]);
            aot_tensor_free(&res[1]);
        }
        int64_t bad[2] = {rows, 255};
        args[0].dims = bad;
        if (pool_main(args, res) == 0 || !aot_last_error()[0]) fail("a wrong shape passed");
        free(x);
    }
    return NULL;
}

int main(void) {
    for (int i = 0; i < 256 * 64; i++) w[i] = 0.001f;
    pthread_t threads[CALLERS];
    for (long i = 0; i < CALLERS; i++) pthread_create(&threads[i], NULL, caller, (void *)i);
    for (int i = 0; i < CALLERS; i++) pthread_join(threads[i], NULL);
    aot_alloc_stats stats;
    aot_get_alloc_stats(&stats);
    printf("failures=%d bytes_in_use=%lld\n", failures, (long long)stats.bytes_in_use);
    aot_release_cached_memory();
    return failures != 0;
}
'''


def test_threads_under_thread_sanitizer(tmp_path):
    """The runtime built with ThreadSanitizer (--sanitize thread), in a C program built with it
    too: three threads call a model that runs on the thread pool (a matmul and an elementwise
    kernel over a dynamic row count), each allocating and freeing its buffers, one changing
    the pool's size meanwhile, each with a failing call. No data race may be reported in the
    runtime's C (the pool, the allocator and its cache, per-thread errors); the model's own
    code is LLVM's and not instrumented."""
    why = sanitize.thread_unavailable()
    if why:
        pytest.skip(why)
    mlir = tmp_path / "pool.mlir"
    mlir.write_text(POOL)
    artifact = str(tmp_path / "libpool.a")
    Compilation(POOL, str(mlir), Options(name="pool", emit="static", sanitize="thread")).build(artifact)
    exe = sanitize.build_thread_program(str(tmp_path), "pool_main", POOL_MAIN, artifact)
    for allocator in ("cache", "system"):
        out = sanitize.run_thread_clean(exe, AOT_NUM_THREADS="2", AOT_ALLOCATOR=allocator)
        assert out.strip().endswith("failures=0 bytes_in_use=0"), out


@pytest.mark.parametrize("spec, error", [
    ("address,thread", "cannot be combined with address or leak"),
    ("thread,leak", "cannot be combined with address or leak"),
    ("memory", "unknown sanitizer 'memory' (known: address, undefined, leak, thread)"),
])
def test_sanitizer_names_are_checked(spec, error):
    from aot.toolchain import ToolchainError, parse_sanitize
    assert parse_sanitize("thread,undefined") == ("thread", "undefined")
    with pytest.raises(ToolchainError, match=re.escape(error)):
        parse_sanitize(spec)
