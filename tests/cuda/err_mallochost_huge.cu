// err_mallochost_huge: pinned host memory of 1 TiB, more than the machine
// holds, fails with cudaErrorMemoryAllocation (not sticky); smaller pinned
// allocations still work afterwards.
#include "check.h"

int main(void) {
  const size_t tib = (size_t)1 << 40;
  void *p = NULL;
  EXPECT_ERROR(cudaMallocHost(&p, tib), cudaErrorMemoryAllocation);
  cudaGetLastError();
  EXPECT_ERROR(cudaHostAlloc(&p, tib, cudaHostAllocMapped), cudaErrorMemoryAllocation);
  cudaGetLastError();
  int *small;
  CHECK(cudaMallocHost(&small, 1 << 20));
  small[0] = 1;
  small[(1 << 18) - 1] = 2;
  CHECK(cudaFreeHost(small));
  void *d;
  CHECK(cudaMalloc(&d, 64));    // not sticky
  CHECK(cudaFree(d));
  return pass("err_mallochost_huge");
}
