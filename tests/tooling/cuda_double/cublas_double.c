/* cublas_double.c - a test double of the four cuBLAS entry points the runtime uses
 * (runtime_c/device/cuda_blas.c), for machines without a GPU. With the driver double
 * (double.c) "device" memory is host memory, so the GEMM here is a plain loop over it,
 * accumulating in double: a reference, not a fast path.
 *
 * Selected with AOT_CUBLAS_LIBRARY=path. AOT_CUBLAS_DOUBLE_FAIL=gemm makes the next GEMMs
 * fail (status 13, CUBLAS_STATUS_EXECUTION_FAILED) and =create the handle creation (the
 * runtime then uses its own kernels). `aot_cublas_double_gemms()` counts the GEMMs run, so
 * a test can tell which path a call took, and `aot_cublas_double_handles()` the handles
 * alive. */
#include <math.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum { SUCCESS = 0, NOT_INITIALIZED = 1, INVALID_VALUE = 7, EXECUTION_FAILED = 13 };
enum { R_32F = 0, R_64F = 1, R_16F = 2, R_16BF = 14 };

static atomic_long gemms, handles;

long aot_cublas_double_gemms(void) { return gemms; }
long aot_cublas_double_handles(void) { return handles; }

static int failing(const char *what) {
    const char *f = getenv("AOT_CUBLAS_DOUBLE_FAIL");
    return f && strcmp(f, what) == 0;
}

struct handle {
    void *stream;
};

int cublasCreate_v2(struct handle **out) {
    if (failing("create")) return NOT_INITIALIZED;
    *out = calloc(1, sizeof **out);
    if (!*out) return NOT_INITIALIZED;
    handles++;
    return SUCCESS;
}

int cublasDestroy_v2(struct handle *h) {
    if (h) handles--;
    free(h);
    return SUCCESS;
}

int cublasSetStream_v2(struct handle *h, void *stream) {
    h->stream = stream; /* the driver double runs all work at once: no stream order to keep */
    return SUCCESS;
}

static double half_to_double(uint16_t h) {
    int exp = (h >> 10) & 31, man = h & 1023;
    double v = exp == 0 ? man / 1024.0 / 16384.0 : exp == 31 ? (man ? NAN : INFINITY)
                                                               : (1 + man / 1024.0) * ((double)(1 << exp) / 32768.0);
    return h >> 15 ? -v : v;
}

static uint16_t float_to_half(float f) { /* round to nearest even, via the compiler's _Float16 */
    _Float16 h = (_Float16)f;
    uint16_t bits;
    memcpy(&bits, &h, 2);
    return bits;
}

static double load(const void *p, int type, long long i) {
    switch (type) {
    case R_32F: return ((const float *)p)[i];
    case R_64F: return ((const double *)p)[i];
    case R_16F: return half_to_double(((const uint16_t *)p)[i]);
    default: {
        uint32_t bits = (uint32_t)((const uint16_t *)p)[i] << 16;
        float f;
        memcpy(&f, &bits, 4);
        return f;
    }
    }
}

static void store(void *p, int type, long long i, double v) {
    float f = (float)v;
    uint32_t bits;
    switch (type) {
    case R_32F: ((float *)p)[i] = f; break;
    case R_64F: ((double *)p)[i] = v; break;
    case R_16F: ((uint16_t *)p)[i] = float_to_half(f); break;
    default: /* bf16: round to nearest even */
        memcpy(&bits, &f, 4);
        ((uint16_t *)p)[i] = (uint16_t)((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16);
    }
}

/* Column-major C[b] = alpha op(A[b]) op(B[b]) + beta C[b], as cuBLAS defines it. */
int cublasGemmStridedBatchedEx(struct handle *h, int transa, int transb, int m, int n, int k,
                               const void *alpha, const void *A, int atype, int lda, long long stride_a,
                               const void *B, int btype, int ldb, long long stride_b, const void *beta,
                               void *C, int ctype, int ldc, long long stride_c, int batch, int compute,
                               int algo) {
    (void)algo;
    if (!h || m < 0 || n < 0 || k < 0 || batch < 0) return INVALID_VALUE;
    if (failing("gemm")) return EXECUTION_FAILED;
    double a_scale = compute == 70 ? *(const double *)alpha : *(const float *)alpha;
    double b_scale = compute == 70 ? *(const double *)beta : *(const float *)beta;
    for (long long b = 0; b < batch; b++)
        for (int j = 0; j < n; j++)
            for (int i = 0; i < m; i++) {
                double sum = 0;
                for (int l = 0; l < k; l++) {
                    long long ai = transa ? (long long)i * lda + l : (long long)l * lda + i;
                    long long bi = transb ? (long long)l * ldb + j : (long long)j * ldb + l;
                    sum += load(A, atype, b * stride_a + ai) * load(B, btype, b * stride_b + bi);
                }
                long long ci = b * stride_c + (long long)j * ldc + i;
                double old = b_scale != 0 ? load(C, ctype, ci) : 0;
                store(C, ctype, ci, a_scale * sum + b_scale * old);
            }
    gemms++;
    return SUCCESS;
}
