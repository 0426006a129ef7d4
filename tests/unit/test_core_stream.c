/* test_core_stream.c: streams and events: in-order execution, legacy
 * default stream semantics both ways, non-blocking streams, per-thread
 * default streams, callbacks, cross-stream event waits, event timing, bad
 * handles, and sticky errors. */
#define __CUDA_API_VERSION_INTERNAL 1
#include <cuda.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/core.h"

static int failures;
#define CHECK(c)                                                                                   \
    do {                                                                                           \
        if (!(c)) {                                                                                \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #c);                 \
            failures++;                                                                            \
        }                                                                                          \
    } while (0)
#define OK(call) CHECK((call) == CUDA_SUCCESS)

static void sleep_ms(int ms)
{
    struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };
    nanosleep(&ts, NULL);
}

/* ---- ordering within a stream ------------------------------------------- */

typedef struct order_log {
    int items[64];
    _Atomic int n;
} order_log;

typedef struct log_entry {
    order_log *log;
    int value;
    int delay_ms;
} log_entry;

static void CUDA_CB append(void *arg)
{
    log_entry *e = arg;
    if (e->delay_ms)
        sleep_ms(e->delay_ms);
    e->log->items[atomic_fetch_add(&e->log->n, 1)] = e->value;
}

static void test_in_order(void)
{
    CUstream s;
    OK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
    order_log log = { .n = 0 };
    log_entry e[20];
    for (int i = 0; i < 20; i++) {
        e[i] = (log_entry){ &log, i, (i % 3 == 0) ? 2 : 0 };
        OK(cuLaunchHostFunc(s, append, &e[i]));
    }
    OK(cuStreamSynchronize(s));
    CHECK(log.n == 20);
    int ok = 1;
    for (int i = 0; i < 20; i++)
        ok &= log.items[i] == i;
    CHECK(ok);
    /* copies and memsets interleave in order too */
    CUdeviceptr d;
    OK(cuMemAlloc_v2(&d, 4096));
    static unsigned char src[4096], dst[4096];
    for (int round = 0; round < 10; round++) {
        memset(src, round, sizeof src);
        OK(cuMemsetD8Async(d, 0xff, 4096, s));
        OK(cuMemcpyHtoDAsync_v2(d, src, 4096, s)); /* pageable source: staged at submission */
    }
    memset(src, 0x77, sizeof src);                  /* must not affect the staged copies */
    OK(cuMemcpyDtoHAsync_v2(dst, d, 4096, s));
    OK(cuStreamSynchronize(s));
    CHECK(dst[0] == 9 && dst[4095] == 9);
    OK(cuMemFree_v2(d));
    unsigned flags = 7;
    OK(cuStreamGetFlags(s, &flags));
    CHECK(flags == CU_STREAM_NON_BLOCKING);
    OK(cuStreamDestroy_v2(s));
}

/* ---- legacy default stream ------------------------------------------------ */

static _Atomic int flag;
static void CUDA_CB slow_set_flag(void *arg)
{
    sleep_ms(*(int *)arg);
    atomic_store(&flag, 1);
}
static void CUDA_CB read_flag(void *arg) { *(int *)arg = atomic_load(&flag); }

static void test_legacy_semantics(void)
{
    static int delay = 60;
    CUstream blocking, nonblocking;
    OK(cuStreamCreate(&blocking, CU_STREAM_DEFAULT));
    OK(cuStreamCreate(&nonblocking, CU_STREAM_NON_BLOCKING));
    int seen;

    /* blocking stream -> legacy: legacy work waits */
    atomic_store(&flag, 0);
    seen = -1;
    OK(cuLaunchHostFunc(blocking, slow_set_flag, &delay));
    OK(cuLaunchHostFunc(NULL, read_flag, &seen));
    OK(cuStreamSynchronize(NULL));
    CHECK(seen == 1);

    /* legacy -> blocking stream: the stream's later work waits */
    atomic_store(&flag, 0);
    seen = -1;
    OK(cuLaunchHostFunc(CU_STREAM_LEGACY, slow_set_flag, &delay));
    OK(cuLaunchHostFunc(blocking, read_flag, &seen));
    OK(cuStreamSynchronize(blocking));
    CHECK(seen == 1);

    /* non-blocking streams do neither */
    atomic_store(&flag, 0);
    seen = -1;
    OK(cuLaunchHostFunc(nonblocking, slow_set_flag, &delay));
    OK(cuLaunchHostFunc(NULL, read_flag, &seen));
    OK(cuStreamSynchronize(NULL));
    CHECK(seen == 0);
    OK(cuStreamSynchronize(nonblocking));
    atomic_store(&flag, 0);
    seen = -1;
    OK(cuLaunchHostFunc(NULL, slow_set_flag, &delay));
    OK(cuLaunchHostFunc(nonblocking, read_flag, &seen));
    OK(cuStreamSynchronize(nonblocking));
    CHECK(seen == 0);
    OK(cuCtxSynchronize());
    CHECK(flag == 1);

    /* a synchronous copy on the legacy stream waits for blocking streams */
    CUdeviceptr d;
    OK(cuMemAlloc_v2(&d, 4));
    atomic_store(&flag, 0);
    OK(cuLaunchHostFunc(blocking, slow_set_flag, &delay));
    int v = 0;
    OK(cuMemcpyDtoH_v2(&v, d, 4));
    CHECK(flag == 1);
    OK(cuMemFree_v2(d));

    /* the per-thread default stream is blocking too */
    atomic_store(&flag, 0);
    seen = -1;
    OK(cuLaunchHostFunc_ptsz(NULL, slow_set_flag, &delay));
    OK(cuLaunchHostFunc(NULL, read_flag, &seen));
    OK(cuStreamSynchronize(NULL));
    CHECK(seen == 1);

    OK(cuStreamDestroy_v2(blocking));
    OK(cuStreamDestroy_v2(nonblocking));
}

/* ---- per-thread default streams ----------------------------------------- */

static CUcontext g_ctx;

static void *other_thread_id(void *arg)
{
    cuCtxSetCurrent(g_ctx);
    unsigned long long *id = arg;
    cuStreamGetId(CU_STREAM_PER_THREAD, id);
    return NULL;
}

static void test_per_thread(void)
{
    unsigned long long a = 0, b = 0, c = 0, legacy = 0;
    OK(cuStreamGetId(CU_STREAM_PER_THREAD, &a));
    OK(cuStreamGetId_ptsz(NULL, &b));
    OK(cuStreamGetId(NULL, &legacy));
    CHECK(a != 0 && a == b && a != legacy);
    pthread_t t;
    pthread_create(&t, NULL, other_thread_id, &c);
    pthread_join(t, NULL);
    CHECK(c != 0 && c != a && c != legacy);
}

/* ---- callbacks, events ----------------------------------------------------- */

static void CUDA_CB callback(CUstream s, CUresult status, void *arg)
{
    (void)s;
    *(CUresult *)arg = status;
}

static void test_events(void)
{
    CUstream s1, s2;
    OK(cuStreamCreate(&s1, CU_STREAM_NON_BLOCKING));
    OK(cuStreamCreate(&s2, CU_STREAM_NON_BLOCKING));
    CUevent start, stop, untimed, never;
    OK(cuEventCreate(&start, CU_EVENT_DEFAULT));
    OK(cuEventCreate(&stop, CU_EVENT_BLOCKING_SYNC));
    OK(cuEventCreate(&untimed, CU_EVENT_DISABLE_TIMING));
    OK(cuEventCreate(&never, 0));
    CHECK(cuEventCreate(&never, CU_EVENT_INTERPROCESS) == CUDA_ERROR_NOT_SUPPORTED);
    OK(cuEventQuery(never)); /* never recorded: complete */

    static int delay = 50;
    OK(cuEventRecord(start, s1));
    OK(cuLaunchHostFunc(s1, slow_set_flag, &delay));
    OK(cuEventRecord(stop, s1));
    OK(cuEventRecord(untimed, s1));
    atomic_store(&flag, 0);
    CHECK(cuEventQuery(stop) == CUDA_ERROR_NOT_READY);
    float ms = -1;
    CHECK(cuEventElapsedTime_v2(&ms, start, stop) == CUDA_ERROR_NOT_READY);
    /* s2 waits for s1's event */
    int seen = -1;
    OK(cuStreamWaitEvent(s2, stop, 0));
    OK(cuLaunchHostFunc(s2, read_flag, &seen));
    OK(cuEventSynchronize(stop));
    OK(cuEventQuery(stop));
    OK(cuEventElapsedTime_v2(&ms, start, stop));
    CHECK(ms >= 45.0f && ms < 5000.0f);
    float back = 0;
    OK(cuEventElapsedTime(&back, stop, start));
    CHECK(back == -ms);
    CHECK(cuEventElapsedTime_v2(&ms, start, untimed) == CUDA_ERROR_INVALID_HANDLE);
    CHECK(cuEventElapsedTime_v2(&ms, start, never) == CUDA_ERROR_INVALID_HANDLE);
    OK(cuStreamSynchronize(s2));
    CHECK(seen == 1);

    /* timing is monotonic along a stream */
    CUevent ev[5];
    for (int i = 0; i < 5; i++) {
        OK(cuEventCreate(&ev[i], 0));
        OK(cuEventRecord(ev[i], s1));
        static int small = 3;
        OK(cuLaunchHostFunc(s1, slow_set_flag, &small));
    }
    OK(cuStreamSynchronize(s1));
    for (int i = 1; i < 5; i++) {
        OK(cuEventElapsedTime_v2(&ms, ev[i - 1], ev[i]));
        CHECK(ms >= 2.0f);
        OK(cuEventDestroy_v2(ev[i - 1]));
    }
    OK(cuEventDestroy_v2(ev[4]));

    /* a callback gets the stream status */
    CUresult status = CUDA_ERROR_UNKNOWN;
    OK(cuStreamAddCallback(s1, callback, &status, 0));
    CHECK(cuStreamAddCallback(s1, callback, &status, 1) == CUDA_ERROR_INVALID_VALUE);
    OK(cuStreamSynchronize(s1));
    CHECK(status == CUDA_SUCCESS);
    OK(cuStreamQuery(s1));

    /* destroyed handles */
    OK(cuEventDestroy_v2(never));
    CHECK(cuEventQuery(never) == CUDA_ERROR_INVALID_HANDLE);
    CHECK(cuEventRecord(never, s1) == CUDA_ERROR_INVALID_HANDLE);
    CHECK(cuEventDestroy_v2(never) == CUDA_ERROR_INVALID_HANDLE);
    OK(cuEventDestroy_v2(start));
    OK(cuEventDestroy_v2(stop));
    OK(cuEventDestroy_v2(untimed));
    OK(cuStreamDestroy_v2(s2));
    CHECK(cuStreamDestroy_v2(s2) == CUDA_ERROR_INVALID_HANDLE);
    CHECK(cuStreamQuery(s2) == CUDA_ERROR_INVALID_HANDLE);
    CHECK(cuStreamSynchronize(s2) == CUDA_ERROR_INVALID_HANDLE);
    CHECK(cuLaunchHostFunc(s2, read_flag, &seen) == CUDA_ERROR_INVALID_HANDLE);
    /* stream getters */
    int prio = 5;
    OK(cuStreamGetPriority(s1, &prio));
    CHECK(prio == 0);
    CUcontext sc = NULL;
    OK(cuStreamGetCtx(s1, &sc));
    CHECK(sc == g_ctx);
    CUdevice dev = -1;
    OK(cuStreamGetDevice(s1, &dev));
    CHECK(dev == 0);
    /* destroying a stream with queued work lets the work finish */
    atomic_store(&flag, 0);
    OK(cuLaunchHostFunc(s1, slow_set_flag, &delay));
    OK(cuStreamDestroy_v2(s1));
    CHECK(flag == 1);
}

/* ---- sticky errors ----------------------------------------------------------- */

static void test_sticky(void)
{
    CUcontext c2;
    CUctxCreateParams params;
    memset(&params, 0, sizeof params);
    OK(cuCtxCreate_v4(&c2, &params, 0, 0));
    CUstream s;
    OK(cuStreamCreate(&s, 0));
    CUresult status = CUDA_SUCCESS;
    cb_ctx_set_sticky((cb_context *)c2, CUDA_ERROR_ILLEGAL_ADDRESS); /* as a faulting launch does */
    CHECK(cuStreamSynchronize(s) == CUDA_ERROR_ILLEGAL_ADDRESS);
    CUdeviceptr d;
    CHECK(cuMemAlloc_v2(&d, 16) == CUDA_ERROR_ILLEGAL_ADDRESS);
    CHECK(cuStreamAddCallback(s, callback, &status, 0) == CUDA_ERROR_ILLEGAL_ADDRESS);
    CHECK(cuCtxSynchronize() == CUDA_ERROR_ILLEGAL_ADDRESS);
    OK(cuCtxDestroy_v2(c2));
    OK(cuCtxSetCurrent(g_ctx));
}

int main(void)
{
    setenv("CUBRIDGE_MEM", "256M", 1);
    if (cuInit(0) != CUDA_SUCCESS) {
        fprintf(stderr, "test_core_stream: cuInit failed\n");
        return 1;
    }
    OK(cuDevicePrimaryCtxRetain(&g_ctx, 0));
    OK(cuCtxSetCurrent(g_ctx));
    test_in_order();
    test_legacy_semantics();
    test_per_thread();
    test_events();
    test_sticky();
    OK(cuDevicePrimaryCtxRelease_v2(0));
    if (failures)
        fprintf(stderr, "test_core_stream: %d failures\n", failures);
    else
        printf("test_core_stream: ok\n");
    return failures ? 1 : 0;
}
