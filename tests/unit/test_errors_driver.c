/* test_errors_driver.c: bad input through the driver API gets CUDA's
 * exact error code, and the driver keeps working afterwards.
 *
 * Handles (context, stream, event, module, function) that are NULL or were
 * destroyed; freed pointers handed to memcpy; double free; allocation over
 * the reported memory; launch configurations over the limits; a kernel
 * parameter buffer of the wrong size; missing symbols; garbage images; PTX
 * with a syntax error (the JIT error log names the line). The expected
 * codes are those CUDA documents for each call (docs/reliability.md lists
 * every case with its source). Run it under LeakSanitizer too
 * (-DCUBRIDGE_SANITIZE=ON): the create/destroy cycles must not leak. */
#include "driver/driver.h"

#include <stdio.h>
#include <string.h>

static int failures;

/* Checks that call returned want; prints both names otherwise. */
#define EXPECT(call, want)                                                                                  \
    do {                                                                                                    \
        CUresult got_ = (call);                                                                             \
        if (got_ != (want)) {                                                                               \
            const char *g_ = NULL;                                                                          \
            cuGetErrorName(got_, &g_);                                                                      \
            fprintf(stderr, "%s:%d: %s returned %s (%d), want %s\n", __FILE__, __LINE__, #call,             \
                    g_ ? g_ : "?", (int)got_, #want);                                                      \
            failures++;                                                                                     \
        }                                                                                                   \
    } while (0)
#define CHECK(cond)                                                                                         \
    do {                                                                                                    \
        if (!(cond)) {                                                                                      \
            fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond);                         \
            failures++;                                                                                     \
        }                                                                                                   \
    } while (0)

/* add_one(int *p, int n): p[i] += 1 for i < n. nvcc -ptx, trimmed. */
static const char good_ptx[] =
    ".version 8.0\n.target sm_75\n.address_size 64\n"
    ".visible .entry add_one(.param .u64 p0, .param .u32 p1)\n{\n"
    ".reg .pred %p<2>;\n.reg .b32 %r<8>;\n.reg .b64 %rd<5>;\n"
    "ld.param.u64 %rd1, [p0];\nld.param.u32 %r2, [p1];\n"
    "mov.u32 %r3, %ctaid.x;\nmov.u32 %r4, %ntid.x;\nmov.u32 %r5, %tid.x;\nmad.lo.s32 %r1, %r3, %r4, %r5;\n"
    "setp.ge.s32 %p1, %r1, %r2;\n@%p1 bra $L__BB0_2;\n"
    "cvta.to.global.u64 %rd2, %rd1;\nmul.wide.s32 %rd3, %r1, 4;\nadd.s64 %rd4, %rd2, %rd3;\n"
    "ld.global.u32 %r6, [%rd4];\nadd.s32 %r7, %r6, 1;\nst.global.u32 [%rd4], %r7;\n"
    "$L__BB0_2:\nret;\n}\n";

/* Line 7 holds the syntax error (a missing operand). */
static const char bad_ptx[] =
    ".version 8.0\n.target sm_75\n.address_size 64\n"
    ".visible .entry broken()\n{\n"
    ".reg .b32 %r<2>;\n"
    "add.u32 %r1, ;\n"
    "ret;\n}\n";

static CUmodule load_good(void)
{
    CUmodule m = NULL;
    EXPECT(cuModuleLoadData(&m, good_ptx), CUDA_SUCCESS);
    return m;
}

/* Runs add_one over n ints that start at 0 and checks they became 1. */
static void check_add_one_works(CUmodule m)
{
    enum { N = 300 };
    CUfunction f = NULL;
    EXPECT(cuModuleGetFunction(&f, m, "add_one"), CUDA_SUCCESS);
    CUdeviceptr d = 0;
    EXPECT(cuMemAlloc_v2(&d, N * sizeof(int)), CUDA_SUCCESS);
    EXPECT(cuMemsetD32_v2(d, 0, N), CUDA_SUCCESS);
    int n = N;
    void *args[] = {&d, &n};
    EXPECT(cuLaunchKernel(f, (N + 127) / 128, 1, 1, 128, 1, 1, 0, NULL, args, NULL), CUDA_SUCCESS);
    int host[N];
    EXPECT(cuMemcpyDtoH_v2(host, d, sizeof host), CUDA_SUCCESS);
    int ok = 1;
    for (int i = 0; i < N; i++)
        ok &= host[i] == 1;
    CHECK(ok);
    EXPECT(cuMemFree_v2(d), CUDA_SUCCESS);
}

static void test_context_handles(CUdevice dev)
{
    CUcontext ctx = NULL, cur = NULL;
    EXPECT(cuCtxCreate_v4(&ctx, NULL, 0, dev), CUDA_SUCCESS);
    EXPECT(cuCtxDestroy_v2(ctx), CUDA_SUCCESS);
    EXPECT(cuCtxGetCurrent(&cur), CUDA_SUCCESS);
    CHECK(cur == NULL);
    /* No current context: calls that need one say so. */
    CUdeviceptr d = 0;
    EXPECT(cuMemAlloc_v2(&d, 16), CUDA_ERROR_INVALID_CONTEXT);
    EXPECT(cuCtxSynchronize(), CUDA_ERROR_INVALID_CONTEXT);
    EXPECT(cuCtxPushCurrent_v2(ctx), CUDA_ERROR_INVALID_CONTEXT);
    EXPECT(cuCtxSetCurrent(ctx), CUDA_ERROR_INVALID_CONTEXT);
    EXPECT(cuCtxDestroy_v2(ctx), CUDA_ERROR_INVALID_CONTEXT);
    EXPECT(cuCtxDestroy_v2(NULL), CUDA_ERROR_INVALID_VALUE);
}

static void test_stream_event_handles(void)
{
    CUstream s = NULL;
    EXPECT(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING), CUDA_SUCCESS);
    EXPECT(cuStreamDestroy_v2(s), CUDA_SUCCESS);
    EXPECT(cuStreamSynchronize(s), CUDA_ERROR_INVALID_HANDLE);
    EXPECT(cuStreamQuery(s), CUDA_ERROR_INVALID_HANDLE);
    EXPECT(cuStreamDestroy_v2(s), CUDA_ERROR_INVALID_HANDLE);
    EXPECT(cuStreamCreate(NULL, 0), CUDA_ERROR_INVALID_VALUE);

    CUevent e = NULL;
    EXPECT(cuEventCreate(&e, 0), CUDA_SUCCESS);
    EXPECT(cuEventDestroy_v2(e), CUDA_SUCCESS);
    EXPECT(cuEventRecord(e, NULL), CUDA_ERROR_INVALID_HANDLE);
    EXPECT(cuEventQuery(e), CUDA_ERROR_INVALID_HANDLE);
    EXPECT(cuEventSynchronize(e), CUDA_ERROR_INVALID_HANDLE);
    EXPECT(cuEventDestroy_v2(e), CUDA_ERROR_INVALID_HANDLE);
    EXPECT(cuEventRecord(NULL, NULL), CUDA_ERROR_INVALID_HANDLE);
    EXPECT(cuEventQuery(NULL), CUDA_ERROR_INVALID_HANDLE);
    /* Elapsed time of events that were never recorded. */
    CUevent a = NULL, b = NULL;
    EXPECT(cuEventCreate(&a, 0), CUDA_SUCCESS);
    EXPECT(cuEventCreate(&b, 0), CUDA_SUCCESS);
    float ms = 0;
    EXPECT(cuEventElapsedTime_v2(&ms, a, b), CUDA_ERROR_INVALID_HANDLE);
    EXPECT(cuEventDestroy_v2(a), CUDA_SUCCESS);
    EXPECT(cuEventDestroy_v2(b), CUDA_SUCCESS);
}

static void test_module_handles(void)
{
    CUmodule m = load_good();
    CUfunction f = NULL;
    EXPECT(cuModuleGetFunction(&f, m, "no_such_kernel"), CUDA_ERROR_NOT_FOUND);
    CUdeviceptr g = 0;
    size_t bytes = 0;
    EXPECT(cuModuleGetGlobal_v2(&g, &bytes, m, "no_such_global"), CUDA_ERROR_NOT_FOUND);
    EXPECT(cuModuleGetFunction(&f, m, "add_one"), CUDA_SUCCESS);
    EXPECT(cuModuleUnload(m), CUDA_SUCCESS);
    EXPECT(cuModuleGetFunction(&f, m, "add_one"), CUDA_ERROR_INVALID_HANDLE);
    EXPECT(cuModuleUnload(m), CUDA_ERROR_INVALID_HANDLE);
    EXPECT(cuModuleGetFunction(&f, NULL, "add_one"), CUDA_ERROR_INVALID_HANDLE);
    CUdeviceptr d = 0;
    EXPECT(cuMemAlloc_v2(&d, 16), CUDA_SUCCESS);
    int n = 4;
    void *args[] = {&d, &n};
    /* The function died with its module. */
    EXPECT(cuLaunchKernel(f, 1, 1, 1, 4, 1, 1, 0, NULL, args, NULL), CUDA_ERROR_INVALID_HANDLE);
    EXPECT(cuLaunchKernel(NULL, 1, 1, 1, 4, 1, 1, 0, NULL, args, NULL), CUDA_ERROR_INVALID_HANDLE);
    EXPECT(cuMemFree_v2(d), CUDA_SUCCESS);
}

static void test_memory(void)
{
    CUdeviceptr d = 0;
    EXPECT(cuMemAlloc_v2(&d, 0), CUDA_ERROR_INVALID_VALUE);
    EXPECT(cuMemAlloc_v2(NULL, 16), CUDA_ERROR_INVALID_VALUE);
    EXPECT(cuMemAlloc_v2(&d, 256), CUDA_SUCCESS);
    EXPECT(cuMemFree_v2(d), CUDA_SUCCESS);
    char host[256] = {0};
    EXPECT(cuMemcpyHtoD_v2(d, host, sizeof host), CUDA_ERROR_INVALID_VALUE);
    EXPECT(cuMemcpyDtoH_v2(host, d, sizeof host), CUDA_ERROR_INVALID_VALUE);
    EXPECT(cuMemsetD8_v2(d, 0, sizeof host), CUDA_ERROR_INVALID_VALUE);
    EXPECT(cuMemFree_v2(d), CUDA_ERROR_INVALID_VALUE);
    /* A copy that runs past the end of a live allocation. */
    EXPECT(cuMemAlloc_v2(&d, 64), CUDA_SUCCESS);
    EXPECT(cuMemcpyHtoD_v2(d, host, sizeof host), CUDA_ERROR_INVALID_VALUE);
    EXPECT(cuMemcpyHtoD_v2(d + 32, host, 64), CUDA_ERROR_INVALID_VALUE);
    EXPECT(cuMemFree_v2(d + 8), CUDA_ERROR_INVALID_VALUE);
    EXPECT(cuMemFree_v2(d), CUDA_SUCCESS);

    size_t free_b = 0, total_b = 0;
    EXPECT(cuMemGetInfo_v2(&free_b, &total_b), CUDA_SUCCESS);
    CHECK(total_b > 0 && free_b <= total_b);
    EXPECT(cuMemAlloc_v2(&d, total_b + ((size_t)1 << 30)), CUDA_ERROR_OUT_OF_MEMORY);
    EXPECT(cuMemAlloc_v2(&d, (size_t)-1 / 2), CUDA_ERROR_OUT_OF_MEMORY);
    /* Nothing is left behind, and later allocations still work. */
    size_t free_after = 0;
    EXPECT(cuMemGetInfo_v2(&free_after, &total_b), CUDA_SUCCESS);
    CHECK(free_after == free_b);
    EXPECT(cuMemAlloc_v2(&d, 1 << 20), CUDA_SUCCESS);
    EXPECT(cuMemFree_v2(d), CUDA_SUCCESS);
    void *p = NULL;
    EXPECT(cuMemAllocHost_v2(&p, 64), CUDA_SUCCESS);
    EXPECT(cuMemFreeHost(p), CUDA_SUCCESS);
}

static void test_launch_limits(CUmodule m)
{
    CUfunction f = NULL;
    EXPECT(cuModuleGetFunction(&f, m, "add_one"), CUDA_SUCCESS);
    CUdeviceptr d = 0;
    EXPECT(cuMemAlloc_v2(&d, 4096 * sizeof(int)), CUDA_SUCCESS);
    int n = 4096;
    void *args[] = {&d, &n};
    EXPECT(cuLaunchKernel(f, 1, 1, 1, 1025, 1, 1, 0, NULL, args, NULL), CUDA_ERROR_INVALID_VALUE);
    EXPECT(cuLaunchKernel(f, 1, 1, 1, 32, 32, 2, 0, NULL, args, NULL), CUDA_ERROR_INVALID_VALUE);
    EXPECT(cuLaunchKernel(f, 1, 1, 1, 1, 1, 65, 0, NULL, args, NULL), CUDA_ERROR_INVALID_VALUE);
    EXPECT(cuLaunchKernel(f, 0, 1, 1, 32, 1, 1, 0, NULL, args, NULL), CUDA_ERROR_INVALID_VALUE);
    EXPECT(cuLaunchKernel(f, 1, 1, 1, 0, 1, 1, 0, NULL, args, NULL), CUDA_ERROR_INVALID_VALUE);
    EXPECT(cuLaunchKernel(f, 1, 0, 1, 32, 1, 1, 0, NULL, args, NULL), CUDA_ERROR_INVALID_VALUE);
    EXPECT(cuLaunchKernel(f, 1, 65536, 1, 32, 1, 1, 0, NULL, args, NULL), CUDA_ERROR_INVALID_VALUE);
    CUdevice dev = 0;
    EXPECT(cuCtxGetDevice(&dev), CUDA_SUCCESS);
    int smem_optin = 0;
    EXPECT(cuDeviceGetAttribute(&smem_optin, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN, dev),
           CUDA_SUCCESS);
    /* More dynamic shared memory than the device has at all, and (without
     * opting in) more than the default 48 KiB. */
    EXPECT(cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, (unsigned)smem_optin + 1, NULL, args, NULL),
           CUDA_ERROR_INVALID_VALUE);
    EXPECT(cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 48 * 1024 + 1, NULL, args, NULL), CUDA_ERROR_INVALID_VALUE);
    /* Both kernelParams and extra; neither. */
    size_t argbuf_size = 12;
    char argbuf[16] = {0};
    memcpy(argbuf, &d, 8);
    memcpy(argbuf + 8, &n, 4);
    void *extra[] = {CU_LAUNCH_PARAM_BUFFER_POINTER, argbuf, CU_LAUNCH_PARAM_BUFFER_SIZE, &argbuf_size,
                     CU_LAUNCH_PARAM_END};
    EXPECT(cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, NULL, args, extra), CUDA_ERROR_INVALID_VALUE);
    EXPECT(cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, NULL, NULL, NULL), CUDA_ERROR_INVALID_VALUE);
    /* The extra buffer must be exactly the kernel's parameters (12 bytes:
     * no tail padding). Larger: CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES, from
     * 32768 bytes on CUDA_ERROR_INVALID_VALUE, as on an H200. Smaller: a
     * GPU launches with undefined parameters; cubridge refuses
     * (CUDA_ERROR_INVALID_VALUE). */
    size_t short_size = 8, long_size = 16, huge_size = 32768;
    void *extra_short[] = {CU_LAUNCH_PARAM_BUFFER_POINTER, argbuf, CU_LAUNCH_PARAM_BUFFER_SIZE, &short_size,
                           CU_LAUNCH_PARAM_END};
    EXPECT(cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, NULL, NULL, extra_short), CUDA_ERROR_INVALID_VALUE);
    void *extra_long[] = {CU_LAUNCH_PARAM_BUFFER_POINTER, argbuf, CU_LAUNCH_PARAM_BUFFER_SIZE, &long_size,
                          CU_LAUNCH_PARAM_END};
    EXPECT(cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, NULL, NULL, extra_long), CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES);
    void *extra_huge[] = {CU_LAUNCH_PARAM_BUFFER_POINTER, argbuf, CU_LAUNCH_PARAM_BUFFER_SIZE, &huge_size,
                          CU_LAUNCH_PARAM_END};
    EXPECT(cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, NULL, NULL, extra_huge), CUDA_ERROR_INVALID_VALUE);
    void *extra_nosize[] = {CU_LAUNCH_PARAM_BUFFER_POINTER, argbuf, CU_LAUNCH_PARAM_END};
    EXPECT(cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, NULL, NULL, extra_nosize), CUDA_ERROR_INVALID_VALUE);
    /* The right size launches. */
    EXPECT(cuMemsetD32_v2(d, 0, 4096), CUDA_SUCCESS);
    EXPECT(cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, NULL, NULL, extra), CUDA_SUCCESS);
    EXPECT(cuCtxSynchronize(), CUDA_SUCCESS);
    int first = 0;
    EXPECT(cuMemcpyDtoH_v2(&first, d, sizeof first), CUDA_SUCCESS);
    CHECK(first == 1);
    /* None of the refused launches left a sticky error. */
    EXPECT(cuCtxSynchronize(), CUDA_SUCCESS);
    EXPECT(cuMemFree_v2(d), CUDA_SUCCESS);
}

static void test_images(void)
{
    CUmodule m = NULL;
    static const unsigned char garbage[64] = {0xde, 0xad, 0xbe, 0xef, 1, 2, 3, 4};
    EXPECT(cuModuleLoadData(&m, garbage), CUDA_ERROR_INVALID_IMAGE);
    EXPECT(cuModuleLoadData(&m, "just some text\n"), CUDA_ERROR_INVALID_IMAGE);
    EXPECT(cuModuleLoadData(&m, NULL), CUDA_ERROR_INVALID_VALUE);
    EXPECT(cuModuleLoadData(NULL, good_ptx), CUDA_ERROR_INVALID_VALUE);
    EXPECT(cuModuleLoad(&m, "/nonexistent/cubridge/module.ptx"), CUDA_ERROR_FILE_NOT_FOUND);
    EXPECT(cuModuleLoadData(&m, bad_ptx), CUDA_ERROR_INVALID_PTX);
    char log[1024] = "";
    CUjit_option opts[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
    void *vals[] = {log, (void *)(uintptr_t)sizeof log};
    EXPECT(cuModuleLoadDataEx(&m, bad_ptx, 2, opts, vals), CUDA_ERROR_INVALID_PTX);
    CHECK(strstr(log, ":7:") != NULL);
    if (!strstr(log, ":7:"))
        fprintf(stderr, "error log: %s\n", log);
    /* Still works after all that. */
    m = load_good();
    check_add_one_works(m);
    EXPECT(cuModuleUnload(m), CUDA_SUCCESS);
}

/* Create/destroy cycles: run under LeakSanitizer, nothing may be left. */
static void test_cycles(CUdevice dev)
{
    for (int i = 0; i < 20; i++) {
        CUcontext ctx = NULL;
        EXPECT(cuCtxCreate_v4(&ctx, NULL, 0, dev), CUDA_SUCCESS);
        CUmodule m = load_good();
        check_add_one_works(m);
        CUstream s = NULL;
        CUevent e = NULL;
        EXPECT(cuStreamCreate(&s, 0), CUDA_SUCCESS);
        EXPECT(cuEventCreate(&e, 0), CUDA_SUCCESS);
        EXPECT(cuEventRecord(e, s), CUDA_SUCCESS);
        EXPECT(cuEventSynchronize(e), CUDA_SUCCESS);
        EXPECT(cuEventDestroy_v2(e), CUDA_SUCCESS);
        EXPECT(cuStreamDestroy_v2(s), CUDA_SUCCESS);
        CUdeviceptr d = 0;
        EXPECT(cuMemAlloc_v2(&d, 1000), CUDA_SUCCESS); /* freed by the context's destruction */
        if (i % 2)
            EXPECT(cuModuleUnload(m), CUDA_SUCCESS); /* else unloaded with the context */
        EXPECT(cuCtxDestroy_v2(ctx), CUDA_SUCCESS);
    }
}

int main(void)
{
    EXPECT(cuCtxSynchronize(), CUDA_ERROR_NOT_INITIALIZED);
    EXPECT(cuInit(0), CUDA_SUCCESS);
    CUdevice dev = 0;
    EXPECT(cuDeviceGet(&dev, 0), CUDA_SUCCESS);
    int count = 0;
    EXPECT(cuDeviceGetCount(&count), CUDA_SUCCESS);
    EXPECT(cuDeviceGet(&dev, count), CUDA_ERROR_INVALID_DEVICE);
    EXPECT(cuDeviceGet(&dev, -1), CUDA_ERROR_INVALID_DEVICE);
    EXPECT(cuDeviceGet(&dev, 0), CUDA_SUCCESS);
    test_context_handles(dev);

    CUcontext ctx = NULL;
    EXPECT(cuCtxCreate_v4(&ctx, NULL, 0, dev), CUDA_SUCCESS);
    test_stream_event_handles();
    test_module_handles();
    test_memory();
    CUmodule m = load_good();
    test_launch_limits(m);
    check_add_one_works(m);
    EXPECT(cuModuleUnload(m), CUDA_SUCCESS);
    test_images();
    EXPECT(cuCtxDestroy_v2(ctx), CUDA_SUCCESS);
    test_cycles(dev);
    if (failures)
        fprintf(stderr, "test_errors_driver: %d failures\n", failures);
    return failures ? 1 : 0;
}
