/* gemm_ex.c: cuBLAS's mixed-precision and batched products: GemmEx,
 * GemmBatchedEx, GemmStridedBatchedEx, S/D/C/Z/H gemmBatched and
 * gemmStridedBatched, Cgemm3mBatched/StridedBatched, Hgemm, SgemmEx,
 * CgemmEx, Cgemm3mEx (and their 64-bit entry points). All of them are one
 * cb_blas_gemm on the backend (backend_lib.h); the C reference is the
 * shared one (lib/common/blas_ref.c).
 *
 * Type combinations: those the cuBLAS documentation lists for
 * cublasGemmEx, per compute type (compute_combination_ok below); any
 * other combination is CUBLAS_STATUS_NOT_SUPPORTED, an unknown compute
 * type CUBLAS_STATUS_INVALID_VALUE. Input rounding: _FAST_TF32 (and TF32
 * math mode with CUBLAS_COMPUTE_32F) rounds f32 inputs to TF32, _FAST_16F
 * to f16, _FAST_16BF to bf16, as the GPU's tensor cores take them;
 * _PEDANTIC never rounds. CUBLAS_COMPUTE_16F accumulates in f32 here (the
 * GPU accumulates in f16: our result is the more accurate one).
 */
#include "cublas_internal.h"

#include <stdio.h>
#include <stdlib.h>

#include "lib/common/blas_ref.h"

static int64_t max1(int64_t v) { return v > 1 ? v : 1; }

/* ---- the routine ------------------------------------------------------------------ */

static CUresult run_gemm_ex(cublas_op *o, cb_backend *b)
{
    cb_blas_gemm g = o->g;
    g.alpha = o->sval[0];
    g.beta = o->sval[1];
    g.a_array = o->arr_host[0];
    g.b_array = o->arr_host[1];
    g.c_array = o->arr_host[2];
    g.d_array = o->arr_host[2];
    return b->lib->gemm_ex(b, &g);
}

static size_t op_bytes(cb_blas_type t, int trans, int64_t rows, int64_t cols, int64_t ld)
{
    return trans == CB_BLAS_OP_N ? cbl_matrix_bytes(rows, cols, ld, cb_blas_type_size(t))
                                 : cbl_matrix_bytes(cols, rows, ld, cb_blas_type_size(t));
}

/* Strided: A, B, C over the whole batch. Arrays: A_i, B_i, C_i per entry. */
static int ops_gemm_ex(cublas_op *o, cbl_operand *ops)
{
    const cb_blas_gemm *g = &o->g;
    if (o->arr_dev[0]) {
        if (cublas_read_arrays(o, g->batch) != 0) {
            /* a bad array: one operand that fails the device-memory check */
            ops[0] = cbl_blas_operand("Aarray", o->arr_dev[0], (size_t)g->batch * 8, 0, CB_BLAS_U8);
            ops[0].addr = o->arr_dev[0] ? o->arr_dev[0] : 1;
            return 1;
        }
        int n = 0;
        for (int64_t i = 0; i < g->batch; i++) {
            ops[n++] = cbl_blas_operand("A[i]", o->arr_host[0][i], op_bytes(g->a_type, g->trans_a, g->m, g->k, g->lda), 0,
                                        g->a_type);
            ops[n++] = cbl_blas_operand("B[i]", o->arr_host[1][i], op_bytes(g->b_type, g->trans_b, g->k, g->n, g->ldb), 0,
                                        g->b_type);
            ops[n] = cbl_blas_operand("C[i]", o->arr_host[2][i], cbl_matrix_bytes(g->m, g->n, g->ldc, cb_blas_type_size(g->c_type)),
                                      1, g->c_type);
            ops[n++].tol_scale = cublas_sum_scale(g->k);
        }
        return n;
    }
    size_t wa = cb_blas_type_size(g->a_type), wb = cb_blas_type_size(g->b_type), wc = cb_blas_type_size(g->c_type);
    int64_t last = g->batch - 1;
    ops[0] = cbl_blas_operand("A", g->a, op_bytes(g->a_type, g->trans_a, g->m, g->k, g->lda) + (size_t)(last * g->stride_a) * wa,
                              0, g->a_type);
    ops[1] = cbl_blas_operand("B", g->b, op_bytes(g->b_type, g->trans_b, g->k, g->n, g->ldb) + (size_t)(last * g->stride_b) * wb,
                              0, g->b_type);
    ops[2] = cbl_blas_operand("C", g->c, cbl_matrix_bytes(g->m, g->n, g->ldc, wc) + (size_t)(last * g->stride_c) * wc, 1,
                              g->c_type);
    ops[2].tol_scale = cublas_sum_scale(g->k);
    if (g->m == 0 || g->n == 0 || g->k == 0)
        ops[0].bytes = ops[1].bytes = 0;
    return 3;
}

static void ref_gemm_ex(void *p, cbl_operand *ops)
{
    cublas_op *o = p;
    cb_blas_gemm g = o->g;
    g.alpha = o->sval[0];
    g.beta = o->sval[1];
    for (int64_t i = 0; i < g.batch; i++) {
        if (o->arr_dev[0]) {
            cbl_operand *e = &ops[3 * i];
            cbl_ref_gemm_entry(&g, e[0].ref, e[1].ref, e[2].before, e[2].ref, NULL, NULL);
        } else {
            const unsigned char *a = ops[0].ref, *b = ops[1].ref, *c = ops[2].before;
            unsigned char *d = ops[2].ref;
            size_t wa = cb_blas_type_size(g.a_type), wb = cb_blas_type_size(g.b_type), wc = cb_blas_type_size(g.c_type);
            /* an entry's C starts at its stride; the other entries' outputs are untouched */
            cbl_ref_gemm_entry(&g, a + (size_t)(i * g.stride_a) * wa, b + (size_t)(i * g.stride_b) * wb,
                               c + (size_t)(i * g.stride_c) * wc, d + (size_t)(i * g.stride_c) * wc, NULL, NULL);
        }
    }
}

static const cublas_routine r_gemm_ex = {run_gemm_ex, ops_gemm_ex, ref_gemm_ex};

/* ---- compute types ------------------------------------------------------------------ */

typedef struct compute_info {
    cb_blas_type compute, scale;
    cb_blas_input_round round;
} compute_info;

/* The cuBLAS documentation's table for cublasGemmEx (types as cb_blas_type). */
static int compute_combination_ok(cublasComputeType_t ct, int at, int bt, int c_t, int tf32_math, compute_info *out)
{
    int complex = cb_blas_type_complex(c_t);
    if (at != bt)
        return 0;
    switch (ct) {
    case CUBLAS_COMPUTE_16F:
    case CUBLAS_COMPUTE_16F_PEDANTIC:
        *out = (compute_info){CB_BLAS_F16, CB_BLAS_F16, CB_BLAS_ROUND_NONE};
        return at == CB_BLAS_F16 && c_t == CB_BLAS_F16;
    case CUBLAS_COMPUTE_32I:
    case CUBLAS_COMPUTE_32I_PEDANTIC:
        *out = (compute_info){CB_BLAS_I32, CB_BLAS_I32, CB_BLAS_ROUND_NONE};
        return at == CB_BLAS_I8 && c_t == CB_BLAS_I32;
    case CUBLAS_COMPUTE_32F:
    case CUBLAS_COMPUTE_32F_PEDANTIC:
    case CUBLAS_COMPUTE_32F_EMULATED_16BFX9: {
        int pedantic = ct == CUBLAS_COMPUTE_32F_PEDANTIC;
        *out = (compute_info){complex ? CB_BLAS_C32 : CB_BLAS_F32, complex ? CB_BLAS_C32 : CB_BLAS_F32,
                              !pedantic && tf32_math && (at == CB_BLAS_F32 || at == CB_BLAS_C32) ? CB_BLAS_ROUND_TF32
                                                                                                 : CB_BLAS_ROUND_NONE};
        if (complex)
            return (at == CB_BLAS_CI8 || at == CB_BLAS_C32) && c_t == CB_BLAS_C32;
        return (at == CB_BLAS_BF16 && (c_t == CB_BLAS_BF16 || c_t == CB_BLAS_F32)) ||
               (at == CB_BLAS_F16 && (c_t == CB_BLAS_F16 || c_t == CB_BLAS_F32)) ||
               (at == CB_BLAS_I8 && c_t == CB_BLAS_F32) || (at == CB_BLAS_F32 && c_t == CB_BLAS_F32);
    }
    case CUBLAS_COMPUTE_32F_FAST_16F:
    case CUBLAS_COMPUTE_32F_FAST_16BF:
    case CUBLAS_COMPUTE_32F_FAST_TF32:
        *out = (compute_info){complex ? CB_BLAS_C32 : CB_BLAS_F32, complex ? CB_BLAS_C32 : CB_BLAS_F32,
                              ct == CUBLAS_COMPUTE_32F_FAST_16F    ? CB_BLAS_ROUND_F16
                              : ct == CUBLAS_COMPUTE_32F_FAST_16BF ? CB_BLAS_ROUND_BF16
                                                                   : CB_BLAS_ROUND_TF32};
        return (at == CB_BLAS_F32 && c_t == CB_BLAS_F32) || (at == CB_BLAS_C32 && c_t == CB_BLAS_C32);
    case CUBLAS_COMPUTE_64F:
    case CUBLAS_COMPUTE_64F_PEDANTIC:
    case CUBLAS_COMPUTE_64F_EMULATED_FIXEDPOINT:
        *out = (compute_info){complex ? CB_BLAS_C64 : CB_BLAS_F64, complex ? CB_BLAS_C64 : CB_BLAS_F64,
                              CB_BLAS_ROUND_NONE};
        return (at == CB_BLAS_F64 && c_t == CB_BLAS_F64) || (at == CB_BLAS_C64 && c_t == CB_BLAS_C64);
    default: return -1;
    }
}

/* ---- the shared entry -------------------------------------------------------------- */

typedef struct gemm_args {
    const char *fn;
    cublasOperation_t ta, tb;
    int64_t m, n, k;
    const void *alpha, *beta;
    const void *a, *b;
    void *c;
    int64_t lda, ldb, ldc;
    int64_t sa, sb, sc, batch;
    int arrays;   /* a, b, c are device arrays of pointers */
} gemm_args;

static cublasStatus_t gemm_submit(cublasHandle_t h, const gemm_args *x, cb_blas_type at, cb_blas_type bt,
                                  cb_blas_type ct, const compute_info *ci)
{
    cublasStatus_t st = cublas_handle_check(h);
    if (st != CUBLAS_STATUS_SUCCESS)
        return st;
    if (!cublas_op_valid(x->ta) || !cublas_op_valid(x->tb) || x->m < 0 || x->n < 0 || x->k < 0 || x->batch < 0)
        return CUBLAS_STATUS_INVALID_VALUE;
    if (x->lda < max1(x->ta == CUBLAS_OP_N ? x->m : x->k) || x->ldb < max1(x->tb == CUBLAS_OP_N ? x->k : x->n) ||
        x->ldc < max1(x->m))
        return CUBLAS_STATUS_INVALID_VALUE;
    if (x->m == 0 || x->n == 0 || x->batch == 0)
        return CUBLAS_STATUS_SUCCESS;
    cublas_op *o = cublas_op_new(&r_gemm_ex, x->fn, ct);
    if (!o)
        return CUBLAS_STATUS_ALLOC_FAILED;
    if (x->arrays) {
        o->ops_dyn = calloc((size_t)x->batch * 3 + 1, sizeof *o->ops_dyn);
        if (!o->ops_dyn) {
            free(o);
            return CUBLAS_STATUS_ALLOC_FAILED;
        }
        o->nops_dyn = (int)(x->batch * 3 + 1);
        o->arr_dev[0] = (uintptr_t)x->a;
        o->arr_dev[1] = (uintptr_t)x->b;
        o->arr_dev[2] = (uintptr_t)x->c;
    }
    o->g = (cb_blas_gemm){.a_type = at, .b_type = bt, .c_type = ct, .d_type = ct, .compute = ci->compute,
                          .scale = ci->scale, .round = ci->round, .trans_a = x->ta, .trans_b = x->tb, .m = x->m,
                          .n = x->n, .k = x->k, .a = x->arrays ? 0 : (uintptr_t)x->a, .b = x->arrays ? 0 : (uintptr_t)x->b,
                          .c = x->arrays ? 0 : (uintptr_t)x->c, .d = x->arrays ? 0 : (uintptr_t)x->c, .lda = x->lda,
                          .ldb = x->ldb, .ldc = x->ldc, .ldd = x->ldc, .batch = x->batch, .stride_a = x->sa,
                          .stride_b = x->sb, .stride_c = x->sc, .stride_d = x->sc};
    size_t ws = cb_blas_type_size(ci->scale);
    cublas_op_scalar(o, h, 0, x->alpha, ws);
    cublas_op_scalar(o, h, 1, x->beta, ws);
    return cublas_op_submit(h, o);
}

static cublasStatus_t gemm_ex(cublasHandle_t h, const gemm_args *x, cudaDataType A, cudaDataType B, cudaDataType C,
                              cublasComputeType_t compute)
{
    cublasStatus_t st = cublas_handle_check(h);
    if (st != CUBLAS_STATUS_SUCCESS)
        return st;
    int at = cbl_blas_type_of(A), bt = cbl_blas_type_of(B), c_t = cbl_blas_type_of(C);
    compute_info ci;
    int ok = compute_combination_ok(compute, at, bt, c_t, (h->math_mode & 0xf) == CUBLAS_TF32_TENSOR_OP_MATH, &ci);
    if (ok < 0)   /* no such compute type: NOT_SUPPORTED, as the H200 answers (not counted as ours) */
        return CUBLAS_STATUS_NOT_SUPPORTED;
    if (!ok || at < 0 || c_t < 0) {
        char why[128];
        snprintf(why, sizeof why, "types A %d B %d C %d with compute type %d", (int)A, (int)B, (int)C, (int)compute);
        return (cublasStatus_t)cbl_unsupported_mode(CUBLAS_LIB, x->fn, why);
    }
    return gemm_submit(h, x, at, bt, c_t, &ci);
}

/* A product of one BLAS type with cuBLAS's default compute (and TF32 math). */
static cublasStatus_t gemm_typed(cublasHandle_t h, const gemm_args *x, cb_blas_type t)
{
    cublasStatus_t st = cublas_handle_check(h);
    if (st != CUBLAS_STATUS_SUCCESS)
        return st;
    compute_info ci = {t == CB_BLAS_F16 ? CB_BLAS_F16 : t, t, CB_BLAS_ROUND_NONE};
    if (t == CB_BLAS_F32 || t == CB_BLAS_C32)
        ci.round = cublas_math_round(h);
    return gemm_submit(h, x, t, t, t, &ci);
}

/* ---- the entry points ------------------------------------------------------------------- */

#define ARGS(...) (&(gemm_args){__VA_ARGS__})

cublasStatus_t cublasGemmEx(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int m, int n, int k,
                            const void *alpha, const void *A, cudaDataType Atype, int lda, const void *B,
                            cudaDataType Btype, int ldb, const void *beta, void *C, cudaDataType Ctype, int ldc,
                            cublasComputeType_t computeType, cublasGemmAlgo_t algo)
{
    (void)algo;
    return gemm_ex(h, ARGS("cublasGemmEx", ta, tb, m, n, k, alpha, beta, A, B, C, lda, ldb, ldc, 0, 0, 0, 1, 0), Atype,
                   Btype, Ctype, computeType);
}
cublasStatus_t cublasGemmEx_64(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int64_t m, int64_t n,
                               int64_t k, const void *alpha, const void *A, cudaDataType Atype, int64_t lda,
                               const void *B, cudaDataType Btype, int64_t ldb, const void *beta, void *C,
                               cudaDataType Ctype, int64_t ldc, cublasComputeType_t computeType, cublasGemmAlgo_t algo)
{
    (void)algo;
    return gemm_ex(h, ARGS("cublasGemmEx_64", ta, tb, m, n, k, alpha, beta, A, B, C, lda, ldb, ldc, 0, 0, 0, 1, 0),
                   Atype, Btype, Ctype, computeType);
}
cublasStatus_t cublasGemmBatchedEx(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int m, int n, int k,
                                   const void *alpha, const void *const Aarray[], cudaDataType Atype, int lda,
                                   const void *const Barray[], cudaDataType Btype, int ldb, const void *beta,
                                   void *const Carray[], cudaDataType Ctype, int ldc, int batchCount,
                                   cublasComputeType_t computeType, cublasGemmAlgo_t algo)
{
    (void)algo;
    return gemm_ex(h, ARGS("cublasGemmBatchedEx", ta, tb, m, n, k, alpha, beta, Aarray, Barray, (void *)Carray, lda,
                           ldb, ldc, 0, 0, 0, batchCount, 1),
                   Atype, Btype, Ctype, computeType);
}
cublasStatus_t cublasGemmBatchedEx_64(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int64_t m,
                                      int64_t n, int64_t k, const void *alpha, const void *const Aarray[],
                                      cudaDataType Atype, int64_t lda, const void *const Barray[], cudaDataType Btype,
                                      int64_t ldb, const void *beta, void *const Carray[], cudaDataType Ctype,
                                      int64_t ldc, int64_t batchCount, cublasComputeType_t computeType,
                                      cublasGemmAlgo_t algo)
{
    (void)algo;
    return gemm_ex(h, ARGS("cublasGemmBatchedEx_64", ta, tb, m, n, k, alpha, beta, Aarray, Barray, (void *)Carray, lda,
                           ldb, ldc, 0, 0, 0, batchCount, 1),
                   Atype, Btype, Ctype, computeType);
}
cublasStatus_t cublasGemmStridedBatchedEx(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int m, int n,
                                          int k, const void *alpha, const void *A, cudaDataType Atype, int lda,
                                          long long int strideA, const void *B, cudaDataType Btype, int ldb,
                                          long long int strideB, const void *beta, void *C, cudaDataType Ctype, int ldc,
                                          long long int strideC, int batchCount, cublasComputeType_t computeType,
                                          cublasGemmAlgo_t algo)
{
    (void)algo;
    return gemm_ex(h, ARGS("cublasGemmStridedBatchedEx", ta, tb, m, n, k, alpha, beta, A, B, C, lda, ldb, ldc, strideA,
                           strideB, strideC, batchCount, 0),
                   Atype, Btype, Ctype, computeType);
}
cublasStatus_t cublasGemmStridedBatchedEx_64(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int64_t m,
                                             int64_t n, int64_t k, const void *alpha, const void *A,
                                             cudaDataType Atype, int64_t lda, long long int strideA, const void *B,
                                             cudaDataType Btype, int64_t ldb, long long int strideB, const void *beta,
                                             void *C, cudaDataType Ctype, int64_t ldc, long long int strideC,
                                             int64_t batchCount, cublasComputeType_t computeType,
                                             cublasGemmAlgo_t algo)
{
    (void)algo;
    return gemm_ex(h, ARGS("cublasGemmStridedBatchedEx_64", ta, tb, m, n, k, alpha, beta, A, B, C, lda, ldb, ldc,
                           strideA, strideB, strideC, batchCount, 0),
                   Atype, Btype, Ctype, computeType);
}

/* SgemmEx: f32 compute and scalars, inputs f16/bf16/int8/f32. */
static cublasStatus_t sgemm_ex(cublasHandle_t h, const gemm_args *x, cudaDataType A, cudaDataType B, cudaDataType C)
{
    return gemm_ex(h, x, A, B, C, CUBLAS_COMPUTE_32F);
}
cublasStatus_t cublasSgemmEx(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int m, int n, int k,
                             const float *alpha, const void *A, cudaDataType Atype, int lda, const void *B,
                             cudaDataType Btype, int ldb, const float *beta, void *C, cudaDataType Ctype, int ldc)
{
    return sgemm_ex(h, ARGS("cublasSgemmEx", ta, tb, m, n, k, alpha, beta, A, B, C, lda, ldb, ldc, 0, 0, 0, 1, 0),
                    Atype, Btype, Ctype);
}
cublasStatus_t cublasSgemmEx_64(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int64_t m, int64_t n,
                                int64_t k, const float *alpha, const void *A, cudaDataType Atype, int64_t lda,
                                const void *B, cudaDataType Btype, int64_t ldb, const float *beta, void *C,
                                cudaDataType Ctype, int64_t ldc)
{
    return sgemm_ex(h, ARGS("cublasSgemmEx_64", ta, tb, m, n, k, alpha, beta, A, B, C, lda, ldb, ldc, 0, 0, 0, 1, 0),
                    Atype, Btype, Ctype);
}
#define CGEMM_EX(NAME, I)                                                                                              \
    cublasStatus_t cublas##NAME(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, I m, I n, I k,          \
                                const cuComplex *alpha, const void *A, cudaDataType Atype, I lda, const void *B,      \
                                cudaDataType Btype, I ldb, const cuComplex *beta, void *C, cudaDataType Ctype, I ldc) \
    {                                                                                                                  \
        return sgemm_ex(h, ARGS("cublas" #NAME, ta, tb, m, n, k, alpha, beta, A, B, C, lda, ldb, ldc, 0, 0, 0, 1, 0), \
                        Atype, Btype, Ctype);                                                                          \
    }
CGEMM_EX(CgemmEx, int)
CGEMM_EX(CgemmEx_64, int64_t)
CGEMM_EX(Cgemm3mEx, int)
CGEMM_EX(Cgemm3mEx_64, int64_t)

/* S/D/C/Z/H gemmBatched and gemmStridedBatched; Cgemm3m batched forms. */
#define GEMM_BATCHED(PRE, T, BT, I, SUF)                                                                               \
    cublasStatus_t cublas##PRE##Batched##SUF(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, I m, I n,  \
                                             I k, const T *alpha, const T *const Aarray[], I lda,                      \
                                             const T *const Barray[], I ldb, const T *beta, T *const Carray[], I ldc,  \
                                             I batchCount)                                                             \
    {                                                                                                                  \
        return gemm_typed(h, ARGS("cublas" #PRE "Batched" #SUF, ta, tb, m, n, k, alpha, beta, Aarray, Barray,          \
                                  (void *)Carray, lda, ldb, ldc, 0, 0, 0, batchCount, 1),                              \
                          BT);                                                                                         \
    }                                                                                                                  \
    cublasStatus_t cublas##PRE##StridedBatched##SUF(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb,     \
                                                    I m, I n, I k, const T *alpha, const T *A, I lda,                  \
                                                    long long int strideA, const T *B, I ldb, long long int strideB,   \
                                                    const T *beta, T *C, I ldc, long long int strideC, I batchCount)   \
    {                                                                                                                  \
        return gemm_typed(h, ARGS("cublas" #PRE "StridedBatched" #SUF, ta, tb, m, n, k, alpha, beta, A, B, C, lda,     \
                                  ldb, ldc, strideA, strideB, strideC, batchCount, 0),                                 \
                          BT);                                                                                         \
    }
GEMM_BATCHED(Sgemm, float, CB_BLAS_F32, int, )
GEMM_BATCHED(Sgemm, float, CB_BLAS_F32, int64_t, _64)
GEMM_BATCHED(Dgemm, double, CB_BLAS_F64, int, )
GEMM_BATCHED(Dgemm, double, CB_BLAS_F64, int64_t, _64)
GEMM_BATCHED(Cgemm, cuComplex, CB_BLAS_C32, int, )
GEMM_BATCHED(Cgemm, cuComplex, CB_BLAS_C32, int64_t, _64)
GEMM_BATCHED(Zgemm, cuDoubleComplex, CB_BLAS_C64, int, )
GEMM_BATCHED(Zgemm, cuDoubleComplex, CB_BLAS_C64, int64_t, _64)
GEMM_BATCHED(Cgemm3m, cuComplex, CB_BLAS_C32, int, )
GEMM_BATCHED(Cgemm3m, cuComplex, CB_BLAS_C32, int64_t, _64)
GEMM_BATCHED(Hgemm, __half_raw, CB_BLAS_F16, int, )
GEMM_BATCHED(Hgemm, __half_raw, CB_BLAS_F16, int64_t, _64)

cublasStatus_t cublasHgemm(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int m, int n, int k,
                           const __half_raw *alpha, const __half_raw *A, int lda, const __half_raw *B, int ldb,
                           const __half_raw *beta, __half_raw *C, int ldc)
{
    return gemm_typed(h, ARGS("cublasHgemm", ta, tb, m, n, k, alpha, beta, A, B, C, lda, ldb, ldc, 0, 0, 0, 1, 0),
                      CB_BLAS_F16);
}
cublasStatus_t cublasHgemm_64(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int64_t m, int64_t n,
                              int64_t k, const __half_raw *alpha, const __half_raw *A, int64_t lda, const __half_raw *B,
                              int64_t ldb, const __half_raw *beta, __half_raw *C, int64_t ldc)
{
    return gemm_typed(h, ARGS("cublasHgemm_64", ta, tb, m, n, k, alpha, beta, A, B, C, lda, ldb, ldc, 0, 0, 0, 1, 0),
                      CB_BLAS_F16);
}
