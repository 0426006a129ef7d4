/* memory.h: device memory for the driver API and the rest of the core.
 *
 * Device memory lives in the arena (arena.h): one reserved range of host
 * address space, committed per allocation, with guard pages around each
 * allocation and freed ranges poisoned. Device pointers are host virtual
 * addresses, so the CPU backend dereferences them directly.
 *
 * This header is the core's view: allocation, free, lookup and validation,
 * and the byte-moving helpers that stream workers and graph nodes run.
 */
#ifndef CB_CORE_MEMORY_H
#define CB_CORE_MEMORY_H

#include "core/core.h"

/* Allocates `bytes` of device memory owned by ctx (bytes 0 is an error:
 * CUDA_ERROR_INVALID_VALUE). CUDA_ERROR_OUT_OF_MEMORY when the total
 * (CUBRIDGE_MEM) would be exceeded; later allocations still work. */
CUresult cb_mem_alloc(cb_context *ctx, size_t bytes, uint64_t *dptr_out);

/* Frees an allocation made by cb_mem_alloc. dptr must be its base address;
 * anything else (unknown, interior, already freed) is
 * CUDA_ERROR_INVALID_VALUE. */
CUresult cb_mem_free(cb_context *ctx, uint64_t dptr);

/* Frees every allocation owned by ctx (context destruction). */
void cb_mem_free_context(cb_context *ctx);

/* What an address is, for memcpy direction, validation and
 * cuPointerGetAttribute. */
typedef enum cb_mem_kind {
    CB_MEM_UNKNOWN = 0,   /* not ours: ordinary (pageable) host memory */
    CB_MEM_DEVICE,        /* cuMemAlloc / cuMemAllocPitch / pool allocation */
    CB_MEM_MANAGED,       /* cuMemAllocManaged (arena memory) */
    CB_MEM_VMM,           /* a cuMemMap'ed range */
    CB_MEM_HOST,          /* cuMemAllocHost / cuMemHostAlloc (pinned) */
    CB_MEM_REGISTERED,    /* cuMemHostRegister'ed range */
    CB_MEM_FREED,         /* inside the arena but no live allocation: freed or wild */
} cb_mem_kind;

typedef struct cb_mem_info {
    cb_mem_kind kind;
    uint64_t base;        /* start of the containing allocation */
    size_t size;          /* its size in bytes as requested */
    cb_context *ctx;      /* the owning context (NULL when unknown) */
    uint64_t buffer_id;   /* unique per allocation, never reused */
    unsigned flags;       /* host alloc / register flags */
} cb_mem_info;

/* Classifies addr. Never fails; unknown memory gives CB_MEM_UNKNOWN. */
cb_mem_info cb_mem_lookup(uint64_t addr);

/* Checks that [addr, addr+bytes) is usable as device memory: inside one
 * live device, managed, VMM or pinned/registered host allocation.
 * Returns CUDA_SUCCESS or CUDA_ERROR_INVALID_VALUE (with a log line). */
CUresult cb_mem_check_device(uint64_t addr, size_t bytes, const char *what);

/* Current and peak device bytes in use, and the total (CUBRIDGE_MEM). */
void cb_mem_usage(size_t *used, size_t *peak, size_t *total);

#endif
