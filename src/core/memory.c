/* memory.c: device allocation, lookup, validation, and the copy and fill
 * engines (see memory.h). */
#include "core/memory.h"
#include "core/texture.h"

#include <string.h>

#include "backend/cpu/arena.h"
#include "core/mempool.h"

#define KIND_BIT(k) (1u << (k))
#define ARENA_KINDS (KIND_BIT(CB_MEM_DEVICE) | KIND_BIT(CB_MEM_MANAGED))

CUresult cb_mem_alloc_ex(cb_context *ctx, size_t bytes, cb_mem_kind kind, void *owner, cb_mem_info *out)
{
    if (bytes == 0)
        return CUDA_ERROR_INVALID_VALUE;
    cb_arena_block block;
    uint64_t ptr;
    if (cb_arena_alloc(bytes, &ptr, &block) != 0) {
        cb_log(CB_LOG_INFO, "out of device memory allocating %zu bytes", bytes);
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    cb_mem_info rec = { .kind = kind, .base = ptr, .size = bytes, .ctx = ctx,
                        .block_start = block.start, .block_bytes = block.bytes, .owner = owner };
    if (cb_memtable_insert(&rec) != 0) {
        cb_arena_free(block);
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
    if (cb_memtable_remove(dptr, ARENA_KINDS, out) != 0) {
        cb_log(CB_LOG_INFO, "free of 0x%llx: not the start of a live allocation", (unsigned long long)dptr);
        return CUDA_ERROR_INVALID_VALUE;
    }
    return CUDA_SUCCESS;
}

void cb_mem_release(const cb_mem_info *rec)
{
    cb_arena_free((cb_arena_block){ rec->block_start, rec->block_bytes });
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
    while (cb_memtable_remove_owned(ctx, ARENA_KINDS, &rec) == 0)
        cb_mem_release(&rec);
}

cb_mem_info cb_mem_lookup(uint64_t addr)
{
    cb_mem_info info;
    if (cb_memtable_find(addr, &info) == 0)
        return info;
    memset(&info, 0, sizeof info);
    info.kind = cb_arena_contains(addr) ? CB_MEM_FREED : CB_MEM_UNKNOWN;
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

void cb_mem_usage(size_t *used, size_t *peak, size_t *total)
{
    cb_arena_stats st = cb_arena_get_stats();
    if (used)
        *used = st.used;
    if (peak)
        *peak = st.peak;
    if (total)
        *total = st.total;
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
    if (c->dst_device || cb_arena_contains(c->dst)) {
        CUresult r = check_range(c->dst, dst_bytes, "copy destination");
        if (r != CUDA_SUCCESS)
            return r;
    }
    if (c->src_device || cb_arena_contains(c->src))
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

static CUresult copy_row(cb_backend *be, const cb_copy *c, uint64_t dst, uint64_t src)
{
    if (c->dst_device && c->src_device)
        return be->copy_dtod(be, dst, src, c->width);
    if (c->dst_device)
        return be->copy_htod(be, dst, (const void *)(uintptr_t)src, c->width);
    if (c->src_device)
        return be->copy_dtoh(be, (void *)(uintptr_t)dst, src, c->width);
    memmove((void *)(uintptr_t)dst, (const void *)(uintptr_t)src, c->width);
    return CUDA_SUCCESS;
}

CUresult cb_copy_run(cb_backend *be, const cb_copy *c)
{
    if (c->width == 0)
        return CUDA_SUCCESS;
    for (size_t z = 0; z < c->depth; z++) {
        for (size_t y = 0; y < c->height; y++) {
            uint64_t dst = c->dst + z * c->dst_slice + y * c->dst_pitch;
            uint64_t src = c->src + z * c->src_slice + y * c->src_pitch;
            CUresult r = copy_row(be, c, dst, src);
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

CUresult cb_fill_run(cb_backend *be, const cb_fill *f)
{
    for (size_t y = 0; y < f->height && f->width; y++) {
        CUresult r = be->memset(be, f->dst + y * f->pitch, f->value, f->elem_size, f->width);
        if (r != CUDA_SUCCESS)
            return r;
    }
    return CUDA_SUCCESS;
}
