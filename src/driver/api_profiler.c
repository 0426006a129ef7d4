/* api_profiler.c: cuProfilerStart / cuProfilerStop.
 *
 * NVIDIA's driver answers them with success when no profiler is attached
 * (and the samples that call them rely on it). cubridge has no profiler of
 * its own to switch on; with the inspector tracing, the interval between
 * them becomes a "profiler" range on the calling thread's track of the
 * trace (the export dispatch tells the inspector, dispatch.h), which is
 * what a profiler would have collected.
 *
 * Process-wide state: profiler_on, whether a start is in force (CUDA: a
 * second start, or a stop without a start, has no effect). cubridge has
 * one device, and its contexts share the one range.
 */
#include "driver/driver.h"

#include <stdatomic.h>

#include "core/context.h"
#include "driver/dispatch.h"

static _Atomic int profiler_on;

static CUresult profiler_context(void)
{
    CB_REQUIRE_INIT();
    cb_context *ctx;
    return cb_ctx_require(&ctx);
}

CB_EXPORT CUresult cuProfilerStart(void)
{
    CUresult r = profiler_context();
    if (r != CUDA_SUCCESS)
        return r;
    if (atomic_exchange(&profiler_on, 1) == 0)   /* id 1: one range, which any thread may end */
        cb_dispatch_note_profiler(1);
    return CUDA_SUCCESS;
}

CB_EXPORT CUresult cuProfilerStop(void)
{
    CUresult r = profiler_context();
    if (r != CUDA_SUCCESS)
        return r;
    if (atomic_exchange(&profiler_on, 0) == 1)
        cb_dispatch_note_profiler(0);
    return CUDA_SUCCESS;
}
