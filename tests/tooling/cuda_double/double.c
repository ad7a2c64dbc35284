/* A test double of the CUDA driver API: the entry points runtime_c/device/cuda_driver.c opens, with
 * "device" memory on the host and each launched kernel run on the emulated grid. Selected
 * with AOT_CUDA_LIBRARY=path/to/libcuda_double.so; built by `make cuda-double`. Never in an
 * artifact.
 *
 * A module's PTX is never compiled: cuModuleLoadDataEx looks for the host build of the same
 * kernels, a companion library named by the PTX text's 64-bit FNV-1a hash,
 * $AOT_CUDA_DOUBLE_KERNELS/<hash>.so (tests/tooling/gpu_emu builds it: the NVPTX IR of the
 * kernels compiled for the host with the emulated grid's runner, `aot_emu_launch`). A launch
 * takes its parameters (8 bytes each, their count from the companion's table) and runs the
 * grid there.
 *
 * Faults, for the error paths of the runtime: AOT_CUDA_DOUBLE_FAIL=init|load|launch|oom
 * makes cuInit, cuModuleLoadDataEx, cuLaunchKernel or cuMemAlloc fail (read on every call,
 * so a test sets it for one call and the next call works). AOT_CUDA_DOUBLE_DEVICES=0 makes a
 * machine without a GPU. AOT_CUDA_DOUBLE_MEMORY=bytes makes a device of that size:
 * cuMemAlloc fails past it. `aot_cuda_double_live()` counts the device blocks not yet freed,
 * for leak checks, `aot_cuda_double_live_bytes()` their bytes, and
 * `aot_cuda_double_streams_destroyed()` the streams destroyed,
 * `aot_cuda_double_function_lookups()` the cuModuleGetFunction calls,
 * `aot_cuda_double_copies_to_host()` the copies to the host, and
 * `aot_cuda_double_last_launch(unsigned[7])` the calling thread's last launch (grid x, y, z,
 * block x, y, z, dynamic shared bytes). A launch past a GPU's limits, or with another block
 * than the kernel's `.reqntid`, fails as on a GPU (CUDA_ERROR_INVALID_VALUE). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef int CUresult;
typedef unsigned long long CUdeviceptr;

enum {
    SUCCESS = 0, ERROR_INVALID_VALUE = 1, ERROR_OUT_OF_MEMORY = 2, ERROR_NO_DEVICE = 100,
    ERROR_INVALID_IMAGE = 200, ERROR_INVALID_PTX = 218, ERROR_NOT_FOUND = 500, ERROR_LAUNCH_FAILED = 719,
};

static int failing(const char *what) {
    const char *f = getenv("AOT_CUDA_DOUBLE_FAIL");
    return f && strcmp(f, what) == 0;
}

static _Atomic long live_blocks, streams_destroyed; /* for the tests' leak checks */
static _Atomic long long live_bytes;                 /* for AOT_CUDA_DOUBLE_MEMORY */
#define HEADER 256 /* each block's size sits before it, keeping the driver's 256-byte alignment */

long aot_cuda_double_live(void) { return live_blocks; }
long long aot_cuda_double_live_bytes(void) { return live_bytes; }
long aot_cuda_double_streams_destroyed(void) { return streams_destroyed; }

CUresult cuInit(unsigned flags) { (void)flags; return failing("init") ? ERROR_NO_DEVICE : SUCCESS; }

CUresult cuDeviceGetCount(int *count) {
    const char *n = getenv("AOT_CUDA_DOUBLE_DEVICES");
    *count = n ? atoi(n) : 1;
    return SUCCESS;
}

CUresult cuDeviceGet(int *device, int ordinal) { *device = ordinal; return SUCCESS; }

static int context_token;
CUresult cuDevicePrimaryCtxRetain(void **ctx, int device) { (void)device; *ctx = &context_token; return SUCCESS; }
CUresult cuCtxSetCurrent(void *ctx) { return ctx == &context_token ? SUCCESS : ERROR_INVALID_VALUE; }

static int stream_token;
CUresult cuStreamCreate(void **stream, unsigned flags) { (void)flags; *stream = &stream_token; return SUCCESS; }
CUresult cuStreamSynchronize(void *stream) { (void)stream; return SUCCESS; } /* launches run to completion */

/* Events hold the host's clock when recorded: launches run to completion, so the time between
 * two events is the work between them (on the emulated grid: a time that means nothing). */
typedef struct { double seconds; } event;
CUresult cuEventCreate(void **out, unsigned flags) {
    (void)flags;
    event *e = calloc(1, sizeof *e);
    if (!e) return ERROR_OUT_OF_MEMORY;
    *out = e;
    return SUCCESS;
}
CUresult cuEventRecord(void *e, void *stream) {
    (void)stream;
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    ((event *)e)->seconds = t.tv_sec + t.tv_nsec * 1e-9;
    return SUCCESS;
}
CUresult cuEventSynchronize(void *e) { return e ? SUCCESS : ERROR_INVALID_VALUE; }
CUresult cuEventElapsedTime(float *ms, void *start, void *stop) {
    *ms = (float)((((event *)stop)->seconds - ((event *)start)->seconds) * 1e3);
    return SUCCESS;
}
CUresult cuEventDestroy_v2(void *e) { free(e); return SUCCESS; }

CUresult cuStreamDestroy_v2(void *stream) {
    if (stream != &stream_token) return ERROR_INVALID_VALUE;
    streams_destroyed++;
    return SUCCESS;
}

typedef int (*emu_launch_fn)(const char *, int64_t *, const uint32_t *, uint32_t);
typedef int32_t (*emu_params_fn)(const char *);
typedef struct { emu_launch_fn launch; emu_params_fn params; } module;
typedef struct { module *m; char *name; int32_t params; } function;

enum { CU_JIT_ERROR_LOG_BUFFER = 5, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6 };

static void jit_log(unsigned n, const int *options, void **values, const char *text) {
    char *buf = NULL;
    size_t cap = 0;
    for (unsigned i = 0; i < n; i++) {
        if (options[i] == CU_JIT_ERROR_LOG_BUFFER) buf = values[i];
        if (options[i] == CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES) cap = (size_t)(uintptr_t)values[i];
    }
    if (buf && cap) snprintf(buf, cap, "%s", text);
}

CUresult cuModuleLoadDataEx(void **out, const void *image, unsigned n, const int *options, void **values) {
    if (failing("load")) {
        jit_log(n, options, values, "ptxas fatal   : injected by the driver double");
        return ERROR_INVALID_PTX;
    }
    uint64_t h = 1469598103934665603ULL;
    for (const unsigned char *p = image; *p; p++) h = (h ^ *p) * 1099511628211ULL;
    const char *dir = getenv("AOT_CUDA_DOUBLE_KERNELS");
    char path[4096], log[4300];
    snprintf(path, sizeof path, "%s/%016llx.so", dir ? dir : ".", (unsigned long long)h);
    void *lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    module *m = lib ? malloc(sizeof *m) : NULL;
    if (m) {
        m->launch = (emu_launch_fn)(uintptr_t)dlsym(lib, "aot_emu_launch");
        m->params = (emu_params_fn)(uintptr_t)dlsym(lib, "aot_emu_params");
    }
    if (!m || !m->launch || !m->params) {
        snprintf(log, sizeof log, "driver double: no host build of this PTX at %s (%s)", path,
                 lib ? "not a companion library" : dlerror());
        jit_log(n, options, values, log);
        free(m);
        return ERROR_INVALID_IMAGE;
    }
    *out = m;
    return SUCCESS;
}

static _Atomic long function_lookups; /* cuModuleGetFunction calls, for the tests */
static _Thread_local unsigned last_launch[7]; /* this thread's last launch: grid, block, shared bytes */

long aot_cuda_double_function_lookups(void) { return function_lookups; }
void aot_cuda_double_last_launch(unsigned out[7]) { memcpy(out, last_launch, sizeof last_launch); }

CUresult cuModuleGetFunction(void **out, void *mod, const char *name) {
    module *m = mod;
    function_lookups++;
    int32_t params = m->params(name);
    if (params < 0) return ERROR_NOT_FOUND;
    function *f = malloc(sizeof *f);
    if (!f || !(f->name = strdup(name))) { free(f); return ERROR_OUT_OF_MEMORY; }
    f->m = m, f->params = params;
    *out = f; /* one per lookup, never freed: a test's handful */
    return SUCCESS;
}

/* A GPU's limits (compute capability 8.x/9.x): 1024 threads a block (64 along z), grids of
 * 2^31-1 x 65535 x 65535 blocks, 48 KiB of dynamic shared memory without an opt-in. */
CUresult cuLaunchKernel(void *fn, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,
                        unsigned bz, unsigned shared, void *stream, void **params, void **extra) {
    (void)stream, (void)extra;
    function *f = fn;
    if (failing("launch")) return ERROR_LAUNCH_FAILED;
    unsigned dims[7] = {gx, gy, gz, bx, by, bz, shared};
    memcpy(last_launch, dims, sizeof dims);
    if (!gx || !gy || !gz || !bx || !by || !bz || gx > 0x7FFFFFFFu || gy > 65535 || gz > 65535 || bz > 64 ||
        (unsigned long long)bx * by * bz > 1024 || shared > 48 * 1024)
        return ERROR_INVALID_VALUE;
    int64_t slots[f->params > 0 ? f->params : 1];
    for (int32_t i = 0; i < f->params; i++) memcpy(&slots[i], params[i], 8);
    int rc = f->m->launch(f->name, slots, dims, shared);
    return rc == 3 ? ERROR_INVALID_VALUE : rc ? ERROR_LAUNCH_FAILED : SUCCESS;
}

CUresult cuMemAlloc_v2(CUdeviceptr *out, size_t bytes) {
    if (failing("oom")) return ERROR_OUT_OF_MEMORY;
    const char *size = getenv("AOT_CUDA_DOUBLE_MEMORY");
    long long total = atomic_fetch_add(&live_bytes, (long long)bytes) + (long long)bytes;
    if (size && total > atoll(size)) {
        live_bytes -= (long long)bytes;
        return ERROR_OUT_OF_MEMORY;
    }
    char *p = aligned_alloc(256, HEADER + (bytes + 255) / 256 * 256);
    if (!p) {
        live_bytes -= (long long)bytes;
        return ERROR_OUT_OF_MEMORY;
    }
    memcpy(p, &bytes, sizeof bytes);
    memset(p + HEADER, 0xA5, bytes); /* device memory starts as garbage, not zeros */
    live_blocks++;
    *out = (CUdeviceptr)(uintptr_t)(p + HEADER);
    return SUCCESS;
}

CUresult cuMemFree_v2(CUdeviceptr p) {
    if (!p) return SUCCESS;
    char *block = (char *)(uintptr_t)p - HEADER;
    size_t bytes;
    memcpy(&bytes, block, sizeof bytes);
    live_bytes -= (long long)bytes;
    free(block);
    live_blocks--;
    return SUCCESS;
}

CUresult cuMemcpyHtoDAsync_v2(CUdeviceptr dst, const void *src, size_t n, void *s) {
    (void)s;
    memcpy((void *)(uintptr_t)dst, src, n);
    return SUCCESS;
}

static _Atomic long copies_to_host; /* cuMemcpyDtoH calls, for the tests */
long aot_cuda_double_copies_to_host(void) { return copies_to_host; }

CUresult cuMemcpyDtoHAsync_v2(void *dst, CUdeviceptr src, size_t n, void *s) {
    (void)s;
    copies_to_host++;
    memcpy(dst, (const void *)(uintptr_t)src, n);
    return SUCCESS;
}

CUresult cuMemcpyDtoDAsync_v2(CUdeviceptr dst, CUdeviceptr src, size_t n, void *s) {
    (void)s;
    memmove((void *)(uintptr_t)dst, (const void *)(uintptr_t)src, n);
    return SUCCESS;
}

CUresult cuGetErrorString(CUresult rc, const char **text) {
    static const struct { CUresult rc; const char *text; } NAMES[] = {
        {SUCCESS, "no error"}, {ERROR_INVALID_VALUE, "invalid argument"},
        {ERROR_OUT_OF_MEMORY, "out of memory"}, {ERROR_NO_DEVICE, "no CUDA-capable device is detected"},
        {ERROR_INVALID_IMAGE, "device kernel image is invalid"},
        {ERROR_INVALID_PTX, "a PTX JIT compilation failed"}, {ERROR_NOT_FOUND, "named symbol not found"},
        {ERROR_LAUNCH_FAILED, "unspecified launch failure"},
    };
    for (size_t i = 0; i < sizeof NAMES / sizeof NAMES[0]; i++)
        if (NAMES[i].rc == rc) { *text = NAMES[i].text; return SUCCESS; }
    *text = NULL;
    return ERROR_INVALID_VALUE;
}
