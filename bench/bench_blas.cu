/* bench_blas.cu: cuBLAS through cubridge's facade against OpenBLAS called
 * directly, side by side in one process (bench/run_blas.sh runs it through
 * `cubridge run`; both sides use the same OpenBLAS and its threads):
 *   sgemm / dgemm   n x n (default 2048), cublasSgemm/Dgemm on device
 *                   memory vs cblas_sgemm/dgemm on host memory
 *   batched         10,000 products of 16 x 16 f32: cublasSgemmStridedBatched
 *                   vs a loop of cblas_sgemm
 *   call overhead   cublasSaxpy of 1 element, asynchronous (issue rate) and
 *                   cublasSdot of 1 element to a host result (a round trip
 *                   through the stream), vs cblas_saxpy / cblas_sdot of 1
 * Prints "RESULT <key> <seconds>" (the best of ROUNDS) and checks the
 * products against each other. Timings go to stdout only here: bench/. */
#include <cblas.h>
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define CHECK(x)                                                               \
  do {                                                                         \
    if ((x) != 0) {                                                            \
      fprintf(stderr, "bench_blas: %s failed at line %d\n", #x, __LINE__);     \
      exit(1);                                                                 \
    }                                                                          \
  } while (0)

static double now() {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}

static int rounds = 3;

template <class T> static void fill(T *p, size_t n) {
  for (size_t i = 0; i < n; i++) p[i] = (T)((int)(i * 7919 % 2001) - 1000) / 1000;
}

template <class T>
static void gemm_pair(const char *name, int n, cublasHandle_t h) {
  size_t bytes = (size_t)n * n * sizeof(T);
  T *ha = (T *)malloc(bytes), *hb = (T *)malloc(bytes), *hc = (T *)malloc(bytes), *hd = (T *)malloc(bytes);
  fill(ha, (size_t)n * n);
  fill(hb, (size_t)n * n);
  T *a, *b, *c;
  CHECK(cudaMalloc(&a, bytes));
  CHECK(cudaMalloc(&b, bytes));
  CHECK(cudaMalloc(&c, bytes));
  CHECK(cudaMemcpy(a, ha, bytes, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(b, hb, bytes, cudaMemcpyHostToDevice));
  T one = 1, zero = 0;
  double best_f = 1e30, best_c = 1e30;
  for (int r = 0; r < rounds + 1; r++) {   /* round 0 warms both up */
    double t0 = now();
    if (sizeof(T) == 4)
      CHECK(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, (const float *)&one, (const float *)a, n,
                        (const float *)b, n, (const float *)&zero, (float *)c, n));
    else
      CHECK(cublasDgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, (const double *)&one, (const double *)a, n,
                        (const double *)b, n, (const double *)&zero, (double *)c, n));
    CHECK(cudaDeviceSynchronize());
    double t1 = now();
    if (sizeof(T) == 4)
      cblas_sgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1, (const float *)ha, n, (const float *)hb, n,
                  0, (float *)hd, n);
    else
      cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1, (const double *)ha, n, (const double *)hb, n,
                  0, (double *)hd, n);
    double t2 = now();
    if (r) {
      if (t1 - t0 < best_f) best_f = t1 - t0;
      if (t2 - t1 < best_c) best_c = t2 - t1;
    }
  }
  CHECK(cudaMemcpy(hc, c, bytes, cudaMemcpyDeviceToHost));
  for (size_t i = 0; i < (size_t)n * n; i += 997)
    if (fabs((double)hc[i] - (double)hd[i]) > 1e-3 * (1 + fabs((double)hd[i]))) {
      fprintf(stderr, "bench_blas: %s mismatch at %zu\n", name, i);
      exit(1);
    }
  printf("RESULT %s_facade %.6f\nRESULT %s_openblas %.6f\n", name, best_f, name, best_c);
  cudaFree(a), cudaFree(b), cudaFree(c), free(ha), free(hb), free(hc), free(hd);
}

static void batched(cublasHandle_t h, int count, int m) {
  size_t elems = (size_t)count * m * m, bytes = elems * sizeof(float);
  float *ha = (float *)malloc(bytes), *hb = (float *)malloc(bytes), *hc = (float *)malloc(bytes), *hd = (float *)malloc(bytes);
  fill(ha, elems);
  fill(hb, elems);
  float *a, *b, *c;
  CHECK(cudaMalloc(&a, bytes));
  CHECK(cudaMalloc(&b, bytes));
  CHECK(cudaMalloc(&c, bytes));
  CHECK(cudaMemcpy(a, ha, bytes, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(b, hb, bytes, cudaMemcpyHostToDevice));
  float one = 1, zero = 0;
  long long s = (long long)m * m;
  double best_f = 1e30, best_c = 1e30;
  for (int r = 0; r < rounds + 1; r++) {
    double t0 = now();
    CHECK(cublasSgemmStridedBatched(h, CUBLAS_OP_N, CUBLAS_OP_N, m, m, m, &one, a, m, s, b, m, s, &zero, c, m, s, count));
    CHECK(cudaDeviceSynchronize());
    double t1 = now();
    for (int i = 0; i < count; i++)
      cblas_sgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, m, m, m, 1, ha + i * s, m, hb + i * s, m, 0, hd + i * s, m);
    double t2 = now();
    if (r) {
      if (t1 - t0 < best_f) best_f = t1 - t0;
      if (t2 - t1 < best_c) best_c = t2 - t1;
    }
  }
  CHECK(cudaMemcpy(hc, c, bytes, cudaMemcpyDeviceToHost));
  for (size_t i = 0; i < elems; i += 101)
    if (fabs(hc[i] - hd[i]) > 1e-4 * (1 + fabs(hd[i]))) {
      fprintf(stderr, "bench_blas: batched mismatch at %zu\n", i);
      exit(1);
    }
  printf("RESULT batched_facade %.6f\nRESULT batched_openblas %.6f\n", best_f, best_c);
  cudaFree(a), cudaFree(b), cudaFree(c), free(ha), free(hb), free(hc), free(hd);
}

static void overhead(cublasHandle_t h, int calls) {
  float *x, *y, hx = 1, hy = 2, r = 0, a = 0.5f;
  CHECK(cudaMalloc(&x, 4));
  CHECK(cudaMalloc(&y, 4));
  CHECK(cudaMemcpy(x, &hx, 4, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(y, &hy, 4, cudaMemcpyHostToDevice));
  double best_async = 1e30, best_sync = 1e30, best_c = 1e30, best_cdot = 1e30;
  volatile float sink = 0;
  for (int round = 0; round < rounds + 1; round++) {
    double t0 = now();
    for (int i = 0; i < calls; i++) CHECK(cublasSaxpy(h, 1, &a, x, 1, y, 1));
    CHECK(cudaDeviceSynchronize());
    double t1 = now();
    for (int i = 0; i < calls; i++) CHECK(cublasSdot(h, 1, x, 1, y, 1, &r));
    double t2 = now();
    for (int i = 0; i < calls; i++) cblas_saxpy(1, a, &hx, 1, &hy, 1);
    double t3 = now();
    for (int i = 0; i < calls; i++) sink += cblas_sdot(1, &hx, 1, &hy, 1);
    double t4 = now();
    if (round) {
      if (t1 - t0 < best_async) best_async = t1 - t0;
      if (t2 - t1 < best_sync) best_sync = t2 - t1;
      if (t3 - t2 < best_c) best_c = t3 - t2;
      if (t4 - t3 < best_cdot) best_cdot = t4 - t3;
    }
  }
  printf("RESULT axpy1_facade %.9f\nRESULT axpy1_openblas %.9f\nRESULT dot1_facade %.9f\nRESULT dot1_openblas %.9f\n",
         best_async / calls, best_c / calls, best_sync / calls, best_cdot / calls);
  cudaFree(x), cudaFree(y);
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 2048;
  if (getenv("ROUNDS")) rounds = atoi(getenv("ROUNDS"));
  cublasHandle_t h;
  CHECK(cublasCreate(&h));
  gemm_pair<float>("sgemm", n, h);
  gemm_pair<double>("dgemm", n, h);
  batched(h, 10000, 16);
  overhead(h, 20000);
  CHECK(cublasDestroy(h));
  return 0;
}
