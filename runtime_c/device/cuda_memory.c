/* cuda_memory.c - the device allocator: the runtime's size-class cache (cache.c: bins,
 * statistics, the memory limit, what is given back when) over cuMemAlloc and cuMemFree.
 *
 * Size classes are powers of two from 256 bytes (the driver's own alignment) up to 2^47;
 * at most 4 GiB sits in the bins. A block freed by one thread's stream is handed to another
 * thread only after the first stream has finished with it, and given back to the driver
 * only after its stream is done. The memory limit is AOT_GPU_MEMORY_LIMIT (read once) or
 * aot_gpu_set_memory_limit; a call over it fails with "out of device memory: needs N bytes
 * (device memory limit ...)". Generated code's device pointers carry no header, so the
 * live blocks are kept in a list, for their sizes at free and a result's dims. */
#include "cuda_internal.h"

#include "../cache.h"

#include <pthread.h>
#include <stdlib.h>

typedef struct device_block {
    aot__block block; /* the cache's record */
    CUdeviceptr ptr;
    CUstream stream;   /* the stream that last used it, or NULL */
    int64_t *dims;     /* runtime-owned dims of a device entry's result, or NULL */
    struct device_block *next_live;
} device_block;

static __thread CUresult last_failure; /* this thread's last cuMemAlloc's, for its message; -1: malloc's */

static aot__block *system_alloc(int64_t capacity) {
    device_block *d = malloc(sizeof *d);
    if (!d) {
        last_failure = -1;
        return NULL;
    }
    *d = (device_block){0};
    last_failure = aot__cu.MemAlloc(&d->ptr, (size_t)capacity);
    if (last_failure == 0) return &d->block;
    free(d);
    return NULL;
}

static void system_free(aot__block *b) {
    device_block *d = (device_block *)b;
    if (d->stream) aot__cu.StreamSynchronize(d->stream); /* kernels may still read it */
    aot__cu.MemFree(d->ptr);
    free(d);
}

#define MIN_CLASS_LOG2 8
#define MAX_CLASS_LOG2 47
_Static_assert(AOT__CACHE_BINS(MIN_CLASS_LOG2, 1, MAX_CLASS_LOG2) <= AOT__CACHE_MAX_BINS,
               "the device's size classes fit the cache's bins");
static aot__cache device = AOT__CACHE_INIT(system_alloc, system_free, MIN_CLASS_LOG2, 1, MAX_CLASS_LOG2,
                                           (int64_t)4 << 30, "AOT_GPU_MEMORY_LIMIT");

static pthread_mutex_t live_lock = PTHREAD_MUTEX_INITIALIZER;
static device_block *live_blocks; /* handed out and not yet freed */

void *aot_gpu_alloc(int64_t bytes) {
    if (aot__cuda_ready() != AOT_OK) return NULL;
    if (bytes <= 0) bytes = 1;
    int failure;
    aot__block *b = aot__cache_alloc(&device, bytes, &failure);
    if (!b && failure == AOT__CACHE_OVER_LIMIT) {
        aot_set_error(AOT_ERR_OUT_OF_MEMORY,
                      "out of device memory: needs %lld bytes (device memory limit %lld bytes, %lld held)",
                      (long long)bytes, (long long)aot__cache_limit(&device), (long long)aot__cache_held(&device));
        return NULL;
    }
    if (!b) {
        if (last_failure < 0) aot_set_error(AOT_ERR_OUT_OF_MEMORY, "out of host memory");
        else aot_set_error(AOT_ERR_OUT_OF_MEMORY, "out of device memory allocating %lld bytes (CUDA error %d)",
                           (long long)bytes, last_failure);
        return NULL;
    }
    device_block *d = (device_block *)b;
    if (d->stream && d->stream != aot__cuda_stream())
        aot__cu.StreamSynchronize(d->stream); /* its last user is done with it */
    pthread_mutex_lock(&live_lock);
    d->next_live = live_blocks;
    live_blocks = d;
    pthread_mutex_unlock(&live_lock);
    return (void *)(uintptr_t)d->ptr;
}

/* The live block at p, unlinked when `unlink`; NULL when p is not one. Caller holds live_lock. */
static device_block *find_live(const void *p, int unlink) {
    device_block **at = &live_blocks;
    while (*at && (*at)->ptr != (CUdeviceptr)(uintptr_t)p) at = &(*at)->next_live;
    device_block *d = *at;
    if (d && unlink) *at = d->next_live;
    return d;
}

void aot_gpu_free(void *p) {
    if (!p) return;
    pthread_mutex_lock(&live_lock);
    device_block *d = find_live(p, 1);
    pthread_mutex_unlock(&live_lock);
    if (!d) return;
    free(d->dims);
    d->dims = NULL;
    d->stream = aot__cuda_stream();
    aot__cache_free(&device, &d->block);
}

static void forget(aot__block *b, void *stream) {
    device_block *d = (device_block *)b;
    if (d->stream == stream) d->stream = NULL;
}

void aot__cuda_forget_stream(CUstream stream) { aot__cache_each_cached(&device, forget, stream); }

void aot_gpu_release_cached_memory(void) { aot__cache_release(&device); }

void aot_gpu_set_memory_limit(int64_t bytes) { aot__cache_set_limit(&device, bytes); }

int64_t aot_gpu_get_memory_limit(void) { return aot__cache_limit(&device); }

int64_t aot_gpu_get_held_bytes(void) { return aot__cache_held(&device); }

void aot_gpu_get_alloc_stats(aot_alloc_stats *out) { aot__cache_stats(&device, out); }

void aot_gpu_reset_alloc_stats(void) { aot__cache_reset_stats(&device); }

/* ---- the blocks of a device entry's results (cuda_results.c) --------------------------- */

int64_t aot__gpu_block_size(const void *p) {
    pthread_mutex_lock(&live_lock);
    device_block *d = find_live(p, 0);
    int64_t size = d ? d->block.size : -1;
    pthread_mutex_unlock(&live_lock);
    return size;
}

void aot__gpu_block_set_dims(void *p, int64_t *dims) {
    pthread_mutex_lock(&live_lock);
    find_live(p, 0)->dims = dims;
    pthread_mutex_unlock(&live_lock);
}

int64_t *aot__gpu_block_dims(const void *p) {
    pthread_mutex_lock(&live_lock);
    device_block *d = find_live(p, 0);
    int64_t *dims = d ? d->dims : NULL;
    pthread_mutex_unlock(&live_lock);
    return dims;
}
