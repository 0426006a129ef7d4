/* launch.c: packing, validating, submitting and executing kernel launches. */
#include <stdlib.h>
#include <string.h>

#include "core/device.h"
#include "core/launch.h"
#include "core/module.h"
#include "core/stats.h"
#include "platform/sysinfo.h"

CUresult cb_launch_pack_params(const cb_kernel_info *k, void **kernelParams, void **extra, unsigned char *buf)
{
    if (kernelParams && extra) {
        cb_log(CB_LOG_WARN, "launch of %s: both kernelParams and extra given", k->name);
        return CUDA_ERROR_INVALID_VALUE;
    }
    if (extra) {
        const void *ptr = NULL;
        size_t size = 0, *psize = NULL;
        for (size_t i = 0; extra[i] != CU_LAUNCH_PARAM_END; i += 2) {
            if (extra[i] == CU_LAUNCH_PARAM_BUFFER_POINTER) {
                ptr = extra[i + 1];
            } else if (extra[i] == CU_LAUNCH_PARAM_BUFFER_SIZE) {
                psize = (size_t *)extra[i + 1];
            } else {
                cb_log(CB_LOG_WARN, "launch of %s: unknown `extra` option %p", k->name, extra[i]);
                return CUDA_ERROR_INVALID_VALUE;
            }
        }
        if (psize)
            size = *psize;
        if ((!ptr || !psize) && k->param_bytes) {
            cb_log(CB_LOG_WARN, "launch of %s: `extra` lacks CU_LAUNCH_PARAM_BUFFER_POINTER or _SIZE", k->name);
            return CUDA_ERROR_INVALID_VALUE;
        }
        if (size < k->param_bytes) {
            cb_log(CB_LOG_WARN, "launch of %s: parameter buffer of %zu bytes, the kernel takes %u", k->name, size,
                   k->param_bytes);
            return CUDA_ERROR_INVALID_VALUE;
        }
        /* Larger than the kernel's parameters: as the driver does on an
         * H200 (docs/reliability.md), beyond the 32764-byte parameter limit
         * is an invalid value, below it a launch out of resources. */
        if (size > k->param_bytes) {
            cb_log(CB_LOG_WARN, "launch of %s: parameter buffer of %zu bytes, the kernel takes %u", k->name, size,
                   k->param_bytes);
            return size >= 32768 ? CUDA_ERROR_INVALID_VALUE : CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES;
        }
        if (k->param_bytes)
            memcpy(buf, ptr, k->param_bytes);
        return CUDA_SUCCESS;
    }
    if (k->nparams == 0)
        return CUDA_SUCCESS;
    if (!kernelParams) {
        cb_log(CB_LOG_WARN, "launch of %s: no kernelParams for its %u parameters", k->name, k->nparams);
        return CUDA_ERROR_INVALID_VALUE;
    }
    memset(buf, 0, k->param_bytes);
    for (uint32_t i = 0; i < k->nparams; i++) {
        if (!kernelParams[i]) {
            cb_log(CB_LOG_WARN, "launch of %s: kernelParams[%u] is NULL", k->name, i);
            return CUDA_ERROR_INVALID_VALUE;
        }
        memcpy(buf + k->params[i].offset, kernelParams[i], k->params[i].size);
    }
    return CUDA_SUCCESS;
}

int cb_function_smem_limit(const cb_function *f)
{
    return (int)f->info->static_smem + f->max_dynamic_smem;
}

/* The thread limit of kernel k: .reqntid or .maxntid when present, else the device's. */
static uint64_t kernel_max_threads(const cb_kernel_info *k, int device_max)
{
    if (k->maxntid[0]) {
        uint64_t n = (uint64_t)k->maxntid[0] * (k->maxntid[1] ? k->maxntid[1] : 1) *
                     (k->maxntid[2] ? k->maxntid[2] : 1);
        return n < (uint64_t)device_max ? n : (uint64_t)device_max;
    }
    return (uint64_t)device_max;
}

static uint64_t launch_max_threads(const cb_function *f, int device_max)
{
    return kernel_max_threads(f->info, device_max);
}

void cb_launch_cluster_shape(const cb_function *f, const cb_launch_config *cfg, uint32_t out[3])
{
    const uint32_t *src = cfg->cluster[0] ? cfg->cluster : f->info->cluster_dims[0] ? f->info->cluster_dims
                          : f->cluster_dims;
    for (int i = 0; i < 3; i++)
        out[i] = src[0] ? (src[i] ? src[i] : 1) : 0;
}

/* Answers NOT_SUPPORTED for a launch cubridge cannot run, counted as an unsupported call. */
static CUresult launch_not_supported(const char *name, const char *why)
{
    if (cb_stats_unsupported(name))
        cb_log(CB_LOG_WARN, "%s: %s", name, why);
    return CUDA_ERROR_NOT_SUPPORTED;
}

/* Clusters (sm_90): a shape that divides the grid, of at most 8 blocks (16
 * when the kernel allows non-portable sizes), on a device that reports
 * compute capability 9.0 or more; not with a cooperative launch. */
static CUresult validate_cluster(const cb_function *f, const cb_launch_config *cfg)
{
    const cb_kernel_info *k = f->info;
    uint32_t c[3];
    cb_launch_cluster_shape(f, cfg, c);
    if (!c[0]) {
        if (!k->explicit_cluster)
            return CUDA_SUCCESS;
        cb_log(CB_LOG_WARN, "launch of %s: the kernel must be launched with a cluster shape (.explicitcluster)",
               k->name);
        return CUDA_ERROR_INVALID_CLUSTER_SIZE;
    }
    if (f->module->ctx->device->cc_major < 9)
        return launch_not_supported("launch with a thread block cluster",
                                            "clusters need compute capability 9.0 (set CUBRIDGE_SM=90)");
    uint64_t n = (uint64_t)c[0] * c[1] * c[2];
    int mismatch = cfg->cluster[0] && k->cluster_dims[0] &&
                   (cfg->cluster[0] != k->cluster_dims[0] || (cfg->cluster[1] ? cfg->cluster[1] : 1) != k->cluster_dims[1] ||
                    (cfg->cluster[2] ? cfg->cluster[2] : 1) != k->cluster_dims[2]);
    if (mismatch || cfg->grid[0] % c[0] || cfg->grid[1] % c[1] || cfg->grid[2] % c[2] ||
        n > (f->cluster_nonportable ? 16u : 8u) || (k->max_cluster_rank && n > k->max_cluster_rank)) {
        cb_log(CB_LOG_WARN,
               "launch of %s: cluster (%u,%u,%u) does not fit: it must divide the grid (%u,%u,%u), hold at most %u "
               "blocks%s and match the kernel's own cluster shape",
               k->name, c[0], c[1], c[2], cfg->grid[0], cfg->grid[1], cfg->grid[2], f->cluster_nonportable ? 16u : 8u,
               f->cluster_nonportable ? "" : " (16 with CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED)");
        return CUDA_ERROR_INVALID_CLUSTER_SIZE;
    }
    if (cfg->cooperative)
        return launch_not_supported("cooperative launch with a thread block cluster",
                                            "a cooperative launch cannot also have a cluster shape here");
    return CUDA_SUCCESS;
}

CUresult cb_launch_validate(const cb_function *f, const cb_launch_config *cfg)
{
    if (f->module->unavailable) {
        cb_log(CB_LOG_WARN, "launch of a kernel of %s: refused, the image has no code this device can run "
                            "(the error logged when it loaded says why)", cb_module_name(f->module));
        return f->module->unavailable;
    }
    const cb_kernel_info *k = f->info;
    const cb_device_info *in = &f->module->ctx->device->info;
    static const uint32_t max_grid[3] = {CB_MAX_GRID_DIM_X, CB_MAX_GRID_DIM_Y, CB_MAX_GRID_DIM_Z};
    static const uint32_t max_block[3] = {CB_MAX_BLOCK_DIM_X, CB_MAX_BLOCK_DIM_Y, CB_MAX_BLOCK_DIM_Z};
    for (int i = 0; i < 3; i++) {
        if (cfg->grid[i] == 0 || cfg->grid[i] > max_grid[i] || cfg->block[i] == 0 || cfg->block[i] > max_block[i]) {
            cb_log(CB_LOG_WARN, "launch of %s: grid (%u,%u,%u) block (%u,%u,%u) is out of range", k->name,
                   cfg->grid[0], cfg->grid[1], cfg->grid[2], cfg->block[0], cfg->block[1], cfg->block[2]);
            return CUDA_ERROR_INVALID_VALUE;
        }
    }
    uint64_t threads = (uint64_t)cfg->block[0] * cfg->block[1] * cfg->block[2];
    uint64_t limit = launch_max_threads(f, in->max_threads_per_block);
    if (threads > limit) {
        cb_log(CB_LOG_WARN, "launch of %s: %llu threads per block, the limit is %llu", k->name,
               (unsigned long long)threads, (unsigned long long)limit);
        return CUDA_ERROR_INVALID_VALUE;
    }
    if (k->reqntid[0] && (cfg->block[0] != k->reqntid[0] || cfg->block[1] != (k->reqntid[1] ? k->reqntid[1] : 1) ||
                          cfg->block[2] != (k->reqntid[2] ? k->reqntid[2] : 1))) {
        cb_log(CB_LOG_WARN, "launch of %s: block (%u,%u,%u) differs from its .reqntid", k->name, cfg->block[0],
               cfg->block[1], cfg->block[2]);
        return CUDA_ERROR_INVALID_VALUE;
    }
    if (cfg->dynamic_smem > (uint32_t)f->max_dynamic_smem) {
        cb_log(CB_LOG_ERROR,
               "launch of %s: %u bytes of dynamic shared memory, the limit is %d "
               "(raise it with CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, up to %d in all)",
               k->name, cfg->dynamic_smem, f->max_dynamic_smem, in->max_shared_per_block_optin);
        return CUDA_ERROR_INVALID_VALUE;
    }
    return validate_cluster(f, cfg);
}

uint64_t cb_cooperative_max_blocks(const cb_function *f, uint32_t block_threads, uint32_t dyn_smem)
{
    int per_sm = cb_occupancy_blocks_per_sm(f, (int)block_threads, dyn_smem);
    return (uint64_t)(per_sm > 0 ? per_sm : 0) * (uint64_t)f->module->ctx->device->info.multiprocessors;
}

CUresult cb_launch_check_cooperative(const cb_function *f, const cb_launch_config *cfg)
{
    uint64_t threads = (uint64_t)cfg->block[0] * cfg->block[1] * cfg->block[2];
    uint64_t blocks = (uint64_t)cfg->grid[0] * cfg->grid[1] * cfg->grid[2];
    uint64_t max = cb_cooperative_max_blocks(f, (uint32_t)threads, cfg->dynamic_smem);
    if (blocks <= max)
        return CUDA_SUCCESS;
    cb_log(CB_LOG_WARN,
           "cooperative launch of %s: %llu blocks, but at most %llu can be resident at once (%d per multiprocessor "
           "x %d multiprocessors at %llu threads and %u bytes of dynamic shared memory per block)",
           f->info->name, (unsigned long long)blocks, (unsigned long long)max,
           cb_occupancy_blocks_per_sm(f, (int)threads, cfg->dynamic_smem), f->module->ctx->device->info.multiprocessors,
           (unsigned long long)threads, cfg->dynamic_smem);
    return CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE;
}

CUresult cb_launch_submit(cb_context *ctx, CUstream h, cb_function *f, const cb_launch_config *cfg)
{
    if (f->module->ctx != ctx) {
        cb_log(CB_LOG_WARN, "launch of %s: the kernel belongs to another context", f->info->name);
        return CUDA_ERROR_INVALID_HANDLE;
    }
    CUresult r = cb_launch_validate(f, cfg);
    if (r == CUDA_SUCCESS && cfg->cooperative)
        r = cb_launch_check_cooperative(f, cfg);
    if (r != CUDA_SUCCESS)
        return r;
    struct cb_stream *s;
    r = cb_stream_resolve(h, ctx, &s);
    if (r != CUDA_SUCCESS)
        return r;
    return cb_stream_launch(s, f, cfg);
}

/* Errors that CUDA makes sticky on the context: the kernel faulted. */
static int launch_error_is_sticky(CUresult r)
{
    switch (r) {
    case CUDA_ERROR_ILLEGAL_ADDRESS:
    case CUDA_ERROR_LAUNCH_TIMEOUT:
    case CUDA_ERROR_ASSERT:
    case CUDA_ERROR_HARDWARE_STACK_ERROR:
    case CUDA_ERROR_ILLEGAL_INSTRUCTION:
    case CUDA_ERROR_MISALIGNED_ADDRESS:
    case CUDA_ERROR_INVALID_ADDRESS_SPACE:
    case CUDA_ERROR_INVALID_PC:
    case CUDA_ERROR_LAUNCH_FAILED:
        return 1;
    default:
        return 0;
    }
}

/* Tiered builds: a kernel whose launches have taken this long in all, and
 * at least as long as its first build took (cb_function.build_ns: the
 * break-even rule of renting and buying), is built again with its lanes
 * entry (CUBRIDGE_TIER_MS, default 50 ms; 0: at its second launch, whatever
 * its build took). One build of one kernel costs 0.01 to 1 s of the host
 * compiler (thrust's, CUB's: up to seconds); under load, thrust_algorithms
 * rebuilt 84 of its kernels on the 50 ms rule alone. */
static uint64_t launch_hot_ns(void)
{
    static _Atomic int64_t hot = -1;
    int64_t v = atomic_load_explicit(&hot, memory_order_relaxed);
    if (v < 0) {
        const char *s = getenv("CUBRIDGE_TIER_MS");
        char *end = NULL;
        long ms = s && *s ? strtol(s, &end, 10) : 50;
        if (s && *s && (*end || ms < 0)) {
            cb_log(CB_LOG_WARN, "CUBRIDGE_TIER_MS=%s is not a number of milliseconds: 50", s);
            ms = 50;
        }
        v = (int64_t)ms * 1000000;
        atomic_store_explicit(&hot, v, memory_order_relaxed);
    }
    return (uint64_t)v;
}

CUresult cb_function_execute(cb_function *f, const cb_launch_config *cfg, cb_launch_error *err)
{
    cb_module *m = f->module;
    cb_backend *b = m->ctx->device->backend;
    cb_launch_error local;
    if (!err)
        err = &local;
    memset(err, 0, sizeof *err);
    cb_stats_add(CB_STAT_LAUNCHES, 1);
    cb_launch_config with_cluster;   /* the backend sees the shape the kernel itself may give */
    if (!cfg->cluster[0] && (f->info->cluster_dims[0] || f->cluster_dims[0])) {
        with_cluster = *cfg;
        cb_launch_cluster_shape(f, cfg, with_cluster.cluster);
        cfg = &with_cluster;
    }
    int tiered = b->lanes == CB_LANES_HOT && !atomic_load_explicit(&f->hot, memory_order_relaxed);
    void *bmod;
    uint32_t bkernel;
    cb_function_target(f, &bmod, &bkernel);
    uint64_t t0 = tiered ? cb_sys_monotonic_ns() : 0;
    CUresult r = b->launch(b, bmod, bkernel, cfg, err);
    /* the launch that makes a kernel hot rebuilds it as it ends: the next runs the new build */
    if (tiered && r == CUDA_SUCCESS) {
        uint64_t dt = cb_sys_monotonic_ns() - t0;
        uint64_t ran = atomic_fetch_add_explicit(&f->run_ns, dt ? dt : 1, memory_order_relaxed) + (dt ? dt : 1);
        uint64_t hot = launch_hot_ns();
        if (ran >= hot && (hot == 0 || ran >= f->build_ns))
            cb_function_promote(f, cfg->block);
    }
    if (err->warnings) {
        cb_stats_add(CB_STAT_LAUNCH_WARNINGS, 1);
        cb_log(CB_LOG_INFO, "kernel %s: warning: %s; %u warp collective(s) of this launch named exited lanes",
               f->info->name, err->warning, err->warnings);
    }
    if (r == CUDA_SUCCESS)
        return CUDA_SUCCESS;
    err->result = r;
    cb_stats_add(CB_STAT_FAULTS, 1);
    cb_launch_explain(f->info->name, err);
    cb_log(CB_LOG_ERROR, "%s", err->message);
    if (launch_error_is_sticky(r))
        cb_ctx_set_sticky(m->ctx, r);
    return r;
}

/* ---- occupancy ---------------------------------------------------------- */

uint32_t cb_kernel_num_regs(const cb_kernel_info *k, int device_max_threads)
{
    /* The translator counts PTX virtual registers, which stand for what
     * ptxas would allocate but run far above it. A real kernel always fits
     * its largest block in the register file (ptxas keeps registers x
     * threads within it, spilling if need be), so the count reported is
     * capped there, in steps of 8 as registers are allocated: 64 for a
     * kernel of up to 1024 threads, 255 for one of .maxntid 256. */
    uint64_t threads = kernel_max_threads(k, device_max_threads);
    uint64_t warp_threads = (threads + 31) / 32 * 32;
    uint64_t cap = CB_REGS_PER_BLOCK / (warp_threads ? warp_threads : 32);
    cap = cap >= 255 ? 255 : cap / 8 * 8;
    uint32_t regs = k->num_regs;
    return regs < cap ? regs : (uint32_t)cap;
}

uint32_t cb_function_num_regs(const cb_function *f)
{
    return cb_kernel_num_regs(f->info, f->module->ctx->device->info.max_threads_per_block);
}

int cb_occupancy_blocks_per_sm(const cb_function *f, int block_size, size_t dyn_smem)
{
    const cb_device_info *in = &f->module->ctx->device->info;
    if (block_size <= 0 || (uint64_t)block_size > launch_max_threads(f, in->max_threads_per_block))
        return 0;
    size_t smem = f->info->static_smem + dyn_smem;
    if (smem > (size_t)cb_function_smem_limit(f) && dyn_smem > 0)
        return 0;
    int warp = in->warp_size > 0 ? in->warp_size : 32;
    int warps_threads = (block_size + warp - 1) / warp * warp;
    int blocks = CB_MAX_THREADS_PER_SM / warps_threads;
    if (blocks > CB_MAX_BLOCKS_PER_SM)
        blocks = CB_MAX_BLOCKS_PER_SM;
    if (smem > 0) {
        size_t by_smem = (size_t)in->max_shared_per_multiprocessor / smem;
        if (by_smem < (size_t)blocks)
            blocks = (int)by_smem;
    }
    uint32_t regs = cb_function_num_regs(f);
    if (regs > 0) {
        uint64_t per_block = (uint64_t)regs * (uint64_t)warps_threads;
        uint64_t by_regs = CB_REGS_PER_SM / per_block;
        if (by_regs < (uint64_t)blocks)
            blocks = (int)by_regs;
    }
    return blocks;
}

size_t cb_occupancy_dynamic_smem(const cb_function *f, int num_blocks, int block_size)
{
    const cb_device_info *in = &f->module->ctx->device->info;
    if (num_blocks <= 0 || block_size <= 0)
        return 0;
    if (cb_occupancy_blocks_per_sm(f, block_size, 0) < num_blocks)
        return 0;
    /* As NVIDIA's occupancy calculator (cuda_occupancy.h) does: the SM's
     * shared memory split between the blocks, within the kernel's current
     * per-block limit (static + CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES),
     * so that a launch with the answer is always accepted. */
    size_t per_block = (size_t)in->max_shared_per_multiprocessor / (size_t)num_blocks;
    size_t limit = (size_t)cb_function_smem_limit(f);
    if (per_block > limit)
        per_block = limit;
    return per_block > f->info->static_smem ? per_block - f->info->static_smem : 0;
}
