/* memory.c: device allocation, lookup, validation, and the copy and fill
 * engines (see memory.h). */
#include "core/memory.h"
#include "core/texture.h"

#include <stdlib.h>
#include <string.h>

#include "core/mempool.h"

#define KIND_BIT(k) (1u << (k))
#define DEVICE_KINDS (KIND_BIT(CB_MEM_DEVICE) | KIND_BIT(CB_MEM_MANAGED))

/* The device that ctx belongs to, or device 0. */
static cb_device *device_of(const cb_context *ctx)
{
    return ctx ? ctx->device : cb_device_get(0);
}

CUresult cb_mem_alloc_ex(cb_context *ctx, size_t bytes, cb_mem_kind kind, void *owner, cb_mem_info *out)
{
    if (bytes == 0)
        return CUDA_ERROR_INVALID_VALUE;
    cb_device *d = device_of(ctx);
    if (!d)
        return CUDA_ERROR_NOT_INITIALIZED;
    cb_backend *b = d->backend;
    if (kind == CB_MEM_MANAGED && !d->info.managed_memory) {
        cb_log(CB_LOG_WARN, "managed memory: device %d (%s backend) has no host view of its memory", d->ordinal,
               b->name);
        return CUDA_ERROR_NOT_SUPPORTED;
    }
    cb_device_mem mem;
    CUresult r = b->mem_alloc(b, bytes, kind == CB_MEM_MANAGED ? CB_ALLOC_UNIFIED : 0, &mem);
    if (r != CUDA_SUCCESS) {
        cb_log(CB_LOG_INFO, "out of device memory allocating %zu bytes", bytes);
        return r;
    }
    cb_mem_info rec = { .kind = kind, .base = mem.addr, .size = bytes, .ctx = ctx, .backend = b, .mem = mem,
                        .owner = owner };
    if (cb_memtable_insert(&rec) != 0) {
        b->mem_free(b, &mem);
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    if (out)
        *out = rec;
    return CUDA_SUCCESS;
}

CUresult cb_mem_alloc(cb_context *ctx, size_t bytes, uint64_t *dptr_out)
{
    cb_mem_info rec;
    CUresult r = cb_mem_alloc_ex(ctx, bytes, CB_MEM_DEVICE, NULL, &rec);
    if (r == CUDA_SUCCESS)
        *dptr_out = rec.base;
    return r;
}

CUresult cb_mem_detach(uint64_t dptr, cb_mem_info *out)
{
    if (cb_memtable_remove(dptr, DEVICE_KINDS, out) != 0) {
        cb_log(CB_LOG_INFO, "free of 0x%llx: not the start of a live allocation", (unsigned long long)dptr);
        return CUDA_ERROR_INVALID_VALUE;
    }
    return CUDA_SUCCESS;
}

void cb_mem_release(const cb_mem_info *rec)
{
    rec->backend->mem_free(rec->backend, &rec->mem);
    if (rec->owner)
        cb_mempool_note_free(rec->owner, rec->size);
}

CUresult cb_mem_free(cb_context *ctx, uint64_t dptr)
{
    (void)ctx;
    cb_mem_info rec;
    CUresult r = cb_mem_detach(dptr, &rec);
    if (r == CUDA_SUCCESS)
        cb_mem_release(&rec);
    return r;
}

void cb_mem_free_context(cb_context *ctx)
{
    cb_mem_info rec;
    while (cb_memtable_remove_owned(ctx, DEVICE_KINDS, &rec) == 0)
        cb_mem_release(&rec);
}

/* 1 if addr lies in some device's address range. */
static int device_range(uint64_t addr)
{
    for (int i = 0; i < cb_device_count(); i++) {
        cb_backend *b = cb_device_get(i)->backend;
        if (b->mem_owns && b->mem_owns(b, addr))
            return 1;
    }
    return 0;
}

cb_mem_info cb_mem_lookup(uint64_t addr)
{
    cb_mem_info info;
    if (cb_memtable_find(addr, &info) == 0)
        return info;
    memset(&info, 0, sizeof info);
    info.kind = device_range(addr) ? CB_MEM_FREED : CB_MEM_UNKNOWN;
    return info;
}

static const char *kind_name(cb_mem_kind k)
{
    switch (k) {
    case CB_MEM_DEVICE: return "device";
    case CB_MEM_MANAGED: return "managed";
    case CB_MEM_VMM: return "mapped (VMM)";
    case CB_MEM_HOST: return "pinned host";
    case CB_MEM_REGISTERED: return "registered host";
    case CB_MEM_FREED: return "freed or unallocated device";
    default: return "unknown";
    }
}

/* Checks [addr, addr+bytes) lies in one live record. */
static CUresult check_range(uint64_t addr, size_t bytes, const char *what)
{
    if (bytes == 0)
        return CUDA_SUCCESS;
    cb_mem_info info = cb_mem_lookup(addr);
    if (info.kind == CB_MEM_UNKNOWN || info.kind == CB_MEM_FREED) {
        cb_log(CB_LOG_INFO, "%s 0x%llx is %s memory", what, (unsigned long long)addr, kind_name(info.kind));
        return CUDA_ERROR_INVALID_VALUE;
    }
    /* VMM mappings placed back to back form one usable range. */
    while (info.kind == CB_MEM_VMM && addr + bytes > info.base + info.size) {
        cb_mem_info next;
        if (cb_memtable_find(info.base + info.size, &next) != 0 || next.kind != CB_MEM_VMM ||
            next.base != info.base + info.size)
            break;
        info.size += next.size;
    }
    if (addr + bytes < addr || addr + bytes > info.base + info.size) {
        cb_log(CB_LOG_INFO, "%s 0x%llx + %zu runs past the end of its %zu-byte %s allocation at 0x%llx", what,
               (unsigned long long)addr, bytes, info.size, kind_name(info.kind), (unsigned long long)info.base);
        return CUDA_ERROR_INVALID_VALUE;
    }
    return CUDA_SUCCESS;
}

CUresult cb_mem_check_device(uint64_t addr, size_t bytes, const char *what)
{
    return check_range(addr, bytes, what);
}

void cb_device_mem_usage(const cb_device *d, cb_mem_stats *out)
{
    memset(out, 0, sizeof *out);
    if (d && d->backend->mem_usage)
        d->backend->mem_usage(d->backend, out);
}

void cb_mem_usage(size_t *used, size_t *peak, size_t *total)
{
    cb_mem_stats u;
    cb_device_mem_usage(cb_device_get(0), &u);
    if (used)
        *used = u.used;
    if (peak)
        *peak = u.peak;
    if (total)
        *total = u.total;
}

/* ---- copies ------------------------------------------------------------ */

/* 1 if a unified address should be treated as device memory. */
static int is_device_address(uint64_t addr)
{
    cb_mem_info info = cb_mem_lookup(addr);
    return info.kind == CB_MEM_DEVICE || info.kind == CB_MEM_MANAGED || info.kind == CB_MEM_VMM ||
           info.kind == CB_MEM_FREED;
}

cb_copy cb_copy_linear(uint64_t dst, uint64_t src, size_t bytes)
{
    cb_copy c = { .dst = dst, .src = src, .width = bytes, .height = 1, .depth = 1 };
    c.dst_device = is_device_address(dst);
    c.src_device = is_device_address(src);
    return c;
}

static size_t extent(size_t width, size_t height, size_t depth, size_t pitch, size_t slice)
{
    if (width == 0 || height == 0 || depth == 0)
        return 0;
    return (depth - 1) * slice + (height - 1) * pitch + width;
}

size_t cb_copy_src_extent(const cb_copy *c)
{
    return extent(c->width, c->height, c->depth, c->src_pitch, c->src_slice);
}

CUresult cb_copy_check(const cb_copy *c)
{
    if (c->height > 1 && (c->src_pitch < c->width || c->dst_pitch < c->width))
        return CUDA_ERROR_INVALID_VALUE;
    if (c->depth > 1 && (c->src_slice < c->src_pitch * c->height || c->dst_slice < c->dst_pitch * c->height))
        return CUDA_ERROR_INVALID_VALUE;
    size_t dst_bytes = extent(c->width, c->height, c->depth, c->dst_pitch, c->dst_slice);
    size_t src_bytes = cb_copy_src_extent(c);
    if (c->dst_device || device_range(c->dst)) {
        CUresult r = check_range(c->dst, dst_bytes, "copy destination");
        if (r != CUDA_SUCCESS)
            return r;
    }
    if (c->src_device || device_range(c->src))
        return check_range(c->src, src_bytes, "copy source");
    return CUDA_SUCCESS;
}

/* Fills one side of a copy from a descriptor's memory type. */
static CUresult copy_side(CUmemorytype type, const void *host, CUdeviceptr dev, CUarray array, uint64_t *addr,
                          int *device, size_t *array_pitch)
{
    switch (type) {
    case CU_MEMORYTYPE_HOST:
        *addr = (uint64_t)(uintptr_t)host;
        *device = 0;
        return CUDA_SUCCESS;
    case CU_MEMORYTYPE_DEVICE:
        *addr = dev;
        *device = 1;
        return CUDA_SUCCESS;
    case CU_MEMORYTYPE_UNIFIED:
        *addr = dev;
        *device = is_device_address(dev);
        return CUDA_SUCCESS;
    case CU_MEMORYTYPE_ARRAY: {   /* its dense storage (core/texture.c); array_pitch overrides the copy's */
        size_t rows;
        *device = 1;
        return cb_array_storage(array, addr, array_pitch, &rows);
    }
    default:
        return CUDA_ERROR_INVALID_VALUE;
    }
}

CUresult cb_copy_from_2d(const CUDA_MEMCPY2D *p, cb_copy *out)
{
    if (!p)
        return CUDA_ERROR_INVALID_VALUE;
    cb_copy c = { .width = p->WidthInBytes, .height = p->Height, .depth = 1 };
    size_t sap = 0, dap = 0;
    CUresult r = copy_side(p->srcMemoryType, p->srcHost, p->srcDevice, p->srcArray, &c.src, &c.src_device, &sap);
    if (r == CUDA_SUCCESS)
        r = copy_side(p->dstMemoryType, p->dstHost, p->dstDevice, p->dstArray, &c.dst, &c.dst_device, &dap);
    if (r != CUDA_SUCCESS)
        return r;
    c.src_pitch = sap ? sap : p->srcPitch ? p->srcPitch : p->WidthInBytes;
    c.dst_pitch = dap ? dap : p->dstPitch ? p->dstPitch : p->WidthInBytes;
    c.src += p->srcY * c.src_pitch + p->srcXInBytes;
    c.dst += p->dstY * c.dst_pitch + p->dstXInBytes;
    c.src_slice = c.src_pitch * c.height;
    c.dst_slice = c.dst_pitch * c.height;
    *out = c;
    return cb_copy_check(&c);
}

CUresult cb_copy_from_3d(const CUDA_MEMCPY3D *p, cb_copy *out)
{
    if (!p)
        return CUDA_ERROR_INVALID_VALUE;
    if (p->srcLOD || p->dstLOD)
        return CUDA_ERROR_INVALID_VALUE;
    cb_copy c = { .width = p->WidthInBytes, .height = p->Height, .depth = p->Depth };
    size_t sap = 0, dap = 0, srows = 0, drows = 0;
    CUresult r = copy_side(p->srcMemoryType, p->srcHost, p->srcDevice, p->srcArray, &c.src, &c.src_device, &sap);
    if (r == CUDA_SUCCESS)
        r = copy_side(p->dstMemoryType, p->dstHost, p->dstDevice, p->dstArray, &c.dst, &c.dst_device, &dap);
    if (r != CUDA_SUCCESS)
        return r;
    if (sap) {
        uint64_t a;
        cb_array_storage(p->srcArray, &a, &sap, &srows);
    }
    if (dap) {
        uint64_t a;
        cb_array_storage(p->dstArray, &a, &dap, &drows);
    }
    c.src_pitch = sap ? sap : p->srcPitch ? p->srcPitch : p->WidthInBytes;
    c.dst_pitch = dap ? dap : p->dstPitch ? p->dstPitch : p->WidthInBytes;
    c.src_slice = c.src_pitch * (srows ? srows : p->srcHeight ? p->srcHeight : p->Height);
    c.dst_slice = c.dst_pitch * (drows ? drows : p->dstHeight ? p->dstHeight : p->Height);
    c.src += p->srcZ * c.src_slice + p->srcY * c.src_pitch + p->srcXInBytes;
    c.dst += p->dstZ * c.dst_slice + p->dstY * c.dst_pitch + p->dstXInBytes;
    *out = c;
    return cb_copy_check(&c);
}

void cb_copy_to_3d(const cb_copy *c, CUDA_MEMCPY3D *out)
{
    memset(out, 0, sizeof *out);
    out->srcMemoryType = c->src_device ? CU_MEMORYTYPE_DEVICE : CU_MEMORYTYPE_HOST;
    out->srcDevice = c->src;
    out->srcHost = c->src_device ? NULL : (const void *)(uintptr_t)c->src;
    out->srcPitch = c->src_pitch;
    out->srcHeight = c->src_pitch ? c->src_slice / c->src_pitch : 0;
    out->dstMemoryType = c->dst_device ? CU_MEMORYTYPE_DEVICE : CU_MEMORYTYPE_HOST;
    out->dstDevice = c->dst;
    out->dstHost = c->dst_device ? NULL : (void *)(uintptr_t)c->dst;
    out->dstPitch = c->dst_pitch;
    out->dstHeight = c->dst_pitch ? c->dst_slice / c->dst_pitch : 0;
    out->WidthInBytes = c->width;
    out->Height = c->height;
    out->Depth = c->depth;
}

/* The backend that moves side addr of a copy: the owner of the device memory
 * there, NULL for host memory (pinned, registered or pageable: the core
 * moves it), or fallback where no live allocation covers a device address. */
static cb_backend *side_backend(uint64_t addr, int device, cb_backend *fallback)
{
    if (!device)
        return NULL;
    cb_mem_info info;
    if (cb_memtable_find(addr, &info) != 0)
        return fallback;
    return info.backend;   /* NULL for host memory */
}

/* One row between two different backends, through a host buffer. */
static CUresult copy_staged(cb_backend *dst_be, uint64_t dst, cb_backend *src_be, uint64_t src, size_t bytes)
{
    unsigned char stack[4096];
    unsigned char *buf = bytes <= sizeof stack ? stack : malloc(bytes);
    if (!buf)
        return CUDA_ERROR_OUT_OF_MEMORY;
    CUresult r = src_be->copy_dtoh(src_be, buf, src, bytes);
    if (r == CUDA_SUCCESS)
        r = dst_be->copy_htod(dst_be, dst, buf, bytes);
    if (buf != stack)
        free(buf);
    return r;
}

static CUresult copy_row(cb_backend *dst_be, cb_backend *src_be, uint64_t dst, uint64_t src, size_t width)
{
    if (dst_be && src_be && dst_be != src_be)
        return copy_staged(dst_be, dst, src_be, src, width);
    if (dst_be && src_be)
        return dst_be->copy_dtod(dst_be, dst, src, width);
    if (dst_be)
        return dst_be->copy_htod(dst_be, dst, (const void *)(uintptr_t)src, width);
    if (src_be)
        return src_be->copy_dtoh(src_be, (void *)(uintptr_t)dst, src, width);
    memmove((void *)(uintptr_t)dst, (const void *)(uintptr_t)src, width);   /* host to host */
    return CUDA_SUCCESS;
}

CUresult cb_copy_run(cb_backend *be, const cb_copy *c)
{
    if (c->width == 0)
        return CUDA_SUCCESS;
    cb_backend *dst_be = side_backend(c->dst, c->dst_device, be);
    cb_backend *src_be = side_backend(c->src, c->src_device, be);
    for (size_t z = 0; z < c->depth; z++) {
        for (size_t y = 0; y < c->height; y++) {
            uint64_t dst = c->dst + z * c->dst_slice + y * c->dst_pitch;
            uint64_t src = c->src + z * c->src_slice + y * c->src_pitch;
            CUresult r = copy_row(dst_be, src_be, dst, src, c->width);
            if (r != CUDA_SUCCESS)
                return r;
        }
    }
    return CUDA_SUCCESS;
}

CUresult cb_fill_check(const cb_fill *f)
{
    if (f->elem_size != 1 && f->elem_size != 2 && f->elem_size != 4)
        return CUDA_ERROR_INVALID_VALUE;
    if (f->dst % f->elem_size)
        return CUDA_ERROR_INVALID_VALUE;
    size_t row = f->width * f->elem_size;
    if (f->height > 1 && f->pitch < row)
        return CUDA_ERROR_INVALID_VALUE;
    return check_range(f->dst, extent(row, f->height, 1, f->pitch, 0), "memset destination");
}

/* A fill of host memory (pinned or registered, which CUDA lets memsets reach). */
static void fill_host(unsigned char *p, uint32_t value, size_t elem_size, size_t count)
{
    for (size_t i = 0; i < count; i++)
        memcpy(p + i * elem_size, &value, elem_size);   /* little-endian: the low bytes of value */
}

CUresult cb_fill_run(cb_backend *be, const cb_fill *f)
{
    cb_backend *owner = side_backend(f->dst, 1, be);
    for (size_t y = 0; y < f->height && f->width; y++) {
        uint64_t row = f->dst + y * f->pitch;
        if (!owner) {
            fill_host((unsigned char *)(uintptr_t)row, f->value, f->elem_size, f->width);
            continue;
        }
        CUresult r = owner->memset(owner, row, f->value, f->elem_size, f->width);
        if (r != CUDA_SUCCESS)
            return r;
    }
    return CUDA_SUCCESS;
}
