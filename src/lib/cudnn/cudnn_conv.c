/* cudnn_conv.c: convolution descriptors, output dimensions, the algorithm
 * queries and the workspace sizes.
 *
 * cubridge runs every algorithm the same way (the backend's convolution:
 * oneDNN's direct kernels, or cubridge's direct loops; docs/cudnn.md), so
 * each algorithm cuDNN defines is answered as available, deterministic and
 * needing no workspace -- except CUDNN_CONVOLUTION_BWD_FILTER_ALGO_WINOGRAD,
 * which cuDNN itself never implemented (NOT_SUPPORTED there too). Get_v7
 * reports no time (-1, a heuristic's answer); FindEx runs the convolution
 * on the caller's buffers and reports the measured time for each
 * algorithm; Find, which would need buffers of its own, reports -1.
 */
#include "cudnn_internal.h"

#include <stdlib.h>

#include "cudnn_conv.h"

/* ---- descriptors ------------------------------------------------------------ */

static cudnnConvolutionDescriptor_t conv_of(cudnnConvolutionDescriptor_t d)
{
    return d && d->magic == CUDNN_MAGIC_CONV ? d : NULL;
}

cudnnStatus_t cudnnCreateConvolutionDescriptor(cudnnConvolutionDescriptor_t *desc)
{
    if (!desc)
        return cudnn_fail(CUDNN_STATUS_BAD_PARAM_NULL_POINTER, "cudnnCreateConvolutionDescriptor", "NULL");
    cudnnConvolutionDescriptor_t d = calloc(1, sizeof *d);
    if (!d)
        return CUDNN_STATUS_INTERNAL_ERROR_HOST_ALLOCATION_FAILED;
    d->magic = CUDNN_MAGIC_CONV;
    d->groups = 1;
    d->math = CUDNN_DEFAULT_MATH;
    d->mode = CUDNN_CONVOLUTION;
    d->compute = CUDNN_DATA_FLOAT;
    *desc = d;
    return CUDNN_STATUS_SUCCESS;
}

cudnnStatus_t cudnnDestroyConvolutionDescriptor(cudnnConvolutionDescriptor_t d)
{
    if (!d)
        return CUDNN_STATUS_SUCCESS;
    if (d->magic != CUDNN_MAGIC_CONV)
        return cudnn_fail(CUDNN_STATUS_BAD_PARAM, "cudnnDestroyConvolutionDescriptor", "not a convolution descriptor");
    d->magic = 0;
    free(d);
    return CUDNN_STATUS_SUCCESS;
}

static cudnnStatus_t conv_set(cudnnConvolutionDescriptor_t d, const char *fn, int n, const int *pad,
                              const int *stride, const int *dil, cudnnConvolutionMode_t mode, cudnnDataType_t compute)
{
    if (!conv_of(d))
        return cudnn_fail(CUDNN_STATUS_BAD_PARAM, fn, "not a convolution descriptor");
    if (n < 1 || n > CB_DNN_MAX_SPATIAL)
        return cudnn_fail(CUDNN_STATUS_NOT_SUPPORTED, fn, "%d spatial dimensions", n);
    if (!pad || !stride || !dil)
        return cudnn_fail(CUDNN_STATUS_BAD_PARAM_NULL_POINTER, fn, "NULL array");
    if (mode != CUDNN_CONVOLUTION && mode != CUDNN_CROSS_CORRELATION)
        return cudnn_fail(CUDNN_STATUS_BAD_PARAM, fn, "mode %d", (int)mode);
    if ((unsigned)compute > CUDNN_DATA_COMPLEX_FP64)
        return cudnn_fail(CUDNN_STATUS_BAD_PARAM, fn, "compute type %d", (int)compute);
    for (int i = 0; i < n; i++)
        if (pad[i] < 0 || stride[i] <= 0 || dil[i] <= 0)
            return cudnn_fail(CUDNN_STATUS_BAD_PARAM, fn, "pad %d stride %d dilation %d", pad[i], stride[i], dil[i]);
    d->nsp = n;
    for (int i = 0; i < n; i++) {
        d->pad[i] = pad[i];
        d->stride[i] = stride[i];
        d->dilation[i] = dil[i];
    }
    d->mode = mode;
    d->compute = compute;
    return CUDNN_STATUS_SUCCESS;
}

cudnnStatus_t cudnnSetConvolution2dDescriptor(cudnnConvolutionDescriptor_t d, int pad_h, int pad_w, int u, int v,
                                              int dilation_h, int dilation_w, cudnnConvolutionMode_t mode,
                                              cudnnDataType_t computeType)
{
    int pad[2] = {pad_h, pad_w}, stride[2] = {u, v}, dil[2] = {dilation_h, dilation_w};
    return conv_set(d, "cudnnSetConvolution2dDescriptor", 2, pad, stride, dil, mode, computeType);
}

cudnnStatus_t cudnnGetConvolution2dDescriptor(const cudnnConvolutionDescriptor_t d, int *pad_h, int *pad_w, int *u,
                                              int *v, int *dilation_h, int *dilation_w, cudnnConvolutionMode_t *mode,
                                              cudnnDataType_t *computeType)
{
    if (!conv_of(d) || d->nsp != 2)
        return cudnn_fail(CUDNN_STATUS_BAD_PARAM, "cudnnGetConvolution2dDescriptor", "not a 2-D convolution");
    if (!pad_h || !pad_w || !u || !v || !dilation_h || !dilation_w || !mode || !computeType)
        return cudnn_fail(CUDNN_STATUS_BAD_PARAM_NULL_POINTER, "cudnnGetConvolution2dDescriptor", "NULL output");
    *pad_h = d->pad[0], *pad_w = d->pad[1], *u = d->stride[0], *v = d->stride[1];
    *dilation_h = d->dilation[0], *dilation_w = d->dilation[1];
    *mode = d->mode;
    *computeType = d->compute;
    return CUDNN_STATUS_SUCCESS;
}

cudnnStatus_t cudnnSetConvolutionNdDescriptor(cudnnConvolutionDescriptor_t d, int arrayLength, const int padA[],
                                              const int filterStrideA[], const int dilationA[],
                                              cudnnConvolutionMode_t mode, cudnnDataType_t computeType)
{
    return conv_set(d, "cudnnSetConvolutionNdDescriptor", arrayLength, padA, filterStrideA, dilationA, mode,
                    computeType);
}

cudnnStatus_t cudnnGetConvolutionNdDescriptor(const cudnnConvolutionDescriptor_t d, int arrayLengthRequested,
                                              int *arrayLength, int padA[], int strideA[], int dilationA[],
                                              cudnnConvolutionMode_t *mode, cudnnDataType_t *computeType)
{
    if (!conv_of(d) || !d->nsp)
        return cudnn_fail(CUDNN_STATUS_BAD_PARAM, "cudnnGetConvolutionNdDescriptor", "not a set convolution");
    if (arrayLengthRequested < 0 || !arrayLength || !mode || !computeType ||
        (arrayLengthRequested > 0 && (!padA || !strideA || !dilationA)))
        return cudnn_fail(CUDNN_STATUS_BAD_PARAM, "cudnnGetConvolutionNdDescriptor", "bad request or NULL output");
    *arrayLength = d->nsp;
    for (int i = 0; i < arrayLengthRequested && i < d->nsp; i++)
        padA[i] = d->pad[i], strideA[i] = d->stride[i], dilationA[i] = d->dilation[i];
    *mode = d->mode;
    *computeType = d->compute;
    return CUDNN_STATUS_SUCCESS;
}

cudnnStatus_t cudnnSetConvolutionMathType(cudnnConvolutionDescriptor_t d, cudnnMathType_t mathType)
{
    if (!conv_of(d) || (unsigned)mathType > CUDNN_FMA_MATH)
        return cudnn_fail(CUDNN_STATUS_BAD_PARAM, "cudnnSetConvolutionMathType", "bad descriptor or math type");
    d->math = mathType;
    return CUDNN_STATUS_SUCCESS;
}

cudnnStatus_t cudnnGetConvolutionMathType(cudnnConvolutionDescriptor_t d, cudnnMathType_t *mathType)
{
    if (!conv_of(d) || !mathType)
        return cudnn_fail(CUDNN_STATUS_BAD_PARAM, "cudnnGetConvolutionMathType", "bad descriptor or NULL");
    *mathType = d->math;
    return CUDNN_STATUS_SUCCESS;
}

cudnnStatus_t cudnnSetConvolutionGroupCount(cudnnConvolutionDescriptor_t d, int groupCount)
{
    if (!conv_of(d) || groupCount < 1)
        return cudnn_fail(CUDNN_STATUS_BAD_PARAM, "cudnnSetConvolutionGroupCount", "bad descriptor or count");
    d->groups = groupCount;
    return CUDNN_STATUS_SUCCESS;
}

cudnnStatus_t cudnnGetConvolutionGroupCount(cudnnConvolutionDescriptor_t d, int *groupCount)
{
    if (!conv_of(d) || !groupCount)
        return cudnn_fail(CUDNN_STATUS_BAD_PARAM, "cudnnGetConvolutionGroupCount", "bad descriptor or NULL");
    *groupCount = d->groups;
    return CUDNN_STATUS_SUCCESS;
}

cudnnStatus_t cudnnSetConvolutionReorderType(cudnnConvolutionDescriptor_t d, cudnnReorderType_t reorderType)
{
    if (!conv_of(d) || (reorderType != CUDNN_DEFAULT_REORDER && reorderType != CUDNN_NO_REORDER))
        return cudnn_fail(CUDNN_STATUS_BAD_PARAM, "cudnnSetConvolutionReorderType", "bad descriptor or type");
    d->reorder = reorderType;
    return CUDNN_STATUS_SUCCESS;
}

cudnnStatus_t cudnnGetConvolutionReorderType(cudnnConvolutionDescriptor_t d, cudnnReorderType_t *reorderType)
{
    if (!conv_of(d) || !reorderType)
        return cudnn_fail(CUDNN_STATUS_BAD_PARAM, "cudnnGetConvolutionReorderType", "bad descriptor or NULL");
    *reorderType = d->reorder;
    return CUDNN_STATUS_SUCCESS;
}

/* ---- geometry ------------------------------------------------------------------- */

cudnnStatus_t cudnn_conv_output_dims(cudnnConvolutionDescriptor_t conv, const cudnn_tensor *x, const cudnn_tensor *w,
                                     int64_t *out, const char *fn)
{
    if (!conv_of(conv) || !conv->nsp)
        return cudnn_fail(CUDNN_STATUS_BAD_PARAM, fn, "convolution descriptor not set");
    if (!x || !w)
        return cudnn_fail(CUDNN_STATUS_BAD_PARAM, fn, "tensor or filter descriptor not set");
    if (x->nd != w->nd || x->nd != conv->nsp + 2)
        return cudnn_fail(CUDNN_STATUS_BAD_PARAM, fn, "ranks: input %d, filter %d, convolution %d spatial", x->nd,
                          w->nd, conv->nsp);
    if (x->dim[1] != w->dim[1] * conv->groups || w->dim[0] % conv->groups)
        return cudnn_fail(CUDNN_STATUS_BAD_PARAM, fn, "channels: input %lld, filter %lldx%lld, %d groups",
                          (long long)x->dim[1], (long long)w->dim[0], (long long)w->dim[1], conv->groups);
    out[0] = x->dim[0];
    out[1] = w->dim[0];
    for (int d = 0; d < conv->nsp; d++) {
        int64_t span = (w->dim[d + 2] - 1) * conv->dilation[d] + 1;
        int64_t o = 1 + (x->dim[d + 2] + 2 * (int64_t)conv->pad[d] - span) / conv->stride[d];
        if (x->dim[d + 2] + 2 * (int64_t)conv->pad[d] < span || o <= 0)
            return cudnn_fail(CUDNN_STATUS_BAD_PARAM, fn, "the filter (%lld dilated) exceeds the padded input (%lld)",
                              (long long)span, (long long)(x->dim[d + 2] + 2 * (int64_t)conv->pad[d]));
        if (o > INT32_MAX)   /* the queries answer ints; no tensor holds such a dimension */
            return cudnn_fail(CUDNN_STATUS_BAD_PARAM, fn, "output dimension %d would be %lld", d + 2, (long long)o);
        out[d + 2] = o;
    }
    return CUDNN_STATUS_SUCCESS;
}

cudnnStatus_t cudnn_conv_check(cudnnConvolutionDescriptor_t conv, const cudnn_tensor *x, const cudnn_tensor *w,
                               const cudnn_tensor *y, const char *fn)
{
    int64_t out[CUDNN_DIM_MAX];
    cudnnStatus_t st = cudnn_conv_output_dims(conv, x, w, out, fn);
    if (st != CUDNN_STATUS_SUCCESS)
        return st;
    if (!y || y->nd != x->nd)
        return cudnn_fail(CUDNN_STATUS_BAD_PARAM, fn, "output descriptor not set or of another rank");
    for (int d = 0; d < x->nd; d++)
        if (y->dim[d] != out[d])
            return cudnn_fail(CUDNN_STATUS_BAD_PARAM, fn, "output dimension %d is %lld, the convolution gives %lld", d,
                              (long long)y->dim[d], (long long)out[d]);
    return CUDNN_STATUS_SUCCESS;
}

cudnnStatus_t cudnnGetConvolution2dForwardOutputDim(const cudnnConvolutionDescriptor_t convDesc,
                                                    const cudnnTensorDescriptor_t inputTensorDesc,
                                                    const cudnnFilterDescriptor_t filterDesc, int *n, int *c, int *h,
                                                    int *w)
{
    const char *fn = "cudnnGetConvolution2dForwardOutputDim";
    if (!n || !c || !h || !w)
        return cudnn_fail(CUDNN_STATUS_BAD_PARAM_NULL_POINTER, fn, "NULL output");
    const cudnn_tensor *x = cudnn_tensor_of(inputTensorDesc), *f = cudnn_filter_of(filterDesc);
    if (x && x->nd != 4)
        return cudnn_fail(CUDNN_STATUS_BAD_PARAM, fn, "input is not 4-D");
    int64_t out[CUDNN_DIM_MAX];
    cudnnStatus_t st = cudnn_conv_output_dims(convDesc, x, f, out, fn);
    if (st != CUDNN_STATUS_SUCCESS)
        return st;
    *n = (int)out[0], *c = (int)out[1], *h = (int)out[2], *w = (int)out[3];
    return CUDNN_STATUS_SUCCESS;
}

cudnnStatus_t cudnnGetConvolutionNdForwardOutputDim(const cudnnConvolutionDescriptor_t convDesc,
                                                    const cudnnTensorDescriptor_t inputTensorDesc,
                                                    const cudnnFilterDescriptor_t filterDesc, int nbDims,
                                                    int tensorOuputDimA[])
{
    const char *fn = "cudnnGetConvolutionNdForwardOutputDim";
    if (!tensorOuputDimA)
        return cudnn_fail(CUDNN_STATUS_BAD_PARAM_NULL_POINTER, fn, "NULL output");
    const cudnn_tensor *x = cudnn_tensor_of(inputTensorDesc);
    int64_t out[CUDNN_DIM_MAX];
    cudnnStatus_t st = cudnn_conv_output_dims(convDesc, x, cudnn_filter_of(filterDesc), out, fn);
    if (st != CUDNN_STATUS_SUCCESS)
        return st;
    if (nbDims != x->nd)
        return cudnn_fail(CUDNN_STATUS_BAD_PARAM, fn, "nbDims %d for a %d-D input", nbDims, x->nd);
    for (int d = 0; d < nbDims; d++)
        tensorOuputDimA[d] = (int)out[d];
    return CUDNN_STATUS_SUCCESS;
}

/* ---- types and math --------------------------------------------------------------- */

cudnnStatus_t cudnn_conv_config(cudnnConvolutionDescriptor_t conv, const cudnn_tensor *x, const cudnn_tensor *w,
                                const cudnn_tensor *y, int *accumulate, int *round, const char *fn)
{
    cudnnDataType_t xt = x->dtype, wt = w->dtype, yt = y->dtype, ct = conv->compute;
    int ok = 0;
    if (xt == wt && xt == yt && (xt == CUDNN_DATA_FLOAT || xt == CUDNN_DATA_DOUBLE))
        ok = ct == xt;                                               /* FLOAT_CONFIG, DOUBLE_CONFIG */
    else if (xt == wt && xt == yt && (xt == CUDNN_DATA_HALF || xt == CUDNN_DATA_BFLOAT16))
        ok = ct == xt || ct == CUDNN_DATA_FLOAT;                     /* TRUE_ and PSEUDO_HALF / BFLOAT16 */
    else if ((xt == CUDNN_DATA_INT8 || xt == CUDNN_DATA_UINT8) && wt == CUDNN_DATA_INT8)
        ok = ct == CUDNN_DATA_INT32 && (yt == CUDNN_DATA_INT8 || yt == CUDNN_DATA_FLOAT || yt == CUDNN_DATA_INT32);
    if (!ok) {
        char why[160];
        snprintf(why, sizeof why, "data types x %d, w %d, y %d with compute type %d (no cuDNN configuration)", (int)xt,
                 (int)wt, (int)yt, (int)ct);
        cbl_unsupported_mode(CUDNN_LIB, fn, why);
        return cudnn_fail(CUDNN_STATUS_NOT_SUPPORTED, fn, "%s", why);
    }
    *accumulate = ct == CUDNN_DATA_DOUBLE ? CB_BLAS_F64 : ct == CUDNN_DATA_INT32 ? CB_BLAS_I32 : CB_BLAS_F32;
    *round = CB_BLAS_ROUND_NONE;
    if (xt == CUDNN_DATA_FLOAT && conv->math == CUDNN_TENSOR_OP_MATH)
        *round = CB_BLAS_ROUND_TF32;   /* fp32 on tensor cores: TF32 inputs, f32 accumulation */
    else if (xt == CUDNN_DATA_FLOAT && conv->math == CUDNN_TENSOR_OP_MATH_ALLOW_CONVERSION)
        *round = CB_BLAS_ROUND_F16;    /* "may down-convert to fp16": modelled as always */
    return CUDNN_STATUS_SUCCESS;
}

/* ---- algorithm queries -------------------------------------------------------------- */

static cudnnStatus_t algo_list(cudnnHandle_t h, const char *fn, int count_all, int bad_algo, int requested,
                               int *returned, void *perf, size_t perf_size, cudnnMathType_t math, float time)
{
    cudnnStatus_t st = cudnn_handle_check(h);
    if (st != CUDNN_STATUS_SUCCESS)
        return cudnn_fail(st, fn, "not a handle");
    if (!returned || !perf || requested <= 0)
        return cudnn_fail(CUDNN_STATUS_BAD_PARAM, fn, "requested %d, NULL results", requested);
    /* every perf struct of cuDNN is {algo, status, time, memory, determinism, mathType, reserved[3]} */
    int n = 0;
    for (int a = 0; a < count_all && n < requested; a++) {
        cudnnConvolutionFwdAlgoPerf_t p;
        memset(&p, 0, sizeof p);
        p.algo = (cudnnConvolutionFwdAlgo_t)a;
        p.status = (cudnnStatus_t)cudnn_status_out(a == bad_algo ? CUDNN_STATUS_NOT_SUPPORTED : CUDNN_STATUS_SUCCESS);
        p.time = a == bad_algo ? -1.0f : time;
        p.memory = 0;
        p.determinism = CUDNN_DETERMINISTIC;
        p.mathType = math;
        memcpy((char *)perf + (size_t)n * perf_size, &p, perf_size);
        n++;
    }
    *returned = n;
    return CUDNN_STATUS_SUCCESS;
}

#define MAXCOUNT(name, count)                                                                                          \
    cudnnStatus_t name(cudnnHandle_t handle, int *count_out)                                                          \
    {                                                                                                                  \
        cudnnStatus_t st = cudnn_handle_check(handle);                                                                 \
        if (st != CUDNN_STATUS_SUCCESS || !count_out)                                                                  \
            return cudnn_fail(CUDNN_STATUS_BAD_PARAM, #name, "bad handle or NULL count");                              \
        *count_out = count;                                                                                            \
        return CUDNN_STATUS_SUCCESS;                                                                                   \
    }
/* cuDNN 9.14 answers 10 for the forward count (the H200), above the header's
 * CUDNN_CONVOLUTION_FWD_ALGO_COUNT (8); the lists below still hold at most 8. */
#define CUDNN_FWD_MAX_COUNT_9 10
MAXCOUNT(cudnnGetConvolutionForwardAlgorithmMaxCount, CUDNN_FWD_MAX_COUNT_9)
MAXCOUNT(cudnnGetConvolutionBackwardDataAlgorithmMaxCount, CUDNN_CONVOLUTION_BWD_DATA_ALGO_COUNT)
MAXCOUNT(cudnnGetConvolutionBackwardFilterAlgorithmMaxCount, CUDNN_CONVOLUTION_BWD_FILTER_ALGO_COUNT)

/* Checks the geometry and types of a query (the same as the call's). */
static cudnnStatus_t query_check(cudnnConvolutionDescriptor_t conv, cudnnTensorDescriptor_t x,
                                 cudnnFilterDescriptor_t w, cudnnTensorDescriptor_t y, const char *fn)
{
    const cudnn_tensor *xt = cudnn_tensor_of(x), *wt = cudnn_filter_of(w), *yt = cudnn_tensor_of(y);
    cudnnStatus_t st = cudnn_conv_check(conv, xt, wt, yt, fn);
    if (st != CUDNN_STATUS_SUCCESS)
        return st;
    int acc, round;
    return cudnn_conv_config(conv, xt, wt, yt, &acc, &round, fn);
}

cudnnStatus_t cudnnGetConvolutionForwardAlgorithm_v7(cudnnHandle_t handle, const cudnnTensorDescriptor_t srcDesc,
                                                     const cudnnFilterDescriptor_t filterDesc,
                                                     const cudnnConvolutionDescriptor_t convDesc,
                                                     const cudnnTensorDescriptor_t destDesc,
                                                     const int requestedAlgoCount, int *returnedAlgoCount,
                                                     cudnnConvolutionFwdAlgoPerf_t *perfResults)
{
    const char *fn = "cudnnGetConvolutionForwardAlgorithm_v7";
    cudnnStatus_t st = query_check(convDesc, srcDesc, filterDesc, destDesc, fn);
    if (st != CUDNN_STATUS_SUCCESS)
        return st;
    return algo_list(handle, fn, CUDNN_CONVOLUTION_FWD_ALGO_COUNT, -1, requestedAlgoCount, returnedAlgoCount,
                     perfResults, sizeof *perfResults, convDesc->math, -1.0f);
}

cudnnStatus_t cudnnFindConvolutionForwardAlgorithm(cudnnHandle_t handle, const cudnnTensorDescriptor_t xDesc,
                                                   const cudnnFilterDescriptor_t wDesc,
                                                   const cudnnConvolutionDescriptor_t convDesc,
                                                   const cudnnTensorDescriptor_t yDesc, const int requestedAlgoCount,
                                                   int *returnedAlgoCount, cudnnConvolutionFwdAlgoPerf_t *perfResults)
{
    const char *fn = "cudnnFindConvolutionForwardAlgorithm";
    cudnnStatus_t st = query_check(convDesc, xDesc, wDesc, yDesc, fn);
    if (st != CUDNN_STATUS_SUCCESS)
        return st;
    return algo_list(handle, fn, CUDNN_CONVOLUTION_FWD_ALGO_COUNT, -1, requestedAlgoCount, returnedAlgoCount,
                     perfResults, sizeof *perfResults, convDesc->math, -1.0f);
}

cudnnStatus_t cudnnFindConvolutionForwardAlgorithmEx(cudnnHandle_t handle, const cudnnTensorDescriptor_t xDesc,
                                                     const void *x, const cudnnFilterDescriptor_t wDesc, const void *w,
                                                     const cudnnConvolutionDescriptor_t convDesc,
                                                     const cudnnTensorDescriptor_t yDesc, void *y,
                                                     const int requestedAlgoCount, int *returnedAlgoCount,
                                                     cudnnConvolutionFwdAlgoPerf_t *perfResults, void *workSpace,
                                                     size_t workSpaceSizeInBytes)
{
    const char *fn = "cudnnFindConvolutionForwardAlgorithmEx";
    cudnnStatus_t st = query_check(convDesc, xDesc, wDesc, yDesc, fn);
    if (st != CUDNN_STATUS_SUCCESS)
        return st;
    float ms = 0;
    st = cudnn_conv_time(handle, CB_DNN_CONV_FWD, xDesc, x, wDesc, w, convDesc, yDesc, y, workSpace,
                         workSpaceSizeInBytes, &ms);
    if (st != CUDNN_STATUS_SUCCESS)
        return st;
    return algo_list(handle, fn, CUDNN_CONVOLUTION_FWD_ALGO_COUNT, -1, requestedAlgoCount, returnedAlgoCount,
                     perfResults, sizeof *perfResults, convDesc->math, ms);
}

cudnnStatus_t cudnnGetConvolutionBackwardDataAlgorithm_v7(cudnnHandle_t handle, const cudnnFilterDescriptor_t filterDesc,
                                                          const cudnnTensorDescriptor_t diffDesc,
                                                          const cudnnConvolutionDescriptor_t convDesc,
                                                          const cudnnTensorDescriptor_t gradDesc,
                                                          const int requestedAlgoCount, int *returnedAlgoCount,
                                                          cudnnConvolutionBwdDataAlgoPerf_t *perfResults)
{
    const char *fn = "cudnnGetConvolutionBackwardDataAlgorithm_v7";
    cudnnStatus_t st = query_check(convDesc, gradDesc, filterDesc, diffDesc, fn);
    if (st != CUDNN_STATUS_SUCCESS)
        return st;
    return algo_list(handle, fn, CUDNN_CONVOLUTION_BWD_DATA_ALGO_COUNT, -1, requestedAlgoCount, returnedAlgoCount,
                     perfResults, sizeof *perfResults, convDesc->math, -1.0f);
}

cudnnStatus_t cudnnFindConvolutionBackwardDataAlgorithm(cudnnHandle_t handle, const cudnnFilterDescriptor_t wDesc,
                                                        const cudnnTensorDescriptor_t dyDesc,
                                                        const cudnnConvolutionDescriptor_t convDesc,
                                                        const cudnnTensorDescriptor_t dxDesc,
                                                        const int requestedAlgoCount, int *returnedAlgoCount,
                                                        cudnnConvolutionBwdDataAlgoPerf_t *perfResults)
{
    const char *fn = "cudnnFindConvolutionBackwardDataAlgorithm";
    cudnnStatus_t st = query_check(convDesc, dxDesc, wDesc, dyDesc, fn);
    if (st != CUDNN_STATUS_SUCCESS)
        return st;
    return algo_list(handle, fn, CUDNN_CONVOLUTION_BWD_DATA_ALGO_COUNT, -1, requestedAlgoCount, returnedAlgoCount,
                     perfResults, sizeof *perfResults, convDesc->math, -1.0f);
}

cudnnStatus_t cudnnFindConvolutionBackwardDataAlgorithmEx(cudnnHandle_t handle, const cudnnFilterDescriptor_t wDesc,
                                                          const void *w, const cudnnTensorDescriptor_t dyDesc,
                                                          const void *dy, const cudnnConvolutionDescriptor_t convDesc,
                                                          const cudnnTensorDescriptor_t dxDesc, void *dx,
                                                          const int requestedAlgoCount, int *returnedAlgoCount,
                                                          cudnnConvolutionBwdDataAlgoPerf_t *perfResults,
                                                          void *workSpace, size_t workSpaceSizeInBytes)
{
    const char *fn = "cudnnFindConvolutionBackwardDataAlgorithmEx";
    cudnnStatus_t st = query_check(convDesc, dxDesc, wDesc, dyDesc, fn);
    if (st != CUDNN_STATUS_SUCCESS)
        return st;
    float ms = 0;
    st = cudnn_conv_time(handle, CB_DNN_CONV_BWD_DATA, dxDesc, dx, wDesc, w, convDesc, dyDesc, dy, workSpace,
                         workSpaceSizeInBytes, &ms);
    if (st != CUDNN_STATUS_SUCCESS)
        return st;
    return algo_list(handle, fn, CUDNN_CONVOLUTION_BWD_DATA_ALGO_COUNT, -1, requestedAlgoCount, returnedAlgoCount,
                     perfResults, sizeof *perfResults, convDesc->math, ms);
}

cudnnStatus_t cudnnGetConvolutionBackwardFilterAlgorithm_v7(cudnnHandle_t handle, const cudnnTensorDescriptor_t srcDesc,
                                                            const cudnnTensorDescriptor_t diffDesc,
                                                            const cudnnConvolutionDescriptor_t convDesc,
                                                            const cudnnFilterDescriptor_t gradDesc,
                                                            const int requestedAlgoCount, int *returnedAlgoCount,
                                                            cudnnConvolutionBwdFilterAlgoPerf_t *perfResults)
{
    const char *fn = "cudnnGetConvolutionBackwardFilterAlgorithm_v7";
    cudnnStatus_t st = query_check(convDesc, srcDesc, gradDesc, diffDesc, fn);
    if (st != CUDNN_STATUS_SUCCESS)
        return st;
    return algo_list(handle, fn, CUDNN_CONVOLUTION_BWD_FILTER_ALGO_COUNT, CUDNN_CONVOLUTION_BWD_FILTER_ALGO_WINOGRAD,
                     requestedAlgoCount, returnedAlgoCount, perfResults, sizeof *perfResults, convDesc->math, -1.0f);
}

cudnnStatus_t cudnnFindConvolutionBackwardFilterAlgorithm(cudnnHandle_t handle, const cudnnTensorDescriptor_t xDesc,
                                                          const cudnnTensorDescriptor_t dyDesc,
                                                          const cudnnConvolutionDescriptor_t convDesc,
                                                          const cudnnFilterDescriptor_t dwDesc,
                                                          const int requestedAlgoCount, int *returnedAlgoCount,
                                                          cudnnConvolutionBwdFilterAlgoPerf_t *perfResults)
{
    const char *fn = "cudnnFindConvolutionBackwardFilterAlgorithm";
    cudnnStatus_t st = query_check(convDesc, xDesc, dwDesc, dyDesc, fn);
    if (st != CUDNN_STATUS_SUCCESS)
        return st;
    return algo_list(handle, fn, CUDNN_CONVOLUTION_BWD_FILTER_ALGO_COUNT, CUDNN_CONVOLUTION_BWD_FILTER_ALGO_WINOGRAD,
                     requestedAlgoCount, returnedAlgoCount, perfResults, sizeof *perfResults, convDesc->math, -1.0f);
}

cudnnStatus_t cudnnFindConvolutionBackwardFilterAlgorithmEx(cudnnHandle_t handle, const cudnnTensorDescriptor_t xDesc,
                                                            const void *x, const cudnnTensorDescriptor_t dyDesc,
                                                            const void *y, const cudnnConvolutionDescriptor_t convDesc,
                                                            const cudnnFilterDescriptor_t dwDesc, void *dw,
                                                            const int requestedAlgoCount, int *returnedAlgoCount,
                                                            cudnnConvolutionBwdFilterAlgoPerf_t *perfResults,
                                                            void *workSpace, size_t workSpaceSizeInBytes)
{
    const char *fn = "cudnnFindConvolutionBackwardFilterAlgorithmEx";
    cudnnStatus_t st = query_check(convDesc, xDesc, dwDesc, dyDesc, fn);
    if (st != CUDNN_STATUS_SUCCESS)
        return st;
    float ms = 0;
    st = cudnn_conv_time(handle, CB_DNN_CONV_BWD_FILTER, xDesc, x, dwDesc, dw, convDesc, dyDesc, y, workSpace,
                         workSpaceSizeInBytes, &ms);
    if (st != CUDNN_STATUS_SUCCESS)
        return st;
    return algo_list(handle, fn, CUDNN_CONVOLUTION_BWD_FILTER_ALGO_COUNT, CUDNN_CONVOLUTION_BWD_FILTER_ALGO_WINOGRAD,
                     requestedAlgoCount, returnedAlgoCount, perfResults, sizeof *perfResults, convDesc->math, ms);
}

/* ---- workspace sizes ------------------------------------------------------------------- */

static cudnnStatus_t workspace(cudnnHandle_t h, const char *fn, cudnnStatus_t geometry, int algo, int count,
                               int bad_algo, size_t *size)
{
    cudnnStatus_t st = cudnn_handle_check(h);
    if (st != CUDNN_STATUS_SUCCESS)
        return cudnn_fail(st, fn, "not a handle");
    if (geometry != CUDNN_STATUS_SUCCESS)
        return geometry;
    if (!size)
        return cudnn_fail(CUDNN_STATUS_BAD_PARAM_NULL_POINTER, fn, "NULL size");
    if (algo < 0 || algo >= count)
        return cudnn_fail(CUDNN_STATUS_NOT_SUPPORTED, fn, "no algorithm %d (NVIDIA's status)", algo);
    if (algo == bad_algo)
        return cudnn_fail(CUDNN_STATUS_NOT_SUPPORTED, fn, "algorithm %d is not implemented (nor by cuDNN)", algo);
    *size = 0;   /* no algorithm of cubridge's needs device workspace */
    return CUDNN_STATUS_SUCCESS;
}

cudnnStatus_t cudnnGetConvolutionForwardWorkspaceSize(cudnnHandle_t handle, const cudnnTensorDescriptor_t xDesc,
                                                      const cudnnFilterDescriptor_t wDesc,
                                                      const cudnnConvolutionDescriptor_t convDesc,
                                                      const cudnnTensorDescriptor_t yDesc,
                                                      cudnnConvolutionFwdAlgo_t algo, size_t *sizeInBytes)
{
    const char *fn = "cudnnGetConvolutionForwardWorkspaceSize";
    return workspace(handle, fn, query_check(convDesc, xDesc, wDesc, yDesc, fn), (int)algo,
                     CUDNN_CONVOLUTION_FWD_ALGO_COUNT, -1, sizeInBytes);
}

cudnnStatus_t cudnnGetConvolutionBackwardDataWorkspaceSize(cudnnHandle_t handle, const cudnnFilterDescriptor_t wDesc,
                                                           const cudnnTensorDescriptor_t dyDesc,
                                                           const cudnnConvolutionDescriptor_t convDesc,
                                                           const cudnnTensorDescriptor_t dxDesc,
                                                           cudnnConvolutionBwdDataAlgo_t algo, size_t *sizeInBytes)
{
    const char *fn = "cudnnGetConvolutionBackwardDataWorkspaceSize";
    return workspace(handle, fn, query_check(convDesc, dxDesc, wDesc, dyDesc, fn), (int)algo,
                     CUDNN_CONVOLUTION_BWD_DATA_ALGO_COUNT, -1, sizeInBytes);
}

cudnnStatus_t cudnnGetConvolutionBackwardFilterWorkspaceSize(cudnnHandle_t handle, const cudnnTensorDescriptor_t xDesc,
                                                             const cudnnTensorDescriptor_t dyDesc,
                                                             const cudnnConvolutionDescriptor_t convDesc,
                                                             const cudnnFilterDescriptor_t gradDesc,
                                                             cudnnConvolutionBwdFilterAlgo_t algo, size_t *sizeInBytes)
{
    const char *fn = "cudnnGetConvolutionBackwardFilterWorkspaceSize";
    return workspace(handle, fn, query_check(convDesc, xDesc, gradDesc, dyDesc, fn), (int)algo,
                     CUDNN_CONVOLUTION_BWD_FILTER_ALGO_COUNT, CUDNN_CONVOLUTION_BWD_FILTER_ALGO_WINOGRAD, sizeInBytes);
}
