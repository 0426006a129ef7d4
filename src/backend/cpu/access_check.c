/* access_check.c: which addresses a kernel may touch (kernel ABI 10).
 *
 * A GPU reaches only device memory, host memory mapped to it and its own
 * on-chip spaces; anything else is CUDA_ERROR_ILLEGAL_ADDRESS, and an
 * access not aligned to its size CUDA_ERROR_MISALIGNED_ADDRESS. The CPU
 * backend's kernels are host code, so the code generator puts a test in
 * front of every global, const and generic access whose address is computed
 * at run time (cb_chk, src/codegen/c/prelude.c): inside the arena and
 * aligned, it goes on at once; otherwise it lands here, in check_access,
 * which lets through what the device reaches outside the arena and fails
 * the launch, before the access happens, for everything else:
 *
 *   - host memory the core mapped for the device (cuMemHostAlloc,
 *     cuMemHostRegister: host_map/host_unmap), and device-side malloc;
 *   - the block's shared window, the launch's parameters and the grid
 *     workspace of a cooperative launch (generic pointers to them);
 *   - the running thread's own stack below the kernel's entry: its .local
 *     depots, reached through generic pointers.
 *
 * CUBRIDGE_CHECK_ACCESS=0 makes the code generator leave the checks out
 * (src/codegen/c/operands.c); the range is then everything.
 */
#include <stdlib.h>
#include <string.h>

#include "backend/cpu/arena.h"
#include "backend/cpu/cpu_internal.h"

/* ---- host ranges the device reaches ------------------------------------- */

typedef struct host_range {
    uint64_t base, bytes;
    uint32_t refs;                 /* several CPU devices map the same range */
} host_range;

/* Process-wide, as the arena: sorted by base, ranges never overlap. */
static struct {
    cb_mutex lock;
    host_range *v;
    size_t n, cap;
} host_ranges = { .lock = CB_MUTEX_INIT };

/* The index of the last range whose base is <= a, or -1. Under the lock. */
static ptrdiff_t range_find(uint64_t a)
{
    size_t lo = 0, hi = host_ranges.n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (host_ranges.v[mid].base <= a)
            lo = mid + 1;
        else
            hi = mid;
    }
    return (ptrdiff_t)lo - 1;
}

int cb_cpu_host_map(uint64_t base, size_t bytes)
{
    int rc = 0;
    cb_mutex_lock(&host_ranges.lock);
    ptrdiff_t i = range_find(base);
    if (i >= 0 && host_ranges.v[i].base == base && host_ranges.v[i].bytes == bytes) {
        host_ranges.v[i].refs++;
    } else if (host_ranges.n == host_ranges.cap &&
               !(host_ranges.cap = host_ranges.cap ? 2 * host_ranges.cap : 16,
                 host_ranges.v = realloc(host_ranges.v, host_ranges.cap * sizeof *host_ranges.v))) {
        host_ranges.n = host_ranges.cap = 0;
        rc = -1;
    } else {
        size_t at = (size_t)(i + 1);
        memmove(&host_ranges.v[at + 1], &host_ranges.v[at], (host_ranges.n - at) * sizeof *host_ranges.v);
        host_ranges.v[at] = (host_range){ base, bytes, 1 };
        host_ranges.n++;
    }
    cb_mutex_unlock(&host_ranges.lock);
    return rc;
}

void cb_cpu_host_unmap(uint64_t base, size_t bytes)
{
    cb_mutex_lock(&host_ranges.lock);
    ptrdiff_t i = range_find(base);
    if (i >= 0 && host_ranges.v[i].base == base && host_ranges.v[i].bytes == bytes && --host_ranges.v[i].refs == 0) {
        memmove(&host_ranges.v[i], &host_ranges.v[i + 1], (host_ranges.n - (size_t)i - 1) * sizeof *host_ranges.v);
        host_ranges.n--;
    }
    cb_mutex_unlock(&host_ranges.lock);
}

static int host_mapped(uint64_t a, uint32_t size)
{
    cb_mutex_lock(&host_ranges.lock);
    ptrdiff_t i = range_find(a);
    int ok = i >= 0 && a - host_ranges.v[i].base < host_ranges.v[i].bytes &&
             host_ranges.v[i].bytes - (a - host_ranges.v[i].base) >= size;
    cb_mutex_unlock(&host_ranges.lock);
    return ok;
}

/* ---- the check ------------------------------------------------------------- */

static int inside(uint64_t a, uint32_t size, const void *base, uint64_t bytes)
{
    uint64_t b = (uint64_t)(uintptr_t)base;
    return base && a - b < bytes && bytes - (a - b) >= size;
}

/* Another block's shared memory in the thread's cluster: a generic address
 * mapa made (the blocks of a cluster run at the same time, kernel ABI 9). */
static int cluster_shared(const cb_thread *t, uint64_t a, uint32_t size, uint64_t smem)
{
    const cb_block *blk = t->blk;
    uint32_t n = blk->cluster_dim.x * blk->cluster_dim.y * blk->cluster_dim.z;
    if (n <= 1 || !blk->cluster_shared)
        return 0;
    for (uint32_t r = 0; r < n; r++)
        if (inside(a, size, blk->cluster_shared[r], smem))
            return 1;
    return 0;
}

/* The thread's own stack below its kernel's entry: a fiber's whole stack, or
 * in plain mode from here up to the frame that called the kernel. */
static int own_stack(const cb_thread *t, const cpu_block *b, uint64_t a, uint32_t size)
{
    if (b->fiber_mode) {
        const cpu_thread *th = cpu_thread_of(t);
        const cb_fiber_stack *st = th ? &b->stacks[th->t.flat] : NULL;
        return st && inside(a, size, st->lo, st->size);
    }
    uint64_t here = (uint64_t)(uintptr_t)__builtin_frame_address(0);
    return b->stack_top > here && inside(a, size, (const void *)(uintptr_t)here, b->stack_top - here);
}

unsigned char *cb_cpu_check_access(cb_thread *t, uint64_t a, uint32_t size)
{
    cpu_block *b = cpu_block_of(t);
    const cpu_launch *L = b->launch;
    const char *why;
    CUresult r;
    if (a & (size - 1)) {
        r = CUDA_ERROR_MISALIGNED_ADDRESS;
        why = "misaligned address";
    } else {
        uint64_t smem = (uint64_t)L->static_smem + L->dynamic_smem;
        if ((cb_arena_contains(a) && cb_arena_contains(a + size - 1)) ||
            inside(a, size, t->blk->shared, smem) || cluster_shared(t, a, size, smem) ||
            inside(a, size, L->params, L->param_bytes) ||
            (L->cooperative && inside(a, size, L->grid_ws, sizeof L->grid_ws)) || own_stack(t, b, a, size) ||
            host_mapped(a, size))
            return (unsigned char *)(uintptr_t)a;
        r = CUDA_ERROR_ILLEGAL_ADDRESS;
        why = "illegal address";
    }
    char who[384];
    cb_cpu_describe(t, who, sizeof who);
    cb_cpu_launch_fail_at(b->launch, a, r, "%s: %s %p (a %u-byte access%s)", who, why, (void *)(uintptr_t)a, size,
                          r == CUDA_ERROR_ILLEGAL_ADDRESS ? " outside device memory; never performed" : "");
    b->aborted = 1;
    cb_fault_unwind();
}

void cb_cpu_device_range(uint64_t range[2])
{
    const char *off = getenv("CUBRIDGE_CHECK_ACCESS");
    if (off && !strcmp(off, "0")) {
        range[0] = 0;
        range[1] = ~(uint64_t)0;
        return;
    }
    cb_arena_range(&range[0], &range[1]);
}
