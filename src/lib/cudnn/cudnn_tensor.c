/* cudnn_tensor.c: tensor and filter descriptors.
 *
 * A tensor descriptor holds 3 to 8 dims with a stride each (elements);
 * the 4-D setters and the Ex forms derive packed strides from a format:
 * NCHW (the last dimension fastest) or NHWC (channels fastest, then the
 * spatial dims from the last). A filter descriptor holds K, C / groups and
 * the filter's spatial dims, laid out KCRS (NCHW) or KRSC (NHWC).
 * NCHW_VECT_C (vectors of int8 along C) is refused with NOT_SUPPORTED.
 */
#include "cudnn_internal.h"

#include <stdlib.h>

int cudnn_blas_type(cudnnDataType_t t)
{
    switch (t) {
    case CUDNN_DATA_FLOAT: return CB_BLAS_F32;
    case CUDNN_DATA_DOUBLE: return CB_BLAS_F64;
    case CUDNN_DATA_HALF: return CB_BLAS_F16;
    case CUDNN_DATA_BFLOAT16: return CB_BLAS_BF16;
    case CUDNN_DATA_INT8: return CB_BLAS_I8;
    case CUDNN_DATA_UINT8: return CB_BLAS_U8;
    case CUDNN_DATA_INT32: return CB_BLAS_I32;
    default: return -1;
    }
}

size_t cudnn_type_size(cudnnDataType_t t)
{
    switch (t) {
    case CUDNN_DATA_FLOAT: case CUDNN_DATA_INT32: case CUDNN_DATA_INT8x4: case CUDNN_DATA_UINT8x4:
    case CUDNN_DATA_UINT32: return 4;
    case CUDNN_DATA_DOUBLE: case CUDNN_DATA_INT64: case CUDNN_DATA_COMPLEX_FP32: return 8;
    case CUDNN_DATA_HALF: case CUDNN_DATA_BFLOAT16: return 2;
    case CUDNN_DATA_INT8: case CUDNN_DATA_UINT8: case CUDNN_DATA_BOOLEAN: case CUDNN_DATA_FP8_E4M3:
    case CUDNN_DATA_FP8_E5M2: case CUDNN_DATA_FP8_E8M0: return 1;
    case CUDNN_DATA_INT8x32: return 32;
    case CUDNN_DATA_COMPLEX_FP64: return 16;
    default: return 0;   /* FP4, INT4, UINT4: half a byte; FAST_FLOAT_FOR_FP8: no storage type */
    }
}

size_t cudnn_tensor_count(const cudnn_tensor *t)
{
    if (!t->nd)
        return 0;
    size_t n = 1;
    for (int d = 0; d < t->nd; d++)
        n *= (size_t)t->dim[d];
    return n;
}

size_t cudnn_tensor_extent(const cudnn_tensor *t)
{
    if (!t->nd)
        return 0;
    size_t last = 0;
    for (int d = 0; d < t->nd; d++)
        last += (size_t)(t->dim[d] - 1) * (size_t)t->stride[d];
    return (last + 1) * cudnn_type_size(t->dtype);
}

void cudnn_packed_strides(int nd, const int64_t *dim, cudnnTensorFormat_t format, int64_t *stride)
{
    if (format == CUDNN_TENSOR_NHWC && nd >= 3) {
        int64_t s = 1;
        stride[1] = s;
        s *= dim[1];
        for (int d = nd - 1; d >= 2; d--) {
            stride[d] = s;
            s *= dim[d];
        }
        stride[0] = s;
        return;
    }
    int64_t s = 1;
    for (int d = nd - 1; d >= 0; d--) {
        stride[d] = s;
        s *= dim[d];
    }
}

static int type_valid(cudnnDataType_t t) { return (unsigned)t <= CUDNN_DATA_COMPLEX_FP64; }

cudnnStatus_t cudnn_tensor_set(cudnn_tensor *t, cudnnDataType_t type, int nd, const int64_t *dim,
                               const int64_t *stride, cudnnTensorFormat_t format)
{
    if (!type_valid(type))
        return CUDNN_STATUS_BAD_PARAM;
    if (nd < 1 || nd > CUDNN_DIM_MAX)
        return CUDNN_STATUS_NOT_SUPPORTED;
    double elems = 1;
    for (int d = 0; d < nd; d++) {
        if (dim[d] <= 0 || stride[d] <= 0)
            return CUDNN_STATUS_BAD_PARAM;
        elems *= (double)dim[d];
    }
    if (elems > 2147483647.0)
        return CUDNN_STATUS_NOT_SUPPORTED;   /* cuDNN's limit: 2 Giga-elements */
    /* The bytes the strides reach must be a size (cudnnGetTensorSizeInBytes,
     * the host copies): 2^31 - 1 doubles 2^31 - 1 apart are 2^65 bytes. */
    uint64_t last = 0, step;
    for (int d = 0; d < nd; d++)
        if (__builtin_mul_overflow((uint64_t)(dim[d] - 1), (uint64_t)stride[d], &step) ||
            __builtin_add_overflow(last, step, &last))
            return CUDNN_STATUS_NOT_SUPPORTED;
    uint64_t bytes = cudnn_type_size(type) ? cudnn_type_size(type) : 1;
    if (__builtin_mul_overflow(last + 1, bytes, &step) || step > (uint64_t)INT64_MAX)
        return CUDNN_STATUS_NOT_SUPPORTED;
    memset(t, 0, sizeof *t);
    t->dtype = type;
    t->nd = nd;
    t->format = format;
    for (int d = 0; d < nd; d++) {
        t->dim[d] = dim[d];
        t->stride[d] = stride[d];
    }
    return CUDNN_STATUS_SUCCESS;
}

void cudnn_dnn_tensor(cb_dnn_tensor *out, const cudnn_tensor *t, const void *addr)
{
    memset(out, 0, sizeof *out);
    out->type = cudnn_blas_type(t->dtype);
    out->nd = t->nd;
    for (int d = 0; d < t->nd; d++) {
        out->dim[d] = t->dim[d];
        out->stride[d] = t->stride[d];
    }
    out->addr = (uint64_t)(uintptr_t)addr;
}

int cudnn_same_dims(const cudnn_tensor *a, const cudnn_tensor *b)
{
    if (a->nd != b->nd)
        return 0;
    for (int d = 0; d < a->nd; d++)
        if (a->dim[d] != b->dim[d])
            return 0;
    return 1;
}

const cudnn_tensor *cudnn_tensor_of(cudnnTensorDescriptor_t d)
{
    return d && d->magic == CUDNN_MAGIC_TENSOR && d->t.nd ? &d->t : NULL;
}

const cudnn_tensor *cudnn_filter_of(cudnnFilterDescriptor_t d)
{
    return d && d->magic == CUDNN_MAGIC_FILTER && d->t.nd ? &d->t : NULL;
}

/* ---- tensor descriptors -------------------------------------------------------- */

cudnnStatus_t cudnnCreateTensorDescriptor(cudnnTensorDescriptor_t *desc)
{
    if (!desc)
        return cudnn_fail(CUDNN_STATUS_BAD_PARAM_NULL_POINTER, "cudnnCreateTensorDescriptor", "NULL");
    cudnnTensorDescriptor_t d = calloc(1, sizeof *d);
    if (!d)
        return CUDNN_STATUS_INTERNAL_ERROR_HOST_ALLOCATION_FAILED;
    d->magic = CUDNN_MAGIC_TENSOR;
    *desc = d;
    return CUDNN_STATUS_SUCCESS;
}

cudnnStatus_t cudnnDestroyTensorDescriptor(cudnnTensorDescriptor_t d)
{
    if (!d)
        return CUDNN_STATUS_SUCCESS;   /* cuDNN: destroying NULL is a no-op */
    if (d->magic != CUDNN_MAGIC_TENSOR)
        return cudnn_fail(CUDNN_STATUS_BAD_PARAM, "cudnnDestroyTensorDescriptor", "not a tensor descriptor");
    d->magic = 0;
    free(d);
    return CUDNN_STATUS_SUCCESS;
}

static cudnnStatus_t set_formatted(cudnn_tensor *t, const char *fn, cudnnTensorFormat_t format,
                                   cudnnDataType_t type, int nd, const int64_t *dim)
{
    if (format == CUDNN_TENSOR_NCHW_VECT_C)
        return cudnn_unsupported(fn, "CUDNN_TENSOR_NCHW_VECT_C (vectorised int8 layouts)");
    if (format != CUDNN_TENSOR_NCHW && format != CUDNN_TENSOR_NHWC)
        return cudnn_fail(CUDNN_STATUS_BAD_PARAM, fn, "unknown format %d", (int)format);
    for (int d = 0; d < nd; d++)
        if (dim[d] <= 0)
            return cudnn_fail(CUDNN_STATUS_BAD_PARAM, fn, "dimension %d is %lld", d, (long long)dim[d]);
    /* cudnn_tensor_set's answer for too many elements, before the packed
     * strides of such dims overflow */
    double elems = 1;
    for (int d = 0; d < nd; d++)
        elems *= (double)dim[d];
    if (elems > 2147483647.0)
        return cudnn_fail(type_valid(type) ? CUDNN_STATUS_NOT_SUPPORTED : CUDNN_STATUS_BAD_PARAM, fn,
                          "%.0f elements (at most 2^31 - 1)", elems);
    int64_t stride[CUDNN_DIM_MAX];
    cudnn_packed_strides(nd, dim, format, stride);
    cudnnStatus_t st = cudnn_tensor_set(t, type, nd, dim, stride, format);
    return st == CUDNN_STATUS_SUCCESS ? st : cudnn_fail(st, fn, "bad type, rank or size");
}

cudnnStatus_t cudnnSetTensor4dDescriptor(cudnnTensorDescriptor_t d, cudnnTensorFormat_t format,
                                         cudnnDataType_t dataType, int n, int c, int h, int w)
{
    if (!d || d->magic != CUDNN_MAGIC_TENSOR)
        return cudnn_fail(CUDNN_STATUS_BAD_PARAM, "cudnnSetTensor4dDescriptor", "not a tensor descriptor");
    int64_t dim[4] = {n, c, h, w};
    return set_formatted(&d->t, "cudnnSetTensor4dDescriptor", format, dataType, 4, dim);
}

cudnnStatus_t cudnnSetTensor4dDescriptorEx(cudnnTensorDescriptor_t d, cudnnDataType_t dataType, int n, int c,
                                           int h, int w, int nStride, int cStride, int hStride, int wStride)
{
    if (!d || d->magic != CUDNN_MAGIC_TENSOR)
        return cudnn_fail(CUDNN_STATUS_BAD_PARAM, "cudnnSetTensor4dDescriptorEx", "not a tensor descriptor");
    int64_t dim[4] = {n, c, h, w}, stride[4] = {nStride, cStride, hStride, wStride};
    cudnnStatus_t st = cudnn_tensor_set(&d->t, dataType, 4, dim, stride, CUDNN_TENSOR_NCHW);
    return st == CUDNN_STATUS_SUCCESS ? st : cudnn_fail(st, "cudnnSetTensor4dDescriptorEx", "bad dims or strides");
}

cudnnStatus_t cudnnGetTensor4dDescriptor(const cudnnTensorDescriptor_t d, cudnnDataType_t *dataType, int *n, int *c,
                                         int *h, int *w, int *nStride, int *cStride, int *hStride, int *wStride)
{
    const cudnn_tensor *t = cudnn_tensor_of(d);
    /* NVIDIA's answers SUCCESS for a 5-D descriptor too: its first four dims. */
    if (!t || t->nd < 4)
        return cudnn_fail(CUDNN_STATUS_BAD_PARAM, "cudnnGetTensor4dDescriptor", "not a 4-D tensor descriptor");
    if (!dataType || !n || !c || !h || !w || !nStride || !cStride || !hStride || !wStride)
        return cudnn_fail(CUDNN_STATUS_BAD_PARAM_NULL_POINTER, "cudnnGetTensor4dDescriptor", "NULL output");
    *dataType = t->dtype;
    *n = (int)t->dim[0], *c = (int)t->dim[1], *h = (int)t->dim[2], *w = (int)t->dim[3];
    *nStride = (int)t->stride[0], *cStride = (int)t->stride[1], *hStride = (int)t->stride[2];
    *wStride = (int)t->stride[3];
    return CUDNN_STATUS_SUCCESS;
}

cudnnStatus_t cudnnSetTensorNdDescriptor(cudnnTensorDescriptor_t d, cudnnDataType_t dataType, int nbDims,
                                         const int dimA[], const int strideA[])
{
    if (!d || d->magic != CUDNN_MAGIC_TENSOR)
        return cudnn_fail(CUDNN_STATUS_BAD_PARAM, "cudnnSetTensorNdDescriptor", "not a tensor descriptor");
    if (nbDims < 1 || nbDims > CUDNN_DIM_MAX)
        return cudnn_fail(CUDNN_STATUS_NOT_SUPPORTED, "cudnnSetTensorNdDescriptor", "nbDims %d", nbDims);
    if (!dimA || !strideA)
        return cudnn_fail(CUDNN_STATUS_BAD_PARAM_NULL_POINTER, "cudnnSetTensorNdDescriptor", "NULL dims or strides");
    int64_t dim[CUDNN_DIM_MAX], stride[CUDNN_DIM_MAX];
    for (int i = 0; i < nbDims; i++)
        dim[i] = dimA[i], stride[i] = strideA[i];
    cudnnStatus_t st = cudnn_tensor_set(&d->t, dataType, nbDims, dim, stride, CUDNN_TENSOR_NCHW);
    return st == CUDNN_STATUS_SUCCESS ? st : cudnn_fail(st, "cudnnSetTensorNdDescriptor", "bad dims or strides");
}

cudnnStatus_t cudnnSetTensorNdDescriptorEx(cudnnTensorDescriptor_t d, cudnnTensorFormat_t format,
                                           cudnnDataType_t dataType, int nbDims, const int dimA[])
{
    if (!d || d->magic != CUDNN_MAGIC_TENSOR)
        return cudnn_fail(CUDNN_STATUS_BAD_PARAM, "cudnnSetTensorNdDescriptorEx", "not a tensor descriptor");
    if (nbDims < 1 || nbDims > CUDNN_DIM_MAX)
        return cudnn_fail(CUDNN_STATUS_NOT_SUPPORTED, "cudnnSetTensorNdDescriptorEx", "nbDims %d", nbDims);
    if (!dimA)
        return cudnn_fail(CUDNN_STATUS_BAD_PARAM_NULL_POINTER, "cudnnSetTensorNdDescriptorEx", "NULL dims");
    int64_t dim[CUDNN_DIM_MAX];
    for (int i = 0; i < nbDims; i++)
        dim[i] = dimA[i];
    return set_formatted(&d->t, "cudnnSetTensorNdDescriptorEx", format, dataType, nbDims, dim);
}

cudnnStatus_t cudnnGetTensorNdDescriptor(const cudnnTensorDescriptor_t d, int nbDimsRequested,
                                         cudnnDataType_t *dataType, int *nbDims, int dimA[], int strideA[])
{
    const cudnn_tensor *t = cudnn_tensor_of(d);
    if (!t)
        return cudnn_fail(CUDNN_STATUS_BAD_PARAM, "cudnnGetTensorNdDescriptor", "not a set tensor descriptor");
    if (nbDimsRequested < 0 || !dataType || !nbDims || (nbDimsRequested > 0 && (!dimA || !strideA)))
        return cudnn_fail(CUDNN_STATUS_BAD_PARAM, "cudnnGetTensorNdDescriptor", "bad request or NULL output");
    *dataType = t->dtype;
    *nbDims = t->nd;
    for (int i = 0; i < nbDimsRequested && i < t->nd; i++)
        dimA[i] = (int)t->dim[i], strideA[i] = (int)t->stride[i];
    return CUDNN_STATUS_SUCCESS;
}

cudnnStatus_t cudnnGetTensorSizeInBytes(const cudnnTensorDescriptor_t d, size_t *size)
{
    const cudnn_tensor *t = cudnn_tensor_of(d);
    if (!t || !size)
        return cudnn_fail(CUDNN_STATUS_BAD_PARAM, "cudnnGetTensorSizeInBytes", "bad descriptor or NULL size");
    *size = cudnn_tensor_extent(t);
    return CUDNN_STATUS_SUCCESS;
}

/* ---- filter descriptors ----------------------------------------------------------- */

cudnnStatus_t cudnnCreateFilterDescriptor(cudnnFilterDescriptor_t *desc)
{
    if (!desc)
        return cudnn_fail(CUDNN_STATUS_BAD_PARAM_NULL_POINTER, "cudnnCreateFilterDescriptor", "NULL");
    cudnnFilterDescriptor_t d = calloc(1, sizeof *d);
    if (!d)
        return CUDNN_STATUS_INTERNAL_ERROR_HOST_ALLOCATION_FAILED;
    d->magic = CUDNN_MAGIC_FILTER;
    *desc = d;
    return CUDNN_STATUS_SUCCESS;
}

cudnnStatus_t cudnnDestroyFilterDescriptor(cudnnFilterDescriptor_t d)
{
    if (!d)
        return CUDNN_STATUS_SUCCESS;
    if (d->magic != CUDNN_MAGIC_FILTER)
        return cudnn_fail(CUDNN_STATUS_BAD_PARAM, "cudnnDestroyFilterDescriptor", "not a filter descriptor");
    d->magic = 0;
    free(d);
    return CUDNN_STATUS_SUCCESS;
}

cudnnStatus_t cudnnSetFilter4dDescriptor(cudnnFilterDescriptor_t d, cudnnDataType_t dataType,
                                         cudnnTensorFormat_t format, int k, int c, int h, int w)
{
    if (!d || d->magic != CUDNN_MAGIC_FILTER)
        return cudnn_fail(CUDNN_STATUS_BAD_PARAM, "cudnnSetFilter4dDescriptor", "not a filter descriptor");
    int64_t dim[4] = {k, c, h, w};
    return set_formatted(&d->t, "cudnnSetFilter4dDescriptor", format, dataType, 4, dim);
}

cudnnStatus_t cudnnGetFilter4dDescriptor(const cudnnFilterDescriptor_t d, cudnnDataType_t *dataType,
                                         cudnnTensorFormat_t *format, int *k, int *c, int *h, int *w)
{
    const cudnn_tensor *t = cudnn_filter_of(d);
    if (!t || t->nd != 4)
        return cudnn_fail(CUDNN_STATUS_BAD_PARAM, "cudnnGetFilter4dDescriptor", "not a 4-D filter descriptor");
    if (!dataType || !format || !k || !c || !h || !w)
        return cudnn_fail(CUDNN_STATUS_BAD_PARAM_NULL_POINTER, "cudnnGetFilter4dDescriptor", "NULL output");
    *dataType = t->dtype;
    *format = t->format;
    *k = (int)t->dim[0], *c = (int)t->dim[1], *h = (int)t->dim[2], *w = (int)t->dim[3];
    return CUDNN_STATUS_SUCCESS;
}

cudnnStatus_t cudnnSetFilterNdDescriptor(cudnnFilterDescriptor_t d, cudnnDataType_t dataType,
                                         cudnnTensorFormat_t format, int nbDims, const int filterDimA[])
{
    if (!d || d->magic != CUDNN_MAGIC_FILTER)
        return cudnn_fail(CUDNN_STATUS_BAD_PARAM, "cudnnSetFilterNdDescriptor", "not a filter descriptor");
    if (nbDims < 3 || nbDims > CUDNN_DIM_MAX)
        return cudnn_fail(CUDNN_STATUS_NOT_SUPPORTED, "cudnnSetFilterNdDescriptor", "nbDims %d", nbDims);
    if (!filterDimA)
        return cudnn_fail(CUDNN_STATUS_BAD_PARAM_NULL_POINTER, "cudnnSetFilterNdDescriptor", "NULL dims");
    int64_t dim[CUDNN_DIM_MAX];
    for (int i = 0; i < nbDims; i++)
        dim[i] = filterDimA[i];
    return set_formatted(&d->t, "cudnnSetFilterNdDescriptor", format, dataType, nbDims, dim);
}

cudnnStatus_t cudnnGetFilterNdDescriptor(const cudnnFilterDescriptor_t d, int nbDimsRequested,
                                         cudnnDataType_t *dataType, cudnnTensorFormat_t *format, int *nbDims,
                                         int filterDimA[])
{
    const cudnn_tensor *t = cudnn_filter_of(d);
    if (!t)
        return cudnn_fail(CUDNN_STATUS_BAD_PARAM, "cudnnGetFilterNdDescriptor", "not a set filter descriptor");
    if (nbDimsRequested < 0 || !dataType || !format || !nbDims || (nbDimsRequested > 0 && !filterDimA))
        return cudnn_fail(CUDNN_STATUS_BAD_PARAM, "cudnnGetFilterNdDescriptor", "bad request or NULL output");
    *dataType = t->dtype;
    *format = t->format;
    *nbDims = t->nd;
    for (int i = 0; i < nbDimsRequested && i < t->nd; i++)
        filterDimA[i] = (int)t->dim[i];
    return CUDNN_STATUS_SUCCESS;
}

cudnnStatus_t cudnnGetFilterSizeInBytes(const cudnnFilterDescriptor_t d, size_t *size)
{
    const cudnn_tensor *t = cudnn_filter_of(d);
    if (!t || !size)
        return cudnn_fail(CUDNN_STATUS_BAD_PARAM, "cudnnGetFilterSizeInBytes", "bad descriptor or NULL size");
    *size = cudnn_tensor_extent(t);
    return CUDNN_STATUS_SUCCESS;
}
