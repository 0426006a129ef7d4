/* test_errors_block_entry.c: faults and traps inside a kernel that runs
 * through its generated block entry (kernel_abi.h, ABI 7: one call runs many
 * threads) name the thread that faulted, not the first or the last of the
 * call, in a 3-D block whose 384 threads span two 256-thread calls; and the
 * same with CUBRIDGE_BLOCK_ENTRY=0 (one call per thread). Also: the code
 * generator emits a block entry for a plain kernel and none for one with a
 * barrier. */
#define __CUDA_API_VERSION_INTERNAL 1
#include <cuda.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "codegen/translate.h"

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

/* flat = tid.x + ntid.x * (tid.y + ntid.y * tid.z); hit = flat == who && ctaid.x == 1.
 * poke3(int *p, long off, unsigned who): p[flat + (hit ? off : 0)] = 1.
 * stop3(int *p, unsigned who): a hit thread traps, the others write p[flat] = 1.
 * sync1(): a barrier (runs on fibers: no block entry). */
#define FLAT_AND_HIT                                                                               \
    "mov.u32 %r2, %tid.x;\nmov.u32 %r3, %tid.y;\nmov.u32 %r4, %tid.z;\n"                           \
    "mov.u32 %r5, %ntid.x;\nmov.u32 %r6, %ntid.y;\n"                                               \
    "mad.lo.u32 %r7, %r4, %r6, %r3;\nmad.lo.u32 %r8, %r7, %r5, %r2;\n"                             \
    "mov.u32 %r9, %ctaid.x;\nsetp.eq.u32 %p1, %r8, %r1;\nsetp.eq.u32 %p2, %r9, 1;\n"               \
    "and.pred %p1, %p1, %p2;\n"
static const char ptx[] =
    ".version 8.0\n.target sm_75\n.address_size 64\n"
    ".visible .entry poke3(.param .u64 a0, .param .u64 a1, .param .u32 a2)\n{\n"
    ".reg .pred %p<3>;\n.reg .b32 %r<12>;\n.reg .b64 %rd<8>;\n"
    "ld.param.u64 %rd1, [a0];\nld.param.u64 %rd2, [a1];\nld.param.u32 %r1, [a2];\n" FLAT_AND_HIT
    "cvt.u64.u32 %rd3, %r8;\n@%p1 add.s64 %rd3, %rd3, %rd2;\nshl.b64 %rd4, %rd3, 2;\n"
    "add.s64 %rd5, %rd1, %rd4;\nmov.u32 %r10, 1;\nst.global.u32 [%rd5], %r10;\nret;\n}\n"
    ".visible .entry stop3(.param .u64 c0, .param .u32 c1)\n{\n"
    ".reg .pred %p<3>;\n.reg .b32 %r<12>;\n.reg .b64 %rd<8>;\n"
    "ld.param.u64 %rd1, [c0];\nld.param.u32 %r1, [c1];\n" FLAT_AND_HIT "@!%p1 bra GO;\ntrap;\n"
    "GO:\ncvt.u64.u32 %rd3, %r8;\nshl.b64 %rd4, %rd3, 2;\nadd.s64 %rd5, %rd1, %rd4;\n"
    "mov.u32 %r10, 1;\nst.global.u32 [%rd5], %r10;\nret;\n}\n"
    ".visible .entry sync1()\n{\nbar.sync 0;\nret;\n}\n";

/* The thread that misbehaves: (5,6,2) of a 16x8x3 block, flat 357, in block 1. */
#define WHO (5u + 16u * (6u + 8u * 2u))
#define WHO_TEXT "block (1,0,0), thread (5,6,2)"

static char log_text[8192];

/* Runs fn with stderr going to a file, and keeps what was written in
 * log_text. Returns fn's result. */
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
} launch;

static CUresult launch_and_sync(void *arg)
{
    launch *l = arg;
    CUresult r = cuLaunchKernel(l->f, 3, 1, 1, 16, 8, 3, 0, NULL, l->args, NULL);
    if (r != CUDA_SUCCESS)
        return r;
    return cuCtxSynchronize();
}

static void check_names(const char *kernel)
{
    int ok = strstr(log_text, kernel) && strstr(log_text, WHO_TEXT);
    CHECK(ok);
    if (!ok)
        fprintf(stderr, "log was: %s\n", log_text);
}

/* A fresh context and module; buf: 4096 bytes; freed: the middle of a freed
 * 256 MiB range (certainly unmapped). */
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
    CUdeviceptr big = 0;
    size_t big_bytes = (size_t)256 << 20;
    EXPECT(cuMemAlloc_v2(&big, big_bytes), CUDA_SUCCESS);
    EXPECT(cuMemFree_v2(big), CUDA_SUCCESS);
    s->freed = big + big_bytes / 2;
}

static void test_fault_names_thread(void)
{
    setup s;
    setup_make(&s);
    CUfunction f = NULL;
    EXPECT(cuModuleGetFunction(&f, s.mod, "poke3"), CUDA_SUCCESS);
    long long off = 0;
    unsigned who = WHO;
    void *args[] = {&s.buf, &off, &who};
    launch l = {f, args};
    EXPECT(run_logged(launch_and_sync, &l), CUDA_SUCCESS); /* off 0: in bounds */
    int h[384];
    EXPECT(cuMemcpyDtoH_v2(h, s.buf, sizeof h), CUDA_SUCCESS);
    int all = 1;
    for (int i = 0; i < 384; i++)
        all &= h[i] == 1;
    CHECK(all);
    off = (long long)(s.freed - s.buf) / 4;
    EXPECT(run_logged(launch_and_sync, &l), CUDA_ERROR_ILLEGAL_ADDRESS);
    check_names("poke3");
    EXPECT(cuCtxDestroy_v2(s.ctx), CUDA_SUCCESS);
}

static void test_trap_names_thread(void)
{
    setup s;
    setup_make(&s);
    CUfunction f = NULL;
    EXPECT(cuModuleGetFunction(&f, s.mod, "stop3"), CUDA_SUCCESS);
    unsigned who = WHO;
    void *args[] = {&s.buf, &who};
    launch l = {f, args};
    EXPECT(run_logged(launch_and_sync, &l), CUDA_ERROR_LAUNCH_FAILED);
    check_names("stop3");
    CHECK(strstr(log_text, "trap") != NULL);
    EXPECT(cuCtxDestroy_v2(s.ctx), CUDA_SUCCESS);
}

/* The generated source has cbk_0_block and cbk_1_block (poke3, stop3) and
 * no cbk_2_block (sync1 waits at a barrier). */
static void test_which_kernels(void)
{
    cb_translation *tr = NULL;
    char err[256];
    CHECK(cb_translate_ptx(ptx, sizeof ptx - 1, "block_entry.ptx", CB_DIALECT_C, &tr, err, sizeof err) == 0);
    if (!tr)
        return;
    CHECK(tr->nkernels == 3 && !tr->kernels[0].needs_fibers && tr->kernels[2].needs_fibers);
    CHECK(strstr(tr->source, "void cbk_0_block(") != NULL);
    CHECK(strstr(tr->source, "void cbk_1_block(") != NULL);
    CHECK(strstr(tr->source, "void cbk_2_block(") == NULL);
    cb_translation_free(tr);
}

int main(void)
{
    EXPECT(cuInit(0), CUDA_SUCCESS);
    test_which_kernels();
    test_fault_names_thread();
    test_trap_names_thread();
    /* The module's block entries are looked up at load: from here on, the
     * runtime calls the per-thread entries instead. */
    setenv("CUBRIDGE_BLOCK_ENTRY", "0", 1);
    test_fault_names_thread();
    test_trap_names_thread();
    if (failures)
        fprintf(stderr, "test_errors_block_entry: %d failures\n", failures);
    return failures ? 1 : 0;
}
