/* lib_table.c: the OpenCL backend's library interface, put together from
 * its parts (opencl_lib.h): CLBlast's entries (lib_clblast.c), our own
 * kernels' (lib_kernels.c), and CUDA_ERROR_NOT_SUPPORTED for what neither
 * has yet (the LU pieces of cuBLAS's batched forms, LAPACK and the
 * sparse kernels; the DNN convolution is lib_kernels.c's), so that every facade answers
 * its NOT_SUPPORTED status for them, never a success.
 *
 * Process-wide state: the table, filled once.
 */
#include "backend/opencl/opencl_lib.h"

#include "platform/thread.h"

#ifdef CB_HAVE_CLBLAST

/* The entries this backend does not have: the interface's own signatures. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"
static CUresult ns_getrf(struct cb_backend *b, cb_blas_type t, int64_t n, uint64_t a, int64_t lda, uint64_t pivots, int *info) { return CUDA_ERROR_NOT_SUPPORTED; }
static CUresult ns_getrs(struct cb_backend *b, cb_blas_type t, int trans, int64_t n, int64_t nrhs, uint64_t a, int64_t lda, uint64_t pivots, uint64_t bb, int64_t ldb) { return CUDA_ERROR_NOT_SUPPORTED; }
static CUresult ns_getri(struct cb_backend *b, cb_blas_type t, int64_t n, uint64_t a, int64_t lda, uint64_t pivots, uint64_t c, int64_t ldc, int *info) { return CUDA_ERROR_NOT_SUPPORTED; }
static CUresult ns_matinv(struct cb_backend *b, cb_blas_type t, int64_t n, uint64_t a, int64_t lda, uint64_t c, int64_t ldc, int *info) { return CUDA_ERROR_NOT_SUPPORTED; }
static CUresult ns_dnn_conv(struct cb_backend *b, const cb_dnn_conv *c) { return CUDA_ERROR_NOT_SUPPORTED; }
static CUresult ns_lapack_getrf(struct cb_backend *b, cb_blas_type t, int64_t m, int64_t n, uint64_t a, int64_t lda, uint64_t pivots, int piv_bytes, int64_t *info) { return CUDA_ERROR_NOT_SUPPORTED; }
static CUresult ns_lapack_getrs(struct cb_backend *b, cb_blas_type t, int trans, int64_t n, int64_t nrhs, uint64_t a, int64_t lda, uint64_t pivots, int piv_bytes, uint64_t bb, int64_t ldb) { return CUDA_ERROR_NOT_SUPPORTED; }
static CUresult ns_lapack_potrf(struct cb_backend *b, cb_blas_type t, int uplo, int64_t n, uint64_t a, int64_t lda, int64_t *info) { return CUDA_ERROR_NOT_SUPPORTED; }
static CUresult ns_lapack_potrs(struct cb_backend *b, cb_blas_type t, int uplo, int64_t n, int64_t nrhs, uint64_t a, int64_t lda, uint64_t bb, int64_t ldb) { return CUDA_ERROR_NOT_SUPPORTED; }
static CUresult ns_lapack_potri(struct cb_backend *b, cb_blas_type t, int uplo, int64_t n, uint64_t a, int64_t lda, int64_t *info) { return CUDA_ERROR_NOT_SUPPORTED; }
static CUresult ns_lapack_geqrf(struct cb_backend *b, cb_blas_type t, int64_t m, int64_t n, uint64_t a, int64_t lda, uint64_t tau) { return CUDA_ERROR_NOT_SUPPORTED; }
static CUresult ns_lapack_orgqr(struct cb_backend *b, cb_blas_type t, int64_t m, int64_t n, int64_t k, uint64_t a, int64_t lda, uint64_t tau) { return CUDA_ERROR_NOT_SUPPORTED; }
static CUresult ns_lapack_ormqr(struct cb_backend *b, cb_blas_type t, int side, int trans, int64_t m, int64_t n, int64_t k, uint64_t a, int64_t lda, uint64_t tau, uint64_t c, int64_t ldc) { return CUDA_ERROR_NOT_SUPPORTED; }
static CUresult ns_lapack_gesvd(struct cb_backend *b, cb_blas_type t, char jobu, char jobvt, int64_t m, int64_t n, uint64_t a, int64_t lda, uint64_t s, uint64_t u, int64_t ldu, uint64_t vt, int64_t ldvt, uint64_t superb, int64_t *info) { return CUDA_ERROR_NOT_SUPPORTED; }
static CUresult ns_lapack_syevd(struct cb_backend *b, cb_blas_type t, int vectors, int uplo, int64_t n, uint64_t a, int64_t lda, uint64_t w, int64_t *info) { return CUDA_ERROR_NOT_SUPPORTED; }
static CUresult ns_sparse_mv(struct cb_backend *b, int trans, const void *alpha, const struct cb_sparse *a, const struct cb_dense *x, const void *beta, const struct cb_dense *y, cb_blas_type compute) { return CUDA_ERROR_NOT_SUPPORTED; }
static CUresult ns_sparse_mm(struct cb_backend *b, int trans_a, int trans_b, const void *alpha, const struct cb_sparse *a, const struct cb_dense *bm, const void *beta, const struct cb_dense *c, cb_blas_type compute) { return CUDA_ERROR_NOT_SUPPORTED; }
static CUresult ns_sparse_vec(struct cb_backend *b, int kind, const struct cb_sparse *x, const struct cb_dense *y, const void *alpha, const void *beta, void *result, cb_blas_type compute) { return CUDA_ERROR_NOT_SUPPORTED; }
static CUresult ns_sparse_to_dense(struct cb_backend *b, const struct cb_sparse *a, const struct cb_dense *d) { return CUDA_ERROR_NOT_SUPPORTED; }
static CUresult ns_sparse_from_dense(struct cb_backend *b, const struct cb_dense *d, const struct cb_sparse *a, int count_only, int64_t *nnz) { return CUDA_ERROR_NOT_SUPPORTED; }
static CUresult ns_sparse_csr2csc(struct cb_backend *b, cb_blas_type t, int64_t m, int64_t n, int64_t nnz, uint64_t val, uint64_t rowptr, uint64_t colind, uint64_t cscval, uint64_t cscptr, uint64_t cscrow, int values, int base) { return CUDA_ERROR_NOT_SUPPORTED; }
static CUresult ns_sparse_sort(struct cb_backend *b, int kind, int64_t m, int64_t n, int64_t nnz, uint64_t ptr, uint64_t ind, uint64_t perm, int base) { return CUDA_ERROR_NOT_SUPPORTED; }
static CUresult ns_sparse_compress(struct cb_backend *b, int expand, int64_t m, int64_t nnz, uint64_t rows, uint64_t offsets, int base) { return CUDA_ERROR_NOT_SUPPORTED; }
static CUresult ns_sparse_identity(struct cb_backend *b, int64_t n, uint64_t p) { return CUDA_ERROR_NOT_SUPPORTED; }
static CUresult ns_spgemm_products(struct cb_backend *b, const struct cb_sparse *a, const struct cb_sparse *bm, int64_t *products) { return CUDA_ERROR_NOT_SUPPORTED; }
static CUresult ns_spgemm_compute(struct cb_backend *b, const void *alpha, const struct cb_sparse *a, const struct cb_sparse *bm, cb_blas_type compute, uint64_t scratch, int64_t *nnz) { return CUDA_ERROR_NOT_SUPPORTED; }
static CUresult ns_spgemm_copy(struct cb_backend *b, uint64_t scratch, const struct cb_sparse *c) { return CUDA_ERROR_NOT_SUPPORTED; }
static CUresult ns_sparse_geam(struct cb_backend *b, const void *alpha, const struct cb_sparse *a, const void *beta, const struct cb_sparse *bm, const struct cb_sparse *c, cb_blas_type compute, int count_only, int64_t *nnz) { return CUDA_ERROR_NOT_SUPPORTED; }
#pragma GCC diagnostic pop

static cb_once lib_once = CB_ONCE_INIT;
static cb_backend_lib lib;

static void lib_build(void)
{
    lib.size = sizeof lib;
    lib.getrf = ns_getrf;
    lib.getrs = ns_getrs;
    lib.getri = ns_getri;
    lib.matinv = ns_matinv;
    lib.dnn_conv = ns_dnn_conv;
    lib.lapack_getrf = ns_lapack_getrf;
    lib.lapack_getrs = ns_lapack_getrs;
    lib.lapack_potrf = ns_lapack_potrf;
    lib.lapack_potrs = ns_lapack_potrs;
    lib.lapack_potri = ns_lapack_potri;
    lib.lapack_geqrf = ns_lapack_geqrf;
    lib.lapack_orgqr = ns_lapack_orgqr;
    lib.lapack_ormqr = ns_lapack_ormqr;
    lib.lapack_gesvd = ns_lapack_gesvd;
    lib.lapack_syevd = ns_lapack_syevd;
    lib.sparse_mv = ns_sparse_mv;
    lib.sparse_mm = ns_sparse_mm;
    lib.sparse_vec = ns_sparse_vec;
    lib.sparse_to_dense = ns_sparse_to_dense;
    lib.sparse_from_dense = ns_sparse_from_dense;
    lib.sparse_csr2csc = ns_sparse_csr2csc;
    lib.sparse_sort = ns_sparse_sort;
    lib.sparse_compress = ns_sparse_compress;
    lib.sparse_identity = ns_sparse_identity;
    lib.spgemm_products = ns_spgemm_products;
    lib.spgemm_compute = ns_spgemm_compute;
    lib.spgemm_copy = ns_spgemm_copy;
    lib.sparse_geam = ns_sparse_geam;
    ocl_clblast_fill(&lib);
    ocl_kernels_fill(&lib);
}

const cb_backend_lib *ocl_lib(void)
{
    cb_run_once(&lib_once, lib_build);
    return &lib;
}

#else

const cb_backend_lib *ocl_lib(void) { return NULL; }   /* built without CLBlast: the facades answer NOT_SUPPORTED */

#endif
