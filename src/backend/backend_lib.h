/* backend_lib.h: the library interface of a backend (BLAS, LAPACK, sparse kernels).
 *
 * The library facades (src/lib: cuBLAS, cuBLASLt, later cuSOLVER ...)
 * compute through this table, found at cb_backend.lib (NULL: the backend has
 * no library interface, and the facades answer NOT_SUPPORTED). They never
 * reach into one backend. The CPU backend fills it with OpenBLAS and its
 * LAPACK (src/backend/cpu/cpu_blas*.c); an OpenCL backend would fill it with
 * CLBlast. docs/libraries.md.
 *
 * Conventions, all of them cuBLAS's:
 *   - matrices are column-major; m, n, k, leading dimensions, increments and
 *     strides are in elements and 64-bit; sizes were validated by the facade
 *     (n >= 0, lda >= max(1, rows) ...), and every operand's extent lies in
 *     device memory (checked by the facade before the call);
 *   - device operands are device addresses (uint64_t) of this backend;
 *     scalars (alpha, beta, c, s ...) and scalar results are HOST memory of
 *     the routine's scalar type: the facade reads device-side scalars first;
 *   - enumerations take cuBLAS's values (cublasOperation_t, cublasFillMode_t,
 *     cublasDiagType_t, cublasSideMode_t), so a facade passes them through;
 *   - beta == 0 means C is not read (NaN in C does not propagate), alpha == 0
 *     means A and B are not read, as cuBLAS documents;
 *   - each call runs to completion on the calling thread (a stream worker)
 *     and returns CUDA_SUCCESS, CUDA_ERROR_NOT_SUPPORTED (a type or mode
 *     the backend lacks) or CUDA_ERROR_OUT_OF_MEMORY.
 */
#ifndef CB_BACKEND_LIB_H
#define CB_BACKEND_LIB_H

#include <cuda.h>
#include <stddef.h>
#include <stdint.h>

#include "backend/backend_dnn.h"

struct cb_backend;
struct cb_sparse;
struct cb_dense;

/* Element types. The first four are BLAS's S, D, C, Z. */
typedef enum cb_blas_type {
    CB_BLAS_F32 = 0,
    CB_BLAS_F64,
    CB_BLAS_C32,     /* cuComplex */
    CB_BLAS_C64,     /* cuDoubleComplex */
    CB_BLAS_F16,
    CB_BLAS_BF16,
    CB_BLAS_I8,
    CB_BLAS_U8,
    CB_BLAS_I32,
    CB_BLAS_U32,
    CB_BLAS_C16F,    /* complex half */
    CB_BLAS_C16BF,
    CB_BLAS_CI8,     /* complex int8 */
    CB_BLAS_CU8,
    CB_BLAS_CI32,
    CB_BLAS_E4M3,    /* fp8 */
    CB_BLAS_E5M2,
    CB_BLAS_TYPE_COUNT
} cb_blas_type;

enum { CB_BLAS_OP_N = 0, CB_BLAS_OP_T = 1, CB_BLAS_OP_C = 2 };     /* cublasOperation_t */
enum { CB_BLAS_LOWER = 0, CB_BLAS_UPPER = 1 };                     /* cublasFillMode_t */
enum { CB_BLAS_NON_UNIT = 0, CB_BLAS_UNIT = 1 };                   /* cublasDiagType_t */
enum { CB_BLAS_LEFT = 0, CB_BLAS_RIGHT = 1 };                      /* cublasSideMode_t */

/* Bytes of one element of t (complex: both parts). */
static inline size_t cb_blas_type_size(cb_blas_type t)
{
    static const unsigned char size[CB_BLAS_TYPE_COUNT] = {4, 8, 8, 16, 2, 2, 1, 1, 4, 4, 4, 4, 2, 2, 8, 1, 1};
    return (unsigned)t < CB_BLAS_TYPE_COUNT ? size[t] : 0;
}

/* 1 for the complex types. */
static inline int cb_blas_type_complex(cb_blas_type t)
{
    return t == CB_BLAS_C32 || t == CB_BLAS_C64 || t == CB_BLAS_C16F || t == CB_BLAS_C16BF || t == CB_BLAS_CI8 ||
           t == CB_BLAS_CU8 || t == CB_BLAS_CI32;
}

/* The real type of t (C32 -> F32, C64 -> F64; a real type is itself). */
static inline cb_blas_type cb_blas_type_real(cb_blas_type t)
{
    return t == CB_BLAS_C32 ? CB_BLAS_F32 : t == CB_BLAS_C64 ? CB_BLAS_F64 : t;
}

/* "f32", "c64" ... */
static inline const char *cb_blas_type_name(cb_blas_type t)
{
    static const char *const names[CB_BLAS_TYPE_COUNT] = {"f32", "f64", "c32", "c64", "f16", "bf16", "i8", "u8", "i32",
                                                          "u32", "c16f", "c16bf", "ci8", "cu8", "ci32", "e4m3", "e5m2"};
    return (unsigned)t < CB_BLAS_TYPE_COUNT ? names[t] : "?";
}

/* How a mixed-precision product rounds its inputs before multiplying. */
typedef enum cb_blas_input_round {
    CB_BLAS_ROUND_NONE = 0,
    CB_BLAS_ROUND_TF32,      /* to TF32 (10-bit mantissa), nearest, ties to even (cuBLAS on the H200) */
    CB_BLAS_ROUND_F16,       /* to f16, nearest even (CUBLAS_COMPUTE_32F_FAST_16F) */
    CB_BLAS_ROUND_BF16,      /* to bf16, nearest even (CUBLAS_COMPUTE_32F_FAST_16BF) */
} cb_blas_input_round;

/* Epilogues: cublasLtEpilogue_t's bits, so that cuBLASLt passes its value
 * through (CUBLASLT_EPILOGUE_DEFAULT = 1 is no epilogue). In order: D =
 * alpha op(A) op(B) + beta C; + bias[row] (BIAS); AUX stores the result so
 * far (GELU: its value in aux_type; RELU: a bit mask, bit i + j * ldaux of
 * the aux bytes, set where the value is > 0); RELU / GELU (tanh form);
 * DRELU: D *= mask bit of aux; DGELU: D *= gelu'(aux); BGRAD with DRELU or
 * DGELU: bias[i] = sum over j of D[i, j]; BGRADA: bias[i] = sum over l of
 * op(A)[i, l]; BGRADB: bias[j] = sum over l of op(B)[l, j]. */
enum {
    CB_BLAS_EPI_RELU = 2,
    CB_BLAS_EPI_BIAS = 4,
    CB_BLAS_EPI_DRELU = 8,
    CB_BLAS_EPI_BGRAD = 16,
    CB_BLAS_EPI_GELU = 32,
    CB_BLAS_EPI_DGELU = 64,
    CB_BLAS_EPI_AUX = 128,
    CB_BLAS_EPI_BGRADA = 256,
    CB_BLAS_EPI_BGRADB = 512,
};

/* One (batched) matrix product D = alpha op(A) op(B) + beta C, with
 * possibly different element types and a compute type. GemmEx, the
 * batched forms and cublasLtMatmul reach it. */
typedef struct cb_blas_gemm {
    cb_blas_type a_type, b_type, c_type, d_type;
    cb_blas_type compute;            /* F16, F32, F64, I32, C32, C64 */
    cb_blas_type scale;              /* type of *alpha and *beta */
    cb_blas_input_round round;
    int trans_a, trans_b;            /* CB_BLAS_OP_* */
    int64_t m, n, k;
    const void *alpha, *beta;        /* host */
    uint64_t a, b, c, d;             /* d == c for cuBLAS */
    int64_t lda, ldb, ldc, ldd;
    int64_t batch;                   /* >= 1 */
    int64_t stride_a, stride_b, stride_c, stride_d;   /* elements between batches */
    /* When not NULL: host arrays of batch device addresses (gemmBatched),
     * used instead of a + i * stride_a ... */
    const uint64_t *a_array, *b_array, *c_array, *d_array;
    /* cublasLtMatmul's epilogue (CB_BLAS_EPI_* bits), bias vector (length
     * m, of bias_type) and aux matrix (m x n, ld ldaux, of aux_type). */
    unsigned epilogue;
    uint64_t bias;
    cb_blas_type bias_type;
    uint64_t aux;
    int64_t ldaux, stride_aux, stride_bias;
    cb_blas_type aux_type;
} cb_blas_gemm;

typedef struct cb_backend_lib {
    size_t size;   /* sizeof(cb_backend_lib) of the backend: fields are only appended */

    /* ---- level 1 (x, y: vectors of n elements, increments may be negative
     * where BLAS allows it; results into host memory). axpy, scal, dot and
     * nrm2 also take F16 and BF16 vectors, computed in f32 with f32 scalars
     * and results (cuBLAS's *Ex execution type). */
    CUresult (*axpy)(struct cb_backend *b, cb_blas_type t, int64_t n, const void *alpha, uint64_t x, int64_t incx,
                     uint64_t y, int64_t incy);
    /* alpha_real: alpha is of the real type (Csscal, Zdscal). */
    CUresult (*scal)(struct cb_backend *b, cb_blas_type t, int64_t n, const void *alpha, int alpha_real, uint64_t x,
                     int64_t incx);
    CUresult (*copy)(struct cb_backend *b, cb_blas_type t, int64_t n, uint64_t x, int64_t incx, uint64_t y,
                     int64_t incy);
    CUresult (*swap)(struct cb_backend *b, cb_blas_type t, int64_t n, uint64_t x, int64_t incx, uint64_t y,
                     int64_t incy);
    /* conj: x conjugated (dotc). result: one element of t. */
    CUresult (*dot)(struct cb_backend *b, cb_blas_type t, int conj, int64_t n, uint64_t x, int64_t incx, uint64_t y,
                    int64_t incy, void *result);
    /* result: the real type of t. */
    CUresult (*nrm2)(struct cb_backend *b, cb_blas_type t, int64_t n, uint64_t x, int64_t incx, void *result);
    CUresult (*asum)(struct cb_backend *b, cb_blas_type t, int64_t n, uint64_t x, int64_t incx, void *result);
    /* The 1-based index of the first element of largest (smallest: min) |re| + |im|; 0 when n <= 0. */
    CUresult (*iamax)(struct cb_backend *b, cb_blas_type t, int min, int64_t n, uint64_t x, int64_t incx,
                      int64_t *result);
    /* c: real; s: of t, or real when s_real (Csrot, Zdrot). */
    CUresult (*rot)(struct cb_backend *b, cb_blas_type t, int64_t n, uint64_t x, int64_t incx, uint64_t y,
                    int64_t incy, const void *c, const void *s, int s_real);
    /* Host scalars in and out: a, b (of t), c (real), s (of t). */
    CUresult (*rotg)(struct cb_backend *b, cb_blas_type t, void *a, void *bb, void *c, void *s);
    /* param: 5 host elements (flag, h11, h21, h12, h22), real types only. */
    CUresult (*rotm)(struct cb_backend *b, cb_blas_type t, int64_t n, uint64_t x, int64_t incx, uint64_t y,
                     int64_t incy, const void *param);
    CUresult (*rotmg)(struct cb_backend *b, cb_blas_type t, void *d1, void *d2, void *x1, const void *y1,
                      void *param);

    /* ---- level 2 (herm: the Hermitian form: hemv, her, hpr ...; alpha of
     * her/hpr is real). gemv's incx may be 0: every element of x is x[0]. */
    CUresult (*gemv)(struct cb_backend *b, cb_blas_type t, int trans, int64_t m, int64_t n, const void *alpha,
                     uint64_t a, int64_t lda, uint64_t x, int64_t incx, const void *beta, uint64_t y, int64_t incy);
    CUresult (*gbmv)(struct cb_backend *b, cb_blas_type t, int trans, int64_t m, int64_t n, int64_t kl, int64_t ku,
                     const void *alpha, uint64_t a, int64_t lda, uint64_t x, int64_t incx, const void *beta,
                     uint64_t y, int64_t incy);
    /* conj: y conjugated (gerc). */
    CUresult (*ger)(struct cb_backend *b, cb_blas_type t, int conj, int64_t m, int64_t n, const void *alpha,
                    uint64_t x, int64_t incx, uint64_t y, int64_t incy, uint64_t a, int64_t lda);
    CUresult (*symv)(struct cb_backend *b, cb_blas_type t, int herm, int uplo, int64_t n, const void *alpha,
                     uint64_t a, int64_t lda, uint64_t x, int64_t incx, const void *beta, uint64_t y, int64_t incy);
    CUresult (*sbmv)(struct cb_backend *b, cb_blas_type t, int herm, int uplo, int64_t n, int64_t k,
                     const void *alpha, uint64_t a, int64_t lda, uint64_t x, int64_t incx, const void *beta,
                     uint64_t y, int64_t incy);
    CUresult (*spmv)(struct cb_backend *b, cb_blas_type t, int herm, int uplo, int64_t n, const void *alpha,
                     uint64_t ap, uint64_t x, int64_t incx, const void *beta, uint64_t y, int64_t incy);
    CUresult (*syr)(struct cb_backend *b, cb_blas_type t, int herm, int uplo, int64_t n, const void *alpha,
                    uint64_t x, int64_t incx, uint64_t a, int64_t lda);
    CUresult (*spr)(struct cb_backend *b, cb_blas_type t, int herm, int uplo, int64_t n, const void *alpha,
                    uint64_t x, int64_t incx, uint64_t ap);
    CUresult (*syr2)(struct cb_backend *b, cb_blas_type t, int herm, int uplo, int64_t n, const void *alpha,
                     uint64_t x, int64_t incx, uint64_t y, int64_t incy, uint64_t a, int64_t lda);
    CUresult (*spr2)(struct cb_backend *b, cb_blas_type t, int herm, int uplo, int64_t n, const void *alpha,
                     uint64_t x, int64_t incx, uint64_t y, int64_t incy, uint64_t ap);
    /* Triangular: form 0 full (trmv/trsv), 1 banded with k (tbmv/tbsv), 2
     * packed (tpmv/tpsv; lda ignored). solve: x = op(A)^-1 x. */
    CUresult (*trmv)(struct cb_backend *b, cb_blas_type t, int solve, int form, int uplo, int trans, int diag,
                     int64_t n, int64_t k, uint64_t a, int64_t lda, uint64_t x, int64_t incx);

    /* ---- level 3 */
    CUresult (*gemm)(struct cb_backend *b, cb_blas_type t, int trans_a, int trans_b, int64_t m, int64_t n, int64_t k,
                     const void *alpha, uint64_t a, int64_t lda, uint64_t bb, int64_t ldb, const void *beta,
                     uint64_t c, int64_t ldc);
    CUresult (*symm)(struct cb_backend *b, cb_blas_type t, int herm, int side, int uplo, int64_t m, int64_t n,
                     const void *alpha, uint64_t a, int64_t lda, uint64_t bb, int64_t ldb, const void *beta,
                     uint64_t c, int64_t ldc);
    /* herk: alpha and beta real. */
    CUresult (*syrk)(struct cb_backend *b, cb_blas_type t, int herm, int uplo, int trans, int64_t n, int64_t k,
                     const void *alpha, uint64_t a, int64_t lda, const void *beta, uint64_t c, int64_t ldc);
    /* x: syrkx/herkx (C = alpha op(A) op(B)^T + beta C, one triangle),
     * else syr2k/her2k. her2k/herkx: beta real. */
    CUresult (*syr2k)(struct cb_backend *b, cb_blas_type t, int herm, int x, int uplo, int trans, int64_t n, int64_t k,
                      const void *alpha, uint64_t a, int64_t lda, uint64_t bb, int64_t ldb, const void *beta,
                      uint64_t c, int64_t ldc);
    /* C = alpha op(A) B (side left) or alpha B op(A); B and C may be the same. */
    CUresult (*trmm)(struct cb_backend *b, cb_blas_type t, int side, int uplo, int trans, int diag, int64_t m,
                     int64_t n, const void *alpha, uint64_t a, int64_t lda, uint64_t bb, int64_t ldb, uint64_t c,
                     int64_t ldc);
    /* B = alpha op(A)^-1 B (left) or alpha B op(A)^-1, in place. */
    CUresult (*trsm)(struct cb_backend *b, cb_blas_type t, int side, int uplo, int trans, int diag, int64_t m,
                     int64_t n, const void *alpha, uint64_t a, int64_t lda, uint64_t bb, int64_t ldb);
    CUresult (*geam)(struct cb_backend *b, cb_blas_type t, int trans_a, int trans_b, int64_t m, int64_t n,
                     const void *alpha, uint64_t a, int64_t lda, const void *beta, uint64_t bb, int64_t ldb,
                     uint64_t c, int64_t ldc);
    /* C = A diag(x) (side right) or diag(x) A (left). */
    CUresult (*dgmm)(struct cb_backend *b, cb_blas_type t, int side, int64_t m, int64_t n, uint64_t a, int64_t lda,
                     uint64_t x, int64_t incx, uint64_t c, int64_t ldc);
    /* Mixed precision, batches, epilogues. */
    CUresult (*gemm_ex)(struct cb_backend *b, const cb_blas_gemm *g);

    /* ---- LAPACK pieces (getrf/getrs/getri for cuBLAS's batched forms)
     * LU with partial pivoting of the n x n matrix a; pivots (device, n
     * int32, 1-based; 0: no pivoting); *info (host) 0 or the first zero
     * pivot (1-based). */
    CUresult (*getrf)(struct cb_backend *b, cb_blas_type t, int64_t n, uint64_t a, int64_t lda, uint64_t pivots,
                      int *info);
    /* Solves op(A) X = B with the factors of getrf (pivots 0: none). */
    CUresult (*getrs)(struct cb_backend *b, cb_blas_type t, int trans, int64_t n, int64_t nrhs, uint64_t a,
                      int64_t lda, uint64_t pivots, uint64_t bb, int64_t ldb);
    /* C = A^-1 from getrf's factors (out of place); *info as getrf's. */
    CUresult (*getri)(struct cb_backend *b, cb_blas_type t, int64_t n, uint64_t a, int64_t lda, uint64_t pivots,
                      uint64_t c, int64_t ldc, int *info);
    /* C = A^-1 by LU with partial pivoting of a copy (A unchanged); *info
     * as getrf's (C undefined when singular). */
    CUresult (*matinv)(struct cb_backend *b, cb_blas_type t, int64_t n, uint64_t a, int64_t lda, uint64_t c,
                       int64_t ldc, int *info);

    /* ---- DNN (backend_dnn.h; cuDNN): one convolution in any direction. */
    CUresult (*dnn_conv)(struct cb_backend *b, const cb_dnn_conv *c);

    /* ---- LAPACK (cuSOLVER's dense API; the CPU backend: cpu_lapack.c).
     * S/D/C/Z only. Every *info (host) is LAPACK's: 0, or the routine's
     * positive failure index (never negative: the facade validated). The
     * backend finds its own workspace; A, B ... are device addresses. */
    /* LU with partial pivoting of the m x n matrix a: pivots (device,
     * min(m, n) integers of piv_bytes = 4 or 8, 1-based; 0: no pivoting);
     * *info: the first zero pivot U(i, i), 1-based. */
    CUresult (*lapack_getrf)(struct cb_backend *b, cb_blas_type t, int64_t m, int64_t n, uint64_t a, int64_t lda,
                             uint64_t pivots, int piv_bytes, int64_t *info);
    /* op(A) X = B with getrf's factors of the n x n A (pivots 0: none). */
    CUresult (*lapack_getrs)(struct cb_backend *b, cb_blas_type t, int trans, int64_t n, int64_t nrhs, uint64_t a,
                             int64_t lda, uint64_t pivots, int piv_bytes, uint64_t bb, int64_t ldb);
    /* Cholesky A = L L^H (uplo lower) or U^H U in the uplo triangle; *info:
     * the order of the first leading minor that is not positive definite. */
    CUresult (*lapack_potrf)(struct cb_backend *b, cb_blas_type t, int uplo, int64_t n, uint64_t a, int64_t lda,
                             int64_t *info);
    CUresult (*lapack_potrs)(struct cb_backend *b, cb_blas_type t, int uplo, int64_t n, int64_t nrhs, uint64_t a,
                             int64_t lda, uint64_t bb, int64_t ldb);
    /* A^-1 from potrf's factor, into the uplo triangle; *info: the first
     * zero on the factor's diagonal (A then unchanged). */
    CUresult (*lapack_potri)(struct cb_backend *b, cb_blas_type t, int uplo, int64_t n, uint64_t a, int64_t lda,
                             int64_t *info);
    /* Householder QR (LAPACK's reflectors): R and the vectors in a, tau
     * (min(m, n) elements). */
    CUresult (*lapack_geqrf)(struct cb_backend *b, cb_blas_type t, int64_t m, int64_t n, uint64_t a, int64_t lda,
                             uint64_t tau);
    /* The first n columns of Q = H(1) ... H(k) into a (orgqr/ungqr). */
    CUresult (*lapack_orgqr)(struct cb_backend *b, cb_blas_type t, int64_t m, int64_t n, int64_t k, uint64_t a,
                             int64_t lda, uint64_t tau);
    /* C = op(Q) C (side left) or C op(Q), op N, T (real) or C (complex). */
    CUresult (*lapack_ormqr)(struct cb_backend *b, cb_blas_type t, int side, int trans, int64_t m, int64_t n,
                             int64_t k, uint64_t a, int64_t lda, uint64_t tau, uint64_t c, int64_t ldc);
    /* A = U S V^H: jobu / jobvt 'A', 'S', 'O' or 'N' as LAPACK's; s, the
     * real singular values (descending); superb (0: none): min(m, n) - 1
     * reals, the unconverged superdiagonal when *info > 0. */
    CUresult (*lapack_gesvd)(struct cb_backend *b, cb_blas_type t, char jobu, char jobvt, int64_t m, int64_t n,
                             uint64_t a, int64_t lda, uint64_t s, uint64_t u, int64_t ldu, uint64_t vt, int64_t ldvt,
                             uint64_t superb, int64_t *info);
    /* Eigenvalues (ascending, real, into w) and with vectors set the
     * orthonormal eigenvectors (into a) of the symmetric / Hermitian A. */
    CUresult (*lapack_syevd)(struct cb_backend *b, cb_blas_type t, int vectors, int uplo, int64_t n, uint64_t a,
                             int64_t lda, uint64_t w, int64_t *info);

    /* ---- sparse kernels (cuSPARSE; the CPU backend: cpu_sparse*.c), on
     * the cb_sparse / cb_dense views below. Scalars are host values of
     * the compute type; beta == 0 means the output is not read. The
     * facade validated sizes, types and index ranges' extents. */
    /* y = alpha op(A) x + beta y (x, y: vectors). */
    CUresult (*sparse_mv)(struct cb_backend *b, int trans, const void *alpha, const struct cb_sparse *a,
                          const struct cb_dense *x, const void *beta, const struct cb_dense *y, cb_blas_type compute);
    /* C = alpha op(A) op(B) + beta C, every batch entry. */
    CUresult (*sparse_mm)(struct cb_backend *b, int trans_a, int trans_b, const void *alpha, const struct cb_sparse *a,
                          const struct cb_dense *bm, const void *beta, const struct cb_dense *c, cb_blas_type compute);
    /* One of CB_SPVEC_* on the sparse vector x and the dense vector y. */
    CUresult (*sparse_vec)(struct cb_backend *b, int kind, const struct cb_sparse *x, const struct cb_dense *y,
                           const void *alpha, const void *beta, void *result, cb_blas_type compute);
    /* D = A, zeros elsewhere. */
    CUresult (*sparse_to_dense)(struct cb_backend *b, const struct cb_sparse *a, const struct cb_dense *d);
    /* A = the nonzeros of D. count_only: only *nnz and (CSR, CSC) A's
     * offsets are written; else A's indices and values, in order. */
    CUresult (*sparse_from_dense)(struct cb_backend *b, const struct cb_dense *d, const struct cb_sparse *a,
                                  int count_only, int64_t *nnz);
    /* CSR (rowptr, colind, val) of an m x n matrix -> CSC (cscptr,
     * cscrow, cscval; with values unset only the structure), 32-bit. */
    CUresult (*sparse_csr2csc)(struct cb_backend *b, cb_blas_type t, int64_t m, int64_t n, int64_t nnz, uint64_t val,
                               uint64_t rowptr, uint64_t colind, uint64_t cscval, uint64_t cscptr, uint64_t cscrow,
                               int values, int base);
    /* Sorts 32-bit indices, carrying perm (0: none) along: CB_SPSORT_CSR
     * sorts ind within each row of the offsets ptr (m rows), CSC the
     * same by columns (n), COO_ROW sorts the pairs (ptr, ind) = (rows,
     * cols) by row then column, COO_COL by column then row. */
    CUresult (*sparse_sort)(struct cb_backend *b, int kind, int64_t m, int64_t n, int64_t nnz, uint64_t ptr,
                            uint64_t ind, uint64_t perm, int base);
    /* Sorted COO row indices -> CSR offsets (m + 1), or back with expand. */
    CUresult (*sparse_compress)(struct cb_backend *b, int expand, int64_t m, int64_t nnz, uint64_t rows,
                                uint64_t offsets, int base);
    /* p[i] = i, 32-bit. */
    CUresult (*sparse_identity)(struct cb_backend *b, int64_t n, uint64_t p);
    /* SpGEMM, C = alpha A B of CSR matrices: the number of products
     * (an upper bound of C's nnz); the product into scratch (device,
     * cb_spgemm_scratch_bytes), *nnz; then its copy into C, whose nnz is
     * the product's. */
    CUresult (*spgemm_products)(struct cb_backend *b, const struct cb_sparse *a, const struct cb_sparse *bm,
                                int64_t *products);
    CUresult (*spgemm_compute)(struct cb_backend *b, const void *alpha, const struct cb_sparse *a,
                               const struct cb_sparse *bm, cb_blas_type compute, uint64_t scratch, int64_t *nnz);
    CUresult (*spgemm_copy)(struct cb_backend *b, uint64_t scratch, const struct cb_sparse *c);
    /* geam, C = alpha A + beta B of rows x cols CSR matrices (cuSPARSE's
     * csrgeam2): C's pattern in each row is the union of A's and B's,
     * columns ascending (an entry both hold, or one stored twice, is one
     * entry: the sum). count_only: only C's offsets (rows + 1, C's base)
     * and *nnz (C's entry count) are written, alpha and beta unused; else
     * C's columns and values go into the slots C's offsets give each row
     * (c->nnz: the extent of C's arrays; a row gets at most its slots, a
     * slot past them stays unwritten), C's offsets are read only. A zero
     * scalar: that matrix's values are not read. Entries at positions
     * outside [0, nnz) of their matrix, and columns outside [0, cols), are
     * left out. */
    CUresult (*sparse_geam)(struct cb_backend *b, const void *alpha, const struct cb_sparse *a, const void *beta,
                            const struct cb_sparse *bm, const struct cb_sparse *c, cb_blas_type compute,
                            int count_only, int64_t *nnz);
} cb_backend_lib;

/* ---- sparse views (cuSPARSE's descriptors, as the backend sees them) ---- */

/* cusparseFormat_t's values, and a sparse vector. */
enum { CB_SP_CSR = 1, CB_SP_CSC = 2, CB_SP_COO = 3, CB_SP_BELL = 5, CB_SP_VEC = 100 };
enum { CB_SPVEC_AXPBY, CB_SPVEC_GATHER, CB_SPVEC_SCATTER, CB_SPVEC_ROT, CB_SPVEC_DOT, CB_SPVEC_DOTC };
enum { CB_SPSORT_CSR, CB_SPSORT_CSC, CB_SPSORT_COO_ROW, CB_SPSORT_COO_COL };

typedef struct cb_sparse {
    int format;                  /* CB_SP_* */
    int64_t rows, cols, nnz;     /* a vector: rows is its size */
    uint64_t offsets;            /* CSR: rows + 1 row offsets; CSC: cols + 1 column offsets */
    uint64_t rowind;             /* COO, CSC: row indices */
    uint64_t colind;             /* COO, CSR: column indices; BELL: block columns; a vector: its indices */
    uint64_t values;
    int off_bytes, idx_bytes;    /* 4 or 8 */
    int base;                    /* 0 or 1 */
    cb_blas_type type;
    int64_t ell_block, ell_cols; /* blocked ELL: block size, ELL columns (elements) */
    int64_t batch;               /* >= 1; entries at the strides (elements) below */
    int64_t off_stride, idx_stride, val_stride;
} cb_sparse;

typedef struct cb_dense {
    int64_t rows, cols, ld;      /* a vector: cols = 1, ld = rows */
    int row_major;
    uint64_t values;
    cb_blas_type type;
    int64_t batch, stride;       /* batch >= 1, stride in elements */
} cb_dense;

/* The scratch an SpGEMM product of rows rows and products products of
 * elements of vbytes needs: the count of products (int64), int64 offsets,
 * int64 columns, the values. */
static inline size_t cb_spgemm_scratch_bytes(int64_t rows, int64_t products, size_t vbytes)
{
    return 8 + (size_t)(rows + 1) * 8 + (size_t)products * (8 + vbytes) + 64;
}

#endif
