/* cuda_memory.c - the caching device allocator.
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
#include "cuda_internal.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

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
        if (c->stream) aot__cu.StreamSynchronize(c->stream);
        aot__cu.MemFree(c->ptr);
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
    if (aot__cuda_ready() != AOT_OK) return NULL;
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
    if (ptr && other && other != aot__cuda_stream()) aot__cu.StreamSynchronize(other); /* its last user is done */
    if (!ptr) {
        CUresult rc = aot__cu.MemAlloc(&ptr, (size_t)capacity);
        if (rc != 0) { /* the device is short: give back what the cache holds, try once more */
            pthread_mutex_lock(&alloc_lock);
            cached *all = take_all_cached();
            pthread_mutex_unlock(&alloc_lock);
            if (all) {
                free_cached(all);
                rc = aot__cu.MemAlloc(&ptr, (size_t)capacity);
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
        aot__cu.MemFree(ptr);
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
        *c = (cached){ptr, capacity, aot__cuda_stream(), bins[b]};
        bins[b] = c;
        cached_bytes += capacity;
    }
    pthread_mutex_unlock(&alloc_lock);
    free(l->dims);
    free(l);
    if (!c) {
        if (aot__cuda_thread_ready()) aot__cu.StreamSynchronize(aot__cuda_stream()); /* kernels may still read it */
        aot__cu.MemFree(ptr);
    }
}

/* A stream about to be destroyed, already synchronised: its cached blocks are free to use. */
void aot__cuda_forget_stream(CUstream stream) {
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

/* ---- the blocks of a device entry's results (cuda_results.c) --------------------------- */

static live *find_live(void *p) {
    live *l = live_blocks;
    while (l && l->ptr != (CUdeviceptr)(uintptr_t)p) l = l->next;
    return l;
}

int64_t aot__gpu_block_size(const void *p) {
    pthread_mutex_lock(&alloc_lock);
    live *l = find_live((void *)p);
    int64_t size = l ? l->size : -1;
    pthread_mutex_unlock(&alloc_lock);
    return size;
}

void aot__gpu_block_set_dims(void *p, int64_t *dims) {
    pthread_mutex_lock(&alloc_lock);
    find_live(p)->dims = dims;
    pthread_mutex_unlock(&alloc_lock);
}

int64_t *aot__gpu_block_dims(const void *p) {
    pthread_mutex_lock(&alloc_lock);
    live *l = find_live((void *)p);
    int64_t *dims = l ? l->dims : NULL;
    pthread_mutex_unlock(&alloc_lock);
    return dims;
}
