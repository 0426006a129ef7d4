/* api_event.c: cuEvent* entry points. */
#include "driver/driver.h"

#include "core/context.h"
#include "core/event.h"
#include "core/stream.h"

CB_EXPORT CUresult cuEventCreate(CUevent *phEvent, unsigned int Flags)
{
    CB_REQUIRE_INIT();
    cb_context *ctx;
    CUresult r = cb_ctx_require_usable(&ctx);
    if (r != CUDA_SUCCESS)
        return r;
    if (!phEvent)
        return CUDA_ERROR_INVALID_VALUE;
    cb_event *ev;
    r = cb_event_create(ctx, Flags, &ev);
    if (r == CUDA_SUCCESS)
        *phEvent = (CUevent)ev;
    return r;
}

CB_EXPORT CUresult cuEventDestroy_v2(CUevent hEvent)
{
    CB_REQUIRE_INIT();
    return cb_event_destroy((cb_event *)hEvent);
}

CB_EXPORT CUresult cuEventDestroy(CUevent hEvent) { return cuEventDestroy_v2(hEvent); }

static CUresult record(CUevent ev, CUstream h, unsigned flags, int per_thread)
{
    CB_REQUIRE_INIT();
    cb_context *ctx;
    CUresult r = cb_ctx_require_usable(&ctx);
    if (r != CUDA_SUCCESS)
        return r;
    if (!cb_event_valid(ev))
        return CUDA_ERROR_INVALID_HANDLE;
    if (flags & CU_EVENT_RECORD_EXTERNAL)
        return cb_driver_not_supported("cuEventRecordWithFlags(CU_EVENT_RECORD_EXTERNAL)",
                                       "external event nodes in captured graphs are not modelled");
    if (flags)
        return CUDA_ERROR_INVALID_VALUE;
    cb_stream *s;
    if ((r = cb_stream_resolve_ex(h, ctx, per_thread, &s)) != CUDA_SUCCESS)
        return r;
    return cb_event_record((cb_event *)ev, s);
}

CB_EXPORT CUresult cuEventRecord(CUevent hEvent, CUstream hStream) { return record(hEvent, hStream, 0, 0); }
CB_EXPORT CUresult cuEventRecord_ptsz(CUevent hEvent, CUstream hStream) { return record(hEvent, hStream, 0, 1); }
CB_EXPORT CUresult cuEventRecordWithFlags(CUevent hEvent, CUstream hStream, unsigned int flags)
{
    return record(hEvent, hStream, flags, 0);
}
CB_EXPORT CUresult cuEventRecordWithFlags_ptsz(CUevent hEvent, CUstream hStream, unsigned int flags)
{
    return record(hEvent, hStream, flags, 1);
}

CB_EXPORT CUresult cuEventQuery(CUevent hEvent)
{
    CB_REQUIRE_INIT();
    if (!cb_event_valid(hEvent))
        return CUDA_ERROR_INVALID_HANDLE;
    return cb_event_query((cb_event *)hEvent);
}

CB_EXPORT CUresult cuEventSynchronize(CUevent hEvent)
{
    CB_REQUIRE_INIT();
    if (!cb_event_valid(hEvent))
        return CUDA_ERROR_INVALID_HANDLE;
    return cb_event_synchronize((cb_event *)hEvent);
}

CB_EXPORT CUresult cuEventElapsedTime_v2(float *pMilliseconds, CUevent hStart, CUevent hEnd)
{
    CB_REQUIRE_INIT();
    if (!pMilliseconds)
        return CUDA_ERROR_INVALID_VALUE;
    if (!cb_event_valid(hStart) || !cb_event_valid(hEnd))
        return CUDA_ERROR_INVALID_HANDLE;
    return cb_event_elapsed((cb_event *)hStart, (cb_event *)hEnd, pMilliseconds);
}

CB_EXPORT CUresult cuEventElapsedTime(float *pMilliseconds, CUevent hStart, CUevent hEnd)
{
    return cuEventElapsedTime_v2(pMilliseconds, hStart, hEnd);
}
