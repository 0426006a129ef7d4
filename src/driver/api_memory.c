/* api_memory.c: cuMemAlloc/Free/GetInfo, copies, memsets, pinned host
 * memory and pointer attributes.
 *
 * Synchronous copies and memsets are submitted to the legacy default stream
 * (or the per-thread one for _ptds) and waited for, which gives CUDA's
 * ordering against other streams. Asynchronous copies from pageable host
 * memory copy the source aside at submission; those into pageable host
 * memory return once done, as CUDA's do.
 */
#include "driver/driver.h"

#include <stdlib.h>
#include <string.h>

#include "core/context.h"
#include "core/graph.h"
#include "core/graph_mem.h"
#include "core/hostmem.h"
#include "core/memory.h"
#include "core/stream.h"

static CUresult usable(cb_context **ctx)
{
    CB_REQUIRE_INIT();
    return cb_ctx_require_usable(ctx);
}

/* ---- allocation ---------------------------------------------------------- */

CB_EXPORT CUresult cuMemGetInfo_v2(size_t *free_bytes, size_t *total_bytes)
{
    cb_context *ctx;
    CUresult r = usable(&ctx);
    if (r != CUDA_SUCCESS)
        return r;
    if (!free_bytes || !total_bytes)
        return CUDA_ERROR_INVALID_VALUE;
    cb_mem_stats u;
    cb_device_mem_usage(ctx->device, &u);
    *free_bytes = u.total > u.used ? u.total - u.used : 0;
    *total_bytes = u.total;
    return CUDA_SUCCESS;
}

CB_EXPORT CUresult cuMemAlloc_v2(CUdeviceptr *dptr, size_t bytesize)
{
    cb_context *ctx;
    CUresult r = usable(&ctx);
    if (r != CUDA_SUCCESS)
        return r;
    if (!dptr || bytesize == 0)
        return CUDA_ERROR_INVALID_VALUE;
    if ((r = cb_capture_check_unsafe()) != CUDA_SUCCESS)
        return r;
    uint64_t p;
    r = cb_mem_alloc(ctx, bytesize, &p);
    if (r == CUDA_SUCCESS)
        *dptr = p;
    return r;
}

CB_EXPORT CUresult cuMemAllocManaged(CUdeviceptr *dptr, size_t bytesize, unsigned int flags)
{
    cb_context *ctx;
    CUresult r = usable(&ctx);
    if (r != CUDA_SUCCESS)
        return r;
    if (!dptr || bytesize == 0 || (flags != CU_MEM_ATTACH_GLOBAL && flags != CU_MEM_ATTACH_HOST))
        return CUDA_ERROR_INVALID_VALUE;
    if ((r = cb_capture_check_unsafe()) != CUDA_SUCCESS)
        return r;
    /* Device memory with a host view at its address: only devices that have
     * one (the CPU's memory is host memory) offer it. */
    cb_mem_info rec;
    r = cb_mem_alloc_ex(ctx, bytesize, CB_MEM_MANAGED, NULL, &rec);
    if (r == CUDA_SUCCESS)
        *dptr = rec.base;
    return r;
}

CB_EXPORT CUresult cuMemAllocPitch_v2(CUdeviceptr *dptr, size_t *pPitch, size_t WidthInBytes, size_t Height,
                                      unsigned int ElementSizeBytes)
{
    cb_context *ctx;
    CUresult r = usable(&ctx);
    if (r != CUDA_SUCCESS)
        return r;
    if (!dptr || !pPitch || WidthInBytes == 0 || Height == 0 ||
        (ElementSizeBytes != 4 && ElementSizeBytes != 8 && ElementSizeBytes != 16))
        return CUDA_ERROR_INVALID_VALUE;
    if ((r = cb_capture_check_unsafe()) != CUDA_SUCCESS)
        return r;
    size_t pitch = (WidthInBytes + 511) / 512 * 512; /* CUDA's texture pitch alignment */
    if (pitch < WidthInBytes || Height > SIZE_MAX / pitch)
        return CUDA_ERROR_OUT_OF_MEMORY;
    uint64_t p;
    r = cb_mem_alloc(ctx, pitch * Height, &p);
    if (r == CUDA_SUCCESS) {
        *dptr = p;
        *pPitch = pitch;
    }
    return r;
}

CB_EXPORT CUresult cuMemFree_v2(CUdeviceptr dptr)
{
    cb_context *ctx;
    CB_REQUIRE_INIT();
    CUresult r = cb_ctx_require(&ctx);
    if (r != CUDA_SUCCESS)
        return r;
    if (dptr == 0)
        return CUDA_SUCCESS;
    if ((r = cb_capture_check_unsafe()) != CUDA_SUCCESS)
        return r;
    /* A graph allocation (graph_mem.h): freed; its graph may keep the address.
     * The work queued before the free runs first (cuMemFree synchronises):
     * a queued launch of its graph, or a cuMemFreeAsync of it, changes what
     * the free finds. */
    if (cb_graph_mem_is_ours(dptr))
        cb_ctx_synchronize(ctx);
    cb_graph_mem_free gm = cb_graph_mem_user_free(dptr);
    if (gm == CB_GRAPH_MEM_NOT_LIVE)
        return CUDA_ERROR_INVALID_VALUE;
    if (gm == CB_GRAPH_MEM_KEPT) {
        cb_ctx_synchronize(ctx);
        return cb_ctx_sticky(ctx);
    }
    /* CUDA's cuMemFree synchronises: work still using the memory finishes. */
    cb_mem_info rec;
    if ((r = cb_mem_detach(dptr, &rec)) != CUDA_SUCCESS)
        return r;
    cb_ctx_synchronize(rec.ctx ? rec.ctx : ctx);
    cb_mem_release(&rec);
    return cb_ctx_sticky(ctx);
}

CB_EXPORT CUresult cuMemGetAddressRange_v2(CUdeviceptr *pbase, size_t *psize, CUdeviceptr dptr)
{
    cb_context *ctx;
    CUresult r = usable(&ctx);
    if (r != CUDA_SUCCESS)
        return r;
    cb_mem_info info = cb_mem_lookup(dptr);
    if (info.kind == CB_MEM_UNKNOWN || info.kind == CB_MEM_FREED)
        return CUDA_ERROR_NOT_FOUND;
    if (pbase)
        *pbase = info.base;
    if (psize)
        *psize = info.size;
    return CUDA_SUCCESS;
}

/* ---- pinned host memory ------------------------------------------------- */

CB_EXPORT CUresult cuMemHostAlloc(void **pp, size_t bytesize, unsigned int Flags)
{
    cb_context *ctx;
    CUresult r = usable(&ctx);
    if (r != CUDA_SUCCESS)
        return r;
    if ((r = cb_capture_check_unsafe()) != CUDA_SUCCESS)
        return r;
    return cb_host_alloc(ctx, bytesize, Flags, pp);
}

CB_EXPORT CUresult cuMemAllocHost_v2(void **pp, size_t bytesize)
{
    return cuMemHostAlloc(pp, bytesize, CU_MEMHOSTALLOC_PORTABLE | CU_MEMHOSTALLOC_DEVICEMAP);
}

CB_EXPORT CUresult cuMemFreeHost(void *p)
{
    cb_context *ctx;
    CB_REQUIRE_INIT();
    CUresult r = cb_ctx_require(&ctx);
    if (r != CUDA_SUCCESS)
        return r;
    if ((r = cb_capture_check_unsafe()) != CUDA_SUCCESS)
        return r;
    cb_ctx_synchronize(ctx);
    return cb_host_free(p);
}

CB_EXPORT CUresult cuMemHostRegister_v2(void *p, size_t bytesize, unsigned int Flags)
{
    cb_context *ctx;
    CUresult r = usable(&ctx);
    if (r != CUDA_SUCCESS)
        return r;
    return cb_host_register(ctx, p, bytesize, Flags);
}

CB_EXPORT CUresult cuMemHostRegister(void *p, size_t bytesize, unsigned int Flags)
{
    return cuMemHostRegister_v2(p, bytesize, Flags);
}

CB_EXPORT CUresult cuMemHostUnregister(void *p)
{
    cb_context *ctx;
    CUresult r = usable(&ctx);
    if (r != CUDA_SUCCESS)
        return r;
    cb_ctx_synchronize(ctx);
    return cb_host_unregister(p);
}

/* The pinned or registered record containing p, or -1. */
static int host_record(const void *p, cb_mem_info *out)
{
    *out = cb_mem_lookup((uint64_t)(uintptr_t)p);
    return out->kind == CB_MEM_HOST || out->kind == CB_MEM_REGISTERED ? 0 : -1;
}

CB_EXPORT CUresult cuMemHostGetDevicePointer_v2(CUdeviceptr *pdptr, void *p, unsigned int Flags)
{
    cb_context *ctx;
    CUresult r = usable(&ctx);
    if (r != CUDA_SUCCESS)
        return r;
    cb_mem_info info;
    if (!pdptr || Flags != 0 || host_record(p, &info) != 0)
        return CUDA_ERROR_INVALID_VALUE;
    if (!ctx->device->info.host_memory_access) {
        cb_log(CB_LOG_WARN, "cuMemHostGetDevicePointer: device %d (%s backend) cannot reach host memory",
               ctx->device->ordinal, ctx->device->backend->name);
        return CUDA_ERROR_NOT_SUPPORTED;
    }
    *pdptr = (CUdeviceptr)(uintptr_t)p; /* unified addressing: the same address */
    return CUDA_SUCCESS;
}

CB_EXPORT CUresult cuMemHostGetFlags(unsigned int *pFlags, void *p)
{
    cb_context *ctx;
    CUresult r = usable(&ctx);
    if (r != CUDA_SUCCESS)
        return r;
    cb_mem_info info;
    if (!pFlags || host_record(p, &info) != 0)
        return CUDA_ERROR_INVALID_VALUE;
    *pFlags = info.flags;
    return CUDA_SUCCESS;
}

/* ---- copies ----------------------------------------------------------- */

static CUresult copy_sync(cb_copy c, int per_thread)
{
    cb_context *ctx;
    CUresult r = usable(&ctx);
    if (r != CUDA_SUCCESS)
        return r;
    if ((r = cb_copy_check(&c)) != CUDA_SUCCESS)
        return r;
    cb_stream *s;
    if ((r = cb_stream_resolve_ex(per_thread ? CU_STREAM_PER_THREAD : NULL, ctx, 0, &s)) != CUDA_SUCCESS)
        return r;
    cb_op *op = cb_op_new(CB_OP_COPY);
    if (!op)
        return CUDA_ERROR_OUT_OF_MEMORY;
    op->u.copy.copy = c;
    return cb_stream_submit_sync(s, op);
}

static int pageable(uint64_t addr, int device)
{
    return !device && cb_mem_lookup(addr).kind == CB_MEM_UNKNOWN;
}

static CUresult copy_async(cb_copy c, CUstream h, int per_thread)
{
    cb_context *ctx;
    CUresult r = usable(&ctx);
    if (r != CUDA_SUCCESS)
        return r;
    if ((r = cb_copy_check(&c)) != CUDA_SUCCESS)
        return r;
    cb_stream *s;
    if ((r = cb_stream_resolve_ex(h, ctx, per_thread, &s)) != CUDA_SUCCESS)
        return r;
    cb_op *op = cb_op_new(CB_OP_COPY);
    if (!op)
        return CUDA_ERROR_OUT_OF_MEMORY;
    op->u.copy.copy = c;
    op->u.copy.stage_source = pageable(c.src, c.src_device);
    int wait = pageable(c.dst, c.dst_device);
    cb_fence *f;
    if ((r = cb_stream_submit(s, op, &f)) != CUDA_SUCCESS) {
        cb_op_free(op);
        return r;
    }
    if (wait)
        cb_fence_wait(f);
    cb_fence_unref(f);
    return CUDA_SUCCESS;
}

static cb_copy explicit_copy(uint64_t dst, int dst_dev, uint64_t src, int src_dev, size_t bytes)
{
    cb_copy c = { .dst = dst, .src = src, .dst_device = dst_dev, .src_device = src_dev, .width = bytes,
                  .height = 1, .depth = 1 };
    return c;
}

#define HOST_ADDR(p) ((uint64_t)(uintptr_t)(p))

/* Defines a synchronous copy and its _ptds twin. */
#define SYNC_COPY(name, params, copy)                                                                         \
    CB_EXPORT CUresult name params { return copy_sync(copy, 0); }                                            \
    CB_EXPORT CUresult name##_ptds params { return copy_sync(copy, 1); }
#define ASYNC_COPY(name, params, copy)                                                                        \
    CB_EXPORT CUresult name params { return copy_async(copy, hStream, 0); }                                  \
    CB_EXPORT CUresult name##_ptsz params { return copy_async(copy, hStream, 1); }

SYNC_COPY(cuMemcpyHtoD_v2, (CUdeviceptr dstDevice, const void *srcHost, size_t ByteCount),
          explicit_copy(dstDevice, 1, HOST_ADDR(srcHost), 0, ByteCount))
SYNC_COPY(cuMemcpyDtoH_v2, (void *dstHost, CUdeviceptr srcDevice, size_t ByteCount),
          explicit_copy(HOST_ADDR(dstHost), 0, srcDevice, 1, ByteCount))
SYNC_COPY(cuMemcpyDtoD_v2, (CUdeviceptr dstDevice, CUdeviceptr srcDevice, size_t ByteCount),
          explicit_copy(dstDevice, 1, srcDevice, 1, ByteCount))
SYNC_COPY(cuMemcpy, (CUdeviceptr dst, CUdeviceptr src, size_t ByteCount), cb_copy_linear(dst, src, ByteCount))
ASYNC_COPY(cuMemcpyHtoDAsync_v2, (CUdeviceptr dstDevice, const void *srcHost, size_t ByteCount, CUstream hStream),
           explicit_copy(dstDevice, 1, HOST_ADDR(srcHost), 0, ByteCount))
ASYNC_COPY(cuMemcpyDtoHAsync_v2, (void *dstHost, CUdeviceptr srcDevice, size_t ByteCount, CUstream hStream),
           explicit_copy(HOST_ADDR(dstHost), 0, srcDevice, 1, ByteCount))
ASYNC_COPY(cuMemcpyDtoDAsync_v2, (CUdeviceptr dstDevice, CUdeviceptr srcDevice, size_t ByteCount, CUstream hStream),
           explicit_copy(dstDevice, 1, srcDevice, 1, ByteCount))
ASYNC_COPY(cuMemcpyAsync, (CUdeviceptr dst, CUdeviceptr src, size_t ByteCount, CUstream hStream),
           cb_copy_linear(dst, src, ByteCount))

/* Peer copies: one device, so a plain copy once both contexts check out. */
static CUresult peer_contexts(CUcontext a, CUcontext b)
{
    CB_REQUIRE_INIT();
    return cb_ctx_valid(a) && cb_ctx_valid(b) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_CONTEXT;
}

static CUresult peer_copy(CUdeviceptr dst, CUcontext dctx, CUdeviceptr src, CUcontext sctx, size_t n, int async,
                          CUstream h, int per_thread)
{
    CUresult r = peer_contexts(dctx, sctx);
    if (r != CUDA_SUCCESS)
        return r;
    cb_copy c = explicit_copy(dst, 1, src, 1, n);
    return async ? copy_async(c, h, per_thread) : copy_sync(c, per_thread);
}

CB_EXPORT CUresult cuMemcpyPeer(CUdeviceptr dstDevice, CUcontext dstContext, CUdeviceptr srcDevice,
                                CUcontext srcContext, size_t ByteCount)
{
    return peer_copy(dstDevice, dstContext, srcDevice, srcContext, ByteCount, 0, NULL, 0);
}
CB_EXPORT CUresult cuMemcpyPeer_ptds(CUdeviceptr dstDevice, CUcontext dstContext, CUdeviceptr srcDevice,
                                     CUcontext srcContext, size_t ByteCount)
{
    return peer_copy(dstDevice, dstContext, srcDevice, srcContext, ByteCount, 0, NULL, 1);
}
CB_EXPORT CUresult cuMemcpyPeerAsync(CUdeviceptr dstDevice, CUcontext dstContext, CUdeviceptr srcDevice,
                                     CUcontext srcContext, size_t ByteCount, CUstream hStream)
{
    return peer_copy(dstDevice, dstContext, srcDevice, srcContext, ByteCount, 1, hStream, 0);
}
CB_EXPORT CUresult cuMemcpyPeerAsync_ptsz(CUdeviceptr dstDevice, CUcontext dstContext, CUdeviceptr srcDevice,
                                          CUcontext srcContext, size_t ByteCount, CUstream hStream)
{
    return peer_copy(dstDevice, dstContext, srcDevice, srcContext, ByteCount, 1, hStream, 1);
}

/* 2D and 3D copies: build the copy first (which can fail). */
static CUresult copy2d(const CUDA_MEMCPY2D *p, int async, CUstream h, int per_thread)
{
    CB_REQUIRE_INIT();
    cb_copy c;
    CUresult r = cb_copy_from_2d(p, &c);
    if (r != CUDA_SUCCESS)
        return r;
    return async ? copy_async(c, h, per_thread) : copy_sync(c, per_thread);
}

static CUresult copy3d(const CUDA_MEMCPY3D *p, int async, CUstream h, int per_thread)
{
    CB_REQUIRE_INIT();
    cb_copy c;
    CUresult r = cb_copy_from_3d(p, &c);
    if (r != CUDA_SUCCESS)
        return r;
    return async ? copy_async(c, h, per_thread) : copy_sync(c, per_thread);
}

static CUresult copy3d_peer(const CUDA_MEMCPY3D_PEER *p, int async, CUstream h, int per_thread)
{
    if (!p)
        return CUDA_ERROR_INVALID_VALUE;
    CUresult r = peer_contexts(p->dstContext, p->srcContext);
    if (r != CUDA_SUCCESS)
        return r;
    CUDA_MEMCPY3D d;
    memset(&d, 0, sizeof d);
    d.srcXInBytes = p->srcXInBytes, d.srcY = p->srcY, d.srcZ = p->srcZ, d.srcLOD = p->srcLOD;
    d.srcMemoryType = p->srcMemoryType, d.srcHost = p->srcHost, d.srcDevice = p->srcDevice;
    d.srcArray = p->srcArray, d.srcPitch = p->srcPitch, d.srcHeight = p->srcHeight;
    d.dstXInBytes = p->dstXInBytes, d.dstY = p->dstY, d.dstZ = p->dstZ, d.dstLOD = p->dstLOD;
    d.dstMemoryType = p->dstMemoryType, d.dstHost = p->dstHost, d.dstDevice = p->dstDevice;
    d.dstArray = p->dstArray, d.dstPitch = p->dstPitch, d.dstHeight = p->dstHeight;
    d.WidthInBytes = p->WidthInBytes, d.Height = p->Height, d.Depth = p->Depth;
    return copy3d(&d, async, h, per_thread);
}

CB_EXPORT CUresult cuMemcpy2D_v2(const CUDA_MEMCPY2D *pCopy) { return copy2d(pCopy, 0, NULL, 0); }
CB_EXPORT CUresult cuMemcpy2D_v2_ptds(const CUDA_MEMCPY2D *pCopy) { return copy2d(pCopy, 0, NULL, 1); }
CB_EXPORT CUresult cuMemcpy2DUnaligned_v2(const CUDA_MEMCPY2D *pCopy) { return copy2d(pCopy, 0, NULL, 0); }
CB_EXPORT CUresult cuMemcpy2DUnaligned_v2_ptds(const CUDA_MEMCPY2D *pCopy) { return copy2d(pCopy, 0, NULL, 1); }
CB_EXPORT CUresult cuMemcpy2DAsync_v2(const CUDA_MEMCPY2D *pCopy, CUstream hStream)
{
    return copy2d(pCopy, 1, hStream, 0);
}
CB_EXPORT CUresult cuMemcpy2DAsync_v2_ptsz(const CUDA_MEMCPY2D *pCopy, CUstream hStream)
{
    return copy2d(pCopy, 1, hStream, 1);
}
CB_EXPORT CUresult cuMemcpy3D_v2(const CUDA_MEMCPY3D *pCopy) { return copy3d(pCopy, 0, NULL, 0); }
CB_EXPORT CUresult cuMemcpy3D_v2_ptds(const CUDA_MEMCPY3D *pCopy) { return copy3d(pCopy, 0, NULL, 1); }
CB_EXPORT CUresult cuMemcpy3DAsync_v2(const CUDA_MEMCPY3D *pCopy, CUstream hStream)
{
    return copy3d(pCopy, 1, hStream, 0);
}
CB_EXPORT CUresult cuMemcpy3DAsync_v2_ptsz(const CUDA_MEMCPY3D *pCopy, CUstream hStream)
{
    return copy3d(pCopy, 1, hStream, 1);
}
CB_EXPORT CUresult cuMemcpy3DPeer(const CUDA_MEMCPY3D_PEER *pCopy) { return copy3d_peer(pCopy, 0, NULL, 0); }
CB_EXPORT CUresult cuMemcpy3DPeer_ptds(const CUDA_MEMCPY3D_PEER *pCopy) { return copy3d_peer(pCopy, 0, NULL, 1); }
CB_EXPORT CUresult cuMemcpy3DPeerAsync(const CUDA_MEMCPY3D_PEER *pCopy, CUstream hStream)
{
    return copy3d_peer(pCopy, 1, hStream, 0);
}
CB_EXPORT CUresult cuMemcpy3DPeerAsync_ptsz(const CUDA_MEMCPY3D_PEER *pCopy, CUstream hStream)
{
    return copy3d_peer(pCopy, 1, hStream, 1);
}

/* ---- memsets ------------------------------------------------------------ */

static CUresult fill(uint64_t dst, size_t pitch, uint32_t value, unsigned elem, size_t width, size_t height,
                     int async, CUstream h, int per_thread)
{
    cb_context *ctx;
    CUresult r = usable(&ctx);
    if (r != CUDA_SUCCESS)
        return r;
    cb_fill f = { .dst = dst, .value = value, .elem_size = elem, .width = width, .height = height,
                  .pitch = height > 1 ? pitch : width * elem };
    if ((r = cb_fill_check(&f)) != CUDA_SUCCESS)
        return r;
    cb_stream *s;
    if ((r = cb_stream_resolve_ex(async ? h : (per_thread ? CU_STREAM_PER_THREAD : NULL), ctx, per_thread, &s)) !=
        CUDA_SUCCESS)
        return r;
    cb_op *op = cb_op_new(CB_OP_FILL);
    if (!op)
        return CUDA_ERROR_OUT_OF_MEMORY;
    op->u.fill = f;
    if (!async)
        return cb_stream_submit_sync(s, op);
    if ((r = cb_stream_submit(s, op, NULL)) != CUDA_SUCCESS)
        cb_op_free(op);
    return r;
}

#define MEMSET_1D(name, type, elem)                                                                           \
    CB_EXPORT CUresult name##_v2(CUdeviceptr d, type v, size_t N) { return fill(d, 0, v, elem, N, 1, 0, NULL, 0); } \
    CB_EXPORT CUresult name##_v2_ptds(CUdeviceptr d, type v, size_t N)                                        \
    {                                                                                                         \
        return fill(d, 0, v, elem, N, 1, 0, NULL, 1);                                                         \
    }                                                                                                         \
    CB_EXPORT CUresult name##Async(CUdeviceptr d, type v, size_t N, CUstream h)                               \
    {                                                                                                         \
        return fill(d, 0, v, elem, N, 1, 1, h, 0);                                                            \
    }                                                                                                         \
    CB_EXPORT CUresult name##Async_ptsz(CUdeviceptr d, type v, size_t N, CUstream h)                          \
    {                                                                                                         \
        return fill(d, 0, v, elem, N, 1, 1, h, 1);                                                            \
    }
#define MEMSET_2D(name, type, elem)                                                                           \
    CB_EXPORT CUresult name##_v2(CUdeviceptr d, size_t pitch, type v, size_t w, size_t hgt)                   \
    {                                                                                                         \
        return fill(d, pitch, v, elem, w, hgt, 0, NULL, 0);                                                   \
    }                                                                                                         \
    CB_EXPORT CUresult name##_v2_ptds(CUdeviceptr d, size_t pitch, type v, size_t w, size_t hgt)              \
    {                                                                                                         \
        return fill(d, pitch, v, elem, w, hgt, 0, NULL, 1);                                                   \
    }                                                                                                         \
    CB_EXPORT CUresult name##Async(CUdeviceptr d, size_t pitch, type v, size_t w, size_t hgt, CUstream h)     \
    {                                                                                                         \
        return fill(d, pitch, v, elem, w, hgt, 1, h, 0);                                                      \
    }                                                                                                         \
    CB_EXPORT CUresult name##Async_ptsz(CUdeviceptr d, size_t pitch, type v, size_t w, size_t hgt, CUstream h) \
    {                                                                                                         \
        return fill(d, pitch, v, elem, w, hgt, 1, h, 1);                                                      \
    }

MEMSET_1D(cuMemsetD8, unsigned char, 1)
MEMSET_1D(cuMemsetD16, unsigned short, 2)
MEMSET_1D(cuMemsetD32, unsigned int, 4)
MEMSET_2D(cuMemsetD2D8, unsigned char, 1)
MEMSET_2D(cuMemsetD2D16, unsigned short, 2)
MEMSET_2D(cuMemsetD2D32, unsigned int, 4)

/* ---- pointer attributes ------------------------------------------------ */

static int known(const cb_mem_info *i) { return i->kind != CB_MEM_UNKNOWN && i->kind != CB_MEM_FREED; }
static int device_kind(const cb_mem_info *i)
{
    return i->kind == CB_MEM_DEVICE || i->kind == CB_MEM_MANAGED || i->kind == CB_MEM_VMM;
}

#define PUT(type, v) (*(type *)data = (type)(v))

/* Writes one attribute of ptr; unknown pointers get CUDA's defaults. */
static CUresult pointer_attribute(const cb_mem_info *i, CUdeviceptr ptr, CUpointer_attribute a, void *data)
{
    int k = known(i);
    switch (a) {
    case CU_POINTER_ATTRIBUTE_CONTEXT: PUT(CUcontext, k ? (CUcontext)i->ctx : NULL); break;
    case CU_POINTER_ATTRIBUTE_MEMORY_TYPE:
        PUT(unsigned int, !k ? 0 : device_kind(i) ? CU_MEMORYTYPE_DEVICE : CU_MEMORYTYPE_HOST);
        break;
    case CU_POINTER_ATTRIBUTE_DEVICE_POINTER: PUT(CUdeviceptr, k ? ptr : 0); break;
    case CU_POINTER_ATTRIBUTE_HOST_POINTER:
        if (k && (i->kind == CB_MEM_DEVICE || i->kind == CB_MEM_VMM))
            return CUDA_ERROR_INVALID_VALUE; /* device memory has no host mapping in CUDA */
        PUT(void *, k ? (void *)(uintptr_t)ptr : NULL);
        break;
    case CU_POINTER_ATTRIBUTE_P2P_TOKENS:
        return cb_driver_not_supported("cuPointerGetAttribute(P2P_TOKENS)", "GPUDirect P2P tokens do not exist here");
    case CU_POINTER_ATTRIBUTE_SYNC_MEMOPS: PUT(int, k); break; /* synchronous copies always synchronise */
    case CU_POINTER_ATTRIBUTE_BUFFER_ID: PUT(unsigned long long, k ? i->buffer_id : 0); break;
    case CU_POINTER_ATTRIBUTE_IS_MANAGED: PUT(int, i->kind == CB_MEM_MANAGED); break;
    case CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL:
        PUT(int, !k ? -2 : i->ctx && cb_ctx_valid(i->ctx) ? i->ctx->device->ordinal : 0);
        break;
    case CU_POINTER_ATTRIBUTE_IS_LEGACY_CUDA_IPC_CAPABLE: PUT(int, 0); break;
    case CU_POINTER_ATTRIBUTE_RANGE_START_ADDR: PUT(CUdeviceptr, k ? i->base : 0); break;
    case CU_POINTER_ATTRIBUTE_RANGE_SIZE: PUT(size_t, k ? i->size : 0); break;
    case CU_POINTER_ATTRIBUTE_MAPPED: PUT(int, k); break;
    case CU_POINTER_ATTRIBUTE_ALLOWED_HANDLE_TYPES: PUT(unsigned long long, CU_MEM_HANDLE_TYPE_NONE); break;
    case CU_POINTER_ATTRIBUTE_IS_GPU_DIRECT_RDMA_CAPABLE: PUT(int, 0); break;
    case CU_POINTER_ATTRIBUTE_ACCESS_FLAGS:
        PUT(int, k ? CU_POINTER_ATTRIBUTE_ACCESS_FLAG_READWRITE : CU_POINTER_ATTRIBUTE_ACCESS_FLAG_NONE);
        break;
    case CU_POINTER_ATTRIBUTE_MEMPOOL_HANDLE:
        PUT(CUmemoryPool, k && i->kind == CB_MEM_DEVICE ? (CUmemoryPool)i->owner : NULL);
        break;
    case CU_POINTER_ATTRIBUTE_MAPPING_SIZE: PUT(size_t, k ? i->size : 0); break;
    case CU_POINTER_ATTRIBUTE_MAPPING_BASE_ADDR: PUT(void *, k ? (void *)(uintptr_t)i->base : NULL); break;
    case CU_POINTER_ATTRIBUTE_MEMORY_BLOCK_ID: PUT(unsigned long long, k ? i->buffer_id : 0); break;
    case CU_POINTER_ATTRIBUTE_IS_HW_DECOMPRESS_CAPABLE: PUT(int, 0); break;
    default: return CUDA_ERROR_INVALID_VALUE;
    }
    return CUDA_SUCCESS;
}

CB_EXPORT CUresult cuPointerGetAttribute(void *data, CUpointer_attribute attribute, CUdeviceptr ptr)
{
    CB_REQUIRE_INIT();
    if (!data)
        return CUDA_ERROR_INVALID_VALUE;
    cb_mem_info info = cb_mem_lookup(ptr);
    if (!known(&info))
        return CUDA_ERROR_INVALID_VALUE; /* the single form refuses memory CUDA does not know */
    return pointer_attribute(&info, ptr, attribute, data);
}

CB_EXPORT CUresult cuPointerGetAttributes(unsigned int numAttributes, CUpointer_attribute *attributes, void **data,
                                          CUdeviceptr ptr)
{
    CB_REQUIRE_INIT();
    if (!attributes || !data)
        return CUDA_ERROR_INVALID_VALUE;
    cb_mem_info info = cb_mem_lookup(ptr);
    for (unsigned i = 0; i < numAttributes; i++) {
        if (!data[i])
            return CUDA_ERROR_INVALID_VALUE;
        CUresult r = pointer_attribute(&info, ptr, attributes[i], data[i]);
        if (r == CUDA_ERROR_INVALID_VALUE && attributes[i] == CU_POINTER_ATTRIBUTE_HOST_POINTER)
            *(void **)data[i] = NULL; /* the plural form answers NULL instead of failing */
        else if (r != CUDA_SUCCESS)
            return r;
    }
    return CUDA_SUCCESS;
}

CB_EXPORT CUresult cuPointerSetAttribute(const void *value, CUpointer_attribute attribute, CUdeviceptr ptr)
{
    CB_REQUIRE_INIT();
    cb_mem_info info = cb_mem_lookup(ptr);
    if (!value || !known(&info))
        return CUDA_ERROR_INVALID_VALUE;
    if (attribute == CU_POINTER_ATTRIBUTE_SYNC_MEMOPS)
        return CUDA_SUCCESS; /* synchronous memory operations always synchronise here */
    return CUDA_ERROR_INVALID_VALUE;
}
