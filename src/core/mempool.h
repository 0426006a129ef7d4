/* mempool.h: stream-ordered allocation and memory pools.
 *
 * A pool hands out arena allocations and keeps CUDA's statistics
 * (reserved/used, current/high). cubridge keeps no cache of freed blocks:
 * memory freed with cuMemFreeAsync goes back to the arena (and its
 * quarantine) when the free executes in stream order, so reserved always
 * equals used and cuMemPoolTrimTo has nothing to release.
 */
#ifndef CB_CORE_MEMPOOL_H
#define CB_CORE_MEMPOOL_H

#include "core/core.h"

struct CUmemPoolHandle_st {
    uint32_t magic;
    int device;
    int is_default;
    CUmemPoolProps props;
    cb_mutex lock;
    uint64_t release_threshold;
    int reuse_follow_event, reuse_opportunistic, reuse_internal_deps;
    uint64_t used, used_high, reserved_high;
    size_t live;                    /* live allocations from this pool */
};
typedef struct CUmemPoolHandle_st cb_mempool;

/* The device's default pool (created on first use), or NULL for a bad
 * ordinal. */
cb_mempool *cb_mempool_default(int device);
/* The device's current pool (cuDeviceSetMemPool), the default at first. */
cb_mempool *cb_mempool_current(int device);
CUresult cb_mempool_set_current(int device, cb_mempool *pool);

/* 1 if pool is a live pool handle. */
int cb_mempool_valid(const cb_mempool *pool);

/* Allocates bytes from pool for ctx right away (the memory is usable in
 * stream order at once). */
CUresult cb_mempool_alloc(cb_context *ctx, cb_mempool *pool, size_t bytes, uint64_t *dptr_out);

/* Bookkeeping when one of the pool's allocations is freed (by any path). */
void cb_mempool_note_free(void *pool, size_t bytes);

CUresult cb_mempool_create(const CUmemPoolProps *props, cb_mempool **out);
CUresult cb_mempool_destroy(cb_mempool *pool);
CUresult cb_mempool_set_attribute(cb_mempool *pool, CUmemPool_attribute attr, const void *value);
CUresult cb_mempool_get_attribute(cb_mempool *pool, CUmemPool_attribute attr, void *value);

#endif
