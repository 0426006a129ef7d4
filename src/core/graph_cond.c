/* graph_cond.c: conditional graph nodes: handles, bodies, running them
 * (see graph_cond.h). */
#include "core/graph_cond.h"

#include <stdlib.h>
#include <string.h>

#include "core/handles.h"

/* ---- handles -------------------------------------------------------------------- */

int cb_cond_handle_valid(CUgraphConditionalHandle h)
{
    return cb_handle_live((const void *)(uintptr_t)h, CB_COND_HANDLE_MAGIC);
}

static cb_cond_handle *handle_ref(cb_cond_handle *h)
{
    atomic_fetch_add(&h->refs, 1);
    return h;
}

static void handle_unref(cb_cond_handle *h)
{
    if (!h || atomic_fetch_sub(&h->refs, 1) != 1)
        return;
    cb_handle_remove(h);
    __atomic_store_n(&h->dev.magic, CB_MAGIC_DEAD, __ATOMIC_RELEASE);
    free(h);
}

static CUresult conds_add(cb_graph *g, cb_cond_handle *h)
{
    if (!g->conds && !(g->conds = calloc(1, sizeof *g->conds)))
        return CUDA_ERROR_OUT_OF_MEMORY;
    cb_graph_conds *c = g->conds;
    if (c->n == c->cap) {
        size_t cap = c->cap ? c->cap * 2 : 4;
        cb_cond_handle **grown = realloc(c->h, cap * sizeof *grown);
        if (!grown)
            return CUDA_ERROR_OUT_OF_MEMORY;
        c->h = grown;
        c->cap = cap;
    }
    c->h[c->n++] = handle_ref(h);
    return CUDA_SUCCESS;
}

CUresult cb_cond_handle_create(cb_graph *g, cb_context *ctx, unsigned default_value, unsigned flags,
                               CUgraphConditionalHandle *out)
{
    if (flags & ~(unsigned)CU_GRAPH_COND_ASSIGN_DEFAULT)
        return CUDA_ERROR_INVALID_VALUE;
    cb_cond_handle *h = calloc(1, sizeof *h);
    if (!h)
        return CUDA_ERROR_OUT_OF_MEMORY;
    h->dev.magic = CB_COND_HANDLE_MAGIC;
    h->dev.value = default_value;   /* also the first value without ASSIGN_DEFAULT */
    h->ctx = ctx;
    h->graph = g;
    h->default_value = default_value;
    h->flags = flags;
    atomic_init(&h->refs, 0);
    cb_handle_add(h);
    CUresult r = conds_add(g, h);
    if (r != CUDA_SUCCESS) {
        cb_handle_remove(h);
        free(h);
        return r;
    }
    *out = (CUgraphConditionalHandle)(uintptr_t)h;
    return CUDA_SUCCESS;
}

void cb_graph_conds_free(cb_graph *g)
{
    if (!g->conds)
        return;
    for (size_t i = 0; i < g->conds->n; i++)
        handle_unref(g->conds->h[i]);
    free(g->conds->h);
    free(g->conds);
    g->conds = NULL;
}

CUresult cb_graph_conds_clone(const cb_graph *src, cb_graph *dst)
{
    for (size_t i = 0; src->conds && i < src->conds->n; i++) {
        CUresult r = conds_add(dst, src->conds->h[i]);
        if (r != CUDA_SUCCESS)
            return r;
    }
    return CUDA_SUCCESS;
}

/* ---- nodes ---------------------------------------------------------------------- */

void cb_cond_node_free(cb_cond_node *c)
{
    if (!c)
        return;
    for (unsigned i = 0; i < c->size; i++) {
        if (c->bodies && c->bodies[i])
            cb_graph_destroy((cb_graph *)c->bodies[i]);
        if (c->orders)
            free(c->orders[i]);
    }
    free(c->bodies);
    free(c->orders);
    handle_unref(c->handle);
    free(c);
}

static cb_cond_node *cond_alloc(unsigned size)
{
    cb_cond_node *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    c->size = size;
    c->bodies = calloc(size, sizeof *c->bodies);
    c->orders = calloc(size, sizeof *c->orders);
    if (!c->bodies || !c->orders) {
        free(c->bodies);
        free(c->orders);
        free(c);
        return NULL;
    }
    return c;
}

CUresult cb_cond_node_init(cb_graph_node *n, CUDA_CONDITIONAL_NODE_PARAMS *p)
{
    if (!cb_cond_handle_valid(p->handle))
        return CUDA_ERROR_INVALID_VALUE;
    cb_cond_handle *h = (cb_cond_handle *)(uintptr_t)p->handle;
    switch (p->type) {
    case CU_GRAPH_COND_TYPE_IF:
        if (p->size != 1 && p->size != 2)
            return CUDA_ERROR_INVALID_VALUE;
        break;
    case CU_GRAPH_COND_TYPE_WHILE:
        if (p->size != 1)
            return CUDA_ERROR_INVALID_VALUE;
        break;
    case CU_GRAPH_COND_TYPE_SWITCH:
        if (p->size == 0)
            return CUDA_ERROR_INVALID_VALUE;
        break;
    default: return CUDA_ERROR_INVALID_VALUE;
    }
    if (h->graph != n->graph) {
        cb_log(CB_LOG_WARN, "conditional node: the handle was made for another graph (cuGraphConditionalHandleCreate)");
        return CUDA_ERROR_INVALID_VALUE;
    }
    if (p->ctx && (cb_context *)p->ctx != h->ctx) {
        cb_log(CB_LOG_WARN, "conditional node: its context is not the handle's");
        return CUDA_ERROR_INVALID_VALUE;
    }
    cb_cond_node *c = cond_alloc(p->size);
    if (!c)
        return CUDA_ERROR_OUT_OF_MEMORY;
    c->type = p->type;
    c->ctx = h->ctx;
    c->handle = handle_ref(h);
    for (unsigned i = 0; i < p->size; i++) {
        cb_graph *b;
        if (cb_graph_create(&b) != CUDA_SUCCESS) {
            cb_cond_node_free(c);
            return CUDA_ERROR_OUT_OF_MEMORY;
        }
        c->bodies[i] = (CUgraph)b;
    }
    n->u.cond = c;
    p->phGraph_out = c->bodies;
    return CUDA_SUCCESS;
}

CUresult cb_cond_node_clone(const cb_cond_node *src, cb_cond_node **dst)
{
    cb_cond_node *c = cond_alloc(src->size);
    if (!c)
        return CUDA_ERROR_OUT_OF_MEMORY;
    c->type = src->type;
    c->ctx = src->ctx;
    c->handle = handle_ref(src->handle);
    for (unsigned i = 0; i < src->size; i++) {
        cb_graph *b;
        CUresult r = cb_graph_clone((cb_graph *)src->bodies[i], &b);
        if (r != CUDA_SUCCESS) {
            cb_cond_node_free(c);
            return r;
        }
        c->bodies[i] = (CUgraph)b;
    }
    *dst = c;
    return CUDA_SUCCESS;
}

/* ---- instantiation and launch --------------------------------------------------- */

static const char *type_name(CUgraphNodeType t)
{
    switch (t) {
    case CU_GRAPH_NODE_TYPE_HOST: return "host";
    case CU_GRAPH_NODE_TYPE_GRAPH: return "child graph";
    case CU_GRAPH_NODE_TYPE_WAIT_EVENT: return "event wait";
    case CU_GRAPH_NODE_TYPE_EVENT_RECORD: return "event record";
    case CU_GRAPH_NODE_TYPE_MEM_ALLOC: return "memory allocation";
    case CU_GRAPH_NODE_TYPE_MEM_FREE: return "memory free";
    default: return "this";
    }
}

/* Checks the bodies of g's conditional nodes (g itself is a body when
 * body != 0) and computes their orders. */
static CUresult prepare(cb_graph *g, int body)
{
    for (size_t i = 0; i < g->n; i++) {
        cb_graph_node *n = g->nodes[i];
        switch (n->type) {
        case CU_GRAPH_NODE_TYPE_KERNEL:
        case CU_GRAPH_NODE_TYPE_EMPTY:
        case CU_GRAPH_NODE_TYPE_MEMCPY:
        case CU_GRAPH_NODE_TYPE_MEMSET:
            break;
        case CU_GRAPH_NODE_TYPE_CONDITIONAL: {
            cb_cond_node *c = n->u.cond;
            for (unsigned k = 0; k < c->size; k++) {
                cb_graph *b = (cb_graph *)c->bodies[k];
                free(c->orders[k]);
                c->orders[k] = malloc((b->n ? b->n : 1) * sizeof(size_t));
                if (!c->orders[k])
                    return CUDA_ERROR_OUT_OF_MEMORY;
                if (cb_graph_topo_order(b, c->orders[k]) != 0)
                    return CUDA_ERROR_INVALID_VALUE;
                CUresult r = prepare(b, 1);
                if (r != CUDA_SUCCESS)
                    return r;
            }
            break;
        }
        default:
            if (body) {
                cb_log(CB_LOG_WARN, "cuGraphInstantiate: a conditional node's body holds a %s node (bodies may "
                                    "hold only kernel, empty, memcpy, memset, child graph and conditional nodes)",
                       type_name(n->type));
                return CUDA_ERROR_INVALID_VALUE;
            }
        }
    }
    return CUDA_SUCCESS;
}

CUresult cb_graph_cond_prepare(cb_graph *g) { return prepare(g, 0); }

void cb_graph_cond_launch_begin(cb_graph *g)
{
    for (size_t i = 0; i < g->n; i++) {
        cb_graph_node *n = g->nodes[i];
        if (n->type != CU_GRAPH_NODE_TYPE_CONDITIONAL)
            continue;
        cb_cond_handle *h = n->u.cond->handle;
        if (h->flags & CU_GRAPH_COND_ASSIGN_DEFAULT)
            __atomic_store_n(&h->dev.value, h->default_value, __ATOMIC_RELEASE);
        for (unsigned k = 0; k < n->u.cond->size; k++)
            cb_graph_cond_launch_begin((cb_graph *)n->u.cond->bodies[k]);
    }
}

static CUresult run_body(cb_cond_node *c, unsigned k, cb_stream *s)
{
    cb_graph *b = (cb_graph *)c->bodies[k];
    for (size_t i = 0; i < b->n; i++) {
        CUresult r = cb_graph_node_run(b->nodes[c->orders[k][i]], NULL, s);
        if (r != CUDA_SUCCESS)
            return r;
    }
    return CUDA_SUCCESS;
}

CUresult cb_graph_cond_run(cb_graph_node *n, cb_stream *s)
{
    cb_cond_node *c = n->u.cond;
    unsigned v = __atomic_load_n(&c->handle->dev.value, __ATOMIC_ACQUIRE);
    switch (c->type) {
    case CU_GRAPH_COND_TYPE_IF:
        if (v)
            return run_body(c, 0, s);
        return c->size == 2 ? run_body(c, 1, s) : CUDA_SUCCESS;
    case CU_GRAPH_COND_TYPE_WHILE:
        while (v) {
            CUresult r = run_body(c, 0, s);
            if (r != CUDA_SUCCESS)
                return r;
            v = __atomic_load_n(&c->handle->dev.value, __ATOMIC_ACQUIRE);
        }
        return CUDA_SUCCESS;
    case CU_GRAPH_COND_TYPE_SWITCH: return v < c->size ? run_body(c, v, s) : CUDA_SUCCESS;
    default: return CUDA_ERROR_INVALID_VALUE;
    }
}
