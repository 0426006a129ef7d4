/* spgemm.c: SpGEMM, C = alpha A B of CSR matrices (the generic API's
 * createDescr / workEstimation / compute / copy protocol).
 *
 *   workEstimation  with a NULL buffer: its size; with one: counts the
 *                   products (an upper bound of C's nnz), waiting for it;
 *   compute         with a NULL buffer: the scratch the product needs
 *                   (cb_spgemm_scratch_bytes); with one: the product into
 *                   that scratch, waiting, then C's nnz is known
 *                   (cusparseSpMatGetSize), as with NVIDIA's library;
 *   copy            writes C's offsets, columns (ascending in each row)
 *                   and values into the arrays the caller set on C.
 * Only op N for both and beta = 0 (host pointer mode: checked), as
 * NVIDIA's SpGEMM supports; other formats are NOT_SUPPORTED.
 */
#include "cusparse_internal.h"

#include <stdlib.h>

#define SPGEMM_MAGIC 0x63624747u

static struct cusparseSpGEMMDescr *g_of(cusparseSpGEMMDescr_t g)
{
    return g && g->magic == SPGEMM_MAGIC ? g : NULL;
}

cusparseStatus_t cusparseSpGEMM_createDescr(cusparseSpGEMMDescr_t *descr)
{
    if (!descr)
        return CUSPARSE_STATUS_INVALID_VALUE;
    struct cusparseSpGEMMDescr *g = calloc(1, sizeof *g);
    if (!g)
        return CUSPARSE_STATUS_ALLOC_FAILED;
    g->magic = SPGEMM_MAGIC;
    g->products = -1;
    g->nnz = -1;
    *descr = g;
    return CUSPARSE_STATUS_SUCCESS;
}

cusparseStatus_t cusparseSpGEMM_destroyDescr(cusparseSpGEMMDescr_t descr)
{
    struct cusparseSpGEMMDescr *g = g_of(descr);
    if (g) {
        g->magic = 0;
        free(g);
    }
    return CUSPARSE_STATUS_SUCCESS;
}

cusparseStatus_t cusparseSpGEMM_getNumProducts(cusparseSpGEMMDescr_t descr, int64_t *num)
{
    struct cusparseSpGEMMDescr *g = g_of(descr);
    if (!g || !num)
        return CUSPARSE_STATUS_INVALID_VALUE;
    *num = g->products;
    return CUSPARSE_STATUS_SUCCESS;
}

static int zero_scalar(cb_blas_type t, const void *p)
{
    switch (t) {
    case CB_BLAS_F32: return *(const float *)p == 0;
    case CB_BLAS_F64: return *(const double *)p == 0;
    case CB_BLAS_C32: return ((const float *)p)[0] == 0 && ((const float *)p)[1] == 0;
    default: return ((const double *)p)[0] == 0 && ((const double *)p)[1] == 0;
    }
}

static cusparseStatus_t spgemm_check(cusparseHandle_t h, cusparseOperation_t oa, cusparseOperation_t ob,
                                     const void *alpha, const void *ma, const void *mb, const void *beta,
                                     const void *mc, cudaDataType ct, cusparseSpGEMMAlg_t alg,
                                     cusparseSpGEMMDescr_t g)
{
    cusparseStatus_t st = sp_handle(h);
    if (st != CUSPARSE_STATUS_SUCCESS)
        return st;
    const struct cusparseSpMatDescr *a = sp_mat(ma), *b = sp_mat(mb), *c = sp_mat(mc);
    if (!g_of(g) || !alpha || !beta || !a || !b || !c || (unsigned)alg > CUSPARSE_SPGEMM_ALG3)
        return CUSPARSE_STATUS_INVALID_VALUE;
    if (oa > CUSPARSE_OPERATION_CONJUGATE_TRANSPOSE || ob > CUSPARSE_OPERATION_CONJUGATE_TRANSPOSE)
        return CUSPARSE_STATUS_INVALID_VALUE;
    if (oa != CUSPARSE_OPERATION_NON_TRANSPOSE || ob != CUSPARSE_OPERATION_NON_TRANSPOSE)
        return CUSPARSE_STATUS_NOT_SUPPORTED;
    if (a->s.format != CB_SP_CSR || b->s.format != CB_SP_CSR || c->s.format != CB_SP_CSR)
        return CUSPARSE_STATUS_NOT_SUPPORTED;
    if (a->s.cols != b->s.rows || c->s.rows != a->s.rows || c->s.cols != b->s.cols)
        return CUSPARSE_STATUS_INVALID_VALUE;
    int t = sp_value_type(ct);
    if (!sp_computable(t) || (int)a->s.type != t || (int)b->s.type != t || (int)c->s.type != t)
        return CUSPARSE_STATUS_NOT_SUPPORTED;
    if (h->pointer_mode == CUSPARSE_POINTER_MODE_HOST && !zero_scalar((cb_blas_type)t, beta))
        return (cusparseStatus_t)cbl_unsupported_mode(CUSPARSE_LIB, "cusparseSpGEMM", "beta != 0");
    return CUSPARSE_STATUS_SUCCESS;
}

static CUresult run_products(sp_op *o, cb_backend *b)
{
    int64_t p = 0;
    CUresult r = b->lib->spgemm_products(b, &o->a, &o->b, &p);
    if (r == CUDA_SUCCESS)
        o->g->products = p;   /* the caller waits */
    return r;
}

static CUresult run_compute(sp_op *o, cb_backend *b)
{
    int64_t nnz = 0;
    CUresult r = b->lib->spgemm_compute(b, o->alpha, &o->a, &o->b, o->compute, o->g->scratch, &nnz);
    if (r == CUDA_SUCCESS) {
        o->g->nnz = nnz;
        o->target->s.nnz = nnz;
    }
    return r;
}

static CUresult run_copy(sp_op *o, cb_backend *b) { return b->lib->spgemm_copy(b, o->g->scratch, &o->c); }

static sp_op *spgemm_op(cusparseHandle_t h, const char *fn, CUresult (*run)(sp_op *, cb_backend *),
                        const void *alpha, const void *ma, const void *mb, const void *mc, cusparseSpGEMMDescr_t g)
{
    sp_op *o = sp_op_new(fn, run);
    if (!o)
        return NULL;
    o->a = sp_mat(ma)->s;
    o->b = sp_mat(mb)->s;
    o->c = sp_mat(mc)->s;
    o->compute = o->a.type;
    o->g = g;
    o->target = (struct cusparseSpMatDescr *)sp_mat(mc);
    sp_scalars(h, o, alpha, NULL);
    sp_add_sparse(o, "A", &o->a, 0);
    sp_add_sparse(o, "B", &o->b, 0);
    return o;
}

/* The count of products into g (waits for it). */
static cusparseStatus_t estimate(cusparseHandle_t h, const void *alpha, const void *a, const void *b, const void *c,
                                 cusparseSpGEMMDescr_t g)
{
    sp_op *o = spgemm_op(h, "cusparseSpGEMM_workEstimation", run_products, alpha, a, b, c, g);
    if (!o)
        return CUSPARSE_STATUS_ALLOC_FAILED;
    sp_add_host(o, "products", &g->products, sizeof(int64_t), CB_ELEM_INT, 8);
    o->reference = sp_ref_spgemm_count;
    return sp_submit(h, o, 1);
}

cusparseStatus_t cusparseSpGEMM_workEstimation(cusparseHandle_t h, cusparseOperation_t oa, cusparseOperation_t ob,
                                               const void *alpha, cusparseConstSpMatDescr_t a,
                                               cusparseConstSpMatDescr_t b, const void *beta, cusparseSpMatDescr_t c,
                                               cudaDataType ct, cusparseSpGEMMAlg_t alg, cusparseSpGEMMDescr_t g,
                                               size_t *size1, void *buf1)
{
    cusparseStatus_t st = spgemm_check(h, oa, ob, alpha, a, b, beta, c, ct, alg, g);
    if (st != CUSPARSE_STATUS_SUCCESS)
        return st;
    if (!size1)
        return CUSPARSE_STATUS_INVALID_VALUE;
    if (!buf1) {
        *size1 = 64;
        return CUSPARSE_STATUS_SUCCESS;
    }
    return estimate(h, alpha, a, b, c, g);
}

cusparseStatus_t cusparseSpGEMM_compute(cusparseHandle_t h, cusparseOperation_t oa, cusparseOperation_t ob,
                                        const void *alpha, cusparseConstSpMatDescr_t a, cusparseConstSpMatDescr_t b,
                                        const void *beta, cusparseSpMatDescr_t c, cudaDataType ct,
                                        cusparseSpGEMMAlg_t alg, cusparseSpGEMMDescr_t g, size_t *size2, void *buf2)
{
    cusparseStatus_t st = spgemm_check(h, oa, ob, alpha, a, b, beta, c, ct, alg, g);
    if (st != CUSPARSE_STATUS_SUCCESS)
        return st;
    if (!size2)
        return CUSPARSE_STATUS_INVALID_VALUE;
    if (g->products < 0) {
        st = estimate(h, alpha, a, b, c, g);
        if (st != CUSPARSE_STATUS_SUCCESS)
            return st;
    }
    size_t need = cb_spgemm_scratch_bytes(sp_mat(a)->s.rows, g->products, cb_blas_type_size(sp_mat(a)->s.type));
    if (!buf2) {
        *size2 = need;
        return CUSPARSE_STATUS_SUCCESS;
    }
    if (*size2 < need)
        return CUSPARSE_STATUS_INVALID_VALUE;
    g->scratch = (uint64_t)(uintptr_t)buf2;
    g->scratch_bytes = need;
    sp_op *o = spgemm_op(h, "cusparseSpGEMM_compute", run_compute, alpha, a, b, c, g);
    if (!o)
        return CUSPARSE_STATUS_ALLOC_FAILED;
    sp_add_bytes(o, "scratch", g->scratch, need, 0);
    sp_add_host(o, "nnz", &g->nnz, sizeof(int64_t), CB_ELEM_INT, 8);
    o->reference = sp_ref_spgemm_count;
    return sp_submit(h, o, 1);
}

cusparseStatus_t cusparseSpGEMM_copy(cusparseHandle_t h, cusparseOperation_t oa, cusparseOperation_t ob,
                                     const void *alpha, cusparseConstSpMatDescr_t a, cusparseConstSpMatDescr_t b,
                                     const void *beta, cusparseSpMatDescr_t c, cudaDataType ct,
                                     cusparseSpGEMMAlg_t alg, cusparseSpGEMMDescr_t g)
{
    cusparseStatus_t st = spgemm_check(h, oa, ob, alpha, a, b, beta, c, ct, alg, g);
    if (st != CUSPARSE_STATUS_SUCCESS)
        return st;
    if (g->nnz < 0 || !g->scratch)
        return CUSPARSE_STATUS_INVALID_VALUE;   /* no compute before */
    sp_op *o = sp_op_new("cusparseSpGEMM_copy", run_copy);
    if (!o)
        return CUSPARSE_STATUS_ALLOC_FAILED;
    o->a = sp_mat(a)->s;
    o->b = sp_mat(b)->s;
    o->c = sp_mat(c)->s;
    o->c.nnz = g->nnz;
    o->compute = o->c.type;
    o->g = g;
    sp_scalars(h, o, alpha, NULL);
    sp_add_bytes(o, "scratch", g->scratch, g->scratch_bytes, 0);
    sp_add_sparse(o, "A", &o->a, 0);
    sp_add_sparse(o, "B", &o->b, 0);
    sp_add_sparse(o, "C", &o->c, 1);
    o->reference = sp_ref_spgemm_copy;
    return sp_submit(h, o, 0);
}
