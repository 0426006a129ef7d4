/* stream.h: streams, the per-context runtime, and the work they carry.
 *
 * Each stream is an ordered queue of operations run by its own worker
 * thread. The legacy default stream (NULL / CU_STREAM_LEGACY) waits for all
 * earlier work of every blocking stream of its context, and blocking streams
 * wait for earlier work of the legacy stream; CU_STREAM_NON_BLOCKING streams
 * do neither. CU_STREAM_PER_THREAD is one blocking stream per host thread
 * and context.
 *
 * cb_stream_resolve, cb_stream_launch and cb_ctx_synchronize are declared
 * in core.h.
 */
#ifndef CB_CORE_STREAM_H
#define CB_CORE_STREAM_H

#include "core/core.h"

/* Creates the per-context runtime (the legacy stream, stream list, pools)
 * and hangs it on ctx->runtime; fills ctx->legacy_stream. The driver calls
 * it when it creates a context. */
CUresult cb_ctx_runtime_init(cb_context *ctx);

/* Waits for the context's work, destroys its streams, events' ties, and
 * frees its device memory. The driver calls it when it destroys a context. */
void cb_ctx_runtime_fini(cb_context *ctx);

#endif
