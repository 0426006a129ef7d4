/* graph_mem.c: graph memory nodes: reservations, their life, the launch-time
 * bookkeeping, the device's graph memory attributes, and capture of
 * cuMemAllocAsync/cuMemFreeAsync (see graph_mem.h).
 *
 * Process-wide state, under graph_mem_lock: the list of reservations
 * (graph_mems) and the counters behind cuDeviceGetGraphMemAttribute (one
 * device): bytes allocated now by graph allocation nodes (used) and bytes
 * reserved for them (reserved), with their high-water marks.
 */
#include "core/graph_mem.h"

#include <stdlib.h>
#include <string.h>

#include "core/memory.h"

struct cb_graph_mem {
    uint32_t magic;
    cb_context *ctx;
    uint64_t dptr, buffer_id;     /* the arena allocation holding the address */
    size_t bytes;
    CUmemPoolProps props;
    CUmemAccessDesc *access;
    size_t naccess;
    int refs;                     /* nodes naming it, in graphs and instantiations */
    int execs;                    /* instantiations holding its allocation node */
    int live;                     /* allocated by a launch, not freed yet */
    int pending;                  /* scratch for launch checks */
    struct cb_graph_mem *next;
};

static cb_mutex graph_mem_lock = CB_MUTEX_INIT;
static cb_graph_mem *graph_mems;
static uint64_t graph_mem_used, graph_mem_used_high, graph_mem_reserved, graph_mem_reserved_high;

/* ---- reservations ------------------------------------------------------------ */

CUresult cb_graph_mem_reserve(cb_context *ctx, size_t bytes, const CUmemPoolProps *props,
                              const CUmemAccessDesc *access, size_t naccess, cb_graph_mem **out)
{
    cb_graph_mem *m = calloc(1, sizeof *m);
    if (!m || (naccess && !(m->access = calloc(naccess, sizeof *m->access)))) {
        free(m);
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    cb_mem_info rec;
    CUresult r = cb_mem_alloc_ex(ctx, bytes, CB_MEM_DEVICE, NULL, &rec);
    if (r != CUDA_SUCCESS) {
        free(m->access);
        free(m);
        return r;
    }
    m->magic = CB_MAGIC_GRAPH_MEM;
    m->ctx = ctx;
    m->dptr = rec.base;
    m->buffer_id = rec.buffer_id;
    m->bytes = bytes;
    if (props)
        m->props = *props;
    if (naccess)
        memcpy(m->access, access, naccess * sizeof *access);
    m->naccess = naccess;
    m->refs = 1;
    cb_mutex_lock(&graph_mem_lock);
    m->next = graph_mems;
    graph_mems = m;
    graph_mem_reserved += bytes;
    if (graph_mem_reserved > graph_mem_reserved_high)
        graph_mem_reserved_high = graph_mem_reserved;
    cb_mutex_unlock(&graph_mem_lock);
    *out = m;
    return CUDA_SUCCESS;
}

/* Unlinks m and returns its memory unless told to leave that to the caller
 * (keep_memory). Lock held; frees m. */
static void graph_mem_drop(cb_graph_mem *m, int keep_memory)
{
    for (cb_graph_mem **p = &graph_mems; *p; p = &(*p)->next) {
        if (*p == m) {
            *p = m->next;
            break;
        }
    }
    graph_mem_reserved -= m->bytes;
    if (m->live)
        graph_mem_used -= m->bytes;
    /* The context may be gone (its memory with it): free only the very
     * allocation made for m, never one that took its address since. */
    cb_mem_info info = cb_mem_lookup(m->dptr);
    if (!keep_memory && info.base == m->dptr && info.buffer_id == m->buffer_id)
        cb_mem_free(info.ctx, m->dptr);
    m->magic = CB_MAGIC_DEAD;
    free(m->access);
    free(m);
}

void cb_graph_mem_ref(cb_graph_mem *m)
{
    cb_mutex_lock(&graph_mem_lock);
    m->refs++;
    cb_mutex_unlock(&graph_mem_lock);
}

void cb_graph_mem_unref(cb_graph_mem *m)
{
    cb_mutex_lock(&graph_mem_lock);
    if (--m->refs == 0 && !m->live)
        graph_mem_drop(m, 0);
    cb_mutex_unlock(&graph_mem_lock);
}

/* Lock held. */
static cb_graph_mem *graph_mem_lookup(uint64_t dptr)
{
    for (cb_graph_mem *m = graph_mems; m; m = m->next)
        if (m->dptr == dptr)
            return m;
    return NULL;
}

cb_graph_mem *cb_graph_mem_find(uint64_t dptr)
{
    cb_mutex_lock(&graph_mem_lock);
    cb_graph_mem *m = graph_mem_lookup(dptr);
    cb_mutex_unlock(&graph_mem_lock);
    return m;
}

uint64_t cb_graph_mem_address(const cb_graph_mem *m) { return m->dptr; }

void cb_graph_mem_params(const cb_graph_mem *m, CUDA_MEM_ALLOC_NODE_PARAMS *out)
{
    memset(out, 0, sizeof *out);
    out->poolProps = m->props;
    out->accessDescs = m->access;
    out->accessDescCount = m->naccess;
    out->bytesize = m->bytes;
    out->dptr = m->dptr;
}

/* Allocated or freed by a launch or a free call. Lock held. */
static void graph_mem_set_live(cb_graph_mem *m, int live)
{
    if (m->live == live)
        return;
    m->live = live;
    if (live) {
        graph_mem_used += m->bytes;
        if (graph_mem_used > graph_mem_used_high)
            graph_mem_used_high = graph_mem_used;
    } else {
        graph_mem_used -= m->bytes;
    }
}

int cb_graph_mem_is_ours(uint64_t dptr)
{
    cb_mutex_lock(&graph_mem_lock);
    int ours = graph_mem_lookup(dptr) != NULL;
    cb_mutex_unlock(&graph_mem_lock);
    return ours;
}

cb_graph_mem_free cb_graph_mem_user_free(uint64_t dptr)
{
    cb_mutex_lock(&graph_mem_lock);
    cb_graph_mem *m = graph_mem_lookup(dptr);
    cb_graph_mem_free what = CB_GRAPH_MEM_NOT_OURS;
    if (m && !m->live) {
        what = CB_GRAPH_MEM_NOT_LIVE;
    } else if (m) {
        graph_mem_set_live(m, 0);
        what = m->refs > 0 ? CB_GRAPH_MEM_KEPT : CB_GRAPH_MEM_RELEASE;
        if (what == CB_GRAPH_MEM_RELEASE)
            graph_mem_drop(m, 1);   /* the caller frees it the ordinary way */
    }
    cb_mutex_unlock(&graph_mem_lock);
    if (what == CB_GRAPH_MEM_NOT_LIVE)
        cb_log(CB_LOG_WARN, "free of 0x%llx: a graph allocation that is not allocated now (freed already, or its "
                            "graph has not been launched)", (unsigned long long)dptr);
    return what;
}

/* ---- graphs and instantiations ------------------------------------------------- */

static int is_mem_node(const cb_graph_node *n)
{
    return (n->type == CU_GRAPH_NODE_TYPE_MEM_ALLOC || n->type == CU_GRAPH_NODE_TYPE_MEM_FREE) && n->u.mem;
}

int cb_graph_has_mem_nodes(const cb_graph *g)
{
    for (size_t i = 0; i < g->n; i++)
        if (is_mem_node(g->nodes[i]))
            return 1;
    return 0;
}

int cb_graph_mem_instantiated(const cb_graph *g)
{
    int found = 0;
    cb_mutex_lock(&graph_mem_lock);
    for (size_t i = 0; i < g->n && !found; i++)
        if (g->nodes[i]->type == CU_GRAPH_NODE_TYPE_MEM_ALLOC && g->nodes[i]->u.mem)
            found = g->nodes[i]->u.mem->execs > 0;
    cb_mutex_unlock(&graph_mem_lock);
    return found;
}

static void exec_count(cb_graph_exec *e, int delta)
{
    cb_mutex_lock(&graph_mem_lock);
    for (size_t i = 0; i < e->graph->n; i++)
        if (e->graph->nodes[i]->type == CU_GRAPH_NODE_TYPE_MEM_ALLOC && e->graph->nodes[i]->u.mem)
            e->graph->nodes[i]->u.mem->execs += delta;
    cb_mutex_unlock(&graph_mem_lock);
}

void cb_graph_mem_exec_attach(cb_graph_exec *e) { exec_count(e, 1); }
void cb_graph_mem_exec_detach(cb_graph_exec *e) { exec_count(e, -1); }

CUresult cb_graph_mem_launch_check(cb_graph_exec *e)
{
    const cb_graph *g = e->graph;
    int auto_free = (e->flags & CUDA_GRAPH_INSTANTIATE_FLAG_AUTO_FREE_ON_LAUNCH) != 0;
    CUresult r = CUDA_SUCCESS;
    uint64_t bad = 0;
    cb_mutex_lock(&graph_mem_lock);
    for (size_t i = 0; i < g->n; i++)
        if (is_mem_node(g->nodes[i]))
            g->nodes[i]->u.mem->pending = g->nodes[i]->u.mem->live;
    for (size_t k = 0; k < g->n && r == CUDA_SUCCESS; k++) {
        const cb_graph_node *n = g->nodes[e->order[k]];
        if (!is_mem_node(n))
            continue;
        cb_graph_mem *m = n->u.mem;
        if (n->type == CU_GRAPH_NODE_TYPE_MEM_ALLOC) {
            if (m->pending && !auto_free)
                r = CUDA_ERROR_INVALID_VALUE;
            m->pending = 1;
        } else {
            if (!m->pending)
                r = CUDA_ERROR_INVALID_VALUE;
            m->pending = 0;
        }
        bad = m->dptr;
    }
    cb_mutex_unlock(&graph_mem_lock);
    if (r != CUDA_SUCCESS)
        cb_log(CB_LOG_WARN, "cuGraphLaunch: the graph allocation at 0x%llx %s", (unsigned long long)bad,
               auto_free ? "is freed by a node before it is allocated"
                         : "is still allocated from an earlier launch (free it, or instantiate with "
                           "CUDA_GRAPH_INSTANTIATE_FLAG_AUTO_FREE_ON_LAUNCH), or freed before it is allocated");
    return r;
}

void cb_graph_mem_launch_apply(cb_graph_exec *e)
{
    const cb_graph *g = e->graph;
    cb_mutex_lock(&graph_mem_lock);
    for (size_t k = 0; k < g->n; k++) {
        const cb_graph_node *n = g->nodes[e->order[k]];
        if (is_mem_node(n)) {
            graph_mem_set_live(n->u.mem, 0);   /* an auto-freed allocation is freed first */
            if (n->type == CU_GRAPH_NODE_TYPE_MEM_ALLOC)
                graph_mem_set_live(n->u.mem, 1);
        }
    }
    cb_mutex_unlock(&graph_mem_lock);
}

/* ---- attributes ----------------------------------------------------------------- */

CUresult cb_graph_mem_get_attribute(CUgraphMem_attribute attr, uint64_t *value)
{
    CUresult r = CUDA_SUCCESS;
    cb_mutex_lock(&graph_mem_lock);
    switch (attr) {
    case CU_GRAPH_MEM_ATTR_USED_MEM_CURRENT: *value = graph_mem_used; break;
    case CU_GRAPH_MEM_ATTR_USED_MEM_HIGH: *value = graph_mem_used_high; break;
    case CU_GRAPH_MEM_ATTR_RESERVED_MEM_CURRENT: *value = graph_mem_reserved; break;
    case CU_GRAPH_MEM_ATTR_RESERVED_MEM_HIGH: *value = graph_mem_reserved_high; break;
    default: r = CUDA_ERROR_INVALID_VALUE; break;
    }
    cb_mutex_unlock(&graph_mem_lock);
    return r;
}

CUresult cb_graph_mem_reset_attribute(CUgraphMem_attribute attr, uint64_t value)
{
    if (value != 0)
        return CUDA_ERROR_INVALID_VALUE;
    CUresult r = CUDA_SUCCESS;
    cb_mutex_lock(&graph_mem_lock);
    if (attr == CU_GRAPH_MEM_ATTR_USED_MEM_HIGH)
        graph_mem_used_high = graph_mem_used;
    else if (attr == CU_GRAPH_MEM_ATTR_RESERVED_MEM_HIGH)
        graph_mem_reserved_high = graph_mem_reserved;
    else
        r = CUDA_ERROR_INVALID_VALUE;   /* the current values cannot be set */
    cb_mutex_unlock(&graph_mem_lock);
    return r;
}

/* ---- stream capture -------------------------------------------------------------- */

CUresult cb_graph_mem_capture_alloc(cb_stream *s, size_t bytes, const CUmemPoolProps *pool_props, uint64_t *dptr)
{
    CUmemAccessDesc access = {.location = {.type = CU_MEM_LOCATION_TYPE_DEVICE, .id = s->ctx->device->ordinal},
                              .flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE};
    cb_graph_mem *m;
    CUresult r = cb_graph_mem_reserve(s->ctx, bytes, pool_props, &access, 1, &m);
    if (r != CUDA_SUCCESS)
        return r;
    r = cb_capture_add_mem_node(s, CU_GRAPH_NODE_TYPE_MEM_ALLOC, m);
    if (r != CUDA_SUCCESS) {
        cb_graph_mem_unref(m);
        return r;
    }
    *dptr = m->dptr;
    return CUDA_SUCCESS;
}

CUresult cb_graph_mem_capture_free(cb_stream *s, uint64_t dptr)
{
    cb_mutex_lock(&graph_mem_lock);
    cb_graph_mem *m = graph_mem_lookup(dptr);
    if (m)
        m->refs++;   /* the free node's */
    cb_mutex_unlock(&graph_mem_lock);
    if (!m) {
        cb_log(CB_LOG_WARN, "cuMemFreeAsync during stream capture: 0x%llx is not a graph allocation (only memory "
                            "allocated in a graph can be freed in one); the capture is invalidated",
               (unsigned long long)dptr);
        cb_runtime *rt = cb_runtime_of(s->ctx);
        cb_mutex_lock(&rt->lock);
        cb_capture_invalidate(s);
        cb_mutex_unlock(&rt->lock);
        return CUDA_ERROR_INVALID_VALUE;
    }
    CUresult r = cb_capture_add_mem_node(s, CU_GRAPH_NODE_TYPE_MEM_FREE, m);
    if (r != CUDA_SUCCESS)
        cb_graph_mem_unref(m);
    return r;
}
