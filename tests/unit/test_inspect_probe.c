/* test_inspect_probe: the inspector's expected refusals (docs/inspector.md,
 * "Expected refusals"). Calls go through the exported symbols (forward.c),
 * which, with the inspector on, pass through the trace wrappers as the
 * pointers cuGetProcAddress hands out do. Checks that cuGetProcAddress ->
 * CUDA_ERROR_NOT_FOUND, a refused optional export table and cuEventQuery ->
 * CUDA_ERROR_NOT_READY count as probes (PROBE rows, not errors), and that a
 * real failure of the same entry points (an invalid event) stays an error. */
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

    /* cuGetExportTable: an unknown table is a probe */
    CUuuid unknown;
    memset(&unknown, 0x5a, sizeof unknown);
    const void *table = NULL;
    CUresult r = cuGetExportTable(&table, &unknown);
    CHECK(r != CUDA_SUCCESS);
    s = stats_of(CB_EXP_cuGetExportTable);
    CHECK(s.calls == 1 && s.probes == 1 && s.errors == 0);

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
