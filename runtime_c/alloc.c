/* alloc.c - the runtime's allocator: 64-byte aligned blocks with a header,
 * a size-class cache, and statistics.
 *
 * Generated code allocates a buffer right before the kernel that needs it
 * and frees it right after, with the same sizes on every call of a model;
 * keeping freed blocks in size-class bins turns those into cache hits
 * instead of malloc/free of large (often mmap'ed) regions.
 *
 * Every block is [64-byte header][data]; the header lets aot_free find the
 * block's size class and the runtime-owned dims of a result (freed with it).
 * AOT_ALLOCATOR=system turns the cache off; statistics are kept either way.
 * One mutex guards the bins and the counters: allocations happen per
 * buffer, not per element, so contention is low.
 *
 * A memory limit (AOT_MEMORY_LIMIT=bytes, read once, or aot_set_memory_limit)
 * caps the bytes the allocator holds: the capacity of every live block plus
 * the blocks cached for reuse (headers and kernel scratch not counted).  An
 * allocation that would pass it first returns cached blocks to the system,
 * then fails with "out of memory: needs N bytes for ...".  A failing malloc
 * likewise drops the cache and tries once more before failing. */
#include "aot_internal.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#define MAGIC_LIVE 0x616f74426c6f636bULL /* "aotBlock" */
#define MAGIC_FREE 0x616f74467265652eULL /* "aotFree." */

/* Size classes: 64 bytes, then four per power of two (2^k * 5/4, 6/4, 7/4,
 * 8/4), so a block wastes at most 25%.  Bigger blocks bypass the cache. */
#define MIN_CLASS_LOG2 6
#define MAX_CLASS_LOG2 40
#define NUM_BINS ((MAX_CLASS_LOG2 - MIN_CLASS_LOG2) * 4 + 1)
/* At most this many bytes sit in the bins; beyond it frees go to the system. */
#define CACHE_LIMIT_BYTES ((int64_t)1 << 30)

typedef struct block {
    uint64_t magic;
    int64_t size;       /* bytes requested */
    int64_t capacity;   /* bytes usable after the header */
    int64_t *dims;      /* runtime-owned dims of a result, or NULL */
    struct block *next; /* free-list link while cached */
    int32_t bin;        /* size class, -1 when not cacheable */
    char pad[AOT_BLOCK_HEADER - 44];
} block;
_Static_assert(sizeof(block) == AOT_BLOCK_HEADER, "block header must be 64 bytes");

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static block *bins[NUM_BINS];
static int64_t cached_bytes;
static int64_t live_capacity; /* capacity of the blocks handed out and not yet freed */
static int64_t memory_limit;  /* 0: none; else live_capacity + cached_bytes stays below */
static aot_alloc_stats stats;

static pthread_once_t mode_once = PTHREAD_ONCE_INIT;
static int use_cache = 1;

/* A fork while another thread holds the lock must not leave the child's
 * allocator locked forever. */
static void lock_for_fork(void) { pthread_mutex_lock(&lock); }
static void unlock_after_fork(void) { pthread_mutex_unlock(&lock); }

/* "1048576", "512k", "64M", "2g" (powers of 1024); 0 when unset or unreadable. */
int64_t aot__parse_limit(const char *text) {
    if (!text || !*text) return 0;
    char *end = NULL;
    long long n = strtoll(text, &end, 10);
    int shift = 0;
    if (end && (*end == 'k' || *end == 'K')) shift = 10, end++;
    else if (end && (*end == 'm' || *end == 'M')) shift = 20, end++;
    else if (end && (*end == 'g' || *end == 'G')) shift = 30, end++;
    if (end == text || (end && *end) || n <= 0 || n > (INT64_MAX >> shift)) return 0;
    return (int64_t)n << shift;
}

static void read_mode(void) {
    const char *mode = getenv("AOT_ALLOCATOR");
    use_cache = !(mode && strcmp(mode, "system") == 0);
    memory_limit = aot__parse_limit(getenv("AOT_MEMORY_LIMIT"));
    pthread_atfork(lock_for_fork, unlock_after_fork, unlock_after_fork);
}

static int floor_log2(uint64_t x) { return 63 - __builtin_clzll(x); }

/* Size class of a request and its capacity; -1 when too big to cache. */
static int32_t bin_of(int64_t size, int64_t *capacity) {
    if (size <= ((int64_t)1 << MIN_CLASS_LOG2)) {
        *capacity = (int64_t)1 << MIN_CLASS_LOG2;
        return 0;
    }
    int k = floor_log2((uint64_t)size - 1); /* 2^k < size <= 2^(k+1) */
    if (k >= MAX_CLASS_LOG2) {
        *capacity = size;
        return -1;
    }
    int64_t step = (int64_t)1 << (k - 2);
    int64_t j = (size - ((int64_t)1 << k) + step - 1) / step; /* 1..4 */
    *capacity = ((int64_t)1 << k) + j * step;
    return (int32_t)((k - MIN_CLASS_LOG2) * 4 + j);
}

static block *header_of(const void *p) {
    return (block *)((char *)p - AOT_BLOCK_HEADER);
}

static void count_alloc(int64_t size, int hit) {
    stats.bytes_in_use += size;
    if (stats.bytes_in_use > stats.peak_bytes_in_use)
        stats.peak_bytes_in_use = stats.bytes_in_use;
    stats.num_allocs++;
    stats.cache_hits += hit;
}

/* A block from the bins, or NULL on a miss.  Caller holds the lock. */
static block *take_cached(int32_t bin) {
    block *b = bin >= 0 ? bins[bin] : NULL;
    if (b) {
        bins[bin] = b->next;
        cached_bytes -= b->capacity;
    }
    return b;
}

/* Unlinks cached blocks, biggest classes first, until `need` more bytes fit
 * under the limit (need < 0: every one); returns them as a list for the
 * caller to free after unlocking.  Caller holds the lock. */
static block *drop_cached(int64_t need) {
    block *dropped = NULL;
    for (int i = NUM_BINS - 1; i >= 0; i--) {
        while (bins[i]) {
            if (need >= 0 && live_capacity + cached_bytes + need <= memory_limit) return dropped;
            block *b = bins[i];
            bins[i] = b->next;
            cached_bytes -= b->capacity;
            b->next = dropped;
            dropped = b;
        }
    }
    return dropped;
}

static void free_list(block *b) {
    while (b) {
        block *next = b->next;
        free(b);
        b = next;
    }
}

/* Reserves `capacity` bytes under the limit, dropping cached blocks to make
 * room (into *dropped).  With a limit, a block that fits only without its
 * size-class rounding is made exactly `nbytes` long and not cached
 * (*capacity, *bin updated).  0 when it cannot fit.  Caller holds the lock. */
static int reserve(int64_t nbytes, int64_t *capacity, int32_t *bin, block **dropped) {
    if (memory_limit > 0) {
        if (nbytes > memory_limit) return 0;
        if (live_capacity + cached_bytes + *capacity > memory_limit)
            *dropped = drop_cached(*capacity);
        if (live_capacity + cached_bytes + *capacity > memory_limit) {
            *capacity = nbytes;
            *bin = -1;
            if (live_capacity + cached_bytes + nbytes > memory_limit) return 0;
        }
    }
    live_capacity += *capacity;
    return 1;
}

/* The error of an allocation that cannot be had; NULL for the caller to return. */
static void *out_of_memory(int64_t nbytes, const char *what) {
    if (nbytes < 0) /* no size at all: a caller's bug */
        return aot_set_error(AOT_ERR_OUT_OF_MEMORY, "aot_alloc: bad size %lld%s%s",
                             (long long)nbytes, what ? " for " : "", what ? what : ""), NULL;
    if (!what || !*what) what = "a buffer";
    pthread_mutex_lock(&lock);
    int64_t limit = memory_limit, held = live_capacity + cached_bytes;
    pthread_mutex_unlock(&lock);
    if (limit > 0)
        aot_set_error(AOT_ERR_OUT_OF_MEMORY,
                      "out of memory: needs %lld bytes for %s (memory limit %lld bytes, "
                      "%lld held)", (long long)nbytes, what, (long long)limit, (long long)held);
    else
        aot_set_error(AOT_ERR_OUT_OF_MEMORY, "out of memory: needs %lld bytes for %s",
                      (long long)nbytes, what);
    return NULL;
}

static block *system_alloc(int64_t capacity) {
    void *p = NULL;
    if (posix_memalign(&p, AOT_BLOCK_HEADER, (size_t)(AOT_BLOCK_HEADER + capacity)) != 0)
        return NULL;
    return (block *)p;
}

void *aot_alloc(int64_t nbytes) { return aot_alloc_for(nbytes, NULL); }

void *aot_alloc_for(int64_t nbytes, const char *what) {
    pthread_once(&mode_once, read_mode);
    if (nbytes < 0 || nbytes > INT64_MAX / 2) return out_of_memory(nbytes, what);
    int64_t capacity = nbytes;
    int32_t bin = -1;
    if (use_cache) bin = bin_of(nbytes, &capacity);

    block *dropped = NULL;
    pthread_mutex_lock(&lock);
    block *b = take_cached(bin);
    int reserved = 1;
    if (b) {
        live_capacity += b->capacity;
        count_alloc(nbytes, 1);
    } else {
        reserved = reserve(nbytes, &capacity, &bin, &dropped);
    }
    pthread_mutex_unlock(&lock);
    free_list(dropped);
    if (!reserved) return out_of_memory(nbytes, what);

    if (!b) {
        b = system_alloc(capacity);
        if (!b) { /* the system is short: give back what the cache holds, try once more */
            pthread_mutex_lock(&lock);
            dropped = drop_cached(-1);
            pthread_mutex_unlock(&lock);
            free_list(dropped);
            b = system_alloc(capacity);
        }
        pthread_mutex_lock(&lock);
        if (b) count_alloc(nbytes, 0);
        else live_capacity -= capacity;
        pthread_mutex_unlock(&lock);
        if (!b) return out_of_memory(nbytes, what);
    }
    b->magic = MAGIC_LIVE;
    b->size = nbytes;
    b->capacity = capacity;
    b->dims = NULL;
    b->next = NULL;
    b->bin = bin;
    return (char *)b + AOT_BLOCK_HEADER;
}

void aot__explain_oom(int64_t nbytes, const char *what) { out_of_memory(nbytes, what); }

void aot_set_memory_limit(int64_t bytes) {
    pthread_once(&mode_once, read_mode);
    pthread_mutex_lock(&lock);
    memory_limit = bytes > 0 ? bytes : 0;
    block *dropped = memory_limit > 0 && live_capacity + cached_bytes > memory_limit
                         ? drop_cached(0) : NULL;
    pthread_mutex_unlock(&lock);
    free_list(dropped);
}

int64_t aot_get_memory_limit(void) {
    pthread_once(&mode_once, read_mode);
    pthread_mutex_lock(&lock);
    int64_t limit = memory_limit;
    pthread_mutex_unlock(&lock);
    return limit;
}

int64_t aot_get_held_bytes(void) {
    pthread_mutex_lock(&lock);
    int64_t held = live_capacity + cached_bytes;
    pthread_mutex_unlock(&lock);
    return held;
}

void aot_free(void *p) {
    if (!p) return;
    block *b = header_of(p);
    if (b->magic != MAGIC_LIVE) {
        /* Leaking beats corrupting the heap; the message helps debugging. */
        aot_set_error(AOT_ERR_RUNTIME, "aot_free: %p is not a live runtime block", p);
        return;
    }
    int64_t *dims = b->dims;
    b->magic = MAGIC_FREE;
    b->dims = NULL;

    pthread_mutex_lock(&lock);
    stats.bytes_in_use -= b->size;
    stats.num_frees++;
    live_capacity -= b->capacity;
    int keep = b->bin >= 0 && cached_bytes + b->capacity <= CACHE_LIMIT_BYTES;
    if (keep) {
        b->next = bins[b->bin];
        bins[b->bin] = b;
        cached_bytes += b->capacity;
    }
    pthread_mutex_unlock(&lock);

    if (!keep) free(b);
    aot_free(dims);
}

static void release_thread_scratch(void);

void aot_release_cached_memory(void) {
    release_thread_scratch();
    pthread_mutex_lock(&lock);
    block *all = NULL;
    for (int i = 0; i < NUM_BINS; i++) {
        while (bins[i]) {
            block *b = bins[i];
            bins[i] = b->next;
            b->next = all;
            all = b;
        }
    }
    cached_bytes = 0;
    pthread_mutex_unlock(&lock);
    free_list(all);
}

void aot_get_alloc_stats(aot_alloc_stats *out) {
    if (!out) return;
    pthread_once(&mode_once, read_mode); /* the fork handlers, before any lock is taken */
    pthread_mutex_lock(&lock);
    *out = stats;
    pthread_mutex_unlock(&lock);
}

void aot_reset_alloc_stats(void) {
    pthread_once(&mode_once, read_mode);
    pthread_mutex_lock(&lock);
    int64_t in_use = stats.bytes_in_use;
    memset(&stats, 0, sizeof stats);
    stats.bytes_in_use = stats.peak_bytes_in_use = in_use;
    pthread_mutex_unlock(&lock);
}

int64_t aot__block_size(const void *p) {
    const block *b = header_of(p);
    return b->magic == MAGIC_LIVE ? b->size : -1;
}

void aot__block_set_dims(void *p, int64_t *dims) { header_of(p)->dims = dims; }

int64_t *aot__block_dims(const void *p) {
    const block *b = header_of(p);
    return b->magic == MAGIC_LIVE ? b->dims : NULL;
}

/* Per-thread scratch for kernels that need a workspace no caller sees (the
 * packed matmul's A block).  It is kept and reused by the thread, grown when
 * a bigger one is asked for, and freed when the thread exits; the main
 * thread's stays until aot_release_cached_memory or exit.  Kept off the
 * stack because threads made by users may have small stacks. */
static pthread_key_t scratch_key;
static pthread_once_t scratch_once = PTHREAD_ONCE_INIT;
static __thread void *scratch;
static __thread int64_t scratch_bytes;

static void free_scratch(void *p) { free(p); }
static void make_scratch_key(void) { pthread_key_create(&scratch_key, free_scratch); }

static int scratch_off;  /* AOT_KERNEL_SCRATCH=off: kernels use their fallback */
static pthread_once_t scratch_env_once = PTHREAD_ONCE_INIT;
static void read_scratch_env(void) {
    const char *v = getenv("AOT_KERNEL_SCRATCH");
    scratch_off = v && strcmp(v, "off") == 0;
}

void *aot_thread_scratch(int64_t nbytes) {
    if (nbytes <= scratch_bytes) return scratch;
    pthread_once(&scratch_env_once, read_scratch_env);
    if (scratch_off) return NULL;
    pthread_once(&scratch_once, make_scratch_key);
    void *p = NULL;
    if (nbytes <= 0 || posix_memalign(&p, 64, (size_t)nbytes) != 0) return NULL;
    free(scratch);
    scratch = p;
    scratch_bytes = nbytes;
    pthread_setspecific(scratch_key, p);  /* so the thread's exit frees it */
    return p;
}

static void release_thread_scratch(void) {
    free(scratch);
    scratch = NULL;
    scratch_bytes = 0;
    pthread_once(&scratch_once, make_scratch_key);
    pthread_setspecific(scratch_key, NULL);
}
