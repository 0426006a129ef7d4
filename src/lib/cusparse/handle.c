/* handle.c: cuSPARSE handles, streams, pointer mode, versions, error names
 * and the legacy matrix descriptor.
 *
 * Bad input (tests/lib/cusparse_status.cu, recorded on the H200): a NULL
 * handle or output pointer and an unknown enumerator are INVALID_VALUE;
 * cusparseDestroy(NULL) and the Destroy* of NULL descriptors succeed; the
 * matrix descriptor's setters answer NOT_INITIALIZED for a NULL descriptor.
 */
#include "cusparse_internal.h"

#include <stdlib.h>

cusparseStatus_t sp_handle(cusparseHandle_t h)
{
    return h && h->magic == CUSPARSE_HANDLE_MAGIC ? CUSPARSE_STATUS_SUCCESS : CUSPARSE_STATUS_INVALID_VALUE;
}

cusparseStatus_t sp_handle_legacy(cusparseHandle_t h)
{
    return h && h->magic == CUSPARSE_HANDLE_MAGIC ? CUSPARSE_STATUS_SUCCESS : CUSPARSE_STATUS_NOT_INITIALIZED;
}

cusparseStatus_t cusparseCreate(cusparseHandle_t *handle)
{
    if (!handle)
        return CUSPARSE_STATUS_INVALID_VALUE;
    const cb_lib_services *s = cbl_services();
    cb_context *ctx;
    if (!s || s->context(&ctx) != CUDA_SUCCESS)
        return CUSPARSE_STATUS_NOT_INITIALIZED;
    cusparseHandle_t h = calloc(1, sizeof *h);
    if (!h)
        return CUSPARSE_STATUS_ALLOC_FAILED;
    h->magic = CUSPARSE_HANDLE_MAGIC;
    h->ctx = ctx;
    h->pointer_mode = CUSPARSE_POINTER_MODE_HOST;
    *handle = h;
    return CUSPARSE_STATUS_SUCCESS;
}

cusparseStatus_t cusparseDestroy(cusparseHandle_t h)
{
    if (!h)
        return CUSPARSE_STATUS_SUCCESS;
    cusparseStatus_t st = sp_handle(h);
    if (st != CUSPARSE_STATUS_SUCCESS)
        return st;
    h->magic = 0;
    free(h);
    return CUSPARSE_STATUS_SUCCESS;
}

cusparseStatus_t cusparseSetStream(cusparseHandle_t h, cudaStream_t stream)
{
    cusparseStatus_t st = sp_handle(h);
    if (st == CUSPARSE_STATUS_SUCCESS)
        h->stream = stream;
    return st;
}

cusparseStatus_t cusparseGetStream(cusparseHandle_t h, cudaStream_t *stream)
{
    cusparseStatus_t st = sp_handle(h);
    if (st != CUSPARSE_STATUS_SUCCESS)
        return st;
    if (!stream)
        return CUSPARSE_STATUS_INVALID_VALUE;
    *stream = h->stream;
    return CUSPARSE_STATUS_SUCCESS;
}

cusparseStatus_t cusparseGetVersion(cusparseHandle_t h, int *version)
{
    cusparseStatus_t st = sp_handle(h);
    if (st != CUSPARSE_STATUS_SUCCESS)
        return st;
    if (!version)
        return CUSPARSE_STATUS_INVALID_VALUE;
    *version = CUSPARSE_VERSION;
    return CUSPARSE_STATUS_SUCCESS;
}

cusparseStatus_t cusparseGetProperty(libraryPropertyType type, int *value)
{
    if (!value)
        return CUSPARSE_STATUS_INVALID_VALUE;
    switch (type) {
    case MAJOR_VERSION: *value = CUSPARSE_VER_MAJOR; return CUSPARSE_STATUS_SUCCESS;
    case MINOR_VERSION: *value = CUSPARSE_VER_MINOR; return CUSPARSE_STATUS_SUCCESS;
    case PATCH_LEVEL: *value = CUSPARSE_VER_PATCH; return CUSPARSE_STATUS_SUCCESS;
    default: return CUSPARSE_STATUS_INVALID_VALUE;
    }
}

cusparseStatus_t cusparseSetPointerMode(cusparseHandle_t h, cusparsePointerMode_t mode)
{
    cusparseStatus_t st = sp_handle(h);
    if (st != CUSPARSE_STATUS_SUCCESS)
        return st;
    if (mode != CUSPARSE_POINTER_MODE_HOST && mode != CUSPARSE_POINTER_MODE_DEVICE)
        return CUSPARSE_STATUS_INVALID_VALUE;
    h->pointer_mode = mode;
    return CUSPARSE_STATUS_SUCCESS;
}

cusparseStatus_t cusparseGetPointerMode(cusparseHandle_t h, cusparsePointerMode_t *mode)
{
    cusparseStatus_t st = sp_handle(h);
    if (st != CUSPARSE_STATUS_SUCCESS)
        return st;
    if (!mode)
        return CUSPARSE_STATUS_INVALID_VALUE;
    *mode = h->pointer_mode;
    return CUSPARSE_STATUS_SUCCESS;
}

/* ---- error names (the H200's strings) ---------------------------------------------- */

static const char *const status_names[][2] = {
    {"CUSPARSE_STATUS_SUCCESS", "success"},
    {"CUSPARSE_STATUS_NOT_INITIALIZED", "initialization error"},
    {"CUSPARSE_STATUS_ALLOC_FAILED", "out of memory"},
    {"CUSPARSE_STATUS_INVALID_VALUE", "invalid value"},
    {"CUSPARSE_STATUS_ARCH_MISMATCH", "architecture mismatch"},
    {"CUSPARSE_STATUS_MAPPING_ERROR", "texture memory mapping error"},
    {"CUSPARSE_STATUS_EXECUTION_FAILED", "kernel launch failure"},
    {"CUSPARSE_STATUS_INTERNAL_ERROR", "internal error"},
    {"CUSPARSE_STATUS_MATRIX_TYPE_NOT_SUPPORTED", "matrix type not supported"},
    {"CUSPARSE_STATUS_ZERO_PIVOT", "zero pivot"},
    {"CUSPARSE_STATUS_NOT_SUPPORTED", "operation not supported"},
    {"CUSPARSE_STATUS_INSUFFICIENT_RESOURCES", "insufficient resources"},
};

const char *cusparseGetErrorName(cusparseStatus_t status)
{
    unsigned s = (unsigned)status;
    return s < sizeof status_names / sizeof status_names[0] ? status_names[s][0] : "unrecognized error code";
}

const char *cusparseGetErrorString(cusparseStatus_t status)
{
    unsigned s = (unsigned)status;
    return s < sizeof status_names / sizeof status_names[0] ? status_names[s][1] : "unrecognized error code";
}

/* ---- the legacy matrix descriptor ---------------------------------------------------- */

cusparseStatus_t cusparseCreateMatDescr(cusparseMatDescr_t *descr)
{
    if (!descr)
        return CUSPARSE_STATUS_INVALID_VALUE;
    cusparseMatDescr_t d = calloc(1, sizeof *d);
    if (!d)
        return CUSPARSE_STATUS_ALLOC_FAILED;
    d->type = CUSPARSE_MATRIX_TYPE_GENERAL;
    d->fill = CUSPARSE_FILL_MODE_LOWER;
    d->diag = CUSPARSE_DIAG_TYPE_NON_UNIT;
    d->base = CUSPARSE_INDEX_BASE_ZERO;
    *descr = d;
    return CUSPARSE_STATUS_SUCCESS;
}

cusparseStatus_t cusparseDestroyMatDescr(cusparseMatDescr_t descr)
{
    free(descr);
    return CUSPARSE_STATUS_SUCCESS;
}

cusparseStatus_t cusparseSetMatType(cusparseMatDescr_t d, cusparseMatrixType_t type)
{
    if (!d)
        return CUSPARSE_STATUS_NOT_INITIALIZED;
    if ((unsigned)type > CUSPARSE_MATRIX_TYPE_TRIANGULAR)
        return CUSPARSE_STATUS_INVALID_VALUE;
    d->type = type;
    return CUSPARSE_STATUS_SUCCESS;
}

cusparseMatrixType_t cusparseGetMatType(const cusparseMatDescr_t d)
{
    return d ? d->type : CUSPARSE_MATRIX_TYPE_GENERAL;
}

cusparseStatus_t cusparseSetMatFillMode(cusparseMatDescr_t d, cusparseFillMode_t fill)
{
    if (!d)
        return CUSPARSE_STATUS_NOT_INITIALIZED;
    if (fill != CUSPARSE_FILL_MODE_LOWER && fill != CUSPARSE_FILL_MODE_UPPER)
        return CUSPARSE_STATUS_INVALID_VALUE;
    d->fill = fill;
    return CUSPARSE_STATUS_SUCCESS;
}

cusparseFillMode_t cusparseGetMatFillMode(const cusparseMatDescr_t d)
{
    return d ? d->fill : CUSPARSE_FILL_MODE_LOWER;
}

cusparseStatus_t cusparseSetMatDiagType(cusparseMatDescr_t d, cusparseDiagType_t diag)
{
    if (!d)
        return CUSPARSE_STATUS_NOT_INITIALIZED;
    if (diag != CUSPARSE_DIAG_TYPE_NON_UNIT && diag != CUSPARSE_DIAG_TYPE_UNIT)
        return CUSPARSE_STATUS_INVALID_VALUE;
    d->diag = diag;
    return CUSPARSE_STATUS_SUCCESS;
}

cusparseDiagType_t cusparseGetMatDiagType(const cusparseMatDescr_t d)
{
    return d ? d->diag : CUSPARSE_DIAG_TYPE_NON_UNIT;
}

cusparseStatus_t cusparseSetMatIndexBase(cusparseMatDescr_t d, cusparseIndexBase_t base)
{
    if (!d)
        return CUSPARSE_STATUS_NOT_INITIALIZED;
    if (base != CUSPARSE_INDEX_BASE_ZERO && base != CUSPARSE_INDEX_BASE_ONE)
        return CUSPARSE_STATUS_INVALID_VALUE;
    d->base = base;
    return CUSPARSE_STATUS_SUCCESS;
}

cusparseIndexBase_t cusparseGetMatIndexBase(const cusparseMatDescr_t d)
{
    return d ? d->base : CUSPARSE_INDEX_BASE_ZERO;
}
