/* memory.h: device memory for the driver API and the rest of the core.
 *
 * Device memory belongs to the device's backend (backend.h): the core asks
 * it for allocations (mem_alloc) and keeps the table of every live
 * allocation of every kind and device (memtable.c), for validation, copy
 * direction and cuPointerGetAttribute. The core never dereferences a device
 * address: copies and fills go through the owning backend's vtable.
 *
 * This header is the core's view: allocation, free, lookup and validation,
 * and the byte-moving helpers that stream workers and graph nodes run.
 */
#ifndef CB_CORE_MEMORY_H
#define CB_CORE_MEMORY_H

#include "core/core.h"

/* Allocates `bytes` of device memory owned by ctx, on ctx's device (device 0
 * when ctx is NULL); bytes 0 is an error: CUDA_ERROR_INVALID_VALUE.
 * CUDA_ERROR_OUT_OF_MEMORY when the device is full; later allocations still
 * work. */
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
    CB_MEM_MANAGED,       /* cuMemAllocManaged (device memory with a host view at its address) */
    CB_MEM_VMM,           /* a cuMemMap'ed range */
    CB_MEM_HOST,          /* cuMemAllocHost / cuMemHostAlloc (pinned) */
    CB_MEM_REGISTERED,    /* cuMemHostRegister'ed range */
    CB_MEM_FREED,         /* in a device's address range but no live allocation: freed or wild */
} cb_mem_kind;

typedef struct cb_mem_info {
    cb_mem_kind kind;
    uint64_t base;        /* start of the containing allocation */
    size_t size;          /* its size in bytes as requested */
    cb_context *ctx;      /* the owning context (NULL when unknown) */
    uint64_t buffer_id;   /* unique per allocation, never reused */
    unsigned flags;       /* host alloc / register flags */
    cb_backend *backend;  /* the device memory's owner (DEVICE, MANAGED, VMM); NULL for host memory */
    cb_device_mem mem;    /* DEVICE, MANAGED: what the backend handed out */
    uint64_t block_start; /* HOST: the host mapping behind it (guard pages included) */
    size_t block_bytes;
    void *owner;          /* the memory pool or VMM handle it came from, or NULL */
} cb_mem_info;

/* Classifies addr. Never fails; unknown memory gives CB_MEM_UNKNOWN. */
cb_mem_info cb_mem_lookup(uint64_t addr);

/* Checks that [addr, addr+bytes) is usable as device memory: inside one
 * live device, managed, VMM or pinned/registered host allocation.
 * Returns CUDA_SUCCESS or CUDA_ERROR_INVALID_VALUE (with a log line). */
CUresult cb_mem_check_device(uint64_t addr, size_t bytes, const char *what);

/* Allocates like cb_mem_alloc with a kind (CB_MEM_DEVICE or CB_MEM_MANAGED)
 * and an owner (a memory pool, told of the free through
 * cb_mempool_note_free), returning the record. */
CUresult cb_mem_alloc_ex(cb_context *ctx, size_t bytes, cb_mem_kind kind, void *owner, cb_mem_info *out);

/* Removes a device/managed allocation whose base is dptr from the table
 * (into *out) without freeing it; CUDA_ERROR_INVALID_VALUE if none. */
CUresult cb_mem_detach(uint64_t dptr, cb_mem_info *out);

/* Frees a record taken by cb_mem_detach (memory back to its backend, pool told). */
void cb_mem_release(const cb_mem_info *rec);

/* ---- the allocation table (memtable.c) ----------------------------------
 * Every live allocation of every kind, sorted by base, for "which allocation
 * contains address X" in O(log n). Process-wide state, guarded by its lock. */

/* Adds a record; -1 if it overlaps a live one. Assigns buffer_id. */
int cb_memtable_insert(cb_mem_info *rec);
/* Removes the record whose base is base and whose kind is one of the bits
 * in kinds_mask (1u << kind); fills *out. Returns 0 or -1. */
int cb_memtable_remove(uint64_t base, unsigned kinds_mask, cb_mem_info *out);
/* Finds the record containing addr. Returns 0 or -1. */
int cb_memtable_find(uint64_t addr, cb_mem_info *out);
/* Removes one record owned by ctx with a kind in kinds_mask. 0 or -1. */
int cb_memtable_remove_owned(const cb_context *ctx, unsigned kinds_mask, cb_mem_info *out);

/* The allocation nearest an address, for fault reports: the live one
 * containing it, else a recently freed one containing it, else the closest
 * live one below (addr is past its end) or above (addr is before it). */
typedef enum cb_mem_relation {
    CB_MEM_NEAR_INSIDE,   /* distance: bytes from its start */
    CB_MEM_NEAR_FREED,    /* inside a freed allocation; distance from its start */
    CB_MEM_NEAR_AFTER,    /* distance: bytes past its last byte (0: the first byte after it) */
    CB_MEM_NEAR_BEFORE,   /* distance: bytes before its start */
} cb_mem_relation;
typedef struct cb_mem_near {
    cb_mem_info rec;
    cb_mem_relation relation;
    uint64_t distance;
} cb_mem_near;
/* Returns 0 with *out filled, or -1 when no allocation is known. */
int cb_mem_nearest(uint64_t addr, cb_mem_near *out);
/* One sentence for a fault report: "address 0x... is 4 bytes after the
 * 1024-byte device allocation at 0x...", "... is inside a freed ...", or,
 * 1 GiB or more outside every allocation, "... is near no allocation (the
 * nearest, ..., is N GiB away)". */
void cb_mem_describe_address(uint64_t addr, char *buf, size_t len);

/* Current and peak bytes in use on device 0, and its total (on the CPU:
 * CUBRIDGE_MEM). Zeros before cb_init. */
void cb_mem_usage(size_t *used, size_t *peak, size_t *total);
/* The same for device d. */
void cb_device_mem_usage(const cb_device *d, cb_mem_stats *out);

/* ---- copies and fills, run by stream workers and graph nodes ----------- */

/* A copy of a box of bytes between two addresses (linear memory). */
typedef struct cb_copy {
    uint64_t dst, src;            /* first byte of each side */
    int dst_device, src_device;   /* 1: device memory (moved through its backend) */
    size_t width;                 /* bytes per row */
    size_t height, depth;         /* rows per slice, slices */
    size_t dst_pitch, src_pitch;  /* bytes from one row to the next */
    size_t dst_slice, src_slice;  /* bytes from one slice to the next */
} cb_copy;

/* A 1D/2D fill of 1, 2 or 4 byte elements. */
typedef struct cb_fill {
    uint64_t dst;
    uint32_t value;
    unsigned elem_size;
    size_t width;                 /* elements per row */
    size_t height;
    size_t pitch;                 /* bytes from one row to the next */
} cb_fill;

/* A plain linear copy of bytes, classifying both sides. */
cb_copy cb_copy_linear(uint64_t dst, uint64_t src, size_t bytes);

/* Checks a copy's device sides (CUDA_ERROR_INVALID_VALUE for freed or
 * unknown device addresses or ranges past an allocation's end). */
CUresult cb_copy_check(const cb_copy *c);

/* Builds (and checks) a copy from CUDA's descriptors. Arrays give
 * CUDA_ERROR_NOT_SUPPORTED. */
CUresult cb_copy_from_2d(const CUDA_MEMCPY2D *p, cb_copy *out);
CUresult cb_copy_from_3d(const CUDA_MEMCPY3D *p, cb_copy *out);
/* Turns a copy back into a CUDA_MEMCPY3D (for graph node queries). */
void cb_copy_to_3d(const cb_copy *c, CUDA_MEMCPY3D *out);

/* Checks a fill's destination range. */
CUresult cb_fill_check(const cb_fill *f);

/* Bytes a copy touches on its source side (for staging), 0 if empty. */
size_t cb_copy_src_extent(const cb_copy *c);

/* Moves the bytes / writes the elements through the backends that own the
 * device sides (staged through host memory between two backends); be is
 * used for device addresses no live allocation covers (it then reports the
 * fault). Host sides are moved by the core. */
CUresult cb_copy_run(cb_backend *be, const cb_copy *c);
CUresult cb_fill_run(cb_backend *be, const cb_fill *f);

#endif
