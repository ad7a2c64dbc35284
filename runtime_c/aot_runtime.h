/* aot_runtime.h - the one stable header of the aotc C runtime.
 *
 * Every artifact aotc builds (model.o / libmodel.a / libmodel.so) links this
 * runtime in.  A compiled model named NAME with entry function F exports
 *
 *     int NAME_F(const aot_tensor *args, aot_tensor *results);
 *     const aot_library_info *NAME_aot_metadata(void);
 *     const aot_library_info *aot_library_metadata(void);   (shared libs only)
 *
 * An entry returns AOT_OK (0) or an error code; the message is then in
 * aot_last_error() on the calling thread.  Entries never print and never
 * abort.  They are safe to call from several threads at once.
 *
 * Ownership in one paragraph: arguments always belong to the caller and are
 * only read.  A result whose `data` is non-NULL on entry is caller-owned: the
 * entry checks its dtype and dims and writes into it (no allocation); its
 * memory must not overlap an argument's or another result's, since kernels
 * read arguments while they write results (the Python loader refuses such
 * out= arrays; C callers must not pass them).  A
 * result whose `data` is NULL is filled by the runtime: `data` is allocated,
 * and `dims` too when it was NULL (else the caller's `dims` array, at least
 * `rank` long, is written).  The caller releases such a result with
 * aot_tensor_free().  On failure every result the runtime allocated during
 * the call has been freed again and its `data` reset to NULL.
 *
 * The text between the cffi-begin and cffi-end markers is read verbatim by
 * the Python loader (abi/loader.py) as its cffi cdef, so that slice holds
 * only typedefs, enums with explicit values and prototypes: no macros, no
 * includes.  This header is the single source of truth for the ABI.
 */
#ifndef AOT_RUNTIME_H
#define AOT_RUNTIME_H

/* The ABI this header describes: aot_library_metadata()->abi_version of the libraries built
 * with it. A generated NAME.h refuses to compile against another version. */
#define AOT_ABI_VERSION 1

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* cffi-begin */

/* ---- Public API: types ------------------------------------------------ */

/* Element types; codes are part of the ABI.  I1 is stored as one byte 0/1;
 * C64/C128 are complex<f32>/complex<f64>, interleaved (re, im) pairs as C99's
 * float complex / double complex.  I2/I4/U2/U4 take a byte each (as ml_dtypes'
 * int2/int4/uint2/uint4): read from the low 2 or 4 bits, written sign- (I2, I4)
 * or zero-extended (U2, U4).  Names (aot_dtype_name) use MLIR spellings:
 * f16 bf16 f32 f64 i1 i8 i16 i32 i64 ui8 ui16 ui32 ui64 complex<f32>
 * complex<f64> i2 i4 ui2 ui4. */
typedef enum aot_dtype {
    AOT_F16 = 0,
    AOT_BF16 = 1,
    AOT_F32 = 2,
    AOT_F64 = 3,
    AOT_I1 = 4,
    AOT_I8 = 5,
    AOT_I16 = 6,
    AOT_I32 = 7,
    AOT_I64 = 8,
    AOT_U8 = 9,
    AOT_U16 = 10,
    AOT_U32 = 11,
    AOT_U64 = 12,
    AOT_C64 = 13,
    AOT_C128 = 14,
    AOT_I2 = 15,
    AOT_I4 = 16,
    AOT_U2 = 17,
    AOT_U4 = 18
} aot_dtype;

/* Status codes returned by entry functions and runtime calls. */
typedef enum aot_status {
    AOT_OK = 0,
    AOT_ERR_INVALID_ARGUMENT = 1,
    AOT_ERR_OUT_OF_MEMORY = 2,
    AOT_ERR_RUNTIME = 3
} aot_status;

/* A dense, row-major, contiguous array.  `dims` has `rank` entries (may be
 * NULL when rank == 0); `dtype` is an aot_dtype code.  Who owns `data` and
 * `dims` depends on the call: see the ownership paragraph at the top. */
typedef struct aot_tensor {
    void *data;
    int64_t *dims;
    int32_t rank;
    int32_t dtype;
} aot_tensor;

/* Signature of one argument or result.  dims[d] == -1 marks a dynamic
 * dimension.  Static metadata owned by the library: never free it. */
typedef struct aot_value_info {
    const char *name;
    int32_t dtype;
    int32_t rank;
    const int64_t *dims;
} aot_value_info;

typedef int (*aot_entry_fn)(const aot_tensor *args, aot_tensor *results);

/* The shape query of an entry (NAME_F_output_shapes): takes the same arguments
 * as the entry and writes, without running its data kernels, the dims of every
 * result in order (ranks summed; -1 for a dim that depends on the data, such
 * as the count of a `where`) into the caller's `result_dims`, and the peak
 * bytes the call will allocate (-1 when that depends on the data) into
 * `*peak_bytes`. Arguments whose values feed shapes must hold their data. */
typedef int (*aot_shape_fn)(const aot_tensor *args, int64_t *result_dims, int64_t *peak_bytes);

/* One entry function: `name` is the function's name in the program ("main"),
 * `symbol` the exported C symbol ("NAME_main"), `fn` its address,
 * `output_shapes` its shape query (NULL if the library has none). */
typedef struct aot_entry_info {
    const char *name;
    const char *symbol;
    aot_entry_fn fn;
    int32_t num_args;
    int32_t num_results;
    const aot_value_info *args;
    const aot_value_info *results;
    aot_shape_fn output_shapes;
} aot_entry_info;

/* What NAME_aot_metadata() / aot_library_metadata() return: static data
 * owned by the library, valid while it is loaded.  abi_version is 1. */
typedef struct aot_library_info {
    int32_t abi_version;
    int32_t num_entries;
    const char *name;
    const aot_entry_info *entries;
} aot_library_info;

/* Allocator counters of this runtime copy (one per linked artifact). */
typedef struct aot_alloc_stats {
    int64_t bytes_in_use;      /* bytes requested and not yet freed */
    int64_t peak_bytes_in_use; /* high-water mark of bytes_in_use */
    int64_t num_allocs;        /* aot_alloc calls that succeeded */
    int64_t num_frees;         /* aot_free calls on live blocks */
    int64_t cache_hits;        /* allocations served from the cache */
} aot_alloc_stats;

/* ---- Public API: functions -------------------------------------------- */

/* Message of the last failure on the calling thread, "" if none.  The
 * string is owned by the runtime (thread-local) and stays valid until the
 * next failing call on this thread. */
const char *aot_last_error(void);

/* Frees a result the runtime allocated (data == NULL on entry): its data,
 * and its dims when the runtime allocated them.  Sets data (and such dims)
 * to NULL.  Safe on t == NULL or t->data == NULL.  Never call it on
 * caller-owned data. */
void aot_tensor_free(aot_tensor *t);

/* Byte size of one element (1 for i1); 0 for an unknown code. */
size_t aot_dtype_size(int32_t dtype);

/* MLIR spelling of a dtype ("f32", "ui8"...); static string, "?" if the
 * code is unknown. */
const char *aot_dtype_name(int32_t dtype);

/* Copies the allocator counters into *out (caller-owned). */
void aot_get_alloc_stats(aot_alloc_stats *out);

/* Resets peak_bytes_in_use (to bytes_in_use) and the counters; keeps
 * bytes_in_use. */
void aot_reset_alloc_stats(void);

/* Returns the blocks the caching allocator keeps for reuse to the system, and
 * the calling thread's kernel scratch (aot_thread_scratch). */
void aot_release_cached_memory(void);

/* Threads used by aot_parallel_for, the caller included.  n < 1 restores
 * the default: env AOT_NUM_THREADS, else the number of usable CPUs. */
void aot_set_num_threads(int n);
int aot_get_num_threads(void);

/* Defined by each compiled shared library (not by the runtime; static
 * artifacts have only NAME_aot_metadata): the same pointer as
 * NAME_aot_metadata(), under one name a loader can look up. */
const aot_library_info *aot_library_metadata(void);

/* ---- Device targets: only in artifacts built with --target cuda ------- */

/* The device allocator's counters (runtime_c/device/cuda_memory.c), as
 * aot_get_alloc_stats's for the host: buffers the artifact allocates in GPU
 * memory. Constants copied to the device once are not counted. */
void aot_gpu_get_alloc_stats(aot_alloc_stats *out);
void aot_gpu_reset_alloc_stats(void);

/* The cuBLAS library this artifact's matmuls go to (AOT_CUBLAS_LIBRARY, else
 * libcublas.so.13/.12/.11 from the library path), or NULL when its own tiled
 * kernels run them (no cuBLAS found, or AOT_CUBLAS=0). */
const char *aot_gpu_blas_library(void);

/* Returns the device blocks the caching allocator keeps for reuse to the driver. */
void aot_gpu_release_cached_memory(void);

/* The device allocator's memory limit, as aot_set_memory_limit's on the host: caps the
 * device memory it holds (live blocks at their size class, plus the cached ones). The
 * default is env AOT_GPU_MEMORY_LIMIT (bytes, or 512k, 64M, 2g: powers of 1024, read
 * once); 0 or less removes it. An allocation that would pass it gives cached blocks back
 * to the driver, biggest first, until it fits, then takes its exact size, then fails the
 * call with AOT_ERR_OUT_OF_MEMORY: "out of device memory: needs N bytes (device memory
 * limit L bytes, H held)". aot_gpu_get_held_bytes: what the limit counts now. */
void aot_gpu_set_memory_limit(int64_t bytes);
int64_t aot_gpu_get_memory_limit(void);
int64_t aot_gpu_get_held_bytes(void);

/* Each entry NAME_F of a cuda (or cuda,cpu) artifact also has a device entry
 *
 *   int NAME_F_device(const aot_tensor *args, aot_tensor *results, void *stream);
 *
 * taking and returning device memory, so that data stays on the GPU: every
 * args[i].data is a device pointer (a CUdeviceptr), dims stay in host
 * memory. A result with data == NULL gets a device buffer from the library's
 * device allocator (and dims, when NULL, owned by the runtime): free it with
 * aot_gpu_tensor_free. A result with data set is the caller's device buffer,
 * checked against the result's shape. The work runs on `stream` (a CUstream
 * of the primary context of device 0; NULL: a stream of the calling thread's
 * own) and may still be running when the call returns: synchronize the
 * stream before reading the results. It always uses the GPU, also in a
 * cuda,cpu artifact. */

/* Frees a result a device entry allocated (data == NULL on entry): its device
 * data, and its dims when the runtime allocated them. Sets data (and such
 * dims) to NULL. Safe on NULL. */
void aot_gpu_tensor_free(aot_tensor *t);

/* ---- Internal API: called by generated code --------------------------- */
/* Not meant for users; listed here so there is one declaration of the ABI. */

/* 64-byte aligned block of nbytes (0 gives a unique valid pointer), owned
 * by the caller until aot_free.  NULL with AOT_ERR_OUT_OF_MEMORY's message
 * set on failure.  Thread-safe.  AOT_ALLOCATOR=system in the environment
 * turns the cache off (plain aligned malloc/free). */
void *aot_alloc(int64_t nbytes);

/* Releases a block from aot_alloc; NULL is ignored. */
void aot_free(void *p);

/* The calling thread's scratch of at least nbytes, 64-byte aligned, reused
 * by later calls on the same thread and freed when it exits (or, for the
 * calling thread, by aot_release_cached_memory).  NULL if it cannot be had
 * (or AOT_KERNEL_SCRATCH=off is set, to test that path): kernels then fall
 * back to a smaller workspace on the stack. */
void *aot_thread_scratch(int64_t nbytes);

/* Sets the calling thread's error message (printf-style); returns code. */
int aot_set_error(int code, const char *fmt, ...);

/* Checks args[index] against info: dtype, rank, every static dim, data
 * non-NULL unless the array is empty, dims non-NULL when rank > 0.
 * Returns AOT_OK or AOT_ERR_INVALID_ARGUMENT with a message like
 * "main: argument 'x' (#0) expects f32[4,?], got f32[3,8]". */
int aot_check_arg(const aot_tensor *args, int32_t index,
                  const aot_value_info *info, const char *entry);

/* Gets results[index] ready for writing, given this call's actual dims
 * (info->rank of them).  data == NULL: allocates data (and dims when NULL,
 * runtime-owned), sets dtype/rank/dims, *owned = 1.  Else the caller owns
 * the buffer: checks dtype, rank and dims, *owned = 0. */
int aot_prepare_result(aot_tensor *results, int32_t index,
                       const aot_value_info *info, const char *entry,
                       const int64_t *dims, int32_t *owned);

/* Error path: undoes aot_prepare_result when it allocated (owned != 0). */
void aot_unprepare_result(aot_tensor *results, int32_t index, int32_t owned);

/* Hands a buffer computed by aot_alloc, whose dims are only known now, to
 * results[index]: ownership moves to the caller when data == NULL, else
 * the buffer is copied into the caller's data (dims checked) and freed.
 * On error the buffer is freed too: the caller never frees it after this. */
int aot_adopt_result(aot_tensor *results, int32_t index,
                     const aot_value_info *info, const char *entry,
                     void *buffer, const int64_t *dims);

/* Runs fn(ctx, begin, end) over chunks covering [0, n) exactly once, on a
 * lazily created pool of aot_get_num_threads() threads (the caller works
 * too), and returns when all are done.  Safe from several threads at once;
 * a call made while the pool is busy (or from inside fn) runs serially on
 * the calling thread. */
void aot_parallel_for(int64_t n, void (*fn)(void *ctx, int64_t begin, int64_t end),
                      void *ctx);

/* Device targets. Whether a two-target artifact (--target cuda,cpu) runs its
 * entries on the GPU in this process: AOT_DEVICE=cpu|cuda forces it, else the
 * GPU when the CUDA driver loads and has a device. Decided once. */
int aot_gpu_use_device(void);

/* An artifact's PTX, once the driver loaded it its module, and a slot per
 * kernel for its function handle (looked up once per load). */
typedef struct aot_gpu_module {
    const char *ptx;
    void *module;
    void **functions;
} aot_gpu_module;

/* Launches kernel number `kernel`, named `name`, of m's PTX (loaded on first
 * use) on the calling thread's stream: its parameters as n 64-bit slots;
 * shape[0..2] the grid's blocks along x, y, z, shape[3..5] the block's
 * threads along x, y, z, shape[6] its dynamic shared memory in bytes. */
int aot_gpu_launch(aot_gpu_module *m, int32_t kernel, const char *name, int64_t *params, int32_t n,
                   const int64_t *shape);

/* A strided-batched row-major matmul on device buffers through cuBLAS:
 * out[b] = lhs[b] (m x k, or k x m when lhs_transposed) times rhs[b] (k x n,
 * or n x k when rhs_transposed), dtype an aot_dtype (f16, bf16, f32, f64),
 * on the calling thread's stream. aot_gpu_gemm_takes says first whether
 * cuBLAS runs it (1) or the caller launches its own kernel (0: no cuBLAS, or
 * sizes it does not take); aot_gpu_gemm returns AOT_OK or an error code. */
int aot_gpu_gemm_takes(int32_t dtype, int64_t batch, int64_t m, int64_t n, int64_t k);
int aot_gpu_gemm(int32_t dtype, int32_t lhs_transposed, int32_t rhs_transposed,
                 int64_t batch, int64_t m, int64_t n, int64_t k,
                 const void *lhs, const void *rhs, void *out);

/* A device entry's stream for the calling thread (NULL: its own); returns
 * the previous one. */
void *aot_gpu_swap_stream(void *stream);

/* aot_prepare_result, aot_unprepare_result and aot_adopt_result for a device
 * entry's results: device buffers from aot_gpu_alloc. */
int aot_prepare_device_result(aot_tensor *results, int32_t index,
                              const aot_value_info *info, const char *entry,
                              const int64_t *dims, int32_t *owned);
void aot_unprepare_device_result(aot_tensor *results, int32_t index, int32_t owned);
int aot_adopt_device_result(aot_tensor *results, int32_t index,
                            const aot_value_info *info, const char *entry,
                            void *buffer, const int64_t *dims);

/* Device memory: NULL with the error set on failure; freeing NULL is a no-op. */
void *aot_gpu_alloc(int64_t nbytes);
void aot_gpu_free(void *p);

/* A device copy of constant host data, made once per process. */
void *aot_gpu_constant(const void *host, int64_t nbytes);

/* Copies on the calling thread's stream; the ones that read or write host
 * memory return when it is done. AOT_OK or an error code. */
int aot_gpu_copy_to_device(void *dst, const void *src, int64_t nbytes);
int aot_gpu_copy_to_host(void *dst, const void *src, int64_t nbytes);
int aot_gpu_copy(void *dst, const void *src, int64_t nbytes);

/* ---- Memory limit (host allocator) ------------------------------------ */

/* Caps the bytes this runtime copy's allocator holds: the capacity of its
 * live blocks plus the blocks it caches for reuse (block headers and kernel
 * scratch are not counted).  An allocation that would pass the cap first
 * returns cached blocks to the system, biggest first, until it fits (a cap set
 * below what is held: until that fits); if it still does not fit, the call
 * needing it fails with AOT_ERR_OUT_OF_MEMORY and "out of memory: needs N
 * bytes for ...".  bytes <= 0 removes the cap.  The default comes from env
 * AOT_MEMORY_LIMIT (bytes, or with a k/M/G suffix: powers of 1024), read
 * once.  Thread-safe; blocks already live are never taken back. */
void aot_set_memory_limit(int64_t bytes);
/* The cap in bytes, 0 when there is none. */
int64_t aot_get_memory_limit(void);
/* Bytes the allocator holds now, as the cap counts them (live + cached). */
int64_t aot_get_held_bytes(void);

/* aot_alloc for generated code that can name the buffer: on failure the
 * message is "out of memory: needs N bytes for <what>" (what may be NULL). */
void *aot_alloc_for(int64_t nbytes, const char *what);

/* cffi-end */

#ifdef __cplusplus
}
#endif

#endif /* AOT_RUNTIME_H */
