/* legacy.c: the conversions of the legacy API CuPy and older programs
 * still call: csr2cscEx2 (with its buffer size), csrsort / cscsort /
 * coosort by row or column (with theirs), coo2csr / csr2coo and the
 * identity permutation. 32-bit indices, as NVIDIA's.
 *
 * Bad input as NVIDIA's (tests/lib/cusparse_status.expected): csr2cscEx2
 * answers INVALID_VALUE for a NULL handle, the X* routines
 * NOT_INITIALIZED; negative sizes, unknown enumerators and a NULL buffer
 * are INVALID_VALUE. A NULL matrix descriptor, on which NVIDIA's csrsort
 * crashes, is INVALID_VALUE here.
 */
#include "cusparse_internal.h"

#define A(p) ((uint64_t)(uintptr_t)(p))

static int base_ok(cusparseIndexBase_t b) { return b == CUSPARSE_INDEX_BASE_ZERO || b == CUSPARSE_INDEX_BASE_ONE; }

/* ---- csr2cscEx2 -------------------------------------------------------------------------------- */

static cusparseStatus_t c2c_check(cusparseHandle_t h, int m, int n, int nnz, cudaDataType t, cusparseAction_t act,
                                  cusparseIndexBase_t base, cusparseCsr2CscAlg_t alg)
{
    cusparseStatus_t st = sp_handle(h);
    if (st != CUSPARSE_STATUS_SUCCESS)
        return st;
    if (m < 0 || n < 0 || nnz < 0 || (int)t < 0 || (int)t > 34 || !base_ok(base) || alg != CUSPARSE_CSR2CSC_ALG1)
        return CUSPARSE_STATUS_INVALID_VALUE;
    if (act != CUSPARSE_ACTION_SYMBOLIC && act != CUSPARSE_ACTION_NUMERIC)
        return CUSPARSE_STATUS_INVALID_VALUE;
    if (act == CUSPARSE_ACTION_NUMERIC && !sp_computable(sp_value_type(t)))
        return CUSPARSE_STATUS_NOT_SUPPORTED;
    return CUSPARSE_STATUS_SUCCESS;
}

cusparseStatus_t cusparseCsr2cscEx2_bufferSize(cusparseHandle_t h, int m, int n, int nnz, const void *val,
                                               const int *rowptr, const int *colind, void *cscval, int *cscptr,
                                               int *cscrow, cudaDataType t, cusparseAction_t act,
                                               cusparseIndexBase_t base, cusparseCsr2CscAlg_t alg, size_t *size)
{
    (void)val, (void)rowptr, (void)colind, (void)cscval, (void)cscptr, (void)cscrow;
    cusparseStatus_t st = c2c_check(h, m, n, nnz, t, act, base, alg);
    if (st == CUSPARSE_STATUS_SUCCESS && !size)
        st = CUSPARSE_STATUS_INVALID_VALUE;
    if (st == CUSPARSE_STATUS_SUCCESS)
        *size = 64;
    return st;
}

static CUresult run_c2c(sp_op *o, cb_backend *b)
{
    return b->lib->sparse_csr2csc(b, o->compute, o->m, o->n, o->nnz, o->p0, o->p1, o->p2, o->p3, o->p4, o->p5,
                                  o->values, o->base_ix);
}

cusparseStatus_t cusparseCsr2cscEx2(cusparseHandle_t h, int m, int n, int nnz, const void *val, const int *rowptr,
                                    const int *colind, void *cscval, int *cscptr, int *cscrow, cudaDataType t,
                                    cusparseAction_t act, cusparseIndexBase_t base, cusparseCsr2CscAlg_t alg,
                                    void *buf)
{
    cusparseStatus_t st = c2c_check(h, m, n, nnz, t, act, base, alg);
    if (st != CUSPARSE_STATUS_SUCCESS)
        return st;
    if (!buf)
        return CUSPARSE_STATUS_INVALID_VALUE;
    sp_op *o = sp_op_new("cusparseCsr2cscEx2", run_c2c);
    if (!o)
        return CUSPARSE_STATUS_ALLOC_FAILED;
    int num = act == CUSPARSE_ACTION_NUMERIC;
    o->compute = num ? (cb_blas_type)sp_value_type(t) : CB_BLAS_F32;
    o->m = m, o->n = n, o->nnz = nnz;
    o->p0 = A(val), o->p1 = A(rowptr), o->p2 = A(colind), o->p3 = A(cscval), o->p4 = A(cscptr), o->p5 = A(cscrow);
    o->values = num;
    o->base_ix = base == CUSPARSE_INDEX_BASE_ONE;
    sp_add_ints(o, "csrRowPtr", o->p1, m + 1, 0);
    sp_add_ints(o, "csrColInd", o->p2, nnz, 0);
    if (num) {
        sp_add_values(o, "csrVal", o->p0, nnz, o->compute, 0);
        sp_add_values(o, "cscVal", o->p3, nnz, o->compute, 1);
    }
    sp_add_ints(o, "cscColPtr", o->p4, n + 1, 1);
    sp_add_ints(o, "cscRowInd", o->p5, nnz, 1);
    o->reference = sp_ref_c2c;
    return sp_submit(h, o, 0);
}

/* ---- sorting ----------------------------------------------------------------------------------- */

static cusparseStatus_t sort_size(cusparseHandle_t h, int m, int n, int nnz, size_t *size)
{
    cusparseStatus_t st = sp_handle_legacy(h);
    if (st != CUSPARSE_STATUS_SUCCESS)
        return st;
    if (m < 0 || n < 0 || nnz < 0 || !size)
        return CUSPARSE_STATUS_INVALID_VALUE;
    *size = 64 + (size_t)nnz * 8;
    return CUSPARSE_STATUS_SUCCESS;
}

cusparseStatus_t cusparseXcsrsort_bufferSizeExt(cusparseHandle_t h, int m, int n, int nnz, const int *rowptr,
                                                const int *colind, size_t *size)
{
    (void)rowptr, (void)colind;
    return sort_size(h, m, n, nnz, size);
}

cusparseStatus_t cusparseXcscsort_bufferSizeExt(cusparseHandle_t h, int m, int n, int nnz, const int *colptr,
                                                const int *rowind, size_t *size)
{
    (void)colptr, (void)rowind;
    return sort_size(h, m, n, nnz, size);
}

cusparseStatus_t cusparseXcoosort_bufferSizeExt(cusparseHandle_t h, int m, int n, int nnz, const int *rows,
                                                const int *cols, size_t *size)
{
    (void)rows, (void)cols;
    return sort_size(h, m, n, nnz, size);
}

static CUresult run_sort(sp_op *o, cb_backend *b)
{
    return b->lib->sparse_sort(b, o->kind, o->m, o->n, o->nnz, o->p0, o->p1, o->p2, o->base_ix);
}

static cusparseStatus_t sort(cusparseHandle_t h, const char *fn, int kind, int m, int n, int nnz, int base,
                             const int *ptr, int *ind, int *perm, void *buf)
{
    if (m < 0 || n < 0 || nnz < 0)
        return CUSPARSE_STATUS_INVALID_VALUE;
    if (!buf)
        return CUSPARSE_STATUS_INVALID_VALUE;
    if (nnz == 0)
        return CUSPARSE_STATUS_SUCCESS;
    sp_op *o = sp_op_new(fn, run_sort);
    if (!o)
        return CUSPARSE_STATUS_ALLOC_FAILED;
    o->kind = kind;
    o->m = m, o->n = n, o->nnz = nnz;
    o->p0 = A(ptr), o->p1 = A(ind), o->p2 = A(perm);
    o->base_ix = base;
    o->compute = CB_BLAS_I32;
    int coo = kind == CB_SPSORT_COO_ROW || kind == CB_SPSORT_COO_COL;
    if (coo)
        sp_add_ints(o, "rows", o->p0, nnz, 1);
    else
        sp_add_ints(o, "offsets", o->p0, (kind == CB_SPSORT_CSR ? m : n) + 1, 0);
    sp_add_ints(o, coo ? "cols" : "indices", o->p1, nnz, 1);
    sp_add_ints(o, "P", o->p2, nnz, 1);
    o->reference = sp_ref_sort;
    return sp_submit(h, o, 0);
}

cusparseStatus_t cusparseXcsrsort(cusparseHandle_t h, int m, int n, int nnz, const cusparseMatDescr_t d,
                                  const int *rowptr, int *colind, int *perm, void *buf)
{
    cusparseStatus_t st = sp_handle_legacy(h);
    if (st != CUSPARSE_STATUS_SUCCESS)
        return st;
    if (!d)
        return CUSPARSE_STATUS_INVALID_VALUE;
    return sort(h, "cusparseXcsrsort", CB_SPSORT_CSR, m, n, nnz, d->base == CUSPARSE_INDEX_BASE_ONE, rowptr, colind,
                perm, buf);
}

cusparseStatus_t cusparseXcscsort(cusparseHandle_t h, int m, int n, int nnz, const cusparseMatDescr_t d,
                                  const int *colptr, int *rowind, int *perm, void *buf)
{
    cusparseStatus_t st = sp_handle_legacy(h);
    if (st != CUSPARSE_STATUS_SUCCESS)
        return st;
    if (!d)
        return CUSPARSE_STATUS_INVALID_VALUE;
    return sort(h, "cusparseXcscsort", CB_SPSORT_CSC, m, n, nnz, d->base == CUSPARSE_INDEX_BASE_ONE, colptr, rowind,
                perm, buf);
}

cusparseStatus_t cusparseXcoosortByRow(cusparseHandle_t h, int m, int n, int nnz, int *rows, int *cols, int *perm,
                                       void *buf)
{
    cusparseStatus_t st = sp_handle_legacy(h);
    if (st != CUSPARSE_STATUS_SUCCESS)
        return st;
    return sort(h, "cusparseXcoosortByRow", CB_SPSORT_COO_ROW, m, n, nnz, 0, rows, cols, perm, buf);
}

cusparseStatus_t cusparseXcoosortByColumn(cusparseHandle_t h, int m, int n, int nnz, int *rows, int *cols, int *perm,
                                          void *buf)
{
    cusparseStatus_t st = sp_handle_legacy(h);
    if (st != CUSPARSE_STATUS_SUCCESS)
        return st;
    return sort(h, "cusparseXcoosortByColumn", CB_SPSORT_COO_COL, m, n, nnz, 0, rows, cols, perm, buf);
}

/* ---- compress / expand, identity ------------------------------------------------------------------ */

static CUresult run_compress(sp_op *o, cb_backend *b)
{
    return b->lib->sparse_compress(b, o->kind, o->m, o->nnz, o->p0, o->p1, o->base_ix);
}

static cusparseStatus_t compress(cusparseHandle_t h, const char *fn, int expand, const int *rows, int nnz, int m,
                                 const int *offsets, cusparseIndexBase_t base)
{
    cusparseStatus_t st = sp_handle_legacy(h);
    if (st != CUSPARSE_STATUS_SUCCESS)
        return st;
    if (nnz < 0 || m < 0 || !base_ok(base))
        return CUSPARSE_STATUS_INVALID_VALUE;
    if (m == 0)
        return CUSPARSE_STATUS_SUCCESS;
    sp_op *o = sp_op_new(fn, run_compress);
    if (!o)
        return CUSPARSE_STATUS_ALLOC_FAILED;
    o->kind = expand;
    o->m = m, o->nnz = nnz;
    o->p0 = A(rows), o->p1 = A(offsets);
    o->base_ix = base == CUSPARSE_INDEX_BASE_ONE;
    o->compute = CB_BLAS_I32;
    sp_add_ints(o, "cooRows", o->p0, nnz, expand);
    sp_add_ints(o, "csrRowPtr", o->p1, m + 1, !expand);
    o->reference = sp_ref_compress;
    return sp_submit(h, o, 0);
}

cusparseStatus_t cusparseXcoo2csr(cusparseHandle_t h, const int *rows, int nnz, int m, int *offsets,
                                  cusparseIndexBase_t base)
{
    return compress(h, "cusparseXcoo2csr", 0, rows, nnz, m, offsets, base);
}

cusparseStatus_t cusparseXcsr2coo(cusparseHandle_t h, const int *offsets, int nnz, int m, int *rows,
                                  cusparseIndexBase_t base)
{
    return compress(h, "cusparseXcsr2coo", 1, rows, nnz, m, offsets, base);
}

static CUresult run_identity(sp_op *o, cb_backend *b) { return b->lib->sparse_identity(b, o->n, o->p0); }

cusparseStatus_t cusparseCreateIdentityPermutation(cusparseHandle_t h, int n, int *p)
{
    cusparseStatus_t st = sp_handle_legacy(h);
    if (st != CUSPARSE_STATUS_SUCCESS)
        return st;
    if (n < 0)
        return CUSPARSE_STATUS_INVALID_VALUE;
    if (n == 0)
        return CUSPARSE_STATUS_SUCCESS;
    sp_op *o = sp_op_new("cusparseCreateIdentityPermutation", run_identity);
    if (!o)
        return CUSPARSE_STATUS_ALLOC_FAILED;
    o->n = n;
    o->p0 = A(p);
    o->compute = CB_BLAS_I32;
    sp_add_ints(o, "p", o->p0, n, 1);
    o->reference = sp_ref_identity;
    return sp_submit(h, o, 0);
}
