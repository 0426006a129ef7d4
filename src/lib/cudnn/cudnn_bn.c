/* cudnn_bn.c: batch normalisation -- cudnnDeriveBNTensorDescriptor,
 * ForwardTraining, ForwardInference, Backward and the Ex forms (with the
 * ReLU and add+ReLU epilogues), and their workspace/reserve sizes.
 *
 * cuDNN's definitions, per normalised group (SPATIAL: a channel over N and
 * the spatial dims; PER_ACTIVATION: an element over N), M members:
 *   mean = sum x / M, var = sum (x - mean)^2 / M (biased),
 *   inv = 1 / sqrt(var + epsilon),  xhat = (x - mean) inv,
 *   y = alpha act(scale xhat + bias [+ z]) + beta y,
 *   running mean = (1 - f) running mean + f mean,
 *   running var  = (1 - f) running var + f var M / (M - 1) (unbiased),
 *   saved mean = mean, saved inverse variance = inv;
 *   backward (dy masked by y > 0 under the ReLU epilogue; dz = that dy):
 *   dbias = sum dy, dscale = sum dy xhat,
 *   dx = scale inv / M (M dy - dbias - xhat dscale),
 *   each output blended with its own alpha/beta pair (data, params).
 * Computed in double on host copies; no workspace or reserve space is used
 * (the Ex backward reads y for the ReLU mask).
 */
#include "cudnn_internal.h"

#include <math.h>
#include <stdlib.h>

enum { B_X, B_Y, B_Z, B_SCALE, B_BIAS, B_RMEAN, B_RVAR, B_SMEAN, B_SINV, B_DY, B_DX, B_DSCALE, B_DBIAS, B_DZ };
enum { BN_TRAIN, BN_INFER, BN_BACKWARD };

/* mode[0] kind, mode[1] cudnnBatchNormMode_t, mode[2] cudnnBatchNormOps_t;
 * param[0] epsilon, param[1] exponential average factor, param[2..3] the
 * backward's alpha/beta of the parameter gradients; alpha/beta: data. */

static int has(const cudnn_op *o, int t) { return o->addr[t] != 0; }

typedef struct bn_shape {
    int64_t C, inner, N, P, M;   /* P groups of M members */
} bn_shape;

static bn_shape shape_of(const cudnn_op *o)
{
    const cudnn_tensor *x = &o->t[B_X];
    bn_shape s = {.C = x->dim[1], .inner = 1, .N = x->dim[0]};
    for (int d = 2; d < x->nd; d++)
        s.inner *= x->dim[d];
    int spatial = o->mode[1] != CUDNN_BATCHNORM_PER_ACTIVATION;
    s.P = spatial ? s.C : s.C * s.inner;
    s.M = spatial ? s.N * s.inner : s.N;
    return s;
}

/* the group of packed element e of x */
static int64_t group_of(const cudnn_op *o, const bn_shape *s, size_t e)
{
    return o->mode[1] != CUDNN_BATCHNORM_PER_ACTIVATION ? (int64_t)(e / (size_t)s->inner) % s->C
                                                        : (int64_t)(e % (size_t)(s->C * s->inner));
}

static int relu_ops(const cudnn_op *o) { return o->mode[2] != CUDNN_BATCHNORM_OPS_BN; }

/* ---- the computation (run) ------------------------------------------------------ */

typedef struct bn_data {
    double *v[14];   /* packed values, by tensor (NULL: absent) */
    double *out[14]; /* results, by tensor */
} bn_data;

static void bn_compute(const cudnn_op *o, bn_data *b)
{
    bn_shape s = shape_of(o);
    size_t n = (size_t)(s.N * s.C * s.inner);
    double *mean = calloc((size_t)s.P, sizeof(double)), *inv = calloc((size_t)s.P, sizeof(double));
    double *sum1 = calloc((size_t)s.P, sizeof(double)), *sum2 = calloc((size_t)s.P, sizeof(double));
    if (!mean || !inv || !sum1 || !sum2)
        goto out;
    double eps = o->param[0];
    const double *x = b->v[B_X];
    if (o->mode[0] == BN_INFER) {
        for (int64_t p = 0; p < s.P; p++) {
            mean[p] = b->v[B_RMEAN][p];
            inv[p] = 1 / sqrt(b->v[B_RVAR][p] + eps);
        }
    } else if (o->mode[0] == BN_BACKWARD && has(o, B_SMEAN) && has(o, B_SINV)) {
        for (int64_t p = 0; p < s.P; p++) {
            mean[p] = b->v[B_SMEAN][p];
            inv[p] = b->v[B_SINV][p];
        }
    } else {
        for (size_t e = 0; e < n; e++)
            sum1[group_of(o, &s, e)] += x[e];
        for (int64_t p = 0; p < s.P; p++)
            mean[p] = sum1[p] / (double)s.M;
        for (size_t e = 0; e < n; e++) {
            double d = x[e] - mean[group_of(o, &s, e)];
            sum2[group_of(o, &s, e)] += d * d;
        }
        for (int64_t p = 0; p < s.P; p++)
            inv[p] = 1 / sqrt(sum2[p] / (double)s.M + eps);
    }
    const double *scale = b->v[B_SCALE];
    if (o->mode[0] != BN_BACKWARD) {
        for (size_t e = 0; e < n; e++) {
            int64_t p = group_of(o, &s, e);
            double v = scale[p] * (x[e] - mean[p]) * inv[p] + b->v[B_BIAS][p];
            if (o->mode[2] == CUDNN_BATCHNORM_OPS_BN_ADD_ACTIVATION)
                v += b->v[B_Z][e];
            if (relu_ops(o))
                v = v > 0 ? v : 0;
            b->out[B_Y][e] = v;
        }
        if (o->mode[0] == BN_TRAIN) {
            double f = o->param[1];
            for (int64_t p = 0; p < s.P; p++) {
                double var = sum2[p] / (double)s.M, unbiased = s.M > 1 ? sum2[p] / (double)(s.M - 1) : var;
                if (has(o, B_RMEAN))
                    b->out[B_RMEAN][p] = (1 - f) * b->v[B_RMEAN][p] + f * mean[p];
                if (has(o, B_RVAR))
                    b->out[B_RVAR][p] = (1 - f) * b->v[B_RVAR][p] + f * unbiased;
                if (has(o, B_SMEAN))
                    b->out[B_SMEAN][p] = mean[p];
                if (has(o, B_SINV))
                    b->out[B_SINV][p] = inv[p];
            }
        }
        goto out;
    }
    /* backward: sum1 = dbias, sum2 = dscale */
    for (int64_t p = 0; p < s.P; p++)
        sum1[p] = sum2[p] = 0;
    double *dy = b->out[B_DX];   /* the effective dy, then dx in place */
    for (size_t e = 0; e < n; e++) {
        double g = b->v[B_DY][e];
        if (relu_ops(o) && !(b->v[B_Y][e] > 0))
            g = 0;
        dy[e] = g;
        if (b->out[B_DZ])
            b->out[B_DZ][e] = g;
        int64_t p = group_of(o, &s, e);
        sum1[p] += g;
        sum2[p] += g * (x[e] - mean[p]) * inv[p];
    }
    for (size_t e = 0; e < n; e++) {
        int64_t p = group_of(o, &s, e);
        double xhat = (x[e] - mean[p]) * inv[p];
        dy[e] = scale[p] * inv[p] / (double)s.M * ((double)s.M * dy[e] - sum1[p] - xhat * sum2[p]);
    }
    for (int64_t p = 0; p < s.P; p++) {
        b->out[B_DBIAS][p] = sum1[p];
        b->out[B_DSCALE][p] = sum2[p];
    }
out:
    free(mean), free(inv), free(sum1), free(sum2);
}

/* Which tensors the call reads and writes. */
static int reads(const cudnn_op *o, int t)
{
    if (!has(o, t))
        return 0;
    switch (o->mode[0]) {
    case BN_TRAIN: return t == B_X || t == B_SCALE || t == B_BIAS || t == B_Z || t == B_RMEAN || t == B_RVAR;
    case BN_INFER: return t == B_X || t == B_SCALE || t == B_BIAS || t == B_RMEAN || t == B_RVAR;
    default: return t == B_X || t == B_SCALE || t == B_DY || t == B_SMEAN || t == B_SINV || (t == B_Y && relu_ops(o));
    }
}

static int writes(const cudnn_op *o, int t)
{
    if (!has(o, t))
        return 0;
    switch (o->mode[0]) {
    case BN_TRAIN: return t == B_Y || t == B_RMEAN || t == B_RVAR || t == B_SMEAN || t == B_SINV;
    case BN_INFER: return t == B_Y;
    default: return t == B_DX || t == B_DSCALE || t == B_DBIAS || t == B_DZ;
    }
}

/* The blend of output t: data outputs alpha/beta; running statistics are
 * updated in place (their formula reads the old value); saved values and
 * dz are written as they are; parameter gradients use param[2], param[3]. */
static void factors(const cudnn_op *o, int t, double *a, double *b)
{
    *a = 1, *b = 0;
    if (t == B_Y || t == B_DX)
        *a = o->alpha, *b = o->beta;
    else if (t == B_DSCALE || t == B_DBIAS)
        *a = o->param[2], *b = o->param[3];
}

static const char *const names[14] = {"x", "y", "z", "scale", "bias", "running_mean", "running_var", "saved_mean",
                                      "saved_inv_var", "dy", "dx", "dscale", "dbias", "dz"};

static int bn_operands(cudnn_op *o, cbl_operand *ops)
{
    int n = 0;
    bn_shape s = shape_of(o);
    for (int t = 0; t < 14; t++) {
        if (!reads(o, t) && !writes(o, t))
            continue;
        ops[n] = cudnn_operand(o, t, names[t], writes(o, t));
        ops[n].tol_scale = 4 * cudnn_sum_scale((double)s.M);
        n++;
    }
    return n;
}

static CUresult bn_run(cudnn_op *o)
{
    bn_data b;
    memset(&b, 0, sizeof b);
    CUresult r = CUDA_SUCCESS;
    for (int t = 0; t < 14 && r == CUDA_SUCCESS; t++) {
        if (reads(o, t) && !(b.v[t] = cudnn_op_values(o, t, NULL)))
            r = CUDA_ERROR_OUT_OF_MEMORY;
        size_t n = cudnn_tensor_count(&o->t[t]);
        if (r == CUDA_SUCCESS && writes(o, t) && !(b.out[t] = calloc(n ? n : 1, sizeof(double))))
            r = CUDA_ERROR_OUT_OF_MEMORY;
    }
    if (r == CUDA_SUCCESS) {
        bn_compute(o, &b);
        for (int t = 0; t < 14 && r == CUDA_SUCCESS; t++)
            if (writes(o, t)) {
                double a, be;
                factors(o, t, &a, &be);
                r = cudnn_op_store(o, t, b.out[t], a, be);
            }
    }
    for (int t = 0; t < 14; t++)
        free(b.v[t]), free(b.out[t]);
    return r;
}

/* ---- the reference: group by group, members found by their indices ------------ */

static void bn_reference(void *vo, cbl_operand *ops)
{
    cudnn_op *o = vo;
    bn_shape s = shape_of(o);
    const void *before[14] = {0};
    void *ref[14] = {0};
    for (int t = 0, k = 0; t < 14; t++)
        if (reads(o, t) || writes(o, t)) {
            before[t] = ops[k].before;
            ref[t] = ops[k].ref;
            k++;
        }
#define LD(k_, e) cudnn_ref_load(&o->t[k_], before[k_], (size_t)(e))
    size_t n = (size_t)(s.N * s.C * s.inner);
    double *res[14] = {0};
    for (int t = 0; t < 14; t++)
        if (writes(o, t) && !(res[t] = calloc(cudnn_tensor_count(&o->t[t]), sizeof(double))))
            goto out;
    int spatial = o->mode[1] != CUDNN_BATCHNORM_PER_ACTIVATION;
    for (int64_t p = 0; p < s.P; p++) {
        /* member m of group p, as a packed index of x */
        int64_t c = spatial ? p : p / s.inner, i0 = spatial ? 0 : p % s.inner;
#define MEMBER(m) (spatial ? (((m) / s.inner) * s.C + c) * s.inner + (m) % s.inner : ((m)*s.C + c) * s.inner + i0)
        double mean, inv, sum = 0, ss = 0;
        for (int64_t m = 0; m < s.M; m++)
            sum += LD(B_X, MEMBER(m));
        double bmean = sum / (double)s.M;
        for (int64_t m = 0; m < s.M; m++) {
            double d = LD(B_X, MEMBER(m)) - bmean;
            ss += d * d;
        }
        double bvar = ss / (double)s.M;
        if (o->mode[0] == BN_INFER) {
            mean = LD(B_RMEAN, p);
            inv = 1 / sqrt(LD(B_RVAR, p) + o->param[0]);
        } else if (o->mode[0] == BN_BACKWARD && has(o, B_SMEAN) && has(o, B_SINV)) {
            mean = LD(B_SMEAN, p);
            inv = LD(B_SINV, p);
        } else {
            mean = bmean;
            inv = 1 / sqrt(bvar + o->param[0]);
        }
        double scale = LD(B_SCALE, p);
        if (o->mode[0] != BN_BACKWARD) {
            double bias = LD(B_BIAS, p);
            for (int64_t m = 0; m < s.M; m++) {
                int64_t e = MEMBER(m);
                double v = scale * (LD(B_X, e) - mean) * inv + bias;
                if (o->mode[2] == CUDNN_BATCHNORM_OPS_BN_ADD_ACTIVATION)
                    v += LD(B_Z, e);
                res[B_Y][e] = relu_ops(o) ? fmax(v, 0) : v;
            }
            if (o->mode[0] == BN_TRAIN) {
                double f = o->param[1];
                if (res[B_RMEAN])
                    res[B_RMEAN][p] = (1 - f) * LD(B_RMEAN, p) + f * bmean;
                if (res[B_RVAR])
                    res[B_RVAR][p] = (1 - f) * LD(B_RVAR, p) + f * (s.M > 1 ? ss / (double)(s.M - 1) : bvar);
                if (res[B_SMEAN])
                    res[B_SMEAN][p] = bmean;
                if (res[B_SINV])
                    res[B_SINV][p] = inv;
            }
            continue;
        }
        double db = 0, dsc = 0;
        for (int64_t m = 0; m < s.M; m++) {
            int64_t e = MEMBER(m);
            double g = LD(B_DY, e) * (relu_ops(o) && !(LD(B_Y, e) > 0) ? 0 : 1);
            db += g;
            dsc += g * (LD(B_X, e) - mean) * inv;
        }
        for (int64_t m = 0; m < s.M; m++) {
            int64_t e = MEMBER(m);
            double g = LD(B_DY, e) * (relu_ops(o) && !(LD(B_Y, e) > 0) ? 0 : 1);
            if (res[B_DZ])
                res[B_DZ][e] = g;
            double xhat = (LD(B_X, e) - mean) * inv;
            res[B_DX][e] = scale * inv * (g - db / (double)s.M - xhat * dsc / (double)s.M);
        }
        res[B_DBIAS][p] = db;
        res[B_DSCALE][p] = dsc;
#undef MEMBER
    }
    for (int t = 0; t < 14; t++)
        if (res[t]) {
            double a, b;
            factors(o, t, &a, &b);
            cudnn_blend(&o->t[t], ref[t], res[t], a, b);
        }
    (void)n;
out:
    for (int t = 0; t < 14; t++)
        free(res[t]);
#undef LD
}

static const cudnn_routine bn_routine = {bn_run, bn_operands, bn_reference};

/* ---- validation ------------------------------------------------------------------ */

static int is_param_desc(const cudnn_tensor *p, const cudnn_tensor *x, cudnnBatchNormMode_t mode)
{
    if (!p || p->nd != x->nd || p->dim[0] != 1 || p->dim[1] != x->dim[1])
        return 0;
    for (int d = 2; d < x->nd; d++)
        if (p->dim[d] != (mode == CUDNN_BATCHNORM_PER_ACTIVATION ? x->dim[d] : 1))
            return 0;
    return p->dtype == (x->dtype == CUDNN_DATA_DOUBLE ? CUDNN_DATA_DOUBLE : CUDNN_DATA_FLOAT);
}

typedef struct bn_args {
    int kind;
    cudnnBatchNormMode_t mode;
    cudnnBatchNormOps_t ops;
    const void *alpha, *beta, *alpha_p, *beta_p;
    cudnnTensorDescriptor_t xd, yd, zd, pd, dyd, dxd;
    const void *ptr[14];
    double epsilon, factor;
    cudnnActivationDescriptor_t act;
} bn_args;

static cudnnStatus_t bn_submit(cudnnHandle_t h, const char *fn, const bn_args *a)
{
    cudnnStatus_t st = cudnn_handle_check(h);
    if (st != CUDNN_STATUS_SUCCESS)
        return cudnn_fail(st, fn, "not a handle");
    if ((unsigned)a->mode > CUDNN_BATCHNORM_SPATIAL_PERSISTENT || (unsigned)a->ops > CUDNN_BATCHNORM_OPS_BN_ADD_ACTIVATION)
        return cudnn_fail(CUDNN_STATUS_BAD_PARAM, fn, "mode %d, ops %d", (int)a->mode, (int)a->ops);
    if (a->ops != CUDNN_BATCHNORM_OPS_BN &&
        (!a->act || a->act->magic != CUDNN_MAGIC_ACTIVATION || a->act->mode != CUDNN_ACTIVATION_RELU))
        return cudnn_fail(CUDNN_STATUS_NOT_SUPPORTED, fn, "the epilogue needs a RELU activation descriptor");
    const cudnn_tensor *x = cudnn_tensor_of(a->xd), *p = cudnn_tensor_of(a->pd);
    if (!x || x->nd < 3 || !is_param_desc(p, x, a->mode))
        return cudnn_fail(CUDNN_STATUS_BAD_PARAM, fn, "x not set, or the parameter descriptor does not fit x and mode");
    if (cudnn_blas_type(x->dtype) < 0 || x->dtype == CUDNN_DATA_INT8 || x->dtype == CUDNN_DATA_INT32 ||
        x->dtype == CUDNN_DATA_UINT8)
        return cudnn_unsupported(fn, "batch norm of a non-floating type");
    if (!(a->epsilon >= CUDNN_BN_MIN_EPSILON))
        return cudnn_fail(CUDNN_STATUS_BAD_PARAM, fn, "epsilon %g", a->epsilon);
    if (!a->alpha || !a->beta || (a->kind == BN_BACKWARD && (!a->alpha_p || !a->beta_p)))
        return cudnn_fail(CUDNN_STATUS_BAD_PARAM_NULL_POINTER, fn, "NULL scaling factor");
    cudnn_op *o = cudnn_op_new(&bn_routine, fn);
    if (!o)
        return CUDNN_STATUS_INTERNAL_ERROR_HOST_ALLOCATION_FAILED;
    o->mode[0] = a->kind, o->mode[1] = a->mode, o->mode[2] = a->ops;
    o->param[0] = a->epsilon, o->param[1] = a->factor;
    cudnnTensorDescriptor_t dsc[14] = {a->xd, a->yd, a->zd, a->pd, a->pd, a->pd, a->pd, a->pd, a->pd, a->dyd, a->dxd,
                                       a->pd, a->pd, a->zd};
    for (int t = 0; t < 14; t++) {
        if (!a->ptr[t])
            continue;
        const cudnn_tensor *tt = cudnn_tensor_of(dsc[t]);
        int param = t == B_SCALE || (t >= B_BIAS && t <= B_SINV) || t == B_DSCALE || t == B_DBIAS;
        int ok = tt && (param || cudnn_same_dims(tt, x));
        if (!ok || cudnn_blas_type(tt->dtype) < 0) {
            o->base.base.release(&o->base.base);
            return cudnn_fail(CUDNN_STATUS_BAD_PARAM, fn, "%s: descriptor not set or not of x's dims", names[t]);
        }
        o->t[t] = *tt;
        o->addr[t] = (uint64_t)(uintptr_t)a->ptr[t];
    }
    /* what each kind must have */
    static const int need[3][6] = {{B_X, B_Y, B_SCALE, B_BIAS, -1}, {B_X, B_Y, B_SCALE, B_BIAS, B_RMEAN, B_RVAR},
                                   {B_X, B_DY, B_DX, B_SCALE, B_DSCALE, B_DBIAS}};
    int missing = -1;
    for (int i = 0; i < 6; i++)
        if (need[a->kind][i] >= 0 && !has(o, need[a->kind][i]))
            missing = need[a->kind][i];
    if (missing < 0 && a->ops == CUDNN_BATCHNORM_OPS_BN_ADD_ACTIVATION && a->kind == BN_TRAIN && !has(o, B_Z))
        missing = B_Z;
    if (missing < 0 && a->kind == BN_BACKWARD && relu_ops(o) && !has(o, B_Y))
        missing = B_Y;
    if (missing < 0 && (has(o, B_SMEAN) != has(o, B_SINV)))
        missing = has(o, B_SMEAN) ? B_SINV : B_SMEAN;
    if (missing >= 0) {
        o->base.base.release(&o->base.base);
        return cudnn_fail(CUDNN_STATUS_BAD_PARAM_NULL_POINTER, fn, "%s is NULL", names[missing]);
    }
    cudnnDataType_t ty = x->dtype;
    o->alpha = cudnn_scalar(a->alpha, ty);
    o->beta = cudnn_scalar(a->beta, ty);
    if (a->kind == BN_BACKWARD) {
        o->param[2] = cudnn_scalar(a->alpha_p, ty);
        o->param[3] = cudnn_scalar(a->beta_p, ty);
    }
    snprintf(o->note, sizeof o->note, "%s ops %d",
             a->mode == CUDNN_BATCHNORM_PER_ACTIVATION ? "per-activation" : "spatial", (int)a->ops);
    return cudnn_op_submit(h, o);
}

/* ---- the entry points ----------------------------------------------------------------- */

cudnnStatus_t cudnnDeriveBNTensorDescriptor(cudnnTensorDescriptor_t derivedBnDesc, const cudnnTensorDescriptor_t xDesc,
                                            cudnnBatchNormMode_t mode)
{
    const char *fn = "cudnnDeriveBNTensorDescriptor";
    const cudnn_tensor *x = cudnn_tensor_of(xDesc);
    if (!x || !derivedBnDesc || derivedBnDesc->magic != CUDNN_MAGIC_TENSOR ||
        (unsigned)mode > CUDNN_BATCHNORM_SPATIAL_PERSISTENT)
        return cudnn_fail(CUDNN_STATUS_BAD_PARAM, fn, "bad descriptor or mode");
    int64_t dim[CUDNN_DIM_MAX], stride[CUDNN_DIM_MAX];
    dim[0] = 1;
    dim[1] = x->dim[1];
    for (int d = 2; d < x->nd; d++)
        dim[d] = mode == CUDNN_BATCHNORM_PER_ACTIVATION ? x->dim[d] : 1;
    cudnn_packed_strides(x->nd, dim, CUDNN_TENSOR_NCHW, stride);
    cudnnDataType_t t = x->dtype == CUDNN_DATA_DOUBLE ? CUDNN_DATA_DOUBLE : CUDNN_DATA_FLOAT;
    cudnnStatus_t st = cudnn_tensor_set(&derivedBnDesc->t, t, x->nd, dim, stride, CUDNN_TENSOR_NCHW);
    return st == CUDNN_STATUS_SUCCESS ? st : cudnn_fail(st, fn, "cannot derive");
}

cudnnStatus_t cudnnBatchNormalizationForwardTraining(cudnnHandle_t handle, cudnnBatchNormMode_t mode, const void *alpha,
                                                     const void *beta, const cudnnTensorDescriptor_t xDesc,
                                                     const void *x, const cudnnTensorDescriptor_t yDesc, void *y,
                                                     const cudnnTensorDescriptor_t bnScaleBiasMeanVarDesc,
                                                     const void *bnScale, const void *bnBias,
                                                     double exponentialAverageFactor, void *resultRunningMean,
                                                     void *resultRunningVariance, double epsilon, void *resultSaveMean,
                                                     void *resultSaveInvVariance)
{
    bn_args a = {.kind = BN_TRAIN, .mode = mode, .ops = CUDNN_BATCHNORM_OPS_BN, .alpha = alpha, .beta = beta,
                 .xd = xDesc, .yd = yDesc, .pd = bnScaleBiasMeanVarDesc, .epsilon = epsilon,
                 .factor = exponentialAverageFactor};
    a.ptr[B_X] = x, a.ptr[B_Y] = y, a.ptr[B_SCALE] = bnScale, a.ptr[B_BIAS] = bnBias;
    a.ptr[B_RMEAN] = resultRunningMean, a.ptr[B_RVAR] = resultRunningVariance;
    a.ptr[B_SMEAN] = resultSaveMean, a.ptr[B_SINV] = resultSaveInvVariance;
    if (!!resultRunningMean != !!resultRunningVariance)
        return cudnn_fail(CUDNN_STATUS_BAD_PARAM, "cudnnBatchNormalizationForwardTraining",
                          "running mean and variance: both or neither");
    return bn_submit(handle, "cudnnBatchNormalizationForwardTraining", &a);
}

cudnnStatus_t cudnnBatchNormalizationForwardTrainingEx(
    cudnnHandle_t handle, cudnnBatchNormMode_t mode, cudnnBatchNormOps_t bnOps, const void *alpha, const void *beta,
    const cudnnTensorDescriptor_t xDesc, const void *xData, const cudnnTensorDescriptor_t zDesc, const void *zData,
    const cudnnTensorDescriptor_t yDesc, void *yData, const cudnnTensorDescriptor_t bnScaleBiasMeanVarDesc,
    const void *bnScale, const void *bnBias, double exponentialAverageFactor, void *resultRunningMean,
    void *resultRunningVariance, double epsilon, void *resultSaveMean, void *resultSaveInvVariance,
    cudnnActivationDescriptor_t activationDesc, void *workspace, size_t workSpaceSizeInBytes, void *reserveSpace,
    size_t reserveSpaceSizeInBytes)
{
    (void)workspace, (void)workSpaceSizeInBytes, (void)reserveSpace, (void)reserveSpaceSizeInBytes;
    bn_args a = {.kind = BN_TRAIN, .mode = mode, .ops = bnOps, .alpha = alpha, .beta = beta, .xd = xDesc, .yd = yDesc,
                 .zd = zDesc, .pd = bnScaleBiasMeanVarDesc, .epsilon = epsilon, .factor = exponentialAverageFactor,
                 .act = activationDesc};
    a.ptr[B_X] = xData, a.ptr[B_Y] = yData, a.ptr[B_SCALE] = bnScale, a.ptr[B_BIAS] = bnBias;
    a.ptr[B_Z] = bnOps == CUDNN_BATCHNORM_OPS_BN_ADD_ACTIVATION ? zData : NULL;
    a.ptr[B_RMEAN] = resultRunningMean, a.ptr[B_RVAR] = resultRunningVariance;
    a.ptr[B_SMEAN] = resultSaveMean, a.ptr[B_SINV] = resultSaveInvVariance;
    return bn_submit(handle, "cudnnBatchNormalizationForwardTrainingEx", &a);
}

cudnnStatus_t cudnnBatchNormalizationForwardInference(cudnnHandle_t handle, cudnnBatchNormMode_t mode,
                                                      const void *alpha, const void *beta,
                                                      const cudnnTensorDescriptor_t xDesc, const void *x,
                                                      const cudnnTensorDescriptor_t yDesc, void *y,
                                                      const cudnnTensorDescriptor_t bnScaleBiasMeanVarDesc,
                                                      const void *bnScale, const void *bnBias,
                                                      const void *estimatedMean, const void *estimatedVariance,
                                                      double epsilon)
{
    bn_args a = {.kind = BN_INFER, .mode = mode, .ops = CUDNN_BATCHNORM_OPS_BN, .alpha = alpha, .beta = beta,
                 .xd = xDesc, .yd = yDesc, .pd = bnScaleBiasMeanVarDesc, .epsilon = epsilon};
    a.ptr[B_X] = x, a.ptr[B_Y] = y, a.ptr[B_SCALE] = bnScale, a.ptr[B_BIAS] = bnBias;
    a.ptr[B_RMEAN] = estimatedMean, a.ptr[B_RVAR] = estimatedVariance;
    return bn_submit(handle, "cudnnBatchNormalizationForwardInference", &a);
}

cudnnStatus_t cudnnBatchNormalizationBackward(cudnnHandle_t handle, cudnnBatchNormMode_t mode,
                                              const void *alphaDataDiff, const void *betaDataDiff,
                                              const void *alphaParamDiff, const void *betaParamDiff,
                                              const cudnnTensorDescriptor_t xDesc, const void *x,
                                              const cudnnTensorDescriptor_t dyDesc, const void *dy,
                                              const cudnnTensorDescriptor_t dxDesc, void *dx,
                                              const cudnnTensorDescriptor_t dBnScaleBiasDesc, const void *bnScale,
                                              void *dBnScaleResult, void *dBnBiasResult, double epsilon,
                                              const void *savedMean, const void *savedInvVariance)
{
    bn_args a = {.kind = BN_BACKWARD, .mode = mode, .ops = CUDNN_BATCHNORM_OPS_BN, .alpha = alphaDataDiff,
                 .beta = betaDataDiff, .alpha_p = alphaParamDiff, .beta_p = betaParamDiff, .xd = xDesc, .dyd = dyDesc,
                 .dxd = dxDesc, .pd = dBnScaleBiasDesc, .epsilon = epsilon};
    a.ptr[B_X] = x, a.ptr[B_DY] = dy, a.ptr[B_DX] = dx, a.ptr[B_SCALE] = bnScale;
    a.ptr[B_DSCALE] = dBnScaleResult, a.ptr[B_DBIAS] = dBnBiasResult;
    a.ptr[B_SMEAN] = savedMean, a.ptr[B_SINV] = savedInvVariance;
    return bn_submit(handle, "cudnnBatchNormalizationBackward", &a);
}

cudnnStatus_t cudnnBatchNormalizationBackwardEx(
    cudnnHandle_t handle, cudnnBatchNormMode_t mode, cudnnBatchNormOps_t bnOps, const void *alphaDataDiff,
    const void *betaDataDiff, const void *alphaParamDiff, const void *betaParamDiff,
    const cudnnTensorDescriptor_t xDesc, const void *xData, const cudnnTensorDescriptor_t yDesc, const void *yData,
    const cudnnTensorDescriptor_t dyDesc, const void *dyData, const cudnnTensorDescriptor_t dzDesc, void *dzData,
    const cudnnTensorDescriptor_t dxDesc, void *dxData, const cudnnTensorDescriptor_t dBnScaleBiasDesc,
    const void *bnScaleData, const void *bnBiasData, void *dBnScaleData, void *dBnBiasData, double epsilon,
    const void *savedMean, const void *savedInvVariance, cudnnActivationDescriptor_t activationDesc, void *workSpace,
    size_t workSpaceSizeInBytes, void *reserveSpace, size_t reserveSpaceSizeInBytes)
{
    (void)bnBiasData, (void)workSpace, (void)workSpaceSizeInBytes, (void)reserveSpace, (void)reserveSpaceSizeInBytes;
    bn_args a = {.kind = BN_BACKWARD, .mode = mode, .ops = bnOps, .alpha = alphaDataDiff, .beta = betaDataDiff,
                 .alpha_p = alphaParamDiff, .beta_p = betaParamDiff, .xd = xDesc, .yd = yDesc, .zd = dzDesc,
                 .dyd = dyDesc, .dxd = dxDesc, .pd = dBnScaleBiasDesc, .epsilon = epsilon, .act = activationDesc};
    a.ptr[B_X] = xData, a.ptr[B_Y] = bnOps != CUDNN_BATCHNORM_OPS_BN ? yData : NULL, a.ptr[B_DY] = dyData;
    a.ptr[B_DX] = dxData, a.ptr[B_SCALE] = bnScaleData;
    a.ptr[B_DZ] = bnOps == CUDNN_BATCHNORM_OPS_BN_ADD_ACTIVATION ? dzData : NULL;
    a.ptr[B_DSCALE] = dBnScaleData, a.ptr[B_DBIAS] = dBnBiasData;
    a.ptr[B_SMEAN] = savedMean, a.ptr[B_SINV] = savedInvVariance;
    return bn_submit(handle, "cudnnBatchNormalizationBackwardEx", &a);
}

/* No workspace and no reserve space: the backward recomputes from x (and y). */
cudnnStatus_t cudnnGetBatchNormalizationForwardTrainingExWorkspaceSize(
    cudnnHandle_t handle, cudnnBatchNormMode_t mode, cudnnBatchNormOps_t bnOps, const cudnnTensorDescriptor_t xDesc,
    const cudnnTensorDescriptor_t zDesc, const cudnnTensorDescriptor_t yDesc,
    const cudnnTensorDescriptor_t bnScaleBiasMeanVarDesc, const cudnnActivationDescriptor_t activationDesc,
    size_t *sizeInBytes)
{
    (void)mode, (void)bnOps, (void)zDesc, (void)yDesc, (void)bnScaleBiasMeanVarDesc, (void)activationDesc;
    if (cudnn_handle_check(handle) != CUDNN_STATUS_SUCCESS || !cudnn_tensor_of(xDesc) || !sizeInBytes)
        return cudnn_fail(CUDNN_STATUS_BAD_PARAM, "cudnnGetBatchNormalizationForwardTrainingExWorkspaceSize", "bad input");
    *sizeInBytes = 0;
    return CUDNN_STATUS_SUCCESS;
}

cudnnStatus_t cudnnGetBatchNormalizationBackwardExWorkspaceSize(
    cudnnHandle_t handle, cudnnBatchNormMode_t mode, cudnnBatchNormOps_t bnOps, const cudnnTensorDescriptor_t xDesc,
    const cudnnTensorDescriptor_t yDesc, const cudnnTensorDescriptor_t dyDesc, const cudnnTensorDescriptor_t dzDesc,
    const cudnnTensorDescriptor_t dxDesc, const cudnnTensorDescriptor_t dBnScaleBiasDesc,
    const cudnnActivationDescriptor_t activationDesc, size_t *sizeInBytes)
{
    (void)mode, (void)bnOps, (void)yDesc, (void)dyDesc, (void)dzDesc, (void)dxDesc, (void)dBnScaleBiasDesc;
    (void)activationDesc;
    if (cudnn_handle_check(handle) != CUDNN_STATUS_SUCCESS || !cudnn_tensor_of(xDesc) || !sizeInBytes)
        return cudnn_fail(CUDNN_STATUS_BAD_PARAM, "cudnnGetBatchNormalizationBackwardExWorkspaceSize", "bad input");
    *sizeInBytes = 0;
    return CUDNN_STATUS_SUCCESS;
}

cudnnStatus_t cudnnGetBatchNormalizationTrainingExReserveSpaceSize(cudnnHandle_t handle, cudnnBatchNormMode_t mode,
                                                                   cudnnBatchNormOps_t bnOps,
                                                                   const cudnnActivationDescriptor_t activationDesc,
                                                                   const cudnnTensorDescriptor_t xDesc,
                                                                   size_t *sizeInBytes)
{
    (void)mode, (void)bnOps, (void)activationDesc;
    if (cudnn_handle_check(handle) != CUDNN_STATUS_SUCCESS || !cudnn_tensor_of(xDesc) || !sizeInBytes)
        return cudnn_fail(CUDNN_STATUS_BAD_PARAM, "cudnnGetBatchNormalizationTrainingExReserveSpaceSize", "bad input");
    *sizeInBytes = 0;
    return CUDNN_STATUS_SUCCESS;
}
