/* cudnn_pool.c: pooling descriptors, cudnnPoolingForward and Backward.
 *
 * Output size per spatial dim: 1 + (in + 2 pad - window) / stride (floor),
 * so a window never leaves the padded input. MAX (and MAX_DETERMINISTIC)
 * takes the largest input inside the window (padding never wins; NaN wins
 * under CUDNN_PROPAGATE_NAN); its gradient goes to the first position, in
 * row-major window order, that holds the maximum. AVERAGE_COUNT_INCLUDE_
 * PADDING divides by the window's size, ..._EXCLUDE_PADDING by the number
 * of window positions inside the input. Computed in double on host copies.
 */
#include "cudnn_internal.h"

#include <math.h>
#include <stdlib.h>

struct cudnnPoolingStruct {
    uint32_t magic;
    cudnnPoolingMode_t mode;
    cudnnNanPropagation_t nan;
    int nsp;
    int window[CB_DNN_MAX_SPATIAL], pad[CB_DNN_MAX_SPATIAL], stride[CB_DNN_MAX_SPATIAL];
};

static cudnnPoolingDescriptor_t pool_of(cudnnPoolingDescriptor_t d)
{
    return d && d->magic == CUDNN_MAGIC_POOLING ? d : NULL;
}

cudnnStatus_t cudnnCreatePoolingDescriptor(cudnnPoolingDescriptor_t *desc)
{
    if (!desc)
        return cudnn_fail(CUDNN_STATUS_BAD_PARAM_NULL_POINTER, "cudnnCreatePoolingDescriptor", "NULL");
    cudnnPoolingDescriptor_t d = calloc(1, sizeof *d);
    if (!d)
        return CUDNN_STATUS_INTERNAL_ERROR_HOST_ALLOCATION_FAILED;
    d->magic = CUDNN_MAGIC_POOLING;
    *desc = d;
    return CUDNN_STATUS_SUCCESS;
}

cudnnStatus_t cudnnDestroyPoolingDescriptor(cudnnPoolingDescriptor_t d)
{
    if (!d)
        return CUDNN_STATUS_SUCCESS;
    if (!pool_of(d))
        return cudnn_fail(CUDNN_STATUS_BAD_PARAM, "cudnnDestroyPoolingDescriptor", "not a pooling descriptor");
    d->magic = 0;
    free(d);
    return CUDNN_STATUS_SUCCESS;
}

static cudnnStatus_t pool_set(cudnnPoolingDescriptor_t d, const char *fn, cudnnPoolingMode_t mode,
                              cudnnNanPropagation_t nan, int n, const int *win, const int *pad, const int *stride)
{
    if (!pool_of(d))
        return cudnn_fail(CUDNN_STATUS_BAD_PARAM, fn, "not a pooling descriptor");
    if ((unsigned)mode > CUDNN_POOLING_MAX_DETERMINISTIC || (unsigned)nan > CUDNN_PROPAGATE_NAN)
        return cudnn_fail(CUDNN_STATUS_BAD_PARAM, fn, "mode %d, NaN option %d", (int)mode, (int)nan);
    if (n < 1 || n > CB_DNN_MAX_SPATIAL)
        return cudnn_fail(CUDNN_STATUS_NOT_SUPPORTED, fn, "%d spatial dimensions", n);
    if (!win || !pad || !stride)
        return cudnn_fail(CUDNN_STATUS_BAD_PARAM_NULL_POINTER, fn, "NULL array");
    for (int i = 0; i < n; i++)
        if (win[i] <= 0 || pad[i] < 0 || stride[i] <= 0)
            return cudnn_fail(CUDNN_STATUS_BAD_PARAM, fn, "window %d pad %d stride %d", win[i], pad[i], stride[i]);
    d->mode = mode;
    d->nan = nan;
    d->nsp = n;
    for (int i = 0; i < n; i++)
        d->window[i] = win[i], d->pad[i] = pad[i], d->stride[i] = stride[i];
    return CUDNN_STATUS_SUCCESS;
}

cudnnStatus_t cudnnSetPooling2dDescriptor(cudnnPoolingDescriptor_t d, cudnnPoolingMode_t mode,
                                          cudnnNanPropagation_t maxpoolingNanOpt, int windowHeight, int windowWidth,
                                          int verticalPadding, int horizontalPadding, int verticalStride,
                                          int horizontalStride)
{
    int win[2] = {windowHeight, windowWidth}, pad[2] = {verticalPadding, horizontalPadding};
    int stride[2] = {verticalStride, horizontalStride};
    return pool_set(d, "cudnnSetPooling2dDescriptor", mode, maxpoolingNanOpt, 2, win, pad, stride);
}

cudnnStatus_t cudnnGetPooling2dDescriptor(const cudnnPoolingDescriptor_t d, cudnnPoolingMode_t *mode,
                                          cudnnNanPropagation_t *maxpoolingNanOpt, int *windowHeight,
                                          int *windowWidth, int *verticalPadding, int *horizontalPadding,
                                          int *verticalStride, int *horizontalStride)
{
    if (!pool_of(d) || d->nsp != 2 || !mode || !maxpoolingNanOpt || !windowHeight || !windowWidth ||
        !verticalPadding || !horizontalPadding || !verticalStride || !horizontalStride)
        return cudnn_fail(CUDNN_STATUS_BAD_PARAM, "cudnnGetPooling2dDescriptor", "not a 2-D pooling or NULL output");
    *mode = d->mode;
    *maxpoolingNanOpt = d->nan;
    *windowHeight = d->window[0], *windowWidth = d->window[1];
    *verticalPadding = d->pad[0], *horizontalPadding = d->pad[1];
    *verticalStride = d->stride[0], *horizontalStride = d->stride[1];
    return CUDNN_STATUS_SUCCESS;
}

cudnnStatus_t cudnnSetPoolingNdDescriptor(cudnnPoolingDescriptor_t d, const cudnnPoolingMode_t mode,
                                          const cudnnNanPropagation_t maxpoolingNanOpt, int nbDims,
                                          const int windowDimA[], const int paddingA[], const int strideA[])
{
    return pool_set(d, "cudnnSetPoolingNdDescriptor", mode, maxpoolingNanOpt, nbDims, windowDimA, paddingA, strideA);
}

cudnnStatus_t cudnnGetPoolingNdDescriptor(const cudnnPoolingDescriptor_t d, int nbDimsRequested,
                                          cudnnPoolingMode_t *mode, cudnnNanPropagation_t *maxpoolingNanOpt,
                                          int *nbDims, int windowDimA[], int paddingA[], int strideA[])
{
    if (!pool_of(d) || !d->nsp || nbDimsRequested < 0 || !mode || !maxpoolingNanOpt || !nbDims ||
        (nbDimsRequested > 0 && (!windowDimA || !paddingA || !strideA)))
        return cudnn_fail(CUDNN_STATUS_BAD_PARAM, "cudnnGetPoolingNdDescriptor", "bad descriptor or output");
    *mode = d->mode;
    *maxpoolingNanOpt = d->nan;
    *nbDims = d->nsp;
    for (int i = 0; i < nbDimsRequested && i < d->nsp; i++)
        windowDimA[i] = d->window[i], paddingA[i] = d->pad[i], strideA[i] = d->stride[i];
    return CUDNN_STATUS_SUCCESS;
}

static cudnnStatus_t pool_out_dims(cudnnPoolingDescriptor_t d, const cudnn_tensor *x, int64_t *out, const char *fn)
{
    if (!pool_of(d) || !d->nsp)
        return cudnn_fail(CUDNN_STATUS_BAD_PARAM, fn, "pooling descriptor not set");
    if (!x || x->nd != d->nsp + 2)
        return cudnn_fail(CUDNN_STATUS_BAD_PARAM, fn, "input not set or of another rank");
    out[0] = x->dim[0];
    out[1] = x->dim[1];
    for (int i = 0; i < d->nsp; i++) {
        int64_t span = x->dim[i + 2] + 2 * (int64_t)d->pad[i] - d->window[i];
        if (span < 0)
            return cudnn_fail(CUDNN_STATUS_BAD_PARAM, fn, "window %d exceeds the padded input", d->window[i]);
        out[i + 2] = 1 + span / d->stride[i];
        if (out[i + 2] > INT32_MAX)   /* the queries answer ints; no tensor holds such a dimension */
            return cudnn_fail(CUDNN_STATUS_BAD_PARAM, fn, "output dimension %d would be %lld", i + 2,
                              (long long)out[i + 2]);
    }
    return CUDNN_STATUS_SUCCESS;
}

cudnnStatus_t cudnnGetPoolingNdForwardOutputDim(const cudnnPoolingDescriptor_t poolingDesc,
                                                const cudnnTensorDescriptor_t inputTensorDesc, int nbDims,
                                                int outputTensorDimA[])
{
    const char *fn = "cudnnGetPoolingNdForwardOutputDim";
    int64_t out[CUDNN_DIM_MAX];
    const cudnn_tensor *x = cudnn_tensor_of(inputTensorDesc);
    cudnnStatus_t st = pool_out_dims(poolingDesc, x, out, fn);
    if (st != CUDNN_STATUS_SUCCESS)
        return st;
    if (!outputTensorDimA || nbDims != x->nd)
        return cudnn_fail(CUDNN_STATUS_BAD_PARAM, fn, "nbDims %d or NULL output", nbDims);
    for (int i = 0; i < nbDims; i++)
        outputTensorDimA[i] = (int)out[i];
    return CUDNN_STATUS_SUCCESS;
}

cudnnStatus_t cudnnGetPooling2dForwardOutputDim(const cudnnPoolingDescriptor_t poolingDesc,
                                                const cudnnTensorDescriptor_t inputTensorDesc, int *n, int *c, int *h,
                                                int *w)
{
    const char *fn = "cudnnGetPooling2dForwardOutputDim";
    int64_t out[CUDNN_DIM_MAX];
    cudnnStatus_t st = pool_out_dims(poolingDesc, cudnn_tensor_of(inputTensorDesc), out, fn);
    if (st != CUDNN_STATUS_SUCCESS)
        return st;
    if (!n || !c || !h || !w || poolingDesc->nsp != 2)
        return cudnn_fail(CUDNN_STATUS_BAD_PARAM, fn, "not 2-D or NULL output");
    *n = (int)out[0], *c = (int)out[1], *h = (int)out[2], *w = (int)out[3];
    return CUDNN_STATUS_SUCCESS;
}

/* ---- execution -------------------------------------------------------------------- */

/* t: x (0), y (1), dy (2), dx (3); mode[0] 0 forward / 1 backward; the
 * descriptor copied into extra. */
enum { P_X, P_Y, P_DY, P_DX };

typedef struct pool_geom {
    struct cudnnPoolingStruct d;
    int64_t planes, in_count, out_count, win_count;
} pool_geom;

/* Calls visit(ctx, in_index, inside) for each window position of output
 * o; in_index is -1 outside the input. */
static void pool_window(const pool_geom *g, const cudnn_tensor *x, const cudnn_tensor *y, int64_t o,
                        void (*visit)(void *ctx, int64_t in), void *ctx)
{
    int nsp = g->d.nsp;
    int64_t oi[CB_DNN_MAX_SPATIAL], rem = o;
    for (int d = nsp - 1; d >= 0; d--) {
        oi[d] = rem % y->dim[d + 2];
        rem /= y->dim[d + 2];
    }
    for (int64_t r = 0; r < g->win_count; r++) {
        int64_t rr = r, in = 0, mul = 1, inside = 1;
        int64_t ri[CB_DNN_MAX_SPATIAL];
        for (int d = nsp - 1; d >= 0; d--) {
            ri[d] = rr % g->d.window[d];
            rr /= g->d.window[d];
        }
        for (int d = nsp - 1; d >= 0; d--) {
            int64_t p = oi[d] * g->d.stride[d] + ri[d] - g->d.pad[d];
            inside &= p >= 0 && p < x->dim[d + 2];
            in += p * mul;
            mul *= x->dim[d + 2];
        }
        visit(ctx, inside ? in : -1);
    }
}

typedef struct pool_acc {
    const double *x;          /* the plane's input */
    int propagate;
    double best, sum;
    int64_t best_at, count;
} pool_acc;

static void acc_visit(void *vctx, int64_t in)
{
    pool_acc *a = vctx;
    if (in < 0)
        return;
    double v = a->x[in];
    a->sum += v;
    a->count++;
    if (a->best_at < 0 || v > a->best || (a->propagate && v != v && a->best == a->best)) {
        a->best = v;
        a->best_at = in;
    }
}

typedef struct pool_spread {
    double *dx;
    double share;
} pool_spread;

static void spread_visit(void *vctx, int64_t in)
{
    pool_spread *s = vctx;
    if (in >= 0)
        s->dx[in] += s->share;
}

/* Forward (into y) or backward (dx from dy) over packed planes. */
static void pool_compute(const pool_geom *g, const cudnn_tensor *xt, const cudnn_tensor *yt, const double *x,
                         const double *dy, double *out, int backward)
{
    int maxmode = g->d.mode == CUDNN_POOLING_MAX || g->d.mode == CUDNN_POOLING_MAX_DETERMINISTIC;
    for (int64_t p = 0; p < g->planes; p++) {
        const double *xp = x + p * g->in_count;
        for (int64_t o = 0; o < g->out_count; o++) {
            pool_acc a = {.x = xp, .propagate = g->d.nan == CUDNN_PROPAGATE_NAN, .best = -INFINITY, .best_at = -1};
            pool_window(g, xt, yt, o, acc_visit, &a);
            int64_t div = g->d.mode == CUDNN_POOLING_AVERAGE_COUNT_INCLUDE_PADDING ? g->win_count : a.count;
            if (!backward) {
                out[p * g->out_count + o] = maxmode ? (a.best_at < 0 ? 0 : a.best) : div ? a.sum / (double)div : 0;
                continue;
            }
            double gy = dy[p * g->out_count + o];
            double *dxp = out + p * g->in_count;
            if (maxmode) {
                if (a.best_at >= 0)
                    dxp[a.best_at] += gy;
            } else if (div) {
                pool_spread sp = {dxp, gy / (double)div};
                pool_window(g, xt, yt, o, spread_visit, &sp);
            }
        }
    }
}

static void geom_of(pool_geom *g, const cudnn_op *o)
{
    memcpy(&g->d, o->extra, sizeof g->d);
    const cudnn_tensor *x = &o->t[P_X], *y = &o->t[P_Y];
    g->planes = x->dim[0] * x->dim[1];
    g->in_count = g->out_count = g->win_count = 1;
    for (int d = 0; d < g->d.nsp; d++) {
        g->in_count *= x->dim[d + 2];
        g->out_count *= y->dim[d + 2];
        g->win_count *= g->d.window[d];
    }
}

static int pool_operands(cudnn_op *o, cbl_operand *ops)
{
    if (!o->mode[0]) {
        ops[0] = cudnn_operand(o, P_X, "x", 0);
        ops[1] = cudnn_operand(o, P_Y, "y", 1);
        return 2;
    }
    ops[0] = cudnn_operand(o, P_X, "x", 0);
    ops[1] = cudnn_operand(o, P_Y, "y", 0);
    ops[2] = cudnn_operand(o, P_DY, "dy", 0);
    ops[3] = cudnn_operand(o, P_DX, "dx", 1);
    return 4;
}

static CUresult pool_run(cudnn_op *o)
{
    pool_geom g;
    geom_of(&g, o);
    int out = o->mode[0] ? P_DX : P_Y;
    size_t n = cudnn_tensor_count(&o->t[out]);
    double *x = cudnn_op_values(o, P_X, NULL), *dy = o->mode[0] ? cudnn_op_values(o, P_DY, NULL) : NULL;
    double *res = calloc(n ? n : 1, sizeof(double));
    CUresult r = CUDA_ERROR_OUT_OF_MEMORY;
    if (x && res && (!o->mode[0] || dy)) {
        pool_compute(&g, &o->t[P_X], &o->t[P_Y], x, dy, res, o->mode[0]);
        r = cudnn_op_store(o, out, res, o->alpha, o->beta);
    }
    free(x), free(dy), free(res);
    return r;
}

/* The reference: per output, the window by its definition, on raw memory. */
static void pool_reference(void *vo, cbl_operand *ops)
{
    cudnn_op *o = vo;
    pool_geom g;
    geom_of(&g, o);
    const cudnn_tensor *xt = &o->t[P_X], *yt = &o->t[P_Y];
    int back = o->mode[0], maxmode = g.d.mode == CUDNN_POOLING_MAX || g.d.mode == CUDNN_POOLING_MAX_DETERMINISTIC;
    size_t n = cudnn_tensor_count(back ? &o->t[P_DX] : yt);
    double *res = calloc(n ? n : 1, sizeof(double));
    int64_t *at = malloc(sizeof(int64_t) * (size_t)g.win_count);   /* a window's inside positions */
    if (!res || !at) {
        free(res), free(at);
        return;
    }
    for (int64_t p = 0; p < g.planes; p++)
        for (int64_t oo = 0; oo < g.out_count; oo++) {
            double best = 0, sum = 0;
            int64_t best_at = -1, count = 0;
            int64_t nat = 0;
            int64_t rem = oo, oi[CB_DNN_MAX_SPATIAL];
            for (int d = g.d.nsp - 1; d >= 0; d--) {
                oi[d] = rem % yt->dim[d + 2];
                rem /= yt->dim[d + 2];
            }
            for (int64_t r = 0; r < g.win_count; r++) {
                int64_t rr = r, in = 0, inside = 1, ri;
                for (int d = g.d.nsp - 1, mul = 1; d >= 0; d--) {
                    ri = rr % g.d.window[d];
                    rr /= g.d.window[d];
                    int64_t q = oi[d] * g.d.stride[d] + ri - g.d.pad[d];
                    inside &= q >= 0 && q < xt->dim[d + 2];
                    in += q * mul;
                    mul *= (int)xt->dim[d + 2];
                }
                if (!inside)
                    continue;
                double v = cudnn_ref_load(xt, ops[0].before, (size_t)(p * g.in_count + in));
                sum += v;
                count++;
                at[nat++] = in;
                if (best_at < 0 || v > best || (g.d.nan == CUDNN_PROPAGATE_NAN && v != v && best == best))
                    best = v, best_at = in;
            }
            int64_t div = g.d.mode == CUDNN_POOLING_AVERAGE_COUNT_INCLUDE_PADDING ? g.win_count : count;
            if (!back) {
                res[p * g.out_count + oo] = maxmode ? (best_at < 0 ? 0 : best) : div ? sum / (double)div : 0;
                continue;
            }
            double gy = cudnn_ref_load(&o->t[P_DY], ops[2].before, (size_t)(p * g.out_count + oo));
            if (maxmode && best_at >= 0)
                res[p * g.in_count + best_at] += gy;
            else if (!maxmode && div)
                for (int64_t i = 0; i < nat; i++)
                    res[p * g.in_count + at[i]] += gy / (double)div;
        }
    cudnn_blend(back ? &o->t[P_DX] : yt, ops[back ? 3 : 1].ref, res, o->alpha, o->beta);
    free(res);
    free(at);
}

static const cudnn_routine pool_routine = {pool_run, pool_operands, pool_reference};

static cudnnStatus_t pool_submit(cudnnHandle_t h, const char *fn, int backward, cudnnPoolingDescriptor_t pd,
                                 const void *alpha, const void *beta, cudnnTensorDescriptor_t xd, const void *x,
                                 cudnnTensorDescriptor_t yd, const void *y, cudnnTensorDescriptor_t dyd,
                                 const void *dy, cudnnTensorDescriptor_t dxd, void *dx)
{
    cudnnStatus_t st = cudnn_handle_check(h);
    if (st != CUDNN_STATUS_SUCCESS)
        return cudnn_fail(st, fn, "not a handle");
    const cudnn_tensor *xt = cudnn_tensor_of(xd), *yt = cudnn_tensor_of(yd);
    int64_t out[CUDNN_DIM_MAX];
    if ((st = pool_out_dims(pd, xt, out, fn)) != CUDNN_STATUS_SUCCESS)
        return st;
    if (!yt || yt->nd != xt->nd)
        return cudnn_fail(CUDNN_STATUS_BAD_PARAM, fn, "output not set or of another rank");
    for (int d = 0; d < xt->nd; d++)
        if (yt->dim[d] != out[d])
            return cudnn_fail(CUDNN_STATUS_BAD_PARAM, fn, "output dimension %d is %lld, pooling gives %lld", d,
                              (long long)yt->dim[d], (long long)out[d]);
    if (!alpha || !beta || !x || !y)
        return cudnn_fail(CUDNN_STATUS_BAD_PARAM_NULL_POINTER, fn, "NULL factor or data");
    cudnn_op *o = cudnn_op_new(&pool_routine, fn);
    struct cudnnPoolingStruct *copy = malloc(sizeof *copy);
    if (!o || !copy) {
        free(o), free(copy);
        return CUDNN_STATUS_INTERNAL_ERROR_HOST_ALLOCATION_FAILED;
    }
    *copy = *pd;
    o->extra = copy;
    o->t[P_X] = *xt, o->t[P_Y] = *yt;
    o->addr[P_X] = (uint64_t)(uintptr_t)x, o->addr[P_Y] = (uint64_t)(uintptr_t)y;
    if (backward) {
        const cudnn_tensor *dyt = cudnn_tensor_of(dyd), *dxt = cudnn_tensor_of(dxd);
        if (!dyt || !dxt || !cudnn_same_dims(dyt, yt) || !cudnn_same_dims(dxt, xt) || !dy || !dx) {
            o->base.base.release(&o->base.base);
            return cudnn_fail(CUDNN_STATUS_BAD_PARAM, fn, "dy must have y's dims and dx x's");
        }
        o->t[P_DY] = *dyt, o->t[P_DX] = *dxt;
        o->addr[P_DY] = (uint64_t)(uintptr_t)dy, o->addr[P_DX] = (uint64_t)(uintptr_t)dx;
    }
    if (cudnn_blas_type(xt->dtype) < 0 || cudnn_blas_type(yt->dtype) < 0) {
        o->base.base.release(&o->base.base);
        return cudnn_unsupported(fn, "this data type");
    }
    o->mode[0] = backward;
    cudnnDataType_t ty = backward ? o->t[P_DX].dtype : yt->dtype;
    o->alpha = cudnn_scalar(alpha, ty);
    o->beta = cudnn_scalar(beta, ty);
    snprintf(o->note, sizeof o->note, "mode %d window %dx%d", (int)pd->mode, pd->window[0],
             pd->nsp > 1 ? pd->window[1] : 1);
    return cudnn_op_submit(h, o);
}

cudnnStatus_t cudnnPoolingForward(cudnnHandle_t handle, const cudnnPoolingDescriptor_t poolingDesc, const void *alpha,
                                  const cudnnTensorDescriptor_t xDesc, const void *x, const void *beta,
                                  const cudnnTensorDescriptor_t yDesc, void *y)
{
    return pool_submit(handle, "cudnnPoolingForward", 0, poolingDesc, alpha, beta, xDesc, x, yDesc, y, NULL, NULL,
                       NULL, NULL);
}

cudnnStatus_t cudnnPoolingBackward(cudnnHandle_t handle, const cudnnPoolingDescriptor_t poolingDesc, const void *alpha,
                                   const cudnnTensorDescriptor_t yDesc, const void *y,
                                   const cudnnTensorDescriptor_t dyDesc, const void *dy,
                                   const cudnnTensorDescriptor_t xDesc, const void *x, const void *beta,
                                   const cudnnTensorDescriptor_t dxDesc, void *dx)
{
    return pool_submit(handle, "cudnnPoolingBackward", 1, poolingDesc, alpha, beta, xDesc, x, yDesc, y, dyDesc, dy,
                       dxDesc, dx);
}
