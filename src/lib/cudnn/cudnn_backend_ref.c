/* cudnn_backend_ref.c: the backend API's element formulas, the operations
 * computed in double on packed values, and the reference interpreter that
 * CUBRIDGE_INSPECT=verify runs beside every cudnnBackendExecute.
 *
 * Pointwise modes (a = alpha1 * x, b = alpha2 * b, t the mask; backward
 * modes read x and dy and give dx), in double, rounded once to y's type:
 *   ADD a + b, ADD_SQUARE a + b^2, SUB, MUL, DIV, MAX, MIN, MOD fmod(a, b),
 *   POW, ATAN2; ABS, CEIL, FLOOR, COS, SIN, TAN, EXP, LOG, NEG, SQRT,
 *   RSQRT, RECIPROCAL, ERF, IDENTITY;
 *   RELU_FWD: a < lower ? lower + slope (a - lower) : min(a, upper)
 *     (defaults lower 0, upper +inf, slope 0: max(a, 0));
 *   TANH, SIGMOID, ELU (a > 0 ? a : alpha (e^a - 1)), GELU (erf form
 *   a/2 (1 + erf(a / sqrt 2))), GELU_APPROX_TANH (tanh form), SOFTPLUS
 *   log(1 + e^(beta a)) / beta, SWISH a sigmoid(beta a);
 *   each *_BWD: dy times the derivative at x;
 *   CMP_EQ/NEQ/GT/GE/LT/LE and LOGICAL_AND/OR/NOT: 1 or 0;
 *   GEN_INDEX: the element's index along AXIS; BINARY_SELECT: t ? a : b.
 * Reductions: ADD, MUL, MIN, MAX, AMAX max |x|, AVG, NORM1 sum |x|,
 * NORM2 sqrt(sum x^2), MUL_NO_ZEROS (zeros skipped), over the input dims
 * where the output's dim is 1.
 *
 * The reference interpreter walks the graph in the same order as Execute,
 * on host copies of the operands taken before the run; every tensor it
 * produces is rounded to its data type, as Execute stores it, so the
 * comparison measures the accumulation of convolutions and products (here
 * in double, by plain loops over the definition) and nothing else.
 */
#include "cudnn_backend.h"

#include <math.h>
#include <stdlib.h>

/* ---- elements ------------------------------------------------------------------------------ */

int bk_type_ok(cudnnDataType_t type)
{
    return cudnn_blas_type(type) >= 0 || type == CUDNN_DATA_INT64 || type == CUDNN_DATA_BOOLEAN;
}

static size_t elem_offset(const cudnn_tensor *t, size_t e)
{
    size_t off = 0;
    for (int d = t->nd - 1; d >= 0; d--) {
        off += (e % (size_t)t->dim[d]) * (size_t)t->stride[d];
        e /= (size_t)t->dim[d];
    }
    return off * cudnn_type_size(t->dtype);
}

static double load_at(cudnnDataType_t type, const char *p)
{
    if (type == CUDNN_DATA_INT64) {
        int64_t v;
        memcpy(&v, p, 8);
        return (double)v;
    }
    if (type == CUDNN_DATA_BOOLEAN)
        return *(const unsigned char *)p ? 1 : 0;
    return cb_blas_load((cb_blas_type)cudnn_blas_type(type), p, 0).re;
}

static void store_at(cudnnDataType_t type, char *p, double v)
{
    if (type == CUDNN_DATA_INT64) {
        int64_t i = isnan(v) ? 0 : v >= 9.2e18 ? INT64_MAX : v <= -9.2e18 ? INT64_MIN : (int64_t)llrint(v);
        memcpy(p, &i, 8);
    } else if (type == CUDNN_DATA_BOOLEAN) {
        *(unsigned char *)p = v != 0;
    } else {
        cb_blas_store((cb_blas_type)cudnn_blas_type(type), p, 0, (cb_cplx){v, 0});
    }
}

double bk_load(const cudnn_tensor *t, const void *base, size_t e)
{
    return load_at(t->dtype, (const char *)base + elem_offset(t, e));
}

void bk_store(const cudnn_tensor *t, void *base, size_t e, double v)
{
    store_at(t->dtype, (char *)base + elem_offset(t, e), v);
}

double bk_round(cudnnDataType_t type, double v)
{
    char tmp[16];
    store_at(type, tmp, v);
    return load_at(type, tmp);
}

/* ---- pointwise ------------------------------------------------------------------------------- */

int bk_pointwise_arity(int mode)
{
    switch (mode) {
    case CUDNN_POINTWISE_ADD: case CUDNN_POINTWISE_ADD_SQUARE: case CUDNN_POINTWISE_DIV: case CUDNN_POINTWISE_MAX:
    case CUDNN_POINTWISE_MIN: case CUDNN_POINTWISE_MOD: case CUDNN_POINTWISE_MUL: case CUDNN_POINTWISE_POW:
    case CUDNN_POINTWISE_SUB: case CUDNN_POINTWISE_ATAN2: case CUDNN_POINTWISE_CMP_EQ: case CUDNN_POINTWISE_CMP_NEQ:
    case CUDNN_POINTWISE_CMP_GT: case CUDNN_POINTWISE_CMP_GE: case CUDNN_POINTWISE_CMP_LT: case CUDNN_POINTWISE_CMP_LE:
    case CUDNN_POINTWISE_LOGICAL_AND: case CUDNN_POINTWISE_LOGICAL_OR:
        return 1;
    case CUDNN_POINTWISE_BINARY_SELECT:
        return 2;
    case CUDNN_POINTWISE_ABS: case CUDNN_POINTWISE_CEIL: case CUDNN_POINTWISE_COS: case CUDNN_POINTWISE_EXP:
    case CUDNN_POINTWISE_FLOOR: case CUDNN_POINTWISE_LOG: case CUDNN_POINTWISE_NEG: case CUDNN_POINTWISE_RSQRT:
    case CUDNN_POINTWISE_SIN: case CUDNN_POINTWISE_SQRT: case CUDNN_POINTWISE_TAN: case CUDNN_POINTWISE_ERF:
    case CUDNN_POINTWISE_IDENTITY: case CUDNN_POINTWISE_RECIPROCAL: case CUDNN_POINTWISE_RELU_FWD:
    case CUDNN_POINTWISE_TANH_FWD: case CUDNN_POINTWISE_SIGMOID_FWD: case CUDNN_POINTWISE_ELU_FWD:
    case CUDNN_POINTWISE_GELU_FWD: case CUDNN_POINTWISE_SOFTPLUS_FWD: case CUDNN_POINTWISE_SWISH_FWD:
    case CUDNN_POINTWISE_GELU_APPROX_TANH_FWD: case CUDNN_POINTWISE_LOGICAL_NOT: case CUDNN_POINTWISE_GEN_INDEX:
    case CUDNN_POINTWISE_RELU_BWD: case CUDNN_POINTWISE_TANH_BWD: case CUDNN_POINTWISE_SIGMOID_BWD:
    case CUDNN_POINTWISE_ELU_BWD: case CUDNN_POINTWISE_GELU_BWD: case CUDNN_POINTWISE_SOFTPLUS_BWD:
    case CUDNN_POINTWISE_SWISH_BWD: case CUDNN_POINTWISE_GELU_APPROX_TANH_BWD:
        return 0;
    default:
        return -1;
    }
}

int bk_pointwise_backward(int mode) { return mode >= CUDNN_POINTWISE_RELU_BWD && mode <= 207; }

static double sigmoid(double x) { return 1 / (1 + exp(-x)); }

double bk_pointwise_apply(const bk_pointwise *pw, double a, double b, double c, double index)
{
    const double rsqrt2 = 0.70710678118654752440, rsqrt2pi = 0.39894228040143267794;
    double s;
    switch (pw->mode) {
    case CUDNN_POINTWISE_ADD: return a + b;
    case CUDNN_POINTWISE_ADD_SQUARE: return a + b * b;
    case CUDNN_POINTWISE_DIV: return a / b;
    case CUDNN_POINTWISE_MAX: return a > b ? a : b;
    case CUDNN_POINTWISE_MIN: return a < b ? a : b;
    case CUDNN_POINTWISE_MOD: return fmod(a, b);
    case CUDNN_POINTWISE_MUL: return a * b;
    case CUDNN_POINTWISE_POW: return pow(a, b);
    case CUDNN_POINTWISE_SUB: return a - b;
    case CUDNN_POINTWISE_ATAN2: return atan2(a, b);
    case CUDNN_POINTWISE_ABS: return fabs(a);
    case CUDNN_POINTWISE_CEIL: return ceil(a);
    case CUDNN_POINTWISE_COS: return cos(a);
    case CUDNN_POINTWISE_EXP: return exp(a);
    case CUDNN_POINTWISE_FLOOR: return floor(a);
    case CUDNN_POINTWISE_LOG: return log(a);
    case CUDNN_POINTWISE_NEG: return -a;
    case CUDNN_POINTWISE_RSQRT: return 1 / sqrt(a);
    case CUDNN_POINTWISE_SIN: return sin(a);
    case CUDNN_POINTWISE_SQRT: return sqrt(a);
    case CUDNN_POINTWISE_TAN: return tan(a);
    case CUDNN_POINTWISE_ERF: return erf(a);
    case CUDNN_POINTWISE_IDENTITY: return a;
    case CUDNN_POINTWISE_RECIPROCAL: return 1 / a;
    case CUDNN_POINTWISE_RELU_FWD:
        return a < pw->relu_lower ? pw->relu_lower + pw->relu_slope * (a - pw->relu_lower)
                                  : (a < pw->relu_upper ? a : pw->relu_upper);
    case CUDNN_POINTWISE_TANH_FWD: return tanh(a);
    case CUDNN_POINTWISE_SIGMOID_FWD: return sigmoid(a);
    case CUDNN_POINTWISE_ELU_FWD: return a > 0 ? a : pw->elu_alpha * (exp(a) - 1);
    case CUDNN_POINTWISE_GELU_FWD: return 0.5 * a * (1 + erf(a * rsqrt2));
    case CUDNN_POINTWISE_GELU_APPROX_TANH_FWD: return cb_blas_gelu(a);
    case CUDNN_POINTWISE_SOFTPLUS_FWD: return log1p(exp(pw->softplus_beta * a)) / pw->softplus_beta;
    case CUDNN_POINTWISE_SWISH_FWD: return a * sigmoid(pw->swish_beta * a);
    case CUDNN_POINTWISE_RELU_BWD:
        return b * (a < pw->relu_lower ? pw->relu_slope : a < pw->relu_upper ? (a > pw->relu_lower ? 1 : 0) : 0);
    case CUDNN_POINTWISE_TANH_BWD: s = tanh(a); return b * (1 - s * s);
    case CUDNN_POINTWISE_SIGMOID_BWD: s = sigmoid(a); return b * s * (1 - s);
    case CUDNN_POINTWISE_ELU_BWD: return b * (a > 0 ? 1 : pw->elu_alpha * exp(a));
    case CUDNN_POINTWISE_GELU_BWD: return b * (0.5 * (1 + erf(a * rsqrt2)) + a * rsqrt2pi * exp(-0.5 * a * a));
    case CUDNN_POINTWISE_GELU_APPROX_TANH_BWD: return b * cb_blas_gelu_grad(a);
    case CUDNN_POINTWISE_SOFTPLUS_BWD: return b * sigmoid(pw->softplus_beta * a);
    case CUDNN_POINTWISE_SWISH_BWD:
        s = sigmoid(pw->swish_beta * a);
        return b * (s + pw->swish_beta * a * s * (1 - s));
    case CUDNN_POINTWISE_CMP_EQ: return a == b;
    case CUDNN_POINTWISE_CMP_NEQ: return a != b;
    case CUDNN_POINTWISE_CMP_GT: return a > b;
    case CUDNN_POINTWISE_CMP_GE: return a >= b;
    case CUDNN_POINTWISE_CMP_LT: return a < b;
    case CUDNN_POINTWISE_CMP_LE: return a <= b;
    case CUDNN_POINTWISE_LOGICAL_AND: return a != 0 && b != 0;
    case CUDNN_POINTWISE_LOGICAL_OR: return a != 0 || b != 0;
    case CUDNN_POINTWISE_LOGICAL_NOT: return a == 0;
    case CUDNN_POINTWISE_GEN_INDEX: return index;
    case CUDNN_POINTWISE_BINARY_SELECT: return c != 0 ? a : b;
    default: return NAN;
    }
}

/* ---- reductions ------------------------------------------------------------------------------ */

double bk_reduce_init(int op)
{
    switch (op) {
    case CUDNN_REDUCE_TENSOR_MUL: case CUDNN_REDUCE_TENSOR_MUL_NO_ZEROS: return 1;
    case CUDNN_REDUCE_TENSOR_MIN: return INFINITY;
    case CUDNN_REDUCE_TENSOR_MAX: return -INFINITY;
    default: return 0;
    }
}

double bk_reduce_step(int op, double acc, double v)
{
    switch (op) {
    case CUDNN_REDUCE_TENSOR_MUL: return acc * v;
    case CUDNN_REDUCE_TENSOR_MUL_NO_ZEROS: return v != 0 ? acc * v : acc;
    case CUDNN_REDUCE_TENSOR_MIN: return v < acc ? v : acc;
    case CUDNN_REDUCE_TENSOR_MAX: return v > acc ? v : acc;
    case CUDNN_REDUCE_TENSOR_AMAX: return fabs(v) > acc ? fabs(v) : acc;
    case CUDNN_REDUCE_TENSOR_NORM1: return acc + fabs(v);
    case CUDNN_REDUCE_TENSOR_NORM2: return acc + v * v;
    default: return acc + v;   /* ADD, AVG */
    }
}

double bk_reduce_final(int op, double acc, double n)
{
    if (op == CUDNN_REDUCE_TENSOR_AVG)
        return acc / n;
    if (op == CUDNN_REDUCE_TENSOR_NORM2)
        return sqrt(acc);
    return acc;
}

/* ---- operations on packed doubles --------------------------------------------------------------- */

void bk_conv_of(const bk_operation *op, cb_dnn_conv *c)
{
    memset(c, 0, sizeof *c);
    c->direction = op->kind == CUDNN_BACKEND_OPERATION_CONVOLUTION_FORWARD_DESCRIPTOR         ? CB_DNN_CONV_FWD
                   : op->kind == CUDNN_BACKEND_OPERATION_CONVOLUTION_BACKWARD_DATA_DESCRIPTOR ? CB_DNN_CONV_BWD_DATA
                                                                                              : CB_DNN_CONV_BWD_FILTER;
    const bk_tensor *x = &op->t[c->direction == CB_DNN_CONV_BWD_DATA ? BK_DX : BK_X];
    const bk_tensor *w = &op->t[c->direction == CB_DNN_CONV_BWD_FILTER ? BK_DW : BK_W];
    const bk_tensor *y = &op->t[c->direction == CB_DNN_CONV_FWD ? BK_Y : BK_DY];
    c->flip = op->conv.mode == CUDNN_CONVOLUTION;
    c->nsp = (int)op->conv.nsp;
    c->groups = x->t.dim[1] / w->t.dim[1];
    for (int d = 0; d < c->nsp; d++) {
        c->pad[d] = op->conv.pre[d];
        c->stride[d] = op->conv.stride[d];
        c->dilation[d] = op->conv.dilation[d];
    }
    c->round = CB_BLAS_ROUND_NONE;
    c->accumulate = op->conv.comp == CUDNN_DATA_DOUBLE ? CB_BLAS_F64 : CB_BLAS_F32;
    cudnn_dnn_tensor(&c->x, &x->t, NULL);
    cudnn_dnn_tensor(&c->w, &w->t, NULL);
    cudnn_dnn_tensor(&c->y, &y->t, NULL);
    c->alpha = op->alpha;
    c->beta = op->beta;
}

static void matmul_ref(const bk_operation *op, const double *a, const double *b, double *c)
{
    const cudnn_tensor *ta = &op->t[BK_X].t, *tb = &op->t[BK_W].t, *tc = &op->t[BK_Y].t;
    int nd = tc->nd;
    int64_t M = tc->dim[nd - 2], N = tc->dim[nd - 1], K = ta->dim[nd - 1];
    size_t batches = cudnn_tensor_count(tc) / (size_t)(M * N);
    for (size_t bi = 0; bi < batches; bi++) {
        size_t rem = bi, ao = 0, bo = 0, am = 1, bm = 1;
        for (int d = nd - 3; d >= 0; d--) {
            size_t i = rem % (size_t)tc->dim[d];
            rem /= (size_t)tc->dim[d];
            if (ta->dim[d] != 1)
                ao += i * am;
            if (tb->dim[d] != 1)
                bo += i * bm;
            am *= (size_t)ta->dim[d];
            bm *= (size_t)tb->dim[d];
        }
        const double *pa = a + ao * (size_t)(M * K), *pb = b + bo * (size_t)(K * N);
        double *pc = c + bi * (size_t)(M * N);
        for (int64_t m = 0; m < M; m++)
            for (int64_t n = 0; n < N; n++) {
                double s = 0;
                for (int64_t k = 0; k < K; k++)
                    s += pa[m * K + k] * pb[k * N + n];
                pc[m * N + n] = s;
            }
    }
}

void bk_compute_pointwise(const bk_operation *op, const double *const *in, double *out)
{
    const cudnn_tensor *y = &op->t[op->out].t;
    size_t n = cudnn_tensor_count(y);
    int bwd = bk_pointwise_backward(op->pw.mode);
    int64_t inner = 1, axis_dim = 1;   /* GEN_INDEX: its axis, checked at Finalize */
    if (op->pw.mode == CUDNN_POINTWISE_GEN_INDEX) {
        for (int d = (int)op->pw.axis + 1; d < y->nd; d++)
            inner *= y->dim[d];
        axis_dim = y->dim[op->pw.axis];
    }
    for (size_t e = 0; e < n; e++) {
        double v[3] = {0, 0, 0};
        for (int k = 0; k < op->nin; k++)
            v[k] = in[k][cudnn_broadcast_index(&op->t[op->in[k]].t, y, e)];
        if (!bwd) {
            v[0] *= op->alpha;
            v[1] *= op->beta;
        }
        out[e] = bk_pointwise_apply(&op->pw, v[0], v[1], v[2], (double)(((int64_t)e / inner) % axis_dim));
    }
}

void bk_compute_reduction(const bk_operation *op, const double *x, double *y)
{
    const cudnn_tensor *tx = &op->t[BK_X].t, *ty = &op->t[BK_Y].t;
    size_t nx = cudnn_tensor_count(tx), ny = cudnn_tensor_count(ty);
    for (size_t i = 0; i < ny; i++)
        y[i] = bk_reduce_init(op->red.op);
    for (size_t e = 0; e < nx; e++) {
        size_t i = cudnn_broadcast_index(ty, tx, e);
        y[i] = bk_reduce_step(op->red.op, y[i], x[e]);
    }
    for (size_t i = 0; i < ny; i++)
        y[i] = bk_reduce_final(op->red.op, y[i], (double)nx / (double)ny);
}

/* The reference of one operation: out from the packed inputs (and, for a
 * convolution's beta, the output's values before). */
static void compute_ref(const bk_operation *op, const double *const *in, const double *old, double *out)
{
    size_t n = cudnn_tensor_count(&op->t[op->out].t);
    switch (op->kind) {
    case CUDNN_BACKEND_OPERATION_POINTWISE_DESCRIPTOR: bk_compute_pointwise(op, in, out); return;
    case CUDNN_BACKEND_OPERATION_REDUCTION_DESCRIPTOR: bk_compute_reduction(op, in[0], out); return;
    case CUDNN_BACKEND_OPERATION_MATMUL_DESCRIPTOR: matmul_ref(op, in[0], in[1], out); return;
    default: {
        cb_dnn_conv c;
        bk_conv_of(op, &c);
        memset(out, 0, n * sizeof *out);
        if (c.direction == CB_DNN_CONV_FWD)
            cudnn_ref_conv(&c, in[0], in[1], out);
        else if (c.direction == CB_DNN_CONV_BWD_DATA)
            cudnn_ref_conv(&c, out, in[1], (double *)(uintptr_t)in[0]);   /* dy: read only */
        else
            cudnn_ref_conv(&c, in[0], out, (double *)(uintptr_t)in[1]);
        for (size_t e = 0; e < n; e++)
            out[e] = op->alpha * out[e] + (op->beta != 0 && old ? op->beta * old[e] : 0);
    }
    }
}

void bk_reference(void *ctx, cbl_operand *ops)
{
    cudnn_op *o = ctx;
    const bk_exec *ex = o->extra;
    const bk_graph *g = ex->g;
    double **val = calloc((size_t)g->ntensors, sizeof *val);
    if (!val)
        return;
    for (int k = 0; k < g->ntensors; k++) {
        const bk_tensor *t = &g->tensors[k];
        size_t n = cudnn_tensor_count(&t->t);
        if (!(val[k] = calloc(n ? n : 1, sizeof(double))))
            goto done;
        if (t->by_value)
            val[k][0] = ex->value[k];
        else if (!t->is_virtual)
            for (size_t e = 0; e < n; e++)
                val[k][e] = bk_load(&t->t, ops[ex->operand[k]].before, e);
    }
    for (int i = 0; i < g->nops; i++) {
        const bk_operation *op = &g->ops[i];
        const double *in[3] = {NULL, NULL, NULL};
        for (int k = 0; k < op->nin; k++)
            in[k] = val[bk_graph_tensor(g, op->t[op->in[k]].uid)];
        int out = bk_graph_tensor(g, op->t[op->out].uid);
        const bk_tensor *t = &g->tensors[out];
        size_t n = cudnn_tensor_count(&t->t);
        double *r = malloc((n ? n : 1) * sizeof *r);
        if (!r)
            goto done;
        compute_ref(op, in, val[out], r);
        for (size_t e = 0; e < n; e++)
            r[e] = bk_round(t->t.dtype, r[e]);
        free(val[out]);
        val[out] = r;
        if (!t->is_virtual)
            for (size_t e = 0; e < n; e++)
                bk_store(&t->t, ops[ex->operand[out]].ref, e, r[e]);
    }
done:
    for (int k = 0; k < g->ntensors; k++)
        free(val[k]);
    free(val);
}
