/* checked_launch.c: in verify mode, each launch through the pass-through
 * (cuLaunchKernel, cuLaunchKernelEx and their _ptsz forms) is a differential
 * check of the real GPU against cubridge's CPU reference:
 *   1. the kernel handle names a captured image and kernel (track.c);
 *      cubridge translates that image for the reference on first use;
 *   2. the arguments are packed in the translation's parameter layout, and
 *      the real module variables copied into the CPU module's;
 *   3. the inspector (cb_inspect_run) does the rest through a cb_backend
 *      whose copies are the real cuMemcpyDtoH/HtoD and whose launch is the
 *      real launch followed by cuCtxSynchronize: snapshots of the tracked
 *      allocations the parameters reach, the real launch, the reference on
 *      the reference backend (by name, "cpu") over copies, comparison,
 *      report.
 * A launch that cannot be checked still runs, unchanged, and is recorded
 * as SKIPPED with the reason. Outside verify mode the launch entry points
 * (also cuLaunchCooperativeKernel) are only counted, for the exit summary.
 */
#include "passthrough/passthrough_internal.h"

#include <stdio.h>
#include <string.h>

#include "core/launch.h"
#include "inspect/inspect.h"

/* One real launch, as the program asked for it. */
typedef struct real_launch {
    int id;                       /* export: cuLaunchKernel, ..._ptsz, cuLaunchKernelEx, ..._ptsz */
    CUfunction f;
    unsigned grid[3], block[3], smem;
    CUstream stream;
    void **params, **extra;
    const CUlaunchConfig *config; /* Ex forms */
} real_launch;

/* The real device as a cb_backend, for the duration of one launch. */
typedef struct pt_backend {
    cb_backend base;
    const real_launch *L;
    CUresult launched;            /* what the real launch call answered */
    CUresult ran;                 /* what the synchronisation after it answered */
} pt_backend;

static CUresult real_run(const real_launch *L)
{
    switch (L->id) {
    case CB_EXP_cuLaunchKernel:
        return CBC_REAL(cuLaunchKernel)(L->f, L->grid[0], L->grid[1], L->grid[2], L->block[0], L->block[1],
                                        L->block[2], L->smem, L->stream, L->params, L->extra);
    case CB_EXP_cuLaunchKernel_ptsz:
        return CBC_REAL(cuLaunchKernel_ptsz)(L->f, L->grid[0], L->grid[1], L->grid[2], L->block[0], L->block[1],
                                             L->block[2], L->smem, L->stream, L->params, L->extra);
    case CB_EXP_cuLaunchKernelEx:
        return CBC_REAL(cuLaunchKernelEx)(L->config, L->f, L->params, L->extra);
    default:
        return CBC_REAL(cuLaunchKernelEx_ptsz)(L->config, L->f, L->params, L->extra);
    }
}

static CUresult pt_launch(cb_backend *self, void *module, uint32_t kernel, const cb_launch_config *cfg,
                          cb_launch_error *err)
{
    (void)module, (void)kernel, (void)cfg;
    pt_backend *be = (pt_backend *)self;
    const real_launch *L = be->L;
    CUresult r = be->launched = real_run(L);
    if (r == CUDA_SUCCESS)
        r = be->ran = CBC_REAL(cuCtxSynchronize)();
    if (r != CUDA_SUCCESS && err) {
        err->result = r;
        snprintf(err->message, sizeof err->message,
                 be->launched != CUDA_SUCCESS ? "the real driver refused the launch: error %d"
                                              : "the kernel failed on the GPU: error %d at the synchronisation",
                 (int)r);
    }
    return r;
}

static CUresult pt_copy_dtoh(cb_backend *self, void *dst, uint64_t src, size_t bytes)
{
    (void)self;
    return CBC_REAL(cuMemcpyDtoH_v2)(dst, (CUdeviceptr)src, bytes);
}

static CUresult pt_copy_htod(cb_backend *self, uint64_t dst, const void *src, size_t bytes)
{
    (void)self;
    return CBC_REAL(cuMemcpyHtoD_v2)((CUdeviceptr)dst, src, bytes);
}

static CUresult pt_copy_dtod(cb_backend *self, uint64_t dst, uint64_t src, size_t bytes)
{
    (void)self;
    return CBC_REAL(cuMemcpyDtoD_v2)((CUdeviceptr)dst, (CUdeviceptr)src, bytes);
}

static CUresult pt_memset(cb_backend *self, uint64_t dst, uint32_t value, size_t elem_size, size_t count)
{
    (void)self, (void)dst, (void)value, (void)elem_size, (void)count;
    return CUDA_ERROR_NOT_SUPPORTED;   /* the inspector never fills */
}

static void pt_device_info(cb_backend *self, cb_device_info *out)
{
    (void)self;
    memset(out, 0, sizeof *out);
    CUdevice d = 0;
    if (CBC_REAL(cuCtxGetDevice)(&d) != CUDA_SUCCESS ||
        CBC_REAL(cuDeviceGetName)(out->name, (int)sizeof out->name, d) != CUDA_SUCCESS)
        snprintf(out->name, sizeof out->name, "NVIDIA GPU (name unavailable)");
    CBC_REAL(cuDeviceTotalMem_v2)(&out->total_mem, d);
}

static CUresult pt_module_load(cb_backend *self, const cb_translation *tr, const uint64_t *global_addrs,
                               void **module_out, char *err, size_t errlen)
{
    (void)self, (void)tr, (void)global_addrs, (void)module_out;
    snprintf(err, errlen, "the cuda backend loads modules through the real driver only");
    return CUDA_ERROR_NOT_SUPPORTED;
}

static void pt_module_unload(cb_backend *self, void *module) { (void)self, (void)module; }
static void pt_shutdown(cb_backend *self) { (void)self; }

static const cb_backend pt_vtable = {
    .name = "cuda",
    .device_info = pt_device_info,
    .copy_htod = pt_copy_htod,
    .copy_dtoh = pt_copy_dtoh,
    .copy_dtod = pt_copy_dtod,
    .memset = pt_memset,
    .module_load = pt_module_load,
    .module_unload = pt_module_unload,
    .launch = pt_launch,
    .shutdown = pt_shutdown,
};

static int pt_lookup(uint64_t addr, uint64_t *base, size_t *bytes)
{
    return cbc_alloc_find(addr, base, bytes);
}

/* The launch shape in cubridge's terms. */
static void launch_shape(const real_launch *L, cb_launch_config *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    if (L->config) {
        const CUlaunchConfig *c = L->config;
        cfg->grid[0] = c->gridDimX, cfg->grid[1] = c->gridDimY, cfg->grid[2] = c->gridDimZ;
        cfg->block[0] = c->blockDimX, cfg->block[1] = c->blockDimY, cfg->block[2] = c->blockDimZ;
        cfg->dynamic_smem = c->sharedMemBytes;
        for (unsigned i = 0; i < c->numAttrs && c->attrs; i++)
            if (c->attrs[i].id == CU_LAUNCH_ATTRIBUTE_COOPERATIVE && c->attrs[i].value.cooperative)
                cfg->cooperative = 1;
    } else {
        memcpy(cfg->grid, L->grid, sizeof cfg->grid);
        memcpy(cfg->block, L->block, sizeof cfg->block);
        cfg->dynamic_smem = L->smem;
    }
}

/* 1 if the launch's stream is capturing into a graph (or cannot tell):
 * the launch then only records a node, and nothing may synchronise. */
static int capturing(const real_launch *L)
{
    CUstreamCaptureStatus st = CU_STREAM_CAPTURE_STATUS_NONE;
    int ptsz = L->id == CB_EXP_cuLaunchKernel_ptsz || L->id == CB_EXP_cuLaunchKernelEx_ptsz;
    CUresult r = ptsz ? CBC_REAL(cuStreamIsCapturing_ptsz)(L->stream, &st)
                      : CBC_REAL(cuStreamIsCapturing)(L->stream, &st);
    return r != CUDA_SUCCESS || st != CU_STREAM_CAPTURE_STATUS_NONE;
}

static CUresult checked_launch(const real_launch *L)
{
    cb_launch_config cfg;
    launch_shape(L, &cfg);
    char note[200] = "";
    char name[256];
    cbc_kernel_name(L->f, name, sizeof name);
    if (capturing(L)) {
        CUresult r = real_run(L);
        cb_inspect_launch_skipped(name, &cfg, r,
                                  "the stream is capturing into a graph: not run now, not checked");
        return r;
    }
    /* earlier work must be done before the "before" snapshots */
    CUresult r = CBC_REAL(cuCtxSynchronize)();
    if (r != CUDA_SUCCESS)
        return r;
    cbc_reference ref;
    int known = cbc_reference_kernel(L->f, &ref, note, sizeof note) == 0;
    const cb_kernel_info *info = known ? &ref.tr->kernels[ref.kernel] : NULL;
    unsigned char params[CB_MAX_PARAM_BYTES];
    if (known && info->uses_textures) {
        snprintf(note, sizeof note,
                 "%s uses texture or surface objects: their handles are the GPU's, which the CPU reference "
                 "cannot read", info->name);
        known = 0;
    }
    if (known && cb_launch_pack_params(info, L->params, L->extra, params) != CUDA_SUCCESS) {
        snprintf(note, sizeof note, "cannot pack the arguments in the layout of %s", info->name);
        known = 0;
    }
    if (!known) {
        r = real_run(L);
        cb_inspect_launch_skipped(name, &cfg, r, note);
        return r;
    }
    cbc_globals_in(&ref);
    cfg.params = params;
    cfg.param_bytes = info->param_bytes;
    pt_backend be = {pt_vtable, L, CUDA_ERROR_UNKNOWN, CUDA_SUCCESS};
    cb_launch_error err;
    memset(&err, 0, sizeof err);
    cb_inspect_kernel k = {
        .tr = ref.tr,
        .kernel = ref.kernel,
        .device = &be.base,
        .lookup = pt_lookup,
        .reference = ref.reference,
    };
    r = cb_inspect_run(&k, &cfg, &err);
    /* A kernel that faulted on the GPU (an assert, a trap, a bad address)
     * was launched: the program sees the fault, sticky in the real context,
     * at its next synchronisation, as it would without the check. Strict
     * drift (CUDA_ERROR_LAUNCH_FAILED after a clean real run) fails the
     * launch itself. */
    if (r != CUDA_SUCCESS && be.launched == CUDA_SUCCESS &&
        (be.ran != CUDA_SUCCESS || r != CUDA_ERROR_LAUNCH_FAILED))
        return CUDA_SUCCESS;
    return r;
}

/* Process-wide: launches forwarded, and those the real driver refused. */
static uint64_t launches_forwarded, launches_refused;

static CUresult launch_counted(CUresult r)
{
    __atomic_add_fetch(&launches_forwarded, 1, __ATOMIC_RELAXED);
    if (r != CUDA_SUCCESS)
        __atomic_add_fetch(&launches_refused, 1, __ATOMIC_RELAXED);
    return r;
}

void cbc_launch_stats(uint64_t *launches, uint64_t *failed)
{
    *launches = __atomic_load_n(&launches_forwarded, __ATOMIC_RELAXED);
    *failed = __atomic_load_n(&launches_refused, __ATOMIC_RELAXED);
}

static CUresult cbc_cuLaunchKernel(CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,
                                   unsigned bz, unsigned smem, CUstream s, void **params, void **extra)
{
    real_launch L = {CB_EXP_cuLaunchKernel, f, {gx, gy, gz}, {bx, by, bz}, smem, s, params, extra, NULL};
    return launch_counted(checked_launch(&L));
}

static CUresult cbc_cuLaunchKernel_ptsz(CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx,
                                        unsigned by, unsigned bz, unsigned smem, CUstream s, void **params,
                                        void **extra)
{
    real_launch L = {CB_EXP_cuLaunchKernel_ptsz, f, {gx, gy, gz}, {bx, by, bz}, smem, s, params, extra, NULL};
    return launch_counted(checked_launch(&L));
}

static CUresult cbc_cuLaunchKernelEx(const CUlaunchConfig *config, CUfunction f, void **params, void **extra)
{
    if (!config)
        return launch_counted(CBC_REAL(cuLaunchKernelEx)(config, f, params, extra));
    real_launch L = {CB_EXP_cuLaunchKernelEx, f, {0}, {0}, 0, config->hStream, params, extra, config};
    return launch_counted(checked_launch(&L));
}

static CUresult cbc_cuLaunchKernelEx_ptsz(const CUlaunchConfig *config, CUfunction f, void **params, void **extra)
{
    if (!config)
        return launch_counted(CBC_REAL(cuLaunchKernelEx_ptsz)(config, f, params, extra));
    real_launch L = {CB_EXP_cuLaunchKernelEx_ptsz, f, {0}, {0}, 0, config->hStream, params, extra, config};
    return launch_counted(checked_launch(&L));
}

/* Counted only (outside verify mode, and the cooperative forms always). */
static CUresult cnt_cuLaunchKernel(CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,
                                   unsigned bz, unsigned smem, CUstream s, void **params, void **extra)
{
    return launch_counted(CBC_REAL(cuLaunchKernel)(f, gx, gy, gz, bx, by, bz, smem, s, params, extra));
}

static CUresult cnt_cuLaunchKernel_ptsz(CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,
                                        unsigned bz, unsigned smem, CUstream s, void **params, void **extra)
{
    return launch_counted(CBC_REAL(cuLaunchKernel_ptsz)(f, gx, gy, gz, bx, by, bz, smem, s, params, extra));
}

static CUresult cnt_cuLaunchKernelEx(const CUlaunchConfig *config, CUfunction f, void **params, void **extra)
{
    return launch_counted(CBC_REAL(cuLaunchKernelEx)(config, f, params, extra));
}

static CUresult cnt_cuLaunchKernelEx_ptsz(const CUlaunchConfig *config, CUfunction f, void **params, void **extra)
{
    return launch_counted(CBC_REAL(cuLaunchKernelEx_ptsz)(config, f, params, extra));
}

static CUresult cnt_cuLaunchCooperativeKernel(CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx,
                                              unsigned by, unsigned bz, unsigned smem, CUstream s, void **params)
{
    return launch_counted(CBC_REAL(cuLaunchCooperativeKernel)(f, gx, gy, gz, bx, by, bz, smem, s, params));
}

static CUresult cnt_cuLaunchCooperativeKernel_ptsz(CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx,
                                                   unsigned by, unsigned bz, unsigned smem, CUstream s,
                                                   void **params)
{
    return launch_counted(CBC_REAL(cuLaunchCooperativeKernel_ptsz)(f, gx, gy, gz, bx, by, bz, smem, s, params));
}

void *cbc_launch_interceptor(int id)
{
    int verify = (cb_inspect_flags & CB_INSPECT_VERIFY) != 0;
    switch (id) {
    case CB_EXP_cuLaunchKernel: return verify ? (void *)&cbc_cuLaunchKernel : (void *)&cnt_cuLaunchKernel;
    case CB_EXP_cuLaunchKernel_ptsz:
        return verify ? (void *)&cbc_cuLaunchKernel_ptsz : (void *)&cnt_cuLaunchKernel_ptsz;
    case CB_EXP_cuLaunchKernelEx: return verify ? (void *)&cbc_cuLaunchKernelEx : (void *)&cnt_cuLaunchKernelEx;
    case CB_EXP_cuLaunchKernelEx_ptsz:
        return verify ? (void *)&cbc_cuLaunchKernelEx_ptsz : (void *)&cnt_cuLaunchKernelEx_ptsz;
    case CB_EXP_cuLaunchCooperativeKernel: return (void *)&cnt_cuLaunchCooperativeKernel;
    case CB_EXP_cuLaunchCooperativeKernel_ptsz: return (void *)&cnt_cuLaunchCooperativeKernel_ptsz;
    default: return NULL;
    }
}
