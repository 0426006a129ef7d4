/* test_core_memtable.c: the core's table of allocations over device 0 (the
 * CPU): lookup of interior addresses, freed and unknown memory, double and
 * interior frees, range checks. */
#include <stdio.h>
#include <stdlib.h>

#include "core/memory.h"

static int failures;
#define CHECK(c)                                                                                   \
    do {                                                                                           \
        if (!(c)) {                                                                                \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #c);                 \
            failures++;                                                                            \
        }                                                                                          \
    } while (0)

static void test_free(void)
{
    uint64_t d, e;
    CHECK(cb_mem_alloc(NULL, 4096, &d) == CUDA_SUCCESS);
    CHECK(cb_mem_free(NULL, d) == CUDA_SUCCESS);
    CHECK(cb_mem_free(NULL, d) == CUDA_ERROR_INVALID_VALUE);      /* double free */
    CHECK(cb_mem_lookup(d).kind == CB_MEM_FREED);
    CHECK(cb_mem_check_device(d, 4, "test") == CUDA_ERROR_INVALID_VALUE);
    CHECK(cb_mem_alloc(NULL, 4096, &e) == CUDA_SUCCESS);
    CHECK(e != d);
    CHECK(cb_mem_free(NULL, e) == CUDA_SUCCESS);
    CHECK(cb_mem_free(NULL, 0) == CUDA_ERROR_INVALID_VALUE);
}

static void test_lookup(void)
{
    uint64_t a, b;
    CHECK(cb_mem_alloc(NULL, 1000, &a) == CUDA_SUCCESS);
    CHECK(cb_mem_alloc(NULL, 5000, &b) == CUDA_SUCCESS);
    cb_mem_info ia = cb_mem_lookup(a + 999), ib = cb_mem_lookup(b + 17);
    CHECK(ia.kind == CB_MEM_DEVICE && ia.base == a && ia.size == 1000);
    CHECK(ib.kind == CB_MEM_DEVICE && ib.base == b && ib.size == 5000);
    CHECK(ia.buffer_id != ib.buffer_id);
    CHECK(ia.backend == cb_device_get(0)->backend);
    CHECK(cb_mem_lookup(a + 1000).kind == CB_MEM_FREED); /* the device's range, past the end */
    int local;
    CHECK(cb_mem_lookup((uint64_t)(uintptr_t)&local).kind == CB_MEM_UNKNOWN);
    CHECK(cb_mem_check_device(a, 1000, "t") == CUDA_SUCCESS);
    CHECK(cb_mem_check_device(a + 1, 1000, "t") == CUDA_ERROR_INVALID_VALUE);
    CHECK(cb_mem_free(NULL, a + 8) == CUDA_ERROR_INVALID_VALUE); /* interior pointer */
    CHECK(cb_mem_free(NULL, a) == CUDA_SUCCESS);
    CHECK(cb_mem_free(NULL, b) == CUDA_SUCCESS);
}

static void test_many(void)
{
    enum { N = 2000 };
    static uint64_t ptrs[N];
    for (int i = 0; i < N; i++)
        CHECK(cb_mem_alloc(NULL, (size_t)(i % 7 + 1) * 300, &ptrs[i]) == CUDA_SUCCESS);
    for (int i = 0; i < N; i++)
        CHECK(cb_mem_lookup(ptrs[i] + 5).base == ptrs[i]);
    for (int i = N - 1; i >= 0; i -= 2)
        CHECK(cb_mem_free(NULL, ptrs[i]) == CUDA_SUCCESS);
    for (int i = N - 2; i >= 0; i -= 2)
        CHECK(cb_mem_free(NULL, ptrs[i]) == CUDA_SUCCESS);
}

int main(void)
{
    setenv("CUBRIDGE_MEM", "256M", 1);
    uint64_t d;
    CHECK(cb_mem_alloc(NULL, 16, &d) == CUDA_ERROR_NOT_INITIALIZED);   /* no device before cb_init */
    if (cb_init(0) != CUDA_SUCCESS) {
        fprintf(stderr, "test_core_memtable: cb_init failed\n");
        return 1;
    }
    test_free();
    test_lookup();
    test_many();
    if (failures)
        fprintf(stderr, "test_core_memtable: %d failures\n", failures);
    else
        printf("test_core_memtable: ok\n");
    return failures ? 1 : 0;
}
