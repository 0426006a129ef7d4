/* level3.c: cuBLAS level 3 in S/D/C/Z (and the 64-bit entry points):
 * gemm, gemm3m, symm/hemm, syrk/herk, syr2k/her2k, syrkx/herkx, trmm,
 * trsm, and the BLAS-like extensions geam and dgmm. References:
 * ref_level3.c.
 *
 * Bad input (the cuBLAS documentation's rules): NULL handle ->
 * NOT_INITIALIZED; negative sizes, a leading dimension below the rows its
 * matrix has (and below 1), an invalid enum, or geam in place with a
 * transposed or differently strided operand -> INVALID_VALUE. m or n of 0
 * return at once. Math modes: with CUBLAS_TF32_TENSOR_OP_MATH, f32 gemm
 * rounds its inputs to TF32 as the GPU's tensor cores do (gemm_ex path).
 */
#include "cublas_internal.h"

static int64_t max1(int64_t v) { return v > 1 ? v : 1; }

/* ---- routines ------------------------------------------------------------------- */


static size_t mat(const cublas_op *o, int64_t rows, int64_t cols, int64_t ld)
{
    return cbl_matrix_bytes(rows, cols, ld, cublas_elem(o->t));
}

static CUresult run_gemm(cublas_op *o, cb_backend *b)
{
    if (o->g.round != CB_BLAS_ROUND_NONE) {   /* TF32 math: the mixed-precision path rounds the inputs */
        cb_blas_gemm g = o->g;
        g.alpha = o->sval[0];
        g.beta = o->sval[1];
        return b->lib->gemm_ex(b, &g);
    }
    return b->lib->gemm(b, o->t, o->ta, o->tb, o->m, o->n, o->k, o->sval[0], o->a, o->lda, o->b, o->ldb, o->sval[1],
                        o->c, o->ldc);
}
static int ops_gemm(cublas_op *o, cbl_operand *ops)
{
    ops[0] = cublas_operand("A", o->a, o->ta == CB_BLAS_OP_N ? mat(o, o->m, o->k, o->lda) : mat(o, o->k, o->m, o->lda), 0, o->t);
    ops[1] = cublas_operand("B", o->b, o->tb == CB_BLAS_OP_N ? mat(o, o->k, o->n, o->ldb) : mat(o, o->n, o->k, o->ldb), 0, o->t);
    ops[2] = cublas_operand("C", o->c, mat(o, o->m, o->n, o->ldc), 1, o->t);
    ops[2].tol_scale = cublas_sum_scale(o->k);
    return 3;
}
static const cublas_routine r_gemm = {run_gemm, ops_gemm, cublas_ref_gemm};

static CUresult run_symm(cublas_op *o, cb_backend *b)
{
    return b->lib->symm(b, o->t, o->herm, o->side, o->uplo, o->m, o->n, o->sval[0], o->a, o->lda, o->b, o->ldb,
                        o->sval[1], o->c, o->ldc);
}
static int ops_symm(cublas_op *o, cbl_operand *ops)
{
    int64_t ka = o->side == CB_BLAS_LEFT ? o->m : o->n;
    ops[0] = cublas_operand("A", o->a, mat(o, ka, ka, o->lda), 0, o->t);
    ops[1] = cublas_operand("B", o->b, mat(o, o->m, o->n, o->ldb), 0, o->t);
    ops[2] = cublas_operand("C", o->c, mat(o, o->m, o->n, o->ldc), 1, o->t);
    ops[2].tol_scale = cublas_sum_scale(ka);
    return 3;
}
static const cublas_routine r_symm = {run_symm, ops_symm, cublas_ref_symm};

/* syrk/herk (xform 0, no B), syr2k/her2k (xform 1), syrkx/herkx (xform 2). */
static CUresult run_syrk(cublas_op *o, cb_backend *b)
{
    if (o->xform == 0)
        return b->lib->syrk(b, o->t, o->herm, o->uplo, o->ta, o->n, o->k, o->sval[0], o->a, o->lda, o->sval[1], o->c,
                            o->ldc);
    return b->lib->syr2k(b, o->t, o->herm, o->xform == 2, o->uplo, o->ta, o->n, o->k, o->sval[0], o->a, o->lda, o->b,
                         o->ldb, o->sval[1], o->c, o->ldc);
}
static int ops_syrk(cublas_op *o, cbl_operand *ops)
{
    int n = 0;
    size_t ab = o->ta == CB_BLAS_OP_N ? mat(o, o->n, o->k, o->lda) : mat(o, o->k, o->n, o->lda);
    ops[n++] = cublas_operand("A", o->a, ab, 0, o->t);
    if (o->xform)
        ops[n++] = cublas_operand("B", o->b, o->ta == CB_BLAS_OP_N ? mat(o, o->n, o->k, o->ldb) : mat(o, o->k, o->n, o->ldb),
                                  0, o->t);
    ops[n] = cublas_operand("C", o->c, mat(o, o->n, o->n, o->ldc), 1, o->t);
    ops[n].tol_scale = cublas_sum_scale(o->k) * (o->xform == 1 ? 2 : 1);
    return n + 1;
}
static const cublas_routine r_syrk = {run_syrk, ops_syrk, cublas_ref_syrk};

/* trmm (solve 0) and trsm (solve 1, in place: C is B). */
static CUresult run_trmm(cublas_op *o, cb_backend *b)
{
    if (o->solve)
        return b->lib->trsm(b, o->t, o->side, o->uplo, o->ta, o->diag, o->m, o->n, o->sval[0], o->a, o->lda, o->b,
                            o->ldb);
    return b->lib->trmm(b, o->t, o->side, o->uplo, o->ta, o->diag, o->m, o->n, o->sval[0], o->a, o->lda, o->b, o->ldb,
                        o->c, o->ldc);
}
static int ops_trmm(cublas_op *o, cbl_operand *ops)
{
    int64_t ka = o->side == CB_BLAS_LEFT ? o->m : o->n;
    ops[0] = cublas_operand("A", o->a, mat(o, ka, ka, o->lda), 0, o->t);
    ops[1] = cublas_operand("B", o->b, mat(o, o->m, o->n, o->ldb), o->solve, o->t);
    ops[1].tol_scale = cublas_sum_scale(ka) * 4;
    if (o->solve)
        return 2;
    ops[2] = cublas_operand("C", o->c, mat(o, o->m, o->n, o->ldc), 1, o->t);
    ops[2].tol_scale = cublas_sum_scale(ka);
    return 3;
}
static const cublas_routine r_trmm = {run_trmm, ops_trmm, cublas_ref_trmm};

static CUresult run_geam(cublas_op *o, cb_backend *b)
{
    return b->lib->geam(b, o->t, o->ta, o->tb, o->m, o->n, o->sval[0], o->a, o->lda, o->sval[1], o->b, o->ldb, o->c,
                        o->ldc);
}
static int ops_geam(cublas_op *o, cbl_operand *ops)
{
    ops[0] = cublas_operand("A", o->a, o->ta == CB_BLAS_OP_N ? mat(o, o->m, o->n, o->lda) : mat(o, o->n, o->m, o->lda), 0, o->t);
    ops[1] = cublas_operand("B", o->b, o->tb == CB_BLAS_OP_N ? mat(o, o->m, o->n, o->ldb) : mat(o, o->n, o->m, o->ldb), 0, o->t);
    ops[2] = cublas_operand("C", o->c, mat(o, o->m, o->n, o->ldc), 1, o->t);
    if (cx_zero(cublas_sc(o, 0, o->t)))
        ops[0].bytes = 0;   /* alpha = 0: A is not read (may be NULL) */
    if (cx_zero(cublas_sc(o, 1, o->t)))
        ops[1].bytes = 0;
    return 3;
}
static const cublas_routine r_geam = {run_geam, ops_geam, cublas_ref_geam};

static CUresult run_dgmm(cublas_op *o, cb_backend *b)
{
    return b->lib->dgmm(b, o->t, o->side, o->m, o->n, o->a, o->lda, o->x, o->incx, o->c, o->ldc);
}
static int ops_dgmm(cublas_op *o, cbl_operand *ops)
{
    ops[0] = cublas_operand("A", o->a, mat(o, o->m, o->n, o->lda), 0, o->t);
    ops[1] = cublas_operand("x", o->x, cbl_vector_bytes(o->side == CB_BLAS_LEFT ? o->m : o->n, o->incx, cublas_elem(o->t)),
                            0, o->t);
    ops[2] = cublas_operand("C", o->c, mat(o, o->m, o->n, o->ldc), 1, o->t);
    return 3;
}
static const cublas_routine r_dgmm = {run_dgmm, ops_dgmm, cublas_ref_dgmm};

/* ---- entry helpers ------------------------------------------------------------------ */

#define CHECK_HANDLE()                                                                                                 \
    cublasStatus_t st_ = cublas_handle_check(h);                                                                       \
    if (st_ != CUBLAS_STATUS_SUCCESS)                                                                                  \
    return st_
#define NEW(r, t)                                                                                                      \
    cublas_op *o = cublas_op_new((r), fn, (t));                                                                        \
    if (!o)                                                                                                            \
    return CUBLAS_STATUS_ALLOC_FAILED

static cublasStatus_t gemm(cublasHandle_t h, const char *fn, cb_blas_type t, cublasOperation_t ta, cublasOperation_t tb,
                           int64_t m, int64_t n, int64_t k, const void *alpha, const void *A, int64_t lda, const void *B,
                           int64_t ldb, const void *beta, void *C, int64_t ldc)
{
    CHECK_HANDLE();
    if (!cublas_op_valid(ta) || !cublas_op_valid(tb) || m < 0 || n < 0 || k < 0)
        return CUBLAS_STATUS_INVALID_VALUE;
    if (lda < max1(ta == CUBLAS_OP_N ? m : k) || ldb < max1(tb == CUBLAS_OP_N ? k : n) || ldc < max1(m))
        return CUBLAS_STATUS_INVALID_VALUE;
    if (m == 0 || n == 0)
        return CUBLAS_STATUS_SUCCESS;
    NEW(&r_gemm, t);
    o->ta = ta, o->tb = tb, o->m = m, o->n = n, o->k = k;
    o->a = (uintptr_t)A, o->lda = lda, o->b = (uintptr_t)B, o->ldb = ldb, o->c = (uintptr_t)C, o->ldc = ldc;
    cublas_op_scalar(o, h, 0, alpha, cublas_elem(t));
    cublas_op_scalar(o, h, 1, beta, cublas_elem(t));
    if (t == CB_BLAS_F32 || t == CB_BLAS_C32) {
        cb_blas_input_round r = cublas_math_round(h);
        if (r != CB_BLAS_ROUND_NONE) {
            o->g = (cb_blas_gemm){.a_type = t, .b_type = t, .c_type = t, .d_type = t, .compute = t, .scale = t,
                                  .round = r, .trans_a = ta, .trans_b = tb, .m = m, .n = n, .k = k, .a = o->a,
                                  .b = o->b, .c = o->c, .d = o->c, .lda = lda, .ldb = ldb, .ldc = ldc, .ldd = ldc,
                                  .batch = 1};
        }
    }
    return cublas_op_submit(h, o);
}

static cublasStatus_t symm(cublasHandle_t h, const char *fn, cb_blas_type t, int herm, cublasSideMode_t side,
                           cublasFillMode_t uplo, int64_t m, int64_t n, const void *alpha, const void *A, int64_t lda,
                           const void *B, int64_t ldb, const void *beta, void *C, int64_t ldc)
{
    CHECK_HANDLE();
    if (!cublas_side_valid(side) || !cublas_fill_valid(uplo) || m < 0 || n < 0)
        return CUBLAS_STATUS_INVALID_VALUE;
    if (lda < max1(side == CUBLAS_SIDE_LEFT ? m : n) || ldb < max1(m) || ldc < max1(m))
        return CUBLAS_STATUS_INVALID_VALUE;
    if (m == 0 || n == 0)
        return CUBLAS_STATUS_SUCCESS;
    NEW(&r_symm, t);
    o->herm = herm, o->side = side, o->uplo = uplo, o->m = m, o->n = n;
    o->a = (uintptr_t)A, o->lda = lda, o->b = (uintptr_t)B, o->ldb = ldb, o->c = (uintptr_t)C, o->ldc = ldc;
    cublas_op_scalar(o, h, 0, alpha, cublas_elem(t));
    cublas_op_scalar(o, h, 1, beta, cublas_elem(t));
    return cublas_op_submit(h, o);
}

/* xform: 0 syrk/herk, 1 syr2k/her2k, 2 syrkx/herkx. herk: alpha and beta
 * real; her2k/herkx: beta real. */
static cublasStatus_t syrk(cublasHandle_t h, const char *fn, cb_blas_type t, int herm, int xform, cublasFillMode_t uplo,
                           cublasOperation_t trans, int64_t n, int64_t k, const void *alpha, const void *A,
                           int64_t lda, const void *B, int64_t ldb, const void *beta, void *C, int64_t ldc)
{
    CHECK_HANDLE();
    int complex = cb_blas_type_complex(t);
    int trans_ok = trans == CUBLAS_OP_N || (herm ? trans == CUBLAS_OP_C : trans == CUBLAS_OP_T || (!complex && trans == CUBLAS_OP_C));
    if (!cublas_fill_valid(uplo) || !trans_ok || n < 0 || k < 0)
        return CUBLAS_STATUS_INVALID_VALUE;
    int64_t rows = trans == CUBLAS_OP_N ? n : k;
    if (lda < max1(rows) || (xform && ldb < max1(rows)) || ldc < max1(n))
        return CUBLAS_STATUS_INVALID_VALUE;
    if (n == 0)
        return CUBLAS_STATUS_SUCCESS;
    NEW(&r_syrk, t);
    o->herm = herm, o->xform = xform, o->uplo = uplo, o->ta = trans, o->n = n, o->k = k;
    o->a = (uintptr_t)A, o->lda = lda, o->b = (uintptr_t)B, o->ldb = ldb, o->c = (uintptr_t)C, o->ldc = ldc;
    cb_blas_type rt = cublas_real(t);
    cublas_op_scalar(o, h, 0, alpha, cublas_elem(herm && xform == 0 ? rt : t));
    cublas_op_scalar(o, h, 1, beta, cublas_elem(herm ? rt : t));
    return cublas_op_submit(h, o);
}

static cublasStatus_t trmm(cublasHandle_t h, const char *fn, cb_blas_type t, int solve, cublasSideMode_t side,
                           cublasFillMode_t uplo, cublasOperation_t trans, cublasDiagType_t diag, int64_t m, int64_t n,
                           const void *alpha, const void *A, int64_t lda, void *B, int64_t ldb, void *C, int64_t ldc)
{
    CHECK_HANDLE();
    if (!cublas_side_valid(side) || !cublas_fill_valid(uplo) || !cublas_op_valid(trans) || !cublas_diag_valid(diag) ||
        m < 0 || n < 0)
        return CUBLAS_STATUS_INVALID_VALUE;
    if (lda < max1(side == CUBLAS_SIDE_LEFT ? m : n) || ldb < max1(m) || (!solve && ldc < max1(m)))
        return CUBLAS_STATUS_INVALID_VALUE;
    if (m == 0 || n == 0)
        return CUBLAS_STATUS_SUCCESS;
    NEW(&r_trmm, t);
    o->solve = solve, o->side = side, o->uplo = uplo, o->ta = trans, o->diag = diag, o->m = m, o->n = n;
    o->a = (uintptr_t)A, o->lda = lda, o->b = (uintptr_t)B, o->ldb = ldb, o->c = (uintptr_t)C, o->ldc = ldc;
    cublas_op_scalar(o, h, 0, alpha, cublas_elem(t));
    return cublas_op_submit(h, o);
}

static cublasStatus_t geam(cublasHandle_t h, const char *fn, cb_blas_type t, cublasOperation_t ta, cublasOperation_t tb,
                           int64_t m, int64_t n, const void *alpha, const void *A, int64_t lda, const void *beta,
                           const void *B, int64_t ldb, void *C, int64_t ldc)
{
    CHECK_HANDLE();
    if (!cublas_op_valid(ta) || !cublas_op_valid(tb) || m < 0 || n < 0)
        return CUBLAS_STATUS_INVALID_VALUE;
    if (lda < max1(ta == CUBLAS_OP_N ? m : n) || ldb < max1(tb == CUBLAS_OP_N ? m : n) || ldc < max1(m))
        return CUBLAS_STATUS_INVALID_VALUE;
    /* in place: C may be A (or B) only untransposed with the same leading dimension */
    if ((C == A && (ta != CUBLAS_OP_N || lda != ldc)) || (C == B && (tb != CUBLAS_OP_N || ldb != ldc)))
        return CUBLAS_STATUS_INVALID_VALUE;
    if (m == 0 || n == 0)
        return CUBLAS_STATUS_SUCCESS;
    NEW(&r_geam, t);
    o->ta = ta, o->tb = tb, o->m = m, o->n = n;
    o->a = (uintptr_t)A, o->lda = lda, o->b = (uintptr_t)B, o->ldb = ldb, o->c = (uintptr_t)C, o->ldc = ldc;
    cublas_op_scalar(o, h, 0, alpha, cublas_elem(t));
    cublas_op_scalar(o, h, 1, beta, cublas_elem(t));
    return cublas_op_submit(h, o);
}

static cublasStatus_t dgmm(cublasHandle_t h, const char *fn, cb_blas_type t, cublasSideMode_t side, int64_t m,
                           int64_t n, const void *A, int64_t lda, const void *x, int64_t incx, void *C, int64_t ldc)
{
    CHECK_HANDLE();
    if (!cublas_side_valid(side) || m < 0 || n < 0 || lda < max1(m) || ldc < max1(m))
        return CUBLAS_STATUS_INVALID_VALUE;
    if (m == 0 || n == 0)
        return CUBLAS_STATUS_SUCCESS;
    NEW(&r_dgmm, t);
    o->side = side, o->m = m, o->n = n, o->a = (uintptr_t)A, o->lda = lda, o->x = (uintptr_t)x, o->incx = incx;
    o->c = (uintptr_t)C, o->ldc = ldc;
    return cublas_op_submit(h, o);
}

/* ---- the entry points ----------------------------------------------------------------- */

#define L3(S, T, BT, I, SUF, V2)                                                                                       \
    cublasStatus_t cublas##S##gemm##V2##SUF(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, I m, I n,   \
                                            I k, const T *alpha, const T *A, I lda, const T *B, I ldb, const T *beta,  \
                                            T *C, I ldc)                                                               \
    {                                                                                                                  \
        return gemm(h, "cublas" #S "gemm" #V2 #SUF, BT, ta, tb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc);         \
    }                                                                                                                  \
    cublasStatus_t cublas##S##symm##V2##SUF(cublasHandle_t h, cublasSideMode_t side, cublasFillMode_t uplo, I m, I n, \
                                            const T *alpha, const T *A, I lda, const T *B, I ldb, const T *beta, T *C, \
                                            I ldc)                                                                     \
    {                                                                                                                  \
        return symm(h, "cublas" #S "symm" #V2 #SUF, BT, 0, side, uplo, m, n, alpha, A, lda, B, ldb, beta, C, ldc);     \
    }                                                                                                                  \
    cublasStatus_t cublas##S##syrk##V2##SUF(cublasHandle_t h, cublasFillMode_t uplo, cublasOperation_t trans, I n,    \
                                            I k, const T *alpha, const T *A, I lda, const T *beta, T *C, I ldc)        \
    {                                                                                                                  \
        return syrk(h, "cublas" #S "syrk" #V2 #SUF, BT, 0, 0, uplo, trans, n, k, alpha, A, lda, NULL, 0, beta, C,     \
                    ldc);                                                                                              \
    }                                                                                                                  \
    cublasStatus_t cublas##S##syr2k##V2##SUF(cublasHandle_t h, cublasFillMode_t uplo, cublasOperation_t trans, I n,   \
                                             I k, const T *alpha, const T *A, I lda, const T *B, I ldb,                \
                                             const T *beta, T *C, I ldc)                                               \
    {                                                                                                                  \
        return syrk(h, "cublas" #S "syr2k" #V2 #SUF, BT, 0, 1, uplo, trans, n, k, alpha, A, lda, B, ldb, beta, C,     \
                    ldc);                                                                                              \
    }                                                                                                                  \
    cublasStatus_t cublas##S##syrkx##SUF(cublasHandle_t h, cublasFillMode_t uplo, cublasOperation_t trans, I n, I k,  \
                                         const T *alpha, const T *A, I lda, const T *B, I ldb, const T *beta, T *C,    \
                                         I ldc)                                                                        \
    {                                                                                                                  \
        return syrk(h, "cublas" #S "syrkx" #SUF, BT, 0, 2, uplo, trans, n, k, alpha, A, lda, B, ldb, beta, C, ldc);    \
    }                                                                                                                  \
    cublasStatus_t cublas##S##trmm##V2##SUF(cublasHandle_t h, cublasSideMode_t side, cublasFillMode_t uplo,           \
                                            cublasOperation_t trans, cublasDiagType_t diag, I m, I n, const T *alpha,  \
                                            const T *A, I lda, const T *B, I ldb, T *C, I ldc)                         \
    {                                                                                                                  \
        return trmm(h, "cublas" #S "trmm" #V2 #SUF, BT, 0, side, uplo, trans, diag, m, n, alpha, A, lda, (void *)B,    \
                    ldb, C, ldc);                                                                                      \
    }                                                                                                                  \
    cublasStatus_t cublas##S##trsm##V2##SUF(cublasHandle_t h, cublasSideMode_t side, cublasFillMode_t uplo,           \
                                            cublasOperation_t trans, cublasDiagType_t diag, I m, I n, const T *alpha,  \
                                            const T *A, I lda, T *B, I ldb)                                            \
    {                                                                                                                  \
        return trmm(h, "cublas" #S "trsm" #V2 #SUF, BT, 1, side, uplo, trans, diag, m, n, alpha, A, lda, B, ldb, B,    \
                    ldb);                                                                                              \
    }                                                                                                                  \
    cublasStatus_t cublas##S##geam##SUF(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, I m, I n,       \
                                        const T *alpha, const T *A, I lda, const T *beta, const T *B, I ldb, T *C,     \
                                        I ldc)                                                                         \
    {                                                                                                                  \
        return geam(h, "cublas" #S "geam" #SUF, BT, ta, tb, m, n, alpha, A, lda, beta, B, ldb, C, ldc);                \
    }                                                                                                                  \
    cublasStatus_t cublas##S##dgmm##SUF(cublasHandle_t h, cublasSideMode_t mode, I m, I n, const T *A, I lda,         \
                                        const T *x, I incx, T *C, I ldc)                                               \
    {                                                                                                                  \
        return dgmm(h, "cublas" #S "dgmm" #SUF, BT, mode, m, n, A, lda, x, incx, C, ldc);                              \
    }

L3(S, float, CB_BLAS_F32, int, , _v2)
L3(S, float, CB_BLAS_F32, int64_t, _64, _v2)
L3(D, double, CB_BLAS_F64, int, , _v2)
L3(D, double, CB_BLAS_F64, int64_t, _64, _v2)
L3(C, cuComplex, CB_BLAS_C32, int, , _v2)
L3(C, cuComplex, CB_BLAS_C32, int64_t, _64, _v2)
L3(Z, cuDoubleComplex, CB_BLAS_C64, int, , _v2)
L3(Z, cuDoubleComplex, CB_BLAS_C64, int64_t, _64, _v2)

/* Complex only: gemm3m (computed as gemm: the 3M trick is a GPU speed-up
 * with the same result up to rounding), hemm, herk, her2k, herkx. */
#define L3C(S, T, R, BT, I, SUF)                                                                                       \
    cublasStatus_t cublas##S##gemm3m##SUF(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, I m, I n, I k,\
                                          const T *alpha, const T *A, I lda, const T *B, I ldb, const T *beta, T *C,   \
                                          I ldc)                                                                       \
    {                                                                                                                  \
        return gemm(h, "cublas" #S "gemm3m" #SUF, BT, ta, tb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc);           \
    }                                                                                                                  \
    cublasStatus_t cublas##S##hemm_v2##SUF(cublasHandle_t h, cublasSideMode_t side, cublasFillMode_t uplo, I m, I n,  \
                                           const T *alpha, const T *A, I lda, const T *B, I ldb, const T *beta, T *C,  \
                                           I ldc)                                                                      \
    {                                                                                                                  \
        return symm(h, "cublas" #S "hemm_v2" #SUF, BT, 1, side, uplo, m, n, alpha, A, lda, B, ldb, beta, C, ldc);      \
    }                                                                                                                  \
    cublasStatus_t cublas##S##herk_v2##SUF(cublasHandle_t h, cublasFillMode_t uplo, cublasOperation_t trans, I n, I k,\
                                           const R *alpha, const T *A, I lda, const R *beta, T *C, I ldc)              \
    {                                                                                                                  \
        return syrk(h, "cublas" #S "herk_v2" #SUF, BT, 1, 0, uplo, trans, n, k, alpha, A, lda, NULL, 0, beta, C, ldc); \
    }                                                                                                                  \
    cublasStatus_t cublas##S##her2k_v2##SUF(cublasHandle_t h, cublasFillMode_t uplo, cublasOperation_t trans, I n,    \
                                            I k, const T *alpha, const T *A, I lda, const T *B, I ldb, const R *beta,  \
                                            T *C, I ldc)                                                               \
    {                                                                                                                  \
        return syrk(h, "cublas" #S "her2k_v2" #SUF, BT, 1, 1, uplo, trans, n, k, alpha, A, lda, B, ldb, beta, C, ldc); \
    }                                                                                                                  \
    cublasStatus_t cublas##S##herkx##SUF(cublasHandle_t h, cublasFillMode_t uplo, cublasOperation_t trans, I n, I k,  \
                                         const T *alpha, const T *A, I lda, const T *B, I ldb, const R *beta, T *C,    \
                                         I ldc)                                                                        \
    {                                                                                                                  \
        return syrk(h, "cublas" #S "herkx" #SUF, BT, 1, 2, uplo, trans, n, k, alpha, A, lda, B, ldb, beta, C, ldc);    \
    }

L3C(C, cuComplex, float, CB_BLAS_C32, int, )
L3C(C, cuComplex, float, CB_BLAS_C32, int64_t, _64)
L3C(Z, cuDoubleComplex, double, CB_BLAS_C64, int, )
L3C(Z, cuDoubleComplex, double, CB_BLAS_C64, int64_t, _64)
