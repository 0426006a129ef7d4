/* api_stream.c: cuStream* (create, destroy, query, synchronize, waits,
 * callbacks, host functions, getters) and cuLaunchHostFunc.
 *
 * Every entry point with a _ptsz twin takes a NULL stream as the legacy
 * default stream, and its twin as the per-thread default stream. */
#include "driver/driver.h"

#include "core/context.h"
#include "core/event.h"
#include "core/stream.h"

/* The stream h names, in the current context (which must be usable). */
static CUresult stream_of(CUstream h, int per_thread, cb_stream **out)
{
    CB_REQUIRE_INIT();
    cb_context *ctx;
    CUresult r = cb_ctx_require_usable(&ctx);
    if (r != CUDA_SUCCESS)
        return r;
    return cb_stream_resolve_ex(h, ctx, per_thread, out);
}

CB_EXPORT CUresult cuStreamCreateWithPriority(CUstream *phStream, unsigned int flags, int priority)
{
    CB_REQUIRE_INIT();
    cb_context *ctx;
    CUresult r = cb_ctx_require_usable(&ctx);
    if (r != CUDA_SUCCESS)
        return r;
    if (!phStream)
        return CUDA_ERROR_INVALID_VALUE;
    /* cuCtxGetStreamPriorityRange reports [0, 0]: priorities clamp to 0. */
    (void)priority;
    cb_stream *s;
    r = cb_stream_create(ctx, flags, 0, &s);
    if (r == CUDA_SUCCESS)
        *phStream = (CUstream)s;
    return r;
}

CB_EXPORT CUresult cuStreamCreate(CUstream *phStream, unsigned int Flags)
{
    return cuStreamCreateWithPriority(phStream, Flags, 0);
}

CB_EXPORT CUresult cuStreamDestroy_v2(CUstream hStream)
{
    CB_REQUIRE_INIT();
    if (!cb_stream_valid(hStream))
        return CUDA_ERROR_INVALID_HANDLE;
    return cb_stream_destroy((cb_stream *)hStream);
}

CB_EXPORT CUresult cuStreamDestroy(CUstream hStream) { return cuStreamDestroy_v2(hStream); }

/* Defines f(args) and f_ptsz(args) over one body taking `per_thread`. */
#define STREAM_PAIR(name, params, call)                                                                       \
    CB_EXPORT CUresult name params                                                                            \
    {                                                                                                         \
        const int per_thread = 0;                                                                             \
        return call;                                                                                          \
    }                                                                                                         \
    CB_EXPORT CUresult name##_ptsz params                                                                     \
    {                                                                                                         \
        const int per_thread = 1;                                                                             \
        return call;                                                                                          \
    }

static CUresult stream_query(CUstream h, int per_thread)
{
    cb_stream *s;
    CUresult r = stream_of(h, per_thread, &s);
    return r != CUDA_SUCCESS ? r : cb_stream_query(s);
}

static CUresult stream_synchronize(CUstream h, int per_thread)
{
    CB_REQUIRE_INIT();
    cb_context *ctx;
    CUresult r = cb_ctx_require(&ctx);
    if (r != CUDA_SUCCESS)
        return r;
    cb_stream *s;
    if ((r = cb_stream_resolve_ex(h, ctx, per_thread, &s)) != CUDA_SUCCESS)
        return r;
    return cb_stream_synchronize(s);
}

static CUresult stream_wait_event(CUstream h, CUevent ev, unsigned flags, int per_thread)
{
    cb_stream *s;
    CUresult r = stream_of(h, per_thread, &s);
    if (r != CUDA_SUCCESS)
        return r;
    if (!cb_event_valid(ev))
        return CUDA_ERROR_INVALID_HANDLE;
    if (flags & ~(unsigned)CU_EVENT_WAIT_EXTERNAL)
        return CUDA_ERROR_INVALID_VALUE;
    return cb_stream_wait_event(s, (cb_event *)ev);
}

static CUresult add_callback(CUstream h, CUstreamCallback fn, void *data, unsigned flags, int per_thread)
{
    cb_stream *s;
    CUresult r = stream_of(h, per_thread, &s);
    if (r != CUDA_SUCCESS)
        return r;
    if (!fn || flags != 0)
        return CUDA_ERROR_INVALID_VALUE;
    cb_op *op = cb_op_new(CB_OP_CALLBACK);
    if (!op)
        return CUDA_ERROR_OUT_OF_MEMORY;
    op->u.callback.fn = fn;
    op->u.callback.data = data;
    op->u.callback.handle = h;
    if ((r = cb_stream_submit(s, op, NULL)) != CUDA_SUCCESS)
        cb_op_free(op);
    return r;
}

static CUresult launch_host_func(CUstream h, CUhostFn fn, void *data, int per_thread)
{
    cb_stream *s;
    CUresult r = stream_of(h, per_thread, &s);
    if (r != CUDA_SUCCESS)
        return r;
    if (!fn)
        return CUDA_ERROR_INVALID_VALUE;
    cb_op *op = cb_op_new(CB_OP_HOST_FN);
    if (!op)
        return CUDA_ERROR_OUT_OF_MEMORY;
    op->u.host.fn = fn;
    op->u.host.data = data;
    if ((r = cb_stream_submit(s, op, NULL)) != CUDA_SUCCESS)
        cb_op_free(op);
    return r;
}

/* Getters: the stream's own fields. */
static CUresult get_flags(CUstream h, unsigned *flags, int per_thread)
{
    cb_stream *s;
    CUresult r = stream_of(h, per_thread, &s);
    if (r == CUDA_SUCCESS && !flags)
        r = CUDA_ERROR_INVALID_VALUE;
    if (r == CUDA_SUCCESS)
        *flags = s->flags;
    return r;
}

static CUresult get_priority(CUstream h, int *priority, int per_thread)
{
    cb_stream *s;
    CUresult r = stream_of(h, per_thread, &s);
    if (r == CUDA_SUCCESS && !priority)
        r = CUDA_ERROR_INVALID_VALUE;
    if (r == CUDA_SUCCESS)
        *priority = s->priority;
    return r;
}

static CUresult get_ctx(CUstream h, CUcontext *pctx, CUgreenCtx *green, int per_thread)
{
    cb_stream *s;
    CUresult r = stream_of(h, per_thread, &s);
    if (r == CUDA_SUCCESS && !pctx)
        r = CUDA_ERROR_INVALID_VALUE;
    if (r == CUDA_SUCCESS) {
        *pctx = (CUcontext)s->ctx;
        if (green)
            *green = NULL;
    }
    return r;
}

static CUresult get_id(CUstream h, unsigned long long *id, int per_thread)
{
    cb_stream *s;
    CUresult r = stream_of(h, per_thread, &s);
    if (r == CUDA_SUCCESS && !id)
        r = CUDA_ERROR_INVALID_VALUE;
    if (r == CUDA_SUCCESS)
        *id = s->id;
    return r;
}

static CUresult get_device(CUstream h, CUdevice *dev, int per_thread)
{
    cb_stream *s;
    CUresult r = stream_of(h, per_thread, &s);
    if (r == CUDA_SUCCESS && !dev)
        r = CUDA_ERROR_INVALID_VALUE;
    if (r == CUDA_SUCCESS)
        *dev = s->ctx->device->ordinal;
    return r;
}

STREAM_PAIR(cuStreamQuery, (CUstream hStream), stream_query(hStream, per_thread))
STREAM_PAIR(cuStreamSynchronize, (CUstream hStream), stream_synchronize(hStream, per_thread))
STREAM_PAIR(cuStreamWaitEvent, (CUstream hStream, CUevent hEvent, unsigned int Flags),
            stream_wait_event(hStream, hEvent, Flags, per_thread))
STREAM_PAIR(cuStreamAddCallback, (CUstream hStream, CUstreamCallback callback, void *userData, unsigned int flags),
            add_callback(hStream, callback, userData, flags, per_thread))
STREAM_PAIR(cuLaunchHostFunc, (CUstream hStream, CUhostFn fn, void *userData),
            launch_host_func(hStream, fn, userData, per_thread))
STREAM_PAIR(cuStreamGetFlags, (CUstream hStream, unsigned int *flags), get_flags(hStream, flags, per_thread))
STREAM_PAIR(cuStreamGetPriority, (CUstream hStream, int *priority), get_priority(hStream, priority, per_thread))
STREAM_PAIR(cuStreamGetCtx, (CUstream hStream, CUcontext *pctx), get_ctx(hStream, pctx, NULL, per_thread))
STREAM_PAIR(cuStreamGetCtx_v2, (CUstream hStream, CUcontext *pCtx, CUgreenCtx *pGreenCtx),
            get_ctx(hStream, pCtx, pGreenCtx, per_thread))
STREAM_PAIR(cuStreamGetId, (CUstream hStream, unsigned long long *streamId), get_id(hStream, streamId, per_thread))
STREAM_PAIR(cuStreamGetDevice, (CUstream hStream, CUdevice *device), get_device(hStream, device, per_thread))
