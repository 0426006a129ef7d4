/* cublas_internal.h: what the files of the cuBLAS facade share.
 *
 *   handle.c      handles and settings, status strings, versions, logging,
 *                 Set/GetVector/Matrix
 *   exec.c        the stream operation every computing call becomes, and
 *                 the checked run around the backend
 *   level1.c      axpy ... rotmg        ref_level1.c  their C references
 *   level2.c      gemv ... tpsv         ref_level2.c
 *   level3.c      gemm ... dgmm         ref_level3.c
 *   gemm_ex.c     GemmEx, the batched products, Hgemm, the *Ex level 1
 *   batched.c     trsmBatched, getrf/getrs/getri/matinvBatched
 *
 * Every implementation file includes cublas_impl.h (generated: the
 * header's prototypes under the cb_impl_ names), so that a definition
 * written as `cublasStatus_t cublasSgemm_v2(...)` is checked against
 * NVIDIA's prototype and defines the export's implementation.
 */
#ifndef CBL_CUBLAS_INTERNAL_H
#define CBL_CUBLAS_INTERNAL_H

#include "cublas_impl.h"

#include "backend/backend_lib.h"
#include "backend/blas_elem.h"
#include "lib/common/check.h"
#include "lib/common/facade.h"
#include "cublas_ref.h"

#define CUBLAS_HANDLE_MAGIC 0x63624c41u   /* "cbLA" */

/* A cuBLAS handle (cublasHandle_t points here). */
struct cublasContext {
    uint32_t magic;
    cb_context *ctx;                 /* the context current at cublasCreate */
    cudaStream_t stream;             /* NULL: the legacy default stream */
    cublasPointerMode_t pointer_mode;
    cublasAtomicsMode_t atomics_mode;
    cublasMath_t math_mode;
    void *workspace;
    size_t workspace_bytes;
    int sm_count_target;
    cublasEmulationStrategy_t emulation;
};

/* The library descriptor (generated) under a short name. */
#define CUBLAS_LIB (&cbl_cublas_library)

/* Checks h and returns its status: NOT_INITIALIZED for NULL or a handle
 * that is not one (destroyed). */
cublasStatus_t cublas_handle_check(cublasHandle_t h);
/* 1 when h's device has a library interface; else logs and 0. */
int cublas_backend_ok(cublasHandle_t h, const char *function);

/* Maps a backend or submission result to a cuBLAS status. */
cublasStatus_t cublas_status_of(CUresult r);

/* ---- one computing call ---------------------------------------------------- */

enum { CUBLAS_MAX_SCALARS = 4, CUBLAS_MAX_OPS = 8 };

typedef struct cublas_op cublas_op;

typedef struct cublas_routine {
    /* The backend call(s), with scalars resolved to host values. */
    CUresult (*run)(cublas_op *o, cb_backend *b);
    /* Fills ops (at most CUBLAS_MAX_OPS, or o->nops_dyn when o->ops_dyn is
     * set) with the operands; returns their count. */
    int (*operands)(cublas_op *o, cbl_operand *ops);
    /* The C reference on host copies (ops[i].ref); may be NULL. */
    void (*reference)(void *o, cbl_operand *ops);
} cublas_routine;

struct cublas_op {
    cbl_op base;
    const cublas_routine *r;
    const char *function;            /* the export's name (static) */
    cb_blas_type t;
    int ta, tb, uplo, diag, side;
    int herm, conj, form, solve, xform, alpha_real, s_real, min;
    int64_t m, n, k, kl, ku, lda, ldb, ldc, incx, incy;
    int64_t batch, sa, sb, sc;
    uint64_t a, b, c, x, y;
    /* Scalars in: sval holds host values; with dev set, sdev[i] is read at
     * run time (CUBLAS_POINTER_MODE_DEVICE). */
    int dev;
    uint64_t sdev[CUBLAS_MAX_SCALARS];
    size_t ssize[CUBLAS_MAX_SCALARS];
    _Alignas(16) unsigned char sval[CUBLAS_MAX_SCALARS][48];   /* 48: rotm's 5-element param */
    /* Scalar results: computed into out (host), then copied to host_out
     * (host pointer mode) or dev_out (device pointer mode). */
    _Alignas(16) unsigned char out[CUBLAS_MAX_SCALARS][48];
    size_t out_bytes[CUBLAS_MAX_SCALARS];
    void *host_out[CUBLAS_MAX_SCALARS];
    uint64_t dev_out[CUBLAS_MAX_SCALARS];
    int nout;
    /* Mixed-precision and batched products. */
    cb_blas_gemm g;
    uint64_t arr_dev[4];             /* device arrays of batch pointers (A, B, C, and a fourth) */
    uint64_t *arr_host[4];           /* their host copies, read at run time (owned) */
    uint64_t info_dev, piv_dev;      /* getrf/getri: info and pivot arrays (device) */
    int *info_host;                  /* getrsBatched / gelsBatched: host info */
    int64_t nrhs;
    /* Operands of batched calls (owned), sized at submission. */
    cbl_operand *ops_dyn;
    int nops_dyn;
    int in_graph;                    /* captured: strict drift becomes a sticky error */
    int check_tf32;                  /* note for the report */
};

/* A new op for routine r (zeroed), NULL when out of memory. */
cublas_op *cublas_op_new(const cublas_routine *r, const char *function, cb_blas_type t);

/* Scalar in i of size bytes at p: copied now in host pointer mode, read at
 * run time in device pointer mode. */
void cublas_op_scalar(cublas_op *o, cublasHandle_t h, int i, const void *p, size_t bytes);
/* Scalar result i of size bytes to p (host or device by pointer mode). */
void cublas_op_result(cublas_op *o, cublasHandle_t h, int i, void *p, size_t bytes);

/* Reads the device arrays of batch pointers arr_dev[i] (count entries
 * each) into arr_host[i], at run time. -1 when one is not device memory. */
int cublas_read_arrays(cublas_op *o, int64_t count);

/* Submits o on h's stream; waits when a result goes to host memory or in
 * verify mode, and then returns the run's status. */
cublasStatus_t cublas_op_submit(cublasHandle_t h, cublas_op *o);

/* The element type's bytes and comparison type. */
static inline size_t cublas_elem(cb_blas_type t) { return cb_blas_type_size(t); }
cb_inspect_elem cublas_cmp_type(cb_blas_type t);

/* Fills an operand. */
static inline cbl_operand cublas_operand(const char *name, uint64_t addr, size_t bytes, int out, cb_blas_type t)
{
    return (cbl_operand){.name = name, .addr = addr, .bytes = bytes, .out = out, .cmp = cublas_cmp_type(t),
                         .elem_bytes = (unsigned)cb_blas_type_size(t) / (cb_blas_type_complex(t) ? 2u : 1u)};
}

/* The real type of t (C32 -> F32). */
static inline cb_blas_type cublas_real(cb_blas_type t) { return cb_blas_type_real(t); }

/* Reads an element of the op's type from a host copy at element offset i. */
static inline cb_cplx cublas_ld(cb_blas_type t, const void *p, size_t i) { return cb_blas_load(t, p, i); }
static inline void cublas_st(cb_blas_type t, void *p, size_t i, cb_cplx v) { cb_blas_store(t, p, i, v); }

static inline cb_cplx cx_mul(cb_cplx a, cb_cplx b) { return (cb_cplx){a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re}; }
static inline cb_cplx cx_add(cb_cplx a, cb_cplx b) { return (cb_cplx){a.re + b.re, a.im + b.im}; }
static inline cb_cplx cx_sub(cb_cplx a, cb_cplx b) { return (cb_cplx){a.re - b.re, a.im - b.im}; }
static inline cb_cplx cx_conj(cb_cplx a) { return (cb_cplx){a.re, -a.im}; }
static inline int cx_zero(cb_cplx a) { return a.re == 0 && a.im == 0; }
static inline cb_cplx cx_real(double v) { return (cb_cplx){v, 0}; }
cb_cplx cx_div(cb_cplx a, cb_cplx b);

/* Vector element offset (BLAS's rule for negative increments). */
static inline size_t cublas_vi(int64_t i, int64_t n, int64_t inc)
{
    return (size_t)(inc >= 0 ? i * inc : (n - 1 - i) * -inc);
}

/* The tolerance multiplier for a reduction over terms terms. */
double cublas_sum_scale(int64_t terms);

/* f16/bf16 vectors (the *Ex level 1): computed in f32, scalars f32. */
static inline int cublas_lowp(cb_blas_type t) { return t == CB_BLAS_F16 || t == CB_BLAS_BF16; }

/* The type of alpha of a level-1 op (f32 for f16/bf16 vectors). */
static inline cb_blas_type cublas_alpha_type(const cublas_op *o)
{
    return cublas_lowp(o->t) ? CB_BLAS_F32 : o->alpha_real ? cublas_real(o->t) : o->t;
}

/* A scalar in as the reference sees it. */
static inline cb_cplx cublas_sc(const cublas_op *o, int i, cb_blas_type t) { return cb_blas_load(t, o->sval[i], 0); }

/* Operation enums -> backend conventions (the same values; checked). */
int cublas_op_valid(cublasOperation_t op);
int cublas_fill_valid(cublasFillMode_t f);
int cublas_diag_valid(cublasDiagType_t d);
int cublas_side_valid(cublasSideMode_t s);

/* One line in the API log (cublasLoggerConfigure / cublasSetLoggerCallback)
 * for a computing call, when the logger is on. */
void cublas_log_call(const char *function);

/* The math mode's input rounding for an f32 product (TF32 math). */
cb_blas_input_round cublas_math_round(cublasHandle_t h);

#endif
