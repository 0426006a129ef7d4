/* api_pool.c: stream-ordered allocation (cuMemAllocAsync, cuMemFreeAsync)
 * and memory pools, see core/mempool.h. */
#include "driver/driver.h"

#include "core/context.h"
#include "core/graph.h"
#include "core/graph_mem.h"
#include "core/mempool.h"
#include "core/stream.h"

static CUresult device_arg(CUdevice dev)
{
    CB_REQUIRE_INIT();
    return cb_device_get(dev) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_DEVICE;
}

CB_EXPORT CUresult cuDeviceGetDefaultMemPool(CUmemoryPool *pool_out, CUdevice dev)
{
    CUresult r = device_arg(dev);
    if (r != CUDA_SUCCESS || !pool_out)
        return r != CUDA_SUCCESS ? r : CUDA_ERROR_INVALID_VALUE;
    cb_mempool *p = cb_mempool_default(dev);
    if (!p)
        return CUDA_ERROR_OUT_OF_MEMORY;
    *pool_out = (CUmemoryPool)p;
    return CUDA_SUCCESS;
}

CB_EXPORT CUresult cuDeviceGetMemPool(CUmemoryPool *pool, CUdevice dev)
{
    CUresult r = device_arg(dev);
    if (r != CUDA_SUCCESS || !pool)
        return r != CUDA_SUCCESS ? r : CUDA_ERROR_INVALID_VALUE;
    cb_mempool *p = cb_mempool_current(dev);
    if (!p)
        return CUDA_ERROR_OUT_OF_MEMORY;
    *pool = (CUmemoryPool)p;
    return CUDA_SUCCESS;
}

CB_EXPORT CUresult cuDeviceSetMemPool(CUdevice dev, CUmemoryPool pool)
{
    CUresult r = device_arg(dev);
    return r != CUDA_SUCCESS ? r : cb_mempool_set_current(dev, (cb_mempool *)pool);
}

CB_EXPORT CUresult cuMemPoolCreate(CUmemoryPool *pool, const CUmemPoolProps *poolProps)
{
    CB_REQUIRE_INIT();
    if (!pool)
        return CUDA_ERROR_INVALID_VALUE;
    cb_mempool *p;
    CUresult r = cb_mempool_create(poolProps, &p);
    if (r == CUDA_SUCCESS)
        *pool = (CUmemoryPool)p;
    return r;
}

CB_EXPORT CUresult cuMemPoolDestroy(CUmemoryPool pool)
{
    CB_REQUIRE_INIT();
    return cb_mempool_destroy((cb_mempool *)pool);
}

CB_EXPORT CUresult cuMemPoolSetAttribute(CUmemoryPool pool, CUmemPool_attribute attr, void *value)
{
    CB_REQUIRE_INIT();
    return cb_mempool_set_attribute((cb_mempool *)pool, attr, value);
}

CB_EXPORT CUresult cuMemPoolGetAttribute(CUmemoryPool pool, CUmemPool_attribute attr, void *value)
{
    CB_REQUIRE_INIT();
    return cb_mempool_get_attribute((cb_mempool *)pool, attr, value);
}

CB_EXPORT CUresult cuMemPoolTrimTo(CUmemoryPool pool, size_t minBytesToKeep)
{
    CB_REQUIRE_INIT();
    (void)minBytesToKeep;
    /* Freed blocks go straight back to the arena: nothing is held to trim. */
    return cb_mempool_valid((cb_mempool *)pool) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

CB_EXPORT CUresult cuMemPoolGetAccess(CUmemAccess_flags *flags, CUmemoryPool memPool, CUmemLocation *location)
{
    CB_REQUIRE_INIT();
    cb_mempool *p = (cb_mempool *)memPool;
    if (!flags || !location || !cb_mempool_valid(p))
        return CUDA_ERROR_INVALID_VALUE;
    *flags = location->type == CU_MEM_LOCATION_TYPE_DEVICE && location->id == p->device
                 ? CU_MEM_ACCESS_FLAGS_PROT_READWRITE
                 : CU_MEM_ACCESS_FLAGS_PROT_NONE;
    return CUDA_SUCCESS;
}

CB_EXPORT CUresult cuMemPoolSetAccess(CUmemoryPool pool, const CUmemAccessDesc *map, size_t count)
{
    CB_REQUIRE_INIT();
    cb_mempool *p = (cb_mempool *)pool;
    if (!cb_mempool_valid(p) || (count && !map))
        return CUDA_ERROR_INVALID_VALUE;
    for (size_t i = 0; i < count; i++) {
        if (map[i].location.type != CU_MEM_LOCATION_TYPE_DEVICE || !cb_device_get(map[i].location.id))
            return CUDA_ERROR_INVALID_DEVICE;
        /* The owning device always has read/write access; one device only. */
        if (map[i].location.id == p->device && map[i].flags != CU_MEM_ACCESS_FLAGS_PROT_READWRITE)
            return CUDA_ERROR_INVALID_DEVICE;
    }
    return CUDA_SUCCESS;
}

/* The stream and context of a stream-ordered call; *capturing says whether
 * the stream is capturing (the call becomes a graph memory node). */
static CUresult ordered_stream(CUstream h, int per_thread, cb_context **ctx, cb_stream **s, int *capturing)
{
    CB_REQUIRE_INIT();
    CUresult r = cb_ctx_require_usable(ctx);
    if (r != CUDA_SUCCESS)
        return r;
    if ((r = cb_stream_resolve_ex(h, *ctx, per_thread, s)) != CUDA_SUCCESS)
        return r;
    cb_runtime *rt = cb_runtime_of((*s)->ctx);
    cb_mutex_lock(&rt->lock);
    *capturing = (*s)->capture != NULL;
    cb_mutex_unlock(&rt->lock);
    return CUDA_SUCCESS;
}

static CUresult alloc_async(CUdeviceptr *dptr, size_t bytes, cb_mempool *pool, CUstream h, int per_thread)
{
    cb_context *ctx;
    cb_stream *s;
    int capturing;
    CUresult r = ordered_stream(h, per_thread, &ctx, &s, &capturing);
    if (r != CUDA_SUCCESS)
        return r;
    if (!dptr || bytes == 0)
        return CUDA_ERROR_INVALID_VALUE;
    if (!pool)
        pool = cb_mempool_current(s->ctx->device->ordinal);
    if (!cb_mempool_valid(pool))
        return CUDA_ERROR_INVALID_VALUE;
    uint64_t p;
    if (capturing)   /* an allocation node of the captured graph, with the pool's properties */
        r = cb_graph_mem_capture_alloc(s, bytes, &pool->props, &p);
    else             /* the memory is usable in stream order at once: allocate now */
        r = cb_mempool_alloc(s->ctx, pool, bytes, &p);
    if (r == CUDA_SUCCESS)
        *dptr = p;
    return r;
}

static CUresult free_async(CUdeviceptr dptr, CUstream h, int per_thread)
{
    cb_context *ctx;
    cb_stream *s;
    int capturing;
    CUresult r = ordered_stream(h, per_thread, &ctx, &s, &capturing);
    if (r != CUDA_SUCCESS)
        return r;
    if (capturing)   /* a free node of the captured graph */
        return cb_graph_mem_capture_free(s, dptr);
    switch (cb_graph_mem_user_free(dptr)) {
    case CB_GRAPH_MEM_KEPT: return CUDA_SUCCESS;   /* its graph keeps the address */
    case CB_GRAPH_MEM_NOT_LIVE: return CUDA_ERROR_INVALID_VALUE;
    default: break;
    }
    cb_op *op = cb_op_new(CB_OP_FREE);
    if (!op)
        return CUDA_ERROR_OUT_OF_MEMORY;
    if ((r = cb_mem_detach(dptr, &op->u.free)) != CUDA_SUCCESS) {
        cb_op_free(op);
        return r;
    }
    if ((r = cb_stream_submit(s, op, NULL)) != CUDA_SUCCESS) {
        cb_mem_release(&op->u.free); /* could not order it: free now */
        cb_op_free(op);
    }
    return r;
}

CB_EXPORT CUresult cuMemAllocAsync(CUdeviceptr *dptr, size_t bytesize, CUstream hStream)
{
    return alloc_async(dptr, bytesize, NULL, hStream, 0);
}
CB_EXPORT CUresult cuMemAllocAsync_ptsz(CUdeviceptr *dptr, size_t bytesize, CUstream hStream)
{
    return alloc_async(dptr, bytesize, NULL, hStream, 1);
}
CB_EXPORT CUresult cuMemAllocFromPoolAsync(CUdeviceptr *dptr, size_t bytesize, CUmemoryPool pool, CUstream hStream)
{
    if (!pool)
        return CUDA_ERROR_INVALID_VALUE;
    return alloc_async(dptr, bytesize, (cb_mempool *)pool, hStream, 0);
}
CB_EXPORT CUresult cuMemAllocFromPoolAsync_ptsz(CUdeviceptr *dptr, size_t bytesize, CUmemoryPool pool,
                                                CUstream hStream)
{
    if (!pool)
        return CUDA_ERROR_INVALID_VALUE;
    return alloc_async(dptr, bytesize, (cb_mempool *)pool, hStream, 1);
}
CB_EXPORT CUresult cuMemFreeAsync(CUdeviceptr dptr, CUstream hStream) { return free_async(dptr, hStream, 0); }
CB_EXPORT CUresult cuMemFreeAsync_ptsz(CUdeviceptr dptr, CUstream hStream) { return free_async(dptr, hStream, 1); }
