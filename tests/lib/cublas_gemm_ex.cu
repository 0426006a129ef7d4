/* cublas_gemm_ex.cu: cuBLAS's mixed-precision and batched products, each
 * checked against a host computation in double over the values stored:
 *   cublasGemmEx over every type combination the cuBLAS documentation
 *   lists per compute type (16F, 32I, 32F, 32F_FAST_16F/16BF/TF32, 64F,
 *   complex), transposes, leading dimensions above the rows;
 *   cublasGemmBatchedEx, cublasGemmStridedBatchedEx (and _64);
 *   S/D/C/Z/H gemmBatched and gemmStridedBatched, Cgemm3mBatched and
 *   Cgemm3mStridedBatched (and _64), cublasHgemm, cublasSgemmEx,
 *   cublasCgemmEx, cublasCgemm3mEx (and _64).
 * Sizes are multiples of 16 (the GPU's int8 and half kernels need it). */
#include <cuda_bf16.h>

#include "lib_check.h"

static cublasHandle_t H;

/* Host storage of one element of a cudaDataType, and its value. */
static size_t size_of(cudaDataType t) {
  switch (t) {
  case CUDA_R_16F: case CUDA_R_16BF: return 2;
  case CUDA_R_8I: return 1;
  case CUDA_C_8I: return 2;
  case CUDA_R_32F: case CUDA_R_32I: return 4;
  case CUDA_C_32F: case CUDA_R_64F: return 8;
  case CUDA_C_64F: return 16;
  default: return 0;
  }
}
static bool is_complex(cudaDataType t) { return t == CUDA_C_8I || t == CUDA_C_32F || t == CUDA_C_64F; }

static cd get(cudaDataType t, const void *p, size_t i) {
  switch (t) {
  case CUDA_R_16F: return cd(__half2float(((const __half *)p)[i]), 0);
  case CUDA_R_16BF: return cd(__bfloat162float(((const __nv_bfloat16 *)p)[i]), 0);
  case CUDA_R_8I: return cd(((const int8_t *)p)[i], 0);
  case CUDA_C_8I: return cd(((const int8_t *)p)[2 * i], ((const int8_t *)p)[2 * i + 1]);
  case CUDA_R_32F: return cd(((const float *)p)[i], 0);
  case CUDA_R_32I: return cd(((const int32_t *)p)[i], 0);
  case CUDA_C_32F: return cd(((const float *)p)[2 * i], ((const float *)p)[2 * i + 1]);
  case CUDA_R_64F: return cd(((const double *)p)[i], 0);
  case CUDA_C_64F: return cd(((const double *)p)[2 * i], ((const double *)p)[2 * i + 1]);
  default: return cd(0, 0);
  }
}
static void put(cudaDataType t, void *p, size_t i, cd v) {
  switch (t) {
  case CUDA_R_16F: ((__half *)p)[i] = __float2half((float)v.real()); break;
  case CUDA_R_16BF: ((__nv_bfloat16 *)p)[i] = __float2bfloat16((float)v.real()); break;
  case CUDA_R_8I: ((int8_t *)p)[i] = (int8_t)v.real(); break;
  case CUDA_C_8I: ((int8_t *)p)[2 * i] = (int8_t)v.real(); ((int8_t *)p)[2 * i + 1] = (int8_t)v.imag(); break;
  case CUDA_R_32F: ((float *)p)[i] = (float)v.real(); break;
  case CUDA_R_32I: ((int32_t *)p)[i] = (int32_t)v.real(); break;
  case CUDA_C_32F: ((float *)p)[2 * i] = (float)v.real(); ((float *)p)[2 * i + 1] = (float)v.imag(); break;
  case CUDA_R_64F: ((double *)p)[i] = v.real(); break;
  case CUDA_C_64F: ((double *)p)[2 * i] = v.real(); ((double *)p)[2 * i + 1] = v.imag(); break;
  default: break;
  }
}

/* A typeless device matrix with a host copy. */
struct tbuf {
  cudaDataType t;
  size_t n;
  std::vector<unsigned char> h;
  void *d;
  tbuf(cudaDataType type, size_t count, bool ints) : t(type), n(count), h(count * size_of(type)), d(NULL) {
    for (size_t i = 0; i < n; i++) {
      cd v = ints ? cd((int)(rnd() * 8), is_complex(t) ? (int)(rnd() * 8) : 0)
                  : cd(rnd() / 2 + rnd() / 32, is_complex(t) ? rnd() : 0);   /* 1/16 steps: exact in bf16 */
      put(t, h.data(), i, v);
    }
    CHECK(cudaMalloc(&d, h.size()));
    CHECK(cudaMemcpy(d, h.data(), h.size(), cudaMemcpyHostToDevice));
  }
  ~tbuf() { cudaFree(d); }
  cd at(size_t i) const { return get(t, h.data(), i); }
  std::vector<unsigned char> down() const {
    std::vector<unsigned char> r(h.size());
    CHECK(cudaMemcpy(r.data(), d, r.size(), cudaMemcpyDeviceToHost));
    return r;
  }
};

static float tf32(float v) {
  uint32_t x;
  memcpy(&x, &v, 4);
  x = (x + 0xfffu + ((x >> 13) & 1u)) & 0xffffe000u;   /* nearest, ties to even (the H200's) */
  memcpy(&v, &x, 4);
  return v;
}

static int checked = 0;

/* Compares C (type ct) with alpha op(A) op(B) + beta C0 in double; rel is
 * the tolerance relative to the sum of |terms| (accumulation in f16 or
 * rounded inputs need more). */
static void check_product(const char *what, cudaDataType ct, const std::vector<unsigned char> &got, const tbuf &A,
                          const tbuf &B, const tbuf &C0, int m, int n, int k, cublasOperation_t ta,
                          cublasOperation_t tb, int lda, int ldb, int ldc, cd alpha, cd beta, double rel, int tf) {
  for (int j = 0; j < n; j++)
    for (int i = 0; i < m; i++) {
      cd s = 0;
      double mag = 0;
      for (int l = 0; l < k; l++) {
        cd a = ta == CUBLAS_OP_N ? A.at(i + l * lda) : A.at(l + i * lda);
        cd b = tb == CUBLAS_OP_N ? B.at(l + j * ldb) : B.at(j + l * ldb);
        if (ta == CUBLAS_OP_C) a = std::conj(a);
        if (tb == CUBLAS_OP_C) b = std::conj(b);
        if (tf) {
          a = cd(tf32((float)a.real()), tf32((float)a.imag()));
          b = cd(tf32((float)b.real()), tf32((float)b.imag()));
        }
        s += a * b;
        mag += std::abs(a * b);
      }
      cd want = alpha * s + beta * C0.at(i + j * ldc);
      cd g = get(ct, got.data(), i + j * ldc);
      double tol = rel * (std::abs(alpha) * mag + std::abs(beta * C0.at(i + j * ldc)) + 1);
      if (!(std::abs(g - want) <= tol)) {
        printf("FAIL %s: C[%d,%d] = (%.9g, %.9g), expected (%.9g, %.9g)\n", what, i, j, g.real(), g.imag(),
               want.real(), want.imag());
        lib_fail();
      }
      checked++;
    }
}

/* One GemmEx case. alpha and beta in the scale type (f16 for COMPUTE_16F,
 * int32 for 32I, double for 64F, float otherwise). */
static void gemm_ex_case(cudaDataType at, cudaDataType ct, cublasComputeType_t comp, cublasOperation_t ta,
                         cublasOperation_t tb, bool use64, double rel, int tf) {
  const int m = 16, n = 32, k = 48;
  int lda = (ta == CUBLAS_OP_N ? m : k) + 16, ldb = (tb == CUBLAS_OP_N ? k : n), ldc = m + 16;
  bool ints = at == CUDA_R_8I || at == CUDA_C_8I;
  tbuf A(at, (size_t)lda * (ta == CUBLAS_OP_N ? k : m), ints), B(at, (size_t)ldb * (tb == CUBLAS_OP_N ? n : k), ints),
      C(ct, (size_t)ldc * n, ints);
  cd alpha(ints ? 2 : 0.75, 0), beta(ints ? 3 : -0.5, 0);
  unsigned char a[16], b[16];
  bool h16 = comp == CUBLAS_COMPUTE_16F || comp == CUBLAS_COMPUTE_16F_PEDANTIC;
  bool i32 = comp == CUBLAS_COMPUTE_32I || comp == CUBLAS_COMPUTE_32I_PEDANTIC;
  bool d64 = comp == CUBLAS_COMPUTE_64F || comp == CUBLAS_COMPUTE_64F_PEDANTIC;
  cudaDataType st = h16 ? CUDA_R_16F : i32 ? CUDA_R_32I : d64 ? (is_complex(ct) ? CUDA_C_64F : CUDA_R_64F)
                    : (is_complex(ct) ? CUDA_C_32F : CUDA_R_32F);
  put(st, a, 0, alpha);
  put(st, b, 0, beta);
  if (use64)
    CHECK_BLAS(cublasGemmEx_64(H, ta, tb, m, n, k, a, A.d, at, lda, B.d, at, ldb, b, C.d, ct, ldc, comp,
                               CUBLAS_GEMM_DEFAULT));
  else
    CHECK_BLAS(cublasGemmEx(H, ta, tb, m, n, k, a, A.d, at, lda, B.d, at, ldb, b, C.d, ct, ldc, comp,
                            CUBLAS_GEMM_DEFAULT));
  char what[96];
  snprintf(what, sizeof what, "GemmEx A %d C %d compute %d trans %d%d%s", (int)at, (int)ct, (int)comp, (int)ta, (int)tb,
           use64 ? " _64" : "");
  check_product(what, ct, C.down(), A, B, C, m, n, k, ta, tb, lda, ldb, ldc, alpha, beta, rel, tf);
}

static void test_gemm_ex() {
  struct { cudaDataType a, c; cublasComputeType_t comp; double rel; int tf; } cases[] = {
      {CUDA_R_16F, CUDA_R_16F, CUBLAS_COMPUTE_16F, 2e-2, 0},
      {CUDA_R_16F, CUDA_R_16F, CUBLAS_COMPUTE_16F_PEDANTIC, 2e-2, 0},
      {CUDA_R_8I, CUDA_R_32I, CUBLAS_COMPUTE_32I, 0, 0},
      {CUDA_R_16BF, CUDA_R_16BF, CUBLAS_COMPUTE_32F, 1e-2, 0},
      {CUDA_R_16F, CUDA_R_16F, CUBLAS_COMPUTE_32F, 2e-3, 0},
      {CUDA_R_8I, CUDA_R_32F, CUBLAS_COMPUTE_32F, 1e-6, 0},
      {CUDA_R_16BF, CUDA_R_32F, CUBLAS_COMPUTE_32F, 1e-5, 0},
      {CUDA_R_16F, CUDA_R_32F, CUBLAS_COMPUTE_32F, 1e-5, 0},
      {CUDA_R_32F, CUDA_R_32F, CUBLAS_COMPUTE_32F, 1e-5, 0},
      {CUDA_R_32F, CUDA_R_32F, CUBLAS_COMPUTE_32F_PEDANTIC, 1e-5, 0},
      {CUDA_C_8I, CUDA_C_32F, CUBLAS_COMPUTE_32F, 1e-6, 0},
      {CUDA_C_32F, CUDA_C_32F, CUBLAS_COMPUTE_32F, 1e-5, 0},
      {CUDA_R_32F, CUDA_R_32F, CUBLAS_COMPUTE_32F_FAST_16F, 2e-3, 0},
      {CUDA_R_32F, CUDA_R_32F, CUBLAS_COMPUTE_32F_FAST_16BF, 1e-2, 0},
      {CUDA_R_32F, CUDA_R_32F, CUBLAS_COMPUTE_32F_FAST_TF32, 2e-3, 0},
      {CUDA_C_32F, CUDA_C_32F, CUBLAS_COMPUTE_32F_FAST_TF32, 2e-3, 0},
      {CUDA_R_64F, CUDA_R_64F, CUBLAS_COMPUTE_64F, 1e-13, 0},
      {CUDA_R_64F, CUDA_R_64F, CUBLAS_COMPUTE_64F_PEDANTIC, 1e-13, 0},
      {CUDA_C_64F, CUDA_C_64F, CUBLAS_COMPUTE_64F, 1e-13, 0},
  };
  const cublasOperation_t ops[3] = {CUBLAS_OP_N, CUBLAS_OP_T, CUBLAS_OP_C};
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++)
    for (int ta = 0; ta < 3; ta++)
      for (int tb = 0; tb < 3; tb++) {
        bool cplx = is_complex(cases[c].a);
        if ((!cplx && (ta == 2 || tb == 2)) || (cases[c].a == CUDA_R_8I && (ta != 1 || tb != 0)))
          continue;   /* int8: the TN form every GPU kernel takes */
        gemm_ex_case(cases[c].a, cases[c].c, cases[c].comp, ops[ta], ops[tb], (ta + tb) % 2, cases[c].rel, cases[c].tf);
      }
  /* TF32 math mode: CUBLAS_COMPUTE_32F with f32 inputs rounds them to TF32 */
  CHECK_BLAS(cublasSetMathMode(H, CUBLAS_TF32_TENSOR_OP_MATH));
  gemm_ex_case(CUDA_R_32F, CUDA_R_32F, CUBLAS_COMPUTE_32F, CUBLAS_OP_N, CUBLAS_OP_N, false, 1e-5, 1);
  CHECK_BLAS(cublasSetMathMode(H, CUBLAS_DEFAULT_MATH));
}

/* GemmBatchedEx / GemmStridedBatchedEx: f16 in, f32 out, f32 compute. */
static void test_batched_ex() {
  const int m = 16, n = 16, k = 32, batch = 5, lda = m, ldb = k, ldc = m + 16;
  long long sa = (long long)lda * k + 16, sb = (long long)ldb * n, sc = (long long)ldc * n;
  tbuf A(CUDA_R_16F, sa * batch, false), B(CUDA_R_16F, sb * batch, false), C(CUDA_R_32F, sc * batch, false);
  float alpha = 1.5f, beta = 0.25f;
  for (int w = 0; w < 2; w++) {
    tbuf Cs(CUDA_R_32F, sc * batch, false);
    if (w) CHECK_BLAS(cublasGemmStridedBatchedEx_64(H, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &alpha, A.d, CUDA_R_16F, lda, sa,
                                                    B.d, CUDA_R_16F, ldb, sb, &beta, Cs.d, CUDA_R_32F, ldc, sc, batch,
                                                    CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
    else CHECK_BLAS(cublasGemmStridedBatchedEx(H, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &alpha, A.d, CUDA_R_16F, lda, sa,
                                               B.d, CUDA_R_16F, ldb, sb, &beta, Cs.d, CUDA_R_32F, ldc, sc, batch,
                                               CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
    std::vector<unsigned char> got = Cs.down();
    for (int e = 0; e < batch; e++) {
      for (int j = 0; j < n; j++)
        for (int i = 0; i < m; i++) {
          cd s = 0;
          for (int l = 0; l < k; l++) s += A.at(e * sa + i + l * lda) * B.at(e * sb + l + j * ldb);
          cd want = (double)alpha * s + (double)beta * Cs.at(e * sc + i + j * ldc);
          cd g = get(CUDA_R_32F, got.data(), e * sc + i + j * ldc);
          if (std::abs(g - want) > 1e-4 * (1 + std::abs(want))) {
            printf("FAIL GemmStridedBatchedEx entry %d C[%d,%d]: %g, expected %g\n", e, i, j, g.real(), want.real());
            lib_fail();
          }
          checked++;
        }
    }
  }
  /* pointer arrays */
  std::vector<void *> pa(batch), pb(batch), pc(batch);
  tbuf Cb(CUDA_R_32F, sc * batch, false);
  for (int e = 0; e < batch; e++) {
    pa[e] = (char *)A.d + e * sa * 2;
    pb[e] = (char *)B.d + e * sb * 2;
    pc[e] = (char *)Cb.d + e * sc * 4;
  }
  void **da, **db, **dc;
  CHECK(cudaMalloc(&da, batch * sizeof(void *)));
  CHECK(cudaMalloc(&db, batch * sizeof(void *)));
  CHECK(cudaMalloc(&dc, batch * sizeof(void *)));
  CHECK(cudaMemcpy(da, pa.data(), batch * sizeof(void *), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(db, pb.data(), batch * sizeof(void *), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dc, pc.data(), batch * sizeof(void *), cudaMemcpyHostToDevice));
  for (int w = 0; w < 2; w++) {
    if (w) CHECK_BLAS(cublasGemmBatchedEx_64(H, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &alpha, (const void *const *)da,
                                             CUDA_R_16F, lda, (const void *const *)db, CUDA_R_16F, ldb, &beta, dc,
                                             CUDA_R_32F, ldc, batch, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
    else CHECK_BLAS(cublasGemmBatchedEx(H, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &alpha, (const void *const *)da, CUDA_R_16F,
                                        lda, (const void *const *)db, CUDA_R_16F, ldb, &beta, dc, CUDA_R_32F, ldc,
                                        batch, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
    std::vector<unsigned char> got = Cb.down();
    for (int e = 0; e < batch; e++)
      for (int j = 0; j < n; j++)
        for (int i = 0; i < m; i++) {
          cd s = 0;
          for (int l = 0; l < k; l++) s += A.at(e * sa + i + l * lda) * B.at(e * sb + l + j * ldb);
          cd want = (double)alpha * s + (double)beta * Cb.at(e * sc + i + j * ldc);
          cd g = get(CUDA_R_32F, got.data(), e * sc + i + j * ldc);
          if (std::abs(g - want) > 1e-4 * (1 + std::abs(want))) {
            printf("FAIL GemmBatchedEx entry %d C[%d,%d]: %g, expected %g\n", e, i, j, g.real(), want.real());
            lib_fail();
          }
          checked++;
        }
    Cb.h = got;
  }
  cudaFree(da), cudaFree(db), cudaFree(dc);
}

/* The typed batched products: strided and pointer-array forms agree with
 * one gemm per entry computed on the host. */
#define TYPED(T, S)                                                                                                \
  static cublasStatus_t gemm_batched(bool w, cublasOperation_t ta, cublasOperation_t tb, int m, int n, int k,      \
                                     const T *a, const T *const *A, int lda, const T *const *B, int ldb, const T *b, \
                                     T *const *C, int ldc, int batch) {                                            \
    return w ? cublas##S##gemmBatched_64(H, ta, tb, m, n, k, a, A, lda, B, ldb, b, C, ldc, batch)                  \
             : cublas##S##gemmBatched(H, ta, tb, m, n, k, a, A, lda, B, ldb, b, C, ldc, batch);                    \
  }                                                                                                                \
  static cublasStatus_t gemm_strided(bool w, cublasOperation_t ta, cublasOperation_t tb, int m, int n, int k,      \
                                     const T *a, const T *A, int lda, long long sa, const T *B, int ldb,           \
                                     long long sb, const T *b, T *C, int ldc, long long sc, int batch) {           \
    return w ? cublas##S##gemmStridedBatched_64(H, ta, tb, m, n, k, a, A, lda, sa, B, ldb, sb, b, C, ldc, sc, batch) \
             : cublas##S##gemmStridedBatched(H, ta, tb, m, n, k, a, A, lda, sa, B, ldb, sb, b, C, ldc, sc, batch);  \
  }
TYPED(float, S)
TYPED(double, D)
TYPED(cuComplex, C)
TYPED(cuDoubleComplex, Z)
TYPED(__half, H)

static cublasStatus_t gemm3m_batched(bool w, cublasOperation_t ta, cublasOperation_t tb, int m, int n, int k,
                                     const cuComplex *a, const cuComplex *const *A, int lda, const cuComplex *const *B,
                                     int ldb, const cuComplex *b, cuComplex *const *C, int ldc, int batch) {
  return w ? cublasCgemm3mBatched_64(H, ta, tb, m, n, k, a, A, lda, B, ldb, b, C, ldc, batch)
           : cublasCgemm3mBatched(H, ta, tb, m, n, k, a, A, lda, B, ldb, b, C, ldc, batch);
}
static cublasStatus_t gemm3m_strided(bool w, cublasOperation_t ta, cublasOperation_t tb, int m, int n, int k,
                                     const cuComplex *a, const cuComplex *A, int lda, long long sa, const cuComplex *B,
                                     int ldb, long long sb, const cuComplex *b, cuComplex *C, int ldc, long long sc,
                                     int batch) {
  return w ? cublasCgemm3mStridedBatched_64(H, ta, tb, m, n, k, a, A, lda, sa, B, ldb, sb, b, C, ldc, sc, batch)
           : cublasCgemm3mStridedBatched(H, ta, tb, m, n, k, a, A, lda, sa, B, ldb, sb, b, C, ldc, sc, batch);
}

/* gemm3m forms exist for C only: the others never get here. */
template <class T>
static cublasStatus_t gemm3m_batched_call(bool w, int m, int n, int k, const T *a, T **dp, int lda, int ldb,
                                          const T *b, int ldc, int batch) {
  return gemm3m_batched(w, CUBLAS_OP_T, CUBLAS_OP_N, m, n, k, (const cuComplex *)a, (const cuComplex *const *)dp, lda,
                        (const cuComplex *const *)(dp + batch), ldb, (const cuComplex *)b, (cuComplex *const *)(dp + 2 * batch),
                        ldc, batch);
}
template <class T>
static cublasStatus_t gemm3m_strided_call(bool w, int m, int n, int k, const T *a, const T *A, int lda, long long sa,
                                          const T *B, int ldb, long long sb, const T *b, T *C, int ldc, long long sc,
                                          int batch) {
  return gemm3m_strided(w, CUBLAS_OP_T, CUBLAS_OP_N, m, n, k, (const cuComplex *)a, (const cuComplex *)A, lda, sa,
                        (const cuComplex *)B, ldb, sb, (const cuComplex *)b, (cuComplex *)C, ldc, sc, batch);
}

template <class T> static void test_typed(bool three_m) {
  const int m = 16, n = 16, k = 16, batch = 4, lda = k + 16, ldb = k, ldc = m;   /* A transposed: k x m */
  const long long sa = (long long)lda * m, sb = (long long)ldb * n, sc = (long long)ldc * n;
  for (int w = 0; w < 2; w++)
    for (int arrays = 0; arrays < 2; arrays++) {
      dbuf<T> A(sa * batch), B(sb * batch), C(sc * batch);
      T a = T_<T>::put(cd(0.5, 0)), b = T_<T>::put(cd(-1, 0));
      std::vector<T *> pa(batch), pb(batch), pc(batch);
      for (int e = 0; e < batch; e++) pa[e] = A.d + e * sa, pb[e] = B.d + e * sb, pc[e] = C.d + e * sc;
      T **dp;
      CHECK(cudaMalloc((void **)&dp, 3 * batch * sizeof(T *)));
      CHECK(cudaMemcpy(dp, pa.data(), batch * sizeof(T *), cudaMemcpyHostToDevice));
      CHECK(cudaMemcpy(dp + batch, pb.data(), batch * sizeof(T *), cudaMemcpyHostToDevice));
      CHECK(cudaMemcpy(dp + 2 * batch, pc.data(), batch * sizeof(T *), cudaMemcpyHostToDevice));
      cublasStatus_t s;
      if (arrays) s = three_m ? gemm3m_batched_call(w, m, n, k, &a, dp, lda, ldb, &b, ldc, batch)
                              : gemm_batched(w, CUBLAS_OP_T, CUBLAS_OP_N, m, n, k, &a, dp, lda, dp + batch, ldb, &b,
                                             dp + 2 * batch, ldc, batch);
      else s = three_m ? gemm3m_strided_call(w, m, n, k, &a, A.d, lda, sa, B.d, ldb, sb, &b, C.d, ldc, sc, batch)
                       : gemm_strided(w, CUBLAS_OP_T, CUBLAS_OP_N, m, n, k, &a, A.d, lda, sa, B.d, ldb, sb, &b, C.d, ldc,
                                      sc, batch);
      CHECK_BLAS(s);
      std::vector<cd> want = as_cd(C.h);
      for (int e = 0; e < batch; e++)
        for (int j = 0; j < n; j++)
          for (int i = 0; i < m; i++) {
            cd sum = 0;
            for (int l = 0; l < k; l++) sum += A.at(e * sa + l + i * lda) * B.at(e * sb + l + j * ldb);
            want[e * sc + i + j * ldc] = 0.5 * sum - C.at(e * sc + i + j * ldc);
          }
      compare(arrays ? "gemmBatched" : "gemmStridedBatched", C.down(), want, sum_scale(k) * 4);
      cudaFree(dp);
    }
}
/* Hgemm, SgemmEx, CgemmEx, Cgemm3mEx (32- and 64-bit). */
static void test_typed_ex() {
  const int m = 16, n = 16, k = 32;
  for (int w = 0; w < 2; w++) {
    dbuf<__half> A(m * k), B(k * n), C(m * n);
    __half a = __float2half(1.0f), b = __float2half(0.5f);
    if (w) CHECK_BLAS(cublasHgemm_64(H, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &a, A.d, m, B.d, k, &b, C.d, m));
    else CHECK_BLAS(cublasHgemm(H, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &a, A.d, m, B.d, k, &b, C.d, m));
    std::vector<cd> want(m * n);
    for (int j = 0; j < n; j++)
      for (int i = 0; i < m; i++) {
        cd s = 0;
        for (int l = 0; l < k; l++) s += A.at(i + l * m) * B.at(l + j * k);
        want[i + j * m] = s + 0.5 * C.at(i + j * m);
      }
    compare("Hgemm", C.down(), want, 8);
    /* SgemmEx: bf16 in, f32 out */
    tbuf X(CUDA_R_16BF, m * k, false), Y(CUDA_R_16BF, k * n, false), Z(CUDA_R_32F, m * n, false);
    float fa = 2, fb = 1;
    if (w) CHECK_BLAS(cublasSgemmEx_64(H, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &fa, X.d, CUDA_R_16BF, m, Y.d, CUDA_R_16BF, k,
                                       &fb, Z.d, CUDA_R_32F, m));
    else CHECK_BLAS(cublasSgemmEx(H, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &fa, X.d, CUDA_R_16BF, m, Y.d, CUDA_R_16BF, k, &fb,
                                  Z.d, CUDA_R_32F, m));
    check_product("SgemmEx", CUDA_R_32F, Z.down(), X, Y, Z, m, n, k, CUBLAS_OP_N, CUBLAS_OP_N, m, k, m, cd(2, 0), cd(1, 0),
                  1e-5, 0);
    /* CgemmEx and Cgemm3mEx: complex int8 in, complex f32 out */
    for (int three = 0; three < 2; three++) {
      tbuf P(CUDA_C_8I, m * k, true), Q(CUDA_C_8I, k * n, true), R(CUDA_C_32F, m * n, false);
      cuComplex ca = make_cuComplex(1, 0.5f), cb = make_cuComplex(0.25f, 0);
      cublasStatus_t s;
      if (three) s = w ? cublasCgemm3mEx_64(H, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &ca, P.d, CUDA_C_8I, m, Q.d, CUDA_C_8I, k,
                                            &cb, R.d, CUDA_C_32F, m)
                       : cublasCgemm3mEx(H, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &ca, P.d, CUDA_C_8I, m, Q.d, CUDA_C_8I, k,
                                         &cb, R.d, CUDA_C_32F, m);
      else s = w ? cublasCgemmEx_64(H, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &ca, P.d, CUDA_C_8I, m, Q.d, CUDA_C_8I, k, &cb,
                                    R.d, CUDA_C_32F, m)
                 : cublasCgemmEx(H, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &ca, P.d, CUDA_C_8I, m, Q.d, CUDA_C_8I, k, &cb, R.d,
                                 CUDA_C_32F, m);
      CHECK_BLAS(s);
      check_product(three ? "Cgemm3mEx" : "CgemmEx", CUDA_C_32F, R.down(), P, Q, R, m, n, k, CUBLAS_OP_N, CUBLAS_OP_N,
                    m, k, m, cd(1, 0.5), cd(0.25, 0), 1e-6, 0);
    }
  }
}

int main() {
  CHECK_BLAS(cublasCreate(&H));
  test_gemm_ex();
  test_batched_ex();
  test_typed<float>(false);
  test_typed<double>(false);
  test_typed<cuComplex>(false);
  test_typed<cuComplex>(true);
  test_typed<cuDoubleComplex>(false);
  test_typed<__half>(false);
  test_typed_ex();
  CHECK(cudaDeviceSynchronize());
  CHECK_BLAS(cublasDestroy(H));
  fprintf(stderr, "cublas_gemm_ex: %d + %d values compared\n", checked, compared_values);
  printf("PASS cublas_gemm_ex\n");
  return 0;
}
