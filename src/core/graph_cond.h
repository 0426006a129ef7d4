/* graph_cond.h: conditional graph nodes (CU_GRAPH_NODE_TYPE_CONDITIONAL):
 * their handles, their body graphs, and how they run.
 *
 * A CUgraphConditionalHandle (cuGraphConditionalHandleCreate) is the
 * address of a cb_cond_handle, whose first member is the cb_graph_cond that
 * kernels write through cudaGraphSetConditional (kernel_abi.h, repeated
 * below as cb_cond_dev). Handles are
 * reference counted: the graph they were made for holds one reference (and
 * so does every clone and instantiation of it, which share the handle: its
 * value is baked into the kernel parameters), and so does every conditional
 * node that names one. A handle made with CU_GRAPH_COND_ASSIGN_DEFAULT gets
 * its default value when a launch of a graph that holds it begins.
 *
 * A conditional node owns its body graphs (CUDA hands them back through
 * phGraph_out, valid for the node's lifetime). When the node runs (on the
 * stream's worker, in the graph's order) it reads the handle's value: IF
 * runs body 0 when it is not zero, else body 1 if there is one; WHILE runs
 * body 0 as long as it is not zero, testing before each run; SWITCH runs
 * body n when the value is n < size. Bodies hold kernel, empty, memcpy,
 * memset and conditional nodes (cuda.h's rule, checked when the graph is
 * instantiated), and run in a topological order computed then.
 */
#ifndef CB_CORE_GRAPH_COND_H
#define CB_CORE_GRAPH_COND_H

#include "core/graph.h"

/* kernel_abi.h's cb_graph_cond and CB_GRAPH_COND_MAGIC, which generated code
 * reads (the core has a cb_runtime of its own and cannot include it): keep
 * the two in step. */
#define CB_COND_HANDLE_MAGIC 0x434f4e44u
typedef struct cb_cond_dev {
    uint32_t magic;                     /* CB_COND_HANDLE_MAGIC while alive */
    uint32_t value;                     /* the condition (atomic) */
} cb_cond_dev;

typedef struct cb_cond_handle {
    cb_cond_dev dev;                    /* first: magic and value, what kernels see */
    _Atomic int refs;
    cb_context *ctx;
    cb_graph *graph;                    /* the graph it was made for (nodes must be in it) */
    unsigned default_value;
    unsigned flags;                     /* CU_GRAPH_COND_ASSIGN_DEFAULT */
} cb_cond_handle;

/* The handles a graph holds (CUgraph_st.conds). */
typedef struct cb_graph_conds {
    cb_cond_handle **h;
    size_t n, cap;
} cb_graph_conds;

/* A conditional node's parameters (cb_node_params.cond). */
typedef struct cb_cond_node {
    cb_cond_handle *handle;             /* a reference */
    CUgraphConditionalNodeType type;
    unsigned size;                      /* number of bodies */
    CUgraph *bodies;                    /* owned; the array given back as phGraph_out */
    size_t **orders;                    /* per body: its topological order (cb_graph_cond_prepare) */
    cb_context *ctx;
} cb_cond_node;

/* 1 if h is a live conditional handle. */
int cb_cond_handle_valid(CUgraphConditionalHandle h);
/* cuGraphConditionalHandleCreate: a new handle held by g. */
CUresult cb_cond_handle_create(cb_graph *g, cb_context *ctx, unsigned default_value, unsigned flags,
                               CUgraphConditionalHandle *out);

/* Makes n (a CONDITIONAL node of g, just added) a conditional node as p
 * says: checks the handle, type, size and context, creates the empty body
 * graphs and sets p->phGraph_out. */
CUresult cb_cond_node_init(cb_graph_node *n, CUDA_CONDITIONAL_NODE_PARAMS *p);
void cb_cond_node_free(cb_cond_node *c);
/* Deep copy of src's node params (bodies cloned, references taken) into dst. */
CUresult cb_cond_node_clone(const cb_cond_node *src, cb_cond_node **dst);

/* The handles of a graph: dropped with it, copied (as references) with a clone. */
void cb_graph_conds_free(cb_graph *g);
CUresult cb_graph_conds_clone(const cb_graph *src, cb_graph *dst);

/* For an instantiation (g: the exec's own copy): checks what every
 * conditional body holds (recursively) and computes each body's order.
 * CUDA_ERROR_INVALID_VALUE, logged, when a body holds a node type that
 * conditional bodies may not. */
CUresult cb_graph_cond_prepare(cb_graph *g);
/* At the start of a launch of g: the default value into every handle that
 * g (or a conditional body in it) holds with CU_GRAPH_COND_ASSIGN_DEFAULT. */
void cb_graph_cond_launch_begin(cb_graph *g);
/* Runs conditional node n on s's worker (the bodies it selects). */
CUresult cb_graph_cond_run(cb_graph_node *n, cb_stream *s);

#endif
