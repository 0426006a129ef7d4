/* descr.c: the generic API's descriptors -- sparse vectors, sparse
 * matrices (CSR, CSC, COO, blocked ELL), dense vectors and matrices -- and
 * their getters and setters. Descriptors are host memory; the arrays they
 * name are the caller's device memory, never touched here.
 *
 * Bad input as NVIDIA's (tests/lib/cusparse_status.expected): negative
 * sizes, nnz beyond the matrix, unknown enumerators and a leading dimension
 * too small are INVALID_VALUE; CSR/CSC with 16-bit offsets or offsets and
 * indices of different widths are NOT_SUPPORTED; NULL arrays are accepted
 * (they may be set later); Destroy* of NULL succeeds.
 */
#include "cusparse_internal.h"

#include <stdlib.h>

int sp_value_type(cudaDataType t)
{
    switch (t) {
    case CUDA_R_32F: return CB_BLAS_F32;
    case CUDA_R_64F: return CB_BLAS_F64;
    case CUDA_C_32F: return CB_BLAS_C32;
    case CUDA_C_64F: return CB_BLAS_C64;
    case CUDA_R_16F: return CB_BLAS_F16;
    case CUDA_R_16BF: return CB_BLAS_BF16;
    case CUDA_R_8I: return CB_BLAS_I8;
    case CUDA_R_32I: return CB_BLAS_I32;
    default: return -1;
    }
}

/* Any enumerator of cudaDataType (library_types.h). */
static int known_type(cudaDataType t) { return (int)t >= 0 && (int)t <= 34; }

int sp_index_bytes(cusparseIndexType_t t)
{
    switch (t) {
    case CUSPARSE_INDEX_16U: return 2;
    case CUSPARSE_INDEX_32I: return 4;
    case CUSPARSE_INDEX_64I: return 8;
    default: return 0;
    }
}

static int base_ok(cusparseIndexBase_t b) { return b == CUSPARSE_INDEX_BASE_ZERO || b == CUSPARSE_INDEX_BASE_ONE; }

const struct cusparseSpMatDescr *sp_mat(const void *d)
{
    const struct cusparseSpMatDescr *m = d;
    return m && m->magic == CUSPARSE_DESCR_MAGIC ? m : NULL;
}

const struct cusparseDnMatDescr *sp_dn(const void *d)
{
    const struct cusparseDnMatDescr *m = d;
    return m && m->magic == CUSPARSE_DENSE_MAGIC ? m : NULL;
}

static struct cusparseSpMatDescr *sp_w(const void *d) { return (struct cusparseSpMatDescr *)sp_mat(d); }
static struct cusparseDnMatDescr *dn_w(const void *d) { return (struct cusparseDnMatDescr *)sp_dn(d); }

/* ---- sparse matrices ------------------------------------------------------------------- */

static cusparseStatus_t sp_new(struct cusparseSpMatDescr **out, size_t size, int format, int64_t rows, int64_t cols,
                               int64_t nnz, cusparseIndexType_t off_t, cusparseIndexType_t idx_t,
                               cusparseIndexBase_t base, cudaDataType vt)
{
    if (!out || rows < 0 || cols < 0 || nnz < 0)
        return CUSPARSE_STATUS_INVALID_VALUE;
    if (format == CB_SP_VEC ? nnz > rows : (double)nnz > (double)rows * (double)cols)
        return CUSPARSE_STATUS_INVALID_VALUE;
    if (!sp_index_bytes(idx_t) || (off_t && !sp_index_bytes(off_t)) || !base_ok(base) || !known_type(vt))
        return CUSPARSE_STATUS_INVALID_VALUE;
    if ((format == CB_SP_CSR || format == CB_SP_CSC) && (off_t == CUSPARSE_INDEX_16U || off_t != idx_t))
        return CUSPARSE_STATUS_NOT_SUPPORTED;
    struct cusparseSpMatDescr *m = calloc(1, size);
    if (!m)
        return CUSPARSE_STATUS_ALLOC_FAILED;
    m->magic = CUSPARSE_DESCR_MAGIC;
    m->s.format = format;
    m->s.rows = rows;
    m->s.cols = cols;
    m->s.nnz = nnz;
    m->s.off_bytes = off_t ? sp_index_bytes(off_t) : 0;
    m->s.idx_bytes = sp_index_bytes(idx_t);
    m->s.base = base == CUSPARSE_INDEX_BASE_ONE;
    m->s.type = (cb_blas_type)sp_value_type(vt);
    m->s.batch = 1;
    m->vtype = vt;
    m->off_type = off_t;
    m->idx_type = idx_t;
    *out = m;
    return CUSPARSE_STATUS_SUCCESS;
}

#define A(p) ((uint64_t)(uintptr_t)(p))

cusparseStatus_t cusparseCreateCsr(cusparseSpMatDescr_t *d, int64_t rows, int64_t cols, int64_t nnz, void *offsets,
                                   void *colind, void *values, cusparseIndexType_t off_t, cusparseIndexType_t col_t,
                                   cusparseIndexBase_t base, cudaDataType vt)
{
    cusparseStatus_t st = sp_new(d, sizeof **d, CB_SP_CSR, rows, cols, nnz, off_t, col_t, base, vt);
    if (st == CUSPARSE_STATUS_SUCCESS) {
        (*d)->s.offsets = A(offsets);
        (*d)->s.colind = A(colind);
        (*d)->s.values = A(values);
    }
    return st;
}

cusparseStatus_t cusparseCreateConstCsr(cusparseConstSpMatDescr_t *d, int64_t rows, int64_t cols, int64_t nnz,
                                        const void *offsets, const void *colind, const void *values,
                                        cusparseIndexType_t off_t, cusparseIndexType_t col_t,
                                        cusparseIndexBase_t base, cudaDataType vt)
{
    return cusparseCreateCsr((cusparseSpMatDescr_t *)d, rows, cols, nnz, (void *)offsets, (void *)colind,
                             (void *)values, off_t, col_t, base, vt);
}

cusparseStatus_t cusparseCreateCsc(cusparseSpMatDescr_t *d, int64_t rows, int64_t cols, int64_t nnz, void *offsets,
                                   void *rowind, void *values, cusparseIndexType_t off_t, cusparseIndexType_t row_t,
                                   cusparseIndexBase_t base, cudaDataType vt)
{
    cusparseStatus_t st = sp_new(d, sizeof **d, CB_SP_CSC, rows, cols, nnz, off_t, row_t, base, vt);
    if (st == CUSPARSE_STATUS_SUCCESS) {
        (*d)->s.offsets = A(offsets);
        (*d)->s.rowind = A(rowind);
        (*d)->s.values = A(values);
    }
    return st;
}

cusparseStatus_t cusparseCreateConstCsc(cusparseConstSpMatDescr_t *d, int64_t rows, int64_t cols, int64_t nnz,
                                        const void *offsets, const void *rowind, const void *values,
                                        cusparseIndexType_t off_t, cusparseIndexType_t row_t,
                                        cusparseIndexBase_t base, cudaDataType vt)
{
    return cusparseCreateCsc((cusparseSpMatDescr_t *)d, rows, cols, nnz, (void *)offsets, (void *)rowind,
                             (void *)values, off_t, row_t, base, vt);
}

cusparseStatus_t cusparseCreateCoo(cusparseSpMatDescr_t *d, int64_t rows, int64_t cols, int64_t nnz, void *rowind,
                                   void *colind, void *values, cusparseIndexType_t idx_t, cusparseIndexBase_t base,
                                   cudaDataType vt)
{
    cusparseStatus_t st = sp_new(d, sizeof **d, CB_SP_COO, rows, cols, nnz, 0, idx_t, base, vt);
    if (st == CUSPARSE_STATUS_SUCCESS) {
        (*d)->s.rowind = A(rowind);
        (*d)->s.colind = A(colind);
        (*d)->s.values = A(values);
    }
    return st;
}

cusparseStatus_t cusparseCreateConstCoo(cusparseConstSpMatDescr_t *d, int64_t rows, int64_t cols, int64_t nnz,
                                        const void *rowind, const void *colind, const void *values,
                                        cusparseIndexType_t idx_t, cusparseIndexBase_t base, cudaDataType vt)
{
    return cusparseCreateCoo((cusparseSpMatDescr_t *)d, rows, cols, nnz, (void *)rowind, (void *)colind,
                             (void *)values, idx_t, base, vt);
}

cusparseStatus_t cusparseCreateBlockedEll(cusparseSpMatDescr_t *d, int64_t rows, int64_t cols, int64_t block,
                                          int64_t ell_cols, void *colind, void *values, cusparseIndexType_t idx_t,
                                          cusparseIndexBase_t base, cudaDataType vt)
{
    int64_t nnz;
    if (rows < 0 || cols < 0 || block <= 0 || ell_cols < 0 || ell_cols % block || ell_cols > cols || rows % block ||
        __builtin_mul_overflow(rows, ell_cols, &nnz))
        return CUSPARSE_STATUS_INVALID_VALUE;
    cusparseStatus_t st = sp_new(d, sizeof **d, CB_SP_BELL, rows, cols, 0, 0, idx_t, base, vt);
    if (st == CUSPARSE_STATUS_SUCCESS) {
        (*d)->s.colind = A(colind);
        (*d)->s.values = A(values);
        (*d)->s.ell_block = block;
        (*d)->s.ell_cols = ell_cols;
        (*d)->s.nnz = nnz;
    }
    return st;
}

cusparseStatus_t cusparseDestroySpMat(cusparseConstSpMatDescr_t d)
{
    struct cusparseSpMatDescr *m = sp_w(d);
    if (m) {
        m->magic = 0;
        free(m);
    }
    return CUSPARSE_STATUS_SUCCESS;
}

cusparseStatus_t cusparseSpMatGetSize(cusparseConstSpMatDescr_t d, int64_t *rows, int64_t *cols, int64_t *nnz)
{
    const struct cusparseSpMatDescr *m = sp_mat(d);
    if (!m || !rows || !cols || !nnz)
        return CUSPARSE_STATUS_INVALID_VALUE;
    *rows = m->s.rows;
    *cols = m->s.cols;
    *nnz = m->s.nnz;
    return CUSPARSE_STATUS_SUCCESS;
}

cusparseStatus_t cusparseSpMatGetFormat(cusparseConstSpMatDescr_t d, cusparseFormat_t *format)
{
    const struct cusparseSpMatDescr *m = sp_mat(d);
    if (!m || !format)
        return CUSPARSE_STATUS_INVALID_VALUE;
    *format = (cusparseFormat_t)m->s.format;
    return CUSPARSE_STATUS_SUCCESS;
}

cusparseStatus_t cusparseSpMatGetIndexBase(cusparseConstSpMatDescr_t d, cusparseIndexBase_t *base)
{
    const struct cusparseSpMatDescr *m = sp_mat(d);
    if (!m || !base)
        return CUSPARSE_STATUS_INVALID_VALUE;
    *base = m->s.base ? CUSPARSE_INDEX_BASE_ONE : CUSPARSE_INDEX_BASE_ZERO;
    return CUSPARSE_STATUS_SUCCESS;
}

cusparseStatus_t cusparseSpMatGetValues(cusparseSpMatDescr_t d, void **values)
{
    const struct cusparseSpMatDescr *m = sp_mat(d);
    if (!m || !values)
        return CUSPARSE_STATUS_INVALID_VALUE;
    *values = (void *)(uintptr_t)m->s.values;
    return CUSPARSE_STATUS_SUCCESS;
}

cusparseStatus_t cusparseSpMatSetValues(cusparseSpMatDescr_t d, void *values)
{
    struct cusparseSpMatDescr *m = sp_w(d);
    if (!m)
        return CUSPARSE_STATUS_INVALID_VALUE;
    m->s.values = A(values);
    return CUSPARSE_STATUS_SUCCESS;
}

cusparseStatus_t cusparseSpMatGetStridedBatch(cusparseConstSpMatDescr_t d, int *batch)
{
    const struct cusparseSpMatDescr *m = sp_mat(d);
    if (!m || !batch)
        return CUSPARSE_STATUS_INVALID_VALUE;
    *batch = (int)m->s.batch;
    return CUSPARSE_STATUS_SUCCESS;
}

cusparseStatus_t cusparseCsrSetStridedBatch(cusparseSpMatDescr_t d, int batch, int64_t off_stride,
                                            int64_t colval_stride)
{
    struct cusparseSpMatDescr *m = sp_w(d);
    if (!m || m->s.format != CB_SP_CSR || batch <= 0 || off_stride < 0 || colval_stride < 0)
        return CUSPARSE_STATUS_INVALID_VALUE;
    m->s.batch = batch;
    m->s.off_stride = off_stride;
    m->s.idx_stride = m->s.val_stride = colval_stride;
    return CUSPARSE_STATUS_SUCCESS;
}

cusparseStatus_t cusparseCooSetStridedBatch(cusparseSpMatDescr_t d, int batch, int64_t stride)
{
    struct cusparseSpMatDescr *m = sp_w(d);
    if (!m || m->s.format != CB_SP_COO || batch <= 0 || stride < 0)
        return CUSPARSE_STATUS_INVALID_VALUE;
    m->s.batch = batch;
    m->s.idx_stride = m->s.val_stride = stride;
    return CUSPARSE_STATUS_SUCCESS;
}

cusparseStatus_t cusparseSpMatGetAttribute(cusparseConstSpMatDescr_t d, cusparseSpMatAttribute_t attr, void *data,
                                           size_t size)
{
    const struct cusparseSpMatDescr *m = sp_mat(d);
    if (!m || !data || size != sizeof(int))
        return CUSPARSE_STATUS_INVALID_VALUE;
    if (attr == CUSPARSE_SPMAT_FILL_MODE)
        *(int *)data = (int)m->fill;
    else if (attr == CUSPARSE_SPMAT_DIAG_TYPE)
        *(int *)data = (int)m->diag;
    else
        return CUSPARSE_STATUS_INVALID_VALUE;
    return CUSPARSE_STATUS_SUCCESS;
}

cusparseStatus_t cusparseSpMatSetAttribute(cusparseSpMatDescr_t d, cusparseSpMatAttribute_t attr, void *data,
                                           size_t size)
{
    struct cusparseSpMatDescr *m = sp_w(d);
    if (!m || !data || size != sizeof(int))
        return CUSPARSE_STATUS_INVALID_VALUE;
    /* the values are kept unchecked, as NVIDIA's library does */
    if (attr == CUSPARSE_SPMAT_FILL_MODE)
        m->fill = (cusparseFillMode_t) * (const int *)data;
    else if (attr == CUSPARSE_SPMAT_DIAG_TYPE)
        m->diag = (cusparseDiagType_t) * (const int *)data;
    else
        return CUSPARSE_STATUS_INVALID_VALUE;
    return CUSPARSE_STATUS_SUCCESS;
}

/* The getters of one format: INVALID_VALUE for another format. */
static cusparseStatus_t get_common(const struct cusparseSpMatDescr *m, int format, int64_t *rows, int64_t *cols,
                                   int64_t *nnz, cusparseIndexBase_t *base, cudaDataType *vt)
{
    if (!m || m->s.format != format || !rows || !cols || !nnz || !base || !vt)
        return CUSPARSE_STATUS_INVALID_VALUE;
    *rows = m->s.rows;
    *cols = m->s.cols;
    *nnz = m->s.nnz;
    *base = m->s.base ? CUSPARSE_INDEX_BASE_ONE : CUSPARSE_INDEX_BASE_ZERO;
    *vt = m->vtype;
    return CUSPARSE_STATUS_SUCCESS;
}

#define P(x) ((void *)(uintptr_t)(x))

cusparseStatus_t cusparseCsrGet(cusparseSpMatDescr_t d, int64_t *rows, int64_t *cols, int64_t *nnz, void **offsets,
                                void **colind, void **values, cusparseIndexType_t *off_t,
                                cusparseIndexType_t *col_t, cusparseIndexBase_t *base, cudaDataType *vt)
{
    const struct cusparseSpMatDescr *m = sp_mat(d);
    cusparseStatus_t st = get_common(m, CB_SP_CSR, rows, cols, nnz, base, vt);
    if (st != CUSPARSE_STATUS_SUCCESS || !offsets || !colind || !values || !off_t || !col_t)
        return CUSPARSE_STATUS_INVALID_VALUE;
    *offsets = P(m->s.offsets);
    *colind = P(m->s.colind);
    *values = P(m->s.values);
    *off_t = m->off_type;
    *col_t = m->idx_type;
    return CUSPARSE_STATUS_SUCCESS;
}

cusparseStatus_t cusparseCscGet(cusparseSpMatDescr_t d, int64_t *rows, int64_t *cols, int64_t *nnz, void **offsets,
                                void **rowind, void **values, cusparseIndexType_t *off_t,
                                cusparseIndexType_t *row_t, cusparseIndexBase_t *base, cudaDataType *vt)
{
    const struct cusparseSpMatDescr *m = sp_mat(d);
    cusparseStatus_t st = get_common(m, CB_SP_CSC, rows, cols, nnz, base, vt);
    if (st != CUSPARSE_STATUS_SUCCESS || !offsets || !rowind || !values || !off_t || !row_t)
        return CUSPARSE_STATUS_INVALID_VALUE;
    *offsets = P(m->s.offsets);
    *rowind = P(m->s.rowind);
    *values = P(m->s.values);
    *off_t = m->off_type;
    *row_t = m->idx_type;
    return CUSPARSE_STATUS_SUCCESS;
}

cusparseStatus_t cusparseCooGet(cusparseSpMatDescr_t d, int64_t *rows, int64_t *cols, int64_t *nnz, void **rowind,
                                void **colind, void **values, cusparseIndexType_t *idx_t, cusparseIndexBase_t *base,
                                cudaDataType *vt)
{
    const struct cusparseSpMatDescr *m = sp_mat(d);
    cusparseStatus_t st = get_common(m, CB_SP_COO, rows, cols, nnz, base, vt);
    if (st != CUSPARSE_STATUS_SUCCESS || !rowind || !colind || !values || !idx_t)
        return CUSPARSE_STATUS_INVALID_VALUE;
    *rowind = P(m->s.rowind);
    *colind = P(m->s.colind);
    *values = P(m->s.values);
    *idx_t = m->idx_type;
    return CUSPARSE_STATUS_SUCCESS;
}

cusparseStatus_t cusparseCsrSetPointers(cusparseSpMatDescr_t d, void *offsets, void *colind, void *values)
{
    struct cusparseSpMatDescr *m = sp_w(d);
    if (!m || m->s.format != CB_SP_CSR)
        return CUSPARSE_STATUS_INVALID_VALUE;
    m->s.offsets = A(offsets);
    m->s.colind = A(colind);
    m->s.values = A(values);
    return CUSPARSE_STATUS_SUCCESS;
}

cusparseStatus_t cusparseCscSetPointers(cusparseSpMatDescr_t d, void *offsets, void *rowind, void *values)
{
    struct cusparseSpMatDescr *m = sp_w(d);
    if (!m || m->s.format != CB_SP_CSC)
        return CUSPARSE_STATUS_INVALID_VALUE;
    m->s.offsets = A(offsets);
    m->s.rowind = A(rowind);
    m->s.values = A(values);
    return CUSPARSE_STATUS_SUCCESS;
}

cusparseStatus_t cusparseCooSetPointers(cusparseSpMatDescr_t d, void *rowind, void *colind, void *values)
{
    struct cusparseSpMatDescr *m = sp_w(d);
    if (!m || m->s.format != CB_SP_COO)
        return CUSPARSE_STATUS_INVALID_VALUE;
    m->s.rowind = A(rowind);
    m->s.colind = A(colind);
    m->s.values = A(values);
    return CUSPARSE_STATUS_SUCCESS;
}

/* ---- sparse vectors ------------------------------------------------------------------------ */

cusparseStatus_t cusparseCreateSpVec(cusparseSpVecDescr_t *d, int64_t size, int64_t nnz, void *indices, void *values,
                                     cusparseIndexType_t idx_t, cusparseIndexBase_t base, cudaDataType vt)
{
    struct cusparseSpMatDescr *m = NULL;
    if (!d)
        return CUSPARSE_STATUS_INVALID_VALUE;
    cusparseStatus_t st = sp_new(&m, sizeof(struct cusparseSpVecDescr), CB_SP_VEC, size, 1, nnz, 0, idx_t, base, vt);
    if (st == CUSPARSE_STATUS_SUCCESS) {
        m->s.colind = A(indices);
        m->s.values = A(values);
        *d = (cusparseSpVecDescr_t)m;
    }
    return st;
}

cusparseStatus_t cusparseCreateConstSpVec(cusparseConstSpVecDescr_t *d, int64_t size, int64_t nnz, const void *indices,
                                          const void *values, cusparseIndexType_t idx_t, cusparseIndexBase_t base,
                                          cudaDataType vt)
{
    return cusparseCreateSpVec((cusparseSpVecDescr_t *)d, size, nnz, (void *)indices, (void *)values, idx_t, base, vt);
}

cusparseStatus_t cusparseDestroySpVec(cusparseConstSpVecDescr_t d)
{
    return cusparseDestroySpMat((cusparseConstSpMatDescr_t)d);
}

cusparseStatus_t cusparseSpVecGet(cusparseSpVecDescr_t d, int64_t *size, int64_t *nnz, void **indices, void **values,
                                  cusparseIndexType_t *idx_t, cusparseIndexBase_t *base, cudaDataType *vt)
{
    const struct cusparseSpMatDescr *m = sp_mat(d);
    if (!m || m->s.format != CB_SP_VEC || !size || !nnz || !indices || !values || !idx_t || !base || !vt)
        return CUSPARSE_STATUS_INVALID_VALUE;
    *size = m->s.rows;
    *nnz = m->s.nnz;
    *indices = P(m->s.colind);
    *values = P(m->s.values);
    *idx_t = m->idx_type;
    *base = m->s.base ? CUSPARSE_INDEX_BASE_ONE : CUSPARSE_INDEX_BASE_ZERO;
    *vt = m->vtype;
    return CUSPARSE_STATUS_SUCCESS;
}

cusparseStatus_t cusparseSpVecGetIndexBase(cusparseConstSpVecDescr_t d, cusparseIndexBase_t *base)
{
    return cusparseSpMatGetIndexBase((cusparseConstSpMatDescr_t)d, base);
}

cusparseStatus_t cusparseSpVecGetValues(cusparseSpVecDescr_t d, void **values)
{
    return cusparseSpMatGetValues((cusparseSpMatDescr_t)d, values);
}

cusparseStatus_t cusparseSpVecSetValues(cusparseSpVecDescr_t d, void *values)
{
    return cusparseSpMatSetValues((cusparseSpMatDescr_t)d, values);
}

/* ---- dense matrices and vectors ---------------------------------------------------------- */

cusparseStatus_t cusparseCreateDnMat(cusparseDnMatDescr_t *d, int64_t rows, int64_t cols, int64_t ld, void *values,
                                     cudaDataType vt, cusparseOrder_t order)
{
    if (!d || rows < 0 || cols < 0 || !known_type(vt))
        return CUSPARSE_STATUS_INVALID_VALUE;
    if (order != CUSPARSE_ORDER_COL && order != CUSPARSE_ORDER_ROW)
        return CUSPARSE_STATUS_INVALID_VALUE;
    if (ld < (order == CUSPARSE_ORDER_COL ? rows : cols))
        return CUSPARSE_STATUS_INVALID_VALUE;
    struct cusparseDnMatDescr *m = calloc(1, sizeof(struct cusparseDnVecDescr));
    if (!m)
        return CUSPARSE_STATUS_ALLOC_FAILED;
    m->magic = CUSPARSE_DENSE_MAGIC;
    m->d = (cb_dense){.rows = rows, .cols = cols, .ld = ld, .row_major = order == CUSPARSE_ORDER_ROW,
                      .values = A(values), .type = (cb_blas_type)sp_value_type(vt), .batch = 1};
    m->vtype = vt;
    m->order = order;
    *d = m;
    return CUSPARSE_STATUS_SUCCESS;
}

cusparseStatus_t cusparseCreateConstDnMat(cusparseConstDnMatDescr_t *d, int64_t rows, int64_t cols, int64_t ld,
                                          const void *values, cudaDataType vt, cusparseOrder_t order)
{
    return cusparseCreateDnMat((cusparseDnMatDescr_t *)d, rows, cols, ld, (void *)values, vt, order);
}

cusparseStatus_t cusparseDestroyDnMat(cusparseConstDnMatDescr_t d)
{
    struct cusparseDnMatDescr *m = dn_w(d);
    if (m) {
        m->magic = 0;
        free(m);
    }
    return CUSPARSE_STATUS_SUCCESS;
}

cusparseStatus_t cusparseDnMatGet(cusparseDnMatDescr_t d, int64_t *rows, int64_t *cols, int64_t *ld, void **values,
                                  cudaDataType *vt, cusparseOrder_t *order)
{
    const struct cusparseDnMatDescr *m = sp_dn(d);
    if (!m || m->vector || !rows || !cols || !ld || !values || !vt || !order)
        return CUSPARSE_STATUS_INVALID_VALUE;
    *rows = m->d.rows;
    *cols = m->d.cols;
    *ld = m->d.ld;
    *values = P(m->d.values);
    *vt = m->vtype;
    *order = m->order;
    return CUSPARSE_STATUS_SUCCESS;
}

cusparseStatus_t cusparseDnMatGetValues(cusparseDnMatDescr_t d, void **values)
{
    const struct cusparseDnMatDescr *m = sp_dn(d);
    if (!m || !values)
        return CUSPARSE_STATUS_INVALID_VALUE;
    *values = P(m->d.values);
    return CUSPARSE_STATUS_SUCCESS;
}

cusparseStatus_t cusparseDnMatSetValues(cusparseDnMatDescr_t d, void *values)
{
    struct cusparseDnMatDescr *m = dn_w(d);
    if (!m)
        return CUSPARSE_STATUS_INVALID_VALUE;
    m->d.values = A(values);
    return CUSPARSE_STATUS_SUCCESS;
}

cusparseStatus_t cusparseDnMatGetStridedBatch(cusparseConstDnMatDescr_t d, int *batch, int64_t *stride)
{
    const struct cusparseDnMatDescr *m = sp_dn(d);
    if (!m || !batch || !stride)
        return CUSPARSE_STATUS_INVALID_VALUE;
    *batch = (int)m->d.batch;
    *stride = m->d.stride;
    return CUSPARSE_STATUS_SUCCESS;
}

cusparseStatus_t cusparseDnMatSetStridedBatch(cusparseDnMatDescr_t d, int batch, int64_t stride)
{
    struct cusparseDnMatDescr *m = dn_w(d);
    if (!m || batch <= 0)
        return CUSPARSE_STATUS_INVALID_VALUE;
    int64_t need;
    int huge = __builtin_mul_overflow(m->d.ld, m->d.row_major ? m->d.rows : m->d.cols, &need);
    if (batch > 1 && (huge || stride < need))
        return CUSPARSE_STATUS_INVALID_VALUE;
    m->d.batch = batch;
    m->d.stride = stride;
    return CUSPARSE_STATUS_SUCCESS;
}

cusparseStatus_t cusparseCreateDnVec(cusparseDnVecDescr_t *d, int64_t size, void *values, cudaDataType vt)
{
    if (!d || size < 0 || !known_type(vt))
        return CUSPARSE_STATUS_INVALID_VALUE;
    struct cusparseDnMatDescr *m = calloc(1, sizeof(struct cusparseDnVecDescr));
    if (!m)
        return CUSPARSE_STATUS_ALLOC_FAILED;
    m->magic = CUSPARSE_DENSE_MAGIC;
    m->d = (cb_dense){.rows = size, .cols = 1, .ld = size > 0 ? size : 1, .values = A(values),
                      .type = (cb_blas_type)sp_value_type(vt), .batch = 1};
    m->vtype = vt;
    m->order = CUSPARSE_ORDER_COL;
    m->vector = 1;
    *d = (cusparseDnVecDescr_t)m;
    return CUSPARSE_STATUS_SUCCESS;
}

cusparseStatus_t cusparseCreateConstDnVec(cusparseConstDnVecDescr_t *d, int64_t size, const void *values,
                                          cudaDataType vt)
{
    return cusparseCreateDnVec((cusparseDnVecDescr_t *)d, size, (void *)values, vt);
}

cusparseStatus_t cusparseDestroyDnVec(cusparseConstDnVecDescr_t d)
{
    return cusparseDestroyDnMat((cusparseConstDnMatDescr_t)d);
}

cusparseStatus_t cusparseDnVecGet(cusparseDnVecDescr_t d, int64_t *size, void **values, cudaDataType *vt)
{
    const struct cusparseDnMatDescr *m = sp_dn(d);
    if (!m || !m->vector || !size || !values || !vt)
        return CUSPARSE_STATUS_INVALID_VALUE;
    *size = m->d.rows;
    *values = P(m->d.values);
    *vt = m->vtype;
    return CUSPARSE_STATUS_SUCCESS;
}

cusparseStatus_t cusparseDnVecGetValues(cusparseDnVecDescr_t d, void **values)
{
    return cusparseDnMatGetValues((cusparseDnMatDescr_t)d, values);
}

cusparseStatus_t cusparseDnVecSetValues(cusparseDnVecDescr_t d, void *values)
{
    return cusparseDnMatSetValues((cusparseDnMatDescr_t)d, values);
}
