/* fake_model.c - a hand-written stand-in for a model compiled by aotc.
 *
 * It uses the runtime exactly the way generated code does (check every
 * argument, prepare or adopt every result, undo on error paths, publish
 * metadata), so the runtime and the Python loader can be tested before the
 * compiler exists.  Library name "fake"; entries:
 *
 *   add(x: f32[?,3], y: f32[?,3]) -> (f32[?,3])     rows in parallel
 *   unique(x: i32[?]) -> (i32[?])                   size known only after computing
 *   minmax(x: f32[?]) -> (f32[], i64[])             min and argmin; static results
 *   positive(x: bf16[?]) -> (i1[?])                 x > 0
 *   assert_finite(x: f64[?]) -> ()                  fails on inf / nan
 *   scale(x: f32[?], s: f32[]) -> (f32[?])          0-d argument
 */
#include "aot_runtime.h"

#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

/* ---- add ---------------------------------------------------------------- */

static const int64_t rows_by_3[] = {-1, 3};
static const aot_value_info add_args[] = {
    {"x", AOT_F32, 2, rows_by_3},
    {"y", AOT_F32, 2, rows_by_3},
};
static const aot_value_info add_results[] = {{"sum", AOT_F32, 2, rows_by_3}};

struct add_ctx { const float *x, *y; float *out; };

static void add_rows(void *p, int64_t begin, int64_t end) {
    const struct add_ctx *c = p;
    for (int64_t i = begin * 3; i < end * 3; i++) c->out[i] = c->x[i] + c->y[i];
}

int fake_add(const aot_tensor *args, aot_tensor *results) {
    int rc;
    for (int32_t i = 0; i < 2; i++)
        if ((rc = aot_check_arg(args, i, &add_args[i], "add"))) return rc;
    int64_t dims[2] = {args[0].dims[0], 3};
    int32_t owned;
    if ((rc = aot_prepare_result(results, 0, &add_results[0], "add", dims, &owned))) return rc;
    /* A check after allocating, like a kernel's run-time bounds check. */
    if (args[1].dims[0] != dims[0]) {
        aot_unprepare_result(results, 0, owned);
        return aot_set_error(AOT_ERR_INVALID_ARGUMENT,
                             "add: x has %lld rows but y has %lld",
                             (long long)dims[0], (long long)args[1].dims[0]);
    }
    struct add_ctx c = {args[0].data, args[1].data, results[0].data};
    aot_parallel_for(dims[0], add_rows, &c);
    return AOT_OK;
}

/* ---- unique ------------------------------------------------------------- */

static const int64_t dynamic_1d[] = {-1};
static const aot_value_info unique_args[] = {{"x", AOT_I32, 1, dynamic_1d}};
static const aot_value_info unique_results[] = {{"values", AOT_I32, 1, dynamic_1d}};

static int compare_i32(const void *a, const void *b) {
    int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    return (x > y) - (x < y);
}

int fake_unique(const aot_tensor *args, aot_tensor *results) {
    int rc;
    if ((rc = aot_check_arg(args, 0, &unique_args[0], "unique"))) return rc;
    int64_t n = args[0].dims[0];
    int32_t *buf = aot_alloc(n * (int64_t)sizeof(int32_t)); /* upper bound */
    if (!buf) return AOT_ERR_OUT_OF_MEMORY;
    if (n) memcpy(buf, args[0].data, (size_t)n * sizeof(int32_t));
    qsort(buf, (size_t)n, sizeof(int32_t), compare_i32);
    int64_t count = 0;
    for (int64_t i = 0; i < n; i++)
        if (count == 0 || buf[count - 1] != buf[i]) buf[count++] = buf[i];
    return aot_adopt_result(results, 0, &unique_results[0], "unique", buf, &count);
}

/* ---- minmax ------------------------------------------------------------- */

static const aot_value_info minmax_args[] = {{"x", AOT_F32, 1, dynamic_1d}};
static const aot_value_info minmax_results[] = {
    {"min", AOT_F32, 0, NULL},
    {"argmin", AOT_I64, 0, NULL},
};

int fake_minmax(const aot_tensor *args, aot_tensor *results) {
    int rc;
    if ((rc = aot_check_arg(args, 0, &minmax_args[0], "minmax"))) return rc;
    int32_t owned[2] = {0, 0};
    if ((rc = aot_prepare_result(results, 0, &minmax_results[0], "minmax", NULL, &owned[0])))
        return rc;
    if ((rc = aot_prepare_result(results, 1, &minmax_results[1], "minmax", NULL, &owned[1]))) {
        aot_unprepare_result(results, 0, owned[0]);
        return rc;
    }
    int64_t n = args[0].dims[0];
    if (n == 0) {
        aot_unprepare_result(results, 1, owned[1]);
        aot_unprepare_result(results, 0, owned[0]);
        return aot_set_error(AOT_ERR_INVALID_ARGUMENT, "minmax: x is empty");
    }
    const float *x = args[0].data;
    int64_t best = 0;
    for (int64_t i = 1; i < n; i++)
        if (x[i] < x[best]) best = i;
    *(float *)results[0].data = x[best];
    *(int64_t *)results[1].data = best;
    return AOT_OK;
}

/* ---- positive ----------------------------------------------------------- */

static const aot_value_info positive_args[] = {{"x", AOT_BF16, 1, dynamic_1d}};
static const aot_value_info positive_results[] = {{"", AOT_I1, 1, dynamic_1d}};

int fake_positive(const aot_tensor *args, aot_tensor *results) {
    int rc;
    if ((rc = aot_check_arg(args, 0, &positive_args[0], "positive"))) return rc;
    int32_t owned;
    if ((rc = aot_prepare_result(results, 0, &positive_results[0], "positive",
                                 args[0].dims, &owned)))
        return rc;
    const uint16_t *x = args[0].data;
    uint8_t *out = results[0].data;
    for (int64_t i = 0; i < args[0].dims[0]; i++) {
        uint16_t magnitude = x[i] & 0x7fff;
        out[i] = !(x[i] & 0x8000) && magnitude != 0 && magnitude <= 0x7f80;
    }
    return AOT_OK;
}

/* ---- assert_finite ------------------------------------------------------ */

static const aot_value_info assert_finite_args[] = {{"x", AOT_F64, 1, dynamic_1d}};

int fake_assert_finite(const aot_tensor *args, aot_tensor *results) {
    (void)results;
    int rc;
    if ((rc = aot_check_arg(args, 0, &assert_finite_args[0], "assert_finite"))) return rc;
    const double *x = args[0].data;
    for (int64_t i = 0; i < args[0].dims[0]; i++)
        if (!isfinite(x[i]))
            return aot_set_error(AOT_ERR_RUNTIME, "assert_finite: x[%lld] is %g",
                                 (long long)i, x[i]);
    return AOT_OK;
}

/* ---- scale ------------------------------------------------------------ */

static const aot_value_info scale_args[] = {
    {"x", AOT_F32, 1, dynamic_1d},
    {"s", AOT_F32, 0, NULL},
};
static const aot_value_info scale_results[] = {{"", AOT_F32, 1, dynamic_1d}};

int fake_scale(const aot_tensor *args, aot_tensor *results) {
    int rc;
    for (int32_t i = 0; i < 2; i++)
        if ((rc = aot_check_arg(args, i, &scale_args[i], "scale"))) return rc;
    int32_t owned;
    if ((rc = aot_prepare_result(results, 0, &scale_results[0], "scale", args[0].dims, &owned)))
        return rc;
    const float *x = args[0].data, s = *(const float *)args[1].data;
    float *out = results[0].data;
    for (int64_t i = 0; i < args[0].dims[0]; i++) out[i] = x[i] * s;
    return AOT_OK;
}

/* ---- metadata ----------------------------------------------------------- */

static const aot_entry_info entries[] = {
    {"add", "fake_add", fake_add, 2, 1, add_args, add_results},
    {"unique", "fake_unique", fake_unique, 1, 1, unique_args, unique_results},
    {"minmax", "fake_minmax", fake_minmax, 1, 2, minmax_args, minmax_results},
    {"positive", "fake_positive", fake_positive, 1, 1, positive_args, positive_results},
    {"assert_finite", "fake_assert_finite", fake_assert_finite, 1, 0, assert_finite_args, NULL},
    {"scale", "fake_scale", fake_scale, 2, 1, scale_args, scale_results},
};

static const aot_library_info library = {
    1, (int32_t)(sizeof entries / sizeof entries[0]), "fake", entries,
};

const aot_library_info *fake_aot_metadata(void) { return &library; }
const aot_library_info *aot_library_metadata(void) { return &library; }

/* ---- test hook, not an entry ---------------------------------------------- */

struct count_ctx { _Atomic int32_t *hits; };

static void count_hits(void *p, int64_t begin, int64_t end) {
    struct count_ctx *c = p;
    for (int64_t i = begin; i < end; i++) atomic_fetch_add(&c->hits[i], 1);
}

/* Runs aot_parallel_for over [0, n) `repeats` times; returns how many
 * (repeat, index) pairs were not visited exactly once, -1 without memory. */
int64_t fake_parallel_check(int64_t n, int32_t repeats) {
    _Atomic int32_t *hits = calloc((size_t)(n ? n : 1), sizeof *hits);
    if (!hits) return -1;
    int64_t wrong = 0;
    for (int32_t r = 0; r < repeats; r++) {
        for (int64_t i = 0; i < n; i++) atomic_store(&hits[i], 0);
        struct count_ctx c = {hits};
        aot_parallel_for(n, count_hits, &c);
        for (int64_t i = 0; i < n; i++) wrong += atomic_load(&hits[i]) != 1;
    }
    free(hits);
    return wrong;
}
