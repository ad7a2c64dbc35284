/* cuda_blas.c - matmuls through cuBLAS, opened with dlopen like the driver.
 *
 * Matmuls go to cuBLAS when it can be opened: AOT_CUBLAS_LIBRARY names it (then failing to
 * open it is an error), else libcublas.so.13/.12/.11 from the library path; AOT_CUBLAS=0
 * turns it off. Without it (or for a dot cuBLAS cannot take) the host code launches the
 * library's own tiled kernel: the host code asks aot_gpu_gemm_takes first. */
#include "cuda_internal.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef int cublasStatus;
typedef struct cublasContext *cublasHandle;

static struct {
    cublasStatus (*Create)(cublasHandle *);
    cublasStatus (*Destroy)(cublasHandle);
    cublasStatus (*SetStream)(cublasHandle, CUstream);
    cublasStatus (*GemmStridedBatchedEx)(cublasHandle, int, int, int, int, int, const void *, const void *,
                                         int, int, long long, const void *, int, int, long long,
                                         const void *, void *, int, int, long long, int, int, int);
} blas;

static const struct { const char *name; size_t offset; } BLAS_SYMBOLS[] = {
#define SYM(field, name) {name, offsetof(__typeof__(blas), field)}
    SYM(Create, "cublasCreate_v2"), SYM(Destroy, "cublasDestroy_v2"), SYM(SetStream, "cublasSetStream_v2"),
    SYM(GemmStridedBatchedEx, "cublasGemmStridedBatchedEx"),
#undef SYM
};

static pthread_once_t blas_once = PTHREAD_ONCE_INIT;
static char blas_error[512]; /* an explicitly named cuBLAS that could not be used */
static char blas_name[256];  /* the cuBLAS in use, "" for none */

static void open_blas(void) {
    const char *off = getenv("AOT_CUBLAS");
    if (off && strcmp(off, "0") == 0) return;
    const char *named = getenv("AOT_CUBLAS_LIBRARY");
    const char *const candidates[] = {named && *named ? named : "libcublas.so.13", "libcublas.so.12",
                                      "libcublas.so.11"};
    int tries = named && *named ? 1 : 3;
    for (int i = 0; i < tries; i++) {
        void *lib = dlopen(candidates[i], RTLD_NOW | RTLD_LOCAL);
        if (!lib) {
            if (tries == 1)
                snprintf(blas_error, sizeof blas_error, "cuBLAS not loaded: %s (%s)", candidates[i], dlerror());
            continue;
        }
        size_t j = 0;
        for (; j < sizeof BLAS_SYMBOLS / sizeof BLAS_SYMBOLS[0]; j++) {
            void *f = dlsym(lib, BLAS_SYMBOLS[j].name);
            if (!f) break;
            memcpy((char *)&blas + BLAS_SYMBOLS[j].offset, &f, sizeof f);
        }
        if (j == sizeof BLAS_SYMBOLS / sizeof BLAS_SYMBOLS[0]) {
            snprintf(blas_name, sizeof blas_name, "%s", candidates[i]);
            return;
        }
        if (tries == 1)
            snprintf(blas_error, sizeof blas_error, "cuBLAS %s has no %s", candidates[i], BLAS_SYMBOLS[j].name);
        dlclose(lib);
    }
}

const char *aot_gpu_blas_library(void) {
    pthread_once(&blas_once, open_blas);
    return blas_name[0] ? blas_name : NULL;
}

static __thread cublasHandle thread_blas;
static __thread int thread_blas_tried;
static pthread_key_t blas_key; /* destroys a thread's handle when the thread exits */

static void end_of_blas(void *handle) { blas.Destroy(handle); }
static void make_blas_key(void) { pthread_key_create(&blas_key, end_of_blas); }

/* This thread's cuBLAS handle, or NULL when there is no cuBLAS (or it cannot make one,
 * as on a machine whose GPU only the driver double provides). */
static cublasHandle blas_handle(void) {
    if (thread_blas_tried) return thread_blas;
    thread_blas_tried = 1;
    if (!aot_gpu_blas_library()) return NULL;
    static pthread_once_t key_once = PTHREAD_ONCE_INIT;
    pthread_once(&key_once, make_blas_key);
    if (blas.Create(&thread_blas) != 0) thread_blas = NULL;
    else pthread_setspecific(blas_key, thread_blas);
    return thread_blas;
}

enum { CUDA_R_32F = 0, CUDA_R_64F = 1, CUDA_R_16F = 2, CUDA_R_16BF = 14 };
enum { CUBLAS_COMPUTE_32F = 68, CUBLAS_COMPUTE_64F = 70, CUBLAS_GEMM_DEFAULT = -1 };

static int blas_type(int32_t dtype) {
    return dtype == AOT_F32 ? CUDA_R_32F : dtype == AOT_F64 ? CUDA_R_64F : dtype == AOT_F16 ? CUDA_R_16F
         : dtype == AOT_BF16 ? CUDA_R_16BF : -1;
}

int aot_gpu_gemm_takes(int32_t dtype, int64_t batch, int64_t m, int64_t n, int64_t k) {
    pthread_once(&blas_once, open_blas);
    if (blas_error[0]) return 1; /* aot_gpu_gemm reports it */
    if (blas_type(dtype) < 0 || k <= 0 || m > INT32_MAX || n > INT32_MAX || k > INT32_MAX || batch > INT32_MAX)
        return 0;
    if (batch <= 0 || m <= 0 || n <= 0) return 1; /* an empty result: nothing to do */
    return aot__cuda_ready() == AOT_OK && blas_handle() != NULL;
}

int aot_gpu_gemm(int32_t dtype, int32_t lhs_transposed, int32_t rhs_transposed, int64_t batch, int64_t m,
                 int64_t n, int64_t k, const void *lhs, const void *rhs, void *out) {
    if (blas_error[0]) return aot_set_error(AOT_ERR_RUNTIME, "%s", blas_error);
    if (batch <= 0 || m <= 0 || n <= 0) return AOT_OK;
    cublasHandle handle = blas_handle();
    if (!handle) return aot_set_error(AOT_ERR_RUNTIME, "no cuBLAS handle (aot_gpu_gemm_takes said no)");
    /* Row-major out[m,n] = lhs[m,k] rhs[k,n] is column-major out^T = rhs^T lhs^T: cuBLAS's
     * A is our rhs and its B our lhs, each read transposed when it is stored [n,k] / [k,m]. */
    int type = blas_type(dtype), wide = type == CUDA_R_64F;
    double one = 1.0, zero = 0.0;
    float one_f = 1.0f, zero_f = 0.0f;
    cublasStatus s = blas.SetStream(handle, aot__cuda_stream());
    if (s == 0)
        s = blas.GemmStridedBatchedEx(handle, rhs_transposed ? 1 : 0, lhs_transposed ? 1 : 0, (int)n, (int)m,
                                      (int)k, wide ? (void *)&one : (void *)&one_f, rhs, type,
                                      (int)(rhs_transposed ? k : n), (long long)(k * n), lhs, type,
                                      (int)(lhs_transposed ? m : k), (long long)(m * k),
                                      wide ? (void *)&zero : (void *)&zero_f, out, type, (int)n,
                                      (long long)(m * n), (int)batch,
                                      wide ? CUBLAS_COMPUTE_64F : CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
    return s ? aot_set_error(AOT_ERR_RUNTIME, "cuBLAS gemm failed (status %d) for %lldx[%lld,%lld]x[%lld,%lld]",
                             s, (long long)batch, (long long)m, (long long)k, (long long)k, (long long)n)
             : AOT_OK;
}

