/* cpu_blas.c: the CPU backend's library interface, levels 1 to 3 on
 * OpenBLAS (cpu_blas.h). Each entry picks the S/D/C/Z routine for the
 * element type; what CBLAS lacks is in cpu_blas_loops.c, mixed precision
 * and LU in cpu_blas_gemm.c.
 *
 * Process-wide state: the OpenBLAS table, filled once (blas_once).
 */
#include "backend/cpu/cpu_blas.h"
#include "backend/cpu/cpu_dnn.h"

#include <stdlib.h>
#include <string.h>

#include "backend/cpu/cpu_internal.h"
#include "platform/dl.h"
#include "platform/thread.h"

static cb_once blas_once = CB_ONCE_INIT;
static cpu_blas blas;
static int blas_ok;

/* Debian's OpenBLAS (libopenblas0-pthread); the plain name last. */
static const char *const blas_names[] = {"libopenblas.so.0", "libopenblas.so"};

static void blas_load(void)
{
    const char *lib = NULL;
    for (size_t i = 0; i < sizeof blas_names / sizeof blas_names[0] && !lib; i++)
        if (cb_dl_library_symbol(blas_names[i], "cblas_sgemm"))
            lib = blas_names[i];
    if (!lib) {
        cb_log(CB_LOG_ERROR, "cannot load OpenBLAS (libopenblas.so.0; Debian: apt-get install libopenblas0-pthread): "
                                  "library calls answer NOT_SUPPORTED");
        return;
    }
    int missing = 0;
#define X(f)                                                                                                           \
    if (!(blas.f = (__typeof__(f) *)cb_dl_library_symbol(lib, #f))) {                                                  \
        cb_log(CB_LOG_ERROR, "OpenBLAS (%s) lacks %s", lib, #f);                                                  \
        missing = 1;                                                                                                   \
    }
    CPU_BLAS_FUNCS(X)
#undef X
#define X(f, ret, args)                                                                                                \
    if (!(blas.f = (ret(*) args)cb_dl_library_symbol(lib, #f))) {                                                      \
        cb_log(CB_LOG_ERROR, "OpenBLAS (%s) lacks %s", lib, #f);                                                  \
        missing = 1;                                                                                                   \
    }
    CPU_LAPACK_FUNCS(X)
#undef X
    blas_ok = !missing;
}

const cpu_blas *cpu_blas_get(void)
{
    cb_run_once(&blas_once, blas_load);
    return blas_ok ? &blas : NULL;
}

#define BLAS_OR_FAIL(bl)                                                                                               \
    const cpu_blas *bl = cpu_blas_get();                                                                               \
    if (!bl)                                                                                                           \
        return CUDA_ERROR_NOT_SUPPORTED

#define FITS4(a, b, c, d)                                                                                              \
    if (!cpu_blas_fits(a, b, c, d))                                                                                    \
    return CUDA_ERROR_NOT_SUPPORTED

#define F(p) (*(const float *)(p))
#define D(p) (*(const double *)(p))
#define P(a) CPU_PTR(a)
#define ORD CblasColMajor

/* ---- level 1 --------------------------------------------------------------- */

static CUresult cpu_axpy(cb_backend *be, cb_blas_type t, int64_t n, const void *alpha, uint64_t x, int64_t incx,
                         uint64_t y, int64_t incy)
{
    (void)be;
    BLAS_OR_FAIL(bl);
    FITS4(n, incx, incy, 0);
    switch (t) {
    case CB_BLAS_F32: bl->cblas_saxpy((int)n, F(alpha), P(x), (int)incx, P(y), (int)incy); break;
    case CB_BLAS_F64: bl->cblas_daxpy((int)n, D(alpha), P(x), (int)incx, P(y), (int)incy); break;
    case CB_BLAS_C32: bl->cblas_caxpy((int)n, alpha, P(x), (int)incx, P(y), (int)incy); break;
    case CB_BLAS_C64: bl->cblas_zaxpy((int)n, alpha, P(x), (int)incx, P(y), (int)incy); break;
    case CB_BLAS_F16:
    case CB_BLAS_BF16: return cpu_blas_lowp_axpy(t, n, F(alpha), P(x), incx, P(y), incy);
    default: return CUDA_ERROR_NOT_SUPPORTED;
    }
    return CUDA_SUCCESS;
}

static CUresult cpu_scal(cb_backend *be, cb_blas_type t, int64_t n, const void *alpha, int alpha_real, uint64_t x,
                         int64_t incx)
{
    (void)be;
    BLAS_OR_FAIL(bl);
    FITS4(n, incx, 0, 0);
    switch (t) {
    case CB_BLAS_F32: bl->cblas_sscal((int)n, F(alpha), P(x), (int)incx); break;
    case CB_BLAS_F64: bl->cblas_dscal((int)n, D(alpha), P(x), (int)incx); break;
    case CB_BLAS_C32:
        if (alpha_real)
            bl->cblas_csscal((int)n, F(alpha), P(x), (int)incx);
        else
            bl->cblas_cscal((int)n, alpha, P(x), (int)incx);
        break;
    case CB_BLAS_C64:
        if (alpha_real)
            bl->cblas_zdscal((int)n, D(alpha), P(x), (int)incx);
        else
            bl->cblas_zscal((int)n, alpha, P(x), (int)incx);
        break;
    case CB_BLAS_F16:
    case CB_BLAS_BF16: return cpu_blas_lowp_scal(t, n, F(alpha), P(x), incx);
    default: return CUDA_ERROR_NOT_SUPPORTED;
    }
    return CUDA_SUCCESS;
}

static CUresult cpu_copy(cb_backend *be, cb_blas_type t, int64_t n, uint64_t x, int64_t incx, uint64_t y, int64_t incy)
{
    (void)be;
    BLAS_OR_FAIL(bl);
    FITS4(n, incx, incy, 0);
    switch (t) {
    case CB_BLAS_F32: bl->cblas_scopy((int)n, P(x), (int)incx, P(y), (int)incy); break;
    case CB_BLAS_F64: bl->cblas_dcopy((int)n, P(x), (int)incx, P(y), (int)incy); break;
    case CB_BLAS_C32: bl->cblas_ccopy((int)n, P(x), (int)incx, P(y), (int)incy); break;
    case CB_BLAS_C64: bl->cblas_zcopy((int)n, P(x), (int)incx, P(y), (int)incy); break;
    default: return CUDA_ERROR_NOT_SUPPORTED;
    }
    return CUDA_SUCCESS;
}

static CUresult cpu_swap(cb_backend *be, cb_blas_type t, int64_t n, uint64_t x, int64_t incx, uint64_t y, int64_t incy)
{
    (void)be;
    BLAS_OR_FAIL(bl);
    FITS4(n, incx, incy, 0);
    switch (t) {
    case CB_BLAS_F32: bl->cblas_sswap((int)n, P(x), (int)incx, P(y), (int)incy); break;
    case CB_BLAS_F64: bl->cblas_dswap((int)n, P(x), (int)incx, P(y), (int)incy); break;
    case CB_BLAS_C32: bl->cblas_cswap((int)n, P(x), (int)incx, P(y), (int)incy); break;
    case CB_BLAS_C64: bl->cblas_zswap((int)n, P(x), (int)incx, P(y), (int)incy); break;
    default: return CUDA_ERROR_NOT_SUPPORTED;
    }
    return CUDA_SUCCESS;
}

static CUresult cpu_dot(cb_backend *be, cb_blas_type t, int conj, int64_t n, uint64_t x, int64_t incx, uint64_t y,
                        int64_t incy, void *result)
{
    (void)be;
    BLAS_OR_FAIL(bl);
    FITS4(n, incx, incy, 0);
    switch (t) {
    case CB_BLAS_F32: *(float *)result = bl->cblas_sdot((int)n, P(x), (int)incx, P(y), (int)incy); break;
    case CB_BLAS_F64: *(double *)result = bl->cblas_ddot((int)n, P(x), (int)incx, P(y), (int)incy); break;
    case CB_BLAS_C32:
        (conj ? bl->cblas_cdotc_sub : bl->cblas_cdotu_sub)((int)n, P(x), (int)incx, P(y), (int)incy, result);
        break;
    case CB_BLAS_C64:
        (conj ? bl->cblas_zdotc_sub : bl->cblas_zdotu_sub)((int)n, P(x), (int)incx, P(y), (int)incy, result);
        break;
    case CB_BLAS_F16:
    case CB_BLAS_BF16: return cpu_blas_lowp_dot(t, n, P(x), incx, P(y), incy, result);
    default: return CUDA_ERROR_NOT_SUPPORTED;
    }
    return CUDA_SUCCESS;
}

static CUresult cpu_nrm2(cb_backend *be, cb_blas_type t, int64_t n, uint64_t x, int64_t incx, void *result)
{
    (void)be;
    BLAS_OR_FAIL(bl);
    FITS4(n, incx, 0, 0);
    switch (t) {
    case CB_BLAS_F32: *(float *)result = bl->cblas_snrm2((int)n, P(x), (int)incx); break;
    case CB_BLAS_F64: *(double *)result = bl->cblas_dnrm2((int)n, P(x), (int)incx); break;
    case CB_BLAS_C32: *(float *)result = bl->cblas_scnrm2((int)n, P(x), (int)incx); break;
    case CB_BLAS_C64: *(double *)result = bl->cblas_dznrm2((int)n, P(x), (int)incx); break;
    case CB_BLAS_F16:
    case CB_BLAS_BF16: return cpu_blas_lowp_nrm2(t, n, P(x), incx, result);
    default: return CUDA_ERROR_NOT_SUPPORTED;
    }
    return CUDA_SUCCESS;
}

static CUresult cpu_asum(cb_backend *be, cb_blas_type t, int64_t n, uint64_t x, int64_t incx, void *result)
{
    (void)be;
    BLAS_OR_FAIL(bl);
    FITS4(n, incx, 0, 0);
    switch (t) {
    case CB_BLAS_F32: *(float *)result = bl->cblas_sasum((int)n, P(x), (int)incx); break;
    case CB_BLAS_F64: *(double *)result = bl->cblas_dasum((int)n, P(x), (int)incx); break;
    case CB_BLAS_C32: *(float *)result = bl->cblas_scasum((int)n, P(x), (int)incx); break;
    case CB_BLAS_C64: *(double *)result = bl->cblas_dzasum((int)n, P(x), (int)incx); break;
    default: return CUDA_ERROR_NOT_SUPPORTED;
    }
    return CUDA_SUCCESS;
}

static CUresult cpu_iamax(cb_backend *be, cb_blas_type t, int min, int64_t n, uint64_t x, int64_t incx, int64_t *result)
{
    (void)be;
    BLAS_OR_FAIL(bl);
    FITS4(n, incx, 0, 0);
    if (n <= 0 || incx <= 0) {
        *result = 0;
        return CUDA_SUCCESS;
    }
    size_t i;
    switch (t) {
    case CB_BLAS_F32: i = (min ? bl->cblas_isamin : bl->cblas_isamax)((int)n, P(x), (int)incx); break;
    case CB_BLAS_F64: i = (min ? bl->cblas_idamin : bl->cblas_idamax)((int)n, P(x), (int)incx); break;
    case CB_BLAS_C32: i = (min ? bl->cblas_icamin : bl->cblas_icamax)((int)n, P(x), (int)incx); break;
    case CB_BLAS_C64: i = (min ? bl->cblas_izamin : bl->cblas_izamax)((int)n, P(x), (int)incx); break;
    default: return CUDA_ERROR_NOT_SUPPORTED;
    }
    *result = (int64_t)i + 1;   /* CBLAS is 0-based, cuBLAS 1-based */
    return CUDA_SUCCESS;
}

static CUresult cpu_rot(cb_backend *be, cb_blas_type t, int64_t n, uint64_t x, int64_t incx, uint64_t y, int64_t incy,
                        const void *c, const void *s, int s_real)
{
    (void)be;
    BLAS_OR_FAIL(bl);
    FITS4(n, incx, incy, 0);
    switch (t) {
    case CB_BLAS_F32: bl->cblas_srot((int)n, P(x), (int)incx, P(y), (int)incy, F(c), F(s)); break;
    case CB_BLAS_F64: bl->cblas_drot((int)n, P(x), (int)incx, P(y), (int)incy, D(c), D(s)); break;
    case CB_BLAS_C32:
        if (!s_real)
            return cpu_blas_crot(t, n, P(x), incx, P(y), incy, c, s);
        bl->cblas_csrot((int)n, P(x), (int)incx, P(y), (int)incy, F(c), F(s));
        break;
    case CB_BLAS_C64:
        if (!s_real)
            return cpu_blas_crot(t, n, P(x), incx, P(y), incy, c, s);
        bl->cblas_zdrot((int)n, P(x), (int)incx, P(y), (int)incy, D(c), D(s));
        break;
    default: return CUDA_ERROR_NOT_SUPPORTED;
    }
    return CUDA_SUCCESS;
}

static CUresult cpu_rotg(cb_backend *be, cb_blas_type t, void *a, void *b, void *c, void *s)
{
    (void)be;
    BLAS_OR_FAIL(bl);
    switch (t) {
    case CB_BLAS_F32: bl->cblas_srotg(a, b, c, s); break;
    case CB_BLAS_F64: bl->cblas_drotg(a, b, c, s); break;
    case CB_BLAS_C32: bl->cblas_crotg(a, b, c, s); break;
    case CB_BLAS_C64: bl->cblas_zrotg(a, b, c, s); break;
    default: return CUDA_ERROR_NOT_SUPPORTED;
    }
    return CUDA_SUCCESS;
}

static CUresult cpu_rotm(cb_backend *be, cb_blas_type t, int64_t n, uint64_t x, int64_t incx, uint64_t y, int64_t incy,
                         const void *param)
{
    (void)be;
    BLAS_OR_FAIL(bl);
    FITS4(n, incx, incy, 0);
    switch (t) {
    case CB_BLAS_F32: bl->cblas_srotm((int)n, P(x), (int)incx, P(y), (int)incy, param); break;
    case CB_BLAS_F64: bl->cblas_drotm((int)n, P(x), (int)incx, P(y), (int)incy, param); break;
    default: return CUDA_ERROR_NOT_SUPPORTED;
    }
    return CUDA_SUCCESS;
}

static CUresult cpu_rotmg(cb_backend *be, cb_blas_type t, void *d1, void *d2, void *x1, const void *y1, void *param)
{
    (void)be;
    BLAS_OR_FAIL(bl);
    switch (t) {
    case CB_BLAS_F32: bl->cblas_srotmg(d1, d2, x1, F(y1), param); break;
    case CB_BLAS_F64: bl->cblas_drotmg(d1, d2, x1, D(y1), param); break;
    default: return CUDA_ERROR_NOT_SUPPORTED;
    }
    return CUDA_SUCCESS;
}

/* ---- level 2 --------------------------------------------------------------- */

static CUresult cpu_gemv(cb_backend *be, cb_blas_type t, int trans, int64_t m, int64_t n, const void *alpha, uint64_t a,
                         int64_t lda, uint64_t x, int64_t incx, const void *beta, uint64_t y, int64_t incy)
{
    (void)be;
    BLAS_OR_FAIL(bl);
    FITS4(m, n, lda, incx);
    FITS4(incy, 0, 0, 0);
    enum CBLAS_TRANSPOSE tr = cpu_trans(trans);
    /* incx 0: every element is x[0] (cuBLAS's answer; BLAS refuses it), as a copy with increment 1 */
    void *bcast = NULL;
    if (incx == 0) {
        size_t w = cb_blas_type_size(t);
        int64_t len = trans == CB_BLAS_OP_N ? n : m;
        if (!(bcast = malloc((size_t)len * w)))
            return CUDA_ERROR_OUT_OF_MEMORY;
        for (int64_t i = 0; i < len; i++)
            memcpy((char *)bcast + (size_t)i * w, P(x), w);
        x = (uint64_t)(uintptr_t)bcast;
        incx = 1;
    }
    switch (t) {
    case CB_BLAS_F32:
        bl->cblas_sgemv(ORD, tr, (int)m, (int)n, F(alpha), P(a), (int)lda, P(x), (int)incx, F(beta), P(y), (int)incy);
        break;
    case CB_BLAS_F64:
        bl->cblas_dgemv(ORD, tr, (int)m, (int)n, D(alpha), P(a), (int)lda, P(x), (int)incx, D(beta), P(y), (int)incy);
        break;
    case CB_BLAS_C32:
        bl->cblas_cgemv(ORD, tr, (int)m, (int)n, alpha, P(a), (int)lda, P(x), (int)incx, beta, P(y), (int)incy);
        break;
    case CB_BLAS_C64:
        bl->cblas_zgemv(ORD, tr, (int)m, (int)n, alpha, P(a), (int)lda, P(x), (int)incx, beta, P(y), (int)incy);
        break;
    default: free(bcast); return CUDA_ERROR_NOT_SUPPORTED;
    }
    free(bcast);
    return CUDA_SUCCESS;
}

static CUresult cpu_gbmv(cb_backend *be, cb_blas_type t, int trans, int64_t m, int64_t n, int64_t kl, int64_t ku,
                         const void *alpha, uint64_t a, int64_t lda, uint64_t x, int64_t incx, const void *beta,
                         uint64_t y, int64_t incy)
{
    (void)be;
    BLAS_OR_FAIL(bl);
    FITS4(m, n, lda, incx);
    FITS4(incy, kl, ku, 0);
    enum CBLAS_TRANSPOSE tr = cpu_trans(trans);
    int M = (int)m, N = (int)n, KL = (int)kl, KU = (int)ku, LDA = (int)lda, IX = (int)incx, IY = (int)incy;
    switch (t) {
    case CB_BLAS_F32: bl->cblas_sgbmv(ORD, tr, M, N, KL, KU, F(alpha), P(a), LDA, P(x), IX, F(beta), P(y), IY); break;
    case CB_BLAS_F64: bl->cblas_dgbmv(ORD, tr, M, N, KL, KU, D(alpha), P(a), LDA, P(x), IX, D(beta), P(y), IY); break;
    case CB_BLAS_C32: bl->cblas_cgbmv(ORD, tr, M, N, KL, KU, alpha, P(a), LDA, P(x), IX, beta, P(y), IY); break;
    case CB_BLAS_C64: bl->cblas_zgbmv(ORD, tr, M, N, KL, KU, alpha, P(a), LDA, P(x), IX, beta, P(y), IY); break;
    default: return CUDA_ERROR_NOT_SUPPORTED;
    }
    return CUDA_SUCCESS;
}

static CUresult cpu_ger(cb_backend *be, cb_blas_type t, int conj, int64_t m, int64_t n, const void *alpha, uint64_t x,
                        int64_t incx, uint64_t y, int64_t incy, uint64_t a, int64_t lda)
{
    (void)be;
    BLAS_OR_FAIL(bl);
    FITS4(m, n, lda, incx);
    FITS4(incy, 0, 0, 0);
    int M = (int)m, N = (int)n, LDA = (int)lda, IX = (int)incx, IY = (int)incy;
    switch (t) {
    case CB_BLAS_F32: bl->cblas_sger(ORD, M, N, F(alpha), P(x), IX, P(y), IY, P(a), LDA); break;
    case CB_BLAS_F64: bl->cblas_dger(ORD, M, N, D(alpha), P(x), IX, P(y), IY, P(a), LDA); break;
    case CB_BLAS_C32: (conj ? bl->cblas_cgerc : bl->cblas_cgeru)(ORD, M, N, alpha, P(x), IX, P(y), IY, P(a), LDA); break;
    case CB_BLAS_C64: (conj ? bl->cblas_zgerc : bl->cblas_zgeru)(ORD, M, N, alpha, P(x), IX, P(y), IY, P(a), LDA); break;
    default: return CUDA_ERROR_NOT_SUPPORTED;
    }
    return CUDA_SUCCESS;
}

static CUresult cpu_symv(cb_backend *be, cb_blas_type t, int herm, int uplo, int64_t n, const void *alpha, uint64_t a,
                         int64_t lda, uint64_t x, int64_t incx, const void *beta, uint64_t y, int64_t incy)
{
    (void)be;
    BLAS_OR_FAIL(bl);
    FITS4(n, lda, incx, incy);
    enum CBLAS_UPLO u = cpu_uplo(uplo);
    int N = (int)n, LDA = (int)lda, IX = (int)incx, IY = (int)incy;
    switch (t) {
    case CB_BLAS_F32: bl->cblas_ssymv(ORD, u, N, F(alpha), P(a), LDA, P(x), IX, F(beta), P(y), IY); break;
    case CB_BLAS_F64: bl->cblas_dsymv(ORD, u, N, D(alpha), P(a), LDA, P(x), IX, D(beta), P(y), IY); break;
    case CB_BLAS_C32:
        if (!herm)
            return cpu_blas_csymv(t, uplo, n, alpha, P(a), lda, P(x), incx, beta, P(y), incy);
        bl->cblas_chemv(ORD, u, N, alpha, P(a), LDA, P(x), IX, beta, P(y), IY);
        break;
    case CB_BLAS_C64:
        if (!herm)
            return cpu_blas_csymv(t, uplo, n, alpha, P(a), lda, P(x), incx, beta, P(y), incy);
        bl->cblas_zhemv(ORD, u, N, alpha, P(a), LDA, P(x), IX, beta, P(y), IY);
        break;
    default: return CUDA_ERROR_NOT_SUPPORTED;
    }
    return CUDA_SUCCESS;
}

static CUresult cpu_sbmv(cb_backend *be, cb_blas_type t, int herm, int uplo, int64_t n, int64_t k, const void *alpha,
                         uint64_t a, int64_t lda, uint64_t x, int64_t incx, const void *beta, uint64_t y, int64_t incy)
{
    (void)be;
    BLAS_OR_FAIL(bl);
    FITS4(n, lda, incx, incy);
    FITS4(k, 0, 0, 0);
    enum CBLAS_UPLO u = cpu_uplo(uplo);
    int N = (int)n, K = (int)k, LDA = (int)lda, IX = (int)incx, IY = (int)incy;
    if (cb_blas_type_complex(t) && !herm)
        return CUDA_ERROR_NOT_SUPPORTED;
    switch (t) {
    case CB_BLAS_F32: bl->cblas_ssbmv(ORD, u, N, K, F(alpha), P(a), LDA, P(x), IX, F(beta), P(y), IY); break;
    case CB_BLAS_F64: bl->cblas_dsbmv(ORD, u, N, K, D(alpha), P(a), LDA, P(x), IX, D(beta), P(y), IY); break;
    case CB_BLAS_C32: bl->cblas_chbmv(ORD, u, N, K, alpha, P(a), LDA, P(x), IX, beta, P(y), IY); break;
    case CB_BLAS_C64: bl->cblas_zhbmv(ORD, u, N, K, alpha, P(a), LDA, P(x), IX, beta, P(y), IY); break;
    default: return CUDA_ERROR_NOT_SUPPORTED;
    }
    return CUDA_SUCCESS;
}

static CUresult cpu_spmv(cb_backend *be, cb_blas_type t, int herm, int uplo, int64_t n, const void *alpha, uint64_t ap,
                         uint64_t x, int64_t incx, const void *beta, uint64_t y, int64_t incy)
{
    (void)be;
    BLAS_OR_FAIL(bl);
    FITS4(n, incx, incy, 0);
    enum CBLAS_UPLO u = cpu_uplo(uplo);
    int N = (int)n, IX = (int)incx, IY = (int)incy;
    if (cb_blas_type_complex(t) && !herm)
        return CUDA_ERROR_NOT_SUPPORTED;
    switch (t) {
    case CB_BLAS_F32: bl->cblas_sspmv(ORD, u, N, F(alpha), P(ap), P(x), IX, F(beta), P(y), IY); break;
    case CB_BLAS_F64: bl->cblas_dspmv(ORD, u, N, D(alpha), P(ap), P(x), IX, D(beta), P(y), IY); break;
    case CB_BLAS_C32: bl->cblas_chpmv(ORD, u, N, alpha, P(ap), P(x), IX, beta, P(y), IY); break;
    case CB_BLAS_C64: bl->cblas_zhpmv(ORD, u, N, alpha, P(ap), P(x), IX, beta, P(y), IY); break;
    default: return CUDA_ERROR_NOT_SUPPORTED;
    }
    return CUDA_SUCCESS;
}

static CUresult cpu_syr(cb_backend *be, cb_blas_type t, int herm, int uplo, int64_t n, const void *alpha, uint64_t x,
                        int64_t incx, uint64_t a, int64_t lda)
{
    (void)be;
    BLAS_OR_FAIL(bl);
    FITS4(n, incx, lda, 0);
    enum CBLAS_UPLO u = cpu_uplo(uplo);
    int N = (int)n, IX = (int)incx, LDA = (int)lda;
    switch (t) {
    case CB_BLAS_F32: bl->cblas_ssyr(ORD, u, N, F(alpha), P(x), IX, P(a), LDA); break;
    case CB_BLAS_F64: bl->cblas_dsyr(ORD, u, N, D(alpha), P(x), IX, P(a), LDA); break;
    case CB_BLAS_C32:
        if (!herm)
            return cpu_blas_csyr(t, uplo, n, alpha, P(x), incx, P(a), lda, NULL, 0);
        bl->cblas_cher(ORD, u, N, F(alpha), P(x), IX, P(a), LDA);
        break;
    case CB_BLAS_C64:
        if (!herm)
            return cpu_blas_csyr(t, uplo, n, alpha, P(x), incx, P(a), lda, NULL, 0);
        bl->cblas_zher(ORD, u, N, D(alpha), P(x), IX, P(a), LDA);
        break;
    default: return CUDA_ERROR_NOT_SUPPORTED;
    }
    return CUDA_SUCCESS;
}

static CUresult cpu_spr(cb_backend *be, cb_blas_type t, int herm, int uplo, int64_t n, const void *alpha, uint64_t x,
                        int64_t incx, uint64_t ap)
{
    (void)be;
    BLAS_OR_FAIL(bl);
    FITS4(n, incx, 0, 0);
    enum CBLAS_UPLO u = cpu_uplo(uplo);
    if (cb_blas_type_complex(t) && !herm)
        return CUDA_ERROR_NOT_SUPPORTED;
    switch (t) {
    case CB_BLAS_F32: bl->cblas_sspr(ORD, u, (int)n, F(alpha), P(x), (int)incx, P(ap)); break;
    case CB_BLAS_F64: bl->cblas_dspr(ORD, u, (int)n, D(alpha), P(x), (int)incx, P(ap)); break;
    case CB_BLAS_C32: bl->cblas_chpr(ORD, u, (int)n, F(alpha), P(x), (int)incx, P(ap)); break;
    case CB_BLAS_C64: bl->cblas_zhpr(ORD, u, (int)n, D(alpha), P(x), (int)incx, P(ap)); break;
    default: return CUDA_ERROR_NOT_SUPPORTED;
    }
    return CUDA_SUCCESS;
}

static CUresult cpu_syr2(cb_backend *be, cb_blas_type t, int herm, int uplo, int64_t n, const void *alpha, uint64_t x,
                         int64_t incx, uint64_t y, int64_t incy, uint64_t a, int64_t lda)
{
    (void)be;
    BLAS_OR_FAIL(bl);
    FITS4(n, incx, incy, lda);
    enum CBLAS_UPLO u = cpu_uplo(uplo);
    int N = (int)n, IX = (int)incx, IY = (int)incy, LDA = (int)lda;
    switch (t) {
    case CB_BLAS_F32: bl->cblas_ssyr2(ORD, u, N, F(alpha), P(x), IX, P(y), IY, P(a), LDA); break;
    case CB_BLAS_F64: bl->cblas_dsyr2(ORD, u, N, D(alpha), P(x), IX, P(y), IY, P(a), LDA); break;
    case CB_BLAS_C32:
        if (!herm)
            return cpu_blas_csyr(t, uplo, n, alpha, P(x), incx, P(a), lda, P(y), incy);
        bl->cblas_cher2(ORD, u, N, alpha, P(x), IX, P(y), IY, P(a), LDA);
        break;
    case CB_BLAS_C64:
        if (!herm)
            return cpu_blas_csyr(t, uplo, n, alpha, P(x), incx, P(a), lda, P(y), incy);
        bl->cblas_zher2(ORD, u, N, alpha, P(x), IX, P(y), IY, P(a), LDA);
        break;
    default: return CUDA_ERROR_NOT_SUPPORTED;
    }
    return CUDA_SUCCESS;
}

static CUresult cpu_spr2(cb_backend *be, cb_blas_type t, int herm, int uplo, int64_t n, const void *alpha, uint64_t x,
                         int64_t incx, uint64_t y, int64_t incy, uint64_t ap)
{
    (void)be;
    BLAS_OR_FAIL(bl);
    FITS4(n, incx, incy, 0);
    enum CBLAS_UPLO u = cpu_uplo(uplo);
    int N = (int)n, IX = (int)incx, IY = (int)incy;
    if (cb_blas_type_complex(t) && !herm)
        return CUDA_ERROR_NOT_SUPPORTED;
    switch (t) {
    case CB_BLAS_F32: bl->cblas_sspr2(ORD, u, N, F(alpha), P(x), IX, P(y), IY, P(ap)); break;
    case CB_BLAS_F64: bl->cblas_dspr2(ORD, u, N, D(alpha), P(x), IX, P(y), IY, P(ap)); break;
    case CB_BLAS_C32: bl->cblas_chpr2(ORD, u, N, alpha, P(x), IX, P(y), IY, P(ap)); break;
    case CB_BLAS_C64: bl->cblas_zhpr2(ORD, u, N, alpha, P(x), IX, P(y), IY, P(ap)); break;
    default: return CUDA_ERROR_NOT_SUPPORTED;
    }
    return CUDA_SUCCESS;
}

static CUresult cpu_trmv(cb_backend *be, cb_blas_type t, int solve, int form, int uplo, int trans, int diag, int64_t n,
                         int64_t k, uint64_t a, int64_t lda, uint64_t x, int64_t incx)
{
    (void)be;
    BLAS_OR_FAIL(bl);
    FITS4(n, k, lda, incx);
    enum CBLAS_UPLO u = cpu_uplo(uplo);
    enum CBLAS_TRANSPOSE tr = cpu_trans(trans);
    enum CBLAS_DIAG dg = cpu_diag(diag);
    int N = (int)n, K = (int)k, LDA = (int)lda, IX = (int)incx;
    int which = solve * 3 + form;   /* trmv tbmv tpmv trsv tbsv tpsv */
#define TRI(pre)                                                                                                       \
    switch (which) {                                                                                                   \
    case 0: bl->cblas_##pre##trmv(ORD, u, tr, dg, N, P(a), LDA, P(x), IX); break;                                      \
    case 1: bl->cblas_##pre##tbmv(ORD, u, tr, dg, N, K, P(a), LDA, P(x), IX); break;                                   \
    case 2: bl->cblas_##pre##tpmv(ORD, u, tr, dg, N, P(a), P(x), IX); break;                                           \
    case 3: bl->cblas_##pre##trsv(ORD, u, tr, dg, N, P(a), LDA, P(x), IX); break;                                      \
    case 4: bl->cblas_##pre##tbsv(ORD, u, tr, dg, N, K, P(a), LDA, P(x), IX); break;                                   \
    default: bl->cblas_##pre##tpsv(ORD, u, tr, dg, N, P(a), P(x), IX); break;                                          \
    }
    switch (t) {
    case CB_BLAS_F32: TRI(s) break;
    case CB_BLAS_F64: TRI(d) break;
    case CB_BLAS_C32: TRI(c) break;
    case CB_BLAS_C64: TRI(z) break;
    default: return CUDA_ERROR_NOT_SUPPORTED;
    }
#undef TRI
    return CUDA_SUCCESS;
}

/* ---- level 3 --------------------------------------------------------------- */

static CUresult cpu_gemm(cb_backend *be, cb_blas_type t, int trans_a, int trans_b, int64_t m, int64_t n, int64_t k,
                         const void *alpha, uint64_t a, int64_t lda, uint64_t b, int64_t ldb, const void *beta,
                         uint64_t c, int64_t ldc)
{
    (void)be;
    BLAS_OR_FAIL(bl);
    FITS4(m, n, k, lda);
    FITS4(ldb, ldc, 0, 0);
    enum CBLAS_TRANSPOSE ta = cpu_trans(trans_a), tb = cpu_trans(trans_b);
    int M = (int)m, N = (int)n, K = (int)k, LDA = (int)lda, LDB = (int)ldb, LDC = (int)ldc;
    switch (t) {
    case CB_BLAS_F32: bl->cblas_sgemm(ORD, ta, tb, M, N, K, F(alpha), P(a), LDA, P(b), LDB, F(beta), P(c), LDC); break;
    case CB_BLAS_F64: bl->cblas_dgemm(ORD, ta, tb, M, N, K, D(alpha), P(a), LDA, P(b), LDB, D(beta), P(c), LDC); break;
    case CB_BLAS_C32: bl->cblas_cgemm(ORD, ta, tb, M, N, K, alpha, P(a), LDA, P(b), LDB, beta, P(c), LDC); break;
    case CB_BLAS_C64: bl->cblas_zgemm(ORD, ta, tb, M, N, K, alpha, P(a), LDA, P(b), LDB, beta, P(c), LDC); break;
    default: return CUDA_ERROR_NOT_SUPPORTED;
    }
    return CUDA_SUCCESS;
}

static CUresult cpu_symm(cb_backend *be, cb_blas_type t, int herm, int side, int uplo, int64_t m, int64_t n,
                         const void *alpha, uint64_t a, int64_t lda, uint64_t b, int64_t ldb, const void *beta,
                         uint64_t c, int64_t ldc)
{
    (void)be;
    BLAS_OR_FAIL(bl);
    FITS4(m, n, lda, ldb);
    FITS4(ldc, 0, 0, 0);
    enum CBLAS_SIDE sd = cpu_side(side);
    enum CBLAS_UPLO u = cpu_uplo(uplo);
    int M = (int)m, N = (int)n, LDA = (int)lda, LDB = (int)ldb, LDC = (int)ldc;
    switch (t) {
    case CB_BLAS_F32: bl->cblas_ssymm(ORD, sd, u, M, N, F(alpha), P(a), LDA, P(b), LDB, F(beta), P(c), LDC); break;
    case CB_BLAS_F64: bl->cblas_dsymm(ORD, sd, u, M, N, D(alpha), P(a), LDA, P(b), LDB, D(beta), P(c), LDC); break;
    case CB_BLAS_C32:
        (herm ? bl->cblas_chemm : bl->cblas_csymm)(ORD, sd, u, M, N, alpha, P(a), LDA, P(b), LDB, beta, P(c), LDC);
        break;
    case CB_BLAS_C64:
        (herm ? bl->cblas_zhemm : bl->cblas_zsymm)(ORD, sd, u, M, N, alpha, P(a), LDA, P(b), LDB, beta, P(c), LDC);
        break;
    default: return CUDA_ERROR_NOT_SUPPORTED;
    }
    return CUDA_SUCCESS;
}

static CUresult cpu_syrk(cb_backend *be, cb_blas_type t, int herm, int uplo, int trans, int64_t n, int64_t k,
                         const void *alpha, uint64_t a, int64_t lda, const void *beta, uint64_t c, int64_t ldc)
{
    (void)be;
    BLAS_OR_FAIL(bl);
    FITS4(n, k, lda, ldc);
    enum CBLAS_UPLO u = cpu_uplo(uplo);
    enum CBLAS_TRANSPOSE tr = cpu_trans(trans);
    int N = (int)n, K = (int)k, LDA = (int)lda, LDC = (int)ldc;
    switch (t) {
    case CB_BLAS_F32: bl->cblas_ssyrk(ORD, u, tr, N, K, F(alpha), P(a), LDA, F(beta), P(c), LDC); break;
    case CB_BLAS_F64: bl->cblas_dsyrk(ORD, u, tr, N, K, D(alpha), P(a), LDA, D(beta), P(c), LDC); break;
    case CB_BLAS_C32:
        if (herm)
            bl->cblas_cherk(ORD, u, tr, N, K, F(alpha), P(a), LDA, F(beta), P(c), LDC);
        else
            bl->cblas_csyrk(ORD, u, tr, N, K, alpha, P(a), LDA, beta, P(c), LDC);
        break;
    case CB_BLAS_C64:
        if (herm)
            bl->cblas_zherk(ORD, u, tr, N, K, D(alpha), P(a), LDA, D(beta), P(c), LDC);
        else
            bl->cblas_zsyrk(ORD, u, tr, N, K, alpha, P(a), LDA, beta, P(c), LDC);
        break;
    default: return CUDA_ERROR_NOT_SUPPORTED;
    }
    return CUDA_SUCCESS;
}

static CUresult cpu_syr2k(cb_backend *be, cb_blas_type t, int herm, int x, int uplo, int trans, int64_t n, int64_t k,
                          const void *alpha, uint64_t a, int64_t lda, uint64_t b, int64_t ldb, const void *beta,
                          uint64_t c, int64_t ldc)
{
    (void)be;
    if (x)
        return cpu_blas_syrkx(t, herm, uplo, trans, n, k, alpha, P(a), lda, P(b), ldb, beta, P(c), ldc);
    BLAS_OR_FAIL(bl);
    FITS4(n, k, lda, ldc);
    FITS4(ldb, 0, 0, 0);
    enum CBLAS_UPLO u = cpu_uplo(uplo);
    enum CBLAS_TRANSPOSE tr = cpu_trans(trans);
    int N = (int)n, K = (int)k, LDA = (int)lda, LDB = (int)ldb, LDC = (int)ldc;
    switch (t) {
    case CB_BLAS_F32: bl->cblas_ssyr2k(ORD, u, tr, N, K, F(alpha), P(a), LDA, P(b), LDB, F(beta), P(c), LDC); break;
    case CB_BLAS_F64: bl->cblas_dsyr2k(ORD, u, tr, N, K, D(alpha), P(a), LDA, P(b), LDB, D(beta), P(c), LDC); break;
    case CB_BLAS_C32:
        if (herm)
            bl->cblas_cher2k(ORD, u, tr, N, K, alpha, P(a), LDA, P(b), LDB, F(beta), P(c), LDC);
        else
            bl->cblas_csyr2k(ORD, u, tr, N, K, alpha, P(a), LDA, P(b), LDB, beta, P(c), LDC);
        break;
    case CB_BLAS_C64:
        if (herm)
            bl->cblas_zher2k(ORD, u, tr, N, K, alpha, P(a), LDA, P(b), LDB, D(beta), P(c), LDC);
        else
            bl->cblas_zsyr2k(ORD, u, tr, N, K, alpha, P(a), LDA, P(b), LDB, beta, P(c), LDC);
        break;
    default: return CUDA_ERROR_NOT_SUPPORTED;
    }
    return CUDA_SUCCESS;
}

static CUresult cpu_trmm(cb_backend *be, cb_blas_type t, int side, int uplo, int trans, int diag, int64_t m, int64_t n,
                         const void *alpha, uint64_t a, int64_t lda, uint64_t b, int64_t ldb, uint64_t c, int64_t ldc)
{
    (void)be;
    BLAS_OR_FAIL(bl);
    FITS4(m, n, lda, ldb);
    FITS4(ldc, 0, 0, 0);
    /* cuBLAS's trmm is out of place: C = alpha op(A) B. BLAS's is in place. */
    if (c != b || ldc != ldb)
        cpu_blas_copy_matrix(t, m, n, P(b), ldb, P(c), ldc);
    enum CBLAS_SIDE sd = cpu_side(side);
    enum CBLAS_UPLO u = cpu_uplo(uplo);
    enum CBLAS_TRANSPOSE tr = cpu_trans(trans);
    enum CBLAS_DIAG dg = cpu_diag(diag);
    int M = (int)m, N = (int)n, LDA = (int)lda, LDC = (int)ldc;
    switch (t) {
    case CB_BLAS_F32: bl->cblas_strmm(ORD, sd, u, tr, dg, M, N, F(alpha), P(a), LDA, P(c), LDC); break;
    case CB_BLAS_F64: bl->cblas_dtrmm(ORD, sd, u, tr, dg, M, N, D(alpha), P(a), LDA, P(c), LDC); break;
    case CB_BLAS_C32: bl->cblas_ctrmm(ORD, sd, u, tr, dg, M, N, alpha, P(a), LDA, P(c), LDC); break;
    case CB_BLAS_C64: bl->cblas_ztrmm(ORD, sd, u, tr, dg, M, N, alpha, P(a), LDA, P(c), LDC); break;
    default: return CUDA_ERROR_NOT_SUPPORTED;
    }
    return CUDA_SUCCESS;
}

static CUresult cpu_trsm(cb_backend *be, cb_blas_type t, int side, int uplo, int trans, int diag, int64_t m, int64_t n,
                         const void *alpha, uint64_t a, int64_t lda, uint64_t b, int64_t ldb)
{
    (void)be;
    BLAS_OR_FAIL(bl);
    FITS4(m, n, lda, ldb);
    enum CBLAS_SIDE sd = cpu_side(side);
    enum CBLAS_UPLO u = cpu_uplo(uplo);
    enum CBLAS_TRANSPOSE tr = cpu_trans(trans);
    enum CBLAS_DIAG dg = cpu_diag(diag);
    int M = (int)m, N = (int)n, LDA = (int)lda, LDB = (int)ldb;
    switch (t) {
    case CB_BLAS_F32: bl->cblas_strsm(ORD, sd, u, tr, dg, M, N, F(alpha), P(a), LDA, P(b), LDB); break;
    case CB_BLAS_F64: bl->cblas_dtrsm(ORD, sd, u, tr, dg, M, N, D(alpha), P(a), LDA, P(b), LDB); break;
    case CB_BLAS_C32: bl->cblas_ctrsm(ORD, sd, u, tr, dg, M, N, alpha, P(a), LDA, P(b), LDB); break;
    case CB_BLAS_C64: bl->cblas_ztrsm(ORD, sd, u, tr, dg, M, N, alpha, P(a), LDA, P(b), LDB); break;
    default: return CUDA_ERROR_NOT_SUPPORTED;
    }
    return CUDA_SUCCESS;
}

static CUresult cpu_geam(cb_backend *be, cb_blas_type t, int trans_a, int trans_b, int64_t m, int64_t n,
                         const void *alpha, uint64_t a, int64_t lda, const void *beta, uint64_t b, int64_t ldb,
                         uint64_t c, int64_t ldc)
{
    (void)be;
    return cpu_blas_geam(t, trans_a, trans_b, m, n, alpha, P(a), lda, beta, P(b), ldb, P(c), ldc);
}

static CUresult cpu_dgmm(cb_backend *be, cb_blas_type t, int side, int64_t m, int64_t n, uint64_t a, int64_t lda,
                         uint64_t x, int64_t incx, uint64_t c, int64_t ldc)
{
    (void)be;
    return cpu_blas_dgmm(t, side, m, n, P(a), lda, P(x), incx, P(c), ldc);
}

static const cb_backend_lib cpu_lib = {
    .size = sizeof(cb_backend_lib),
    .axpy = cpu_axpy,
    .scal = cpu_scal,
    .copy = cpu_copy,
    .swap = cpu_swap,
    .dot = cpu_dot,
    .nrm2 = cpu_nrm2,
    .asum = cpu_asum,
    .iamax = cpu_iamax,
    .rot = cpu_rot,
    .rotg = cpu_rotg,
    .rotm = cpu_rotm,
    .rotmg = cpu_rotmg,
    .gemv = cpu_gemv,
    .gbmv = cpu_gbmv,
    .ger = cpu_ger,
    .symv = cpu_symv,
    .sbmv = cpu_sbmv,
    .spmv = cpu_spmv,
    .syr = cpu_syr,
    .spr = cpu_spr,
    .syr2 = cpu_syr2,
    .spr2 = cpu_spr2,
    .trmv = cpu_trmv,
    .gemm = cpu_gemm,
    .symm = cpu_symm,
    .syrk = cpu_syrk,
    .syr2k = cpu_syr2k,
    .trmm = cpu_trmm,
    .trsm = cpu_trsm,
    .geam = cpu_geam,
    .dgmm = cpu_dgmm,
    .gemm_ex = cpu_blas_gemm_ex,
    .getrf = cpu_blas_getrf,
    .getrs = cpu_blas_getrs,
    .getri = cpu_blas_getri,
    .matinv = cpu_blas_matinv,
    .dnn_conv = cpu_dnn_conv,
};

const cb_backend_lib *cb_cpu_blas_lib(void) { return &cpu_lib; }
