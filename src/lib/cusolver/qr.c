/* qr.c: Householder QR and its Q: cusolverDn<t>geqrf_bufferSize,
 * <t>geqrf, <t>orgqr / ungqr (with _bufferSize) and <t>ormqr / unmqr (with
 * _bufferSize) in S/D/C/Z, and Xgeqrf_bufferSize, Xgeqrf.
 *
 * The reflectors are LAPACK's (H(i) = I - tau v v^H, v(i) = 1, R's
 * diagonal real in the complex case), so that geqrf's output is what
 * LAPACK's geqrf gives and orgqr/ormqr accept LAPACK's reflectors too.
 * devInfo is 0.
 *
 * Bad input: NULL handle -> NOT_INITIALIZED; sizes negative, orgqr's
 * n > m or k > n, ormqr's k above the order of Q, leading dimensions below
 * max(1, rows), an unknown side or trans, or for ormqr of a real type
 * CUBLAS_OP_C and of a complex type CUBLAS_OP_T (LAPACK's rules) ->
 * INVALID_VALUE.
 */
#include "cusolver_internal.h"

#include <stdlib.h>

static void set_info(cbl_operand *op, int64_t info)
{
    if (op->ref)
        *(int32_t *)op->ref = (int32_t)info;
}

static cb_cplx *load_tau(cb_blas_type t, const void *p, int64_t n)
{
    cb_cplx *tau = calloc((size_t)(n > 0 ? n : 1), sizeof *tau);
    for (int64_t i = 0; tau && p && i < n; i++)
        tau[i] = cb_blas_load(t, p, (size_t)i);
    return tau;
}

/* ---- geqrf --------------------------------------------------------------------------------- */

static CUresult run_geqrf(solver_op *o, cb_backend *b, int64_t *info)
{
    *info = 0;
    return b->lib->lapack_geqrf(b, o->t, o->m, o->n, o->a, o->lda, o->tau);
}

static int ops_geqrf(solver_op *o, cbl_operand *ops)
{
    double scale = 4.0 * (double)(o->m > o->n ? o->m : o->n);
    ops[0] = solver_matrix("A", o->a, o->m, o->n, o->lda, 1, o->t);
    ops[0].tol_scale = scale;
    ops[1] = solver_vector("tau", o->tau, o->m < o->n ? o->m : o->n, 1, o->t);
    ops[1].tol_scale = scale;
    ops[2] = solver_ints("info", o->info, 1, 4, 1);
    return 3;
}

static void ref_geqrf_op(void *p, cbl_operand *ops)
{
    solver_op *o = p;
    set_info(&ops[2], 0);
    int64_t mn = o->m < o->n ? o->m : o->n;
    if (mn == 0)
        return;
    ref_mat a = ref_load(o->t, ops[0].before, o->m, o->n, o->lda);
    cb_cplx *tau = calloc((size_t)mn, sizeof *tau);
    if (a.v && tau) {
        ref_geqrf(&a, tau);
        ref_store(&a, o->t, ops[0].ref, o->lda);
        for (int64_t i = 0; i < mn; i++)
            cb_blas_store(o->t, ops[1].ref, (size_t)i, tau[i]);
    }
    ref_free(&a);
    free(tau);
}

static const solver_routine r_geqrf = {run_geqrf, ops_geqrf, ref_geqrf_op};

static cusolverStatus_t check_geqrf(cusolverDnHandle_t h, int64_t m, int64_t n, int64_t lda)
{
    cusolverStatus_t st = cusolver_handle_check(h);
    if (st != CUSOLVER_STATUS_SUCCESS)
        return st;
    if (m < 0 || n < 0 || lda < cusolver_max1(m))
        return CUSOLVER_STATUS_INVALID_VALUE;
    return CUSOLVER_STATUS_SUCCESS;
}

static cusolverStatus_t geqrf_any(const char *fn, cusolverDnHandle_t h, cb_blas_type t, int64_t m, int64_t n, void *a,
                                  int64_t lda, void *tau, int *info)
{
    cusolverStatus_t st = check_geqrf(h, m, n, lda);
    if (st != CUSOLVER_STATUS_SUCCESS)
        return st;
    solver_op *o = solver_op_new(&r_geqrf, fn, t);
    if (!o)
        return CUSOLVER_STATUS_ALLOC_FAILED;
    o->m = m;
    o->n = n;
    o->lda = lda;
    o->a = (uint64_t)(uintptr_t)a;
    o->tau = (uint64_t)(uintptr_t)tau;
    o->info = (uint64_t)(uintptr_t)info;
    return solver_submit(h, o);
}

/* ---- orgqr / ungqr ----------------------------------------------------------------------------- */

static CUresult run_orgqr(solver_op *o, cb_backend *b, int64_t *info)
{
    *info = 0;
    return b->lib->lapack_orgqr(b, o->t, o->m, o->n, o->k, o->a, o->lda, o->tau);
}

static int ops_orgqr(solver_op *o, cbl_operand *ops)
{
    ops[0] = solver_matrix("A", o->a, o->m, o->n, o->lda, 1, o->t);
    ops[0].tol_scale = 4.0 * (double)(o->m > 1 ? o->m : 1);
    ops[1] = solver_vector("tau", o->tau, o->k, 0, o->t);
    ops[2] = solver_ints("info", o->info, 1, 4, 1);
    return 3;
}

static void ref_orgqr_op(void *p, cbl_operand *ops)
{
    solver_op *o = p;
    set_info(&ops[2], 0);
    if (o->m == 0 || o->n == 0)
        return;
    ref_mat a = ref_load(o->t, ops[0].before, o->m, o->n, o->lda);
    cb_cplx *tau = load_tau(o->t, ops[1].before, o->k);
    if (a.v && tau) {
        ref_orgqr(&a, o->k, tau);
        ref_store(&a, o->t, ops[0].ref, o->lda);
    }
    ref_free(&a);
    free(tau);
}

static const solver_routine r_orgqr = {run_orgqr, ops_orgqr, ref_orgqr_op};

static cusolverStatus_t check_orgqr(cusolverDnHandle_t h, int64_t m, int64_t n, int64_t k, int64_t lda)
{
    cusolverStatus_t st = cusolver_handle_check(h);
    if (st != CUSOLVER_STATUS_SUCCESS)
        return st;
    if (m < 0 || n < 0 || n > m || k < 0 || k > n || lda < cusolver_max1(m))
        return CUSOLVER_STATUS_INVALID_VALUE;
    return CUSOLVER_STATUS_SUCCESS;
}

static cusolverStatus_t orgqr_any(const char *fn, cusolverDnHandle_t h, cb_blas_type t, int64_t m, int64_t n, int64_t k,
                                  void *a, int64_t lda, const void *tau, int *info)
{
    cusolverStatus_t st = check_orgqr(h, m, n, k, lda);
    if (st != CUSOLVER_STATUS_SUCCESS)
        return st;
    solver_op *o = solver_op_new(&r_orgqr, fn, t);
    if (!o)
        return CUSOLVER_STATUS_ALLOC_FAILED;
    o->m = m;
    o->n = n;
    o->k = k;
    o->lda = lda;
    o->a = (uint64_t)(uintptr_t)a;
    o->tau = (uint64_t)(uintptr_t)tau;
    o->info = (uint64_t)(uintptr_t)info;
    return solver_submit(h, o);
}

/* ---- ormqr / unmqr ----------------------------------------------------------------------------- */

static CUresult run_ormqr(solver_op *o, cb_backend *b, int64_t *info)
{
    *info = 0;
    return b->lib->lapack_ormqr(b, o->t, o->side, o->trans, o->m, o->n, o->k, o->a, o->lda, o->tau, o->c, o->ldc);
}

static int ops_ormqr(solver_op *o, cbl_operand *ops)
{
    int64_t nq = o->side == CB_BLAS_LEFT ? o->m : o->n;
    ops[0] = solver_matrix("A", o->a, nq, o->k, o->lda, 0, o->t);
    ops[1] = solver_vector("tau", o->tau, o->k, 0, o->t);
    ops[2] = solver_matrix("C", o->c, o->m, o->n, o->ldc, 1, o->t);
    ops[2].tol_scale = 4.0 * (double)(nq > 1 ? nq : 1);
    ops[3] = solver_ints("info", o->info, 1, 4, 1);
    return 4;
}

static void ref_ormqr_op(void *p, cbl_operand *ops)
{
    solver_op *o = p;
    set_info(&ops[3], 0);
    if (o->m == 0 || o->n == 0 || o->k == 0)
        return;
    int64_t nq = o->side == CB_BLAS_LEFT ? o->m : o->n;
    ref_mat v = ref_load(o->t, ops[0].before, nq, o->k, o->lda);
    ref_mat c = ref_load(o->t, ops[2].before, o->m, o->n, o->ldc);
    cb_cplx *tau = load_tau(o->t, ops[1].before, o->k);
    if (v.v && c.v && tau) {
        ref_ormqr(&v, o->k, tau, o->side, o->trans, &c);
        ref_store(&c, o->t, ops[2].ref, o->ldc);
    }
    ref_free(&v);
    ref_free(&c);
    free(tau);
}

static const solver_routine r_ormqr = {run_ormqr, ops_ormqr, ref_ormqr_op};

static cusolverStatus_t check_ormqr(cusolverDnHandle_t h, cb_blas_type t, cublasSideMode_t side,
                                    cublasOperation_t trans, int64_t m, int64_t n, int64_t k, int64_t lda, int64_t ldc)
{
    cusolverStatus_t st = cusolver_handle_check(h);
    if (st != CUSOLVER_STATUS_SUCCESS)
        return st;
    int cx = cusolver_complex(t);
    if (side != CUBLAS_SIDE_LEFT && side != CUBLAS_SIDE_RIGHT)
        return CUSOLVER_STATUS_INVALID_VALUE;
    if (trans != CUBLAS_OP_N && trans != (cx ? CUBLAS_OP_C : CUBLAS_OP_T))
        return CUSOLVER_STATUS_INVALID_VALUE;
    int64_t nq = side == CUBLAS_SIDE_LEFT ? m : n;
    if (m < 0 || n < 0 || k < 0 || k > nq || lda < cusolver_max1(nq) || ldc < cusolver_max1(m))
        return CUSOLVER_STATUS_INVALID_VALUE;
    return CUSOLVER_STATUS_SUCCESS;
}

static cusolverStatus_t ormqr_any(const char *fn, cusolverDnHandle_t h, cb_blas_type t, cublasSideMode_t side,
                                  cublasOperation_t trans, int64_t m, int64_t n, int64_t k, const void *a, int64_t lda,
                                  const void *tau, void *c, int64_t ldc, int *info)
{
    cusolverStatus_t st = check_ormqr(h, t, side, trans, m, n, k, lda, ldc);
    if (st != CUSOLVER_STATUS_SUCCESS)
        return st;
    solver_op *o = solver_op_new(&r_ormqr, fn, t);
    if (!o)
        return CUSOLVER_STATUS_ALLOC_FAILED;
    o->side = side;
    o->trans = trans;
    o->m = m;
    o->n = n;
    o->k = k;
    o->lda = lda;
    o->ldc = ldc;
    o->a = (uint64_t)(uintptr_t)a;
    o->tau = (uint64_t)(uintptr_t)tau;
    o->c = (uint64_t)(uintptr_t)c;
    o->info = (uint64_t)(uintptr_t)info;
    return solver_submit(h, o);
}

/* The legacy buffer-size queries check what NVIDIA's do (recorded on the
 * H200): geqrf's and orgqr's the handle only, ormqr's nothing but lwork. */
static cusolverStatus_t put_lwork(cusolverStatus_t st, int *lwork, int64_t m, int64_t n)
{
    if (st != CUSOLVER_STATUS_SUCCESS)
        return st;
    if (!lwork)
        return CUSOLVER_STATUS_INVALID_VALUE;
    *lwork = cusolver_lwork(m, n);
    return CUSOLVER_STATUS_SUCCESS;
}

/* ---- the typed entry points ---------------------------------------------------------------- */

#define QR_TYPED(P, T, BT, ORG, ORM)                                                                                   \
    cusolverStatus_t cusolverDn##P##geqrf_bufferSize(cusolverDnHandle_t h, int m, int n, T *A, int lda, int *lwork)  \
    {                                                                                                                  \
        (void)A;                                                                                                       \
        (void)lda;                                                                                                     \
        return put_lwork(cusolver_handle_check(h), lwork, m, n);                                                      \
    }                                                                                                                  \
    cusolverStatus_t cusolverDn##P##geqrf(cusolverDnHandle_t h, int m, int n, T *A, int lda, T *tau, T *ws,          \
                                          int lwork, int *info)                                                        \
    {                                                                                                                  \
        (void)ws, (void)lwork;                                                                                         \
        return geqrf_any("cusolverDn" #P "geqrf", h, BT, m, n, A, lda, tau, info);                                     \
    }                                                                                                                  \
    cusolverStatus_t cusolverDn##P##ORG##_bufferSize(cusolverDnHandle_t h, int m, int n, int k, const T *A, int lda, \
                                                     const T *tau, int *lwork)                                         \
    {                                                                                                                  \
        (void)A, (void)tau;                                                                                            \
        (void)k, (void)lda;                                                                                            \
        return put_lwork(cusolver_handle_check(h), lwork, m, n);                                                   \
    }                                                                                                                  \
    cusolverStatus_t cusolverDn##P##ORG(cusolverDnHandle_t h, int m, int n, int k, T *A, int lda, const T *tau,      \
                                        T *ws, int lwork, int *info)                                                   \
    {                                                                                                                  \
        (void)ws, (void)lwork;                                                                                         \
        return orgqr_any("cusolverDn" #P #ORG, h, BT, m, n, k, A, lda, tau, info);                                     \
    }                                                                                                                  \
    cusolverStatus_t cusolverDn##P##ORM##_bufferSize(cusolverDnHandle_t h, cublasSideMode_t side,                     \
                                                     cublasOperation_t trans, int m, int n, int k, const T *A,        \
                                                     int lda, const T *tau, const T *C, int ldc, int *lwork)           \
    {                                                                                                                  \
        (void)A, (void)tau, (void)C;                                                                                   \
        (void)h, (void)side, (void)trans, (void)k, (void)lda, (void)ldc;                                              \
        return put_lwork(CUSOLVER_STATUS_SUCCESS, lwork, m, n);                            \
    }                                                                                                                  \
    cusolverStatus_t cusolverDn##P##ORM(cusolverDnHandle_t h, cublasSideMode_t side, cublasOperation_t trans, int m, \
                                        int n, int k, const T *A, int lda, const T *tau, T *C, int ldc, T *ws,        \
                                        int lwork, int *info)                                                          \
    {                                                                                                                  \
        (void)ws, (void)lwork;                                                                                         \
        return ormqr_any("cusolverDn" #P #ORM, h, BT, side, trans, m, n, k, A, lda, tau, C, ldc, info);               \
    }

QR_TYPED(S, float, CB_BLAS_F32, orgqr, ormqr)
QR_TYPED(D, double, CB_BLAS_F64, orgqr, ormqr)
QR_TYPED(C, cuComplex, CB_BLAS_C32, ungqr, unmqr)
QR_TYPED(Z, cuDoubleComplex, CB_BLAS_C64, ungqr, unmqr)

/* ---- the 64-bit generic API ----------------------------------------------------------------- */

static cusolverStatus_t x_types(cusolverDnParams_t params, cudaDataType a, cudaDataType tau, cudaDataType compute,
                                cb_blas_type *t)
{
    cusolverStatus_t st = cusolver_params_check(params);
    if (st != CUSOLVER_STATUS_SUCCESS)
        return st;
    int ta = cusolver_type_of(a);
    if (ta < 0 || tau != a || compute != a)
        return CUSOLVER_STATUS_NOT_SUPPORTED;
    *t = (cb_blas_type)ta;
    return CUSOLVER_STATUS_SUCCESS;
}

cusolverStatus_t cusolverDnXgeqrf_bufferSize(cusolverDnHandle_t h, cusolverDnParams_t params, int64_t m, int64_t n,
                                             cudaDataType dataTypeA, const void *A, int64_t lda,
                                             cudaDataType dataTypeTau, const void *tau, cudaDataType computeType,
                                             size_t *device_bytes, size_t *host_bytes)
{
    (void)A, (void)tau;
    cb_blas_type t = CB_BLAS_F32;
    cusolverStatus_t st = check_geqrf(h, m, n, lda);
    if (st == CUSOLVER_STATUS_SUCCESS)
        st = x_types(params, dataTypeA, dataTypeTau, computeType, &t);
    if (st != CUSOLVER_STATUS_SUCCESS)
        return st;
    if (!device_bytes || !host_bytes)
        return CUSOLVER_STATUS_INVALID_VALUE;
    *device_bytes = (size_t)cusolver_lwork(m, n) * cb_blas_type_size(t);
    *host_bytes = 0;
    return CUSOLVER_STATUS_SUCCESS;
}

cusolverStatus_t cusolverDnXgeqrf(cusolverDnHandle_t h, cusolverDnParams_t params, int64_t m, int64_t n,
                                  cudaDataType dataTypeA, void *A, int64_t lda, cudaDataType dataTypeTau, void *tau,
                                  cudaDataType computeType, void *bufferOnDevice, size_t device_bytes,
                                  void *bufferOnHost, size_t host_bytes, int *info)
{
    (void)bufferOnDevice, (void)device_bytes, (void)bufferOnHost, (void)host_bytes;
    cb_blas_type t = CB_BLAS_F32;
    cusolverStatus_t st = cusolver_handle_check(h);
    if (st == CUSOLVER_STATUS_SUCCESS)
        st = x_types(params, dataTypeA, dataTypeTau, computeType, &t);
    if (st != CUSOLVER_STATUS_SUCCESS)
        return st;
    return geqrf_any("cusolverDnXgeqrf", h, t, m, n, A, lda, tau, info);
}
