/* chol.c: Cholesky factorisation, solve and inverse:
 * cusolverDn<t>potrf_bufferSize, <t>potrf, <t>potrs, <t>potri_bufferSize,
 * <t>potri in S/D/C/Z, and Xpotrf_bufferSize, Xpotrf, Xpotrs.
 *
 * devInfo: potrf's is i > 0 when the leading minor of order i is not
 * positive definite (the factorisation stops there), as LAPACK's; potri's
 * and potrs's are 0. potri does not check its factor, as NVIDIA's does
 * not (the H200 leaves info 0 on a zero diagonal, its result then Inf or
 * NaN): a zero on the factor's diagonal gives info 0 and a uplo triangle
 * of NaN, never something that passes for an inverse.
 * Only the uplo triangle is read and written.
 *
 * Bad input: NULL handle -> NOT_INITIALIZED; an unknown uplo, n or nrhs
 * negative, a leading dimension below max(1, n) -> INVALID_VALUE.
 */
#include "cusolver_internal.h"

#include <stdlib.h>
#include <string.h>

static cusolverStatus_t check_un(cusolverDnHandle_t h, cublasFillMode_t uplo, int64_t n, int64_t lda)
{
    cusolverStatus_t st = cusolver_handle_check(h);
    if (st != CUSOLVER_STATUS_SUCCESS)
        return st;
    if (!cusolver_fill_valid(uplo) || n < 0 || lda < cusolver_max1(n))
        return CUSOLVER_STATUS_INVALID_VALUE;
    return CUSOLVER_STATUS_SUCCESS;
}

static void set_info(cbl_operand *op, int64_t info)
{
    if (op->ref)
        *(int32_t *)op->ref = (int32_t)info;
}

/* ---- potrf -------------------------------------------------------------------------------- */

static CUresult run_potrf(solver_op *o, cb_backend *b, int64_t *info)
{
    return b->lib->lapack_potrf(b, o->t, o->uplo, o->n, o->a, o->lda, info);
}

static int ops_potrf(solver_op *o, cbl_operand *ops)
{
    ops[0] = solver_matrix("A", o->a, o->n, o->n, o->lda, 1, o->t);
    ops[0].tol_scale = 4.0 * (double)(o->n > 1 ? o->n : 1);
    ops[1] = solver_ints("info", o->info, 1, 4, 1);
    return 2;
}

/* A failed factorisation leaves the matrix partly factored, and how far
 * depends on the blocking: only info is compared then (docs/libraries.md). */
static void ref_potrf_op(void *p, cbl_operand *ops)
{
    solver_op *o = p;
    int64_t info = 0;
    if (o->n > 0) {
        ref_mat a = ref_load(o->t, ops[0].before, o->n, o->n, o->lda);
        if (!a.v)
            return;
        info = ref_potrf(&a, o->uplo);
        if (info == 0)
            ref_store(&a, o->t, ops[0].ref, o->lda);
        else
            memcpy(ops[0].ref, ops[0].result, ops[0].bytes);
        ref_free(&a);
    }
    set_info(&ops[1], info);
}

static const solver_routine r_potrf = {run_potrf, ops_potrf, ref_potrf_op};

static cusolverStatus_t potrf_any(const char *fn, cusolverDnHandle_t h, cb_blas_type t, cublasFillMode_t uplo,
                                  int64_t n, void *a, int64_t lda, int *info)
{
    cusolverStatus_t st = check_un(h, uplo, n, lda);
    if (st != CUSOLVER_STATUS_SUCCESS)
        return st;
    solver_op *o = solver_op_new(&r_potrf, fn, t);
    if (!o)
        return CUSOLVER_STATUS_ALLOC_FAILED;
    o->uplo = uplo;
    o->m = o->n = n;
    o->lda = lda;
    o->a = (uint64_t)(uintptr_t)a;
    o->info = (uint64_t)(uintptr_t)info;
    return solver_submit(h, o);
}

/* ---- potrs -------------------------------------------------------------------------------- */

static CUresult run_potrs(solver_op *o, cb_backend *b, int64_t *info)
{
    *info = 0;
    return b->lib->lapack_potrs(b, o->t, o->uplo, o->n, o->nrhs, o->a, o->lda, o->b, o->ldb);
}

static int ops_potrs(solver_op *o, cbl_operand *ops)
{
    ops[0] = solver_matrix("A", o->a, o->n, o->n, o->lda, 0, o->t);
    ops[1] = solver_matrix("B", o->b, o->n, o->nrhs, o->ldb, 1, o->t);
    ops[1].tol_scale = 4.0 * (double)(o->n > 1 ? o->n : 1);
    ops[2] = solver_ints("info", o->info, 1, 4, 1);
    return 3;
}

static void ref_potrs_op(void *p, cbl_operand *ops)
{
    solver_op *o = p;
    set_info(&ops[2], 0);
    if (o->n == 0 || o->nrhs == 0)
        return;
    ref_mat f = ref_load(o->t, ops[0].before, o->n, o->n, o->lda);
    ref_mat bm = ref_load(o->t, ops[1].before, o->n, o->nrhs, o->ldb);
    if (f.v && bm.v) {
        ref_potrs(&f, o->uplo, &bm);
        ref_store(&bm, o->t, ops[1].ref, o->ldb);
    }
    ref_free(&f);
    ref_free(&bm);
}

static const solver_routine r_potrs = {run_potrs, ops_potrs, ref_potrs_op};

static cusolverStatus_t potrs_any(const char *fn, cusolverDnHandle_t h, cb_blas_type t, cublasFillMode_t uplo,
                                  int64_t n, int64_t nrhs, const void *a, int64_t lda, void *b, int64_t ldb, int *info)
{
    cusolverStatus_t st = check_un(h, uplo, n, lda);
    if (st != CUSOLVER_STATUS_SUCCESS)
        return st;
    if (nrhs < 0 || ldb < cusolver_max1(n))
        return CUSOLVER_STATUS_INVALID_VALUE;
    solver_op *o = solver_op_new(&r_potrs, fn, t);
    if (!o)
        return CUSOLVER_STATUS_ALLOC_FAILED;
    o->uplo = uplo;
    o->m = o->n = n;
    o->nrhs = nrhs;
    o->lda = lda;
    o->ldb = ldb;
    o->a = (uint64_t)(uintptr_t)a;
    o->b = (uint64_t)(uintptr_t)b;
    o->info = (uint64_t)(uintptr_t)info;
    return solver_submit(h, o);
}

/* ---- potri -------------------------------------------------------------------------------- */

/* The 32-bit word that, repeated, makes every element of type t a NaN:
 * 0x7fc00000 is a float NaN, 0x7ff80000 twice a double NaN. */
static uint32_t nan_word(cb_blas_type t)
{
    return t == CB_BLAS_F64 || t == CB_BLAS_C64 ? 0x7ff80000u : 0x7fc00000u;
}

/* The rows of column j in the uplo triangle of an n x n matrix. */
static void triangle_rows(int uplo, int64_t n, int64_t j, int64_t *first, int64_t *count)
{
    *first = uplo == CB_BLAS_UPPER ? 0 : j;
    *count = uplo == CB_BLAS_UPPER ? j + 1 : n - j;
}

/* NaN in each element of the uplo triangle of an n x n matrix at a. */
static CUresult nan_triangle(cb_backend *b, cb_blas_type t, int uplo, int64_t n, uint64_t a, int64_t lda)
{
    size_t es = cb_blas_type_size(t);
    for (int64_t j = 0; j < n; j++) {
        int64_t first, count;
        triangle_rows(uplo, n, j, &first, &count);
        CUresult r = b->memset(b, a + (uint64_t)((first + j * lda) * (int64_t)es), nan_word(t), 4, (size_t)count * es / 4);
        if (r != CUDA_SUCCESS)
            return r;
    }
    return CUDA_SUCCESS;
}

static CUresult run_potri(solver_op *o, cb_backend *b, int64_t *info)
{
    CUresult r = b->lib->lapack_potri(b, o->t, o->uplo, o->n, o->a, o->lda, info);
    if (r != CUDA_SUCCESS || *info <= 0)
        return r;
    *info = 0;   /* a zero on the factor's diagonal: unchecked, as NVIDIA's (see the top) */
    return nan_triangle(b, o->t, o->uplo, o->n, o->a, o->lda);
}

static int ops_potri(solver_op *o, cbl_operand *ops)
{
    ops[0] = solver_matrix("A", o->a, o->n, o->n, o->lda, 1, o->t);
    ops[0].tol_scale = 8.0 * (double)(o->n > 1 ? o->n : 1);
    ops[1] = solver_ints("info", o->info, 1, 4, 1);
    return 2;
}

static void ref_potri_op(void *p, cbl_operand *ops)
{
    solver_op *o = p;
    int64_t info = 0;
    if (o->n > 0) {
        ref_mat a = ref_load(o->t, ops[0].before, o->n, o->n, o->lda);
        if (!a.v)
            return;
        info = ref_potri(&a, o->uplo);
        if (info == 0)
            ref_store(&a, o->t, ops[0].ref, o->lda);
        ref_free(&a);
        if (info > 0 && ops[0].ref) {   /* as run_potri: NaN in the triangle, info 0 */
            size_t es = cb_blas_type_size(o->t);
            unsigned char *m = ops[0].ref;
            uint32_t word = nan_word(o->t);
            for (int64_t j = 0; j < o->n; j++) {
                int64_t first, count;
                triangle_rows(o->uplo, o->n, j, &first, &count);
                for (size_t w = (size_t)(first + j * o->lda) * es; w < (size_t)(first + count + j * o->lda) * es; w += 4)
                    memcpy(m + w, &word, 4);
            }
            info = 0;
        }
    }
    set_info(&ops[1], info);
}

static const solver_routine r_potri = {run_potri, ops_potri, ref_potri_op};

static cusolverStatus_t potri_any(const char *fn, cusolverDnHandle_t h, cb_blas_type t, cublasFillMode_t uplo,
                                  int64_t n, void *a, int64_t lda, int *info)
{
    cusolverStatus_t st = check_un(h, uplo, n, lda);
    if (st != CUSOLVER_STATUS_SUCCESS)
        return st;
    solver_op *o = solver_op_new(&r_potri, fn, t);
    if (!o)
        return CUSOLVER_STATUS_ALLOC_FAILED;
    o->uplo = uplo;
    o->m = o->n = n;
    o->lda = lda;
    o->a = (uint64_t)(uintptr_t)a;
    o->info = (uint64_t)(uintptr_t)info;
    return solver_submit(h, o);
}

/* The legacy buffer-size queries check what NVIDIA's do (recorded on the
 * H200): potrf's the handle and uplo only, potri's nothing but lwork. */
static cusolverStatus_t lwork_of(cusolverDnHandle_t h, cublasFillMode_t uplo, int64_t n, int64_t lda, int *lwork,
                                 int potri)
{
    (void)lda;
    cusolverStatus_t st = potri ? CUSOLVER_STATUS_SUCCESS : cusolver_handle_check(h);
    if (st != CUSOLVER_STATUS_SUCCESS)
        return st;
    if (!potri && !cusolver_fill_valid(uplo))
        return CUSOLVER_STATUS_INVALID_VALUE;
    if (!lwork)
        return CUSOLVER_STATUS_INVALID_VALUE;
    *lwork = cusolver_lwork(n, n);
    return CUSOLVER_STATUS_SUCCESS;
}

/* ---- the typed entry points ---------------------------------------------------------------- */

#define CHOL_TYPED(P, T, BT)                                                                                           \
    cusolverStatus_t cusolverDn##P##potrf_bufferSize(cusolverDnHandle_t h, cublasFillMode_t uplo, int n, T *A,       \
                                                     int lda, int *lwork)                                              \
    {                                                                                                                  \
        (void)A;                                                                                                       \
        return lwork_of(h, uplo, n, lda, lwork, 0);                                                                       \
    }                                                                                                                  \
    cusolverStatus_t cusolverDn##P##potrf(cusolverDnHandle_t h, cublasFillMode_t uplo, int n, T *A, int lda, T *ws,  \
                                          int lwork, int *info)                                                        \
    {                                                                                                                  \
        (void)ws, (void)lwork;                                                                                         \
        return potrf_any("cusolverDn" #P "potrf", h, BT, uplo, n, A, lda, info);                                       \
    }                                                                                                                  \
    cusolverStatus_t cusolverDn##P##potrs(cusolverDnHandle_t h, cublasFillMode_t uplo, int n, int nrhs, const T *A,  \
                                          int lda, T *B, int ldb, int *info)                                           \
    {                                                                                                                  \
        return potrs_any("cusolverDn" #P "potrs", h, BT, uplo, n, nrhs, A, lda, B, ldb, info);                        \
    }                                                                                                                  \
    cusolverStatus_t cusolverDn##P##potri_bufferSize(cusolverDnHandle_t h, cublasFillMode_t uplo, int n, T *A,       \
                                                     int lda, int *lwork)                                              \
    {                                                                                                                  \
        (void)A;                                                                                                       \
        return lwork_of(h, uplo, n, lda, lwork, 1);                                                                       \
    }                                                                                                                  \
    cusolverStatus_t cusolverDn##P##potri(cusolverDnHandle_t h, cublasFillMode_t uplo, int n, T *A, int lda, T *ws,  \
                                          int lwork, int *info)                                                        \
    {                                                                                                                  \
        (void)ws, (void)lwork;                                                                                         \
        return potri_any("cusolverDn" #P "potri", h, BT, uplo, n, A, lda, info);                                       \
    }

CHOL_TYPED(S, float, CB_BLAS_F32)
CHOL_TYPED(D, double, CB_BLAS_F64)
CHOL_TYPED(C, cuComplex, CB_BLAS_C32)
CHOL_TYPED(Z, cuDoubleComplex, CB_BLAS_C64)

/* ---- the 64-bit generic API ----------------------------------------------------------------- */

static cusolverStatus_t x_type(cusolverDnHandle_t h, cusolverDnParams_t params, cudaDataType a, cudaDataType b,
                               cb_blas_type *t)
{
    cusolverStatus_t st = cusolver_handle_check(h);
    if (st == CUSOLVER_STATUS_SUCCESS)
        st = cusolver_params_check(params);
    if (st != CUSOLVER_STATUS_SUCCESS)
        return st;
    int ta = cusolver_type_of(a);
    if (ta < 0 || a != b)
        return CUSOLVER_STATUS_NOT_SUPPORTED;
    *t = (cb_blas_type)ta;
    return CUSOLVER_STATUS_SUCCESS;
}

cusolverStatus_t cusolverDnXpotrf_bufferSize(cusolverDnHandle_t h, cusolverDnParams_t params, cublasFillMode_t uplo,
                                             int64_t n, cudaDataType dataTypeA, const void *A, int64_t lda,
                                             cudaDataType computeType, size_t *device_bytes, size_t *host_bytes)
{
    (void)A;
    cb_blas_type t = CB_BLAS_F32;
    cusolverStatus_t st = check_un(h, uplo, n, lda);
    if (st == CUSOLVER_STATUS_SUCCESS)
        st = x_type(h, params, dataTypeA, computeType, &t);
    if (st != CUSOLVER_STATUS_SUCCESS)
        return st;
    if (!device_bytes || !host_bytes)
        return CUSOLVER_STATUS_INVALID_VALUE;
    *device_bytes = (size_t)cusolver_lwork(n, n) * cb_blas_type_size(t);
    *host_bytes = 0;
    return CUSOLVER_STATUS_SUCCESS;
}

cusolverStatus_t cusolverDnXpotrf(cusolverDnHandle_t h, cusolverDnParams_t params, cublasFillMode_t uplo, int64_t n,
                                  cudaDataType dataTypeA, void *A, int64_t lda, cudaDataType computeType,
                                  void *bufferOnDevice, size_t device_bytes, void *bufferOnHost, size_t host_bytes,
                                  int *info)
{
    (void)bufferOnDevice, (void)device_bytes, (void)bufferOnHost, (void)host_bytes;
    cb_blas_type t = CB_BLAS_F32;
    cusolverStatus_t st = x_type(h, params, dataTypeA, computeType, &t);
    if (st != CUSOLVER_STATUS_SUCCESS)
        return st;
    return potrf_any("cusolverDnXpotrf", h, t, uplo, n, A, lda, info);
}

cusolverStatus_t cusolverDnXpotrs(cusolverDnHandle_t h, cusolverDnParams_t params, cublasFillMode_t uplo, int64_t n,
                                  int64_t nrhs, cudaDataType dataTypeA, const void *A, int64_t lda,
                                  cudaDataType dataTypeB, void *B, int64_t ldb, int *info)
{
    cb_blas_type t = CB_BLAS_F32;
    cusolverStatus_t st = x_type(h, params, dataTypeA, dataTypeB, &t);
    if (st != CUSOLVER_STATUS_SUCCESS)
        return st;
    return potrs_any("cusolverDnXpotrs", h, t, uplo, n, nrhs, A, lda, B, ldb, info);
}
