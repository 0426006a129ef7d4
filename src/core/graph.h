/* graph.h: CUDA graphs: explicit construction, stream capture, instantiate
 * and launch.
 *
 * A graph is a list of nodes in creation order; each node lists the nodes
 * it depends on. Instantiating clones the graph and orders the clone's nodes
 * topologically; a launch is one stream operation that runs the nodes in
 * that order on the stream's worker (dependencies are respected because the
 * order is topological). Kernel nodes own a copy of the packed parameters.
 *
 * Capture turns operations submitted to a capturing stream into nodes: each
 * stream in a capture keeps the set of nodes the next node depends on;
 * recording an event in a capturing stream remembers that set, and waiting
 * on such an event from another stream joins that stream to the capture.
 */
#ifndef CB_CORE_GRAPH_H
#define CB_CORE_GRAPH_H

#include "core/event.h"
#include "core/stream.h"

#define CB_MAGIC_GRAPH_NODE 0x474e6f64u

typedef struct CUgraphNode_st cb_graph_node;
typedef struct CUgraph_st cb_graph;
typedef struct CUgraphExec_st cb_graph_exec;

/* A node's parameters, by type. */
typedef union cb_node_params {
    struct {
        cb_function *f;
        cb_launch_config cfg;       /* cfg.params owned */
        void **argv;                /* pointers into cfg.params, for GetParams (owned) */
        CUaccessPolicyWindow access_policy;   /* cuGraphKernelNodeSetAttribute hints (api_stream_attr.c) */
        int priority;
        CUlaunchMemSyncDomainMap domain_map;
        CUlaunchMemSyncDomain domain;
    } kernel;
    struct { cb_copy copy; cb_context *ctx; } memcpy;
    struct { cb_fill fill; cb_context *ctx; } memset;
    CUDA_HOST_NODE_PARAMS host;
    cb_event *event;                /* event record / wait */
    struct cb_graph_mem *mem;       /* memory allocation / free: the reservation (a reference), graph_mem.h */
    struct cb_cond_node *cond;      /* conditional (owned; graph_cond.h) */
} cb_node_params;

struct CUgraphNode_st {
    uint32_t magic;
    cb_graph *graph;
    size_t index;                       /* in graph->nodes */
    CUgraphNodeType type;
    cb_graph_node **deps;
    size_t ndeps, capdeps;
    cb_node_params u;
};

struct CUgraph_st {
    uint32_t magic;
    cb_graph_node **nodes;
    size_t n, cap;
    struct cb_graph_conds *conds;       /* conditional handles it holds (graph_cond.h), or NULL */
};

struct CUgraphExec_st {
    uint32_t magic;
    cb_graph *graph;                    /* owned clone of the instantiated graph */
    size_t *order;                      /* topological order of graph->nodes */
    _Atomic int refs;                   /* the handle + each pending launch */
    unsigned long long flags;
    cb_mutex lock;                      /* guards last */
    cb_fence *last;                     /* the latest launch; updates wait for it */
};

/* One pending graph launch (a CB_OP_GRAPH op owns it). */
typedef struct cb_graph_launch {
    cb_graph_exec *exec;                /* holds a reference */
    cb_fence **fences;                  /* per node: record fence or waited fence */
} cb_graph_launch;

/* A stream capture sequence. */
typedef struct cb_capture {
    cb_graph *graph;
    CUstreamCaptureMode mode;
    unsigned long long id;
    int invalidated;
    cb_stream *origin;
    cb_runtime *rt;
    int *thread_count;                  /* the beginning thread's count of unsafe-call-blocking captures */
    struct cb_capture *next;            /* in rt->captures */
} cb_capture;

/* ---- graphs and nodes (graph.c) ---------------------------------------- */

CUresult cb_graph_create(cb_graph **out);
void cb_graph_destroy(cb_graph *g);
int cb_graph_valid(const void *g);
int cb_graph_node_valid(const void *n);
/* Adds a node of type with deps (validated: nodes of g) and returns it; the
 * caller fills its params. */
CUresult cb_graph_add_node(cb_graph *g, CUgraphNodeType type, cb_graph_node *const *deps, size_t ndeps,
                           cb_graph_node **out);
/* Frees the most recently added node of g (one whose params were refused). */
void cb_graph_remove_last(cb_graph *g);
/* Deep copy (params included). */
CUresult cb_graph_clone(const cb_graph *g, cb_graph **out);
/* Packs kernel arguments (kernelParams or extra) for f into a new buffer. */
CUresult cb_graph_pack_params(cb_function *f, void **kernel_params, void **extra, unsigned char **out,
                              uint32_t *bytes);
/* Sets a kernel node's params from CUDA's descriptor (copying the args). */
CUresult cb_graph_kernel_set(cb_graph_node *n, const CUDA_KERNEL_NODE_PARAMS *p);

/* Makes n a kernel node for f with cfg, taking ownership of cfg->params. */
CUresult cb_graph_kernel_adopt(cb_graph_node *n, cb_function *f, const cb_launch_config *cfg);

/* ---- instantiate and launch (graph_exec.c) ------------------------------ */

CUresult cb_graph_instantiate(cb_graph *g, unsigned long long flags, cb_graph_exec **out);
void cb_graph_exec_release(cb_graph_exec *e);   /* drops one reference */
/* cuGraphExecDestroy: the handle dies now, the exec when its launches end. */
void cb_graph_exec_destroy(cb_graph_exec *e);
int cb_graph_exec_valid(const void *e);
/* Submits a launch of e on s. */
CUresult cb_graph_exec_launch(cb_graph_exec *e, cb_stream *s);
/* Runs node n of a launch on s's worker (fence: its record or waited fence). */
CUresult cb_graph_node_run(cb_graph_node *n, cb_fence *fence, cb_stream *s);
/* A topological order of g's nodes into order[g->n]; -1 on a cycle or out of memory. */
int cb_graph_topo_order(const cb_graph *g, size_t *order);
/* Runs a launch on the calling (worker) thread; frees nothing. */
void cb_graph_launch_run(cb_graph_launch *gl, cb_stream *s);
void cb_graph_launch_free(cb_graph_launch *gl);
/* Waits until no launch of e is pending (before changing its params). */
void cb_graph_exec_quiesce(cb_graph_exec *e);
/* cuGraphExecUpdate: same topology required; copies node params. */
CUresult cb_graph_exec_update(cb_graph_exec *e, cb_graph *g, cb_graph_node **error_node,
                              CUgraphExecUpdateResult *result);

/* ---- capture (capture.c) ------------------------------------------------ */

CUresult cb_capture_begin(cb_stream *s, CUstreamCaptureMode mode);
/* Ends the capture that s originated; *out gets the graph (NULL if the
 * capture was invalidated). */
CUresult cb_capture_end(cb_stream *s, cb_graph **out);
/* Turns op into a node of s's capture (runtime lock held); frees op on
 * success. */
CUresult cb_capture_add_op(cb_stream *s, cb_op *op);
CUresult cb_capture_record_event(cb_stream *s, cb_event *ev);
/* Returns CUDA_ERROR_NOT_FOUND when the wait concerns no live capture (the
 * caller then waits the ordinary way). */
CUresult cb_capture_wait_event(cb_stream *s, cb_event *ev);
/* Adds a memory allocation or free node (type) naming mem (taking the
 * caller's reference) to s's capture after its dependency set, which it
 * becomes; takes the runtime lock. CUDA_ERROR_ILLEGAL_STATE when s is not
 * capturing, CUDA_ERROR_STREAM_CAPTURE_INVALIDATED when the capture is. */
CUresult cb_capture_add_mem_node(cb_stream *s, CUgraphNodeType type, struct cb_graph_mem *mem);
/* cuStreamUpdateCaptureDependencies: replaces (set) or extends s's
 * dependency set with nodes of its capture graph. */
CUresult cb_capture_update_deps(cb_stream *s, cb_graph_node *const *nodes, size_t n, int replace);
/* Ends every capture of rt (context destruction; runtime lock held). */
void cb_capture_fini_all(cb_runtime *rt);
/* Marks s's capture invalid (runtime lock held). */
void cb_capture_invalidate(cb_stream *s);
/* Drops s from its capture (stream destruction; runtime lock held). */
void cb_capture_leave(cb_stream *s);
/* CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED when the calling thread may not
 * make a potentially unsafe call (cuMemAlloc ...) under the capture modes in
 * force (cuThreadExchangeStreamCaptureMode). */
CUresult cb_capture_check_unsafe(void);
/* cuThreadExchangeStreamCaptureMode. */
CUresult cb_capture_exchange_mode(CUstreamCaptureMode *mode);

#endif
