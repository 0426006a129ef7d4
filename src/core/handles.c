/* handles.c: the set of live handles (see handles.h).
 *
 * Process-wide state: `set` below, an open-addressing hash set of pointers
 * with tombstones, guarded by its lock. */
#include "core/handles.h"

#include <stdlib.h>

#include "platform/thread.h"

#define TOMBSTONE ((uintptr_t)1)

static struct {
    cb_mutex lock;
    uintptr_t *slots;
    size_t cap, used; /* used counts live entries and tombstones */
} set = { .lock = CB_MUTEX_INIT };

static size_t hash_ptr(uintptr_t p) { return (size_t)((p >> 4) * 0x9E3779B97F4A7C15ull); }

static void insert_slot(uintptr_t *slots, size_t cap, uintptr_t p)
{
    size_t i = hash_ptr(p) & (cap - 1);
    while (slots[i] && slots[i] != TOMBSTONE)
        i = (i + 1) & (cap - 1);
    slots[i] = p;
}

static int grow(void)
{
    size_t cap = set.cap ? set.cap * 2 : 1024;
    uintptr_t *slots = calloc(cap, sizeof *slots);
    if (!slots)
        return -1;
    size_t live = 0;
    for (size_t i = 0; i < set.cap; i++) {
        if (set.slots[i] && set.slots[i] != TOMBSTONE) {
            insert_slot(slots, cap, set.slots[i]);
            live++;
        }
    }
    free(set.slots);
    set.slots = slots;
    set.cap = cap;
    set.used = live;
    return 0;
}

void cb_handle_add(const void *h)
{
    cb_mutex_lock(&set.lock);
    if ((set.used + 1) * 2 > set.cap && grow() != 0) {
        cb_mutex_unlock(&set.lock);
        return;
    }
    insert_slot(set.slots, set.cap, (uintptr_t)h);
    set.used++;
    cb_mutex_unlock(&set.lock);
}

static size_t find_slot(uintptr_t p)
{
    if (!set.cap)
        return SIZE_MAX;
    size_t i = hash_ptr(p) & (set.cap - 1);
    while (set.slots[i]) {
        if (set.slots[i] == p)
            return i;
        i = (i + 1) & (set.cap - 1);
    }
    return SIZE_MAX;
}

void cb_handle_remove(const void *h)
{
    cb_mutex_lock(&set.lock);
    size_t i = find_slot((uintptr_t)h);
    if (i != SIZE_MAX)
        set.slots[i] = TOMBSTONE;
    cb_mutex_unlock(&set.lock);
}

int cb_handle_live(const void *h, uint32_t magic)
{
    if (!h)
        return 0;
    cb_mutex_lock(&set.lock);
    int live = find_slot((uintptr_t)h) != SIZE_MAX && *(const uint32_t *)h == magic;
    cb_mutex_unlock(&set.lock);
    return live;
}

int cb_handle_take(const void *h, uint32_t magic)
{
    if (!h)
        return 0;
    cb_mutex_lock(&set.lock);
    size_t i = find_slot((uintptr_t)h);
    int live = i != SIZE_MAX && *(const uint32_t *)h == magic;
    if (live)
        set.slots[i] = TOMBSTONE;
    cb_mutex_unlock(&set.lock);
    return live;
}
