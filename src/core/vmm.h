/* vmm.h: the virtual memory management API (cuMemCreate, cuMemMap ...).
 *
 * The core keeps the handles, reservations and mappings; the device's
 * backend does the work (backend.h's va_* and phys_* entry points): on the
 * CPU, physical memory is a shared memory object (memfd) per handle charged
 * against the arena's total, address ranges are reserved inside the arena,
 * and cuMemMap maps the object into a reserved range, inaccessible until
 * cuMemSetAccess, as on CUDA; two mappings of one handle share their bytes.
 * Reservations come from the current context's device; a handle maps only
 * into its own device's ranges. Mapped ranges with access are entered in the
 * allocation table as CB_MEM_VMM.
 *
 * Process-wide state: the lists of reservations and mappings in vmm.c,
 * guarded by one lock. Granularity is 2 MiB (minimum and recommended).
 */
#ifndef CB_CORE_VMM_H
#define CB_CORE_VMM_H

#include "core/core.h"

#define CB_VMM_GRANULARITY ((size_t)2 << 20)

CUresult cb_vmm_granularity(const CUmemAllocationProp *prop, size_t *out);
CUresult cb_vmm_create(size_t size, const CUmemAllocationProp *prop, unsigned long long flags,
                       CUmemGenericAllocationHandle *out);
CUresult cb_vmm_release(CUmemGenericAllocationHandle h);
CUresult cb_vmm_reserve(size_t size, size_t align, uint64_t hint, unsigned long long flags, uint64_t *out);
CUresult cb_vmm_unreserve(uint64_t ptr, size_t size);
CUresult cb_vmm_map(uint64_t ptr, size_t size, size_t offset, CUmemGenericAllocationHandle h,
                    unsigned long long flags);
CUresult cb_vmm_unmap(uint64_t ptr, size_t size);
CUresult cb_vmm_set_access(uint64_t ptr, size_t size, const CUmemAccessDesc *desc, size_t count);
CUresult cb_vmm_get_access(unsigned long long *flags, const CUmemLocation *loc, uint64_t ptr);
CUresult cb_vmm_properties(CUmemAllocationProp *prop, CUmemGenericAllocationHandle h);
CUresult cb_vmm_retain(CUmemGenericAllocationHandle *out, uint64_t addr);

#endif
