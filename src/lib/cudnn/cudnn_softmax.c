/* cudnn_softmax.c: cudnnSoftmaxForward and Backward; LRN descriptors and
 * cudnnLRNCrossChannelForward and Backward.
 *
 * Softmax groups: CUDNN_SOFTMAX_MODE_INSTANCE over C and the spatial dims
 * of each image, MODE_CHANNEL over C at each (n, spatial) position.
 * FAST and ACCURATE give the same values here (the maximum is always
 * subtracted: FAST's overflow is not reproduced); LOG gives log-softmax.
 * Backward: dx = y (dy - sum(dy y)), LOG: dx = dy - exp(y) sum(dy).
 *
 * LRN across channels (cuDNN's definition, window of lrnN channels centred
 * on c: from c - floor((n-1)/2) to c + ceil((n-1)/2)):
 *   s[c] = k + (alpha / n) sum over the window of x^2, y = x s^-beta
 *   dx[c] = dy[c] s[c]^-beta - (2 alpha beta / n) x[c]
 *           * sum over c' whose window holds c of dy[c'] y[c'] / s[c'].
 * Computed in double on host copies.
 */
#include "cudnn_internal.h"

#include <math.h>
#include <stdlib.h>

enum { S_X, S_Y, S_DY, S_DX };
enum { K_SOFTMAX = 0, K_LRN = 1 };

/* mode[0] kind, mode[1] backward, mode[2] softmax algorithm, mode[3]
 * softmax mode; param[0..3] LRN n, alpha, beta, k. */

static void groups_of(const cudnn_op *o, int64_t *outer, int64_t *len, int64_t *inner)
{
    const cudnn_tensor *t = &o->t[S_X];
    int64_t spatial = 1;
    for (int d = 2; d < t->nd; d++)
        spatial *= t->dim[d];
    if (o->mode[0] == K_SOFTMAX && o->mode[3] == CUDNN_SOFTMAX_MODE_INSTANCE) {
        *outer = t->dim[0], *len = t->dim[1] * spatial, *inner = 1;
    } else {
        *outer = t->dim[0], *len = t->dim[1], *inner = spatial;
    }
}

/* One group of len values at stride inner: forward or backward. */
static void softmax_group(const cudnn_op *o, const double *x, const double *y, const double *dy, double *out,
                          int64_t len, int64_t inner)
{
    int log_mode = o->mode[2] == CUDNN_SOFTMAX_LOG;
    if (!o->mode[1]) {
        double m = -INFINITY, sum = 0;
        for (int64_t c = 0; c < len; c++)
            m = x[c * inner] > m ? x[c * inner] : m;
        for (int64_t c = 0; c < len; c++)
            sum += exp(x[c * inner] - m);
        for (int64_t c = 0; c < len; c++)
            out[c * inner] = log_mode ? x[c * inner] - m - log(sum) : exp(x[c * inner] - m) / sum;
        return;
    }
    double sum = 0;
    for (int64_t c = 0; c < len; c++)
        sum += log_mode ? dy[c * inner] : dy[c * inner] * y[c * inner];
    for (int64_t c = 0; c < len; c++)
        out[c * inner] = log_mode ? dy[c * inner] - exp(y[c * inner]) * sum : y[c * inner] * (dy[c * inner] - sum);
}

/* One (n, spatial) column of C channels at stride inner. */
static void lrn_column(const cudnn_op *o, const double *x, const double *y, const double *dy, double *out, int64_t C,
                       int64_t inner)
{
    int n = (int)o->param[0];
    double a = o->param[1], b = o->param[2], k = o->param[3];
    int lo = (n - 1) / 2, hi = n - 1 - lo;
    for (int64_t c = 0; c < C; c++) {
        double s = 0;
        for (int64_t j = c - lo; j <= c + hi; j++)
            if (j >= 0 && j < C)
                s += x[j * inner] * x[j * inner];
        s = k + a / n * s;
        if (!o->mode[1]) {
            out[c * inner] = x[c * inner] * pow(s, -b);
            continue;
        }
        double acc = 0;
        for (int64_t j = c - hi; j <= c + lo; j++) {   /* channels j whose window holds c */
            if (j < 0 || j >= C)
                continue;
            double sj = 0;
            for (int64_t q = j - lo; q <= j + hi; q++)
                if (q >= 0 && q < C)
                    sj += x[q * inner] * x[q * inner];
            sj = k + a / n * sj;
            acc += dy[j * inner] * y[j * inner] / sj;
        }
        out[c * inner] = dy[c * inner] * pow(s, -b) - 2 * a * b / n * x[c * inner] * acc;
    }
}

static void compute(const cudnn_op *o, const double *x, const double *y, const double *dy, double *out)
{
    int64_t outer, len, inner;
    groups_of(o, &outer, &len, &inner);
    for (int64_t g = 0; g < outer; g++)
        for (int64_t i = 0; i < inner; i++) {
            size_t base = (size_t)(g * len * inner + i);
            const double *yy = y ? y + base : NULL, *dd = dy ? dy + base : NULL;
            if (o->mode[0] == K_SOFTMAX)
                softmax_group(o, x ? x + base : NULL, yy, dd, out + base, len, inner);
            else
                lrn_column(o, x + base, yy, dd, out + base, len, inner);
        }
}

/* Which tensors each call reads: softmax forward x; softmax backward y,
 * dy; LRN forward x; LRN backward x, y, dy. */
static int reads(const cudnn_op *o, int t)
{
    if (!o->mode[1])
        return t == S_X;
    return t == S_DY || t == S_Y || (o->mode[0] == K_LRN && t == S_X);
}

static int sm_operands(cudnn_op *o, cbl_operand *ops)
{
    static const char *const names[4] = {"x", "y", "dy", "dx"};
    int n = 0;
    for (int t = S_X; t <= S_DY; t++)
        if (reads(o, t))
            ops[n++] = cudnn_operand(o, t, names[t], 0);
    int out = o->mode[1] ? S_DX : S_Y;
    ops[n] = cudnn_operand(o, out, names[out], 1);
    int64_t outer, len, inner;
    groups_of(o, &outer, &len, &inner);
    ops[n].tol_scale = 4 * cudnn_sum_scale((double)len);
    return n + 1;
}

static CUresult sm_run(cudnn_op *o)
{
    double *v[3] = {NULL, NULL, NULL};
    CUresult r = CUDA_SUCCESS;
    for (int t = S_X; t <= S_DY && r == CUDA_SUCCESS; t++)
        if (reads(o, t) && !(v[t] = cudnn_op_values(o, t, NULL)))
            r = CUDA_ERROR_OUT_OF_MEMORY;
    int out = o->mode[1] ? S_DX : S_Y;
    size_t n = cudnn_tensor_count(&o->t[out]);
    double *res = malloc((n ? n : 1) * sizeof(double));
    if (r == CUDA_SUCCESS && res) {
        compute(o, v[S_X], v[S_Y], v[S_DY], res);
        r = cudnn_op_store(o, out, res, o->alpha, o->beta);
    } else {
        r = CUDA_ERROR_OUT_OF_MEMORY;
    }
    for (int i = 0; i < 3; i++)
        free(v[i]);
    free(res);
    return r;
}

/* The reference: every input through its strides, then the definitions
 * above written once more, element by element. */
static void sm_reference(void *vo, cbl_operand *ops)
{
    cudnn_op *o = vo;
    int out = o->mode[1] ? S_DX : S_Y;
    size_t n = cudnn_tensor_count(&o->t[out]);
    double *v[3] = {NULL, NULL, NULL}, *res = malloc((n ? n : 1) * sizeof(double));
    int k = 0, ok = res != NULL;
    for (int t = S_X; t <= S_DY; t++) {
        if (!reads(o, t))
            continue;
        v[t] = malloc((n ? n : 1) * sizeof(double));
        ok &= v[t] != NULL;
        for (size_t e = 0; ok && e < n; e++)
            v[t][e] = cudnn_ref_load(&o->t[t], ops[k].before, e);
        k++;
    }
    int64_t outer, len, inner;
    groups_of(o, &outer, &len, &inner);
    for (int64_t g = 0; ok && g < outer; g++)
        for (int64_t i = 0; i < inner; i++)
            for (int64_t c = 0; c < len; c++) {
                size_t e = (size_t)((g * len + c) * inner + i), base = (size_t)(g * len * inner + i);
                double r = 0;
                if (o->mode[0] == K_SOFTMAX && !o->mode[1]) {
                    double m = -INFINITY, s = 0;
                    for (int64_t j = 0; j < len; j++)
                        m = fmax(m, v[S_X][base + (size_t)(j * inner)]);
                    for (int64_t j = 0; j < len; j++)
                        s += exp(v[S_X][base + (size_t)(j * inner)] - m);
                    r = o->mode[2] == CUDNN_SOFTMAX_LOG ? v[S_X][e] - m - log(s) : exp(v[S_X][e] - m) / s;
                } else if (o->mode[0] == K_SOFTMAX) {
                    double s = 0;
                    for (int64_t j = 0; j < len; j++) {
                        size_t q = base + (size_t)(j * inner);
                        s += o->mode[2] == CUDNN_SOFTMAX_LOG ? v[S_DY][q] : v[S_DY][q] * v[S_Y][q];
                    }
                    r = o->mode[2] == CUDNN_SOFTMAX_LOG ? v[S_DY][e] - exp(v[S_Y][e]) * s
                                                         : v[S_Y][e] * (v[S_DY][e] - s);
                } else {
                    int nn = (int)o->param[0], lo = (nn - 1) / 2, hi = nn - 1 - lo;
                    double a = o->param[1], b = o->param[2], kk = o->param[3];
#define SQSUM(ch, acc)                                                                                                 \
    do {                                                                                                               \
        acc = 0;                                                                                                       \
        for (int64_t q_ = (ch)-lo; q_ <= (ch) + hi; q_++)                                                              \
            if (q_ >= 0 && q_ < len) {                                                                                 \
                double xv_ = v[S_X][base + (size_t)(q_ * inner)];                                                      \
                acc += xv_ * xv_;                                                                                      \
            }                                                                                                          \
        acc = kk + a / nn * acc;                                                                                       \
    } while (0)
                    double s;
                    SQSUM(c, s);
                    if (!o->mode[1]) {
                        r = v[S_X][e] / pow(s, b);
                    } else {
                        double acc = 0;
                        for (int64_t j = 0; j < len; j++) {
                            if (c < j - lo || c > j + hi)
                                continue;
                            double sj;
                            SQSUM(j, sj);
                            size_t q = base + (size_t)(j * inner);
                            acc += v[S_DY][q] * v[S_Y][q] / sj;
                        }
                        r = v[S_DY][e] / pow(s, b) - 2 * a * b / nn * v[S_X][e] * acc;
                    }
#undef SQSUM
                }
                res[e] = r;
            }
    if (ok)
        cudnn_blend(&o->t[out], ops[k].ref, res, o->alpha, o->beta);
    for (int i = 0; i < 3; i++)
        free(v[i]);
    free(res);
}

static const cudnn_routine sm_routine = {sm_run, sm_operands, sm_reference};

/* tensors: x, y, dy, dx (NULL where the call has none); all of x's dims */
static cudnnStatus_t sm_submit(cudnnHandle_t h, const char *fn, int kind, int backward, const void *alpha,
                               const void *beta, const cudnnTensorDescriptor_t *d, const void *const *p, cudnn_op **keep)
{
    cudnnStatus_t st = cudnn_handle_check(h);
    if (st != CUDNN_STATUS_SUCCESS)
        return cudnn_fail(st, fn, "not a handle");
    if (!alpha || !beta)
        return cudnn_fail(CUDNN_STATUS_BAD_PARAM_NULL_POINTER, fn, "NULL alpha or beta");
    cudnn_op *o = cudnn_op_new(&sm_routine, fn);
    if (!o)
        return CUDNN_STATUS_INTERNAL_ERROR_HOST_ALLOCATION_FAILED;
    o->mode[0] = kind;
    o->mode[1] = backward;
    const cudnn_tensor *first = NULL;
    for (int t = S_X; t <= S_DX; t++) {
        int used = backward ? (t != S_X || kind == K_LRN) : (t == S_X || t == S_Y);
        if (!used)
            continue;
        const cudnn_tensor *tt = cudnn_tensor_of(d[t]);
        if (!tt || !p[t] || (first && !cudnn_same_dims(tt, first)) || cudnn_blas_type(tt->dtype) < 0 || tt->nd < 3) {
            o->base.base.release(&o->base.base);
            return cudnn_fail(tt && !p[t] ? CUDNN_STATUS_BAD_PARAM_NULL_POINTER : CUDNN_STATUS_BAD_PARAM, fn,
                              "tensor %d: not set, NULL, of another shape or type", t);
        }
        first = first ? first : tt;
        o->t[t] = *tt;
        o->addr[t] = (uint64_t)(uintptr_t)p[t];
    }
    if (kind == K_SOFTMAX || backward)   /* the grouping is read from x's slot */
        o->t[S_X] = o->t[S_X].nd ? o->t[S_X] : *first;
    int out = backward ? S_DX : S_Y;
    o->alpha = cudnn_scalar(alpha, o->t[out].dtype);
    o->beta = cudnn_scalar(beta, o->t[out].dtype);
    *keep = o;
    return CUDNN_STATUS_SUCCESS;
}

static cudnnStatus_t sm_modes(cudnn_op *o, const char *fn, cudnnSoftmaxAlgorithm_t algo, cudnnSoftmaxMode_t mode)
{
    if ((unsigned)algo > CUDNN_SOFTMAX_LOG || (unsigned)mode > CUDNN_SOFTMAX_MODE_CHANNEL) {
        o->base.base.release(&o->base.base);
        return cudnn_fail(CUDNN_STATUS_BAD_PARAM, fn, "algorithm %d, mode %d", (int)algo, (int)mode);
    }
    o->mode[2] = algo;
    o->mode[3] = mode;
    snprintf(o->note, sizeof o->note, "%s %s", algo == CUDNN_SOFTMAX_LOG ? "log" : "softmax",
             mode == CUDNN_SOFTMAX_MODE_INSTANCE ? "instance" : "channel");
    return CUDNN_STATUS_SUCCESS;
}

cudnnStatus_t cudnnSoftmaxForward(cudnnHandle_t handle, cudnnSoftmaxAlgorithm_t algo, cudnnSoftmaxMode_t mode,
                                  const void *alpha, const cudnnTensorDescriptor_t xDesc, const void *x,
                                  const void *beta, const cudnnTensorDescriptor_t yDesc, void *y)
{
    const char *fn = "cudnnSoftmaxForward";
    cudnnTensorDescriptor_t d[4] = {xDesc, yDesc, NULL, NULL};
    const void *p[4] = {x, y, NULL, NULL};
    cudnn_op *o;
    cudnnStatus_t st = sm_submit(handle, fn, K_SOFTMAX, 0, alpha, beta, d, p, &o);
    if (st != CUDNN_STATUS_SUCCESS || (st = sm_modes(o, fn, algo, mode)) != CUDNN_STATUS_SUCCESS)
        return st;
    return cudnn_op_submit(handle, o);
}

cudnnStatus_t cudnnSoftmaxBackward(cudnnHandle_t handle, cudnnSoftmaxAlgorithm_t algo, cudnnSoftmaxMode_t mode,
                                   const void *alpha, const cudnnTensorDescriptor_t yDesc, const void *y,
                                   const cudnnTensorDescriptor_t dyDesc, const void *dy, const void *beta,
                                   const cudnnTensorDescriptor_t dxDesc, void *dx)
{
    const char *fn = "cudnnSoftmaxBackward";
    cudnnTensorDescriptor_t d[4] = {NULL, yDesc, dyDesc, dxDesc};
    const void *p[4] = {NULL, y, dy, dx};
    cudnn_op *o;
    cudnnStatus_t st = sm_submit(handle, fn, K_SOFTMAX, 1, alpha, beta, d, p, &o);
    if (st != CUDNN_STATUS_SUCCESS || (st = sm_modes(o, fn, algo, mode)) != CUDNN_STATUS_SUCCESS)
        return st;
    return cudnn_op_submit(handle, o);
}

/* ---- LRN ------------------------------------------------------------------------ */

struct cudnnLRNStruct {
    uint32_t magic;
    unsigned n;
    double alpha, beta, k;
};

cudnnStatus_t cudnnCreateLRNDescriptor(cudnnLRNDescriptor_t *desc)
{
    if (!desc)
        return cudnn_fail(CUDNN_STATUS_BAD_PARAM_NULL_POINTER, "cudnnCreateLRNDescriptor", "NULL");
    cudnnLRNDescriptor_t d = calloc(1, sizeof *d);
    if (!d)
        return CUDNN_STATUS_INTERNAL_ERROR_HOST_ALLOCATION_FAILED;
    d->magic = CUDNN_MAGIC_LRN;
    d->n = 5, d->alpha = 1e-4, d->beta = 0.75, d->k = 2.0;   /* cuDNN's defaults (Krizhevsky et al.) */
    *desc = d;
    return CUDNN_STATUS_SUCCESS;
}

cudnnStatus_t cudnnDestroyLRNDescriptor(cudnnLRNDescriptor_t d)
{
    if (!d)
        return CUDNN_STATUS_SUCCESS;
    if (d->magic != CUDNN_MAGIC_LRN)
        return cudnn_fail(CUDNN_STATUS_BAD_PARAM, "cudnnDestroyLRNDescriptor", "not an LRN descriptor");
    d->magic = 0;
    free(d);
    return CUDNN_STATUS_SUCCESS;
}

cudnnStatus_t cudnnSetLRNDescriptor(cudnnLRNDescriptor_t d, unsigned lrnN, double lrnAlpha, double lrnBeta,
                                    double lrnK)
{
    if (!d || d->magic != CUDNN_MAGIC_LRN || lrnN < CUDNN_LRN_MIN_N || lrnN > CUDNN_LRN_MAX_N ||
        !(lrnK >= CUDNN_LRN_MIN_K) || !(lrnBeta >= CUDNN_LRN_MIN_BETA) || lrnAlpha != lrnAlpha)
        return cudnn_fail(CUDNN_STATUS_BAD_PARAM, "cudnnSetLRNDescriptor", "n %u alpha %g beta %g k %g", lrnN,
                          lrnAlpha, lrnBeta, lrnK);
    d->n = lrnN, d->alpha = lrnAlpha, d->beta = lrnBeta, d->k = lrnK;
    return CUDNN_STATUS_SUCCESS;
}

cudnnStatus_t cudnnGetLRNDescriptor(cudnnLRNDescriptor_t d, unsigned *lrnN, double *lrnAlpha, double *lrnBeta,
                                    double *lrnK)
{
    if (!d || d->magic != CUDNN_MAGIC_LRN || !lrnN || !lrnAlpha || !lrnBeta || !lrnK)
        return cudnn_fail(CUDNN_STATUS_BAD_PARAM, "cudnnGetLRNDescriptor", "bad descriptor or NULL output");
    *lrnN = d->n, *lrnAlpha = d->alpha, *lrnBeta = d->beta, *lrnK = d->k;
    return CUDNN_STATUS_SUCCESS;
}

static cudnnStatus_t lrn_setup(cudnn_op *o, cudnnLRNDescriptor_t d, cudnnLRNMode_t mode, const char *fn)
{
    if (!d || d->magic != CUDNN_MAGIC_LRN || mode != CUDNN_LRN_CROSS_CHANNEL_DIM1) {
        o->base.base.release(&o->base.base);
        return cudnn_fail(CUDNN_STATUS_BAD_PARAM, fn, "not an LRN descriptor or mode %d", (int)mode);
    }
    o->param[0] = d->n, o->param[1] = d->alpha, o->param[2] = d->beta, o->param[3] = d->k;
    snprintf(o->note, sizeof o->note, "n %u", d->n);
    return CUDNN_STATUS_SUCCESS;
}

cudnnStatus_t cudnnLRNCrossChannelForward(cudnnHandle_t handle, cudnnLRNDescriptor_t normDesc, cudnnLRNMode_t lrnMode,
                                          const void *alpha, const cudnnTensorDescriptor_t xDesc, const void *x,
                                          const void *beta, const cudnnTensorDescriptor_t yDesc, void *y)
{
    const char *fn = "cudnnLRNCrossChannelForward";
    cudnnTensorDescriptor_t d[4] = {xDesc, yDesc, NULL, NULL};
    const void *p[4] = {x, y, NULL, NULL};
    cudnn_op *o;
    cudnnStatus_t st = sm_submit(handle, fn, K_LRN, 0, alpha, beta, d, p, &o);
    if (st != CUDNN_STATUS_SUCCESS || (st = lrn_setup(o, normDesc, lrnMode, fn)) != CUDNN_STATUS_SUCCESS)
        return st;
    return cudnn_op_submit(handle, o);
}

cudnnStatus_t cudnnLRNCrossChannelBackward(cudnnHandle_t handle, cudnnLRNDescriptor_t normDesc,
                                           cudnnLRNMode_t lrnMode, const void *alpha,
                                           const cudnnTensorDescriptor_t yDesc, const void *y,
                                           const cudnnTensorDescriptor_t dyDesc, const void *dy,
                                           const cudnnTensorDescriptor_t xDesc, const void *x, const void *beta,
                                           const cudnnTensorDescriptor_t dxDesc, void *dx)
{
    const char *fn = "cudnnLRNCrossChannelBackward";
    cudnnTensorDescriptor_t d[4] = {xDesc, yDesc, dyDesc, dxDesc};
    const void *p[4] = {x, y, dy, dx};
    cudnn_op *o;
    cudnnStatus_t st = sm_submit(handle, fn, K_LRN, 1, alpha, beta, d, p, &o);
    if (st != CUDNN_STATUS_SUCCESS || (st = lrn_setup(o, normDesc, lrnMode, fn)) != CUDNN_STATUS_SUCCESS)
        return st;
    return cudnn_op_submit(handle, o);
}
