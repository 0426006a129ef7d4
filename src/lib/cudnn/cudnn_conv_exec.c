/* cudnn_conv_exec.c: cudnnConvolutionForward, BackwardData,
 * BackwardFilter, BackwardBias and ConvolutionBiasActivationForward.
 *
 * The three convolutions validate geometry, types and pointers here, then
 * become one backend call each (cb_backend_lib.dnn_conv: oneDNN or direct
 * loops on the CPU backend). CUDNN_CONVOLUTION mirrors the filter in every
 * spatial dimension (true convolution), CUDNN_CROSS_CORRELATION does not.
 * Math types: TENSOR_OP_MATH on fp32 data rounds the inputs to TF32 as the
 * GPU's tensor cores read them (10 mantissa bits, nearest, ties away) and
 * accumulates in f32; ALLOW_CONVERSION rounds them to fp16; DEFAULT_MATH
 * and FMA_MATH compute in plain f32 (cuDNN may pick TF32 kernels under
 * DEFAULT_MATH on an A100 or later: cubridge does not, see docs/cudnn.md).
 * The algorithm argument is validated and otherwise does not matter.
 *
 * Bias gradients and the bias/activation epilogue are cubridge's own
 * loops on host copies, in double.
 */
#include "cudnn_conv.h"

#include <math.h>
#include <stdlib.h>

enum { T_X = 0, T_W = 1, T_Y = 2, T_Z = 3, T_BIAS = 4 };

static int output_of(int dir) { return dir == CB_DNN_CONV_FWD ? T_Y : dir == CB_DNN_CONV_BWD_DATA ? T_X : T_W; }

/* The number of products summed into one output element, for the tolerance. */
static double conv_terms(const cb_dnn_conv *c)
{
    double filt = 1, out = 1;
    for (int d = 0; d < c->nsp; d++) {
        filt *= (double)c->w.dim[d + 2];
        out *= (double)c->y.dim[d + 2];
    }
    switch (c->direction) {
    case CB_DNN_CONV_FWD: return (double)c->w.dim[1] * filt;
    case CB_DNN_CONV_BWD_DATA: return (double)(c->y.dim[1] / c->groups) * filt;
    default: return (double)c->x.dim[0] * out;
    }
}

static int conv_operands(cudnn_op *o, cbl_operand *ops)
{
    static const char *const names[3][3] = {{"x", "w", "y"}, {"dx", "w", "dy"}, {"x", "dw", "dy"}};
    int dir = o->conv.direction, out = output_of(dir);
    for (int i = 0; i < 3; i++)
        ops[i] = cudnn_operand(o, i, names[dir][i], i == out);
    ops[out].tol_scale = cudnn_sum_scale(conv_terms(&o->conv));
    return 3;
}

static CUresult conv_run(cudnn_op *o)
{
    cb_backend *b = o->base.backend;
    return b->lib->dnn_conv(b, &o->conv);
}

/* Host copies of the three operands as packed doubles (inputs rounded as
 * the math type rounds them; the output zero). NULL on no memory. */
static int ref_inputs(cudnn_op *o, cbl_operand *ops, double *d[3])
{
    int out = output_of(o->conv.direction);
    for (int i = 0; i < 3; i++) {
        size_t n = cudnn_tensor_count(&o->t[i]);
        d[i] = calloc(n ? n : 1, sizeof(double));
        if (!d[i])
            return 0;
        if (i == out)
            continue;
        cudnn_gather(&o->t[i], ops[i].before, d[i]);
        for (size_t k = 0; k < n; k++)
            d[i][k] = cb_blas_round_input((cb_blas_input_round)o->conv.round, d[i][k]);
    }
    return 1;
}

static void conv_reference(void *vo, cbl_operand *ops)
{
    cudnn_op *o = vo;
    int out = output_of(o->conv.direction);
    double *d[3] = {NULL, NULL, NULL};
    if (ref_inputs(o, ops, d)) {
        cudnn_ref_conv(&o->conv, d[0], d[1], d[2]);
        cudnn_blend(&o->t[out], ops[out].ref, d[out], o->alpha, o->beta);
    }
    for (int i = 0; i < 3; i++)
        free(d[i]);
}

static const cudnn_routine conv_routine = {conv_run, conv_operands, conv_reference};

/* Builds the op of one convolution (x, w, y: y is dy for the backward
 * directions, x is dx for backward data, w is dw for backward filter). */
static cudnnStatus_t conv_prepare(cudnnHandle_t h, const char *fn, int dir, const void *alpha,
                                  cudnnTensorDescriptor_t xd, const void *x, cudnnFilterDescriptor_t wd, const void *w,
                                  cudnnConvolutionDescriptor_t conv, const void *beta, cudnnTensorDescriptor_t yd,
                                  const void *y, cudnn_op **out)
{
    cudnnStatus_t st = cudnn_handle_check(h);
    if (st != CUDNN_STATUS_SUCCESS)
        return cudnn_fail(st, fn, "not a handle");
    const cudnn_tensor *xt = cudnn_tensor_of(xd), *wt = cudnn_filter_of(wd), *yt = cudnn_tensor_of(yd);
    if ((st = cudnn_conv_check(conv, xt, wt, yt, fn)) != CUDNN_STATUS_SUCCESS)
        return st;
    int accumulate, round;
    if ((st = cudnn_conv_config(conv, xt, wt, yt, &accumulate, &round, fn)) != CUDNN_STATUS_SUCCESS)
        return st;
    if (!alpha || !beta || !x || !w || !y)
        return cudnn_fail(CUDNN_STATUS_BAD_PARAM_NULL_POINTER, fn, "NULL scaling factor or data pointer");
    cudnn_op *o = cudnn_op_new(&conv_routine, fn);
    if (!o)
        return CUDNN_STATUS_INTERNAL_ERROR_HOST_ALLOCATION_FAILED;
    const cudnn_tensor *ts[3] = {xt, wt, yt};
    const void *ps[3] = {x, w, y};
    for (int i = 0; i < 3; i++) {
        o->t[i] = *ts[i];
        o->addr[i] = (uint64_t)(uintptr_t)ps[i];
    }
    cudnnDataType_t out_type = ts[output_of(dir)]->dtype;
    o->alpha = cudnn_scalar(alpha, out_type);
    o->beta = cudnn_scalar(beta, out_type);
    cb_dnn_conv *c = &o->conv;
    c->direction = dir;
    c->flip = conv->mode == CUDNN_CONVOLUTION;
    c->groups = conv->groups;
    c->nsp = conv->nsp;
    for (int d = 0; d < conv->nsp; d++) {
        c->pad[d] = conv->pad[d];
        c->stride[d] = conv->stride[d];
        c->dilation[d] = conv->dilation[d];
    }
    c->round = round;
    c->accumulate = accumulate;
    cudnn_dnn_tensor(&c->x, xt, x);
    cudnn_dnn_tensor(&c->w, wt, w);
    cudnn_dnn_tensor(&c->y, yt, y);
    c->alpha = o->alpha;
    c->beta = o->beta;
    snprintf(o->note, sizeof o->note, "%s%s g%d %lldx%lld%s%s", conv->mode == CUDNN_CONVOLUTION ? "conv" : "xcorr",
             round == CB_BLAS_ROUND_TF32 ? " tf32" : round == CB_BLAS_ROUND_F16 ? " fp16-in" : "", conv->groups,
             (long long)wt->dim[0], (long long)wt->dim[1], o->beta != 0 ? " beta" : "", o->alpha != 1 ? " alpha" : "");
    *out = o;
    return CUDNN_STATUS_SUCCESS;
}

static cudnnStatus_t algo_check(const char *fn, int algo, int count, int bad)
{
    if (algo < 0 || algo >= count)
        return cudnn_fail(CUDNN_STATUS_NOT_SUPPORTED, fn, "no algorithm %d (NVIDIA's status)", algo);
    if (algo == bad)
        return cudnn_fail(CUDNN_STATUS_NOT_SUPPORTED, fn, "algorithm %d is not implemented (nor by cuDNN)", algo);
    return CUDNN_STATUS_SUCCESS;
}

cudnnStatus_t cudnnConvolutionForward(cudnnHandle_t handle, const void *alpha, const cudnnTensorDescriptor_t xDesc,
                                      const void *x, const cudnnFilterDescriptor_t wDesc, const void *w,
                                      const cudnnConvolutionDescriptor_t convDesc, cudnnConvolutionFwdAlgo_t algo,
                                      void *workSpace, size_t workSpaceSizeInBytes, const void *beta,
                                      const cudnnTensorDescriptor_t yDesc, void *y)
{
    (void)workSpace, (void)workSpaceSizeInBytes;
    const char *fn = "cudnnConvolutionForward";
    cudnn_op *o;
    cudnnStatus_t st = conv_prepare(handle, fn, CB_DNN_CONV_FWD, alpha, xDesc, x, wDesc, w, convDesc, beta, yDesc, y, &o);
    if (st != CUDNN_STATUS_SUCCESS)
        return st;
    if ((st = algo_check(fn, (int)algo, CUDNN_CONVOLUTION_FWD_ALGO_COUNT, -1)) != CUDNN_STATUS_SUCCESS) {
        o->base.base.release(&o->base.base);
        return st;
    }
    return cudnn_op_submit(handle, o);
}

cudnnStatus_t cudnnConvolutionBackwardData(cudnnHandle_t handle, const void *alpha, const cudnnFilterDescriptor_t wDesc,
                                           const void *w, const cudnnTensorDescriptor_t dyDesc, const void *dy,
                                           const cudnnConvolutionDescriptor_t convDesc,
                                           cudnnConvolutionBwdDataAlgo_t algo, void *workSpace,
                                           size_t workSpaceSizeInBytes, const void *beta,
                                           const cudnnTensorDescriptor_t dxDesc, void *dx)
{
    (void)workSpace, (void)workSpaceSizeInBytes;
    const char *fn = "cudnnConvolutionBackwardData";
    cudnn_op *o;
    cudnnStatus_t st =
        conv_prepare(handle, fn, CB_DNN_CONV_BWD_DATA, alpha, dxDesc, dx, wDesc, w, convDesc, beta, dyDesc, dy, &o);
    if (st != CUDNN_STATUS_SUCCESS)
        return st;
    if ((st = algo_check(fn, (int)algo, CUDNN_CONVOLUTION_BWD_DATA_ALGO_COUNT, -1)) != CUDNN_STATUS_SUCCESS) {
        o->base.base.release(&o->base.base);
        return st;
    }
    return cudnn_op_submit(handle, o);
}

cudnnStatus_t cudnnConvolutionBackwardFilter(cudnnHandle_t handle, const void *alpha,
                                             const cudnnTensorDescriptor_t xDesc, const void *x,
                                             const cudnnTensorDescriptor_t dyDesc, const void *dy,
                                             const cudnnConvolutionDescriptor_t convDesc,
                                             cudnnConvolutionBwdFilterAlgo_t algo, void *workSpace,
                                             size_t workSpaceSizeInBytes, const void *beta,
                                             const cudnnFilterDescriptor_t dwDesc, void *dw)
{
    (void)workSpace, (void)workSpaceSizeInBytes;
    const char *fn = "cudnnConvolutionBackwardFilter";
    cudnn_op *o;
    cudnnStatus_t st =
        conv_prepare(handle, fn, CB_DNN_CONV_BWD_FILTER, alpha, xDesc, x, dwDesc, dw, convDesc, beta, dyDesc, dy, &o);
    if (st != CUDNN_STATUS_SUCCESS)
        return st;
    if ((st = algo_check(fn, (int)algo, CUDNN_CONVOLUTION_BWD_FILTER_ALGO_COUNT,
                         CUDNN_CONVOLUTION_BWD_FILTER_ALGO_WINOGRAD)) != CUDNN_STATUS_SUCCESS) {
        o->base.base.release(&o->base.base);
        return st;
    }
    return cudnn_op_submit(handle, o);
}

cudnnStatus_t cudnn_conv_time(cudnnHandle_t h, int dir, cudnnTensorDescriptor_t xd, const void *x,
                              cudnnFilterDescriptor_t wd, const void *w, cudnnConvolutionDescriptor_t conv,
                              cudnnTensorDescriptor_t yd, const void *y, void *workspace, size_t workspace_bytes,
                              float *ms)
{
    (void)workspace, (void)workspace_bytes;
    static const char *const fns[3] = {"cudnnFindConvolutionForwardAlgorithmEx",
                                       "cudnnFindConvolutionBackwardDataAlgorithmEx",
                                       "cudnnFindConvolutionBackwardFilterAlgorithmEx"};
    const cudnnDataType_t one_type = CUDNN_DATA_FLOAT;
    const float one_f = 1, zero_f = 0;
    const double one_d = 1, zero_d = 0;
    const cudnn_tensor *xt = cudnn_tensor_of(xd);
    int dbl = xt && xt->dtype == CUDNN_DATA_DOUBLE;
    (void)one_type;
    cudnn_op *o;
    cudnnStatus_t st = conv_prepare(h, fns[dir], dir, dbl ? (const void *)&one_d : (const void *)&one_f, xd, x, wd, w,
                                    conv, dbl ? (const void *)&zero_d : (const void *)&zero_f, yd, y, &o);
    if (st != CUDNN_STATUS_SUCCESS)
        return st;
    const cb_lib_services *s = cbl_services();
    uint64_t t0 = s->now();
    st = cudnn_op_submit_wait(h, o);
    *ms = (float)((double)(s->now() - t0) / 1e6);
    return st;
}

/* ---- bias gradient --------------------------------------------------------------- */

static int bias_operands(cudnn_op *o, cbl_operand *ops)
{
    ops[0] = cudnn_operand(o, 0, "dy", 0);
    ops[1] = cudnn_operand(o, 1, "db", 1);
    ops[1].tol_scale = cudnn_sum_scale((double)cudnn_tensor_count(&o->t[0]) / (double)o->t[0].dim[1]);
    return 2;
}

/* sum over every dimension but 1 (the channel) of packed dy */
static void channel_sums(const cudnn_tensor *dy, const double *v, double *sum)
{
    int64_t K = dy->dim[1], inner = 1;
    for (int d = 2; d < dy->nd; d++)
        inner *= dy->dim[d];
    for (int64_t k = 0; k < K; k++)
        sum[k] = 0;
    for (int64_t n = 0; n < dy->dim[0]; n++)
        for (int64_t k = 0; k < K; k++) {
            const double *p = v + (n * K + k) * inner;
            double s = 0;
            for (int64_t i = 0; i < inner; i++)
                s += p[i];
            sum[k] += s;
        }
}

static CUresult bias_run(cudnn_op *o)
{
    CUresult r = CUDA_ERROR_OUT_OF_MEMORY;
    void *hdy = cudnn_op_read(o, 0), *hdb = cudnn_op_read(o, 1);
    double *v = malloc(cudnn_tensor_count(&o->t[0]) * sizeof(double));
    double *sum = malloc((size_t)o->t[0].dim[1] * sizeof(double));
    if (hdy && hdb && v && sum) {
        cudnn_gather(&o->t[0], hdy, v);
        channel_sums(&o->t[0], v, sum);
        cudnn_blend(&o->t[1], hdb, sum, o->alpha, o->beta);
        r = cudnn_op_write(o, 1, hdb);
    }
    free(hdy), free(hdb), free(v), free(sum);
    return r;
}

/* The reference walks dy's memory directly: element (n, k, i...) at
 * n * stride0 + k * stride1 + sum of i_d * stride_d. */
static void bias_reference(void *vo, cbl_operand *ops)
{
    cudnn_op *o = vo;
    const cudnn_tensor *dy = &o->t[0];
    cb_blas_type bt = (cb_blas_type)cudnn_blas_type(dy->dtype);
    size_t es = cudnn_type_size(dy->dtype), count = cudnn_tensor_count(dy);
    int64_t K = dy->dim[1];
    double *sum = calloc((size_t)K, sizeof(double));
    if (!sum)
        return;
    for (size_t e = 0; e < count; e++) {
        size_t rem = e;
        int64_t off = 0, k = 0;
        for (int d = dy->nd - 1; d >= 0; d--) {
            int64_t i = (int64_t)(rem % (size_t)dy->dim[d]);
            rem /= (size_t)dy->dim[d];
            off += i * dy->stride[d];
            if (d == 1)
                k = i;
        }
        sum[k] += cb_blas_load(bt, (const char *)ops[0].before + off * (int64_t)es, 0).re;
    }
    cudnn_blend(&o->t[1], ops[1].ref, sum, o->alpha, o->beta);
    free(sum);
}

static const cudnn_routine bias_routine = {bias_run, bias_operands, bias_reference};

/* A bias tensor for K channels of an nd-D tensor: 1 x K x 1 ... */
static int is_bias_of(const cudnn_tensor *b, const cudnn_tensor *y)
{
    if (b->nd != y->nd || b->dim[1] != y->dim[1])
        return 0;
    for (int d = 0; d < b->nd; d++)
        if (d != 1 && b->dim[d] != 1)
            return 0;
    return 1;
}

static int float_type(cudnnDataType_t t)
{
    return t == CUDNN_DATA_FLOAT || t == CUDNN_DATA_DOUBLE || t == CUDNN_DATA_HALF || t == CUDNN_DATA_BFLOAT16;
}

cudnnStatus_t cudnnConvolutionBackwardBias(cudnnHandle_t handle, const void *alpha, const cudnnTensorDescriptor_t dyDesc,
                                           const void *dy, const void *beta, const cudnnTensorDescriptor_t dbDesc,
                                           void *db)
{
    const char *fn = "cudnnConvolutionBackwardBias";
    cudnnStatus_t st = cudnn_handle_check(handle);
    if (st != CUDNN_STATUS_SUCCESS)
        return cudnn_fail(st, fn, "not a handle");
    const cudnn_tensor *dyt = cudnn_tensor_of(dyDesc), *dbt = cudnn_tensor_of(dbDesc);
    if (!dyt || !dbt || dyt->nd < 3 || !is_bias_of(dbt, dyt))
        return cudnn_fail(CUDNN_STATUS_BAD_PARAM, fn, "db must be 1 x C x 1 ... of dy's rank");
    if (!float_type(dyt->dtype) || dbt->dtype != dyt->dtype)
        return cudnn_unsupported(fn, "bias gradients of non-floating or mixed types");
    if (!alpha || !beta || !dy || !db)
        return cudnn_fail(CUDNN_STATUS_BAD_PARAM_NULL_POINTER, fn, "NULL scaling factor or data pointer");
    cudnn_op *o = cudnn_op_new(&bias_routine, fn);
    if (!o)
        return CUDNN_STATUS_INTERNAL_ERROR_HOST_ALLOCATION_FAILED;
    o->t[0] = *dyt, o->t[1] = *dbt;
    o->addr[0] = (uint64_t)(uintptr_t)dy, o->addr[1] = (uint64_t)(uintptr_t)db;
    o->alpha = cudnn_scalar(alpha, dbt->dtype);
    o->beta = cudnn_scalar(beta, dbt->dtype);
    snprintf(o->note, sizeof o->note, "C=%lld", (long long)dyt->dim[1]);
    return cudnn_op_submit(handle, o);
}

/* ---- convolution, bias and activation ------------------------------------------------ */

/* y = act(alpha1 * conv(x, w) + alpha2 * z + bias), act RELU (mode[0] 1)
 * or IDENTITY. */
static int cba_operands(cudnn_op *o, cbl_operand *ops)
{
    ops[0] = cudnn_operand(o, T_X, "x", 0);
    ops[1] = cudnn_operand(o, T_W, "w", 0);
    ops[2] = cudnn_operand(o, T_Y, "y", 1);
    ops[3] = cudnn_operand(o, T_Z, "z", 0);
    ops[4] = cudnn_operand(o, T_BIAS, "bias", 0);
    ops[2].tol_scale = cudnn_sum_scale(conv_terms(&o->conv));
    return 5;
}

static double cba_act(const cudnn_op *o, double v) { return o->mode[0] && !(v > 0) ? 0 : v; }

/* y (packed conv result) = act(y + alpha2 z + bias[k]) */
static void cba_epilogue(const cudnn_op *o, double *y, const double *z, const double *bias)
{
    const cudnn_tensor *yt = &o->t[T_Y];
    int64_t K = yt->dim[1], inner = 1;
    for (int d = 2; d < yt->nd; d++)
        inner *= yt->dim[d];
    for (int64_t n = 0; n < yt->dim[0]; n++)
        for (int64_t k = 0; k < K; k++)
            for (int64_t i = 0; i < inner; i++) {
                size_t e = (size_t)((n * K + k) * inner + i);
                y[e] = cba_act(o, y[e] + o->alpha2 * z[e] + bias[k]);
            }
}

static CUresult cba_run(cudnn_op *o)
{
    size_t n = cudnn_tensor_count(&o->t[T_Y]);
    double *z = malloc(n * sizeof(double)), *yv = malloc(n * sizeof(double));
    double *bias = malloc((size_t)o->t[T_BIAS].dim[1] * sizeof(double));
    void *hz = cudnn_op_read(o, T_Z), *hb = cudnn_op_read(o, T_BIAS), *hy = NULL;
    CUresult r = CUDA_ERROR_OUT_OF_MEMORY;
    if (z && yv && bias && hz && hb) {
        cudnn_gather(&o->t[T_Z], hz, z);   /* before the convolution: z may be y */
        cudnn_gather(&o->t[T_BIAS], hb, bias);
        cb_backend *b = o->base.backend;
        r = b->lib->dnn_conv(b, &o->conv);   /* y = alpha1 * conv(x, w) */
        if (r == CUDA_SUCCESS && !(hy = cudnn_op_read(o, T_Y)))
            r = CUDA_ERROR_OUT_OF_MEMORY;
        if (r == CUDA_SUCCESS) {
            cudnn_gather(&o->t[T_Y], hy, yv);
            cba_epilogue(o, yv, z, bias);
            cudnn_blend(&o->t[T_Y], hy, yv, 1, 0);
            r = cudnn_op_write(o, T_Y, hy);
        }
    }
    free(z), free(yv), free(bias), free(hz), free(hb), free(hy);
    return r;
}

static void cba_reference(void *vo, cbl_operand *ops)
{
    cudnn_op *o = vo;
    double *d[3] = {NULL, NULL, NULL};
    size_t n = cudnn_tensor_count(&o->t[T_Y]);
    double *z = malloc(n * sizeof(double)), *bias = malloc((size_t)o->t[T_BIAS].dim[1] * sizeof(double));
    if (z && bias && ref_inputs(o, ops, d)) {
        cudnn_ref_conv(&o->conv, d[0], d[1], d[2]);
        cudnn_gather(&o->t[T_Z], ops[3].before, z);
        cudnn_gather(&o->t[T_BIAS], ops[4].before, bias);
        for (size_t i = 0; i < n; i++)
            d[2][i] *= o->alpha;
        cba_epilogue(o, d[2], z, bias);
        cudnn_blend(&o->t[T_Y], ops[2].ref, d[2], 1, 0);
    }
    for (int i = 0; i < 3; i++)
        free(d[i]);
    free(z), free(bias);
}

static const cudnn_routine cba_routine = {cba_run, cba_operands, cba_reference};

cudnnStatus_t cudnnConvolutionBiasActivationForward(cudnnHandle_t handle, const void *alpha1,
                                                    const cudnnTensorDescriptor_t xDesc, const void *x,
                                                    const cudnnFilterDescriptor_t wDesc, const void *w,
                                                    const cudnnConvolutionDescriptor_t convDesc,
                                                    cudnnConvolutionFwdAlgo_t algo, void *workSpace,
                                                    size_t workSpaceSizeInBytes, const void *alpha2,
                                                    const cudnnTensorDescriptor_t zDesc, const void *z,
                                                    const cudnnTensorDescriptor_t biasDesc, const void *bias,
                                                    const cudnnActivationDescriptor_t activationDesc,
                                                    const cudnnTensorDescriptor_t yDesc, void *y)
{
    (void)workSpace, (void)workSpaceSizeInBytes;
    const char *fn = "cudnnConvolutionBiasActivationForward";
    static const float zero_f = 0;
    static const double zero_d = 0;
    const cudnn_tensor *yt = cudnn_tensor_of(yDesc), *zt = cudnn_tensor_of(zDesc), *bt = cudnn_tensor_of(biasDesc);
    if (!activationDesc || activationDesc->magic != CUDNN_MAGIC_ACTIVATION)
        return cudnn_fail(CUDNN_STATUS_BAD_PARAM, fn, "not an activation descriptor");
    cudnnActivationMode_t act = activationDesc->mode;
    if (act != CUDNN_ACTIVATION_RELU && act != CUDNN_ACTIVATION_IDENTITY)
        return cudnn_fail(CUDNN_STATUS_NOT_SUPPORTED, fn, "activation %d (cuDNN fuses RELU and IDENTITY only)",
                          (int)act);
    if (!zt || !bt || !yt || !cudnn_same_dims(zt, yt) || !is_bias_of(bt, yt))
        return cudnn_fail(CUDNN_STATUS_BAD_PARAM, fn, "z must have y's dims, bias 1 x K x 1 ...");
    if (!alpha2 || !z || !bias)
        return cudnn_fail(CUDNN_STATUS_BAD_PARAM_NULL_POINTER, fn, "NULL alpha2, z or bias");
    if (!float_type(zt->dtype) || !float_type(bt->dtype))
        return cudnn_unsupported(fn, "integer z or bias");
    int dbl = yt->dtype == CUDNN_DATA_DOUBLE;
    cudnn_op *o;
    cudnnStatus_t st = conv_prepare(handle, fn, CB_DNN_CONV_FWD, alpha1, xDesc, x, wDesc, w, convDesc,
                                    dbl ? (const void *)&zero_d : (const void *)&zero_f, yDesc, y, &o);
    if (st != CUDNN_STATUS_SUCCESS)
        return st;
    if ((st = algo_check(fn, (int)algo, CUDNN_CONVOLUTION_FWD_ALGO_COUNT, -1)) != CUDNN_STATUS_SUCCESS) {
        o->base.base.release(&o->base.base);
        return st;
    }
    o->r = &cba_routine;
    o->t[T_Z] = *zt, o->t[T_BIAS] = *bt;
    o->addr[T_Z] = (uint64_t)(uintptr_t)z, o->addr[T_BIAS] = (uint64_t)(uintptr_t)bias;
    o->alpha2 = cudnn_scalar(alpha2, yt->dtype);
    o->mode[0] = act == CUDNN_ACTIVATION_RELU;
    /* the backend writes alpha1 * conv: the epilogue reads it back */
    o->conv.beta = 0;
    o->beta = 0;
    return cudnn_op_submit(handle, o);
}
