/* threadpool.c - aot_parallel_for on a lazily started pthread pool.
 *
 * Generated code hands the outer loop of a big kernel to aot_parallel_for.
 * The pool has aot_get_num_threads() - 1 workers; the calling thread works
 * too.  Chunks are handed out through an atomic counter so uneven chunks
 * balance.  One job runs at a time: a second caller (another thread, or fn
 * itself calling back in) finds the pool busy and runs its loop serially,
 * which can neither deadlock nor oversubscribe the machine.
 *
 * Kernels of one model run back to back, so a worker that finished a job
 * spins briefly for the next before sleeping on a condition variable, and
 * the caller spins briefly for the chunks to finish: a call then costs
 * about a microsecond instead of two futex wake-ups (~15 us).
 *
 * The caller waits for the chunks, not for the workers: a worker that has
 * not claimed one by the time the others are done is not waited for. On a
 * machine with more runnable threads than cores a woken worker may not run
 * for a scheduler slice, and a caller waiting for every worker to report
 * made a [1, 32K] row sum on two threads 10x slower than on one. Claims go
 * through one atomic ticket holding the job's generation, chunk count and
 * next chunk, so a worker that runs late claims nothing of a finished job
 * and never runs a later job's chunk with an earlier job's function. */
#include "aot_internal.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#define MAX_THREADS 256
/* Chunks per thread: enough to even out uneven chunks, few enough to keep
 * the atomic counter cold. */
#define CHUNKS_PER_THREAD 4
/* How long a thread busy-waits before it blocks. */
#define SPIN_NS 50000

typedef void (*loop_fn)(void *ctx, int64_t begin, int64_t end);

/* Held by the one caller whose job owns the pool; also guards starting and
 * stopping workers. */
static pthread_mutex_t pool_lock = PTHREAD_MUTEX_INITIALIZER;
/* Sleeping threads wait under job_lock: workers on job_ready for a new
 * generation, the caller on job_done for the job's chunks to be finished. */
static pthread_mutex_t job_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t job_ready = PTHREAD_COND_INITIALIZER;
static pthread_cond_t job_done = PTHREAD_COND_INITIALIZER;
static _Atomic uint64_t generation; /* bumped per job, after the job is set */
static _Atomic int stopping;
/* The current job's claims: generation (high 32 bits), chunk count (16),
 * next chunk to hand out (low 16). */
static _Atomic uint64_t ticket;
static _Atomic int64_t finished;    /* chunks of the current job done */

static pthread_t workers[MAX_THREADS];
static int num_workers;

static struct {
    loop_fn fn;
    void *ctx;
    int64_t n, chunk;
} job;

static _Atomic int requested_threads; /* 0 = default */
static _Thread_local int inside_job;

static int default_threads(void) {
    const char *env = getenv("AOT_NUM_THREADS");
    if (env && atoi(env) > 0) return atoi(env);
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) == 0) return CPU_COUNT(&set);
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (int)n : 1;
}

void aot_set_num_threads(int n) { atomic_store(&requested_threads, n > 0 ? n : 0); }

int aot_get_num_threads(void) {
    int n = atomic_load(&requested_threads);
    if (n <= 0) n = default_threads();
    return n < MAX_THREADS ? n : MAX_THREADS;
}

static int64_t now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

static void cpu_relax(void) {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield");
#endif
}

/* Busy-waits up to SPIN_NS for done(arg); returns whether it became true. */
static int spin_until(int (*done)(const void *), const void *arg) {
    int64_t deadline = 0;
    for (int i = 1;; i++) {
        if (done(arg)) return 1;
        cpu_relax();
        if (i % 128 == 0) {
            int64_t t = now_ns();
            if (!deadline) deadline = t + SPIN_NS;
            else if (t > deadline) return 0;
        }
    }
}

static int new_job_or_stop(const void *seen) {
    return atomic_load(&generation) != *(const uint64_t *)seen || atomic_load(&stopping);
}

static int chunks_done(const void *chunks) {
    return atomic_load(&finished) == *(const int64_t *)chunks;
}

/* Runs chunks of job `gen` while it has unclaimed ones. The job's fields are
 * read only after a claim: the job cannot end (and be replaced) before the
 * claimed chunk is finished. */
static void run_chunks(uint32_t gen) {
    inside_job = 1;
    uint64_t t = atomic_load(&ticket);
    for (;;) {
        int64_t chunks = (int64_t)((t >> 16) & 0xffff), next = (int64_t)(t & 0xffff);
        if ((uint32_t)(t >> 32) != gen || next >= chunks) break;
        if (!atomic_compare_exchange_weak(&ticket, &t, t + 1)) continue;
        int64_t begin = next * job.chunk;
        int64_t end = job.n - begin < job.chunk ? job.n : begin + job.chunk;
        job.fn(job.ctx, begin, end);
        if (atomic_fetch_add(&finished, 1) + 1 == chunks) {
            pthread_mutex_lock(&job_lock);
            pthread_cond_signal(&job_done);
            pthread_mutex_unlock(&job_lock);
        }
        t = atomic_load(&ticket);
    }
    inside_job = 0;
}

/* start is the generation when the worker was created: reading it inside
 * the worker instead could already see the first job's bump and miss it. */
static void *worker_main(void *start) {
    uint64_t seen = (uint64_t)(uintptr_t)start;
    for (;;) {
        if (!spin_until(new_job_or_stop, &seen)) {
            pthread_mutex_lock(&job_lock);
            while (!new_job_or_stop(&seen)) pthread_cond_wait(&job_ready, &job_lock);
            pthread_mutex_unlock(&job_lock);
        }
        if (atomic_load(&stopping)) return NULL;
        seen = atomic_load(&generation);
        run_chunks((uint32_t)seen);
    }
}

/* Joins every worker.  Caller holds pool_lock. */
static void stop_workers(void) {
    pthread_mutex_lock(&job_lock);
    atomic_store(&stopping, 1);
    pthread_cond_broadcast(&job_ready);
    pthread_mutex_unlock(&job_lock);
    for (int i = 0; i < num_workers; i++) pthread_join(workers[i], NULL);
    num_workers = 0;
    atomic_store(&stopping, 0);
}

/* Makes the pool have `want` workers; keeps fewer if threads cannot be
 * created (the loop still runs, on fewer threads).  Caller holds pool_lock. */
static void resize_pool(int want) {
    if (num_workers == want) return;
    stop_workers();
    void *start = (void *)(uintptr_t)atomic_load(&generation);
    while (num_workers < want &&
           pthread_create(&workers[num_workers], NULL, worker_main, start) == 0)
        num_workers++;
}

/* A forked child has none of the parent's workers, and a lock another
 * parent thread held stays held: start over with an empty pool. */
static void forget_pool_in_child(void) {
    pthread_mutex_t fresh_mutex = PTHREAD_MUTEX_INITIALIZER;
    pthread_cond_t fresh_cond = PTHREAD_COND_INITIALIZER;
    pool_lock = fresh_mutex;
    job_lock = fresh_mutex;
    job_ready = fresh_cond;
    job_done = fresh_cond;
    num_workers = 0;
    atomic_store(&stopping, 0);
}

static pthread_once_t atfork_once = PTHREAD_ONCE_INIT;
static void register_atfork(void) { pthread_atfork(NULL, NULL, forget_pool_in_child); }

void aot_parallel_for(int64_t n, loop_fn fn, void *ctx) {
    if (n <= 0) return;
    pthread_once(&atfork_once, register_atfork);
    int threads = aot_get_num_threads();
    if (n == 1 || threads <= 1 || inside_job || pthread_mutex_trylock(&pool_lock) != 0) {
        fn(ctx, 0, n);
        return;
    }
    resize_pool(threads - 1);
    int64_t chunks = (int64_t)(num_workers + 1) * CHUNKS_PER_THREAD;
    job.fn = fn;
    job.ctx = ctx;
    job.n = n;
    job.chunk = n / chunks + (n % chunks != 0);
    chunks = n / job.chunk + (n % job.chunk != 0);  /* (at most 4 * MAX_THREADS) */
    atomic_store(&finished, 0);
    uint32_t gen = (uint32_t)(atomic_load(&generation) + 1);
    atomic_store(&ticket, ((uint64_t)gen << 32) | ((uint64_t)chunks << 16));

    /* Publish under job_lock so a worker about to sleep cannot miss it. */
    pthread_mutex_lock(&job_lock);
    atomic_fetch_add(&generation, 1);
    pthread_cond_broadcast(&job_ready);
    pthread_mutex_unlock(&job_lock);

    run_chunks(gen);

    if (!spin_until(chunks_done, &chunks)) {
        pthread_mutex_lock(&job_lock);
        while (atomic_load(&finished) != chunks) pthread_cond_wait(&job_done, &job_lock);
        pthread_mutex_unlock(&job_lock);
    }
    pthread_mutex_unlock(&pool_lock);
}

/* Workers must not outlive the library's code: dlclose (or exit) joins them
 * unless a job is running right now. */
__attribute__((destructor)) static void stop_pool_at_unload(void) {
    if (pthread_mutex_trylock(&pool_lock) != 0) return;
    stop_workers();
    pthread_mutex_unlock(&pool_lock);
}
