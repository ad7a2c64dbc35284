"""Big kernels split their outermost loop over the runtime's thread pool; results do not
depend on the thread count, and one library serves several calling threads at once."""
import threading

import numpy as np

import aot

PROGRAM = """
func.func @main(%x: tensor<?x256xf32>, %w: tensor<256x128xf32>) -> (tensor<?x256xf32>, tensor<?xf32>, tensor<?x128xf32>) {
  %e = stablehlo.exponential %x : tensor<?x256xf32>
  %t = stablehlo.tanh %e : tensor<?x256xf32>
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %s = stablehlo.reduce(%x init: %z) applies stablehlo.add across dimensions = [1] : (tensor<?x256xf32>, tensor<f32>) -> tensor<?xf32>
  %m = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<?x256xf32>, tensor<256x128xf32>) -> tensor<?x128xf32>
  return %t, %s, %m : tensor<?x256xf32>, tensor<?xf32>, tensor<?x128xf32>
}
"""  # noqa: E501


def reference(x, w):
    x64 = x.astype(np.float64)
    return np.tanh(np.exp(x64)), x64.sum(axis=1), x64 @ w


def check(got, want):
    for g, r in zip(got, want):
        np.testing.assert_allclose(g, r, rtol=2e-5, atol=2e-5)


def test_results_do_not_depend_on_the_thread_count():
    lib = aot.compile(PROGRAM, name="threads")
    rng = np.random.default_rng(0)
    w = rng.standard_normal((256, 128)).astype(np.float32) / 16
    for rows in (1, 7, 300, 1031):  # small kernels stay serial, big ones split
        x = rng.standard_normal((rows, 256)).astype(np.float32) / 4
        results = []
        for n in (1, 2, 3):
            lib.set_num_threads(n)
            got = lib.main(x, w)
            check(got, reference(x, w))
            results.append(got)
        for other in results[1:]:
            np.testing.assert_array_equal(other[0], results[0][0])
            np.testing.assert_array_equal(other[2], results[0][2])


def test_many_python_threads_call_one_library():
    lib = aot.compile(PROGRAM, name="threads")
    lib.set_num_threads(2)
    rng = np.random.default_rng(1)
    w = rng.standard_normal((256, 128)).astype(np.float32) / 16
    inputs = [rng.standard_normal((int(r), 256)).astype(np.float32) / 4
              for r in rng.integers(1, 600, size=8)]
    wants = [reference(x, w) for x in inputs]
    errors = []

    def worker(k):
        try:
            for i in range(6):
                j = (k + i) % len(inputs)
                check(lib.main(inputs[j], w), wants[j])
        except Exception as e:  # reported below, with the thread that saw it
            errors.append((k, e))

    threads = [threading.Thread(target=worker, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors
    assert lib.alloc_stats()["bytes_in_use"] == 0
