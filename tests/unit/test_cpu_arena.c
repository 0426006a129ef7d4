/* test_cpu_arena.c: the CPU backend's device memory arena, on its own:
 * guard placement, poison after free, OOM and recovery, quarantine,
 * reservations, size parsing. (The allocation table over it is
 * test_core_memtable.c.) */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "backend/cpu/arena.h"
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

/* An allocation and its block, as the CPU backend keeps them. */
typedef struct alloc {
    uint64_t ptr;
    cb_arena_block block;
} alloc;

static int arena_alloc(size_t bytes, alloc *a) { return cb_arena_alloc(bytes, &a->ptr, &a->block); }
static void arena_free(const alloc *a) { cb_arena_free(a->block); }

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
        alloc a;
        CHECK(arena_alloc(sizes[i], &a) == 0);
        uint64_t d = a.ptr;
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
        CHECK(block_start == a.block.start);
        arena_free(&a);
    }
}

static void test_poison(void)
{
    alloc a;
    CHECK(arena_alloc(4096, &a) == 0);
    unsigned char *p = (unsigned char *)(uintptr_t)a.ptr;
    p[0] = 7;
    CHECK(!read_faults(p));
    arena_free(&a);
    CHECK(read_faults(p));
    CHECK(write_faults(p + 100));
    CHECK(cb_arena_contains(a.ptr)); /* freed, still the arena's */
    /* quarantine: the next allocations do not reuse the freed range at once */
    alloc e;
    CHECK(arena_alloc(4096, &e) == 0);
    CHECK(e.ptr != a.ptr);
    arena_free(&e);
    int local;
    CHECK(!cb_arena_contains((uint64_t)(uintptr_t)&local));
}

static void test_oom_and_recovery(void)
{
    cb_arena_stats st = cb_arena_get_stats();
    alloc big, small;
    /* more than the total: fails */
    CHECK(arena_alloc(st.total + 4096, &big) != 0);
    /* most of it: works, then a second one fails, then freeing recovers */
    size_t most = st.total - st.used - ((size_t)1 << 20);
    CHECK(arena_alloc(most, &big) == 0);
    CHECK(arena_alloc((size_t)2 << 20, &small) != 0);
    CHECK(cb_arena_get_stats().peak >= most);
    arena_free(&big);
    CHECK(arena_alloc((size_t)2 << 20, &small) == 0);
    arena_free(&small);
    CHECK(cb_arena_get_stats().used == st.used);
}

static void test_many(void)
{
    enum { N = 2000 };
    static alloc ptrs[N];
    for (int round = 0; round < 3; round++) {
        for (int i = 0; i < N; i++) {
            CHECK(arena_alloc((size_t)(i % 7 + 1) * 300, &ptrs[i]) == 0);
            *(int *)(uintptr_t)ptrs[i].ptr = i;
        }
        for (int i = 0; i < N; i++)
            CHECK(*(int *)(uintptr_t)ptrs[i].ptr == i);
        for (int i = N - 1; i >= 0; i -= 2)
            arena_free(&ptrs[i]);
        for (int i = N - 2; i >= 0; i -= 2)
            arena_free(&ptrs[i]);
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
    test_poison();
    test_oom_and_recovery();
    test_many();
    test_reserve();
    if (failures)
        fprintf(stderr, "test_cpu_arena: %d failures\n", failures);
    else
        printf("test_cpu_arena: ok\n");
    return failures ? 1 : 0;
}
