/* cublas_vmm.cu: cuBLAS on operands in virtual memory mapped piece by piece,
 * as llama.cpp's memory pool grows: one address range reserved with
 * cuMemAddressReserve, two physical allocations mapped into it one after
 * the other, and Saxpy, Sgemm and SgemmStridedBatched on operands that
 * cross from the first mapping into the second (the GPU reads across them).
 * Then an operand that runs past the end of the mapped range into the
 * reserved, unmapped rest: cuBLAS's kernel faults (an illegal address), and
 * cubridge's facade faults or refuses. Links
 * the driver API (-lcuda). */
#include <cuda.h>

#include "lib_check.h"

static void drv(CUresult r, const char *what, int line) {
  if (r != CUDA_SUCCESS) {
    const char *s = NULL;
    cuGetErrorName(r, &s);
    printf("FAIL line %d: %s returned %s\n", line, what, s ? s : "?");
    exit(1);
  }
}
#define DRV(x) drv((x), #x, __LINE__)

int main() {
  CHECK(cudaFree(0));   /* the primary context */
  CUdevice dev;
  DRV(cuDeviceGet(&dev, 0));
  CUmemAllocationProp prop = {};
  prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
  prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  prop.location.id = dev;
  size_t gran = 0;
  DRV(cuMemGetAllocationGranularity(&gran, &prop, CU_MEM_ALLOC_GRANULARITY_MINIMUM));
  size_t piece = gran < ((size_t)1 << 21) ? ((size_t)1 << 21) / gran * gran : gran;   /* >= 2 MiB */
  CUdeviceptr base = 0;
  /* three pieces reserved, two mapped: the third stays unmapped, so that an operand past the mapped range
   * reaches addresses nothing else can have (on the H200 an overrun past a range of exactly two pieces read
   * whatever the driver had mapped next, without a fault) */
  DRV(cuMemAddressReserve(&base, 3 * piece, 0, 0, 0));
  CUmemGenericAllocationHandle h[2];
  for (int i = 0; i < 2; i++) {
    DRV(cuMemCreate(&h[i], piece, &prop, 0));
    DRV(cuMemMap(base + i * piece, piece, 0, h[i], 0));
  }
  CUmemAccessDesc acc = {};
  acc.location = prop.location;
  acc.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
  for (int i = 0; i < 2; i++) DRV(cuMemSetAccess(base + i * piece, piece, &acc, 1));

  cublasHandle_t H;
  CHECK_BLAS(cublasCreate(&H));
  const size_t nf = 2 * piece / sizeof(float);
  float *all = (float *)(uintptr_t)base;

  /* Saxpy: x runs from the first mapping into the second */
  {
    int n = (int)(nf / 2) + 1024;
    float *x = all + nf / 4;   /* [piece/2, piece/2 + 4 n) bytes: across the boundary at piece */
    std::vector<float> hx((size_t)n);
    for (size_t i = 0; i < hx.size(); i++) hx[i] = (float)((i * 7) % 13) - 6.0f;
    CHECK(cudaMemcpy(x, hx.data(), hx.size() * sizeof(float), cudaMemcpyHostToDevice));
    float *dy = NULL;
    CHECK(cudaMalloc(&dy, (size_t)n * sizeof(float)));
    std::vector<float> hy((size_t)n, 1.0f);
    CHECK(cudaMemcpy(dy, hy.data(), hy.size() * sizeof(float), cudaMemcpyHostToDevice));
    float alpha = 2.0f;
    CHECK_BLAS(cublasSaxpy(H, n, &alpha, x, 1, dy, 1));
    std::vector<float> got((size_t)n);
    CHECK(cudaMemcpy(got.data(), dy, got.size() * sizeof(float), cudaMemcpyDeviceToHost));
    std::vector<cd> want((size_t)n);
    for (int i = 0; i < n; i++) want[i] = 2.0 * hx[i] + 1.0;
    compare("saxpy across two mappings", got, want);
    CHECK(cudaFree(dy));
  }

  /* Sgemm: A (64 x k) straddles the boundary between the mappings */
  {
    const int m = 64, k = 2048, nn = 8;
    size_t a_elems = (size_t)m * k;
    float *A = all + (piece / sizeof(float)) - a_elems / 2;   /* half in each mapping */
    std::vector<float> hA(a_elems), hB((size_t)k * nn);
    for (size_t i = 0; i < a_elems; i++) hA[i] = (float)((i * 5) % 9) - 4.0f;
    for (size_t i = 0; i < hB.size(); i++) hB[i] = (float)((i * 3) % 7) - 3.0f;
    CHECK(cudaMemcpy(A, hA.data(), a_elems * sizeof(float), cudaMemcpyHostToDevice));
    float *B = NULL, *C = NULL;
    CHECK(cudaMalloc(&B, hB.size() * sizeof(float)));
    CHECK(cudaMalloc(&C, (size_t)m * nn * sizeof(float)));
    CHECK(cudaMemcpy(B, hB.data(), hB.size() * sizeof(float), cudaMemcpyHostToDevice));
    float one = 1.0f, zero = 0.0f;
    CHECK_BLAS(cublasSgemm(H, CUBLAS_OP_N, CUBLAS_OP_N, m, nn, k, &one, A, m, B, k, &zero, C, m));
    std::vector<float> got((size_t)m * nn);
    CHECK(cudaMemcpy(got.data(), C, got.size() * sizeof(float), cudaMemcpyDeviceToHost));
    std::vector<double> want((size_t)m * nn, 0.0);   /* exact: small integers */
    for (int j = 0; j < nn; j++)
      for (int i = 0; i < m; i++) {
        double s = 0;
        for (int l = 0; l < k; l++) s += (double)hA[(size_t)l * m + i] * hB[(size_t)j * k + l];
        want[(size_t)j * m + i] = s;
      }
    std::vector<cd> wantc(want.begin(), want.end());
    compare("sgemm, A across two mappings", got, wantc);

    /* a strided batch of 2 over the two halves of A's columns: the second A starts in the second mapping */
    float *C2 = NULL;
    CHECK(cudaMalloc(&C2, 2 * (size_t)m * nn * sizeof(float)));
    const int kh = k / 2;
    CHECK_BLAS(cublasSgemmStridedBatched(H, CUBLAS_OP_N, CUBLAS_OP_N, m, nn, kh, &one, A, m, (long long)m * kh, B, k,
                                         kh, &zero, C2, m, (long long)m * nn, 2));
    std::vector<float> got2(2 * (size_t)m * nn);
    CHECK(cudaMemcpy(got2.data(), C2, got2.size() * sizeof(float), cudaMemcpyDeviceToHost));
    std::vector<cd> want2(got2.size());
    for (int b2 = 0; b2 < 2; b2++)
      for (int j = 0; j < nn; j++)
        for (int i = 0; i < m; i++) {
          double t = 0;
          for (int l = 0; l < kh; l++)
            t += (double)hA[(size_t)(b2 * kh + l) * m + i] * hB[(size_t)j * k + b2 * kh + l];
          want2[(size_t)b2 * m * nn + (size_t)j * m + i] = t;
        }
    compare("sgemm strided batch, the second A in the second mapping", got2, want2);
    CHECK(cudaFree(C2));
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaFree(B));
    CHECK(cudaFree(C));
  }

  /* past the end of the mapped range: an illegal address */
  {
    int n = 4096;
    float *x = all + nf - 1024;   /* 3072 floats beyond the range */
    float *dy = NULL;
    CHECK(cudaMalloc(&dy, (size_t)n * sizeof(float)));
    float alpha = 1.0f;
    cublasStatus_t s = cublasSaxpy(H, n, &alpha, x, 1, dy, 1);
    cudaError_t e = cudaDeviceSynchronize();
    if (s == CUBLAS_STATUS_SUCCESS && e == cudaSuccess) {
      printf("FAIL saxpy past the mapped range: no error\n");
      lib_fail();
    }
    printf("past the mapped range: %s\n", e != cudaSuccess ? "illegal address" : "refused");
    if (lib_failures) return 1;
    printf("PASS cublas_vmm\n");   /* the context is broken now: no cleanup */
    return 0;
  }
}
