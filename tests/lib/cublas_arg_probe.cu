/* cublas_arg_probe.cu: what cuBLAS does with bad or odd arguments in levels
 * 1, 2 and 3 -- negative and zero sizes, zero and negative increments, small
 * leading dimensions, enums out of range -- one line per call: the status,
 * the CUDA error after a synchronize, and the first elements of x, y and C
 * afterwards (so that a call that succeeds shows what it computed: cuBLAS 13
 * takes gemv's incx 0 as x[0] for every element, and runs level 1 with a
 * zero increment in the reference loop's order).
 *
 * run_test.sh compares stdout with cublas_arg_probe.expected: the H200's
 * output (tests/lib/h200/cublas_arg_probe.txt, recorded with
 *   nvcc tests/lib/cublas_arg_probe.cu -o probe -lcublas && ./probe)
 * less the reference-BLAS lines NVIDIA prints for some rejected calls
 * (" ** On entry to SGBMV  parameter number 4 had an illegal value";
 * cubridge prints none: docs/libraries.md, "Bad input"). */
#include <cstdio>
#include <cublas_v2.h>
#include <cuda_runtime.h>
static float *A, *x, *y, *C; static cublasHandle_t h;
static float hA[64], hx[8], hy[8];
static void reset() {
  for (int i = 0; i < 64; i++) hA[i] = 1.0f + (float)(i % 7) * 0.5f;
  for (int i = 0; i < 8; i++) { hx[i] = 2.0f + i; hy[i] = 10.0f * (i + 1); }
  cudaMemcpy(A, hA, sizeof hA, cudaMemcpyHostToDevice);
  cudaMemcpy(C, hA, sizeof hA, cudaMemcpyHostToDevice);
  cudaMemcpy(x, hx, sizeof hx, cudaMemcpyHostToDevice);
  cudaMemcpy(y, hy, sizeof hy, cudaMemcpyHostToDevice);
}
static void show(const char *name, cublasStatus_t s) {
  cudaError_t e = cudaDeviceSynchronize();
  float ox[8], oy[8], oc[16];
  cudaMemcpy(ox, x, sizeof ox, cudaMemcpyDeviceToHost);
  cudaMemcpy(oy, y, sizeof oy, cudaMemcpyDeviceToHost);
  cudaMemcpy(oc, C, sizeof oc, cudaMemcpyDeviceToHost);
  printf("%-28s %d cuda=%d x=", name, (int)s, (int)e);
  for (int i = 0; i < 5; i++) printf("%g,", ox[i]);
  printf(" y=");
  for (int i = 0; i < 5; i++) printf("%g,", oy[i]);
  printf(" C=");
  for (int i = 0; i < 6; i++) printf("%g,", oc[i]);
  printf("\n");
  fflush(stdout);
  reset();
}
#define P(name, call) do { fprintf(stderr, "[%s]\n", name); show(name, call); } while (0)
int main() {
  cudaMalloc(&A, 256); cudaMalloc(&C, 256); cudaMalloc(&x, 64); cudaMalloc(&y, 64);
  cublasCreate(&h); reset();
  float one = 1, half = 0.5f, res = 0; int ires = 0; float c = 0.8f, s = 0.6f;
  const cublasOperation_t N = CUBLAS_OP_N, T = CUBLAS_OP_T;
  const cublasFillMode_t L = CUBLAS_FILL_MODE_LOWER;
  const cublasDiagType_t ND = CUBLAS_DIAG_NON_UNIT;
  P("gemv.ok", cublasSgemv(h, N, 4, 4, &one, A, 4, x, 1, &half, y, 1));
  P("gemv.m-1", cublasSgemv(h, N, -1, 4, &one, A, 4, x, 1, &half, y, 1));
  P("gemv.n-1", cublasSgemv(h, N, 4, -1, &one, A, 4, x, 1, &half, y, 1));
  P("gemv.T.n-1", cublasSgemv(h, T, 4, -1, &one, A, 4, x, 1, &half, y, 1));
  P("gemv.T.m-1", cublasSgemv(h, T, -1, 4, &one, A, 4, x, 1, &half, y, 1));
  P("gemv.m0", cublasSgemv(h, N, 0, 4, &one, A, 4, x, 1, &half, y, 1));
  P("gemv.lda3", cublasSgemv(h, N, 4, 4, &one, A, 3, x, 1, &half, y, 1));
  P("gemv.incx0", cublasSgemv(h, N, 4, 4, &one, A, 4, x, 0, &half, y, 1));
  P("gemv.T.incx0", cublasSgemv(h, T, 4, 4, &one, A, 4, x, 0, &half, y, 1));
  P("gemv.incy0", cublasSgemv(h, N, 4, 4, &one, A, 4, x, 1, &half, y, 0));
  P("gemv.incx-1", cublasSgemv(h, N, 4, 4, &one, A, 4, x, -1, &half, y, 1));
  P("gemv.trans9", cublasSgemv(h, (cublasOperation_t)9, 4, 4, &one, A, 4, x, 1, &half, y, 1));
  P("gbmv.kl-1", cublasSgbmv(h, N, 4, 4, -1, 1, &one, A, 4, x, 1, &half, y, 1));
  P("gbmv.lda2", cublasSgbmv(h, N, 4, 4, 1, 1, &one, A, 2, x, 1, &half, y, 1));
  P("gbmv.incx0", cublasSgbmv(h, N, 4, 4, 1, 1, &one, A, 3, x, 0, &half, y, 1));
  P("gbmv.n-1", cublasSgbmv(h, N, 4, -1, 1, 1, &one, A, 3, x, 1, &half, y, 1));
  P("ger.m-1", cublasSger(h, -1, 4, &one, x, 1, y, 1, C, 4));
  P("ger.n-1", cublasSger(h, 4, -1, &one, x, 1, y, 1, C, 4));
  P("ger.incx0", cublasSger(h, 4, 4, &one, x, 0, y, 1, C, 4));
  P("ger.lda3", cublasSger(h, 4, 4, &one, x, 1, y, 1, C, 3));
  P("symv.n-1", cublasSsymv(h, L, -1, &one, A, 4, x, 1, &half, y, 1));
  P("symv.incx0", cublasSsymv(h, L, 4, &one, A, 4, x, 0, &half, y, 1));
  P("symv.incy0", cublasSsymv(h, L, 4, &one, A, 4, x, 1, &half, y, 0));
  P("symv.lda3", cublasSsymv(h, L, 4, &one, A, 3, x, 1, &half, y, 1));
  P("symv.uplo9", cublasSsymv(h, (cublasFillMode_t)9, 4, &one, A, 4, x, 1, &half, y, 1));
  P("sbmv.k-1", cublasSsbmv(h, L, 4, -1, &one, A, 4, x, 1, &half, y, 1));
  P("spmv.incx0", cublasSspmv(h, L, 4, &one, A, x, 0, &half, y, 1));
  P("syr.n-1", cublasSsyr(h, L, -1, &one, x, 1, C, 4));
  P("syr.incx0", cublasSsyr(h, L, 4, &one, x, 0, C, 4));
  P("syr.lda3", cublasSsyr(h, L, 4, &one, x, 1, C, 3));
  P("spr.incx0", cublasSspr(h, L, 4, &one, x, 0, C));
  P("syr2.incy0", cublasSsyr2(h, L, 4, &one, x, 1, y, 0, C, 4));
  P("trmv.n-1", cublasStrmv(h, L, N, ND, -1, A, 4, x, 1));
  P("trmv.lda3", cublasStrmv(h, L, N, ND, 4, A, 3, x, 1));
  P("trsv.incx0", cublasStrsv(h, L, N, ND, 4, A, 4, x, 0));
  P("trsv.n-1", cublasStrsv(h, L, N, ND, -1, A, 4, x, 1));
  P("tbmv.k-1", cublasStbmv(h, L, N, ND, 4, -1, A, 4, x, 1));
  P("tbmv.lda1", cublasStbmv(h, L, N, ND, 4, 1, A, 1, x, 1));
  P("tbsv.incx0", cublasStbsv(h, L, N, ND, 4, 1, A, 2, x, 0));
  P("tpmv.incx0", cublasStpmv(h, L, N, ND, 4, A, x, 0));
  P("tpsv.n-1", cublasStpsv(h, L, N, ND, -1, A, x, 1));
  P("trmv.diag9", cublasStrmv(h, L, N, (cublasDiagType_t)9, 4, A, 4, x, 1));
  // level 1
  P("axpy.incx0", cublasSaxpy(h, 4, &one, x, 0, y, 1));
  P("axpy.incy0", cublasSaxpy(h, 4, &one, x, 1, y, 0));
  P("scal.incx0", cublasSscal(h, 4, &half, x, 0));
  P("scal.incx-1", cublasSscal(h, 4, &half, x, -1));
  P("copy.incx0", cublasScopy(h, 4, x, 0, y, 1));
  P("swap.incx0", cublasSswap(h, 4, x, 0, y, 1));
  P("dot.incx0", cublasSdot(h, 4, x, 0, y, 1, &res)); printf("  dot.res=%g\n", res);
  P("nrm2.incx0", cublasSnrm2(h, 4, x, 0, &res)); printf("  nrm2.res=%g\n", res);
  P("nrm2.incx-1", cublasSnrm2(h, 4, x, -1, &res)); printf("  nrm2.res=%g\n", res);
  P("asum.incx0", cublasSasum(h, 4, x, 0, &res)); printf("  asum.res=%g\n", res);
  P("amax.incx0", cublasIsamax(h, 4, x, 0, &ires)); printf("  amax.res=%d\n", ires);
  P("amax.n0", cublasIsamax(h, 0, x, 1, &ires)); printf("  amax.res=%d\n", ires);
  P("amax.incx-1", cublasIsamax(h, 4, x, -1, &ires)); printf("  amax.res=%d\n", ires);
  P("rot.incx0", cublasSrot(h, 4, x, 0, y, 1, &c, &s));
  P("dot.n-1", cublasSdot(h, -1, x, 1, y, 1, &res)); printf("  dot.res=%g\n", res);
  // level 3
  P("gemm.n-1", cublasSgemm(h, N, N, 4, -1, 4, &one, A, 4, A, 4, &one, C, 4));
  P("gemm.m0", cublasSgemm(h, N, N, 0, 4, 4, &one, A, 4, A, 4, &one, C, 4));
  P("gemm.k0", cublasSgemm(h, N, N, 4, 4, 0, &one, A, 4, A, 4, &half, C, 4));
  P("gemm.transb9", cublasSgemm(h, N, (cublasOperation_t)9, 4, 4, 4, &one, A, 4, A, 4, &one, C, 4));
  P("symm.side9", cublasSsymm(h, (cublasSideMode_t)9, L, 4, 4, &one, A, 4, A, 4, &one, C, 4));
  P("symm.n-1", cublasSsymm(h, CUBLAS_SIDE_LEFT, L, 4, -1, &one, A, 4, A, 4, &one, C, 4));
  P("syrk.k-1", cublasSsyrk(h, L, N, 4, -1, &one, A, 4, &one, C, 4));
  P("syrk.ldc3", cublasSsyrk(h, L, N, 4, 4, &one, A, 4, &one, C, 3));
  P("syr2k.n-1", cublasSsyr2k(h, L, N, -1, 4, &one, A, 4, A, 4, &one, C, 4));
  P("trmm.m-1", cublasStrmm(h, CUBLAS_SIDE_LEFT, L, N, ND, -1, 4, &one, A, 4, A, 4, C, 4));
  P("trmm.ldb3", cublasStrmm(h, CUBLAS_SIDE_LEFT, L, N, ND, 4, 4, &one, A, 4, A, 3, C, 4));
  P("trsm.lda3", cublasStrsm(h, CUBLAS_SIDE_LEFT, L, N, ND, 4, 4, &one, A, 3, C, 4));
  P("trsm.ldb3", cublasStrsm(h, CUBLAS_SIDE_LEFT, L, N, ND, 4, 4, &one, A, 4, C, 3));
  P("geam.m-1", cublasSgeam(h, N, N, -1, 4, &one, A, 4, &one, A, 4, C, 4));
  P("geam.ldc3", cublasSgeam(h, N, N, 4, 4, &one, A, 4, &one, A, 4, C, 3));
  P("dgmm.m-1", cublasSdgmm(h, CUBLAS_SIDE_LEFT, -1, 4, A, 4, x, 1, C, 4));
  P("dgmm.incx0", cublasSdgmm(h, CUBLAS_SIDE_LEFT, 4, 4, A, 4, x, 0, C, 4));
  P("gemmsb.m-1", cublasSgemmStridedBatched(h, N, N, -1, 4, 4, &one, A, 4, 16, A, 4, 16, &one, C, 4, 16, 1));
  P("gemmsb.lda3", cublasSgemmStridedBatched(h, N, N, 4, 4, 4, &one, A, 3, 16, A, 4, 16, &one, C, 4, 16, 1));
  P("gemmex.lda3", cublasGemmEx(h, N, N, 4, 4, 4, &one, A, CUDA_R_32F, 3, A, CUDA_R_32F, 4, &one, C, CUDA_R_32F, 4, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
  const double done = 1;
  P("dgemm.m-1", cublasDgemm(h, N, N, -1, 4, 4, &done, (double *)A, 4, (double *)A, 4, &done, (double *)C, 4));
  P("cgemm.lda3", cublasCgemm(h, N, N, 4, 4, 4, (const cuComplex*)&one, (cuComplex*)A, 3, (cuComplex*)A, 4, (const cuComplex*)&one, (cuComplex*)C, 4));
  P("hgemm.lda3", cublasHgemm(h, N, N, 4, 4, 4, (const __half*)&one, (__half*)A, 3, (__half*)A, 4, (const __half*)&one, (__half*)C, 4));
  P("sgemv64.n-1", cublasSgemv_64(h, N, 4, -1, &one, A, 4, x, 1, &half, y, 1));
  P("dgemv.n-1", cublasDgemv(h, N, 4, -1, &done, (double*)A, 4, (double*)x, 1, &done, (double*)y, 1));
  P("dgemv.lda3", cublasDgemv(h, N, 4, 4, &done, (double*)A, 3, (double*)x, 1, &done, (double*)y, 1));
  const cuComplex cone = {1, 0.5f};
  P("cgemv.incx0", cublasCgemv(h, N, 2, 2, &cone, (cuComplex*)A, 2, (cuComplex*)x, 0, &cone, (cuComplex*)y, 1));
  printf("PASS cublas_arg_probe\n");
  return 0;
}
