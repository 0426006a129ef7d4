/* test_core_arena.c: the device memory arena and allocation table, no
 * context needed: guard placement, poison after free, OOM and recovery,
 * lookup, quarantine, size parsing. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "backend/cpu/arena.h"
#include "core/memory.h"
#include "platform/vm.h"

static int failures;
#define CHECK(c)                                                                                   \
    do {                                                                                           \
        if (!(c)) {                                                                                \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #c);                 \
            failures++;                                                                            \
        }                                                                                          \
    } while (0)

/* 1 if writing one byte at p kills a child process (a fault). */
static int write_faults(volatile unsigned char *p)
{
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        signal(SIGSEGV, SIG_DFL);
        signal(SIGBUS, SIG_DFL);
        *p = 1;
        _exit(0);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    return !(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

static int read_faults(volatile unsigned char *p)
{
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        signal(SIGSEGV, SIG_DFL);
        signal(SIGBUS, SIG_DFL);
        volatile unsigned char v = *p;
        (void)v;
        _exit(0);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    return !(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

static void test_parse_size(void)
{
    size_t v;
    CHECK(cb_arena_parse_size("4096", &v) == 0 && v == 4096);
    CHECK(cb_arena_parse_size("64M", &v) == 0 && v == (size_t)64 << 20);
    CHECK(cb_arena_parse_size("2g", &v) == 0 && v == (size_t)2 << 30);
    CHECK(cb_arena_parse_size("3GiB", &v) == 0 && v == (size_t)3 << 30);
    CHECK(cb_arena_parse_size("1K", &v) == 0 && v == 1024);
    CHECK(cb_arena_parse_size("", &v) != 0);
    CHECK(cb_arena_parse_size("x1", &v) != 0);
    CHECK(cb_arena_parse_size("12Q", &v) != 0);
    CHECK(cb_arena_parse_size("0", &v) != 0);
}

static void test_guard_placement(void)
{
    static const size_t sizes[] = { 256, 1024, 4096, 1000, 65536, 12345 };
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++) {
        uint64_t d;
        CHECK(cb_mem_alloc(NULL, sizes[i], &d) == CUDA_SUCCESS);
        CHECK(d % 256 == 0);
        unsigned char *p = (unsigned char *)(uintptr_t)d;
        memset(p, 0xab, sizes[i]);
        size_t rounded = (sizes[i] + 255) / 256 * 256;
        /* the byte after the 256-rounded end is the guard page */
        CHECK(write_faults(p + rounded));
        CHECK(!write_faults(p + sizes[i] - 1));
        if (sizes[i] % 256 == 0)
            CHECK(write_faults(p + sizes[i])); /* one element past the end */
        /* the page before the block is a guard too */
        size_t page = cb_vm_page_size();
        uint64_t block_start = (d + rounded - (rounded + page - 1) / page * page);
        CHECK(write_faults((unsigned char *)(uintptr_t)(block_start - 1)));
        CHECK(cb_mem_free(NULL, d) == CUDA_SUCCESS);
    }
}

static void test_poison_and_double_free(void)
{
    uint64_t d;
    CHECK(cb_mem_alloc(NULL, 4096, &d) == CUDA_SUCCESS);
    unsigned char *p = (unsigned char *)(uintptr_t)d;
    p[0] = 7;
    CHECK(!read_faults(p));
    CHECK(cb_mem_free(NULL, d) == CUDA_SUCCESS);
    CHECK(read_faults(p));
    CHECK(write_faults(p + 100));
    CHECK(cb_mem_free(NULL, d) == CUDA_ERROR_INVALID_VALUE);      /* double free */
    CHECK(cb_mem_lookup(d).kind == CB_MEM_FREED);
    CHECK(cb_mem_check_device(d, 4, "test") == CUDA_ERROR_INVALID_VALUE);
    /* quarantine: the next allocations do not reuse the freed range at once */
    uint64_t e;
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
    CHECK(cb_mem_lookup(a + 1000).kind == CB_MEM_FREED); /* inside the arena, past the end */
    int local;
    CHECK(cb_mem_lookup((uint64_t)(uintptr_t)&local).kind == CB_MEM_UNKNOWN);
    CHECK(cb_mem_check_device(a, 1000, "t") == CUDA_SUCCESS);
    CHECK(cb_mem_check_device(a + 1, 1000, "t") == CUDA_ERROR_INVALID_VALUE);
    CHECK(cb_mem_free(NULL, a + 8) == CUDA_ERROR_INVALID_VALUE); /* interior pointer */
    CHECK(cb_mem_free(NULL, a) == CUDA_SUCCESS);
    CHECK(cb_mem_free(NULL, b) == CUDA_SUCCESS);
}

static void test_oom_and_recovery(void)
{
    cb_arena_stats st = cb_arena_get_stats();
    uint64_t big, small;
    /* more than the total: fails */
    CHECK(cb_mem_alloc(NULL, st.total + 4096, &big) == CUDA_ERROR_OUT_OF_MEMORY);
    /* most of it: works, then a second one fails, then freeing recovers */
    size_t most = st.total - st.used - ((size_t)1 << 20);
    CHECK(cb_mem_alloc(NULL, most, &big) == CUDA_SUCCESS);
    CHECK(cb_mem_alloc(NULL, (size_t)2 << 20, &small) == CUDA_ERROR_OUT_OF_MEMORY);
    CHECK(cb_arena_get_stats().peak >= most);
    CHECK(cb_mem_free(NULL, big) == CUDA_SUCCESS);
    CHECK(cb_mem_alloc(NULL, (size_t)2 << 20, &small) == CUDA_SUCCESS);
    CHECK(cb_mem_free(NULL, small) == CUDA_SUCCESS);
    CHECK(cb_arena_get_stats().used == st.used);
}

static void test_many(void)
{
    enum { N = 2000 };
    static uint64_t ptrs[N];
    for (int round = 0; round < 3; round++) {
        for (int i = 0; i < N; i++) {
            CHECK(cb_mem_alloc(NULL, (size_t)(i % 7 + 1) * 300, &ptrs[i]) == CUDA_SUCCESS);
            *(int *)(uintptr_t)ptrs[i] = i;
        }
        for (int i = 0; i < N; i++) {
            CHECK(*(int *)(uintptr_t)ptrs[i] == i);
            CHECK(cb_mem_lookup(ptrs[i] + 5).base == ptrs[i]);
        }
        for (int i = N - 1; i >= 0; i -= 2)
            CHECK(cb_mem_free(NULL, ptrs[i]) == CUDA_SUCCESS);
        for (int i = N - 2; i >= 0; i -= 2)
            CHECK(cb_mem_free(NULL, ptrs[i]) == CUDA_SUCCESS);
    }
}

static void test_reserve(void)
{
    uint64_t r = cb_arena_reserve((size_t)8 << 20, (size_t)2 << 20);
    CHECK(r != 0 && r % ((size_t)2 << 20) == 0);
    CHECK(cb_arena_contains(r));
    CHECK(read_faults((unsigned char *)(uintptr_t)r));
    cb_arena_unreserve(r, (size_t)8 << 20);
}

int main(void)
{
    setenv("CUBRIDGE_MEM", "256M", 1);
    CHECK(cb_arena_ready() == 0);
    CHECK(cb_arena_get_stats().total == (size_t)256 << 20);
    test_parse_size();
    test_guard_placement();
    test_poison_and_double_free();
    test_lookup();
    test_oom_and_recovery();
    test_many();
    test_reserve();
    if (failures)
        fprintf(stderr, "test_core_arena: %d failures\n", failures);
    else
        printf("test_core_arena: ok\n");
    return failures ? 1 : 0;
}
