PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: venv demo test test-gpu cuda-double lint bench bench-gpu bench-gpu-model gpu-kit gpu-kit-check docs clean fuzz fuzz-diff stress

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[test]'
	$(VENV)/bin/aotc cache --warm > /dev/null  # runtime + helper objects: a fast first compile
	touch $(STAMP)

venv: $(STAMP)

demo: $(STAMP)
	$(PY) examples/demo.py

# Two processes for the suite (compiles dominate it); the conformance corpus runs on its
# own so that its summary line (`conformance: N passed, M unsupported ...`) is printed.
test: $(STAMP)
	$(PY) -m pytest -q -n 2 tests --ignore=tests/e2e/test_conformance.py --ignore=tests/e2e/test_gpu_kit.py
	$(PY) -m pytest -q tests/e2e/test_conformance.py

# PyTorch's front door with torch installed (the `torch` extra: torch==2.13.0, CPU): the tests
# that export live from torch and the heavier saved .pt2 cases (`make test` runs the others
# from tests/data/torch without torch).
.PHONY: test-torch
test-torch: $(STAMP)
	$(PY) -m pip install -q -e '.[torch]' transformers
	AOTC_TEST_TORCH=1 $(PY) -m pytest -q tests/e2e/test_torch.py tests/e2e/test_torch_live.py \
		tests/e2e/test_torch_zoo.py

# torchvision's ResNet-18, MobileNetV3, EfficientNet-B0, ViT-B/16 and DenseNet-121 against eager PyTorch, in
# a venv of their own: torchvision's wheels need the CUDA build of torch 2.14.1 (about 5.5 GB,
# runs on the CPU), which does not belong in the project's venv. Made once, then reused.
TORCHVISION_VENV ?= .venv-torchvision
$(TORCHVISION_VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(TORCHVISION_VENV)
	$(TORCHVISION_VENV)/bin/pip install -q torch==2.14.1 torchvision==0.29.1 -e '.[test]'
	touch $@

.PHONY: test-torchvision
test-torchvision: $(TORCHVISION_VENV)/.installed
	AOTC_TEST_TORCHVISION=1 $(TORCHVISION_VENV)/bin/python -m pytest -q tests/e2e/test_torchvision_live.py

# The GPU target without a GPU: every conformance case as PTX through ptxas (sm_80, sm_90),
# then run on the emulated grid against JAX's outputs. A fixed sample of both is in `test`.
test-gpu: $(STAMP)
	$(PY) tests/tooling/ptx_corpus.py
	$(PY) tests/tooling/gpu_emu/corpus_run.py
	$(PY) tests/tooling/gpu_emu/conv_campaign.py
	$(PY) -m pytest -q tests/e2e/test_gpu_kit.py

.PHONY: test-asan

# The runtime and the artifacts built with AddressSanitizer and UndefinedBehaviorSanitizer
# (AOTC_SANITIZE=address,undefined, AOT_ALLOCATOR=system, the sanitizers' runtimes preloaded
# into Python: tests/tooling/run_sanitized.py): the C-interface tests (their C programs
# sanitized too, leaks reported), the GPU runtime's tests (through the CUDA driver double),
# the dynamic-shape tests and the conformance corpus. A fixed subset
# (tests/e2e/test_sanitizers.py) is in `test`.
ASAN_TESTS := tests/runtime/test_runtime_c.py tests/e2e/test_sanitizers.py tests/e2e/test_c_link.py \
	tests/e2e/test_cpp_class.py tests/e2e/test_dynamic.py tests/e2e/test_memory_safety.py \
	tests/e2e/test_threads.py tests/e2e/test_bad_input.py tests/runtime/test_cuda_runtime.py \
	tests/runtime/test_cuda_blas.py

test-asan: $(STAMP)
	$(PY) tests/tooling/run_sanitized.py $(PY) -m pytest -q -n 2 $(ASAN_TESTS)
	$(PY) tests/tooling/run_sanitized.py $(PY) -m pytest -q tests/e2e/test_conformance.py

# The runtime built with ThreadSanitizer (AOTC_SANITIZE=thread, TSan's runtime preloaded into
# Python): the thread and stress tests and the runtime's C test; any race reported fails. The
# fork tests are left out: TSan ends a child that starts threads after a multi-threaded fork.
# `make test` runs C programs under TSan (tests/e2e/test_sanitizers.py, the GPU runtime's).
.PHONY: test-tsan
TSAN_TESTS := tests/e2e/test_threads.py tests/e2e/test_stress.py tests/runtime/test_runtime_c.py
test-tsan: $(STAMP)
	$(PY) tests/tooling/run_sanitized.py --thread $(PY) -m pytest -q -k "not fork" $(TSAN_TESTS)

.PHONY: test-exhaustive

# The inline f32 exp, log, tanh, logistic, expm1 and log1p on every one of the 2^32 inputs
# against their ulp bounds (lowering/codegen/llvm/fastmath.py's MAX_ULP): about 5 minutes
# per op on one core. `make test` checks them on millions of sampled inputs.
test-exhaustive: $(STAMP)
	AOTC_EXHAUSTIVE=1 $(PY) -m pytest -q tests/codegen/test_fastmath.py -k test_f32_exhaustive

.PHONY: test-cross cross-tools

# Cross-compilation: every conformance case built for aarch64 and riscv64 and run under
# qemu-user against JAX's outputs (a fixed sample of it is in `test`). Needs `cross-tools`.
test-cross: $(STAMP)
	AOTC_CROSS_CORPUS=all AOTC_REQUIRE_CROSS=1 $(PY) -m pytest -q -n 2 tests/e2e/test_cross.py

# The cross compilers and qemu-user those tests use, and cmake for cmake/aotc.cmake's test, from
# the system's packages (Debian/Ubuntu; sudo when not root). Without them `make test` skips the
# cross tests, naming the packages, and the CMake tests.
CROSS_PACKAGES := gcc-aarch64-linux-gnu libc6-dev-arm64-cross gcc-riscv64-linux-gnu \
	libc6-dev-riscv64-cross qemu-user cmake
CROSS_TOOLS := aarch64-linux-gnu-gcc riscv64-linux-gnu-gcc qemu-aarch64 qemu-riscv64 cmake

cross-tools:
	@if (for t in $(CROSS_TOOLS); do command -v $$t >/dev/null || exit 1; done); then \
		echo "cross tools present: $(CROSS_TOOLS)"; \
	else \
		sudo=$$([ "$$(id -u)" = 0 ] || echo sudo); \
		$$sudo env DEBIAN_FRONTEND=noninteractive apt-get update -q && \
		$$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -q $(CROSS_PACKAGES); \
	fi

# The CUDA driver API and cuBLAS test doubles: run a --target cuda artifact on a machine
# without a GPU (docs/cuda-target.md, "Running a cuda artifact without a GPU").
cuda-double: build/libcuda_double.so build/libcublas_double.so

build/libcuda_double.so: tests/tooling/cuda_double/double.c
	mkdir -p build
	$${CC:-cc} -O2 -fPIC -shared -o $@ $< -ldl -lpthread

build/libcublas_double.so: tests/tooling/cuda_double/cublas_double.c
	mkdir -p build
	$${CC:-cc} -O2 -fPIC -shared -o $@ $<

# A fuzz campaign (tests/tooling/fuzz): N mutated corpus programs of seed SEED through the
# stages to loops (every LLVM_EVERY-th on to LLVM IR), JOBS worker processes; each must compile
# or fail with a located error. Failing inputs go to build/fuzz/ (docs/testing.md).
N ?= 10000
SEED ?= 1
LLVM_EVERY ?= 50
JOBS ?= $(shell nproc 2>/dev/null || echo 2)

fuzz: $(STAMP)
	$(PY) tests/tooling/fuzz/campaign.py -n $(N) --seed $(SEED) --llvm-every $(LLVM_EVERY) -j $(JOBS)

# A differential campaign (tests/tooling/fuzz/differential.py): N random valid programs of seed
# SEED (N is 1000 here unless given: each program is a compile, about 0.5 s), each compiled,
# called with two shapes for its `?` dims and checked against numpy; failures go to build/fuzz-diff/.
fuzz-diff: N = 1000
fuzz-diff: $(STAMP)
	$(PY) tests/tooling/fuzz/differential.py -n $(N) --seed $(SEED) -j $(JOBS)

# tests/e2e/test_stress.py with STRESS_SCALE times its calls (8 threads x 1000 calls, 10,000
# calls with failures mixed in, 12 forks: each times STRESS_SCALE)
stress: STRESS_SCALE = 20
stress: $(STAMP)
	AOT_STRESS_SCALE=$(STRESS_SCALE) $(PY) -m pytest -q -s tests/e2e/test_stress.py

lint: $(STAMP)
	$(VENV)/bin/ruff check .
	$(PY) tools/check_docs.py

# BENCH_PY: an interpreter with JAX installed for the XLA columns (JAX is never a dependency:
# `make bench BENCH_PY=/path/to/jax-venv/bin/python`); the project's own venv leaves them out.
BENCH_PY ?= $(PY)
bench: $(STAMP)
	$(BENCH_PY) benchmarks/elementwise_chain.py && $(BENCH_PY) benchmarks/dynamic_shapes.py
	$(BENCH_PY) benchmarks/elementwise_chain.py --threads 2 --no-inspect --workloads chain6,chain6+mix
	$(BENCH_PY) benchmarks/cpu_workloads.py && $(BENCH_PY) benchmarks/models.py
	$(BENCH_PY) benchmarks/models.py --threads 2 --models gpt_decoder,resnet_cnn
	$(BENCH_PY) benchmarks/quantized.py
	$(BENCH_PY) benchmarks/model_sweep.py --quick && $(BENCH_PY) benchmarks/decode.py --quick
	$(BENCH_PY) benchmarks/conv_sweep.py --quick
	$(BENCH_PY) benchmarks/compile_time.py --sizes 1000,4000 && $(BENCH_PY) benchmarks/shape_split.py

# On a machine with an NVIDIA GPU (and jax[cuda] for the comparison): never run here.
bench-gpu: $(STAMP)
	$(PY) benchmarks/gpu_workloads.py

# No GPU needed: each kernel's predicted time (an estimate) from the time model, docs/gpu.md.
bench-gpu-model: $(STAMP)
	$(PY) benchmarks/gpu_workloads.py --model

# The device kit for the first GPU (docs/gpu.md): build/gpu-kit/ and build/gpu-kit.tar.gz, and the
# artifacts' host companions in build/gpu-kit-double/; gpu-kit-check runs its run.sh here through
# the CUDA driver double, the emulated grid in fiber mode (the whole kit: about 90 s here).
gpu-kit: $(STAMP)
	$(PY) tools/gpu_kit/build.py --out build/gpu-kit --double build/gpu-kit-double

gpu-kit-check: build/libcuda_double.so
	@test -f build/gpu-kit/run.sh || { echo 'gpu-kit-check: no kit in build/gpu-kit: run make gpu-kit first' >&2; exit 1; }
	KIT_TIMEOUT=1800 AOT_EMU_FIBERS=1 AOT_CUDA_LIBRARY=$(CURDIR)/build/libcuda_double.so \
		AOT_CUDA_DOUBLE_KERNELS=$(CURDIR)/build/gpu-kit-double \
		bash build/gpu-kit/run.sh

# The generated tables (docs/ops.md, docs/tensorflow.md, docs/pytorch.md) rewritten from the
# code and benchmarks/README's list of results from benchmarks/results/, then every relative
# link and #anchor of the Markdown checked, and that README links every docs/ page
# (tools/check_docs.py; `make lint` runs the same check without writing, and fails on a stale
# table or list).
docs: $(STAMP)
	$(PY) tools/check_docs.py --write

clean:
	rm -rf build out $(VENV)
