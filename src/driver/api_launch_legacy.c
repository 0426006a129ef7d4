/* api_launch_legacy.c: the launch API of CUDA 2.x, still used by PyCUDA:
 * cuFuncSetBlockShape, cuFuncSetSharedSize, cuParamSet*, cuLaunch,
 * cuLaunchGrid(Async).
 *
 * Each function keeps its block shape, dynamic shared memory size and a
 * parameter buffer (cb_function.legacy_launch, freed with the function).
 * A launch hands that buffer to cuLaunchKernel through `extra`
 * (CU_LAUNCH_PARAM_BUFFER_POINTER/SIZE), so it is checked and packed like
 * any other launch. Texture references (cuParamSetTexRef) are not supported.
 */
#include "driver/driver.h"

#include <stdlib.h>
#include <string.h>

#include "core/module.h"

/* The largest parameter buffer CUDA accepts (32 KiB since CUDA 12.1). */
#define LEGACY_PARAM_MAX 32764u

typedef struct legacy_launch {
    int block[3];
    unsigned shared_bytes;
    unsigned param_size;                /* from cuParamSetSize */
    unsigned char params[LEGACY_PARAM_MAX];
} legacy_launch;

/* The legacy state of a live function, created on first use. */
static CUresult legacy_state(CUfunction hfunc, legacy_launch **out)
{
    CB_REQUIRE_INIT();
    cb_function *f = (cb_function *)hfunc;
    if (!cb_function_valid(f))
        return CUDA_ERROR_INVALID_HANDLE;
    if (!f->legacy_launch) {
        legacy_launch *l = calloc(1, sizeof *l);
        if (!l)
            return CUDA_ERROR_OUT_OF_MEMORY;
        l->block[0] = l->block[1] = l->block[2] = 1;
        f->legacy_launch = l;
    }
    *out = f->legacy_launch;
    return CUDA_SUCCESS;
}

CB_EXPORT CUresult cuFuncSetBlockShape(CUfunction hfunc, int x, int y, int z)
{
    legacy_launch *l;
    CUresult r = legacy_state(hfunc, &l);
    if (r != CUDA_SUCCESS)
        return r;
    if (x <= 0 || y <= 0 || z <= 0)
        return CUDA_ERROR_INVALID_VALUE;
    l->block[0] = x;
    l->block[1] = y;
    l->block[2] = z;
    return CUDA_SUCCESS;
}

CB_EXPORT CUresult cuFuncSetSharedSize(CUfunction hfunc, unsigned int bytes)
{
    legacy_launch *l;
    CUresult r = legacy_state(hfunc, &l);
    if (r == CUDA_SUCCESS)
        l->shared_bytes = bytes;
    return r;
}

CB_EXPORT CUresult cuParamSetSize(CUfunction hfunc, unsigned int numbytes)
{
    legacy_launch *l;
    CUresult r = legacy_state(hfunc, &l);
    if (r != CUDA_SUCCESS)
        return r;
    if (numbytes > LEGACY_PARAM_MAX)
        return CUDA_ERROR_INVALID_VALUE;
    l->param_size = numbytes;
    return CUDA_SUCCESS;
}

/* Copies n bytes into the parameter buffer at offset. */
static CUresult legacy_param_set(CUfunction hfunc, int offset, const void *src, unsigned n)
{
    legacy_launch *l;
    CUresult r = legacy_state(hfunc, &l);
    if (r != CUDA_SUCCESS)
        return r;
    if (offset < 0 || !src || (size_t)offset + n > LEGACY_PARAM_MAX)
        return CUDA_ERROR_INVALID_VALUE;
    memcpy(l->params + offset, src, n);
    return CUDA_SUCCESS;
}

CB_EXPORT CUresult cuParamSeti(CUfunction hfunc, int offset, unsigned int value)
{
    return legacy_param_set(hfunc, offset, &value, sizeof value);
}

CB_EXPORT CUresult cuParamSetf(CUfunction hfunc, int offset, float value)
{
    return legacy_param_set(hfunc, offset, &value, sizeof value);
}

CB_EXPORT CUresult cuParamSetv(CUfunction hfunc, int offset, void *ptr, unsigned int numbytes)
{
    return legacy_param_set(hfunc, offset, ptr, numbytes);
}

CB_EXPORT CUresult cuParamSetTexRef(CUfunction hfunc, int texunit, CUtexref hTexRef)
{
    (void)hfunc;
    (void)texunit;
    (void)hTexRef;
    return cb_driver_not_supported("cuParamSetTexRef", "texture references are not supported");
}

/* Launches a grid of w x h blocks with the function's legacy state. */
static CUresult legacy_launch_grid(CUfunction f, int w, int h, CUstream stream)
{
    legacy_launch *l;
    CUresult r = legacy_state(f, &l);
    if (r != CUDA_SUCCESS)
        return r;
    if (w <= 0 || h <= 0)
        return CUDA_ERROR_INVALID_VALUE;
    size_t size = l->param_size;
    void *extra[] = {CU_LAUNCH_PARAM_BUFFER_POINTER, l->params, CU_LAUNCH_PARAM_BUFFER_SIZE, &size,
                     CU_LAUNCH_PARAM_END};
    return cuLaunchKernel(f, (unsigned)w, (unsigned)h, 1, (unsigned)l->block[0], (unsigned)l->block[1],
                          (unsigned)l->block[2], l->shared_bytes, stream, NULL, extra);
}

CB_EXPORT CUresult cuLaunch(CUfunction f)
{
    return legacy_launch_grid(f, 1, 1, NULL);
}

CB_EXPORT CUresult cuLaunchGrid(CUfunction f, int grid_width, int grid_height)
{
    return legacy_launch_grid(f, grid_width, grid_height, NULL);
}

CB_EXPORT CUresult cuLaunchGridAsync(CUfunction f, int grid_width, int grid_height, CUstream hStream)
{
    return legacy_launch_grid(f, grid_width, grid_height, hStream);
}
