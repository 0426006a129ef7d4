/* handles.h: the set of live handles (streams, events, graphs, graph
 * execs, nodes, pools, VMM allocations, link states, libraries).
 *
 * Process-wide state: one hash set of addresses, guarded by a lock. A
 * handle is valid when it is in the set and its magic number matches, so a
 * destroyed or foreign handle is reported (CUDA_ERROR_INVALID_HANDLE or
 * INVALID_VALUE) without reading freed memory.
 */
#ifndef CB_CORE_HANDLES_H
#define CB_CORE_HANDLES_H

#include <stdint.h>

void cb_handle_add(const void *h);
void cb_handle_remove(const void *h);
/* 1 if h is live and its first field (uint32_t magic) equals magic. */
int cb_handle_live(const void *h, uint32_t magic);
/* cb_handle_live and, if so, cb_handle_remove, in one step: of two threads
 * destroying one handle, exactly one gets 1. */
int cb_handle_take(const void *h, uint32_t magic);

#endif
