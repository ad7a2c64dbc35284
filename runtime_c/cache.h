/* cache.h - the size-class cache both of the runtime's allocators are made of: the host's
 * (alloc.c) and a device's (device/cuda_memory.c); not installed.
 *
 * Generated code allocates a buffer right before the kernel that needs it and frees it
 * right after, with the same sizes on every call of a model; keeping freed blocks in
 * size-class bins turns those into cache hits instead of calls into the system (malloc of
 * large, often mmap'ed regions on the host; cuMemAlloc, milliseconds, on a device).
 *
 * The cache asks its owner for blocks and gives them back through two callbacks; it keeps
 * the bins, the statistics and a memory limit, and its rules are written once here:
 * - the limit (0: none) caps what the cache holds: the capacity of every live block plus
 *   the cached ones. An allocation that would pass it first gives cached blocks back,
 *   biggest first, until it fits; then takes its exact size (not cached at its free); then
 *   fails. A new limit below what is held likewise gives cached blocks back, biggest
 *   first, until what is held fits (live blocks are never taken back).
 * - a system allocation that fails gives every cached block back and is tried once more:
 *   blocks cached for other sizes must not make a call fail.
 * - AOT_ALLOCATOR=system turns the bins off (statistics and the limit stay); the limit's
 *   environment variable and AOT_ALLOCATOR are read at the cache's first use.
 * One mutex per cache guards its bins and counters (allocations are per buffer, not per
 * element, so contention is low); a fork while another thread holds it does not leave the
 * child's cache locked. Blocks are given back to the system outside the lock. */
#ifndef AOT_CACHE_H
#define AOT_CACHE_H

#include <pthread.h>
#include <stdint.h>

#include "aot_runtime.h"

/* The cache's part of a block; the owner keeps it inside its own record of the block. */
typedef struct aot__block {
    int64_t size;            /* bytes asked for */
    int64_t capacity;        /* bytes held: the size class's, or exactly size */
    struct aot__block *next; /* the bin's list while cached */
    int32_t bin;             /* size class; -1: back to the system at its free */
} aot__block;

/* Size classes: 2^min_class_log2 bytes, then classes_per_doubling (1, 2 or 4) classes per
 * power of two up to 2^max_class_log2; bigger blocks are never cached. */
#define AOT__CACHE_BINS(min_log2, per_doubling, max_log2) (((max_log2) - (min_log2)) * (per_doubling) + 1)
#define AOT__CACHE_MAX_BINS 160

typedef struct aot__cache {
    /* the owner's, fixed */
    aot__block *(*system_alloc)(int64_t capacity); /* a new block; NULL when the system is short */
    void (*system_free)(aot__block *b);            /* a block back to the system */
    int min_class_log2, classes_per_doubling, max_class_log2;
    int64_t cache_limit;        /* at most this many bytes sit in the bins; beyond, frees go back */
    const char *limit_variable; /* the environment variable of the memory limit */
    /* the cache's own, all zero at start but the lock */
    pthread_mutex_t lock;
    int settled, use_cache;
    int64_t limit, live_capacity, cached_bytes;
    aot__block *bins[AOT__CACHE_MAX_BINS];
    aot_alloc_stats stats;
    struct aot__cache *next_settled;
} aot__cache;

#define AOT__CACHE_INIT(system_alloc, system_free, min_log2, per_doubling, max_log2, cache_limit, variable) \
    {system_alloc, system_free, min_log2, per_doubling, max_log2, cache_limit, variable,               \
     PTHREAD_MUTEX_INITIALIZER, 0, 0, 0, 0, 0, {0}, {0}, 0}

/* Why aot__cache_alloc returned NULL. */
enum { AOT__CACHE_OVER_LIMIT = 1, AOT__CACHE_SYSTEM_SHORT = 2 };

/* A block of at least nbytes (>= 0; its size set to nbytes), from the bins or the system;
 * NULL with *failure set when it cannot be had. */
aot__block *aot__cache_alloc(aot__cache *c, int64_t nbytes, int *failure);

/* A live block back: into its bin, or to the system. */
void aot__cache_free(aot__cache *c, aot__block *b);

/* Every cached block back to the system. */
void aot__cache_release(aot__cache *c);

/* The memory limit (bytes <= 0: none); held blocks over it are given back. */
void aot__cache_set_limit(aot__cache *c, int64_t bytes);
int64_t aot__cache_limit(aot__cache *c);

/* What the limit counts now: live capacity plus cached bytes. */
int64_t aot__cache_held(aot__cache *c);

void aot__cache_stats(aot__cache *c, aot_alloc_stats *out);

/* Counters to zero, except the bytes in use (and the peak, set to them). */
void aot__cache_reset_stats(aot__cache *c);

/* fn on every cached block, under the cache's lock (fn must not call the cache). */
void aot__cache_each_cached(aot__cache *c, void (*fn)(aot__block *b, void *arg), void *arg);

#endif /* AOT_CACHE_H */
