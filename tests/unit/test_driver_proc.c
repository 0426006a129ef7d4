/* test_driver_proc.c: cuGetProcAddress picks the right symbol for each
 * version and stream mode; the registry tells implemented from stub. */
#include "driver/driver.h"

#include <stdio.h>
#include <string.h>

static int failures;
#define CHECK(cond)                                                                                         \
    do {                                                                                                    \
        if (!(cond)) {                                                                                      \
            fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond);                         \
            failures++;                                                                                     \
        }                                                                                                   \
    } while (0)

static void *proc(const char *name, int version, cuuint64_t flags, CUresult *r, CUdriverProcAddressQueryResult *st)
{
    void *p = (void *)1;
    *r = cuGetProcAddress_v2(name, &p, version, flags, st);
    return p;
}

static void test_versions(void)
{
    CUresult r;
    CUdriverProcAddressQueryResult st;
    CHECK(proc("cuCtxSynchronize", 2000, 0, &r, &st) == (void *)cuCtxSynchronize && r == CUDA_SUCCESS);
    CHECK(st == CU_GET_PROC_ADDRESS_SUCCESS);
    CHECK(proc("cuCtxSynchronize", 12080, 0, &r, &st) == (void *)cuCtxSynchronize);
    CHECK(proc("cuCtxSynchronize", 13000, 0, &r, &st) == (void *)cuCtxSynchronize_v2);
    CHECK(proc("cuCtxCreate", 3020, 0, &r, &st) == (void *)cuCtxCreate_v2);
    CHECK(proc("cuCtxCreate", 11040, 0, &r, &st) == (void *)cuCtxCreate_v3);
    CHECK(proc("cuCtxCreate", 13000, 0, &r, &st) == (void *)cuCtxCreate_v4);
    CHECK(proc("cuCtxCreate", 2000, 0, &r, &st) == (void *)cuCtxCreate);
    CHECK(proc("cuGetProcAddress", 12000, 0, &r, &st) == (void *)cuGetProcAddress_v2);
    CHECK(proc("cuGetProcAddress", 11030, 0, &r, &st) == (void *)cuGetProcAddress);
    CHECK(proc("cuModuleGetGlobal", 13000, 0, &r, &st) == (void *)cuModuleGetGlobal_v2);
    CHECK(proc("cuDeviceGetUuid", 11040, 0, &r, &st) == (void *)cuDeviceGetUuid_v2);
    CHECK(proc("cuDeviceGetUuid", 11030, 0, &r, &st) == (void *)cuDeviceGetUuid);
}

static void test_per_thread(void)
{
    CUresult r;
    CUdriverProcAddressQueryResult st;
    const cuuint64_t pt = CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM;
    CHECK(proc("cuLaunchKernel", 13000, pt, &r, &st) == (void *)cuLaunchKernel_ptsz);
    CHECK(proc("cuLaunchKernel", 13000, CU_GET_PROC_ADDRESS_LEGACY_STREAM, &r, &st) == (void *)cuLaunchKernel);
    CHECK(proc("cuLaunchKernel", 13000, 0, &r, &st) == (void *)cuLaunchKernel);
    CHECK(proc("cuLaunchKernel", 4000, pt, &r, &st) == (void *)cuLaunchKernel); /* no _ptsz before 7.0 */
    CHECK(proc("cuLaunchKernelEx", 12000, pt, &r, &st) == (void *)cuLaunchKernelEx_ptsz);
    /* A function without a per-thread twin gives its plain version. */
    CHECK(proc("cuInit", 13000, pt, &r, &st) == (void *)cuInit && r == CUDA_SUCCESS);
    /* Per-thread twins of versioned names, by export index (stubs or not). */
    void *p = proc("cuMemcpyHtoD", 7000, pt, &r, &st);
    CHECK(r == CUDA_SUCCESS && p == (void *)cb_exports[cb_export_find("cuMemcpyHtoD_v2_ptds")].fn);
    p = proc("cuMemcpyHtoD", 3020, pt, &r, &st);
    CHECK(p == (void *)cb_exports[cb_export_find("cuMemcpyHtoD_v2")].fn);
    p = proc("cuMemcpyHtoD", 2000, 0, &r, &st);
    CHECK(p == (void *)cb_exports[cb_export_find("cuMemcpyHtoD")].fn);
}

static void test_errors(void)
{
    CUresult r;
    CUdriverProcAddressQueryResult st = CU_GET_PROC_ADDRESS_SUCCESS;
    CHECK(proc("cuNoSuchFunction", 13000, 0, &r, &st) == NULL);
    CHECK(r == CUDA_ERROR_NOT_FOUND && st == CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND);
    CHECK(proc("cuCtxCreate_v2", 13000, 0, &r, &st) == NULL && r == CUDA_ERROR_NOT_FOUND);
    CHECK(proc("cuLaunchKernelEx", 11000, 0, &r, &st) == NULL);
    CHECK(r == CUDA_SUCCESS && st == CU_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT);
    proc("cuInit", 13000, 4, &r, &st);
    CHECK(r == CUDA_ERROR_INVALID_VALUE);
    void *p;
    CHECK(cuGetProcAddress_v2(NULL, &p, 13000, 0, NULL) == CUDA_ERROR_INVALID_VALUE);
    CHECK(cuGetProcAddress_v2("cuInit", NULL, 13000, 0, NULL) == CUDA_ERROR_INVALID_VALUE);
    CHECK(cuGetProcAddress("cuInit", &p, 13000, 0) == CUDA_SUCCESS && p == (void *)cuInit);
}

static void test_registry(void)
{
    CHECK(cb_export_find("cuInit") >= 0);
    CHECK(cb_export_find("cuNoSuchFunction") < 0);
    CHECK(cb_export_implemented(cb_export_find("cuInit")));
    CHECK(cb_export_implemented(cb_export_find("cuGetProcAddress_v2")));
    int stub = cb_export_find("cuGraphicsUnregisterResource");
    CHECK(stub >= 0 && !cb_export_implemented(stub));
    CHECK(cb_export_implemented_count() > 50 && cb_export_implemented_count() < CB_EXP__COUNT);
    /* A stub answers NOT_SUPPORTED and is counted. */
    uint64_t before = cb_stats_get(CB_STAT_UNSUPPORTED_CALLS);
    int (*fn)(void) = (int (*)(void))cb_exports[stub].fn;
    CHECK(fn() == CUDA_ERROR_NOT_SUPPORTED);
    CHECK(cb_stats_get(CB_STAT_UNSUPPORTED_CALLS) == before + 1);
    const char *names[8];
    size_t n = cb_stats_unsupported_list(names, NULL, 8);
    int seen = 0;
    for (size_t i = 0; i < n && i < 8; i++)
        seen |= strcmp(names[i], "cuGraphicsUnregisterResource") == 0;
    CHECK(seen);
    char line[512];
    cb_stats_summary(line, sizeof line, "cpu", "X [cubridge]");
    CHECK(strstr(line, "cubridge: backend cpu | device \"X [cubridge]\"") == line);
    CHECK(strstr(line, "unsupported calls: cuGraphicsUnregisterResource") != NULL);
}

int main(void)
{
    int v = 0;
    CHECK(cuDriverGetVersion(&v) == CUDA_SUCCESS && v == 13000);
    CHECK(cuDriverGetVersion(NULL) == CUDA_ERROR_INVALID_VALUE);
    test_versions();
    test_per_thread();
    test_errors();
    test_registry();
    if (failures)
        fprintf(stderr, "test_driver_proc: %d failures\n", failures);
    return failures != 0;
}
