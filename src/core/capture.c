/* capture.c: stream capture into graphs (see graph.h).
 *
 * Process-wide state: `capture_next_id` (capture ids), `global_captures`
 * (the number of active CU_STREAM_CAPTURE_MODE_GLOBAL captures, which
 * forbid unsafe calls on every thread in GLOBAL mode) and the thread-local
 * `thread_mode` / `thread_captures` of cuThreadExchangeStreamCaptureMode.
 * Everything else is guarded by the owning context's runtime lock.
 */
#include <stdlib.h>
#include <string.h>

#include "core/graph.h"

static _Atomic unsigned long long capture_next_id = 1;
static _Atomic int global_captures;
static _Thread_local CUstreamCaptureMode thread_mode = CU_STREAM_CAPTURE_MODE_GLOBAL;
static _Thread_local int thread_captures;

static int set_deps(cb_graph_node ***deps, size_t *n, size_t *cap, cb_graph_node *const *src, size_t count)
{
    if (count > *cap) {
        cb_graph_node **grown = realloc(*deps, count * sizeof *grown);
        if (!grown)
            return -1;
        *deps = grown;
        *cap = count;
    }
    if (count)
        memcpy(*deps, src, count * sizeof *src);
    *n = count;
    return 0;
}

static int add_dep_unique(cb_stream *s, cb_graph_node *node)
{
    for (size_t i = 0; i < s->ncap_deps; i++)
        if (s->cap_deps[i] == node)
            return 0;
    if (s->ncap_deps == s->capcap_deps) {
        size_t cap = s->capcap_deps ? s->capcap_deps * 2 : 4;
        cb_graph_node **grown = realloc(s->cap_deps, cap * sizeof *grown);
        if (!grown)
            return -1;
        s->cap_deps = grown;
        s->capcap_deps = cap;
    }
    s->cap_deps[s->ncap_deps++] = node;
    return 0;
}

static int capture_live(cb_runtime *rt, const cb_capture *cap)
{
    for (cb_capture *c = rt->captures; c; c = c->next)
        if (c == cap)
            return 1;
    return 0;
}

CUresult cb_capture_begin(cb_stream *s, CUstreamCaptureMode mode)
{
    if (mode != CU_STREAM_CAPTURE_MODE_GLOBAL && mode != CU_STREAM_CAPTURE_MODE_THREAD_LOCAL &&
        mode != CU_STREAM_CAPTURE_MODE_RELAXED)
        return CUDA_ERROR_INVALID_VALUE;
    if (s->is_legacy)
        return CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED;
    cb_runtime *rt = cb_runtime_of(s->ctx);
    cb_capture *cap = calloc(1, sizeof *cap);
    if (!cap)
        return CUDA_ERROR_OUT_OF_MEMORY;
    CUresult r = cb_graph_create(&cap->graph);
    if (r != CUDA_SUCCESS) {
        free(cap);
        return r;
    }
    cb_mutex_lock(&rt->lock);
    if (s->capture) {
        cb_mutex_unlock(&rt->lock);
        cb_graph_destroy(cap->graph);
        free(cap);
        return CUDA_ERROR_ILLEGAL_STATE;
    }
    cap->mode = mode;
    cap->id = atomic_fetch_add(&capture_next_id, 1);
    cap->origin = s;
    cap->rt = rt;
    cap->next = rt->captures;
    rt->captures = cap;
    s->capture = cap;
    s->ncap_deps = 0;
    if (mode != CU_STREAM_CAPTURE_MODE_RELAXED) {
        cap->thread_count = &thread_captures;
        thread_captures++;
    }
    if (mode == CU_STREAM_CAPTURE_MODE_GLOBAL)
        atomic_fetch_add(&global_captures, 1);
    cb_mutex_unlock(&rt->lock);
    return CUDA_SUCCESS;
}

/* Detaches every stream from cap and unlinks it (runtime lock held);
 * returns its graph. */
static cb_graph *capture_close(cb_capture *cap)
{
    cb_runtime *rt = cap->rt;
    for (cb_stream *t = rt->streams; t; t = t->next) {
        if (t->capture == cap) {
            t->capture = NULL;
            t->ncap_deps = 0;
        }
    }
    for (cb_capture **pp = &rt->captures; *pp; pp = &(*pp)->next) {
        if (*pp == cap) {
            *pp = cap->next;
            break;
        }
    }
    if (cap->thread_count)
        (*cap->thread_count)--;
    if (cap->mode == CU_STREAM_CAPTURE_MODE_GLOBAL)
        atomic_fetch_sub(&global_captures, 1);
    cb_graph *g = cap->graph;
    free(cap);
    return g;
}

/* 1 if every node without dependents is in the origin's dependency set. */
static int capture_joined(const cb_capture *cap)
{
    const cb_graph *g = cap->graph;
    const cb_stream *s = cap->origin;
    unsigned char *has_dependents = calloc(g->n ? g->n : 1, 1);
    if (!has_dependents)
        return 1;
    for (size_t i = 0; i < g->n; i++)
        for (size_t d = 0; d < g->nodes[i]->ndeps; d++)
            has_dependents[g->nodes[i]->deps[d]->index] = 1;
    int ok = 1;
    for (size_t i = 0; i < g->n && ok; i++) {
        if (has_dependents[i])
            continue;
        int found = 0;
        for (size_t k = 0; k < s->ncap_deps && !found; k++)
            found = s->cap_deps[k] == g->nodes[i];
        ok = found;
    }
    free(has_dependents);
    return ok;
}

CUresult cb_capture_end(cb_stream *s, cb_graph **out)
{
    cb_runtime *rt = cb_runtime_of(s->ctx);
    *out = NULL;
    cb_mutex_lock(&rt->lock);
    cb_capture *cap = s->capture;
    if (!cap) {
        cb_mutex_unlock(&rt->lock);
        return CUDA_ERROR_ILLEGAL_STATE;
    }
    if (cap->origin != s) {
        cap->invalidated = 1;
        cb_mutex_unlock(&rt->lock);
        return CUDA_ERROR_STREAM_CAPTURE_UNMATCHED;
    }
    if (cap->mode == CU_STREAM_CAPTURE_MODE_THREAD_LOCAL && cap->thread_count != &thread_captures) {
        cb_mutex_unlock(&rt->lock);
        return CUDA_ERROR_STREAM_CAPTURE_WRONG_THREAD;
    }
    CUresult r = CUDA_SUCCESS;
    if (cap->invalidated)
        r = CUDA_ERROR_STREAM_CAPTURE_INVALIDATED;
    else if (!capture_joined(cap))
        r = CUDA_ERROR_STREAM_CAPTURE_UNJOINED;
    cb_graph *g = capture_close(cap);
    cb_mutex_unlock(&rt->lock);
    if (r != CUDA_SUCCESS) {
        cb_graph_destroy(g);
        return r;
    }
    *out = g;
    return CUDA_SUCCESS;
}

void cb_capture_invalidate(cb_stream *s)
{
    if (s->capture)
        s->capture->invalidated = 1;
}

void cb_capture_leave(cb_stream *s)
{
    cb_capture *cap = s->capture;
    if (!cap)
        return;
    cap->invalidated = 1;
    if (cap->origin == s) {
        cb_graph_destroy(capture_close(cap));
        return;
    }
    s->capture = NULL;
    s->ncap_deps = 0;
}

void cb_capture_fini_all(cb_runtime *rt)
{
    while (rt->captures)
        cb_graph_destroy(capture_close(rt->captures));
}

/* Adds a node of type to s's capture after its dependency set, and makes
 * it the new set. */
static CUresult capture_node(cb_stream *s, CUgraphNodeType type, cb_graph_node **out)
{
    CUresult r = cb_graph_add_node(s->capture->graph, type, s->cap_deps, s->ncap_deps, out);
    if (r != CUDA_SUCCESS)
        return r;
    s->ncap_deps = 0;
    if (add_dep_unique(s, *out) != 0)
        return CUDA_ERROR_OUT_OF_MEMORY;
    return CUDA_SUCCESS;
}

CUresult cb_capture_add_op(cb_stream *s, cb_op *op)
{
    cb_capture *cap = s->capture;
    if (cap->invalidated)
        return CUDA_ERROR_STREAM_CAPTURE_INVALIDATED;
    cb_graph_node *n;
    CUresult r;
    switch (op->kind) {
    case CB_OP_LAUNCH:
        if ((r = capture_node(s, CU_GRAPH_NODE_TYPE_KERNEL, &n)) != CUDA_SUCCESS)
            return r;
        r = cb_graph_kernel_adopt(n, op->u.launch.f, &op->u.launch.cfg);
        op->u.launch.cfg.params = NULL;
        break;
    case CB_OP_COPY:
        if ((r = capture_node(s, CU_GRAPH_NODE_TYPE_MEMCPY, &n)) != CUDA_SUCCESS)
            return r;
        n->u.memcpy.copy = op->u.copy.copy;
        n->u.memcpy.ctx = s->ctx;
        break;
    case CB_OP_FILL:
        if ((r = capture_node(s, CU_GRAPH_NODE_TYPE_MEMSET, &n)) != CUDA_SUCCESS)
            return r;
        n->u.memset.fill = op->u.fill;
        n->u.memset.ctx = s->ctx;
        break;
    case CB_OP_HOST_FN:
        if ((r = capture_node(s, CU_GRAPH_NODE_TYPE_HOST, &n)) != CUDA_SUCCESS)
            return r;
        n->u.host.fn = op->u.host.fn;
        n->u.host.userData = op->u.host.data;
        break;
    case CB_OP_LIBRARY:
        if ((r = capture_node(s, CU_GRAPH_NODE_TYPE_HOST, &n)) != CUDA_SUCCESS)
            return r;
        n->u.host.fn = cb_lib_op_host_fn;   /* the node owns the reference */
        n->u.host.userData = op->u.lib;
        op->u.lib = NULL;
        break;
    case CB_OP_MARKER: r = CUDA_SUCCESS; break;
    default:
        cb_log(CB_LOG_WARN, "stream capture: this operation (%d) cannot be captured", (int)op->kind);
        cap->invalidated = 1;
        return CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED;
    }
    if (r == CUDA_SUCCESS)
        cb_op_free(op);
    return r;
}

CUresult cb_capture_add_mem_node(cb_stream *s, CUgraphNodeType type, struct cb_graph_mem *mem)
{
    cb_runtime *rt = cb_runtime_of(s->ctx);
    cb_mutex_lock(&rt->lock);
    CUresult r = CUDA_SUCCESS;
    cb_graph_node *n = NULL;
    if (!s->capture)
        r = CUDA_ERROR_ILLEGAL_STATE;
    else if (s->capture->invalidated)
        r = CUDA_ERROR_STREAM_CAPTURE_INVALIDATED;
    else
        r = capture_node(s, type, &n);
    if (n)
        n->u.mem = mem;
    cb_mutex_unlock(&rt->lock);
    return r;
}

CUresult cb_capture_record_event(cb_stream *s, cb_event *ev)
{
    cb_runtime *rt = cb_runtime_of(s->ctx);
    cb_mutex_lock(&rt->lock);
    CUresult r = CUDA_SUCCESS;
    if (!s->capture) {
        r = CUDA_ERROR_ILLEGAL_STATE;
    } else if (s->capture->invalidated) {
        r = CUDA_ERROR_STREAM_CAPTURE_INVALIDATED;
    } else {
        size_t cap = ev->ncap_deps;
        if (set_deps(&ev->cap_deps, &ev->ncap_deps, &cap, s->cap_deps, s->ncap_deps) != 0)
            r = CUDA_ERROR_OUT_OF_MEMORY;
        else
            ev->capture = s->capture;
    }
    cb_mutex_unlock(&rt->lock);
    return r;
}

CUresult cb_capture_wait_event(cb_stream *s, cb_event *ev)
{
    cb_runtime *rt = cb_runtime_of(s->ctx);
    CUresult r = CUDA_SUCCESS;
    cb_mutex_lock(&rt->lock);
    cb_capture *cap = ev->capture && capture_live(rt, ev->capture) ? ev->capture : NULL;
    if (!cap) {
        /* an event recorded outside any live capture */
        r = s->capture ? CUDA_SUCCESS : CUDA_ERROR_NOT_FOUND;
    } else if (cap->invalidated) {
        r = CUDA_ERROR_STREAM_CAPTURE_INVALIDATED;
    } else if (!s->capture) {
        /* s joins the capture (fork) */
        if (set_deps(&s->cap_deps, &s->ncap_deps, &s->capcap_deps, ev->cap_deps, ev->ncap_deps) != 0) {
            r = CUDA_ERROR_OUT_OF_MEMORY;
        } else {
            s->capture = cap;
        }
    } else if (s->capture != cap) {
        s->capture->invalidated = 1;
        r = CUDA_ERROR_STREAM_CAPTURE_ISOLATION;
    } else {
        for (size_t i = 0; i < ev->ncap_deps && r == CUDA_SUCCESS; i++)
            if (add_dep_unique(s, ev->cap_deps[i]) != 0)
                r = CUDA_ERROR_OUT_OF_MEMORY;
    }
    cb_mutex_unlock(&rt->lock);
    return r;
}

CUresult cb_capture_check_unsafe(void)
{
    if (thread_mode == CU_STREAM_CAPTURE_MODE_RELAXED)
        return CUDA_SUCCESS;
    if (thread_captures > 0)
        return CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED;
    if (thread_mode == CU_STREAM_CAPTURE_MODE_GLOBAL && atomic_load(&global_captures) > 0)
        return CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED;
    return CUDA_SUCCESS;
}

CUresult cb_capture_exchange_mode(CUstreamCaptureMode *mode)
{
    if (!mode)
        return CUDA_ERROR_INVALID_VALUE;
    CUstreamCaptureMode m = *mode;
    if (m != CU_STREAM_CAPTURE_MODE_GLOBAL && m != CU_STREAM_CAPTURE_MODE_THREAD_LOCAL &&
        m != CU_STREAM_CAPTURE_MODE_RELAXED)
        return CUDA_ERROR_INVALID_VALUE;
    *mode = thread_mode;
    thread_mode = m;
    return CUDA_SUCCESS;
}

CUresult cb_capture_update_deps(cb_stream *s, cb_graph_node *const *nodes, size_t n, int replace)
{
    cb_runtime *rt = cb_runtime_of(s->ctx);
    CUresult r = CUDA_SUCCESS;
    cb_mutex_lock(&rt->lock);
    if (!s->capture)
        r = CUDA_ERROR_ILLEGAL_STATE;
    for (size_t i = 0; i < n && r == CUDA_SUCCESS; i++)
        if (!cb_graph_node_valid(nodes[i]) || nodes[i]->graph != s->capture->graph)
            r = CUDA_ERROR_INVALID_VALUE;
    if (r == CUDA_SUCCESS && replace)
        s->ncap_deps = 0;
    for (size_t i = 0; i < n && r == CUDA_SUCCESS; i++)
        if (add_dep_unique(s, nodes[i]) != 0)
            r = CUDA_ERROR_OUT_OF_MEMORY;
    cb_mutex_unlock(&rt->lock);
    return r;
}
