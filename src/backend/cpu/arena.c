/* arena.c: the device memory arena (see arena.h).
 *
 * Process-wide state: `arena` below, one per process, guarded by its lock.
 * Address space is managed in pages: a bump pointer for never-used space, an
 * address-sorted free list of spans (coalesced), and a FIFO quarantine of
 * freed spans that are returned to the free list only when the quarantine
 * grows past its limit (or address space runs out).
 */
#include "backend/cpu/arena.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "platform/log.h"
#include "platform/thread.h"
#include "platform/vm.h"

typedef struct arena_span {
    size_t off, n;               /* in pages */
} arena_span;

typedef struct arena_quarantined {
    struct arena_quarantined *next;
    arena_span span;
} arena_quarantined;

static struct {
    cb_mutex lock;
    int ok;
    uint64_t base;               /* start of the reservation */
    size_t npages, page;
    size_t top;                  /* first never-used page */
    arena_span *free;            /* sorted by off, coalesced */
    size_t nfree, capfree;
    arena_quarantined *qhead, *qtail;
    size_t qpages, qlimit;
    size_t used, peak, total;
} arena = { .lock = CB_MUTEX_INIT };

static cb_once arena_once = CB_ONCE_INIT;

int cb_arena_parse_size(const char *s, size_t *out)
{
    char *end;
    if (!s || !isdigit((unsigned char)*s))
        return -1;
    unsigned long long v = strtoull(s, &end, 10);
    unsigned shift = 0;
    switch (toupper((unsigned char)*end)) {
    case 'K': shift = 10; end++; break;
    case 'M': shift = 20; end++; break;
    case 'G': shift = 30; end++; break;
    case 'T': shift = 40; end++; break;
    default: break;
    }
    if (shift && (*end == 'i' || *end == 'I'))
        end++;
    if (*end == 'B' || *end == 'b')
        end++;
    if (*end != '\0' || v == 0 || (shift && v > (~0ull >> shift)))
        return -1;
    *out = (size_t)(v << shift);
    return 0;
}

static size_t arena_default_total(void)
{
    const char *env = getenv("CUBRIDGE_MEM");
    size_t total;
    if (env && *env) {
        if (cb_arena_parse_size(env, &total) == 0)
            return total;
        cb_log(CB_LOG_WARN, "CUBRIDGE_MEM=%s is not a size (<n>[K|M|G|T]); using the machine's RAM", env);
    }
    total = (size_t)cb_vm_physical_memory();
    return total ? total : (size_t)8 << 30;
}

static void arena_start(void)
{
    arena.page = cb_vm_page_size();
    arena.total = arena_default_total();
    /* Room for guards, quarantine and large VMM reservations (llama.cpp
     * reserves 32 GiB) on top of the memory itself. */
    size_t want = arena.total * 2 + ((size_t)64 << 30);
    size_t align = (size_t)2 << 20;
    void *p = NULL;
    while (!p && want >= arena.total + ((size_t)1 << 30)) {
        p = cb_vm_reserve(want + align);
        if (!p)
            want /= 2;
    }
    if (!p) {
        cb_log(CB_LOG_ERROR, "arena: cannot reserve address space for device memory");
        return;
    }
    uint64_t raw = (uint64_t)(uintptr_t)p;
    uint64_t aligned = (raw + align - 1) & ~(uint64_t)(align - 1);
    if (aligned > raw)
        cb_vm_release(p, (size_t)(aligned - raw));
    size_t tail = (size_t)(raw + want + align - (aligned + want));
    if (tail)
        cb_vm_release((void *)(uintptr_t)(aligned + want), tail);
    arena.base = aligned;
    arena.npages = want / arena.page;
    arena.top = 1; /* page 0 is the first block's leading guard */
    arena.qlimit = arena.npages / 4;
    arena.ok = 1;
    cb_log(CB_LOG_INFO, "arena: %zu MiB of device memory in %zu MiB of address space at 0x%llx",
           arena.total >> 20, want >> 20, (unsigned long long)aligned);
}

int cb_arena_ready(void)
{
    cb_run_once(&arena_once, arena_start);
    return arena.ok ? 0 : -1;
}

static uint64_t page_addr(size_t off) { return arena.base + (uint64_t)off * arena.page; }

/* Inserts a span into the sorted free list, merging with neighbours. */
static void free_list_insert(arena_span s)
{
    size_t lo = 0, hi = arena.nfree;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (arena.free[mid].off < s.off)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo > 0 && arena.free[lo - 1].off + arena.free[lo - 1].n == s.off) {
        arena.free[lo - 1].n += s.n;
        if (lo < arena.nfree && arena.free[lo - 1].off + arena.free[lo - 1].n == arena.free[lo].off) {
            arena.free[lo - 1].n += arena.free[lo].n;
            memmove(&arena.free[lo], &arena.free[lo + 1], (arena.nfree - lo - 1) * sizeof *arena.free);
            arena.nfree--;
        }
        return;
    }
    if (lo < arena.nfree && s.off + s.n == arena.free[lo].off) {
        arena.free[lo].off = s.off;
        arena.free[lo].n += s.n;
        return;
    }
    if (arena.nfree == arena.capfree) {
        size_t cap = arena.capfree ? arena.capfree * 2 : 64;
        arena_span *grown = realloc(arena.free, cap * sizeof *grown);
        if (!grown)
            return; /* leaks the address space, never memory */
        arena.free = grown;
        arena.capfree = cap;
    }
    memmove(&arena.free[lo + 1], &arena.free[lo], (arena.nfree - lo) * sizeof *arena.free);
    arena.free[lo] = s;
    arena.nfree++;
}

static void quarantine_release_oldest(void)
{
    arena_quarantined *q = arena.qhead;
    arena.qhead = q->next;
    if (!arena.qhead)
        arena.qtail = NULL;
    arena.qpages -= q->span.n;
    free_list_insert(q->span);
    free(q);
}

static void quarantine_push(arena_span s)
{
    arena_quarantined *q = malloc(sizeof *q);
    if (!q) {
        free_list_insert(s);
        return;
    }
    q->next = NULL;
    q->span = s;
    if (arena.qtail)
        arena.qtail->next = q;
    else
        arena.qhead = q;
    arena.qtail = q;
    arena.qpages += s.n;
    while (arena.qpages > arena.qlimit && arena.qhead)
        quarantine_release_oldest();
}

static size_t align_up(size_t v, size_t a) { return (v + a - 1) / a * a; }

/* Takes n pages whose first page index is a multiple of align_pages. */
static int take_pages(size_t n, size_t align_pages, size_t *off_out)
{
    for (int attempt = 0; attempt < 2; attempt++) {
        for (size_t i = 0; i < arena.nfree; i++) {
            arena_span s = arena.free[i];
            size_t a = align_up(s.off, align_pages);
            if (a + n > s.off + s.n)
                continue;
            memmove(&arena.free[i], &arena.free[i + 1], (arena.nfree - i - 1) * sizeof *arena.free);
            arena.nfree--;
            if (a > s.off)
                free_list_insert((arena_span){ s.off, a - s.off });
            if (a + n < s.off + s.n)
                free_list_insert((arena_span){ a + n, s.off + s.n - (a + n) });
            *off_out = a;
            return 0;
        }
        size_t a = align_up(arena.top, align_pages);
        if (a + n <= arena.npages) {
            if (a > arena.top)
                free_list_insert((arena_span){ arena.top, a - arena.top });
            arena.top = a + n;
            *off_out = a;
            return 0;
        }
        while (arena.qhead)
            quarantine_release_oldest();
    }
    return -1;
}

static int charge_locked(size_t bytes)
{
    if (bytes > arena.total - arena.used)
        return -1;
    arena.used += bytes;
    if (arena.used > arena.peak)
        arena.peak = arena.used;
    return 0;
}

int cb_arena_alloc(size_t bytes, uint64_t *ptr, cb_arena_block *block)
{
    if (bytes == 0 || cb_arena_ready() != 0)
        return -1;
    size_t rounded = align_up(bytes, CB_ARENA_ALIGN);
    if (rounded < bytes)
        return -1;
    size_t pages = align_up(rounded, arena.page) / arena.page;
    size_t committed = pages * arena.page, off;
    cb_mutex_lock(&arena.lock);
    if (charge_locked(committed) != 0) {
        cb_mutex_unlock(&arena.lock);
        return -1;
    }
    if (take_pages(pages + 1, 1, &off) != 0) {
        arena.used -= committed;
        cb_mutex_unlock(&arena.lock);
        return -1;
    }
    uint64_t start = page_addr(off);
    if (cb_vm_commit((void *)(uintptr_t)start, committed) != 0) {
        arena.used -= committed;
        quarantine_push((arena_span){ off, pages + 1 });
        cb_mutex_unlock(&arena.lock);
        cb_log(CB_LOG_ERROR, "arena: cannot commit %zu bytes (too many mappings?)", committed);
        return -1;
    }
    cb_mutex_unlock(&arena.lock);
    block->start = start;
    block->bytes = committed;
    *ptr = start + committed - rounded;
    return 0;
}

void cb_arena_free(cb_arena_block block)
{
    cb_vm_decommit((void *)(uintptr_t)block.start, block.bytes);
    cb_mutex_lock(&arena.lock);
    arena.used -= block.bytes;
    size_t off = (size_t)((block.start - arena.base) / arena.page);
    quarantine_push((arena_span){ off, block.bytes / arena.page + 1 });
    cb_mutex_unlock(&arena.lock);
}

uint64_t cb_arena_reserve(size_t bytes, size_t align)
{
    if (bytes == 0 || cb_arena_ready() != 0)
        return 0;
    size_t pages = align_up(bytes, arena.page) / arena.page;
    size_t align_pages = align > arena.page ? align / arena.page : 1;
    size_t off;
    cb_mutex_lock(&arena.lock);
    int rc = take_pages(pages + 1, align_pages, &off);
    cb_mutex_unlock(&arena.lock);
    return rc == 0 ? page_addr(off) : 0;
}

void cb_arena_unreserve(uint64_t start, size_t bytes)
{
    size_t pages = align_up(bytes, arena.page) / arena.page;
    cb_vm_unmap_to_reserved((void *)(uintptr_t)start, pages * arena.page);
    cb_mutex_lock(&arena.lock);
    quarantine_push((arena_span){ (size_t)((start - arena.base) / arena.page), pages + 1 });
    cb_mutex_unlock(&arena.lock);
}

int cb_arena_charge(size_t bytes)
{
    if (cb_arena_ready() != 0)
        return -1;
    cb_mutex_lock(&arena.lock);
    int rc = charge_locked(bytes);
    cb_mutex_unlock(&arena.lock);
    return rc;
}

void cb_arena_uncharge(size_t bytes)
{
    cb_mutex_lock(&arena.lock);
    arena.used -= bytes;
    cb_mutex_unlock(&arena.lock);
}

void cb_arena_range(uint64_t *lo, uint64_t *span)
{
    cb_arena_ready();
    *lo = arena.ok ? arena.base : 0;
    *span = arena.ok ? (uint64_t)arena.npages * arena.page : 0;
}

int cb_arena_contains(uint64_t addr)
{
    if (!arena.ok)
        return 0;
    return addr >= arena.base && addr < arena.base + (uint64_t)arena.npages * arena.page;
}

cb_arena_stats cb_arena_get_stats(void)
{
    cb_arena_stats st;
    cb_arena_ready();
    cb_mutex_lock(&arena.lock);
    st.used = arena.used;
    st.peak = arena.peak;
    st.total = arena.total;
    st.reserved = arena.npages * arena.page;
    st.quarantined = arena.qpages * arena.page;
    cb_mutex_unlock(&arena.lock);
    return st;
}
