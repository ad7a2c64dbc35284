/* cuda_launch.c - the artifact's PTX module, loaded once, and kernel launches on the calling
 * thread's stream. */
#include "cuda_internal.h"

#include <pthread.h>

static pthread_mutex_t module_lock = PTHREAD_MUTEX_INITIALIZER;

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
    CUresult r = aot__cu.ModuleLoadDataEx(&module, m->ptx, 2, options, values);
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
    CUresult r = aot__cu.ModuleGetFunction(&f, module_of(m), name);
    if (r != 0) {
        aot_set_error(AOT_ERR_RUNTIME, "kernel '%s' is not in this library's PTX (CUDA error %d)", name, r);
        return NULL;
    }
    __atomic_store_n((CUfunction *)&m->functions[index], f, __ATOMIC_RELEASE); /* racers store the same */
    return f;
}

int aot_gpu_launch(aot_gpu_module *m, int32_t kernel, const char *name, int64_t *params, int32_t n,
                   const int64_t *shape) {
    int rc = aot__cuda_ready();
    if (rc == AOT_OK && !module_of(m)) rc = load_module(m);
    if (rc != AOT_OK) return rc;
    CUfunction f = function_of(m, kernel, name);
    if (!f) return AOT_ERR_RUNTIME;
    void *args[n > 0 ? n : 1];
    for (int32_t i = 0; i < n; i++) args[i] = &params[i]; /* pointers and dims: 8 bytes each */
    CUresult r = aot__cu.LaunchKernel(f, (unsigned)shape[0], (unsigned)shape[1], (unsigned)shape[2], (unsigned)shape[3],
                                 (unsigned)shape[4], (unsigned)shape[5], (unsigned)shape[6], aot__cuda_stream(), args,
                                 NULL);
    return r ? aot__cuda_error(r, "kernel launch") : AOT_OK;
}

