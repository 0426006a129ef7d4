/* cublas_level3.cu: cuBLAS level 3 in S/D/C/Z, 32- and 64-bit entry points,
 * every trans/side/uplo/diag, leading dimensions above the rows, beta = 0
 * with NaN in C, alpha = 0, m/n/k = 0, each result checked against a host
 * computation in double. Covers gemm, gemm3m, symm/hemm, syrk/herk,
 * syr2k/her2k, syrkx/herkx, trmm, trsm, geam (also in place), dgmm, and
 * TF32 math mode (f32 inputs rounded to TF32, nearest even, as the H200's cuBLAS does). */
#include "lib_check.h"

static bool use64 = false;
static cublasHandle_t H;

#define L3(T, S)                                                                                                  \
  static cublasStatus_t gemm(cublasOperation_t ta, cublasOperation_t tb, int m, int n, int k, const T *a,         \
                             const T *A, int lda, const T *B, int ldb, const T *b, T *C, int ldc) {               \
    return use64 ? cublas##S##gemm_64(H, ta, tb, m, n, k, a, A, lda, B, ldb, b, C, ldc)                           \
                 : cublas##S##gemm(H, ta, tb, m, n, k, a, A, lda, B, ldb, b, C, ldc);                             \
  }                                                                                                               \
  static cublasStatus_t symm(cublasSideMode_t sd, cublasFillMode_t u, int m, int n, const T *a, const T *A,       \
                             int lda, const T *B, int ldb, const T *b, T *C, int ldc) {                           \
    return use64 ? cublas##S##symm_64(H, sd, u, m, n, a, A, lda, B, ldb, b, C, ldc)                               \
                 : cublas##S##symm(H, sd, u, m, n, a, A, lda, B, ldb, b, C, ldc);                                 \
  }                                                                                                               \
  static cublasStatus_t syrk(cublasFillMode_t u, cublasOperation_t t, int n, int k, const T *a, const T *A,       \
                             int lda, const T *b, T *C, int ldc) {                                                \
    return use64 ? cublas##S##syrk_64(H, u, t, n, k, a, A, lda, b, C, ldc)                                        \
                 : cublas##S##syrk(H, u, t, n, k, a, A, lda, b, C, ldc);                                          \
  }                                                                                                               \
  static cublasStatus_t syr2k(int x, cublasFillMode_t u, cublasOperation_t t, int n, int k, const T *a,          \
                              const T *A, int lda, const T *B, int ldb, const T *b, T *C, int ldc) {              \
    if (x) return use64 ? cublas##S##syrkx_64(H, u, t, n, k, a, A, lda, B, ldb, b, C, ldc)                        \
                        : cublas##S##syrkx(H, u, t, n, k, a, A, lda, B, ldb, b, C, ldc);                          \
    return use64 ? cublas##S##syr2k_64(H, u, t, n, k, a, A, lda, B, ldb, b, C, ldc)                               \
                 : cublas##S##syr2k(H, u, t, n, k, a, A, lda, B, ldb, b, C, ldc);                                 \
  }                                                                                                               \
  static cublasStatus_t trmm(cublasSideMode_t sd, cublasFillMode_t u, cublasOperation_t t, cublasDiagType_t d,   \
                             int m, int n, const T *a, const T *A, int lda, const T *B, int ldb, T *C, int ldc) { \
    return use64 ? cublas##S##trmm_64(H, sd, u, t, d, m, n, a, A, lda, B, ldb, C, ldc)                            \
                 : cublas##S##trmm(H, sd, u, t, d, m, n, a, A, lda, B, ldb, C, ldc);                              \
  }                                                                                                               \
  static cublasStatus_t trsm(cublasSideMode_t sd, cublasFillMode_t u, cublasOperation_t t, cublasDiagType_t d,   \
                             int m, int n, const T *a, const T *A, int lda, T *B, int ldb) {                      \
    return use64 ? cublas##S##trsm_64(H, sd, u, t, d, m, n, a, A, lda, B, ldb)                                    \
                 : cublas##S##trsm(H, sd, u, t, d, m, n, a, A, lda, B, ldb);                                      \
  }                                                                                                               \
  static cublasStatus_t geam(cublasOperation_t ta, cublasOperation_t tb, int m, int n, const T *a, const T *A,    \
                             int lda, const T *b, const T *B, int ldb, T *C, int ldc) {                           \
    return use64 ? cublas##S##geam_64(H, ta, tb, m, n, a, A, lda, b, B, ldb, C, ldc)                              \
                 : cublas##S##geam(H, ta, tb, m, n, a, A, lda, b, B, ldb, C, ldc);                                \
  }                                                                                                               \
  static cublasStatus_t dgmm(cublasSideMode_t sd, int m, int n, const T *A, int lda, const T *x, int ix, T *C,    \
                             int ldc) {                                                                           \
    return use64 ? cublas##S##dgmm_64(H, sd, m, n, A, lda, x, ix, C, ldc)                                         \
                 : cublas##S##dgmm(H, sd, m, n, A, lda, x, ix, C, ldc);                                           \
  }
L3(float, S)
L3(double, D)
L3(cuComplex, C)
L3(cuDoubleComplex, Z)

#define L3C(T, R, S)                                                                                              \
  static cublasStatus_t gemm3m(cublasOperation_t ta, cublasOperation_t tb, int m, int n, int k, const T *a,       \
                               const T *A, int lda, const T *B, int ldb, const T *b, T *C, int ldc) {             \
    return use64 ? cublas##S##gemm3m_64(H, ta, tb, m, n, k, a, A, lda, B, ldb, b, C, ldc)                         \
                 : cublas##S##gemm3m(H, ta, tb, m, n, k, a, A, lda, B, ldb, b, C, ldc);                           \
  }                                                                                                               \
  static cublasStatus_t hemm(cublasSideMode_t sd, cublasFillMode_t u, int m, int n, const T *a, const T *A,       \
                             int lda, const T *B, int ldb, const T *b, T *C, int ldc) {                           \
    return use64 ? cublas##S##hemm_64(H, sd, u, m, n, a, A, lda, B, ldb, b, C, ldc)                               \
                 : cublas##S##hemm(H, sd, u, m, n, a, A, lda, B, ldb, b, C, ldc);                                 \
  }                                                                                                               \
  static cublasStatus_t herk(cublasFillMode_t u, cublasOperation_t t, int n, int k, const R *a, const T *A,       \
                             int lda, const R *b, T *C, int ldc) {                                                \
    return use64 ? cublas##S##herk_64(H, u, t, n, k, a, A, lda, b, C, ldc)                                        \
                 : cublas##S##herk(H, u, t, n, k, a, A, lda, b, C, ldc);                                          \
  }                                                                                                               \
  static cublasStatus_t her2k(int x, cublasFillMode_t u, cublasOperation_t t, int n, int k, const T *a,          \
                              const T *A, int lda, const T *B, int ldb, const R *b, T *C, int ldc) {              \
    if (x) return use64 ? cublas##S##herkx_64(H, u, t, n, k, a, A, lda, B, ldb, b, C, ldc)                        \
                        : cublas##S##herkx(H, u, t, n, k, a, A, lda, B, ldb, b, C, ldc);                          \
    return use64 ? cublas##S##her2k_64(H, u, t, n, k, a, A, lda, B, ldb, b, C, ldc)                               \
                 : cublas##S##her2k(H, u, t, n, k, a, A, lda, B, ldb, b, C, ldc);                                 \
  }
L3C(cuComplex, float, C)
L3C(cuDoubleComplex, double, Z)

/* The forms a type lacks (never called: the tests skip them), so that every
 * branch of the templates compiles. */
#define NO_COMPLEX_ONLY(T)                                                                                        \
  static cublasStatus_t gemm3m(cublasOperation_t, cublasOperation_t, int, int, int, const T *, const T *, int,    \
                               const T *, int, const T *, T *, int) { return CUBLAS_STATUS_NOT_SUPPORTED; }       \
  static cublasStatus_t hemm(cublasSideMode_t, cublasFillMode_t, int, int, const T *, const T *, int, const T *,  \
                             int, const T *, T *, int) { return CUBLAS_STATUS_NOT_SUPPORTED; }                    \
  static cublasStatus_t herk(cublasFillMode_t, cublasOperation_t, int, int, const T *, const T *, int, const T *, \
                             T *, int) { return CUBLAS_STATUS_NOT_SUPPORTED; }                                    \
  static cublasStatus_t her2k(int, cublasFillMode_t, cublasOperation_t, int, int, const T *, const T *, int,     \
                              const T *, int, const T *, T *, int) { return CUBLAS_STATUS_NOT_SUPPORTED; }
NO_COMPLEX_ONLY(float)
NO_COMPLEX_ONLY(double)

static const cublasOperation_t OPS_[3] = {CUBLAS_OP_N, CUBLAS_OP_T, CUBLAS_OP_C};
static const cublasFillMode_t UPLO[2] = {CUBLAS_FILL_MODE_LOWER, CUBLAS_FILL_MODE_UPPER};
static const cublasSideMode_t SIDE[2] = {CUBLAS_SIDE_LEFT, CUBLAS_SIDE_RIGHT};

/* Element (i, j) of op(X), X with leading dimension ld. */
template <class T> static cd op(const dbuf<T> &X, int ld, cublasOperation_t t, int i, int j) {
  if (t == CUBLAS_OP_N) return X.at(i + j * ld);
  cd v = X.at(j + i * ld);
  return t == CUBLAS_OP_C ? std::conj(v) : v;
}

template <class T> static void test_gemm(bool three_m) {
  const int m = 9, n = 7, k = 11;
  for (int a_ = 0; a_ < 3; a_++)
    for (int b_ = 0; b_ < 3; b_++)
      for (int bz = 0; bz < 2; bz++) {
        cublasOperation_t ta = OPS_[a_], tb = OPS_[b_];
        int lda = (ta == CUBLAS_OP_N ? m : k) + 3, ldb = (tb == CUBLAS_OP_N ? k : n) + 1, ldc = m + 2;
        dbuf<T> A(lda * (ta == CUBLAS_OP_N ? k : m)), B(ldb * (tb == CUBLAS_OP_N ? n : k)), C(ldc * n);
        if (bz) {
          for (auto &v : C.h) v = T_<T>::put(cd(NAN, 0));
          C.up();
        }
        T a = rnd_val<T>(), b = bz ? T_<T>::put(0) : rnd_val<T>();
        cublasStatus_t s;
        if (three_m) s = gemm3m(ta, tb, m, n, k, &a, A.d, lda, B.d, ldb, &b, C.d, ldc);
        else s = gemm(ta, tb, m, n, k, &a, A.d, lda, B.d, ldb, &b, C.d, ldc);
        CHECK_BLAS(s);
        std::vector<cd> want = as_cd(C.h);
        for (int j = 0; j < n; j++)
          for (int i = 0; i < m; i++) {
            cd sum = 0;
            for (int l = 0; l < k; l++) sum += op(A, lda, ta, i, l) * op(B, ldb, tb, l, j);
            want[i + j * ldc] = T_<T>::get(a) * sum + (bz ? cd(0) : T_<T>::get(b) * C.at(i + j * ldc));
          }
        compare(three_m ? "gemm3m" : "gemm", C.down(), want, sum_scale(k));
      }
  /* alpha = 0, beta = 1: C unchanged; k = 0: C = beta C */
  dbuf<T> A(16), B(16), C(16);
  T zero = T_<T>::put(0), one = T_<T>::put(1), two = T_<T>::put(2);
  CHECK_BLAS(gemm(CUBLAS_OP_N, CUBLAS_OP_N, 4, 4, 4, &zero, A.d, 4, B.d, 4, &one, C.d, 4));
  compare("gemm alpha 0", C.down(), as_cd(C.h));
  CHECK_BLAS(gemm(CUBLAS_OP_N, CUBLAS_OP_N, 4, 4, 0, &one, A.d, 4, B.d, 4, &two, C.d, 4));
  std::vector<cd> twice = as_cd(C.h);
  for (auto &v : twice) v *= 2.0;
  compare("gemm k 0", C.down(), twice);
}

/* symm (and hemm for C/Z). */
template <class T> static void test_symm(bool herm) {
  const int m = 8, n = 6;
  for (int s_ = 0; s_ < 2; s_++)
    for (int u = 0; u < 2; u++) {
      bool left = s_ == 0, upper = u == 1;
      int ka = left ? m : n, lda = ka + 2, ldb = m + 1, ldc = m + 3;
      dbuf<T> A(lda * ka), B(ldb * n), C(ldc * n);
      T a = rnd_val<T>(), b = rnd_val<T>();
      if (herm) CHECK_BLAS(hemm(SIDE[s_], UPLO[u], m, n, &a, A.d, lda, B.d, ldb, &b, C.d, ldc));
      else CHECK_BLAS(symm(SIDE[s_], UPLO[u], m, n, &a, A.d, lda, B.d, ldb, &b, C.d, ldc));
      auto S = [&](int i, int j) {
        bool stored = upper ? i <= j : i >= j;
        cd v = stored ? A.at(i + j * lda) : A.at(j + i * lda);
        if (herm && i == j) v = cd(v.real(), 0);
        if (herm && !stored) v = std::conj(v);
        return v;
      };
      std::vector<cd> want = as_cd(C.h);
      for (int j = 0; j < n; j++)
        for (int i = 0; i < m; i++) {
          cd sum = 0;
          for (int l = 0; l < ka; l++) sum += left ? S(i, l) * B.at(l + j * ldb) : B.at(i + l * ldb) * S(l, j);
          want[i + j * ldc] = T_<T>::get(a) * sum + T_<T>::get(b) * C.at(i + j * ldc);
        }
      compare(herm ? "hemm" : "symm", C.down(), want, sum_scale(ka));
    }
}
/* syrk / syr2k / syrkx (kind 0, 1, 2), and for C/Z herk / her2k / herkx. */
template <class T> static void test_rank_k(bool herm) {
  typedef typename real_of<T>::type R;
  const int n = 7, k = 5;
  for (int kind = 0; kind < 3; kind++)
    for (int u = 0; u < 2; u++)
      for (int t = 0; t < 2; t++) {
        bool upper = u == 1;
        cublasOperation_t tr = t == 0 ? CUBLAS_OP_N : (herm ? CUBLAS_OP_C : CUBLAS_OP_T);
        int rows = tr == CUBLAS_OP_N ? n : k, cols = tr == CUBLAS_OP_N ? k : n, lda = rows + 1, ldb = rows + 2;
        int ldc = n + 1;
        dbuf<T> A(lda * cols), B(ldb * cols), C(ldc * n);
        T a = rnd_val<T>(), b = rnd_val<T>();
        R ar = (R)0.5, br = (R)-1.25;
        cublasStatus_t s;
        if (herm) s = kind == 0 ? herk(UPLO[u], tr, n, k, &ar, A.d, lda, &br, C.d, ldc)
                                : her2k(kind == 2, UPLO[u], tr, n, k, &a, A.d, lda, B.d, ldb, &br, C.d, ldc);
        else s = kind == 0 ? syrk(UPLO[u], tr, n, k, &a, A.d, lda, &b, C.d, ldc)
                           : syr2k(kind == 2, UPLO[u], tr, n, k, &a, A.d, lda, B.d, ldb, &b, C.d, ldc);
        CHECK_BLAS(s);
        /* P(i, l) = op(X)(i, l), op(X) n x k */
        auto P = [&](const dbuf<T> &X, int ld, int i, int l) {
          return tr == CUBLAS_OP_N ? X.at(i + l * ld) : (herm ? std::conj(X.at(l + i * ld)) : X.at(l + i * ld));
        };
        cd av = herm && kind == 0 ? cd(ar, 0) : T_<T>::get(a), bv = herm ? cd(br, 0) : T_<T>::get(b);
        std::vector<cd> want = as_cd(C.h);
        for (int j = 0; j < n; j++)
          for (int i = 0; i < n; i++) {
            if (upper ? i > j : i < j) continue;
            cd sum = 0;
            for (int l = 0; l < k; l++) {
              auto tj = [&](cd v) { return herm ? std::conj(v) : v; };
              if (kind == 0) sum += av * P(A, lda, i, l) * tj(P(A, lda, j, l));
              else if (kind == 2) sum += av * P(A, lda, i, l) * tj(P(B, ldb, j, l));
              else sum += av * P(A, lda, i, l) * tj(P(B, ldb, j, l)) +
                          (herm ? std::conj(av) : av) * P(B, ldb, i, l) * tj(P(A, lda, j, l));
            }
            cd v = sum + bv * C.at(i + j * ldc);
            if (herm && i == j) v = cd(v.real(), 0);
            want[i + j * ldc] = v;
          }
        compare(herm ? "herk family" : "syrk family", C.down(), want, 2 * sum_scale(k));
      }
}
/* trmm (out of place, and in place with B == C) and trsm. */
template <class T> static void test_triangular() {
  const int m = 7, n = 5;
  for (int s_ = 0; s_ < 2; s_++)
    for (int u = 0; u < 2; u++)
      for (int t = 0; t < 3; t++)
        for (int d = 0; d < 2; d++) {
          bool left = s_ == 0, upper = u == 1, unit = d == 1;
          int ka = left ? m : n, lda = ka + 1, ldb = m + 2, ldc = m + 1;
          cublasOperation_t tr = OPS_[t];
          dbuf<T> A(lda * ka), B(ldb * n), C(ldc * n);
          for (int i = 0; i < ka; i++) A.h[i + i * lda] = T_<T>::put(cd(3 + i % 2, T_<T>::cplx ? -0.5 : 0));
          A.up();
          T a = rnd_val<T>();
          auto OT = [&](int i, int j) {   /* op(T)(i, j) */
            int r = tr == CUBLAS_OP_N ? i : j, c = tr == CUBLAS_OP_N ? j : i;
            if (upper ? r > c : r < c) return cd(0);
            cd v = r == c && unit ? cd(1) : A.at(r + c * lda);
            return tr == CUBLAS_OP_C ? std::conj(v) : v;
          };
          CHECK_BLAS(trmm(SIDE[s_], UPLO[u], tr, unit ? CUBLAS_DIAG_UNIT : CUBLAS_DIAG_NON_UNIT, m, n, &a, A.d, lda,
                          B.d, ldb, C.d, ldc));
          std::vector<cd> want = as_cd(C.h);
          for (int j = 0; j < n; j++)
            for (int i = 0; i < m; i++) {
              cd sum = 0;
              for (int l = 0; l < ka; l++) sum += left ? OT(i, l) * B.at(l + j * ldb) : B.at(i + l * ldb) * OT(l, j);
              want[i + j * ldc] = T_<T>::get(a) * sum;
            }
          compare("trmm", C.down(), want, sum_scale(ka));
          /* trsm: X with op(T) X = alpha B (or X op(T) = alpha B); check by multiplying back */
          CHECK_BLAS(trsm(SIDE[s_], UPLO[u], tr, unit ? CUBLAS_DIAG_UNIT : CUBLAS_DIAG_NON_UNIT, m, n, &a, A.d, lda,
                          B.d, ldb));
          std::vector<T> X = B.down();
          std::vector<cd> back(ldb * n), expect = as_cd(B.h);
          for (int j = 0; j < n; j++)
            for (int i = 0; i < m; i++) {
              cd sum = 0;
              for (int l = 0; l < ka; l++)
                sum += left ? OT(i, l) * T_<T>::get(X[l + j * ldb]) : T_<T>::get(X[i + l * ldb]) * OT(l, j);
              back[i + j * ldb] = sum;
              expect[i + j * ldb] = T_<T>::get(a) * B.at(i + j * ldb);
            }
          for (int j = 0; j < n; j++)
            for (int i = m; i < ldb; i++) back[i + j * ldb] = T_<T>::get(X[i + j * ldb]);
          std::vector<T> back_t(back.size());
          for (size_t i = 0; i < back.size(); i++) back_t[i] = T_<T>::put(back[i]);
          compare("trsm (op(T) X = alpha B)", back_t, expect, 8 * sum_scale(ka));
        }
}

template <class T> static void test_geam_dgmm() {
  const int m = 6, n = 5;
  for (int a_ = 0; a_ < 3; a_++)
    for (int b_ = 0; b_ < 3; b_++) {
      cublasOperation_t ta = OPS_[a_], tb = OPS_[b_];
      int lda = (ta == CUBLAS_OP_N ? m : n) + 1, ldb = (tb == CUBLAS_OP_N ? m : n) + 2, ldc = m;
      dbuf<T> A(lda * (ta == CUBLAS_OP_N ? n : m)), B(ldb * (tb == CUBLAS_OP_N ? n : m)), C(ldc * n);
      T a = rnd_val<T>(), b = rnd_val<T>();
      CHECK_BLAS(geam(ta, tb, m, n, &a, A.d, lda, &b, B.d, ldb, C.d, ldc));
      std::vector<cd> want(ldc * n);
      for (int j = 0; j < n; j++)
        for (int i = 0; i < m; i++)
          want[i + j * ldc] = T_<T>::get(a) * op(A, lda, ta, i, j) + T_<T>::get(b) * op(B, ldb, tb, i, j);
      compare("geam", C.down(), want);
    }
  {  /* in place: C = alpha C + beta B^T */
    dbuf<T> C(m * n), B(n * m);
    T a = rnd_val<T>(), b = rnd_val<T>();
    CHECK_BLAS(geam(CUBLAS_OP_N, CUBLAS_OP_T, m, n, &a, C.d, m, &b, B.d, n, C.d, m));
    std::vector<cd> want(m * n);
    for (int j = 0; j < n; j++)
      for (int i = 0; i < m; i++) want[i + j * m] = T_<T>::get(a) * C.at(i + j * m) + T_<T>::get(b) * B.at(j + i * n);
    compare("geam in place", C.down(), want);
    /* transposition by geam with beta = 0 (B may be anything) */
    T one = T_<T>::put(1), zero = T_<T>::put(0);
    dbuf<T> D(m * n);   /* D (m x n) = B^T, B n x m */
    CHECK_BLAS(geam(CUBLAS_OP_T, CUBLAS_OP_N, m, n, &one, B.d, n, &zero, NULL, m, D.d, m));
    std::vector<cd> tw(m * n);
    for (int j = 0; j < n; j++)
      for (int i = 0; i < m; i++) tw[i + j * m] = B.at(j + i * n);
    compare("geam transpose", D.down(), tw);
  }
  for (int s_ = 0; s_ < 2; s_++) {
    bool left = s_ == 0;
    int lda = m + 1, ldc = m + 2, len = left ? m : n;
    dbuf<T> A(lda * n), x(len * 2), C(ldc * n);
    CHECK_BLAS(dgmm(SIDE[s_], m, n, A.d, lda, x.d, 2, C.d, ldc));
    std::vector<cd> want = as_cd(C.h);
    for (int j = 0; j < n; j++)
      for (int i = 0; i < m; i++) want[i + j * ldc] = A.at(i + j * lda) * x.at(2 * (left ? i : j));
    compare("dgmm", C.down(), want);
  }
}

/* TF32 math: an f32 gemm rounds its inputs to TF32 (10 mantissa bits,
 * nearest, ties to even, as the H200 does); the inputs have ties. */
static float tf32(float v) {
  uint32_t x;
  memcpy(&x, &v, 4);
  x = (x + 0xfffu + ((x >> 13) & 1u)) & 0xffffe000u;   /* nearest, ties to even (the H200's) */
  memcpy(&v, &x, 4);
  return v;
}
static void test_tf32() {
  const int m = 4, n = 3, k = 8;
  dbuf<float> A(m * k), B(k * n), C(m * n, false);
  for (int i = 0; i < m * k; i++) A.h[i] = 1.0f + (float)((i % 7) + 1) / 4096.0f + (i % 3) / 8192.0f;
  for (int i = 0; i < k * n; i++) B.h[i] = 1.0f - (float)(i % 5) / 2048.0f;
  A.up();
  B.up();
  CHECK_BLAS(cublasSetMathMode(H, CUBLAS_TF32_TENSOR_OP_MATH));
  float one = 1, zero = 0;
  CHECK_BLAS(cublasSgemm(H, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &one, A.d, m, B.d, k, &zero, C.d, m));
  CHECK_BLAS(cublasSetMathMode(H, CUBLAS_DEFAULT_MATH));
  std::vector<cd> want(m * n);
  for (int j = 0; j < n; j++)
    for (int i = 0; i < m; i++) {
      double s = 0;
      for (int l = 0; l < k; l++) s += (double)tf32(A.h[i + l * m]) * tf32(B.h[l + j * k]);
      want[i + j * m] = s;
    }
  compare("Sgemm TF32 math", C.down(), want);
}

template <class T> static void test_all() {
  test_gemm<T>(false);
  if (T_<T>::cplx) test_gemm<T>(true);
  test_symm<T>(false);
  if (T_<T>::cplx) test_symm<T>(true);
  test_rank_k<T>(false);
  if (T_<T>::cplx) test_rank_k<T>(true);
  test_triangular<T>();
  test_geam_dgmm<T>();
}

int main() {
  CHECK_BLAS(cublasCreate(&H));
  for (int w = 0; w < 2; w++) {
    use64 = w;
    test_all<float>();
    test_all<double>();
    test_all<cuComplex>();
    test_all<cuDoubleComplex>();
  }
  test_tf32();
  CHECK(cudaDeviceSynchronize());
  CHECK_BLAS(cublasDestroy(H));
  fprintf(stderr, "cublas_level3: %d values compared\n", compared_values);
  printf("PASS cublas_level3\n");
  return 0;
}
