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
#include "core/memory.h"

/* Creates the per-context runtime (the legacy stream, stream list, pools)
 * and hangs it on ctx->runtime; fills ctx->legacy_stream. The driver calls
 * it when it creates a context. */
CUresult cb_ctx_runtime_init(cb_context *ctx);

/* Waits for the context's work, destroys its streams, events' ties, and
 * frees its device memory. The driver calls it when it destroys a context. */
void cb_ctx_runtime_fini(cb_context *ctx);

/* ---- fences ------------------------------------------------------------
 * A fence is the completion of one operation: reference counted, waited on
 * by other streams, events and host threads. */
typedef struct cb_fence {
    _Atomic int refs;
    cb_mutex lock;
    cb_cond cond;
    int done;
    uint64_t time_ns;   /* when it completed (cb_vm_clock_ns), for events */
} cb_fence;

/* A new, pending fence with one reference (NULL when out of memory). */
cb_fence *cb_fence_new(void);
cb_fence *cb_fence_ref(cb_fence *f);          /* NULL passes through */
void cb_fence_unref(cb_fence *f);             /* NULL is allowed */
void cb_fence_signal(cb_fence *f);            /* done, stamped with the time */
void cb_fence_wait(cb_fence *f);              /* NULL returns at once */
int cb_fence_done(cb_fence *f);               /* NULL counts as done */

/* ---- operations -------------------------------------------------------- */

typedef enum cb_op_kind {
    CB_OP_LAUNCH,      /* a kernel */
    CB_OP_COPY,        /* cb_copy; with stage_source set, the source is copied
                          aside at submission (pageable host memory) */
    CB_OP_FILL,        /* cb_fill */
    CB_OP_HOST_FN,     /* cuLaunchHostFunc */
    CB_OP_CALLBACK,    /* cuStreamAddCallback: gets the stream and its status */
    CB_OP_MARKER,      /* nothing: event records and waits */
    CB_OP_FREE,        /* stream-ordered free of an allocation record */
    CB_OP_GRAPH,       /* a graph launch */
    CB_OP_LIBRARY,     /* a library call (cb_lib_op) */
} cb_op_kind;

/* ---- library calls ------------------------------------------------------
 * A call of a library facade (src/lib) as a stream operation:
 * ordered with the stream's kernels, copies and events, and captured into
 * graphs like them (as a host node whose function is cb_lib_op_host_fn).
 * Reference counted: a captured call lives as long as the graphs and
 * executable graphs that hold it. */
typedef struct cb_lib_op {
    _Atomic int refs;                        /* 1 when made */
    cb_context *ctx;                         /* set at submission */
    /* Runs the call on the worker. Anything but CUDA_SUCCESS becomes the
     * context's sticky error, as a faulting kernel's does. Not called while
     * the context has a sticky error. */
    CUresult (*run)(struct cb_lib_op *op);
    void (*release)(struct cb_lib_op *op);   /* frees it, when refs reach 0 */
    const char *name;                        /* the library function, for logs */
} cb_lib_op;

void cb_lib_op_ref(cb_lib_op *op);
void cb_lib_op_unref(cb_lib_op *op);          /* NULL is allowed */
/* Runs op (a cb_lib_op *) unless its context has a sticky error: the
 * function of the host node a captured library call becomes. */
void cb_lib_op_host_fn(void *op);

struct cb_graph_launch;

typedef struct cb_op {
    struct cb_op *next;
    cb_op_kind kind;
    cb_fence *fence;          /* signalled when the op is done (owned ref) */
    cb_fence **waits;         /* waited before it runs (owned refs) */
    size_t nwaits, capwaits;
    union {
        struct { cb_function *f; cb_launch_config cfg; } launch;   /* cfg.params owned */
        struct { cb_copy copy; void *staging; int stage_source; } copy; /* staging owned */
        cb_fill fill;
        struct { CUhostFn fn; void *data; } host;
        struct { CUstreamCallback fn; void *data; CUstream handle; } callback;
        cb_mem_info free;
        struct cb_graph_launch *graph;                              /* owned */
        cb_lib_op *lib;                                             /* owned reference */
    } u;
} cb_op;

/* A new op of kind (NULL when out of memory). */
cb_op *cb_op_new(cb_op_kind kind);
/* Adds a fence (taking a new reference) that must complete before op runs. */
int cb_op_add_wait(cb_op *op, cb_fence *f);
/* Frees an op that was never submitted, with what it owns. */
void cb_op_free(cb_op *op);

/* ---- streams ----------------------------------------------------------- */

struct cb_capture;
struct CUgraphNode_st;

typedef struct cb_stream {
    uint32_t magic;
    cb_context *ctx;
    unsigned flags;               /* CU_STREAM_DEFAULT / CU_STREAM_NON_BLOCKING */
    int priority;
    unsigned long long id;
    int is_legacy, is_per_thread;
    cb_mutex lock;                /* guards the queue, last, worker state */
    cb_cond cond;
    cb_op *head, *tail;
    cb_fence *last;               /* fence of the last submitted op (ref) */
    int quit, has_worker;
    cb_thread_handle worker;
    struct cb_stream *next;       /* in the runtime's list (runtime lock) */
    /* Stream capture (graph.c), guarded by the runtime lock. */
    struct cb_capture *capture;
    struct CUgraphNode_st **cap_deps;
    size_t ncap_deps, capcap_deps;
    /* cuStreamSetAttribute's hints (api_stream_attr.c), guarded by lock; they do not change results. */
    CUaccessPolicyWindow access_policy;
    CUsynchronizationPolicy sync_policy;  /* 0 until set: CU_SYNC_POLICY_AUTO */
    CUlaunchMemSyncDomainMap domain_map;
    CUlaunchMemSyncDomain domain;
} cb_stream;

/* The per-context runtime, at ctx->runtime. */
typedef struct cb_runtime {
    cb_mutex lock;                /* the stream list, capture state; before any stream lock */
    cb_stream *streams;           /* every stream of the context, legacy included */
    cb_stream *legacy;
    unsigned long long id;        /* process-unique, for per-thread stream caches */
    struct cb_capture *captures;  /* active stream captures (graph.h) */
} cb_runtime;

cb_runtime *cb_runtime_of(cb_context *ctx);

/* Like cb_stream_resolve; when per_thread_default is set (the _ptsz/_ptds
 * entry points) a NULL handle means the per-thread default stream. ctx may
 * be NULL for "the current context". Bad handles give
 * CUDA_ERROR_INVALID_HANDLE. */
CUresult cb_stream_resolve_ex(CUstream h, cb_context *ctx, int per_thread_default, cb_stream **out);

/* Creates / destroys a stream of ctx (cuStreamCreateWithPriority). */
CUresult cb_stream_create(cb_context *ctx, unsigned flags, int priority, cb_stream **out);
CUresult cb_stream_destroy(cb_stream *s);

/* Submits op to s: records it as a graph node when s is capturing,
 * otherwise adds the legacy-stream dependencies and queues it. On success
 * the stream owns op; when fence_out is not NULL it gets a reference to the
 * op's fence (NULL if the op was captured). On failure the caller still
 * owns op. */
CUresult cb_stream_submit(cb_stream *s, cb_op *op, cb_fence **fence_out);

/* Like cb_stream_submit, except that when s is idle (nothing queued or
 * running, no implicit wait pending, not capturing) and
 * CUBRIDGE_INLINE_LAUNCH is not 0, op runs on the calling thread, ordered
 * exactly as if queued (cb_stream_launch's fast path), and is freed; then
 * *fence_out is NULL and op is done on return. */
CUresult cb_stream_submit_inline(cb_stream *s, cb_op *op, cb_fence **fence_out);

/* Submits op and waits for it (synchronous API calls); takes ownership of
 * op in every case. Returns the submission error, or the context's sticky
 * error after it ran. Capturing streams refuse synchronous work
 * (CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED). */
CUresult cb_stream_submit_sync(cb_stream *s, cb_op *op);

/* Waits for everything submitted to s so far; returns the sticky error.
 * CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED (invalidating the capture) when s
 * is capturing. */
CUresult cb_stream_synchronize(cb_stream *s);
/* CUDA_SUCCESS when all of s's work is done, else CUDA_ERROR_NOT_READY. */
CUresult cb_stream_query(cb_stream *s);

/* 1 if h is a live stream handle (not NULL or the special handles). */
int cb_stream_valid(const void *h);

#endif
