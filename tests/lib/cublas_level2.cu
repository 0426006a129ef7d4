/* cublas_level2.cu: cuBLAS level 2 in S/D/C/Z, 32- and 64-bit entry points,
 * every trans/uplo/diag, lda > rows, band and packed storage, beta = 0 with
 * NaN in y (not read) and alpha = 0, each result checked against a host
 * computation in double. Covers gemv, gbmv, ger/geru/gerc, symv/hemv,
 * sbmv/hbmv, spmv/hpmv, syr/her, spr/hpr, syr2/her2, spr2/hpr2, trmv,
 * tbmv, tpmv, trsv, tbsv, tpsv. */
#include "lib_check.h"

static bool use64 = false;
static cublasHandle_t H;

#define OPS(T, S)                                                                                                 \
  static cublasStatus_t gemv(cublasOperation_t tr, int m, int n, const T *a, const T *A, int lda, const T *x,     \
                             int ix, const T *b, T *y, int iy) {                                                  \
    return use64 ? cublas##S##gemv_64(H, tr, m, n, a, A, lda, x, ix, b, y, iy)                                    \
                 : cublas##S##gemv(H, tr, m, n, a, A, lda, x, ix, b, y, iy);                                      \
  }                                                                                                               \
  static cublasStatus_t gbmv(cublasOperation_t tr, int m, int n, int kl, int ku, const T *a, const T *A, int lda, \
                             const T *x, int ix, const T *b, T *y, int iy) {                                      \
    return use64 ? cublas##S##gbmv_64(H, tr, m, n, kl, ku, a, A, lda, x, ix, b, y, iy)                            \
                 : cublas##S##gbmv(H, tr, m, n, kl, ku, a, A, lda, x, ix, b, y, iy);                              \
  }                                                                                                               \
  static cublasStatus_t symv(cublasFillMode_t u, int n, const T *a, const T *A, int lda, const T *x, int ix,      \
                             const T *b, T *y, int iy) {                                                          \
    return use64 ? cublas##S##symv_64(H, u, n, a, A, lda, x, ix, b, y, iy)                                        \
                 : cublas##S##symv(H, u, n, a, A, lda, x, ix, b, y, iy);                                          \
  }                                                                                                               \
  static cublasStatus_t syr(cublasFillMode_t u, int n, const T *a, const T *x, int ix, T *A, int lda) {           \
    return use64 ? cublas##S##syr_64(H, u, n, a, x, ix, A, lda) : cublas##S##syr(H, u, n, a, x, ix, A, lda);     \
  }                                                                                                               \
  static cublasStatus_t syr2(cublasFillMode_t u, int n, const T *a, const T *x, int ix, const T *y, int iy,       \
                             T *A, int lda) {                                                                     \
    return use64 ? cublas##S##syr2_64(H, u, n, a, x, ix, y, iy, A, lda)                                           \
                 : cublas##S##syr2(H, u, n, a, x, ix, y, iy, A, lda);                                             \
  }                                                                                                               \
  static cublasStatus_t tri(int kind, cublasFillMode_t u, cublasOperation_t tr, cublasDiagType_t dg, int n,      \
                            int k, const T *A, int lda, T *x, int ix) {                                           \
    switch (kind) {                                                                                               \
    case 0: return use64 ? cublas##S##trmv_64(H, u, tr, dg, n, A, lda, x, ix)                                     \
                         : cublas##S##trmv(H, u, tr, dg, n, A, lda, x, ix);                                       \
    case 1: return use64 ? cublas##S##tbmv_64(H, u, tr, dg, n, k, A, lda, x, ix)                                  \
                         : cublas##S##tbmv(H, u, tr, dg, n, k, A, lda, x, ix);                                    \
    case 2: return use64 ? cublas##S##tpmv_64(H, u, tr, dg, n, A, x, ix) : cublas##S##tpmv(H, u, tr, dg, n, A, x, ix); \
    case 3: return use64 ? cublas##S##trsv_64(H, u, tr, dg, n, A, lda, x, ix)                                     \
                         : cublas##S##trsv(H, u, tr, dg, n, A, lda, x, ix);                                       \
    case 4: return use64 ? cublas##S##tbsv_64(H, u, tr, dg, n, k, A, lda, x, ix)                                  \
                         : cublas##S##tbsv(H, u, tr, dg, n, k, A, lda, x, ix);                                    \
    default: return use64 ? cublas##S##tpsv_64(H, u, tr, dg, n, A, x, ix) : cublas##S##tpsv(H, u, tr, dg, n, A, x, ix); \
    }                                                                                                             \
  }
OPS(float, S)
OPS(double, D)
OPS(cuComplex, C)
OPS(cuDoubleComplex, Z)

/* Real: ger, sbmv, spmv, spr, spr2. Complex: geru/gerc, hemv, hbmv, hpmv, her, hpr, her2, hpr2.
 * herm selects the Hermitian form; the band/packed forms through form (1 band, 2 packed). */
#define REAL_OPS(T, S)                                                                                            \
  static cublasStatus_t ger(bool, int m, int n, const T *a, const T *x, int ix, const T *y, int iy, T *A, int ld) { \
    return use64 ? cublas##S##ger_64(H, m, n, a, x, ix, y, iy, A, ld) : cublas##S##ger(H, m, n, a, x, ix, y, iy, A, ld); \
  }                                                                                                               \
  static cublasStatus_t sym_form(int form, cublasFillMode_t u, int n, int k, const T *a, const T *A, int lda,     \
                                 const T *x, int ix, const T *b, T *y, int iy) {                                  \
    if (form == 1)                                                                                                \
      return use64 ? cublas##S##sbmv_64(H, u, n, k, a, A, lda, x, ix, b, y, iy)                                   \
                   : cublas##S##sbmv(H, u, n, k, a, A, lda, x, ix, b, y, iy);                                     \
    if (form == 2)                                                                                                \
      return use64 ? cublas##S##spmv_64(H, u, n, a, A, x, ix, b, y, iy) : cublas##S##spmv(H, u, n, a, A, x, ix, b, y, iy); \
    return symv(u, n, a, A, lda, x, ix, b, y, iy);                                                                \
  }                                                                                                               \
  static cublasStatus_t syr_packed(cublasFillMode_t u, int n, const T *a, const T *x, int ix, T *AP) {            \
    return use64 ? cublas##S##spr_64(H, u, n, a, x, ix, AP) : cublas##S##spr(H, u, n, a, x, ix, AP);              \
  }                                                                                                               \
  static cublasStatus_t syr2_packed(cublasFillMode_t u, int n, const T *a, const T *x, int ix, const T *y, int iy, \
                                    T *AP) {                                                                      \
    return use64 ? cublas##S##spr2_64(H, u, n, a, x, ix, y, iy, AP) : cublas##S##spr2(H, u, n, a, x, ix, y, iy, AP); \
  }
REAL_OPS(float, S)
REAL_OPS(double, D)

#define CPLX_OPS(T, R, S)                                                                                         \
  static cublasStatus_t ger(bool conj, int m, int n, const T *a, const T *x, int ix, const T *y, int iy, T *A,    \
                            int ld) {                                                                             \
    if (conj)                                                                                                     \
      return use64 ? cublas##S##gerc_64(H, m, n, a, x, ix, y, iy, A, ld) : cublas##S##gerc(H, m, n, a, x, ix, y, iy, A, ld); \
    return use64 ? cublas##S##geru_64(H, m, n, a, x, ix, y, iy, A, ld) : cublas##S##geru(H, m, n, a, x, ix, y, iy, A, ld); \
  }                                                                                                               \
  static cublasStatus_t herm_form(int form, cublasFillMode_t u, int n, int k, const T *a, const T *A, int lda,    \
                                  const T *x, int ix, const T *b, T *y, int iy) {                                 \
    if (form == 1)                                                                                                \
      return use64 ? cublas##S##hbmv_64(H, u, n, k, a, A, lda, x, ix, b, y, iy)                                   \
                   : cublas##S##hbmv(H, u, n, k, a, A, lda, x, ix, b, y, iy);                                     \
    if (form == 2)                                                                                                \
      return use64 ? cublas##S##hpmv_64(H, u, n, a, A, x, ix, b, y, iy) : cublas##S##hpmv(H, u, n, a, A, x, ix, b, y, iy); \
    return use64 ? cublas##S##hemv_64(H, u, n, a, A, lda, x, ix, b, y, iy)                                        \
                 : cublas##S##hemv(H, u, n, a, A, lda, x, ix, b, y, iy);                                          \
  }                                                                                                               \
  static cublasStatus_t her(bool packed, cublasFillMode_t u, int n, const R *a, const T *x, int ix, T *A, int lda) { \
    if (packed) return use64 ? cublas##S##hpr_64(H, u, n, a, x, ix, A) : cublas##S##hpr(H, u, n, a, x, ix, A);    \
    return use64 ? cublas##S##her_64(H, u, n, a, x, ix, A, lda) : cublas##S##her(H, u, n, a, x, ix, A, lda);      \
  }                                                                                                               \
  static cublasStatus_t her2(bool packed, cublasFillMode_t u, int n, const T *a, const T *x, int ix, const T *y,  \
                             int iy, T *A, int lda) {                                                             \
    if (packed)                                                                                                   \
      return use64 ? cublas##S##hpr2_64(H, u, n, a, x, ix, y, iy, A) : cublas##S##hpr2(H, u, n, a, x, ix, y, iy, A); \
    return use64 ? cublas##S##her2_64(H, u, n, a, x, ix, y, iy, A, lda)                                           \
                 : cublas##S##her2(H, u, n, a, x, ix, y, iy, A, lda);                                             \
  }
CPLX_OPS(cuComplex, float, C)
CPLX_OPS(cuDoubleComplex, double, Z)

/* The forms a type lacks (never called: the tests skip them), so that every
 * branch of the templates compiles. */
#define NO_HERM(T)                                                                                                \
  static cublasStatus_t herm_form(int, cublasFillMode_t, int, int, const T *, const T *, int, const T *, int,     \
                                  const T *, T *, int) { return CUBLAS_STATUS_NOT_SUPPORTED; }                    \
  static cublasStatus_t her(bool, cublasFillMode_t, int, const T *, const T *, int, T *, int) {                   \
    return CUBLAS_STATUS_NOT_SUPPORTED;                                                                           \
  }                                                                                                               \
  static cublasStatus_t her2(bool, cublasFillMode_t, int, const T *, const T *, int, const T *, int, T *, int) {  \
    return CUBLAS_STATUS_NOT_SUPPORTED;                                                                           \
  }
NO_HERM(float)
NO_HERM(double)
#define NO_SYM_FORM(T)                                                                                            \
  static cublasStatus_t sym_form(int, cublasFillMode_t, int, int, const T *, const T *, int, const T *, int,      \
                                 const T *, T *, int) { return CUBLAS_STATUS_NOT_SUPPORTED; }
NO_SYM_FORM(cuComplex)
NO_SYM_FORM(cuDoubleComplex)

static const cublasOperation_t OPS_[3] = {CUBLAS_OP_N, CUBLAS_OP_T, CUBLAS_OP_C};
static const cublasFillMode_t UPLO[2] = {CUBLAS_FILL_MODE_LOWER, CUBLAS_FILL_MODE_UPPER};

static cd opx(const cd v, cublasOperation_t t) { return t == CUBLAS_OP_C ? std::conj(v) : v; }

/* Offset of stored element (i, j) of the uplo triangle in each form, -1 outside the band. */
static long at(int form, bool upper, long n, long k, long lda, long i, long j) {
  if (form == 1) {
    if (upper) return j - i > k ? -1 : k + i - j + j * lda;
    return i - j > k ? -1 : i - j + j * lda;
  }
  if (form == 2) return upper ? i + j * (j + 1) / 2 : i + j * (2 * n - j - 1) / 2;
  return i + j * lda;
}

template <class T> static void test_gemv() {
  const int m = 13, n = 9, lda = 16, kl = 2, ku = 3;
  for (int form = 0; form < 2; form++)
    for (int t = 0; t < 3; t++)
      for (int bz = 0; bz < 2; bz++) {
        cublasOperation_t tr = OPS_[t];
        int xl = tr == CUBLAS_OP_N ? n : m, yl = tr == CUBLAS_OP_N ? m : n, ix = 2, iy = -1;
        dbuf<T> A(lda * n), x(1 + (xl - 1) * ix), y(yl);
        if (bz) {   /* beta = 0: y is not read, even NaN */
          for (auto &v : y.h) v = T_<T>::put(cd(NAN, 0));
          y.up();
        }
        T a = rnd_val<T>(), b = bz ? T_<T>::put(0) : rnd_val<T>();
        if (form == 0) CHECK_BLAS(gemv(tr, m, n, &a, A.d, lda, x.d, ix, &b, y.d, iy));
        else CHECK_BLAS(gbmv(tr, m, n, kl, ku, &a, A.d, lda, x.d, ix, &b, y.d, iy));
        std::vector<cd> want(yl);
        for (int i = 0; i < yl; i++) {
          cd s = 0;
          for (int l = 0; l < xl; l++) {
            int r = tr == CUBLAS_OP_N ? i : l, c = tr == CUBLAS_OP_N ? l : i;
            cd e = form == 0 ? A.at(r + c * lda)
                             : (r < c - ku || r > c + kl ? cd(0) : A.at(ku + r - c + c * lda));
            s += opx(e, tr) * x.at(vi(l, xl, ix));
          }
          cd yv = bz ? cd(0) : y.at(vi(i, yl, iy));
          want[vi(i, yl, iy)] = T_<T>::get(a) * s + T_<T>::get(b) * yv;
        }
        compare(form ? "gbmv" : "gemv", y.down(), want, sum_scale(xl));
      }
}

template <class T> static void test_ger() {
  const int m = 11, n = 7, lda = 12;
  for (int conj = 0; conj <= (T_<T>::cplx ? 1 : 0); conj++) {
    dbuf<T> x(m), y(2 * n), A(lda * n);
    T a = rnd_val<T>();
    CHECK_BLAS(ger(conj, m, n, &a, x.d, 1, y.d, 2, A.d, lda));
    std::vector<cd> want = as_cd(A.h);
    for (int j = 0; j < n; j++)
      for (int i = 0; i < m; i++) {
        cd yv = y.at(2 * j);
        want[i + j * lda] += T_<T>::get(a) * x.at(i) * (conj ? std::conj(yv) : yv);
      }
    compare(conj ? "gerc" : "ger", A.down(), want);
  }
}

/* symv / sbmv / spmv (herm false) and hemv / hbmv / hpmv (herm true). */
template <class T> static void test_symv_forms(bool herm) {
  const int n = 10, lda = 12, k = 2;
  for (int form = 0; form < 3; form++) {
    if (!herm && T_<T>::cplx && form) continue;   /* no complex sbmv/spmv in cuBLAS */
    for (int u = 0; u < 2; u++) {
      bool upper = u == 1;
      size_t an = form == 2 ? n * (n + 1) / 2 : lda * n;
      dbuf<T> A(an), x(n), y(n);
      T a = rnd_val<T>(), b = rnd_val<T>();
      cublasStatus_t s;
      if (herm) s = herm_form(form, UPLO[u], n, k, &a, A.d, lda, x.d, 1, &b, y.d, 1);
      else if (T_<T>::cplx) s = symv(UPLO[u], n, &a, A.d, lda, x.d, 1, &b, y.d, 1);
      else s = sym_form(form, UPLO[u], n, k, &a, A.d, lda, x.d, 1, &b, y.d, 1);
      CHECK_BLAS(s);
      std::vector<cd> want(n);
      for (int i = 0; i < n; i++) {
        cd sum = 0;
        for (int j = 0; j < n; j++) {
          bool stored = upper ? i <= j : i >= j;
          long o = stored ? at(form, upper, n, k, lda, i, j) : at(form, upper, n, k, lda, j, i);
          cd e = o < 0 ? cd(0) : A.at(o);
          if (herm && i == j) e = cd(e.real(), 0);
          if (herm && !stored) e = std::conj(e);
          sum += e * x.at(j);
        }
        want[i] = T_<T>::get(a) * sum + T_<T>::get(b) * y.at(i);
      }
      compare(herm ? "hemv forms" : "symv forms", y.down(), want, sum_scale(n));
    }
  }
}

/* The real-only rank updates, including the packed ones. */
template <class T>
static cublasStatus_t rank_real(int two, int packed, cublasFillMode_t u, int n, const T *a, const T *x, const T *y,
                                T *A, int lda) {
  if (packed) return two ? syr2_packed(u, n, a, x, 2, y, 1, A) : syr_packed(u, n, a, x, 2, A);
  return two ? syr2(u, n, a, x, 2, y, 1, A, lda) : syr(u, n, a, x, 2, A, lda);
}
static cublasStatus_t rank_real(int, int, cublasFillMode_t, int, const cuComplex *, const cuComplex *,
                                const cuComplex *, cuComplex *, int) { return CUBLAS_STATUS_NOT_SUPPORTED; }
static cublasStatus_t rank_real(int, int, cublasFillMode_t, int, const cuDoubleComplex *, const cuDoubleComplex *,
                                const cuDoubleComplex *, cuDoubleComplex *, int) { return CUBLAS_STATUS_NOT_SUPPORTED; }

/* syr/spr/syr2/spr2 (real and complex symmetric full), her/hpr/her2/hpr2. */
template <class T> static void test_rank_updates(bool herm) {
  typedef typename real_of<T>::type R;
  const int n = 9, lda = 11;
  for (int two = 0; two < 2; two++)
    for (int packed = 0; packed < 2; packed++) {
      if (!herm && T_<T>::cplx && packed) continue;   /* no complex spr/spr2 */
      for (int u = 0; u < 2; u++) {
        bool upper = u == 1;
        size_t an = packed ? n * (n + 1) / 2 : lda * n;
        dbuf<T> A(an), x(n * 2), y(n);
        T a = rnd_val<T>();
        R ar = (R)0.75;
        int form = packed ? 2 : 0;
        cublasStatus_t s;
        if (herm) s = two ? her2(packed, UPLO[u], n, &a, x.d, 2, y.d, 1, A.d, lda) : her(packed, UPLO[u], n, &ar, x.d, 2, A.d, lda);
        else if (T_<T>::cplx) s = two ? syr2(UPLO[u], n, &a, x.d, 2, y.d, 1, A.d, lda) : syr(UPLO[u], n, &a, x.d, 2, A.d, lda);
        else s = rank_real(two, packed, UPLO[u], n, &a, x.d, y.d, A.d, lda);
        CHECK_BLAS(s);
        std::vector<cd> want = as_cd(A.h);
        cd av = herm && !two ? cd(ar, 0) : T_<T>::get(a);
        for (int j = 0; j < n; j++)
          for (int i = 0; i < n; i++) {
            if (upper ? i > j : i < j) continue;
            long o = at(form, upper, n, 0, lda, i, j);
            cd xi = x.at(2 * i), xj = x.at(2 * j), yi = y.at(i), yj = y.at(j), v;
            if (!two) v = av * xi * (herm ? std::conj(xj) : xj);
            else if (herm) v = av * xi * std::conj(yj) + std::conj(av) * yi * std::conj(xj);
            else v = av * (xi * yj + yi * xj);
            want[o] += v;
            if (herm && i == j) want[o] = cd(want[o].real(), 0);
          }
        compare(herm ? "her forms" : "syr forms", A.down(), want);
      }
    }
}

/* trmv/tbmv/tpmv and the solves, with a well-conditioned diagonal. */
template <class T> static void test_triangular() {
  const int n = 8, lda = 10, k = 2;
  for (int kind = 0; kind < 6; kind++)
    for (int u = 0; u < 2; u++)
      for (int t = 0; t < 3; t++)
        for (int d = 0; d < 2; d++) {
          int form = kind % 3;
          bool upper = u == 1, unit = d == 1, solve = kind >= 3;
          cublasOperation_t tr = OPS_[t];
          size_t an = form == 2 ? n * (n + 1) / 2 : lda * n;
          dbuf<T> A(an), x(n * 2);
          for (int i = 0; i < n; i++) {   /* a strong diagonal keeps the solves accurate */
            long o = at(form, upper, n, k, lda, i, i);
            A.h[o] = T_<T>::put(cd(4 + i % 3, T_<T>::cplx ? 0.5 : 0));
          }
          A.up();
          CHECK_BLAS(tri(kind, UPLO[u], tr, unit ? CUBLAS_DIAG_UNIT : CUBLAS_DIAG_NON_UNIT, n, k, A.d, lda, x.d, 2));
          /* the dense op(T) */
          std::vector<cd> M(n * n, cd(0));
          for (int j = 0; j < n; j++)
            for (int i = 0; i < n; i++) {
              if (upper ? i > j : i < j) continue;
              long o = at(form, upper, n, k, lda, i, j);
              cd e = i == j && unit ? cd(1) : (o < 0 ? cd(0) : A.at(o));
              int r = tr == CUBLAS_OP_N ? i : j, c = tr == CUBLAS_OP_N ? j : i;
              M[r + c * n] = opx(e, tr);
            }
          std::vector<cd> want = as_cd(x.h), xin(n);
          for (int i = 0; i < n; i++) xin[i] = x.at(2 * i);
          if (!solve) {
            for (int i = 0; i < n; i++) {
              cd s = 0;
              for (int j = 0; j < n; j++) s += M[i + j * n] * xin[j];
              want[2 * i] = s;
            }
          } else {   /* check op(T) x_new == x_old instead of solving again */
            std::vector<T> got = x.down();
            for (int i = 0; i < n; i++) {
              cd s = 0;
              for (int j = 0; j < n; j++) s += M[i + j * n] * T_<T>::get(got[2 * j]);
              want[2 * i] = T_<T>::get(got[2 * i]);
              if (std::abs(s - xin[i]) > T_<T>::tol() * 40 * (1 + std::abs(xin[i]))) {
                printf("FAIL %str solve kind %d uplo %d trans %d diag %d: row %d: op(T) x = (%g, %g), b = (%g, %g)\n",
                       T_<T>::name(), kind, u, t, d, i, s.real(), s.imag(), xin[i].real(), xin[i].imag());
                exit(1);
              }
            }
          }
          compare("triangular", x.down(), want, 4 * sum_scale(n));
        }
}

template <class T> static void test_all() {
  test_gemv<T>();
  test_ger<T>();
  test_symv_forms<T>(false);
  if (T_<T>::cplx) test_symv_forms<T>(true);
  test_rank_updates<T>(false);
  if (T_<T>::cplx) test_rank_updates<T>(true);
  test_triangular<T>();
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
  /* quick returns: m = 0 and n = 0 touch nothing */
  dbuf<float> A(4), x(4), y(4);
  float one = 1;
  CHECK_BLAS(cublasSgemv(H, CUBLAS_OP_N, 0, 2, &one, A.d, 1, x.d, 1, &one, y.d, 1));
  CHECK_BLAS(cublasSgemv(H, CUBLAS_OP_N, 2, 0, &one, A.d, 2, x.d, 1, &one, y.d, 1));
  compare("gemv n = 0", y.down(), as_cd(y.h));
  CHECK(cudaDeviceSynchronize());
  CHECK_BLAS(cublasDestroy(H));
  fprintf(stderr, "cublas_level2: %d values compared\n", compared_values);
  printf("PASS cublas_level2\n");
  return 0;
}
