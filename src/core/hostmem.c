/* hostmem.c: pinned and registered host memory (see hostmem.h). */
#include "core/hostmem.h"

#include "core/memory.h"
#include "platform/sysinfo.h"
#include "platform/vm.h"

#define HOST_KIND_BIT (1u << CB_MEM_HOST)
#define REGISTERED_KIND_BIT (1u << CB_MEM_REGISTERED)

/* Bytes of pinned memory handed out (whole pages). Pinned pages cannot be
 * swapped, so together they must fit in physical memory; the mapping itself
 * would not say so (address space is reserved without commit accounting,
 * and Linux overcommits). */
static _Atomic size_t pinned_bytes;

static int pinned_charge(size_t bytes)
{
    size_t limit = cb_sys_physical_memory(), now = atomic_load(&pinned_bytes);
    do {
        if (limit && (bytes > limit || now > limit - bytes))
            return -1;
    } while (!atomic_compare_exchange_weak(&pinned_bytes, &now, now + bytes));
    return 0;
}

static void pinned_uncharge(size_t bytes) { atomic_fetch_sub(&pinned_bytes, bytes); }

/* Tells every device that reaches host memory that [p, p + bytes) is
 * mapped (on) or no longer (off). Returns CUDA_SUCCESS or the first
 * failure (then nothing stays mapped). */
static CUresult host_reach(const void *p, size_t bytes, int on)
{
    int n = cb_device_count();
    for (int i = 0; i < n; i++) {
        cb_device *d = cb_device_get(i);
        if (!d || !d->info.host_memory_access || !d->backend->host_map)
            continue;
        if (!on) {
            d->backend->host_unmap(d->backend, p, bytes);
        } else if (d->backend->host_map(d->backend, p, bytes) != CUDA_SUCCESS) {
            while (i-- > 0) {
                d = cb_device_get(i);
                if (d && d->info.host_memory_access && d->backend->host_unmap)
                    d->backend->host_unmap(d->backend, p, bytes);
            }
            return CUDA_ERROR_OUT_OF_MEMORY;
        }
    }
    return CUDA_SUCCESS;
}

CUresult cb_host_alloc(cb_context *ctx, size_t bytes, unsigned flags, void **out)
{
    unsigned known = CU_MEMHOSTALLOC_PORTABLE | CU_MEMHOSTALLOC_DEVICEMAP | CU_MEMHOSTALLOC_WRITECOMBINED;
    if (!out || bytes == 0 || (flags & ~known))
        return CUDA_ERROR_INVALID_VALUE;
    size_t page = cb_vm_page_size();
    size_t body = (bytes + page - 1) / page * page;
    if (body < bytes)
        return CUDA_ERROR_OUT_OF_MEMORY;
    size_t total = body + 2 * page;
    if (total < body || pinned_charge(body) != 0) {
        cb_log(CB_LOG_INFO, "cuMemHostAlloc: %zu bytes of pinned memory do not fit in the machine's %zu bytes",
               bytes, cb_sys_physical_memory());
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    unsigned char *map = cb_vm_reserve(total);
    if (!map) {
        pinned_uncharge(body);
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    if (cb_vm_commit(map + page, body) != 0 || host_reach(map + page, body, 1) != CUDA_SUCCESS) {
        cb_vm_release(map, total);
        pinned_uncharge(body);
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    cb_mem_info rec = { .kind = CB_MEM_HOST, .base = (uint64_t)(uintptr_t)(map + page), .size = bytes,
                        .ctx = ctx, .flags = flags, .block_start = (uint64_t)(uintptr_t)map,
                        .block_bytes = total };
    if (cb_memtable_insert(&rec) != 0) {
        host_reach(map + page, body, 0);
        cb_vm_release(map, total);
        pinned_uncharge(body);
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    *out = map + page;
    return CUDA_SUCCESS;
}

CUresult cb_host_free(void *p)
{
    cb_mem_info rec;
    if (!p || cb_memtable_remove((uint64_t)(uintptr_t)p, HOST_KIND_BIT, &rec) != 0)
        return CUDA_ERROR_INVALID_VALUE;
    size_t page = cb_vm_page_size(), body = rec.block_bytes - 2 * page;
    host_reach((void *)(uintptr_t)rec.base, body, 0);
    cb_vm_release((void *)(uintptr_t)rec.block_start, rec.block_bytes);
    pinned_uncharge(body);
    return CUDA_SUCCESS;
}

CUresult cb_host_register(cb_context *ctx, void *p, size_t bytes, unsigned flags)
{
    unsigned known = CU_MEMHOSTREGISTER_PORTABLE | CU_MEMHOSTREGISTER_DEVICEMAP | CU_MEMHOSTREGISTER_IOMEMORY |
                     CU_MEMHOSTREGISTER_READ_ONLY;
    if (!p || bytes == 0 || (flags & ~known))
        return CUDA_ERROR_INVALID_VALUE;
    if (flags & CU_MEMHOSTREGISTER_IOMEMORY) {
        cb_log(CB_LOG_WARN, "cuMemHostRegister: CU_MEMHOSTREGISTER_IOMEMORY is not supported");
        return CUDA_ERROR_NOT_SUPPORTED;
    }
    cb_mem_info rec = { .kind = CB_MEM_REGISTERED, .base = (uint64_t)(uintptr_t)p, .size = bytes, .ctx = ctx,
                        .flags = flags };
    if (cb_memtable_insert(&rec) != 0)
        return CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED;
    if (host_reach(p, bytes, 1) != CUDA_SUCCESS) {
        cb_memtable_remove(rec.base, REGISTERED_KIND_BIT, NULL);
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    return CUDA_SUCCESS;
}

CUresult cb_host_unregister(void *p)
{
    if (!p)
        return CUDA_ERROR_INVALID_VALUE;
    cb_mem_info rec;
    if (cb_memtable_remove((uint64_t)(uintptr_t)p, REGISTERED_KIND_BIT, &rec) != 0)
        return CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED;
    host_reach(p, rec.size, 0);
    return CUDA_SUCCESS;
}
