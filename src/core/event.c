/* event.c: events (see event.h). */
#include "core/event.h"

#include <stdlib.h>

#include "core/graph.h"
#include "core/handles.h"

int cb_event_valid(const void *h) { return cb_handle_live(h, CB_MAGIC_EVENT); }

CUresult cb_event_create(cb_context *ctx, unsigned flags, cb_event **out)
{
    unsigned known = CU_EVENT_BLOCKING_SYNC | CU_EVENT_DISABLE_TIMING | CU_EVENT_INTERPROCESS;
    if (flags & ~known)
        return CUDA_ERROR_INVALID_VALUE;
    if (flags & CU_EVENT_INTERPROCESS) {
        cb_log(CB_LOG_WARN, "cuEventCreate: CU_EVENT_INTERPROCESS (IPC events) is not supported");
        return CUDA_ERROR_NOT_SUPPORTED;
    }
    cb_event *ev = calloc(1, sizeof *ev);
    if (!ev)
        return CUDA_ERROR_OUT_OF_MEMORY;
    ev->magic = CB_MAGIC_EVENT;
    ev->ctx = ctx;
    ev->flags = flags;
    cb_mutex_init(&ev->lock);
    cb_handle_add(ev);
    *out = ev;
    return CUDA_SUCCESS;
}

CUresult cb_event_destroy(cb_event *ev)
{
    if (!cb_event_valid(ev))
        return CUDA_ERROR_INVALID_HANDLE;
    cb_handle_remove(ev);
    /* Pending records and waits hold their own fence references. */
    cb_fence_unref(ev->fence);
    free(ev->cap_deps);
    ev->magic = CB_MAGIC_DEAD;
    cb_mutex_destroy(&ev->lock);
    free(ev);
    return CUDA_SUCCESS;
}

cb_fence *cb_event_fence(cb_event *ev)
{
    cb_mutex_lock(&ev->lock);
    cb_fence *f = cb_fence_ref(ev->fence);
    cb_mutex_unlock(&ev->lock);
    return f;
}

void cb_event_set_fence(cb_event *ev, cb_fence *f)
{
    cb_mutex_lock(&ev->lock);
    cb_fence *old = ev->fence;
    ev->fence = cb_fence_ref(f);
    cb_mutex_unlock(&ev->lock);
    cb_fence_unref(old);
}

CUresult cb_event_record(cb_event *ev, cb_stream *s)
{
    cb_runtime *rt = cb_runtime_of(s->ctx);
    cb_mutex_lock(&rt->lock);
    int capturing = s->capture != NULL;
    cb_mutex_unlock(&rt->lock);
    if (capturing)
        return cb_capture_record_event(s, ev);
    cb_op *op = cb_op_new(CB_OP_MARKER);
    if (!op)
        return CUDA_ERROR_OUT_OF_MEMORY;
    cb_fence *f;
    CUresult r = cb_stream_submit(s, op, &f);
    if (r != CUDA_SUCCESS) {
        cb_op_free(op);
        return r;
    }
    cb_mutex_lock(&ev->lock);
    cb_fence *old = ev->fence;
    ev->fence = f;
    ev->capture = NULL;
    cb_mutex_unlock(&ev->lock);
    cb_fence_unref(old);
    return CUDA_SUCCESS;
}

CUresult cb_event_query(cb_event *ev)
{
    cb_fence *f = cb_event_fence(ev);
    int done = cb_fence_done(f);
    cb_fence_unref(f);
    return done ? CUDA_SUCCESS : CUDA_ERROR_NOT_READY;
}

CUresult cb_event_synchronize(cb_event *ev)
{
    cb_fence *f = cb_event_fence(ev);
    cb_fence_wait(f);
    cb_fence_unref(f);
    return cb_ctx_sticky(ev->ctx);
}

CUresult cb_event_elapsed(cb_event *start, cb_event *end, float *ms)
{
    if ((start->flags | end->flags) & CU_EVENT_DISABLE_TIMING)
        return CUDA_ERROR_INVALID_HANDLE;
    cb_fence *a = cb_event_fence(start), *b = cb_event_fence(end);
    CUresult r = CUDA_SUCCESS;
    if (!a || !b)
        r = CUDA_ERROR_INVALID_HANDLE; /* never recorded */
    else if (!cb_fence_done(a) || !cb_fence_done(b))
        r = CUDA_ERROR_NOT_READY;
    else
        *ms = (float)(((double)b->time_ns - (double)a->time_ns) / 1e6);
    cb_fence_unref(a);
    cb_fence_unref(b);
    return r;
}

CUresult cb_stream_wait_event(cb_stream *s, cb_event *ev)
{
    cb_runtime *rt = cb_runtime_of(s->ctx);
    cb_mutex_lock(&rt->lock);
    int captured = s->capture != NULL || ev->capture != NULL;
    cb_mutex_unlock(&rt->lock);
    if (captured)
        return cb_capture_wait_event(s, ev);
    cb_fence *f = cb_event_fence(ev);
    if (!f || cb_fence_done(f)) {
        cb_fence_unref(f);
        return CUDA_SUCCESS;
    }
    cb_op *op = cb_op_new(CB_OP_MARKER);
    CUresult r = CUDA_ERROR_OUT_OF_MEMORY;
    if (op && cb_op_add_wait(op, f) == 0)
        r = cb_stream_submit(s, op, NULL);
    if (r != CUDA_SUCCESS)
        cb_op_free(op);
    cb_fence_unref(f);
    return r;
}
