/* libop.c: library calls as stream operations (facade.h).
 *
 * A facade call validates its arguments on the calling thread, fills a
 * closure (a struct that starts with cbl_op) and submits it to the handle's
 * stream through libcuda.so.1's services: the core runs it in order with the
 * stream's kernels, copies and events, or records it into the graph being
 * captured (docs/libraries.md, "Streams").
 */
#include "lib/common/facade.h"

CUresult cbl_submit(cb_context *ctx, CUstream handle, cbl_op *op, int wait, int *captured, int *status)
{
    const cb_lib_services *s = cbl_services();
    if (captured)
        *captured = 0;
    if (status)
        *status = 0;
    cb_stream *st;
    CUresult r = s ? s->stream(ctx, handle, &st) : CUDA_ERROR_NOT_INITIALIZED;
    if (r != CUDA_SUCCESS) {
        op->base.release(&op->base);
        return r;
    }
    op->sv = s;
    op->backend = s->backend(ctx);
    op->ran = 0;
    op->waited = wait;
    atomic_store(&op->base.refs, wait ? 2 : 1);   /* the stream's, and ours while we wait */
    int cap = 0;
    r = s->submit(st, &op->base, wait, &cap);
    if (cap)
        op->waited = 0;   /* it runs when the graph is launched, with nobody waiting for its status */
    if (captured)
        *captured = cap;
    if (wait) {
        if (r == CUDA_SUCCESS && !cap && status)
            *status = op->ran ? op->status : -1;
        if (atomic_fetch_sub(&op->base.refs, 1) == 1)
            op->base.release(&op->base);
    }
    return r;
}

CUresult cbl_refused(const cbl_op *op, cbl_library *lib, const char *function, const char *why)
{
    cbl_unsupported_mode(lib, function, why);
    return op->waited ? CUDA_SUCCESS : CUDA_ERROR_NOT_SUPPORTED;
}

CUresult cbl_read(const cbl_op *op, void *dst, uint64_t src, size_t bytes)
{
    if (!bytes)
        return CUDA_SUCCESS;
    return op->backend->copy_dtoh(op->backend, dst, src, bytes);
}

CUresult cbl_write(const cbl_op *op, uint64_t dst, const void *src, size_t bytes)
{
    if (!bytes)
        return CUDA_SUCCESS;
    return op->backend->copy_htod(op->backend, dst, src, bytes);
}
