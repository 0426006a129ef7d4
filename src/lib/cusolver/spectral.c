/* spectral.c: singular values and symmetric eigenvalues:
 * cusolverDn<t>gesvd_bufferSize, <t>gesvd, <t>syevd / heevd (with
 * _bufferSize) in S/D/C/Z, and Xgesvd, Xsyevd with their _bufferSize.
 *
 * gesvd: A = U S V^H with jobu / jobvt 'A' (all columns), 'S' (the first
 * min(m, n)), 'O' (overwrite A) or 'N', m >= n as cuSOLVER requires; A is
 * destroyed unless overwritten with U or V^H; rwork gets the unconverged
 * superdiagonal when devInfo > 0. syevd: ascending eigenvalues, the
 * eigenvectors in A with CUSOLVER_EIG_MODE_VECTOR (else A is destroyed).
 * devInfo > 0: the algorithm did not converge (LAPACK's info).
 *
 * The references (ref_spectral.c) compute in double by Jacobi's methods;
 * singular and eigen vectors are unique only up to a unitary factor per
 * cluster of equal values (a sign or phase for a simple one), so the
 * reference's are aligned with the result's before the comparison, and
 * their tolerance grows with the inverse gap (docs/libraries.md).
 *
 * Bad input: NULL handle -> NOT_INITIALIZED; an unknown job, jobu and
 * jobvt both 'O', m < n, a size negative or a leading dimension too small
 * -> INVALID_VALUE.
 */
#include "cusolver_internal.h"

#include <math.h>
#include <stdlib.h>

static void set_info(cbl_operand *op, int64_t info)
{
    if (op && op->ref)
        *(int32_t *)op->ref = (int32_t)info;
}

static double eps_of(cb_blas_type t) { return t == CB_BLAS_F32 || t == CB_BLAS_C32 ? 1.2e-7 : 2.3e-16; }

static int all_finite(const ref_mat *a)
{
    for (size_t i = 0; i < (size_t)(a->rows * a->cols); i++)
        if (!isfinite(a->v[i].re) || !isfinite(a->v[i].im))
            return 0;
    return 1;
}

/* The operand's reference := its result (not compared), for what cannot
 * be checked. */
static void accept(cbl_operand *op)
{
    if (op && op->ref && op->result)
        memcpy(op->ref, op->result, op->bytes);
}

/* Vector tolerance: rounding over the order, over the relative gap. */
static double vector_scale(int64_t order, double top, double gap)
{
    double g = gap > 0 && isfinite(gap) ? top / gap : 1;
    if (g < 1)
        g = 1;
    if (g > 1e4)
        g = 1e4;
    return 4.0 * (double)(order > 1 ? order : 1) * g;
}

/* ---- gesvd ------------------------------------------------------------------------------- */

static int64_t u_cols(const solver_op *o) { return o->jobu == 'A' ? o->m : o->m < o->n ? o->m : o->n; }
static int64_t vt_rows(const solver_op *o) { return o->jobvt == 'A' ? o->n : o->m < o->n ? o->m : o->n; }

static CUresult run_gesvd(solver_op *o, cb_backend *b, int64_t *info)
{
    return b->lib->lapack_gesvd(b, o->t, o->jobu, o->jobvt, o->m, o->n, o->a, o->lda, o->s, o->u, o->ldu, o->vt,
                                o->ldvt, o->rwork, info);
}

/* Operand slots: 0 A, 1 S, 2 U, 3 VT, 4 info (empty ones have no bytes). */
static int ops_gesvd(solver_op *o, cbl_operand *ops)
{
    int64_t mn = o->m < o->n ? o->m : o->n;
    cb_blas_type rt = cusolver_real(o->t);
    int over = o->jobu == 'O' || o->jobvt == 'O';
    ops[0] = solver_matrix("A", o->a, o->m, o->n, o->lda, over, o->t);
    ops[1] = solver_vector("S", o->s, mn, 1, rt);
    ops[1].tol_scale = 4.0 * (double)(o->m > 1 ? o->m : 1);
    ops[2] = solver_matrix("U", o->jobu == 'A' || o->jobu == 'S' ? o->u : 0, o->m, u_cols(o), o->ldu, 1, o->t);
    ops[3] = solver_matrix("VT", o->jobvt == 'A' || o->jobvt == 'S' ? o->vt : 0, vt_rows(o), o->n, o->ldvt, 1, o->t);
    if (!ops[2].addr)
        ops[2].bytes = 0;
    if (!ops[3].addr)
        ops[3].bytes = 0;
    ops[4] = solver_ints("info", o->info, 1, 4, 1);
    return 5;
}

/* Where the result's U and V^H are (the U / VT operands, or A with 'O'). */
typedef struct svd_view {
    const void *data;
    int64_t ld;
    void *ref;
} svd_view;

static void ref_gesvd_op(void *p, cbl_operand *ops)
{
    solver_op *o = p;
    int64_t m = o->m, n = o->n, mn = m < n ? m : n;
    set_info(&ops[4], 0);
    if (mn == 0)
        return;
    ref_mat a = ref_load(o->t, ops[0].before, m, n, o->lda);
    ref_mat u = ref_new(m, m), v = ref_new(n, n);
    double *s = malloc((size_t)mn * sizeof *s);
    int64_t *cl = malloc((size_t)(m > n ? m : n) * sizeof *cl);
    if (!a.v || !u.v || !v.v || !s || !cl)
        goto done;
    if (!all_finite(&a) || ref_gesvd(&a, s, &u, &v) != 0) {
        for (int i = 0; i < 5; i++)
            accept(&ops[i]);
        goto done;
    }
    for (int64_t i = 0; i < mn; i++)
        cb_blas_store(cusolver_real(o->t), ops[1].ref, (size_t)i, (cb_cplx){s[i], 0});
    if (ops[0].out)
        accept(&ops[0]);   /* what 'O' does not overwrite is undefined */
    svd_view U = {NULL, 0, NULL}, VT = {NULL, 0, NULL};
    if (o->jobu == 'O')
        U = (svd_view){ops[0].result, o->lda, ops[0].ref};
    else if (ops[2].bytes)
        U = (svd_view){ops[2].result, o->ldu, ops[2].ref};
    if (o->jobvt == 'O')
        VT = (svd_view){ops[0].result, o->lda, ops[0].ref};
    else if (ops[3].bytes)
        VT = (svd_view){ops[3].result, o->ldvt, ops[3].ref};
    int64_t uc = o->jobu == 'A' ? m : mn, vr = o->jobvt == 'A' ? n : mn;
    ref_mat ures = U.data ? ref_load(o->t, U.data, m, uc, U.ld) : (ref_mat){0, 0, NULL};
    ref_mat vtres = VT.data ? ref_load(o->t, VT.data, vr, n, VT.ld) : (ref_mat){0, 0, NULL};
    /* the result's V = (V^H)^H, column j = conj of row j */
    ref_mat vres = VT.data ? ref_new(n, vr) : (ref_mat){0, 0, NULL};
    for (int64_t i = 0; vres.v && i < vr; i++)
        for (int64_t j = 0; j < n; j++)
            RM(vres, j, i) = rc_conj(RM(vtres, i, j));
    double top = s[0] > 0 ? s[0] : 1, tol = 1e3 * sqrt((double)(m > n ? m : n)) * eps_of(o->t) * top;
    /* clusters of the nonzero singular values; the rest is one null space */
    int64_t r = 0;
    while (r < mn && s[r] > tol)
        r++;
    double gap = ref_clusters(s, r, tol, cl);
    if ((r < mn || (U.data && uc > r) || (VT.data && vr > r)) && r > 0 && s[r - 1] < gap)
        gap = s[r - 1];   /* the null space's distance to the rest */
    for (int64_t first = 0; first < r;) {
        int64_t k = 1;
        while (first + k < r && cl[first + k] == cl[first])
            k++;
        if (ures.v)
            ref_align(&u, k, &ures, first, k, &v);
        else if (vres.v)
            ref_align(&v, k, &vres, first, k, &u);
        first += k;
    }
    if (ures.v && uc > r)
        ref_align(&u, m - r, &ures, r, uc - r, NULL);
    if (vres.v && vr > r)
        ref_align(&v, n - r, &vres, r, vr - r, NULL);
    double vs = vector_scale(m > n ? m : n, top, gap);
    if (U.ref) {
        ref_mat uo = {m, uc, u.v};
        ref_store(&uo, o->t, U.ref, U.ld);
        (o->jobu == 'O' ? &ops[0] : &ops[2])->tol_scale = vs;
    }
    if (VT.ref) {
        ref_mat vt = ref_new(vr, n);
        for (int64_t i = 0; vt.v && i < vr; i++)
            for (int64_t j = 0; j < n; j++)
                RM(vt, i, j) = rc_conj(RM(v, j, i));
        if (vt.v)
            ref_store(&vt, o->t, VT.ref, VT.ld);
        ref_free(&vt);
        (o->jobvt == 'O' ? &ops[0] : &ops[3])->tol_scale = vs;
    }
    ref_free(&ures);
    ref_free(&vtres);
    ref_free(&vres);
done:
    ref_free(&a);
    ref_free(&u);
    ref_free(&v);
    free(s);
    free(cl);
}

static const solver_routine r_gesvd = {run_gesvd, ops_gesvd, ref_gesvd_op};

static int job_valid(signed char j) { return j == 'A' || j == 'S' || j == 'O' || j == 'N'; }

static cusolverStatus_t check_gesvd(cusolverDnHandle_t h, signed char jobu, signed char jobvt, int64_t m, int64_t n,
                                    int64_t lda, int64_t ldu, int64_t ldvt)
{
    cusolverStatus_t st = cusolver_handle_check(h);
    if (st != CUSOLVER_STATUS_SUCCESS)
        return st;
    if (!job_valid(jobu) || !job_valid(jobvt) || (jobu == 'O' && jobvt == 'O'))
        return CUSOLVER_STATUS_INVALID_VALUE;
    if (m < 0 || n < 0 || m < n || lda < cusolver_max1(m))
        return CUSOLVER_STATUS_INVALID_VALUE;
    int64_t mn = m < n ? m : n;
    if (ldu < ((jobu == 'A' || jobu == 'S') ? cusolver_max1(m) : 1))
        return CUSOLVER_STATUS_INVALID_VALUE;
    if (ldvt < (jobvt == 'A' ? cusolver_max1(n) : jobvt == 'S' ? cusolver_max1(mn) : 1))
        return CUSOLVER_STATUS_INVALID_VALUE;
    return CUSOLVER_STATUS_SUCCESS;
}

static cusolverStatus_t gesvd_any(const char *fn, cusolverDnHandle_t h, cb_blas_type t, signed char jobu,
                                  signed char jobvt, int64_t m, int64_t n, void *a, int64_t lda, void *s, void *u,
                                  int64_t ldu, void *vt, int64_t ldvt, void *rwork, int *info)
{
    cusolverStatus_t st = check_gesvd(h, jobu, jobvt, m, n, lda, ldu, ldvt);
    if (st != CUSOLVER_STATUS_SUCCESS)
        return st;
    solver_op *o = solver_op_new(&r_gesvd, fn, t);
    if (!o)
        return CUSOLVER_STATUS_ALLOC_FAILED;
    o->jobu = (char)jobu;
    o->jobvt = (char)jobvt;
    o->m = m;
    o->n = n;
    o->lda = lda;
    o->ldu = ldu;
    o->ldvt = ldvt;
    o->a = (uint64_t)(uintptr_t)a;
    o->s = (uint64_t)(uintptr_t)s;
    o->u = (uint64_t)(uintptr_t)u;
    o->vt = (uint64_t)(uintptr_t)vt;
    o->rwork = (uint64_t)(uintptr_t)rwork;
    o->info = (uint64_t)(uintptr_t)info;
    return solver_submit(h, o);
}

/* NVIDIA's legacy gesvd_bufferSize checks nothing but lwork (the H200:
 * a NULL handle, m < 0, m < n all SUCCESS). */
static cusolverStatus_t gesvd_bs(cusolverDnHandle_t h, int64_t m, int64_t n, int *lwork)
{
    (void)h;
    if (!lwork)
        return CUSOLVER_STATUS_INVALID_VALUE;
    *lwork = cusolver_lwork(m, n);
    return CUSOLVER_STATUS_SUCCESS;
}

/* ---- syevd / heevd --------------------------------------------------------------------------- */

static CUresult run_syevd(solver_op *o, cb_backend *b, int64_t *info)
{
    return b->lib->lapack_syevd(b, o->t, o->vectors, o->uplo, o->n, o->a, o->lda, o->w, info);
}

static int ops_syevd(solver_op *o, cbl_operand *ops)
{
    ops[0] = solver_matrix("A", o->a, o->n, o->n, o->lda, o->vectors, o->t);
    ops[1] = solver_vector("W", o->w, o->n, 1, cusolver_real(o->t));
    ops[1].tol_scale = 4.0 * (double)(o->n > 1 ? o->n : 1);
    ops[2] = solver_ints("info", o->info, 1, 4, 1);
    return 3;
}

static void ref_syevd_op(void *p, cbl_operand *ops)
{
    solver_op *o = p;
    int64_t n = o->n;
    set_info(&ops[2], 0);
    if (n == 0)
        return;
    ref_mat a = ref_load(o->t, ops[0].before, n, n, o->lda);
    ref_mat v = o->vectors ? ref_new(n, n) : (ref_mat){0, 0, NULL};
    double *w = malloc((size_t)n * sizeof *w), *aw = malloc((size_t)n * sizeof *aw);
    int64_t *cl = malloc((size_t)n * sizeof *cl);
    if (!a.v || (o->vectors && !v.v) || !w || !aw || !cl)
        goto done;
    /* only the uplo triangle is read: make the matrix Hermitian from it */
    if (!all_finite(&a)) {
        for (int i = 0; i < 3; i++)
            accept(&ops[i]);
        goto done;
    }
    ref_heev(&a, o->uplo, w, o->vectors ? &v : NULL);
    for (int64_t i = 0; i < n; i++)
        cb_blas_store(cusolver_real(o->t), ops[1].ref, (size_t)i, (cb_cplx){w[i], 0});
    if (o->vectors) {
        double top = 0;
        for (int64_t i = 0; i < n; i++) {
            aw[i] = fabs(w[i]);
            top = aw[i] > top ? aw[i] : top;
        }
        if (top == 0)
            top = 1;
        double tol = 1e3 * sqrt((double)n) * eps_of(o->t) * top;
        double gap = ref_clusters(w, n, tol, cl);
        ref_mat res = ref_load(o->t, ops[0].result, n, n, o->lda);
        if (res.v) {
            for (int64_t first = 0; first < n;) {
                int64_t k = 1;
                while (first + k < n && cl[first + k] == cl[first])
                    k++;
                ref_align(&v, k, &res, first, k, NULL);
                first += k;
            }
            ref_store(&v, o->t, ops[0].ref, o->lda);
            ops[0].tol_scale = vector_scale(n, top, gap);
        }
        ref_free(&res);
    }
done:
    ref_free(&a);
    ref_free(&v);
    free(w);
    free(aw);
    free(cl);
}

static const solver_routine r_syevd = {run_syevd, ops_syevd, ref_syevd_op};

static cusolverStatus_t check_syevd(cusolverDnHandle_t h, cusolverEigMode_t jobz, cublasFillMode_t uplo, int64_t n,
                                    int64_t lda)
{
    cusolverStatus_t st = cusolver_handle_check(h);
    if (st != CUSOLVER_STATUS_SUCCESS)
        return st;
    if ((jobz != CUSOLVER_EIG_MODE_NOVECTOR && jobz != CUSOLVER_EIG_MODE_VECTOR) || !cusolver_fill_valid(uplo) ||
        n < 0 || lda < cusolver_max1(n))
        return CUSOLVER_STATUS_INVALID_VALUE;
    return CUSOLVER_STATUS_SUCCESS;
}

static cusolverStatus_t syevd_any(const char *fn, cusolverDnHandle_t h, cb_blas_type t, cusolverEigMode_t jobz,
                                  cublasFillMode_t uplo, int64_t n, void *a, int64_t lda, void *w, int *info)
{
    cusolverStatus_t st = check_syevd(h, jobz, uplo, n, lda);
    if (st != CUSOLVER_STATUS_SUCCESS)
        return st;
    solver_op *o = solver_op_new(&r_syevd, fn, t);
    if (!o)
        return CUSOLVER_STATUS_ALLOC_FAILED;
    o->vectors = jobz == CUSOLVER_EIG_MODE_VECTOR;
    o->uplo = uplo;
    o->m = o->n = n;
    o->lda = lda;
    o->a = (uint64_t)(uintptr_t)a;
    o->w = (uint64_t)(uintptr_t)w;
    o->info = (uint64_t)(uintptr_t)info;
    return solver_submit(h, o);
}

static cusolverStatus_t syevd_bs(cusolverDnHandle_t h, cusolverEigMode_t jobz, cublasFillMode_t uplo, int64_t n,
                                 int64_t lda, int *lwork)
{
    /* NVIDIA's checks the handle and n only (the H200) */
    (void)jobz, (void)uplo, (void)lda;
    cusolverStatus_t st = cusolver_handle_check(h);
    if (st != CUSOLVER_STATUS_SUCCESS)
        return st;
    if (n < 0 || !lwork)
        return CUSOLVER_STATUS_INVALID_VALUE;
    *lwork = cusolver_lwork(n, n);
    return CUSOLVER_STATUS_SUCCESS;
}

/* ---- the typed entry points ---------------------------------------------------------------- */

#define SPECTRAL_TYPED(P, T, R, BT, EV)                                                                               \
    cusolverStatus_t cusolverDn##P##gesvd_bufferSize(cusolverDnHandle_t h, int m, int n, int *lwork)                 \
    {                                                                                                                  \
        return gesvd_bs(h, m, n, lwork);                                                                               \
    }                                                                                                                  \
    cusolverStatus_t cusolverDn##P##gesvd(cusolverDnHandle_t h, signed char jobu, signed char jobvt, int m, int n,   \
                                          T *A, int lda, R *S, T *U, int ldu, T *VT, int ldvt, T *work, int lwork,     \
                                          R *rwork, int *info)                                                         \
    {                                                                                                                  \
        (void)work, (void)lwork;                                                                                       \
        return gesvd_any("cusolverDn" #P "gesvd", h, BT, jobu, jobvt, m, n, A, lda, S, U, ldu, VT, ldvt, rwork, info);\
    }                                                                                                                  \
    cusolverStatus_t cusolverDn##P##EV##_bufferSize(cusolverDnHandle_t h, cusolverEigMode_t jobz,                     \
                                                    cublasFillMode_t uplo, int n, const T *A, int lda, const R *W,     \
                                                    int *lwork)                                                        \
    {                                                                                                                  \
        (void)A, (void)W;                                                                                              \
        return syevd_bs(h, jobz, uplo, n, lda, lwork);                                                                 \
    }                                                                                                                  \
    cusolverStatus_t cusolverDn##P##EV(cusolverDnHandle_t h, cusolverEigMode_t jobz, cublasFillMode_t uplo, int n,   \
                                       T *A, int lda, R *W, T *work, int lwork, int *info)                             \
    {                                                                                                                  \
        (void)work, (void)lwork;                                                                                       \
        return syevd_any("cusolverDn" #P #EV, h, BT, jobz, uplo, n, A, lda, W, info);                                  \
    }

SPECTRAL_TYPED(S, float, float, CB_BLAS_F32, syevd)
SPECTRAL_TYPED(D, double, double, CB_BLAS_F64, syevd)
SPECTRAL_TYPED(C, cuComplex, float, CB_BLAS_C32, heevd)
SPECTRAL_TYPED(Z, cuDoubleComplex, double, CB_BLAS_C64, heevd)

/* ---- the 64-bit generic API ----------------------------------------------------------------- */

/* a's type S/D/C/Z, the real one for real_type, compute a's. */
static cusolverStatus_t x_types(cusolverDnParams_t params, cudaDataType a, cudaDataType real_type,
                                cudaDataType other, cudaDataType compute, cb_blas_type *t)
{
    cusolverStatus_t st = cusolver_params_check(params);
    if (st != CUSOLVER_STATUS_SUCCESS)
        return st;
    int ta = cusolver_type_of(a), tr = cusolver_type_of(real_type);
    if (ta < 0 || tr < 0 || tr != (int)cusolver_real((cb_blas_type)ta) || other != a || compute != a)
        return CUSOLVER_STATUS_NOT_SUPPORTED;
    *t = (cb_blas_type)ta;
    return CUSOLVER_STATUS_SUCCESS;
}

cusolverStatus_t cusolverDnXsyevd_bufferSize(cusolverDnHandle_t h, cusolverDnParams_t params, cusolverEigMode_t jobz,
                                             cublasFillMode_t uplo, int64_t n, cudaDataType dataTypeA, const void *A,
                                             int64_t lda, cudaDataType dataTypeW, const void *W,
                                             cudaDataType computeType, size_t *device_bytes, size_t *host_bytes)
{
    (void)A, (void)W;
    cb_blas_type t = CB_BLAS_F32;
    cusolverStatus_t st = check_syevd(h, jobz, uplo, n, lda);
    if (st == CUSOLVER_STATUS_SUCCESS)
        st = x_types(params, dataTypeA, dataTypeW, dataTypeA, computeType, &t);
    if (st != CUSOLVER_STATUS_SUCCESS)
        return st;
    if (!device_bytes || !host_bytes)
        return CUSOLVER_STATUS_INVALID_VALUE;
    *device_bytes = (size_t)cusolver_lwork(n, n) * cb_blas_type_size(t);
    *host_bytes = 0;
    return CUSOLVER_STATUS_SUCCESS;
}

cusolverStatus_t cusolverDnXsyevd(cusolverDnHandle_t h, cusolverDnParams_t params, cusolverEigMode_t jobz,
                                  cublasFillMode_t uplo, int64_t n, cudaDataType dataTypeA, void *A, int64_t lda,
                                  cudaDataType dataTypeW, void *W, cudaDataType computeType, void *bufferOnDevice,
                                  size_t device_bytes, void *bufferOnHost, size_t host_bytes, int *info)
{
    (void)bufferOnDevice, (void)device_bytes, (void)bufferOnHost, (void)host_bytes;
    cb_blas_type t = CB_BLAS_F32;
    cusolverStatus_t st = cusolver_handle_check(h);
    if (st == CUSOLVER_STATUS_SUCCESS)
        st = x_types(params, dataTypeA, dataTypeW, dataTypeA, computeType, &t);
    if (st != CUSOLVER_STATUS_SUCCESS)
        return st;
    return syevd_any("cusolverDnXsyevd", h, t, jobz, uplo, n, A, lda, W, info);
}

cusolverStatus_t cusolverDnXgesvd_bufferSize(cusolverDnHandle_t h, cusolverDnParams_t params, signed char jobu,
                                             signed char jobvt, int64_t m, int64_t n, cudaDataType dataTypeA,
                                             const void *A, int64_t lda, cudaDataType dataTypeS, const void *S,
                                             cudaDataType dataTypeU, const void *U, int64_t ldu,
                                             cudaDataType dataTypeVT, const void *VT, int64_t ldvt,
                                             cudaDataType computeType, size_t *device_bytes, size_t *host_bytes)
{
    (void)A, (void)S, (void)U, (void)VT;
    cb_blas_type t = CB_BLAS_F32;
    cusolverStatus_t st = check_gesvd(h, jobu, jobvt, m, n, lda, ldu, ldvt);
    if (st == CUSOLVER_STATUS_SUCCESS && (dataTypeU != dataTypeA || dataTypeVT != dataTypeA))
        st = CUSOLVER_STATUS_NOT_SUPPORTED;
    if (st == CUSOLVER_STATUS_SUCCESS)
        st = x_types(params, dataTypeA, dataTypeS, dataTypeU, computeType, &t);
    if (st != CUSOLVER_STATUS_SUCCESS)
        return st;
    if (!device_bytes || !host_bytes)
        return CUSOLVER_STATUS_INVALID_VALUE;
    *device_bytes = (size_t)cusolver_lwork(m, n) * cb_blas_type_size(t);
    *host_bytes = 0;
    return CUSOLVER_STATUS_SUCCESS;
}

cusolverStatus_t cusolverDnXgesvd(cusolverDnHandle_t h, cusolverDnParams_t params, signed char jobu,
                                  signed char jobvt, int64_t m, int64_t n, cudaDataType dataTypeA, void *A,
                                  int64_t lda, cudaDataType dataTypeS, void *S, cudaDataType dataTypeU, void *U,
                                  int64_t ldu, cudaDataType dataTypeVT, void *VT, int64_t ldvt,
                                  cudaDataType computeType, void *bufferOnDevice, size_t device_bytes,
                                  void *bufferOnHost, size_t host_bytes, int *info)
{
    (void)bufferOnDevice, (void)device_bytes, (void)bufferOnHost, (void)host_bytes;
    cb_blas_type t = CB_BLAS_F32;
    cusolverStatus_t st = cusolver_handle_check(h);
    if (st == CUSOLVER_STATUS_SUCCESS && (dataTypeU != dataTypeA || dataTypeVT != dataTypeA))
        st = CUSOLVER_STATUS_NOT_SUPPORTED;
    if (st == CUSOLVER_STATUS_SUCCESS)
        st = x_types(params, dataTypeA, dataTypeS, dataTypeU, computeType, &t);
    if (st != CUSOLVER_STATUS_SUCCESS)
        return st;
    return gesvd_any("cusolverDnXgesvd", h, t, jobu, jobvt, m, n, A, lda, S, U, ldu, VT, ldvt, NULL, info);
}
