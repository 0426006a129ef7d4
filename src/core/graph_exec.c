/* graph_exec.c: instantiated graphs: topological order, launch, update
 * (see graph.h). */
#include "core/graph.h"

#include <stdlib.h>
#include <string.h>

#include "core/graph_mem.h"
#include "core/graph_cond.h"
#include "core/handles.h"

int cb_graph_exec_valid(const void *e) { return cb_handle_live(e, CB_MAGIC_GRAPH_EXEC); }

/* Kahn's algorithm over the dependency lists; -1 on a cycle. */
int cb_graph_topo_order(const cb_graph *g, size_t *order)
{
    size_t n = g->n, done = 0;
    unsigned char *placed = calloc(n ? n : 1, 1);
    if (!placed)
        return -1;
    while (done < n) {
        size_t before = done;
        for (size_t i = 0; i < n; i++) {
            if (placed[i])
                continue;
            const cb_graph_node *node = g->nodes[i];
            int ready = 1;
            for (size_t d = 0; d < node->ndeps && ready; d++)
                ready = placed[node->deps[d]->index];
            if (ready) {
                placed[i] = 1;
                order[done++] = i;
            }
        }
        if (done == before)
            break;
    }
    free(placed);
    return done == n ? 0 : -1;
}

CUresult cb_graph_instantiate(cb_graph *g, unsigned long long flags, cb_graph_exec **out)
{
    if (cb_graph_mem_instantiated(g)) {
        cb_log(CB_LOG_WARN, "cuGraphInstantiate: the graph has memory nodes and an instantiation of it exists "
                            "(CUDA allows one at a time: destroy it first)");
        return CUDA_ERROR_INVALID_VALUE;
    }
    cb_graph_exec *e = calloc(1, sizeof *e);
    if (!e)
        return CUDA_ERROR_OUT_OF_MEMORY;
    CUresult r = cb_graph_clone(g, &e->graph);
    if (r != CUDA_SUCCESS) {
        free(e);
        return r;
    }
    e->order = malloc((g->n ? g->n : 1) * sizeof *e->order);
    if (!e->order || cb_graph_topo_order(e->graph, e->order) != 0 ||
        (r = cb_graph_cond_prepare(e->graph)) != CUDA_SUCCESS) {
        r = !e->order ? CUDA_ERROR_OUT_OF_MEMORY : r != CUDA_SUCCESS ? r : CUDA_ERROR_INVALID_VALUE;
        cb_graph_destroy(e->graph);
        free(e->order);
        free(e);
        return r;
    }
    e->magic = CB_MAGIC_GRAPH_EXEC;
    e->flags = flags;
    cb_graph_mem_exec_attach(e);
    cb_mutex_init(&e->lock);
    atomic_init(&e->refs, 1);
    cb_handle_add(e);
    *out = e;
    return CUDA_SUCCESS;
}

void cb_graph_exec_release(cb_graph_exec *e)
{
    if (atomic_fetch_sub(&e->refs, 1) != 1)
        return;
    cb_graph_destroy(e->graph);
    free(e->order);
    cb_fence_unref(e->last);
    cb_mutex_destroy(&e->lock);
    e->magic = CB_MAGIC_DEAD;
    free(e);
}

void cb_graph_exec_destroy(cb_graph_exec *e)
{
    cb_handle_remove(e);
    cb_graph_mem_exec_detach(e);   /* the instantiation is gone even while its last launch runs */
    cb_graph_exec_release(e);
}

void cb_graph_exec_quiesce(cb_graph_exec *e)
{
    cb_mutex_lock(&e->lock);
    cb_fence *f = cb_fence_ref(e->last);
    cb_mutex_unlock(&e->lock);
    cb_fence_wait(f);
    cb_fence_unref(f);
}

void cb_graph_launch_free(cb_graph_launch *gl)
{
    if (!gl)
        return;
    for (size_t i = 0; i < gl->exec->graph->n; i++)
        cb_fence_unref(gl->fences[i]);
    free(gl->fences);
    cb_graph_exec_release(gl->exec);
    free(gl);
}

CUresult cb_graph_exec_launch(cb_graph_exec *e, cb_stream *s)
{
    cb_graph *g = e->graph;
    CUresult rm = cb_graph_mem_launch_check(e);
    if (rm != CUDA_SUCCESS)
        return rm;
    cb_graph_launch *gl = calloc(1, sizeof *gl);
    cb_op *op = cb_op_new(CB_OP_GRAPH);
    if (!gl || !op || !(gl->fences = calloc(g->n ? g->n : 1, sizeof *gl->fences))) {
        free(gl);
        cb_op_free(op);
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    atomic_fetch_add(&e->refs, 1);
    gl->exec = e;
    op->u.graph = gl;
    /* Event nodes bind to the event at launch: waits take the event's
     * current record, records give the event a new fence. */
    for (size_t i = 0; i < g->n; i++) {
        cb_graph_node *n = g->nodes[i];
        if (n->type == CU_GRAPH_NODE_TYPE_WAIT_EVENT && cb_event_valid(n->u.event))
            gl->fences[i] = cb_event_fence(n->u.event);
        else if (n->type == CU_GRAPH_NODE_TYPE_EVENT_RECORD && !(gl->fences[i] = cb_fence_new())) {
            cb_op_free(op);
            return CUDA_ERROR_OUT_OF_MEMORY;
        }
    }
    /* the op (and gl) may be done and freed as soon as it is submitted:
     * keep our own references to the record fences */
    cb_fence **records = calloc(g->n ? g->n : 1, sizeof *records);
    if (!records) {
        cb_op_free(op);
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    for (size_t i = 0; i < g->n; i++)
        if (g->nodes[i]->type == CU_GRAPH_NODE_TYPE_EVENT_RECORD)
            records[i] = cb_fence_ref(gl->fences[i]);
    cb_fence *f;
    CUresult r = cb_stream_submit(s, op, &f);
    if (r != CUDA_SUCCESS) {
        for (size_t i = 0; i < g->n; i++)
            cb_fence_unref(records[i]);
        free(records);
        cb_op_free(op);
        return r;
    }
    cb_graph_mem_launch_apply(e);
    cb_mutex_lock(&e->lock);
    cb_fence *old = e->last;
    e->last = f;
    cb_mutex_unlock(&e->lock);
    cb_fence_unref(old);
    for (size_t i = 0; i < g->n; i++) {
        if (records[i] && cb_event_valid(g->nodes[i]->u.event))
            cb_event_set_fence(g->nodes[i]->u.event, records[i]);
        cb_fence_unref(records[i]);
    }
    free(records);
    return CUDA_SUCCESS;
}

CUresult cb_graph_node_run(cb_graph_node *n, cb_fence *fence, cb_stream *s)
{
    cb_backend *be = s->ctx->device->backend;
    switch (n->type) {
    case CU_GRAPH_NODE_TYPE_KERNEL: {
        cb_launch_error err;
        memset(&err, 0, sizeof err);
        cb_launch_config cfg = n->u.kernel.cfg;
        cfg.stream_id = s->id;
        CUresult r = cb_function_execute(n->u.kernel.f, &cfg, &err);
        if (r != CUDA_SUCCESS)   /* cb_function_execute logged it */
            cb_ctx_set_sticky(s->ctx, r);
        return r;
    }
    case CU_GRAPH_NODE_TYPE_MEMCPY: return cb_copy_run(be, &n->u.memcpy.copy);
    case CU_GRAPH_NODE_TYPE_MEMSET: return cb_fill_run(be, &n->u.memset.fill);
    case CU_GRAPH_NODE_TYPE_HOST: n->u.host.fn(n->u.host.userData); return CUDA_SUCCESS;
    case CU_GRAPH_NODE_TYPE_WAIT_EVENT: cb_fence_wait(fence); return CUDA_SUCCESS;
    case CU_GRAPH_NODE_TYPE_EVENT_RECORD:
        if (fence)
            cb_fence_signal(fence);
        return CUDA_SUCCESS;
    case CU_GRAPH_NODE_TYPE_CONDITIONAL: return cb_graph_cond_run(n, s);
    default: return CUDA_SUCCESS; /* empty */
    }
}

void cb_graph_launch_run(cb_graph_launch *gl, cb_stream *s)
{
    cb_graph_exec *e = gl->exec;
    int failed = 0;
    cb_graph_cond_launch_begin(e->graph);
    for (size_t k = 0; k < e->graph->n; k++) {
        size_t i = e->order[k];
        cb_graph_node *n = e->graph->nodes[i];
        if (failed) {
            /* keep event records from hanging their waiters */
            if (n->type == CU_GRAPH_NODE_TYPE_EVENT_RECORD && gl->fences[i])
                cb_fence_signal(gl->fences[i]);
            continue;
        }
        if (cb_graph_node_run(n, gl->fences[i], s) != CUDA_SUCCESS)
            failed = 1;
    }
}

/* 1 if a and b have the same shape (node types and edges by index). */
static int same_topology(const cb_graph *a, const cb_graph *b, size_t *bad)
{
    if (a->n != b->n) {
        *bad = a->n < b->n ? a->n : b->n;
        return 0;
    }
    for (size_t i = 0; i < a->n; i++) {
        const cb_graph_node *x = a->nodes[i], *y = b->nodes[i];
        *bad = i;
        if (x->type != y->type || x->ndeps != y->ndeps)
            return 0;
        for (size_t d = 0; d < x->ndeps; d++) {
            int found = 0;
            for (size_t k = 0; k < y->ndeps && !found; k++)
                found = x->deps[d]->index == y->deps[k]->index;
            if (!found)
                return 0;
        }
    }
    return 1;
}

CUresult cb_graph_exec_update(cb_graph_exec *e, cb_graph *g, cb_graph_node **error_node,
                              CUgraphExecUpdateResult *result)
{
    size_t bad = 0;
    if (error_node)
        *error_node = NULL;
    if (cb_graph_has_mem_nodes(e->graph) || cb_graph_has_mem_nodes(g)) {   /* as CUDA: not updatable */
        if (result)
            *result = CU_GRAPH_EXEC_UPDATE_ERROR_NOT_SUPPORTED;
        return CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE;
    }
    if (!same_topology(e->graph, g, &bad)) {
        if (result)
            *result = CU_GRAPH_EXEC_UPDATE_ERROR_TOPOLOGY_CHANGED;
        if (error_node && bad < g->n)
            *error_node = g->nodes[bad];
        return CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE;
    }
    for (size_t i = 0; i < g->n; i++) {
        const cb_graph_node *src = g->nodes[i];
        if (src->type == CU_GRAPH_NODE_TYPE_KERNEL && e->graph->nodes[i]->u.kernel.f->module->ctx !=
                                                          src->u.kernel.f->module->ctx) {
            if (result)
                *result = CU_GRAPH_EXEC_UPDATE_ERROR_FUNCTION_CHANGED;
            if (error_node)
                *error_node = (cb_graph_node *)src;
            return CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE;
        }
    }
    /* Everything is compatible: swap in a clone of g's params, once no
     * launch of e is still running on the old ones. */
    cb_graph_exec_quiesce(e);
    cb_graph *clone;
    CUresult r = cb_graph_clone(g, &clone);
    if (r == CUDA_SUCCESS && (r = cb_graph_cond_prepare(clone)) != CUDA_SUCCESS)
        cb_graph_destroy(clone);
    if (r != CUDA_SUCCESS)
        return r;
    cb_graph *old = e->graph;
    for (size_t i = 0; i < g->n; i++) {
        cb_graph_node *tmp = old->nodes[i];
        /* keep the exec's node objects (and its order); trade params */
        cb_node_params swap = tmp->u;
        tmp->u = clone->nodes[i]->u;
        clone->nodes[i]->u = swap;
    }
    cb_graph_destroy(clone);
    if (result)
        *result = CU_GRAPH_EXEC_UPDATE_SUCCESS;
    return CUDA_SUCCESS;
}
