/* memtable.c: the table of live allocations (see memory.h).
 *
 * Process-wide state: `table` below, a base-sorted array of records guarded
 * by its lock; `next_buffer_id` numbers allocations for
 * CU_POINTER_ATTRIBUTE_BUFFER_ID. Records never overlap, so the record
 * containing an address is the last one whose base is at or below it.
 * The last MEMTABLE_FREED removed records are kept in a ring, so that a
 * fault can be said to hit freed memory (cb_mem_describe_address).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/memory.h"

#define MEMTABLE_FREED 1024

static struct {
    cb_mutex lock;
    cb_mem_info *recs;
    size_t n, cap;
    uint64_t next_buffer_id;
    cb_mem_info freed[MEMTABLE_FREED];   /* ring of removed records, newest at freed_next - 1 */
    size_t freed_next, nfreed;
} table = { .lock = CB_MUTEX_INIT, .next_buffer_id = 1 };

/* Index of the first record with base > addr. */
static size_t upper_bound(uint64_t addr)
{
    size_t lo = 0, hi = table.n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (table.recs[mid].base <= addr)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static uint64_t rec_end(const cb_mem_info *r) { return r->base + (r->size ? r->size : 1); }

int cb_memtable_insert(cb_mem_info *rec)
{
    cb_mutex_lock(&table.lock);
    size_t i = upper_bound(rec->base);
    uint64_t end = rec->base + (rec->size ? rec->size : 1);
    if ((i > 0 && rec_end(&table.recs[i - 1]) > rec->base) || (i < table.n && table.recs[i].base < end)) {
        cb_mutex_unlock(&table.lock);
        return -1;
    }
    if (table.n == table.cap) {
        size_t cap = table.cap ? table.cap * 2 : 256;
        cb_mem_info *grown = realloc(table.recs, cap * sizeof *grown);
        if (!grown) {
            cb_mutex_unlock(&table.lock);
            return -1;
        }
        table.recs = grown;
        table.cap = cap;
    }
    rec->buffer_id = table.next_buffer_id++;
    memmove(&table.recs[i + 1], &table.recs[i], (table.n - i) * sizeof *table.recs);
    table.recs[i] = *rec;
    table.n++;
    cb_mutex_unlock(&table.lock);
    return 0;
}

static void remove_at(size_t i, cb_mem_info *out)
{
    if (out)
        *out = table.recs[i];
    table.freed[table.freed_next] = table.recs[i];
    table.freed_next = (table.freed_next + 1) % MEMTABLE_FREED;
    if (table.nfreed < MEMTABLE_FREED)
        table.nfreed++;
    memmove(&table.recs[i], &table.recs[i + 1], (table.n - i - 1) * sizeof *table.recs);
    table.n--;
}

int cb_memtable_remove(uint64_t base, unsigned kinds_mask, cb_mem_info *out)
{
    int rc = -1;
    cb_mutex_lock(&table.lock);
    size_t i = upper_bound(base);
    if (i > 0 && table.recs[i - 1].base == base && (kinds_mask & (1u << table.recs[i - 1].kind))) {
        remove_at(i - 1, out);
        rc = 0;
    }
    cb_mutex_unlock(&table.lock);
    return rc;
}

int cb_memtable_find(uint64_t addr, cb_mem_info *out)
{
    int rc = -1;
    cb_mutex_lock(&table.lock);
    size_t i = upper_bound(addr);
    if (i > 0 && addr < rec_end(&table.recs[i - 1])) {
        *out = table.recs[i - 1];
        rc = 0;
    }
    cb_mutex_unlock(&table.lock);
    return rc;
}

int cb_memtable_remove_owned(const cb_context *ctx, unsigned kinds_mask, cb_mem_info *out)
{
    int rc = -1;
    cb_mutex_lock(&table.lock);
    for (size_t i = 0; i < table.n; i++) {
        if (table.recs[i].ctx == ctx && (kinds_mask & (1u << table.recs[i].kind))) {
            remove_at(i, out);
            rc = 0;
            break;
        }
    }
    cb_mutex_unlock(&table.lock);
    return rc;
}

/* ---- the allocation nearest an address (for fault reports) -------------- */

static const char *kind_name(cb_mem_kind k)
{
    switch (k) {
    case CB_MEM_DEVICE: return "device";
    case CB_MEM_MANAGED: return "managed";
    case CB_MEM_VMM: return "mapped (VMM)";
    case CB_MEM_HOST: return "pinned host";
    case CB_MEM_REGISTERED: return "registered host";
    default: return "";
    }
}

/* "the 1024-byte device allocation at 0x7f..." (sizes of 1 MiB and up also in MiB). */
static void name_allocation(char *buf, size_t len, const cb_mem_info *r, const char *adjective)
{
    char mib[32] = "";
    if (r->size >= ((size_t)1 << 20))
        snprintf(mib, sizeof mib, " (%.1f MiB)", (double)r->size / (1 << 20));
    snprintf(buf, len, "%s%zu-byte%s %s%sallocation at 0x%llx", adjective, r->size, mib, kind_name(r->kind),
             r->kind != CB_MEM_UNKNOWN ? " " : "", (unsigned long long)r->base);
}

int cb_mem_nearest(uint64_t addr, cb_mem_near *out)
{
    memset(out, 0, sizeof *out);
    int rc = -1;
    cb_mutex_lock(&table.lock);
    size_t i = upper_bound(addr);
    if (i > 0 && addr < rec_end(&table.recs[i - 1])) {
        out->rec = table.recs[i - 1];
        out->relation = CB_MEM_NEAR_INSIDE;
        out->distance = addr - out->rec.base;
        rc = 0;
    }
    for (size_t k = 0; rc != 0 && k < table.nfreed; k++) {   /* newest first */
        const cb_mem_info *f = &table.freed[(table.freed_next + MEMTABLE_FREED - 1 - k) % MEMTABLE_FREED];
        if (addr >= f->base && addr < rec_end(f)) {
            out->rec = *f;
            out->relation = CB_MEM_NEAR_FREED;
            out->distance = addr - f->base;
            rc = 0;
        }
    }
    if (rc != 0) {
        const cb_mem_info *below = i > 0 ? &table.recs[i - 1] : NULL, *above = i < table.n ? &table.recs[i] : NULL;
        uint64_t after = below ? addr - rec_end(below) + 1 : UINT64_MAX;   /* 1: the first byte past the end */
        uint64_t before = above ? above->base - addr : UINT64_MAX;
        if (below && after <= before) {
            out->rec = *below;
            out->relation = CB_MEM_NEAR_AFTER;
            out->distance = addr - (below->base + below->size);
            rc = 0;
        } else if (above) {
            out->rec = *above;
            out->relation = CB_MEM_NEAR_BEFORE;
            out->distance = before;
            rc = 0;
        }
    }
    cb_mutex_unlock(&table.lock);
    return rc;
}

/* How far outside an allocation an address still counts as near it (an overrun or underrun). */
#define MEMTABLE_NEAR (1ull << 30)

void cb_mem_describe_address(uint64_t addr, char *buf, size_t len)
{
    cb_mem_near n;
    char what[160];
    if (len == 0)
        return;
    if (cb_mem_nearest(addr, &n) != 0) {
        snprintf(buf, len, "address 0x%llx: no allocation is live or was freed recently", (unsigned long long)addr);
        return;
    }
    /* a wild pointer (0x10, a host address) is near nothing: its distance to the nearest
     * allocation says nothing useful */
    if ((n.relation == CB_MEM_NEAR_AFTER || n.relation == CB_MEM_NEAR_BEFORE) && n.distance >= MEMTABLE_NEAR) {
        name_allocation(what, sizeof what, &n.rec, "the ");
        snprintf(buf, len, "address 0x%llx is near no allocation (the nearest, %s, is %llu GiB away)",
                 (unsigned long long)addr, what, (unsigned long long)(n.distance >> 30));
        return;
    }
    switch (n.relation) {
    case CB_MEM_NEAR_INSIDE:
        name_allocation(what, sizeof what, &n.rec, "the ");
        snprintf(buf, len, "address 0x%llx is %llu bytes into %s", (unsigned long long)addr,
                 (unsigned long long)n.distance, what);
        break;
    case CB_MEM_NEAR_FREED:
        name_allocation(what, sizeof what, &n.rec, "a freed ");
        snprintf(buf, len, "address 0x%llx is inside %s, %llu bytes from its start", (unsigned long long)addr, what,
                 (unsigned long long)n.distance);
        break;
    case CB_MEM_NEAR_AFTER:
        name_allocation(what, sizeof what, &n.rec, "the ");
        snprintf(buf, len, "address 0x%llx is %llu bytes after %s", (unsigned long long)addr,
                 (unsigned long long)n.distance, what);
        break;
    default:
        name_allocation(what, sizeof what, &n.rec, "the ");
        snprintf(buf, len, "address 0x%llx is %llu bytes before %s", (unsigned long long)addr,
                 (unsigned long long)n.distance, what);
        break;
    }
}
