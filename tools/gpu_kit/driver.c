/* driver.c - the device kit's driver (docs/gpu.md, "The device kit"): runs every case of the
 * kit on this machine's GPU and prints one table. Built and run by run.sh; needs only a C
 * compiler and libdl: no Python, no CUDA toolkit (the artifacts and this driver open the CUDA
 * driver library themselves: $AOT_CUDA_LIBRARY, else libcuda.so.1).
 *
 *     driver KIT_DIR [CASE...]
 *
 * Each case is a directory under KIT_DIR/cases with a manifest.txt (written by
 * tools/gpu_kit/build.py, one record a line):
 *
 *     lib libm.so                  the --target cuda artifact
 *     entry m_main                 its entry; the device entry is m_main_device
 *     kind case|bench              a benchmark is also timed
 *     arg DTYPE RANK DIMS... file a0.bin          raw bytes, row-major
 *     arg DTYPE RANK DIMS... gen SEED SCALE       f32, generated here (see `generate`)
 *     result DTYPE RANK DIMS... RTOL ATOL all w0.bin               every element
 *     result DTYPE RANK DIMS... RTOL ATOL sample STRIDE COUNT w0.bin   elements 0, STRIDE, ...
 *     predict DEVICE US FLOOR_US  the time model's estimate and roofline floor (microseconds)
 *     work BYTES FLOPS            bytes the program must move, FLOPs it does (for GB/s, GFLOP/s)
 *
 * DTYPE is the aot_dtype code (aot_runtime.h). A result is right when every compared element
 * has |got - want| <= ATOL + RTOL * |want| (floats, each part of a complex; NaN where NaN is
 * expected, an infinity where that infinity is), or is equal byte for byte (integers,
 * booleans). The cases run in a child process, one after another (one CUDA initialisation);
 * a case that crashes it, or hangs for $KIT_TIMEOUT seconds (120 by default), is an error,
 * and a new child goes on after it.
 *
 * Timing (benchmarks only): the device entry on device buffers, on a stream of this driver's,
 * between two CUDA events (cuEventRecord / cuEventElapsedTime): REPS calls, REPS chosen so a
 * batch takes about 0.2 s, the median of 3 batches (1 batch when a call takes over a second). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "aot_runtime.h"

#define MAX_VALUES 64
#define MAX_RANK 16
#define MAX_PREDICT 4

typedef struct {
    int dtype, rank;
    int64_t dims[MAX_RANK];
    char source[8];     /* file, gen | all, sample */
    char file[256];
    uint64_t seed;      /* gen */
    double scale;       /* gen */
    double rtol, atol;  /* results */
    int64_t stride, count;
} value;

typedef struct {
    char lib[256], entry[128], kind[16];
    int nargs, nresults, npredict;
    value args[MAX_VALUES], results[MAX_VALUES];
    char predict_device[MAX_PREDICT][32];
    double predict_us[MAX_PREDICT], floor_us[MAX_PREDICT];
    double bytes, flops;
} manifest;

/* A manifest record's fields, read one after another (strtok_r over the record). */
typedef struct {
    char *rest, *save;
} fields;

static const char *field(fields *f) {
    char *tok = strtok_r(f->rest, " \t\n", &f->save);
    f->rest = NULL;
    return tok;
}

static int field_i64(fields *f, int64_t *out) {
    const char *tok = field(f);
    return tok ? (*out = atoll(tok), 0) : -1;
}

static int field_f64(fields *f, double *out) {
    const char *tok = field(f);
    return tok ? (*out = atof(tok), 0) : -1;
}

static int field_str(fields *f, char *out, size_t cap) {
    const char *tok = field(f);
    return tok ? (snprintf(out, cap, "%s", tok), 0) : -1;
}

/* An arg or result record after its key (the forms at the top); -1 when one is missing. */
static int read_value(char *rest, value *v, int is_result) {
    fields f = {rest, NULL};
    int64_t dtype, rank;
    if (field_i64(&f, &dtype) || field_i64(&f, &rank) || rank < 0 || rank > MAX_RANK) return -1;
    v->dtype = (int)dtype, v->rank = (int)rank;
    for (int d = 0; d < v->rank; d++)
        if (field_i64(&f, &v->dims[d])) return -1;
    if (is_result && (field_f64(&f, &v->rtol) || field_f64(&f, &v->atol))) return -1;
    if (field_str(&f, v->source, sizeof v->source)) return -1;
    if (strcmp(v->source, "gen") == 0) {
        const char *seed = field(&f);
        if (!seed) return -1;
        v->seed = strtoull(seed, NULL, 10);
        return field_f64(&f, &v->scale);
    }
    if (strcmp(v->source, "sample") == 0 && (field_i64(&f, &v->stride) || field_i64(&f, &v->count))) return -1;
    return field_str(&f, v->file, sizeof v->file);
}

static int read_manifest(const char *path, manifest *m) {
    FILE *f = fopen(path, "r");
    if (!f) return -1;
    memset(m, 0, sizeof *m);
    char line[4096];
    int rc = 0;
    while (rc == 0 && fgets(line, sizeof line, f)) {
        char key[32] = "";
        int used = 0;
        if (sscanf(line, "%31s %n", key, &used) < 1 || key[0] == '#') continue;
        char *rest = line + used;
        rest[strcspn(rest, "\n")] = '\0';
        if (strcmp(key, "lib") == 0) snprintf(m->lib, sizeof m->lib, "%s", rest);
        else if (strcmp(key, "entry") == 0) snprintf(m->entry, sizeof m->entry, "%s", rest);
        else if (strcmp(key, "kind") == 0) snprintf(m->kind, sizeof m->kind, "%s", rest);
        else if (strcmp(key, "arg") == 0 && m->nargs < MAX_VALUES) rc = read_value(rest, &m->args[m->nargs++], 0);
        else if (strcmp(key, "result") == 0 && m->nresults < MAX_VALUES)
            rc = read_value(rest, &m->results[m->nresults++], 1);
        else if (strcmp(key, "predict") == 0 && m->npredict < MAX_PREDICT) {
            int i = m->npredict++;
            if (sscanf(rest, "%31s %lf %lf", m->predict_device[i], &m->predict_us[i], &m->floor_us[i]) != 3) rc = -1;
        } else if (strcmp(key, "work") == 0) {
            if (sscanf(rest, "%lf %lf", &m->bytes, &m->flops) != 2) rc = -1;
        }
    }
    fclose(f);
    return rc;
}

/* Bytes of an element of each aot_dtype code (I2/I4/U2/U4 take a byte each). */
static size_t aot_dtype_size_local(int dtype) {
    static const size_t SIZES[] = {2, 2, 4, 8, 1, 1, 2, 4, 8, 1, 2, 4, 8, 8, 16, 1, 1, 1, 1};
    return dtype >= 0 && dtype < (int)(sizeof SIZES / sizeof SIZES[0]) ? SIZES[dtype] : 0;
}

static int64_t elements(const value *v) {
    int64_t n = 1;
    for (int d = 0; d < v->rank; d++) n *= v->dims[d];
    return n;
}

static void *read_file(const char *dir, const char *name, size_t want) {
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    void *data = malloc(want ? want : 1);
    size_t got = data ? fread(data, 1, want, f) : 0;
    fclose(f);
    if (got != want) {
        free(data);
        return NULL;
    }
    return data;
}

/* The generated inputs: element i is a uniform draw in [-SCALE, SCALE) from splitmix64 of
 * SEED + i * golden ratio, its top 24 bits made a float exactly (build.py computes the same
 * numbers with numpy, bit for bit, for the CPU build's outputs). */
static uint64_t splitmix64(uint64_t x) {
    x += 0x9E3779B97F4A7C15ULL;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
    return x ^ (x >> 31);
}

static void generate(float *out, int64_t n, uint64_t seed, double scale) {
    for (int64_t i = 0; i < n; i++) {
        uint64_t k = splitmix64(seed + (uint64_t)i * 0x9E3779B97F4A7C15ULL) >> 40;
        out[i] = (float)(((double)k * 0x1p-23 - 1.0) * scale);
    }
}

static double half_to_double(uint16_t h) {
    int e = (h >> 10) & 31, m = h & 1023;
    double v = e == 0 ? ldexp(m, -24) : e == 31 ? (m ? NAN : INFINITY) : ldexp(m + 1024, e - 25);
    return h & 0x8000 ? -v : v;
}

static double bf16_to_double(uint16_t b) {
    uint32_t bits = (uint32_t)b << 16;
    float f;
    memcpy(&f, &bits, sizeof f);
    return f;
}

/* Element i's part p (0: real or the value, 1: imaginary) as a double; -1 parts if not a float. */
static int float_parts(int dtype) {
    switch (dtype) {
    case AOT_F16: case AOT_BF16: case AOT_F32: case AOT_F64: return 1;
    case AOT_C64: case AOT_C128: return 2;
    default: return 0;
    }
}

static double part(const void *data, int dtype, int64_t i, int p) {
    switch (dtype) {
    case AOT_F16: return half_to_double(((const uint16_t *)data)[i]);
    case AOT_BF16: return bf16_to_double(((const uint16_t *)data)[i]);
    case AOT_F32: return ((const float *)data)[i];
    case AOT_F64: return ((const double *)data)[i];
    case AOT_C64: return ((const float *)data)[2 * i + p];
    default: return ((const double *)data)[2 * i + p]; /* AOT_C128 */
    }
}

typedef struct {
    void *lib;
    int (*entry)(const aot_tensor *, aot_tensor *);
    int (*device_entry)(const aot_tensor *, aot_tensor *, void *);
    const char *(*last_error)(void);
    void (*tensor_free)(aot_tensor *);
    void (*gpu_tensor_free)(aot_tensor *);
    void (*release_cached)(void);
} artifact;

/* Compares result r against its expected values; writes what went wrong into why. */
static int compare(const char *dir, const value *want, const aot_tensor *got, char *why, size_t cap) {
    if (got->rank != want->rank || got->dtype != want->dtype) {
        snprintf(why, cap, "result has rank %d dtype %d, expected rank %d dtype %d", got->rank, got->dtype,
                 want->rank, want->dtype);
        return 0;
    }
    for (int d = 0; d < want->rank; d++)
        if (got->dims[d] != want->dims[d]) {
            snprintf(why, cap, "result dim %d is %lld, expected %lld", d, (long long)got->dims[d],
                     (long long)want->dims[d]);
            return 0;
        }
    size_t size = aot_dtype_size_local(want->dtype);
    int sampled = strcmp(want->source, "sample") == 0;
    int64_t count = sampled ? want->count : elements(want), stride = sampled ? want->stride : 1;
    void *expected = read_file(dir, want->file, (size_t)count * size);
    if (!expected) {
        snprintf(why, cap, "cannot read %s", want->file);
        return 0;
    }
    int parts = float_parts(want->dtype), ok = 1;
    double worst = 0, allowed = 0;
    int64_t worst_at = -1;
    for (int64_t j = 0; j < count; j++) {
        int64_t i = j * stride;
        if (!parts) {
            if (memcmp((const char *)got->data + i * size, (const char *)expected + j * size, size)) {
                snprintf(why, cap, "element %lld differs (exact comparison)", (long long)i);
                ok = 0;
                break;
            }
            continue;
        }
        for (int p = 0; p < parts; p++) {
            double g = part(got->data, want->dtype, i, p), w = part(expected, want->dtype, j, p);
            if ((isnan(w) && isnan(g)) || g == w) continue; /* NaN where NaN is expected; equal infinities */
            double err = isinf(w) || isinf(g) ? INFINITY : fabs(g - w);
            double lim = isinf(w) ? 0 : want->atol + want->rtol * fabs(w);
            if (!(err <= lim) && (worst_at < 0 || !(err <= worst))) {
                worst = err, allowed = lim, worst_at = i, ok = 0;
                if (isnan(err)) break;
            }
        }
    }
    if (!ok && parts)
        snprintf(why, cap, "element %lld off by %.3g (allowed %.3g)", (long long)worst_at, worst, allowed);
    free(expected);
    return ok;
}

/* ---- the CUDA driver API, for the benchmarks' device buffers and events -------------------- */

typedef int CUresult;
typedef unsigned long long CUdeviceptr;
typedef void *CUstream, *CUevent, *CUcontext;

static struct {
    CUresult (*Init)(unsigned);
    CUresult (*DeviceGet)(int *, int);
    CUresult (*DeviceGetCount)(int *);
    CUresult (*DevicePrimaryCtxRetain)(CUcontext *, int);
    CUresult (*CtxSetCurrent)(CUcontext);
    CUresult (*MemAlloc)(CUdeviceptr *, size_t);
    CUresult (*MemFree)(CUdeviceptr);
    CUresult (*MemcpyHtoDAsync)(CUdeviceptr, const void *, size_t, CUstream);
    CUresult (*StreamCreate)(CUstream *, unsigned);
    CUresult (*StreamSynchronize)(CUstream);
    CUresult (*EventCreate)(CUevent *, unsigned);
    CUresult (*EventRecord)(CUevent, CUstream);
    CUresult (*EventSynchronize)(CUevent);
    CUresult (*EventElapsedTime)(float *, CUevent, CUevent);
    CUresult (*DeviceGetName)(char *, int, int); /* optional */
} cu;

/* Opens the driver library the artifacts open; "" on success, else why not. */
static const char *open_cuda(void) {
    static char why[512];
    static int opened;
    if (opened) return why;
    opened = 1;
    const char *path = getenv("AOT_CUDA_LIBRARY");
    const char *name = path && *path ? path : "libcuda.so.1";
    void *lib = dlopen(name, RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        snprintf(why, sizeof why, "no CUDA driver: %s", dlerror());
        return why;
    }
    static const char *NAMES[] = {"cuInit", "cuDeviceGet", "cuDeviceGetCount", "cuDevicePrimaryCtxRetain",
                                  "cuCtxSetCurrent", "cuMemAlloc_v2", "cuMemFree_v2", "cuMemcpyHtoDAsync_v2",
                                  "cuStreamCreate", "cuStreamSynchronize", "cuEventCreate", "cuEventRecord",
                                  "cuEventSynchronize", "cuEventElapsedTime", "cuDeviceGetName"};
    void **slots = (void **)&cu;
    for (size_t i = 0; i < sizeof NAMES / sizeof NAMES[0]; i++) {
        slots[i] = dlsym(lib, NAMES[i]);
        if (!slots[i] && strcmp(NAMES[i], "cuDeviceGetName") != 0) {
            snprintf(why, sizeof why, "the CUDA driver %s has no %s", name, NAMES[i]);
            return why;
        }
    }
    int device = 0, count = 0;
    CUcontext ctx;
    CUresult rc = cu.Init(0);
    if (!rc) rc = cu.DeviceGetCount(&count);
    if (!rc && !count) {
        snprintf(why, sizeof why, "the CUDA driver %s found no GPU", name);
        return why;
    }
    if (!rc) rc = cu.DeviceGet(&device, 0);
    if (!rc) rc = cu.DevicePrimaryCtxRetain(&ctx, device);
    if (!rc) rc = cu.CtxSetCurrent(ctx);
    if (rc) {
        snprintf(why, sizeof why, "CUDA initialisation failed (error %d)", rc);
        return why;
    }
    return "";
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Microseconds per call of the device entry on device copies of `args` (see the top). */
static double time_device(const artifact *a, const manifest *m, aot_tensor *args, char *why, size_t cap) {
    const char *err = open_cuda();
    if (*err) {
        snprintf(why, cap, "%s", err);
        return -1;
    }
    CUstream stream;
    CUevent start, stop;
    aot_tensor dargs[MAX_VALUES], dres[MAX_VALUES];
    int64_t dims[MAX_VALUES][MAX_RANK];
    memset(dres, 0, sizeof dres);
    double us = -1;
    if (cu.StreamCreate(&stream, 0) || cu.EventCreate(&start, 0) || cu.EventCreate(&stop, 0)) {
        snprintf(why, cap, "cannot create a CUDA stream or event");
        return -1;
    }
    for (int i = 0; i < m->nargs; i++) {
        size_t bytes = (size_t)elements(&m->args[i]) * aot_dtype_size_local(m->args[i].dtype);
        CUdeviceptr p = 0;
        dargs[i] = args[i];
        if (cu.MemAlloc(&p, bytes ? bytes : 1) || cu.MemcpyHtoDAsync(p, args[i].data, bytes, stream)) {
            snprintf(why, cap, "cannot copy argument %d to the GPU", i);
            return -1;
        }
        dargs[i].data = (void *)(uintptr_t)p;
    }
    for (int r = 0; r < m->nresults; r++) dres[r].dims = dims[r];
    cu.StreamSynchronize(stream);
    float ms = 0;
    cu.EventRecord(start, stream); /* the warm-up call (it allocates the results) sizes the batches */
    int rc = a->device_entry(dargs, dres, stream);
    cu.EventRecord(stop, stream);
    cu.EventSynchronize(stop);
    cu.EventElapsedTime(&ms, start, stop);
    if (rc) {
        snprintf(why, cap, "device entry failed: %s", a->last_error());
        return -1;
    }
    double one = ms * 1e-3 > 1e-7 ? ms * 1e-3 : 1e-7, batches[3];
    int reps = (int)(0.2 / one), nbatch = one > 1.0 ? 1 : 3;
    reps = reps < 1 ? 1 : reps > 10000 ? 10000 : reps;
    for (int b = 0; b < nbatch && !rc; b++) {
        cu.EventRecord(start, stream);
        for (int k = 0; k < reps && !rc; k++) rc = a->device_entry(dargs, dres, stream);
        cu.EventRecord(stop, stream);
        cu.EventSynchronize(stop);
        cu.EventElapsedTime(&ms, start, stop);
        batches[b] = ms * 1e3 / reps;
    }
    if (rc) snprintf(why, cap, "device entry failed: %s", a->last_error());
    else {
        qsort(batches, nbatch, sizeof batches[0], cmp_double);
        us = batches[nbatch / 2];
    }
    for (int r = 0; r < m->nresults; r++) a->gpu_tensor_free(&dres[r]);
    for (int i = 0; i < m->nargs; i++) cu.MemFree((CUdeviceptr)(uintptr_t)dargs[i].data);
    return us;
}

/* ---- one case, in a child process ---------------------------------------------------------- */

static void *symbol(void *lib, const char *prefix, const char *suffix) {
    char name[300];
    snprintf(name, sizeof name, "%s%s", prefix, suffix);
    return dlsym(lib, name);
}

/* One line of a case's outcome to the parent: "correct|wrong|error <measured us> <detail>"
 * (the detail on one line). */
static void report(FILE *out, const char *status, double us, const char *fmt, ...) {
    char detail[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(detail, sizeof detail, fmt, ap);
    va_end(ap);
    for (char *c = detail; *c; c++)
        if (*c == '\n' || *c == '\r') *c = ' ';
    fprintf(out, "%s %.3f %s\n", status, us, detail);
    fflush(out);
}

/* Runs case `dir` and reports it (see `report`). */
static void run_case(const char *dir, FILE *out) {
    char path[2048], why[512] = "";
    static manifest m;
    aot_tensor args[MAX_VALUES], results[MAX_VALUES];
    memset(args, 0, sizeof args);
    memset(results, 0, sizeof results);
    snprintf(path, sizeof path, "%s/manifest.txt", dir);
    if (read_manifest(path, &m)) {
        report(out, "error", -1, "cannot read %s", path);
        return;
    }
    snprintf(path, sizeof path, "%s/%s", dir, m.lib);
    artifact a;
    memset(&a, 0, sizeof a);
    a.lib = dlopen(path, RTLD_NOW | RTLD_LOCAL); /* never closed: its runtime may hold threads */
    if (!a.lib) {
        report(out, "error", -1, "%s", dlerror());
        return;
    }
    *(void **)&a.entry = symbol(a.lib, m.entry, "");
    *(void **)&a.device_entry = symbol(a.lib, m.entry, "_device");
    *(void **)&a.last_error = dlsym(a.lib, "aot_last_error");
    *(void **)&a.tensor_free = dlsym(a.lib, "aot_tensor_free");
    *(void **)&a.gpu_tensor_free = dlsym(a.lib, "aot_gpu_tensor_free");
    *(void **)&a.release_cached = dlsym(a.lib, "aot_gpu_release_cached_memory");
    if (!a.entry || !a.device_entry || !a.last_error || !a.tensor_free || !a.gpu_tensor_free || !a.release_cached)
        {
        report(out, "error", -1, "%s lacks %s, its device entry or the runtime's functions", m.lib, m.entry);
        return;
    }
    const char *status = "correct";
    double us = -1;
    for (int i = 0; i < m.nargs; i++) {
        value *v = &m.args[i];
        size_t n = (size_t)elements(v), bytes = n * aot_dtype_size_local(v->dtype);
        args[i] = (aot_tensor){NULL, v->dims, v->rank, v->dtype};
        if (strcmp(v->source, "gen") == 0) {
            args[i].data = malloc(bytes ? bytes : 1);
            if (args[i].data) generate(args[i].data, (int64_t)n, v->seed, v->scale);
        } else {
            args[i].data = read_file(dir, v->file, bytes);
        }
        if (!args[i].data) {
            status = "error";
            snprintf(why, sizeof why, "cannot read or make argument %d", i);
            break;
        }
    }
    if (!strcmp(status, "correct") && a.entry(args, results)) {
        status = "error";
        snprintf(why, sizeof why, "%s: %s", m.entry, a.last_error());
    }
    for (int r = 0; r < m.nresults && !strcmp(status, "correct"); r++) {
        char what[480];
        if (!compare(dir, &m.results[r], &results[r], what, sizeof what)) {
            status = "wrong";
            snprintf(why, sizeof why, "result %d: %s", r, what);
        }
    }
    for (int r = 0; r < m.nresults; r++) a.tensor_free(&results[r]);
    if (!strcmp(status, "correct") && strcmp(m.kind, "bench") == 0) {
        us = time_device(&a, &m, args, why, sizeof why);
        if (us < 0) status = "error";
    }
    for (int i = 0; i < m.nargs; i++) free(args[i].data);
    a.release_cached();
    report(out, status, us, "%s", why);
}

/* The device's name, from a child (this process never opens CUDA itself: children fork from
 * it), or why there is none. */
static void device_name(char *name, size_t cap) {
    int fds[2];
    if (pipe(fds)) return;
    pid_t pid = fork();
    if (pid == 0) {
        close(fds[0]);
        FILE *out = fdopen(fds[1], "w");
        const char *err = open_cuda();
        char buf[256] = "unknown GPU (the driver has no cuDeviceGetName)";
        if (*err) snprintf(buf, sizeof buf, "NONE %s", err);
        else if (cu.DeviceGetName) cu.DeviceGetName(buf, sizeof buf, 0);
        fprintf(out, "%s", buf);
        fclose(out);
        _exit(0);
    }
    close(fds[1]);
    FILE *in = fdopen(fds[0], "r");
    if (!fgets(name, (int)cap, in)) snprintf(name, cap, "NONE the device query crashed");
    fclose(in);
    waitpid(pid, NULL, 0);
    name[strcspn(name, "\n")] = '\0';
}

/* Microseconds with as many decimals as a small time needs. */
static void format_us(char *out, size_t cap, double us) {
    snprintf(out, cap, us >= 100 ? "%.0f" : us >= 1 ? "%.1f" : "%.3f", us);
}

static void print_row(const char *name, const manifest *m, const char *status, double us, const char *detail,
                      int predict_at) {
    char meas[32] = "-", pred[32] = "-", floor_[32] = "-", ratio[32] = "-", gbs[32] = "-", gfs[32] = "-";
    if (us >= 0) {
        format_us(meas, sizeof meas, us);
        if (m->bytes > 0) format_us(gbs, sizeof gbs, m->bytes / us * 1e-3);
        if (m->flops > 0) format_us(gfs, sizeof gfs, m->flops / us * 1e-3);
    }
    if (predict_at >= 0 && predict_at < m->npredict) {
        format_us(pred, sizeof pred, m->predict_us[predict_at]);
        format_us(floor_, sizeof floor_, m->floor_us[predict_at]);
        if (us >= 0) snprintf(ratio, sizeof ratio, "%.2f", us / m->predict_us[predict_at]);
    }
    printf("%-34s %-8s %10s %10s %10s %9s %9s %9s  %s\n", name, status, meas, pred, floor_, ratio, gbs, gfs, detail);
    fflush(stdout);
}

/* The worker: runs cases[from..n) in order in this process (one CUDA initialisation for all),
 * a line per case to `fd`, each case within `timeout` seconds (SIGALRM ends the worker). */
static void worker(const char *kit, char **cases, int from, int n, int timeout, int fd) {
    FILE *out = fdopen(fd, "w");
    for (int i = from; i < n; i++) {
        char dir[1024];
        snprintf(dir, sizeof dir, "%s/cases/%s", kit, cases[i]);
        alarm((unsigned)timeout);
        run_case(dir, out);
    }
    fclose(out);
    _exit(0);
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: %s KIT_DIR [CASE...]\n", argv[0]);
        return 2;
    }
    const char *kit = argv[1];
    char list[1024], line[512], gpu[256] = "";
    snprintf(list, sizeof list, "%s/cases.txt", kit);
    FILE *names = fopen(list, "r");
    if (!names) {
        fprintf(stderr, "cannot read %s\n", list);
        return 2;
    }
    char **cases = NULL;
    int n = 0;
    while (fgets(line, sizeof line, names)) {
        line[strcspn(line, "\n")] = '\0';
        int wanted = *line && argc == 2;
        for (int i = 2; i < argc && *line; i++) wanted |= strcmp(argv[i], line) == 0;
        if (!wanted) continue;
        cases = realloc(cases, (size_t)(n + 1) * sizeof *cases);
        cases[n++] = strdup(line);
    }
    fclose(names);
    device_name(gpu, sizeof gpu);
    if (strncmp(gpu, "NONE ", 5) == 0) {
        fprintf(stderr, "no usable GPU: %s\n", gpu + 5);
        return 2;
    }
    /* Which of the time model's devices to compare with: $KIT_MODEL, else the one the GPU's
     * name contains, else H100. */
    const char *model = getenv("KIT_MODEL");
    if (!model || !*model) model = strstr(gpu, "A100") ? "A100" : "H100";
    int timeout = getenv("KIT_TIMEOUT") ? atoi(getenv("KIT_TIMEOUT")) : 120;
    printf("GPU: %s; predictions of the time model for %s (estimates made without a GPU)\n", gpu, model);
    printf("%-34s %-8s %10s %10s %10s %9s %9s %9s  %s\n", "case", "result", "measured", "predicted", "floor",
           "meas/pred", "GB/s", "GFLOP/s", "detail");
    int counts[4] = {0}; /* correct, wrong, error, benchmarks timed */
    static manifest m;
    /* A worker runs the cases from `next` on; when one crashes or hangs, that case is an error
     * and a new worker goes on from the case after it. */
    for (int next = 0; next < n;) {
        int fds[2];
        if (pipe(fds)) return 2;
        fflush(stdout);
        pid_t pid = fork();
        if (pid == 0) {
            close(fds[0]);
            worker(kit, cases, next, n, timeout, fds[1]);
        }
        close(fds[1]);
        FILE *in = fdopen(fds[0], "r");
        char reply[1200];
        for (; next < n; next++) {
            char path[1100], verdict[16] = "error", detail[1024] = "";
            double us = -1;
            int got = fgets(reply, sizeof reply, in) != NULL;
            if (!got) { /* the worker died on this case */
                int status = 0;
                waitpid(pid, &status, 0);
                pid = -1;
                if (WIFSIGNALED(status) && WTERMSIG(status) == SIGALRM)
                    snprintf(detail, sizeof detail, "timed out after %d s", timeout);
                else if (WIFSIGNALED(status)) snprintf(detail, sizeof detail, "crashed: signal %d", WTERMSIG(status));
                else snprintf(detail, sizeof detail, "the worker exited with %d", WEXITSTATUS(status));
            } else {
                int used = 0;
                reply[strcspn(reply, "\n")] = '\0';
                if (sscanf(reply, "%15s %lf %n", verdict, &us, &used) >= 2)
                    snprintf(detail, sizeof detail, "%s", reply + used);
            }
            snprintf(path, sizeof path, "%s/cases/%s/manifest.txt", kit, cases[next]);
            int predict_at = -1;
            if (read_manifest(path, &m)) memset(&m, 0, sizeof m);
            for (int i = 0; i < m.npredict; i++)
                if (strcmp(m.predict_device[i], model) == 0) predict_at = i;
            counts[strcmp(verdict, "correct") == 0 ? 0 : strcmp(verdict, "wrong") == 0 ? 1 : 2]++;
            counts[3] += us >= 0;
            print_row(cases[next], &m, verdict, us, detail, predict_at);
            if (!got) {
                next++;
                break;
            }
        }
        fclose(in);
        if (pid > 0) waitpid(pid, NULL, 0);
    }
    printf("measured: CUDA events around the device entry on device buffers (median of batches), microseconds;\n"
           "predicted, floor: the time model's estimate and roofline floor for %s, summed over the kernels, made\n"
           "without a GPU; GB/s: the program's arguments and results bytes per measured time; GFLOP/s: its FLOPs\n"
           "(counted on the emulated grid) per measured time.\n", model);
    printf("summary: %d correct, %d wrong, %d errors; %d benchmarks timed\n", counts[0], counts[1], counts[2],
           counts[3]);
    return counts[1] || counts[2] || counts[0] == 0 ? 1 : 0;
}
