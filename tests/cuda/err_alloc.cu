// err_alloc: allocation errors are not sticky.  Freeing a pointer twice
// gives cudaErrorInvalidValue; an allocation far over the device's memory
// gives cudaErrorMemoryAllocation.  cudaGetLastError reports each once, and
// afterwards launches, copies and allocations still work.
#include "check.h"

__global__ void add_one(int *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    p[i] += 1;
}

static void expect_works(int *d, int n, int want) {
  add_one<<<(n + 255) / 256, 256>>>(d, n);
  CHECK_LAUNCH();
  int h[4];
  CHECK(cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost));
  for (int i = 0; i < 4; i++)
    if (h[i] != want) {
      printf("FAIL after an error: got %d, expected %d\n", h[i], want);
      exit(1);
    }
}

int main(void) {
  const int n = 1000;
  int *d;
  CHECK(cudaMalloc(&d, n * sizeof(int)));
  CHECK(cudaMemset(d, 0, n * sizeof(int)));
  expect_works(d, n, 1);

  int *tmp;
  CHECK(cudaMalloc(&tmp, 256));
  CHECK(cudaFree(tmp));
  EXPECT_ERROR(cudaFree(tmp), cudaErrorInvalidValue);
  CHECK(cudaGetLastError() == cudaErrorInvalidValue ? cudaSuccess : cudaErrorUnknown);

  void *huge;
  EXPECT_ERROR(cudaMalloc(&huge, (size_t)1 << 50), cudaErrorMemoryAllocation);
  CHECK(cudaGetLastError() == cudaErrorMemoryAllocation ? cudaSuccess : cudaErrorUnknown);
  CHECK(cudaMalloc(&tmp, 1 << 20));         // later allocations still work
  CHECK(cudaFree(tmp));
  expect_works(d, n, 2);
  CHECK(cudaFree(d));
  return pass("err_alloc");
}
