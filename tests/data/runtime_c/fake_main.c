/* fake_main.c - a C user of the fake model, linked statically with the
 * runtime, as a user of libNAME.a would be.  It includes the header
 * abi.header.generate_header wrote ("fake.h"), prints what it sees, and the
 * test compares that output.  Exit status 0 unless a check failed. */
#include "fake.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

int64_t fake_parallel_check(int64_t n, int32_t repeats);

static int failures;

#define CHECK(cond)                                                 \
    do {                                                            \
        if (!(cond)) {                                              \
            printf("CHECK FAILED line %d: %s\n", __LINE__, #cond); \
            failures++;                                             \
        }                                                           \
    } while (0)

static void print_f32(const char *label, const aot_tensor *t) {
    printf("%s %s[", label, aot_dtype_name(t->dtype));
    for (int32_t d = 0; d < t->rank; d++) printf(d ? ",%lld" : "%lld", (long long)t->dims[d]);
    printf("]");
    int64_t n = 1;
    for (int32_t d = 0; d < t->rank; d++) n *= t->dims[d];
    for (int64_t i = 0; i < n; i++) printf(" %g", ((const float *)t->data)[i]);
    printf("\n");
}

static void add_runtime_allocated(void) {
    float x[6] = {1, 2, 3, 4, 5, 6}, y[6] = {10, 20, 30, 40, 50, 60};
    int64_t dims[2] = {2, 3};
    aot_tensor args[2] = {{x, dims, 2, AOT_F32}, {y, dims, 2, AOT_F32}};
    aot_tensor result = {NULL, NULL, 0, 0};
    int rc = fake_add(args, &result);
    printf("add rc=%d\n", rc);
    print_f32("add result", &result);
    aot_tensor_free(&result);
    CHECK(result.data == NULL && result.dims == NULL);
}

static void add_caller_owned(void) {
    float x[6] = {1, 2, 3, 4, 5, 6}, out[6] = {0};
    int64_t dims[2] = {2, 3}, out_dims[2] = {2, 3}, wrong_dims[2] = {3, 3};
    aot_tensor args[2] = {{x, dims, 2, AOT_F32}, {x, dims, 2, AOT_F32}};
    aot_tensor result = {out, out_dims, 2, AOT_F32};
    printf("add caller-owned rc=%d\n", fake_add(args, &result));
    print_f32("add caller-owned", &result);
    result.dims = wrong_dims;
    printf("add wrong result rc=%d: %s\n", fake_add(args, &result), aot_last_error());
}

static void add_bad_input(void) {
    float x[8] = {0};
    int64_t dims[2] = {2, 3}, bad[2] = {2, 4};
    aot_tensor args[2] = {{x, dims, 2, AOT_F32}, {x, bad, 2, AOT_F32}};
    aot_tensor result = {NULL, NULL, 0, 0};
    int rc = fake_add(args, &result);
    printf("add bad rc=%d: %s\n", rc, aot_last_error());
    CHECK(result.data == NULL);
    args[1].dtype = AOT_I32;
    printf("add bad dtype rc=%d: %s\n", fake_add(args, &result), aot_last_error());
    args[1].dims = dims;
    args[1].dtype = AOT_F32;
    args[1].data = NULL;
    printf("add null data rc=%d: %s\n", fake_add(args, &result), aot_last_error());
}

static void unique_and_minmax(void) {
    int32_t x[6] = {5, 3, 5, 1, 3, 9};
    int64_t dims[1] = {6}, result_dims[1] = {-7};
    aot_tensor arg = {x, dims, 1, AOT_I32};
    aot_tensor result = {NULL, result_dims, 0, 0}; /* runtime data, caller dims */
    int rc = fake_unique(&arg, &result);
    printf("unique rc=%d n=%lld:", rc, (long long)result_dims[0]);
    for (int64_t i = 0; i < result_dims[0]; i++) printf(" %d", ((int32_t *)result.data)[i]);
    printf("\n");
    aot_tensor_free(&result);
    CHECK(result.dims == result_dims);

    int64_t empty[1] = {0};
    aot_tensor none = {NULL, empty, 1, AOT_F32};
    aot_tensor two[2] = {{NULL, NULL, 0, 0}, {NULL, NULL, 0, 0}};
    printf("minmax empty rc=%d: %s\n", fake_minmax(&none, two), aot_last_error());
    CHECK(two[0].data == NULL && two[1].data == NULL);
}

static void allocator_basics(void) {
    void *a = aot_alloc(0), *b = aot_alloc(0), *c = aot_alloc(1000);
    CHECK(a && b && c && a != b);
    CHECK((uintptr_t)a % 64 == 0 && (uintptr_t)c % 64 == 0);
    memset(c, 1, 1000);
    aot_free(a);
    aot_free(b);
    aot_free(c);
    aot_free(NULL);
    CHECK(aot_alloc(-1) == NULL);
    printf("alloc(-1): %s\n", aot_last_error());
}

static void *hammer(void *arg) {
    (void)arg;
    int64_t wrong = 0;
    for (int i = 0; i < 50; i++) wrong += fake_parallel_check(1000 + i, 2);
    return (void *)(intptr_t)wrong;
}

static void parallel_from_threads(void) {
    aot_set_num_threads(4);
    pthread_t threads[4];
    for (int i = 0; i < 4; i++) pthread_create(&threads[i], NULL, hammer, NULL);
    intptr_t wrong = 0;
    for (int i = 0; i < 4; i++) {
        void *r;
        pthread_join(threads[i], &r);
        wrong += (intptr_t)r;
    }
    printf("parallel_for wrong=%ld\n", (long)wrong);
}

int main(void) {
    const aot_library_info *info = fake_aot_metadata();
    printf("library %s abi %d entries %d\n", info->name, info->abi_version, info->num_entries);
    add_runtime_allocated();
    add_caller_owned();
    add_bad_input();
    unique_and_minmax();
    allocator_basics();
    parallel_from_threads();
    aot_alloc_stats stats;
    aot_get_alloc_stats(&stats);
    printf("bytes_in_use=%lld\n", (long long)stats.bytes_in_use);
    return failures != 0;
}
