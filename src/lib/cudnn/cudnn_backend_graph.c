/* cudnn_backend_graph.c: operation graphs, heuristics, engines, engine
 * configurations and execution plans of the backend API (cudnn_backend.h).
 *
 * Finalizing an operation graph checks everything Execute will rely on,
 * so that Execute never meets a graph it cannot run:
 *   - each operation's shapes (convolution output dims from the paddings,
 *     strides and dilations; matmul M x K by K x N with batch dims equal
 *     or 1; pointwise inputs equal to the output's dims or 1; reduction
 *     outputs of the input's dims or 1) -- BAD_PARAM when inconsistent;
 *   - the data types, layouts and modes cubridge computes -- NOT_SUPPORTED
 *     (counted, traced) otherwise: asymmetric convolution padding,
 *     vectorized or reordered tensors, matrices with neither stride 1,
 *     by-value tensors other than pointwise scalars, FP8/INT4/complex data;
 *   - the tensors by unique id: one description per id, at most one
 *     operation writing each, virtual tensors written before they are
 *     read, no cycle -- BAD_PARAM otherwise;
 * and orders the operations so that every one runs after the operations
 * that write its inputs. Virtual tensors get a place in the workspace (the
 * plan's WORKSPACE_SIZE), 256-byte aligned.
 *
 * One engine (global index 0) runs every graph that finalizes: the
 * heuristics return one configuration, with no knobs.
 */
#include "cudnn_backend.h"

#include <stdlib.h>

static const char *const FN_FIN = "cudnnBackendFinalize";

void bk_graph_retain(bk_graph *g)
{
    if (g)
        g->refs++;
}

void bk_graph_release(bk_graph *g)
{
    if (!g || --g->refs > 0)
        return;
    free(g->ops), free(g->tensors), free(g->producer), free(g->ws_offset), free(g->terms), free(g->depth);
    free(g);
}

int bk_graph_tensor(const bk_graph *g, int64_t uid)
{
    for (int i = 0; i < g->ntensors; i++)
        if (g->tensors[i].uid == uid)
            return i;
    return -1;
}

int bk_matrix_view(int64_t rows, int64_t cols, int64_t sr, int64_t sc, int *trans, int64_t *ld)
{
    if ((sr == 1 || rows == 1) && sc >= rows) {   /* column-major rows x cols */
        *trans = CB_BLAS_OP_N;
        *ld = sc > 0 ? sc : 1;
        return 1;
    }
    if ((sc == 1 || cols == 1) && sr >= cols) {   /* column-major cols x rows, transposed */
        *trans = CB_BLAS_OP_T;
        *ld = sr > 0 ? sr : 1;
        return 1;
    }
    if (rows == 1 && cols == 1) {
        *trans = CB_BLAS_OP_N;
        *ld = 1;
        return 1;
    }
    return 0;
}

/* ---- checks of one operation ----------------------------------------------------------- */

static int float_type(int t)
{
    return t == CUDNN_DATA_FLOAT || t == CUDNN_DATA_DOUBLE || t == CUDNN_DATA_HALF || t == CUDNN_DATA_BFLOAT16;
}

static cudnnStatus_t refuse(const char *what, int op_index)
{
    char why[192];
    snprintf(why, sizeof why, "backend graph operation %d: %s", op_index, what);
    return cudnn_unsupported(FN_FIN, why);
}

static cudnnStatus_t inconsistent(const char *what, int op_index)
{
    return cudnn_fail(CUDNN_STATUS_BAD_PARAM, FN_FIN, "backend graph operation %d: %s", op_index, what);
}

static int same_rank_broadcast(const cudnn_tensor *in, const cudnn_tensor *out)
{
    if (in->nd != out->nd)
        return 0;
    for (int d = 0; d < in->nd; d++)
        if (in->dim[d] != out->dim[d] && in->dim[d] != 1)
            return 0;
    return 1;
}

static cudnnStatus_t check_conv(bk_operation *op, int i)
{
    int dir = op->kind == CUDNN_BACKEND_OPERATION_CONVOLUTION_FORWARD_DESCRIPTOR         ? CB_DNN_CONV_FWD
              : op->kind == CUDNN_BACKEND_OPERATION_CONVOLUTION_BACKWARD_DATA_DESCRIPTOR ? CB_DNN_CONV_BWD_DATA
                                                                                         : CB_DNN_CONV_BWD_FILTER;
    int xs = dir == CB_DNN_CONV_BWD_DATA ? BK_DX : BK_X, ws = dir == CB_DNN_CONV_BWD_FILTER ? BK_DW : BK_W,
        ys = dir == CB_DNN_CONV_FWD ? BK_Y : BK_DY;
    static const int outs[3] = {BK_Y, BK_DX, BK_DW};
    op->out = outs[dir];
    op->nin = 2;
    op->in[0] = dir == CB_DNN_CONV_BWD_DATA ? ys : xs;
    op->in[1] = dir == CB_DNN_CONV_BWD_FILTER ? ys : ws;
    const cudnn_tensor *x = &op->t[xs].t, *w = &op->t[ws].t, *y = &op->t[ys].t;
    const bk_conv *c = &op->conv;
    int nsp = (int)c->nsp;
    if (x->nd != nsp + 2 || w->nd != nsp + 2 || y->nd != nsp + 2)
        return inconsistent("convolution tensors must have spatial dims + 2 dims", i);
    if (x->dim[0] != y->dim[0] || w->dim[1] <= 0 || x->dim[1] % w->dim[1])
        return inconsistent("convolution batch or channel counts do not fit", i);
    int64_t groups = x->dim[1] / w->dim[1];
    if (w->dim[0] != y->dim[1] || y->dim[1] % groups)
        return inconsistent("convolution output channels do not fit the filter", i);
    for (int d = 0; d < nsp; d++) {
        int64_t eff = (w->dim[d + 2] - 1) * c->dilation[d] + 1;
        int64_t span = x->dim[d + 2] + c->pre[d] + c->post[d] - eff;
        if (span < 0 || span / c->stride[d] + 1 != y->dim[d + 2])
            return inconsistent("convolution output dims do not follow from the input, filter and geometry", i);
    }
    for (int d = 0; d < nsp; d++)
        if (c->post[d] != c->pre[d])
            return refuse("asymmetric convolution padding (post != pre)", i);
    for (int s = 0; s < 3; s++) {
        int t = (int)(s == 0 ? x : s == 1 ? w : y)->dtype;
        if (!float_type(t))
            return refuse("convolution of non-floating data", i);
    }
    if (!float_type(c->comp))
        return refuse("convolution compute type other than FLOAT, DOUBLE, HALF, BFLOAT16", i);
    if (op->beta != 0 && op->t[op->out].is_virtual)
        return refuse("convolution beta != 0 into a virtual tensor", i);
    return CUDNN_STATUS_SUCCESS;
}

static cudnnStatus_t check_pointwise(bk_operation *op, int i)
{
    int mode = op->pw.mode, arity = bk_pointwise_arity(mode);
    if (bk_pointwise_backward(mode)) {
        op->nin = 2, op->in[0] = BK_X, op->in[1] = BK_DY, op->out = BK_DX;
    } else {
        op->nin = 1 + arity, op->in[0] = BK_X, op->in[1] = BK_W, op->in[2] = BK_T, op->out = BK_Y;
    }
    const cudnn_tensor *y = &op->t[op->out].t;
    for (int k = 0; k < op->nin; k++)
        if (!same_rank_broadcast(&op->t[op->in[k]].t, y))
            return inconsistent("pointwise input dims must equal the output's or be 1 (same rank)", i);
    if (mode == CUDNN_POINTWISE_GEN_INDEX && (op->pw.axis < 0 || op->pw.axis >= y->nd))
        return inconsistent("GEN_INDEX axis outside the output's dims", i);
    return CUDNN_STATUS_SUCCESS;
}

static cudnnStatus_t check_matmul(bk_operation *op, int i)
{
    op->nin = 2, op->in[0] = BK_X, op->in[1] = BK_W, op->out = BK_Y;
    const cudnn_tensor *a = &op->t[BK_X].t, *b = &op->t[BK_W].t, *c = &op->t[BK_Y].t;
    int nd = c->nd;
    if (nd < 2 || a->nd != nd || b->nd != nd)
        return inconsistent("matmul tensors of different ranks (or below 2)", i);
    int64_t M = c->dim[nd - 2], N = c->dim[nd - 1], K = a->dim[nd - 1];
    if (a->dim[nd - 2] != M || b->dim[nd - 2] != K || b->dim[nd - 1] != N)
        return inconsistent("matmul shapes: a is M x K, b K x N, c M x N", i);
    for (int d = 0; d < nd - 2; d++)
        if ((a->dim[d] != c->dim[d] && a->dim[d] != 1) || (b->dim[d] != c->dim[d] && b->dim[d] != 1))
            return inconsistent("matmul batch dims must equal c's or be 1", i);
    int tr;
    int64_t ld;
    if (!bk_matrix_view(M, K, a->stride[nd - 2], a->stride[nd - 1], &tr, &ld) ||
        !bk_matrix_view(K, N, b->stride[nd - 2], b->stride[nd - 1], &tr, &ld) ||
        !bk_matrix_view(M, N, c->stride[nd - 2], c->stride[nd - 1], &tr, &ld))
        return refuse("matmul matrix with neither stride 1 (or overlapping rows)", i);
    if (!float_type(a->dtype) || !float_type(b->dtype) || !float_type(c->dtype))
        return refuse("matmul of non-floating data", i);
    if (!float_type(op->mm_comp))
        return refuse("matmul compute type other than FLOAT, DOUBLE, HALF, BFLOAT16", i);
    return CUDNN_STATUS_SUCCESS;
}

static cudnnStatus_t check_reduction(bk_operation *op, int i)
{
    op->nin = 1, op->in[0] = BK_X, op->out = BK_Y;
    if (!same_rank_broadcast(&op->t[BK_Y].t, &op->t[BK_X].t))
        return inconsistent("reduction output dims must equal the input's or be 1 (same rank)", i);
    return CUDNN_STATUS_SUCCESS;
}

static cudnnStatus_t check_operation(bk_operation *op, int i)
{
    cudnnStatus_t st;
    char why[128];
    switch (op->kind) {
    case CUDNN_BACKEND_OPERATION_POINTWISE_DESCRIPTOR: st = check_pointwise(op, i); break;
    case CUDNN_BACKEND_OPERATION_MATMUL_DESCRIPTOR: st = check_matmul(op, i); break;
    case CUDNN_BACKEND_OPERATION_REDUCTION_DESCRIPTOR: st = check_reduction(op, i); break;
    case CUDNN_BACKEND_OPERATION_CONVOLUTION_FORWARD_DESCRIPTOR:
    case CUDNN_BACKEND_OPERATION_CONVOLUTION_BACKWARD_DATA_DESCRIPTOR:
    case CUDNN_BACKEND_OPERATION_CONVOLUTION_BACKWARD_FILTER_DESCRIPTOR: st = check_conv(op, i); break;
    default:
        snprintf(why, sizeof why, "operation descriptor type %d (cubridge computes convolutions, matmuls, pointwise "
                 "operations and reductions)", op->kind);
        return refuse(why, i);
    }
    if (st != CUDNN_STATUS_SUCCESS)
        return st;
    int slots[4] = {op->in[0], op->in[1], op->in[2], op->out};
    for (int k = 0; k < 4; k++) {
        if (k < 3 && k >= op->nin)
            continue;
        const bk_tensor *t = &op->t[slots[k]];
        if (!bk_type_ok(t->t.dtype))
            return refuse("a tensor of a data type cubridge does not compute with (FP8, INT4, complex ...)", i);
        if (t->reorder != CUDNN_TENSOR_REORDERING_NONE)
            return refuse("reordered tensors", i);
        if (t->by_value && (k == 3 || op->kind != CUDNN_BACKEND_OPERATION_POINTWISE_DESCRIPTOR ||
                            cudnn_tensor_count(&t->t) != 1))
            return refuse("by-value tensors other than pointwise scalar inputs", i);
        if (t->by_value && t->is_virtual)
            return inconsistent("a tensor both virtual and by value", i);
    }
    const cudnn_tensor *y = &op->t[op->out].t;
    for (int d = 0; d < y->nd; d++)
        if (y->dim[d] > 1 && y->stride[d] == 0)
            return inconsistent("an output with stride 0 (elements that alias)", i);
    return CUDNN_STATUS_SUCCESS;
}

/* ---- the graph ----------------------------------------------------------------------------- */

static int same_tensor(const bk_tensor *a, const bk_tensor *b)
{
    if (a->t.dtype != b->t.dtype || a->t.nd != b->t.nd || a->is_virtual != b->is_virtual ||
        a->by_value != b->by_value)
        return 0;
    for (int d = 0; d < a->t.nd; d++)
        if (a->t.dim[d] != b->t.dim[d] || a->t.stride[d] != b->t.stride[d])
            return 0;
    return 1;
}

static const char *op_name(const bk_operation *op)
{
    switch (op->kind) {
    case CUDNN_BACKEND_OPERATION_CONVOLUTION_FORWARD_DESCRIPTOR: return "conv_fwd";
    case CUDNN_BACKEND_OPERATION_CONVOLUTION_BACKWARD_DATA_DESCRIPTOR: return "conv_bwd_data";
    case CUDNN_BACKEND_OPERATION_CONVOLUTION_BACKWARD_FILTER_DESCRIPTOR: return "conv_bwd_filter";
    case CUDNN_BACKEND_OPERATION_MATMUL_DESCRIPTOR: return "matmul";
    case CUDNN_BACKEND_OPERATION_REDUCTION_DESCRIPTOR: return "reduction";
    default: return "pointwise";
    }
}

/* The products summed into one element of op's output (tolerances). */
static double op_terms(const bk_operation *op)
{
    const cudnn_tensor *y = &op->t[op->out].t;
    double f = 1;
    switch (op->kind) {
    case CUDNN_BACKEND_OPERATION_MATMUL_DESCRIPTOR: return (double)op->t[BK_X].t.dim[op->t[BK_X].t.nd - 1];
    case CUDNN_BACKEND_OPERATION_REDUCTION_DESCRIPTOR:
        return (double)cudnn_tensor_count(&op->t[BK_X].t) / (double)cudnn_tensor_count(y);
    case CUDNN_BACKEND_OPERATION_POINTWISE_DESCRIPTOR: return 1;
    default: {
        cb_dnn_conv c;
        bk_conv_of(op, &c);
        for (int d = 0; d < c.nsp; d++)
            f *= (double)(c.direction == CB_DNN_CONV_BWD_FILTER ? c.y.dim[d + 2] : c.w.dim[d + 2]);
        if (c.direction == CB_DNN_CONV_FWD)
            return f * (double)c.w.dim[1];
        if (c.direction == CB_DNN_CONV_BWD_DATA)
            return f * (double)(c.y.dim[1] / c.groups);
        return f * (double)c.x.dim[0];
    }
    }
}

/* Adds t to g's tensors unless its uid is there (then it must match). */
static cudnnStatus_t add_tensor(bk_graph *g, const bk_tensor *t, int *index)
{
    int k = bk_graph_tensor(g, t->uid);
    if (k >= 0) {
        if (!same_tensor(&g->tensors[k], t))
            return cudnn_fail(CUDNN_STATUS_BAD_PARAM, FN_FIN, "unique id %lld names two different tensors",
                              (long long)t->uid);
        *index = k;
        return CUDNN_STATUS_SUCCESS;
    }
    g->tensors[g->ntensors] = *t;
    *index = g->ntensors++;
    return CUDNN_STATUS_SUCCESS;
}

/* Orders g->ops (copied from ops) so that producers come first. */
static cudnnStatus_t order_ops(bk_graph *g, const bk_operation *ops, int n, const int (*ins)[3], const int *outs)
{
    int *done = calloc((size_t)(n > 0 ? n : 1), sizeof *done);
    int *ready = calloc((size_t)(g->ntensors > 0 ? g->ntensors : 1), sizeof *ready);
    if (!done || !ready) {
        free(done), free(ready);
        return CUDNN_STATUS_INTERNAL_ERROR_HOST_ALLOCATION_FAILED;
    }
    for (int k = 0; k < g->ntensors; k++)
        ready[k] = g->producer[k] < 0;
    int placed = 0;
    for (int progress = 1; progress && placed < n;) {
        progress = 0;
        for (int i = 0; i < n; i++) {
            if (done[i])
                continue;
            int ok = 1;
            for (int k = 0; k < ops[i].nin; k++)
                ok &= ready[ins[i][k]];
            if (!ok)
                continue;
            g->ops[placed++] = ops[i];
            done[i] = 1;
            ready[outs[i]] = 1;
            progress = 1;
        }
    }
    free(done), free(ready);
    if (placed < n)
        return cudnn_fail(CUDNN_STATUS_BAD_PARAM, FN_FIN, "the operation graph has a cycle");
    return CUDNN_STATUS_SUCCESS;
}

static void graph_numbers(bk_graph *g)
{
    size_t ws = 0;
    for (int k = 0; k < g->ntensors; k++) {
        g->terms[k] = 1;
        g->depth[k] = 0;
        g->ws_offset[k] = 0;
        if (g->tensors[k].is_virtual) {
            g->ws_offset[k] = ws;
            ws += (cudnn_tensor_extent(&g->tensors[k].t) + 255) & ~(size_t)255;
        }
    }
    g->workspace = ws;
    size_t len = 0;
    g->summary[0] = 0;
    for (int i = 0; i < g->nops; i++) {
        const bk_operation *op = &g->ops[i];
        int out = bk_graph_tensor(g, op->t[op->out].uid);
        double terms = 0;
        int depth = 0;
        for (int k = 0; k < op->nin; k++) {
            int in = bk_graph_tensor(g, op->t[op->in[k]].uid);
            terms = g->terms[in] > terms ? g->terms[in] : terms;
            depth = g->depth[in] > depth ? g->depth[in] : depth;
        }
        g->terms[out] = terms + op_terms(op);
        g->depth[out] = depth + 1;
        int w = snprintf(g->summary + len, sizeof g->summary - len, "%s%s", i ? "+" : "", op_name(op));
        if (w > 0 && (size_t)w < sizeof g->summary - len)
            len += (size_t)w;
    }
}

cudnnStatus_t bk_graph_finalize(cudnn_bdesc *d)
{
    if (cudnn_handle_check(d->handle) != CUDNN_STATUS_SUCCESS || d->nops < 1)
        return cudnn_fail(CUDNN_STATUS_BAD_PARAM, FN_FIN, "operation graph without a handle or operations");
    if (d->dynamic_shape)
        return cudnn_unsupported(FN_FIN, "operation graphs with dynamic shapes");
    cudnnStatus_t st;
    for (int i = 0; i < d->nops; i++)
        if ((st = check_operation(&d->ops[i], i)) != CUDNN_STATUS_SUCCESS)
            return st;
    bk_graph *g = calloc(1, sizeof *g);
    int n = d->nops, cap = 4 * n;
    int(*ins)[3] = calloc((size_t)n, sizeof *ins);
    int *outs = calloc((size_t)n, sizeof *outs);
    if (g) {
        g->refs = 1;
        g->handle = d->handle;
        g->ops = calloc((size_t)n, sizeof *g->ops);
        g->tensors = calloc((size_t)cap, sizeof *g->tensors);
        g->producer = malloc((size_t)cap * sizeof *g->producer);
        g->ws_offset = calloc((size_t)cap, sizeof *g->ws_offset);
        g->terms = calloc((size_t)cap, sizeof *g->terms);
        g->depth = calloc((size_t)cap, sizeof *g->depth);
    }
    if (!g || !ins || !outs || !g->ops || !g->tensors || !g->producer || !g->ws_offset || !g->terms || !g->depth) {
        st = CUDNN_STATUS_INTERNAL_ERROR_HOST_ALLOCATION_FAILED;
        goto fail;
    }
    for (int k = 0; k < cap; k++)
        g->producer[k] = -1;
    g->nops = n;
    for (int i = 0; i < n; i++) {
        const bk_operation *op = &d->ops[i];
        for (int k = 0; k < op->nin; k++)
            if ((st = add_tensor(g, &op->t[op->in[k]], &ins[i][k])) != CUDNN_STATUS_SUCCESS)
                goto fail;
        if ((st = add_tensor(g, &op->t[op->out], &outs[i])) != CUDNN_STATUS_SUCCESS)
            goto fail;
        if (g->producer[outs[i]] >= 0) {
            st = cudnn_fail(CUDNN_STATUS_BAD_PARAM, FN_FIN, "tensor %lld is written by two operations",
                            (long long)op->t[op->out].uid);
            goto fail;
        }
        g->producer[outs[i]] = i;
    }
    int operands = 1;
    for (int k = 0; k < g->ntensors; k++) {
        const bk_tensor *t = &g->tensors[k];
        if (t->is_virtual && g->producer[k] < 0) {
            st = cudnn_fail(CUDNN_STATUS_BAD_PARAM, FN_FIN, "virtual tensor %lld is read but never written",
                            (long long)t->uid);
            goto fail;
        }
        operands += !t->is_virtual && !t->by_value;
    }
    if (operands > CUDNN_MAX_OPERANDS) {
        st = cudnn_unsupported(FN_FIN, "a backend graph with more device tensors than cubridge checks (31)");
        goto fail;
    }
    if ((st = order_ops(g, d->ops, n, (const int(*)[3])ins, outs)) != CUDNN_STATUS_SUCCESS)
        goto fail;
    graph_numbers(g);
    free(ins), free(outs);
    if (d->graph)
        bk_graph_release(d->graph);
    d->graph = g;
    return CUDNN_STATUS_SUCCESS;
fail:
    free(ins), free(outs);
    if (g)
        bk_graph_release(g);
    return st;
}

/* ---- heuristics, engines, configurations, plans -------------------------------------------- */

cudnnStatus_t bk_heur_finalize(cudnn_bdesc *d)
{
    if (!d->graph || d->heur_mode < 0)
        return cudnn_fail(CUDNN_STATUS_BAD_PARAM, FN_FIN, "heuristics without an operation graph or a mode");
    if (d->heur_mode >= CUDNN_HEUR_MODES_COUNT)
        return cudnn_fail(CUDNN_STATUS_BAD_PARAM, FN_FIN, "heuristics mode %d", d->heur_mode);
    d->engine_index = 0;
    return CUDNN_STATUS_SUCCESS;
}

cudnnStatus_t bk_engine_finalize(cudnn_bdesc *d)
{
    if (!d->graph || d->engine_index < 0)
        return cudnn_fail(CUDNN_STATUS_BAD_PARAM, FN_FIN, "engine without an operation graph or a global index");
    if (d->engine_index != 0)
        return cudnn_unsupported(FN_FIN, "engine global index other than 0 (cubridge has one engine)");
    d->have_engine = 1;
    return CUDNN_STATUS_SUCCESS;
}

cudnnStatus_t bk_cfg_finalize(cudnn_bdesc *d)
{
    if (!d->have_engine || !d->graph)
        return cudnn_fail(CUDNN_STATUS_BAD_PARAM, FN_FIN, "engine configuration without an engine");
    if (d->nknobs > 0)
        return cudnn_unsupported(FN_FIN, "knob choices (cubridge's engine has no knobs)");
    return CUDNN_STATUS_SUCCESS;
}

cudnnStatus_t bk_plan_finalize(cudnn_bdesc *d)
{
    if (!d->have_engine || !d->graph)
        return cudnn_fail(CUDNN_STATUS_BAD_PARAM, FN_FIN, "execution plan without an engine configuration");
    if (!d->handle)
        d->handle = d->graph->handle;
    if (cudnn_handle_check(d->handle) != CUDNN_STATUS_SUCCESS)
        return cudnn_fail(CUDNN_STATUS_BAD_PARAM, FN_FIN, "execution plan without a valid handle");
    return CUDNN_STATUS_SUCCESS;
}
