/* arena.h: the device memory arena.
 *
 * One large PROT_NONE reservation of host address space (process-wide
 * state: there is one arena per process, started on first use). Device
 * allocations are blocks of whole pages inside it, committed on demand; each
 * block is followed by a guard page that stays PROT_NONE, and every block is
 * preceded by the previous block's guard (or the arena's first page), so
 * committed pages of two allocations never touch. The user pointer is placed
 * so that the allocation's end, rounded up to 256 bytes, is the start of the
 * trailing guard: a write one element past a 256-multiple buffer faults.
 *
 * Freed blocks are decommitted (PROT_NONE, contents dropped) and wait in a
 * quarantine (FIFO) before their address space is reused, so use after free
 * faults instead of reading someone else's data.
 *
 * Committed bytes are charged against the total (CUBRIDGE_MEM=<n>[K|M|G|T],
 * default the machine's RAM), which is also what cuMemGetInfo reports.
 */
#ifndef CB_CPU_ARENA_H
#define CB_CPU_ARENA_H

#include <stddef.h>
#include <stdint.h>

/* CUDA's allocation alignment. */
#define CB_ARENA_ALIGN 256u

/* Starts the arena if needed. Returns 0, or -1 if no address space could be
 * reserved (then every allocation fails with out of memory). */
int cb_arena_ready(void);

/* A block handed out by the arena. */
typedef struct cb_arena_block {
    uint64_t start;   /* first committed page */
    size_t bytes;     /* committed bytes (whole pages; the guard follows) */
} cb_arena_block;

/* Allocates bytes (> 0) committed, read/write, placed against the trailing
 * guard. Sets *ptr and *block. Returns 0, or -1 when the total would be
 * exceeded or address space ran out (CUDA_ERROR_OUT_OF_MEMORY). */
int cb_arena_alloc(size_t bytes, uint64_t *ptr, cb_arena_block *block);

/* Decommits and quarantines a block from cb_arena_alloc; uncharges it. */
void cb_arena_free(cb_arena_block block);

/* Takes bytes (page multiple) of address space aligned to align (a power of
 * two, 0 for a page), left PROT_NONE and not charged: for VMM
 * reservations. Returns the address or 0 when out of address space. */
uint64_t cb_arena_reserve(size_t bytes, size_t align);

/* Returns a range from cb_arena_reserve (decommitting it) to quarantine. */
void cb_arena_unreserve(uint64_t start, size_t bytes);

/* Charges or uncharges bytes against the total (VMM physical memory).
 * cb_arena_charge returns 0, or -1 if the total would be exceeded. */
int cb_arena_charge(size_t bytes);
void cb_arena_uncharge(size_t bytes);

/* 1 if addr is inside the arena's reservation. */
int cb_arena_contains(uint64_t addr);
/* The reservation: [*lo, *lo + *span) (both 0 when the arena cannot start). */
void cb_arena_range(uint64_t *lo, uint64_t *span);

typedef struct cb_arena_stats {
    size_t used;          /* charged bytes now */
    size_t peak;          /* highest used */
    size_t total;         /* the limit (CUBRIDGE_MEM) */
    size_t reserved;      /* address space reserved */
    size_t quarantined;   /* address space waiting in quarantine */
} cb_arena_stats;
cb_arena_stats cb_arena_get_stats(void);

/* Parses "<n>[K|M|G|T]" (binary units). Returns 0 on success. */
int cb_arena_parse_size(const char *s, size_t *out);

#endif
