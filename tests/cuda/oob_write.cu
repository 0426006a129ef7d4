// oob_write: a kernel writes far past the end of a small cudaMalloc'ed buffer,
// into memory that is certainly not mapped, so that a real GPU faults too: the
// synchronize must return cudaErrorIllegalAddress, the error is sticky (later
// calls return it too), and the process lives on to print it.  Exits 0 when
// all of that holds.
//
// Where the write lands: on an H200 (driver 580) a fixed offset past a small
// buffer did not fault reliably -- 4 MiB and 64 MiB past landed in mapped
// memory, and 128 MiB to 1 GiB past faulted with cudaErrorIllegalAddress in
// some runs and cudaErrorInvalidAddressSpace in others, depending on where the
// allocations were placed.  So the test allocates a 256 MiB buffer, frees it
// (which unmaps it), and aims the write at the middle of that range, expressed
// as an element offset from the small buffer (at least 2^20 elements away).
#include "check.h"

__global__ void write_far(int *p, long long offset) {
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
  const size_t big_bytes = (size_t)256 << 20;
  char *big;
  CHECK(cudaMalloc(&big, big_bytes));
  CHECK(cudaFree(big));                    // unmapped from here on
  long long offset = ((long long)(big + big_bytes / 2) - (long long)d) / (long long)sizeof(int);
  if (offset < (1ll << 20) && offset > -(1ll << 20)) {
    printf("FAIL setup: the freed range is only %lld elements from the buffer\n", offset);
    return 1;
  }
  write_far<<<1, 32>>>(d, offset);
  CHECK(cudaGetLastError());
  EXPECT_ERROR(cudaDeviceSynchronize(), cudaErrorIllegalAddress);
  EXPECT_ERROR(cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost), cudaErrorIllegalAddress);
  EXPECT_ERROR(cudaDeviceSynchronize(), cudaErrorIllegalAddress);
  printf("saw %s\n", cudaGetErrorName(cudaErrorIllegalAddress));
  return pass("oob_write");
}
