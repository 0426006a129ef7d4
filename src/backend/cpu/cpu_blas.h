/* cpu_blas.h: the CPU backend's library interface (backend_lib.h), shared
 * by cpu_blas.c (OpenBLAS dispatch, levels 1-3), cpu_blas_loops.c (what
 * BLAS lacks: complex symmetric forms, geam, dgmm, syrkx) and
 * cpu_blas_gemm.c (mixed precision, epilogues, LU).
 *
 * OpenBLAS (Debian's libopenblas0-pthread: CBLAS and LAPACK in one
 * library) is loaded with dlopen on the first library call, not linked, so
 * that programs which never call a library do not start its thread pool.
 * Device addresses are host addresses here (the CPU backend's arena).
 */
#ifndef CB_CPU_BLAS_H
#define CB_CPU_BLAS_H

#include <cblas.h>
#include <complex.h>
#include <limits.h>
#include <stdint.h>

#include "backend/backend.h"
#include "backend/backend_lib.h"

/* The OpenBLAS entry points used, resolved by name. */
#define CPU_BLAS_FUNCS(X)                                                                                              \
    X(cblas_saxpy) X(cblas_daxpy) X(cblas_caxpy) X(cblas_zaxpy)                                                        \
    X(cblas_sscal) X(cblas_dscal) X(cblas_cscal) X(cblas_zscal) X(cblas_csscal) X(cblas_zdscal)                        \
    X(cblas_scopy) X(cblas_dcopy) X(cblas_ccopy) X(cblas_zcopy)                                                        \
    X(cblas_sswap) X(cblas_dswap) X(cblas_cswap) X(cblas_zswap)                                                        \
    X(cblas_sdot) X(cblas_ddot) X(cblas_cdotu_sub) X(cblas_cdotc_sub) X(cblas_zdotu_sub) X(cblas_zdotc_sub)            \
    X(cblas_snrm2) X(cblas_dnrm2) X(cblas_scnrm2) X(cblas_dznrm2)                                                      \
    X(cblas_sasum) X(cblas_dasum) X(cblas_scasum) X(cblas_dzasum)                                                      \
    X(cblas_isamax) X(cblas_idamax) X(cblas_icamax) X(cblas_izamax)                                                    \
    X(cblas_isamin) X(cblas_idamin) X(cblas_icamin) X(cblas_izamin)                                                    \
    X(cblas_srot) X(cblas_drot) X(cblas_csrot) X(cblas_zdrot) X(cblas_srotg) X(cblas_drotg) X(cblas_crotg) X(cblas_zrotg) X(cblas_srotm) X(cblas_drotm)                            \
    X(cblas_srotmg) X(cblas_drotmg)                                                                                    \
    X(cblas_sgemv) X(cblas_dgemv) X(cblas_cgemv) X(cblas_zgemv)                                                        \
    X(cblas_sgbmv) X(cblas_dgbmv) X(cblas_cgbmv) X(cblas_zgbmv)                                                        \
    X(cblas_sger) X(cblas_dger) X(cblas_cgeru) X(cblas_cgerc) X(cblas_zgeru) X(cblas_zgerc)                            \
    X(cblas_ssymv) X(cblas_dsymv) X(cblas_chemv) X(cblas_zhemv)                                                        \
    X(cblas_ssbmv) X(cblas_dsbmv) X(cblas_chbmv) X(cblas_zhbmv)                                                        \
    X(cblas_sspmv) X(cblas_dspmv) X(cblas_chpmv) X(cblas_zhpmv)                                                        \
    X(cblas_ssyr) X(cblas_dsyr) X(cblas_cher) X(cblas_zher)                                                            \
    X(cblas_sspr) X(cblas_dspr) X(cblas_chpr) X(cblas_zhpr)                                                            \
    X(cblas_ssyr2) X(cblas_dsyr2) X(cblas_cher2) X(cblas_zher2)                                                        \
    X(cblas_sspr2) X(cblas_dspr2) X(cblas_chpr2) X(cblas_zhpr2)                                                        \
    X(cblas_strmv) X(cblas_dtrmv) X(cblas_ctrmv) X(cblas_ztrmv)                                                        \
    X(cblas_stbmv) X(cblas_dtbmv) X(cblas_ctbmv) X(cblas_ztbmv)                                                        \
    X(cblas_stpmv) X(cblas_dtpmv) X(cblas_ctpmv) X(cblas_ztpmv)                                                        \
    X(cblas_strsv) X(cblas_dtrsv) X(cblas_ctrsv) X(cblas_ztrsv)                                                        \
    X(cblas_stbsv) X(cblas_dtbsv) X(cblas_ctbsv) X(cblas_ztbsv)                                                        \
    X(cblas_stpsv) X(cblas_dtpsv) X(cblas_ctpsv) X(cblas_ztpsv)                                                        \
    X(cblas_sgemm) X(cblas_dgemm) X(cblas_cgemm) X(cblas_zgemm)                                                        \
    X(cblas_ssymm) X(cblas_dsymm) X(cblas_csymm) X(cblas_zsymm) X(cblas_chemm) X(cblas_zhemm)                          \
    X(cblas_ssyrk) X(cblas_dsyrk) X(cblas_csyrk) X(cblas_zsyrk) X(cblas_cherk) X(cblas_zherk)                          \
    X(cblas_ssyr2k) X(cblas_dsyr2k) X(cblas_csyr2k) X(cblas_zsyr2k) X(cblas_cher2k) X(cblas_zher2k)                    \
    X(cblas_strmm) X(cblas_dtrmm) X(cblas_ctrmm) X(cblas_ztrmm)                                                        \
    X(cblas_strsm) X(cblas_dtrsm) X(cblas_ctrsm) X(cblas_ztrsm)

/* LAPACK (Fortran calling convention), declared here: Debian ships no
 * LAPACKE header with OpenBLAS. */
#define CPU_LAPACK_FUNCS(X)                                                                                            \
    X(sgetrf_, void, (const int *, const int *, float *, const int *, int *, int *))                                   \
    X(dgetrf_, void, (const int *, const int *, double *, const int *, int *, int *))                                  \
    X(cgetrf_, void, (const int *, const int *, void *, const int *, int *, int *))                                    \
    X(zgetrf_, void, (const int *, const int *, void *, const int *, int *, int *))                                    \
    X(sgetrs_, void, (const char *, const int *, const int *, const float *, const int *, const int *, float *,       \
                      const int *, int *, size_t))                                                                     \
    X(dgetrs_, void, (const char *, const int *, const int *, const double *, const int *, const int *, double *,     \
                      const int *, int *, size_t))                                                                     \
    X(cgetrs_, void, (const char *, const int *, const int *, const void *, const int *, const int *, void *,         \
                      const int *, int *, size_t))                                                                     \
    X(zgetrs_, void, (const char *, const int *, const int *, const void *, const int *, const int *, void *,         \
                      const int *, int *, size_t))                                                                     \
    X(sgetri_, void, (const int *, float *, const int *, const int *, float *, const int *, int *))                    \
    X(dgetri_, void, (const int *, double *, const int *, const int *, double *, const int *, int *))                  \
    X(cgetri_, void, (const int *, void *, const int *, const int *, void *, const int *, int *))                      \
    X(zgetri_, void, (const int *, void *, const int *, const int *, void *, const int *, int *))

typedef struct cpu_blas {
#define X(f) __typeof__(f) *f;
    CPU_BLAS_FUNCS(X)
#undef X
#define X(f, ret, args) ret (*f) args;
    CPU_LAPACK_FUNCS(X)
#undef X
} cpu_blas;

/* OpenBLAS, loaded on first use; NULL (logged once) when it cannot be. */
const cpu_blas *cpu_blas_get(void);

/* The host view of a device address (the identity for this backend). */
#define CPU_PTR(addr) ((void *)(uintptr_t)(addr))

/* 1 when every size fits OpenBLAS's 32-bit integers. */
static inline int cpu_blas_fits(int64_t a, int64_t b, int64_t c, int64_t d)
{
    return a <= INT_MAX && b <= INT_MAX && c <= INT_MAX && d <= INT_MAX && a >= INT_MIN && b >= INT_MIN &&
           c >= INT_MIN && d >= INT_MIN;
}

static inline enum CBLAS_TRANSPOSE cpu_trans(int t)
{
    return t == CB_BLAS_OP_N ? CblasNoTrans : t == CB_BLAS_OP_T ? CblasTrans : CblasConjTrans;
}
static inline enum CBLAS_UPLO cpu_uplo(int u) { return u == CB_BLAS_UPPER ? CblasUpper : CblasLower; }
static inline enum CBLAS_DIAG cpu_diag(int d) { return d == CB_BLAS_UNIT ? CblasUnit : CblasNonUnit; }
static inline enum CBLAS_SIDE cpu_side(int s) { return s == CB_BLAS_RIGHT ? CblasRight : CblasLeft; }

/* ---- the loops BLAS lacks (cpu_blas_loops.c) ---------------------------- */

/* Complex symmetric (not Hermitian) symv, syr, syr2, for C32/C64. */
CUresult cpu_blas_csymv(cb_blas_type t, int uplo, int64_t n, const void *alpha, const void *a, int64_t lda,
                        const void *x, int64_t incx, const void *beta, void *y, int64_t incy);
CUresult cpu_blas_csyr(cb_blas_type t, int uplo, int64_t n, const void *alpha, const void *x, int64_t incx, void *a,
                       int64_t lda, const void *y, int64_t incy);   /* y == NULL: syr, else syr2 */
CUresult cpu_blas_geam(cb_blas_type t, int trans_a, int trans_b, int64_t m, int64_t n, const void *alpha,
                       const void *a, int64_t lda, const void *beta, const void *b, int64_t ldb, void *c, int64_t ldc);
CUresult cpu_blas_dgmm(cb_blas_type t, int side, int64_t m, int64_t n, const void *a, int64_t lda, const void *x,
                       int64_t incx, void *c, int64_t ldc);
CUresult cpu_blas_syrkx(cb_blas_type t, int herm, int uplo, int trans, int64_t n, int64_t k, const void *alpha,
                        const void *a, int64_t lda, const void *b, int64_t ldb, const void *beta, void *c,
                        int64_t ldc);
/* Complex rot with a complex s (Crot, Zrot): BLAS has only the real-s form. */
CUresult cpu_blas_crot(cb_blas_type t, int64_t n, void *x, int64_t incx, void *y, int64_t incy, const void *c,
                       const void *s);
/* f16/bf16 vectors in f32 (scalars and results f32). */
CUresult cpu_blas_lowp_axpy(cb_blas_type t, int64_t n, float alpha, const void *x, int64_t incx, void *y, int64_t incy);
CUresult cpu_blas_lowp_scal(cb_blas_type t, int64_t n, float alpha, void *x, int64_t incx);
CUresult cpu_blas_lowp_dot(cb_blas_type t, int64_t n, const void *x, int64_t incx, const void *y, int64_t incy,
                           float *result);
CUresult cpu_blas_lowp_nrm2(cb_blas_type t, int64_t n, const void *x, int64_t incx, float *result);
/* Copies an m x n matrix (elements of t) from a (lda) to c (ldc). */
void cpu_blas_copy_matrix(cb_blas_type t, int64_t m, int64_t n, const void *a, int64_t lda, void *c, int64_t ldc);

/* ---- mixed precision and LU (cpu_blas_gemm.c) --------------------------- */

CUresult cpu_blas_gemm_ex(struct cb_backend *b, const cb_blas_gemm *g);
CUresult cpu_blas_getrf(struct cb_backend *b, cb_blas_type t, int64_t n, uint64_t a, int64_t lda, uint64_t pivots,
                        int *info);
CUresult cpu_blas_getrs(struct cb_backend *b, cb_blas_type t, int trans, int64_t n, int64_t nrhs, uint64_t a,
                        int64_t lda, uint64_t pivots, uint64_t bb, int64_t ldb);
CUresult cpu_blas_matinv(struct cb_backend *b, cb_blas_type t, int64_t n, uint64_t a, int64_t lda, uint64_t c,
                         int64_t ldc, int *info);
CUresult cpu_blas_getri(struct cb_backend *b, cb_blas_type t, int64_t n, uint64_t a, int64_t lda, uint64_t pivots,
                        uint64_t c, int64_t ldc, int *info);

/* The interface (cpu_blas.c). */
const cb_backend_lib *cb_cpu_blas_lib(void);

#endif
