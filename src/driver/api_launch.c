/* api_launch.c: cuLaunchKernel*, cuFunc* and cuOccupancy* entry points. */
#include "driver/driver.h"

#include <stdlib.h>
#include <string.h>

#include "core/context.h"
#include "core/device.h"
#include "core/event.h"
#include "core/launch.h"
#include "core/module.h"

/* A live kernel handle; a kernel of an image this device cannot run
 * (cb_module_create_unavailable) answers the image's error. */
static CUresult func_handle(CUfunction f)
{
    CB_REQUIRE_INIT();
    if (!cb_function_valid(f))
        return CUDA_ERROR_INVALID_HANDLE;
    return f->module->unavailable;
}

/* ---- launches ----------------------------------------------------------------- */

/* Packs parameters and submits. per_thread: a NULL stream means the
 * per-thread default stream (the _ptsz entry points); cooperative: a
 * cooperative launch (grid-wide sync, checked against occupancy). */
static CUresult launch(CUfunction f, const uint32_t grid[3], const uint32_t block[3], unsigned smem, CUstream h,
                       void **kernelParams, void **extra, int per_thread, int cooperative, const uint32_t *cluster)
{
    CB_REQUIRE_INIT();
    cb_context *ctx;
    CUresult r = cb_ctx_require_usable(&ctx);
    if (r != CUDA_SUCCESS)
        return r;
    if (!cb_function_valid(f))
        return CUDA_ERROR_INVALID_HANDLE;
    unsigned char small[4096];
    unsigned char *buf = small;
    if (f->info->param_bytes > sizeof small) {
        buf = malloc(f->info->param_bytes);
        if (!buf)
            return CUDA_ERROR_OUT_OF_MEMORY;
    }
    r = cb_launch_pack_params(f->info, kernelParams, extra, buf);
    if (r == CUDA_SUCCESS) {
        cb_launch_config cfg;
        memset(&cfg, 0, sizeof cfg);
        memcpy(cfg.grid, grid, sizeof cfg.grid);
        memcpy(cfg.block, block, sizeof cfg.block);
        cfg.dynamic_smem = smem;
        cfg.params = buf;
        cfg.param_bytes = f->info->param_bytes;
        cfg.cooperative = cooperative != 0;
        if (cluster)
            memcpy(cfg.cluster, cluster, sizeof cfg.cluster);
        if (per_thread && h == NULL)
            h = CU_STREAM_PER_THREAD;
        r = cb_launch_submit(ctx, h, f, &cfg);
    }
    if (buf != small)
        free(buf);
    return r;
}

CB_EXPORT CUresult cuLaunchKernel(CUfunction f, unsigned int gridDimX, unsigned int gridDimY, unsigned int gridDimZ,
                                  unsigned int blockDimX, unsigned int blockDimY, unsigned int blockDimZ,
                                  unsigned int sharedMemBytes, CUstream hStream, void **kernelParams, void **extra)
{
    const uint32_t grid[3] = {gridDimX, gridDimY, gridDimZ}, block[3] = {blockDimX, blockDimY, blockDimZ};
    return launch(f, grid, block, sharedMemBytes, hStream, kernelParams, extra, 0, 0, NULL);
}

CB_EXPORT CUresult cuLaunchKernel_ptsz(CUfunction f, unsigned int gridDimX, unsigned int gridDimY,
                                       unsigned int gridDimZ, unsigned int blockDimX, unsigned int blockDimY,
                                       unsigned int blockDimZ, unsigned int sharedMemBytes, CUstream hStream,
                                       void **kernelParams, void **extra)
{
    const uint32_t grid[3] = {gridDimX, gridDimY, gridDimZ}, block[3] = {blockDimX, blockDimY, blockDimZ};
    return launch(f, grid, block, sharedMemBytes, hStream, kernelParams, extra, 1, 0, NULL);
}

/* An event that a launch attribute asks to be recorded with the launch
 * (PROGRAMMATIC_EVENT, LAUNCH_COMPLETION_EVENT): it must be a live event
 * made with CU_EVENT_DISABLE_TIMING, its flags 0. An event with timing is
 * NOT_SUPPORTED, as the H200 answers (driver 580); other flags are
 * INVALID_VALUE. Such an event triggers
 * once every block has triggered it (or, for the completion event, has
 * begun); the CPU backend records it when the kernel has completed, which
 * CUDA allows ("may only observe the event trigger long after the kernel
 * has completed"), so it is recorded on the stream right after the launch. */
static CUresult launch_event(CUevent ev, int flags, CUevent *out)
{
    if (!cb_event_valid(ev))
        return CUDA_ERROR_INVALID_HANDLE;
    if (!(((cb_event *)ev)->flags & CU_EVENT_DISABLE_TIMING))
        return CUDA_ERROR_NOT_SUPPORTED;
    if (flags != 0)
        return CUDA_ERROR_INVALID_VALUE;
    *out = ev;
    return CUDA_SUCCESS;
}

/* Checks one launch attribute: accepted (hints the CPU backend may
 * ignore without changing results) or refused with a reason. Sets
 * *cooperative for CU_LAUNCH_ATTRIBUTE_COOPERATIVE and events[] for the
 * events to record with the launch. */
static CUresult launch_attribute(const CUlaunchAttribute *a, int *cooperative, CUevent events[2], uint32_t cluster[3])
{
    switch (a->id) {
    case CU_LAUNCH_ATTRIBUTE_IGNORE:
    case CU_LAUNCH_ATTRIBUTE_ACCESS_POLICY_WINDOW:
    case CU_LAUNCH_ATTRIBUTE_SYNCHRONIZATION_POLICY:
    case CU_LAUNCH_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE:
    case CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION: /* permission to overlap; serial is valid */
    case CU_LAUNCH_ATTRIBUTE_PRIORITY:
    case CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN_MAP:
    case CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN:
    case CU_LAUNCH_ATTRIBUTE_PREFERRED_CLUSTER_DIMENSION:
    case CU_LAUNCH_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT:
        return CUDA_SUCCESS;
    case CU_LAUNCH_ATTRIBUTE_COOPERATIVE:
        *cooperative = a->value.cooperative != 0;
        return CUDA_SUCCESS;
    case CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION:   /* checked against the grid with the launch (launch.c) */
        if (a->value.clusterDim.x == 0 || a->value.clusterDim.y == 0 || a->value.clusterDim.z == 0)
            return CUDA_ERROR_INVALID_CLUSTER_SIZE;
        cluster[0] = a->value.clusterDim.x;
        cluster[1] = a->value.clusterDim.y;
        cluster[2] = a->value.clusterDim.z;
        return CUDA_SUCCESS;
    case CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_EVENT:
        return launch_event(a->value.programmaticEvent.event, a->value.programmaticEvent.flags, &events[0]);
    case CU_LAUNCH_ATTRIBUTE_LAUNCH_COMPLETION_EVENT:
        return launch_event(a->value.launchCompletionEvent.event, a->value.launchCompletionEvent.flags, &events[1]);
    case CU_LAUNCH_ATTRIBUTE_DEVICE_UPDATABLE_KERNEL_NODE:
        return cb_driver_not_supported("cuLaunchKernelEx(DEVICE_UPDATABLE_KERNEL_NODE)",
                                       "device-updatable graph kernel nodes are not supported");
    default:
        return cb_driver_not_supported("cuLaunchKernelEx(attribute)", "this launch attribute is not supported");
    }
}

static CUresult launch_ex(const CUlaunchConfig *config, CUfunction f, void **kernelParams, void **extra,
                          int per_thread)
{
    CB_REQUIRE_INIT();
    if (!config || (config->numAttrs > 0 && !config->attrs))
        return CUDA_ERROR_INVALID_VALUE;
    int cooperative = 0;
    CUevent events[2] = {NULL, NULL};
    uint32_t cluster[3] = {0, 0, 0};
    for (unsigned i = 0; i < config->numAttrs; i++) {
        CUresult r = launch_attribute(&config->attrs[i], &cooperative, events, cluster);
        if (r != CUDA_SUCCESS)
            return r;
    }
    const uint32_t grid[3] = {config->gridDimX, config->gridDimY, config->gridDimZ};
    const uint32_t block[3] = {config->blockDimX, config->blockDimY, config->blockDimZ};
    CUresult r = launch(f, grid, block, config->sharedMemBytes, config->hStream, kernelParams, extra, per_thread,
                        cooperative, cluster);
    for (int i = 0; i < 2 && r == CUDA_SUCCESS; i++)
        if (events[i])
            r = per_thread ? cuEventRecord_ptsz(events[i], config->hStream) : cuEventRecord(events[i], config->hStream);
    return r;
}

CB_EXPORT CUresult cuLaunchKernelEx(const CUlaunchConfig *config, CUfunction f, void **kernelParams, void **extra)
{
    return launch_ex(config, f, kernelParams, extra, 0);
}

CB_EXPORT CUresult cuLaunchKernelEx_ptsz(const CUlaunchConfig *config, CUfunction f, void **kernelParams,
                                         void **extra)
{
    return launch_ex(config, f, kernelParams, extra, 1);
}

CB_EXPORT CUresult cuLaunchCooperativeKernel(CUfunction f, unsigned int gridDimX, unsigned int gridDimY,
                                             unsigned int gridDimZ, unsigned int blockDimX, unsigned int blockDimY,
                                             unsigned int blockDimZ, unsigned int sharedMemBytes, CUstream hStream,
                                             void **kernelParams)
{
    const uint32_t grid[3] = {gridDimX, gridDimY, gridDimZ}, block[3] = {blockDimX, blockDimY, blockDimZ};
    return launch(f, grid, block, sharedMemBytes, hStream, kernelParams, NULL, 0, 1, NULL);
}

CB_EXPORT CUresult cuLaunchCooperativeKernel_ptsz(CUfunction f, unsigned int gridDimX, unsigned int gridDimY,
                                                  unsigned int gridDimZ, unsigned int blockDimX,
                                                  unsigned int blockDimY, unsigned int blockDimZ,
                                                  unsigned int sharedMemBytes, CUstream hStream, void **kernelParams)
{
    const uint32_t grid[3] = {gridDimX, gridDimY, gridDimZ}, block[3] = {blockDimX, blockDimY, blockDimZ};
    return launch(f, grid, block, sharedMemBytes, hStream, kernelParams, NULL, 1, 1, NULL);
}

/* Deprecated (CUDA 11.3+). One device is all cubridge has: a list of one
 * launch is a cooperative launch on its stream, which must be a created
 * one, as CUDA requires (with one stream, the pre- and post-launch
 * synchronisation flags change nothing). */
CB_EXPORT CUresult cuLaunchCooperativeKernelMultiDevice(CUDA_LAUNCH_PARAMS *launchParamsList, unsigned int numDevices,
                                                        unsigned int flags)
{
    CB_REQUIRE_INIT();
    const unsigned known = CUDA_COOPERATIVE_LAUNCH_MULTI_DEVICE_NO_PRE_LAUNCH_SYNC |
                           CUDA_COOPERATIVE_LAUNCH_MULTI_DEVICE_NO_POST_LAUNCH_SYNC;
    if (!launchParamsList || numDevices == 0 || (flags & ~known))
        return CUDA_ERROR_INVALID_VALUE;
    if (numDevices > 1)
        return cb_driver_not_supported("cuLaunchCooperativeKernelMultiDevice",
                                       "cooperative launches across several devices are not supported "
                                       "(a list of one launch is)");
    const CUDA_LAUNCH_PARAMS *p = &launchParamsList[0];
    if (p->hStream == NULL || p->hStream == CU_STREAM_LEGACY || p->hStream == CU_STREAM_PER_THREAD) {
        cb_log(CB_LOG_WARN, "cuLaunchCooperativeKernelMultiDevice: the stream must be one made by cuStreamCreate, "
                            "not a default stream");
        return CUDA_ERROR_INVALID_HANDLE;
    }
    const uint32_t grid[3] = {p->gridDimX, p->gridDimY, p->gridDimZ};
    const uint32_t block[3] = {p->blockDimX, p->blockDimY, p->blockDimZ};
    return launch(p->function, grid, block, p->sharedMemBytes, p->hStream, p->kernelParams, NULL, 0, 1, NULL);
}

/* ---- function attributes -------------------------------------------------------- */

CB_EXPORT CUresult cuFuncGetAttribute(int *pi, CUfunction_attribute attrib, CUfunction hfunc)
{
    CUresult r = func_handle(hfunc);
    if (r != CUDA_SUCCESS)
        return r;
    if (!pi)
        return CUDA_ERROR_INVALID_VALUE;
    const cb_kernel_info *k = hfunc->info;
    const cb_device *d = hfunc->module->ctx->device;
    switch (attrib) {
    case CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK: {
        int v = d->info.max_threads_per_block;
        if (k->maxntid[0]) {
            uint64_t n = (uint64_t)k->maxntid[0] * (k->maxntid[1] ? k->maxntid[1] : 1) *
                         (k->maxntid[2] ? k->maxntid[2] : 1);
            if (n < (uint64_t)v)
                v = (int)n;
        }
        *pi = v;
        break;
    }
    case CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES: *pi = (int)k->static_smem; break;
    case CU_FUNC_ATTRIBUTE_CONST_SIZE_BYTES: *pi = (int)cb_module_const_bytes(hfunc->module); break;
    case CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES: *pi = (int)k->local_bytes; break;
    case CU_FUNC_ATTRIBUTE_NUM_REGS: *pi = (int)cb_function_num_regs(hfunc); break;
    case CU_FUNC_ATTRIBUTE_PTX_VERSION:   /* the virtual architecture (75 for compute_75), not the ISA version */
        *pi = (int)(hfunc->module->tr->target_sm ? hfunc->module->tr->target_sm : hfunc->module->tr->ptx_version);
        break;
    case CU_FUNC_ATTRIBUTE_BINARY_VERSION: *pi = d->cc_major * 10 + d->cc_minor; break;
    case CU_FUNC_ATTRIBUTE_CACHE_MODE_CA: *pi = 0; break;
    case CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES: *pi = hfunc->max_dynamic_smem; break;
    case CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT: *pi = hfunc->preferred_carveout; break;
    case CU_FUNC_ATTRIBUTE_CLUSTER_SIZE_MUST_BE_SET: *pi = k->explicit_cluster; break;
    case CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_WIDTH:
    case CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_HEIGHT:
    case CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_DEPTH: {
        int i = attrib - CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_WIDTH;
        *pi = (int)(k->cluster_dims[0] ? k->cluster_dims[i] : hfunc->cluster_dims[i]);
        break;
    }
    case CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED: *pi = hfunc->cluster_nonportable; break;
    case CU_FUNC_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE: *pi = hfunc->cluster_policy; break;
    default:
        return CUDA_ERROR_INVALID_VALUE;
    }
    return CUDA_SUCCESS;
}

CB_EXPORT CUresult cuFuncSetAttribute(CUfunction hfunc, CUfunction_attribute attrib, int value)
{
    CUresult r = func_handle(hfunc);
    if (r != CUDA_SUCCESS)
        return r;
    const cb_device_info *in = &hfunc->module->ctx->device->info;
    switch (attrib) {
    case CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES:
        if (value < 0 || (int64_t)value + hfunc->info->static_smem > (int64_t)in->max_shared_per_block_optin)
            return CUDA_ERROR_INVALID_VALUE;
        hfunc->max_dynamic_smem = value;
        return CUDA_SUCCESS;
    case CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT:
        if (value < -1 || value > 100)
            return CUDA_ERROR_INVALID_VALUE;
        hfunc->preferred_carveout = value;
        return CUDA_SUCCESS;
    case CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_WIDTH:
    case CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_HEIGHT:
    case CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_DEPTH:
        /* a kernel with a compile-time cluster shape (__cluster_dims__) keeps it */
        if (value < 0 || value > 16 || hfunc->info->cluster_dims[0])
            return CUDA_ERROR_INVALID_VALUE;
        hfunc->cluster_dims[attrib - CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_WIDTH] = (uint32_t)value;
        return CUDA_SUCCESS;
    case CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED:
        if (value != 0 && value != 1)
            return CUDA_ERROR_INVALID_VALUE;
        hfunc->cluster_nonportable = value;
        return CUDA_SUCCESS;
    case CU_FUNC_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE:   /* a hint: all clusters run alike here */
        if (value < CU_CLUSTER_SCHEDULING_POLICY_DEFAULT || value > CU_CLUSTER_SCHEDULING_POLICY_LOAD_BALANCING)
            return CUDA_ERROR_INVALID_VALUE;
        hfunc->cluster_policy = value;
        return CUDA_SUCCESS;
    default:
        return CUDA_ERROR_INVALID_VALUE; /* read-only or unknown */
    }
}

CB_EXPORT CUresult cuFuncSetCacheConfig(CUfunction hfunc, CUfunc_cache config)
{
    CUresult r = func_handle(hfunc);
    if (r != CUDA_SUCCESS)
        return r;
    if (config < CU_FUNC_CACHE_PREFER_NONE || config > CU_FUNC_CACHE_PREFER_EQUAL)
        return CUDA_ERROR_INVALID_VALUE;
    return CUDA_SUCCESS; /* a preference; the CPU backend has no L1/shared split */
}

CB_EXPORT CUresult cuFuncSetSharedMemConfig(CUfunction hfunc, CUsharedconfig config)
{
    CUresult r = func_handle(hfunc);
    if (r != CUDA_SUCCESS)
        return r;
    if (config < CU_SHARED_MEM_CONFIG_DEFAULT_BANK_SIZE || config > CU_SHARED_MEM_CONFIG_EIGHT_BYTE_BANK_SIZE)
        return CUDA_ERROR_INVALID_VALUE;
    return CUDA_SUCCESS; /* bank width has no meaning on the CPU */
}

CB_EXPORT CUresult cuFuncGetName(const char **name, CUfunction hfunc)
{
    CB_REQUIRE_INIT();
    if (!name)
        return CUDA_ERROR_INVALID_VALUE;
    if (!cb_function_valid(hfunc))
        return CUDA_ERROR_INVALID_HANDLE;
    *name = hfunc->info->name;
    return CUDA_SUCCESS;
}

CB_EXPORT CUresult cuFuncGetModule(CUmodule *hmod, CUfunction hfunc)
{
    CUresult r = func_handle(hfunc);
    if (r != CUDA_SUCCESS)
        return r;
    if (!hmod)
        return CUDA_ERROR_INVALID_VALUE;
    *hmod = (CUmodule)(void *)hfunc->module;
    return CUDA_SUCCESS;
}

CB_EXPORT CUresult cuFuncIsLoaded(CUfunctionLoadingState *state, CUfunction function)
{
    CUresult r = func_handle(function);
    if (r != CUDA_SUCCESS)
        return r;
    if (!state)
        return CUDA_ERROR_INVALID_VALUE;
    *state = CU_FUNCTION_LOADING_STATE_LOADED;
    return CUDA_SUCCESS;
}

CB_EXPORT CUresult cuFuncLoad(CUfunction function)
{
    return func_handle(function); /* modules load eagerly */
}

CB_EXPORT CUresult cuFuncGetParamInfo(CUfunction func, size_t paramIndex, size_t *paramOffset, size_t *paramSize)
{
    CUresult r = func_handle(func);
    if (r != CUDA_SUCCESS)
        return r;
    if (paramIndex >= func->info->nparams)
        return CUDA_ERROR_INVALID_VALUE;
    if (paramOffset)
        *paramOffset = func->info->params[paramIndex].offset;
    if (paramSize)
        *paramSize = func->info->params[paramIndex].size;
    return CUDA_SUCCESS;
}

/* ---- occupancy ---------------------------------------------------------------- */

CB_EXPORT CUresult cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int *numBlocks, CUfunction func,
                                                                        int blockSize, size_t dynamicSMemSize,
                                                                        unsigned int flags)
{
    CUresult r = func_handle(func);
    if (r != CUDA_SUCCESS)
        return r;
    if (!numBlocks || blockSize <= 0 || (flags & ~(unsigned)CU_OCCUPANCY_DISABLE_CACHING_OVERRIDE))
        return CUDA_ERROR_INVALID_VALUE;
    *numBlocks = cb_occupancy_blocks_per_sm(func, blockSize, dynamicSMemSize);
    return CUDA_SUCCESS;
}

CB_EXPORT CUresult cuOccupancyMaxActiveBlocksPerMultiprocessor(int *numBlocks, CUfunction func, int blockSize,
                                                               size_t dynamicSMemSize)
{
    return cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(numBlocks, func, blockSize, dynamicSMemSize,
                                                                CU_OCCUPANCY_DEFAULT);
}

CB_EXPORT CUresult cuOccupancyMaxPotentialBlockSizeWithFlags(int *minGridSize, int *blockSize, CUfunction func,
                                                             CUoccupancyB2DSize blockSizeToDynamicSMemSize,
                                                             size_t dynamicSMemSize, int blockSizeLimit,
                                                             unsigned int flags)
{
    CUresult r = func_handle(func);
    if (r != CUDA_SUCCESS)
        return r;
    if (!minGridSize || !blockSize || blockSizeLimit < 0 ||
        (flags & ~(unsigned)CU_OCCUPANCY_DISABLE_CACHING_OVERRIDE))
        return CUDA_ERROR_INVALID_VALUE;
    int limit;
    cuFuncGetAttribute(&limit, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, func);
    if (blockSizeLimit > 0 && blockSizeLimit < limit)
        limit = blockSizeLimit;
    int best_size = 0, best_blocks = 0, best_threads = 0;
    for (int size = (limit + 31) / 32 * 32; size > 0; size -= 32) {
        int s = size > limit ? limit : size;
        size_t dyn = blockSizeToDynamicSMemSize ? blockSizeToDynamicSMemSize(s) : dynamicSMemSize;
        int blocks = cb_occupancy_blocks_per_sm(func, s, dyn);
        if (blocks * s > best_threads) {
            best_threads = blocks * s;
            best_size = s;
            best_blocks = blocks;
        }
    }
    *blockSize = best_size;
    *minGridSize = best_blocks * func->module->ctx->device->info.multiprocessors;
    return CUDA_SUCCESS;
}

CB_EXPORT CUresult cuOccupancyMaxPotentialBlockSize(int *minGridSize, int *blockSize, CUfunction func,
                                                    CUoccupancyB2DSize blockSizeToDynamicSMemSize,
                                                    size_t dynamicSMemSize, int blockSizeLimit)
{
    return cuOccupancyMaxPotentialBlockSizeWithFlags(minGridSize, blockSize, func, blockSizeToDynamicSMemSize,
                                                     dynamicSMemSize, blockSizeLimit, CU_OCCUPANCY_DEFAULT);
}

CB_EXPORT CUresult cuOccupancyAvailableDynamicSMemPerBlock(size_t *dynamicSmemSize, CUfunction func, int numBlocks,
                                                           int blockSize)
{
    CUresult r = func_handle(func);
    if (r != CUDA_SUCCESS)
        return r;
    if (!dynamicSmemSize || numBlocks <= 0 || blockSize <= 0)
        return CUDA_ERROR_INVALID_VALUE;
    *dynamicSmemSize = cb_occupancy_dynamic_smem(func, numBlocks, blockSize);
    return CUDA_SUCCESS;
}

/* Thread block clusters are not supported (CLUSTER_LAUNCH is 0), but a
 * cluster of one block is an ordinary block: with a cluster dimension of
 * 1x1x1 the answer is the number of blocks that can be resident at once,
 * the cooperative limit. The cluster dimension must be given (as CUDA
 * requires for a kernel without a compile-time cluster size). */
CB_EXPORT CUresult cuOccupancyMaxActiveClusters(int *numClusters, CUfunction func, const CUlaunchConfig *config)
{
    CUresult r = func_handle(func);
    if (r != CUDA_SUCCESS)
        return r;
    if (!numClusters || !config || (config->numAttrs > 0 && !config->attrs))
        return CUDA_ERROR_INVALID_VALUE;
    const CUlaunchAttribute *cluster = NULL;
    for (unsigned i = 0; i < config->numAttrs; i++)
        if (config->attrs[i].id == CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION)
            cluster = &config->attrs[i];
    if (!cluster)
        return CUDA_ERROR_INVALID_VALUE;
    uint64_t blocks = (uint64_t)cluster->value.clusterDim.x * cluster->value.clusterDim.y * cluster->value.clusterDim.z;
    if (blocks == 0)
        return CUDA_ERROR_INVALID_VALUE;
    if (blocks != 1)
        return cb_driver_not_supported("cuOccupancyMaxActiveClusters(cluster of several blocks)",
                                       "thread block clusters are not supported");
    uint64_t threads = (uint64_t)config->blockDimX * config->blockDimY * config->blockDimZ;
    if (threads == 0 || threads > (uint64_t)func->module->ctx->device->info.max_threads_per_block)
        return CUDA_ERROR_INVALID_VALUE;
    *numClusters = (int)cb_cooperative_max_blocks(func, (uint32_t)threads, config->sharedMemBytes);
    return CUDA_SUCCESS;
}
