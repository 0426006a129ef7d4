/* test_inspect_probe: the inspector's expected refusals (docs/inspector.md,
 * "Expected refusals"). Calls go through the exported symbols (forward.c),
 * which, with the inspector on, pass through the trace wrappers as the
 * pointers cuGetProcAddress hands out do. Checks that cuGetProcAddress ->
 * CUDA_ERROR_NOT_FOUND, a refused optional export table and cuEventQuery ->
 * CUDA_ERROR_NOT_READY count as probes (PROBE rows, not errors), that a
 * real failure of the same entry points (an invalid event) stays an error,
 * and that a refused private table (cuFFT's) is an unsupported call. */
#define CB_DRIVER_NO_RENAME 1   /* call the exported symbols, as a program does */
#include "driver/driver.h"

#include <stdio.h>
#include <string.h>

#include "inspect/inspect_internal.h"

static int failures;
#define CHECK(c)                                                                                            \
    do {                                                                                                    \
        if (!(c)) {                                                                                         \
            fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #c);                           \
            failures++;                                                                                     \
        }                                                                                                   \
    } while (0)

static cbi_export_stats stats_of(int id)
{
    cbi_lock();
    cbi_export_stats s = cbi_rec()->exports[id];
    cbi_unlock();
    return s;
}

static volatile int release_host_fn;

static void CUDA_CB wait_for_release(void *arg)
{
    (void)arg;
    while (!__atomic_load_n(&release_host_fn, __ATOMIC_ACQUIRE))
        ;
}

int main(void)
{
    CHECK(cb_inspect_configure("trace", 0, "inspect-probe-report", NULL) == 0);
    CHECK(cuInit(0) == CUDA_SUCCESS);

    /* cuGetProcAddress: an entry point this driver does not have */
    void *fn = NULL;
    CUdriverProcAddressQueryResult q;
    CHECK(cuGetProcAddress_v2("cuNoSuchEntryPoint", &fn, 13000, 0, &q) == CUDA_ERROR_NOT_FOUND);
    CHECK(cuGetProcAddress_v2("cuMemAlloc", &fn, 13000, 0, &q) == CUDA_SUCCESS && fn);
    cbi_export_stats s = stats_of(CB_EXP_cuGetProcAddress_v2);
    CHECK(s.calls == 2 && s.probes == 1 && s.errors == 0);
    CHECK(strcmp(cbi_export_status(&s), "PROBE") == 0);

    /* cuGetExportTable: the optional table cudart asks for first is a probe ... */
    static const CUuuid optional = {{(char)0xf8, (char)0xcf, (char)0xf9, 0x51, 0x21, 0x46, (char)0x8b, 0x4e,
                                     (char)0xb9, (char)0xe2, (char)0xfb, 0x46, (char)0x9e, 0x7c, 0x0d, (char)0xd9}};
    const void *table = NULL;
    CUresult r = cuGetExportTable(&table, &optional);
    CHECK(r == CUDA_ERROR_INVALID_VALUE && table == NULL);
    s = stats_of(CB_EXP_cuGetExportTable);
    CHECK(s.calls == 1 && s.probes == 1 && s.errors == 0 && s.unsupported == 0);
    CHECK(strcmp(cbi_export_status(&s), "PROBE") == 0);

    /* ... a private table of a library's (cuFFT asks for 21318c60-...) is an
     * unsupported call: UNSUPPORTED in the report and in the exit summary */
    static const CUuuid cufft = {{0x21, 0x31, (char)0x8c, 0x60, (char)0x97, 0x14, 0x32, 0x48, (char)0x8c,
                                  (char)0xa6, 0x41, (char)0xff, 0x73, 0x24, (char)0xc8, (char)0xf2}};
    uint64_t unsupported_before = cb_stats_get(CB_STAT_UNSUPPORTED_CALLS);
    r = cuGetExportTable(&table, &cufft);
    CHECK(r == CUDA_ERROR_NOT_SUPPORTED && table == NULL);
    s = stats_of(CB_EXP_cuGetExportTable);
    CHECK(s.calls == 2 && s.probes == 1 && s.errors == 1 && s.unsupported == 1);
    CHECK(strcmp(cbi_export_status(&s), "UNSUPPORTED") == 0);
    CHECK(cb_stats_get(CB_STAT_UNSUPPORTED_CALLS) == unsupported_before + 1);
    const char *names[64];
    size_t nnames = cb_stats_unsupported_list(names, NULL, 64);
    int listed = 0;
    for (size_t i = 0; i < nnames && i < 64; i++)
        listed |= strcmp(names[i], "cuGetExportTable(21318c60-9714-3248-8ca6-41ff7324c8f2)") == 0;
    CHECK(listed);
    char summary[1024];
    cb_stats_summary(summary, sizeof summary, "cpu", "dev");
    CHECK(strstr(summary, "cuGetExportTable(21318c60-9714-3248-8ca6-41ff7324c8f2)") != NULL);

    /* cuEventQuery: NOT_READY while the stream is busy is a probe ... */
    CUcontext ctx = NULL;
    CUdevice dev = 0;
    CHECK(cuDeviceGet(&dev, 0) == CUDA_SUCCESS);
    CHECK(cuDevicePrimaryCtxRetain(&ctx, dev) == CUDA_SUCCESS && cuCtxSetCurrent(ctx) == CUDA_SUCCESS);
    CUstream st = NULL;
    CUevent ev = NULL;
    CHECK(cuStreamCreate(&st, CU_STREAM_NON_BLOCKING) == CUDA_SUCCESS);
    CHECK(cuEventCreate(&ev, 0) == CUDA_SUCCESS);
    CHECK(cuLaunchHostFunc(st, wait_for_release, NULL) == CUDA_SUCCESS);
    CHECK(cuEventRecord(ev, st) == CUDA_SUCCESS);
    CHECK(cuEventQuery(ev) == CUDA_ERROR_NOT_READY);
    CHECK(cuStreamQuery(st) == CUDA_ERROR_NOT_READY);
    __atomic_store_n(&release_host_fn, 1, __ATOMIC_RELEASE);
    CHECK(cuStreamSynchronize(st) == CUDA_SUCCESS);
    CHECK(cuEventQuery(ev) == CUDA_SUCCESS);
    s = stats_of(CB_EXP_cuEventQuery);
    CHECK(s.calls == 2 && s.probes == 1 && s.errors == 0 && strcmp(cbi_export_status(&s), "PROBE") == 0);
    CHECK(stats_of(CB_EXP_cuStreamQuery).probes == 1);

    /* ... a destroyed event is a real error */
    CHECK(cuEventDestroy_v2(ev) == CUDA_SUCCESS);
    CHECK(cuEventQuery(ev) != CUDA_SUCCESS);
    s = stats_of(CB_EXP_cuEventQuery);
    CHECK(s.calls == 3 && s.probes == 1 && s.errors == 1 && strcmp(cbi_export_status(&s), "ERROR") == 0);
    CHECK(cuStreamDestroy_v2(st) == CUDA_SUCCESS);
    CHECK(cuDevicePrimaryCtxRelease_v2(dev) == CUDA_SUCCESS);

    cb_inspect_configure("off", 0, NULL, NULL);
    if (failures)
        fprintf(stderr, "%d failures\n", failures);
    return failures != 0;
}
