/* alloc.c - the runtime's host allocator: 64-byte aligned blocks with a header, kept in
 * the size-class cache (cache.c: bins, statistics, the memory limit), and per-thread
 * kernel scratch.
 *
 * Every block is [64-byte header][data]; the header lets aot_free find the block's cache
 * record and the runtime-owned dims of a result (freed with it). Size classes: 64 bytes,
 * then four per power of two (2^k * 5/4, 6/4, 7/4, 8/4), so a block wastes at most 25%;
 * blocks over 2^40 bytes bypass the bins, and at most 1 GiB sits in them.
 *
 * The memory limit (AOT_MEMORY_LIMIT=bytes, read once, or aot_set_memory_limit) caps the
 * bytes the allocator holds: the capacity of every live block plus the blocks cached for
 * reuse (headers and kernel scratch not counted). An allocation that cannot be had, under
 * the limit or from malloc (each after the cache gave back what it could), fails with
 * "out of memory: needs N bytes for ...". */
#include "aot_internal.h"

#include "cache.h"

#include <stdlib.h>
#include <string.h>

#define MAGIC_LIVE 0x616f74426c6f636bULL /* "aotBlock" */
#define MAGIC_FREE 0x616f74467265652eULL /* "aotFree." */

typedef struct header {
    uint64_t magic;
    int64_t *dims;     /* runtime-owned dims of a result, or NULL */
    aot__block block;  /* the cache's record: size, capacity, size class */
    char pad[AOT_BLOCK_HEADER - 16 - sizeof(aot__block)];
} header;
_Static_assert(sizeof(header) == AOT_BLOCK_HEADER, "block header must be 64 bytes");

static header *header_of(const void *p) { return (header *)((char *)p - AOT_BLOCK_HEADER); }
static header *header_of_block(aot__block *b) { return (header *)((char *)b - offsetof(header, block)); }

static aot__block *system_alloc(int64_t capacity) {
    void *p = NULL;
    if (posix_memalign(&p, AOT_BLOCK_HEADER, (size_t)(AOT_BLOCK_HEADER + capacity)) != 0) return NULL;
    return &((header *)p)->block;
}

static void system_free(aot__block *b) { free(header_of_block(b)); }

#define MIN_CLASS_LOG2 6
#define CLASSES_PER_DOUBLING 4
#define MAX_CLASS_LOG2 40
_Static_assert(AOT__CACHE_BINS(MIN_CLASS_LOG2, CLASSES_PER_DOUBLING, MAX_CLASS_LOG2) <= AOT__CACHE_MAX_BINS,
               "the host's size classes fit the cache's bins");
static aot__cache host = AOT__CACHE_INIT(system_alloc, system_free, MIN_CLASS_LOG2, CLASSES_PER_DOUBLING,
                                         MAX_CLASS_LOG2, (int64_t)1 << 30, "AOT_MEMORY_LIMIT");

/* The error of an allocation that cannot be had; NULL for the caller to return. */
static void *out_of_memory(int64_t nbytes, const char *what) {
    if (nbytes < 0) /* no size at all: a caller's bug */
        return aot_set_error(AOT_ERR_OUT_OF_MEMORY, "aot_alloc: bad size %lld%s%s",
                             (long long)nbytes, what ? " for " : "", what ? what : ""), NULL;
    if (!what || !*what) what = "a buffer";
    int64_t limit = aot__cache_limit(&host), held = aot__cache_held(&host);
    if (limit > 0)
        aot_set_error(AOT_ERR_OUT_OF_MEMORY,
                      "out of memory: needs %lld bytes for %s (memory limit %lld bytes, "
                      "%lld held)", (long long)nbytes, what, (long long)limit, (long long)held);
    else
        aot_set_error(AOT_ERR_OUT_OF_MEMORY, "out of memory: needs %lld bytes for %s",
                      (long long)nbytes, what);
    return NULL;
}

void *aot_alloc(int64_t nbytes) { return aot_alloc_for(nbytes, NULL); }

void *aot_alloc_for(int64_t nbytes, const char *what) {
    if (nbytes < 0 || nbytes > INT64_MAX / 2) return out_of_memory(nbytes, what);
    int failure;
    aot__block *b = aot__cache_alloc(&host, nbytes, &failure);
    if (!b) return out_of_memory(nbytes, what);
    header *h = header_of_block(b);
    h->magic = MAGIC_LIVE;
    h->dims = NULL;
    return (char *)h + AOT_BLOCK_HEADER;
}

void aot__explain_oom(int64_t nbytes, const char *what) { out_of_memory(nbytes, what); }

void aot_set_memory_limit(int64_t bytes) { aot__cache_set_limit(&host, bytes); }

int64_t aot_get_memory_limit(void) { return aot__cache_limit(&host); }

int64_t aot_get_held_bytes(void) { return aot__cache_held(&host); }

void aot_free(void *p) {
    if (!p) return;
    header *h = header_of(p);
    if (h->magic != MAGIC_LIVE) {
        /* Leaking beats corrupting the heap; the message helps debugging. */
        aot_set_error(AOT_ERR_RUNTIME, "aot_free: %p is not a live runtime block", p);
        return;
    }
    int64_t *dims = h->dims;
    h->magic = MAGIC_FREE;
    h->dims = NULL;
    aot__cache_free(&host, &h->block);
    aot_free(dims);
}

static void release_thread_scratch(void);

void aot_release_cached_memory(void) {
    release_thread_scratch();
    aot__cache_release(&host);
}

void aot_get_alloc_stats(aot_alloc_stats *out) {
    if (out) aot__cache_stats(&host, out);
}

void aot_reset_alloc_stats(void) { aot__cache_reset_stats(&host); }

int64_t aot__block_size(const void *p) {
    const header *h = header_of(p);
    return h->magic == MAGIC_LIVE ? h->block.size : -1;
}

void aot__block_set_dims(void *p, int64_t *dims) { header_of(p)->dims = dims; }

int64_t *aot__block_dims(const void *p) {
    const header *h = header_of(p);
    return h->magic == MAGIC_LIVE ? h->dims : NULL;
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
