/* texture.c: CUDA arrays, texture objects and surface objects (texture.h).
 *
 * Process-wide state: the lists of live arrays and objects, under one
 * lock, so that a stale or made-up handle is refused instead of being
 * dereferenced.
 */
#include "core/texture.h"

#include <stdlib.h>
#include <string.h>

#include "backend/cpu/kernel_abi.h"
#include "core/memory.h"
#include "platform/thread.h"

struct cb_array {
    cb_array *next;
    CUDA_ARRAY3D_DESCRIPTOR desc;
    uint64_t addr;
    size_t pitch, rows, bytes;
    uint32_t elem_bytes;
};

typedef struct texobj_rec {
    struct texobj_rec *next;
    cb_texobj obj;              /* what kernels read; its address is the handle */
    CUDA_RESOURCE_DESC res;
    CUDA_TEXTURE_DESC tex;
} texobj_rec;

static struct {
    cb_mutex lock;
    cb_array *arrays;
    texobj_rec *objs;
} g = {.lock = CB_MUTEX_INIT};

static uint32_t format_bytes(CUarray_format f)
{
    switch (f) {
    case CU_AD_FORMAT_UNSIGNED_INT8: case CU_AD_FORMAT_SIGNED_INT8: return 1;
    case CU_AD_FORMAT_UNSIGNED_INT16: case CU_AD_FORMAT_SIGNED_INT16: case CU_AD_FORMAT_HALF: return 2;
    case CU_AD_FORMAT_UNSIGNED_INT32: case CU_AD_FORMAT_SIGNED_INT32: case CU_AD_FORMAT_FLOAT: return 4;
    default: return 0;
    }
}

/* ---- arrays ---------------------------------------------------------------- */

CUresult cb_array_create(cb_context *ctx, const CUDA_ARRAY3D_DESCRIPTOR *d, cb_array **out)
{
    if (!d || !out)
        return CUDA_ERROR_INVALID_VALUE;
    uint32_t fb = format_bytes(d->Format);
    unsigned ch = d->NumChannels;
    if (!fb || (ch != 1 && ch != 2 && ch != 4) || d->Width == 0 || (d->Depth && !d->Height))
        return CUDA_ERROR_INVALID_VALUE;
    if (d->Flags & ~(unsigned)(CUDA_ARRAY3D_LAYERED | CUDA_ARRAY3D_SURFACE_LDST | CUDA_ARRAY3D_TEXTURE_GATHER)) {
        cb_log(CB_LOG_WARN, "CUDA arrays with flags 0x%x (cubemap, sparse, deferred...) are not supported", d->Flags);
        return CUDA_ERROR_NOT_SUPPORTED;
    }
    if ((d->Flags & CUDA_ARRAY3D_LAYERED) && d->Depth == 0)
        return CUDA_ERROR_INVALID_VALUE;
    cb_array *a = calloc(1, sizeof *a);
    if (!a)
        return CUDA_ERROR_OUT_OF_MEMORY;
    a->desc = *d;
    a->elem_bytes = fb * ch;
    a->pitch = d->Width * a->elem_bytes;
    a->rows = d->Height ? d->Height : 1;
    size_t slices = d->Depth ? d->Depth : 1;
    if (a->rows > SIZE_MAX / a->pitch || slices > SIZE_MAX / (a->pitch * a->rows)) {
        free(a);
        return CUDA_ERROR_INVALID_VALUE;
    }
    a->bytes = a->pitch * a->rows * slices;
    CUresult r = cb_mem_alloc(ctx, a->bytes, &a->addr);
    if (r != CUDA_SUCCESS) {
        free(a);
        return r;
    }
    memset((void *)(uintptr_t)a->addr, 0, a->bytes);
    cb_mutex_lock(&g.lock);
    a->next = g.arrays;
    g.arrays = a;
    cb_mutex_unlock(&g.lock);
    *out = a;
    return CUDA_SUCCESS;
}

/* Unlinks a from the live list; 0 if it was not there. */
static int array_unlink(cb_array *a)
{
    cb_mutex_lock(&g.lock);
    cb_array **p = &g.arrays;
    while (*p && *p != a)
        p = &(*p)->next;
    int found = *p != NULL;
    if (found)
        *p = a->next;
    cb_mutex_unlock(&g.lock);
    return found;
}

static int array_live(const cb_array *a)
{
    cb_mutex_lock(&g.lock);
    const cb_array *p = g.arrays;
    while (p && p != a)
        p = p->next;
    cb_mutex_unlock(&g.lock);
    return p != NULL;
}

CUresult cb_array_destroy(cb_array *a)
{
    if (!a || !array_unlink(a))
        return CUDA_ERROR_INVALID_HANDLE;
    CUresult r = cb_mem_free(NULL, a->addr);
    free(a);
    return r;
}

CUresult cb_array_descriptor(const cb_array *a, CUDA_ARRAY3D_DESCRIPTOR *out)
{
    if (!out)
        return CUDA_ERROR_INVALID_VALUE;
    if (!a || !array_live(a))
        return CUDA_ERROR_INVALID_HANDLE;
    *out = a->desc;
    return CUDA_SUCCESS;
}

CUresult cb_array_storage(CUarray h, uint64_t *addr, size_t *pitch, size_t *rows)
{
    cb_array *a = (cb_array *)h;
    if (!a || !array_live(a))
        return CUDA_ERROR_INVALID_HANDLE;
    *addr = a->addr;
    *pitch = a->pitch;
    *rows = a->rows;
    return CUDA_SUCCESS;
}

/* ---- texture and surface objects ------------------------------------------- */

/* Fills the geometry of o from a resource description. */
static CUresult describe_resource(const CUDA_RESOURCE_DESC *res, cb_texobj *o)
{
    switch (res->resType) {
    case CU_RESOURCE_TYPE_ARRAY: {
        cb_array *a = (cb_array *)res->res.array.hArray;
        if (!a || !array_live(a))
            return CUDA_ERROR_INVALID_HANDLE;
        const CUDA_ARRAY3D_DESCRIPTOR *d = &a->desc;
        o->base = (unsigned char *)(uintptr_t)a->addr;
        o->format = d->Format;
        o->channels = d->NumChannels;
        o->width = (uint32_t)d->Width;
        o->height = d->Height ? (uint32_t)d->Height : 1;
        o->pitch = a->pitch;
        o->slice = a->pitch * a->rows;
        if (d->Flags & CUDA_ARRAY3D_LAYERED) {
            o->layers = (uint32_t)d->Depth;
            o->depth = 1;
            o->dims = d->Height ? 2 : 1;
            o->layer_bytes = o->slice;
        } else {
            o->depth = d->Depth ? (uint32_t)d->Depth : 1;
            o->dims = d->Depth ? 3 : d->Height ? 2 : 1;
        }
        return CUDA_SUCCESS;
    }
    case CU_RESOURCE_TYPE_LINEAR:
        if (!res->res.linear.devPtr)
            return CUDA_ERROR_INVALID_VALUE;
        o->base = (unsigned char *)(uintptr_t)res->res.linear.devPtr;
        o->format = res->res.linear.format;
        o->channels = res->res.linear.numChannels;
        o->elem_bytes = format_bytes(o->format) * o->channels;
        if (!o->elem_bytes)
            return CUDA_ERROR_INVALID_VALUE;
        o->width = (uint32_t)(res->res.linear.sizeInBytes / o->elem_bytes);
        o->height = o->depth = 1;
        o->dims = 1;
        o->pitch = res->res.linear.sizeInBytes;
        return CUDA_SUCCESS;
    case CU_RESOURCE_TYPE_PITCH2D:
        if (!res->res.pitch2D.devPtr)
            return CUDA_ERROR_INVALID_VALUE;
        o->base = (unsigned char *)(uintptr_t)res->res.pitch2D.devPtr;
        o->format = res->res.pitch2D.format;
        o->channels = res->res.pitch2D.numChannels;
        o->width = (uint32_t)res->res.pitch2D.width;
        o->height = (uint32_t)res->res.pitch2D.height;
        o->depth = 1;
        o->dims = 2;
        o->pitch = res->res.pitch2D.pitchInBytes;
        return CUDA_SUCCESS;
    default:
        cb_log(CB_LOG_WARN, "texture resources of type %d (mipmapped arrays) are not supported", (int)res->resType);
        return CUDA_ERROR_NOT_SUPPORTED;
    }
}

CUresult cb_texobj_create(const CUDA_RESOURCE_DESC *res, const CUDA_TEXTURE_DESC *tex,
                          const CUDA_RESOURCE_VIEW_DESC *view, int is_surface, unsigned long long *out)
{
    if (!res || !out || (!is_surface && !tex))
        return CUDA_ERROR_INVALID_VALUE;
    if (view) {
        cb_log(CB_LOG_WARN, "texture resource views are not supported");
        return CUDA_ERROR_NOT_SUPPORTED;
    }
    texobj_rec *rec = calloc(1, sizeof *rec);
    if (!rec)
        return CUDA_ERROR_OUT_OF_MEMORY;
    cb_texobj *o = &rec->obj;
    CUresult r = describe_resource(res, o);
    uint32_t fb = format_bytes((CUarray_format)o->format);
    if (r == CUDA_SUCCESS && (!fb || (o->channels != 1 && o->channels != 2 && o->channels != 4) || !o->width))
        r = CUDA_ERROR_INVALID_VALUE;
    if (r == CUDA_SUCCESS && is_surface && res->resType != CU_RESOURCE_TYPE_ARRAY)
        r = CUDA_ERROR_INVALID_VALUE;   /* surfaces live in CUDA arrays */
    if (r == CUDA_SUCCESS && tex && (tex->flags & CU_TRSF_SRGB)) {
        cb_log(CB_LOG_WARN, "sRGB textures are not supported");
        r = CUDA_ERROR_NOT_SUPPORTED;
    }
    if (r == CUDA_SUCCESS && tex && (tex->mipmapFilterMode || tex->maxMipmapLevelClamp > 0 || tex->maxAnisotropy > 1))
        cb_log(CB_LOG_INFO, "texture: mipmap and anisotropy settings have no effect without mipmaps");
    if (r != CUDA_SUCCESS) {
        free(rec);
        return r;
    }
    o->magic = CB_TEXOBJ_MAGIC;
    o->is_surface = (uint32_t)is_surface;
    o->elem_bytes = fb * o->channels;
    if (tex) {
        for (int i = 0; i < 3; i++)
            o->address[i] = (uint32_t)tex->addressMode[i];
        o->filter = (uint32_t)tex->filterMode;
        o->flags = tex->flags;
        memcpy(o->border, tex->borderColor, sizeof o->border);
        rec->tex = *tex;
    }
    rec->res = *res;
    cb_mutex_lock(&g.lock);
    rec->next = g.objs;
    g.objs = rec;
    cb_mutex_unlock(&g.lock);
    *out = (unsigned long long)(uintptr_t)&rec->obj;
    return CUDA_SUCCESS;
}

/* The live record of handle obj of the given kind, or NULL. Under the lock
 * when unlink is 0; unlinked from the list when unlink is 1. */
static texobj_rec *find_obj(unsigned long long obj, int is_surface, int unlink, texobj_rec *copy)
{
    cb_mutex_lock(&g.lock);
    texobj_rec **p = &g.objs;
    while (*p && (unsigned long long)(uintptr_t)&(*p)->obj != obj)
        p = &(*p)->next;
    texobj_rec *rec = *p;
    if (rec && (int)rec->obj.is_surface != is_surface)
        rec = NULL;
    if (rec && copy)
        *copy = *rec;
    if (rec && unlink)
        *p = rec->next;
    cb_mutex_unlock(&g.lock);
    return rec;
}

CUresult cb_texobj_destroy(unsigned long long obj, int is_surface)
{
    texobj_rec *rec = find_obj(obj, is_surface, 1, NULL);
    if (!rec)
        return CUDA_ERROR_INVALID_HANDLE;
    free(rec);
    return CUDA_SUCCESS;
}

CUresult cb_texobj_resource(unsigned long long obj, int is_surface, CUDA_RESOURCE_DESC *out)
{
    texobj_rec copy;
    if (!out)
        return CUDA_ERROR_INVALID_VALUE;
    if (!find_obj(obj, is_surface, 0, &copy))
        return CUDA_ERROR_INVALID_HANDLE;
    *out = copy.res;
    return CUDA_SUCCESS;
}

CUresult cb_texobj_texture_desc(unsigned long long obj, CUDA_TEXTURE_DESC *out)
{
    texobj_rec copy;
    if (!out)
        return CUDA_ERROR_INVALID_VALUE;
    if (!find_obj(obj, 0, 0, &copy))
        return CUDA_ERROR_INVALID_HANDLE;
    *out = copy.tex;
    return CUDA_SUCCESS;
}
