// err_launch_config: launches CUDA refuses are not sticky.  More than 1024
// threads per block, a block z over 64, a zero grid or block dimension and
// more dynamic shared memory than 48 KiB (without opting in) give
// cudaErrorInvalidValue from cudaGetLastError, which clears it, and the next
// launch works.  (Not cudaErrorInvalidValue: with CUDA 13.0 on an
// H200 cudart passes cuLaunchKernel's CUDA_ERROR_INVALID_VALUE through;
// measured, see docs/reliability.md.)
#include "check.h"

__global__ void add_one(int *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    p[i] += 1;
}

int main(void) {
  const int n = 1000;
  int *d;
  CHECK(cudaMalloc(&d, n * sizeof(int)));
  CHECK(cudaMemset(d, 0, n * sizeof(int)));
  add_one<<<1, 1025>>>(d, n);
  EXPECT_ERROR(cudaGetLastError(), cudaErrorInvalidValue);
  CHECK(cudaGetLastError());                // cleared by the first call
  add_one<<<1, dim3(32, 32, 2)>>>(d, n);
  EXPECT_ERROR(cudaGetLastError(), cudaErrorInvalidValue);
  add_one<<<1, dim3(1, 1, 65)>>>(d, n);
  EXPECT_ERROR(cudaGetLastError(), cudaErrorInvalidValue);
  add_one<<<0, 32>>>(d, n);
  EXPECT_ERROR(cudaGetLastError(), cudaErrorInvalidValue);
  add_one<<<1, 0>>>(d, n);
  EXPECT_ERROR(cudaGetLastError(), cudaErrorInvalidValue);
  add_one<<<1, 32, 48 * 1024 + 1>>>(d, n);
  EXPECT_ERROR(cudaGetLastError(), cudaErrorInvalidValue);
  CHECK(cudaDeviceSynchronize());           // none of them is sticky
  add_one<<<(n + 255) / 256, 256>>>(d, n);
  CHECK_LAUNCH();
  int h[4];
  CHECK(cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost));
  if (h[0] != 1 || h[3] != 1)
    fail("the refused launches ran, or the valid one did not");
  CHECK(cudaFree(d));
  return pass("err_launch_config");
}
