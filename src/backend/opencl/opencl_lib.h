/* opencl_lib.h: the OpenCL backend's library interface (backend_lib.h),
 * private to src/backend/opencl/: BLAS through CLBlast (lib_clblast.c), our
 * own kernels for what CLBlast lacks (lib_kernels.c), put together with
 * NOT_SUPPORTED answers for the rest by ocl_lib (lib_table.c).
 * docs/opencl.md, "Libraries".
 */
#ifndef CB_OPENCL_LIB_H
#define CB_OPENCL_LIB_H

#include "backend/backend.h"
#include "backend/backend_lib.h"
#include "backend/opencl/opencl_internal.h"

/* What the library code needs of a device (opencl_backend.c fills it). */
typedef struct ocl_device_view {
    cl_context ctx;
    cl_device_id dev;
    cl_command_queue q;
    cl_mem heap;            /* device memory: one buffer */
    uint64_t heap_base;     /* the device address of its byte 0 */
    uint64_t heap_size;
} ocl_device_view;

void ocl_view(cb_backend *b, ocl_device_view *v);
/* Waits for ev, releases it; the command's status. */
CUresult ocl_wait(cl_event ev);
/* An OpenCL error as a CUresult. */
CUresult ocl_result(cl_int e);

/* The table the OpenCL backend hands out (cb_backend.lib), or NULL when the
 * build has no CLBlast. */
const cb_backend_lib *ocl_lib(void);

/* ---- lib_clblast.c: fills the entries CLBlast computes */
void ocl_clblast_fill(cb_backend_lib *lib);

/* ---- lib_kernels.c: our own kernels on the heap, built once per device
 * and element type (F32, F64, C32, C64); NOT_SUPPORTED where the device
 * lacks fp64. */
/* M = beta M over the rows x cols matrix at device address m (column j at
 * m + j * ld elements); beta == 0 stores zeros (M is not read). part: 0
 * the whole matrix, CB_BLAS_LOWER + 1 or CB_BLAS_UPPER + 1 one triangle
 * with the diagonal. beta: host, of t. */
CUresult ocl_k_scale(cb_backend *b, cb_blas_type t, int64_t rows, int64_t cols, uint64_t m, int64_t ld,
                     const void *beta, int part);
/* The same over batch matrices, stride elements apart. */
/* A product with mixed real types, input rounding or an epilogue (cb_blas_gemm), or NOT_SUPPORTED. */
CUresult ocl_k_gemm_mixed(cb_backend *b, const cb_blas_gemm *g);
CUresult ocl_k_scale_batch(cb_backend *b, cb_blas_type t, int64_t rows, int64_t cols, uint64_t m, int64_t ld,
                           const void *beta, int part, int64_t batch, int64_t stride);
/* Vectors of n elements at any increments (negative: BLAS's order): mode
 * OCL_VEC_COPY y = x, OCL_VEC_AXPY y += alpha x, OCL_VEC_SWAP. alpha:
 * host, of t (AXPY only; NULL otherwise). */
enum { OCL_VEC_COPY, OCL_VEC_AXPY, OCL_VEC_SWAP };
CUresult ocl_k_vec(cb_backend *b, cb_blas_type t, int mode, int64_t n, const void *alpha, uint64_t x, int64_t incx,
                   uint64_t y, int64_t incy);
/* The 1-based index of the first largest (min: smallest) |re| + |im| of n
 * elements (n >= 1, incx >= 1), stored as an int64 at device address
 * result. One work-item: a plain loop. */
CUresult ocl_k_iamax(cb_backend *b, cb_blas_type t, int min, int64_t n, uint64_t x, int64_t incx, uint64_t result);
/* x = op(A)^-1 x of the triangular A (trmv's form: 0 full, 1 banded with
 * k, 2 packed), incx >= 1. One work-item: substitution in order. */
CUresult ocl_k_tsolve(cb_backend *b, cb_blas_type t, int form, int uplo, int trans, int diag, int64_t n, int64_t k,
                      uint64_t a, int64_t lda, uint64_t x, int64_t incx);
/* Complex symmetric (not Hermitian) forms CLBlast lacks, on the uplo
 * triangle of the full n x n A, positive increments: y = alpha A x + beta y
 * (beta == 0: y not read); A += alpha (x y^T + y x^T) (two) or alpha x y^T
 * with y = x (syr). */
CUresult ocl_k_symv(cb_backend *b, cb_blas_type t, int uplo, int64_t n, const void *alpha, uint64_t a, int64_t lda,
                    uint64_t x, int64_t incx, const void *beta, uint64_t y, int64_t incy);
CUresult ocl_k_syr2(cb_backend *b, cb_blas_type t, int uplo, int two, int64_t n, const void *alpha, uint64_t x,
                    int64_t incx, uint64_t y, int64_t incy, uint64_t a, int64_t lda);
/* C = alpha op(A) op(B) + beta C on the uplo triangle of the n x n C only
 * (syrkx/herkx), k terms, a plain loop per element; herm: the diagonal's
 * imaginary parts set to zero. beta == 0: C is not read. */
CUresult ocl_k_gemmt(cb_backend *b, cb_blas_type t, int uplo, int herm, int trans_a, int trans_b, int64_t n,
                     int64_t k, const void *alpha, uint64_t a, int64_t lda, uint64_t bb, int64_t ldb, const void *beta,
                     uint64_t c, int64_t ldc);
/* Fills the entries our kernels compute (rot, rotm, geam, dgmm) and rotg,
 * rotmg, which are host arithmetic. */
void ocl_kernels_fill(cb_backend_lib *lib);

#endif
