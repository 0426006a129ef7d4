/* graph_mem.h: graph memory nodes (cuGraphAddMemAllocNode/FreeNode, and
 * cuMemAllocAsync/cuMemFreeAsync during stream capture), src/core/graph_mem.c.
 *
 * CUDA fixes an allocation node's address when the node is made, and keeps
 * it across instantiations and launches; the memory is allocated when a
 * launch reaches the node and freed by a free node (of this graph or
 * another), or by cuMemFree/cuMemFreeAsync after the launch. cubridge
 * reserves the address as one arena allocation when the node is made (a
 * "reservation", cb_graph_mem) and keeps it while any node names it: the
 * bookkeeping of "allocated" and "freed" (live) is what a launch changes,
 * in submission order, so that the checks CUDA makes (a launch while the
 * previous launch's allocation is unfreed, a double free) are
 * deterministic. Reserved memory returns to the arena when no node names
 * it and it is not live: there is no cache, and cuDeviceGraphMemTrim has
 * nothing to release.
 *
 * Process-wide state: the list of reservations and the usage counters,
 * guarded by graph_mem_lock (graph_mem.c).
 */
#ifndef CB_CORE_GRAPH_MEM_H
#define CB_CORE_GRAPH_MEM_H

#include "core/graph.h"

#define CB_MAGIC_GRAPH_MEM 0x474d656du

typedef struct cb_graph_mem cb_graph_mem;

/* Reserves bytes for a new allocation node in ctx (props: the node's pool
 * properties, copied; access: its access descriptors, copied). One
 * reference, the node's. */
CUresult cb_graph_mem_reserve(cb_context *ctx, size_t bytes, const CUmemPoolProps *props,
                              const CUmemAccessDesc *access, size_t naccess, cb_graph_mem **out);
/* Another node names m (a free node, a clone in an instantiation). */
void cb_graph_mem_ref(cb_graph_mem *m);
/* A node naming m is gone; the memory goes back when no node names it and
 * it is not live. */
void cb_graph_mem_unref(cb_graph_mem *m);

/* The reservation whose address is dptr (its base), or NULL. */
cb_graph_mem *cb_graph_mem_find(uint64_t dptr);
uint64_t cb_graph_mem_address(const cb_graph_mem *m);
/* CUDA_MEM_ALLOC_NODE_PARAMS of the allocation node that made m (the
 * access descriptors point into m). */
void cb_graph_mem_params(const cb_graph_mem *m, CUDA_MEM_ALLOC_NODE_PARAMS *out);

/* cuMemFree / cuMemFreeAsync of dptr, outside any graph. */
typedef enum cb_graph_mem_free {
    CB_GRAPH_MEM_NOT_OURS = 0,  /* not a graph allocation: free it the ordinary way */
    CB_GRAPH_MEM_KEPT,          /* freed; a graph keeps the address for its next launch: done */
    CB_GRAPH_MEM_RELEASE,       /* freed and no graph names it: free it the ordinary way */
    CB_GRAPH_MEM_NOT_LIVE,      /* a graph allocation that is not allocated now: CUDA_ERROR_INVALID_VALUE */
} cb_graph_mem_free;
cb_graph_mem_free cb_graph_mem_user_free(uint64_t dptr);
/* Whether dptr is the address of a graph allocation (allocated now or not). */
int cb_graph_mem_is_ours(uint64_t dptr);

/* 1 if g has allocation or free nodes (no clone, no update, one
 * instantiation at a time). */
int cb_graph_has_mem_nodes(const cb_graph *g);
/* 1 if an instantiation of g (one holding its allocation nodes) exists. */
int cb_graph_mem_instantiated(const cb_graph *g);
/* The instantiation e of a graph takes its allocation nodes (when made) /
 * lets go (when its handle is destroyed, even if a launch still runs). */
void cb_graph_mem_exec_attach(cb_graph_exec *e);
void cb_graph_mem_exec_detach(cb_graph_exec *e);
/* Before a launch of e is submitted: CUDA_ERROR_INVALID_VALUE (logged) if
 * an allocation of e is still live from an earlier launch (unless e has
 * CUDA_GRAPH_INSTANTIATE_FLAG_AUTO_FREE_ON_LAUNCH) or a free node's
 * allocation would not be live when the launch reaches it. */
CUresult cb_graph_mem_launch_check(cb_graph_exec *e);
/* Once it is submitted: each allocation node allocates (an auto-freed one
 * first frees), each free node frees, in the launch's order. */
void cb_graph_mem_launch_apply(cb_graph_exec *e);

/* cuDeviceGetGraphMemAttribute / cuDeviceSetGraphMemAttribute (only the
 * two high-water marks, reset with 0). */
CUresult cb_graph_mem_get_attribute(CUgraphMem_attribute attr, uint64_t *value);
CUresult cb_graph_mem_reset_attribute(CUgraphMem_attribute attr, uint64_t value);

/* ---- stream capture ---------------------------------------------------------- */

/* cuMemAllocAsync on a capturing stream: an allocation node after the
 * stream's dependencies, from pool's properties; *dptr is its address. */
CUresult cb_graph_mem_capture_alloc(cb_stream *s, size_t bytes, const CUmemPoolProps *pool_props, uint64_t *dptr);
/* cuMemFreeAsync on a capturing stream: a free node. The address must be
 * a graph allocation's (CUDA_ERROR_INVALID_VALUE, and the capture is
 * invalidated, otherwise). */
CUresult cb_graph_mem_capture_free(cb_stream *s, uint64_t dptr);

#endif
