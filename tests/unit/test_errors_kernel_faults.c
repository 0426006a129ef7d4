/* test_errors_kernel_faults.c: faults inside kernels, through the driver
 * API. An out-of-bounds read, an out-of-bounds write and a use after free
 * give CUDA_ERROR_ILLEGAL_ADDRESS, sticky as in CUDA (every later call in
 * the context returns it); the process lives on; the log names the kernel,
 * the block, the thread and the address. A trap gives
 * CUDA_ERROR_LAUNCH_FAILED. After the faulty context is destroyed, a new
 * one works. */
#define __CUDA_API_VERSION_INTERNAL 1
#include <cuda.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int failures;
#define CHECK(c)                                                                                   \
    do {                                                                                           \
        if (!(c)) {                                                                                \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #c);                 \
            failures++;                                                                            \
        }                                                                                          \
    } while (0)
#define EXPECT(call, want)                                                                         \
    do {                                                                                           \
        CUresult got_ = (call);                                                                    \
        if (got_ != (want)) {                                                                      \
            fprintf(stderr, "%s:%d: %s returned %d, want %s\n", __FILE__, __LINE__, #call, (int)got_, #want); \
            failures++;                                                                            \
        }                                                                                          \
    } while (0)

/* peek(int *out, const int *p, long off): out[tid] = p[tid + off].
 * poke(int *p, long off): p[tid + off] = 42.
 * stop(int *p, int who): thread `who` traps, the others write p[tid] = 1. */
static const char ptx[] =
    ".version 8.0\n.target sm_75\n.address_size 64\n"
    ".visible .entry peek(.param .u64 a0, .param .u64 a1, .param .u64 a2)\n{\n"
    ".reg .b32 %r<3>;\n.reg .b64 %rd<10>;\n"
    "ld.param.u64 %rd1, [a0];\nld.param.u64 %rd2, [a1];\nld.param.u64 %rd3, [a2];\n"
    "mov.u32 %r1, %tid.x;\ncvt.u64.u32 %rd4, %r1;\nadd.s64 %rd5, %rd4, %rd3;\nshl.b64 %rd6, %rd5, 2;\n"
    "add.s64 %rd7, %rd2, %rd6;\nld.global.u32 %r2, [%rd7];\n"
    "shl.b64 %rd8, %rd4, 2;\nadd.s64 %rd9, %rd1, %rd8;\nst.global.u32 [%rd9], %r2;\nret;\n}\n"
    ".visible .entry poke(.param .u64 b0, .param .u64 b1)\n{\n"
    ".reg .b32 %r<3>;\n.reg .b64 %rd<8>;\n"
    "ld.param.u64 %rd1, [b0];\nld.param.u64 %rd2, [b1];\n"
    "mov.u32 %r1, %tid.x;\ncvt.u64.u32 %rd3, %r1;\nadd.s64 %rd4, %rd3, %rd2;\nshl.b64 %rd5, %rd4, 2;\n"
    "add.s64 %rd6, %rd1, %rd5;\nmov.u32 %r2, 42;\nst.global.u32 [%rd6], %r2;\nret;\n}\n"
    ".visible .entry stop(.param .u64 c0, .param .u32 c1)\n{\n"
    ".reg .pred %p<2>;\n.reg .b32 %r<4>;\n.reg .b64 %rd<5>;\n"
    "ld.param.u64 %rd1, [c0];\nld.param.u32 %r1, [c1];\nmov.u32 %r2, %tid.x;\n"
    "setp.ne.s32 %p1, %r2, %r1;\n@%p1 bra GO;\ntrap;\n"
    "GO:\ncvt.u64.u32 %rd2, %r2;\nshl.b64 %rd3, %rd2, 2;\nadd.s64 %rd4, %rd1, %rd3;\n"
    "mov.u32 %r3, 1;\nst.global.u32 [%rd4], %r3;\nret;\n}\n";

static char log_text[8192];

/* Runs the launch-and-synchronize of fn with stderr going to a file, and
 * keeps what was written in log_text. Returns the synchronize's result. */
static CUresult run_logged(CUresult (*fn)(void *), void *arg)
{
    fflush(stderr);
    FILE *tmp = tmpfile();
    int saved = dup(2);
    dup2(fileno(tmp), 2);
    CUresult r = fn(arg);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    rewind(tmp);
    size_t n = fread(log_text, 1, sizeof log_text - 1, tmp);
    log_text[n] = 0;
    fclose(tmp);
    return r;
}

typedef struct launch {
    CUfunction f;
    void **args;
    unsigned threads;
} launch;

static CUresult launch_and_sync(void *arg)
{
    launch *l = arg;
    CUresult r = cuLaunchKernel(l->f, 1, 1, 1, l->threads, 1, 1, 0, NULL, l->args, NULL);
    if (r != CUDA_SUCCESS)
        return r;
    return cuCtxSynchronize();
}

/* The log line names the kernel, a block, a thread and (for a memory fault)
 * an address. */
static void check_log(const char *kernel, int want_address)
{
    int ok = strstr(log_text, kernel) && strstr(log_text, "block (") && strstr(log_text, "thread (");
    if (want_address)
        ok = ok && strstr(log_text, "0x");
    CHECK(ok);
    if (!ok)
        fprintf(stderr, "log was: %s\n", log_text);
}

/* Every later call in the context returns the sticky error. */
static void check_sticky(CUresult want)
{
    EXPECT(cuCtxSynchronize(), want);
    CUdeviceptr d = 0;
    EXPECT(cuMemAlloc_v2(&d, 64), want);
    EXPECT(cuCtxSynchronize(), want);
}

/* A fresh context, module and buffer; a 256 MiB allocation freed again,
 * whose middle is certainly unmapped. */
typedef struct setup {
    CUcontext ctx;
    CUmodule mod;
    CUdeviceptr buf, freed;
} setup;

static void setup_make(setup *s)
{
    EXPECT(cuCtxCreate_v2(&s->ctx, 0, 0), CUDA_SUCCESS);
    EXPECT(cuModuleLoadData(&s->mod, ptx), CUDA_SUCCESS);
    EXPECT(cuMemAlloc_v2(&s->buf, 4096), CUDA_SUCCESS);
    EXPECT(cuMemsetD32_v2(s->buf, 7, 1024), CUDA_SUCCESS);
    CUdeviceptr big = 0;
    size_t big_bytes = (size_t)256 << 20;
    EXPECT(cuMemAlloc_v2(&big, big_bytes), CUDA_SUCCESS);
    EXPECT(cuMemFree_v2(big), CUDA_SUCCESS);
    s->freed = big + big_bytes / 2;
}

static void test_oob_read(void)
{
    setup s;
    setup_make(&s);
    CUfunction f = NULL;
    EXPECT(cuModuleGetFunction(&f, s.mod, "peek"), CUDA_SUCCESS);
    CUdeviceptr out = s.buf + 2048;
    long long off = 0;
    void *args[] = {&out, &s.buf, &off};
    launch l = {f, args, 32};
    EXPECT(run_logged(launch_and_sync, &l), CUDA_SUCCESS); /* in bounds */
    off = (long long)(s.freed - s.buf) / 4;
    EXPECT(run_logged(launch_and_sync, &l), CUDA_ERROR_ILLEGAL_ADDRESS);
    check_log("peek", 1);
    check_sticky(CUDA_ERROR_ILLEGAL_ADDRESS);
    EXPECT(cuCtxDestroy_v2(s.ctx), CUDA_SUCCESS);
}

static void test_oob_write(void)
{
    setup s;
    setup_make(&s);
    CUfunction f = NULL;
    EXPECT(cuModuleGetFunction(&f, s.mod, "poke"), CUDA_SUCCESS);
    long long off = (long long)(s.freed - s.buf) / 4;
    void *args[] = {&s.buf, &off};
    launch l = {f, args, 64};
    EXPECT(run_logged(launch_and_sync, &l), CUDA_ERROR_ILLEGAL_ADDRESS);
    check_log("poke", 1);
    check_sticky(CUDA_ERROR_ILLEGAL_ADDRESS);
    EXPECT(cuCtxDestroy_v2(s.ctx), CUDA_SUCCESS);
}

static void test_use_after_free(void)
{
    setup s;
    setup_make(&s);
    CUfunction f = NULL;
    EXPECT(cuModuleGetFunction(&f, s.mod, "poke"), CUDA_SUCCESS);
    CUdeviceptr big = 0;
    EXPECT(cuMemAlloc_v2(&big, (size_t)64 << 20), CUDA_SUCCESS);
    long long off = 0;
    void *args[] = {&big, &off};
    launch l = {f, args, 64};
    EXPECT(run_logged(launch_and_sync, &l), CUDA_SUCCESS);
    EXPECT(cuMemFree_v2(big), CUDA_SUCCESS);
    EXPECT(run_logged(launch_and_sync, &l), CUDA_ERROR_ILLEGAL_ADDRESS);
    check_log("poke", 1);
    check_sticky(CUDA_ERROR_ILLEGAL_ADDRESS);
    EXPECT(cuCtxDestroy_v2(s.ctx), CUDA_SUCCESS);
}

static void test_trap(void)
{
    setup s;
    setup_make(&s);
    CUfunction f = NULL;
    EXPECT(cuModuleGetFunction(&f, s.mod, "stop"), CUDA_SUCCESS);
    int who = 5;
    void *args[] = {&s.buf, &who};
    launch l = {f, args, 32};
    EXPECT(run_logged(launch_and_sync, &l), CUDA_ERROR_LAUNCH_FAILED);
    check_log("stop", 0);
    CHECK(strstr(log_text, "thread (5,0,0)") != NULL);
    check_sticky(CUDA_ERROR_LAUNCH_FAILED);
    EXPECT(cuCtxDestroy_v2(s.ctx), CUDA_SUCCESS);
}

/* After all those faults, a new context works. */
static void test_recovery(void)
{
    setup s;
    setup_make(&s);
    CUfunction f = NULL;
    EXPECT(cuModuleGetFunction(&f, s.mod, "poke"), CUDA_SUCCESS);
    long long off = 3;
    void *args[] = {&s.buf, &off};
    launch l = {f, args, 1};
    EXPECT(run_logged(launch_and_sync, &l), CUDA_SUCCESS);
    int h[4] = {0};
    EXPECT(cuMemcpyDtoH_v2(h, s.buf, sizeof h), CUDA_SUCCESS);
    CHECK(h[0] == 7 && h[3] == 42);
    EXPECT(cuCtxDestroy_v2(s.ctx), CUDA_SUCCESS);
}

int main(void)
{
    EXPECT(cuInit(0), CUDA_SUCCESS);
    test_oob_read();
    test_oob_write();
    test_use_after_free();
    test_trap();
    test_recovery();
    if (failures)
        fprintf(stderr, "test_errors_kernel_faults: %d failures\n", failures);
    return failures ? 1 : 0;
}
