/* fake_libcuda.c: a stand-in for NVIDIA's libcuda.so.1, for
 * test_driver_cuda_passthrough. It exports the few entry points the test
 * reaches, counts every call by name (fake_calls), and hands out its own
 * functions from cuGetProcAddress_v2. "Device" memory is host memory; its
 * cuLaunchKernel runs the one kernel the test loads, scale(y, a, n):
 * y[i] *= a, and plants a wrong element when fake_set_bug(1) was called. */
#include <cuda.h>
#include <stdlib.h>
#include <string.h>

#define FAKE_API __attribute__((visibility("default")))

static struct {
    const char *name;
    int calls;
} counts[64];
static int bug;

static void count(const char *name)
{
    for (int i = 0; i < 64; i++) {
        if (!counts[i].name)
            counts[i].name = name;
        if (strcmp(counts[i].name, name) == 0) {
            counts[i].calls++;
            return;
        }
    }
}

FAKE_API int fake_calls(const char *name)
{
    for (int i = 0; i < 64 && counts[i].name; i++)
        if (strcmp(counts[i].name, name) == 0)
            return counts[i].calls;
    return 0;
}

FAKE_API void fake_set_bug(int on) { bug = on; }

FAKE_API const void *fake_export_table[4] = {(const void *)(sizeof(void *) * 4), 0, 0, 0};

FAKE_API CUresult cuInit(unsigned int flags)
{
    count("cuInit");
    return flags == 0 ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

FAKE_API CUresult cuDriverGetVersion(int *v)
{
    count("cuDriverGetVersion");
    *v = 13123;
    return CUDA_SUCCESS;
}

FAKE_API CUresult cuGetExportTable(const void **table, const CUuuid *id)
{
    count("cuGetExportTable");
    (void)id;
    *table = fake_export_table;
    return CUDA_SUCCESS;
}

FAKE_API CUresult cuMemAlloc_v2(CUdeviceptr *p, size_t n)
{
    count("cuMemAlloc_v2");
    void *m = calloc(1, n);
    *p = (CUdeviceptr)(uintptr_t)m;
    return m ? CUDA_SUCCESS : CUDA_ERROR_OUT_OF_MEMORY;
}

FAKE_API CUresult cuMemFree_v2(CUdeviceptr p)
{
    count("cuMemFree_v2");
    free((void *)(uintptr_t)p);
    return CUDA_SUCCESS;
}

FAKE_API CUresult cuMemcpyHtoD_v2(CUdeviceptr d, const void *s, size_t n)
{
    count("cuMemcpyHtoD_v2");
    memcpy((void *)(uintptr_t)d, s, n);
    return CUDA_SUCCESS;
}

FAKE_API CUresult cuMemcpyDtoH_v2(void *d, CUdeviceptr s, size_t n)
{
    count("cuMemcpyDtoH_v2");
    memcpy(d, (const void *)(uintptr_t)s, n);
    return CUDA_SUCCESS;
}

FAKE_API CUresult cuCtxSynchronize(void)
{
    count("cuCtxSynchronize");
    return CUDA_SUCCESS;
}

FAKE_API CUresult cuStreamIsCapturing(CUstream s, CUstreamCaptureStatus *st)
{
    (void)s;
    *st = CU_STREAM_CAPTURE_STATUS_NONE;
    return CUDA_SUCCESS;
}

FAKE_API CUresult cuCtxGetDevice(CUdevice *d)
{
    *d = 0;
    return CUDA_SUCCESS;
}

FAKE_API CUresult cuDeviceGetName(char *name, int len, CUdevice d)
{
    (void)d;
    strncpy(name, "Fake GPU", (size_t)len);
    return CUDA_SUCCESS;
}

FAKE_API CUresult cuDeviceTotalMem_v2(size_t *bytes, CUdevice d)
{
    (void)d;
    *bytes = (size_t)1 << 30;
    return CUDA_SUCCESS;
}

static int library_token, kernel_token;

FAKE_API CUresult cuLibraryLoadData(CUlibrary *lib, const void *code, CUjit_option *o, void **ov, unsigned no,
                                    CUlibraryOption *lo, void **lov, unsigned nlo)
{
    (void)code, (void)o, (void)ov, (void)no, (void)lo, (void)lov, (void)nlo;
    count("cuLibraryLoadData");
    *lib = (CUlibrary)&library_token;
    return CUDA_SUCCESS;
}

FAKE_API CUresult cuLibraryGetKernel(CUkernel *k, CUlibrary lib, const char *name)
{
    count("cuLibraryGetKernel");
    if (lib != (CUlibrary)&library_token || strcmp(name, "scale") != 0)
        return CUDA_ERROR_NOT_FOUND;
    *k = (CUkernel)&kernel_token;
    return CUDA_SUCCESS;
}

FAKE_API CUresult cuLaunchKernel(CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,
                                 unsigned bz, unsigned smem, CUstream s, void **params, void **extra)
{
    (void)smem, (void)s, (void)extra;
    count("cuLaunchKernel");
    if (f != (CUfunction)&kernel_token || !params)
        return CUDA_ERROR_INVALID_HANDLE;
    float *y = (float *)(uintptr_t) * (CUdeviceptr *)params[0];
    float a = *(float *)params[1];
    unsigned n = *(unsigned *)params[2];
    unsigned total = gx * gy * gz * bx * by * bz;
    for (unsigned i = 0; i < total && i < n; i++)
        y[i] *= a;
    if (bug && n > 1)
        y[1] += 0.5f;
    return CUDA_SUCCESS;
}

FAKE_API CUresult cuFakeFutureCall(int x) { count("cuFakeFutureCall"); return x ? CUDA_SUCCESS : CUDA_ERROR_UNKNOWN; }

FAKE_API CUresult cuGetProcAddress_v2(const char *symbol, void **pfn, int version, cuuint64_t flags,
                                      CUdriverProcAddressQueryResult *status);

static const struct {
    const char *api;
    void *fn;
} procs[] = {
    {"cuInit", (void *)cuInit},
    {"cuDriverGetVersion", (void *)cuDriverGetVersion},
    {"cuGetExportTable", (void *)cuGetExportTable},
    {"cuGetProcAddress", (void *)cuGetProcAddress_v2},
    {"cuMemAlloc", (void *)cuMemAlloc_v2},
    {"cuMemFree", (void *)cuMemFree_v2},
    {"cuMemcpyHtoD", (void *)cuMemcpyHtoD_v2},
    {"cuMemcpyDtoH", (void *)cuMemcpyDtoH_v2},
    {"cuCtxSynchronize", (void *)cuCtxSynchronize},
    {"cuLibraryLoadData", (void *)cuLibraryLoadData},
    {"cuLibraryGetKernel", (void *)cuLibraryGetKernel},
    {"cuLaunchKernel", (void *)cuLaunchKernel},
    {"cuFakeFutureCall", (void *)cuFakeFutureCall},
};

FAKE_API CUresult cuGetProcAddress_v2(const char *symbol, void **pfn, int version, cuuint64_t flags,
                                      CUdriverProcAddressQueryResult *status)
{
    (void)version, (void)flags;
    count("cuGetProcAddress_v2");
    for (size_t i = 0; i < sizeof procs / sizeof procs[0]; i++) {
        if (strcmp(procs[i].api, symbol) == 0) {
            *pfn = procs[i].fn;
            if (status)
                *status = CU_GET_PROC_ADDRESS_SUCCESS;
            return CUDA_SUCCESS;
        }
    }
    *pfn = NULL;
    if (status)
        *status = CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
    return CUDA_ERROR_NOT_FOUND;
}
