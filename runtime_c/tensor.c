/* tensor.c - run-time shape checks and result hand-over for entry functions.
 *
 * Generated code checks every argument with aot_check_arg, then gets each
 * result ready with aot_prepare_result (shape known before computing) or
 * aot_adopt_result (shape known only after computing), and on an error path
 * undoes what it prepared with aot_unprepare_result.  The messages name the
 * entry, the value and both shapes, so a user sees what went wrong without
 * a debugger. */
#include "aot_internal.h"

#include <stdio.h>
#include <string.h>

enum { SHAPE_TEXT = 160 };

/* "argument 'x' (#0)" or "result #1" when the value has no name. */
static void describe(char *buf, size_t cap, const char *kind,
                     const aot_value_info *info, int32_t index) {
    if (info->name && info->name[0])
        snprintf(buf, cap, "%s '%s' (#%d)", kind, info->name, (int)index);
    else
        snprintf(buf, cap, "%s #%d", kind, (int)index);
}

/* "main: argument 'x' (#0) expects f32[4,?], got f32[3,8]" */
static int mismatch(const char *entry, const char *kind, const aot_value_info *info,
                    int32_t index, const aot_tensor *t) {
    char what[200], want[SHAPE_TEXT], got[SHAPE_TEXT];
    describe(what, sizeof what, kind, info, index);
    aot__format_shape(want, sizeof want, info->dtype, info->rank, info->dims, 1);
    aot__format_shape(got, sizeof got, t->dtype, t->rank, t->dims, 0);
    return aot_set_error(AOT_ERR_INVALID_ARGUMENT, "%s: %s expects %s, got %s",
                         entry, what, want, got);
}

/* Non-zero when t has info's dtype and rank and every static dim matches. */
static int matches_signature(const aot_tensor *t, const aot_value_info *info) {
    if (t->dtype != info->dtype || t->rank != info->rank) return 0;
    if (t->rank > 0 && t->dims == NULL) return 0;
    for (int32_t d = 0; d < t->rank; d++)
        if (t->dims[d] < 0 || (info->dims[d] >= 0 && t->dims[d] != info->dims[d])) return 0;
    return 1;
}

/* Element count of dims, or -1 when a dim is negative or the byte size of
 * the array would overflow. */
static int64_t num_elements(int32_t rank, const int64_t *dims, size_t elem_size) {
    int64_t n = 1;
    for (int32_t d = 0; d < rank; d++) {
        if (dims[d] < 0) return -1;
        if (dims[d] != 0 && n > INT64_MAX / (int64_t)elem_size / dims[d]) return -1;
        n *= dims[d];
    }
    return n;
}

int aot_check_arg(const aot_tensor *args, int32_t index, const aot_value_info *info,
                  const char *entry) {
    if (!args)
        return aot_set_error(AOT_ERR_INVALID_ARGUMENT, "%s: the argument array is NULL", entry);
    const aot_tensor *t = &args[index];
    if (!matches_signature(t, info)) return mismatch(entry, "argument", info, index, t);
    if (t->data == NULL && num_elements(t->rank, t->dims, 1) != 0) {
        char what[200], got[SHAPE_TEXT];
        describe(what, sizeof what, "argument", info, index);
        aot__format_shape(got, sizeof got, t->dtype, t->rank, t->dims, 0);
        return aot_set_error(AOT_ERR_INVALID_ARGUMENT, "%s: %s has NULL data for %s",
                             entry, what, got);
    }
    return AOT_OK;
}

/* The dims computed for a result must agree with its signature; when they
 * do not, generated code is wrong, so this is a runtime error. */
static int check_computed_dims(const aot_value_info *info, int32_t index, const char *entry,
                               const int64_t *dims, int64_t *nbytes) {
    size_t elem = aot_dtype_size(info->dtype);
    aot_tensor computed = {NULL, (int64_t *)dims, info->rank, info->dtype};
    int64_t n = -1;
    int fits = elem && (dims || info->rank == 0) && matches_signature(&computed, info);
    if (fits) n = num_elements(info->rank, dims, elem);
    if (n < 0) {
        char what[200], want[SHAPE_TEXT], got[SHAPE_TEXT];
        describe(what, sizeof what, "result", info, index);
        if (fits) { /* right dims whose byte size passes int64: too big, not wrong */
            aot__format_shape(got, sizeof got, info->dtype, info->rank, dims, 0);
            return aot_set_error(AOT_ERR_OUT_OF_MEMORY,
                                 "out of memory: needs more than %lld bytes for %s's %s, %s",
                                 (long long)INT64_MAX, entry, what, got);
        }
        aot__format_shape(want, sizeof want, info->dtype, info->rank, info->dims, 1);
        aot__format_shape(got, sizeof got, info->dtype, info->rank, dims, 0);
        return aot_set_error(AOT_ERR_RUNTIME, "%s: %s computed as %s, signature says %s",
                             entry, what, got, want);
    }
    *nbytes = n * (int64_t)elem;
    return AOT_OK;
}

/* Checks a caller-owned result buffer against the dims of this call. */
static int check_caller_result(const aot_tensor *t, const aot_value_info *info, int32_t index,
                               const char *entry, const int64_t *dims) {
    aot_value_info actual = *info;
    actual.dims = dims;
    if (!matches_signature(t, &actual)) return mismatch(entry, "result", &actual, index, t);
    return AOT_OK;
}

/* Fills in dims, rank and dtype of a result whose data the runtime just
 * allocated; allocates the dims too (freed with the data) when the caller
 * gave none. */
static int give_dims(const aot__memory *m, aot_tensor *t, const aot_value_info *info,
                     const int64_t *dims) {
    if (info->rank > 0) {
        if (t->dims == NULL) {
            int64_t *owned = m->own_dims(t->data, info->rank);
            if (!owned) return AOT_ERR_OUT_OF_MEMORY;
            t->dims = owned;
        }
        memcpy(t->dims, dims, (size_t)info->rank * sizeof(int64_t));
    }
    t->rank = info->rank;
    t->dtype = info->dtype;
    return AOT_OK;
}

int aot__prepare_result(const aot__memory *m, aot_tensor *results, int32_t index,
                        const aot_value_info *info, const char *entry, const int64_t *dims,
                        int32_t *owned) {
    *owned = 0;
    if (!results)
        return aot_set_error(AOT_ERR_INVALID_ARGUMENT, "%s: the result array is NULL", entry);
    int64_t nbytes;
    int rc = check_computed_dims(info, index, entry, dims, &nbytes);
    if (rc) return rc;
    aot_tensor *t = &results[index];
    if (t->data) return check_caller_result(t, info, index, entry, dims);

    t->data = m->alloc(nbytes);
    if (!t->data) {
        if (m->explain_oom) {
            char what[200], shape[SHAPE_TEXT], text[sizeof what + sizeof shape + 64];
            describe(what, sizeof what, "result", info, index);
            aot__format_shape(shape, sizeof shape, info->dtype, info->rank, dims, 0);
            snprintf(text, sizeof text, "%s's %s, %s", entry, what, shape);
            m->explain_oom(nbytes, text);
        }
        return AOT_ERR_OUT_OF_MEMORY;
    }
    rc = give_dims(m, t, info, dims);
    if (rc) {
        m->free(t->data);
        t->data = NULL;
        return rc;
    }
    *owned = 1;
    return AOT_OK;
}

int aot__adopt_result(const aot__memory *m, aot_tensor *results, int32_t index,
                      const aot_value_info *info, const char *entry, void *buffer,
                      const int64_t *dims) {
    if (!buffer)
        return aot_set_error(AOT_ERR_RUNTIME, "%s: result #%d has no buffer", entry, (int)index);
    int64_t nbytes;
    int rc = check_computed_dims(info, index, entry, dims, &nbytes);
    if (!rc && m->block_size(buffer) < nbytes)
        rc = aot_set_error(AOT_ERR_RUNTIME, "%s: result #%d needs %lld bytes, its buffer has %lld",
                           entry, (int)index, (long long)nbytes,
                           (long long)m->block_size(buffer));
    if (!rc && !results)
        rc = aot_set_error(AOT_ERR_INVALID_ARGUMENT, "%s: the result array is NULL", entry);
    if (rc) {
        m->free(buffer);
        return rc;
    }
    aot_tensor *t = &results[index];
    if (t->data) {
        rc = check_caller_result(t, info, index, entry, dims);
        if (!rc && nbytes) rc = m->copy(t->data, buffer, nbytes);
        m->free(buffer);
        return rc;
    }
    t->data = buffer;
    rc = give_dims(m, t, info, dims);
    if (rc) {
        m->free(buffer);
        t->data = NULL;
    }
    return rc;
}

/* The host's memory: the runtime's allocator, a result's dims in its block's header. */
static int host_copy(void *dst, const void *src, int64_t nbytes) {
    memcpy(dst, src, (size_t)nbytes);
    return AOT_OK;
}

static int64_t *host_own_dims(void *data, int32_t rank) {
    int64_t *dims = aot_alloc((int64_t)rank * (int64_t)sizeof(int64_t));
    if (dims) aot__block_set_dims(data, dims);
    return dims;
}

static const aot__memory host_memory = {aot_alloc, aot_free, host_copy, aot__block_size,
                                        host_own_dims, aot__explain_oom};

int aot_prepare_result(aot_tensor *results, int32_t index, const aot_value_info *info,
                       const char *entry, const int64_t *dims, int32_t *owned) {
    return aot__prepare_result(&host_memory, results, index, info, entry, dims, owned);
}

void aot_unprepare_result(aot_tensor *results, int32_t index, int32_t owned) {
    if (owned && results) aot_tensor_free(&results[index]);
}

int aot_adopt_result(aot_tensor *results, int32_t index, const aot_value_info *info,
                     const char *entry, void *buffer, const int64_t *dims) {
    return aot__adopt_result(&host_memory, results, index, info, entry, buffer, dims);
}

void aot_tensor_free(aot_tensor *t) {
    if (!t || !t->data) return;
    int64_t *owned_dims = aot__block_dims(t->data);
    if (owned_dims && t->dims == owned_dims) t->dims = NULL;
    aot_free(t->data); /* frees owned_dims too */
    t->data = NULL;
}
