/* context.c: contexts, the context stack, primary contexts, sticky errors.
 *
 * Process-wide state here: the list of live contexts (so that a destroyed
 * or foreign CUcontext is recognised without being dereferenced) and the
 * primary-context lock. Per-thread state: the context stack.
 *
 * A primary context is one object per device, as in NVIDIA's driver: a
 * reset (cuDevicePrimaryCtxReset, cudaDeviceReset) or the last release
 * empties it -- context-local storage destructors, work, modules, streams,
 * memory -- and leaves it *inactive*: the handle stays valid (cudart makes it
 * current again right after cudaDeviceReset), calls that need the context
 * return CUDA_ERROR_CONTEXT_IS_DESTROYED (the code's documented meaning: "a
 * primary context which has not yet been initialized"), and the next retain
 * makes the same handle active again, with a new id.
 */
#include <stdlib.h>
#include <string.h>

#include "core/context.h"
#include "core/device.h"
#include "core/module.h"
#include "core/stream.h"

typedef struct ctx_local {
    void *key;
    void *value;
    cb_ctx_local_dtor dtor;
    struct ctx_local *next;
} ctx_local;

/* The context as allocated: the shared struct first, then what only this
 * file needs. */
#define CTX_MAX_PEERS 8

typedef struct ctx_impl {
    cb_context pub;
    unsigned long long id;
    ctx_local *locals;          /* guarded by pub.lock */
    cb_context *peers[CTX_MAX_PEERS];   /* contexts whose memory it may access (never dereferenced) */
    int npeers;                 /* guarded by ctx_live_lock */
    struct ctx_impl *next_live;
    _Atomic int inactive;       /* a primary context after a reset or its last release */
} ctx_impl;

static cb_mutex ctx_live_lock = CB_MUTEX_INIT;      /* guards ctx_live */
static ctx_impl *ctx_live;
static cb_mutex ctx_primary_lock = CB_MUTEX_INIT;   /* guards every device's primary fields */
static _Atomic unsigned long long ctx_next_id = 1;

static _Thread_local cb_context *ctx_stack[CB_CTX_STACK_MAX];
static _Thread_local int ctx_depth;

/* ---- the live list ---------------------------------------------------- */

int cb_ctx_valid(const cb_context *ctx)
{
    int found = 0;
    if (!ctx)
        return 0;
    cb_mutex_lock(&ctx_live_lock);
    for (ctx_impl *c = ctx_live; c; c = c->next_live) {
        if (&c->pub == ctx) {
            found = c->pub.magic == CB_MAGIC_CONTEXT;
            break;
        }
    }
    cb_mutex_unlock(&ctx_live_lock);
    return found;
}

/* Removes peer from c's peers; 1 if it was there. ctx_live_lock held. */
static int ctx_forget_peer(ctx_impl *c, const cb_context *peer)
{
    for (int i = 0; i < c->npeers; i++) {
        if (c->peers[i] == peer) {
            c->peers[i] = c->peers[--c->npeers];
            return 1;
        }
    }
    return 0;
}

static void ctx_unlink(ctx_impl *c)
{
    cb_mutex_lock(&ctx_live_lock);
    for (ctx_impl **p = &ctx_live; *p; p = &(*p)->next_live) {
        if (*p == c) {
            *p = c->next_live;
            break;
        }
    }
    for (ctx_impl *o = ctx_live; o; o = o->next_live)
        ctx_forget_peer(o, &c->pub);   /* access to a destroyed context ends */
    cb_mutex_unlock(&ctx_live_lock);
}

/* ---- peer access ------------------------------------------------------ */

CUresult cb_ctx_enable_peer(cb_context *ctx, cb_context *peer)
{
    if (!cb_ctx_valid(peer))
        return CUDA_ERROR_INVALID_CONTEXT;
    if (peer->device == ctx->device)
        return CUDA_ERROR_INVALID_DEVICE;
    if (!cb_device_can_access_peer(ctx->device, peer->device))
        return CUDA_ERROR_PEER_ACCESS_UNSUPPORTED;
    ctx_impl *c = (ctx_impl *)ctx;
    CUresult r = CUDA_SUCCESS;
    cb_mutex_lock(&ctx_live_lock);
    for (int i = 0; i < c->npeers && r == CUDA_SUCCESS; i++)
        if (c->peers[i] == peer)
            r = CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED;
    if (r == CUDA_SUCCESS && c->npeers == CTX_MAX_PEERS)
        r = CUDA_ERROR_TOO_MANY_PEERS;
    if (r == CUDA_SUCCESS)
        c->peers[c->npeers++] = peer;
    cb_mutex_unlock(&ctx_live_lock);
    return r;
}

CUresult cb_ctx_disable_peer(cb_context *ctx, cb_context *peer)
{
    if (!cb_ctx_valid(peer))
        return CUDA_ERROR_INVALID_CONTEXT;
    cb_mutex_lock(&ctx_live_lock);
    int was = ctx_forget_peer((ctx_impl *)ctx, peer);
    cb_mutex_unlock(&ctx_live_lock);
    return was ? CUDA_SUCCESS : CUDA_ERROR_PEER_ACCESS_NOT_ENABLED;
}

/* ---- create / destroy ------------------------------------------------- */

/* A fresh context's settings. */
static void ctx_defaults(cb_context *ctx, unsigned flags)
{
    ctx->flags = flags;
    atomic_store(&ctx->sticky_error, CUDA_SUCCESS);
    memset(ctx->limits, 0, sizeof ctx->limits);
    ctx->limits[CU_LIMIT_STACK_SIZE] = 1024;
    ctx->limits[CU_LIMIT_PRINTF_FIFO_SIZE] = 1 << 20;
    ctx->limits[CU_LIMIT_MALLOC_HEAP_SIZE] = 8 << 20;
    ctx->limits[CU_LIMIT_DEV_RUNTIME_PENDING_LAUNCH_COUNT] = 2048;
    ctx->limits[CU_LIMIT_MAX_L2_FETCH_GRANULARITY] = 32;
    ctx->cache_config = CU_FUNC_CACHE_PREFER_NONE;
    ctx->shared_config = CU_SHARED_MEM_CONFIG_FOUR_BYTE_BANK_SIZE;
}

CUresult cb_ctx_create(cb_device *d, unsigned flags, int is_primary, cb_context **out)
{
    ctx_impl *c = calloc(1, sizeof *c);
    if (!c)
        return CUDA_ERROR_OUT_OF_MEMORY;
    cb_context *ctx = &c->pub;
    ctx->magic = CB_MAGIC_CONTEXT;
    ctx->device = d;
    ctx->is_primary = is_primary;
    atomic_init(&ctx->sticky_error, CUDA_SUCCESS);
    cb_mutex_init(&ctx->lock);
    ctx_defaults(ctx, flags);
    c->id = atomic_fetch_add(&ctx_next_id, 1);
    CUresult r = cb_ctx_runtime_init(ctx);
    if (r != CUDA_SUCCESS) {
        cb_mutex_destroy(&ctx->lock);
        free(c);
        return r;
    }
    cb_mutex_lock(&ctx_live_lock);
    c->next_live = ctx_live;
    ctx_live = c;
    cb_mutex_unlock(&ctx_live_lock);
    *out = ctx;
    return CUDA_SUCCESS;
}

static void ctx_run_local_dtors(ctx_impl *c)
{
    cb_mutex_lock(&c->pub.lock);
    ctx_local *l = c->locals;
    c->locals = NULL;
    cb_mutex_unlock(&c->pub.lock);
    while (l) {
        ctx_local *next = l->next;
        if (l->dtor)
            l->dtor(&c->pub, l->key, l->value);
        free(l);
        l = next;
    }
}

void cb_ctx_destroy(cb_context *ctx)
{
    ctx_impl *c = (ctx_impl *)ctx;
    ctx_run_local_dtors(c);
    cb_ctx_synchronize(ctx);
    cb_module_unload_context(ctx);
    cb_ctx_runtime_fini(ctx);
    ctx_unlink(c);
    /* Forget it on this thread's stack; other threads find it dead. */
    for (int i = 0; i < ctx_depth; i++)
        if (ctx_stack[i] == ctx)
            ctx_stack[i] = NULL;
    ctx->magic = CB_MAGIC_DEAD;
    cb_mutex_destroy(&ctx->lock);
    free(c);
}

unsigned long long cb_ctx_id(const cb_context *ctx)
{
    return ((const ctx_impl *)ctx)->id;
}

/* ---- the per-thread stack --------------------------------------------- */

cb_context *cb_ctx_current(void)
{
    return ctx_depth > 0 ? ctx_stack[ctx_depth - 1] : NULL;
}

void cb_ctx_set_current(cb_context *ctx)
{
    if (ctx_depth == 0) {
        if (ctx)
            ctx_stack[ctx_depth++] = ctx;
    } else if (ctx) {
        ctx_stack[ctx_depth - 1] = ctx;
    } else {
        ctx_depth--;
    }
}

CUresult cb_ctx_push(cb_context *ctx)
{
    if (ctx_depth >= CB_CTX_STACK_MAX)
        return CUDA_ERROR_OUT_OF_MEMORY;
    ctx_stack[ctx_depth++] = ctx;
    return CUDA_SUCCESS;
}

CUresult cb_ctx_pop(cb_context **out)
{
    if (ctx_depth == 0)
        return CUDA_ERROR_INVALID_CONTEXT;
    cb_context *ctx = ctx_stack[--ctx_depth];
    if (out)
        *out = ctx;
    return CUDA_SUCCESS;
}

CUresult cb_ctx_require(cb_context **out)
{
    if (!cb_initialized())
        return CUDA_ERROR_NOT_INITIALIZED;
    cb_context *ctx = cb_ctx_current();
    if (!ctx && ctx_depth == 0) {
        /* cudart's behaviour: the device 0 primary context, if retained. */
        cb_device *d = cb_device_get(0);
        cb_mutex_lock(&ctx_primary_lock);
        if (d && d->primary && d->primary_refcount > 0)
            ctx = d->primary;
        cb_mutex_unlock(&ctx_primary_lock);
        if (ctx)
            cb_ctx_set_current(ctx);
    }
    if (!ctx || !cb_ctx_valid(ctx))
        return CUDA_ERROR_INVALID_CONTEXT;
    if (atomic_load(&((ctx_impl *)ctx)->inactive))
        return CUDA_ERROR_CONTEXT_IS_DESTROYED;
    *out = ctx;
    return CUDA_SUCCESS;
}

CUresult cb_ctx_require_usable(cb_context **out)
{
    cb_context *ctx;
    CUresult r = cb_ctx_require(&ctx);
    if (r != CUDA_SUCCESS)
        return r;
    r = cb_ctx_sticky(ctx);
    if (r != CUDA_SUCCESS)
        return r;
    *out = ctx;
    return CUDA_SUCCESS;
}

/* ---- sticky errors ---------------------------------------------------- */

void cb_ctx_set_sticky(cb_context *ctx, CUresult err)
{
    int expected = CUDA_SUCCESS;
    if (err != CUDA_SUCCESS)
        atomic_compare_exchange_strong(&ctx->sticky_error, &expected, (int)err);
}

CUresult cb_ctx_sticky(const cb_context *ctx)
{
    return (CUresult)atomic_load(&((cb_context *)ctx)->sticky_error);
}

/* ---- primary contexts ------------------------------------------------- */

CUresult cb_primary_retain(cb_device *d, cb_context **out)
{
    CUresult r = CUDA_SUCCESS;
    cb_mutex_lock(&ctx_primary_lock);
    ctx_impl *c = (ctx_impl *)d->primary;
    if (!c) {
        r = cb_ctx_create(d, d->primary_flags, 1, &d->primary);
    } else if (atomic_load(&c->inactive)) {
        ctx_defaults(&c->pub, d->primary_flags);
        r = cb_ctx_runtime_init(&c->pub);
        if (r == CUDA_SUCCESS) {
            c->id = atomic_fetch_add(&ctx_next_id, 1);
            atomic_store(&c->inactive, 0);
            cb_module_resume_context(&c->pub);
        }
    }
    if (r == CUDA_SUCCESS) {
        d->primary_refcount++;
        *out = d->primary;
    }
    cb_mutex_unlock(&ctx_primary_lock);
    return r;
}

/* Empties d's primary context as cb_ctx_destroy would, and leaves the
 * handle valid and inactive; called with ctx_primary_lock held. */
static void primary_destroy_locked(cb_device *d)
{
    ctx_impl *c = (ctx_impl *)d->primary;
    d->primary_refcount = 0;
    if (!c || atomic_load(&c->inactive))
        return;
    ctx_run_local_dtors(c);
    cb_ctx_synchronize(&c->pub);
    cb_module_suspend_context(&c->pub);
    cb_ctx_runtime_fini(&c->pub);
    cb_mutex_lock(&ctx_live_lock);
    c->npeers = 0;
    for (ctx_impl *o = ctx_live; o; o = o->next_live)
        ctx_forget_peer(o, &c->pub);
    cb_mutex_unlock(&ctx_live_lock);
    atomic_store(&c->inactive, 1);
}

CUresult cb_primary_release(cb_device *d)
{
    CUresult r = CUDA_SUCCESS;
    cb_mutex_lock(&ctx_primary_lock);
    if (!d->primary || d->primary_refcount <= 0)
        r = CUDA_ERROR_INVALID_CONTEXT;
    else if (--d->primary_refcount == 0)
        primary_destroy_locked(d);
    cb_mutex_unlock(&ctx_primary_lock);
    return r;
}

CUresult cb_primary_reset(cb_device *d)
{
    cb_mutex_lock(&ctx_primary_lock);
    primary_destroy_locked(d);
    d->primary_flags = 0;
    cb_mutex_unlock(&ctx_primary_lock);
    return CUDA_SUCCESS;
}

void cb_primary_state(cb_device *d, unsigned *flags, int *active)
{
    cb_mutex_lock(&ctx_primary_lock);
    if (flags)
        *flags = d->primary_flags;
    if (active)
        *active = d->primary != NULL && d->primary_refcount > 0;
    cb_mutex_unlock(&ctx_primary_lock);
}

CUresult cb_primary_set_flags(cb_device *d, unsigned flags)
{
    cb_mutex_lock(&ctx_primary_lock);
    d->primary_flags = flags;
    if (d->primary)
        d->primary->flags = flags;
    cb_mutex_unlock(&ctx_primary_lock);
    return CUDA_SUCCESS;
}

/* ---- context-local storage -------------------------------------------- */

static CUresult ctx_local_target(cb_context **ctx)
{
    if (*ctx) {
        if (!cb_ctx_valid(*ctx))
            return CUDA_ERROR_INVALID_CONTEXT;
        return atomic_load(&((ctx_impl *)*ctx)->inactive) ? CUDA_ERROR_CONTEXT_IS_DESTROYED : CUDA_SUCCESS;
    }
    return cb_ctx_require(ctx);
}

CUresult cb_ctx_local_put(cb_context *ctx, void *key, void *value, cb_ctx_local_dtor dtor)
{
    CUresult r = ctx_local_target(&ctx);
    if (r != CUDA_SUCCESS)
        return r;
    ctx_impl *c = (ctx_impl *)ctx;
    cb_mutex_lock(&ctx->lock);
    ctx_local *l;
    for (l = c->locals; l; l = l->next)
        if (l->key == key)
            break;
    if (!l) {
        l = calloc(1, sizeof *l);
        if (!l) {
            cb_mutex_unlock(&ctx->lock);
            return CUDA_ERROR_OUT_OF_MEMORY;
        }
        l->key = key;
        l->next = c->locals;
        c->locals = l;
    }
    l->value = value;
    l->dtor = dtor;
    cb_mutex_unlock(&ctx->lock);
    return CUDA_SUCCESS;
}

CUresult cb_ctx_local_get(cb_context *ctx, void *key, void **value)
{
    CUresult r = ctx_local_target(&ctx);
    if (r != CUDA_SUCCESS)
        return r;
    ctx_impl *c = (ctx_impl *)ctx;
    r = CUDA_ERROR_INVALID_HANDLE;
    cb_mutex_lock(&ctx->lock);
    for (ctx_local *l = c->locals; l; l = l->next) {
        if (l->key == key) {
            *value = l->value;
            r = CUDA_SUCCESS;
            break;
        }
    }
    cb_mutex_unlock(&ctx->lock);
    return r;
}

CUresult cb_ctx_local_delete(cb_context *ctx, void *key)
{
    CUresult r = ctx_local_target(&ctx);
    if (r != CUDA_SUCCESS)
        return r;
    ctx_impl *c = (ctx_impl *)ctx;
    r = CUDA_ERROR_INVALID_HANDLE;
    cb_mutex_lock(&ctx->lock);
    for (ctx_local **p = &c->locals; *p; p = &(*p)->next) {
        if ((*p)->key == key) {
            ctx_local *l = *p;
            *p = l->next;
            free(l);
            r = CUDA_SUCCESS;
            break;
        }
    }
    cb_mutex_unlock(&ctx->lock);
    return r;
}
