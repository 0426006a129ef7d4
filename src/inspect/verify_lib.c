/* verify_lib.c: the library interface (backend_lib.h) of the inspector's
 * wrappers "trace" and "verify" (verify_backend.c).
 *
 * A facade (src/lib) computes on the device's cb_backend.lib; on a wrapped
 * device ("verify:cpu") that is this table, which hands each call to the
 * wrapped backend's own entry, with the wrapped backend as its device (a
 * backend's library code may look at its own state). An entry the wrapped
 * backend lacks answers CUDA_ERROR_NOT_SUPPORTED. The check itself is the
 * facade's (src/lib/common/check.c): it snapshots the operands, runs the
 * call here, computes the double-accumulating C reference and hands both to
 * cb_inspect_library_call, the same reports launches go to.
 */
#include <stddef.h>
#include <string.h>

#include "backend/backend_lib.h"
#include "inspect/inspect_internal.h"

/* The wrapped backend when its table has the entry at byte offset off, else NULL. */
static cb_backend *lib_inner(cb_backend *b, size_t off)
{
    cb_backend *i = cbi_wrapped(b);
    if (!i || !i->lib || i->lib->size < off + sizeof(void *))
        return NULL;
    void *entry;
    memcpy(&entry, (const char *)i->lib + off, sizeof entry);
    return entry ? i : NULL;
}

static CUresult wl_axpy(cb_backend *b, cb_blas_type t, int64_t n, const void *alpha, uint64_t x, int64_t incx, uint64_t y, int64_t incy)
{
    cb_backend *i = lib_inner(b, offsetof(cb_backend_lib, axpy));
    return i ? i->lib->axpy(i, t, n, alpha, x, incx, y, incy) : CUDA_ERROR_NOT_SUPPORTED;
}

static CUresult wl_scal(cb_backend *b, cb_blas_type t, int64_t n, const void *alpha, int alpha_real, uint64_t x, int64_t incx)
{
    cb_backend *i = lib_inner(b, offsetof(cb_backend_lib, scal));
    return i ? i->lib->scal(i, t, n, alpha, alpha_real, x, incx) : CUDA_ERROR_NOT_SUPPORTED;
}

static CUresult wl_copy(cb_backend *b, cb_blas_type t, int64_t n, uint64_t x, int64_t incx, uint64_t y, int64_t incy)
{
    cb_backend *i = lib_inner(b, offsetof(cb_backend_lib, copy));
    return i ? i->lib->copy(i, t, n, x, incx, y, incy) : CUDA_ERROR_NOT_SUPPORTED;
}

static CUresult wl_swap(cb_backend *b, cb_blas_type t, int64_t n, uint64_t x, int64_t incx, uint64_t y, int64_t incy)
{
    cb_backend *i = lib_inner(b, offsetof(cb_backend_lib, swap));
    return i ? i->lib->swap(i, t, n, x, incx, y, incy) : CUDA_ERROR_NOT_SUPPORTED;
}

static CUresult wl_dot(cb_backend *b, cb_blas_type t, int conj, int64_t n, uint64_t x, int64_t incx, uint64_t y, int64_t incy, void *result)
{
    cb_backend *i = lib_inner(b, offsetof(cb_backend_lib, dot));
    return i ? i->lib->dot(i, t, conj, n, x, incx, y, incy, result) : CUDA_ERROR_NOT_SUPPORTED;
}

static CUresult wl_nrm2(cb_backend *b, cb_blas_type t, int64_t n, uint64_t x, int64_t incx, void *result)
{
    cb_backend *i = lib_inner(b, offsetof(cb_backend_lib, nrm2));
    return i ? i->lib->nrm2(i, t, n, x, incx, result) : CUDA_ERROR_NOT_SUPPORTED;
}

static CUresult wl_asum(cb_backend *b, cb_blas_type t, int64_t n, uint64_t x, int64_t incx, void *result)
{
    cb_backend *i = lib_inner(b, offsetof(cb_backend_lib, asum));
    return i ? i->lib->asum(i, t, n, x, incx, result) : CUDA_ERROR_NOT_SUPPORTED;
}

static CUresult wl_iamax(cb_backend *b, cb_blas_type t, int min, int64_t n, uint64_t x, int64_t incx, int64_t *result)
{
    cb_backend *i = lib_inner(b, offsetof(cb_backend_lib, iamax));
    return i ? i->lib->iamax(i, t, min, n, x, incx, result) : CUDA_ERROR_NOT_SUPPORTED;
}

static CUresult wl_rot(cb_backend *b, cb_blas_type t, int64_t n, uint64_t x, int64_t incx, uint64_t y, int64_t incy, const void *c, const void *s, int s_real)
{
    cb_backend *i = lib_inner(b, offsetof(cb_backend_lib, rot));
    return i ? i->lib->rot(i, t, n, x, incx, y, incy, c, s, s_real) : CUDA_ERROR_NOT_SUPPORTED;
}

static CUresult wl_rotg(cb_backend *b, cb_blas_type t, void *a, void *bb, void *c, void *s)
{
    cb_backend *i = lib_inner(b, offsetof(cb_backend_lib, rotg));
    return i ? i->lib->rotg(i, t, a, bb, c, s) : CUDA_ERROR_NOT_SUPPORTED;
}

static CUresult wl_rotm(cb_backend *b, cb_blas_type t, int64_t n, uint64_t x, int64_t incx, uint64_t y, int64_t incy, const void *param)
{
    cb_backend *i = lib_inner(b, offsetof(cb_backend_lib, rotm));
    return i ? i->lib->rotm(i, t, n, x, incx, y, incy, param) : CUDA_ERROR_NOT_SUPPORTED;
}

static CUresult wl_rotmg(cb_backend *b, cb_blas_type t, void *d1, void *d2, void *x1, const void *y1, void *param)
{
    cb_backend *i = lib_inner(b, offsetof(cb_backend_lib, rotmg));
    return i ? i->lib->rotmg(i, t, d1, d2, x1, y1, param) : CUDA_ERROR_NOT_SUPPORTED;
}

static CUresult wl_gemv(cb_backend *b, cb_blas_type t, int trans, int64_t m, int64_t n, const void *alpha, uint64_t a, int64_t lda, uint64_t x, int64_t incx, const void *beta, uint64_t y, int64_t incy)
{
    cb_backend *i = lib_inner(b, offsetof(cb_backend_lib, gemv));
    return i ? i->lib->gemv(i, t, trans, m, n, alpha, a, lda, x, incx, beta, y, incy) : CUDA_ERROR_NOT_SUPPORTED;
}

static CUresult wl_gbmv(cb_backend *b, cb_blas_type t, int trans, int64_t m, int64_t n, int64_t kl, int64_t ku, const void *alpha, uint64_t a, int64_t lda, uint64_t x, int64_t incx, const void *beta, uint64_t y, int64_t incy)
{
    cb_backend *i = lib_inner(b, offsetof(cb_backend_lib, gbmv));
    return i ? i->lib->gbmv(i, t, trans, m, n, kl, ku, alpha, a, lda, x, incx, beta, y, incy) : CUDA_ERROR_NOT_SUPPORTED;
}

static CUresult wl_ger(cb_backend *b, cb_blas_type t, int conj, int64_t m, int64_t n, const void *alpha, uint64_t x, int64_t incx, uint64_t y, int64_t incy, uint64_t a, int64_t lda)
{
    cb_backend *i = lib_inner(b, offsetof(cb_backend_lib, ger));
    return i ? i->lib->ger(i, t, conj, m, n, alpha, x, incx, y, incy, a, lda) : CUDA_ERROR_NOT_SUPPORTED;
}

static CUresult wl_symv(cb_backend *b, cb_blas_type t, int herm, int uplo, int64_t n, const void *alpha, uint64_t a, int64_t lda, uint64_t x, int64_t incx, const void *beta, uint64_t y, int64_t incy)
{
    cb_backend *i = lib_inner(b, offsetof(cb_backend_lib, symv));
    return i ? i->lib->symv(i, t, herm, uplo, n, alpha, a, lda, x, incx, beta, y, incy) : CUDA_ERROR_NOT_SUPPORTED;
}

static CUresult wl_sbmv(cb_backend *b, cb_blas_type t, int herm, int uplo, int64_t n, int64_t k, const void *alpha, uint64_t a, int64_t lda, uint64_t x, int64_t incx, const void *beta, uint64_t y, int64_t incy)
{
    cb_backend *i = lib_inner(b, offsetof(cb_backend_lib, sbmv));
    return i ? i->lib->sbmv(i, t, herm, uplo, n, k, alpha, a, lda, x, incx, beta, y, incy) : CUDA_ERROR_NOT_SUPPORTED;
}

static CUresult wl_spmv(cb_backend *b, cb_blas_type t, int herm, int uplo, int64_t n, const void *alpha, uint64_t ap, uint64_t x, int64_t incx, const void *beta, uint64_t y, int64_t incy)
{
    cb_backend *i = lib_inner(b, offsetof(cb_backend_lib, spmv));
    return i ? i->lib->spmv(i, t, herm, uplo, n, alpha, ap, x, incx, beta, y, incy) : CUDA_ERROR_NOT_SUPPORTED;
}

static CUresult wl_syr(cb_backend *b, cb_blas_type t, int herm, int uplo, int64_t n, const void *alpha, uint64_t x, int64_t incx, uint64_t a, int64_t lda)
{
    cb_backend *i = lib_inner(b, offsetof(cb_backend_lib, syr));
    return i ? i->lib->syr(i, t, herm, uplo, n, alpha, x, incx, a, lda) : CUDA_ERROR_NOT_SUPPORTED;
}

static CUresult wl_spr(cb_backend *b, cb_blas_type t, int herm, int uplo, int64_t n, const void *alpha, uint64_t x, int64_t incx, uint64_t ap)
{
    cb_backend *i = lib_inner(b, offsetof(cb_backend_lib, spr));
    return i ? i->lib->spr(i, t, herm, uplo, n, alpha, x, incx, ap) : CUDA_ERROR_NOT_SUPPORTED;
}

static CUresult wl_syr2(cb_backend *b, cb_blas_type t, int herm, int uplo, int64_t n, const void *alpha, uint64_t x, int64_t incx, uint64_t y, int64_t incy, uint64_t a, int64_t lda)
{
    cb_backend *i = lib_inner(b, offsetof(cb_backend_lib, syr2));
    return i ? i->lib->syr2(i, t, herm, uplo, n, alpha, x, incx, y, incy, a, lda) : CUDA_ERROR_NOT_SUPPORTED;
}

static CUresult wl_spr2(cb_backend *b, cb_blas_type t, int herm, int uplo, int64_t n, const void *alpha, uint64_t x, int64_t incx, uint64_t y, int64_t incy, uint64_t ap)
{
    cb_backend *i = lib_inner(b, offsetof(cb_backend_lib, spr2));
    return i ? i->lib->spr2(i, t, herm, uplo, n, alpha, x, incx, y, incy, ap) : CUDA_ERROR_NOT_SUPPORTED;
}

static CUresult wl_trmv(cb_backend *b, cb_blas_type t, int solve, int form, int uplo, int trans, int diag, int64_t n, int64_t k, uint64_t a, int64_t lda, uint64_t x, int64_t incx)
{
    cb_backend *i = lib_inner(b, offsetof(cb_backend_lib, trmv));
    return i ? i->lib->trmv(i, t, solve, form, uplo, trans, diag, n, k, a, lda, x, incx) : CUDA_ERROR_NOT_SUPPORTED;
}

static CUresult wl_gemm(cb_backend *b, cb_blas_type t, int trans_a, int trans_b, int64_t m, int64_t n, int64_t k, const void *alpha, uint64_t a, int64_t lda, uint64_t bb, int64_t ldb, const void *beta, uint64_t c, int64_t ldc)
{
    cb_backend *i = lib_inner(b, offsetof(cb_backend_lib, gemm));
    return i ? i->lib->gemm(i, t, trans_a, trans_b, m, n, k, alpha, a, lda, bb, ldb, beta, c, ldc) : CUDA_ERROR_NOT_SUPPORTED;
}

static CUresult wl_symm(cb_backend *b, cb_blas_type t, int herm, int side, int uplo, int64_t m, int64_t n, const void *alpha, uint64_t a, int64_t lda, uint64_t bb, int64_t ldb, const void *beta, uint64_t c, int64_t ldc)
{
    cb_backend *i = lib_inner(b, offsetof(cb_backend_lib, symm));
    return i ? i->lib->symm(i, t, herm, side, uplo, m, n, alpha, a, lda, bb, ldb, beta, c, ldc) : CUDA_ERROR_NOT_SUPPORTED;
}

static CUresult wl_syrk(cb_backend *b, cb_blas_type t, int herm, int uplo, int trans, int64_t n, int64_t k, const void *alpha, uint64_t a, int64_t lda, const void *beta, uint64_t c, int64_t ldc)
{
    cb_backend *i = lib_inner(b, offsetof(cb_backend_lib, syrk));
    return i ? i->lib->syrk(i, t, herm, uplo, trans, n, k, alpha, a, lda, beta, c, ldc) : CUDA_ERROR_NOT_SUPPORTED;
}

static CUresult wl_syr2k(cb_backend *b, cb_blas_type t, int herm, int x, int uplo, int trans, int64_t n, int64_t k, const void *alpha, uint64_t a, int64_t lda, uint64_t bb, int64_t ldb, const void *beta, uint64_t c, int64_t ldc)
{
    cb_backend *i = lib_inner(b, offsetof(cb_backend_lib, syr2k));
    return i ? i->lib->syr2k(i, t, herm, x, uplo, trans, n, k, alpha, a, lda, bb, ldb, beta, c, ldc) : CUDA_ERROR_NOT_SUPPORTED;
}

static CUresult wl_trmm(cb_backend *b, cb_blas_type t, int side, int uplo, int trans, int diag, int64_t m, int64_t n, const void *alpha, uint64_t a, int64_t lda, uint64_t bb, int64_t ldb, uint64_t c, int64_t ldc)
{
    cb_backend *i = lib_inner(b, offsetof(cb_backend_lib, trmm));
    return i ? i->lib->trmm(i, t, side, uplo, trans, diag, m, n, alpha, a, lda, bb, ldb, c, ldc) : CUDA_ERROR_NOT_SUPPORTED;
}

static CUresult wl_trsm(cb_backend *b, cb_blas_type t, int side, int uplo, int trans, int diag, int64_t m, int64_t n, const void *alpha, uint64_t a, int64_t lda, uint64_t bb, int64_t ldb)
{
    cb_backend *i = lib_inner(b, offsetof(cb_backend_lib, trsm));
    return i ? i->lib->trsm(i, t, side, uplo, trans, diag, m, n, alpha, a, lda, bb, ldb) : CUDA_ERROR_NOT_SUPPORTED;
}

static CUresult wl_geam(cb_backend *b, cb_blas_type t, int trans_a, int trans_b, int64_t m, int64_t n, const void *alpha, uint64_t a, int64_t lda, const void *beta, uint64_t bb, int64_t ldb, uint64_t c, int64_t ldc)
{
    cb_backend *i = lib_inner(b, offsetof(cb_backend_lib, geam));
    return i ? i->lib->geam(i, t, trans_a, trans_b, m, n, alpha, a, lda, beta, bb, ldb, c, ldc) : CUDA_ERROR_NOT_SUPPORTED;
}

static CUresult wl_dgmm(cb_backend *b, cb_blas_type t, int side, int64_t m, int64_t n, uint64_t a, int64_t lda, uint64_t x, int64_t incx, uint64_t c, int64_t ldc)
{
    cb_backend *i = lib_inner(b, offsetof(cb_backend_lib, dgmm));
    return i ? i->lib->dgmm(i, t, side, m, n, a, lda, x, incx, c, ldc) : CUDA_ERROR_NOT_SUPPORTED;
}

static CUresult wl_gemm_ex(cb_backend *b, const cb_blas_gemm *g)
{
    cb_backend *i = lib_inner(b, offsetof(cb_backend_lib, gemm_ex));
    return i ? i->lib->gemm_ex(i, g) : CUDA_ERROR_NOT_SUPPORTED;
}

static CUresult wl_getrf(cb_backend *b, cb_blas_type t, int64_t n, uint64_t a, int64_t lda, uint64_t pivots, int *info)
{
    cb_backend *i = lib_inner(b, offsetof(cb_backend_lib, getrf));
    return i ? i->lib->getrf(i, t, n, a, lda, pivots, info) : CUDA_ERROR_NOT_SUPPORTED;
}

static CUresult wl_getrs(cb_backend *b, cb_blas_type t, int trans, int64_t n, int64_t nrhs, uint64_t a, int64_t lda, uint64_t pivots, uint64_t bb, int64_t ldb)
{
    cb_backend *i = lib_inner(b, offsetof(cb_backend_lib, getrs));
    return i ? i->lib->getrs(i, t, trans, n, nrhs, a, lda, pivots, bb, ldb) : CUDA_ERROR_NOT_SUPPORTED;
}

static CUresult wl_getri(cb_backend *b, cb_blas_type t, int64_t n, uint64_t a, int64_t lda, uint64_t pivots, uint64_t c, int64_t ldc, int *info)
{
    cb_backend *i = lib_inner(b, offsetof(cb_backend_lib, getri));
    return i ? i->lib->getri(i, t, n, a, lda, pivots, c, ldc, info) : CUDA_ERROR_NOT_SUPPORTED;
}

static CUresult wl_matinv(cb_backend *b, cb_blas_type t, int64_t n, uint64_t a, int64_t lda, uint64_t c, int64_t ldc, int *info)
{
    cb_backend *i = lib_inner(b, offsetof(cb_backend_lib, matinv));
    return i ? i->lib->matinv(i, t, n, a, lda, c, ldc, info) : CUDA_ERROR_NOT_SUPPORTED;
}

static CUresult wl_dnn_conv(cb_backend *b, const cb_dnn_conv *c)
{
    cb_backend *i = lib_inner(b, offsetof(cb_backend_lib, dnn_conv));
    return i ? i->lib->dnn_conv(i, c) : CUDA_ERROR_NOT_SUPPORTED;
}

/* cuSOLVER's LAPACK and cuSPARSE's kernels */

static CUresult wl_lapack_getrf(cb_backend *b, cb_blas_type t, int64_t m, int64_t n, uint64_t a, int64_t lda, uint64_t pivots, int piv_bytes, int64_t *info)
{
    cb_backend *i = lib_inner(b, offsetof(cb_backend_lib, lapack_getrf));
    return i ? i->lib->lapack_getrf(i, t, m, n, a, lda, pivots, piv_bytes, info) : CUDA_ERROR_NOT_SUPPORTED;
}

static CUresult wl_lapack_getrs(cb_backend *b, cb_blas_type t, int trans, int64_t n, int64_t nrhs, uint64_t a, int64_t lda, uint64_t pivots, int piv_bytes, uint64_t bb, int64_t ldb)
{
    cb_backend *i = lib_inner(b, offsetof(cb_backend_lib, lapack_getrs));
    return i ? i->lib->lapack_getrs(i, t, trans, n, nrhs, a, lda, pivots, piv_bytes, bb, ldb) : CUDA_ERROR_NOT_SUPPORTED;
}

static CUresult wl_lapack_potrf(cb_backend *b, cb_blas_type t, int uplo, int64_t n, uint64_t a, int64_t lda, int64_t *info)
{
    cb_backend *i = lib_inner(b, offsetof(cb_backend_lib, lapack_potrf));
    return i ? i->lib->lapack_potrf(i, t, uplo, n, a, lda, info) : CUDA_ERROR_NOT_SUPPORTED;
}

static CUresult wl_lapack_potrs(cb_backend *b, cb_blas_type t, int uplo, int64_t n, int64_t nrhs, uint64_t a, int64_t lda, uint64_t bb, int64_t ldb)
{
    cb_backend *i = lib_inner(b, offsetof(cb_backend_lib, lapack_potrs));
    return i ? i->lib->lapack_potrs(i, t, uplo, n, nrhs, a, lda, bb, ldb) : CUDA_ERROR_NOT_SUPPORTED;
}

static CUresult wl_lapack_potri(cb_backend *b, cb_blas_type t, int uplo, int64_t n, uint64_t a, int64_t lda, int64_t *info)
{
    cb_backend *i = lib_inner(b, offsetof(cb_backend_lib, lapack_potri));
    return i ? i->lib->lapack_potri(i, t, uplo, n, a, lda, info) : CUDA_ERROR_NOT_SUPPORTED;
}

static CUresult wl_lapack_geqrf(cb_backend *b, cb_blas_type t, int64_t m, int64_t n, uint64_t a, int64_t lda, uint64_t tau)
{
    cb_backend *i = lib_inner(b, offsetof(cb_backend_lib, lapack_geqrf));
    return i ? i->lib->lapack_geqrf(i, t, m, n, a, lda, tau) : CUDA_ERROR_NOT_SUPPORTED;
}

static CUresult wl_lapack_orgqr(cb_backend *b, cb_blas_type t, int64_t m, int64_t n, int64_t k, uint64_t a, int64_t lda, uint64_t tau)
{
    cb_backend *i = lib_inner(b, offsetof(cb_backend_lib, lapack_orgqr));
    return i ? i->lib->lapack_orgqr(i, t, m, n, k, a, lda, tau) : CUDA_ERROR_NOT_SUPPORTED;
}

static CUresult wl_lapack_ormqr(cb_backend *b, cb_blas_type t, int side, int trans, int64_t m, int64_t n, int64_t k, uint64_t a, int64_t lda, uint64_t tau, uint64_t c, int64_t ldc)
{
    cb_backend *i = lib_inner(b, offsetof(cb_backend_lib, lapack_ormqr));
    return i ? i->lib->lapack_ormqr(i, t, side, trans, m, n, k, a, lda, tau, c, ldc) : CUDA_ERROR_NOT_SUPPORTED;
}

static CUresult wl_lapack_gesvd(cb_backend *b, cb_blas_type t, char jobu, char jobvt, int64_t m, int64_t n, uint64_t a, int64_t lda, uint64_t s, uint64_t u, int64_t ldu, uint64_t vt, int64_t ldvt, uint64_t superb, int64_t *info)
{
    cb_backend *i = lib_inner(b, offsetof(cb_backend_lib, lapack_gesvd));
    return i ? i->lib->lapack_gesvd(i, t, jobu, jobvt, m, n, a, lda, s, u, ldu, vt, ldvt, superb, info) : CUDA_ERROR_NOT_SUPPORTED;
}

static CUresult wl_lapack_syevd(cb_backend *b, cb_blas_type t, int vectors, int uplo, int64_t n, uint64_t a, int64_t lda, uint64_t w, int64_t *info)
{
    cb_backend *i = lib_inner(b, offsetof(cb_backend_lib, lapack_syevd));
    return i ? i->lib->lapack_syevd(i, t, vectors, uplo, n, a, lda, w, info) : CUDA_ERROR_NOT_SUPPORTED;
}

static CUresult wl_sparse_mv(cb_backend *b, int trans, const void *alpha, const struct cb_sparse *a, const struct cb_dense *x, const void *beta, const struct cb_dense *y, cb_blas_type compute)
{
    cb_backend *i = lib_inner(b, offsetof(cb_backend_lib, sparse_mv));
    return i ? i->lib->sparse_mv(i, trans, alpha, a, x, beta, y, compute) : CUDA_ERROR_NOT_SUPPORTED;
}

static CUresult wl_sparse_mm(cb_backend *b, int trans_a, int trans_b, const void *alpha, const struct cb_sparse *a, const struct cb_dense *bm, const void *beta, const struct cb_dense *c, cb_blas_type compute)
{
    cb_backend *i = lib_inner(b, offsetof(cb_backend_lib, sparse_mm));
    return i ? i->lib->sparse_mm(i, trans_a, trans_b, alpha, a, bm, beta, c, compute) : CUDA_ERROR_NOT_SUPPORTED;
}

static CUresult wl_sparse_vec(cb_backend *b, int kind, const struct cb_sparse *x, const struct cb_dense *y, const void *alpha, const void *beta, void *result, cb_blas_type compute)
{
    cb_backend *i = lib_inner(b, offsetof(cb_backend_lib, sparse_vec));
    return i ? i->lib->sparse_vec(i, kind, x, y, alpha, beta, result, compute) : CUDA_ERROR_NOT_SUPPORTED;
}

static CUresult wl_sparse_to_dense(cb_backend *b, const struct cb_sparse *a, const struct cb_dense *d)
{
    cb_backend *i = lib_inner(b, offsetof(cb_backend_lib, sparse_to_dense));
    return i ? i->lib->sparse_to_dense(i, a, d) : CUDA_ERROR_NOT_SUPPORTED;
}

static CUresult wl_sparse_from_dense(cb_backend *b, const struct cb_dense *d, const struct cb_sparse *a, int count_only, int64_t *nnz)
{
    cb_backend *i = lib_inner(b, offsetof(cb_backend_lib, sparse_from_dense));
    return i ? i->lib->sparse_from_dense(i, d, a, count_only, nnz) : CUDA_ERROR_NOT_SUPPORTED;
}

static CUresult wl_sparse_csr2csc(cb_backend *b, cb_blas_type t, int64_t m, int64_t n, int64_t nnz, uint64_t val, uint64_t rowptr, uint64_t colind, uint64_t cscval, uint64_t cscptr, uint64_t cscrow, int values, int base)
{
    cb_backend *i = lib_inner(b, offsetof(cb_backend_lib, sparse_csr2csc));
    return i ? i->lib->sparse_csr2csc(i, t, m, n, nnz, val, rowptr, colind, cscval, cscptr, cscrow, values, base) : CUDA_ERROR_NOT_SUPPORTED;
}

static CUresult wl_sparse_sort(cb_backend *b, int kind, int64_t m, int64_t n, int64_t nnz, uint64_t ptr, uint64_t ind, uint64_t perm, int base)
{
    cb_backend *i = lib_inner(b, offsetof(cb_backend_lib, sparse_sort));
    return i ? i->lib->sparse_sort(i, kind, m, n, nnz, ptr, ind, perm, base) : CUDA_ERROR_NOT_SUPPORTED;
}

static CUresult wl_sparse_compress(cb_backend *b, int expand, int64_t m, int64_t nnz, uint64_t rows, uint64_t offsets, int base)
{
    cb_backend *i = lib_inner(b, offsetof(cb_backend_lib, sparse_compress));
    return i ? i->lib->sparse_compress(i, expand, m, nnz, rows, offsets, base) : CUDA_ERROR_NOT_SUPPORTED;
}

static CUresult wl_sparse_identity(cb_backend *b, int64_t n, uint64_t p)
{
    cb_backend *i = lib_inner(b, offsetof(cb_backend_lib, sparse_identity));
    return i ? i->lib->sparse_identity(i, n, p) : CUDA_ERROR_NOT_SUPPORTED;
}

static CUresult wl_spgemm_products(cb_backend *b, const struct cb_sparse *a, const struct cb_sparse *bm, int64_t *products)
{
    cb_backend *i = lib_inner(b, offsetof(cb_backend_lib, spgemm_products));
    return i ? i->lib->spgemm_products(i, a, bm, products) : CUDA_ERROR_NOT_SUPPORTED;
}

static CUresult wl_spgemm_compute(cb_backend *b, const void *alpha, const struct cb_sparse *a, const struct cb_sparse *bm, cb_blas_type compute, uint64_t scratch, int64_t *nnz)
{
    cb_backend *i = lib_inner(b, offsetof(cb_backend_lib, spgemm_compute));
    return i ? i->lib->spgemm_compute(i, alpha, a, bm, compute, scratch, nnz) : CUDA_ERROR_NOT_SUPPORTED;
}

static CUresult wl_spgemm_copy(cb_backend *b, uint64_t scratch, const struct cb_sparse *c)
{
    cb_backend *i = lib_inner(b, offsetof(cb_backend_lib, spgemm_copy));
    return i ? i->lib->spgemm_copy(i, scratch, c) : CUDA_ERROR_NOT_SUPPORTED;
}

static CUresult wl_sparse_geam(cb_backend *b, const void *alpha, const struct cb_sparse *a, const void *beta, const struct cb_sparse *bm, const struct cb_sparse *c, cb_blas_type compute, int count_only, int64_t *nnz)
{
    cb_backend *i = lib_inner(b, offsetof(cb_backend_lib, sparse_geam));
    return i ? i->lib->sparse_geam(i, alpha, a, beta, bm, c, compute, count_only, nnz) : CUDA_ERROR_NOT_SUPPORTED;
}

static const cb_backend_lib forward_lib = {
    .size = sizeof(cb_backend_lib),
    .axpy = wl_axpy,
    .scal = wl_scal,
    .copy = wl_copy,
    .swap = wl_swap,
    .dot = wl_dot,
    .nrm2 = wl_nrm2,
    .asum = wl_asum,
    .iamax = wl_iamax,
    .rot = wl_rot,
    .rotg = wl_rotg,
    .rotm = wl_rotm,
    .rotmg = wl_rotmg,
    .gemv = wl_gemv,
    .gbmv = wl_gbmv,
    .ger = wl_ger,
    .symv = wl_symv,
    .sbmv = wl_sbmv,
    .spmv = wl_spmv,
    .syr = wl_syr,
    .spr = wl_spr,
    .syr2 = wl_syr2,
    .spr2 = wl_spr2,
    .trmv = wl_trmv,
    .gemm = wl_gemm,
    .symm = wl_symm,
    .syrk = wl_syrk,
    .syr2k = wl_syr2k,
    .trmm = wl_trmm,
    .trsm = wl_trsm,
    .geam = wl_geam,
    .dgmm = wl_dgmm,
    .gemm_ex = wl_gemm_ex,
    .getrf = wl_getrf,
    .getrs = wl_getrs,
    .getri = wl_getri,
    .matinv = wl_matinv,
    .dnn_conv = wl_dnn_conv,
    .lapack_getrf = wl_lapack_getrf,
    .lapack_getrs = wl_lapack_getrs,
    .lapack_potrf = wl_lapack_potrf,
    .lapack_potrs = wl_lapack_potrs,
    .lapack_potri = wl_lapack_potri,
    .lapack_geqrf = wl_lapack_geqrf,
    .lapack_orgqr = wl_lapack_orgqr,
    .lapack_ormqr = wl_lapack_ormqr,
    .lapack_gesvd = wl_lapack_gesvd,
    .lapack_syevd = wl_lapack_syevd,
    .sparse_mv = wl_sparse_mv,
    .sparse_mm = wl_sparse_mm,
    .sparse_vec = wl_sparse_vec,
    .sparse_to_dense = wl_sparse_to_dense,
    .sparse_from_dense = wl_sparse_from_dense,
    .sparse_csr2csc = wl_sparse_csr2csc,
    .sparse_sort = wl_sparse_sort,
    .sparse_compress = wl_sparse_compress,
    .sparse_identity = wl_sparse_identity,
    .spgemm_products = wl_spgemm_products,
    .spgemm_compute = wl_spgemm_compute,
    .spgemm_copy = wl_spgemm_copy,
    .sparse_geam = wl_sparse_geam,
};

const cb_backend_lib *cbi_wrapper_lib(void) { return &forward_lib; }
