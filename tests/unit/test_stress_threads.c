/* test_stress_threads.c: 8 host threads share one context, each with its
 * own two streams, and interleave for a bounded time (CB_STRESS_SECONDS,
 * default 5): device and pinned allocations, async copies both ways,
 * launches of PTX kernels (the module loaded once per thread, through
 * cuModuleLoadData, at the same time), events recorded on one stream and
 * waited on by the other, and frees. Every result is checked exactly.
 * Must be clean under ThreadSanitizer (-DCUBRIDGE_TSAN=ON) and ASan. */
#define __CUDA_API_VERSION_INTERNAL 1
#include <cuda.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/core.h"

enum { NTHREADS = 8, MAXN = 4096 };

static atomic_int failures;
#define CHECK(c)                                                                                   \
    do {                                                                                           \
        if (!(c)) {                                                                                \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #c);                 \
            atomic_fetch_add(&failures, 1);                                                        \
        }                                                                                          \
    } while (0)
#define OK(call) CHECK((call) == CUDA_SUCCESS)

/* axpb(int *y, const int *x, int a, int b, int n): y[i] = a*x[i] + b.
 * add_to(int *y, const int *x, int n): y[i] += x[i]. */
static const char ptx[] =
    ".version 8.0\n.target sm_75\n.address_size 64\n"
    ".visible .entry axpb(.param .u64 py, .param .u64 px, .param .u32 pa, .param .u32 pb, .param .u32 pn)\n{\n"
    ".reg .pred %p<2>;\n.reg .b32 %r<12>;\n.reg .b64 %rd<8>;\n"
    "ld.param.u64 %rd1, [py];\nld.param.u64 %rd2, [px];\nld.param.u32 %r2, [pa];\n"
    "ld.param.u32 %r3, [pb];\nld.param.u32 %r4, [pn];\n"
    "mov.u32 %r5, %ctaid.x;\nmov.u32 %r6, %ntid.x;\nmov.u32 %r7, %tid.x;\nmad.lo.s32 %r1, %r5, %r6, %r7;\n"
    "setp.ge.s32 %p1, %r1, %r4;\n@%p1 bra DONE;\n"
    "cvta.to.global.u64 %rd3, %rd1;\ncvta.to.global.u64 %rd4, %rd2;\nmul.wide.s32 %rd5, %r1, 4;\n"
    "add.s64 %rd6, %rd4, %rd5;\nld.global.u32 %r8, [%rd6];\nmad.lo.s32 %r9, %r8, %r2, %r3;\n"
    "add.s64 %rd7, %rd3, %rd5;\nst.global.u32 [%rd7], %r9;\n"
    "DONE:\nret;\n}\n"
    ".visible .entry add_to(.param .u64 qy, .param .u64 qx, .param .u32 qn)\n{\n"
    ".reg .pred %p<2>;\n.reg .b32 %r<10>;\n.reg .b64 %rd<8>;\n"
    "ld.param.u64 %rd1, [qy];\nld.param.u64 %rd2, [qx];\nld.param.u32 %r4, [qn];\n"
    "mov.u32 %r5, %ctaid.x;\nmov.u32 %r6, %ntid.x;\nmov.u32 %r7, %tid.x;\nmad.lo.s32 %r1, %r5, %r6, %r7;\n"
    "setp.ge.s32 %p1, %r1, %r4;\n@%p1 bra DONE2;\n"
    "cvta.to.global.u64 %rd3, %rd1;\ncvta.to.global.u64 %rd4, %rd2;\nmul.wide.s32 %rd5, %r1, 4;\n"
    "add.s64 %rd6, %rd4, %rd5;\nld.global.u32 %r8, [%rd6];\n"
    "add.s64 %rd7, %rd3, %rd5;\nld.global.u32 %r9, [%rd7];\nadd.s32 %r9, %r9, %r8;\nst.global.u32 [%rd7], %r9;\n"
    "DONE2:\nret;\n}\n";

static CUcontext ctx;
static double seconds = 5.0;
static atomic_long total_rounds;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* xorshift32: each thread's own sequence. */
static unsigned next_random(unsigned *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 17;
    *s ^= *s << 5;
    return *s;
}

typedef struct worker {
    int id;
    CUfunction axpb, add_to;
    CUstream s0, s1;
    CUevent ev;
    unsigned seed;
} worker;

/* One round: x -> (s0) y = a*x + b -> event -> (s1) y += x -> host,
 * checked against the same arithmetic on the host. */
static void one_round(worker *w)
{
    int n = 1 + (int)(next_random(&w->seed) % MAXN);
    int a = (int)(next_random(&w->seed) % 100) - 50, b = w->id * 1000 + (int)(next_random(&w->seed) % 1000);
    size_t bytes = (size_t)n * sizeof(int);
    int *hx = NULL, *hy = NULL;
    OK(cuMemAllocHost_v2((void **)&hx, bytes));
    OK(cuMemAllocHost_v2((void **)&hy, bytes));
    if (!hx || !hy)
        return;
    for (int i = 0; i < n; i++)
        hx[i] = (int)(next_random(&w->seed) % 20001) - 10000;
    CUdeviceptr dx = 0, dy = 0;
    OK(cuMemAlloc_v2(&dx, bytes));
    OK(cuMemAlloc_v2(&dy, bytes));
    OK(cuMemcpyHtoDAsync_v2(dx, hx, bytes, w->s0));
    void *args1[] = {&dy, &dx, &a, &b, &n};
    unsigned grid = (unsigned)(n + 127) / 128;
    OK(cuLaunchKernel(w->axpb, grid, 1, 1, 128, 1, 1, 0, w->s0, args1, NULL));
    OK(cuEventRecord(w->ev, w->s0));
    OK(cuStreamWaitEvent(w->s1, w->ev, 0));
    void *args2[] = {&dy, &dx, &n};
    OK(cuLaunchKernel(w->add_to, grid, 1, 1, 128, 1, 1, 0, w->s1, args2, NULL));
    OK(cuMemcpyDtoHAsync_v2(hy, dy, bytes, w->s1));
    OK(cuStreamSynchronize(w->s1));
    int bad = 0;
    for (int i = 0; i < n; i++)
        bad += hy[i] != a * hx[i] + b + hx[i];
    CHECK(bad == 0);
    OK(cuMemFree_v2(dx));
    OK(cuMemFree_v2(dy));
    OK(cuMemFreeHost(hx));
    OK(cuMemFreeHost(hy));
}

static void *run_worker(void *arg)
{
    worker *w = arg;
    OK(cuCtxSetCurrent(ctx));
    CUmodule mod = NULL;
    OK(cuModuleLoadData(&mod, ptx));
    OK(cuModuleGetFunction(&w->axpb, mod, "axpb"));
    OK(cuModuleGetFunction(&w->add_to, mod, "add_to"));
    OK(cuStreamCreate(&w->s0, CU_STREAM_NON_BLOCKING));
    OK(cuStreamCreate(&w->s1, w->id % 2 ? CU_STREAM_NON_BLOCKING : CU_STREAM_DEFAULT));
    OK(cuEventCreate(&w->ev, CU_EVENT_DISABLE_TIMING));
    double end = now() + seconds;
    long rounds = 0;
    while (now() < end && atomic_load(&failures) == 0) {
        one_round(w);
        rounds++;
        if (rounds % 16 == 0) { /* streams and events come and go too */
            OK(cuEventDestroy_v2(w->ev));
            OK(cuEventCreate(&w->ev, 0));
            OK(cuStreamDestroy_v2(w->s0));
            OK(cuStreamCreate(&w->s0, CU_STREAM_NON_BLOCKING));
        }
    }
    atomic_fetch_add(&total_rounds, rounds);
    OK(cuEventDestroy_v2(w->ev));
    OK(cuStreamDestroy_v2(w->s0));
    OK(cuStreamDestroy_v2(w->s1));
    OK(cuModuleUnload(mod));
    return NULL;
}

int main(void)
{
    const char *env = getenv("CB_STRESS_SECONDS");
    if (env && atof(env) > 0)
        seconds = atof(env);
    OK(cuInit(0));
    CUdevice dev;
    OK(cuDeviceGet(&dev, 0));
    OK(cuCtxCreate_v2(&ctx, 0, dev));
    pthread_t t[NTHREADS];
    worker w[NTHREADS];
    for (int i = 0; i < NTHREADS; i++) {
        w[i] = (worker){.id = i, .seed = 2463534242u + 7919u * (unsigned)i};
        CHECK(pthread_create(&t[i], NULL, run_worker, &w[i]) == 0);
    }
    for (int i = 0; i < NTHREADS; i++)
        pthread_join(t[i], NULL);
    OK(cuCtxSynchronize());
    OK(cuCtxDestroy_v2(ctx));
    long rounds = atomic_load(&total_rounds);
    printf("test_stress_threads: %d threads, %ld rounds in %.1f s, %d failures\n", NTHREADS, rounds, seconds,
           atomic_load(&failures));
    CHECK(rounds >= NTHREADS);
    return atomic_load(&failures) ? 1 : 0;
}
