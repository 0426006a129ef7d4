/* api_context.c: primary contexts, cuCtx* entry points. */
#include "driver/driver.h"

#include "core/context.h"
#include "core/device.h"

/* CU_CTX_* flags cubridge accepts (scheduling hints are accepted and have
 * no effect on the CPU backend; mapping host memory is always possible). */
#define CTX_FLAGS_VALID                                                                                     \
    (CU_CTX_SCHED_MASK | CU_CTX_MAP_HOST | CU_CTX_LMEM_RESIZE_TO_MAX | CU_CTX_COREDUMP_ENABLE |             \
     CU_CTX_USER_COREDUMP_ENABLE | CU_CTX_SYNC_MEMOPS)

static CUresult ctx_device(CUdevice dev, cb_device **out)
{
    CB_REQUIRE_INIT();
    cb_device *d = cb_device_get(dev);
    if (!d)
        return CUDA_ERROR_INVALID_DEVICE;
    *out = d;
    return CUDA_SUCCESS;
}

static CUresult ctx_check_flags(unsigned flags)
{
    if (flags & ~(unsigned)CTX_FLAGS_VALID)
        return CUDA_ERROR_INVALID_VALUE;
    if ((flags & CU_CTX_SCHED_MASK) == 3 || (flags & CU_CTX_SCHED_MASK) > CU_CTX_SCHED_BLOCKING_SYNC)
        return CUDA_ERROR_INVALID_VALUE;
    return CUDA_SUCCESS;
}

/* ---- primary contexts ---------------------------------------------------- */

CB_EXPORT CUresult cuDevicePrimaryCtxRetain(CUcontext *pctx, CUdevice dev)
{
    cb_device *d;
    CUresult r = ctx_device(dev, &d);
    if (r != CUDA_SUCCESS)
        return r;
    if (!pctx)
        return CUDA_ERROR_INVALID_VALUE;
    return cb_primary_retain(d, pctx);
}

CB_EXPORT CUresult cuDevicePrimaryCtxRelease_v2(CUdevice dev)
{
    cb_device *d;
    CUresult r = ctx_device(dev, &d);
    return r != CUDA_SUCCESS ? r : cb_primary_release(d);
}

CB_EXPORT CUresult cuDevicePrimaryCtxRelease(CUdevice dev)
{
    return cuDevicePrimaryCtxRelease_v2(dev);
}

CB_EXPORT CUresult cuDevicePrimaryCtxReset_v2(CUdevice dev)
{
    cb_device *d;
    CUresult r = ctx_device(dev, &d);
    return r != CUDA_SUCCESS ? r : cb_primary_reset(d);
}

CB_EXPORT CUresult cuDevicePrimaryCtxReset(CUdevice dev)
{
    return cuDevicePrimaryCtxReset_v2(dev);
}

CB_EXPORT CUresult cuDevicePrimaryCtxGetState(CUdevice dev, unsigned int *flags, int *active)
{
    cb_device *d;
    CUresult r = ctx_device(dev, &d);
    if (r != CUDA_SUCCESS)
        return r;
    if (!flags || !active)
        return CUDA_ERROR_INVALID_VALUE;
    cb_primary_state(d, flags, active);
    return CUDA_SUCCESS;
}

CB_EXPORT CUresult cuDevicePrimaryCtxSetFlags_v2(CUdevice dev, unsigned int flags)
{
    cb_device *d;
    CUresult r = ctx_device(dev, &d);
    if (r != CUDA_SUCCESS)
        return r;
    r = ctx_check_flags(flags);
    return r != CUDA_SUCCESS ? r : cb_primary_set_flags(d, flags);
}

CB_EXPORT CUresult cuDevicePrimaryCtxSetFlags(CUdevice dev, unsigned int flags)
{
    return cuDevicePrimaryCtxSetFlags_v2(dev, flags);
}

/* ---- create / destroy ---------------------------------------------------- */

static CUresult ctx_create_pushed(CUcontext *pctx, unsigned flags, CUdevice dev)
{
    cb_device *d;
    CUresult r = ctx_device(dev, &d);
    if (r != CUDA_SUCCESS)
        return r;
    if (!pctx)
        return CUDA_ERROR_INVALID_VALUE;
    r = ctx_check_flags(flags);
    if (r != CUDA_SUCCESS)
        return r;
    cb_context *ctx;
    r = cb_ctx_create(d, flags, 0, &ctx);
    if (r != CUDA_SUCCESS)
        return r;
    r = cb_ctx_push(ctx);
    if (r != CUDA_SUCCESS) {
        cb_ctx_destroy(ctx);
        return r;
    }
    *pctx = ctx;
    return CUDA_SUCCESS;
}

CB_EXPORT CUresult cuCtxCreate(CUcontext *pctx, unsigned int flags, CUdevice_v1 dev)
{
    return ctx_create_pushed(pctx, flags, dev);
}

CB_EXPORT CUresult cuCtxCreate_v2(CUcontext *pctx, unsigned int flags, CUdevice dev)
{
    return ctx_create_pushed(pctx, flags, dev);
}

CB_EXPORT CUresult cuCtxCreate_v3(CUcontext *pctx, CUexecAffinityParam *paramsArray, int numParams, unsigned int flags,
                                  CUdevice dev)
{
    if (numParams < 0 || (numParams > 0 && !paramsArray))
        return CUDA_ERROR_INVALID_VALUE;
    if (numParams > 0)
        return cb_driver_not_supported("cuCtxCreate_v3", "execution affinity (SM partitions) is not modelled");
    return ctx_create_pushed(pctx, flags, dev);
}

CB_EXPORT CUresult cuCtxCreate_v4(CUcontext *pctx, CUctxCreateParams *ctxCreateParams, unsigned int flags,
                                  CUdevice dev)
{
    if (ctxCreateParams && (ctxCreateParams->numExecAffinityParams > 0 || ctxCreateParams->cigParams))
        return cb_driver_not_supported("cuCtxCreate_v4", "execution affinity and CIG contexts are not modelled");
    return ctx_create_pushed(pctx, flags, dev);
}

CB_EXPORT CUresult cuCtxDestroy_v2(CUcontext ctx)
{
    CB_REQUIRE_INIT();
    if (!ctx)
        return CUDA_ERROR_INVALID_VALUE; /* as the driver on an H200 (docs/reliability.md) */
    if (!cb_ctx_valid(ctx))
        return CUDA_ERROR_INVALID_CONTEXT;
    if (ctx->is_primary)
        return CUDA_ERROR_INVALID_CONTEXT;
    /* Pop it if it is current on this thread, as CUDA does. */
    if (cb_ctx_current() == ctx)
        cb_ctx_pop(NULL);
    cb_ctx_destroy(ctx);
    return CUDA_SUCCESS;
}

CB_EXPORT CUresult cuCtxDestroy(CUcontext ctx)
{
    return cuCtxDestroy_v2(ctx);
}

/* The CUDA 2.x release of a created context (PyCUDA's context cleanup).
 * cuCtxAttach, which would raise the usage count, is not supported, so the
 * count is always 1 and detaching the current context destroys it. */
CB_EXPORT CUresult cuCtxDetach(CUcontext ctx)
{
    CB_REQUIRE_INIT();
    if (!cb_ctx_valid(ctx) || ctx->is_primary || cb_ctx_current() != ctx)
        return CUDA_ERROR_INVALID_CONTEXT;
    return cuCtxDestroy_v2(ctx);
}

/* ---- the stack ----------------------------------------------------------- */

CB_EXPORT CUresult cuCtxPushCurrent_v2(CUcontext ctx)
{
    CB_REQUIRE_INIT();
    if (!cb_ctx_valid(ctx))
        return CUDA_ERROR_INVALID_CONTEXT;
    return cb_ctx_push(ctx);
}

CB_EXPORT CUresult cuCtxPushCurrent(CUcontext ctx)
{
    return cuCtxPushCurrent_v2(ctx);
}

CB_EXPORT CUresult cuCtxPopCurrent_v2(CUcontext *pctx)
{
    CB_REQUIRE_INIT();
    cb_context *ctx;
    CUresult r = cb_ctx_pop(&ctx);
    if (r == CUDA_SUCCESS && pctx)
        *pctx = ctx;
    return r;
}

CB_EXPORT CUresult cuCtxPopCurrent(CUcontext *pctx)
{
    return cuCtxPopCurrent_v2(pctx);
}

CB_EXPORT CUresult cuCtxSetCurrent(CUcontext ctx)
{
    CB_REQUIRE_INIT();
    if (ctx && !cb_ctx_valid(ctx))
        return CUDA_ERROR_INVALID_CONTEXT;
    cb_ctx_set_current(ctx);
    return CUDA_SUCCESS;
}

CB_EXPORT CUresult cuCtxGetCurrent(CUcontext *pctx)
{
    CB_REQUIRE_INIT();
    if (!pctx)
        return CUDA_ERROR_INVALID_VALUE;
    *pctx = cb_ctx_current();
    return CUDA_SUCCESS;
}

/* ---- queries on the current context --------------------------------------- */

/* The context a query is about: ctx when given, else the current one. */
static CUresult ctx_target(CUcontext ctx, cb_context **out)
{
    CB_REQUIRE_INIT();
    if (ctx) {
        if (!cb_ctx_valid(ctx))
            return CUDA_ERROR_INVALID_CONTEXT;
        *out = ctx;
        return CUDA_SUCCESS;
    }
    return cb_ctx_require(out);
}

CB_EXPORT CUresult cuCtxGetDevice(CUdevice *device)
{
    cb_context *ctx;
    CUresult r = ctx_target(NULL, &ctx);
    if (r != CUDA_SUCCESS)
        return r;
    if (!device)
        return CUDA_ERROR_INVALID_VALUE;
    *device = ctx->device->ordinal;
    return CUDA_SUCCESS;
}

CB_EXPORT CUresult cuCtxGetDevice_v2(CUdevice *device, CUcontext ctx)
{
    cb_context *c;
    CUresult r = ctx_target(ctx, &c);
    if (r != CUDA_SUCCESS)
        return r;
    if (!device)
        return CUDA_ERROR_INVALID_VALUE;
    *device = c->device->ordinal;
    return CUDA_SUCCESS;
}

CB_EXPORT CUresult cuCtxSynchronize(void)
{
    cb_context *ctx;
    CUresult r = ctx_target(NULL, &ctx);
    return r != CUDA_SUCCESS ? r : cb_ctx_synchronize(ctx);
}

CB_EXPORT CUresult cuCtxSynchronize_v2(CUcontext ctx)
{
    cb_context *c;
    CUresult r = ctx_target(ctx, &c);
    return r != CUDA_SUCCESS ? r : cb_ctx_synchronize(c);
}

CB_EXPORT CUresult cuCtxGetApiVersion(CUcontext ctx, unsigned int *version)
{
    cb_context *c;
    CUresult r = ctx_target(ctx, &c);
    if (r != CUDA_SUCCESS)
        return r;
    if (!version)
        return CUDA_ERROR_INVALID_VALUE;
    *version = 3020; /* the context ABI version every CUDA since 3.2 reports */
    return CUDA_SUCCESS;
}

CB_EXPORT CUresult cuCtxGetFlags(unsigned int *flags)
{
    cb_context *ctx;
    CUresult r = ctx_target(NULL, &ctx);
    if (r != CUDA_SUCCESS)
        return r;
    if (!flags)
        return CUDA_ERROR_INVALID_VALUE;
    *flags = ctx->flags;
    return CUDA_SUCCESS;
}

CB_EXPORT CUresult cuCtxSetFlags(unsigned int flags)
{
    cb_context *ctx;
    CUresult r = ctx_target(NULL, &ctx);
    if (r != CUDA_SUCCESS)
        return r;
    r = ctx_check_flags(flags);
    if (r != CUDA_SUCCESS)
        return r;
    ctx->flags = flags;
    return CUDA_SUCCESS;
}

CB_EXPORT CUresult cuCtxGetId(CUcontext ctx, unsigned long long *ctxId)
{
    cb_context *c;
    CUresult r = ctx_target(ctx, &c);
    if (r != CUDA_SUCCESS)
        return r;
    if (!ctxId)
        return CUDA_ERROR_INVALID_VALUE;
    *ctxId = cb_ctx_id(c);
    return CUDA_SUCCESS;
}

/* Which limits exist and which cubridge honours. */
static int ctx_limit_known(CUlimit limit)
{
    return limit >= CU_LIMIT_STACK_SIZE && limit <= CU_LIMIT_PERSISTING_L2_CACHE_SIZE;
}

CB_EXPORT CUresult cuCtxGetLimit(size_t *pvalue, CUlimit limit)
{
    cb_context *ctx;
    CUresult r = ctx_target(NULL, &ctx);
    if (r != CUDA_SUCCESS)
        return r;
    if (!pvalue)
        return CUDA_ERROR_INVALID_VALUE;
    if (!ctx_limit_known(limit))
        return CUDA_ERROR_UNSUPPORTED_LIMIT;
    *pvalue = ctx->limits[limit];
    return CUDA_SUCCESS;
}

CB_EXPORT CUresult cuCtxSetLimit(CUlimit limit, size_t value)
{
    cb_context *ctx;
    CUresult r = ctx_target(NULL, &ctx);
    if (r != CUDA_SUCCESS)
        return r;
    if (!ctx_limit_known(limit))
        return CUDA_ERROR_UNSUPPORTED_LIMIT;
    if (limit == CU_LIMIT_MAX_L2_FETCH_GRANULARITY && value > 128)
        return CUDA_ERROR_INVALID_VALUE;
    if (limit == CU_LIMIT_PERSISTING_L2_CACHE_SIZE) {
        /* A set-aside for persisting accesses: a hint to the CPU, kept and
         * read back, at most the device's MAX_PERSISTING_L2_CACHE_SIZE. */
        size_t max = (size_t)cb_device_persisting_l2_max(ctx->device);
        if (value > max)
            value = max;
    }
    cb_mutex_lock(&ctx->lock);
    ctx->limits[limit] = value;
    cb_mutex_unlock(&ctx->lock);
    return CUDA_SUCCESS;
}

CB_EXPORT CUresult cuCtxGetCacheConfig(CUfunc_cache *pconfig)
{
    cb_context *ctx;
    CUresult r = ctx_target(NULL, &ctx);
    if (r != CUDA_SUCCESS)
        return r;
    if (!pconfig)
        return CUDA_ERROR_INVALID_VALUE;
    *pconfig = ctx->cache_config;
    return CUDA_SUCCESS;
}

CB_EXPORT CUresult cuCtxSetCacheConfig(CUfunc_cache config)
{
    cb_context *ctx;
    CUresult r = ctx_target(NULL, &ctx);
    if (r != CUDA_SUCCESS)
        return r;
    if (config < CU_FUNC_CACHE_PREFER_NONE || config > CU_FUNC_CACHE_PREFER_EQUAL)
        return CUDA_ERROR_INVALID_VALUE;
    ctx->cache_config = config; /* a preference; the CPU backend has no L1/shared split */
    return CUDA_SUCCESS;
}

CB_EXPORT CUresult cuCtxGetSharedMemConfig(CUsharedconfig *pConfig)
{
    cb_context *ctx;
    CUresult r = ctx_target(NULL, &ctx);
    if (r != CUDA_SUCCESS)
        return r;
    if (!pConfig)
        return CUDA_ERROR_INVALID_VALUE;
    *pConfig = ctx->shared_config;
    return CUDA_SUCCESS;
}

CB_EXPORT CUresult cuCtxSetSharedMemConfig(CUsharedconfig config)
{
    cb_context *ctx;
    CUresult r = ctx_target(NULL, &ctx);
    if (r != CUDA_SUCCESS)
        return r;
    if (config < CU_SHARED_MEM_CONFIG_DEFAULT_BANK_SIZE || config > CU_SHARED_MEM_CONFIG_EIGHT_BYTE_BANK_SIZE)
        return CUDA_ERROR_INVALID_VALUE;
    ctx->shared_config = config;
    return CUDA_SUCCESS;
}

/* Stream priorities are not modelled: the device reports no support
 * (CU_DEVICE_ATTRIBUTE_STREAM_PRIORITIES_SUPPORTED = 0), so the range is 0..0. */
CB_EXPORT CUresult cuCtxGetStreamPriorityRange(int *leastPriority, int *greatestPriority)
{
    cb_context *ctx;
    CUresult r = ctx_target(NULL, &ctx);
    if (r != CUDA_SUCCESS)
        return r;
    if (leastPriority)
        *leastPriority = 0;
    if (greatestPriority)
        *greatestPriority = 0;
    return CUDA_SUCCESS;
}

CB_EXPORT CUresult cuCtxResetPersistingL2Cache(void)
{
    cb_context *ctx;
    return ctx_target(NULL, &ctx);
}

/* ---- peer access --------------------------------------------------------- */

CB_EXPORT CUresult cuCtxEnablePeerAccess(CUcontext peerContext, unsigned int Flags)
{
    cb_context *ctx;
    CB_REQUIRE_INIT();
    CUresult r = cb_ctx_require(&ctx);
    if (r != CUDA_SUCCESS)
        return r;
    if (Flags != 0)
        return CUDA_ERROR_INVALID_VALUE;
    return cb_ctx_enable_peer(ctx, peerContext);
}

CB_EXPORT CUresult cuCtxDisablePeerAccess(CUcontext peerContext)
{
    cb_context *ctx;
    CB_REQUIRE_INIT();
    CUresult r = cb_ctx_require(&ctx);
    if (r != CUDA_SUCCESS)
        return r;
    return cb_ctx_disable_peer(ctx, peerContext);
}
