/* batched.c: cuBLAS's batched solvers and vector products: trsmBatched,
 * getrfBatched, getrsBatched, getriBatched, matinvBatched, gemvBatched and
 * gemvStridedBatched, in S/D/C/Z (and the 64-bit entry points where cuBLAS
 * has them). Each batch entry is one backend call; the references reuse
 * the single-matrix ones (trmm/trsm, gemv) per entry, and LU-based ones
 * here.
 *
 * Bad input (the cuBLAS documentation's rules): NULL handle ->
 * NOT_INITIALIZED; n, nrhs, m or batch count negative, a leading dimension
 * below max(1, rows), matinvBatched with n > 32 -> INVALID_VALUE.
 * getrsBatched reports a bad argument in its host info as -(position).
 */
#include "cublas_internal.h"

#include <math.h>
#include <stdlib.h>

static int64_t max1(int64_t v) { return v > 1 ? v : 1; }

static size_t mat(cb_blas_type t, int64_t rows, int64_t cols, int64_t ld)
{
    return cbl_matrix_bytes(rows, cols, ld, cublas_elem(t));
}

/* A per-entry copy of o for the single-matrix references. */
static cublas_op entry_of(const cublas_op *o) { return *o; }

/* ---- trsmBatched --------------------------------------------------------------------- */

static CUresult run_trsm_batched(cublas_op *o, cb_backend *b)
{
    for (int64_t i = 0; i < o->batch; i++) {
        CUresult r = b->lib->trsm(b, o->t, o->side, o->uplo, o->ta, o->diag, o->m, o->n, o->sval[0], o->arr_host[0][i],
                                  o->lda, o->arr_host[1][i], o->ldb);
        if (r != CUDA_SUCCESS)
            return r;
    }
    return CUDA_SUCCESS;
}

/* A bad array of pointers: one operand that fails the memory check. */
static int bad_arrays(cublas_op *o, cbl_operand *ops)
{
    ops[0] = cublas_operand("array of pointers", o->arr_dev[0] ? o->arr_dev[0] : 1, 8, 0, CB_BLAS_U8);
    return 1;
}

static int ops_trsm_batched(cublas_op *o, cbl_operand *ops)
{
    if (cublas_read_arrays(o, o->batch) != 0)
        return bad_arrays(o, ops);
    int64_t ka = o->side == CB_BLAS_LEFT ? o->m : o->n;
    int n = 0;
    for (int64_t i = 0; i < o->batch; i++) {
        ops[n++] = cublas_operand("A[i]", o->arr_host[0][i], mat(o->t, ka, ka, o->lda), 0, o->t);
        ops[n] = cublas_operand("B[i]", o->arr_host[1][i], mat(o->t, o->m, o->n, o->ldb), 1, o->t);
        ops[n++].tol_scale = cublas_sum_scale(ka) * 4;
    }
    return n;
}

static void ref_trsm_batched(void *p, cbl_operand *ops)
{
    cublas_op *o = p;
    for (int64_t i = 0; i < o->batch; i++) {
        cublas_op e = entry_of(o);
        e.solve = 1;
        cublas_ref_trmm(&e, &ops[2 * i]);
    }
}

static const cublas_routine r_trsm_batched = {run_trsm_batched, ops_trsm_batched, ref_trsm_batched};

/* ---- gemvBatched / gemvStridedBatched ------------------------------------------------- */

static uint64_t nth(const cublas_op *o, int which, uint64_t base, int64_t stride, int64_t i)
{
    if (o->arr_host[which])
        return o->arr_host[which][i];
    return base + (uint64_t)(stride * i) * cublas_elem(o->t);
}

static CUresult run_gemv_batched(cublas_op *o, cb_backend *b)
{
    for (int64_t i = 0; i < o->batch; i++) {
        CUresult r = b->lib->gemv(b, o->t, o->ta, o->m, o->n, o->sval[0], nth(o, 0, o->a, o->sa, i), o->lda,
                                  nth(o, 1, o->x, o->sb, i), o->incx, o->sval[1], nth(o, 2, o->y, o->sc, i), o->incy);
        if (r != CUDA_SUCCESS)
            return r;
    }
    return CUDA_SUCCESS;
}

static int ops_gemv_batched(cublas_op *o, cbl_operand *ops)
{
    if (o->arr_dev[0] && cublas_read_arrays(o, o->batch) != 0)
        return bad_arrays(o, ops);
    int64_t xl = o->ta == CB_BLAS_OP_N ? o->n : o->m, yl = o->ta == CB_BLAS_OP_N ? o->m : o->n;
    size_t w = cublas_elem(o->t);
    int n = 0;
    for (int64_t i = 0; i < o->batch; i++) {
        ops[n++] = cublas_operand("A[i]", nth(o, 0, o->a, o->sa, i), mat(o->t, o->m, o->n, o->lda), 0, o->t);
        ops[n++] = cublas_operand("x[i]", nth(o, 1, o->x, o->sb, i), cbl_vector_bytes(xl, o->incx, w), 0, o->t);
        ops[n] = cublas_operand("y[i]", nth(o, 2, o->y, o->sc, i), cbl_vector_bytes(yl, o->incy, w), 1, o->t);
        ops[n++].tol_scale = cublas_sum_scale(xl);
    }
    return n;
}

static void ref_gemv_batched(void *p, cbl_operand *ops)
{
    cublas_op *o = p;
    for (int64_t i = 0; i < o->batch; i++) {
        cublas_op e = entry_of(o);
        e.form = 0;
        cublas_ref_gemv(&e, &ops[3 * i]);
    }
}

static const cublas_routine r_gemv_batched = {run_gemv_batched, ops_gemv_batched, ref_gemv_batched};

/* ---- getrfBatched ------------------------------------------------------------------------ */

/* pivots: P + i n (0: no pivoting); infos: info[i] (device). */
static CUresult run_getrf(cublas_op *o, cb_backend *b)
{
    for (int64_t i = 0; i < o->batch; i++) {
        int info = 0;
        uint64_t piv = o->piv_dev ? o->piv_dev + (uint64_t)(i * o->n) * sizeof(int) : 0;
        CUresult r = b->lib->getrf(b, o->t, o->n, o->arr_host[0][i], o->lda, piv, &info);
        if (r != CUDA_SUCCESS)
            return r;
        if (o->info_dev && cbl_write(&o->base, o->info_dev + (uint64_t)i * sizeof(int), &info, sizeof info) != CUDA_SUCCESS)
            return CUDA_ERROR_ILLEGAL_ADDRESS;
    }
    return CUDA_SUCCESS;
}

static int ops_getrf(cublas_op *o, cbl_operand *ops)
{
    if (cublas_read_arrays(o, o->batch) != 0)
        return bad_arrays(o, ops);
    int n = 0;
    for (int64_t i = 0; i < o->batch; i++) {
        ops[n] = cublas_operand("A[i]", o->arr_host[0][i], mat(o->t, o->n, o->n, o->lda), 1, o->t);
        ops[n++].tol_scale = 16 * cublas_sum_scale(o->n);
    }
    if (o->piv_dev) {
        ops[n] = cublas_operand("P", o->piv_dev, (size_t)(o->n * o->batch) * sizeof(int), 1, CB_BLAS_I32);
        ops[n].cmp = CB_ELEM_INT;
        ops[n++].elem_bytes = 4;
    }
    ops[n] = cublas_operand("info", o->info_dev, (size_t)o->batch * sizeof(int), 1, CB_BLAS_I32);
    ops[n].cmp = CB_ELEM_INT;
    ops[n++].elem_bytes = 4;
    return n;
}

/* LU in double, pivoting on the largest |re| + |im| (LAPACK's rule). */
static int ref_lu(cb_blas_type t, int64_t n, void *a, int64_t lda, int *piv)
{
    int info = 0;
    for (int64_t k = 0; k < n; k++) {
        int64_t p = k;
        if (piv) {
            double best = -1;
            for (int64_t i = k; i < n; i++) {
                cb_cplx v = cublas_ld(t, a, (size_t)(i + k * lda));
                double m = fabs(v.re) + fabs(v.im);
                if (m > best) {
                    best = m;
                    p = i;
                }
            }
            piv[k] = (int)(p + 1);
            if (p != k)
                for (int64_t j = 0; j < n; j++) {
                    cb_cplx x = cublas_ld(t, a, (size_t)(k + j * lda)), y = cublas_ld(t, a, (size_t)(p + j * lda));
                    cublas_st(t, a, (size_t)(k + j * lda), y);
                    cublas_st(t, a, (size_t)(p + j * lda), x);
                }
        }
        cb_cplx d = cublas_ld(t, a, (size_t)(k + k * lda));
        if (cx_zero(d)) {
            if (!info)
                info = (int)(k + 1);
            continue;
        }
        for (int64_t i = k + 1; i < n; i++)
            cublas_st(t, a, (size_t)(i + k * lda), cx_div(cublas_ld(t, a, (size_t)(i + k * lda)), d));
        for (int64_t j = k + 1; j < n; j++) {
            cb_cplx u = cublas_ld(t, a, (size_t)(k + j * lda));
            for (int64_t i = k + 1; i < n; i++)
                cublas_st(t, a, (size_t)(i + j * lda),
                          cx_sub(cublas_ld(t, a, (size_t)(i + j * lda)), cx_mul(cublas_ld(t, a, (size_t)(i + k * lda)), u)));
        }
    }
    return info;
}

static void ref_getrf(void *p, cbl_operand *ops)
{
    cublas_op *o = p;
    int *piv = o->piv_dev ? ops[o->batch].ref : NULL;
    int *info = ops[o->batch + (o->piv_dev ? 1 : 0)].ref;
    for (int64_t i = 0; i < o->batch; i++)
        info[i] = ref_lu(o->t, o->n, ops[i].ref, o->lda, piv ? piv + i * o->n : NULL);
}

static const cublas_routine r_getrf = {run_getrf, ops_getrf, ref_getrf};

/* ---- getrsBatched ------------------------------------------------------------------------- */

static CUresult run_getrs(cublas_op *o, cb_backend *b)
{
    for (int64_t i = 0; i < o->batch; i++) {
        uint64_t piv = o->piv_dev ? o->piv_dev + (uint64_t)(i * o->n) * sizeof(int) : 0;
        CUresult r = b->lib->getrs(b, o->t, o->ta, o->n, o->nrhs, o->arr_host[0][i], o->lda, piv, o->arr_host[1][i],
                                   o->ldb);
        if (r != CUDA_SUCCESS)
            return r;
    }
    return CUDA_SUCCESS;
}

static int ops_getrs(cublas_op *o, cbl_operand *ops)
{
    if (cublas_read_arrays(o, o->batch) != 0)
        return bad_arrays(o, ops);
    int n = 0;
    for (int64_t i = 0; i < o->batch; i++) {
        ops[n++] = cublas_operand("A[i]", o->arr_host[0][i], mat(o->t, o->n, o->n, o->lda), 0, o->t);
        ops[n] = cublas_operand("B[i]", o->arr_host[1][i], mat(o->t, o->n, o->nrhs, o->ldb), 1, o->t);
        ops[n++].tol_scale = 16 * cublas_sum_scale(o->n);
    }
    if (o->piv_dev) {
        ops[n] = cublas_operand("P", o->piv_dev, (size_t)(o->n * o->batch) * sizeof(int), 0, CB_BLAS_I32);
        ops[n].cmp = CB_ELEM_INT;
        ops[n++].elem_bytes = 4;
    }
    return n;
}

/* Element (i, j) of the matrix the factors in a (with piv) represent,
 * applied as a solve: returns x with op(A) x = b for one column. */
static void ref_lu_solve(cb_blas_type t, int trans, int64_t n, const void *a, int64_t lda, const int *piv, cb_cplx *x)
{
    cb_cplx v;
    if (trans == CB_BLAS_OP_N) {
        for (int64_t k = 0; piv && k < n; k++) {   /* P b */
            int64_t p = piv[k] - 1;
            v = x[k], x[k] = x[p], x[p] = v;
        }
        for (int64_t i = 0; i < n; i++)             /* L y = P b, unit diagonal */
            for (int64_t j = 0; j < i; j++)
                x[i] = cx_sub(x[i], cx_mul(cublas_ld(t, a, (size_t)(i + j * lda)), x[j]));
        for (int64_t i = n - 1; i >= 0; i--) {      /* U x = y */
            for (int64_t j = i + 1; j < n; j++)
                x[i] = cx_sub(x[i], cx_mul(cublas_ld(t, a, (size_t)(i + j * lda)), x[j]));
            x[i] = cx_div(x[i], cublas_ld(t, a, (size_t)(i + i * lda)));
        }
        return;
    }
    /* A^T = U^T L^T P (A^H the same, conjugated) */
    int c = trans == CB_BLAS_OP_C;
    for (int64_t i = 0; i < n; i++) {   /* U^T z = b */
        for (int64_t j = 0; j < i; j++) {
            cb_cplx u = cublas_ld(t, a, (size_t)(j + i * lda));
            x[i] = cx_sub(x[i], cx_mul(c ? cx_conj(u) : u, x[j]));
        }
        cb_cplx d = cublas_ld(t, a, (size_t)(i + i * lda));
        x[i] = cx_div(x[i], c ? cx_conj(d) : d);
    }
    for (int64_t i = n - 1; i >= 0; i--)   /* L^T w = z */
        for (int64_t j = i + 1; j < n; j++) {
            cb_cplx l = cublas_ld(t, a, (size_t)(j + i * lda));
            x[i] = cx_sub(x[i], cx_mul(c ? cx_conj(l) : l, x[j]));
        }
    for (int64_t k = n - 1; piv && k >= 0; k--) {   /* x = P^T w */
        int64_t p = piv[k] - 1;
        v = x[k], x[k] = x[p], x[p] = v;
    }
}

static void ref_getrs(void *p, cbl_operand *ops)
{
    cublas_op *o = p;
    const int *piv = o->piv_dev ? ops[2 * o->batch].ref : NULL;
    cb_cplx *x = malloc((size_t)(o->n ? o->n : 1) * sizeof *x);
    if (!x)
        return;
    for (int64_t i = 0; i < o->batch; i++)
        for (int64_t j = 0; j < o->nrhs; j++) {
            for (int64_t r = 0; r < o->n; r++)
                x[r] = cublas_ld(o->t, ops[2 * i + 1].ref, (size_t)(r + j * o->ldb));
            ref_lu_solve(o->t, o->ta, o->n, ops[2 * i].ref, o->lda, piv ? piv + i * o->n : NULL, x);
            for (int64_t r = 0; r < o->n; r++)
                cublas_st(o->t, ops[2 * i + 1].ref, (size_t)(r + j * o->ldb), x[r]);
        }
    free(x);
}

static const cublas_routine r_getrs = {run_getrs, ops_getrs, ref_getrs};

/* ---- getriBatched and matinvBatched ---------------------------------------------------------- */

/* xform 0: getri (A holds getrf's factors, P its pivots); 1: matinv (A the matrix). */
static CUresult run_getri(cublas_op *o, cb_backend *b)
{
    for (int64_t i = 0; i < o->batch; i++) {
        int info = 0;
        CUresult r;
        if (o->xform) {
            r = b->lib->matinv(b, o->t, o->n, o->arr_host[0][i], o->lda, o->arr_host[1][i], o->ldc, &info);
        } else {
            uint64_t piv = o->piv_dev ? o->piv_dev + (uint64_t)(i * o->n) * sizeof(int) : 0;
            r = b->lib->getri(b, o->t, o->n, o->arr_host[0][i], o->lda, piv, o->arr_host[1][i], o->ldc, &info);
        }
        if (r != CUDA_SUCCESS)
            return r;
        if (o->info_dev && cbl_write(&o->base, o->info_dev + (uint64_t)i * sizeof(int), &info, sizeof info) != CUDA_SUCCESS)
            return CUDA_ERROR_ILLEGAL_ADDRESS;
    }
    return CUDA_SUCCESS;
}

static int ops_getri(cublas_op *o, cbl_operand *ops)
{
    if (cublas_read_arrays(o, o->batch) != 0)
        return bad_arrays(o, ops);
    int n = 0;
    for (int64_t i = 0; i < o->batch; i++) {
        ops[n++] = cublas_operand("A[i]", o->arr_host[0][i], mat(o->t, o->n, o->n, o->lda), 0, o->t);
        ops[n] = cublas_operand("C[i]", o->arr_host[1][i], mat(o->t, o->n, o->n, o->ldc), 1, o->t);
        ops[n++].tol_scale = 64 * cublas_sum_scale(o->n);
    }
    if (o->piv_dev && !o->xform) {
        ops[n] = cublas_operand("P", o->piv_dev, (size_t)(o->n * o->batch) * sizeof(int), 0, CB_BLAS_I32);
        ops[n].cmp = CB_ELEM_INT;
        ops[n++].elem_bytes = 4;
    }
    ops[n] = cublas_operand("info", o->info_dev, (size_t)o->batch * sizeof(int), 1, CB_BLAS_I32);
    ops[n].cmp = CB_ELEM_INT;
    ops[n++].elem_bytes = 4;
    return n;
}

static void ref_getri(void *p, cbl_operand *ops)
{
    cublas_op *o = p;
    int64_t n = o->n;
    int has_piv = o->piv_dev && !o->xform;
    const int *piv = has_piv ? ops[2 * o->batch].ref : NULL;
    int *info = ops[2 * o->batch + (has_piv ? 1 : 0)].ref;
    size_t w = cublas_elem(o->t);
    cb_cplx *x = malloc((size_t)(n ? n : 1) * sizeof *x);
    unsigned char *lu = malloc((size_t)(n ? n * n : 1) * w);
    int *mpiv = malloc((size_t)(n ? n : 1) * sizeof *mpiv);
    if (!x || !lu || !mpiv) {
        free(x), free(lu), free(mpiv);
        return;
    }
    for (int64_t i = 0; i < o->batch; i++) {
        const void *f = ops[2 * i].ref;
        int64_t ld = o->lda;
        const int *pv = piv ? piv + i * n : NULL;
        int inf = 0;
        if (o->xform) {   /* matinv: factor a copy first */
            for (int64_t j = 0; j < n; j++)
                memcpy(lu + (size_t)(j * n) * w, (const unsigned char *)ops[2 * i].ref + (size_t)(j * o->lda) * w, (size_t)n * w);
            inf = ref_lu(o->t, n, lu, n, mpiv);
            f = lu, ld = n, pv = mpiv;
        } else {
            for (int64_t k = 0; k < n && !inf; k++)
                if (cx_zero(cublas_ld(o->t, f, (size_t)(k + k * ld))))
                    inf = (int)(k + 1);
        }
        info[i] = inf;
        if (inf)
            continue;   /* C is left as it was (getri) or undefined (matinv): copy the result over */
        for (int64_t j = 0; j < n; j++) {
            for (int64_t r = 0; r < n; r++)
                x[r] = cx_real(r == j ? 1 : 0);
            ref_lu_solve(o->t, CB_BLAS_OP_N, n, f, ld, pv, x);
            for (int64_t r = 0; r < n; r++)
                cublas_st(o->t, ops[2 * i + 1].ref, (size_t)(r + j * o->ldc), x[r]);
        }
    }
    for (int64_t i = 0; i < o->batch; i++)
        if (info[i])   /* singular: whatever the backend left is not compared */
            memcpy(ops[2 * i + 1].ref, ops[2 * i + 1].result, ops[2 * i + 1].bytes);
    free(x), free(lu), free(mpiv);
}

static const cublas_routine r_getri = {run_getri, ops_getri, ref_getri};

/* ---- the entry points --------------------------------------------------------------------------- */

static cublas_op *new_batched(cublasHandle_t h, const cublas_routine *r, const char *fn, cb_blas_type t, int64_t batch,
                              int per_entry)
{
    cublas_op *o = cublas_op_new(r, fn, t);
    if (!o)
        return NULL;
    o->batch = batch;
    o->nops_dyn = (int)(batch * per_entry + 2);
    o->ops_dyn = calloc((size_t)o->nops_dyn, sizeof *o->ops_dyn);
    if (!o->ops_dyn) {
        free(o);
        return NULL;
    }
    (void)h;
    return o;
}

static cublasStatus_t trsm_batched(cublasHandle_t h, const char *fn, cb_blas_type t, cublasSideMode_t side,
                                   cublasFillMode_t uplo, cublasOperation_t trans, cublasDiagType_t diag, int64_t m,
                                   int64_t n, const void *alpha, const void *A, int64_t lda, const void *B, int64_t ldb,
                                   int64_t batch)
{
    cublasStatus_t st = cublas_handle_check(h);
    if (st != CUBLAS_STATUS_SUCCESS)
        return st;
    if (!cublas_side_valid(side) || !cublas_fill_valid(uplo) || !cublas_op_valid(trans) || !cublas_diag_valid(diag) ||
        m < 0 || n < 0 || batch < 0 || lda < max1(side == CUBLAS_SIDE_LEFT ? m : n) || ldb < max1(m))
        return CUBLAS_STATUS_INVALID_VALUE;
    if (m == 0 || n == 0 || batch == 0)
        return CUBLAS_STATUS_SUCCESS;
    cublas_op *o = new_batched(h, &r_trsm_batched, fn, t, batch, 2);
    if (!o)
        return CUBLAS_STATUS_ALLOC_FAILED;
    o->side = side, o->uplo = uplo, o->ta = trans, o->diag = diag, o->m = m, o->n = n, o->lda = lda, o->ldb = ldb;
    o->arr_dev[0] = (uintptr_t)A, o->arr_dev[1] = (uintptr_t)B;
    cublas_op_scalar(o, h, 0, alpha, cublas_elem(t));
    return cublas_op_submit(h, o);
}

static cublasStatus_t gemv_batched(cublasHandle_t h, const char *fn, cb_blas_type t, cublasOperation_t trans,
                                   int64_t m, int64_t n, const void *alpha, const void *A, int64_t lda, int64_t sa,
                                   const void *x, int64_t incx, int64_t sx, const void *beta, void *y, int64_t incy,
                                   int64_t sy, int64_t batch, int arrays)
{
    cublasStatus_t st = cublas_handle_check(h);
    if (st != CUBLAS_STATUS_SUCCESS)
        return st;
    if (!cublas_op_valid(trans) || m < 0 || n < 0 || batch < 0 || incx == 0 || incy == 0 || lda < max1(m))
        return CUBLAS_STATUS_INVALID_VALUE;
    if (m == 0 || n == 0 || batch == 0)
        return CUBLAS_STATUS_SUCCESS;
    cublas_op *o = new_batched(h, &r_gemv_batched, fn, t, batch, 3);
    if (!o)
        return CUBLAS_STATUS_ALLOC_FAILED;
    o->ta = trans, o->m = m, o->n = n, o->lda = lda, o->incx = incx, o->incy = incy;
    if (arrays) {
        o->arr_dev[0] = (uintptr_t)A, o->arr_dev[1] = (uintptr_t)x, o->arr_dev[2] = (uintptr_t)y;
    } else {
        o->a = (uintptr_t)A, o->x = (uintptr_t)x, o->y = (uintptr_t)y, o->sa = sa, o->sb = sx, o->sc = sy;
    }
    cublas_op_scalar(o, h, 0, alpha, cublas_elem(t));
    cublas_op_scalar(o, h, 1, beta, cublas_elem(t));
    return cublas_op_submit(h, o);
}

static cublasStatus_t getrf_batched(cublasHandle_t h, const char *fn, cb_blas_type t, int n, void *const A[], int lda,
                                    int *P, int *info, int batch)
{
    cublasStatus_t st = cublas_handle_check(h);
    if (st != CUBLAS_STATUS_SUCCESS)
        return st;
    if (n < 0 || batch < 0 || lda < max1(n))
        return CUBLAS_STATUS_INVALID_VALUE;
    if (n == 0 || batch == 0)
        return CUBLAS_STATUS_SUCCESS;
    cublas_op *o = new_batched(h, &r_getrf, fn, t, batch, 1);
    if (!o)
        return CUBLAS_STATUS_ALLOC_FAILED;
    o->n = n, o->lda = lda, o->arr_dev[0] = (uintptr_t)A, o->piv_dev = (uintptr_t)P, o->info_dev = (uintptr_t)info;
    return cublas_op_submit(h, o);
}

static cublasStatus_t getrs_batched(cublasHandle_t h, const char *fn, cb_blas_type t, cublasOperation_t trans, int n,
                                    int nrhs, const void *const A[], int lda, const int *P, void *const B[], int ldb,
                                    int *info, int batch)
{
    cublasStatus_t st = cublas_handle_check(h);
    if (st != CUBLAS_STATUS_SUCCESS)
        return st;
    if (!info)
        return CUBLAS_STATUS_INVALID_VALUE;
    /* the documented host info: -(position of the first bad argument) */
    *info = !cublas_op_valid(trans) ? -1 : n < 0 ? -2 : nrhs < 0 ? -3 : lda < max1(n) ? -5 : ldb < max1(n) ? -8
                                                                      : batch < 0 ? -10 : 0;
    if (*info)
        return CUBLAS_STATUS_INVALID_VALUE;
    if (n == 0 || nrhs == 0 || batch == 0)
        return CUBLAS_STATUS_SUCCESS;
    cublas_op *o = new_batched(h, &r_getrs, fn, t, batch, 2);
    if (!o)
        return CUBLAS_STATUS_ALLOC_FAILED;
    o->ta = trans, o->n = n, o->nrhs = nrhs, o->lda = lda, o->ldb = ldb;
    o->arr_dev[0] = (uintptr_t)A, o->arr_dev[1] = (uintptr_t)B, o->piv_dev = (uintptr_t)P;
    o->info_host = info;   /* the call waits */
    return cublas_op_submit(h, o);
}

static cublasStatus_t getri_batched(cublasHandle_t h, const char *fn, cb_blas_type t, int matinv, int n,
                                    const void *const A[], int lda, const int *P, void *const C[], int ldc, int *info,
                                    int batch)
{
    cublasStatus_t st = cublas_handle_check(h);
    if (st != CUBLAS_STATUS_SUCCESS)
        return st;
    if (n < 0 || batch < 0 || lda < max1(n) || ldc < max1(n) || (matinv && n > 32))
        return CUBLAS_STATUS_INVALID_VALUE;
    if (n == 0 || batch == 0)
        return CUBLAS_STATUS_SUCCESS;
    cublas_op *o = new_batched(h, &r_getri, fn, t, batch, 2);
    if (!o)
        return CUBLAS_STATUS_ALLOC_FAILED;
    o->xform = matinv, o->n = n, o->lda = lda, o->ldc = ldc;
    o->arr_dev[0] = (uintptr_t)A, o->arr_dev[1] = (uintptr_t)C, o->piv_dev = (uintptr_t)P, o->info_dev = (uintptr_t)info;
    return cublas_op_submit(h, o);
}

#define BATCHED(S, T, BT)                                                                                              \
    cublasStatus_t cublas##S##trsmBatched(cublasHandle_t h, cublasSideMode_t side, cublasFillMode_t uplo,             \
                                          cublasOperation_t trans, cublasDiagType_t diag, int m, int n,               \
                                          const T *alpha, const T *const A[], int lda, T *const B[], int ldb,          \
                                          int batchCount)                                                              \
    {                                                                                                                  \
        return trsm_batched(h, "cublas" #S "trsmBatched", BT, side, uplo, trans, diag, m, n, alpha, A, lda, B, ldb,    \
                            batchCount);                                                                               \
    }                                                                                                                  \
    cublasStatus_t cublas##S##trsmBatched_64(cublasHandle_t h, cublasSideMode_t side, cublasFillMode_t uplo,          \
                                             cublasOperation_t trans, cublasDiagType_t diag, int64_t m, int64_t n,    \
                                             const T *alpha, const T *const A[], int64_t lda, T *const B[],           \
                                             int64_t ldb, int64_t batchCount)                                          \
    {                                                                                                                  \
        return trsm_batched(h, "cublas" #S "trsmBatched_64", BT, side, uplo, trans, diag, m, n, alpha, A, lda, B, ldb, \
                            batchCount);                                                                               \
    }                                                                                                                  \
    cublasStatus_t cublas##S##gemvBatched(cublasHandle_t h, cublasOperation_t trans, int m, int n, const T *alpha,    \
                                          const T *const Aarray[], int lda, const T *const xarray[], int incx,         \
                                          const T *beta, T *const yarray[], int incy, int batchCount)                  \
    {                                                                                                                  \
        return gemv_batched(h, "cublas" #S "gemvBatched", BT, trans, m, n, alpha, Aarray, lda, 0, xarray, incx, 0,     \
                            beta, (void *)yarray, incy, 0, batchCount, 1);                                             \
    }                                                                                                                  \
    cublasStatus_t cublas##S##gemvBatched_64(cublasHandle_t h, cublasOperation_t trans, int64_t m, int64_t n,         \
                                             const T *alpha, const T *const Aarray[], int64_t lda,                     \
                                             const T *const xarray[], int64_t incx, const T *beta, T *const yarray[],  \
                                             int64_t incy, int64_t batchCount)                                         \
    {                                                                                                                  \
        return gemv_batched(h, "cublas" #S "gemvBatched_64", BT, trans, m, n, alpha, Aarray, lda, 0, xarray, incx, 0,  \
                            beta, (void *)yarray, incy, 0, batchCount, 1);                                             \
    }                                                                                                                  \
    cublasStatus_t cublas##S##gemvStridedBatched(cublasHandle_t h, cublasOperation_t trans, int m, int n,             \
                                                 const T *alpha, const T *A, int lda, long long int strideA,           \
                                                 const T *x, int incx, long long int stridex, const T *beta, T *y,     \
                                                 int incy, long long int stridey, int batchCount)                      \
    {                                                                                                                  \
        return gemv_batched(h, "cublas" #S "gemvStridedBatched", BT, trans, m, n, alpha, A, lda, strideA, x, incx,     \
                            stridex, beta, y, incy, stridey, batchCount, 0);                                           \
    }                                                                                                                  \
    cublasStatus_t cublas##S##gemvStridedBatched_64(cublasHandle_t h, cublasOperation_t trans, int64_t m, int64_t n,  \
                                                    const T *alpha, const T *A, int64_t lda, long long int strideA,    \
                                                    const T *x, int64_t incx, long long int stridex, const T *beta,    \
                                                    T *y, int64_t incy, long long int stridey, int64_t batchCount)     \
    {                                                                                                                  \
        return gemv_batched(h, "cublas" #S "gemvStridedBatched_64", BT, trans, m, n, alpha, A, lda, strideA, x, incx,  \
                            stridex, beta, y, incy, stridey, batchCount, 0);                                           \
    }                                                                                                                  \
    cublasStatus_t cublas##S##getrfBatched(cublasHandle_t h, int n, T *const A[], int lda, int *P, int *info,         \
                                           int batchSize)                                                              \
    {                                                                                                                  \
        return getrf_batched(h, "cublas" #S "getrfBatched", BT, n, (void *const *)A, lda, P, info, batchSize);         \
    }                                                                                                                  \
    cublasStatus_t cublas##S##getrsBatched(cublasHandle_t h, cublasOperation_t trans, int n, int nrhs,                \
                                           const T *const Aarray[], int lda, const int *devIpiv, T *const Barray[],    \
                                           int ldb, int *info, int batchSize)                                          \
    {                                                                                                                  \
        return getrs_batched(h, "cublas" #S "getrsBatched", BT, trans, n, nrhs, (const void *const *)Aarray, lda,      \
                             devIpiv, (void *const *)Barray, ldb, info, batchSize);                                    \
    }                                                                                                                  \
    cublasStatus_t cublas##S##getriBatched(cublasHandle_t h, int n, const T *const A[], int lda, const int *P,        \
                                           T *const C[], int ldc, int *info, int batchSize)                            \
    {                                                                                                                  \
        return getri_batched(h, "cublas" #S "getriBatched", BT, 0, n, (const void *const *)A, lda, P,                  \
                             (void *const *)C, ldc, info, batchSize);                                                  \
    }                                                                                                                  \
    cublasStatus_t cublas##S##matinvBatched(cublasHandle_t h, int n, const T *const A[], int lda, T *const Ainv[],    \
                                            int lda_inv, int *info, int batchSize)                                     \
    {                                                                                                                  \
        return getri_batched(h, "cublas" #S "matinvBatched", BT, 1, n, (const void *const *)A, lda, NULL,              \
                             (void *const *)Ainv, lda_inv, info, batchSize);                                           \
    }

BATCHED(S, float, CB_BLAS_F32)
BATCHED(D, double, CB_BLAS_F64)
BATCHED(C, cuComplex, CB_BLAS_C32)
BATCHED(Z, cuDoubleComplex, CB_BLAS_C64)
