/* hostmem.h: page-locked ("pinned") host memory and registered host ranges.
 *
 * On the CPU every host page is reachable by kernels, so pinned memory is
 * ordinary memory: cuMemAllocHost/cuMemHostAlloc give whole pages from their
 * own mapping with an inaccessible page on each side, and the device pointer
 * of pinned or registered memory is the host pointer itself. Both kinds are
 * entered in the allocation table, so copies and cuPointerGetAttribute know
 * them. WRITECOMBINED is accepted and means nothing here.
 */
#ifndef CB_CORE_HOSTMEM_H
#define CB_CORE_HOSTMEM_H

#include "core/core.h"

/* cuMemHostAlloc: flags are CU_MEMHOSTALLOC_*. bytes 0 is
 * CUDA_ERROR_INVALID_VALUE. */
CUresult cb_host_alloc(cb_context *ctx, size_t bytes, unsigned flags, void **out);
/* Frees memory from cb_host_alloc; anything else is CUDA_ERROR_INVALID_VALUE. */
CUresult cb_host_free(void *p);
/* cuMemHostRegister: CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED on overlap. */
CUresult cb_host_register(cb_context *ctx, void *p, size_t bytes, unsigned flags);
/* cuMemHostUnregister: p must be the start of a registered range, else
 * CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED. */
CUresult cb_host_unregister(void *p);

#endif
