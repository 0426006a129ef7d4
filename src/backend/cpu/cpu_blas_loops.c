/* cpu_blas_loops.c: the routines of cuBLAS that CBLAS does not have, as
 * plain loops (cpu_blas.h): complex symmetric symv/syr/syr2, complex rot
 * with a complex s, geam, dgmm and syrkx/herkx (on OpenBLAS's gemm).
 * Each is written once per element type through a macro over
 * (type, name); the real types reuse the complex code with conj() the
 * identity.
 */
#include "backend/cpu/cpu_blas.h"

#include <stdlib.h>
#include <string.h>

#define IDX(i, j, ld) ((size_t)(i) + (size_t)(j) * (size_t)(ld))
/* The element of vector x at position i of n with increment inc (BLAS's
 * rule for negative increments: the vector starts at the end). */
#define VEC(x, i, n, inc) ((x)[(inc) >= 0 ? (int64_t)(i) * (inc) : ((int64_t)(n)-1 - (int64_t)(i)) * -(inc)])

static inline float conj_f(float v) { return v; }
static inline double conj_d(double v) { return v; }

#define CPU_LOOPS(T, SUF, CONJ)                                                                                        \
    static __attribute__((unused)) void csymv_##SUF(int uplo, int64_t n, T alpha, const T *a, int64_t lda, const T *x, int64_t incx, T beta,  \
                            T *y, int64_t incy)                                                                       \
    {                                                                                                                  \
        for (int64_t i = 0; i < n; i++) {                                                                              \
            T sum = 0;                                                                                                 \
            for (int64_t j = 0; j < n; j++) {                                                                          \
                int stored = uplo == CB_BLAS_UPPER ? i <= j : i >= j;                                                  \
                T aij = stored ? a[IDX(i, j, lda)] : a[IDX(j, i, lda)];                                                \
                sum += aij * VEC(x, j, n, incx);                                                                       \
            }                                                                                                          \
            T yi = beta == 0 ? (T)0 : beta * VEC(y, i, n, incy);                                                       \
            VEC(y, i, n, incy) = yi + alpha * sum;                                                                     \
        }                                                                                                              \
    }                                                                                                                  \
    static __attribute__((unused)) void csyr_##SUF(int uplo, int64_t n, T alpha, const T *x, int64_t incx, T *a, int64_t lda, const T *y,     \
                           int64_t incy)                                                                               \
    {                                                                                                                  \
        for (int64_t j = 0; j < n; j++)                                                                                \
            for (int64_t i = uplo == CB_BLAS_UPPER ? 0 : j; i <= (uplo == CB_BLAS_UPPER ? j : n - 1); i++) {            \
                T v = VEC(x, i, n, incx) * VEC(x, j, n, incx);                                                         \
                if (y)                                                                                                 \
                    v = VEC(x, i, n, incx) * VEC(y, j, n, incy) + VEC(y, i, n, incy) * VEC(x, j, n, incx);             \
                a[IDX(i, j, lda)] += alpha * v;                                                                        \
            }                                                                                                          \
    }                                                                                                                  \
    static void geam_##SUF(int ta, int tb, int64_t m, int64_t n, T alpha, const T *a, int64_t lda, T beta,           \
                           const T *b, int64_t ldb, T *c, int64_t ldc)                                                 \
    {                                                                                                                  \
        for (int64_t j = 0; j < n; j++)                                                                                \
            for (int64_t i = 0; i < m; i++) {                                                                          \
                T va = 0, vb = 0;                                                                                      \
                if (alpha != 0) {                                                                                      \
                    va = ta == CB_BLAS_OP_N ? a[IDX(i, j, lda)] : a[IDX(j, i, lda)];                                   \
                    if (ta == CB_BLAS_OP_C)                                                                            \
                        va = CONJ(va);                                                                                 \
                    va *= alpha;                                                                                       \
                }                                                                                                      \
                if (beta != 0) {                                                                                       \
                    vb = tb == CB_BLAS_OP_N ? b[IDX(i, j, ldb)] : b[IDX(j, i, ldb)];                                   \
                    if (tb == CB_BLAS_OP_C)                                                                            \
                        vb = CONJ(vb);                                                                                 \
                    vb *= beta;                                                                                        \
                }                                                                                                      \
                c[IDX(i, j, ldc)] = va + vb;                                                                           \
            }                                                                                                          \
    }                                                                                                                  \
    static void dgmm_##SUF(int side, int64_t m, int64_t n, const T *a, int64_t lda, const T *x, int64_t incx, T *c,   \
                           int64_t ldc)                                                                                \
    {                                                                                                                  \
        for (int64_t j = 0; j < n; j++)                                                                                \
            for (int64_t i = 0; i < m; i++) {                                                                          \
                T d = side == CB_BLAS_LEFT ? VEC(x, i, m, incx) : VEC(x, j, n, incx);                                  \
                c[IDX(i, j, ldc)] = a[IDX(i, j, lda)] * d;                                                             \
            }                                                                                                          \
    }

CPU_LOOPS(float complex, c, conjf)
CPU_LOOPS(double complex, z, conj)
CPU_LOOPS(float, s, conj_f)
CPU_LOOPS(double, d, conj_d)

/* dgmm with incx 0 repeats x[0]; cuBLAS allows it, BLAS's VEC rule does too. */

CUresult cpu_blas_csymv(cb_blas_type t, int uplo, int64_t n, const void *alpha, const void *a, int64_t lda,
                        const void *x, int64_t incx, const void *beta, void *y, int64_t incy)
{
    if (t == CB_BLAS_C32)
        csymv_c(uplo, n, *(const float complex *)alpha, a, lda, x, incx, *(const float complex *)beta, y, incy);
    else if (t == CB_BLAS_C64)
        csymv_z(uplo, n, *(const double complex *)alpha, a, lda, x, incx, *(const double complex *)beta, y, incy);
    else
        return CUDA_ERROR_NOT_SUPPORTED;
    return CUDA_SUCCESS;
}

CUresult cpu_blas_csyr(cb_blas_type t, int uplo, int64_t n, const void *alpha, const void *x, int64_t incx, void *a,
                       int64_t lda, const void *y, int64_t incy)
{
    if (t == CB_BLAS_C32)
        csyr_c(uplo, n, *(const float complex *)alpha, x, incx, a, lda, y, incy);
    else if (t == CB_BLAS_C64)
        csyr_z(uplo, n, *(const double complex *)alpha, x, incx, a, lda, y, incy);
    else
        return CUDA_ERROR_NOT_SUPPORTED;
    return CUDA_SUCCESS;
}

CUresult cpu_blas_crot(cb_blas_type t, int64_t n, void *xv, int64_t incx, void *yv, int64_t incy, const void *cv,
                       const void *sv)
{
    /* x' = c x + s y, y' = -conj(s) x + c y (BLAS crot) */
    if (t == CB_BLAS_C32) {
        float complex *x = xv, *y = yv, s = *(const float complex *)sv;
        float c = *(const float *)cv;
        for (int64_t i = 0; i < n; i++) {
            float complex xi = VEC(x, i, n, incx), yi = VEC(y, i, n, incy);
            VEC(x, i, n, incx) = c * xi + s * yi;
            VEC(y, i, n, incy) = c * yi - conjf(s) * xi;
        }
    } else if (t == CB_BLAS_C64) {
        double complex *x = xv, *y = yv, s = *(const double complex *)sv;
        double c = *(const double *)cv;
        for (int64_t i = 0; i < n; i++) {
            double complex xi = VEC(x, i, n, incx), yi = VEC(y, i, n, incy);
            VEC(x, i, n, incx) = c * xi + s * yi;
            VEC(y, i, n, incy) = c * yi - conj(s) * xi;
        }
    } else {
        return CUDA_ERROR_NOT_SUPPORTED;
    }
    return CUDA_SUCCESS;
}

CUresult cpu_blas_geam(cb_blas_type t, int trans_a, int trans_b, int64_t m, int64_t n, const void *alpha,
                       const void *a, int64_t lda, const void *beta, const void *b, int64_t ldb, void *c, int64_t ldc)
{
    switch (t) {
    case CB_BLAS_F32: geam_s(trans_a, trans_b, m, n, *(const float *)alpha, a, lda, *(const float *)beta, b, ldb, c, ldc); break;
    case CB_BLAS_F64: geam_d(trans_a, trans_b, m, n, *(const double *)alpha, a, lda, *(const double *)beta, b, ldb, c, ldc); break;
    case CB_BLAS_C32:
        geam_c(trans_a, trans_b, m, n, *(const float complex *)alpha, a, lda, *(const float complex *)beta, b, ldb, c, ldc);
        break;
    case CB_BLAS_C64:
        geam_z(trans_a, trans_b, m, n, *(const double complex *)alpha, a, lda, *(const double complex *)beta, b, ldb, c,
               ldc);
        break;
    default: return CUDA_ERROR_NOT_SUPPORTED;
    }
    return CUDA_SUCCESS;
}

CUresult cpu_blas_dgmm(cb_blas_type t, int side, int64_t m, int64_t n, const void *a, int64_t lda, const void *x,
                       int64_t incx, void *c, int64_t ldc)
{
    switch (t) {
    case CB_BLAS_F32: dgmm_s(side, m, n, a, lda, x, incx, c, ldc); break;
    case CB_BLAS_F64: dgmm_d(side, m, n, a, lda, x, incx, c, ldc); break;
    case CB_BLAS_C32: dgmm_c(side, m, n, a, lda, x, incx, c, ldc); break;
    case CB_BLAS_C64: dgmm_z(side, m, n, a, lda, x, incx, c, ldc); break;
    default: return CUDA_ERROR_NOT_SUPPORTED;
    }
    return CUDA_SUCCESS;
}

void cpu_blas_copy_matrix(cb_blas_type t, int64_t m, int64_t n, const void *a, int64_t lda, void *c, int64_t ldc)
{
    size_t w = cb_blas_type_size(t);
    for (int64_t j = 0; j < n; j++)
        memmove((char *)c + IDX(0, j, ldc) * w, (const char *)a + IDX(0, j, lda) * w, (size_t)m * w);
}

/* syrkx/herkx: T = op(A) op(B)^T (^H for herkx) by OpenBLAS's gemm into a
 * scratch n x n matrix, then C = alpha T + beta C on the uplo triangle
 * (herkx: beta real, the diagonal's imaginary part set to zero). */
CUresult cpu_blas_syrkx(cb_blas_type t, int herm, int uplo, int trans, int64_t n, int64_t k, const void *alpha,
                        const void *a, int64_t lda, const void *b, int64_t ldb, const void *beta, void *c, int64_t ldc)
{
    const cpu_blas *bl = cpu_blas_get();
    if (!bl)
        return CUDA_ERROR_NOT_SUPPORTED;
    if (!cpu_blas_fits(n, k, lda, ldb) || !cpu_blas_fits(ldc, 0, 0, 0))
        return CUDA_ERROR_NOT_SUPPORTED;
    if (n == 0)
        return CUDA_SUCCESS;
    size_t w = cb_blas_type_size(t);
    void *tmp = calloc((size_t)n * (size_t)n, w);
    if (!tmp)
        return CUDA_ERROR_OUT_OF_MEMORY;
    int N = (int)n, K = (int)k, LDA = (int)lda, LDB = (int)ldb;
    enum CBLAS_TRANSPOSE ta = trans == CB_BLAS_OP_N ? CblasNoTrans : herm ? CblasConjTrans : CblasTrans;
    enum CBLAS_TRANSPOSE tb = trans == CB_BLAS_OP_N ? (herm ? CblasConjTrans : CblasTrans) : CblasNoTrans;
    static const float one_f[2] = {1, 0}, zero_f[2] = {0, 0};
    static const double one_d[2] = {1, 0}, zero_d[2] = {0, 0};
    switch (t) {
    case CB_BLAS_F32: bl->cblas_sgemm(CblasColMajor, ta, tb, N, N, K, 1, a, LDA, b, LDB, 0, tmp, N); break;
    case CB_BLAS_F64: bl->cblas_dgemm(CblasColMajor, ta, tb, N, N, K, 1, a, LDA, b, LDB, 0, tmp, N); break;
    case CB_BLAS_C32: bl->cblas_cgemm(CblasColMajor, ta, tb, N, N, K, one_f, a, LDA, b, LDB, zero_f, tmp, N); break;
    case CB_BLAS_C64: bl->cblas_zgemm(CblasColMajor, ta, tb, N, N, K, one_d, a, LDA, b, LDB, zero_d, tmp, N); break;
    default: free(tmp); return CUDA_ERROR_NOT_SUPPORTED;
    }
    for (int64_t j = 0; j < n; j++) {
        int64_t lo = uplo == CB_BLAS_UPPER ? 0 : j, hi = uplo == CB_BLAS_UPPER ? j : n - 1;
        for (int64_t i = lo; i <= hi; i++) {
            size_t ti = IDX(i, j, n), ci = IDX(i, j, ldc);
            switch (t) {
            case CB_BLAS_F32: {
                float *cc = c, bt = *(const float *)beta;
                cc[ci] = *(const float *)alpha * ((float *)tmp)[ti] + (bt == 0 ? 0 : bt * cc[ci]);
                break;
            }
            case CB_BLAS_F64: {
                double *cc = c, bt = *(const double *)beta;
                cc[ci] = *(const double *)alpha * ((double *)tmp)[ti] + (bt == 0 ? 0 : bt * cc[ci]);
                break;
            }
            case CB_BLAS_C32: {
                float complex *cc = c, bt = herm ? *(const float *)beta : *(const float complex *)beta;
                float complex v = *(const float complex *)alpha * ((float complex *)tmp)[ti] + (bt == 0 ? 0 : bt * cc[ci]);
                cc[ci] = herm && i == j ? crealf(v) : v;
                break;
            }
            default: {
                double complex *cc = c, bt = herm ? *(const double *)beta : *(const double complex *)beta;
                double complex v = *(const double complex *)alpha * ((double complex *)tmp)[ti] + (bt == 0 ? 0 : bt * cc[ci]);
                cc[ci] = herm && i == j ? creal(v) : v;
                break;
            }
            }
        }
    }
    free(tmp);
    return CUDA_SUCCESS;
}

/* ---- f16 and bf16 vectors (cublasAxpyEx, ScalEx, DotEx, Nrm2Ex): computed
 * in f32, the execution type cuBLAS uses for them; scalars are f32. */

#include "backend/blas_elem.h"

static float lowp(cb_blas_type t, const void *x, int64_t i, int64_t n, int64_t inc)
{
    return (float)cb_blas_load(t, x, (size_t)(inc >= 0 ? i * inc : (n - 1 - i) * -inc)).re;
}

CUresult cpu_blas_lowp_axpy(cb_blas_type t, int64_t n, float alpha, const void *x, int64_t incx, void *y, int64_t incy)
{
    for (int64_t i = 0; i < n; i++) {
        size_t yi = (size_t)(incy >= 0 ? i * incy : (n - 1 - i) * -incy);
        float v = alpha * lowp(t, x, i, n, incx) + (float)cb_blas_load(t, y, yi).re;
        cb_blas_store(t, y, yi, (cb_cplx){v, 0});
    }
    return CUDA_SUCCESS;
}

CUresult cpu_blas_lowp_scal(cb_blas_type t, int64_t n, float alpha, void *x, int64_t incx)
{
    for (int64_t i = 0; i < n; i++)
        cb_blas_store(t, x, (size_t)(i * incx), (cb_cplx){alpha * (float)cb_blas_load(t, x, (size_t)(i * incx)).re, 0});
    return CUDA_SUCCESS;
}

CUresult cpu_blas_lowp_dot(cb_blas_type t, int64_t n, const void *x, int64_t incx, const void *y, int64_t incy,
                           float *result)
{
    float s = 0;
    for (int64_t i = 0; i < n; i++)
        s += lowp(t, x, i, n, incx) * lowp(t, y, i, n, incy);
    *result = s;
    return CUDA_SUCCESS;
}

CUresult cpu_blas_lowp_nrm2(cb_blas_type t, int64_t n, const void *x, int64_t incx, float *result)
{
    float s = 0;
    for (int64_t i = 0; i < n; i++) {
        float v = lowp(t, x, i, n, incx);
        s += v * v;
    }
    *result = sqrtf(s);
    return CUDA_SUCCESS;
}
