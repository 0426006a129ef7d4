/* texture.c: CUDA arrays, texture objects and surface objects (texture.h).
 *
 * Process-wide state: the lists of live arrays and objects, under one
 * lock, so that a stale or made-up handle is refused instead of being
 * dereferenced.
 */
#include "core/texture.h"

#include <stdlib.h>
#include <string.h>

#include "core/memory.h"
#include "platform/thread.h"

struct cb_array {
    cb_array *next;
    CUDA_ARRAY3D_DESCRIPTOR desc;
    uint64_t addr;
    size_t pitch, rows, bytes;
    uint32_t elem_bytes;
    cb_mipmap *owner;           /* the mipmapped array this is a level of, or NULL */
};

struct cb_mipmap {
    cb_mipmap *next;
    CUDA_ARRAY3D_DESCRIPTOR desc;
    unsigned num_levels;
    cb_array **level;           /* num_levels arrays, owned */
};

typedef struct texobj_rec {
    struct texobj_rec *next;
    cb_backend *backend;        /* the device that made the object */
    uint64_t handle;            /* what it gave: the CUtexObject / CUsurfObject */
    int is_surface;
    CUDA_RESOURCE_DESC res;
    CUDA_TEXTURE_DESC tex;
} texobj_rec;

static struct {
    cb_mutex lock;
    cb_array *arrays;
    cb_mipmap *mipmaps;
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

/* Checks a descriptor: sizes, format, channels and flags (cubemaps square,
 * 6 faces or a multiple of 6 when layered). */
static CUresult check_descriptor(const CUDA_ARRAY3D_DESCRIPTOR *d)
{
    unsigned ch = d->NumChannels;
    if (!format_bytes(d->Format) || (ch != 1 && ch != 2 && ch != 4) || d->Width == 0 || (d->Depth && !d->Height))
        return CUDA_ERROR_INVALID_VALUE;
    unsigned known = CUDA_ARRAY3D_LAYERED | CUDA_ARRAY3D_SURFACE_LDST | CUDA_ARRAY3D_TEXTURE_GATHER | CUDA_ARRAY3D_CUBEMAP;
    if (d->Flags & ~known) {
        cb_log(CB_LOG_WARN, "CUDA arrays with flags 0x%x (sparse, deferred mapping, depth textures, color "
               "attachments) are not supported", d->Flags & ~known);
        return CUDA_ERROR_NOT_SUPPORTED;
    }
    if ((d->Flags & CUDA_ARRAY3D_LAYERED) && d->Depth == 0)
        return CUDA_ERROR_INVALID_VALUE;
    if (d->Flags & CUDA_ARRAY3D_CUBEMAP) {
        int layered = (d->Flags & CUDA_ARRAY3D_LAYERED) != 0;
        if (d->Width != d->Height || d->Depth == 0 || (layered ? d->Depth % 6 : d->Depth != 6))
            return CUDA_ERROR_INVALID_VALUE;
    }
    return CUDA_SUCCESS;
}

/* Allocates and links an array for a checked descriptor. */
static CUresult array_new(cb_context *ctx, const CUDA_ARRAY3D_DESCRIPTOR *d, cb_mipmap *owner, cb_array **out)
{
    cb_array *a = calloc(1, sizeof *a);
    if (!a)
        return CUDA_ERROR_OUT_OF_MEMORY;
    a->desc = *d;
    a->owner = owner;
    a->elem_bytes = format_bytes(d->Format) * d->NumChannels;
    a->pitch = d->Width * a->elem_bytes;
    a->rows = d->Height ? d->Height : 1;
    size_t slices = d->Depth ? d->Depth : 1;
    if (a->pitch / a->elem_bytes != d->Width || a->rows > SIZE_MAX / a->pitch ||
        slices > SIZE_MAX / (a->pitch * a->rows)) {
        free(a);
        return CUDA_ERROR_INVALID_VALUE;
    }
    a->bytes = a->pitch * a->rows * slices;
    cb_mem_info rec;
    CUresult r = cb_mem_alloc_ex(ctx, a->bytes, CB_MEM_DEVICE, NULL, &rec);
    if (r == CUDA_SUCCESS) {
        a->addr = rec.base;
        r = rec.backend->memset(rec.backend, a->addr, 0, 1, a->bytes);   /* arrays start zeroed */
        if (r != CUDA_SUCCESS)
            cb_mem_free(ctx, a->addr);
    }
    if (r != CUDA_SUCCESS) {
        free(a);
        return r;
    }
    cb_mutex_lock(&g.lock);
    a->next = g.arrays;
    g.arrays = a;
    cb_mutex_unlock(&g.lock);
    *out = a;
    return CUDA_SUCCESS;
}

CUresult cb_array_create(cb_context *ctx, const CUDA_ARRAY3D_DESCRIPTOR *d, cb_array **out)
{
    if (!d || !out)
        return CUDA_ERROR_INVALID_VALUE;
    CUresult r = check_descriptor(d);
    return r != CUDA_SUCCESS ? r : array_new(ctx, d, NULL, out);
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

/* Unlinks and frees a (live) array and its storage. */
static CUresult array_free(cb_array *a)
{
    if (!array_unlink(a))
        return CUDA_ERROR_INVALID_HANDLE;
    CUresult r = cb_mem_free(NULL, a->addr);
    free(a);
    return r;
}

CUresult cb_array_destroy(cb_array *a)
{
    if (!a || !array_live(a))
        return CUDA_ERROR_INVALID_HANDLE;
    if (a->owner) {
        cb_log(CB_LOG_WARN, "cuArrayDestroy: array %p is a level of a mipmapped array; destroy the mipmapped "
               "array instead", (void *)a);
        return CUDA_ERROR_INVALID_HANDLE;
    }
    return array_free(a);
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

/* ---- mipmapped arrays ------------------------------------------------------- */

/* The most levels a descriptor allows: 1 + floor(log2(largest extent)); the
 * layer count of a layered or cubemap array is not an extent. */
static unsigned max_levels(const CUDA_ARRAY3D_DESCRIPTOR *d)
{
    size_t m = d->Width;
    if (d->Height > m)
        m = d->Height;
    if (!(d->Flags & (CUDA_ARRAY3D_LAYERED | CUDA_ARRAY3D_CUBEMAP)) && d->Depth > m)
        m = d->Depth;
    unsigned n = 1;
    while (m >>= 1)
        n++;
    return n;
}

/* The descriptor of level l: extents halved l times (at least 1), layers kept. */
static CUDA_ARRAY3D_DESCRIPTOR level_descriptor(const CUDA_ARRAY3D_DESCRIPTOR *d, unsigned l)
{
    CUDA_ARRAY3D_DESCRIPTOR e = *d;
    e.Width = d->Width >> l ? d->Width >> l : 1;
    if (d->Height)
        e.Height = d->Height >> l ? d->Height >> l : 1;
    if (d->Depth && !(d->Flags & (CUDA_ARRAY3D_LAYERED | CUDA_ARRAY3D_CUBEMAP)))
        e.Depth = d->Depth >> l ? d->Depth >> l : 1;
    return e;
}

static int mipmap_live(const cb_mipmap *m)
{
    cb_mutex_lock(&g.lock);
    const cb_mipmap *p = g.mipmaps;
    while (p && p != m)
        p = p->next;
    cb_mutex_unlock(&g.lock);
    return p != NULL;
}

static void mipmap_free_levels(cb_mipmap *m)
{
    for (unsigned i = 0; i < m->num_levels; i++)
        if (m->level[i])
            array_free(m->level[i]);
    free(m->level);
    free(m);
}

CUresult cb_mipmap_create(cb_context *ctx, const CUDA_ARRAY3D_DESCRIPTOR *d, unsigned num_levels, cb_mipmap **out)
{
    if (!d || !out)
        return CUDA_ERROR_INVALID_VALUE;
    CUresult r = check_descriptor(d);
    if (r != CUDA_SUCCESS)
        return r;
    unsigned most = max_levels(d);
    num_levels = num_levels < 1 ? 1 : num_levels > most ? most : num_levels;   /* clamped, as CUDA documents */
    cb_mipmap *m = calloc(1, sizeof *m);
    if (!m || !(m->level = calloc(num_levels, sizeof *m->level))) {
        free(m);
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    m->desc = *d;
    m->num_levels = num_levels;
    for (unsigned i = 0; i < num_levels && r == CUDA_SUCCESS; i++) {
        CUDA_ARRAY3D_DESCRIPTOR e = level_descriptor(d, i);
        r = array_new(ctx, &e, m, &m->level[i]);
    }
    if (r != CUDA_SUCCESS) {
        mipmap_free_levels(m);
        return r;
    }
    cb_mutex_lock(&g.lock);
    m->next = g.mipmaps;
    g.mipmaps = m;
    cb_mutex_unlock(&g.lock);
    *out = m;
    return CUDA_SUCCESS;
}

CUresult cb_mipmap_destroy(cb_mipmap *m)
{
    cb_mutex_lock(&g.lock);
    cb_mipmap **p = &g.mipmaps;
    while (*p && *p != m)
        p = &(*p)->next;
    int found = m && *p;
    if (found)
        *p = m->next;
    cb_mutex_unlock(&g.lock);
    if (!found)
        return CUDA_ERROR_INVALID_HANDLE;
    mipmap_free_levels(m);
    return CUDA_SUCCESS;
}

CUresult cb_mipmap_level(cb_mipmap *m, unsigned level, cb_array **out)
{
    if (!out)
        return CUDA_ERROR_INVALID_VALUE;
    if (!m || !mipmap_live(m))
        return CUDA_ERROR_INVALID_HANDLE;
    if (level >= m->num_levels)
        return CUDA_ERROR_INVALID_VALUE;
    *out = m->level[level];
    return CUDA_SUCCESS;
}

CUresult cb_mipmap_info(cb_mipmap *m, CUDA_ARRAY3D_DESCRIPTOR *desc, unsigned *num_levels)
{
    if (!m || !mipmap_live(m))
        return CUDA_ERROR_INVALID_HANDLE;
    if (desc)
        *desc = m->desc;
    if (num_levels)
        *num_levels = m->num_levels;
    return CUDA_SUCCESS;
}

/* ---- texture and surface objects ------------------------------------------- */

/* Fills the geometry of o from a live array. */
static void describe_array(const cb_array *a, cb_texture_desc *o)
{
    const CUDA_ARRAY3D_DESCRIPTOR *d = &a->desc;
    o->base = a->addr;
    o->format = d->Format;
    o->channels = d->NumChannels;
    o->width = (uint32_t)d->Width;
    o->height = d->Height ? (uint32_t)d->Height : 1;
    o->pitch = a->pitch;
    o->slice = a->pitch * a->rows;
    o->cube = (d->Flags & CUDA_ARRAY3D_CUBEMAP) != 0;
    if (d->Flags & (CUDA_ARRAY3D_LAYERED | CUDA_ARRAY3D_CUBEMAP)) {
        o->layers = (uint32_t)d->Depth;
        o->depth = 1;
        o->dims = d->Height ? 2 : 1;
        o->layer_bytes = o->slice;
    } else {
        o->depth = d->Depth ? (uint32_t)d->Depth : 1;
        o->dims = d->Depth ? 3 : d->Height ? 2 : 1;
    }
}

/* Fills the geometry of o from a resource description; for a mipmapped
 * array, *levels gets one object per level (geometry only; the caller
 * completes them). */
static CUresult describe_resource(const CUDA_RESOURCE_DESC *res, cb_texture_desc *o, cb_texture_desc **levels)
{
    switch (res->resType) {
    case CU_RESOURCE_TYPE_ARRAY: {
        cb_array *a = (cb_array *)res->res.array.hArray;
        if (!a || !array_live(a))
            return CUDA_ERROR_INVALID_HANDLE;
        describe_array(a, o);
        return CUDA_SUCCESS;
    }
    case CU_RESOURCE_TYPE_MIPMAPPED_ARRAY: {
        cb_mipmap *m = (cb_mipmap *)res->res.mipmap.hMipmappedArray;
        cb_mutex_lock(&g.lock);
        const cb_mipmap *p = g.mipmaps;
        while (p && p != m)
            p = p->next;
        if (!p) {
            cb_mutex_unlock(&g.lock);
            return CUDA_ERROR_INVALID_HANDLE;
        }
        cb_texture_desc *lv = calloc(m->num_levels, sizeof *lv);
        if (lv)
            for (unsigned i = 0; i < m->num_levels; i++)
                describe_array(m->level[i], &lv[i]);
        cb_mutex_unlock(&g.lock);
        if (!lv)
            return CUDA_ERROR_OUT_OF_MEMORY;
        *o = lv[0];
        o->num_levels = m->num_levels;
        *levels = lv;
        return CUDA_SUCCESS;
    }
    case CU_RESOURCE_TYPE_LINEAR:
        if (!res->res.linear.devPtr)
            return CUDA_ERROR_INVALID_VALUE;
        o->base = res->res.linear.devPtr;
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
        o->base = res->res.pitch2D.devPtr;
        o->format = res->res.pitch2D.format;
        o->channels = res->res.pitch2D.numChannels;
        o->width = (uint32_t)res->res.pitch2D.width;
        o->height = (uint32_t)res->res.pitch2D.height;
        o->depth = 1;
        o->dims = 2;
        o->pitch = res->res.pitch2D.pitchInBytes;
        return CUDA_SUCCESS;
    default:
        return CUDA_ERROR_INVALID_VALUE;
    }
}

/* Copies the sampling state of a texture description into o. */
static void apply_texture_desc(const CUDA_TEXTURE_DESC *tex, cb_texture_desc *o)
{
    for (int i = 0; i < 3; i++)
        o->address[i] = o->cube ? (uint32_t)CU_TR_ADDRESS_MODE_CLAMP : (uint32_t)tex->addressMode[i];
    o->filter = (uint32_t)tex->filterMode;
    o->flags = tex->flags;
    memcpy(o->border, tex->borderColor, sizeof o->border);
    o->mip_filter = (uint32_t)tex->mipmapFilterMode;
    o->lod_bias = tex->mipmapLevelBias;
    o->min_lod = tex->minMipmapLevelClamp;
    o->max_lod = tex->maxMipmapLevelClamp;
    o->max_aniso = tex->maxAnisotropy > 16 ? 16 : tex->maxAnisotropy;   /* CUDA clamps it to [1, 16] */
}

/* Why a texture description cannot be honoured (NULL if it can). */
static const char *texture_desc_refusal(const CUDA_TEXTURE_DESC *tex)
{
    if (tex->flags & CU_TRSF_SRGB)
        return "sRGB textures are not supported";
    return NULL;
}

/* The device that makes an object over device memory at base: the owner of
 * that memory, else the current context's device. */
static cb_backend *texture_backend(uint64_t base)
{
    cb_mem_info info = cb_mem_lookup(base);
    if (info.backend)
        return info.backend;
    cb_context *ctx = cb_ctx_current();
    cb_device *d = ctx && cb_ctx_valid(ctx) ? ctx->device : cb_device_get(0);
    return d ? d->backend : NULL;
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
    cb_texture_desc desc;
    memset(&desc, 0, sizeof desc);
    cb_texture_desc *o = &desc, *levels = NULL;
    CUresult r = describe_resource(res, o, &levels);
    uint32_t fb = format_bytes((CUarray_format)o->format);
    if (r == CUDA_SUCCESS && (!fb || (o->channels != 1 && o->channels != 2 && o->channels != 4) || !o->width))
        r = CUDA_ERROR_INVALID_VALUE;
    if (r == CUDA_SUCCESS && is_surface && res->resType != CU_RESOURCE_TYPE_ARRAY)
        r = CUDA_ERROR_INVALID_VALUE;   /* surfaces live in CUDA arrays (or one level of a mipmapped array) */
    const char *why = r == CUDA_SUCCESS && tex ? texture_desc_refusal(tex) : NULL;
    if (why) {
        cb_log(CB_LOG_WARN, "%s", why);
        r = CUDA_ERROR_NOT_SUPPORTED;
    }
    cb_backend *b = r == CUDA_SUCCESS ? texture_backend(o->base) : NULL;
    if (r == CUDA_SUCCESS && (!b || !b->texture_create)) {
        cb_log(CB_LOG_WARN, "texture objects: the %s backend has none", b ? b->name : "(no)");
        r = CUDA_ERROR_NOT_SUPPORTED;
    }
    if (r != CUDA_SUCCESS) {
        free(levels);
        free(rec);
        return r;
    }
    o->is_surface = (uint32_t)is_surface;
    o->elem_bytes = fb * o->channels;
    if (!o->num_levels)
        o->num_levels = 1;
    if (tex) {
        apply_texture_desc(tex, o);
        rec->tex = *tex;
    }
    for (unsigned i = 0; levels && i < o->num_levels; i++) {
        cb_texture_desc *l = &levels[i];
        uint64_t keep_pitch = l->pitch, keep_slice = l->slice, keep_layer = l->layer_bytes, keep_base = l->base;
        uint32_t w = l->width, h = l->height, dp = l->depth;
        *l = *o;
        l->base = keep_base;
        l->pitch = keep_pitch;
        l->slice = keep_slice;
        l->layer_bytes = keep_layer;
        l->width = w;
        l->height = h;
        l->depth = dp;
        l->num_levels = 1;
        l->levels = NULL;
    }
    o->levels = levels;
    r = b->texture_create(b, o, &rec->handle);
    free(levels);
    if (r != CUDA_SUCCESS) {
        free(rec);
        return r;
    }
    rec->backend = b;
    rec->is_surface = is_surface;
    rec->res = *res;
    cb_mutex_lock(&g.lock);
    rec->next = g.objs;
    g.objs = rec;
    cb_mutex_unlock(&g.lock);
    *out = rec->handle;
    return CUDA_SUCCESS;
}

/* The live record of handle obj of the given kind, or NULL. Under the lock
 * when unlink is 0; unlinked from the list when unlink is 1. */
static texobj_rec *find_obj(unsigned long long obj, int is_surface, int unlink, texobj_rec *copy)
{
    cb_mutex_lock(&g.lock);
    texobj_rec **p = &g.objs;
    while (*p && (*p)->handle != obj)
        p = &(*p)->next;
    texobj_rec *rec = *p;
    if (rec && rec->is_surface != is_surface)
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
    if (rec->backend->texture_destroy)
        rec->backend->texture_destroy(rec->backend, rec->handle);
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
