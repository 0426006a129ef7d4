/* cpu_blas_gemm.c: mixed-precision and batched products with cuBLASLt's
 * epilogues (cb_blas_gemm), and the LU pieces (getrf/getrs/getri) of the
 * CPU backend's library interface (cpu_blas.h).
 *
 * A product whose four matrices share one of the BLAS types, computed in
 * that type without rounding or epilogue, is one OpenBLAS gemm per batch
 * entry. Every other one widens op(A) and op(B) to the compute type's BLAS
 * type (f16/bf16/int8 inputs to f32, after the requested input rounding),
 * multiplies with OpenBLAS (f32, f64, c32, c64) or an exact integer loop
 * (CUBLAS_COMPUTE_32I), then applies alpha, beta, the epilogue and the
 * rounding of the output type element by element.
 */
#include "backend/cpu/cpu_blas.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "backend/blas_elem.h"

#define IDX(i, j, ld) ((size_t)(i) + (size_t)(j) * (size_t)(ld))

static int is_blas_type(cb_blas_type t)
{
    return t == CB_BLAS_F32 || t == CB_BLAS_F64 || t == CB_BLAS_C32 || t == CB_BLAS_C64;
}

/* The BLAS type a compute type multiplies in. */
static cb_blas_type work_type(cb_blas_type compute, int complex_inputs)
{
    switch (compute) {
    case CB_BLAS_F64: return complex_inputs ? CB_BLAS_C64 : CB_BLAS_F64;
    case CB_BLAS_C64: return CB_BLAS_C64;
    case CB_BLAS_C32: return CB_BLAS_C32;
    case CB_BLAS_I32: return CB_BLAS_I32;
    default: return complex_inputs ? CB_BLAS_C32 : CB_BLAS_F32;   /* F32, F16 (accumulated in f32 here) */
    }
}

/* op(X) of rows x cols (as used in the product) from X stored with ld,
 * widened to the work type w, into a dense rows x cols buffer. */
static void *widen(cb_blas_type t, const void *x, int64_t ld, int trans, int64_t rows, int64_t cols, cb_blas_type w,
                   cb_blas_input_round round)
{
    void *out = malloc((size_t)(rows ? rows : 1) * (size_t)(cols ? cols : 1) * cb_blas_type_size(w));
    if (!out)
        return NULL;
    for (int64_t j = 0; j < cols; j++)
        for (int64_t i = 0; i < rows; i++) {
            cb_cplx v = trans == CB_BLAS_OP_N ? cb_blas_load(t, x, IDX(i, j, ld)) : cb_blas_load(t, x, IDX(j, i, ld));
            if (trans == CB_BLAS_OP_C)
                v.im = -v.im;
            v.re = cb_blas_round_input(round, v.re);
            v.im = cb_blas_round_input(round, v.im);
            cb_blas_store(w, out, IDX(i, j, rows), v);
        }
    return out;
}

/* T = A B for dense m x k and k x n operands of work type w (ld = rows). */
static CUresult multiply(const cpu_blas *bl, cb_blas_type w, int64_t m, int64_t n, int64_t k, const void *a,
                         const void *b, void *t)
{
    if (m == 0 || n == 0)
        return CUDA_SUCCESS;
    if (w == CB_BLAS_I32) {
        const int32_t *A = a, *B = b;
        int32_t *T = t;
        for (int64_t j = 0; j < n; j++)
            for (int64_t i = 0; i < m; i++) {
                int64_t s = 0;
                for (int64_t l = 0; l < k; l++)
                    s += (int64_t)A[IDX(i, l, m)] * B[IDX(l, j, k)];
                T[IDX(i, j, m)] = (int32_t)(uint32_t)s;   /* wraps as the GPU's int32 accumulator */
            }
        return CUDA_SUCCESS;
    }
    if (!cpu_blas_fits(m, n, k, 0))
        return CUDA_ERROR_NOT_SUPPORTED;
    int M = (int)m, N = (int)n, K = (int)k, LDK = K ? K : 1;
    static const float one_f[2] = {1, 0}, zero_f[2] = {0, 0};
    static const double one_d[2] = {1, 0}, zero_d[2] = {0, 0};
    if (k == 0) {
        memset(t, 0, (size_t)m * (size_t)n * cb_blas_type_size(w));
        return CUDA_SUCCESS;
    }
    switch (w) {
    case CB_BLAS_F32: bl->cblas_sgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, M, N, K, 1, a, M, b, LDK, 0, t, M); break;
    case CB_BLAS_F64: bl->cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, M, N, K, 1, a, M, b, LDK, 0, t, M); break;
    case CB_BLAS_C32:
        bl->cblas_cgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, M, N, K, one_f, a, M, b, LDK, zero_f, t, M);
        break;
    default: bl->cblas_zgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, M, N, K, one_d, a, M, b, LDK, zero_d, t, M); break;
    }
    return CUDA_SUCCESS;
}

static cb_cplx cmul(cb_cplx a, cb_cplx b) { return (cb_cplx){a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re}; }

/* Rounds v to the precision the work type keeps (f32 work: f32 arithmetic). */
static cb_cplx keep(cb_blas_type w, cb_cplx v)
{
    if (w == CB_BLAS_F32 || w == CB_BLAS_C32 || w == CB_BLAS_I32)
        return (cb_cplx){(float)v.re, (float)v.im};
    return v;
}

/* Everything after the product for one batch entry: D = alpha T + beta C,
 * then the epilogue, rounded to the output type. */
static void finish(const cb_blas_gemm *g, cb_blas_type w, const void *t, const void *c, void *d, void *bias, void *aux,
                   const void *opa, const void *opb)
{
    cb_cplx alpha = cb_blas_load(g->scale, g->alpha, 0), beta = cb_blas_load(g->scale, g->beta, 0);
    int use_c = beta.re != 0 || beta.im != 0;
    unsigned epi = g->epilogue;
    double *colsum = NULL;
    if ((epi & CB_BLAS_EPI_BGRAD) && bias)
        colsum = calloc((size_t)(g->m ? g->m : 1), sizeof *colsum);
    for (int64_t j = 0; j < g->n; j++)
        for (int64_t i = 0; i < g->m; i++) {
            cb_cplx v = keep(w, cmul(alpha, cb_blas_load(w, t, IDX(i, j, g->m))));
            if (use_c) {
                cb_cplx cv = cmul(beta, cb_blas_load(g->c_type, c, IDX(i, j, g->ldc)));
                v = keep(w, (cb_cplx){v.re + cv.re, v.im + cv.im});
            }
            if ((epi & CB_BLAS_EPI_BIAS) && bias && !(epi & (CB_BLAS_EPI_DRELU | CB_BLAS_EPI_DGELU)))
                v.re = keep(w, (cb_cplx){v.re + cb_blas_load(g->bias_type, bias, (size_t)i).re, 0}).re;
            if ((epi & CB_BLAS_EPI_AUX) && aux && !(epi & (CB_BLAS_EPI_DRELU | CB_BLAS_EPI_DGELU))) {
                if (epi & CB_BLAS_EPI_RELU) {
                    size_t bit = IDX(i, j, g->ldaux);
                    unsigned char *m = aux;
                    if (v.re > 0)
                        m[bit / 8] |= (unsigned char)(1u << (bit % 8));
                    else
                        m[bit / 8] &= (unsigned char)~(1u << (bit % 8));
                } else {
                    cb_blas_store(g->aux_type, aux, IDX(i, j, g->ldaux), v);
                }
            }
            if (epi & CB_BLAS_EPI_DRELU) {
                size_t bit = IDX(i, j, g->ldaux);
                if (!aux || !(((const unsigned char *)aux)[bit / 8] >> (bit % 8) & 1))
                    v.re = 0;
            } else if (epi & CB_BLAS_EPI_DGELU) {
                double x = aux ? cb_blas_load(g->aux_type, aux, IDX(i, j, g->ldaux)).re : 0;
                v.re = keep(w, (cb_cplx){v.re * cb_blas_gelu_grad(x), 0}).re;
            } else if (epi & CB_BLAS_EPI_RELU) {
                v.re = v.re > 0 ? v.re : 0;
            } else if (epi & CB_BLAS_EPI_GELU) {
                v.re = keep(w, (cb_cplx){cb_blas_gelu(v.re), 0}).re;
            }
            if (colsum)
                colsum[i] += v.re;
            cb_blas_store(g->d_type, d, IDX(i, j, g->ldd), v);
        }
    if (colsum) {
        for (int64_t i = 0; i < g->m; i++)
            cb_blas_store(g->bias_type, bias, (size_t)i, (cb_cplx){colsum[i], 0});
        free(colsum);
    }
    if ((epi & (CB_BLAS_EPI_BGRADA | CB_BLAS_EPI_BGRADB)) && bias) {
        int rows_of_a = (epi & CB_BLAS_EPI_BGRADA) != 0;
        int64_t len = rows_of_a ? g->m : g->n;
        for (int64_t i = 0; i < len; i++) {
            double s = 0;
            for (int64_t l = 0; l < g->k; l++)
                s += rows_of_a ? cb_blas_load(w, opa, IDX(i, l, g->m)).re : cb_blas_load(w, opb, IDX(l, i, g->k)).re;
            cb_blas_store(g->bias_type, bias, (size_t)i, (cb_cplx){s, 0});
        }
    }
}

static uint64_t entry(const uint64_t *array, uint64_t base, int64_t stride, cb_blas_type t, int64_t i)
{
    if (array)
        return array[i];
    return base + (uint64_t)(stride * i) * cb_blas_type_size(t);
}

CUresult cpu_blas_gemm_ex(struct cb_backend *be, const cb_blas_gemm *g)
{
    const cpu_blas *bl = cpu_blas_get();
    if (!bl)
        return CUDA_ERROR_NOT_SUPPORTED;
    if (!cb_blas_elem_supported(g->a_type) || !cb_blas_elem_supported(g->b_type) ||
        !cb_blas_elem_supported(g->c_type) || !cb_blas_elem_supported(g->d_type))
        return CUDA_ERROR_NOT_SUPPORTED;
    int same = g->a_type == g->b_type && g->a_type == g->c_type && g->a_type == g->d_type;
    int plain = same && is_blas_type(g->a_type) && g->compute == g->a_type && g->scale == g->a_type &&
                g->round == CB_BLAS_ROUND_NONE && (g->epilogue & ~1u) == 0;
    int complex_in = cb_blas_type_complex(g->a_type) || cb_blas_type_complex(g->b_type);
    cb_blas_type w = work_type(g->compute, complex_in);
    if (w == CB_BLAS_I32 && complex_in)
        return CUDA_ERROR_NOT_SUPPORTED;
    int64_t ar = g->m, ac = g->k, br = g->k, bc = g->n;   /* op(A): m x k, op(B): k x n */
    for (int64_t i = 0; i < g->batch; i++) {
        uint64_t a = entry(g->a_array, g->a, g->stride_a, g->a_type, i);
        uint64_t b = entry(g->b_array, g->b, g->stride_b, g->b_type, i);
        uint64_t c = entry(g->c_array, g->c, g->stride_c, g->c_type, i);
        uint64_t d = entry(g->d_array, g->d, g->stride_d, g->d_type, i);
        if (plain) {
            cb_cplx beta = cb_blas_load(g->scale, g->beta, 0);
            if ((d != c || g->ldd != g->ldc) && (beta.re != 0 || beta.im != 0)) {
                /* D = alpha AB + beta C with C elsewhere: C into D first (not read when beta is 0) */
                cpu_blas_copy_matrix(g->c_type, g->m, g->n, CPU_PTR(c), g->ldc, CPU_PTR(d), g->ldd);
            }
            CUresult r = be->lib->gemm(be, g->a_type, g->trans_a, g->trans_b, g->m, g->n, g->k, g->alpha, a, g->lda,
                                       b, g->ldb, g->beta, d, g->ldd);
            if (r != CUDA_SUCCESS)
                return r;
            continue;
        }
        void *opa = widen(g->a_type, CPU_PTR(a), g->lda, g->trans_a, ar, ac, w, g->round);
        void *opb = widen(g->b_type, CPU_PTR(b), g->ldb, g->trans_b, br, bc, w, g->round);
        void *t = malloc((size_t)(g->m ? g->m : 1) * (size_t)(g->n ? g->n : 1) * cb_blas_type_size(w));
        CUresult r = opa && opb && t ? multiply(bl, w, g->m, g->n, g->k, opa, opb, t) : CUDA_ERROR_OUT_OF_MEMORY;
        if (r == CUDA_SUCCESS) {
            void *bias = g->bias ? CPU_PTR(g->bias + (uint64_t)(g->stride_bias * i) * cb_blas_type_size(g->bias_type)) : NULL;
            void *aux = NULL;
            if (g->aux) {
                size_t elem = (g->epilogue & (CB_BLAS_EPI_RELU | CB_BLAS_EPI_DRELU)) ? 0 : cb_blas_type_size(g->aux_type);
                aux = CPU_PTR(g->aux + (elem ? (uint64_t)(g->stride_aux * i) * elem : (uint64_t)(g->stride_aux * i) / 8));
            }
            finish(g, w, t, CPU_PTR(c), CPU_PTR(d), bias, aux, opa, opb);
        }
        free(opa);
        free(opb);
        free(t);
        if (r != CUDA_SUCCESS)
            return r;
    }
    return CUDA_SUCCESS;
}

/* ---- LU ------------------------------------------------------------------ */

/* LU without pivoting (cuBLAS's getrfBatched with a NULL pivot array). */
static int lu_nopivot(cb_blas_type t, int64_t n, void *a, int64_t lda)
{
    int info = 0;
    for (int64_t k = 0; k < n; k++) {
        cb_cplx p = cb_blas_load(t, a, IDX(k, k, lda));
        double den = p.re * p.re + p.im * p.im;
        if (den == 0) {
            if (!info)
                info = (int)(k + 1);
            continue;
        }
        cb_cplx inv = {p.re / den, -p.im / den};
        for (int64_t i = k + 1; i < n; i++)
            cb_blas_store(t, a, IDX(i, k, lda), cmul(cb_blas_load(t, a, IDX(i, k, lda)), inv));
        for (int64_t j = k + 1; j < n; j++) {
            cb_cplx ukj = cb_blas_load(t, a, IDX(k, j, lda));
            for (int64_t i = k + 1; i < n; i++) {
                cb_cplx l = cmul(cb_blas_load(t, a, IDX(i, k, lda)), ukj), v = cb_blas_load(t, a, IDX(i, j, lda));
                cb_blas_store(t, a, IDX(i, j, lda), (cb_cplx){v.re - l.re, v.im - l.im});
            }
        }
    }
    return info;
}

CUresult cpu_blas_getrf(struct cb_backend *be, cb_blas_type t, int64_t n, uint64_t a, int64_t lda, uint64_t pivots,
                        int *info)
{
    (void)be;
    const cpu_blas *bl = cpu_blas_get();
    if (!bl || !is_blas_type(t) || !cpu_blas_fits(n, lda, 0, 0))
        return CUDA_ERROR_NOT_SUPPORTED;
    if (!pivots) {
        *info = lu_nopivot(t, n, CPU_PTR(a), lda);
        return CUDA_SUCCESS;
    }
    int N = (int)n, LDA = (int)(lda ? lda : 1);
    int *piv = CPU_PTR(pivots);
    switch (t) {
    case CB_BLAS_F32: bl->sgetrf_(&N, &N, CPU_PTR(a), &LDA, piv, info); break;
    case CB_BLAS_F64: bl->dgetrf_(&N, &N, CPU_PTR(a), &LDA, piv, info); break;
    case CB_BLAS_C32: bl->cgetrf_(&N, &N, CPU_PTR(a), &LDA, piv, info); break;
    default: bl->zgetrf_(&N, &N, CPU_PTR(a), &LDA, piv, info); break;
    }
    return CUDA_SUCCESS;
}

CUresult cpu_blas_getrs(struct cb_backend *be, cb_blas_type t, int trans, int64_t n, int64_t nrhs, uint64_t a,
                        int64_t lda, uint64_t pivots, uint64_t b, int64_t ldb)
{
    const cpu_blas *bl = cpu_blas_get();
    if (!bl || !is_blas_type(t) || !cpu_blas_fits(n, nrhs, lda, ldb))
        return CUDA_ERROR_NOT_SUPPORTED;
    if (n == 0 || nrhs == 0)
        return CUDA_SUCCESS;
    if (!pivots) {
        /* the factors of an unpivoted LU: two triangular solves */
        static const double one[2] = {1, 0};
        static const float one_f[2] = {1, 0};
        const void *alpha = (t == CB_BLAS_F32 || t == CB_BLAS_C32) ? (const void *)one_f : (const void *)one;
        int first_uplo = trans == CB_BLAS_OP_N ? CB_BLAS_LOWER : CB_BLAS_UPPER;
        int first_diag = trans == CB_BLAS_OP_N ? CB_BLAS_UNIT : CB_BLAS_NON_UNIT;
        CUresult r = be->lib->trsm(be, t, CB_BLAS_LEFT, first_uplo, trans, first_diag, n, nrhs, alpha, a, lda, b, ldb);
        if (r == CUDA_SUCCESS)
            r = be->lib->trsm(be, t, CB_BLAS_LEFT, first_uplo == CB_BLAS_LOWER ? CB_BLAS_UPPER : CB_BLAS_LOWER, trans,
                              first_diag == CB_BLAS_UNIT ? CB_BLAS_NON_UNIT : CB_BLAS_UNIT, n, nrhs, alpha, a, lda, b,
                              ldb);
        return r;
    }
    char tr = trans == CB_BLAS_OP_N ? 'N' : trans == CB_BLAS_OP_T ? 'T' : 'C';
    int N = (int)n, NRHS = (int)nrhs, LDA = (int)lda, LDB = (int)ldb, info = 0;
    const int *piv = CPU_PTR(pivots);
    switch (t) {
    case CB_BLAS_F32: bl->sgetrs_(&tr, &N, &NRHS, CPU_PTR(a), &LDA, piv, CPU_PTR(b), &LDB, &info, 1); break;
    case CB_BLAS_F64: bl->dgetrs_(&tr, &N, &NRHS, CPU_PTR(a), &LDA, piv, CPU_PTR(b), &LDB, &info, 1); break;
    case CB_BLAS_C32: bl->cgetrs_(&tr, &N, &NRHS, CPU_PTR(a), &LDA, piv, CPU_PTR(b), &LDB, &info, 1); break;
    default: bl->zgetrs_(&tr, &N, &NRHS, CPU_PTR(a), &LDA, piv, CPU_PTR(b), &LDB, &info, 1); break;
    }
    return CUDA_SUCCESS;
}

CUresult cpu_blas_getri(struct cb_backend *be, cb_blas_type t, int64_t n, uint64_t a, int64_t lda, uint64_t pivots,
                        uint64_t c, int64_t ldc, int *info)
{
    const cpu_blas *bl = cpu_blas_get();
    if (!bl || !is_blas_type(t) || !cpu_blas_fits(n, lda, ldc, 0))
        return CUDA_ERROR_NOT_SUPPORTED;
    *info = 0;
    if (n == 0)
        return CUDA_SUCCESS;
    for (int64_t k = 0; k < n; k++) {   /* a zero pivot: singular, C left as is (cuBLAS's info) */
        cb_cplx p = cb_blas_load(t, CPU_PTR(a), IDX(k, k, lda));
        if (p.re == 0 && p.im == 0) {
            *info = (int)(k + 1);
            return CUDA_SUCCESS;
        }
    }
    if (!pivots) {
        /* C = I, then solve A C = I with the unpivoted factors */
        size_t w = cb_blas_type_size(t);
        for (int64_t j = 0; j < n; j++) {
            memset((char *)CPU_PTR(c) + IDX(0, j, ldc) * w, 0, (size_t)n * w);
            cb_blas_store(t, CPU_PTR(c), IDX(j, j, ldc), (cb_cplx){1, 0});
        }
        return cpu_blas_getrs(be, t, CB_BLAS_OP_N, n, n, a, lda, 0, c, ldc);
    }
    cpu_blas_copy_matrix(t, n, n, CPU_PTR(a), lda, CPU_PTR(c), ldc);
    int N = (int)n, LDC = (int)ldc, lwork = N * 64, inf = 0;
    void *work = malloc((size_t)lwork * cb_blas_type_size(t));
    if (!work)
        return CUDA_ERROR_OUT_OF_MEMORY;
    const int *piv = CPU_PTR(pivots);
    switch (t) {
    case CB_BLAS_F32: bl->sgetri_(&N, CPU_PTR(c), &LDC, piv, work, &lwork, &inf); break;
    case CB_BLAS_F64: bl->dgetri_(&N, CPU_PTR(c), &LDC, piv, work, &lwork, &inf); break;
    case CB_BLAS_C32: bl->cgetri_(&N, CPU_PTR(c), &LDC, piv, work, &lwork, &inf); break;
    default: bl->zgetri_(&N, CPU_PTR(c), &LDC, piv, work, &lwork, &inf); break;
    }
    free(work);
    *info = inf;
    return CUDA_SUCCESS;
}

CUresult cpu_blas_matinv(struct cb_backend *be, cb_blas_type t, int64_t n, uint64_t a, int64_t lda, uint64_t c,
                         int64_t ldc, int *info)
{
    (void)be;
    const cpu_blas *bl = cpu_blas_get();
    if (!bl || !is_blas_type(t) || !cpu_blas_fits(n, lda, ldc, 0))
        return CUDA_ERROR_NOT_SUPPORTED;
    *info = 0;
    if (n == 0)
        return CUDA_SUCCESS;
    int N = (int)n, LDC = (int)ldc, lwork = N * 64, inf = 0;
    int *piv = malloc((size_t)n * sizeof *piv);
    void *work = malloc((size_t)lwork * cb_blas_type_size(t));
    if (!piv || !work) {
        free(piv);
        free(work);
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    cpu_blas_copy_matrix(t, n, n, CPU_PTR(a), lda, CPU_PTR(c), ldc);
    switch (t) {
    case CB_BLAS_F32: bl->sgetrf_(&N, &N, CPU_PTR(c), &LDC, piv, &inf); break;
    case CB_BLAS_F64: bl->dgetrf_(&N, &N, CPU_PTR(c), &LDC, piv, &inf); break;
    case CB_BLAS_C32: bl->cgetrf_(&N, &N, CPU_PTR(c), &LDC, piv, &inf); break;
    default: bl->zgetrf_(&N, &N, CPU_PTR(c), &LDC, piv, &inf); break;
    }
    if (inf == 0) {
        switch (t) {
        case CB_BLAS_F32: bl->sgetri_(&N, CPU_PTR(c), &LDC, piv, work, &lwork, &inf); break;
        case CB_BLAS_F64: bl->dgetri_(&N, CPU_PTR(c), &LDC, piv, work, &lwork, &inf); break;
        case CB_BLAS_C32: bl->cgetri_(&N, CPU_PTR(c), &LDC, piv, work, &lwork, &inf); break;
        default: bl->zgetri_(&N, CPU_PTR(c), &LDC, piv, work, &lwork, &inf); break;
        }
    }
    free(piv);
    free(work);
    *info = inf;
    return CUDA_SUCCESS;
}
