/* cuda_copy.c - copies between the host and the device on the calling thread's stream, and
 * the device copies of the host code's constants. */
#include "cuda_internal.h"

#include <pthread.h>
#include <stdlib.h>

enum copy_kind { TO_DEVICE, TO_HOST, ON_DEVICE };

/* A copy on the calling thread's stream; one that touches host memory (the caller's, or a
 * stack temporary) is done before it returns. */
static int copy(enum copy_kind kind, void *dst, const void *src, int64_t bytes) {
    static const char *const WHAT[] = {"copy to the device", "copy to the host", "device copy"};
    if (bytes <= 0) return AOT_OK;
    int rc = aot__cuda_ready();
    if (rc != AOT_OK) return rc;
    CUdeviceptr to = (CUdeviceptr)(uintptr_t)dst, from = (CUdeviceptr)(uintptr_t)src;
    CUstream stream = aot__cuda_stream();
    CUresult r = kind == TO_DEVICE ? aot__cu.MemcpyHtoDAsync(to, src, (size_t)bytes, stream)
                 : kind == TO_HOST ? aot__cu.MemcpyDtoHAsync(dst, from, (size_t)bytes, stream)
                                   : aot__cu.MemcpyDtoDAsync(to, from, (size_t)bytes, stream);
    if (r == 0 && kind != ON_DEVICE) r = aot__cu.StreamSynchronize(stream);
    return r ? aot__cuda_error(r, WHAT[kind]) : AOT_OK;
}

int aot_gpu_copy_to_device(void *dst, const void *src, int64_t bytes) { return copy(TO_DEVICE, dst, src, bytes); }
int aot_gpu_copy_to_host(void *dst, const void *src, int64_t bytes) { return copy(TO_HOST, dst, src, bytes); }
int aot_gpu_copy(void *dst, const void *src, int64_t bytes) { return copy(ON_DEVICE, dst, src, bytes); }

/* A device copy of a constant buffer of the host code, made on first use and kept for the
 * process's life (the constants of a model, like its code, are loaded once; they are not
 * counted in the allocator's statistics). */
typedef struct constant {
    const void *host;
    void *device;
    struct constant *next;
} constant;

static constant *constants;
static pthread_mutex_t constant_lock = PTHREAD_MUTEX_INITIALIZER;

void *aot_gpu_constant(const void *host, int64_t bytes) {
    pthread_mutex_lock(&constant_lock);
    for (constant *c = constants; c; c = c->next)
        if (c->host == host) {
            pthread_mutex_unlock(&constant_lock);
            return c->device;
        }
    pthread_mutex_unlock(&constant_lock);
    constant *c = malloc(sizeof *c);
    CUdeviceptr device = 0;
    int rc = c ? aot__cuda_ready() : aot_set_error(AOT_ERR_OUT_OF_MEMORY, "out of host memory");
    if (rc == AOT_OK && aot__cu.MemAlloc(&device, (size_t)(bytes > 0 ? bytes : 1)) != 0)
        rc = aot_set_error(AOT_ERR_OUT_OF_MEMORY, "out of device memory for a constant of %lld bytes",
                           (long long)bytes);
    if (rc == AOT_OK) rc = aot_gpu_copy_to_device((void *)(uintptr_t)device, host, bytes);
    if (rc != AOT_OK) {
        if (device) aot__cu.MemFree(device);
        free(c);
        return NULL;
    }
    pthread_mutex_lock(&constant_lock);
    *c = (constant){host, (void *)(uintptr_t)device, constants};
    constants = c; /* a racing thread's copy of the same constant is harmless */
    pthread_mutex_unlock(&constant_lock);
    return c->device;
}

