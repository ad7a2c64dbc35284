/* cuda_driver.c - the CUDA driver API opened with dlopen on first use, a stream per calling
 * thread (or a device entry's caller's), and the cuda,cpu choice of an artifact built for
 * both. See cuda_internal.h for how the device files fit together. */
#include "cuda_internal.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

aot__cuda_driver aot__cu;

static const struct { const char *name; size_t offset; } SYMBOLS[] = {
#define SYM(field, name) {name, offsetof(aot__cuda_driver, field)}
    SYM(Init, "cuInit"), SYM(DeviceGetCount, "cuDeviceGetCount"), SYM(DeviceGet, "cuDeviceGet"),
    SYM(DevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain"), SYM(CtxSetCurrent, "cuCtxSetCurrent"),
    SYM(ModuleLoadDataEx, "cuModuleLoadDataEx"), SYM(ModuleGetFunction, "cuModuleGetFunction"),
    SYM(LaunchKernel, "cuLaunchKernel"), SYM(MemAlloc, "cuMemAlloc_v2"), SYM(MemFree, "cuMemFree_v2"),
    SYM(MemcpyHtoDAsync, "cuMemcpyHtoDAsync_v2"), SYM(MemcpyDtoHAsync, "cuMemcpyDtoHAsync_v2"),
    SYM(MemcpyDtoDAsync, "cuMemcpyDtoDAsync_v2"), SYM(StreamCreate, "cuStreamCreate"),
    SYM(StreamSynchronize, "cuStreamSynchronize"), SYM(StreamDestroy, "cuStreamDestroy_v2"),
    SYM(GetErrorString, "cuGetErrorString"),
#undef SYM
};

static pthread_once_t init_once = PTHREAD_ONCE_INIT;
static char init_error[512] = "CUDA initialisation did not finish"; /* "" once ready */
static CUcontext context;

static void open_driver(void) {
    const char *path = getenv("AOT_CUDA_LIBRARY");
    const char *name = path && *path ? path : "libcuda.so.1";
    void *lib = dlopen(name, RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        snprintf(init_error, sizeof init_error, "no CUDA driver found: %s (%s)", name, dlerror());
        return;
    }
    for (size_t i = 0; i < sizeof SYMBOLS / sizeof SYMBOLS[0]; i++) {
        void *f = dlsym(lib, SYMBOLS[i].name);
        if (!f) {
            snprintf(init_error, sizeof init_error, "the CUDA driver %s has no %s", name, SYMBOLS[i].name);
            return;
        }
        memcpy((char *)&aot__cu + SYMBOLS[i].offset, &f, sizeof f);
    }
    int count = 0;
    CUdevice device;
    CUresult rc = aot__cu.Init(0);
    if (rc == 0) rc = aot__cu.DeviceGetCount(&count);
    if (rc == 0 && count == 0) {
        snprintf(init_error, sizeof init_error, "the CUDA driver %s found no GPU", name);
        return;
    }
    if (rc == 0) rc = aot__cu.DeviceGet(&device, 0);
    if (rc == 0) rc = aot__cu.DevicePrimaryCtxRetain(&context, device);
    if (rc != 0) {
        const char *what = NULL;
        aot__cu.GetErrorString(rc, &what);
        snprintf(init_error, sizeof init_error, "CUDA initialisation failed: %s (error %d)",
                 what ? what : "unknown error", rc);
        return;
    }
    init_error[0] = '\0';
}

static __thread CUstream thread_stream; /* this thread's own */
static __thread CUstream caller_stream; /* a device entry's caller's, during its call */
static __thread int thread_ready;

CUstream aot__cuda_stream(void) { return caller_stream ? caller_stream : thread_stream; }

/* A device entry (NAME_F_device) runs on its caller's stream: set for the call, then the
 * previous one back. */
void *aot_gpu_swap_stream(void *stream) {
    void *previous = caller_stream;
    caller_stream = stream;
    return previous;
}

static pthread_key_t stream_key; /* destroys a thread's stream when the thread exits */

static void end_of_thread(void *stream) {
    aot__cu.StreamSynchronize(stream);
    aot__cuda_forget_stream(stream);
    aot__cu.StreamDestroy(stream);
}

static void make_key(void) { pthread_key_create(&stream_key, end_of_thread); }

int aot__cuda_ready(void) {
    if (thread_ready) return AOT_OK;
    pthread_once(&init_once, open_driver);
    if (init_error[0]) return aot_set_error(AOT_ERR_RUNTIME, "%s", init_error);
    static pthread_once_t key_once = PTHREAD_ONCE_INIT;
    pthread_once(&key_once, make_key);
    CUresult rc = aot__cu.CtxSetCurrent(context);
    if (rc == 0) rc = aot__cu.StreamCreate(&thread_stream, 0);
    if (rc != 0) return aot_set_error(AOT_ERR_RUNTIME, "CUDA stream creation failed (error %d)", rc);
    pthread_setspecific(stream_key, thread_stream);
    thread_ready = 1;
    return AOT_OK;
}

/* For an artifact built for two targets (--target cuda,cpu): whether its entries run on the
 * GPU in this process. AOT_DEVICE=cpu or cuda forces one (cuda then fails each call with the
 * reason when there is no usable GPU); otherwise the GPU when the driver loads and has a
 * device. Decided once. */
static pthread_once_t choice_once = PTHREAD_ONCE_INIT;
static int chosen_device;

static void choose_device(void) {
    const char *forced = getenv("AOT_DEVICE");
    if (forced && strcmp(forced, "cpu") == 0) return;
    if (forced && strcmp(forced, "cuda") == 0) {
        chosen_device = 1;
        return;
    }
    pthread_once(&init_once, open_driver);
    chosen_device = init_error[0] == '\0';
}

int aot_gpu_use_device(void) {
    pthread_once(&choice_once, choose_device);
    return chosen_device;
}

int aot__cuda_error(CUresult rc, const char *what) {
    const char *text = NULL;
    if (aot__cu.GetErrorString) aot__cu.GetErrorString(rc, &text);
    return aot_set_error(rc == 2 ? AOT_ERR_OUT_OF_MEMORY : AOT_ERR_RUNTIME, "CUDA %s failed: %s (error %d)",
                         what, text ? text : "unknown error", rc);
}
