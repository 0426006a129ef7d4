/* vmm.c: virtual memory management (see vmm.h). */
#include "core/vmm.h"

#include <stdlib.h>

#include "core/handles.h"
#include "core/memory.h"

#define CB_MAGIC_VMM 0x564d4d68u /* "VMMh" */

typedef struct vmm_handle {
    uint32_t magic;
    cb_backend *backend;    /* the device whose physical memory it is */
    void *phys;             /* the backend's physical memory object */
    size_t size;
    CUmemAllocationProp prop;
    int user_refs;          /* cuMemCreate + cuMemRetainAllocationHandle - cuMemRelease */
    int mappings;           /* live cuMemMap's */
} vmm_handle;

typedef struct vmm_range {
    struct vmm_range *next;
    cb_backend *backend;    /* whose address space it is */
    uint64_t base;
    size_t size;
    /* mappings only: */
    vmm_handle *h;
    size_t offset;
    int access;             /* CB_ACCESS_* */
} vmm_range;

static struct {
    cb_mutex lock;
    vmm_range *reservations;
    vmm_range *mappings;
} vmm = { .lock = CB_MUTEX_INIT };

static int aligned(uint64_t v) { return v % CB_VMM_GRANULARITY == 0; }

static CUresult check_prop(const CUmemAllocationProp *prop)
{
    if (!prop || prop->type != CU_MEM_ALLOCATION_TYPE_PINNED || prop->location.type != CU_MEM_LOCATION_TYPE_DEVICE)
        return CUDA_ERROR_INVALID_VALUE;
    if (prop->location.id < 0 || prop->location.id >= cb_device_count())
        return CUDA_ERROR_INVALID_DEVICE;
    if (!cb_device_get(prop->location.id)->info.virtual_memory)
        return CUDA_ERROR_NOT_SUPPORTED;
    return CUDA_SUCCESS;
}

/* The device whose address space reservations come from: the current
 * context's, else device 0. NULL when it has no virtual memory. */
static cb_backend *reservation_backend(void)
{
    cb_context *ctx = cb_ctx_current();
    cb_device *d = ctx && cb_ctx_valid(ctx) ? ctx->device : cb_device_get(0);
    return d && d->info.virtual_memory ? d->backend : NULL;
}

CUresult cb_vmm_granularity(const CUmemAllocationProp *prop, size_t *out)
{
    CUresult r = check_prop(prop);
    if (r != CUDA_SUCCESS || !out)
        return r != CUDA_SUCCESS ? r : CUDA_ERROR_INVALID_VALUE;
    *out = CB_VMM_GRANULARITY;
    return CUDA_SUCCESS;
}

static vmm_handle *handle_of(CUmemGenericAllocationHandle h)
{
    vmm_handle *p = (vmm_handle *)(uintptr_t)h;
    return cb_handle_live(p, CB_MAGIC_VMM) ? p : NULL;
}

/* Frees h once nothing refers to it (lock held). */
static void handle_maybe_free(vmm_handle *h)
{
    if (h->user_refs > 0 || h->mappings > 0)
        return;
    cb_handle_remove(h);
    h->backend->phys_release(h->backend, h->phys, h->size);
    h->magic = CB_MAGIC_DEAD;
    free(h);
}

CUresult cb_vmm_create(size_t size, const CUmemAllocationProp *prop, unsigned long long flags,
                       CUmemGenericAllocationHandle *out)
{
    CUresult r = check_prop(prop);
    if (r != CUDA_SUCCESS)
        return r;
    if (!out || flags != 0 || size == 0 || !aligned(size))
        return CUDA_ERROR_INVALID_VALUE;
    cb_backend *b = cb_device_get(prop->location.id)->backend;
    vmm_handle *h = calloc(1, sizeof *h);
    if (!h)
        return CUDA_ERROR_OUT_OF_MEMORY;
    r = b->phys_create(b, size, &h->phys);
    if (r != CUDA_SUCCESS) {
        free(h);
        return r;
    }
    h->magic = CB_MAGIC_VMM;
    h->backend = b;
    h->size = size;
    h->prop = *prop;
    h->user_refs = 1;
    cb_handle_add(h);
    *out = (CUmemGenericAllocationHandle)(uintptr_t)h;
    return CUDA_SUCCESS;
}

CUresult cb_vmm_release(CUmemGenericAllocationHandle hv)
{
    cb_mutex_lock(&vmm.lock);
    vmm_handle *h = handle_of(hv);
    CUresult r = CUDA_ERROR_INVALID_VALUE;
    if (h && h->user_refs > 0) {
        h->user_refs--;
        handle_maybe_free(h);
        r = CUDA_SUCCESS;
    }
    cb_mutex_unlock(&vmm.lock);
    return r;
}

CUresult cb_vmm_reserve(size_t size, size_t align, uint64_t hint, unsigned long long flags, uint64_t *out)
{
    (void)hint; /* a hint; CUDA may ignore it too */
    if (!out || size == 0 || !aligned(size) || flags != 0 || (align & (align - 1)))
        return CUDA_ERROR_INVALID_VALUE;
    cb_backend *b = reservation_backend();
    if (!b)
        return CUDA_ERROR_NOT_SUPPORTED;
    vmm_range *res = calloc(1, sizeof *res);
    if (!res)
        return CUDA_ERROR_OUT_OF_MEMORY;
    uint64_t base = 0;
    CUresult r = b->va_reserve(b, size, align > CB_VMM_GRANULARITY ? align : CB_VMM_GRANULARITY, &base);
    if (r != CUDA_SUCCESS) {
        free(res);
        return r;
    }
    res->backend = b;
    res->base = base;
    res->size = size;
    cb_mutex_lock(&vmm.lock);
    res->next = vmm.reservations;
    vmm.reservations = res;
    cb_mutex_unlock(&vmm.lock);
    *out = base;
    return CUDA_SUCCESS;
}

static int overlaps(const vmm_range *r, uint64_t base, size_t size)
{
    return r->base < base + size && base < r->base + r->size;
}

/* Removes mapping m (lock held): back to reserved, out of the table. */
static void mapping_drop(vmm_range *m)
{
    m->backend->va_unmap(m->backend, m->base, m->size);
    cb_memtable_remove(m->base, 1u << CB_MEM_VMM, NULL);
    m->h->mappings--;
    handle_maybe_free(m->h);
    free(m);
}

CUresult cb_vmm_unreserve(uint64_t ptr, size_t size)
{
    cb_mutex_lock(&vmm.lock);
    vmm_range **pp = &vmm.reservations;
    while (*pp && !((*pp)->base == ptr && (*pp)->size == size))
        pp = &(*pp)->next;
    vmm_range *res = *pp;
    if (!res) {
        cb_mutex_unlock(&vmm.lock);
        return CUDA_ERROR_INVALID_VALUE;
    }
    *pp = res->next;
    for (vmm_range **mp = &vmm.mappings; *mp;) {
        vmm_range *m = *mp;
        if (overlaps(res, m->base, m->size)) {
            *mp = m->next;
            mapping_drop(m);
        } else {
            mp = &m->next;
        }
    }
    cb_mutex_unlock(&vmm.lock);
    res->backend->va_release(res->backend, res->base, res->size);
    free(res);
    return CUDA_SUCCESS;
}

CUresult cb_vmm_map(uint64_t ptr, size_t size, size_t offset, CUmemGenericAllocationHandle hv,
                    unsigned long long flags)
{
    if (flags != 0 || size == 0 || !aligned(ptr) || !aligned(size) || !aligned(offset))
        return CUDA_ERROR_INVALID_VALUE;
    cb_mutex_lock(&vmm.lock);
    CUresult r = CUDA_SUCCESS;
    vmm_handle *h = handle_of(hv);
    vmm_range *m = NULL, *in = NULL;
    for (vmm_range *res = vmm.reservations; res && !in; res = res->next)
        if (ptr >= res->base && ptr + size <= res->base + res->size)
            in = res;
    if (!h || offset + size > h->size || offset + size < offset || !in)
        r = CUDA_ERROR_INVALID_VALUE;
    else if (in->backend != h->backend)
        r = CUDA_ERROR_NOT_SUPPORTED;   /* physical memory of one device mapped into another's range */
    for (vmm_range *o = vmm.mappings; o && r == CUDA_SUCCESS; o = o->next)
        if (overlaps(o, ptr, size))
            r = CUDA_ERROR_INVALID_VALUE;
    if (r == CUDA_SUCCESS && !(m = calloc(1, sizeof *m)))
        r = CUDA_ERROR_OUT_OF_MEMORY;
    if (r == CUDA_SUCCESS)
        r = h->backend->va_map(h->backend, ptr, size, h->phys, offset);
    if (r == CUDA_SUCCESS) {
        m->backend = h->backend;
        m->base = ptr;
        m->size = size;
        m->h = h;
        m->offset = offset;
        m->access = CB_ACCESS_NONE;
        m->next = vmm.mappings;
        vmm.mappings = m;
        h->mappings++;
    } else {
        free(m);
    }
    cb_mutex_unlock(&vmm.lock);
    return r;
}

CUresult cb_vmm_unmap(uint64_t ptr, size_t size)
{
    if (size == 0 || !aligned(ptr) || !aligned(size))
        return CUDA_ERROR_INVALID_VALUE;
    cb_mutex_lock(&vmm.lock);
    /* every mapping touched must lie wholly inside the range */
    int any = 0;
    for (vmm_range *m = vmm.mappings; m; m = m->next) {
        if (!overlaps(m, ptr, size))
            continue;
        if (m->base < ptr || m->base + m->size > ptr + size) {
            cb_mutex_unlock(&vmm.lock);
            return CUDA_ERROR_INVALID_VALUE;
        }
        any = 1;
    }
    if (!any) {
        cb_mutex_unlock(&vmm.lock);
        return CUDA_ERROR_INVALID_VALUE;
    }
    for (vmm_range **mp = &vmm.mappings; *mp;) {
        vmm_range *m = *mp;
        if (overlaps(m, ptr, size)) {
            *mp = m->next;
            mapping_drop(m);
        } else {
            mp = &m->next;
        }
    }
    cb_mutex_unlock(&vmm.lock);
    return CUDA_SUCCESS;
}

/* Bytes of [ptr, ptr+size) covered by mappings (lock held). */
static size_t mapped_bytes(uint64_t ptr, size_t size)
{
    size_t covered = 0;
    for (vmm_range *m = vmm.mappings; m; m = m->next) {
        if (!overlaps(m, ptr, size))
            continue;
        uint64_t lo = m->base > ptr ? m->base : ptr;
        uint64_t hi = m->base + m->size < ptr + size ? m->base + m->size : ptr + size;
        covered += (size_t)(hi - lo);
    }
    return covered;
}

CUresult cb_vmm_set_access(uint64_t ptr, size_t size, const CUmemAccessDesc *desc, size_t count)
{
    if (!desc || count == 0 || size == 0 || !aligned(ptr) || !aligned(size))
        return CUDA_ERROR_INVALID_VALUE;
    int access = CB_ACCESS_NONE;
    for (size_t i = 0; i < count; i++) {
        if (desc[i].location.type != CU_MEM_LOCATION_TYPE_DEVICE || desc[i].location.id < 0 ||
            desc[i].location.id >= cb_device_count())
            return CUDA_ERROR_INVALID_DEVICE;
        switch (desc[i].flags) {
        case CU_MEM_ACCESS_FLAGS_PROT_NONE: break;
        case CU_MEM_ACCESS_FLAGS_PROT_READ: access = access == CB_ACCESS_READWRITE ? access : CB_ACCESS_READ; break;
        case CU_MEM_ACCESS_FLAGS_PROT_READWRITE: access = CB_ACCESS_READWRITE; break;
        default: return CUDA_ERROR_INVALID_VALUE;
        }
    }
    cb_mutex_lock(&vmm.lock);
    if (mapped_bytes(ptr, size) != size) {
        cb_mutex_unlock(&vmm.lock);
        return CUDA_ERROR_INVALID_VALUE;
    }
    CUresult r = CUDA_SUCCESS;
    for (vmm_range *m = vmm.mappings; m && r == CUDA_SUCCESS; m = m->next) {
        if (!overlaps(m, ptr, size))
            continue;
        if (m->base < ptr || m->base + m->size > ptr + size) {
            r = CUDA_ERROR_INVALID_VALUE; /* partial mappings are not supported */
            break;
        }
        if ((r = m->backend->va_protect(m->backend, m->base, m->size, access)) != CUDA_SUCCESS)
            break;
        int was = m->access != CB_ACCESS_NONE;
        m->access = access;
        if (was && access == CB_ACCESS_NONE) {
            cb_memtable_remove(m->base, 1u << CB_MEM_VMM, NULL);
        } else if (!was && access != CB_ACCESS_NONE) {
            cb_mem_info rec = { .kind = CB_MEM_VMM, .base = m->base, .size = m->size, .owner = m->h,
                                .backend = m->backend };
            cb_context *ctx = cb_ctx_current();
            rec.ctx = ctx;
            cb_memtable_insert(&rec);
        }
    }
    cb_mutex_unlock(&vmm.lock);
    return r;
}

static vmm_range *mapping_at(uint64_t addr)
{
    for (vmm_range *m = vmm.mappings; m; m = m->next)
        if (addr >= m->base && addr < m->base + m->size)
            return m;
    return NULL;
}

CUresult cb_vmm_get_access(unsigned long long *flags, const CUmemLocation *loc, uint64_t ptr)
{
    if (!flags || !loc)
        return CUDA_ERROR_INVALID_VALUE;
    if (loc->type != CU_MEM_LOCATION_TYPE_DEVICE || loc->id < 0 || loc->id >= cb_device_count())
        return CUDA_ERROR_INVALID_DEVICE;
    cb_mutex_lock(&vmm.lock);
    vmm_range *m = mapping_at(ptr);
    CUresult r = CUDA_SUCCESS;
    if (!m)
        r = CUDA_ERROR_INVALID_VALUE;
    else
        *flags = m->access == CB_ACCESS_READWRITE ? CU_MEM_ACCESS_FLAGS_PROT_READWRITE
                 : m->access == CB_ACCESS_READ    ? CU_MEM_ACCESS_FLAGS_PROT_READ
                                                  : CU_MEM_ACCESS_FLAGS_PROT_NONE;
    cb_mutex_unlock(&vmm.lock);
    return r;
}

CUresult cb_vmm_properties(CUmemAllocationProp *prop, CUmemGenericAllocationHandle hv)
{
    if (!prop)
        return CUDA_ERROR_INVALID_VALUE;
    cb_mutex_lock(&vmm.lock);
    vmm_handle *h = handle_of(hv);
    if (h)
        *prop = h->prop;
    cb_mutex_unlock(&vmm.lock);
    return h ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

CUresult cb_vmm_retain(CUmemGenericAllocationHandle *out, uint64_t addr)
{
    if (!out)
        return CUDA_ERROR_INVALID_VALUE;
    cb_mutex_lock(&vmm.lock);
    vmm_range *m = mapping_at(addr);
    if (m) {
        m->h->user_refs++;
        *out = (CUmemGenericAllocationHandle)(uintptr_t)m->h;
    }
    cb_mutex_unlock(&vmm.lock);
    return m ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}
