/* The emulated grid, for tests only (never in an artifact): linked into the host build of a
 * cuda artifact's kernels, whose `aot_emu_launch` the CUDA driver double
 * (tests/tooling/cuda_double) calls from cuLaunchKernel.
 *
 * A launch runs the kernel's entry (the NVPTX-flavoured IR compiled for the host, its special
 * registers renamed to the functions below) block after block; the threads of a block are
 * separate OS threads, started together and free to interleave as a GPU's warps may, so a
 * missing barrier or a race shows up as a wrong number. The grid is capped at
 * AOT_EMU_MAX_BLOCKS blocks (default 4): the entries' grid-stride loops cover any extent with
 * any grid, so a smaller grid changes how work is shared, not what is computed. Warp
 * shuffles exchange values through per-warp slots between two waits of the warp's lanes. Shared
 * memory is the kernels' own addrspace(3) globals, one copy: blocks run one after another. */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef void (*aot_emu_entry)(int64_t *params);
typedef struct { const char *name; aot_emu_entry entry; int32_t params; } aot_emu_kernel;

extern const aot_emu_kernel aot_emu_kernels[]; /* the emulated device object's table */
extern const int32_t aot_emu_kernel_count;

static __thread uint32_t tid_x, ntid_x, ctaid_x, nctaid_x;
static pthread_barrier_t block_barrier;

/* Warp shuffles: each lane posts its value, the warp's lanes wait for each other, each reads
 * its partner's, and they wait again before the slots are reused. */
#define WARP 32
#define MAX_THREADS 1024
static int32_t shuffle_slots[MAX_THREADS];
static pthread_barrier_t warp_barriers[MAX_THREADS / WARP];

uint32_t aot_emu_tid_x(void) { return tid_x; }
uint32_t aot_emu_ntid_x(void) { return ntid_x; }
uint32_t aot_emu_ctaid_x(void) { return ctaid_x; }
uint32_t aot_emu_nctaid_x(void) { return nctaid_x; }
void aot_emu_barrier(int32_t id) { (void)id; pthread_barrier_wait(&block_barrier); }

int32_t aot_emu_shfl_bfly_i32(int32_t mask, int32_t value, int32_t lane_mask, int32_t clamp) {
    (void)mask, (void)clamp;
    uint32_t warp = tid_x / WARP, lane = tid_x % WARP, src = lane ^ (uint32_t)lane_mask;
    shuffle_slots[tid_x] = value;
    pthread_barrier_wait(&warp_barriers[warp]);
    int32_t out = warp * WARP + src < ntid_x ? shuffle_slots[warp * WARP + src] : value;
    pthread_barrier_wait(&warp_barriers[warp]);
    return out;
}

typedef struct {
    aot_emu_entry entry;
    int64_t *params;
    uint32_t tid, ntid, ctaid, nctaid;
} emu_thread;

static void *run_thread(void *p) {
    emu_thread *t = p;
    tid_x = t->tid, ntid_x = t->ntid, ctaid_x = t->ctaid, nctaid_x = t->nctaid;
    pthread_barrier_wait(&block_barrier); /* every thread of the block starts together */
    t->entry(t->params);
    return NULL;
}

/* The grid: `blocks` blocks of `threads` OS threads each, one block after another (one
 * launch at a time). 0, or 1 with no such kernel, 2 when the grid cannot be made. */
static pthread_mutex_t launch_lock = PTHREAD_MUTEX_INITIALIZER;

int32_t aot_emu_params(const char *name) {
    for (int32_t i = 0; i < aot_emu_kernel_count; i++)
        if (strcmp(aot_emu_kernels[i].name, name) == 0) return aot_emu_kernels[i].params;
    return -1;
}

int aot_emu_launch(const char *name, int64_t *params, int64_t blocks, int32_t threads) {
    aot_emu_entry entry = NULL;
    for (int32_t i = 0; i < aot_emu_kernel_count; i++)
        if (strcmp(aot_emu_kernels[i].name, name) == 0) entry = aot_emu_kernels[i].entry;
    if (!entry) return 1;
    const char *cap = getenv("AOT_EMU_MAX_BLOCKS");
    int64_t max_blocks = cap ? atoll(cap) : 4;
    if (max_blocks > 0 && blocks > max_blocks) blocks = max_blocks;
    if (threads < 1 || threads > MAX_THREADS) return 2;
    emu_thread *ts = calloc((size_t)threads, sizeof *ts);
    pthread_t *ids = calloc((size_t)threads, sizeof *ids);
    if (!ts || !ids) { free(ts); free(ids); return 2; }
    pthread_mutex_lock(&launch_lock);
    for (int64_t b = 0; b < blocks; b++) {
        pthread_barrier_init(&block_barrier, NULL, (unsigned)threads);
        for (int32_t w = 0; w * WARP < threads; w++)
            pthread_barrier_init(&warp_barriers[w], NULL,
                                 (unsigned)(threads - w * WARP < WARP ? threads - w * WARP : WARP));
        for (int32_t t = 0; t < threads; t++) {
            ts[t] = (emu_thread){entry, params, (uint32_t)t, (uint32_t)threads, (uint32_t)b,
                                 (uint32_t)blocks};
            pthread_create(&ids[t], NULL, run_thread, &ts[t]);
        }
        for (int32_t t = 0; t < threads; t++) pthread_join(ids[t], NULL);
        pthread_barrier_destroy(&block_barrier);
        for (int32_t w = 0; w * WARP < threads; w++) pthread_barrier_destroy(&warp_barriers[w]);
    }
    pthread_mutex_unlock(&launch_lock);
    free(ts);
    free(ids);
    return 0;
}
