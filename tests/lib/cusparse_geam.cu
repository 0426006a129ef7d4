/* cusparse_geam.cu: cuSPARSE's csrgeam2, C = alpha A + beta B of CSR
 * matrices, the way CuPy's sparse + and - and programs call it:
 * cusparse<t>csrgeam2_bufferSizeExt, cusparseXcsrgeam2Nnz (C's row offsets
 * and nnz), cusparse<t>csrgeam2 (C's columns and values), in S/D/C/Z.
 * Each C is compared with a host computation in double: its nnz (the
 * union of A's and B's patterns, whatever alpha and beta are), its row
 * offsets and columns (ascending in each row) exactly, its values within
 * the type's tolerance. Cases: random patterns with empty rows, A and B
 * with disjoint columns, A + A through the same arrays, alpha or beta or
 * both 0, an empty A and both empty, index base one, device pointer mode
 * on a stream (C's arrays allocated to the bound nnzA + nnzB, the two
 * steps queued back to back). Then the statuses for bad input, one line
 * each ("cusparseXcsrgeam2Nnz m=-1: CUSPARSE_STATUS_INVALID_VALUE").
 * Prints "PASS cusparse_geam".
 *
 * Build: nvcc -I tests/lib tests/lib/cusparse_geam.cu -o cusparse_geam -lcusparse -lcublas */
#define DISABLE_CUSPARSE_DEPRECATED
#include "sparse_check.h"

static cusparseHandle_t H;

/* The typed entry points. */
template <class T> struct geam_fn;
template <> struct geam_fn<float> {
  template <class... A> static cusparseStatus_t size(A... a) { return cusparseScsrgeam2_bufferSizeExt(a...); }
  template <class... A> static cusparseStatus_t run(A... a) { return cusparseScsrgeam2(a...); }
};
template <> struct geam_fn<double> {
  template <class... A> static cusparseStatus_t size(A... a) { return cusparseDcsrgeam2_bufferSizeExt(a...); }
  template <class... A> static cusparseStatus_t run(A... a) { return cusparseDcsrgeam2(a...); }
};
template <> struct geam_fn<cuComplex> {
  template <class... A> static cusparseStatus_t size(A... a) { return cusparseCcsrgeam2_bufferSizeExt(a...); }
  template <class... A> static cusparseStatus_t run(A... a) { return cusparseCcsrgeam2(a...); }
};
template <> struct geam_fn<cuDoubleComplex> {
  template <class... A> static cusparseStatus_t size(A... a) { return cusparseZcsrgeam2_bufferSizeExt(a...); }
  template <class... A> static cusparseStatus_t run(A... a) { return cusparseZcsrgeam2(a...); }
};

/* A host CSR matrix (0-based), values as complex doubles exact in every type. */
struct hcsr {
  int m, n;
  std::vector<int> rp, col;
  std::vector<cd> val;
  int nnz() const { return (int)col.size(); }
};

/* permille of the entries set; rows r with r % empty_mod == empty_rem
 * empty (empty_mod 0: none); parity 0 or 1: only even or odd columns. */
static hcsr gen(int m, int n, int permille, bool cplx, int empty_mod = 0, int empty_rem = 0, int parity = -1) {
  hcsr a;
  a.m = m, a.n = n;
  a.rp.assign(m + 1, 0);
  for (int i = 0; i < m; i++) {
    for (int j = 0; j < n; j++) {
      lcg_state = lcg_state * 1664525u + 1013904223u;
      bool on = (int)((lcg_state >> 8) % 1000) < permille;
      if (!on || (empty_mod && i % empty_mod == empty_rem) || (parity >= 0 && j % 2 != parity)) continue;
      cd v = cplx ? cd(rnd(), rnd()) : cd(rnd(), 0);
      if (v == cd(0, 0)) v = cd(0.5, 0);
      a.col.push_back(j);
      a.val.push_back(v);
    }
    a.rp[i + 1] = a.nnz();
  }
  return a;
}

struct dcsr {   /* a device copy, in base `base` */
  int *rp, *col;
  void *val;
};
template <class T> static dcsr upload(const hcsr &a, int base) {
  std::vector<int> rp(a.rp), col(a.col);
  for (auto &v : rp) v += base;
  for (auto &v : col) v += base;
  std::vector<T> val(a.val.size());
  for (size_t k = 0; k < val.size(); k++) val[k] = T_<T>::put(a.val[k]);
  return dcsr{to_dev(rp), to_dev(col), to_dev(val)};
}
static void release(dcsr d) {
  cudaFree(d.rp);
  cudaFree(d.col);
  cudaFree(d.val);
}

static cusparseMatDescr_t descr(int base, cusparseMatrixType_t type = CUSPARSE_MATRIX_TYPE_GENERAL) {
  cusparseMatDescr_t d;
  CHECK_SP(cusparseCreateMatDescr(&d));
  CHECK_SP(cusparseSetMatIndexBase(d, base ? CUSPARSE_INDEX_BASE_ONE : CUSPARSE_INDEX_BASE_ZERO));
  CHECK_SP(cusparseSetMatType(d, type));
  return d;
}

static int cases = 0;

/* C = alpha A + beta B through the two steps, checked. same: B is A,
 * passed through A's device arrays. */
template <class T>
static void run_case(const char *what, const hcsr &A, const hcsr &B, cd alpha, cd beta, int base, bool device_mode,
                     bool same = false) {
  const int m = A.m, n = A.n;
  char name[128];
  snprintf(name, sizeof name, "%s%s base %d %s", T_<T>::name(), what, base, device_mode ? "device" : "host");
  /* expected C: union of the patterns, dense sums */
  std::vector<char> hit((size_t)m * n, 0);
  std::vector<cd> sum((size_t)m * n, cd(0, 0));
  for (int pass = 0; pass < 2; pass++) {
    const hcsr &S = pass ? B : A;
    cd sc = pass ? beta : alpha;
    for (int i = 0; i < m; i++)
      for (int k = S.rp[i]; k < S.rp[i + 1]; k++) {
        hit[(size_t)i * n + S.col[k]] = 1;
        sum[(size_t)i * n + S.col[k]] += sc * S.val[k];
      }
  }
  std::vector<int> want_rp(m + 1, base), want_col;
  std::vector<cd> want_val;
  for (int i = 0; i < m; i++) {
    for (int j = 0; j < n; j++)
      if (hit[(size_t)i * n + j]) {
        want_col.push_back(j + base);
        want_val.push_back(sum[(size_t)i * n + j]);
      }
    want_rp[i + 1] = (int)want_col.size() + base;
  }
  const int want_nnz = (int)want_col.size();

  cusparseMatDescr_t da = descr(base), db = descr(base), dc = descr(base);
  dcsr a = upload<T>(A, base), b = same ? a : upload<T>(B, base);
  T al = T_<T>::put(alpha), be = T_<T>::put(beta);
  int *d_rpc;
  CHECK(cudaMalloc((void **)&d_rpc, (m + 1) * sizeof(int)));
  size_t bs = 0;
  CHECK_SP(geam_fn<T>::size(H, m, n, &al, da, A.nnz(), (const T *)a.val, (const int *)a.rp, (const int *)a.col, &be,
                            db, B.nnz(), (const T *)b.val, (const int *)b.rp, (const int *)b.col, dc, (const T *)NULL,
                            (const int *)d_rpc, (const int *)NULL, &bs));
  void *buf;
  CHECK(cudaMalloc(&buf, bs ? bs : 1));
  int nnz = -1, *d_cc = NULL;
  T *d_vc = NULL;
  if (!device_mode) {
    CHECK_SP(cusparseXcsrgeam2Nnz(H, m, n, da, A.nnz(), a.rp, a.col, db, B.nnz(), b.rp, b.col, dc, d_rpc, &nnz, buf));
    if (nnz != want_nnz) {
      printf("FAIL %s: nnzTotal %d, expected %d\n", name, nnz, want_nnz);
      lib_fail();
    }
    CHECK(cudaMalloc((void **)&d_cc, (nnz > 0 ? nnz : 1) * sizeof(int)));
    CHECK(cudaMalloc((void **)&d_vc, (nnz > 0 ? nnz : 1) * sizeof(T)));
    CHECK_SP(geam_fn<T>::run(H, m, n, &al, da, A.nnz(), (const T *)a.val, (const int *)a.rp, (const int *)a.col, &be,
                             db, B.nnz(), (const T *)b.val, (const int *)b.rp, (const int *)b.col, dc, d_vc, d_rpc,
                             d_cc, buf));
  } else {
    /* both steps queued on a stream, C allocated to its bound */
    cudaStream_t s;
    CHECK(cudaStreamCreate(&s));
    CHECK_SP(cusparseSetStream(H, s));
    CHECK_SP(cusparseSetPointerMode(H, CUSPARSE_POINTER_MODE_DEVICE));
    int bound = A.nnz() + B.nnz();
    CHECK(cudaMalloc((void **)&d_cc, (bound > 0 ? bound : 1) * sizeof(int)));
    CHECK(cudaMalloc((void **)&d_vc, (bound > 0 ? bound : 1) * sizeof(T)));
    std::vector<T> sc = {al, be};
    T *d_sc = to_dev(sc);
    int *d_nnz;
    CHECK(cudaMalloc((void **)&d_nnz, sizeof(int)));
    CHECK_SP(cusparseXcsrgeam2Nnz(H, m, n, da, A.nnz(), a.rp, a.col, db, B.nnz(), b.rp, b.col, dc, d_rpc, d_nnz, buf));
    CHECK_SP(geam_fn<T>::run(H, m, n, d_sc, da, A.nnz(), (const T *)a.val, (const int *)a.rp, (const int *)a.col,
                             d_sc + 1, db, B.nnz(), (const T *)b.val, (const int *)b.rp, (const int *)b.col, dc, d_vc,
                             d_rpc, d_cc, buf));
    CHECK(cudaStreamSynchronize(s));
    CHECK(cudaMemcpy(&nnz, d_nnz, sizeof(int), cudaMemcpyDeviceToHost));
    if (nnz != want_nnz) {
      printf("FAIL %s: nnzTotal (device) %d, expected %d\n", name, nnz, want_nnz);
      lib_fail();
    }
    CHECK_SP(cusparseSetPointerMode(H, CUSPARSE_POINTER_MODE_HOST));
    CHECK_SP(cusparseSetStream(H, 0));
    CHECK(cudaStreamDestroy(s));
    cudaFree(d_sc);
    cudaFree(d_nnz);
  }
  std::vector<int> rp = from_dev(d_rpc, m + 1), col = from_dev(d_cc, want_nnz);
  std::vector<T> val = from_dev(d_vc, want_nnz);
  if (rp != want_rp) {
    for (int i = 0; i <= m; i++)
      if (rp[i] != want_rp[i]) {
        printf("FAIL %s: csrRowPtrC[%d] = %d, expected %d\n", name, i, rp[i], want_rp[i]);
        break;
      }
    lib_fail();
  }
  if (col != want_col) {
    for (int k = 0; k < want_nnz; k++)
      if (col[k] != want_col[k]) {
        printf("FAIL %s: csrColIndC[%d] = %d, expected %d\n", name, k, col[k], want_col[k]);
        break;
      }
    lib_fail();
  }
  compare(name, val, want_val, 4);
  cudaFree(d_rpc);
  cudaFree(d_cc);
  cudaFree(d_vc);
  cudaFree(buf);
  release(a);
  if (!same) release(b);
  cusparseDestroyMatDescr(da);
  cusparseDestroyMatDescr(db);
  cusparseDestroyMatDescr(dc);
  cases++;
}

template <class T> static void test_type() {
  const bool cx = T_<T>::cplx;
  const cd al = cx ? cd(0.75, -0.5) : cd(0.75, 0), be = cx ? cd(-1.25, 0.25) : cd(-1.25, 0);
  /* random patterns, overlapping and disjoint columns, empty rows in each
   * (rows 3, 8, 13 of A; 1, 5, 9, 13 of B: row 13 of C is empty) */
  hcsr A = gen(14, 11, 300, cx, 5, 3), B = gen(14, 11, 250, cx, 4, 1);
  for (int base = 0; base < 2; base++) {
    run_case<T>(" random", A, B, al, be, base, false);
    run_case<T>(" random", A, B, al, be, base, true);
  }
  run_case<T>(" alpha 0", A, B, cd(0, 0), be, 0, false);
  run_case<T>(" beta 0", A, B, cd(2, 0), cd(0, 0), 1, false);
  run_case<T>(" alpha beta 0", A, B, cd(0, 0), cd(0, 0), 0, false);
  run_case<T>(" alpha 0 device", A, B, cd(0, 0), be, 1, true);
  hcsr E = gen(14, 11, 0, cx), odd = gen(14, 11, 400, cx, 0, 0, 1), even = gen(14, 11, 400, cx, 0, 0, 0);
  run_case<T>(" disjoint columns", even, odd, cd(1, 0), cd(1, 0), 0, false);
  run_case<T>(" A + A", A, A, cd(1, 0), cd(1, 0), 0, false, true);
  run_case<T>(" A - 2 A", A, A, cd(1, 0), cd(-2, 0), 1, true, true);
  run_case<T>(" empty A", E, B, al, be, 0, false);
  run_case<T>(" empty B", A, E, al, be, 1, true);
  run_case<T>(" both empty", E, E, al, be, 0, false);
  hcsr L = gen(120, 90, 40, cx), M = gen(120, 90, 60, cx, 7, 2);
  run_case<T>(" 120x90", L, M, al, be, 0, false);
  printf("%s: ok\n", T_<T>::name());
}

/* ---- bad input ---------------------------------------------------------------------------- */

static void expect(const char *fn, const char *what, cusparseStatus_t got, cusparseStatus_t want) {
  CHECK(cudaDeviceSynchronize());
  printf("%s %s: %s\n", fn, what, cusparseGetErrorName(got));
  if (got != want) {
    printf("FAIL %s %s: expected %s\n", fn, what, cusparseGetErrorName(want));
    lib_fail();
  }
}

static void test_status() {
  lcg_state = 777;
  hcsr A = gen(6, 5, 400, false), B = gen(6, 5, 400, false);
  dcsr a = upload<float>(A, 0), b = upload<float>(B, 0);
  const float *va = (const float *)a.val, *vb = (const float *)b.val;
  cusparseMatDescr_t g = descr(0), sym = descr(0, CUSPARSE_MATRIX_TYPE_SYMMETRIC);
  float al = 1, be = 1;
  int *rpc, *cc, nnz = 0;
  float *vc;
  CHECK(cudaMalloc((void **)&rpc, 7 * sizeof(int)));
  CHECK(cudaMalloc((void **)&cc, 30 * sizeof(int)));
  CHECK(cudaMalloc((void **)&vc, 30 * sizeof(float)));
  void *buf;
  CHECK(cudaMalloc(&buf, 4096));
  size_t bs = 0;
  /* C's offsets valid, so that a case a library does not refuse stays inside C */
  CHECK_SP(cusparseXcsrgeam2Nnz(H, 6, 5, g, A.nnz(), a.rp, a.col, g, B.nnz(), b.rp, b.col, g, rpc, &nnz, buf));
  struct bad {
    const char *what;
    int null_handle, m, n, na, nb;
    cusparseMatDescr_t da, db, dc;
    cusparseStatus_t want;
  };
  const cusparseStatus_t IV = CUSPARSE_STATUS_INVALID_VALUE, MT = CUSPARSE_STATUS_MATRIX_TYPE_NOT_SUPPORTED;
  const bad cases_[] = {
      {"handle=NULL", 1, 6, 5, A.nnz(), B.nnz(), g, g, g, CUSPARSE_STATUS_NOT_INITIALIZED},
      {"m=-1", 0, -1, 5, A.nnz(), B.nnz(), g, g, g, IV},
      {"n=-1", 0, 6, -1, A.nnz(), B.nnz(), g, g, g, IV},
      {"nnzA=-1", 0, 6, 5, -1, B.nnz(), g, g, g, IV},
      {"nnzB=-1", 0, 6, 5, A.nnz(), -1, g, g, g, IV},
      {"descrA symmetric", 0, 6, 5, A.nnz(), B.nnz(), sym, g, g, MT},
      {"descrB symmetric", 0, 6, 5, A.nnz(), B.nnz(), g, sym, g, MT},
      {"descrC symmetric", 0, 6, 5, A.nnz(), B.nnz(), g, g, sym, MT},
  };
  for (const bad &c : cases_) {
    cusparseHandle_t h = c.null_handle ? NULL : H;
    /* the buffer size query checks only the handle (the H200) */
    expect("cusparseScsrgeam2_bufferSizeExt", c.what,
           cusparseScsrgeam2_bufferSizeExt(h, c.m, c.n, &al, c.da, c.na, va, a.rp, a.col, &be, c.db, c.nb, vb, b.rp,
                                           b.col, c.dc, vc, rpc, cc, &bs),
           c.null_handle ? c.want : CUSPARSE_STATUS_SUCCESS);
    expect("cusparseXcsrgeam2Nnz", c.what,
           cusparseXcsrgeam2Nnz(h, c.m, c.n, c.da, c.na, a.rp, a.col, c.db, c.nb, b.rp, b.col, c.dc, rpc, &nnz, buf),
           c.want);
    expect("cusparseScsrgeam2", c.what,
           cusparseScsrgeam2(h, c.m, c.n, &al, c.da, c.na, va, a.rp, a.col, &be, c.db, c.nb, vb, b.rp, b.col, c.dc, vc,
                             rpc, cc, buf),
           c.want);
  }
  cudaFree(rpc);
  cudaFree(cc);
  cudaFree(vc);
  cudaFree(buf);
  release(a);
  release(b);
  cusparseDestroyMatDescr(g);
  cusparseDestroyMatDescr(sym);
}

int main() {
  CHECK_SP(cusparseCreate(&H));
  test_type<float>();
  test_type<double>();
  test_type<cuComplex>();
  test_type<cuDoubleComplex>();
  test_status();
  CHECK_SP(cusparseDestroy(H));
  fprintf(stderr, "%d cases, %d values compared\n", cases, compared_values);
  printf("PASS cusparse_geam\n");
  return 0;
}
