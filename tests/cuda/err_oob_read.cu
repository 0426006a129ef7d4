// err_oob_read: a kernel reads far outside any allocation.  The synchronize
// returns cudaErrorIllegalAddress, the error is sticky (later calls return it
// too) and the process lives on.  Where the read lands: the middle of a
// 256 MiB buffer that was allocated and freed (unmapped), as in oob_write.cu,
// because on an H200 small fixed offsets past a buffer can land in mapped
// memory.
#include "check.h"

__global__ void read_far(const int *p, long long offset, int *out) {
  out[threadIdx.x] = p[threadIdx.x + offset];
}

int main(void) {
  int *d, *out;
  CHECK(cudaMalloc(&d, 1024 * sizeof(int)));
  CHECK(cudaMalloc(&out, 32 * sizeof(int)));
  CHECK(cudaMemset(d, 0, 1024 * sizeof(int)));
  read_far<<<1, 32>>>(d, 5, out);           // in bounds: fine
  CHECK_LAUNCH();
  const size_t big_bytes = (size_t)256 << 20;
  char *big;
  CHECK(cudaMalloc(&big, big_bytes));
  CHECK(cudaFree(big));
  long long offset = ((long long)(big + big_bytes / 2) - (long long)d) / (long long)sizeof(int);
  if (offset < (1ll << 20) && offset > -(1ll << 20))
    fail("setup: the freed range is too close to the buffer");
  read_far<<<1, 32>>>(d, offset, out);
  CHECK(cudaGetLastError());
  EXPECT_ERROR(cudaDeviceSynchronize(), cudaErrorIllegalAddress);
  int h[8];
  EXPECT_ERROR(cudaMemcpy(h, out, sizeof(h), cudaMemcpyDeviceToHost), cudaErrorIllegalAddress);
  EXPECT_ERROR(cudaGetLastError(), cudaErrorIllegalAddress);
  EXPECT_ERROR(cudaDeviceSynchronize(), cudaErrorIllegalAddress);
  return pass("err_oob_read");
}
