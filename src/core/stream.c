/* stream.c: the per-context runtime, streams, their workers and fences
 * (see stream.h).
 *
 * Process-wide state: `runtime_next_id` and `stream_next_id` (atomic
 * counters for unique ids) and the thread-local per-thread-stream cache
 * `pts_cache`.
 *
 * Locks: a runtime's lock is taken before any of its streams' locks; fence
 * locks are leaves. Workers take only their stream's lock and fence locks.
 */
#include "core/stream.h"

#include <stdlib.h>
#include <string.h>

#include "core/graph.h"
#include "core/handles.h"
#include "platform/vm.h"

static _Atomic unsigned long long runtime_next_id = 1;
static _Atomic unsigned long long stream_next_id = 1;

/* A pause for spin loops. */
static inline void spin_pause(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield");
#endif
}

/* ---- fences ------------------------------------------------------------ */

cb_fence *cb_fence_new(void)
{
    cb_fence *f = calloc(1, sizeof *f);
    if (!f)
        return NULL;
    atomic_init(&f->refs, 1);
    cb_mutex_init(&f->lock);
    cb_cond_init(&f->cond);
    return f;
}

cb_fence *cb_fence_ref(cb_fence *f)
{
    if (f)
        atomic_fetch_add(&f->refs, 1);
    return f;
}

void cb_fence_unref(cb_fence *f)
{
    if (!f || atomic_fetch_sub(&f->refs, 1) != 1)
        return;
    cb_cond_destroy(&f->cond);
    cb_mutex_destroy(&f->lock);
    free(f);
}

void cb_fence_signal(cb_fence *f)
{
    cb_mutex_lock(&f->lock);
    f->time_ns = cb_vm_clock_ns();
    __atomic_store_n(&f->done, 1, __ATOMIC_RELEASE);   /* read unlocked by cb_fence_wait's spin */
    cb_cond_broadcast(&f->cond);
    cb_mutex_unlock(&f->lock);
}

void cb_fence_wait(cb_fence *f)
{
    if (!f)
        return;
    /* Spin briefly before sleeping: short operations finish sooner than a
     * futex wake-up round trip (bench/NOTES.md). */
    for (int i = 0; i < 2000 && !__atomic_load_n(&f->done, __ATOMIC_ACQUIRE); i++)
        spin_pause();
    cb_mutex_lock(&f->lock);
    while (!f->done)
        cb_cond_wait(&f->cond, &f->lock);
    cb_mutex_unlock(&f->lock);
}

int cb_fence_done(cb_fence *f)
{
    if (!f)
        return 1;
    cb_mutex_lock(&f->lock);
    int done = f->done;
    cb_mutex_unlock(&f->lock);
    return done;
}

/* ---- operations -------------------------------------------------------- */

cb_op *cb_op_new(cb_op_kind kind)
{
    cb_op *op = calloc(1, sizeof *op);
    if (op)
        op->kind = kind;
    return op;
}

int cb_op_add_wait(cb_op *op, cb_fence *f)
{
    if (!f || cb_fence_done(f))
        return 0;
    if (op->nwaits == op->capwaits) {
        size_t cap = op->capwaits ? op->capwaits * 2 : 4;
        cb_fence **grown = realloc(op->waits, cap * sizeof *grown);
        if (!grown)
            return -1;
        op->waits = grown;
        op->capwaits = cap;
    }
    op->waits[op->nwaits++] = cb_fence_ref(f);
    return 0;
}

void cb_op_free(cb_op *op)
{
    if (!op)
        return;
    for (size_t i = 0; i < op->nwaits; i++)
        cb_fence_unref(op->waits[i]);
    free(op->waits);
    cb_fence_unref(op->fence);
    switch (op->kind) {
    case CB_OP_LAUNCH: free((void *)op->u.launch.cfg.params); break;
    case CB_OP_COPY: free(op->u.copy.staging); break;
    case CB_OP_GRAPH: cb_graph_launch_free(op->u.graph); break;
    case CB_OP_LIBRARY: cb_lib_op_unref(op->u.lib); break;
    default: break;
    }
    free(op);
}

void cb_lib_op_ref(cb_lib_op *op) { atomic_fetch_add(&op->refs, 1); }

void cb_lib_op_unref(cb_lib_op *op)
{
    if (op && atomic_fetch_sub(&op->refs, 1) == 1)
        op->release(op);
}

void cb_lib_op_host_fn(void *p)
{
    cb_lib_op *op = p;
    if (cb_ctx_sticky(op->ctx) != CUDA_SUCCESS)
        return;
    CUresult r = op->run(op);
    if (r != CUDA_SUCCESS) {
        cb_log(CB_LOG_ERROR, "library call %s failed (error %d)", op->name ? op->name : "?", (int)r);
        cb_ctx_set_sticky(op->ctx, r);
    }
}

/* Runs one op on the worker of s. */
static void op_run(cb_stream *s, cb_op *op)
{
    cb_context *ctx = s->ctx;
    cb_backend *be = ctx->device->backend;
    CUresult sticky = cb_ctx_sticky(ctx);
    CUresult r = CUDA_SUCCESS;
    switch (op->kind) {
    case CB_OP_LAUNCH: {
        if (sticky != CUDA_SUCCESS)
            break;
        cb_launch_error err;
        memset(&err, 0, sizeof err);
        cb_launch_config cfg = op->u.launch.cfg;
        cfg.stream_id = s->id;
        r = cb_function_execute(op->u.launch.f, &cfg, &err);
        if (r != CUDA_SUCCESS)   /* cb_function_execute logged it */
            cb_ctx_set_sticky(ctx, r);
        break;
    }
    case CB_OP_COPY:
        if (sticky == CUDA_SUCCESS)
            r = cb_copy_run(be, &op->u.copy.copy);
        break;
    case CB_OP_FILL:
        if (sticky == CUDA_SUCCESS)
            r = cb_fill_run(be, &op->u.fill);
        break;
    case CB_OP_HOST_FN:
        if (sticky == CUDA_SUCCESS)
            op->u.host.fn(op->u.host.data);
        break;
    case CB_OP_CALLBACK:
        op->u.callback.fn(op->u.callback.handle, sticky, op->u.callback.data);
        break;
    case CB_OP_FREE: cb_mem_release(&op->u.free); break;
    case CB_OP_GRAPH:
        if (sticky == CUDA_SUCCESS)
            cb_graph_launch_run(op->u.graph, s);
        break;
    case CB_OP_LIBRARY: cb_lib_op_host_fn(op->u.lib); break;
    case CB_OP_MARKER: break;
    }
    if (r != CUDA_SUCCESS && op->kind != CB_OP_LAUNCH)
        cb_log(CB_LOG_ERROR, "stream operation %d failed with error %d", (int)op->kind, (int)r);
}

static void *stream_worker(void *arg)
{
    cb_stream *s = arg;
    cb_mutex_lock(&s->lock);
    for (;;) {
        while (!s->head && !s->quit)
            cb_cond_wait(&s->cond, &s->lock);
        cb_op *op = s->head;
        if (!op)
            break;
        s->head = op->next;
        if (!s->head)
            s->tail = NULL;
        cb_mutex_unlock(&s->lock);
        for (size_t i = 0; i < op->nwaits; i++)
            cb_fence_wait(op->waits[i]);
        op_run(s, op);
        /* a graph launch lets go of its instantiation (and so of the graph
         * allocations its copy of the graph names) before it counts as done:
         * a cuMemFree after a synchronize must find them released */
        if (op->kind == CB_OP_GRAPH) {
            cb_graph_launch_free(op->u.graph);
            op->u.graph = NULL;
        }
        cb_fence_signal(op->fence);
        cb_op_free(op);
        cb_mutex_lock(&s->lock);
    }
    cb_mutex_unlock(&s->lock);
    return NULL;
}

/* ---- streams ----------------------------------------------------------- */

cb_runtime *cb_runtime_of(cb_context *ctx) { return ctx ? (cb_runtime *)ctx->runtime : NULL; }

static cb_stream *stream_new(cb_context *ctx, unsigned flags, int priority)
{
    cb_stream *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->magic = CB_MAGIC_STREAM;
    s->ctx = ctx;
    s->flags = flags;
    s->priority = priority;
    s->id = atomic_fetch_add(&stream_next_id, 1);
    cb_mutex_init(&s->lock);
    cb_cond_init(&s->cond);
    return s;
}

/* Stops the worker after its queue drains and frees s (not in any list). */
static void stream_free(cb_stream *s)
{
    cb_mutex_lock(&s->lock);
    s->quit = 1;
    cb_cond_broadcast(&s->cond);
    int has_worker = s->has_worker;
    cb_mutex_unlock(&s->lock);
    if (has_worker)
        cb_thread_join(s->worker);
    cb_fence_unref(s->last);
    free(s->cap_deps);
    s->magic = CB_MAGIC_DEAD;
    cb_cond_destroy(&s->cond);
    cb_mutex_destroy(&s->lock);
    free(s);
}

CUresult cb_ctx_runtime_init(cb_context *ctx)
{
    cb_runtime *rt = calloc(1, sizeof *rt);
    if (!rt)
        return CUDA_ERROR_OUT_OF_MEMORY;
    cb_mutex_init(&rt->lock);
    rt->id = atomic_fetch_add(&runtime_next_id, 1);
    rt->legacy = stream_new(ctx, CU_STREAM_DEFAULT, 0);
    if (!rt->legacy) {
        free(rt);
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    rt->legacy->is_legacy = 1;
    rt->streams = rt->legacy;
    ctx->runtime = rt;
    ctx->legacy_stream = rt->legacy;
    return CUDA_SUCCESS;
}

void cb_ctx_runtime_fini(cb_context *ctx)
{
    cb_runtime *rt = cb_runtime_of(ctx);
    if (!rt)
        return;
    cb_mutex_lock(&rt->lock);
    cb_capture_fini_all(rt);
    cb_stream *list = rt->streams;
    rt->streams = NULL;
    cb_mutex_unlock(&rt->lock);
    while (list) {
        cb_stream *next = list->next;
        if (!list->is_legacy && !list->is_per_thread)
            cb_handle_remove(list);
        stream_free(list);
        list = next;
    }
    cb_mem_free_context(ctx);
    ctx->runtime = NULL;
    ctx->legacy_stream = NULL;
    cb_mutex_destroy(&rt->lock);
    free(rt);
}

int cb_stream_valid(const void *h) { return cb_handle_live(h, CB_MAGIC_STREAM); }

/* The calling thread's per-thread default streams, by runtime id. */
#define PTS_CACHE 8
static _Thread_local struct { unsigned long long rt_id; cb_stream *s; } pts_cache[PTS_CACHE];

static CUresult per_thread_stream(cb_context *ctx, cb_stream **out)
{
    cb_runtime *rt = cb_runtime_of(ctx);
    for (int i = 0; i < PTS_CACHE; i++) {
        if (pts_cache[i].rt_id == rt->id) {
            *out = pts_cache[i].s;
            return CUDA_SUCCESS;
        }
    }
    cb_stream *s = stream_new(ctx, CU_STREAM_DEFAULT, 0);
    if (!s)
        return CUDA_ERROR_OUT_OF_MEMORY;
    s->is_per_thread = 1;
    cb_mutex_lock(&rt->lock);
    s->next = rt->streams;
    rt->streams = s;
    cb_mutex_unlock(&rt->lock);
    int slot = 0;
    for (int i = 0; i < PTS_CACHE; i++) {
        if (pts_cache[i].rt_id == 0) {
            slot = i;
            break;
        }
        slot = (int)(s->id % PTS_CACHE); /* full: evict one (the stream lives on in the list) */
    }
    pts_cache[slot].rt_id = rt->id;
    pts_cache[slot].s = s;
    *out = s;
    return CUDA_SUCCESS;
}

CUresult cb_stream_resolve_ex(CUstream h, cb_context *ctx, int per_thread_default, cb_stream **out)
{
    if (h && h != CU_STREAM_LEGACY && h != CU_STREAM_PER_THREAD) {
        if (!cb_stream_valid(h))
            return CUDA_ERROR_INVALID_HANDLE;
        *out = (cb_stream *)h;
        return CUDA_SUCCESS;
    }
    if (!ctx) {
        CUresult r = cb_ctx_require(&ctx);
        if (r != CUDA_SUCCESS)
            return r;
    }
    if (!cb_runtime_of(ctx))
        return CUDA_ERROR_INVALID_CONTEXT;
    if (h == CU_STREAM_PER_THREAD || (!h && per_thread_default))
        return per_thread_stream(ctx, out);
    *out = cb_runtime_of(ctx)->legacy;
    return CUDA_SUCCESS;
}

CUresult cb_stream_resolve(CUstream h, cb_context *ctx, struct cb_stream **out)
{
    return cb_stream_resolve_ex(h, ctx, 0, out);
}

CUresult cb_stream_create(cb_context *ctx, unsigned flags, int priority, cb_stream **out)
{
    if (flags & ~(unsigned)CU_STREAM_NON_BLOCKING)
        return CUDA_ERROR_INVALID_VALUE;
    cb_runtime *rt = cb_runtime_of(ctx);
    if (!rt)
        return CUDA_ERROR_INVALID_CONTEXT;
    cb_stream *s = stream_new(ctx, flags, priority);
    if (!s)
        return CUDA_ERROR_OUT_OF_MEMORY;
    cb_mutex_lock(&rt->lock);
    s->next = rt->streams;
    rt->streams = s;
    cb_mutex_unlock(&rt->lock);
    cb_handle_add(s);
    *out = s;
    return CUDA_SUCCESS;
}

CUresult cb_stream_destroy(cb_stream *s)
{
    if (!cb_stream_valid(s))
        return CUDA_ERROR_INVALID_HANDLE;
    cb_runtime *rt = cb_runtime_of(s->ctx);
    cb_handle_remove(s);
    cb_mutex_lock(&rt->lock);
    for (cb_stream **pp = &rt->streams; *pp; pp = &(*pp)->next) {
        if (*pp == s) {
            *pp = s->next;
            break;
        }
    }
    if (s->capture)
        cb_capture_leave(s);
    cb_mutex_unlock(&rt->lock);
    /* CUDA lets queued work finish after the destroy; the worker drains
     * its queue before stream_free returns. */
    stream_free(s);
    return CUDA_SUCCESS;
}

/* Adds the legacy-stream ordering to op (runtime lock held). */
static CUresult add_implicit_waits(cb_runtime *rt, cb_stream *s, cb_op *op)
{
    if (s->is_legacy) {
        for (cb_stream *t = rt->streams; t; t = t->next) {
            if (t == s || (t->flags & CU_STREAM_NON_BLOCKING))
                continue;
            if (t->capture) {
                cb_capture_invalidate(t);
                return CUDA_ERROR_STREAM_CAPTURE_IMPLICIT;
            }
            cb_mutex_lock(&t->lock);
            int rc = cb_op_add_wait(op, t->last);
            cb_mutex_unlock(&t->lock);
            if (rc != 0)
                return CUDA_ERROR_OUT_OF_MEMORY;
        }
    } else if (!(s->flags & CU_STREAM_NON_BLOCKING)) {
        cb_stream *l = rt->legacy;
        cb_mutex_lock(&l->lock);
        int rc = cb_op_add_wait(op, l->last);
        cb_mutex_unlock(&l->lock);
        if (rc != 0)
            return CUDA_ERROR_OUT_OF_MEMORY;
    }
    return CUDA_SUCCESS;
}

static CUresult enqueue(cb_stream *s, cb_op *op)
{
    cb_mutex_lock(&s->lock);
    if (!s->has_worker) {
        if (cb_thread_start(&s->worker, stream_worker, s) != 0) {
            cb_mutex_unlock(&s->lock);
            return CUDA_ERROR_OUT_OF_MEMORY;
        }
        s->has_worker = 1;
    }
    /* An empty queue with an unfinished last op: that op may be running on
     * its submitting thread (stream_try_inline); wait for it. */
    if (!s->head && s->last && cb_op_add_wait(op, s->last) != 0) {
        cb_mutex_unlock(&s->lock);
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    op->next = NULL;
    if (s->tail)
        s->tail->next = op;
    else
        s->head = op;
    s->tail = op;
    cb_fence_unref(s->last);
    s->last = cb_fence_ref(op->fence);
    cb_cond_signal(&s->cond);
    cb_mutex_unlock(&s->lock);
    return CUDA_SUCCESS;
}

/* Copies a pageable host source aside so the caller may reuse it at once
 * (what CUDA's staged copies from pageable memory allow). */
static CUresult stage_source(cb_op *op)
{
    cb_copy *c = &op->u.copy.copy;
    size_t bytes = cb_copy_src_extent(c);
    op->u.copy.stage_source = 0;
    if (bytes == 0 || c->src_device)
        return CUDA_SUCCESS;
    void *buf = malloc(bytes);
    if (!buf)
        return CUDA_ERROR_OUT_OF_MEMORY;
    memcpy(buf, (const void *)(uintptr_t)c->src, bytes);
    op->u.copy.staging = buf;
    c->src = (uint64_t)(uintptr_t)buf;
    return CUDA_SUCCESS;
}

CUresult cb_stream_submit(cb_stream *s, cb_op *op, cb_fence **fence_out)
{
    cb_runtime *rt = cb_runtime_of(s->ctx);
    if (fence_out)
        *fence_out = NULL;
    cb_mutex_lock(&rt->lock);
    if (s->capture) {
        CUresult r = cb_capture_add_op(s, op);
        cb_mutex_unlock(&rt->lock);
        return r;
    }
    CUresult r = add_implicit_waits(rt, s, op);
    if (r == CUDA_SUCCESS && op->kind == CB_OP_COPY && op->u.copy.stage_source)
        r = stage_source(op);
    if (r == CUDA_SUCCESS && !op->fence && !(op->fence = cb_fence_new()))
        r = CUDA_ERROR_OUT_OF_MEMORY;
    if (r == CUDA_SUCCESS) {
        cb_fence *f = cb_fence_ref(op->fence);
        r = enqueue(s, op);
        if (r == CUDA_SUCCESS && fence_out)
            *fence_out = f;
        else
            cb_fence_unref(f);
    }
    cb_mutex_unlock(&rt->lock);
    return r;
}

CUresult cb_stream_submit_sync(cb_stream *s, cb_op *op)
{
    cb_runtime *rt = cb_runtime_of(s->ctx);
    cb_mutex_lock(&rt->lock);
    int capturing = s->capture != NULL;
    if (capturing)
        cb_capture_invalidate(s);
    cb_mutex_unlock(&rt->lock);
    if (capturing) {
        cb_op_free(op);
        return CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED;
    }
    cb_fence *f;
    CUresult r = cb_stream_submit(s, op, &f);
    if (r != CUDA_SUCCESS) {
        cb_op_free(op);
        return r;
    }
    cb_fence_wait(f);
    cb_fence_unref(f);
    return cb_ctx_sticky(s->ctx);
}

CUresult cb_stream_synchronize(cb_stream *s)
{
    cb_runtime *rt = cb_runtime_of(s->ctx);
    cb_mutex_lock(&rt->lock);
    int capturing = s->capture != NULL;
    if (capturing)
        cb_capture_invalidate(s);
    cb_mutex_unlock(&rt->lock);
    if (capturing)
        return CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED;
    cb_mutex_lock(&s->lock);
    cb_fence *f = cb_fence_ref(s->last);
    cb_mutex_unlock(&s->lock);
    cb_fence_wait(f);
    cb_fence_unref(f);
    return cb_ctx_sticky(s->ctx);
}

CUresult cb_stream_query(cb_stream *s)
{
    cb_runtime *rt = cb_runtime_of(s->ctx);
    cb_mutex_lock(&rt->lock);
    int capturing = s->capture != NULL;
    if (capturing)
        cb_capture_invalidate(s);
    cb_mutex_unlock(&rt->lock);
    if (capturing)
        return CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED;
    CUresult sticky = cb_ctx_sticky(s->ctx);
    if (sticky != CUDA_SUCCESS)
        return sticky;
    cb_mutex_lock(&s->lock);
    int done = cb_fence_done(s->last);
    cb_mutex_unlock(&s->lock);
    return done ? CUDA_SUCCESS : CUDA_ERROR_NOT_READY;
}

/* CUBRIDGE_INLINE_LAUNCH=0 turns the inline launch path off. */
static int inline_launch_enabled(void)
{
    static _Atomic int cached = -1;
    int v = atomic_load_explicit(&cached, memory_order_relaxed);
    if (v < 0) {
        const char *e = getenv("CUBRIDGE_INLINE_LAUNCH");
        v = !(e && e[0] == '0' && e[1] == 0);
        atomic_store_explicit(&cached, v, memory_order_relaxed);
    }
    return v;
}

/* 1 when every op that add_implicit_waits would make an op on s wait for
 * is done and no stream it would look at is capturing (runtime lock held;
 * unlike add_implicit_waits, changes nothing). */
static int implicit_waits_done(cb_runtime *rt, cb_stream *s)
{
    if (s->flags & CU_STREAM_NON_BLOCKING)
        return 1;
    for (cb_stream *t = s->is_legacy ? rt->streams : rt->legacy; t; t = s->is_legacy ? t->next : NULL) {
        if (t == s || (t->flags & CU_STREAM_NON_BLOCKING))
            continue;
        if (t->capture)
            return 0;
        cb_mutex_lock(&t->lock);
        int done = cb_fence_done(t->last);
        cb_mutex_unlock(&t->lock);
        if (!done)
            return 0;
    }
    return 1;
}

/* A fence for s's next op: s->last itself, reset, when nobody else holds
 * it (references to s->last are only taken under s->lock, which is held),
 * else a new one. NULL when out of memory. */
static cb_fence *stream_fresh_fence(cb_stream *s)
{
    cb_fence *f = s->last;
    if (f && atomic_load(&f->refs) == 1) {
        cb_mutex_lock(&f->lock);   /* the only reference, under s->lock: nobody else can see it */
        int reusable = f->done;
        __atomic_store_n(&f->done, 0, __ATOMIC_RELAXED);
        cb_mutex_unlock(&f->lock);
        if (reusable)
            return cb_fence_ref(f);
    }
    return cb_fence_new();
}

/* The inline fast path: when s is idle (nothing queued, its last op done)
 * and the launch has no implicit waits pending (add_implicit_waits adds
 * none), the calling thread runs the launch itself instead of handing it to
 * the stream's worker, and returns when it is done. While it runs, s->last
 * is its pending fence, so everything submitted meanwhile (to s, to the
 * streams that wait for s, synchronisations, event records) is ordered
 * after it exactly as if it had been queued. Returns 1 when the launch ran
 * (its errors went to the sticky error, as the worker's would), 0 when the
 * caller must queue it, -1 when out of memory. */
static int stream_try_inline(cb_stream *s, cb_op *op)
{
    cb_runtime *rt = cb_runtime_of(s->ctx);
    cb_fence *fence = NULL;
    cb_mutex_lock(&rt->lock);
    int ok = !s->capture && implicit_waits_done(rt, s);
    if (ok) {
        cb_mutex_lock(&s->lock);
        ok = !s->head && cb_fence_done(s->last);
        if (ok && (fence = stream_fresh_fence(s)) != NULL && fence != s->last) {
            cb_fence_unref(s->last);
            s->last = cb_fence_ref(fence);
        }
        cb_mutex_unlock(&s->lock);
    }
    cb_mutex_unlock(&rt->lock);
    if (!ok)
        return 0;
    if (!fence)
        return -1;
    op_run(s, op);
    cb_fence_signal(fence);
    cb_fence_unref(fence);
    return 1;
}

CUresult cb_stream_submit_inline(cb_stream *s, cb_op *op, cb_fence **fence_out)
{
    if (fence_out)
        *fence_out = NULL;
    if (inline_launch_enabled()) {
        int rc = stream_try_inline(s, op);
        if (rc > 0) {
            cb_op_free(op);
            return CUDA_SUCCESS;
        }
        if (rc < 0)
            return CUDA_ERROR_OUT_OF_MEMORY;
    }
    return cb_stream_submit(s, op, fence_out);
}

CUresult cb_stream_launch(struct cb_stream *s, cb_function *f, const cb_launch_config *cfg)
{
    if (inline_launch_enabled()) {
        cb_op op;
        memset(&op, 0, sizeof op);
        op.kind = CB_OP_LAUNCH;
        op.u.launch.f = f;
        op.u.launch.cfg = *cfg;
        int rc = stream_try_inline(s, &op);
        if (rc > 0)
            return CUDA_SUCCESS;
        if (rc < 0)
            return CUDA_ERROR_OUT_OF_MEMORY;
    }
    cb_op *op = cb_op_new(CB_OP_LAUNCH);
    if (!op)
        return CUDA_ERROR_OUT_OF_MEMORY;
    op->u.launch.f = f;
    op->u.launch.cfg = *cfg;
    op->u.launch.cfg.params = NULL;
    if (cfg->param_bytes) {
        unsigned char *p = malloc(cfg->param_bytes);
        if (!p) {
            cb_op_free(op);
            return CUDA_ERROR_OUT_OF_MEMORY;
        }
        memcpy(p, cfg->params, cfg->param_bytes);
        op->u.launch.cfg.params = p;
    }
    CUresult r = cb_stream_submit(s, op, NULL);
    if (r != CUDA_SUCCESS)
        cb_op_free(op);
    return r;
}

CUresult cb_ctx_synchronize(cb_context *ctx)
{
    cb_runtime *rt = cb_runtime_of(ctx);
    if (!rt)
        return cb_ctx_sticky(ctx);
    /* Collect the last fences under the lock, wait outside it. */
    for (;;) {
        cb_fence *pending = NULL;
        cb_mutex_lock(&rt->lock);
        for (cb_stream *s = rt->streams; s && !pending; s = s->next) {
            cb_mutex_lock(&s->lock);
            if (s->last && !cb_fence_done(s->last))
                pending = cb_fence_ref(s->last);
            cb_mutex_unlock(&s->lock);
        }
        cb_mutex_unlock(&rt->lock);
        if (!pending)
            break;
        cb_fence_wait(pending);
        cb_fence_unref(pending);
    }
    return cb_ctx_sticky(ctx);
}
