/* cublas_status_probe.cu: the status cuBLAS returns for each kind of bad
 * input -- NULL handle, negative sizes, leading dimensions too small, zero
 * increments, invalid enums, NULL results, unsupported type pairs -- one
 * line "<case> <status>" each, then "PASS cublas_status_probe".
 *
 * run_test.sh compares the lines with cublas_status_probe.expected: the
 * H200's answers (tests/lib/h200/cublas_status_probe.txt, recorded with
 *   nvcc tests/lib/cublas_status_probe.cu -o probe -lcublas && ./probe)
 * less the reference-BLAS lines NVIDIA prints (" ** On entry to SGEMM
 * parameter number 3 had an illegal value"; cubridge prints none:
 * docs/libraries.md, "Bad input"). cublas_arg_probe.cu goes further.
 * Every call here should be rejected before any work; the ones that would
 * touch invalid memory if they were not come last, and stdout is
 * unbuffered, so that a crash on the GPU still leaves the lines before it. */
#include "lib_check.h"

static const char *status_name(cublasStatus_t s) {
  switch (s) {
  case CUBLAS_STATUS_SUCCESS: return "CUBLAS_STATUS_SUCCESS";
  case CUBLAS_STATUS_NOT_INITIALIZED: return "CUBLAS_STATUS_NOT_INITIALIZED";
  case CUBLAS_STATUS_ALLOC_FAILED: return "CUBLAS_STATUS_ALLOC_FAILED";
  case CUBLAS_STATUS_INVALID_VALUE: return "CUBLAS_STATUS_INVALID_VALUE";
  case CUBLAS_STATUS_ARCH_MISMATCH: return "CUBLAS_STATUS_ARCH_MISMATCH";
  case CUBLAS_STATUS_MAPPING_ERROR: return "CUBLAS_STATUS_MAPPING_ERROR";
  case CUBLAS_STATUS_EXECUTION_FAILED: return "CUBLAS_STATUS_EXECUTION_FAILED";
  case CUBLAS_STATUS_INTERNAL_ERROR: return "CUBLAS_STATUS_INTERNAL_ERROR";
  case CUBLAS_STATUS_NOT_SUPPORTED: return "CUBLAS_STATUS_NOT_SUPPORTED";
  case CUBLAS_STATUS_LICENSE_ERROR: return "CUBLAS_STATUS_LICENSE_ERROR";
  default: return "unknown";
  }
}

#define PROBE(name, call) printf("%-40s %s\n", name, status_name(call))

int main() {
  cublasHandle_t h;
  CHECK_BLAS(cublasCreate(&h));
  float *A, *x, *r;
  CHECK(cudaMalloc((void **)&A, 4096 * sizeof(float)));
  CHECK(cudaMalloc((void **)&x, 4096 * sizeof(float)));
  CHECK(cudaMalloc((void **)&r, 16 * sizeof(float)));
  CHECK(cudaMemset(A, 0, 4096 * sizeof(float)));
  CHECK(cudaMemset(x, 0, 4096 * sizeof(float)));
  CHECK(cudaMemset(r, 0, 16 * sizeof(float)));
  setvbuf(stdout, NULL, _IONBF, 0);   /* every line out before the next call, should one crash */
  float one = 1, res = 0;
  int ver = 0, info = 0;
  const cublasOperation_t N = CUBLAS_OP_N;

  /* a NULL handle */
  PROBE("null-handle.Sgemm", cublasSgemm(NULL, N, N, 4, 4, 4, &one, A, 4, A, 4, &one, A, 4));
  PROBE("null-handle.Saxpy", cublasSaxpy(NULL, 4, &one, x, 1, x, 1));
  PROBE("null-handle.Snrm2", cublasSnrm2(NULL, 4, x, 1, &res));
  PROBE("null-handle.Sgemv", cublasSgemv(NULL, N, 4, 4, &one, A, 4, x, 1, &one, x, 1));
  PROBE("null-handle.GemmEx", cublasGemmEx(NULL, N, N, 4, 4, 4, &one, A, CUDA_R_32F, 4, A, CUDA_R_32F, 4, &one, A,
                                           CUDA_R_32F, 4, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
  PROBE("null-handle.SetStream", cublasSetStream(NULL, NULL));
  PROBE("null-handle.GetVersion", cublasGetVersion(NULL, &ver));
  PROBE("null-handle.Destroy", cublasDestroy(NULL));

  /* negative sizes */
  PROBE("negative.Sgemm.m", cublasSgemm(h, N, N, -1, 4, 4, &one, A, 4, A, 4, &one, A, 4));
  PROBE("negative.Sgemm.k", cublasSgemm(h, N, N, 4, 4, -1, &one, A, 4, A, 4, &one, A, 4));
  PROBE("negative.Sgemv.n", cublasSgemv(h, N, 4, -1, &one, A, 4, x, 1, &one, x, 1));
  PROBE("negative.Strsm.m", cublasStrsm(h, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_LOWER, N, CUBLAS_DIAG_NON_UNIT, -1, 4,
                                        &one, A, 4, A, 4));
  PROBE("negative.Ssyrk.n", cublasSsyrk(h, CUBLAS_FILL_MODE_LOWER, N, -1, 4, &one, A, 4, &one, A, 4));
  PROBE("negative.Saxpy.n", cublasSaxpy(h, -1, &one, x, 1, x, 1));
  PROBE("negative.Snrm2.n", cublasSnrm2(h, -1, x, 1, &res));
  PROBE("negative.SgemmBatched.count",
        cublasSgemmStridedBatched(h, N, N, 4, 4, 4, &one, A, 4, 16, A, 4, 16, &one, A, 4, 16, -1));
  PROBE("negative.GemmEx.k", cublasGemmEx(h, N, N, 4, 4, -1, &one, A, CUDA_R_32F, 4, A, CUDA_R_32F, 4, &one, A,
                                          CUDA_R_32F, 4, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));

  /* leading dimensions too small */
  PROBE("lda.Sgemm", cublasSgemm(h, N, N, 4, 4, 4, &one, A, 3, A, 4, &one, A, 4));
  PROBE("ldb.Sgemm", cublasSgemm(h, N, N, 4, 4, 4, &one, A, 4, A, 3, &one, A, 4));
  PROBE("ldc.Sgemm", cublasSgemm(h, N, N, 4, 4, 4, &one, A, 4, A, 4, &one, A, 3));
  PROBE("lda.Sgemm.transposed", cublasSgemm(h, CUBLAS_OP_T, N, 8, 4, 4, &one, A, 3, A, 4, &one, A, 8));
  PROBE("lda.Sgemv", cublasSgemv(h, N, 4, 4, &one, A, 3, x, 1, &one, x, 1));
  PROBE("lda.Strsv", cublasStrsv(h, CUBLAS_FILL_MODE_LOWER, N, CUBLAS_DIAG_NON_UNIT, 4, A, 3, x, 1));
  PROBE("lda.Ssymm", cublasSsymm(h, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_LOWER, 4, 4, &one, A, 3, A, 4, &one, A, 4));
  PROBE("lda.Sgeam", cublasSgeam(h, N, N, 4, 4, &one, A, 3, &one, A, 4, x, 4));

  /* zero increments, invalid enums, NULL results */
  PROBE("incx0.Sgemv", cublasSgemv(h, N, 4, 4, &one, A, 4, x, 0, &one, x, 1));
  PROBE("incy0.Sger", cublasSger(h, 4, 4, &one, x, 1, x, 0, A, 4));
  PROBE("incx0.Strmv", cublasStrmv(h, CUBLAS_FILL_MODE_LOWER, N, CUBLAS_DIAG_NON_UNIT, 4, A, 4, x, 0));
  PROBE("enum.Sgemm.transa", cublasSgemm(h, (cublasOperation_t)7, N, 4, 4, 4, &one, A, 4, A, 4, &one, A, 4));
  PROBE("enum.Ssyrk.uplo", cublasSsyrk(h, (cublasFillMode_t)9, N, 4, 4, &one, A, 4, &one, A, 4));
  PROBE("enum.SetPointerMode", cublasSetPointerMode(h, (cublasPointerMode_t)5));
  PROBE("getrsBatched.n", cublasSgetrsBatched(h, N, -1, 1, (const float **)r, 4, NULL, (float **)r, 4, &info, 1));
  printf("%-40s %d\n", "getrsBatched.n.info", info);

  /* type combinations GemmEx does not have */
  PROBE("types.GemmEx.16F-in.64F-out", cublasGemmEx(h, N, N, 4, 4, 4, &one, A, CUDA_R_16F, 4, A, CUDA_R_16F, 4, &one,
                                                    A, CUDA_R_64F, 4, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
  PROBE("types.GemmEx.8I-in.8I-out", cublasGemmEx(h, N, N, 4, 4, 4, &one, A, CUDA_R_8I, 4, A, CUDA_R_8I, 4, &one, A,
                                                  CUDA_R_8I, 4, CUBLAS_COMPUTE_32I, CUBLAS_GEMM_DEFAULT));
  PROBE("types.GemmEx.A16F.B32F", cublasGemmEx(h, N, N, 4, 4, 4, &one, A, CUDA_R_16F, 4, A, CUDA_R_32F, 4, &one, A,
                                               CUDA_R_32F, 4, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
  PROBE("types.GemmEx.64F.compute32F", cublasGemmEx(h, N, N, 4, 4, 4, &one, A, CUDA_R_64F, 4, A, CUDA_R_64F, 4, &one,
                                                    A, CUDA_R_64F, 4, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
  PROBE("types.GemmEx.bad-compute", cublasGemmEx(h, N, N, 4, 4, 4, &one, A, CUDA_R_32F, 4, A, CUDA_R_32F, 4, &one, A,
                                                 CUDA_R_32F, 4, (cublasComputeType_t)1234, CUBLAS_GEMM_DEFAULT));

  /* last: were one of these not rejected, it would touch invalid memory */
  PROBE("lda.SgetrfBatched", cublasSgetrfBatched(h, 4, (float **)r, 3, NULL, (int *)r, 1));
  PROBE("null-result.Sdot", cublasSdot(h, 4, x, 1, x, 1, NULL));
  PROBE("null-result.Snrm2", cublasSnrm2(h, 4, x, 1, NULL));
  PROBE("matinvBatched.n33", cublasSmatinvBatched(h, 33, (const float **)r, 33, (float **)r, 33, (int *)r, 1));

  CHECK(cudaDeviceSynchronize());
  CHECK_BLAS(cublasDestroy(h));
  cudaFree(A), cudaFree(x), cudaFree(r);
  printf("PASS cublas_status_probe\n");
  return 0;
}
