// oob_write: a kernel writes far past the end of a small cudaMalloc'ed buffer
// (index + 2^OOB_SHIFT elements, default 2^28 ints = 1 GiB past it).  On an
// H200 (driver 580) writes 4 MiB and 64 MiB past the end landed in mapped
// memory and did not fault, while 256 MiB and 1 GiB past did: the offset is
// chosen so that a real GPU faults too.
// The synchronize must return cudaErrorIllegalAddress, the error is sticky,
// and the process lives on to print it.  Exits 0 when all of that holds.
#include "check.h"

#ifndef OOB_SHIFT
#define OOB_SHIFT 28
#endif

__global__ void write_far(int *p, size_t offset) {
  p[threadIdx.x + offset] = 42;
}

int main(void) {
  int *d;
  CHECK(cudaMalloc(&d, 1024 * sizeof(int)));
  CHECK(cudaMemset(d, 0, 1024 * sizeof(int)));
  write_far<<<1, 1>>>(d, 5);               // in bounds: fine
  CHECK_LAUNCH();
  int h[8];
  CHECK(cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost));
  if (h[5] != 42) {
    printf("FAIL in-bounds write: index 5: got %d, expected 42\n", h[5]);
    return 1;
  }
  write_far<<<1, 32>>>(d, (size_t)1 << OOB_SHIFT);
  CHECK(cudaGetLastError());
  EXPECT_ERROR(cudaDeviceSynchronize(), cudaErrorIllegalAddress);
  EXPECT_ERROR(cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost), cudaErrorIllegalAddress);
  EXPECT_ERROR(cudaDeviceSynchronize(), cudaErrorIllegalAddress);
  printf("saw %s\n", cudaGetErrorName(cudaErrorIllegalAddress));
  return pass("oob_write");
}
