/* cuda.c - the GPU target's runtime: the CUDA driver API opened with dlopen, PTX modules
 * loaded once, kernels launched on a stream per calling thread, and a caching device
 * allocator. Compiled only into artifacts whose target has device kernels.
 *
 * Nothing here links against CUDA: `libcuda.so.1` (or the library AOT_CUDA_LIBRARY names,
 * such as the tests' driver double) is opened on the first call that needs the device,
 * once per process. Every failure is an error code with aot_last_error() saying what went
 * wrong ("no CUDA driver found: libcuda.so.1 ...", the JIT log of a PTX the driver
 * rejected, the driver's own error string), never a crash.
 *
 * Generated host code sees device buffers as plain pointers (CUdeviceptr values): it
 * allocates them with aot_gpu_alloc right before the kernel that needs them and frees them
 * right after, copies with aot_gpu_copy_*, and launches with aot_gpu_launch (the grid, block
 * and dynamic shared memory of the kernel's launch record). All work of a
 * calling thread goes to that thread's stream, in order; copies to the host wait for it. The
 * stream is destroyed when its thread exits.
 *
 * The allocator keeps freed blocks in power-of-two size bins (cuMemAlloc costs
 * milliseconds, and a model allocates the same sizes on every call). A block freed by one
 * thread's stream is handed to another thread only after the first stream has finished
 * with it. AOT_ALLOCATOR=system turns the cache off, as on the host.
 *
 * A device memory limit (AOT_GPU_MEMORY_LIMIT=bytes, read once, or aot_gpu_set_memory_limit)
 * caps what the allocator holds on the device, as AOT_MEMORY_LIMIT does on the host: the
 * capacity of every live block plus the cached ones. An allocation that would pass it
 * first gives the cached blocks back to the driver, then takes its exact size uncached,
 * then fails with "out of device memory: needs N bytes (device memory limit ...)". A
 * cuMemAlloc that fails likewise gives the cached blocks back and tries once more: blocks
 * cached for other sizes must not make a call fail on a device they fill. */
#include "../aot_internal.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef int CUresult;
typedef int CUdevice;
typedef unsigned long long CUdeviceptr;
typedef struct CUctx_st *CUcontext;
typedef struct CUmod_st *CUmodule;
typedef struct CUfunc_st *CUfunction;
typedef struct CUstream_st *CUstream;

enum { CU_JIT_ERROR_LOG_BUFFER = 5, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6 };

/* The driver entry points this runtime uses, by the names libcuda exports. */
static struct {
    CUresult (*Init)(unsigned);
    CUresult (*DeviceGetCount)(int *);
    CUresult (*DeviceGet)(CUdevice *, int);
    CUresult (*DevicePrimaryCtxRetain)(CUcontext *, CUdevice);
    CUresult (*CtxSetCurrent)(CUcontext);
    CUresult (*ModuleLoadDataEx)(CUmodule *, const void *, unsigned, int *, void **);
    CUresult (*ModuleGetFunction)(CUfunction *, CUmodule, const char *);
    CUresult (*LaunchKernel)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned,
                             unsigned, unsigned, CUstream, void **, void **);
    CUresult (*MemAlloc)(CUdeviceptr *, size_t);
    CUresult (*MemFree)(CUdeviceptr);
    CUresult (*MemcpyHtoDAsync)(CUdeviceptr, const void *, size_t, CUstream);
    CUresult (*MemcpyDtoHAsync)(void *, CUdeviceptr, size_t, CUstream);
    CUresult (*MemcpyDtoDAsync)(CUdeviceptr, CUdeviceptr, size_t, CUstream);
    CUresult (*StreamCreate)(CUstream *, unsigned);
    CUresult (*StreamSynchronize)(CUstream);
    CUresult (*StreamDestroy)(CUstream);
    CUresult (*GetErrorString)(CUresult, const char **);
} cu;

static const struct { const char *name; size_t offset; } SYMBOLS[] = {
#define SYM(field, name) {name, offsetof(__typeof__(cu), field)}
    SYM(Init, "cuInit"), SYM(DeviceGetCount, "cuDeviceGetCount"), SYM(DeviceGet, "cuDeviceGet"),
    SYM(DevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain"), SYM(CtxSetCurrent, "cuCtxSetCurrent"),
    SYM(ModuleLoadDataEx, "cuModuleLoadDataEx"), SYM(ModuleGetFunction, "cuModuleGetFunction"),
    SYM(LaunchKernel, "cuLaunchKernel"), SYM(MemAlloc, "cuMemAlloc_v2"), SYM(MemFree, "cuMemFree_v2"),
    SYM(MemcpyHtoDAsync, "cuMemcpyHtoDAsync_v2"), SYM(MemcpyDtoHAsync, "cuMemcpyDtoHAsync_v2"),
    SYM(MemcpyDtoDAsync, "cuMemcpyDtoDAsync_v2"), SYM(StreamCreate, "cuStreamCreate"),
    SYM(StreamSynchronize, "cuStreamSynchronize"), SYM(StreamDestroy, "cuStreamDestroy_v2"),
    SYM(GetErrorString, "cuGetErrorString"),
#undef SYM
};

static pthread_once_t init_once = PTHREAD_ONCE_INIT;
static char init_error[512] = "CUDA initialisation did not finish"; /* "" once ready */
static CUcontext context;

static void open_driver(void) {
    const char *path = getenv("AOT_CUDA_LIBRARY");
    const char *name = path && *path ? path : "libcuda.so.1";
    void *lib = dlopen(name, RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        snprintf(init_error, sizeof init_error, "no CUDA driver found: %s (%s)", name, dlerror());
        return;
    }
    for (size_t i = 0; i < sizeof SYMBOLS / sizeof SYMBOLS[0]; i++) {
        void *f = dlsym(lib, SYMBOLS[i].name);
        if (!f) {
            snprintf(init_error, sizeof init_error, "the CUDA driver %s has no %s", name, SYMBOLS[i].name);
            return;
        }
        memcpy((char *)&cu + SYMBOLS[i].offset, &f, sizeof f);
    }
    int count = 0;
    CUdevice device;
    CUresult rc = cu.Init(0);
    if (rc == 0) rc = cu.DeviceGetCount(&count);
    if (rc == 0 && count == 0) {
        snprintf(init_error, sizeof init_error, "the CUDA driver %s found no GPU", name);
        return;
    }
    if (rc == 0) rc = cu.DeviceGet(&device, 0);
    if (rc == 0) rc = cu.DevicePrimaryCtxRetain(&context, device);
    if (rc != 0) {
        const char *what = NULL;
        cu.GetErrorString(rc, &what);
        snprintf(init_error, sizeof init_error, "CUDA initialisation failed: %s (error %d)",
                 what ? what : "unknown error", rc);
        return;
    }
    init_error[0] = '\0';
}

static __thread CUstream thread_stream; /* this thread's own */
static __thread CUstream caller_stream; /* a device entry's caller's, during its call */
static __thread int thread_ready;

static CUstream stream_now(void) { return caller_stream ? caller_stream : thread_stream; }

/* A device entry (NAME_F_device) runs on its caller's stream: set for the call, then the
 * previous one back. */
void *aot_gpu_swap_stream(void *stream) {
    void *previous = caller_stream;
    caller_stream = stream;
    return previous;
}

static pthread_key_t stream_key; /* destroys a thread's stream when the thread exits */
static void forget_stream(CUstream stream);

static void end_of_thread(void *stream) {
    cu.StreamSynchronize(stream);
    forget_stream(stream);
    cu.StreamDestroy(stream);
}

static void make_key(void) { pthread_key_create(&stream_key, end_of_thread); }

/* The driver ready, this thread's context current and its stream made; else an error. */
static int ready(void) {
    if (thread_ready) return AOT_OK;
    pthread_once(&init_once, open_driver);
    if (init_error[0]) return aot_set_error(AOT_ERR_RUNTIME, "%s", init_error);
    static pthread_once_t key_once = PTHREAD_ONCE_INIT;
    pthread_once(&key_once, make_key);
    CUresult rc = cu.CtxSetCurrent(context);
    if (rc == 0) rc = cu.StreamCreate(&thread_stream, 0);
    if (rc != 0) return aot_set_error(AOT_ERR_RUNTIME, "CUDA stream creation failed (error %d)", rc);
    pthread_setspecific(stream_key, thread_stream);
    thread_ready = 1;
    return AOT_OK;
}

/* For an artifact built for two targets (--target cuda,cpu): whether its entries run on the
 * GPU in this process. AOT_DEVICE=cpu or cuda forces one (cuda then fails each call with the
 * reason when there is no usable GPU); otherwise the GPU when the driver loads and has a
 * device. Decided once. */
static pthread_once_t choice_once = PTHREAD_ONCE_INIT;
static int chosen_device;

static void choose_device(void) {
    const char *forced = getenv("AOT_DEVICE");
    if (forced && strcmp(forced, "cpu") == 0) return;
    if (forced && strcmp(forced, "cuda") == 0) {
        chosen_device = 1;
        return;
    }
    pthread_once(&init_once, open_driver);
    chosen_device = init_error[0] == '\0';
}

int aot_gpu_use_device(void) {
    pthread_once(&choice_once, choose_device);
    return chosen_device;
}

static int driver_error(CUresult rc, const char *what) {
    const char *text = NULL;
    if (cu.GetErrorString) cu.GetErrorString(rc, &text);
    return aot_set_error(rc == 2 ? AOT_ERR_OUT_OF_MEMORY : AOT_ERR_RUNTIME, "CUDA %s failed: %s (error %d)",
                         what, text ? text : "unknown error", rc);
}

/* ---- the caching allocator ------------------------------------------------------------ */

#define NUM_BINS 48
#define CACHE_LIMIT_BYTES ((int64_t)4 << 30)

typedef struct cached {
    CUdeviceptr ptr;
    int64_t capacity;
    CUstream stream; /* the stream that last used it */
    struct cached *next;
} cached;

typedef struct live {
    CUdeviceptr ptr;
    int64_t size, capacity;
    int64_t *dims; /* runtime-owned dims of a device entry's result, or NULL */
    struct live *next;
} live;

static pthread_mutex_t alloc_lock = PTHREAD_MUTEX_INITIALIZER;
static cached *bins[NUM_BINS];
static live *live_blocks; /* device blocks handed out, for their sizes at free */
static int64_t cached_bytes;
static aot_alloc_stats device_stats;
static int use_cache;
static int64_t live_capacity; /* capacity of the device blocks handed out and not yet freed */
static int64_t device_limit;  /* 0: none; else live_capacity + cached_bytes stays below */
static int settings_read;     /* AOT_ALLOCATOR and AOT_GPU_MEMORY_LIMIT read (under alloc_lock) */

static void read_settings(void) { /* caller holds alloc_lock */
    if (settings_read) return;
    const char *mode = getenv("AOT_ALLOCATOR");
    use_cache = !(mode && strcmp(mode, "system") == 0);
    device_limit = aot__parse_limit(getenv("AOT_GPU_MEMORY_LIMIT"));
    settings_read = 1;
}

/* Every cached block, taken out of the bins (cached_bytes updated); caller holds alloc_lock. */
static cached *take_all_cached(void) {
    cached *all = NULL;
    for (int b = 0; b < NUM_BINS; b++) {
        while (bins[b]) {
            cached *c = bins[b];
            bins[b] = c->next;
            c->next = all;
            all = c;
        }
    }
    cached_bytes = 0;
    return all;
}

/* Blocks taken out of the cache, back to the driver once their streams are done. */
static void free_cached(cached *all) {
    while (all) {
        cached *c = all;
        all = c->next;
        if (c->stream) cu.StreamSynchronize(c->stream);
        cu.MemFree(c->ptr);
        free(c);
    }
}

static int bin_of(int64_t bytes, int64_t *capacity) {
    int b = 8; /* 256 bytes: the driver's own alignment */
    while (((int64_t)1 << b) < bytes) b++;
    *capacity = (int64_t)1 << b;
    return b < NUM_BINS ? b : -1;
}

void *aot_gpu_alloc(int64_t bytes) {
    if (ready() != AOT_OK) return NULL;
    if (bytes <= 0) bytes = 1;
    int64_t capacity;
    int b = bin_of(bytes, &capacity);
    CUdeviceptr ptr = 0;
    CUstream other = NULL;
    cached *dropped = NULL;
    pthread_mutex_lock(&alloc_lock);
    read_settings();
    if (!use_cache || b < 0) capacity = bytes;
    if (use_cache && b >= 0 && bins[b]) {
        cached *c = bins[b];
        bins[b] = c->next;
        ptr = c->ptr, other = c->stream;
        cached_bytes -= capacity;
        free(c);
        device_stats.cache_hits++;
    } else if (device_limit > 0 && live_capacity + cached_bytes + capacity > device_limit) {
        dropped = take_all_cached(); /* room first from the cache, then from the size rounding */
        if (live_capacity + capacity > device_limit) capacity = bytes;
        if (live_capacity + capacity > device_limit) {
            int64_t limit = device_limit, held = live_capacity;
            pthread_mutex_unlock(&alloc_lock);
            free_cached(dropped);
            aot_set_error(AOT_ERR_OUT_OF_MEMORY,
                          "out of device memory: needs %lld bytes (device memory limit %lld bytes, "
                          "%lld held)", (long long)bytes, (long long)limit, (long long)held);
            return NULL;
        }
    }
    live_capacity += capacity; /* reserved, so that racing threads stay under the limit */
    pthread_mutex_unlock(&alloc_lock);
    free_cached(dropped);
    if (ptr && other && other != stream_now()) cu.StreamSynchronize(other); /* its last user is done */
    if (!ptr) {
        CUresult rc = cu.MemAlloc(&ptr, (size_t)capacity);
        if (rc != 0) { /* the device is short: give back what the cache holds, try once more */
            pthread_mutex_lock(&alloc_lock);
            cached *all = take_all_cached();
            pthread_mutex_unlock(&alloc_lock);
            if (all) {
                free_cached(all);
                rc = cu.MemAlloc(&ptr, (size_t)capacity);
            }
        }
        if (rc != 0) {
            pthread_mutex_lock(&alloc_lock);
            live_capacity -= capacity;
            pthread_mutex_unlock(&alloc_lock);
            aot_set_error(AOT_ERR_OUT_OF_MEMORY, "out of device memory allocating %lld bytes (CUDA error %d)",
                          (long long)bytes, rc);
            return NULL;
        }
    }
    live *l = malloc(sizeof *l);
    if (!l) {
        cu.MemFree(ptr);
        pthread_mutex_lock(&alloc_lock);
        live_capacity -= capacity;
        pthread_mutex_unlock(&alloc_lock);
        aot_set_error(AOT_ERR_OUT_OF_MEMORY, "out of host memory");
        return NULL;
    }
    pthread_mutex_lock(&alloc_lock);
    *l = (live){ptr, bytes, capacity, NULL, live_blocks};
    live_blocks = l;
    device_stats.num_allocs++;
    device_stats.bytes_in_use += bytes;
    if (device_stats.bytes_in_use > device_stats.peak_bytes_in_use)
        device_stats.peak_bytes_in_use = device_stats.bytes_in_use;
    pthread_mutex_unlock(&alloc_lock);
    return (void *)(uintptr_t)ptr;
}

void aot_gpu_free(void *p) {
    if (!p) return;
    CUdeviceptr ptr = (CUdeviceptr)(uintptr_t)p;
    pthread_mutex_lock(&alloc_lock);
    live **at = &live_blocks;
    while (*at && (*at)->ptr != ptr) at = &(*at)->next;
    live *l = *at;
    if (!l) {
        pthread_mutex_unlock(&alloc_lock);
        return;
    }
    *at = l->next;
    device_stats.num_frees++;
    device_stats.bytes_in_use -= l->size;
    live_capacity -= l->capacity;
    int64_t capacity;
    int b = bin_of(l->capacity, &capacity);
    cached *c = use_cache && b >= 0 && capacity == l->capacity &&
                cached_bytes + capacity <= CACHE_LIMIT_BYTES ? malloc(sizeof *c) : NULL;
    if (c) {
        *c = (cached){ptr, capacity, stream_now(), bins[b]};
        bins[b] = c;
        cached_bytes += capacity;
    }
    pthread_mutex_unlock(&alloc_lock);
    free(l->dims);
    free(l);
    if (!c) {
        if (thread_ready) cu.StreamSynchronize(stream_now()); /* kernels may still read it */
        cu.MemFree(ptr);
    }
}

/* A stream about to be destroyed, already synchronised: its cached blocks are free to use. */
static void forget_stream(CUstream stream) {
    pthread_mutex_lock(&alloc_lock);
    for (int b = 0; b < NUM_BINS; b++)
        for (cached *c = bins[b]; c; c = c->next)
            if (c->stream == stream) c->stream = NULL;
    pthread_mutex_unlock(&alloc_lock);
}

void aot_gpu_release_cached_memory(void) {
    pthread_mutex_lock(&alloc_lock);
    cached *all = take_all_cached();
    pthread_mutex_unlock(&alloc_lock);
    free_cached(all);
}

void aot_gpu_set_memory_limit(int64_t bytes) {
    pthread_mutex_lock(&alloc_lock);
    read_settings();
    device_limit = bytes > 0 ? bytes : 0;
    cached *all = device_limit > 0 && live_capacity + cached_bytes > device_limit ? take_all_cached() : NULL;
    pthread_mutex_unlock(&alloc_lock);
    free_cached(all);
}

int64_t aot_gpu_get_memory_limit(void) {
    pthread_mutex_lock(&alloc_lock);
    read_settings();
    int64_t limit = device_limit;
    pthread_mutex_unlock(&alloc_lock);
    return limit;
}

int64_t aot_gpu_get_held_bytes(void) {
    pthread_mutex_lock(&alloc_lock);
    int64_t held = live_capacity + cached_bytes;
    pthread_mutex_unlock(&alloc_lock);
    return held;
}

void aot_gpu_get_alloc_stats(aot_alloc_stats *out) {
    pthread_mutex_lock(&alloc_lock);
    *out = device_stats;
    pthread_mutex_unlock(&alloc_lock);
}

void aot_gpu_reset_alloc_stats(void) {
    pthread_mutex_lock(&alloc_lock);
    int64_t in_use = device_stats.bytes_in_use;
    memset(&device_stats, 0, sizeof device_stats);
    device_stats.bytes_in_use = device_stats.peak_bytes_in_use = in_use;
    pthread_mutex_unlock(&alloc_lock);
}

/* ---- copies --------------------------------------------------------------------------- */

enum copy_kind { TO_DEVICE, TO_HOST, ON_DEVICE };

/* A copy on the calling thread's stream; one that touches host memory (the caller's, or a
 * stack temporary) is done before it returns. */
static int copy(enum copy_kind kind, void *dst, const void *src, int64_t bytes) {
    static const char *const WHAT[] = {"copy to the device", "copy to the host", "device copy"};
    if (bytes <= 0) return AOT_OK;
    int rc = ready();
    if (rc != AOT_OK) return rc;
    CUdeviceptr to = (CUdeviceptr)(uintptr_t)dst, from = (CUdeviceptr)(uintptr_t)src;
    CUstream stream = stream_now();
    CUresult r = kind == TO_DEVICE ? cu.MemcpyHtoDAsync(to, src, (size_t)bytes, stream)
                 : kind == TO_HOST ? cu.MemcpyDtoHAsync(dst, from, (size_t)bytes, stream)
                                   : cu.MemcpyDtoDAsync(to, from, (size_t)bytes, stream);
    if (r == 0 && kind != ON_DEVICE) r = cu.StreamSynchronize(stream);
    return r ? driver_error(r, WHAT[kind]) : AOT_OK;
}

int aot_gpu_copy_to_device(void *dst, const void *src, int64_t bytes) { return copy(TO_DEVICE, dst, src, bytes); }
int aot_gpu_copy_to_host(void *dst, const void *src, int64_t bytes) { return copy(TO_HOST, dst, src, bytes); }
int aot_gpu_copy(void *dst, const void *src, int64_t bytes) { return copy(ON_DEVICE, dst, src, bytes); }

static pthread_mutex_t module_lock = PTHREAD_MUTEX_INITIALIZER;

/* A device copy of a constant buffer of the host code, made on first use and kept for the
 * process's life (the constants of a model, like its code, are loaded once; they are not
 * counted in the allocator's statistics). */
typedef struct constant {
    const void *host;
    void *device;
    struct constant *next;
} constant;

static constant *constants;

void *aot_gpu_constant(const void *host, int64_t bytes) {
    pthread_mutex_lock(&module_lock);
    for (constant *c = constants; c; c = c->next)
        if (c->host == host) {
            pthread_mutex_unlock(&module_lock);
            return c->device;
        }
    pthread_mutex_unlock(&module_lock);
    constant *c = malloc(sizeof *c);
    CUdeviceptr device = 0;
    int rc = c ? ready() : aot_set_error(AOT_ERR_OUT_OF_MEMORY, "out of host memory");
    if (rc == AOT_OK && cu.MemAlloc(&device, (size_t)(bytes > 0 ? bytes : 1)) != 0)
        rc = aot_set_error(AOT_ERR_OUT_OF_MEMORY, "out of device memory for a constant of %lld bytes",
                           (long long)bytes);
    if (rc == AOT_OK) rc = aot_gpu_copy_to_device((void *)(uintptr_t)device, host, bytes);
    if (rc != AOT_OK) {
        if (device) cu.MemFree(device);
        free(c);
        return NULL;
    }
    pthread_mutex_lock(&module_lock);
    *c = (constant){host, (void *)(uintptr_t)device, constants};
    constants = c; /* a racing thread's copy of the same constant is harmless */
    pthread_mutex_unlock(&module_lock);
    return c->device;
}

/* ---- modules and launches ------------------------------------------------------------- */

/* m's loaded module, or NULL: read without the lock by every launch, so an acquire load that
 * pairs with load_module's release store (the module's handle is whole when seen). */
static CUmodule module_of(aot_gpu_module *m) { return __atomic_load_n(&m->module, __ATOMIC_ACQUIRE); }

static int load_module(aot_gpu_module *m) {
    pthread_mutex_lock(&module_lock);
    if (module_of(m)) {
        pthread_mutex_unlock(&module_lock);
        return AOT_OK;
    }
    char log[4096] = "";
    int options[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
    void *values[] = {log, (void *)(uintptr_t)sizeof log};
    CUmodule module = NULL;
    CUresult r = cu.ModuleLoadDataEx(&module, m->ptx, 2, options, values);
    if (r == 0) __atomic_store_n(&m->module, module, __ATOMIC_RELEASE);
    pthread_mutex_unlock(&module_lock);
    if (r == 0) return AOT_OK;
    log[sizeof log - 1] = '\0';
    return aot_set_error(AOT_ERR_RUNTIME, "the CUDA driver could not load this library's PTX (error %d)%s%s", r,
                         log[0] ? ": " : "", log);
}

/* Kernel `index`'s handle: looked up in the loaded module on its first launch, then kept in
 * the artifact's slot (one cuModuleGetFunction per kernel per load, not one per launch). */
static CUfunction function_of(aot_gpu_module *m, int32_t index, const char *name) {
    CUfunction f = __atomic_load_n((CUfunction *)&m->functions[index], __ATOMIC_ACQUIRE);
    if (f) return f;
    CUresult r = cu.ModuleGetFunction(&f, module_of(m), name);
    if (r != 0) {
        aot_set_error(AOT_ERR_RUNTIME, "kernel '%s' is not in this library's PTX (CUDA error %d)", name, r);
        return NULL;
    }
    __atomic_store_n((CUfunction *)&m->functions[index], f, __ATOMIC_RELEASE); /* racers store the same */
    return f;
}

int aot_gpu_launch(aot_gpu_module *m, int32_t kernel, const char *name, int64_t *params, int32_t n,
                   const int64_t *shape) {
    int rc = ready();
    if (rc == AOT_OK && !module_of(m)) rc = load_module(m);
    if (rc != AOT_OK) return rc;
    CUfunction f = function_of(m, kernel, name);
    if (!f) return AOT_ERR_RUNTIME;
    void *args[n > 0 ? n : 1];
    for (int32_t i = 0; i < n; i++) args[i] = &params[i]; /* pointers and dims: 8 bytes each */
    CUresult r = cu.LaunchKernel(f, (unsigned)shape[0], (unsigned)shape[1], (unsigned)shape[2], (unsigned)shape[3],
                                 (unsigned)shape[4], (unsigned)shape[5], (unsigned)shape[6], stream_now(), args,
                                 NULL);
    return r ? driver_error(r, "kernel launch") : AOT_OK;
}

/* ---- library calls: cuBLAS ------------------------------------------------------------ */

/* Matmuls go to cuBLAS when it can be opened: AOT_CUBLAS_LIBRARY names it (then failing to
 * open it is an error), else libcublas.so.13/.12/.11 from the library path; AOT_CUBLAS=0
 * turns it off. Without it (or for a dot cuBLAS cannot take) the host code launches the
 * library's own tiled kernel: the host code asks aot_gpu_gemm_takes first. */
typedef int cublasStatus;
typedef struct cublasContext *cublasHandle;

static struct {
    cublasStatus (*Create)(cublasHandle *);
    cublasStatus (*Destroy)(cublasHandle);
    cublasStatus (*SetStream)(cublasHandle, CUstream);
    cublasStatus (*GemmStridedBatchedEx)(cublasHandle, int, int, int, int, int, const void *, const void *,
                                         int, int, long long, const void *, int, int, long long,
                                         const void *, void *, int, int, long long, int, int, int);
} blas;

static const struct { const char *name; size_t offset; } BLAS_SYMBOLS[] = {
#define SYM(field, name) {name, offsetof(__typeof__(blas), field)}
    SYM(Create, "cublasCreate_v2"), SYM(Destroy, "cublasDestroy_v2"), SYM(SetStream, "cublasSetStream_v2"),
    SYM(GemmStridedBatchedEx, "cublasGemmStridedBatchedEx"),
#undef SYM
};

static pthread_once_t blas_once = PTHREAD_ONCE_INIT;
static char blas_error[512]; /* an explicitly named cuBLAS that could not be used */
static char blas_name[256];  /* the cuBLAS in use, "" for none */

static void open_blas(void) {
    const char *off = getenv("AOT_CUBLAS");
    if (off && strcmp(off, "0") == 0) return;
    const char *named = getenv("AOT_CUBLAS_LIBRARY");
    const char *const candidates[] = {named && *named ? named : "libcublas.so.13", "libcublas.so.12",
                                      "libcublas.so.11"};
    int tries = named && *named ? 1 : 3;
    for (int i = 0; i < tries; i++) {
        void *lib = dlopen(candidates[i], RTLD_NOW | RTLD_LOCAL);
        if (!lib) {
            if (tries == 1)
                snprintf(blas_error, sizeof blas_error, "cuBLAS not loaded: %s (%s)", candidates[i], dlerror());
            continue;
        }
        size_t j = 0;
        for (; j < sizeof BLAS_SYMBOLS / sizeof BLAS_SYMBOLS[0]; j++) {
            void *f = dlsym(lib, BLAS_SYMBOLS[j].name);
            if (!f) break;
            memcpy((char *)&blas + BLAS_SYMBOLS[j].offset, &f, sizeof f);
        }
        if (j == sizeof BLAS_SYMBOLS / sizeof BLAS_SYMBOLS[0]) {
            snprintf(blas_name, sizeof blas_name, "%s", candidates[i]);
            return;
        }
        if (tries == 1)
            snprintf(blas_error, sizeof blas_error, "cuBLAS %s has no %s", candidates[i], BLAS_SYMBOLS[j].name);
        dlclose(lib);
    }
}

const char *aot_gpu_blas_library(void) {
    pthread_once(&blas_once, open_blas);
    return blas_name[0] ? blas_name : NULL;
}

static __thread cublasHandle thread_blas;
static __thread int thread_blas_tried;
static pthread_key_t blas_key; /* destroys a thread's handle when the thread exits */

static void end_of_blas(void *handle) { blas.Destroy(handle); }
static void make_blas_key(void) { pthread_key_create(&blas_key, end_of_blas); }

/* This thread's cuBLAS handle, or NULL when there is no cuBLAS (or it cannot make one,
 * as on a machine whose GPU only the driver double provides). */
static cublasHandle blas_handle(void) {
    if (thread_blas_tried) return thread_blas;
    thread_blas_tried = 1;
    if (!aot_gpu_blas_library()) return NULL;
    static pthread_once_t key_once = PTHREAD_ONCE_INIT;
    pthread_once(&key_once, make_blas_key);
    if (blas.Create(&thread_blas) != 0) thread_blas = NULL;
    else pthread_setspecific(blas_key, thread_blas);
    return thread_blas;
}

enum { CUDA_R_32F = 0, CUDA_R_64F = 1, CUDA_R_16F = 2, CUDA_R_16BF = 14 };
enum { CUBLAS_COMPUTE_32F = 68, CUBLAS_COMPUTE_64F = 70, CUBLAS_GEMM_DEFAULT = -1 };

static int blas_type(int32_t dtype) {
    return dtype == AOT_F32 ? CUDA_R_32F : dtype == AOT_F64 ? CUDA_R_64F : dtype == AOT_F16 ? CUDA_R_16F
         : dtype == AOT_BF16 ? CUDA_R_16BF : -1;
}

int aot_gpu_gemm_takes(int32_t dtype, int64_t batch, int64_t m, int64_t n, int64_t k) {
    pthread_once(&blas_once, open_blas);
    if (blas_error[0]) return 1; /* aot_gpu_gemm reports it */
    if (blas_type(dtype) < 0 || k <= 0 || m > INT32_MAX || n > INT32_MAX || k > INT32_MAX || batch > INT32_MAX)
        return 0;
    if (batch <= 0 || m <= 0 || n <= 0) return 1; /* an empty result: nothing to do */
    return ready() == AOT_OK && blas_handle() != NULL;
}

int aot_gpu_gemm(int32_t dtype, int32_t lhs_transposed, int32_t rhs_transposed, int64_t batch, int64_t m,
                 int64_t n, int64_t k, const void *lhs, const void *rhs, void *out) {
    if (blas_error[0]) return aot_set_error(AOT_ERR_RUNTIME, "%s", blas_error);
    if (batch <= 0 || m <= 0 || n <= 0) return AOT_OK;
    cublasHandle handle = blas_handle();
    if (!handle) return aot_set_error(AOT_ERR_RUNTIME, "no cuBLAS handle (aot_gpu_gemm_takes said no)");
    /* Row-major out[m,n] = lhs[m,k] rhs[k,n] is column-major out^T = rhs^T lhs^T: cuBLAS's
     * A is our rhs and its B our lhs, each read transposed when it is stored [n,k] / [k,m]. */
    int type = blas_type(dtype), wide = type == CUDA_R_64F;
    double one = 1.0, zero = 0.0;
    float one_f = 1.0f, zero_f = 0.0f;
    cublasStatus s = blas.SetStream(handle, stream_now());
    if (s == 0)
        s = blas.GemmStridedBatchedEx(handle, rhs_transposed ? 1 : 0, lhs_transposed ? 1 : 0, (int)n, (int)m,
                                      (int)k, wide ? (void *)&one : (void *)&one_f, rhs, type,
                                      (int)(rhs_transposed ? k : n), (long long)(k * n), lhs, type,
                                      (int)(lhs_transposed ? m : k), (long long)(m * k),
                                      wide ? (void *)&zero : (void *)&zero_f, out, type, (int)n,
                                      (long long)(m * n), (int)batch,
                                      wide ? CUBLAS_COMPUTE_64F : CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
    return s ? aot_set_error(AOT_ERR_RUNTIME, "cuBLAS gemm failed (status %d) for %lldx[%lld,%lld]x[%lld,%lld]",
                             s, (long long)batch, (long long)m, (long long)k, (long long)k, (long long)n)
             : AOT_OK;
}

/* ---- results of a device entry -------------------------------------------------------- */

static live *find_live(void *p) {
    live *l = live_blocks;
    while (l && l->ptr != (CUdeviceptr)(uintptr_t)p) l = l->next;
    return l;
}

/* The device's memory for a device entry's results (tensor.c's hand-over): runtime-owned
 * dims are recorded with the block and freed with it. */
static int64_t device_block_size(const void *p) {
    pthread_mutex_lock(&alloc_lock);
    live *l = find_live((void *)p);
    int64_t size = l ? l->size : -1;
    pthread_mutex_unlock(&alloc_lock);
    return size;
}

static int64_t *device_own_dims(void *data, int32_t rank) {
    int64_t *dims = malloc((size_t)rank * sizeof(int64_t));
    if (!dims) {
        aot_set_error(AOT_ERR_OUT_OF_MEMORY, "out of host memory");
        return NULL;
    }
    pthread_mutex_lock(&alloc_lock);
    find_live(data)->dims = dims;
    pthread_mutex_unlock(&alloc_lock);
    return dims;
}

static const aot__memory device_memory = {aot_gpu_alloc, aot_gpu_free, aot_gpu_copy, device_block_size,
                                          device_own_dims, NULL};

int aot_prepare_device_result(aot_tensor *results, int32_t index, const aot_value_info *info,
                              const char *entry, const int64_t *dims, int32_t *owned) {
    return aot__prepare_result(&device_memory, results, index, info, entry, dims, owned);
}

int aot_adopt_device_result(aot_tensor *results, int32_t index, const aot_value_info *info,
                            const char *entry, void *buffer, const int64_t *dims) {
    return aot__adopt_result(&device_memory, results, index, info, entry, buffer, dims);
}

void aot_gpu_tensor_free(aot_tensor *t) {
    if (!t || !t->data) return;
    pthread_mutex_lock(&alloc_lock);
    live *l = find_live(t->data);
    if (l && l->dims && l->dims == t->dims) t->dims = NULL; /* freed with the block */
    pthread_mutex_unlock(&alloc_lock);
    aot_gpu_free(t->data);
    t->data = NULL;
}

void aot_unprepare_device_result(aot_tensor *results, int32_t index, int32_t owned) {
    if (owned && results) aot_gpu_tensor_free(&results[index]);
}
