// managed_memory: a small cudaMallocManaged buffer written by the host, updated
// by a kernel, and read by the host after a synchronize; plus a __managed__
// variable.
#include "check.h"

__managed__ int managed_counter;

__global__ void triple(int *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] *= 3;
  if (i == 0) managed_counter += 5;
}

int main(void) {
  const int n = 4096;
  int *p;
  CHECK(cudaMallocManaged(&p, n * sizeof(int)));
  for (int i = 0; i < n; i++) p[i] = i - 100;
  managed_counter = 10;
  triple<<<n / 256, 256>>>(p, n);
  CHECK_LAUNCH();
  int *want = (int *)malloc(n * sizeof(int));
  for (int i = 0; i < n; i++) want[i] = (i - 100) * 3;
  check_i32("managed buffer", p, want, n);
  int c = managed_counter, wc = 15;
  check_i32("__managed__ counter", &c, &wc, 1);
  CHECK(cudaFree(p));
  free(want);
  return pass("managed_memory");
}
