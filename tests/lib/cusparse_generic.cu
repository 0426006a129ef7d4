/* cusparse_generic.cu: cuSPARSE's generic API the way programs use it, in
 * S/D/C/Z, each result compared with a host computation in double:
 *   SpMV    CSR / CSC / COO, 32- and 64-bit indices, base 0 and 1, op N/T
 *           (and C for complex), beta = 0 (y holds NaN: must not be read)
 *           and beta != 0, device pointer mode;
 *   SpMM    op(A) N/T, B and C column- and row-major, op(B) N/T;
 *   SpGEMM  the workEstimation / compute / copy protocol, C's nnz from
 *           cusparseSpMatGetSize, columns ascending in each row;
 *   SparseToDense, DenseToSparse (CSR and COO), SpVV, Axpby, Gather,
 *   Scatter, csr2cscEx2, Xcsrsort with a permutation, coo2csr/csr2coo.
 * Prints "PASS cusparse_generic".
 *
 * Build: nvcc -I tests/lib tests/lib/cusparse_generic.cu -o cusparse_generic -lcusparse -lcublas */
#define DISABLE_CUSPARSE_DEPRECATED
#include <algorithm>

#include "sparse_check.h"

static cusparseHandle_t H;

static cd opv(cd v, cusparseOperation_t op) { return op == CUSPARSE_OPERATION_CONJUGATE_TRANSPOSE ? std::conj(v) : v; }

/* want = alpha op(A) X + beta C (X: k x nc of host values, col-major ld k) */
static std::vector<cd> host_mm(const std::vector<cd> &A, int m, int n, cusparseOperation_t op, const std::vector<cd> &X,
                               int nc, cd alpha, cd beta, const std::vector<cd> &C0) {
  int rows = op ? n : m, k = op ? m : n;
  std::vector<cd> r((size_t)rows * nc);
  for (int j = 0; j < nc; j++)
    for (int i = 0; i < rows; i++) {
      cd s = 0;
      for (int q = 0; q < k; q++) s += opv(op ? A[q + (size_t)i * m] : A[i + (size_t)q * m], op) * X[q + (size_t)j * k];
      r[i + (size_t)j * rows] = alpha * s + (beta != cd(0, 0) ? beta * C0[i + (size_t)j * rows] : cd(0, 0));
    }
  return r;
}

template <class T> static void test_spmv() {
  const cudaDataType DT = dtype_of<T>::v;
  hsparse<T> S(9, 7, 350);
  std::vector<int> rows = S.rows();
  /* CSC of the same matrix */
  std::vector<int> cptr(S.n + 1, 0), crow;
  std::vector<T> cval;
  for (int j = 0; j < S.n; j++) {
    for (int i = 0; i < S.m; i++)
      for (int k = S.rowptr[i]; k < S.rowptr[i + 1]; k++)
        if (S.col[k] == j) { crow.push_back(i); cval.push_back(S.val[k]); }
    cptr[j + 1] = (int)crow.size();
  }
  std::vector<int64_t> rp64(S.rowptr.begin(), S.rowptr.end()), col64(S.col.begin(), S.col.end());
  std::vector<int> rp1(S.rowptr), col1(S.col);
  for (auto &v : rp1) v++;
  for (auto &v : col1) v++;
  int *d_rp = to_dev(S.rowptr), *d_col = to_dev(S.col), *d_rows = to_dev(rows), *d_cptr = to_dev(cptr), *d_crow = to_dev(crow);
  int *d_rp1 = to_dev(rp1), *d_col1 = to_dev(col1);
  int64_t *d_rp64 = to_dev(rp64), *d_col64 = to_dev(col64);
  T *d_val = to_dev(S.val), *d_cval = to_dev(cval);
  cusparseSpMatDescr_t mats[5];
  const char *names[5] = {"csr", "csc", "coo", "csr64", "csr base1"};
  CHECK_SP(cusparseCreateCsr(&mats[0], S.m, S.n, S.nnz(), d_rp, d_col, d_val, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I,
                             CUSPARSE_INDEX_BASE_ZERO, DT));
  CHECK_SP(cusparseCreateCsc(&mats[1], S.m, S.n, S.nnz(), d_cptr, d_crow, d_cval, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I,
                             CUSPARSE_INDEX_BASE_ZERO, DT));
  CHECK_SP(cusparseCreateCoo(&mats[2], S.m, S.n, S.nnz(), d_rows, d_col, d_val, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, DT));
  CHECK_SP(cusparseCreateCsr(&mats[3], S.m, S.n, S.nnz(), d_rp64, d_col64, d_val, CUSPARSE_INDEX_64I, CUSPARSE_INDEX_64I,
                             CUSPARSE_INDEX_BASE_ZERO, DT));
  CHECK_SP(cusparseCreateCsr(&mats[4], S.m, S.n, S.nnz(), d_rp1, d_col1, d_val, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I,
                             CUSPARSE_INDEX_BASE_ONE, DT));
  cusparseOperation_t ops[3] = {CUSPARSE_OPERATION_NON_TRANSPOSE, CUSPARSE_OPERATION_TRANSPOSE,
                                CUSPARSE_OPERATION_CONJUGATE_TRANSPOSE};
  for (int f = 0; f < 5; f++)
    for (int oi = 0; oi < (T_<T>::cplx ? 3 : 2); oi++)
      for (int bz = 0; bz < 2; bz++) {
        cusparseOperation_t op = ops[oi];
        int xs = op ? S.m : S.n, ys = op ? S.n : S.m;
        dbuf<T> x(xs), y(ys);
        if (bz) {
          for (auto &v : y.h) v = T_<T>::put(cd(NAN, 0));
          y.up();
        }
        std::vector<cd> y0 = as_cd(y.h);
        T alpha = T_<T>::put(T_<T>::cplx ? cd(0.75, -0.5) : cd(0.75, 0)), beta = T_<T>::put(bz ? cd(0, 0) : cd(-1.25, 0));
        cusparseDnVecDescr_t vx, vy;
        CHECK_SP(cusparseCreateDnVec(&vx, xs, x.d, DT));
        CHECK_SP(cusparseCreateDnVec(&vy, ys, y.d, DT));
        size_t bs = 0;
        CHECK_SP(cusparseSpMV_bufferSize(H, op, &alpha, mats[f], vx, &beta, vy, DT, CUSPARSE_SPMV_ALG_DEFAULT, &bs));
        void *buf;
        CHECK(cudaMalloc(&buf, bs ? bs : 1));
        CHECK_SP(cusparseSpMV(H, op, &alpha, mats[f], vx, &beta, vy, DT, CUSPARSE_SPMV_ALG_DEFAULT, buf));
        std::vector<cd> want = host_mm(S.dense, S.m, S.n, op, as_cd(x.h), 1, T_<T>::get(alpha), T_<T>::get(beta), y0);
        char what[96];
        snprintf(what, sizeof what, "%sSpMV %s op %d beta %s", T_<T>::name(), names[f], (int)op, bz ? "0" : "!=0");
        compare(what, y.down(), want, sum_scale(S.n) * 4);
        cudaFree(buf);
        cusparseDestroyDnVec(vx);
        cusparseDestroyDnVec(vy);
      }
  /* device pointer mode */
  {
    dbuf<T> x(S.n), y(S.m), sc(2);
    std::vector<cd> y0 = as_cd(y.h);
    cusparseDnVecDescr_t vx, vy;
    CHECK_SP(cusparseCreateDnVec(&vx, S.n, x.d, DT));
    CHECK_SP(cusparseCreateDnVec(&vy, S.m, y.d, DT));
    CHECK_SP(cusparseSetPointerMode(H, CUSPARSE_POINTER_MODE_DEVICE));
    void *buf;
    CHECK(cudaMalloc(&buf, 256));
    CHECK_SP(cusparseSpMV(H, CUSPARSE_OPERATION_NON_TRANSPOSE, sc.d, mats[0], vx, sc.d + 1, vy, DT, CUSPARSE_SPMV_CSR_ALG1, buf));
    CHECK_SP(cusparseSetPointerMode(H, CUSPARSE_POINTER_MODE_HOST));
    std::vector<cd> want = host_mm(S.dense, S.m, S.n, CUSPARSE_OPERATION_NON_TRANSPOSE, as_cd(x.h), 1, sc.at(0), sc.at(1), y0);
    compare("SpMV device pointer mode", y.down(), want, sum_scale(S.n) * 4);
    cudaFree(buf);
    cusparseDestroyDnVec(vx);
    cusparseDestroyDnVec(vy);
  }
  /* SpMM: C (rows x 3) = alpha op(A) op(B) + beta C */
  for (int oa = 0; oa < 2; oa++)
    for (int ob = 0; ob < 2; ob++)
      for (int ord = 0; ord < 4; ord++) {
        cusparseOperation_t opA = ops[oa], opB = ops[ob];
        int rows = opA ? S.n : S.m, k = opA ? S.m : S.n, nc = 3;
        bool brow = ord & 1, crow_ = (ord & 2) != 0;
        int br = opB ? nc : k, bc = opB ? k : nc;   /* B as stored */
        int ldb = brow ? bc + 1 : br + 2, ldc = crow_ ? nc + 2 : rows + 1;
        dbuf<T> B((size_t)ldb * (brow ? br : bc)), C((size_t)ldc * (crow_ ? rows : nc));
        std::vector<cd> X((size_t)k * nc), C0((size_t)rows * nc);
        for (int j = 0; j < nc; j++)
          for (int q = 0; q < k; q++) {
            int i0 = opB ? j : q, j0 = opB ? q : j;
            X[q + (size_t)j * k] = B.at(brow ? (size_t)i0 * ldb + j0 : i0 + (size_t)j0 * ldb);
          }
        for (int j = 0; j < nc; j++)
          for (int i = 0; i < rows; i++) C0[i + (size_t)j * rows] = C.at(crow_ ? (size_t)i * ldc + j : i + (size_t)j * ldc);
        cusparseDnMatDescr_t mb, mc;
        CHECK_SP(cusparseCreateDnMat(&mb, br, bc, ldb, B.d, DT, brow ? CUSPARSE_ORDER_ROW : CUSPARSE_ORDER_COL));
        CHECK_SP(cusparseCreateDnMat(&mc, rows, nc, ldc, C.d, DT, crow_ ? CUSPARSE_ORDER_ROW : CUSPARSE_ORDER_COL));
        T alpha = T_<T>::put(cd(1.5, 0)), beta = T_<T>::put(cd(0.5, 0));
        size_t bs = 0;
        CHECK_SP(cusparseSpMM_bufferSize(H, opA, opB, &alpha, mats[0], mb, &beta, mc, DT, CUSPARSE_SPMM_ALG_DEFAULT, &bs));
        void *buf;
        CHECK(cudaMalloc(&buf, bs ? bs : 1));
        CHECK_SP(cusparseSpMM_preprocess(H, opA, opB, &alpha, mats[0], mb, &beta, mc, DT, CUSPARSE_SPMM_ALG_DEFAULT, buf));
        CHECK_SP(cusparseSpMM(H, opA, opB, &alpha, mats[0], mb, &beta, mc, DT, CUSPARSE_SPMM_ALG_DEFAULT, buf));
        std::vector<cd> want = host_mm(S.dense, S.m, S.n, opA, X, nc, T_<T>::get(alpha), T_<T>::get(beta), C0);
        std::vector<T> got = C.down();
        std::vector<T> g((size_t)rows * nc);
        for (int j = 0; j < nc; j++)
          for (int i = 0; i < rows; i++) g[i + (size_t)j * rows] = got[crow_ ? (size_t)i * ldc + j : i + (size_t)j * ldc];
        char what[96];
        snprintf(what, sizeof what, "%sSpMM opA %d opB %d B %s C %s", T_<T>::name(), oa, ob, brow ? "row" : "col",
                 crow_ ? "row" : "col");
        compare(what, g, want, sum_scale(k) * 4);
        cudaFree(buf);
        cusparseDestroyDnMat(mb);
        cusparseDestroyDnMat(mc);
      }
  for (int f = 0; f < 5; f++) cusparseDestroySpMat(mats[f]);
  cudaFree(d_rp); cudaFree(d_col); cudaFree(d_rows); cudaFree(d_cptr); cudaFree(d_crow); cudaFree(d_rp1);
  cudaFree(d_col1); cudaFree(d_rp64); cudaFree(d_col64); cudaFree(d_val); cudaFree(d_cval);
}

template <class T> static void test_spgemm() {
  const cudaDataType DT = dtype_of<T>::v;
  hsparse<T> A(8, 6, 300), B(6, 7, 300);
  int *a_rp = to_dev(A.rowptr), *a_col = to_dev(A.col), *b_rp = to_dev(B.rowptr), *b_col = to_dev(B.col);
  T *a_val = to_dev(A.val), *b_val = to_dev(B.val);
  cusparseSpMatDescr_t ma, mb, mc;
  CHECK_SP(cusparseCreateCsr(&ma, 8, 6, A.nnz(), a_rp, a_col, a_val, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, DT));
  CHECK_SP(cusparseCreateCsr(&mb, 6, 7, B.nnz(), b_rp, b_col, b_val, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, DT));
  CHECK_SP(cusparseCreateCsr(&mc, 8, 7, 0, NULL, NULL, NULL, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, DT));
  T alpha = T_<T>::put(cd(2, 0)), beta = T_<T>::put(cd(0, 0));
  const cusparseOperation_t N = CUSPARSE_OPERATION_NON_TRANSPOSE;
  cusparseSpGEMMDescr_t g;
  CHECK_SP(cusparseSpGEMM_createDescr(&g));
  size_t s1 = 0, s2 = 0;
  void *b1 = NULL, *b2 = NULL;
  CHECK_SP(cusparseSpGEMM_workEstimation(H, N, N, &alpha, ma, mb, &beta, mc, DT, CUSPARSE_SPGEMM_DEFAULT, g, &s1, NULL));
  CHECK(cudaMalloc(&b1, s1));
  CHECK_SP(cusparseSpGEMM_workEstimation(H, N, N, &alpha, ma, mb, &beta, mc, DT, CUSPARSE_SPGEMM_DEFAULT, g, &s1, b1));
  CHECK_SP(cusparseSpGEMM_compute(H, N, N, &alpha, ma, mb, &beta, mc, DT, CUSPARSE_SPGEMM_DEFAULT, g, &s2, NULL));
  CHECK(cudaMalloc(&b2, s2));
  CHECK_SP(cusparseSpGEMM_compute(H, N, N, &alpha, ma, mb, &beta, mc, DT, CUSPARSE_SPGEMM_DEFAULT, g, &s2, b2));
  int64_t r, c, nnz;
  CHECK_SP(cusparseSpMatGetSize(mc, &r, &c, &nnz));
  int *c_rp, *c_col;
  T *c_val;
  CHECK(cudaMalloc((void **)&c_rp, 9 * sizeof(int)));
  CHECK(cudaMalloc((void **)&c_col, (nnz ? nnz : 1) * sizeof(int)));
  CHECK(cudaMalloc((void **)&c_val, (nnz ? nnz : 1) * sizeof(T)));
  CHECK_SP(cusparseCsrSetPointers(mc, c_rp, c_col, c_val));
  CHECK_SP(cusparseSpGEMM_copy(H, N, N, &alpha, ma, mb, &beta, mc, DT, CUSPARSE_SPGEMM_DEFAULT, g));
  std::vector<int> rp = from_dev(c_rp, 9), col = from_dev(c_col, (size_t)nnz);
  std::vector<T> val = from_dev(c_val, (size_t)nnz);
  /* the structure: exactly the product's (i, j) that have a path; values */
  std::vector<cd> want((size_t)8 * 7), got((size_t)8 * 7);
  std::vector<bool> path((size_t)8 * 7, false);
  for (int i = 0; i < 8; i++)
    for (int k = A.rowptr[i]; k < A.rowptr[i + 1]; k++)
      for (int q = B.rowptr[A.col[k]]; q < B.rowptr[A.col[k] + 1]; q++) {
        want[i + (size_t)B.col[q] * 8] += 2.0 * T_<T>::get(A.val[k]) * T_<T>::get(B.val[q]);
        path[i + (size_t)B.col[q] * 8] = true;
      }
  int64_t paths = 0;
  for (bool b : path) paths += b;
  if (paths != nnz || rp[0] != 0 || rp[8] != nnz) {
    printf("FAIL %sSpGEMM: nnz %lld, expected %lld (rowptr %d..%d)\n", T_<T>::name(), (long long)nnz, (long long)paths, rp[0], rp[8]);
    lib_fail();
  }
  std::vector<T> gv((size_t)8 * 7, T_<T>::put(cd(0, 0)));
  for (int i = 0; i < 8; i++)
    for (int k = rp[i]; k < rp[i + 1]; k++) {
      if ((k > rp[i] && col[k] <= col[k - 1]) || !path[i + (size_t)col[k] * 8]) {
        printf("FAIL %sSpGEMM: row %d column %d out of order or not in the product\n", T_<T>::name(), i, col[k]);
        lib_fail();
      }
      gv[i + (size_t)col[k] * 8] = val[k];
    }
  char what[64];
  snprintf(what, sizeof what, "%sSpGEMM", T_<T>::name());
  compare(what, gv, want, 8);
  /* back to dense through SparseToDense */
  dbuf<T> D((size_t)8 * 7);
  cusparseDnMatDescr_t md;
  CHECK_SP(cusparseCreateDnMat(&md, 8, 7, 8, D.d, DT, CUSPARSE_ORDER_COL));
  size_t bs;
  CHECK_SP(cusparseSparseToDense_bufferSize(H, mc, md, CUSPARSE_SPARSETODENSE_ALG_DEFAULT, &bs));
  void *buf;
  CHECK(cudaMalloc(&buf, bs ? bs : 1));
  CHECK_SP(cusparseSparseToDense(H, mc, md, CUSPARSE_SPARSETODENSE_ALG_DEFAULT, buf));
  snprintf(what, sizeof what, "%sSparseToDense", T_<T>::name());
  compare(what, D.down(), as_cd(gv));
  /* and to sparse again: CSR and COO */
  for (int coo = 0; coo < 2; coo++) {
    cusparseSpMatDescr_t ms;
    int *s_rp, *s_rows, *s_col;
    T *s_val;
    CHECK(cudaMalloc((void **)&s_rp, 9 * sizeof(int)));
    if (coo) CHECK_SP(cusparseCreateCoo(&ms, 8, 7, 0, NULL, NULL, NULL, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, DT));
    else CHECK_SP(cusparseCreateCsr(&ms, 8, 7, 0, s_rp, NULL, NULL, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, DT));
    size_t bs2;
    void *buf2;
    CHECK_SP(cusparseDenseToSparse_bufferSize(H, md, ms, CUSPARSE_DENSETOSPARSE_ALG_DEFAULT, &bs2));
    CHECK(cudaMalloc(&buf2, bs2 ? bs2 : 1));   /* its own size (the H200 fails a smaller one with INTERNAL_ERROR) */
    CHECK_SP(cusparseDenseToSparse_analysis(H, md, ms, CUSPARSE_DENSETOSPARSE_ALG_DEFAULT, buf2));
    int64_t r2, c2, n2;
    CHECK_SP(cusparseSpMatGetSize(ms, &r2, &c2, &n2));
    if (n2 != nnz) {
      printf("FAIL %sDenseToSparse %s: nnz %lld, expected %lld\n", T_<T>::name(), coo ? "coo" : "csr", (long long)n2, (long long)nnz);
      lib_fail();
    }
    CHECK(cudaMalloc((void **)&s_rows, (n2 ? n2 : 1) * sizeof(int)));
    CHECK(cudaMalloc((void **)&s_col, (n2 ? n2 : 1) * sizeof(int)));
    CHECK(cudaMalloc((void **)&s_val, (n2 ? n2 : 1) * sizeof(T)));
    if (coo) CHECK_SP(cusparseCooSetPointers(ms, s_rows, s_col, s_val));
    else CHECK_SP(cusparseCsrSetPointers(ms, s_rp, s_col, s_val));
    CHECK_SP(cusparseDenseToSparse_convert(H, md, ms, CUSPARSE_DENSETOSPARSE_ALG_DEFAULT, buf2));
    std::vector<int> sc = from_dev(s_col, (size_t)n2), sr = coo ? from_dev(s_rows, (size_t)n2) : std::vector<int>();
    std::vector<int> srp = from_dev(s_rp, 9);
    std::vector<T> sv = from_dev(s_val, (size_t)n2);
    std::vector<T> back((size_t)8 * 7, T_<T>::put(cd(0, 0)));
    for (int k = 0; k < n2; k++) {
      int i = 0;
      if (coo) i = sr[k];
      else while (srp[i + 1] <= k) i++;
      back[i + (size_t)sc[k] * 8] = sv[k];
    }
    snprintf(what, sizeof what, "%sDenseToSparse %s", T_<T>::name(), coo ? "coo" : "csr");
    compare(what, back, as_cd(gv));
    cusparseDestroySpMat(ms);
    cudaFree(s_rp); cudaFree(s_rows); cudaFree(s_col); cudaFree(s_val); cudaFree(buf2);
  }
  cudaFree(buf);
  cusparseDestroyDnMat(md);
  CHECK_SP(cusparseSpGEMM_destroyDescr(g));
  cusparseDestroySpMat(ma); cusparseDestroySpMat(mb); cusparseDestroySpMat(mc);
  cudaFree(b1); cudaFree(b2); cudaFree(a_rp); cudaFree(a_col); cudaFree(b_rp); cudaFree(b_col);
  cudaFree(a_val); cudaFree(b_val); cudaFree(c_rp); cudaFree(c_col); cudaFree(c_val);
}

template <class T> static void test_vectors() {
  const cudaDataType DT = dtype_of<T>::v;
  const int n = 12, nz = 5;
  std::vector<int> ind = {1, 3, 4, 8, 11};
  dbuf<T> xv(nz), y(n);
  int *d_ind = to_dev(ind);
  cusparseSpVecDescr_t sx;
  cusparseDnVecDescr_t vy;
  CHECK_SP(cusparseCreateSpVec(&sx, n, nz, d_ind, xv.d, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, DT));
  CHECK_SP(cusparseCreateDnVec(&vy, n, y.d, DT));
  char what[64];
  /* SpVV, both forms */
  for (int c = 0; c < (T_<T>::cplx ? 2 : 1); c++) {
    cusparseOperation_t op = c ? CUSPARSE_OPERATION_CONJUGATE_TRANSPOSE : CUSPARSE_OPERATION_NON_TRANSPOSE;
    T res;
    size_t bs;
    CHECK_SP(cusparseSpVV_bufferSize(H, op, sx, vy, &res, DT, &bs));
    void *buf;
    CHECK(cudaMalloc(&buf, bs ? bs : 1));
    CHECK_SP(cusparseSpVV(H, op, sx, vy, &res, DT, buf));
    cd want = 0;
    for (int k = 0; k < nz; k++) want += (c ? std::conj(xv.at(k)) : xv.at(k)) * y.at(ind[k]);
    snprintf(what, sizeof what, "%sSpVV op %d", T_<T>::name(), (int)op);
    compare1(what, res, want, 4);
    cudaFree(buf);
  }
  /* Axpby: y = alpha x + beta y */
  T alpha = T_<T>::put(cd(1.5, 0)), beta = T_<T>::put(cd(-0.5, 0));
  CHECK_SP(cusparseAxpby(H, &alpha, sx, &beta, vy));
  std::vector<cd> want(n);
  for (int i = 0; i < n; i++) want[i] = -0.5 * y.at(i);
  for (int k = 0; k < nz; k++) want[ind[k]] += 1.5 * xv.at(k);
  snprintf(what, sizeof what, "%sAxpby", T_<T>::name());
  std::vector<T> yn = y.down();
  compare(what, yn, want, 2);
  /* Gather: x = y(ind) */
  CHECK_SP(cusparseGather(H, vy, sx));
  std::vector<cd> wg(nz);
  for (int k = 0; k < nz; k++) wg[k] = T_<T>::get(yn[ind[k]]);
  snprintf(what, sizeof what, "%sGather", T_<T>::name());
  compare(what, xv.down(), wg);
  /* Scatter of fresh values: y(ind) = x */
  xv.h = std::vector<T>(nz);
  for (auto &v : xv.h) v = rnd_val<T>();
  xv.up();
  CHECK_SP(cusparseScatter(H, sx, vy));
  std::vector<cd> ws = as_cd(yn);
  for (int k = 0; k < nz; k++) ws[ind[k]] = xv.at(k);
  snprintf(what, sizeof what, "%sScatter", T_<T>::name());
  compare(what, y.down(), ws);
  cusparseDestroySpVec(sx);
  cusparseDestroyDnVec(vy);
  cudaFree(d_ind);
}

template <class T> static void test_conversions() {
  const cudaDataType DT = dtype_of<T>::v;
  hsparse<T> S(6, 9, 400);
  int *d_rp = to_dev(S.rowptr), *d_col = to_dev(S.col), *cp, *ri;
  T *d_val = to_dev(S.val), *cv;
  int nnz = S.nnz();
  CHECK(cudaMalloc((void **)&cp, (S.n + 1) * sizeof(int)));
  CHECK(cudaMalloc((void **)&ri, (nnz ? nnz : 1) * sizeof(int)));
  CHECK(cudaMalloc((void **)&cv, (nnz ? nnz : 1) * sizeof(T)));
  size_t bs;
  CHECK_SP(cusparseCsr2cscEx2_bufferSize(H, S.m, S.n, nnz, d_val, d_rp, d_col, cv, cp, ri, DT, CUSPARSE_ACTION_NUMERIC,
                                         CUSPARSE_INDEX_BASE_ZERO, CUSPARSE_CSR2CSC_ALG1, &bs));
  void *buf;
  CHECK(cudaMalloc(&buf, bs ? bs : 1));
  CHECK_SP(cusparseCsr2cscEx2(H, S.m, S.n, nnz, d_val, d_rp, d_col, cv, cp, ri, DT, CUSPARSE_ACTION_NUMERIC,
                              CUSPARSE_INDEX_BASE_ZERO, CUSPARSE_CSR2CSC_ALG1, buf));
  std::vector<int> hcp = from_dev(cp, S.n + 1), hri = from_dev(ri, nnz);
  std::vector<T> hcv = from_dev(cv, nnz);
  std::vector<cd> back((size_t)S.m * S.n);
  for (int j = 0; j < S.n; j++)
    for (int k = hcp[j]; k < hcp[j + 1]; k++) {
      if (k > hcp[j] && hri[k] <= hri[k - 1]) { printf("FAIL csr2cscEx2: rows not ascending\n"); lib_fail(); }
      back[hri[k] + (size_t)j * S.m] = T_<T>::get(hcv[k]);
    }
  std::vector<T> bt(back.size());
  for (size_t i = 0; i < back.size(); i++) bt[i] = T_<T>::put(back[i]);
  char what[64];
  snprintf(what, sizeof what, "%scsr2cscEx2", T_<T>::name());
  compare(what, bt, S.dense);
  /* Xcsrsort: columns reversed within each row, sorted back, P says where each came from */
  std::vector<int> rev(S.col);
  for (int i = 0; i < S.m; i++) std::reverse(rev.begin() + S.rowptr[i], rev.begin() + S.rowptr[i + 1]);
  int *d_rev = to_dev(rev), *d_p;
  CHECK(cudaMalloc((void **)&d_p, (nnz ? nnz : 1) * sizeof(int)));
  CHECK_SP(cusparseXcsrsort_bufferSizeExt(H, S.m, S.n, nnz, d_rp, d_rev, &bs));
  void *sbuf;
  CHECK(cudaMalloc(&sbuf, bs ? bs : 1));
  CHECK_SP(cusparseCreateIdentityPermutation(H, nnz, d_p));
  cusparseMatDescr_t md;
  CHECK_SP(cusparseCreateMatDescr(&md));
  CHECK_SP(cusparseXcsrsort(H, S.m, S.n, nnz, md, d_rp, d_rev, d_p, sbuf));
  std::vector<int> sorted = from_dev(d_rev, nnz), perm = from_dev(d_p, nnz);
  for (int k = 0; k < nnz; k++)
    if (sorted[k] != S.col[k] || rev[perm[k]] != S.col[k]) {
      printf("FAIL Xcsrsort: element %d: column %d (perm %d), expected %d\n", k, sorted[k], perm[k], S.col[k]);
      lib_fail();
    }
  /* csr2coo and back */
  int *d_coo, *d_rp2;
  CHECK(cudaMalloc((void **)&d_coo, (nnz ? nnz : 1) * sizeof(int)));
  CHECK(cudaMalloc((void **)&d_rp2, (S.m + 1) * sizeof(int)));
  CHECK_SP(cusparseXcsr2coo(H, d_rp, nnz, S.m, d_coo, CUSPARSE_INDEX_BASE_ZERO));
  CHECK_SP(cusparseXcoo2csr(H, d_coo, nnz, S.m, d_rp2, CUSPARSE_INDEX_BASE_ZERO));
  std::vector<int> coo = from_dev(d_coo, nnz), rp2 = from_dev(d_rp2, S.m + 1), rows = S.rows();
  if (coo != rows || rp2 != S.rowptr) { printf("FAIL csr2coo/coo2csr\n"); lib_fail(); }
  compared_values += 3 * nnz;
  CHECK_SP(cusparseDestroyMatDescr(md));
  cudaFree(d_rp); cudaFree(d_col); cudaFree(d_val); cudaFree(cp); cudaFree(ri); cudaFree(cv); cudaFree(buf);
  cudaFree(d_rev); cudaFree(d_p); cudaFree(sbuf); cudaFree(d_coo); cudaFree(d_rp2);
}

template <class T> static void all() {
  test_spmv<T>();
  test_spgemm<T>();
  test_vectors<T>();
  test_conversions<T>();
  printf("%s: ok\n", T_<T>::name());
}

int main() {
  CHECK_SP(cusparseCreate(&H));
  cudaStream_t s;
  CHECK(cudaStreamCreate(&s));
  CHECK_SP(cusparseSetStream(H, s));
  all<float>();
  all<double>();
  all<cuComplex>();
  all<cuDoubleComplex>();
  CHECK_SP(cusparseDestroy(H));
  CHECK(cudaStreamDestroy(s));
  fprintf(stderr, "%d values compared\n", compared_values);
  printf("PASS cusparse_generic\n");
  return 0;
}
