/* memtable.c: the table of live allocations (see memory.h).
 *
 * Process-wide state: `table` below, a base-sorted array of records guarded
 * by its lock; `next_buffer_id` numbers allocations for
 * CU_POINTER_ATTRIBUTE_BUFFER_ID. Records never overlap, so the record
 * containing an address is the last one whose base is at or below it.
 */
#include <stdlib.h>
#include <string.h>

#include "core/memory.h"

static struct {
    cb_mutex lock;
    cb_mem_info *recs;
    size_t n, cap;
    uint64_t next_buffer_id;
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
