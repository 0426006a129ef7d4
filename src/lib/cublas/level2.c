/* level2.c: cuBLAS level 2 in S/D/C/Z (and the 64-bit entry points):
 * gemv, gbmv, ger/geru/gerc, symv/hemv, sbmv/hbmv, spmv/hpmv, syr/her,
 * spr/hpr, syr2/her2, spr2/hpr2, trmv/tbmv/tpmv, trsv/tbsv/tpsv.
 * References: ref_level2.c.
 *
 * Bad input (the cuBLAS documentation's rules): NULL handle ->
 * NOT_INITIALIZED; negative sizes, a zero increment, a leading dimension
 * below the rows the storage needs, or an invalid trans/uplo/diag ->
 * INVALID_VALUE. m or n of 0 return at once.
 */
#include "cublas_internal.h"

/* ---- extents ------------------------------------------------------------------- */

/* The bytes A spans in its storage form: 0 full n x n (m x n for gemv/ger),
 * 1 band (k + 1 rows; kl + ku + 1 for gbmv), 2 packed. */
static size_t a_bytes(const cublas_op *o, int64_t rows, int64_t cols)
{
    size_t w = cublas_elem(o->t);
    if (o->form == 2)
        return (size_t)(o->n * (o->n + 1) / 2) * w;
    return cbl_matrix_bytes(rows, cols, o->lda, w);
}

static int64_t x_len(const cublas_op *o) { return o->ta == CB_BLAS_OP_N ? o->n : o->m; }
static int64_t y_len(const cublas_op *o) { return o->ta == CB_BLAS_OP_N ? o->m : o->n; }

/* ---- routines -------------------------------------------------------------------- */


static CUresult run_gemv(cublas_op *o, cb_backend *b)
{
    if (o->form == 1)
        return b->lib->gbmv(b, o->t, o->ta, o->m, o->n, o->kl, o->ku, o->sval[0], o->a, o->lda, o->x, o->incx,
                            o->sval[1], o->y, o->incy);
    return b->lib->gemv(b, o->t, o->ta, o->m, o->n, o->sval[0], o->a, o->lda, o->x, o->incx, o->sval[1], o->y, o->incy);
}
static int ops_gemv(cublas_op *o, cbl_operand *ops)
{
    size_t w = cublas_elem(o->t);
    ops[0] = cublas_operand("A", o->a, a_bytes(o, o->form == 1 ? o->kl + o->ku + 1 : o->m, o->n), 0, o->t);
    ops[1] = cublas_operand("x", o->x, cbl_vector_bytes(x_len(o), o->incx, w), 0, o->t);
    ops[2] = cublas_operand("y", o->y, cbl_vector_bytes(y_len(o), o->incy, w), 1, o->t);
    ops[2].tol_scale = cublas_sum_scale(x_len(o));
    return 3;
}
static const cublas_routine r_gemv = {run_gemv, ops_gemv, cublas_ref_gemv};

static CUresult run_ger(cublas_op *o, cb_backend *b)
{
    return b->lib->ger(b, o->t, o->conj, o->m, o->n, o->sval[0], o->x, o->incx, o->y, o->incy, o->a, o->lda);
}
static int ops_ger(cublas_op *o, cbl_operand *ops)
{
    size_t w = cublas_elem(o->t);
    ops[0] = cublas_operand("x", o->x, cbl_vector_bytes(o->m, o->incx, w), 0, o->t);
    ops[1] = cublas_operand("y", o->y, cbl_vector_bytes(o->n, o->incy, w), 0, o->t);
    ops[2] = cublas_operand("A", o->a, cbl_matrix_bytes(o->m, o->n, o->lda, w), 1, o->t);
    return 3;
}
static const cublas_routine r_ger = {run_ger, ops_ger, cublas_ref_ger};

/* symv/hemv (form 0), sbmv/hbmv (1), spmv/hpmv (2). */
static CUresult run_symv(cublas_op *o, cb_backend *b)
{
    if (o->form == 1)
        return b->lib->sbmv(b, o->t, o->herm, o->uplo, o->n, o->k, o->sval[0], o->a, o->lda, o->x, o->incx,
                            o->sval[1], o->y, o->incy);
    if (o->form == 2)
        return b->lib->spmv(b, o->t, o->herm, o->uplo, o->n, o->sval[0], o->a, o->x, o->incx, o->sval[1], o->y, o->incy);
    return b->lib->symv(b, o->t, o->herm, o->uplo, o->n, o->sval[0], o->a, o->lda, o->x, o->incx, o->sval[1], o->y,
                        o->incy);
}
static int ops_symv(cublas_op *o, cbl_operand *ops)
{
    size_t w = cublas_elem(o->t);
    ops[0] = cublas_operand("A", o->a, a_bytes(o, o->form == 1 ? o->k + 1 : o->n, o->n), 0, o->t);
    ops[1] = cublas_operand("x", o->x, cbl_vector_bytes(o->n, o->incx, w), 0, o->t);
    ops[2] = cublas_operand("y", o->y, cbl_vector_bytes(o->n, o->incy, w), 1, o->t);
    ops[2].tol_scale = cublas_sum_scale(o->n);
    return 3;
}
static const cublas_routine r_symv = {run_symv, ops_symv, cublas_ref_symv};

/* syr/her (form 0), spr/hpr (2); with y (xform set): syr2/her2, spr2/hpr2. */
static CUresult run_syr(cublas_op *o, cb_backend *b)
{
    if (o->xform) {
        if (o->form == 2)
            return b->lib->spr2(b, o->t, o->herm, o->uplo, o->n, o->sval[0], o->x, o->incx, o->y, o->incy, o->a);
        return b->lib->syr2(b, o->t, o->herm, o->uplo, o->n, o->sval[0], o->x, o->incx, o->y, o->incy, o->a, o->lda);
    }
    if (o->form == 2)
        return b->lib->spr(b, o->t, o->herm, o->uplo, o->n, o->sval[0], o->x, o->incx, o->a);
    return b->lib->syr(b, o->t, o->herm, o->uplo, o->n, o->sval[0], o->x, o->incx, o->a, o->lda);
}
static int ops_syr(cublas_op *o, cbl_operand *ops)
{
    size_t w = cublas_elem(o->t);
    int n = 0;
    ops[n++] = cublas_operand("x", o->x, cbl_vector_bytes(o->n, o->incx, w), 0, o->t);
    if (o->xform)
        ops[n++] = cublas_operand("y", o->y, cbl_vector_bytes(o->n, o->incy, w), 0, o->t);
    ops[n++] = cublas_operand("A", o->a, a_bytes(o, o->n, o->n), 1, o->t);
    return n;
}
static const cublas_routine r_syr = {run_syr, ops_syr, cublas_ref_syr};

static CUresult run_trmv(cublas_op *o, cb_backend *b)
{
    return b->lib->trmv(b, o->t, o->solve, o->form, o->uplo, o->ta, o->diag, o->n, o->k, o->a, o->lda, o->x, o->incx);
}
static int ops_trmv(cublas_op *o, cbl_operand *ops)
{
    size_t w = cublas_elem(o->t);
    ops[0] = cublas_operand("A", o->a, a_bytes(o, o->form == 1 ? o->k + 1 : o->n, o->n), 0, o->t);
    ops[1] = cublas_operand("x", o->x, cbl_vector_bytes(o->n, o->incx, w), 1, o->t);
    ops[1].tol_scale = cublas_sum_scale(o->n) * (o->solve ? 4 : 1);   /* a solve compounds the rounding */
    return 2;
}
static const cublas_routine r_trmv = {run_trmv, ops_trmv, cublas_ref_trmv};

/* ---- entry helpers ---------------------------------------------------------------- */

#define BEGIN(r, t)                                                                                                    \
    cublasStatus_t st_ = cublas_handle_check(h);                                                                       \
    if (st_ != CUBLAS_STATUS_SUCCESS)                                                                                  \
        return st_

#define NEW(r, t)                                                                                                      \
    cublas_op *o = cublas_op_new(&(r), fn, (t));                                                                       \
    if (!o)                                                                                                            \
    return CUBLAS_STATUS_ALLOC_FAILED

static int64_t max1(int64_t v) { return v > 1 ? v : 1; }

/* gemv (form 0) and gbmv (form 1). */
static cublasStatus_t gemv(cublasHandle_t h, const char *fn, cb_blas_type t, int form, cublasOperation_t trans,
                           int64_t m, int64_t n, int64_t kl, int64_t ku, const void *alpha, const void *A, int64_t lda,
                           const void *x, int64_t incx, const void *beta, void *y, int64_t incy)
{
    BEGIN(r_gemv, t);
    if (form == 0) {
        /* gemv as the H200's cuBLAS 13 answers (tests/lib/cublas_arg_probe): a negative m or n returns at once
         * with SUCCESS; a trans other than N, T or C is T; incx 0 reads x[0] for every element (the backend
         * broadcasts it); incy 0 leaves y[0] with the first row's result. Only lda is checked. */
        if (lda < max1(m))
            return CUBLAS_STATUS_INVALID_VALUE;
        if (m <= 0 || n <= 0)
            return CUBLAS_STATUS_SUCCESS;
        if (!cublas_op_valid(trans))
            trans = CUBLAS_OP_T;
        if (incy == 0) {
            if (trans == CUBLAS_OP_N)
                m = 1;
            else
                n = 1;
            incy = 1;
        }
    } else {
        if (!cublas_op_valid(trans) || m < 0 || n < 0 || incx == 0 || incy == 0 || kl < 0 || ku < 0 ||
            lda < kl + ku + 1)
            return CUBLAS_STATUS_INVALID_VALUE;
        if (m == 0 || n == 0)
            return CUBLAS_STATUS_SUCCESS;
    }
    NEW(r_gemv, t);
    o->form = form;
    o->ta = trans;
    o->m = m, o->n = n, o->kl = kl, o->ku = ku, o->lda = lda, o->incx = incx, o->incy = incy;
    o->a = (uintptr_t)A, o->x = (uintptr_t)x, o->y = (uintptr_t)y;
    cublas_op_scalar(o, h, 0, alpha, cublas_elem(t));
    cublas_op_scalar(o, h, 1, beta, cublas_elem(t));
    return cublas_op_submit(h, o);
}

static cublasStatus_t ger(cublasHandle_t h, const char *fn, cb_blas_type t, int conj, int64_t m, int64_t n,
                          const void *alpha, const void *x, int64_t incx, const void *y, int64_t incy, void *A,
                          int64_t lda)
{
    BEGIN(r_ger, t);
    if (m < 0 || n < 0 || incx == 0 || incy == 0 || lda < max1(m))
        return CUBLAS_STATUS_INVALID_VALUE;
    if (m == 0 || n == 0)
        return CUBLAS_STATUS_SUCCESS;
    NEW(r_ger, t);
    o->conj = conj;
    o->m = m, o->n = n, o->lda = lda, o->incx = incx, o->incy = incy;
    o->a = (uintptr_t)A, o->x = (uintptr_t)x, o->y = (uintptr_t)y;
    cublas_op_scalar(o, h, 0, alpha, cublas_elem(t));
    return cublas_op_submit(h, o);
}

static cublasStatus_t symv(cublasHandle_t h, const char *fn, cb_blas_type t, int herm, int form, cublasFillMode_t uplo,
                           int64_t n, int64_t k, const void *alpha, const void *A, int64_t lda, const void *x,
                           int64_t incx, const void *beta, void *y, int64_t incy)
{
    BEGIN(r_symv, t);
    if (!cublas_fill_valid(uplo) || n < 0 || k < 0 || incx == 0 || incy == 0)
        return CUBLAS_STATUS_INVALID_VALUE;
    if ((form == 0 && lda < max1(n)) || (form == 1 && lda < k + 1))
        return CUBLAS_STATUS_INVALID_VALUE;
    if (n == 0)
        return CUBLAS_STATUS_SUCCESS;
    NEW(r_symv, t);
    o->herm = herm, o->form = form, o->uplo = uplo;
    o->n = n, o->k = k, o->lda = lda, o->incx = incx, o->incy = incy;
    o->a = (uintptr_t)A, o->x = (uintptr_t)x, o->y = (uintptr_t)y;
    cublas_op_scalar(o, h, 0, alpha, cublas_elem(t));
    cublas_op_scalar(o, h, 1, beta, cublas_elem(t));
    return cublas_op_submit(h, o);
}

/* syr/her/spr/hpr (y NULL) and syr2/her2/spr2/hpr2. alpha_real: her, hpr. */
static cublasStatus_t syr(cublasHandle_t h, const char *fn, cb_blas_type t, int herm, int form, int two,
                          cublasFillMode_t uplo, int64_t n, const void *alpha, const void *x, int64_t incx,
                          const void *y, int64_t incy, void *A, int64_t lda)
{
    BEGIN(r_syr, t);
    if (!cublas_fill_valid(uplo) || n < 0 || incx == 0 || (two && incy == 0) || (form == 0 && lda < max1(n)))
        return CUBLAS_STATUS_INVALID_VALUE;
    if (n == 0)
        return CUBLAS_STATUS_SUCCESS;
    NEW(r_syr, t);
    o->herm = herm, o->form = form, o->xform = two, o->uplo = uplo;
    o->alpha_real = herm && !two;
    o->n = n, o->lda = lda, o->incx = incx, o->incy = incy;
    o->a = (uintptr_t)A, o->x = (uintptr_t)x, o->y = (uintptr_t)y;
    cublas_op_scalar(o, h, 0, alpha, cublas_elem(o->alpha_real ? cublas_real(t) : t));
    return cublas_op_submit(h, o);
}

static cublasStatus_t trmv(cublasHandle_t h, const char *fn, cb_blas_type t, int solve, int form,
                           cublasFillMode_t uplo, cublasOperation_t trans, cublasDiagType_t diag, int64_t n, int64_t k,
                           const void *A, int64_t lda, void *x, int64_t incx)
{
    BEGIN(r_trmv, t);
    if (!cublas_fill_valid(uplo) || !cublas_op_valid(trans) || !cublas_diag_valid(diag) || n < 0 || k < 0 ||
        incx == 0 || (form == 0 && lda < max1(n)) || (form == 1 && lda < k + 1))
        return CUBLAS_STATUS_INVALID_VALUE;
    if (n == 0)
        return CUBLAS_STATUS_SUCCESS;
    NEW(r_trmv, t);
    o->solve = solve, o->form = form, o->uplo = uplo, o->ta = trans, o->diag = diag;
    o->n = n, o->k = k, o->lda = lda, o->incx = incx;
    o->a = (uintptr_t)A, o->x = (uintptr_t)x;
    return cublas_op_submit(h, o);
}

/* ---- the entry points, per type; I is int or int64_t, SUF "" or "_64" ------------- */

#define L2(S, T, BT, I, SUF)                                                                                           \
    cublasStatus_t cublas##S##gemv_v2##SUF(cublasHandle_t h, cublasOperation_t trans, I m, I n, const T *alpha,       \
                                           const T *A, I lda, const T *x, I incx, const T *beta, T *y, I incy)         \
    {                                                                                                                  \
        return gemv(h, "cublas" #S "gemv_v2" #SUF, BT, 0, trans, m, n, 0, 0, alpha, A, lda, x, incx, beta, y, incy);   \
    }                                                                                                                  \
    cublasStatus_t cublas##S##gbmv_v2##SUF(cublasHandle_t h, cublasOperation_t trans, I m, I n, I kl, I ku,           \
                                           const T *alpha, const T *A, I lda, const T *x, I incx, const T *beta, T *y, \
                                           I incy)                                                                     \
    {                                                                                                                  \
        return gemv(h, "cublas" #S "gbmv_v2" #SUF, BT, 1, trans, m, n, kl, ku, alpha, A, lda, x, incx, beta, y, incy); \
    }                                                                                                                  \
    cublasStatus_t cublas##S##symv_v2##SUF(cublasHandle_t h, cublasFillMode_t uplo, I n, const T *alpha, const T *A,  \
                                           I lda, const T *x, I incx, const T *beta, T *y, I incy)                     \
    {                                                                                                                  \
        return symv(h, "cublas" #S "symv_v2" #SUF, BT, 0, 0, uplo, n, 0, alpha, A, lda, x, incx, beta, y, incy);       \
    }                                                                                                                  \
    cublasStatus_t cublas##S##syr_v2##SUF(cublasHandle_t h, cublasFillMode_t uplo, I n, const T *alpha, const T *x,   \
                                          I incx, T *A, I lda)                                                         \
    {                                                                                                                  \
        return syr(h, "cublas" #S "syr_v2" #SUF, BT, 0, 0, 0, uplo, n, alpha, x, incx, NULL, 0, A, lda);               \
    }                                                                                                                  \
    cublasStatus_t cublas##S##syr2_v2##SUF(cublasHandle_t h, cublasFillMode_t uplo, I n, const T *alpha, const T *x,  \
                                           I incx, const T *y, I incy, T *A, I lda)                                    \
    {                                                                                                                  \
        return syr(h, "cublas" #S "syr2_v2" #SUF, BT, 0, 0, 1, uplo, n, alpha, x, incx, y, incy, A, lda);              \
    }                                                                                                                  \
    cublasStatus_t cublas##S##trmv_v2##SUF(cublasHandle_t h, cublasFillMode_t uplo, cublasOperation_t trans,          \
                                           cublasDiagType_t diag, I n, const T *A, I lda, T *x, I incx)                \
    {                                                                                                                  \
        return trmv(h, "cublas" #S "trmv_v2" #SUF, BT, 0, 0, uplo, trans, diag, n, 0, A, lda, x, incx);                \
    }                                                                                                                  \
    cublasStatus_t cublas##S##tbmv_v2##SUF(cublasHandle_t h, cublasFillMode_t uplo, cublasOperation_t trans,          \
                                           cublasDiagType_t diag, I n, I k, const T *A, I lda, T *x, I incx)           \
    {                                                                                                                  \
        return trmv(h, "cublas" #S "tbmv_v2" #SUF, BT, 0, 1, uplo, trans, diag, n, k, A, lda, x, incx);                \
    }                                                                                                                  \
    cublasStatus_t cublas##S##tpmv_v2##SUF(cublasHandle_t h, cublasFillMode_t uplo, cublasOperation_t trans,          \
                                           cublasDiagType_t diag, I n, const T *AP, T *x, I incx)                      \
    {                                                                                                                  \
        return trmv(h, "cublas" #S "tpmv_v2" #SUF, BT, 0, 2, uplo, trans, diag, n, 0, AP, 1, x, incx);                 \
    }                                                                                                                  \
    cublasStatus_t cublas##S##trsv_v2##SUF(cublasHandle_t h, cublasFillMode_t uplo, cublasOperation_t trans,          \
                                           cublasDiagType_t diag, I n, const T *A, I lda, T *x, I incx)                \
    {                                                                                                                  \
        return trmv(h, "cublas" #S "trsv_v2" #SUF, BT, 1, 0, uplo, trans, diag, n, 0, A, lda, x, incx);                \
    }                                                                                                                  \
    cublasStatus_t cublas##S##tbsv_v2##SUF(cublasHandle_t h, cublasFillMode_t uplo, cublasOperation_t trans,          \
                                           cublasDiagType_t diag, I n, I k, const T *A, I lda, T *x, I incx)           \
    {                                                                                                                  \
        return trmv(h, "cublas" #S "tbsv_v2" #SUF, BT, 1, 1, uplo, trans, diag, n, k, A, lda, x, incx);                \
    }                                                                                                                  \
    cublasStatus_t cublas##S##tpsv_v2##SUF(cublasHandle_t h, cublasFillMode_t uplo, cublasOperation_t trans,          \
                                           cublasDiagType_t diag, I n, const T *AP, T *x, I incx)                      \
    {                                                                                                                  \
        return trmv(h, "cublas" #S "tpsv_v2" #SUF, BT, 1, 2, uplo, trans, diag, n, 0, AP, 1, x, incx);                 \
    }

L2(S, float, CB_BLAS_F32, int, )
L2(S, float, CB_BLAS_F32, int64_t, _64)
L2(D, double, CB_BLAS_F64, int, )
L2(D, double, CB_BLAS_F64, int64_t, _64)
L2(C, cuComplex, CB_BLAS_C32, int, )
L2(C, cuComplex, CB_BLAS_C32, int64_t, _64)
L2(Z, cuDoubleComplex, CB_BLAS_C64, int, )
L2(Z, cuDoubleComplex, CB_BLAS_C64, int64_t, _64)

/* Real only: ger, sbmv, spmv, spr, spr2. */
#define L2R(S, T, BT, I, SUF)                                                                                          \
    cublasStatus_t cublas##S##ger_v2##SUF(cublasHandle_t h, I m, I n, const T *alpha, const T *x, I incx, const T *y, \
                                          I incy, T *A, I lda)                                                         \
    {                                                                                                                  \
        return ger(h, "cublas" #S "ger_v2" #SUF, BT, 0, m, n, alpha, x, incx, y, incy, A, lda);                        \
    }                                                                                                                  \
    cublasStatus_t cublas##S##sbmv_v2##SUF(cublasHandle_t h, cublasFillMode_t uplo, I n, I k, const T *alpha,         \
                                           const T *A, I lda, const T *x, I incx, const T *beta, T *y, I incy)         \
    {                                                                                                                  \
        return symv(h, "cublas" #S "sbmv_v2" #SUF, BT, 0, 1, uplo, n, k, alpha, A, lda, x, incx, beta, y, incy);       \
    }                                                                                                                  \
    cublasStatus_t cublas##S##spmv_v2##SUF(cublasHandle_t h, cublasFillMode_t uplo, I n, const T *alpha, const T *AP, \
                                           const T *x, I incx, const T *beta, T *y, I incy)                            \
    {                                                                                                                  \
        return symv(h, "cublas" #S "spmv_v2" #SUF, BT, 0, 2, uplo, n, 0, alpha, AP, 1, x, incx, beta, y, incy);        \
    }                                                                                                                  \
    cublasStatus_t cublas##S##spr_v2##SUF(cublasHandle_t h, cublasFillMode_t uplo, I n, const T *alpha, const T *x,   \
                                          I incx, T *AP)                                                               \
    {                                                                                                                  \
        return syr(h, "cublas" #S "spr_v2" #SUF, BT, 0, 2, 0, uplo, n, alpha, x, incx, NULL, 0, AP, 1);                \
    }                                                                                                                  \
    cublasStatus_t cublas##S##spr2_v2##SUF(cublasHandle_t h, cublasFillMode_t uplo, I n, const T *alpha, const T *x,  \
                                           I incx, const T *y, I incy, T *AP)                                          \
    {                                                                                                                  \
        return syr(h, "cublas" #S "spr2_v2" #SUF, BT, 0, 2, 1, uplo, n, alpha, x, incx, y, incy, AP, 1);               \
    }

L2R(S, float, CB_BLAS_F32, int, )
L2R(S, float, CB_BLAS_F32, int64_t, _64)
L2R(D, double, CB_BLAS_F64, int, )
L2R(D, double, CB_BLAS_F64, int64_t, _64)

/* Complex only: geru/gerc, hemv, hbmv, hpmv, her, hpr, her2, hpr2. */
#define L2C(S, T, R, BT, I, SUF)                                                                                       \
    cublasStatus_t cublas##S##geru_v2##SUF(cublasHandle_t h, I m, I n, const T *alpha, const T *x, I incx, const T *y,\
                                           I incy, T *A, I lda)                                                        \
    {                                                                                                                  \
        return ger(h, "cublas" #S "geru_v2" #SUF, BT, 0, m, n, alpha, x, incx, y, incy, A, lda);                       \
    }                                                                                                                  \
    cublasStatus_t cublas##S##gerc_v2##SUF(cublasHandle_t h, I m, I n, const T *alpha, const T *x, I incx, const T *y,\
                                           I incy, T *A, I lda)                                                        \
    {                                                                                                                  \
        return ger(h, "cublas" #S "gerc_v2" #SUF, BT, 1, m, n, alpha, x, incx, y, incy, A, lda);                       \
    }                                                                                                                  \
    cublasStatus_t cublas##S##hemv_v2##SUF(cublasHandle_t h, cublasFillMode_t uplo, I n, const T *alpha, const T *A,  \
                                           I lda, const T *x, I incx, const T *beta, T *y, I incy)                     \
    {                                                                                                                  \
        return symv(h, "cublas" #S "hemv_v2" #SUF, BT, 1, 0, uplo, n, 0, alpha, A, lda, x, incx, beta, y, incy);       \
    }                                                                                                                  \
    cublasStatus_t cublas##S##hbmv_v2##SUF(cublasHandle_t h, cublasFillMode_t uplo, I n, I k, const T *alpha,         \
                                           const T *A, I lda, const T *x, I incx, const T *beta, T *y, I incy)         \
    {                                                                                                                  \
        return symv(h, "cublas" #S "hbmv_v2" #SUF, BT, 1, 1, uplo, n, k, alpha, A, lda, x, incx, beta, y, incy);       \
    }                                                                                                                  \
    cublasStatus_t cublas##S##hpmv_v2##SUF(cublasHandle_t h, cublasFillMode_t uplo, I n, const T *alpha, const T *AP, \
                                           const T *x, I incx, const T *beta, T *y, I incy)                            \
    {                                                                                                                  \
        return symv(h, "cublas" #S "hpmv_v2" #SUF, BT, 1, 2, uplo, n, 0, alpha, AP, 1, x, incx, beta, y, incy);        \
    }                                                                                                                  \
    cublasStatus_t cublas##S##her_v2##SUF(cublasHandle_t h, cublasFillMode_t uplo, I n, const R *alpha, const T *x,   \
                                          I incx, T *A, I lda)                                                         \
    {                                                                                                                  \
        return syr(h, "cublas" #S "her_v2" #SUF, BT, 1, 0, 0, uplo, n, alpha, x, incx, NULL, 0, A, lda);               \
    }                                                                                                                  \
    cublasStatus_t cublas##S##hpr_v2##SUF(cublasHandle_t h, cublasFillMode_t uplo, I n, const R *alpha, const T *x,   \
                                          I incx, T *AP)                                                               \
    {                                                                                                                  \
        return syr(h, "cublas" #S "hpr_v2" #SUF, BT, 1, 2, 0, uplo, n, alpha, x, incx, NULL, 0, AP, 1);                \
    }                                                                                                                  \
    cublasStatus_t cublas##S##her2_v2##SUF(cublasHandle_t h, cublasFillMode_t uplo, I n, const T *alpha, const T *x,  \
                                           I incx, const T *y, I incy, T *A, I lda)                                    \
    {                                                                                                                  \
        return syr(h, "cublas" #S "her2_v2" #SUF, BT, 1, 0, 1, uplo, n, alpha, x, incx, y, incy, A, lda);              \
    }                                                                                                                  \
    cublasStatus_t cublas##S##hpr2_v2##SUF(cublasHandle_t h, cublasFillMode_t uplo, I n, const T *alpha, const T *x,  \
                                           I incx, const T *y, I incy, T *AP)                                          \
    {                                                                                                                  \
        return syr(h, "cublas" #S "hpr2_v2" #SUF, BT, 1, 2, 1, uplo, n, alpha, x, incx, y, incy, AP, 1);               \
    }

L2C(C, cuComplex, float, CB_BLAS_C32, int, )
L2C(C, cuComplex, float, CB_BLAS_C32, int64_t, _64)
L2C(Z, cuDoubleComplex, double, CB_BLAS_C64, int, )
L2C(Z, cuDoubleComplex, double, CB_BLAS_C64, int64_t, _64)
