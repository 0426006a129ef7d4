/* mempool.c: memory pools for stream-ordered allocation (see mempool.h).
 *
 * Process-wide state: `pools` below holds each device's default and current
 * pool, guarded by its lock. */
#include "core/mempool.h"

#include <stdlib.h>
#include <string.h>

#include "core/handles.h"
#include "core/memory.h"

#define CB_MAX_POOL_DEVICES 64

static struct {
    cb_mutex lock;
    cb_mempool *defaults[CB_MAX_POOL_DEVICES];
    cb_mempool *current[CB_MAX_POOL_DEVICES];
} pools = { .lock = CB_MUTEX_INIT };

static cb_mempool *pool_new(int device, const CUmemPoolProps *props, int is_default)
{
    cb_mempool *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    p->magic = CB_MAGIC_POOL;
    p->device = device;
    p->is_default = is_default;
    p->props = *props;
    cb_mutex_init(&p->lock);
    p->reuse_follow_event = p->reuse_opportunistic = p->reuse_internal_deps = 1;
    cb_handle_add(p);
    return p;
}

static int device_ok(int device)
{
    return device >= 0 && device < CB_MAX_POOL_DEVICES && device < cb_device_count();
}

cb_mempool *cb_mempool_default(int device)
{
    if (!device_ok(device))
        return NULL;
    cb_mutex_lock(&pools.lock);
    if (!pools.defaults[device]) {
        CUmemPoolProps props;
        memset(&props, 0, sizeof props);
        props.allocType = CU_MEM_ALLOCATION_TYPE_PINNED;
        props.handleTypes = CU_MEM_HANDLE_TYPE_NONE;
        props.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
        props.location.id = device;
        pools.defaults[device] = pool_new(device, &props, 1);
    }
    cb_mempool *p = pools.defaults[device];
    cb_mutex_unlock(&pools.lock);
    return p;
}

cb_mempool *cb_mempool_current(int device)
{
    if (!device_ok(device))
        return NULL;
    cb_mutex_lock(&pools.lock);
    cb_mempool *p = pools.current[device];
    cb_mutex_unlock(&pools.lock);
    return p ? p : cb_mempool_default(device);
}

CUresult cb_mempool_set_current(int device, cb_mempool *pool)
{
    if (!device_ok(device))
        return CUDA_ERROR_INVALID_DEVICE;
    if (!cb_mempool_valid(pool) || pool->device != device)
        return CUDA_ERROR_INVALID_VALUE;
    cb_mutex_lock(&pools.lock);
    pools.current[device] = pool;
    cb_mutex_unlock(&pools.lock);
    return CUDA_SUCCESS;
}

int cb_mempool_valid(const cb_mempool *pool)
{
    return pool && cb_handle_live(pool, CB_MAGIC_POOL);
}

CUresult cb_mempool_alloc(cb_context *ctx, cb_mempool *pool, size_t bytes, uint64_t *dptr_out)
{
    cb_mem_info rec;
    CUresult r = cb_mem_alloc_ex(ctx, bytes, CB_MEM_DEVICE, pool, &rec);
    if (r != CUDA_SUCCESS)
        return r;
    cb_mutex_lock(&pool->lock);
    pool->used += bytes;
    pool->live++;
    if (pool->used > pool->used_high)
        pool->used_high = pool->used;
    if (pool->used > pool->reserved_high)
        pool->reserved_high = pool->used;
    cb_mutex_unlock(&pool->lock);
    *dptr_out = rec.base;
    return CUDA_SUCCESS;
}

void cb_mempool_note_free(void *owner, size_t bytes)
{
    cb_mempool *pool = owner;
    cb_mutex_lock(&pool->lock);
    pool->used -= bytes;
    pool->live--;
    cb_mutex_unlock(&pool->lock);
}

CUresult cb_mempool_create(const CUmemPoolProps *props, cb_mempool **out)
{
    if (!props || !out)
        return CUDA_ERROR_INVALID_VALUE;
    if (props->allocType != CU_MEM_ALLOCATION_TYPE_PINNED || props->location.type != CU_MEM_LOCATION_TYPE_DEVICE)
        return CUDA_ERROR_INVALID_VALUE;
    if (!device_ok(props->location.id))
        return CUDA_ERROR_INVALID_DEVICE;
    if (props->handleTypes != CU_MEM_HANDLE_TYPE_NONE) {
        cb_log(CB_LOG_WARN, "cuMemPoolCreate: shareable pool handles are not supported");
        return CUDA_ERROR_NOT_SUPPORTED;
    }
    cb_mempool *p = pool_new(props->location.id, props, 0);
    if (!p)
        return CUDA_ERROR_OUT_OF_MEMORY;
    *out = p;
    return CUDA_SUCCESS;
}

CUresult cb_mempool_destroy(cb_mempool *pool)
{
    if (!cb_mempool_valid(pool) || pool->is_default)
        return CUDA_ERROR_INVALID_VALUE;
    cb_mutex_lock(&pools.lock);
    if (pools.current[pool->device] == pool)
        pools.current[pool->device] = NULL;
    cb_mutex_unlock(&pools.lock);
    cb_mutex_lock(&pool->lock);
    size_t live = pool->live;
    cb_mutex_unlock(&pool->lock);
    if (live) {
        /* CUDA frees outstanding allocations lazily when the pool goes; we
         * keep the pool object alive for their bookkeeping. */
        cb_log(CB_LOG_INFO, "cuMemPoolDestroy: %zu allocations still live; the pool is kept for them", live);
        cb_handle_remove(pool);
        pool->is_default = 0;
        return CUDA_SUCCESS;
    }
    cb_handle_remove(pool);
    pool->magic = CB_MAGIC_DEAD;
    cb_mutex_destroy(&pool->lock);
    free(pool);
    return CUDA_SUCCESS;
}

CUresult cb_mempool_set_attribute(cb_mempool *pool, CUmemPool_attribute attr, const void *value)
{
    if (!cb_mempool_valid(pool) || !value)
        return CUDA_ERROR_INVALID_VALUE;
    CUresult r = CUDA_SUCCESS;
    cb_mutex_lock(&pool->lock);
    switch (attr) {
    case CU_MEMPOOL_ATTR_REUSE_FOLLOW_EVENT_DEPENDENCIES: pool->reuse_follow_event = *(const int *)value; break;
    case CU_MEMPOOL_ATTR_REUSE_ALLOW_OPPORTUNISTIC: pool->reuse_opportunistic = *(const int *)value; break;
    case CU_MEMPOOL_ATTR_REUSE_ALLOW_INTERNAL_DEPENDENCIES: pool->reuse_internal_deps = *(const int *)value; break;
    case CU_MEMPOOL_ATTR_RELEASE_THRESHOLD: pool->release_threshold = *(const cuuint64_t *)value; break;
    case CU_MEMPOOL_ATTR_RESERVED_MEM_HIGH:
    case CU_MEMPOOL_ATTR_USED_MEM_HIGH:
        /* only resetting to zero is allowed: the high mark becomes the current value */
        if (*(const cuuint64_t *)value != 0)
            r = CUDA_ERROR_INVALID_VALUE;
        else if (attr == CU_MEMPOOL_ATTR_USED_MEM_HIGH)
            pool->used_high = pool->used;
        else
            pool->reserved_high = pool->used;
        break;
    default: r = CUDA_ERROR_INVALID_VALUE; break;
    }
    cb_mutex_unlock(&pool->lock);
    return r;
}

CUresult cb_mempool_get_attribute(cb_mempool *pool, CUmemPool_attribute attr, void *value)
{
    if (!cb_mempool_valid(pool) || !value)
        return CUDA_ERROR_INVALID_VALUE;
    CUresult r = CUDA_SUCCESS;
    cb_mutex_lock(&pool->lock);
    switch (attr) {
    case CU_MEMPOOL_ATTR_REUSE_FOLLOW_EVENT_DEPENDENCIES: *(int *)value = pool->reuse_follow_event; break;
    case CU_MEMPOOL_ATTR_REUSE_ALLOW_OPPORTUNISTIC: *(int *)value = pool->reuse_opportunistic; break;
    case CU_MEMPOOL_ATTR_REUSE_ALLOW_INTERNAL_DEPENDENCIES: *(int *)value = pool->reuse_internal_deps; break;
    case CU_MEMPOOL_ATTR_RELEASE_THRESHOLD: *(cuuint64_t *)value = pool->release_threshold; break;
    /* nothing is cached: reserved memory is exactly the used memory */
    case CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT: *(cuuint64_t *)value = pool->used; break;
    case CU_MEMPOOL_ATTR_RESERVED_MEM_HIGH: *(cuuint64_t *)value = pool->reserved_high; break;
    case CU_MEMPOOL_ATTR_USED_MEM_CURRENT: *(cuuint64_t *)value = pool->used; break;
    case CU_MEMPOOL_ATTR_USED_MEM_HIGH: *(cuuint64_t *)value = pool->used_high; break;
    default: r = CUDA_ERROR_INVALID_VALUE; break;
    }
    cb_mutex_unlock(&pool->lock);
    return r;
}
