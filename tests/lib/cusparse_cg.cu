/* cusparse_cg.cu: the conjugate-gradient program people write against
 * cuSPARSE and cuBLAS: A x = b for the 2-D Poisson matrix (5-point
 * Laplacian on a 32 x 32 grid, n = 1024, CSR), double precision, on a
 * stream, with cusparseSpMV for A p and cublasDdot/Daxpy/Dscal/Dnrm2 for the
 * rest. Checks the residual ||b - A x|| / ||b|| < 1e-8 on the host and the
 * iteration count against the host CG's own (same arithmetic order up to
 * rounding: within 2). Prints "PASS cusparse_cg".
 *
 * Build: nvcc -I tests/lib tests/lib/cusparse_cg.cu -o cusparse_cg -lcusparse -lcublas */
#include "sparse_check.h"

static const int G = 32, N = G * G;

static void poisson(std::vector<int> &rp, std::vector<int> &ci, std::vector<double> &v) {
  rp.assign(N + 1, 0);
  for (int y = 0; y < G; y++)
    for (int x = 0; x < G; x++) {
      int i = y * G + x;
      if (y > 0) ci.push_back(i - G), v.push_back(-1);
      if (x > 0) ci.push_back(i - 1), v.push_back(-1);
      ci.push_back(i), v.push_back(4);
      if (x < G - 1) ci.push_back(i + 1), v.push_back(-1);
      if (y < G - 1) ci.push_back(i + G), v.push_back(-1);
      rp[i + 1] = (int)ci.size();
    }
}

static void host_mv(const std::vector<int> &rp, const std::vector<int> &ci, const std::vector<double> &v,
                    const std::vector<double> &x, std::vector<double> &y) {
  for (int i = 0; i < N; i++) {
    double s = 0;
    for (int k = rp[i]; k < rp[i + 1]; k++) s += v[k] * x[ci[k]];
    y[i] = s;
  }
}

static int host_cg(const std::vector<int> &rp, const std::vector<int> &ci, const std::vector<double> &v,
                   const std::vector<double> &b, double tol) {
  std::vector<double> x(N, 0), r(b), p(b), q(N);
  double rr = 0, bb = 0;
  for (int i = 0; i < N; i++) rr += r[i] * r[i];
  bb = rr;
  int it = 0;
  while (sqrt(rr / bb) > tol && it < 10 * N) {
    host_mv(rp, ci, v, p, q);
    double pq = 0;
    for (int i = 0; i < N; i++) pq += p[i] * q[i];
    double a = rr / pq, rr2 = 0;
    for (int i = 0; i < N; i++) x[i] += a * p[i], r[i] -= a * q[i], rr2 += r[i] * r[i];
    for (int i = 0; i < N; i++) p[i] = r[i] + rr2 / rr * p[i];
    rr = rr2;
    it++;
  }
  return it;
}

int main() {
  std::vector<int> rp, ci;
  std::vector<double> v;
  poisson(rp, ci, v);
  std::vector<double> b(N);
  for (int i = 0; i < N; i++) b[i] = 1.0 + (i % 7) * 0.25;
  const double tol = 1e-10;

  cudaStream_t s;
  CHECK(cudaStreamCreate(&s));
  cusparseHandle_t sp;
  cublasHandle_t bl;
  CHECK_SP(cusparseCreate(&sp));
  CHECK_BLAS(cublasCreate(&bl));
  CHECK_SP(cusparseSetStream(sp, s));
  CHECK_BLAS(cublasSetStream(bl, s));

  int *d_rp = to_dev(rp), *d_ci = to_dev(ci);
  double *d_v = to_dev(v), *d_x, *d_r = to_dev(b), *d_p = to_dev(b), *d_q;
  CHECK(cudaMalloc((void **)&d_x, N * sizeof(double)));
  CHECK(cudaMalloc((void **)&d_q, N * sizeof(double)));
  CHECK(cudaMemset(d_x, 0, N * sizeof(double)));
  cusparseSpMatDescr_t A;
  cusparseDnVecDescr_t vp, vq;
  CHECK_SP(cusparseCreateCsr(&A, N, N, (int64_t)ci.size(), d_rp, d_ci, d_v, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I,
                             CUSPARSE_INDEX_BASE_ZERO, CUDA_R_64F));
  CHECK_SP(cusparseCreateDnVec(&vp, N, d_p, CUDA_R_64F));
  CHECK_SP(cusparseCreateDnVec(&vq, N, d_q, CUDA_R_64F));
  double one = 1, zero = 0;
  size_t bs = 0;
  CHECK_SP(cusparseSpMV_bufferSize(sp, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, A, vp, &zero, vq, CUDA_R_64F,
                                   CUSPARSE_SPMV_ALG_DEFAULT, &bs));
  void *buf;
  CHECK(cudaMalloc(&buf, bs));

  double rr, bb;
  CHECK_BLAS(cublasDdot(bl, N, d_r, 1, d_r, 1, &rr));
  bb = rr;
  int it = 0;
  while (sqrt(rr / bb) > tol && it < 10 * N) {
    CHECK_SP(cusparseSpMV(sp, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, A, vp, &zero, vq, CUDA_R_64F,
                          CUSPARSE_SPMV_ALG_DEFAULT, buf));
    double pq;
    CHECK_BLAS(cublasDdot(bl, N, d_p, 1, d_q, 1, &pq));
    double a = rr / pq, na = -a;
    CHECK_BLAS(cublasDaxpy(bl, N, &a, d_p, 1, d_x, 1));
    CHECK_BLAS(cublasDaxpy(bl, N, &na, d_q, 1, d_r, 1));
    double rr2;
    CHECK_BLAS(cublasDdot(bl, N, d_r, 1, d_r, 1, &rr2));
    double beta = rr2 / rr;
    CHECK_BLAS(cublasDscal(bl, N, &beta, d_p, 1));
    CHECK_BLAS(cublasDaxpy(bl, N, &one, d_r, 1, d_p, 1));
    rr = rr2;
    it++;
  }
  double rn;
  CHECK_BLAS(cublasDnrm2(bl, N, d_r, 1, &rn));
  CHECK(cudaStreamSynchronize(s));
  std::vector<double> x = from_dev(d_x, N), ax(N);
  host_mv(rp, ci, v, x, ax);
  double res = 0, bn = 0;
  for (int i = 0; i < N; i++) res += (b[i] - ax[i]) * (b[i] - ax[i]), bn += b[i] * b[i];
  res = sqrt(res / bn);
  int host_it = host_cg(rp, ci, v, b, tol);
  fprintf(stderr, "CG: %d iterations (host %d), residual %.3g, recurrence %.3g\n", it, host_it, res, rn / sqrt(bn));
  if (!(res < 1e-8)) {
    printf("FAIL cusparse_cg: residual %g after %d iterations\n", res, it);
    return 1;
  }
  if (abs(it - host_it) > 2) {
    printf("FAIL cusparse_cg: %d iterations, the host's CG took %d\n", it, host_it);
    return 1;
  }
  printf("CG converged: residual below 1e-8\n");
  cusparseDestroySpMat(A);
  cusparseDestroyDnVec(vp);
  cusparseDestroyDnVec(vq);
  CHECK_SP(cusparseDestroy(sp));
  CHECK_BLAS(cublasDestroy(bl));
  cudaFree(d_rp); cudaFree(d_ci); cudaFree(d_v); cudaFree(d_x); cudaFree(d_r); cudaFree(d_p); cudaFree(d_q); cudaFree(buf);
  CHECK(cudaStreamDestroy(s));
  printf("PASS cusparse_cg\n");
  return 0;
}
