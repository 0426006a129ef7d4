/* cublas_batched.cu: cuBLAS's batched solvers and vector products in
 * S/D/C/Z, each checked on the host in double: trsmBatched (and _64),
 * getrfBatched with and without pivoting (and info on a singular matrix),
 * getrsBatched (every trans), getriBatched, matinvBatched, gemvBatched and
 * gemvStridedBatched (and _64). */
#include "lib_check.h"

static cublasHandle_t H;

#define B_OPS(T, S)                                                                                               \
  static cublasStatus_t getrf(int n, T *const *A, int lda, int *P, int *info, int b) {                            \
    return cublas##S##getrfBatched(H, n, A, lda, P, info, b);                                                     \
  }                                                                                                               \
  static cublasStatus_t getrs(cublasOperation_t t, int n, int nrhs, T *const *A, int lda, const int *P,           \
                              T *const *B, int ldb, int *info, int b) {                                           \
    return cublas##S##getrsBatched(H, t, n, nrhs, (const T *const *)A, lda, P, B, ldb, info, b);                  \
  }                                                                                                               \
  static cublasStatus_t getri(int n, T *const *A, int lda, const int *P, T *const *C, int ldc, int *info, int b) { \
    return cublas##S##getriBatched(H, n, (const T *const *)A, lda, P, C, ldc, info, b);                           \
  }                                                                                                               \
  static cublasStatus_t matinv(int n, T *const *A, int lda, T *const *C, int ldc, int *info, int b) {             \
    return cublas##S##matinvBatched(H, n, (const T *const *)A, lda, C, ldc, info, b);                             \
  }                                                                                                               \
  static cublasStatus_t trsm_b(bool w, cublasSideMode_t sd, cublasFillMode_t u, cublasOperation_t t,             \
                               cublasDiagType_t d, int m, int n, const T *a, T *const *A, int lda, T *const *B,   \
                               int ldb, int b) {                                                                  \
    return w ? cublas##S##trsmBatched_64(H, sd, u, t, d, m, n, a, (const T *const *)A, lda, B, ldb, b)            \
             : cublas##S##trsmBatched(H, sd, u, t, d, m, n, a, (const T *const *)A, lda, B, ldb, b);              \
  }                                                                                                               \
  static cublasStatus_t gemv_b(bool w, cublasOperation_t t, int m, int n, const T *a, T *const *A, int lda,       \
                               T *const *x, int ix, const T *b, T *const *y, int iy, int bc) {                    \
    return w ? cublas##S##gemvBatched_64(H, t, m, n, a, (const T *const *)A, lda, (const T *const *)x, ix, b, y,  \
                                         iy, bc)                                                                  \
             : cublas##S##gemvBatched(H, t, m, n, a, (const T *const *)A, lda, (const T *const *)x, ix, b, y, iy, bc); \
  }                                                                                                               \
  static cublasStatus_t gemv_s(bool w, cublasOperation_t t, int m, int n, const T *a, const T *A, int lda,        \
                               long long sa, const T *x, int ix, long long sx, const T *b, T *y, int iy,          \
                               long long sy, int bc) {                                                            \
    return w ? cublas##S##gemvStridedBatched_64(H, t, m, n, a, A, lda, sa, x, ix, sx, b, y, iy, sy, bc)           \
             : cublas##S##gemvStridedBatched(H, t, m, n, a, A, lda, sa, x, ix, sx, b, y, iy, sy, bc);             \
  }
B_OPS(float, S)
B_OPS(double, D)
B_OPS(cuComplex, C)
B_OPS(cuDoubleComplex, Z)

/* batch device matrices n x n (ld) and the device array of their addresses */
template <class T> struct batch {
  int count;
  size_t each;
  dbuf<T> all;
  T **arr;
  batch(int c, size_t elems) : count(c), each(elems), all(c * elems), arr(NULL) {
    std::vector<T *> p(c);
    for (int i = 0; i < c; i++) p[i] = all.d + i * elems;
    CHECK(cudaMalloc((void **)&arr, c * sizeof(T *)));
    CHECK(cudaMemcpy(arr, p.data(), c * sizeof(T *), cudaMemcpyHostToDevice));
  }
  ~batch() { cudaFree(arr); }
  cd at(int e, size_t i) const { return all.at(e * each + i); }
};

static std::vector<int> down_ints(const int *d, size_t n) {
  std::vector<int> r(n);
  CHECK(cudaMemcpy(r.data(), d, n * sizeof(int), cudaMemcpyDeviceToHost));
  return r;
}

static const cublasOperation_t OPS_[3] = {CUBLAS_OP_N, CUBLAS_OP_T, CUBLAS_OP_C};

template <class T> static void test_lu() {
  const int n = 6, lda = 8, nb = 3, nrhs = 2, ldb = 7;
  for (int pivot = 0; pivot < 2; pivot++) {
    batch<T> A(nb, lda * n);
    for (int e = 0; e < nb; e++)   /* diagonally dominant: also safe without pivoting */
      for (int i = 0; i < n; i++) A.all.h[e * A.each + i + i * lda] = T_<T>::put(cd(6 + e, 0.25));
    A.all.up();
    std::vector<cd> orig = as_cd(A.all.h);
    int *P, *info;
    CHECK(cudaMalloc((void **)&P, nb * n * sizeof(int)));
    CHECK(cudaMalloc((void **)&info, nb * sizeof(int)));
    CHECK_BLAS(getrf(n, A.arr, lda, pivot ? P : NULL, info, nb));
    std::vector<int> inf = down_ints(info, nb), piv = pivot ? down_ints(P, nb * n) : std::vector<int>();
    std::vector<T> lu = A.all.down();
    for (int e = 0; e < nb; e++) {
      if (inf[e] != 0) { printf("FAIL getrfBatched info[%d] = %d\n", e, inf[e]); exit(1); }
      /* P L U == A */
      std::vector<cd> M(n * n);
      for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++) {
          cd s = 0;
          for (int l = 0; l <= (i < j ? i : j); l++) {
            cd L = l == i ? cd(1) : T_<T>::get(lu[e * A.each + i + l * lda]);
            s += L * T_<T>::get(lu[e * A.each + l + j * lda]);
          }
          M[i + j * n] = s;
        }
      for (int k = n - 1; pivot && k >= 0; k--) {   /* undo the row swaps */
        int p = piv[e * n + k] - 1;
        if (p < k || p >= n) { printf("FAIL getrfBatched pivot %d\n", p + 1); exit(1); }
        for (int j = 0; j < n; j++) std::swap(M[k + j * n], M[p + j * n]);
      }
      std::vector<T> got(n * n);
      std::vector<cd> want(n * n);
      for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++) {
          got[i + j * n] = T_<T>::put(M[i + j * n]);
          want[i + j * n] = orig[e * A.each + i + j * lda];
        }
      compare("getrfBatched P L U = A", got, want, 50);
    }
    /* getrsBatched: op(A) X = B for each trans */
    for (int t = 0; t < 3; t++) {
      batch<T> B(nb, ldb * nrhs);
      std::vector<cd> b0 = as_cd(B.all.h);
      int hinfo = -99;
      CHECK_BLAS(getrs(OPS_[t], n, nrhs, A.arr, lda, pivot ? P : NULL, B.arr, ldb, &hinfo, nb));
      if (hinfo != 0) { printf("FAIL getrsBatched info %d\n", hinfo); exit(1); }
      std::vector<T> X = B.all.down();
      for (int e = 0; e < nb; e++) {
        std::vector<T> got(n * nrhs);
        std::vector<cd> want(n * nrhs);
        for (int j = 0; j < nrhs; j++)
          for (int i = 0; i < n; i++) {
            cd s = 0;
            for (int l = 0; l < n; l++) {
              cd a = OPS_[t] == CUBLAS_OP_N ? orig[e * A.each + i + l * lda] : orig[e * A.each + l + i * lda];
              if (OPS_[t] == CUBLAS_OP_C) a = std::conj(a);
              s += a * T_<T>::get(X[e * B.each + l + j * ldb]);
            }
            got[i + j * n] = T_<T>::put(s);
            want[i + j * n] = b0[e * B.each + i + j * ldb];
          }
        compare("getrsBatched op(A) X = B", got, want, 100);
      }
    }
    /* getriBatched: A^-1 from the factors; A A^-1 = I */
    batch<T> C(nb, lda * n);
    CHECK_BLAS(getri(n, A.arr, lda, pivot ? P : NULL, C.arr, lda, info, nb));
    inf = down_ints(info, nb);
    std::vector<T> inv = C.all.down();
    for (int e = 0; e < nb; e++) {
      if (inf[e] != 0) { printf("FAIL getriBatched info[%d] = %d\n", e, inf[e]); exit(1); }
      std::vector<T> got(n * n);
      std::vector<cd> want(n * n);
      for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++) {
          cd s = 0;
          for (int l = 0; l < n; l++) s += orig[e * A.each + i + l * lda] * T_<T>::get(inv[e * C.each + l + j * lda]);
          got[i + j * n] = T_<T>::put(s);
          want[i + j * n] = i == j ? 1 : 0;
        }
      compare("getriBatched A A^-1 = I", got, want, 100);
    }
    cudaFree(P);
    cudaFree(info);
  }
  /* a singular matrix: info names the first zero pivot */
  batch<T> S(2, 3 * 3);
  for (auto &v : S.all.h) v = T_<T>::put(cd(0, 0));
  for (int i = 0; i < 3; i++) S.all.h[i + i * 3] = T_<T>::put(cd(i == 1 ? 0 : 2, 0));   /* batch 0: diag(2, 0, 2) */
  for (int i = 0; i < 3; i++) S.all.h[9 + i + i * 3] = T_<T>::put(cd(1, 0));
  S.all.up();
  int *P, *info;
  CHECK(cudaMalloc((void **)&P, 2 * 3 * sizeof(int)));
  CHECK(cudaMalloc((void **)&info, 2 * sizeof(int)));
  CHECK_BLAS(getrf(3, S.arr, 3, P, info, 2));
  std::vector<int> inf = down_ints(info, 2);
  if (inf[0] != 2 || inf[1] != 0) { printf("FAIL getrfBatched singular info %d %d\n", inf[0], inf[1]); exit(1); }
  cudaFree(P);
  cudaFree(info);
}

template <class T> static void test_matinv() {
  const int n = 5, lda = 6, ldc = 7, nb = 3;
  batch<T> A(nb, lda * n), C(nb, ldc * n);
  for (int e = 0; e < nb; e++)
    for (int i = 0; i < n; i++) A.all.h[e * A.each + i + i * lda] = T_<T>::put(cd(5, -1));
  A.all.up();
  int *info;
  CHECK(cudaMalloc((void **)&info, nb * sizeof(int)));
  CHECK_BLAS(matinv(n, A.arr, lda, C.arr, ldc, info, nb));
  std::vector<int> inf = down_ints(info, nb);
  std::vector<T> inv = C.all.down();
  for (int e = 0; e < nb; e++) {
    if (inf[e]) { printf("FAIL matinvBatched info %d\n", inf[e]); exit(1); }
    std::vector<T> got(n * n);
    std::vector<cd> want(n * n);
    for (int j = 0; j < n; j++)
      for (int i = 0; i < n; i++) {
        cd s = 0;
        for (int l = 0; l < n; l++) s += A.at(e, i + l * lda) * T_<T>::get(inv[e * C.each + l + j * ldc]);
        got[i + j * n] = T_<T>::put(s);
        want[i + j * n] = i == j ? 1 : 0;
      }
    compare("matinvBatched A Ainv = I", got, want, 100);
  }
  cudaFree(info);
}

template <class T> static void test_trsm_gemv() {
  const int m = 6, n = 4, nb = 3;
  for (int w = 0; w < 2; w++) {
    batch<T> A(nb, m * m), B(nb, m * n);
    for (int e = 0; e < nb; e++)
      for (int i = 0; i < m; i++) A.all.h[e * A.each + i + i * m] = T_<T>::put(cd(4, 0));
    A.all.up();
    T a = T_<T>::put(cd(2, 0));
    CHECK_BLAS(trsm_b(w, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_UPPER, CUBLAS_OP_N, CUBLAS_DIAG_NON_UNIT, m, n, &a, A.arr, m,
                      B.arr, m, nb));
    std::vector<T> X = B.all.down();
    for (int e = 0; e < nb; e++) {
      std::vector<T> got(m * n);
      std::vector<cd> want(m * n);
      for (int j = 0; j < n; j++)
        for (int i = 0; i < m; i++) {
          cd s = 0;
          for (int l = i; l < m; l++) s += A.at(e, i + l * m) * T_<T>::get(X[e * B.each + l + j * m]);
          got[i + j * m] = T_<T>::put(s);
          want[i + j * m] = 2.0 * B.at(e, i + j * m);
        }
      compare("trsmBatched", got, want, 20);
    }
    /* gemv, pointer arrays and strided, y = alpha op(A) x + beta y */
    for (int t = 0; t < 2; t++) {
      cublasOperation_t tr = OPS_[t];
      int xl = tr == CUBLAS_OP_N ? n : m, yl = tr == CUBLAS_OP_N ? m : n;
      batch<T> M(nb, m * n), x(nb, xl), y(nb, yl), ys(nb, yl);
      T al = rnd_val<T>(), be = rnd_val<T>();
      CHECK_BLAS(gemv_b(w, tr, m, n, &al, M.arr, m, x.arr, 1, &be, y.arr, 1, nb));
      CHECK_BLAS(gemv_s(w, tr, m, n, &al, M.all.d, m, M.each, x.all.d, 1, x.each, &be, ys.all.d, 1, ys.each, nb));
      for (int form = 0; form < 2; form++) {
        batch<T> &Y = form ? ys : y;
        std::vector<cd> want = as_cd(Y.all.h);
        for (int e = 0; e < nb; e++)
          for (int i = 0; i < yl; i++) {
            cd s = 0;
            for (int l = 0; l < xl; l++)
              s += (tr == CUBLAS_OP_N ? M.at(e, i + l * m) : M.at(e, l + i * m)) * x.at(e, l);
            want[e * Y.each + i] = T_<T>::get(al) * s + T_<T>::get(be) * Y.at(e, i);
          }
        compare(form ? "gemvStridedBatched" : "gemvBatched", Y.all.down(), want, sum_scale(xl));
      }
    }
  }
}

template <class T> static void test_all() {
  test_lu<T>();
  test_matinv<T>();
  test_trsm_gemv<T>();
}

int main() {
  CHECK_BLAS(cublasCreate(&H));
  test_all<float>();
  test_all<double>();
  test_all<cuComplex>();
  test_all<cuDoubleComplex>();
  CHECK(cudaDeviceSynchronize());
  CHECK_BLAS(cublasDestroy(H));
  fprintf(stderr, "cublas_batched: %d values compared\n", compared_values);
  printf("PASS cublas_batched\n");
  return 0;
}
