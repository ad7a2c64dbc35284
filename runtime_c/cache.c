/* cache.c - the size-class cache of the host and device allocators: bins, statistics, the
 * memory limit and the give-back rules (cache.h says what they are). */
#include "aot_internal.h"

#include "cache.h"

#include <stdlib.h>
#include <string.h>

/* The caches in use, so that a fork locks them all first and unlocks them after. */
static pthread_mutex_t settled_lock = PTHREAD_MUTEX_INITIALIZER;
static aot__cache *settled_caches;
static pthread_once_t fork_once = PTHREAD_ONCE_INIT;

static void lock_for_fork(void) {
    pthread_mutex_lock(&settled_lock);
    for (aot__cache *c = settled_caches; c; c = c->next_settled) pthread_mutex_lock(&c->lock);
}

static void unlock_after_fork(void) {
    for (aot__cache *c = settled_caches; c; c = c->next_settled) pthread_mutex_unlock(&c->lock);
    pthread_mutex_unlock(&settled_lock);
}

static void install_fork_handlers(void) { pthread_atfork(lock_for_fork, unlock_after_fork, unlock_after_fork); }

/* A memory limit as AOT_MEMORY_LIMIT spells it: "1048576", "512k", "64M", "2g" (powers of
 * 1024); 0 for none, an empty or malformed text, or one that does not fit int64. */
static int64_t parse_limit(const char *text) {
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

/* Reads the cache's settings once, at its first use, and makes it safe across fork. */
static void settle(aot__cache *c) {
    if (__atomic_load_n(&c->settled, __ATOMIC_ACQUIRE)) return;
    pthread_once(&fork_once, install_fork_handlers);
    pthread_mutex_lock(&settled_lock);
    if (!c->settled) {
        const char *mode = getenv("AOT_ALLOCATOR");
        int bins = AOT__CACHE_BINS(c->min_class_log2, c->classes_per_doubling, c->max_class_log2);
        c->use_cache = !(mode && strcmp(mode, "system") == 0) && bins <= AOT__CACHE_MAX_BINS;
        c->limit = parse_limit(getenv(c->limit_variable));
        c->next_settled = settled_caches;
        settled_caches = c;
        __atomic_store_n(&c->settled, 1, __ATOMIC_RELEASE);
    }
    pthread_mutex_unlock(&settled_lock);
}

static int floor_log2(uint64_t x) { return 63 - __builtin_clzll(x); }

/* Size class of a request and its capacity; -1 (capacity: the size) when too big to cache. */
static int32_t bin_of(const aot__cache *c, int64_t size, int64_t *capacity) {
    int low = c->min_class_log2, per = c->classes_per_doubling;
    if (size <= ((int64_t)1 << low)) {
        *capacity = (int64_t)1 << low;
        return 0;
    }
    int k = floor_log2((uint64_t)size - 1); /* 2^k < size <= 2^(k+1) */
    if (k >= c->max_class_log2) {
        *capacity = size;
        return -1;
    }
    int64_t step = ((int64_t)1 << k) / per;
    int64_t j = (size - ((int64_t)1 << k) + step - 1) / step; /* 1..per */
    *capacity = ((int64_t)1 << k) + j * step;
    return (int32_t)((k - low) * per + j);
}

static void count_alloc(aot__cache *c, int64_t size, int hit) {
    c->stats.bytes_in_use += size;
    if (c->stats.bytes_in_use > c->stats.peak_bytes_in_use) c->stats.peak_bytes_in_use = c->stats.bytes_in_use;
    c->stats.num_allocs++;
    c->stats.cache_hits += hit;
}

/* Unlinks cached blocks, biggest classes first, until `need` more bytes fit under the limit
 * (need < 0: every one); returns them for give_back after unlocking. Caller holds the lock. */
static aot__block *take_cached(aot__cache *c, int64_t need) {
    aot__block *taken = NULL;
    for (int i = AOT__CACHE_MAX_BINS - 1; i >= 0; i--) {
        while (c->bins[i]) {
            if (need >= 0 && c->live_capacity + c->cached_bytes + need <= c->limit) return taken;
            aot__block *b = c->bins[i];
            c->bins[i] = b->next;
            c->cached_bytes -= b->capacity;
            b->next = taken;
            taken = b;
        }
    }
    return taken;
}

static void give_back(aot__cache *c, aot__block *b) {
    while (b) {
        aot__block *next = b->next;
        c->system_free(b);
        b = next;
    }
}

/* Reserves *capacity bytes under the limit, taking cached blocks out to make room (into
 * *taken). A block that fits only without its size-class rounding is made exactly nbytes
 * long and not cached (*capacity, *bin updated). 0 when it cannot fit. Caller holds the lock. */
static int reserve(aot__cache *c, int64_t nbytes, int64_t *capacity, int32_t *bin, aot__block **taken) {
    if (c->limit > 0) {
        if (nbytes > c->limit) return 0;
        if (c->live_capacity + c->cached_bytes + *capacity > c->limit) *taken = take_cached(c, *capacity);
        if (c->live_capacity + c->cached_bytes + *capacity > c->limit) {
            *capacity = nbytes;
            *bin = -1;
            if (c->live_capacity + c->cached_bytes + nbytes > c->limit) return 0;
        }
    }
    c->live_capacity += *capacity;
    return 1;
}

aot__block *aot__cache_alloc(aot__cache *c, int64_t nbytes, int *failure) {
    settle(c);
    int64_t capacity = nbytes;
    int32_t bin = c->use_cache ? bin_of(c, nbytes, &capacity) : -1;
    aot__block *taken = NULL, *b = NULL;
    pthread_mutex_lock(&c->lock);
    if (bin >= 0 && c->bins[bin]) {
        b = c->bins[bin];
        c->bins[bin] = b->next;
        c->cached_bytes -= b->capacity;
        c->live_capacity += b->capacity;
        count_alloc(c, nbytes, 1);
    }
    int reserved = b || reserve(c, nbytes, &capacity, &bin, &taken);
    pthread_mutex_unlock(&c->lock);
    give_back(c, taken);
    if (!reserved) {
        *failure = AOT__CACHE_OVER_LIMIT;
        return NULL;
    }
    if (!b) {
        b = c->system_alloc(capacity);
        if (!b) { /* the system is short: give back what the cache holds, try once more */
            pthread_mutex_lock(&c->lock);
            taken = take_cached(c, -1);
            pthread_mutex_unlock(&c->lock);
            if (taken) {
                give_back(c, taken);
                b = c->system_alloc(capacity);
            }
        }
        pthread_mutex_lock(&c->lock);
        if (b) count_alloc(c, nbytes, 0);
        else c->live_capacity -= capacity;
        pthread_mutex_unlock(&c->lock);
        if (!b) {
            *failure = AOT__CACHE_SYSTEM_SHORT;
            return NULL;
        }
        b->capacity = capacity;
        b->bin = bin;
    }
    b->size = nbytes;
    b->next = NULL;
    return b;
}

void aot__cache_free(aot__cache *c, aot__block *b) {
    pthread_mutex_lock(&c->lock);
    c->stats.bytes_in_use -= b->size;
    c->stats.num_frees++;
    c->live_capacity -= b->capacity;
    int keep = b->bin >= 0 && c->cached_bytes + b->capacity <= c->cache_limit;
    if (keep) {
        b->next = c->bins[b->bin];
        c->bins[b->bin] = b;
        c->cached_bytes += b->capacity;
    }
    pthread_mutex_unlock(&c->lock);
    if (!keep) c->system_free(b);
}

void aot__cache_release(aot__cache *c) {
    settle(c);
    pthread_mutex_lock(&c->lock);
    aot__block *all = take_cached(c, -1);
    pthread_mutex_unlock(&c->lock);
    give_back(c, all);
}

void aot__cache_set_limit(aot__cache *c, int64_t bytes) {
    settle(c);
    pthread_mutex_lock(&c->lock);
    c->limit = bytes > 0 ? bytes : 0;
    aot__block *taken = c->limit > 0 ? take_cached(c, 0) : NULL; /* until what is held fits */
    pthread_mutex_unlock(&c->lock);
    give_back(c, taken);
}

int64_t aot__cache_limit(aot__cache *c) {
    settle(c);
    pthread_mutex_lock(&c->lock);
    int64_t limit = c->limit;
    pthread_mutex_unlock(&c->lock);
    return limit;
}

int64_t aot__cache_held(aot__cache *c) {
    settle(c);
    pthread_mutex_lock(&c->lock);
    int64_t held = c->live_capacity + c->cached_bytes;
    pthread_mutex_unlock(&c->lock);
    return held;
}

void aot__cache_stats(aot__cache *c, aot_alloc_stats *out) {
    settle(c);
    pthread_mutex_lock(&c->lock);
    *out = c->stats;
    pthread_mutex_unlock(&c->lock);
}

void aot__cache_reset_stats(aot__cache *c) {
    settle(c);
    pthread_mutex_lock(&c->lock);
    int64_t in_use = c->stats.bytes_in_use;
    memset(&c->stats, 0, sizeof c->stats);
    c->stats.bytes_in_use = c->stats.peak_bytes_in_use = in_use;
    pthread_mutex_unlock(&c->lock);
}

void aot__cache_each_cached(aot__cache *c, void (*fn)(aot__block *b, void *arg), void *arg) {
    pthread_mutex_lock(&c->lock);
    for (int i = 0; i < AOT__CACHE_MAX_BINS; i++)
        for (aot__block *b = c->bins[i]; b; b = b->next) fn(b, arg);
    pthread_mutex_unlock(&c->lock);
}
