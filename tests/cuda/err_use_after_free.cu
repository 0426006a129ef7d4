// err_use_after_free: a kernel writes through a pointer whose allocation was
// freed.  The synchronize returns cudaErrorIllegalAddress and the error is
// sticky.  The buffer is 256 MiB and the write aims at its middle, so that a
// GPU's allocator has unmapped it (see oob_write.cu).
#include "check.h"

__global__ void fill(int *p, int v) {
  p[blockIdx.x * blockDim.x + threadIdx.x] = v;
}

int main(void) {
  const size_t big_bytes = (size_t)256 << 20;
  int *big;
  CHECK(cudaMalloc(&big, big_bytes));
  int *middle = big + big_bytes / sizeof(int) / 2;
  fill<<<4, 64>>>(middle, 7);               // while allocated: fine
  CHECK_LAUNCH();
  int h[4];
  CHECK(cudaMemcpy(h, middle, sizeof(h), cudaMemcpyDeviceToHost));
  if (h[0] != 7 || h[3] != 7)
    fail("write before free");
  CHECK(cudaFree(big));
  fill<<<4, 64>>>(middle, 9);               // after the free
  CHECK(cudaGetLastError());
  EXPECT_ERROR(cudaDeviceSynchronize(), cudaErrorIllegalAddress);
  int *other;
  EXPECT_ERROR(cudaMalloc(&other, 64), cudaErrorIllegalAddress);
  EXPECT_ERROR(cudaDeviceSynchronize(), cudaErrorIllegalAddress);
  return pass("err_use_after_free");
}
