/* mock_libcuda.c: a stand-in for NVIDIA's libcuda.so.1, for the cuda
 * pass-through's end-to-end tests (run_inspect_test.sh, case passthrough).
 *
 * It exports what a Numba-style client and the pass-through's verify mode
 * call: init, one device ("Mock GPU"), contexts, memory (host memory stands
 * in for device memory), modules and launches, cuGetProcAddress_v2 (its own
 * symbols, by name) and cuGetExportTable (refused). It records every call by
 * name: mock_calls(name) for a client that loads it too, and the file
 * $MOCK_LIBCUDA_LOG at exit ("name count" lines). With MOCK_LIBCUDA_FAULT
 * set, a launch "faults" as a trapping kernel does on a GPU: the launch
 * call succeeds, and the context's sticky CUDA_ERROR_LAUNCH_FAILED answers
 * every later synchronisation and copy. Its one kernel is
 * scale(float *y, float a, unsigned n): y[i] *= a, from any module. It lacks
 * most of the driver (cuArrayCreate_v2 ...), on purpose. */
#define _GNU_SOURCE 1
#include <cuda.h>
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MOCK_API __attribute__((visibility("default")))

enum { MOCK_MAX_NAMES = 128 };
static struct {
    const char *name;
    int calls;
} counts[MOCK_MAX_NAMES];
static int initialised;
static int ctx_token, module_token, function_token;
static CUresult sticky; /* a "kernel fault" (MOCK_LIBCUDA_FAULT), as a context's sticky error */

static void count(const char *name)
{
    for (int i = 0; i < MOCK_MAX_NAMES; i++) {
        if (!counts[i].name)
            counts[i].name = name;
        if (strcmp(counts[i].name, name) == 0) {
            counts[i].calls++;
            return;
        }
    }
}
#define COUNT() count(__func__)

MOCK_API int mock_calls(const char *name)
{
    for (int i = 0; i < MOCK_MAX_NAMES && counts[i].name; i++)
        if (strcmp(counts[i].name, name) == 0)
            return counts[i].calls;
    return 0;
}

__attribute__((destructor)) static void mock_write_log(void)
{
    const char *path = getenv("MOCK_LIBCUDA_LOG");
    FILE *f = path ? fopen(path, "w") : NULL;
    if (!f)
        return;
    for (int i = 0; i < MOCK_MAX_NAMES && counts[i].name; i++)
        fprintf(f, "%s %d\n", counts[i].name, counts[i].calls);
    fclose(f);
}

#define NEED_INIT()                                                                                         \
    do {                                                                                                    \
        if (!initialised)                                                                                   \
            return CUDA_ERROR_NOT_INITIALIZED;                                                              \
    } while (0)

MOCK_API CUresult cuInit(unsigned int flags)
{
    COUNT();
    if (flags)
        return CUDA_ERROR_INVALID_VALUE;
    initialised = 1;
    return CUDA_SUCCESS;
}

MOCK_API CUresult cuDriverGetVersion(int *v)
{
    COUNT();
    if (!v)
        return CUDA_ERROR_INVALID_VALUE;
    *v = 13000;
    return CUDA_SUCCESS;
}

MOCK_API CUresult cuDeviceGetCount(int *n)
{
    COUNT();
    NEED_INIT();
    *n = 1;
    return CUDA_SUCCESS;
}

MOCK_API CUresult cuDeviceGet(CUdevice *d, int ordinal)
{
    COUNT();
    NEED_INIT();
    if (ordinal != 0)
        return CUDA_ERROR_INVALID_DEVICE;
    *d = 0;
    return CUDA_SUCCESS;
}

MOCK_API CUresult cuDeviceGetName(char *name, int len, CUdevice d)
{
    COUNT();
    NEED_INIT();
    if (d != 0 || !name || len < 1)
        return CUDA_ERROR_INVALID_VALUE;
    snprintf(name, (size_t)len, "Mock GPU");
    return CUDA_SUCCESS;
}

MOCK_API CUresult cuDeviceGetAttribute(int *v, CUdevice_attribute attr, CUdevice d)
{
    COUNT();
    NEED_INIT();
    if (d != 0)
        return CUDA_ERROR_INVALID_DEVICE;
    switch (attr) {
    case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR: *v = 9; break;
    case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR: *v = 0; break;
    case CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT: *v = 4; break;
    case CU_DEVICE_ATTRIBUTE_WARP_SIZE: *v = 32; break;
    default: *v = 0; break;
    }
    return CUDA_SUCCESS;
}

MOCK_API CUresult cuDeviceTotalMem_v2(size_t *bytes, CUdevice d)
{
    COUNT();
    NEED_INIT();
    (void)d;
    *bytes = (size_t)1 << 30;
    return CUDA_SUCCESS;
}

MOCK_API CUresult cuDevicePrimaryCtxRetain(CUcontext *ctx, CUdevice d)
{
    COUNT();
    NEED_INIT();
    (void)d;
    *ctx = (CUcontext)(void *)&ctx_token;
    return CUDA_SUCCESS;
}

MOCK_API CUresult cuCtxCreate_v2(CUcontext *ctx, unsigned int flags, CUdevice d)
{
    COUNT();
    NEED_INIT();
    (void)flags, (void)d;
    *ctx = (CUcontext)(void *)&ctx_token;
    return CUDA_SUCCESS;
}

MOCK_API CUresult cuCtxPushCurrent_v2(CUcontext ctx)
{
    COUNT();
    return ctx ? CUDA_SUCCESS : CUDA_ERROR_INVALID_CONTEXT;
}

MOCK_API CUresult cuCtxSetCurrent(CUcontext ctx)
{
    COUNT();
    (void)ctx;
    return CUDA_SUCCESS;
}

MOCK_API CUresult cuCtxGetDevice(CUdevice *d)
{
    COUNT();
    NEED_INIT();
    *d = 0;
    return CUDA_SUCCESS;
}

MOCK_API CUresult cuCtxSynchronize(void)
{
    COUNT();
    return sticky;
}

MOCK_API CUresult cuCtxDestroy_v2(CUcontext ctx)
{
    COUNT();
    (void)ctx;
    return CUDA_SUCCESS;
}

MOCK_API CUresult cuMemAlloc_v2(CUdeviceptr *p, size_t n)
{
    COUNT();
    NEED_INIT();
    void *m = calloc(1, n);
    *p = (CUdeviceptr)(uintptr_t)m;
    return m ? CUDA_SUCCESS : CUDA_ERROR_OUT_OF_MEMORY;
}

MOCK_API CUresult cuMemFree_v2(CUdeviceptr p)
{
    COUNT();
    free((void *)(uintptr_t)p);
    return CUDA_SUCCESS;
}

MOCK_API CUresult cuMemcpyHtoD_v2(CUdeviceptr d, const void *s, size_t n)
{
    COUNT();
    memcpy((void *)(uintptr_t)d, s, n);
    return CUDA_SUCCESS;
}

MOCK_API CUresult cuMemcpyDtoH_v2(void *d, CUdeviceptr s, size_t n)
{
    COUNT();
    if (sticky != CUDA_SUCCESS)
        return sticky;
    memcpy(d, (const void *)(uintptr_t)s, n);
    return CUDA_SUCCESS;
}

MOCK_API CUresult cuModuleLoadData(CUmodule *m, const void *image)
{
    COUNT();
    NEED_INIT();
    if (!image)
        return CUDA_ERROR_INVALID_VALUE;
    *m = (CUmodule)(void *)&module_token;
    return CUDA_SUCCESS;
}

MOCK_API CUresult cuModuleLoadDataEx(CUmodule *m, const void *image, unsigned int n, CUjit_option *o, void **v)
{
    COUNT();
    (void)n, (void)o, (void)v;
    NEED_INIT();
    if (!image)
        return CUDA_ERROR_INVALID_VALUE;
    *m = (CUmodule)(void *)&module_token;
    return CUDA_SUCCESS;
}

MOCK_API CUresult cuModuleGetFunction(CUfunction *f, CUmodule m, const char *name)
{
    COUNT();
    if (m != (CUmodule)(void *)&module_token)
        return CUDA_ERROR_INVALID_HANDLE;
    if (strcmp(name, "scale") != 0)
        return CUDA_ERROR_NOT_FOUND;
    *f = (CUfunction)(void *)&function_token;
    return CUDA_SUCCESS;
}

MOCK_API CUresult cuModuleUnload(CUmodule m)
{
    COUNT();
    return m ? CUDA_SUCCESS : CUDA_ERROR_INVALID_HANDLE;
}

MOCK_API CUresult cuModuleGetGlobal_v2(CUdeviceptr *p, size_t *bytes, CUmodule m, const char *name)
{
    COUNT();
    (void)p, (void)bytes, (void)m, (void)name;
    return CUDA_ERROR_NOT_FOUND;
}

MOCK_API CUresult cuStreamIsCapturing(CUstream s, CUstreamCaptureStatus *st)
{
    COUNT();
    (void)s;
    *st = CU_STREAM_CAPTURE_STATUS_NONE;
    return CUDA_SUCCESS;
}

MOCK_API CUresult cuLaunchKernel(CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,
                                 unsigned bz, unsigned smem, CUstream s, void **params, void **extra)
{
    COUNT();
    (void)gy, (void)gz, (void)by, (void)bz, (void)smem, (void)s, (void)extra;
    if (f != (CUfunction)(void *)&function_token || !params)
        return CUDA_ERROR_INVALID_HANDLE;
    if (sticky != CUDA_SUCCESS)
        return sticky;
    if (getenv("MOCK_LIBCUDA_FAULT")) {
        sticky = CUDA_ERROR_LAUNCH_FAILED;
        return CUDA_SUCCESS;
    }
    float *y = (float *)(uintptr_t) * (CUdeviceptr *)params[0];
    float a = *(float *)params[1];
    unsigned n = *(unsigned *)params[2];
    for (unsigned i = 0; i < n && i < gx * bx; i++)
        y[i] *= a;
    return CUDA_SUCCESS;
}

MOCK_API CUresult cuGetErrorName(CUresult r, const char **s)
{
    COUNT();
    *s = r == CUDA_SUCCESS ? "CUDA_SUCCESS" : "CUDA_ERROR_UNKNOWN";
    return CUDA_SUCCESS;
}

MOCK_API CUresult cuGetExportTable(const void **table, const CUuuid *id)
{
    COUNT();
    (void)id;
    *table = NULL;
    return CUDA_ERROR_NOT_SUPPORTED;
}

MOCK_API CUresult cuGetProcAddress_v2(const char *symbol, void **pfn, int version, cuuint64_t flags,
                                      CUdriverProcAddressQueryResult *status)
{
    COUNT();
    (void)version, (void)flags;
    Dl_info self;
    void *h = NULL;
    if (dladdr((void *)&cuGetProcAddress_v2, &self) && self.dli_fname)
        h = dlopen(self.dli_fname, RTLD_NOW | RTLD_NOLOAD);
    char name[160];
    /* the newest variant this mock has: name_v2, else name */
    snprintf(name, sizeof name, "%s_v2", symbol);
    void *p = h ? dlsym(h, name) : NULL;
    if (!p && h)
        p = dlsym(h, symbol);
    if (h)
        dlclose(h);
    *pfn = p;
    if (status)
        *status = p ? CU_GET_PROC_ADDRESS_SUCCESS : CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
    return p ? CUDA_SUCCESS : CUDA_ERROR_NOT_FOUND;
}
