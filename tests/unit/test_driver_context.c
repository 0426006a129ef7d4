/* test_driver_context.c: cuInit, devices and their attributes, primary
 * contexts, the context stack, and invalid handles. */
#include "driver/driver.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures;
#define CHECK(cond)                                                                                         \
    do {                                                                                                    \
        if (!(cond)) {                                                                                      \
            fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond);                         \
            failures++;                                                                                     \
        }                                                                                                   \
    } while (0)

static void test_before_init(void)
{
    int n = -1;
    CUcontext ctx;
    CHECK(cuDeviceGetCount(&n) == CUDA_ERROR_NOT_INITIALIZED);
    CHECK(cuCtxGetCurrent(&ctx) == CUDA_ERROR_NOT_INITIALIZED);
    CHECK(cuCtxSynchronize() == CUDA_ERROR_NOT_INITIALIZED);
    CHECK(cuInit(1) == CUDA_ERROR_INVALID_VALUE);
    CHECK(cuInit(0) == CUDA_SUCCESS);
    CHECK(cuInit(0) == CUDA_SUCCESS);
}

static void test_devices(void)
{
    int n = 0, v = 0;
    CUdevice dev = -1;
    CHECK(cuDeviceGetCount(&n) == CUDA_SUCCESS && n == 1);
    CHECK(cuDeviceGet(&dev, 0) == CUDA_SUCCESS && dev == 0);
    CHECK(cuDeviceGet(&dev, 1) == CUDA_ERROR_INVALID_DEVICE);
    CHECK(cuDeviceGet(&dev, -1) == CUDA_ERROR_INVALID_DEVICE);
    char name[256];
    CHECK(cuDeviceGetName(name, sizeof name, 0) == CUDA_SUCCESS && strstr(name, "[cubridge]"));
    CHECK(cuDeviceGetName(name, sizeof name, 3) == CUDA_ERROR_INVALID_DEVICE);
    CHECK(cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_WARP_SIZE, 0) == CUDA_SUCCESS && v == 32);
    CHECK(cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK, 0) == CUDA_SUCCESS && v == 1024);
    CHECK(cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z, 0) == CUDA_SUCCESS && v == 64);
    CHECK(cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK, 0) == CUDA_SUCCESS &&
          v == 48 * 1024);
    CHECK(cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN, 0) == CUDA_SUCCESS &&
          v == 99 * 1024);
    CHECK(cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, 0) == CUDA_SUCCESS && v >= 1);
    CHECK(cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_UNIFIED_ADDRESSING, 0) == CUDA_SUCCESS && v == 1);
    const char *sm = getenv("CUBRIDGE_SM");
    int major = 0, minor = 0;
    CHECK(cuDeviceComputeCapability(&major, &minor, 0) == CUDA_SUCCESS);
    if (!sm)
        CHECK(major == 8 && minor == 6);
    CHECK(cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, 0) == CUDA_SUCCESS && v == major);
    /* Every attribute cuda.h defines has a value; others are errors. */
    for (int a = CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK; a <= CU_DEVICE_ATTRIBUTE_ONLY_PARTIAL_HOST_NATIVE_ATOMIC_SUPPORTED;
         a++)
        CHECK(cuDeviceGetAttribute(&v, (CUdevice_attribute)a, 0) == CUDA_SUCCESS);
    CHECK(cuDeviceGetAttribute(&v, (CUdevice_attribute)0, 0) == CUDA_ERROR_INVALID_VALUE);
    CHECK(cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_MAX, 0) == CUDA_ERROR_INVALID_VALUE);
    CHECK(cuDeviceGetAttribute(NULL, CU_DEVICE_ATTRIBUTE_WARP_SIZE, 0) == CUDA_ERROR_INVALID_VALUE);
    CHECK(cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_WARP_SIZE, 1) == CUDA_ERROR_INVALID_DEVICE);

    size_t total = 0;
    CHECK(cuDeviceTotalMem_v2(&total, 0) == CUDA_SUCCESS && total > 0);
    CUuuid a, b;
    CHECK(cuDeviceGetUuid_v2(&a, 0) == CUDA_SUCCESS && cuDeviceGetUuid(&b, 0) == CUDA_SUCCESS);
    CHECK(memcmp(&a, &b, sizeof a) == 0);
    char bus[32];
    CUdevice back = -1;
    CHECK(cuDeviceGetPCIBusId(bus, sizeof bus, 0) == CUDA_SUCCESS);
    CHECK(cuDeviceGetByPCIBusId(&back, bus) == CUDA_SUCCESS && back == 0);
    CHECK(cuDeviceGetByPCIBusId(&back, "0000:05:00.0") == CUDA_ERROR_INVALID_DEVICE);
    char luid[8];
    unsigned mask;
    CHECK(cuDeviceGetLuid(luid, &mask, 0) == CUDA_ERROR_NOT_SUPPORTED);
    CUdevprop prop;
    CHECK(cuDeviceGetProperties(&prop, 0) == CUDA_SUCCESS && prop.SIMDWidth == 32);
}

static void test_primary(void)
{
    unsigned flags = 99;
    int active = -1;
    CHECK(cuDevicePrimaryCtxGetState(0, &flags, &active) == CUDA_SUCCESS && active == 0 && flags == 0);
    CHECK(cuDevicePrimaryCtxSetFlags_v2(0, CU_CTX_SCHED_BLOCKING_SYNC) == CUDA_SUCCESS);
    CHECK(cuDevicePrimaryCtxSetFlags_v2(0, 0x10000) == CUDA_ERROR_INVALID_VALUE);
    CUcontext p1 = NULL, p2 = NULL;
    CHECK(cuDevicePrimaryCtxRetain(&p1, 0) == CUDA_SUCCESS && p1);
    CHECK(cuDevicePrimaryCtxRetain(&p2, 0) == CUDA_SUCCESS && p2 == p1);
    CHECK(cuDevicePrimaryCtxGetState(0, &flags, &active) == CUDA_SUCCESS && active == 1);
    CHECK(flags == CU_CTX_SCHED_BLOCKING_SYNC);
    /* Retaining does not make it current. */
    CUcontext cur = (CUcontext)1;
    CHECK(cuCtxGetCurrent(&cur) == CUDA_SUCCESS && cur == NULL);
    CHECK(cuCtxSetCurrent(p1) == CUDA_SUCCESS);
    CUdevice dev = -1;
    CHECK(cuCtxGetDevice(&dev) == CUDA_SUCCESS && dev == 0);
    CHECK(cuCtxSynchronize() == CUDA_SUCCESS);
    CHECK(cuCtxDestroy_v2(p1) == CUDA_ERROR_INVALID_CONTEXT); /* primary contexts are not destroyed */
    CHECK(cuDevicePrimaryCtxRelease_v2(0) == CUDA_SUCCESS);
    CHECK(cuDevicePrimaryCtxRelease_v2(0) == CUDA_SUCCESS);
    CHECK(cuDevicePrimaryCtxRelease_v2(0) == CUDA_ERROR_INVALID_CONTEXT);
    CHECK(cuDevicePrimaryCtxGetState(0, &flags, &active) == CUDA_SUCCESS && active == 0);
    /* The thread still names the primary context, now inactive: "a primary
     * context which has not yet been initialized" (cuda.h on 709). */
    CHECK(cuCtxSynchronize() == CUDA_ERROR_CONTEXT_IS_DESTROYED);
    CHECK(cuCtxSetCurrent(NULL) == CUDA_SUCCESS);
    CHECK(cuDevicePrimaryCtxReset_v2(0) == CUDA_SUCCESS);
    CHECK(cuDevicePrimaryCtxGetState(0, &flags, &active) == CUDA_SUCCESS && flags == 0);

    /* A reset keeps the handle (cudart makes it current again right after
     * cudaDeviceReset): inactive until retained, then the same handle with a
     * new id and fresh state. */
    CUcontext p3 = NULL;
    unsigned long long id1 = 0, id3 = 0;
    CHECK(cuDevicePrimaryCtxRetain(&p3, 0) == CUDA_SUCCESS && p3 == p1);
    CHECK(cuCtxSetCurrent(p3) == CUDA_SUCCESS);
    CHECK(cuCtxGetId(p3, &id1) == CUDA_SUCCESS);
    CUdeviceptr d = 0;
    CHECK(cuMemAlloc_v2(&d, 256) == CUDA_SUCCESS);
    CHECK(cuDevicePrimaryCtxReset_v2(0) == CUDA_SUCCESS);
    CHECK(cuCtxSetCurrent(p3) == CUDA_SUCCESS);        /* still a valid handle */
    CHECK(cuCtxSynchronize() == CUDA_ERROR_CONTEXT_IS_DESTROYED);
    CHECK(cuMemAlloc_v2(&d, 256) == CUDA_ERROR_CONTEXT_IS_DESTROYED);
    CHECK(cuDevicePrimaryCtxRetain(&p3, 0) == CUDA_SUCCESS && p3 == p1);
    CHECK(cuCtxGetId(p3, &id3) == CUDA_SUCCESS && id3 != id1);
    CHECK(cuCtxSynchronize() == CUDA_SUCCESS);
    CHECK(cuMemAlloc_v2(&d, 256) == CUDA_SUCCESS && cuMemFree_v2(d) == CUDA_SUCCESS);
    CHECK(cuDevicePrimaryCtxRelease_v2(0) == CUDA_SUCCESS);
    CHECK(cuCtxSetCurrent(NULL) == CUDA_SUCCESS);
}

static void test_stack(void)
{
    CUcontext a = NULL, b = NULL, cur = NULL, popped = NULL;
    CHECK(cuCtxGetCurrent(&cur) == CUDA_SUCCESS && cur == NULL);
    CHECK(cuCtxSynchronize() == CUDA_ERROR_INVALID_CONTEXT);
    CHECK(cuCtxPopCurrent_v2(&popped) == CUDA_ERROR_INVALID_CONTEXT);
    CHECK(cuCtxCreate_v2(&a, 0, 0) == CUDA_SUCCESS && a);
    CHECK(cuCtxGetCurrent(&cur) == CUDA_SUCCESS && cur == a);
    CHECK(cuCtxCreate_v4(&b, NULL, CU_CTX_SCHED_SPIN, 0) == CUDA_SUCCESS && b && b != a);
    CHECK(cuCtxGetCurrent(&cur) == CUDA_SUCCESS && cur == b);
    unsigned flags = 0;
    CHECK(cuCtxGetFlags(&flags) == CUDA_SUCCESS && (flags & CU_CTX_SCHED_MASK) == CU_CTX_SCHED_SPIN);
    unsigned long long ida = 0, idb = 0;
    CHECK(cuCtxGetId(a, &ida) == CUDA_SUCCESS && cuCtxGetId(b, &idb) == CUDA_SUCCESS && ida != idb);
    unsigned api = 0;
    CHECK(cuCtxGetApiVersion(a, &api) == CUDA_SUCCESS && api == 3020);
    CHECK(cuCtxPopCurrent_v2(&popped) == CUDA_SUCCESS && popped == b);
    CHECK(cuCtxGetCurrent(&cur) == CUDA_SUCCESS && cur == a);
    CHECK(cuCtxPushCurrent_v2(b) == CUDA_SUCCESS);
    CHECK(cuCtxSetCurrent(a) == CUDA_SUCCESS); /* replaces the top */
    CHECK(cuCtxPopCurrent_v2(&popped) == CUDA_SUCCESS && popped == a);
    CHECK(cuCtxPopCurrent_v2(&popped) == CUDA_SUCCESS && popped == a);
    CHECK(cuCtxGetCurrent(&cur) == CUDA_SUCCESS && cur == NULL);

    /* Limits and configs on the current context. */
    CHECK(cuCtxPushCurrent_v2(a) == CUDA_SUCCESS);
    size_t v = 0;
    CHECK(cuCtxSetLimit(CU_LIMIT_STACK_SIZE, 4096) == CUDA_SUCCESS);
    CHECK(cuCtxGetLimit(&v, CU_LIMIT_STACK_SIZE) == CUDA_SUCCESS && v == 4096);
    CHECK(cuCtxGetLimit(&v, (CUlimit)0x40) == CUDA_ERROR_UNSUPPORTED_LIMIT);
    CUfunc_cache cc;
    CHECK(cuCtxSetCacheConfig(CU_FUNC_CACHE_PREFER_SHARED) == CUDA_SUCCESS);
    CHECK(cuCtxGetCacheConfig(&cc) == CUDA_SUCCESS && cc == CU_FUNC_CACHE_PREFER_SHARED);
    CHECK(cuCtxSetCacheConfig((CUfunc_cache)9) == CUDA_ERROR_INVALID_VALUE);
    int lo = 1, hi = 1;
    CHECK(cuCtxGetStreamPriorityRange(&lo, &hi) == CUDA_SUCCESS && lo == 0 && hi == 0);

    /* Destroying pops it when current; the handle is dead afterwards. */
    CHECK(cuCtxDestroy_v2(a) == CUDA_SUCCESS);
    CHECK(cuCtxGetCurrent(&cur) == CUDA_SUCCESS && cur == NULL);
    CHECK(cuCtxDestroy_v2(a) == CUDA_ERROR_INVALID_CONTEXT);
    CHECK(cuCtxPushCurrent_v2(a) == CUDA_ERROR_INVALID_CONTEXT);
    CHECK(cuCtxSetCurrent(a) == CUDA_ERROR_INVALID_CONTEXT);
    CHECK(cuCtxGetApiVersion(a, &api) == CUDA_ERROR_INVALID_CONTEXT);
    CHECK(cuCtxDestroy_v2(b) == CUDA_SUCCESS);
    CHECK(cuCtxCreate_v2(&a, 0x100000, 0) == CUDA_ERROR_INVALID_VALUE);
    CHECK(cuCtxCreate_v2(&a, 0, 7) == CUDA_ERROR_INVALID_DEVICE);
    CHECK(cuCtxCreate_v2(NULL, 0, 0) == CUDA_ERROR_INVALID_VALUE);
}

int main(void)
{
    test_before_init();
    test_devices();
    test_primary();
    test_stack();
    if (failures)
        fprintf(stderr, "test_driver_context: %d failures\n", failures);
    return failures != 0;
}
