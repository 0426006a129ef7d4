/* cusolver_internal.h: what the files of the cuSOLVER facade share.
 *
 *   handle.c       handles, streams, params objects, versions, modes
 *   exec.c         the stream operation every computing call becomes, and
 *                  the checked run around the backend
 *   lu.c           getrf, getrs (S/D/C/Z and the 64-bit generic API)
 *   chol.c         potrf, potrs, potri
 *   qr.c           geqrf, orgqr/ungqr, ormqr/unmqr
 *   spectral.c     gesvd, syevd/heevd (and Xgesvd, Xsyevd)
 *   ref_dense.c    C references in double: LU, Cholesky, Householder QR
 *   ref_spectral.c C references in double: Jacobi eigenvalues and SVD,
 *                  and the alignment of singular/eigen vectors
 *
 * Every implementation file includes cusolver_impl.h (generated: the
 * header's prototypes under the cb_impl_ names), so that a definition
 * written as `cusolverStatus_t cusolverDnSgetrf(...)` is checked against
 * NVIDIA's prototype and defines the export's implementation.
 */
#ifndef CBL_CUSOLVER_INTERNAL_H
#define CBL_CUSOLVER_INTERNAL_H

#include "cusolver_impl.h"

#include "backend/backend_lib.h"
#include "backend/blas_elem.h"
#include "lib/common/check.h"
#include "lib/common/facade.h"

#define CUSOLVER_HANDLE_MAGIC 0x63624c53u   /* "cbLS" */
#define CUSOLVER_PARAMS_MAGIC 0x63624c50u   /* "cbLP" */

/* A dense handle (cusolverDnHandle_t points here). */
struct cusolverDnContext {
    uint32_t magic;
    cb_context *ctx;                 /* the context current at cusolverDnCreate */
    cudaStream_t stream;             /* NULL: the legacy default stream */
    cusolverDeterministicMode_t deterministic;
    cusolverMathMode_t math;
    cudaEmulationStrategy_t emulation;
};

/* A params object of the 64-bit API (cusolverDnParams_t). The CPU
 * backend has one algorithm per routine; the choices are kept. */
struct cusolverDnParams {
    uint32_t magic;
    cusolverAlgMode_t alg[3];        /* by cusolverDnFunction_t */
};

#define CUSOLVER_LIB (&cbl_cusolver_library)

/* NOT_INITIALIZED for NULL or a handle that is not one. */
cusolverStatus_t cusolver_handle_check(cusolverDnHandle_t h);
/* INVALID_VALUE for NULL or a params object that is not one. */
cusolverStatus_t cusolver_params_check(cusolverDnParams_t p);

/* ---- types ------------------------------------------------------------------ */

/* cudaDataType of the 64-bit API -> S/D/C/Z, or -1. */
int cusolver_type_of(cudaDataType t);
/* The real type of t (C32 -> F32). */
static inline cb_blas_type cusolver_real(cb_blas_type t) { return cb_blas_type_real(t); }
static inline int cusolver_complex(cb_blas_type t) { return t == CB_BLAS_C32 || t == CB_BLAS_C64; }

/* The workspace sizes cubridge asks for: elements of the legacy API's
 * Lwork (the CPU backend allocates its own and needs none; the value is
 * small but not zero, so that programs that allocate it and pass it work). */
int cusolver_lwork(int64_t m, int64_t n);

/* ---- one computing call ------------------------------------------------------- */

typedef struct solver_op solver_op;

typedef struct solver_routine {
    /* The backend call(s); *info: what goes to devInfo. */
    CUresult (*run)(solver_op *o, cb_backend *b, int64_t *info);
    /* Fills ops (at most SOLVER_MAX_OPS) with the operands, info among
     * them; returns their count. */
    int (*operands)(solver_op *o, cbl_operand *ops);
    /* The C reference on host copies (ops[i].ref), may be NULL. */
    void (*reference)(void *o, cbl_operand *ops);
} solver_routine;

enum { SOLVER_MAX_OPS = 8 };

struct solver_op {
    cbl_op base;
    const solver_routine *r;
    const char *function;            /* the export's name (static) */
    cb_blas_type t;
    int uplo, trans, side, vectors;
    int piv_bytes;                   /* 4, or 8 for the 64-bit API's ipiv */
    char jobu, jobvt;
    int64_t m, n, k, nrhs, lda, ldb, ldc, ldu, ldvt;
    uint64_t a, b, c, tau, s, u, vt, w, ipiv, rwork, info;
    int in_graph;                    /* captured: strict drift becomes a sticky error */
};

/* A new op for routine r (zeroed), NULL when out of memory. */
solver_op *solver_op_new(const solver_routine *r, const char *function, cb_blas_type t);

/* Submits o on h's stream (o is owned by the stream from here on); waits
 * in verify mode and then returns the run's status. */
cusolverStatus_t solver_submit(cusolverDnHandle_t h, solver_op *o);

/* Operands. */
cbl_operand solver_matrix(const char *name, uint64_t addr, int64_t rows, int64_t cols, int64_t ld, int out,
                          cb_blas_type t);
cbl_operand solver_vector(const char *name, uint64_t addr, int64_t n, int out, cb_blas_type t);
cbl_operand solver_ints(const char *name, uint64_t addr, int64_t n, int bytes, int out);

/* ---- validation (docs/libraries.md, "cuSOLVER: bad input") ------------------------- */

static inline int64_t cusolver_max1(int64_t v) { return v > 1 ? v : 1; }
int cusolver_fill_valid(cublasFillMode_t f);
int cusolver_op_valid(cublasOperation_t op);

/* ---- references (ref_dense.c, ref_spectral.c) ---------------------------------------- */

/* A dense column-major matrix of complex doubles (ld = rows). */
typedef struct ref_mat {
    int64_t rows, cols;
    cb_cplx *v;
} ref_mat;

#define RM(M, i, j) ((M).v[(size_t)(i) + (size_t)(j) * (size_t)(M).rows])

/* Loads rows x cols of elements of t (ld) from host memory p; NULL v when
 * out of memory (then the reference notes it and leaves ref unchanged). */
ref_mat ref_load(cb_blas_type t, const void *p, int64_t rows, int64_t cols, int64_t ld);
void ref_store(const ref_mat *m, cb_blas_type t, void *p, int64_t ld);
ref_mat ref_new(int64_t rows, int64_t cols);
void ref_free(ref_mat *m);

static inline cb_cplx rc_mul(cb_cplx a, cb_cplx b) { return (cb_cplx){a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re}; }
static inline cb_cplx rc_add(cb_cplx a, cb_cplx b) { return (cb_cplx){a.re + b.re, a.im + b.im}; }
static inline cb_cplx rc_sub(cb_cplx a, cb_cplx b) { return (cb_cplx){a.re - b.re, a.im - b.im}; }
static inline cb_cplx rc_conj(cb_cplx a) { return (cb_cplx){a.re, -a.im}; }
static inline cb_cplx rc_scale(cb_cplx a, double s) { return (cb_cplx){a.re * s, a.im * s}; }
static inline double rc_abs2(cb_cplx a) { return a.re * a.re + a.im * a.im; }
cb_cplx rc_div(cb_cplx a, cb_cplx b);
double rc_abs(cb_cplx a);

/* LU with partial pivoting (LAPACK's rule: the first largest |re| + |im|);
 * hint (NULL: none) are the pivots the backend chose (1-based): one
 * within a relative 1e-3 of the largest is taken instead, so that a
 * near-tie does not make the comparison fail. piv: min(m, n) (1-based).
 * Returns info. */
int64_t ref_getrf(ref_mat *a, const int64_t *hint, int64_t *piv, int pivoting);
/* Solves op(A) X = B (trans: CB_BLAS_OP_*) with getrf's factors. */
void ref_getrs(const ref_mat *lu, const int64_t *piv, int trans, ref_mat *b);
/* Cholesky in the uplo triangle; returns info (the triangle holds the
 * factor up to the failing column). */
int64_t ref_potrf(ref_mat *a, int uplo);
void ref_potrs(const ref_mat *f, int uplo, ref_mat *b);
/* The inverse from the factor into the uplo triangle; info: the first
 * zero on the factor's diagonal (a then unchanged). */
int64_t ref_potri(ref_mat *a, int uplo);
/* Householder QR (LAPACK's dgeqr2/zgeqr2 reflectors); tau: min(m, n). */
void ref_geqrf(ref_mat *a, cb_cplx *tau);
/* The first cols of Q = H(1) ... H(k) from the reflectors in a. */
void ref_orgqr(ref_mat *a, int64_t k, const cb_cplx *tau);
/* c = op(Q) c or c op(Q), Q from the reflectors in the first k columns of v. */
void ref_ormqr(const ref_mat *v, int64_t k, const cb_cplx *tau, int side, int trans, ref_mat *c);

/* Eigen-decomposition of the Hermitian a (its uplo triangle): ascending
 * w (n), vectors (n x n, when not NULL). Cyclic Jacobi. */
void ref_heev(const ref_mat *a, int uplo, double *w, ref_mat *vectors);
/* SVD of a (m x n, any shape): s (min(m, n), descending), u (m x m) and
 * v (n x n, V not V^H), both full and unitary. One-sided Jacobi. */
int ref_gesvd(const ref_mat *a, double *s, ref_mat *u, ref_mat *v);
/* Aligns the result's columns first..first+k-1 (res) with the
 * reference's: the reference's basis of that subspace, its columns
 * first..first+kb-1 (kb >= k: a null space may be wider than the part of
 * it the result holds), times the polar factor W (kb x k) of basis^H res
 * becomes the reference's columns first..first+k-1, so that a correct
 * result matches whatever basis it chose. With kb == k and partner set,
 * partner's columns first..first+k-1 get the same W (V for U). */
void ref_align(ref_mat *ref, int64_t kb, const ref_mat *res, int64_t first, int64_t k, ref_mat *partner);
/* Clusters of values: cluster[i] = index of the first value of i's
 * cluster, for values (sorted either way) closer than tol. Returns the
 * smallest gap between clusters (INFINITY: one cluster). */
double ref_clusters(const double *vals, int64_t n, double tol, int64_t *cluster);

#endif
