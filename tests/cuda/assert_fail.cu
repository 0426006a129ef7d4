// assert_fail: a kernel whose assert fails makes the synchronize return
// cudaErrorAssert; the error is sticky (later calls return it too), and the
// process lives on to report it.  Exits 0 when all of that holds.
#include <assert.h>
#include "check.h"

__global__ void all_positive(const int *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) assert(x[i] > 0);
}

int main(void) {
  const int n = 256;
  int h[n];
  for (int i = 0; i < n; i++) h[i] = i + 1;
  int *d;
  CHECK(cudaMalloc(&d, sizeof(h)));
  CHECK(cudaMemcpy(d, h, sizeof(h), cudaMemcpyHostToDevice));
  all_positive<<<2, 128>>>(d, n);        // every assert holds
  CHECK_LAUNCH();
  h[77] = -5;
  CHECK(cudaMemcpy(d, h, sizeof(h), cudaMemcpyHostToDevice));
  fflush(stdout);
  all_positive<<<2, 128>>>(d, n);        // thread 77 of block 0 fails
  CHECK(cudaGetLastError());             // the launch itself was fine
  EXPECT_ERROR(cudaDeviceSynchronize(), cudaErrorAssert);
  // Sticky: the context is unusable from now on.
  int *d2 = NULL;
  EXPECT_ERROR(cudaMalloc(&d2, 64), cudaErrorAssert);
  EXPECT_ERROR(cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost), cudaErrorAssert);
  EXPECT_ERROR(cudaDeviceSynchronize(), cudaErrorAssert);
  printf("saw %s\n", cudaGetErrorName(cudaErrorAssert));
  return pass("assert_fail");
}
