/* How launches fail on the CPU backend, and that the process lives on:
 * printf formatting and whole lines from concurrent threads; an assert
 * (CUDA_ERROR_ASSERT, CUDA's message, later blocks skipped, later launches
 * fine); a write to a PROT_NONE page from a plain-loop and from a fiber
 * kernel, and a fiber stack overflow (CUDA_ERROR_ILLEGAL_ADDRESS naming
 * kernel, block, thread and address); trap; unsupported; a kernel that does
 * not compile (CUDA_ERROR_INVALID_SOURCE); a missing compiler
 * (CUDA_ERROR_JIT_COMPILER_NOT_FOUND); a host fault outside kernel code
 * still kills the process. */
#include <fcntl.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/wait.h>

#include "test_cpu_util.h"

static const char *kernels =
    /* 0: printf of many kinds from thread 0; every thread of every block prints one line */
    "void cbk_0(cb_thread *t) {\n"
    "  int mode = PARAM(int, 0);\n"
    "  if (mode == 0) {\n"
    "    if (t->flat || t->blk->ctaid.x) return;\n"
    "    _Alignas(8) unsigned char a[64]; int i = -42; double d = 3.14159; const char *s = \"str\";\n"
    "    long long ll = -1234567890123ll; int c = 'Z'; unsigned x = 0xbeef; void *p = (void *)0x1234; int w = 6;\n"
    "    memcpy(a + 0, &i, 4); memcpy(a + 8, &d, 8); memcpy(a + 16, &s, 8); memcpy(a + 24, &ll, 8);\n"
    "    memcpy(a + 32, &c, 4); memcpy(a + 36, &x, 4); memcpy(a + 40, &p, 8); memcpy(a + 48, &w, 4); memcpy(a + 52, &i, 4);\n"
    "    int n = RT->vprintf(t, \"i=%d d=%.3f s=%s ll=%lld c=%c x=%#x p=%p w=[%*d] 100%%\\n\", a);\n"
    "    *PARAM(int *, 8) = n;\n"
    "  } else {\n"
    "    _Alignas(8) unsigned char a[8]; uint32_t b = t->blk->ctaid.x, th = t->flat;\n"
    "    memcpy(a, &b, 4); memcpy(a + 4, &th, 4);\n"
    "    RT->vprintf(t, \"line block %u thread %u end\\n\", a);\n"
    "  }\n"
    "}\n"
    /* 1: assert in block `blk` thread 3; counts blocks that ran */
    "void cbk_1(cb_thread *t) {\n"
    "  uint32_t blk = PARAM(uint32_t, 0); unsigned *ran = PARAM(unsigned *, 8);\n"
    "  if (t->flat == 0) __atomic_fetch_add(ran, 1u, __ATOMIC_RELAXED);\n"
    "  for (volatile int spin = 0; spin < 20000; spin++) {}\n"
    "  if (t->blk->ctaid.x == blk && t->flat == 3) RT->assert_fail(t, \"x == 0\", \"prog.cu\", 42, \"void k(int *)\", 1);\n"
    "}\n"
    /* 2 (plain) and 3 (fibers, after a barrier): thread `who` of block 3 writes to p + 4*who */
    "void cbk_2(cb_thread *t) {\n"
    "  int *p = PARAM(int *, 0); uint32_t who = PARAM(uint32_t, 8);\n"
    "  if (t->blk->ctaid.x == 3 && t->flat == who) p[who] = 1;\n"
    "}\n"
    "void cbk_3(cb_thread *t) {\n"
    "  int *p = PARAM(int *, 0); uint32_t who = PARAM(uint32_t, 8);\n"
    "  RT->bar_sync(t, 0, 0);\n"
    "  if (t->blk->ctaid.x == 3 && t->flat == who) p[who] = 1;\n"
    "  RT->bar_sync(t, 0, 0);\n"
    "}\n"
    /* 4: unbounded recursion on a fiber */
    "static volatile int limit = 1 << 30;\n"
    "__attribute__((noinline)) static long deep(int n) { volatile char pad[2048]; pad[n & 2047] = (char)n;\n"
    "  long below = n >= limit ? 0 : deep(n + 1); return below + pad[(n * 7) & 2047]; }\n"
    "void cbk_4(cb_thread *t) { RT->bar_sync(t, 0, 0); if (t->flat == 1) deep(0); }\n"
    /* 5: trap, 6: unsupported, 7: a good kernel: out[GTID] = GTID */
    "void cbk_5(cb_thread *t) { if (t->flat == 2) RT->trap(t); }\n"
    "void cbk_6(cb_thread *t) { RT->unsupported(t, \"tex.2d\"); }\n"
    "void cbk_7(cb_thread *t) { PARAM(uint32_t *, 0)[GTID] = GTID; }\n";

static const tu_kernel infos[] = {
    {"printer", 0, 0, 16}, {"asserter", 0, 0, 16}, {"oob_plain", 0, 0, 12}, {"oob_fiber", 1, 0, 12},
    {"overflow", 1, 0, 0}, {"trapper", 0, 0, 0},   {"unsup", 0, 0, 0},      {"good", 0, 0, 8},
};

static cb_backend *be;
static void *mod;

/* Runs a launch with fd (1 or 2) captured into a malloc'd string. */
static char *captured(int fd, uint32_t k, uint32_t grid, uint32_t block, const void *params, uint32_t len,
                      CUresult *r, cb_launch_error *err)
{
    char path[] = "/tmp/cubridge-test-outXXXXXX";
    int tmp = mkstemp(path);
    fflush(stdout);
    fflush(stderr);
    int saved = dup(fd);
    dup2(tmp, fd);
    *r = tu_launch(be, mod, k, grid, block, params, len, err);
    fflush(stdout);
    fflush(stderr);
    dup2(saved, fd);
    close(saved);
    close(tmp);
    unsigned char *data;
    size_t n;
    cb_fs_read_file(path, &data, &n);
    unlink(path);
    return (char *)data;
}

static void test_printf(void)
{
    int nargs = -1;
    tu_params p = {0};
    TU_PARAM(&p, 0);
    TU_PARAM(&p, &nargs);
    CUresult r;
    cb_launch_error err;
    char *out = captured(1, 0, 2, 4, p.buf, p.len, &r, &err);
    char want[256];
    snprintf(want, sizeof want, "i=%d d=%.3f s=%s ll=%lld c=%c x=%#x p=%p w=[%*d] 100%%\n", -42, 3.14159, "str",
             -1234567890123ll, 'Z', 0xbeef, (void *)0x1234, 6, -42);
    TU_CHECK(r == CUDA_SUCCESS && strcmp(out, want) == 0, "printf: got \"%s\", want \"%s\"", out, want);
    TU_CHECK(nargs == 9, "printf returned %d, want 9 arguments", nargs);
    free(out);

    /* 16 blocks x 128 threads, each one line: all present, none torn. */
    tu_params q = {0};
    TU_PARAM(&q, 1);
    out = captured(1, 0, 16, 128, q.buf, q.len, &r, &err);
    TU_CHECK(r == CUDA_SUCCESS, "printf lines launch %d", (int)r);
    static unsigned char seen[16][128];
    int lines = 0, torn = 0;
    for (char *line = strtok(out, "\n"); line; line = strtok(NULL, "\n"), lines++) {
        unsigned b, th;
        char end[8];
        if (sscanf(line, "line block %u thread %u %3s", &b, &th, end) != 3 || strcmp(end, "end") || b >= 16 ||
            th >= 128)
            torn++;
        else
            seen[b][th]++;
    }
    int missing = 0;
    for (int b = 0; b < 16; b++)
        for (int th = 0; th < 128; th++)
            missing += seen[b][th] != 1;
    TU_CHECK(lines == 2048 && torn == 0 && missing == 0, "printf lines: %d lines, %d torn, %d missing", lines, torn,
             missing);
    free(out);
}

static void expect_good_launch(const char *after)
{
    uint32_t out[64 * 4] = {0};
    tu_params p = {0};
    TU_PARAM(&p, &out[0]);
    cb_launch_error err;
    CUresult r = tu_launch(be, mod, 7, 4, 64, p.buf, p.len, &err);
    int bad = 0;
    for (uint32_t i = 0; i < 256; i++)
        bad += out[i] != i;
    TU_CHECK(r == CUDA_SUCCESS && bad == 0, "launch after %s: %d (%s), %d wrong", after, (int)r, err.message, bad);
}

static void test_assert(void)
{
    unsigned ran = 0;
    tu_params p = {0};
    TU_PARAM(&p, 0u);
    TU_PARAM(&p, &ran);
    CUresult r;
    cb_launch_error err;
    char *out = captured(2, 1, 2000, 64, p.buf, p.len, &r, &err);
    TU_CHECK(r == CUDA_ERROR_ASSERT && err.result == CUDA_ERROR_ASSERT, "assert: result %d", (int)r);
    TU_CHECK(strstr(out, "prog.cu:42: void k(int *): block: [0,0,0], thread: [3,0,0] Assertion `x == 0` failed.") != NULL,
             "assert message: %s", out);
    TU_CHECK(ran < 2000, "assert: all %u blocks ran; later blocks should be skipped", ran);
    free(out);
    expect_good_launch("an assert");
}

static void test_illegal_address(void)
{
    int *page = mmap(NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    for (uint32_t k = 2; k <= 3; k++) {
        uint32_t who = 7;
        tu_params p = {0};
        TU_PARAM(&p, page);
        TU_PARAM(&p, who);
        cb_launch_error err;
        CUresult r = tu_launch(be, mod, k, 8, 64, p.buf, p.len, &err);
        char addr[64];
        snprintf(addr, sizeof addr, "%p", (void *)(page + 7));
        TU_CHECK(r == CUDA_ERROR_ILLEGAL_ADDRESS && err.result == r, "kernel %u: result %d (%s)", k, (int)r,
                 err.message);
        TU_CHECK(strstr(err.message, "block (3,0,0), thread (7,0,0)") && strstr(err.message, addr) &&
                     strstr(err.message, k == 2 ? "oob_plain" : "oob_fiber"),
                 "kernel %u: message %s", k, err.message);
        if (getenv("TEST_VERBOSE"))
            fprintf(stderr, "%s\n", err.message);
        expect_good_launch("an illegal address");
    }
    munmap(page, 4096);

    cb_launch_error err;
    CUresult r = tu_launch(be, mod, 4, 2, 4, NULL, 0, &err);
    TU_CHECK(r == CUDA_ERROR_ILLEGAL_ADDRESS && strstr(err.message, "thread (1,0,0)"), "stack overflow: %d %s",
             (int)r, err.message);
    if (getenv("TEST_VERBOSE"))
        fprintf(stderr, "%s\n", err.message);
    expect_good_launch("a stack overflow");
}

static void test_trap_unsupported(void)
{
    cb_launch_error err;
    CUresult r = tu_launch(be, mod, 5, 3, 32, NULL, 0, &err);
    TU_CHECK(r == CUDA_ERROR_LAUNCH_FAILED && strstr(err.message, "trap") && strstr(err.message, "thread (2,0,0)"),
             "trap: %d %s", (int)r, err.message);
    r = tu_launch(be, mod, 6, 3, 32, NULL, 0, &err);
    TU_CHECK(r == CUDA_ERROR_NOT_SUPPORTED && strstr(err.message, "tex.2d"), "unsupported: %d %s", (int)r,
             err.message);
    expect_good_launch("trap and unsupported");
}

static void test_compile_errors(void)
{
    static const tu_kernel one = {"broken", 0, 0, 0};
    cb_translation *tr = tu_make("void cbk_0(cb_thread *t) { this is not C; }\n", 1, &one, 0);
    void *m = NULL;
    char err[2048];
    CUresult r = be->module_load(be, tr, NULL, &m, err, sizeof err);
    TU_CHECK(r == CUDA_ERROR_INVALID_SOURCE && m == NULL && strstr(err, "error"), "broken source: %d %s", (int)r,
             err);
    if (getenv("TEST_VERBOSE"))
        fprintf(stderr, "%s\n", err);

    setenv("CUBRIDGE_HOST_CC", "/nonexistent/bin/cc", 1);
    cb_backend *nocc = cb_backend_cpu_create();
    unsetenv("CUBRIDGE_HOST_CC");
    r = nocc->module_load(nocc, tr, NULL, &m, err, sizeof err);
    TU_CHECK(r == CUDA_ERROR_JIT_COMPILER_NOT_FOUND && strstr(err, "/nonexistent/bin/cc"), "missing cc: %d %s",
             (int)r, err);
    nocc->shutdown(nocc);
    tu_free(tr);
}

/* A fault in host code (not a kernel) still kills the process. */
static void test_host_fault_crashes(void)
{
    pid_t pid = fork();
    if (pid == 0) {
        fprintf(stderr, "(a crash report from a child process is expected here)\n");
        volatile int *bad = mmap(NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        *bad = 1;
        _exit(0);
    }
    int status;
    waitpid(pid, &status, 0);
    int died = WIFSIGNALED(status) ? WTERMSIG(status) == SIGSEGV : WIFEXITED(status) && WEXITSTATUS(status) != 0;
    TU_CHECK(died, "host fault: child status 0x%x", status);
}

int main(void)
{
    char dir[512];
    tu_fresh_cache(dir, sizeof dir);
    be = cb_backend_cpu_create();
    if (!be)
        return 1;
    cb_translation *tr = tu_make(kernels, 8, infos, 0);
    mod = tu_load(be, tr, NULL);
    if (mod) {
        test_printf();
        test_assert();
        test_illegal_address();
        test_trap_unsupported();
        test_compile_errors();
        test_host_fault_crashes();
        expect_good_launch("everything");
        be->module_unload(be, mod);
    }
    tu_free(tr);
    be->shutdown(be);
    cb_fs_remove_flat_dir(dir);
    if (tu_failures)
        return 1;
    printf("ok\n");
    return 0;
}
