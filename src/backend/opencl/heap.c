/* heap.c: the OpenCL backend's allocator over its heap buffer (opencl_internal.h).
 *
 * The live blocks in an array sorted by offset; an allocation takes the
 * first gap that fits (CUDA's 256-byte alignment). Process-wide per device,
 * guarded by the heap's lock.
 */
#include <stdlib.h>
#include <string.h>

#include "backend/opencl/opencl_internal.h"

#define ALIGN 256u

int ocl_heap_init(ocl_heap *h, uint64_t size)
{
    memset(h, 0, sizeof *h);
    cb_mutex_init(&h->lock);
    h->size = size;
    h->ready = 1;
    return 0;
}

void ocl_heap_destroy(ocl_heap *h)
{
    if (!h->ready)
        return;
    free(h->used);
    cb_mutex_destroy(&h->lock);
    h->ready = 0;
}

int ocl_heap_alloc(ocl_heap *h, size_t bytes, uint64_t *off)
{
    uint64_t need = ((uint64_t)bytes + ALIGN - 1) / ALIGN * ALIGN;
    if (!need || need > h->size)
        return -1;
    int rc = -1;
    cb_mutex_lock(&h->lock);
    if (h->n == h->cap) {
        size_t cap = h->cap ? 2 * h->cap : 64;
        ocl_block *u = realloc(h->used, cap * sizeof *u);
        if (!u)
            goto out;
        h->used = u;
        h->cap = cap;
    }
    uint64_t at = 0;
    size_t i = 0;
    for (; i <= h->n; i++) {
        uint64_t end = i < h->n ? h->used[i].off : h->size;
        if (end >= at && end - at >= need)
            break;
        if (i < h->n)
            at = h->used[i].off + h->used[i].size;
    }
    if (i > h->n)
        goto out;
    memmove(&h->used[i + 1], &h->used[i], (h->n - i) * sizeof *h->used);
    h->used[i] = (ocl_block){at, need};
    h->n++;
    h->in_use += need;
    if (h->in_use > h->peak)
        h->peak = h->in_use;
    *off = at;
    rc = 0;
out:
    cb_mutex_unlock(&h->lock);
    return rc;
}

void ocl_heap_free(ocl_heap *h, uint64_t off)
{
    cb_mutex_lock(&h->lock);
    size_t lo = 0, hi = h->n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (h->used[mid].off < off)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo < h->n && h->used[lo].off == off) {
        h->in_use -= h->used[lo].size;
        memmove(&h->used[lo], &h->used[lo + 1], (h->n - lo - 1) * sizeof *h->used);
        h->n--;
    }
    cb_mutex_unlock(&h->lock);
}

void ocl_heap_usage(ocl_heap *h, size_t *used, size_t *peak)
{
    cb_mutex_lock(&h->lock);
    *used = h->in_use;
    *peak = h->peak;
    cb_mutex_unlock(&h->lock);
}
