/* test_driver_profiler.c: cuProfilerStart/Stop and the inspector's named
 * ranges (inspect.h): the errors (no cuInit, no context), the no-op repeats,
 * an unmatched end, and a range still open at exit written as unclosed. */
#define CB_DRIVER_NO_RENAME 1   /* call the exported symbols, as a program does */
#include "driver/driver.h"

#include <stdio.h>
#include <stdlib.h>
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

/* How many lines of the trace contain needle. */
static int trace_count(const char *needle)
{
    FILE *f = fopen("inspect-profiler-report/trace.jsonl", "r");
    if (!f)
        return -1;
    char line[4096];
    int n = 0;
    while (fgets(line, sizeof line, f))
        n += strstr(line, needle) != NULL;
    fclose(f);
    return n;
}

int main(void)
{
    CHECK(cuProfilerStart() == CUDA_ERROR_NOT_INITIALIZED);
    CHECK(cuProfilerStop() == CUDA_ERROR_NOT_INITIALIZED);
    CHECK(cb_inspect_configure("trace", 0, "inspect-profiler-report", NULL) == 0);
    CHECK(cuInit(0) == CUDA_SUCCESS);
    CHECK(cuProfilerStart() == CUDA_ERROR_INVALID_CONTEXT);   /* no context current, no primary retained */
    CUcontext ctx = NULL;
    CHECK(cuDevicePrimaryCtxRetain(&ctx, 0) == CUDA_SUCCESS && cuCtxSetCurrent(ctx) == CUDA_SUCCESS);
    CHECK(cuProfilerStop() == CUDA_SUCCESS);     /* no start: nothing happens */
    CHECK(cuProfilerStart() == CUDA_SUCCESS);
    CHECK(cuProfilerStart() == CUDA_SUCCESS);    /* already on */
    CHECK(cuProfilerStop() == CUDA_SUCCESS);
    CHECK(cuProfilerStop() == CUDA_SUCCESS);

    /* push/pop nest per thread; start/end by id; an end with nothing open fails */
    cb_inspect_range_begin(CB_RANGE_NVTX, "a", 0);
    cb_inspect_range_begin(CB_RANGE_NVTX, "b", 0);
    cb_inspect_range_begin(CB_RANGE_NVTX, "by id", 77);
    CHECK(cb_inspect_range_end(CB_RANGE_NVTX, 0) == 0);    /* b */
    CHECK(cb_inspect_range_end(CB_RANGE_NVTX, 77) == 0);
    CHECK(cb_inspect_range_end(CB_RANGE_NVTX, 77) == -1);
    CHECK(cb_inspect_range_end(CB_RANGE_NVTX, 0) == 0);    /* a */
    CHECK(cb_inspect_range_end(CB_RANGE_NVTX, 0) == -1);
    cb_inspect_mark(CB_RANGE_NVTX, "quote \" and backslash \\");
    /* left open: the program "exits" inside it */
    CHECK(cuProfilerStart() == CUDA_SUCCESS);
    cb_inspect_range_begin(CB_RANGE_NVTX, "never popped", 0);

    CHECK(cuDevicePrimaryCtxRelease_v2(0) == CUDA_SUCCESS);
    cb_inspect_finish();
    CHECK(trace_count("\"type\":\"range\",\"source\":\"profiler\",\"name\":\"cuProfilerStart\"") == 2);
    CHECK(trace_count("\"type\":\"range\",\"source\":\"nvtx\",\"name\":\"b\"") == 1);
    CHECK(trace_count("\"type\":\"range\",\"source\":\"nvtx\",\"name\":\"by id\"") == 1);
    CHECK(trace_count("\"name\":\"never popped\"") == 1 && trace_count("\"unclosed\":true") == 2);
    CHECK(trace_count("\"type\":\"mark\",\"source\":\"nvtx\",\"name\":\"quote \\\" and backslash \\\\\"") == 1);
    cb_inspect_configure("off", 0, NULL, NULL);
    if (failures)
        fprintf(stderr, "%d failures\n", failures);
    else
        printf("test_driver_profiler: ok\n");
    return failures != 0;
}
