/* error.c - thread-local error messages and the dtype table.
 *
 * Entry functions never print or abort: they return a code and leave the
 * message here, one buffer per thread so concurrent calls do not mix. */
#include "aot_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static _Thread_local char last_error[1024];

const char *aot_last_error(void) { return last_error; }

int aot_set_error(int code, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(last_error, sizeof last_error, fmt, ap);
    va_end(ap);
    return code;
}

/* Indexed by aot_dtype; abi/dtypes.py holds the same table (a test checks). */
static const struct { const char *name; size_t size; } dtype_table[] = {
    [AOT_F16] = {"f16", 2},   [AOT_BF16] = {"bf16", 2}, [AOT_F32] = {"f32", 4},
    [AOT_F64] = {"f64", 8},   [AOT_I1] = {"i1", 1},     [AOT_I8] = {"i8", 1},
    [AOT_I16] = {"i16", 2},   [AOT_I32] = {"i32", 4},   [AOT_I64] = {"i64", 8},
    [AOT_U8] = {"ui8", 1},    [AOT_U16] = {"ui16", 2},  [AOT_U32] = {"ui32", 4},
    [AOT_U64] = {"ui64", 8},  [AOT_C64] = {"complex<f32>", 8},
    [AOT_C128] = {"complex<f64>", 16},
    [AOT_I2] = {"i2", 1},     [AOT_I4] = {"i4", 1},     [AOT_U2] = {"ui2", 1},
    [AOT_U4] = {"ui4", 1},
};
enum { NUM_DTYPES = sizeof dtype_table / sizeof dtype_table[0] };

size_t aot_dtype_size(int32_t dtype) {
    return dtype >= 0 && dtype < NUM_DTYPES ? dtype_table[dtype].size : 0;
}

const char *aot_dtype_name(int32_t dtype) {
    return dtype >= 0 && dtype < NUM_DTYPES ? dtype_table[dtype].name : "?";
}

void aot__format_shape(char *buf, size_t cap, int32_t dtype, int32_t rank,
                       const int64_t *dims, int signature) {
    size_t len = (size_t)snprintf(buf, cap, "%s[", aot_dtype_name(dtype));
    if (rank > 0 && dims == NULL) {
        if (len < cap) snprintf(buf + len, cap - len, "<null dims>]");
        return;
    }
    for (int32_t d = 0; d < rank && len < cap; d++) {
        const char *sep = d ? "," : "";
        if (signature && dims[d] < 0)
            len += (size_t)snprintf(buf + len, cap - len, "%s?", sep);
        else
            len += (size_t)snprintf(buf + len, cap - len, "%s%lld", sep, (long long)dims[d]);
    }
    if (len < cap) snprintf(buf + len, cap - len, "]");
}
