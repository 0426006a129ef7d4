/* cusolver_dense.cu: cuSOLVER's dense routines in S/D/C/Z, each result
 * checked on the host in (complex) double by what defines it -- a
 * reconstruction (P L U = A, L L^H = A, Q R = A, U S V^H = A, A V = V W),
 * orthonormality, residuals of solves -- so that the program passes on the
 * GPU and under cubridge alike: getrf (square, tall, wide, lda > m, with
 * and without pivoting, info on a singular matrix), getrs (every trans),
 * potrf/potrs/potri (both triangles, info on a matrix that is not positive
 * definite, the other triangle untouched), geqrf, orgqr/ungqr,
 * ormqr/unmqr (both sides, both ops), gesvd (jobs A, S, O, N), syevd/heevd
 * (vectors or not, both triangles), zero sizes, every _bufferSize, and the
 * 64-bit generic API (Xgetrf/Xgetrs with 64-bit pivots, Xpotrf/Xpotrs,
 * Xgeqrf, Xsyevd, Xgesvd), on a stream and in a captured graph. */
#include "lib_check.h"
#include "solver_api.h"

static cusolverDnHandle_t H;
static int *d_info;
static const cublasFillMode_t FILLS[2] = {CUBLAS_FILL_MODE_LOWER, CUBLAS_FILL_MODE_UPPER};

typedef std::vector<cd> cmat;   /* column-major, ld = rows */

static int info_now() {
  int v;
  CHECK(cudaMemcpy(&v, d_info, sizeof v, cudaMemcpyDeviceToHost));
  return v;
}

static void expect_info(const char *what, int want) {
  int got = info_now();
  if (got != want) {
    printf("FAIL %s: info %d, expected %d\n", what, got, want);
    lib_fail();
  }
}

template <class T> static cmat get(const std::vector<T> &h, int rows, int cols, int ld) {
  cmat m((size_t)rows * cols);
  for (int j = 0; j < cols; j++)
    for (int i = 0; i < rows; i++) m[i + (size_t)j * rows] = T_<T>::get(h[i + (size_t)j * ld]);
  return m;
}

static cmat mul(const cmat &a, const cmat &b, int m, int k, int n) {
  cmat c((size_t)m * n);
  for (int j = 0; j < n; j++)
    for (int l = 0; l < k; l++)
      for (int i = 0; i < m; i++) c[i + (size_t)j * m] += a[i + (size_t)l * m] * b[l + (size_t)j * k];
  return c;
}

static cmat adj(const cmat &a, int rows, int cols) {   /* conjugate transpose */
  cmat r((size_t)rows * cols);
  for (int j = 0; j < cols; j++)
    for (int i = 0; i < rows; i++) r[j + (size_t)i * cols] = std::conj(a[i + (size_t)j * rows]);
  return r;
}

static void near(const char *what, const cmat &got, const cmat &want, double tol) {
  double scale = 0;
  for (size_t i = 0; i < want.size(); i++) scale = std::max(scale, std::abs(want[i]));
  for (size_t i = 0; i < want.size(); i++) {
    if (!(std::abs(got[i] - want[i]) <= tol * (1 + scale))) {
      printf("FAIL %s: element %zu: got (%.9g, %.9g), expected (%.9g, %.9g)\n", what, i, got[i].real(), got[i].imag(),
             want[i].real(), want[i].imag());
      lib_fail();
    }
    compared_values++;
  }
}

static cmat eye(int n, int cols = -1) {
  if (cols < 0) cols = n;
  cmat r((size_t)n * cols);
  for (int i = 0; i < std::min(n, cols); i++) r[i + (size_t)i * n] = 1;
  return r;
}

template <class T> static double tol_n(int n) { return T_<T>::tol() * 8 * n; }

/* ---- LU -------------------------------------------------------------------------------------- */

template <class T> static void test_getrf(int m, int n, int lda, bool pivot) {
  char what[96];
  snprintf(what, sizeof what, "%sgetrf %dx%d lda %d%s", T_<T>::name(), m, n, lda, pivot ? "" : " no pivoting");
  dbuf<T> A((size_t)lda * n);
  if (!pivot)   /* diagonally dominant: safe without row exchanges */
    for (int i = 0; i < std::min(m, n); i++) A.h[i + (size_t)i * lda] = T_<T>::put(cd(2.0 * n, 0.5));
  for (int j = 0; j < n; j++)   /* the rows below m are padding: must stay */
    for (int i = m; i < lda; i++) A.h[i + (size_t)j * lda] = T_<T>::put(cd(77, 0));
  A.up();
  cmat a0 = get(A.h, m, n, lda);
  int lw = -1;
  CHECK_SOLVER(getrf_bs(H, m, n, A.d, lda, &lw));
  dbuf<T> work(lw > 0 ? lw : 1);
  int mn = std::min(m, n);
  int *ipiv;
  CHECK(cudaMalloc((void **)&ipiv, (mn + 1) * sizeof(int)));
  CHECK_SOLVER(getrf(H, m, n, A.d, lda, work.d, pivot ? ipiv : NULL, d_info));
  expect_info(what, 0);
  std::vector<T> f = A.down();
  std::vector<int> p(mn + 1);
  CHECK(cudaMemcpy(p.data(), ipiv, (mn + 1) * sizeof(int), cudaMemcpyDeviceToHost));
  for (int j = 0; j < n; j++)
    for (int i = m; i < lda; i++)
      if (T_<T>::get(f[i + (size_t)j * lda]) != cd(77, 0)) {
        printf("FAIL %s: padding row %d written\n", what, i);
        lib_fail();
      }
  cmat lu = get(f, m, n, lda), L((size_t)m * mn), U((size_t)mn * n);
  for (int j = 0; j < mn; j++)
    for (int i = 0; i < m; i++) L[i + (size_t)j * m] = i == j ? cd(1) : i > j ? lu[i + (size_t)j * m] : cd(0);
  for (int j = 0; j < n; j++)
    for (int i = 0; i < mn; i++) U[i + (size_t)j * mn] = i <= j ? lu[i + (size_t)j * m] : cd(0);
  cmat pa = a0;   /* apply the row exchanges to A */
  for (int k = 0; k < mn && pivot; k++) {
    if (p[k] < k + 1 || p[k] > m) {
      printf("FAIL %s: ipiv[%d] = %d\n", what, k, p[k]);
      lib_fail();
    }
    for (int j = 0; j < n; j++) std::swap(pa[k + (size_t)j * m], pa[p[k] - 1 + (size_t)j * m]);
  }
  near(what, mul(L, U, m, mn, n), pa, tol_n<T>(std::max(m, n)));
  cudaFree(ipiv);
}

template <class T> static void test_getrs() {
  const int n = 6, lda = 7, nrhs = 3, ldb = 9;
  static const cublasOperation_t ops[3] = {CUBLAS_OP_N, CUBLAS_OP_T, CUBLAS_OP_C};
  for (int o = 0; o < 3; o++) {
    for (int piv = 0; piv < 2; piv++) {
      char what[64];
      snprintf(what, sizeof what, "%sgetrs op %d%s", T_<T>::name(), o, piv ? "" : " no pivoting");
      dbuf<T> A((size_t)lda * n), B((size_t)ldb * nrhs), work(64);
      for (int i = 0; i < n && !piv; i++) A.h[i + (size_t)i * lda] = T_<T>::put(cd(2.0 * n, 0.25));
      A.up();
      cmat a0 = get(A.h, n, n, lda), b0 = get(B.h, n, nrhs, ldb);
      int *ipiv;
      CHECK(cudaMalloc((void **)&ipiv, n * sizeof(int)));
      CHECK_SOLVER(getrf(H, n, n, A.d, lda, work.d, piv ? ipiv : NULL, d_info));
      CHECK_SOLVER(getrs(H, ops[o], n, nrhs, A.d, lda, piv ? ipiv : NULL, B.d, ldb, d_info));
      expect_info(what, 0);
      cmat x = get(B.down(), n, nrhs, ldb);
      cmat opa = o == 0 ? a0 : o == 2 ? adj(a0, n, n) : a0;
      if (o == 1)
        for (int j = 0; j < n; j++)
          for (int i = 0; i < n; i++) opa[i + (size_t)j * n] = a0[j + (size_t)i * n];
      near(what, mul(opa, x, n, n, nrhs), b0, tol_n<T>(n) * 4);
      cudaFree(ipiv);
    }
  }
}

template <class T> static void test_lu_info() {
  const int n = 5, lda = 5;
  char what[64];
  dbuf<T> A((size_t)lda * n), work(64);
  for (int i = 0; i < n; i++) A.h[i + (size_t)2 * lda] = T_<T>::put(cd(0, 0));   /* column 3 zero */
  A.up();
  int *ipiv;
  CHECK(cudaMalloc((void **)&ipiv, n * sizeof(int)));
  snprintf(what, sizeof what, "%sgetrf singular", T_<T>::name());
  CHECK_SOLVER(getrf(H, n, n, A.d, lda, work.d, ipiv, d_info));
  expect_info(what, 3);
  CHECK_SOLVER(getrf(H, 0, 0, A.d, 1, work.d, ipiv, d_info));
  snprintf(what, sizeof what, "%sgetrf n=0", T_<T>::name());
  expect_info(what, 0);
  cudaFree(ipiv);
}

/* ---- Cholesky ------------------------------------------------------------------------------------ */

/* An SPD (HPD) matrix M M^H + n I into the uplo triangle of A (lda); the
 * other triangle holds 99 (must stay). */
template <class T> static cmat spd(dbuf<T> &A, int n, int lda, cublasFillMode_t uplo) {
  cmat m((size_t)n * n);
  for (auto &v : m) v = T_<T>::get(rnd_val<T>());
  cmat a = mul(m, adj(m, n, n), n, n, n);
  for (int i = 0; i < n; i++) a[i + (size_t)i * n] = a[i + (size_t)i * n].real() + n;
  for (int j = 0; j < n; j++)
    for (int i = 0; i < lda; i++) {
      bool in = i < n && (uplo == CUBLAS_FILL_MODE_LOWER ? i >= j : i <= j);
      A.h[i + (size_t)j * lda] = in ? T_<T>::put(a[i + (size_t)j * n]) : T_<T>::put(cd(99, 0));
    }
  A.up();
  /* rounded to T as the device sees it */
  for (int j = 0; j < n; j++)
    for (int i = j; i < n; i++) {
      cd v = uplo == CUBLAS_FILL_MODE_LOWER ? A.at(i + (size_t)j * lda) : std::conj(A.at(j + (size_t)i * lda));
      a[i + (size_t)j * n] = v;
      a[j + (size_t)i * n] = std::conj(v);
    }
  return a;
}

template <class T> static void other_triangle_kept(const char *what, const std::vector<T> &f, int n, int lda,
                                                   cublasFillMode_t uplo) {
  for (int j = 0; j < n; j++)
    for (int i = 0; i < n; i++)
      if ((uplo == CUBLAS_FILL_MODE_LOWER ? i < j : i > j) && T_<T>::get(f[i + (size_t)j * lda]) != cd(99, 0)) {
        printf("FAIL %s: element (%d, %d) of the other triangle written\n", what, i, j);
        lib_fail();
      }
}

template <class T> static void test_chol() {
  const int n = 7, lda = 9, nrhs = 2, ldb = 8;
  for (int f = 0; f < 2; f++) {
    cublasFillMode_t uplo = FILLS[f];
    char what[64];
    snprintf(what, sizeof what, "%spotrf %s", T_<T>::name(), f ? "upper" : "lower");
    dbuf<T> A((size_t)lda * n);
    cmat a = spd(A, n, lda, uplo);
    int lw = -1, lwi = -1;
    CHECK_SOLVER(potrf_bs(H, uplo, n, A.d, lda, &lw));
    dbuf<T> work(lw > 0 ? lw : 1);
    CHECK_SOLVER(potrf(H, uplo, n, A.d, lda, work.d, lw, d_info));
    expect_info(what, 0);
    std::vector<T> fac = A.down();
    other_triangle_kept(what, fac, n, lda, uplo);
    cmat L((size_t)n * n);   /* the factor as L (lower): L = U^H for upper */
    for (int j = 0; j < n; j++)
      for (int i = j; i < n; i++)
        L[i + (size_t)j * n] = f ? std::conj(T_<T>::get(fac[j + (size_t)i * lda])) : T_<T>::get(fac[i + (size_t)j * lda]);
    near(what, mul(L, adj(L, n, n), n, n, n), a, tol_n<T>(n));
    /* potrs */
    snprintf(what, sizeof what, "%spotrs %s", T_<T>::name(), f ? "upper" : "lower");
    dbuf<T> B((size_t)ldb * nrhs);
    cmat b0 = get(B.h, n, nrhs, ldb);
    CHECK_SOLVER(potrs(H, uplo, n, nrhs, A.d, lda, B.d, ldb, d_info));
    expect_info(what, 0);
    near(what, mul(a, get(B.down(), n, nrhs, ldb), n, n, nrhs), b0, tol_n<T>(n) * 4);
    /* potri: the inverse into the triangle */
    snprintf(what, sizeof what, "%spotri %s", T_<T>::name(), f ? "upper" : "lower");
    CHECK_SOLVER(potri_bs(H, uplo, n, A.d, lda, &lwi));
    dbuf<T> work2(lwi > 0 ? lwi : 1);
    CHECK_SOLVER(potri(H, uplo, n, A.d, lda, work2.d, lwi, d_info));
    expect_info(what, 0);
    std::vector<T> inv = A.down();
    other_triangle_kept(what, inv, n, lda, uplo);
    cmat ai((size_t)n * n);
    for (int j = 0; j < n; j++)
      for (int i = j; i < n; i++) {
        cd v = f ? std::conj(T_<T>::get(inv[j + (size_t)i * lda])) : T_<T>::get(inv[i + (size_t)j * lda]);
        ai[i + (size_t)j * n] = v;
        ai[j + (size_t)i * n] = std::conj(v);
      }
    near(what, mul(ai, a, n, n, n), eye(n), tol_n<T>(n) * 4);
    /* not positive definite: the leading minor of order 4 */
    snprintf(what, sizeof what, "%spotrf not positive definite %s", T_<T>::name(), f ? "upper" : "lower");
    spd(A, n, lda, uplo);
    A.h[3 + (size_t)3 * lda] = T_<T>::put(cd(-1000, 0));
    A.up();
    CHECK_SOLVER(potrf(H, uplo, n, A.d, lda, work.d, lw, d_info));
    expect_info(what, 4);
    snprintf(what, sizeof what, "%spotri singular factor %s", T_<T>::name(), f ? "upper" : "lower");
    spd(A, n, lda, uplo);
    CHECK_SOLVER(potrf(H, uplo, n, A.d, lda, work.d, lw, d_info));
    A.h = A.down();
    A.h[2 + (size_t)2 * lda] = T_<T>::put(cd(0, 0));
    A.up();
    CHECK_SOLVER(potri(H, uplo, n, A.d, lda, work2.d, lwi, d_info));
    expect_info(what, 0);   /* potri does not check the factor: info 0 on the H200 */
  }
  dbuf<T> Z(4), w(64);
  CHECK_SOLVER(potrf(H, CUBLAS_FILL_MODE_LOWER, 0, Z.d, 1, w.d, 64, d_info));
  expect_info("potrf n=0", 0);
}

/* ---- QR ------------------------------------------------------------------------------------------- */

template <class T> static void test_qr(int m, int n, int lda) {
  char what[64];
  snprintf(what, sizeof what, "%sgeqrf %dx%d", T_<T>::name(), m, n);
  int k = std::min(m, n);
  dbuf<T> A((size_t)lda * n), tau(k);
  cmat a0 = get(A.h, m, n, lda);
  int lw = -1;
  CHECK_SOLVER(geqrf_bs(H, m, n, A.d, lda, &lw));
  dbuf<T> work(lw > 0 ? lw : 1);
  CHECK_SOLVER(geqrf(H, m, n, A.d, lda, tau.d, work.d, lw, d_info));
  expect_info(what, 0);
  std::vector<T> f = A.down();
  cmat R((size_t)k * n);
  for (int j = 0; j < n; j++)
    for (int i = 0; i <= std::min(j, k - 1); i++) R[i + (size_t)j * k] = T_<T>::get(f[i + (size_t)j * lda]);
  /* orgqr / ungqr: the first k columns of Q, from a copy of the reflectors */
  dbuf<T> Q((size_t)lda * k);
  for (int j = 0; j < k; j++)
    for (int i = 0; i < lda; i++) Q.h[i + (size_t)j * lda] = f[i + (size_t)j * lda];
  Q.up();
  snprintf(what, sizeof what, "%sorgqr %dx%d", T_<T>::name(), m, k);
  CHECK_SOLVER(orgqr_bs(H, m, k, k, Q.d, lda, tau.d, &lw));
  dbuf<T> work2(lw > 0 ? lw : 1);
  CHECK_SOLVER(orgqr(H, m, k, k, Q.d, lda, tau.d, work2.d, lw, d_info));
  expect_info(what, 0);
  cmat q = get(Q.down(), m, k, lda);
  near(what, mul(adj(q, m, k), q, k, m, k), eye(k), tol_n<T>(m));
  snprintf(what, sizeof what, "%sgeqrf Q R = A %dx%d", T_<T>::name(), m, n);
  near(what, mul(q, R, m, k, n), a0, tol_n<T>(m));
  /* ormqr / unmqr, with m x m Q only when k = m (the full Q); use m >= n here */
  if (m < n) return;
  cublasOperation_t herm = T_<T>::cplx ? CUBLAS_OP_C : CUBLAS_OP_T;
  for (int side = 0; side < 2; side++)
    for (int op = 0; op < 2; op++) {
      cublasSideMode_t sd = side ? CUBLAS_SIDE_RIGHT : CUBLAS_SIDE_LEFT;
      cublasOperation_t tr = op ? herm : CUBLAS_OP_N;
      int cm = side ? 3 : m, cn = side ? m : 3, ldc = cm + 1;
      snprintf(what, sizeof what, "%sormqr side %d op %d", T_<T>::name(), side, op);
      dbuf<T> C((size_t)ldc * cn);
      cmat c0 = get(C.h, cm, cn, ldc);
      CHECK_SOLVER(ormqr_bs(H, sd, tr, cm, cn, k, A.d, lda, tau.d, C.d, ldc, &lw));
      dbuf<T> work3(lw > 0 ? lw : 1);
      CHECK_SOLVER(ormqr(H, sd, tr, cm, cn, k, A.d, lda, tau.d, C.d, ldc, work3.d, lw, d_info));
      expect_info(what, 0);
      /* the full m x m Q: orgqr's k columns completed by the same reflectors applied to I */
      dbuf<T> Qf((size_t)lda * m);
      for (int j = 0; j < m; j++)
        for (int i = 0; i < lda; i++) Qf.h[i + (size_t)j * lda] = j < k ? f[i + (size_t)j * lda] : T_<T>::put(cd(0, 0));
      Qf.up();
      int lwf = -1;
      CHECK_SOLVER(orgqr_bs(H, m, m, k, Qf.d, lda, tau.d, &lwf));
      dbuf<T> work4(lwf > 0 ? lwf : 1);
      CHECK_SOLVER(orgqr(H, m, m, k, Qf.d, lda, tau.d, work4.d, lwf, d_info));
      cmat qf = get(Qf.down(), m, m, lda), opq = op ? adj(qf, m, m) : qf;
      cmat want = side ? mul(c0, opq, cm, m, cn) : mul(opq, c0, m, m, cn);
      near(what, get(C.down(), cm, cn, ldc), want, tol_n<T>(m));
    }
}

/* ---- SVD and eigenvalues ----------------------------------------------------------------------------- */

template <class T> static void test_gesvd(signed char ju, signed char jv) {
  typedef typename sv_type<T>::R R;
  const int m = 7, n = 5, lda = 8, k = 5;
  char what[64];
  snprintf(what, sizeof what, "%sgesvd jobu %c jobvt %c", T_<T>::name(), ju, jv);
  dbuf<T> A((size_t)lda * n), U((size_t)lda * m), VT((size_t)lda * n);
  dbuf<R> S(k), rw(k);
  cmat a0 = get(A.h, m, n, lda);
  int lw = -1;
  CHECK_SOLVER(gesvd_bs(H, m, n, (T *)0, &lw));
  dbuf<T> work(lw > 0 ? lw : 1);
  int ldu = (ju == 'A' || ju == 'S') ? lda : 1, ldvt = (jv == 'A' || jv == 'S') ? lda : 1;
  CHECK_SOLVER(gesvd(H, ju, jv, m, n, A.d, lda, S.d, U.d, ldu, VT.d, ldvt, work.d, lw, rw.d, d_info));
  expect_info(what, 0);
  std::vector<R> s = S.down();
  cmat sm((size_t)k * k);
  for (int i = 0; i < k; i++) {
    if (s[i] < 0 || (i > 0 && s[i] > s[i - 1])) {
      printf("FAIL %s: singular values not descending and >= 0\n", what);
      lib_fail();
    }
    sm[i + (size_t)i * k] = s[i];
  }
  /* the singular values: those of A^H A's eigenvalues; checked through the reconstruction when
   * U and V are there, else against a full decomposition */
  cmat u, vt;
  if (ju == 'A' || ju == 'S') u = get(U.down(), m, ju == 'A' ? m : k, lda);
  if (ju == 'O') u = get(A.down(), m, k, lda);
  if (jv == 'A' || jv == 'S') vt = get(VT.down(), jv == 'A' ? n : k, n, lda);
  if (jv == 'O') vt = get(A.down(), k, n, lda);
  int uc = ju == 'A' ? m : k;
  if (!u.empty()) near(what, mul(adj(u, m, uc), u, uc, m, uc), eye(uc), tol_n<T>(m));
  if (!vt.empty()) {
    int vr = jv == 'A' ? n : k;
    near(what, mul(vt, adj(vt, vr, n), vr, n, vr), eye(vr), tol_n<T>(m));
  }
  if (!u.empty() && !vt.empty()) {
    cmat u5(u.begin(), u.begin() + (size_t)m * k), vt5((size_t)k * n);
    int vr = jv == 'A' ? n : k;
    for (int j = 0; j < n; j++)
      for (int i = 0; i < k; i++) vt5[i + (size_t)j * k] = vt[i + (size_t)j * vr];
    near(what, mul(mul(u5, sm, m, k, k), vt5, m, k, n), a0, tol_n<T>(m));
  } else {
    /* the values alone: A^H A = V S^2 V^H, so sum s^2 = ||A||_F^2 and the product of the s^2 is det(A^H A) */
    double fro = 0, ssum = 0;
    for (auto &v : a0) fro += std::norm(v);
    for (int i = 0; i < k; i++) ssum += (double)s[i] * s[i];
    near(what, cmat(1, ssum), cmat(1, fro), tol_n<T>(m));
  }
}

template <class T> static void test_syevd(cublasFillMode_t uplo, bool vectors) {
  typedef typename sv_type<T>::R R;
  const int n = 6, lda = 7;
  char what[64];
  snprintf(what, sizeof what, "%s%s %s%s", T_<T>::name(), T_<T>::cplx ? "heevd" : "syevd",
           uplo == CUBLAS_FILL_MODE_LOWER ? "lower" : "upper", vectors ? "" : " values");
  dbuf<T> A((size_t)lda * n);
  cmat a((size_t)n * n);
  for (int j = 0; j < n; j++)
    for (int i = j; i < n; i++) {
      cd v = T_<T>::get(rnd_val<T>());
      if (i == j) v = v.real() + 0.5 * i;   /* distinct eigenvalues, real diagonal */
      a[i + (size_t)j * n] = v;
      a[j + (size_t)i * n] = std::conj(v);
    }
  for (int j = 0; j < n; j++)
    for (int i = 0; i < n; i++)
      if (uplo == CUBLAS_FILL_MODE_LOWER ? i >= j : i <= j) A.h[i + (size_t)j * lda] = T_<T>::put(a[i + (size_t)j * n]);
  A.up();
  dbuf<R> W(n);
  cusolverEigMode_t jobz = vectors ? CUSOLVER_EIG_MODE_VECTOR : CUSOLVER_EIG_MODE_NOVECTOR;
  int lw = -1;
  CHECK_SOLVER(syevd_bs(H, jobz, uplo, n, A.d, lda, W.d, &lw));
  dbuf<T> work(lw > 0 ? lw : 1);
  CHECK_SOLVER(syevd(H, jobz, uplo, n, A.d, lda, W.d, work.d, lw, d_info));
  expect_info(what, 0);
  std::vector<R> w = W.down();
  double tr = 0, wsum = 0, fro = 0, w2 = 0;
  for (int i = 0; i < n; i++) {
    if (i > 0 && w[i] < w[i - 1]) {
      printf("FAIL %s: eigenvalues not ascending\n", what);
      lib_fail();
    }
    tr += a[i + (size_t)i * n].real();
    wsum += w[i];
    w2 += (double)w[i] * w[i];
  }
  for (auto &v : a) fro += std::norm(v);
  near(what, cmat{wsum, w2}, cmat{tr, fro}, tol_n<T>(n));
  if (!vectors) return;
  cmat v = get(A.down(), n, n, lda), wd((size_t)n * n);
  for (int i = 0; i < n; i++) wd[i + (size_t)i * n] = w[i];
  near(what, mul(adj(v, n, n), v, n, n, n), eye(n), tol_n<T>(n));
  near(what, mul(a, v, n, n, n), mul(v, wd, n, n, n), tol_n<T>(n));
}

/* ---- the 64-bit generic API --------------------------------------------------------------------------- */

/* The device and host workspaces of the generic API, grown to what each query asks. */
struct xwork {
  void *d = NULL;
  std::vector<char> h;
  size_t dn = 0, hn = 0, dcap = 0;
  void fit() {
    if (dn > dcap) {
      cudaFree(d);
      CHECK(cudaMalloc(&d, dn));
      dcap = dn;
    }
    if (!d) CHECK(cudaMalloc(&d, dcap = 16));
    if (h.size() < hn + 1) h.resize(hn + 1);
  }
  ~xwork() { cudaFree(d); }
};

template <class T> static void test_generic() {
  typedef typename sv_type<T>::R R;
  const cudaDataType dt = sv_type<T>::dt(), rt = sv_type<T>::rdt();
  const int n = 6, lda = 7, nrhs = 2;
  char what[64];
  cusolverDnParams_t prm;
  CHECK_SOLVER(cusolverDnCreateParams(&prm));
  CHECK_SOLVER(cusolverDnSetAdvOptions(prm, CUSOLVERDN_GETRF, CUSOLVER_ALG_0));
  xwork x;
  /* Xgetrf / Xgetrs */
  dbuf<T> A((size_t)lda * n), B((size_t)lda * nrhs);
  cmat a0 = get(A.h, n, n, lda), b0 = get(B.h, n, nrhs, lda);
  CHECK_SOLVER(cusolverDnXgetrf_bufferSize(H, prm, n, n, dt, A.d, lda, dt, &x.dn, &x.hn));
  x.fit();
  int64_t *ipiv;
  CHECK(cudaMalloc((void **)&ipiv, n * sizeof(int64_t)));
  snprintf(what, sizeof what, "%sXgetrf/Xgetrs", T_<T>::name());
  CHECK_SOLVER(cusolverDnXgetrf(H, prm, n, n, dt, A.d, lda, ipiv, dt, x.d, x.dn, x.h.data(), x.hn, d_info));
  expect_info(what, 0);
  std::vector<int64_t> p(n);
  CHECK(cudaMemcpy(p.data(), ipiv, n * sizeof(int64_t), cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; i++)
    if (p[i] < i + 1 || p[i] > n) {
      printf("FAIL %s: ipiv[%d] = %lld\n", what, i, (long long)p[i]);
      lib_fail();
    }
  CHECK_SOLVER(cusolverDnXgetrs(H, prm, CUBLAS_OP_N, n, nrhs, dt, A.d, lda, ipiv, dt, B.d, lda, d_info));
  expect_info(what, 0);
  near(what, mul(a0, get(B.down(), n, nrhs, lda), n, n, nrhs), b0, tol_n<T>(n) * 4);
  /* Xpotrf / Xpotrs */
  snprintf(what, sizeof what, "%sXpotrf/Xpotrs", T_<T>::name());
  cmat s = spd(A, n, lda, CUBLAS_FILL_MODE_LOWER);
  dbuf<T> B2((size_t)lda * nrhs);
  b0 = get(B2.h, n, nrhs, lda);
  CHECK_SOLVER(cusolverDnXpotrf_bufferSize(H, prm, CUBLAS_FILL_MODE_LOWER, n, dt, A.d, lda, dt, &x.dn, &x.hn));
  x.fit();
  CHECK_SOLVER(cusolverDnXpotrf(H, prm, CUBLAS_FILL_MODE_LOWER, n, dt, A.d, lda, dt, x.d, x.dn, x.h.data(), x.hn, d_info));
  expect_info(what, 0);
  CHECK_SOLVER(cusolverDnXpotrs(H, prm, CUBLAS_FILL_MODE_LOWER, n, nrhs, dt, A.d, lda, dt, B2.d, lda, d_info));
  expect_info(what, 0);
  near(what, mul(s, get(B2.down(), n, nrhs, lda), n, n, nrhs), b0, tol_n<T>(n) * 4);
  /* Xgeqrf against the 32-bit geqrf on the same matrix */
  snprintf(what, sizeof what, "%sXgeqrf", T_<T>::name());
  dbuf<T> Q((size_t)lda * n), tau(n), tau2(n);
  A.h = Q.h;
  A.up();
  Q.up();
  CHECK_SOLVER(cusolverDnXgeqrf_bufferSize(H, prm, n, n, dt, A.d, lda, dt, tau.d, dt, &x.dn, &x.hn));
  x.fit();
  CHECK_SOLVER(cusolverDnXgeqrf(H, prm, n, n, dt, A.d, lda, dt, tau.d, dt, x.d, x.dn, x.h.data(), x.hn, d_info));
  expect_info(what, 0);
  int lwq = -1;
  CHECK_SOLVER(geqrf_bs(H, n, n, Q.d, lda, &lwq));
  dbuf<T> workq(lwq > 0 ? lwq : 1);
  CHECK_SOLVER(geqrf(H, n, n, Q.d, lda, tau2.d, workq.d, lwq, d_info));
  near(what, as_cd(A.down()), as_cd(Q.down()), tol_n<T>(n));
  near(what, as_cd(tau.down()), as_cd(tau2.down()), tol_n<T>(n));
  /* Xsyevd: the eigenvalues of the SPD matrix s */
  snprintf(what, sizeof what, "%sXsyevd", T_<T>::name());
  s = spd(A, n, lda, CUBLAS_FILL_MODE_LOWER);
  dbuf<R> W(n);
  CHECK_SOLVER(cusolverDnXsyevd_bufferSize(H, prm, CUSOLVER_EIG_MODE_VECTOR, CUBLAS_FILL_MODE_LOWER, n, dt, A.d, lda,
                                           rt, W.d, dt, &x.dn, &x.hn));
  x.fit();
  CHECK_SOLVER(cusolverDnXsyevd(H, prm, CUSOLVER_EIG_MODE_VECTOR, CUBLAS_FILL_MODE_LOWER, n, dt, A.d, lda, rt, W.d, dt,
                                x.d, x.dn, x.h.data(), x.hn, d_info));
  expect_info(what, 0);
  {
    cmat v = get(A.down(), n, n, lda), wd((size_t)n * n);
    std::vector<R> w = W.down();
    for (int i = 0; i < n; i++) wd[i + (size_t)i * n] = w[i];
    near(what, mul(s, v, n, n, n), mul(v, wd, n, n, n), tol_n<T>(n) * 4);
  }
  /* Xgesvd */
  snprintf(what, sizeof what, "%sXgesvd", T_<T>::name());
  dbuf<T> G((size_t)lda * n), U((size_t)lda * n), VT((size_t)lda * n);
  dbuf<R> S(n);
  cmat g0 = get(G.h, n, n, lda);
  CHECK_SOLVER(cusolverDnXgesvd_bufferSize(H, prm, 'A', 'A', n, n, dt, G.d, lda, rt, S.d, dt, U.d, lda, dt, VT.d, lda,
                                           dt, &x.dn, &x.hn));
  x.fit();
  CHECK_SOLVER(cusolverDnXgesvd(H, prm, 'A', 'A', n, n, dt, G.d, lda, rt, S.d, dt, U.d, lda, dt, VT.d, lda, dt, x.d,
                                x.dn, x.h.data(), x.hn, d_info));
  expect_info(what, 0);
  {
    cmat u = get(U.down(), n, n, lda), vt = get(VT.down(), n, n, lda), sm((size_t)n * n);
    std::vector<R> sv = S.down();
    for (int i = 0; i < n; i++) sm[i + (size_t)i * n] = sv[i];
    near(what, mul(mul(u, sm, n, n, n), vt, n, n, n), g0, tol_n<T>(n));
  }
  cudaFree(ipiv);
  CHECK_SOLVER(cusolverDnDestroyParams(prm));
}

template <class T> static void all() {
  test_getrf<T>(6, 6, 8, true);
  test_getrf<T>(7, 5, 9, true);
  test_getrf<T>(5, 7, 5, true);
  test_getrf<T>(6, 6, 6, false);
  test_getrs<T>();
  test_lu_info<T>();
  test_chol<T>();
  test_qr<T>(7, 5, 8);
  test_qr<T>(6, 6, 6);
  test_qr<T>(4, 6, 5);
  test_gesvd<T>('A', 'A');
  test_gesvd<T>('S', 'S');
  test_gesvd<T>('N', 'N');
  test_gesvd<T>('O', 'S');
  test_gesvd<T>('N', 'O');
  for (int f = 0; f < 2; f++) {
    test_syevd<T>(FILLS[f], true);
    test_syevd<T>(FILLS[f], false);
  }
  test_generic<T>();
  printf("%s: ok\n", T_<T>::name());
}

/* On a stream, after a copy on the same stream, and captured into a graph. */
static void test_streams() {
  cudaStream_t s, got;
  CHECK(cudaStreamCreate(&s));
  CHECK_SOLVER(cusolverDnSetStream(H, s));
  CHECK_SOLVER(cusolverDnGetStream(H, &got));
  if (got != s) {
    printf("FAIL cusolverDnGetStream: not the stream set\n");
    lib_fail();
  }
  const int n = 5, lda = 5;
  dbuf<double> A((size_t)lda * n), work(64);
  cmat a = spd(A, n, lda, CUBLAS_FILL_MODE_LOWER);
  std::vector<double> host = A.h;
  CHECK(cudaMemset(A.d, 0, host.size() * sizeof(double)));
  CHECK(cudaMemcpyAsync(A.d, host.data(), host.size() * sizeof(double), cudaMemcpyHostToDevice, s));
  CHECK_SOLVER(cusolverDnDpotrf(H, CUBLAS_FILL_MODE_LOWER, n, A.d, lda, work.d, 64, d_info));
  CHECK(cudaStreamSynchronize(s));
  expect_info("potrf on a stream", 0);
  cmat L((size_t)n * n);
  std::vector<double> f = A.down();
  for (int j = 0; j < n; j++)
    for (int i = j; i < n; i++) L[i + (size_t)j * n] = f[i + (size_t)j * lda];
  near("potrf on a stream", mul(L, adj(L, n, n), n, n, n), a, 1e-12 * n);
  /* a graph: copy in, factor; replayed twice */
  cudaGraph_t g;
  cudaGraphExec_t ge;
  CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  CHECK(cudaMemcpyAsync(A.d, host.data(), host.size() * sizeof(double), cudaMemcpyHostToDevice, s));
  CHECK_SOLVER(cusolverDnDpotrf(H, CUBLAS_FILL_MODE_LOWER, n, A.d, lda, work.d, 64, d_info));
  CHECK(cudaStreamEndCapture(s, &g));
  CHECK(cudaGraphInstantiate(&ge, g, 0));
  for (int r = 0; r < 2; r++) {
    CHECK(cudaMemset(A.d, 0, host.size() * sizeof(double)));
    CHECK(cudaGraphLaunch(ge, s));
    CHECK(cudaStreamSynchronize(s));
    std::vector<double> f2 = A.down();
    near("potrf in a graph", as_cd(f2), as_cd(f), 1e-14);
  }
  CHECK(cudaGraphExecDestroy(ge));
  CHECK(cudaGraphDestroy(g));
  CHECK_SOLVER(cusolverDnSetStream(H, 0));
  CHECK(cudaStreamDestroy(s));
  printf("streams: ok\n");
}

int main() {
  CHECK(cudaMalloc((void **)&d_info, sizeof(int)));
  CHECK_SOLVER(cusolverDnCreate(&H));
  int v = 0;
  CHECK_SOLVER(cusolverGetVersion(&v));
  fprintf(stderr, "cuSOLVER version %d\n", v);
  all<float>();
  all<double>();
  all<cuComplex>();
  all<cuDoubleComplex>();
  test_streams();
  CHECK_SOLVER(cusolverDnDestroy(H));
  cudaFree(d_info);
  fprintf(stderr, "%d values compared\n", compared_values);
  printf("PASS cusolver_dense\n");
  return 0;
}
