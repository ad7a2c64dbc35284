/* threadpool.c - aot_parallel_for on a lazily started pthread pool.
 *
 * Generated code hands the outer loop of a big kernel to aot_parallel_for.
 * The pool has aot_get_num_threads() - 1 workers; the calling thread works
 * too.  Chunks are handed out through an atomic counter so uneven chunks
 * balance.  One job runs at a time: a second caller (another thread, or fn
 * itself calling back in) finds the pool busy and runs its loop serially,
 * which can neither deadlock nor oversubscribe the machine. */
#include "aot_internal.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <unistd.h>

#define MAX_THREADS 256
/* Chunks per thread: enough to even out uneven chunks, few enough to keep
 * the atomic counter cold. */
#define CHUNKS_PER_THREAD 4

typedef void (*loop_fn)(void *ctx, int64_t begin, int64_t end);

/* Held by the one caller whose job owns the pool; also guards starting and
 * stopping workers. */
static pthread_mutex_t pool_lock = PTHREAD_MUTEX_INITIALIZER;
/* Guards the fields below it; workers sleep on job_ready, the caller on
 * job_done. */
static pthread_mutex_t job_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t job_ready = PTHREAD_COND_INITIALIZER;
static pthread_cond_t job_done = PTHREAD_COND_INITIALIZER;
static uint64_t generation; /* bumped per job */
static int stopping;
static int busy_workers;    /* workers still on the current job */

static pthread_t workers[MAX_THREADS];
static int num_workers;

static struct {
    loop_fn fn;
    void *ctx;
    int64_t n, chunk;
    _Atomic int64_t next;
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

static void run_chunks(void) {
    inside_job = 1;
    for (;;) {
        int64_t begin = atomic_fetch_add(&job.next, job.chunk);
        if (begin >= job.n) break;
        int64_t end = job.n - begin < job.chunk ? job.n : begin + job.chunk;
        job.fn(job.ctx, begin, end);
    }
    inside_job = 0;
}

/* start is the generation when the worker was created: reading it inside
 * the worker instead could already see the first job's bump and miss it. */
static void *worker_main(void *start) {
    uint64_t seen = (uint64_t)(uintptr_t)start;
    pthread_mutex_lock(&job_lock);
    for (;;) {
        while (generation == seen && !stopping) pthread_cond_wait(&job_ready, &job_lock);
        if (stopping) break;
        seen = generation;
        pthread_mutex_unlock(&job_lock);
        run_chunks();
        pthread_mutex_lock(&job_lock);
        if (--busy_workers == 0) pthread_cond_signal(&job_done);
    }
    pthread_mutex_unlock(&job_lock);
    return NULL;
}

/* Joins every worker.  Caller holds pool_lock. */
static void stop_workers(void) {
    pthread_mutex_lock(&job_lock);
    stopping = 1;
    pthread_cond_broadcast(&job_ready);
    pthread_mutex_unlock(&job_lock);
    for (int i = 0; i < num_workers; i++) pthread_join(workers[i], NULL);
    num_workers = 0;
    stopping = 0;
}

/* Makes the pool have `want` workers; keeps fewer if threads cannot be
 * created (the loop still runs, on fewer threads).  Caller holds pool_lock. */
static void resize_pool(int want) {
    if (num_workers == want) return;
    stop_workers();
    void *start = (void *)(uintptr_t)generation;
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
    busy_workers = 0;
    stopping = 0;
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
    atomic_store(&job.next, 0);

    pthread_mutex_lock(&job_lock);
    busy_workers = num_workers;
    generation++;
    pthread_cond_broadcast(&job_ready);
    pthread_mutex_unlock(&job_lock);

    run_chunks();

    pthread_mutex_lock(&job_lock);
    while (busy_workers > 0) pthread_cond_wait(&job_done, &job_lock);
    pthread_mutex_unlock(&job_lock);
    pthread_mutex_unlock(&pool_lock);
}

/* Workers must not outlive the library's code: dlclose (or exit) joins them
 * unless a job is running right now. */
__attribute__((destructor)) static void stop_pool_at_unload(void) {
    if (pthread_mutex_trylock(&pool_lock) != 0) return;
    stop_workers();
    pthread_mutex_unlock(&pool_lock);
}
