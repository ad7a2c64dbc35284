/* profile.c - AOT_PROFILE=1: each kernel's calls and time, printed when the process exits.
 *
 * Generated host code times a kernel call only while aot__profile_enabled is set (a load
 * and a branch per kernel call otherwise). Kernels are keyed by their label's address: one
 * string constant per kernel in each artifact. The table is small and guarded by a mutex,
 * taken once per kernel call, not per element. With AOT_PROFILE=path the report is
 * appended to that file instead of stderr. */
#include "aot_internal.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_KERNELS 4096

typedef struct {
    const char *label;
    int64_t calls;
    int64_t ns;
} kernel_time;

int32_t aot__profile_enabled;
static kernel_time table[MAX_KERNELS];
static int32_t used;
static int64_t dropped;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

int64_t aot__profile_now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

static int by_time(const void *a, const void *b) {
    int64_t x = ((const kernel_time *)a)->ns, y = ((const kernel_time *)b)->ns;
    return x < y ? 1 : x > y ? -1 : 0;
}

static void report(void) {
    pthread_mutex_lock(&lock);
    if (used == 0) {
        pthread_mutex_unlock(&lock);
        return;
    }
    const char *where = getenv("AOT_PROFILE");
    FILE *out = stderr;
    if (where && strcmp(where, "1") != 0 && !(out = fopen(where, "a")))
        out = stderr;
    qsort(table, (size_t)used, sizeof table[0], by_time);
    int64_t total = 0;
    for (int32_t i = 0; i < used; i++)
        total += table[i].ns;
    fprintf(out, "aot profile: %d kernels, %.3f ms in all\n", used, total / 1e6);
    fprintf(out, "%12s %10s %12s %6s  kernel\n", "ms", "calls", "us/call", "%");
    for (int32_t i = 0; i < used; i++) {
        const kernel_time *k = &table[i];
        fprintf(out, "%12.3f %10lld %12.2f %5.1f%%  %s\n", k->ns / 1e6, (long long)k->calls,
                k->ns / 1e3 / (double)k->calls, total ? 100.0 * (double)k->ns / (double)total : 0.0,
                k->label);
    }
    if (dropped)
        fprintf(out, "(%lld calls of kernels past the first %d not counted)\n",
                (long long)dropped, MAX_KERNELS);
    if (out != stderr)
        fclose(out);
    pthread_mutex_unlock(&lock);
}

/* A fork while another thread holds the lock must not leave the child's table locked. */
static void lock_for_fork(void) { pthread_mutex_lock(&lock); }
static void unlock_after_fork(void) { pthread_mutex_unlock(&lock); }

__attribute__((constructor)) static void read_setting(void) {
    const char *v = getenv("AOT_PROFILE");
    aot__profile_enabled = v && *v && strcmp(v, "0") != 0;
    if (aot__profile_enabled) {
        pthread_atfork(lock_for_fork, unlock_after_fork, unlock_after_fork);
        atexit(report);
    }
}

void aot__profile_add(const char *label, int64_t start_ns) {
    int64_t ns = aot__profile_now() - start_ns;
    pthread_mutex_lock(&lock);
    int32_t i = 0;
    while (i < used && table[i].label != label)
        i++;
    if (i == used) {
        if (used == MAX_KERNELS) {
            dropped++;
            pthread_mutex_unlock(&lock);
            return;
        }
        table[used++].label = label;
    }
    table[i].calls++;
    table[i].ns += ns;
    pthread_mutex_unlock(&lock);
}
