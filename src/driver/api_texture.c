/* api_texture.c: CUDA arrays (cuArrayCreate, cuArray3DCreate, cuArrayDestroy,
 * descriptors), mipmapped arrays (cuMipmappedArrayCreate/GetLevel/Destroy)
 * and texture/surface objects (cuTexObjectCreate/Destroy/GetResourceDesc/
 * GetTextureDesc, cuSurfObjectCreate/Destroy/GetResourceDesc). The work is
 * in core/texture.c; copies to and from arrays (and mip levels) go through
 * cuMemcpy2D/3D (core/memory.c). Texture and surface references
 * (cuModuleGetTexRef/SurfRef; the cuTexRef and cuSurfRef calls) are not
 * supported: CUDA 12 removed them from the runtime and from nvcc. */
#include "driver/driver.h"

#include <string.h>

#include "core/context.h"
#include "core/texture.h"

static CUresult usable(cb_context **ctx)
{
    CB_REQUIRE_INIT();
    return cb_ctx_require_usable(ctx);
}

CB_EXPORT CUresult cuArray3DCreate_v2(CUarray *pHandle, const CUDA_ARRAY3D_DESCRIPTOR *pAllocateArray)
{
    cb_context *ctx;
    CUresult r = usable(&ctx);
    if (r != CUDA_SUCCESS)
        return r;
    if (!pHandle)
        return CUDA_ERROR_INVALID_VALUE;
    cb_array *a;
    r = cb_array_create(ctx, pAllocateArray, &a);
    if (r == CUDA_SUCCESS)
        *pHandle = (CUarray)a;
    return r;
}

CB_EXPORT CUresult cuArrayCreate_v2(CUarray *pHandle, const CUDA_ARRAY_DESCRIPTOR *pAllocateArray)
{
    if (!pAllocateArray)
        return CUDA_ERROR_INVALID_VALUE;
    CUDA_ARRAY3D_DESCRIPTOR d;
    memset(&d, 0, sizeof d);
    d.Width = pAllocateArray->Width;
    d.Height = pAllocateArray->Height;
    d.Format = pAllocateArray->Format;
    d.NumChannels = pAllocateArray->NumChannels;
    return cuArray3DCreate_v2(pHandle, &d);
}

CB_EXPORT CUresult cuArrayDestroy(CUarray hArray)
{
    CB_REQUIRE_INIT();
    return cb_array_destroy((cb_array *)hArray);
}

CB_EXPORT CUresult cuArray3DGetDescriptor_v2(CUDA_ARRAY3D_DESCRIPTOR *pArrayDescriptor, CUarray hArray)
{
    CB_REQUIRE_INIT();
    return cb_array_descriptor((const cb_array *)hArray, pArrayDescriptor);
}

CB_EXPORT CUresult cuArrayGetDescriptor_v2(CUDA_ARRAY_DESCRIPTOR *pArrayDescriptor, CUarray hArray)
{
    CB_REQUIRE_INIT();
    if (!pArrayDescriptor)
        return CUDA_ERROR_INVALID_VALUE;
    CUDA_ARRAY3D_DESCRIPTOR d;
    CUresult r = cb_array_descriptor((const cb_array *)hArray, &d);
    if (r != CUDA_SUCCESS)
        return r;
    if (d.Depth)
        return CUDA_ERROR_INVALID_VALUE;   /* as CUDA: a 3D array has no 2D descriptor */
    pArrayDescriptor->Width = d.Width;
    pArrayDescriptor->Height = d.Height;
    pArrayDescriptor->Format = d.Format;
    pArrayDescriptor->NumChannels = d.NumChannels;
    return CUDA_SUCCESS;
}

/* cuTexObjectCreate (surface 0) and cuSurfObjectCreate (surface 1): the
 * new object's handle into *out. */
static CUresult object_create(unsigned long long *out, const CUDA_RESOURCE_DESC *res, const CUDA_TEXTURE_DESC *tex,
                              const CUDA_RESOURCE_VIEW_DESC *view, int surface)
{
    cb_context *ctx;
    CUresult r = usable(&ctx);
    if (r != CUDA_SUCCESS)
        return r;
    if (!out)
        return CUDA_ERROR_INVALID_VALUE;
    unsigned long long h;
    r = cb_texobj_create(res, tex, view, surface, &h);
    if (r == CUDA_SUCCESS)
        *out = h;
    return r;
}

CB_EXPORT CUresult cuTexObjectCreate(CUtexObject *pTexObject, const CUDA_RESOURCE_DESC *pResDesc,
                                     const CUDA_TEXTURE_DESC *pTexDesc, const CUDA_RESOURCE_VIEW_DESC *pResViewDesc)
{
    return object_create(pTexObject, pResDesc, pTexDesc, pResViewDesc, 0);
}

CB_EXPORT CUresult cuTexObjectDestroy(CUtexObject texObject)
{
    CB_REQUIRE_INIT();
    return cb_texobj_destroy(texObject, 0);
}

CB_EXPORT CUresult cuTexObjectGetResourceDesc(CUDA_RESOURCE_DESC *pResDesc, CUtexObject texObject)
{
    CB_REQUIRE_INIT();
    return cb_texobj_resource(texObject, 0, pResDesc);
}

CB_EXPORT CUresult cuTexObjectGetTextureDesc(CUDA_TEXTURE_DESC *pTexDesc, CUtexObject texObject)
{
    CB_REQUIRE_INIT();
    return cb_texobj_texture_desc(texObject, pTexDesc);
}

CB_EXPORT CUresult cuSurfObjectCreate(CUsurfObject *pSurfObject, const CUDA_RESOURCE_DESC *pResDesc)
{
    return object_create(pSurfObject, pResDesc, NULL, NULL, 1);
}

CB_EXPORT CUresult cuSurfObjectDestroy(CUsurfObject surfObject)
{
    CB_REQUIRE_INIT();
    return cb_texobj_destroy(surfObject, 1);
}

CB_EXPORT CUresult cuSurfObjectGetResourceDesc(CUDA_RESOURCE_DESC *pResDesc, CUsurfObject surfObject)
{
    CB_REQUIRE_INIT();
    return cb_texobj_resource(surfObject, 1, pResDesc);
}

CB_EXPORT CUresult cuMipmappedArrayCreate(CUmipmappedArray *pHandle, const CUDA_ARRAY3D_DESCRIPTOR *pMipmappedArrayDesc,
                                          unsigned int numMipmapLevels)
{
    cb_context *ctx;
    CUresult r = usable(&ctx);
    if (r != CUDA_SUCCESS)
        return r;
    if (!pHandle)
        return CUDA_ERROR_INVALID_VALUE;
    cb_mipmap *m;
    r = cb_mipmap_create(ctx, pMipmappedArrayDesc, numMipmapLevels, &m);
    if (r == CUDA_SUCCESS)
        *pHandle = (CUmipmappedArray)m;
    return r;
}

CB_EXPORT CUresult cuMipmappedArrayGetLevel(CUarray *pLevelArray, CUmipmappedArray hMipmappedArray, unsigned int level)
{
    CB_REQUIRE_INIT();
    cb_array *a;
    CUresult r = cb_mipmap_level((cb_mipmap *)hMipmappedArray, level, pLevelArray ? &a : NULL);
    if (r == CUDA_SUCCESS)
        *pLevelArray = (CUarray)a;
    return r;
}

CB_EXPORT CUresult cuMipmappedArrayDestroy(CUmipmappedArray hMipmappedArray)
{
    CB_REQUIRE_INIT();
    return cb_mipmap_destroy((cb_mipmap *)hMipmappedArray);
}

#define CB_NO_REFERENCES "texture and surface references are not supported (CUDA 12 removed them from the " \
                         "runtime and nvcc); use texture and surface objects"

CB_EXPORT CUresult cuModuleGetTexRef(CUtexref *pTexRef, CUmodule hmod, const char *name)
{
    CB_REQUIRE_INIT();
    (void)pTexRef;
    (void)hmod;
    (void)name;
    return cb_driver_not_supported("cuModuleGetTexRef", CB_NO_REFERENCES);
}

CB_EXPORT CUresult cuModuleGetSurfRef(CUsurfref *pSurfRef, CUmodule hmod, const char *name)
{
    CB_REQUIRE_INIT();
    (void)pSurfRef;
    (void)hmod;
    (void)name;
    return cb_driver_not_supported("cuModuleGetSurfRef", CB_NO_REFERENCES);
}
