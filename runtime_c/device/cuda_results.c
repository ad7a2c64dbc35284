/* cuda_results.c - a device entry's results: device buffers from aot_gpu_alloc, handed over
 * by tensor.c's code on the device's memory. */
#include "cuda_internal.h"

#include <stdlib.h>

static int64_t *device_own_dims(void *data, int32_t rank) {
    int64_t *dims = malloc((size_t)rank * sizeof(int64_t));
    if (!dims) {
        aot_set_error(AOT_ERR_OUT_OF_MEMORY, "out of host memory");
        return NULL;
    }
    aot__gpu_block_set_dims(data, dims);
    return dims;
}

static const aot__memory device_memory = {aot_gpu_alloc, aot_gpu_free, aot_gpu_copy, aot__gpu_block_size,
                                          device_own_dims, NULL};

int aot_prepare_device_result(aot_tensor *results, int32_t index, const aot_value_info *info,
                              const char *entry, const int64_t *dims, int32_t *owned) {
    return aot__prepare_result(&device_memory, results, index, info, entry, dims, owned);
}

int aot_adopt_device_result(aot_tensor *results, int32_t index, const aot_value_info *info,
                            const char *entry, void *buffer, const int64_t *dims) {
    return aot__adopt_result(&device_memory, results, index, info, entry, buffer, dims);
}

void aot_gpu_tensor_free(aot_tensor *t) {
    if (!t || !t->data) return;
    int64_t *dims = aot__gpu_block_dims(t->data);
    if (dims && dims == t->dims) t->dims = NULL; /* freed with the block */
    aot_gpu_free(t->data);
    t->data = NULL;
}

void aot_unprepare_device_result(aot_tensor *results, int32_t index, int32_t owned) {
    if (owned && results) aot_gpu_tensor_free(&results[index]);
}
