/* hostmem.c: pinned and registered host memory (see hostmem.h). */
#include "core/hostmem.h"

#include "core/memory.h"
#include "platform/vm.h"

#define HOST_KIND_BIT (1u << CB_MEM_HOST)
#define REGISTERED_KIND_BIT (1u << CB_MEM_REGISTERED)

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
    unsigned char *map = cb_vm_reserve(total);
    if (!map)
        return CUDA_ERROR_OUT_OF_MEMORY;
    if (cb_vm_commit(map + page, body) != 0) {
        cb_vm_release(map, total);
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    cb_mem_info rec = { .kind = CB_MEM_HOST, .base = (uint64_t)(uintptr_t)(map + page), .size = bytes,
                        .ctx = ctx, .flags = flags, .block_start = (uint64_t)(uintptr_t)map,
                        .block_bytes = total };
    if (cb_memtable_insert(&rec) != 0) {
        cb_vm_release(map, total);
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
    cb_vm_release((void *)(uintptr_t)rec.block_start, rec.block_bytes);
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
    return CUDA_SUCCESS;
}

CUresult cb_host_unregister(void *p)
{
    if (!p)
        return CUDA_ERROR_INVALID_VALUE;
    if (cb_memtable_remove((uint64_t)(uintptr_t)p, REGISTERED_KIND_BIT, NULL) != 0)
        return CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED;
    return CUDA_SUCCESS;
}
