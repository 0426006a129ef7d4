/* generic.c: the generic API's computing calls -- SpMV, SpMM (with their
 * buffer-size and preprocess calls), SpVV, Axpby, Gather, Scatter and the
 * sparse <-> dense conversions -- on the backend's sparse kernels.
 *
 * Validation follows NVIDIA's library as recorded on the H200: NULL
 * pointers, unknown operations or algorithms, an algorithm of another
 * format and sizes that do not match are INVALID_VALUE; a value type that
 * is not the compute type, or a compute type the backend lacks (only
 * S/D/C/Z compute), is NOT_SUPPORTED; the external buffer must not be NULL
 * (the buffer sizes asked for are never 0).
 */
#include "cusparse_internal.h"

#include <stdlib.h>

#define BUF_BYTES 64   /* what the buffer-size queries answer (the CPU needs none) */

static int op_ok(cusparseOperation_t op)
{
    return op == CUSPARSE_OPERATION_NON_TRANSPOSE || op == CUSPARSE_OPERATION_TRANSPOSE ||
           op == CUSPARSE_OPERATION_CONJUGATE_TRANSPOSE;
}

static int cplx(cb_blas_type t) { return t == CB_BLAS_C32 || t == CB_BLAS_C64; }

/* ---- SpMV ---------------------------------------------------------------------------------- */

static int spmv_alg_ok(int format, cusparseSpMVAlg_t alg)
{
    switch (alg) {
    case CUSPARSE_SPMV_ALG_DEFAULT: return 1;
    case CUSPARSE_SPMV_CSR_ALG1:
    case CUSPARSE_SPMV_CSR_ALG2: return format == CB_SP_CSR || format == CB_SP_CSC;
    case CUSPARSE_SPMV_COO_ALG1:
    case CUSPARSE_SPMV_COO_ALG2: return format == CB_SP_COO;
    default: return 0;
    }
}

static cusparseStatus_t spmv_check(cusparseHandle_t h, cusparseOperation_t op, const void *alpha, const void *ma,
                                   const void *vx, const void *beta, const void *vy, cudaDataType ct,
                                   cusparseSpMVAlg_t alg)
{
    cusparseStatus_t st = sp_handle(h);
    if (st != CUSPARSE_STATUS_SUCCESS)
        return st;
    const struct cusparseSpMatDescr *a = sp_mat(ma);
    const struct cusparseDnMatDescr *x = sp_dn(vx), *y = sp_dn(vy);
    if (!alpha || !beta || !a || !x || !y || !op_ok(op) || !spmv_alg_ok(a->s.format, alg))
        return CUSPARSE_STATUS_INVALID_VALUE;
    int64_t need_x = op == CUSPARSE_OPERATION_NON_TRANSPOSE ? a->s.cols : a->s.rows;
    int64_t need_y = op == CUSPARSE_OPERATION_NON_TRANSPOSE ? a->s.rows : a->s.cols;
    if (x->d.rows != need_x || y->d.rows != need_y)
        return CUSPARSE_STATUS_INVALID_VALUE;
    if (op == CUSPARSE_OPERATION_CONJUGATE_TRANSPOSE && !cplx(a->s.type))
        return CUSPARSE_STATUS_INVALID_VALUE;
    int t = sp_value_type(ct);
    if (!sp_computable(t) || (int)a->s.type != t || (int)x->d.type != t || (int)y->d.type != t)
        return CUSPARSE_STATUS_NOT_SUPPORTED;
    if (a->s.format != CB_SP_CSR && a->s.format != CB_SP_CSC && a->s.format != CB_SP_COO)
        return CUSPARSE_STATUS_NOT_SUPPORTED;
    return CUSPARSE_STATUS_SUCCESS;
}

cusparseStatus_t cusparseSpMV_bufferSize(cusparseHandle_t h, cusparseOperation_t op, const void *alpha,
                                         cusparseConstSpMatDescr_t a, cusparseConstDnVecDescr_t x, const void *beta,
                                         cusparseDnVecDescr_t y, cudaDataType ct, cusparseSpMVAlg_t alg,
                                         size_t *size)
{
    cusparseStatus_t st = spmv_check(h, op, alpha, a, x, beta, y, ct, alg);
    if (st == CUSPARSE_STATUS_SUCCESS && !size)
        st = CUSPARSE_STATUS_INVALID_VALUE;
    if (st == CUSPARSE_STATUS_SUCCESS)
        *size = BUF_BYTES;
    return st;
}

cusparseStatus_t cusparseSpMV_preprocess(cusparseHandle_t h, cusparseOperation_t op, const void *alpha,
                                         cusparseConstSpMatDescr_t a, cusparseConstDnVecDescr_t x, const void *beta,
                                         cusparseDnVecDescr_t y, cudaDataType ct, cusparseSpMVAlg_t alg, void *buf)
{
    /* nothing to prepare on this backend: the checks only */
    cusparseStatus_t st = spmv_check(h, op, alpha, a, x, beta, y, ct, alg);
    return st == CUSPARSE_STATUS_SUCCESS && !buf ? CUSPARSE_STATUS_INVALID_VALUE : st;
}

static CUresult run_mv(sp_op *o, cb_backend *b)
{
    return b->lib->sparse_mv(b, o->trans_a, o->alpha, &o->a, &o->x, o->beta, &o->y, o->compute);
}

static CUresult run_mm(sp_op *o, cb_backend *b)
{
    return b->lib->sparse_mm(b, o->trans_a, o->trans_b, o->alpha, &o->a, &o->x, o->beta, &o->y, o->compute);
}

static int trans_of(cusparseOperation_t op) { return op == CUSPARSE_OPERATION_TRANSPOSE ? 1 : op ? 2 : 0; }

cusparseStatus_t cusparseSpMV(cusparseHandle_t h, cusparseOperation_t op, const void *alpha,
                              cusparseConstSpMatDescr_t a, cusparseConstDnVecDescr_t x, const void *beta,
                              cusparseDnVecDescr_t y, cudaDataType ct, cusparseSpMVAlg_t alg, void *buf)
{
    cusparseStatus_t st = spmv_check(h, op, alpha, a, x, beta, y, ct, alg);
    if (st != CUSPARSE_STATUS_SUCCESS)
        return st;
    if (!buf)
        return CUSPARSE_STATUS_INVALID_VALUE;
    sp_op *o = sp_op_new("cusparseSpMV", run_mv);
    if (!o)
        return CUSPARSE_STATUS_ALLOC_FAILED;
    o->a = sp_mat(a)->s;
    o->x = sp_dn(x)->d;
    o->y = sp_dn(y)->d;
    o->trans_a = trans_of(op);
    o->compute = o->a.type;
    sp_scalars(h, o, alpha, beta);
    sp_add_sparse(o, "A", &o->a, 0);
    sp_add_dense(o, "x", &o->x, 0);
    sp_add_dense(o, "y", &o->y, 1);
    o->reference = sp_ref_mm;
    return sp_submit(h, o, 0);
}

/* ---- SpMM ---------------------------------------------------------------------------------- */

static int spmm_alg_ok(int format, cusparseSpMMAlg_t alg)
{
    switch (alg) {
    case CUSPARSE_SPMM_ALG_DEFAULT: return 1;
    case CUSPARSE_SPMM_COO_ALG1:
    case CUSPARSE_SPMM_COO_ALG2:
    case CUSPARSE_SPMM_COO_ALG3:
    case CUSPARSE_SPMM_COO_ALG4: return format == CB_SP_COO;
    case CUSPARSE_SPMM_CSR_ALG1:
    case CUSPARSE_SPMM_CSR_ALG2:
    case CUSPARSE_SPMM_CSR_ALG3: return format == CB_SP_CSR || format == CB_SP_CSC;
    case CUSPARSE_SPMM_BLOCKED_ELL_ALG1: return format == CB_SP_BELL;
    default: return 0;
    }
}

static cusparseStatus_t spmm_check(cusparseHandle_t h, cusparseOperation_t oa, cusparseOperation_t ob,
                                   const void *alpha, const void *ma, const void *mb, const void *beta,
                                   const void *mc, cudaDataType ct, cusparseSpMMAlg_t alg)
{
    cusparseStatus_t st = sp_handle(h);
    if (st != CUSPARSE_STATUS_SUCCESS)
        return st;
    const struct cusparseSpMatDescr *a = sp_mat(ma);
    const struct cusparseDnMatDescr *b = sp_dn(mb), *c = sp_dn(mc);
    if (!alpha || !beta || !a || !b || !c || !op_ok(oa) || !op_ok(ob) || !spmm_alg_ok(a->s.format, alg))
        return CUSPARSE_STATUS_INVALID_VALUE;
    int64_t m = oa ? a->s.cols : a->s.rows, k = oa ? a->s.rows : a->s.cols;
    int64_t bk = ob ? b->d.cols : b->d.rows, n = ob ? b->d.rows : b->d.cols;
    if (bk != k || c->d.rows != m || c->d.cols != n)
        return CUSPARSE_STATUS_INVALID_VALUE;
    int t = sp_value_type(ct);
    if (!sp_computable(t) || (int)a->s.type != t || (int)b->d.type != t || (int)c->d.type != t)
        return CUSPARSE_STATUS_NOT_SUPPORTED;
    if (a->s.format != CB_SP_CSR && a->s.format != CB_SP_CSC && a->s.format != CB_SP_COO)
        return CUSPARSE_STATUS_NOT_SUPPORTED;
    if (a->s.batch > 1 && a->s.batch != c->d.batch)
        return CUSPARSE_STATUS_INVALID_VALUE;
    return CUSPARSE_STATUS_SUCCESS;
}

cusparseStatus_t cusparseSpMM_bufferSize(cusparseHandle_t h, cusparseOperation_t oa, cusparseOperation_t ob,
                                         const void *alpha, cusparseConstSpMatDescr_t a, cusparseConstDnMatDescr_t b,
                                         const void *beta, cusparseDnMatDescr_t c, cudaDataType ct,
                                         cusparseSpMMAlg_t alg, size_t *size)
{
    cusparseStatus_t st = spmm_check(h, oa, ob, alpha, a, b, beta, c, ct, alg);
    if (st == CUSPARSE_STATUS_SUCCESS && !size)
        st = CUSPARSE_STATUS_INVALID_VALUE;
    if (st == CUSPARSE_STATUS_SUCCESS)
        *size = BUF_BYTES;
    return st;
}

cusparseStatus_t cusparseSpMM_preprocess(cusparseHandle_t h, cusparseOperation_t oa, cusparseOperation_t ob,
                                         const void *alpha, cusparseConstSpMatDescr_t a, cusparseConstDnMatDescr_t b,
                                         const void *beta, cusparseDnMatDescr_t c, cudaDataType ct,
                                         cusparseSpMMAlg_t alg, void *buf)
{
    cusparseStatus_t st = spmm_check(h, oa, ob, alpha, a, b, beta, c, ct, alg);
    return st == CUSPARSE_STATUS_SUCCESS && !buf ? CUSPARSE_STATUS_INVALID_VALUE : st;
}

cusparseStatus_t cusparseSpMM(cusparseHandle_t h, cusparseOperation_t oa, cusparseOperation_t ob, const void *alpha,
                              cusparseConstSpMatDescr_t a, cusparseConstDnMatDescr_t b, const void *beta,
                              cusparseDnMatDescr_t c, cudaDataType ct, cusparseSpMMAlg_t alg, void *buf)
{
    cusparseStatus_t st = spmm_check(h, oa, ob, alpha, a, b, beta, c, ct, alg);
    if (st != CUSPARSE_STATUS_SUCCESS)
        return st;
    if (!buf)
        return CUSPARSE_STATUS_INVALID_VALUE;
    sp_op *o = sp_op_new("cusparseSpMM", run_mm);
    if (!o)
        return CUSPARSE_STATUS_ALLOC_FAILED;
    o->a = sp_mat(a)->s;
    o->x = sp_dn(b)->d;
    o->y = sp_dn(c)->d;
    o->trans_a = trans_of(oa);
    o->trans_b = trans_of(ob);
    o->compute = o->a.type;
    sp_scalars(h, o, alpha, beta);
    sp_add_sparse(o, "A", &o->a, 0);
    sp_add_dense(o, "B", &o->x, 0);
    sp_add_dense(o, "C", &o->y, 1);
    o->reference = sp_ref_mm;
    return sp_submit(h, o, 0);
}

/* ---- sparse vectors ------------------------------------------------------------------------ */

static CUresult run_vec(sp_op *o, cb_backend *b)
{
    void *res = o->kind == CB_SPVEC_DOT || o->kind == CB_SPVEC_DOTC ? o->result : NULL;
    CUresult r = b->lib->sparse_vec(b, o->kind, &o->a, &o->y, o->alpha, o->beta, res, o->compute);
    if (r != CUDA_SUCCESS || !res)
        return r;
    size_t w = cb_blas_type_size(o->compute);
    if (o->result_host) {
        memcpy(o->result_host, o->result, w);
        return CUDA_SUCCESS;
    }
    return cbl_write(&o->base, o->result_dev, o->result, w);
}

/* x sparse, y dense, the same size and value type. */
static cusparseStatus_t vec_check(cusparseHandle_t h, const void *vx, const void *vy)
{
    cusparseStatus_t st = sp_handle(h);
    if (st != CUSPARSE_STATUS_SUCCESS)
        return st;
    const struct cusparseSpMatDescr *x = sp_mat(vx);
    const struct cusparseDnMatDescr *y = sp_dn(vy);
    if (!x || !y || x->s.format != CB_SP_VEC || x->s.rows != y->d.rows || x->s.type != y->d.type)
        return CUSPARSE_STATUS_INVALID_VALUE;
    if (!sp_computable(x->s.type))
        return CUSPARSE_STATUS_NOT_SUPPORTED;
    return CUSPARSE_STATUS_SUCCESS;
}

static cusparseStatus_t vec_submit(cusparseHandle_t h, const char *fn, int kind, const void *vx, const void *vy,
                                   const void *alpha, const void *beta, int x_out, int y_out)
{
    sp_op *o = sp_op_new(fn, run_vec);
    if (!o)
        return CUSPARSE_STATUS_ALLOC_FAILED;
    o->kind = kind;
    o->a = sp_mat(vx)->s;
    o->y = sp_dn(vy)->d;
    o->compute = o->a.type;
    sp_scalars(h, o, alpha, beta);
    sp_add_sparse(o, "x", &o->a, x_out);
    sp_add_dense(o, "y", &o->y, y_out);
    o->reference = sp_ref_vec;
    return sp_submit(h, o, 0);
}

cusparseStatus_t cusparseAxpby(cusparseHandle_t h, const void *alpha, cusparseConstSpVecDescr_t x, const void *beta,
                               cusparseDnVecDescr_t y)
{
    cusparseStatus_t st = vec_check(h, x, y);
    if (st == CUSPARSE_STATUS_SUCCESS && (!alpha || !beta))
        st = CUSPARSE_STATUS_INVALID_VALUE;
    if (st != CUSPARSE_STATUS_SUCCESS)
        return st;
    return vec_submit(h, "cusparseAxpby", CB_SPVEC_AXPBY, x, y, alpha, beta, 0, 1);
}

cusparseStatus_t cusparseGather(cusparseHandle_t h, cusparseConstDnVecDescr_t y, cusparseSpVecDescr_t x)
{
    cusparseStatus_t st = vec_check(h, x, y);
    return st != CUSPARSE_STATUS_SUCCESS ? st : vec_submit(h, "cusparseGather", CB_SPVEC_GATHER, x, y, NULL, NULL, 1, 0);
}

cusparseStatus_t cusparseScatter(cusparseHandle_t h, cusparseConstSpVecDescr_t x, cusparseDnVecDescr_t y)
{
    cusparseStatus_t st = vec_check(h, x, y);
    return st != CUSPARSE_STATUS_SUCCESS ? st
                                         : vec_submit(h, "cusparseScatter", CB_SPVEC_SCATTER, x, y, NULL, NULL, 0, 1);
}

static cusparseStatus_t spvv_check(cusparseHandle_t h, cusparseOperation_t op, const void *x, const void *y,
                                   const void *result, cudaDataType ct)
{
    cusparseStatus_t st = sp_handle(h);
    if (st != CUSPARSE_STATUS_SUCCESS)
        return st;
    if (!result || (op != CUSPARSE_OPERATION_NON_TRANSPOSE && op != CUSPARSE_OPERATION_CONJUGATE_TRANSPOSE))
        return CUSPARSE_STATUS_INVALID_VALUE;
    st = vec_check(h, x, y);
    if (st == CUSPARSE_STATUS_SUCCESS && sp_value_type(ct) != (int)sp_mat(x)->s.type)
        st = CUSPARSE_STATUS_NOT_SUPPORTED;
    return st;
}

cusparseStatus_t cusparseSpVV_bufferSize(cusparseHandle_t h, cusparseOperation_t op, cusparseConstSpVecDescr_t x,
                                         cusparseConstDnVecDescr_t y, const void *result, cudaDataType ct,
                                         size_t *size)
{
    cusparseStatus_t st = spvv_check(h, op, x, y, result, ct);
    if (st == CUSPARSE_STATUS_SUCCESS && !size)
        st = CUSPARSE_STATUS_INVALID_VALUE;
    if (st == CUSPARSE_STATUS_SUCCESS)
        *size = BUF_BYTES;
    return st;
}

cusparseStatus_t cusparseSpVV(cusparseHandle_t h, cusparseOperation_t op, cusparseConstSpVecDescr_t x,
                              cusparseConstDnVecDescr_t y, void *result, cudaDataType ct, void *buf)
{
    cusparseStatus_t st = spvv_check(h, op, x, y, result, ct);
    if (st != CUSPARSE_STATUS_SUCCESS)
        return st;
    if (!buf)
        return CUSPARSE_STATUS_INVALID_VALUE;
    sp_op *o = sp_op_new("cusparseSpVV", run_vec);
    if (!o)
        return CUSPARSE_STATUS_ALLOC_FAILED;
    o->kind = op == CUSPARSE_OPERATION_NON_TRANSPOSE ? CB_SPVEC_DOT : CB_SPVEC_DOTC;
    o->a = sp_mat(x)->s;
    o->y = sp_dn(y)->d;
    o->compute = o->a.type;
    int host = h->pointer_mode == CUSPARSE_POINTER_MODE_HOST;
    if (host)
        o->result_host = result;
    else
        o->result_dev = (uint64_t)(uintptr_t)result;
    sp_add_sparse(o, "x", &o->a, 0);
    sp_add_dense(o, "y", &o->y, 0);
    if (host)
        sp_add_host(o, "result", result, cb_blas_type_size(o->compute), o->compute == CB_BLAS_F64 ||
                    o->compute == CB_BLAS_C64 ? CB_ELEM_F64 : CB_ELEM_F32, 0);
    else
        sp_add_values(o, "result", o->result_dev, 1, o->compute, 1);
    o->reference = sp_ref_vec;
    return sp_submit(h, o, host);
}

/* ---- sparse <-> dense ---------------------------------------------------------------------- */

static cusparseStatus_t conv_check(cusparseHandle_t h, const void *sp, const void *dn, int alg)
{
    cusparseStatus_t st = sp_handle(h);
    if (st != CUSPARSE_STATUS_SUCCESS)
        return st;
    const struct cusparseSpMatDescr *a = sp_mat(sp);
    const struct cusparseDnMatDescr *d = sp_dn(dn);
    if (!a || !d || alg != 0 || a->s.rows != d->d.rows || a->s.cols != d->d.cols)
        return CUSPARSE_STATUS_INVALID_VALUE;
    if (a->s.type != d->d.type)
        return CUSPARSE_STATUS_INVALID_VALUE;
    if (!sp_computable(a->s.type) || (a->s.format != CB_SP_CSR && a->s.format != CB_SP_CSC && a->s.format != CB_SP_COO))
        return CUSPARSE_STATUS_NOT_SUPPORTED;
    return CUSPARSE_STATUS_SUCCESS;
}

cusparseStatus_t cusparseSparseToDense_bufferSize(cusparseHandle_t h, cusparseConstSpMatDescr_t a,
                                                  cusparseDnMatDescr_t b, cusparseSparseToDenseAlg_t alg,
                                                  size_t *size)
{
    cusparseStatus_t st = conv_check(h, a, b, alg);
    if (st == CUSPARSE_STATUS_SUCCESS && !size)
        st = CUSPARSE_STATUS_INVALID_VALUE;
    if (st == CUSPARSE_STATUS_SUCCESS)
        *size = BUF_BYTES;
    return st;
}

static CUresult run_to_dense(sp_op *o, cb_backend *b) { return b->lib->sparse_to_dense(b, &o->a, &o->y); }

cusparseStatus_t cusparseSparseToDense(cusparseHandle_t h, cusparseConstSpMatDescr_t a, cusparseDnMatDescr_t b,
                                       cusparseSparseToDenseAlg_t alg, void *buf)
{
    cusparseStatus_t st = conv_check(h, a, b, alg);
    if (st != CUSPARSE_STATUS_SUCCESS)
        return st;
    (void)buf;
    sp_op *o = sp_op_new("cusparseSparseToDense", run_to_dense);
    if (!o)
        return CUSPARSE_STATUS_ALLOC_FAILED;
    o->a = sp_mat(a)->s;
    o->y = sp_dn(b)->d;
    o->compute = o->a.type;
    sp_add_sparse(o, "A", &o->a, 0);
    sp_add_dense(o, "B", &o->y, 1);
    o->reference = sp_ref_to_dense;
    return sp_submit(h, o, 0);
}

cusparseStatus_t cusparseDenseToSparse_bufferSize(cusparseHandle_t h, cusparseConstDnMatDescr_t a,
                                                  cusparseSpMatDescr_t b, cusparseDenseToSparseAlg_t alg,
                                                  size_t *size)
{
    cusparseStatus_t st = conv_check(h, b, a, alg);
    if (st == CUSPARSE_STATUS_SUCCESS && !size)
        st = CUSPARSE_STATUS_INVALID_VALUE;
    if (st == CUSPARSE_STATUS_SUCCESS)
        *size = BUF_BYTES;
    return st;
}

static CUresult run_from_dense(sp_op *o, cb_backend *b)
{
    int64_t nnz = 0;
    CUresult r = b->lib->sparse_from_dense(b, &o->y, &o->a, o->count_only, &nnz);
    if (r == CUDA_SUCCESS && o->count_only)
        o->target->s.nnz = nnz;   /* the caller waits for this op */
    return r;
}

static cusparseStatus_t from_dense(cusparseHandle_t h, const void *a, cusparseSpMatDescr_t b, int alg, int count)
{
    cusparseStatus_t st = conv_check(h, b, a, alg);
    if (st != CUSPARSE_STATUS_SUCCESS)
        return st;
    sp_op *o = sp_op_new(count ? "cusparseDenseToSparse_analysis" : "cusparseDenseToSparse_convert",
                         run_from_dense);
    if (!o)
        return CUSPARSE_STATUS_ALLOC_FAILED;
    o->a = sp_mat(b)->s;
    o->y = sp_dn(a)->d;
    o->compute = o->a.type;
    o->count_only = count;
    o->target = (struct cusparseSpMatDescr *)sp_mat(b);
    sp_add_dense(o, "A", &o->y, 0);
    if (count) {
        if (o->a.format != CB_SP_COO)
            sp_add_idx(o, "offsets", o->a.offsets, (o->a.format == CB_SP_CSR ? o->a.rows : o->a.cols) + 1,
                       o->a.off_bytes, 1);
        sp_add_host(o, "nnz", &o->target->s.nnz, sizeof(int64_t), CB_ELEM_INT, 8);
    } else {
        sp_add_sparse(o, "B", &o->a, 1);
    }
    o->reference = sp_ref_from_dense;
    return sp_submit(h, o, count);
}

cusparseStatus_t cusparseDenseToSparse_analysis(cusparseHandle_t h, cusparseConstDnMatDescr_t a,
                                                cusparseSpMatDescr_t b, cusparseDenseToSparseAlg_t alg, void *buf)
{
    (void)buf;
    return from_dense(h, a, b, alg, 1);
}

cusparseStatus_t cusparseDenseToSparse_convert(cusparseHandle_t h, cusparseConstDnMatDescr_t a,
                                               cusparseSpMatDescr_t b, cusparseDenseToSparseAlg_t alg, void *buf)
{
    (void)buf;
    return from_dense(h, a, b, alg, 0);
}
