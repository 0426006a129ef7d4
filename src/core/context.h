/* context.h: contexts, the per-thread context stack, primary contexts and
 * context-local storage (src/core/context.c). core.h declares the rest. */
#ifndef CB_CORE_CONTEXT_H
#define CB_CORE_CONTEXT_H

#include "core/core.h"

/* Creates a context on d (not made current). flags are cuCtxCreate's. */
CUresult cb_ctx_create(cb_device *d, unsigned flags, int is_primary, cb_context **out);
/* Destroys ctx: runs its local-storage destructors, unloads its modules,
 * stops its runtime and frees it. The handle is dead afterwards. */
void cb_ctx_destroy(cb_context *ctx);

/* The calling thread's context stack. Push fails with
 * CUDA_ERROR_OUT_OF_MEMORY past CB_CTX_STACK_MAX entries. */
#define CB_CTX_STACK_MAX 128
CUresult cb_ctx_push(cb_context *ctx);
/* Pops the top; CUDA_ERROR_INVALID_CONTEXT when the stack is empty. */
CUresult cb_ctx_pop(cb_context **out);

/* cb_ctx_require plus the context's sticky error. */
CUresult cb_ctx_require_usable(cb_context **out);

/* A process-unique id (cuCtxGetId), never 0. */
unsigned long long cb_ctx_id(const cb_context *ctx);

/* Primary contexts (cuDevicePrimaryCtx*). */
CUresult cb_primary_retain(cb_device *d, cb_context **out);
CUresult cb_primary_release(cb_device *d);
CUresult cb_primary_reset(cb_device *d);
void cb_primary_state(cb_device *d, unsigned *flags, int *active);
CUresult cb_primary_set_flags(cb_device *d, unsigned flags);

/* Peer access (cuCtxEnablePeerAccess / cuCtxDisablePeerAccess): ctx may
 * access the memory of peer, a context on another device.
 * CUDA_ERROR_INVALID_CONTEXT (peer not live), CUDA_ERROR_INVALID_DEVICE
 * (same device), CUDA_ERROR_PEER_ACCESS_UNSUPPORTED (the devices cannot,
 * cb_device_can_access_peer), CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED,
 * CUDA_ERROR_TOO_MANY_PEERS; disable: CUDA_ERROR_PEER_ACCESS_NOT_ENABLED. */
CUresult cb_ctx_enable_peer(cb_context *ctx, cb_context *peer);
CUresult cb_ctx_disable_peer(cb_context *ctx, cb_context *peer);

/* Context-local storage (the c693336e export table). NULL ctx means the
 * current context. dtor(ctx, key, value) runs when the context dies. */
typedef void (*cb_ctx_local_dtor)(CUcontext ctx, void *key, void *value);
CUresult cb_ctx_local_put(cb_context *ctx, void *key, void *value, cb_ctx_local_dtor dtor);
CUresult cb_ctx_local_get(cb_context *ctx, void *key, void **value);
CUresult cb_ctx_local_delete(cb_context *ctx, void *key);

#endif
