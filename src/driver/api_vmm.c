/* api_vmm.c: the virtual memory management API (cuMemCreate, cuMemMap ...),
 * see core/vmm.h. */
#include "driver/driver.h"

#include "core/vmm.h"

CB_EXPORT CUresult cuMemGetAllocationGranularity(size_t *granularity, const CUmemAllocationProp *prop,
                                                 CUmemAllocationGranularity_flags option)
{
    CB_REQUIRE_INIT();
    if (option != CU_MEM_ALLOC_GRANULARITY_MINIMUM && option != CU_MEM_ALLOC_GRANULARITY_RECOMMENDED)
        return CUDA_ERROR_INVALID_VALUE;
    return cb_vmm_granularity(prop, granularity);
}

CB_EXPORT CUresult cuMemAddressReserve(CUdeviceptr *ptr, size_t size, size_t alignment, CUdeviceptr addr,
                                       unsigned long long flags)
{
    CB_REQUIRE_INIT();
    uint64_t p;
    CUresult r = cb_vmm_reserve(size, alignment, addr, flags, &p);
    if (r == CUDA_SUCCESS)
        *ptr = p;
    return r;
}

CB_EXPORT CUresult cuMemAddressFree(CUdeviceptr ptr, size_t size)
{
    CB_REQUIRE_INIT();
    return cb_vmm_unreserve(ptr, size);
}

CB_EXPORT CUresult cuMemCreate(CUmemGenericAllocationHandle *handle, size_t size, const CUmemAllocationProp *prop,
                               unsigned long long flags)
{
    CB_REQUIRE_INIT();
    return cb_vmm_create(size, prop, flags, handle);
}

CB_EXPORT CUresult cuMemRelease(CUmemGenericAllocationHandle handle)
{
    CB_REQUIRE_INIT();
    return cb_vmm_release(handle);
}

CB_EXPORT CUresult cuMemMap(CUdeviceptr ptr, size_t size, size_t offset, CUmemGenericAllocationHandle handle,
                            unsigned long long flags)
{
    CB_REQUIRE_INIT();
    return cb_vmm_map(ptr, size, offset, handle, flags);
}

CB_EXPORT CUresult cuMemUnmap(CUdeviceptr ptr, size_t size)
{
    CB_REQUIRE_INIT();
    return cb_vmm_unmap(ptr, size);
}

CB_EXPORT CUresult cuMemSetAccess(CUdeviceptr ptr, size_t size, const CUmemAccessDesc *desc, size_t count)
{
    CB_REQUIRE_INIT();
    return cb_vmm_set_access(ptr, size, desc, count);
}

CB_EXPORT CUresult cuMemGetAccess(unsigned long long *flags, const CUmemLocation *location, CUdeviceptr ptr)
{
    CB_REQUIRE_INIT();
    return cb_vmm_get_access(flags, location, ptr);
}

CB_EXPORT CUresult cuMemGetAllocationPropertiesFromHandle(CUmemAllocationProp *prop,
                                                          CUmemGenericAllocationHandle handle)
{
    CB_REQUIRE_INIT();
    return cb_vmm_properties(prop, handle);
}

CB_EXPORT CUresult cuMemRetainAllocationHandle(CUmemGenericAllocationHandle *handle, void *addr)
{
    CB_REQUIRE_INIT();
    return cb_vmm_retain(handle, (uint64_t)(uintptr_t)addr);
}

CB_EXPORT CUresult cuMemExportToShareableHandle(void *shareableHandle, CUmemGenericAllocationHandle handle,
                                                CUmemAllocationHandleType handleType, unsigned long long flags)
{
    (void)shareableHandle, (void)handle, (void)handleType, (void)flags;
    return cb_driver_not_supported("cuMemExportToShareableHandle", "sharing VMM allocations between processes is not supported");
}

CB_EXPORT CUresult cuMemImportFromShareableHandle(CUmemGenericAllocationHandle *handle, void *osHandle,
                                                  CUmemAllocationHandleType shHandleType)
{
    (void)handle, (void)osHandle, (void)shHandleType;
    return cb_driver_not_supported("cuMemImportFromShareableHandle", "sharing VMM allocations between processes is not supported");
}
