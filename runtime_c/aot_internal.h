/* aot_internal.h - what the runtime's own .c files share; not installed.
 *
 * Included first by every runtime .c file so the feature macro below comes
 * before any system header (the artifacts are built with -std=c11, which
 * hides POSIX/GNU declarations such as posix_memalign and CPU_COUNT). */
#ifndef AOT_INTERNAL_H
#define AOT_INTERNAL_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif

#include <stdint.h>
#include <stddef.h>

#include "aot_runtime.h"

/* Bytes before every block's data: the header aot_free reads (alloc.c). */
#define AOT_BLOCK_HEADER 64

/* Writes "f32[4,?]" style text: for a signature (signature != 0) negative
 * dims are shown as '?'; for an actual tensor dims are printed as they are
 * and NULL dims as "[<null dims>]". */
void aot__format_shape(char *buf, size_t cap, int32_t dtype, int32_t rank,
                       const int64_t *dims, int signature);

/* Bytes the data of a block needs: its requested size, or -1 when p is not
 * a live runtime block. */
int64_t aot__block_size(const void *p);

/* Records the runtime-owned dims array of the block at p (freed with it). */
void aot__block_set_dims(void *p, int64_t *dims);

/* The runtime-owned dims array of the block at p, or NULL. */
int64_t *aot__block_dims(const void *p);

/* Where an entry's results live: the host's allocator (tensor.c) or a
 * device's (device/cuda_results.c). The result hand-over is written once, over this:
 * aot_prepare_result and aot_adopt_result are these on the host's memory. */
typedef struct aot__memory {
    void *(*alloc)(int64_t nbytes); /* NULL with the error set */
    void (*free)(void *p);
    int (*copy)(void *dst, const void *src, int64_t nbytes); /* AOT_OK or an error */
    int64_t (*block_size)(const void *p); /* bytes of a live block, -1 for others */
    int64_t *(*own_dims)(void *data, int32_t rank); /* freed with data; NULL: error set */
    /* After alloc failed: restates the error naming the buffer (NULL: alloc's stands). */
    void (*explain_oom)(int64_t nbytes, const char *what);
} aot__memory;

/* Sets "out of memory: needs N bytes for <what>" (with the memory limit, when there is
 * one) as the calling thread's error: the host's explain_oom (alloc.c). */
void aot__explain_oom(int64_t nbytes, const char *what);

int aot__prepare_result(const aot__memory *m, aot_tensor *results, int32_t index,
                        const aot_value_info *info, const char *entry, const int64_t *dims,
                        int32_t *owned);
int aot__adopt_result(const aot__memory *m, aot_tensor *results, int32_t index,
                      const aot_value_info *info, const char *entry, void *buffer,
                      const int64_t *dims);

#endif /* AOT_INTERNAL_H */
