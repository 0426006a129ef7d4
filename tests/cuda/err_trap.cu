// err_trap: a kernel executes __trap().  CUDA reports cudaErrorLaunchFailure
// ("unspecified launch failure") at the next synchronize, and the error is
// sticky.
#include "check.h"

__global__ void maybe_trap(int *p, int bad) {
  if (threadIdx.x == bad)
    __trap();
  p[threadIdx.x] = 1;
}

int main(void) {
  int *d;
  CHECK(cudaMalloc(&d, 64 * sizeof(int)));
  maybe_trap<<<1, 64>>>(d, -1);             // no thread traps
  CHECK_LAUNCH();
  maybe_trap<<<1, 64>>>(d, 17);
  CHECK(cudaGetLastError());
  EXPECT_ERROR(cudaDeviceSynchronize(), cudaErrorLaunchFailure);
  int h[4];
  EXPECT_ERROR(cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost), cudaErrorLaunchFailure);
  EXPECT_ERROR(cudaDeviceSynchronize(), cudaErrorLaunchFailure);
  return pass("err_trap");
}
