/* cudnn_backend.h: what the files of the cuDNN backend (graph) API share
 * (docs/cudnn.md, "The backend (graph) API").
 *
 *   cudnn_backend_desc.c   cudnnBackendCreate/Destroy/Initialize, Set and
 *                          GetAttribute, Finalize of every descriptor type
 *   cudnn_backend_graph.c  operation graphs (checks, order, workspace
 *                          layout), heuristics, engines, configs, plans
 *   cudnn_backend_exec.c   cudnnBackendExecute: one stream operation that
 *                          runs the graph's operations in order
 *   cudnn_backend_ref.c    the element formulas (pointwise, reductions) and
 *                          the reference interpreter in double (verify)
 *
 * A descriptor is a cudnn_bdesc. Descriptors handed to another's attribute
 * are copied by value when they are set (tensors into operations,
 * operations into a graph), so the caller may destroy them at once, as
 * cudnn-frontend does; a finalized graph is shared, refcounted, by the
 * heuristics, engines, configurations and plans made from it.
 */
#ifndef CBL_CUDNN_BACKEND_H
#define CBL_CUDNN_BACKEND_H

#include "cudnn_conv.h"

#define CUDNN_MAGIC_BACKEND 0x63624e42u   /* "cbNB" */

/* A tensor of the graph. */
typedef struct bk_tensor {
    cudnn_tensor t;          /* dtype, nd, dims, strides */
    int64_t uid, align;
    int is_virtual, by_value;
    int64_t vector_count, vector_dim;
    int reorder;
    unsigned set;            /* BK_TS_* bits of the attributes given */
} bk_tensor;

enum { BK_TS_TYPE = 1, BK_TS_DIMS = 2, BK_TS_STRIDES = 4, BK_TS_UID = 8, BK_TS_ALIGN = 16 };

typedef struct bk_conv {
    int64_t nsp;
    int64_t pre[CB_DNN_MAX_SPATIAL], post[CB_DNN_MAX_SPATIAL];
    int64_t stride[CB_DNN_MAX_SPATIAL], dilation[CB_DNN_MAX_SPATIAL];
    int64_t npre, npost, nstride, ndilation;
    int mode;                /* cudnnConvolutionMode_t; -1 unset */
    int comp;                /* cudnnDataType_t; -1 unset */
} bk_conv;

typedef struct bk_pointwise {
    int mode;                /* cudnnPointwiseMode_t; -1 unset */
    int prec;                /* cudnnDataType_t; -1 unset */
    double relu_lower, relu_upper, relu_slope, elu_alpha, softplus_beta, swish_beta;
    int64_t axis;
} bk_pointwise;

typedef struct bk_reduction {
    int op;                  /* cudnnReduceTensorOp_t; -1 unset */
    int comp;
} bk_reduction;

/* Tensor slots of an operation: x (matmul a), w (pointwise b, matmul b),
 * y (matmul c), t, dx, dy, dw. */
enum { BK_X, BK_W, BK_Y, BK_T, BK_DX, BK_DY, BK_DW, BK_SLOTS };

typedef struct bk_operation {
    int kind;                /* cudnnBackendDescriptorType_t of the operation */
    bk_tensor t[BK_SLOTS];
    unsigned have;           /* 1 << slot for each tensor given */
    int have_desc;
    bk_conv conv;            /* convolutions */
    bk_pointwise pw;
    int mm_comp;             /* matmul */
    bk_reduction red;
    double alpha, beta;      /* conv alpha/beta, pointwise alpha1/alpha2 */
    /* filled when the graph is finalized */
    int in[3], nin, out;     /* slots read, the slot written */
} bk_operation;

/* A finalized operation graph. */
typedef struct bk_graph {
    _Atomic int refs;
    cudnnHandle_t handle;
    int nops;
    bk_operation *ops;       /* in execution order */
    int ntensors;
    bk_tensor *tensors;      /* each uid once */
    int *producer;           /* per tensor: the op writing it, or -1 */
    size_t *ws_offset;       /* per tensor: virtual tensors' place in the workspace */
    double *terms;           /* per tensor: products summed into an element (tolerances) */
    int *depth;              /* per tensor: the operations on its longest path */
    size_t workspace;        /* bytes of the workspace the plan needs */
    char summary[160];       /* "conv_fwd+add+relu", for the inspector's note */
} bk_graph;

typedef struct cudnn_bdesc {
    uint32_t magic;
    int type;                /* cudnnBackendDescriptorType_t */
    int finalized;
    bk_tensor tensor;
    bk_conv conv;
    bk_pointwise pw;
    int mm_comp;
    bk_reduction red;
    bk_operation op;
    /* operation graph (before Finalize: its handle and ops; after: graph) */
    cudnnHandle_t handle;
    bk_operation *ops;
    int nops;
    int dynamic_shape;
    bk_graph *graph;         /* graph, heuristics, engine, config, plan */
    int heur_mode;           /* -1 unset */
    int64_t engine_index;    /* -1 unset */
    int have_engine;
    int nknobs;
    int64_t knob_type, knob_value;
    int have_knob_type;
    /* variant pack */
    int64_t *uids;
    void **ptrs;
    int64_t nuids, nptrs;
    void *workspace;
    int have_workspace;
} cudnn_bdesc;

/* ---- cudnn_backend_graph.c -------------------------------------------------- */

/* Checks the ops of graph descriptor d and makes d->graph (order, tensors,
 * workspace). BAD_PARAM for inconsistent input, NOT_SUPPORTED (counted)
 * for what cubridge does not implement. */
cudnnStatus_t bk_graph_finalize(cudnn_bdesc *d);
void bk_graph_retain(bk_graph *g);
void bk_graph_release(bk_graph *g);
/* Index of uid among g's tensors, or -1. */
int bk_graph_tensor(const bk_graph *g, int64_t uid);
/* The finalize of heuristics, engine, configuration and plan descriptors. */
cudnnStatus_t bk_heur_finalize(cudnn_bdesc *d);
cudnnStatus_t bk_engine_finalize(cudnn_bdesc *d);
cudnnStatus_t bk_cfg_finalize(cudnn_bdesc *d);
cudnnStatus_t bk_plan_finalize(cudnn_bdesc *d);

/* 1 when the pointwise mode reads b (binary), 2 when it also reads t
 * (BINARY_SELECT), 0 unary; -1 for a mode cubridge does not implement. */
int bk_pointwise_arity(int mode);
/* 1 for the *_BWD modes (dx from x and dy). */
int bk_pointwise_backward(int mode);

/* The row-major matrix (rows, cols) at strides (sr, sc) as a column-major
 * operand: *trans CB_BLAS_OP_N or _T, *ld; 0 when the layout has no such
 * form (neither stride 1). */
int bk_matrix_view(int64_t rows, int64_t cols, int64_t sr, int64_t sc, int *trans, int64_t *ld);

/* ---- cudnn_backend_ref.c ------------------------------------------------------ */

/* Element e of t at host base (logical row-major index; any data type the
 * graph API accepts, BOOLEAN and INT64 included). */
double bk_load(const cudnn_tensor *t, const void *base, size_t e);
/* Stores v rounded to t's type at element e of t at host base. */
void bk_store(const cudnn_tensor *t, void *base, size_t e, double v);
/* v rounded to type's precision (what a store and a load give). */
double bk_round(cudnnDataType_t type, double v);
/* The element type can be loaded and stored. */
int bk_type_ok(cudnnDataType_t type);
/* y = op(a, b, c) of a pointwise operation (c: BINARY_SELECT's mask);
 * index: GEN_INDEX's value. Backward modes: a = x, b = dy. */
double bk_pointwise_apply(const bk_pointwise *pw, double a, double b, double c, double index);
/* The reduction's start value, step and final value of n reduced terms. */
double bk_reduce_init(int op);
double bk_reduce_step(int op, double acc, double v);
double bk_reduce_final(int op, double acc, double n);
/* Index into src (packed, row-major) of element e of dst, where src's dims
 * are dst's or 1 (broadcast), both of rank nd. */
/* A pointwise operation's output (packed, of its output's dims) from its
 * inputs' packed values (in[k] for op->in[k]); a reduction's from x. */
void bk_compute_pointwise(const bk_operation *op, const double *const *in, double *out);
void bk_compute_reduction(const bk_operation *op, const double *x, double *y);
/* The conv of op as the backend sees it (tensors at address 0). */
void bk_conv_of(const bk_operation *op, cb_dnn_conv *c);

/* The reference of one Execute on the snapshots (cudnn_routine.reference):
 * ctx is the cudnn_op, whose extra is the execution (bk_exec). */
void bk_reference(void *ctx, cbl_operand *ops);

/* One Execute, as the stream operation carries it (o->extra). */
typedef struct bk_exec {
    bk_graph *g;
    uint64_t *addr;          /* per tensor of g: device address (virtual: in the workspace) */
    double *value;           /* per tensor: by-value tensors' scalar */
    int *operand;            /* per tensor: its index among the operands, or -1 */
    int nops;                /* operands: tensors, then the workspace */
    uint64_t workspace;
} bk_exec;

#endif
