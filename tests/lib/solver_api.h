/* solver_api.h: cuSOLVER's dense S/D/C/Z entry points as C++ overloads
 * on the element type, for the tests/lib programs (cusolver_*.cu): one
 * name per operation, each overload calling NVIDIA's function by its
 * own name (so `cubridge coverage` sees every call). */
#ifndef CUBRIDGE_TESTS_SOLVER_API_H
#define CUBRIDGE_TESTS_SOLVER_API_H

#include <cuComplex.h>
#include <cusolverDn.h>

#include <stdio.h>
#include <stdlib.h>

#include "lib_fail.h"

#define CHECK_SOLVER(call)                                                                         \
  do {                                                                                             \
    cusolverStatus_t cb_sst_ = (call);                                                             \
    if (cb_sst_ != CUSOLVER_STATUS_SUCCESS) {                                                      \
      printf("FAIL %s:%d: %s returned %d\n", __FILE__, __LINE__, #call, (int)cb_sst_);             \
      lib_fail();                                                                                     \
    }                                                                                              \
  } while (0)

typedef cusolverDnHandle_t dnh;
typedef cuComplex C32;
typedef cuDoubleComplex C64;

/* ---- LU ---------------------------------------------------------------------------------- */
static inline cusolverStatus_t getrf_bs(dnh h, int m, int n, float *A, int lda, int *lw) { return cusolverDnSgetrf_bufferSize(h, m, n, A, lda, lw); }
static inline cusolverStatus_t getrf_bs(dnh h, int m, int n, double *A, int lda, int *lw) { return cusolverDnDgetrf_bufferSize(h, m, n, A, lda, lw); }
static inline cusolverStatus_t getrf_bs(dnh h, int m, int n, C32 *A, int lda, int *lw) { return cusolverDnCgetrf_bufferSize(h, m, n, A, lda, lw); }
static inline cusolverStatus_t getrf_bs(dnh h, int m, int n, C64 *A, int lda, int *lw) { return cusolverDnZgetrf_bufferSize(h, m, n, A, lda, lw); }

static inline cusolverStatus_t getrf(dnh h, int m, int n, float *A, int lda, float *w, int *p, int *i) { return cusolverDnSgetrf(h, m, n, A, lda, w, p, i); }
static inline cusolverStatus_t getrf(dnh h, int m, int n, double *A, int lda, double *w, int *p, int *i) { return cusolverDnDgetrf(h, m, n, A, lda, w, p, i); }
static inline cusolverStatus_t getrf(dnh h, int m, int n, C32 *A, int lda, C32 *w, int *p, int *i) { return cusolverDnCgetrf(h, m, n, A, lda, w, p, i); }
static inline cusolverStatus_t getrf(dnh h, int m, int n, C64 *A, int lda, C64 *w, int *p, int *i) { return cusolverDnZgetrf(h, m, n, A, lda, w, p, i); }

static inline cusolverStatus_t getrs(dnh h, cublasOperation_t t, int n, int r, const float *A, int lda, const int *p, float *B, int ldb, int *i) { return cusolverDnSgetrs(h, t, n, r, A, lda, p, B, ldb, i); }
static inline cusolverStatus_t getrs(dnh h, cublasOperation_t t, int n, int r, const double *A, int lda, const int *p, double *B, int ldb, int *i) { return cusolverDnDgetrs(h, t, n, r, A, lda, p, B, ldb, i); }
static inline cusolverStatus_t getrs(dnh h, cublasOperation_t t, int n, int r, const C32 *A, int lda, const int *p, C32 *B, int ldb, int *i) { return cusolverDnCgetrs(h, t, n, r, A, lda, p, B, ldb, i); }
static inline cusolverStatus_t getrs(dnh h, cublasOperation_t t, int n, int r, const C64 *A, int lda, const int *p, C64 *B, int ldb, int *i) { return cusolverDnZgetrs(h, t, n, r, A, lda, p, B, ldb, i); }

/* ---- Cholesky ---------------------------------------------------------------------------- */
static inline cusolverStatus_t potrf_bs(dnh h, cublasFillMode_t u, int n, float *A, int lda, int *lw) { return cusolverDnSpotrf_bufferSize(h, u, n, A, lda, lw); }
static inline cusolverStatus_t potrf_bs(dnh h, cublasFillMode_t u, int n, double *A, int lda, int *lw) { return cusolverDnDpotrf_bufferSize(h, u, n, A, lda, lw); }
static inline cusolverStatus_t potrf_bs(dnh h, cublasFillMode_t u, int n, C32 *A, int lda, int *lw) { return cusolverDnCpotrf_bufferSize(h, u, n, A, lda, lw); }
static inline cusolverStatus_t potrf_bs(dnh h, cublasFillMode_t u, int n, C64 *A, int lda, int *lw) { return cusolverDnZpotrf_bufferSize(h, u, n, A, lda, lw); }

static inline cusolverStatus_t potrf(dnh h, cublasFillMode_t u, int n, float *A, int lda, float *w, int lw, int *i) { return cusolverDnSpotrf(h, u, n, A, lda, w, lw, i); }
static inline cusolverStatus_t potrf(dnh h, cublasFillMode_t u, int n, double *A, int lda, double *w, int lw, int *i) { return cusolverDnDpotrf(h, u, n, A, lda, w, lw, i); }
static inline cusolverStatus_t potrf(dnh h, cublasFillMode_t u, int n, C32 *A, int lda, C32 *w, int lw, int *i) { return cusolverDnCpotrf(h, u, n, A, lda, w, lw, i); }
static inline cusolverStatus_t potrf(dnh h, cublasFillMode_t u, int n, C64 *A, int lda, C64 *w, int lw, int *i) { return cusolverDnZpotrf(h, u, n, A, lda, w, lw, i); }

static inline cusolverStatus_t potrs(dnh h, cublasFillMode_t u, int n, int r, const float *A, int lda, float *B, int ldb, int *i) { return cusolverDnSpotrs(h, u, n, r, A, lda, B, ldb, i); }
static inline cusolverStatus_t potrs(dnh h, cublasFillMode_t u, int n, int r, const double *A, int lda, double *B, int ldb, int *i) { return cusolverDnDpotrs(h, u, n, r, A, lda, B, ldb, i); }
static inline cusolverStatus_t potrs(dnh h, cublasFillMode_t u, int n, int r, const C32 *A, int lda, C32 *B, int ldb, int *i) { return cusolverDnCpotrs(h, u, n, r, A, lda, B, ldb, i); }
static inline cusolverStatus_t potrs(dnh h, cublasFillMode_t u, int n, int r, const C64 *A, int lda, C64 *B, int ldb, int *i) { return cusolverDnZpotrs(h, u, n, r, A, lda, B, ldb, i); }

static inline cusolverStatus_t potri_bs(dnh h, cublasFillMode_t u, int n, float *A, int lda, int *lw) { return cusolverDnSpotri_bufferSize(h, u, n, A, lda, lw); }
static inline cusolverStatus_t potri_bs(dnh h, cublasFillMode_t u, int n, double *A, int lda, int *lw) { return cusolverDnDpotri_bufferSize(h, u, n, A, lda, lw); }
static inline cusolverStatus_t potri_bs(dnh h, cublasFillMode_t u, int n, C32 *A, int lda, int *lw) { return cusolverDnCpotri_bufferSize(h, u, n, A, lda, lw); }
static inline cusolverStatus_t potri_bs(dnh h, cublasFillMode_t u, int n, C64 *A, int lda, int *lw) { return cusolverDnZpotri_bufferSize(h, u, n, A, lda, lw); }

static inline cusolverStatus_t potri(dnh h, cublasFillMode_t u, int n, float *A, int lda, float *w, int lw, int *i) { return cusolverDnSpotri(h, u, n, A, lda, w, lw, i); }
static inline cusolverStatus_t potri(dnh h, cublasFillMode_t u, int n, double *A, int lda, double *w, int lw, int *i) { return cusolverDnDpotri(h, u, n, A, lda, w, lw, i); }
static inline cusolverStatus_t potri(dnh h, cublasFillMode_t u, int n, C32 *A, int lda, C32 *w, int lw, int *i) { return cusolverDnCpotri(h, u, n, A, lda, w, lw, i); }
static inline cusolverStatus_t potri(dnh h, cublasFillMode_t u, int n, C64 *A, int lda, C64 *w, int lw, int *i) { return cusolverDnZpotri(h, u, n, A, lda, w, lw, i); }

/* ---- QR ---------------------------------------------------------------------------------- */
static inline cusolverStatus_t geqrf_bs(dnh h, int m, int n, float *A, int lda, int *lw) { return cusolverDnSgeqrf_bufferSize(h, m, n, A, lda, lw); }
static inline cusolverStatus_t geqrf_bs(dnh h, int m, int n, double *A, int lda, int *lw) { return cusolverDnDgeqrf_bufferSize(h, m, n, A, lda, lw); }
static inline cusolverStatus_t geqrf_bs(dnh h, int m, int n, C32 *A, int lda, int *lw) { return cusolverDnCgeqrf_bufferSize(h, m, n, A, lda, lw); }
static inline cusolverStatus_t geqrf_bs(dnh h, int m, int n, C64 *A, int lda, int *lw) { return cusolverDnZgeqrf_bufferSize(h, m, n, A, lda, lw); }

static inline cusolverStatus_t geqrf(dnh h, int m, int n, float *A, int lda, float *tau, float *w, int lw, int *i) { return cusolverDnSgeqrf(h, m, n, A, lda, tau, w, lw, i); }
static inline cusolverStatus_t geqrf(dnh h, int m, int n, double *A, int lda, double *tau, double *w, int lw, int *i) { return cusolverDnDgeqrf(h, m, n, A, lda, tau, w, lw, i); }
static inline cusolverStatus_t geqrf(dnh h, int m, int n, C32 *A, int lda, C32 *tau, C32 *w, int lw, int *i) { return cusolverDnCgeqrf(h, m, n, A, lda, tau, w, lw, i); }
static inline cusolverStatus_t geqrf(dnh h, int m, int n, C64 *A, int lda, C64 *tau, C64 *w, int lw, int *i) { return cusolverDnZgeqrf(h, m, n, A, lda, tau, w, lw, i); }

/* orgqr (real) / ungqr (complex) */
static inline cusolverStatus_t orgqr_bs(dnh h, int m, int n, int k, const float *A, int lda, const float *tau, int *lw) { return cusolverDnSorgqr_bufferSize(h, m, n, k, A, lda, tau, lw); }
static inline cusolverStatus_t orgqr_bs(dnh h, int m, int n, int k, const double *A, int lda, const double *tau, int *lw) { return cusolverDnDorgqr_bufferSize(h, m, n, k, A, lda, tau, lw); }
static inline cusolverStatus_t orgqr_bs(dnh h, int m, int n, int k, const C32 *A, int lda, const C32 *tau, int *lw) { return cusolverDnCungqr_bufferSize(h, m, n, k, A, lda, tau, lw); }
static inline cusolverStatus_t orgqr_bs(dnh h, int m, int n, int k, const C64 *A, int lda, const C64 *tau, int *lw) { return cusolverDnZungqr_bufferSize(h, m, n, k, A, lda, tau, lw); }

static inline cusolverStatus_t orgqr(dnh h, int m, int n, int k, float *A, int lda, const float *tau, float *w, int lw, int *i) { return cusolverDnSorgqr(h, m, n, k, A, lda, tau, w, lw, i); }
static inline cusolverStatus_t orgqr(dnh h, int m, int n, int k, double *A, int lda, const double *tau, double *w, int lw, int *i) { return cusolverDnDorgqr(h, m, n, k, A, lda, tau, w, lw, i); }
static inline cusolverStatus_t orgqr(dnh h, int m, int n, int k, C32 *A, int lda, const C32 *tau, C32 *w, int lw, int *i) { return cusolverDnCungqr(h, m, n, k, A, lda, tau, w, lw, i); }
static inline cusolverStatus_t orgqr(dnh h, int m, int n, int k, C64 *A, int lda, const C64 *tau, C64 *w, int lw, int *i) { return cusolverDnZungqr(h, m, n, k, A, lda, tau, w, lw, i); }

/* ormqr (real) / unmqr (complex) */
static inline cusolverStatus_t ormqr_bs(dnh h, cublasSideMode_t s, cublasOperation_t t, int m, int n, int k, const float *A, int lda, const float *tau, const float *C, int ldc, int *lw) { return cusolverDnSormqr_bufferSize(h, s, t, m, n, k, A, lda, tau, C, ldc, lw); }
static inline cusolverStatus_t ormqr_bs(dnh h, cublasSideMode_t s, cublasOperation_t t, int m, int n, int k, const double *A, int lda, const double *tau, const double *C, int ldc, int *lw) { return cusolverDnDormqr_bufferSize(h, s, t, m, n, k, A, lda, tau, C, ldc, lw); }
static inline cusolverStatus_t ormqr_bs(dnh h, cublasSideMode_t s, cublasOperation_t t, int m, int n, int k, const C32 *A, int lda, const C32 *tau, const C32 *C, int ldc, int *lw) { return cusolverDnCunmqr_bufferSize(h, s, t, m, n, k, A, lda, tau, C, ldc, lw); }
static inline cusolverStatus_t ormqr_bs(dnh h, cublasSideMode_t s, cublasOperation_t t, int m, int n, int k, const C64 *A, int lda, const C64 *tau, const C64 *C, int ldc, int *lw) { return cusolverDnZunmqr_bufferSize(h, s, t, m, n, k, A, lda, tau, C, ldc, lw); }

static inline cusolverStatus_t ormqr(dnh h, cublasSideMode_t s, cublasOperation_t t, int m, int n, int k, const float *A, int lda, const float *tau, float *C, int ldc, float *w, int lw, int *i) { return cusolverDnSormqr(h, s, t, m, n, k, A, lda, tau, C, ldc, w, lw, i); }
static inline cusolverStatus_t ormqr(dnh h, cublasSideMode_t s, cublasOperation_t t, int m, int n, int k, const double *A, int lda, const double *tau, double *C, int ldc, double *w, int lw, int *i) { return cusolverDnDormqr(h, s, t, m, n, k, A, lda, tau, C, ldc, w, lw, i); }
static inline cusolverStatus_t ormqr(dnh h, cublasSideMode_t s, cublasOperation_t t, int m, int n, int k, const C32 *A, int lda, const C32 *tau, C32 *C, int ldc, C32 *w, int lw, int *i) { return cusolverDnCunmqr(h, s, t, m, n, k, A, lda, tau, C, ldc, w, lw, i); }
static inline cusolverStatus_t ormqr(dnh h, cublasSideMode_t s, cublasOperation_t t, int m, int n, int k, const C64 *A, int lda, const C64 *tau, C64 *C, int ldc, C64 *w, int lw, int *i) { return cusolverDnZunmqr(h, s, t, m, n, k, A, lda, tau, C, ldc, w, lw, i); }

/* ---- SVD (S, U, VT of the real type R for S) -------------------------------------------- */
static inline cusolverStatus_t gesvd_bs(dnh h, int m, int n, float *, int *lw) { return cusolverDnSgesvd_bufferSize(h, m, n, lw); }
static inline cusolverStatus_t gesvd_bs(dnh h, int m, int n, double *, int *lw) { return cusolverDnDgesvd_bufferSize(h, m, n, lw); }
static inline cusolverStatus_t gesvd_bs(dnh h, int m, int n, C32 *, int *lw) { return cusolverDnCgesvd_bufferSize(h, m, n, lw); }
static inline cusolverStatus_t gesvd_bs(dnh h, int m, int n, C64 *, int *lw) { return cusolverDnZgesvd_bufferSize(h, m, n, lw); }

static inline cusolverStatus_t gesvd(dnh h, signed char ju, signed char jv, int m, int n, float *A, int lda, float *S, float *U, int ldu, float *VT, int ldvt, float *w, int lw, float *rw, int *i) { return cusolverDnSgesvd(h, ju, jv, m, n, A, lda, S, U, ldu, VT, ldvt, w, lw, rw, i); }
static inline cusolverStatus_t gesvd(dnh h, signed char ju, signed char jv, int m, int n, double *A, int lda, double *S, double *U, int ldu, double *VT, int ldvt, double *w, int lw, double *rw, int *i) { return cusolverDnDgesvd(h, ju, jv, m, n, A, lda, S, U, ldu, VT, ldvt, w, lw, rw, i); }
static inline cusolverStatus_t gesvd(dnh h, signed char ju, signed char jv, int m, int n, C32 *A, int lda, float *S, C32 *U, int ldu, C32 *VT, int ldvt, C32 *w, int lw, float *rw, int *i) { return cusolverDnCgesvd(h, ju, jv, m, n, A, lda, S, U, ldu, VT, ldvt, w, lw, rw, i); }
static inline cusolverStatus_t gesvd(dnh h, signed char ju, signed char jv, int m, int n, C64 *A, int lda, double *S, C64 *U, int ldu, C64 *VT, int ldvt, C64 *w, int lw, double *rw, int *i) { return cusolverDnZgesvd(h, ju, jv, m, n, A, lda, S, U, ldu, VT, ldvt, w, lw, rw, i); }

/* ---- symmetric / Hermitian eigenvalues (syevd real, heevd complex) --------------------------- */
static inline cusolverStatus_t syevd_bs(dnh h, cusolverEigMode_t j, cublasFillMode_t u, int n, const float *A, int lda, const float *W, int *lw) { return cusolverDnSsyevd_bufferSize(h, j, u, n, A, lda, W, lw); }
static inline cusolverStatus_t syevd_bs(dnh h, cusolverEigMode_t j, cublasFillMode_t u, int n, const double *A, int lda, const double *W, int *lw) { return cusolverDnDsyevd_bufferSize(h, j, u, n, A, lda, W, lw); }
static inline cusolverStatus_t syevd_bs(dnh h, cusolverEigMode_t j, cublasFillMode_t u, int n, const C32 *A, int lda, const float *W, int *lw) { return cusolverDnCheevd_bufferSize(h, j, u, n, A, lda, W, lw); }
static inline cusolverStatus_t syevd_bs(dnh h, cusolverEigMode_t j, cublasFillMode_t u, int n, const C64 *A, int lda, const double *W, int *lw) { return cusolverDnZheevd_bufferSize(h, j, u, n, A, lda, W, lw); }

static inline cusolverStatus_t syevd(dnh h, cusolverEigMode_t j, cublasFillMode_t u, int n, float *A, int lda, float *W, float *w, int lw, int *i) { return cusolverDnSsyevd(h, j, u, n, A, lda, W, w, lw, i); }
static inline cusolverStatus_t syevd(dnh h, cusolverEigMode_t j, cublasFillMode_t u, int n, double *A, int lda, double *W, double *w, int lw, int *i) { return cusolverDnDsyevd(h, j, u, n, A, lda, W, w, lw, i); }
static inline cusolverStatus_t syevd(dnh h, cusolverEigMode_t j, cublasFillMode_t u, int n, C32 *A, int lda, float *W, C32 *w, int lw, int *i) { return cusolverDnCheevd(h, j, u, n, A, lda, W, w, lw, i); }
static inline cusolverStatus_t syevd(dnh h, cusolverEigMode_t j, cublasFillMode_t u, int n, C64 *A, int lda, double *W, C64 *w, int lw, int *i) { return cusolverDnZheevd(h, j, u, n, A, lda, W, w, lw, i); }

/* ---- per type: cudaDataType, the real type, a name --------------------------------------- */
template <class T> struct sv_type;
template <> struct sv_type<float> { typedef float R; static cudaDataType dt() { return CUDA_R_32F; } static cudaDataType rdt() { return CUDA_R_32F; } static const char *name() { return "S"; } };
template <> struct sv_type<double> { typedef double R; static cudaDataType dt() { return CUDA_R_64F; } static cudaDataType rdt() { return CUDA_R_64F; } static const char *name() { return "D"; } };
template <> struct sv_type<C32> { typedef float R; static cudaDataType dt() { return CUDA_C_32F; } static cudaDataType rdt() { return CUDA_R_32F; } static const char *name() { return "C"; } };
template <> struct sv_type<C64> { typedef double R; static cudaDataType dt() { return CUDA_C_64F; } static cudaDataType rdt() { return CUDA_R_64F; } static const char *name() { return "Z"; } };

#endif
