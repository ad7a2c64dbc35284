/* cuda_internal.h - what the GPU target's runtime files (device/cuda_*.c) share; not
 * installed. Compiled only into artifacts whose target has device kernels.
 *
 * Nothing here links against CUDA: `libcuda.so.1` (or the library AOT_CUDA_LIBRARY names,
 * such as the tests' driver double) is opened on the first call that needs the device,
 * once per process (cuda_driver.c). Every failure is an error code with aot_last_error()
 * saying what went wrong ("no CUDA driver found: libcuda.so.1 ...", the JIT log of a PTX
 * the driver rejected, the driver's own error string), never a crash.
 *
 * Generated host code sees device buffers as plain pointers (CUdeviceptr values): it
 * allocates them with aot_gpu_alloc right before the kernel that needs them and frees them
 * right after (cuda_memory.c), copies with aot_gpu_copy_* (cuda_copy.c), and launches with
 * aot_gpu_launch (cuda_launch.c: the grid, block and dynamic shared memory of the kernel's
 * launch record), or calls cuBLAS for a matmul (cuda_blas.c). All work of a calling thread
 * goes to that thread's stream, in order; copies to the host wait for it. The stream is
 * destroyed when its thread exits. A device entry's results are handed over by
 * cuda_results.c. */
#ifndef AOT_CUDA_INTERNAL_H
#define AOT_CUDA_INTERNAL_H

#include "../aot_internal.h"

typedef int CUresult;
typedef int CUdevice;
typedef unsigned long long CUdeviceptr;
typedef struct CUctx_st *CUcontext;
typedef struct CUmod_st *CUmodule;
typedef struct CUfunc_st *CUfunction;
typedef struct CUstream_st *CUstream;

enum { CU_JIT_ERROR_LOG_BUFFER = 5, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6 };

/* The driver entry points this runtime uses, by the names libcuda exports; filled by
 * aot__cuda_ready (and aot_gpu_use_device) before any other use. */
typedef struct aot__cuda_driver {
    CUresult (*Init)(unsigned);
    CUresult (*DeviceGetCount)(int *);
    CUresult (*DeviceGet)(CUdevice *, int);
    CUresult (*DevicePrimaryCtxRetain)(CUcontext *, CUdevice);
    CUresult (*CtxSetCurrent)(CUcontext);
    CUresult (*ModuleLoadDataEx)(CUmodule *, const void *, unsigned, int *, void **);
    CUresult (*ModuleGetFunction)(CUfunction *, CUmodule, const char *);
    CUresult (*LaunchKernel)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned,
                             unsigned, unsigned, CUstream, void **, void **);
    CUresult (*MemAlloc)(CUdeviceptr *, size_t);
    CUresult (*MemFree)(CUdeviceptr);
    CUresult (*MemcpyHtoDAsync)(CUdeviceptr, const void *, size_t, CUstream);
    CUresult (*MemcpyDtoHAsync)(void *, CUdeviceptr, size_t, CUstream);
    CUresult (*MemcpyDtoDAsync)(CUdeviceptr, CUdeviceptr, size_t, CUstream);
    CUresult (*StreamCreate)(CUstream *, unsigned);
    CUresult (*StreamSynchronize)(CUstream);
    CUresult (*StreamDestroy)(CUstream);
    CUresult (*GetErrorString)(CUresult, const char **);
} aot__cuda_driver;

extern aot__cuda_driver aot__cu;

/* The driver ready, this thread's context current and its stream made: AOT_OK, else an
 * error code with the error set (cuda_driver.c). */
int aot__cuda_ready(void);

/* The stream this thread's work goes to: a device entry's caller's during its call, else
 * the thread's own (NULL before aot__cuda_ready). */
CUstream aot__cuda_stream(void);

/* Sets "CUDA <what> failed: <the driver's text> (error N)" (out of memory for error 2);
 * returns the error code. */
int aot__cuda_error(CUresult rc, const char *what);

/* A stream about to be destroyed, already synchronised: the allocator forgets it
 * (cuda_memory.c). */
void aot__cuda_forget_stream(CUstream stream);

/* A live device block's requested size, or -1 when p is not one (cuda_memory.c). */
int64_t aot__gpu_block_size(const void *p);

/* Records the runtime-owned dims array of the live device block at p (freed with it). */
void aot__gpu_block_set_dims(void *p, int64_t *dims);

/* The runtime-owned dims array of the live device block at p, or NULL. */
int64_t *aot__gpu_block_dims(const void *p);

#endif /* AOT_CUDA_INTERNAL_H */
