/* texture.c: texture and surface objects of the OpenCL backend (backend.h's
 * texture_create / texture_destroy; opencl_internal.h).
 *
 * Kernels take a CUtexObject / CUsurfObject as a 64-bit parameter, and
 * OpenCL images can only be kernel arguments, so sampling is done in
 * software by the generated code (codegen/opencl/tex.c, on the C dialect's
 * helpers) and a handle is the device address of a descriptor in device
 * memory: codegen/opencl/texobj.h's cb_ocl_texobj, then one per mip level
 * for a mipmapped texture. After the descriptors, a tail that only the host
 * reads: the allocation, to give back at texture_destroy. Memory is reached
 * only through the backend's own vtable (mem_alloc, copy_htod ...), so this
 * file does not depend on how the backend keeps it.
 */
#include <stdlib.h>
#include <string.h>

#include "backend/opencl/opencl_internal.h"
#include "codegen/opencl/texobj.h"
#include "platform/log.h"

/* After the descriptors: what texture_destroy gives back, checked against the handle. */
typedef struct texture_tail {
    uint64_t handle;
    cb_device_mem mem;
} texture_tail;

static void texobj_fill(cb_ocl_texobj *o, const cb_texture_desc *d, uint64_t self)
{
    memset(o, 0, sizeof *o);
    o->magic = CB_OCL_TEXOBJ_MAGIC;
    o->base = d->base;
    CB_TEXDESC_COPY(o, d);
    o->self = self;
}

/* 1 when every texel of d lies in b's device memory (the generated code reads them unchecked). */
static int texels_on_device(cb_backend *b, const cb_texture_desc *d)
{
    uint64_t layers = d->layers ? d->layers : 1, depth = d->dims > 2 ? d->depth : 1, rows = d->dims > 1 ? d->height : 1;
    uint64_t row = (uint64_t)d->width * d->elem_bytes;
    if (!row || !depth || !rows)
        return 0;
    uint64_t last = d->base + (layers - 1) * d->layer_bytes + (depth - 1) * d->slice + (rows - 1) * d->pitch + row - 1;
    return last >= d->base && b->mem_owns(b, d->base) && b->mem_owns(b, last);
}

CUresult ocl_texture_create(cb_backend *b, const cb_texture_desc *desc, uint64_t *handle)
{
    uint32_t nlevels = desc->num_levels > 1 && desc->levels ? desc->num_levels : 0;
    int ok = texels_on_device(b, desc);
    for (uint32_t i = 0; ok && i < nlevels; i++)
        ok = texels_on_device(b, &desc->levels[i]);
    if (!ok) {
        cb_log(CB_LOG_WARN, "opencl: a texture or surface object over memory that is not the device's");
        return CUDA_ERROR_INVALID_VALUE;
    }
    size_t ndesc = 1 + (size_t)nlevels, bytes = ndesc * sizeof(cb_ocl_texobj) + sizeof(texture_tail);
    cb_ocl_texobj *o = calloc(1, bytes);
    if (!o)
        return CUDA_ERROR_OUT_OF_MEMORY;
    cb_device_mem mem;
    CUresult r = b->mem_alloc(b, bytes, 0, &mem);
    if (r != CUDA_SUCCESS) {
        free(o);
        return r;
    }
    texobj_fill(&o[0], desc, mem.addr);
    if (nlevels)
        o[0].level = mem.addr + sizeof *o;
    for (uint32_t i = 0; i < nlevels; i++) {
        texobj_fill(&o[1 + i], &desc->levels[i], mem.addr + (1 + i) * sizeof *o);
        o[1 + i].num_levels = 1;
    }
    texture_tail tail = {mem.addr, mem};
    memcpy((unsigned char *)o + ndesc * sizeof *o, &tail, sizeof tail);
    r = b->copy_htod(b, mem.addr, o, bytes);
    free(o);
    if (r != CUDA_SUCCESS) {
        b->mem_free(b, &mem);
        return r;
    }
    *handle = mem.addr;
    return CUDA_SUCCESS;
}

void ocl_texture_destroy(cb_backend *b, uint64_t handle)
{
    cb_ocl_texobj o;
    texture_tail tail;
    if (b->copy_dtoh(b, &o, handle, sizeof o) != CUDA_SUCCESS || o.magic != CB_OCL_TEXOBJ_MAGIC || o.self != handle)
        goto lost;
    uint64_t ndesc = 1 + (o.num_levels > 1 && o.level ? o.num_levels : 0);
    if (b->copy_dtoh(b, &tail, handle + ndesc * sizeof o, sizeof tail) != CUDA_SUCCESS || tail.handle != handle ||
        tail.mem.addr != handle)
        goto lost;
    b->mem_free(b, &tail.mem);
    return;
lost:   /* overwritten by a kernel, or the device is gone: the descriptor is left where it is */
    cb_log(CB_LOG_WARN, "opencl: texture object 0x%llx: its descriptor was overwritten; not freed",
           (unsigned long long)handle);
}
