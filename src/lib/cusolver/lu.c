/* lu.c: LU factorisation and solve: cusolverDn<t>getrf_bufferSize,
 * <t>getrf, <t>getrs in S/D/C/Z, and the 64-bit generic API's
 * Xgetrf_bufferSize, Xgetrf, Xgetrs (64-bit pivots).
 *
 * devInfo: getrf's is i > 0 when U(i, i) is exactly zero (the first such
 * i; the factorisation is completed), as LAPACK's; getrs's is 0. A NULL
 * devIpiv makes getrf factor without row exchanges (and getrs solve with
 * such factors).
 *
 * Bad input (docs/libraries.md, "cuSOLVER: bad input"): NULL handle ->
 * NOT_INITIALIZED; m, n or nrhs negative, a leading dimension below
 * max(1, rows), an unknown trans -> INVALID_VALUE, devInfo not written.
 * The generic API also takes a params object and data types: a type
 * cubridge does not handle or a compute type other than the data's ->
 * NOT_SUPPORTED.
 */
#include "cusolver_internal.h"

#include <math.h>
#include <stdlib.h>

static cusolverStatus_t check_mn(cusolverDnHandle_t h, int64_t m, int64_t n, int64_t lda)
{
    cusolverStatus_t st = cusolver_handle_check(h);
    if (st != CUSOLVER_STATUS_SUCCESS)
        return st;
    if (m < 0 || n < 0 || lda < cusolver_max1(m))
        return CUSOLVER_STATUS_INVALID_VALUE;
    return CUSOLVER_STATUS_SUCCESS;
}

/* The generic API's types: A's and the compute type the same S/D/C/Z. */
static cusolverStatus_t x_types(cudaDataType a, cudaDataType compute, cb_blas_type *t)
{
    int ta = cusolver_type_of(a);
    if (ta < 0 || a != compute)
        return CUSOLVER_STATUS_NOT_SUPPORTED;
    *t = (cb_blas_type)ta;
    return CUSOLVER_STATUS_SUCCESS;
}

/* ---- getrf ------------------------------------------------------------------------------- */

static CUresult run_getrf(solver_op *o, cb_backend *b, int64_t *info)
{
    return b->lib->lapack_getrf(b, o->t, o->m, o->n, o->a, o->lda, o->ipiv, o->piv_bytes, info);
}

static int ops_getrf(solver_op *o, cbl_operand *ops)
{
    int n = 0;
    ops[n] = solver_matrix("A", o->a, o->m, o->n, o->lda, 1, o->t);
    ops[n++].tol_scale = 4.0 * (double)(o->m > o->n ? o->m : o->n);
    if (o->ipiv)
        ops[n++] = solver_ints("ipiv", o->ipiv, o->m < o->n ? o->m : o->n, o->piv_bytes, 1);
    ops[n++] = solver_ints("info", o->info, 1, 4, 1);
    return n;
}

static int64_t load_int(const void *p, int bytes, int64_t i)
{
    if (bytes == 8)
        return ((const int64_t *)p)[i];
    return ((const int32_t *)p)[i];
}

static void store_int(void *p, int bytes, int64_t i, int64_t v)
{
    if (bytes == 8)
        ((int64_t *)p)[i] = v;
    else
        ((int32_t *)p)[i] = (int32_t)v;
}

static void ref_getrf_op(void *p, cbl_operand *ops)
{
    solver_op *o = p;
    int64_t mn = o->m < o->n ? o->m : o->n;
    int pi = o->ipiv ? 1 : -1, ii = o->ipiv ? 2 : 1;
    ref_mat a = ref_load(o->t, ops[0].before, o->m, o->n, o->lda);
    int64_t *hint = mn > 0 ? malloc((size_t)mn * sizeof *hint) : NULL;
    int64_t *piv = mn > 0 ? malloc((size_t)mn * sizeof *piv) : NULL;
    if ((mn > 0 && (!a.v || !hint || !piv))) {
        ref_free(&a);
        free(hint);
        free(piv);
        return;
    }
    for (int64_t i = 0; i < mn && pi >= 0; i++)
        hint[i] = load_int(ops[pi].result, o->piv_bytes, i);
    int64_t info = ref_getrf(&a, pi >= 0 ? hint : NULL, piv, pi >= 0);
    if (mn > 0)
        ref_store(&a, o->t, ops[0].ref, o->lda);
    for (int64_t i = 0; i < mn && pi >= 0; i++)
        store_int(ops[pi].ref, o->piv_bytes, i, piv[i]);
    if (ops[ii].ref)
        *(int32_t *)ops[ii].ref = (int32_t)info;
    ref_free(&a);
    free(hint);
    free(piv);
}

static const solver_routine r_getrf = {run_getrf, ops_getrf, ref_getrf_op};

/* NVIDIA's legacy getrf_bufferSize does not check m, n or lda (recorded on
 * the H200: m = -1, n = -1, lda < m all SUCCESS): only the handle. */
static cusolverStatus_t getrf_bs(cusolverDnHandle_t h, int64_t m, int64_t n, int64_t lda, int *lwork)
{
    (void)lda;
    cusolverStatus_t st = cusolver_handle_check(h);
    if (st != CUSOLVER_STATUS_SUCCESS)
        return st;
    if (!lwork)
        return CUSOLVER_STATUS_INVALID_VALUE;
    *lwork = cusolver_lwork(m, n);
    return CUSOLVER_STATUS_SUCCESS;
}

static cusolverStatus_t getrf_any(const char *fn, cusolverDnHandle_t h, cb_blas_type t, int64_t m, int64_t n,
                                  void *a, int64_t lda, void *ipiv, int piv_bytes, int *info)
{
    cusolverStatus_t st = check_mn(h, m, n, lda);
    if (st != CUSOLVER_STATUS_SUCCESS)
        return st;
    solver_op *o = solver_op_new(&r_getrf, fn, t);
    if (!o)
        return CUSOLVER_STATUS_ALLOC_FAILED;
    o->m = m;
    o->n = n;
    o->lda = lda;
    o->a = (uint64_t)(uintptr_t)a;
    o->ipiv = (uint64_t)(uintptr_t)ipiv;
    o->piv_bytes = piv_bytes;
    o->info = (uint64_t)(uintptr_t)info;
    return solver_submit(h, o);
}

/* ---- getrs ------------------------------------------------------------------------------- */

static CUresult run_getrs(solver_op *o, cb_backend *b, int64_t *info)
{
    *info = 0;
    return b->lib->lapack_getrs(b, o->t, o->trans, o->n, o->nrhs, o->a, o->lda, o->ipiv, o->piv_bytes, o->b, o->ldb);
}

static int ops_getrs(solver_op *o, cbl_operand *ops)
{
    int n = 0;
    ops[n++] = solver_matrix("A", o->a, o->n, o->n, o->lda, 0, o->t);
    if (o->ipiv)
        ops[n++] = solver_ints("ipiv", o->ipiv, o->n, o->piv_bytes, 0);
    ops[n] = solver_matrix("B", o->b, o->n, o->nrhs, o->ldb, 1, o->t);
    ops[n++].tol_scale = 4.0 * (double)(o->n > 1 ? o->n : 1);
    ops[n++] = solver_ints("info", o->info, 1, 4, 1);
    return n;
}

static void ref_getrs_op(void *p, cbl_operand *ops)
{
    solver_op *o = p;
    int pi = o->ipiv ? 1 : -1, bi = o->ipiv ? 2 : 1;
    if (ops[bi + 1].ref)
        *(int32_t *)ops[bi + 1].ref = 0;
    if (o->n == 0 || o->nrhs == 0)
        return;
    ref_mat a = ref_load(o->t, ops[0].before, o->n, o->n, o->lda);
    ref_mat bm = ref_load(o->t, ops[bi].before, o->n, o->nrhs, o->ldb);
    int64_t *piv = malloc((size_t)o->n * sizeof *piv);
    if (a.v && bm.v && piv) {
        for (int64_t i = 0; i < o->n; i++)
            piv[i] = pi >= 0 ? load_int(ops[pi].before, o->piv_bytes, i) : i + 1;
        ref_getrs(&a, piv, o->trans, &bm);
        ref_store(&bm, o->t, ops[bi].ref, o->ldb);
    }
    ref_free(&a);
    ref_free(&bm);
    free(piv);
}

static const solver_routine r_getrs = {run_getrs, ops_getrs, ref_getrs_op};

static cusolverStatus_t getrs_any(const char *fn, cusolverDnHandle_t h, cb_blas_type t, cublasOperation_t trans,
                                  int64_t n, int64_t nrhs, const void *a, int64_t lda, const void *ipiv, int piv_bytes,
                                  void *b, int64_t ldb, int *info)
{
    cusolverStatus_t st = cusolver_handle_check(h);
    if (st != CUSOLVER_STATUS_SUCCESS)
        return st;
    if (!cusolver_op_valid(trans) || n < 0 || nrhs < 0 || lda < cusolver_max1(n) || ldb < cusolver_max1(n))
        return CUSOLVER_STATUS_INVALID_VALUE;
    solver_op *o = solver_op_new(&r_getrs, fn, t);
    if (!o)
        return CUSOLVER_STATUS_ALLOC_FAILED;
    o->trans = trans;
    o->n = o->m = n;
    o->nrhs = nrhs;
    o->lda = lda;
    o->ldb = ldb;
    o->a = (uint64_t)(uintptr_t)a;
    o->b = (uint64_t)(uintptr_t)b;
    o->ipiv = (uint64_t)(uintptr_t)ipiv;
    o->piv_bytes = piv_bytes;
    o->info = (uint64_t)(uintptr_t)info;
    return solver_submit(h, o);
}

/* ---- the typed entry points ---------------------------------------------------------------- */

#define LU_TYPED(P, T, BT)                                                                                             \
    cusolverStatus_t cusolverDn##P##getrf_bufferSize(cusolverDnHandle_t h, int m, int n, T *A, int lda, int *lwork)  \
    {                                                                                                                  \
        (void)A;                                                                                                       \
        return getrf_bs(h, m, n, lda, lwork);                                                                          \
    }                                                                                                                  \
    cusolverStatus_t cusolverDn##P##getrf(cusolverDnHandle_t h, int m, int n, T *A, int lda, T *ws, int *ipiv,       \
                                          int *info)                                                                   \
    {                                                                                                                  \
        (void)ws;                                                                                                      \
        return getrf_any("cusolverDn" #P "getrf", h, BT, m, n, A, lda, ipiv, 4, info);                                 \
    }                                                                                                                  \
    cusolverStatus_t cusolverDn##P##getrs(cusolverDnHandle_t h, cublasOperation_t trans, int n, int nrhs, const T *A, \
                                          int lda, const int *ipiv, T *B, int ldb, int *info)                          \
    {                                                                                                                  \
        return getrs_any("cusolverDn" #P "getrs", h, BT, trans, n, nrhs, A, lda, ipiv, 4, B, ldb, info);              \
    }

LU_TYPED(S, float, CB_BLAS_F32)
LU_TYPED(D, double, CB_BLAS_F64)
LU_TYPED(C, cuComplex, CB_BLAS_C32)
LU_TYPED(Z, cuDoubleComplex, CB_BLAS_C64)

/* ---- the 64-bit generic API ----------------------------------------------------------------- */

cusolverStatus_t cusolverDnXgetrf_bufferSize(cusolverDnHandle_t h, cusolverDnParams_t params, int64_t m, int64_t n,
                                             cudaDataType dataTypeA, const void *A, int64_t lda,
                                             cudaDataType computeType, size_t *device_bytes, size_t *host_bytes)
{
    (void)A;
    cusolverStatus_t st = check_mn(h, m, n, lda);
    if (st == CUSOLVER_STATUS_SUCCESS)
        st = cusolver_params_check(params);
    cb_blas_type t = CB_BLAS_F32;
    if (st == CUSOLVER_STATUS_SUCCESS)
        st = x_types(dataTypeA, computeType, &t);
    if (st != CUSOLVER_STATUS_SUCCESS)
        return st;
    if (!device_bytes || !host_bytes)
        return CUSOLVER_STATUS_INVALID_VALUE;
    *device_bytes = (size_t)cusolver_lwork(m, n) * cb_blas_type_size(t);
    *host_bytes = 0;
    return CUSOLVER_STATUS_SUCCESS;
}

cusolverStatus_t cusolverDnXgetrf(cusolverDnHandle_t h, cusolverDnParams_t params, int64_t m, int64_t n,
                                  cudaDataType dataTypeA, void *A, int64_t lda, int64_t *ipiv, cudaDataType computeType,
                                  void *bufferOnDevice, size_t device_bytes, void *bufferOnHost, size_t host_bytes,
                                  int *info)
{
    (void)bufferOnDevice, (void)device_bytes, (void)bufferOnHost, (void)host_bytes;
    cusolverStatus_t st = cusolver_handle_check(h);
    if (st == CUSOLVER_STATUS_SUCCESS)
        st = cusolver_params_check(params);
    cb_blas_type t = CB_BLAS_F32;
    if (st == CUSOLVER_STATUS_SUCCESS)
        st = x_types(dataTypeA, computeType, &t);
    if (st != CUSOLVER_STATUS_SUCCESS)
        return st;
    return getrf_any("cusolverDnXgetrf", h, t, m, n, A, lda, ipiv, 8, info);
}

cusolverStatus_t cusolverDnXgetrs(cusolverDnHandle_t h, cusolverDnParams_t params, cublasOperation_t trans, int64_t n,
                                  int64_t nrhs, cudaDataType dataTypeA, const void *A, int64_t lda, const int64_t *ipiv,
                                  cudaDataType dataTypeB, void *B, int64_t ldb, int *info)
{
    cusolverStatus_t st = cusolver_handle_check(h);
    if (st == CUSOLVER_STATUS_SUCCESS)
        st = cusolver_params_check(params);
    cb_blas_type t = CB_BLAS_F32;
    if (st == CUSOLVER_STATUS_SUCCESS)
        st = x_types(dataTypeA, dataTypeB, &t);
    if (st != CUSOLVER_STATUS_SUCCESS)
        return st;
    return getrs_any("cusolverDnXgetrs", h, t, trans, n, nrhs, A, lda, ipiv, 8, B, ldb, info);
}
