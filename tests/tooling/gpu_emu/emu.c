/* The emulated grid, for tests only (never in an artifact): linked into the host build of a
 * cuda artifact's kernels, whose `aot_emu_launch` the CUDA driver double
 * (tests/tooling/cuda_double) calls from cuLaunchKernel.
 *
 * A launch runs the kernel's entry (the NVPTX-flavoured IR compiled for the host, its special
 * registers renamed to the functions below) block after block (a grid of up to three dims,
 * blocks of up to three dims); the threads of a block are
 * separate OS threads, started together and free to interleave as a GPU's warps may, so a
 * missing barrier or a race shows up as a wrong number. With AOT_EMU_FIBERS=1 they are instead
 * fibers (256 KiB stacks) on the launching thread, resumed round-robin and switching only
 * where they wait (a barrier, a shuffle): no futex wake-ups nor system calls, so a tiled matmul
 * runs about 20x faster (`make gpu-kit-check` uses it for the kit's full-size matmuls), but their fixed order
 * would hide a missing barrier, so the tests keep OS threads. The grid is capped at
 * AOT_EMU_MAX_BLOCKS blocks (default 4): the entries' grid-stride loops cover any extent with
 * any grid, so a smaller grid changes how work is shared, not what is computed. A launch
 * whose block is not the kernel's own (its `.reqntid`, in the launch table) fails, as on a GPU. Warp
 * shuffles exchange values through per-warp slots between two waits of the warp's lanes. Shared
 * memory is the kernels' own addrspace(3) globals, one copy: blocks run one after another. */
#define _GNU_SOURCE
#undef _FORTIFY_SOURCE /* its longjmp check refuses a jump to another fiber's stack */
#include <pthread.h>
#include <setjmp.h>
#include <ucontext.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

typedef void (*aot_emu_entry)(int64_t *params);
typedef struct { const char *name; aot_emu_entry entry; int32_t params; uint32_t block[3]; } aot_emu_kernel;

extern const aot_emu_kernel aot_emu_kernels[]; /* the emulated device object's table */
extern const int32_t aot_emu_kernel_count;

/* The special registers: this thread's place (tid), its block's size (ntid), the block's
 * place in the grid (ctaid) and the grid's size (nctaid), each along x, y, z. */
static __thread uint32_t tid[3], ntid[3], ctaid[3], nctaid[3];
static pthread_barrier_t block_barrier;
static __thread jmp_buf scheduler_jump;

#define SREG(reg, axis, i) \
    uint32_t aot_emu_##reg##_##axis(void) { return reg[i]; }
SREG(tid, x, 0) SREG(tid, y, 1) SREG(tid, z, 2) SREG(ntid, x, 0) SREG(ntid, y, 1) SREG(ntid, z, 2)
SREG(ctaid, x, 0) SREG(ctaid, y, 1) SREG(ctaid, z, 2) SREG(nctaid, x, 0) SREG(nctaid, y, 1) SREG(nctaid, z, 2)
#undef SREG

/* Fiber mode (AOT_EMU_FIBERS=1): a block's threads are fibers on the launching thread, each
 * with its own stack, that give way only where they wait: at a block barrier or a warp
 * shuffle's wait. `current` is the running fiber (NULL: OS threads). A fiber starts from its
 * ucontext; after that, switches are _setjmp/_longjmp, which, unlike swapcontext, make no
 * system call (the signal mask is the same in every fiber): that was 9 in 10 of the time of
 * a tiled matmul's barriers. */
enum { RUNNING, AT_BARRIER, AT_WARP, FINISHED };
typedef struct { ucontext_t start; jmp_buf jump; int state, started; } fiber;
static __thread fiber *current;

static void fiber_wait(int state) {
    current->state = state;
    if (!_setjmp(current->jump)) _longjmp(scheduler_jump, 1);
}

void aot_emu_barrier(int32_t id) {
    (void)id;
    if (current) fiber_wait(AT_BARRIER);
    else pthread_barrier_wait(&block_barrier);
}

/* Warp shuffles: each lane posts its value, the warp's lanes wait for each other, each reads
 * its partner's, and they wait again before the slots are reused. Lanes are numbered by the
 * thread's linear place in its block (x fastest), as on a GPU. */
#define WARP 32
#define MAX_THREADS 1024
static int32_t shuffle_slots[MAX_THREADS];
static pthread_barrier_t warp_barriers[MAX_THREADS / WARP];

static void warp_wait(uint32_t warp) {
    if (current) fiber_wait(AT_WARP);
    else pthread_barrier_wait(&warp_barriers[warp]);
}

static uint32_t linear_tid(void) { return tid[0] + ntid[0] * (tid[1] + ntid[1] * tid[2]); }

int32_t aot_emu_shfl_bfly_i32(int32_t mask, int32_t value, int32_t lane_mask, int32_t clamp) {
    (void)mask, (void)clamp;
    uint32_t t = linear_tid(), n = ntid[0] * ntid[1] * ntid[2];
    uint32_t warp = t / WARP, lane = t % WARP, src = lane ^ (uint32_t)lane_mask;
    shuffle_slots[t] = value;
    warp_wait(warp);
    int32_t out = warp * WARP + src < n ? shuffle_slots[warp * WARP + src] : value;
    warp_wait(warp);
    return out;
}

struct thread_counts;
static void set_counts(struct thread_counts *c);

typedef struct {
    aot_emu_entry entry;
    int64_t *params;
    uint32_t tid[3], ntid[3], ctaid[3], nctaid[3];
    struct thread_counts *counts;
} emu_thread;

static void *run_thread(void *p) {
    emu_thread *t = p;
    set_counts(t->counts);
    memcpy(tid, t->tid, sizeof tid), memcpy(ntid, t->ntid, sizeof ntid);
    memcpy(ctaid, t->ctaid, sizeof ctaid), memcpy(nctaid, t->nctaid, sizeof nctaid);
    pthread_barrier_wait(&block_barrier); /* every thread of the block starts together */
    t->entry(t->params);
    return NULL;
}

/* Fiber mode's scheduler: a block's fibers resumed round-robin, each with its special
 * registers and counts set first (they are the launching thread's own in this mode). When
 * none can run, a warp whose unfinished lanes all wait at a shuffle goes on, else the block
 * when all its unfinished threads wait at the barrier. 0, or -1 when they wait at different
 * places (a deadlock on a GPU too). */
#define FIBER_STACK (256 << 10)
static __thread emu_thread *fiber_thread; /* what the fiber being started runs */

static void fiber_main(void) {
    fiber_thread->entry(fiber_thread->params);
    current->state = FINISHED;
    _longjmp(scheduler_jump, 1);
}

static void resume(emu_thread *e, fiber *f) {
    set_counts(e->counts);
    memcpy(tid, e->tid, sizeof tid), memcpy(ntid, e->ntid, sizeof ntid);
    memcpy(ctaid, e->ctaid, sizeof ctaid), memcpy(nctaid, e->nctaid, sizeof nctaid);
    current = f, fiber_thread = e;
    if (!_setjmp(scheduler_jump)) {
        if (f->started) _longjmp(f->jump, 1);
        f->started = 1;
        setcontext(&f->start);
    }
    current = NULL;
    set_counts(NULL);
}

static int run_fibers(emu_thread *ts, fiber *fs, char *stacks, int32_t threads) {
    for (int32_t t = 0; t < threads; t++) {
        getcontext(&fs[t].start);
        fs[t].start.uc_stack.ss_sp = stacks + (size_t)t * FIBER_STACK;
        fs[t].start.uc_stack.ss_size = FIBER_STACK;
        fs[t].start.uc_link = NULL; /* fiber_main jumps back, never returns */
        makecontext(&fs[t].start, fiber_main, 0);
        fs[t].state = RUNNING, fs[t].started = 0;
    }
    for (;;) {
        int ran = 0, opened = 0, unfinished = 0, at_barrier = 0;
        for (int32_t t = 0; t < threads; t++)
            if (fs[t].state == RUNNING) resume(&ts[t], &fs[t]), ran = 1;
        if (ran) continue;
        for (int32_t w = 0; w * WARP < threads; w++) {
            int32_t end = w * WARP + WARP < threads ? w * WARP + WARP : threads, left = 0, waiting = 0;
            for (int32_t t = w * WARP; t < end; t++)
                left += fs[t].state != FINISHED, waiting += fs[t].state == AT_WARP,
                at_barrier += fs[t].state == AT_BARRIER;
            unfinished += left;
            if (left && waiting == left)
                for (int32_t t = w * WARP; t < end; t++) fs[t].state = fs[t].state == AT_WARP ? RUNNING : FINISHED;
            opened |= left && waiting == left;
        }
        if (!unfinished) return 0;
        if (!opened && at_barrier == unfinished)
            for (int32_t t = 0; t < threads; t++) fs[t].state = fs[t].state == AT_BARRIER ? RUNNING : FINISHED;
        else if (!opened) return -1;
    }
}

static pthread_mutex_t launch_lock = PTHREAD_MUTEX_INITIALIZER;

/* ---- counting, for the time model (lowering/codegen/cuda/timing.py) --------------------
 * A companion built with counting (device.generate_device(counting=True)) reports each global
 * access (its site in the module, address and size) and each floating-point op, and asks
 * before each iteration of its grid-stride loop whether to go on. With AOT_EMU_COUNT=file set,
 * each thread stops after AOT_EMU_COUNT_ITERATIONS iterations (default 16: its results are then
 * partial, only the counts matter) and each launch appends one line to the file:
 *   name grid_x grid_y grid_z block_x block_y block_z thread_iterations extent accesses bytes
 *   flops sectors params...
 * `sectors` are the 32-byte sectors the warps' accesses touch: at every site, the first
 * SAMPLES accesses of each lane are grouped by warp (lanes of a warp taking their k-th access
 * together, as on a GPU) and their distinct sectors counted; a site's sectors per lane access
 * times its accesses gives its share. */
#define SITES 512
#define SAMPLES 4

typedef struct thread_counts {
    uint64_t iterations, accesses, bytes, flops;
    uint32_t taken[SITES];
    uint64_t sector[SITES][SAMPLES];
} thread_counts;

static __thread thread_counts *counts; /* NULL: not counting */
static void set_counts(struct thread_counts *c) { counts = c; }
static int64_t iteration_limit, extent_seen;
static int32_t sites_used;

int32_t aot_emu_iteration(int64_t extent, int64_t i) {
    if (!counts) return 1;
    __atomic_store_n(&extent_seen, extent, __ATOMIC_RELAXED);
    if (i >= extent || (int64_t)counts->iterations >= iteration_limit) return 0; /* only real ones */
    counts->iterations++;
    return 1;
}

void aot_emu_access(int32_t site, const void *p, int32_t bytes, int32_t store) {
    (void)store;
    if (!counts) return;
    counts->accesses++, counts->bytes += (uint64_t)bytes;
    if (site >= SITES) return;
    if (site >= __atomic_load_n(&sites_used, __ATOMIC_RELAXED)) __atomic_store_n(&sites_used, site + 1, __ATOMIC_RELAXED);
    uint32_t k = counts->taken[site]++;
    if (k < SAMPLES) counts->sector[site][k] = (uintptr_t)p / 32;
}

void aot_emu_flops(int32_t n) {
    if (counts) counts->flops += (uint64_t)n;
}

typedef struct {
    uint64_t iterations, accesses, bytes, flops;
    double site_total[SITES], site_sectors[SITES], site_lanes[SITES];
} launch_counts;

/* One block's threads' counts into the launch's, warp by warp. */
static void add_block(launch_counts *l, thread_counts *t, int32_t threads) {
    for (int32_t i = 0; i < threads; i++) {
        l->iterations += t[i].iterations, l->accesses += t[i].accesses;
        l->bytes += t[i].bytes, l->flops += t[i].flops;
    }
    for (int32_t s = 0; s < sites_used; s++) {
        for (int32_t w = 0; w * WARP < threads; w++) {
            int32_t end = w * WARP + WARP < threads ? w * WARP + WARP : threads;
            for (int32_t i = w * WARP; i < end; i++) l->site_total[s] += t[i].taken[s];
            for (int k = 0; k < SAMPLES; k++) {
                uint64_t seen[WARP];
                int32_t n = 0, lanes = 0;
                for (int32_t i = w * WARP; i < end; i++) {
                    if (t[i].taken[s] <= (uint32_t)k) continue;
                    lanes++;
                    uint64_t sec = t[i].sector[s][k];
                    int32_t j = 0;
                    while (j < n && seen[j] != sec) j++;
                    if (j == n) seen[n++] = sec;
                }
                l->site_sectors[s] += n, l->site_lanes[s] += lanes;
            }
        }
    }
}

static void write_counts(const char *path, const char *name, const uint32_t *dims, launch_counts *l,
                         const int64_t *params, int32_t n) {
    double sectors = 0;
    for (int32_t s = 0; s < sites_used; s++)
        if (l->site_lanes[s] > 0) sectors += l->site_total[s] * l->site_sectors[s] / l->site_lanes[s];
    FILE *f = fopen(path, "a");
    if (!f) return;
    fprintf(f, "%s %u %u %u %u %u %u %llu %lld %llu %llu %llu %.0f", name, dims[0], dims[1], dims[2], dims[3],
            dims[4], dims[5], (unsigned long long)l->iterations, (long long)extent_seen,
            (unsigned long long)l->accesses, (unsigned long long)l->bytes, (unsigned long long)l->flops, sectors);
    for (int32_t i = 0; i < n; i++) fprintf(f, " %lld", (long long)params[i]);
    fputc('\n', f);
    fclose(f);
}

static const aot_emu_kernel *find(const char *name) {
    for (int32_t i = 0; i < aot_emu_kernel_count; i++)
        if (strcmp(aot_emu_kernels[i].name, name) == 0) return &aot_emu_kernels[i];
    return NULL;
}

int32_t aot_emu_params(const char *name) {
    const aot_emu_kernel *k = find(name);
    return k ? k->params : -1;
}

/* The grid: dims[0..2] blocks along x, y, z of dims[3..5] threads (OS threads, started
 * together, or fibers), one block after another (one launch at a time); `shared` bytes of dynamic
 * shared memory (no kernel reads any yet). A grid of more than AOT_EMU_MAX_BLOCKS blocks runs
 * as that many blocks along x: the entries' grid-stride loops take any grid. 0, or 1 with no
 * such kernel, 2 when the grid cannot be made, 3 for a block other than the kernel's own, 4
 * when a block's fibers wait at different places (a deadlock). */
int aot_emu_launch(const char *name, int64_t *params, const uint32_t *dims, uint32_t shared) {
    (void)shared;
    const aot_emu_kernel *k = find(name);
    if (!k) return 1;
    if (dims[3] != k->block[0] || dims[4] != k->block[1] || dims[5] != k->block[2]) return 3;
    uint32_t grid[3] = {dims[0], dims[1], dims[2]}, block[3] = {dims[3], dims[4], dims[5]};
    int64_t blocks = (int64_t)grid[0] * grid[1] * grid[2];
    const char *cap = getenv("AOT_EMU_MAX_BLOCKS");
    int64_t max_blocks = cap ? atoll(cap) : 4;
    if (max_blocks > 0 && blocks > max_blocks) {
        blocks = max_blocks;
        grid[0] = (uint32_t)max_blocks, grid[1] = grid[2] = 1;
    }
    int64_t threads64 = (int64_t)block[0] * block[1] * block[2];
    if (threads64 < 1 || threads64 > MAX_THREADS) return 2;
    int32_t threads = (int32_t)threads64;
    emu_thread *ts = calloc((size_t)threads, sizeof *ts);
    pthread_t *ids = calloc((size_t)threads, sizeof *ids);
    if (!ts || !ids) { free(ts); free(ids); return 2; }
    const char *count_path = getenv("AOT_EMU_COUNT");
    thread_counts *tc = NULL;
    launch_counts *lc = NULL;
    if (count_path && *count_path) {
        tc = malloc((size_t)threads * sizeof *tc);
        lc = calloc(1, sizeof *lc);
        if (!tc || !lc) { free(tc); free(lc); free(ts); free(ids); return 2; }
        const char *limit = getenv("AOT_EMU_COUNT_ITERATIONS");
        iteration_limit = limit ? atoll(limit) : 16;
    }
    const char *fiber_mode = getenv("AOT_EMU_FIBERS");
    fiber *fs = NULL;
    char *stacks = NULL;
    size_t stack_bytes = (size_t)threads * FIBER_STACK;
    if (fiber_mode && *fiber_mode && strcmp(fiber_mode, "0") != 0) {
        fs = calloc((size_t)threads, sizeof *fs);
        stacks = mmap(NULL, stack_bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (!fs || stacks == MAP_FAILED) {
            free(fs), free(tc), free(lc), free(ts), free(ids);
            if (stacks != MAP_FAILED) munmap(stacks, stack_bytes);
            return 2;
        }
        for (int32_t t = 0; t < threads; t++) /* an overflow faults, not another fiber's stack */
            mprotect(stacks + (size_t)t * FIBER_STACK, 4096, PROT_NONE);
    }
    int rc = 0;
    pthread_mutex_lock(&launch_lock);
    extent_seen = 0, sites_used = 0;
    for (int64_t b = 0; b < blocks && rc == 0; b++) {
        if (tc) memset(tc, 0, (size_t)threads * sizeof *tc);
        if (!fs) {
            pthread_barrier_init(&block_barrier, NULL, (unsigned)threads);
            for (int32_t w = 0; w * WARP < threads; w++)
                pthread_barrier_init(&warp_barriers[w], NULL,
                                     (unsigned)(threads - w * WARP < WARP ? threads - w * WARP : WARP));
        }
        uint32_t at[3] = {(uint32_t)(b % grid[0]), (uint32_t)(b / grid[0] % grid[1]),
                          (uint32_t)(b / grid[0] / grid[1])};
        for (int32_t t = 0; t < threads; t++) {
            emu_thread *e = &ts[t];
            *e = (emu_thread){.entry = k->entry, .params = params, .counts = tc ? &tc[t] : NULL};
            e->tid[0] = (uint32_t)t % block[0], e->tid[1] = (uint32_t)t / block[0] % block[1];
            e->tid[2] = (uint32_t)t / block[0] / block[1];
            memcpy(e->ntid, block, sizeof block), memcpy(e->ctaid, at, sizeof at);
            memcpy(e->nctaid, grid, sizeof grid);
            if (!fs) pthread_create(&ids[t], NULL, run_thread, e);
        }
        if (fs) {
            if (run_fibers(ts, fs, stacks, threads) != 0) {
                fprintf(stderr, "emulated grid: the threads of a block of %s wait at different places\n", name);
                rc = 4;
            }
        } else {
            for (int32_t t = 0; t < threads; t++) pthread_join(ids[t], NULL);
            pthread_barrier_destroy(&block_barrier);
            for (int32_t w = 0; w * WARP < threads; w++) pthread_barrier_destroy(&warp_barriers[w]);
        }
        if (lc) add_block(lc, tc, threads);
    }
    if (lc && rc == 0) write_counts(count_path, name, dims, lc, params, k->params);
    pthread_mutex_unlock(&launch_lock);
    if (fs) munmap(stacks, stack_bytes);
    free(fs);
    free(tc);
    free(lc);
    free(ts);
    free(ids);
    return rc;
}
