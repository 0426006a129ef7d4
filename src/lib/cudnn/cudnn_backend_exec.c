/* cudnn_backend_exec.c: cudnnBackendExecute (cudnn_backend.h).
 *
 * Execute checks the plan and the variant pack on the calling thread (every
 * non-virtual tensor of the graph needs a data pointer; a graph with
 * virtual tensors needs the workspace, where they live, at the offsets the
 * graph's finalize gave them; by-value scalars are read now, from host
 * memory), and becomes one stream operation on the handle's stream, like
 * every computing call of the facade (cudnn_op.c): ordered with kernels and
 * copies, captured into graphs, checked in verify mode against the
 * reference interpreter of cudnn_backend_ref.c.
 *
 * On the worker the operations run in the graph's order:
 *   - convolutions through the backend's dnn_conv (the legacy API's path:
 *     oneDNN or direct loops on the CPU backend), alpha and beta included;
 *   - matmuls through the backend's gemm_ex, one batched call with an
 *     address per batch (batch dims of size 1 broadcast), the row-major
 *     matrices turned into column-major operands by their strides;
 *   - pointwise operations and reductions on host copies, in double,
 *     rounded once to the output's type.
 */
#include "cudnn_backend.h"

#include <stdlib.h>

static const char *const FN_EXEC = "cudnnBackendExecute";

static void exec_release(void *p)
{
    bk_exec *ex = p;
    if (!ex)
        return;
    bk_graph_release(ex->g);
    free(ex->addr), free(ex->value), free(ex->operand);
    free(ex);
}

static uint64_t tensor_addr(const bk_exec *ex, const bk_tensor *t)
{
    return ex->addr[bk_graph_tensor(ex->g, t->uid)];
}

/* ---- the operations ---------------------------------------------------------------------- */

static CUresult run_conv(cudnn_op *o, const bk_exec *ex, const bk_operation *op)
{
    cb_dnn_conv c;
    bk_conv_of(op, &c);
    c.x.addr = tensor_addr(ex, &op->t[c.direction == CB_DNN_CONV_BWD_DATA ? BK_DX : BK_X]);
    c.w.addr = tensor_addr(ex, &op->t[c.direction == CB_DNN_CONV_BWD_FILTER ? BK_DW : BK_W]);
    c.y.addr = tensor_addr(ex, &op->t[c.direction == CB_DNN_CONV_FWD ? BK_Y : BK_DY]);
    cb_backend *b = o->base.backend;
    return b->lib->dnn_conv(b, &c);
}

/* Element offset of batch bi (of c's batch dims) in t, batch dims of size 1 broadcast. */
static int64_t batch_offset(const cudnn_tensor *t, const cudnn_tensor *c, size_t bi)
{
    int64_t off = 0;
    for (int d = c->nd - 3; d >= 0; d--) {
        int64_t i = (int64_t)(bi % (size_t)c->dim[d]);
        bi /= (size_t)c->dim[d];
        if (t->dim[d] != 1)
            off += i * t->stride[d];
    }
    return off;
}

static CUresult run_matmul(cudnn_op *o, const bk_exec *ex, const bk_operation *op)
{
    cb_backend *b = o->base.backend;
    if (b->lib->size <= offsetof(cb_backend_lib, gemm_ex) || !b->lib->gemm_ex)
        return CUDA_ERROR_NOT_SUPPORTED;
    const cudnn_tensor *ta = &op->t[BK_X].t, *tb = &op->t[BK_W].t, *tc = &op->t[BK_Y].t;
    int nd = tc->nd, tra, trb, trc;
    int64_t M = tc->dim[nd - 2], N = tc->dim[nd - 1], K = ta->dim[nd - 1], lda, ldb, ldc;
    bk_matrix_view(M, K, ta->stride[nd - 2], ta->stride[nd - 1], &tra, &lda);
    bk_matrix_view(K, N, tb->stride[nd - 2], tb->stride[nd - 1], &trb, &ldb);
    bk_matrix_view(M, N, tc->stride[nd - 2], tc->stride[nd - 1], &trc, &ldc);
    size_t batches = cudnn_tensor_count(tc) / (size_t)(M * N);
    uint64_t *arr = malloc(3 * batches * sizeof *arr);
    if (!arr)
        return CUDA_ERROR_OUT_OF_MEMORY;
    uint64_t *pa = arr, *pb = arr + batches, *pc = arr + 2 * batches;
    uint64_t a0 = tensor_addr(ex, &op->t[BK_X]), b0 = tensor_addr(ex, &op->t[BK_W]), c0 = tensor_addr(ex, &op->t[BK_Y]);
    for (size_t i = 0; i < batches; i++) {
        pa[i] = a0 + (uint64_t)(batch_offset(ta, tc, i) * (int64_t)cudnn_type_size(ta->dtype));
        pb[i] = b0 + (uint64_t)(batch_offset(tb, tc, i) * (int64_t)cudnn_type_size(tb->dtype));
        pc[i] = c0 + (uint64_t)(batch_offset(tc, tc, i) * (int64_t)cudnn_type_size(tc->dtype));
    }
    int dbl = op->mm_comp == CUDNN_DATA_DOUBLE;
    const float onef = 1, zerof = 0;
    const double oned = 1, zerod = 0;
    cb_blas_gemm g;
    memset(&g, 0, sizeof g);
    g.compute = g.scale = dbl ? CB_BLAS_F64 : CB_BLAS_F32;
    g.round = CB_BLAS_ROUND_NONE;
    g.alpha = dbl ? (const void *)&oned : (const void *)&onef;
    g.beta = dbl ? (const void *)&zerod : (const void *)&zerof;
    g.k = K;
    g.c_type = g.d_type = (cb_blas_type)cudnn_blas_type(tc->dtype);
    if (trc == CB_BLAS_OP_N) {   /* c column-major: c = a b */
        g.m = M, g.n = N;
        g.a_type = (cb_blas_type)cudnn_blas_type(ta->dtype), g.trans_a = tra, g.lda = lda, g.a_array = pa;
        g.b_type = (cb_blas_type)cudnn_blas_type(tb->dtype), g.trans_b = trb, g.ldb = ldb, g.b_array = pb;
    } else {                     /* c row-major: c^T = b^T a^T, column-major */
        g.m = N, g.n = M;
        g.a_type = (cb_blas_type)cudnn_blas_type(tb->dtype), g.trans_a = trb == CB_BLAS_OP_N ? CB_BLAS_OP_T : CB_BLAS_OP_N;
        g.lda = ldb, g.a_array = pb;
        g.b_type = (cb_blas_type)cudnn_blas_type(ta->dtype), g.trans_b = tra == CB_BLAS_OP_N ? CB_BLAS_OP_T : CB_BLAS_OP_N;
        g.ldb = lda, g.b_array = pa;
    }
    g.ldc = g.ldd = ldc;
    g.c_array = g.d_array = pc;
    g.a = g.a_array[0], g.b = g.b_array[0], g.c = g.d = pc[0];
    g.batch = (int64_t)batches;
    CUresult r = b->lib->gemm_ex(b, &g);
    free(arr);
    return r;
}

/* Packed doubles of tensor t of the graph, read from the device (or the
 * by-value scalar). NULL on failure. */
static double *read_values(cudnn_op *o, const bk_exec *ex, const bk_tensor *t)
{
    int k = bk_graph_tensor(ex->g, t->uid);
    size_t n = cudnn_tensor_count(&t->t), bytes = cudnn_tensor_extent(&t->t);
    double *v = malloc((n ? n : 1) * sizeof *v);
    if (!v)
        return NULL;
    if (t->by_value) {
        v[0] = ex->value[k];
        return v;
    }
    void *h = malloc(bytes ? bytes : 1);
    if (!h || cbl_read(&o->base, h, ex->addr[k], bytes) != CUDA_SUCCESS) {
        free(h), free(v);
        return NULL;
    }
    for (size_t e = 0; e < n; e++)
        v[e] = bk_load(&t->t, h, e);
    free(h);
    return v;
}

/* Stores packed values into tensor t on the device (the bytes between its
 * elements kept). */
static CUresult write_values(cudnn_op *o, const bk_exec *ex, const bk_tensor *t, const double *v)
{
    uint64_t addr = ex->addr[bk_graph_tensor(ex->g, t->uid)];
    size_t n = cudnn_tensor_count(&t->t), bytes = cudnn_tensor_extent(&t->t);
    void *h = malloc(bytes ? bytes : 1);
    CUresult r = CUDA_ERROR_OUT_OF_MEMORY;
    if (h && (r = cbl_read(&o->base, h, addr, bytes)) == CUDA_SUCCESS) {
        for (size_t e = 0; e < n; e++)
            bk_store(&t->t, h, e, v[e]);
        r = cbl_write(&o->base, addr, h, bytes);
    }
    free(h);
    return r;
}

static CUresult run_host(cudnn_op *o, const bk_exec *ex, const bk_operation *op)
{
    double *in[3] = {NULL, NULL, NULL};
    const bk_tensor *y = &op->t[op->out];
    double *out = malloc((cudnn_tensor_count(&y->t) ? cudnn_tensor_count(&y->t) : 1) * sizeof *out);
    CUresult r = out ? CUDA_SUCCESS : CUDA_ERROR_OUT_OF_MEMORY;
    for (int k = 0; k < op->nin && r == CUDA_SUCCESS; k++)
        if (!(in[k] = read_values(o, ex, &op->t[op->in[k]])))
            r = CUDA_ERROR_OUT_OF_MEMORY;
    if (r == CUDA_SUCCESS) {
        if (op->kind == CUDNN_BACKEND_OPERATION_POINTWISE_DESCRIPTOR)
            bk_compute_pointwise(op, (const double *const *)in, out);
        else
            bk_compute_reduction(op, in[0], out);
        r = write_values(o, ex, y, out);
    }
    for (int k = 0; k < 3; k++)
        free(in[k]);
    free(out);
    return r;
}

static CUresult exec_run(cudnn_op *o)
{
    const bk_exec *ex = o->extra;
    for (int i = 0; i < ex->g->nops; i++) {
        const bk_operation *op = &ex->g->ops[i];
        CUresult r;
        switch (op->kind) {
        case CUDNN_BACKEND_OPERATION_POINTWISE_DESCRIPTOR:
        case CUDNN_BACKEND_OPERATION_REDUCTION_DESCRIPTOR: r = run_host(o, ex, op); break;
        case CUDNN_BACKEND_OPERATION_MATMUL_DESCRIPTOR: r = run_matmul(o, ex, op); break;
        default: r = run_conv(o, ex, op); break;
        }
        if (r != CUDA_SUCCESS)
            return r;
    }
    return CUDA_SUCCESS;
}

/* ---- operands (every device tensor, then the workspace) ---------------------------------- */


static const char *const operand_names[CUDNN_MAX_OPERANDS] = {
    "t0", "t1", "t2", "t3", "t4", "t5", "t6", "t7", "t8", "t9", "t10", "t11", "t12", "t13", "t14", "t15",
    "t16", "t17", "t18", "t19", "t20", "t21", "t22", "t23", "t24", "t25", "t26", "t27", "t28", "t29", "t30", "t31"};

static int exec_operands(cudnn_op *o, cbl_operand *ops)
{
    const bk_exec *ex = o->extra;
    const bk_graph *g = ex->g;
    int n = 0;
    for (int k = 0; k < g->ntensors; k++) {
        if (ex->operand[k] < 0)
            continue;
        const bk_tensor *t = &g->tensors[k];
        cbl_operand *p = &ops[ex->operand[k]];
        p->name = operand_names[ex->operand[k]];
        p->addr = ex->addr[k];
        p->bytes = cudnn_tensor_extent(&t->t);
        p->out = g->producer[k] >= 0;
        p->cmp = cudnn_cmp_of(t->t.dtype, &p->elem_bytes);
        p->tol_scale = cudnn_sum_scale(g->terms[k]) * (g->depth[k] > 1 ? g->depth[k] : 1);
        n++;
    }
    if (g->workspace) {
        cbl_operand *p = &ops[n++];
        p->name = "workspace";
        p->addr = ex->workspace;
        p->bytes = g->workspace;
        p->cmp = CB_ELEM_BYTES;
    }
    return n;
}

static const cudnn_routine exec_routine = {exec_run, exec_operands, bk_reference};

/* ---- cudnnBackendExecute ------------------------------------------------------------------ */

static cudnnStatus_t bind(bk_exec *ex, const cudnn_bdesc *vp)
{
    const bk_graph *g = ex->g;
    int next = 0;
    for (int k = 0; k < g->ntensors; k++) {
        const bk_tensor *t = &g->tensors[k];
        ex->operand[k] = -1;
        if (t->is_virtual) {
            ex->addr[k] = ex->workspace + g->ws_offset[k];
            continue;
        }
        int64_t j = 0;
        while (j < vp->nuids && vp->uids[j] != t->uid)
            j++;
        if (j == vp->nuids)
            return cudnn_fail(CUDNN_STATUS_BAD_PARAM, FN_EXEC, "the variant pack has no pointer for tensor %lld",
                              (long long)t->uid);
        if (!vp->ptrs[j])
            return cudnn_fail(CUDNN_STATUS_BAD_PARAM_NULL_POINTER, FN_EXEC, "NULL pointer for tensor %lld",
                              (long long)t->uid);
        if (t->by_value) {
            ex->value[k] = bk_load(&t->t, vp->ptrs[j], 0);   /* host memory, read at the call */
            continue;
        }
        ex->addr[k] = (uint64_t)(uintptr_t)vp->ptrs[j];
        ex->operand[k] = next++;
    }
    ex->nops = next + (g->workspace > 0);
    return CUDNN_STATUS_SUCCESS;
}

cudnnStatus_t cudnnBackendExecute(cudnnHandle_t handle, cudnnBackendDescriptor_t executionPlan,
                                  cudnnBackendDescriptor_t variantPack)
{
    cudnnStatus_t st = cudnn_handle_check(handle);
    if (st != CUDNN_STATUS_SUCCESS)
        return cudnn_fail(st, FN_EXEC, "not a handle");
    const cudnn_bdesc *plan = executionPlan, *vp = variantPack;
    if (!plan || plan->magic != CUDNN_MAGIC_BACKEND || plan->type != CUDNN_BACKEND_EXECUTION_PLAN_DESCRIPTOR ||
        !vp || vp->magic != CUDNN_MAGIC_BACKEND || vp->type != CUDNN_BACKEND_VARIANT_PACK_DESCRIPTOR)
        return cudnn_fail(CUDNN_STATUS_BAD_PARAM, FN_EXEC, "not an execution plan and a variant pack");
    if (!plan->finalized || !vp->finalized)
        return cudnn_fail(CUDNN_STATUS_BAD_PARAM_NOT_FINALIZED, FN_EXEC, "plan or variant pack not finalized");
    bk_graph *g = plan->graph;
    if (g->workspace && !vp->workspace)
        return cudnn_fail(CUDNN_STATUS_BAD_PARAM_NULL_POINTER, FN_EXEC,
                          "the plan needs a workspace of %zu bytes and the variant pack has none", g->workspace);
    bk_exec *ex = calloc(1, sizeof *ex);
    if (ex) {
        ex->addr = calloc((size_t)g->ntensors, sizeof *ex->addr);
        ex->value = calloc((size_t)g->ntensors, sizeof *ex->value);
        ex->operand = calloc((size_t)g->ntensors, sizeof *ex->operand);
    }
    if (!ex || !ex->addr || !ex->value || !ex->operand) {
        exec_release(ex);
        return CUDNN_STATUS_INTERNAL_ERROR_HOST_ALLOCATION_FAILED;
    }
    bk_graph_retain(g);
    ex->g = g;
    ex->workspace = (uint64_t)(uintptr_t)vp->workspace;
    if ((st = bind(ex, vp)) != CUDNN_STATUS_SUCCESS) {
        exec_release(ex);
        return st;
    }
    cudnn_op *o = cudnn_op_new(&exec_routine, FN_EXEC);
    if (!o) {
        exec_release(ex);
        return CUDNN_STATUS_INTERNAL_ERROR_HOST_ALLOCATION_FAILED;
    }
    o->extra = ex;
    o->extra_release = exec_release;
    snprintf(o->note, sizeof o->note, "%s", g->summary);
    return cudnn_op_submit(handle, o);
}
